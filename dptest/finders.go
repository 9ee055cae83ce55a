package dptest

import (
	"fmt"
	"math"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/finder"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/search"
)

// Box is a family of neighbouring pairs indexed by the points of a box:
// Pair(z) for z in [Lo, Hi]^Dim. The dataset finders ([GridFinder],
// [BanditFinder], [RandomFinder]) search it.
type Box[D any] struct {
	Dim    int
	Lo, Hi float64
	Pair   func(z []float64) fixtures.Pair[D]
}

// RemoveLast is the box of [KMRS24]'s dataset finders: datasets of k
// records in [lo, hi], X the first k − 1 of them and Y all k (add/remove
// neighbours, the last record added).
func RemoveLast(k int, lo, hi float64) Box[[]float64] {
	return Box[[]float64]{Dim: k, Lo: lo, Hi: hi, Pair: func(z []float64) fixtures.Pair[[]float64] {
		y := append([]float64(nil), z...)
		return fixtures.Pair[[]float64]{X: y[: len(y)-1 : len(y)-1], Y: y}
	}}
}

// Finder proposes candidate pairs of a [Box], one trial at a time, each
// after the screening of the one before: the dataset finders of [KMRS24],
// Section 5. Build one with [GridFinder], [BanditFinder] or
// [RandomFinder] and give it with [FindPairs].
type Finder[D any] struct {
	kind   string
	box    Box[D]
	trials int
	points int // the grid's size is fixed by the trials it was made for
}

// GridFinder screens the points of a regular grid over the box, g points
// per axis (ends included, g ≥ 2 the least with g^Dim ≥ trials), in
// lexicographic order (the last axis fastest), at most trials of them.
func GridFinder[D any](b Box[D], trials int) Finder[D] { return Finder[D]{"grid", b, trials, trials} }

// BanditFinder screens up to trials points chosen by a Gaussian-process
// bandit (GP-UCB, an RBF kernel over the box scaled to [0, 1]^Dim, gonum
// for the linear algebra): after two uniform points, each next one
// maximises the posterior mean plus √β_t standard deviations of the
// screening ranks seen so far, as [KMRS24]'s Vizier bandit does.
func BanditFinder[D any](b Box[D], trials int) Finder[D] {
	return Finder[D]{"bandit", b, trials, trials}
}

// RandomFinder screens up to trials uniform points of the box:
// [KMRS24]'s random search. (dptest's default random candidates come from
// a rapid generator instead; see [Neighbors].)
func RandomFinder[D any](b Box[D], trials int) Finder[D] {
	return Finder[D]{"random", b, trials, trials}
}

// WithTrials returns f with a budget of n trials, proposing what f would
// in its first n (a grid keeps the spacing f was made with).
func (f Finder[D]) WithTrials(n int) Finder[D] {
	f.trials = n
	return f
}

// FindPairs adds a finder's proposals to the audit's candidates: each run
// screens them after its other candidates, one at a time, feeding each
// screening's rank (the larger of its two directions') back to the finder,
// until it has made its trials or a trial shows the claim exceeded
// clearly (by the margin the wide stage's skip asks: the statistic its
// screening chose, counted again on fresh draws of the screening's size,
// bounds it there at the screening's trigger level; the screening's own
// estimate is biased upwards); Report.Trials counts them, and
// Report.FoundAt is the first trial that showed the claim exceeded so.
// Its proposals are screened like any candidate, so the false-failure
// bound is unchanged. With FindPairs and no Pairs or Neighbors, the
// finder's pairs are the only candidates; without a Simplifier, no
// witness is simplified (the default simplifier keeps the relation of
// generated pairs, not the Box's). A Box with Dim < 1, a nil Pair,
// Lo ≥ Hi or a bound not finite, trials < 1, a zero Finder or a second
// FindPairs is an error.
func FindPairs[D any](f Finder[D]) Option {
	return option{"FindPairs", searchKinds, func(o *options) {
		b := f.box
		switch {
		case f.kind == "":
			o.fail("FindPairs needs a Finder from GridFinder, BanditFinder or RandomFinder")
		case b.Dim < 1 || b.Pair == nil:
			o.fail("FindPairs needs a Box with Dim ≥ 1 and a Pair function, got Dim = %d", b.Dim)
		case !(b.Lo < b.Hi) || math.IsInf(b.Lo, 0) || math.IsInf(b.Hi, 0):
			o.fail("FindPairs needs a Box with finite Lo < Hi, got [%v, %v]", b.Lo, b.Hi)
		case f.trials < 1:
			o.fail("FindPairs needs at least one trial, got %d", f.trials)
		case o.finder != nil:
			o.fail("FindPairs given twice; an audit takes one finder")
		default:
			o.finder = f
		}
	}}
}

// boxFinder is a Finder's search.Finder for one run: its proposer over
// [0, 1]^Dim, seeded by the run, mapped into the box.
type boxFinder[D any] struct {
	box Box[D]
	p   finder.Proposer
}

func (f *boxFinder[D]) Next(ranks []float64) (p fixtures.Pair[D], ok bool) {
	z, ok := f.p.Next(ranks)
	if !ok {
		return p, false
	}
	x := make([]float64, len(z))
	for i, u := range z {
		x[i] = f.box.Lo + (f.box.Hi-f.box.Lo)*u
	}
	return f.box.Pair(x), true
}

// forRun returns the finder of a run of seed, with a fresh proposer.
func (f Finder[D]) forRun(seed uint64) search.Finder[D] {
	s := plan.SubSeed(seed, "finder", 0)
	var p finder.Proposer
	switch f.kind {
	case "grid":
		p = finder.Grid(f.box.Dim, f.points)
	case "bandit":
		p = finder.Bandit(f.box.Dim, s)
	default:
		p = finder.Random(f.box.Dim, s)
	}
	return &boxFinder[D]{f.box, p}
}

func (f Finder[D]) String() string { return fmt.Sprintf("%s finder (%d trials)", f.kind, f.trials) }
