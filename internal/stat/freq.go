package stat

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
