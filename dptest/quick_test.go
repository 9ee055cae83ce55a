package dptest_test

import (
	"math"
	"testing"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/mechanisms"
	"github.com/stretchr/testify/require"
)

// With Quick, at the default size, an audit decides a claim with room to
// spare, and a clear violation, at its quick look: a few screenings at an eighth of
// their size and confirmations on a fortieth of the planned draws. A claim
// at the truth is screened and confirmed in full. (Fixed seeds: each
// verdict below is the likely one by a wide margin. The default size is
// set, as -short has no quick look.)
func TestQuickLookDecidesClearClaims(t *testing.T) {
	t.Parallel()
	lap := mechanisms.Laplace{B: 1}
	m := dptest.Continuous(lap.Sample)
	truth := lap.RDP(2)
	held, err := dptest.AuditRDP(m, 2, 2*truth, dptest.Seed(5), dptest.Quick(), dptest.Samples(dptest.DefaultSamples))
	require.NoError(t, err)
	require.True(t, held.Details.QuickLook && !held.Details.EarlyLook, "%s", held)
	require.Equal(t, dptest.Holds, held.Verdict, "%s", held)
	require.Equal(t, 25_000, held.Details.Samples)
	require.Less(t, held.Calls, int64(2_500_000), "%s", held)
	require.Equal(t, 12_500, held.Details.Settings.QuickScreeningSamples)
	// Held with margin: every confirmation's upper bound, its estimate
	// plus Φ⁻¹(0.99) standard errors, under 80% of the claim.
	require.NotEmpty(t, held.Details.Confirmations)
	z := -math.Sqrt2 * math.Erfcinv(2*0.99)
	for _, c := range held.Details.Confirmations {
		for i := range c.Estimates {
			require.LessOrEqual(t, c.Estimates[i]+z*c.StdErrs[i], 0.8*2*truth, "%+v", c)
		}
	}
	// α = 10⁻⁴ split: 5% at the quick look, then plan.LookShare of the
	// rest at each look before the planned one, which spends the rest,
	// over 2 candidates.
	run := held.Details.Settings.Runs[0]
	looks := float64(len(held.Details.Settings.Looks))
	require.InDelta(t, math.Sqrt(0.05e-4/2), run.QuickPerConfirmation, 1e-12)
	require.InDelta(t, math.Sqrt(0.95*0.05e-4/2), run.LookPerConfirmation, 1e-12)
	require.InDelta(t, math.Sqrt(0.95*(1-0.05*looks)*1e-4/2), run.PerConfirmation, 1e-12)
	require.InDelta(t, run.QuickPerConfirmation, held.Details.PerConfirmation, 1e-12, "decided at the quick look's level")
	full, err := dptest.AuditRDP(m, 2, 2*truth, dptest.Seed(5), dptest.Samples(dptest.DefaultSamples))
	require.NoError(t, err)
	require.False(t, full.Details.QuickLook || full.Details.Settings.QuickSamples > 0, "no quick look without the option: %s", full)

	violated, err := dptest.AuditRDP(m, 2, truth/2, dptest.Seed(5), dptest.Quick(), dptest.Samples(dptest.DefaultSamples))
	require.NoError(t, err)
	require.True(t, violated.Details.QuickLook, "%s", violated)
	require.Equal(t, dptest.Violated, violated.Verdict, "%s", violated)
	require.Greater(t, violated.LowerBound, truth/2)
	// Screened on an eighth of the screening's draws, confirmed on a
	// fortieth of the planned confirmation's.
	require.Equal(t, violated.Details.Settings.ScreeningSamples, 8*violated.Details.Settings.QuickScreeningSamples)
	require.Equal(t, violated.Details.Settings.Samples, 40*violated.Details.Samples)

	atTruth, err := dptest.AuditRDP(m, 2, truth, dptest.Seed(5), dptest.Quick(), dptest.Samples(dptest.DefaultSamples))
	require.NoError(t, err)
	require.False(t, atTruth.Details.QuickLook || (atTruth.Verdict == dptest.Violated), "%s", atTruth)
	require.LessOrEqual(t, atTruth.Details.Samples, 1_000_000, "decided at a look or the planned size")
}
