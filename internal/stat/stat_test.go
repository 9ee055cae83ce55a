package stat

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 7)) }

func TestLinearBinning(t *testing.T) {
	g := Grid{Lo: 0, Step: 1, Points: 5}
	b := NewBinned(g)
	b.Add(1.25) // 0.75 to point 1, 0.25 to point 2
	b.Add(-3)   // clamped to point 0, below
	b.Add(4)    // exactly the last point: not outside
	b.Add(9)    // clamped to point 4, above
	require.Equal(t, []float64{0.25, 0.75 / 4, 0.25 / 4, 0, 0.5}, b.Masses())
	require.Equal(t, int64(1), b.Below)
	require.Equal(t, int64(1), b.Above)
	require.Equal(t, 0.5, b.OutsideShare())
	var total uint64
	for _, w := range b.Weights {
		total += w
	}
	require.Equal(t, uint64(4*binUnit), total)
	require.Panics(t, func() { b.Add(math.NaN()) })
}

// Merging is integer addition, so any split of a sample gives bit-identical
// weights.
func TestBinnedMergeIsExact(t *testing.T) {
	g := Grid{Lo: -5, Step: 10.0 / 999, Points: 1000}
	r := newRand(1)
	vals := make([]float64, 10000)
	for i := range vals {
		vals[i] = r.NormFloat64() * 2
	}
	whole := NewBinned(g)
	for _, v := range vals {
		whole.Add(v)
	}
	parts := []*Binned{NewBinned(g), NewBinned(g), NewBinned(g)}
	for i, v := range vals {
		parts[(i*7)%3].Add(v)
	}
	merged := NewBinned(g)
	for _, p := range []int{2, 0, 1} {
		merged.Merge(parts[p])
	}
	require.Equal(t, whole.Weights, merged.Weights)
	require.Equal(t, whole.N, merged.N)
	require.Equal(t, whole.Below+whole.Above, merged.Below+merged.Above)
	require.Panics(t, func() { merged.Merge(NewBinned(Grid{Lo: 0, Step: 1, Points: 1000})) })
}

func normalSample(seed uint64, n int, mu, sigma float64) []float64 {
	r := newRand(seed)
	v := make([]float64, n)
	for i := range v {
		v[i] = mu + sigma*r.NormFloat64()
	}
	return v
}

func binAll(g Grid, vals []float64) *Binned {
	b := NewBinned(g)
	for _, v := range vals {
		b.Add(v)
	}
	return b
}

// The kernel estimate of a N(0,1) sample with bandwidth h estimates the
// N(0, 1+h²) density; its error at every grid point must be within 5 of its
// own estimated standard deviations plus the binning error, and its
// estimated variance must match the variance seen over independent samples.
func TestDensityAgainstTruthAndVariance(t *testing.T) {
	const n, h = 20000, 0.2
	g, err := GridFor(normalSample(1, 4096, 0, 1), normalSample(2, 4096, 0, 1), n)
	require.NoError(t, err)
	s := math.Sqrt(1 + h*h)
	truth := func(x float64) float64 { return math.Exp(-x*x/(2*s*s)) / (s * math.Sqrt(2*math.Pi)) }

	const reps = 200
	mid := g.Points / 2 // a grid point near 0
	var vals []float64
	var meanVar float64
	for rep := 0; rep < reps; rep++ {
		b := binAll(g, normalSample(uint64(100+rep), n, 0, 1))
		d, v := b.Density(h, nil, 0)
		vals = append(vals, d[mid])
		meanVar += v[mid] / reps
		if rep == 0 {
			integral := 0.0
			for i := range d {
				integral += d[i] * g.Step
				if x := g.At(i); math.Abs(x) < 3 {
					require.InDelta(t, truth(x), d[i], 5*math.Sqrt(v[i])+1e-3, "x=%v", x)
				}
			}
			require.InDelta(t, 1, integral, 1e-9)
		}
	}
	m, ss := 0.0, 0.0
	for _, v := range vals {
		m += v / reps
	}
	for _, v := range vals {
		ss += (v - m) * (v - m) / (reps - 1)
	}
	// With 200 replicates the sample variance is within ±30% of the true
	// one with probability > 0.999 (chi-square with 199 df).
	require.InEpsilon(t, ss, meanVar, 0.3)
}

// TestDensityConservesMassOnCoarseGrids checks that the estimate keeps the
// binned mass when the bandwidth is below two grid steps, where the Gaussian
// sampled on the grid alone sums to more than one (1.22 at h = step/3), and
// that the variance stays that of the normalised kernel: at h ≪ step the
// estimate is the linearly binned histogram m_i/step, with variance
// m_i(1 − m_i)/(n·step²).
func TestDensityConservesMassOnCoarseGrids(t *testing.T) {
	const n = 50000
	g, err := GridFor(normalSample(1, 4096, 0, 1), normalSample(2, 4096, 0, 1), n)
	require.NoError(t, err)
	b := binAll(g, normalSample(3, n, 0, 1))
	masses := b.Masses()
	for _, f := range []float64{0.05, 1.0 / 3, 0.5, 1, 1.5, 3} {
		d, v := b.Density(f*g.Step, nil, 0)
		integral := 0.0
		for i := range d {
			integral += d[i] * g.Step
		}
		require.InDelta(t, 1, integral, 1e-9, "h = %v steps", f)
		if f == 0.05 {
			mid := g.Points / 2
			require.InEpsilon(t, masses[mid]/g.Step, d[mid], 1e-9)
			require.InEpsilon(t, masses[mid]*(1-masses[mid])/(n*g.Step*g.Step), v[mid], 1e-6)
		}
	}
}

func TestPluginBandwidth(t *testing.T) {
	// For normal data the direct plug-in is close to the AMISE-optimal
	// bandwidth (4/(3n))^{1/5}·σ = 1.059·σ·n^{−1/5}.
	for _, sigma := range []float64{1e-3, 1, 1e4} {
		n := 100000
		x := normalSample(3, n, 5*sigma, sigma)
		g, err := GridFor(x[:4096], x[4096:8192], n)
		require.NoError(t, err)
		h, err := PluginBandwidth(binAll(g, x))
		require.NoError(t, err)
		require.InEpsilon(t, 1.059*sigma*math.Pow(float64(n), -0.2), h, 0.1, "σ=%v", sigma)
	}
	// A point mass has no bandwidth.
	g := Grid{Lo: 0, Step: 1, Points: 100}
	b := NewBinned(g)
	for i := 0; i < 5000; i++ {
		b.Add(50.3)
	}
	_, err := PluginBandwidth(b)
	require.ErrorIs(t, err, ErrNoSpread)
}

func TestGridFor(t *testing.T) {
	_, err := GridFor([]float64{1, 1}, []float64{1, 1}, 1000)
	require.ErrorIs(t, err, ErrPointMass)
	_, err = GridFor([]float64{1, math.NaN()}, []float64{1, 2}, 1000)
	require.Error(t, err)
	_, err = GridFor([]float64{1}, nil, 1000)
	require.Error(t, err)
	x := normalSample(4, 4096, 0, 1)
	g, err := GridFor(x, x, 1000000)
	require.NoError(t, err)
	require.GreaterOrEqual(t, g.Points, MinPoints)
	require.LessOrEqual(t, g.Points, MaxPoints)
	// The grid scales with the data.
	y := make([]float64, len(x))
	for i := range x {
		y[i] = 1000 * x[i]
	}
	g2, err := GridFor(y, y, 1000000)
	require.NoError(t, err)
	require.Equal(t, g.Points, g2.Points)
	require.InEpsilon(t, 1000*g.Step, g2.Step, 1e-12)
}

// A sample with a narrow core inside a far wider component: 44% of the
// values from N(0, 1), 56% from N(0, 10¹²), the quartiles in the wide part.
// The heavy-tail transform and the grid must be sized by the core, so that
// the core spans several units of u = T(t) and many grid steps; a plain
// normal sample keeps the quartile scale (CoreRatio is not reached).
func TestCoreScale(t *testing.T) {
	core := normalSample(7, 1800, 0, 1)
	wide := normalSample(8, 2296, 0, 1e12)
	pooled := append(core, wide...)
	slices.Sort(pooled)
	tr, _, ok := HeavyTailTransform(pooled)
	require.True(t, ok)
	require.Greater(t, tr(1)-tr(-1), 0.5, "the core is squeezed into a fraction of a unit")
	var us []float64
	for _, v := range pooled {
		us = append(us, tr(v))
	}
	slices.Sort(us)
	g, err := GridForSorted(us, 1000000)
	require.NoError(t, err)
	require.Greater(t, (tr(1)-tr(-1))/g.Step, 100.0, "the core spans too few grid steps")

	x := normalSample(9, 4096, 0, 1)
	slices.Sort(x)
	require.Greater(t, coreScale(x), sortedScale(x)/CoreRatio)
	_, _, ok = HeavyTailTransform(x)
	require.False(t, ok)
}

func TestSparseRuns(t *testing.T) {
	g := Grid{Lo: -10, Step: 0.01, Points: 2001}
	x := normalSample(5, 20000, 0, 1)
	y := normalSample(6, 20000, 0.5, 1)
	p, q := binAll(g, x), binAll(g, y)
	pd, _ := p.Density(0.1, nil, 0)
	qd, _ := q.Density(0.1, nil, 0)
	keep, runs := SparseRuns(pd, qd, p.N, q.N, 0.1, 100, p, q)
	require.Len(t, runs, 2, "the two tails")
	require.Equal(t, 0, runs[0][0])
	require.Equal(t, g.Points-1, runs[1][1])
	require.False(t, keep[0])
	require.True(t, keep[1000])
	tail := p.RunMass(runs[0][0], runs[0][1], 0) + p.RunMass(runs[1][0], runs[1][1], 0)
	// Sparse means 0.1·(20000·p̂ + 20000·q̂) < 100, a mean density below
	// 0.025, reached about 2.25 sd beyond each mean: some 2% of the mass.
	require.Greater(t, tail, 0.005)
	require.Less(t, tail, 0.04)
}

func TestTabulateIsOrderedByCounts(t *testing.T) {
	p, q := NewFreq[string](), NewFreq[string]()
	for _, v := range []string{"a", "b", "b", "c", "c", "c"} {
		p.Add(v)
	}
	for _, v := range []string{"c", "d"} {
		q.Add(v)
	}
	tab := Tabulate(p, q)
	require.Equal(t, []Cell{{"d", 0, 1}, {"a", 1, 0}, {"b", 2, 0}, {"c", 3, 1}}, tab.Cells)
	nx, ny := tab.Sizes()
	require.Equal(t, [2]int64{6, 2}, [2]int64{nx, ny})
	r := NewFreq[string]()
	r.Merge(p)
	r.Merge(q)
	require.Equal(t, int64(8), r.N)
	require.Equal(t, int64(4), r.Counts["c"])
}

// GridFor is GridForSorted of the two pilots pooled.
func GridFor(pilotX, pilotY []float64, n int) (Grid, error) {
	pooled := append(slices.Clone(pilotX), pilotY...)
	slices.Sort(pooled)
	return GridForSorted(pooled, n)
}

// A table counted again in its own cells on other draws, and pooled with
// them: values keep their cells, values the first table never saw are
// Unlisted, and pooling adds the counts.
func TestCellGroupingRecountedPooled(t *testing.T) {
	p, q := NewFreq[string](), NewFreq[string]()
	for _, v := range []string{"a", "a", "b"} {
		p.Add(v)
	}
	q.Add("b")
	first := Tabulate(p, q)
	g := CellGrouping(first)
	require.Equal(t, len(first.Cells)+1, g.Groups)
	counts, err := NewGroupCounts[string]([]Grouping{g})
	require.NoError(t, err)
	cp, cq := counts(), counts()
	for _, v := range []string{"a", "c", "c"} {
		cp.Add(v)
	}
	cq.Add("b")
	held := Recounted(first, cp.In[0], cq.In[0], cp.N, cq.N)
	byValue := map[any]Cell{}
	for _, c := range held.Cells {
		byValue[c.Value] = c
	}
	require.Equal(t, Cell{Value: "a", P: 1}, byValue["a"])
	require.Equal(t, Cell{Value: "b", Q: 1}, byValue["b"])
	require.Equal(t, Cell{Value: Unlisted{}, P: 2}, byValue[Unlisted{}])
	pooled := Pooled(first, held)
	require.Equal(t, int64(6), pooled.NP)
	require.Equal(t, int64(2), pooled.NQ)
	require.ElementsMatch(t, []Cell{{Value: "a", P: 3}, {Value: "b", P: 1, Q: 2}}, pooled.Cells)
}

// WithUnlisted adds to a pooled table a cell of the values its first half
// did not list, with the held-out half's draws of them scaled to the
// pooled draws per side: here 2 of X's 3 held draws, so 4 of the 6 pooled
// ones, and none of Y's. Without such draws, or for a partition, the
// table is returned as it is.
func TestWithUnlistedKeepsTheHeldOutHalfsUnlistedDraws(t *testing.T) {
	first := &Table{NP: 3, NQ: 1, Cells: []Cell{{Value: "a", P: 2}, {Value: "b", P: 1, Q: 1}}}
	held := Recounted(first, []int64{1, 0, 2}, []int64{0, 1, 0}, 3, 1)
	pooled := Pooled(first, held)
	with := WithUnlisted(pooled, held)
	require.Equal(t, append(slices.Clone(pooled.Cells), Cell{Value: Unlisted{}, P: 4}), with.Cells)
	require.Equal(t, pooled.NP, with.NP)
	require.Len(t, pooled.Cells, 2, "the pooled table is not changed")

	none := Recounted(first, []int64{1, 2, 0}, []int64{0, 1, 0}, 3, 1)
	require.Same(t, pooled, WithUnlisted(pooled, none))
	part := &Table{NP: 3, NQ: 1, Partition: &Partition{}}
	require.Same(t, part, WithUnlisted(part, held))
}
