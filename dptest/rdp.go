package dptest

import (
	"testing"

	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/tb"
)

// RequireRDP checks that m satisfies (λ, ε)-Rényi differential privacy,
// D_λ(M(X) ‖ M(Y)) ≤ ε for all neighbours X, Y, and stops the test if the
// outputs show otherwise.
//
// It searches neighbouring pairs ([Pairs], [Neighbors], or the default
// domain of []float64 datasets), screens them, and confirms the most
// divergent on fresh draws with the lower bound of [KAD24].
//
//   - Holds: no confident violation was found, which is no proof of
//     privacy; the log line states the resolution and reach.
//   - Violated or Suspect: the test fails, naming the witness pair.
//   - Unresolved: the sample cannot reach the claim's scale; the test skips.
//
// Options: [Samples], [Seed], [Confidence], [Strict], [Quick], [ReportTo].
// Bad claims (λ ≤ 1, ε < 0, NaN) fail the test with the value named.
// See docs/how-it-works.md and docs/limits.md.
func RequireRDP[D any](t TestingT, m Mechanism[D], lambda, eps float64, opts ...Option) {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	require(t, m, rdpClaim(lambda, eps), opts)
}

// CheckRDP is the non-fatal form of [RequireRDP] (also available as
// assert.RDP): it reports a violation or an error with t.Errorf, returns
// false, and lets the test go on. On success it logs a one-line summary if t
// has Logf.
func CheckRDP[D any](t CheckT, m Mechanism[D], lambda, eps float64, opts ...Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	return check(t, m, rdpClaim(lambda, eps), opts)
}

// AuditRDP runs the audit of [RequireRDP] outside a test and returns its
// report. The default seed is derived from the claim (there is no test name);
// [Seed] or -dptest.seed sets it. An error means the audit could not run:
// a refused value (see RequireRDP), no candidate pairs for D, or a mechanism
// that panicked or returned NaN/±Inf; the report then holds what was known.
// Progress goes to standard error with [Verbose] or -dptest.v.
func AuditRDP[D any](m Mechanism[D], lambda, eps float64, opts ...Option) (Report, error) {
	return audit(m, rdpClaim(lambda, eps), opts, env{logf: stderrLogger})
}

// MakeRDP returns a test function asserting the claim, for t.Run:
//
//	t.Run("gaussian", dptest.MakeRDP(mech, 2, 0.08))
func MakeRDP[D any](m Mechanism[D], lambda, eps float64, opts ...Option) func(*testing.T) {
	return func(t *testing.T) {
		t.Helper()
		require(t, m, rdpClaim(lambda, eps), opts)
	}
}

func rdpClaim(lambda, eps float64) plan.Claim {
	return plan.Claim{Kind: plan.KindRDP, Lambda: lambda, Eps: eps}
}
