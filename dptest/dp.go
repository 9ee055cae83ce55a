package dptest

import (
	"fmt"
	"math"
	"testing"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/tb"
)

// RequireDP checks that m satisfies pure ε-differential privacy,
// |ln f_X(t) − ln f_Y(t)| ≤ ε for all outputs t and neighbours X, Y, and
// stops the test if the outputs show otherwise.
//
// It estimates the privacy-loss curve and confirms its peak ([AKD22]).
// Beside it run a Rényi cross-check at order [CrossCheckOrder] and a
// hockey-stick check at δ = 0, which see other kinds of violation. They
// share the budget.
//
//   - Holds, Violated, Suspect and Unresolved as for [RequireRDP].
//
// Options as for [RequireRDP], and [Region], [Floor] and [Testers].
// Bad claims (ε < 0, NaN, +Inf) fail the test with the value named.
// See docs/how-it-works.md and docs/limits.md.
func RequireDP[D any](t TestingT, m Mechanism[D], eps float64, opts ...Option) {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	require(t, m, dpClaim(eps), opts)
}

// CheckDP is the non-fatal form of [RequireDP] (also available as
// assert.DP).
func CheckDP[D any](t CheckT, m Mechanism[D], eps float64, opts ...Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	return check(t, m, dpClaim(eps), opts)
}

// AuditDP runs the audit of [RequireDP] outside a test and returns its
// report: the local audit's estimate, bound, witness, the output t̂ where the
// loss peaks and the loss curve; the hockey-stick and Rényi cross-checks
// in CrossChecks. Errors as for [AuditRDP].
func AuditDP[D any](m Mechanism[D], eps float64, opts ...Option) (Report, error) {
	return audit(m, dpClaim(eps), opts, env{logf: stderrLogger})
}

// MakeDP returns a test function asserting the claim, for t.Run.
func MakeDP[D any](m Mechanism[D], eps float64, opts ...Option) func(*testing.T) {
	return func(t *testing.T) {
		t.Helper()
		require(t, m, dpClaim(eps), opts)
	}
}

func dpClaim(eps float64) plan.Claim { return plan.Claim{Kind: plan.KindDP, Eps: eps} }

// AuditDataCentricDP bounds the data-centric privacy level of one dataset x
// ([AKD22], eq. (5)),
//
//	ε_x = sup over neighbours x′ of ε_{x,x′},
//
// from below over the given neighbours, by the local audit of [RequireDP]
// on the pairs (x, x′) in both directions. The report's LowerBound holds
// with the configured confidence and its Witness is the pair attaining it;
// Claimed is +Inf and Violated false (nothing is claimed). Only Samples,
// Seed, Confidence, Region, Floor, Verbose, Strict and Context
// apply; any other option, pairs or neighbours attached to the mechanism
// (WithPairs, WithNeighbors), no neighbours or a zero Mechanism is an
// error.
func AuditDataCentricDP[D any](m Mechanism[D], x D, neighbours []D, opts ...Option) (Report, error) {
	if len(m.pairs) > 0 || m.gen != nil {
		return Report{Claim: Claim{Kind: plan.KindDataCentric, Value: math.Inf(1)}}, fmt.Errorf("dptest: AuditDataCentricDP audits x against its neighbours; the mechanism's WithPairs and WithNeighbors do not apply")
	}
	pairs := make([]fixtures.Pair[D], len(neighbours))
	for i, n := range neighbours {
		pairs[i] = fixtures.Pair[D]{X: x, Y: n}
	}
	m.pairs, m.gen = pairs, nil
	return audit(m, plan.Claim{Kind: plan.KindDataCentric, Neighbours: len(neighbours)}, opts, env{logf: stderrLogger})
}
