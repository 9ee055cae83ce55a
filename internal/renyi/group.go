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
// in the group of the table's cell of such values (stat.WithUnlisted) if
// it has one, else in the last group, with the cells of the lowest ratio.
func Group(t *stat.Table, lambda float64, n int, reverse bool) stat.Grouping {
	return groupKeyed(t, orderCells(t, n, reverse, PenalisedKeys), lambda)
}

// GroupPoolingRare is Group with the rare values of a table of values
// that lean to P keyed as one cell (poolRare), and true; false and no
// grouping, at the cost of one pass over the cells, for a partition or
// rare values that do not lean to P together (rareLean). Neither grouping
// is better for every mechanism, so the Rényi criterion screens both and
// keeps the one its held-out draws bound higher.
func GroupPoolingRare(t *stat.Table, lambda float64, n int, reverse bool) (stat.Grouping, bool) {
	if t.Partition != nil || !rareLean(t, reverse) {
		return stat.Grouping{}, false
	}
	ks := orderCells(t, n, reverse, PenalisedKeys)
	poolRare(ks, t, reverse)
	return groupKeyed(t, ks, lambda), true
}

// groupKeyed cuts the cells ks of t, in their order, into Group's groups.
func groupKeyed(t *stat.Table, ks []keyed, lambda float64) stat.Grouping {
	ep, eq := make([]float64, len(ks)), make([]float64, len(ks))
	for i, k := range ks {
		ep[i], eq[i] = k.ep, k.eq
	}
	// Cutting only between different keys makes the grouping the same
	// whatever the values are called and whatever order a map lists them
	// in.
	group, groups := groupByCounts(ep, eq, GroupCount*lambda*lambda, func(i int) bool { return ks[i+1].key != ks[i].key })
	return grouping(t, ks, group, groups)
}

// MergeOneSided returns g, a grouping of table t of values, with the
// groups that only P produced in t (only Q if reverse) made one group, the
// first of them, and the groups numbered again in order. Keyed one by
// one, values that only P produced, each seen a few times, fall among
// the other values at their penalised keys, and Group closes a group at
// each run of them: a leak spread over values each too rare to rank on
// its own (strings that one dataset alone draws) then lies in several
// groups, and the estimator, which floors each group's q̂ at τ, counts
// Σ a_g^λ·τ^{1−λ} for their shares a_g, where one group counts
// (Σ a_g)^λ·τ^{1−λ}, several times more. But values that only P
// produced by chance, which Q produces too at a finite ratio, make one
// group of a noisier plug-in term at high orders, so the caller merges
// only where other draws show the values one-sided. Merging is a
// function of the screening, so the bound stays a bound. It returns too
// the index of that group, the only one P alone produced in t, −1 if
// there is none. A partition's groups are returned as they are (and −1).
func MergeOneSided(g stat.Grouping, t *stat.Table, reverse bool) (stat.Grouping, int) {
	if g.Partition != nil {
		return g, -1
	}
	p, q := GroupTotals(t, g)
	if reverse {
		p, q = q, p
	}
	into, first, next := make([]int, g.Groups), -1, 0
	for k := range g.Groups {
		switch {
		case q[k] > 0 || p[k] == 0:
			into[k], next = next, next+1
		case first < 0:
			first, into[k], next = next, next, next+1
		default:
			into[k] = first
		}
	}
	if next == g.Groups {
		return g, first
	}
	out := stat.Grouping{Groups: next, OfValue: make(map[any]int, len(g.OfValue)), Unlisted: into[g.Unlisted]}
	for v, k := range g.OfValue {
		out.OfValue[v] = into[k]
	}
	return out, first
}

// Coarsen merges consecutive groups of a Group grouping for a smaller
// sample than it was made for: ep and eq are each group's expected
// outputs per side in that sample (the screening's counts of the group,
// scaled), in the grouping's order, and merged[g] is group g's group in
// the coarser grouping, cut by Group's rule for cells (groupByCounts),
// each holding at least GroupCount·λ² expected outputs per side (at the
// size the groups were made for, a short last run that Group joined to
// a group Q never produced may be merged: callers leave that size
// alone). An early look counts a tenth
// of the planned draws in groups made for all of them, about λ²/5 outputs
// a side each: the plug-in's bias, about λ²/(2m) of itself for m outputs
// a side, then exceeds what its correction removes (capped at a half),
// and a correct claim is violated (a wide discrete Laplace at its exact
// RDP, λ = 10: 4 of 5 audits). Merging groups is a function of the
// screening alone, so the bound stays a bound on a post-processing.
func Coarsen(ep, eq []float64, lambda float64) (merged []int, groups int) {
	return groupByCounts(ep, eq, GroupCount*lambda*lambda, func(int) bool { return true })
}

// groupByCounts assigns items in order, each expecting ep[i] and eq[i]
// outputs per side, to consecutive groups, cutting after item i only if
// cuttable(i): a group is closed once both sides expect need outputs, or
// once P does, before the first item Q produces, in a group Q never
// produced (an output seen under one dataset only is the strongest
// evidence there is, and merging it with outputs Q does produce would
// hide it). Items after the last complete group join it. A side a group
// holds no outputs of needs none there: a group Q never produced is
// infinite evidence, one P never produced adds nothing to Î.
func groupByCounts(ep, eq []float64, need float64, cuttable func(i int) bool) (group []int, groups int) {
	group = make([]int, len(ep))
	g, ap, aq, pSeen, qSeen := 0, 0.0, 0.0, false, false
	complete := func() bool { return (ap >= need || !pSeen) && (aq >= need || !qSeen) }
	for i := range ep {
		group[i] = g
		ap += ep[i]
		aq += eq[i]
		pSeen = pSeen || ep[i] > 0
		qSeen = qSeen || eq[i] > 0
		if i+1 == len(ep) || !cuttable(i) {
			continue
		}
		if ap >= need && (aq >= need || !qSeen && eq[i+1] > 0) {
			g, ap, aq, pSeen, qSeen = g+1, 0, 0, false, false
		}
	}
	groups = g + 1
	if g > 0 && !complete() {
		groups = g
		for i := range group {
			group[i] = min(group[i], groups-1)
		}
	}
	return group, groups
}

// keyed is a cell of a screening table with its order key and its expected
// outputs per side among n.
type keyed struct {
	cell   stat.Cell
	key    float64
	ep, eq float64
}

// orderCells lists the cells of a screening table (every cell of a
// partition, unseen ones with zero counts) in decreasing order of their
// penalised log-ratio for D_λ(P ‖ Q), or D_λ(Q ‖ P) if reverse:
//
//	key = ln((p+½)/n_P) − ln((q+½)/n_Q) − GroupPenalty·√(1/(p+½) + 1/(q+½)),
//
// with each cell's expected outputs per side among n; with OneSidedKeys,
// a cell Q never produced is keyed by its exact bound instead
// (oneSidedKey). Cells of outputs that P produced at least FarFirstCount
// times and Q never come first (firstKey): whatever the ratio keys (not
// in the orders by position, LowerFirstKeys and UpperFirstKeys), those
// beyond a gap in the screening's tails (stat.Partition.Far), outputs
// far from all others, the strongest evidence a table can hold and the
// one a group of the noise's own tail would hide; and in an event
// criterion's orders (eventOrder), next, the cells of one value.
func orderCells(t *stat.Table, n int, reverse bool, keys Keys) []keyed {
	np, nq := float64(t.NP), float64(t.NQ)
	if reverse {
		np, nq = nq, np
	}
	cells := t.Cells
	if t.Partition != nil {
		cells = allCells(t)
	}
	event := keys&eventOrder != 0
	ks := make([]keyed, len(cells))
	for i, c := range cells {
		p, q := float64(c.P), float64(c.Q)
		if reverse {
			p, q = q, p
		}
		key := penalisedKey(p, q, np, nq)
		switch {
		case keys&^eventOrder == LowerFirstKeys && t.Partition != nil:
			key = -float64(i) // cell i of the partition: its outputs' order
		case keys&^eventOrder == UpperFirstKeys && t.Partition != nil:
			key = float64(i)
		case q == 0 && p >= FarFirstCount && firstKey(t.Partition, c.Value, event) != 0:
			key = firstKey(t.Partition, c.Value, event)
		case keys&^eventOrder == OneSidedKeys && q == 0 && p > 0:
			key = oneSidedKey(p, np, nq)
		}
		ks[i] = keyed{c, key, p / np * float64(n), q / nq * float64(n)}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return cmp.Compare(b.key, a.key) })
	return ks
}

// penalisedKey is the order key of a cell seen p times in n_P draws of P
// and q times in n_Q of Q (orderCells):
//
//	ln((p+½)/n_P) − ln((q+½)/n_Q) − GroupPenalty·√(1/(p+½) + 1/(q+½)).
func penalisedKey(p, q, np, nq float64) float64 {
	l := math.Log((p+0.5)/np) - math.Log((q+0.5)/nq)
	return l - GroupPenalty*math.Sqrt(1/(p+0.5)+1/(q+0.5))
}

// RareCount is the number of outputs, both datasets together, below which
// a value of a table of values is rare (poolRare). At 12 (6 and 6) an even
// split's penalised key lies 1.1 units of log-ratio under its estimate,
// so the key says more about the count than the ratio; the value itself
// is measured: at 16 a block of an exponential mechanism's tail words at e
// times their rate, seen about 11 and 4 times a word in a screening, was
// pooled with the words of ratio 1 (with the held-out choice, 1 of 12
// audits of three such blocks passed a 1.8–2.4-fold violation, against
// none at 12); at 10 and at 8 the pool held fewer of the rare strings it
// is for (16 of 18 audits of both kinds violated, against 18 of 18 at
// 12; fixed pairs and seeds 1–6 and 1–4).
const RareCount = 12

// poolRare re-keys, in ks (orderCells's order of the cells of table t of
// values, for D_λ(P ‖ Q) or D_λ(Q ‖ P) if reverse), the values seen fewer
// than RareCount times that lean to P (p/n_P > q/n_Q) as one cell, keyed
// by the penalised key of their summed counts, and sorts ks again;
// GroupPoolingRare calls it only when the rare values, all of them
// summed, lean to P (rareLean). Keyed one by one, a
// value seen a few times sinks under the well-seen cells of lower ratio
// (four outputs of P against one of Q key at −0.79, under a ratio of 0.8
// seen two thousand times), so a leak spread over many values each too
// rare to rank (twenty strings that one dataset produces five times as
// often as the other, 0.09% of its outputs in all, beside a rounded
// Gaussian: D_5 of 0.18 against the Gaussian's 0.10) shares a group with
// outputs of low ratio, where no count can show it: counted on fresh
// draws of the pair that holds it in groups a screening of 100,000 draws
// a side made, 0.10–0.12 keyed one by one, 0.11–0.17 pooled (6 seeds).
// But the pool also takes in the rare values of ratio 1 that lean to P by
// chance, half of them, and where those are many and the leak's own
// values are seen nearly RareCount times, their own keys can rank them
// better (a block of an exponential mechanism's tail words at e times
// their rate, among five thousand words: 0.153 in their own groups, 0.137
// pooled, at one seed of six; the other five pooled none of them); hence
// the choice on held-out draws (GroupPoolingRare). Which
// values are rare does not depend on the side they lean to, so the test
// on all of them is not fooled by the choice of the pool, whose own sums
// lean by construction (which moves only its place in the order).
func poolRare(ks []keyed, t *stat.Table, reverse bool) {
	np, nq := sizes(t, reverse)
	var pool [2]float64 // summed counts of P and Q
	leans := make([]bool, len(ks))
	for i, k := range ks {
		p, q := oriented(k.cell, reverse)
		if leans[i] = p+q < RareCount && p*nq > q*np; leans[i] {
			pool[0], pool[1] = pool[0]+p, pool[1]+q
		}
	}
	key := penalisedKey(pool[0], pool[1], np, nq)
	for i := range ks {
		if leans[i] {
			ks[i].key = key
		}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return cmp.Compare(b.key, a.key) })
}

// rareLean reports whether the values of table t seen fewer than
// RareCount times, summed, lean to P (to Q if reverse) by GroupPenalty
// standard errors or more,
//
//	(Σp/n_P − Σq/n_Q) / √(Σp/n_P² + Σq/n_Q²) ≥ GroupPenalty.
func rareLean(t *stat.Table, reverse bool) bool {
	np, nq := sizes(t, reverse)
	var sp, sq float64
	for _, c := range t.Cells {
		if p, q := oriented(c, reverse); p+q < RareCount {
			sp, sq = sp+p, sq+q
		}
	}
	se := math.Sqrt(sp/(np*np) + sq/(nq*nq))
	return se > 0 && (sp/np-sq/nq)/se >= GroupPenalty
}

// sizes returns t's draws per side, P's first (Q's if reverse).
func sizes(t *stat.Table, reverse bool) (np, nq float64) {
	if reverse {
		return float64(t.NQ), float64(t.NP)
	}
	return float64(t.NP), float64(t.NQ)
}

// oriented returns cell c's counts, P's first (Q's if reverse).
func oriented(c stat.Cell, reverse bool) (p, q float64) {
	if reverse {
		return float64(c.Q), float64(c.P)
	}
	return float64(c.P), float64(c.Q)
}

// firstKey is the key of cell v of a partition (nil: a table of values)
// that only P produced, at least FarFirstCount times, when it comes first
// in every ratio order, else 0: +Inf for a cell beyond a gap in the tails
// (stat.Partition.Far); with event set (an event criterion's order,
// PrefixGroups), math.MaxFloat64, next, for a cell of one value of the
// output (stat.Partition.Atom, of a real output or a vector's coordinate,
// not of a learned score, whose steps repeat) and for a value of a table
// of values. Noise of a density repeats no value, so three equal outputs
// of one dataset alone are an atom the other never produced in as many
// draws; ordered by its penalised ratio, a dozen of them ranked among the
// noise's tail cells and shared their group, where no count could show
// them (an output one dataset produces once in 10,000 draws beside
// Laplace noise passed an ε = 2 audit whose report said such outputs
// would be caught down to one in 11,000; a discrete output's value once
// in 8,000, 9 audits in 10). The hockey-stick divergence of an event
// holding them is P(E) whatever ε, so its event must count them apart.
// The Rényi criterion's groups (Group, BestPrefix) are left as they were:
// a value seen on one side only may be the rare tail value of a discrete
// or rounded output that both produce, which proves nothing at order λ,
// and a group mixing it with far cells would hide those (farAlone).
func firstKey(part *stat.Partition, v any, event bool) float64 {
	if part == nil {
		if event {
			return math.MaxFloat64
		}
		return 0
	}
	c := v.(int)
	switch {
	case part.Far(c):
		return math.Inf(1)
	case event && part.OutputValues() && part.Atom(c):
		return math.MaxFloat64
	}
	return 0
}

// FarFirstCount is how many outputs of P a cell Q never produced needs to
// come first in an order (see orderCells): as many as make an atom
// (stat.TailAtomRepeats).
const FarFirstCount = stat.TailAtomRepeats

// Keys is how the cells of a screening table are keyed for ordering.
type Keys int

const (
	// PenalisedKeys: every cell by its log-ratio less GroupPenalty
	// standard errors (orderCells).
	PenalisedKeys Keys = iota
	// OneSidedKeys: the same, but a cell that only P produced by the exact
	// lower bound of its ratio at the same level (oneSidedKey), so that
	// outputs of one dataset alone come first once they are many enough.
	OneSidedKeys
	// LowerFirstKeys and UpperFirstKeys: the cells of a partition in the
	// order of their outputs, lowest (highest) first, so that every prefix
	// is a half-line of outputs, the likelihood-ratio tests of a family
	// with a monotone ratio (the Gaussian and Laplace mechanisms). The
	// cells that come first in the ratio orders (firstKey) have no place
	// of their own here: those orders are screened beside. Where the ratio of the
	// two densities stays near the test's threshold over a wide range (a
	// hockey-stick divergence at a small ε: [KMRS24]'s NonDPGaussian2 at
	// ε = 0.01, whose best events are the half-lines below 0.74 and above
	// 0.80, the ratio between 1.01 and about 1.2 there), the ratio keys of
	// cells of a few dozen draws scatter those cells across the threshold,
	// and an event of them holds about half the divergence. A table of
	// values is keyed by ratio whatever keys says.
	LowerFirstKeys
	UpperFirstKeys
	// eventOrder, added to any of them, marks an event criterion's order
	// (PrefixGroups), whose ratio orders also put first the cells of one
	// value that only P produced (see firstKey).
	eventOrder Keys = 1 << 4
)

// OneSidedLevel is Φ(−GroupPenalty), the one-sided level of the penalised
// key's GroupPenalty standard errors, at which oneSidedKey bounds a cell's
// ratio exactly.
func OneSidedLevel() float64 { return numeric.NormalCDF(-GroupPenalty) }

// oneSidedKey is the order key of a cell seen p > 0 times in n_P draws of
// P and never in n_Q of Q. The ½ that the penalised key adds to a zero
// count sets its standard error (√(1/½) = 1.41, so 2.8 off the key
// whatever p is), which ranks 22 outputs of one dataset alone below a
// cell of 47 against 5: outputs far beyond the noise that one dataset
// produces rarely were grouped last and never tested on their own. Given
// the cell's m = p + q outputs, p is Binomial(m, θ) with
// θ/(1 − θ) = (P/Q)·n_P/n_Q, and the exact lower bound of θ at q = 0 and
// level a = OneSidedLevel() is a^{1/p}, so
//
//	key = ln(a^{1/p} / (1 − a^{1/p})) − ln(n_P/n_Q),
//
// the same level of evidence as the penalised key (close to it where both
// apply: −0.93 against −1.08 at p = 3, 1.67 against 0.95 at p = 22).
func oneSidedKey(p, np, nq float64) float64 {
	lo := math.Pow(OneSidedLevel(), 1/p)
	return math.Log(lo) - math.Log1p(-lo) - math.Log(np/nq)
}

// grouping maps the ordered cells ks to their groups: by cell index for a
// partition, by value otherwise, values the screening never saw to the
// group of the table's cell of them (stat.WithUnlisted), if it has one,
// else to the last group.
func grouping(t *stat.Table, ks []keyed, group []int, groups int) stat.Grouping {
	out := stat.Grouping{Groups: groups, Partition: t.Partition}
	if t.Partition != nil {
		out.OfCell = make([]int, t.Partition.Cells())
		for i, k := range ks {
			out.OfCell[k.cell.Value.(int)] = group[i]
		}
		return out
	}
	out.OfValue = make(map[any]int, len(ks))
	out.Unlisted = out.Groups - 1
	for i, k := range ks {
		if _, unlisted := k.cell.Value.(stat.Unlisted); unlisted {
			out.Unlisted = group[i] // a table's own cell of unlisted values (stat.WithUnlisted)
			continue
		}
		out.OfValue[k.cell.Value] = group[i]
	}
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
	p, q := GroupTotals(t, g)
	return stat.Counted(p, q, t.NP, t.NQ)
}

// GroupTotals returns a table's counts per group, in the grouping's order.
func GroupTotals(t *stat.Table, g stat.Grouping) (p, q []int64) {
	p, q = make([]int64, g.Groups), make([]int64, g.Groups)
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
	return p, q
}

// ZoneFraction bounds the end zones: a zone of more than 1/ZoneFraction of
// the outputs (2λ² > n/ZoneFraction: λ > 158 at a million draws) averages
// the ratio over so much of the distribution that the tail the order λ
// weights is not examined, and EndZones reports the ends unreachable.
const ZoneFraction = 20

// EndZones groups the cells of a partition table by position for a sample
// of n outputs per side: group 0 is the run of cells from the lower open
// end, group 2 the run from the upper one, each just long enough for both
// sides to expect GroupCount·λ² of the n outputs (the table's counts,
// scaled; a partition with fewer cells than that gives no zones), group 1
// the cells between. Zones are the outputs at and beyond the extremes the
// screening saw. A partition of real outputs (or of one coordinate of a
// vector) is zoned at the sides of each gap in their support as at its
// ends, one zone group each from 3 on ([zonePartitionGaps], GapDensity).
// A table of numbers (discrete outputs of a number type) is
// zoned the same way in the order of its values, at the two sides of each
// gap in its observed support as at its two ends ([valueZones],
// [numberZones]); a table of other values returns a grouping of no groups
// and true: they have no order, so no end. A table of numbers has no zone
// at an end that is its support's own, and an atom at an end is not one
// (HardEndCount); with no zone at any end, EndZones returns no groups and
// true. (Ranges of
// numbers, cut to equal counts, cannot show an end's fall-off: their ends
// are open, as real outputs'.) For a table whose ends, or the sides of
// whose gaps, cannot hold that many outputs apart from the rest, or when
// a zone would hold more than 1/ZoneFraction of them (λ large for n), it
// returns no groups and false: the tail the order λ weights cannot be
// examined.
func EndZones(t *stat.Table, lambda float64, n int) (stat.Grouping, bool) {
	if t.Partition == nil {
		return valueZones(t, lambda, n)
	}
	need := GroupCount * lambda * lambda
	if need > float64(n)/ZoneFraction {
		return stat.Grouping{}, false
	}
	sp, sq := float64(n)/float64(t.NP), float64(n)/float64(t.NQ)
	cells := allCells(t)
	zones, has, ok := zonesOf(cells, openEnds(len(cells)), sp, sq, need)
	if !has {
		return stat.Grouping{}, ok
	}
	groups, ok := zonePartitionGaps(t.Partition, cells, sp, sq, need, zones)
	if !ok {
		return stat.Grouping{}, false
	}
	return stat.Grouping{Groups: groups, Partition: t.Partition, OfCell: zones}, true
}

// ends are the cells a zoning examines, from and to (inclusive, in the
// outputs' order), and whether each end is hard: the support's own, with
// no zone.
type ends struct {
	from, to          int
	lowHard, highHard bool
}

// openEnds examines every one of n cells, with no hard end (real outputs,
// ranges of numbers).
func openEnds(n int) ends { return ends{0, n - 1, false, false} }

// zonesOf returns the zone (0, 1 or 2) of each of cells, in the outputs'
// order (EndZones), each side's counts scaled by sp and sq to the sample
// the zones are for: each end of e that is not hard gets the run of cells
// from it in which both sides expect need outputs, cells outside e are
// counted between the zones; and whether there are zones and whether the
// ends are reachable. No zone at either end is no zones and reachable.
func zonesOf(cells []stat.Cell, e ends, sp, sq, need float64) (zones []int, has, ok bool) {
	from, to, lowHard, highHard := e.from, e.to, e.lowHard, e.highHard
	if lowHard && highHard || from >= to {
		return nil, false, true
	}
	inner := cells[from : to+1]
	lo, hi := endRuns(inner, sp, sq, need)
	if lowHard {
		lo = -1
	} else if lo < 0 || lo >= len(inner)-1 {
		return nil, false, false
	}
	if highHard {
		hi = len(inner)
	} else if hi <= 0 || hi <= lo {
		return nil, false, false
	}
	zones = make([]int, len(cells))
	for i := range zones {
		zones[i] = 1
		if k := i - from; k >= 0 && k < len(inner) {
			zones[i] = zoneOf(k, lo, hi)
		}
	}
	return zones, true, true
}

// endRuns returns the index of the last cell of the run from each end of
// cells (in the output's order) in which both sides expect need outputs,
// their counts scaled by sp and sq; −1 for an end that no run reaches.
func endRuns(cells []stat.Cell, sp, sq, need float64) (lo, hi int) {
	zone := func(from, step int) int {
		var ep, eq float64
		for i := from; i >= 0 && i < len(cells); i += step {
			ep += float64(cells[i].P) * sp
			eq += float64(cells[i].Q) * sq
			if ep >= need && eq >= need {
				return i
			}
		}
		return -1
	}
	return zone(0, 1), zone(len(cells)-1, -1)
}

// zoneOf is the zone of cell i between end runs ending at lo and hi.
func zoneOf(i, lo, hi int) int {
	switch {
	case i <= lo:
		return 0
	case i >= hi:
		return 2
	}
	return 1
}

// ZoneDependence returns how much of a statistic's order-λ evidence rests
// on the end zones (EndZones). p and q count each side's outputs in group g
// of the statistic and zone z at index zones·g + z (stat.Product of the
// statistic's grouping and the zones, zones groups of them: zone 1 holds
// the outputs between the zones, every other zone is an end's). With
// each group's ratio r_g = p_g/q̃_g (counts summed over the zones; q̃ =
// max(q, ½)) and its ratio without the zones' outputs r_{g,1} =
// p_{g,1}/q̃_{g,1} (0 if p_{g,1} = 0 < q_{g,1}; for a group wholly in the
// zones: 1 if it holds fewer
// than 4·GroupCount·λ² outputs, both sides, a thin tail such as an event
// of the most extreme outputs, or whatever it holds if onlyTails; r_g
// otherwise, an atom at an end seen often), the statistic's sum
// S = Σ_g p_g r_g^{λ−1} = Σ_g p_g^λ q̃_g^{1−λ} and the same sum at the
// ratios without the zones, S₁ = Σ_g p_g r_{g,1}^{λ−1}, the dependence is
//
//	1 − S₁/S   (0 if S₁ ≥ S):
//
// how much of e^{(λ−1)D̂} the groups' ratios lose when the outputs at and
// beyond the screening's extremes are left out (their mass is kept). Near
// 1, the divergence the statistic sees is made by those outputs, and the
// order λ's tilt of the distribution may lie further out than this many
// draws reach (a Gaussian at λ = 64, whose estimates fall short of the
// truth by half). A tail whose ratio stops growing (a Laplace, whose
// largest ratio holds on a half-line) or one the statistic outweighs (a
// Gaussian at λ = 5) gives a dependence near 0, up to noise that grows
// with λ − 1 (about 0.5 for a Laplace at λ = 64 and 8,192 outputs a zone).
// ZoneShare measures the zones' own evidence instead: the two disagree
// where the statistic's groups mix cells of the tail with cells inside.
//
// onlyTails is for the zones of a table of numbers (valueZones), which
// leave out the ends that are their support's own and the atoms at them
// (HardEndCount): a group of their values, however often seen in all, is
// taken as a tail's (the integers a discrete Gaussian's shifted side
// alone reaches, grouped together); and for numbers screened in ranges
// (stat.Ranges) whose values have tails, whose groups are ranges of
// values each seen a few times, none an atom. An extreme value seen often but not
// often enough to be judged the support's end counts as a tail's too, and
// its audits can end inconclusive (a count of two randomized-response bits
// at ε₀ = 5.3, whose top value is drawn 5,000 times a million, at λ = 2).
func ZoneDependence(p, q []int64, zones int, lambda float64, onlyTails bool) float64 {
	return ZoneDependenceOf(p, q, zones, lambda, func(int) bool { return onlyTails })
}

// ZoneDependenceOf is ZoneDependence with onlyTails decided group by group
// (tail(g) for group g of the statistic): ranges of numbers take a group
// of ranges wholly in the zones as a tail's, but not one holding a cell of
// one value, a clamp's bound seen as often as any range.
func ZoneDependenceOf(p, q []int64, zones int, lambda float64, tail func(g int) bool) float64 {
	logRatio := func(p, q int64) float64 { return math.Log(float64(p)) - math.Log(max(float64(q), 0.5)) }
	var all, inner []float64
	for g := 0; g+zones <= len(p); g += zones {
		var pg, qg int64
		for z := g; z < g+zones; z++ {
			pg, qg = pg+p[z], qg+q[z]
		}
		if pg == 0 {
			continue
		}
		full := logRatio(pg, qg)
		without := full
		switch {
		case p[g+1] > 0:
			without = logRatio(p[g+1], q[g+1])
		case q[g+1] > 0:
			without = math.Inf(-1) // inside the zones the group is seen on q's side only
		case tail(g/zones) || float64(pg+qg) < 4*GroupCount*lambda*lambda:
			without = 0 // a thin group wholly in the zones: no evidence without them
		}
		all = append(all, math.Log(float64(pg))+(lambda-1)*full)
		inner = append(inner, math.Log(float64(pg))+(lambda-1)*without)
	}
	if len(all) == 0 {
		return 0
	}
	return max(0, -math.Expm1(numeric.LogSumExp(inner)-numeric.LogSumExp(all)))
}

// ZoneShare returns the share of the order-λ evidence that lies in the end
// zones (EndZones: p[z], q[z] for zone z, 1 the outputs between them, each
// other zone an end's) of counts of n outputs per side, beside a
// statistic's estimate D̂: Σ_zones p̂^λ q̃^{1−λ} / (Σ_zones p̂^λ q̃^{1−λ} +
// e^{(λ−1)D̂}), q̃ = max(q, ½)/n. Near 1, the order λ weights outputs at or
// beyond the most extreme ones the screening saw more than everything the
// statistic found: the divergence may sit in a tail that this many draws
// do not reach (a Gaussian at λ = 64). A flat tail (a Laplace, whose ratio
// stops growing) or a tail the statistic outweighs (a Gaussian at λ = 5)
// gives a share near 0.
func ZoneShare(p, q []int64, n int64, lambda, estimate float64) float64 {
	var in []float64
	for g := range p {
		if g == 1 || p[g] == 0 {
			continue
		}
		in = append(in, lambda*math.Log(float64(p[g])/float64(n))+(1-lambda)*math.Log(max(float64(q[g]), 0.5)/float64(n)))
	}
	if len(in) == 0 {
		return 0
	}
	z := numeric.LogSumExp(in)
	return math.Exp(z - numeric.LogAddExp(z, (lambda-1)*max(estimate, 0)))
}
