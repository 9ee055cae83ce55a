// Package search is the engine behind dptest's assertions: it draws a
// mechanism's outputs on candidate pairs of neighbouring datasets, screens
// every pair in both directions on modest samples, and confirms the most
// divergent ones on fresh, larger samples with a lower bound at the verdict's
// confidence (see [Run]).
package search

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/dptest/dptest/internal/density"
	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/sampler"
)

// Mechanism draws outputs of a randomized mechanism on datasets of type D.
type Mechanism[D any] interface {
	// Pair draws n outputs on x and n on y from streams of seed and bounds
	// the divergence in both directions, D(M(x) ‖ M(y)) and D(M(y) ‖ M(x)),
	// from the same samples.
	Pair(seed uint64, x, y D, n int, par renyi.Params, workers int) (xy, yx renyi.Result, err error)
	// Kind is "real" or "discrete".
	Kind() string
}

// DrawError reports a failure of the mechanism while drawing on one of the
// two datasets of a pair.
type DrawError struct {
	Dataset string // "X" or "Y"
	Err     error  // a *sampler.BlockError: the draw's index and cause
}

func (e *DrawError) Error() string { return fmt.Sprintf("on %s: %v", e.Dataset, e.Err) }
func (e *DrawError) Unwrap() error { return e.Err }

// Stream numbers within one Pair call.
const (
	streamPilotX = iota + 1
	streamPilotY
	streamX
	streamY
)

// The pilot, drawn per side before the sample proper to fix the grid and
// the atoms of real outputs, has an eighth of the sample's size, between
// MinPilot and PilotSize draws.
const (
	PilotSize = 1 << 14
	MinPilot  = 1 << 10
)

// Real adapts a mechanism with real outputs. Each Pair call draws pilot
// samples of both sides, which fix a bijection for heavy tails
// (density.HeavyTailTransform), the grid (density.GridFor) and the atoms
// (values the pilots repeat, density.FindAtoms), then the samples proper,
// streamed into density.Real statistics.
func Real[D any](f func(r *rand.Rand, x D) float64) Mechanism[D] { return realMech[D]{f} }

type realMech[D any] struct{ f func(*rand.Rand, D) float64 }

func (realMech[D]) Kind() string { return "real" }

func (m realMech[D]) Pair(seed uint64, x, y D, n int, par renyi.Params, workers int) (xy, yx renyi.Result, err error) {
	fx := func(r *rand.Rand) float64 { return m.f(r, x) }
	fy := func(r *rand.Rand) float64 { return m.f(r, y) }
	st := func(id uint64) sampler.Stream { return sampler.Stream{Seed: seed, ID: id, Workers: workers} }
	pilot := min(n, max(MinPilot, min(n/8, PilotSize)))
	px, err := sampler.Values(st(streamPilotX), pilot, fx)
	if err != nil {
		return xy, yx, &DrawError{"X", err}
	}
	py, err := sampler.Values(st(streamPilotY), pilot, fy)
	if err != nil {
		return xy, yx, &DrawError{"Y", err}
	}
	pooled := append(px, py...)
	slices.Sort(pooled)
	if tr, ok := density.HeavyTailTransform(pooled); ok {
		// Heavy tails: estimate on the compressed scale instead. T is a
		// bijection, which leaves every Rényi divergence unchanged.
		fx = func(r *rand.Rand) float64 { return tr(m.f(r, x)) }
		fy = func(r *rand.Rand) float64 { return tr(m.f(r, y)) }
		for i, v := range pooled {
			pooled[i] = tr(v)
		}
		slices.Sort(pooled)
	}
	atoms, rest, tooMany := density.FindAtoms(pooled)
	if tooMany {
		// Mostly repeated values: the output is discrete in practice.
		return discreteMech[D, float64]{m.f}.Pair(seed, x, y, n, par, workers)
	}
	if len(rest) < 2 || rest[0] == rest[len(rest)-1] {
		// No continuous part to speak of: only atoms (or a point mass), so
		// count values exactly.
		return discreteMech[D, float64]{m.f}.Pair(seed, x, y, n, par, workers)
	}
	g, err := density.GridForSorted(rest, n)
	if err != nil {
		return xy, yx, err
	}
	draw := func(id uint64, f func(*rand.Rand) float64) (*density.Real, error) {
		return sampler.Draw(st(id), n,
			func() *density.Real { return density.NewReal(g, atoms) },
			func(r *rand.Rand, acc *density.Real, k int, done *int) error {
				for i := 0; i < k; i++ {
					*done = i
					v := f(r)
					if v != v || v > maxFloat || v < -maxFloat {
						return sampler.NonFiniteError{Value: v}
					}
					acc.Add(v)
				}
				return nil
			},
			func(dst, src *density.Real) { dst.Merge(src) })
	}
	sx, err := draw(streamX, fx)
	if err != nil {
		return xy, yx, &DrawError{"X", err}
	}
	sy, err := draw(streamY, fy)
	if err != nil {
		return xy, yx, &DrawError{"Y", err}
	}
	return renyi.RealBoth(sx, sy, par)
}

const maxFloat = 1.7976931348623157e308

// Discrete adapts a mechanism with discrete outputs of any comparable type,
// counted exactly in frequency tables. An output not equal to itself (a NaN,
// or a struct holding one) cannot be counted and is an error.
func Discrete[D any, O comparable](f func(r *rand.Rand, x D) O) Mechanism[D] {
	return discreteMech[D, O]{f}
}

type discreteMech[D any, O comparable] struct{ f func(*rand.Rand, D) O }

func (discreteMech[D, O]) Kind() string { return "discrete" }

// ErrSelfUnequal reports a discrete output that is not equal to itself.
var ErrSelfUnequal = errors.New("mechanism returned a value not equal to itself (NaN?), which cannot be counted")

func (m discreteMech[D, O]) Pair(seed uint64, x, y D, n int, par renyi.Params, workers int) (xy, yx renyi.Result, err error) {
	st := func(id uint64) sampler.Stream { return sampler.Stream{Seed: seed, ID: id, Workers: workers} }
	draw := func(id uint64, d D) (*density.Freq[O], error) {
		return sampler.Draw(st(id), n,
			density.NewFreq[O],
			func(r *rand.Rand, t *density.Freq[O], k int, done *int) error {
				for i := 0; i < k; i++ {
					*done = i
					v := m.f(r, d)
					if v != v {
						return fmt.Errorf("%w: %v", ErrSelfUnequal, v)
					}
					t.Add(v)
				}
				return nil
			},
			func(dst, src *density.Freq[O]) { dst.Merge(src) })
	}
	tx, err := draw(streamX, x)
	if err != nil {
		return xy, yx, &DrawError{"X", err}
	}
	ty, err := draw(streamY, y)
	if err != nil {
		return xy, yx, &DrawError{"Y", err}
	}
	return renyi.DiscreteBoth(tx, ty, par)
}
