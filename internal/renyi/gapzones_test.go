package renyi

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/stat"
)

// realTable is the screening table of real outputs out(shift, r) at
// shifts 1 and 0, on a partition of a pilot of 16,000 draws a side, with
// n outputs a side counted.
func realTable(seed uint64, n int, out func(shift float64, r *rand.Rand) float64) *stat.Table {
	r := rand.New(rand.NewPCG(seed, 1))
	pilot := make([]float64, 0, 32_000)
	for range 16_000 {
		pilot = append(pilot, out(1, r), out(0, r))
	}
	part := stat.PartitionOf(pilot)
	count := func(shift float64) *stat.PartitionCounts {
		c := stat.NewPartitionCounts(part)
		for range n {
			c.Add(out(shift, r))
		}
		return c
	}
	return stat.TabulateCells(count(1), count(0))
}

// A Gaussian wrapped modulo 100 has its two tails facing each other
// across the gap between 10 and 90, and error codes far from the bulk
// leave the bulk's tail beside them: each side of the gap with a tail is
// zoned, in a group of its own, as the table's ends are; the codes' own
// side (an atom) is not, and the bulk between stays unzoned; the same
// wrapped Gaussian shifted by 10⁶ and rescaled by 10⁻³ is zoned alike. A
// Gaussian, a Laplace, a Cauchy (whose extremes are spread wide), an
// exponential clamped at an atom and a Gaussian rounded to a grid have
// no gap outside their end zones.
func TestZonesBesideGapsOfRealOutputs(t *testing.T) {
	const n, lambda = 200_000, 20.0
	gauss := func(shift float64, r *rand.Rand) float64 { return shift + 2*r.NormFloat64() }
	wrapped := func(shift float64, r *rand.Rand) float64 { return math.Mod(gauss(shift, r)+1000, 100) }
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
		require.Equal(t, spans[0].from, spans[0].to, "%s: one cell across the gap", c.name)
		gaps := []int{spans[0].from}
		lo, hi := part.Bounds(gaps[0])
		z, ok := EndZones(tab, lambda, 1_000_000)
		require.True(t, ok, c.name)
		require.Equal(t, 5, z.Groups, "%s: the table's two ends and the gap's two sides", c.name)
		require.GreaterOrEqual(t, z.OfCell[gaps[0]], 3, "%s: the cell across the gap [%g, %g) is a zone", c.name, lo, hi)
		require.Equal(t, z.OfCell[gaps[0]], z.OfCell[gaps[0]-1], "%s: it starts the lower side's zone", c.name)
		require.GreaterOrEqual(t, z.OfCell[gaps[0]+1], 3, c.name)
		require.NotEqual(t, z.OfCell[gaps[0]], z.OfCell[gaps[0]+1], "%s: each side its own group", c.name)
		require.Equal(t, 1, z.OfCell[part.Cell(c.bulk)], "%s: the bulk is between the zones", c.name)
		part.Score = &stat.Score{Kind: stat.ScoreLinear}
		require.Empty(t, gapSpans(part, allCells(tab)), "%s: a learned score's values have no gaps of the outputs", c.name)
		part.Score = nil
	}

	codes := func(shift float64, r *rand.Rand) float64 {
		if r.Float64() < 0.005 {
			return -1e9
		}
		return gauss(shift, r)
	}
	tab := realTable(8, n, codes)
	part := tab.Partition
	z, ok := EndZones(tab, lambda, 1_000_000)
	require.True(t, ok)
	require.Equal(t, 4, z.Groups, "the table's two ends and the bulk's side of the gap")
	atom := part.Cell(-1e9)
	require.True(t, part.Atom(atom))
	require.Equal(t, 0, z.OfCell[atom], "the codes lie in the table's lower zone")
	require.Equal(t, 3, z.OfCell[atom+1], "the bulk's lower tail, beyond the codes, is a zone")
	require.Equal(t, 1, z.OfCell[part.Cell(0.5)])
	require.Equal(t, 2, z.OfCell[part.Cells()-1])

	laplace := func(shift float64, r *rand.Rand) float64 { return shift + r.ExpFloat64() - r.ExpFloat64() }
	cauchy := func(shift float64, r *rand.Rand) float64 { return shift + math.Tan(math.Pi*(r.Float64()-0.5)) }
	// A clamp's atom cuts the cell below it short: fewer outputs on a
	// narrower stretch, as dense as the rest.
	clamped := func(shift float64, r *rand.Rand) float64 { return min((2+shift)*r.ExpFloat64(), 3) }
	rounded := func(shift float64, r *rand.Rand) float64 { return math.Round(100*gauss(shift, r)) / 100 }
	for seed := uint64(1); seed <= 5; seed++ {
		for name, out := range map[string]func(float64, *rand.Rand) float64{"Gaussian": gauss, "Laplace": laplace, "Cauchy": cauchy, "clamped": clamped, "rounded": rounded} {
			tab := realTable(seed, n, out)
			z, ok := EndZones(tab, lambda, 1_000_000)
			require.True(t, ok, "%s, seed %d", name, seed)
			require.Equal(t, 3, z.Groups, "%s, seed %d: no gap between the table's end zones", name, seed)
			if name != "Cauchy" {
				require.Empty(t, gapSpans(tab.Partition, allCells(tab)), "%s, seed %d", name, seed)
			}
		}
	}
}
