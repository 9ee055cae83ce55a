// Package assert holds the non-fatal twins of dptest's assertions, in the
// manner of testify's assert and require: each reports a violation with
// t.Errorf, returns false and lets the test go on, where dptest.RequireX
// stops the test.
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
	"fmt"
	"strconv"

	"github.com/dptest/dptest/dptest"
)

// RDP reports whether no confident violation of (λ, ε)-Rényi DP by m was
// found; see dptest.RequireRDP for the search and the statistics.
func RDP[D any](t dptest.TestingT, m dptest.Mechanism[D], lambda, eps float64, opts ...dptest.Option) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	return dptest.CheckRDP(t, m, lambda, eps, opts...)
}

// DP reports whether no confident violation of pure ε-DP by m was found;
// see dptest.RequireDP for the search and the statistics.
func DP[D any](t dptest.TestingT, m dptest.Mechanism[D], eps float64, opts ...dptest.Option) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	return dptest.CheckDP(t, m, eps, opts...)
}

// RDPSamples checks D_λ(P ‖ Q) ≤ ε against real outputs xs ∼ P and ys ∼ Q
// recorded on two neighbouring datasets: it fails (t.Errorf, false) if the
// lower bound of dptest.RDPBound exceeds ε, or if the bound cannot be
// computed. Both directions matter: to check the claim for the pair, call it
// also with the samples swapped.
func RDPSamples(t dptest.TestingT, xs, ys []float64, lambda, eps float64, opts ...dptest.Option) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	b, err := dptest.RDPBound(xs, ys, lambda, opts...)
	return verdict(t, b, err, lambda, eps)
}

// RDPSamplesDiscrete is [RDPSamples] for discrete outputs of any comparable
// type.
func RDPSamplesDiscrete[O comparable](t dptest.TestingT, xs, ys []O, lambda, eps float64, opts ...dptest.Option) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	b, err := dptest.RDPBoundDiscrete(xs, ys, lambda, opts...)
	return verdict(t, b, err, lambda, eps)
}

func verdict(t dptest.TestingT, b dptest.Bound, err error, lambda, eps float64) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	claim := fmt.Sprintf("(λ=%s, ε=%s)-RDP", g4(lambda), g4(eps))
	if err != nil {
		t.Errorf("[dptest] %s could not be checked on the samples: %v", claim, err)
		return false
	}
	if b.LowerBound > eps {
		t.Errorf("[dptest] %s violated by the samples at %s%% confidence\n    lower bound:  %s   (estimate %s ± %s, %d and %d samples)",
			claim, strconv.FormatFloat(100*b.Confidence, 'g', 6, 64), g4(b.LowerBound), g4(b.Estimate), g4(b.StdErr), b.NX, b.NY)
		return false
	}
	if l, ok := t.(interface{ Logf(string, ...any) }); ok {
		l.Logf("[dptest] %s holds on the samples: lower bound %s (estimate %s)", claim, g4(b.LowerBound), g4(b.Estimate))
	}
	return true
}

func g4(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
