package stat

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
)

// SparseCount is the mean number of outputs per distinct value (of both
// sides pooled) below which a table of discrete outputs is sparse: most
// values are seen too rarely for their own ratio to be estimated.
const SparseCount = 16

// Sparse reports whether a table's values are seen fewer than SparseCount
// times each on average.
func (t *Table) Sparse() bool {
	return len(t.Cells) > 0 && float64(t.NP+t.NQ) < SparseCount*float64(len(t.Cells))
}

// DenseCount is the mean number of outputs per distinct value (both sides
// pooled) from which numbers are screened value by value alone. Below it a
// value's own log ratio has a standard error above about √(4/DenseCount) ≈
// 0.06, so a loss spread smoothly over many values (a wide discrete
// Laplace) is seen better in ranges of adjacent values ([Ranges]), which
// are screened as well.
const DenseCount = 1000

// Dense reports whether a table's values are seen at least DenseCount
// times each on average.
func (t *Table) Dense() bool {
	return float64(t.NP+t.NQ) >= DenseCount*float64(len(t.Cells))
}

// AsFloat returns the conversion of outputs of type O to float64 if O is a
// number type (an integer or a float, which have an order; a named one
// too), and nil otherwise.
func AsFloat[O comparable]() func(O) float64 {
	var f any
	switch any(*new(O)).(type) {
	case float64:
		f = func(v float64) float64 { return v }
	case float32:
		f = func(v float32) float64 { return float64(v) }
	case int:
		f = func(v int) float64 { return float64(v) }
	case int8:
		f = func(v int8) float64 { return float64(v) }
	case int16:
		f = func(v int16) float64 { return float64(v) }
	case int32:
		f = func(v int32) float64 { return float64(v) }
	case int64:
		f = func(v int64) float64 { return float64(v) }
	case uint:
		f = func(v uint) float64 { return float64(v) }
	case uint8:
		f = func(v uint8) float64 { return float64(v) }
	case uint16:
		f = func(v uint16) float64 { return float64(v) }
	case uint32:
		f = func(v uint32) float64 { return float64(v) }
	case uint64:
		f = func(v uint64) float64 { return float64(v) }
	default:
		return namedAsFloat[O]()
	}
	return f.(func(O) float64)
}

// namedAsFloat is AsFloat for a named number type (type level int64),
// through its NumberKey, and nil for any other type. It reflects on every
// output it converts (boxing it, an allocation beyond the smallest
// integers): correct, and slower than a built-in type's conversion in the
// counting loops.
func namedAsFloat[O comparable]() func(O) float64 {
	if _, ok := NumberKeyOf(*new(O)); !ok {
		return nil
	}
	return func(v O) float64 {
		k, _ := NumberKeyOf(v)
		return k.f
	}
}

// NumberKey is the exact order of a discrete output of a number kind (an
// integer or a float, of a named type or not): integers compare as
// integers, not through float64, which merges those beyond 2⁵³.
type NumberKey struct {
	class int // 1 signed, 2 unsigned, 3 float
	i     int64
	u     uint64
	f     float64
}

// NumberKeyOf returns v's NumberKey and true if v is of a number kind, and
// false otherwise (strings, booleans, structs, a table's [Unlisted]).
func NumberKeyOf(v any) (NumberKey, bool) {
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return NumberKey{class: 1, i: r.Int(), f: float64(r.Int())}, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return NumberKey{class: 2, u: r.Uint(), f: float64(r.Uint())}, true
	case reflect.Float32, reflect.Float64:
		return NumberKey{class: 3, f: r.Float()}, true
	}
	return NumberKey{}, false
}

// CompareNumberKeys orders two keys: exactly when both are signed or both
// unsigned integers (the outputs of one mechanism are of one type), by
// their float64 values otherwise.
func CompareNumberKeys(a, b NumberKey) int {
	switch {
	case a.class == 1 && b.class == 1:
		return cmp.Compare(a.i, b.i)
	case a.class == 2 && b.class == 2:
		return cmp.Compare(a.u, b.u)
	}
	return cmp.Compare(a.f, b.f)
}

// NumberDistance returns b − a for keys with a ≤ b (CompareNumberKeys):
// exactly, then rounded to float64, for two signed or two unsigned
// integers (whose float64 values merge beyond 2⁵³), and through float64
// otherwise.
func NumberDistance(a, b NumberKey) float64 {
	switch {
	case a.class == 1 && b.class == 1:
		return float64(uint64(b.i) - uint64(a.i))
	case a.class == 2 && b.class == 2:
		return float64(b.u - a.u)
	}
	return b.f - a.f
}

// Ranges turns the frequency tables of numeric outputs into a table of
// ranges: a partition cut from the pooled values themselves (about
// PilotPerCell·SparseCount of them a cell, atoms in cells of their own),
// the counts per cell. It is how numeric outputs seen fewer than DenseCount
// times a value (integers spread over millions, floats that never repeat)
// are screened besides value by value: a range holds enough outputs for
// its ratio to be estimated.
// The partition depends on the screening sample it counts, which only
// ranks candidates; what a confirmation counts is fixed before its draws.
func Ranges[O comparable](p, q *Freq[O], toFloat func(O) float64) *Table {
	type vc struct {
		v float64
		n int64
	}
	vals := make([]vc, 0, len(p.Counts)+len(q.Counts))
	for o, c := range p.Counts {
		vals = append(vals, vc{toFloat(o), c + q.Counts[o]})
	}
	for o, c := range q.Counts {
		if _, seen := p.Counts[o]; !seen {
			vals = append(vals, vc{toFloat(o), c})
		}
	}
	slices.SortFunc(vals, func(a, b vc) int { return cmp.Compare(a.v, b.v) })
	pooled := make([]float64, 0, p.N+q.N)
	for _, x := range vals {
		for i := int64(0); i < x.n; i++ {
			pooled = append(pooled, x.v)
		}
	}
	part := NewPartition(pooled, len(pooled)/(PilotPerCell*SparseCount))
	cp, cq := NewPartitionCounts(part), NewPartitionCounts(part)
	for o, c := range p.Counts {
		cp.In[part.Cell(toFloat(o))] += c
	}
	for o, c := range q.Counts {
		cq.In[part.Cell(toFloat(o))] += c
	}
	cp.N, cq.N = p.N, q.N
	return TabulateCells(cp, cq)
}

// SparseError reports discrete outputs, not numbers, whose values repeat too
// rarely to be told apart: counted value by value they cannot show a
// divergence, and there is no order to group them by.
type SparseError struct {
	Values int   // distinct values seen
	Draws  int64 // outputs drawn, both sides
}

func (e *SparseError) Error() string {
	return fmt.Sprintf("the outputs barely repeat (%d distinct values in %d draws)", e.Values, e.Draws)
}
