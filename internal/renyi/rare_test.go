package renyi

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/stat"
)

// rareTable is a table of 100,000 draws a side: four well-seen cells of
// ratios 1.2, 1, 0.8 and 0.3, and rare values of the counts given.
func rareTable(rare ...stat.Cell) *stat.Table {
	tb := &stat.Table{NP: 100_000, NQ: 100_000, Cells: []stat.Cell{
		{Value: "high", P: 1200, Q: 1000}, {Value: "even", P: 1000, Q: 1000},
		{Value: "lower", P: 800, Q: 1000}, {Value: "low", P: 300, Q: 1000},
	}}
	return &stat.Table{NP: tb.NP, NQ: tb.NQ, Cells: append(tb.Cells, rare...)}
}

// copies returns n rare values named prefix0, prefix1, … of p and q
// outputs each.
func copies(prefix string, n int, p, q int64) []stat.Cell {
	var out []stat.Cell
	for i := range n {
		out = append(out, stat.Cell{Value: fmt.Sprintf("%s%d", prefix, i), P: p, Q: q})
	}
	return out
}

// When the rare values, summed, lean to P (90 outputs against 50: 3.4
// standard errors), those that lean to P are keyed as one cell: twenty
// strings of 4 outputs of P against 1 of Q (keyed one by one at −0.79,
// under the cell of ratio 0.8 seen 2,000 times) share the first group,
// with no cell whose ratio is under 1 (at λ = 5 a group needs 50 outputs
// a side, more than the pool's 20 of Q, so the pool takes in the
// highest-ratio cell after it); those that lean to Q keep their keys and
// share none of its groups. For D_λ(Q ‖ P) the rare values lean away from
// the bounded side, and each keeps its own key: the strings go last. Group
// itself keys every value on its own counts.
func TestGroupPoolsRareValuesThatLeanTogether(t *testing.T) {
	tb := rareTable(append(copies("p", 20, 4, 1), copies("q", 10, 1, 3)...)...)
	plain := Group(tb, 5, 100_000, false)
	require.NotEqual(t, plain.OfValue["high"], plain.OfValue["p0"])
	g, pooled := GroupPoolingRare(tb, 5, 100_000, false)
	require.True(t, pooled)
	require.Equal(t, 0, g.OfValue["p0"], "the pool leaning to P comes first")
	for i := range 20 {
		require.Equal(t, 0, g.OfValue[fmt.Sprintf("p%d", i)])
	}
	require.Equal(t, 0, g.OfValue["high"])
	for _, v := range []string{"even", "lower", "low", "q0"} {
		require.NotEqual(t, 0, g.OfValue[v], v)
	}

	_, pooled = GroupPoolingRare(tb, 5, 100_000, true)
	require.False(t, pooled)
	r := Group(tb, 5, 100_000, true)
	for i := range 20 {
		require.Equal(t, r.Groups-1, r.OfValue[fmt.Sprintf("p%d", i)])
	}
}

// Rare values that do not lean together keep their own keys: among ten
// thousand values seen once on either side as often (a k-ary randomized
// response), the value P keeps, seen 7 times against once, ranks after
// the well-seen cells of ratio 1.2 and 1 and shares the group of the cell
// of ratio 0.8, with no value seen once. Pooled with the singles P saw,
// it would share a group with five thousand of them, of ratio 1 on fresh
// draws.
func TestGroupKeepsRareValuesThatDoNotLeanApart(t *testing.T) {
	tb := rareTable(append(append(copies("x", 5000, 1, 0), copies("y", 5000, 0, 1)...), stat.Cell{Value: "kept", P: 7, Q: 1})...)
	_, pooled := GroupPoolingRare(tb, 2, 100_000, false)
	require.False(t, pooled)
	g := Group(tb, 2, 100_000, false)
	require.Equal(t, g.OfValue["lower"], g.OfValue["kept"])
	require.NotEqual(t, g.OfValue["kept"], g.OfValue["x0"])
	require.NotEqual(t, g.OfValue["kept"], g.OfValue["y0"])
}
