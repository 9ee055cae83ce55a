package density

import (
	"cmp"
	"slices"
)

// Freq is a frequency table of discrete outputs: Counts[o] samples equalled
// o, out of N. The relative frequency Counts[o]/N is the estimator f̂ of seed
// 002 eq. (9). Tables merge by adding counts.
type Freq[O comparable] struct {
	Counts map[O]int64
	N      int64
}

// NewFreq returns an empty table.
func NewFreq[O comparable]() *Freq[O] { return &Freq[O]{Counts: make(map[O]int64)} }

// Add counts one output.
func (f *Freq[O]) Add(o O) {
	f.Counts[o]++
	f.N++
}

// Merge adds the counts of g into f.
func (f *Freq[O]) Merge(g *Freq[O]) {
	for o, c := range g.Counts {
		f.Counts[o] += c
	}
	f.N += g.N
}

// CountPair is the number of samples of p and of q that took one value.
type CountPair struct{ P, Q int64 }

// Joint returns, for every value observed in p or q, its two counts, sorted
// by (P, Q). The order depends only on the counts, never on map iteration,
// so sums over the result are bit-identical from run to run.
func Joint[O comparable](p, q *Freq[O]) []CountPair {
	out := make([]CountPair, 0, len(p.Counts)+len(q.Counts))
	for o, c := range p.Counts {
		out = append(out, CountPair{c, q.Counts[o]})
	}
	for o, c := range q.Counts {
		if _, seen := p.Counts[o]; !seen {
			out = append(out, CountPair{0, c})
		}
	}
	slices.SortFunc(out, func(a, b CountPair) int {
		if c := cmp.Compare(a.P, b.P); c != 0 {
			return c
		}
		return cmp.Compare(a.Q, b.Q)
	})
	return out
}
