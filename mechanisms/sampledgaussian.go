package mechanisms

import (
	"math"

	"github.com/dptest/dptest/internal/numeric"
)

// maxSeriesTerms caps the fractional-order series of [SampledGaussianRDP].
const maxSeriesTerms = 100000

// SampledGaussianRDP returns the exact Rényi DP of order λ of one step of the
// sampled Gaussian mechanism with sampling rate q and noise σ applied to a
// function of ℓ2-sensitivity 1 ([MTZ19], Section 3.3):
//
//	ε(λ) = log(A_λ) / (λ − 1),   A_λ = E_{z∼μ₀}[((1−q) + q μ₁(z)/μ₀(z))^λ],
//
// with μ₀ = N(0, σ²) and μ₁ = N(1, σ²); by [MTZ19] Theorem 4 this is
// D_λ((1−q)μ₀ + qμ₁ ‖ μ₀), the RDP of the mechanism. For integer λ
//
//	A_λ = Σ_{k=0}^{λ} C(λ,k) (1−q)^{λ−k} q^k exp((k²−k)/(2σ²)),
//
// summed as a log-sum-exp. For fractional λ, A_λ is the sum of the two
// convergent series of [MTZ19] eq. (12), split at z₁ = ½ + σ² ln(1/q − 1),
//
//	A₀ = Σ_k C(λ,k) (1−q)^{λ−k} q^k     exp((k²−k)/(2σ²)) · ½ erfc((k − z₁)/(√2σ)),
//	A₁ = Σ_k C(λ,k) (1−q)^k     q^{λ−k} exp(((λ−k)²−(λ−k))/(2σ²)) · ½ erfc((z₁ − (λ−k))/(√2σ)),
//
// whose terms change sign with C(λ,k); both are accumulated in log space
// until every new term is below e⁻³⁰ of the unit scale. If the series has
// not converged within a fixed cap of terms the result is +Inf (a claim
// checked against +Inf can never be refuted, so the failure is
// conservative).
//
// Special cases: q = 0 gives 0; q = 1 gives λ/(2σ²); λ = +Inf gives +Inf.
// It panics with "mechanisms: ..." unless q ∈ [0, 1], σ > 0 and λ > 1.
func SampledGaussianRDP(q, sigma, lambda float64) float64 {
	if !(q >= 0 && q <= 1) {
		panic("mechanisms: sampling rate q must lie in [0, 1]")
	}
	mustPositive("SampledGaussianRDP", "sigma", sigma)
	mustOrder(lambda)
	switch {
	case q == 0:
		return 0
	case q == 1:
		return lambda / (2 * sigma * sigma)
	case math.IsInf(lambda, 1):
		return math.Inf(1)
	}
	var logA float64
	if lambda == math.Trunc(lambda) && lambda <= 1e6 {
		logA = sampledGaussianLogAInt(q, sigma, int(lambda))
	} else {
		logA = sampledGaussianLogAFrac(q, sigma, lambda)
	}
	return logA / (lambda - 1)
}

func sampledGaussianLogAInt(q, sigma float64, lambda int) float64 {
	logA := math.Inf(-1)
	lq, l1q := math.Log(q), math.Log1p(-q)
	for k := 0; k <= lambda; k++ {
		lc, _ := numeric.LogAbsBinomial(float64(lambda), k)
		fk := float64(k)
		term := lc + fk*lq + float64(lambda-k)*l1q + (fk*fk-fk)/(2*sigma*sigma)
		logA = numeric.LogAddExp(logA, term)
	}
	return logA
}

func sampledGaussianLogAFrac(q, sigma, lambda float64) float64 {
	// Positive and negative parts of each series are kept apart so that the
	// alternating terms never require subtracting in log space mid-way.
	pos0, neg0 := math.Inf(-1), math.Inf(-1)
	pos1, neg1 := math.Inf(-1), math.Inf(-1)
	lq, l1q := math.Log(q), math.Log1p(-q)
	z1 := sigma*sigma*math.Log(1/q-1) + 0.5
	s2 := 2 * sigma * sigma
	r2s := math.Sqrt2 * sigma
	for k := 0; k < maxSeriesTerms; k++ {
		fk := float64(k)
		lc, sign := numeric.LogAbsBinomial(lambda, k)
		j := lambda - fk
		t0 := lc + fk*lq + j*l1q + (fk*fk-fk)/s2 + math.Log(0.5) + numeric.LogErfc((fk-z1)/r2s)
		t1 := lc + j*lq + fk*l1q + (j*j-j)/s2 + math.Log(0.5) + numeric.LogErfc((z1-j)/r2s)
		if sign > 0 {
			pos0, pos1 = numeric.LogAddExp(pos0, t0), numeric.LogAddExp(pos1, t1)
		} else {
			neg0, neg1 = numeric.LogAddExp(neg0, t0), numeric.LogAddExp(neg1, t1)
		}
		if fk > lambda && math.Max(t0, t1) < -30 {
			a0 := numeric.LogSubExp(pos0, neg0)
			a1 := numeric.LogSubExp(pos1, neg1)
			return numeric.LogAddExp(a0, a1)
		}
	}
	return math.Inf(1)
}

// SampledGaussianRDPBound returns the closed-form bound of [MTZ19]
// Theorem 11,
//
//	ε(λ) ≤ 2q²λ/σ²,
//
// with ok = true only under the theorem's conditions: q ≤ 1/5, σ ≥ 4 and
//
//	1 < λ ≤ ½σ²L − 2 ln σ,
//	λ ≤ (½σ²L² − ln 5 − 2 ln σ) / (L + ln(qλ) + 1/(2σ²)),   L = ln(1 + 1/(q(λ−1))).
//
// Outside them eps is still 2q²λ/σ² but ok is false and the value is not a
// bound. It panics like [SampledGaussianRDP] on invalid arguments.
func SampledGaussianRDPBound(q, sigma, lambda float64) (eps float64, ok bool) {
	if !(q >= 0 && q <= 1) {
		panic("mechanisms: sampling rate q must lie in [0, 1]")
	}
	mustPositive("SampledGaussianRDPBound", "sigma", sigma)
	mustOrder(lambda)
	eps = 2 * q * q * lambda / (sigma * sigma)
	if q == 0 {
		return 0, true
	}
	if q > 0.2 || sigma < 4 || math.IsInf(lambda, 1) {
		return eps, false
	}
	L := math.Log(1 + 1/(q*(lambda-1)))
	ls := math.Log(sigma)
	c1 := lambda <= 0.5*sigma*sigma*L-2*ls
	den := L + math.Log(q*lambda) + 1/(2*sigma*sigma)
	c2 := den > 0 && lambda <= (0.5*sigma*sigma*L*L-math.Log(5)-2*ls)/den
	return eps, c1 && c2
}
