// Package dptest states the privacy claims of differentially private
// mechanisms as ordinary Go tests. `go test` runs the mechanism on
// neighbouring datasets found by search, bounds the privacy loss from the
// outputs alone with published statistical lower bounds, and fails the
// test only on a confident violation:
//
//	func TestNoisySum(t *testing.T) {
//		mech := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
//			return sum(x) + 3*r.NormFloat64()
//		})
//		dptest.RequireRDP(t, mech, 2, 2.0/(2*9)) // (λ=2, ε=1/9)-RDP
//	}
//
// A pass means "no confident violation was found", never "proved private".
//
// # Mechanisms
//
//   - [Continuous] wraps a mechanism with real outputs (a density, atoms, or
//     both: clamped and rounded releases are fine).
//   - [Discrete] wraps a mechanism with outputs of any comparable type.
//   - [Vector] wraps a mechanism with vector outputs; the audit learns a
//     score, one number per output, and bounds the claim on it.
//   - [Mechanism.WithPairs], [Mechanism.WithNeighbors] and
//     [Mechanism.WithSimplifier] say where to look, checked by the compiler.
//
// # Assertions
//
//   - [RequireRDP], [CheckRDP], [AuditRDP], [MakeRDP]: (λ, ε)-Rényi DP, by the
//     softmax-floored Rényi lower bound of [KAD24].
//   - [RequireDP], [CheckDP], [AuditDP], [MakeDP]: pure ε-DP, by the local
//     approach of [AKD22], with hockey-stick and Rényi cross-checks.
//   - [RequireApproxDP], [CheckApproxDP], [AuditApproxDP], [MakeApproxDP]:
//     (ε, δ)-DP, by the hockey-stick divergence of one likelihood-ratio
//     event or half-line of outputs, bounded exactly ([KMRS24], Section 3).
//   - [RequireGDP], [CheckGDP], [AuditGDP], [MakeGDP]: μ-Gaussian DP (Dong,
//     Roth and Su 2022), by the Gaussian level Φ⁻¹(P(E)) − Φ⁻¹(Q(E)) of one
//     such event, bounded exactly.
//   - [AuditDataCentricDP]: the privacy level of one fixed dataset against
//     its neighbours ([AKD22], eq. (5)).
//   - [RDPBound], [RDPBoundDiscrete], [CheckRDPSamples],
//     [CheckRDPSamplesDiscrete]: a bound and a check from outputs recorded
//     elsewhere.
//   - [AuditRecordedRDP], [AuditRecordedDP], [AuditRecordedApproxDP],
//     [AuditRecordedGDP]: every claim type audited on outputs recorded
//     elsewhere ([RecordedReal], [RecordedDiscrete], [RecordedVectors]),
//     with the same statistics and verdicts; one record in
//     [RecordedSelectionFraction] chooses the statistic, the rest
//     confirm it. The command cmd/dptest runs them on files.
//
// Require* stops the test on a violation (t.FailNow), Check* reports it and
// returns false (as do the twins in package assert), Audit* returns a
// [Report], Make* returns a func(*testing.T) for t.Run. All of them run the
// same audit and render the same text. Bad input (a refused claim value, a
// bad option value, an option that does not apply to the claim, pairs of
// another dataset type) is an error of the audit, never a panic: Audit*
// return it, the others fail the test with it.
//
// # Statistics
//
// Every audit screens candidate pairs of neighbouring datasets, both
// directions, on a share of its draws. It confirms the leading candidates
// twice on fresh draws, with a one-sided lower bound, and fails only if
// both confirmations exceed the claim. Selection and confirmation never
// share draws. A mechanism that meets its claim fails with probability at
// most α = 1 − confidence, [DefaultConfidence] by default.
//
// The confirmation is sequential. It looks at growing shares of its draws
// and stops once the verdict is settled: a violation, or a resolution
// within [ResolutionFactor] times the claim. Each look spends a share of
// α, and the ledger of shares, printed by -dptest.v, sums to at most α.
// [Nightly] runs every audit to its planned size. [Quick] trades reach
// for calls. The pipeline, each criterion and its guarantee are in
// docs/how-it-works.md.
//
// # DP-Auditorium's testers and finders
//
// [Testers] runs DP-Auditorium's approximate-DP testers ([KMRS24]) in
// place of, or beside ([Own]), a DP or (ε, δ) claim's own criteria, on
// one false-failure budget: [Histogram], [HistogramOver], [Classifier]
// and [MMD]. They only look for violations. [FindPairs] adds its dataset
// finders to the candidates: [GridFinder], [BanditFinder] or
// [RandomFinder] over a [Box] of pairs ([RemoveLast]).
//
// # Verdicts
//
// An audit ends [Holds], [Violated], [Suspect] or [Unresolved]
// ([Report.Verdict]). A claim holds only if the audit could have seen a
// violation: its resolution is within [ResolutionFactor] times the claim,
// and no sign of one remains. Otherwise it ends [Suspect] or
// [Unresolved], with a typed [Reason] and its remedy. A suspect audit
// fails the test. An unresolved one skips a Require* test and lets
// Check* and assert pass, each with a line saying what would resolve the
// claim; [Strict] makes it fail. The reasons are in docs/limits.md.
//
// # Options and flags
//
// [Samples], [Seed], [Confidence], [Candidates], [Verbose], [Pairs],
// [Neighbors], [Simplifier], [Strict], [Nightly], [Resolution], [Quick],
// [Within], [Parallelism], [Context], [OnProgress], [ReportTo], [Label],
// and for DP audits [Region], [Floor] and [Testers]. In the manner of
// rapid, each setting has a flag with a DPTEST_* environment default:
// -dptest.samples, -dptest.seed (a number or "random"),
// -dptest.confidence, -dptest.candidates, -dptest.v, -dptest.strict,
// -dptest.nightly, -dptest.quick, -dptest.report (a directory for HTML
// pages and JSON). Explicit options win
// over flags; go test -short cuts the sample sizes, never the confidence. A
// bad flag value stops the test binary with a message naming the flag; a
// bad environment value fails every audit with one naming the variable.
//
// # Reproducibility
//
// The default seed is derived from the test name and the claim, so a CI gate
// does not flap; every failure prints the line that replays it,
//
//	go test -run="^TestNoisySum$" -dptest.seed=8412973401
//
// and a seed replays an audit bit for bit whatever GOMAXPROCS.
//
// # References
//
// Doc comments cite these papers by key, with section and equation.
//
//   - [KAD24] T. Kutta, Ö. Askin, M. Dunsche. Lower Bounds for Rényi
//     Differential Privacy in a Black-Box Setting. IEEE S&P 2024.
//   - [AKD22] Ö. Askin, T. Kutta, H. Dette. Statistical Quantification of
//     Differential Privacy: A Local Approach. IEEE S&P 2022.
//   - [MTZ19] I. Mironov, K. Talwar, L. Zhang. Rényi Differential Privacy of
//     the Sampled Gaussian Mechanism. 2019.
//   - [KMRS24] W. Kong, A. Muñoz Medina, M. Ribero, U. Syed. DP-Auditorium: a
//     Large Scale Library for Auditing Differential Privacy. IEEE S&P 2024.
//
// [KAD24]: https://arxiv.org/abs/2212.04739
// [AKD22]: https://arxiv.org/abs/2108.09528
// [MTZ19]: https://arxiv.org/abs/1908.10530
// [KMRS24]: https://arxiv.org/abs/2307.05608
package dptest
