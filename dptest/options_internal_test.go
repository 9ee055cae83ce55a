package dptest

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// setFlags sets the flag values for one test and restores them after.
func setFlags(t *testing.T, f func()) {
	saved := flags
	t.Cleanup(func() { flags = saved })
	f()
}

func TestResolvePrecedence(t *testing.T) {
	setFlags(t, func() {
		flags.samples, flags.seed, flags.confidence, flags.candidates = 50_000, "123", 0.99, 7
	})
	c := resolve(nil)
	require.Equal(t, 50_000, c.samples)
	require.Equal(t, uint64(123), c.seed)
	require.True(t, c.seedSet)
	require.Equal(t, 0.99, c.confidence)
	require.Equal(t, 7, c.candidates)
	require.False(t, c.short)
	// Explicit options win over flags.
	c = resolve([]Option{Samples(2000), Seed(9), Confidence(0.9), Candidates(0)})
	require.Equal(t, 2000, c.samples)
	require.Equal(t, uint64(9), c.seed)
	require.Equal(t, 0.9, c.confidence)
	require.Equal(t, 0, c.candidates)
}

func TestResolveDefaults(t *testing.T) {
	setFlags(t, func() { flags.samples, flags.seed, flags.confidence, flags.candidates = 0, "", 0, 0 })
	c := resolve(nil)
	if testing.Short() {
		require.Equal(t, ShortSamples, c.samples)
		require.True(t, c.short)
	} else {
		require.Equal(t, DefaultSamples, c.samples)
		require.Equal(t, DefaultCandidates, c.candidates)
		require.False(t, c.short)
	}
	require.Equal(t, DefaultConfidence, c.confidence)
	require.False(t, c.seedSet)
}

func TestRandomSeedAndBadFlags(t *testing.T) {
	setFlags(t, func() { flags.seed = "random" })
	a, b := resolve(nil), resolve(nil)
	require.True(t, a.seedSet)
	require.NotEqual(t, a.seed, b.seed)

	flags.seed = "twelve"
	require.PanicsWithValue(t, `dptest: -dptest.seed must be a number or random, got "twelve"`, func() { resolve(nil) })
	flags.seed = ""
	flags.samples = 10
	require.PanicsWithValue(t, "dptest: -dptest.samples must be at least 1000, got 10", func() { resolve(nil) })
	flags.samples = 0
	flags.confidence = 2
	require.PanicsWithValue(t, "dptest: confidence must lie in (0, 1), got 2", func() { resolve(nil) })
}

func TestEnvParsing(t *testing.T) {
	t.Setenv("DPTEST_SAMPLES", "12345")
	t.Setenv("DPTEST_CONFIDENCE", "0.999")
	t.Setenv("DPTEST_V", "true")
	require.Equal(t, 12345, envInt("DPTEST_SAMPLES"))
	require.Equal(t, 0.999, envFloat("DPTEST_CONFIDENCE"))
	require.True(t, envBool("DPTEST_V"))
	t.Setenv("DPTEST_SAMPLES", "many")
	require.PanicsWithValue(t, `dptest: invalid DPTEST_SAMPLES="many": strconv.Atoi: parsing "many": invalid syntax`, func() { envInt("DPTEST_SAMPLES") })
}
