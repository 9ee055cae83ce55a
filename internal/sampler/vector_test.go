package sampler

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/stat"
)

// gaussVector releases x + N(0, I₃) in its first coordinate and noise in the
// other two; its buffer is reused from call to call, as a mechanism may.
func gaussVector() func(r *rand.Rand, x float64) []float64 {
	return func(r *rand.Rand, x float64) []float64 {
		v := make([]float64, 3)
		v[0], v[1], v[2] = x+r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
		return v
	}
}

// A vector sample is the same, score and counts, whatever GOMAXPROCS: the
// learning samples are sorted before the score is fitted.
func TestVectorSampleBitIdenticalAcrossGOMAXPROCS(t *testing.T) {
	sample := func(procs int) *stat.Table {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		s, err := Vector(gaussVector()).Sample(7, 1, 0, 3*BlockSize, 2000)
		require.NoError(t, err)
		return s.(*stat.Table)
	}
	a, b := sample(1), sample(3)
	require.Equal(t, a.Cells, b.Cells)
	require.Equal(t, a.Partition.Score, b.Partition.Score)
	require.Equal(t, stat.ScoreCoordinate, a.Partition.Score.Kind, a.Partition.Score.String())
	require.Equal(t, []int{0}, a.Partition.Score.Coords)
}

// Counting fresh outputs in the groups of a sample's cells scores them with
// the sample's score: the counts of each side add up, and the side whose
// mean is higher fills the upper cells.
func TestVectorCountUsesTheSamplesScore(t *testing.T) {
	src := Vector(gaussVector())
	s, err := src.Sample(8, 2, 0, BlockSize, 2000)
	require.NoError(t, err)
	tab := s.(*stat.Table)
	g := stat.CellGrouping(tab)
	cx, cy, err := src.Count(9, 2, 0, 0, 20000, []stat.Grouping{g, g})
	require.NoError(t, err)
	var nx, ny, upperX, upperY int64
	half := tab.Partition.Cells() / 2
	for c := range cx[0] {
		nx += cx[0][c]
		ny += cy[0][c]
	}
	for cell, group := range g.OfCell {
		if cell >= half {
			upperX += cx[0][group]
			upperY += cy[0][group]
		}
	}
	require.Equal(t, int64(20000), nx)
	require.Equal(t, int64(20000), ny)
	require.Equal(t, cx[0], cx[1])
	require.Greater(t, upperX, 4*upperY, "the score must put X's shifted outputs above Y's")

	_, _, err = src.Count(9, 2, 0, 0, 100, []stat.Grouping{{Groups: 1, OfValue: map[any]int{}}})
	require.ErrorContains(t, err, "cannot count vector outputs")
}

// An output of another length, or with a NaN or an infinite coordinate,
// is an error that names the draw; an empty output too.
func TestVectorOutputsAreChecked(t *testing.T) {
	cases := map[string]struct {
		f    func(r *rand.Rand, x float64) []float64
		want string
	}{
		"length": {func(r *rand.Rand, x float64) []float64 {
			if r.IntN(1000) == 0 {
				return []float64{x}
			}
			return []float64{x, r.NormFloat64()}
		}, "length 1"},
		"nan": {func(r *rand.Rand, x float64) []float64 {
			if r.IntN(1000) == 0 {
				return []float64{x, math.NaN()}
			}
			return []float64{x, r.NormFloat64()}
		}, "coordinate 1 is NaN"},
		"inf": {func(r *rand.Rand, x float64) []float64 {
			if r.IntN(1000) == 0 {
				return []float64{math.Inf(-1), 0}
			}
			return []float64{x, r.NormFloat64()}
		}, "coordinate 0 is -Inf"},
		"empty": {func(*rand.Rand, float64) []float64 { return nil }, "empty output"},
	}
	for name, c := range cases {
		_, err := Vector(c.f).Sample(1, 1, 0, 20000, 2000)
		require.ErrorContains(t, err, c.want, name)
		var be *BlockError
		require.True(t, errors.As(err, &be), name)
		require.Contains(t, err.Error(), "draw ", name)
	}
}

// Replays compares whole vectors, even from a mechanism that reuses its
// buffer; a mechanism with a generator of its own does not replay.
func TestVectorReplays(t *testing.T) {
	buf := make([]float64, 2)
	ok, _, err := Vector(func(r *rand.Rand, x float64) []float64 {
		buf[0], buf[1] = x, r.NormFloat64()
		return buf
	}).Replays(1, 0, 32)
	require.NoError(t, err)
	require.True(t, ok)
	own := rand.New(rand.NewPCG(1, 2))
	ok, _, err = Vector(func(_ *rand.Rand, x float64) []float64 { return []float64{x, own.Float64()} }).Replays(1, 0, 32)
	require.NoError(t, err)
	require.False(t, ok)
}

// The counter counts the learning samples and the pilot of a vector
// sample: n + pilot + 2·LearnSize per side, and, in the first sample of a
// source, the one call that finds the outputs' length.
func TestCounterCountsVectorLearning(t *testing.T) {
	c := Counting(Vector(gaussVector()), nil, 0)
	_, err := c.Sample(1, 1, 0, 5000, 2000)
	require.NoError(t, err)
	require.Equal(t, int64(1+2*(5000+2000+2*LearnSize(2000, 3))), c.Calls())
	require.Equal(t, "vector", c.Kind())
}

// The learning sample holds at most LearnBudget coordinates and at least
// MinLearn rows.
func TestLearnSize(t *testing.T) {
	require.Equal(t, 12500, LearnSize(12500, 100))
	require.Equal(t, LearnBudget/1000, LearnSize(12500, 1000))
	require.Equal(t, MinLearn, LearnSize(12500, MaxDim))
	require.Equal(t, MinLearn, LearnSize(10, 3))
}

// Outputs longer than MaxDim are refused with what to do, before any
// learning sample is drawn.
func TestVectorTooLong(t *testing.T) {
	_, err := Vector(func(r *rand.Rand, x float64) []float64 { return make([]float64, MaxDim+1) }).Sample(1, 1, 0, 1000, 1000)
	require.ErrorContains(t, err, "more than a score can be learned from (at most 2097)")
}
