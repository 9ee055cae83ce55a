package renyi

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/stat"
)

// realTable is the screening table of real outputs out(shift, r) at
// shifts 1 and 0, as an audit builds it: a partition of a pilot of
// 16,000 draws a side, n outputs a side counted on it with their extremes
// kept, and its open cells cut again at them (stat.RefineTails).
func realTable(seed uint64, n int, out func(shift float64, r *rand.Rand) float64) *stat.Table {
	r := rand.New(rand.NewPCG(seed, 1))
	pilot := make([]float64, 0, 32_000)
	for range 16_000 {
		pilot = append(pilot, out(1, r), out(0, r))
	}
	part := stat.PartitionOf(pilot)
	count := func(shift float64) *stat.PartitionCounts {
		c := stat.NewTailCounts(part, stat.TailKeep)
		for range n {
			c.Add(out(shift, r))
		}
		return c
	}
	return stat.RefineTails(count(1), count(0))
}

// zoneCells returns the cells of each zone group of z, by group.
func zoneCells(z stat.Grouping) map[int][]int {
	m := map[int][]int{}
	for c, g := range z.OfCell {
		m[g] = append(m[g], c)
	}
	return m
}

// A Gaussian wrapped modulo 100 has its two tails facing each other
// across the gap between 10 and 90: the gap's cells are a zone, and each
// side of it a zone of its own beside them, as the table's ends are,
// while the bulk stays between the zones; the same outputs shifted by
// 10⁶ and rescaled by 10⁻³ are zoned cell for cell alike. Three blocks
// 1,000 apart have two gaps, four sides zoned. Error codes far below the
// bulk leave the bulk's tail beside them: it is zoned, the codes' own
// side (an atom) is not. Rare outputs spread over a sparse floor beside
// the bulk are a zone of their own, and the bulk's tail beside the floor
// has a zone of its own too (counted with the floor, the floor alone would
// fill it).
func TestZonesBesideGapsOfRealOutputs(t *testing.T) {
	const n, lambda = 200_000, 20.0
	gauss := func(shift float64, r *rand.Rand) float64 { return shift + 2*r.NormFloat64() }
	wrapped := func(shift float64, r *rand.Rand) float64 { return math.Mod(gauss(shift, r)+1000, 100) }
	var unscaled []int
	for _, c := range []struct {
		name string
		out  func(shift float64, r *rand.Rand) float64
		bulk float64 // an output near the modes
	}{
		{"wrapped", wrapped, 3},
		{"wrapped, 1e6 + 1e-3·v", func(s float64, r *rand.Rand) float64 { return 1e6 + 1e-3*wrapped(s, r) }, 1e6 + 3e-3},
	} {
		tab := realTable(7, n, c.out)
		part := tab.Partition
		spans := gapSpans(part, allCells(tab))
		require.Len(t, spans, 1, c.name)
		z, ok := EndZones(tab, lambda, 1_000_000)
		require.True(t, ok, c.name)
		require.Equal(t, 6, z.Groups, "%s: the table's two ends, the gap and its two sides", c.name)
		g := spans[0]
		require.Equal(t, 3, z.OfCell[g.from], "%s: the gap's cells are a zone", c.name)
		require.Equal(t, 4, z.OfCell[g.from-1], "%s: the lower side's zone", c.name)
		require.Equal(t, 5, z.OfCell[g.to+1], "%s: the upper side's zone", c.name)
		require.Equal(t, 1, z.OfCell[part.Cell(c.bulk)], "%s: the bulk is between the zones", c.name)
		if unscaled == nil {
			unscaled = z.OfCell
		} else {
			require.Equal(t, unscaled, z.OfCell, "%s: zoned as the unscaled outputs", c.name)
		}
		part.Score = &stat.Score{Kind: stat.ScoreLinear}
		require.Empty(t, gapSpans(part, allCells(tab)), "%s: a learned score's values have no gaps of the outputs", c.name)
		part.Score = nil
	}

	blocks := func(shift float64, r *rand.Rand) float64 { return gauss(shift, r) + 1000*float64(r.IntN(3)-1) }
	tab := realTable(9, n, blocks)
	require.Len(t, gapSpans(tab.Partition, allCells(tab)), 2)
	z, ok := EndZones(tab, lambda, 1_000_000)
	require.True(t, ok)
	require.Equal(t, 9, z.Groups, "the table's two ends, two gaps and their four sides")
	for _, v := range []float64{-1000, 0, 1000} {
		require.Equal(t, 1, z.OfCell[tab.Partition.Cell(v)], "the block at %v is between the zones", v)
	}

	codes := func(shift float64, r *rand.Rand) float64 {
		if r.Float64() < 0.005 {
			return -1e9
		}
		return gauss(shift, r)
	}
	tab = realTable(8, n, codes)
	part := tab.Partition
	z, ok = EndZones(tab, lambda, 1_000_000)
	require.True(t, ok)
	atom := part.Cell(-1e9)
	require.True(t, part.Atom(atom))
	require.Equal(t, 0, z.OfCell[atom], "the codes lie in the table's lower zone")
	require.GreaterOrEqual(t, z.OfCell[atom+1], 3, "the bulk's lower tail, beyond the codes, is a zone")
	require.Equal(t, 1, z.OfCell[part.Cell(0.5)])
	require.Equal(t, 2, z.OfCell[part.Cells()-1])

	floor := func(shift float64, r *rand.Rand) float64 {
		if r.Float64() < 0.01 {
			return 20 + 1e4*r.Float64()
		}
		return gauss(shift, r)
	}
	tab = realTable(10, n, floor)
	part = tab.Partition
	spans := gapSpans(part, allCells(tab))
	require.Len(t, spans, 1)
	z, ok = EndZones(tab, lambda, 1_000_000)
	require.True(t, ok)
	byGroup := zoneCells(z)
	floorGroup := z.OfCell[part.Cell(5000)]
	require.GreaterOrEqual(t, floorGroup, 3, "the floor is a zone")
	tail := z.OfCell[spans[0].from-1]
	require.GreaterOrEqual(t, tail, 3)
	require.NotEqual(t, floorGroup, tail, "the bulk's upper tail is a zone apart from the floor")
	require.Greater(t, len(byGroup[tail]), 1, "the tail's zone holds its own 2λ² outputs")
	require.Equal(t, 1, z.OfCell[part.Cell(1)])
}

// A Gaussian, a Laplace, an exponential clamped at an atom (the cell below
// it cut short) and a Gaussian rounded to a grid (empty cells between its
// atoms) have no gap between their end zones. A Cauchy's extremes spread
// so wide that the cells RefineTails cuts among them may thin tenfold from
// one to the next: such a gap reaches the table's end, and only widens
// its end zone. Seeds 1–10; under -short seeds 1–3.
func TestNoGapsInOneBulk(t *testing.T) {
	const allSeeds, shortSeeds = 10, 3
	seeds := uint64(allSeeds)
	if testing.Short() {
		seeds = shortSeeds
	}
	gauss := func(shift float64, r *rand.Rand) float64 { return shift + 2*r.NormFloat64() }
	laplace := func(shift float64, r *rand.Rand) float64 { return shift + r.ExpFloat64() - r.ExpFloat64() }
	cauchy := func(shift float64, r *rand.Rand) float64 { return shift + math.Tan(math.Pi*(r.Float64()-0.5)) }
	clamped := func(shift float64, r *rand.Rand) float64 { return min((2+shift)*r.ExpFloat64(), 3) }
	rounded := func(shift float64, r *rand.Rand) float64 { return math.Round(100*gauss(shift, r)) / 100 }
	for seed := uint64(1); seed <= seeds; seed++ {
		for _, c := range []struct {
			name string
			out  func(float64, *rand.Rand) float64
		}{{"Gaussian", gauss}, {"Laplace", laplace}, {"Cauchy", cauchy}, {"clamped", clamped}, {"rounded", rounded}} {
			tab := realTable(seed, 200_000, c.out)
			if c.name == "Cauchy" {
				for _, g := range gapSpans(tab.Partition, allCells(tab)) {
					require.True(t, g.from == 0 || g.to == tab.Partition.Cells()-1, "Cauchy, seed %d: a gap %v inside the bulk", seed, g)
				}
			}
			for _, lambda := range []float64{2, 20} {
				z, ok := EndZones(tab, lambda, 1_000_000)
				require.True(t, ok, "%s, seed %d", c.name, seed)
				require.True(t, slices.Contains(z.OfCell, 1))
				if c.name != "Cauchy" {
					require.Equal(t, 3, z.Groups, "%s, seed %d, λ = %v: no gap between the table's end zones", c.name, seed, lambda)
				}
			}
		}
	}
}

// Fifty narrow modes leave no cell between their zones at λ = 64 (2λ² =
// 8,192 outputs a side for each of a hundred sides): unreachable, as a
// table whose ends cannot hold their zones is; at λ = 5 they fit.
func TestGapZonesThatFillTheTable(t *testing.T) {
	modes := func(shift float64, r *rand.Rand) float64 {
		return float64(r.IntN(50)) + 0.01*shift + 0.01*r.NormFloat64()
	}
	tab := realTable(11, 200_000, modes)
	_, ok := EndZones(tab, 64, 1_000_000)
	require.False(t, ok)
	z, ok := EndZones(tab, 5, 1_000_000)
	require.True(t, ok)
	require.Greater(t, z.Groups, 100)
}
