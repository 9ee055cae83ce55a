package dptest

import (
	"fmt"
	"math"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/search"
)

// describePairs names the neighbour relation and the domain that the
// candidate pairs cover, as the success line reports them ("substitution
// pairs in [0, 1]^10"): a default that does not match the user's data
// decides the verdict, so the line says what was searched. Slices of
// numbers are described by their relation (every pair a substitution, or
// every pair an add/remove neighbour) and the range of their records;
// other dataset types by their type.
func describePairs[D any](in []search.Input[D]) string {
	if len(in) == 0 {
		return "no pairs"
	}
	var recs [][2][]float64
	for _, c := range in {
		x, okx := numbers(any(c.Pair.X))
		y, oky := numbers(any(c.Pair.Y))
		if !okx || !oky {
			return fmt.Sprintf("pairs of %T", c.Pair.X)
		}
		recs = append(recs, [2][]float64{x, y})
	}
	relation := "neighbouring"
	switch {
	case all(recs, func(p [2][]float64) bool { return fixtures.IsSubstitution(fixtures.Pair[[]float64]{X: p[0], Y: p[1]}) }):
		relation = "substitution"
	case all(recs, func(p [2][]float64) bool { return fixtures.IsAddRemove(fixtures.Pair[[]float64]{X: p[0], Y: p[1]}) }):
		relation = "add/remove"
	}
	lo, hi, ok := recordRange(in)
	if !ok {
		return relation + " pairs of empty datasets"
	}
	minLen, maxLen := math.MaxInt, 0
	for _, p := range recs {
		for _, d := range p {
			minLen, maxLen = min(minLen, len(d)), max(maxLen, len(d))
		}
	}
	if minLen == maxLen {
		return fmt.Sprintf("%s pairs in [%v, %v]^%d", relation, lo, hi, minLen)
	}
	return fmt.Sprintf("%s pairs of %d to %d records in [%v, %v]", relation, minLen, maxLen, lo, hi)
}

// numbers returns a dataset of numbers as float64s.
func numbers(d any) ([]float64, bool) {
	switch d := d.(type) {
	case []float64:
		return d, true
	case []int:
		return convert(d), true
	case []int64:
		return convert(d), true
	case []float32:
		return convert(d), true
	}
	return nil, false
}

func convert[T int | int64 | float32](d []T) []float64 {
	out := make([]float64, len(d))
	for i, v := range d {
		out[i] = float64(v)
	}
	return out
}

func all[T any](s []T, ok func(T) bool) bool {
	for _, v := range s {
		if !ok(v) {
			return false
		}
	}
	return true
}

// recordRange returns the smallest and largest record of candidate pairs
// of numbers, or false.
func recordRange[D any](in []search.Input[D]) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, c := range in {
		for _, d := range []any{c.Pair.X, c.Pair.Y} {
			v, isNum := numbers(d)
			if !isNum {
				return 0, 0, false
			}
			for _, r := range v {
				lo, hi = min(lo, r), max(hi, r)
			}
		}
	}
	return lo, hi, lo <= hi
}

// singleSubstitutions reports whether every candidate is a pair of
// datasets of numbers of one length differing in at most one record.
func singleSubstitutions[D any](in []search.Input[D]) bool {
	for _, c := range in {
		x, okx := numbers(any(c.Pair.X))
		y, oky := numbers(any(c.Pair.Y))
		if !okx || !oky || len(x) != len(y) || fixtures.Hamming(x, y) > 1 {
			return false
		}
	}
	return true
}

// keepDiffering drops the proposals that change a record where the pair's
// datasets differ.
func keepDiffering[D any](simplify func(fixtures.Pair[D]) []fixtures.Pair[D]) func(fixtures.Pair[D]) []fixtures.Pair[D] {
	return func(p fixtures.Pair[D]) []fixtures.Pair[D] {
		px, _ := numbers(any(p.X))
		py, _ := numbers(any(p.Y))
		var out []fixtures.Pair[D]
		for _, q := range simplify(p) {
			qx, _ := numbers(any(q.X))
			qy, _ := numbers(any(q.Y))
			keeps := len(qx) == len(px) && len(qy) == len(py)
			for i := 0; keeps && i < len(px) && i < len(py); i++ {
				if px[i] != py[i] && (qx[i] != px[i] || qy[i] != py[i]) {
					keeps = false
				}
			}
			if keeps {
				out = append(out, q)
			}
		}
		return out
	}
}
