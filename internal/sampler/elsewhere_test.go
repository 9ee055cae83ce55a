package sampler

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/stat"
)

// bundles is an Executor that makes a task's blocks here, in bundles of
// one or two blocks, each result encoded, merged in a shuffled order: what
// a distributed runner does, without one.
type bundles[D any, O comparable] struct {
	f     func(*rand.Rand, D) O
	tasks int
	order *rand.Rand
}

func (b *bundles[D, O]) Execute(task []byte, first, last int) ([]byte, error) {
	b.tasks++
	var results [][]byte
	for lo := first; lo < last; lo += 2 {
		r, err := RunTask(task, b.f, lo, min(lo+2, last))
		if err != nil {
			return nil, err
		}
		results = append(results, r)
	}
	b.order.Shuffle(len(results), func(i, j int) { results[i], results[j] = results[j], results[i] })
	merged := EmptyResult()
	for _, r := range results {
		var err error
		if merged, err = MergeResults[O](task, merged, r); err != nil {
			return nil, err
		}
	}
	return merged, nil
}

func elsewhere[D any, O comparable](t *testing.T, src Source[D], f func(*rand.Rand, D) O) (*Counter[D], *bundles[D, O]) {
	ex := &bundles[D, O]{f: f, order: rand.New(rand.NewPCG(1, 2))}
	shipped, err := DrawnElsewhere(src, Elsewhere{Executor: ex})
	require.NoError(t, err)
	return Counting(shipped, nil, 0), ex
}

// Draws made elsewhere give the very statistics of draws made here, and
// count the same calls: real outputs (a density, a grid), discrete ones,
// and group counts of each.
func TestDrawsElsewhereAreBitIdentical(t *testing.T) {
	const n, pilot = 5*BlockSize + 77, 2048
	gauss := func(r *rand.Rand, x float64) float64 { return x + r.NormFloat64() }
	grid := func(r *rand.Rand, x float64) float64 { return math.Round(300*r.NormFloat64()) + x }
	for name, f := range map[string]func(*rand.Rand, float64) float64{"density": gauss, "grid": grid} {
		here := Counting(Real(f), nil, 0)
		there, ex := elsewhere(t, Real(f), f)
		want, err := here.Sample(9, 0, 1, n, pilot)
		require.NoError(t, err)
		got, err := there.Sample(9, 0, 1, n, pilot)
		require.NoError(t, err)
		require.Equal(t, canonical(want), canonical(got), name)
		require.Equal(t, here.Calls(), there.Calls(), name)
		require.Equal(t, 2, ex.tasks, "%s: X's and Y's counts travel", name)

		g := stat.CellGrouping(want.(*stat.Table))
		wx, wy, err := here.Count(9, 0, 1, 2*BlockSize, n, []stat.Grouping{g, g})
		require.NoError(t, err)
		gx, gy, err := there.Count(9, 0, 1, 2*BlockSize, n, []stat.Grouping{g, g})
		require.NoError(t, err)
		require.Equal(t, [2][][]int64{wx, wy}, [2][][]int64{gx, gy}, name)
		require.Equal(t, here.Calls(), there.Calls(), name)
	}

	type label struct{ A, B int }
	coins := func(r *rand.Rand, x int) label { return label{r.IntN(3), x * r.IntN(2)} }
	here := Counting(Discrete(coins), nil, 0)
	there, ex := elsewhere(t, Discrete(coins), coins)
	want, err := here.Sample(4, 0, 1, n, 0)
	require.NoError(t, err)
	got, err := there.Sample(4, 0, 1, n, 0)
	require.NoError(t, err)
	require.Equal(t, canonical(want), canonical(got))
	g := stat.CellGrouping(want.(*stat.Table)).WithBuckets(4)
	wx, wy, err := here.Count(4, 0, 1, 0, n, []stat.Grouping{g})
	require.NoError(t, err)
	gx, gy, err := there.Count(4, 0, 1, 0, n, []stat.Grouping{g})
	require.NoError(t, err)
	require.Equal(t, [2][][]int64{wx, wy}, [2][][]int64{gx, gy})
	require.Equal(t, here.Calls(), there.Calls())
	require.Equal(t, 4, ex.tasks, "the sample's and the count's draws travel")
}

// canonical orders the cells of equal counts in a sample's tables by
// value: the order map iteration gave them, which no sum depends on.
func canonical(s stat.Sample) stat.Sample {
	t, ok := s.(*stat.Table)
	if !ok || t == nil {
		return s
	}
	slices.SortStableFunc(t.Cells, func(a, b stat.Cell) int {
		return cmp.Or(cmp.Compare(a.P, b.P), cmp.Compare(a.Q, b.Q), strings.Compare(fmt.Sprint(a.Value), fmt.Sprint(b.Value)))
	})
	for _, sub := range append([]*stat.Table{t.Values, t.RunsApart}, t.Alternatives...) {
		canonical(sub)
	}
	return t
}

// A mechanism that fails elsewhere fails with the draw a run here names.
func TestFailuresElsewhereNameTheDraw(t *testing.T) {
	const bad = 3*BlockSize + 5
	f := func(r *rand.Rand, x int) int {
		if x == 1 && r.IntN(bad*4) == 0 {
			panic("rare")
		}
		return r.IntN(2)
	}
	_, errHere := Discrete(f).Sample(2, 0, 1, 8*BlockSize, 0)
	there, _ := elsewhere(t, Discrete(f), f)
	_, errThere := there.Sample(2, 0, 1, 8*BlockSize, 0)
	var here, there1 *BlockError
	require.ErrorAs(t, errHere, &here)
	require.ErrorAs(t, errThere, &there1)
	require.Equal(t, here.Index, there1.Index)
	require.Equal(t, here.Err.Error(), there1.Err.Error())
	var de *DrawError
	require.ErrorAs(t, errThere, &de)
	require.Equal(t, "Y", de.Dataset)

	nan := func(r *rand.Rand, x int) float64 {
		if r.IntN(bad) == 0 {
			return math.NaN()
		}
		return 0
	}
	there2, _ := elsewhere(t, Discrete(nan), nan)
	_, err := there2.Sample(2, 0, 1, 8*BlockSize, 0)
	require.ErrorIs(t, err, stat.ErrNotCountable)
}

// What cannot travel is an error, not a draw made quietly here.
func TestWhatCannotTravelIsAnError(t *testing.T) {
	_, err := DrawnElsewhere(Vector(func(r *rand.Rand, x int) []float64 { return []float64{r.Float64()} }),
		Elsewhere{Executor: &bundles[int, float64]{}})
	require.Error(t, err)
	_, err = DrawnElsewhere(Real(func(r *rand.Rand, x int) float64 { return 0 }), Elsewhere{})
	require.Error(t, err)

	type hidden struct{ v int }
	f := func(r *rand.Rand, x hidden) int { return r.IntN(2) + x.v }
	there, _ := elsewhere(t, Discrete(f), f)
	_, err = there.Sample(1, hidden{0}, hidden{1}, 4*BlockSize, 0)
	require.Error(t, err, "a dataset gob cannot encode")
	require.False(t, errors.Is(err, ErrStopped))
}
