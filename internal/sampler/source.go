package sampler

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/dptest/dptest/internal/stat"
)

// Source draws the outputs of one mechanism on datasets of type D into
// statistics. Every method draws from streams of the given seed only, so
// distinct seeds give independent draws and a seed replays them.
type Source[D any] interface {
	// Sample draws n outputs on each of x and y into the table every
	// criterion consumes: for real outputs, first pilot outputs per side,
	// which fix a partition of the line into cells (stat.PartitionOf), then
	// the outputs counted per cell, the two open cells cut again at their
	// most extreme outputs (stat.RefineTails); for discrete outputs, per
	// value.
	Sample(seed uint64, x, y D, n, pilot int) (stat.Sample, error)
	// Count draws n outputs on each of x and y and counts them in the
	// groups of each grouping: cx[k][g] outputs on x fell in group g of
	// grouping k. With from > 0 (a multiple of BlockSize) it counts only
	// draws from to n−1 of the streams, so that adding the counts of a
	// Count of from draws gives those of n.
	Count(seed uint64, x, y D, from, n int, gs []stat.Grouping) (cx, cy [][]int64, err error)
	// Replays draws the first n outputs on x twice from one stream and
	// reports whether they agree: whether the mechanism draws only from
	// the generator it is given, so that a seed replays its outputs; and
	// how long the second n draws took, on one goroutine (the mechanism's
	// speed once warm).
	Replays(seed uint64, x D, n int) (bool, time.Duration, error)
	// Same draws n outputs on each of x and y, on one worker, and reports
	// whether all 2n were one and the same output, and that output as
	// text: a mechanism whose outputs do not vary on the pair.
	Same(seed uint64, x, y D, n int) (string, bool, error)
	// Outputs draws n outputs on each of x and y and
	// returns them in draw order: float64 for real outputs, the output
	// for discrete ones, []float64 for vectors. Reports draw them for
	// their pictures.
	Outputs(seed uint64, x, y D, n int) (xs, ys []any, err error)
	// MMD draws n outputs on each of x and y, the i-th draw of both sides
	// from one generator (with from > 0, a multiple of BlockSize, draws
	// from to n−1), and sums the MMD tester's h over each two consecutive
	// pairs of draws (stat.MMDSums): with the kernel
	// exp(−(a − b)²/(2w²)) for real outputs, 1{a = b} for discrete ones;
	// vectors are an error.
	MMD(seed uint64, x, y D, from, n int, w float64) (stat.MMDSums, error)
	// Kind is "real", "discrete" or "vector".
	Kind() string
	// withStreams returns the source drawing on streams that end early
	// when stop is closed, each on workers goroutines (0: GOMAXPROCS),
	// counting the mechanism calls they make in calls (nil: not counted).
	withStreams(stop <-chan struct{}, workers int, calls *atomic.Int64) Source[D]
}

// Stream numbers within one seed.
const (
	streamPilotX = iota + 1
	streamPilotY
	streamX
	streamY
	streamReplay
	streamJoint
	streamSameX
	streamSameY
)

// DrawError reports a failure of the mechanism while drawing on one of the
// two datasets of a pair.
type DrawError struct {
	Dataset string // "X" or "Y"
	Err     error  // a *BlockError: the draw's index and cause
}

func (e *DrawError) Error() string { return fmt.Sprintf("on %s: %v", e.Dataset, e.Err) }
func (e *DrawError) Unwrap() error { return e.Err }

// Real is the source of a mechanism with real outputs, which must be
// finite.
func Real[D any](f func(r *rand.Rand, x D) float64) Source[D] { return realSource[D]{f: f} }

// Discrete is the source of a mechanism with outputs of any comparable
// type, which must equal themselves (no NaN).
func Discrete[D any, O comparable](f func(r *rand.Rand, x D) O) Source[D] {
	return discreteSource[D, O]{f: f, check: stat.CheckCountable[O]}
}

type realSource[D any] struct {
	f func(*rand.Rand, D) float64
	streams
}

func (s realSource[D]) withStreams(stop <-chan struct{}, workers int, calls *atomic.Int64) Source[D] {
	s.streams = streams{stop, workers, calls, s.records, s.elsewhere}
	return s
}

func (realSource[D]) Kind() string { return "real" }

func (s realSource[D]) Sample(seed uint64, x, y D, n, pilot int) (stat.Sample, error) {
	return guarded(x, y, func(x, y D) (stat.Sample, error) { return s.sample(seed, x, y, n, pilot) })
}

func (s realSource[D]) sample(seed uint64, x, y D, n, pilot int) (stat.Sample, error) {
	pooled, err := s.pilot(seed, x, y, pilot)
	if err != nil {
		return nil, err
	}
	part := stat.PartitionOf(pooled) // sorts pooled
	if stat.RepeatsMany(pooled) {
		return s.gridded(seed, x, y, n, part)
	}
	newCounts := func() *stat.PartitionCounts { return stat.NewTailCounts(part, stat.TailKeep) }
	cx, cy, err := drawBoth(s.stream(seed, 0), x, y, n, s.f, stat.CheckFinite, newCounts)
	if err != nil {
		return nil, err
	}
	return stat.RefineTails(cx, cy), nil
}

// gridded draws the sample of real outputs on a grid (stat.RepeatsMany):
// counted in the partition's cells as any real output, and value by value
// (stat.Table.Values, Gridded), the same draws.
func (s realSource[D]) gridded(seed uint64, x, y D, n int, part *stat.Partition) (stat.Sample, error) {
	newCounts := func() *cellsAndValues {
		return &cellsAndValues{cells: stat.NewTailCounts(part, stat.TailKeep), values: stat.NewFreq[float64]()}
	}
	cx, cy, err := drawBoth(s.stream(seed, 0), x, y, n, s.f, stat.CheckFinite, newCounts)
	if err != nil {
		return nil, err
	}
	t := stat.RefineTails(cx.cells, cy.cells)
	if cx.values == nil || cy.values == nil {
		return t, nil // more distinct values than MaxGridValues: the cells alone
	}
	t.Values, t.Gridded = stat.Tabulate(cx.values, cy.values), true
	t.Values.Gridded = true
	return t, nil
}

// MaxGridValues is the most distinct values one side's screening of real
// outputs on a grid counts one by one; past it (a grid mixed with a
// density, whose values never repeat, or a screening far larger than the
// default) it counts them in cells alone, as real outputs without a grid,
// so that memory does not grow with the draws.
const MaxGridValues = stat.MaxInner

// cellsAndValues counts real outputs in a partition's cells and value by
// value, the values dropped (nil) past MaxGridValues distinct ones.
type cellsAndValues struct {
	cells  *stat.PartitionCounts
	values *stat.Freq[float64]
}

func (c *cellsAndValues) Add(v float64) {
	c.cells.Add(v)
	if c.values != nil {
		if c.values.Add(v); len(c.values.Counts) > MaxGridValues {
			c.values = nil
		}
	}
}

func (c *cellsAndValues) Merge(o *cellsAndValues) {
	c.cells.Merge(o.cells)
	if c.values == nil || o.values == nil {
		c.values = nil
		return
	}
	if c.values.Merge(o.values); len(c.values.Counts) > MaxGridValues {
		c.values = nil
	}
}

// pilot draws the pilot outputs of both sides, pooled.
func (s realSource[D]) pilot(seed uint64, x, y D, pilot int) ([]float64, error) {
	newValues := func() *stat.Values { return &stat.Values{V: make([]float64, 0, pilot)} }
	one := func(id uint64, d D) (*stat.Values, error) {
		// The pilot is sorted before use, so the order in which the
		// workers' values are gathered does not matter.
		st := s.stream(seed, 0)
		st.ID = id
		return Draw(st, pilot, func(r *rand.Rand) float64 { return s.f(r, d) }, stat.CheckFinite, newValues)
	}
	px, err := one(streamPilotX, x)
	if err != nil {
		return nil, &DrawError{"X", err}
	}
	py, err := one(streamPilotY, y)
	if err != nil {
		return nil, &DrawError{"Y", err}
	}
	return append(px.V, py.V...), nil
}

// SampleDensity draws n real outputs on each of x and y, after a pilot that
// fixes their kernel-density statistic (stat.DesignReal): the estimator of
// [KAD24], which the experiments reproducing the paper use. Outputs that
// turn out discrete are counted in a table.
func SampleDensity[D any](src Source[D], seed uint64, x, y D, n, pilot int) (stat.Sample, error) {
	s, ok := src.(realSource[D])
	if !ok {
		return src.Sample(seed, x, y, n, pilot)
	}
	return guarded(x, y, func(x, y D) (stat.Sample, error) {
		pooled, err := s.pilot(seed, x, y, pilot)
		if err != nil {
			return nil, err
		}
		design, err := stat.DesignReal(pooled, n)
		if errors.Is(err, stat.ErrDiscrete) {
			// Real outputs still must be finite.
			return discreteSource[D, float64]{f: s.f, streams: s.streams, check: stat.CheckFinite}.sample(seed, x, y, n)
		}
		if err != nil {
			return nil, err
		}
		rx, ry, err := drawBoth(s.stream(seed, 0), x, y, n, s.f, stat.CheckFinite, design.New)
		if err != nil {
			return nil, err
		}
		return &stat.Continuous{P: rx, Q: ry, Design: design}, nil
	})
}

func (s realSource[D]) Count(seed uint64, x, y D, from, n int, gs []stat.Grouping) (cx, cy [][]int64, err error) {
	return count(s.stream(seed, from), x, y, n, s.f, stat.CheckFinite, gs)
}

// Replays draws the first n outputs on x twice from one stream and reports
// whether they agree bit for bit.
func (s realSource[D]) Replays(seed uint64, x D, n int) (bool, time.Duration, error) {
	return replays(s.streams, seed, x, n, s.f, stat.CheckFinite, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })
}

// Same draws n outputs on each of x and y and reports whether all were
// one output, bit for bit.
func (s realSource[D]) Same(seed uint64, x, y D, n int) (string, bool, error) {
	return same(s.streams, seed, x, y, n, s.f, stat.CheckFinite, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) })
}

type discreteSource[D any, O comparable] struct {
	f func(*rand.Rand, D) O
	streams
	check func(O) error
}

func (s discreteSource[D, O]) withStreams(stop <-chan struct{}, workers int, calls *atomic.Int64) Source[D] {
	s.streams = streams{stop, workers, calls, s.records, s.elsewhere}
	return s
}

// streams is where a source draws: the channel that stops its draws, the
// goroutines per stream (0 for GOMAXPROCS), and the count of the calls
// they make (nil: not counted).
type streams struct {
	stop    <-chan struct{}
	workers int
	calls   *atomic.Int64
	records any // serves every stream, if not nil (see Records)
	// elsewhere, if not nil, makes the counting draws (see Elsewhere).
	elsewhere *Elsewhere
}

// stream is stream seed of the source, its first from draws skipped.
func (s streams) stream(seed uint64, from int) Stream {
	return Stream{Seed: seed, Stop: s.stop, Workers: s.workers, From: from, Calls: s.calls, Records: s.records, Elsewhere: s.elsewhere}
}

func (discreteSource[D, O]) Kind() string { return "discrete" }

func (s discreteSource[D, O]) Sample(seed uint64, x, y D, n, _ int) (stat.Sample, error) {
	return guarded(x, y, func(x, y D) (stat.Sample, error) { return s.sample(seed, x, y, n) })
}

func (s discreteSource[D, O]) sample(seed uint64, x, y D, n int) (stat.Sample, error) {
	tx, ty, err := drawBoth(s.stream(seed, 0), x, y, n, s.f, s.check, stat.NewFreq[O])
	if err != nil {
		return nil, err
	}
	t := stat.Tabulate(tx, ty)
	if !t.Dense() {
		// Values seen too rarely to be screened one by one alone: numbers
		// are screened in ranges as well; other outputs stay a table of
		// values, which the criteria report as unresolved if it is sparse.
		if toFloat := stat.AsFloat[O](); toFloat != nil {
			r := stat.Ranges(tx, ty, toFloat)
			r.Values = t
			return r, nil
		}
	}
	return t, nil
}

func (s discreteSource[D, O]) Count(seed uint64, x, y D, from, n int, gs []stat.Grouping) (cx, cy [][]int64, err error) {
	return count(s.stream(seed, from), x, y, n, s.f, s.check, gs)
}

// Replays draws the first n outputs on x twice from one stream and reports
// whether they agree.
func (s discreteSource[D, O]) Replays(seed uint64, x D, n int) (bool, time.Duration, error) {
	return replays(s.streams, seed, x, n, s.f, s.check, func(a, b O) bool { return a == b })
}

// Same draws n outputs on each of x and y and reports whether all were
// one output.
func (s discreteSource[D, O]) Same(seed uint64, x, y D, n int) (string, bool, error) {
	return same(s.streams, seed, x, y, n, s.f, s.check, func(a, b O) bool { return a == b })
}

func (s realSource[D]) MMD(seed uint64, x, y D, from, n int, w float64) (stat.MMDSums, error) {
	return mmd(s.stream(seed, from), x, y, n, s.f, stat.CheckFinite, stat.GaussianKernel(w))
}

func (s realSource[D]) Outputs(seed uint64, x, y D, n int) (xs, ys []any, err error) {
	return outputsOf(s.streams, seed, x, y, n, s.f, stat.CheckFinite)
}

func (s discreteSource[D, O]) Outputs(seed uint64, x, y D, n int) (xs, ys []any, err error) {
	return outputsOf(s.streams, seed, x, y, n, s.f, s.check)
}

func (s discreteSource[D, O]) MMD(seed uint64, x, y D, from, n int, _ float64) (stat.MMDSums, error) {
	return mmd(s.stream(seed, from), x, y, n, s.f, s.check, stat.IndicatorKernel[O])
}

// mmd draws n pairs of outputs, one on x and one on y from each draw's
// generator, into the MMD tester's sums.
func mmd[D, O any](st Stream, x, y D, n int, f func(*rand.Rand, D) O, check func(O) error, k func(a, b O) float64) (stat.MMDSums, error) {
	st.ID, st.PerDraw = streamJoint, 2 // each draw calls the mechanism on x and on y
	acc, err := guarded(x, y, func(x, y D) (*stat.MMDAcc[O], error) {
		both := func(r *rand.Rand) stat.Both[O] { return stat.Both[O]{X: f(r, x), Y: f(r, y)} }
		checkBoth := func(b stat.Both[O]) error {
			if err := check(b.X); err != nil {
				return &DrawError{"X", err}
			}
			if err := check(b.Y); err != nil {
				return &DrawError{"Y", err}
			}
			return nil
		}
		return Draw(st, n, both, checkBoth, stat.NewMMDAcc(k))
	})
	if err != nil {
		return stat.MMDSums{}, err
	}
	return acc.Sums, nil
}

// drawBoth draws n outputs on x and on y into statistics of one kind.
func drawBoth[D, O any, S Statistic[O, S]](st Stream, x, y D, n int, f func(*rand.Rand, D) O, check func(O) error, newStat func() S) (sx, sy S, err error) {
	return drawPair(st, streamX, streamY, x, y, n, f, check, newStat)
}

// drawPair draws n outputs on x from stream idX and on y from stream idY
// of st's seed into statistics of one kind.
func drawPair[D, O any, S Statistic[O, S]](st Stream, idX, idY uint64, x, y D, n int, f func(*rand.Rand, D) O, check func(O) error, newStat func() S) (sx, sy S, err error) {
	side := func(id uint64, d D) (S, error) {
		st := st
		st.ID = id
		if st.Elsewhere != nil {
			var err error
			if st.Elsewhere, err = st.Elsewhere.on(d); err != nil {
				return *new(S), err
			}
		}
		return Draw(st, n, func(r *rand.Rand) O { return f(r, d) }, check, newStat)
	}
	if sx, err = side(idX, x); err != nil {
		return sx, sy, &DrawError{"X", err}
	}
	if sy, err = side(idY, y); err != nil {
		return sx, sy, &DrawError{"Y", err}
	}
	return sx, sy, nil
}

// count draws n outputs on x and on y and counts them in the groups of
// every grouping.
func count[D any, O comparable](st Stream, x, y D, n int, f func(*rand.Rand, D) O, check func(O) error, gs []stat.Grouping) (cx, cy [][]int64, err error) {
	newCounts, err := stat.NewGroupCounts[O](gs)
	if err != nil {
		return nil, nil, err
	}
	type both struct{ x, y *stat.GroupCounts[O] }
	b, err := guarded(x, y, func(x, y D) (both, error) {
		sx, sy, err := drawBoth(st, x, y, n, f, check, newCounts)
		return both{sx, sy}, err
	})
	if err != nil {
		return nil, nil, err
	}
	return b.x.In, b.y.In, nil
}

// replays draws n outputs on a copy of x twice, on one worker, from the
// same stream, and compares them in order: a mechanism that draws only from
// the generator it is given gives the same outputs twice. It returns how
// long the second run took.
func replays[D, O any](st streams, seed uint64, x D, n int, f func(*rand.Rand, D) O, check func(O) error, same func(a, b O) bool) (bool, time.Duration, error) {
	run := func() ([]O, error) {
		l, err := guarded(x, x, func(x, _ D) (*outputs[O], error) {
			return Draw(Stream{Seed: seed, ID: streamReplay, Workers: 1, Calls: st.calls, Records: st.records}, n, func(r *rand.Rand) O { return f(r, x) }, check,
				func() *outputs[O] { return &outputs[O]{} })
		})
		if err != nil {
			return nil, err
		}
		return l.v, nil
	}
	a, err := run()
	if err != nil {
		return false, 0, err
	}
	start := time.Now()
	b, err := run()
	took := time.Since(start)
	if err != nil {
		return false, took, err
	}
	for i := range a {
		if !same(a[i], b[i]) {
			return false, took, nil
		}
	}
	return true, took, nil
}

// same draws n outputs on each of x and y, on the source's workers (a
// slow mechanism's calls overlap as in any sampling), ending early when
// stop is closed (ErrStopped), and reports whether all 2n equal the
// first, and the first (formatted %v).
func same[D, O any](st streams, seed uint64, x, y D, n int, f func(*rand.Rand, D) O, check func(O) error, equal func(a, b O) bool) (string, bool, error) {
	drawn, err := drawSides(st, seed, x, y, n, f, check)
	if err != nil || n == 0 {
		return "", false, err
	}
	first := drawn[0][0]
	for _, side := range drawn {
		for _, v := range side {
			if !equal(v, first) {
				return "", false, nil
			}
		}
	}
	return fmt.Sprint(first), true, nil
}

// drawSides draws n outputs on each of x and y, in draw order.
func drawSides[D, O any](st streams, seed uint64, x, y D, n int, f func(*rand.Rand, D) O, check func(O) error) ([2][]O, error) {
	return guarded(x, y, func(x, y D) (out [2][]O, err error) {
		for i, d := range [2]D{x, y} {
			l, err := Draw(Stream{Seed: seed, ID: streamSameX + uint64(i), Workers: st.workers, Stop: st.stop, Calls: st.calls, Records: st.records}, n, func(r *rand.Rand) O { return f(r, d) }, check,
				func() *outputs[O] { return &outputs[O]{} })
			if err != nil {
				return out, err
			}
			out[i] = l.v
		}
		return out, nil
	})
}

// outputsOf is drawSides's outputs as any, for Source.Outputs.
func outputsOf[D, O any](st streams, seed uint64, x, y D, n int, f func(*rand.Rand, D) O, check func(O) error) (xs, ys []any, err error) {
	drawn, err := drawSides(st, seed, x, y, n, f, check)
	if err != nil {
		return nil, nil, err
	}
	boxed := func(v []O) []any {
		out := make([]any, len(v))
		for i, o := range v {
			out[i] = o
		}
		return out
	}
	return boxed(drawn[0]), boxed(drawn[1]), nil
}

// outputs collects outputs in the order they are drawn (on one worker).
type outputs[O any] struct{ v []O }

func (o *outputs[O]) Add(v O)             { o.v = append(o.v, v) }
func (o *outputs[O]) Merge(p *outputs[O]) { o.v = append(o.v, p.v...) }

// Counter is a Source that counts the mechanism calls made through it:
// those its draws made, not those planned (a draw stopped by a deadline,
// or ended by a failing call, counts the calls it made).
type Counter[D any] struct {
	Source[D]
	calls *atomic.Int64
}

// Counting wraps a source with a call counter; its draws end early when
// stop (which may be nil) is closed, with ErrStopped.
func Counting[D any](s Source[D], stop <-chan struct{}, workers int) *Counter[D] {
	calls := new(atomic.Int64)
	return &Counter[D]{Source: s.withStreams(stop, workers, calls), calls: calls}
}

// Calls returns the mechanism calls made so far.
func (c *Counter[D]) Calls() int64 { return c.calls.Load() }

// LearnDraws is the outputs per side a screening of the given pilot draws
// before it, to learn a vector's scores; 0 for other sources.
func (c *Counter[D]) LearnDraws(pilot int) int {
	if l, ok := c.Source.(interface{ LearnDraws(int) int }); ok {
		return l.LearnDraws(pilot)
	}
	return 0
}
