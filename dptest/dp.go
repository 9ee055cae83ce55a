package dptest

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/search"
)

// CrossCheckOrder is the Rényi order of the cross-check of a DP audit.
const CrossCheckOrder = 2

// RequireDP checks that m satisfies pure ε-differential privacy and stops
// the test (t.FailNow) if the outputs show, at the configured confidence,
// that it does not:
//
//	|ln f_X(t) − ln f_Y(t)| ≤ ε   for all outputs t and neighbours X, Y.
//
// It audits by the local approach of [AKD22]: for every candidate pair
// (found as by [RequireRDP]) and both directions, the screening estimates
// the privacy loss ℓ̂(t) = ln f̂_X(t) − ln f̂_Y(t) with truncated density
// estimates (TDDE for discrete outputs, TKDE for real ones, Algorithms 1–2)
// over the region C ([Region]) and finds where it peaks (DPL, Algorithm 3);
// the two largest are confirmed twice on fresh samples at that output (MPL,
// Algorithm 4): for real outputs the event is the interval of one bandwidth
// around t̂, for discrete ones the value itself, and the bound is eq. (26).
//
// Beside it runs the Rényi audit of RequireRDP at order 2 against the bound
// ε-DP implies, D_2 ≤ min(ε, 2·2·ε²) (DP-Auditorium, Lemma 4.6), which sees
// violations spread over many outputs. Each audit gets half of the
// false-failure budget, so a mechanism that meets its claim fails with
// probability at most 1 − confidence.
//
// It panics on ε < 0 or NaN; a mechanism that panics or returns NaN or ±Inf
// fails the test with the dataset and the draw's index.
func RequireDP[D any](t TestingT, m Mechanism[D], eps float64, opts ...Option) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	if CheckDP(t, m, eps, opts...) {
		return
	}
	t.FailNow()
}

// CheckDP is the non-fatal form of [RequireDP] (also available as
// assert.DP).
func CheckDP[D any](t TestingT, m Mechanism[D], eps float64, opts ...Option) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	mustEps(eps)
	mustMechanism(m)
	cfg := resolve(opts)
	rep, err := auditDP(m, eps, cfg, testName(t), logger(t))
	return verdict(t, rep, err)
}

// AuditDP runs the audit of [RequireDP] outside a test and returns its
// report: the local audit's estimate, bound, witness, the output t̂ where the
// loss peaks and the loss curve; the Rényi cross-check in CrossCheck.
func AuditDP[D any](m Mechanism[D], eps float64, opts ...Option) (Report, error) {
	mustEps(eps)
	mustMechanism(m)
	cfg := resolve(opts)
	return auditDP(m, eps, cfg, "", stderrLogger(cfg))
}

// MakeDP returns a test function asserting the claim, for t.Run.
func MakeDP[D any](m Mechanism[D], eps float64, opts ...Option) func(*testing.T) {
	mustEps(eps)
	return func(t *testing.T) {
		t.Helper()
		RequireDP(t, m, eps, opts...)
	}
}

// AuditDataCentricDP bounds the data-centric privacy level of one dataset x
// ([AKD22], eq. (5)),
//
//	ε_x = sup over neighbours x′ of ε_{x,x′},
//
// from below over the given neighbours, by the local audit of [RequireDP]
// on the pairs (x, x′) in both directions. The report's LowerBound holds
// with the configured confidence and its Witness is the pair attaining it;
// Claimed is +Inf and Violated false (nothing is claimed). Only Samples,
// Seed, Confidence, Region, Floor and Verbose apply.
func AuditDataCentricDP[D any](m Mechanism[D], x D, neighbours []D, opts ...Option) (Report, error) {
	mustMechanism(m)
	if len(neighbours) == 0 {
		panic("dptest: AuditDataCentricDP needs at least one neighbour")
	}
	cfg := resolve(opts)
	pairs := make([]fixtures.Pair[D], len(neighbours))
	for i, n := range neighbours {
		pairs[i] = fixtures.Pair[D]{X: x, Y: n}
	}
	cfg.pairs = []any{pairs}
	cfg.neighbors = nil
	cfg.candidates = 0
	if !cfg.seedSet {
		cfg.seed = deriveSeed("data-centric", 0, float64(len(neighbours)))
	}
	cl := claim{kind: kindDP, eps: math.Inf(1), alpha: 1 - cfg.confidence}
	rep, _, err := run(search.DP(m.impl, localParams(cfg), 0), cl, cfg, cfg.seed, "", stderrLogger(cfg))
	return rep, err
}

func localParams(cfg config) search.LocalParams {
	return search.LocalParams{Region: cfg.region, Tau: cfg.floor}
}

func auditDP[D any](m Mechanism[D], eps float64, cfg config, name string, logf func(string, ...any)) (Report, error) {
	if !cfg.seedSet {
		cfg.seed = deriveSeed(name+"|DP", 0, eps)
	}
	alpha := 1 - cfg.confidence
	rep, _, err := run(search.DP(m.impl, localParams(cfg), 0), claim{kind: kindDP, eps: eps, alpha: alpha / 2}, cfg, cfg.seed, name, logf)
	if err != nil || rep.Violated {
		return rep, err
	}
	implied := math.Min(eps, 2*CrossCheckOrder*eps*eps)
	cross, _, err := run(search.RDP(m.impl, CrossCheckOrder, 0), claim{kind: kindRDP, lambda: CrossCheckOrder, eps: implied, alpha: alpha / 2},
		cfg, crossSeed(cfg.seed), name, logf)
	rep.CrossCheck = &cross
	rep.Elapsed += cross.Elapsed
	if err != nil {
		return rep, err
	}
	rep.Violated = cross.Violated
	return rep, nil
}

// crossSeed derives the Rényi cross-check's seed from the audit's, so that
// the two audits draw independent samples and one seed replays both.
func crossSeed(seed uint64) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|rényi cross-check", seed)
	return h.Sum64()
}

func mustEps(eps float64) {
	if !(eps >= 0) || math.IsInf(eps, 1) {
		panic(fmt.Sprintf("dptest: ε must be ≥ 0 and finite, got %v", eps))
	}
}

func mustMechanism[D any](m Mechanism[D]) {
	if !m.valid() {
		panic("dptest: zero Mechanism; build one with Continuous or Discrete")
	}
}
