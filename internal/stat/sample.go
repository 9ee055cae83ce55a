package stat

import (
	"cmp"
	"slices"
)

// Sample is the statistic of one draw of both datasets X and Y of a pair,
// what every criterion consumes: a [*Continuous] for real outputs or a
// [*Table] for discrete ones (and for real outputs that turned out discrete).
type Sample interface {
	// Sizes returns the number of outputs drawn on X and on Y.
	Sizes() (nx, ny int64)
}

// Continuous is the sample of real outputs: the statistics of both sides
// on one design.
type Continuous struct {
	P, Q   *Real // outputs drawn on X and on Y
	Design *RealDesign
}

// Sizes returns the number of outputs of each side.
func (c *Continuous) Sizes() (nx, ny int64) { return c.P.N(), c.Q.N() }

// Table is the sample of discrete outputs: for every value seen on either
// side, how often. It holds the values as any, so that criteria need not
// know the output type; the cells are sorted by (P, Q), so sums over them
// do not depend on map order (the order of cells with equal counts is
// unspecified, and no result may depend on it).
type Table struct {
	Cells  []Cell
	NP, NQ int64 // outputs drawn on X and on Y
	// Partition, for real outputs, is the partition whose cells the table
	// counts: each Cell's Value is then the cell's index (an int).
	Partition *Partition
	// Values, for a table of ranges of numeric outputs seen fewer than
	// DenseCount times per value ([Ranges]), is the table of the values
	// themselves (which may be [Table.Sparse]): an output whose telling values
	// are few and scattered (randomized response over many categories) is
	// seen in it, one whose ratio changes smoothly with the value (a wide
	// discrete Laplace) in the ranges.
	Values *Table
	// Gridded is set on the table of real outputs whose pilot repeated
	// many values (RepeatsMany), outputs on a grid, and on its Values:
	// they are screened value by value besides the cells, so that values
	// one dataset alone produces are seen, and the event predicted to
	// bound highest is confirmed, of either table. Values seen rarely, or
	// not at all, are no reason of their own to leave such an audit
	// unresolved: the cells, which hold every value, were screened too,
	// and real outputs without a grid have no table of values at all.
	Gridded bool
	// Alternatives, for vector outputs, are the same draws counted by the
	// other scores learned with the table's (its Partition.Score): the
	// criteria screen each and keep what bounds highest.
	Alternatives []*Table
	// RunsApart, for real outputs and vector scores, counts the same
	// draws on a partition that also sets apart, in a cell of its own,
	// each run of OneSidedRun or more values of one side alone among
	// the extremes of an open cell ([RefineTails]); nil where there is
	// none. Only the local screening of a pure-DP claim reads it beside
	// the table: a Rényi estimate over cells that one side alone
	// reached loses more to their noise than their ratio gives it
	// (a Gaussian's D₅ bound at 10⁶ draws, 0.600 → 0.562 of 0.625).
	RunsApart *Table
}

// InRanges reports whether t is a table of numbers screened in ranges
// ([Ranges]: discrete numbers seen too rarely a value), whose order may
// mean nothing at the ends of a support; not a table of real outputs,
// gridded or not.
func (t *Table) InRanges() bool { return t.Values != nil && !t.Gridded }

// Cell is one value of a discrete output and its counts on both sides.
type Cell struct {
	Value any
	P, Q  int64
}

// Sizes returns the number of outputs of each side.
func (t *Table) Sizes() (nx, ny int64) { return t.NP, t.NQ }

// Tabulate joins the frequency tables of both sides into a [Table].
func Tabulate[O comparable](p, q *Freq[O]) *Table {
	cells := make([]Cell, 0, len(p.Counts)+len(q.Counts))
	for o, c := range p.Counts {
		cells = append(cells, Cell{o, c, q.Counts[o]})
	}
	for o, c := range q.Counts {
		if _, seen := p.Counts[o]; !seen {
			cells = append(cells, Cell{o, 0, c})
		}
	}
	SortCells(cells)
	return &Table{Cells: cells, NP: p.N, NQ: q.N}
}

// TabulateCells joins the cell counts of both sides, on one partition, into
// a [Table] of the cells that either side saw.
func TabulateCells(p, q *PartitionCounts) *Table {
	t := &Table{NP: p.N, NQ: q.N, Partition: p.Part}
	for c := range p.In {
		if p.In[c]+q.In[c] > 0 {
			t.Cells = append(t.Cells, Cell{c, p.In[c], q.In[c]})
		}
	}
	SortCells(t.Cells)
	return t
}

// Counted is the table of the counts p and q, of np and nq outputs, of
// groups (or any cells numbered 0, 1, …): each Cell's Value is its index.
func Counted(p, q []int64, np, nq int64) *Table {
	t := &Table{NP: np, NQ: nq}
	for k := range p {
		if p[k]+q[k] > 0 {
			t.Cells = append(t.Cells, Cell{k, p[k], q[k]})
		}
	}
	SortCells(t.Cells)
	return t
}

// SortCells orders cells by (P, Q), the order every sum over a table runs
// in: cells with equal counts add equal terms, so the sums do not depend on
// the order a map or a relabelling listed them in.
func SortCells(cells []Cell) {
	slices.SortStableFunc(cells, func(a, b Cell) int {
		if c := cmp.Compare(a.P, b.P); c != 0 {
			return c
		}
		return cmp.Compare(a.Q, b.Q)
	})
}

// Values collects outputs (a pilot sample; gathered from several workers,
// so in no particular order).
type Values struct{ V []float64 }

// Add appends one output.
func (v *Values) Add(x float64) { v.V = append(v.V, x) }

// Merge appends the outputs of o.
func (v *Values) Merge(o *Values) { v.V = append(v.V, o.V...) }
