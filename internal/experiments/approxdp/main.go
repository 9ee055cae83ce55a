// Command approxdp measures the (ε, δ)-DP and Gaussian-DP audits
// (dptest.AuditApproxDP, dptest.AuditGDP) with their default options:
//
//   - calibration: mechanisms claimed at their exact privacy profile or μ
//     (the Gaussian mechanism at δ(ε) of Balle and Wang 2018 and at μ = Δ/σ,
//     the Laplace mechanism at δ(ε′) = 1 − e^{(ε′−ε)/2}, randomized response
//     at its exact hockey-stick divergence, the Gaussian mechanism rounded
//     to integers and the two-sided geometric mechanism at μ): false
//     failures with their Clopper–Pearson 95% interval, inconclusive
//     verdicts, the median LowerBound/truth and seconds per audit;
//   - power: the same claims on the mechanisms with σ or b halved (or ε₀
//     doubled), a mechanism releasing its exact statistic with probability
//     0.05 claimed at δ = 0.01, and claims at truth/1.5: detected,
//     inconclusive, passed.
//
// Every audit has its own seed (expstat.RunSeed of the case and the run).
//
//	go run ./internal/experiments/approxdp -reps 1000 -preps 100
//	go run ./internal/experiments/approxdp -only Gaussian -reps 20
//	go run ./internal/experiments/approxdp -speed 20   # seconds and calls of default audits
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"time"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/internal/experiments/expstat"
	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/mechanisms"
)

// claim is one audited claim: kind "ApproxDP" (eps, delta) or "GDP" (mu =
// delta), its truth (the mechanism's exact δ at eps, or μ) and whether the
// claim is violated.
type claim struct {
	name     string
	mech     dptest.Mechanism[[]float64]
	gdp      bool
	eps      float64
	claimed  float64 // δ or μ
	truth    float64 // the mechanism's δ(ε) or μ
	violated bool
}

func (c claim) audit(seed uint64) (dptest.Report, error) {
	if c.gdp {
		return dptest.AuditGDP(c.mech, c.claimed, dptest.Seed(seed))
	}
	return dptest.AuditApproxDP(c.mech, c.eps, c.claimed, dptest.Seed(seed))
}

func gaussian(sigma float64) dptest.Mechanism[[]float64] {
	return dptest.Continuous(mechanisms.Gaussian{Sigma: sigma}.Sample)
}

func laplace(b float64) dptest.Mechanism[[]float64] {
	return dptest.Continuous(mechanisms.Laplace{B: b}.Sample)
}

// rr is randomized response over ten records as one discrete output
// (packed into a uint64); its hockey-stick divergence at ε < ε₀ is
// p − e^ε(1 − p), p = e^{ε₀}/(1 + e^{ε₀}).
func rr(eps0 float64) dptest.Mechanism[[]float64] {
	m := mechanisms.RandomizedResponse{Eps0: eps0, M: 10}
	return dptest.Discrete(m.Sample)
}

func rrDelta(eps0, eps float64) float64 {
	p := math.Exp(eps0) / (1 + math.Exp(eps0))
	return max(p-math.Exp(eps)*(1-p), 0)
}

// laplaceDelta is the exact δ(ε′) of the Laplace mechanism of sensitivity
// 1 and scale b = 1/ε: 1 − e^{(ε′−ε)/2} for ε′ ≤ ε.
func laplaceDelta(b, eps float64) float64 { return max(1-math.Exp((eps-1/b)/2), 0) }

// sum is Σx.
func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// exactRelease returns Σx with probability 0.05, Σx + N(0, σ²) otherwise.
func exactRelease(sigma float64) dptest.Mechanism[[]float64] {
	return dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		s := sum(x)
		if r.Float64() < 0.05 {
			return s
		}
		return s + sigma*r.NormFloat64()
	})
}

// rawRelease returns Σx with probability p, Σx + Laplace(b) otherwise:
// for b = 1 and pairs whose sums differ by at most 1, δ(1) = p exactly
// (the atom at Σx, which the other dataset never produces; the Laplace
// part's ratio is at most e).
func rawRelease(p, b float64) dptest.Mechanism[[]float64] {
	lap := mechanisms.Laplace{B: b}
	return dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if r.Float64() < p {
			return sum(x)
		}
		return lap.Sample(r, x)
	})
}

// roundedGaussian is the Gaussian mechanism of scale σ rounded to an
// integer: μ-GDP at exactly μ = 1/σ on sums one apart (rounding is
// post-processing, and each test "output ≥ k" is a threshold test of the
// unrounded outputs, which shows 1/σ exactly), its tails a few integers
// drawn a handful of times in a million.
func roundedGaussian(sigma float64) dptest.Mechanism[[]float64] {
	g := mechanisms.Gaussian{Sigma: sigma}
	return dptest.Discrete(func(r *rand.Rand, x []float64) int64 {
		return int64(math.Round(g.Sample(r, x)))
	})
}

// discreteLaplace is the two-sided geometric mechanism of scale b
// (mechanisms.DiscreteLaplace) on the sum rounded to an integer, which
// neighbours change by at most 1.
func discreteLaplace(b float64) dptest.Mechanism[[]float64] {
	dl := mechanisms.DiscreteLaplace{B: b, Sensitivity: 1}
	return dptest.Discrete(func(r *rand.Rand, x []float64) int64 {
		return dl.Sample(r, int64(math.Round(sum(x))))
	})
}

// discreteGaussian is dg on the rounded sum (the discrete Gaussian
// mechanism of Canonne, Kamath and Steinke).
func discreteGaussian(dg mechanisms.DiscreteGaussian) dptest.Mechanism[[]float64] {
	return dptest.Discrete(func(r *rand.Rand, x []float64) int64 {
		return dg.Sample(r, int64(math.Round(sum(x))))
	})
}

// discreteLaplaceMu is the exact μ of the two-sided geometric mechanism of
// scale b on counts one apart: the largest Φ⁻¹(P(≥ k)) − Φ⁻¹(Q(≥ k)) over
// the threshold tests, P the count 1 and Q the count 0 (a family of
// monotone ratio, whose trade-off curve is the chords between these
// tests, above G_μ wherever they are). P(≥ k) = Q(≥ k − 1), and
// Q(≥ k) = a^k/(1 + a) for k ≥ 1, 1 − a^{1−k}/(1 + a) for k ≤ 0,
// a = e^{−1/b}.
func discreteLaplaceMu(b float64) float64 {
	a := math.Exp(-1 / b)
	upper := func(k float64) float64 { // Q(≥ k)
		if k >= 1 {
			return math.Pow(a, k) / (1 + a)
		}
		return 1 - math.Pow(a, 1-k)/(1+a)
	}
	level, mu := hockey.Gaussian(), 0.0
	for k := -200.0; k <= 200; k++ {
		if p, q := upper(k-1), upper(k); p < 1 && q > 0 {
			mu = max(mu, level.Of(p, q))
		}
	}
	return mu
}

func cases() []claim {
	var cs []claim
	for _, sigma := range []float64{0.5, 1} {
		for _, eps := range []float64{0.1, 1, 3} {
			d := hockey.GaussianProfile(1/sigma, eps)
			name := fmt.Sprintf("Gaussian σ=%g ε=%g", sigma, eps)
			cs = append(cs,
				claim{name, gaussian(sigma), false, eps, d, d, false},
				claim{name + " at δ/1.5", gaussian(sigma), false, eps, d / 1.5, d, true},
				claim{name + ", σ halved", gaussian(sigma / 2), false, eps, d, hockey.GaussianProfile(2/sigma, eps), true})
		}
		mu := 1 / sigma
		name := fmt.Sprintf("GDP Gaussian σ=%g", sigma)
		cs = append(cs,
			claim{name, gaussian(sigma), true, 0, mu, mu, false},
			claim{name + " at μ/1.5", gaussian(sigma), true, 0, mu / 1.5, mu, true},
			claim{name + ", σ halved", gaussian(sigma / 2), true, 0, mu, 2 * mu, true})
	}
	for _, eps := range []float64{0.25, 0.5} {
		d := laplaceDelta(1, eps)
		name := fmt.Sprintf("Laplace b=1 ε=%g", eps)
		cs = append(cs,
			claim{name, laplace(1), false, eps, d, d, false},
			claim{name + ", b halved", laplace(0.5), false, eps, d, laplaceDelta(0.5, eps), true})
	}
	for _, eps := range []float64{0.5, 1} {
		d := rrDelta(2, eps)
		name := fmt.Sprintf("RR ε₀=2 ε=%g", eps)
		cs = append(cs,
			claim{name, rr(2), false, eps, d, d, false},
			claim{name + ", ε₀ doubled", rr(4), false, eps, d, rrDelta(4, eps), true})
	}
	cs = append(cs, claim{"exact release p=0.05, N(0,2²) ε=1", exactRelease(2), false, 1, 0.01, 0.05 + 0.95*hockey.GaussianProfile(0.5, 1), true},
		claim{"raw release p=0.01, Laplace b=1 ε=1", rawRelease(0.01, 1), false, 1, 0.01, 0.01, false},
		claim{"raw release p=0.01, Laplace b=1 ε=1 at δ/1.5", rawRelease(0.01, 1), false, 1, 0.01 / 1.5, 0.01, true})
	for _, b := range []float64{1, 3} {
		name, mu := fmt.Sprintf("GDP discrete Laplace b=%g", b), discreteLaplaceMu(b)
		cs = append(cs,
			claim{name, discreteLaplace(b), true, 0, mu, mu, false},
			claim{name + " at μ/1.5", discreteLaplace(b), true, 0, mu / 1.5, mu, true})
	}
	for _, sigma := range []float64{0.5, 1, 2} {
		dg := mechanisms.DiscreteGaussian{Sigma: sigma, Sensitivity: 1}
		name, mu := fmt.Sprintf("GDP discrete Gaussian σ=%g", sigma), dg.Mu()
		cs = append(cs,
			claim{name, discreteGaussian(dg), true, 0, mu, mu, false},
			claim{name + " at 1/σ", discreteGaussian(dg), true, 0, 1 / sigma, mu, true})
	}
	for _, sigma := range []float64{1, 2} {
		name := fmt.Sprintf("GDP rounded Gaussian σ=%g", sigma)
		cs = append(cs,
			claim{name, roundedGaussian(sigma), true, 0, 1 / sigma, 1 / sigma, false},
			claim{name + " at μ/1.5", roundedGaussian(sigma), true, 0, 1 / sigma / 1.5, 1 / sigma, true})
	}
	return cs
}

func main() {
	reps := flag.Int("reps", 1000, "audits of each correct claim")
	preps := flag.Int("preps", 100, "audits of each violated claim")
	only := flag.String("only", "", "regular expression: audit only the cases whose name matches")
	speed := flag.Int("speed", 0, "instead, time this many default audits of the Gaussian mechanism (σ = 1) per claim kind")
	flag.Parse()
	if *speed > 0 {
		timeAudits(*speed)
		return
	}
	re := regexp.MustCompile(*only)
	fmt.Printf("# approxdp: reps=%d preps=%d GOMAXPROCS=%d %s\n", *reps, *preps, runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.RFC3339))
	fmt.Printf("%-40s %9s %9s | %5s %5s %-15s %4s %5s %5s %8s %8s | %6s\n",
		"case", "claimed", "truth", "n", "viol", "viol 95% CI", "susp", "unres", "holds", "med LB/t", "med e/t", "s/aud")
	for _, c := range cases() {
		if !re.MatchString(c.name) {
			continue
		}
		n := *reps
		if c.violated {
			n = *preps
		}
		var viol, susp, unres, holds int
		var ratios, ests []float64
		start := time.Now()
		for i := 0; i < n; i++ {
			rep, err := c.audit(expstat.RunSeed("approxdp|%s|%d", c.name, i))
			switch rep.Verdict {
			case dptest.Suspect:
				susp++
			case dptest.Unresolved:
				unres++
			case dptest.Violated:
				viol++
			case dptest.Holds:
				holds++
			default:
				fmt.Fprintln(os.Stderr, "error:", err)
				continue
			}
			if err == nil {
				ratios = append(ratios, rep.LowerBound/c.truth)
				ests = append(ests, rep.Estimate/c.truth)
			}
		}
		lo, hi := expstat.ClopperPearson(viol, n)
		fmt.Printf("%-40s %9.4g %9.4g | %5d %5d [%.4f,%.4f] %4d %5d %5d %8.3f %8.3f | %6.2f\n",
			c.name, c.claimed, c.truth, n, viol, lo, hi, susp, unres, holds, median(ratios), median(ests), time.Since(start).Seconds()/float64(n))
	}
	fmt.Println(expstat.PeakRSS())
}

// timeAudits times n default audits of the Gaussian mechanism (σ = 1)
// for each claim kind, each with its own seed, one after the other, and
// prints the median and the range of the seconds per audit and the calls.
func timeAudits(n int) {
	g := gaussian(1)
	kinds := []struct {
		name  string
		audit func(seed uint64) (dptest.Report, error)
	}{
		{"ApproxDP (1, δ(1))", func(s uint64) (dptest.Report, error) {
			return dptest.AuditApproxDP(g, 1, hockey.GaussianProfile(1, 1), dptest.Seed(s))
		}},
		{"GDP μ=1", func(s uint64) (dptest.Report, error) { return dptest.AuditGDP(g, 1, dptest.Seed(s)) }},
		{"RDP λ=2 (for comparison)", func(s uint64) (dptest.Report, error) { return dptest.AuditRDP(g, 2, 1, dptest.Seed(s)) }},
	}
	fmt.Printf("# approxdp -speed %d: GOMAXPROCS=%d %s\n", n, runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.RFC3339))
	for _, k := range kinds {
		var secs []float64
		var calls int64
		for i := 0; i < n; i++ {
			start := time.Now()
			rep, err := k.audit(expstat.RunSeed("approxdp speed|%s|%d", k.name, i))
			secs = append(secs, time.Since(start).Seconds())
			if err != nil {
				fmt.Fprintln(os.Stderr, "error:", err)
			}
			calls = rep.Calls
		}
		fmt.Printf("%-26s median %.3f s (min %.3f, max %.3f) per audit, %d calls\n",
			k.name, median(secs), expstat.Quantile(secs, 0), expstat.Quantile(secs, 1), calls)
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return expstat.Median(v)
}
