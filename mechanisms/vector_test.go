package mechanisms

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The Laplace histogram counts records per bin and adds Lap(0, b) to every
// bin; its curves are the scalar Laplace mechanism's. The mean over 20,000
// draws of each bin is within 5 standard errors (√(2b²/n)) of its count.
func TestLaplaceHistogram(t *testing.T) {
	r := newTestRand(1, phi64)
	m := LaplaceHistogram{Bins: 4, B: 2}
	x := []int{0, 2, 2, 9, -1}
	const n = 20000
	mean := make([]float64, 4)
	for range n {
		v := m.Sample(r, x)
		require.Len(t, v, 4)
		for j := range v {
			mean[j] += v[j] / n
		}
	}
	se := math.Sqrt(2 * 4.0 / n)
	for j, want := range []float64{1, 0, 2, 0} {
		require.InDelta(t, want, mean[j], 5*se, "bin %d", j)
	}
	require.Equal(t, 0.5, m.Epsilon())
	require.Equal(t, Laplace{B: 2}.RDP(3), m.RDP(3))
	require.PanicsWithValue(t, "mechanisms: LaplaceHistogram.Bins must be at least 1, got 0", func() { LaplaceHistogram{B: 1}.Sample(r, nil) })
}

// The noise of a long histogram (its signs drawn 64 at a time) is
// Lap(0, b) in every bin, independent across bins: each bin's share of
// |noise| > b is e^{−1} and of positive noise ½, and the signs of
// neighbouring bins (within a 64-bit draw and across two) agree half the
// time. 5 standard errors each: a false failure about once in 3·10⁶ per
// check, with a fixed seed.
func TestLaplaceHistogramNoiseIsIndependentLaplace(t *testing.T) {
	r := newTestRand(3, phi64)
	const bins, n, b = 130, 20000, 2.0
	m := LaplaceHistogram{Bins: bins, B: b}
	var beyond, positive, agree [bins]float64
	for range n {
		v := m.Sample(r, nil)
		for j := range v {
			if math.Abs(v[j]) > b {
				beyond[j]++
			}
			if v[j] > 0 {
				positive[j]++
			}
			if j > 0 && (v[j] > 0) == (v[j-1] > 0) {
				agree[j]++
			}
		}
	}
	pBeyond := math.Exp(-1)
	for j := range bins {
		require.InDelta(t, pBeyond, beyond[j]/n, 5*math.Sqrt(pBeyond*(1-pBeyond)/n), "bin %d", j)
		require.InDelta(t, 0.5, positive[j]/n, 5*math.Sqrt(0.25/n), "bin %d", j)
		if j > 0 {
			require.InDelta(t, 0.5, agree[j]/n, 5*math.Sqrt(0.25/n), "bins %d and %d", j-1, j)
		}
	}
}

// The sparse histogram releases empty bins as exactly 0 and noises the
// others.
func TestSparseLaplaceHistogram(t *testing.T) {
	r := newTestRand(2, phi64)
	m := SparseLaplaceHistogram{Bins: 3, B: 1}
	for range 100 {
		v := m.Sample(r, []int{1})
		require.Equal(t, 0.0, v[0])
		require.Equal(t, 0.0, v[2])
		require.NotEqual(t, 1.0, v[1])
	}
	require.Equal(t, 1.0, m.ClaimedEpsilon())
	require.True(t, math.IsInf(m.Epsilon(), 1))
}

// The Gaussian vector shifts K coordinates by s/√K (a shift of ℓ2 norm s)
// and has the scalar Gaussian mechanism's curves.
func TestGaussianVector(t *testing.T) {
	r := newTestRand(3, phi64)
	m := GaussianVector{D: 5, K: 4, Sigma: 1}
	const n = 20000
	mean := make([]float64, 5)
	for range n {
		for j, v := range m.Sample(r, []float64{1, 1}) {
			mean[j] += v / n
		}
	}
	for j, want := range []float64{1, 1, 1, 1, 0} {
		require.InDelta(t, want, mean[j], 5/math.Sqrt(n), "coordinate %d", j)
	}
	require.Equal(t, 1.25, m.RDP(2.5))
	require.Equal(t, 1.0, m.Mu())
	require.PanicsWithValue(t, "mechanisms: GaussianVector needs 1 ≤ K ≤ D, got K=6 D=5", func() { GaussianVector{D: 5, K: 6, Sigma: 1}.Mu() })
}

// The ℓ2-calibrated Laplace vector's true level is √D·ε, which its RDP
// reaches as λ → ∞ (at λ = 10⁶ within 10⁻⁴), and its RDP at D = 1 is the
// scalar Laplace mechanism's.
func TestL2LaplaceVector(t *testing.T) {
	m := L2LaplaceVector{D: 16, Eps: 0.5}
	require.Equal(t, 0.5, m.ClaimedEpsilon())
	require.Equal(t, 2.0, m.Epsilon())
	require.InDelta(t, 2.0, m.RDP(1e6), 1e-4)
	require.InDelta(t, Laplace{B: 2}.RDP(3), L2LaplaceVector{D: 1, Eps: 0.5}.RDP(3), 1e-15)
	v := m.Sample(newTestRand(4, phi64), []float64{4})
	require.Len(t, v, 16)
}

// A correct DP-SGD step clips each example's gradient −a to norm C; the
// bug clips the batch's sum. With Q = 1 and σ tiny the outputs are the
// clipped sums themselves: examples a = (3, 0, …) and b = (−4, 0, …) give
// −1 + 1 = 0 clipped per example, and clip(−3 + 4) = 1 clipped after the
// sum.
func TestDPSGDStepClipping(t *testing.T) {
	r := newTestRand(5, phi64)
	a, b := make([]float64, DPSGDParams), make([]float64, DPSGDParams)
	a[0], b[0] = 3, -4
	x := [][]float64{a, b}
	v := DPSGDStep{Q: 1, Sigma: 1e-12, C: 1}.Sample(r, x)
	require.InDelta(t, 0, v[0], 1e-9)
	v = DPSGDStep{Q: 1, Sigma: 1e-12, C: 1, ClipAfterSum: true}.Sample(r, x)
	require.InDelta(t, 1, v[0], 1e-9)
	require.Equal(t, SampledGaussianRDP(0.1, 2, 4), DPSGDStep{Q: 0.1, Sigma: 2, C: 1}.RDP(4))
	require.PanicsWithValue(t, "mechanisms: DPSGDStep.Q must lie in (0, 1], got 0", func() { DPSGDStep{Sigma: 1, C: 1}.RDP(2) })
}
