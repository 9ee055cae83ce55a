// Package plan resolves everything an audit needs into one value, once:
// explicit options (Settings), then the -dptest.* flags, then the DPTEST_*
// environment variables, then the defaults. The engine reads the resulting
// [Plan] and nothing else: seeds, sample sizes of every stage, candidates,
// the false-failure budget split over criteria and confirmations, the
// levels of the screening's decisions and the rules of every estimator.
package plan

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"

	"github.com/dptest/dptest/internal/sampler"
)

// Defaults. A confirmation sample of a million outputs per side bounds the
// divergence of the Gaussian mechanism to within about 1.5% of its value
// (internal/experiments/figure1), and takes well under a second for a
// mechanism that costs a few hundred nanoseconds per output.
const (
	DefaultSamples    = 1_000_000
	ShortSamples      = 200_000 // with go test -short
	MinSamples        = 1000
	DefaultConfidence = 1 - 1e-4
	DefaultCandidates = 20 // pairs drawn from a generator
	ShortCandidates   = 5
	// ScreenFraction: the screening draws Samples/ScreenFraction per side
	// and pair (at least 2·MinSamples: a Rényi screening estimates on each
	// half).
	ScreenFraction = 10
	// FirstFraction: with the quick look (Settings.Quick), every
	// candidate is screened first on Screening/FirstFraction draws per
	// side (at least 2·MinSamples), and only the pairs of the leading
	// candidates on the full screening (successive halving; see
	// search.Config.FirstScreening).
	FirstFraction = 32
	// DeepFraction: a run of an audit of the pairs it was given screens
	// its leading pairs again on Samples/DeepFraction draws per side when
	// its early look decides nothing (Plan.Deep, Run.Deepens,
	// search.Config.Deep).
	DeepFraction = 2
	// WidePerCandidate, WideFraction, WideSifted and WideSiftFraction:
	// besides the Candidates pairs it screens in full, a run draws
	// WidePerCandidate times as many pairs from the generator, screens
	// them coarsely on 1/WideFraction of the screening's draws (at least
	// 2·MinSamples, with a pilot of an eighth: wideStage), and the
	// WideSifted most divergent of them again on 1/WideSiftFraction, to
	// find the pairs a violation needs that random candidates rarely hold;
	// see search.Config.Wide.
	WidePerCandidate = 5
	WideFraction     = 64
	WideSifted       = 8
	WideSiftFraction = 8
	// Confirmed is the number K of (pair, direction) candidates a run of
	// the engine confirms, twice each.
	Confirmed = 2
	// The pilot, drawn per side before a sample of real outputs to fix its
	// statistic, has an eighth of the sample's size, between MinPilot and
	// MaxPilot draws (and never more than the sample).
	MinPilot = 1 << 10
	MaxPilot = 1 << 14
	// TriggerLevel is the level, after Bonferroni over the candidates
	// screened, at which the best screening must already violate the
	// claim before the engine spends screenings on simplifying its pair.
	TriggerLevel = 0.05
	// SimplifyLevel is the level at which a simpler pair's screening must
	// still violate the claim to replace the best pair.
	SimplifyLevel = 0.05
	// CrossCheckOrder is the Rényi order of a DP audit's cross-check.
	CrossCheckOrder = 2
	// ReplayDraws is the number of outputs an audit draws twice from one
	// stream to check that the mechanism draws only from the generator it
	// is given (so that a seed replays the verdict).
	ReplayDraws = 32
	// SameDraws is the number of outputs per side an audit whose
	// confirmations saw nothing (inconclusive, or a pass) draws on its
	// witness to tell whether the mechanism's outputs vary there at all,
	// so that it can say so.
	SameDraws = 1024
)

// Estimator rules (see internal/renyi and internal/local for what each
// does): the values dptest uses, in one place.
const (
	RenyiDiscreteTau = 1e-5 // [KAD24] Section IV-A's floor, on probabilities
	// RenyiRelativeTau: the floor of densities of scale s is 5·10⁻⁵/s;
	// for the paper's mechanisms (s ≈ 5 for b = 5 noise, s ≈ 1 for noisy
	// gradient descent) this reproduces τ = 10⁻⁵ within a factor of five,
	// and relative to a normal density's peak 0.4/s it floors at
	// 1.25·10⁻⁴ of the peak (beyond 4.2 sd).
	RenyiRelativeTau = 5e-5
	RenyiTailCount   = 100 // values and sparse regions with fewer samples are merged
	// LocalFloorCount: the default floor of the local screening is ten
	// samples' worth ([AKD22] uses τ = 10⁻³ at n = 2·10⁴ and 10⁻⁴ at
	// n = 10⁵, 20 and 10 draws).
	LocalFloorCount = 10
)

// Claim kinds.
const (
	KindRDP         = "RDP"
	KindDP          = "DP"
	KindApproxDP    = "ApproxDP"
	KindGDP         = "GDP"
	KindDataCentric = "DataCentricDP"
)

// Claim is what an audit checks: D_λ ≤ Eps for every neighbouring pair
// (RDP), ε-DP (DP), (ε, δ)-DP (ApproxDP: Eps and Delta), μ-Gaussian DP
// (GDP: Mu), or nothing (data-centric: the level of one dataset against
// Neighbours neighbours is bounded, Eps is +Inf).
type Claim struct {
	Kind       string
	Lambda     float64
	Eps        float64
	Delta      float64
	Mu         float64
	Neighbours int
}

// Check returns an error naming the parameter if the claim is not one
// dptest can audit.
func (c Claim) Check() error {
	switch c.Kind {
	case KindRDP:
		if !(c.Lambda > 1) || math.IsInf(c.Lambda, 1) {
			return fmt.Errorf("dptest: order λ must be > 1 and finite, got %v", c.Lambda)
		}
	case KindDP:
	case KindApproxDP:
		if !(c.Delta >= 0 && c.Delta < 1) {
			return fmt.Errorf("dptest: δ must lie in [0, 1), got %v", c.Delta)
		}
	case KindGDP:
		switch {
		case math.IsNaN(c.Mu) || c.Mu < 0:
			return fmt.Errorf("dptest: μ must be ≥ 0, got %v", c.Mu)
		case math.IsInf(c.Mu, 1):
			return fmt.Errorf("dptest: μ = +Inf claims nothing, so there is nothing to test; claim a finite μ")
		}
		return nil
	case KindDataCentric:
		if c.Neighbours < 1 {
			return fmt.Errorf("dptest: AuditDataCentricDP needs at least one neighbour")
		}
		return nil
	default:
		return fmt.Errorf("dptest: unknown claim kind %q", c.Kind)
	}
	switch {
	case math.IsNaN(c.Eps) || c.Eps < 0:
		return fmt.Errorf("dptest: ε must be ≥ 0, got %v", c.Eps)
	case math.IsInf(c.Eps, 1):
		return fmt.Errorf("dptest: ε = +Inf claims nothing, so there is nothing to test; claim a finite ε")
	}
	return nil
}

// Sequential confirmation. After its screening, each run of an audit
// confirms its leading candidates at looks of growing size
// (ConfirmationLooks: each LookGrowth times the one before, the last the
// planned confirmation), each look continuing the draws of the one before.
// It stops at the first look where the verdict is settled: the claim is
// confidently violated; or it holds, the look resolving a violation of
// ResolutionFactor times the claim with probability HoldPower; or, at the
// first look, the planned size is predicted not to resolve the claim at
// all (search.Config.Looks). Each look before the last spends LookShare
// of the run's false-failure budget α and the last the rest, so a claim
// that holds is failed with probability at most α over all looks (a
// union bound, which needs no independence between them).
//
// EarlyLookDivisor sets the audition of a deep screening (Plan.Deep):
// about n/EarlyLookDivisor draws per side (EarlyConfirmation).
const (
	EarlyLookDivisor = ScreenFraction
	LookGrowth       = 4
	LookShare        = 0.05
	HoldPower        = 0.999
	// HoldShare is the margin of the quick look's hold: every upper bound
	// under HoldShare of the claim.
	HoldShare = 0.8
	// MinLookSamples is the fewest draws per side of a look.
	MinLookSamples = 2 * sampler.BlockSize
)

// ConfirmationLooks returns the looks before the planned confirmation of
// n draws per side, smallest first: n/LookGrowth^k rounded up to whole
// blocks of draws (sampler.BlockSize, so that each look continues the
// streams of the one before exactly), for k = 1, 2, …, as long as a look
// has at least MinLookSamples draws and the rounding leaves it under
// twice its share. Beside them is the first look as large as the
// screening (n/ScreenFraction), the first at which a claim may hold
// (search.Run): a clear claim stops there, not at the next larger look.
func ConfirmationLooks(n int) []Stage {
	var looks []Stage
	for want := n / LookGrowth; want >= MinLookSamples/2; want /= LookGrowth {
		look := roundUpToBlock(want)
		if look < MinLookSamples || look > 2*want || look >= n {
			break
		}
		looks = append([]Stage{{Samples: look}}, looks...)
	}
	if screen := roundUpToBlock(n / ScreenFraction); screen >= MinLookSamples && screen < n && !slices.Contains(looks, Stage{Samples: screen}) {
		looks = append(looks, Stage{Samples: screen})
		slices.SortFunc(looks, func(a, b Stage) int { return a.Samples - b.Samples })
	}
	return looks
}

// roundUpToBlock rounds n up to whole blocks of draws (sampler.BlockSize).
func roundUpToBlock(n int) int {
	return (n + sampler.BlockSize - 1) / sampler.BlockSize * sampler.BlockSize
}

// The quick look. Before its full screening, each run screens its
// candidates on 1/QuickFraction of the screening's draws, widens and
// improves as it would, and, where that screening can decide (a clear
// violation, or every upper bound under HoldShare of the claim), confirms
// its leading candidates on n/QuickLookDivisor fresh draws per side at
// QuickLookShare of the run's α. It ends the run there when the claim is
// violated or held with margin by the same rules as the early look;
// otherwise the full screening and the sequential confirmation follow, at
// the rest of α, promoting from what the quick look's wide stage sifted
// (see search.Config.QuickScreening). A claim far from the truth then
// costs a few screenings at an eighth of their size, not the full
// screening; one near its truth pays the quick screening on top. It is
// opt-in (Settings.Quick): the quick screening sees rare outputs less
// well.
//
// An audit of fewer than QuickLookDivisor·MinQuickConfirmation confirming
// draws per side (go test -short's included) has no quick look: its
// screening is small already, and a confirmation of a few thousand draws
// would decide violations with bounds far below what the audit's own size
// shows.
const (
	QuickFraction        = 8
	QuickLookDivisor     = 40
	QuickLookShare       = 0.05
	MinQuickConfirmation = 10_000
)

// QuickStages returns the quick look's screening and confirmation stages
// for a screening of screening draws and a confirmation of n, or zero
// Stages where the audit is too small for one.
func QuickStages(screening, n int) (Stage, Stage) {
	q := max(2*MinSamples, screening/QuickFraction)
	if q >= screening || n/QuickLookDivisor < MinQuickConfirmation {
		return Stage{}, Stage{}
	}
	return StageOf(q), Stage{Samples: n / QuickLookDivisor}
}

// EarlyConfirmation returns the early look's stage of a run whose planned
// confirmation draws n per side: n/EarlyLookDivisor rounded up to whole
// blocks of draws (sampler.BlockSize, so that the planned confirmation
// continues its streams exactly), or the zero Stage where that rounding
// leaves more than twice n/EarlyLookDivisor (small samples: the early look
// would spend α on most of the draws).
func EarlyConfirmation(n int) Stage {
	want := n / EarlyLookDivisor
	early := (want + sampler.BlockSize - 1) / sampler.BlockSize * sampler.BlockSize
	if want <= 0 || early > 2*want || early >= n {
		return Stage{}
	}
	return Stage{Samples: early}
}

// Stage is the size of one sampling stage, per side and pair.
type Stage struct {
	Samples int // outputs drawn on each dataset
	Pilot   int // pilot outputs per side that fix the statistic of real outputs
}

// StageOf returns the stage of n samples with its pilot size.
func StageOf(n int) Stage { return Stage{Samples: n, Pilot: min(n, max(MinPilot, min(n/8, MaxPilot)))} }

// Run is one run of the engine: a criterion, the threshold its value must
// not exceed, its share of the false-failure budget and its seed.
type Run struct {
	Criterion string     // CriterionRenyi, CriterionLocal, CriterionHockeyStick, CriterionGaussian or a tester's
	Bins      int        // the histogram tester's bins
	Range     [2]float64 // the histogram tester's range; both zero: from the screening
	Lambda    float64    // Rényi order
	Eps       float64    // the ε of the hockey-stick divergence H_{e^ε}
	Threshold float64
	Alpha     float64
	Seed      uint64
	// CrossCheck marks a run beside a DP claim's local audit, which only
	// adds evidence of a violation: it cannot leave the audit inconclusive.
	CrossCheck bool
}

// Criteria.
const (
	CriterionRenyi       = "Rényi"
	CriterionLocal       = "local"
	CriterionHockeyStick = "hockey-stick"
	CriterionGaussian    = "Gaussian"
	// DP-Auditorium's approximate-DP testers ([KMRS24], Section 4.2),
	// chosen with Settings.Testers.
	CriterionHistogram  = "histogram"
	CriterionClassifier = "classifier"
	CriterionMMD        = "MMD"
)

// Tester is one criterion an audit of a DP or (ε, δ) claim runs when
// Settings.Testers chooses them: a tester criterion (CriterionHistogram
// with its Bins and Range, CriterionClassifier, CriterionMMD), or Own, the
// claim's own criteria.
type Tester struct {
	Criterion string
	Bins      int
	Range     [2]float64
}

// Own is the tester that stands for the claim's own criteria.
const Own = "own"

// Deepens reports whether the run screens its leading pairs again at
// Plan.Deep when its early look decides nothing: the criteria that choose
// an event, whose place about a narrow peak a larger screening fixes more
// tightly ([KMRS24]'s NonDPLaplace2 at ε = 1: its loss exceeds 1.1 only on
// [0.33, 0.53]): the local one, and the hockey-stick and Gaussian ones
// where they audit the claim itself. A DP claim's hockey-stick
// cross-check, which only adds evidence, does not: deepening it too
// detected no more and cost an audit at its truth a quarter more calls.
// Nor does the Rényi criterion, whose groups gained little from it
// (the experiments' history in git).
func (r Run) Deepens() bool {
	return r.Criterion == CriterionLocal || !r.CrossCheck && (r.Criterion == CriterionHockeyStick || r.Criterion == CriterionGaussian)
}

// PerConfirmation is the level α′ = √(α/K) of each of the two
// confirmations of the K candidates a run confirms: a candidate falsely
// confirmed twice has probability at most α′², all of them at most K·α′² = α.
func (r Run) PerConfirmation() float64 { return math.Sqrt(r.Alpha / Confirmed) }

// SubSeed derives the seed of one sampling call from the run's seed, a
// label and an index, so that no two calls share draws and one seed
// replays every one of them.
func SubSeed(seed uint64, label string, i int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%d", seed, label, i)
	return h.Sum64()
}
