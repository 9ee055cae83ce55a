package search

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/stat"
)

// farAlone counts the outputs of groups made of far cells only that the
// other side never produced: not a group that also holds an inner cell,
// nor a far group both sides produced.
func TestFarAlone(t *testing.T) {
	pilot := make([]float64, 0, 64)
	for i := range 64 {
		pilot = append(pilot, float64(i)/64)
	}
	part := stat.PartitionOf(pilot)
	x, y := stat.NewTailCounts(part, stat.TailKeep), stat.NewTailCounts(part, stat.TailKeep)
	for i := range 8 { // the noise's own tail, then values far beyond it
		x.Add(1 + float64(i)/100)
		y.Add(1 + float64(i)/100 + 0.005)
	}
	for range 5 {
		x.Add(1e6)
	}
	p := stat.RefineTails(x, y).Partition
	far := p.Cell(1e6)
	require.True(t, p.Far(far))
	g := stat.Grouping{Groups: 2, Partition: p, OfCell: make([]int, p.Cells())}
	g.OfCell[far] = 1 // group 1: the far cell alone
	require.Equal(t, int64(7), farAlone(g, []int64{100, 7}, []int64{90, 0}))
	require.Zero(t, farAlone(g, []int64{100, 7}, []int64{90, 1}), "the other side produced it too")
	g.OfCell[far-1] = 1 // with a cell of the noise: not far alone
	require.Zero(t, farAlone(g, []int64{100, 7}, []int64{90, 0}))
}
