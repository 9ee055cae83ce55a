package search

import (
	"fmt"
	"math"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
)

// MMDFinding is what the MMD tester's screening fixed: the bandwidth w of
// its Gaussian kernel (0 for discrete outputs, whose kernel is 1{a = b}).
type MMDFinding struct{ Bandwidth float64 }

// MMD is the MMD tester of [KMRS24] (Algorithms 7–8, Theorem 4.15): over m
// quadruples of fresh draws (2m per side), the mean μ̂ and the sample
// variance V of h = k(X, X′) − 2k(X, Y) + k(Y, Y′) bound
//
//	MMD² ≥ μ̂ − √(2V ln(2/α)/m) − 28 ln(2/α)/(3(m − 1))
//
// with probability 1 − α (the empirical Bernstein bound of Maurer and
// Pontil for h ∈ [−2, 2]), and (ε, δ)-DP implies MMD ≤ e^ε − 1 +
// (1 + e^{−ε})δ (Theorem 4.13; its exact inverse, not the square the paper
// uses), so
//
//	δ ≥ (√(MMD² bound)⁺ − (e^ε − 1)) / (1 + e^{−ε}).
//
// The kernel is Gaussian, exp(−(a − b)²/(2w²)), with w the screening's
// robust scale (its interquartile range / 1.349), for real outputs, and
// 1{a = b} for discrete ones; vectors are an error. MMD is symmetric: both
// directions bound the same δ. Both kernels lie in [0, 1], so MMD ≤ √2:
// at ε ≥ ln(1 + √2) ≈ 0.88 the tester cannot show a violation.
func MMD[D any](src sampler.Source[D], eps float64, confirm int, alpha float64) Criterion[D, MMDFinding] {
	return mmdCriterion[D]{src, eps, confirm, alpha}
}

type mmdCriterion[D any] struct {
	src     sampler.Source[D]
	eps     float64
	confirm int
	alpha   float64
}

func (c mmdCriterion[D]) Directions() [2]string {
	return [2]string{fmt.Sprintf("δ(%g) by MMD(M(X), M(Y))", c.eps), fmt.Sprintf("δ(%g) by MMD(M(Y), M(X))", c.eps)}
}

// bound returns the tester's estimate and lower bound of δ from sums,
// and a standard error that makes the engine's resolution the
// tolerance's width.
func (c mmdCriterion[D]) bound(s stat.MMDSums, alpha float64) Score {
	return c.boundOf(s.Mean(), s.Variance(), s.M, alpha)
}

// boundOf is bound for m quadruples of mean mean and variance v.
func (c mmdCriterion[D]) boundOf(mean, v float64, m int64, alpha float64) Score {
	if m < 2 {
		return Score{Estimate: math.Inf(-1), LowerBound: math.Inf(-1), StdErr: math.Inf(1)}
	}
	fm, l := float64(m), math.Log(2/alpha)
	tol := math.Sqrt(2*v*l/fm) + 28*l/(3*(fm-1))
	delta := func(mmd2 float64) float64 {
		return (math.Sqrt(math.Max(0, mmd2)) - math.Expm1(c.eps)) / (1 + math.Exp(-c.eps))
	}
	est, lb := delta(mean), delta(mean-tol)
	return Score{Estimate: est, LowerBound: lb, StdErr: (est - lb) / numeric.UpperNormalQuantile(alpha)}
}

func (c mmdCriterion[D]) Screen(seed uint64, p fixtures.Pair[D], st plan.Stage) (xy, yx Screened[MMDFinding], err error) {
	f := MMDFinding{}
	if c.src.Kind() == "real" {
		s, err := c.src.Sample(seed, p.X, p.Y, st.Pilot, st.Pilot)
		if err != nil {
			return xy, yx, err
		}
		f.Bandwidth = robustScale(s.(*stat.Table))
	}
	sums, err := c.src.MMD(plan.SubSeed(seed, "mmd", 0), p.X, p.Y, 0, st.Samples, f.Bandwidth)
	if err != nil {
		return xy, yx, err
	}
	sc := c.bound(sums, plan.TriggerLevel)
	// The rank predicts the bound at the confirmation's size: the same
	// mean and variance over confirm/2 quadruples.
	sc.Rank = c.boundOf(sums.Mean(), sums.Variance(), int64(c.confirm/2), c.alpha).LowerBound
	xy = Screened[MMDFinding]{Score: sc, Finding: f}
	return xy, xy, nil
}

func (c mmdCriterion[D]) Confirm(seed uint64, p fixtures.Pair[D], st plan.Stage, alpha float64, sxy, syx *MMDFinding, _ *Counts) (xy, yx Score, err error) {
	f := sxy
	if f == nil {
		f = syx
	}
	sums, err := c.src.MMD(seed, p.X, p.Y, 0, st.Samples, f.Bandwidth)
	if err != nil {
		return xy, yx, err
	}
	sc := c.bound(sums, alpha)
	return sc, sc, nil
}

// robustScale is the interquartile range of a real table's pooled outputs
// (at its cells' points) over 1.349, the standard deviation of a normal
// law with that range; 1 where it is 0.
func robustScale(t *stat.Table) float64 {
	var xs, ws []float64
	for _, c := range t.Cells {
		xs = append(xs, t.Partition.Point(c.Value.(int)))
		ws = append(ws, float64(c.P+c.Q))
	}
	q := weightedQuantiles(xs, ws, 0.25, 0.75)
	if s := (q[1] - q[0]) / 1.349; s > 0 {
		return s
	}
	return 1
}
