package numeric

import "math"

// LogAddExp returns log(exp(a) + exp(b)) without overflow or underflow.
//
//	log(eᵃ + eᵇ) = max(a,b) + log1p(exp(−|a−b|))
func LogAddExp(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// LogSubExp returns log(exp(a) − exp(b)) for a ≥ b; it returns −Inf when
// a == b and NaN when a < b.
//
//	log(eᵃ − eᵇ) = a + log1p(−exp(b−a))
func LogSubExp(a, b float64) float64 {
	switch {
	case math.IsInf(b, -1):
		return a
	case a == b:
		return math.Inf(-1)
	case a < b:
		return math.NaN()
	}
	return a + math.Log1p(-math.Exp(b-a))
}

// LogSumExp returns log Σ exp(xᵢ), shifting by the maximum. An empty slice
// gives −Inf.
func LogSumExp(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		if x > m {
			m = x
		}
	}
	if math.IsInf(m, 0) {
		return m
	}
	s := 0.0
	for _, x := range xs {
		s += math.Exp(x - m)
	}
	return m + math.Log(s)
}

// SoftFloor is the softmax floor of [KAD24] eq. (13),
//
//	t_τ = β⁻¹ log(exp(βt) + exp(βτ)) = max(t,τ) + β⁻¹ log1p(exp(−β|t−τ|)),
//
// evaluated in the second form so that βt may be 10⁵ or more. It satisfies
// t_τ ≥ max(t, τ) and t_τ − max(t, τ) ≤ log(2)/β ([KAD24], Appendix B).
func SoftFloor(t, tau, beta float64) float64 {
	m, d := t, t-tau
	if tau > t {
		m, d = tau, tau-t
	}
	return m + math.Log1p(math.Exp(-beta*d))/beta
}

// SoftFloorSlope is the derivative π(t) = ∂t_τ/∂t of [SoftFloor], [KAD24]
// eq. (17),
//
//	π(t) = exp(βt) / (exp(βt) + exp(βτ)) = 1 / (1 + exp(−β(t−τ))),
//
// evaluated without overflow.
func SoftFloorSlope(t, tau, beta float64) float64 {
	z := beta * (t - tau)
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// LogErfc returns log(erfc(x)), accurate also where erfc underflows
// (x ≳ 26), by the asymptotic series
//
//	erfc(x) ≈ exp(−x²)/(x√π) · (1 − 1/(2x²) + 3/(4x⁴) − 15/(8x⁶) + 105/(16x⁸) − 945/(32x¹⁰)).
func LogErfc(x float64) float64 {
	if x < 20 {
		return math.Log(math.Erfc(x))
	}
	r := 1 / (x * x)
	series := 1 + r*(-0.5+r*(0.75+r*(-1.875+r*(6.5625+r*(-29.53125)))))
	return -x*x - math.Log(x) - 0.5*math.Log(math.Pi) + math.Log(series)
}

// LogAbsBinomial returns log|C(a, k)| and the sign of the generalised
// binomial coefficient C(a, k) = a(a−1)⋯(a−k+1)/k! for real a and integer
// k ≥ 0. When a is a non-negative integer and k > a the coefficient is 0 and
// the result is (−Inf, 0).
func LogAbsBinomial(a float64, k int) (logAbs float64, sign int) {
	if k < 0 {
		return math.Inf(-1), 0
	}
	if a == math.Trunc(a) && a >= 0 && float64(k) > a {
		return math.Inf(-1), 0
	}
	// C(a,k) = Γ(a+1) / (Γ(k+1) Γ(a−k+1)); Lgamma returns log|Γ| and sign.
	la, sa := math.Lgamma(a + 1)
	lk, _ := math.Lgamma(float64(k) + 1)
	lak, sak := math.Lgamma(a - float64(k) + 1)
	return la - lk - lak, sa * sak
}
