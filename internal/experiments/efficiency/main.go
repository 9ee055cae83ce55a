// Command efficiency counts the mechanism calls and seconds of default
// audits, the measure of the sample-efficiency work: for the Gaussian,
// Laplace, randomized response and SVT2 mechanisms, and the discrete
// Gaussian (σ = 1 and 0.5, integers, whose far tails one dataset
// produces far more often than the other), a full audit at claim
// = truth × {0.5, 0.8, 1, 1.25, 2, 10} for every claim type with an
// exact truth (RDP at λ = 2, and at λ = 20 for a Gaussian; pure DP;
// (ε, δ)-DP, where δ claims of 1 or more are skipped; Gaussian DP for the
// Gaussian and the discrete Gaussian); and, with
// -slow, a mechanism that spins 10 µs a call and ignores the generator it
// is given (standing for secure noise), audited under pure DP and RDP
// λ = 2 at a correct claim with 2× margin and at a 2× violation.
//
// Columns: the case, the claimed value and the truth, the verdict (H
// holds, V violated, S suspect, U unresolved), the mechanism calls, the
// seconds, LowerBound/truth and Resolution/claim. Calls do not depend on
// the machine; seconds do.
//
//	go run ./internal/experiments/efficiency
//	go run ./internal/experiments/efficiency -only 'Laplace' -slow
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"sync"
	"time"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/experiments/expstat"
	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/mechanisms"
)

// factors are the claims audited, as multiples of the truth.
var factors = []float64{0.5, 0.8, 1, 1.25, 2, 10}

// target is one mechanism and claim type: its truth and the audit of a
// claim.
type target struct {
	name  string
	truth float64
	audit func(claim float64, seed uint64) (dptest.Report, error)
	below float64 // claims must lie below it (δ < 1); 0 for no bound
}

func targets() []target {
	gauss := dptest.Continuous(mechanisms.Gaussian{Sigma: 1}.Sample)
	lap := mechanisms.Laplace{B: 1}
	lapM := dptest.Continuous(lap.Sample)
	rr := mechanisms.RandomizedResponse{Eps0: 1.5, M: 10}
	rrM := dptest.Discrete(rr.Sample)
	svt := mechanisms.SVT2{Eps: 0.7, T: 1, C: 1}
	svtM := dptest.Discrete(svt.Sample).WithPairs(fixtures.Patterns(10)...)
	rdp := func(m dptest.Mechanism[[]float64]) func(float64, uint64) (dptest.Report, error) {
		return func(c float64, s uint64) (dptest.Report, error) { return dptest.AuditRDP(m, 2, c, dptest.Seed(s)) }
	}
	dp := func(m dptest.Mechanism[[]float64]) func(float64, uint64) (dptest.Report, error) {
		return func(c float64, s uint64) (dptest.Report, error) { return dptest.AuditDP(m, c, dptest.Seed(s)) }
	}
	approx := func(m dptest.Mechanism[[]float64], eps float64) func(float64, uint64) (dptest.Report, error) {
		return func(c float64, s uint64) (dptest.Report, error) {
			return dptest.AuditApproxDP(m, eps, c, dptest.Seed(s))
		}
	}
	p := math.Exp(rr.Eps0) / (1 + math.Exp(rr.Eps0))
	discreteGaussian := func(sigma float64) target {
		dg := mechanisms.DiscreteGaussian{Sigma: sigma, Sensitivity: 1}
		m := dptest.Discrete(func(r *rand.Rand, x []float64) int64 {
			s := 0.0
			for _, v := range x {
				s += v
			}
			return dg.Sample(r, int64(math.Round(s)))
		})
		return target{fmt.Sprintf("discrete Gaussian σ=%g RDP λ=2", sigma), dg.RDP(2), rdp(m), 0}
	}
	gdp := func(m dptest.Mechanism[[]float64]) func(float64, uint64) (dptest.Report, error) {
		return func(c float64, s uint64) (dptest.Report, error) { return dptest.AuditGDP(m, c, dptest.Seed(s)) }
	}
	dg1 := mechanisms.DiscreteGaussian{Sigma: 1, Sensitivity: 1}
	dg1M := dptest.Discrete(func(r *rand.Rand, x []float64) int64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return dg1.Sample(r, int64(math.Round(s)))
	})
	return []target{
		{"Gaussian σ=1 RDP λ=2", mechanisms.Gaussian{Sigma: 1}.RDP(2), rdp(gauss), 0},
		{"Gaussian σ=5 RDP λ=20", mechanisms.Gaussian{Sigma: 5}.RDP(20), func(c float64, s uint64) (dptest.Report, error) {
			return dptest.AuditRDP(dptest.Continuous(mechanisms.Gaussian{Sigma: 5}.Sample), 20, c, dptest.Seed(s))
		}, 0},
		{"Gaussian σ=1 (1, δ)-DP", hockey.GaussianProfile(1, 1), approx(gauss, 1), 1},
		{"Gaussian σ=1 GDP", 1, gdp(gauss), 0},
		{"discrete Gaussian σ=1 GDP", dg1.Mu(), gdp(dg1M), 0},
		{"Laplace b=1 RDP λ=2", lap.RDP(2), rdp(lapM), 0},
		{"Laplace b=1 DP", lap.Epsilon(), dp(lapM), 0},
		{"Laplace b=1 (0.5, δ)-DP", 1 - math.Exp((0.5-1)/2), approx(lapM, 0.5), 1},
		{"RR ε₀=1.5 RDP λ=2", rr.RDP(2), rdp(rrM), 0},
		{"RR ε₀=1.5 DP", rr.Eps0, dp(rrM), 0},
		{"RR ε₀=1.5 (0.75, δ)-DP", p - math.Exp(0.75)*(1-p), approx(rrM, 0.75), 1},
		{"SVT2 ε=0.7 DP", svt.Epsilon(), dp(svtM), 0},
		discreteGaussian(1),
		discreteGaussian(0.5),
	}
}

// slowLaplace is Laplace noise of scale 1 on Σx that spins for 10 µs a
// call and draws from one source shared behind a lock, not from the
// generator it is given, as secure noise does.
type slowLaplace struct {
	mu  sync.Mutex
	src *rand.Rand
}

func (s *slowLaplace) sample(_ *rand.Rand, x []float64) float64 {
	start := time.Now()
	for time.Since(start) < 10*time.Microsecond {
	}
	sum := 0.0
	for _, v := range x {
		sum += v
	}
	s.mu.Lock()
	e := s.src.ExpFloat64()
	neg := s.src.IntN(2) == 0
	s.mu.Unlock()
	if neg {
		e = -e
	}
	return sum + e
}

func main() {
	only := flag.String("only", "", "regular expression: audit only the cases whose name matches")
	slow := flag.Bool("slow", false, "also audit the 10 µs mechanism that ignores its generator")
	flag.Parse()
	re := regexp.MustCompile(*only)
	fmt.Printf("# efficiency: GOMAXPROCS=%d %s\n", runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.RFC3339))
	fmt.Printf("%-28s %7s %10s %10s | %s %12s %8s %8s %8s\n", "case", "factor", "claimed", "truth", "v", "calls", "seconds", "LB/t", "res/c")
	for _, t := range targets() {
		if !re.MatchString(t.name) {
			continue
		}
		for _, f := range factors {
			if t.below > 0 && f*t.truth >= t.below {
				continue // δ ≥ 1 claims nothing
			}
			row(t.name, f, t.truth, func(s uint64) (dptest.Report, error) { return t.audit(f*t.truth, s) })
		}
	}
	if *slow {
		m := dptest.Continuous((&slowLaplace{src: rand.New(rand.NewPCG(1, 2))}).sample)
		lapRDP := mechanisms.Laplace{B: 1}.RDP(2)
		for _, f := range []float64{2, 0.5} {
			row("slow Laplace b=1 DP", f, 1, func(s uint64) (dptest.Report, error) { return dptest.AuditDP(m, f, dptest.Seed(s)) })
			row("slow Laplace b=1 RDP λ=2", f, lapRDP, func(s uint64) (dptest.Report, error) {
				return dptest.AuditRDP(m, 2, f*lapRDP, dptest.Seed(s))
			})
		}
	}
	fmt.Println(expstat.PeakRSS())
}

// row audits one claim once and prints its line.
func row(name string, factor, truth float64, audit func(seed uint64) (dptest.Report, error)) {
	start := time.Now()
	rep, err := audit(expstat.RunSeed("efficiency|%s|%g", name, factor))
	if err != nil && !errors.Is(err, dptest.ErrInconclusive) {
		fmt.Fprintln(os.Stderr, "error:", name, err)
		return
	}
	letter := map[dptest.Verdict]string{dptest.Holds: "H", dptest.Violated: "V", dptest.Suspect: "S", dptest.Unresolved: "U"}[rep.Verdict]
	fmt.Printf("%-28s %7g %10.4g %10.4g | %s %12d %8.2f %8.3f %8.3f\n", name, factor, factor*truth, truth, letter, rep.Calls, time.Since(start).Seconds(), rep.LowerBound/truth, rep.Resolution/(factor*truth))
}
