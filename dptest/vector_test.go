package dptest_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/mechanisms"
)

// The Gaussian mechanism on a 3-vector query whose change spreads over
// every coordinate (one coordinate sees a third of the divergence): every
// claim type at its exact value holds, resolved within 1.5 times, and the
// linear discriminant the audit learns recovers the whole divergence, so
// the claims at truth/1.5 fail.
func TestVectorGaussianClaims(t *testing.T) {
	t.Parallel()
	g := mechanisms.GaussianVector{D: 3, K: 3, Sigma: 1}
	m := dptest.Vector(g.Sample)

	rep, err := dptest.AuditRDP(m, 2, g.RDP(2), opts(dptest.Seed(1))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
	require.LessOrEqual(t, rep.Resolution, dptest.ResolutionFactor*g.RDP(2), "%s", rep)
	require.Contains(t, rep.Details.Score, "discriminant over 3 of 3 coordinates", "a score reading every coordinate")

	rep, err = dptest.AuditRDP(m, 2, g.RDP(2)/1.5, opts(dptest.Seed(2))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	require.NotEmpty(t, rep.Details.Score, "the violation names the score: %s", rep)

	rep, err = dptest.AuditGDP(m, g.Mu(), opts(dptest.Seed(3))...)
	require.NoError(t, err)
	require.NotEqual(t, dptest.Violated, rep.Verdict, "%s", rep)
	require.InDelta(t, 1, rep.Estimate/g.Mu(), 0.05, "%s", rep)
	// A pass on the scores, resolved as a pass needs, in tests down to a
	// positive level: a vector's pass says how deep its tests looked, as
	// a scalar's.
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
	require.NotEmpty(t, rep.Details.Score)
	require.Positive(t, rep.Resolution)
	require.LessOrEqual(t, rep.Resolution, dptest.ResolutionFactor*g.Mu())
	require.True(t, slices.ContainsFunc(rep.Details.TradeOff, func(p dptest.TradeOffPoint) bool { return p.Level > 0 }), "%+v", rep.Details.TradeOff)

	rep, err = dptest.AuditGDP(m, g.Mu()/1.5, opts(dptest.Seed(4))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)

	delta := gaussianDelta(1, 1)
	rep, err = dptest.AuditApproxDP(m, 1, delta, opts(dptest.Seed(5))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
	require.LessOrEqual(t, rep.Resolution, dptest.ResolutionFactor*delta, "%s", rep)
}

// histogramPairs are add/remove neighbours of up to 4 records in 5 bins.
func histogramPairs() *rapid.Generator[fixtures.Pair[[]int]] {
	return fixtures.AddRemove(rapid.IntRange(0, 4), 0, 4)
}

// The Laplace histogram is ε = 1/b pure DP under add/remove neighbours:
// the claim holds, the claim at ε/1.5 fails, and the score is the bin
// that changed. The broken histogram that releases empty bins as exactly
// 0 fails any claim, on an output the other dataset never produces.
// (Which score carries the pass, the changed bin alone or a discriminant
// leaning on it, is the criteria's choice among the screened scores.)
func TestVectorHistograms(t *testing.T) {
	t.Parallel()
	h := mechanisms.LaplaceHistogram{Bins: 5, B: 1}
	m := dptest.Vector(h.Sample).WithNeighbors(histogramPairs())
	rep, err := dptest.AuditDP(m, h.Epsilon(), opts(dptest.Seed(6))...)
	require.NoError(t, err)
	// A pass of the local audit on the vectors' scores: a loss of
	// Resolution or more over the outputs it confirmed, around the score
	// t̂ = Location, would have been caught.
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
	require.NotEmpty(t, rep.Details.Score, "the vectors were scored")
	require.Empty(t, rep.Details.Tester)
	require.IsType(t, 0.0, rep.Details.Location, "the score t̂")
	require.Positive(t, rep.Resolution)
	require.LessOrEqual(t, rep.Resolution, dptest.ResolutionFactor*h.Epsilon())

	rep, err = dptest.AuditDP(m, h.Epsilon()/1.5, opts(dptest.Seed(7))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	require.Empty(t, rep.Details.CrossChecks, "the local run found it")
	require.NotEmpty(t, rep.Details.Score, "%s", rep)
	require.IsType(t, 0.0, rep.Details.Location, "the violation names the score t̂ where the loss peaks: %s", rep)

	s := mechanisms.SparseLaplaceHistogram{Bins: 5, B: 1}
	rep, err = dptest.AuditDP(dptest.Vector(s.Sample).WithNeighbors(histogramPairs()), s.ClaimedEpsilon(), opts(dptest.Seed(8))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	require.Greater(t, rep.LowerBound, 3*s.ClaimedEpsilon(), "%s", rep)
}

// Bad vector mechanisms and options are errors that say what is wrong.
func TestVectorErrors(t *testing.T) {
	_, err := dptest.AuditRDP(dptest.Vector[[]float64](nil), 2, 1)
	require.ErrorContains(t, err, "dptest: Vector needs a non-nil function")

	g := mechanisms.GaussianVector{D: 2, K: 1, Sigma: 1}
	_, err = dptest.AuditDP(dptest.Vector(g.Sample), 1, dptest.Region(0, 1))
	require.ErrorContains(t, err, "Region applies to real outputs")
	require.ErrorContains(t, err, "this one's outputs are vectors")

	ragged := dptest.Vector(func(r *rand.Rand, x []float64) []float64 {
		if r.IntN(5000) == 0 {
			return []float64{1}
		}
		return []float64{r.NormFloat64(), r.NormFloat64()}
	})
	_, err = dptest.AuditRDP(ragged, 2, 1, opts(dptest.Seed(9))...)
	require.ErrorContains(t, err, "output of length 1: a Vector mechanism's outputs must all have the length of its first, 2")
	require.ErrorContains(t, err, "draw ")

	nan := dptest.Vector(func(r *rand.Rand, x []float64) []float64 {
		return []float64{r.NormFloat64(), math.Log(r.Float64() - 0.999)}
	})
	_, err = dptest.AuditRDP(nan, 2, 1, opts(dptest.Seed(10))...)
	require.ErrorContains(t, err, "output coordinate 1 is NaN")
}

// An audit of a vector mechanism is the same whatever GOMAXPROCS.
func TestVectorAuditDeterministicAcrossGOMAXPROCS(t *testing.T) {
	g := mechanisms.GaussianVector{D: 4, K: 2, Sigma: 1}
	audit := func(procs int) dptest.Report {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		rep, err := dptest.AuditRDP(dptest.Vector(g.Sample), 2, g.RDP(2), dptest.Seed(11), dptest.Samples(20_000), dptest.Candidates(2))
		require.NoError(t, err)
		return rep
	}
	a, b := audit(1), audit(2)
	require.Equal(t, a.LowerBound, b.LowerBound)
	require.Equal(t, a.Estimate, b.Estimate)
	require.Equal(t, a.Details.Score, b.Details.Score)
	require.Equal(t, a.Calls, b.Calls)
}

// A leak in the noise's correlation alone: under one dataset the two
// coordinates are z and z + 0.3w, under the other independent with the same
// means and nearly the same spread. D₂ from the first to the second is
// 2.49, and infinite the other way (−Σ_Y + 2Σ_X is not positive definite);
// only the quadratic discriminant sees it, and a claim of 1 fails.
func TestVectorCorrelationLeak(t *testing.T) {
	m := dptest.Vector(func(r *rand.Rand, x []float64) []float64 {
		z := r.NormFloat64()
		if x[0] == 1 {
			return []float64{z, z + 0.3*r.NormFloat64()}
		}
		return []float64{z, math.Sqrt(1.09) * r.NormFloat64()}
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	rep, err := dptest.AuditRDP(m, 2, 1, opts(dptest.Seed(12))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	require.Regexp(t, "^quadratic discriminant over 2 of 2 coordinates", rep.Details.Score)
}

// A leak held by a rare value of one coordinate: under Y coordinate 1 is
// exactly 10 once in a thousand draws, which X never produces (ε = ∞),
// while coordinate 0 carries a weak shift that dominates the bulk. The
// score that separates the bulk best is coordinate 0; the alternatives
// screened beside it include coordinate 1 for the imbalance of its
// extremes, and the local run fails the claim on a score that carries
// it: coordinate 1 itself, or the quadratic discriminant of both, where
// the rare value's outputs make a run one dataset alone reached. (At
// this seed the second event is the quadratic discriminant's, taken from
// that score's table; without that the local run's bound was 0.30 and
// only a cross-check found the violation.)
func TestVectorRareValueLeak(t *testing.T) {
	t.Parallel()
	m := rareValueLeak()
	rep, err := dptest.AuditDP(m, 1, opts(dptest.Seed(13))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	require.Greater(t, rep.LowerBound, 1.0, "the local run's own bound: %s", rep)
	require.Empty(t, rep.Details.CrossChecks, "the local run found it")
	require.True(t, rep.Details.Score == "coordinate v[1] of 2" || strings.HasPrefix(rep.Details.Score, "quadratic discriminant"), "%s", rep.Details.Score)
	// The quick look's screening of 12,500 draws per side sees the 10
	// about six times, in the open cell of coordinate v[1] with the
	// noise's tail: it held the claim (seeds 13–15) until a coordinate's
	// repeated values became atoms of their own, as a real output's, and
	// the hockey-stick cross-check's margin had to hold on every score.
	rep, err = dptest.AuditDP(m, 1, dptest.Seed(13), dptest.Quick())
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
}

// rareValueLeak is the mechanism of TestVectorRareValueLeak on its pair.
func rareValueLeak() dptest.Mechanism[[]float64] {
	return dptest.Vector(func(r *rand.Rand, x []float64) []float64 {
		v := []float64{0.2*x[0] + r.NormFloat64(), r.NormFloat64()}
		if x[0] == 0 && r.IntN(1000) == 0 {
			v[1] = 10
		}
		return v
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
}

// A pass whose hockey-stick cross-check read one coordinate of a vector
// names that coordinate in the rate of outputs of one dataset alone it
// would have caught: of a vector's coordinates only those that are scores
// of their own are screened for their values. The mechanism of
// TestVectorRareValueLeak passes ε = 1 at this seed (1 of 41 seeds at
// 200,000 draws a side): the half of the cross-check's screening that
// chooses its event saw v[1] = 10 twice where 10 are expected
// (P = 0.003), the cross-check read coordinate v[0], and the local run
// held at the early look. Its line spoke of every output.
func TestVectorPassNamesTheCoordinateItsAloneRateCovers(t *testing.T) {
	t.Parallel()
	m := rareValueLeak()
	rep, err := dptest.AuditDP(m, 1, opts(dptest.Seed(17))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict, "the known pass (docs/limits.md); if it is caught now, find another pass for this test")
	// The rate of outputs of one dataset alone it would have caught is
	// that of the hockey-stick cross-check, which read coordinate v[0]:
	// it speaks of values of v[0] only.
	i := slices.IndexFunc(rep.Details.CrossChecks, func(c dptest.Report) bool { return c.Claim.Kind == "ApproxDP" })
	require.GreaterOrEqual(t, i, 0, "%s", rep)
	require.Equal(t, "coordinate v[0] of 2", rep.Details.CrossChecks[i].Details.Score)
	require.Positive(t, rep.Reach)
	require.Less(t, rep.Reach, 1.0)
}

// A rare value beside two coordinates that differ clearly: coordinates 0
// and 1 are Laplace(4) noise shifted by the record (ε = ½ together), and
// coordinate 2, N(0, 1), is replaced once in 1,000 draws by 10 − 20x
// (spread by N(0, 0.01²), so no value repeats): outputs of one dataset
// alone (ε = ∞) that barely move the bulk. Two telling coordinates make
// five candidate scores; before a place was kept for the coordinate whose
// extremes come most unevenly from the two sides, they filled every
// place and the claim ε = 1 held in 9 of 10 default audits (seeds 0–9 of
// internal/experiments/vectors); now in none. Two default audits must
// both fail it: each does with probability about 0.99 (10 of 10 there,
// and the quick look's hockey-stick cross-check sees the stretch of one
// side's outputs at ±10 in its open cell), so P(false failure) ≈ 0.02 at
// worst. The experiment's row runs more (its README). The same release
// without the rare value passes ε = ½ (its truth) in the experiment's 10
// audits of 10.
func TestVectorRareValueBesideTwoShiftedCoordinates(t *testing.T) {
	if testing.Short() {
		t.Skip("two default audits, about 4 s")
	}
	t.Parallel()
	m := dptest.Vector(func(r *rand.Rand, x []float64) []float64 {
		lap := func() float64 { return 4 * (r.ExpFloat64() - r.ExpFloat64()) }
		v := []float64{x[0] + lap(), x[0] + lap(), r.NormFloat64()}
		if r.IntN(1000) == 0 {
			v[2] = 10 - 20*x[0] + 0.01*r.NormFloat64()
		}
		return v
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{0}, Y: []float64{1}})
	for _, seed := range []uint64{1, 2} {
		rep, err := dptest.AuditDP(m, 1, dptest.Samples(1_000_000), dptest.Seed(seed))
		require.NoError(t, err)
		require.Equal(t, dptest.Violated, rep.Verdict, "seed %d: %s", seed, rep)
	}
}

// Integer noise of scale 1,000 on five bins, one of which gains ½ under X:
// its values lie on another grid than Y's, so δ(ε) = 1 at every ε. Its
// cells of equal mass hold both grids; its values one by one do not, and
// the score sums their ratios.
func TestVectorGridWhosePhaseLeaks(t *testing.T) {
	grid := dptest.Vector(func(r *rand.Rand, x []float64) []float64 {
		v := make([]float64, 5)
		for i := range v {
			v[i] = math.Round(1000 * r.NormFloat64())
		}
		v[0] += 0.5 * x[0]
		return v
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	rep, err := dptest.AuditApproxDP(grid, 1, 0.1, dptest.Samples(200_000), dptest.Candidates(0), dptest.Seed(1))
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%v", rep)
	require.Greater(t, rep.LowerBound, 0.3, "δ(1) is 1; the claim 0.1")
}

// Ten Poisson-subsampled Gaussian steps (γ = 0.05, σ = 1) released as a
// vector and claimed at the central limit theorem's μ = 0.2073, which
// their tests of small level exceed (the likelihood-ratio test of level
// 10⁻³ shows 0.34 on this pair). Each coordinate's log-ratio keeps
// growing in its upper tail; the sum of cell ratios is flat there and the
// full quadratic discriminant noisy. Before the diagonal quadratic score
// (each coordinate's mean and variance), 5 of ten default audits failed
// the claim (12 of 20 in internal/experiments/vectors); with it, 10 of 10
// (20 of 20). The ten audits now run in that experiment (its row "at its
// CLT μ"); here three default audits, of which at least two must fail the
// claim. At a detection rate of 0.95, P(false failure of this test) ≈
// 0.007; at 0.5 it would pass with probability 0.5, and the experiment's
// row shows the rate.
func TestVectorSubsampledStepsAtTheirCLTMu(t *testing.T) {
	const audits, mustCatch = 3, 2
	if testing.Short() {
		t.Skip("three default audits, about 8 s")
	}
	t.Parallel()
	steps := mechanisms.SubsampledGaussianSteps{Steps: 10, Sigma: 1, Gamma: 0.05}
	m := dptest.Vector(steps.Sample).WithPairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{}})
	caught := 0
	for seed := uint64(1); seed <= audits; seed++ {
		rep, err := dptest.AuditGDP(m, steps.CLTMu(), dptest.Samples(1_000_000), dptest.Seed(seed))
		if !errors.Is(err, dptest.ErrInconclusive) { // inconclusive: not caught, not passed
			require.NoError(t, err)
		}
		if rep.Verdict == dptest.Violated {
			caught++
		}
		t.Logf("seed %d: %v, bound %.4f, score %s", seed, rep.Verdict, rep.LowerBound, rep.Details.Score)
	}
	require.GreaterOrEqual(t, caught, mustCatch, "of %d default audits at the CLT's μ", audits)
}
