package plan

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
)

// Settings are the values an audit's options set explicitly; a false
// …Set leaves the value to the flags, the environment and the defaults.
// Resolve checks every value set (the options only record them).
type Settings struct {
	Samples       int
	SamplesSet    bool
	Seed          uint64
	SeedSet       bool
	Confidence    float64
	ConfidenceSet bool
	Candidates    int
	CandSet       bool
	Verbose       bool
	Quick         bool
	Strict        bool
	Nightly       bool
	// Resolution, if positive, is the multiple of the claim a look must
	// resolve before it holds (at most the verdict's 1.5).
	Resolution float64
	Region     [2]float64
	RegionSet  bool
	Floor      float64
	FloorSet   bool
	// Testers, if any, are the criteria the audit runs instead of the
	// claim's own (see testerRuns).
	Testers []Tester
	// Fitted is set when the audit fits its sample size to a time budget
	// (dptest.Within): Samples is then only the most it may choose, and
	// -dptest.samples on the command line, which a reproduce line gives,
	// pins the size (SamplesPinned), outranking Samples.
	Fitted bool
}

// Plan is everything an audit runs on, resolved once.
type Plan struct {
	Claim    Claim
	TestName string
	// Seed is the audit's seed; SeedFrom says where it came from: "option",
	// "-dptest.seed", "DPTEST_SEED", "random" or "derived" (from the test
	// name and the claim).
	Seed     uint64
	SeedFrom string
	// Confidence is 1 − α: a claim that holds fails with probability at
	// most α, split over Runs.
	Confidence float64
	Screening  Stage
	// FirstScreening is the stage at which every candidate is screened
	// first; the leading pairs are then screened at Screening's size.
	FirstScreening Stage
	Confirmation   Stage
	// EarlyConfirmation is the stage of a deep screening's audition; see
	// EarlyConfirmation.
	EarlyConfirmation Stage
	// Looks are the sequential confirmation's looks before the planned
	// one, smallest first; see ConfirmationLooks.
	Looks []Stage
	// Deep is the stage at which a run screens its leading pairs again
	// when its early look decides nothing (see DeepFraction, Run.Deepens):
	// the zero Stage unless the audit screens given pairs only
	// (GivenPairsOnly), has an early look and tests a claim, and
	// Samples/DeepFraction exceeds the screening.
	Deep Stage
	// GivenPairsOnly is set when the audit screens only the pairs it was
	// given: no generator, no finder (see WithDeepening).
	GivenPairsOnly bool
	// Wide and WideSift are the stages of the coarse screening of the wide
	// pairs (WidePerCandidate·Candidates of them, from the generator) and
	// of the second screening of the WideSifted most divergent; both the
	// zero Stage, for no wide screening, where the coarse one would not be
	// smaller than the screening.
	Wide, WideSift Stage
	// QuickLook is set when the audit looks quickly first (the Quick
	// option, -dptest.quick or DPTEST_QUICK); Quick and
	// QuickConfirmation are then the stages of that look's screening and
	// confirmation (see QuickStages), zero for none.
	QuickLook                bool
	Quick, QuickConfirmation Stage
	Candidates               int // pairs drawn from a generator
	Runs                     []Run
	Verbose                  bool
	// Strict is set when an unresolved verdict fails the test (the Strict
	// option, -dptest.strict or DPTEST_STRICT) instead of skipping it.
	Strict bool
	// Nightly is set for an audit at full depth (the Nightly option,
	// -dptest.nightly or DPTEST_NIGHTLY): every candidate screened in
	// full, and only a violation ends the run before the planned look.
	Nightly bool
	// HoldResolution, if positive, is the multiple of the claim a look
	// must resolve before it holds (the Resolution option); 0 for the
	// verdict's own factor.
	HoldResolution float64
	// Short is set when go test -short cut the default sample sizes or
	// candidate count.
	Short bool
	// SamplesPinned is set when an audit with a time budget was given its
	// sample size on the command line (Settings.Fitted): it runs at that
	// size, not refitted, so that a reproduce line replays its verdict.
	SamplesPinned bool
	// CommandLine lists the -dptest.* flags (or DPTEST_* variables, as
	// flags) that set a value of this plan, to replay it.
	CommandLine []string
	// Recorded is set for an audit of outputs recorded elsewhere: each
	// run screens once and confirms once, on the records' split, and no
	// stage draws beyond it (search.Config.Recorded).
	Recorded bool

	Renyi RenyiRules
	Local LocalRules
}

// RenyiRules are the Rényi estimator's floors and tail count.
type RenyiRules struct {
	DiscreteTau, RelativeTau, TailCount float64
}

// LocalRules are the local screening's region and floor.
type LocalRules struct {
	Region     [2]float64 // zero: every output
	Floor      float64    // zero: FloorCount samples' worth
	FloorCount float64
}

// Alpha is the audit's false-failure budget, 1 − Confidence.
func (p Plan) Alpha() float64 { return 1 - p.Confidence }

// Resolve resolves a claim's audit from its explicit settings, the flags
// (whose defaults are the DPTEST_* environment variables) and the
// defaults; short says whether go test -short is in effect, which cuts the
// default sample size and candidate count, never the confidence. It
// returns an error naming the value, option, flag or variable at fault.
func Resolve(c Claim, testName string, s Settings, short bool) (Plan, error) {
	if err := c.Check(); err != nil {
		return Plan{}, err
	}
	if err := checkSettings(s); err != nil {
		return Plan{}, err
	}
	if err := commandLine.err(); err != nil {
		return Plan{}, err
	}
	p := Plan{Claim: c, TestName: testName, Verbose: s.Verbose || commandLine.verbose.value, Strict: s.Strict || commandLine.strict.value, HoldResolution: s.Resolution}
	switch {
	case s.Nightly:
		p.Nightly = true
	case commandLine.nightly.isSet() && commandLine.nightly.value:
		p.Nightly = true
		p.CommandLine = append(p.CommandLine, "-dptest.nightly")
	}
	if commandLine.strict.value {
		p.CommandLine = append(p.CommandLine, "-dptest.strict")
	}
	cl := &commandLine
	samples := 0
	switch {
	case s.SamplesSet && !(s.Fitted && cl.samples.isSet()):
		samples = s.Samples
	case cl.samples.isSet():
		samples = cl.samples.value
		p.CommandLine = append(p.CommandLine, fmt.Sprintf("-dptest.samples=%d", samples))
		p.SamplesPinned = s.Fitted
	default:
		samples, p.Short = DefaultSamples, short
		if short {
			samples = ShortSamples
		}
	}
	switch {
	case s.CandSet:
		p.Candidates = s.Candidates
	case cl.candidates.isSet():
		p.Candidates = cl.candidates.value
		p.CommandLine = append(p.CommandLine, fmt.Sprintf("-dptest.candidates=%d", p.Candidates))
	default:
		p.Candidates, p.Short = DefaultCandidates, p.Short || short
		if short {
			p.Candidates = ShortCandidates
		}
	}
	switch {
	case s.ConfidenceSet:
		p.Confidence = s.Confidence
	case cl.confidence.isSet():
		p.Confidence = cl.confidence.value
		p.CommandLine = append(p.CommandLine, fmt.Sprintf("-dptest.confidence=%v", p.Confidence))
	default:
		p.Confidence = DefaultConfidence
	}
	switch {
	case c.Kind == KindDataCentric:
		// It measures a level rather than testing a claim: no look can
		// decide early.
	case s.Quick:
		p.QuickLook = true
	case cl.quick.isSet() && cl.quick.value:
		p.QuickLook = true
		p.CommandLine = append(p.CommandLine, "-dptest.quick")
	}
	p.setStages(samples)
	var err error
	if p.Seed, p.SeedFrom, err = seedOf(s, c, testName); err != nil {
		return Plan{}, err
	}
	p.Renyi = RenyiRules{DiscreteTau: RenyiDiscreteTau, RelativeTau: RenyiRelativeTau, TailCount: RenyiTailCount}
	p.Local = LocalRules{Region: s.Region, Floor: s.Floor, FloorCount: LocalFloorCount}
	p.Runs = runs(c, p.Seed, p.Alpha())
	if len(s.Testers) > 0 {
		p.Runs = testerRuns(c, p.Seed, p.Alpha(), s.Testers)
	}
	return p, nil
}

// setStages sets the stages of an audit of n confirming draws per side.
func (p *Plan) setStages(n int) {
	p.Screening = StageOf(max(2*MinSamples, n/ScreenFraction))
	// Successive halving is opt-in, with the quick look: a first
	// screening at 1/FirstFraction of the draws misses an output that one
	// dataset emits rarely, and the robustness grid's rare-leak cells held
	// violations that the full screening finds.
	p.FirstScreening = p.Screening
	if p.QuickLook && !p.Nightly {
		p.FirstScreening = StageOf(max(2*MinSamples, p.Screening.Samples/FirstFraction))
	}
	p.Confirmation = StageOf(n)
	p.EarlyConfirmation = EarlyConfirmation(n)
	p.Looks = ConfirmationLooks(n)
	p.Deep = Stage{}
	d := n / DeepFraction
	if p.GivenPairsOnly && p.EarlyConfirmation.Samples > 0 && p.Claim.Kind != KindDataCentric && d > p.Screening.Samples {
		p.Deep = StageOf(d)
	}
	p.Quick, p.QuickConfirmation = Stage{}, Stage{}
	if p.QuickLook {
		p.Quick, p.QuickConfirmation = QuickStages(p.Screening.Samples, n)
	}
	p.Wide, p.WideSift = Stage{}, Stage{}
	if w := max(2*MinSamples, p.Screening.Samples/WideFraction); w < p.Screening.Samples {
		p.Wide = wideStage(w)
		p.WideSift = StageOf(max(w, min(p.FirstScreening.Samples, p.Screening.Samples/WideSiftFraction)))
	}
}

// wideStage is the coarse screening's stage of n draws per side: its
// pilot is an eighth of n, even below MinPilot (at the default 2,000
// draws a pilot of MinPilot would cost a wide pair a third of its draws;
// a screening that only ranks pairs can fix its statistic on fewer).
func wideStage(n int) Stage { return Stage{Samples: n, Pilot: max(1, n/8)} }

// WidePairs is the number of wide pairs a run draws besides its
// Candidates: WidePerCandidate·Candidates, or none without a wide stage.
func (p Plan) WidePairs() int {
	if p.Wide.Samples == 0 {
		return 0
	}
	return WidePerCandidate * p.Candidates
}

// WithSamples returns the plan at n confirming draws per side (at least
// MinSamples), its command line saying so, so that the reproduce line
// replays it: the sample size a time budget chose.
func (p Plan) WithSamples(n int) Plan {
	n = max(n, MinSamples)
	p.setStages(n)
	p.Short = false
	line := []string{fmt.Sprintf("-dptest.samples=%d", n)}
	for _, f := range p.CommandLine {
		if !strings.HasPrefix(f, "-dptest.samples=") {
			line = append(line, f)
		}
	}
	p.CommandLine = line
	return p
}

// WithDeepening returns the plan with its deep screening (Plan.Deep) on or
// off. An audit turns it on when it screens only the pairs it was given
// (no generator, no finder): a default audit screens DefaultCandidates
// pairs on 2·Samples draws per side in all, one of a few given pairs on a
// fraction of that, and deepening spends part of the difference on the
// pairs that lead. An audit with a generator spends its screening on
// more pairs and confirms without it (a cost there at every claim near
// its truth, which the sample-efficiency work has not paid for).
func (p Plan) WithDeepening(on bool) Plan {
	p.GivenPairsOnly = on
	p.setStages(p.Confirmation.Samples)
	return p
}

// PlannedCalls estimates the mechanism calls of an audit of inputs
// candidate pairs and wide wide pairs: every run screens each input (pilot
// and sample) in full and, with a quick look, at its size, screens each
// wide pair coarsely (Plan.Wide) and at most WideSifted of them again
// (Plan.WideSift), screens the pairs of at most Confirmed candidates again
// at Plan.Deep's size (with its audition and a fresh confirmation), and
// confirms at most Confirmed candidates twice. Promoted wide pairs, improvement,
// simplification and refined screenings come on top, and an early look
// can end a run sooner.
func (p Plan) PlannedCalls(inputs, wide int) int64 { return p.PlannedCallsLearning(inputs, wide, nil) }

// PlannedCallsLearning is PlannedCalls for a source whose every screening
// also draws learn(pilot) outputs per side before its pilot (a vector
// mechanism's learning samples, sampler.LearnSize; nil: none).
func (p Plan) PlannedCallsLearning(inputs, wide int, learn func(pilot int) int) int64 {
	screen := func(st Stage) int64 {
		if st.Samples == 0 {
			return 0
		}
		n := int64(st.Samples + st.Pilot)
		if learn != nil {
			n += int64(learn(st.Pilot))
		}
		return n
	}
	planned := int64(0)
	for _, r := range p.Runs {
		first := p.Screening
		if p.FirstScreening.Samples > 0 && p.FirstScreening.Samples < p.Screening.Samples {
			// Successive halving: every input at the first size, the
			// pairs of the Confirmed leading candidates in full.
			first = p.FirstScreening
			planned += int64(min(Confirmed, inputs)) * 2 * screen(p.Screening)
		}
		planned += int64(inputs)*2*(screen(first)+screen(p.Quick)) +
			int64(wide)*2*screen(p.Wide) +
			int64(min(wide, WideSifted))*2*screen(p.WideSift) +
			int64(2*min(Confirmed, 2*inputs))*2*int64(p.Confirmation.Samples)
		if p.Deep.Samples > 0 && r.Deepens() {
			// Per pair screened again: its screening, an audition of
			// two statistics in two rounds at the early look's size,
			// and the early look's draws drawn again.
			planned += int64(min(Confirmed, inputs)) * 2 * (screen(p.Deep) + 3*2*int64(p.EarlyConfirmation.Samples))
		}
	}
	return planned
}

// checkSettings validates the explicit settings: the one place an
// option's value is checked.
func checkSettings(s Settings) error {
	switch {
	case s.SamplesSet && s.Samples < MinSamples:
		return fmt.Errorf("dptest: Samples must be at least %d, got %d", MinSamples, s.Samples)
	case s.ConfidenceSet && !(s.Confidence > 0 && s.Confidence < 1):
		return fmt.Errorf("dptest: Confidence must lie in (0, 1), got %v", s.Confidence)
	case s.CandSet && s.Candidates < 0:
		return fmt.Errorf("dptest: Candidates must be ≥ 0, got %d", s.Candidates)
	case s.RegionSet && !(s.Region[0] < s.Region[1] && !math.IsInf(s.Region[0], 0) && !math.IsInf(s.Region[1], 0)):
		return fmt.Errorf("dptest: Region needs finite lo < hi, got [%v, %v]", s.Region[0], s.Region[1])
	case s.FloorSet && !(s.Floor > 0 && !math.IsInf(s.Floor, 1)):
		return fmt.Errorf("dptest: Floor must be positive and finite, got %v", s.Floor)
	}
	return nil
}

// seedOf resolves the audit's seed: the option, the flag or variable (a
// number or "random"), or else one derived from the test name and the
// claim, so that a CI run replays the same audit every time and two
// assertions in one test draw different samples.
func seedOf(s Settings, c Claim, testName string) (uint64, string, error) {
	if s.SeedSet {
		return s.Seed, "option", nil
	}
	f := commandLine.seed
	switch {
	case f.random:
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return 0, "", fmt.Errorf("dptest: cannot draw a random seed: %v", err)
		}
		return binary.LittleEndian.Uint64(b[:]), "random", nil
	case f.isSet():
		return f.value, f.where(), nil
	}
	return derivedSeed(c, testName), "derived", nil
}

// derivedSeed hashes the test name and the claim.
func derivedSeed(c Claim, testName string) uint64 {
	name, lambda, eps := testName, c.Lambda, c.Eps
	switch c.Kind {
	case KindDP:
		name, lambda = testName+"|DP", 0
	case KindApproxDP:
		name, lambda = fmt.Sprintf("%s|ApproxDP|%v", testName, c.Delta), 0
	case KindGDP:
		name, lambda, eps = testName+"|GDP", 0, c.Mu
	case KindDataCentric:
		name, lambda, eps = "data-centric", 0, float64(c.Neighbours)
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "dptest|%s|%v|%v", name, lambda, eps)
	return h.Sum64()
}

// runs splits the budget α over the criteria a claim is audited with.
// An RDP claim is one Rényi run. A DP claim is three runs of α/3 each: the
// local run at ε; the hockey-stick run at ε against δ = 0 (ε-DP holds iff
// H_{e^ε} = 0 for every pair, [KMRS24] Section 3), which sees outputs one
// dataset never produces; and the Rényi run at order 2 against the bound
// ε-DP implies, D_2 ≤ min(ε, 2·2·ε²) ([KMRS24], Lemma 4.6). The
// cross-checks' seeds are derived from the audit's, so the runs draw
// independent samples and one seed replays all of them. An ApproxDP claim
// with δ > 0 is one hockey-stick run at ε against δ; with δ = 0 it is the
// DP claim's runs. A GDP claim is one Gaussian run against μ. A
// data-centric audit is one local run with no threshold.
func runs(c Claim, seed uint64, alpha float64) []Run {
	switch c.Kind {
	case KindRDP:
		return []Run{{Criterion: CriterionRenyi, Lambda: c.Lambda, Threshold: c.Eps, Alpha: alpha, Seed: seed}}
	case KindApproxDP:
		if c.Delta > 0 {
			return []Run{{Criterion: CriterionHockeyStick, Eps: c.Eps, Threshold: c.Delta, Alpha: alpha, Seed: seed}}
		}
		fallthrough
	case KindDP:
		implied := math.Min(c.Eps, 2*CrossCheckOrder*c.Eps*c.Eps)
		return []Run{
			{Criterion: CriterionLocal, Threshold: c.Eps, Alpha: alpha / 3, Seed: seed},
			{Criterion: CriterionHockeyStick, Eps: c.Eps, Threshold: 0, Alpha: alpha / 3, Seed: crossSeed(seed, "hockey-stick"), CrossCheck: true},
			{Criterion: CriterionRenyi, Lambda: CrossCheckOrder, Threshold: implied, Alpha: alpha / 3, Seed: crossSeed(seed, "rényi"), CrossCheck: true},
		}
	case KindGDP:
		return []Run{{Criterion: CriterionGaussian, Threshold: c.Mu, Alpha: alpha, Seed: seed}}
	}
	return []Run{{Criterion: CriterionLocal, Threshold: math.Inf(1), Alpha: alpha, Seed: seed}}
}

// testerRuns splits the budget α equally over the chosen testers: a
// tester criterion is one run at ε against δ (0 for a DP claim) on a
// seed of its own, Own the claim's own runs at the tester's share. Own's
// runs come first, then the testers' in the order given. Beside Own, the
// tester runs are cross-checks: they add evidence of a violation, and the
// claim's own criteria decide a pass.
func testerRuns(c Claim, seed uint64, alpha float64, testers []Tester) []Run {
	share := alpha / float64(len(testers))
	own := slices.ContainsFunc(testers, func(t Tester) bool { return t.Criterion == Own })
	var out []Run
	if own {
		out = runs(c, seed, share)
	}
	for _, t := range testers {
		if t.Criterion != Own {
			out = append(out, Run{Criterion: t.Criterion, Bins: t.Bins, Range: t.Range, Eps: c.Eps, Threshold: c.Delta, Alpha: share, Seed: crossSeed(seed, t.Criterion), CrossCheck: own})
		}
	}
	return out
}

func crossSeed(seed uint64, criterion string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s cross-check", seed, criterion)
	return h.Sum64()
}
