package mechanisms

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Pure-DP references of [AKD22] (Askin, Kutta, Dette), Section V and
// Example 1. Each type's Epsilon is the exact privacy level, the supremum over
// neighbouring inputs of sup_t |ln f_x(t) − ln f_x′(t)| ([AKD22], Theorem 1),
// not merely an upper bound.

// ReportNoisyMax is Report Noisy Max with Laplace noise ([AKD22], Section V,
// "Report Noisy Max"; Ding et al., Algorithm 5). The dataset x holds the
// answers q_1, …, q_d of d counting queries of sensitivity 1, and the output
// is the index of the largest noisy answer,
//
//	M(q) = argmax_i (q_i + L_i),   L_i ~ Lap(2/ε) independent,
//
// as an int in [0, d) (ties, of probability zero, go to the lowest index).
// Neighbouring inputs are query vectors with |q_i − q′_i| ≤ 1 for every i.
//
// It is ε-DP, and ε is exact: it is the supremum of the privacy loss, not
// attained but approached with d = 2 by q = (0, M), q′ = (1, M−1) as M → ∞,
// where for M ≥ 2 (D = L_1 − L_2, P(D > a) = e^{−aε/2}(2 + aε/2)/4)
//
//	ln P_q′(0)/P_q(0) = ε + ln((2 + (M−2)ε/2) / (2 + Mε/2)).
//
// The zero value is invalid: Eps must be positive and finite, else Sample and
// Epsilon panic with "mechanisms: ReportNoisyMax.Eps must be positive and
// finite, got …"; Sample panics with "mechanisms: ReportNoisyMax needs at
// least one query answer" on an empty x.
type ReportNoisyMax struct {
	// Eps is the privacy parameter ε > 0; the noise scale is 2/ε.
	Eps float64
}

// Sample returns argmax_i (x_i + L_i) with L_i ~ Lap(2/ε), drawing from r only.
func (m ReportNoisyMax) Sample(r *rand.Rand, x []float64) int {
	mustPositive("ReportNoisyMax", "Eps", m.Eps)
	if len(x) == 0 {
		panic("mechanisms: ReportNoisyMax needs at least one query answer")
	}
	b := 2 / m.Eps
	best, bestVal := 0, math.Inf(-1)
	for i, q := range x {
		if v := q + laplaceNoise(r, b); v > bestVal {
			best, bestVal = i, v
		}
	}
	return best
}

// Epsilon returns ε, the exact pure-DP level.
func (m ReportNoisyMax) Epsilon() float64 {
	mustPositive("ReportNoisyMax", "Eps", m.Eps)
	return m.Eps
}

// ExponentialMechanism is the version of the exponential mechanism of [AKD22],
// Section V ("Exponential Mechanism"), which privatises a number
// s ∈ [1, 2] with a non-negative output drawn from the density
//
//	f_s(t) = λ exp(−λ|s − t|) / (2 − e^{−λs}),   t ≥ 0.
//
// As in [AKD22] (Example 1, where the database holds one individual's data),
// the dataset is the statistic itself: x = (s) has exactly one element, and
// any two statistics in [1, 2] are neighbours. An x[0] outside [1, 2] is
// clamped to it first, so the guarantee below holds for every input.
//
// It is ε-DP with the exact level of [AKD22], Section V,
//
//	ε = λ + ln(2 − e^{−2λ}) − ln(2 − e^{−λ}),
//
// attained (as a maximum, not only a supremum) at s = 1, s′ = 2 on every
// t ∈ [0, 1]; ε ≈ 2λ for small λ and ε < 2λ always.
//
// The zero value is invalid: Lambda must be positive and finite, else Sample
// and Epsilon panic with "mechanisms: ExponentialMechanism.Lambda must be
// positive and finite, got …"; Sample panics with "mechanisms:
// ExponentialMechanism needs x = (s), one statistic, got n values" unless
// len(x) = 1.
type ExponentialMechanism struct {
	// Lambda is λ > 0, the rate of the density.
	Lambda float64
}

// Sample draws one output on x = (s) by inverting the CDF of f_s, which is
// piecewise exponential: with A = 2 − e^{−λs} and u uniform on [0, 1),
//
//	t = s + ln(uA + e^{−λs})/λ   if uA < 1 − e^{−λs}   (the part t ≤ s),
//	t = s − ln(A − uA)/λ         otherwise              (the part t > s).
func (m ExponentialMechanism) Sample(r *rand.Rand, x []float64) float64 {
	mustPositive("ExponentialMechanism", "Lambda", m.Lambda)
	if len(x) != 1 {
		panic(fmt.Sprintf("mechanisms: ExponentialMechanism needs x = (s), one statistic, got %d values", len(x)))
	}
	s := math.Min(2, math.Max(1, x[0]))
	l := m.Lambda
	e := math.Exp(-l * s)
	a := 2 - e
	v := r.Float64() * a
	if v < 1-e {
		return math.Max(0, s+math.Log(v+e)/l)
	}
	return s - math.Log(a-v)/l
}

// Epsilon returns the exact level λ + ln(2 − e^{−2λ}) − ln(2 − e^{−λ}).
func (m ExponentialMechanism) Epsilon() float64 {
	mustPositive("ExponentialMechanism", "Lambda", m.Lambda)
	l := m.Lambda
	return l + math.Log(2-math.Exp(-2*l)) - math.Log(2-math.Exp(-l))
}

// ContinuousNoisyMax is the continuous Noisy Max of [AKD22], Example 1 and
// Section V (Ding et al., Algorithm 7): the dataset is one individual's
// vector v ∈ [0, 1]^k, and the output is the largest noisy component,
//
//	M(v) = max_i (v_i + L_i),   L_i ~ Lap(1/λ) independent,
//
// whose density is f_v(t) = Σ_i f_i(t) Π_{j≠i} F_j(t), with f_i, F_i the
// density and CDF of v_i + L_i. Any two vectors of [0, 1]^k are neighbours;
// components outside [0, 1] are clamped to it first, so the guarantee holds
// for every input.
//
// It is ε-DP with the exact level of Example 1,
//
//	ε = kλ,
//
// attained (as a maximum) by v = (0, …, 0), w = (1, …, 1) on every t ≤ 0,
// where f_v(t)/f_w(t) = e^{kλ} exactly. (Example 1 says "sufficiently large
// t"; the ratio e^{kλ} holds in the left tail, while for large t it tends
// to e^{−λ}.)
//
// K is the dimension k, fixed by the mechanism because ε depends on it: the
// zero value is invalid. Lambda must be positive and finite, else Sample and
// Epsilon panic with "mechanisms: ContinuousNoisyMax.Lambda must be positive
// and finite, got …"; K must be at least 1, else they panic with
// "mechanisms: ContinuousNoisyMax.K must be at least 1, got …"; Sample
// panics with "mechanisms: ContinuousNoisyMax needs len(x) = K = k, got n"
// when the dataset has another length.
type ContinuousNoisyMax struct {
	// Lambda is λ > 0; the noise scale is 1/λ.
	Lambda float64
	// K is the dimension k ≥ 1 of the data vector.
	K int
}

func (m ContinuousNoisyMax) check() {
	mustPositive("ContinuousNoisyMax", "Lambda", m.Lambda)
	if m.K < 1 {
		panic(fmt.Sprintf("mechanisms: ContinuousNoisyMax.K must be at least 1, got %d", m.K))
	}
}

// Sample returns max_i (clamp(x_i) + L_i) with L_i ~ Lap(1/λ).
func (m ContinuousNoisyMax) Sample(r *rand.Rand, x []float64) float64 {
	m.check()
	if len(x) != m.K {
		panic(fmt.Sprintf("mechanisms: ContinuousNoisyMax needs len(x) = K = %d, got %d", m.K, len(x)))
	}
	b := 1 / m.Lambda
	best := math.Inf(-1)
	for _, v := range x {
		best = math.Max(best, math.Min(1, math.Max(0, v))+laplaceNoise(r, b))
	}
	return best
}

// Epsilon returns the exact level kλ.
func (m ContinuousNoisyMax) Epsilon() float64 {
	m.check()
	return float64(m.K) * m.Lambda
}
