// Package assert holds the non-fatal twins of dptest's assertions, in the
// manner of testify's assert and require: each reports a violation with
// t.Errorf, returns false and lets the test go on, where dptest.RequireX
// stops the test. Each is a thin wrapper over dptest's Check form, so the
// audit, the failure text and the reproduce line are the same.
//
//	if !assert.RDP(t, mech, 2, 0.1) {
//		t.Log("see the witness above")
//	}
//
// It also holds sample-level assertions for outputs recorded elsewhere:
// [RDPSamples] and [RDPSamplesDiscrete] check a Rényi-DP claim against two
// samples of outputs, drawn on neighbouring datasets by another system.
package assert

import (
	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/internal/tb"
)

// TestingT is what the assertions need of a test: a way to report an
// error. *testing.T, *testing.B, *testing.F and *rapid.T satisfy it; so
// does any value with Errorf.
type TestingT = dptest.CheckT

// RDP reports whether no confident violation of (λ, ε)-Rényi DP by m was
// found; see dptest.RequireRDP for the search, the statistics and the
// refused values.
func RDP[D any](t TestingT, m dptest.Mechanism[D], lambda, eps float64, opts ...dptest.Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	return dptest.CheckRDP(t, m, lambda, eps, opts...)
}

// DP reports whether no confident violation of pure ε-DP by m was found;
// see dptest.RequireDP.
func DP[D any](t TestingT, m dptest.Mechanism[D], eps float64, opts ...dptest.Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	return dptest.CheckDP(t, m, eps, opts...)
}

// ApproxDP reports whether no confident violation of (ε, δ)-DP by m was
// found; see dptest.RequireApproxDP.
func ApproxDP[D any](t TestingT, m dptest.Mechanism[D], eps, delta float64, opts ...dptest.Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	return dptest.CheckApproxDP(t, m, eps, delta, opts...)
}

// GDP reports whether no confident violation of μ-Gaussian DP by m was
// found; see dptest.RequireGDP.
func GDP[D any](t TestingT, m dptest.Mechanism[D], mu float64, opts ...dptest.Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	return dptest.CheckGDP(t, m, mu, opts...)
}

// RDPSamples checks D_λ(P ‖ Q) ≤ ε against real outputs xs ∼ P and ys ∼ Q
// recorded on two neighbouring datasets; see dptest.CheckRDPSamples.
func RDPSamples(t TestingT, xs, ys []float64, lambda, eps float64, opts ...dptest.Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	return dptest.CheckRDPSamples(t, xs, ys, lambda, eps, opts...)
}

// RDPSamplesDiscrete is [RDPSamples] for discrete outputs of any comparable
// type.
func RDPSamplesDiscrete[O comparable](t TestingT, xs, ys []O, lambda, eps float64, opts ...dptest.Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	return dptest.CheckRDPSamplesDiscrete(t, xs, ys, lambda, eps, opts...)
}
