package dptest

import (
	"errors"

	"github.com/dptest/dptest/internal/verdict"
)

// Verdict is how an audit ended: [Holds], [Violated], [Suspect] or
// [Unresolved]; the zero value, "none", is an audit that could not run.
type Verdict = verdict.Verdict

// The four verdicts.
const (
	// Holds: no violation was found, and a violation of
	// [ResolutionFactor] times the claim would have been caught.
	// Require* and Check* pass and log one line.
	Holds = verdict.Holds
	// Violated: a confident violation. Require* and Check* fail with
	// the witness; Audit* return a nil error.
	Violated = verdict.Violated
	// Suspect: evidence against the claim that the audit could not
	// confirm. Require* and Check* fail with the remedy; Audit* return
	// an error matching ErrSuspect.
	Suspect = verdict.Suspect
	// Unresolved: nothing against the claim, but the sample cannot reach
	// the claim's scale. Require* skip the test and Check* log it and
	// pass, unless Strict; Audit* return an error matching
	// ErrUnresolved.
	Unresolved = verdict.Unresolved
)

// ResolutionFactor is how far above the claim a holds verdict may
// resolve.
const ResolutionFactor = verdict.ResolutionFactor

// Errors of an audit that ended without a plain answer. Every
// suspect or unresolved audit's error matches ErrInconclusive, and one
// of ErrSuspect or ErrUnresolved.
var (
	ErrInconclusive = errors.New("inconclusive")
	ErrSuspect      = errors.New("suspect")
	ErrUnresolved   = errors.New("unresolved")
)

// InconclusiveError is the error of a suspect or unresolved audit. Its
// Reason says why, and errors.As finds the reason's own type in it.
type InconclusiveError struct {
	Reason Reason
}

func (e *InconclusiveError) Error() string {
	return e.Reason.Class().String() + ": " + e.Reason.Text() + "; " + e.Reason.Remedy()
}

// Is matches ErrInconclusive, and ErrSuspect or ErrUnresolved by class.
func (e *InconclusiveError) Is(target error) bool {
	switch target {
	case ErrInconclusive:
		return true
	case ErrSuspect:
		return e.Reason.Class() == Suspect
	case ErrUnresolved:
		return e.Reason.Class() == Unresolved
	}
	return false
}

// Unwrap returns the reason, so that errors.As finds its type.
func (e *InconclusiveError) Unwrap() error { return e.Reason }

// verdictOf decides an audit's verdict from its engine's finding and its
// error: a violation; a suspect or unresolved reason; none for any other
// error; else holds.
func verdictOf(violated bool, err error) (Verdict, Reason) {
	var inc *InconclusiveError
	switch {
	case err == nil && violated:
		return Violated, nil
	case errors.As(err, &inc):
		return inc.Reason.Class(), inc.Reason
	case err != nil:
		return verdict.None, nil
	}
	return Holds, nil
}

// inconclusive wraps a reason, or returns nil for none.
func inconclusive(r Reason) error {
	if r == nil {
		return nil
	}
	return &InconclusiveError{Reason: r}
}

// Reason says why an audit ended suspect or unresolved: Class, Text (what
// the audit saw or verified) and Remedy (what would resolve it). The set
// is sealed; each reason below has one class. See docs/limits.md.
type Reason = verdict.Reason

// Reasons of the unresolved class: nothing was seen against the claim.
type (
	// CoarseResolution: the confirmations could not catch a violation
	// of [ResolutionFactor] times the claim.
	CoarseResolution = verdict.CoarseResolution
	// ClaimBeyondReach: at this sample size no event can show a
	// violation of the claim, whatever the mechanism.
	ClaimBeyondReach = verdict.ClaimBeyondReach
	// EventsTooLarge: the confirmed events hold most outputs, where
	// even a loss at the claim shows little.
	EventsTooLarge = verdict.EventsTooLarge
	// NoMeasurableEvent: the confirmed events hold every output of one
	// side, where no value of the measure shows.
	NoMeasurableEvent = verdict.NoMeasurableEvent
	// OneSidedOnce: one confirmation counted its event under one
	// dataset only, the other did not.
	OneSidedOnce = verdict.OneSidedOnce
	// TailsUnreached: the order λ weights outputs beyond the most
	// extreme draws.
	TailsUnreached = verdict.TailsUnreached
	// EndsTooFew: the tails of order λ need more draws than were made.
	EndsTooFew = verdict.EndsTooFew
	// SparseNumbers: discrete numbers that repeat too rarely for a loss
	// on single values to show.
	SparseNumbers = verdict.SparseNumbers
	// RareValues: values without an order, too rare to rank, hold a
	// share of the draws.
	RareValues = verdict.RareValues
	// Stopped: the audit ended before it could decide (a deadline, a
	// cancelled Context, the Within budget).
	Stopped = verdict.Stopped
	// BudgetTooSmall: the Within budget cannot fit the smallest audit.
	BudgetTooSmall = verdict.BudgetTooSmall
	// UnseenValues: values the screening never saw hold draws of one
	// side beyond the other's draws of them.
	UnseenValues = verdict.UnseenValues
	// TesterCannotHold: DP-Auditorium's testers found no violation, and
	// cannot show a claim holds.
	TesterCannotHold = verdict.TesterCannotHold
)

// Reasons of the suspect class: evidence against the claim, or outputs
// the audit cannot see.
type (
	// HeldOutExceedance: a screening's held-out estimate lies far above
	// the claim, while the confirmations bound it lower.
	HeldOutExceedance = verdict.HeldOutExceedance
	// FarOutputs: draws of one dataset lay far beyond every other
	// output, where the other dataset produced none.
	FarOutputs = verdict.FarOutputs
	// OneSidedEvent: both confirmations counted their event under one
	// dataset only, too rarely to bound it above the claim.
	OneSidedEvent = verdict.OneSidedEvent
	// OutputOfOneDataset: an output one dataset alone produced, whose
	// own counts bound the measure above the claim.
	OutputOfOneDataset = verdict.OutputOfOneDataset
	// BlindOutputs: outputs without an order that barely repeat.
	BlindOutputs = verdict.BlindOutputs
	// UnmatchedValues: values the screening never saw hold draws of one
	// side beyond the other's, enough alone to exceed the claim.
	UnmatchedValues = verdict.UnmatchedValues
)
