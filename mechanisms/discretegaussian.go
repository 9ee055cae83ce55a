package mechanisms

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dptest/dptest/internal/numeric"
)

// DiscreteGaussian is the discrete Gaussian mechanism of Canonne, Kamath
// and Steinke (2020) on an integer query of the given sensitivity Δ:
//
//	M(c) = c + Z,   P(Z = k) = e^{−k²/(2σ²)} / θ(0),   θ(x) = Σ_{k∈ℤ} e^{−(k−x)²/(2σ²)},
//
// the integer noise of OpenDP's Gaussian mechanism on
// integers. Its Rényi DP is that of the Gaussian mechanism, λΔ²/(2σ²), at
// every order λ with (λ−1)Δ an integer (below it between them:
// [DiscreteGaussian.RDP]), but
// its trade-off is not the Gaussian's: at σ ≤ 1 it is measurably worse
// than Δ/σ-GDP ([DiscreteGaussian.Mu]: 2.49 at σ = ½, Δ = 1). Sigma must
// lie in [0.05, 10⁴] (below, the masses next to 0 underflow; above, the
// exact curves' sums grow long), Sensitivity in [1, 10⁴].
type DiscreteGaussian struct {
	Sigma       float64 // σ > 0
	Sensitivity int     // Δ ≥ 1
}

// Sample draws M(c) by the rejection sampler of Canonne, Kamath and
// Steinke (Algorithm 3): a discrete Laplace draw Y of scale t = ⌊σ⌋ + 1,
// accepted with probability exp(−(|Y| − σ²/t)²/(2σ²)) (in floating point,
// not their exact arithmetic: fine for testing, not for deployment).
func (m DiscreteGaussian) Sample(r *rand.Rand, c int64) int64 {
	m.check()
	t := math.Floor(m.Sigma) + 1
	geometric := func() float64 { return math.Floor(-t * math.Log(1-r.Float64())) }
	for {
		y := geometric() - geometric()
		d := math.Abs(y) - m.Sigma*m.Sigma/t
		if r.Float64() < math.Exp(-d*d/(2*m.Sigma*m.Sigma)) {
			return c + int64(y)
		}
	}
}

// RDP returns D_λ(M(Δ) ‖ M(0)) (equal to D_λ(M(0) ‖ M(Δ)) by symmetry),
// the mechanism's exact Rényi DP: completing the square in
// p(k)^λ·p(k−Δ)^{1−λ},
//
//	D_λ = λΔ²/(2σ²) + ln(θ((1−λ)Δ)/θ(0)) / (λ−1),
//
// the ratio of θ (whose period is 1) computed from its series (or, for
// large σ, its Poisson dual). θ is largest at the integers, so D_λ ≤
// λΔ²/(2σ²), with equality where (λ−1)Δ is an integer (Canonne, Kamath
// and Steinke). λ = +Inf gives +Inf (the loss is unbounded). It panics
// unless λ > 1.
func (m DiscreteGaussian) RDP(lambda float64) float64 {
	m.check()
	mustOrder(lambda)
	if math.IsInf(lambda, 1) {
		return math.Inf(1)
	}
	d := float64(m.Sensitivity)
	return lambda*d*d/(2*m.Sigma*m.Sigma) + thetaRatioLog(m.Sigma, (1-lambda)*d)/(lambda-1)
}

// thetaRatioLog returns ln(θ(x)/θ(0)), θ(x) = Σ_k e^{−(k−x)²/(2σ²)}, as
// ln(1 + r) with r computed without cancellation, so that it stays exact
// for x near an integer (λ near 1, or (λ−1)Δ near an integer): with
// f = x − round(x) (θ has period 1), for σ < 1 by direct summation over
// |k| ≤ 40σ + 40 (the rest below e^{−800} of it),
//
//	r = Σ_k e^{−k²/(2σ²)}·expm1((2kf − f²)/(2σ²)) / θ(0)
//
// (each term as a difference of exponentials where its exponent is large),
//
// and for σ ≥ 1 by its dual series (Poisson summation: θ(x) ∝
// 1 + 2Σ_{n≥1} e^{−2π²σ²n²} cos 2πnx, whose terms fall below 10⁻⁸ after
// the first),
//
//	r = −4 Σ_n e^{−2π²σ²n²} sin²(πnf) / (1 + 2 Σ_n e^{−2π²σ²n²});
//
// where r < −½ (σ small, θ(f) far below θ(0)), as the difference of the
// two logarithms, each summed in log space.
func thetaRatioLog(sigma, x float64) float64 {
	f := x - math.Round(x)
	if f == 0 {
		return 0
	}
	var num, den float64
	if sigma >= 1 {
		for n := 1.0; n <= 4; n++ {
			e := math.Exp(-2 * math.Pi * math.Pi * sigma * sigma * n * n)
			s := math.Sin(math.Pi * n * f)
			num -= 4 * e * s * s
			den += 2 * e
		}
		return math.Log1p(num / (1 + den))
	}
	reach := int(math.Ceil(40*sigma + 40))
	for k := -reach; k <= reach; k++ {
		fk := float64(k)
		w := math.Exp(-fk * fk / (2 * sigma * sigma))
		a := (2*fk*f - f*f) / (2 * sigma * sigma)
		if math.Abs(a) < 1 {
			num += w * math.Expm1(a)
		} else { // no cancellation to avoid, and w·e^a would overflow
			num += math.Exp(-(fk-f)*(fk-f)/(2*sigma*sigma)) - w
		}
		den += w
	}
	if r := num / den; r > -0.5 {
		return math.Log1p(r)
	}
	// θ(f) far below θ(0) (σ small): ln θ(f) − ln θ(0) has no
	// cancellation to avoid, and 1 + r would lose θ(f) altogether.
	at, zero := make([]float64, 0, 2*reach+1), make([]float64, 0, 2*reach+1)
	for k := -reach; k <= reach; k++ {
		fk := float64(k)
		at = append(at, -(fk-f)*(fk-f)/(2*sigma*sigma))
		zero = append(zero, -fk*fk/(2*sigma*sigma))
	}
	return numeric.LogSumExp(at) - numeric.LogSumExp(zero)
}

// noise returns the noise's masses P(Z = k) for |k| ≤ reach (index
// k + reach), reach = ⌈40σ⌉ + 40 + Δ (the rest below e^{−800} of them).
func (m DiscreteGaussian) noise() (mass []float64, reach int) {
	reach = int(math.Ceil(40*m.Sigma)) + 40 + m.Sensitivity
	mass = make([]float64, 2*reach+1)
	z := 0.0
	for i := range mass {
		k := float64(i - reach)
		mass[i] = math.Exp(-k * k / (2 * m.Sigma * m.Sigma))
		z += mass[i]
	}
	for i := range mass {
		mass[i] /= z
	}
	return mass, reach
}

// Mu returns the mechanism's exact Gaussian-DP level: the largest
// Φ⁻¹(P(T)) − Φ⁻¹(Q(T)) over the likelihood-ratio tests T = {M ≥ t}
// of M(Δ) against M(0) (the loss (2k − Δ)Δ/(2σ²) rises with the output,
// so these are all of them, and a randomized test, on a chord of the
// trade-off, shows no more than its ends), each tail summed from its
// smaller side. It tends to Δ/σ as σ grows and exceeds it at every σ tried
// (by 24% at σ = ½, 4.6% at σ = 1, 1.1% at σ = 2, for Δ = 1).
func (m DiscreteGaussian) Mu() float64 {
	m.check()
	mass, _ := m.noise()
	// upper[i] = P(Z ≥ i − reach), lower[i] = P(Z < i − reach), reach
	// the noise's.
	n := len(mass)
	upper, lower := make([]float64, n+1), make([]float64, n+1)
	for i := n - 1; i >= 0; i-- {
		upper[i] = upper[i+1] + mass[i]
	}
	for i := 1; i <= n; i++ {
		lower[i] = lower[i-1] + mass[i-1]
	}
	quantile := func(up, low float64) float64 { // Φ⁻¹(up), low = 1 − up
		if up < low {
			return numeric.NormalQuantile(up)
		}
		return -numeric.NormalQuantile(low)
	}
	best, d := math.Inf(-1), m.Sensitivity
	for i := d; i < n; i++ { // T = {M ≥ t}: P(T) = P(Z ≥ t − Δ), Q(T) = P(Z ≥ t)
		p, pl, q, ql := upper[i-d], lower[i-d], upper[i], lower[i]
		if q < 1e-300 || pl < 1e-300 {
			continue
		}
		best = max(best, quantile(p, pl)-quantile(q, ql))
	}
	return best
}

// Delta returns the mechanism's exact δ(ε) = Σ_k (P(M(Δ) = k) −
// e^ε·P(M(0) = k))⁺, equal in both directions by symmetry. It panics
// unless ε ≥ 0.
func (m DiscreteGaussian) Delta(eps float64) float64 {
	m.check()
	if !(eps >= 0) {
		panic(fmt.Sprintf("mechanisms: DiscreteGaussian ε must be ≥ 0, got %v", eps))
	}
	mass, _ := m.noise()
	w, d, delta := math.Exp(eps), m.Sensitivity, 0.0
	for i := range mass {
		p := 0.0
		if i >= d {
			p = mass[i-d]
		}
		delta += math.Max(0, p-w*mass[i])
	}
	return delta
}

func (m DiscreteGaussian) check() {
	if !(m.Sigma >= 0.05 && m.Sigma <= 1e4) || m.Sensitivity < 1 || m.Sensitivity > 1e4 {
		panic(fmt.Sprintf("mechanisms: DiscreteGaussian needs 0.05 ≤ Sigma ≤ 10⁴ and 1 ≤ Sensitivity ≤ 10⁴, got %+v", m))
	}
}
