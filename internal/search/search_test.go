package search

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/internal/local"
	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
	"github.com/dptest/dptest/internal/verdict"
)

// finding is the fake criteria's finding: the pair it was screened on.
type finding struct{ x int }

// fake is a criterion whose screening estimate of pair X=k, Y=0 is k (X→Y)
// and k/2 (Y→X), and whose confirmations return the bounds given per round.
type fake struct {
	mu        sync.Mutex         // the engine screens and confirms concurrently
	bounds    map[int][2]float64 // pair X value → bounds of rounds A and B (X→Y)
	confirmed []int
	alphas    []float64
	findings  []*finding
}

func (*fake) Directions() [2]string { return [2]string{"X→Y", "Y→X"} }

func (f *fake) Screen(_ uint64, p fixtures.Pair[int], _ plan.Stage) (xy, yx Screened[finding], err error) {
	k := float64(p.X)
	return Screened[finding]{Score{Estimate: k, StdErr: 0.1, Rank: k}, finding{p.X}},
		Screened[finding]{Score{Estimate: k / 2, StdErr: 0.1, Rank: k / 2}, finding{p.X}}, nil
}

func (f *fake) Confirm(seed uint64, p fixtures.Pair[int], _ plan.Stage, alpha float64, xy, yx *finding, _ *Counts) (a, b Score, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.confirmed = append(f.confirmed, p.X)
	f.alphas = append(f.alphas, alpha)
	f.findings = append(f.findings, xy)
	round := 0
	if seed == plan.SubSeed(1, "confirm1", 0) || seed == plan.SubSeed(1, "confirm1", 1) {
		round = 1
	}
	lb := f.bounds[p.X][round]
	return Score{Estimate: lb + 1, LowerBound: lb}, Score{Estimate: lb, LowerBound: lb - 1}, nil
}

func inputs(xs ...int) []Input[int] {
	var out []Input[int]
	for i, x := range xs {
		out = append(out, Input[int]{Pair: fixtures.Pair[int]{X: x}, Source: fmt.Sprintf("pair %d", i+1)})
	}
	return out
}

func config(threshold float64, in []Input[int]) Config[int] {
	return Config[int]{Run: plan.Run{Threshold: threshold, Alpha: 1e-4, Seed: 1}, Candidates: in}
}

func TestRunConfirmsTheTwoMostDivergentTwice(t *testing.T) {
	f := &fake{bounds: map[int][2]float64{5: {3, 0.5}, 4: {2.5, 2.2}}}
	out, err := Run(f, config(2, inputs(1, 4, 5)))
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
	// The screening's finding reaches the confirmation and the outcome.
	require.ElementsMatch(t, []*finding{{5}, {4}, {5}, {4}}, f.findings)
	require.Equal(t, finding{4}, out.Best.Finding)
	// Pair 5 exceeds the claim in one round only; pair 4 in both: violated,
	// with pair 4 as the witness, its bound the smaller of its two.
	require.True(t, out.Violated)
	require.Equal(t, 4, out.Best.Pair.X)
	require.Equal(t, 2.2, out.Best.Bound())
	require.InDelta(t, (3.5+3.2)/2, out.Best.Estimate(), 1e-12)
	require.Equal(t, "X→Y", out.Direction(out.Best))
}

func TestRunOneRoundIsNotEnough(t *testing.T) {
	f := &fake{bounds: map[int][2]float64{5: {3, 1.9}, 4: {1.9, 3}}}
	out, err := Run(f, config(2, inputs(4, 5)))
	require.NoError(t, err)
	require.False(t, out.Violated)
	require.Equal(t, 1.9, out.Best.Bound())
}

func TestRunNeedsCandidates(t *testing.T) {
	_, err := Run(&fake{}, config(1, nil))
	require.ErrorContains(t, err, "no candidate pairs")
}

// decide takes the first violating candidate, or else the largest bound.
func TestDecide(t *testing.T) {
	c := func(x int, a, b float64) Candidate[int, finding] {
		return Candidate[int, finding]{Pair: fixtures.Pair[int]{X: x}, Confirmations: [2]Score{{LowerBound: a}, {LowerBound: b}}}
	}
	best, violated := decide([]Candidate[int, finding]{c(1, 1, 1), c(2, 3, 0.5), c(3, 1.5, 1.5)}, 2)
	require.False(t, violated)
	require.Equal(t, 3, best.Pair.X)
	best, violated = decide([]Candidate[int, finding]{c(1, 1, 1), c(2, 3, 2.5), c(3, 4, 4)}, 2)
	require.True(t, violated)
	require.Equal(t, 2, best.Pair.X)
}

// Both directions of one pair among those confirmed share one sampling
// per round; other pairs get their own.
func TestPairGroups(t *testing.T) {
	p := func(x int, rev bool) Candidate[int, finding] {
		return Candidate[int, finding]{Pair: fixtures.Pair[int]{X: x}, Reverse: rev}
	}
	require.Equal(t, [][]int{{0, 2}, {1}}, pairGroups([]Candidate[int, finding]{p(1, false), p(2, false), p(1, true)}))
	require.Equal(t, [][]int{{0}, {1}}, pairGroups([]Candidate[int, finding]{p(1, false), p(2, true)}))
}

// A screening that fails names the pair and the stage.
func TestScreeningErrorNamesThePair(t *testing.T) {
	_, err := Run[int, finding](failing{}, config(1, inputs(3)))
	var pe *PairError[int]
	require.ErrorAs(t, err, &pe)
	require.Equal(t, 3, pe.Pair.X)
	require.ErrorContains(t, err, "screening pair 1 of X=3 Y=0: boom")
}

type failing struct{}

func (failing) Directions() [2]string { return [2]string{"a", "b"} }
func (failing) Screen(uint64, fixtures.Pair[int], plan.Stage) (xy, yx Screened[finding], err error) {
	return xy, yx, errors.New("boom")
}
func (failing) Confirm(uint64, fixtures.Pair[int], plan.Stage, float64, *finding, *finding, *Counts) (a, b Score, err error) {
	return a, b, nil
}

// winnersCurse screens pair X=k at the estimates listed for k, one per
// screening (the last repeated), standard error 0.01 in both directions.
type winnersCurse struct {
	mu        sync.Mutex
	estimates map[int][]float64
	screens   map[int]int
}

func (*winnersCurse) Directions() [2]string { return [2]string{"X→Y", "Y→X"} }

func (w *winnersCurse) Screen(_ uint64, p fixtures.Pair[int], _ plan.Stage) (xy, yx Screened[finding], err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.estimates[p.X]
	i := min(w.screens[p.X], len(e)-1)
	w.screens[p.X]++
	return Screened[finding]{Score: Score{Estimate: e[i], StdErr: 0.01, Rank: e[i]}},
		Screened[finding]{Score: Score{Estimate: 0, StdErr: 0.01}}, nil
}

func (w *winnersCurse) Confirm(uint64, fixtures.Pair[int], plan.Stage, float64, *finding, *finding, *Counts) (a, b Score, err error) {
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
		cfg := config(2, inputs(3, 7))
		cfg.Simplify = func(p fixtures.Pair[int]) ([]fixtures.Pair[int], error) {
			if p.X == 7 {
				return []fixtures.Pair[int]{{X: 1}}, nil
			}
			return nil, nil
		}
		out, err := Run(w, cfg)
		require.NoError(t, err)
		require.Equal(t, 2, w.screens[7], "the best pair is screened again")
		require.Equal(t, 3, out.PairsSearched) // 3, 7, 1 (and 7 again)
		require.Equal(t, tc.wantLead, out.Confirmed[0].Pair.X, "simpler pair screened at %v", tc.simple)
		for _, c := range out.Confirmed {
			require.NotEqual(t, "again", c.Source, "the fresh screening is a reference, not a candidate")
		}
	}
}

// Without a violation at the trigger level, no screening is spent on
// simplification; the best pair's proposals are screened as improvements
// (up to MaxImprove, last first) and join the ranking on their own
// screenings: a proposal less divergent than the best stays behind it, a
// more divergent one leads.
func TestImproveWhenTheScreeningDoesNotViolate(t *testing.T) {
	for _, tc := range []struct {
		proposal float64
		wantLead int
	}{{1.5, 7}, {5, 1}} {
		w := &winnersCurse{estimates: map[int][]float64{7: {2.01}, 3: {1}, 1: {tc.proposal}, 2: {0.5}}, screens: map[int]int{}}
		cfg := config(2, inputs(3, 7))
		proposed := 0
		cfg.Simplify = func(fixtures.Pair[int]) ([]fixtures.Pair[int], error) {
			proposed++
			return []fixtures.Pair[int]{{X: 2}, {X: 1}}, nil
		}
		out, err := Run(w, cfg)
		require.NoError(t, err)
		require.Equal(t, tc.wantLead, out.Confirmed[0].Pair.X)
		if tc.wantLead == 7 {
			require.Equal(t, 1, w.screens[7], "no reference screening: nothing is simplified")
			require.Equal(t, 1, proposed)
			require.Equal(t, 1, w.screens[1], "the last proposal is screened")
			require.Equal(t, 4, out.PairsSearched)
		} // otherwise the violation the improvement found is simplified next
	}
}

// A pass means something only if the confirmations could have shown a
// violation of ResolutionFactor times the claim: the fake's confirmations
// have a gap Estimate − LowerBound of 1, so the resolution is the threshold
// plus (z_{1−α′} + z_β)/z_{1−α′}, about 1.67 above it.
func TestResolutionDecidesWhetherAPassMeansSomething(t *testing.T) {
	f := &fake{bounds: map[int][2]float64{5: {1, 1}, 4: {1, 1}}}
	out, err := Run(f, config(8, inputs(4, 5)))
	require.NoError(t, err)
	require.False(t, out.Violated)
	require.InDelta(t, 9.67, out.Resolution, 0.01)
	require.Nil(t, out.Reason, "9.67 ≤ 1.5·8: the pass stands")

	out, err = Run(f, config(2, inputs(4, 5)))
	require.NoError(t, err)
	require.False(t, out.Violated)
	coarse, ok := out.Reason.(*verdict.CoarseResolution)
	require.True(t, ok, "%T", out.Reason)
	require.InDelta(t, 3.665, coarse.Resolution, 0.001)
	require.Equal(t, 2.0, coarse.Claim)
	require.Equal(t, verdict.Unresolved, coarse.Class())
}

// coarse is a criterion that cannot resolve its outputs below 1,000 draws
// per side: its screening there is unresolved and finds nothing (finding
// 0); at 1,000 or more it finds its pair (finding X). Its confirmations
// report the finding they were given as the bound.
type coarse struct {
	mu      sync.Mutex
	samples []int // Samples of every screening
}

func (*coarse) Directions() [2]string { return [2]string{"X→Y", "Y→X"} }

func (c *coarse) Screen(_ uint64, p fixtures.Pair[int], st plan.Stage) (xy, yx Screened[finding], err error) {
	c.mu.Lock()
	c.samples = append(c.samples, st.Samples)
	c.mu.Unlock()
	if st.Samples < 1000 {
		s := Screened[finding]{Score{Rank: float64(p.X), Reason: &verdict.RareValues{Share: 1}}, finding{0}}
		return s, s, nil
	}
	s := Screened[finding]{Score{Estimate: float64(p.X), Rank: float64(p.X)}, finding{p.X}}
	return s, s, nil
}

func (*coarse) Confirm(_ uint64, _ fixtures.Pair[int], _ plan.Stage, _ float64, xy, yx *finding, _ *Counts) (a, b Score, err error) {
	for i, f := range []*finding{xy, yx} {
		if f != nil {
			s := Score{Estimate: float64(f.x), LowerBound: float64(f.x)}
			if f.x == 0 {
				s.Reason = &verdict.RareValues{Share: 1}
			}
			*[]*Score{&a, &b}[i] = s
		}
	}
	return a, b, nil
}

// A screening that cannot resolve its outputs is repeated at the
// confirmation's size for the pairs about to be confirmed (and only those),
// and the confirmation counts what that screening found.
func TestRefineScreensUnresolvedLeadersAtFullSize(t *testing.T) {
	c := &coarse{}
	cfg := config(2, inputs(1, 3, 5))
	cfg.Screening, cfg.Confirmation = plan.StageOf(100), plan.StageOf(5000)
	out, err := Run(c, cfg)
	require.NoError(t, err)
	require.ElementsMatch(t, []int{100, 100, 100, 5000}, c.samples, "pair 5 leads in both directions: one refined screening")
	require.Equal(t, 3, out.PairsSearched)
	require.True(t, out.Violated)
	require.Equal(t, finding{5}, out.Best.Finding)
	require.Nil(t, out.Reason)
}

// A confirmation whose evidence rests on the end zones leaves a pass
// unresolved; one just under the limit does not.
func TestUnresolvedWhenTheEvidenceRestsOnTheTail(t *testing.T) {
	cand := func(dependence float64) []Candidate[int, finding] {
		return []Candidate[int, finding]{{Confirmations: [2]Score{{}, {TailDependence: dependence}}}}
	}
	why := unresolved(cand(0.95), 5)
	require.Equal(t, &verdict.TailsUnreached{Lambda: 5, Witness: "X=0 Y=0", Dependence: 0.95}, why)
	require.Nil(t, unresolved(cand(UnresolvedDependence), 5))
}

// sequential is a criterion whose every candidate has the value v, seen by
// the screening with standard error 0.01 and by a confirmation of n draws
// with standard error 1/√n; it records the draws each confirmation
// continued from and its level.
type sequential struct {
	v      float64
	mu     sync.Mutex
	looks  [][2]int // (draws counted before, draws after) per confirmation
	alphas []float64
}

func (*sequential) Directions() [2]string { return [2]string{"X→Y", "Y→X"} }

func (s *sequential) Screen(_ uint64, p fixtures.Pair[int], _ plan.Stage) (xy, yx Screened[finding], err error) {
	sc := Score{Estimate: s.v, StdErr: 0.01, Rank: s.v + float64(p.X)/1000}
	rev := sc
	rev.Rank-- // the two leading candidates are two pairs' X→Y
	return Screened[finding]{sc, finding{p.X}}, Screened[finding]{rev, finding{p.X}}, nil
}

func (s *sequential) Confirm(_ uint64, _ fixtures.Pair[int], st plan.Stage, alpha float64, _, _ *finding, acc *Counts) (a, b Score, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.looks = append(s.looks, [2]int{acc.N, st.Samples})
	s.alphas = append(s.alphas, alpha)
	acc.N = st.Samples
	se := 1 / math.Sqrt(float64(st.Samples))
	sc := Score{Estimate: s.v, StdErr: se, LowerBound: s.v - 2.5*se}
	return sc, sc, nil
}

// The sequential confirmation stops at a look when the claim is violated
// there, or held (the look resolves 1.5 times the claim with probability
// plan.HoldPower), spending plan.LookShare of α; otherwise the planned
// confirmation continues the look's draws at the rest of α.
func TestSequentialConfirmationStopsEarlyOrContinuesTheDraws(t *testing.T) {
	const planned, early = 100 * 8192, 10 * 8192
	run := func(v, th float64) (*sequential, Outcome[int, finding]) {
		s := &sequential{v: v}
		cfg := config(th, inputs(1, 2, 3))
		cfg.Confirmation = plan.Stage{Samples: planned}
		cfg.Looks = []plan.Stage{{Samples: early}}
		out, err := Run(s, cfg)
		require.NoError(t, err)
		return s, out
	}
	earlyAlpha, finalAlpha := math.Sqrt(plan.LookShare*1e-4/2), math.Sqrt((1-plan.LookShare)*1e-4/2)

	s, out := run(1.5, 1) // violated
	require.True(t, out.Violated && out.Early && !out.Held)
	require.Equal(t, early, out.Samples)
	require.Len(t, s.looks, 4, "two rounds of two candidates, once")
	for i, l := range s.looks {
		require.Equal(t, [2]int{0, early}, l)
		require.InDelta(t, earlyAlpha, s.alphas[i], 1e-15)
	}

	// Held at the claim itself: the look resolves 1 + (2.95 + 3.29)/√81920
	// = 1.02 at power 0.999, under 1.5.
	s, out = run(0.99, 1)
	require.True(t, out.Held && out.Early && !out.Violated)
	require.Len(t, s.looks, 4)

	// A claim of 0.02: the look resolves only 0.042, above 0.03; the
	// planned look resolves 0.025 and decides.
	s, out = run(0.01, 0.02)
	require.False(t, out.Violated || out.Early || out.Held)
	require.Nil(t, out.Reason)
	require.Equal(t, planned, out.Samples)
	require.Len(t, s.looks, 8)
	for i, l := range s.looks[4:] {
		require.Equal(t, [2]int{early, planned}, l, "the planned look continues the early one's draws")
		require.InDelta(t, finalAlpha, s.alphas[4+i], 1e-15)
	}

	// A claim of 0.0001 needs (0.037/0.00005)² ≈ 5·10⁵ times the look's
	// draws: hopeless, the run ends unresolved at the first look.
	s, out = run(0, 1e-4)
	require.True(t, out.Early && !out.Held && !out.Violated)
	require.IsType(t, &verdict.CoarseResolution{}, out.Reason)
	require.Len(t, s.looks, 4)
	require.InDelta(t, earlyAlpha, out.PerConfirm, 1e-15)
}

// countOn continues counts of a stream exactly: counts of the first draws
// plus those of the rest are the counts of all of them, and only the rest
// is drawn; counts of another seed are not continued.
func TestCountOnContinuesCounts(t *testing.T) {
	src := sampler.Counting(sampler.Discrete(func(r *rand.Rand, x int) int { return x + r.IntN(3) }), nil, 0)
	g := []stat.Grouping{{Groups: 3, OfValue: map[any]int{0: 0, 1: 1}, Unlisted: 2}}
	p := fixtures.Pair[int]{X: 0, Y: 1}
	acc := &Counts{}
	_, _, err := countOn(src, acc, 5, p, 2*sampler.BlockSize, g)
	require.NoError(t, err)
	cx, cy, err := countOn(src, acc, 5, p, 5*sampler.BlockSize+3, g)
	require.NoError(t, err)
	require.Equal(t, int64(2*(5*sampler.BlockSize+3)), src.Calls(), "every draw made once")
	wx, wy, err := sampler.Discrete(func(r *rand.Rand, x int) int { return x + r.IntN(3) }).Count(5, 0, 1, 0, 5*sampler.BlockSize+3, g)
	require.NoError(t, err)
	require.Equal(t, wx, cx)
	require.Equal(t, wy, cy)
	require.Equal(t, wx, acc.X, "the counts held are the totals")
	require.Panics(t, func() { _, _, _ = countOn(src, acc, 6, p, 6*sampler.BlockSize, g) }, "another seed")
}

// contradicting is a criterion whose screening's held-out estimate is 2 ±
// 0.1 while its confirmations bound the value at 0.5: a claim of 1 must
// not pass on such evidence.
type contradicting struct{ fake }

func (*contradicting) Screen(_ uint64, p fixtures.Pair[int], _ plan.Stage) (xy, yx Screened[finding], err error) {
	sc := Score{Estimate: 2, StdErr: 0.1, Rank: float64(p.X), HeldOut: 2, HeldOutStdErr: 0.1}
	return Screened[finding]{sc, finding{p.X}}, Screened[finding]{sc, finding{p.X}}, nil
}

func (*contradicting) Confirm(uint64, fixtures.Pair[int], plan.Stage, float64, *finding, *finding, *Counts) (a, b Score, err error) {
	s := Score{Estimate: 0.6, StdErr: 0.04, LowerBound: 0.5, TailShare: 0.3}
	return s, s, nil
}

// A screening that saw the claim exceeded on held-out draws, far beyond
// its noise, leaves an unconfirmed audit unresolved, not passed; one
// within its noise does not.
func TestContradictedScreeningIsUnresolved(t *testing.T) {
	cfg := config(1, inputs(1, 2))
	cfg.Screening = plan.StageOf(2 * MinContradictionDraws)
	out, err := Run(&contradicting{}, cfg)
	require.NoError(t, err)
	require.False(t, out.Violated)
	why, ok := out.Reason.(*verdict.HeldOutExceedance)
	require.True(t, ok, "%T", out.Reason)
	require.Equal(t, [3]float64{2, 0.1, 1}, [3]float64{why.HeldOut, why.StdErr, why.Claim})
	require.Equal(t, verdict.Suspect, why.Class())
	cfg.Run.Threshold = 1.7
	out, err = Run(&contradicting{}, cfg)
	require.NoError(t, err)
	require.Nil(t, out.Reason, "2 − 3.9·0.1 (z at 10⁻⁴/4) is not above 1.7")
	cfg.Run.Threshold, cfg.Screening = 1, plan.StageOf(MinContradictionDraws)
	out, err = Run(&contradicting{}, cfg)
	require.NoError(t, err)
	require.Nil(t, out.Reason, "a held-out half too small to trust")
}

// sized is a criterion whose screening of pair X = k estimates k in the
// direction X→Y (0 in the other) with standard error 30/√(draws), except
// for pairs in noisy (estimate k + 3 standard errors: a lucky screening),
// unbounded (an infinite standard error and a lower bound of k − 1, as a
// Rényi event the other side never produced gives), sparse (a
// statistical error) and broken (a failed draw); confirmations
// bound the estimate less 0.1. It records the stage sizes each pair was
// screened at.
type sized struct {
	mu                               sync.Mutex
	noisy, sparse, broken, unbounded map[int]bool
	stages                           map[int][]int
}

func (*sized) Directions() [2]string { return [2]string{"X→Y", "Y→X"} }

func (s *sized) Screen(_ uint64, p fixtures.Pair[int], st plan.Stage) (xy, yx Screened[finding], err error) {
	s.mu.Lock()
	s.stages[p.X] = append(s.stages[p.X], st.Samples)
	s.mu.Unlock()
	switch {
	case s.broken[p.X]:
		return xy, yx, &sampler.DrawError{Dataset: "X", Err: errors.New("draw 3: panic")}
	case s.sparse[p.X]:
		return xy, yx, &stat.SparseError{Values: 10, Draws: 20}
	}
	se := 30 / math.Sqrt(float64(st.Samples))
	k := float64(p.X)
	if s.noisy[p.X] {
		k += 3 * se
	}
	if s.unbounded[p.X] {
		return Screened[finding]{Score{Estimate: k, StdErr: math.Inf(1), LowerBound: k - 1, Rank: k}, finding{p.X}},
			Screened[finding]{Score{StdErr: se}, finding{p.X}}, nil
	}
	return Screened[finding]{Score{Estimate: k, StdErr: se, Rank: k}, finding{p.X}},
		Screened[finding]{Score{StdErr: se}, finding{p.X}}, nil
}

func (*sized) Confirm(_ uint64, p fixtures.Pair[int], _ plan.Stage, _ float64, xy, yx *finding, _ *Counts) (a, b Score, err error) {
	k := float64(p.X)
	return Score{Estimate: k, LowerBound: k - 0.1}, Score{LowerBound: -1}, nil
}

func sizedConfig(threshold float64, candidates, wide []int) Config[int] {
	cfg := config(threshold, inputs(candidates...))
	cfg.Screening, cfg.WideScreening, cfg.WideSift = plan.Stage{Samples: 10000}, plan.Stage{Samples: 100}, plan.Stage{Samples: 1000}
	cfg.Wide = inputs(wide...)
	return cfg
}

// The wide stage screens every wide pair coarsely (standard error 3
// here), the plan.WideSifted of highest rank again (0.95), and promotes
// to a full screening, at most MaxWidePromoted, only those whose sifting
// rank less z = 2.73 standard errors exceeds the best candidate's, 3:
// the wide pairs 9 and 8 are promoted; 7 would be a third; 5 is ahead,
// but not clearly; 0 led the coarse screening by luck; -4, -5 and -6
// rank below the sifted eight; the sparse 11 is skipped and counted. A
// failed draw on a wide pair is the pair's error, as on any pair.
func TestWideScreeningPromotesOnlyPairsClearlyAhead(t *testing.T) {
	s := &sized{noisy: map[int]bool{0: true}, sparse: map[int]bool{11: true}, stages: map[int][]int{}}
	cfg := sizedConfig(4, []int{1, 3}, []int{-1, -2, -3, 5, 7, 0, 9, 11, 8, -4, -5, -6})
	out, err := Run(s, cfg)
	require.NoError(t, err)
	require.True(t, out.Violated)
	require.Equal(t, 9, out.Best.Pair.X)
	require.Equal(t, WideResult{Screened: 12, Sifted: plan.WideSifted, Skipped: 1, Promoted: 2, Samples: 100}, out.Wide)
	for x, want := range map[int][]int{9: {100, 1000, 10000}, 8: {100, 1000, 10000}, 7: {100, 1000}, 5: {100, 1000}, 0: {100, 1000}, -3: {100, 1000}, -4: {100}, 11: {100}} {
		require.Equal(t, want, s.stages[x], "pair %d", x)
	}
	require.Equal(t, 4, out.PairsSearched, "the candidates and the promoted pairs")

	s = &sized{noisy: map[int]bool{0: true}, stages: map[int][]int{}}
	out, err = Run(s, sizedConfig(4, []int{1, 3}, []int{5, 0}))
	require.NoError(t, err)
	require.Equal(t, 0, out.Wide.Promoted, "with promotions to spare, neither 5 nor the lucky 0 is clearly ahead")
	require.False(t, out.Violated)

	s = &sized{broken: map[int]bool{7: true}, stages: map[int][]int{}}
	_, err = Run(s, cfg)
	var pe *PairError[int]
	require.ErrorAs(t, err, &pe)
	require.Equal(t, 7, pe.Pair.X)
	require.Contains(t, pe.Stage, "wide screening")
}

// No wide screening when a candidate's screening already shows the claim
// exceeded by more than half (WideSkipMargin); just above it is not
// enough, the best of many screenings being biased upwards.
func TestWideScreeningOnlyWithoutAClearViolation(t *testing.T) {
	s := &sized{stages: map[int][]int{}}
	out, err := Run(s, sizedConfig(4, []int{1, 7}, []int{9}))
	require.NoError(t, err)
	require.Equal(t, WideResult{Samples: 100}, out.Wide)
	require.Empty(t, s.stages[9])

	s = &sized{stages: map[int][]int{}}
	out, err = Run(s, sizedConfig(4, []int{1, 5}, []int{9}))
	require.NoError(t, err)
	require.Equal(t, 1, out.Wide.Promoted)
	require.Equal(t, 9, out.Best.Pair.X)
}

// A sifting screening with an infinite standard error (an event the other
// dataset never produced: the worst violations) is promoted on its lower
// bound, not dropped at −∞.
func TestWideScreeningPromotesUnboundedPairs(t *testing.T) {
	s := &sized{unbounded: map[int]bool{6: true}, stages: map[int][]int{}}
	out, err := Run(s, sizedConfig(4, []int{1, 3}, []int{6, -1}))
	require.NoError(t, err)
	require.Equal(t, 1, out.Wide.Promoted)
	require.Equal(t, 6, out.Best.Pair.X)
	require.True(t, out.Violated)
}

// deepening is a criterion whose statistic's value depends on the size of
// the screening that fixed it: shallow below deepAt draws, deep from
// there (an error there if failAt), each confirmed with standard error
// noise/√n. It records every confirmation's seed and the draws it
// continued.
type deepening struct {
	shallow, deep float64
	noise         float64
	deepAt        int
	fail          bool
	mu            sync.Mutex
	looks         [][2]int
	seeds         []uint64
}

func (*deepening) Directions() [2]string { return [2]string{"X→Y", "Y→X"} }

func (d *deepening) Screen(_ uint64, p fixtures.Pair[int], st plan.Stage) (xy, yx Screened[finding], err error) {
	if st.Samples >= d.deepAt && d.fail {
		return xy, yx, errors.New("too sparse at this size")
	}
	x := 0
	if st.Samples >= d.deepAt {
		x = 1
	}
	sc := Score{Estimate: 1, StdErr: 0.01, Rank: 1 + float64(p.X)/1000}
	return Screened[finding]{sc, finding{x}}, Screened[finding]{sc, finding{x}}, nil
}

func (d *deepening) Confirm(seed uint64, _ fixtures.Pair[int], st plan.Stage, _ float64, xy, _ *finding, acc *Counts) (a, b Score, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	from := 0
	if acc != nil {
		from, acc.N = acc.N, st.Samples
	}
	d.looks, d.seeds = append(d.looks, [2]int{from, st.Samples}), append(d.seeds, seed)
	v := d.shallow
	if xy.x == 1 {
		v = d.deep
	}
	se := d.noise / math.Sqrt(float64(st.Samples))
	sc := Score{Estimate: v, StdErr: se, LowerBound: v - 2.5*se}
	return sc, sc, nil
}

// After a first look that decides nothing (its noise, 25/√n, resolves
// only 1.49 at power 0.999, above 1.5 × 0.95), a deep screening's statistic
// replaces the old one only where the audition (both counted on streams
// the confirmation does not use) predicts it the better bound; the planned
// confirmation then counts it from the start, else it continues the early
// look's draws. A statistic that fails at the deep size leaves the old one.
func TestDeepScreeningKeepsTheBetterStatistic(t *testing.T) {
	const planned, early = 100 * 8192, 10 * 8192
	run := func(d *deepening) Outcome[int, finding] {
		cfg := config(0.95, inputs(1))
		cfg.Confirmation, cfg.Looks, cfg.Audition = plan.Stage{Samples: planned}, []plan.Stage{{Samples: early}}, plan.Stage{Samples: early}
		cfg.Deep = plan.Stage{Samples: planned / 2}
		d.deepAt = planned / 2
		out, err := Run(d, cfg)
		require.NoError(t, err)
		return out
	}
	confirmSeeds := map[uint64]bool{}
	for round := 0; round < 2; round++ {
		confirmSeeds[plan.SubSeed(1, fmt.Sprintf("confirm%d", round), 0)] = true
	}

	d := &deepening{shallow: 0.94, deep: 1.1, noise: 25}
	out := run(d)
	require.True(t, out.Violated && !out.Early, "the deeper statistic shows the violation")
	require.Equal(t, planned/2, out.Deepened)
	require.Len(t, d.looks, 2+4+2, "early look, audition of old and new, planned look")
	for i, l := range d.looks[2:6] {
		require.Equal(t, [2]int{0, early}, l)
		require.False(t, confirmSeeds[d.seeds[2+i]], "the audition draws on streams of its own")
	}
	for _, l := range d.looks[6:] {
		require.Equal(t, [2]int{0, planned}, l, "the new statistic is counted from the start")
	}

	d = &deepening{shallow: 0.94, deep: 0.5, noise: 25}
	out = run(d)
	require.False(t, out.Violated)
	require.Zero(t, out.Deepened)
	require.Len(t, d.looks, 8)
	for _, l := range d.looks[6:] {
		require.Equal(t, [2]int{early, planned}, l, "the old statistic continues the early look's draws")
	}

	d = &deepening{shallow: 0.94, deep: 1.1, noise: 25, fail: true}
	out = run(d)
	require.False(t, out.Violated, "the deep screening failed: the old statistic stands")
	require.Zero(t, out.Deepened)
	for _, l := range d.looks[len(d.looks)-2:] {
		require.Equal(t, [2]int{early, planned}, l)
	}
}

// A local-DP confirmation's resolution is read on the scale of ε: on an
// event of a small share of the outputs it is the event's own; on one of
// most outputs, the least ε whose largest loss on an event of that share
// (the complement bound) reaches it; on every output, none.
func TestSupResolutionOfALargeEvent(t *testing.T) {
	var c dpCriterion[[]float64]
	require.Equal(t, 0.0135, c.SupResolution(0.0135, Score{EventShare: 0.01}))
	require.Equal(t, 1.02, c.SupResolution(1.02, Score{EventShare: 0.5}), "Laplace's half-line at its ε")
	eps := c.SupResolution(0.0135, Score{EventShare: 0.8})
	require.InDelta(t, 0.0522, eps, 1e-4)
	q := 1 - math.Exp(eps)*(1-0.8) // the least Q(E) an ε-DP mechanism allows
	require.InDelta(t, 0.0135, math.Log(0.8/q), 1e-12, "its largest loss on the event is the resolution")
	require.True(t, math.IsInf(c.SupResolution(0.0135, Score{EventShare: 1}), 1))
}

// The audit's resolution of a local-DP claim is at least the least of its
// confirmations' readings on the scale of ε: an event of most outputs in
// one direction does not hide the other direction's resolution, but when
// every confirmed event holds most outputs the audit resolves little.
func TestResolutionReadsTheEventsOnTheScaleOfEpsilon(t *testing.T) {
	var c dpCriterion[[]float64]
	conf := func(shareA, shareB float64) []Candidate[[]float64, local.Estimate] {
		s := func(share float64) Score {
			return Score{Estimate: 0.01, LowerBound: 0.008, StdErr: 0.0005, EventShare: share}
		}
		return []Candidate[[]float64, local.Estimate]{
			{Confirmations: [2]Score{s(shareA), s(shareA)}},
			{Reverse: true, Confirmations: [2]Score{s(shareB), s(shareB)}},
		}
	}
	limit, share := supLimit(c, conf(0.9, 0.8), 0.01)
	require.InDelta(t, math.Log((1-0.8*math.Exp(-0.01))/0.2), limit, 1e-12, "the smaller event's reading at the claim itself")
	require.Equal(t, 0.8, share)
	small := resolution(c, conf(0.1, 0.1), 0.01, 0.004)
	require.Equal(t, small, resolution(c, conf(0.9, 0.1), 0.01, 0.004), "the other direction's small event resolves it")
	require.Greater(t, resolution(c, conf(0.9, 0.9), 0.01, 0.004), 5*small, "every event holds most outputs")

	// A confirmation of two events (a local-DP screening's second, one
	// value) reads the finer: the narrow event's, though its gap is the
	// wider, when the first holds most outputs; its share is then what the
	// events resolve at any size.
	narrow := Score{Estimate: 0.012, LowerBound: 0.002, StdErr: 0.0025, EventShare: 0.01, AltEvent: true}
	two := conf(0.9, 0.9)
	for i := range two {
		for j := range two[i].Confirmations {
			two[i].Confirmations[j].Second = &narrow
		}
	}
	both := resolution(c, two, 0.01, 0.004)
	require.Less(t, both, resolution(c, conf(0.9, 0.9), 0.01, 0.004), "the narrow event resolves what the large cannot")
	zA, zB := numeric.UpperNormalQuantile(0.004), numeric.UpperNormalQuantile(1-math.Sqrt(DetectProbability))
	e, r, read := readResolution(c, two[0].Confirmations[0], 0.01, zA, zB)
	require.True(t, e.AltEvent, "the event of the finer reading")
	require.Equal(t, both, read)
	require.Less(t, r, read, "the large event's gap, the finer")
	_, one, _ := readResolution(c, conf(0.9, 0.9)[0].Confirmations[0], 0.01, zA, zB)
	require.Equal(t, one, r, "as the large event alone")
	limit, share = supLimit(c, two, 0.01)
	require.Equal(t, 0.01, limit)
	require.Equal(t, 0.01, share)
	require.True(t, namedConfirmation(Criterion[[]float64, local.Estimate](c), two[0], false, 0.01, 0.004).AltEvent, "a pass names the event it reads")
	require.False(t, namedConfirmation(Criterion[[]float64, local.Estimate](c), two[0], true, 0.01, 0.004).AltEvent, "a violation names the event of its bound")
}

// A resolution above the claim is explained by what made it so: a finite
// one by its value; an infinite one by a claim beyond what any event of
// the draws shows, by an event one dataset alone produced in a
// confirmation (naming the pair and the bound its counts give), or else
// by events that can show nothing. No text prints an infinity.
func TestCoarseSaysWhyTheResolutionIsTooLarge(t *testing.T) {
	pair := fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}}
	held := Score{Estimate: 0.5, LowerBound: 0.2, StdErr: 0.1}
	alone := Score{Estimate: 2.1, LowerBound: 1.798, StdErr: math.Inf(1), Unbounded: true}
	full := Score{Estimate: 0, LowerBound: 0, StdErr: math.Inf(1)} // an event of every output
	cands := func(a, b Score) []Candidate[[]float64, EventFinding] {
		return []Candidate[[]float64, EventFinding]{{Pair: pair, Confirmations: [2]Score{held, held}}, {Pair: pair, Confirmations: [2]Score{a, b}}}
	}
	coarse := func(c []Candidate[[]float64, EventFinding], n int, r, th float64, beyondFloor bool) verdict.Reason {
		cfg := Config[[]float64]{Run: plan.Run{Criterion: plan.CriterionHockeyStick, Eps: 1, Threshold: th}, Confirmation: plan.StageOf(n)}
		return tooCoarse[[]float64, EventFinding](nil, c, cfg, r, beyondFloor, 0.001)
	}
	finite, ok := coarse(cands(held, held), 1000, 0.9, 0.5, false).(*verdict.CoarseResolution)
	require.True(t, ok)
	require.Equal(t, [3]float64{0.9, 0.5, 1000}, [3]float64{finite.Resolution, finite.Claim, float64(finite.Samples)})
	require.Equal(t, "δ(ε=1)", finite.Measure)
	require.Equal(t, math.Ceil(1000*(0.4/0.25)*(0.4/0.25)), finite.DrawsNeeded, "the excess over the claim falls as 1/√n")
	// The widest confirmation names its pair: here the reverse direction
	// of the second candidate (a bound of 0 on an estimate of 0.1, of
	// standard error 0.3).
	wide := []Candidate[[]float64, EventFinding]{
		{Pair: pair, Confirmations: [2]Score{held, held}},
		{Pair: fixtures.Pair[[]float64]{X: []float64{2}, Y: []float64{3}}, Reverse: true, Confirmations: [2]Score{{Estimate: 0.1, StdErr: 0.3}, held}},
	}
	require.Equal(t, "X=[2] Y=[3]", coarse(wide, 1000, 1.2, 0.5, false).(*verdict.CoarseResolution).Witness)

	require.Equal(t, &verdict.ClaimBeyondReach{Measure: "δ(ε=1)", Claim: 16, Samples: 1000}, coarse(cands(held, held), 1000, math.Inf(1), 16, true))
	require.Equal(t, &verdict.OneSidedEvent{Witness: "X=[1] Y=[0]", Samples: 1_000_000, Bound: 1.798, Claim: 2}, coarse(cands(alone, alone), 1_000_000, math.Inf(1), 2, false))
	require.Equal(t, &verdict.OneSidedOnce{Witness: "X=[1] Y=[0]", Samples: 1_000_000}, coarse(cands(alone, held), 1_000_000, math.Inf(1), 2, false), "one confirmation alone makes r infinite")
	require.Equal(t, &verdict.NoMeasurableEvent{Claim: 2, Samples: 1_000_000}, coarse(cands(full, full), 1_000_000, math.Inf(1), 2, false))
	for _, r := range []verdict.Reason{finite, coarse(cands(alone, alone), 1_000_000, math.Inf(1), 2, false)} {
		require.NotContains(t, r.Text()+r.Remedy(), "Inf", "no text prints an infinity")
	}
}

// A candidate's two rounds of a local-DP confirmation of two events score
// one event: the one whose smaller bound over the rounds is the larger,
// the other kept as Second; a round of one event is left as it is.
func TestAlignEventsScoresOneEvent(t *testing.T) {
	round := func(first, second float64) Score {
		f, s := Score{LowerBound: first, Estimate: first + 0.1}, Score{LowerBound: second, Estimate: second + 0.2, AltEvent: true}
		if second > first {
			s.Second = &f
			return s
		}
		f.Second = &s
		return f
	}
	// Round A: the second event bounds higher (0.9 > 0.7); round B: the
	// first (0.8 > 0.5). min over rounds: first 0.7, second 0.5.
	got := alignEvents([2]Score{round(0.7, 0.9), round(0.8, 0.5)})
	for i, want := range []float64{0.7, 0.8} {
		require.False(t, got[i].AltEvent)
		require.Equal(t, want, got[i].LowerBound)
		require.True(t, got[i].Second.AltEvent)
		require.Nil(t, got[i].Second.Second)
	}
	got = alignEvents([2]Score{round(0.7, 0.9), round(0.6, 0.85)})
	require.True(t, got[0].AltEvent && got[1].AltEvent)
	require.Equal(t, [2]float64{0.9, 0.85}, [2]float64{got[0].LowerBound, got[1].LowerBound})
	one := [2]Score{{LowerBound: 1}, {LowerBound: 2}}
	require.Equal(t, one, alignEvents(one))
}

// echo is a criterion whose confirmation's bound is the finding's x: the
// event counted, named.
type echo struct{ fake }

func (*echo) Confirm(_ uint64, _ fixtures.Pair[int], _ plan.Stage, _ float64, xy, yx *finding, _ *Counts) (a, b Score, err error) {
	if xy != nil {
		a.LowerBound = float64(xy.x)
	}
	if yx != nil {
		b.LowerBound = float64(yx.x)
	}
	return a, b, nil
}

// A pair and direction screened twice (a generator that repeats a pair,
// a simplification that returns to one) is confirmed once, with the event
// of its first screening, and the next distinct candidate takes the
// second place: each confirmed candidate's confirmations count its own
// finding's event, the event a report names.
func TestConfirmTakesEachPairAndDirectionOnce(t *testing.T) {
	a, b := fixtures.Pair[int]{X: 1}, fixtures.Pair[int]{X: 2}
	cands := []Candidate[int, finding]{
		{Pair: a, Finding: finding{10}},
		{Pair: a, Finding: finding{20}},
		{Pair: a, Reverse: true, Finding: finding{30}},
		{Pair: b, Finding: finding{40}},
	}
	confirmed, _, err := confirm(Criterion[int, finding](&echo{}), config(0, nil), cands, nil)
	require.NoError(t, err)
	require.Len(t, confirmed, 2)
	for i, want := range []int{10, 30} {
		require.Equal(t, want, confirmed[i].Finding.x)
		require.Equal(t, float64(want), confirmed[i].Bound(), "its own event's counts")
		require.Equal(t, confirmed[i].Confirmations, cands[[]int{0, 2}[i]].Confirmations, "kept in the screened list too")
	}
	require.Zero(t, cands[1].Confirmations[0].LowerBound, "the repeat is not confirmed")
	require.Equal(t, []int{0, 2}, distinctLeading([]Candidate[int, finding]{cands[0], cands[1], cands[3]}, 2), "the repeat's place goes to the next")
	swapped := Candidate[int, finding]{Pair: fixtures.Pair[int]{X: 0, Y: 1}, Reverse: true}
	require.Equal(t, []int{0, 2}, distinctLeading([]Candidate[int, finding]{cands[0], swapped, cands[3]}, 2), "a pair's direction is its swap's other")
	require.Equal(t, []int{0, 1}, distinctLeading([]Candidate[int, finding]{cands[0], {Pair: swapped.Pair}}, 2), "and not its swap's same")
	s := &screening[int, finding]{cands: []Candidate[int, finding]{cands[0], cands[1], cands[3]}}
	require.Equal(t, []fixtures.Pair[int]{a, b}, s.leadingPairs(func(Candidate[int, finding]) bool { return true }), "the pairs confirm would confirm")
}

// Pairs are told apart by their datasets' Go syntax: strings that print
// alike with %v differ.
func TestPairKey(t *testing.T) {
	require.NotEqual(t, PairKey(fixtures.Pair[[]string]{X: []string{"a b"}}), PairKey(fixtures.Pair[[]string]{X: []string{"a", "b"}}))
	require.NotEqual(t, PairKey(fixtures.Pair[string]{X: "a b", Y: "c"}), PairKey(fixtures.Pair[string]{X: "a", Y: "b c"}))
	require.Equal(t, PairKey(fixtures.Pair[[]float64]{X: []float64{1}}), PairKey(fixtures.Pair[[]float64]{X: []float64{1}}))
	require.True(t, sameDatasets(Swapped(fixtures.Pair[int]{X: 1, Y: 2}), fixtures.Pair[int]{X: 2, Y: 1}))
}

// The draws a Gaussian-DP claim needs before any event's bound can exceed
// it are where hockey.Gaussian's Least stops being infinite.
func TestGaussianFloorDraws(t *testing.T) {
	least := hockey.Gaussian().Least
	for _, mu := range []float64{4, 9, 12} {
		n := GaussianFloorDraws(mu, 1e-3)
		require.True(t, math.IsInf(least(mu, int(0.99*n), 1e-3, 0), 1), "μ=%g below %g draws", mu, n)
		require.False(t, math.IsInf(least(mu, int(1.01*n)+1, 1e-3, 0), 1), "μ=%g above %g draws", mu, n)
	}
}

// The draws that resolve a coarse audit: the resolution's excess over
// the claim, or over what the confirmed events resolve at any size,
// shrinks as 1/√n.
func TestDrawsToResolve(t *testing.T) {
	require.Equal(t, 4_000_000.0, drawsToResolve(2, 1, 1.5, 1_000_000), "(1/0.5)² times the draws")
	// Events that resolve 1.4 at any size (ε = 1): 1.6 falls towards 1.4
	// and must reach 1.5: (0.2/0.1)² = 4 times the draws, not 1.44.
	require.Equal(t, 4_000_000.0, drawsToResolve(1.6, 1.4, 1.5, 1_000_000))
	require.Equal(t, 1_000_000.0, drawsToResolve(1.2, 1, 1.5, 1_000_000), "resolved already")
	require.True(t, math.IsInf(drawsToResolve(2, 1.6, 1.5, 1_000_000), 1), "events that never resolve")
}
