package dptest_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/mechanisms"
)

// A default audit of a claim with room holds at an early look; Nightly
// runs to the planned confirmation on every candidate's full screening,
// and ends with the same verdict. Fixed seed; a correct claim, so either
// fails with probability at most 10⁻⁴.
func TestNightlyRunsToThePlannedLook(t *testing.T) {
	g := mechanisms.Gaussian{Sigma: 1}
	m := dptest.Continuous(g.Sample)
	n := dptest.Samples(200_000)
	quick, err := dptest.AuditRDP(m, 2, 2*g.RDP(2), n, dptest.Seed(1))
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, quick.Verdict, "%s", quick)
	require.True(t, quick.Details.EarlyLook, "%s", quick)
	require.Less(t, quick.Details.Samples, 200_000)

	deep, err := dptest.AuditRDP(m, 2, 2*g.RDP(2), n, dptest.Seed(1), dptest.Nightly())
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, deep.Verdict, "%s", deep)
	require.False(t, deep.Details.EarlyLook, "%s", deep)
	require.Equal(t, 200_000, deep.Details.Samples)
	require.Greater(t, deep.Calls, quick.Calls, "full depth costs more")

	// A violation still ends a nightly audit at the look that shows it.
	bad, err := dptest.AuditRDP(m, 2, g.RDP(2)/2, n, dptest.Seed(1), dptest.Nightly())
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, bad.Verdict, "%s", bad)
}

// Resolution(f) makes an early look hold only at a resolution of f times
// the claim: the audit spends more draws for a tighter pass. A factor
// outside (1, ResolutionFactor] is refused.
func TestResolutionAsksForATighterPass(t *testing.T) {
	t.Parallel()
	g := mechanisms.Gaussian{Sigma: 1}
	m := dptest.Continuous(g.Sample)
	n := dptest.Samples(200_000)
	loose, err := dptest.AuditRDP(m, 2, 1.25*g.RDP(2), n, dptest.Seed(2))
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, loose.Verdict, "%s", loose)
	tight, err := dptest.AuditRDP(m, 2, 1.25*g.RDP(2), n, dptest.Seed(2), dptest.Resolution(1.1))
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, tight.Verdict, "%s", tight)
	require.GreaterOrEqual(t, tight.Details.Samples, loose.Details.Samples)
	if tight.Details.EarlyLook {
		require.LessOrEqual(t, tight.Resolution, 1.1*1.25*g.RDP(2), "%s", tight)
	}
	require.Less(t, tight.Resolution, loose.Resolution)

	for _, f := range []float64{1, 0.5, 2} {
		_, err := dptest.AuditRDP(m, 2, 1, dptest.Resolution(f))
		require.EqualError(t, err, "dptest: Resolution needs a factor in (1, 1.5], got "+fmt.Sprint(f))
	}
}

// A claim 20% under the truth is below the default resolution, but a
// confirmed estimate a standard error above the claim is a sign of a
// violation: no early look holds on it, and the planned look confirms
// it. Fixed seeds; detected at each.
func TestNoEarlyHoldOnASign(t *testing.T) {
	t.Parallel()
	g := mechanisms.Gaussian{Sigma: 5}
	for _, seed := range []uint64{1, 2, 3} {
		rep, err := dptest.AuditRDP(dptest.Continuous(g.Sample), 2, 0.8*g.RDP(2), dptest.Seed(seed))
		require.NoError(t, err)
		require.Equal(t, dptest.Violated, rep.Verdict, "seed %d: %s", seed, rep)
	}
}
