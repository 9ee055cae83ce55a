// Command rdpspeed times complete AuditRDP runs (what RequireRDP runs) of
// the Gaussian mechanism σ = 5 over [0,1]^10 claimed at its exact RDP,
// λ = 2, and sets each against the time its mechanism calls alone take:
// the same number of calls, drawn by the same parallel sampler into a
// statistic that does nothing. Both are measured in one run, interleaved,
// so that a noisy machine affects both alike. The Gaussian mechanism costs
// about 16 ns a call, the cheapest a mechanism can be; the "slow" setting
// draws 60 more normals per call and discards them (same outputs' law,
// about 0.5 µs a call), to show how the ratio falls as calls get dearer.
//
// With -r it also times the R procedure of [KAD24] Section IV-A for one
// bound at 5·10⁶ samples per side (paper.R: KernSmooth's dpik bandwidth to
// the power 1.1, bkde on 1000 points, eqs. (9)–(18)) against one full
// audit at the same confirming sample size.
//
//	go run ./internal/experiments/rdpspeed -reps 20
//	go run ./internal/experiments/rdpspeed -reps 5 -r
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/internal/experiments/expstat"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/mechanisms"
)

// discard is a statistic that keeps nothing.
type discard struct{}

func (*discard) Add(float64)    {}
func (*discard) Merge(*discard) {}

// drawsAlone makes n calls of the mechanism on the canonical X through the
// sampler, on all cores, and returns the time they took.
func drawsAlone(f func(*rand.Rand, []float64) float64, n int64, seed uint64) time.Duration {
	x := make([]float64, 10)
	x[0] = 1
	t0 := time.Now()
	_, err := sampler.Draw(sampler.Stream{Seed: seed, ID: 1}, int(n),
		func(r *rand.Rand) float64 { return f(r, x) }, func(float64) error { return nil },
		func() *discard { return &discard{} })
	if err != nil {
		panic(err)
	}
	return time.Since(t0)
}

type setting struct {
	name string
	mech func(*rand.Rand, []float64) float64
	opts []dptest.Option
}

func main() {
	reps := flag.Int("reps", 20, "audits per setting")
	runR := flag.Bool("r", false, "also time the R procedure of the paper (needs Rscript and KernSmooth) against a full audit at 5e6 samples")
	flag.Parse()
	g := mechanisms.Gaussian{Sigma: 5}
	slow := func(r *rand.Rand, x []float64) float64 {
		for i := 0; i < 60; i++ {
			_ = r.NormFloat64()
		}
		return g.Sample(r, x)
	}
	short := []dptest.Option{dptest.Samples(dptest.ShortSamples), dptest.Candidates(dptest.ShortCandidates)}
	settings := []setting{
		{"default (1,000,000 samples, 20 candidates)", g.Sample, nil},
		{"-short (200,000 samples, 5 candidates)", g.Sample, short},
		{"slow mechanism, -short", slow, short},
	}
	if *runR {
		settings = []setting{{"5,000,000 samples, 20 candidates", g.Sample, []dptest.Option{dptest.Samples(5_000_000)}}}
	}
	fmt.Printf("# rdpspeed: Gaussian σ=5, λ=2, claim = exact RDP; reps=%d GOMAXPROCS=%d %s\n", *reps, runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.RFC3339))
	fmt.Printf("%-45s %12s %10s %10s %10s %8s\n", "setting", "calls", "audit s", "draws s", "ratio", "peak RSS")
	for _, s := range settings {
		var audits, draws, ratios, calls []float64
		for i := 0; i < *reps; i++ {
			opts := append([]dptest.Option{dptest.Seed(uint64(i + 1))}, s.opts...)
			t0 := time.Now()
			rep, err := dptest.AuditRDP(dptest.Continuous(s.mech), 2, g.RDP(2), opts...)
			if err != nil {
				panic(err)
			}
			a := time.Since(t0).Seconds()
			d := drawsAlone(s.mech, rep.Calls, uint64(i+1)).Seconds()
			audits, draws, ratios = append(audits, a), append(draws, d), append(ratios, a/d)
			calls = append(calls, float64(rep.Calls))
		}
		fmt.Printf("%-45s %12.0f %10.3f %10.3f %10.2f %8s   (medians; audit min %.3f max %.3f)\n", s.name, expstat.Median(calls),
			expstat.Median(audits), expstat.Median(draws), expstat.Median(ratios), expstat.PeakRSS(), slices.Min(audits), slices.Max(audits))
	}
	if *runR {
		paperR(*reps)
	}
}

// paperR runs paper.R (next to this file) for reps bounds at 5·10⁶ samples.
func paperR(reps int) {
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "paper.R")
	out, err := exec.Command("Rscript", script, "5e6", fmt.Sprint(reps)).CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "Rscript: %v\n%s", err, out)
		os.Exit(1)
	}
	fmt.Printf("# R procedure of [KAD24] Section IV-A, one bound at 5,000,000 samples per side (one core):\n")
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fmt.Println("  " + l)
	}
}
