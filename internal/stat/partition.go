package stat

import (
	"math"
	"sort"

	"github.com/dptest/dptest/internal/numeric"
)

// Partition cuts the real line into ordered cells chosen from a pilot
// sample, each holding about the same share of the pooled pilot: cell 0 is
// (−∞, b₀), cell i is [bᵢ₋₁, bᵢ), the last is [b_last, +∞). A value the pilot
// repeats at least one cell's worth of times is an atom and gets a cell of
// its own, [v, nextafter(v)).
//
// The cells depend only on the order of the pilot values, so a partition
// is the same for outputs shifted or rescaled by any amount: offsets of
// 10¹², scales of 10⁻³⁰⁰, modes 10⁶ apart and integers with a support of
// millions are cut alike. Counting outputs per cell is a deterministic
// post-processing fixed before the outputs are drawn, so every divergence
// bound on the counts is a bound on the outputs ([AKD22] and [KAD24] both
// rest on this data-processing inequality; Wang, Kulkarni and Verdú 2005 on
// such data-dependent partitions).
type Partition struct {
	bounds []float64 // increasing cell boundaries
	atom   []bool    // atom[i]: cell i is a single value
	// Score, for vector outputs, is the score whose values the partition
	// cuts: a vector v is in cell Cell(Score.Of(v)). Nil for real outputs.
	Score *Score
	// far holds the limits beyond which outputs are far: see Far.
	far farLimits
}

// farLimits are the values past which outputs lie beyond a gap in the
// pilot's or a screening's tails (farCount): below below, from above on.
type farLimits struct {
	below, above       float64
	hasBelow, hasAbove bool
}

// PilotPerCell is how many pooled pilot values a cell of PartitionOf holds
// on average.
const PilotPerCell = 16

// LightAtomRepeats and MaxLightAtoms: a pilot value repeated at least
// LightAtomRepeats times but less than a cell's worth is an atom with a
// cell of its own too, as long as the pilot holds at most MaxLightAtoms
// such values. A density repeats no value, so a few repeats mark an atom;
// without its own cell, an atom one dataset alone produces once in 1,000
// draws (rarer than a cell's 16 of the pilot's outputs) shares its cell
// with the noise, whose count hides it. Many repeated values are a
// discrete or rounded output, which its cells already count.
const (
	LightAtomRepeats = 3
	MaxLightAtoms    = 32
)

// MaxFarShare is the largest share of the pilot that values beyond a gap
// may make up to be far (Far) and get cells apart: a mode 10⁶ away that
// holds half the outputs is cut by count like the rest.
const MaxFarShare = 0.01

// PartitionOf sorts the pooled pilot values in place and cuts the line into
// cells of PilotPerCell of them each, its atoms (light ones included, see
// LightAtomRepeats) in cells of their own.
//
// Values beyond a gap in either half of the pilot (farCount, from the
// median outwards), if they are at most MaxFarShare of it, are far (Far):
// they get cells apart from the rest, cut at their atoms (values repeated
// LightAtomRepeats times) and by count as the rest is, into cells of
// PilotPerCell values or more: a few outputs one dataset alone produces
// far away (fewer than twice PilotPerCell) are one cell, a rare mode's
// values keep their own order (its shift seen inside it, its tails
// zoned). (RefineTails, which finds far values among a screening's kept
// extremes when the pilot found none, keeps them in one cell.)
func PartitionOf(pooled []float64) *Partition { return partitionOf(pooled, true) }

// ScorePartitionOf is PartitionOf for the values of a learned score of
// vector outputs, with atoms at a cell's worth only: a score is often a
// step function (a sum of per-coordinate ratios estimated on cells), whose
// values repeat whatever the outputs do, and a cell for each of its rarer
// values only adds noise to the screening that chooses among the scores.
func ScorePartitionOf(pooled []float64) *Partition { return partitionOf(pooled, false) }

// partitionOf is PartitionOf, with light atoms or without.
func partitionOf(pooled []float64, lightAtomsToo bool) *Partition {
	numeric.SortFloats(pooled)
	n := len(pooled)
	if n == 0 {
		return &Partition{atom: []bool{false}}
	}
	light, farAtoms := 0, math.MaxInt // atoms beyond the gaps: none for a score
	if lightAtomsToo {
		light, farAtoms = lightAtoms(pooled, n/PilotPerCell), LightAtomRepeats
	}
	below := farCount(pooled[:n/2+1], true)
	above := farCount(pooled[n/2:], false)
	if float64(below) > MaxFarShare*float64(n) {
		below = 0 // a mode of its own, not a few far outputs: cut as any
	}
	if float64(above) > MaxFarShare*float64(n) {
		above = 0
	}
	p := &Partition{}
	if below > 0 {
		// The far values' cells end just above the last of them, as the
		// upper far values' begin at the first: the gap belongs to the
		// cell of the values inside it, whose tail it holds.
		cutSorted(pooled[:below], below/PilotPerCell, farAtoms, p.add)
		end := math.Nextafter(pooled[below-1], math.Inf(1))
		p.add(end, false)
		p.far.below, p.far.hasBelow = end, true
	}
	middle := pooled[below : n-above]
	cutSorted(middle, len(middle)/PilotPerCell, light, p.add)
	if above > 0 {
		p.add(pooled[n-above], false)
		p.far.above, p.far.hasAbove = pooled[n-above], true
		cutSorted(pooled[n-above:], above/PilotPerCell, farAtoms, p.add)
	}
	p.atom = append(p.atom, false) // the last cell
	return p
}

// RepeatsMany reports whether the sorted pooled pilot of real outputs
// repeats more than MaxLightAtoms values (at least twice each): outputs
// on a grid (integers, rounded values, a lattice whose phase may depend on
// the data), whose cells, holding many grid values each, would lump the
// values of one dataset with the other's. A density repeats no value.
func RepeatsMany(sorted []float64) bool {
	return repeatedValues(sorted, 2, math.Inf(1)) > MaxLightAtoms
}

// lightAtoms returns LightAtomRepeats if the sorted values hold between 1
// and MaxLightAtoms values repeated that often but fewer times than one of
// about cells cells holds, else 0 (atoms at a cell's worth only).
func lightAtoms(sorted []float64, cells int) int {
	per := float64(len(sorted)) / float64(max(1, min(cells, len(sorted))))
	light := repeatedValues(sorted, LightAtomRepeats, per)
	if light == 0 || light > MaxLightAtoms {
		return 0
	}
	return LightAtomRepeats
}

// repeatedValues returns how many distinct values the sorted values
// repeat at least least times and fewer than fewerThan times.
func repeatedValues(sorted []float64, least int, fewerThan float64) int {
	n := 0
	valueRuns(sorted, func(_ float64, k int) bool {
		if k >= least && float64(k) < fewerThan {
			n++
		}
		return true
	})
	return n
}

// valueRuns calls f with each distinct value of sorted and how many times
// it occurs, in order, until f returns false.
func valueRuns(sorted []float64, f func(v float64, n int) bool) {
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		if !f(sorted[i], j-i) {
			return
		}
		i = j
	}
}

// partitionOfCount sorts values in place and cuts the line into about
// cells cells of equal mass of them (see [NewPartition]).
func partitionOfCount(values []float64, cells int) *Partition {
	numeric.SortFloats(values)
	return NewPartition(values, cells)
}

// NewPartition cuts the real line into about cells cells of equal mass of
// the sorted pooled pilot values (finite, at least one); a value repeated
// at least a cell's worth of times is an atom.
func NewPartition(sorted []float64, cells int) *Partition {
	p := &Partition{}
	cutSorted(sorted, cells, 0, p.add)
	p.atom = append(p.atom, false) // the last cell
	return p
}

// cutSorted calls add(b, atomBelow) with the increasing boundaries that cut
// the line into about cells cells of equal mass of the sorted values,
// atomBelow when the cell that b closes is a single value: one repeated
// at least atomRepeats times, or a cell's worth when atomRepeats is 0.
func cutSorted(sorted []float64, cells, atomRepeats int, add func(b float64, atomBelow bool)) {
	n := len(sorted)
	cells = max(1, min(cells, n))
	per := float64(n) / float64(cells)
	atomAt := per
	if atomRepeats > 0 {
		atomAt = float64(atomRepeats)
	}
	next := per
	for i := 0; i < n; {
		j := i + 1
		for j < n && sorted[j] == sorted[i] {
			j++
		}
		v := sorted[i]
		if float64(j-i) >= atomAt && !math.IsInf(v, 0) {
			// An atom: close the cell below it at v, and its own at the
			// next float.
			add(v, false)
			add(math.Nextafter(v, math.Inf(1)), true)
			next = float64(j) + per
		} else if float64(j) >= next && j < n {
			add(sorted[j], false)
			next = float64(j) + per
		}
		i = j
	}
}

// add appends the boundary b, closing a cell that is an atom when
// atomBelow; a boundary not above the last one would close an empty cell
// and is dropped.
func (p *Partition) add(b float64, atomBelow bool) {
	if len(p.bounds) > 0 && b <= p.bounds[len(p.bounds)-1] {
		return
	}
	p.bounds = append(p.bounds, b)
	p.atom = append(p.atom, atomBelow)
}

// Cells returns the number of cells.
func (p *Partition) Cells() int { return len(p.bounds) + 1 }

// Cell returns the cell of a value: the number of boundaries at or below it.
func (p *Partition) Cell(v float64) int {
	return sort.Search(len(p.bounds), func(i int) bool { return p.bounds[i] > v })
}

// Bounds returns cell c as [lo, hi); the end cells reach ±Inf.
func (p *Partition) Bounds(c int) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	if c > 0 {
		lo = p.bounds[c-1]
	}
	if c < len(p.bounds) {
		hi = p.bounds[c]
	}
	return lo, hi
}

// Open reports whether cell c is one of the two that reach ±Inf: what it
// counts lies partly beyond every value the pilot saw.
func (p *Partition) Open(c int) bool { return c == 0 || c == len(p.bounds) }

// Far reports whether cell c lies beyond a gap that [PartitionOf] found
// in the pilot or [RefineTails] in a screening's open cells: outputs
// further from all the others than those others are spread (10⁶ beside
// noise of scale 1).
func (p *Partition) Far(c int) bool {
	lo, hi := p.Bounds(c)
	return p.far.hasBelow && hi <= p.far.below || p.far.hasAbove && lo >= p.far.above
}

// Atom reports whether cell c holds a single value.
func (p *Partition) Atom(c int) bool { return p.atom[c] }

// OutputValues reports whether p's cells count values of the output
// itself: a real output's, or one coordinate's of a vector
// (ScoreCoordinate), whose repeated values are atoms of the output. A
// learned score's values repeat at its steps (a naive-Bayes sum of
// per-cell log-ratios), so no repeat of them is an atom.
func (p *Partition) OutputValues() bool { return p.Score == nil || p.Score.Kind == ScoreCoordinate }

// Point returns a value that represents cell c in reports: the atom, the
// middle of a bounded cell, the inner end of an open one.
func (p *Partition) Point(c int) float64 {
	lo, hi := p.Bounds(c)
	switch {
	case p.atom[c] || math.IsInf(hi, 1):
		return lo
	case math.IsInf(lo, -1):
		return hi
	}
	return lo + (hi-lo)/2
}

// EqualWidth cuts [lo, hi] into bins cells of equal width, the first and
// the last open (holding what lies below lo and above hi): the histogram
// of [KMRS24], Section 4.2.1, over a range with the outputs outside it
// clipped to its ends. lo < hi must be finite and bins at least 1;
// otherwise it is one cell.
func EqualWidth(lo, hi float64, bins int) *Partition {
	p := &Partition{}
	if lo < hi && !math.IsInf(lo, 0) && !math.IsInf(hi, 0) {
		for k := 1; k < bins; k++ {
			p.add(lo+(hi-lo)*float64(k)/float64(bins), false)
		}
	}
	p.atom = append(p.atom, false) // the last cell
	return p
}
