package mechanisms

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// Golden values from TensorFlow Privacy's rdp_accountant_test
// (test_compute_rdp_sequence: 50 steps at q = 0.01, σ = 2.5; and
// test_compute_rdp_from_ledger-style single value q = 0.1, σ = 2, 10 steps,
// order 5), divided by the number of steps for one step.
func TestSampledGaussianRDPGolden(t *testing.T) {
	orders := []float64{1.5, 2.5, 5, 50, 100}
	want := []float64{6.5007e-04, 1.0854e-03, 2.1808e-03, 2.3846e-02, 1.6742e+02}
	for i, o := range orders {
		require.InEpsilon(t, want[i], 50*SampledGaussianRDP(0.01, 2.5, o), 1e-4, "order %v", o)
	}
	require.InEpsilon(t, 0.07737, 10*SampledGaussianRDP(0.1, 2, 5), 1e-4)
	require.True(t, math.IsInf(SampledGaussianRDP(0.01, 2.5, math.Inf(1)), 1))
}

// sampledGaussianByQuadrature integrates D_λ((1−q)N(0,σ²)+qN(1,σ²) ‖ N(0,σ²))
// directly; the log-ratio is log((1−q) + q·exp((2t−1)/(2σ²))).
func sampledGaussianByQuadrature(q, sigma, lambda float64) float64 {
	logq := func(t float64) float64 { return logNormalPDF(t, 0, sigma) }
	logp := func(t float64) float64 {
		return logq(t) + math.Log((1-q)+q*math.Exp((2*t-1)/(2*sigma*sigma)))
	}
	// The integrand p^λ q^{1−λ} peaks near t ≈ λ for large λ; cover it.
	hi := math.Max(40*sigma, lambda+40*sigma)
	return renyiByQuadrature(logp, logq, lambda, linspace(-40*sigma, hi, 9))
}

func TestSampledGaussianRDPMatchesQuadrature(t *testing.T) {
	cases := []struct{ q, sigma float64 }{{0.01, 2.5}, {0.1, 2}, {0.5, 5}, {0.5, 1}, {0.9, 0.8}}
	for _, c := range cases {
		for _, l := range []float64{1.25, 1.5, 2, 2.5, 3.7, 5, 7, 12.3, 50} {
			want := sampledGaussianByQuadrature(c.q, c.sigma, l)
			got := SampledGaussianRDP(c.q, c.sigma, l)
			require.InEpsilon(t, want, got, 1e-7, "q=%v σ=%v λ=%v", c.q, c.sigma, l)
		}
	}
}

func TestSampledGaussianRDPSpecialCases(t *testing.T) {
	require.Equal(t, 0.0, SampledGaussianRDP(0, 2, 5))
	require.Equal(t, 5/(2*4.0), SampledGaussianRDP(1, 2, 5))
	// Integer and fractional paths agree across an integer order.
	a := SampledGaussianRDP(0.3, 1.5, 4)
	b := SampledGaussianRDP(0.3, 1.5, 4+1e-9)
	require.InEpsilon(t, a, b, 1e-7)
	// Monotone in λ and below the unsampled Gaussian.
	prev := 0.0
	for _, l := range []float64{1.1, 1.5, 2, 3, 4.5, 8, 16} {
		v := SampledGaussianRDP(0.2, 2, l)
		require.Greater(t, v, prev)
		require.Less(t, v, l/(2*4.0))
		prev = v
	}
}

func TestSampledGaussianRDPBound(t *testing.T) {
	eps, ok := SampledGaussianRDPBound(0.01, 5, 10)
	require.True(t, ok)
	require.Equal(t, 2*0.01*0.01*10/25, eps)
	// Where the bound applies it bounds the exact value.
	for _, c := range []struct{ q, sigma float64 }{{0.01, 4}, {0.05, 8}, {0.2, 10}} {
		for _, l := range []float64{1.5, 2, 4, 8, 16, 32, 64} {
			eps, ok := SampledGaussianRDPBound(c.q, c.sigma, l)
			if ok {
				require.LessOrEqual(t, SampledGaussianRDP(c.q, c.sigma, l), eps, "q=%v σ=%v λ=%v", c.q, c.sigma, l)
			}
		}
	}
	_, ok = SampledGaussianRDPBound(0.3, 5, 2) // q > 1/5
	require.False(t, ok)
	_, ok = SampledGaussianRDPBound(0.01, 3, 2) // σ < 4
	require.False(t, ok)
	_, ok = SampledGaussianRDPBound(0.01, 4, 1000) // λ too large
	require.False(t, ok)
}

func TestSampledGaussianBadArguments(t *testing.T) {
	require.PanicsWithValue(t, "mechanisms: sampling rate q must lie in [0, 1]", func() { SampledGaussianRDP(1.5, 1, 2) })
	require.PanicsWithValue(t, "mechanisms: SampledGaussianRDP.sigma must be positive and finite, got 0", func() { SampledGaussianRDP(0.5, 0, 2) })
	require.PanicsWithValue(t, "mechanisms: order λ must be > 1, got 0.5", func() { SampledGaussianRDP(0.5, 1, 0.5) })
	require.PanicsWithValue(t, "mechanisms: sampling rate q must lie in [0, 1]", func() { SampledGaussianRDPBound(math.NaN(), 1, 2) })
}
