package stat

import (
	"errors"
	"math"

	"github.com/dptest/dptest/internal/numeric"
)

// UndersmoothExponent is γ in the undersmoothed bandwidth h = h_pi·n^(−γ)
// (see [Undersmooth]).
const UndersmoothExponent = 0.05

// Undersmooth returns h·n^(−UndersmoothExponent), the bandwidth the Rényi
// estimator uses for a plug-in bandwidth h from n samples.
//
// [KAD24] (Section III-C, Assumption 1(2)) asks for a bandwidth below the
// density-optimal one, and its experiments (Section IV-A) raise KernSmooth's
// dpik bandwidth to the power 1.1. That power depends on the unit of the
// output: h^1.1 = h·h^0.1 shrinks a bandwidth of 0.01 by 37% but enlarges
// one of 100 by 58%, so rescaling a mechanism's output would change the
// estimate. Multiplying by n^(−γ) shrinks by the same factor whatever the
// unit, and still makes h decay faster than the optimal n^(−1/5).
func Undersmooth(h float64, n int) float64 {
	return h * math.Pow(float64(max(n, 1)), -UndersmoothExponent)
}

// Density returns the Gaussian kernel density estimate of [KAD24] eq. (10)
// with bandwidth h and its variance at every grid point (see
// [Smoother.Density]).
func (b *Binned) Density(h float64, keep []bool, total int64) (dens, variance []float64) {
	return NewSmoother(b.Grid, h).Density(b, keep, total)
}

// Smoother is the Gaussian kernel of one bandwidth on one grid, ready to
// smooth every binned sample on that grid (both sides of a pair, and again
// with sparse runs masked) with each kernel transformed once.
type Smoother struct {
	grid  Grid
	h     float64
	conv  *numeric.Convolver
	k, k2 *numeric.Transformed
}

// NewSmoother returns the smoother of bandwidth h on grid g: the kernel
// K_h and the kernel K_h²/(2√π h) of the variance, sampled on the grid and
// truncated at 9h, where they are below 10⁻¹⁷ of their peak.
func NewSmoother(g Grid, h float64) *Smoother {
	step := g.Step
	k := gaussianDerivativeKernel(0, h, step, g.Points)
	k2 := gaussianDerivativeKernel(0, h/math.Sqrt2, step, g.Points)
	c := 1 / (2 * math.Sqrt(math.Pi) * h)
	for i := range k2 {
		k2[i] *= c
	}
	if h < 2*step {
		// A bandwidth under two grid steps: the Gaussian sampled on the grid
		// no longer sums to one (at h = step/3 it sums to 1.22, at
		// h = step/20 to 8, and the estimate's mass with it). Normalise it,
		// so that the estimate is the binned sample smoothed by a discrete
		// kernel, a post-processing of the outputs with total mass
		// conserved. From h = 2·step on, the sum differs from one by about
		// 2e^{−2π²h²/step²} ≤ 10⁻³⁴ (Poisson summation), far below double
		// precision, and nothing is changed.
		full := gaussianDerivativeKernel(0, h, step, math.MaxInt)
		sum := full[0]
		for _, v := range full[1:] {
			sum += 2 * v
		}
		sum *= step
		for i := range k {
			k[i] /= sum
		}
		for i := range k2 {
			k2[i] /= sum * sum
		}
	}
	conv := numeric.NewConvolver()
	return &Smoother{grid: g, h: h, conv: conv, k: conv.Kernel(k), k2: conv.Kernel(k2)}
}

// Density returns the Gaussian kernel density estimate of [KAD24] eq. (10),
//
//	f̂(t) = (1/(nh)) Σᵢ K((t − Xᵢ)/h),   K = standard normal density,
//
// at every grid point, computed from the binned masses m_j as
// f̂(g_i) = Σ_j m_j K((g_i − g_j)/h)/h by FFT convolution, and the estimated
// variance of f̂ at each grid point,
//
//	Var f̂(t) = (1/n) [ (K_h² ∗ f)(t) − (K_h ∗ f)(t)² ],   K_h² = φ_{h/√2}/(2√π h),
//
// with f replaced by the binned sample. If keep is not nil, only the masses
// at grid points i with keep[i] are smoothed (the others are atoms, see
// [SparseRuns]). Masses are relative to total samples (0 means N; a larger
// total when the binned samples are only part of a sample, see [Real]), so
// the estimate is a sub-density of that sample. Values that round-off
// leaves slightly negative are set to 0. b must be binned on the
// smoother's grid.
func (s *Smoother) Density(b *Binned, keep []bool, total int64) (dens, variance []float64) {
	if b.Grid != s.grid {
		panic("stat: smoothing a sample binned on another grid")
	}
	if total == 0 {
		total = b.N
	}
	m := b.Masses()
	if total != b.N {
		f := float64(b.N) / float64(total)
		for i := range m {
			m[i] *= f
		}
	}
	if keep != nil {
		for i := range m {
			if !keep[i] {
				m[i] = 0
			}
		}
	}
	out := s.conv.Convolve(s.conv.Masses(m), s.k, s.k2)
	dens, variance = out[0], out[1]
	n := float64(total)
	for i, v := range dens {
		if v < 0 {
			dens[i] = 0
		}
		variance[i] = max((variance[i]-dens[i]*dens[i])/n, 0)
	}
	return dens, variance
}

// SparseRuns marks the grid points where the pooled sample is sparse, fewer
// than k samples per bandwidth by the density estimates pd, qd of samples
// of sizes np, nq with bandwidth h: h·(n_p·p̂ + n_q·q̂) < k. It returns keep
// (false at sparse points) and the maximal runs [first, last] of sparse
// points that hold binned mass.
//
// Mapping every output in a sparse run to one atom, and smoothing only the
// rest, is a deterministic post-processing of the outputs (chosen from the
// pooled sample, symmetrically in p and q), so a divergence bound computed
// after it is still a bound. It replaces regions where a kernel estimate
// rests on a few samples per bandwidth, and its ratio p̂/q̂ raised to the
// power λ is mostly noise whose bias no Taylor correction captures, by
// masses estimated from every sample the run holds.
func SparseRuns(pd, qd []float64, np, nq int64, h, k float64, p, q *Binned) (keep []bool, runs [][2]int) {
	keep = make([]bool, len(pd))
	for i := range pd {
		keep[i] = h*(float64(np)*pd[i]+float64(nq)*qd[i]) >= k
	}
	for i := 0; i < len(keep); {
		if keep[i] {
			i++
			continue
		}
		j := i
		hasMass := false
		for j < len(keep) && !keep[j] {
			if p.Weights[j] != 0 || q.Weights[j] != 0 {
				hasMass = true
			}
			j++
		}
		if hasMass {
			runs = append(runs, [2]int{i, j - 1})
		}
		i = j
	}
	return keep, runs
}

// RunMass returns the probability mass that grid points first..last hold,
// relative to total samples (0 means N).
func (b *Binned) RunMass(first, last int, total int64) float64 {
	if total == 0 {
		total = b.N
	}
	var w uint64
	for i := first; i <= last; i++ {
		w += b.Weights[i]
	}
	return float64(w) / (float64(total) * binUnit)
}

// gaussianDerivativeKernel samples the r-th derivative of the scaled normal
// density φ_h(u) = φ(u/h)/h at u = 0, step, 2·step, … up to 9h (at most
// maxLen points): φ_h^{(r)}(u) = h^{−r−1} φ^{(r)}(u/h), with
// φ^{(r)}(x) = (−1)^r He_r(x) φ(x) for the probabilists' Hermite polynomials.
// Only even r are needed; the kernel is symmetric.
func gaussianDerivativeKernel(r int, h, step float64, maxLen int) []float64 {
	l := int(math.Ceil(9*h/step)) + 1
	l = min(l, maxLen)
	k := make([]float64, l)
	scale := math.Pow(h, -float64(r)-1) / math.Sqrt(2*math.Pi)
	for d := range k {
		x := float64(d) * step / h
		k[d] = scale * hermiteEven(r, x) * math.Exp(-0.5*x*x)
	}
	return k
}

// hermiteEven returns He_r(x) for r ∈ {0, 2, 4, 6}.
func hermiteEven(r int, x float64) float64 {
	x2 := x * x
	switch r {
	case 0:
		return 1
	case 2:
		return x2 - 1
	case 4:
		return x2*x2 - 6*x2 + 3
	case 6:
		return x2*x2*x2 - 15*x2*x2 + 45*x2 - 15
	}
	panic("stat: unsupported derivative order")
}

// Scale returns the robust scale min(sd, IQR/1.349) of the binned sample, or
// of the equal-weight pool of several binned samples on one grid.
func Scale(bs ...*Binned) float64 {
	g := bs[0].Grid
	mass := make([]float64, g.Points)
	for _, b := range bs {
		for i, v := range b.Masses() {
			mass[i] += v / float64(len(bs))
		}
	}
	mean, m2 := 0.0, 0.0
	for i, w := range mass {
		mean += w * g.At(i)
	}
	for i, w := range mass {
		d := g.At(i) - mean
		m2 += w * d * d
	}
	sd := math.Sqrt(m2)
	q1, q3 := massQuantile(mass, g, 0.25), massQuantile(mass, g, 0.75)
	iqr := (q3 - q1) / 1.3489795003921634
	if iqr > 0 && iqr < sd {
		return iqr
	}
	return sd
}

// massQuantile returns the p-quantile of the discrete distribution with the
// given masses on the grid, interpolated linearly inside a cell.
func massQuantile(mass []float64, g Grid, p float64) float64 {
	c := 0.0
	for i, w := range mass {
		if c+w >= p && w > 0 {
			f := (p - c) / w
			if i == 0 {
				return g.At(0)
			}
			return g.At(i-1) + (0.5+f)*g.Step
		}
		c += w
	}
	return g.Hi()
}

// ErrNoSpread reports a binned sample whose robust scale is zero.
var ErrNoSpread = errors.New("stat: the sample has no spread on the grid (a point mass or two adjacent points); treat the output as discrete")

// PluginBandwidth returns the two-stage direct plug-in bandwidth of Wand and
// Jones (Kernel Smoothing, 1995, §3.6), as computed by KernSmooth's dpik
// (scalest = "minim", level = 2, normal kernel) that [KAD24] Section IV-A
// uses, from binned data:
//
//	s   = min(sd, IQR/1.349),        standardised by s below,
//	g₁  = (2·√2⁹ / (7n))^{1/9},       ψ̂₆ = n⁻² Σᵢ Σⱼ φ_{g₁}^{(6)}(Xᵢ − Xⱼ),
//	g₂  = (−3√(2/π) / (ψ̂₆ n))^{1/7},  ψ̂₄ = n⁻² Σᵢ Σⱼ φ_{g₂}^{(4)}(Xᵢ − Xⱼ),
//	h   = s · (1 / (2√π ψ̂₄ n))^{1/5}.
//
// The double sums run over the grid masses by FFT convolution (the binned
// kernel functional estimator, KernSmooth's bkfe).
func PluginBandwidth(b *Binned) (float64, error) {
	s := Scale(b)
	if !(s > 0) || b.SinglePoint() {
		return 0, ErrNoSpread
	}
	n := float64(b.N)
	coarse, step := coarsen(b.Masses(), b.Grid.Step, bandwidthPoints)
	step /= s // grid step in standardised units
	conv := numeric.NewConvolver()
	m := conv.Masses(coarse) // transformed once for both stages
	g1 := math.Pow(2*math.Pow(math.Sqrt2, 9)/(7*n), 1.0/9)
	psi6 := kernelFunctional(conv, m, 6, g1, step)
	if !(psi6 < 0) {
		return 0, ErrNoSpread
	}
	g2 := math.Pow(-3*math.Sqrt(2/math.Pi)/(psi6*n), 1.0/7)
	psi4 := kernelFunctional(conv, m, 4, g2, step)
	if !(psi4 > 0) {
		return 0, ErrNoSpread
	}
	return s * math.Pow(1/(2*math.Sqrt(math.Pi)*psi4*n), 0.2), nil
}

// bandwidthPoints is the grid size on which PluginBandwidth evaluates its
// kernel functionals. The pilot bandwidths g₁, g₂ there are of order
// n^{−1/9} and n^{−1/7} (0.18 and 0.11 sd at n = 5·10⁶, 0.09 and 0.05 sd at
// n = 10¹⁰), so a few thousand points over the padded range resolve them;
// KernSmooth uses 401.
const bandwidthPoints = 4096

// coarsen linearly re-bins masses on a grid of the given step onto a grid
// with at most about points points (every f-th fine point), returning the
// coarse masses and step. Grids already that small are returned as they are.
func coarsen(m []float64, step float64, points int) ([]float64, float64) {
	f := (len(m) + points - 1) / points
	if f <= 1 {
		return m, step
	}
	out := make([]float64, len(m)/f+2)
	for i, v := range m {
		j, r := i/f, i%f
		w := float64(r) / float64(f)
		out[j] += v * (1 - w)
		out[j+1] += v * w
	}
	return out, step * float64(f)
}

// kernelFunctional returns Σᵢ Σⱼ mᵢ mⱼ φ_g^{(r)}((i−j)·step).
func kernelFunctional(conv *numeric.Convolver, m *numeric.Transformed, r int, g, step float64) float64 {
	masses := m.Values()
	k := gaussianDerivativeKernel(r, g, step, len(masses))
	c := conv.Convolve(m, conv.Kernel(k))[0]
	s := 0.0
	for i, v := range masses {
		s += v * c[i]
	}
	return s
}

// MinContinuous is the number of binned outputs a side needs before its
// plug-in bandwidth is computed.
const MinContinuous = 100

// SmallerBandwidth returns the smaller plug-in bandwidth ([PluginBandwidth])
// of two binned samples on one grid, over the sides with at least
// MinContinuous outputs: one bandwidth for both, so that smoothing is the
// same post-processing of either sample and the side with the finer
// structure sets it. ok is false if no side gives one; failed is then the
// first side (0 for p, 1 for q) whose plug-in failed, or −1 if none had
// enough outputs.
func SmallerBandwidth(p, q *Binned) (h float64, ok bool, failed int) {
	h, failed = math.Inf(1), -1
	for i, b := range []*Binned{p, q} {
		if b.N < MinContinuous {
			continue
		}
		hb, err := PluginBandwidth(b)
		if err != nil {
			if failed < 0 {
				failed = i
			}
			continue
		}
		h = min(h, hb)
	}
	if math.IsInf(h, 1) {
		return 0, false, failed
	}
	return h, true, failed
}
