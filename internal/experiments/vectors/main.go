// Command vectors measures the audits of vector outputs (dptest.Vector)
// against exact truths, with the default options unless -samples is set:
//
//   - the Laplace histogram (mechanisms.LaplaceHistogram, b = 1) over d
//     bins, add/remove neighbours of up to 4 records: ε = 1 pure DP and
//     the Laplace mechanism's RDP, claimed at the truth and at truth/1.5;
//   - the Gaussian vector (mechanisms.GaussianVector, σ = 1) in d
//     coordinates, the change spread over k of them: RDP λ/2 at λ = 2 and
//     μ = 1 Gaussian DP, at the truth and at truth/1.5;
//   - bugs, each claimed at what it was meant to satisfy: Laplace noise
//     calibrated to the ℓ2 sensitivity (mechanisms.L2LaplaceVector, true ε
//     √d times the claim), the histogram that releases empty bins as
//     exactly 0 (mechanisms.SparseLaplaceHistogram), a DP-SGD step that
//     clips the summed gradient instead of each example's
//     (mechanisms.DPSGDStep), the correct DP-SGD step at its exact
//     sampled-Gaussian RDP, and ten Poisson-subsampled Gaussian steps
//     (mechanisms.SubsampledGaussianSteps) claimed at the central limit
//     theorem's μ, beside the same steps at their exact RDP (correct) and
//     at RDP/1.5;
//   - two Laplace coordinates shifted by the record (ε = ½) alone, and
//     beside a third whose rare value one dataset alone produces (ε = ∞),
//     claimed at ε = 1.
//
// Columns: audits, violations (95% Clopper–Pearson interval),
// inconclusive, passes, the median LowerBound/truth, Estimate/truth and
// LowerBound/claimed (for bugs whose truth is unknown or infinite),
// the score kinds chosen on the witness (C coordinate, L linear, N naive
// Bayes, D diagonal quadratic, Q quadratic), seconds per audit. Every audit has its own seed.
//
//	go run ./internal/experiments/vectors -reps 200 -preps 100
//	go run ./internal/experiments/vectors -only 'd=10\b' -reps 20 -preps 20
//	go run ./internal/experiments/vectors -canary   # the default search on d = 100
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
	"runtime/pprof"
	"strings"
	"time"

	"pgregory.net/rapid"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/experiments/expstat"
	"github.com/dptest/dptest/mechanisms"
)

// claim is one audited claim with its truth (the mechanism's exact value
// of the claimed measure; +Inf for an unbounded one).
type claim struct {
	name     string
	audit    func(seed uint64, opts ...dptest.Option) (dptest.Report, error)
	claimed  float64
	truth    float64
	violated bool
}

func histogramPairs(bins int) *rapid.Generator[fixtures.Pair[[]int]] {
	return fixtures.AddRemove(rapid.IntRange(0, bins-1), 0, 4)
}

// dpsgdPairs are add/remove neighbours of up to 3 examples whose feature
// vectors lie on one line, t·(1, …, 1) for t ∈ {−1, −½, 0, ½, 1}, so that
// examples can cancel in a sum.
func dpsgdPairs() *rapid.Generator[fixtures.Pair[[][]float64]] {
	example := rapid.Custom(func(t *rapid.T) []float64 {
		v := rapid.SampledFrom([]float64{-1, -0.5, 0, 0.5, 1}).Draw(t, "t")
		a := make([]float64, mechanisms.DPSGDParams)
		for j := range a {
			a[j] = v
		}
		return a
	})
	return fixtures.AddRemove(example, 0, 3)
}

// pair returns the claims of one mechanism and claim type at the truth
// and at truth/1.5.
func pair(name string, truth float64, audit func(claim float64, seed uint64, opts ...dptest.Option) (dptest.Report, error)) []claim {
	at := func(c float64) func(uint64, ...dptest.Option) (dptest.Report, error) {
		return func(seed uint64, opts ...dptest.Option) (dptest.Report, error) { return audit(c, seed, opts...) }
	}
	return []claim{
		{name, at(truth), truth, truth, false},
		{name + " at /1.5", at(truth / 1.5), truth / 1.5, truth, true},
	}
}

func withSeed(seed uint64, opts []dptest.Option) []dptest.Option {
	return append([]dptest.Option{dptest.Seed(seed)}, opts...)
}

func cases() []claim {
	var cs []claim
	for _, d := range []int{10, 100, 1000} {
		h := mechanisms.LaplaceHistogram{Bins: d, B: 1}
		m := dptest.Vector(h.Sample).WithNeighbors(histogramPairs(d))
		cs = append(cs, pair(fmt.Sprintf("Laplace hist d=%d DP", d), h.Epsilon(), func(c float64, s uint64, o ...dptest.Option) (dptest.Report, error) {
			return dptest.AuditDP(m, c, withSeed(s, o)...)
		})...)
		cs = append(cs, pair(fmt.Sprintf("Laplace hist d=%d RDP λ=2", d), h.RDP(2), func(c float64, s uint64, o ...dptest.Option) (dptest.Report, error) {
			return dptest.AuditRDP(m, 2, c, withSeed(s, o)...)
		})...)
	}
	for _, d := range []int{2, 10, 100} {
		for _, k := range []int{1, d} {
			g := mechanisms.GaussianVector{D: d, K: k, Sigma: 1}
			m := dptest.Vector(g.Sample)
			cs = append(cs, pair(fmt.Sprintf("Gaussian d=%d k=%d RDP λ=2", d, k), g.RDP(2), func(c float64, s uint64, o ...dptest.Option) (dptest.Report, error) {
				return dptest.AuditRDP(m, 2, c, withSeed(s, o)...)
			})...)
			cs = append(cs, pair(fmt.Sprintf("Gaussian d=%d k=%d GDP", d, k), g.Mu(), func(c float64, s uint64, o ...dptest.Option) (dptest.Report, error) {
				return dptest.AuditGDP(m, c, withSeed(s, o)...)
			})...)
		}
	}
	return append(cs, bugs()...)
}

func bugs() []claim {
	var cs []claim
	for _, d := range []int{10, 100} {
		l2 := mechanisms.L2LaplaceVector{D: d, Eps: 1}
		m := dptest.Vector(l2.Sample)
		cs = append(cs, claim{fmt.Sprintf("ℓ2-calibrated Laplace d=%d DP", d), func(s uint64, o ...dptest.Option) (dptest.Report, error) {
			return dptest.AuditDP(m, l2.ClaimedEpsilon(), withSeed(s, o)...)
		}, l2.ClaimedEpsilon(), l2.Epsilon(), true})
	}
	sp := mechanisms.SparseLaplaceHistogram{Bins: 10, B: 1}
	spm := dptest.Vector(sp.Sample).WithNeighbors(histogramPairs(10))
	cs = append(cs, claim{"noise on non-empty bins only d=10 DP", func(s uint64, o ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditDP(spm, sp.ClaimedEpsilon(), withSeed(s, o)...)
	}, sp.ClaimedEpsilon(), sp.Epsilon(), true})
	for _, bug := range []bool{true, false} {
		step := mechanisms.DPSGDStep{Q: 0.5, Sigma: 1, C: 1, ClipAfterSum: bug}
		m := dptest.Vector(step.Sample).WithNeighbors(dpsgdPairs())
		name, truth := "DP-SGD step q=0.5 σ=1 RDP λ=2", step.RDP(2)
		if bug {
			name, truth = "DP-SGD step clipped after the sum q=0.5 σ=1 RDP λ=2", math.NaN()
		}
		cs = append(cs, claim{name, func(s uint64, o ...dptest.Option) (dptest.Report, error) {
			return dptest.AuditRDP(m, 2, step.RDP(2), withSeed(s, o)...)
		}, step.RDP(2), truth, bug})
	}
	// Ten Poisson-subsampled Gaussian steps released as a vector, on the
	// canonical pair (one record of value 1 against none): correct at their
	// exact RDP; claimed at the central limit theorem's μ, which the tests
	// of small level exceed (mechanisms.SubsampledGaussianSteps.CLTMu).
	steps := mechanisms.SubsampledGaussianSteps{Steps: 10, Sigma: 1, Gamma: 0.05}
	sm := dptest.Vector(steps.Sample).WithPairs(fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{}})
	cs = append(cs, pair("subsampled Gaussian 10 steps q=0.05 σ=1 RDP λ=2", steps.RDP(2), func(c float64, s uint64, o ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditRDP(sm, 2, c, withSeed(s, o)...)
	})...)
	cs = append(cs, claim{"subsampled Gaussian 10 steps q=0.05 σ=1 GDP at its CLT μ", func(s uint64, o ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditGDP(sm, steps.CLTMu(), withSeed(s, o)...)
	}, steps.CLTMu(), math.NaN(), true})
	cs = append(cs, rareBesideShifted()...)
	// The auditor's canary: one example whose gradient the canary's
	// opposes and outweighs (Y = {−½·1}, X = Y ∪ {1}), screened first.
	step := mechanisms.DPSGDStep{Q: 0.5, Sigma: 1, C: 1, ClipAfterSum: true}
	canary := fixtures.Pair[[][]float64]{X: [][]float64{line(-0.5), line(1)}, Y: [][]float64{line(-0.5)}}
	m := dptest.Vector(step.Sample).WithPairs(canary).WithNeighbors(dpsgdPairs())
	cs = append(cs, claim{"DP-SGD step clipped after the sum, with a canary pair", func(s uint64, o ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditRDP(m, 2, step.RDP(2), withSeed(s, o)...)
	}, step.RDP(2), math.NaN(), true})
	return cs
}

// rareBesideShifted are two Laplace(4) coordinates shifted by the record
// x ∈ {0, 1} (ε = ½ together, on the pair x = 0 against x = 1) and a
// third, N(0, 1), that one draw in 1,000 replaces by 10 − 20x (plus
// N(0, 0.01²)): an output of one dataset alone (ε = ∞) far in one
// coordinate's tail that barely moves the bulk, beside two coordinates
// that differ clearly (so that the learned candidates are many). Without
// the rare value the release is correct at ε = ½.
func rareBesideShifted() []claim {
	release := func(rare bool) dptest.Mechanism[[]float64] {
		return dptest.Vector(func(r *rand.Rand, x []float64) []float64 {
			lap := func() float64 { return 4 * (r.ExpFloat64() - r.ExpFloat64()) }
			v := []float64{x[0] + lap(), x[0] + lap(), r.NormFloat64()}
			if rare && r.IntN(1000) == 0 {
				v[2] = 10 - 20*x[0] + 0.01*r.NormFloat64()
			}
			return v
		}).WithPairs(fixtures.Pair[[]float64]{X: []float64{0}, Y: []float64{1}})
	}
	correct, rare := release(false), release(true)
	cs := pair("two shifted Laplace coordinates d=3 DP", 0.5, func(c float64, s uint64, o ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditDP(correct, c, withSeed(s, o)...)
	})
	return append(cs, claim{"a rare value beside two shifted Laplace coordinates d=3 DP", func(s uint64, o ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditDP(rare, 1, withSeed(s, o)...)
	}, 1, math.Inf(1), true})
}

// line returns the example t·(1, …, 1).
func line(t float64) []float64 {
	a := make([]float64, mechanisms.DPSGDParams)
	for j := range a {
		a[j] = t
	}
	return a
}

func main() {
	reps := flag.Int("reps", 200, "audits of each correct claim")
	preps := flag.Int("preps", 100, "audits of each violated claim")
	first := flag.Int("first", 0, "index of the first audit of each claim (its seed): run audits first … first+reps−1, so that a long row can be run in parts")
	each := flag.Bool("each", false, "also print one line per audit to stderr (verdict, LowerBound/truth, seconds), so that a part run is not lost")
	only := flag.String("only", "", "regular expression: audit only the cases whose name matches")
	samples := flag.Int("samples", 0, "samples per side of each audit (0: the default)")
	canary := flag.Bool("canary", false, "instead, show what the default search finds for the Gaussian vector at d = 100 (k = 100)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	var opts []dptest.Option
	if *samples > 0 {
		opts = append(opts, dptest.Samples(*samples))
	}
	if *canary {
		showCanary(opts)
		return
	}
	re := regexp.MustCompile(*only)
	fmt.Printf("# vectors: first=%d reps=%d preps=%d samples=%d GOMAXPROCS=%d %s\n", *first, *reps, *preps, *samples, runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.RFC3339))
	fmt.Printf("%-52s %8s %8s | %4s %4s %4s %-15s %4s %8s %8s %8s %-9s | %6s\n",
		"case", "claimed", "truth", "n", "viol", "inc", "viol 95% CI", "pass", "med LB/t", "med e/t", "LB/claim", "scores", "s/aud")
	for _, c := range cases() {
		if !re.MatchString(c.name) {
			continue
		}
		n := *reps
		if c.violated {
			n = *preps
		}
		run(c, *first, n, *each, opts)
	}
	fmt.Println(expstat.PeakRSS())
}

// run audits one claim n times, seeds first … first+n−1, and prints its
// row; with each, also one line per audit on stderr.
func run(c claim, first, n int, each bool, opts []dptest.Option) {
	var viol, inc, pass int
	var ratios, ests, vsClaim []float64
	kinds := map[string]int{}
	start := time.Now()
	for i := first; i < first+n; i++ {
		t0 := time.Now()
		rep, err := c.audit(expstat.RunSeed("vectors|%s|%d", c.name, i), opts...)
		if each {
			fmt.Fprintf(os.Stderr, "audit %s #%d: violated=%v err=%v LB/t=%.4f %.1fs\n", c.name, i, (rep.Verdict == dptest.Violated), err, rep.LowerBound/c.truth, time.Since(t0).Seconds())
		}
		switch {
		case errors.Is(err, dptest.ErrInconclusive):
			inc++
		case err != nil:
			fmt.Fprintln(os.Stderr, "error:", c.name, err)
			continue
		case (rep.Verdict == dptest.Violated):
			viol++
		default:
			pass++
		}
		if err == nil {
			ratios = append(ratios, rep.LowerBound/c.truth)
			vsClaim = append(vsClaim, rep.LowerBound/c.claimed)
			ests = append(ests, rep.Estimate/c.truth)
			kinds[scoreKind(rep.Details.Score)]++
		}
	}
	lo, hi := expstat.ClopperPearson(viol, n)
	fmt.Printf("%-52s %8.4g %8.4g | %4d %4d %4d [%.4f,%.4f] %4d %8.3f %8.3f %8.3f %-9s | %6.2f\n",
		c.name, c.claimed, c.truth, n, viol, inc, lo, hi, pass, median(ratios), median(ests), median(vsClaim), kindsText(kinds), time.Since(start).Seconds()/float64(n))
}

func scoreKind(s string) string {
	switch {
	case strings.HasPrefix(s, "coordinate"):
		return "C"
	case strings.HasPrefix(s, "linear"):
		return "L"
	case strings.HasPrefix(s, "diagonal"):
		return "D"
	case strings.HasPrefix(s, "sum"):
		return "N"
	case strings.HasPrefix(s, "quadratic"):
		return "Q"
	}
	return "?"
}

func kindsText(k map[string]int) string {
	var parts []string
	for _, c := range []string{"C", "L", "N", "D", "Q", "?"} {
		if k[c] > 0 {
			parts = append(parts, fmt.Sprintf("%s%d", c, k[c]))
		}
	}
	return strings.Join(parts, ",")
}

// showCanary runs default RDP and GDP audits of the Gaussian vector at
// d = 100 with the change spread over every coordinate and prints what
// the search found: the witness, the score and the bound against the
// truth.
func showCanary(opts []dptest.Option) {
	g := mechanisms.GaussianVector{D: 100, K: 100, Sigma: 1}
	m := dptest.Vector(g.Sample)
	for i := range 3 {
		seed := expstat.RunSeed("vectors canary|%d", i)
		rep, err := dptest.AuditRDP(m, 2, g.RDP(2), withSeed(seed, opts)...)
		fmt.Printf("RDP λ=2 seed %d: err=%v LB/truth %.3f estimate/truth %.3f, %d pairs searched, %s calls\n  witness %v %s\n  score: %s\n",
			seed, err, rep.LowerBound/g.RDP(2), rep.Estimate/g.RDP(2), rep.Details.PairsSearched, fmt.Sprint(rep.Calls), rep.Witness, rep.Direction, rep.Details.Score)
		rep, err = dptest.AuditGDP(m, g.Mu(), withSeed(seed, opts)...)
		fmt.Printf("GDP seed %d: err=%v LB/μ %.3f estimate/μ %.3f\n  witness %v\n  score: %s\n",
			seed, err, rep.LowerBound/g.Mu(), rep.Estimate/g.Mu(), rep.Witness, rep.Details.Score)
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return expstat.Median(v)
}
