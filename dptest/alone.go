package dptest

import (
	"fmt"
	"math"

	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/search"
)

// MaxAloneDraws is the largest number of draws per side aloneReach
// considers: past it, no audit runs.
const MaxAloneDraws = 1e15

// aloneRate is the least rate b at which the other dataset must produce an
// output that one dataset produces at rate a for the two-point divergence
// at order λ (renyi.TwoPoint) to stay within the claim,
//
//	D_λ((a, 1 − a) ‖ (b, 1 − b)) ≤ ε,
//
// which falls as b grows towards a; 0 if even b → 0 keeps it there (it
// never does for λ ≥ 2). A mechanism meeting the claim produces the output
// at least that often on the other dataset.
func aloneRate(a, lambda, eps float64) float64 {
	lo, hi := 0.0, a
	if renyi.TwoPoint(a, math.SmallestNonzeroFloat64, lambda) <= eps {
		return 0
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if renyi.TwoPoint(a, mid, lambda) > eps {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// aloneReach is the number of draws per side at which an output one
// dataset produces at rate a and the other never would show, by the
// order-λ bound of one event at level alpha (renyi.EventBound), a
// divergence above eps; +Inf if MaxAloneDraws do not.
func aloneReach(a, lambda, eps, alpha float64) float64 {
	shows := func(n float64) bool {
		return renyi.EventBound(int64(math.Round(a*n)), int64(n), 0, int64(n), lambda, alpha).LowerBound > eps
	}
	n := math.Ceil(1 / a)
	for !shows(n) {
		if n *= 2; n > MaxAloneDraws {
			return math.Inf(1)
		}
	}
	lo := n / 2
	for n-lo > n/100 {
		if mid := math.Round(lo + (n-lo)/2); shows(mid) {
			n = mid
		} else {
			lo = mid
		}
	}
	return n
}

// aloneVerdict weighs, for an RDP audit that found no violation, an atom
// one dataset alone produced in the confirmed pair's screening
// (search.RenyiFinding.Alone). If the planned draws per side n would have
// shown it above the claim (aloneReach at the confirmations' level) had
// the statistic counted it apart, the audit cannot tell and the returned
// error says so; else the returned clause, for the success line, says
// what the draws cannot show and what would.
func aloneVerdict(alone search.AloneAtom, lambda, eps, alpha float64, n int) (clause string, err error) {
	if alone.Count == 0 {
		return "", nil
	}
	a := float64(alone.Count) / float64(alone.Draws)
	by, other := "X", "Y"
	if alone.Second {
		by, other = other, by
	}
	reach := aloneReach(a, lambda, eps, alpha)
	seen := fmt.Sprintf("%s alone produced the output %s (%s of %s screening draws; %s none)", by, num(alone.Value), thousands(int(alone.Count)), thousands(int(alone.Draws)), other)
	if reach <= float64(n) {
		return "", &InconclusiveError{
			Reason: seen + fmt.Sprintf(", whose divergence may be infinite, but the statistic confirmed holds it among other outputs, where %s draws per side cannot show it", thousands(n)),
			Remedy: "a pure-DP or (ε, δ) audit of the same mechanism (RequireDP, RequireApproxDP) tests outputs that one dataset alone produces",
		}
	}
	allowed := aloneRate(a, lambda, eps)
	clause = "; but " + seen + ", whose divergence may be infinite"
	if allowed > 0 {
		clause += fmt.Sprintf(": the claim allows %s to produce it once in %s draws, which these draws cannot refute", other, roughly(1/allowed))
		if !math.IsInf(reach, 1) {
			clause += fmt.Sprintf(" (about %s per side would)", roughly(reach))
		}
	}
	return clause + "; RequireDP and RequireApproxDP test such outputs", nil
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
