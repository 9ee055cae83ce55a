package sampler

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/dptest/dptest/internal/stat"
)

// Draws made elsewhere. A source given an [Elsewhere] sends its large
// draws to an [Executor] as tasks: the stream, the blocks and the design
// of the statistic to fill, encoded. Workers make the blocks with the very
// generators Draw uses ([RunTask]) and send back counts, which merge by
// integer addition ([MergeResults]). So the statistic, and every verdict
// built on it, equals the in-process draw's bit for bit.
//
// Only the counting stages travel: a screening's or confirmation's counts
// of real outputs in cells, of discrete outputs by value, and of groups.
// Pilots, replay checks, the MMD tester and pictures draw here.

// Executor makes the blocks of a task on other machines.
type Executor interface {
	// Execute makes blocks first to last−1 of the encoded task, each with
	// RunTask, merges their results with MergeResults, and returns the
	// merged result.
	Execute(task []byte, first, last int) ([]byte, error)
}

// Elsewhere is where a source's large draws are made.
type Elsewhere struct {
	Executor Executor
	// MinBlocks is the fewest blocks a draw must span to be sent; smaller
	// draws are made here (at least 1).
	MinBlocks int
	// output is the source's Kind: "real" or "discrete".
	output string
	// data is the dataset of the draw, encoded; set per draw.
	data []byte
}

// DrawnElsewhere returns src with its counting draws made by e. Vector
// outputs are an error: their scores do not travel yet.
func DrawnElsewhere[D any](src Source[D], e Elsewhere) (Source[D], error) {
	if e.Executor == nil {
		return nil, errors.New("sampler: DrawnElsewhere needs an executor")
	}
	e.MinBlocks = max(e.MinBlocks, 1)
	e.output = src.Kind()
	if d, ok := src.(interface{ withElsewhere(*Elsewhere) Source[D] }); ok {
		return d.withElsewhere(&e), nil
	}
	return nil, fmt.Errorf("sampler: %s outputs cannot be drawn elsewhere yet", src.Kind())
}

func (s realSource[D]) withElsewhere(e *Elsewhere) Source[D] {
	s.elsewhere = e
	return s
}

func (s discreteSource[D, O]) withElsewhere(e *Elsewhere) Source[D] {
	s.elsewhere = e
	return s
}

// on returns e for draws on dataset d, which must encode with
// encoding/gob.
func (e *Elsewhere) on(d any) (*Elsewhere, error) {
	data, err := encode(d)
	if err != nil {
		return nil, fmt.Errorf("a dataset of type %T cannot be sent to workers (it must encode with encoding/gob: exported fields): %w", d, err)
	}
	c := *e
	c.data = data
	return &c, nil
}

// task is a draw sent elsewhere.
type task struct {
	Seed, ID      uint64
	From, N       int
	PerDraw       int
	Output        string // "real" or "discrete": how outputs are checked
	Spec          spec
	Data          []byte // the dataset, encoded
	First, Blocks int
}

// spec is the design of the statistic a task fills.
type spec struct {
	Stat       string // statCounts, statGridded, statFreq or statGroups
	Partitions []stat.PartitionState
	Keep       int // statCounts, statGridded: the tail keeping
	Groupings  []groupingState
}

const (
	statCounts  = "counts"  // *stat.PartitionCounts on Partitions[0]
	statGridded = "gridded" // *cellsAndValues on Partitions[0]
	statFreq    = "freq"    // *stat.Freq[O]
	statGroups  = "groups"  // *stat.GroupCounts[O]
)

// groupingState is a stat.Grouping as a plain value: its partition by
// index into spec.Partitions (−1: none), its values encoded as a []O.
type groupingState struct {
	Groups, Partition int
	OfCell            []int
	Values            []byte
	Keys              []int
	Unlisted          int
	UnlistedBuckets   int
}

// result is what a task's blocks counted.
type result struct {
	Empty     bool
	Calls     int64
	Failed    bool
	FailIndex int64
	FailCause string
	// NotCountable: the failure is stat.ErrNotCountable's.
	NotCountable bool
	Counts       stat.CountsState
	NoValues     bool // statGridded: too many distinct values to count
	Values       []byte
	ValuesN      int64
	Groups       [][]int64
	GroupsN      int64
}

func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(v)
	return b.Bytes(), err
}

func decode(data []byte, v any) error {
	return gob.NewDecoder(bytes.NewReader(data)).Decode(v)
}

// failedElsewhere is a draw's failure on a worker: its message, and
// whether it was stat.ErrNotCountable's.
type failedElsewhere struct {
	cause        string
	notCountable bool
}

func (e failedElsewhere) Error() string { return e.cause }

func (e failedElsewhere) Unwrap() error {
	if e.notCountable {
		return stat.ErrNotCountable
	}
	return nil
}

// TaskBlocks returns the blocks of an encoded task: first to last−1.
func TaskBlocks(encoded []byte) (first, last int, err error) {
	var t task
	if err := decode(encoded, &t); err != nil {
		return 0, 0, fmt.Errorf("sampler: a malformed task: %w", err)
	}
	return t.First, t.First + t.Blocks, nil
}

// EmptyResult is the result of no blocks, which merges as nothing.
func EmptyResult() []byte {
	b, _ := encode(result{Empty: true})
	return b
}

// drawElsewhere makes Draw's draws with the stream's executor, if its
// statistic can travel; ok is false if it cannot (the draw is made here).
func drawElsewhere[O any, S Statistic[O, S]](s Stream, n int, newStat func() S) (out S, ok bool, err error) {
	first, last := s.From/BlockSize, (n+BlockSize-1)/BlockSize
	if last-first < s.Elsewhere.MinBlocks {
		return out, false, nil
	}
	acc := newStat()
	sp, ok, err := specOf[O](any(acc))
	if !ok || err != nil {
		return out, ok, err
	}
	t := task{Seed: s.Seed, ID: s.ID, From: s.From, N: n, PerDraw: max(s.PerDraw, 1),
		Output: s.Elsewhere.output, Spec: sp, Data: s.Elsewhere.data, First: first, Blocks: last - first}
	enc, err := encode(t)
	if err != nil {
		return out, true, err
	}
	got, err := s.Elsewhere.Executor.Execute(enc, first, last)
	if err != nil {
		return out, true, fmt.Errorf("draws elsewhere: %w", err)
	}
	var r result
	if err := decode(got, &r); err != nil {
		return out, true, fmt.Errorf("draws elsewhere: a malformed result: %w", err)
	}
	if s.Calls != nil {
		s.Calls.Add(r.Calls)
	}
	if r.Failed {
		return out, true, &BlockError{Index: r.FailIndex, Err: failedElsewhere{r.FailCause, r.NotCountable}}
	}
	if r.Empty {
		return out, true, errors.New("draws elsewhere: the executor made no blocks")
	}
	return acc, true, setResult[O](any(acc), r)
}

// specOf returns the design of an empty statistic; ok is false for a
// statistic that does not travel.
func specOf[O any](acc any) (sp spec, ok bool, err error) {
	counts := func(c *stat.PartitionCounts, kind string) (spec, bool, error) {
		ps, err := c.Part.State()
		if err != nil {
			return spec{}, false, nil // a vector's score: drawn here
		}
		return spec{Stat: kind, Partitions: []stat.PartitionState{ps}, Keep: c.TailKeeping()}, true, nil
	}
	switch a := acc.(type) {
	case *stat.PartitionCounts:
		return counts(a, statCounts)
	case *cellsAndValues:
		return counts(a.cells, statGridded)
	}
	return typedSpecOf[O](acc)
}

// RunTask makes blocks first to last−1 of an encoded task, on one
// goroutine, with the mechanism f, and returns their encoded result.
// Workers call it; f must be the mechanism the task's source draws.
func RunTask[D any, O comparable](encoded []byte, f func(*rand.Rand, D) O, first, last int) ([]byte, error) {
	var t task
	if err := decode(encoded, &t); err != nil {
		return nil, fmt.Errorf("sampler: a malformed task: %w", err)
	}
	if first < t.First || last > t.First+t.Blocks || first > last {
		return nil, fmt.Errorf("sampler: blocks %d to %d are not the task's", first, last)
	}
	var d D
	if err := decode(t.Data, &d); err != nil {
		return nil, fmt.Errorf("sampler: the task's dataset does not decode as %T: %w", d, err)
	}
	if _, isReal := any(*new(O)).(float64); t.Output == "real" && !isReal {
		return nil, fmt.Errorf("sampler: a task of real outputs for a mechanism of %T outputs", *new(O))
	}
	r, err := runTyped(t, func(r *rand.Rand) O { return f(r, d) }, first, last)
	if err != nil {
		return nil, err
	}
	return encode(r)
}

// runBlocks makes blocks first to last−1 of the stream into acc, stopping
// at the first failing draw, and returns the result's calls and failure.
func runBlocks[O any, S Statistic[O, S]](st Stream, n, first, last int, acc S, draw func(*rand.Rand) O, check func(O) error) result {
	var r result
	for b := first; b < last; b++ {
		k := min(BlockSize, n-b*BlockSize)
		done, err := runBlock(st.BlockRand(b), acc, k, draw, check, nil)
		r.Calls += int64(done)
		if err != nil {
			r.Calls++
			r.Failed, r.FailIndex, r.FailCause = true, int64(b)*BlockSize+int64(done), err.Error()
			r.NotCountable = errors.Is(err, stat.ErrNotCountable)
			break
		}
	}
	r.Calls *= int64(max(st.PerDraw, 1))
	return r
}

// MergeResults merges two encoded results of one task. The earlier
// failure, if any, is kept.
func MergeResults[O comparable](encodedTask, a, b []byte) ([]byte, error) {
	var t task
	var ra, rb result
	for i, e := range []error{decode(encodedTask, &t), decode(a, &ra), decode(b, &rb)} {
		if e != nil {
			return nil, fmt.Errorf("sampler: a malformed task or result (%d): %w", i, e)
		}
	}
	m, err := mergeResults[O](t, ra, rb)
	if err != nil {
		return nil, err
	}
	return encode(m)
}

func mergeResults[O comparable](t task, a, b result) (result, error) {
	switch {
	case a.Empty:
		return b, nil
	case b.Empty:
		return a, nil
	}
	calls := a.Calls + b.Calls
	if a.Failed || b.Failed {
		if !a.Failed || b.Failed && b.FailIndex < a.FailIndex {
			a = b
		}
		a.Calls = calls
		return a, nil
	}
	acc, err := newFromSpec[O](t.Spec)
	if err != nil {
		return result{}, err
	}
	other, err := newFromSpec[O](t.Spec)
	if err != nil {
		return result{}, err
	}
	if err := setResult[O](acc, a); err != nil {
		return result{}, err
	}
	if err := setResult[O](other, b); err != nil {
		return result{}, err
	}
	if err := mergeAny[O](acc, other); err != nil {
		return result{}, err
	}
	m, err := resultOf[O](acc)
	m.Calls = calls
	return m, err
}
