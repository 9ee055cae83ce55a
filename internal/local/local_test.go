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
	require.Equal(t, "a", xy.Location)
	require.InDelta(t, math.Log((2718.0/8719)/(1000.0/10000)), xy.Loss, 1e-12)
	// x′ → x: z (1 draw of 8719 under x, floored at 10 draws, against 1282
	// of 10⁴) has loss ln 111.8 = 4.72 with a standard error near 1, so its
	// penalised loss 4.7 − 3 beats c's 0.86 − 3·0.034: a value seen once on
	// one side and a thousand times on the other is evidence.
	require.Equal(t, "z", yx.Location)
	require.InDelta(t, math.Log((1282.0/10000)/(10.0/8719)), yx.Loss, 1e-12)
	require.Equal(t, 2, yx.Event.Groups)
	require.Equal(t, 0, yx.Event.OfValue["z"], "the peak is in the event")
	_, in := yx.Event.OfValue["b"]
	require.False(t, in)
	require.Equal(t, 1, yx.Event.Unlisted)
	_, _, err = Screen(stat.Tabulate(p, q), Params{})
	_, _, err = Screen(stat.Tabulate(p, q), Params{})
	require.ErrorIs(t, err, ErrNoFloor)
}

func TestCellScreenLaplace(t *testing.T) {
	// Laplace(1) at 0 and at 1: the loss is ±1 outside [0, 1].
	r := rand.New(rand.NewPCG(3, 4))
	lap := func(mu float64) float64 {
		e := r.ExpFloat64()
		if r.Uint64()&1 == 0 {
			e = -e
		}
		return mu + e
	}
	pilot := make([]float64, 0, 32768)
	for i := 0; i < 16384; i++ {
		pilot = append(pilot, lap(1), lap(0))
	}
	part := stat.PartitionOf(pilot)
	cx, cy := stat.NewPartitionCounts(part), stat.NewPartitionCounts(part)
	for i := 0; i < 200000; i++ {
		cx.Add(lap(1))
		cy.Add(lap(0))
	}
	s := stat.TabulateCells(cx, cy)
	xy, yx, err := Screen(s, Params{FloorCount: 10})
	require.NoError(t, err)
	// The screening loss is the largest of some 500 blocks' noisy losses
	// (each within about 0.07 of the truth): biased up by about three of
	// those standard errors. Confirmations count fresh outputs instead.
	require.InDelta(t, 1.1, xy.Loss, 0.2)
	require.InDelta(t, 1.1, yx.Loss, 0.2)
	// The events lie in the flat parts and hold many cells.
	require.Greater(t, xy.Location.(float64), 0.5)
	require.Less(t, yx.Location.(float64), 0.5)
	in := 0
	for c, g := range xy.Event.OfCell {
		if g == 0 {
			in++
			require.Greater(t, part.Point(c), 0.0, "cell %d", c)
		}
	}
	require.Greater(t, in, 20)
	require.Len(t, xy.Curve.T, len(xy.Curve.Loss))
	require.True(t, slices.IsSorted(xy.Curve.T))
	for i := range xy.Curve.Loss {
		require.Equal(t, -xy.Curve.Loss[i], yx.Curve.Loss[i])
	}
	_, _, err = Screen(s, Params{Region: [2]float64{1e6, 2e6}, FloorCount: 10})
	require.ErrorContains(t, err, "no output in the region C")
}

// Values whose losses all lie within two standard errors of the peak (one
// law on both sides, seven values seen about 1,400 times each) would make
// an event of every output seen: probability one on both sides, loss 0
// with no variance, and so a confirmation that claims to resolve any
// violation while it can show none. The event drops the allowance, else
// keeps the peak alone; here the peak is small and the others are not
// within a tenth of it, so the event is the peak's value alone, and never
// every value.
func TestEventIsNeverEveryOutput(t *testing.T) {
	p, q := stat.NewFreq[string](), stat.NewFreq[string]()
	counts := [][2]int{{1400, 1400}, {1410, 1395}, {1390, 1405}, {1402, 1398}, {1397, 1401}, {1405, 1396}, {1396, 1405}}
	for i, c := range counts {
		v := string(rune('a' + i))
		for j := 0; j < c[0]; j++ {
			p.Add(v)
		}
		for j := 0; j < c[1]; j++ {
			q.Add(v)
		}
	}
	xy, yx, err := Screen(stat.Tabulate(p, q), Params{FloorCount: 10})
	require.NoError(t, err)
	for _, e := range []Estimate{xy, yx} {
		require.Less(t, len(e.Event.OfValue), len(counts), "the event holds every value: %v", e.Event.OfValue)
		require.Contains(t, e.Event.OfValue, e.Location, "the peak is in the event")
	}
}
