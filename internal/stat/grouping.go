package stat

import (
	"fmt"
	"math"
	"slices"
)

// Grouping maps each output to a group, fixed on a screening sample before
// the outputs it counts are drawn: the cells of a Partition (real outputs)
// or the values of a Table (discrete outputs) to group indices 0…Groups−1.
// Counting groups is a deterministic post-processing of the outputs, so a
// divergence bound on the group counts is a bound on the mechanism.
type Grouping struct {
	Groups int
	// Partition and OfCell group real outputs: the output's cell c of the
	// partition is in group OfCell[c].
	Partition *Partition
	OfCell    []int
	// OfValue groups discrete outputs; a value it does not list (one the
	// screening never saw) is in group Unlisted.
	OfValue  map[any]int
	Unlisted int
	// UnlistedBuckets, when positive (a grouping of values whose Unlisted
	// group is its last and holds no listed value: [Grouping.WithBuckets]),
	// also tallies the unlisted values by value as far as counts can:
	// each falls in one of UnlistedBuckets buckets by a hash of its
	// value, counted in group Unlisted+1+b, and adds a second hash of it
	// (its fingerprint) to the wrapping sum in group
	// Unlisted+1+UnlistedBuckets+b. [UnmatchedUnlisted] reads them.
	UnlistedBuckets int
}

// GroupCounts is the statistic of one or more groupings: In[k][g] of the N
// outputs added lay in group g of grouping k. It merges by addition.
type GroupCounts[O comparable] struct {
	In    [][]int64
	N     int64
	tally []func(O, []int64)
	// When every grouping groups the cells of one partition (both
	// directions of a pair), an output's cell is found once: cell, and
	// ofCell[k] per grouping.
	cell   func(O) int
	ofCell [][]int
	// groupings are those counted, for statistics shipped elsewhere.
	groupings []Grouping
}

// NewGroupCounts compiles groupings for outputs of type O: a grouping of
// partition cells into a lookup on numbers (real outputs, or discrete
// outputs of a number type), a grouping of values into a map of O. A
// grouping that cannot hold outputs of type O is an error.
func NewGroupCounts[O comparable](gs []Grouping) (func() *GroupCounts[O], error) {
	tally := make([]func(O, []int64), len(gs))
	for k, g := range gs {
		f, err := tallier[O](g)
		if err != nil {
			return nil, err
		}
		tally[k] = f
	}
	cell, ofCell := sharedCells[O](gs)
	return func() *GroupCounts[O] {
		c := &GroupCounts[O]{In: make([][]int64, len(gs)), tally: tally, cell: cell, ofCell: ofCell, groupings: gs}
		for k, g := range gs {
			c.In[k] = make([]int64, g.Groups)
		}
		return c
	}, nil
}

// sharedCells returns the cell lookup and the groups of each grouping's
// cells when all groupings group the cells of one partition, else nils.
func sharedCells[O comparable](gs []Grouping) (func(O) int, [][]int) {
	if len(gs) < 2 || gs[0].Partition == nil {
		return nil, nil
	}
	ofCell := make([][]int, len(gs))
	for k, g := range gs {
		if g.Partition != gs[0].Partition {
			return nil, nil
		}
		ofCell[k] = g.OfCell
	}
	p := gs[0].Partition
	if f, ok := any(p.Cell).(func(O) int); ok {
		return f, ofCell
	}
	toFloat := AsFloat[O]() // lookup has checked that O is a number type
	return func(v O) int { return p.Cell(toFloat(v)) }, ofCell
}

// tallier returns what counting one output does to a grouping's counts:
// one more in its group, and for an unlisted value of a grouping with
// UnlistedBuckets that valueHasher can hash, one more in its bucket and
// its fingerprint added.
func tallier[O comparable](g Grouping) (func(O, []int64), error) {
	of, err := lookup[O](g)
	if err != nil {
		return nil, err
	}
	if g.UnlistedBuckets == 0 {
		return func(v O, in []int64) { in[of(v)]++ }, nil
	}
	if err := g.checkBuckets(); err != nil {
		return nil, err
	}
	count, sum := g.Unlisted+1, g.Unlisted+1+g.UnlistedBuckets
	buckets := uint64(g.UnlistedBuckets)
	hash := valueHasher[O]()
	return func(v O, in []int64) {
		k := of(v)
		in[k]++
		if k != g.Unlisted {
			return
		}
		if h, ok := hash(v); ok {
			b := int(mix(h, bucketMix) % buckets)
			in[count+b]++
			in[sum+b] = int64(uint64(in[sum+b]) + mix(h, fingerprintMix))
		}
	}, nil
}

func lookup[O comparable](g Grouping) (func(O) int, error) {
	if g.Partition != nil {
		p, ofCell := g.Partition, g.OfCell
		if len(ofCell) != p.Cells() {
			return nil, fmt.Errorf("stat: a grouping of %d cells for a partition of %d", len(ofCell), p.Cells())
		}
		if f, ok := any(func(v float64) int { return ofCell[p.Cell(v)] }).(func(O) int); ok {
			return f, nil
		}
		toFloat := AsFloat[O]()
		if toFloat == nil {
			return nil, fmt.Errorf("stat: a partition of numbers cannot group outputs of type %T", *new(O))
		}
		return func(v O) int { return ofCell[p.Cell(toFloat(v))] }, nil
	}
	set := make(map[O]int, len(g.OfValue))
	for v, k := range g.OfValue {
		o, ok := v.(O)
		if !ok {
			return nil, fmt.Errorf("stat: grouped value %v (%T) is not an output of this mechanism", v, v)
		}
		set[o] = k
	}
	other := g.Unlisted
	return func(v O) int {
		if k, ok := set[v]; ok {
			return k
		}
		return other
	}, nil
}

// Add counts one output.
func (c *GroupCounts[O]) Add(v O) {
	c.N++
	if c.cell != nil {
		cell := c.cell(v)
		for k, ofCell := range c.ofCell {
			c.In[k][ofCell[cell]]++
		}
		return
	}
	for k, tally := range c.tally {
		tally(v, c.In[k])
	}
}

// Merge adds the counts of o.
func (c *GroupCounts[O]) Merge(o *GroupCounts[O]) {
	c.N += o.N
	for k := range c.In {
		for g, v := range o.In[k] {
			c.In[k][g] += v
		}
	}
}

// PartitionCounts is the statistic of real outputs on a partition: how
// many fell in each cell. It merges by addition.
type PartitionCounts struct {
	Part *Partition
	In   []int64
	N    int64
	// keep > 0 ([NewTailCounts]): low and high hold, unsorted and at most
	// 2·keep long, values of the first and the last cell among which are
	// their keep smallest and largest; with keepsInner (a partition of the
	// output's own values, Partition.OutputValues, fixed at construction
	// so that no draw asks again), inner holds, unsorted, every value of
	// the other cells that are not atoms, for [RefineTails]' inner atoms,
	// unless there were more than MaxInner of them (innerOver).
	keep       int
	low, high  []float64
	keepsInner bool
	inner      []float64
	innerOver  bool
}

// NewPartitionCounts returns an empty statistic on p.
func NewPartitionCounts(p *Partition) *PartitionCounts {
	return &PartitionCounts{Part: p, In: make([]int64, p.Cells())}
}

// Add counts one output.
func (c *PartitionCounts) Add(v float64) {
	cell := c.Part.Cell(v)
	c.In[cell]++
	c.N++
	if c.keep > 0 {
		if cell == 0 || cell == len(c.In)-1 {
			c.keepTail(v, cell)
		} else if c.keepsInner && !c.Part.atom[cell] && !c.innerOver {
			c.keepInner(v)
		}
	}
}

// Merge adds the counts of o, on the same partition.
func (c *PartitionCounts) Merge(o *PartitionCounts) {
	for i, v := range o.In {
		c.In[i] += v
	}
	c.N += o.N
	c.mergeTails(o)
}

// CellGrouping groups every cell of a table on its own: each cell of its
// partition (real outputs), or each of its values, in the order of
// t.Cells, with the values it does not list in one more group (discrete).
// Counting fresh outputs in it ([Recounted]) gives a table of the same
// cells on independent draws.
func CellGrouping(t *Table) Grouping {
	if t.Partition != nil {
		g := Grouping{Groups: t.Partition.Cells(), Partition: t.Partition, OfCell: make([]int, t.Partition.Cells())}
		for i := range g.OfCell {
			g.OfCell[i] = i
		}
		return g
	}
	g := Grouping{Groups: len(t.Cells) + 1, OfValue: make(map[any]int, len(t.Cells)), Unlisted: len(t.Cells)}
	for i, c := range t.Cells {
		g.OfValue[c.Value] = i
	}
	return g
}

// Unlisted is the value of the cell of a [Recounted] table that holds the
// outputs whose values the original table did not list.
type Unlisted struct{}

// Recounted returns the table of t's cells with the counts p, q of np and
// nq fresh outputs per group of CellGrouping(t): partition cells by index
// (those counted at all), values in t's order, then an Unlisted cell.
func Recounted(t *Table, p, q []int64, np, nq int64) *Table {
	out := &Table{NP: np, NQ: nq, Partition: t.Partition}
	for i := range p {
		var v any = Unlisted{}
		switch {
		case t.Partition != nil:
			if p[i]+q[i] == 0 {
				continue
			}
			v = i
		case i < len(t.Cells):
			v = t.Cells[i].Value
		}
		out.Cells = append(out.Cells, Cell{Value: v, P: p[i], Q: q[i]})
	}
	return out
}

// Pooled returns a table of t's cells with the counts of held, a
// [Recounted] table of them on other draws, added (held's Unlisted cell
// is left out: its values are not t's cells).
func Pooled(t, held *Table) *Table {
	out := &Table{NP: t.NP + held.NP, NQ: t.NQ + held.NQ, Partition: t.Partition}
	add := make(map[any]Cell, len(held.Cells))
	for _, c := range held.Cells {
		if _, unlisted := c.Value.(Unlisted); !unlisted {
			add[c.Value] = c
		}
	}
	seen := make(map[any]bool, len(t.Cells))
	for _, c := range t.Cells {
		h := add[c.Value]
		seen[c.Value] = true
		out.Cells = append(out.Cells, Cell{Value: c.Value, P: c.P + h.P, Q: c.Q + h.Q})
	}
	for _, c := range held.Cells { // partition cells only the held draws reached
		if _, unlisted := c.Value.(Unlisted); !unlisted && !seen[c.Value] {
			out.Cells = append(out.Cells, c)
		}
	}
	SortCells(out.Cells)
	return out
}

// WithUnlisted returns pooled, a [Pooled] table of t's values and of
// held (its draws counted in t's cells, [Recounted]), with one more cell,
// of value [Unlisted]: the draws held made on values t does not list,
// scaled to pooled's draws per side (doubled for halves of one size).
// Those are the values a grouping made on pooled cannot list (its
// Unlisted group), and held's draws of them, independent of t, say what
// share and ratio that group will have: a grouping can then key them as
// one cell among the others instead of lumping them with a group chosen
// blind. (Scaling the counts makes the cell's counts look twice as
// precise as they are; they only place it in the order.) Tables of
// partition cells, or with no Unlisted draws, are returned as they are.
func WithUnlisted(pooled, held *Table) *Table {
	if pooled.Partition != nil || held.NP == 0 || held.NQ == 0 {
		return pooled
	}
	for _, c := range held.Cells {
		if _, unlisted := c.Value.(Unlisted); unlisted && c.P+c.Q > 0 {
			out := *pooled
			out.Cells = append(slices.Clip(pooled.Cells), Cell{Value: Unlisted{},
				P: scaled(c.P, pooled.NP, held.NP), Q: scaled(c.Q, pooled.NQ, held.NQ)})
			return &out
		}
	}
	return pooled
}

// scaled is c draws of n scaled to m draws, rounded.
func scaled(c, m, n int64) int64 { return int64(math.Round(float64(c) * float64(m) / float64(n))) }

// Product is the grouping by both a and b, which must group the cells of
// the same partition, or both values: cell (or value) c is in group
// a(c)·b.Groups + b(c), a value listed by neither in a.Unlisted·b.Groups +
// b.Unlisted. Counting it counts both groupings and their intersections in
// one lookup. It panics if a and b group different partitions' cells, or
// one cells and the other values.
func Product(a, b Grouping) Grouping {
	if a.Partition == nil && b.Partition == nil {
		return valueProduct(a, b)
	}
	if a.Partition == nil || a.Partition != b.Partition || len(a.OfCell) != len(b.OfCell) {
		panic("stat: Product of groupings not of one partition's cells")
	}
	g := Grouping{Groups: a.Groups * b.Groups, Partition: a.Partition, OfCell: make([]int, len(a.OfCell))}
	for c := range g.OfCell {
		g.OfCell[c] = a.OfCell[c]*b.Groups + b.OfCell[c]
	}
	return g
}

// valueProduct is [Product] of two groupings of values.
func valueProduct(a, b Grouping) Grouping {
	of := func(g Grouping, v any) int {
		if k, ok := g.OfValue[v]; ok {
			return k
		}
		return g.Unlisted
	}
	g := Grouping{Groups: a.Groups * b.Groups, OfValue: make(map[any]int, len(a.OfValue)), Unlisted: a.Unlisted*b.Groups + b.Unlisted}
	for _, m := range []map[any]int{a.OfValue, b.OfValue} {
		for v := range m {
			g.OfValue[v] = of(a, v)*b.Groups + of(b, v)
		}
	}
	return g
}

// Smoothed returns, for a table of a partition's cells (real outputs, or
// ranges of numbers), the table whose cell i holds the counts of the
// smallest window of cells i−w…i+w, in the partition's order, that holds
// at least count pooled outputs (or every cell): the ratio of adjacent
// cells averaged where each is too rare to estimate it. It is an ordering
// aid only (its counts are not of disjoint events); for any other table it
// returns nil.
func Smoothed(t *Table, count int64) *Table {
	if t.Partition == nil {
		return nil
	}
	n := t.Partition.Cells()
	p, q := make([]int64, n+1), make([]int64, n+1) // prefix sums
	for _, c := range t.Cells {
		i := c.Value.(int)
		p[i+1], q[i+1] = c.P, c.Q
	}
	for i := 0; i < n; i++ {
		p[i+1] += p[i]
		q[i+1] += q[i]
	}
	out := &Table{NP: t.NP, NQ: t.NQ, Partition: t.Partition, Cells: make([]Cell, 0, n)}
	for i := 0; i < n; i++ {
		lo, hi := i, i+1
		for p[hi]-p[lo]+q[hi]-q[lo] < count && (lo > 0 || hi < n) {
			lo, hi = max(lo-1, 0), min(hi+1, n)
		}
		out.Cells = append(out.Cells, Cell{Value: i, P: p[hi] - p[lo], Q: q[hi] - q[lo]})
	}
	SortCells(out.Cells)
	return out
}
