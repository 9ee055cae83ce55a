package search

import (
	"math"
	"sync"
	"testing"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/stat"
	"github.com/dptest/dptest/internal/verdict"
	"github.com/stretchr/testify/require"
)

// staged is a criterion of true value v on every pair but X = 9, whose
// value is 9v (a pair only a wide search holds): a screening of n draws
// estimates it with standard error 1/√n, a confirmation bounds it at
// 2.5/√n below. It records the size of every screening per pair and the
// size and level of every confirmation.
type staged struct {
	v        float64
	mu       sync.Mutex
	screened map[int][]int
	looks    []int
	alphas   []float64
	seeds    map[int][]uint64 // seeds of the screenings and confirmations, by size
	// sparseAtQuick makes every screening at the quick size fail for want
	// of draws; luckyAtQuick adds to the candidates' screening estimates
	// and ranks at the quick size (not to the wide pairs').
	sparseAtQuick bool
	luckyAtQuick  float64
	// unresolvedAtQuick marks every screening at the quick size unresolved
	// (values too rare to screen at that size).
	unresolvedAtQuick bool
	// noise scales the confirmations' standard error, 1/√n by default.
	noise float64
}

func (*staged) Directions() [2]string { return [2]string{"X→Y", "Y→X"} }

func (s *staged) value(x int) float64 {
	if x == 9 {
		return 9 * s.v
	}
	return s.v
}

func (s *staged) Screen(seed uint64, p fixtures.Pair[int], st plan.Stage) (xy, yx Screened[finding], err error) {
	s.mu.Lock()
	s.screened[p.X] = append(s.screened[p.X], st.Samples)
	s.seeds[st.Samples] = append(s.seeds[st.Samples], seed)
	s.mu.Unlock()
	v := s.value(p.X)
	if st.Samples == quickScreening {
		if s.sparseAtQuick {
			return xy, yx, &stat.SparseError{Values: 5000, Draws: 6250}
		}
		if p.X < 5 {
			v += s.luckyAtQuick
		}
	}
	sc := Score{Estimate: v, StdErr: 1 / math.Sqrt(float64(st.Samples)), Rank: v + float64(p.X)/1e4}
	if s.unresolvedAtQuick && st.Samples == quickScreening {
		sc.Reason = &verdict.RareValues{Share: 1}
	}
	rev := sc
	rev.Rank--
	return Screened[finding]{sc, finding{p.X}}, Screened[finding]{rev, finding{p.X}}, nil
}

func (s *staged) Confirm(seed uint64, p fixtures.Pair[int], st plan.Stage, alpha float64, _, _ *finding, acc *Counts) (a, b Score, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seeds[st.Samples] = append(s.seeds[st.Samples], seed)
	s.looks = append(s.looks, st.Samples)
	s.alphas = append(s.alphas, alpha)
	acc.N = st.Samples
	se := max(s.noise, 1) / math.Sqrt(float64(st.Samples))
	v := s.value(p.X)
	sc := Score{Estimate: v, StdErr: se, LowerBound: v - 2.5*se}
	return sc, sc, nil
}

const (
	quickScreening, quickConfirmation = 12_500, 25_000
	fullScreening, earlyConfirmation  = 100_000, 31 * 8192 // a look as large as the screening can hold
	plannedConfirmation               = 1_000_000
)

func runStaged(t *testing.T, v float64, wide ...int) (*staged, Outcome[int, finding]) {
	t.Helper()
	return runStagedOn(t, &staged{v: v}, wide...)
}

func runStagedOn(t *testing.T, s *staged, wide ...int) (*staged, Outcome[int, finding]) {
	t.Helper()
	s.screened, s.seeds = map[int][]int{}, map[int][]uint64{}
	cfg := config(1, inputs(1, 2, 3))
	cfg.Screening, cfg.Confirmation = plan.Stage{Samples: fullScreening}, plan.Stage{Samples: plannedConfirmation}
	cfg.Looks = []plan.Stage{{Samples: earlyConfirmation}}
	cfg.QuickScreening, cfg.QuickConfirmation = plan.Stage{Samples: quickScreening}, plan.Stage{Samples: quickConfirmation}
	cfg.Wide, cfg.WideScreening, cfg.WideSift = inputs(wide...), plan.Stage{Samples: 2000}, plan.Stage{Samples: 12_500}
	out, err := Run(s, cfg)
	require.NoError(t, err)
	return s, out
}

// The quick look decides a clear violation and a claim held with margin
// on its own screening and confirmation, at plan.QuickLookShare of α,
// without the full screening; a claim near its truth is screened in full
// after the quick screening, without a quick confirmation, and the
// sequential confirmation spends the rest of α.
func TestQuickLookDecidesClearCasesAlone(t *testing.T) {
	quickAlpha := math.Sqrt(plan.QuickLookShare * 1e-4 / plan.Confirmed)
	for _, v := range []float64{2, 0.3} {
		s, out := runStaged(t, v)
		require.True(t, out.Quick && !out.Early, "v = %g", v)
		require.Equal(t, v > 1, out.Violated)
		require.Equal(t, v < 1, out.Held)
		require.Equal(t, quickConfirmation, out.Samples)
		require.Equal(t, []int{quickScreening}, s.screened[1], "no full screening")
		require.Equal(t, []int{quickConfirmation, quickConfirmation, quickConfirmation, quickConfirmation}, s.looks)
		for _, a := range s.alphas {
			require.InDelta(t, quickAlpha, a, 1e-15)
		}
	}

	// Inside the claim, not with margin: no quick confirmation; too noisy
	// to hold at the full run's first look (100/√253952 is 0.2 a
	// standard error).
	s, out := runStagedOn(t, &staged{v: 0.85, noise: 100})
	require.False(t, out.Quick || out.Early || out.Violated)
	require.Equal(t, []int{quickScreening, fullScreening}, s.screened[1])
	require.NotContains(t, s.looks, quickConfirmation)
	require.Equal(t, plannedConfirmation, out.Samples)
	rest := 1e-4 * (1 - plan.QuickLookShare)
	require.InDelta(t, math.Sqrt(rest*(1-plan.LookShare)/plan.Confirmed), out.PerConfirm, 1e-15)
	require.InDelta(t, math.Sqrt(rest*plan.LookShare/plan.Confirmed), s.alphas[0], 1e-15)
}

// The quick look's wide screening serves the full run: a wide pair it
// promotes is screened in full there as a candidate, and the wide pairs
// are not screened again.
func TestQuickLookWideScreeningServesTheFullRun(t *testing.T) {
	s, out := runStaged(t, 0.11, 5, 6, 9) // pair 9 is at 0.99: neither violated nor held
	require.False(t, out.Quick)
	require.Equal(t, []int{2000, 12_500}, s.screened[5], "screened coarsely and sifted, once")
	require.Equal(t, []int{2000, 12_500, quickScreening, fullScreening}, s.screened[9], "coarse, sifted, promoted at the quick look, then in full")
	require.Equal(t, WideResult{Screened: 3, Sifted: 3, Promoted: 1, Samples: 2000}, out.Wide)
	require.Equal(t, 9, out.Best.Pair.X)
	require.Equal(t, 4, out.PairsSearched, "the three candidates and the promoted pair")
}

// The wide pairs the quick look sifted are promoted against the full
// run's best candidate, not the quick look's: here the quick screening of
// the candidates is lucky (0.9 too high), so the quick look promotes no
// wide pair, and the full run promotes pair 9 from the same sifted draws.
func TestQuickLookWidePromotionIsDecidedAgainstTheFullScreening(t *testing.T) {
	s, out := runStagedOn(t, &staged{v: 0.11, luckyAtQuick: 0.9}, 5, 6, 9)
	require.False(t, out.Quick)
	require.Equal(t, []int{2000, 12_500, fullScreening}, s.screened[9], "not promoted at the quick look; promoted by the full run without new wide draws")
	require.Equal(t, 1, out.Wide.Promoted)
	require.Equal(t, 9, out.Best.Pair.X)
}

// A quick screening that fails for want of draws (outputs too rare at its
// size) leaves the decision to the full run, which screens in full.
func TestQuickLookTooSparseScreensInFull(t *testing.T) {
	s, out := runStagedOn(t, &staged{v: 0.3, sparseAtQuick: true})
	require.False(t, out.Quick || out.Violated)
	require.Equal(t, []int{quickScreening, fullScreening}, s.screened[1])
	require.True(t, out.Early && out.Held, "the full run's early look holds it")
}

// A quick screening whose leading candidates are unresolved (values too
// rare to screen at its size) cannot be held at the quick look, whose
// confirmations of them would be unresolved too: the quick look spends no
// confirmation on them, and the full run screens in full.
func TestQuickLookDoesNotConfirmUnresolvedScreenings(t *testing.T) {
	s, out := runStagedOn(t, &staged{v: 0.3, unresolvedAtQuick: true})
	require.False(t, out.Quick || out.Violated)
	require.NotContains(t, s.looks, quickConfirmation)
	require.Equal(t, []int{quickScreening, fullScreening}, s.screened[1])
	require.True(t, out.Early && out.Held, "the full run's early look holds it")
}

// The quick look draws on streams of its own: no seed of its screenings
// or confirmations is a seed of the full run's.
func TestQuickLookDrawsOnItsOwnStreams(t *testing.T) {
	s, out := runStagedOn(t, &staged{v: 0.85, noise: 100})
	require.False(t, out.Quick)
	quick := map[uint64]bool{}
	for _, sd := range s.seeds[quickScreening] {
		quick[sd] = true
	}
	require.NotEmpty(t, quick)
	for _, n := range []int{fullScreening, earlyConfirmation, plannedConfirmation} {
		require.NotEmpty(t, s.seeds[n], "draws of %d", n)
		for _, sd := range s.seeds[n] {
			require.False(t, quick[sd], "seed %d of a %d-draw look is the quick look's", sd, n)
		}
	}
}

// The hockey-stick cross-check of an ε-DP claim (threshold δ = 0) is held
// with margin when every test beside its event shows a log-ratio inside ε
// (at HoldZ on a confirmation, by its estimate on a screening), and never
// on a test the other dataset never produced.
func TestMarginHeldAtZero(t *testing.T) {
	c := eventCriterion[int]{measure: hockey.HockeyStick(2), threshold: 0, confirm: 1_000_000, alpha: 1e-4 / 3}
	require.True(t, c.holdsAtZero())
	n := int64(25_000)
	// Ratios e^1 in the first group, 1 in the rest: inside ε = 2.
	inside := []int64{2718, 1000, 21282}
	other := []int64{1000, 1000, 23000}
	require.True(t, c.marginHeld(inside, other, n, n, HoldZ))
	// A first group at ratio e^2.1: beyond ε.
	beyond := []int64{8166, 1000, 15834}
	require.False(t, c.marginHeld(beyond, other, n, n, HoldZ))
	// A few draws at ratio 4 can lie inside ε by their estimate alone.
	few := []int64{40, 1000, 23960}
	fewOther := []int64{10, 1000, 23990}
	require.False(t, c.marginHeld(few, fewOther, n, n, HoldZ))
	require.True(t, c.marginHeld(few, fewOther, n, n, 0))
	// Outputs of one dataset only: against ε = 2 the planned million draws
	// could show 5 in 25,000 of them (P(E) = 2·10⁻⁴ > e²·1.1·10⁻⁵), not
	// against ε = 15, where Q(E) = 0 bounds H at e^15·1.1·10⁻⁵ > 1.
	require.False(t, c.marginHeld([]int64{5, 24995}, []int64{0, 25000}, n, n, 0))
	wide := eventCriterion[int]{measure: hockey.HockeyStick(15), threshold: 0, confirm: 1_000_000, alpha: 1e-4 / 3}
	require.True(t, wide.marginHeld([]int64{5, 24995}, []int64{0, 25000}, n, n, HoldZ))
	// Not at a positive δ, nor for the Gaussian-DP level.
	require.False(t, eventCriterion[int]{measure: hockey.HockeyStick(2), threshold: 0.01}.holdsAtZero())
	require.False(t, eventCriterion[int]{measure: hockey.Gaussian()}.holdsAtZero())
	require.Nil(t, holdTest(eventCriterion[int]{measure: hockey.Gaussian()}, 0))
	require.NotNil(t, holdTest(c, 0))
}
