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
//     with the same statistics and verdicts; a quarter of the records
//     chooses the statistic, the rest confirms it. The command
//     cmd/dptest runs them on files.
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
// Every assertion screens candidate pairs of neighbouring datasets (both
// directions of each) on modest samples (with a generator, five times as
// many more on small samples, promoting to a full screening at most two
// that clearly beat the best candidate: Report.WideScreened), then
// confirms the two most
// divergent (pair, direction) candidates twice each on fresh samples, with a
// lower bound at level α′ = √(α/2) per confirmation. It fails iff both
// confirmations of a candidate exceed the claim, so a mechanism that meets
// its claim fails with probability at most α = 1 − confidence (10⁻⁴ by
// default), and the normal approximations behind the bounds are needed only
// at α′ ≈ 0.7%. Selection and confirmation never share samples. The
// confirmation is sequential: it first looks at about a tenth of its draws
// (whole blocks of 8,192), with a tenth of α (α′ ≈ 0.22%), and stops
// there if the claim is already violated, or held with margin (every
// screened and confirmed upper bound, estimate + 2.33 standard errors,
// under 80% of the claim, no evidence leaning on the tails, and for RDP an
// order λ ≤ 8); otherwise it continues the same draws to the full size
// with the other nine tenths, so a claim at the mechanism's truth costs no
// more calls (except in an audit of given pairs only, which may deepen,
// below) and a union bound keeps the total at α. An audit of only the
// pairs it was given ([Pairs] or [Mechanism.WithPairs], with no generated
// candidates and no [FindPairs]) whose local audit, (ε, δ) claim's
// hockey-stick event or GDP claim's Gaussian event is not decided at the
// early look screens its leading pairs again on half the confirming draws,
// and confirms the new events instead of the old, all or none, if an
// audition of both on the same fresh draws predicts the new a better bound
// (deep screening: an event placed more tightly about a narrow peak of the
// loss, for a fifth to a half more calls at a claim near its truth; the
// report's DeepScreened says when). The report's EarlyLook says which look
// decided. A DP claim splits α in three, between its local audit and its
// hockey-stick and Rényi cross-checks; the report's Settings list the
// split. The
// hockey-stick cross-check claims δ = 0, which no upper bound can lie
// under a share of: it holds early when every likelihood-ratio test beside
// its event shows its log-ratio, estimate + 2.33 standard errors, inside ε,
// and no test counts outputs of one dataset alone. With [Quick] an audit
// first looks quickly (an eighth of the screening, a fortieth of the
// confirmation, 5% of α) and decides claims far from the truth there, for
// four to seven times fewer calls, at the price of a screening that sees
// rare outputs less well (Report.QuickLook). The
// approximate-DP and Gaussian-DP bounds need no normal approximation at
// all: an exact bound of one event's P(E) − e^ε·Q(E) (an exact test of
// the difference, inverted), and exact Clopper–Pearson bounds on its two
// probabilities for Gaussian DP. A Rényi confirmation bounds either cells grouped
// by their ratio (the plug-in of [KAD24]) or one event of the most telling
// outputs, exactly (Clopper–Pearson bounds on its two probabilities, valid
// at any count, infinite loss included); the screening chooses, per
// direction, on draws it did not choose the cells with.
//
// # DP-Auditorium's testers
//
// [Testers] runs DP-Auditorium's approximate-DP testers ([KMRS24],
// Section 4.2) in place of, or beside ([Own]), a DP or (ε, δ) claim's own
// criteria, on the same engine (screened candidates, fresh confirmations)
// and one false-failure budget split between them: [Histogram] (or
// [HistogramOver] with the output range), [Classifier] and [MMD], each bounding
// the hockey-stick divergence with its own stated guarantee. They only
// look for violations: an audit of testers alone passes nothing.
//
// [FindPairs] adds [KMRS24]'s dataset finders (Section 5) to the
// candidates: a [GridFinder], a Gaussian-process [BanditFinder] or a
// [RandomFinder] over a [Box] of pairs ([RemoveLast] is DP-Auditorium's),
// screened one trial at a time, each screening's rank fed back. They only
// choose what is screened, so the false-failure bound is unchanged.
//
// # Verdicts
//
// An audit ends [Holds], [Violated], [Suspect] or [Unresolved]
// ([Report.Verdict]). A claim that is not violated holds only if the
// audit could have seen a violation: the holds line states the resolution (the smallest value
// of the confirmed statistic the confirmations would have caught with
// probability about 90%: for a pure-DP claim, the loss averaged over its
// event's outputs, which a narrower peak can exceed),
// and an audit whose resolution exceeds 1.5 times the claim, whose order-λ
// evidence lies mostly beyond the most extreme outputs it saw, at the ends
// of its outputs or beside a gap in them (or rests on them: without them
// it falls tenfold), whose discrete outputs repeat too
// rarely to be screened one by one even at the confirmation's size (for
// a Rényi audit of outputs without an order, strings or structs: a
// hundredth of the draws or more on values seen fewer than a dozen times
// each, too few for their ratios to be told apart), whose
// screening saw the claim exceeded on held-out draws far beyond its noise
// while the confirmations, leaning on the tails, stay below it, or whose
// time ran out ([Within], the test's deadline) does not hold: it ends
// [Suspect] or [Unresolved], by its typed [Reason]. A suspect audit fails
// the test. An unresolved one skips a Require* test and lets Check* and
// assert pass, each with a line saying what was verified and what would
// resolve the claim; [Strict] makes it fail.
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
