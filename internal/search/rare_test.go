package search

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
	"github.com/dptest/dptest/internal/verdict"
)

// rareValuesOf counts, in a screening of values without an order, the
// draws of values seen fewer than renyi.RareCount times in its two halves
// pooled (both sides), and those of values only the second half drew:
// here a value seen 11 times of 2,000 outputs per side, with one the
// second half alone drew twice; a value seen 12 times is not rare. A
// partition's cells and numbers screened in ranges have their own
// measures of sparseness and none here.
func TestRareValuesOfAScreening(t *testing.T) {
	order := &stat.Table{NP: 1000, NQ: 1000, Cells: []stat.Cell{
		{Value: "a", P: 980, Q: 990}, {Value: "rare", P: 6, Q: 2}, {Value: "twelve", P: 7, Q: 0}, {Value: "common", P: 7, Q: 8},
	}}
	held := stat.Recounted(order, []int64{985, 2, 5, 7, 1}, []int64{990, 1, 0, 8, 1}, 1000, 1000)
	r := rareValuesOf(order, held, stat.Pooled(order, held))
	require.Equal(t, RareValues{Share: 13.0 / 4000, Draws: 2000}, r)
	require.Nil(t, r.reason(), "under RareShare")

	held = stat.Recounted(order, []int64{973, 2, 5, 7, 13}, []int64{985, 1, 0, 8, 6}, 1000, 1000)
	r = rareValuesOf(order, held, stat.Pooled(order, held))
	require.Equal(t, RareValues{Share: 30.0 / 4000, Draws: 2000}, r)
	held = stat.Recounted(order, []int64{963, 2, 5, 7, 23}, []int64{975, 1, 0, 8, 16}, 1000, 1000)
	r = rareValuesOf(order, held, stat.Pooled(order, held))
	require.Equal(t, &verdict.RareValues{Count: 12, Draws: 2000, Share: 0.0125}, r.reason())

	part := &stat.Table{NP: order.NP, NQ: order.NQ, Cells: order.Cells, Partition: &stat.Partition{}}
	require.Zero(t, rareValuesOf(part, part, part))
	ranges := &stat.Table{NP: order.NP, NQ: order.NQ, Cells: order.Cells, Values: order}
	require.Zero(t, rareValuesOf(ranges, ranges, ranges))
	require.Zero(t, rareValuesOf(&stat.Table{}, &stat.Table{}, &stat.Table{}))
}

// A screening whose rare values hold RareShare of its draws or more
// marks its pair unresolved, so that refine screens it again at the
// confirmation's size, and its finding carries the share to the
// confirmation, which is unresolved too when they are still that rare
// there: nine outputs in ten one value, the tenth one of 2,000 others.
// Screened on 100,000 draws a side, each of those is seen about 10 times,
// both sides together, and those seen fewer than 12 times hold 6% of the
// draws (a Poisson count of mean 10, weighted by itself, is at most 11 with
// probability 0.58); on a million, about 100 times, and neither the
// screening nor its confirmation is unresolved.
func TestRareValuesLeaveTheScreeningUnresolved(t *testing.T) {
	src := sampler.Discrete(func(r *rand.Rand, _ int) string {
		if r.IntN(10) != 0 {
			return "head"
		}
		return fmt.Sprint(r.IntN(2000))
	})
	c := RDP(src, 2, plan.RenyiRules{DiscreteTau: plan.RenyiDiscreteTau, RelativeTau: plan.RenyiRelativeTau}, 1_000_000, 0.007)
	pair := fixtures.Pair[int]{X: 1, Y: 0}
	for _, n := range []int{100_000, 1_000_000} {
		xy, yx, err := c.Screen(1, pair, plan.Stage{Samples: n, Pilot: plan.MaxPilot})
		require.NoError(t, err)
		cx, _, err := c.Confirm(2, pair, plan.Stage{Samples: 1_000_000}, 0.007, &xy.Finding, nil, nil)
		require.NoError(t, err)
		if n == 100_000 {
			require.InDelta(t, 0.058, xy.Finding.Rare.Share, 0.005)
			require.Equal(t, int64(100_000), xy.Finding.Rare.Draws)
			require.Equal(t, xy.Finding.Rare, yx.Finding.Rare)
			for _, why := range []verdict.Reason{xy.Reason, yx.Reason, cx.Reason} {
				require.Equal(t, &verdict.RareValues{Count: 12, Draws: 100_000, Share: xy.Finding.Rare.Share}, why)
			}
			continue
		}
		require.Zero(t, xy.Finding.Rare.Share)
		require.Nil(t, xy.Reason)
		require.Nil(t, cx.Reason)
	}
}
