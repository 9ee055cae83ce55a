// Package verdict holds the four verdicts of an audit and the typed
// reasons of the two that are not a plain answer: suspect and
// unresolved. Criteria and the engine build the reasons; package dptest
// re-exports them and renders them. Each reason belongs to one class.
package verdict

import "fmt"

// Verdict is how an audit ended.
type Verdict int

const (
	// None is the verdict of an audit that could not run: an error of
	// the mechanism, the options or the datasets.
	None Verdict = iota
	// Holds: no violation was found, and a violation of
	// ResolutionFactor times the claim would have been caught.
	Holds
	// Violated: a confident violation, with a witness.
	Violated
	// Suspect: evidence against the claim that the audit could not
	// confirm, or an audit that could not see the outputs at all.
	Suspect
	// Unresolved: nothing against the claim, but the sample cannot reach
	// the claim's scale.
	Unresolved
)

// ResolutionFactor is how far above the claim a holds verdict may
// resolve: a pass means a violation of this many times the claim would
// have been caught.
const ResolutionFactor = 1.5

// String names the verdict: "holds", "violated", "suspect",
// "unresolved", or "none".
func (v Verdict) String() string {
	switch v {
	case Holds:
		return "holds"
	case Violated:
		return "violated"
	case Suspect:
		return "suspect"
	case Unresolved:
		return "unresolved"
	}
	return "none"
}

// MarshalText writes the verdict's name, so JSON shows "holds".
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads a verdict's name.
func (v *Verdict) UnmarshalText(b []byte) error {
	for _, w := range []Verdict{None, Holds, Violated, Suspect, Unresolved} {
		if w.String() == string(b) {
			*v = w
			return nil
		}
	}
	return fmt.Errorf("dptest: unknown verdict %q", b)
}

// Reason says why an audit ended suspect or unresolved. The set is
// sealed: only this package defines reasons. Each is an error, so
// errors.As finds it in an audit's error.
type Reason interface {
	error
	// Class is Suspect or Unresolved.
	Class() Verdict
	// Text says what the audit saw, or what it verified.
	Text() string
	// Remedy says what would resolve the claim.
	Remedy() string
	sealed()
}

// suspect and unresolved give a reason its class; embedded, they seal it.
type (
	suspect    struct{}
	unresolved struct{}
)

func (suspect) Class() Verdict    { return Suspect }
func (suspect) sealed()           {}
func (unresolved) Class() Verdict { return Unresolved }
func (unresolved) sealed()        {}
