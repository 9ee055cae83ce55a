package mechanisms

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dptest/dptest/internal/numeric"
	"github.com/stretchr/testify/require"
)

// discreteGaussianMasses are P(Z = k) for |k| ≤ reach, normalised by
// their own sum (index k + reach).
func discreteGaussianMasses(sigma float64, reach int) []float64 {
	mass, z := make([]float64, 2*reach+1), 0.0
	for i := range mass {
		k := float64(i - reach)
		mass[i] = math.Exp(-k * k / (2 * sigma * sigma))
		z += mass[i]
	}
	for i := range mass {
		mass[i] /= z
	}
	return mass
}

// The exact RDP is the summation of p(k)^λ·p(k−Δ)^{1−λ}; it is λΔ²/(2σ²)
// where (λ−1)Δ is an integer and below it between.
func TestDiscreteGaussianRDPMatchesSummation(t *testing.T) {
	for _, c := range []struct {
		sigma float64
		d     int
	}{{0.05, 1}, {0.5, 1}, {1, 1}, {2, 1}, {3, 2}} {
		m := DiscreteGaussian{Sigma: c.sigma, Sensitivity: c.d}
		// Log-masses, less ln θ(0) below: masses themselves underflow at
		// σ = 0.05 beyond |k| = 1.
		logMass := func(k int) float64 { return -float64(k*k) / (2 * c.sigma * c.sigma) }
		var all []float64
		for k := -60; k <= 60; k++ {
			all = append(all, logMass(k))
		}
		logZ := numeric.LogSumExp(all)
		for _, l := range []float64{1.25, 1.5, 2, 2.5, 5} {
			var logs []float64
			for k := -60; k <= 60; k++ {
				logs = append(logs, l*logMass(k)+(1-l)*logMass(k-c.d))
			}
			want := (numeric.LogSumExp(logs) - logZ) / (l - 1)
			require.InEpsilon(t, want, m.RDP(l), 1e-9, "σ=%v Δ=%v λ=%v", c.sigma, c.d, l)
			gaussian := l * float64(c.d*c.d) / (2 * c.sigma * c.sigma)
			switch whole := (l - 1) * float64(c.d); {
			case whole == math.Trunc(whole):
				require.InEpsilon(t, gaussian, m.RDP(l), 1e-12)
			case c.sigma <= 1: // the gap, about e^{−2π²σ²} relative, shows
				require.Less(t, m.RDP(l), gaussian)
			default:
				require.LessOrEqual(t, m.RDP(l), gaussian)
			}
		}
		require.True(t, math.IsInf(m.RDP(math.Inf(1)), 1))
	}
	// Near λ = 1 the divergence tends to the KL divergence Δ²/(2σ²), and
	// huge orders are the Gaussian's at an integer (λ−1)Δ, computed at
	// once; wide noise is the continuous Gaussian's.
	require.InEpsilon(t, 0.5, DiscreteGaussian{Sigma: 1, Sensitivity: 1}.RDP(1+1e-15), 1e-9)
	require.InEpsilon(t, 2.0, DiscreteGaussian{Sigma: 0.5, Sensitivity: 1}.RDP(1+1e-12), 1e-9)
	require.InEpsilon(t, 1e16/2, DiscreteGaussian{Sigma: 1, Sensitivity: 1}.RDP(1e16), 1e-12)
	require.InEpsilon(t, 1.5/(2*1e8), DiscreteGaussian{Sigma: 1e4, Sensitivity: 1}.RDP(1.5), 1e-12)
}

// The exact μ is the best threshold test's, summed here directly; at
// σ = ½ the test {M ≥ 1} against M(0): P = P(Z ≥ 0) = 0.8934, Q = P(Z ≥ 1)
// = 0.1066, Φ⁻¹(P) − Φ⁻¹(Q) = 2.4884 against the Gaussian's 2; it tends
// to Δ/σ for wide noise. δ(ε) is the summed hockey-stick divergence.
func TestDiscreteGaussianMuAndDelta(t *testing.T) {
	for _, sigma := range []float64{0.5, 1, 2} {
		m := DiscreteGaussian{Sigma: sigma, Sensitivity: 1}
		const reach = 40
		mass := discreteGaussianMasses(sigma, reach)
		best := math.Inf(-1)
		for t := -8; t <= 8; t++ {
			p, q := 0.0, 0.0
			for i, v := range mass {
				if k := i - reach; k+1 >= t {
					p += v
				}
				if k := i - reach; k >= t {
					q += v
				}
			}
			if p < 1-1e-9 && q > 1e-12 { // the tests whose μ Φ⁻¹ resolves here
				best = max(best, numeric.NormalQuantile(p)-numeric.NormalQuantile(q))
			}
		}
		require.InDelta(t, best, m.Mu(), 1e-9, "σ=%v", sigma)
		require.Greater(t, m.Mu(), 1/sigma)
		for _, eps := range []float64{0, 0.5, 1, 3} {
			delta := 0.0
			for i := 1; i < len(mass); i++ {
				delta += math.Max(0, mass[i-1]-math.Exp(eps)*mass[i])
			}
			require.InDelta(t, delta, m.Delta(eps), 1e-12, "σ=%v ε=%v", sigma, eps)
		}
	}
	require.InDelta(t, 2.4884, DiscreteGaussian{Sigma: 0.5, Sensitivity: 1}.Mu(), 1e-4)
	// Wide noise: about Δ/√(σ² − 1/12), the continuous Gaussian's with the
	// variance of a rounding removed, above Δ/σ.
	require.InDelta(t, 1/math.Sqrt(2500-1.0/12), DiscreteGaussian{Sigma: 50, Sensitivity: 1}.Mu(), 1e-9)
	require.InDelta(t, 2/math.Sqrt(2500-1.0/12), DiscreteGaussian{Sigma: 50, Sensitivity: 2}.Mu(), 1e-9)
	require.Greater(t, DiscreteGaussian{Sigma: 50, Sensitivity: 1}.Mu(), 1.0/50+3e-7)
}

func TestDiscreteGaussianSample(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, sigma := range []float64{0.5, 2} {
		m := DiscreteGaussian{Sigma: sigma, Sensitivity: 1}
		const n = 400_000
		counts := map[int64]int{}
		for range n {
			counts[m.Sample(r, 5)-5]++
		}
		mass := discreteGaussianMasses(sigma, 40)
		for k := -4; k <= 4; k++ {
			want := mass[k+40]
			// 5 standard errors: a false failure has probability below 10⁻⁵ a value.
			require.InDelta(t, want, float64(counts[int64(k)])/n, 5*math.Sqrt(want/n)+1e-12, "σ=%v k=%d", sigma, k)
		}
	}
	require.Panics(t, func() { DiscreteGaussian{Sensitivity: 1}.Sample(r, 0) })
	require.Panics(t, func() { DiscreteGaussian{Sigma: 0.01, Sensitivity: 1}.Mu() })
	require.Panics(t, func() { DiscreteGaussian{Sigma: 1e5, Sensitivity: 1}.RDP(2) })
	require.Panics(t, func() { DiscreteGaussian{Sigma: 1}.RDP(2) })
	require.Panics(t, func() { DiscreteGaussian{Sigma: 1, Sensitivity: 1}.Delta(-1) })
}
