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
//	ε(λ) = 1/(λ−1) · log{ λ/(2λ−1) · exp((λ−1)/b) + (λ−1)/(2λ−1) · exp(−λ/b) };
//
// λ = +Inf gives 1/b. The two weights sum to 1 and their first-order terms
// in t = 1/b cancel, so for λt ≤ 1 it is evaluated as
//
//	ε(λ) = log1p( λ/(2λ−1) · g((λ−1)t) + (λ−1)/(2λ−1) · g(−λt) ) / (λ−1),
//
// g(x) = eˣ − 1 − x ≥ 0, a sum of non-negative terms that keeps full
// relative precision where ε(λ) ≈ λt²/2 is tiny (b = 10⁶; λ near 1); for
// λt > 1 as a log-sum-exp, which cannot overflow. It panics unless λ > 1.
func (m Laplace) RDP(lambda float64) float64 {
	mustPositive("Laplace", "B", m.B)
	mustOrder(lambda)
	if math.IsInf(lambda, 1) {
		return 1 / m.B
	}
	t := 1 / m.B
	if lambda*t <= 1 {
		sum := lambda/(2*lambda-1)*expm1MinusX((lambda-1)*t) + (lambda-1)/(2*lambda-1)*expm1MinusX(-lambda*t)
		return math.Log1p(sum) / (lambda - 1)
	}
	a := math.Log(lambda/(2*lambda-1)) + (lambda-1)*t
	c := math.Log((lambda-1)/(2*lambda-1)) - lambda*t
	return numeric.LogAddExp(a, c) / (lambda - 1)
}

// expm1MinusX returns eˣ − 1 − x to full relative precision: by its Taylor
// series x²/2! + x³/3! + … for |x| < 0.1 (to x²⁹, far below an ulp), and
// as expm1(x) − x otherwise, which then loses under 2 of its 16 digits.
func expm1MinusX(x float64) float64 {
	if math.Abs(x) >= 0.1 {
		return math.Expm1(x) - x
	}
	sum, term := 0.0, x*x/2
	for k := 3; k <= 30 && term != 0; k++ {
		sum += term
		term *= x / float64(k)
	}
	return sum
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
