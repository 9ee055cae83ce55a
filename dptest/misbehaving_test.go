package dptest_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/mechanisms"
)

// A mechanism that changes its input fails the audit naming the fault, and
// the caller's pair is left as it was: one that zeroes the distinguishing
// record after use (which made X equal Y and passed a 9× violation), and
// one that sorts in place.
func TestMechanismsThatModifyTheirInput(t *testing.T) {
	g := mechanisms.Gaussian{Sigma: 1}
	zeroing := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		v := g.Sample(r, x)
		x[0] = 0
		return v
	})
	p := fixtures.Canonical(10)
	_, err := dptest.AuditRDP(zeroing.WithPairs(p), 2, g.RDP(2)/9, dptest.Candidates(0), dptest.Samples(20_000))
	require.ErrorContains(t, err, "the mechanism changed the dataset it was given")
	require.Equal(t, fixtures.Canonical(10), p, "the caller's pair is unchanged")
	sorting := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		for i := range x { // sorts descending, in place
			for j := i + 1; j < len(x); j++ {
				if x[j] > x[i] {
					x[i], x[j] = x[j], x[i]
				}
			}
		}
		return x[len(x)-1] + r.NormFloat64()
	})
	_, err = dptest.AuditRDP(sorting, 2, 1, fast...)
	require.ErrorContains(t, err, "the mechanism changed the dataset it was given")
}

// A mechanism drawing from its own source (secure noise) is audited, and
// its report says the seed cannot replay the verdict (NotReplayable).
func TestMechanismsThatIgnoreTheirGenerator(t *testing.T) {
	var mu sync.Mutex
	own := rand.New(rand.NewPCG(9, 9))
	secure := dptest.Continuous(func(_ *rand.Rand, x []float64) float64 {
		mu.Lock()
		defer mu.Unlock()
		return mechanisms.Gaussian{Sigma: 5}.Sample(own, x)
	})
	rep, err := dptest.AuditRDP(secure, 2, mechanisms.Gaussian{Sigma: 5}.RDP(2), fast...)
	require.NoError(t, err)
	require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
	require.True(t, rep.Details.NotReplayable, "this seed cannot replay the verdict")
	rep, err = dptest.AuditRDP(dptest.Continuous(mechanisms.Gaussian{Sigma: 5}.Sample), 2, 1, fast...)
	require.NoError(t, err)
	require.False(t, rep.Details.NotReplayable)

	// An unresolved audit's report says it too: its seed replays
	// nothing. δ = 10⁻⁹ is beyond any resolution of these draws, and the
	// claim holds: σ = 50 gives δ(0.5) ≈ Φ(−25) (σ = 5, whose δ(0.5) is
	// about 5·10⁻⁴, was violated in about one run of eight, and its own
	// source makes each run's draws differ). The non-fatal form logs it
	// once and passes.
	quiet := dptest.Continuous(func(_ *rand.Rand, x []float64) float64 {
		mu.Lock()
		defer mu.Unlock()
		return mechanisms.Gaussian{Sigma: 50}.Sample(own, x)
	})
	rep, err = dptest.AuditApproxDP(quiet, 0.5, 1e-9, fast...)
	require.ErrorIs(t, err, dptest.ErrUnresolved, "%s", rep)
	require.Equal(t, dptest.Unresolved, rep.Verdict)
	require.True(t, rep.Details.NotReplayable, "this seed cannot replay the verdict")
	r := run("TestQuiet", func(rt *recorder) {
		require.True(t, dptest.CheckApproxDP(rt, quiet, 0.5, 1e-9, fast...))
	})
	require.False(t, r.failed)
	require.Empty(t, r.errors)
	require.Len(t, r.auditLogs(), 1)
}

// An audit stopped by its context (or the test's deadline) is unresolved,
// never a pass: the fatal form skips the test, the non-fatal one logs it,
// and Strict fails it.
func TestStoppedAuditsAreInconclusive(t *testing.T) {
	var calls atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	slow := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if calls.Add(1) == 100_000 {
			cancel()
		}
		return mechanisms.Gaussian{Sigma: 1}.Sample(r, x)
	})
	_, err := dptest.AuditRDP(slow, 2, 100, dptest.Context(ctx))
	var why *dptest.Stopped
	require.ErrorAs(t, err, &why)
	require.ErrorIs(t, err, dptest.ErrInconclusive)
	require.ErrorIs(t, err, dptest.ErrUnresolved)
	require.False(t, why.Budget, "the context was cancelled")

	// A mechanism that stalls after its first thousand calls until the
	// deadline: the audit cannot end before it, however fast the machine
	// (and however early its sequential confirmation would decide).
	stalling := func(ctx context.Context) dptest.Mechanism[[]float64] {
		var n atomic.Int64
		return dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
			if n.Add(1) > 1000 {
				<-ctx.Done()
			}
			return mechanisms.Gaussian{Sigma: 1}.Sample(r, x)
		})
	}
	done, stop := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer stop()
	r := run("TestSlow", func(rt *recorder) {
		dptest.RequireRDP(rt, stalling(done), 2, 100, dptest.Context(done), dptest.Strict())
	})
	require.True(t, r.failed, "Strict fails an unresolved audit")

	done2, stop2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer stop2()
	r = run("TestSlow", func(rt *recorder) {
		require.True(t, dptest.CheckRDP(rt, stalling(done2), 2, 100, dptest.Context(done2)))
	})
	require.False(t, r.failed, "an unresolved audit does not fail a test")
	require.Empty(t, r.errors)
	require.Len(t, r.logs, 1)
	require.True(t, errors.Is(&dptest.InconclusiveError{Reason: &dptest.Stopped{}}, dptest.ErrInconclusive))

	// With a t that can skip: the fatal form skips the test; the
	// non-fatal form logs and returns true, and the test goes on to the
	// claims after it.
	for _, fatal := range []bool{true, false} {
		done, stop := context.WithTimeout(context.Background(), 50*time.Millisecond)
		sr := &skipRecorder{recorder: &recorder{name: "TestSlow"}}
		went := false
		run("TestSlow", func(*recorder) {
			if fatal {
				dptest.RequireRDP(sr, stalling(done), 2, 100, dptest.Context(done))
			} else {
				require.True(t, dptest.CheckRDP(sr, stalling(done), 2, 100, dptest.Context(done)))
			}
			went = true
		})
		stop()
		require.Equal(t, fatal, sr.skipped, "fatal %v", fatal)
		require.Equal(t, !fatal, went, "fatal %v", fatal)
		require.Empty(t, sr.errors)
	}
}

// With -dptest.v a long audit logs its progress.
func TestProgressIsLogged(t *testing.T) {
	if testing.Short() {
		t.Skip("takes a few seconds")
	}
	t.Parallel() // other tests beside it only make it last longer
	slowish := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		s := 0.0
		for i := 0; i < 360; i++ { // about 6 s here: well past two intervals on a faster machine too
			s += r.NormFloat64()
		}
		return mechanisms.Gaussian{Sigma: 1}.Sample(r, x) + 0*s
	})
	start := time.Now()
	r := run("TestProgress", func(rt *recorder) { dptest.RequireRDP(rt, slowish, 2, 1, dptest.Verbose(), dptest.Samples(400_000)) })
	require.False(t, r.failed, r.text())
	require.Greater(t, time.Since(start), 2*time.Second, "the audit must last two progress intervals")
	require.Contains(t, strings.Join(r.logs, "\n"), "[dptest] progress: ")
}

// A generator or simplifier that panics is an error of the audit, not a
// panic of the test binary.
func TestPanickingUserCodeIsAnError(t *testing.T) {
	g := dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample)
	bad := rapid.Custom(func(t *rapid.T) fixtures.Pair[[]float64] { panic("no pairs today") })
	_, err := dptest.AuditRDP(g, 2, 1, dptest.Neighbors(bad), dptest.Samples(20_000))
	require.ErrorContains(t, err, "dptest: the generator of neighbours panicked")
	boom := func(fixtures.Pair[[]float64]) []fixtures.Pair[[]float64] { panic("boom") }
	_, err = dptest.AuditRDP(g.WithPairs(fixtures.Canonical(3)).WithSimplifier(boom), 2, 0.01, dptest.Samples(20_000))
	require.ErrorContains(t, err, "simplifying of X=[1 0 0] Y=[0 0 0]: dptest: the simplifier panicked: boom")
}

// Options and attachments that do not apply are errors.
// A mechanism that panics on the first of twenty pairs ends the audit
// when that pair's screening fails: the pairs after it are not screened
// first (a full screening of the twenty makes 4.4 million calls; at most
// the two screenings in flight at once run, about 440,000). The calls
// reported are those made.
func TestAMechanismThatPanicsEndsTheScreening(t *testing.T) {
	var n atomic.Int64
	m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if x[0] == 0 && n.Add(1) == 3000 {
			panic("broken")
		}
		return x[0] + r.NormFloat64()
	})
	var pairs []fixtures.Pair[[]float64]
	for i := range 20 {
		pairs = append(pairs, fixtures.Pair[[]float64]{X: []float64{float64(i)}, Y: []float64{float64(i) + 0.5}})
	}
	rep, err := dptest.AuditRDP(m, 2, 1, dptest.Pairs(pairs...), dptest.Candidates(0), dptest.Seed(1))
	require.ErrorContains(t, err, "screening pair 1 of X=[0] Y=[0.5]: on X: draw ")
	require.ErrorContains(t, err, "mechanism panicked: broken")
	require.Less(t, rep.Calls, int64(600_000))
}

func TestMoreThatDoesNotApply(t *testing.T) {
	d := dptest.Discrete(mechanisms.ReportNoisyMax{Eps: 1}.Sample)
	_, err := dptest.AuditDP(d, 1, dptest.Region(0, 1), dptest.Pairs(fixtures.Patterns(3)...))
	require.EqualError(t, err, "dptest: Region applies to real outputs (a mechanism built with Continuous); this one's outputs are discrete")
	_, err = dptest.AuditDataCentricDP(d.WithPairs(fixtures.Patterns(3)...), []float64{0, 0, 0}, [][]float64{{1, 0, 0}})
	require.ErrorContains(t, err, "the mechanism's WithPairs and WithNeighbors do not apply")
	inf := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if r.IntN(1000) == 0 {
			return math.Inf(1)
		}
		return float64(r.IntN(3)) // discrete in practice
	})
	_, err = dptest.AuditRDP(inf, 2, 1, fast...)
	require.ErrorContains(t, err, "output +Inf: real outputs must be finite")
	r := run("TestEps", func(rt *recorder) {
		require.False(t, dptest.CheckRDPSamples(rt, []float64{1, 2}, []float64{1, 3}, 2, math.NaN()))
	})
	require.Contains(t, r.text(), "dptest: ε must be ≥ 0, got NaN")
}

// The reproduce line repeats -short and the flags that set the audit, and
// has no seed when the audit failed before its seed was resolved.
func TestReproduceLine(t *testing.T) {
	rep := dptest.Report{Seed: 3, Details: dptest.Details{TestName: "TestX", Short: true, Settings: dptest.Settings{CommandLine: []string{"-dptest.samples=50000"}}}}
	require.Equal(t, `go test -run="^TestX$" -short -dptest.samples=50000 -dptest.seed=3`, rep.Reproduce())
	r := run("TestY", func(rt *recorder) {
		dptest.RequireRDP(rt, dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample), 2, 1, dptest.Region(0, 1))
	})
	require.Contains(t, r.text(), `To reproduce: go test -run="^TestY$"`)
	require.NotContains(t, r.text(), "-dptest.seed")
}

// A mechanism whose outputs never vary (a constant here) shows nothing
// that differs between datasets: its audits are inconclusive, end their
// reason with the outputs of further draws on the witness (all one), and
// print no infinite resolution.
func TestConstantOutputsAreInconclusiveAndSaySo(t *testing.T) {
	t.Parallel()
	continuous := dptest.Continuous(func(*rand.Rand, []float64) float64 { return 3 })
	discrete := dptest.Discrete(func(*rand.Rand, []float64) int { return 3 })
	vector := dptest.Vector(func(*rand.Rand, []float64) []float64 { return []float64{3, 4} })
	for name, audit := range map[string]func() (dptest.Report, error){
		"real DP":      func() (dptest.Report, error) { return dptest.AuditDP(continuous, 1, dptest.Seed(1)) },
		"real RDP":     func() (dptest.Report, error) { return dptest.AuditRDP(continuous, 2, 1, dptest.Seed(1)) },
		"discrete DP":  func() (dptest.Report, error) { return dptest.AuditDP(discrete, 1, dptest.Seed(1)) },
		"discrete GDP": func() (dptest.Report, error) { return dptest.AuditGDP(discrete, 1, dptest.Seed(1)) },
		"vector DP":    func() (dptest.Report, error) { return dptest.AuditDP(vector, 1, dptest.Seed(1)) },
	} {
		t.Run(name, func(t *testing.T) {
			rep, err := audit()
			require.ErrorIs(t, err, dptest.ErrInconclusive, "%s", rep)
			require.Contains(t, []string{"3", "[3 4]"}, rep.Details.Unvarying)
			require.NotContains(t, err.Error(), "Inf")
			var ends *dptest.EndsTooFew
			require.False(t, errors.As(err, &ends), "a million draws per side are not the reason")
		})
	}
	// The (ε, δ) audit passes, truly on these pairs, and its success line
	// says the outputs never varied there (partition selection, say, on
	// pairs whose partitions are always kept).
	rep, err := dptest.AuditApproxDP(discrete, 1, 0.05, dptest.Seed(1))
	require.NoError(t, err)
	require.False(t, (rep.Verdict == dptest.Violated))
	require.Equal(t, "3", rep.Details.Unvarying)
	require.Equal(t, dptest.Holds, rep.Verdict)
	flip := dptest.Discrete(func(r *rand.Rand, x []float64) bool { return (x[0] >= 0.5) == (r.Float64() < 0.7) }) // ε = ln(7/3) < 1: δ(1) = 0
	rep, err = dptest.AuditApproxDP(flip, 1, 0.05, dptest.Seed(1))
	require.NoError(t, err)
	require.Empty(t, rep.Details.Unvarying, "outputs that vary")
}

// A mechanism whose output differs once in 10,000 draws, and only on X,
// returns the same output in 1,024 draws per side too; but its
// confirmations counted the difference, so the inconclusive GDP audit
// keeps its own reason and remedy (the draws that would show it).
func TestRareOutputsAreNotCalledConstant(t *testing.T) {
	m := dptest.Discrete(func(r *rand.Rand, x []float64) int {
		if x[0] == 1 && r.IntN(10_000) == 0 {
			return 1
		}
		return 0
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	_, err := dptest.AuditGDP(m, 1, dptest.Seed(1), dptest.Candidates(0), dptest.Samples(1_000_000))
	var why *dptest.OneSidedEvent
	require.ErrorAs(t, err, &why)
	require.False(t, math.IsInf(why.DrawsNeeded, 1), "the draws whose expected counts would bound it above the claim")
}

// A Within budget too small for the audit ends it unresolved before any
// run; its report has that verdict and reason, not a pass; an audit that
// could not run has no verdict, and its report renders its error.
func TestReportOfAnAuditOutOfTimeSaysInconclusive(t *testing.T) {
	slow := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		time.Sleep(time.Millisecond)
		return r.NormFloat64()
	})
	rep, err := dptest.AuditDP(slow, 1, dptest.Seed(1), dptest.Within(50*time.Millisecond))
	require.ErrorIs(t, err, dptest.ErrInconclusive)
	require.ErrorIs(t, err, dptest.ErrUnresolved)
	var small *dptest.BudgetTooSmall
	require.ErrorAs(t, err, &small)
	require.Equal(t, dptest.Unresolved, rep.Verdict, "%s", rep)
	require.Equal(t, dptest.Reason(small), rep.Reason)
	require.Greater(t, small.Least, 50*time.Millisecond, "the smallest audit takes longer than the budget")

	// A mechanism that slows down after its first calls outruns the
	// budget's plan: the audit stops, and says the budget ended it (not
	// the test's -timeout). The budget leaves room for the smallest audit
	// even when a loaded machine makes the first calls 5 µs each (at 300
	// ms it did not, and the audit refused to start instead).
	var calls atomic.Int64
	slowing := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if calls.Add(1) > 200 { // past the replay check's draws, which time the calls
			time.Sleep(200 * time.Microsecond)
		}
		return r.NormFloat64()
	})
	_, err = dptest.AuditDP(slowing, 1, dptest.Seed(1), dptest.Within(2*time.Second))
	require.ErrorIs(t, err, dptest.ErrInconclusive)
	require.ErrorIs(t, err, dptest.ErrUnresolved)
	var stopped *dptest.Stopped
	require.ErrorAs(t, err, &stopped)
	require.True(t, stopped.Budget, "the time budget (dptest.Within) ran out, not the test's -timeout")
	require.Positive(t, stopped.Calls)

	// An audit that cannot run (the mechanism panics) renders its error.
	panics := dptest.Continuous(func(*rand.Rand, []float64) float64 { panic("boom") })
	rep, err = dptest.AuditDP(panics, 1, dptest.Seed(1))
	require.ErrorContains(t, err, "boom")
	require.NotErrorIs(t, err, dptest.ErrInconclusive)
	require.Zero(t, rep.Verdict, "no verdict: %s", rep)
	require.Nil(t, rep.Reason)
	require.Contains(t, rep.String(), err.Error(), "the report renders its error")
}

// Numbers counted value by value that never repeat (64 random bits a
// draw) leave an audit unresolved, and more samples would not make them
// repeat: the remedy points to Continuous, not to more samples. 20,000
// draws per side show it as 100,000 did, at a fifth of the cost.
func TestDiscreteNumbersThatNeverRepeat(t *testing.T) {
	unique := dptest.Discrete(func(r *rand.Rand, _ []float64) uint64 { return r.Uint64() })
	opts := []dptest.Option{dptest.Pairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}}), dptest.Candidates(0), dptest.Samples(20_000), dptest.Seed(1)}
	for name, audit := range map[string]func() (dptest.Report, error){
		"DP":  func() (dptest.Report, error) { return dptest.AuditDP(unique, 1, opts...) },
		"GDP": func() (dptest.Report, error) { return dptest.AuditGDP(unique, 1, opts...) },
		"RDP": func() (dptest.Report, error) { return dptest.AuditRDP(unique, 2, 1, opts...) },
	} {
		t.Run(name, func(t *testing.T) {
			_, err := audit()
			var why *dptest.SparseNumbers
			require.ErrorAs(t, err, &why)
			require.InDelta(t, 1, why.PerValue, 0.01)
			require.ErrorIs(t, err, dptest.ErrUnresolved)
		})
	}
}
