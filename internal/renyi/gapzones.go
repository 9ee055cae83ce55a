package renyi

import (
	"slices"

	"github.com/dptest/dptest/internal/stat"
)

// GapDensity and GapEdgeCount: the outputs of a partition's cells thin
// out by a gap where a bounded cell that is not an atom holds its
// screening's outputs more than GapDensity times more sparsely (pooled
// count per unit of width) than such a cell beside it that holds at least
// GapEdgeCount of them: the stretch between the two halves of a Gaussian
// wrapped modulo 100, between the blocks of a tuple flattened to one
// number, before an error code far from the bulk, or the sparse floor of
// rare outputs spread between two modes. In a density two neighbouring
// cells differ by the counts' noise (at 20 outputs or more, a tenfold
// drop is beyond it) and by the density's fall-off across one cell (under
// 3 at a Gaussian's or a Cauchy's last cells of 32,000 draws). Densities,
// not widths: a cell cut short beside an atom holds fewer outputs on a
// narrower stretch. The rule depends on counts and ratios of differences
// of the outputs only, so shifted and rescaled outputs are cut alike.
const (
	GapDensity   = 10
	GapEdgeCount = 20
)

// gapSpans returns, in increasing order, the runs of cells of a partition
// table of real outputs (cells every cell of its partition, allCells)
// that lie in a gap of their support. A run starts at a cell that holds
// outputs GapDensity times more sparsely than a cell beside it, or beside
// the atoms beside it (the edge of the gap; atoms there are error codes or
// a clamp's bounds, and the empty cells between the atoms of a lattice
// hold no outputs), and reaches away from that edge through every cell
// that is an atom, open or that sparse, to the table's end or to the
// first cell that is not: the outputs are as dense again (a tail rising
// from the gap, the bulk beyond an error code; the cells of that rise
// sparser than the edge, a tail meeting a sparse floor, are the gap's
// too). Overlapping runs are merged. A partition of a learned score's
// values (vector outputs) has none: its values cluster at the steps of
// the score, whose gaps are the score's, not the outputs'.
func gapSpans(part *stat.Partition, cells []stat.Cell) []span {
	if !part.OutputValues() {
		return nil
	}
	count := func(c int) float64 { return float64(cells[c].P + cells[c].Q) }
	width := func(c int) float64 {
		lo, hi := part.Bounds(c)
		return hi - lo
	}
	// bounded: a cell whose density is that of outputs spread, not an
	// atom's or an open end's.
	bounded := func(c int) bool { return !part.Open(c) && !part.Atom(c) }
	// sparse: c holds its outputs GapDensity times more sparsely than
	// edge, compared as ratios (scale-free: widths of 10⁻³⁰⁰ overflow no
	// density).
	sparse := func(c, edge int) bool { return GapDensity*count(c)/count(edge) < width(c)/width(edge) }
	n := part.Cells()
	in := make([]bool, n) // cells of a span found
	var spans []span
	for c := 1; c+1 < n; c++ {
		for _, dir := range []int{1, -1} { // the gap beyond the cells below c, or above
			edge := c - dir // the nearest cell that is not an atom (error codes at the gap's edge)
			for edge >= 0 && edge < n && part.Atom(edge) {
				edge -= dir
			}
			if in[c] || !bounded(c) || count(c) == 0 || edge < 0 || edge >= n || !bounded(edge) || count(edge) < GapEdgeCount || !sparse(c, edge) {
				continue
			}
			far := c // the last cell of the gap, from c away from edge
			for k := c + dir; k >= 0 && k < n && (!bounded(k) || sparse(k, edge)); k += dir {
				far = k
			}
			s := span{min(c, far), max(c, far)}
			for k := s.from; k <= s.to; k++ {
				in[k] = true
			}
			spans = append(spans, s)
		}
	}
	return mergeSpans(spans)
}

// mergeSpans sorts spans by their first cell and merges those that
// overlap.
func mergeSpans(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	var out []span
	for _, s := range spans {
		if k := len(out) - 1; k >= 0 && s.from <= out[k].to {
			out[k].to = max(out[k].to, s.to)
			continue
		}
		out = append(out, s)
	}
	return out
}

// zonePartitionGaps adds to zones (a partition table's cells zoned at its
// two open ends, zonesOf) the zones of the gaps in the outputs' support
// (gapSpans), where zones has 1, one zone group each from 3 on, and
// returns the number of groups and whether cells are left between the
// zones. A gap's own cells that are not atoms (the outskirts of the tails
// on its sides, a sparse floor) are a zone of their own; each side whose
// run of cells (to the next gap or the table's end) holds a bounded cell
// that is not an atom is a tail, whose zone is the run of cells from the
// gap in which both sides expect need outputs (counts scaled by sp and
// sq), as at the table's ends. A side of atoms alone (error codes) has no
// tail, and a gap wholly in the table's end zones is that end's. A run
// too small to hold its two sides' zones apart is zoned to its end, half
// in each: a rare component, whose own tails these draws cannot show.
// When the gaps' zones leave no cell between them (fifty modes at λ = 64),
// the tails cannot be examined: false.
func zonePartitionGaps(part *stat.Partition, cells []stat.Cell, sp, sq, need float64, zones []int) (int, bool) {
	gaps := gapSpans(part, cells)
	if len(gaps) == 0 {
		return 3, true
	}
	groups := 3
	for k, g := range gaps {
		inside := false
		for c := g.from; c <= g.to; c++ {
			if zones[c] == 1 && !part.Atom(c) {
				zones[c], inside = groups, true
			}
		}
		if !inside {
			continue // in the table's end zones, or atoms alone
		}
		groups++
		for _, dir := range []int{-1, 1} {
			from, stop := g.from-1, -1 // to the next gap, or the table's end
			if dir > 0 {
				from, stop = g.to+1, len(cells)
			}
			if j := k + dir; j >= 0 && j < len(gaps) {
				stop = gaps[j].to
				if dir > 0 {
					stop = gaps[j].from
				}
			}
			if zoneSide(part, cells, from, stop, dir, sp, sq, need, zones, groups) {
				groups++
			}
		}
	}
	return groups, slices.Contains(zones, 1)
}

// zoneSide zones the run of cells from from towards stop (exclusive, step
// dir) as the tail of a gap ([zonePartitionGaps]) in zone group, where
// zones has 1, and reports whether it zoned any: none for a run of atoms
// alone; up to the cell where both sides expect need outputs, or to stop
// or a cell another zone holds when the run cannot hold that many apart
// from the zone at its other side.
func zoneSide(part *stat.Partition, cells []stat.Cell, from, stop, dir int, sp, sq, need float64, zones []int, group int) bool {
	tail := false
	for i := from; i != stop && i >= 0 && i < len(cells); i += dir {
		tail = tail || !part.Atom(i) && !part.Open(i)
	}
	if !tail {
		return false
	}
	var ep, eq float64
	zoned := false
	for i := from; i != stop && i >= 0 && i < len(cells) && zones[i] == 1; i += dir {
		zones[i], zoned = group, true
		ep += float64(cells[i].P) * sp
		eq += float64(cells[i].Q) * sq
		if ep >= need && eq >= need {
			break
		}
	}
	return zoned
}
