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

// valueZones is EndZones of a table of numbers, in their exact order
// (stat.NumberKey), at every end of their observed support ([numberZones]):
// zone 1 holds the values between the zones, 0 the lower end's and 2 the
// upper end's of the table, 3 and on those of the gaps inside it. In a
// dense table (stat.Table.Dense) a value the screening never saw is
// counted in a zone (the table's upper one whenever there is one): drawn
// only later, it most likely lies beyond an end; in a sparser one, whose
// values are drawn a few times each anywhere (and screened in ranges as
// well), with those between. Values that are not numbers, a table of one
// value, or no tail at any end give no groups and true.
func valueZones(t *stat.Table, lambda float64, n int) (stat.Grouping, bool) {
	cells, keys, ok := sortedNumbers(t)
	if !ok || len(cells) < 2 {
		return stat.Grouping{}, true
	}
	zones, groups, ok := numberZones(cells, keys, float64(n)/float64(t.NP), float64(n)/float64(t.NQ), lambda, n)
	if groups == 0 {
		return stat.Grouping{}, ok
	}
	g := stat.Grouping{Groups: groups, OfValue: make(map[any]int, len(cells)), Unlisted: 1}
	if t.Dense() { // else most values are drawn once, anywhere
		for _, z := range []int{2, 0, 3} {
			if slices.Contains(zones, z) {
				g.Unlisted = z
				break
			}
		}
	}
	for i, c := range cells {
		g.OfValue[c.Value] = zones[i]
	}
	return g, true
}

// endKind is how a zoning of numbers treats one end of a run of them.
type endKind int

const (
	judged   endKind = iota // hard or not by its counts (tailStart)
	soft                    // a tail: values lie beyond it
	tableEnd                // the table's own end, zoned with the table
)

// numberEnds returns the ends of a run of sorted cells of numbers to zone
// (zonesOf), each end of the kind given.
func numberEnds(cells []stat.Cell, low, high endKind) ends {
	e := openEnds(len(cells))
	switch low {
	case judged:
		e.from, e.lowHard = tailStart(cells, 0, 1)
	case tableEnd:
		e.lowHard = true
	}
	switch high {
	case judged:
		e.to, e.highHard = tailStart(cells, len(cells)-1, -1)
	case tableEnd:
		e.highHard = true
	}
	return e
}

// span is a run of sorted cells, from and to inclusive.
type span struct{ from, to int }

// numberZones zones sorted cells of numbers (keys their exact values),
// their counts scaled by sp and sq to a sample of n outputs per side, and
// returns each cell's zone (1 between the zones), the number of zone
// groups (0 for none) and whether the ends are reachable. The table's two
// ends are zoned as a run's are (zonesOf: a zone at each end that is not
// the support's own, HardEndCount: zones 0 and 2), and each gap inside
// the observed support (GapFactor) adds the zones of its sides
// ([zoneGaps]: 3 and on), where the table's zoning left cells between.
// Zones of more than 1/ZoneFraction of n, or a table whose ends or gaps
// cannot hold their zones apart, are unreachable.
func numberZones(cells []stat.Cell, keys []stat.NumberKey, sp, sq, lambda float64, n int) (zones []int, groups int, ok bool) {
	need := GroupCount * lambda * lambda
	zones, has, ok := zonesOf(cells, numberEnds(cells, judged, judged), sp, sq, need)
	if !ok {
		return nil, 0, false
	}
	if !has {
		zones = slices.Repeat([]int{1}, len(cells))
	}
	groups = 3
	if runs := supportRuns(keys); len(runs) > 1 {
		if groups, ok = zoneGaps(cells, keys, runs, sp, sq, need, zones); !ok {
			return nil, 0, false
		}
	}
	if !slices.ContainsFunc(zones, func(z int) bool { return z != 1 }) {
		return nil, 0, true
	}
	if need > float64(n)/ZoneFraction {
		return nil, 0, false
	}
	return zones, groups, true
}

// zoneGaps adds to zones (the table's zoning, [numberZones]) the zones of
// the sides of the gaps of the observed support, one group each from 3
// on, where zones has 1; it returns the number of groups, and false if no
// block keeps cells between its zones. The runs between gaps (runs) are
// blocks (isBlock) or fragments, a few values drawn a few times each. A
// fragment is an atom when each of its values was seen HardEndCount times
// and as often as the blocks' ends beside it (error sentinels). A block's
// side facing a gap is a tail when a fragment beyond it, before the next
// block, is not an atom (values lie beyond it: the sparse outskirts of a
// discrete Gaussian, or the next value of a support whose spacing grows),
// and otherwise judged by its counts (tailStart); a side that is the
// table's end is left to the table's zoning. Each tail's zone is its run
// of values from that side, as at the table's ends, and holds the
// fragments that are not atoms beyond it (those between two tails, the
// nearer's); a block too small to hold its zones apart is one zone whole.
// (A fragment or a block too small for zones of its own may be a mode
// whose tails, never drawn, carry a divergence: a rare component's, which
// these draws cannot show.)
func zoneGaps(cells []stat.Cell, keys []stat.NumberKey, runs []span, sp, sq, need float64, zones []int) (int, bool) {
	blocks := make([]bool, len(runs))
	for k, r := range runs {
		blocks[k] = isBlock(cells[r.from:r.to+1], sp, sq, need)
	}
	if !slices.Contains(blocks, true) {
		return 3, true
	}
	atom := fragmentAtoms(cells, runs, blocks)
	owner := fragmentOwners(keys, runs, blocks, atom)
	// low[k] and high[k]: the zone of block k's lower and upper side, 1 for none.
	low, high := make([]int, len(runs)), make([]int, len(runs))
	next, whole, nBlocks := 3, 0, 0
	for k, r := range runs {
		low[k], high[k] = 1, 1
		if !blocks[k] {
			continue
		}
		nBlocks++
		run := cells[r.from : r.to+1]
		e := numberEnds(run, sideKind(runs, owner, k, -1), sideKind(runs, owner, k, 1))
		z, has, fits := zonesOf(run, e, sp, sq, need)
		if len(run) == 1 && (!e.lowHard || !e.highHard) {
			has, fits = false, false // one value with values beyond it: a tail's
		}
		switch {
		case !has && fits:
			continue
		case !has:
			low[k], high[k], z = next, next, slices.Repeat([]int{0}, len(run))
			next++
			whole++
		default:
			if slices.Contains(z, 0) {
				low[k], next = next, next+1
			}
			if slices.Contains(z, 2) {
				high[k], next = next, next+1
			}
		}
		for i, zi := range z {
			switch {
			case zones[r.from+i] != 1 || zi == 1:
			case zi == 0:
				zones[r.from+i] = low[k]
			default:
				zones[r.from+i] = high[k]
			}
		}
	}
	if whole == nBlocks {
		return 0, false
	}
	zoneFragments(runs, owner, low, high, zones)
	return next, true
}

// sideKind is how block k's side (dir −1 lower, +1 upper) is zoned
// ([zoneGaps]): the table's end if no run lies beyond it, a tail if a
// fragment that is not an atom lies beyond it and is nearer to it than to
// the next block (owner), judged by its counts otherwise.
func sideKind(runs []span, owner [][2]int, k, dir int) endKind {
	if k+dir < 0 || k+dir >= len(runs) {
		return tableEnd
	}
	if slices.Contains(owner, [2]int{k, dir}) {
		return soft
	}
	return judged
}

// fragmentOwners returns, for each fragment that is not an atom, the
// block whose side it continues, {block, −1} below the block or {block,
// +1} above it: the nearer in value of the blocks beside it; {−1, 0} for
// blocks and atoms.
func fragmentOwners(keys []stat.NumberKey, runs []span, blocks, atom []bool) [][2]int {
	owner := make([][2]int, len(runs))
	for k, r := range runs {
		owner[k] = [2]int{-1, 0}
		if blocks[k] || atom[k] {
			continue
		}
		below, above := lastBlock(blocks, k, -1), lastBlock(blocks, k, 1)
		switch {
		case above < 0:
			owner[k] = [2]int{below, 1}
		case below < 0 || stat.NumberDistance(keys[r.to], keys[runs[above].from]) < stat.NumberDistance(keys[runs[below].to], keys[r.from]):
			owner[k] = [2]int{above, -1}
		default:
			owner[k] = [2]int{below, 1}
		}
	}
	return owner
}

// fragmentAtoms reports, for each run that is not a block, whether it is
// an atom ([zoneGaps]): each of its values seen HardEndCount times and at
// least as often as the end of each block beside it.
func fragmentAtoms(cells []stat.Cell, runs []span, blocks []bool) []bool {
	pooled := func(i int) int64 { return cells[i].P + cells[i].Q }
	atom := make([]bool, len(runs))
	for k, r := range runs {
		if blocks[k] {
			continue
		}
		least := int64(HardEndCount)
		if j := lastBlock(blocks, k, -1); j >= 0 {
			least = max(least, pooled(runs[j].to))
		}
		if j := lastBlock(blocks, k, 1); j >= 0 {
			least = max(least, pooled(runs[j].from))
		}
		atom[k] = true
		for i := r.from; i <= r.to; i++ {
			atom[k] = atom[k] && pooled(i) >= least
		}
	}
	return atom
}

// lastBlock returns the index of the nearest block to run k in direction
// dir (−1 below, +1 above), or −1.
func lastBlock(blocks []bool, k, dir int) int {
	for j := k + dir; j >= 0 && j < len(blocks); j += dir {
		if blocks[j] {
			return j
		}
	}
	return -1
}

// zoneFragments counts each fragment that is not an atom in the zone of
// the block side it continues (owner; low[k] and high[k] the zones of
// block k's sides, [zoneGaps]), where zones has 1.
func zoneFragments(runs []span, owner [][2]int, low, high, zones []int) {
	for k, r := range runs {
		o := owner[k]
		if o[0] < 0 {
			continue
		}
		zone := high[o[0]]
		if o[1] < 0 {
			zone = low[o[0]]
		}
		for i := r.from; i <= r.to; i++ {
			if zones[i] == 1 {
				zones[i] = zone
			}
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
