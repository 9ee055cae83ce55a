package dptest

import (
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/search"
)

// TestingT is the part of a test that dptest needs: *testing.T, *testing.B,
// *testing.F and *rapid.T all satisfy it. If t also has Helper(), Name() or
// Logf(...), dptest uses them: to attribute failures to the caller, to
// derive the default seed and the reproduce line, and to log successes.
type TestingT interface {
	Errorf(format string, args ...any)
	FailNow()
}

func testName(t TestingT) string {
	if n, ok := t.(interface{ Name() string }); ok {
		return n.Name()
	}
	return ""
}

func logger(t TestingT) func(string, ...any) {
	if l, ok := t.(interface{ Logf(string, ...any) }); ok {
		return l.Logf
	}
	return func(string, ...any) {}
}

// RequireRDP checks that m satisfies (λ, ε)-Rényi differential privacy and
// stops the test (t.FailNow) if the outputs show, at the configured
// confidence, that it does not:
//
//	D_λ(M(X) ‖ M(Y)) ≤ ε   for every pair of neighbouring datasets X, Y.
//
// It searches for the most divergent neighbouring pair (explicit [Pairs],
// then pairs drawn from [Neighbors]; for D = []float64 and no candidates,
// fixtures.Canonical(10) and fixtures.UnitCube(10)), confirms the most
// divergent on fresh samples with the lower bound of seed 002 eq. (16), and
// fails iff the confirmed bound exceeds ε. A pass means that no confident
// violation was found, never that m is private.
//
// It panics on a programmer error: λ ≤ 1 or NaN, ε < 0 or NaN. A mechanism
// that panics or returns NaN or ±Inf fails the test with the dataset and the
// draw's index.
func RequireRDP[D any](t TestingT, m Mechanism[D], lambda, eps float64, opts ...Option) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	if CheckRDP(t, m, lambda, eps, opts...) {
		return
	}
	t.FailNow()
}

// CheckRDP is the non-fatal form of [RequireRDP] (also available as
// assert.RDP): it reports a violation or an error with t.Errorf, returns
// false, and lets the test go on. On success it logs a one-line summary if t
// has Logf.
func CheckRDP[D any](t TestingT, m Mechanism[D], lambda, eps float64, opts ...Option) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	mustClaim(lambda, eps)
	if !m.valid() {
		panic("dptest: zero Mechanism; build one with Continuous or Discrete")
	}
	cfg := resolve(opts)
	rep, err := auditRDP(m, lambda, eps, cfg, testName(t), logger(t))
	return verdict(t, rep, err)
}

// verdict reports an audit's outcome to t: an error or a violation with
// t.Errorf (false), a success as a log line (true).
func verdict(t TestingT, rep Report, err error) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	switch {
	case err != nil:
		t.Errorf("%s", errorText(rep, err))
		return false
	case rep.Violated:
		t.Errorf("%s", rep.String())
		return false
	}
	logger(t)("%s", rep.String())
	return true
}

// AuditRDP runs the audit of [RequireRDP] outside a test and returns its
// report. The default seed is derived from the claim (there is no test name);
// [Seed] or -dptest.seed sets it. An error means the audit could not run (no
// candidate pairs for D, or the mechanism panicked or returned NaN/±Inf);
// the report then holds what was known. It panics on λ ≤ 1, NaN, ε < 0.
func AuditRDP[D any](m Mechanism[D], lambda, eps float64, opts ...Option) (Report, error) {
	mustClaim(lambda, eps)
	if !m.valid() {
		panic("dptest: zero Mechanism; build one with Continuous or Discrete")
	}
	cfg := resolve(opts)
	return auditRDP(m, lambda, eps, cfg, "", stderrLogger(cfg))
}

// stderrLogger is the progress logger of the Audit functions, which have no
// test to log to: standard error, with -dptest.v or Verbose only.
func stderrLogger(cfg config) func(string, ...any) {
	if !cfg.verbose {
		return nil
	}
	return func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
}

func auditRDP[D any](m Mechanism[D], lambda, eps float64, cfg config, name string, logf func(string, ...any)) (Report, error) {
	if !cfg.seedSet {
		cfg.seed = deriveSeed(name, lambda, eps)
	}
	cl := claim{kind: kindRDP, lambda: lambda, eps: eps, alpha: 1 - cfg.confidence}
	rep, _, err := run(search.RDP(m.impl, lambda, 0), cl, cfg, cfg.seed, name, logf)
	return rep, err
}

// MakeRDP returns a test function asserting the claim, for t.Run:
//
//	t.Run("gaussian", dptest.MakeRDP(mech, 2, 0.08))
func MakeRDP[D any](m Mechanism[D], lambda, eps float64, opts ...Option) func(*testing.T) {
	mustClaim(lambda, eps)
	return func(t *testing.T) {
		t.Helper()
		RequireRDP(t, m, lambda, eps, opts...)
	}
}

func mustClaim(lambda, eps float64) {
	if !(lambda > 1) || math.IsInf(lambda, 1) {
		panic(fmt.Sprintf("dptest: order λ must be > 1 and finite, got %v", lambda))
	}
	if !(eps >= 0) || math.IsInf(eps, 1) {
		panic(fmt.Sprintf("dptest: ε must be ≥ 0 and finite, got %v", eps))
	}
}

// deriveSeed is the default seed: a hash of the test name and the claim, so
// that a CI run replays the same audit every time and two assertions in one
// test draw different samples.
func deriveSeed(name string, lambda, eps float64) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "dptest|%s|%v|%v", name, lambda, eps)
	return h.Sum64()
}

func typeName[D any]() string { return reflect.TypeFor[D]().String() }

func elemType(pairs any) string {
	t := reflect.TypeOf(pairs)
	if t.Kind() == reflect.Slice {
		return t.Elem().String()
	}
	return t.String()
}

// errorText renders an audit that could not finish.
func errorText(r Report, err error) string {
	return fmt.Sprintf("[dptest] %s could not be audited: %v\n    To reproduce: %s", r.claimText(), err, r.Reproduce())
}

// simplifyVector proposes simpler versions of a pair of real vectors: all
// records they share set to 0; then each shared record set to 0 in turn; then
// the records that differ rounded to 0 or 1, keeping them apart.
func simplifyVector(p fixtures.Pair[[]float64]) []fixtures.Pair[[]float64] {
	if len(p.X) != len(p.Y) {
		return nil
	}
	var out []fixtures.Pair[[]float64]
	clone := func() fixtures.Pair[[]float64] {
		return fixtures.Pair[[]float64]{X: append([]float64(nil), p.X...), Y: append([]float64(nil), p.Y...)}
	}
	var shared []int
	for i := range p.X {
		if p.X[i] == p.Y[i] && p.X[i] != 0 {
			shared = append(shared, i)
		}
	}
	if len(shared) > 1 {
		q := clone()
		for _, i := range shared {
			q.X[i], q.Y[i] = 0, 0
		}
		out = append(out, q)
	}
	for _, i := range shared {
		q := clone()
		q.X[i], q.Y[i] = 0, 0
		out = append(out, q)
	}
	for i := range p.X {
		if p.X[i] == p.Y[i] {
			continue
		}
		hi, lo := 1.0, 0.0
		if p.X[i] < p.Y[i] {
			hi, lo = 0, 1
		}
		if p.X[i] != hi || p.Y[i] != lo {
			q := clone()
			q.X[i], q.Y[i] = hi, lo
			out = append(out, q)
		}
	}
	return out
}
