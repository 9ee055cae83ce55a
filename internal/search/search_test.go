package search

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/fixtures"
)

// fake is a criterion whose screening estimate of pair X=k, Y=0 is k (X→Y)
// and k/2 (Y→X), and whose confirmations return the bounds given per round.
type fake struct {
	bounds    map[int][2]float64 // pair X value → bounds of rounds A and B (X→Y)
	confirmed []int
	alphas    []float64
}

func (f *fake) Screen(_ uint64, p fixtures.Pair[int], _ int) (xy, yx Score, err error) {
	k := float64(p.X)
	return Score{Estimate: k, StdErr: 0.1, Rank: k}, Score{Estimate: k / 2, StdErr: 0.1, Rank: k / 2}, nil
}

func (f *fake) Confirm(seed uint64, p fixtures.Pair[int], _ int, alpha float64, xy, yx *Score) (a, b Score, err error) {
	f.confirmed = append(f.confirmed, p.X)
	f.alphas = append(f.alphas, alpha)
	round := 0
	if seed == subSeed(1, "confirm1", 0) || seed == subSeed(1, "confirm1", 1) {
		round = 1
	}
	lb := f.bounds[p.X][round]
	return Score{Estimate: lb + 1, LowerBound: lb}, Score{Estimate: lb, LowerBound: lb - 1}, nil
}

func pairs(xs ...int) []fixtures.Pair[int] {
	var out []fixtures.Pair[int]
	for _, x := range xs {
		out = append(out, fixtures.Pair[int]{X: x})
	}
	return out
}

func TestRunConfirmsTheTwoMostDivergentTwice(t *testing.T) {
	f := &fake{bounds: map[int][2]float64{5: {3, 0.5}, 4: {2.5, 2.2}}}
	out, err := Run[int](f, Config[int]{Claim: 2, Alpha: 1e-4, Samples: 10, Screen: 1, Seed: 1, Pairs: pairs(1, 4, 5), Confirm: 2})
	require.NoError(t, err)
	require.Equal(t, 3, out.PairsSearched)
	// Ranked by screening: 5 (X→Y), 4 (X→Y), 5/2 (Y→X), …
	require.Len(t, out.Confirmed, 2)
	require.Equal(t, 5, out.Confirmed[0].Pair.X)
	require.Equal(t, 4, out.Confirmed[1].Pair.X)
	// α′ = √(α/K) for each of the 2×2 confirmations.
	require.Len(t, f.alphas, 4)
	for _, a := range f.alphas {
		require.InDelta(t, math.Sqrt(1e-4/2), a, 1e-15)
	}
	// Pair 5 exceeds the claim in one round only; pair 4 in both: violated,
	// with pair 4 as the witness, its bound the smaller of its two.
	require.True(t, out.Violated)
	require.Equal(t, 4, out.Best.Pair.X)
	require.Equal(t, 2.2, out.Best.Bound())
	require.InDelta(t, (3.5+3.2)/2, out.Best.Estimate(), 1e-12)
}

func TestRunOneRoundIsNotEnough(t *testing.T) {
	f := &fake{bounds: map[int][2]float64{5: {3, 1.9}, 4: {1.9, 3}}}
	out, err := Run[int](f, Config[int]{Claim: 2, Alpha: 1e-4, Samples: 10, Screen: 1, Seed: 1, Pairs: pairs(4, 5), Confirm: 2})
	require.NoError(t, err)
	require.False(t, out.Violated)
	require.Equal(t, 1.9, out.Best.Bound())
}

func TestRunNeedsCandidates(t *testing.T) {
	_, err := Run[int](&fake{}, Config[int]{Claim: 1, Alpha: 0.1, Samples: 10, Screen: 1, Confirm: 2})
	require.ErrorContains(t, err, "no candidate pairs")
}

// winnersCurse screens pair X=k at the estimates listed for k, one per
// screening (the last repeated), standard error 0.01 in both directions.
type winnersCurse struct {
	estimates map[int][]float64
	screens   map[int]int
}

func (w *winnersCurse) Screen(_ uint64, p fixtures.Pair[int], _ int) (xy, yx Score, err error) {
	e := w.estimates[p.X]
	i := min(w.screens[p.X], len(e)-1)
	w.screens[p.X]++
	return Score{Estimate: e[i], StdErr: 0.01, Rank: e[i]}, Score{Estimate: 0, StdErr: 0.01}, nil
}

func (w *winnersCurse) Confirm(uint64, fixtures.Pair[int], int, float64, *Score, *Score) (a, b Score, err error) {
	return Score{Estimate: 4, LowerBound: 3}, Score{Estimate: 4, LowerBound: 3}, nil
}

// The best screening (9 for pair 7) is inflated; a fresh screening of it
// gives 5, and the simpler pair 1, screened at 4.8, takes the lead: within
// SimplifySlack·5 = 0.25 of 5, though 14 standard errors of the difference
// below it. Compared with the inflated 9 it would have been rejected. At
// 4.5 it is not as divergent and is not taken.
func TestSimplifyComparesWithAFreshScreening(t *testing.T) {
	for _, tc := range []struct {
		simple   float64
		wantLead int
	}{{4.8, 1}, {4.5, 7}} {
		w := &winnersCurse{estimates: map[int][]float64{7: {9, 5}, 3: {4}, 1: {tc.simple}}, screens: map[int]int{}}
		simplify := func(p fixtures.Pair[int]) []fixtures.Pair[int] {
			if p.X == 7 {
				return pairs(1)
			}
			return nil
		}
		out, err := Run[int](w, Config[int]{Claim: 2, Alpha: 1e-4, Samples: 10, Screen: 1, Seed: 1,
			Pairs: pairs(3, 7), Confirm: 2, Simplify: simplify})
		require.NoError(t, err)
		require.Equal(t, 2, w.screens[7], "the best pair is screened again")
		require.Equal(t, 3, out.PairsSearched) // 3, 7, 1 (and 7 again)
		require.Equal(t, tc.wantLead, out.Confirmed[0].Pair.X, "simpler pair screened at %v", tc.simple)
		for _, c := range out.Confirmed {
			require.NotEqual(t, "again", c.Source, "the fresh screening is a reference, not a candidate")
		}
	}
}
