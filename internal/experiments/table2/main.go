// Command table2 reproduces [KMRS24] (DP-Auditorium) Table 2 with dptest's
// dataset finders (dptest.FindPairs): for each non-private mechanism at
// ε = 0.01 with n = 500,000 confirming draws per side, the number of
// trials each finder (random, grid, Gaussian-process bandit) takes to find
// the violation, at most 50, averaged over 10 runs, beside the published
// averages of DP-Auditorium's testers with each of its finders.
//
// The search space is DP-Auditorium's: for the means, datasets of two
// records in [−1, 1] (clipped to [0, 1] by the mechanisms), X the first
// record and Y both (dptest.RemoveLast(2, −1, 1)); for the SVTs (threshold
// 0, cut-off 1 where the algorithm has one), answer sequences of four
// queries q ∈ [−1, 1]⁴ and q′ = q + d, d ∈ [−1, 1]⁴, so |q_i − q′_i| ≤ 1.
// The claims are table1's: ε-DP for the Laplace means and the SVTs,
// (ε, 0.01)-DP for the Gaussian means, and in a row of its own
// NonDPGaussian2's advertised RDP at order 1.5 (the claim of [KMRS24]'s
// Rényi tester, whose column is its best there).
//
// A run's trials to find is the least budget T of trials with which the
// audit (same seed, the finder's first T proposals) confirms the
// violation, as DP-Auditorium's runner stops at the first trial whose test
// fails; 50 when the audit with 50 trials does not. It is found by
// bisection from the 50-trial audit (assuming a larger budget finds what a
// smaller one does, which holds but for the confirmations' noise). The
// finder stops proposing once a trial shows the claim exceeded by half
// (its screening's statistic counted again on fresh draws), so "screened"
// (the trials the 50-trial audit made) can be fewer than 50.
//
//	go run ./internal/experiments/table2            # 10 runs a row
//	go run ./internal/experiments/table2 -runs 3 -only Gaussian
package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/experiments/expstat"
	"github.com/dptest/dptest/mechanisms"
)

const (
	eps       = 0.01
	n         = 500_000
	maxTrials = 50
	delta     = 0.01
)

// published are [KMRS24] Table 2's averages (histogram, Rényi, MMD,
// hockey-stick), by finder; −1 where a tester does not apply.
var published = map[string]map[string][4]float64{
	"bandit": {
		"NonDPLaplace1": {50, 1, 1, 1.2}, "NonDPLaplace2": {8.3, 9.5, 12.3, 2.5},
		"NonDPGaussian1": {50, 1, 1, 50}, "NonDPGaussian2": {50, 3.6, 47.3, 19.1},
		"SVT3": {-1, 50, 50, 50}, "SVT4": {-1, 50, 50, 50}, "SVT5": {-1, 50, 50, 50}, "SVT6": {-1, 50, 50, 50},
	},
	"random": {
		"NonDPLaplace1": {50, 1, 1, 1.3}, "NonDPLaplace2": {10.1, 3.6, 12.3, 1.5},
		"NonDPGaussian1": {50, 1, 1, 50}, "NonDPGaussian2": {50, 1.2, 47.3, 45.6},
		"SVT3": {-1, 50, 50, 50}, "SVT4": {-1, 50, 50, 50}, "SVT5": {-1, 50, 50, 50}, "SVT6": {-1, 50, 50, 50},
	},
	"grid": {
		"NonDPLaplace1": {50, 1, 1, 1.1}, "NonDPLaplace2": {50, 3, 12.3, 30.2},
		"NonDPGaussian1": {50, 1, 1, 50}, "NonDPGaussian2": {50, 11.3, 47.3, 50},
		"SVT3": {-1, 50, 50, 50}, "SVT4": {-1, 50, 50, 50}, "SVT5": {-1, 50, 50, 50}, "SVT6": {-1, 50, 50, 50},
	},
}

// row is one mechanism: how to audit it with a finder.
type row struct {
	name  string
	audit func(f dptest.Option, seed uint64) (dptest.Report, error)
	box   string // "mean" or "svt"
}

const svtQueries = 4

// svtBox is q ∈ [−1, 1]⁴ and q′ = q + d, d ∈ [−1, 1]⁴.
var svtBox = dptest.Box[[]float64]{Dim: 2 * svtQueries, Lo: -1, Hi: 1, Pair: func(z []float64) fixtures.Pair[[]float64] {
	q, qq := make([]float64, svtQueries), make([]float64, svtQueries)
	for i := range q {
		q[i], qq[i] = z[i], z[i]+z[svtQueries+i]
	}
	return fixtures.Pair[[]float64]{X: q, Y: qq}
}}

func rows() []row {
	dp := func(m dptest.Mechanism[[]float64]) func(dptest.Option, uint64) (dptest.Report, error) {
		return func(f dptest.Option, seed uint64) (dptest.Report, error) {
			return dptest.AuditDP(m, eps, f, dptest.Samples(n), dptest.Seed(seed))
		}
	}
	approx := func(m dptest.Mechanism[[]float64]) func(dptest.Option, uint64) (dptest.Report, error) {
		return func(f dptest.Option, seed uint64) (dptest.Report, error) {
			return dptest.AuditApproxDP(m, eps, delta, f, dptest.Samples(n), dptest.Seed(seed))
		}
	}
	s3 := mechanisms.SVT3{Eps: eps, C: 1}
	return []row{
		{"NonDPLaplace1", dp(dptest.Continuous(mechanisms.NonDPLaplace1{Eps: eps}.Sample)), "mean"},
		{"NonDPLaplace2", dp(dptest.Continuous(mechanisms.NonDPLaplace2{Eps: eps}.Sample)), "mean"},
		{"NonDPGaussian1", approx(dptest.Continuous(mechanisms.NonDPGaussian1{Eps: eps, Delta: delta}.Sample)), "mean"},
		{"NonDPGaussian2", approx(dptest.Continuous(mechanisms.NonDPGaussian2{Eps: eps, Delta: delta}.Sample)), "mean"},
		{"NonDPGaussian2 RDP", func(f dptest.Option, seed uint64) (dptest.Report, error) {
			g := mechanisms.NonDPGaussian2{Eps: eps, Delta: delta}
			return dptest.AuditRDP(dptest.Continuous(g.Sample), 1.5, g.ClaimedRDP(1.5), f, dptest.Samples(n), dptest.Seed(seed))
		}, "mean"},
		{"SVT3", dp(dptest.Vector(func(r *rand.Rand, x []float64) []float64 {
			o := s3.Sample(r, x)
			for i, a := range o.Pattern {
				if a == 'T' {
					return []float64{float64(i + 1), o.Noisy()[0]}
				}
			}
			return []float64{0, 0}
		})), "svt"},
		{"SVT4", dp(dptest.Discrete(mechanisms.SVT4{Eps: eps, C: 1}.Sample)), "svt"},
		{"SVT5", dp(dptest.Discrete(mechanisms.SVT5{Eps: eps}.Sample)), "svt"},
		{"SVT6", dp(dptest.Discrete(mechanisms.SVT6{Eps: eps}.Sample)), "svt"},
	}
}

// finderOf is the finder of kind over the row's box, made for maxTrials
// trials (the grid's spacing) with a budget of trials.
func finderOf(kind, box string, trials int) dptest.Option {
	b := dptest.RemoveLast(2, -1, 1)
	if box == "svt" {
		b = svtBox
	}
	f := dptest.RandomFinder(b, maxTrials)
	switch kind {
	case "grid":
		f = dptest.GridFinder(b, maxTrials)
	case "bandit":
		f = dptest.BanditFinder(b, maxTrials)
	}
	return dptest.FindPairs(f.WithTrials(trials))
}

// trialsToFind is the least budget of trials with which r's audit of
// seed is violated (by bisection from maxTrials), maxTrials if that one is
// not; and the 50-trial audit's report.
func trialsToFind(r row, kind string, seed uint64) (int, dptest.Report, error) {
	full, err := r.audit(finderOf(kind, r.box, maxTrials), seed)
	if !(full.Verdict == dptest.Violated) {
		return maxTrials, full, err
	}
	lo, hi := 0, maxTrials // hi's audit is violated, lo's is not (0: no trials)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if rep, _ := r.audit(finderOf(kind, r.box, mid), seed); rep.Verdict == dptest.Violated {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, full, err
}

func main() {
	runs := flag.Int("runs", 10, "runs of each (mechanism, finder)")
	only := flag.String("only", "", "regular expression: only the mechanisms whose name matches")
	each := flag.Bool("each", false, "one line per audit on stderr")
	flag.Parse()
	re, err := regexp.Compile(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "table2:", err)
		os.Exit(2)
	}
	fmt.Printf("# table2: runs=%d ε=%g n=%d trials≤%d GOMAXPROCS=%d %s\n", *runs, eps, n, maxTrials, runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.RFC3339))
	fmt.Printf("%-19s %-7s | %-22s | %9s %9s %5s %6s\n", "mechanism", "finder", "KMRS24 H/R/M/HS", "dptest", "screened", "det.", "s/run")
	for _, r := range rows() {
		if !re.MatchString(r.name) {
			continue
		}
		for _, kind := range []string{"random", "grid", "bandit"} {
			var found, screened, secs []float64
			detected := 0
			for i := 0; i < *runs; i++ {
				seed := expstat.RunSeed("table2|%s|%s|%d", r.name, kind, i)
				start := time.Now()
				t, rep, err := trialsToFind(r, kind, seed)
				secs = append(secs, time.Since(start).Seconds())
				if err != nil && !errorsIsInconclusive(err) {
					fmt.Fprintf(os.Stderr, "table2: %s %s run %d: %v\n", r.name, kind, i, err)
				}
				if rep.Verdict == dptest.Violated {
					detected++
				}
				found = append(found, float64(t))
				screened = append(screened, float64(rep.Details.Trials))
				if *each {
					fmt.Fprintf(os.Stderr, "audit %s %s #%d: violated=%v found at %d trials, screened %d err=%v\n", r.name, kind, i, (rep.Verdict == dptest.Violated), t, rep.Details.Trials, err)
				}
			}
			p := published[kind][strings.TrimSuffix(r.name, " RDP")]
			fmt.Printf("%-19s %-7s | %4s %4s %4s %4s      | %9.1f %9.1f %2d/%-2d %6.2f\n", r.name, kind,
				pub(p[0]), pub(p[1]), pub(p[2]), pub(p[3]), mean(found), mean(screened), detected, *runs, expstat.Median(secs))
		}
	}
	fmt.Printf("# done %s\n", time.Now().UTC().Format(time.RFC3339))
}

func pub(v float64) string {
	if v < 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", v)
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x / float64(len(v))
	}
	return s
}

func errorsIsInconclusive(err error) bool { return errors.Is(err, dptest.ErrInconclusive) }
