// Command claims audits claims written the way DP libraries state them:
// eight correct claims of common mechanisms and six common calibration
// bugs, each with one default audit at a fixed seed. It prints each
// verdict, its calls and seconds, and the line a test would log.
//
// The correct claims must never fail a build (holds, or unresolved, which
// skips); every bug must be violated.
//
//	go run ./internal/experiments/claims
//	go run ./internal/experiments/claims -only 'Gaussian' -seeds 3
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/internal/numeric"
)

var (
	only  = flag.String("only", "", "audit only the cases whose name matches this regexp")
	seeds = flag.Int("seeds", 1, "audits per case, at seeds 1, 2, …")
	full  = flag.Bool("full", false, "print each audit's whole text, not only its first line")
)

// claim is one audit as a library would state it.
type claim struct {
	name    string
	correct bool
	audit   func(seed uint64) (dptest.Report, error)
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

func laplace(r *rand.Rand, b float64) float64 {
	e := r.ExpFloat64() * b
	if r.IntN(2) == 0 {
		return -e
	}
	return e
}

// classicSigma is the classic Gaussian mechanism's σ for (ε, δ) at
// sensitivity 1 (Dwork and Roth, Theorem A.1).
func classicSigma(eps, delta float64) float64 { return math.Sqrt(2*math.Log(1.25/delta)) / eps }

// gaussianDelta is the exact δ(ε) of the Gaussian mechanism of σ at
// sensitivity 1 (Balle and Wang 2018, Theorem 8).
func gaussianDelta(sigma, eps float64) float64 {
	mu := 1 / sigma
	return numeric.NormalCDF(-eps/mu+mu/2) - math.Exp(eps)*numeric.NormalCDF(-eps/mu-mu/2)
}

// analyticSigma is the least σ whose exact δ(ε) is at most delta.
func analyticSigma(eps, delta float64) float64 {
	lo, hi := 1e-3, 1e3
	for range 200 {
		mid := math.Sqrt(lo * hi)
		if gaussianDelta(mid, eps) > delta {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

func gaussian(sigma float64) dptest.Mechanism[[]float64] {
	return dptest.Continuous(func(r *rand.Rand, x []float64) float64 { return sum(x) + sigma*r.NormFloat64() })
}

func claims() []claim {
	seeded := func(s uint64) []dptest.Option { return []dptest.Option{dptest.Seed(s)} }
	lap1 := dptest.Continuous(func(r *rand.Rand, x []float64) float64 { return sum(x) + laplace(r, 1) })
	approx := func(name string, correct bool, m dptest.Mechanism[[]float64], eps, delta float64) claim {
		return claim{name, correct, func(s uint64) (dptest.Report, error) { return dptest.AuditApproxDP(m, eps, delta, seeded(s)...) }}
	}
	rdp := func(name string, correct bool, m dptest.Mechanism[[]float64], lambda, eps float64) claim {
		return claim{name, correct, func(s uint64) (dptest.Report, error) { return dptest.AuditRDP(m, lambda, eps, seeded(s)...) }}
	}
	gdp := func(name string, correct bool, m dptest.Mechanism[[]float64], mu float64) claim {
		return claim{name, correct, func(s uint64) (dptest.Report, error) { return dptest.AuditGDP(m, mu, seeded(s)...) }}
	}
	dp := func(name string, correct bool, m dptest.Mechanism[[]float64], eps float64) claim {
		return claim{name, correct, func(s uint64) (dptest.Report, error) { return dptest.AuditDP(m, eps, seeded(s)...) }}
	}
	// The Gaussian at its RDP σ for (λ, ε), and with the factor 2 under
	// the square root forgotten (half the variance: twice the claim).
	rdpSigma := func(lambda, eps float64) float64 { return math.Sqrt(lambda / (2 * eps)) }
	// A count of the records above ½, with Laplace noise only when it is
	// not 0.
	noZeroNoise := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		c := 0.0
		for _, v := range x {
			if v > 0.5 {
				c++
			}
		}
		if c == 0 {
			return 0
		}
		return c + laplace(r, 1)
	})
	// Randomized response on the first record's bit, at e^{2ε} where ε is
	// claimed.
	rr := dptest.Discrete(func(r *rand.Rand, x []float64) bool {
		bit := len(x) > 0 && x[0] > 0.5
		if r.Float64() < math.Exp(2)/(1+math.Exp(2)) {
			return bit
		}
		return !bit
	})
	// The sum of records in [0, 2] (sensitivity 2) with noise for
	// sensitivity 1.
	sens2 := dptest.Continuous(func(r *rand.Rand, x []float64) float64 { return 2*sum(x) + laplace(r, 1) })
	return []claim{
		approx("correct: Gaussian, classic σ, (1, 1e-5)", true, gaussian(classicSigma(1, 1e-5)), 1, 1e-5),
		approx("correct: Gaussian, analytic σ, (1, 1e-6)", true, gaussian(analyticSigma(1, 1e-6)), 1, 1e-6),
		approx("correct: Gaussian, classic σ, (0.5, 1e-9)", true, gaussian(classicSigma(0.5, 1e-9)), 0.5, 1e-9),
		approx("correct: Laplace b=1, (1, 1e-6)", true, lap1, 1, 1e-6),
		rdp("correct: Gaussian σ=2, RDP λ=32", true, gaussian(2), 32, 32.0/8),
		rdp("correct: Gaussian σ=2, RDP λ=64", true, gaussian(2), 64, 64.0/8),
		dp("correct: Laplace b=1, 1-DP", true, lap1, 1),
		gdp("correct: Gaussian σ=1, 1-GDP", true, gaussian(1), 1),
		gdp("bug: Gaussian factor 2 forgotten, GDP", false, gaussian(1/math.Sqrt2), 1),
		rdp("bug: Gaussian factor 2 forgotten, RDP λ=8", false, gaussian(rdpSigma(8, 1)/math.Sqrt2), 8, 1),
		approx("bug: Gaussian σ=1 claimed (1, 1e-5)", false, gaussian(1), 1, 1e-5),
		dp("bug: Laplace at sensitivity 2 claimed ε=1", false, sens2, 1),
		dp("bug: no noise when a count is 0, 1-DP", false, noZeroNoise, 1),
		{"bug: randomized response at e^2 claimed 1-DP", false, func(s uint64) (dptest.Report, error) { return dptest.AuditDP(rr, 1, seeded(s)...) }},
		// The same kinds at other parameters.
		approx("more: Gaussian, classic σ, (0.1, 1e-5)", true, gaussian(classicSigma(0.1, 1e-5)), 0.1, 1e-5),
		approx("more: Gaussian, classic σ, (3, 1e-7)", true, gaussian(classicSigma(3, 1e-7)), 3, 1e-7),
		approx("more: Laplace b=2, (0.5, 1e-8)", true, dptest.Continuous(func(r *rand.Rand, x []float64) float64 { return sum(x) + laplace(r, 2) }), 0.5, 1e-8),
		rdp("more: Gaussian σ=3, RDP λ=16", true, gaussian(3), 16, 16.0/18),
		rdp("more: Gaussian σ=1, RDP λ=128", true, gaussian(1), 128, 64),
		gdp("more: Gaussian σ=4, 0.25-GDP", true, gaussian(4), 0.25),
		dp("more: Laplace b=4, 0.25-DP", true, dptest.Continuous(func(r *rand.Rand, x []float64) float64 { return sum(x) + laplace(r, 4) }), 0.25),
		approx("more bug: Gaussian σ=2 claimed (0.5, 1e-5)", false, gaussian(2), 0.5, 1e-5),
		gdp("more bug: Gaussian σ=2, factor 2 forgotten, claimed 0.5-GDP", false, gaussian(math.Sqrt2), 0.5),
		dp("more bug: Laplace b=1 claimed 0.5-DP", false, lap1, 0.5),
		rdp("more bug: Gaussian σ=3, RDP λ=4 at half its truth", false, gaussian(3), 4, 4.0/18/2),
	}
}

func main() {
	flag.Parse()
	match := regexp.MustCompile(*only)
	fmt.Printf("# claims: seeds=%d %s\n", *seeds, time.Now().UTC().Format(time.RFC3339))
	wrong := 0
	for _, c := range claims() {
		if !match.MatchString(c.name) {
			continue
		}
		for s := 1; s <= *seeds; s++ {
			rep, err := c.audit(uint64(s))
			v := verdictOf(rep, err)
			bad := (c.correct && (v == "violated" || v == "suspect" || v == "error")) || (!c.correct && v != "violated")
			if bad {
				wrong++
			}
			text := rep.String()
			first, _, _ := strings.Cut(text, "\n")
			if *full {
				first = text
			}
			fmt.Printf("%-48s seed %d  %-10s %6.2fM calls %6.1fs  line %4d chars%s\n    %s\n", c.name, s, v, float64(rep.Calls)/1e6, rep.Elapsed.Seconds(), len([]rune(first)), map[bool]string{true: "  WRONG"}[bad], first)
		}
	}
	fmt.Printf("# wrong verdicts: %d\n", wrong)
	if wrong > 0 {
		os.Exit(1)
	}
}

// verdictOf names an audit's verdict, or "error".
func verdictOf(rep dptest.Report, err error) string {
	if rep.Verdict == 0 {
		return "error"
	}
	return rep.Verdict.String()
}
