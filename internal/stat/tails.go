package stat

import (
	"math"
	"slices"

	"github.com/dptest/dptest/internal/numeric"
)

// The two open cells of a pilot's partition reach past every value the
// pilot saw, so an output far beyond the noise, which one dataset produces
// rarely (10⁶ once in 2,000 draws beside noise of scale 1), shares the
// last cell with the noise's own tail and no count can isolate it: a
// mechanism with ε = ∞ passes. A screening sample is many times the
// pilot's size, so it keeps the values that fall in the open cells (the
// TailKeep most extreme of each side) and cuts those cells again
// ([RefineTails]) before any criterion reads its counts: at the values
// that repeat there, and at a gap beyond which values lie far from all
// the others. The new cells are fixed before the confirming draws, so
// counting them is a post-processing like any other and every bound stays
// valid. The open cells are not cut finer otherwise: a cell of the noise's
// own tail holds what an inner cell holds.
const (
	// TailKeep is how many of its most extreme values in each open cell
	// one side's screening statistic keeps.
	TailKeep = 1 << 12
	// TailAtomRepeats is how many times a kept value must repeat to get a
	// cell of its own: a density beyond the pilot's extremes repeats no
	// value, so three equal outputs out there are an atom.
	TailAtomRepeats = 3
	// FarInner is how many distinct values of an open cell, from its inner
	// end, a gap must have inside it to make the values beyond it far
	// (farCount).
	FarInner = 8
	// FarGap is how many times the span of the values inside it a gap in
	// an open cell must be for the values beyond it to count as far. The
	// largest gap among the m most extreme values of an exponential tail
	// exceeds ten times their span with probability about e^{−10·(H_m−1)}
	// (H_m the harmonic number), m ≥ FarInner: 10⁻¹¹; lighter tails less
	// still. Heavier tails (Cauchy) have far values of their own.
	FarGap = 10
)

// NewTailCounts returns an empty statistic on p that also keeps, of the
// outputs in p's two open cells, the keep smallest and the keep largest,
// for [RefineTails].
func NewTailCounts(p *Partition, keep int) *PartitionCounts {
	c := NewPartitionCounts(p)
	c.keep, c.keepsInner = keep, p.OutputValues()
	return c
}

// keepTail records v, in open cell cell, among the kept extremes.
func (c *PartitionCounts) keepTail(v float64, cell int) {
	switch cell {
	case 0:
		c.low = append(c.low, v)
		if len(c.low) >= 2*c.keep {
			c.low = extremes(c.low, c.keep, false)
		}
	case len(c.In) - 1:
		c.high = append(c.high, v)
		if len(c.high) >= 2*c.keep {
			c.high = extremes(c.high, c.keep, true)
		}
	}
}

// mergeTails adds o's kept extremes to c's.
func (c *PartitionCounts) mergeTails(o *PartitionCounts) {
	if c.keep == 0 {
		return
	}
	c.low = extremes(append(c.low, o.low...), c.keep, false)
	c.high = extremes(append(c.high, o.high...), c.keep, true)
	c.innerOver = c.innerOver || o.innerOver || len(c.inner)+len(o.inner) > MaxInner
	if c.innerOver {
		c.inner = nil
		return
	}
	c.inner = append(c.inner, o.inner...)
}

// MaxInner is the most inner values one side's screening statistic keeps
// for inner atoms (2¹⁷: the default screening of 100,000 draws per side
// in full), so that its memory does not grow with the sample size. A
// larger screening cuts no inner atoms; its pilot, of 16,384 draws per
// side, repeats an atom of one output in 3,000 about five times, and
// isolates it itself in nine pilots of ten.
const MaxInner = 1 << 17

// keepInner records v, in an inner cell, among the inner values, or drops
// them all once there are more than MaxInner.
func (c *PartitionCounts) keepInner(v float64) {
	if len(c.inner) >= MaxInner {
		c.inner, c.innerOver = nil, true
		return
	}
	c.inner = append(c.inner, v)
}

// extremes sorts v and returns its keep smallest (largest when high),
// sorted: the same multiset whatever order the values came in.
func extremes(v []float64, keep int, high bool) []float64 {
	slices.Sort(v)
	if len(v) <= keep {
		return v
	}
	if high {
		return append(v[:0], v[len(v)-keep:]...)
	}
	return v[:keep]
}

// RefineTails returns the table of x's and y's counts on their partition
// with its inner cells cut at their atoms (innerAtoms) and its two open
// cells cut again at the kept values of both sides
// (x and y must be [NewTailCounts] statistics on one partition, with what
// they kept in it). In an open cell, the values beyond the kept ones of a
// side that kept only its most extreme are known on both sides; a value
// among them repeated TailAtomRepeats times gets a cell of its own, the
// values beyond a gap (farCount) a cell apart from the rest (their atoms
// apart again), and what is not known is one cell, counted by difference.
// Where the known values of an open cell (not beyond a gap) hold a run of
// OneSidedRun or more of one side alone, the table's RunsApart counts the
// same draws with each such run in a cell of its own besides (its atoms
// cut apart again).
// All counts stay exact.
func RefineTails(x, y *PartitionCounts) *Table {
	p := x.Part
	if p.Cells() < 2 || x.keep == 0 || y.keep == 0 {
		return TabulateCells(x, y) // no open cell apart from the other
	}
	x.low, y.low = extremes(x.low, x.keep, false), extremes(y.low, y.keep, false)
	x.high, y.high = extremes(x.high, x.keep, true), extremes(y.high, y.keep, true)
	last := p.Cells() - 1
	k := knownTails{low: math.Inf(1), high: math.Inf(-1)} // known: v < low, v > high
	for _, c := range []*PartitionCounts{x, y} {
		if int64(len(c.low)) < c.In[0] {
			k.low = min(k.low, c.low[len(c.low)-1])
		}
		if int64(len(c.high)) < c.In[last] {
			k.high = max(k.high, c.high[0])
		}
	}
	atoms := innerAtoms(x, y)
	table := func(r *Partition) *Table {
		return TabulateCells(refinedCounts(x, r, len(atoms) > 0), refinedCounts(y, r, len(atoms) > 0))
	}
	r, runs := refinedPartition(x, y, k, atoms, false)
	t := table(r)
	if runs {
		r, _ = refinedPartition(x, y, k, atoms, true)
		t.RunsApart = table(r)
	}
	return t
}

// knownTails are the limits of the values both sides kept in full in the
// open cells: below low, above high.
type knownTails struct{ low, high float64 }

// refinedPartition is RefineTails' partition of x's and y's kept values:
// with runsApart, each run of OneSidedRun values of one side alone among
// the known values of an open cell (not beyond a gap) is a cell of its
// own. It also reports whether there is such a run.
func refinedPartition(x, y *PartitionCounts, k knownTails, atoms []float64, runsApart bool) (r *Partition, runs bool) {
	p := x.Part
	lows := knownTail(x.low, y.low, func(v float64) bool { return v < k.low })
	highs := knownTail(x.high, y.high, func(v float64) bool { return v > k.high })
	r = &Partition{Score: p.Score, far: p.far}
	// Below: the far values (beyond a gap; all of them if the pilot found
	// one), then the rest, then what was not kept (a cell of its own only
	// if anything known was cut).
	far := 0
	if !r.far.hasBelow {
		far = farCount(lows, true)
	}
	repeats := tailAtoms(lows, !p.OutputValues())
	cutSorted(lows[:far], 1, repeats, r.add)
	if far > 0 { // far cells end just above the last far value (PartitionOf)
		end := math.Nextafter(lows[far-1], math.Inf(1))
		r.add(end, false)
		r.far.below, r.far.hasBelow = end, true
	}
	var lowRuns []float64
	if !p.far.hasBelow { // the pilot's far values are cut as it cut them
		near := func(v float64) bool { return v < k.low && (far == 0 || v >= lows[far]) }
		lowRuns = oneSidedRuns(knownTail(x.low, nil, near), knownTail(y.low, nil, near))
	}
	cutApart(lows[far:], repeats, lowRuns, runsApart, r.add)
	if len(r.bounds) > 0 && !math.IsInf(k.low, 1) {
		r.add(k.low, false) // the rest of the open cell: [k.low, b₀)
	}
	addInner(r, p, atoms)
	// Above: what was not kept, the rest, the far values.
	nearHigh := len(highs)
	if !r.far.hasAbove {
		nearHigh -= farCount(highs, false)
	}
	repeats = tailAtoms(highs, !p.OutputValues())
	var upper Partition // the cuts above b_last, then added after the rest
	var highRuns []float64
	if !p.far.hasAbove {
		near := func(v float64) bool { return v > k.high && (nearHigh == len(highs) || v < highs[nearHigh]) }
		highRuns = oneSidedRuns(knownTail(x.high, nil, near), knownTail(y.high, nil, near))
	}
	cutApart(highs[:nearHigh], repeats, highRuns, runsApart, upper.add)
	if nearHigh < len(highs) {
		upper.add(highs[nearHigh], false)
		r.far.above, r.far.hasAbove = highs[nearHigh], true
	}
	cutSorted(highs[nearHigh:], 1, repeats, upper.add)
	if len(upper.bounds) > 0 && !math.IsInf(k.high, -1) {
		r.add(math.Nextafter(k.high, math.Inf(1)), false) // [b_last, the known)
	}
	for i, b := range upper.bounds {
		r.add(b, upper.atom[i])
	}
	r.atom = append(r.atom, false)
	return r, len(lowRuns)+len(highRuns) > 0
}

// OneSidedRun is how many consecutive values of one side alone, among
// the known values of an open cell (in their pooled order), get a cell of
// their own in a table's RunsApart. Under one law for both sides the
// pooled values' sides are fair coins at equal sizes, and a run of 20 or
// more starts at a given value with probability 2⁻²⁰: even among the
// 2·TailKeep values kept at most at one end, the chance of one is under
// 1% (at the default sizes an open cell holds about 500). A run this
// long marks a ratio of the two sides' densities far from 1 there: of a
// correct mechanism whose loss is large (Laplace noise at ε = 2 or 3
// shows some in every screening, without moving its audit), or of
// outputs one dataset makes and the other does not (10 plus N(0, 0.01²)
// once in 1,000 draws beside N(0, 1): 500 of them in 500,000 draws,
// short of a far gap), whose loss, unbounded, a cell shared with the
// noise's tail hides.
const OneSidedRun = 20

// oneSidedRuns returns the boundaries that set apart each maximal run of
// at least OneSidedRun values of one side alone among the sorted values
// xs of X and ys of Y (a value both sides hold ends a run): its first
// value and the float after its last, in increasing order, but for a run
// at either end of the values, which its cell keeps to that end (no cell
// of nothing seen between the run and the end of the open cell).
func oneSidedRuns(xs, ys []float64) []float64 {
	var cuts []float64
	side, count, before := 0, 0, 0
	var first, last float64
	flush := func(more bool) {
		if count >= OneSidedRun {
			if before > 0 {
				cuts = append(cuts, first)
			}
			if more {
				cuts = append(cuts, math.Nextafter(last, math.Inf(1)))
			}
		}
		before += count
		side, count = 0, 0
	}
	for i, j := 0, 0; i < len(xs) || j < len(ys); {
		v := math.Inf(1)
		if i < len(xs) {
			v = xs[i]
		}
		if j < len(ys) {
			v = min(v, ys[j])
		}
		nx, ny := 0, 0
		for ; i < len(xs) && xs[i] == v; i++ {
			nx++
		}
		for ; j < len(ys) && ys[j] == v; j++ {
			ny++
		}
		s := 1
		switch {
		case nx > 0 && ny > 0:
			s = 0
		case ny > 0:
			s = 2
		}
		if s != side {
			flush(true)
		}
		if s == 0 {
			before += nx + ny
			continue
		}
		if count == 0 {
			first, side = v, s
		}
		count += nx + ny
		last = v
	}
	flush(false)
	return cuts
}

// cutApart calls add with the boundaries that cut the sorted kept values
// of an open cell at their atoms (cutSorted, atoms repeated repeats
// times) and, with apart, at runs (boundaries from oneSidedRuns), in
// increasing order; where the two cut at one value, the atom's boundary
// is kept.
func cutApart(sorted []float64, repeats int, runs []float64, apart bool, add func(b float64, atomBelow bool)) {
	if !apart {
		runs = nil
	}
	var atoms Partition
	cutSorted(sorted, 1, repeats, atoms.add)
	prev := math.Inf(-1) // the last boundary added
	run := func(b float64) {
		// A run's boundary that would close a cell of no kept value
		// (the end of one run at the start of the next, or of an atom's
		// cell) is left out.
		if i, _ := slices.BinarySearch(sorted, prev); i < len(sorted) && sorted[i] < b {
			add(b, false)
			prev = b
		}
	}
	k := 0
	for i, b := range atoms.bounds {
		for ; k < len(runs) && runs[k] < b; k++ {
			run(runs[k])
		}
		add(b, atoms.atom[i])
		prev = b
	}
	for ; k < len(runs); k++ {
		run(runs[k])
	}
}

// innerAtoms returns, sorted, the values of x's and y's inner cells (not
// open, not atoms) that the two repeat at least TailAtomRepeats times
// together, if there are between 1 and MaxLightAtoms of them; else, or
// when either kept more than MaxInner values, none.
// The pilot gives a value its own cell only if it repeats there
// (LightAtomRepeats times of a sixteenth of the screening's draws), so an
// output one dataset alone produces once in 3,000 draws beside the noise
// is left in a cell of the noise by one pilot in five, and its count is
// hidden there; the screening, whose draws repeat it dozens of times,
// cuts it out. A density repeats no value; many repeated values are a
// rounded or lattice output, which its cells already count.
func innerAtoms(x, y *PartitionCounts) []float64 {
	if x.innerOver || y.innerOver || len(x.inner)+len(y.inner) == 0 {
		return nil
	}
	pooled := make([]float64, 0, len(x.inner)+len(y.inner))
	pooled = append(append(pooled, x.inner...), y.inner...)
	numeric.SortFloats(pooled)
	var atoms []float64
	valueRuns(pooled, func(v float64, n int) bool {
		if n >= TailAtomRepeats {
			atoms = append(atoms, v)
		}
		return len(atoms) <= MaxLightAtoms
	})
	if len(atoms) > MaxLightAtoms {
		return nil
	}
	return atoms
}

// addInner adds to r p's inner boundaries, with each of the sorted atoms
// (values inside p's inner cells) cut into a cell of its own.
func addInner(r, p *Partition, atoms []float64) {
	k := 0
	for i, b := range p.bounds {
		for ; k < len(atoms) && atoms[k] < b; k++ {
			r.add(atoms[k], false)
			r.add(math.Nextafter(atoms[k], math.Inf(1)), true)
		}
		r.add(b, p.atom[i])
	}
}

// tailAtoms is the repeat count at which cutSorted gives the sorted kept
// values of an open cell atoms of their own: TailAtomRepeats, unless the
// values are a learned score's (learned: its steps repeat; a vector's
// coordinate is not one, see Partition.OutputValues) or more than
// MaxLightAtoms of them repeat that often (a rounded or lattice output,
// as for the pilot's light atoms), where none are cut.
func tailAtoms(sorted []float64, learned bool) int {
	if learned {
		return math.MaxInt
	}
	if repeatedValues(sorted, TailAtomRepeats, math.Inf(1)) > MaxLightAtoms {
		return math.MaxInt
	}
	return TailAtomRepeats
}

// farCount returns how many of the sorted values of an open cell lie
// beyond its first gap, outermost (the smallest if low, else the largest):
// the first gap between distinct values, counted from the inner end past
// at least FarInner distinct values, wider than FarGap times the span of
// the values inside it. Outputs far beyond the noise that one dataset
// produces rarely, spread rather than on one value (10⁶ plus noise),
// repeat no value, and without the gap would share the noise's tail cell.
// Distinct values, so that a discrete output's tail (a lattice, or the
// few values of a step function) has no gaps but its spacing. The rule
// depends on the order and the ratios of differences of the values only,
// so shifts and rescalings of the outputs cut alike.
func farCount(sorted []float64, low bool) int {
	n := len(sorted)
	at := func(i int) float64 { // the i-th value from the inner end
		if low {
			return sorted[n-1-i]
		}
		return sorted[i]
	}
	distinct := 1
	for i := 1; i < n; i++ {
		inner, outer := at(i-1), at(i)
		if outer == inner {
			continue
		}
		if distinct >= FarInner && math.Abs(outer-inner) > FarGap*math.Abs(inner-at(0)) {
			return n - i
		}
		distinct++
	}
	return 0
}

// knownTail returns the kept values of both sides that pass known, pooled
// and sorted.
func knownTail(a, b []float64, known func(float64) bool) []float64 {
	var out []float64
	for _, v := range slices.Concat(a, b) {
		if known(v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// refinedCounts returns c's counts on r, a refinement of c's partition
// whose new boundaries lie in its open cells and, when innerCut, at inner
// atoms: each inner cell's count moves to the cell of r that starts where
// it starts, unless an atom cut it (its kept values are then counted in
// their cells of r), each kept value of an open cell is counted in its
// cell of r, and what an open cell counted beyond its kept values goes to
// r's cell of the open cell's inner boundary.
func refinedCounts(c *PartitionCounts, r *Partition, innerCut bool) *PartitionCounts {
	p := c.Part
	last := p.Cells() - 1
	out := NewPartitionCounts(r)
	out.N = c.N
	split := make([]bool, p.Cells()) // inner cells cut at an inner atom
	for i := 1; i < last; i++ {
		lo, hi := p.Bounds(i)
		split[i] = innerCut && r.Cell(math.Nextafter(hi, math.Inf(-1))) != r.Cell(lo)
		if !split[i] {
			out.In[r.Cell(lo)] += c.In[i]
		}
	}
	if innerCut {
		for _, v := range c.inner {
			if split[p.Cell(v)] {
				out.In[r.Cell(v)]++
			}
		}
	}
	for _, v := range c.low {
		out.In[r.Cell(v)]++
	}
	for _, v := range c.high {
		out.In[r.Cell(v)]++
	}
	out.In[r.Cell(math.Nextafter(p.bounds[0], math.Inf(-1)))] += c.In[0] - int64(len(c.low))
	out.In[r.Cell(p.bounds[last-1])] += c.In[last] - int64(len(c.high))
	return out
}
