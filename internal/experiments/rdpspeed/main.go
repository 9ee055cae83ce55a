// Command rdpspeed times one complete RequireRDP-equivalent audit (AuditRDP
// with the default options, or with the -short sample sizes) of the Gaussian
// mechanism over [0,1]^10 claimed at its exact RDP, the speed target of the
// RequireRDP issue: ≤ 2 s at the defaults, ≤ 0.5 s with -short.
//
//	go run ./internal/experiments/rdpspeed -reps 20
package main

import (
	"flag"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/mechanisms"
)

func main() {
	reps := flag.Int("reps", 20, "audits per setting")
	flag.Parse()
	g := mechanisms.Gaussian{Sigma: 5}
	m := dptest.Continuous(g.Sample)
	settings := []struct {
		name string
		opts []dptest.Option
	}{
		{"default (1,000,000 samples, 20 candidates)", nil},
		{"-short (200,000 samples, 5 candidates)", []dptest.Option{dptest.Samples(dptest.ShortSamples), dptest.Candidates(dptest.ShortCandidates)}},
	}
	fmt.Printf("# rdpspeed: Gaussian σ=5, λ=2, claim = exact RDP; reps=%d GOMAXPROCS=%d %s\n", *reps, runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.RFC3339))
	for _, s := range settings {
		var times []float64
		for i := 0; i < *reps; i++ {
			opts := append([]dptest.Option{dptest.Seed(uint64(i + 1))}, s.opts...)
			t0 := time.Now()
			rep, err := dptest.AuditRDP(m, 2, g.RDP(2), opts...)
			if err != nil {
				panic(err)
			}
			times = append(times, time.Since(t0).Seconds())
			_ = rep
		}
		slices.Sort(times)
		fmt.Printf("%-45s median %.3f s   min %.3f s   max %.3f s\n", s.name, times[len(times)/2], times[0], times[len(times)-1])
	}
}
