package mechanisms

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/numeric"
)

func TestLaplaceRDPMatchesQuadrature(t *testing.T) {
	for _, b := range []float64{0.5, 1, 5} {
		m := Laplace{B: b}
		for _, l := range []float64{1.5, 2, 5, 7, 20} {
			want := renyiByQuadrature(
				func(t float64) float64 { return logLaplacePDF(t, 1, b) },
				func(t float64) float64 { return logLaplacePDF(t, 0, b) },
				l, []float64{-60 * b, 0, 1, 60 * b})
			require.InEpsilon(t, want, m.RDP(l), 1e-9, "b=%v λ=%v", b, l)
		}
		require.Equal(t, 1/b, m.RDP(math.Inf(1)))
		require.Equal(t, 1/b, m.Epsilon())
		// D_λ increases with λ towards D_∞ = 1/b.
		require.Less(t, m.RDP(2), m.RDP(5))
		require.Less(t, m.RDP(500), 1/b)
	}
}

func TestLaplaceRDPPaperValues(t *testing.T) {
	// [KAD24] IV-B, b = 5: ε(λ) from the printed closed form, evaluated
	// independently here with plain exp/log (no overflow at these sizes).
	for _, l := range []float64{2, 5, 7} {
		want := math.Log(l/(2*l-1)*math.Exp((l-1)/5)+(l-1)/(2*l-1)*math.Exp(-l/5)) / (l - 1)
		require.InEpsilon(t, want, Laplace{B: 5}.RDP(l), 1e-14)
	}
}

// Where the divergence is tiny (a wide Laplace, an order near 1) the
// closed form's two terms agree to many digits. Its Taylor series in
// t = 1/b, derived by hand from the closed form (the weights sum to 1 and
// the first-order terms cancel),
//
//	ε(λ) = λ(t²/2 − t³/6 + (λ²−λ+1)t⁴/24) − λ²(λ−1)t⁴/8 + O(λ³t⁵),
//
// is exact to about 10⁻¹² relative at b ≥ 10⁴ and λ ≤ 10, and RDP agrees
// with it to 10⁻¹⁰. A log-sum-exp of the two terms (the earlier form)
// was 63% off at b = 10⁶ and λ = 1.0001 and 10⁻⁴ off at b = 10⁴. At the
// switch to the log-sum-exp (λ/b = 1) both forms agree.
func TestLaplaceRDPOfTinyDivergences(t *testing.T) {
	for _, b := range []float64{1e4, 1e5, 1e6, 1e9} {
		for _, l := range []float64{1.0001, 1.01, 1.5, 2, 10} {
			tt := 1 / b
			want := l*(tt*tt/2-tt*tt*tt/6+(l*l-l+1)*math.Pow(tt, 4)/24) - l*l*(l-1)*math.Pow(tt, 4)/8
			require.InEpsilon(t, want, Laplace{B: b}.RDP(l), 1e-10, "b=%v λ=%v", b, l)
		}
	}
	for _, l := range []float64{1.5, 2, 10} {
		b := l * (1 + 1e-12) // λt just under 1: the series form
		logSumExp := numeric.LogAddExp(math.Log(l/(2*l-1))+(l-1)/b, math.Log((l-1)/(2*l-1))-l/b) / (l - 1)
		require.InEpsilon(t, logSumExp, Laplace{B: b}.RDP(l), 1e-13, "λ=%v", l)
	}
}

func TestGaussianRDPMatchesQuadrature(t *testing.T) {
	for _, s := range []float64{0.7, 5} {
		for _, l := range []float64{1.5, 2, 5, 7} {
			want := renyiByQuadrature(
				func(t float64) float64 { return logNormalPDF(t, 1, s) },
				func(t float64) float64 { return logNormalPDF(t, 0, s) },
				l, linspace(-40*s, 40*s+1, 3))
			require.InEpsilon(t, want, Gaussian{Sigma: s}.RDP(l), 1e-9)
		}
	}
	require.Equal(t, 2/(2*25.0), Gaussian{Sigma: 5}.RDP(2))
	require.True(t, math.IsInf(Gaussian{Sigma: 5}.RDP(math.Inf(1)), 1))
}

func TestLaplaceSampleFitsDistribution(t *testing.T) {
	r := newTestRand(1, phi64)
	x, _ := canonical10()
	m := Laplace{B: 5}
	checkFitsCDF(t, 200000, func() float64 { return m.Sample(r, x) },
		func(v float64) float64 { return laplaceCDF(v, 1, 5) }, linspace(-20, 22, 30))
}

func TestGaussianSampleFitsDistribution(t *testing.T) {
	r := newTestRand(2, phi64)
	x := []float64{0.25, 0.5, 0.75}
	m := Gaussian{Sigma: 2}
	checkFitsCDF(t, 200000, func() float64 { return m.Sample(r, x) },
		func(v float64) float64 { return normalCDF(v, 1.5, 2) }, linspace(-6, 9, 30))
}

func TestAdditiveBadParameters(t *testing.T) {
	r := newTestRand(3, phi64)
	require.PanicsWithValue(t, "mechanisms: Laplace.B must be positive and finite, got 0", func() { Laplace{}.Sample(r, nil) })
	require.PanicsWithValue(t, "mechanisms: Gaussian.Sigma must be positive and finite, got -1", func() { Gaussian{Sigma: -1}.RDP(2) })
	require.PanicsWithValue(t, "mechanisms: Gaussian.Sigma must be positive and finite, got NaN", func() { Gaussian{Sigma: math.NaN()}.RDP(2) })
	require.PanicsWithValue(t, "mechanisms: order λ must be > 1, got 1", func() { Gaussian{Sigma: 1}.RDP(1) })
	require.PanicsWithValue(t, "mechanisms: order λ must be > 1, got NaN", func() { Laplace{B: 1}.RDP(math.NaN()) })
}
