package dptest_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/mechanisms"
)

// A finder's proposals are the candidates when no others are given. On
// NonDPLaplace1, whose every add/remove pair violates its claim, each
// finder stops at its first trial (its screening shows the claim exceeded
// by half); on DPMean, which meets its claim, it screens all its trials
// and the audit passes. Fixed seeds.
func TestFindPairs(t *testing.T) {
	t.Parallel()
	box := dptest.RemoveLast(2, -1, 1)
	broken := dptest.Continuous(mechanisms.NonDPLaplace1{Eps: 1}.Sample)
	for _, f := range []dptest.Finder[[]float64]{dptest.RandomFinder(box, 20), dptest.GridFinder(box, 20), dptest.BanditFinder(box, 20)} {
		rep, err := dptest.AuditDP(broken, 1, dptest.FindPairs(f), dptest.Samples(100_000), dptest.Seed(1))
		require.NoError(t, err, "%v", f)
		require.True(t, (rep.Verdict == dptest.Violated), "%v", f)
		require.Equal(t, 1, rep.Details.Trials, "%v", f)
		require.Equal(t, 1, rep.Details.FoundAt, "%v", f)
		require.Equal(t, 1, rep.Details.PairsSearched, "%v: only the finder's pair", f)
	}
	correct := dptest.Continuous(mechanisms.DPMean{Eps: 1}.Sample)
	rep, err := dptest.AuditDP(correct, 1, dptest.FindPairs(dptest.BanditFinder(box, 12)), dptest.Samples(100_000), dptest.Seed(2))
	require.NoError(t, err)
	require.False(t, (rep.Verdict == dptest.Violated))
	require.Equal(t, 12, rep.Details.Trials)
	require.Equal(t, 0, rep.Details.FoundAt)
}

// A grid over a box proposes its points in order and stops when they run
// out; explicit pairs come first (and the replay check draws on the first
// of them).
func TestGridFinderWithPairs(t *testing.T) {
	var seen [][]float64
	box := dptest.Box[[]float64]{Dim: 1, Lo: 0, Hi: 1, Pair: func(z []float64) fixtures.Pair[[]float64] {
		seen = append(seen, append([]float64(nil), z...))
		return fixtures.Pair[[]float64]{X: []float64{z[0]}, Y: []float64{z[0], 1}}
	}}
	m := dptest.Continuous(mechanisms.DPMean{Eps: 1}.Sample)
	rep, err := dptest.AuditRDP(m, 2, 10, dptest.Pairs(fixtures.Pair[[]float64]{X: []float64{0}, Y: []float64{0, 0}}),
		dptest.FindPairs(dptest.GridFinder(box, 3)), dptest.Samples(20_000), dptest.Seed(3))
	require.NoError(t, err)
	require.Equal(t, 3, rep.Details.Trials)
	require.Equal(t, 4, rep.Details.PairsSearched)
	require.Equal(t, [][]float64{{0}, {0.5}, {1}}, seen, "the grid's points, the explicit pair before them")
}

// Bad finders are errors of the audit, never panics.
func TestFindPairsErrors(t *testing.T) {
	m := dptest.Continuous(mechanisms.DPMean{Eps: 1}.Sample)
	box := dptest.RemoveLast(2, 0, 1)
	for _, tc := range []struct {
		opt  dptest.Option
		want string
	}{
		{dptest.FindPairs(dptest.Finder[[]float64]{}), "FindPairs needs a Finder from GridFinder, BanditFinder or RandomFinder"},
		{dptest.FindPairs(dptest.GridFinder(dptest.Box[[]float64]{Dim: 0, Lo: 0, Hi: 1, Pair: box.Pair}, 5)), "Dim ≥ 1"},
		{dptest.FindPairs(dptest.GridFinder(dptest.RemoveLast(2, 1, 1), 5)), "finite Lo < Hi, got [1, 1]"},
		{dptest.FindPairs(dptest.BanditFinder(box, 0)), "at least one trial, got 0"},
		{dptest.FindPairs(dptest.BanditFinder(box, 5).WithTrials(0)), "at least one trial, got 0"},
		{dptest.FindPairs(dptest.RandomFinder(dptest.Box[[]int]{Dim: 1, Lo: 0, Hi: 1, Pair: func([]float64) fixtures.Pair[[]int] { return fixtures.Pair[[]int]{} }}, 5)), "a Finder for datasets of type []int given to a mechanism on datasets of type []float64"},
	} {
		_, err := dptest.AuditDP(m, 1, tc.opt, dptest.Samples(20_000))
		require.ErrorContains(t, err, tc.want)
	}
	_, err := dptest.AuditDP(m, 1, dptest.FindPairs(dptest.GridFinder(box, 5)), dptest.FindPairs(dptest.GridFinder(box, 5)), dptest.Samples(20_000))
	require.ErrorContains(t, err, "FindPairs given twice")
	calls := 0
	panicky := dptest.Box[[]float64]{Dim: 1, Lo: 0, Hi: 1, Pair: func(z []float64) fixtures.Pair[[]float64] {
		if calls++; calls > 1 {
			panic("no pair here")
		}
		return fixtures.Pair[[]float64]{X: []float64{0}, Y: []float64{0, 1}}
	}}
	_, err = dptest.AuditDP(m, 1, dptest.FindPairs(dptest.RandomFinder(panicky, 5)), dptest.Samples(20_000))
	require.ErrorContains(t, err, "the finder panicked proposing trial 1: no pair here")
}

// A finder's Box has its own neighbour relation, which the default
// simplifier does not know: found pairs are not simplified. Here q and
// q′ differ by at most 0.1 in each of two records, and q₁ + q₂ plus
// Laplace noise of scale 0.2 is 1-DP for that relation; moving the
// differing records to 0 and 1 made a pair outside it and failed the
// claim (found by review).
func TestFoundPairsKeepTheBoxRelation(t *testing.T) {
	box := dptest.Box[[]float64]{Dim: 4, Lo: -1, Hi: 1, Pair: func(z []float64) fixtures.Pair[[]float64] {
		q := []float64{z[0], z[1]}
		return fixtures.Pair[[]float64]{X: q, Y: []float64{q[0] + 0.1*z[2], q[1] + 0.1*z[3]}}
	}}
	m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		return x[0] + x[1] + mechanisms.Laplace{B: 0.2}.Sample(r, []float64{0})
	})
	rep, err := dptest.AuditDP(m, 1, dptest.FindPairs(dptest.RandomFinder(box, 5)), dptest.Samples(50_000), dptest.Seed(1))
	require.NoError(t, err)
	require.False(t, (rep.Verdict == dptest.Violated), "witness %v", rep.Witness)
}

// With Quick, the quick look and the full run each get a fresh finder:
// a grid is not used up by the quick look.
func TestFinderWithQuick(t *testing.T) {
	m := dptest.Continuous(mechanisms.Laplace{B: 1}.Sample)
	rep, err := dptest.AuditRDP(m, 2, 0.65, dptest.FindPairs(dptest.GridFinder(dptest.RemoveLast(1, 0, 1), 4)), dptest.Quick(), dptest.Samples(400_000), dptest.Seed(1))
	require.NoError(t, err)
	require.Positive(t, rep.Details.Trials)
}
