package dptest

import (
	"testing"

	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/tb"
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
// An output that one dataset alone produces makes D_λ infinite, but at
// order λ a finite number of draws shows it only once the least rate b at
// which the claim needs the other dataset to produce it,
//
//	D_λ((a, 1 − a) ‖ (b, 1 − b)) = ε   (a: its rate under the dataset that produced it),
//
// falls within their reach. Such an output far beyond all others makes
// the audit inconclusive. A repeated value amid the other dataset's
// outputs (an atom) that a screening saw from one dataset only, ten times
// or more, makes it inconclusive if the screening's own draws would
// refute the claim there, and is otherwise named in the success line with
// b and the draws per side that would (in the [Report.Alone] that
// [AuditRDP] returns too; [RequireDP] and [RequireApproxDP] test such
// outputs directly). Values of a [Discrete] mechanism that one dataset
// alone produces, each too rare to be seen often (strings of its own),
// are counted together: when a screening's held-out half draws ten or
// more times the values its first half saw from one side only, twenty
// times as often as the other side, the pair is screened again at the
// confirmation's size, where they fall in one group. Each confirmation
// then bounds that group as one output too, by the two-point divergence
// above at the exact bounds of its counts, and the grouped statistic at
// the other half of its level, and keeps the larger bound (the failure
// text names the group where it is the one that decides); a confirmation
// that counts ten or more outputs of one dataset, and none of the
// other's, in a group of ten or more values (of numbers, with one amid
// the other's outputs) holds no claim early, and a pass names those
// values and b as for an atom.
//
// It fails the test, with a message naming the value, on λ ≤ 1, λ = +Inf,
// λ NaN, ε < 0, ε NaN or ε = +Inf (a claim of nothing), a zero Mechanism,
// a bad option value or an option that does not apply; a mechanism that
// panics or returns NaN or ±Inf fails it with the dataset and the draw's
// index.
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
