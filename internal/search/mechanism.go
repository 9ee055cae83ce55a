// Package search is the engine behind dptest's assertions: it draws a
// mechanism's outputs on candidate pairs of neighbouring datasets, screens
// every pair in both directions on modest samples, and confirms the most
// divergent ones on fresh, larger samples with a lower bound at the verdict's
// confidence (see [Run]). What is estimated is a [Criterion]: the Rényi
// divergence of [KAD24] ([RDP]) or the local pure-DP loss of [AKD22] ([DP]).
package search

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/dptest/dptest/internal/density"
	"github.com/dptest/dptest/internal/local"
	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/sampler"
)

// Mechanism draws outputs of a randomized mechanism on datasets of type D.
// Every method draws fresh samples from streams of seed, so distinct seeds
// give independent samples and a seed replays them.
type Mechanism[D any] interface {
	// Pair draws n outputs on x and n on y and bounds the Rényi divergence
	// in both directions, D(M(x) ‖ M(y)) and D(M(y) ‖ M(x)), from them.
	Pair(seed uint64, x, y D, n int, par renyi.Params, workers int) (xy, yx renyi.Result, err error)
	// Screen draws n outputs on x and n on y and estimates the maximal
	// local privacy loss of both directions ([AKD22], DPL).
	Screen(seed uint64, x, y D, n int, par LocalParams, workers int) (xy, yx local.Estimate, err error)
	// Count draws n outputs on x and n on y and counts how many fall in
	// each event.
	Count(seed uint64, x, y D, n int, events []local.Event, workers int) (cx, cy []int64, err error)
	// Kind is "real" or "discrete".
	Kind() string
}

// LocalParams configure the screening of the local approach.
type LocalParams struct {
	// Region is C for real outputs, in output units; the zero value
	// selects the pooled pilot's 0.1% to 99.9% quantiles.
	Region [2]float64
	// Tau is the density floor for real outputs, in output units, and the
	// probability floor for discrete ones; zero selects the defaults of
	// local.RealScreen and local.DiscreteScreen.
	Tau float64
}

// DrawError reports a failure of the mechanism while drawing on one of the
// two datasets of a pair.
type DrawError struct {
	Dataset string // "X" or "Y"
	Err     error  // a *sampler.BlockError: the draw's index and cause
}

func (e *DrawError) Error() string { return fmt.Sprintf("on %s: %v", e.Dataset, e.Err) }
func (e *DrawError) Unwrap() error { return e.Err }

// Stream numbers within one call.
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

// Real adapts a mechanism with real outputs. Each call draws pilot samples
// of both sides, which fix a bijection for heavy tails
// (density.HeavyTailTransform), the atoms (values the pilots repeat,
// density.FindAtoms) and the grid (density.GridFor), then the samples
// proper, streamed into density.Real statistics.
func Real[D any](f func(r *rand.Rand, x D) float64) Mechanism[D] { return realMech[D]{f} }

type realMech[D any] struct{ f func(*rand.Rand, D) float64 }

func (realMech[D]) Kind() string { return "real" }

// realSamples are the statistics of one draw of both sides, in estimation
// units u = T(t).
type realSamples struct {
	x, y     *density.Real
	toU      func(float64) float64 // T, the identity without heavy tails
	toOutput func(float64) float64 // T⁻¹
	atoms    []float64             // sorted, output units
	atomsU   []float64             // T(atoms)
	pooled   []float64             // sorted pooled pilot, output units
}

// errDiscrete is returned by realMech.sample when the outputs turn out to be
// discrete in practice (only atoms, or more than density.MaxAtoms of them).
var errDiscrete = errors.New("search: real outputs are discrete")

func (m realMech[D]) sample(seed uint64, x, y D, n int, workers int) (*realSamples, error) {
	st := func(id uint64) sampler.Stream { return sampler.Stream{Seed: seed, ID: id, Workers: workers} }
	fx := func(r *rand.Rand) float64 { return m.f(r, x) }
	fy := func(r *rand.Rand) float64 { return m.f(r, y) }
	pilot := min(n, max(MinPilot, min(n/8, PilotSize)))
	px, err := sampler.Values(st(streamPilotX), pilot, fx)
	if err != nil {
		return nil, &DrawError{"X", err}
	}
	py, err := sampler.Values(st(streamPilotY), pilot, fy)
	if err != nil {
		return nil, &DrawError{"Y", err}
	}
	pooled := append(px, py...)
	slices.Sort(pooled)
	atoms, rest, tooMany := density.FindAtoms(pooled)
	if tooMany || len(rest) < 2 || rest[0] == rest[len(rest)-1] {
		return nil, errDiscrete
	}
	s := &realSamples{atoms: atoms, pooled: pooled,
		toU: func(t float64) float64 { return t }, toOutput: func(u float64) float64 { return u }}
	if tr, inv, ok := density.HeavyTailTransform(pooled); ok {
		// Heavy tails: estimate on the compressed scale instead. T is a
		// strictly increasing bijection, which leaves every divergence and
		// every privacy loss unchanged, and keeps the order of the values.
		s.toU, s.toOutput = tr, inv
		for i, v := range rest {
			rest[i] = tr(v)
		}
	}
	for _, a := range atoms {
		s.atomsU = append(s.atomsU, s.toU(a))
	}
	g, err := density.GridForSorted(rest, n)
	if err != nil {
		return nil, err
	}
	draw := func(id uint64, f func(*rand.Rand) float64) (*density.Real, error) {
		return sampler.Draw(st(id), n,
			func() *density.Real { return density.NewReal(g, s.atomsU) },
			func(r *rand.Rand, acc *density.Real, k int, done *int) error {
				for i := 0; i < k; i++ {
					*done = i
					v := f(r)
					if v != v || v > maxFloat || v < -maxFloat {
						return sampler.NonFiniteError{Value: v}
					}
					acc.Add(s.toU(v))
				}
				return nil
			},
			func(dst, src *density.Real) { dst.Merge(src) })
	}
	if s.x, err = draw(streamX, fx); err != nil {
		return nil, &DrawError{"X", err}
	}
	if s.y, err = draw(streamY, fy); err != nil {
		return nil, &DrawError{"Y", err}
	}
	return s, nil
}

func (m realMech[D]) Pair(seed uint64, x, y D, n int, par renyi.Params, workers int) (xy, yx renyi.Result, err error) {
	s, err := m.sample(seed, x, y, n, workers)
	if errors.Is(err, errDiscrete) {
		return discreteMech[D, float64]{m.f}.Pair(seed, x, y, n, par, workers)
	}
	if err != nil {
		return xy, yx, err
	}
	return renyi.RealBoth(s.x, s.y, par)
}

func (m realMech[D]) Screen(seed uint64, x, y D, n int, par LocalParams, workers int) (xy, yx local.Estimate, err error) {
	s, err := m.sample(seed, x, y, n, workers)
	if errors.Is(err, errDiscrete) {
		xy, yx, err = discreteMech[D, float64]{m.f}.Screen(seed, x, y, n, par, workers)
		// The event stays a set of values of the float64 output, which
		// Count finds again when it too falls back to discrete counting.
		return xy, yx, err
	}
	if err != nil {
		return xy, yx, err
	}
	lo, hi := par.Region[0], par.Region[1]
	if lo == 0 && hi == 0 {
		k := len(s.pooled)
		lo, hi = s.pooled[k/1000], s.pooled[k-1-k/1000]
	}
	in := local.RealInput{
		P: s.x, Q: s.y, ToOutput: s.toOutput, Atoms: s.atoms, AtomsU: s.atomsU,
		RegionLo: s.toU(lo), RegionHi: s.toU(hi),
	}
	if par.Tau > 0 {
		// A floor given in output units, converted where the transform is
		// not the identity by its slope at the region's centre.
		mid := (lo + hi) / 2
		d := (s.toU(mid+1e-6*(hi-lo)) - s.toU(mid)) / (1e-6 * (hi - lo))
		in.Tau = par.Tau / d
		in.AtomTau = par.Tau
	}
	return local.RealScreen(in)
}

func (m realMech[D]) Count(seed uint64, x, y D, n int, events []local.Event, workers int) (cx, cy []int64, err error) {
	for _, e := range events {
		if e.Kind == local.Cell {
			// The screening found the outputs discrete in practice.
			return discreteMech[D, float64]{m.f}.Count(seed, x, y, n, events, workers)
		}
	}
	st := func(id uint64) sampler.Stream { return sampler.Stream{Seed: seed, ID: id, Workers: workers} }
	count := func(id uint64, d D) ([]int64, error) {
		c, err := sampler.Draw(st(id), n,
			func() []int64 { return make([]int64, len(events)) },
			func(r *rand.Rand, acc []int64, k int, done *int) error {
				for i := 0; i < k; i++ {
					*done = i
					v := m.f(r, d)
					if v != v || v > maxFloat || v < -maxFloat {
						return sampler.NonFiniteError{Value: v}
					}
					for j, e := range events {
						if e.Contains(v) {
							acc[j]++
						}
					}
				}
				return nil
			},
			func(dst, src []int64) {
				for j := range dst {
					dst[j] += src[j]
				}
			})
		return c, err
	}
	if cx, err = count(streamX, x); err != nil {
		return nil, nil, &DrawError{"X", err}
	}
	if cy, err = count(streamY, y); err != nil {
		return nil, nil, &DrawError{"Y", err}
	}
	return cx, cy, nil
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

func (m discreteMech[D, O]) tables(seed uint64, x, y D, n int, workers int) (tx, ty *density.Freq[O], err error) {
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
	if tx, err = draw(streamX, x); err != nil {
		return nil, nil, &DrawError{"X", err}
	}
	if ty, err = draw(streamY, y); err != nil {
		return nil, nil, &DrawError{"Y", err}
	}
	return tx, ty, nil
}

func (m discreteMech[D, O]) Pair(seed uint64, x, y D, n int, par renyi.Params, workers int) (xy, yx renyi.Result, err error) {
	tx, ty, err := m.tables(seed, x, y, n, workers)
	if err != nil {
		return xy, yx, err
	}
	return renyi.DiscreteBoth(tx, ty, par)
}

func (m discreteMech[D, O]) Screen(seed uint64, x, y D, n int, par LocalParams, workers int) (xy, yx local.Estimate, err error) {
	tx, ty, err := m.tables(seed, x, y, n, workers)
	if err != nil {
		return xy, yx, err
	}
	xy, yx = local.DiscreteScreen(tx, ty, par.Tau)
	return xy, yx, nil
}

func (m discreteMech[D, O]) Count(seed uint64, x, y D, n int, events []local.Event, workers int) (cx, cy []int64, err error) {
	tx, ty, err := m.tables(seed, x, y, n, workers)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range events {
		var x, y int64
		switch {
		case e.Kind == local.Cell && e.Cells != nil:
			for v := range e.Cells.(map[O]struct{}) {
				x += tx.Counts[v]
				y += ty.Counts[v]
			}
		case e.Kind == local.Cell:
			v := e.Cell.(O)
			x, y = tx.Counts[v], ty.Counts[v]
		case e.Kind == local.Atom:
			// An atom of a real output that turned out discrete.
			if v, ok := any(e.Atom).(O); ok {
				x, y = tx.Counts[v], ty.Counts[v]
			}
		}
		cx = append(cx, x)
		cy = append(cy, y)
	}
	return cx, cy, nil
}
