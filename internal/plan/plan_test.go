package plan

import (
	"flag"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// setCommandLine sets flag values for one test and restores them after.
func setCommandLine(t *testing.T, f func(cl *cmdline)) {
	saved := commandLine
	t.Cleanup(func() { commandLine = saved })
	f(&commandLine)
}

var rdp2 = Claim{Kind: KindRDP, Lambda: 2, Eps: 0.1}

func TestResolvePrecedence(t *testing.T) {
	setCommandLine(t, func(cl *cmdline) {
		require.NoError(t, cl.samples.Set("50000"))
		require.NoError(t, cl.seed.Set("123"))
		require.NoError(t, cl.confidence.Set("0.99"))
		require.NoError(t, cl.candidates.Set("0"))
	})
	p, err := Resolve(rdp2, "TestX", Settings{}, false)
	require.NoError(t, err)
	require.Equal(t, []string{"-dptest.samples=50000", "-dptest.candidates=0", "-dptest.confidence=0.99"}, p.CommandLine)
	require.Equal(t, 50_000, p.Confirmation.Samples)
	require.Equal(t, 5_000, p.Screening.Samples)
	require.Equal(t, uint64(123), p.Seed)
	require.Equal(t, "-dptest.seed", p.SeedFrom)
	require.Equal(t, 0.99, p.Confidence)
	require.Equal(t, 0, p.Candidates, "a flag may ask for no generated pairs")
	require.False(t, p.Short)
	// Explicit settings win over flags.
	p, err = Resolve(rdp2, "TestX", Settings{Samples: 2000, SamplesSet: true, Seed: 9, SeedSet: true, Confidence: 0.9, ConfidenceSet: true, Candidates: 3, CandSet: true}, false)
	require.NoError(t, err)
	require.Equal(t, 2000, p.Confirmation.Samples)
	require.Equal(t, 2*MinSamples, p.Screening.Samples, "screening never below 2·MinSamples")
	require.Equal(t, uint64(9), p.Seed)
	require.Equal(t, "option", p.SeedFrom)
	require.Equal(t, 0.9, p.Confidence)
	require.Equal(t, 3, p.Candidates)
}

func TestResolveDefaults(t *testing.T) {
	setCommandLine(t, func(cl *cmdline) {
		cl.samples.from, cl.seed.from, cl.confidence.from, cl.candidates.from = "", "", "", ""
	})
	for _, short := range []bool{false, true} {
		p, err := Resolve(rdp2, "TestX", Settings{}, short)
		require.NoError(t, err)
		require.Equal(t, short, p.Short)
		if short {
			require.Equal(t, ShortSamples, p.Confirmation.Samples)
			require.Equal(t, ShortCandidates, p.Candidates)
		} else {
			require.Equal(t, DefaultSamples, p.Confirmation.Samples)
			require.Equal(t, DefaultCandidates, p.Candidates)
		}
		require.Equal(t, DefaultConfidence, p.Confidence, "-short never cuts the confidence")
		require.Equal(t, "derived", p.SeedFrom)
		require.Equal(t, MaxPilot, p.Confirmation.Pilot)
	}
}

// The derived seed is the hash of the test name and the claim that dptest
// has always used, so recorded experiments and CI runs replay.
func TestDerivedSeeds(t *testing.T) {
	require.Equal(t, derivedSeed(rdp2, "T"), derivedSeed(Claim{Kind: KindRDP, Lambda: 2, Eps: 0.1}, "T"))
	require.NotEqual(t, derivedSeed(rdp2, "T"), derivedSeed(rdp2, "U"))
	require.NotEqual(t, derivedSeed(Claim{Kind: KindDP, Eps: 0.1}, "T"), derivedSeed(rdp2, "T"))
	// Values recorded before the plan existed (fnv-1a of
	// "dptest|T|2|0.1" and "dptest|T|DP|0|0.7").
	require.Equal(t, fnv1a("dptest|T|2|0.1"), derivedSeed(rdp2, "T"))
	require.Equal(t, fnv1a("dptest|T|DP|0|0.7"), derivedSeed(Claim{Kind: KindDP, Eps: 0.7}, "T"))
	require.Equal(t, fnv1a("dptest|data-centric|0|3"), derivedSeed(Claim{Kind: KindDataCentric, Neighbours: 3}, "T"))
}

func fnv1a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func TestRandomSeed(t *testing.T) {
	setCommandLine(t, func(cl *cmdline) { require.NoError(t, cl.seed.Set("random")) })
	a, err := Resolve(rdp2, "T", Settings{}, false)
	require.NoError(t, err)
	b, err := Resolve(rdp2, "T", Settings{}, false)
	require.NoError(t, err)
	require.Equal(t, "random", a.SeedFrom)
	require.NotEqual(t, a.Seed, b.Seed)
}

// A bad flag value is refused when the flag is parsed, with a message that
// names the flag; go test -h shows the real defaults.
func TestFlagsAreCheckedAndShowTheirDefaults(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	var out strings.Builder
	fs.SetOutput(&out)
	var cl cmdline
	cl.samples = intFlag{def: DefaultSamples, min: MinSamples}
	cl.confidence = floatFlag{def: DefaultConfidence}
	fs.Var(&cl.samples, "dptest.samples", "usage")
	fs.Var(&cl.confidence, "dptest.confidence", "usage")
	fs.Var(&cl.seed, "dptest.seed", "usage")
	fs.Var(&cl.verbose, "dptest.v", "usage")
	err := fs.Parse([]string{"-dptest.samples=500"})
	require.EqualError(t, err, `invalid value "500" for flag -dptest.samples: must be at least 1000, got 500`)
	require.Error(t, fs.Parse([]string{"-dptest.confidence=1"}))
	require.Error(t, fs.Parse([]string{"-dptest.seed=twelve"}))
	require.NoError(t, fs.Parse([]string{"-dptest.v", "-dptest.seed=7"}))
	require.True(t, cl.verbose.value)
	out.Reset()
	fs.PrintDefaults()
	require.Contains(t, out.String(), "(default 1000000)")
	require.Contains(t, out.String(), "(default 0.9999)")

	// The flags registered by this package show the same.
	require.Equal(t, "1000000", flag.Lookup("dptest.samples").DefValue)
	require.Equal(t, "20", flag.Lookup("dptest.candidates").DefValue)
	require.Equal(t, "0.9999", flag.Lookup("dptest.confidence").DefValue)
}

// A bad environment value is reported by every audit, naming the variable,
// unless the flag overrides it; a value's origin follows the last setter.
func TestEnvironmentAndFlagOrigins(t *testing.T) {
	setCommandLine(t, func(cl *cmdline) {
		cl.samples = intFlag{def: DefaultSamples, min: MinSamples}
		cl.seed = seedFlag{}
	})
	t.Setenv("DPTEST_SAMPLES", "many")
	t.Setenv("DPTEST_SEED", "5")
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	flag.CommandLine, fs = fs, flag.CommandLine
	defer func() { flag.CommandLine = fs }()
	register(&commandLine.samples, "samples", "DPTEST_SAMPLES", "usage")
	register(&commandLine.seed, "seed", "DPTEST_SEED", "usage")
	_, err := Resolve(rdp2, "T", Settings{}, false)
	require.EqualError(t, err, `dptest: invalid DPTEST_SAMPLES="many": not a whole number`)
	p, err := Resolve(rdp2, "T", Settings{SamplesSet: true, Samples: 5000}, false)
	require.Error(t, err, "an explicit option does not hide a bad variable")
	require.NoError(t, flag.CommandLine.Parse([]string{"-dptest.samples=3000"}))
	p, err = Resolve(rdp2, "T", Settings{}, false)
	require.NoError(t, err, "the flag overrides the bad variable")
	require.Equal(t, 3000, p.Confirmation.Samples)
	require.Equal(t, uint64(5), p.Seed)
	require.Equal(t, "DPTEST_SEED", p.SeedFrom)
	require.NoError(t, flag.CommandLine.Parse([]string{"-dptest.seed=7"}))
	p, err = Resolve(rdp2, "T", Settings{}, false)
	require.NoError(t, err)
	require.Equal(t, uint64(7), p.Seed)
	require.Equal(t, "-dptest.seed", p.SeedFrom)
}

func TestClaimsAndSettingsAreChecked(t *testing.T) {
	for _, c := range []struct {
		claim Claim
		want  string
	}{
		{Claim{Kind: KindRDP, Lambda: 1, Eps: 1}, "dptest: order λ must be > 1 and finite, got 1"},
		{Claim{Kind: KindRDP, Lambda: math.NaN(), Eps: 1}, "dptest: order λ must be > 1 and finite, got NaN"},
		{Claim{Kind: KindRDP, Lambda: math.Inf(1), Eps: 1}, "dptest: order λ must be > 1 and finite, got +Inf"},
		{Claim{Kind: KindRDP, Lambda: 2, Eps: -0.1}, "dptest: ε must be ≥ 0, got -0.1"},
		{Claim{Kind: KindDP, Eps: math.NaN()}, "dptest: ε must be ≥ 0, got NaN"},
		{Claim{Kind: KindDP, Eps: math.Inf(1)}, "dptest: ε = +Inf claims nothing, so there is nothing to test; claim a finite ε"},
		{Claim{Kind: KindDataCentric}, "dptest: AuditDataCentricDP needs at least one neighbour"},
	} {
		_, err := Resolve(c.claim, "T", Settings{}, false)
		require.EqualError(t, err, c.want)
	}
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Samples: 999, SamplesSet: true}, "dptest: Samples must be at least 1000, got 999"},
		{Settings{Confidence: 1, ConfidenceSet: true}, "dptest: Confidence must lie in (0, 1), got 1"},
		{Settings{Confidence: 0, ConfidenceSet: true}, "dptest: Confidence must lie in (0, 1), got 0"},
		{Settings{Candidates: -1, CandSet: true}, "dptest: Candidates must be ≥ 0, got -1"},
		{Settings{Region: [2]float64{1, 0}, RegionSet: true}, "dptest: Region needs finite lo < hi, got [1, 0]"},
		{Settings{Floor: math.NaN(), FloorSet: true}, "dptest: Floor must be positive and finite, got NaN"},
		{Settings{Floor: 0, FloorSet: true}, "dptest: Floor must be positive and finite, got 0"},
	} {
		_, err := Resolve(rdp2, "T", c.s, false)
		require.EqualError(t, err, c.want)
	}
}

// The budget α is split over the criteria of a claim; each run's two
// confirmations of its K candidates are at level √(α_run/K).
func TestRuns(t *testing.T) {
	p, err := Resolve(Claim{Kind: KindDP, Eps: 0.5}, "T", Settings{Confidence: 0.99, ConfidenceSet: true}, false)
	require.NoError(t, err)
	require.Len(t, p.Runs, 3)
	require.Equal(t, CriterionLocal, p.Runs[0].Criterion)
	require.InDelta(t, 0.01/3, p.Runs[0].Alpha, 1e-15)
	require.Equal(t, p.Seed, p.Runs[0].Seed)
	require.Equal(t, CriterionHockeyStick, p.Runs[1].Criterion)
	require.Equal(t, 0.5, p.Runs[1].Eps)
	require.Equal(t, 0.0, p.Runs[1].Threshold, "ε-DP: H_{e^ε} = 0")
	require.Equal(t, CriterionRenyi, p.Runs[2].Criterion)
	require.Equal(t, 0.5, p.Runs[2].Threshold, "min(ε, 4ε²)")
	seeds := map[uint64]bool{p.Seed: true, p.Runs[1].Seed: true, p.Runs[2].Seed: true}
	require.Len(t, seeds, 3, "every run draws its own samples")
	require.InDelta(t, math.Sqrt(0.01/3/2), p.Runs[2].PerConfirmation(), 1e-15)
	p, err = Resolve(Claim{Kind: KindDP, Eps: 0.1}, "T", Settings{}, false)
	require.NoError(t, err)
	require.InDelta(t, 0.04, p.Runs[2].Threshold, 1e-15)
	p, err = Resolve(rdp2, "T", Settings{}, false)
	require.NoError(t, err)
	require.Equal(t, []Run{{Criterion: CriterionRenyi, Lambda: 2, Threshold: 0.1, Alpha: p.Alpha(), Seed: p.Seed}}, p.Runs)

	p, err = Resolve(Claim{Kind: KindApproxDP, Eps: 1, Delta: 1e-3}, "T", Settings{}, false)
	require.NoError(t, err)
	require.Equal(t, []Run{{Criterion: CriterionHockeyStick, Eps: 1, Threshold: 1e-3, Alpha: p.Alpha(), Seed: p.Seed}}, p.Runs)
	dp, err := Resolve(Claim{Kind: KindApproxDP, Eps: 1, Delta: 0}, "T", Settings{}, false)
	require.NoError(t, err)
	require.Len(t, dp.Runs, 3, "δ = 0 is pure DP")
	require.NotEqual(t, p.Seed, dp.Seed, "the derived seed tells δ apart")
	p, err = Resolve(Claim{Kind: KindGDP, Mu: 0.7}, "T", Settings{}, false)
	require.NoError(t, err)
	require.Equal(t, []Run{{Criterion: CriterionGaussian, Threshold: 0.7, Alpha: p.Alpha(), Seed: p.Seed}}, p.Runs)
}

// Bad claim values are refused with a message naming the value.
func TestApproxAndGaussianClaimsChecked(t *testing.T) {
	for _, c := range []struct {
		claim Claim
		want  string
	}{
		{Claim{Kind: KindApproxDP, Eps: -1, Delta: 0.1}, "dptest: ε must be ≥ 0, got -1"},
		{Claim{Kind: KindApproxDP, Eps: math.NaN(), Delta: 0.1}, "dptest: ε must be ≥ 0, got NaN"},
		{Claim{Kind: KindApproxDP, Eps: math.Inf(1), Delta: 0.1}, "dptest: ε = +Inf claims nothing, so there is nothing to test; claim a finite ε"},
		{Claim{Kind: KindApproxDP, Eps: 1, Delta: 1}, "dptest: δ must lie in [0, 1), got 1"},
		{Claim{Kind: KindApproxDP, Eps: 1, Delta: -1e-9}, "dptest: δ must lie in [0, 1), got -1e-09"},
		{Claim{Kind: KindApproxDP, Eps: 1, Delta: math.NaN()}, "dptest: δ must lie in [0, 1), got NaN"},
		{Claim{Kind: KindGDP, Mu: -0.5}, "dptest: μ must be ≥ 0, got -0.5"},
		{Claim{Kind: KindGDP, Mu: math.NaN()}, "dptest: μ must be ≥ 0, got NaN"},
		{Claim{Kind: KindGDP, Mu: math.Inf(1)}, "dptest: μ = +Inf claims nothing, so there is nothing to test; claim a finite μ"},
	} {
		_, err := Resolve(c.claim, "T", Settings{}, false)
		require.EqualError(t, err, c.want)
	}
}

func TestStages(t *testing.T) {
	require.Equal(t, Stage{Samples: 1000, Pilot: 1000}, StageOf(1000))
	require.Equal(t, Stage{Samples: 20000, Pilot: 2500}, StageOf(20000))
	require.Equal(t, Stage{Samples: 1000000, Pilot: MaxPilot}, StageOf(1000000))
}

// The early look draws about a tenth of the planned confirmation, in whole
// blocks, and none where whole blocks would be more than twice that.
func TestEarlyConfirmation(t *testing.T) {
	require.Equal(t, Stage{Samples: 13 * 8192}, EarlyConfirmation(DefaultSamples))
	require.Equal(t, Stage{Samples: 3 * 8192}, EarlyConfirmation(ShortSamples))
	require.Equal(t, Stage{}, EarlyConfirmation(20_000))
	require.Equal(t, Stage{}, EarlyConfirmation(MinSamples))
	p, err := Resolve(Claim{Kind: KindRDP, Lambda: 2, Eps: 1}, "TestX", Settings{}, false)
	require.NoError(t, err)
	require.Equal(t, EarlyConfirmation(DefaultSamples), p.EarlyConfirmation)
}

// The wide screening: WidePerCandidate pairs a candidate on a sixty-fourth
// of the screening, at least 2·MinSamples (its pilot an eighth of that),
// the sifted ones on 1/WideSiftFraction of it, or at the first screening's
// size where successive halving makes that smaller; none where the coarse
// stage would not be smaller than the screening. The planned calls count
// both stages.
func TestWideStages(t *testing.T) {
	p, err := Resolve(Claim{Kind: KindRDP, Lambda: 2, Eps: 1}, "TestX", Settings{}, false)
	require.NoError(t, err)
	require.Equal(t, Stage{Samples: 2000, Pilot: 250}, p.Wide)
	require.Equal(t, StageOf(12_500), p.WideSift)
	require.Equal(t, p.Screening, p.FirstScreening, "successive halving is opt-in")
	require.Equal(t, 100, p.WidePairs())
	require.Equal(t, p.PlannedCalls(20, 0)+2*(100*(2000+250)+WideSifted*(12_500+1562)), p.PlannedCalls(20, 100))
	quick, err := Resolve(Claim{Kind: KindRDP, Lambda: 2, Eps: 1}, "TestX", Settings{Quick: true}, false)
	require.NoError(t, err)
	require.Equal(t, StageOf(3125), quick.FirstScreening)
	require.Equal(t, quick.FirstScreening, quick.WideSift)
	p, err = Resolve(Claim{Kind: KindRDP, Lambda: 2, Eps: 1}, "TestX", Settings{Samples: 10_000_000, SamplesSet: true}, false)
	require.NoError(t, err)
	require.Equal(t, Stage{Samples: 15_625, Pilot: 1953}, p.Wide)

	p, err = Resolve(Claim{Kind: KindRDP, Lambda: 2, Eps: 1}, "TestX", Settings{}, true)
	require.NoError(t, err)
	require.Equal(t, Stage{Samples: 2 * MinSamples, Pilot: 250}, p.Wide)
	require.Equal(t, StageOf(20_000/WideSiftFraction), p.WideSift)
	require.Equal(t, WidePerCandidate*ShortCandidates, p.WidePairs())

	p, err = Resolve(Claim{Kind: KindRDP, Lambda: 2, Eps: 1}, "TestX", Settings{Samples: 20_000, SamplesSet: true}, false)
	require.NoError(t, err)
	require.Equal(t, Stage{}, p.Wide)
	require.Equal(t, 0, p.WidePairs())
	require.Equal(t, p.PlannedCalls(20, 0), p.PlannedCalls(20, 100))

	// A vector's screenings each draw learning samples first: per side,
	// learn(pilot) more at every screening stage (here the first, the full
	// ones of the leading pairs and the wide ones), none at the
	// confirmations.
	p, err = Resolve(Claim{Kind: KindRDP, Lambda: 2, Eps: 1}, "TestX", Settings{}, false)
	require.NoError(t, err)
	learn := func(pilot int) int { return 2 * max(1000, pilot) }
	extra := 20*2*learn(p.Screening.Pilot) + 100*2*learn(p.Wide.Pilot) + WideSifted*2*learn(p.WideSift.Pilot)
	require.Equal(t, p.PlannedCalls(20, 100)+int64(len(p.Runs)*extra), p.PlannedCallsLearning(20, 100, learn))
	extra = 20*2*learn(quick.FirstScreening.Pilot) + Confirmed*2*learn(quick.Screening.Pilot) + 100*2*learn(quick.Wide.Pilot) + WideSifted*2*learn(quick.WideSift.Pilot) + 20*2*learn(quick.Quick.Pilot)
	require.Equal(t, quick.PlannedCalls(20, 100)+int64(len(quick.Runs)*extra), quick.PlannedCallsLearning(20, 100, learn))
}

// The deep screening: only for an audit of given pairs (WithDeepening)
// with an early look that tests a claim, on half the confirmation, kept
// across WithSamples; the planned calls count it, with its
// audition and the early look drawn again, for the runs that deepen (a
// DP claim's local run, not its cross-checks; an (ε, δ) claim's own event).
func TestDeepStages(t *testing.T) {
	p, err := Resolve(Claim{Kind: KindDP, Eps: 1}, "TestX", Settings{}, false)
	require.NoError(t, err)
	require.Equal(t, Stage{}, p.Deep)
	calls := p.PlannedCalls(1, 0)
	p = p.WithDeepening(true)
	require.Equal(t, StageOf(DefaultSamples/2), p.Deep)
	require.Equal(t, StageOf(50_000), p.WithSamples(100_000).Deep)
	require.Equal(t, Stage{}, p.WithSamples(20_000).Deep, "no early look")
	dc, err := Resolve(Claim{Kind: KindDataCentric, Eps: math.Inf(1), Neighbours: 5}, "TestX", Settings{}, false)
	require.NoError(t, err)
	require.Equal(t, Stage{}, dc.WithDeepening(true).Deep, "a data-centric audit has no early look")
	require.Equal(t, Stage{}, p.WithDeepening(false).Deep)
	deepening := 0
	for _, r := range p.Runs {
		if r.Deepens() {
			deepening++
		}
	}
	require.Equal(t, 1, deepening, "the local run, not the cross-checks")
	// One pair: both sides of its screening, of its audition (two
	// statistics, two rounds) and of the early look drawn again (two rounds).
	a, err := Resolve(Claim{Kind: KindApproxDP, Eps: 1, Delta: 1e-5}, "TestX", Settings{}, false)
	require.NoError(t, err)
	for _, r := range a.Runs {
		require.Equal(t, !r.CrossCheck && (r.Criterion == CriterionHockeyStick || r.Criterion == CriterionGaussian), r.Deepens(), r.Criterion)
	}
	perRun := int64(2*(DefaultSamples/2+MaxPilot) + 2*(2*2+2)*EarlyConfirmation(DefaultSamples).Samples)
	require.Equal(t, calls+int64(deepening)*perRun, p.PlannedCalls(1, 0))
}

// The quick look is opt-in (Settings.Quick, -dptest.quick): an eighth of
// the screening and a fortieth of the confirmation, none below
// MinQuickConfirmation draws; its screening counts in the planned calls,
// and the flag is repeated on the reproduce line.
func TestQuickStages(t *testing.T) {
	p, err := Resolve(rdp2, "T", Settings{}, false)
	require.NoError(t, err)
	require.False(t, p.QuickLook)
	require.Equal(t, Stage{}, p.Quick)
	calls := p.PlannedCalls(20, 100)

	p, err = Resolve(rdp2, "T", Settings{Quick: true}, false)
	require.NoError(t, err)
	require.Equal(t, StageOf(12_500), p.Quick)
	require.Equal(t, Stage{Samples: 25_000}, p.QuickConfirmation)
	// Its quick screening, and successive halving: every candidate on
	// FirstScreening, the Confirmed leaders in full; the wide pairs
	// sifted at the first screening's size.
	first, full := int64(3125+1024), int64(100_000+12_500)
	sift := int64(WideSifted * 2 * (12_500 + 1562 - 3125 - 1024))
	require.Equal(t, calls+20*2*(12_500+1562)-20*2*(full-first)+Confirmed*2*full-sift, p.PlannedCalls(20, 100))
	require.Equal(t, Stage{Samples: 50_000}, p.WithSamples(2_000_000).QuickConfirmation)
	require.Equal(t, Stage{}, p.WithSamples(399_999).Quick, "too small for a quick look")

	short, err := Resolve(rdp2, "T", Settings{Quick: true}, true)
	require.NoError(t, err)
	require.Equal(t, Stage{}, short.Quick, "-short: none")

	setCommandLine(t, func(cl *cmdline) { cl.quick = boolFlag{} })
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	flag.CommandLine, fs = fs, flag.CommandLine
	defer func() { flag.CommandLine = fs }()
	register(&commandLine.quick, "quick", "DPTEST_QUICK", "usage")
	require.NoError(t, flag.CommandLine.Parse([]string{"-dptest.quick"}))
	p, err = Resolve(rdp2, "T", Settings{}, false)
	require.NoError(t, err)
	require.True(t, p.QuickLook)
	require.Equal(t, []string{"-dptest.quick"}, p.CommandLine)
}

// A data-centric audit measures a level: no quick look, whatever asks.
func TestNoQuickLookForDataCentricAudits(t *testing.T) {
	p, err := Resolve(Claim{Kind: KindDataCentric, Neighbours: 3, Eps: math.Inf(1)}, "T", Settings{Quick: true}, false)
	require.NoError(t, err)
	require.False(t, p.QuickLook)
	require.Equal(t, Stage{}, p.Quick)
}

// With a time budget (Fitted), -dptest.samples, which the reproduce line
// of a fitted audit gives, pins the size: it outranks a Samples option
// (then only the most the fit may choose) and marks the plan not to be
// refitted. Without a budget the option outranks the flag, as before.
func TestSamplesFlagPinsAFittedAudit(t *testing.T) {
	setCommandLine(t, func(cl *cmdline) { require.NoError(t, cl.samples.Set("107373")) })
	p, err := Resolve(rdp2, "T", Settings{SamplesSet: true, Samples: DefaultSamples, Fitted: true}, false)
	require.NoError(t, err)
	require.True(t, p.SamplesPinned)
	require.Equal(t, 107373, p.Confirmation.Samples)
	require.Contains(t, p.CommandLine, "-dptest.samples=107373")
	p, err = Resolve(rdp2, "T", Settings{SamplesSet: true, Samples: DefaultSamples}, false)
	require.NoError(t, err)
	require.False(t, p.SamplesPinned)
	require.Equal(t, DefaultSamples, p.Confirmation.Samples)
	p, err = Resolve(rdp2, "T", Settings{Fitted: true}, false)
	require.NoError(t, err)
	require.True(t, p.SamplesPinned)
	require.Equal(t, 107373, p.Confirmation.Samples)
}

// The leaves of every plan's budget sum to at most α, whatever the claim,
// the sample size, the quick look and the testers.
func TestLedgerSpendsAtMostAlpha(t *testing.T) {
	claims := []Claim{{Kind: KindRDP, Lambda: 2, Eps: 1}, {Kind: KindDP, Eps: 1}, {Kind: KindApproxDP, Eps: 1, Delta: 1e-5},
		{Kind: KindGDP, Mu: 1}, {Kind: KindDataCentric, Neighbours: 3}}
	for _, c := range claims {
		for _, s := range []Settings{{}, {Samples: 200_000, SamplesSet: true}, {Samples: MinSamples, SamplesSet: true}, {Quick: true},
			{Confidence: 0.95, ConfidenceSet: true}} {
			p, err := Resolve(c, "TestLedger", s, false)
			require.NoError(t, err)
			l := p.Ledger()
			sum := 0.0
			for _, leaf := range l.Leaves() {
				require.Positive(t, leaf)
				sum += leaf
			}
			require.LessOrEqual(t, sum, p.Alpha()*(1+1e-12), "%+v %+v", c, s)
			require.InDelta(t, p.Alpha(), sum, 1e-12*p.Alpha(), "the whole budget is spent: %+v %+v", c, s)
			require.Equal(t, "planned", l.Runs[0].Looks[len(l.Runs[0].Looks)-1].Name)
		}
	}
}
