package main

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/mechanisms"
)

// shape is one cell of the grid: a mechanism on datasets of 10 records in
// [0, 1] (dptest's default candidates), its claim kind and its exact truth,
// the largest divergence over neighbouring pairs.
type shape struct {
	family, name string
	kind         string  // "RDP" or "DP"
	lambda       float64 // RDP order
	truth        float64
	audit        func(claim float64, opts ...dptest.Option) (dptest.Report, error)
}

// infiniteClaim is the claim of the violated row of a shape of infinite
// truth: ε = 2 (pure DP) and twice the Laplace mechanism's D₂ (RDP) for
// the alone family, 5.5 otherwise.
func (s shape) infiniteClaim() float64 {
	switch {
	case s.family == "alone" && s.kind == "RDP":
		return 2 * mechanisms.Laplace{B: 1}.RDP(2)
	case s.family == "alone":
		return 2
	case s.family == "own values":
		return 2 * ownValuesGaussianRDP
	}
	return 5.5
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// floorScaledSum returns ⌊b·Σx⌋ of the exact sum, so that neighbours
// whose sums differ by at most 1 give values at most b apart (b a whole
// number), as the discrete Laplace rows' truths assume. The float64 sum
// does not: 1+1+1+0+1+0.999999999999999+1+1+1+1 rounds to 9 while the
// same with a second 0 gives 7.999999999999999, floors 9 and 7, and the
// audit of "floor(sum) + DLap(1)" at its truth found that pair and failed
// it (its bound 1.685 against the sensitivity-1 truth 0.7353). The sum of
// float64 values is exact in 2,200 bits; it is taken only where the
// float64 sum lies within rounding error of a whole number, so that the
// mechanism stays fast.
func floorScaledSum(b float64, x []float64) float64 {
	v, size := 0.0, 0.0
	for _, a := range x {
		v += a
		size += math.Abs(a)
	}
	v *= b
	f := math.Floor(v)
	if tol := 1e-9 * (1 + b*size); v-f > tol && f+1-v > tol {
		return f
	}
	s := new(big.Float).SetPrec(2200)
	for _, a := range x {
		s.Add(s, new(big.Float).SetFloat64(a))
	}
	s.Mul(s, new(big.Float).SetFloat64(b))
	i, acc := s.Int(nil) // toward zero
	if s.Sign() < 0 && acc != big.Exact {
		i.Sub(i, big.NewInt(1))
	}
	exact, _ := new(big.Float).SetInt(i).Float64()
	return exact
}

// twoSidedGeometric draws the discrete Laplace P(k) ∝ e^{−|k|/b}.
func twoSidedGeometric(r *rand.Rand, b float64) float64 {
	l := math.Log1p(-(1 - math.Exp(-1/b)))
	g := func() float64 { return math.Floor(math.Log(1-r.Float64()) / l) }
	return g() - g()
}

func rdpReal(lambda float64, f func(r *rand.Rand, x []float64) float64) func(float64, ...dptest.Option) (dptest.Report, error) {
	m := dptest.Continuous(f)
	return func(claim float64, o ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditRDP(m, lambda, claim, o...)
	}
}

func rdpInt(lambda float64, f func(r *rand.Rand, x []float64) int64) func(float64, ...dptest.Option) (dptest.Report, error) {
	m := dptest.Discrete(f)
	return func(claim float64, o ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditRDP(m, lambda, claim, o...)
	}
}

// shapes builds the grid.
func shapes() []shape {
	var out []shape
	add := func(s shape) { out = append(out, s) }
	for _, off := range []float64{1, 1e3, 1e6, 1e9, 1e10, 1e12, 1e15} {
		add(shape{"offset", fmt.Sprintf("%g+sum+N(0,1)", off), "RDP", 2, 1,
			rdpReal(2, func(r *rand.Rand, x []float64) float64 { return off + sum(x) + r.NormFloat64() })})
	}
	for _, sc := range []float64{1e-300, 1e-150, 1e-30, 1e30, 1e150, 1e300} {
		add(shape{"scale", fmt.Sprintf("%g*(sum+N(0,1))", sc), "RDP", 2, 1,
			rdpReal(2, func(r *rand.Rand, x []float64) float64 { return sc * (sum(x) + r.NormFloat64()) })})
	}
	for _, b := range []float64{1, 10, 1e3, 1e4, 1e5} {
		truth := discreteLaplaceRDP(2, b, int(b))
		add(shape{"dlaplace", fmt.Sprintf("int floor(%g*sum)+DLap(%g)", b, b), "RDP", 2, truth,
			rdpInt(2, func(r *rand.Rand, x []float64) int64 {
				return int64(floorScaledSum(b, x) + twoSidedGeometric(r, b))
			})})
		add(shape{"dlaplace", fmt.Sprintf("float floor(%g*sum)+DLap(%g)", b, b), "RDP", 2, truth,
			rdpReal(2, func(r *rand.Rand, x []float64) float64 { return floorScaledSum(b, x) + twoSidedGeometric(r, b) })})
	}
	for _, w := range []float64{2, 1e6} {
		add(shape{"bimodal", fmt.Sprintf("sum+N(0,1)+%g*Bern(1/2)", w), "RDP", 2, gaussianMixtureRDP(2, 1, 1, w),
			rdpReal(2, func(r *rand.Rand, x []float64) float64 {
				return sum(x) + r.NormFloat64() + w*float64(r.IntN(2))
			})})
	}
	add(shape{"narrow+wide", "sum+N(0,0.3) or N(0,30)", "RDP", 2, gaussianMixtureRDP(2, 0.3, 30, 0),
		rdpReal(2, func(r *rand.Rand, x []float64) float64 {
			return sum(x) + r.NormFloat64()*[2]float64{0.3, 30}[r.IntN(2)]
		})})
	add(shape{"clamped", "clamp(x0+N(0,1),0,1)", "RDP", 2, clampedGaussianRDP(2),
		rdpReal(2, func(r *rand.Rand, x []float64) float64 { return min(max(x[0]+r.NormFloat64(), 0), 1) })})
	add(shape{"rounded", "round(sum+N(0,1))", "RDP", 2, roundedGaussianRDP(2),
		rdpReal(2, func(r *rand.Rand, x []float64) float64 { return math.Round(sum(x) + r.NormFloat64()) })})
	for _, l := range []float64{2, 5} {
		add(shape{"cauchy", fmt.Sprintf("sum+Cauchy(1) λ=%g", l), "RDP", l, cauchyRDP(l),
			rdpReal(l, func(r *rand.Rand, x []float64) float64 { return sum(x) + math.Tan(math.Pi*(r.Float64()-0.5)) })})
	}
	out = append(out, rrShapes()...)
	out = append(out, rareShapes()...)
	for _, l := range []float64{1.01, 1.5, 2, 5, 20, 64, 256} {
		add(shape{"gaussian", fmt.Sprintf("sum+N(0,5) λ=%g", l), "RDP", l, l / 50,
			rdpReal(l, func(r *rand.Rand, x []float64) float64 { return sum(x) + 5*r.NormFloat64() })})
	}
	out = append(out, dpShapes()...)
	out = append(out, aloneShapes()...)
	return append(out, ownValueShapes()...)
}

// ownValuesGaussianRDP is D₂ of round(Σx + N(0, 2²)) between datasets
// whose sums differ by 1 (the continuous Gaussian's λΔ²/(2σ²), which
// rounding only lowers): the own-values shapes' claim is twice it.
const ownValuesGaussianRDP = 2.0 / 8

// ownValueShapes are rounded Gaussians (σ = 2) beside which, in 0.3% of
// their draws, each dataset produces values of its own (D = ∞ at every
// order), each too rare to be seen often in a screening: one of 1,000
// strings that name x₀ ("far-0.37-12"), the same as integers 10⁹ + 2j
// + [x₀ ≥ ½], and, for datasets with x₀ ≥ ½ only, a string that never
// repeats. Only violated rows (RDP at λ = 2, claimed at twice the
// Gaussian's D₂): each must be detected, or pass naming the values one
// dataset alone produced, or end inconclusive; never pass silently.
func ownValueShapes() []shape {
	const rate, values = 3e-3, 1000
	gauss := func(r *rand.Rand, x []float64) float64 { return math.Round(sum(x) + 2*r.NormFloat64()) }
	strs := dptest.Discrete(func(r *rand.Rand, x []float64) string {
		if r.Float64() < rate {
			return fmt.Sprintf("far-%g-%d", x[0], r.IntN(values))
		}
		return fmt.Sprint(gauss(r, x))
	})
	ints := dptest.Discrete(func(r *rand.Rand, x []float64) int64 {
		if r.Float64() < rate {
			parity := int64(0)
			if x[0] >= 0.5 {
				parity = 1
			}
			return 1e9 + 2*int64(r.IntN(values)) + parity
		}
		return int64(gauss(r, x))
	})
	unique := dptest.Discrete(func(r *rand.Rand, x []float64) string {
		if x[0] >= 0.5 && r.Float64() < rate {
			return fmt.Sprintf("u-%d", r.Uint64())
		}
		return fmt.Sprint(gauss(r, x))
	})
	var out []shape
	for _, c := range []struct {
		name string
		m    dptest.Mechanism[[]float64]
	}{
		{"round(sum+N(0,2²)), own strings", strs},
		{"round(sum+N(0,2²)), own integers", ints},
		{"round(sum+N(0,2²)), unique strings", unique},
	} {
		out = append(out, shape{"own values", "RDP λ=2 " + c.name, "RDP", 2, math.Inf(1),
			func(claim float64, o ...dptest.Option) (dptest.Report, error) {
				return dptest.AuditRDP(c.m, 2, claim, o...)
			}})
	}
	return out
}

// rrShapes is k-ary randomized response (ε₀ = 2) of the first record's
// category round(x₀(k−1)), at several orders.
func rrShapes() []shape {
	var out []shape
	const eps0 = 2.0
	for _, k := range []int{2, 10, 100, 1000, 10000, 100000} {
		keep := math.Exp(eps0) / (math.Exp(eps0) + float64(k) - 1)
		for _, l := range []float64{2, 10, 20} {
			out = append(out, shape{"k-ary RR", fmt.Sprintf("k=%d ε₀=2 λ=%g", k, l), "RDP", l, kAryRRRDP(l, eps0, k),
				rdpInt(l, func(r *rand.Rand, x []float64) int64 {
					v := int64(math.Round(x[0] * float64(k-1)))
					if r.Float64() < keep {
						return v
					}
					u := int64(r.IntN(k - 1))
					if u >= v {
						u++
					}
					return u
				})})
		}
	}
	return out
}

// rareStringCount, rareStringRate and rareStringRatio: the rare-values
// shape's strings, their rate at x₀ = 0, and the factor by which x₀ = 1
// multiplies it.
const (
	rareStringCount = 20
	rareStringRate  = 0.00018
	rareStringRatio = 5
)

// rareStrings is round(Σx + N(0, 5²)), as a string, except with
// probability rareStringRate·rareStringRatio^{x₀}, when it is one of
// rareStringCount strings at random: a leak spread over values each too
// rare to rank on its own (renyi.GroupPoolingRare), 0.09% of the outputs at
// x₀ = 1.
func rareStrings(r *rand.Rand, x []float64) string {
	if r.Float64() < rareStringRate*math.Pow(rareStringRatio, x[0]) {
		return fmt.Sprintf("s%d", r.IntN(rareStringCount))
	}
	return fmt.Sprintf("g%d", int(math.Round(sum(x)+5*r.NormFloat64())))
}

// zipfWords, zipfBlockLo and zipfBlockHi: the word-block shape draws word
// i of zipfWords with weight 1/(i+1), the words [zipfBlockLo, zipfBlockHi)
// e^{x₀} times as heavy.
const (
	zipfWords   = 5000
	zipfBlockLo = 2500
	zipfBlockHi = 3000
)

// zipfWeight is word i's weight at x₀.
func zipfWeight(i int, x0 float64) float64 {
	w := 1 / float64(i+1)
	if i >= zipfBlockLo && i < zipfBlockHi {
		w *= math.Exp(x0)
	}
	return w
}

// zipfBlock returns the word-block shape's mechanism, the kind of output
// an exponential mechanism over a long tail of words gives: a leak on
// words each seen about a dozen times in a screening, among thousands
// seen once or twice (renyi.Group's own keys rank them; the pool of rare
// values must not dilute them). It draws the block or the rest with their
// weights at x₀, then a word inside by its cumulative weights.
func zipfBlock() func(r *rand.Rand, x []float64) string {
	var in, out []float64 // cumulative weights at x₀ = 0
	for i := range zipfWords {
		if w := zipfWeight(i, 0); i >= zipfBlockLo && i < zipfBlockHi {
			in = append(in, w+last(in))
		} else {
			out = append(out, w+last(out))
		}
	}
	return func(r *rand.Rand, x []float64) string {
		block := math.Exp(x[0]) * last(in)
		if r.Float64()*(block+last(out)) < block {
			return fmt.Sprintf("w%d", zipfBlockLo+sort.SearchFloat64s(in, r.Float64()*last(in)))
		}
		k := sort.SearchFloat64s(out, r.Float64()*last(out))
		if k >= zipfBlockLo {
			k += zipfBlockHi - zipfBlockLo
		}
		return fmt.Sprintf("w%d", k)
	}
}

// last is the last element of v, 0 if none.
func last(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	return v[len(v)-1]
}

// rareShapes audits rareStrings and zipfBlock at λ = 2, 5 and 10.
func rareShapes() []shape {
	var out []shape
	strs, words := dptest.Discrete(rareStrings), dptest.Discrete(zipfBlock())
	for _, l := range []float64{2, 5, 10} {
		out = append(out, shape{"rare values", fmt.Sprintf("round(sum+N(0,5²)), 20 strings ×5 λ=%g", l), "RDP", l, rareStringsRDP(l),
			func(claim float64, o ...dptest.Option) (dptest.Report, error) {
				return dptest.AuditRDP(strs, l, claim, o...)
			}})
	}
	for _, l := range []float64{2, 5, 10} {
		out = append(out, shape{"rare values", fmt.Sprintf("5000 words, [2500,3000) ×e^x0 λ=%g", l), "RDP", l, zipfBlockRDP(l),
			func(claim float64, o ...dptest.Option) (dptest.Report, error) {
				return dptest.AuditRDP(words, l, claim, o...)
			}})
	}
	return out
}

// dpShapes are pure-DP claims: Laplace at offsets, the discrete Laplace
// on wide integers, and a partition selection that keeps a partition of one
// unit with probability 0.05 and of none never (infinite loss; only its
// violated row counts).
func dpShapes() []shape {
	var out []shape
	for _, off := range []float64{0, 1e11} {
		m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
			u := r.Float64() - 0.5
			return off + sum(x) - math.Copysign(math.Log1p(-2*math.Abs(u)), u)
		})
		out = append(out, shape{"DP", fmt.Sprintf("%g+sum+Lap(1)", off), "DP", 0, 1,
			func(c float64, o ...dptest.Option) (dptest.Report, error) { return dptest.AuditDP(m, c, o...) }})
	}
	b := 1000.0
	dl := dptest.Discrete(func(r *rand.Rand, x []float64) int64 { return int64(floorScaledSum(b, x) + twoSidedGeometric(r, b)) })
	out = append(out, shape{"DP", "int floor(1000*sum)+DLap(1000)", "DP", 0, 1,
		func(c float64, o ...dptest.Option) (dptest.Report, error) { return dptest.AuditDP(dl, c, o...) }})
	sel := dptest.Discrete(mechanisms.PartitionSelection{}.Sample)
	out = append(out, shape{"DP", "partition selection (δ=0.05)", "DP", 0, math.Inf(1),
		func(c float64, o ...dptest.Option) (dptest.Report, error) { return dptest.AuditDP(sel, c, o...) }})
	return out
}

// aloneShapes are mechanisms that rarely release an output one dataset
// alone produces (infinite loss and divergence on the canonical pair,
// whose first records are 1 and 0): far beyond their noise, with
// probability x₀/2000 (an atom at ±10⁶, at 40, beyond the tail but not
// past a gap ten times its span, at an offset of 10¹¹ (+10⁴), and spread,
// 10⁶ plus noise, or 40 plus N(0, 0.01²), which no gap or repeat
// isolates and the pure-DP audit's runs of one side (stat.Table.RunsApart)
// do), or inside it, 0.5 with probability (1 − x₀)/1000 (an
// atom too light for a cell of the pilot's 16 outputs). Pure-DP claims at
// ε = 2 can show them; an RDP claim at λ = 2 cannot at a million draws
// (the far atom needs Q(E) < 10⁻⁷), and must end inconclusive, never pass.
func aloneShapes() []shape {
	lap := func(r *rand.Rand) float64 {
		u := r.Float64() - 0.5
		return -math.Copysign(math.Log1p(-2*math.Abs(u)), u)
	}
	leaky := func(off float64, leak func(r *rand.Rand) float64) func(r *rand.Rand, x []float64) float64 {
		return func(r *rand.Rand, x []float64) float64 {
			if r.Float64()*2000 < x[0] {
				return leak(r)
			}
			return off + sum(x) + lap(r)
		}
	}
	inner := func(r *rand.Rand, x []float64) float64 {
		if r.Float64()*1000 < 1-x[0] {
			return 0.5
		}
		return sum(x) + lap(r)
	}
	cases := []struct {
		name string
		f    func(r *rand.Rand, x []float64) float64
	}{
		{"sum+Lap(1), 1e6 w.p. x0/2000", leaky(0, func(*rand.Rand) float64 { return 1e6 })},
		{"sum+Lap(1), -1e6 w.p. x0/2000", leaky(0, func(*rand.Rand) float64 { return -1e6 })},
		{"sum+Lap(1), 40 w.p. x0/2000", leaky(0, func(*rand.Rand) float64 { return 40 })},
		{"sum+Lap(1), 40+N(0,0.01²) w.p. x0/2000", leaky(0, func(r *rand.Rand) float64 { return 40 + 0.01*r.NormFloat64() })},
		{"1e11+sum+Lap(1), 1e11+1e4 w.p. x0/2000", leaky(1e11, func(*rand.Rand) float64 { return 1e11 + 1e4 })},
		{"sum+Lap(1), 1e6+Lap(1) w.p. x0/2000", leaky(0, func(r *rand.Rand) float64 { return 1e6 + lap(r) })},
		{"sum+Lap(1), 0.5 w.p. (1-x0)/1000", inner},
	}
	var out []shape
	for _, c := range cases {
		m := dptest.Continuous(c.f)
		out = append(out, shape{"alone", "DP " + c.name, "DP", 0, math.Inf(1),
			func(e float64, o ...dptest.Option) (dptest.Report, error) { return dptest.AuditDP(m, e, o...) }})
	}
	for _, c := range []int{0, len(cases) - 1} {
		out = append(out, shape{"alone", "RDP λ=2 " + cases[c].name, "RDP", 2, math.Inf(1), rdpReal(2, cases[c].f)})
	}
	return out
}
