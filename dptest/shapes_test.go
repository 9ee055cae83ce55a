package dptest_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/internal/local"
	"github.com/dptest/dptest/mechanisms"
	"pgregory.net/rapid"
)

// Output shapes unlike the papers' examples, each claimed well below its
// exact divergence: every audit must find the violation or say it cannot
// decide, never pass. Each runs with a fixed seed at the draws per side
// its row gives, where its verdict is the one it has at the default
// million. Most run at 200,000; three costly ones at 20,000 to 100,000.
// The 10⁴-ary randomized response at λ = 20 runs at the million, which
// it needs to be caught (at 200,000 it is unresolved). Under -short it is
// skipped; internal/renyi's TestBestEventFindsTheTellingValue finds its
// telling value at that order. A correct claim would fail with
// probability at most 10⁻⁴, and the broken ones are detected at every
// seed tried. At the default million these shapes are rows of
// internal/experiments/robustness (offsets, discrete Laplace, k-ary
// randomized response, pure DP), whose README records their verdicts.
func TestShapesNeverPassAViolation(t *testing.T) {
	t.Parallel()
	const million, short = dptest.DefaultSamples, dptest.ShortSamples
	sum := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s
	}
	gaussianAt := func(f func(float64) float64) dptest.Mechanism[[]float64] {
		return dptest.Continuous(func(r *rand.Rand, x []float64) float64 { return f(sum(x) + r.NormFloat64()) })
	}
	cases := []struct {
		name   string
		draws  int // per side
		audit  func(draws dptest.Option) (dptest.Report, error)
		caught bool // must be a violation; otherwise a violation or unresolved
		// why is, where not caught, the reason the audit gives at this
		// seed for leaving the claim unresolved.
		why dptest.Reason
	}{
		{"offset 1e10", short, func(draws dptest.Option) (dptest.Report, error) {
			return dptest.AuditRDP(gaussianAt(func(v float64) float64 { return 1e10 + v }), 2, 0.5, draws, dptest.Seed(1))
		}, true, nil},
		{"scale 1e-170", short, func(draws dptest.Option) (dptest.Report, error) {
			return dptest.AuditRDP(gaussianAt(func(v float64) float64 { return 1e-170 * v }), 2, 0.5, draws, dptest.Seed(2))
		}, true, nil},
		{"modes 1e6 apart", short, func(draws dptest.Option) (dptest.Report, error) {
			m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
				return sum(x) + r.NormFloat64() + 1e6*float64(r.IntN(2))
			})
			return dptest.AuditRDP(m, 2, 0.5, draws, dptest.Seed(3))
		}, true, nil},
		{"discrete Laplace of scale 10⁴ on integers", 50_000, func(draws dptest.Option) (dptest.Report, error) {
			return dptest.AuditRDP(discreteLaplace(1e4), 2, mechanisms.Laplace{B: 1}.RDP(2)/2, draws, dptest.Seed(4))
		}, true, nil},
		{"DP of the discrete Laplace of scale 1000 on integers", short, func(draws dptest.Option) (dptest.Report, error) {
			return dptest.AuditDP(discreteLaplace(1000), 1/1.5, draws, dptest.Seed(12))
		}, true, nil},
		{"DP at offset 1e11", 100_000, func(draws dptest.Option) (dptest.Report, error) {
			m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
				return 1e11 + mechanisms.Laplace{B: 1}.Sample(r, x)
			})
			return dptest.AuditDP(m, 0.5, draws, dptest.Seed(5))
		}, true, nil},
		{"10⁴-ary randomized response at λ=20", million, func(draws dptest.Option) (dptest.Report, error) {
			return dptest.AuditRDP(kAryRR(10_000), 20, kAryRRRDP(20, 10_000)/1.5, draws, dptest.Seed(6))
		}, true, nil},
		{"partition selection of infinite loss", short, func(draws dptest.Option) (dptest.Report, error) {
			return dptest.AuditDP(partitionSelection(), 5.5, draws, dptest.Seed(7))
		}, true, nil},
		{"Gaussian at λ=64", short, func(draws dptest.Option) (dptest.Report, error) {
			g := mechanisms.Gaussian{Sigma: 5}
			return dptest.AuditRDP(dptest.Continuous(g.Sample), 64, g.RDP(64)/1.5, draws, dptest.Seed(8))
		}, false, (*dptest.TailsUnreached)(nil)},
		{"10⁵-ary randomized response at λ=10", 20_000, func(draws dptest.Option) (dptest.Report, error) {
			return dptest.AuditRDP(kAryRR(100_000), 10, kAryRRRDP(10, 100_000)/1.5, draws, dptest.Seed(9))
		}, false, (*dptest.SparseNumbers)(nil)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.draws == million {
				skipShort(t, "a million draws per side, about 3 s", "internal/renyi's TestBestEventFindsTheTellingValue")
			}
			rep, err := c.audit(dptest.Samples(c.draws))
			require.NotEqual(t, dptest.Holds, rep.Verdict, "a violation passed: %s", rep)
			if err != nil {
				require.False(t, c.caught, "unresolved where a violation is plain: %v", err)
				require.ErrorIs(t, err, dptest.ErrUnresolved)
				require.Equal(t, dptest.Unresolved, rep.Verdict)
				require.IsType(t, c.why, rep.Reason, "%v", err)
				return
			}
			require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
			if c.name == "partition selection of infinite loss" {
				// The other dataset never produced the event in either
				// confirmation, as infinite loss would show, whichever
				// run confirmed it.
				found := rep
				if i := slices.IndexFunc(rep.Details.CrossChecks, func(c dptest.Report) bool { return c.Verdict == dptest.Violated }); i >= 0 {
					found = rep.Details.CrossChecks[i]
				}
				require.True(t, found.Details.Unbounded, "%s", rep)
				require.Contains(t, []int64{found.Details.EventCounts[0], found.Details.EventCounts[1]}, int64(0), "%s", rep)
			}
		})
	}
}

// The same shapes claimed at their truth are not failed. A correct claim
// fails with probability at most 10⁻⁴. The 10⁴-ary randomized response
// runs at the default million draws per side, also under -short: there a
// claim at a third of its truth is violated, at 200,000 it is not. The
// Gaussian at λ = 64 runs at 200,000: a claim at a third of its truth is
// violated neither there nor at the million (the draws do not reach its
// evidence), so the million adds no check. At the million it is a row of
// the robustness experiment ("gaussian sum+N(0,5) λ=64"), whose README
// records it.
func TestShapesAtTheirTruthDoNotFail(t *testing.T) {
	t.Parallel()
	g := mechanisms.Gaussian{Sigma: 5}
	for name, audit := range map[string]func() (dptest.Report, error){
		"Gaussian at λ=64": func() (dptest.Report, error) {
			return dptest.AuditRDP(dptest.Continuous(g.Sample), 64, g.RDP(64), dptest.Samples(dptest.ShortSamples), dptest.Seed(10))
		},
		"10⁴-ary randomized response at λ=10": func() (dptest.Report, error) {
			return dptest.AuditRDP(kAryRR(10_000), 10, kAryRRRDP(10, 10_000), dptest.Samples(dptest.DefaultSamples), dptest.Seed(11))
		},
	} {
		t.Run(name, func(t *testing.T) {
			rep, err := audit()
			if err != nil && !errors.Is(err, dptest.ErrUnresolved) {
				t.Fatal(err) // an error, or a correct claim made suspect
			}
			require.NotEqual(t, dptest.Violated, rep.Verdict, "%s", rep)
		})
	}
}

// Integers spread over more values than the screening sees repeat are
// resolved at the default sample size: the leading pairs are screened again
// at the confirmation's size, where a discrete Laplace of scale 1000 (about
// 14,000 values) is seen some 70 times a value. (Inconclusive in none of 20
// grid audits; a false failure has probability at most 10⁻⁴.) At 200,000
// draws per side and 20 candidates the DP audit is unresolved.
func TestWideIntegersAreResolved(t *testing.T) {
	skipShort(t, "two audits of a million draws per side, about 15 s", "internal/search's TestRefineScreensUnresolvedLeadersAtFullSize", "TestRareValuesLeaveTheScreeningUnresolved")
	t.Parallel()
	full := dptest.Samples(1_000_000)
	for name, audit := range map[string]func() (dptest.Report, error){
		"RDP": func() (dptest.Report, error) {
			return dptest.AuditRDP(discreteLaplace(1000), 2, mechanisms.Laplace{B: 1}.RDP(2), full, dptest.Seed(13))
		},
		"DP": func() (dptest.Report, error) {
			return dptest.AuditDP(discreteLaplace(1000), 1, full, dptest.Seed(14))
		},
	} {
		t.Run(name, func(t *testing.T) {
			rep, err := audit()
			require.NoError(t, err)
			require.NotEqual(t, dptest.Violated, rep.Verdict, "%s", rep)
		})
	}
}

// discreteLaplace is floor(b·Σx) + a two-sided geometric of scale b: its
// RDP is the Laplace mechanism's of scale 1 up to the lattice.
func discreteLaplace(b float64) dptest.Mechanism[[]float64] {
	return dptest.Discrete(func(r *rand.Rand, x []float64) int64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		l := math.Log(math.Exp(-1 / b))
		g := func() float64 { return math.Floor(math.Log(1-r.Float64()) / l) }
		return int64(math.Floor(b*s) + g() - g())
	})
}

// kAryRR reports the first record's category round(x₀(k−1)) with
// probability e²/(e²+k−1), another uniformly otherwise.
func kAryRR(k int) dptest.Mechanism[[]float64] {
	keep := math.Exp(2) / (math.Exp(2) + float64(k) - 1)
	return dptest.Discrete(func(r *rand.Rand, x []float64) int64 {
		v := int64(math.Round(x[0] * float64(k-1)))
		if r.Float64() < keep {
			return v
		}
		u := int64(r.IntN(k - 1))
		if u >= v {
			u++
		}
		return u
	})
}

// kAryRRRDP is D_λ between two categories of kAryRR(k): two outputs differ.
func kAryRRRDP(lambda float64, k int) float64 {
	pt := math.Exp(2) / (math.Exp(2) + float64(k) - 1)
	pf := 1 / (math.Exp(2) + float64(k) - 1)
	return math.Log(pt*math.Pow(pt/pf, lambda-1)+pf*math.Pow(pf/pt, lambda-1)+float64(k-2)*pf) / (lambda - 1)
}

// partitionSelection is (1, 0.05)-DP exactly and of infinite pure-DP
// loss (mechanisms.PartitionSelection).
func partitionSelection() dptest.Mechanism[[]float64] {
	return dptest.Discrete(mechanisms.PartitionSelection{}.Sample)
}

// Data in [−1, 1]: the search simplifies and improves within the range of
// the user's records, so a confirmed pair of Σx + N(0, 1) differs by 2
// (−1 against 1) or nearly (1.91 under -short, where a first screening's
// few draws stop the simplification short), its true D₂ near 4, and a
// claim of 2.5 fails; simplification toward the old [0, 1] extremes
// would have shown a difference of 1 (D₂ = 1) at best.
func TestSearchReachesTheExtremesOfTheUsersData(t *testing.T) {
	t.Parallel()
	m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s + r.NormFloat64()
	})
	gen := fixtures.Substitution(rapid.Float64Range(-1, 1), 10, 10)
	rep, err := dptest.AuditRDP(m, 2, 2.5, dptest.Neighbors(gen), dptest.Seed(12))
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	widest := 0.0
	for _, c := range rep.Details.Confirmations {
		w, ok := c.Witness.(fixtures.Pair[[]float64])
		require.True(t, ok)
		for i := range w.X {
			widest = max(widest, math.Abs(w.X[i]-w.Y[i]))
		}
	}
	require.Greater(t, widest, 1.5, "beyond what [0, 1] allows: %s", rep)
}

// NonDPLaplace1's noise scale shrinks with the dataset's size, so on an
// add/remove pair the smaller dataset's noise is wider and its D₂ against
// the larger is infinite, all of it in the tails. With this seed the
// confirmed statistic lumped those tails with its last groups and bounded
// D₂ at 0.19 while the screening had estimated 1.05 ± 0.06 on held-out
// draws, above the claimed 0.735: the audit passed. A screening the
// confirmations contradict now leaves it suspect (HeldOutExceedance).
func TestNoPassAgainstTheScreeningsEvidence(t *testing.T) {
	t.Parallel()
	nl1 := mechanisms.NonDPLaplace1{Eps: 1}
	claim := mechanisms.RandomizedResponse{Eps0: 1, M: 1}.RDP(2)
	m := dptest.Continuous(nl1.Sample).
		WithNeighbors(fixtures.AddRemove(rapid.SampledFrom([]float64{0, 1}), 1, 4)).
		WithPairs(fixtures.Pair[[]float64]{X: []float64{1, 0}, Y: []float64{1}}, fixtures.Pair[[]float64]{X: []float64{0, 1}, Y: []float64{0}})
	rep, err := dptest.AuditRDP(m, 2, claim, dptest.Samples(1_000_000), dptest.Seed(331026802665313621))
	if err == nil {
		require.Equal(t, dptest.Violated, rep.Verdict, "a violation passed: %s", rep)
		return
	}
	// The screening's held-out draws estimated it above the claim; the
	// confirmations, leaning on tails, bound it lower.
	require.ErrorIs(t, err, dptest.ErrSuspect)
	require.Equal(t, dptest.Suspect, rep.Verdict)
	var held *dptest.HeldOutExceedance
	require.ErrorAs(t, err, &held)
	require.Equal(t, claim, held.Claim)
	require.Greater(t, held.HeldOut, held.Claim)
	require.Positive(t, held.TailShare, "evidence beyond the most extreme outputs the screening saw")
}

// Outputs that one dataset alone produces rarely (ε = ∞), far beyond the
// noise (10⁶ once in 2,000 draws beside Laplace noise, −10⁶, and 10⁶ plus
// noise) or inside it (0.5 once in 3,000 draws): no cell of the pilot
// isolated them (the far ones shared the end cell with the noise's tail,
// the inner one a cell of 16 pilot outputs), and every audit passed. At
// the default 1,000,000 draws a pure-DP claim at ε = 2 is violated: the
// inner atom by the local audit (bound above 2) or else through the
// hockey-stick cross-check; the far ones, once by
// it too, now by the local audit itself (bounds above 2), since a block
// of real outputs that one dataset alone reached ranks by the error of
// the side it reached (local.flooredSE). An RDP claim at twice the Laplace's
// D₂ on the far atom, which a million draws cannot show broken, ends
// suspect, saying why: FarOutputs (the inner atom's RDP audit passes:
// docs/limits.md). Fixed seeds; the robustness grid's "alone" rows run
// more.
func TestOutputsOfOneDatasetAlone(t *testing.T) {
	skipShort(t, "eight audits of a million draws per side, about 8 s", "internal/renyi's TestFarAndAtomRunsAreGroupedApart", "TestAtomOfOneDatasetAloneIsGroupedApart", "internal/search's TestFarAlone", "TestInnerAloneAtom", "internal/local's TestOneSidedStretches")
	t.Parallel()
	lap := mechanisms.Laplace{B: 1}
	pair := fixtures.Pair[[]float64]{X: []float64{1, 0.5}, Y: []float64{0, 0.5}}
	leaky := func(every int, leak func(r *rand.Rand) float64) dptest.Mechanism[[]float64] {
		return dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
			if x[0] == 1 && r.IntN(every) == 0 {
				return leak(r)
			}
			return lap.Sample(r, x)
		}).WithPairs(pair)
	}
	far := func(*rand.Rand) float64 { return 1e6 }
	inner := func(*rand.Rand) float64 { return 0.5 }
	full := dptest.Samples(1_000_000) // also under -short
	for name, m := range map[string]dptest.Mechanism[[]float64]{
		"far atom above": leaky(2000, far),
		"far atom below": leaky(2000, func(*rand.Rand) float64 { return -1e6 }),
		"far and spread": leaky(2000, func(r *rand.Rand) float64 { return 1e6 + lap.Sample(r, []float64{0}) }),
		"inner atom":     leaky(3000, inner),
	} {
		rep, err := dptest.AuditDP(m, 2, dptest.Seed(5), full)
		require.NoError(t, err, name)
		require.Equal(t, dptest.Violated, rep.Verdict, "%s: %s", name, rep)
		if name == "inner atom" && len(rep.Details.CrossChecks) > 0 {
			require.True(t, hockeyCheckViolated(rep), "%s: found by the hockey-stick cross-check: %s", name, rep)
		} else {
			require.Greater(t, rep.LowerBound, 2.0, "%s: the local audit's own bound", name)
		}
	}
	// Once in 10,000 draws inside the noise: the screening's half that
	// chooses the cells repeats it about five times, and it ranked among
	// the noise's cells of ratio 2 to 3 and shared their group, so the
	// early look held: 9 audits of seeds 1–10 passed, this one among them,
	// saying such outputs would be caught down to one in 11,268 draws.
	// It now comes first in its own group.
	rep, err := dptest.AuditDP(leaky(10_000, inner), 2, dptest.Seed(1), full)
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	// Once in 20,000 draws is rarer than a million can show at ε = 2, and
	// the pass says how rare an output of one dataset alone may pass: the
	// rate at which a screening's half of 50,000 draws per side repeats it
	// three times and both confirmations show it, each with probability
	// 0.9^{1/3}.
	rep, err = dptest.AuditDP(leaky(20_000, far), 2, dptest.Seed(5), full)
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
	require.Empty(t, rep.Details.Score, "real outputs: any value, or outputs far beyond the rest")
	require.InEpsilon(t, 1/7355.5, rep.Reach, 7e-5, "once in 7,355 draws or more often: 1/%.1f", 1/rep.Reach)
	// The far atom's RDP claim cannot be shown broken, nor held: its draws
	// lay far beyond the others', where the other dataset produced none.
	rep, err = dptest.AuditRDP(leaky(2000, far), 2, 2*lap.RDP(2), dptest.Seed(5), full)
	requireFarOutputs(t, rep, err)
	// The far atom beside a rarer inner one: the Rényi groups keep the far
	// cells apart from the atom's (a group mixing them is not far, and the
	// audit passed at seed 1 while atoms came first in its order too).
	both := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if x[0] == 1 && r.IntN(2000) == 0 {
			return 1e6
		}
		if x[0] == 1 && r.IntN(20_000) == 0 {
			return 0.5
		}
		return lap.Sample(r, x)
	}).WithPairs(pair)
	rep, err = dptest.AuditRDP(both, 2, 2*lap.RDP(2), dptest.Seed(1), full)
	requireFarOutputs(t, rep, err)
}

// requireFarOutputs requires an RDP audit at order 2 and a million draws
// a side to end suspect, on draws of one dataset far beyond every other
// output, where the other dataset produced none.
func requireFarOutputs(t *testing.T, rep dptest.Report, err error) {
	t.Helper()
	require.ErrorIs(t, err, dptest.ErrInconclusive)
	require.ErrorIs(t, err, dptest.ErrSuspect)
	require.Equal(t, dptest.Suspect, rep.Verdict, "%s", rep)
	var far *dptest.FarOutputs
	require.ErrorAs(t, err, &far)
	require.Equal(t, 2.0, far.Lambda)
	require.Equal(t, int64(1_000_000), far.Samples)
	require.Positive(t, far.Far)
}

// Spread outputs of one dataset alone beyond the other's extremes but
// short of a far gap: N(0, 1), whose draws x = 0 replaces by 10 +
// N(0, 0.01²) once in 3,333 and x = 1 by −10 likewise (ε = ∞). No value
// repeats and no gap is ten times the tail's spread, so no cell of the
// table isolated them and three default audits at ε = 1 held the claim
// (bounds −0.02). The screening's RunsApart table gives each run of one
// side a cell of its own, and the local audit confirms it (bounds about
// 2.6 at a million draws; a look stops at the first confident bound, so
// bounds above the claim on an event beyond the noise's bulk). Three
// default audits must all fail it; each did (the ten
// screenings of internal/local's TestARunOfOneSideIsScreenedApart, at a
// rate three times this, show losses above 1.44 on fresh draws in every
// direction), so a failure of this test means the runs are lost again.
func TestSpreadOutputsOfOneDatasetAloneBeyondTheOthers(t *testing.T) {
	skipShort(t, "three audits of a million draws per side, about 1.5 s", "internal/local's TestARunOfOneSideIsScreenedApart")
	t.Parallel()
	m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if r.IntN(3333) == 0 {
			return 10 - 20*x[0] + 0.01*r.NormFloat64()
		}
		return r.NormFloat64()
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{0}, Y: []float64{1}})
	requireViolatedAtSeeds1To3(t, m, 1, 4)
}

// requireViolatedAtSeeds1To3 audits m's ε-DP claim at seeds 1–3 (default
// sizes, its own pairs) and requires each to be violated by the local
// audit at an output t̂ with |t̂| beyond beyond: on the run, not the noise.
func requireViolatedAtSeeds1To3(t *testing.T, m dptest.Mechanism[[]float64], eps, beyond float64) {
	t.Helper()
	for seed := uint64(1); seed <= 3; seed++ {
		rep, err := dptest.AuditDP(m, eps, dptest.Samples(1_000_000), dptest.Candidates(0), dptest.Seed(seed))
		require.NoError(t, err)
		require.Equal(t, dptest.Violated, rep.Verdict, "seed %d: %s", seed, rep)
		require.Empty(t, rep.Details.CrossChecks, "seed %d: the local audit found it: %s", seed, rep)
		loc, ok := rep.Details.Location.(float64)
		require.True(t, ok, "seed %d: %s", seed, rep)
		require.Greater(t, math.Abs(loc), beyond, "seed %d: the event lies on the run: %s", seed, rep)
	}
}

// The same class beside noise of a loss that does not vanish: the sum
// plus Laplace(1) noise, which x = 1 replaces by 40 + N(0, 0.01²) once in
// 2,000 draws (ε = ∞; the noise's loss is 1). The screening sees the leak
// in a run of one side, but the second event left out every block seen
// on one side only, and the first rested on the noise or on a block that
// merged the run with it: three default audits at ε = 2 held the claim
// (bounds 1.69, 1.40, 1.58), and three of ten audits of searched pairs
// passed. A block one side alone reached at least stat.OneSidedRun
// times is now a second event where its bound, predicted at a zero
// count's upper bound for the other side, lies above the claim. Three
// default audits must all fail it. The seeds are fixed, so the test is
// deterministic; another choice of seeds fails it with probability at
// most 3·(1 − p), p the detection rate, which 16 detections in 16 audits
// (seeds 1–6 on this pair, bounds 2.7–3.4, and the robustness grid's 10 on
// searched pairs) put above 0.83 at 95% confidence.
func TestARunOfOneDatasetAloneBesideLaplaceNoise(t *testing.T) {
	skipShort(t, "three audits of a million draws per side, about 3 s", "internal/local's TestAValueOfOneSideAloneIsASecondEvent", "TestOneSidedStretches")
	t.Parallel()
	m := laplaceWithARunAt40().WithPairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	requireViolatedAtSeeds1To3(t, m, 2, 10)
}

// laplaceWithARunAt40 is the sum plus Laplace(1) noise, which x = 1
// replaces by 40 + N(0, 0.01²) once in 2,000 draws.
func laplaceWithARunAt40() dptest.Mechanism[[]float64] {
	return dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if x[0] == 1 && r.IntN(2000) == 0 {
			return 40 + 0.01*r.NormFloat64()
		}
		u := r.Float64() - 0.5
		return x[0] - math.Copysign(math.Log1p(-2*math.Abs(u)), u)
	})
}

// A DP violation names the outputs of the event of its bound and their
// counts on each side, from which the bound follows (eq. (26) of [AKD22]
// at the confirmation's level, halved where it bounded two events), for
// either direction: the run at 40 beside Laplace noise, of X (= [1]) and
// then of Y, whose event lies in the upper tail and holds about 500 of
// the run's draws. Fixed seeds.
func TestAViolationNamesItsEventAndCounts(t *testing.T) {
	skipShort(t, "two audits of a million draws per side, about 2 s", "TestADiscreteViolationNamesItsValuesAndCounts")
	t.Parallel()
	one, zero := []float64{1}, []float64{0}
	for _, pair := range []fixtures.Pair[[]float64]{{X: one, Y: zero}, {X: zero, Y: one}} {
		rep, err := dptest.AuditDP(laplaceWithARunAt40().WithPairs(pair), 2, dptest.Samples(1_000_000), dptest.Candidates(0), dptest.Seed(2))
		require.NoError(t, err)
		require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
		leaking, other := 0, 1
		if pair.X[0] == 0 {
			leaking, other = 1, 0
		}
		m := regexp.MustCompile(`^outputs in [\[(]([0-9.]+), \+∞\)$`).FindStringSubmatch(rep.Details.Event)
		require.NotNil(t, m, "%s", rep)
		require.InDelta(t, 500, rep.Details.EventCounts[leaking], 100, "%s", rep)
		// The dataset x = 0 falls beyond L about n·½·e^{−L} times: the
		// event named must be the event counted (at this seed the bound
		// rests on the second event, from 11.87; the first starts at 7.78,
		// where about 200 would fall).
		lo, err := strconv.ParseFloat(m[1], 64)
		require.NoError(t, err)
		expected := float64(rep.Details.Samples) / 2 * math.Exp(-lo)
		require.InDelta(t, expected, float64(rep.Details.EventCounts[other]), 4*math.Sqrt(expected)+4, "%s", rep)
		requireBoundOfCounts(t, rep, rep.Details.EventCounts[leaking], rep.Details.EventCounts[other])
	}
}

// A discrete mechanism's DP violation names the values of the event of
// its bound and their counts on each side, from which the bound follows,
// as TestAViolationNamesItsEventAndCounts requires of real outputs. Fixed
// seed, default sizes.
func TestADiscreteViolationNamesItsValuesAndCounts(t *testing.T) {
	one, zero := []float64{1}, []float64{0}
	geometric := dptest.Discrete(func(r *rand.Rand, x []float64) int {
		g := func() int { return int(math.Floor(-math.Log(r.Float64()) / 2)) } // ratio e^{−2}
		return int(x[0]) + g() - g()
	}).WithPairs(fixtures.Pair[[]float64]{X: one, Y: zero})
	rep, err := dptest.AuditDP(geometric, 1, dptest.Seed(1))
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	require.Regexp(t, `^(the value -?\d+|the values -?\d+(, -?\d+)*|\d+ values: .*)$`, rep.Details.Event, "%s", rep)
	on, off := rep.Details.EventCounts[0], rep.Details.EventCounts[1]
	if strings.Contains(rep.Direction, "ln f_Y − ln f_X") {
		on, off = off, on
	}
	requireBoundOfCounts(t, rep, on, off)
}

// An (ε, δ)-DP or Gaussian-DP violation names the event of its bound, a
// likelihood-ratio test's, and its counts, from which the bound follows:
// the Gaussian mechanism of σ = 1 on the pair (1), (0), claimed at
// (1, 0.05) (δ(1) = 0.127) and at μ = 0.6 (μ = 1), in both directions of
// the pair. Fixed seed.
func TestAnEventViolationNamesItsEventAndCounts(t *testing.T) {
	t.Parallel()
	one, zero := []float64{1}, []float64{0}
	for _, pair := range []fixtures.Pair[[]float64]{{X: one, Y: zero}, {X: zero, Y: one}} {
		g := dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample).WithPairs(pair)
		approx, err := dptest.AuditApproxDP(g, 1, 0.05, dptest.Seed(1))
		require.NoError(t, err)
		gdp, err := dptest.AuditGDP(g, 0.6, dptest.Seed(1))
		require.NoError(t, err)
		for _, c := range []struct {
			rep dptest.Report
			m   hockey.Measure
		}{{approx, hockey.HockeyStick(1)}, {gdp, hockey.Gaussian()}} {
			rep := c.rep
			require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
			require.Regexp(t, `^outputs in `, rep.Details.Event, "%s", rep)
			on, other := rep.Details.EventCounts[0], rep.Details.EventCounts[1]
			if strings.Contains(rep.Direction, "(M(Y)‖M(X))") {
				on, other = other, on
			}
			require.Greater(t, on, other, "the bounded side's draws fill its event: %s", rep)
			n := int64(rep.Details.Samples)
			require.Equal(t, rep.Details.PerConfirmation, rep.Details.EventLevel)
			require.InDelta(t, c.m.Bound(on, n, other, n, rep.Details.EventLevel).LowerBound, rep.LowerBound, 1e-12, "%s", rep)
		}
	}
}

// requireBoundOfCounts requires rep's lower bound to be the one its
// event's counts, on the bounded side and the other, give at its level.
func requireBoundOfCounts(t *testing.T, rep dptest.Report, on, other int64) {
	t.Helper()
	require.True(t, rep.Details.EventLevel == rep.Details.PerConfirmation || rep.Details.EventLevel == rep.Details.PerConfirmation/2, "level %v of %v", rep.Details.EventLevel, rep.Details.PerConfirmation)
	n := int64(rep.Details.Samples)
	require.InDelta(t, local.CountBound(on, n, other, n, rep.Details.EventLevel).LowerBound, rep.LowerBound, 1e-12, "%s", rep)
}

// A discrete output's value that one dataset alone produces once in 8,000
// draws (1,000, beside two-sided geometric noise of ratio e): the
// screening's half that chooses the event sees it about six times and
// merged it into a group of the noise's tail, so 9 of 10 audits at ε = 2
// (seeds 1–10) passed, this one among them, saying such outputs would be
// caught down to one in 11,268 draws (the rate now stated is 7,355). The
// event criterion's orders now put it first, in a group of its own.
// Fixed seed, default sizes.
func TestDiscreteValueOfOneDatasetAlone(t *testing.T) {
	skipShort(t, "a million draws per side", "internal/renyi's TestValueOfOneDatasetAloneInEventOrders")
	t.Parallel()
	m := dptest.Discrete(func(r *rand.Rand, x []float64) int {
		if x[0] == 1 && r.IntN(8000) == 0 {
			return 1000
		}
		geometric := func() int { return int(math.Floor(-math.Log(r.Float64()))) }
		return int(math.Round(x[0]+x[1])) + geometric() - geometric()
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{1, 0.5}, Y: []float64{0, 0.5}})
	rep, err := dptest.AuditDP(m, 2, dptest.Seed(1), dptest.Samples(1_000_000))
	require.NoError(t, err)
	require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
	require.True(t, hockeyCheckViolated(rep), "found by the hockey-stick cross-check: %s", rep)
	i := slices.IndexFunc(rep.Details.CrossChecks, func(c dptest.Report) bool { return c.Verdict == dptest.Violated })
	require.GreaterOrEqual(t, i, 0)
	check := rep.Details.CrossChecks[i]
	require.Equal(t, "ApproxDP", check.Claim.Kind)
	require.Equal(t, "the value 1000", check.Details.Event, "the cross-check's event: %s", rep)
	require.Positive(t, check.Details.EventCounts[0]+check.Details.EventCounts[1])
	require.NotEqual(t, check.Details.Event, rep.Details.Event, "the local run's own")
}

// hockeyCheckViolated reports whether a DP audit's hockey-stick
// cross-check (against δ = 0) found its violation.
func hockeyCheckViolated(rep dptest.Report) bool {
	return slices.ContainsFunc(rep.Details.CrossChecks, func(c dptest.Report) bool {
		return c.Claim.Kind == "ApproxDP" && c.Claim.Value == 0 && c.Verdict == dptest.Violated
	})
}

// Outputs on a fine grid whose phase depends on the data (integer noise
// added to a real sum: X's outputs on one grid, Y's on another between
// its points) have disjoint supports: every claim is violated, and every
// cell of a partition holds both grids. The values are counted one by one
// besides the cells, so that each claim type sees it.
func TestInterleavedGridsAreCaught(t *testing.T) {
	t.Parallel()
	grid := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		return math.Round(1000*r.NormFloat64()) + 0.5*x[0]
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	o := []dptest.Option{dptest.Samples(200_000), dptest.Candidates(0), dptest.Seed(1)}
	audits := map[string]func() (dptest.Report, error){
		"(1, 0.1)-DP": func() (dptest.Report, error) { return dptest.AuditApproxDP(grid, 1, 0.1, o...) },
		"1-DP":        func() (dptest.Report, error) { return dptest.AuditDP(grid, 1, o...) },
		"1-GDP":       func() (dptest.Report, error) { return dptest.AuditGDP(grid, 1, o...) },
		"(2, 1)-RDP":  func() (dptest.Report, error) { return dptest.AuditRDP(grid, 2, 1, o...) },
	}
	for name, audit := range audits {
		rep, err := audit()
		require.NoError(t, err, name)
		require.Equal(t, dptest.Violated, rep.Verdict, "%s: %v", name, rep)
	}
}

// A correct mechanism whose outputs are rounded (Laplace noise of scale
// 100, as a difference of exponentials, on x₀, rounded to integers: a
// grid of hundreds of values; ε = 0.01, δ(0.01) = 0) has its values
// screened one by one beside its cells; an event chosen on them leaves
// values the screening never saw outside it, which the cells, screened
// too, hold. They are no reason to leave an (ε, δ) audit unresolved (3 of
// 12 seeds were, with the values table and without this rule). Under
// -short seeds 1–4 run: at that rate one of them at least would be
// unresolved with probability 0.68.
func TestRoundedOutputsAreNotUnresolvedByUnseenValues(t *testing.T) {
	t.Parallel()
	const allSeeds, shortSeeds = 12, 4
	seeds := uint64(allSeeds)
	if testing.Short() {
		seeds = shortSeeds
	}
	m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		return math.Round(x[0] + 100*(r.ExpFloat64()-r.ExpFloat64()))
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	for seed := uint64(1); seed <= seeds; seed++ {
		rep, err := dptest.AuditApproxDP(m, 0.01, 0.01, dptest.Samples(200_000), dptest.Candidates(0), dptest.Seed(seed))
		require.NotEqual(t, dptest.Violated, rep.Verdict, "seed %d", seed)
		if err != nil {
			require.ErrorIs(t, err, dptest.ErrInconclusive, "seed %d", seed)
			var unseen *dptest.UnseenValues
			var unmatched *dptest.UnmatchedValues
			require.False(t, errors.As(err, &unseen) || errors.As(err, &unmatched), "seed %d: %v", seed, err)
		}
	}
}

// discreteGaussian draws N_Z(c, σ²), the discrete Gaussian on the
// integers, by inverse CDF over its mass on c ± 60.
func discreteGaussian(sigma2 float64) func(r *rand.Rand, c int64) int64 {
	mass := make([]float64, 121)
	total := 0.0
	for i := range mass {
		x := float64(i - 60)
		mass[i] = math.Exp(-x * x / (2 * sigma2))
		total += mass[i]
	}
	return func(r *rand.Rand, c int64) int64 {
		u := r.Float64() * total
		for i, m := range mass {
			if u < m {
				return c + int64(i-60)
			}
			u -= m
		}
		return c + 60
	}
}

// Integer outputs have ends, as real outputs do: the discrete Gaussian's
// D_λ on counts one apart is λ/(2σ²) exactly, and at λ = 20 and σ² = 2
// (truth 5) the order's tilt peaks at c + 20, about fourteen standard
// deviations out. Claimed at half of it, the audit once passed ("a true
// value of 2.758 or more would have been caught"): the values had no end
// zones. It now says the evidence rests on the extremes (inconclusive at
// seeds 100–109 too, and at λ = 10 and 32). At λ = 2 (truth 0.5, the tilt
// two away) the claim at the truth passes; a correct claim fails with
// probability at most 10⁻⁴.
func TestIntegerTailsAreExamined(t *testing.T) {
	skipShort(t, "two audits of a million draws per side", "internal/renyi's TestEndZonesOfNumbers", "TestEndZonesAndZoneShare")
	t.Parallel()
	m := dptest.Discrete(discreteGaussian(2)).WithPairs(fixtures.Pair[int64]{X: 1_000_001, Y: 1_000_000})
	rep, err := dptest.AuditRDP(m, 20, 2.5, dptest.Samples(1_000_000), dptest.Seed(300))
	requireTailsUnreached(t, rep, err, 20, fixtures.Pair[int64]{X: 1_000_001, Y: 1_000_000})
	rep, err = dptest.AuditRDP(m, 2, 0.5, dptest.Samples(1_000_000), dptest.Seed(301))
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
}

// requireTailsUnreached requires an RDP audit at order lambda to end
// unresolved because its evidence rests on the most extreme outputs of
// pair, where the draws cannot reach.
func requireTailsUnreached[D any](t *testing.T, rep dptest.Report, err error, lambda float64, pair fixtures.Pair[D]) {
	t.Helper()
	require.ErrorIs(t, err, dptest.ErrUnresolved, "λ = %g", lambda)
	require.Equal(t, dptest.Unresolved, rep.Verdict, "λ = %g", lambda)
	var tails *dptest.TailsUnreached
	require.ErrorAs(t, err, &tails, "λ = %g", lambda)
	require.Equal(t, lambda, tails.Lambda)
	require.Equal(t, fmt.Sprintf("X=%v Y=%v", pair.X, pair.Y), tails.Witness, "the pair whose extremes hold the evidence")
	require.True(t, tails.Share > 0 || tails.Dependence > 0, "%+v", *tails)
}

// Tails need not lie at the ends of the order: the same discrete Gaussian
// stored in a uint8 around 0 (as sums modulo 2ⁿ are) puts its bulk at
// both ends and its tails beside the gap in the middle, and error
// sentinels drawn 10⁻³ of the time at each end, two a side, sit beyond
// gaps too. Claimed at half the truth at λ = 20, both once passed (bounds
// 1.6–1.8, seeds 1–3); each side of a gap is now an end with its tail.
// Its cube, whose spacing grows outwards so that it is cut at every wide
// spacing, keeps the table's own two ends (a first version of the gaps
// passed it). At λ = 2 the claims at the truth pass; a correct claim fails
// with probability at most 10⁻⁴.
func TestTailsBesideGapsAreExamined(t *testing.T) {
	skipShort(t, "six audits of a million draws per side, about 2 s", "internal/renyi's TestZonesBesideGaps", "TestEndZonesOfNumbers")
	t.Parallel()
	gauss := discreteGaussian(2)
	wrapped := dptest.Discrete(func(r *rand.Rand, c int64) uint8 { return uint8(gauss(r, c)) }).
		WithPairs(fixtures.Pair[int64]{X: 1, Y: 0})
	sentinels := dptest.Discrete(func(r *rand.Rand, c int64) int64 {
		switch u := r.Float64(); {
		case u < 1e-3:
			return math.MinInt64
		case u < 2e-3:
			return math.MinInt64 + 1
		case u < 3e-3:
			return math.MaxInt64 - 1
		case u < 4e-3:
			return math.MaxInt64
		}
		return gauss(r, c)
	}).WithPairs(fixtures.Pair[int64]{X: 1_000_001, Y: 1_000_000})
	cube := dptest.Discrete(func(r *rand.Rand, c int64) int64 { v := gauss(r, c); return v * v * v }).
		WithPairs(fixtures.Pair[int64]{X: 1, Y: 0})
	for _, c := range []struct {
		m    dptest.Mechanism[int64]
		pair fixtures.Pair[int64]
	}{{wrapped, fixtures.Pair[int64]{X: 1, Y: 0}}, {sentinels, fixtures.Pair[int64]{X: 1_000_001, Y: 1_000_000}}, {cube, fixtures.Pair[int64]{X: 1, Y: 0}}} {
		m := c.m
		rep, err := dptest.AuditRDP(m, 20, 2.5, dptest.Samples(1_000_000), dptest.Seed(302))
		requireTailsUnreached(t, rep, err, 20, c.pair)
		rep, err = dptest.AuditRDP(m, 2, 0.5, dptest.Samples(1_000_000), dptest.Seed(303))
		require.NoError(t, err)
		require.NotEqual(t, dptest.Violated, rep.Verdict)
	}
}

// Real outputs have gaps too: a Gaussian (σ = 2) wrapped modulo 100 puts
// its tails face to face in the middle of its outputs, and error codes at
// ±10⁹ (10⁻² of the time each) leave the Gaussian's tails beside them,
// not at the ends of the order. Claimed at half their RDP at λ = 20 (truth
// 2.5), both once passed (bounds 0.93–1.13 at seeds 1–3, and at the seed
// used here): a cell of the partition ten times sparser than the cell
// beside it now starts a gap, and each side of it with a tail is zoned as
// the open ends are. At λ = 2 the claims at the truth pass; a correct
// claim fails with probability at most 10⁻⁴.
func TestRealTailsBesideGapsAreExamined(t *testing.T) {
	skipShort(t, "four audits of a million draws per side, about 1 s", "internal/renyi's TestZonesBesideGapsOfRealOutputs")
	t.Parallel()
	noise := func(r *rand.Rand, c float64) float64 { return c + 2*r.NormFloat64() }
	wrapped := dptest.Continuous(func(r *rand.Rand, c float64) float64 { return math.Mod(noise(r, c)+1000, 100) }).
		WithPairs(fixtures.Pair[float64]{X: 1, Y: 0})
	codes := dptest.Continuous(func(r *rand.Rand, c float64) float64 {
		switch u := r.Float64(); {
		case u < 1e-2:
			return -1e9
		case u < 2e-2:
			return 1e9
		}
		return noise(r, c)
	}).WithPairs(fixtures.Pair[float64]{X: 1, Y: 0})
	for _, m := range []dptest.Mechanism[float64]{wrapped, codes} {
		rep, err := dptest.AuditRDP(m, 20, 1.25, dptest.Samples(1_000_000), dptest.Seed(304))
		requireTailsUnreached(t, rep, err, 20, fixtures.Pair[float64]{X: 1, Y: 0})
		rep, err = dptest.AuditRDP(m, 2, 0.25, dptest.Samples(1_000_000), dptest.Seed(305))
		require.NoError(t, err)
		require.NotEqual(t, dptest.Violated, rep.Verdict)
	}
}

// wideDiscreteGaussian draws N_Z(c, σ²) by inverse CDF (a binary search)
// over its mass on c ± 12σ, for σ too wide for discreteGaussian's scan.
func wideDiscreteGaussian(sigma float64) func(r *rand.Rand, c int64) int64 {
	w := int(12*sigma) + 1
	cdf := make([]float64, 2*w+1)
	total := 0.0
	for i := range cdf {
		x := float64(i - w)
		total += math.Exp(-x * x / (2 * sigma * sigma))
		cdf[i] = total
	}
	for i := range cdf {
		cdf[i] /= total
	}
	return func(r *rand.Rand, c int64) int64 {
		i, _ := slices.BinarySearch(cdf, r.Float64())
		return c + int64(min(i, len(cdf)-1)-w)
	}
}

// Integers drawn a few times each are screened in ranges of adjacent
// values, and their tails too: a discrete Gaussian of σ = 300 shifted by
// 150, or of σ = 30 stored in a uint16 around 0 and shifted by 15
// (D_λ = λ/8 exactly), claimed at half its RDP at λ = 20 and 32 passed
// when the statistic was one event of the highest range, the end zone
// itself (bounds 1.13–1.24 against claims of 1.25 and 2): its evidence
// was not measured against the zones, as a range at an end was taken for
// a value seen often. A range is many values, none seen often; the audit
// now says the evidence rests on the extremes. At λ = 2 the claims at the
// truth pass, and so does a discrete Laplace of scale 1,000 clamped at 0
// at λ = 10 (claimed at the unclamped truth, which bounds it), whose
// clamp's bound is a range of one value in an end zone (a first version
// took it for a tail's: inconclusive in 5 of 5 seeds); a correct claim
// fails with probability at most 10⁻⁴.
func TestSparseIntegerTailsAreExamined(t *testing.T) {
	skipShort(t, "six audits of a million draws per side, about 2 s", "internal/renyi's TestEndZonesOfNumbers")
	t.Parallel()
	wide := wideDiscreteGaussian(300)
	narrow := wideDiscreteGaussian(30)
	int64s := dptest.Discrete(wide).WithPairs(fixtures.Pair[int64]{X: 150, Y: 0})
	uint16s := dptest.Discrete(func(r *rand.Rand, c int64) uint16 { return uint16(narrow(r, c)) }).
		WithPairs(fixtures.Pair[int64]{X: 15, Y: 0})
	for _, c := range []struct {
		m      dptest.Mechanism[int64]
		pair   fixtures.Pair[int64]
		lambda float64
	}{{int64s, fixtures.Pair[int64]{X: 150, Y: 0}, 20}, {int64s, fixtures.Pair[int64]{X: 150, Y: 0}, 32}, {uint16s, fixtures.Pair[int64]{X: 15, Y: 0}, 32}} {
		rep, err := dptest.AuditRDP(c.m, c.lambda, c.lambda/16, dptest.Samples(1_000_000), dptest.Seed(3))
		requireTailsUnreached(t, rep, err, c.lambda, c.pair)
	}
	for _, m := range []dptest.Mechanism[int64]{int64s, uint16s} {
		rep, err := dptest.AuditRDP(m, 2, 0.25, dptest.Samples(1_000_000), dptest.Seed(306))
		require.NoError(t, err)
		require.NotEqual(t, dptest.Violated, rep.Verdict)
	}
	const b = 1000
	dl := mechanisms.DiscreteLaplace{B: b, Sensitivity: b}
	clamped := dptest.Discrete(func(r *rand.Rand, c int64) int64 {
		return max(0, dl.Sample(r, c))
	}).WithPairs(fixtures.Pair[int64]{X: b, Y: 0})
	rep, err := dptest.AuditRDP(clamped, 10, dl.RDP(10), dptest.Samples(1_000_000), dptest.Seed(1))
	require.NoError(t, err)
	require.NotEqual(t, dptest.Violated, rep.Verdict)
}

// An early look counts a tenth of the planned draws, in groups made for
// all of them: a discrete Laplace of scale 1000 (screened in ranges of
// values) claimed at its exact RDP at λ = 10 was violated in 4 of seeds
// 1–5 (and in 9 of 20 audits at λ = 8 to 16), its groups of some 30
// outputs a side biasing the plug-in (p̂/q̂)^λ upwards by more than its
// correction removes (bounds up to 1.03 of the truth). The early look now
// merges groups until each expects GroupCount·λ² outputs a side. A
// correct claim fails with probability at most 10⁻⁴ each. Seeds 1 and 2
// run here: at the old rate (4 in 5) one of them would fail with
// probability 0.96. The calibration experiment's "dlap" rows at λ = 10
// run more seeds; its README records them.
func TestEarlyLooksAtHighOrdersDoNotFailCorrectClaims(t *testing.T) {
	skipShort(t, "two audits of a million draws per side, about 2 s", "internal/renyi's TestCoarsenMergesThinGroups", "internal/search's TestCoarsenedKeepsZonesApart")
	t.Parallel()
	const b = 1000
	dl := mechanisms.DiscreteLaplace{B: b, Sensitivity: b}
	m := dptest.Discrete(dl.Sample).WithPairs(fixtures.Pair[int64]{X: b, Y: 0})
	truth := dl.RDP(10)
	require.InDelta(t, 0.9287, truth, 1e-4) // the Laplace's 1 + ln(10/19)/9, up to the lattice
	for _, seed := range []uint64{1, 2} {
		rep, err := dptest.AuditRDP(m, 10, truth, dptest.Samples(1_000_000), dptest.Seed(seed))
		require.NoError(t, err, "seed %d", seed)
		require.NotEqual(t, dptest.Violated, rep.Verdict, "seed %d: %s", seed, rep)
	}
}
