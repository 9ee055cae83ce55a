package dptest

import (
	"fmt"
	"math"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/search"
)

// maxAloneDraws is the most draws per side aloneReach considers.
const maxAloneDraws = 1e15

// aloneMeasure is what weighing an output of one dataset alone needs of a
// criterion whose measure stays finite only while the other dataset
// produces it too: the measure m(a, b) of one event that the datasets
// produce with probabilities a and b, decreasing in b, and its lower bound
// from counts at a level.
type aloneMeasure struct {
	of    func(a, b float64) float64
	bound func(cp, np, cq, nq int64, alpha float64) float64
	// infinite says, for the report, what the output would make infinite.
	infinite string
}

// renyiAlone is the order-λ Rényi divergence of one event,
// D_λ((a, 1 − a) ‖ (b, 1 − b)), bounded by renyi.EventBound.
func renyiAlone(lambda float64) aloneMeasure {
	return aloneMeasure{
		of: func(a, b float64) float64 { return renyi.TwoPoint(a, b, lambda) },
		bound: func(cp, np, cq, nq int64, alpha float64) float64 {
			return renyi.EventBound(cp, np, cq, nq, lambda, alpha).LowerBound
		},
		infinite: "whose divergence may be infinite",
	}
}

// gaussianAlone is the Gaussian-DP level of one test, Φ⁻¹(a) − Φ⁻¹(b)
// (hockey.Gaussian): a test of level b = 0 and power a > 0 lies below
// every Gaussian trade-off curve G_μ.
func gaussianAlone() aloneMeasure {
	m := hockey.Gaussian()
	return aloneMeasure{
		of: m.Of,
		bound: func(cp, np, cq, nq int64, alpha float64) float64 {
			return m.Bound(cp, np, cq, nq, alpha).LowerBound
		},
		infinite: "which no finite μ allows if the other dataset never produces it",
	}
}

// aloneRate is the least rate b at which the other dataset must produce an
// output that one dataset produces at rate a for the measure of that one
// event to stay within the claim,
//
//	m(a, b) ≤ ε   (Rényi: D_λ((a, 1 − a) ‖ (b, 1 − b)); Gaussian DP: Φ⁻¹(a) − Φ⁻¹(b)),
//
// found by bisection on ln b (b can be far smaller than a), m falling as b
// grows towards a; 0 if even the smallest positive b keeps it there.
// A mechanism meeting the claim produces the output at least that often on
// the other dataset.
func aloneRate(a float64, m aloneMeasure, eps float64) float64 {
	if m.of(a, math.SmallestNonzeroFloat64) <= eps {
		return 0
	}
	lo, hi := math.Log(math.SmallestNonzeroFloat64), math.Log(a)
	for hi-lo > 1e-12 {
		mid := lo + (hi-lo)/2
		if m.of(a, math.Exp(mid)) > eps {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp(hi)
}

// aloneReach is the least number of draws per side n (to 1%, or to one
// draw) at which an output one dataset produces at rate a and the other
// never would show the claim exceeded by one event's bound at level alpha,
//
//	bound(round(a·n), n, 0, n) > ε,
//
// +Inf if maxAloneDraws do not.
func aloneReach(a float64, m aloneMeasure, eps, alpha float64) float64 {
	shows := func(n float64) bool {
		return m.bound(int64(math.Round(a*n)), int64(n), 0, int64(n), alpha) > eps
	}
	lo, n := 0.0, math.Ceil(1/a)
	for !shows(n) {
		lo = n
		if n *= 2; n > maxAloneDraws {
			return math.Inf(1)
		}
	}
	for n-lo > max(1, n/100) {
		mid := math.Floor(lo + (n-lo)/2)
		if mid <= lo || mid >= n {
			break
		}
		if shows(mid) {
			n = mid
		} else {
			lo = mid
		}
	}
	return n
}

// aloneAmong returns the atom of one dataset alone (search.AloneAtom)
// that the screenings of the candidates (search.Outcome.Screened) saw at
// the highest rate, and its pair: a direction or a pair other than the
// witness's may hold it, and screenings of different sizes (a deep one)
// may sit side by side.
func aloneAmong[D, F any](screened []search.Candidate[D, F], of func(F) search.AloneAtom) (alone search.AloneAtom, pair fixtures.Pair[D]) {
	rate := func(a search.AloneAtom) float64 { return float64(a.Count) / float64(a.Draws) }
	for _, c := range screened {
		if a := of(c.Finding); a.Count > 0 && (alone.Count == 0 || rate(a) > rate(alone)) {
			alone, pair = a, c.Pair
		}
	}
	return alone, pair
}

// aloneVerdict weighs, for an audit that found no violation, an atom one
// dataset of pair alone produced in its screening (aloneAmong). If the
// screening's own counts, none on the other side, bound the measure of
// that one event above the claim at the confirmations' level alpha (α′),
// the statistic confirmed cannot have counted it apart, and the audit
// cannot tell: the returned error says so. Else the returned clause, for
// the success line, says what the draws cannot show and what would.
func aloneVerdict[D any](alone search.AloneAtom, pair fixtures.Pair[D], m aloneMeasure, eps, alpha float64) (clause string, err error) {
	if alone.Count == 0 {
		return "", nil
	}
	a := float64(alone.Count) / float64(alone.Draws)
	by, other := fmt.Sprintf("X=%v", pair.X), fmt.Sprintf("Y=%v", pair.Y)
	if alone.Reverse {
		by, other = other, by
	}
	output := "the output " + num(alone.Value)
	if alone.Coordinate >= 0 {
		output = fmt.Sprintf("the value %s of coordinate v[%d]", num(alone.Value), alone.Coordinate)
	}
	reach := aloneReach(a, m, eps, alpha)
	seen := fmt.Sprintf("%s alone produced %s (%s of %s screening draws; %s none), %s", by, output, thousands(int(alone.Count)), thousands(int(alone.Draws)), other, m.infinite)
	if m.bound(alone.Count, alone.Draws, 0, alone.Draws, alpha) > eps {
		return "", &InconclusiveError{
			Reason: seen + ": those screening draws alone bound it above the claim, but the statistic confirmed did not show it",
			Remedy: "a pure-DP or (ε, δ) audit of the same mechanism (RequireDP, RequireApproxDP) tests outputs that one dataset alone produces",
		}
	}
	clause = "; but " + seen
	if allowed := aloneRate(a, m, eps); allowed > 0 {
		clause += fmt.Sprintf(": the claim holds there only if %s produces it at least once in %s draws, which these draws cannot refute", other, roughly(1/allowed))
	}
	pointer := "RequireDP and RequireApproxDP test such outputs"
	if !math.IsInf(reach, 1) {
		pointer = fmt.Sprintf("about %s draws per side would; %s", roughly(reach), pointer)
	}
	return clause + " (" + pointer + ")", nil
}

// roughly writes a positive count to two significant digits, with
// thousands separators (3,100,000).
func roughly(v float64) string {
	if v >= math.MaxInt64/2 {
		return num(v)
	}
	e := math.Pow(10, math.Max(math.Floor(math.Log10(v))-1, 0))
	return thousands(int(math.Round(v/e) * e))
}
