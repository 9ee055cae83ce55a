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
}

// PilotPerCell is how many pooled pilot values a cell of PartitionOf holds
// on average.
const PilotPerCell = 16

// PartitionOf sorts the pooled pilot values in place and cuts the line into
// cells of PilotPerCell of them each.
func PartitionOf(pooled []float64) *Partition {
	return partitionOfCount(pooled, len(pooled)/PilotPerCell)
}

// partitionOfCount sorts values in place and cuts the line into about
// cells cells of equal mass of them (see [NewPartition]).
func partitionOfCount(values []float64, cells int) *Partition {
	numeric.SortFloats(values)
	return NewPartition(values, cells)
}

// NewPartition cuts the real line into about cells cells of equal mass of
// the sorted pooled pilot values (finite, at least one).
func NewPartition(sorted []float64, cells int) *Partition {
	n := len(sorted)
	cells = max(1, min(cells, n))
	per := float64(n) / float64(cells)
	p := &Partition{}
	add := func(b float64, atomBelow bool) {
		if len(p.bounds) > 0 && b <= p.bounds[len(p.bounds)-1] {
			return
		}
		p.bounds = append(p.bounds, b)
		p.atom = append(p.atom, atomBelow)
	}
	next := per
	for i := 0; i < n; {
		j := i + 1
		for j < n && sorted[j] == sorted[i] {
			j++
		}
		v := sorted[i]
		if float64(j-i) >= per && !math.IsInf(v, 0) {
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
	p.atom = append(p.atom, false) // the last cell
	return p
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

// Atom reports whether cell c holds a single value.
func (p *Partition) Atom(c int) bool { return p.atom[c] }

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
