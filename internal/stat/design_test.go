package stat

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The design fixes atoms on the raw outputs, the heavy-tail transform from
// the whole pilot and the grid from the rest; a Real statistic on it counts
// atoms exactly by output value and bins the rest in estimation units.
func TestDesignRealAtomsTransformAndGrid(t *testing.T) {
	pilot := normalSample(11, 4000, 0, 1)
	for i := 0; i < 200; i++ {
		pilot = append(pilot, 2) // a clamp at 2: an atom
	}
	pilot = append(pilot, 1e9, -1e9) // heavy tails
	slices.Sort(pilot)
	d, err := DesignReal(pilot, 100000)
	require.NoError(t, err)
	require.Equal(t, []float64{2}, d.Atoms)
	require.Less(t, d.Grid.Hi(), 100.0, "the grid is in asinh units")

	r := d.New()
	for _, v := range []float64{2, 2, 0.5, -3, 1e12} {
		r.Add(v)
	}
	require.Equal(t, int64(2), r.Atoms.Counts[2])
	require.Equal(t, int64(3), r.Bins.N)
	require.Equal(t, int64(5), r.N())
	require.Equal(t, int64(0), r.Bins.Above, "1e12 is on the grid in asinh units")
}

func TestDesignRealRefusesDiscreteOutputs(t *testing.T) {
	var many []float64
	for i := 0; i < 2*(MaxAtoms+1); i++ {
		many = append(many, float64(i/2))
	}
	_, err := DesignReal(many, 1000)
	require.ErrorIs(t, err, ErrDiscrete)
	_, err = DesignReal([]float64{1, 1, 3, 3}, 1000)
	require.ErrorIs(t, err, ErrDiscrete, "only atoms")
}

func TestChecks(t *testing.T) {
	require.NoError(t, CheckFinite(1e308))
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		require.ErrorContains(t, CheckFinite(v), "real outputs must be finite")
	}
	require.NoError(t, CheckCountable("a"))
	require.True(t, errors.Is(CheckCountable(math.NaN()), ErrNotCountable))
	type rec struct{ A float64 }
	require.True(t, errors.Is(CheckCountable(rec{math.NaN()}), ErrNotCountable))
}

func TestFromRecordedSamples(t *testing.T) {
	xs, ys := normalSample(1, 5000, 0, 1), normalSample(2, 3000, 1, 1)
	c, err := FromValues(xs, ys)
	require.NoError(t, err)
	nx, ny := c.Sizes()
	require.Equal(t, [2]int64{5000, 3000}, [2]int64{nx, ny})
	_, err = FromValues(nil, ys)
	require.ErrorIs(t, err, ErrEmpty)
	_, err = FromValues([]float64{1, 1, 1}, ys)
	require.ErrorIs(t, err, ErrPointMassP)
	_, err = FromValues(xs, []float64{2, 2})
	require.ErrorIs(t, err, ErrPointMassQ)
	bad := slices.Clone(ys)
	bad[7] = math.Inf(1)
	_, err = FromValues(xs, bad)
	require.ErrorContains(t, err, "second sample, value 7: output +Inf")
	tab, err := FromOutputs([]int{1, 2, 2}, []int{2, 3})
	require.NoError(t, err)
	require.Len(t, tab.Cells, 3)
	_, err = FromOutputs([]float64{1, math.NaN()}, []float64{1})
	require.ErrorIs(t, err, ErrNotCountable)
}
