package renyi

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/dptest/dptest/internal/stat"
)

// TwoPoint against the definition and its limits.
func TestTwoPoint(t *testing.T) {
	for _, c := range []struct{ a, b, lambda float64 }{{0.3, 0.1, 2}, {7.4e-4, 1e-4, 20}, {0.5, 0.5, 5}, {0.01, 0.2, 1.5}} {
		want := math.Log(math.Pow(c.a, c.lambda)*math.Pow(c.b, 1-c.lambda)+math.Pow(1-c.a, c.lambda)*math.Pow(1-c.b, 1-c.lambda)) / (c.lambda - 1)
		require.InDelta(t, want, TwoPoint(c.a, c.b, c.lambda), 1e-12*(1+want), "%+v", c)
	}
	require.True(t, math.IsInf(TwoPoint(0.05, 0, 3), 1), "an event one side never produces: infinite")
	require.InDelta(t, 0.0, TwoPoint(0.2, 0.2, 64), 1e-15)
	// Order 10⁴ on probabilities of 10⁻³⁰⁰ stays finite (log space).
	require.False(t, math.IsInf(TwoPoint(1e-300, 1e-301, 1e4), 0))
}

// EventBound covers: over many simulated confirmations of an event with
// P(E) = a, Q(E) = b, the bound exceeds the true two-point divergence (so
// the true D_λ) in at most alpha of them. With a count of zero on one side
// the bound is large and finite.
func TestEventBoundCovers(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	const n, reps, alpha = 1_000_000, 4000, 0.05
	for _, c := range []struct{ a, b, lambda float64 }{{7.4e-4, 1e-4, 20}, {7.4e-5, 1e-5, 10}, {0.3, 0.2, 2}} {
		truth := TwoPoint(c.a, c.b, c.lambda)
		pa, pb := distuv.Poisson{Lambda: c.a * n, Src: r}, distuv.Poisson{Lambda: c.b * n, Src: r}
		over := 0
		for i := 0; i < reps; i++ {
			if EventBound(int64(pa.Rand()), n, int64(pb.Rand()), n, c.lambda, alpha).LowerBound > truth {
				over++
			}
		}
		// Binomial(4000, 0.05) exceeds 250 with probability < 10⁻⁴.
		require.Less(t, over, 250, "%+v: %d of %d bounds above the truth %v", c, over, reps, truth)
	}
	e := EventBound(50_000, n, 0, n, 3, 0.007)
	require.Greater(t, e.LowerBound, 7.0, "5%% of outputs never seen on the other side: (3 ln 0.049 − 2 ln(5.7·10⁻⁶))/2 ≈ 7.6")
	require.False(t, math.IsInf(e.LowerBound, 0))
	require.Equal(t, 0.0, EventBound(100, n, 100, n, 2, 0.05).LowerBound)
}

// BestEvent finds the one telling value among thousands of noise values:
// k-ary randomized response, k = 10⁴, ε₀ = 2, at λ = 20, whose true value
// is seen ~7 times as often under X as under Y, is the event chosen.
func TestBestEventFindsTheTellingValue(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const k, n = 10_000, 100_000
	keep := math.Exp(2) / (math.Exp(2) + k - 1)
	draw := func(v int) int {
		if r.Float64() < keep {
			return v
		}
		u := r.IntN(k - 1)
		if u >= v {
			u++
		}
		return u
	}
	tab := func() *stat.Table {
		p, q := stat.NewFreq[int](), stat.NewFreq[int]()
		for i := 0; i < n; i++ {
			p.Add(draw(0))
			q.Add(draw(1))
		}
		return stat.Tabulate(p, q)
	}
	order, second := tab(), tab()
	g := stat.CellGrouping(order)
	pc, qc := GroupTotals(second, g)
	held := stat.Recounted(order, pc, qc, n, n)
	event, predicted := BestEvent(order, held, 20, 1_000_000, false, 0.007)
	require.Greater(t, predicted, 0.5)
	require.Equal(t, 0, event.OfValue[0], "the true value is in the event")
	inEvent := 0
	for _, grp := range event.OfValue {
		if grp == 0 {
			inEvent++
		}
	}
	require.Less(t, inEvent, 5, "and few noise values with it")
}

// End zones hold the outputs at and beyond the screening's extremes: for a
// Gaussian shift at λ = 64 nearly all the order-λ evidence sits there; at
// λ = 2 almost none.
func TestEndZonesAndZoneShare(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	const n = 200_000
	pilot := make([]float64, 0, 32_000)
	for i := 0; i < 16_000; i++ {
		pilot = append(pilot, 5*r.NormFloat64()+1, 5*r.NormFloat64())
	}
	part := stat.PartitionOf(pilot)
	count := func(shift float64) *stat.PartitionCounts {
		c := stat.NewPartitionCounts(part)
		for i := 0; i < n; i++ {
			c.Add(5*r.NormFloat64() + shift)
		}
		return c
	}
	screen := stat.TabulateCells(count(1), count(0))
	for _, c := range []struct {
		lambda, estimate float64
		tail             bool
	}{{64, 0.4, true}, {2, 0.04, false}} {
		z, ok := EndZones(screen, c.lambda, 1_000_000)
		require.True(t, ok)
		require.Equal(t, 3, z.Groups)
		require.Equal(t, 0, z.OfCell[0])
		require.Equal(t, 2, z.OfCell[len(z.OfCell)-1])
		p, q := GroupTotals(stat.TabulateCells(count(1), count(0)), z)
		share := ZoneShare(p, q, n, c.lambda, c.estimate)
		if c.tail {
			require.Greater(t, share, 0.9, "λ=%v", c.lambda)
		} else {
			require.Less(t, share, 0.1, "λ=%v", c.lambda)
		}
	}
	z, ok := EndZones(stat.Counted([]int64{1}, []int64{1}, 1, 1), 2, 10)
	require.True(t, ok, "values have no ends")
	require.Equal(t, 0, z.Groups)
	_, ok = EndZones(screen, 256, 100_000)
	require.False(t, ok, "2·256² outputs per side and end are more than 100,000 draws hold")
}

// Without the end zones' outputs, a Gaussian shift's grouped evidence at
// λ = 64 falls tenfold; at λ = 2 it does not, nor a Laplace shift's, whose
// largest ratio holds on a half-line, even at λ = 64 (its dependence stays
// under 0.55 at six seeds tried).
func TestZoneDependence(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1))
	const n = 200_000
	gauss := func(shift float64) float64 { return 5*r.NormFloat64() + shift }
	laplace := func(shift float64) float64 { return shift + r.ExpFloat64() - r.ExpFloat64() }
	for _, c := range []struct {
		name   string
		draw   func(shift float64) float64
		lambda float64
		tail   bool
	}{{"Gaussian", gauss, 64, true}, {"Gaussian", gauss, 2, false}, {"Laplace", laplace, 64, false}} {
		pilot := make([]float64, 0, 32_000)
		for i := 0; i < 16_000; i++ {
			pilot = append(pilot, c.draw(1), c.draw(0))
		}
		part := stat.PartitionOf(pilot)
		count := func(shift float64) *stat.PartitionCounts {
			pc := stat.NewPartitionCounts(part)
			for i := 0; i < n; i++ {
				pc.Add(c.draw(shift))
			}
			return pc
		}
		screen := stat.TabulateCells(count(1), count(0))
		z, ok := EndZones(screen, c.lambda, n)
		require.True(t, ok)
		require.Equal(t, 3, z.Groups)
		require.Equal(t, 0, z.OfCell[0])
		require.Equal(t, 2, z.OfCell[len(z.OfCell)-1])
		g := Group(screen, c.lambda, n, false)
		p, q := GroupTotals(stat.TabulateCells(count(1), count(0)), stat.Product(g, z))
		dependence := ZoneDependence(p, q, 3, c.lambda, false)
		if c.tail {
			require.Greater(t, dependence, 0.9, "%s λ=%v", c.name, c.lambda)
		} else {
			require.Less(t, dependence, 0.6, "%s λ=%v", c.name, c.lambda)
		}
	}
	// An event of the most extreme outputs, wholly in the upper zone, rests
	// on it entirely; an atom at the end seen 400,000 times does not.
	rest := []int64{8000, 983_700, 8000}
	thin := ZoneDependence(append([]int64{0, 0, 300}, rest...), append([]int64{0, 0, 20}, rest...), 3, 64, false)
	require.Greater(t, thin, 0.99)
	atom := ZoneDependence([]int64{0, 0, 300_000, 8000, 684_000, 8000}, []int64{0, 0, 100_000, 8000, 884_000, 8000}, 3, 64, false)
	require.Less(t, atom, 0.01)
	// The same counts as the zones of a table of numbers are a tail's.
	tail := ZoneDependence([]int64{0, 0, 300_000, 8000, 684_000, 8000}, []int64{0, 0, 100_000, 8000, 884_000, 8000}, 3, 64, true)
	require.Greater(t, tail, 0.99)
	// A group seen inside the zones on q's side only has no evidence there.
	qOnly := ZoneDependence([]int64{0, 0, 300_000, 8000, 684_000, 8000}, []int64{0, 5, 100_000, 8000, 884_000, 8000}, 3, 64, false)
	require.Greater(t, qOnly, 0.99)
}

// PrefixGroups cuts the cells ordered by ratio into groups of about equal
// pooled count with the event's end a boundary, and picks an event even
// where no prefix predicts a positive bound.
func TestPrefixGroups(t *testing.T) {
	// 20 values: value v has P-count 100+10v and Q-count 300−10v.
	order := &stat.Table{NP: 8000, NQ: 8000}
	for v := 0; v < 20; v++ {
		order.Cells = append(order.Cells, stat.Cell{Value: v, P: int64(100 + 10*v), Q: int64(300 - 10*v)})
	}
	stat.SortCells(order.Cells)
	hockey := func(e float64) func(a, b float64) float64 {
		return func(a, b float64) float64 { return a - math.Exp(e)*b }
	}
	g, in, predicted := PrefixGroups(order, order, 100_000, false, RectanglePrediction(hockey(0.5), 0.01), 4, PenalisedKeys)
	require.Greater(t, predicted, 0.0)
	require.Greater(t, in, 0)
	require.GreaterOrEqual(t, g.Groups, 4)
	require.LessOrEqual(t, g.Groups, 6)
	for v := 0; v < 20; v++ { // the event is the values of highest ratio
		if v >= 17 {
			require.Less(t, g.OfValue[v], in, "value %d", v)
		}
		if v <= 10 {
			require.GreaterOrEqual(t, g.OfValue[v], in, "value %d", v)
		}
	}
	for v := 1; v < 20; v++ { // groups are consecutive in ratio
		require.LessOrEqual(t, g.OfValue[v], g.OfValue[v-1])
	}
	_, in, predicted = PrefixGroups(order, order, 100_000, false, RectanglePrediction(hockey(5), 0.01), 4, PenalisedKeys)
	require.Less(t, predicted, 0.0, "no positive bound at ε = 5")
	require.Greater(t, in, 0, "still an event")
}

// With LowerFirstKeys and UpperFirstKeys the prefixes are half-lines of
// outputs: for two unit Gaussians 0.2 apart at a hockey-stick weight of
// e^0.01 the best event of the higher one is the half-line above
// ε/μ + μ/2 = 0.15, δ(0.01) = 0.075, and PrefixGroups finds a run of the
// highest cells that starts within 0.25 of it (the raw ratio keys predict
// 0.039 there); in the other direction, whose best event is the
// half-line below μ/2 − ε/μ = 0.05, a run of the lowest cells. On a table
// of values the keys are ratio keys.
func TestPrefixGroupsOfHalfLines(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	const n = 50_000
	pilot := make([]float64, 0, 16_000)
	for i := 0; i < 8_000; i++ {
		pilot = append(pilot, r.NormFloat64()+0.2, r.NormFloat64())
	}
	part := stat.PartitionOf(pilot)
	count := func(shift float64) *stat.PartitionCounts {
		c := stat.NewPartitionCounts(part)
		for i := 0; i < n; i++ {
			c.Add(r.NormFloat64() + shift)
		}
		return c
	}
	order, held := stat.TabulateCells(count(0.2), count(0)), stat.TabulateCells(count(0.2), count(0))
	hockey := func(a, b float64) float64 { return a - math.Exp(0.01)*b }
	// run returns the cell where the event's run starts (from the top or
	// the bottom) and requires the event to be that one run.
	run := func(g stat.Grouping, in int, fromTop bool) int {
		edge := part.Cells()
		if !fromTop {
			edge = -1
		}
		for c := range part.Cells() {
			if g.OfCell[c] < in && (fromTop && c < edge || !fromTop && c > edge) {
				edge = c
			}
		}
		for c := range part.Cells() {
			require.Equal(t, fromTop && c >= edge || !fromTop && c <= edge, g.OfCell[c] < in, "cell %d: one run from cell %d", c, edge)
		}
		return edge
	}
	g, in, predicted := PrefixGroups(order, held, 1_000_000, false, RectanglePrediction(hockey, 0.01), 32, UpperFirstKeys)
	require.Greater(t, predicted, 0.05)
	require.InDelta(t, 0.15, part.Point(run(g, in, true)), 0.25)
	_, _, predictedLow := PrefixGroups(order, held, 1_000_000, false, RectanglePrediction(hockey, 0.01), 32, LowerFirstKeys)
	require.Less(t, predictedLow, predicted, "the lower half-lines of the higher Gaussian show less")

	g, in, predicted = PrefixGroups(order, held, 1_000_000, true, RectanglePrediction(hockey, 0.01), 32, LowerFirstKeys)
	require.Greater(t, predicted, 0.05, "the lower Gaussian against the higher")
	require.InDelta(t, 0.05, part.Point(run(g, in, false)), 0.25)

	values := &stat.Table{NP: 8000, NQ: 8000}
	for v := 0; v < 20; v++ {
		values.Cells = append(values.Cells, stat.Cell{Value: v, P: int64(100 + 10*v), Q: int64(300 - 10*v)})
	}
	stat.SortCells(values.Cells)
	want, wantIn, wantPredicted := PrefixGroups(values, values, 100_000, false, RectanglePrediction(hockey, 0.01), 4, PenalisedKeys)
	for _, keys := range []Keys{LowerFirstKeys, UpperFirstKeys} {
		g, in, predicted := PrefixGroups(values, values, 100_000, false, RectanglePrediction(hockey, 0.01), 4, keys)
		require.Equal(t, want, g, "a table of values is ordered by ratio")
		require.Equal(t, wantIn, in)
		require.Equal(t, wantPredicted, predicted)
	}
}

// Numbers are zoned in the order of their values: a tail that thins out
// (a discrete Gaussian's extreme integers, seen a few times each) is a
// zone; the last value of a bounded support, seen so often that a value
// beyond it would have been drawn (randomized response's 0 and 1), is
// not; values that are not numbers, and a single value, have no ends.
func TestEndZonesOfNumbers(t *testing.T) {
	tab := countsTable[int64]
	// Counts of N_Z(1, 2) and N_Z(0, 2) in 100,000 draws, rounded.
	gauss := func(shift int64) map[int64]int64 {
		m := map[int64]int64{}
		for x := int64(-7); x <= 8; x++ {
			d := float64(x - shift)
			if c := int64(math.Round(1e5 * math.Exp(-d*d/4) / math.Sqrt(4*math.Pi))); c > 0 {
				m[x] = c
			}
		}
		return m
	}
	z, ok := EndZones(tab(gauss(1), gauss(0)), 5, 1_000_000)
	require.True(t, ok)
	require.Equal(t, 3, z.Groups)
	require.Equal(t, 0, z.OfValue[int64(-6)], "the lower tail is a zone")
	require.Equal(t, 1, z.OfValue[int64(0)])
	require.Equal(t, 2, z.OfValue[int64(7)], "the upper tail is a zone")
	require.Equal(t, 2, z.Unlisted, "a value first drawn later lies beyond the extremes")

	rr := tab(map[int64]int64{0: 27_000, 1: 73_000}, map[int64]int64{0: 73_000, 1: 27_000})
	z, ok = EndZones(rr, 20, 1_000_000)
	require.True(t, ok)
	require.Equal(t, 0, z.Groups, "both ends are the support's own")

	// A bounded lower end (a clamp's atom at 0) and a thinning upper tail.
	clamp := gauss(1)
	clamp[0] += 50_000
	other := gauss(0)
	other[0] += 50_000
	for x := int64(-7); x < 0; x++ {
		delete(clamp, x)
		delete(other, x)
	}
	z, ok = EndZones(tab(clamp, other), 5, 1_000_000)
	require.True(t, ok)
	require.Equal(t, 1, z.OfValue[int64(0)], "the clamp's atom is a hard end")
	require.Equal(t, 2, z.OfValue[int64(7)])
	require.Equal(t, 2, z.Unlisted)

	// An error sentinel far above the rest, drawn as often as the tail's
	// last values together, is an atom: the tail behind it is the zone.
	sentinel, sentinel2 := gauss(1), gauss(0)
	sentinel[math.MaxInt64], sentinel2[math.MaxInt64] = 10, 10
	z, ok = EndZones(tab(sentinel, sentinel2), 5, 1_000_000)
	require.True(t, ok)
	require.Equal(t, 1, z.OfValue[int64(math.MaxInt64)], "the sentinel is an atom")
	require.Equal(t, 2, z.OfValue[int64(7)], "the tail behind it is a zone")

	// Integers beyond 2⁵³ keep their order (float64 would merge them).
	far := func(m map[int64]int64) map[int64]int64 {
		out := map[int64]int64{}
		for x, c := range m {
			out[1<<60+x] = c
		}
		return out
	}
	z, ok = EndZones(tab(far(gauss(1)), far(gauss(0))), 5, 1_000_000)
	require.True(t, ok)
	require.Equal(t, 0, z.OfValue[int64(1<<60-6)])
	require.Equal(t, 1, z.OfValue[int64(1<<60)])
	require.Equal(t, 2, z.OfValue[int64(1<<60+7)])

	// Two values drawn as often: atoms both, no tail at either end.
	z, ok = EndZones(tab(map[int64]int64{0: 5000, 1: 5000}, map[int64]int64{0: 5000, 1: 5000}), 20, 1_000_000)
	require.True(t, ok)
	require.Equal(t, 0, z.Groups)
	// A mode at the lower end (a count whose zero is likeliest) is the
	// support's end; the thin upper end is a tail.
	mode := map[int64]int64{0: 50_000, 1: 30_000, 2: 12_000, 3: 4_000, 4: 1_000, 5: 200, 6: 30, 7: 4, 8: 1}
	z, ok = EndZones(tab(mode, mode), 5, 1_000_000)
	require.True(t, ok)
	require.Equal(t, 1, z.OfValue[int64(0)], "the mode at the end is not a zone")
	require.Equal(t, 2, z.OfValue[int64(8)])
	require.Equal(t, 2, z.Unlisted)

	// Integers drawn a few times each: an unseen value may lie anywhere.
	wide, wide2 := map[int64]int64{}, map[int64]int64{}
	for x := int64(0); x < 1000; x++ {
		wide[x], wide2[x] = 3, 3
	}
	z, ok = EndZones(tab(wide, wide2), 2, 1_000_000)
	require.True(t, ok)
	require.Equal(t, 3, z.Groups)
	require.Equal(t, 1, z.Unlisted, "a sparse table's unseen values lie anywhere")

	fp, fq := stat.NewFreq[string](), stat.NewFreq[string]()
	fp.Add("a")
	fq.Add("b")
	z, ok = EndZones(stat.Tabulate(fp, fq), 2, 10)
	require.True(t, ok, "strings have no order, so no ends")
	require.Equal(t, 0, z.Groups)
	z, ok = EndZones(tab(map[int64]int64{3: 10}, map[int64]int64{3: 10}), 2, 10)
	require.True(t, ok, "one value has no end beyond it")
	require.Equal(t, 0, z.Groups)
	_, ok = EndZones(tab(gauss(1), gauss(0)), 256, 100_000)
	require.False(t, ok, "2·256² outputs per side and end are more than 100,000 draws hold")
}

// countsTable tabulates the counts p and q of two samples of values.
func countsTable[V comparable](p, q map[V]int64) *stat.Table {
	fp, fq := stat.NewFreq[V](), stat.NewFreq[V]()
	for v, c := range p {
		fp.Counts[v], fp.N = c, fp.N+c
	}
	for v, c := range q {
		fq.Counts[v], fq.N = c, fq.N+c
	}
	return stat.Tabulate(fp, fq)
}

// Every end of the observed support has a tail or not, the two sides of
// each gap inside it as much as the table's own two.
func TestZonesBesideGaps(t *testing.T) {
	tab := countsTable[uint64]
	// Counts of N_Z(shift, 2) in 100,000 draws, rounded, at value
	// origin + x (wrapping modulo 2⁶⁴ as unsigned integers do).
	gauss := func(origin uint64, shift int64, into map[uint64]int64) map[uint64]int64 {
		if into == nil {
			into = map[uint64]int64{}
		}
		for x := int64(-7); x <= 8; x++ {
			d := float64(x - shift)
			if c := int64(math.Round(1e5 * math.Exp(-d*d/4) / math.Sqrt(4*math.Pi))); c > 0 {
				into[origin+uint64(x)] += c
			}
		}
		return into
	}
	wrap := func(shift int64) map[uint64]int64 {
		m := map[uint64]int64{}
		for v, c := range gauss(0, shift, nil) {
			m[uint64(uint8(v))] = c
		}
		return m
	}
	// tails lists the values in an end's zone: zone 1 holds those between.
	tails := func(z stat.Grouping, vs ...uint64) []uint64 {
		var in []uint64
		for _, v := range vs {
			if k, ok := z.OfValue[v]; ok && k != 1 {
				in = append(in, v)
			}
		}
		return in
	}
	// A discrete Gaussian around 0 stored in a uint8: both ends of the
	// order are its bulk, its tails face each other across the middle,
	// each in a zone of its own.
	z, ok := EndZones(tab(wrap(1), wrap(0)), 5, 1_000_000)
	require.True(t, ok)
	require.Empty(t, tails(z, 0, 255), "−1 wrapped is the bulk")
	require.Equal(t, []uint64{7, 250}, tails(z, 7, 250), "the upper tail before the gap, the lower (−6 wrapped) after it")
	require.NotEqual(t, z.OfValue[uint64(7)], z.OfValue[uint64(250)])
	require.Equal(t, 5, z.Groups, "the table's two zones (none here) and the gap's two")

	// A tuple flattened to kind·1000 + value: a block per kind, and each
	// block's two tails.
	p, q := gauss(0, 1, nil), gauss(0, 0, nil)
	gauss(1000, 1, p)
	gauss(1000, 0, q)
	z, ok = EndZones(tab(p, q), 5, 1_000_000)
	require.True(t, ok)
	all := []uint64{uint64(1<<64 - 6), 1000 - 6, 7, 1007}
	require.Equal(t, all, tails(z, all...))
	require.Empty(t, tails(z, 0, 1000, 1<<64-1))

	// Outskirts past a value never drawn are the tail's; a sentinel
	// pair at each end, drawn often, is an atom, as a block at λ = 5 and
	// as a fragment at λ = 20.
	const o = 1 << 40
	p, q = gauss(o, 1, nil), gauss(o, 0, nil)
	p[o+10] = 1
	sentinels := []uint64{0, 1, 1<<64 - 2, 1<<64 - 1}
	for _, v := range sentinels {
		p[v], q[v] = 10, 10
	}
	for _, lambda := range []float64{5, 20} {
		z, ok = EndZones(tab(p, q), lambda, 1_000_000)
		require.True(t, ok)
		require.Equal(t, []uint64{o - 6, o + 7, o + 10}, tails(z, o-6, o+7, o+10), "λ = %g: beyond the missing 8 and 9", lambda)
		require.Equal(t, z.OfValue[uint64(o+7)], z.OfValue[uint64(o+10)], "λ = %g: the outskirts join their tail", lambda)
		require.Empty(t, tails(z, sentinels...), "λ = %g: the sentinels are atoms", lambda)
	}

	// A small second mode, whose two zones would overlap, is one zone
	// whole; as a fragment too (λ = 20).
	p, q = gauss(0, 1, nil), gauss(0, 0, nil)
	for v, c := range map[uint64]int64{5000: 3, 5001: 40, 5002: 3} {
		p[v], q[v] = c, c
	}
	for _, lambda := range []float64{5, 20} {
		z, ok = EndZones(tab(p, q), lambda, 1_000_000)
		require.True(t, ok, "λ = %g", lambda)
		require.Equal(t, []uint64{5000, 5001, 5002, 7}, tails(z, 5000, 5001, 5002, 7, 0), "λ = %g", lambda)
	}
	// A value beyond a gap with a rarer one past it: a tail's outskirts,
	// one zone whole.
	delete(p, 5001)
	delete(q, 5001)
	delete(p, 5002)
	delete(q, 5002)
	p[5000], q[5000], p[5003], q[5003] = 40, 40, 2, 2
	z, ok = EndZones(tab(p, q), 5, 1_000_000)
	require.True(t, ok)
	require.Equal(t, []uint64{5000, 7}, tails(z, 5000, 7, 0))

	// Values whose spacing grows (v³ of the Gaussian) are cut into runs
	// at every wide spacing: the table's own ends are zoned still, and a
	// run's end with values beyond it is a tail's, however its counts
	// compare with its neighbour's.
	cube := func(m map[uint64]int64) map[uint64]int64 {
		out := map[uint64]int64{}
		for v, c := range m {
			x := int64(v - o)
			out[uint64(x*x*x)] += c
		}
		return out
	}
	z, ok = EndZones(tab(cube(gauss(o, 1, nil)), cube(gauss(o, 0, nil))), 20, 1_000_000)
	require.True(t, ok)
	require.Equal(t, []uint64{1<<64 - 216, 343}, tails(z, 1<<64-216, 0, 343), "−6³ and 7³, the most extreme drawn")
	// A count capped at 7 in a byte whose lower tail wraps to 255 and
	// below: the block 0…7 ends at a clamp's atom, with the tail's values
	// beyond it.
	capped := func(shift int64) map[uint64]int64 {
		out := map[uint64]int64{}
		for v, c := range gauss(o, shift, nil) {
			out[uint64(uint8(min(4+int64(v-o), 7)))] += c
		}
		return out
	}
	z, ok = EndZones(tab(capped(1), capped(0)), 20, 1_000_000)
	require.True(t, ok)
	require.Equal(t, []uint64{254, 255}, tails(z, 254, 255, 4), "−6 + 4 and −5 + 4 wrapped")
}
