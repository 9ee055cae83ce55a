package stat

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Vectors collects vector outputs of one length Dim, row after row: a
// sample a score is learned from. Workers deliver their rows in no
// particular order; [Vectors.SortRows] fixes one.
type Vectors struct {
	Dim int
	V   []float64
}

// NewVectors returns an empty collection of vectors of length dim with
// room for rows of them.
func NewVectors(dim, rows int) *Vectors {
	return &Vectors{Dim: dim, V: make([]float64, 0, dim*rows)}
}

// Add copies one output (the mechanism may reuse its slice).
func (v *Vectors) Add(x []float64) { v.V = append(v.V, x...) }

// Merge appends the rows of o.
func (v *Vectors) Merge(o *Vectors) { v.V = append(v.V, o.V...) }

// Rows returns the number of vectors collected.
func (v *Vectors) Rows() int { return len(v.V) / v.Dim }

// Row returns vector i (not a copy).
func (v *Vectors) Row(i int) []float64 { return v.V[i*v.Dim : (i+1)*v.Dim] }

// SortRows orders the rows lexicographically, so that sums over them, and
// every score learned from them, are the same bit for bit whichever worker
// drew which row.
func (v *Vectors) SortRows() {
	idx := make([]int, v.Rows())
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ra, rb := v.Row(a), v.Row(b)
		for j := range ra {
			if c := cmp.Compare(ra[j], rb[j]); c != 0 {
				return c
			}
		}
		return 0
	})
	sorted := make([]float64, 0, len(v.V))
	for _, i := range idx {
		sorted = append(sorted, v.Row(i)...)
	}
	v.V = sorted
}

// Column returns coordinate j of every row.
func (v *Vectors) Column(j int) []float64 {
	c := make([]float64, v.Rows())
	for i := range c {
		c[i] = v.V[i*v.Dim+j]
	}
	return c
}

// CheckVector accepts a vector output of length dim with every
// coordinate finite.
func CheckVector(v []float64, dim int) error {
	if len(v) != dim {
		return fmt.Errorf("output of length %d: a Vector mechanism's outputs must all have the length of its first, %d", len(v), dim)
	}
	for j, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("output coordinate %d is %v: vector outputs must be finite", j, x)
		}
	}
	return nil
}

// VectorGroupCounts is the statistic of groupings of vector outputs, each
// grouping the cells of a partition of a score's values
// ([Partition.Score]): an output is scored once per distinct partition,
// then counted as a real output. It merges by addition.
type VectorGroupCounts struct {
	parts  []*Partition
	counts []*GroupCounts[float64]
	where  [][2]int // grouping k is grouping where[k][1] of counts[where[k][0]]
}

// NewVectorGroupCounts compiles groupings of vector outputs; a grouping
// that does not group the cells of a scored partition is an error.
func NewVectorGroupCounts(gs []Grouping) (func() *VectorGroupCounts, error) {
	var parts []*Partition
	var sub [][]Grouping
	where := make([][2]int, len(gs))
	for k, g := range gs {
		if g.Partition == nil || g.Partition.Score == nil {
			return nil, fmt.Errorf("stat: grouping %d does not group a score's cells, so it cannot count vector outputs", k)
		}
		i := slices.Index(parts, g.Partition)
		if i < 0 {
			i = len(parts)
			parts = append(parts, g.Partition)
			sub = append(sub, nil)
		}
		where[k] = [2]int{i, len(sub[i])}
		sub[i] = append(sub[i], g)
	}
	news := make([]func() *GroupCounts[float64], len(parts))
	for i := range parts {
		f, err := NewGroupCounts[float64](sub[i])
		if err != nil {
			return nil, err
		}
		news[i] = f
	}
	return func() *VectorGroupCounts {
		c := &VectorGroupCounts{parts: parts, where: where, counts: make([]*GroupCounts[float64], len(parts))}
		for i, f := range news {
			c.counts[i] = f()
		}
		return c
	}, nil
}

// Add counts one output.
func (c *VectorGroupCounts) Add(v []float64) {
	for i, p := range c.parts {
		c.counts[i].Add(p.Score.Of(v))
	}
}

// Merge adds the counts of o.
func (c *VectorGroupCounts) Merge(o *VectorGroupCounts) {
	for i := range c.counts {
		c.counts[i].Merge(o.counts[i])
	}
}

// In returns the counts per grouping, in the order the groupings were
// given: In()[k][g] outputs lay in group g of grouping k.
func (c *VectorGroupCounts) In() [][]int64 {
	in := make([][]int64, len(c.where))
	for k, w := range c.where {
		in[k] = c.counts[w[0]].In[w[1]]
	}
	return in
}

// ScoredValues collects the scores of vector outputs under several scores
// at once (a pilot sample): V[i] holds the values of Scores[i].
type ScoredValues struct {
	Scores []*Score
	V      [][]float64
}

// NewScoredValues returns an empty collection for the scores.
func NewScoredValues(scores []*Score) *ScoredValues {
	return &ScoredValues{Scores: scores, V: make([][]float64, len(scores))}
}

// Add scores one output by every score.
func (s *ScoredValues) Add(v []float64) {
	for i, sc := range s.Scores {
		s.V[i] = append(s.V[i], sc.Of(v))
	}
}

// Merge appends the scores of o.
func (s *ScoredValues) Merge(o *ScoredValues) {
	for i := range s.V {
		s.V[i] = append(s.V[i], o.V[i]...)
	}
}

// ScoredCells counts vector outputs in the cells of several partitions of
// scores' values at once (each partition's Score).
type ScoredCells struct{ In []*PartitionCounts }

// NewScoredCells returns an empty statistic on the partitions, which must
// be scored, keeping the extremes of each for [RefineTails].
func NewScoredCells(parts []*Partition) *ScoredCells {
	c := &ScoredCells{In: make([]*PartitionCounts, len(parts))}
	for i, p := range parts {
		c.In[i] = NewTailCounts(p, TailKeep)
	}
	return c
}

// Add scores one output by each partition's score and counts it in its
// cell.
func (s *ScoredCells) Add(v []float64) {
	for _, c := range s.In {
		c.Add(c.Part.Score.Of(v))
	}
}

// Merge adds the counts of o.
func (s *ScoredCells) Merge(o *ScoredCells) {
	for i, c := range s.In {
		c.Merge(o.In[i])
	}
}
