package renyi

import (
	"cmp"
	"math"
	"slices"

	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/stat"
)

// Grouping constants. The cells of a screening table are grouped by their
// estimated ratio p/q, most telling first: the key of a cell is its
// log-ratio less GroupPenalty standard errors, so that a cell seen a few
// times does not outrank one whose high ratio rests on many outputs; and
// each group holds at least GroupCount·λ² expected outputs per side of the
// sample it will be counted in, because the plug-in (p̂/q̂)^λ of a group
// with m outputs per side is biased by about λ²/(2m) of itself, which the
// second-order correction removes only while λ²/m is small.
const (
	GroupPenalty = 2
	GroupCount   = 2
)

// Group groups the cells of a screening table for D_λ(P ‖ Q) (or, if
// reverse, D_λ(Q ‖ P)), for a sample of n outputs per side: cells in
// decreasing order of their penalised log-ratio, cut into groups as soon as
// the expected counts of both sides reach GroupCount·λ² (a short last group
// joins the one before). For a table of partition cells every cell of the
// partition is grouped, those the screening never saw with the others of
// their key; for a table of values, a value the screening never saw falls
// in the last group, with the cells of the lowest ratio.
func Group(t *stat.Table, lambda float64, n int, reverse bool) stat.Grouping {
	np, nq := float64(t.NP), float64(t.NQ)
	type keyed struct {
		cell   stat.Cell
		key    float64
		ep, eq float64 // expected outputs per side among n
	}
	cells := t.Cells
	if t.Partition != nil {
		cells = allCells(t)
	}
	ks := make([]keyed, len(cells))
	for i, c := range cells {
		p, q := float64(c.P), float64(c.Q)
		if reverse {
			p, q = q, p
		}
		pn, qn := np, nq
		if reverse {
			pn, qn = nq, np
		}
		l := math.Log((p+0.5)/pn) - math.Log((q+0.5)/qn)
		se := math.Sqrt(1/(p+0.5) + 1/(q+0.5))
		ks[i] = keyed{c, l - GroupPenalty*se, p / pn * float64(n), q / qn * float64(n)}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return cmp.Compare(b.key, a.key) })
	need := GroupCount * lambda * lambda
	group := make([]int, len(ks))
	g, ap, aq, pSeen, qSeen := 0, 0.0, 0.0, false, false
	// A group is complete when each side it holds outputs of expects
	// enough of them (a side with none adds nothing to the estimate's
	// bias: a group q never produced is infinite evidence, one p never
	// produced adds nothing to Î).
	complete := func() bool { return (ap >= need || !pSeen) && (aq >= need || !qSeen) }
	for i, k := range ks {
		group[i] = g
		ap += k.ep
		aq += k.eq
		pSeen = pSeen || k.ep > 0
		qSeen = qSeen || k.eq > 0
		if i+1 == len(ks) || ks[i+1].key == k.key {
			continue // never cut between cells of equal key
		}
		// Close the group once both sides expect enough outputs, or once p
		// does, before the first cell q produces, in a group q never
		// produced: an output seen under one dataset only is the strongest
		// evidence there is, and merging it with outputs q does produce
		// would hide it.
		if ap >= need && (aq >= need || !qSeen && ks[i+1].eq > 0) {
			g, ap, aq, pSeen, qSeen = g+1, 0, 0, false, false
		}
	}
	// The cells after the last complete group join it. Cutting only between
	// different keys makes the grouping the same whatever the values are
	// called and whatever order a map lists them in.
	groups := g + 1
	if g > 0 && !complete() {
		groups = g
		for i := range group {
			group[i] = min(group[i], groups-1)
		}
	}
	ordered := make([]stat.Cell, len(ks))
	for i, k := range ks {
		ordered[i] = k.cell
	}
	out := stat.Grouping{Groups: groups, Partition: t.Partition, Lumped: lumped(ordered, group, groups, t, reverse)}
	if t.Partition != nil {
		out.OfCell = make([]int, t.Partition.Cells())
		for i, k := range ks {
			out.OfCell[k.cell.Value.(int)] = group[i]
		}
		return out
	}
	out.OfValue = make(map[any]int, len(ks))
	for i, k := range ks {
		out.OfValue[k.cell.Value] = group[i]
	}
	out.Unlisted = out.Groups - 1
	return out
}

// allCells lists every cell of a partition table, unseen ones with zero
// counts.
func allCells(t *stat.Table) []stat.Cell {
	all := make([]stat.Cell, t.Partition.Cells())
	for i := range all {
		all[i] = stat.Cell{Value: i}
	}
	for _, c := range t.Cells {
		all[c.Value.(int)] = c
	}
	return all
}

// Grouped adds up a table's counts per group.
func Grouped(t *stat.Table, g stat.Grouping) *stat.Table {
	p, q := make([]int64, g.Groups), make([]int64, g.Groups)
	for _, c := range t.Cells {
		k := g.Unlisted
		if g.Partition != nil {
			k = g.OfCell[c.Value.(int)]
		} else if i, ok := g.OfValue[c.Value]; ok {
			k = i
		}
		p[k] += c.P
		q[k] += c.Q
	}
	return stat.Counted(p, q, t.NP, t.NQ)
}

// LumpedShare returns the share of Î = Σ p̂^λ q̂^{1−λ} over the groups of
// counts p, q (of n outputs per side) that the grouping marks lumped: how
// much of the estimate rests on groups whose inner structure is unseen. An
// empty q count is taken as ½.
func LumpedShare(p, q []int64, n int64, lambda float64, lumped []bool) float64 {
	var all, in []float64
	for g := range p {
		if p[g] == 0 {
			continue
		}
		qg := max(float64(q[g]), 0.5)
		l := lambda*math.Log(float64(p[g])/float64(n)) + (1-lambda)*math.Log(qg/float64(n))
		all = append(all, l)
		if lumped[g] {
			in = append(in, l)
		}
	}
	if len(in) == 0 {
		return 0
	}
	return math.Exp(numeric.LogSumExp(in) - numeric.LogSumExp(all))
}

// lumped marks the groups that hold a cell reaching ±Inf: what such a
// group counts lies partly beyond every output the screening saw.
func lumped(cells []stat.Cell, group []int, groups int, t *stat.Table, reverse bool) []bool {
	out := make([]bool, groups)
	if t.Partition == nil {
		return out
	}
	for i, c := range cells {
		if c.P+c.Q > 0 && t.Partition.Open(c.Value.(int)) {
			out[group[i]] = true
		}
	}
	return out
}
