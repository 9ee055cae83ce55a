package verdict

import (
	"fmt"
	"math"
	"time"
)

// samplesFlag names the ways to set the sample size, for remedies.
const samplesFlag = "-dptest.samples or dptest.Samples"

// DetectPercent is the power at which a resolution is stated, in percent.
const DetectPercent = 90

// CoarseResolution: the confirmations are too noisy to catch a violation
// of ResolutionFactor times the claim. Nothing was seen above the claim.
type CoarseResolution struct {
	unresolved
	Measure     string  // what the claim bounds: "δ(ε=1)", "D_2", "μ", "the loss"
	Claim       float64 // the claimed value of Measure
	Resolution  float64 // the least true value caught with 90% power
	Samples     int     // confirming draws per side
	Witness     string  // the pair whose confirmation was widest
	DrawsNeeded float64 // draws per side that would resolve it: 0 if unknown, +Inf if none
	Instead     string  // a claim of the same mechanism that resolves sooner, if any
}

func (r *CoarseResolution) Error() string { return r.Text() }

// Text states what was verified.
func (r *CoarseResolution) Text() string {
	return fmt.Sprintf("no %s above %s at %d%% power on the pairs confirmed, %s draws per side; a pass needs %s",
		r.Measure, Num(r.Resolution), DetectPercent, Thousands(r.Samples), Num(ResolutionFactor*r.Claim))
}

// Remedy names the draws and the claims that would resolve it.
func (r *CoarseResolution) Remedy() string {
	s := drawsRemedy(r.DrawsNeeded, r.Samples)
	if r.Instead != "" {
		s += "; or " + r.Instead
	}
	return s
}

// drawsRemedy names the draws per side that would resolve a claim.
func drawsRemedy(need float64, n int) string {
	switch {
	case math.IsInf(need, 1):
		return "no sample size resolves it"
	case need <= 0:
		return "more samples (" + samplesFlag + ")"
	case need < 2*float64(n):
		return fmt.Sprintf("a few times the %s draws per side run here (%s)", Thousands(n), samplesFlag)
	}
	return fmt.Sprintf("about %s draws per side (%s)", Roughly(need), samplesFlag)
}

// ClaimBeyondReach: at this sample size no event's bound can exceed the
// claim, whatever the mechanism.
type ClaimBeyondReach struct {
	unresolved
	Measure     string
	Claim       float64
	Samples     int
	DrawsNeeded float64 // 0 if unknown, +Inf if no sample size can
	Smaller     string  // the claim to state instead where none can, such as "a smaller μ"
}

func (r *ClaimBeyondReach) Error() string { return r.Text() }

// Text states what this sample cannot show.
func (r *ClaimBeyondReach) Text() string {
	return fmt.Sprintf("at %s draws per side no event can show %s above the claimed %s, whatever the mechanism", Thousands(r.Samples), r.Measure, Num(r.Claim))
}

// Remedy names the draws needed, or the claim to state instead.
func (r *ClaimBeyondReach) Remedy() string {
	if math.IsInf(r.DrawsNeeded, 1) && r.Smaller != "" {
		return "no sample size can show a violation: claim " + r.Smaller
	}
	return drawsRemedy(r.DrawsNeeded, r.Samples)
}

// EventsTooLarge: the confirmed events hold most outputs, where even a
// loss at the claim shows a level above ResolutionFactor times it.
type EventsTooLarge struct {
	unresolved
	Claim, Limit, Share float64 // Share of a side's outputs in the events
	Samples             int
}

func (r *EventsTooLarge) Error() string { return r.Text() }

// Text states why the events resolve little.
func (r *EventsTooLarge) Text() string {
	return fmt.Sprintf("the confirmed events hold %.0f%% of a side's outputs; there a loss at the claimed %s shows only %s or more", 100*r.Share, Num(r.Claim), Num(r.Limit))
}

// Remedy says more draws of such events do not help.
func (r *EventsTooLarge) Remedy() string {
	return "more draws of events this large do not resolve it; more samples help only if their larger screening picks a smaller event"
}

// NoMeasurableEvent: the confirmed events hold every output one side
// drew, where no finite claim shows anything.
type NoMeasurableEvent struct {
	unresolved
	Claim   float64
	Samples int
}

func (r *NoMeasurableEvent) Error() string { return r.Text() }

// Text states why nothing could be shown.
func (r *NoMeasurableEvent) Text() string {
	return fmt.Sprintf("at %s draws per side the confirmed events hold every output one side drew, where no value of the measure shows", Thousands(r.Samples))
}

// Remedy says more samples do not help.
func (r *NoMeasurableEvent) Remedy() string { return "more samples do not resolve it" }

// OneSidedOnce: one confirmation counted its event under one dataset
// only and the other did not, so the event's measure has no upper limit.
type OneSidedOnce struct {
	unresolved
	Witness string
	Samples int
}

func (r *OneSidedOnce) Error() string { return r.Text() }

// Text states what was counted.
func (r *OneSidedOnce) Text() string {
	return fmt.Sprintf("on %s one confirmation counted its event under one dataset only in %s draws, the other did not", r.Witness, Thousands(r.Samples))
}

// Remedy names more samples.
func (r *OneSidedOnce) Remedy() string { return "more samples (" + samplesFlag + ")" }

// TailsUnreached: the order λ weights outputs beyond the most extreme
// draws, which this sample cannot examine.
type TailsUnreached struct {
	unresolved
	Lambda     float64
	Witness    string  // empty where the screening's cells are too few
	Share      float64 // of the order-λ evidence at or beyond the extremes
	Dependence float64 // of the evidence lost without the extremes
}

func (r *TailsUnreached) Error() string { return r.Text() }

// Text states where the evidence lies.
func (r *TailsUnreached) Text() string {
	switch {
	case r.Witness == "":
		return fmt.Sprintf("order λ = %s weights tails the screening's cells cannot hold apart", Num(r.Lambda))
	case r.Dependence > 0:
		return fmt.Sprintf("order λ = %s weights the most extreme draws on %s: without them its evidence falls by %.0f%%", Num(r.Lambda), r.Witness, 100*r.Dependence)
	}
	return fmt.Sprintf("%.0f%% of the order-%s evidence on %s lies at or beyond the most extreme draws", 100*r.Share, Num(r.Lambda), r.Witness)
}

// Remedy names lower orders and GDP.
func (r *TailsUnreached) Remedy() string {
	return "a lower order λ, or a GDP claim, resolves nearer the bulk; more samples reach a Gaussian tail only half a standard deviation further per tenfold sample"
}

// EndsTooFew: each end zone of order λ needs 2λ² outputs per side, more
// than this sample holds.
type EndsTooFew struct {
	unresolved
	Lambda  float64
	Samples int
	// ZoneFraction: each end may hold at most 1/ZoneFraction of the draws.
	ZoneFraction int
}

func (r *EndsTooFew) Error() string { return r.Text() }

// Text states the shortfall.
func (r *EndsTooFew) Text() string {
	return fmt.Sprintf("order λ = %s needs 2λ² = %.0f outputs per side in each tail, more than 1/%d of %s draws", Num(r.Lambda), 2*r.Lambda*r.Lambda, r.ZoneFraction, Thousands(r.Samples))
}

// Remedy names the least sample size and the largest order this one holds.
func (r *EndsTooFew) Remedy() string {
	least := float64(r.ZoneFraction) * 2 * r.Lambda * r.Lambda
	top := math.Floor(math.Sqrt(float64(r.Samples) / (2 * float64(r.ZoneFraction))))
	return fmt.Sprintf("at least %s draws per side (%s), or an order up to about λ = %.0f at this size", Thousands(int(math.Ceil(least))), samplesFlag, top)
}

// SparseNumbers: numbers counted value by value repeat too rarely for a
// loss on single values to show; ranges of them showed nothing.
type SparseNumbers struct {
	unresolved
	PerValue float64 // draws per value in the screening
}

func (r *SparseNumbers) Error() string { return r.Text() }

// Text states how often the values repeat.
func (r *SparseNumbers) Text() string {
	return fmt.Sprintf("the outputs are numbers seen about %.3g times each in the screening: a loss on single values goes unseen", r.PerValue)
}

// Remedy names Continuous.
func (r *SparseNumbers) Remedy() string {
	return "Continuous in place of Discrete groups numbers into ranges, which more draws fill"
}

// RareValues: values without an order, each seen too rarely to rank,
// hold a share of the draws that chose the statistic.
type RareValues struct {
	unresolved
	Count int // values seen fewer than Count times are rare
	Draws int // per side, that chose the statistic
	Share float64
}

func (r *RareValues) Error() string { return r.Text() }

// Text states the share of rare values.
func (r *RareValues) Text() string {
	return fmt.Sprintf("values seen fewer than %d times hold %.3g%% of the %s draws per side that chose the statistic: their ratios cannot be ranked", r.Count, 100*r.Share, Thousands(r.Draws))
}

// Remedy names more samples, and what they cannot resolve.
func (r *RareValues) Remedy() string {
	return "more samples (" + samplesFlag + ") rank rarer values; outputs that are mostly new values (ids, free text) cannot be resolved"
}

// UnseenValues: values the screening never saw hold draws of one side
// beyond the other's draws of the same values, a share that could hide a
// violation beside the claim.
type UnseenValues struct {
	unresolved
	Share, Unmatched float64
}

func (r *UnseenValues) Error() string { return r.Text() }

// Text states the shares.
func (r *UnseenValues) Text() string {
	return fmt.Sprintf("values the screening never saw hold %.3g of the draws, %.3g beyond the other dataset's draws of them", r.Share, r.Unmatched)
}

// Remedy names more samples, and outputs that can be counted.
func (r *UnseenValues) Remedy() string {
	return "more samples (" + samplesFlag + ") list more of those values; values drawn once each are never listed: reduce such outputs to a few categories"
}

// UnmatchedValues: values the screening never saw hold draws of one side
// beyond the other's draws of the same values, in a share that alone
// would show the measure above ResolutionFactor times the claim. Values
// that repeat show one side's excess; values that never repeat leave the
// audit blind there.
type UnmatchedValues struct {
	suspect
	Share, Unmatched float64
}

func (r *UnmatchedValues) Error() string { return r.Text() }

// Text states the shares.
func (r *UnmatchedValues) Text() string {
	return fmt.Sprintf("values the screening never saw hold %.3g of the draws, %.3g beyond the other dataset's draws of them: enough alone to exceed the claim", r.Share, r.Unmatched)
}

// Remedy names more samples, and outputs that can be counted.
func (r *UnmatchedValues) Remedy() string {
	return (&UnseenValues{}).Remedy()
}

// Stopped: the audit ended before it could decide.
type Stopped struct {
	unresolved
	Calls  int64
	Cause  string // "the time budget (dptest.Within) ran out", "the test's deadline came", …
	Budget bool   // the Within budget ended it
}

func (r *Stopped) Error() string { return r.Text() }

// Text states where the audit stopped.
func (r *Stopped) Text() string {
	return fmt.Sprintf("the audit stopped after %s calls because %s", Thousands(int(r.Calls)), r.Cause)
}

// Remedy names more time or fewer draws.
func (r *Stopped) Remedy() string {
	if r.Budget {
		return "a larger dptest.Within budget, a smaller -dptest.samples, or fewer -dptest.candidates"
	}
	return "more time (go test -timeout, dptest.Within), or fewer draws (-dptest.samples, -dptest.candidates)"
}

// BudgetTooSmall: the Within budget cannot fit even the smallest audit.
type BudgetTooSmall struct {
	unresolved
	Left, PerCall, Least time.Duration
	Workers, MinSamples  int
}

func (r *BudgetTooSmall) Error() string { return r.Text() }

// Text states the budget and the need.
func (r *BudgetTooSmall) Text() string {
	return fmt.Sprintf("the budget leaves %s; at %s a call on %d goroutines, the smallest audit (%s draws per side) takes about %s",
		max(r.Left, 0).Round(time.Millisecond), r.PerCall, r.Workers, Thousands(r.MinSamples), r.Least.Round(time.Millisecond))
}

// Remedy names more time, parallelism or fewer candidates.
func (r *BudgetTooSmall) Remedy() string {
	return "more time (dptest.Within), dptest.Parallelism for a mechanism that waits, or fewer candidates (dptest.Candidates)"
}

// TesterCannotHold: a DP-Auditorium tester found no violation, and
// testers cannot show that a claim holds.
type TesterCannotHold struct {
	unresolved
	Tester     string
	Samples    int
	Resolution float64 // H_{e^ε} its statistic would have shown
	Eps        float64
}

func (r *TesterCannotHold) Error() string { return r.Text() }

// Text states what the tester saw.
func (r *TesterCannotHold) Text() string {
	return fmt.Sprintf("the %s tester found no violation at %s draws per side (it would show H_{e^%s} above about %s on its own statistic)", r.Tester, Thousands(r.Samples), Num(r.Eps), Num(r.Resolution))
}

// Remedy names dptest's own criteria.
func (r *TesterCannotHold) Remedy() string {
	return "testers look for violations and cannot show a claim holds; Own() adds dptest's own criteria, which can"
}

// HeldOutExceedance: a screening's held-out estimate lies far above the
// claim, while the confirmations, leaning on tails, bound it lower.
type HeldOutExceedance struct {
	suspect
	Witness                           string
	HeldOut, StdErr, Claim, TailShare float64
}

func (r *HeldOutExceedance) Error() string { return r.Text() }

// Text states the exceedance.
func (r *HeldOutExceedance) Text() string {
	return fmt.Sprintf("the screening of %s estimated %s ± %s on held-out draws, above the claimed %s; the confirmations, with %.0f%% of their evidence beyond the screening's extremes, bound it lower",
		r.Witness, Num(r.HeldOut), Num(r.StdErr), Num(r.Claim), 100*r.TailShare)
}

// Remedy names the audits that see such tails.
func (r *HeldOutExceedance) Remedy() string {
	return "the divergence may lie in tails the statistic lumps together: try RequireDP or RequireApproxDP, or more samples (" + samplesFlag + ")"
}

// FarOutputs: draws of one dataset lay far beyond every other output,
// and the other dataset produced none there.
type FarOutputs struct {
	suspect
	Far, Samples int64
	Lambda       float64
}

func (r *FarOutputs) Error() string { return r.Text() }

// Text states the far draws.
func (r *FarOutputs) Text() string {
	return fmt.Sprintf("%s of %s draws lay far beyond all other outputs, and the other dataset produced none there: the divergence may be infinite", Thousands(int(r.Far)), Thousands(int(r.Samples)))
}

// Remedy names the audits that test such outputs.
func (r *FarOutputs) Remedy() string {
	return fmt.Sprintf("no bound at order λ = %s can show it; RequireDP or RequireApproxDP test outputs that one dataset alone produces", Num(r.Lambda))
}

// OneSidedEvent: both confirmations counted their event under one dataset
// only, as an infinite measure would show, but too rarely to bound it
// above the claim.
type OneSidedEvent struct {
	suspect
	Witness      string
	Samples      int
	Bound, Claim float64
	DrawsNeeded  float64 // at which such counts would bound it above the claim; +Inf if none
}

func (r *OneSidedEvent) Error() string { return r.Text() }

// Text states the counts' reach.
func (r *OneSidedEvent) Text() string {
	return fmt.Sprintf("on %s both confirmations counted their event under one dataset only, in %s draws each; that bounds the measure only to %s, under the claimed %s",
		r.Witness, Thousands(r.Samples), Num(r.Bound), Num(r.Claim))
}

// Remedy names the draws that would confirm it.
func (r *OneSidedEvent) Remedy() string {
	s := "no sample size would bound it above the claim"
	if !math.IsInf(r.DrawsNeeded, 1) && r.DrawsNeeded > 0 {
		s = fmt.Sprintf("about %s draws per side (%s) would bound it above the claim if the other dataset never produces it", Roughly(r.DrawsNeeded), samplesFlag)
	}
	return s + "; RequireDP and RequireApproxDP test such outputs"
}

// OutputOfOneDataset: an output (or a group of values) one dataset alone
// produced, whose own counts bound the measure above the claim, which the
// confirmed statistic did not show.
type OutputOfOneDataset struct {
	suspect
	// Seen says which dataset produced what, and how often.
	Seen string
}

func (r *OutputOfOneDataset) Error() string { return r.Text() }

// Text states the output and its counts.
func (r *OutputOfOneDataset) Text() string {
	return r.Seen + ": those draws alone bound the measure above the claim, but the confirmed statistic did not show it"
}

// Remedy names the audits that test such outputs.
func (r *OutputOfOneDataset) Remedy() string {
	return "RequireDP or RequireApproxDP test outputs that one dataset alone produces"
}

// BlindOutputs: outputs without an order that barely repeat; counted
// value by value they cannot show a divergence.
type BlindOutputs struct {
	suspect
	Values int
	Draws  int64
}

func (r *BlindOutputs) Error() string { return r.Text() }

// Text states how rarely the outputs repeat.
func (r *BlindOutputs) Text() string {
	return fmt.Sprintf("the outputs barely repeat (%s distinct values in %s draws) and have no order: the audit cannot see them", Thousands(r.Values), Thousands(int(r.Draws)))
}

// Remedy names ways to make the outputs countable.
func (r *BlindOutputs) Remedy() string {
	return "wrap real outputs with Continuous, reduce a vector or a struct to a number or a few categories, or draw many more samples"
}

// ScreeningOneSided marks a screening whose held-out draws fell on values
// one dataset alone produced: the pair is screened again at the
// confirmation's size. It never ends an audit.
type ScreeningOneSided struct {
	unresolved
	Held, Draws, Other int64
	NeverSeen          bool
}

func (r *ScreeningOneSided) Error() string { return r.Text() }

// Text states the held-out counts.
func (r *ScreeningOneSided) Text() string {
	where := "values the first half saw from it alone"
	if r.NeverSeen {
		where = "values the first half never saw"
	}
	return fmt.Sprintf("%d of %d held-out draws of one dataset (and %d of the other's) fell on %s", r.Held, r.Draws, r.Other, where)
}

// Remedy names the larger screening.
func (r *ScreeningOneSided) Remedy() string { return "a screening at the confirmation's size" }
