package dptest_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/mechanisms"
)

// gaussianDelta is the exact δ(ε) of the Gaussian mechanism of
// sensitivity 1 and noise σ (Balle and Wang 2018, Theorem 8):
// Φ(1/2σ − εσ) − e^ε·Φ(−1/2σ − εσ).
func gaussianDelta(sigma, eps float64) float64 {
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	return phi(1/(2*sigma)-eps*sigma) - math.Exp(eps)*phi(-1/(2*sigma)-eps*sigma)
}

// normalQuantile is Φ⁻¹(p), the standard normal quantile, computed here
// apart from the library's own.
func normalQuantile(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// The Gaussian mechanism at its exact (ε, δ(ε)) passes with a bound close
// to δ(ε); at δ(ε)/1.5, or with σ halved, it fails. Every audit here and
// below runs at confidence 1 − 10⁻⁴ with a fixed seed: a correct claim
// fails with probability at most 10⁻⁴.
func TestApproxDPOfTheGaussianMechanism(t *testing.T) {
	t.Parallel()
	g := mechanisms.Gaussian{Sigma: 0.5}
	m := dptest.Continuous(g.Sample)
	delta := gaussianDelta(0.5, 1) // 0.5099
	rep, err := dptest.AuditApproxDP(m, 1, delta, opts(dptest.Seed(1))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
	require.Equal(t, "ApproxDP", rep.Claim.Kind)
	require.Equal(t, 1.0, rep.Claim.Eps)
	require.Equal(t, delta, rep.Claim.Value)
	require.Greater(t, rep.LowerBound, 0.9*delta)
	require.Less(t, rep.LowerBound, delta)
	require.LessOrEqual(t, rep.Resolution, 1.5*delta)
	require.Contains(t, []string{"H_{e^1}(M(X)‖M(Y))", "H_{e^1}(M(Y)‖M(X))"}, rep.Direction)

	rep, err = dptest.AuditApproxDP(m, 1, delta/1.5, opts(dptest.Seed(2))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	require.Equal(t, delta/1.5, rep.Claim.Value)
	require.InDelta(t, 0.9999, rep.Confidence, 1e-12)
	require.Greater(t, rep.LowerBound, delta/1.5)

	half := mechanisms.Gaussian{Sigma: 0.25}
	rep, err = dptest.AuditApproxDP(dptest.Continuous(half.Sample), 1, delta, opts(dptest.Seed(3))...)
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
}

// A partition selection of δ = 0.05 keeps a partition of one unit with
// probability 0.05 and one of none never: at ε = 1 its hockey-stick
// divergence is exactly 0.05 on every pair of adjacent unit counts. The
// claim (1, 0.05) holds; (1, 0.03) fails, on an event the other dataset
// never produces when the witness is 1 unit against 0. Discrete outputs.
func TestApproxDPOfPartitionSelection(t *testing.T) {
	t.Parallel()
	m := partitionSelection()
	rep, err := dptest.AuditApproxDP(m, 1, 0.05, opts(dptest.Seed(4))...)
	require.NoError(t, err)
	require.False(t, (rep.Verdict == dptest.Violated), "%s", rep)
	require.Greater(t, rep.LowerBound, 0.045)

	// 1.67 times the claim: the early look of the sequential confirmation
	// (a tenth of the draws) shows it, with a looser bound.
	rep, err = dptest.AuditApproxDP(m, 1, 0.03, opts(dptest.Seed(5))...)
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
	require.True(t, rep.Details.EarlyLook, "%s", rep)
	require.Greater(t, rep.LowerBound, 0.04)
	if w, _ := dptest.WitnessOf[[]float64](rep); units(w.Y) == 0 || units(w.X) == 0 {
		require.True(t, rep.Details.Unbounded, "%s", rep)
	}
}

func units(x []float64) int {
	n := 0
	for _, v := range x {
		if v >= 0.5 {
			n++
		}
	}
	return n
}

// Both directions are searched: with the one pair given as (0 units,
// 1 unit), the event of a kept partition is seen under Y only.
func TestApproxDPFindsTheReverseDirection(t *testing.T) {
	pair := fixtures.Pair[[]float64]{X: []float64{0, 0}, Y: []float64{1, 0}}
	rep, err := dptest.AuditApproxDP(partitionSelection(), 1, 0.03, dptest.Samples(200_000), dptest.Pairs(pair), dptest.Seed(6))
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
	require.Equal(t, "H_{e^1}(M(Y)‖M(X))", rep.Direction)
	require.True(t, rep.Details.Unbounded)
}

// A mechanism that releases its exact statistic with probability 0.05 and
// adds N(0, 2²) otherwise has a hockey-stick divergence at ε = 1 of at
// least 0.05 (the atom at Σx, which the other dataset never produces),
// though its noisy part alone meets (1, 0.01): the claim fails. Real
// outputs with an atom.
func TestApproxDPSeesAnAtomOfExactReleases(t *testing.T) {
	m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		if r.Float64() < 0.05 {
			return s
		}
		return s + 2*r.NormFloat64()
	})
	require.Less(t, 0.95*gaussianDelta(2, 1), 0.01)
	rep, err := dptest.AuditApproxDP(m, 1, 0.01, opts(dptest.Seed(7))...)
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
	require.Greater(t, rep.LowerBound, 0.04)
}

// Laplace noise of scale 1 on Σx, but Σx itself with probability 0.01: on
// pairs whose sums differ by at most 1, δ(1) = 0.01 exactly, all of it on
// the atom at Σx (the Laplace part's ratio is at most e). The best event
// is that atom alone (its bound about 0.0097 at a million draws); events
// that hold it beside Laplace cells whose ratio is exactly e show the
// same δ with ten times its error, and won the screening on the noise of
// their held counts until the event criterion moved them two held
// standard errors against it (renyi.EventHeldPenalty): 5 of 20 default
// audits at the truth were inconclusive, and 3 of 10 at δ/1.5, where now
// 20 pass and 10 are violated (experiments README, session 45). With one
// held standard error, seed 2 here bounds 0.0075. Fixed seeds and a
// million draws per side, -short too (about 6 s); a bound under 0.0085
// came in 2 of 80 audits at other seeds (one inconclusive), so another
// choice of the three seeds fails with probability about 0.08. Under
// -short seed 1 alone runs (about 3 s); another single seed fails with
// probability about 0.025.
func TestApproxDPOfARawReleaseAtItsDelta(t *testing.T) {
	t.Parallel()
	lap := mechanisms.Laplace{B: 1}
	m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if r.Float64() < 0.01 {
			s := 0.0
			for _, v := range x {
				s += v
			}
			return s
		}
		return lap.Sample(r, x)
	})
	for _, seed := range shortFirst[uint64](1, 2, 3) {
		rep, err := dptest.AuditApproxDP(m, 1, 0.0101, dptest.Seed(seed), dptest.Samples(1_000_000))
		require.NoError(t, err, "seed %d", seed)
		require.Greater(t, rep.LowerBound, 0.0085, "seed %d, the atom's bound: %s", seed, rep)
	}
	rep, err := dptest.AuditApproxDP(m, 1, 0.01/1.5, dptest.Seed(1), dptest.Samples(1_000_000))
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
}

// Randomized response over ten records: at ε < ε₀ its hockey-stick
// divergence is p − e^ε(1 − p), p = e^{ε₀}/(1 + e^{ε₀}), the records that
// agree adding nothing. Values of a uint64.
func TestApproxDPOfRandomizedResponse(t *testing.T) {
	t.Parallel()
	rr := mechanisms.RandomizedResponse{Eps0: 2, M: 10}
	m := dptest.Discrete(rr.Sample)
	p := math.Exp(2) / (1 + math.Exp(2))
	delta := p - math.Exp(1)*(1-p) // 0.5554
	rep, err := dptest.AuditApproxDP(m, 1, delta, opts(dptest.Seed(8))...)
	require.NoError(t, err)
	require.False(t, (rep.Verdict == dptest.Violated), "%s", rep)
	require.Greater(t, rep.LowerBound, 0.9*delta)
	rep, err = dptest.AuditApproxDP(m, 1, delta/1.5, opts(dptest.Seed(9))...)
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
}

// A δ far below what the sample resolves ends unresolved, naming the
// sample size it would need, never passed: Require skips the test, and
// fails it under Strict.
func TestApproxDPWithATinyDeltaIsInconclusive(t *testing.T) {
	g := mechanisms.Gaussian{Sigma: 4}
	rep, err := dptest.AuditApproxDP(dptest.Continuous(g.Sample), 1, 1e-5, opts(dptest.Seed(10))...)
	require.ErrorIs(t, err, dptest.ErrInconclusive)
	require.ErrorIs(t, err, dptest.ErrUnresolved)
	require.Equal(t, dptest.Unresolved, rep.Verdict, "%s", rep)
	var why *dptest.CoarseResolution
	require.ErrorAs(t, err, &why)
	require.Equal(t, 1e-5, why.Claim)
	require.LessOrEqual(t, why.Samples, 200_000, "the first look predicts the planned size cannot resolve it")
	require.Equal(t, rep.Details.Samples, why.Samples)
	require.Greater(t, why.Resolution, dptest.ResolutionFactor*1e-5)
	require.Greater(t, why.DrawsNeeded, float64(why.Samples), "the sample size it would need")
	require.False(t, math.IsInf(why.DrawsNeeded, 1), "the sample size it would need")
	sr := &skipRecorder{recorder: &recorder{name: "TestTinyDelta"}}
	run("TestTinyDelta", func(*recorder) {
		dptest.RequireApproxDP(sr, dptest.Continuous(g.Sample), 1, 1e-5, opts(dptest.Seed(10))...)
	})
	require.True(t, sr.skipped, "an unresolved audit skips the test")
	require.False(t, sr.failed)
	require.Empty(t, sr.errors)
	r := run("TestTinyDelta", func(rt *recorder) {
		dptest.RequireApproxDP(rt, dptest.Continuous(g.Sample), 1, 1e-5, opts(dptest.Seed(10), dptest.Strict())...)
	})
	require.True(t, r.failed, "Strict fails an unresolved audit")
}

// The Gaussian mechanism is μ-GDP at μ = Δ/σ exactly: the estimate
// recovers μ within 5%, the claim passes, and μ/1.5 fails.
func TestGDPOfTheGaussianMechanism(t *testing.T) {
	t.Parallel()
	g := mechanisms.Gaussian{Sigma: 0.5}
	m := dptest.Continuous(g.Sample)
	rep, err := dptest.AuditGDP(m, 2, opts(dptest.Seed(11))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
	require.Equal(t, "GDP", rep.Claim.Kind)
	require.Equal(t, 2.0, rep.Claim.Value)
	require.InDelta(t, 2, rep.Estimate, 0.1)
	// The trade-off curve lies on G_2 within its band, and the profile
	// at ε is the Gaussian's δ(ε) within a few hundredths.
	require.GreaterOrEqual(t, len(rep.Details.TradeOff), 10)
	for _, p := range rep.Details.TradeOff {
		g2 := 0.5 * math.Erfc(-(math.Sqrt2*math.Erfinv(2*p.LevelHi-1)+2)/math.Sqrt2) // Φ(Φ⁻¹(LevelHi) + 2)
		require.LessOrEqual(t, p.PowerLo, g2+1e-9, "%+v", p)
	}
	require.Len(t, rep.Details.Profile, 6)
	for _, p := range rep.Details.Profile {
		require.InDelta(t, gaussianDelta(0.5, p.Eps), p.Delta, 0.03, "ε=%v", p.Eps)
	}
	rep, err = dptest.AuditGDP(m, 2/1.5, opts(dptest.Seed(12))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	require.Equal(t, "GDP", rep.Claim.Kind)
	require.Equal(t, 2/1.5, rep.Claim.Value)
	require.Greater(t, rep.LowerBound, 2/1.5)
	// With room to spare the audit decides at its early look, and the
	// curve and profile are those of the early look's draws, not diluted
	// by the planned size.
	rep, err = dptest.AuditGDP(m, 3, opts(dptest.Seed(13))...)
	require.NoError(t, err)
	require.True(t, rep.Details.EarlyLook && !(rep.Verdict == dptest.Violated), "%s", rep)
	require.Less(t, rep.Details.Samples, 200_000)
	for _, p := range rep.Details.Profile {
		require.InDelta(t, gaussianDelta(0.5, p.Eps), p.Delta, 0.05, "ε=%v", p.Eps)
	}
}

// gaussianWithAtomOfX is x₀ + x₁ plus unit Gaussian noise, on the pair
// X = (1, 0.5), Y = (0, 0.5), that on datasets whose first record is 1
// returns 0.5 instead once in rate draws: an output of X alone.
func gaussianWithAtomOfX(rate int) dptest.Mechanism[[]float64] {
	return dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if x[0] == 1 && r.IntN(rate) == 0 {
			return 0.5
		}
		return x[0] + x[1] + r.NormFloat64()
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{1, 0.5}, Y: []float64{0, 0.5}})
}

// GDP of a discrete mechanism: binary randomized response of ε₀ has the
// trade-off curve of one test, level 1 − p and power p; the audit's
// μ estimate is that test's Φ⁻¹(p) − Φ⁻¹(1 − p) = 2·Φ⁻¹(p).
// An output that one dataset alone produces (0.5, once in 1,000 draws of
// X) is a test of level 0 and positive power, which no finite μ allows,
// but at a million draws the claim μ = 2 could still hold there (Y
// producing it once in about 5·10⁶ draws): the GDP audit passes, and its
// report (Details.Alone) says what it saw and what would refute the claim.
func TestGDPPassNamesAnOutputOfOneDatasetAlone(t *testing.T) {
	t.Parallel()
	m := gaussianWithAtomOfX(1000)
	rep, err := dptest.AuditGDP(m, 2, dptest.Seed(3), dptest.Candidates(0))
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
	a := rep.Details.Alone
	require.NotNil(t, a)
	require.Equal(t, 0.5, a.Value)
	require.False(t, a.Reverse, "X, not Y, produced it")
	pair, ok := a.Pair.(fixtures.Pair[[]float64])
	require.True(t, ok, "%T", a.Pair)
	require.Len(t, pair.X, 2)
	require.Equal(t, 1.0, pair.X[0], "X=[1 …] alone produced it")
	// Once in 1,000 draws of X: its count within four Poisson standard
	// deviations of that.
	require.Positive(t, a.Draws)
	expected := float64(a.Draws) / 1000
	require.InDelta(t, expected, float64(a.Count), 4*math.Sqrt(expected), "%d of %d", a.Count, a.Draws)
	// No finite μ allows it if Y never produces it; μ = 2 holds there
	// only if Y produces it at the rate b with Φ⁻¹(a) − Φ⁻¹(b) = 2, about
	// once in 5·10⁶ draws, which these draws cannot refute: the draws
	// whose expected counts would are far more than were made.
	phi := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	share := float64(a.Count) / float64(a.Draws)
	require.InEpsilon(t, phi(normalQuantile(share)-2), a.NeededRate, 1e-6)
	require.InEpsilon(t, 5e6, 1/a.NeededRate, 0.5)
	require.False(t, math.IsInf(a.RefutingDraws, 1), "its expected counts at some number of draws would refute it")
	require.Greater(t, a.RefutingDraws, float64(rep.Details.Settings.Samples))
}

func TestGDPOfRandomizedResponse(t *testing.T) {
	rr := mechanisms.RandomizedResponse{Eps0: 1, M: 1}
	m := dptest.Discrete(rr.Sample)
	p := math.E / (1 + math.E)
	mu := 2 * math.Sqrt2 * math.Erfinv(2*p-1) // 2·Φ⁻¹(p) = 1.2389
	pair := dptest.Pairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	rep, err := dptest.AuditGDP(m, mu, dptest.Samples(200_000), pair, dptest.Seed(13))
	require.NoError(t, err)
	require.False(t, (rep.Verdict == dptest.Violated), "%s", rep)
	require.InDelta(t, mu, rep.Estimate, 0.05*mu)
	rep, err = dptest.AuditGDP(m, mu/1.5, dptest.Samples(200_000), pair, dptest.Seed(14))
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
}

// The Laplace mechanism of scale b is μ-GDP for μ the largest
// Φ⁻¹(1−α) − Φ⁻¹(β) over its threshold tests "output > t" (α and β their
// errors on the pair 1, 0), attained at t = ½: μ = 2·Φ⁻¹(1 − e^{−1/(2b)}/2),
// 1.0301 at b = 1 (a grid of thresholds checks it below). Its trade-off
// curve is not a Gaussian one: its exact μ passes and μ/1.5 fails. Each
// audit fails a correct claim with probability at most 10⁻⁴.
func TestGDPOfTheLaplaceMechanism(t *testing.T) {
	const b = 1.0
	laplaceCDF := func(x, centre float64) float64 {
		if x < centre {
			return math.Exp((x-centre)/b) / 2
		}
		return 1 - math.Exp(-(x-centre)/b)/2
	}
	mu := 2 * normalQuantile(1-math.Exp(-1/(2*b))/2)
	grid := 0.0
	for x := -20 * b; x <= 21*b; x += b / 1000 {
		alpha, beta := 1-laplaceCDF(x, 0), laplaceCDF(x, 1)
		if alpha > 1e-12 && beta > 1e-12 {
			grid = math.Max(grid, normalQuantile(1-alpha)-normalQuantile(beta))
		}
	}
	require.InDelta(t, mu, grid, 1e-6, "the threshold ½ is the best test")

	m := dptest.Continuous(mechanisms.Laplace{B: b}.Sample)
	pair := dptest.Pairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	rep, err := dptest.AuditGDP(m, mu, dptest.Samples(200_000), pair, dptest.Seed(15))
	require.NoError(t, err)
	require.False(t, (rep.Verdict == dptest.Violated), "%s", rep)
	require.InDelta(t, mu, rep.Estimate, 0.05*mu, "%s", rep)
	rep, err = dptest.AuditGDP(m, mu/1.5, dptest.Samples(200_000), pair, dptest.Seed(16))
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
}

// roundedGaussian is the Gaussian mechanism of scale σ on the number of
// records, rounded to an integer: μ-GDP at exactly μ = 1/σ, since
// rounding is post-processing and each test "output ≥ k" is a threshold
// test of the unrounded outputs, which shows 1/σ exactly.
func roundedGaussian(sigma float64) dptest.Mechanism[[]int] {
	return dptest.Discrete(func(r *rand.Rand, x []int) int {
		return int(math.Round(float64(len(x)) + sigma*r.NormFloat64()))
	}).WithNeighbors(histogramPairs())
}

// requireNotRed requires the verdict a correct claim may get: holds, at
// a resolution no finer than the claim, or unresolved, never violated or
// suspect.
func requireNotRed(t *testing.T, rep dptest.Report, err error, claim float64) {
	t.Helper()
	switch rep.Verdict {
	case dptest.Holds:
		require.NoError(t, err)
		require.GreaterOrEqual(t, rep.Resolution, claim, "%s", rep)
		require.LessOrEqual(t, rep.Resolution, dptest.ResolutionFactor*claim, "%s", rep)
	case dptest.Unresolved:
		require.ErrorIs(t, err, dptest.ErrUnresolved, "%s", rep)
	default:
		require.Failf(t, "a correct claim is red", "%s", rep)
	}
}

// A rounded Gaussian claimed at its exact μ: its far tails put a few
// draws in a million on integers the screening never saw (2·10⁻⁵ of them
// at σ = 2). Compared as δ is, as if μ added up (Φ⁻¹(s) − Φ⁻¹(u₀) = 0.28
// against 0.5·μ = 0.25), they left these seeds' audits inconclusive; were
// they one dataset's outputs alone, a million draws could show them at
// 0.49 beside the claim's tests (hockey.Measure.ShownBeside), under μ,
// and the audits pass or, where the planned look's level leaves a
// margin unresolved, say so. The claim at μ/1.5 fails. Each audit
// fails a correct claim with probability at most 10⁻⁴. Under -short the
// claim at μ runs at the first seed alone.
func TestGDPOfARoundedGaussianAtItsExactMu(t *testing.T) {
	t.Parallel()
	full := []dptest.Option{dptest.Samples(1_000_000), dptest.Candidates(20)}
	m := roundedGaussian(2)
	for _, seed := range shortFirst[uint64](10, 19) {
		rep, err := dptest.AuditGDP(m, 0.5, append(full, dptest.Seed(seed))...)
		requireNotRed(t, rep, err, 0.5)
	}
	rep, err := dptest.AuditGDP(m, 0.5/1.5, append(full, dptest.Seed(10))...)
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
}

// The two-sided geometric mechanism of scale 3 on a count, at its exact
// μ = 0.4169 (its best threshold test, by summation of its mass): its
// tails put 4·10⁻⁵ to 10⁻⁴ of a million draws on integers the screening
// never saw, and shares above about 5·10⁻⁵, were they one dataset's
// alone, a million draws could show above μ (0.41 at 4–5·10⁻⁵). Both
// datasets draw those integers alike, and counted value by value, few of
// either side's draws are beyond the other's: the audits pass (counted
// whole, most ended inconclusive, at a million draws and at four), and
// μ/1.5 is detected. Each audit fails a correct claim with probability at
// most 10⁻⁴. Under -short the claim at μ runs at the first seed alone.
func TestGDPOfATwoSidedGeometricAtItsExactMu(t *testing.T) {
	t.Parallel()
	const b = 3.0
	a := math.Exp(-1 / b)
	mass := func(k int) float64 { return (1 - a) / (1 + a) * math.Pow(a, math.Abs(float64(k))) }
	mu := 0.0
	for k := -100; k <= 100; k++ {
		p, q := 0.0, 0.0 // P(≥ k) of the count 1 and Q(≥ k) of the count 0
		for j := k; j <= k+400; j++ {
			p, q = p+mass(j-1), q+mass(j)
		}
		if p < 1-1e-12 && q > 1e-15 {
			mu = max(mu, normalQuantile(p)-normalQuantile(q))
		}
	}
	require.InDelta(t, 0.4169, mu, 1e-4)
	dl := mechanisms.DiscreteLaplace{B: b, Sensitivity: 1}
	m := dptest.Discrete(func(r *rand.Rand, x []int) int64 { return dl.Sample(r, int64(len(x))) }).WithNeighbors(histogramPairs())
	full := []dptest.Option{dptest.Samples(1_000_000), dptest.Candidates(20)}
	for _, seed := range shortFirst[uint64](1, 3, 4) {
		rep, err := dptest.AuditGDP(m, mu, append(full, dptest.Seed(seed))...)
		require.NoError(t, err, "seed %d", seed)
		require.False(t, (rep.Verdict == dptest.Violated), "%s", rep)
	}
	rep, err := dptest.AuditGDP(m, mu/1.5, append(full, dptest.Seed(4))...)
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
}

// Values never seen twice in both datasets: beside a rounded Gaussian at
// its exact μ, each dataset outputs, in a share s of draws, a value never
// drawn before (μ = ∞: tests of level 0). Where a million draws could
// show such a share above μ beside the claim's tests, the pass must not
// stand, though the unseen values' counts are alike on both sides (a
// first version compared what they could show with 1.5·μ, and passed
// these).
func TestGDPOnUniqueOutputsOfBothDatasets(t *testing.T) {
	skipShort(t, "three audits of a million draws per side, about 3 s", "TestGDPOnOutputsNeverSeenTwice", "internal/hockey's TestShownBeside")
	t.Parallel()
	for _, c := range []struct{ mu, share float64 }{{0.5, 1e-4}, {1, 1.5e-3}, {2, 0.02}} {
		m := dptest.Discrete(func(r *rand.Rand, x []int) string {
			if r.Float64() < c.share {
				return fmt.Sprintf("n%d-%d", len(x), r.Uint64())
			}
			return fmt.Sprint(int(math.Round(float64(len(x)) + r.NormFloat64()/c.mu)))
		}).WithNeighbors(histogramPairs())
		rep, err := dptest.AuditGDP(m, c.mu, dptest.Samples(1_000_000), dptest.Candidates(20), dptest.Seed(1))
		if err == nil {
			require.True(t, (rep.Verdict == dptest.Violated), "μ %g: %s", c.mu, rep)
		} else {
			require.ErrorIs(t, err, dptest.ErrInconclusive, "μ %g", c.mu)
		}
	}
}

// The discrete Gaussian mechanism (Canonne, Kamath and Steinke) has the
// Gaussian's Rényi DP, λ/(2σ²) at integer orders, but not its trade-off:
// its exact μ, by summation, is 2.488 at σ = ½ and 1.046 at σ = 1, above
// the continuous Gaussian's 1/σ (its threshold test {M ≥ 1} at σ = ½:
// P = 0.893, Q = 0.107). Claimed at 1/σ it fails (the bound 1.014 above 1
// at σ = 1, or it holds where its resolution lies above the truth,
// 1.046 within 1.5× the claim); at its exact μ and its exact RDP it passes. Each passing
// audit fails a correct claim with probability at most 10⁻⁴.
func TestDiscreteGaussianIsNotOneOverSigmaGDP(t *testing.T) {
	t.Parallel()
	for _, sigma := range []float64{0.5, 1} {
		dg := mechanisms.DiscreteGaussian{Sigma: sigma, Sensitivity: 1}
		m := dptest.Discrete(func(r *rand.Rand, x []int) int64 { return dg.Sample(r, int64(len(x))) }).WithNeighbors(histogramPairs())
		rep, err := dptest.AuditGDP(m, 1/sigma, dptest.Seed(1))
		require.NoError(t, err)
		if sigma == 1 && rep.Verdict == dptest.Holds {
			// The truth 1.046 lies within the 1.5× a pass resolves.
			require.GreaterOrEqual(t, rep.Resolution, dg.Mu(), "%s", rep)
		} else {
			require.True(t, (rep.Verdict == dptest.Violated), "σ %g: %s", sigma, rep)
			require.Greater(t, rep.LowerBound, 1/sigma)
		}
		if sigma == 1 {
			rep, err = dptest.AuditGDP(m, dg.Mu(), dptest.Seed(1))
			require.NoError(t, err)
			require.False(t, (rep.Verdict == dptest.Violated), "%s", rep)
			rep, err = dptest.AuditRDP(m, 2, dg.RDP(2), dptest.Seed(1))
			require.NoError(t, err)
			require.False(t, (rep.Verdict == dptest.Violated), "%s", rep)
		}
	}
}

// farValues is a rounded Gaussian of μ on the count, but that the count
// 1 (of X) draws, in a share s, one of k far integers, 10⁹ apart from
// its other outputs, and the count 0 in a share s/ratio: the same k
// integers, or (ratio 0) each count its own k integers, even or odd,
// interleaved with the other's.
func farValues(mu, s, ratio float64, k int) dptest.Mechanism[[]int] {
	return dptest.Discrete(func(r *rand.Rand, x []int) int64 {
		share, parity := s, int64(len(x)%2)
		if parity == 0 && ratio > 0 {
			share = s / ratio
		}
		if r.Float64() < share {
			if ratio > 0 {
				return 1_000_000_000 + int64(r.IntN(k))
			}
			return 1_000_000_000 + 2*int64(r.IntN(k)) + parity
		}
		return int64(math.Round(float64(len(x)) + r.NormFloat64()/mu))
	}).WithNeighbors(histogramPairs())
}

// Integers the screening never saw, beside a rounded Gaussian at its
// exact μ = 0.5, in 3·10⁻⁴ of X's draws: drawn alike by Y, their counts
// value by value match and the claim passes (counted whole, they left
// it unresolved); drawn 20 times as often by X (the truth 0.742, by
// summation), or each count's its own (μ = ∞), they could hide a
// violation a million draws can show, and the audit must not pass: it
// ends suspect on the values the screening never saw.
func TestGDPOnIntegersTheScreeningNeverSaw(t *testing.T) {
	skipShort(t, "three audits of a million draws per side, about 1.5 s", "TestGDPOnOutputsNeverSeenTwice", "TestApproxDPOnOutputsNeverSeenTwice", "internal/hockey's TestShownBeside")
	t.Parallel()
	full := []dptest.Option{dptest.Samples(1_000_000), dptest.Candidates(20), dptest.Seed(2)}
	rep, err := dptest.AuditGDP(farValues(0.5, 3e-4, 1, 30), 0.5, full...)
	requireNotRed(t, rep, err, 0.5)
	for _, ratio := range []float64{20, 0} {
		rep, err := dptest.AuditGDP(farValues(0.5, 3e-4, ratio, 30), 0.5, full...)
		if err == nil {
			require.True(t, (rep.Verdict == dptest.Violated), "ratio %g: %s", ratio, rep)
			continue
		}
		require.ErrorIs(t, err, dptest.ErrSuspect, "ratio %g", ratio)
		require.Equal(t, dptest.Suspect, rep.Verdict, "ratio %g", ratio)
		var why *dptest.UnmatchedValues
		require.ErrorAs(t, err, &why, "ratio %g", ratio)
		require.Positive(t, why.Unmatched, "ratio %g: draws beyond the other dataset's draws of the same values", ratio)
		require.LessOrEqual(t, why.Unmatched, why.Share, "ratio %g", ratio)
	}
}

// Outputs never seen twice: unique to their dataset in 3% of draws
// (μ = ∞), they show Φ⁻¹(0.03) − Φ⁻¹(u₀) ≈ 2.5 on their own, and a claim
// of μ = 1 must not pass; drawn alike by both datasets in 3·10⁻³ or
// 5·10⁻⁴ of draws beside a rounded Gaussian of μ = 3 or 4, they could
// show no more than μ beside it, and the claim passes (a first version
// capped their P(E) at 1 and read them as +∞ there).
func TestGDPOnOutputsNeverSeenTwice(t *testing.T) {
	t.Parallel()
	m := uniqueOutputsOfEach()
	pair := dptest.Pairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	rep, err := dptest.AuditGDP(m, 1, dptest.Samples(200_000), pair, dptest.Seed(18))
	requireUnseenUniques(t, rep, err)

	for _, c := range []struct{ mu, unique float64 }{{3, 3e-3}, {4, 5e-4}} {
		tagged := dptest.Discrete(func(r *rand.Rand, x []int) string {
			if r.Float64() < c.unique {
				return fmt.Sprintf("u%d", r.Uint64())
			}
			return fmt.Sprint(int(math.Round(float64(len(x)) + r.NormFloat64()/c.mu)))
		}).WithNeighbors(histogramPairs())
		rep, err := dptest.AuditGDP(tagged, c.mu, dptest.Samples(100_000), dptest.Candidates(5), dptest.Seed(1))
		require.NoError(t, err, "μ %g", c.mu)
		require.False(t, (rep.Verdict == dptest.Violated), "%s", rep)
	}
}

// A discrete Laplace (two-sided geometric, mass ∝ e^{−|k|/b}) of scale
// b = 1,000 on the integers 1,000 and 0, whose values are drawn a few
// times each and screened in ranges: its exact δ(½) = Σ_k max(0, p_k −
// e^{½}q_k) = 0.2212 passes and δ/1.5 fails; so do its exact μ (as for the
// Laplace, the best threshold test) and μ/1.5. Each audit fails a correct
// claim with probability at most 10⁻⁴.
func TestApproxDPAndGDPOfAWideDiscreteLaplace(t *testing.T) {
	t.Parallel()
	const b, shift, eps = 1000, 1000, 0.5
	const w = 60 * b
	mass := func(k int) float64 { return math.Exp(-math.Abs(float64(k)) / b) }
	z := 0.0
	for k := -w; k <= w; k++ {
		z += mass(k)
	}
	var delta, mu, alpha, beta float64 = 0, 0, 1, 0 // tests "output > k": α under Y = 0, β under X = shift
	for k := -w; k <= w+shift; k++ {
		p, q := mass(k-shift)/z, mass(k)/z
		delta += math.Max(0, p-math.Exp(eps)*q)
		alpha, beta = alpha-q, beta+p
		if alpha > 1e-12 && beta > 1e-12 {
			mu = math.Max(mu, normalQuantile(1-alpha)-normalQuantile(beta))
		}
	}
	require.InDelta(t, 0.2212, delta, 1e-4)

	m := dptest.Discrete(mechanisms.DiscreteLaplace{B: b, Sensitivity: shift}.Sample).WithPairs(fixtures.Pair[int64]{X: shift, Y: 0})
	o := []dptest.Option{dptest.Samples(200_000)}
	for i, c := range []struct {
		audit func(claim float64, seed uint64) (dptest.Report, error)
		truth float64
	}{
		{func(d float64, seed uint64) (dptest.Report, error) {
			return dptest.AuditApproxDP(m, eps, d, append(o, dptest.Seed(seed))...)
		}, delta},
		{func(mu float64, seed uint64) (dptest.Report, error) {
			return dptest.AuditGDP(m, mu, append(o, dptest.Seed(seed))...)
		}, mu},
	} {
		rep, err := c.audit(c.truth, uint64(20+2*i))
		require.NoError(t, err)
		require.False(t, (rep.Verdict == dptest.Violated), "%s", rep)
		require.Greater(t, rep.LowerBound, 0.9*c.truth, "%s", rep)
		rep, err = c.audit(c.truth/1.5, uint64(21+2*i))
		require.NoError(t, err)
		require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
	}
}

func TestApproxDPAndGDPBadInput(t *testing.T) {
	m := dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample)
	for _, c := range []struct {
		audit   func() error
		require func(*recorder)
		want    string
	}{
		{func() error { _, err := dptest.AuditApproxDP(m, -1, 0.1); return err },
			func(rt *recorder) { dptest.RequireApproxDP(rt, m, -1, 0.1) }, "dptest: ε must be ≥ 0, got -1"},
		{func() error { _, err := dptest.AuditApproxDP(m, 1, 1); return err },
			func(rt *recorder) { dptest.RequireApproxDP(rt, m, 1, 1) }, "dptest: δ must lie in [0, 1), got 1"},
		{func() error { _, err := dptest.AuditApproxDP(m, 1, math.NaN()); return err },
			func(rt *recorder) { dptest.CheckApproxDP(rt, m, 1, math.NaN()) }, "dptest: δ must lie in [0, 1), got NaN"},
		{func() error { _, err := dptest.AuditApproxDP(m, 1, 0.1, dptest.Region(0, 1)); return err },
			func(rt *recorder) { dptest.RequireApproxDP(rt, m, 1, 0.1, dptest.Region(0, 1)) }, "Region does not apply to an (ε, δ)-DP claim"},
		{func() error { _, err := dptest.AuditGDP(m, -0.5); return err },
			func(rt *recorder) { dptest.RequireGDP(rt, m, -0.5) }, "dptest: μ must be ≥ 0, got -0.5"},
		{func() error { _, err := dptest.AuditGDP(m, math.Inf(1)); return err },
			func(rt *recorder) { dptest.CheckGDP(rt, m, math.Inf(1)) }, "dptest: μ = +Inf claims nothing"},
		{func() error { _, err := dptest.AuditGDP(dptest.Mechanism[[]float64]{}, 1); return err },
			func(rt *recorder) { dptest.RequireGDP(rt, dptest.Mechanism[[]float64]{}, 1) }, "zero Mechanism"},
	} {
		require.ErrorContains(t, c.audit(), c.want)
		r := run("TestBadClaim", func(rt *recorder) { c.require(rt) })
		require.True(t, len(r.errors) > 0, c.want)
		require.Contains(t, r.text(), c.want)
	}
}

// The verdict and every number in the report replay whatever GOMAXPROCS.
func TestApproxDPReproducibleAcrossGOMAXPROCS(t *testing.T) {
	m := dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample)
	audit := func() dptest.Report {
		rep, err := dptest.AuditApproxDP(m, 0.5, 0.3, dptest.Samples(20_000), dptest.Candidates(3), dptest.Seed(15))
		require.NoError(t, err)
		rep.Elapsed = 0
		return rep
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one := audit()
	runtime.GOMAXPROCS(2)
	require.Equal(t, one, audit())
}

// A violation that no event of this many draws can show is not passed:
// an output only X produces, with probability 3δ, at ε = 5 (where even a
// count of 0 on Y leaves Q(E) ≤ 5.6·10⁻⁶, e⁵ times that 8.4·10⁻⁴ > δ).
func TestApproxDPAtALargeEpsilonIsNotPassedSilently(t *testing.T) {
	t.Parallel()
	m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		if s >= 1 && r.Float64() < 1.5e-3 {
			return 100
		}
		return s + mechanisms.Laplace{B: 1.0 / 3}.Sample(r, []float64{0})
	})
	rep, err := dptest.AuditApproxDP(m, 5, 5e-4, dptest.Seed(16))
	if err == nil {
		require.True(t, (rep.Verdict == dptest.Violated), "a violation of 3δ passed: %s", rep)
	} else {
		require.ErrorIs(t, err, dptest.ErrInconclusive)
	}
	// At ε = 13 no draws of a million can show any δ: inconclusive.
	_, err = dptest.AuditApproxDP(dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample), 13, 1e-3, dptest.Seed(17), dptest.Candidates(2))
	require.ErrorIs(t, err, dptest.ErrInconclusive)
	var beyond *dptest.ClaimBeyondReach
	require.ErrorAs(t, err, &beyond, "no event of these draws can show any δ")
	require.ErrorIs(t, err, dptest.ErrUnresolved)
}

// uniqueOutputsOfEach returns "A" in 97% of draws and otherwise a value
// never drawn before, marked with its dataset's side (x₀ ≥ ½ or not): 3%
// of each dataset's draws are outputs the other never produces.
func uniqueOutputsOfEach() dptest.Mechanism[[]float64] {
	return dptest.Discrete(func(r *rand.Rand, x []float64) string {
		if r.Float64() < 0.97 {
			return "A"
		}
		side := "y"
		if x[0] >= 0.5 {
			side = "x"
		}
		return fmt.Sprintf("%s-%d", side, r.Uint64())
	})
}

// Outputs the screening never saw: 3% of draws are values unique to
// their dataset (never repeated), so H_{e^1} = 0.03 on the event of X's;
// no table of values can tell them apart, and a claim of δ = 0.01 must
// not pass.
func TestApproxDPOnOutputsNeverSeenTwice(t *testing.T) {
	t.Parallel()
	m := uniqueOutputsOfEach()
	pair := dptest.Pairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	rep, err := dptest.AuditApproxDP(m, 1, 0.01, dptest.Samples(200_000), pair, dptest.Seed(18))
	requireUnseenUniques(t, rep, err)
}

// requireUnseenUniques requires the audit of uniqueOutputsOfEach to end
// suspect on the values its screening never saw: 3% of a side's
// draws, every one of them beyond the other side's draws of that value.
func requireUnseenUniques(t *testing.T, rep dptest.Report, err error) {
	t.Helper()
	require.ErrorIs(t, err, dptest.ErrSuspect, "%s", rep)
	require.Equal(t, dptest.Suspect, rep.Verdict)
	var why *dptest.UnmatchedValues
	require.ErrorAs(t, err, &why)
	require.InDelta(t, 0.03, why.Share, 0.003)
	require.Equal(t, why.Share, why.Unmatched, "no unseen value was drawn by both datasets")
}

// A very private mechanism claimed at a larger μ passes with a finite
// resolution; (ε, 0) is pure DP, reported as such, Region applying.
func TestGDPOfAVeryPrivateMechanismAndApproxDPAtDeltaZero(t *testing.T) {
	t.Parallel()
	rep, err := dptest.AuditGDP(dptest.Continuous(mechanisms.Gaussian{Sigma: 40}.Sample), 0.5, opts(dptest.Seed(19))...)
	require.NoError(t, err)
	require.False(t, (rep.Verdict == dptest.Violated))
	require.Less(t, rep.Resolution, 0.75)

	lap := dptest.Continuous(mechanisms.Laplace{B: 2}.Sample)
	rep, err = dptest.AuditApproxDP(lap, 0.5, 0, opts(dptest.Seed(20), dptest.Region(-3, 4))...)
	require.NoError(t, err)
	require.Equal(t, "DP", rep.Claim.Kind)
	require.Equal(t, 0.5, rep.Claim.Value)
	require.False(t, (rep.Verdict == dptest.Violated), "%s", rep)
}

// Once in 200 draws, the output of one dataset alone is confirmed on its
// own, never under the other dataset: its μ may be infinite, but a
// million draws per side bound it only to about 1.8, and no count of them
// sets it an upper limit. The GDP audit of μ = 2 is inconclusive, says so
// without an infinite resolution, and names the draws whose expected
// counts would show it (about 2.5 million per side, where about half the
// audits would; 3 million do, with this seed).
func TestGDPInconclusiveOnAnOutputOfOneDatasetAlone(t *testing.T) {
	t.Parallel()
	m := gaussianWithAtomOfX(200)
	rep, err := dptest.AuditGDP(m, 2, dptest.Seed(1), dptest.Candidates(0), dptest.Samples(1_000_000))
	var why *dptest.OneSidedEvent
	require.ErrorAs(t, err, &why, "%s", rep)
	require.Equal(t, dptest.Suspect, rep.Verdict)
	require.InEpsilon(t, 2_500_000, why.DrawsNeeded, 0.1)
	require.Empty(t, rep.Details.Unvarying, "the confirmations saw the output")
	require.NotContains(t, err.Error(), "Inf")
	if testing.Short() {
		return
	}
	rep, err = dptest.AuditGDP(m, 2, dptest.Seed(1), dptest.Candidates(0), dptest.Samples(3_000_000))
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated), "%s", rep)
}

// A Gaussian-DP claim beyond what any event of the draws can show (μ = 9
// at 10⁵ draws per side, about 2·Φ⁻¹(1 − 10⁻⁴)) is inconclusive, and says
// so rather than printing an infinite resolution.
func TestGDPClaimBeyondTheDraws(t *testing.T) {
	t.Parallel()
	_, err := dptest.AuditGDP(dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample), 9, dptest.Seed(1), dptest.Samples(100_000))
	var why *dptest.ClaimBeyondReach
	require.ErrorAs(t, err, &why)
	require.ErrorIs(t, err, dptest.ErrUnresolved)
	require.Equal(t, 9.0, why.Claim)
	require.LessOrEqual(t, why.Samples, 100_000, "the first look predicts the planned size cannot reach it")
	require.Greater(t, why.DrawsNeeded, 100_000.0)
	require.False(t, math.IsInf(why.DrawsNeeded, 1))
	require.NotContains(t, err.Error(), "Inf")

	// μ = 80: Φ(−40) lies below what a float64 holds.
	_, err = dptest.AuditGDP(dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample), 80, dptest.Seed(1), dptest.Samples(100_000))
	require.ErrorAs(t, err, &why)
	require.True(t, math.IsInf(why.DrawsNeeded, 1), "no sample size can show a violation of μ = 80")
	require.NotContains(t, err.Error(), "Inf")
}

// μ is a supremum over tests of every level. Noise whose spread depends
// on the dataset (1.25·N(0, 1) on X, N(0, 1) on Y) has no finite μ: the
// level of its tests grows without bound in the tails (0.84 at level
// 6·10⁻⁵, 1.03 at 6·10⁻⁷), beyond what the draws reach, so a μ = 1 claim
// passes; its trade-off curve says down to which level it looked (a
// larger μ in rarer tests is not shown).
func TestGDPPassSaysHowDeepItLooked(t *testing.T) {
	spread := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		return (1 + 0.25*x[0]) * r.NormFloat64()
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	rep, err := dptest.AuditGDP(spread, 1, dptest.Samples(200_000), dptest.Candidates(0), dptest.Seed(1))
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
	require.LessOrEqual(t, rep.Resolution, dptest.ResolutionFactor*1)
	// The least level among the tests confirmed: how deep in the tails
	// the pass looked.
	least := math.Inf(1)
	for _, p := range rep.Details.TradeOff {
		if p.Level > 0 {
			least = min(least, p.Level)
		}
	}
	require.GreaterOrEqual(t, least, 1e-4, "its tests reach levels of 10⁻⁴ at least")
	require.Less(t, least, 0.1, "its tests reach levels under 0.1")
}
