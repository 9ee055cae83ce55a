package dptest

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/tb"
)

// TestingT is what the fatal forms (Require*) need of a test: *testing.T,
// *testing.B, *testing.F and *rapid.T all satisfy it. If t also has
// Helper(), Name() or Logf(...), dptest uses them: to attribute failures to
// the caller, to derive the default seed and the reproduce line, and to log
// successes.
type TestingT interface {
	CheckT
	FailNow()
}

// CheckT is what the non-fatal forms (Check*, and the twins in package
// assert) need of a test: a way to report an error.
type CheckT interface {
	Errorf(format string, args ...any)
}

func testName(t CheckT) string {
	if n, ok := t.(interface{ Name() string }); ok {
		return n.Name()
	}
	return ""
}

func logger(t CheckT) func(string, ...any) {
	if l, ok := t.(interface{ Logf(string, ...any) }); ok {
		return l.Logf
	}
	return func(string, ...any) {}
}

// stderrLogger is the progress logger of the Audit functions, which have no
// test to log to: standard error.
func stderrLogger(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

// isShort reports whether this is a test binary run with -short.
func isShort() bool {
	return testing.Testing() && flag.Parsed() && testing.Short()
}

// check is the one path of every Check*, Require* and Make* form: audit,
// then report to t, a failure with t.Errorf (false), a success as a log
// line (true).
func check[D any](t CheckT, m Mechanism[D], c plan.Claim, opts []Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	return checkOr(t, m, c, opts, false)
}

// checkOr is check; fatal (the Require* forms) lets an allowed
// inconclusive audit skip the test, which a non-fatal form must not do:
// it would end the test, and the claims after it would not run.
func checkOr[D any](t CheckT, m Mechanism[D], c plan.Claim, opts []Option, fatal bool) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	e := env{name: testName(t), logf: logger(t)}
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, ok := d.Deadline(); ok {
			e.deadline = deadline
		}
	}
	rep, err := audit(m, c, opts, e)
	return verdict(t, rep, err, fatal)
}

// verdict reports a report (or an error) to t; an allowed inconclusive
// audit skips the test only if fatal.
func verdict(t CheckT, rep Report, err error, fatal bool) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	switch {
	case errors.Is(err, ErrInconclusive) && rep.allowInconclusive:
		if s, ok := t.(interface{ Skipf(string, ...any) }); ok && fatal {
			s.Skipf("%s", rep.errorText(err))
		}
		logger(t)("%s", rep.errorText(err))
		return true
	case err != nil:
		t.Errorf("%s", rep.errorText(err))
		return false
	case rep.Violated:
		t.Errorf("%s", rep.String())
		return false
	}
	logger(t)("%s", rep.String())
	return true
}

// require is check, then t.FailNow on failure.
func require[D any](t TestingT, m Mechanism[D], c plan.Claim, opts []Option) {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	if !checkOr(t, m, c, opts, true) {
		t.FailNow()
	}
}
