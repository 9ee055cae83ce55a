package dptest

import (
	"fmt"
	"math"
	"testing"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/tb"
)

// RequireDP checks that m satisfies pure ε-differential privacy and stops
// the test (t.FailNow) if the outputs show, at the configured confidence,
// that it does not:
//
//	|ln f_X(t) − ln f_Y(t)| ≤ ε   for all outputs t and neighbours X, Y.
//
// It audits by the local approach of [AKD22]: for every candidate pair
// (found as by [RequireRDP]) and both directions, the screening estimates
// the privacy loss ℓ̂(t) = ln f̂_X(t) − ln f̂_Y(t) with truncated frequency
// estimates (TDDE, Algorithm 2) of values, or of blocks of cells of real
// outputs (a value repeated among real outputs, an atom, is a block of its
// own), over the region C ([Region]) and finds where it peaks (DPL,
// Algorithm 3); the two largest are confirmed twice on fresh samples (MPL,
// Algorithm 4) in an event around the peak, and the bound is eq. (26). The
// event of discrete outputs is the values (or ranges of numbers) whose
// screening loss stays within 10% of the peak; that of real outputs is an
// interval of cells around the peak, grown on one half of the
// screening's draws and chosen on the other for the bound the
// confirmation will give (a loss with a narrow peak is confirmed where it
// stays high, one flat on a half-line over the half-line), both ways: the
// better of the two runs, or the cells both hold where they predict more;
// where the other half shows no loss at the first half's peak, it is the
// blocks of cells within 10% of the peak. The peak is chosen for its
// precision at the screening's size, which favours outputs seen often;
// where one value or block (an atom) of larger loss promises a bound
// above the claim at the confirmation's size, it is confirmed too, each
// event at half the level, and the candidate's bound is the better
// event's in both rounds. So is a value or block that one dataset alone
// produced 20 times or more in the screening, its bound predicted as if
// the other had produced it at the upper confidence bound of a count of
// zero (3.78 draws); this second event may come from another cut of the
// same draws (cells around runs of one dataset's outputs) or, for a
// [Vector], another score's.
//
// Beside it run two cross-checks: the Rényi audit of RequireRDP at order 2
// against the bound ε-DP implies, D_2 ≤ min(ε, 2·2·ε²) ([KMRS24], Lemma
// 4.6), which sees violations spread over many outputs, and the
// hockey-stick audit of [RequireApproxDP] at (ε, 0), which sees outputs
// one dataset alone produces. Each of the three gets a third of the
// false-failure budget, so a mechanism that meets its claim fails with
// probability at most 1 − confidence.
//
// It fails the test, with a message naming the value, on ε < 0, ε NaN or
// ε = +Inf, a zero Mechanism, a bad option value or an option that does
// not apply; a mechanism that panics or returns NaN or ±Inf fails it with
// the dataset and the draw's index.
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
