package mechanisms

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// LaplaceHistogram is the Laplace histogram: a dataset is a list of
// records, each the index of its bin in 0…Bins−1, and
//
//	M(x) = (c₀ + Y₀, …, c_{Bins−1} + Y_{Bins−1}),   cⱼ = #{i : xᵢ = j},   Yⱼ ∼ Lap(0, b) independent.
//
// Add/remove neighbours (one record more or less) change one count by 1:
// ε = 1/b pure DP and, coordinates being independent and all but one
// identically distributed, the RDP of the scalar [Laplace] mechanism.
// Records outside 0…Bins−1 are ignored. Bins and B must be positive.
type LaplaceHistogram struct {
	Bins int
	B    float64 // noise scale b > 0
}

// Sample draws M(x).
func (m LaplaceHistogram) Sample(r *rand.Rand, x []int) []float64 {
	mustBins("LaplaceHistogram", m.Bins)
	mustPositive("LaplaceHistogram", "B", m.B)
	v := histogram(x, m.Bins)
	addLaplaceNoise(r, v, m.B)
	return v
}

// Epsilon returns 1/b, the pure-DP level under add/remove neighbours.
func (m LaplaceHistogram) Epsilon() float64 {
	mustPositive("LaplaceHistogram", "B", m.B)
	return 1 / m.B
}

// RDP returns the exact RDP under add/remove neighbours: [Laplace.RDP] of
// scale b. It panics unless λ > 1.
func (m LaplaceHistogram) RDP(lambda float64) float64 { return Laplace{B: m.B}.RDP(lambda) }

// SparseLaplaceHistogram is a broken Laplace histogram: it adds Lap(0, b)
// to the bins that hold a record and releases the empty ones as exactly 0.
// Adding a record to an empty bin turns an exact 0 into a noisy count: an
// output one dataset never produces, ε = +Inf (the set of non-empty bins
// leaks). Bins and B must be positive.
type SparseLaplaceHistogram struct {
	Bins int
	B    float64 // noise scale b > 0
}

// Sample draws M(x).
func (m SparseLaplaceHistogram) Sample(r *rand.Rand, x []int) []float64 {
	mustBins("SparseLaplaceHistogram", m.Bins)
	mustPositive("SparseLaplaceHistogram", "B", m.B)
	v := histogram(x, m.Bins)
	for j := range v {
		if v[j] != 0 {
			v[j] += laplaceNoise(r, m.B)
		}
	}
	return v
}

// ClaimedEpsilon returns 1/b, what the histogram is meant to satisfy.
func (m SparseLaplaceHistogram) ClaimedEpsilon() float64 { return LaplaceHistogram(m).Epsilon() }

// Epsilon returns +Inf.
func (SparseLaplaceHistogram) Epsilon() float64 { return math.Inf(1) }

func histogram(x []int, bins int) []float64 {
	v := make([]float64, bins)
	for _, j := range x {
		if j >= 0 && j < bins {
			v[j]++
		}
	}
	return v
}

func mustBins(mech string, bins int) {
	if bins < 1 {
		panic(fmt.Sprintf("mechanisms: %s.Bins must be at least 1, got %d", mech, bins))
	}
}

// GaussianVector is the Gaussian mechanism on a vector query: for a dataset
// x ∈ [0, 1]^m, with s = Σᵢ xᵢ,
//
//	M(x) = s·u + Y,   u = (1, …, 1, 0, …, 0)/√K (K ones),   Y ∼ N(0, σ² I_D).
//
// The query's ℓ2 sensitivity is 1 whatever K: a change of one record (in
// [0, 1]) moves the sum s by at most 1, spread over K of the D coordinates (K = 1: one
// coordinate; K = D: all of them). Exact curves, as for the scalar
// [Gaussian]: RDP λ/(2σ²), μ = 1/σ Gaussian DP. D and K must satisfy
// 1 ≤ K ≤ D; Sigma must be positive.
type GaussianVector struct {
	D, K  int
	Sigma float64
}

// Sample draws M(x).
func (m GaussianVector) Sample(r *rand.Rand, x []float64) []float64 {
	m.check()
	s := sum(x) / math.Sqrt(float64(m.K))
	v := make([]float64, m.D)
	for j := range v {
		v[j] = m.Sigma * r.NormFloat64()
		if j < m.K {
			v[j] += s
		}
	}
	return v
}

// RDP returns λ/(2σ²). It panics unless λ > 1.
func (m GaussianVector) RDP(lambda float64) float64 {
	m.check()
	return Gaussian{Sigma: m.Sigma}.RDP(lambda)
}

// Mu returns the Gaussian-DP level 1/σ (Dong, Roth and Su 2022).
func (m GaussianVector) Mu() float64 { m.check(); return 1 / m.Sigma }

func (m GaussianVector) check() {
	if m.K < 1 || m.K > m.D {
		panic(fmt.Sprintf("mechanisms: GaussianVector needs 1 ≤ K ≤ D, got K=%d D=%d", m.K, m.D))
	}
	mustPositive("GaussianVector", "Sigma", m.Sigma)
}

// L2LaplaceVector is a broken vector mechanism: the query of
// [GaussianVector] with K = D (ℓ2 sensitivity 1, ℓ1 sensitivity √D) and
// Laplace noise calibrated to the ℓ2 sensitivity instead of the ℓ1,
//
//	M(x) = s·(1, …, 1)/√D + Y,   Yⱼ ∼ Lap(0, 1/ε) independent.
//
// It claims ε-DP; its true level is ‖Δ‖₁/b = √D·ε, and its RDP D times
// that of a Laplace mechanism of sensitivity 1/√D, [Laplace.RDP] of scale
// √D/ε. D and Eps must be positive.
type L2LaplaceVector struct {
	D   int
	Eps float64
}

// Sample draws M(x).
func (m L2LaplaceVector) Sample(r *rand.Rand, x []float64) []float64 {
	m.check()
	s := sum(x) / math.Sqrt(float64(m.D))
	v := make([]float64, m.D)
	for j := range v {
		v[j] = s + laplaceNoise(r, 1/m.Eps)
	}
	return v
}

// ClaimedEpsilon returns ε, the level the ℓ2 calibration claims.
func (m L2LaplaceVector) ClaimedEpsilon() float64 { m.check(); return m.Eps }

// Epsilon returns the true level √D·ε.
func (m L2LaplaceVector) Epsilon() float64 { m.check(); return math.Sqrt(float64(m.D)) * m.Eps }

// RDP returns the exact RDP, D·[Laplace.RDP] of scale √D/ε (independent
// coordinates, each shifted by 1/√D). It panics unless λ > 1.
func (m L2LaplaceVector) RDP(lambda float64) float64 {
	m.check()
	return float64(m.D) * Laplace{B: math.Sqrt(float64(m.D)) / m.Eps}.RDP(lambda)
}

func (m L2LaplaceVector) check() {
	if m.D < 1 {
		panic(fmt.Sprintf("mechanisms: L2LaplaceVector.D must be at least 1, got %d", m.D))
	}
	mustPositive("L2LaplaceVector", "Eps", m.Eps)
}
