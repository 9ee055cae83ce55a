// Command robustness audits a grid of output shapes unlike the papers'
// examples, each with its exact truth (closed form, exact summation or
// quadrature; see truths.go), and counts the verdicts of dptest's default
// audit:
//
//   - claim = truth (a correct claim): violations (false failures),
//     inconclusive verdicts, passes, and the median of LowerBound/truth;
//   - claim = truth/1.5 (a clear violation): detected, inconclusive, and
//     passes — a pass here is a miss: a silent one, unless its success
//     line names the output one dataset alone produced that the claim's
//     order cannot bound on these draws (an RDP audit's atom inside the
//     noise), which the summary counts apart.
//
// The grid: offsets 10⁰…10¹⁵ and scales 10⁻³⁰⁰…10³⁰⁰ of a Gaussian
// mechanism, the discrete Laplace of scale 1…10⁵ as integers and as floats,
// far and near bimodal and narrow+wide mixtures, a clamped, a rounded and a
// Cauchy mechanism, k-ary randomized response with k = 2…10⁵ at λ = 2, 10,
// 20, a rounded Gaussian beside twenty strings that one dataset produces
// five times as often as the other and a block of 500 of 5,000 words of
// weights 1/(i+1) e^{x₀} times as heavy (rare values, λ = 2, 5, 10), the
// Gaussian mechanism at λ = 1.01…256, and pure-DP claims (Laplace
// at an offset of 10¹¹, the discrete Laplace of scale 1000, a partition
// selection of infinite loss), and rare outputs that one dataset alone
// produces, far beyond the noise or inside it (aloneShapes, pure DP at
// ε = 2 and RDP at λ = 2, only violated rows), and values of its own that
// each dataset produces beside a rounded Gaussian, each too rare to be
// seen often (ownValueShapes: strings, integers, strings that never
// repeat; RDP at λ = 2, only violated rows). Every audit runs with the default options
// and its own seed (expstat.RunSeed of the shape and the run).
//
//	go run ./internal/experiments/robustness -reps 100 -vreps 20
//	go run ./internal/experiments/robustness -only 'RR' -reps 10
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"time"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/internal/experiments/expstat"
)

type tally struct {
	runs, holds, unresolved, suspect, violated, errs int
	wrongHolds                                       int       // holds whose resolution lies below the truth
	named                                            int       // holds whose details name an output of one dataset alone
	ratios                                           []float64 // LowerBound/truth
	seconds                                          float64
	violatedClaims                                   bool // the claims audited are below the truth
}

func (t *tally) add(rep dptest.Report, err error, truth float64, elapsed time.Duration) {
	t.runs++
	t.seconds += elapsed.Seconds()
	switch rep.Verdict {
	case dptest.Holds:
		t.holds++
		if rep.Details.Alone != nil {
			t.named++
		}
		if truth > rep.Resolution {
			t.wrongHolds++
		}
	case dptest.Unresolved:
		t.unresolved++
	case dptest.Suspect:
		t.suspect++
	case dptest.Violated:
		t.violated++
	default:
		t.errs++
		fmt.Fprintln(os.Stderr, "error:", err)
	}
	if err == nil && !math.IsInf(truth, 1) {
		t.ratios = append(t.ratios, rep.LowerBound/truth)
	}
	wrong := rep.Verdict == dptest.Violated && !t.violatedClaims || rep.Verdict == dptest.Holds && t.violatedClaims
	if *showUnexpected && (wrong || !t.violatedClaims && rep.Verdict == dptest.Suspect) {
		fmt.Fprintf(os.Stderr, "unexpected (truth %.4g): %s\n", truth, rep)
	}
}

var showUnexpected = flag.Bool("show", false, "print to standard error the report of every false failure and silent pass")

func main() {
	reps := flag.Int("reps", 100, "audits of each correct claim (claim = truth)")
	vreps := flag.Int("vreps", 20, "audits of each violated claim (claim = truth/1.5)")
	only := flag.String("only", "", "regular expression: audit only the shapes whose family or name matches")
	skip := flag.String("skip", "", "regular expression: leave out the shapes whose family or name matches")
	check := flag.Bool("check", true, "check the closed-form truths against summation first")
	flag.Parse()
	if *check {
		checkTruths()
	}
	re := regexp.MustCompile(*only)
	var skipRe *regexp.Regexp
	if *skip != "" {
		skipRe = regexp.MustCompile(*skip)
	}
	fmt.Printf("%-12s %-34s %9s | %-37s | %-37s | %6s\n", "family", "shape", "truth", "claim=truth: n hold unres susp viol med", "claim=truth/1.5: n viol susp unres hold(wrong)", "s/aud")
	var all [2]tally
	for _, s := range shapes() {
		if key := s.family + " " + s.name; !re.MatchString(key) || (skipRe != nil && skipRe.MatchString(key)) {
			continue
		}
		ok, bad := tally{}, tally{violatedClaims: true}
		if !math.IsInf(s.truth, 1) {
			for i := 0; i < *reps; i++ {
				start := time.Now()
				rep, err := s.audit(s.truth, dptest.Seed(expstat.RunSeed("robustness|%s|%s|truth|%d", s.family, s.name, i)))
				ok.add(rep, err, s.truth, time.Since(start))
			}
		}
		claim := s.truth / 1.5
		if math.IsInf(s.truth, 1) {
			claim = s.infiniteClaim()
		}
		for i := 0; i < *vreps; i++ {
			start := time.Now()
			rep, err := s.audit(claim, dptest.Seed(expstat.RunSeed("robustness|%s|%s|violated|%d", s.family, s.name, i)))
			bad.add(rep, err, s.truth, time.Since(start))
		}
		med := math.NaN()
		if len(ok.ratios) > 0 {
			med = expstat.Median(ok.ratios)
		}
		fmt.Printf("%-12s %-34s %9.4g | %4d %4d %5d %4d %4d %8.3f | %4d %4d %4d %5d %4d(%d)      | %6.2f\n",
			s.family, s.name, s.truth, ok.runs, ok.holds, ok.unresolved, ok.suspect, ok.violated, med,
			bad.runs, bad.violated, bad.suspect, bad.unresolved, bad.holds, bad.wrongHolds, (ok.seconds+bad.seconds)/float64(max(ok.runs+bad.runs, 1)))
		if ok.named > 0 {
			fmt.Printf("    %d of the %d holds of the correct claims name an output one dataset alone produced\n", ok.named, ok.holds)
		}
		if bad.named > 0 {
			fmt.Printf("    %d of the %d holds of the violated claims name the output one dataset alone produced\n", bad.named, bad.holds)
		}
		if ok.errs+bad.errs > 0 {
			fmt.Printf("    %d audits ended in an error (see stderr)\n", ok.errs+bad.errs)
		}
		all[0].merge(ok)
		all[1].merge(bad)
	}
	fmt.Printf("\ncorrect claims: %d audits: %d holds, %d unresolved (%.1f%%), %d suspect, %d violated (false failures)\n",
		all[0].runs, all[0].holds, all[0].unresolved, 100*float64(all[0].unresolved)/float64(max(all[0].runs, 1)), all[0].suspect, all[0].violated)
	fmt.Printf("1.5× violations: %d audits: %d violated, %d suspect, %d unresolved, %d holds (%d of them with a resolution below the truth: wrong)\n",
		all[1].runs, all[1].violated, all[1].suspect, all[1].unresolved, all[1].holds, all[1].wrongHolds)
	fmt.Println(expstat.PeakRSS())
}

func (t *tally) merge(o tally) {
	t.runs += o.runs
	t.holds += o.holds
	t.unresolved += o.unresolved
	t.suspect += o.suspect
	t.violated += o.violated
	t.wrongHolds += o.wrongHolds
	t.named += o.named
	t.errs += o.errs
}

// checkTruths compares the closed forms with direct summation and with
// known values, and stops the program on a mismatch.
func checkTruths() {
	fail := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "robustness: truth check failed: "+format+"\n", args...)
		os.Exit(1)
	}
	for _, b := range []float64{1, 3, 10} {
		for _, l := range []float64{2, 5} {
			a, c := discreteLaplaceRDP(l, b, int(b)), discreteLaplaceRDPBySum(l, b, int(b))
			if math.Abs(a-c) > 1e-9*c {
				fail("discrete Laplace b=%g λ=%g: closed form %v, summation %v", b, l, a, c)
			}
		}
	}
	if c := cauchyRDP(2); math.Abs(c-math.Log(1.5)) > 1e-9 {
		fail("Cauchy λ=2: %v, want ln 1.5", c)
	}
	if g := gaussianMixtureRDP(3, 1, 1, 0); math.Abs(g-1.5) > 1e-9 {
		fail("Gaussian by quadrature λ=3: %v, want 1.5", g)
	}
	if g := gaussianMixtureRDP(2, 1, 1, 1e6); math.Abs(g-1) > 1e-9 {
		fail("far bimodal λ=2: %v, want 1", g)
	}
	if r := roundedGaussianRDP(2); !(r > 0.5 && r <= 1) {
		fail("rounded Gaussian λ=2: %v, want in (0.5, 1] (rounding is a post-processing of D₂ = 1)", r)
	}
	if r := clampedGaussianRDP(2); !(r > 0.5 && r <= 1) {
		fail("clamped Gaussian λ=2: %v, want in (0.5, 1]", r)
	}
	if r := rareStringsRDPAt(5, 0, false); math.Abs(r-0.17905977704595277) > 1e-9 {
		fail("rare strings λ=5 at s=0: %v, want 0.1790597770 (summation at 300 digits)", r)
	}
	if r := zipfBlockRDP(5); math.Abs(r-0.30140085656223053) > 1e-9 {
		fail("word block λ=5: %v, want 0.3014008566 (summation in Python)", r)
	}
	if r := kAryRRRDP(2, 2, 2); math.Abs(r-math.Log(math.Exp(2)*math.Exp(2)/(1+math.Exp(2))+math.Exp(-2)/(1+math.Exp(2)))) > 1e-12 {
		fail("binary RR λ=2: %v", r)
	}
}
