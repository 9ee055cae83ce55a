package sampler

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"

	"github.com/dptest/dptest/internal/stat"
)

// Stream numbers of a vector source's learning samples within one seed,
// after the others.
const (
	streamFitX = streamReplay + 1 + iota
	streamFitY
	streamHoldX
	streamHoldY
)

// LearnBudget bounds the coordinates a vector source holds per learning
// sample: rows × d ≤ LearnBudget (16 MiB of float64; four such samples,
// fit and held out for each side, are held at once).
const LearnBudget = 1 << 21

// MinLearn is the fewest rows of a learning sample.
const MinLearn = 1000

// MaxDim is the longest vector output a score is learned for: MinLearn
// rows of it fit in LearnBudget.
const MaxDim = LearnBudget / MinLearn

// LearnSize is the rows per side of each of the two learning samples (fit
// and held out) of a vector source whose outputs have d coordinates, for a
// statistic with the given pilot: the pilot's size, at most LearnBudget/d,
// at least MinLearn.
func LearnSize(pilot, d int) int { return max(MinLearn, min(pilot, LearnBudget/max(d, 1))) }

// Vector is the source of a mechanism with vector outputs of one length,
// all coordinates finite. Each sample learns scores ([stat.LearnScores])
// from learning draws of its own before it draws the pilot and the outputs,
// which it counts by each score like real outputs: the table of the chosen
// score, with the others' as its Alternatives.
func Vector[D any](f func(r *rand.Rand, x D) []float64) Source[D] {
	return vectorSource[D]{f: f, dim: new(atomic.Int64)}
}

type vectorSource[D any] struct {
	f func(*rand.Rand, D) []float64
	streams
	// dim is the length of the first output seen (0 before) by any audit
	// of the mechanism: every other output must have it. Which output is
	// first depends on the order of the audits (and, within the first, on
	// nothing: its first draws are its replay check's, on one worker), so
	// a mechanism whose length varies fails at a draw that may change with
	// that order, but fails.
	dim *atomic.Int64
}

func (s vectorSource[D]) withStreams(stop <-chan struct{}, workers int, calls *atomic.Int64) Source[D] {
	s.streams = streams{stop, workers, calls, s.records, s.elsewhere}
	return s
}

func (vectorSource[D]) Kind() string { return "vector" }

// LearnDraws is the outputs per side a screening of the given pilot draws
// to learn its scores (two learning samples of LearnSize), at the length
// seen so far (one coordinate before any).
func (s vectorSource[D]) LearnDraws(pilot int) int {
	return 2 * LearnSize(pilot, max(int(s.dim.Load()), 1))
}

// check accepts an output of the length of the first, all finite.
func (s vectorSource[D]) check(v []float64) error {
	if len(v) == 0 {
		return errors.New("an empty output: a Vector mechanism's outputs need at least one coordinate")
	}
	s.dim.CompareAndSwap(0, int64(len(v)))
	return stat.CheckVector(v, int(s.dim.Load()))
}

func (s vectorSource[D]) Sample(seed uint64, x, y D, n, pilot int) (stat.Sample, error) {
	return guarded(x, y, func(x, y D) (stat.Sample, error) { return s.sample(seed, x, y, n, pilot) })
}

func (s vectorSource[D]) sample(seed uint64, x, y D, n, pilot int) (stat.Sample, error) {
	scores, err := s.learn(seed, x, y, pilot)
	if err != nil {
		return nil, err
	}
	newValues := func() *stat.ScoredValues { return stat.NewScoredValues(scores) }
	px, py, err := drawPair(s.stream(seed, 0), streamPilotX, streamPilotY, x, y, pilot, s.f, s.check, newValues)
	if err != nil {
		return nil, err
	}
	parts := make([]*stat.Partition, len(scores))
	for i, sc := range scores {
		parts[i] = stat.ScorePartitionOf(append(px.V[i], py.V[i]...))
		parts[i].Score = sc
	}
	newCells := func() *stat.ScoredCells { return stat.NewScoredCells(parts) }
	cx, cy, err := drawBoth(s.stream(seed, 0), x, y, n, s.f, s.check, newCells)
	if err != nil {
		return nil, err
	}
	t := stat.RefineTails(cx.In[0], cy.In[0])
	for i := 1; i < len(parts); i++ {
		t.Alternatives = append(t.Alternatives, stat.RefineTails(cx.In[i], cy.In[i]))
	}
	return t, nil
}

// learn draws the fitting and held-out samples of both sides and learns
// the scores from them, the chosen one first.
func (s vectorSource[D]) learn(seed uint64, x, y D, pilot int) ([]*stat.Score, error) {
	// The length, for the sizes: the first output's, or one drawn now.
	if s.dim.Load() == 0 {
		if _, err := Draw(Stream{Seed: seed, ID: streamFitX, Workers: 1, Stop: s.stop, Calls: s.calls, Records: s.records}, 1,
			func(r *rand.Rand) []float64 { return s.f(r, x) }, s.check, func() *discard { return &discard{} }); err != nil {
			return nil, &DrawError{"X", err}
		}
	}
	d := int(s.dim.Load())
	if d > MaxDim {
		return nil, fmt.Errorf("dptest: Vector outputs of %d coordinates are more than a score can be learned from (at most %d); reduce them first by a post-processing (a projection, a norm, the coordinates that matter), which keeps a bound a bound", d, MaxDim)
	}
	m := LearnSize(pilot, d)
	newRows := func() *stat.Vectors { return stat.NewVectors(d, 0) }
	st := s.stream(seed, 0)
	fx, fy, err := drawPair(st, streamFitX, streamFitY, x, y, m, s.f, s.check, newRows)
	if err != nil {
		return nil, err
	}
	hx, hy, err := drawPair(st, streamHoldX, streamHoldY, x, y, m, s.f, s.check, newRows)
	if err != nil {
		return nil, err
	}
	for _, v := range []*stat.Vectors{fx, fy, hx, hy} {
		v.SortRows()
	}
	return stat.LearnScores(fx, fy, hx, hy), nil
}

// discard is a statistic that keeps nothing.
type discard struct{}

func (*discard) Add([]float64)  {}
func (*discard) Merge(*discard) {}

func (s vectorSource[D]) Count(seed uint64, x, y D, from, n int, gs []stat.Grouping) (cx, cy [][]int64, err error) {
	newCounts, err := stat.NewVectorGroupCounts(gs)
	if err != nil {
		return nil, nil, err
	}
	type both struct{ x, y *stat.VectorGroupCounts }
	b, err := guarded(x, y, func(x, y D) (both, error) {
		sx, sy, err := drawBoth(s.stream(seed, from), x, y, n, s.f, s.check, newCounts)
		return both{sx, sy}, err
	})
	if err != nil {
		return nil, nil, err
	}
	return b.x.In(), b.y.In(), nil
}

// MMD is not defined for vectors here: the tester's kernel needs a
// bandwidth in the vectors' own space, which the screening does not fix.
func (vectorSource[D]) MMD(uint64, D, D, int, int, float64) (stat.MMDSums, error) {
	return stat.MMDSums{}, fmt.Errorf("sampler: the MMD tester takes real or discrete outputs, not vectors")
}

// Replays draws the first n outputs on x twice from one stream and reports
// whether they agree bit for bit.
func (s vectorSource[D]) Replays(seed uint64, x D, n int) (bool, time.Duration, error) {
	cloned := func(r *rand.Rand, d D) []float64 { return slices.Clone(s.f(r, d)) }
	return replays(s.streams, seed, x, n, cloned, s.check, func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
	})
}

func (s vectorSource[D]) Outputs(seed uint64, x, y D, n int) (xs, ys []any, err error) {
	cloned := func(r *rand.Rand, d D) []float64 { return slices.Clone(s.f(r, d)) }
	return outputsOf(s.streams, seed, x, y, n, cloned, s.check)
}

// Same draws n outputs on each of x and y and reports whether all were
// one vector, bit for bit.
func (s vectorSource[D]) Same(seed uint64, x, y D, n int) (string, bool, error) {
	cloned := func(r *rand.Rand, d D) []float64 { return slices.Clone(s.f(r, d)) }
	return same(s.streams, seed, x, y, n, cloned, s.check, func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
	})
}
