package stat

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/numeric"
)

func TestPartitionCellsAndAtoms(t *testing.T) {
	v := normalSample(1, 10000, 0, 1)
	for i := 0; i < 3000; i++ {
		v = append(v, 0.25) // a clamp: an atom
	}
	slices.Sort(v)
	p := NewPartition(v, 100)
	require.InDelta(t, 100, p.Cells(), 25)
	c := p.Cell(0.25)
	require.True(t, p.Atom(c))
	lo, hi := p.Bounds(c)
	require.Equal(t, 0.25, lo)
	require.Equal(t, math.Nextafter(0.25, 1), hi)
	require.NotEqual(t, c, p.Cell(0.2500001))
	require.True(t, p.Open(0))
	require.True(t, p.Open(p.Cells()-1))
	require.Equal(t, 0, p.Cell(-1e300))
	require.Equal(t, p.Cells()-1, p.Cell(1e300))
	// Roughly equal pooled mass per cell, atom aside.
	counts := make([]int, p.Cells())
	for _, x := range v {
		counts[p.Cell(x)]++
	}
	for i, n := range counts {
		if i != c {
			require.Less(t, n, 3*len(v)/100, "cell %d", i)
		}
	}
}

// The cells follow the order of the values only: shifted, rescaled or
// split into far modes, the same sample is cut into the same cells.
func TestPartitionIsScaleFree(t *testing.T) {
	base := normalSample(2, 5000, 0, 1)
	slices.Sort(base)
	ref := NewPartition(base, 64)
	for _, f := range []func(float64) float64{
		func(x float64) float64 { return 1e9 + x }, // at 1e12 the float grid itself merges values
		func(x float64) float64 { return 1e-300 * x },
		func(x float64) float64 { return 1e300 * x },
		func(x float64) float64 {
			if x > 0 {
				return x + 1e6
			}
			return x
		},
	} {
		w := make([]float64, len(base))
		for i, x := range base {
			w[i] = f(x)
		}
		p := NewPartition(w, 64)
		require.Equal(t, ref.Cells(), p.Cells())
		for i, x := range base {
			require.Equal(t, ref.Cell(x), p.Cell(w[i]), "value %d", i)
		}
	}
}

// Integers with a support far wider than the pilot are cut into ranges.
func TestPartitionOfWideIntegers(t *testing.T) {
	r := newRand(3)
	v := make([]float64, 20000)
	for i := range v {
		v[i] = math.Round(1e5 * r.NormFloat64())
	}
	slices.Sort(v)
	p := NewPartition(v, 200)
	require.InDelta(t, 200, p.Cells(), 20)
	for c := 0; c < p.Cells(); c++ {
		require.False(t, p.Atom(c))
	}
}

// A value the pilot repeats three times is an atom with a cell of its own
// (a density repeats no value), unless more than MaxLightAtoms values
// repeat that lightly: then the output is rounded, and only values
// repeated a cell's worth of times are atoms.
func TestPartitionOfLightAtoms(t *testing.T) {
	v := normalSample(20, 25_000, 0, 1)
	v[0], v[1], v[2] = 0.25, 0.25, 0.25
	p := PartitionOf(slices.Clone(v))
	c := p.Cell(0.25)
	require.True(t, p.Atom(c))
	lo, hi := p.Bounds(c)
	require.Equal(t, 0.25, lo)
	require.Equal(t, math.Nextafter(0.25, 1), hi)

	r := normalSample(21, 25_000, 0, 1)
	for i := range MaxLightAtoms + 1 {
		for k := range LightAtomRepeats {
			r[i*LightAtomRepeats+k] = float64(i) / 10
		}
	}
	p = PartitionOf(slices.Clone(r))
	for i := range MaxLightAtoms + 1 {
		require.False(t, p.Atom(p.Cell(float64(i)/10)), "value %v", float64(i)/10)
	}
}

func TestEqualWidth(t *testing.T) {
	p := EqualWidth(0, 10, 5)
	require.Equal(t, 5, p.Cells())
	for _, c := range []struct {
		v    float64
		cell int
	}{{-100, 0}, {0, 0}, {1.99, 0}, {2, 1}, {5, 2}, {7.99, 3}, {8, 4}, {10, 4}, {1e9, 4}} {
		require.Equal(t, c.cell, p.Cell(c.v), "v=%v", c.v)
	}
	require.True(t, p.Open(0))
	require.True(t, p.Open(4))
	require.False(t, p.Atom(2))
	require.Equal(t, 1, EqualWidth(3, 3, 100).Cells(), "one value: one cell")
	require.Equal(t, 1, EqualWidth(0, 1, 1).Cells())
	require.Equal(t, 1, EqualWidth(0, math.Inf(1), 10).Cells())
}

// MMDSums keeps h in fixed point: its mean and unbiased variance match
// the direct ones to 10⁻⁹, whatever the order of merging.
func TestMMDSums(t *testing.T) {
	hs := []float64{0.5, -1.25, 2, 0.1, -0.3, 1.7, 0}
	var all, a, b MMDSums
	for i, h := range hs {
		all.Add(h)
		if i%2 == 0 {
			a.Add(h)
		} else {
			b.Add(h)
		}
	}
	b.Merge(a)
	require.Equal(t, all, b)
	mean, v := 0.0, 0.0
	for _, h := range hs {
		mean += h / float64(len(hs))
	}
	for _, h := range hs {
		v += (h - mean) * (h - mean) / float64(len(hs)-1)
	}
	require.InDelta(t, mean, all.Mean(), 1e-9)
	require.InDelta(t, v, all.Variance(), 1e-9)
	// Quadruples of an accumulator: each two pairs make one h.
	acc := NewMMDAcc(IndicatorKernel[int])()
	for _, p := range []Both[int]{{1, 2}, {1, 1}, {3, 3}, {4, 3}, {9, 9}} {
		acc.Add(p)
	}
	// (1,1,2,1): 1 − 0 + 0 = 1; (3,4,3,3): 0 − 2 + 1 = −1; the fifth is left over.
	require.EqualValues(t, 2, acc.Sums.M)
	require.InDelta(t, 0, acc.Sums.Mean(), 1e-12)
	require.InDelta(t, 1, GaussianKernel(2)(3, 3), 0)
	require.InDelta(t, math.Exp(-0.5), GaussianKernel(2)(1, 3), 1e-15)
}

func TestRepeatsMany(t *testing.T) {
	var grid, few, density []float64
	for i := 0; i < 2000; i++ {
		grid = append(grid, float64(i%500)) // 500 values, 4 times each
		few = append(few, float64(i%30))    // 30 values
		density = append(density, float64(i)*1.000001)
	}
	numeric.SortFloats(grid)
	numeric.SortFloats(few)
	require.True(t, RepeatsMany(grid))
	require.False(t, RepeatsMany(few), "at most MaxLightAtoms repeated values have cells of their own")
	require.False(t, RepeatsMany(density))
}
