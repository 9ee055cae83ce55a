package hockey

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/dptest/dptest/internal/numeric"
)

// JointLower's coverage, computed exactly: the probability, summed over
// every pair of counts, that the bound exceeds the true a − w·b is at most
// alpha, for events either side produces often or rarely, weights from 1
// to e², and unequal sample sizes.
func TestJointLowerExactCoverage(t *testing.T) {
	cases := []struct {
		np, nq      int64
		a, b, w     float64
		alpha, most float64 // most: the exact miss rate, computed once, as a check the sum is live
	}{
		{30, 30, 0.5, 0.4, 1, 0.05, 0.0240},
		{30, 30, 0.2, 0.05, math.Exp(0.5), 0.05, 0.0024},
		{40, 40, 0.1, 0, 1, 0.1, 0.0051},
		{25, 25, 0.6, 0.55, math.Exp(0.1), 0.2, 0.1253},
		{40, 40, 0.05, 0.01, math.E, 0.1, 0},
		{30, 20, 0.3, 0.1, math.Exp(2), 0.1, 0},
		{20, 35, 0.45, 0.5, 1, 0.1, 0},
		// P(E) at or near 1, where the confidence set ends inside b's
		// interval and a search for the least point alone overshoots it
		// (7.1%, 6.0%, 1.4%, 1.01% and 50.75% missed before leastOverB).
		{100, 30, 1, 0.26444, 3, 0.05, 0},
		{100, 100, 1, 0.172, 5, 0.05, 0},
		{100, 30, 1, 0.48, 2, 0.01, 0},
		{100, 100, 0.9975, 0.27265, 1.5, 0.01, 0},
		{40, 15, 0.99379, 0.23573, 1.9384, 0.5, 0},
	}
	for _, c := range cases {
		truth := c.a - c.w*c.b
		pa, pb := binomialMasses(c.np, c.a), binomialMasses(c.nq, c.b)
		miss := 0.0
		for i := range pa {
			for j := range pb {
				switch pr := pa[i] * pb[j]; {
				case pr < 1e-12:
					miss += pr // not computed: counted as missed
				case JointLower(int64(i), c.np, int64(j), c.nq, c.w, c.alpha) > truth:
					miss += pr
				}
			}
		}
		assert.LessOrEqual(t, miss, c.alpha, "%+v", c)
		if c.most > 0 {
			assert.InDelta(t, c.most, miss, 5e-4, "%+v", c)
		}
	}
}

// binomialMasses is the probability mass function of Bin(n, p) by
// gonum, independent of binomialBand.
func binomialMasses(n int64, p float64) []float64 {
	d := distuv.Binomial{N: float64(n), P: p}
	out := make([]float64, n+1)
	for k := range out {
		if p == 0 || p == 1 {
			out[k] = map[bool]float64{true: 1}[k == int(p)*int(n)]
			continue
		}
		out[k] = d.Prob(float64(k))
	}
	return out
}

// At large counts the bound is the normal bound of the difference,
// t − z_{1−α₂}·√(a(1−a)/np + w²·b(1−b)/nq) at the b of the interval that
// widens it most, within a fiftieth of its width (the rest the skew of a
// count of 200); the rectangle of two
// one-sided bounds at alpha/2 is √2 times as wide for an event both sides
// produce alike (a half-line of a shifted distribution), and no narrower
// for one the other side never produced.
func TestJointLowerIsTheDifferencesBound(t *testing.T) {
	for _, c := range []struct {
		cp, cq, n int64
		w, alpha  float64
	}{
		{14_500, 13_000, 50_000, math.Exp(0.01), 1e-6},
		{400_000, 380_000, 1_000_000, math.Exp(0.01), 1e-7},
		{3_000, 200, 50_000, math.Exp(1), 1e-6},
	} {
		n := float64(c.n)
		a, b := float64(c.cp)/n, float64(c.cq)/n
		a1 := c.alpha / 10
		bHi := numeric.BinomialUpper(c.cq, c.n, a1/2)
		sd := math.Sqrt((a*(1-a) + c.w*c.w*bHi*(1-bHi)) / n)
		z := numeric.UpperNormalQuantile(c.alpha - a1)
		normal := a - c.w*b - z*sd
		got := JointLower(c.cp, c.n, c.cq, c.n, c.w, c.alpha)
		assert.InDelta(t, normal, got, 0.02*z*sd, "%+v", c)
		rect := numeric.BinomialLower(c.cp, c.n, c.alpha/2) - c.w*numeric.BinomialUpper(c.cq, c.n, c.alpha/2)
		assert.Greater(t, got, rect, "%+v", c)
	}
	// The half-line: √2 narrower, to within the two levels' quantiles.
	lo := JointLower(14_500, 50_000, 13_000, 50_000, math.Exp(0.01), 1e-6)
	est := 0.29 - math.Exp(0.01)*0.26
	rect := numeric.BinomialLower(14_500, 50_000, 5e-7) - math.Exp(0.01)*numeric.BinomialUpper(13_000, 50_000, 5e-7)
	assert.InDelta(t, math.Sqrt2, (est-rect)/(est-lo), 0.15)
	// An event the other side never produced.
	for _, cp := range []int64{5, 60, 1500} {
		got := JointLower(cp, 50_000, 0, 50_000, math.Exp(0.01), 1e-6)
		rect := numeric.BinomialLower(cp, 50_000, 5e-7) - math.Exp(0.01)*numeric.BinomialUpper(0, 50_000, 5e-7)
		assert.GreaterOrEqual(t, got, rect-1e-12, "cp=%d", cp)
		assert.Less(t, got, float64(cp)/50_000)
	}
}

// Nothing counted bounds nothing; all counted on one side is bounded by the
// other's.
func TestJointLowerEdges(t *testing.T) {
	w := math.Exp(0.5)
	assert.LessOrEqual(t, JointLower(0, 1000, 0, 1000, w, 0.01), 0.0)
	assert.Less(t, JointLower(0, 1000, 500, 1000, w, 0.01), -0.4)
	got := JointLower(1000, 1000, 0, 1000, w, 0.01)
	assert.Greater(t, got, 0.98)
	assert.Less(t, got, 1.0)
	assert.Panics(t, func() { JointLower(1, 10, 1, 10, math.Inf(1), 0.1) })
	assert.Panics(t, func() { JointLower(1, 10, 1, 10, 0, 0.1) })
}

// The band's masses are the binomial's, summing to 1, and the left-out
// masses it states bound the true ones from above.
func TestBinomialBand(t *testing.T) {
	for _, c := range []struct {
		n int64
		p float64
	}{{1, 0.5}, {50, 0.02}, {2000, 0.3}, {1_000_000, 0.5}, {1_000_000, 3e-6}, {10, 0.999}} {
		band := newBinomialBand(c.n, c.p, nil)
		d := distuv.Binomial{N: float64(c.n), P: c.p}
		sum := 0.0
		for i, m := range band.pmf {
			k := float64(band.lo + int64(i))
			assert.InEpsilon(t, d.Prob(k), m, 1e-8, "%+v at %v", c, k) // ln Γ(10⁶) to 10⁻¹⁶ of its 1.3·10⁷
			sum += m
		}
		below := 0.0
		if band.lo > 0 {
			below = d.CDF(float64(band.lo - 1))
		}
		above := 1 - d.CDF(float64(band.lo+int64(len(band.pmf))-1))
		assert.InDelta(t, 1, sum, 1e-14, "%+v", c)
		assert.LessOrEqual(t, below, band.below+1e-15, "%+v", c)
		assert.LessOrEqual(t, above, band.above+1e-15, "%+v", c)
		assert.Less(t, band.below+band.above, 1e-16, "%+v", c)
	}
}

// The prediction that chooses events is the bound itself to within a
// tenth of its distance below the frequencies' difference, where the
// counts are large enough for the variance-stabilised approximations.
func TestJointPrediction(t *testing.T) {
	const n, alpha = 50_000, 1e-6
	for _, c := range [][2]int64{{14_500, 13_000}, {3_000, 200}, {1_500, 0}, {25_000, 24_000}} {
		w := math.Exp(0.01)
		predicted := JointPrediction(w, alpha)(float64(c[0]), float64(c[1]), n)
		got := JointLower(c[0], n, c[1], n, w, alpha)
		est := float64(c[0])/n - w*float64(c[1])/n
		assert.InDelta(t, got, predicted, 0.1*(est-got), "%v", c)
	}
	assert.True(t, math.IsInf(JointPrediction(1, alpha)(n, 0, n), -1))
}

// The joint test is used up to ε = JointMaxEps, and its StdErr covers the
// longer side of a small count: the estimate plus z_{1−α}·StdErr reaches
// the upper bound of the same test.
func TestJointBoundUse(t *testing.T) {
	assert.True(t, HockeyStick(JointMaxEps).Joint())
	assert.False(t, HockeyStick(JointMaxEps+0.01).Joint())
	assert.False(t, Gaussian().Joint())
	for _, c := range [][2]int64{{3, 1}, {1, 0}, {10, 4}, {400, 380}} {
		h := HockeyStick(0)
		r := h.Bound(c[0], 1000, c[1], 1000, 0.01)
		hi := -JointLower(c[1], 1000, c[0], 1000, 1, 0.01)
		raw := float64(c[0]-c[1]) / 1000
		assert.GreaterOrEqual(t, raw+numeric.UpperNormalQuantile(0.01)*r.StdErr, hi-1e-12, "%v", c)
		assert.Equal(t, max(JointLower(c[0], 1000, c[1], 1000, 1, 0.01), 0), r.LowerBound)
	}
	// Beyond JointMaxEps, the rectangle.
	h := HockeyStick(5)
	assert.Equal(t, h.RectangleBound(300, 1000, 1, 1000, 0.01), h.Bound(300, 1000, 1, 1000, 0.01))
}
