package search

import (
	"fmt"
	"math"
	"slices"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
)

// This file holds DP-Auditorium's approximate-DP testers ([KMRS24],
// Section 4.2) as criteria of the engine: each bounds the hockey-stick
// divergence H_{e^ε}(P‖Q) = sup_E P(E) − e^ε·Q(E) of one pair from below
// on fresh draws, at its own stated guarantee, against the claimed δ.

// TesterFinding is what a tester's screening of one direction fixed for
// its confirmation: the groups of outputs it counts (the histogram's
// bins, or the classifier's event as group 0 against the rest), and for
// the histogram the number of bins m its tolerance pays for.
type TesterFinding struct {
	Groups stat.Grouping
	Bins   int
}

// Histogram is the histogram tester of Gilbert and McMillan as [KMRS24]
// gives it (Algorithms 3–4): the outputs are counted in m bins (real
// outputs: m bins of equal width over the range of the middle 99% of the
// screening's pilot, outputs beyond it clipped into the end bins; discrete
// outputs: the m − 1 values the screening saw most, the rest in one bin),
// and
//
//	δ̂ = Σ_j (p̂_j − e^ε q̂_j)⁺,   LB = δ̂ − (1 + e^ε)(√(m/n) + √(2 ln(2/α)/n))
//
// on n fresh draws per side. The tolerance is ours, for Algorithm 3's
// (whose Poisson sample size λ = max{4m(1+e^{2ε})β⁻², 12(1+e^{2ε})η⁻²}
// asks 10¹¹ draws at β = 10⁻⁴): δ̂ − Σ_j (p_j − e^ε q_j)⁺ ≤
// ‖p̂ − p‖₁ + e^ε‖q̂ − q‖₁, E‖p̂ − p‖₁ ≤ Σ_j √(p_j/n) ≤ √(m/n), and
// ‖p̂ − p‖₁ exceeds its mean by √(2 ln(2/α)/n) with probability at most
// α/2 (McDiarmid: one draw moves it by at most 2/n), each side. Binning is
// a post-processing, so LB bounds H_{e^ε} of the mechanism (of a vector's
// learned score too, though dptest refuses vectors here, as
// DP-Auditorium's tester is one-dimensional).
//
// With over not both zero, real outputs are binned over [over[0], over[1]]
// instead (DP-Auditorium's tester is given the output range).
func Histogram[D any](src sampler.Source[D], eps float64, bins int, over [2]float64, confirm int, alpha float64) Criterion[D, TesterFinding] {
	return testerCriterion[D]{src: src, eps: eps, bins: bins, over: over, confirm: confirm, alpha: alpha}
}

// Classifier is the hockey-stick tester of [KMRS24] (Algorithms 5–6), with
// weighted logistic regression in place of its neural network: on the
// screening, a classifier g between the outputs of the two datasets,
// weighted 1/(1+e^ε) and e^ε/(1+e^ε) (Lemma 4.9), is fitted by
// minimising the weighted logistic loss (12) with gonum's L-BFGS on the
// features 1, T₁(u), …, T₄(u) (Chebyshev polynomials of u = tanh z, z the
// output centred on the screening's median and scaled by its
// interquartile range; for vector outputs, of their learned score), or,
// for discrete outputs, as the weighted Bayes rule per value (the
// logistic fit on one indicator per value); its event E = {g = 1} is
// confirmed on n fresh draws per side with Hoeffding's inequality
// (Proposition 4.12, for two independent samples):
//
//	LB = P̂(E) − e^ε Q̂(E) − √((1 + e^{2ε}) ln(1/α) / (2n)).
func Classifier[D any](src sampler.Source[D], eps float64, confirm int, alpha float64) Criterion[D, TesterFinding] {
	return testerCriterion[D]{src: src, eps: eps, confirm: confirm, alpha: alpha, classify: true}
}

type testerCriterion[D any] struct {
	src      sampler.Source[D]
	eps      float64
	bins     int
	over     [2]float64
	confirm  int
	alpha    float64
	classify bool
}

func (c testerCriterion[D]) Directions() [2]string {
	name := fmt.Sprintf("H_{e^%g}", c.eps)
	return [2]string{name + "(M(X)‖M(Y))", name + "(M(Y)‖M(X))"}
}

// tolerance is the half-width of a confirmation of n draws per side at
// level alpha, for a finding of m bins (histogram) or an event.
func (c testerCriterion[D]) tolerance(m int, n int64, alpha float64) float64 {
	fn, w := float64(n), math.Exp(c.eps)
	if c.classify {
		return math.Sqrt((1 + w*w) * math.Log(1/alpha) / (2 * fn))
	}
	return (1 + w) * (math.Sqrt(float64(m)/fn) + math.Sqrt(2*math.Log(2/alpha)/fn))
}

// estimate is the tester's plug-in of counts cp (the bounded side) and cq
// of n draws each in the finding's groups.
func (c testerCriterion[D]) estimate(cp, cq []int64, n int64) float64 {
	w, fn := math.Exp(c.eps), float64(n)
	if c.classify {
		return float64(cp[0])/fn - w*float64(cq[0])/fn
	}
	d := 0.0
	for j := range cp {
		d += math.Max(0, float64(cp[j])/fn-w*float64(cq[j])/fn)
	}
	return d
}

func (c testerCriterion[D]) score(f TesterFinding, cp, cq []int64, n int64, alpha float64, rank bool) Score {
	est := c.estimate(cp, cq, n)
	tol := c.tolerance(f.Bins, n, alpha)
	z := numeric.UpperNormalQuantile(alpha)
	s := Score{Estimate: est, StdErr: tol / z, LowerBound: est - tol}
	if rank {
		s.Rank = est - c.tolerance(f.Bins, int64(c.confirm), c.alpha)
	}
	return s
}

func (c testerCriterion[D]) Screen(seed uint64, p fixtures.Pair[D], st plan.Stage) (xy, yx Screened[TesterFinding], err error) {
	orders, helds, err := heldOutTables(c.src, seed, p, st)
	if err != nil {
		return xy, yx, err
	}
	order, held := orders[0], helds[0]
	var out [2]Screened[TesterFinding]
	for d, reverse := range []bool{false, true} {
		f := c.find(order, reverse)
		if !c.classify && d == 1 {
			f = out[0].Finding // the same bins serve both directions
		}
		cp, cq := regroup(held, f.Groups)
		if reverse {
			cp, cq = cq, cp
		}
		out[d] = Screened[TesterFinding]{Score: c.score(f, cp, cq, held.NP, plan.TriggerLevel, true), Finding: f}
	}
	return out[0], out[1], nil
}

// find fixes the groups of one direction on the screening's first half.
func (c testerCriterion[D]) find(t *stat.Table, reverse bool) TesterFinding {
	if c.classify {
		return TesterFinding{Groups: classifierEvent(t, c.eps, reverse)}
	}
	g := histogramBins(t, c.bins, c.over)
	return TesterFinding{Groups: g, Bins: g.Groups}
}

func (c testerCriterion[D]) Confirm(seed uint64, p fixtures.Pair[D], st plan.Stage, alpha float64, sxy, syx *TesterFinding, acc *Counts) (xy, yx Score, err error) {
	gs := groupingsOf(sxy, syx, func(f TesterFinding) stat.Grouping { return f.Groups })
	cx, cy, err := countOn(c.src, acc, seed, p, st.Samples, gs)
	if err != nil {
		return xy, yx, err
	}
	n, k := int64(st.Samples), 0
	if sxy != nil {
		xy = c.score(*sxy, cx[k], cy[k], n, alpha, false)
		k++
	}
	if syx != nil {
		yx = c.score(*syx, cy[k], cx[k], n, alpha, false)
	}
	return xy, yx, nil
}

// regroup sums a table's counts into the groups of g (cells of the
// table's partition go to the group of their representative point when g
// has a partition of its own, values through g.OfValue).
func regroup(t *stat.Table, g stat.Grouping) (cp, cq []int64) {
	cp, cq = make([]int64, g.Groups), make([]int64, g.Groups)
	for _, cell := range t.Cells {
		k := g.Unlisted
		switch {
		case g.Partition != nil && t.Partition == g.Partition:
			k = g.OfCell[cell.Value.(int)]
		case g.Partition != nil:
			k = g.OfCell[g.Partition.Cell(t.Partition.Point(cell.Value.(int)))]
		default:
			if v, ok := g.OfValue[cell.Value]; ok {
				k = v
			}
		}
		cp[k] += cell.P
		cq[k] += cell.Q
	}
	return cp, cq
}

// HistogramRange is the share of the screening's outputs whose range the
// histogram tester's bins span; the rest fall in its end bins.
const HistogramRange = 0.99

// histogramBins are the histogram tester's bins on a screening table: for
// real outputs (and vector scores) bins of equal width over the range its
// partition spans, for discrete ones the bins − 1 values seen most and
// one bin for the rest.
func histogramBins(t *stat.Table, bins int, over [2]float64) stat.Grouping {
	if p := t.Partition; p != nil {
		// The range is that of the middle HistogramRange of the pilot
		// (the partition's cells hold equal shares of it): a range up to
		// the extremes would put every output of a heavy tail (a noise
		// scale drawn near 0) in one bin.
		cuts := p.Cells() - 1
		lo, _ := p.Bounds(1 + int(float64(cuts)*(1-HistogramRange)/2))
		hi, _ := p.Bounds(max(1, cuts-int(float64(cuts)*(1-HistogramRange)/2)))
		if over != [2]float64{} {
			lo, hi = over[0], over[1]
		}
		eq := stat.EqualWidth(lo, hi, bins)
		g := stat.Grouping{Groups: eq.Cells(), Partition: eq, OfCell: make([]int, eq.Cells())}
		for i := range g.OfCell {
			g.OfCell[i] = i
		}
		return g
	}
	cells := slices.Clone(t.Cells)
	slices.SortStableFunc(cells, func(a, b stat.Cell) int { return int((b.P + b.Q) - (a.P + a.Q)) })
	keep := min(len(cells), bins-1)
	g := stat.Grouping{Groups: keep + 1, OfValue: make(map[any]int, keep), Unlisted: keep}
	for i, cell := range cells[:keep] {
		g.OfValue[cell.Value] = i
	}
	return g
}
