package stat

import "errors"

// Statistics drawn on other machines travel as plain values: the design a
// worker needs to build an empty statistic (a partition, groupings), and
// the counts it sends back. Every field is exported so that encoding/gob
// carries it bit for bit (±Inf included).

// PartitionState is a real-output partition as a plain value.
type PartitionState struct {
	Bounds             []float64
	Atom               []bool
	FarBelow, FarAbove float64
	HasBelow, HasAbove bool
}

// State returns p as a plain value. A vector's partition, which cuts a
// score, has none: its score does not travel.
func (p *Partition) State() (PartitionState, error) {
	if p.Score != nil {
		return PartitionState{}, errors.New("stat: a partition of a vector's score cannot be shipped")
	}
	return PartitionState{
		Bounds: p.bounds, Atom: p.atom,
		FarBelow: p.far.below, FarAbove: p.far.above,
		HasBelow: p.far.hasBelow, HasAbove: p.far.hasAbove,
	}, nil
}

// PartitionFrom rebuilds the partition whose State is s.
func PartitionFrom(s PartitionState) (*Partition, error) {
	if len(s.Atom) != len(s.Bounds)+1 {
		return nil, errors.New("stat: a shipped partition's atoms do not match its cells")
	}
	return &Partition{bounds: s.Bounds, atom: s.Atom, far: farLimits{
		below: s.FarBelow, above: s.FarAbove, hasBelow: s.HasBelow, hasAbove: s.HasAbove,
	}}, nil
}

// CountsState is what a PartitionCounts has counted, as a plain value.
type CountsState struct {
	In               []int64
	N                int64
	Low, High, Inner []float64
	InnerOver        bool
}

// TailKeeping reports how c keeps its tails: keep as in [NewTailCounts]
// (0 for [NewPartitionCounts]).
func (c *PartitionCounts) TailKeeping() int { return c.keep }

// State returns c's counts as a plain value.
func (c *PartitionCounts) State() CountsState {
	return CountsState{In: c.In, N: c.N, Low: c.low, High: c.high, Inner: c.inner, InnerOver: c.innerOver}
}

// SetState replaces c's counts with s, counted elsewhere on the same
// partition with the same tail keeping.
func (c *PartitionCounts) SetState(s CountsState) error {
	if len(s.In) != len(c.In) {
		return errors.New("stat: shipped counts do not match the partition's cells")
	}
	c.In, c.N, c.low, c.high, c.inner, c.innerOver = s.In, s.N, s.Low, s.High, s.Inner, s.InnerOver
	return nil
}

// Groupings returns the groupings c counts, as given to NewGroupCounts.
func (c *GroupCounts[O]) Groupings() []Grouping { return c.groupings }

// Counts returns c's counts: In and N.
func (c *GroupCounts[O]) Counts() ([][]int64, int64) { return c.In, c.N }

// SetCounts replaces c's counts with in and n, counted elsewhere on the
// same groupings.
func (c *GroupCounts[O]) SetCounts(in [][]int64, n int64) error {
	if len(in) != len(c.In) {
		return errors.New("stat: shipped counts do not match the groupings")
	}
	for k := range in {
		if len(in[k]) != len(c.In[k]) {
			return errors.New("stat: shipped counts do not match the groupings")
		}
	}
	c.In, c.N = in, n
	return nil
}
