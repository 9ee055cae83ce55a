// Package sampler draws n outputs of a mechanism on one dataset in parallel
// and streams them straight into mergeable sufficient statistics
// (internal/density), never storing the samples.
//
// The n draws are cut into blocks of BlockSize. Block b is drawn with its own
// generator, math/rand/v2's PCG seeded from (Seed, Stream) and b, so the
// values drawn do not depend on which goroutine drew them; the statistics of
// the blocks merge by integer addition, so the result is bit-identical for
// every GOMAXPROCS. Memory is one statistic per worker, independent of n.
package sampler

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/dptest/dptest/internal/density"
)

// BlockSize is the number of draws per independently seeded block.
const BlockSize = 1 << 13

// Stream identifies one sequence of draws: a seed and a stream number (for
// example one per dataset, side and stage of an audit). Distinct streams of
// one seed give independent draws.
type Stream struct {
	Seed, ID uint64
	// Workers is the number of goroutines; zero means GOMAXPROCS.
	Workers int
}

// splitmix64 is a bijective mixer (Steele et al., SplitMix), used to derive
// a block's PCG state from (seed, stream, block).
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// BlockRand returns the generator of block b of the stream.
func (s Stream) BlockRand(b int) *rand.Rand {
	hi := splitmix64(s.Seed ^ splitmix64(s.ID))
	lo := splitmix64(hi ^ uint64(b))
	return rand.New(rand.NewPCG(hi, lo))
}

// BlockError is a failure in one draw: the mechanism panicked, or returned a
// value the statistic cannot take (NaN, ±Inf). Index counts draws from 0 in
// the stream's order, so the same seed reproduces it.
type BlockError struct {
	Index int64
	Err   error
}

func (e *BlockError) Error() string { return fmt.Sprintf("draw %d: %v", e.Index, e.Err) }
func (e *BlockError) Unwrap() error { return e.Err }

// Draw runs n draws of the stream. For each block it calls fill(r, acc, k),
// which must make k draws with r into the worker's accumulator acc and
// return the in-block index and error of the first failed draw, if any.
// Accumulators come from newAcc, one per worker, and are merged into the
// first with merge. A panic in fill is recovered and reported as the error of
// the draw in progress (fill reports how far it got through *done).
//
// On failure Draw returns the error of the earliest failing block, which
// does not depend on the number of workers.
func Draw[A any](s Stream, n int, newAcc func() A, fill func(r *rand.Rand, acc A, k int, done *int) error, merge func(dst, src A)) (A, error) {
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	blocks := (n + BlockSize - 1) / BlockSize
	workers = max(1, min(workers, blocks))
	accs := make([]A, workers)
	var next atomic.Int64
	var firstBad atomic.Int64
	firstBad.Store(math.MaxInt64)
	var mu sync.Mutex
	var firstErr *BlockError
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		accs[w] = newAcc()
		wg.Add(1)
		go func(acc A) {
			defer wg.Done()
			for {
				b := int(next.Add(1) - 1)
				if b >= blocks || int64(b) > firstBad.Load() {
					return
				}
				k := min(BlockSize, n-b*BlockSize)
				done := 0
				err := runBlock(s.BlockRand(b), acc, k, &done, fill)
				if err != nil {
					be := &BlockError{Index: int64(b)*BlockSize + int64(done), Err: err}
					mu.Lock()
					if firstErr == nil || be.Index < firstErr.Index {
						firstErr = be
						firstBad.Store(int64(b))
					}
					mu.Unlock()
				}
			}
		}(accs[w])
	}
	wg.Wait()
	if firstErr != nil {
		var zero A
		return zero, firstErr
	}
	for _, a := range accs[1:] {
		merge(accs[0], a)
	}
	return accs[0], nil
}

func runBlock[A any](r *rand.Rand, acc A, k int, done *int, fill func(*rand.Rand, A, int, *int) error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("mechanism panicked: %v", v)
		}
	}()
	return fill(r, acc, k, done)
}

// NonFiniteError reports a real output that is NaN or ±Inf.
type NonFiniteError struct{ Value float64 }

func (e NonFiniteError) Error() string {
	return fmt.Sprintf("mechanism returned %v; real outputs must be finite", e.Value)
}

// Continuous draws n real outputs of f into a statistic binned on g.
func Continuous(s Stream, n int, g density.Grid, f func(r *rand.Rand) float64) (*density.Binned, error) {
	return Draw(s, n,
		func() *density.Binned { return density.NewBinned(g) },
		func(r *rand.Rand, b *density.Binned, k int, done *int) error {
			for i := 0; i < k; i++ {
				*done = i
				v := f(r)
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return NonFiniteError{v}
				}
				b.Add(v)
			}
			return nil
		},
		func(dst, src *density.Binned) { dst.Merge(src) })
}

// Discrete draws n outputs of f into a frequency table.
func Discrete[O comparable](s Stream, n int, f func(r *rand.Rand) O) (*density.Freq[O], error) {
	return Draw(s, n,
		density.NewFreq[O],
		func(r *rand.Rand, t *density.Freq[O], k int, done *int) error {
			for i := 0; i < k; i++ {
				*done = i
				t.Add(f(r))
			}
			return nil
		},
		func(dst, src *density.Freq[O]) { dst.Merge(src) })
}

// Values draws n real outputs of f and returns them in stream order, on one
// goroutine (for pilot samples, which are small and fix a grid).
func Values(s Stream, n int, f func(r *rand.Rand) float64) ([]float64, error) {
	out := make([]float64, 0, n)
	for b := 0; b*BlockSize < n; b++ {
		k := min(BlockSize, n-b*BlockSize)
		done := 0
		err := runBlock(s.BlockRand(b), &out, k, &done, func(r *rand.Rand, out *[]float64, k int, done *int) error {
			for i := 0; i < k; i++ {
				*done = i
				v := f(r)
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return NonFiniteError{v}
				}
				*out = append(*out, v)
			}
			return nil
		})
		if err != nil {
			return nil, &BlockError{Index: int64(b)*BlockSize + int64(done), Err: err}
		}
	}
	return out, nil
}
