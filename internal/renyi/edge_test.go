package renyi

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/stat"
)

// EdgeGrowth's slope is exact on a ratio that is a power of the inverse
// tail share: bands of pooled counts c, 2c, 4c, 8c, 16c from each end,
// the ratio at band k's middle w_k set to 3·(1/w_k)^κ; and 0 on a ratio
// that stops growing (a Laplace's tail).
func TestEdgeGrowthOfAPowerLaw(t *testing.T) {
	const n = 1 << 40
	bands := func(kappa float64) (p, q []int64) {
		p, q = make([]int64, 2*EdgeBandCount+1), make([]int64, 2*EdgeBandCount+1)
		for end := range 2 {
			out := 0.0
			for k := range EdgeBandCount {
				pooled := float64(int64(1)<<30) * math.Pow(2, float64(k))
				in := out + pooled/(2*n)
				mid := in / 2
				if k > 0 {
					mid = math.Sqrt(out * in)
				}
				out = in
				r := 3 * math.Pow(1/mid, kappa)
				p[end*EdgeBandCount+k] = int64(math.Round(pooled * r / (1 + r)))
				q[end*EdgeBandCount+k] = int64(math.Round(pooled / (1 + r)))
			}
		}
		return p, q
	}
	for _, kappa := range []float64{0, 0.1, 0.44, 1.25} {
		p, q := bands(kappa)
		lower, upper := EdgeGrowth(p, q, n)
		require.InDelta(t, kappa, lower, 1e-6, "κ = %v", kappa)
		require.InDelta(t, kappa, upper, 1e-6, "κ = %v", kappa)
	}
}

// drawn counts a million draws per side of two Gaussian noises in the
// cells of a partition of a pilot of both, and returns its table.
func drawn(r *rand.Rand, x, y func() float64) *stat.Table {
	pilot := make([]float64, 0, 32_000)
	for range 16_000 {
		pilot = append(pilot, x(), y())
	}
	part := stat.PartitionOf(pilot)
	cx, cy := stat.NewPartitionCounts(part), stat.NewPartitionCounts(part)
	for range 1_000_000 {
		cx.Add(x())
		cy.Add(y())
	}
	return stat.TabulateCells(cx, cy)
}

// A noise scale of 1.2 on one side against 1 on the other has D_λ = ∞
// from λ = 1.44/0.44 = 3.27 on: at λ = 5, (λ − 1)κ̂ at both ends is
// 1.37–1.47 at seeds 5–8 (asymptotically (λ − 1)(s² − 1) = 1.76; the
// bands, which need both sides' outputs, lie where the ratio's growth has
// not reached its limit). A Gaussian shift of 1 at σ = 5, whose D_10 is
// 0.2, grows at its upper end at about Δ/(σx) for a tail x standard
// deviations out: (λ − 1)κ̂ is 0.67–0.73 at λ = 10, and below 0 at its
// lower end. The limits lie five or more of the spread's standard
// deviations (about 0.03) away. At λ = 64 the bands would need more than a
// quarter of the outputs: none.
func TestEdgeBandsAndGrowth(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 1))
	scaled := drawn(r, func() float64 { return 1.2 * r.NormFloat64() }, r.NormFloat64)
	bands, ok := EdgeBands(scaled, 5, 1_000_000)
	require.True(t, ok)
	require.Equal(t, 2*EdgeBandCount+1, bands.Groups)
	require.Equal(t, 0, bands.OfCell[0], "the lowest cell is the lower end's outermost band")
	require.Equal(t, EdgeBandCount, bands.OfCell[len(bands.OfCell)-1], "the highest is the upper end's")
	p, q := GroupTotals(scaled, bands)
	for g := range 2 * EdgeBandCount {
		require.GreaterOrEqual(t, min(p[g], q[g]), int64(EdgeBandFactor*25/2), "band %d: %d and %d outputs", g, p[g], q[g])
	}
	lower, upper := EdgeGrowth(p, q, scaled.NP)
	require.Greater(t, 4*lower, 1.0)
	require.Greater(t, 4*upper, 1.0)

	shifted := drawn(r, func() float64 { return 1 + 5*r.NormFloat64() }, func() float64 { return 5 * r.NormFloat64() })
	bands, ok = EdgeBands(shifted, 10, 1_000_000)
	require.True(t, ok)
	p, q = GroupTotals(shifted, bands)
	lower, upper = EdgeGrowth(p, q, shifted.NP)
	require.Less(t, 9*upper, 0.9)
	require.Greater(t, 9*upper, 0.2)
	require.Less(t, 9*lower, 0.0)

	_, ok = EdgeBands(shifted, 64, 1_000_000)
	require.False(t, ok)
	_, ok = EdgeBands(stat.Counted([]int64{1}, []int64{1}, 1, 1), 2, 10)
	require.False(t, ok, "values have no bands")
}
