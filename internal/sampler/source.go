package sampler

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"github.com/dptest/dptest/internal/stat"
)

// Source draws the outputs of one mechanism on datasets of type D into
// statistics. Every method draws from streams of the given seed only, so
// distinct seeds give independent draws and a seed replays them.
type Source[D any] interface {
	// Sample draws n outputs on each of x and y into the statistic every
	// criterion consumes: for real outputs, first pilot outputs per side,
	// which fix the design of the statistic (atoms, transform, grid; see
	// stat.DesignReal); for discrete outputs, and real outputs that turn
	// out discrete, a frequency table.
	Sample(seed uint64, x, y D, n, pilot int) (stat.Sample, error)
	// Count draws n outputs on each of x and y and counts those in each
	// event.
	Count(seed uint64, x, y D, n int, events []stat.Event) (cx, cy []int64, err error)
	// Kind is "real" or "discrete".
	Kind() string
}

// Stream numbers within one seed.
const (
	streamPilotX = iota + 1
	streamPilotY
	streamX
	streamY
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
func Real[D any](f func(r *rand.Rand, x D) float64) Source[D] { return realSource[D]{f} }

// Discrete is the source of a mechanism with outputs of any comparable
// type, which must equal themselves (no NaN).
func Discrete[D any, O comparable](f func(r *rand.Rand, x D) O) Source[D] {
	return discreteSource[D, O]{f}
}

type realSource[D any] struct{ f func(*rand.Rand, D) float64 }

func (realSource[D]) Kind() string { return "real" }

func (s realSource[D]) Sample(seed uint64, x, y D, n, pilot int) (stat.Sample, error) {
	newValues := func() *stat.Values { return &stat.Values{V: make([]float64, 0, pilot)} }
	one := func(id uint64, d D) (*stat.Values, error) {
		// The pilot is sorted below, so the order in which the workers'
		// values are gathered does not matter.
		return Draw(Stream{Seed: seed, ID: id}, pilot, func(r *rand.Rand) float64 { return s.f(r, d) }, stat.CheckFinite, newValues)
	}
	px, err := one(streamPilotX, x)
	if err != nil {
		return nil, &DrawError{"X", err}
	}
	py, err := one(streamPilotY, y)
	if err != nil {
		return nil, &DrawError{"Y", err}
	}
	design, err := stat.DesignReal(append(px.V, py.V...), n)
	if errors.Is(err, stat.ErrDiscrete) {
		return discreteSource[D, float64](s).Sample(seed, x, y, n, pilot)
	}
	if err != nil {
		return nil, err
	}
	rx, ry, err := drawBoth(seed, x, y, n, s.f, stat.CheckFinite, design.New)
	if err != nil {
		return nil, err
	}
	return &stat.Continuous{P: rx, Q: ry, Design: design}, nil
}

func (s realSource[D]) Count(seed uint64, x, y D, n int, events []stat.Event) (cx, cy []int64, err error) {
	return count(seed, x, y, n, s.f, stat.CheckFinite, events)
}

type discreteSource[D any, O comparable] struct{ f func(*rand.Rand, D) O }

func (discreteSource[D, O]) Kind() string { return "discrete" }

func (s discreteSource[D, O]) Sample(seed uint64, x, y D, n, _ int) (stat.Sample, error) {
	tx, ty, err := drawBoth(seed, x, y, n, s.f, stat.CheckCountable[O], stat.NewFreq[O])
	if err != nil {
		return nil, err
	}
	return stat.Tabulate(tx, ty), nil
}

func (s discreteSource[D, O]) Count(seed uint64, x, y D, n int, events []stat.Event) (cx, cy []int64, err error) {
	return count(seed, x, y, n, s.f, stat.CheckCountable[O], events)
}

// drawBoth draws n outputs on x and on y into statistics of one kind.
func drawBoth[D, O any, S Statistic[O, S]](seed uint64, x, y D, n int, f func(*rand.Rand, D) O, check func(O) error, newStat func() S) (sx, sy S, err error) {
	side := func(id uint64, d D) (S, error) {
		return Draw(Stream{Seed: seed, ID: id}, n, func(r *rand.Rand) O { return f(r, d) }, check, newStat)
	}
	if sx, err = side(streamX, x); err != nil {
		return sx, sy, &DrawError{"X", err}
	}
	if sy, err = side(streamY, y); err != nil {
		return sx, sy, &DrawError{"Y", err}
	}
	return sx, sy, nil
}

// count draws n outputs on x and on y and counts them in the events.
func count[D any, O comparable](seed uint64, x, y D, n int, f func(*rand.Rand, D) O, check func(O) error, events []stat.Event) (cx, cy []int64, err error) {
	newCounts, err := stat.NewCounts[O](events)
	if err != nil {
		return nil, nil, err
	}
	sx, sy, err := drawBoth(seed, x, y, n, f, check, newCounts)
	if err != nil {
		return nil, nil, err
	}
	return sx.In, sy.In, nil
}

// Counter is a Source that counts the mechanism calls made through it.
type Counter[D any] struct {
	Source[D]
	calls atomic.Int64
}

// Counting wraps a source with a call counter.
func Counting[D any](s Source[D]) *Counter[D] { return &Counter[D]{Source: s} }

// Calls returns the mechanism calls made so far.
func (c *Counter[D]) Calls() int64 { return c.calls.Load() }

// Sample draws as the wrapped source does: n per side, and for real
// outputs the pilot first.
func (c *Counter[D]) Sample(seed uint64, x, y D, n, pilot int) (stat.Sample, error) {
	s, err := c.Source.Sample(seed, x, y, n, pilot)
	c.calls.Add(2 * int64(n))
	if c.Kind() == "real" {
		c.calls.Add(2 * int64(pilot))
	}
	return s, err
}

// Count draws as the wrapped source does: n per side.
func (c *Counter[D]) Count(seed uint64, x, y D, n int, events []stat.Event) (cx, cy []int64, err error) {
	cx, cy, err = c.Source.Count(seed, x, y, n, events)
	c.calls.Add(2 * int64(n))
	return cx, cy, err
}
