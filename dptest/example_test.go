package dptest_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/mechanisms"
)

// A Rényi-DP claim stated as an ordinary test: the noisy sum of ten records
// in [0,1] with Gaussian noise of standard deviation 3 is (2, 1/9)-RDP.
func ExampleRequireRDP() {
	_ = func(t *testing.T) { // func TestNoisySum(t *testing.T)
		mech := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
			s := 0.0
			for _, v := range x {
				s += v
			}
			return s + 3*r.NormFloat64()
		})
		dptest.RequireRDP(t, mech, 2, 2.0/(2*9)) // (λ=2, ε=1/9)-RDP
	}
	// Output:
}

// AuditRDP runs the same audit outside a test and returns the report. Here
// the claim understates the divergence of the Gaussian mechanism (σ = 1 has
// RDP λ/2 = 1 at λ = 2), and the report carries the witness.
func ExampleAuditRDP() {
	g := mechanisms.Gaussian{Sigma: 1}
	rep, err := dptest.AuditRDP(dptest.Continuous(g.Sample), 2, 0.5,
		dptest.Seed(1), dptest.Samples(50_000), dptest.Candidates(5))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("violated:", (rep.Verdict == dptest.Violated))
	fmt.Println("bound above the claim:", rep.LowerBound > 0.5, "and below the truth:", rep.LowerBound < g.RDP(2))
	w, _ := dptest.WitnessOf[[]float64](rep)
	differ := 0
	for i := range w.X {
		if w.X[i] != w.Y[i] {
			differ++
		}
	}
	fmt.Println("the witness differs in", differ, "record of", len(w.X))
	// Output:
	// violated: true
	// bound above the claim: true and below the truth: true
	// the witness differs in 1 record of 10
}

// Datasets of any type can be audited once the neighbouring pairs are given:
// here a histogram query over counts, with Laplace noise on each bin, whose
// neighbours differ by one in one bin.
func ExamplePairs() {
	type histogram [3]int
	mech := dptest.Discrete(func(r *rand.Rand, h histogram) int {
		// Report noisy max of the bins with Lap(2/ε) noise, ε = 1.
		best, arg := 0.0, 0
		for i, c := range h {
			v := float64(c) + 2*r.ExpFloat64()*float64(1-2*r.IntN(2))
			if i == 0 || v > best {
				best, arg = v, i
			}
		}
		return arg
	})
	rep, err := dptest.AuditRDP(mech, 2, 1, // ε-DP implies (λ, ε)-RDP
		dptest.Pairs(
			fixtures.Pair[histogram]{X: histogram{1, 0, 0}, Y: histogram{0, 0, 0}},
			fixtures.Pair[histogram]{X: histogram{1, 0, 0}, Y: histogram{1, 1, 0}},
		),
		dptest.Seed(2), dptest.Samples(50_000))
	fmt.Println((rep.Verdict == dptest.Violated), err)
	// Output:
	// false <nil>
}

// Property-based candidates: a rapid generator of add/remove neighbours for
// the private mean with a private count of [KMRS24] (ε = 1, so its RDP at any
// order is at most ε).
func ExampleNeighbors() {
	m := mechanisms.DPMean{Eps: 1}
	rep, err := dptest.AuditRDP(dptest.Continuous(m.Sample), 2, m.Epsilon(),
		dptest.Neighbors(fixtures.AddRemove(rapid.SampledFrom([]float64{0, 1}), 1, 4)),
		dptest.Candidates(10), dptest.Seed(3), dptest.Samples(50_000))
	fmt.Println((rep.Verdict == dptest.Violated), err, rep.Details.PairsSearched)
	// Output:
	// false <nil> 10
}

// MakeRDP builds a subtest for t.Run.
func ExampleMakeRDP() {
	_ = func(t *testing.T) {
		for _, sigma := range []float64{1, 2, 5} {
			g := mechanisms.Gaussian{Sigma: sigma}
			t.Run(fmt.Sprint("sigma=", sigma), dptest.MakeRDP(dptest.Continuous(g.Sample), 5, g.RDP(5)))
		}
	}
	// Output:
}

// RDPBound bounds the divergence between two samples of outputs recorded
// elsewhere, here from N(1, 1) and N(0, 1), whose D₂ is 1.
func ExampleRDPBound() {
	r := rand.New(rand.NewPCG(1, 2))
	xs, ys := make([]float64, 100_000), make([]float64, 100_000)
	for i := range xs {
		xs[i] = 1 + r.NormFloat64()
		ys[i] = r.NormFloat64()
	}
	b, err := dptest.RDPBound(xs, ys, 2, dptest.Confidence(0.95))
	fmt.Printf("%.1f %v %v\n", b.Estimate, b.LowerBound < 1, err)
	// Output:
	// 1.0 true <nil>
}

// AuditDP audits a pure-DP claim by the local approach of [AKD22] and names
// the output where the privacy loss peaks. The Laplace mechanism with scale
// 1/ε is ε-DP; with half that noise the loss doubles.
func ExampleAuditDP() {
	eps := 0.7
	broken := mechanisms.Laplace{B: 0.5 / eps}
	rep, err := dptest.AuditDP(dptest.Continuous(broken.Sample), eps,
		dptest.Seed(7), dptest.Samples(50_000), dptest.Candidates(3))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("violated:", (rep.Verdict == dptest.Violated))
	fmt.Printf("loss bound above %.1f: %v; the peak lies outside the means [0, 1]: %v\n",
		eps, rep.LowerBound > eps, rep.Details.Location.(float64) < 0 || rep.Details.Location.(float64) > 1)
	// Output:
	// violated: true
	// loss bound above 0.7: true; the peak lies outside the means [0, 1]: true
}

// AuditApproxDP audits an (ε, δ)-DP claim through the hockey-stick
// divergence. The Gaussian mechanism of sensitivity 1 and σ = 0.5 has the
// exact δ(1) = Φ(1 − 0.5) − e·Φ(−1 − 0.5) ≈ 0.51 (Balle and Wang 2018);
// a claim of δ = 0.3 at ε = 1 is violated.
func ExampleAuditApproxDP() {
	gauss := mechanisms.Gaussian{Sigma: 0.5}
	rep, err := dptest.AuditApproxDP(dptest.Continuous(gauss.Sample), 1, 0.3,
		dptest.Seed(7), dptest.Samples(50_000), dptest.Candidates(3))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Claim.Kind, "violated:", (rep.Verdict == dptest.Violated))
	fmt.Printf("δ bound between 0.45 and 0.51: %v\n", rep.LowerBound > 0.45 && rep.LowerBound < 0.51)
	// Output:
	// ApproxDP violated: true
	// δ bound between 0.45 and 0.51: true
}

// AuditGDP audits a μ-Gaussian-DP claim; for the Gaussian mechanism every
// threshold test has the level μ = Δ/σ, which the estimate recovers.
func ExampleAuditGDP() {
	gauss := mechanisms.Gaussian{Sigma: 0.5}
	rep, err := dptest.AuditGDP(dptest.Continuous(gauss.Sample), 2,
		dptest.Seed(8), dptest.Samples(200_000), dptest.Candidates(3))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Claim.Kind, "violated:", (rep.Verdict == dptest.Violated))
	fmt.Printf("μ estimate %.1f\n", rep.Estimate)
	// Output:
	// GDP violated: false
	// μ estimate 2.0
}

// Vector audits a mechanism with vector outputs. The Gaussian mechanism on
// a query whose change of ℓ2 norm 1 spreads over three coordinates has
// D₂ = 2/(2σ²) = 1 at σ = 1, though each coordinate alone shows a third of
// it; the learned linear discriminant sees all of it, and a claim of 0.5
// fails.
func ExampleVector() {
	g := mechanisms.GaussianVector{D: 3, K: 3, Sigma: 1}
	rep, err := dptest.AuditRDP(dptest.Vector(g.Sample), 2, 0.5,
		dptest.Seed(9), dptest.Samples(100_000), dptest.Candidates(3))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("violated:", (rep.Verdict == dptest.Violated))
	fmt.Printf("bound above 0.8: %v\n", rep.LowerBound > 0.8)
	fmt.Println(rep.Details.Score[:40])
	// Output:
	// violated: true
	// bound above 0.8: true
	// linear discriminant over 3 of 3 coordina
}

// A mechanism whose noise comes from a slow source (here a remote service,
// stood in for by a function) can be audited within a time budget: the
// audit measures the first calls, fits its sample size to the budget (the
// reproduce line names it) and ends inconclusive rather than pass when it
// cannot decide in time. Parallelism runs more calls at once for a
// mechanism that waits rather than computes.
func ExampleWithin() {
	_ = func(t *testing.T) { // func TestRemoteLaplace(t *testing.T)
		remoteNoise := func() float64 { return 0 } // a call to the service
		mech := dptest.Continuous(func(_ *rand.Rand, x []float64) float64 {
			s := 0.0
			for _, v := range x {
				s += v
			}
			return s + remoteNoise()
		})
		dptest.RequireDP(t, mech, 1, dptest.Within(30*time.Second), dptest.Parallelism(16))
	}
	// Output:
}

// With room to spare between the claim and the mechanism, or a violation by
// a wide margin, an audit with Quick decides at its quick look: the candidates
// screened on an eighth of the screening's draws and confirmed on a
// fortieth of the planned confirmation's. Closer to the truth it decides
// at a look of the sequential confirmation, after the full screening, on
// about a tenth of the planned draws, the screening's size. The report says which
// and counts the calls.
func ExampleReport_earlyLook() {
	lap := mechanisms.Laplace{B: 1} // D₂ = 0.62
	m := dptest.Continuous(lap.Sample)
	for _, claim := range []float64{1.5, 0.9} {
		rep, err := dptest.AuditRDP(m, 2, claim, dptest.Seed(3), dptest.Samples(1_000_000), dptest.Quick())
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("claim %v: violated %v, quick look %v, early look %v, %d samples per side, fewer calls than the planned audit's: %v\n",
			claim, (rep.Verdict == dptest.Violated), rep.Details.QuickLook, rep.Details.EarlyLook, rep.Details.Samples, rep.Calls < 13_000_000)
	}
	// Output:
	// claim 1.5: violated false, quick look true, early look false, 25000 samples per side, fewer calls than the planned audit's: true
	// claim 0.9: violated false, quick look false, early look true, 106496 samples per side, fewer calls than the planned audit's: true
}

// An output that one dataset alone produces makes D_λ infinite, but a
// finite number of draws refutes an RDP claim there only once the rate
// the claim needs from the other dataset is within their reach. Here X
// also returns 0.5 once in 1,000 draws: the audit passes, and the report
// names the output, how rarely the claim lets Y produce it, and how many
// draws would refute it; the pure-DP audit of the same pair catches it.
func ExampleReport_alone() {
	lap := mechanisms.Laplace{B: 1}
	m := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if x[0] == 1 && r.IntN(1000) == 0 {
			return 0.5
		}
		return x[0] + lap.Sample(r, nil)
	}).WithPairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}})
	rep, err := dptest.AuditRDP(m, 2, 2*lap.RDP(2), dptest.Seed(1), dptest.Candidates(0), dptest.Samples(300_000))
	if err != nil || rep.Details.Alone == nil {
		fmt.Println(err, rep)
		return
	}
	a := rep.Details.Alone
	fmt.Printf("violated %v; X alone produced %v (Y: none); the claim holds only if Y produces it at least once in %.0e draws; refuted at about %.0e draws per side\n",
		(rep.Verdict == dptest.Violated), a.Value, 1/a.NeededRate, a.RefutingDraws)
	rep, err = dptest.AuditDP(m, 2, dptest.Seed(1), dptest.Candidates(0), dptest.Samples(300_000))
	fmt.Println("the DP audit: violated", (rep.Verdict == dptest.Violated), err)
	// Output:
	// violated false; X alone produced 0.5 (Y: none); the claim holds only if Y produces it at least once in 2e+06 draws; refuted at about 1e+07 draws per side
	// the DP audit: violated true <nil>
}

// DP-Auditorium's testers run as options, with one false-failure budget
// split between them. NonDPGaussian1 divides by the true count and scales
// its noise with it, so datasets of one and two records get noise of
// different widths: its (1, 0.01)-DP claim fails, here found by the
// classifier tester.
func ExampleTesters() {
	m := dptest.Continuous(mechanisms.NonDPGaussian1{Eps: 1, Delta: 0.01}.Sample)
	pair := fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{1, 0}}
	rep, err := dptest.AuditApproxDP(m, 1, 0.01, dptest.Pairs(pair), dptest.Candidates(0),
		dptest.Samples(200_000), dptest.Seed(1), dptest.Testers(dptest.Classifier(), dptest.Histogram(100)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("violated: %v, found by the %s tester, δ(1) ≥ %.2f\n", (rep.Verdict == dptest.Violated), rep.Details.Tester, rep.LowerBound)
	// Output: violated: true, found by the classifier tester, δ(1) ≥ 0.15
}

// A dataset finder searches a box of pairs: here DP-Auditorium's, two
// records in [−1, 1], the second added. NonDPGaussian2 divides by the true
// count but scales its noise by a noisy one; at ε = 0.01 its (ε, 0.01)
// claim fails on some pairs of the box, which a Gaussian-process bandit
// proposes.
func ExampleFindPairs() {
	m := dptest.Continuous(mechanisms.NonDPGaussian2{Eps: 0.01, Delta: 0.01}.Sample)
	rep, err := dptest.AuditApproxDP(m, 0.01, 0.01,
		dptest.FindPairs(dptest.BanditFinder(dptest.RemoveLast(2, -1, 1), 30)),
		dptest.Samples(500_000), dptest.Seed(4))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("violated:", (rep.Verdict == dptest.Violated), "trials screened:", rep.Details.Trials)
	// Output: violated: true trials screened: 3
}

// ReportTo writes each audit's page, with its pictures, and an index of
// the run into a directory. The flag -dptest.report=DIR does the same for
// every audit of go test.
func ExampleReportTo() {
	dir, err := os.MkdirTemp("", "dptest-report")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	lap := mechanisms.Laplace{B: 1}
	rep, _ := dptest.AuditDP(dptest.Continuous(lap.Sample), 2, dptest.Seed(1), dptest.Samples(50_000),
		dptest.Label("Laplace b=1"), dptest.ReportTo(dir))
	_, err = os.Stat(filepath.Join(dir, "index.html"))
	fmt.Println(rep.Verdict, err == nil)
	// Output: holds true
}
