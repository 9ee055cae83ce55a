package dptest

import (
	"fmt"
	"math"

	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/search"
)

// Tester is one of the criteria an audit of a DP or (ε, δ) claim can run
// in place of, or beside, its own ([Testers]): DP-Auditorium's testers
// ([KMRS24], Section 4.2), each with its own guarantee, or [Own].
type Tester struct {
	criterion string
	bins      int
	ranged    bool    // HistogramOver
	lo, hi    float64 // HistogramOver's range
}

func (t Tester) String() string {
	switch t.criterion {
	case plan.CriterionHistogram:
		if t.ranged {
			return fmt.Sprintf("HistogramOver(%v, %v, %d)", t.lo, t.hi, t.bins)
		}
		return fmt.Sprintf("Histogram(%d)", t.bins)
	case plan.CriterionClassifier:
		return "Classifier()"
	case plan.CriterionMMD:
		return "MMD()"
	case plan.Own:
		return "Own()"
	}
	return "Tester{}"
}

// Histogram is the histogram tester of Gilbert and McMillan in [KMRS24]
// (Algorithms 3–4): the outputs of each dataset counted in bins bins (of
// equal width over the range the screening saw, outputs beyond it in the
// end bins; for discrete outputs the bins − 1 values seen most and one
// bin for the rest), and the hockey-stick divergence bounded from below by
//
//	Σ_j (p̂_j − e^ε q̂_j)⁺ − (1 + e^ε)(√(bins/n) + √(2 ln(2/α)/n))
//
// on n fresh draws per side, a tolerance that holds with probability
// 1 − α (the paper's Algorithm 3 would need far more draws at this
// package's confidence). It bins real and discrete outputs only; on a
// [Vector] mechanism it is an error. [KMRS24] uses bins = 100. The range
// spans all but a small share of the screening's first draws; a mixture with
// rare huge outputs (a noise scale drawn near 0) makes it so wide that
// the bins cannot tell the outputs apart: [HistogramOver] gives it.
func Histogram(bins int) Tester { return Tester{criterion: plan.CriterionHistogram, bins: bins} }

// HistogramOver is [Histogram] with bins of equal width over [lo, hi]
// (real outputs below lo or above hi fall in the end bins), as
// DP-Auditorium's tester is configured with the output range. lo < hi
// must be finite, and the mechanism's outputs real (a range of discrete
// or vector outputs is an error).
func HistogramOver(lo, hi float64, bins int) Tester {
	return Tester{criterion: plan.CriterionHistogram, bins: bins, ranged: true, lo: lo, hi: hi}
}

// Classifier is the hockey-stick (classifier) tester of [KMRS24]
// (Algorithms 5–6), with weighted logistic regression in place of its
// neural network: a classifier between the two datasets' outputs, their
// classes weighted 1/(1+e^ε) and e^ε/(1+e^ε) (Lemma 4.9), is fitted on
// the screening's draws (on Chebyshev features of the centred and scaled
// output, or of a vector's learned score; per value for discrete
// outputs), and the event E it assigns to the first dataset bounds
//
//	H_{e^ε} ≥ P̂(E) − e^ε Q̂(E) − √((1 + e^{2ε}) ln(1/α) / (2n))
//
// on n fresh draws per side (Hoeffding's inequality, Proposition 4.12).
func Classifier() Tester { return Tester{criterion: plan.CriterionClassifier} }

// MMD is the MMD tester of [KMRS24] (Algorithms 7–8, Theorem 4.15): over
// m quadruples (X, X′, Y, Y′) of fresh draws, 2m per side, the mean μ̂
// and sample variance V of h = k(X, X′) − 2k(X, Y) + k(Y, Y′) bound
// MMD² ≥ μ̂ − √(2V ln(2/α)/m) − 28 ln(2/α)/(3(m−1)) (empirical Bernstein),
// and since (ε, δ)-DP implies MMD ≤ e^ε − 1 + (1 + e^{−ε})δ,
//
//	δ ≥ (√(μ̂ − √(2V ln(2/α)/m) − 28 ln(2/α)/(3(m−1)))⁺ − (e^ε − 1)) / (1 + e^{−ε}).
//
// The kernel is Gaussian, exp(−(a − b)²/(2w²)) with w the screening's
// interquartile range over 1.349, for real outputs, and 1{a = b} for
// discrete ones; on a [Vector] mechanism it is an error. These kernels
// lie in [0, 1], so MMD ≤ √2 and it can show nothing at
// ε ≥ ln(1 + √2) ≈ 0.88.
func MMD() Tester { return Tester{criterion: plan.CriterionMMD} }

// Own stands for the claim's own criteria among [Testers]: for a DP claim
// the local audit and its two cross-checks, for an (ε, δ) claim the
// hockey-stick audit of [RequireApproxDP].
func Own() Tester { return Tester{criterion: plan.Own} }

// Testers makes a DP or (ε, δ) audit run the given testers instead of its
// own criteria ([Own] keeps them among the others). The false-failure
// budget 1 − confidence is split equally between them, so the audit fails
// a mechanism that meets its claim with probability at most 1 − confidence
// whatever the testers chosen; every tester screens the same candidate
// pairs (its own draws) and confirms its best on fresh ones, and the
// first violation any confirms is the verdict. DP-Auditorium's testers
// only look for violations: each bounds its own statistic (bins, a fitted
// event, the MMD of a kernel), which can miss what the claim's measure
// sees, so an audit of testers alone that finds no violation ends
// inconclusive, never passed. Beside Own they are cross-checks: they can
// only add a violation, Own's criteria decide a pass, and Own's runs come
// first (its report is the audit's). An
// empty list, a repeated tester, a second Testers option, a zero Tester
// or Histogram with fewer than 2 bins is an error.
func Testers(ts ...Tester) Option {
	return option{"Testers", []string{plan.KindDP, plan.KindApproxDP}, func(o *options) {
		switch {
		case len(ts) == 0:
			o.fail("Testers needs at least one tester")
			return
		case len(o.settings.Testers) > 0:
			o.fail("Testers given twice; give every tester in one Testers option")
			return
		}
		seen := map[string]bool{}
		for _, t := range ts {
			switch {
			case t.criterion == "":
				o.fail("Testers: a zero Tester; use Histogram, Classifier, MMD or Own")
				return
			case t.criterion == plan.CriterionHistogram && t.bins < 2:
				o.fail("Histogram needs at least 2 bins, got %d", t.bins)
				return
			case t.ranged && !(t.lo < t.hi && !math.IsInf(t.lo, 0) && !math.IsInf(t.hi, 0)):
				o.fail("HistogramOver needs finite lo < hi, got [%v, %v]", t.lo, t.hi)
				return
			case seen[t.criterion]:
				o.fail("Testers: %v given twice", t)
				return
			}
			seen[t.criterion] = true
			o.settings.Testers = append(o.settings.Testers, plan.Tester{Criterion: t.criterion, Bins: t.bins, Range: [2]float64{t.lo, t.hi}})
		}
	}}
}

// groupsScore records, for a vector mechanism, the score a tester's
// groups count.
func groupsScore(rep *Report) func(search.TesterFinding) {
	return func(f search.TesterFinding) { rep.Details.Score = scoreOf(f.Groups) }
}

// runTester runs one of DP-Auditorium's testers: a violation it confirms
// fails the audit; without one, a tester beside Own leaves the verdict to
// the claim's own criteria, and a tester without Own ends inconclusive.
// Its bound speaks only of its own statistic (the bins, the fitted event,
// the MMD of its kernel), which can miss what the claim's measure sees (an
// atom inside a bin, a rare output one dataset alone produces, any
// violation at all for MMD at ε ≥ ln(1 + √2)), so no resolution of it can
// pass the claim.
func runTester[D, F any](rep *Report, r plan.Run, cfg search.Config[D], crit search.Criterion[D, F], finding func(F)) error {
	name := r.Criterion
	rep.Claim.Kind, rep.Claim.Eps, rep.Claim.Lambda, rep.Details.Tester = plan.KindApproxDP, r.Eps, 0, name
	out, err := search.Run(crit, cfg)
	fill(rep, out, err, finding)
	if err != nil || rep.violated || r.CrossCheck {
		return err
	}
	if out.Reason != nil {
		return inconclusive(out.Reason)
	}
	return inconclusive(&TesterCannotHold{Tester: name, Samples: out.Samples, Resolution: rep.Resolution, Eps: r.Eps})
}

// checkTesters refuses testers that do not apply to a mechanism's outputs
// (kind: "real", "discrete" or "vector"), and Region or Floor, which set
// the local criterion, when Own is not among the testers.
func checkTesters(s plan.Settings, kind string) error {
	own := len(s.Testers) == 0
	for _, t := range s.Testers {
		switch {
		case t.Criterion == plan.Own:
			own = true
		case kind == "vector" && (t.Criterion == plan.CriterionHistogram || t.Criterion == plan.CriterionMMD):
			return fmt.Errorf("dptest: the %s tester takes real or discrete outputs; this mechanism's are vectors (use Classifier or Own)", map[string]string{plan.CriterionHistogram: "Histogram", plan.CriterionMMD: "MMD"}[t.Criterion])
		case kind != "real" && t.Range != [2]float64{}:
			return fmt.Errorf("dptest: HistogramOver's range applies to real outputs; this mechanism's are %s (use Histogram)", map[string]string{"discrete": "discrete", "vector": "vectors"}[kind])
		}
	}
	if !own && (s.RegionSet || s.FloorSet) {
		return fmt.Errorf("dptest: Region and Floor set dptest's own local criterion, which Testers without Own() does not run")
	}
	return nil
}
