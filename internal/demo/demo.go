// Package demo audits the bundled reference mechanisms with dptest and
// prints each verdict: the correct mechanisms, claimed at their exact
// Rényi-DP curves, pure-DP levels, (ε, δ) privacy profiles or Gaussian-DP
// μ, hold; the broken ones are violated, with the witness pair. A correct
// claim may also be unresolved: it would skip. The command line runs it:
//
//	go run ./cmd/dptest demo                  # default sample sizes, about half a minute
//	go run ./cmd/dptest demo -short           # the sample sizes of go test -short
//	go run ./cmd/dptest demo -report out/     # and write the HTML report
//
// With short, a broken mechanism whose violation the reduced samples cannot
// show is listed as such, with the reason, and is not an unexpected verdict:
// a pass at a small sample size is "no violation found", never a proof.
package demo

import (
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"pgregory.net/rapid"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/mechanisms"
)

type audit struct {
	name   string
	broken bool // expected verdict
	run    func(opts ...dptest.Option) (dptest.Report, error)
	// shortMiss says why -short's sample sizes cannot catch a broken
	// mechanism, if they cannot.
	shortMiss string
}

func rdp[D any](m dptest.Mechanism[D], lambda, eps float64, extra ...dptest.Option) func(...dptest.Option) (dptest.Report, error) {
	return func(opts ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditRDP(m, lambda, eps, append(extra, opts...)...)
	}
}

func dp[D any](m dptest.Mechanism[D], eps float64, extra ...dptest.Option) func(...dptest.Option) (dptest.Report, error) {
	return func(opts ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditDP(m, eps, append(extra, opts...)...)
	}
}

func approxDP[D any](m dptest.Mechanism[D], eps, delta float64) func(...dptest.Option) (dptest.Report, error) {
	return func(opts ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditApproxDP(m, eps, delta, opts...)
	}
}

func gdp[D any](m dptest.Mechanism[D], mu float64) func(...dptest.Option) (dptest.Report, error) {
	return func(opts ...dptest.Option) (dptest.Report, error) { return dptest.AuditGDP(m, mu, opts...) }
}

// partitionSelection is (1, 0.05)-DP exactly and of infinite pure-DP
// loss (mechanisms.PartitionSelection).
func partitionSelection() dptest.Mechanism[[]float64] {
	return dptest.Discrete(mechanisms.PartitionSelection{}.Sample)
}

var (
	patterns6  = dptest.Pairs(fixtures.Patterns(6)...)
	patterns10 = dptest.Pairs(fixtures.Patterns(10)...)
)

// Run runs every audit of the demo and prints its verdict to w; with
// reportDir set, it also writes each audit's page there (dptest.ReportTo).
// It returns the number of audits and of unexpected verdicts.
func Run(w io.Writer, short bool, reportDir string) (audits, unexpected int) {
	list := demoAudits()
	var opts []dptest.Option
	if short {
		opts = append(opts, dptest.Samples(dptest.ShortSamples), dptest.Candidates(dptest.ShortCandidates))
	}
	if reportDir != "" {
		opts = append(opts, dptest.ReportTo(reportDir))
	}
	start := time.Now()
	for _, a := range list {
		rep, err := a.run(append(opts, dptest.Label(a.name))...)
		verdict := rep.Verdict.String()
		if err != nil && rep.Verdict == 0 {
			verdict = "ERROR: " + err.Error()
		}
		expected := rep.Verdict == dptest.Violated
		if !a.broken {
			expected = rep.Verdict == dptest.Holds || rep.Verdict == dptest.Unresolved
		}
		switch {
		case expected:
		case short && a.shortMiss != "":
			verdict += " (not caught at -short sample sizes: " + a.shortMiss + ")"
		default:
			verdict += "   <-- unexpected"
			unexpected++
		}
		fmt.Fprintf(w, "%-58s %s (%s)\n", a.name, verdict, rep.Elapsed.Round(time.Millisecond))
		if rep.Verdict != 0 {
			fmt.Fprintln(w, indent(rep.String()))
		}
	}
	fmt.Fprintf(w, "\n%d audits in %s; %d unexpected verdicts\n", len(list), time.Since(start).Round(time.Millisecond), unexpected)
	return len(list), unexpected
}

// demoAudits are the demo's mechanisms and claims, correct and broken.
func demoAudits() []audit {
	gauss := mechanisms.Gaussian{Sigma: 5}
	lap := mechanisms.Laplace{B: 5}
	sub := mechanisms.SubsampledGaussian{Sigma: 5, Gamma: 0.5}
	rr := mechanisms.RandomizedResponse{Eps0: 1.5, M: 10}
	ngd := mechanisms.NoisyGD{Eta: 0.2, B: 1, K: 10}
	mean := mechanisms.DPMean{Eps: 1}
	addRemove := dptest.Neighbors(fixtures.AddRemove(rapid.SampledFrom([]float64{0, 1}), 1, 4))
	nonDP := mechanisms.NonDPGaussian1{Eps: 1, Delta: 1e-5}
	scaled := mechanisms.ScaledGD{Sigma: 2, S: 0.5}
	gaussVec := mechanisms.GaussianVector{D: 3, K: 3, Sigma: 1}
	sparseHist := mechanisms.SparseLaplaceHistogram{Bins: 5, B: 1}
	binPairs := dptest.Neighbors(fixtures.AddRemove(rapid.IntRange(0, 4), 0, 4))
	pointMass := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s + s*r.NormFloat64() // "noise proportional to the data": none when the sum is 0
	})

	audits := []audit{
		{"Gaussian σ=5, (2, λ/2σ²)-RDP", false, rdp(dptest.Continuous(gauss.Sample), 2, gauss.RDP(2)), ""},
		{"Laplace b=5, exact RDP at λ=5", false, rdp(dptest.Continuous(lap.Sample), 5, lap.RDP(5)), ""},
		{"subsampled Gaussian σ=5 γ=0.5, exact RDP at λ=2", false, rdp(dptest.Continuous(sub.Sample), 2, sub.RDP(2)), ""},
		{"randomized response ε₀=1.5, exact RDP at λ=5", false, rdp(dptest.Discrete(rr.Sample), 5, rr.RDP(5)), ""},
		{"noisy gradient descent, exact RDP at λ=2", false, rdp(dptest.Continuous(ngd.Sample), 2, ngd.RDP(2)), ""},
		{"DP mean with private count ([KMRS24]), ε=1 as RDP", false, rdp(dptest.Continuous(mean.Sample), 2, mean.Epsilon(), addRemove), ""},
		{"Gaussian with half the noise its claim assumes", true, rdp(dptest.Continuous(mechanisms.Gaussian{Sigma: 2.5}.Sample), 2, gauss.RDP(2)), ""},
		{"Gaussian claimed 20% below its RDP", true, rdp(dptest.Continuous(gauss.Sample), 2, 0.8*gauss.RDP(2)), ""},
		{"DP-GD step with micro-batch clipping bug (S=1/2)", true, rdp(dptest.Continuous(scaled.Sample), 2, scaled.ClaimedRDP(2)), ""},
		{"subsampled Gaussian accounted at γ=0.1, run at γ=0.5", true, rdp(dptest.Continuous(mechanisms.SubsampledGaussian{Sigma: 2, Gamma: 0.5}.Sample), 2, mechanisms.SampledGaussianRDP(0.1, 2, 2)), ""},
		{"NonDPGaussian1 ([KMRS24]): noise from the true count", true, rdp(dptest.Continuous(nonDP.Sample), 2, nonDP.ClaimedRDP(2), addRemove), ""},
		{"noise scale computed from the data (point mass at 0)", true, rdp(pointMass, 2, 1), ""},
		{"Laplace b=1/0.7, 0.7-DP (local audit, [AKD22])", false, dp(dptest.Continuous(mechanisms.Laplace{B: 1 / 0.7}.Sample), 0.7), ""},
		{"report noisy max ε=1, 1-DP on the query patterns", false, dp(dptest.Discrete(mechanisms.ReportNoisyMax{Eps: 1}.Sample), 1, patterns6), ""},
		{"SVT2 (Lyu et al. Alg. 2) ε=0.7, 0.7-DP", false, dp(dptest.Discrete(mechanisms.SVT2{Eps: 0.7, T: 1, C: 1}.Sample), 0.7, patterns10), ""},
		{"Laplace with half the noise, claimed 0.7-DP", true, dp(dptest.Continuous(mechanisms.Laplace{B: 0.5 / 0.7}.Sample), 0.7), ""},
		{"SVT5 (no query noise), claimed 0.7-DP", true, dp(dptest.Discrete(mechanisms.SVT5{Eps: 0.7, T: 1}.Sample), 0.7, patterns10), ""},
		{"Gaussian σ=1, its exact (1, 0.1269)-DP (Balle–Wang)", false, approxDP(dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample), 1, 0.1269), ""},
		{"Gaussian σ=1, μ=1 Gaussian DP", false, gdp(dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample), 1), ""},
		{"partition selection (1, 0.05)-DP", false, approxDP(partitionSelection(), 1, 0.05), ""},
		{"Gaussian σ=1 claimed μ=0.5 (σ=2's) Gaussian DP", true, gdp(dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample), 0.5), ""},
		{"partition selection claimed (1, 0.02)-DP", true, approxDP(partitionSelection(), 1, 0.02), ""},
		{"partition selection claimed 5-DP (infinite loss)", true, dp(partitionSelection(), 5), ""},
		{"SVT6 (no cut-off), claimed 0.7-DP", true, dp(dptest.Discrete(mechanisms.SVT6{Eps: 0.7, T: 1}.Sample), 0.7, patterns10), ""},
		{"Gaussian on a 3-vector query, μ=1 Gaussian DP", false, gdp(dptest.Vector(gaussVec.Sample), gaussVec.Mu()), ""},
		{"histogram noising non-empty bins only, claimed 1-DP", true, dp(dptest.Vector(sparseHist.Sample), 1, binPairs), ""},
	}

	return audits
}

func indent(s string) string {
	out := "    "
	for _, c := range s {
		out += string(c)
		if c == '\n' {
			out += "    "
		}
	}
	return out
}
