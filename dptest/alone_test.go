package dptest

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
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
		req.InEpsilon(t, root, aloneRate(c.a, renyiAlone(2), c.eps), 1e-9, "a=%g ε=%g", c.a, c.eps)
	}
}

// A root far below a (a low order, a large claim) is found on the log
// scale: the measure there equals the claim.
func TestAloneRateOfATinyRoot(t *testing.T) {
	for _, c := range []struct{ a, lambda, eps float64 }{{1e-3, 1.01, 1}, {1e-3, 2, 150}} {
		m := renyiAlone(c.lambda)
		b := aloneRate(c.a, m, c.eps)
		req.Less(t, b, 1e-60, "%+v", c)
		req.InEpsilon(t, c.eps, m.of(c.a, b), 1e-6, "%+v at b = %g", c, b)
	}
}

// For Gaussian DP the claim μ allows a test of power a a level of at
// least b = Φ(Φ⁻¹(a) − μ).
func TestAloneRateOfGaussianDP(t *testing.T) {
	for _, c := range []struct{ a, mu float64 }{{1e-3, 2}, {1.0 / 300, 1}, {0.2, 0.5}, {1e-6, 5}} {
		want := numeric.NormalCDF(numeric.NormalQuantile(c.a) - c.mu)
		req.InEpsilon(t, want, aloneRate(c.a, gaussianAlone(), c.mu), 1e-9, "a=%g μ=%g", c.a, c.mu)
	}
	n := aloneReach(1e-3, gaussianAlone(), 2, 1e-5)
	req.Greater(t, hockey.Gaussian().Bound(int64(math.Round(1e-3*n)), int64(n), 0, int64(n), 1e-5).LowerBound, 2.0)
}

// aloneReach is, to 1%, the fewest draws at which the event bound shows
// the claim exceeded.
func TestAloneReachIsTheFewestDrawsThatShowIt(t *testing.T) {
	shows := func(a, n, lambda, eps, alpha float64) bool {
		return renyi.EventBound(int64(math.Round(a*n)), int64(n), 0, int64(n), lambda, alpha).LowerBound > eps
	}
	for _, c := range []struct{ a, lambda, eps float64 }{{1.0 / 300, 2, 1.238}, {1e-3, 2, 1.238}, {1e-2, 8, 3}} {
		n := aloneReach(c.a, renyiAlone(c.lambda), c.eps, 1e-5)
		req.True(t, shows(c.a, n, c.lambda, c.eps, 1e-5), "%+v at %g", c, n)
		req.False(t, shows(c.a, n/1.02, c.lambda, c.eps, 1e-5), "%+v at %g", c, n/1.02)
	}
	req.True(t, math.IsInf(aloneReach(1e-12, renyiAlone(2), 30, 1e-5), 1), "an output once in 10¹² draws, against a claim of 30, is out of reach")
	for _, a := range []float64{0.5, 1} { // a few draws show it: the search ends on whole draws
		n := aloneReach(a, renyiAlone(2), 0.001, 1e-5)
		req.True(t, shows(a, n, 2, 0.001, 1e-5), "a=%g at %g", a, n)
		req.False(t, shows(a, n-1, 2, 0.001, 1e-5), "a=%g at %g", a, n-1)
	}
}

// Within the planned draws, an atom of one dataset alone that the
// confirmation did not show makes the audit suspect; beyond them, the
// success line names it and the draws that would refute the claim there.
func TestAloneVerdict(t *testing.T) {
	pair := fixtures.Pair[[]float64]{X: []float64{1, 0.5}, Y: []float64{0, 0.5}}
	alone, err := aloneVerdict(search.AloneAtom{}, pair, renyiAlone(2), 1, 1e-5)
	req.NoError(t, err)
	req.Nil(t, alone)
	req.Empty(t, aloneClause(alone, plan.KindRDP))

	atom := search.AloneAtom{Value: 0.5, Coordinate: -1, Count: 100, Draws: 100_000}
	alone, err = aloneVerdict(atom, pair, renyiAlone(2), 1.238, 1e-5)
	req.NoError(t, err)
	req.Equal(t, pair, alone.Pair)
	req.Equal(t, atom.Count, alone.Count)
	req.InDelta(t, 1e-6/2.45, alone.NeededRate, 0.01e-6) // a²/b + (1 − a)²/(1 − b) = e^1.238
	req.Equal(t, aloneReach(1e-3, renyiAlone(2), 1.238, 1e-5), alone.RefutingDraws)
	clause := aloneClause(alone, plan.KindRDP)
	req.Contains(t, clause, "X=[1 0.5] alone produced the output 0.5 (100 of 100,000 screening draws; Y=[0 0.5] none), whose divergence may be infinite")
	req.Contains(t, clause, "the claim holds there only if Y=[0 0.5] produces it at least once in 2,500,000 draws")
	req.Contains(t, clause, " draws per side would; RequireDP and RequireApproxDP test such outputs)")
	req.Contains(t, aloneClause(alone, plan.KindGDP), "which no finite μ allows")

	atom.Coordinate = 3
	alone, err = aloneVerdict(atom, pair, renyiAlone(2), 1.238, 1e-5)
	req.NoError(t, err)
	req.Contains(t, aloneClause(alone, plan.KindRDP), "X=[1 0.5] alone produced the value 0.5 of coordinate v[3] (")

	// Once in 50 draws, never on Y in 100,000: those draws alone show
	// D₂ above 1.238 (the claim needs Y at least once in about 6,200).
	atom = search.AloneAtom{Value: 0.5, Coordinate: -1, Count: 2_000, Draws: 100_000, Reverse: true}
	alone, err = aloneVerdict(atom, pair, renyiAlone(2), 1.238, 1e-5)
	var why *OutputOfOneDataset
	req.True(t, errors.As(err, &why), "%v", err)
	req.True(t, errors.Is(err, ErrSuspect))
	req.True(t, alone.Reverse)
	req.True(t, strings.HasPrefix(why.Seen, "Y=[0 0.5] alone produced the output 0.5"), why.Seen)

	// An AloneOutput built by hand, with no pair, renders without one.
	bare := &AloneOutput{Value: 0.5, Coordinate: -1, Count: 1, Draws: 10, RefutingDraws: math.Inf(1)}
	req.Contains(t, aloneClause(bare, plan.KindRDP), "; but X alone produced the output 0.5 (1 of 10 screening draws; Y none)")
	req.NotPanics(t, func() {
		r := Report{Claim: Claim{Kind: plan.KindRDP}, Verdict: Holds}
		r.Details.Alone = bare
		_ = r.String() + r.detailsText()
	})
}
