package stat

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/numeric"
)

// tailCounts counts values on p in a statistic keeping keep extremes,
// added in chunks of chunk merged in turn (as the sampler's workers do).
func tailCounts(p *Partition, keep, chunk int, values []float64) *PartitionCounts {
	total := NewTailCounts(p, keep)
	for len(values) > 0 {
		k := min(chunk, len(values))
		part := NewTailCounts(p, keep)
		for _, v := range values[:k] {
			part.Add(v)
		}
		total.Merge(part)
		values = values[k:]
	}
	return total
}

// requireExactCounts checks that every cell of t counts exactly the values
// of each side that lie in it.
func requireExactCounts(t *testing.T, tb *Table, xs, ys []float64) {
	t.Helper()
	p := tb.Partition
	wantX, wantY := make([]int64, p.Cells()), make([]int64, p.Cells())
	for _, v := range xs {
		wantX[p.Cell(v)]++
	}
	for _, v := range ys {
		wantY[p.Cell(v)]++
	}
	gotX, gotY := make([]int64, p.Cells()), make([]int64, p.Cells())
	for _, c := range tb.Cells {
		gotX[c.Value.(int)], gotY[c.Value.(int)] = c.P, c.Q
	}
	require.Equal(t, wantX, gotX)
	require.Equal(t, wantY, gotY)
	require.Equal(t, int64(len(xs)), tb.NP)
	require.Equal(t, int64(len(ys)), tb.NQ)
}

// The case the open cells hid: 10⁶ once in 2,000 draws on one side beside
// unit noise. After RefineTails the atom is a cell of its own that only x
// produced, and every cell still counts exactly what lies in it.
func TestRefineTailsIsolatesAFarAtom(t *testing.T) {
	pilot := append(normalSample(1, 12_500, 0, 1), normalSample(2, 12_500, 0, 1)...)
	p := PartitionOf(pilot)
	xs, ys := normalSample(3, 100_000, 0, 1), normalSample(4, 100_000, 0, 1)
	for i := 0; i < len(xs); i += 2000 {
		xs[i] = 1e6
	}
	tb := RefineTails(tailCounts(p, TailKeep, 8192, xs), tailCounts(p, TailKeep, 8192, ys))
	requireExactCounts(t, tb, xs, ys)
	c := tb.Partition.Cell(1e6)
	lo, hi := tb.Partition.Bounds(c)
	require.LessOrEqual(t, lo, 1e6)
	require.Greater(t, lo, 10.0, "the atom's cell holds no noise")
	require.Less(t, hi, 1e6+1)
	var got Cell
	for _, cell := range tb.Cells {
		if cell.Value == c {
			got = cell
		}
	}
	require.Equal(t, Cell{Value: c, P: 50, Q: 0}, got)
	require.Greater(t, tb.Partition.Cells(), p.Cells(), "the open cells were cut again")
	require.True(t, tb.Partition.Far(c), "beyond the gap")

	// Below, the same: the atom is far, and the gap between it and the
	// noise belongs to the noise's cell, whose tail it holds.
	for i := 0; i < len(xs); i += 2000 {
		xs[i] = -1e6
	}
	tb = RefineTails(tailCounts(p, TailKeep, 8192, xs), tailCounts(p, TailKeep, 8192, ys))
	requireExactCounts(t, tb, xs, ys)
	c = tb.Partition.Cell(-1e6)
	require.True(t, tb.Partition.Far(c), "beyond the gap below")
	require.False(t, tb.Partition.Far(c+1), "the gap's cell is the noise's")
	lo, _ = tb.Partition.Bounds(c + 1)
	require.Less(t, lo, -1e5, "the noise's lowest cell reaches down to the atom")
}

// Spread beyond the noise (10⁶ plus noise), the rare outputs of one side
// repeat no value; beyond the gap they are one cell (farCount), apart from
// the noise's own tail.
func TestRefineTailsKeepsASpreadFarLeakTogether(t *testing.T) {
	pilot := append(normalSample(5, 12_500, 0, 1), normalSample(6, 12_500, 0, 1)...)
	p := PartitionOf(pilot)
	xs, ys := normalSample(7, 100_000, 0, 1), normalSample(8, 100_000, 0, 1)
	leak := normalSample(9, 50, 1e6, 1)
	for i := range leak {
		xs[i*2000] = leak[i]
	}
	tb := RefineTails(tailCounts(p, TailKeep, 8192, xs), tailCounts(p, TailKeep, 8192, ys))
	requireExactCounts(t, tb, xs, ys)
	cells := map[int]bool{}
	for _, v := range leak {
		cells[tb.Partition.Cell(v)] = true
	}
	require.Len(t, cells, 1, "the leak is one cell")
	lo, _ := tb.Partition.Bounds(tb.Partition.Cell(leak[0]))
	require.Greater(t, lo, 10.0, "and holds no noise")
}

// A side whose open cell holds more than keep values keeps its keep most
// extreme: the cells cut beyond them count exactly, the rest of the open
// cell by difference, whatever order and chunks the values came in.
func TestRefineTailsCountsExactlyWhenTheKeptOverflow(t *testing.T) {
	pilot := append(normalSample(10, 2_000, 0, 1), normalSample(11, 2_000, 0, 1)...)
	p := PartitionOf(pilot)
	xs, ys := normalSample(12, 200_000, 0, 1), normalSample(13, 150_000, 0.2, 1)
	for i := 0; i < 40; i++ {
		xs[i*997] = -1e3 // an atom below, x only
		ys[i*991] = 7e3  // and above, y only
	}
	for _, keep := range []int{16, 100, TailKeep} {
		a := RefineTails(tailCounts(p, keep, 8192, xs), tailCounts(p, keep, 8192, ys))
		requireExactCounts(t, a, xs, ys)
		rx, ry := slices.Clone(xs), slices.Clone(ys)
		slices.Reverse(rx)
		slices.Reverse(ry)
		b := RefineTails(tailCounts(p, keep, 1000, rx), tailCounts(p, keep, 777, ry))
		require.Equal(t, a.Cells, b.Cells, "keep %d: the same table for any order of the draws", keep)
		require.Equal(t, a.Partition.bounds, b.Partition.bounds)
		if keep < 40 {
			continue // the 40 copies of an atom are not all kept: no cell of its own
		}
		for _, v := range []float64{-1e3, 7e3} {
			lo, hi := a.Partition.Bounds(a.Partition.Cell(v))
			require.True(t, lo == v && hi == math.Nextafter(v, math.Inf(1)), "keep %d: %v is an atom's cell, [%v, %v)", keep, v, lo, hi)
		}
	}
}

// Without atoms or gaps in the open cells, the refinement leaves the
// partition as it was.
func TestRefineTailsLeavesTheNoiseAlone(t *testing.T) {
	pilot := append(normalSample(14, 12_500, 0, 1), normalSample(15, 12_500, 0, 1)...)
	p := PartitionOf(pilot)
	xs, ys := normalSample(16, 100_000, 0, 1), normalSample(17, 100_000, 0, 1)
	tb := RefineTails(tailCounts(p, TailKeep, 8192, xs), tailCounts(p, TailKeep, 8192, ys))
	requireExactCounts(t, tb, xs, ys)
	require.Equal(t, p.bounds, tb.Partition.bounds)
	require.False(t, tb.Partition.Far(0) || tb.Partition.Far(p.Cells()-1))
}

// Spread outputs of one side alone beyond the other's extremes but short
// of a far gap (10 plus N(0, 0.01²) once in 1,000 draws of x, −10 likewise
// of y, beside N(0, 1)): the table keeps them in the noise's tail cells,
// and its RunsApart sets each side's run in a cell of its own: its 100
// leaked outputs, the few of its noise beyond the other's largest, and
// none of the other side's; every cell of both tables counts exactly
// what lies in it.
func TestRefineTailsSetsARunOfOneSideApart(t *testing.T) {
	pilot := append(normalSample(40, 12_500, 0, 1), normalSample(41, 12_500, 0, 1)...)
	p := PartitionOf(pilot)
	xs, ys := normalSample(42, 100_000, 0, 1), normalSample(43, 100_000, 0, 1)
	up, down := normalSample(44, 100, 10, 0.01), normalSample(45, 100, -10, 0.01)
	for i := range up {
		xs[i*1000], ys[i*1000+1] = up[i], down[i]
	}
	tb := RefineTails(tailCounts(p, TailKeep, 8192, xs), tailCounts(p, TailKeep, 8192, ys))
	requireExactCounts(t, tb, xs, ys)
	require.False(t, tb.Partition.Far(tb.Partition.Cell(10)), "not beyond a far gap")
	lo, _ := tb.Partition.Bounds(tb.Partition.Cell(up[0]))
	require.Less(t, lo, 5.0, "the table keeps the leak with the noise's tail")
	apart := tb.RunsApart
	require.NotNil(t, apart)
	requireExactCounts(t, apart, xs, ys)
	for _, leak := range [][]float64{up, down} {
		c := apart.Partition.Cell(leak[0])
		for _, v := range leak {
			require.Equal(t, c, apart.Partition.Cell(v), "one cell for the run")
		}
		var got Cell
		for _, cell := range apart.Cells {
			if cell.Value == c {
				got = cell
			}
		}
		own, other := got.P, got.Q
		if leak[0] < 0 {
			own, other = got.Q, got.P
		}
		require.Zero(t, other, "the run's cell holds none of the other side")
		require.InDelta(t, 105, own, 5, "the leak, and its side's noise beyond the other's largest")
	}
	// Without the leak no run reaches OneSidedRun: no RunsApart.
	xs, ys = normalSample(46, 100_000, 0, 1), normalSample(47, 100_000, 0, 1)
	require.Nil(t, RefineTails(tailCounts(p, TailKeep, 8192, xs), tailCounts(p, TailKeep, 8192, ys)).RunsApart)
}

// oneSidedRuns cuts around each run of OneSidedRun values or more of one
// side, a value both sides hold ending a run, and leaves a run at either
// end open towards that end.
func TestOneSidedRuns(t *testing.T) {
	seq := func(from, n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(from + i)
		}
		return v
	}
	// x: 0–19 (a run at the low end), y: 20–24, x: 25–49 (a run inside),
	// both: 50, y: 51–69 (19: too short).
	xs := slices.Concat(seq(0, 20), seq(25, 25), []float64{50})
	ys := slices.Concat(seq(20, 5), []float64{50}, seq(51, 19))
	require.Equal(t, []float64{math.Nextafter(19, 20), 25, math.Nextafter(49, 50)}, oneSidedRuns(xs, ys))
	// A run to the high end is open above.
	require.Equal(t, []float64{5}, oneSidedRuns(seq(5, 30), seq(0, 5)))
	require.Empty(t, oneSidedRuns(seq(0, 19), nil))
	// Two runs side by side: cutApart keeps the cut between them once (no
	// cell of nothing between the end of one and the start of the other),
	// and without apart cuts at the atoms alone.
	xs, ys = seq(0, 20), seq(20, 20)
	runs := oneSidedRuns(xs, ys)
	require.Equal(t, []float64{math.Nextafter(19, 20), 20}, runs)
	var p Partition
	cutApart(slices.Concat(xs, ys), TailAtomRepeats, runs, true, p.add)
	require.Equal(t, []float64{math.Nextafter(19, 20)}, p.bounds)
	var q Partition
	cutApart(slices.Concat(xs, ys), TailAtomRepeats, runs, false, q.add)
	require.Empty(t, q.bounds)
}

// The pilot's own far values (beyond a gap ten times the span from the
// median) get cells apart, marked Far; a lattice (a discrete output) and
// noise with a density have none, however far their extremes reach.
func TestPartitionOfFarValues(t *testing.T) {
	v := normalSample(30, 25_000, 0, 1)
	leak := normalSample(31, 6, 1e6, 1)
	copy(v, leak)
	p := PartitionOf(slices.Clone(v))
	for _, x := range leak {
		require.True(t, p.Far(p.Cell(x)), "%v", x)
	}
	require.False(t, p.Far(p.Cell(3)), "the noise's tail is not far")
	lo, _ := p.Bounds(p.Cell(leak[0]))
	require.Greater(t, lo, 10.0, "the far cells hold no noise")

	// Below, an error code: the noise's tail beyond the pilot's lowest
	// noise value is in the noise's cell, not a far one, as above.
	v = normalSample(30, 25_000, 0, 1)
	for i := range 100 {
		v[i] = -1e9
	}
	lowest := slices.Min(v[100:])
	p = PartitionOf(slices.Clone(v))
	require.True(t, p.Far(p.Cell(-1e9)))
	require.False(t, p.Far(p.Cell(lowest-0.5)), "the noise's tail below the pilot is not far")
	require.Equal(t, p.Cell(lowest-0.5), p.Cell(lowest), "the gap is the first noise cell's")

	// A rare mode far away (0.5% of the pilot) is cut by count as the
	// bulk is, its cells far; six far values are one cell.
	v = normalSample(30, 25_000, 0, 1)
	copy(v, normalSample(33, 125, 1e6, 1))
	p = PartitionOf(slices.Clone(v))
	cells := map[int]bool{}
	for _, x := range v[:125] {
		require.True(t, p.Far(p.Cell(x)))
		cells[p.Cell(x)] = true
	}
	require.GreaterOrEqual(t, len(cells), 125/PilotPerCell-1, "the mode's values keep their order")
	v = normalSample(30, 25_000, 0, 1)
	copy(v, leak)
	p = PartitionOf(slices.Clone(v))
	require.Equal(t, p.Cell(slices.Min(leak)), p.Cell(slices.Max(leak)), "a few far values are one cell")

	r := newRand(32)
	lattice := make([]float64, 25_000)
	for i := range lattice {
		lattice[i] = math.Round(3 * r.NormFloat64())
	}
	lattice[0] = 40 // a lattice point far out, but 28 steps away, not a gap
	p = PartitionOf(lattice)
	for c := range p.Cells() {
		require.False(t, p.Far(c), "cell %d", c)
	}
	cauchy := make([]float64, 25_000)
	for i := range cauchy {
		cauchy[i] = math.Tan(math.Pi * (r.Float64() - 0.5))
	}
	p = PartitionOf(cauchy)
	far := 0
	for c := range p.Cells() {
		if p.Far(c) {
			far++
		}
	}
	require.LessOrEqual(t, far, 4, "a heavy tail's far values are its few most extreme")
}

// Two modes 10⁶ apart, each a large share of the pilot, are cut by count
// like any output: neither is far (MaxFarShare), so no mode becomes one
// cell.
func TestPartitionOfFarModesAreNotFar(t *testing.T) {
	v := normalSample(40, 25_000, 0, 1)
	for i := range 11_250 { // 45% near 0, 55% near 10⁶
		v[i] += 1e6
	}
	p := PartitionOf(slices.Clone(v))
	sorted := slices.Clone(v)
	slices.Sort(sorted)
	require.Equal(t, NewPartition(sorted, len(sorted)/PilotPerCell).bounds, p.bounds, "cut by count only")
	for c := range p.Cells() {
		require.False(t, p.Far(c), "cell %d", c)
	}
	require.Equal(t, 1, PartitionOf(nil).Cells(), "an empty pilot: one cell")
}

// An output one side alone produces once in 3,000 draws inside the noise
// (0.25, where a pilot of 25,000 holds it about four times, and so
// isolates it in only some pilots) gets a cell of its own from the
// screening's draws, which repeat it about 33 times: here the pilot's
// cells are cut without it (its light atoms left out on purpose, as a
// pilot that saw it twice would), and the refinement must cut it out with
// exact counts. A rounded output, whose values all repeat, is left to its
// inner cells.
func TestRefineTailsIsolatesAnInnerAtom(t *testing.T) {
	pooled := append(normalSample(21, 12_500, 0, 1), normalSample(22, 12_500, 0, 1)...)
	numeric.SortFloats(pooled)
	p := NewPartition(pooled, len(pooled)/PilotPerCell) // no light atoms
	xs, ys := normalSample(23, 100_000, 0, 1), normalSample(24, 100_000, 0, 1)
	for i := 0; i < len(xs); i += 3000 {
		xs[i] = 0.25
	}
	tb := RefineTails(tailCounts(p, TailKeep, 8192, xs), tailCounts(p, TailKeep, 8192, ys))
	requireExactCounts(t, tb, xs, ys)
	c := tb.Partition.Cell(0.25)
	require.True(t, tb.Partition.Atom(c))
	lo, hi := tb.Partition.Bounds(c)
	require.Equal(t, 0.25, lo)
	require.Equal(t, math.Nextafter(0.25, 1), hi)
	for _, cell := range tb.Cells {
		if cell.Value == c {
			require.Equal(t, Cell{Value: c, P: 34, Q: 0}, cell)
		}
	}
	require.Equal(t, p.Cells()+2, tb.Partition.Cells(), "the atom's cell and the rest of the cell it was in")

	round := func(v []float64) []float64 {
		for i := range v {
			v[i] = math.Round(v[i]*100) / 100
		}
		return v
	}
	xs, ys = round(normalSample(25, 100_000, 0, 1)), round(normalSample(26, 100_000, 0, 1))
	tb = RefineTails(tailCounts(p, TailKeep, 8192, xs), tailCounts(p, TailKeep, 8192, ys))
	requireExactCounts(t, tb, xs, ys)
	lo, hi = p.bounds[0], p.bounds[len(p.bounds)-1]
	var inner []float64
	for _, b := range tb.Partition.bounds {
		if b >= lo && b <= hi {
			inner = append(inner, b)
		}
	}
	require.Equal(t, p.bounds, inner, "a rounded output's inner cells are not cut at its values")
}

// A side that kept more than MaxInner inner values keeps none and cuts no
// inner atom, whatever the order its workers merged in; counts stay exact.
func TestRefineTailsKeepsNoMoreThanMaxInner(t *testing.T) {
	pooled := append(normalSample(31, 12_500, 0, 1), normalSample(32, 12_500, 0, 1)...)
	numeric.SortFloats(pooled)
	p := NewPartition(pooled, len(pooled)/PilotPerCell)
	xs, ys := normalSample(33, MaxInner+20_000, 0, 1), normalSample(34, 1000, 0, 1)
	for i := 0; i < len(xs); i += 3000 {
		xs[i] = 0.25
	}
	for _, chunk := range []int{8192, len(xs)} {
		cx := tailCounts(p, TailKeep, chunk, xs)
		require.True(t, cx.innerOver)
		require.Nil(t, cx.inner)
		tb := RefineTails(cx, tailCounts(p, TailKeep, 8192, ys))
		requireExactCounts(t, tb, xs, ys)
		require.False(t, tb.Partition.Atom(tb.Partition.Cell(0.25)))
	}
}
