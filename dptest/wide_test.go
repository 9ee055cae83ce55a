package dptest_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
)

// clippedSum releases the sum of records in [−2, 2] clipped to [−1, 1]
// after summing, plus N(0, 1) noise, as if its sensitivity were 1: a
// record of 2 added to a dataset whose sum is −1 moves the release by 2
// (D₂ = 4 against the claimed 1), while a pair without an opposing record
// stays within the claim.
func clippedSum(r *rand.Rand, x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return max(-1, min(1, s)) + r.NormFloat64()
}

func clippedSumPairs() *rapid.Generator[fixtures.Pair[[]float64]] {
	return fixtures.AddRemove(rapid.SampledFrom([]float64{-2, -1, -0.5, 0, 0.5, 1, 2}), 0, 3)
}

// The wide screening finds the pair a violation needs when the candidates
// do not hold one: at this seed no candidate's screening shows a violation
// (the log says the wide stage ran, which it does only then, and a pair
// at D₂ = 4 against a claim of 1 would show one), and the claim fails on
// a promoted wide pair, which the log shows confirmed.
func TestWideScreeningFindsTheRarePair(t *testing.T) {
	m := dptest.Continuous(clippedSum).WithNeighbors(clippedSumPairs())
	r := run("TestWide", func(rt *recorder) { dptest.RequireRDP(rt, m, 2, 1, opts(dptest.Seed(19), dptest.Verbose())...) })
	require.True(t, r.failed, "a violation: %s", strings.Join(r.logs, "\n"))
	// The progress log (-dptest.v) is the only record of which pair was
	// confirmed: a wide one.
	logs := strings.Join(r.logs, "\n")
	require.Regexp(t, `wide pair wide \d+ promoted`, logs)
	require.Regexp(t, `confirmed wide \d+ `, logs)

	rep, err := dptest.AuditRDP(m, 2, 1, opts(dptest.Seed(19))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	require.Equal(t, 25, rep.Details.WideScreened, "the wide screening ran, on 25 more pairs")
	require.GreaterOrEqual(t, rep.Details.WidePromoted, 1)
	w, _ := dptest.WitnessOf[[]float64](rep)
	require.Greater(t, max(shift(w.X, w.Y), shift(w.Y, w.X)), 1.0, "the witness moves the release by more than 1: %v", w)
}

func shift(x, y []float64) float64 {
	sum := func(a []float64) float64 {
		s := 0.0
		for _, v := range a {
			s += v
		}
		return max(-1, min(1, s))
	}
	return sum(x) - sum(y)
}

// A generator of few distinct pairs gives each once, and a pair swapped
// (X and Y exchanged: the same two directions) is the same pair: three
// pairs drawn for twenty candidates, two of them one pair swapped, are
// two pairs screened, not twenty.
func TestAGeneratorThatRepeatsItsPairsIsScreenedOncePerPair(t *testing.T) {
	three := rapid.SampledFrom([]fixtures.Pair[[]float64]{
		{X: []float64{1}, Y: []float64{0}}, {X: []float64{0}, Y: []float64{1}}, {X: []float64{0.5}, Y: []float64{0}},
	})
	gauss := dptest.Continuous(func(r *rand.Rand, x []float64) float64 { return x[0] + r.NormFloat64() }).WithNeighbors(three)
	rep, err := dptest.AuditRDP(gauss, 2, 1, dptest.Candidates(20), dptest.Samples(20_000), dptest.Seed(1))
	require.NoError(t, err)
	require.Equal(t, 2, rep.Details.PairsSearched, "%s", rep)
}
