package dptest

import (
	"errors"
	"math/rand/v2"

	"pgregory.net/rapid"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/sampler"
)

// Mechanism is a randomized mechanism on datasets of type D, as a function
// of a seeded generator and a dataset. Build one with [Continuous] for real
// outputs, [Discrete] for outputs of any comparable type or [Vector] for
// vectors of reals.
//
// The function must draw all its randomness from r (math/rand/v2): dptest
// seeds r from the audit's seed and the block of samples being drawn, so a
// seed replays every output. It is called from several goroutines at once,
// each with its own r, so it must not mutate shared state.
//
// The With methods attach where to look for a violation. They are checked
// by the compiler against D, where the [Pairs] and [Neighbors] options,
// which take any dataset type, are checked when the audit starts.
type Mechanism[D any] struct {
	source   sampler.Source[D]
	err      error // a construction error, reported by every audit
	pairs    []fixtures.Pair[D]
	gen      *rapid.Generator[fixtures.Pair[D]]
	simplify func(fixtures.Pair[D]) []fixtures.Pair[D]
}

// Continuous wraps a mechanism with real outputs. The outputs may mix a
// density with atoms (a clamped or rounded release): values that repeat are
// counted exactly in cells of their own, the rest in cells of a partition
// fixed from a pilot sample. Outputs on a grid (integers, rounded values:
// a pilot repeating many values) are also counted value by value. So a
// grid whose phase depends on the data (integer noise added to a
// real-valued sum) is seen, though its cells would hold both datasets'
// values. NaN and ±Inf are errors that fail the assertion. A nil function
// is an error of every audit of the mechanism.
func Continuous[D any](f func(r *rand.Rand, x D) float64) Mechanism[D] {
	if f == nil {
		return Mechanism[D]{err: errors.New("dptest: Continuous needs a non-nil function")}
	}
	return Mechanism[D]{source: sampler.Real(f)}
}

// Discrete wraps a mechanism with outputs of any comparable type (an index,
// a bit pattern, a string, a struct of such), counted exactly. A value that
// is not equal to itself, such as a NaN, is an error that fails the
// assertion. A nil function is an error of every audit of the mechanism.
//
// Outputs of a number type (integers, floats) are also ordered: numbers
// seen too rarely one by one are screened in ranges of adjacent values as
// well, and an RDP audit weighs their tails as it does real outputs' (a
// discrete Gaussian at a high order λ, whose evidence lies beyond the
// largest values drawn, is inconclusive, not passed), except at an end
// that is the support's own (randomized response's last category, a
// clamp's bound): one whose last value is drawn so often that a value
// beyond it, as much rarer again, would have been seen many times.
func Discrete[D any, O comparable](f func(r *rand.Rand, x D) O) Mechanism[D] {
	if f == nil {
		return Mechanism[D]{err: errors.New("dptest: Discrete needs a non-nil function")}
	}
	return Mechanism[D]{source: sampler.Discrete(f)}
}

// Vector wraps a mechanism with vector outputs: a noisy histogram, several
// noisy statistics released at once, a gradient step. Every output must
// have the length of the first and finite coordinates; anything else is an
// error that names the draw. A nil function is an error of every audit of
// the mechanism. The mechanism may reuse the slice it returns.
//
// Each screening of a pair first learns a score, a number per output, from
// draws of its own on both datasets: the most telling coordinate alone, the
// linear discriminant wᵀv with w = Σ̂⁻¹(μ̂_X − μ̂_Y) (the log-likelihood ratio
// of Gaussian noise, correlated or not), the sum of per-coordinate log
// density ratios on cells of each coordinate (that of noise independent
// across coordinates, as in a Laplace histogram), the sum of
// per-coordinate Gaussian log density ratios from each side's mean and
// variance (smooth beyond the last cells, where the tests of small level
// of a Poisson-subsampled step lie), or the quadratic discriminant of the
// most telling coordinates (that of Gaussian noise whose spread or
// correlations depend on the data), whichever separates held-out draws
// most. The audit then treats the scores as real outputs. Beside the
// chosen score it screens a few others: the next candidates, and at
// least one coordinate whose extreme values come most unevenly from the
// two datasets, where a rare output of one dataset shows. Each claim keeps
// the score that bounds highest. The score is fixed before the
// outputs it maps are drawn, so any divergence of the scores is a lower
// bound on the outputs' (data processing); a score that misses part of
// the leak makes the bound looser, never invalid. [Details.Score] names the
// score of the witness.
func Vector[D any](f func(r *rand.Rand, x D) []float64) Mechanism[D] {
	if f == nil {
		return Mechanism[D]{err: errors.New("dptest: Vector needs a non-nil function")}
	}
	return Mechanism[D]{source: sampler.Vector(f)}
}

// WithPairs returns m with explicit candidate pairs of neighbouring
// datasets, screened first, in both directions (the compile-time checked
// form of the [Pairs] option; the two add up). At least one pair must be
// given: an empty list is an error of every audit of m.
func (m Mechanism[D]) WithPairs(pairs ...fixtures.Pair[D]) Mechanism[D] {
	if len(pairs) == 0 && m.err == nil {
		m.err = errors.New("dptest: WithPairs needs at least one pair")
	}
	m.pairs = append(append([]fixtures.Pair[D](nil), m.pairs...), pairs...)
	return m
}

// WithNeighbors returns m with a rapid generator of neighbouring pairs to
// draw candidates from (the compile-time checked form of the [Neighbors]
// option, which takes precedence over it).
func (m Mechanism[D]) WithNeighbors(g *rapid.Generator[fixtures.Pair[D]]) Mechanism[D] {
	if g == nil {
		m.err = errors.New("dptest: WithNeighbors needs a non-nil generator")
	}
	m.gen = g
	return m
}

// WithSimplifier returns m with a function that proposes simpler versions
// of a pair of datasets, simplest first (see [fixtures.SimplifyFloats]):
// when the most divergent pair screened already shows a violation, the
// audit moves its witness to the first proposal that is as divergent, and
// so on. Without one, []float64 and []int datasets use fixtures.Simplifier.
func (m Mechanism[D]) WithSimplifier(f func(fixtures.Pair[D]) []fixtures.Pair[D]) Mechanism[D] {
	m.simplify = f
	return m
}

// check returns the error of a zero or badly built Mechanism.
func (m Mechanism[D]) check() error {
	if m.err != nil {
		return m.err
	}
	if m.source == nil {
		return errors.New("dptest: zero Mechanism; build one with Continuous, Discrete or Vector")
	}
	return nil
}
