package renyi

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/stat"
)

// OneSidedLevel is Φ(−GroupPenalty), and oneSidedKey is the exact
// Clopper–Pearson lower bound of the conditional share p/(p+q) at q = 0,
// turned into a log-ratio and corrected for unequal sample sizes.
func TestOneSidedKeyIsTheExactBound(t *testing.T) {
	require.InDelta(t, 0.022750131948179195, OneSidedLevel(), 1e-15) // Φ(−2)
	for _, p := range []int64{1, 3, 22, 500} {
		for _, sizes := range [][2]float64{{1e5, 1e5}, {5e4, 2e5}} {
			lo := numeric.BinomialLower(p, p, OneSidedLevel())
			want := math.Log(lo/(1-lo)) - math.Log(sizes[0]/sizes[1])
			require.InDelta(t, want, oneSidedKey(float64(p), sizes[0], sizes[1]), 1e-9, "p=%d sizes=%v", p, sizes)
		}
	}
}

// Twenty-two outputs one dataset alone produced outrank a cell of 47
// against 5 under OneSidedKeys, and not under the penalised keys (whose ½
// at the zero count costs it 2.8); a far cell of them (beyond a gap in the
// tails) comes first under either.
func TestOneSidedCellsComeFirst(t *testing.T) {
	tb := &stat.Table{NP: 50_000, NQ: 50_000, Cells: []stat.Cell{{Value: "noise", P: 47, Q: 5}, {Value: "alone", P: 22, Q: 0}, {Value: "low", P: 3, Q: 30}}}
	first := func(keys Keys) any { return orderCells(tb, 1_000_000, false, keys)[0].cell.Value }
	require.Equal(t, "noise", first(PenalisedKeys))
	require.Equal(t, "alone", first(OneSidedKeys))
	// The same counts as partition cells, the one-sided one beyond a gap.
	var xs, ys []float64
	for range 47 {
		xs = append(xs, 0.5)
	}
	for range 5 {
		ys = append(ys, 0.5)
	}
	for range 22 {
		xs = append(xs, 1e6)
	}
	pilot := make([]float64, 0, 64)
	for i := range 64 {
		pilot = append(pilot, float64(i)/64)
	}
	part := stat.PartitionOf(pilot)
	count := func(v []float64) *stat.PartitionCounts {
		c := stat.NewTailCounts(part, stat.TailKeep)
		for _, x := range v {
			c.Add(x)
		}
		return c
	}
	// Tail values for the gap rule: eight of the noise's own beyond the
	// pilot's extreme, then the far ones.
	for i := range 8 {
		xs = append(xs, 1+float64(i)/100)
		ys = append(ys, 1+float64(i)/100+0.005)
	}
	pt := stat.RefineTails(count(xs), count(ys))
	far := pt.Partition.Cell(1e6)
	require.True(t, pt.Partition.Far(far))
	ks := orderCells(pt, 1_000_000, false, PenalisedKeys)
	require.Equal(t, far, ks[0].cell.Value)
	require.True(t, math.IsInf(ks[0].key, 1))
}
