package dptest

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/search"
	"github.com/dptest/dptest/internal/stat"
)

// Report is everything one audit found. Its top level is the answer; the
// engine's workings are in Details. The log line, the failure text and
// the JSON are all rendered from it ([Report.String], MarshalJSON).
type Report struct {
	// Verdict is Holds, Violated, Suspect or Unresolved; the zero value
	// is an audit that could not run (its error says why).
	Verdict Verdict `json:"verdict"`
	// Reason says why an audit is Suspect or Unresolved; nil otherwise.
	Reason Reason `json:"reason,omitempty"`
	// Claim is what was claimed.
	Claim Claim `json:"claim"`
	// LowerBound is the confirmed lower bound of the claim's measure on
	// the witness, at Confidence; Estimate is its point estimate.
	LowerBound float64 `json:"lower_bound"`
	Estimate   float64 `json:"estimate"`
	// Resolution is the least true value of the measure the audit would
	// have caught, at the fixed power of docs/how-it-works.md. A holds
	// verdict needs it at most [ResolutionFactor] times the claim.
	Resolution float64 `json:"resolution"`
	// Reach is the rate of the rarest output of one dataset alone that
	// the audit would have seen, at the same power, on the pairs screened
	// in full. Rarer outputs may go unseen; 1 means none would show. Zero
	// where the audit ran no screening.
	Reach float64 `json:"reach"`
	// Witness is the fixtures.Pair[D] of the bound; [WitnessOf] returns
	// it typed. Direction names the divergence measured on it.
	Witness   any    `json:"witness,omitempty"`
	Direction string `json:"direction,omitempty"`
	// Confidence is the verdict's: a claim that holds fails with
	// probability at most 1 − Confidence.
	Confidence float64 `json:"confidence"`
	// Seed replays the audit (see Reproduce).
	Seed uint64 `json:"seed"`
	// Calls is the number of mechanism calls the audit made, pilots
	// included: made, not planned.
	Calls int64 `json:"calls"`
	// Elapsed is the audit's time; JSON gives it in seconds.
	Elapsed time.Duration `json:"elapsed_seconds"`
	// Details are the engine's workings.
	Details Details `json:"details"`

	// violated is set by the engine on a confirmed violation; Verdict
	// is decided from it once the audit ends.
	violated bool
	// err is the error of an audit that could not decide or could not run
	// (nil otherwise): String renders it, not a holds line.
	err error
	// recorded marks the report of a check of recorded outputs
	// (CheckRDPSamples): no search, no seed.
	recorded   bool
	recordedNs [2]int
	stdErr     float64
	unresolved bool // the audit stopped before its plan (and seed) was resolved
	// drawn holds the outputs drawn for the report's pictures (ReportTo);
	// event is the confirmed event, which they shade.
	drawn *drawn
	event *eventGroups
	// score is the score a vector audit learned, which the pictures draw.
	score *stat.Score
	// defaultDomain: the audit searched the default domain (no pairs,
	// neighbours or finder given).
	defaultDomain bool
}

// Claim is a privacy claim: its kind and the claimed value of its measure.
type Claim struct {
	// Kind is "RDP" (Lambda, Value = ε), "DP" (Value = ε), "ApproxDP"
	// (Eps, Value = δ), "GDP" (Value = μ) or "DataCentricDP" (nothing
	// claimed: Value is +Inf).
	Kind   string  `json:"kind"`
	Lambda float64 `json:"lambda,omitempty"`
	Eps    float64 `json:"eps,omitempty"`
	Value  float64 `json:"value"`
}

// Details are an audit's workings: what it screened and confirmed, on
// how many draws, and what its statistics showed.
type Details struct {
	// Unbounded is set when both confirmations of the witness counted its
	// event (or, for an RDP audit's grouped statistic of a Discrete
	// mechanism, a group of several values: AloneOutput) under one
	// dataset only, as an infinite divergence (RDP) or loss (DP) would
	// show; LowerBound is then only what the sample size can show.
	Unbounded     bool `json:"unbounded,omitempty"`
	Samples       int  `json:"samples"`        // confirming sample size per side (of the deciding confirmation)
	PairsSearched int  `json:"pairs_searched"` // pairs screened in full
	// Trials is the number of pairs a finder proposed and the audit
	// screened ([FindPairs]); a witness it found has the source "found t".
	// FoundAt is the first of those trials whose screening's statistic,
	// counted again on fresh draws of the screening's size, bounded the
	// claim's measure above it (at the screening's trigger level: not a
	// confirmation), 0 if none did: a
	// violation the confirmation shows on a pair the finder proposed may
	// not have shown at the screening's size.
	Trials  int `json:"trials"`
	FoundAt int `json:"found_at"`
	// WideScreened is the number of further pairs drawn from the generator
	// and screened on a small sample only (the most divergent of them again
	// on a larger one), to find a pair a violation needs that the
	// candidates rarely hold; WidePromoted of them clearly beat the best
	// candidate and were screened in full (counted in PairsSearched);
	// WideSkipped of those small screenings could not estimate (outputs
	// too sparse to resolve). The wide screening runs unless a candidate's
	// screening already shows the claim clearly exceeded.
	WideScreened int `json:"wide_screened"`
	WidePromoted int `json:"wide_promoted"`
	WideSkipped  int `json:"wide_skipped"`
	// Searched names the neighbour relation and the domain of the
	// candidate pairs ("substitution pairs in [0, 1]^10"), or their type.
	Searched string `json:"searched,omitempty"`
	// EarlyLook is set when this audit's criterion decided at a look of
	// its sequential confirmation before the planned one, after the full
	// screening. Samples is then that look's: a fraction of the planned
	// draws, in whole blocks of the sampler's block size. The claim was
	// violated there already, or held. It held when the look resolved
	// [ResolutionFactor] times the claim, or with margin: every screened
	// and confirmed upper bound under a fixed share of it. (For the
	// hockey-stick cross-check of a DP claim, at δ = 0, the margin is
	// every likelihood-ratio test's log-ratio inside ε.) A DP claim's
	// cross-checks decide on their own (see CrossChecks).
	EarlyLook bool `json:"early_look,omitempty"`
	// DeepScreened is, when this audit's criterion confirmed the events of
	// a deep screening (an audit of given pairs only, whose early look
	// decided nothing, screens its leading pairs again on a larger share of
	// the planned draws and keeps the new events, all or none, if an
	// audition predicts them a better bound), that screening's draws per
	// side; 0 otherwise.
	DeepScreened int `json:"deep_screened"`
	// QuickLook is set when this audit's criterion decided at its quick
	// look, before the full screening ([Quick]). The candidates were
	// screened on a small fraction of the screening's draws and confirmed
	// on a small fraction of the planned confirmation's (Samples is then
	// the quick look's). The claim was violated there already, or held
	// with margin by the early look's rules. Such a pass rests on a
	// screening that saw outputs down to about one in its draws per side
	// (Settings.QuickScreeningSamples), not one in the full screening's.
	QuickLook bool `json:"quick_look,omitempty"`

	// Score is, for a [Vector] mechanism, the score its outputs were
	// reduced to on the witness (for a DP audit whose bound rests on the
	// second event, that event's): its kind and the coordinates that
	// carry it, the most telling first. Location and LossCurve are then
	// in the score's units.
	Score string `json:"score,omitempty"`
	// Tester names the DP-Auditorium tester of a run chosen with
	// [Testers] ("histogram", "classifier", "MMD"); empty for dptest's
	// own criteria.
	Tester string `json:"tester,omitempty"`
	// Location is, for a DP claim, the output t̂ where the witness's loss
	// peaks and its event lies: a float64 for real outputs, the value
	// itself for discrete ones. For real outputs it is where the event was
	// grown from, the peak on the half of the screening that grew the
	// event (an output inside the event), which can differ from the peak
	// of the whole screening's LossCurve. Where the audit rests on the screening's second event
	// (one value or block of larger loss, confirmed beside the first; see
	// RequireDP), its output: of a violation, the event of the bound; of
	// a pass, the event whose resolution the success line states.
	Location any `json:"location,omitempty"`
	// Event is the outputs of the event the witness's bound rests on
	// ("outputs in [11.8666, +∞)", "the values 3, 4, 5"; for a [Vector]
	// mechanism, in the score's units): for a DP claim, the event its
	// local criterion confirmed (of a pass, of the witness's confirmation
	// of the lower bound, the event whose resolution reads finer; see
	// Location); for an (ε, δ)-DP or Gaussian-DP claim, the
	// likelihood-ratio test's (or half-line's) event whose bound the
	// confirmation computed, one point of TradeOff. Interval ends are
	// printed to six significant digits (two decimals from 10⁴ to 10¹⁵),
	// more where an interval's two ends would print alike, but for an end
	// at an atom's value or one float above a value (an atom's, or a cut
	// beside an output), which is exact: "(5, 7.5]" holds 7.5, not 5; an
	// atom is "{v}". EventCounts are how many of X's
	// and of Y's Samples draws fell in it, in that confirmation, and
	// EventLevel the level α of its bound. Where the claim's own criterion
	// found the violation, LowerBound follows from these alone: for DP,
	// the log-ratio of the bounded side's count over the other's (½ added
	// to both when one is 0) less z_{1−α} standard errors of the delta
	// method ([AKD22] eq. (26); α is PerConfirmation, or half of it when
	// the confirmation bounded two events); for (ε, δ)-DP, P̂(E) −
	// e^ε·Q̂(E) bounded by an exact test at level α; for GDP,
	// Φ⁻¹(P(E)) − Φ⁻¹(Q(E)) at the exact (Clopper–Pearson) bounds of the
	// two counts at α/2 each; for an RDP claim, only where LowerBound is
	// that of the values the screening drew from one dataset only,
	// counted as one output (a two-point divergence at the exact bounds
	// of its counts, at half the confirmation's level: see RequireRDP),
	// and Estimate then that output's two-point divergence at its counts.
	// Empty for DP-Auditorium's testers. Like the other fields, they are the local audit's where a
	// DP claim's cross-check found the violation; the failure text then
	// shows the cross-check's (CrossChecks).
	Event       string   `json:"event,omitempty"`
	EventCounts [2]int64 `json:"event_counts"`
	EventLevel  float64  `json:"event_level"`
	// LossCurve is, for a DP claim on real outputs, the witness's empirical
	// loss ℓ̂(t) in the direction above over the region searched ([AKD22],
	// Figures 2–3), from the screening sample (where the audit rests on
	// the second event, from the cells that event was chosen on, which
	// may be cut around runs of one dataset's outputs).
	LossCurve *LossCurve `json:"loss_curve,omitempty"`
	// TradeOff is, for an (ε, δ)-DP or Gaussian-DP audit, the empirical
	// trade-off curve of the witness in its direction: the tests at the
	// boundaries of the screening's groups (a few dozen thresholds;
	// likelihood-ratio tests, or half-lines where the screening chose to
	// order the outputs by position), counted on the first confirmation's
	// fresh draws, with a band that holds for every point at once at the
	// audit's confidence. Under μ-GDP every true point has
	// Power ≤ Φ(Φ⁻¹(Level) + μ).
	TradeOff []TradeOffPoint `json:"trade_off,omitempty"`
	// Profile is the privacy profile those tests show, δ̂(ε) =
	// max P̂(E) − e^ε·Q̂(E) at a fixed set of ε from 0 up, each point
	// naming its ε: an estimate (the verdict rests on the confirmed bound
	// alone).
	Profile []ProfilePoint `json:"profile,omitempty"`
	// CrossChecks are, for a DP claim, the audits that ran beside the local
	// one, in order: the hockey-stick audit against δ = 0 (Kind "ApproxDP")
	// and the Rényi audit at order [CrossCheckOrder] (Kind "RDP"); see
	// RequireDP. The audit stops at the first violation, so a cross-check
	// after it did not run. Violated is set when any found one; the other
	// fields are the local audit's. With [Testers], they are the runs after
	// the first, in the order given (Own's runs in their order).
	CrossChecks []Report `json:"cross_checks,omitempty"`
	// ScreeningSamples is the sample size per side of the screening.
	ScreeningSamples int `json:"screening_samples"`
	// Confirmed is the number of (pair, direction) candidates confirmed;
	// each got two independent confirmations at level PerConfirmation
	// (Confirmed·PerConfirmation² is the share of 1 − Confidence that the
	// deciding look spent: a small fixed share of the run's at each look
	// before the planned one, the rest at the planned one; see
	// Settings.Runs and the ledger -dptest.v prints).
	Confirmed       int     `json:"confirmed"`
	PerConfirmation float64 `json:"per_confirmation"`
	// Short is set when go test -short cut the sample sizes.
	Short bool `json:"short,omitempty"`
	// TestName is the test the audit ran in, if known; it makes the
	// reproduce line.
	TestName string `json:"test_name,omitempty"`
	// Confirmations lists every confirmed candidate with the estimates,
	// standard errors and bounds of its two confirmations.
	Confirmations []Confirmation `json:"confirmations,omitempty"`
	// Settings are the settings the audit ran with, every default
	// resolved.
	Settings Settings `json:"settings"`
	// NotReplayable is set when the mechanism gave two different outputs
	// for one stream: it draws from a source other than the generator it is
	// given (secure noise, a shared counter), so the seed cannot replay
	// this verdict. The verdict itself stays valid.
	NotReplayable bool `json:"not_replayable,omitempty"`
	// Unvarying is, for a pass whose confirmations all estimated their
	// measure at 0 or below, the one output the mechanism returned in
	// plan.SameDraws further draws on each side of the witness pair, if it
	// returned only one (empty otherwise): a mechanism whose outputs do not
	// vary meets every claim on that pair, and the holds line says that
	// its outputs never varied.
	Unvarying string `json:"unvarying,omitempty"`
	// Alone is, for an RDP or Gaussian-DP audit that found no violation,
	// the output of one dataset alone that its screening saw most often
	// (nil if none), or, for an RDP audit of a Discrete mechanism, the
	// values of one dataset alone that a confirmation counted together in
	// one group, if those came at a higher rate (AloneOutput.Values): the
	// holds line says one was seen, and -dptest.v names it with the rate at
	// which the claim needs the other dataset to produce it; an audit
	// whose own draws of it alone bound its measure above the claim ends
	// suspect instead (OutputOfOneDataset), and Alone is set then too.
	Alone *AloneOutput `json:"alone,omitempty"`
	// PictureCalls counts the calls the report's pictures made after the
	// audit (ReportTo); Calls leaves them out. ReportError says why the
	// report directory could not be written.
	PictureCalls int64 `json:"picture_calls,omitempty"`
	// Label is the Label option's name for the audit, if any.
	Label       string `json:"label,omitempty"`
	ReportError string `json:"report_error,omitempty"`
	// Recorded is, for an audit of outputs recorded elsewhere
	// ([AuditRecordedRDP] and the others), how it split the records; nil
	// otherwise.
	Recorded *RecordedSplit `json:"recorded,omitempty"`
}

// Settings are the settings an audit ran with: the options, the flags, the
// environment and the defaults, resolved.
type Settings struct {
	Samples int // confirming outputs per side
	// Looks are the draws per side of the sequential confirmation's looks
	// before the planned one, smallest first.
	Looks []int
	// QuickScreeningSamples and QuickSamples are the quick look's
	// screening and confirming draws per side; 0 for none.
	QuickScreeningSamples, QuickSamples int
	SamplesChosen                       bool    // Samples was chosen to fit a Within budget
	ScreeningSamples                    int     // per side and pair
	PilotSamples                        int     // per side and pair, before a screening of real outputs (it fixes the cells)
	Candidates                          int     // pairs drawn from a generator
	Confidence                          float64 // of the verdict
	Seed                                uint64
	SeedFrom                            string // "option", "-dptest.seed", "DPTEST_SEED", "random" or "derived"
	Short                               bool   // go test -short cut the defaults
	Parallelism                         int    // goroutines per sampling (Parallelism option); 0 for GOMAXPROCS
	// Verbose logs the details after the verdict (-dptest.v, Verbose);
	// Strict fails an unresolved audit (-dptest.strict, Strict).
	Verbose, Strict bool
	// Runs lists how the false-failure budget 1 − Confidence was split:
	// one run of the engine per criterion.
	Runs []Run
	// Region and Floor of a DP audit's local screening, zero for their
	// defaults (every output; a few samples' worth, as [Floor] says).
	Region [2]float64
	Floor  float64
	// CommandLine lists the flags (and DPTEST_* variables, as flags) that
	// set a value of the audit; the reproduce line repeats them.
	CommandLine []string
}

// Run is one run of the engine within an audit.
type Run struct {
	Criterion       string  // "Rényi" or "local"
	Lambda          float64 // the Rényi order
	Threshold       float64 // the value the criterion must not exceed
	Alpha           float64 // the run's share of the false-failure budget
	PerConfirmation float64 // the level of each confirmation at the planned size (see Details.Confirmed)
	// LookPerConfirmation and QuickPerConfirmation are the levels of each
	// confirmation at a look before the planned one and at the quick look
	// (Quick); 0 where the audit has no such look.
	LookPerConfirmation, QuickPerConfirmation float64
}

func settingsOf(p plan.Plan) Settings {
	s := Settings{
		Samples: p.Confirmation.Samples, ScreeningSamples: p.Screening.Samples, PilotSamples: p.Screening.Pilot,
		Candidates: p.Candidates, Confidence: p.Confidence, Seed: p.Seed, SeedFrom: p.SeedFrom, Short: p.Short,
		Region: p.Local.Region, Floor: p.Local.Floor, CommandLine: p.CommandLine,
		Verbose: p.Verbose, Strict: p.Strict,
	}
	for _, l := range looksOf(p) {
		s.Looks = append(s.Looks, l.Samples)
	}
	s.QuickScreeningSamples, s.QuickSamples = p.Quick.Samples, p.QuickConfirmation.Samples
	for _, b := range p.Ledger().Runs {
		r := b.Run
		run := Run{Criterion: r.Criterion, Lambda: r.Lambda, Threshold: r.Threshold, Alpha: r.Alpha}
		for _, look := range b.Looks {
			switch look.Name {
			case plan.QuickLookName:
				run.QuickPerConfirmation = look.PerConfirmation
			case plan.PlannedLookName:
				run.PerConfirmation = look.PerConfirmation
			default:
				run.LookPerConfirmation = look.PerConfirmation
			}
		}
		s.Runs = append(s.Runs, run)
	}
	return s
}

// TradeOffPoint is one test of a trade-off curve: the test rejecting
// M(Y) on an event E has level Q(E) and power P(E); LevelHi and PowerLo
// bound them, simultaneously over the curve.
type TradeOffPoint struct {
	Level, Power, LevelHi, PowerLo float64
}

// ProfilePoint is the estimated δ at one ε of a privacy profile.
type ProfilePoint struct {
	Eps, Delta float64
}

// profileEps are the ε at which a report's Profile is estimated.
func profileEps() []float64 { return []float64{0, 0.25, 0.5, 1, 2, 4} }

// LossCurve is an empirical privacy-loss curve: Loss[i] = ℓ̂(T[i]).
type LossCurve struct {
	T, Loss []float64
}

// Confirmation is one confirmed (pair, direction) candidate. A and B are its
// two independent confirmations on fresh samples; each bound is
// Estimate − z·StdErr at level PerConfirmation (for an RDP claim whose
// screening drew values from one dataset only, the larger of the grouped
// statistic's bound and that group's as one output, each at half the
// level: see RequireRDP), and the candidate's bound is the smaller of the
// two.
type Confirmation struct {
	Witness   any
	Direction string
	Screening float64    // the screening estimate that selected it (at the confirmation's size if refined)
	Estimates [2]float64 // of confirmations A and B
	StdErrs   [2]float64
	Bounds    [2]float64
}

// WitnessOf returns the report's witness as the pair of datasets it is, and
// whether the report has a witness of that type.
func WitnessOf[D any](r Report) (fixtures.Pair[D], bool) {
	p, ok := r.Witness.(fixtures.Pair[D])
	return p, ok
}

// violationText is a violation's failure text: the verdict, the bound and
// its sample, where it was found, the witness, the event, the search and
// the reproduce line; at most maxFailureLines lines.
func (r Report) violationText() string {
	var b strings.Builder
	if r.recorded {
		fmt.Fprintf(&b, "[dptest] %s violated by the samples at %s confidence\n", r.claimText(), percent(r.Confidence))
		fmt.Fprintf(&b, "    lower bound:  %s   (estimate %s ± %s, %s and %s samples)\n", num(r.LowerBound), num(r.Estimate), num(r.stdErr), thousands(r.recordedNs[0]), thousands(r.recordedNs[1]))
		fmt.Fprintf(&b, "    To reproduce: %s", r.Reproduce())
		return b.String()
	}
	fmt.Fprintf(&b, "[dptest] %s violated at %s confidence\n", r.claimText(), percent(r.Confidence))
	e := r
	if r.Details.Tester != "" && !slices.ContainsFunc(r.Details.CrossChecks, func(c Report) bool { return c.Verdict == Violated }) {
		// The first run, a tester, found it (the runs stop at the first
		// violation).
		b.WriteString(r.testerLine())
	}
	for _, c := range r.Details.CrossChecks {
		if c.Verdict != Violated {
			continue
		}
		// Found by a cross-check of a DP audit, or another tester: show
		// its evidence.
		switch {
		case c.Details.Tester != "":
			b.WriteString(c.testerLine())
		case c.Claim.Kind == plan.KindApproxDP:
			fmt.Fprintf(&b, "    found by:     the hockey-stick cross-check: ε-DP implies H_{e^ε}(M(X)‖M(Y)) = 0\n")
		default:
			fmt.Fprintf(&b, "    found by:     the Rényi cross-check: ε-DP implies D_%s ≤ min(ε, 2λε²) = %s\n", num(c.Claim.Lambda), num(c.Claim.Value))
		}
		e = c
	}
	fmt.Fprintf(&b, "    lower bound:  %s   (estimate %s, %s samples per side)\n", num(e.LowerBound), num(e.Estimate), thousands(e.Details.Samples))
	fmt.Fprintf(&b, "    witness:      %s  %s\n", e.witnessText(), e.Direction)
	b.WriteString(e.eventLines())
	fmt.Fprintf(&b, "    searched:     %d pairs: %s\n", e.Details.PairsSearched, e.Details.Searched)
	if note := r.noteText(); note != "" {
		fmt.Fprintf(&b, "    note:         %s\n", note)
	}
	fmt.Fprintf(&b, "    To reproduce: %s", r.Reproduce())
	return b.String()
}

// eventLines are the lines of a failure text that say where the bound
// lies: the score of a vector, the output where the loss peaks, the event
// with its counts, and whether the other dataset never produced it.
func (r Report) eventLines() string {
	var b strings.Builder
	d := r.Details
	if d.Score != "" {
		fmt.Fprintf(&b, "    score:        %s\n", d.Score)
	}
	if d.Location != nil {
		at := "at output:   "
		if d.Score != "" {
			at = "at score:    "
		}
		fmt.Fprintf(&b, "    %s %s\n", at, value(d.Location))
	}
	if d.Event != "" {
		fmt.Fprintf(&b, "    event:        %s: %s of X's %s draws, %s of Y's\n", d.Event, thousands(int(d.EventCounts[0])), thousands(d.Samples), thousands(int(d.EventCounts[1])))
	}
	if d.Unbounded {
		fmt.Fprintf(&b, "    unbounded:    the other dataset never produced it in either confirmation; the bound is what %s draws can show\n", thousands(d.Samples))
	}
	return b.String()
}

// noteText joins the notes a verdict's text must carry: reduced sample
// sizes, and a mechanism the seed cannot replay.
func (r Report) noteText() string {
	var notes []string
	if r.Details.Short {
		notes = append(notes, "-short reduced the sample sizes")
	}
	if r.Details.NotReplayable {
		notes = append(notes, notReplayable)
	}
	return strings.Join(notes, "; ")
}

// wideText describes the wide screening, or is empty when there was none.
func (r Report) wideText() string {
	if r.Details.WideScreened == 0 {
		return ""
	}
	s := fmt.Sprintf("%d more pairs screened on small samples, %d of them then in full", r.Details.WideScreened, r.Details.WidePromoted)
	if r.Details.WideSkipped > 0 {
		s += fmt.Sprintf("; %d of those small screenings could not estimate on so few draws", r.Details.WideSkipped)
	}
	return s
}

// searchedText is the success line's description of the search.
func (r Report) searchedText() string {
	if w := r.wideText(); w != "" {
		return r.Details.Searched + "; " + w
	}
	return r.Details.Searched
}

// aloneText is, for a pure-DP claim, what its hockey-stick cross-check
// could see of outputs one dataset alone produces, as one in so many
// draws: the least P(E) of an event the other dataset never produces
// that the cross-check catches with probability about 90%. Catching it
// takes three things, each given a third of the miss probability
// (DetectProbability^{1/3} each): the half of the screening's draws that
// chooses the cells repeats it stat.TailAtomRepeats times, which gives it
// a cell of its own, first in the event's order (isolatedLeast), and
// both confirmations at the planned size show it above 0
// (hockey.Measure.Least at δ = 0). When the cross-check held at its quick
// look, the screening is the quick one, an eighth the size. Rarer ones
// pass unseen, whatever the resolution of the local loss says. (The early
// and quick looks hold no claim while such outputs, isolated in their own
// group, are too frequent for that: see the cross-check's hold.) Only
// outputs that get a cell of their own are meant: a value repeated
// exactly (an atom), or outputs beyond a gap ten times the spread of
// those inside it (stat.FarGap). Outputs of one dataset alone spread
// over values near the others' are caught only where a run of them among
// the screening's extremes gets a cell of the local audit's own
// (stat.Table.RunsApart), and not at this rate: 10 + N(0, 0.01²) once in
// 10,000 draws of one dataset beside N(0, 1) held ε = 1 in 3 default
// audits of 3 (the early look held it), and inside Laplace noise of
// scale 4 so did once in 3,333.
// Through a learned vector score, whose steps are not cut into cells of
// their own, nothing is said; through one coordinate of a vector of
// more, that coordinate's values are meant: of a vector's coordinates
// only those that are scores of their own (stat.LearnScores keeps at
// most stat.MaxScores scores) are screened for their values, and the
// line names the one the cross-check read.
func (r Report) aloneText() string {
	least := r.dpReach()
	if !(least > 0 && least < 1) {
		return ""
	}
	what := "a value (repeated exactly) or outputs far beyond the rest"
	if k, d, ok := scoreCoordinate(r.hockeyScore()); ok && d > 1 {
		what = fmt.Sprintf("a value of v[%d] (repeated exactly) or values of it far beyond the rest", k)
	}
	return fmt.Sprintf(", and so would %s that one dataset alone produces once in %s draws or more often", what, thousands(int(1/least)))
}

// dpReach is, for a pure-DP claim, the least rate of an output of one
// dataset alone that its hockey-stick cross-check catches with
// probability about 90% (see aloneText); 0 where it says nothing.
func (r Report) dpReach() float64 {
	if r.Claim.Kind != plan.KindDP || r.Details.Settings.Samples <= 0 {
		return 0
	}
	if score := r.hockeyScore(); score != "" && !strings.HasPrefix(score, stat.ScoreCoordinate) {
		return 0
	}
	for _, run := range r.Details.Settings.Runs {
		if run.Criterion != plan.CriterionHockeyStick || run.Threshold != 0 || !(run.PerConfirmation > 0) {
			continue
		}
		each := math.Cbrt(search.DetectProbability)
		zBeta := numeric.UpperNormalQuantile(1 - each)
		n, level := r.Details.Settings.Samples, run.PerConfirmation
		if c, ok := r.hockeyCheck(); ok && c.Details.Samples > 0 && c.Details.PerConfirmation > 0 {
			// The draws and level of the look that decided it.
			n, level = c.Details.Samples, c.Details.PerConfirmation
		}
		least := hockey.HockeyStick(r.Claim.Value).Least(0, n, level, zBeta)
		screening := r.Details.Settings.ScreeningSamples
		if r.hockeyQuick() {
			screening = r.Details.Settings.QuickScreeningSamples
		}
		return max(least, isolatedLeast(screening/2, each))
	}
	return 0
}

// reach is Report.Reach: for a pure-DP claim, what its hockey-stick
// cross-check catches (dpReach); otherwise the least rate at which the
// half of the screening's draws that chooses the statistic repeats an
// output stat.TailAtomRepeats times with probability about 90%, which
// gives it a cell of its own (isolatedLeast). 0 for recorded outputs.
func (r Report) reach() float64 {
	if r.recorded || r.Details.Settings.ScreeningSamples <= 0 {
		return 0
	}
	if least := r.dpReach(); least > 0 {
		return min(least, 1)
	}
	screening := r.Details.Settings.ScreeningSamples
	if r.Details.QuickLook {
		screening = r.Details.Settings.QuickScreeningSamples
	}
	return min(isolatedLeast(screening/2, search.DetectProbability), 1)
}

// scoreCoordinate reads a score of one coordinate, "coordinate v[k] of
// d" (stat.Score.String), as k and d.
func scoreCoordinate(score string) (k, d int, ok bool) {
	n, _ := fmt.Sscanf(score, "coordinate v[%d] of %d", &k, &d)
	return k, d, n == 2
}

// hockeyScore is the vector score of a DP claim's hockey-stick
// cross-check ("" for other outputs, or if it did not run).
func (r Report) hockeyScore() string {
	for _, c := range r.Details.CrossChecks {
		if c.Claim.Kind == plan.KindApproxDP {
			return c.Details.Score
		}
	}
	return ""
}

// hockeyCheck returns the hockey-stick cross-check of a DP claim, if it
// ran.
func (r Report) hockeyCheck() (Report, bool) {
	for _, c := range r.Details.CrossChecks {
		if c.Claim.Kind == plan.KindApproxDP && c.Details.Tester == "" {
			return c, true
		}
	}
	return Report{}, false
}

// hockeyQuick reports whether the hockey-stick cross-check of a DP
// claim decided at its quick look.
func (r Report) hockeyQuick() bool {
	return slices.ContainsFunc(r.Details.CrossChecks, func(c Report) bool { return c.Claim.Kind == plan.KindApproxDP && c.Details.QuickLook })
}

// leastLevel is the smallest positive level Q̂(E) among the tests of a
// Gaussian-DP report's trade-off curve: how deep in the tails its
// confirmation looked.
func (r Report) leastLevel() (float64, bool) {
	least := math.Inf(1)
	for _, p := range r.Details.TradeOff {
		if p.Level > 0 {
			least = min(least, p.Level)
		}
	}
	return least, !math.IsInf(least, 1)
}

// isolatedLeast is the least rate p at which n draws repeat an output
// stat.TailAtomRepeats times or more with probability prob (Poisson
// counts): the rarest output that n draws choosing a screening's cells
// give a cell of its own that surely.
func isolatedLeast(n int, prob float64) float64 {
	if n <= 0 {
		return math.Inf(1)
	}
	atLeast := func(mean float64) float64 { // P(Poisson(mean) ≥ TailAtomRepeats)
		term, below := math.Exp(-mean), 0.0
		for k := range stat.TailAtomRepeats {
			if k > 0 {
				term *= mean / float64(k)
			}
			below += term
		}
		return 1 - below
	}
	lo, hi := 0.0, float64(10*stat.TailAtomRepeats)
	for range 60 {
		if mid := (lo + hi) / 2; atLeast(mid) < prob {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi / float64(n)
}

const notReplayable = "the mechanism does not draw only from the generator it is given: this seed cannot replay the verdict"

func (r Report) holdsDetail() string {
	if r.recorded {
		return fmt.Sprintf("[dptest] %s holds on the samples: lower bound %s (estimate %s) at %s confidence",
			r.claimText(), num(r.LowerBound), num(r.Estimate), percent(r.Confidence))
	}
	caught := "a true value of %s or more on the pairs confirmed would have been caught (90%%)"
	scores, around := "", "t̂"
	if r.Details.Score != "" {
		// A vector's claim is confirmed on its learned score, a
		// post-processing: the resolution is that of the scores, and the
		// caveats of the claim's measure below hold for them as well.
		caught = "a value of %s or more on the scores of the pairs confirmed would have been caught (90%%)"
		scores, around = " on the scores", "the score t̂"
	}
	switch {
	case r.Claim.Kind == plan.KindDP && r.Details.Tester == "" && r.Details.Location != nil:
		// The local audit's resolution is that of its event's loss, an
		// average over the outputs it holds: a narrower peak can exceed
		// it unseen (docs/limits.md).
		caught = "a loss of %s or more" + scores + " over the outputs it confirmed, around " + around + " = " + strings.ReplaceAll(value(r.Details.Location), "%", "%%") + ", would have been caught (90%%)"
	case r.Claim.Kind == plan.KindGDP:
		if level, ok := r.leastLevel(); ok {
			// μ is a supremum over tests of every level: noise whose
			// spread depends on the dataset has a level that grows
			// without bound in the tails, beyond the tests confirmed.
			caught += " in tests of level " + num(level) + " or more (a larger μ in rarer tests, deeper in the tails, is not shown)"
		}
	}
	samples := thousands(r.Details.Samples) + " samples per side"
	if r.Details.EarlyLook {
		samples += " (a look before the planned one)"
	}
	if r.Details.QuickLook {
		samples += fmt.Sprintf(" (the quick look, screened on %s draws per side: every upper bound under %s of the claim)", thousands(r.Details.Settings.QuickScreeningSamples), percent(plan.HoldShare))
	}
	if r.Details.DeepScreened > 0 {
		samples += fmt.Sprintf(" (the event chosen on a deep screening of %s draws per side)", thousands(r.Details.DeepScreened))
	}
	alone := r.aloneText()
	if caught = fmt.Sprintf(caught, num(r.Resolution)); math.IsInf(r.Resolution, 1) {
		// A data-centric audit, or a claim of 0 (ε or μ), passes whatever
		// its resolution.
		caught = "no true value, however large, would have been shown on the statistics confirmed"
		if alone != "" {
			alone = "; but" + strings.TrimPrefix(alone, ", and so would") + " would have been caught"
		}
	}
	caught += alone + aloneClause(r.Details.Alone, r.Claim.Kind)
	s := fmt.Sprintf("[dptest] %s holds: lower bound %s (estimate %s) at %s confidence; %s; %d pairs searched (%s), %s, %s mechanism calls, %s",
		r.claimText(), num(r.LowerBound), num(r.Estimate), percent(r.Confidence), caught, r.Details.PairsSearched, r.searchedText(), samples, thousands(int(r.Calls)), r.Elapsed.Round(time.Millisecond))
	if r.Details.Score != "" {
		s += "; the vectors were scored by the " + r.Details.Score
	}
	if r.Details.Short {
		s += " (-short: reduced sample sizes)"
	}
	if r.Details.Unvarying != "" {
		s += fmt.Sprintf("; note: in %s further draws on each side of the witness the mechanism returned only the output %s: its outputs may not vary on the pairs searched, and the pass says nothing of pairs on which they do (the Pairs option, Mechanism.WithNeighbors)", thousands(plan.SameDraws), r.Details.Unvarying)
	}
	if r.Details.NotReplayable {
		s += "; note: " + notReplayable
	}
	return s
}

// errorText renders an audit that could not finish.
func (r Report) errorText(err error) string {
	what := "could not be audited"
	switch {
	case r.recorded:
		what = "could not be checked on the samples"
	case errors.Is(err, ErrInconclusive):
		what = "audit"
	}
	note := ""
	if r.Details.NotReplayable && errors.Is(err, ErrInconclusive) { // a verdict the seed cannot replay
		note = "\n    note:         " + notReplayable
	}
	return fmt.Sprintf("[dptest] %s %s: %v%s\n    To reproduce: %s", r.claimText(), what, err, note, r.Reproduce())
}

func (r Report) claimText() string {
	switch r.Claim.Kind {
	case plan.KindDP:
		return fmt.Sprintf("ε=%s pure DP", num(r.Claim.Value))
	case plan.KindApproxDP:
		return fmt.Sprintf("(ε=%s, δ=%s)-DP", num(r.Claim.Eps), num(r.Claim.Value))
	case plan.KindGDP:
		return fmt.Sprintf("μ=%s Gaussian DP", num(r.Claim.Value))
	case plan.KindDataCentric:
		return "the data-centric DP level"
	}
	return fmt.Sprintf("(λ=%s, ε=%s)-RDP", num(r.Claim.Lambda), num(r.Claim.Value))
}

// Reproduce returns the command line (or option) that replays the audit:
// the test, -short and the -dptest.* flags it ran with, and its seed; or
// dptest.Seed(…) outside a test. A check of recorded outputs, or an audit
// that stopped before its seed was resolved, needs no seed.
func (r Report) Reproduce() string {
	seeded := !r.recorded && !r.unresolved
	if r.Details.Recorded != nil && seeded {
		return fmt.Sprintf("the same recordings with dptest.Seed(%d) (dptest audit --seed %d)", r.Seed, r.Seed)
	}
	if r.Details.TestName == "" {
		switch {
		case seeded && r.Details.Settings.SamplesChosen:
			return fmt.Sprintf("dptest.Seed(%d), dptest.Samples(%d) in place of dptest.Within", r.Seed, r.Details.Settings.Samples)
		case seeded:
			return fmt.Sprintf("dptest.Seed(%d)", r.Seed)
		case r.recorded:
			return "run the check again on the same samples"
		}
		return "run the audit again as it was run"
	}
	parts := strings.Split(r.Details.TestName, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	cmd := fmt.Sprintf("go test -run=%q", strings.Join(parts, "/"))
	if strings.ContainsAny(r.Details.TestName, "$`\\\"!'") {
		// A shell expands $, ` and ! inside double quotes: single
		// quotes pass the pattern as it is, a ' in it written '\''.
		cmd = "go test -run='" + strings.ReplaceAll(strings.Join(parts, "/"), "'", `'\''`) + "'"
	}
	if r.Details.Short {
		cmd += " -short"
	}
	for _, f := range r.Details.Settings.CommandLine {
		cmd += " " + f
	}
	if seeded {
		cmd += fmt.Sprintf(" -dptest.seed=%d", r.Seed)
	}
	return cmd
}

// witnessText prints the witness's two datasets, each as %+v prints it,
// whatever fields a dataset of structs has.
func (r Report) witnessText() string {
	v := reflect.ValueOf(r.Witness)
	if r.Witness == nil || v.Kind() != reflect.Struct {
		return fmt.Sprintf("%+v", r.Witness)
	}
	x, y := v.FieldByName("X"), v.FieldByName("Y")
	if !x.IsValid() || !y.IsValid() {
		return fmt.Sprintf("%+v", r.Witness)
	}
	return fmt.Sprintf("X=%+v  Y=%+v", x.Interface(), y.Interface())
}

// value prints an output: numbers with four significant digits, or to two
// decimals from 10⁴ to 10¹⁵ in magnitude.
func value(v any) string {
	f, ok := v.(float64)
	if !ok {
		return fmt.Sprint(v)
	}
	if a := math.Abs(f); a >= 1e4 && a < 1e15 {
		// Four significant digits of an output at a large offset (a count
		// near 2⁴⁰) would not say where it is: print it to two decimals.
		return decimalsText(f, 2)
	}
	return num(f)
}

// decimalsText prints v to the given decimals, without trailing zeros.
func decimalsText(v float64, decimals int) string {
	return strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(v, 'f', decimals, 64), "0"), ".")
}

// num prints a number with four significant digits.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

func percent(c float64) string {
	return strconv.FormatFloat(100*c, 'g', 6, 64) + "%"
}

// thousands prints n with comma separators: 1,000,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// testerLine is the failure text's line naming the DP-Auditorium tester
// of a run that found the violation.
func (r Report) testerLine() string {
	return fmt.Sprintf("    found by:     the %s tester of [KMRS24] (Testers), bounding H_{e^%s}\n", r.Details.Tester, num(r.Claim.Eps))
}
