package local

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/stat"
)

func TestCountBoundIsEq26(t *testing.T) {
	// p̂ = 0.3, q̂ = 0.1 from 10⁴ samples each: σ̂² = 1/p̂ + 1/q̂ − 2 = 11.33…
	b := CountBound(3000, 10000, 1000, 10000, 0.05)
	require.InDelta(t, math.Log(3), b.Loss, 1e-12)
	sigma := math.Sqrt(1/0.3 + 1/0.1 - 2)
	require.InDelta(t, sigma/100, b.StdErr, 1e-12)
	require.InDelta(t, math.Log(3)-1.6448536269514722*sigma/100, b.LowerBound, 1e-12)
	// Unequal sizes and an empty side (Haldane–Anscombe ½).
	b = CountBound(50, 1000, 0, 4000, 0.01)
	require.InDelta(t, math.Log((50.5/1000)/(0.5/4000)), b.Loss, 1e-12)
	require.False(t, math.IsInf(b.LowerBound, 0))
	require.Greater(t, b.LowerBound, 0.0)
}

// A count bound of a fixed event covers the event's true loss at its
// nominal level: 2000 replicates of a binomial pair with loss ln 2, α = 0.1;
// the share of bounds above ln 2 must lie within the 99.9% binomial interval
// of 0.1 (false-failure probability 10⁻³).
func TestCountBoundCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	over := 0
	for i := 0; i < 2000; i++ {
		cx, cy := int64(0), int64(0)
		for j := 0; j < 5000; j++ {
			if r.Float64() < 0.02 {
				cx++
			}
			if r.Float64() < 0.01 {
				cy++
			}
		}
		if CountBound(cx, 5000, cy, 5000, 0.1).LowerBound > math.Ln2 {
			over++
		}
	}
	require.InDelta(t, 200, over, 3.29*math.Sqrt(2000*0.1*0.9)+15, "over=%d", over)
}

func TestDiscreteScreen(t *testing.T) {
	p, q := stat.NewFreq[string](), stat.NewFreq[string]()
	add := func(f *stat.Freq[string], v string, n int) {
		for i := 0; i < n; i++ {
			f.Add(v)
		}
	}
	// a: ratio e on x, b: ratio 1, c: ratio 1/e (a and c also near ties).
	add(p, "a", 2718)
	add(q, "a", 1000)
	add(p, "b", 5000)
	add(q, "b", 5000)
	add(p, "c", 1000)
	add(q, "c", 2718)
	add(p, "z", 1) // rare: floored at 10/n, never the peak
	add(q, "z", 1282)
	xy, yx, err := Screen(stat.Tabulate(p, q), Params{FloorCount: 10})
	require.NoError(t, err)
	require.Equal(t, "a", xy.Event.Location)
	require.InDelta(t, math.Log((2718.0/8719)/(1000.0/10000)), xy.Loss, 1e-12)
	// x′ → x: z (1 draw of 8719 under x, floored at 10 draws, against 1282
	// of 10⁴) has loss ln 111.8 = 4.72 with a standard error near 1, so its
	// penalised loss 4.7 − 3 beats c's 0.86 − 3·0.034: a value seen once on
	// one side and a thousand times on the other is evidence.
	require.Equal(t, "z", yx.Event.Location)
	require.InDelta(t, math.Log((1282.0/10000)/(10.0/8719)), yx.Loss, 1e-12)
	require.Equal(t, stat.ValueSet, yx.Event.Kind)
	require.Contains(t, yx.Event.Members, yx.Event.Location)
	require.NotContains(t, yx.Event.Members, "b")
	_, _, err = Screen(stat.Tabulate(p, q), Params{})
	require.ErrorIs(t, err, ErrNoFloor)
}

func TestRealScreenLaplace(t *testing.T) {
	// Laplace(1) at 0 and at 1: the loss is ±1 outside [0, 1].
	r := rand.New(rand.NewPCG(3, 4))
	lap := func(mu float64) float64 {
		e := r.ExpFloat64()
		if r.Uint64()&1 == 0 {
			e = -e
		}
		return mu + e
	}
	xs, ys := make([]float64, 200000), make([]float64, 200000)
	for i := range xs {
		xs[i], ys[i] = lap(1), lap(0)
	}
	pooled := append(slices.Clone(xs), ys...)
	slices.Sort(pooled)
	d, err := stat.DesignReal(pooled, len(xs))
	require.NoError(t, err)
	s := &stat.Continuous{P: d.New(), Q: d.New(), Design: d}
	for i := range xs {
		s.P.Add(xs[i])
		s.Q.Add(ys[i])
	}
	xy, yx, err := Screen(s, Params{Region: [2]float64{-3, 4}, FloorCount: 10})
	require.NoError(t, err)
	require.InDelta(t, 1, xy.Loss, 0.1)
	require.InDelta(t, 1, yx.Loss, 0.1)
	// The events lie in the flat parts and are wide.
	require.Greater(t, xy.Event.Lo, 0.5)
	require.Greater(t, xy.Event.Hi-xy.Event.Lo, 1.0)
	require.Less(t, yx.Event.Hi, 0.5)
	require.True(t, xy.Event.Contains((xy.Event.Lo+xy.Event.Hi)/2))
	require.False(t, xy.Event.Contains(xy.Event.Hi+1))
	require.Len(t, xy.Curve.T, len(xy.Curve.Loss))
	for i := range xy.Curve.Loss {
		require.Equal(t, -xy.Curve.Loss[i], yx.Curve.Loss[i])
	}
	_, _, err = Screen(s, Params{Region: [2]float64{1e6, 2e6}, FloorCount: 10})
	require.ErrorContains(t, err, "no output in the region C")
	// The default region is the pilot's central 99.8%.
	xy, _, err = Screen(s, Params{RegionTail: 0.001, FloorCount: 10})
	require.NoError(t, err)
	lo, hi := d.PilotRange(0.001)
	require.GreaterOrEqual(t, xy.Curve.T[0], lo)
	require.LessOrEqual(t, xy.Curve.T[len(xy.Curve.T)-1], hi)
}
