package mechanisms

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/dptest/dptest/internal/numeric"
)

// chiSquareAlpha is the false-failure probability of every goodness-of-fit
// test in this package's reference tests: each rejects a correct sampler with
// probability 1e-6 (the samples are drawn from fixed seeds, so a given build
// either always passes or always fails).
const chiSquareAlpha = 1e-6

func newTestRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// requireFitsCDF draws n samples and runs a Pearson chi-square test of them
// against the distribution function cdf on the cells cut at edges (plus the
// two unbounded end cells).
func requireFitsCDF(t *testing.T, n int, draw func() float64, cdf func(float64) float64, edges []float64) {
	t.Helper()
	counts := make([]float64, len(edges)+1)
	for i := 0; i < n; i++ {
		v := draw()
		j := 0
		for j < len(edges) && v >= edges[j] {
			j++
		}
		counts[j]++
	}
	probs := make([]float64, len(edges)+1)
	prev := 0.0
	for j, e := range edges {
		c := cdf(e)
		probs[j] = c - prev
		prev = c
	}
	probs[len(edges)] = 1 - prev
	requireFitsPMF(t, counts, probs)
}

// requireFitsPMF runs a Pearson chi-square test of observed counts against
// cell probabilities probs (each expected count must be ≥ 5).
func requireFitsPMF(t *testing.T, counts, probs []float64) {
	t.Helper()
	n := 0.0
	for _, c := range counts {
		n += c
	}
	stat := 0.0
	for j := range counts {
		e := n * probs[j]
		require.GreaterOrEqual(t, e, 5.0, "cell %d has expected count %v < 5; choose coarser cells", j, e)
		stat += (counts[j] - e) * (counts[j] - e) / e
	}
	crit := distuv.ChiSquared{K: float64(len(counts) - 1)}.Quantile(1 - chiSquareAlpha)
	require.Less(t, stat, crit, "chi-square %.2f on %d cells exceeds the 1e-6 critical value %.2f", stat, len(counts), crit)
}

// renyiByQuadrature returns D_λ(p ‖ q) = log(∫ exp(λ log p + (1−λ) log q))/(λ−1)
// for log-densities given on [lo, hi] with kinks at breaks; the tails beyond
// lo and hi must be negligible.
func renyiByQuadrature(logp, logq func(float64) float64, lambda float64, breaks []float64) float64 {
	return numeric.LogIntegrateBreaks(func(t float64) float64 {
		return lambda*logp(t) + (1-lambda)*logq(t)
	}, breaks, 200) / (lambda - 1)
}

func logNormalPDF(t, mu, sigma float64) float64 {
	z := (t - mu) / sigma
	return -0.5*z*z - math.Log(sigma) - 0.5*math.Log(2*math.Pi)
}

func logLaplacePDF(t, mu, b float64) float64 { return -math.Abs(t-mu)/b - math.Log(2*b) }

func laplaceCDF(t, mu, b float64) float64 {
	if t < mu {
		return 0.5 * math.Exp((t-mu)/b)
	}
	return 1 - 0.5*math.Exp(-(t-mu)/b)
}

func normalCDF(t, mu, sigma float64) float64 { return 0.5 * math.Erfc(-(t-mu)/(sigma*math.Sqrt2)) }

func linspace(a, b float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	return out
}

// canonical10 is the canonical pair of seed 002 eq. (21) with m = 10.
func canonical10() (x, y []float64) {
	x = make([]float64, 10)
	y = make([]float64, 10)
	x[0] = 1
	return x, y
}
