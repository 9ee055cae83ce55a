package dptest

import (
	"testing"

	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/tb"
)

// RequireApproxDP checks that m satisfies (ε, δ)-differential privacy and
// stops the test (t.FailNow) if the outputs show, at the configured
// confidence, that it does not. (ε, δ)-DP holds iff the hockey-stick
// divergence
//
//	H_{e^ε}(M(X) ‖ M(Y)) = sup_E P(M(X) ∈ E) − e^ε·P(M(Y) ∈ E) ≤ δ
//
// for all neighbours X, Y, in both directions ([KMRS24], Section 3).
//
// For every candidate pair (found as by [RequireRDP]) and both
// directions, the screening orders the outputs (values, or cells of real
// outputs) by their estimated ratio, and cells of numbers by position too,
// on one half of its draws and chooses, on the other half, the
// likelihood-ratio event E = {p/q > c} or the half-line of outputs whose
// bound it predicts largest; the two leading candidates are confirmed twice on
// fresh draws, which count E, and the bound is the exact lower confidence
// bound of the difference P(E) − e^ε·Q(E) itself: the least difference
// over the probabilities under which the difference of the counted
// frequencies is not in its upper tail, Q(E) kept within its
// Clopper–Pearson interval at a tenth of the level (the test inverted, no
// normal approximation). It is narrower than P(E)₋ − e^ε·Q(E)₊ of two
// one-sided bounds, whose widths add where the difference's add in
// quadrature: up to 1.7 times at the default level for an event both
// datasets produce alike, such as a half-line. An event one dataset produces and the
// other never does (a δ-mass of infinite loss) is reported as such
// (Report.Unbounded).
//
// A pass needs the audit to resolve δ: at n draws per side the bound
// moves by about 2.5·√((P(E) + e^{2ε}·Q(E))/n), and even an event the other
// dataset never produces is bounded only once its count clears
// e^ε·ln(2/α′)/n, so a claim whose δ is below what that resolves (δ = 10⁻⁵
// at a million draws; any δ at ε ≳ 12) ends inconclusive, naming the
// sample size it would take, never passed; so does a pass where outputs
// the screening never saw, drawn by one dataset beyond the other's draws
// of the same values (counted value by value), hold enough of the draws
// to hide a violation.
// With δ = 0 the claim is pure ε-DP, audited and reported exactly as by
// [RequireDP].
//
// It fails the test, with a message naming the value, on ε < 0, ε NaN or
// +Inf, δ outside [0, 1), a zero Mechanism, a bad option value or an
// option that does not apply (Region and Floor apply only at δ = 0, the
// pure-DP audit's).
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

// RequireGDP checks that m satisfies μ-Gaussian differential privacy (Dong,
// Roth and Su, "Gaussian differential privacy", JRSS B 2022): for all
// neighbours X, Y, telling M(X) from M(Y) is at least as hard as telling
// N(0, 1) from N(μ, 1), that is every test of level α has power at most
// 1 − G_μ(α), G_μ(α) = Φ(Φ⁻¹(1 − α) − μ). It stops the test (t.FailNow) if
// the outputs show, at the configured confidence, that it does not.
//
// A test rejecting M(Y) on the event E has level Q(E) and power P(E), so
// μ-GDP implies Φ⁻¹(P(E)) − Φ⁻¹(Q(E)) ≤ μ for every event; the audit finds
// the event as [RequireApproxDP] does (a likelihood-ratio test), confirms
// it twice on fresh draws and bounds
//
//	Φ⁻¹(P(E)₋) − Φ⁻¹(Q(E)₊)
//
// with exact Clopper–Pearson bounds. For the Gaussian mechanism of
// sensitivity Δ and noise σ every such test gives μ = Δ/σ, which the
// estimate recovers. An output that one dataset alone produces is a test
// of level 0 and positive power a, which no finite μ allows, but the
// draws show it only once the least rate at which the claim needs the
// other dataset to produce it, Φ(Φ⁻¹(a) − μ), is within their reach: as
// for [RequireRDP], a repeated value amid the other's outputs that a
// screening saw from one dataset only, ten times or more, makes the audit
// inconclusive if the screening's own draws would refute the claim there,
// and is otherwise named in the success line and [AuditGDP]'s
// [Report.Alone]. Outputs the screening never saw leave a pass
// inconclusive when the draws one dataset made of them beyond the
// other's draws of the same values (counted value by value), were they
// that dataset's alone (tests of level 0, which no finite μ allows),
// could have shown above μ, alone or joined to the claim's own tests of
// some level. Values both datasets draw alike, as the far tails of a
// discrete Laplace mechanism, are no such reason.
// Bad input as for [RequireApproxDP] (μ < 0, NaN or +Inf).
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
