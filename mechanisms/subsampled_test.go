package mechanisms

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSubsampledGaussianRDPIsSampledGaussian(t *testing.T) {
	m := SubsampledGaussian{Sigma: 5, Gamma: 0.5}
	for _, l := range []float64{2, 5, 7} {
		require.Equal(t, SampledGaussianRDP(0.5, 5, l), m.RDP(l))
		// Poisson subsampling at γ = 0.5 cuts the Gaussian's RDP by > 70%
		// at these orders ([KAD24] IV-B).
		require.Less(t, m.RDP(l), 0.3*Gaussian{Sigma: 5}.RDP(l))
	}
}

func TestSubsampledLaplaceRDPMatchesQuadrature(t *testing.T) {
	for _, c := range []struct{ b, g float64 }{{5, 0.5}, {1, 0.1}, {0.5, 0.9}, {2, 1}} {
		m := SubsampledLaplace{B: c.b, Gamma: c.g}
		logq := func(t float64) float64 { return logLaplacePDF(t, 0, c.b) }
		logp := func(t float64) float64 {
			return math.Log((1-c.g)*math.Exp(logLaplacePDF(t, 0, c.b)) + c.g*math.Exp(logLaplacePDF(t, 1, c.b)))
		}
		for _, l := range []float64{1.5, 2, 3.3, 5, 7} {
			want := renyiByQuadrature(logp, logq, l, []float64{-80 * c.b, 0, 1, 80 * c.b})
			require.InEpsilon(t, want, m.RDP(l), 1e-9, "b=%v γ=%v λ=%v", c.b, c.g, l)
		}
		require.InEpsilon(t, math.Log(1-c.g+c.g*math.Exp(1/c.b)), m.RDP(math.Inf(1)), 1e-15)
	}
	// γ = 1 is the plain Laplace mechanism.
	require.InEpsilon(t, Laplace{B: 2}.RDP(3.5), SubsampledLaplace{B: 2, Gamma: 1}.RDP(3.5), 1e-10)
}

func TestSubsampledLaplaceBoundEqualsExactAtIntegerOrders(t *testing.T) {
	for _, c := range []struct{ b, g float64 }{{5, 0.5}, {1, 0.1}, {0.5, 0.9}, {2, 1}} {
		m := SubsampledLaplace{B: c.b, Gamma: c.g}
		for _, l := range []float64{2, 3, 5, 7, 12} {
			require.InEpsilon(t, m.RDP(l), m.RDPBound(l), 1e-9, "b=%v γ=%v λ=%v", c.b, c.g, l)
		}
	}
	require.PanicsWithValue(t, "mechanisms: SubsampledLaplace.RDPBound needs an integer order λ ≥ 2",
		func() { SubsampledLaplace{B: 1, Gamma: 0.5}.RDPBound(2.5) })
}

func TestSubsampledSamplesFitMixture(t *testing.T) {
	x, _ := canonical10()
	r := newTestRand(4, phi64)
	g := SubsampledGaussian{Sigma: 2, Gamma: 0.3}
	checkFitsCDF(t, 200000, func() float64 { return g.Sample(r, x) },
		func(v float64) float64 { return 0.7*normalCDF(v, 0, 2) + 0.3*normalCDF(v, 1, 2) }, linspace(-6, 7, 30))
	l := SubsampledLaplace{B: 1, Gamma: 0.5}
	checkFitsCDF(t, 200000, func() float64 { return l.Sample(r, x) },
		func(v float64) float64 { return 0.5*laplaceCDF(v, 0, 1) + 0.5*laplaceCDF(v, 1, 1) }, linspace(-5, 6, 30))
	// Subsampling of a dataset with several records: the sum of kept records
	// is Bin(4, γ) when all records are 1; check the mean 4γ·1 + 0 noise mean.
	ones := []float64{1, 1, 1, 1}
	sum := 0.0
	const n = 100000
	for i := 0; i < n; i++ {
		sum += g.Sample(r, ones)
	}
	// sd of the mean: sqrt((4·0.3·0.7 + 4)/n) ≈ 0.0070; 5.5 sd ⇒ P(false fail) < 1e-7.
	require.InDelta(t, 1.2, sum/n, 5.5*math.Sqrt((4*0.3*0.7+4)/n))
}

func TestSubsampledBadParameters(t *testing.T) {
	require.PanicsWithValue(t, "mechanisms: SubsampledGaussian.Gamma must lie in (0, 1], got 0", func() { SubsampledGaussian{Sigma: 1}.RDP(2) })
	require.PanicsWithValue(t, "mechanisms: SubsampledLaplace.Gamma must lie in (0, 1], got 1.5", func() { SubsampledLaplace{B: 1, Gamma: 1.5}.RDP(2) })
	require.PanicsWithValue(t, "mechanisms: SubsampledLaplace.B must be positive and finite, got 0", func() { SubsampledLaplace{Gamma: 0.5}.Sample(newTestRand(1, phi64), nil) })
}

// T steps on the canonical pair: RDP T·SampledGaussianRDP (independent
// releases); the CLT's μ = γ√T·√(e^{1/σ²} − 1) (exact arithmetic: at
// γ = 0.05, T = 10, σ = 1, 0.05·√10·√(e − 1) = 0.207261…); each coordinate
// the mixture (1−γ)·N(0, σ²) + γ·N(1, σ²), two coordinates uncorrelated.
func TestSubsampledGaussianSteps(t *testing.T) {
	m := SubsampledGaussianSteps{Steps: 10, Sigma: 1, Gamma: 0.05}
	for _, l := range []float64{1.5, 2, 5} {
		require.InEpsilon(t, 10*SampledGaussianRDP(0.05, 1, l), m.RDP(l), 1e-15)
	}
	require.InDelta(t, 0.05*math.Sqrt(10)*math.Sqrt(math.E-1), m.CLTMu(), 1e-15)
	require.InDelta(t, 0.2072608, m.CLTMu(), 1e-6)

	x, _ := canonical10()
	r := newTestRand(5, phi64)
	g := SubsampledGaussianSteps{Steps: 2, Sigma: 2, Gamma: 0.3}
	const n = 200000
	first, second := make([]float64, n), make([]float64, n)
	for i := range n {
		v := g.Sample(r, x)
		require.Len(t, v, 2)
		first[i], second[i] = v[0], v[1]
	}
	k := 0
	checkFitsCDF(t, n, func() float64 { k++; return second[k-1] },
		func(v float64) float64 { return 0.7*normalCDF(v, 0, 2) + 0.3*normalCDF(v, 1, 2) }, linspace(-6, 7, 30))
	// Correlation of independent coordinates: sd 1/√n ≈ 0.0022; 5.5 sd ⇒
	// P(false fail) < 1e-7.
	var sa, sb, sab, saa, sbb float64
	for i := range n {
		a, b := first[i], second[i]
		sa, sb, sab, saa, sbb = sa+a, sb+b, sab+a*b, saa+a*a, sbb+b*b
	}
	cov := sab/n - sa*sb/(n*n)
	corr := cov / math.Sqrt((saa/n-sa*sa/(n*n))*(sbb/n-sb*sb/(n*n)))
	require.InDelta(t, 0, corr, 5.5/math.Sqrt(n))

	require.PanicsWithValue(t, "mechanisms: SubsampledGaussianSteps.Steps must be positive, got 0", func() { SubsampledGaussianSteps{Sigma: 1, Gamma: 0.5}.RDP(2) })
	require.PanicsWithValue(t, "mechanisms: SubsampledGaussianSteps.Gamma must lie in (0, 1], got 0", func() { SubsampledGaussianSteps{Steps: 1, Sigma: 1}.CLTMu() })
}
