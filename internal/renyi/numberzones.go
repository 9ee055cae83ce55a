package renyi

import (
	"slices"

	"github.com/dptest/dptest/internal/stat"
)

// HardEndCount: an end of a table of numbers is the support's own (a hard
// end, no zone) when a value beyond its most extreme one, as much rarer
// than it as it is than its neighbour (a²/b outputs, a and b their pooled
// counts, a < b), would have been drawn at least HardEndCount times: the
// last count of a bounded support (a binomial's n, randomized response's
// last category), not a tail thinning out (a discrete Gaussian's largest
// values, seen a few times each). Seeing none where 20 are expected has
// probability e^{−20}. An extreme value seen at least as often as its
// neighbour (a ≥ b: a clamp's bound) is an atom, not an end: the tail, if
// any, is the run behind it. A tail that falls off faster than
// geometrically can pass for a hard end; its order-λ evidence beyond the
// last value seen is then not examined.
const HardEndCount = 20

// GapFactor: two consecutive values of a table of numbers lie on either
// side of a gap when they are more than GapFactor times the median spacing
// of its consecutive values apart: a missing integer among integers, the
// stretch between the two halves of outputs wrapped modulo 2ⁿ, between
// the blocks of a tuple flattened to one number, before an error sentinel.
// Each side of a gap is an end, with a tail or not, as the table's own
// ends are ([numberZones]).
const GapFactor = 1.5

// valueZones is EndZones of a table of values. Numbers are zoned in their
// exact order (stat.NumberKey), every end of their observed support, the
// table's two and both sides of each gap inside it, as [numberZones]
// says. In a dense table (stat.Table.Dense) a value the screening never
// saw is counted in a zone (the upper one whenever there is one): drawn
// only later, it most likely lies beyond an end; in a sparser one, whose
// values are drawn a few times each anywhere (and screened in ranges as
// well), with those between. Values that are not numbers, a table of one
// value, or no tail at any end give no groups and true.
func valueZones(t *stat.Table, lambda float64, n int) (stat.Grouping, bool) {
	cells, keys, ok := sortedNumbers(t)
	if !ok || len(cells) < 2 {
		return stat.Grouping{}, true
	}
	zones, has, ok := numberZones(cells, keys, float64(n)/float64(t.NP), float64(n)/float64(t.NQ), lambda, n)
	if !has {
		return stat.Grouping{}, ok
	}
	g := stat.Grouping{Groups: 3, OfValue: make(map[any]int, len(cells)), Unlisted: 1}
	switch {
	case !t.Dense(): // most values are drawn once, anywhere
	case slices.Contains(zones, 2):
		g.Unlisted = 2
	default: // no upper tail
		g.Unlisted = 0
	}
	for i, c := range cells {
		g.OfValue[c.Value] = zones[i]
	}
	return g, true
}

// span is a run of sorted cells, from and to inclusive.
type span struct{ from, to int }

// numberZones zones sorted cells of numbers (keys their exact values),
// their counts scaled by sp and sq to a sample of n outputs per side. The
// observed support is cut at its gaps (GapFactor) into runs. A run is a
// block of its own when one of its values was seen HardEndCount times and
// both sides expect GroupCount·λ² of the n outputs in it; each block is
// zoned as a table's ends are (zonesOf: a zone at each end that is not
// the support's own, HardEndCount), lower ends' zones 0 and upper ends'
// 2. The runs between blocks, a few values drawn a few times each, are
// fragments: a fragment beside a block's tail is that tail's (the sparse
// outskirts of a discrete Gaussian, past a value never drawn), and
// counted in a zone, unless one of its values was seen HardEndCount times
// and as often as the tail's last value (an error sentinel: an atom). A
// block too small to hold its zones apart is a tail wholly, while another
// block is not. With no block, the whole table is one (its two ends
// zoned as they always were); with no block left out of the zones, or
// zones of more than 1/ZoneFraction of n, the ends are unreachable.
func numberZones(cells []stat.Cell, keys []stat.NumberKey, sp, sq, lambda float64, n int) (zones []int, has, ok bool) {
	need := GroupCount * lambda * lambda
	runs := supportRuns(keys)
	blocks := make([]bool, len(runs))
	nBlocks := 0
	for k, r := range runs {
		blocks[k] = isBlock(cells[r.from:r.to+1], sp, sq, need)
		if blocks[k] {
			nBlocks++
		}
	}
	if nBlocks == 0 {
		runs, blocks, nBlocks = []span{{0, len(cells) - 1}}, []bool{true}, 1
	}
	zones = make([]int, len(cells))
	for i := range zones {
		zones[i] = 1
	}
	tails := make([][2]bool, len(runs)) // a block's lower and upper end have a tail
	whole := 0                          // blocks that are tails wholly
	for k, r := range runs {
		if !blocks[k] {
			continue
		}
		run := cells[r.from : r.to+1]
		z, has, fits := zonesOf(run, sp, sq, need, true)
		switch {
		case !has && fits: // both ends the support's own
			continue
		case !has: // its zones cannot be held apart
			for i := range run {
				zones[r.from+i] = 2
			}
			tails[k] = [2]bool{true, true}
			whole++
			continue
		}
		copy(zones[r.from:], z)
		tails[k] = [2]bool{slices.Contains(z, 0), slices.Contains(z, 2)}
	}
	if whole == nBlocks || need > float64(n)/ZoneFraction && (whole > 0 || slices.Contains(zones, 0) || slices.Contains(zones, 2)) {
		return nil, false, false
	}
	zoneFragments(cells, runs, blocks, tails, zones)
	if !slices.Contains(zones, 0) && !slices.Contains(zones, 2) {
		return nil, false, true
	}
	return zones, true, true
}

// zoneFragments counts in a zone each fragment (a run that is not a
// block, [numberZones]) that lies beside a block's end with a tail
// (tails[k]: block k's lower and upper end), between it and the next
// block: zone 2 beyond an upper end, 0 below a lower one. A fragment with
// a value seen HardEndCount times and at least as often as the end's last
// value is an atom, and is left between the zones.
func zoneFragments(cells []stat.Cell, runs []span, blocks []bool, tails [][2]bool, zones []int) {
	pooled := func(i int) int64 { return cells[i].P + cells[i].Q }
	below := -1 // the last block before run k
	for k, r := range runs {
		if blocks[k] {
			below = k
			continue
		}
		above := slices.Index(blocks[k+1:], true)
		if above >= 0 {
			above += k + 1
		}
		zone, edge := 1, int64(0)
		if above >= 0 && tails[above][0] {
			zone, edge = 0, pooled(runs[above].from)
		}
		if below >= 0 && tails[below][1] {
			zone, edge = 2, max(edge, pooled(runs[below].to))
		}
		var most int64
		for i := r.from; i <= r.to; i++ {
			most = max(most, pooled(i))
		}
		if zone == 1 || most >= HardEndCount && most >= edge {
			continue
		}
		for i := r.from; i <= r.to; i++ {
			zones[i] = zone
		}
	}
}

// isBlock reports whether a run of sorted cells is a block of the
// support ([numberZones]): a value seen HardEndCount times, and need
// outputs of each side expected in it (counts scaled by sp and sq).
func isBlock(run []stat.Cell, sp, sq, need float64) bool {
	var p, q, most int64
	for _, c := range run {
		p, q, most = p+c.P, q+c.Q, max(most, c.P+c.Q)
	}
	return most >= HardEndCount && float64(p)*sp >= need && float64(q)*sq >= need
}

// supportRuns cuts sorted number keys into runs at the gaps between them
// (GapFactor): spacings wider than GapFactor times their lower median.
func supportRuns(keys []stat.NumberKey) []span {
	gaps := make([]float64, len(keys)-1)
	for i := range gaps {
		gaps[i] = stat.NumberDistance(keys[i], keys[i+1])
	}
	sorted := slices.Clone(gaps)
	slices.Sort(sorted)
	median := sorted[(len(sorted)-1)/2]
	var runs []span
	from := 0
	for i, g := range gaps {
		if g > GapFactor*median {
			runs = append(runs, span{from, i})
			from = i + 1
		}
	}
	return append(runs, span{from, len(keys) - 1})
}

// sortedNumbers returns the cells of a table of numbers in the exact order
// of their values, with their keys, and false if a value is not a number.
func sortedNumbers(t *stat.Table) ([]stat.Cell, []stat.NumberKey, bool) {
	type keyed struct {
		key  stat.NumberKey
		cell stat.Cell
	}
	ks := make([]keyed, len(t.Cells))
	for i, c := range t.Cells {
		k, ok := stat.NumberKeyOf(c.Value)
		if !ok {
			return nil, nil, false
		}
		ks[i] = keyed{k, c}
	}
	slices.SortFunc(ks, func(a, b keyed) int { return stat.CompareNumberKeys(a.key, b.key) })
	cells, keys := make([]stat.Cell, len(ks)), make([]stat.NumberKey, len(ks))
	for i, k := range ks {
		cells[i], keys[i] = k.cell, k.key
	}
	return cells, keys, true
}

// tailStart looks at one end of sorted cells (index from, step +1 from
// the lower end, −1 from the upper), past an atom there (HardEndCount),
// and returns where the end's tail starts, or, with hard, where the
// support ends: at a hard value seen less often than its neighbour, at a
// hard value behind the atom (a clamp's bound before the bulk), or at the
// other end.
func tailStart(cells []stat.Cell, from, step int) (int, bool) {
	i := from
	for k := 0; k < 2; k++ {
		next := i + step
		if next < 0 || next >= len(cells) {
			return i, true
		}
		a, b := float64(cells[i].P+cells[i].Q), float64(cells[next].P+cells[next].Q)
		switch {
		case a*a < HardEndCount*b:
			return i, false // a tail thinning out
		case a < b || k == 1:
			return i, true // the support's last value, or the bulk behind an atom
		}
		i = next // an atom: the tail, if any, lies behind it
	}
	return i, true
}
