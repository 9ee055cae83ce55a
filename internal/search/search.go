// Package search is the engine behind every dptest assertion, the same for
// every criterion: it screens candidate pairs of neighbouring datasets in
// both directions on modest samples ([screening]), screens many more
// generated pairs on small samples and promotes those that clearly beat
// the best ([screening.widen]), simplifies the most divergent pair
// ([screening.simplify]), screens again at full size the
// leading pairs whose outputs the screening could not resolve
// ([screening.refine]), confirms the most divergent
// (pair, direction) candidates on fresh, larger samples with a lower bound
// at the verdict's confidence ([confirm]), and decides ([decide]). What is
// estimated is a [Criterion]: the Rényi divergence of [KAD24] ([RDP]) or
// the local pure-DP loss of [AKD22] ([DP]), each drawing through a
// sampler.Source.
package search

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/verdict"
)

// Criterion is what a run of the engine measures on a pair, in both
// directions; F is what its screening finds besides the numbers (the event
// a DP confirmation counts, say), carried to the confirmation and the report.
type Criterion[D, F any] interface {
	// Screen draws a stage of outputs per side from streams of seed and
	// estimates both directions.
	Screen(seed uint64, p fixtures.Pair[D], st plan.Stage) (xy, yx Screened[F], err error)
	// Confirm draws a stage of fresh outputs per side and bounds the
	// directions whose finding is not nil from below at level alpha each.
	// With acc not nil it continues acc's counts of the same seed, pair
	// and findings (drawing only beyond acc.N) and bounds on the whole.
	Confirm(seed uint64, p fixtures.Pair[D], st plan.Stage, alpha float64, xy, yx *F, acc *Counts) (bxy, byx Score, err error)
	// Directions names the measure X→Y and Y→X, for logs and reports.
	Directions() [2]string
}

// Score is an estimate with its standard error and, for confirmations, a
// lower bound.
type Score struct {
	Estimate, StdErr, LowerBound float64
	// TailShare is, for a Rényi confirmation of real outputs or numbers, the
	// share of the order-λ evidence in the end zones at and beyond the
	// screening's most extreme outputs (renyi.ZoneShare); see
	// [Outcome.Unresolved].
	TailShare float64
	// TailDependence is, for the same confirmations, how much of the
	// statistic's e^{(λ−1)D̂} its groups' ratios lose without the outputs
	// in those end zones (renyi.ZoneDependence).
	TailDependence float64
	// Tests are, for an event criterion's confirmation, the counts on
	// the first dataset's side and the other's of the likelihood-ratio
	// tests at every boundary of its groups (the prefixes of
	// EventFinding.Groups), from which the report draws the trade-off
	// curve and the privacy profile.
	Tests [][2]int64
	// MarginHeld is, for the screenings and confirmations of an event
	// criterion at threshold 0 (the hockey-stick cross-check of an ε-DP
	// claim), whether the event and the likelihood-ratio tests beside it
	// show their log-ratios ln(P(E)/Q(E)) inside ε: at HoldZ standard
	// errors above the estimate on a confirmation, by the estimate on a
	// screening (on every ordering and score it screened, not only the
	// one chosen), none on outputs of the bounded side alone. It is that
	// criterion's test of margin (see holdTest and the criterion's
	// marginHeld).
	MarginHeld bool
	// Unbounded is set when the confirmation counted its event on the
	// first dataset's side only: outputs one dataset produced and the other
	// never did in as many draws, as infinite loss would show (the bound is
	// what the sample size can show of it).
	Unbounded bool
	// FarAlone is set when the confirmation counted far outputs of the
	// bounded side alone (farAlone), which Unresolved then names.
	FarAlone bool
	// AloneValues is, for a Rényi confirmation of a table of values, the
	// group of values the bounded side alone produced in it (see
	// [AloneValues]; Unbounded is then set), nil if none.
	AloneValues *AloneValues
	// AloneEvent is set when a Rényi confirmation's LowerBound is that of
	// the group of values its screening saw from the bounded side only
	// (RenyiFinding.AloneGroup), bounded as one event, not the grouped
	// statistic's; Estimate and StdErr stay the statistic's.
	AloneEvent *AloneEvent
	// Reason, if not nil, is why this confirmation cannot show a claim
	// holds whatever its bound (see [Outcome.Reason]).
	Reason verdict.Reason
	// HeldOut and HeldOutStdErr are, for a Rényi screening, the estimate
	// of its grouped statistic on the held-out half, which did not choose
	// the groups, and its standard error (both 0 for other criteria):
	// evidence the confirmation must not contradict (see [contradicted]).
	HeldOut, HeldOutStdErr float64
	// AltEvent is set when a local-DP confirmation's score is that of
	// the screening's second event (local.Estimate.Alt); Second, when the
	// confirmation bounded two events (each at half its level), is the
	// other event's score. A confirmation scores the event of higher
	// lower bound, and a candidate's two rounds then the event whose
	// smaller bound is the larger (alignEvents); an early hold needs both
	// events below its limit.
	AltEvent bool
	Second   *Score
	// Planned is, for a Rényi confirmation on fewer draws than its groups
	// were made for (whose score is that of the groups merged), the score
	// of the groups as planned: an early hold needs it below its limit
	// too (RenyiFinding.confirmation).
	Planned *Score
	// EventShare is, for a local-DP confirmation, the share P̂(E) of the
	// bounded side's draws in the event confirmed (see
	// dpCriterion.SupResolution); 0 for other criteria.
	EventShare float64
	// Counts are, for a local-DP or event confirmation, how many of the
	// bounded side's draws and of the other's (Outcome.Samples each) fell
	// in the event, and Level the level α of its LowerBound (a local-DP
	// confirmation of two events bounds each at half its level); zero for
	// the Rényi criterion and the testers.
	Counts [2]int64
	Level  float64
	// Unmatched is, for an event confirmation of discrete outputs, how
	// many of the bounded side's draws fell on values the screening never
	// saw beyond the other side's draws of the same values
	// (stat.UnmatchedUnlisted). An early look cannot weigh them, so it
	// holds only where there are none.
	Unmatched int64
	// Rank orders screened candidates, most divergent first: the predicted
	// confirmation bound of the chosen statistic for the Rényi criterion
	// (computed on draws that did not choose it), the estimate less
	// local.PeakPenalty standard errors for the local one, whose maximum
	// over many outputs favours noise.
	Rank float64
}

// AloneEvent is the one event of a Rényi confirmation's group of values
// of one side alone (Score.AloneEvent): how many of the bounded side's
// draws and of the other's fell in it, the level α of its bound, and the
// two-point estimate of its divergence.
//
// Grouped is the grouped statistic's own lower bound, from which the
// resolution reads the confirmation's gap (Score.gap).
type AloneEvent struct {
	Counts            [2]int64
	Level             float64
	Estimate, Grouped float64
}

// Screened is one direction's screening: its score and the criterion's
// finding.
type Screened[F any] struct {
	Score
	Finding F
}

// Input is a candidate pair and where it came from ("pair 3",
// "generated 7").
type Input[D any] struct {
	Pair   fixtures.Pair[D]
	Source string
}

// Config is one run of the engine.
type Config[D any] struct {
	Run          plan.Run // the threshold, the budget α and the seed
	Screening    plan.Stage
	Confirmation plan.Stage
	Candidates   []Input[D] // screened in order
	// Wide are more pairs, screened only at WideScreening's size unless
	// they clearly beat the best candidate (see [screening.widen]).
	Wide                    []Input[D]
	WideScreening, WideSift plan.Stage
	// NewFinder, if not nil, returns a finder that proposes up to Trials
	// more candidates after Candidates, one at a time, each after the
	// screening of the one before (see [Finder]); each screening (the
	// quick look's, the full one's) asks for a new one.
	NewFinder func() Finder[D]
	Trials    int
	// Looks are the sequential confirmation's looks before the planned
	// one (see plan.ConfirmationLooks), each of fewer samples than the
	// next and than Confirmation, in whole blocks of sampler.BlockSize:
	// the candidates are confirmed at each in turn, at plan.LookShare of
	// the run's α, each continuing the draws of the one before, and the
	// run ends at the first where the verdict is settled ([settled]); the
	// planned confirmation spends the rest of α.
	Looks []plan.Stage
	// Audition is the stage of a deep screening's audition (see
	// [screening.deepen]).
	Audition plan.Stage
	// Budget is the run's share of α split over its looks, in order (the
	// run's branch of the plan's Ledger); nil splits it by plan.RunLooks
	// over QuickConfirmation, Looks and Confirmation.
	Budget []plan.Look
	// FirstScreening, if it has fewer samples than Screening, is the
	// stage at which every candidate is screened first (successive
	// halving): only the pairs of the leading candidates are then
	// screened at Screening's size ([screening.screenLeaders]), and what
	// they confirm is fixed on that screening. Improving, simplifying,
	// a finder's trials and promoted wide pairs screen at this size too.
	FirstScreening plan.Stage
	// Nightly ends a run before its planned look only on a violation: no
	// early hold, no hopeless look.
	Nightly bool
	// HoldResolution, if positive, is the multiple of the claim a look
	// must resolve before it holds, at most ResolutionFactor.
	HoldResolution float64
	// ZeroHoldFrom, if positive, is the draws per side from which a look
	// of a criterion that holds a claim of 0 (a pure-DP claim's
	// hockey-stick cross-check) may hold it on nothing seen: no estimate
	// above 0, no event of one dataset alone, inside the end zones. The
	// caller sets it where the look's reach comes within ReachSlack of
	// the planned look's (see dptest's zeroHoldFrom).
	ZeroHoldFrom int
	// Deep, if it has samples, is the stage at which a first look that
	// decides nothing screens the leading pairs again (see
	// [screening.deepen]); where an audition keeps the new statistics, the
	// planned confirmation counts them from the start of its streams
	// rather than continuing the early look's counts.
	Deep plan.Stage
	// QuickScreening and QuickConfirmation, if QuickScreening has samples,
	// are the stages of the quick look that comes before everything else
	// (see [quickLook] and plan.QuickStages).
	QuickScreening, QuickConfirmation plan.Stage
	// carried is, after a quick look that ran the wide stage, what it
	// sifted: the run promotes from it against its own best candidate
	// instead of screening the wide pairs again.
	carried *wideCarry[D]
	// Simplify, if not nil, proposes simpler versions of a pair (fewer
	// distinct values, extreme values), or fails; see [screening.simplify].
	Simplify func(fixtures.Pair[D]) ([]fixtures.Pair[D], error)
	Logf     func(format string, args ...any) // details, nil for none
	// Progress, if not nil, is called after every screening and
	// confirmation, possibly from several goroutines at once.
	Progress func()
	// Recorded is set for outputs recorded elsewhere: the run screens its
	// one candidate once and confirms it once (see [runRecorded]).
	Recorded bool
}

// Candidate is one (pair, direction) with its screening and confirmation
// results. Reverse selects the direction Y→X.
type Candidate[D, F any] struct {
	Pair      fixtures.Pair[D]
	Reverse   bool
	Source    string // "pair 3", "generated 7", "simplified"
	Screening Score
	Finding   F
	// Screened is the draws per side of the screening that fixed Finding.
	Screened int
	// Confirmations holds the two independent confirmations, A and B.
	Confirmations [2]Score
}

// Bound is the candidate's confirmed lower bound: the smaller of its two
// independent confirmations' bounds.
func (c Candidate[D, F]) Bound() float64 {
	return min(c.Confirmations[0].LowerBound, c.Confirmations[1].LowerBound)
}

// Estimate is the mean of the two confirmations' estimates.
func (c Candidate[D, F]) Estimate() float64 {
	return (c.Confirmations[0].Estimate + c.Confirmations[1].Estimate) / 2
}

// Outcome is the result of [Run].
type Outcome[D, F any] struct {
	Best          Candidate[D, F]   // the witness: see [decide]
	Confirmed     []Candidate[D, F] // all confirmed candidates
	PairsSearched int               // distinct pairs screened in full (explicit, generated, simplified, promoted); at a quick look's decision, on its screening
	Trials        int               // the finder's proposals screened (Config.Finder)
	FoundAt       int               // the first trial whose screening's statistic, counted again on fresh draws, bounded the measure above the threshold at plan.TriggerLevel (Bonferroni over the candidates so far); 0 if none
	Wide          WideResult        // the wide screening
	PerConfirm    float64           // α′, the level of each of the two confirmations
	Directions    [2]string         // names of the measure X→Y and Y→X
	Violated      bool              // Best.Bound() > the threshold
	// Named is the confirmation of Best whose event a report names (see
	// namedConfirmation): its AltEvent is set when that is the screening's
	// second event (local.Estimate.Alt), and its Counts are the event's.
	Named Score
	// Screened are the candidates (pair, direction) the deciding look
	// chose from, best first, their Confirmations empty but for those
	// confirmed: what their screenings saw that the confirmed statistic
	// may not count (an output of one dataset alone) is in their Finding.
	Screened []Candidate[D, F]
	// Samples is the deciding confirmation's draws per side.
	Samples int
	// Early is set when the run ended at its early look (Config.Early):
	// violated there, or Held.
	Early bool
	// Deepened is, when the planned look confirmed the statistics of a
	// deep screening (Config.Deep), that screening's draws per side; 0
	// when it confirmed the first screening's.
	Deepened int
	// Held is set when the early look, or the quick look, held the claim
	// with margin (see [held]).
	Held bool
	// Quick is set when the run ended at its quick look
	// (Config.QuickScreening): violated there, or Held.
	Quick bool
	// Reason, when the claim is not violated, says why the audit cannot
	// tell, typed by its class (suspect or unresolved): a confirmation's
	// own reason (Score.Reason: values too rare to screen one by one, far
	// outputs of one dataset alone); more than UnresolvedShare of a
	// confirmed candidate's order-λ evidence, in either confirmation, in
	// the end zones beyond the screening's extremes (Score.TailShare), or
	// more than UnresolvedDependence of it lost without them
	// (Score.TailDependence); a Resolution above ResolutionFactor times
	// the threshold (tooCoarse); or a held-out estimate that contradicts
	// the confirmations (contradicted).
	Reason verdict.Reason
	// Resolution is the smallest true value of the criterion that the
	// confirmations would have shown above the threshold with probability
	// about DetectProbability (see [resolution]).
	Resolution float64
	Elapsed    time.Duration
}

// Direction names the measure a candidate estimates.
func (o Outcome[D, F]) Direction(c Candidate[D, F]) string {
	return o.Directions[reverseIndex(c.Reverse)]
}

// Run audits the claim "the criterion is at most cfg.Run.Threshold" for
// every candidate pair: screen, widen, improve, simplify, refine, confirm
// (at growing looks, with a deep screening after the first), decide.
//
// False-failure probability. If the mechanism satisfies the claim, every
// candidate's true value is at most the threshold, each confirmation's
// bound exceeds it with probability at most α′, and a candidate's two
// confirmations use independent samples, so it is falsely confirmed with
// probability at most α′² and some candidate with probability at most
// K·α′² = α (Bonferroni). The confirmation samples are never used for
// selection, so what the screening and simplification chose does not
// affect this. Only the bounds' own level α′ rests on a normal
// approximation, and at α = 10⁻⁴ that is α′ ≈ 0.7% (z ≈ 2.45) rather than a
// tail of 10⁻⁴ (z ≈ 3.7), where a normal approximation is far less
// trustworthy. With looks before the planned one (Config.Looks) each
// spends α_l = plan.LookShare·α and the planned one the rest, each split
// as above, and a false failure at any has probability at most the sum,
// α (a union bound over the looks, which share draws). Stopping at a
// look where the claim holds, or cannot be resolved, only ends the run
// sooner: it cannot fail a claim that holds. A deep screening after the
// first look (Config.Deep, [screening.deepen]) chooses the later looks'
// statistics on draws of its own (a larger screening and an audition),
// never on the confirmation's, so their bounds are those of a statistic
// fixed in advance.
//
// With a quick look (Config.QuickScreening) the run first spends
// α_q = plan.QuickLookShare·α there and the rest as above; the quick
// look's selection and confirmation draw on streams of their own seed, so
// the union bound covers it as another look.
func Run[D, F any](crit Criterion[D, F], cfg Config[D]) (Outcome[D, F], error) {
	if cfg.Recorded {
		return runRecorded(crit, cfg)
	}
	start := time.Now()
	if cfg.Budget == nil {
		quick := cfg.QuickConfirmation
		if cfg.QuickScreening.Samples == 0 {
			quick = plan.Stage{}
		}
		cfg.Budget = plan.RunLooks(cfg.Run, quick, cfg.Looks, cfg.Confirmation)
	}
	if cfg.QuickScreening.Samples > 0 {
		out, rest, err := quickLook(crit, cfg)
		if err != nil || out.Quick {
			out.Elapsed = time.Since(start)
			return out, err
		}
		cfg = rest
	}
	s := newScreening(crit, cfg)
	// Successive halving pays only where there are more pairs than a run
	// confirms; a run of that many or fewer screens them in full.
	if first := cfg.FirstScreening; first.Samples > 0 && first.Samples < cfg.Screening.Samples && len(cfg.Candidates) > plan.Confirmed {
		s.cfg.Screening = first
	}
	base, err := s.selectCandidates(true)
	if err != nil && s.cfg.Screening.Samples < cfg.Screening.Samples && !mechanismFailure(err) {
		// A statistic that fails at the first size (outputs too sparse
		// to screen on so few draws) screens every candidate in full, as
		// before successive halving: a larger first screening of sparse
		// outputs ranks on noise, and a pair that differs in nothing can
		// lead (the 10⁴-ary randomized response held a violation so).
		s.logf("first screening at %d draws per side failed (%v); screening every candidate in full", s.cfg.Screening.Samples, err)
		s = newScreening(crit, cfg)
		base, err = s.selectCandidates(true)
	}
	if err != nil {
		return base, err
	}
	var accs []*Counts
	final, deepened := cfg, false
	for k, look := range cfg.Looks {
		if look.Samples >= cfg.Confirmation.Samples || look.Samples%sampler.BlockSize != 0 || k > 0 && look.Samples <= cfg.Looks[k-1].Samples {
			panic(fmt.Sprintf("search: a look of %d draws before %d: looks must grow, in whole blocks of %d, and stay under the planned", look.Samples, cfg.Confirmation.Samples, sampler.BlockSize))
		}
		lc := cfg
		lc.Confirmation = look
		lc.Run.Alpha = cfg.lookAlpha(fmt.Sprintf("look %d", k+1))
		out, err := s.conclude(base, lc, &accs, true)
		if err != nil {
			return out, err
		}
		// A deep screening, where planned, comes before any pass: the
		// first screening may have missed a rare output of one dataset
		// that a larger one isolates. No look smaller than the screening
		// holds either: its reach is below the screening's, and an output
		// far out in one dataset's tail can be missing from it (the
		// robustness grid's far-atom cells held violations so).
		out.Held = out.Held && !(k == 0 && cfg.Deep.Samples > 0) && look.Samples >= cfg.Screening.Samples
		if out.Violated || !cfg.Nightly && settled(out, cfg.Confirmation.Samples) {
			out.Early, out.Elapsed = true, time.Since(start)
			s.logf("the look at %d draws per side decides: %s", look.Samples, decision(out))
			return out, nil
		}
		if k == 0 && cfg.Deep.Samples > 0 {
			s.logf("first look at %d draws per side: nothing settled; screening the leading pairs again at %d draws per side", look.Samples, cfg.Deep.Samples)
			planned := cfg.Run
			planned.Alpha = cfg.lookAlpha(plan.PlannedLookName)
			z := numeric.UpperNormalQuantile(planned.PerConfirmation())
			if accs, deepened, err = s.deepen(accs, z); err != nil {
				return base, err
			}
		} else {
			s.logf("look at %d draws per side: nothing settled; continuing its draws", look.Samples)
		}
	}
	final.Run.Alpha = cfg.lookAlpha(plan.PlannedLookName)
	out, err := s.conclude(base, final, &accs, false)
	if deepened {
		out.Deepened = cfg.Deep.Samples
	}
	out.Elapsed = time.Since(start)
	return out, err
}

// selectCandidates runs the selection stages in order: screen every
// candidate, widen (or, after a quick look, promote from what it sifted),
// improve, simplify and, if refine, refine. It returns the outcome so far.
func (s *screening[D, F]) selectCandidates(refine bool) (Outcome[D, F], error) {
	base := Outcome[D, F]{Directions: s.crit.Directions()}
	if err := s.screenAll(); err != nil {
		return base, err
	}
	if s.full().Samples > s.cfg.Screening.Samples && unresolvedAtFirst(s.cands) {
		return base, errUnranked
	}
	var err error
	if c := s.cfg.carried; c != nil {
		base.Wide, err = s.promote(c.sifted, c.res)
	} else {
		base.Wide, err = s.widen()
	}
	if err != nil {
		return base, err
	}
	// The leading pairs are screened in full before simplifying, which
	// then starts only from a full screening's evidence of a violation,
	// and again after, for a simpler pair that took the lead.
	stages := []func() error{s.improve, s.screenLeaders, s.simplify, s.screenLeaders}
	if refine {
		stages = append(stages, s.refine)
	}
	for _, stage := range stages {
		if err := stage(); err != nil {
			return base, err
		}
	}
	base.PairsSearched, base.Trials, base.FoundAt = s.screened-s.rescreened, s.trials, s.foundAt
	return base, nil
}

// errUnranked ends a first screening that cannot rank the candidates; the
// run then screens every candidate in full.
var errUnranked = fmt.Errorf("the first screening could not resolve the outputs to rank the candidates")

// unresolvedAtFirst reports whether a first screening cannot rank the
// candidates: the leading one, or half of them, could not resolve their
// outputs at its size (Score.Reason: numbers or values seen too few
// times each).
func unresolvedAtFirst[D, F any](cands []Candidate[D, F]) bool {
	unresolved := 0
	for _, c := range cands {
		if c.Screening.Reason != nil {
			unresolved++
		}
	}
	return len(cands) > 0 && (cands[0].Screening.Reason != nil || 2*unresolved >= len(cands))
}

// lookAlpha is the share of α of the run's look of that name (Budget).
// A look the budget does not list is a programming error, which panics.
func (cfg Config[D]) lookAlpha(name string) float64 {
	for _, l := range cfg.Budget {
		if l.Name == name {
			return l.Alpha
		}
	}
	panic(fmt.Sprintf("search: no look %q in the run's budget", name))
}

// decision names what a look that decided found.
func decision[D, F any](out Outcome[D, F]) string {
	switch {
	case out.Violated:
		return "violated"
	case out.Held:
		return "holds"
	}
	return "the planned size cannot resolve the claim"
}

// HopelessFactor: a look whose resolution would need more than
// HopelessFactor times the planned draws to reach ResolutionFactor times
// the claim (the resolution's excess over the claim falling as 1/√n)
// may end the run unresolved there: the planned look would resolve only
// about √HopelessFactor times as far beyond the claim, so it could not
// hold the claim either.
const HopelessFactor = 16

// HopelessZ is the number of standard errors above its estimate that a
// confirmation must stay under what the planned look is predicted to
// resolve, for a look to call the run hopeless: a violation just beyond
// that prediction, estimated below it by chance, would otherwise end
// unresolved where the planned look confirms it. Each later look asks
// again, on more draws.
const HopelessZ = 1

// settled reports whether a look before the planned one ends the run:
// the claim is violated or held there (Outcome.Held), or it is hopeless.
func settled[D, F any](out Outcome[D, F], planned int) bool {
	return out.Violated || out.Held || hopeless(out, planned)
}

// hopeless reports whether a look says the planned confirmation of n
// draws per side cannot resolve the claim, and saw nothing it could
// confirm: a coarse resolution that would need more than HopelessFactor·n
// draws, with every confirmed event's Estimate + HopelessZ·StdErr (first
// and second) under what n draws are predicted to resolve (the look's
// resolution less the claim, shrunk as 1/√n, above the claim); or a claim
// beyond what n draws can show at all. An estimate above that is a violation the planned look
// may confirm, so the run goes on.
func hopeless[D, F any](out Outcome[D, F], n int) bool {
	switch r := out.Reason.(type) {
	case *verdict.CoarseResolution:
		predicted := r.Claim + (r.Resolution-r.Claim)*math.Sqrt(float64(r.Samples)/float64(n))
		for _, c := range out.Confirmed {
			for _, s := range c.Confirmations {
				if s.Estimate+HopelessZ*s.StdErr > predicted || s.Second != nil && s.Second.Estimate+HopelessZ*s.Second.StdErr > predicted {
					return false
				}
			}
		}
		return r.DrawsNeeded > HopelessFactor*float64(n)
	case *verdict.ClaimBeyondReach:
		return r.DrawsNeeded > 2*float64(n)
	}
	return false
}

// conclude confirms the leading candidates at cfg's confirmation stage and
// budget, continuing the counts accs of an earlier look, and decides; on
// an early look it also says whether the claim is held with margin there.
func (s *screening[D, F]) conclude(out Outcome[D, F], cfg Config[D], accs *[]*Counts, early bool) (Outcome[D, F], error) {
	var err error
	out.Samples = cfg.Confirmation.Samples
	out.Confirmed, out.PerConfirm, err = confirm(s.crit, cfg, s.cands, accs)
	if err != nil {
		return out, err
	}
	out.Screened = s.cands
	th := cfg.Run.Threshold
	out.Best, out.Violated = decide(out.Confirmed, th)
	out.Resolution = resolution(s.crit, out.Confirmed, th, out.PerConfirm)
	if early {
		out.Resolution = earlyResolutionAt(s.crit, out.Confirmed, th, out.PerConfirm, DetectProbability)
	}
	out.Named = namedConfirmation(s.crit, out.Best, out.Violated, th, out.PerConfirm)
	floor := 0.0
	if f, ok := s.crit.(floored); ok {
		floor = f.ResolutionFloor(th, cfg.Confirmation.Samples, out.PerConfirm)
		out.Resolution = max(out.Resolution, floor)
	}
	if !out.Violated {
		out.Reason = unresolved(out.Confirmed, cfg.Run.Lambda)
		if r := out.Resolution; out.Reason == nil && th > 0 && !(r <= ResolutionFactor*th) {
			out.Reason = tooCoarse(s.crit, out.Confirmed, cfg, r, math.IsInf(floor, 1), out.PerConfirm)
		}
	}
	if !out.Violated && out.Reason == nil {
		out.Reason = contradicted(s.cands, out.Confirmed, th)
	}
	if early && !out.Violated && out.Reason == nil {
		out.Held = s.holdsAtLook(out.Confirmed, th, out.PerConfirm, floor, out.Samples)
	}
	for _, c := range out.Confirmed {
		a, b := c.Confirmations[0], c.Confirmations[1]
		s.logf("confirmed %s %s at %d draws per side: bounds %.4g and %.4g (estimates %.4g, %.4g; beyond the screening %.0f%%, %.0f%%, resting on it %.0f%%, %.0f%%) at level %.3g each",
			c.Source, out.Direction(c), cfg.Confirmation.Samples, a.LowerBound, b.LowerBound, a.Estimate, b.Estimate,
			100*a.TailShare, 100*b.TailShare, 100*a.TailDependence, 100*b.TailDependence, out.PerConfirm)
		if a.Second != nil && b.Second != nil {
			s.logf("  the other event of each: bounds %.4g and %.4g (estimates %.4g, %.4g); each event at half that level, and both rounds score %s (the event whose smaller bound is the larger)",
				a.Second.LowerBound, b.Second.LowerBound, a.Second.Estimate, b.Second.Estimate, whichEvent(a))
		}
	}
	return out, nil
}

// tooCoarse is why a resolution r above ResolutionFactor times the
// threshold leaves a pass unresolved. A finite r: the statistic is too
// noisy (CoarseResolution), or its events hold so much of the outputs
// that no number of draws of them would resolve the claim
// (EventsTooLarge). An infinite r is no value the confirmations tell: a
// claim beyond what any event of n draws can show (beyondFloor); a
// confirmed event that one dataset alone produced in both confirmations,
// whose measure may be infinite (a Gaussian-DP level; D_λ) but which no
// count of the other side's draws bounds from above (suspect); one that
// only one confirmation counted so (a count of 0 gives that confirmation
// an infinite StdErr, but the other's may show both datasets produce
// it); or events that can show no value of the measure at all (an event
// holding every output of its side, on which an ε-DP mechanism's loss is
// 0 for every finite ε).
func tooCoarse[D, F any](crit Criterion[D, F], confirmed []Candidate[D, F], cfg Config[D], r float64, beyondFloor bool, perConfirm float64) verdict.Reason {
	n, th, run := cfg.Confirmation.Samples, cfg.Run.Threshold, cfg.Run
	switch {
	case !math.IsInf(r, 1):
		limit, share := supLimit(crit, confirmed, th)
		if limit > ResolutionFactor*th {
			return &verdict.EventsTooLarge{Claim: th, Limit: limit, Share: share, Samples: n}
		}
		why := &verdict.CoarseResolution{Measure: measureName(run), Claim: th, Resolution: r, Samples: n,
			DrawsNeeded: drawsToResolve(r, max(th, limit), ResolutionFactor*th, n), Instead: insteadOf(run)}
		if c, ok := widest(confirmed, perConfirm); ok {
			why.Witness = pairText(c.Pair)
		}
		return why
	case beyondFloor:
		why := &verdict.ClaimBeyondReach{Measure: measureName(run), Claim: th, Samples: n}
		if run.Criterion == plan.CriterionGaussian {
			why.DrawsNeeded, why.Smaller = GaussianFloorDraws(th, perConfirm), "a smaller μ"
		}
		return why
	}
	for _, c := range confirmed {
		if a, b := c.Confirmations[0], c.Confirmations[1]; a.Unbounded && b.Unbounded {
			return &verdict.OneSidedEvent{Witness: pairText(c.Pair), Samples: n, Bound: c.Bound(), Claim: th}
		}
	}
	for _, c := range confirmed {
		for _, s := range c.Confirmations {
			if s.Unbounded && math.IsInf(s.StdErr, 1) {
				return &verdict.OneSidedOnce{Witness: pairText(c.Pair), Samples: n}
			}
		}
	}
	return &verdict.NoMeasurableEvent{Claim: th, Samples: n}
}

// pairText prints a pair as reasons name it: X=… Y=….
func pairText[D any](p fixtures.Pair[D]) string { return fmt.Sprintf("X=%v Y=%v", p.X, p.Y) }

// measureName names what a run's claim bounds, for reasons.
func measureName(r plan.Run) string {
	switch r.Criterion {
	case plan.CriterionRenyi:
		return "D_" + verdict.Num(r.Lambda)
	case plan.CriterionHockeyStick:
		return "δ(ε=" + verdict.Num(r.Eps) + ")"
	case plan.CriterionGaussian:
		return "μ"
	case plan.CriterionLocal:
		return "loss"
	}
	return "H_{e^" + verdict.Num(r.Eps) + "}"
}

// insteadOf names the claims of the same mechanism that resolve at fewer
// draws than a run's, for a coarse resolution's remedy.
func insteadOf(r plan.Run) string {
	switch {
	case r.CrossCheck:
		return ""
	case r.Criterion == plan.CriterionHockeyStick:
		return "state the mechanism's GDP claim or a low-order RDP claim, which resolve at far fewer draws, where it has one"
	case r.Criterion == plan.CriterionRenyi:
		return "a lower order λ needs fewer draws"
	}
	return ""
}

// drawsToResolve is the sample size at which an audit of resolution res
// at n draws would resolve to target: the resolution's excess over from
// (the threshold, or what its events resolve at any size) shrinks as
// 1/√n. It is n where res is within target already, and +Inf where target
// is not above from.
func drawsToResolve(res, from, target float64, n int) float64 {
	excess, want := res-from, target-from
	switch {
	case !(res > target):
		return float64(n)
	case !(want > 0):
		return math.Inf(1)
	}
	return math.Ceil(float64(n) * (excess / want) * (excess / want))
}

// GaussianFloorDraws is the least n at which an event's Gaussian-DP bound
// can exceed μ at all (hockey.Gaussian's Least): the upper bound of a
// count of 0 at level α/2, 1 − (α/2)^{1/n}, must fall below Φ(−μ/2);
// +Inf where Φ(−μ/2) is below what a float64 holds (μ ≳ 75).
func GaussianFloorDraws(mu, alpha float64) float64 {
	p := numeric.NormalCDF(-mu / 2)
	if !(p > 0) {
		return math.Inf(1)
	}
	return math.Log(alpha/2) / math.Log1p(-p)
}

// gap is how far a confirmation's bound may lie below its measure, as the
// resolution reads it: max(Estimate − LowerBound, z·StdErr), z the
// quantile of the confirmation's level (of a Rényi bound raised by its
// AloneEvent, the grouped statistic's own bound, at half that level: the
// estimate is that statistic's).
func (s Score) gap(z float64) float64 {
	bound := s.LowerBound
	if s.AloneEvent != nil {
		bound = s.AloneEvent.Grouped // the estimate's own bound
	}
	return max(s.Estimate-bound, z*s.StdErr)
}

// Resolved is the score whose gap sets a confirmation's resolution: of a
// local-DP confirmation of two events (Second), the finer (either bound
// would have shown a loss on its own event; the finer says more), else
// the score itself. The resolution reads it at z, the quantile of the
// confirmation's level.
func (s Score) Resolved(z float64) Score {
	if s.Second != nil && s.Second.gap(z) < s.gap(z) {
		return *s.Second
	}
	return s
}

// widest returns the confirmed candidate whose confirmation sets the
// resolution (the widest gap, as [resolution] reads it): the direction a resolution too coarse comes
// from, which need not be the one whose bound is highest (a direction
// whose true measure is 0 can be the noisier).
func widest[D, F any](confirmed []Candidate[D, F], perConfirm float64) (Candidate[D, F], bool) {
	z := numeric.UpperNormalQuantile(perConfirm)
	var best Candidate[D, F]
	most, found := math.Inf(-1), false
	for _, c := range confirmed {
		for _, s := range c.Confirmations {
			if w := s.Resolved(z).gap(z); w > most {
				best, most, found = c, w, true
			}
		}
	}
	return best, found
}

// ContradictionLevel is the level, after Bonferroni over the screened
// candidates, at which a screening's held-out estimate above the claim
// contradicts confirmations that stay below it. It is strict, and the
// check needs a held-out half of MinContradictionDraws per side and
// confirmations that put at least TailShareOfContradiction of their
// evidence beyond the screening's extremes, because the plug-in estimate
// of a small held-out half is skewed and its standard error too small: a
// correct Gaussian vector claim screened on 1,000 draws showed 4.15 ± 0.35
// against a truth of 1. The silent pass the check was made for showed
// 1.05 ± 0.06 against 0.735 on 50,000 held-out draws, with 43% of the
// confirmations' evidence beyond the screening's extremes.
const (
	ContradictionLevel       = 1e-4
	MinContradictionDraws    = 10_000
	TailShareOfContradiction = UnresolvedShare / 4
)

// contradicted explains why a claim the confirmations did not show
// violated cannot pass, or is empty: some screening's held-out estimate
// (Score.HeldOut, on draws that did not choose its groups) exceeds the
// threshold by more than z standard errors, z at ContradictionLevel over
// the candidates, while a confirmation leans on the tails beyond the
// screening's extremes (TailShareOfContradiction). The confirmations
// count a statistic fixed for their own size, which lumps those tails with
// its last groups: for a pair whose noise is wider on one side the
// divergence lives there (it can be infinite), and a pass would rest on
// the weaker of two pieces of evidence.
func contradicted[D, F any](screened, confirmed []Candidate[D, F], threshold float64) verdict.Reason {
	tails := 0.0
	for _, c := range confirmed {
		tails = max(tails, c.Confirmations[0].TailShare, c.Confirmations[1].TailShare)
	}
	if tails < TailShareOfContradiction {
		return nil
	}
	z := numeric.UpperNormalQuantile(ContradictionLevel / float64(max(len(screened), 1)))
	for _, c := range screened {
		s := c.Screening
		if c.Screened/2 >= MinContradictionDraws && s.HeldOutStdErr > 0 && s.HeldOut-z*s.HeldOutStdErr > threshold {
			return &verdict.HeldOutExceedance{Witness: pairText(c.Pair), HeldOut: s.HeldOut, StdErr: s.HeldOutStdErr, Claim: threshold, TailShare: tails}
		}
	}
	return nil
}

// ReachSlack is how much coarser than the planned look's reach a look's
// may be where a claim of 0 holds on nothing seen there (Config.ZeroHoldFrom):
// the planned draws would catch outputs of one dataset alone at most
// ReachSlack times rarer, and the pass states the look's reach.
const ReachSlack = 4

// HoldZ is the z of the upper confidence bounds Estimate + HoldZ·StdErr on
// which an early pass rests: Φ⁻¹(0.99), one-sided 1%.
const HoldZ = 2.326348

// HoldTailFactor: an early pass also needs every confirmation's TailShare
// and TailDependence under 1/HoldTailFactor of the limits that make a
// planned confirmation unresolved (UnresolvedShare, UnresolvedDependence).
// Those checks are what keeps a Rényi bound from passing on a tail it has
// not reached, and on fewer draws they are noisier. (A Gaussian at λ = 2
// shows 2–13% of its evidence beyond the screening's extremes,
// randomized response on ten bits 21%.)
const HoldTailFactor = 2

// earlyHolder is a criterion that says whether its early look may pass a
// claim at all (the Rényi criterion: not at high orders).
type earlyHolder interface{ holdsEarly() bool }

// holdsEarly reports whether crit's early look may pass a claim.
func holdsEarly(crit any) bool {
	h, ok := crit.(earlyHolder)
	return !ok || h.holdsEarly()
}

// zeroHolder is a criterion that can hold a claim at threshold 0 with
// margin on a test of its own, Score.MarginHeld (the hockey-stick
// cross-check of an ε-DP claim, at δ = 0, where no upper bound of the
// measure can lie under a share of the threshold).
type zeroHolder interface{ holdsAtZero() bool }

// holdTest returns the test every screening and confirmation must pass
// for an early or quick look to hold a claim at threshold th with margin,
// or nil where none may: an upper bound Estimate + HoldZ·StdErr at most
// plan.HoldShare·th, on an event seen on both datasets (heldBelow); at
// th = 0, a zeroHolder's Score.MarginHeld.
func holdTest(crit any, th float64) func(Score) bool {
	if !holdsEarly(crit) || math.IsInf(th, 1) || !(th >= 0) {
		return nil
	}
	if th > 0 {
		return func(s Score) bool { return heldBelow(s, plan.HoldShare*th) }
	}
	if z, ok := crit.(zeroHolder); ok && z.holdsAtZero() {
		return func(s Score) bool { return s.MarginHeld && !s.Unbounded }
	}
	return nil
}

// holdsAtLook reports whether a look before the planned one holds the
// claim, given no violation and no reason against it there: the criterion
// may hold early (holdsEarly), every confirmation stays inside the end
// zones (HoldTailFactor) and counted no event under one dataset only or on
// values the screening never saw (unmatchedSeen), and either the look
// resolves ResolutionFactor times the claim with probability
// plan.HoldPower, every event seen above the claim included
// (seenResolution), and any event of its draws could show it (floor); or
// every screening and
// confirmation shows the claim held with margin (holdTest, held). A claim
// of 0 holds by the margin rule of its criterion, or on nothing seen once
// the look has Config.ZeroHoldFrom draws (samples per side).
func (s *screening[D, F]) holdsAtLook(confirmed []Candidate[D, F], th, perConfirm, floor float64, samples int) bool {
	if !holdsEarly(s.crit) || len(confirmed) == 0 {
		return false
	}
	for _, c := range confirmed {
		for _, sc := range c.Confirmations {
			if !insideZones(sc) || sc.Unbounded {
				return false
			}
		}
	}
	if th > 0 && (unmatchedSeen(confirmed) || signAbove(confirmed, th)) {
		return false
	}
	if z, ok := s.crit.(zeroHolder); ok && th == 0 && z.holdsAtZero() && s.cfg.ZeroHoldFrom > 0 && samples >= s.cfg.ZeroHoldFrom && !seenAbove(confirmed, 0) {
		return true
	}
	if th > 0 && max(floor, earlyResolutionAt(s.crit, confirmed, th, perConfirm, plan.HoldPower), earlyResolutionAt(s.crit, asPlanned(confirmed), th, perConfirm, plan.HoldPower)) <= s.holdFactor()*th {
		return true
	}
	below := holdTest(s.crit, th)
	return below != nil && held(s.cands, confirmed, below)
}

// SignZ is how many standard errors a confirmed estimate must lie above
// the claim to be a sign of a violation, which no early look holds on:
// the planned look's draws may confirm it.
const SignZ = 1

// signAbove reports whether some confirmed event, first or second,
// estimates the measure more than SignZ standard errors above th.
func signAbove[D, F any](confirmed []Candidate[D, F], th float64) bool {
	for _, c := range confirmed {
		for _, sc := range c.Confirmations {
			if sc.Estimate-SignZ*sc.StdErr > th || (sc.Second != nil && sc.Second.Estimate-SignZ*sc.Second.StdErr > th) {
				return true
			}
		}
	}
	return false
}

// seenAbove reports whether some confirmed event, first or second,
// estimates the measure above th: a claim of 0 holds early only where
// nothing was seen (Config.ZeroHoldFrom).
func seenAbove[D, F any](confirmed []Candidate[D, F], th float64) bool {
	for _, c := range confirmed {
		for _, sc := range c.Confirmations {
			if sc.Estimate > th || (sc.Second != nil && sc.Second.Estimate > th) {
				return true
			}
		}
	}
	return false
}

// unmatchedSeen reports whether a confirmation drew values the screening
// never saw beyond the other side's (Score.Unmatched): rare values whose
// share only the planned draws weigh, so a look does not hold on them.
func unmatchedSeen[D, F any](confirmed []Candidate[D, F]) bool {
	for _, c := range confirmed {
		for _, sc := range c.Confirmations {
			if sc.Unmatched > 0 {
				return true
			}
		}
	}
	return false
}

// holdFactor is the multiple of the claim a look must resolve to hold:
// Config.HoldResolution where set below ResolutionFactor.
func (s *screening[D, F]) holdFactor() float64 {
	if h := s.cfg.HoldResolution; h > 0 && h < ResolutionFactor {
		return h
	}
	return ResolutionFactor
}

// asPlanned returns the confirmed candidates with each confirmation's
// score that of its groups as planned (Score.Planned) where a look merged
// them: a merged statistic can see nothing, and a statistic that sees
// nothing has no noise, so its resolution alone would read fine.
func asPlanned[D, F any](confirmed []Candidate[D, F]) []Candidate[D, F] {
	out := slices.Clone(confirmed)
	for i := range out {
		for k, s := range out[i].Confirmations {
			if s.Planned != nil {
				out[i].Confirmations[k] = *s.Planned
			}
		}
	}
	return out
}

// insideZones reports whether a confirmation's evidence stays inside the
// end zones by HoldTailFactor, as its planned groups' does.
func insideZones(s Score) bool {
	return s.TailShare <= UnresolvedShare/HoldTailFactor && s.TailDependence <= UnresolvedDependence/HoldTailFactor &&
		(s.Planned == nil || insideZones(*s.Planned))
}

// held reports whether an early confirmation may pass the claim: every
// screened candidate's and every confirmation's score passes below (see
// holdTest: for a positive claim, an upper bound Estimate + HoldZ·StdErr
// at or below plan.HoldShare of it), no confirmation counted an event one
// dataset alone produced, and none leans on the end zones
// (HoldTailFactor). The statistics are the ones the planned confirmation
// would count (one screening serves both; a Rényi statistic's groups,
// merged for the early look's size, are held as planned too:
// Score.Planned), so a candidate whose
// statistic's true value exceeds the claim passes here with probability
// under Φ(−HoldZ) = 1% where its estimate is about normal with that
// standard error, and far less the further the hold's limit lies under
// the claim.
func held[D, F any](screened, confirmed []Candidate[D, F], below func(Score) bool) bool {
	if !screeningsPass(screened, below) {
		return false
	}
	for _, c := range confirmed {
		for _, s := range c.Confirmations {
			if !below(s) || !insideZones(s) {
				return false
			}
		}
	}
	return true
}

// screeningsPass reports whether every candidate's screening passes below.
func screeningsPass[D, F any](cands []Candidate[D, F], below func(Score) bool) bool {
	for _, c := range cands {
		if !below(c.Screening) {
			return false
		}
	}
	return true
}

// heldBelow reports whether a score's upper bound Estimate + HoldZ·StdErr
// lies at or below limit, its event seen on both datasets, and so does
// the second event's of a local-DP confirmation (Score.Second) and the
// planned groups' of a Rényi one (Score.Planned); and a Rényi bound
// raised by the group of one side alone (Score.AloneEvent) lies at or
// below limit too.
func heldBelow(s Score, limit float64) bool {
	return s.Estimate+HoldZ*s.StdErr <= limit && !s.Unbounded &&
		(s.AloneEvent == nil || s.LowerBound <= limit) &&
		(s.Second == nil || heldBelow(*s.Second, limit)) && (s.Planned == nil || heldBelow(*s.Planned, limit))
}

// UnresolvedShare is the TailShare, in either confirmation of a confirmed
// candidate, above which a bound below the claim is no evidence that it
// holds.
const UnresolvedShare = 0.5

// UnresolvedDependence is the TailDependence, in either confirmation of a
// confirmed candidate, above which a bound below the claim is no evidence
// that it holds: the statistic's evidence falls tenfold without the end
// zones' outputs. (The dependence's noise reaches about 0.5 at λ = 64 on a
// Laplace, whose tail adds nothing; a Gaussian there gives 0.9 and more.)
const UnresolvedDependence = 0.9

// unresolved explains why confirmed candidates cannot tell, or is empty.
func unresolved[D, F any](confirmed []Candidate[D, F], lambda float64) verdict.Reason {
	for _, c := range confirmed {
		for _, s := range c.Confirmations {
			if s.Reason != nil {
				return s.Reason
			}
		}
		if s := max(c.Confirmations[0].TailShare, c.Confirmations[1].TailShare); s > UnresolvedShare {
			return &verdict.TailsUnreached{Lambda: lambda, Witness: pairText(c.Pair), Share: s}
		}
		if d := max(c.Confirmations[0].TailDependence, c.Confirmations[1].TailDependence); d > UnresolvedDependence {
			return &verdict.TailsUnreached{Lambda: lambda, Witness: pairText(c.Pair), Dependence: d}
		}
	}
	return nil
}

// floored is a criterion whose statistic cannot show a violation below
// some size at a sample size, whatever the widths of the confirmations it
// made: the audit's resolution is at least ResolutionFloor.
type floored interface {
	ResolutionFloor(threshold float64, n int, alpha float64) float64
}

// ResolutionFactor is how far above the threshold an audit may resolve
// before it is inconclusive: a pass must mean that a violation of
// ResolutionFactor times the claim would have been caught.
const ResolutionFactor = verdict.ResolutionFactor

// DetectProbability is the probability with which a true value at the
// resolution is confirmed above the threshold (both confirmations).
const DetectProbability = 0.9

// resolution returns threshold + (z_{1−α′} + z_β)/z_{1−α′}·g, g the widest
// gap max(Estimate − LowerBound, z_{1−α′}·StdErr) of any confirmation (an
// exact event bound's StdErr comes from its confidence rectangle, so a
// bound clipped at 0 does not hide its width), and β = 1 − √
// DetectProbability: for a bound Estimate − z_{1−α′}·se, a candidate whose
// true value exceeds the threshold by (z_{1−α′} + z_β)·se is confirmed
// above it by each confirmation with probability 1 − β, by both with
// DetectProbability. The standard error is taken where it was measured,
// so this is an approximation wherever it grows with the divergence. For
// a criterion that reads a confirmation's resolution on the claim's scale
// (supResolved) it is at least the least of those readings.
func resolution[D, F any](crit Criterion[D, F], confirmed []Candidate[D, F], threshold, perConfirm float64) float64 {
	return resolutionAt(crit, confirmed, threshold, perConfirm, DetectProbability)
}

// resolutionAt is [resolution] at the given power: the smallest true
// value the confirmations would have shown above the threshold with that
// probability.
func resolutionAt[D, F any](crit Criterion[D, F], confirmed []Candidate[D, F], threshold, perConfirm, power float64) float64 {
	zA := numeric.UpperNormalQuantile(perConfirm)
	zB := numeric.UpperNormalQuantile(1 - math.Sqrt(power))
	sup, _ := crit.(supResolved)
	res, least := threshold, math.Inf(1)
	for _, c := range confirmed {
		for _, s := range c.Confirmations {
			_, r, read := readResolution(sup, s, threshold, zA, zB)
			if !(r <= res) {
				res = r
			}
			least = min(least, read)
		}
	}
	if sup != nil && len(confirmed) > 0 && !(least <= res) {
		return least
	}
	return res
}

// earlyResolutionAt is resolutionAt for a look before the planned one,
// where it also counts every event seen above the threshold
// (seenResolution): a look holds, and states its resolution, only where
// those events' own draws resolve them too.
func earlyResolutionAt[D, F any](crit Criterion[D, F], confirmed []Candidate[D, F], threshold, perConfirm, power float64) float64 {
	sup, _ := crit.(supResolved)
	zA := numeric.UpperNormalQuantile(perConfirm)
	zB := numeric.UpperNormalQuantile(1 - math.Sqrt(power))
	return max(resolutionAt(crit, confirmed, threshold, perConfirm, power), seenResolution(sup, confirmed, threshold, zA, zB))
}

// seenResolution is the coarsest resolution, read on the claim's scale,
// of any confirmed event, first or second, whose estimate lies above the
// threshold (0 where none does). A resolution otherwise reads the finer
// event of a confirmation of two; but an event seen above the claim is
// evidence only its own draws can weigh (a rarer value of larger loss, a
// rare run of one dataset), so an early pass states what they resolve,
// and waits for a later look where they do not resolve enough. (The
// planned look decides on its own rules: the events it confirms were
// chosen on draws of their own.)
func seenResolution[D, F any](sup supResolved, confirmed []Candidate[D, F], threshold, zA, zB float64) float64 {
	seen := 0.0
	for _, c := range confirmed {
		for _, s := range c.Confirmations {
			for _, e := range []*Score{&s, s.Second} {
				if e == nil || !(e.Estimate > threshold) {
					continue
				}
				one := *e
				one.Second = nil
				_, _, read := readResolution(sup, one, threshold, zA, zB)
				seen = max(seen, read)
			}
		}
	}
	return seen
}

// whichEvent names the event a confirmation of two events scores.
func whichEvent(s Score) string {
	if s.AltEvent {
		return "the screening's second event"
	}
	return "its first"
}

// readResolution is one confirmation's resolution, threshold +
// (zA + zB)/zA·gap, and its reading on the claim's scale by a criterion
// that reads it so (sup; else the same). Of a local-DP confirmation of
// two events (Score.Second), which catches a violation on either, each is
// the finer of the two events' (as one event's, they are compared across
// confirmations by [resolution]), and e is the event whose reading is the
// finer, the one a pass names.
func readResolution(sup supResolved, s Score, threshold, zA, zB float64) (e Score, r, read float64) {
	at := func(c Score) (float64, float64) {
		r := threshold + c.gap(zA)*(zA+zB)/zA
		if sup == nil {
			return r, r
		}
		return r, sup.SupResolution(r, c)
	}
	e = s
	r, read = at(s)
	if s.Second != nil {
		r2, read2 := at(*s.Second)
		if read2 < read {
			e, read = *s.Second, read2
		}
		r = min(r, r2)
	}
	return e, r, read
}

// namedConfirmation is the score of the event a report names for the
// witness best: of the confirmation whose bound is best's (the lower of
// two), the event whose bound that is, for a violation, or, for a pass,
// the one whose resolution it reads (readResolution). Of a local-DP
// confirmation of two events, its AltEvent says which it is.
func namedConfirmation[D, F any](crit Criterion[D, F], best Candidate[D, F], violated bool, threshold, perConfirm float64) Score {
	c := best.Confirmations
	deciding := c[0]
	if c[1].LowerBound < deciding.LowerBound {
		deciding = c[1]
	}
	if !violated {
		sup, _ := crit.(supResolved)
		zA := numeric.UpperNormalQuantile(perConfirm)
		deciding, _, _ = readResolution(sup, deciding, threshold, zA, numeric.UpperNormalQuantile(1-math.Sqrt(DetectProbability)))
	}
	return deciding
}

// supLimit is, for a criterion that reads its confirmations' resolutions
// on the claim's scale (supResolved), the least such reading of a
// resolution equal to the threshold itself, and the bounded side's share
// of the event that gives it: what these events resolve however many
// draws confirm them (an ε-DP claim's loss on an event of share P is at
// most ln(P/(1 − e^ε(1 − P))), so a loss at ε there shows only
// ln((1 − P·e^{−ε})/(1 − P))). 0 for other criteria or no confirmation.
func supLimit[D, F any](crit Criterion[D, F], confirmed []Candidate[D, F], threshold float64) (limit, share float64) {
	sup, ok := crit.(supResolved)
	if !ok || len(confirmed) == 0 {
		return 0, 0
	}
	limit = math.Inf(1)
	for _, c := range confirmed {
		for _, s := range c.Confirmations {
			for _, e := range []*Score{&s, s.Second} {
				if e == nil {
					continue
				}
				if l := sup.SupResolution(threshold, *e); l < limit {
					limit, share = l, e.EventShare
				}
			}
		}
	}
	return limit, share
}

// supResolved is a criterion whose confirmations resolve the measure of
// one event, which the claim bounds through its supremum over events: it
// reads a confirmation's resolution on the claim's scale (see
// dpCriterion.SupResolution). The audit's resolution is then at least the
// smallest of those: one confirmed event at least must resolve the claim
// on its scale. (Not the largest: the complement bound that weighs on a
// pair's weaker direction, an event of most outputs, is the other
// direction's claim, which that direction's own event resolves; an
// asymmetric randomized response at its ε would otherwise never pass.)
type supResolved interface {
	SupResolution(r float64, s Score) float64
}

func reverseIndex(reverse bool) int {
	if reverse {
		return 1
	}
	return 0
}

// sameDatasets reports whether two pairs hold the same datasets in the
// same order (PairKey).
func sameDatasets[D any](a, b fixtures.Pair[D]) bool { return PairKey(a) == PairKey(b) }

// PairKey identifies a pair's datasets by their Go syntax (%#v), which
// quotes strings and calls no String method, so that distinct datasets
// do not print alike: ["a b"] and ["a", "b"] differ.
func PairKey[D any](p fixtures.Pair[D]) string { return fmt.Sprintf("%#v", p) }

// Swapped is p with its datasets exchanged: its directions are p's, in
// the other order.
func Swapped[D any](p fixtures.Pair[D]) fixtures.Pair[D] { return fixtures.Pair[D]{X: p.Y, Y: p.X} }

// PairError is a failure while sampling a pair.
type PairError[D any] struct {
	Pair  fixtures.Pair[D]
	Stage string
	Err   error
}

func (e *PairError[D]) Error() string {
	return fmt.Sprintf("%s of X=%v Y=%v: %v", e.Stage, e.Pair.X, e.Pair.Y, e.Err)
}
func (e *PairError[D]) Unwrap() error { return e.Err }
