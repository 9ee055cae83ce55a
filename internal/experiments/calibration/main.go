// Command calibration measures the false-failure rate of dptest.AuditRDP on
// correct mechanisms claimed at their exact Rényi DP, ε = m.RDP(λ):
// Gaussian σ = 5, Laplace b = 5, subsampled Gaussian σ = 5, γ = ½ (real
// outputs), randomized response ε₀ = 1.5 on 10 records (discrete) and
// the discrete Laplace of scale 1,000 on ⌊1000·Σx⌋ (integers drawn a few
// times each, screened in ranges), at λ ∈ {2, 5} unless -lambda says
// otherwise, with the default options (default candidates: the canonical
// pair and 20 pairs of fixtures.UnitCube(10); 1,000,000 confirming samples)
// and a distinct dptest.Seed per run.
//
// Every run audits each claim once per confidence c in {0.95, 0.99,
// 0.9999}, with the same seed: the samples, the candidates and the
// estimates do not depend on c, but since the confirmation is sequential
// (an early look on a tenth of the draws that may stop the audit, at a
// tenth of α) the verdict at c can no longer be read off the default
// audit's confirmations, so each is an audit of its own. (Runs recorded
// before the sequential confirmation reconstructed the verdicts at 0.95
// and 0.99 from one audit; their -raw files still summarise.)
//
// For every (mechanism, λ) it prints the number of runs, and for each
// confidence the violations, their rate and its Clopper–Pearson 95%
// interval (a calibrated audit has rate ≤ 1 − c); then the audits
// inconclusive at the default confidence (no false failure, but no pass:
// at high orders the Gaussian's evidence lies in tails its draws barely
// reach), the median of LowerBound/ε and Estimate/ε there, the runs of old
// -raw files whose reconstruction was cross-checked and the
// disagreements, and the seconds per audit at the default confidence.
//
// A long run can be split: -start and -runs select the run indices, -mech
// and -lambda the configurations, and -raw appends one line per run to a
// file; -from summarises such files (comma-separated) without auditing.
//
//	go run ./internal/experiments/calibration -runs 1000 -raw /tmp/runs/calibration-raw.tsv
//	go run ./internal/experiments/calibration -runs 100 -lambda 10,16 -mech gaussian,laplace,rr,dlap
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/internal/experiments/expstat"
	"github.com/dptest/dptest/mechanisms"
)

// confidences are the levels at which every run is judged; the last is
// dptest's default.
var confidences = []float64{0.95, 0.99, dptest.DefaultConfidence}

type mechanism struct {
	name string
	mech dptest.Mechanism[[]float64]
	rdp  func(lambda float64) float64
}

func calibrationMechanisms() []mechanism {
	gau := mechanisms.Gaussian{Sigma: 5}
	lap := mechanisms.Laplace{B: 5}
	sgau := mechanisms.SubsampledGaussian{Sigma: 5, Gamma: 0.5}
	rr := mechanisms.RandomizedResponse{Eps0: 1.5, M: 10}
	dl := mechanisms.DiscreteLaplace{B: wideScale, Sensitivity: wideScale}
	return []mechanism{
		{"gaussian", dptest.Continuous(gau.Sample), gau.RDP},
		{"laplace", dptest.Continuous(lap.Sample), lap.RDP},
		{"sub-gaussian", dptest.Continuous(sgau.Sample), sgau.RDP},
		{"rr", dptest.Discrete(rr.Sample), rr.RDP},
		{"dlap", dptest.Discrete(wideDiscreteLaplace(dl)), dl.RDP},
	}
}

// wideScale is the scale b of the discrete Laplace, and the factor by
// which it scales the sum: neighbours in [0, 1]^m move ⌊b·Σx⌋ by at most b.
const wideScale = 1000

// wideDiscreteLaplace returns the mechanism ⌊b·Σx⌋ + G − G′ of dl
// ([mechanisms.DiscreteLaplace]).
func wideDiscreteLaplace(dl mechanisms.DiscreteLaplace) func(r *rand.Rand, x []float64) int64 {
	return func(r *rand.Rand, x []float64) int64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return dl.Sample(r, int64(math.Floor(wideScale*s)))
	}
}

// record is the outcome of one run.
type record struct {
	mech     string
	lambda   float64
	run      int
	seed     uint64
	violated []bool // at each of confidences
	// inconclusive: the audit ended ErrInconclusive (not a false failure);
	// unknown for records of files written before the field (10 fields)
	inconclusive, inconclusiveUnknown bool
	lbRatio                           float64
	estRatio                          float64
	seconds                           float64
	checked                           bool // (old -raw files) reconstruction compared with audits at the other confidences
	mismatch                          int  // (old -raw files) disagreements with AuditRDP
}

// runSeed gives every (mechanism, λ, run) its own seed.
func runSeed(base uint64, mech string, lambda float64, run int) uint64 {
	return expstat.RunSeed("calibration|%d|%s|%v|%d", base, mech, lambda, run)
}

func runOne(m mechanism, lambda float64, run int, base uint64, samples int) (record, error) {
	seed := runSeed(base, m.name, lambda, run)
	claim := m.rdp(lambda)
	opts := []dptest.Option{dptest.Seed(seed)}
	if samples > 0 {
		opts = append(opts, dptest.Samples(samples))
	}
	r := record{mech: m.name, lambda: lambda, run: run, seed: seed}
	for _, c := range confidences {
		t0 := time.Now()
		rep, err := dptest.AuditRDP(m.mech, lambda, claim, append(opts, dptest.Confidence(c))...)
		if err != nil && !errors.Is(err, dptest.ErrInconclusive) {
			return record{}, err
		}
		// An inconclusive audit is no false failure.
		r.violated = append(r.violated, err == nil && (rep.Verdict == dptest.Violated))
		if c == dptest.DefaultConfidence {
			r.inconclusive, r.seconds = err != nil, time.Since(t0).Seconds()
			r.lbRatio, r.estRatio = rep.LowerBound/claim, rep.Estimate/claim
		}
	}
	return r, nil
}

func (r record) tsv() string {
	v := make([]string, len(r.violated))
	for i, b := range r.violated {
		v[i] = strconv.FormatBool(b)
	}
	return fmt.Sprintf("%s\t%g\t%d\t%d\t%s\t%.6g\t%.6g\t%.4g\t%v\t%d\t%v",
		r.mech, r.lambda, r.run, r.seed, strings.Join(v, ","), r.lbRatio, r.estRatio, r.seconds, r.checked, r.mismatch, r.inconclusive)
}

func parseRecord(line string) (record, error) {
	f := strings.Split(line, "\t")
	// Files written before the inconclusive field have 10 fields; the
	// summary counts their runs apart (inconclusiveUnknown).
	if len(f) != 10 && len(f) != 11 {
		return record{}, fmt.Errorf("want 10 or 11 fields, got %d", len(f))
	}
	r := record{mech: f[0]}
	var errs []error
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		errs = append(errs, err)
		return v
	}
	boolean := func(s string) bool {
		b, err := strconv.ParseBool(s)
		errs = append(errs, err)
		return b
	}
	r.lambda = num(f[1])
	r.run = int(num(f[2]))
	seed, err := strconv.ParseUint(f[3], 10, 64)
	r.seed, errs = seed, append(errs, err)
	for _, s := range strings.Split(f[4], ",") {
		r.violated = append(r.violated, boolean(s))
	}
	r.lbRatio, r.estRatio, r.seconds = num(f[5]), num(f[6]), num(f[7])
	r.checked = boolean(f[8])
	r.mismatch = int(num(f[9]))
	if len(f) == 11 {
		r.inconclusive = boolean(f[10])
	} else {
		r.inconclusiveUnknown = true
	}
	if err := errors.Join(errs...); err != nil {
		return r, err
	}
	if len(r.violated) != len(confidences) {
		return r, fmt.Errorf("want %d verdicts, got %d", len(confidences), len(r.violated))
	}
	return r, nil
}

// summarise prints one row per (mechanism, λ), in order of first appearance.
func summarise(recs []record) {
	type key struct {
		mech   string
		lambda float64
	}
	var keys []key
	groups := map[key][]record{}
	for _, r := range recs {
		k := key{r.mech, r.lambda}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	fmt.Printf("%-13s %2s %5s", "mechanism", "λ", "runs")
	for _, c := range confidences {
		fmt.Printf("  %-26s", fmt.Sprintf("viol. @%g (rate, 95%% CI)", c))
	}
	fmt.Printf(" %5s %8s %8s %9s %8s\n", "inc.", "med LB/ε", "med D̂/ε", "checked", "s/audit")
	var unknowns []string // rows with runs of files that do not record inconclusive verdicts
	for _, k := range keys {
		g := groups[k]
		seen := map[int]bool{}
		var lb, est []float64
		sec, checked, mism, inconclusive, unknown := 0.0, 0, 0, 0, 0
		viol := make([]int, len(confidences))
		for _, r := range g {
			if seen[r.run] {
				fmt.Fprintf(os.Stderr, "warning: %s λ=%g run %d appears twice\n", r.mech, r.lambda, r.run)
			}
			seen[r.run] = true
			for i, v := range r.violated {
				if v {
					viol[i]++
				}
			}
			lb = append(lb, r.lbRatio)
			est = append(est, r.estRatio)
			sec += r.seconds
			mism += r.mismatch
			if r.inconclusive {
				inconclusive++
			}
			if r.inconclusiveUnknown {
				unknown++
			}
			if r.checked {
				checked++
			}
		}
		n := len(g)
		fmt.Printf("%-13s %2g %5d", k.mech, k.lambda, n)
		for _, v := range viol {
			lo, hi := expstat.ClopperPearson(v, n)
			fmt.Printf("  %3d %6.4f [%6.4f,%6.4f]", v, float64(v)/float64(n), lo, hi)
		}
		inc := strconv.Itoa(inconclusive)
		if unknown > 0 {
			inc += "*"
			unknowns = append(unknowns, fmt.Sprintf("%s λ=%g: %d", k.mech, k.lambda, unknown))
		}
		fmt.Printf(" %5s %8.4f %8.4f %4d/%-4s %8.2f\n", inc, expstat.Median(lb), expstat.Median(est), checked, fmt.Sprintf("%d✗", mism), sec/float64(n))
	}
	if len(unknowns) > 0 {
		fmt.Printf("* inc. counts only the runs of files that record it; runs of older files, not counted: %s\n", strings.Join(unknowns, ", "))
	}
}

func readRecords(files string) ([]record, error) {
	var recs []record
	for _, name := range strings.Split(files, ",") {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for ln := 1; sc.Scan(); ln++ {
			if sc.Text() == "" || strings.HasPrefix(sc.Text(), "#") {
				continue
			}
			r, err := parseRecord(sc.Text())
			if err != nil {
				f.Close()
				return nil, fmt.Errorf("%s:%d: %v", name, ln, err)
			}
			recs = append(recs, r)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return recs, nil
}

func main() {
	runs := flag.Int("runs", 1000, "runs per (mechanism, λ)")
	start := flag.Int("start", 0, "index of the first run (to split a long run into chunks)")
	only := flag.String("mech", "", "comma-separated mechanisms: gaussian, laplace, sub-gaussian, rr, dlap (default: all)")
	lambdaList := flag.String("lambda", "2,5", "orders λ, comma-separated")
	seed := flag.Uint64("seed", 20261122, "base seed; run i of a configuration uses a seed derived from it, the configuration and i")
	samples := flag.Int("samples", 0, "confirming samples per side (0: dptest's default)")
	raw := flag.String("raw", "", "append one tab-separated line per run to this file")
	from := flag.String("from", "", "summarise these comma-separated -raw files instead of auditing")
	flag.Parse()

	if *from != "" {
		recs, err := readRecords(*from)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("# calibration: summary of %s (%d runs)\n", *from, len(recs))
		summarise(recs)
		return
	}

	var lambdas []float64
	for _, s := range strings.Split(*lambdaList, ",") {
		l, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad λ:", s)
			os.Exit(2)
		}
		lambdas = append(lambdas, l)
	}
	mechs := calibrationMechanisms()
	if *only != "" {
		keep := strings.Split(*only, ",")
		mechs = slices.DeleteFunc(mechs, func(m mechanism) bool { return !slices.Contains(keep, m.name) })
	}
	var rawFile *os.File
	if *raw != "" {
		var err error
		if rawFile, err = os.OpenFile(*raw, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer rawFile.Close()
	}
	fmt.Printf("# calibration: runs %d..%d seed=%d samples=%d GOMAXPROCS=%d %s\n",
		*start, *start+*runs-1, *seed, *samples, runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.RFC3339))
	var all []record
	for _, m := range mechs {
		for _, l := range lambdas {
			t0 := time.Now()
			viol, inconclusive := 0, 0
			for i := *start; i < *start+*runs; i++ {
				r, err := runOne(m, l, i, *seed, *samples)
				if err != nil {
					fmt.Fprintf(os.Stderr, "%s λ=%g run %d: %v\n", m.name, l, i, err)
					os.Exit(1)
				}
				all = append(all, r)
				if r.violated[len(confidences)-1] {
					viol++
				}
				if r.inconclusive {
					inconclusive++
				}
				if rawFile != nil {
					fmt.Fprintln(rawFile, r.tsv())
				}
				if done := i - *start + 1; done%25 == 0 || done == *runs {
					fmt.Fprintf(os.Stderr, "%s %s λ=%g: %d/%d runs, %d violations at the default confidence, %d inconclusive, %.2f s/run\n",
						time.Now().Format("15:04:05"), m.name, l, done, *runs, viol, inconclusive, time.Since(t0).Seconds()/float64(done))
				}
			}
		}
	}
	summarise(all)
	fmt.Printf("# done %s\n", time.Now().UTC().Format(time.RFC3339))
}
