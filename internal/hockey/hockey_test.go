package hockey

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/dptest/dptest/internal/numeric"
)

// The profile of μ-GDP equals the hockey-stick divergence of N(μ, 1)
// against N(0, 1), integrated: ∫ (φ(t − μ) − e^ε φ(t))₊ dt.
func TestGaussianProfileIsTheHockeyStickOfShiftedNormals(t *testing.T) {
	for _, mu := range []float64{0.1, 0.5, 1, 2, 5} {
		for _, eps := range []float64{0, 0.1, 1, 3, 10} {
			f := func(x float64) float64 {
				return max(distuv.UnitNormal.Prob(x-mu)-math.Exp(eps)*distuv.UnitNormal.Prob(x), 0)
			}
			want := numeric.Integrate(f, -12, mu+12, 4000)
			assert.InDelta(t, want, GaussianProfile(mu, eps), 1e-9+1e-6*want, "μ=%v ε=%v", mu, eps)
		}
	}
	// Far tails: computed in log space, neither 0 − ∞ nor NaN.
	assert.Equal(t, 0.0, GaussianProfile(1, 800))
	assert.Equal(t, 0.0, GaussianProfile(0, 1))
	assert.InDelta(t, 2*distuv.UnitNormal.CDF(0.5)-1, GaussianProfile(1, 0), 1e-12) // total variation
}

// Every threshold test between N(μ, 1) and N(0, 1) has Gaussian level μ.
func TestGaussianLevelOfThresholdTests(t *testing.T) {
	g := Gaussian()
	for _, mu := range []float64{0.3, 1, 2.5} {
		for _, c := range []float64{-2, 0, 0.7, 3} {
			a, b := 1-distuv.UnitNormal.CDF(c-mu), 1-distuv.UnitNormal.CDF(c)
			assert.InDelta(t, mu, g.Of(a, b), 1e-9)
		}
	}
}

// The bound exceeds the true m(P(E), Q(E)) with probability at most α:
// 4,000 binomial draws per case at α = 0.1, seed fixed; the count of
// exceedances is Binomial(4000, ≤ 0.1), and a rate above 0.115 has
// probability below 10⁻³ for a bound that holds.
func TestBoundCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(20261123, 11))
	const n, reps, alpha = 2000, 4000, 0.1
	cases := []struct {
		m    Measure
		p, q float64
	}{
		{HockeyStick(1), 0.3, 0.05}, {HockeyStick(0.1), 0.5, 0.4}, {HockeyStick(3), 0.01, 0.0002},
		{Gaussian(), 0.7, 0.3}, {Gaussian(), 0.05, 0.002},
	}
	for _, c := range cases {
		truth := max(c.m.Of(c.p, c.q), 0)
		over := 0
		for i := 0; i < reps; i++ {
			cp, cq := binomial(r, n, c.p), binomial(r, n, c.q)
			if c.m.Bound(cp, n, cq, n, alpha).LowerBound > truth {
				over++
			}
		}
		assert.LessOrEqual(t, float64(over)/reps, 0.115, "%s at P=%v Q=%v: truth %v", c.m.Name, c.p, c.q, truth)
	}
}

func binomial(r *rand.Rand, n int, p float64) int64 {
	k := int64(0)
	for i := 0; i < n; i++ {
		if r.Float64() < p {
			k++
		}
	}
	return k
}

func TestBoundEdges(t *testing.T) {
	h := HockeyStick(1)
	// An event one side never produced: the bound is what n draws show.
	r := h.Bound(500, 1000, 0, 1000, 0.01)
	assert.Greater(t, r.LowerBound, 0.4)
	assert.Less(t, r.LowerBound, 0.5)
	// Nothing seen: bound 0, width finite.
	r = h.Bound(0, 1000, 0, 1000, 0.01)
	assert.Equal(t, 0.0, r.LowerBound)
	assert.False(t, math.IsNaN(r.StdErr))
	// e^ε overflows: no finite sample proves Q(E) = 0, so the bound is 0,
	// not NaN, while m itself keeps e^ε·0 = 0.
	r = HockeyStick(1000).Bound(500, 1000, 0, 1000, 0.01)
	assert.Equal(t, 0.0, r.LowerBound)
	assert.Equal(t, 0.5, HockeyStick(1000).Of(0.5, 0))
	// Gaussian level of an event Q never produced: finite bound, infinite width.
	g := Gaussian().Bound(500, 1000, 0, 1000, 0.01)
	assert.Greater(t, g.LowerBound, 2.0)
	assert.True(t, math.IsInf(g.StdErr, 1))
	require.False(t, math.IsNaN(Gaussian().Bound(0, 1000, 1000, 1000, 0.01).LowerBound))
}

// The floor of the resolution: a δ that n draws cannot show violated by
// 1.5 times is flagged; an ordinary one is moved a little; where even an
// event the other side never produces cannot clear e^ε·u₀ none can show;
// a μ beyond what any event of n draws bounds cannot be shown violated.
func TestLeast(t *testing.T) {
	const n, alpha = 1_000_000, 0.007
	zBeta := distuv.UnitNormal.Quantile(math.Sqrt(0.9))
	u0 := numeric.BinomialUpper(0, n, alpha/2)
	k := (numeric.UpperNormalQuantile(alpha/2) + zBeta) / 1000
	h := HockeyStick(1)
	tiny := h.Least(1e-5, n, alpha, zBeta)
	assert.Greater(t, tiny, 1.5e-5)
	assert.InDelta(t, 1e-5+math.E*u0+k*math.Sqrt(tiny), tiny, 1e-12, "solves δ′ − k√δ′ = δ + e^ε·u₀")
	assert.InDelta(t, 0.1+k*math.Sqrt(0.1), h.Least(0.1, n, alpha, zBeta), 1e-4)
	// At ε = 3, δ = 10⁻⁴ a violation needs about 2.9δ (exact: 2.8δ).
	assert.InDelta(t, 2.85e-4, HockeyStick(3).Least(1e-4, n, alpha, zBeta), 0.1e-4)
	assert.True(t, math.IsInf(HockeyStick(13).Least(1e-3, n, alpha, zBeta), 1), "e^13·u₀ > 1")
	g := Gaussian()
	assert.True(t, math.IsInf(g.Least(9, n, alpha, zBeta), 1))
	assert.Equal(t, 2.0, g.Least(2, n, alpha, zBeta))
}

// Allowed is the claim's edge: an event at it has the measure the claim
// names (Gaussian DP: every threshold test of shifted normals).
func TestAllowedIsTheClaimsEdge(t *testing.T) {
	g := Gaussian()
	for _, mu := range []float64{0.25, 1, 3} {
		for _, q := range []float64{1e-9, 1e-4, 0.1, 0.5, 0.9} {
			assert.InDelta(t, mu, g.Of(g.Allowed(q, mu), q), 1e-6, "μ %g q %g", mu, q)
		}
		assert.Equal(t, 0.0, g.Allowed(0, mu))
	}
	h := HockeyStick(1)
	assert.InDelta(t, math.E*0.01+0.05, h.Allowed(0.01, 0.05), 1e-15)
	assert.Equal(t, 1.0, h.Allowed(0.5, 0.05))
	assert.Equal(t, 0.05, h.Allowed(0, 0.05))
}

// Hidden: for the hockey-stick divergence δ + s·(1 − δ) − e^ε·u (at
// q = 0; a claim whose δ + s exceeds 1 included); for Gaussian DP, finite
// at every μ a million draws can show (a mixture, not a cap, keeps P
// below 1), and the supremum of a scan of q in [0, 1] a thousand a decade
// on each half (P kept where floating point holds it, below 1 − 10⁻¹⁰),
// which the grid reaches to within 10⁻³ and never exceeds:
// at a share of 2·10⁻⁵ of a million draws and μ = 0.5, 0.28 alone and
// 0.50 in all, below 1.5·μ; at 3%, 2.5, far above 1.5·μ for μ ≤ 1; at
// μ = 3 and 4 with a few unseen draws in 10⁵, μ itself.
func TestHidden(t *testing.T) {
	u := numeric.BinomialUpper(0, 1_000_000, 0.0067/2)
	for _, eps := range []float64{0, 1, 5} {
		h := HockeyStick(eps)
		for _, delta := range []float64{1e-6, 1e-3, 0.1, 0.9} {
			for _, s := range []float64{1e-5, 0.03, 0.5} {
				assert.InDelta(t, delta+s*(1-delta)-math.Exp(eps)*u, h.Hidden(s, u, delta), 1e-12, "ε %g δ %g s %g", eps, delta, s)
			}
		}
	}
	g := Gaussian()
	phi := distuv.UnitNormal
	for _, n := range []int{100_000, 1_000_000} {
		un := numeric.BinomialUpper(0, int64(n), 0.0067/2)
		for _, mu := range []float64{0.1, 0.5, 1, 2, 3, 5, 8} {
			for _, s := range []float64{1e-6, 2e-5, 1e-3, 0.03, 0.3} {
				scan := phi.Quantile(s) - phi.Quantile(un) // q = 0
				for k := 0; k <= 20_000; k++ {
					q := 0.5 * math.Pow(10, -float64(k)/1000)
					for _, q := range []float64{q, 1 - q} {
						p := (1-s)*phi.CDF(phi.Quantile(q)+mu) + s
						if p < 1-1e-10 { // beyond, P's rounding error moves Φ⁻¹(P) by more than 10⁻⁴
							scan = max(scan, phi.Quantile(p)-phi.Quantile(min(q+un, 1)))
						}
					}
				}
				got := g.Hidden(s, un, mu)
				require.False(t, math.IsInf(got, 0) || math.IsNaN(got), "n %d μ %g s %g: %g", n, mu, s, got)
				if mu > 5 {
					// Φ(8) is 1 − 6·10⁻¹⁶: both sides round, by up to 0.005.
					assert.GreaterOrEqual(t, got, max(g.Of(s, un), mu-0.01), "n %d μ %g s %g", n, mu, s)
					continue
				}
				assert.LessOrEqual(t, got, scan+1e-12, "n %d μ %g s %g", n, mu, s)
				assert.InDelta(t, scan, got, 1e-3, "n %d μ %g s %g", n, mu, s)
				assert.GreaterOrEqual(t, got, g.Of(s, un), "alone")
			}
		}
	}
	assert.InDelta(t, 0.28, g.Of(2e-5, u), 0.01)
	assert.InDelta(t, 0.50, g.Hidden(2e-5, u, 0.5), 0.005)
	assert.InDelta(t, 2.5, g.Hidden(0.03, u, 0.5), 0.05)
	assert.Greater(t, g.Hidden(0.03, u, 1), 1.5*1)
	u5 := numeric.BinomialUpper(0, 100_000, 0.0067/2)
	assert.InDelta(t, 3, g.Hidden(3e-3, u5, 3), 0.01)
	assert.InDelta(t, 4, g.Hidden(5e-4, u5, 4), 0.01)
}
