package main

import (
	"math"

	"github.com/dptest/dptest/internal/numeric"
)

// logNormPDF is ln φ((t−m)/s)/s.
func logNormPDF(t, m, s float64) float64 {
	z := (t - m) / s
	return -0.5*z*z - math.Log(s) - 0.5*math.Log(2*math.Pi)
}

// logNormCDFInterval is ln(Φ((b−m)/s) − Φ((a−m)/s)), accurate in both tails.
func logNormCDFInterval(a, b, m, s float64) float64 {
	za, zb := (a-m)/s/math.Sqrt2, (b-m)/s/math.Sqrt2
	if za > 0 { // upper tail: erfc differences
		return math.Log(0.5) + numeric.LogSubExp(math.Log(math.Erfc(za)), math.Log(math.Erfc(zb)))
	}
	if zb < 0 {
		return math.Log(0.5) + numeric.LogSubExp(math.Log(math.Erfc(-zb)), math.Log(math.Erfc(-za)))
	}
	return math.Log(0.5 * (math.Erf(zb) - math.Erf(za)))
}

// renyiOfLogDensities returns D_λ(P ‖ Q) = 1/(λ−1) ln ∫ p^λ q^{1−λ} for
// densities given by their logarithms, by quadrature over the break points.
func renyiOfLogDensities(lp, lq func(float64) float64, lambda float64, breaks []float64) float64 {
	g := func(t float64) float64 { return lambda*lp(t) + (1-lambda)*lq(t) }
	return numeric.LogIntegrateBreaks(g, breaks, 64) / (lambda - 1)
}

// renyiOfLogMasses returns D_λ for two probability mass functions given by
// their logarithms on the same support.
func renyiOfLogMasses(lp, lq []float64, lambda float64) float64 {
	terms := make([]float64, len(lp))
	for i := range lp {
		terms[i] = lambda*lp[i] + (1-lambda)*lq[i]
		if math.IsInf(lp[i], -1) {
			terms[i] = math.Inf(-1)
		}
	}
	return numeric.LogSumExp(terms) / (lambda - 1)
}

// gaussianMixtureRDP is D_λ between ½N(0,s₁²)+½N(0,s₂²)+W shifted by 1 and
// not shifted, where W adds w with probability ½ (w = 0: no W): the
// far/near bimodal and narrow+wide shapes, by quadrature.
func gaussianMixtureRDP(lambda, s1, s2, w float64) float64 {
	logDensity := func(shift float64) func(float64) float64 {
		return func(t float64) float64 {
			var terms []float64
			for _, m := range []float64{0, w} {
				for _, s := range []float64{s1, s2} {
					terms = append(terms, logNormPDF(t, shift+m, s)+math.Log(0.25))
				}
			}
			return numeric.LogSumExp(terms)
		}
	}
	wide := max(s1, s2)
	lo, hi := -12*wide-2*lambda*wide, w+12*wide+2*lambda*wide
	breaks := []float64{lo}
	for _, m := range []float64{0, w} { // unit steps over each mode's tilted mass
		for k := -12 * wide; k <= (2*lambda+12)*wide; k += min(wide, 1) {
			if c := m + k; c > lo && c < hi {
				breaks = append(breaks, c)
			}
		}
	}
	breaks = append(breaks, hi)
	sortFloats(breaks)
	return renyiOfLogDensities(logDensity(1), logDensity(0), lambda, breaks)
}

// discreteLaplaceRDP is D_λ between the two-sided geometric of P(k) ∝
// e^{−|k|/b} shifted by the integer Δ and not shifted (closed form: three
// geometric sums over k ≤ 0, 0 < k < Δ, k ≥ Δ, in log space).
func discreteLaplaceRDP(lambda, b float64, delta int) float64 {
	lr := -1 / b // ln r
	logC := math.Log(-math.Expm1(lr)) - math.Log1p(math.Exp(lr))
	log1mr := math.Log(-math.Expm1(lr))
	d := float64(delta)
	terms := []float64{
		logC + (1-lambda)*d*lr - log1mr, // k ≤ 0
		logC + lambda*d*lr - log1mr,     // k ≥ Δ
	}
	if delta > 1 { // 0 < k < Δ: ratio ρ = r^{2λ−1}
		lrho := (2*lambda - 1) * lr
		geo := lrho + math.Log(-math.Expm1((d-1)*lrho)) - math.Log(-math.Expm1(lrho))
		terms = append(terms, logC+(1-lambda)*d*lr+geo)
	}
	return numeric.LogSumExp(terms) / (lambda - 1)
}

// discreteLaplaceRDPBySum is discreteLaplaceRDP by direct summation, the
// check of the closed form.
func discreteLaplaceRDPBySum(lambda, b float64, delta int) float64 {
	n := int(60*b) + 2*delta + 100
	var lp, lq []float64
	logC := math.Log(-math.Expm1(-1/b)) - math.Log1p(math.Exp(-1/b))
	for k := -n; k <= n; k++ {
		lp = append(lp, logC-math.Abs(float64(k-delta))/b)
		lq = append(lq, logC-math.Abs(float64(k))/b)
	}
	return renyiOfLogMasses(lq, lp, lambda)
}

// roundedGaussianRDP is the largest D_λ, over the pairs of means (s, s+d)
// with d ∈ [−1, 1], of round(s + N(0,1)) (a Gaussian on the integers), by
// summation on a grid of s mod 1 and d of step 1/50.
func roundedGaussianRDP(lambda float64) float64 {
	best := 0.0
	for i := 0; i < 50; i++ {
		s := float64(i) / 50
		for j := -50; j <= 50; j++ {
			d := float64(j) / 50
			var lp, lq []float64
			for k := -25; k <= 26; k++ { // Erfc underflows beyond ~26σ; the mass there is negligible at these orders
				lp = append(lp, logNormCDFInterval(float64(k)-0.5, float64(k)+0.5, s, 1))
				lq = append(lq, logNormCDFInterval(float64(k)-0.5, float64(k)+0.5, s+d, 1))
			}
			best = max(best, renyiOfLogMasses(lp, lq, lambda))
		}
	}
	return best
}

// rareStringsRDPAt is D_λ(P ‖ Q) of rareStrings between x₀ = 1 (P, the
// rounded Gaussian's mean s + 1) and x₀ = 0 (Q, mean s), or D_λ(Q ‖ P) if
// reverse, by summation.
func rareStringsRDPAt(lambda, s float64, reverse bool) float64 {
	var lp, lq []float64
	side := func(mean, rate float64) (l []float64) {
		for k := -130; k <= 131; k++ { // 26σ each way
			l = append(l, math.Log1p(-rate)+logNormCDFInterval(float64(k)-0.5, float64(k)+0.5, mean, 5))
		}
		for range rareStringCount {
			l = append(l, math.Log(rate/rareStringCount))
		}
		return l
	}
	lp, lq = side(s+1, rareStringRate*rareStringRatio), side(s, rareStringRate)
	if reverse {
		lp, lq = lq, lp
	}
	return renyiOfLogMasses(lp, lq, lambda)
}

// rareStringsRDP is the largest D_λ of rareStrings over pairs whose x₀
// differs by 1 (the string's rate by rareStringRatio, the sum by 1), on a
// grid of s mod 1 of step 1/50, both directions. (A pair whose x₀ differs
// by d < 1 changes the rate by rareStringRatio^d and the sum by at most 1,
// and a pair with the same x₀ only the sum: neither exceeds it.)
func rareStringsRDP(lambda float64) float64 {
	best := 0.0
	for i := range 50 {
		for _, rev := range []bool{false, true} {
			best = max(best, rareStringsRDPAt(lambda, float64(i)/50, rev))
		}
	}
	return best
}

// zipfBlockRDP is the larger of D_λ(P ‖ Q) and D_λ(Q ‖ P) of zipfBlock
// between x₀ = 1 and x₀ = 0 (the block's weight apart by e, the most
// neighbours in [0, 1] can differ), by summation over the words.
func zipfBlockRDP(lambda float64) float64 {
	var lp, lq []float64
	var sp, sq float64
	for i := range zipfWords {
		sp += zipfWeight(i, 1)
		sq += zipfWeight(i, 0)
	}
	for i := range zipfWords {
		lp = append(lp, math.Log(zipfWeight(i, 1)/sp))
		lq = append(lq, math.Log(zipfWeight(i, 0)/sq))
	}
	return max(renyiOfLogMasses(lp, lq, lambda), renyiOfLogMasses(lq, lp, lambda))
}

// clampedGaussianRDP is the largest D_λ, over pairs of means in [0, 1] on
// a grid of step 1/20, of min(max(m + N(0,1), 0), 1): atoms at 0 and 1 and
// a density between.
func clampedGaussianRDP(lambda float64) float64 {
	best := 0.0
	for i := 0; i <= 20; i++ {
		for j := 0; j <= 20; j++ {
			a, b := float64(i)/20, float64(j)/20
			if a == b {
				continue
			}
			inner := func(t float64) float64 {
				return lambda*logNormPDF(t, a, 1) + (1-lambda)*logNormPDF(t, b, 1)
			}
			terms := []float64{
				numeric.LogIntegrateBreaks(inner, []float64{0, 1}, 8),
				lambda*logNormCDFInterval(math.Inf(-1), 0, a, 1) + (1-lambda)*logNormCDFInterval(math.Inf(-1), 0, b, 1),
				lambda*logNormCDFInterval(1, math.Inf(1), a, 1) + (1-lambda)*logNormCDFInterval(1, math.Inf(1), b, 1),
			}
			best = max(best, numeric.LogSumExp(terms)/(lambda-1))
		}
	}
	return best
}

// cauchyRDP is D_λ between Cauchy(1, 1) and Cauchy(0, 1), by quadrature
// after t = tan θ (the integrand p^λ q^{1−λ}/(1+t²)⁻¹ is smooth in θ).
func cauchyRDP(lambda float64) float64 {
	g := func(th float64) float64 {
		t := math.Tan(th)
		lp := -math.Log(math.Pi) - math.Log1p((t-1)*(t-1))
		lq := -math.Log(math.Pi) - math.Log1p(t*t)
		return lambda*lp + (1-lambda)*lq + math.Log1p(t*t) // dt = (1+t²) dθ
	}
	e := 1e-9
	return numeric.LogIntegrateBreaks(g, []float64{-math.Pi/2 + e, -math.Pi / 4, 0, math.Atan(0.5), math.Pi / 4, math.Atan(1), math.Pi/2 - e}, 64) / (lambda - 1)
}

// kAryRRRDP is D_λ of k-ary randomized response with parameter ε₀ between
// two different true categories: two outputs differ, p_t = e^{ε₀}/(e^{ε₀}+k−1)
// and p_f = 1/(e^{ε₀}+k−1).
func kAryRRRDP(lambda, eps0 float64, k int) float64 {
	lt := eps0 - math.Log(math.Exp(eps0)+float64(k)-1)
	lf := -math.Log(math.Exp(eps0) + float64(k) - 1)
	terms := []float64{lambda*lt + (1-lambda)*lf, lambda*lf + (1-lambda)*lt}
	if k > 2 {
		terms = append(terms, math.Log(float64(k-2))+lf)
	}
	return numeric.LogSumExp(terms) / (lambda - 1)
}

func sortFloats(v []float64) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}
