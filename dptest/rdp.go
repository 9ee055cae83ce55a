package dptest

import (
	"fmt"
	"math"
	"testing"

	"github.com/dptest/dptest/internal/search"
)

// RequireRDP checks that m satisfies (λ, ε)-Rényi differential privacy and
// stops the test (t.FailNow) if the outputs show, at the configured
// confidence, that it does not:
//
//	D_λ(M(X) ‖ M(Y)) ≤ ε   for every pair of neighbouring datasets X, Y.
//
// It searches for the most divergent neighbouring pair (explicit [Pairs],
// then pairs drawn from [Neighbors]; for D = []float64 and no candidates,
// fixtures.Canonical(10) and fixtures.UnitCube(10)), confirms the most
// divergent on fresh samples with the lower bound of [KAD24] eq. (16), and
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
	mustMechanism(m)
	cfg := resolve(opts)
	rep, err := auditRDP(m, lambda, eps, cfg, testName(t), logger(t))
	return verdict(t, rep, err)
}

// AuditRDP runs the audit of [RequireRDP] outside a test and returns its
// report. The default seed is derived from the claim (there is no test name);
// [Seed] or -dptest.seed sets it. An error means the audit could not run (no
// candidate pairs for D, or the mechanism panicked or returned NaN/±Inf);
// the report then holds what was known. It panics on λ ≤ 1, NaN, ε < 0.
func AuditRDP[D any](m Mechanism[D], lambda, eps float64, opts ...Option) (Report, error) {
	mustClaim(lambda, eps)
	mustMechanism(m)
	cfg := resolve(opts)
	return auditRDP(m, lambda, eps, cfg, "", stderrLogger(cfg))
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
	mustEps(eps)
}
