package sampler

import (
	"fmt"
	"math/rand/v2"

	"github.com/dptest/dptest/internal/stat"
)

// The typed half of draws made elsewhere: statistics of outputs of type O
// built from a spec, filled, and turned into results and back.

// freqState is a stat.Freq as a plain value.
type freqState[O any] struct {
	Keys   []O
	Counts []int64
}

// typedSpecOf is specOf for the statistics of outputs of type O.
func typedSpecOf[O any](acc any) (spec, bool, error) {
	switch a := acc.(type) {
	case interface{ Distinct() int }: // a *stat.Freq[O]
		return spec{Stat: statFreq}, true, nil
	case interface{ Groupings() []stat.Grouping }:
		return groupsSpec[O](a.Groupings())
	}
	return spec{}, false, nil
}

// groupsSpec is the spec of the counts of groupings gs. A grouping of a
// vector's score is drawn here (ok false).
func groupsSpec[O any](gs []stat.Grouping) (spec, bool, error) {
	sp := spec{Stat: statGroups}
	index := map[*stat.Partition]int{}
	for _, g := range gs {
		gst := groupingState{Groups: g.Groups, Partition: -1, OfCell: g.OfCell, Unlisted: g.Unlisted, UnlistedBuckets: g.UnlistedBuckets}
		if g.Partition != nil {
			i, seen := index[g.Partition]
			if !seen {
				ps, err := g.Partition.State()
				if err != nil {
					return spec{}, false, nil
				}
				i = len(sp.Partitions)
				index[g.Partition] = i
				sp.Partitions = append(sp.Partitions, ps)
			}
			gst.Partition = i
		}
		if g.OfValue != nil {
			values := make([]O, 0, len(g.OfValue))
			for v, k := range g.OfValue {
				o, ok := v.(O)
				if !ok {
					return spec{}, false, fmt.Errorf("sampler: grouped value %v (%T) is not an output of this mechanism", v, v)
				}
				values = append(values, o)
				gst.Keys = append(gst.Keys, k)
			}
			enc, err := encodeValues(values)
			if err != nil {
				return spec{}, false, err
			}
			gst.Values = enc
		}
		sp.Groupings = append(sp.Groupings, gst)
	}
	return sp, true, nil
}

// encodeValues encodes grouped values, all of one type, as a slice of it.
func encodeValues[O any](values []O) ([]byte, error) {
	enc, err := encode(values)
	if err != nil {
		return nil, fmt.Errorf("outputs of type %T cannot be sent to workers (they must encode with encoding/gob): %w", *new(O), err)
	}
	return enc, nil
}

// newFromSpec builds the empty statistic a spec describes.
func newFromSpec[O comparable](sp spec) (any, error) {
	parts := make([]*stat.Partition, len(sp.Partitions))
	for i, ps := range sp.Partitions {
		p, err := stat.PartitionFrom(ps)
		if err != nil {
			return nil, err
		}
		parts[i] = p
	}
	counts := func() *stat.PartitionCounts {
		if sp.Keep > 0 {
			return stat.NewTailCounts(parts[0], sp.Keep)
		}
		return stat.NewPartitionCounts(parts[0])
	}
	switch sp.Stat {
	case statCounts:
		return counts(), nil
	case statGridded:
		return &cellsAndValues{cells: counts(), values: stat.NewFreq[float64]()}, nil
	case statFreq:
		return stat.NewFreq[O](), nil
	case statGroups:
		gs, err := groupingsFrom[O](sp.Groupings, parts)
		if err != nil {
			return nil, err
		}
		newCounts, err := stat.NewGroupCounts[O](gs)
		if err != nil {
			return nil, err
		}
		return newCounts(), nil
	}
	return nil, fmt.Errorf("sampler: a task's statistic %q is unknown", sp.Stat)
}

func groupingsFrom[O comparable](states []groupingState, parts []*stat.Partition) ([]stat.Grouping, error) {
	gs := make([]stat.Grouping, len(states))
	for k, s := range states {
		g := stat.Grouping{Groups: s.Groups, OfCell: s.OfCell, Unlisted: s.Unlisted, UnlistedBuckets: s.UnlistedBuckets}
		if s.Partition >= 0 {
			g.Partition = parts[s.Partition]
		}
		if s.Values != nil {
			var values []O
			if err := decode(s.Values, &values); err != nil || len(values) != len(s.Keys) {
				return nil, fmt.Errorf("sampler: a task's grouped values do not decode as %T", values)
			}
			g.OfValue = make(map[any]int, len(values))
			for i, v := range values {
				g.OfValue[v] = s.Keys[i]
			}
		}
		gs[k] = g
	}
	return gs, nil
}

// runTyped makes a task's blocks first to last−1 with draw.
func runTyped[O comparable](t task, draw func(*rand.Rand) O, first, last int) (result, error) {
	acc, err := newFromSpec[O](t.Spec)
	if err != nil {
		return result{}, err
	}
	st := Stream{Seed: t.Seed, ID: t.ID, PerDraw: t.PerDraw}
	check := stat.CheckCountable[O]
	if t.Output == "real" {
		check = any(stat.CheckFinite).(func(O) error)
	}
	realDraw, isReal := any(draw).(func(*rand.Rand) float64)
	if _, cells := acc.(*stat.GroupCounts[O]); !cells && t.Spec.Stat != statFreq && !isReal {
		return result{}, fmt.Errorf("sampler: a task counting real outputs for a mechanism of %T outputs", *new(O))
	}
	var r result
	switch a := acc.(type) {
	case *stat.PartitionCounts:
		r = runBlocks(st, t.N, first, last, a, realDraw, stat.CheckFinite)
	case *cellsAndValues:
		r = runBlocks(st, t.N, first, last, a, realDraw, stat.CheckFinite)
	case *stat.Freq[O]:
		r = runBlocks(st, t.N, first, last, a, draw, check)
	case *stat.GroupCounts[O]:
		r = runBlocks(st, t.N, first, last, a, draw, check)
	}
	if r.Failed {
		return r, nil
	}
	out, err := resultOf[O](acc)
	out.Calls = r.Calls
	return out, err
}

// resultOf is a filled statistic as a result.
func resultOf[O any](acc any) (result, error) {
	switch a := acc.(type) {
	case *stat.PartitionCounts:
		return result{Counts: a.State()}, nil
	case *cellsAndValues:
		r := result{Counts: a.cells.State(), NoValues: a.values == nil}
		if a.values != nil {
			enc, err := encodeFreq[float64](a.values)
			r.Values, r.ValuesN = enc, a.values.N
			return r, err
		}
		return r, nil
	case valueTable:
		enc, err := encodeFreq[O](a)
		return result{Values: enc, ValuesN: a.(interface{ Total() int64 }).Total()}, err
	case groupCounts:
		in, n := a.Counts()
		return result{Groups: in, GroupsN: n}, nil
	}
	return result{}, fmt.Errorf("sampler: a statistic of type %T does not travel", acc)
}

// valueTable and groupCounts are a *stat.Freq[O] and a *stat.GroupCounts[O]
// for outputs of any type O.
type (
	valueTable interface {
		Entries() (keys any, counts []int64)
		SetEntries(keys any, counts []int64, n int64) error
	}
	groupCounts interface {
		Counts() ([][]int64, int64)
		SetCounts(in [][]int64, n int64) error
	}
)

// setResult puts a result's counts into an empty statistic of its spec.
func setResult[O any](acc any, r result) error {
	switch a := acc.(type) {
	case *stat.PartitionCounts:
		return a.SetState(r.Counts)
	case *cellsAndValues:
		if r.NoValues {
			a.values = nil
		} else if err := decodeFreq[float64](r.Values, r.ValuesN, a.values); err != nil {
			return err
		}
		return a.cells.SetState(r.Counts)
	case valueTable:
		return decodeFreq[O](r.Values, r.ValuesN, a)
	case groupCounts:
		return a.SetCounts(r.Groups, r.GroupsN)
	}
	return fmt.Errorf("sampler: a statistic of type %T does not travel", acc)
}

// mergeAny merges two statistics of one spec.
func mergeAny[O comparable](a, b any) error {
	switch x := a.(type) {
	case *stat.PartitionCounts:
		x.Merge(b.(*stat.PartitionCounts))
	case *cellsAndValues:
		x.Merge(b.(*cellsAndValues))
	case *stat.Freq[O]:
		x.Merge(b.(*stat.Freq[O]))
	case *stat.GroupCounts[O]:
		x.Merge(b.(*stat.GroupCounts[O]))
	default:
		return fmt.Errorf("sampler: a statistic of type %T does not travel", a)
	}
	return nil
}

func encodeFreq[O any](t valueTable) ([]byte, error) {
	keys, counts := t.Entries()
	enc, err := encode(freqState[O]{Keys: keys.([]O), Counts: counts})
	if err != nil {
		return nil, fmt.Errorf("outputs of type %T cannot be sent back from workers (they must encode with encoding/gob): %w", *new(O), err)
	}
	return enc, nil
}

func decodeFreq[O any](data []byte, n int64, into valueTable) error {
	var s freqState[O]
	if err := decode(data, &s); err != nil || len(s.Keys) != len(s.Counts) {
		return fmt.Errorf("sampler: a result's values do not decode as %T", *new(O))
	}
	return into.SetEntries(s.Keys, s.Counts, n)
}
