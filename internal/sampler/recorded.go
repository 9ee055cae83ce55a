package sampler

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/dptest/dptest/internal/stat"
)

// ErrRecordsExhausted reports a stream that asked for more recorded
// outputs than its share of the records holds.
var ErrRecordsExhausted = errors.New("sampler: the records hold too few outputs for this stage")

// Records are outputs recorded elsewhere, split once for an audit into
// the selection draws of each side and the draws of each of the two
// confirmation rounds. A source built on them ([RecordedReal],
// [RecordedDiscrete], [RecordedVectors]) calls no mechanism: every stream
// is served from the records.
//
// The streams of the seeds given as rounds read only their round's draws,
// from its first. Every other stream is a screening's, and reads a
// stretch of the selection draws of its side that no other stream of the
// run has read, in the order the streams ask. A run's screening
// starts again from the first selection draw once the run before it has
// confirmed (the runs share the selection draws, as they may: each
// confirmation is independent of its own run's selection). So no
// confirmation counts a draw that any screening saw.
type Records[O any] struct {
	selection [2][]O    // X's, Y's
	rounds    [2][2][]O // round, side
	roundOf   map[uint64]int

	mu        sync.Mutex
	next      [2]int // the next unread selection draw of each side
	served    map[streamKey]span
	confirmed bool // a round was served since the last screening
}

type streamKey struct{ seed, id uint64 }

// span is a stretch of one side's selection draws.
type span struct{ start, n int }

// NewRecords returns the records of selection draws sel (X's, Y's) and
// confirmation rounds (round, side); roundOf maps the seed of each
// confirmation stream to its round, 0 or 1.
func NewRecords[O any](sel [2][]O, rounds [2][2][]O, roundOf map[uint64]int) *Records[O] {
	return &Records[O]{selection: sel, rounds: rounds, roundOf: roundOf, served: make(map[streamKey]span)}
}

// sideOf is the side (0 for X, 1 for Y) a stream of a sample or a count
// draws on, and false for a replay check's stream. (A vector's learning
// streams share numbers with the joint and same-output streams, which
// records never serve: Source.MMD and Source.Same are not called on them.)
func sideOf(id uint64) (int, bool) {
	switch id {
	case streamPilotX, streamX, streamFitX, streamHoldX:
		return 0, true
	case streamPilotY, streamY, streamFitY, streamHoldY:
		return 1, true
	}
	return 0, false
}

// serve returns draws from to n−1 of stream id of seed.
func (r *Records[O]) serve(seed, id uint64, from, n int) ([]O, error) {
	side, ok := sideOf(id)
	if !ok {
		return nil, fmt.Errorf("sampler: recorded outputs cannot serve stream %d (a replay check needs a mechanism)", id)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if round, ok := r.roundOf[seed]; ok {
		rec := r.rounds[round][side]
		if n > len(rec) {
			return nil, fmt.Errorf("%w: confirmation round %d asked for %d, it holds %d", ErrRecordsExhausted, round, n, len(rec))
		}
		r.confirmed = true
		return rec[from:n], nil
	}
	if r.confirmed {
		// A new run's screening: it reads the selection draws afresh.
		r.next, r.confirmed = [2]int{}, false
		clear(r.served)
	}
	k := streamKey{seed, id}
	sp, ok := r.served[k]
	if !ok {
		sp = span{start: r.next[side], n: n}
		if sp.start+n > len(r.selection[side]) {
			return nil, fmt.Errorf("%w: the screening asked for %d more, %d are left of %d", ErrRecordsExhausted, n, len(r.selection[side])-sp.start, len(r.selection[side]))
		}
		r.served[k], r.next[side] = sp, sp.start+n
	}
	if n > sp.n {
		return nil, fmt.Errorf("%w: a screening stream of %d draws asked again for %d", ErrRecordsExhausted, sp.n, n)
	}
	return r.selection[side][sp.start+from : sp.start+n], nil
}

// drawRecorded is Draw on a stream that recorded outputs serve: draws
// From to n−1, each passed through check, in one statistic.
func drawRecorded[O any, S Statistic[O, S]](s Stream, n int, check func(O) error, newStat func() S) (S, error) {
	var zero S
	serve, ok := s.Records.(func(seed, id uint64, from, n int) ([]O, error))
	if !ok {
		return zero, fmt.Errorf("sampler: records of another output type (%T)", s.Records)
	}
	vs, err := serve(s.Seed, s.ID, s.From, n)
	if err != nil {
		return zero, err
	}
	acc := newStat()
	for i, v := range vs {
		if err := check(v); err != nil {
			return zero, &BlockError{Index: int64(s.From + i), Err: err}
		}
		acc.Add(v)
	}
	if s.Calls != nil {
		s.Calls.Add(int64(len(vs)) * int64(max(s.PerDraw, 1)))
	}
	return acc, nil
}

// RecordedReal is the source of real outputs recorded elsewhere: the
// statistics of [Real], every draw served from rec. The calls a
// [Counter] of it counts are the outputs read.
func RecordedReal[D any](rec *Records[float64]) Source[D] {
	return realSource[D]{streams: streams{records: rec.serve}}
}

// RecordedDiscrete is the source of discrete outputs recorded elsewhere:
// the statistics of [Discrete], every draw served from rec.
func RecordedDiscrete[D any, O comparable](rec *Records[O]) Source[D] {
	return discreteSource[D, O]{streams: streams{records: rec.serve}, check: stat.CheckCountable[O]}
}

// RecordedVectors is the source of vectors of dim coordinates recorded
// elsewhere: the statistics of [Vector], every draw served from rec.
func RecordedVectors[D any](rec *Records[[]float64], dim int) Source[D] {
	s := vectorSource[D]{streams: streams{records: rec.serve}, dim: new(atomic.Int64)}
	s.dim.Store(int64(dim))
	return s
}
