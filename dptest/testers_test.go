package dptest_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/mechanisms"
)

// meanPair is [KMRS24]'s add/remove pair of one record, x = (1),
// x′ = (1, 0).
var meanPair = fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{1, 0}}

func testerOpts(n int, seed uint64, ts ...dptest.Tester) []dptest.Option {
	return []dptest.Option{dptest.Pairs(meanPair), dptest.Candidates(0), dptest.Samples(n), dptest.Seed(seed), dptest.Testers(ts...)}
}

// DP-Auditorium's testers find NonDPGaussian1's violation of (1, 0.01)-DP
// on x = (1), x′ = (1, 0) (true δ(1) = 0.199, internal/experiments/table1)
// at 200,000 draws per side, each alone and together; the report names the
// tester. Fixed seeds; a tester misses a violation 0.19 above its
// tolerance with probability far below 10⁻⁴.
func TestTestersFindAViolation(t *testing.T) {
	t.Parallel()
	m := dptest.Continuous(mechanisms.NonDPGaussian1{Eps: 1, Delta: 0.01}.Sample)
	for _, tc := range []struct {
		ts   []dptest.Tester
		name string
	}{
		{[]dptest.Tester{dptest.Histogram(100)}, "histogram"},
		{[]dptest.Tester{dptest.Classifier()}, "classifier"},
		{[]dptest.Tester{dptest.Classifier(), dptest.Histogram(50)}, "classifier"},
	} {
		rep, err := dptest.AuditApproxDP(m, 1, 0.01, testerOpts(200_000, 1, tc.ts...)...)
		require.NoError(t, err, "%v", tc.ts)
		require.True(t, (rep.Verdict == dptest.Violated), "%v", tc.ts)
		require.Equal(t, tc.name, rep.Details.Tester)
		require.Greater(t, rep.LowerBound, 0.01)
		require.Less(t, rep.LowerBound, 0.199+0.01, "a bound above the truth")
	}
	// The MMD tester sees NonDPLaplace1's noise of two widths at ε = 0.01
	// against pure DP (δ = 0); its bound is on δ(0.01), whose truth on this
	// pair is 0.247 (table1's quadrature).
	m = dptest.Continuous(mechanisms.NonDPLaplace1{Eps: 0.01}.Sample)
	rep, err := dptest.AuditDP(m, 0.01, testerOpts(200_000, 1, dptest.MMD())...)
	require.NoError(t, err)
	require.True(t, (rep.Verdict == dptest.Violated))
	require.Equal(t, "MMD", rep.Details.Tester)
	require.Less(t, rep.LowerBound, 0.2475)
}

// A mechanism that meets its claim is not failed by the testers, and
// testers alone never pass it: each bounds its own statistic only, so
// without a violation the audit ends unresolved, at δ = 0 and δ > 0
// alike; beside Own they are cross-checks, and Own's criteria pass it
// (Own's runs first, whatever the order given).
func TestTestersOnACorrectMechanism(t *testing.T) {
	t.Parallel()
	lap := dptest.Continuous(mechanisms.Laplace{B: 1}.Sample)
	one := []dptest.Option{dptest.Pairs(fixtures.Pair[[]float64]{X: []float64{0}, Y: []float64{1}}), dptest.Candidates(0), dptest.Samples(200_000), dptest.Seed(2)}
	rep, err := dptest.AuditDP(lap, 1, append(one, dptest.Testers(dptest.Classifier()))...)
	requireTesterCannotHold(t, rep, err, "classifier", 1)
	rep, err = dptest.AuditDP(lap, 1, append(one, dptest.Testers(dptest.Classifier(), dptest.Histogram(100), dptest.Own()))...)
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
	require.Equal(t, "DP", rep.Claim.Kind, "Own's local run is the audit's report")
	require.Len(t, rep.Details.CrossChecks, 4, "the local run's two cross-checks and the two testers")
	require.Equal(t, "classifier", rep.Details.CrossChecks[2].Details.Tester)
	require.Equal(t, "histogram", rep.Details.CrossChecks[3].Details.Tester)
	// Laplace(1) at 0 and 1: δ(0.5) = 1 − e^{(0.5−1)/2} = 0.2212. Claimed
	// at 0.3 it holds; the testers alone find no violation and do not pass
	// it; MMD, blind at this ε to any violation, neither.
	for _, tc := range []struct {
		tr   dptest.Tester
		name string
	}{{dptest.Classifier(), "classifier"}, {dptest.MMD(), "MMD"}} {
		rep, err = dptest.AuditApproxDP(lap, 0.5, 0.3, append(one, dptest.Testers(tc.tr))...)
		requireTesterCannotHold(t, rep, err, tc.name, 0.5)
		require.Less(t, rep.LowerBound, 1-math.Exp(-0.25))
	}
}

// requireTesterCannotHold requires an audit by one tester alone that
// found no violation to end unresolved, naming the tester: testers
// cannot show a claim holds.
func requireTesterCannotHold(t *testing.T, rep dptest.Report, err error, tester string, eps float64) {
	t.Helper()
	require.ErrorIs(t, err, dptest.ErrInconclusive, "%s", tester)
	require.ErrorIs(t, err, dptest.ErrUnresolved, "%s", tester)
	require.Equal(t, dptest.Unresolved, rep.Verdict, "%s: %s", tester, rep)
	var why *dptest.TesterCannotHold
	require.ErrorAs(t, err, &why, tester)
	require.Equal(t, tester, why.Tester)
	require.Equal(t, rep.Details.Samples, why.Samples, "the draws per side the tester ran")
	require.Positive(t, why.Samples)
	require.LessOrEqual(t, why.Samples, 200_000)
	require.Equal(t, eps, why.Eps)
}

// Bad tester options are errors of the audit.
func TestTestersErrors(t *testing.T) {
	m := dptest.Continuous(mechanisms.Laplace{B: 1}.Sample)
	for _, tc := range []struct {
		opt  dptest.Option
		want string
	}{
		{dptest.Testers(), "Testers needs at least one tester"},
		{dptest.Testers(dptest.Tester{}), "a zero Tester"},
		{dptest.Testers(dptest.Histogram(1)), "Histogram needs at least 2 bins, got 1"},
		{dptest.Testers(dptest.HistogramOver(1, 0, 10)), "HistogramOver needs finite lo < hi, got [1, 0]"},
		{dptest.Testers(dptest.Classifier(), dptest.Classifier()), "Classifier() given twice"},
	} {
		_, err := dptest.AuditDP(m, 1, tc.opt)
		require.ErrorContains(t, err, tc.want)
	}
	_, err := dptest.AuditRDP(m, 2, 1, dptest.Testers(dptest.Classifier()))
	require.ErrorContains(t, err, "dptest: Testers does not apply to an RDP claim")
	v := dptest.Vector(func(r *rand.Rand, x []float64) []float64 { return []float64{r.NormFloat64(), 0} })
	_, err = dptest.AuditDP(v, 1, dptest.Testers(dptest.Histogram(10)))
	require.ErrorContains(t, err, "the Histogram tester takes real or discrete outputs")
	_, err = dptest.AuditDP(v, 1, dptest.Testers(dptest.Classifier(), dptest.MMD()))
	require.ErrorContains(t, err, "the MMD tester takes real or discrete outputs")
	_, err = dptest.AuditDP(m, 1, dptest.Testers(dptest.MMD()), dptest.Testers(dptest.Classifier()))
	require.ErrorContains(t, err, "Testers given twice")
	_, err = dptest.AuditDP(m, 1, dptest.Testers(dptest.HistogramOver(0, 0, 10)))
	require.ErrorContains(t, err, "HistogramOver needs finite lo < hi, got [0, 0]")
	d := dptest.Discrete(mechanisms.ReportNoisyMax{Eps: 1}.Sample)
	_, err = dptest.AuditDP(d, 1, dptest.Testers(dptest.HistogramOver(0, 1, 10)))
	require.ErrorContains(t, err, "HistogramOver's range applies to real outputs; this mechanism's are discrete")
	_, err = dptest.AuditDP(m, 1, dptest.Testers(dptest.Classifier()), dptest.Region(-1, 1))
	require.ErrorContains(t, err, "Region and Floor set dptest's own local criterion")
	_, err = dptest.AuditDP(m, 1, dptest.Testers(dptest.Classifier(), dptest.Own()), dptest.Region(-1, 1), dptest.Samples(20_000))
	require.NotErrorIs(t, err, dptest.ErrInconclusive)
}
