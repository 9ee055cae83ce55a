// Package dptest states the privacy claims of differentially private
// mechanisms as ordinary Go tests. `go test` runs the mechanism on
// neighbouring datasets found by search, estimates the privacy loss from the
// outputs alone with published statistical lower bounds, and
// fails the test only on a confident violation:
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
//
// # Assertions
//
//   - [RequireRDP], [CheckRDP], [AuditRDP], [MakeRDP]: (λ, ε)-Rényi DP, by the
//     softmax-floored Rényi lower bound of [KAD24].
//   - [RequireDP], [CheckDP], [AuditDP], [MakeDP]: pure ε-DP, by the local
//     approach of [AKD22], with a Rényi cross-check.
//   - [AuditDataCentricDP]: the privacy level of one fixed dataset against
//     its neighbours ([AKD22], eq. (5)).
//   - [RDPBound], [RDPBoundDiscrete]: a lower bound from outputs recorded
//     elsewhere; package assert has the matching assertions.
//
// Require* stops the test on a violation (t.FailNow), Check* reports it and
// returns false (as do the twins in package assert), Audit* returns a
// [Report], Make* returns a func(*testing.T) for t.Run.
//
// # Statistics
//
// Every assertion screens candidate pairs of neighbouring datasets (both
// directions of each) on modest samples, then confirms the two most
// divergent (pair, direction) candidates twice each on fresh samples, with a
// lower bound at level α′ = √(α/2) per confirmation. It fails iff both
// confirmations of a candidate exceed the claim, so a mechanism that meets
// its claim fails with probability at most α = 1 − confidence (10⁻⁴ by
// default), and the normal approximations behind the bounds are needed only
// at α′ ≈ 0.7%. Selection and confirmation never share samples.
//
// # Options and flags
//
// [Samples], [Seed], [Confidence], [Pairs], [Neighbors], [Candidates],
// [Verbose], and for DP audits [Region] and [Floor]. In the manner of rapid,
// each has a flag with a DPTEST_* environment default: -dptest.samples,
// -dptest.seed (a number or "random"), -dptest.confidence,
// -dptest.candidates, -dptest.v. Explicit options win over flags; go test
// -short cuts the sample sizes, never the confidence.
//
// # Reproducibility
//
// The default seed is derived from the test name and the claim, so a CI gate
// does not flap; every failure prints the line that replays it,
//
//	go test -run="^TestNoisySum$" -dptest.seed=8412973401
//
// and a seed replays an audit bit for bit whatever GOMAXPROCS.
package dptest
