package dptest

import (
	"testing"

	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/tb"
)

// RequireApproxDP checks that m satisfies (ε, δ)-differential privacy: the
// hockey-stick divergence H_{e^ε}(M(X) ‖ M(Y)) ≤ δ for all neighbours, in
// both directions ([KMRS24]). It stops the test if the outputs show
// otherwise.
//
// It finds a likelihood-ratio event on screening draws and bounds
// P(E) − e^ε·Q(E) exactly on fresh draws. A δ too small for the sample
// is unresolved, with the size it would take (docs/limits.md).
// With δ = 0 the claim is pure ε-DP, audited as by [RequireDP].
//
//   - Holds, Violated, Suspect and Unresolved as for [RequireRDP].
//
// Options as for [RequireRDP]. Bad claims (ε < 0, δ outside [0, 1)) fail
// the test. See docs/how-it-works.md and docs/limits.md.
func RequireApproxDP[D any](t TestingT, m Mechanism[D], eps, delta float64, opts ...Option) {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	require(t, m, approxDPClaim(eps, delta), opts)
}

// CheckApproxDP is the non-fatal form of [RequireApproxDP] (also available
// as assert.ApproxDP).
func CheckApproxDP[D any](t CheckT, m Mechanism[D], eps, delta float64, opts ...Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	return check(t, m, approxDPClaim(eps, delta), opts)
}

// AuditApproxDP runs the audit of [RequireApproxDP] outside a test and
// returns its report: Claimed is δ, Eps is ε, Estimate and LowerBound are
// of H_{e^ε} on the witness. Errors as for [AuditRDP].
func AuditApproxDP[D any](m Mechanism[D], eps, delta float64, opts ...Option) (Report, error) {
	return audit(m, approxDPClaim(eps, delta), opts, env{logf: stderrLogger})
}

// MakeApproxDP returns a test function asserting the claim, for t.Run.
func MakeApproxDP[D any](m Mechanism[D], eps, delta float64, opts ...Option) func(*testing.T) {
	return func(t *testing.T) {
		t.Helper()
		require(t, m, approxDPClaim(eps, delta), opts)
	}
}

// approxDPClaim is the claim (ε, δ)-DP; with δ = 0 it is pure ε-DP,
// audited and reported as RequireDP's (its options, Region and Floor
// included).
func approxDPClaim(eps, delta float64) plan.Claim {
	if delta == 0 {
		return dpClaim(eps)
	}
	return plan.Claim{Kind: plan.KindApproxDP, Eps: eps, Delta: delta}
}

// RequireGDP checks that m satisfies μ-Gaussian differential privacy:
// every test of M(X) against M(Y) has power at most that of N(0, 1)
// against N(μ, 1), Φ(Φ⁻¹(α) + μ) at level α. It stops the test if the
// outputs show otherwise.
//
// It finds an event as [RequireApproxDP] does and bounds
// Φ⁻¹(P(E)) − Φ⁻¹(Q(E)) with exact Clopper–Pearson bounds on fresh draws.
// For the Gaussian mechanism every such test recovers μ = Δ/σ.
//
//   - Holds, Violated, Suspect and Unresolved as for [RequireRDP].
//
// Options as for [RequireRDP]. Bad claims (μ < 0, NaN, +Inf) fail the
// test. See docs/how-it-works.md and docs/limits.md.
func RequireGDP[D any](t TestingT, m Mechanism[D], mu float64, opts ...Option) {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	require(t, m, gdpClaim(mu), opts)
}

// CheckGDP is the non-fatal form of [RequireGDP] (also available as
// assert.GDP).
func CheckGDP[D any](t CheckT, m Mechanism[D], mu float64, opts ...Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	return check(t, m, gdpClaim(mu), opts)
}

// AuditGDP runs the audit of [RequireGDP] outside a test and returns its
// report: Claimed is μ; Estimate and LowerBound are the Gaussian-DP level
// Φ⁻¹(P(E)) − Φ⁻¹(Q(E)) of the witness's event. Errors as for [AuditRDP].
func AuditGDP[D any](m Mechanism[D], mu float64, opts ...Option) (Report, error) {
	return audit(m, gdpClaim(mu), opts, env{logf: stderrLogger})
}

// MakeGDP returns a test function asserting the claim, for t.Run.
func MakeGDP[D any](m Mechanism[D], mu float64, opts ...Option) func(*testing.T) {
	return func(t *testing.T) {
		t.Helper()
		require(t, m, gdpClaim(mu), opts)
	}
}

func gdpClaim(mu float64) plan.Claim { return plan.Claim{Kind: plan.KindGDP, Mu: mu} }
