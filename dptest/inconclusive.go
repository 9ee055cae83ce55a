package dptest

import (
	"errors"
	"fmt"
)

// ErrInconclusive is the error of an audit that cannot decide: it was
// stopped before it could (the test's deadline, a cancelled [Context]).
// Such an audit never
// passes: Audit* return an error e with errors.Is(e, ErrInconclusive),
// whose text says what was lost and what would resolve it; Require* and
// Check* fail the test with that text, unless [AllowInconclusive] turns it
// into a skip of a Require* form, or a logged pass of a Check* or assert
// form.
var ErrInconclusive = errors.New("inconclusive")

// InconclusiveError says why an audit could not decide and what would
// let it.
type InconclusiveError struct {
	Reason string // what the audit lost or where it stopped
	Remedy string // what would resolve it
}

func (e *InconclusiveError) Error() string {
	return fmt.Sprintf("inconclusive: %s; %s", e.Reason, e.Remedy)
}

// Is makes errors.Is(e, ErrInconclusive) true.
func (e *InconclusiveError) Is(target error) bool { return target == ErrInconclusive }
