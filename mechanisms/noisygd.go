package mechanisms

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// NoisyGD is noisy gradient descent, Algorithm 1 of Chourasia, Ye and
// Mahloujifar as run in [KAD24] Section IV-B, on the loss
// l(θ, xᵢ) = (θ − xᵢ)²/2 with θ₀ = 0 and Θ = ℝ (no projection):
//
//	g(θ, x)   = Σᵢ ∇l(θ, xᵢ) = Σᵢ (θ − xᵢ),
//	θ_{k+1}   = θ_k − (η/m) g(θ_k, x) + √(2η) Y_k,   Y_k ∼ N(0, b²),
//
// for k = 0..K−1, releasing θ_K (m = len(x)). Eta must lie in (0, 1], B must
// be positive and K ≥ 1; the zero value panics. M is the dataset size that
// [NoisyGD.RDP] assumes; zero means 10, the paper's m.
type NoisyGD struct {
	Eta float64 // learning rate η ∈ (0, 1]
	B   float64 // noise standard deviation b > 0
	K   int     // number of iterations K ≥ 1
	M   int     // dataset size for RDP; 0 means 10
}

// Sample runs the K noisy gradient steps on x and returns θ_K.
func (m NoisyGD) Sample(r *rand.Rand, x []float64) float64 {
	m.check()
	if len(x) == 0 {
		panic("mechanisms: NoisyGD needs a non-empty dataset")
	}
	n := float64(len(x))
	s := sum(x)
	noise := math.Sqrt(2*m.Eta) * m.B
	theta := 0.0
	for k := 0; k < m.K; k++ {
		grad := n*theta - s
		theta = theta - m.Eta/n*grad + noise*r.NormFloat64()
	}
	return theta
}

// RDP returns D_λ(M(x) ‖ M(x′)) for the canonical pair with m records ([KAD24]
// Section IV-B). θ_K is Gaussian with mean x̄(1 − (1−η)^K) and variance
// 2b²(1 − (1−η)^{2K})/(2 − η), so with Δx̄ = S_g/m, S_g = 1,
//
//	ε(λ) = λ S_g² / (4 b² m²) · (2 − η)/(1 + (1−η)^K) · (1 − (1−η)^K).
//
// It panics unless λ > 1.
func (m NoisyGD) RDP(lambda float64) float64 {
	m.check()
	mustOrder(lambda)
	mm := float64(m.M)
	if m.M == 0 {
		mm = 10
	}
	a := math.Pow(1-m.Eta, float64(m.K))
	return lambda / (4 * m.B * m.B * mm * mm) * (2 - m.Eta) / (1 + a) * (1 - a)
}

func (m NoisyGD) check() {
	if !(m.Eta > 0 && m.Eta <= 1) {
		panic(fmt.Sprintf("mechanisms: NoisyGD.Eta must lie in (0, 1], got %v", m.Eta))
	}
	mustPositive("NoisyGD", "B", m.B)
	if m.K < 1 {
		panic(fmt.Sprintf("mechanisms: NoisyGD.K must be ≥ 1, got %d", m.K))
	}
	if m.M < 0 {
		panic(fmt.Sprintf("mechanisms: NoisyGD.M must be ≥ 0, got %d", m.M))
	}
}
