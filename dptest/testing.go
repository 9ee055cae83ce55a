package dptest

import (
	"flag"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/tb"
	"github.com/dptest/dptest/internal/verdict"
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

// DefaultDomainHint is logged once per test binary, by the first test
// form whose audit searched the default domain of its datasets.
const DefaultDomainHint = `dptest: this audit searched the default domain: substitution pairs of ten records in [0, 1].
Your records' range and neighbour relation decide the verdict. Declare them, e.g.
    m.WithNeighbors(fixtures.Substitution(rapid.Float64Range(0, 100), 1, 20))
or give pairs with dptest.Pairs. See "Choosing neighbours" in the README.`

// defaultDomainHinted says whether DefaultDomainHint was logged: it is
// logged once per test binary, as the default domain is the binary's
// issue, not each audit's. It is the package's one piece of state beyond
// its flags.
var defaultDomainHinted atomic.Bool

// hintDefaultDomain logs DefaultDomainHint to t, unless hinted says it
// was, if the audit searched the default domain. The log line names the
// test's own line.
func hintDefaultDomain(t CheckT, hinted *atomic.Bool, rep Report) {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	if rep.defaultDomain && hinted.CompareAndSwap(false, true) {
		logger(t)("%s", DefaultDomainHint)
	}
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

// checkOr is check; fatal (the Require* forms) lets an unresolved audit
// skip the test, which a non-fatal form must not do: it would end the
// test, and the claims after it would not run.
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
	rep, _ := audit(m, c, opts, e)
	hintDefaultDomain(t, &defaultDomainHinted, rep)
	if rep.Details.ReportError != "" {
		t.Errorf("dptest: the report directory could not be written: %s", rep.Details.ReportError)
		report(t, rep, fatal)
		return false
	}
	return report(t, rep, fatal)
}

// report reports an audit to t: a holds verdict as one log line (true);
// an unresolved one as a skip of a fatal form (Require*), or a log line of
// a non-fatal one, which must not end the test (true), unless Strict; a
// violated, suspect or failed audit with t.Errorf (false). Under
// -dptest.v the details follow the line.
func report(t CheckT, rep Report, fatal bool) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	logf := logger(t)
	text := rep.String()
	if rep.Details.Settings.Verbose && rep.Verdict != verdict.None {
		text += "\n" + rep.detailsText()
	}
	switch {
	case rep.Verdict == Holds:
		logf("%s", text)
		return true
	case rep.Verdict == Unresolved && !rep.Details.Settings.Strict:
		if s, ok := t.(interface{ Skipf(string, ...any) }); ok && fatal {
			s.Skipf("%s", text)
		}
		logf("%s", text)
		return true
	}
	t.Errorf("%s", text)
	return false
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
