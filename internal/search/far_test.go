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

// innerAloneAtom finds the atom inside the partition that one side alone
// produced at least FarAloneCount times, inside the other side's outputs:
// not a far output (farAlone's), not one the other side produced too, not
// one seen fewer times, not one beyond the other side's outputs (a
// rounded output's tail value).
func TestInnerAloneAtom(t *testing.T) {
	pilot := make([]float64, 0, 64)
	for i := range 64 {
		pilot = append(pilot, float64(i)/64)
	}
	table := func(atomX, atomY, far int) *stat.Table { return aloneTable(pilot, atomX, atomY, far, 1) }
	got := innerAloneAtom(table(12, 0, 20), false)
	require.Equal(t, AloneAtom{Value: 0.3, Coordinate: -1, Count: 12, Draws: 672}, got)
	require.Zero(t, innerAloneAtom(table(12, 0, 20), true), "Y produced nothing alone")
	require.Equal(t, AloneAtom{Value: 0.3, Coordinate: -1, Count: 12, Draws: 652, Reverse: true}, innerAloneAtom(table(0, 12, 0), true))
	require.Zero(t, innerAloneAtom(table(12, 1, 0), false), "the other side produced it too")
	require.Zero(t, innerAloneAtom(table(FarAloneCount-1, 0, 0), false), "seen fewer than FarAloneCount times")
	require.Zero(t, innerAloneAtom(aloneTable(pilot, 12, 0, 0, 0.25), false), "above every output of Y")
	below := aloneTable(pilot, 0, 12, 0, 1)
	for i := range below.Cells { // X's outputs now all above 0.3: Y's atom lies below them
		if below.Partition.Point(below.Cells[i].Value.(int)) < 0.3 {
			below.Cells[i].P = 0
		}
	}
	require.Zero(t, innerAloneAtom(below, true), "below every output of X")

	// The values of a vector's coordinate are outputs: the atom names the
	// coordinate. A learned score's values repeat at its steps: none.
	scored := table(12, 0, 20)
	scored.Partition.Score = &stat.Score{Kind: stat.ScoreCoordinate, Dim: 4, Coords: []int{2}}
	require.Equal(t, AloneAtom{Value: 0.3, Coordinate: 2, Count: 12, Draws: 672}, innerAloneAtom(scored, false))
	for _, kind := range []string{stat.ScoreLinear, stat.ScoreNaiveBayes, stat.ScoreQuadratic} {
		scored.Partition.Score = &stat.Score{Kind: kind, Dim: 4, Coords: []int{2, 0}}
		require.Zero(t, innerAloneAtom(scored, false), kind)
	}

	// Two atoms of X alone: the more frequent. A cell of X alone that is
	// not an atom (Y's outputs skip [0.5, 0.75)): none.
	part := stat.PartitionOf(pilot)
	x, y := stat.NewTailCounts(part, stat.TailKeep), stat.NewTailCounts(part, stat.TailKeep)
	for i := range 640 {
		v := float64(i)/640 + 1e-4
		x.Add(v)
		if v < 0.5 || v >= 0.75 {
			y.Add(v + 1e-4)
		}
	}
	for range 15 {
		x.Add(0.35)
	}
	require.Equal(t, AloneAtom{Value: 0.35, Coordinate: -1, Count: 15, Draws: 655}, innerAloneAtom(stat.RefineTails(x, y), false))
	for range 20 {
		x.Add(0.3)
	}
	require.Equal(t, 0.3, innerAloneAtom(stat.RefineTails(x, y), false).Value)
	for range 10 {
		x.Add(0.35)
	}
	require.Equal(t, 0.35, innerAloneAtom(stat.RefineTails(x, y), false).Value)
}

// aloneTable is a screening table of noise on [0, 1) for X and [0, yTop)
// for Y, atomX and atomY outputs at 0.3 and far outputs of X at 10⁶.
func aloneTable(pilot []float64, atomX, atomY, far int, yTop float64) *stat.Table {
	part := stat.PartitionOf(pilot)
	x, y := stat.NewTailCounts(part, stat.TailKeep), stat.NewTailCounts(part, stat.TailKeep)
	for i := range 640 {
		x.Add(float64(i)/640 + 1e-4)
		y.Add(float64(i)/640*yTop + 2e-4)
	}
	for range atomX {
		x.Add(0.3)
	}
	for range atomY {
		y.Add(0.3)
	}
	for range far {
		x.Add(1e6)
	}
	return stat.RefineTails(x, y)
}
