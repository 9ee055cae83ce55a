package mechanisms

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dptest/dptest/internal/numeric"
)

// poissonSubsampledSum returns Σᵢ Zᵢxᵢ with Zᵢ ∼ Ber(γ) independent: the sum
// over the Poisson subsample Γ(x) of [KAD24] eq. (22).
func poissonSubsampledSum(r *rand.Rand, x []float64, gamma float64) float64 {
	s := 0.0
	for _, v := range x {
		if r.Float64() < gamma {
			s += v
		}
	}
	return s
}

// SubsampledGaussian is the Gaussian mechanism run on a Poisson subsample
// ([KAD24] Section IV-B, eq. (22)): each record is kept independently with
// probability γ, then
//
//	M(x) = Σ_{i kept} xᵢ + Y,   Y ∼ N(0, σ²).
//
// On the canonical pair M(x) = (1−γ)N(0,σ²) + γN(1,σ²) and M(x′) = N(0,σ²),
// which is the worst case of [MTZ19] Theorem 4. Sigma must be positive and
// Gamma in (0, 1]; the zero value panics.
type SubsampledGaussian struct {
	Sigma float64 // noise standard deviation σ > 0
	Gamma float64 // sampling probability γ ∈ (0, 1]
}

// Sample draws M(x).
func (m SubsampledGaussian) Sample(r *rand.Rand, x []float64) float64 {
	m.check()
	return poissonSubsampledSum(r, x, m.Gamma) + m.Sigma*r.NormFloat64()
}

// RDP returns the exact D_λ(M(x) ‖ M(x′)) for the canonical pair,
// [SampledGaussianRDP](γ, σ, λ) ([MTZ19] Section 3.3). It panics unless λ > 1.
func (m SubsampledGaussian) RDP(lambda float64) float64 {
	m.check()
	return SampledGaussianRDP(m.Gamma, m.Sigma, lambda)
}

func (m SubsampledGaussian) check() {
	mustPositive("SubsampledGaussian", "Sigma", m.Sigma)
	mustRate("SubsampledGaussian", "Gamma", m.Gamma)
}

// SubsampledLaplace is the Laplace mechanism run on a Poisson subsample
// ([KAD24] Section IV-B, eq. (22)):
//
//	M(x) = Σ_{i kept} xᵢ + Y,   Y ∼ Lap(0, b),
//
// each record kept independently with probability γ. On the canonical pair
// M(x) = p = (1−γ)Lap(0,b) + γLap(1,b) and M(x′) = q = Lap(0,b). B must be
// positive and Gamma in (0, 1]; the zero value panics.
type SubsampledLaplace struct {
	B     float64 // noise scale b > 0
	Gamma float64 // sampling probability γ ∈ (0, 1]
}

// Sample draws M(x).
func (m SubsampledLaplace) Sample(r *rand.Rand, x []float64) float64 {
	m.check()
	return poissonSubsampledSum(r, x, m.Gamma) + laplaceNoise(r, m.B)
}

// RDP returns the exact D_λ(p ‖ q) for the canonical pair, for any real λ > 1,
// by integration of the mixture densities. The likelihood ratio
//
//	L(t) = p(t)/q(t) = (1−γ) + γ exp((|t| − |t−1|)/b)
//
// is constant on t ≤ 0 (L₋ = 1−γ+γe^{−1/b}) and on t ≥ 1 (L₊ = 1−γ+γe^{1/b}),
// where q has mass ½ and ½e^{−1/b}, so
//
//	∫ p^λ q^{1−λ} = ½L₋^λ + ½e^{−1/b}L₊^λ + ∫₀¹ e^{−t/b}/(2b) · ((1−γ) + γe^{(2t−1)/b})^λ dt,
//
// and only the smooth middle integral is computed numerically (composite
// 64-point Gauss–Legendre, relative error below 1e-12). λ = +Inf gives
// log L₊ = D_∞(p ‖ q).
func (m SubsampledLaplace) RDP(lambda float64) float64 {
	m.check()
	mustOrder(lambda)
	b, g := m.B, m.Gamma
	if math.IsInf(lambda, 1) {
		return math.Log(1 - g + g*math.Exp(1/b))
	}
	logLm := math.Log(1 - g + g*math.Exp(-1/b))
	logLp := math.Log(1 - g + g*math.Exp(1/b))
	left := math.Log(0.5) + lambda*logLm
	right := math.Log(0.5) - 1/b + lambda*logLp
	mid := numeric.LogIntegrateBreaks(func(t float64) float64 {
		return -t/b - math.Log(2*b) + lambda*math.Log(1-g+g*math.Exp((2*t-1)/b))
	}, []float64{0, 1}, 8)
	return numeric.LogSumExp([]float64{left, mid, right}) / (lambda - 1)
}

// RDPBound returns the Poisson-subsampling RDP formula printed in [KAD24]
// Section IV-B (from Zhu and Wang, "Poisson subsampled Rényi differential
// privacy", 2019), for integer λ ≥ 2:
//
//	ε(λ) = 1/(λ−1) · log{ (1−γ)^{λ−1}(λγ − γ + 1)
//	                     + Σ_{j=2}^{λ} C(λ,j) (1−γ)^{λ−j} γ^j exp((j−1) ε₀(j)) },
//
// with ε₀(j) the Laplace mechanism's RDP of order j ([Laplace.RDP]). The
// paper prints ε₀(λ) inside the sum; the source theorem, and the identity
// below, have ε₀(j), and with ε₀(λ) ≥ ε₀(j) the printed form is merely a
// looser bound. For the canonical pair the formula is the binomial expansion
// of E_q[((1−γ) + γ p₁/q)^λ] with E_q[(p₁/q)^j] = exp((j−1)ε₀(j)), so it
// equals [SubsampledLaplace.RDP] at integer λ; the tests check that. It
// panics unless λ is an integer ≥ 2.
func (m SubsampledLaplace) RDPBound(lambda float64) float64 {
	m.check()
	if !(lambda >= 2 && lambda == math.Trunc(lambda) && lambda < 1e6) {
		panic("mechanisms: SubsampledLaplace.RDPBound needs an integer order λ ≥ 2")
	}
	g := m.Gamma
	n := int(lambda)
	terms := []float64{(lambda-1)*math.Log1p(-g) + math.Log(lambda*g-g+1)}
	if g == 1 {
		terms = terms[:0]
	}
	base := Laplace{B: m.B}
	for j := 2; j <= n; j++ {
		lc, _ := numeric.LogAbsBinomial(lambda, j)
		fj := float64(j)
		t := lc + fj*math.Log(g) + float64(j-1)*base.RDP(fj)
		if n-j > 0 {
			t += float64(n-j) * math.Log1p(-g)
		}
		terms = append(terms, t)
	}
	return numeric.LogSumExp(terms) / (lambda - 1)
}

func (m SubsampledLaplace) check() {
	mustPositive("SubsampledLaplace", "B", m.B)
	mustRate("SubsampledLaplace", "Gamma", m.Gamma)
}

// SubsampledGaussianSteps releases Steps independent runs of
// [SubsampledGaussian] on one dataset as a vector, one coordinate a step
// (the noisy sums of DP-SGD's steps, each on a fresh Poisson subsample):
//
//	M(x) = (S₁ + Y₁, …, S_T + Y_T),   S_t = Σ_{i kept at step t} xᵢ,   Y_t ∼ N(0, σ²),
//
// every record kept at every step independently with probability γ. On
// the canonical pair (x = (1) against the empty dataset) the coordinates
// are independent, each (1−γ)·N(0, σ²) + γ·N(1, σ²) against N(0, σ²).
// Steps and Sigma must be positive and Gamma in (0, 1]; the zero value
// panics.
type SubsampledGaussianSteps struct {
	Steps int
	Sigma float64 // noise standard deviation σ > 0
	Gamma float64 // sampling probability γ ∈ (0, 1]
}

// Sample draws M(x).
func (m SubsampledGaussianSteps) Sample(r *rand.Rand, x []float64) []float64 {
	m.check()
	v := make([]float64, m.Steps)
	for t := range v {
		v[t] = poissonSubsampledSum(r, x, m.Gamma) + m.Sigma*r.NormFloat64() // a SubsampledGaussian step
	}
	return v
}

// RDP returns the exact D_λ(M(x) ‖ M(x′)) for the canonical pair:
// T·[SampledGaussianRDP](γ, σ, λ) ([MTZ19] Section 3.3 for one step):
// the Rényi divergence of a product of independent releases is the sum
// of theirs, which is why composition adds them (Mironov, "Rényi
// differential privacy", CSF 2017, Proposition 1, attained here). It
// panics unless λ > 1.
func (m SubsampledGaussianSteps) RDP(lambda float64) float64 {
	m.check()
	return float64(m.Steps) * SampledGaussianRDP(m.Gamma, m.Sigma, lambda)
}

// CLTMu returns γ·√T·√(e^{1/σ²} − 1), the μ of the central limit theorem
// for the composition of Poisson-subsampled Gaussians (Dong, Roth and Su,
// "Gaussian differential privacy", J. R. Stat. Soc. B, 2022; its Poisson
// form in Bu, Dong, Long and Su, "Deep learning with Gaussian
// differential privacy", Harvard Data Sci. Rev., 2020): the limit
// of T steps as T grows with γ√T fixed, which accountants use in place of
// a bound. It is not a μ the finite composition satisfies: on the
// canonical pair, likelihood-ratio tests of small level show a Gaussian
// level Φ⁻¹(P) − Φ⁻¹(Q) above it, the more so the smaller the level
// (docs/measured.md).
func (m SubsampledGaussianSteps) CLTMu() float64 {
	m.check()
	return m.Gamma * math.Sqrt(float64(m.Steps)) * math.Sqrt(math.Expm1(1/(m.Sigma*m.Sigma)))
}

func (m SubsampledGaussianSteps) check() {
	if m.Steps < 1 {
		panic(fmt.Sprintf("mechanisms: SubsampledGaussianSteps.Steps must be positive, got %d", m.Steps))
	}
	mustPositive("SubsampledGaussianSteps", "Sigma", m.Sigma)
	mustRate("SubsampledGaussianSteps", "Gamma", m.Gamma)
}
