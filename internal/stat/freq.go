package stat

import "fmt"

// Freq is a frequency table of discrete outputs: Counts[o] samples equalled
// o, out of N. The relative frequency Counts[o]/N is the estimator f̂ of
// [KAD24] eq. (9). Tables merge by adding counts.
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

// Distinct is the number of distinct outputs counted.
func (f *Freq[O]) Distinct() int { return len(f.Counts) }

// Entries returns the counted outputs, as a []O, and their counts, in no
// order: the table as plain values, for statistics shipped elsewhere.
func (f *Freq[O]) Entries() (keys any, counts []int64) {
	ks := make([]O, 0, len(f.Counts))
	counts = make([]int64, 0, len(f.Counts))
	for k, c := range f.Counts {
		ks = append(ks, k)
		counts = append(counts, c)
	}
	return ks, counts
}

// SetEntries replaces the table with the outputs keys (a []O) counted
// counts times, out of n.
func (f *Freq[O]) SetEntries(keys any, counts []int64, n int64) error {
	ks, ok := keys.([]O)
	if !ok || len(ks) != len(counts) {
		return fmt.Errorf("stat: entries of type %T for a table of %T", keys, *new(O))
	}
	f.Counts = make(map[O]int64, len(ks))
	for i, k := range ks {
		f.Counts[k] += counts[i]
	}
	f.N = n
	return nil
}

// Total is the number of outputs counted.
func (f *Freq[O]) Total() int64 { return f.N }
