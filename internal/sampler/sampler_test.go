package sampler

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/stat"
)

var grid = stat.Grid{Lo: -6, Step: 12.0 / 4095, Points: 4096}

func gauss(r *rand.Rand) float64 { return r.NormFloat64() }

func newBinned() *stat.Binned { return stat.NewBinned(grid) }

// Continuous draws n real outputs binned on the grid.
func Continuous(s Stream, n int, f func(*rand.Rand) float64) (*stat.Binned, error) {
	return Draw(s, n, f, stat.CheckFinite, newBinned)
}

// table draws n outputs into a frequency table.
func table[O comparable](s Stream, n int, f func(*rand.Rand) O) (*stat.Freq[O], error) {
	return Draw(s, n, f, stat.CheckCountable[O], stat.NewFreq[O])
}

// Values draws n outputs in the stream's order.
func Values(s Stream, n int, f func(*rand.Rand) float64) ([]float64, error) {
	s.Workers = 1
	v, err := Draw(s, n, f, stat.CheckFinite, func() *stat.Values { return &stat.Values{} })
	if err != nil {
		return nil, err
	}
	return v.V, nil
}

// The statistic depends on the seed and the stream only, never on the
// number of workers.
func TestBitIdenticalAcrossWorkers(t *testing.T) {
	const n = 5*BlockSize + 123
	ref, err := Continuous(Stream{Seed: 42, ID: 3, Workers: 1}, n, gauss)
	require.NoError(t, err)
	require.Equal(t, int64(n), ref.N)
	for _, w := range []int{2, 3, 8} {
		got, err := Continuous(Stream{Seed: 42, ID: 3, Workers: w}, n, gauss)
		require.NoError(t, err)
		require.Equal(t, ref.Weights, got.Weights, "workers=%d", w)
	}
	dref, err := table(Stream{Seed: 42, ID: 4, Workers: 1}, n, func(r *rand.Rand) int { return r.IntN(50) })
	require.NoError(t, err)
	dgot, err := table(Stream{Seed: 42, ID: 4, Workers: 4}, n, func(r *rand.Rand) int { return r.IntN(50) })
	require.NoError(t, err)
	require.Equal(t, dref.Counts, dgot.Counts)
	// Another stream or seed gives other draws.
	other, err := Continuous(Stream{Seed: 42, ID: 5, Workers: 2}, n, gauss)
	require.NoError(t, err)
	require.NotEqual(t, ref.Weights, other.Weights)
}

func TestValuesAreTheStreamInOrder(t *testing.T) {
	const n = 2*BlockSize + 10
	v, err := Values(Stream{Seed: 9, ID: 1}, n, gauss)
	require.NoError(t, err)
	require.Len(t, v, n)
	// Block 1 starts with the first draw of its own generator.
	require.Equal(t, Stream{Seed: 9, ID: 1}.BlockRand(1).NormFloat64(), v[BlockSize])
	b := newBinned()
	for _, x := range v {
		b.Add(x)
	}
	c, err := Continuous(Stream{Seed: 9, ID: 1, Workers: 3}, n, gauss)
	require.NoError(t, err)
	require.Equal(t, b.Weights, c.Weights)
}

// A mechanism that fails reports the first failing draw, whatever the
// number of workers.
func TestFailuresAreReportedDeterministically(t *testing.T) {
	const bad = 3*BlockSize + 17
	for _, w := range []int{1, 2, 5} {
		_, err := Continuous(Stream{Seed: 1, ID: 2, Workers: w}, 8*BlockSize, failingAt(Stream{Seed: 1, ID: 2}, bad))
		var be *BlockError
		require.ErrorAs(t, err, &be)
		require.Equal(t, int64(bad), be.Index, "workers=%d", w)
		require.ErrorContains(t, err, "output NaN: real outputs must be finite")

		_, err = Continuous(Stream{Seed: 1, ID: 2, Workers: w}, 8*BlockSize, panickingAt(Stream{Seed: 1, ID: 2}, bad))
		require.ErrorAs(t, err, &be)
		require.Equal(t, int64(bad), be.Index)
		require.Contains(t, err.Error(), "mechanism panicked: boom")
	}
	_, err := table(Stream{Seed: 1, ID: 2}, 100, func(*rand.Rand) int { panic(errors.New("bad")) })
	require.ErrorContains(t, err, "draw 0: mechanism panicked: bad")
	_, err = Values(Stream{Seed: 1, ID: 2}, 100, func(*rand.Rand) float64 { return math.Inf(1) })
	require.ErrorContains(t, err, "draw 0: output +Inf: real outputs must be finite")
}

// failingAt returns a mechanism that returns NaN at draw index bad of the
// stream s (recognising the block by its generator's first output) and a
// normal draw elsewhere.
func failingAt(s Stream, bad int) func(*rand.Rand) float64 {
	return misbehaveAt(s, bad, func() float64 { return math.NaN() })
}

func panickingAt(s Stream, bad int) func(*rand.Rand) float64 {
	return misbehaveAt(s, bad, func() float64 { panic("boom") })
}

// misbehaveAt also misbehaves on every draw of block 6, so that the earliest
// failure is not the only one.
func misbehaveAt(s Stream, bad int, act func() float64) func(*rand.Rand) float64 {
	block, pos := bad/BlockSize, bad%BlockSize
	marker := s.BlockRand(block).Uint64()
	late := s.BlockRand(6).Uint64()
	type state struct {
		first uint64
		k     int
	}
	seen := make(map[*rand.Rand]*state)
	var mu sync.Mutex
	return func(r *rand.Rand) float64 {
		mu.Lock()
		st, ok := seen[r]
		if !ok {
			// Each block has a fresh generator; its first output tells
			// which block it is.
			st = &state{first: r.Uint64()}
			seen[r] = st
		}
		k := st.k
		st.k++
		mu.Unlock()
		if st.first == marker && k == pos || st.first == late {
			return act()
		}
		return r.NormFloat64()
	}
}

// A source draws the pilot and both sides on their own streams, falls back
// to a frequency table when real outputs repeat, and counts events; the
// counter sees every call.
func TestSources(t *testing.T) {
	shift := func(r *rand.Rand, x float64) float64 { return x + r.NormFloat64() }
	src := Counting(Real(shift), nil, 0)
	s, err := src.Sample(5, 0, 1, 20000, 2048)
	require.NoError(t, err)
	c, ok := s.(*stat.Table)
	require.True(t, ok)
	require.NotNil(t, c.Partition)
	require.Equal(t, int64(20000), c.NP)
	require.Equal(t, int64(2*20000+2*2048), src.Calls())
	again, err := Real(shift).Sample(5, 0, 1, 20000, 2048)
	require.NoError(t, err)
	require.Equal(t, c.Cells, again.(*stat.Table).Cells, "a seed replays a sample")

	coin := func(r *rand.Rand, x float64) float64 { return float64(r.IntN(2)) + x }
	s, err = Real(coin).Sample(5, 0, 1, 5000, 1024)
	require.NoError(t, err)
	tab, ok := s.(*stat.Table)
	require.True(t, ok)
	require.Len(t, tab.Cells, 3, "three atoms, each a cell")

	cx, cy, err := Real(coin).Count(5, 0, 1, 0, 5000, []stat.Grouping{{Groups: 2, OfValue: map[any]int{0.0: 0}, Unlisted: 1}})
	require.NoError(t, err)
	require.Equal(t, int64(0), cy[0][0])
	require.InDelta(t, 2500, float64(cx[0][0]), 200)

	bad := Discrete(func(r *rand.Rand, x int) float64 { return math.NaN() })
	_, err = bad.Sample(1, 0, 1, 10, 0)
	var de *DrawError
	require.ErrorAs(t, err, &de)
	require.Equal(t, "X", de.Dataset)
	require.ErrorIs(t, err, stat.ErrNotCountable)
}

// A mechanism that changes its input is caught, and the caller's dataset
// is left as it was; one that sorts in place too.
func TestMutatingMechanismsAreCaught(t *testing.T) {
	zero := Real(func(r *rand.Rand, x []float64) float64 {
		v := x[0] + r.NormFloat64()
		x[0] = 0
		return v
	})
	x, y := []float64{1, 2}, []float64{0, 2}
	_, err := zero.Sample(1, x, y, 5000, 1024)
	require.ErrorIs(t, err, ErrMutatedInput)
	require.ErrorContains(t, err, "on X: the mechanism changed the dataset it was given")
	require.Equal(t, []float64{1, 2}, x, "the caller's dataset is untouched")
	sorter := Discrete(func(r *rand.Rand, x []int) int {
		slices.Sort(x)
		return x[0] + r.IntN(2)
	})
	_, _, err = sorter.Count(1, []int{3, 1}, []int{1, 1}, 0, 1000, []stat.Grouping{{Groups: 2, OfValue: map[any]int{1: 0}, Unlisted: 1}})
	require.ErrorIs(t, err, ErrMutatedInput)
	// A dataset holding NaN equals itself.
	ok := Real(func(r *rand.Rand, x []float64) float64 { return r.NormFloat64() })
	_, err = ok.Sample(1, []float64{math.NaN()}, []float64{1}, 2000, 1024)
	require.NoError(t, err)
}

// Replays tells a mechanism drawing only from r from one with its own
// source of randomness.
func TestReplays(t *testing.T) {
	slow := func(r *rand.Rand, x float64) float64 {
		for start := time.Now(); time.Since(start) < 50*time.Microsecond; {
		}
		return x + r.NormFloat64()
	}
	same, took, err := Real(slow).Replays(3, 0, 100)
	require.NoError(t, err)
	require.True(t, same)
	require.GreaterOrEqual(t, took, 100*50*time.Microsecond, "the second run's 100 calls")
	own := rand.New(rand.NewPCG(1, 1))
	var mu sync.Mutex
	same, _, err = Discrete(func(r *rand.Rand, x float64) int {
		mu.Lock()
		defer mu.Unlock()
		return own.IntN(1000)
	}).Replays(3, 0, 100)
	require.NoError(t, err)
	require.False(t, same)
}

// Same tells a mechanism whose outputs never vary on a pair (on either
// dataset) from one whose outputs vary on one of them, real, discrete or
// vector; a failing draw is an error.
func TestSame(t *testing.T) {
	v, same, err := Real(func(*rand.Rand, float64) float64 { return 3 }).Same(1, 0, 1, 100)
	require.NoError(t, err)
	require.True(t, same)
	require.Equal(t, "3", v)
	_, same, err = Discrete(func(r *rand.Rand, x float64) int { return int(x) * r.IntN(2) }).Same(1, 0, 1, 100)
	require.NoError(t, err)
	require.False(t, same, "Y's outputs vary")
	_, same, err = Discrete(func(_ *rand.Rand, x float64) int { return int(x) }).Same(1, 0, 1, 100)
	require.NoError(t, err)
	require.False(t, same, "X and Y differ")
	v, same, err = Vector(func(*rand.Rand, float64) []float64 { return []float64{3, 4} }).Same(1, 0, 1, 100)
	require.NoError(t, err)
	require.True(t, same)
	require.Equal(t, "[3 4]", v)
	_, _, err = Real(func(*rand.Rand, float64) float64 { return math.NaN() }).Same(1, 0, 1, 100)
	require.Error(t, err)
}

func TestDeepCopyAndCompare(t *testing.T) {
	type rec struct {
		A      []float64
		M      map[string]int
		P      *int
		hidden int
	}
	one := 1
	v := []rec{{A: []float64{1, math.NaN()}, M: map[string]int{"a": 1}, P: &one, hidden: 7}}
	c := deepCopy(v)
	require.True(t, sameValue(reflect.ValueOf(v), reflect.ValueOf(c)))
	c[0].A[0] = 2
	*c[0].P = 5
	c[0].M["a"] = 3
	require.Equal(t, 1.0, v[0].A[0])
	require.Equal(t, 1, one)
	require.Equal(t, 1, v[0].M["a"])
	require.False(t, sameValue(reflect.ValueOf(v), reflect.ValueOf(c)))
	require.Equal(t, 7, c[0].hidden)
}

// A dataset whose pointers form a cycle (a ring of nodes: graph data) is
// copied once per node, the copy a ring too, and compared without
// recursing forever; a change to one of its nodes is seen.
func TestDeepCopyOfACycle(t *testing.T) {
	type node struct {
		W    float64
		Next *node
	}
	a := &node{W: 1}
	a.Next = &node{W: 2, Next: &node{W: 3, Next: a}}
	c := deepCopy(a)
	require.NotSame(t, a, c)
	require.Same(t, c, c.Next.Next.Next, "the copy is a ring")
	require.True(t, sameValue(reflect.ValueOf(a), reflect.ValueOf(c)))
	c.Next.Next.W = 4
	require.Equal(t, 3.0, a.Next.Next.W)
	require.False(t, sameValue(reflect.ValueOf(a), reflect.ValueOf(c)))
	shared := &node{W: 5}
	pair := [2]*node{shared, shared}
	cp := deepCopy(pair)
	require.Same(t, cp[0], cp[1], "shared pointers stay shared")
}

// The counter counts the calls made, not those planned: a draw ended by
// a failing call counts the calls up to it, that one included (a stopped
// one: TestStop).
func TestCounterCountsTheCallsMade(t *testing.T) {
	var n atomic.Int64
	failing := Counting(Real(func(r *rand.Rand, x float64) float64 {
		if n.Add(1) == 5000 {
			panic("broken")
		}
		return x + r.NormFloat64()
	}), nil, 1)
	_, _, err := failing.Count(1, 0, 1, 0, 1_000_000, []stat.Grouping{{Groups: 1, OfValue: map[any]int{}, Unlisted: 0}})
	require.Error(t, err)
	require.Equal(t, int64(5000), failing.Calls())

	// The MMD tester's draws call the mechanism on both datasets.
	var both atomic.Int64
	mmd := Counting(Real(func(r *rand.Rand, x float64) float64 { both.Add(1); return x + r.NormFloat64() }), nil, 1)
	_, err = mmd.MMD(1, 0, 1, 0, 4096, 1)
	require.NoError(t, err)
	require.Equal(t, int64(8192), both.Load())
	require.Equal(t, both.Load(), mmd.Calls())
}

// Closing Stop ends the draws within stopEvery draws per worker, and the
// counter counts the calls made before it, not those planned.
func TestStop(t *testing.T) {
	stop := make(chan struct{})
	var calls atomic.Int64
	slow := Counting(Real(func(r *rand.Rand, x float64) float64 {
		if calls.Add(1) == 3000 {
			close(stop)
		}
		return x + r.NormFloat64()
	}), stop, 0)
	_, err := slow.Sample(1, 0, 1, 1_000_000, 1024)
	require.ErrorIs(t, err, ErrStopped)
	require.Less(t, calls.Load(), int64(3000+4*stopEvery))
	require.Equal(t, calls.Load(), slow.Calls())
}

// Real outputs that turn out discrete are counted in a table and still
// must be finite.
func TestRealTurnedDiscreteStaysFinite(t *testing.T) {
	var calls atomic.Int64
	src := Real(func(r *rand.Rand, x float64) float64 {
		if calls.Add(1) > 10_000 {
			return math.Inf(1)
		}
		return float64(r.IntN(3))
	})
	_, err := src.Sample(1, 0, 1, 50_000, 1024)
	require.ErrorContains(t, err, "output +Inf: real outputs must be finite")
}

// Counts of the draws from a block boundary on, added to the counts of
// the draws before it, are the counts of all of them, for any number of
// workers; and the Counter counts only the draws made.
func TestCountFromContinuesTheStreams(t *testing.T) {
	noise := func(r *rand.Rand, x float64) float64 { return math.Floor(r.NormFloat64()*3) + x }
	g := []stat.Grouping{{Groups: 3, OfValue: map[any]int{0.0: 0, 1.0: 1}, Unlisted: 2}}
	const n, from = 5*BlockSize + 77, 2 * BlockSize
	wx, wy, err := Counting(Discrete(noise), nil, 1).Count(7, 0, 1, 0, n, g)
	require.NoError(t, err)
	for _, workers := range []int{1, 3} {
		src := Counting(Discrete(noise), nil, workers)
		ax, ay, err := src.Count(7, 0, 1, 0, from, g)
		require.NoError(t, err)
		bx, by, err := src.Count(7, 0, 1, from, n, g)
		require.NoError(t, err)
		require.Equal(t, int64(2*n), src.Calls(), "each draw made once")
		for k := range wx[0] {
			require.Equal(t, wx[0][k], ax[0][k]+bx[0][k], "X, group %d, %d workers", k, workers)
			require.Equal(t, wy[0][k], ay[0][k]+by[0][k], "Y, group %d, %d workers", k, workers)
		}
	}
	require.Panics(t, func() { _, _, _ = Discrete(noise).Count(7, 0, 1, 100, 1000, g) }, "From off a block boundary")
}

// Real outputs whose pilot repeats many values (a grid) are counted value
// by value besides the cells, the same draws exactly; a density is not.
func TestGriddedRealOutputsAreCountedValueByValue(t *testing.T) {
	// X's outputs on the integers, Y's on the half-integers: each cell of
	// the partition holds both grids.
	grid := func(r *rand.Rand, x float64) float64 { return math.Round(300*r.NormFloat64()) + x }
	s, err := Real(grid).Sample(3, 0, 0.5, 20000, 2048)
	require.NoError(t, err)
	tab := s.(*stat.Table)
	require.True(t, tab.Gridded)
	require.NotNil(t, tab.Values)
	require.False(t, tab.InRanges())
	require.Equal(t, int64(20000), tab.Values.NP)
	require.Equal(t, int64(20000), tab.Values.NQ)
	for _, c := range tab.Values.Cells {
		require.Zero(t, c.P*c.Q, "value %v counted on both sides", c.Value)
	}
	var cells int64
	for _, c := range tab.Cells {
		cells += c.P
	}
	require.Equal(t, int64(20000), cells, "the cells count every output too")

	shift := func(r *rand.Rand, x float64) float64 { return x + r.NormFloat64() }
	s, err = Real(shift).Sample(3, 0, 0.5, 20000, 2048)
	require.NoError(t, err)
	require.False(t, s.(*stat.Table).Gridded)
	require.Nil(t, s.(*stat.Table).Values)
}

// A grid mixed with a density (half the outputs rounded, half not) repeats
// many values in its pilot but brings a new value with every unrounded
// draw: past MaxGridValues distinct values a side, the screening counts
// cells alone, so that memory does not grow with the draws.
func TestGriddedValuesStopPastMaxGridValues(t *testing.T) {
	mixed := func(r *rand.Rand, x float64) float64 {
		v := x + 10*r.NormFloat64()
		if r.IntN(2) == 0 {
			return math.Round(v)
		}
		return v
	}
	s, err := Real(mixed).Sample(4, 0, 0.5, 20000, 4096)
	require.NoError(t, err)
	require.True(t, s.(*stat.Table).Gridded, "a pilot repeating many values")
	s, err = Real(mixed).Sample(4, 0, 0.5, 3*MaxGridValues, 4096)
	require.NoError(t, err)
	tab := s.(*stat.Table)
	require.False(t, tab.Gridded)
	require.Nil(t, tab.Values)
	require.Equal(t, int64(3*MaxGridValues), tab.NP)
}
