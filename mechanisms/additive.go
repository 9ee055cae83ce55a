package mechanisms

import (
	"math"
	"math/rand/v2"

	"github.com/dptest/dptest/internal/numeric"
)

// Laplace is the Laplace mechanism on the sum statistic of [KAD24]
// Section IV-B: for a dataset x ∈ [0,1]^m (sensitivity Δ = 1),
//
//	M(x) = Σᵢ xᵢ + Y,   Y ∼ Lap(0, b),   density exp(−|t|/b)/(2b).
//
// B must be positive; the zero value panics.
type Laplace struct {
	B float64 // noise scale b > 0
}

// Sample draws M(x).
func (m Laplace) Sample(r *rand.Rand, x []float64) float64 {
	mustPositive("Laplace", "B", m.B)
	return sum(x) + laplaceNoise(r, m.B)
}

// RDP returns D_λ(M(x) ‖ M(x′)) for the canonical pair, the mechanism's exact
// Rényi DP ([KAD24] Section IV-B; Mironov 2017, Table II):
//
//	ε(λ) = 1/(λ−1) · log{ λ/(2λ−1) · exp((λ−1)/b) + (λ−1)/(2λ−1) · exp(−λ/b) },
//
// evaluated as a log-sum-exp; λ = +Inf gives 1/b. It panics unless λ > 1.
func (m Laplace) RDP(lambda float64) float64 {
	mustPositive("Laplace", "B", m.B)
	mustOrder(lambda)
	if math.IsInf(lambda, 1) {
		return 1 / m.B
	}
	a := math.Log(lambda/(2*lambda-1)) + (lambda-1)/m.B
	c := math.Log((lambda-1)/(2*lambda-1)) - lambda/m.B
	return numeric.LogAddExp(a, c) / (lambda - 1)
}

// Epsilon returns the pure-DP level 1/b of the Laplace mechanism with
// sensitivity 1 ([KAD24], Example 1).
func (m Laplace) Epsilon() float64 {
	mustPositive("Laplace", "B", m.B)
	return 1 / m.B
}

// Gaussian is the Gaussian mechanism on the sum statistic of [KAD24]
// Section IV-B: for x ∈ [0,1]^m (sensitivity Δ = 1),
//
//	M(x) = Σᵢ xᵢ + Y,   Y ∼ N(0, σ²).
//
// Sigma must be positive; the zero value panics.
type Gaussian struct {
	Sigma float64 // noise standard deviation σ > 0
}

// Sample draws M(x).
func (m Gaussian) Sample(r *rand.Rand, x []float64) float64 {
	mustPositive("Gaussian", "Sigma", m.Sigma)
	return sum(x) + m.Sigma*r.NormFloat64()
}

// RDP returns the exact Rényi DP of the Gaussian mechanism with sensitivity 1
// ([KAD24] Section IV-B),
//
//	ε(λ) = λ / (2σ²),
//
// attained by the canonical pair; λ = +Inf gives +Inf. It panics unless λ > 1.
func (m Gaussian) RDP(lambda float64) float64 {
	mustPositive("Gaussian", "Sigma", m.Sigma)
	mustOrder(lambda)
	return lambda / (2 * m.Sigma * m.Sigma)
}
