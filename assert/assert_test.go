package assert_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/assert"
	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/mechanisms"
)

// recorder has Errorf and Logf only: the assertions must need nothing
// else (no FailNow, no Helper).
type recorder struct{ errors, logs []string }

func (r *recorder) Errorf(f string, a ...any) { r.errors = append(r.errors, fmt.Sprintf(f, a...)) }
func (r *recorder) Logf(f string, a ...any)   { r.logs = append(r.logs, fmt.Sprintf(f, a...)) }

// errorsOnly has nothing but Errorf.
type errorsOnly struct{ n int }

func (e *errorsOnly) Errorf(string, ...any) { e.n++ }

var fast = []dptest.Option{dptest.Samples(100_000), dptest.Candidates(3)}

// Audits run at the default confidence 1 − 10⁻⁴ from seeds fixed by the
// claims, so each false failure has probability at most 10⁻⁴ and a given
// build passes or fails deterministically.
func TestRDPIsNonFatal(t *testing.T) {
	g := mechanisms.Gaussian{Sigma: 2}
	r := &recorder{}
	require.True(t, assert.RDP(r, dptest.Continuous(g.Sample), 2, g.RDP(2), fast...))
	require.Empty(t, r.errors)
	require.NotEmpty(t, r.logs, "the holds line (and, the binary's first time, the default domain's hint)")
	r = &recorder{}
	require.False(t, assert.RDP(r, dptest.Continuous(g.Sample), 2, g.RDP(2)/2, fast...))
	require.Len(t, r.errors, 1)
	require.Contains(t, r.errors[0], "(λ=2, ε=0.125)-RDP violated at 99.99% confidence")
	require.Contains(t, r.errors[0], "To reproduce: dptest.Seed(")
	e := &errorsOnly{}
	require.False(t, assert.RDP(e, dptest.Continuous(g.Sample), 2, g.RDP(2)/2, fast...))
	require.Equal(t, 1, e.n)
}

func normalSamples(seed uint64, n int, mu float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]float64, n)
	for i := range out {
		out[i] = mu + r.NormFloat64()
	}
	return out
}

func TestDPIsNonFatal(t *testing.T) {
	lap := mechanisms.Laplace{B: 2}
	r := &recorder{}
	require.True(t, assert.DP(r, dptest.Continuous(lap.Sample), 0.5, fast...))
	require.Empty(t, r.errors)
	require.False(t, assert.DP(r, dptest.Continuous(lap.Sample), 0.3, fast...))
	require.Len(t, r.errors, 1)
	require.Contains(t, r.errors[0], "ε=0.3 pure DP violated at 99.99% confidence")
}

// N(1,1) against N(0,1): D₂ = 1.
func TestRDPSamples(t *testing.T) {
	xs, ys := normalSamples(1, 200_000, 1), normalSamples(2, 200_000, 0)
	r := &recorder{}
	require.True(t, assert.RDPSamples(r, xs, ys, 2, 1))
	require.Empty(t, r.errors)
	require.Len(t, r.logs, 1, "a holds line")
	require.False(t, assert.RDPSamples(r, xs, ys, 2, 0.8))
	require.Contains(t, r.errors[0], "(λ=2, ε=0.8)-RDP violated by the samples at 99.99% confidence")
	require.Contains(t, r.errors[0], "200,000 and 200,000 samples")
	require.Contains(t, r.errors[0], "To reproduce: run the check again on the same samples")

	bad := append([]float64(nil), xs...)
	bad[3] = math.NaN()
	r = &recorder{}
	require.False(t, assert.RDPSamples(r, bad, ys, 2, 1))
	require.True(t, strings.HasPrefix(r.errors[0], "[dptest] (λ=2, ε=1)-RDP could not be checked on the samples: first sample, value 3: output NaN: real outputs must be finite"), r.errors[0])
	r = &recorder{}
	require.False(t, assert.RDPSamples(r, xs[:10], ys, 2, 1))
	require.Contains(t, r.errors[0], "at least 1000 values")
}

func TestRDPSamplesDiscrete(t *testing.T) {
	rr := mechanisms.RandomizedResponse{Eps0: 1, M: 2}
	rnd := rand.New(rand.NewPCG(3, 4))
	xs, ys := make([]uint64, 100_000), make([]uint64, 100_000)
	for i := range xs {
		xs[i] = rr.Sample(rnd, []float64{1, 0})
		ys[i] = rr.Sample(rnd, []float64{0, 0})
	}
	r := &recorder{}
	require.True(t, assert.RDPSamplesDiscrete(r, xs, ys, 3, rr.RDP(3)))
	require.False(t, assert.RDPSamplesDiscrete(r, xs, ys, 3, rr.RDP(3)/2))
	require.Len(t, r.errors, 1)
}

// The (ε, δ)-DP and Gaussian-DP twins report a violation with Errorf and
// return false; a claim that holds logs one line.
func TestApproxDPAndGDPAreNonFatal(t *testing.T) {
	g := mechanisms.Gaussian{Sigma: 0.5}
	m := dptest.Continuous(g.Sample)
	r := &recorder{}
	require.True(t, assert.GDP(r, m, 2, fast...))
	require.Empty(t, r.errors)
	require.Len(t, r.logs, 1)
	require.False(t, assert.GDP(r, m, 1, fast...))
	require.Len(t, r.errors, 1)
	require.Contains(t, r.errors[0], "μ=1 Gaussian DP violated at 99.99% confidence")
	e := &errorsOnly{}
	require.False(t, assert.ApproxDP(e, m, 1, 0.2, fast...)) // its δ(1) is 0.51
	require.Equal(t, 1, e.n)
}
