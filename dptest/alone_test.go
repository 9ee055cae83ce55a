package dptest

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/search"
	req "github.com/stretchr/testify/require"
)

// At order 2 the two-point divergence ln(a²/b + (1 − a)²/(1 − b)) equals
// ε where e^ε b² + (1 − 2a − e^ε) b + a² = 0: aloneRate is the smaller root.
func TestAloneRateAtOrderTwo(t *testing.T) {
	for _, c := range []struct{ a, eps float64 }{{1.0 / 300, 1.238}, {1e-3, 0.5}, {0.01, 2}, {0.2, 0.1}} {
		e := math.Exp(c.eps)
		b := -(1 - 2*c.a - e)
		root := (b - math.Sqrt(b*b-4*e*c.a*c.a)) / (2 * e)
		req.InEpsilon(t, root, aloneRate(c.a, 2, c.eps), 1e-9, "a=%g ε=%g", c.a, c.eps)
	}
}

// aloneReach is, to 1%, the fewest draws at which the event bound shows
// the claim exceeded.
func TestAloneReachIsTheFewestDrawsThatShowIt(t *testing.T) {
	shows := func(a, n, lambda, eps, alpha float64) bool {
		return renyi.EventBound(int64(math.Round(a*n)), int64(n), 0, int64(n), lambda, alpha).LowerBound > eps
	}
	for _, c := range []struct{ a, lambda, eps float64 }{{1.0 / 300, 2, 1.238}, {1e-3, 2, 1.238}, {1e-2, 8, 3}} {
		n := aloneReach(c.a, c.lambda, c.eps, 1e-5)
		req.True(t, shows(c.a, n, c.lambda, c.eps, 1e-5), "%+v at %g", c, n)
		req.False(t, shows(c.a, n/1.02, c.lambda, c.eps, 1e-5), "%+v at %g", c, n/1.02)
	}
	req.True(t, math.IsInf(aloneReach(1e-12, 2, 30, 1e-5), 1), "an output once in 10¹² draws, against a claim of 30, is out of reach")
}

// Within the planned draws, an atom of one dataset alone that the
// confirmation did not show makes the audit inconclusive; beyond them, the
// success line names it and the draws that would refute the claim there.
func TestAloneVerdict(t *testing.T) {
	clause, err := aloneVerdict(search.AloneAtom{}, 2, 1, 1e-5, 1_000_000)
	req.NoError(t, err)
	req.Empty(t, clause)

	atom := search.AloneAtom{Value: 0.5, Count: 100, Draws: 100_000}
	clause, err = aloneVerdict(atom, 2, 1.238, 1e-5, 1_000_000)
	req.NoError(t, err)
	req.Contains(t, clause, "X alone produced the output 0.5 (100 of 100,000 screening draws; Y none)")
	req.Contains(t, clause, "the claim allows Y to produce it once in 2,500,000 draws") // 1/b, a²/b + (1 − a)²/(1 − b) = e^1.238: b ≈ 10⁻⁶/2.45
	req.Contains(t, clause, "RequireDP and RequireApproxDP test such outputs")

	atom.Second = true
	_, err = aloneVerdict(atom, 2, 1.238, 1e-5, 100_000_000)
	var inc *InconclusiveError
	req.True(t, errors.As(err, &inc), "%v", err)
	req.True(t, strings.HasPrefix(inc.Reason, "Y alone produced the output 0.5"), inc.Reason)
	req.Contains(t, inc.Remedy, "RequireDP")
}
