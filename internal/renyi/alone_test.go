package renyi

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/stat"
)

// Values that only P produced fall among the others at their penalised
// keys (a value seen 300 times, first; thirty seen 3 times each, at −1.1,
// among the cells of ratio under 1), and each run of them closes a group
// of its own; MergeOneSided makes the groups that only P produced one
// group, the first, whose share the estimator counts once, and leaves the
// others, and a partition's groups, as they were.
func TestMergeOneSidedMakesTheGroupsOnlyOneSideProducedOne(t *testing.T) {
	alone := copies("alone", 30, 3, 0)
	tb := rareTable(append(alone, stat.Cell{Value: "often", P: 300, Q: 0})...)
	plain := Group(tb, 2, 100_000, false)
	require.NotEqual(t, plain.OfValue["often"], plain.OfValue["alone0"], "apart before")
	g, merged := MergeOneSided(plain, tb, false)
	require.Equal(t, 0, merged)
	require.Equal(t, 0, g.OfValue["often"])
	for _, c := range alone {
		require.Equal(t, 0, g.OfValue[c.Value], "%v", c.Value)
	}
	p, q := GroupTotals(tb, g)
	require.Equal(t, int64(390), p[0])
	require.Zero(t, q[0])
	for k := 1; k < g.Groups; k++ {
		require.Positive(t, q[k], "group %d", k)
	}
	require.Equal(t, g.Groups-1, g.Unlisted, "the unlisted values' empty group stays apart")
	require.Less(t, g.Groups, plain.Groups)

	reversed, merged := MergeOneSided(Group(tb, 2, 100_000, true), tb, true)
	require.Equal(t, Group(tb, 2, 100_000, true), reversed, "Q produced no value alone")
	require.Equal(t, -1, merged)
	part := stat.Grouping{Groups: 2, Partition: &stat.Partition{}, OfCell: []int{0, 1}}
	merging, merged := MergeOneSided(part, tb, false)
	require.Equal(t, part, merging)
	require.Equal(t, -1, merged)
}

// A table's own cell of the values its screening never saw
// (stat.WithUnlisted) is keyed like any other, and its group is the
// grouping's Unlisted group: here the held-out half drew 400 such values
// of P and none of Q (a leak of values each too rare to be seen twice),
// and they share the first group with the value only P produced; drawn
// alike on both sides (ratio 0.98), they have a group of their own next
// to the cell of ratio 1, not the last one's, of ratio 0.3.
func TestGroupKeysTheUnlistedValuesAsOneCell(t *testing.T) {
	tb := rareTable(stat.Cell{Value: "often", P: 300, Q: 0}, stat.Cell{Value: stat.Unlisted{}, P: 400, Q: 0})
	g := Group(tb, 2, 100_000, false)
	require.Equal(t, 0, g.Unlisted)
	require.Equal(t, 0, g.OfValue["often"])
	require.NotContains(t, g.OfValue, stat.Unlisted{})

	tb = rareTable(stat.Cell{Value: stat.Unlisted{}, P: 990, Q: 1010})
	g = Group(tb, 2, 100_000, false)
	require.Equal(t, g.OfValue["even"]+1, g.Unlisted)
	require.Equal(t, g.OfValue["lower"], g.Unlisted+1)

	plain := Group(rareTable(), 2, 100_000, false)
	require.Equal(t, plain.Groups-1, plain.Unlisted, "without the cell, the last group")
}
