package sampler

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/density"
)

var grid = density.Grid{Lo: -6, Step: 12.0 / 4095, Points: 4096}

func gauss(r *rand.Rand) float64 { return r.NormFloat64() }

// The statistic depends on the seed and the stream only, never on the
// number of workers.
func TestBitIdenticalAcrossWorkers(t *testing.T) {
	const n = 5*BlockSize + 123
	ref, err := Continuous(Stream{Seed: 42, ID: 3, Workers: 1}, n, grid, gauss)
	require.NoError(t, err)
	require.Equal(t, int64(n), ref.N)
	for _, w := range []int{2, 3, 8} {
		got, err := Continuous(Stream{Seed: 42, ID: 3, Workers: w}, n, grid, gauss)
		require.NoError(t, err)
		require.Equal(t, ref.Weights, got.Weights, "workers=%d", w)
	}
	dref, err := Discrete(Stream{Seed: 42, ID: 4, Workers: 1}, n, func(r *rand.Rand) int { return r.IntN(50) })
	require.NoError(t, err)
	dgot, err := Discrete(Stream{Seed: 42, ID: 4, Workers: 4}, n, func(r *rand.Rand) int { return r.IntN(50) })
	require.NoError(t, err)
	require.Equal(t, dref.Counts, dgot.Counts)
	// Another stream or seed gives other draws.
	other, err := Continuous(Stream{Seed: 42, ID: 5, Workers: 2}, n, grid, gauss)
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
	b := density.NewBinned(grid)
	for _, x := range v {
		b.Add(x)
	}
	c, err := Continuous(Stream{Seed: 9, ID: 1, Workers: 3}, n, grid, gauss)
	require.NoError(t, err)
	require.Equal(t, b.Weights, c.Weights)
}

// A mechanism that fails reports the first failing draw, whatever the
// number of workers.
func TestFailuresAreReportedDeterministically(t *testing.T) {
	const bad = 3*BlockSize + 17
	for _, w := range []int{1, 2, 5} {
		_, err := Continuous(Stream{Seed: 1, ID: 2, Workers: w}, 8*BlockSize, grid, failingAt(Stream{Seed: 1, ID: 2}, bad))
		var be *BlockError
		require.ErrorAs(t, err, &be)
		require.Equal(t, int64(bad), be.Index, "workers=%d", w)
		var nf NonFiniteError
		require.ErrorAs(t, err, &nf)
		require.True(t, math.IsNaN(nf.Value))

		_, err = Continuous(Stream{Seed: 1, ID: 2, Workers: w}, 8*BlockSize, grid, panickingAt(Stream{Seed: 1, ID: 2}, bad))
		require.ErrorAs(t, err, &be)
		require.Equal(t, int64(bad), be.Index)
		require.Contains(t, err.Error(), "mechanism panicked: boom")
	}
	_, err := Discrete(Stream{Seed: 1, ID: 2}, 100, func(*rand.Rand) int { panic(errors.New("bad")) })
	require.ErrorContains(t, err, "draw 0: mechanism panicked: bad")
	_, err = Values(Stream{Seed: 1, ID: 2}, 100, func(*rand.Rand) float64 { return math.Inf(1) })
	require.ErrorContains(t, err, "draw 0: mechanism returned +Inf")
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
