package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
	"github.com/dptest/dptest/internal/verdict"
)

// oneSidedValuesOf counts the held-out draws of the bounded side on the
// values the first half saw from it alone, unless the other side drew
// more than 1/OneSidedRatio as many of them there: "x" and "y" are P's
// alone in order, and held draws them 24 times from P and once from Q (19
// times and once would not count); values order never saw count the same
// way (30 draws of P against 1 of Q). For the reverse direction, Q drew
// "z" alone in order, and three times in held, but P once there, which
// spoils it.
func TestOneSidedValuesCountsTheHeldOutDraws(t *testing.T) {
	order := &stat.Table{NP: 1000, NQ: 1000, Cells: []stat.Cell{
		{Value: "a", P: 980, Q: 990}, {Value: "x", P: 3}, {Value: "y", P: 1}, {Value: "z", Q: 2},
	}}
	held := stat.Recounted(order, []int64{963, 16, 8, 1, 12}, []int64{984, 1, 0, 3, 12}, 1000, 1000)
	require.Equal(t, OneSidedValues{Held: 24, Other: 1, Draws: 1000, First: 4, FirstDraws: 1000}, oneSidedValuesOf(order, held, false))
	held = stat.Recounted(order, []int64{968, 12, 7, 1, 12}, []int64{984, 1, 0, 3, 12}, 1000, 1000)
	require.Equal(t, OneSidedValues{}, oneSidedValuesOf(order, held, false), "19 against 1")
	require.Equal(t, OneSidedValues{}, oneSidedValuesOf(order, held, true))
	held = stat.Recounted(order, []int64{950, 12, 7, 1, 30}, []int64{995, 1, 0, 3, 1}, 1000, 1000)
	require.Equal(t, OneSidedValues{Held: 30, Other: 1, Draws: 1000, FirstDraws: 1000}, oneSidedValuesOf(order, held, false), "values the first half never saw")
	part := &stat.Table{NP: 1000, NQ: 1000, Cells: order.Cells, Partition: &stat.Partition{}}
	require.Equal(t, OneSidedValues{}, oneSidedValuesOf(part, part, false))
}

// A screening's one-sided draws are material when, in a group the other
// side never produced, they could add OneSidedShare of the estimator's
// order-λ sum e^{(λ−1)·D̂} at its floor τ = 10⁻⁵: 25 of 50,000 draws (a =
// 5·10⁻⁴) add a²/τ = 0.025 at λ = 2, over 0.005·e^{0.25}; against an
// estimate of 2, 0.005·e^2 = 0.037 is more; 9 draws are no evidence
// whatever they add.
func TestOneSidedValuesAreMaterialAgainstTheEstimate(t *testing.T) {
	at := func(lambda float64) renyi.Params {
		return renyi.Params{Lambda: lambda, DiscreteTau: plan.RenyiDiscreteTau}
	}
	o := OneSidedValues{Held: 25, Draws: 50_000, First: 20, FirstDraws: 50_000}
	require.True(t, o.material(at(2), 0.25))
	require.Equal(t, &verdict.ScreeningOneSided{Held: 25, Draws: 50_000}, o.reason(at(2), 0.25))
	require.False(t, o.material(at(2), 2))
	require.Nil(t, o.reason(at(2), 2))
	require.True(t, o.material(at(10), 1.25))
	require.True(t, OneSidedValues{Held: 25, Draws: 50_000}.reason(at(2), 0.25).(*verdict.ScreeningOneSided).NeverSeen, "values the first half never saw")
	require.InDelta(t, math.Log(math.Exp(0.25)+0.025), o.potential(at(2), 0.25), 1e-12)
	first := OneSidedValues{Held: 25, Draws: 50_000, First: 150, FirstDraws: 50_000}
	require.InDelta(t, math.Log(math.Exp(0.25)+0.9), first.potential(at(2), 0.25), 1e-12, "the first half's share, three times the held-out half's")
	require.False(t, OneSidedValues{Held: 9, Draws: 10_000}.material(at(2), 0))
	require.True(t, OneSidedValues{Held: 10, Draws: 10_000}.material(at(2), 0))
}

// ownStrings is a rounded Gaussian (σ = 2) of the dataset, as a string,
// beside which each dataset draws, in a share rate of its draws, one of
// 1,000 strings of its own (own) or shared by both (not own).
func ownStrings(rate float64, own bool) sampler.Source[int] {
	return sampler.Discrete(func(r *rand.Rand, x int) string {
		if r.Float64() < rate {
			if own {
				return fmt.Sprintf("far-%d-%d", x, r.IntN(1000))
			}
			return fmt.Sprintf("s-%d", r.IntN(1000))
		}
		return fmt.Sprint(math.Round(float64(x) + 2*r.NormFloat64()))
	})
}

// A screening of 100,000 draws a side sees about a quarter of each
// dataset's own strings (0.3% of its draws), and its held-out half draws
// 15–33 of them again, none of the other's: the pair is unresolved, so
// that refine screens it at the confirmation's size (a million draws list
// three quarters of them), in either direction. The same strings drawn
// alike by both datasets leave it resolved, as does the Gaussian alone.
func TestOneSidedValuesLeaveTheScreeningUnresolved(t *testing.T) {
	c := RDP(ownStrings(3e-3, true), 2, plan.RenyiRules{DiscreteTau: plan.RenyiDiscreteTau, RelativeTau: plan.RenyiRelativeTau}, 1_000_000, 0.007)
	pair := fixtures.Pair[int]{X: 1, Y: 0}
	for seed := uint64(1); seed <= 3; seed++ {
		xy, yx, err := c.Screen(seed, pair, plan.Stage{Samples: 100_000, Pilot: plan.MaxPilot})
		require.NoError(t, err)
		why := firstReason(xy.Reason, yx.Reason)
		require.IsType(t, &verdict.ScreeningOneSided{}, why, "seed %d", seed)
		require.False(t, why.(*verdict.ScreeningOneSided).NeverSeen, "seed %d: values the first half saw from it alone", seed)
	}
	for _, src := range []sampler.Source[int]{ownStrings(3e-3, false), ownStrings(0, false)} {
		c := RDP(src, 2, plan.RenyiRules{DiscreteTau: plan.RenyiDiscreteTau, RelativeTau: plan.RenyiRelativeTau}, 1_000_000, 0.007)
		for seed := uint64(1); seed <= 3; seed++ {
			xy, yx, err := c.Screen(seed, pair, plan.Stage{Samples: 100_000, Pilot: plan.MaxPilot})
			require.NoError(t, err)
			require.Nil(t, firstReason(xy.Reason, yx.Reason), "seed %d", seed)
		}
	}
}

// Screened on a million draws a side, the own strings the first half saw
// are one group, which the other dataset never produced; a confirmation
// counts its draws there alone, which sets the statistic no upper limit
// (Unbounded, so no look holds a claim on it) and names the values
// (AloneValues): over 600 of them, about 2,000 draws of a million.
func TestAConfirmationNamesTheValuesOfOneDatasetAlone(t *testing.T) {
	c := RDP(ownStrings(3e-3, true), 2, plan.RenyiRules{DiscreteTau: plan.RenyiDiscreteTau, RelativeTau: plan.RenyiRelativeTau}, 1_000_000, 0.007)
	pair := fixtures.Pair[int]{X: 1, Y: 0}
	xy, _, err := c.Screen(1, pair, plan.Stage{Samples: 1_000_000, Pilot: plan.MaxPilot})
	require.NoError(t, err)
	cx, _, err := c.Confirm(2, pair, plan.Stage{Samples: 1_000_000}, 0.007, &xy.Finding, nil, nil)
	require.NoError(t, err)
	require.True(t, cx.Unbounded)
	a := cx.AloneValues
	require.NotNil(t, a)
	require.Greater(t, a.Values, 600)
	require.InDelta(t, 2000, a.Draws, 400)
	require.Equal(t, int64(1_000_000), a.Of)
	require.Regexp(t, `^far-1-\d+$`, a.Example)
	require.Greater(t, cx.LowerBound, 0.3, "the Gaussian's 0.25 and the strings' group")

	alike := RDP(ownStrings(3e-3, false), 2, plan.RenyiRules{DiscreteTau: plan.RenyiDiscreteTau, RelativeTau: plan.RenyiRelativeTau}, 1_000_000, 0.007)
	xy, _, err = alike.Screen(1, pair, plan.Stage{Samples: 1_000_000, Pilot: plan.MaxPilot})
	require.NoError(t, err)
	cx, _, err = alike.Confirm(2, pair, plan.Stage{Samples: 1_000_000}, 0.007, &xy.Finding, nil, nil)
	require.NoError(t, err)
	require.False(t, cx.Unbounded)
	require.Nil(t, cx.AloneValues)
	require.Less(t, cx.LowerBound, 0.25)
}

// The group of one side's own strings is bounded as one event too
// (aloneGroupBound), each bound at half the confirmation's level: a
// million draws count about 2,000 of one side's draws there and none of
// the other's, whose two-point divergence at order 2 bounds D₂ above the
// grouped statistic. The same finding without the group is confirmed on
// the same draws by the grouped statistic at the whole level, with the
// same estimate and a lower bound.
func TestTheGroupOfOneSideIsBoundedAsOneEvent(t *testing.T) {
	c := RDP(ownStrings(3e-3, true), 2, plan.RenyiRules{DiscreteTau: plan.RenyiDiscreteTau, RelativeTau: plan.RenyiRelativeTau}, 1_000_000, 0.007)
	pair := fixtures.Pair[int]{X: 1, Y: 0}
	xy, _, err := c.Screen(1, pair, plan.Stage{Samples: 1_000_000, Pilot: plan.MaxPilot})
	require.NoError(t, err)
	require.Positive(t, xy.Finding.AloneGroup)
	values, example, _ := xy.Finding.AloneGroupValues()
	require.Greater(t, values, 600)
	require.Regexp(t, `^far-1-\d+$`, example)
	stage := plan.Stage{Samples: 1_000_000}
	cx, _, err := c.Confirm(2, pair, stage, 0.007, &xy.Finding, nil, nil)
	require.NoError(t, err)
	e := cx.AloneEvent
	require.NotNil(t, e)
	require.Equal(t, 0.0035, e.Level)
	require.Zero(t, e.Counts[1])
	require.InDelta(t, 2000, e.Counts[0], 400)
	require.Equal(t, renyi.EventBound(e.Counts[0], 1_000_000, 0, 1_000_000, 2, 0.0035).LowerBound, cx.LowerBound)

	plain := xy.Finding
	plain.AloneGroup = 0
	cg, _, err := c.Confirm(2, pair, stage, 0.007, &plain, nil, nil)
	require.NoError(t, err)
	require.Nil(t, cg.AloneEvent)
	require.Less(t, cg.LowerBound, cx.LowerBound)
	require.Equal(t, cg.Estimate, cx.Estimate)
	require.Less(t, e.Grouped, cg.LowerBound, "the grouped statistic at half the level")
	require.InDelta(t, cx.Estimate-e.Grouped, cx.gap(0), 1e-12, "the resolution reads the statistic's own bound")
}

// Of numbers, a group the other side never produced counts as values of
// one dataset alone only if it holds a value amid the other's outputs:
// P's odd integers between Q's even ones (ten or more of Q's outputs on
// either side), not P's values beyond all of Q's (a steep output's far
// tail).
func TestInsideGroupsTellValuesAmidTheOthersFromATail(t *testing.T) {
	var cells []stat.Cell
	for v := int64(0); v <= 40; v += 2 {
		cells = append(cells, stat.Cell{Value: v, P: 5, Q: 5})
	}
	cells = append(cells, stat.Cell{Value: int64(21), P: 4}, stat.Cell{Value: int64(23), P: 4}, stat.Cell{Value: int64(100), P: 9})
	tb := &stat.Table{NP: 126, NQ: 105, Cells: cells}
	g := stat.Grouping{Groups: 3, OfValue: map[any]int{int64(21): 1, int64(23): 1, int64(100): 2}}
	for v := int64(0); v <= 40; v += 2 {
		g.OfValue[v] = 0
	}
	sizes := groupSizes(tb, g, false, 1000)
	require.Equal(t, []int64{0, 0, 0}, []int64{sizes.Q[1], sizes.Q[2], 0})
	require.Equal(t, []bool{false, true, false}, insideGroups(tb, g, sizes, false))
	require.Nil(t, insideGroups(tb, g, groupSizes(tb, g, true, 1000), true), "Q alone produced nothing")

	words := &stat.Table{NP: 10, NQ: 10, Cells: []stat.Cell{{Value: "a", P: 10}, {Value: "b", Q: 10}}}
	wg := stat.Grouping{Groups: 2, OfValue: map[any]int{"a": 0, "b": 1}}
	require.Nil(t, insideGroups(words, wg, groupSizes(words, wg, false, 1000), false), "not numbers")
}

// aloneValues takes, among the groups a confirmation counted on the
// bounded side alone, the one of most draws that it takes at all: a group
// of one string seen 50 times (a steep tail, most likely) is passed over
// for twelve strings seen 20 times; of numbers, only a group with a value
// amid the other side's outputs.
func TestAloneValuesTakesTheLargestGroupItNames(t *testing.T) {
	g := stat.Grouping{Groups: 4, OfValue: map[any]int{"tail": 0, "common": 2}, Unlisted: 3}
	for i := range 12 {
		g.OfValue[fmt.Sprintf("s%02d", i)] = 1
	}
	f := &RenyiFinding{Grouping: g}
	a := f.aloneValues([]int64{50, 20, 1000, 0}, []int64{0, 0, 1000, 0}, 10_000)
	require.Equal(t, &AloneValues{Draws: 20, Of: 10_000, Values: 12, Example: "s06"}, a)
	require.Nil(t, f.aloneValues([]int64{50, 9, 1000, 0}, []int64{0, 0, 1000, 0}, 10_000), "nine draws are no evidence")

	numbers := stat.Grouping{Groups: 2, OfValue: map[any]int{}, Unlisted: 1}
	for i := range 12 {
		numbers.OfValue[int64(i)] = 0
	}
	f = &RenyiFinding{Grouping: numbers}
	require.Nil(t, f.aloneValues([]int64{30, 0}, []int64{0, 0}, 10_000), "a tail of numbers")
	f.Inside = []bool{true, false}
	require.Equal(t, 12, f.aloneValues([]int64{30, 0}, []int64{0, 0}, 10_000).Values)
}
