// Package sampler draws a mechanism's outputs in parallel and streams them
// straight into mergeable sufficient statistics (package stat), never
// storing the samples: [Draw] is the one draw loop, and a [Source] turns a
// mechanism on a pair of datasets into the statistics every criterion
// consumes.
//
// The n draws are cut into blocks of BlockSize. Block b is drawn with its own
// generator, math/rand/v2's PCG seeded from (Seed, Stream) and b, so the
// values drawn do not depend on which goroutine drew them; the statistics of
// the blocks merge by integer addition, so the result is bit-identical for
// every GOMAXPROCS. Memory is one statistic per worker, independent of n.
package sampler

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
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
	// Stop, if not nil, ends the draws early when it is closed: Draw then
	// returns ErrStopped.
	Stop <-chan struct{}
	// From is the number of the stream's first draws to skip, a multiple
	// of BlockSize: Draw then makes draws From to n−1 of the stream, the
	// very draws a Draw of n from the start makes after its first From,
	// so that counts of the two parts add up to the whole.
	From int
	// Calls, if not nil, counts the mechanism calls the draws make: those
	// made before a stop, and a draw that failed, included; PerDraw calls
	// a draw (0 counts as 1; the MMD tester's draws call the mechanism on
	// both datasets).
	Calls   *atomic.Int64
	PerDraw int
	// Records, if not nil, serves the draws in place of the mechanism:
	// outputs recorded elsewhere (see [Records]).
	Records any
	// Elsewhere, if not nil and given the draw's dataset, makes the draws
	// on other machines when their statistic can travel (see [Elsewhere]).
	Elsewhere *Elsewhere
}

// ErrStopped reports draws ended early because the stream's Stop channel
// was closed (a deadline or a cancellation).
var ErrStopped = errors.New("draws stopped early")

// stopEvery is how many draws pass between two looks at Stop.
const stopEvery = 256

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

// Statistic is a mergeable accumulator of outputs of type O (see package
// stat): Add counts one output, Merge adds another accumulator of the same
// design.
type Statistic[O, S any] interface {
	Add(O)
	Merge(S)
}

// Draw makes n draws of the stream (or, with From, draws From to n−1), the
// draw function called with the generator of each block, passes every
// output through check (the only place outputs are checked), adds it to a
// statistic, and returns the merge of the statistics: one per worker, each
// from newStat. A panic in draw is recovered and reported as the error of
// the draw in progress.
//
// On failure Draw returns the *BlockError of the earliest failing draw,
// which does not depend on the number of workers.
func Draw[O any, S Statistic[O, S]](s Stream, n int, draw func(*rand.Rand) O, check func(O) error, newStat func() S) (S, error) {
	if s.Records != nil {
		return drawRecorded(s, n, check, newStat)
	}
	if s.Elsewhere != nil && s.Elsewhere.data != nil {
		if out, sent, err := drawElsewhere(s, n, newStat); sent || err != nil {
			return out, err
		}
	}
	workers := s.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if s.From%BlockSize != 0 || s.From < 0 || s.From > n {
		panic(fmt.Sprintf("sampler: Stream.From = %d is not a multiple of %d in [0, %d]", s.From, BlockSize, n))
	}
	blocks := (n + BlockSize - 1) / BlockSize
	workers = max(1, min(workers, blocks-s.From/BlockSize))
	accs := make([]S, workers)
	var next atomic.Int64
	next.Store(int64(s.From / BlockSize))
	var firstBad atomic.Int64
	firstBad.Store(math.MaxInt64)
	var mu sync.Mutex
	var firstErr *BlockError
	var wg sync.WaitGroup
	var stopped atomic.Bool
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			// Each worker allocates its own statistic, so that the counters
			// it writes on every draw never share a cache line with
			// another worker's (false sharing doubled the cost of binning).
			acc := newStat()
			accs[w] = acc
			for {
				b := int(next.Add(1) - 1)
				if b >= blocks || int64(b) > firstBad.Load() {
					return
				}
				k := min(BlockSize, n-b*BlockSize)
				done, err := runBlock(s.BlockRand(b), acc, k, draw, check, s.Stop)
				if s.Calls != nil {
					made := int64(done)
					if err != nil && err != ErrStopped {
						made++ // the draw that failed
					}
					s.Calls.Add(made * int64(max(s.PerDraw, 1)))
				}
				if err == ErrStopped {
					stopped.Store(true)
					return
				}
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
		}(w)
	}
	wg.Wait()
	if firstErr != nil {
		var zero S
		return zero, firstErr
	}
	if stopped.Load() {
		var zero S
		return zero, ErrStopped
	}
	for _, a := range accs[1:] {
		accs[0].Merge(a)
	}
	return accs[0], nil
}

// runBlock makes k draws into acc and returns how many succeeded before the
// first failure, if any.
func runBlock[O any, S Statistic[O, S]](r *rand.Rand, acc S, k int, draw func(*rand.Rand) O, check func(O) error, stop <-chan struct{}) (done int, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("mechanism panicked: %v", v)
		}
	}()
	for ; done < k; done++ {
		if stop != nil && done%stopEvery == 0 {
			select {
			case <-stop:
				return done, ErrStopped
			default:
			}
		}
		v := draw(r)
		if err := check(v); err != nil {
			return done, err
		}
		acc.Add(v)
	}
	return k, nil
}
