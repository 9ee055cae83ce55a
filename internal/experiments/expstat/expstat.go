// Package expstat holds the small statistics the experiment programs share:
// binomial intervals for coverage rates, quantiles of samples of bounds, and
// the process's peak memory.
package expstat

import (
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/dptest/dptest/internal/numeric"
)

// ClopperPearson returns the two-sided 95% Clopper–Pearson interval for k
// successes in n trials: the one-sided exact bounds of
// numeric.BinomialLower/BinomialUpper at 2.5% each.
func ClopperPearson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	return numeric.BinomialLower(int64(k), int64(n), 0.025), numeric.BinomialUpper(int64(k), int64(n), 0.025)
}

// RunSeed derives the seed of one run from a description of it (the
// program, its base seed, the configuration, the run's index), formatted
// by fmt.Sprintf(format, args...): its FNV-1a hash, spread by splitmix64's
// finaliser so that similar descriptions give unrelated seeds.
func RunSeed(format string, args ...any) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, format, args...)
	z := h.Sum64()
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Quantile returns the p-quantile of v, interpolating linearly between order
// statistics; v need not be sorted and is not modified.
func Quantile(v []float64, p float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	pos := p * float64(len(s)-1)
	i := int(pos)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	f := pos - float64(i)
	return s[i]*(1-f) + s[i+1]*f
}

// Median is Quantile(v, 0.5).
func Median(v []float64) float64 { return Quantile(v, 0.5) }

// PeakRSS returns the peak resident set size of this process (VmHWM of
// /proc/self/status), or "?" where that is not available.
func PeakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			kb, _ := strconv.Atoi(strings.Fields(line)[1])
			return fmt.Sprintf("%.0f MiB", float64(kb)/1024)
		}
	}
	return "?"
}
