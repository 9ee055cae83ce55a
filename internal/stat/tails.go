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
// All counts stay exact.
func RefineTails(x, y *PartitionCounts) *Table {
	p := x.Part
	if p.Cells() < 2 || x.keep == 0 || y.keep == 0 {
		return TabulateCells(x, y) // no open cell apart from the other
	}
	x.low, y.low = extremes(x.low, x.keep, false), extremes(y.low, y.keep, false)
	x.high, y.high = extremes(x.high, x.keep, true), extremes(y.high, y.keep, true)
	last := p.Cells() - 1
	lowLimit := math.Inf(1) // the low values known on both sides: v < lowLimit
	highLimit := math.Inf(-1)
	for _, c := range []*PartitionCounts{x, y} {
		if int64(len(c.low)) < c.In[0] {
			lowLimit = min(lowLimit, c.low[len(c.low)-1])
		}
		if int64(len(c.high)) < c.In[last] {
			highLimit = max(highLimit, c.high[0])
		}
	}
	lows := knownTail(x.low, y.low, func(v float64) bool { return v < lowLimit })
	highs := knownTail(x.high, y.high, func(v float64) bool { return v > highLimit })
	r := &Partition{Score: p.Score, far: p.far}
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
	cutSorted(lows[far:], 1, repeats, r.add)
	if len(r.bounds) > 0 && !math.IsInf(lowLimit, 1) {
		r.add(lowLimit, false) // the rest of the open cell: [lowLimit, b₀)
	}
	atoms := innerAtoms(x, y)
	addInner(r, p, atoms)
	// Above: what was not kept, the rest, the far values.
	near := len(highs)
	if !r.far.hasAbove {
		near -= farCount(highs, false)
	}
	repeats = tailAtoms(highs, !p.OutputValues())
	var upper Partition // the cuts above b_last, then added after the rest
	cutSorted(highs[:near], 1, repeats, upper.add)
	if near < len(highs) {
		upper.add(highs[near], false)
		r.far.above, r.far.hasAbove = highs[near], true
	}
	cutSorted(highs[near:], 1, repeats, upper.add)
	if len(upper.bounds) > 0 && !math.IsInf(highLimit, -1) {
		r.add(math.Nextafter(highLimit, math.Inf(1)), false) // [b_last, the known)
	}
	for i, b := range upper.bounds {
		r.add(b, upper.atom[i])
	}
	r.atom = append(r.atom, false)
	return TabulateCells(refinedCounts(x, r, len(atoms) > 0), refinedCounts(y, r, len(atoms) > 0))
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
