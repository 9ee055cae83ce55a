package mechanisms

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dptest/dptest/internal/numeric"
)

// DiscreteLaplace is the discrete Laplace (two-sided geometric) mechanism
// on an integer query of the given sensitivity s:
//
//	M(c) = c + G − G′,   G, G′ independent, P(G ≥ k) = e^{−k/b} (k = 0, 1, …),
//
// whose noise has mass (1−a)/(1+a) · a^{|k|} at every integer k, a = e^{−1/b}
// (the geometric mechanism of Ghosh, Roughgarden and Sundararajan 2009;
// OpenDP's discrete Laplace). Neighbouring queries differ by at most
// Sensitivity; the exact curves are those of two answers that far apart.
// B must be positive and at most 10¹⁵ (the draws are int64), and
// Sensitivity at least 1.
type DiscreteLaplace struct {
	B           float64 // noise scale b > 0
	Sensitivity int     // s ≥ 1
}

// Sample draws M(c).
func (m DiscreteLaplace) Sample(r *rand.Rand, c int64) int64 {
	m.check()
	geometric := func() float64 { return math.Floor(-m.B * math.Log(1-r.Float64())) }
	return c + int64(geometric()-geometric())
}

// Epsilon returns s/b, the pure-DP level.
func (m DiscreteLaplace) Epsilon() float64 {
	m.check()
	return float64(m.Sensitivity) / m.B
}

// RDP returns D_λ(M(s) ‖ M(0)) (equal to D_λ(M(0) ‖ M(s)) by symmetry), the
// mechanism's exact Rényi DP, in closed form: with a = e^{−1/b} and
// u = (2λ−1)/b, summing the geometric series on k ≤ 0, k ≥ s and 0 < k < s,
//
//	e^{(λ−1)D_λ} = (1−a)/(1+a) · [ (e^{−λs/b} + e^{(λ−1)s/b})/(1−a)
//	                              + e^{−λs/b} · e^u (e^{(s−1)u} − 1)/(e^u − 1) ],
//
// evaluated in logarithms, and never above D_∞ = s/b (λ = +Inf gives
// s/b). Two logarithms of about ln 2b cancel in it: its relative error is
// about 10⁻¹⁶·ln(2b)/((λ−1)·D_λ), so a divergence below about 10⁻¹² (λ
// within 10⁻⁴ of 1 at b = 10⁶) is not resolved. It tends to [Laplace.RDP]
// of scale b/s as b and s grow with b/s fixed. It panics unless λ > 1.
func (m DiscreteLaplace) RDP(lambda float64) float64 {
	m.check()
	mustOrder(lambda)
	b, s := m.B, float64(m.Sensitivity)
	if math.IsInf(lambda, 1) {
		return s / b
	}
	logOneMinusA := math.Log(-math.Expm1(-1 / b))
	logSum := numeric.LogAddExp(-lambda*s/b, (lambda-1)*s/b) - logOneMinusA
	if m.Sensitivity > 1 {
		u := (2*lambda - 1) / b
		logMiddle := -lambda*s/b + u + logExpm1((s-1)*u) - logExpm1(u)
		logSum = numeric.LogAddExp(logSum, logMiddle)
	}
	logC := logOneMinusA - math.Log1p(math.Exp(-1/b))
	d := (logC + logSum) / (lambda - 1)
	if math.IsNaN(d) || d > s/b { // terms beyond float64 at orders near +Inf
		return s / b
	}
	return d
}

// logExpm1 returns log(e^x − 1) for x > 0 without overflow.
func logExpm1(x float64) float64 {
	if x > 30 {
		return x + math.Log1p(-math.Exp(-x))
	}
	return math.Log(math.Expm1(x))
}

func (m DiscreteLaplace) check() {
	mustPositive("DiscreteLaplace", "B", m.B)
	if m.B > 1e15 {
		panic(fmt.Sprintf("mechanisms: DiscreteLaplace.B must be at most 1e15 (the draws are int64), got %v", m.B))
	}
	if m.Sensitivity < 1 {
		panic(fmt.Sprintf("mechanisms: DiscreteLaplace.Sensitivity must be at least 1, got %d", m.Sensitivity))
	}
}
