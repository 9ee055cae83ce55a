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
// confirmation did not show makes the audit inconclusive; beyond them, the
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
	var inc *InconclusiveError
	req.True(t, errors.As(err, &inc), "%v", err)
	req.True(t, alone.Reverse)
	req.True(t, strings.HasPrefix(inc.Reason, "Y=[0 0.5] alone produced the output 0.5"), inc.Reason)
	req.Contains(t, inc.Remedy, "RequireDP")

	// An AloneOutput built by hand, with no pair, renders without one.
	bare := &AloneOutput{Value: 0.5, Coordinate: -1, Count: 1, Draws: 10, RefutingDraws: math.Inf(1)}
	req.Contains(t, aloneClause(bare, plan.KindRDP), "; but X alone produced the output 0.5 (1 of 10 screening draws; Y none)")
	req.NotPanics(t, func() { _ = Report{Kind: plan.KindRDP, Alone: bare}.String() })
}

// The draws a Gaussian-DP claim needs before any event's bound can exceed
// it are where hockey.Gaussian's Least stops being infinite.
func TestGaussianFloorDraws(t *testing.T) {
	least := hockey.Gaussian().Least
	for _, mu := range []float64{4, 9, 12} {
		n := gaussianFloorDraws(mu, 1e-3)
		req.True(t, math.IsInf(least(mu, int(0.99*n), 1e-3, 0), 1), "μ=%g below %g draws", mu, n)
		req.False(t, math.IsInf(least(mu, int(1.01*n)+1, 1e-3, 0), 1), "μ=%g above %g draws", mu, n)
	}
}

// "More samples resolve it" names their order only when the resolution is
// the reason and finite: its excess over the claim, or over what the
// confirmed events resolve at any size, shrinks as 1/√n.
func TestMoreSamples(t *testing.T) {
	type outcome = search.Outcome[[]float64, search.EventFinding]
	coarse := outcome{Coarse: true}
	req.Equal(t, "more samples (-dptest.samples, dptest.Samples) resolve it, on the order of 4,000,000 draws per side if the error falls as 1/√n", moreSamples(coarse, 2, 1, 1_000_000))
	req.Equal(t, "more samples (-dptest.samples, dptest.Samples) resolve it", moreSamples(outcome{}, 2, 1, 1_000_000))
	req.Equal(t, "more samples (-dptest.samples, dptest.Samples) resolve it", moreSamples(coarse, math.Inf(1), 1, 1_000_000))
	// Events that resolve 1.4 at any size (ε = 1): 1.6 falls towards 1.4,
	// and must reach 1.5: (0.2/0.1)² = 4 times the draws, not 1.44.
	limited := outcome{Coarse: true, SupLimit: 1.4}
	req.Contains(t, moreSamples(limited, 1.6, 1, 1_000_000), "on the order of 4,000,000 draws per side")
	// Just above what a pass needs (0.059 against 1.5 × 0.0375 = 0.0562,
	// as k-ary randomized response at 2·10⁶ draws): the 1/√n order would
	// round to the draws run; the remedy says so instead of naming them.
	near := moreSamples(coarse, 0.059, 0.0375, 2_000_000)
	req.Contains(t, near, "likely a few times the 2,000,000 draws per side run here (the resolution, 0.059, is just above the 0.05625 a pass needs)")
	req.NotContains(t, near, "on the order of")
	req.Equal(t, 1_000_000.0, drawsToResolve(1.2, 1, 1.5, 1_000_000), "resolved already")
	req.True(t, math.IsInf(drawsToResolve(2, 1.6, 1.5, 1_000_000), 1), "events that never resolve")

	// The classic Gaussian σ at (ε, δ) = (10, 0.1), true δ(10) = 0.41:
	// its events at 10⁶ draws resolve 1.244, whose 1/√n order is 5·10⁸
	// draws, yet 10⁷ draws violate it (their larger screening places the
	// events further in the tail), so the order is said to be of these
	// events, and rounded.
	hockey := hockeyRemedy(plan.Run{Eps: 10, Threshold: 0.1}, 1.244, 1_000_000)
	req.Contains(t, hockey, "δ = 0.1 needs on the order of 520,000,000 draws per side on the events confirmed here (fewer where the larger screening they bring places the events further in the tail)")
}
