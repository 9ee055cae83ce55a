package mechanisms

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/dptest/dptest/internal/numeric"
)

// Helpers shared by the reference tests of this package: seeded generators,
// the chi-square goodness-of-fit test and its cells, densities and
// distribution functions written from their definitions, grids, and
// quadrature.

// ---- random numbers ----

// phi64 is ⌊2⁶⁴/φ⌋, the second PCG seed of the tests of additive.go,
// subsampled.go, rr.go and noisygd.go.
const phi64 = 0x9e3779b97f4a7c15

// newTestRand returns the fixed-seed PCG generator the tests use.
func newTestRand(seed1, seed2 uint64) *rand.Rand { return rand.New(rand.NewPCG(seed1, seed2)) }

// ---- chi-square goodness of fit ----

// chiSquareAlpha is the false-failure probability of every goodness-of-fit
// test in this package's reference tests: each rejects a correct sampler with
// probability 1e-6, comparing its statistic with the 1 − 10⁻⁶ quantile (the
// samples are drawn from fixed seeds, so a given build either always passes
// or always fails).
const chiSquareAlpha = 1e-6

// checkFitsPMF runs Pearson's goodness-of-fit test of the observed counts
// against the cell probabilities p (which must sum to 1): adjacent cells are
// pooled, in order, until each expected count is at least 5, and the
// statistic must stay below the 1 − chiSquareAlpha quantile of
// χ²(cells − 1), so a correct sampler fails with probability at most
// chiSquareAlpha.
//
// It replaces two helpers that differed: one pooled small cells, the other
// (used by the tests of additive.go, subsampled.go, noisygd.go and rr.go)
// demanded an expected count of at least 5 in every cell. Pooling serves
// both: on cells that all meet the demand it changes nothing, so those tests
// compute the same statistic on the same cells as before. A misuse
// (mismatched lengths, probabilities not summing to 1, fewer than two pooled
// cells) stops the test; a statistic over the critical value is reported
// without stopping it (the second helper stopped), so a loop over cases or
// subtests reports every failing case. The message gives the statistic, the
// pooled cells, the number of samples and the critical value.
func checkFitsPMF(t *testing.T, counts []int, p []float64) {
	t.Helper()
	require.Equal(t, len(p), len(counts))
	n, sp := 0, 0.0
	for i := range counts {
		n += counts[i]
		sp += p[i]
	}
	require.InDelta(t, 1, sp, 1e-7, "cell probabilities must sum to 1")
	var obs, exp []float64
	o, e := 0.0, 0.0
	for i := range counts {
		o += float64(counts[i])
		e += p[i] * float64(n)
		if e >= 5 {
			obs, exp = append(obs, o), append(exp, e)
			o, e = 0, 0
		}
	}
	if len(exp) == 0 {
		t.Fatalf("no cell has an expected count of 5 among %d samples", n)
	}
	obs[len(obs)-1] += o
	exp[len(exp)-1] += e
	require.GreaterOrEqual(t, len(exp), 2, "need at least two pooled cells")
	stat := 0.0
	for i := range exp {
		d := obs[i] - exp[i]
		stat += d * d / exp[i]
	}
	crit := distuv.ChiSquared{K: float64(len(exp) - 1)}.Quantile(1 - chiSquareAlpha)
	assert.Less(t, stat, crit, "chi-square %.2f on %d cells (%d samples) exceeds the 1e-6 critical value %.2f",
		stat, len(exp), n, crit)
}

// checkFitsCDF draws n samples and runs [checkFitsPMF] on them against the
// distribution function cdf, on the cells of [binCounts].
func checkFitsCDF(t *testing.T, n int, draw func() float64, cdf func(float64) float64, edges []float64) {
	t.Helper()
	checkFitsPMF(t, binCounts(n, edges, draw), binProbs(edges, cdf))
}

// binIndex returns the cell of v among (−∞, e_0], (e_0, e_1], …,
// (e_last, ∞) for sorted edges.
func binIndex(edges []float64, v float64) int { return sort.SearchFloat64s(edges, v) }

// binCounts samples n outputs and counts them in the cells of [binIndex].
// (The tests of additive.go, subsampled.go and noisygd.go used to close the
// cells on the left; that matters only for a draw exactly on an edge, and
// none of their fixed-seed draws is.)
func binCounts(n int, edges []float64, draw func() float64) []int {
	counts := make([]int, len(edges)+1)
	for range n {
		counts[binIndex(edges, draw())]++
	}
	return counts
}

// binProbs returns the probabilities of the cells of [binCounts] from a CDF.
func binProbs(edges []float64, cdf func(float64) float64) []float64 {
	p := make([]float64, len(edges)+1)
	prev := 0.0
	for i, e := range edges {
		c := cdf(e)
		p[i] = c - prev
		prev = c
	}
	p[len(edges)] = 1 - prev
	return p
}

// ---- densities and distribution functions, from their definitions ----

// laplacePDF, logLaplacePDF and laplaceCDF are the density, its logarithm
// and the CDF of Lap(mu, b), written from the definition
// f(t) = exp(−|t − mu|/b)/(2b). The survival function of Lap(0, b) at z is
// laplaceCDF(−z, 0, b), without cancellation in either tail.
func laplacePDF(t, mu, b float64) float64 { return math.Exp(-math.Abs(t-mu)/b) / (2 * b) }

func logLaplacePDF(t, mu, b float64) float64 { return -math.Abs(t-mu)/b - math.Log(2*b) }

func laplaceCDF(t, mu, b float64) float64 {
	if t < mu {
		return 0.5 * math.Exp((t-mu)/b)
	}
	return 1 - 0.5*math.Exp(-(t-mu)/b)
}

func logNormalPDF(t, mu, sigma float64) float64 {
	z := (t - mu) / sigma
	return -0.5*z*z - math.Log(sigma) - 0.5*math.Log(2*math.Pi)
}

func normalCDF(t, mu, sigma float64) float64 { return 0.5 * math.Erfc(-(t-mu)/(sigma*math.Sqrt2)) }

// ---- grids and datasets ----

// linspace returns n points from a to b, both included.
func linspace(a, b float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	return out
}

// grid returns lo, lo+step, …, up to hi: a grid given by its step where
// [linspace] takes the number of points.
func grid(lo, hi, step float64) []float64 {
	var g []float64
	for k := 0; ; k++ {
		v := lo + float64(k)*step
		if v > hi+1e-12 {
			return g
		}
		g = append(g, v)
	}
}

// geomBreaks returns lo·r^k for k = 0, 1, … while below hi: break points
// that resolve a function varying on every scale near zero.
func geomBreaks(lo, hi, r float64) []float64 {
	var b []float64
	for v := lo; v < hi; v *= r {
		b = append(b, v)
	}
	return b
}

// canonical10 is the canonical pair of [KAD24] eq. (21) with m = 10.
func canonical10() (x, y []float64) {
	x = make([]float64, 10)
	y = make([]float64, 10)
	x[0] = 1
	return x, y
}

// ---- quadrature ----

// renyiByQuadrature returns D_λ(p ‖ q) = log(∫ exp(λ log p + (1−λ) log q))/(λ−1)
// for log-densities given on [lo, hi] with kinks at breaks; the tails beyond
// lo and hi must be negligible.
func renyiByQuadrature(logp, logq func(float64) float64, lambda float64, breaks []float64) float64 {
	return numeric.LogIntegrateBreaks(func(t float64) float64 {
		return lambda*logp(t) + (1-lambda)*logq(t)
	}, breaks, 200) / (lambda - 1)
}

// cuts returns a, the break points strictly inside (a, b) in increasing
// order, and b: the break points [numeric.IntegrateBreaks] wants, from
// break points that may be unsorted, repeated or outside [a, b].
func cuts(a, b float64, breaks []float64) []float64 {
	pts := []float64{a, b}
	for _, p := range breaks {
		if p > a && p < b {
			pts = append(pts, p)
		}
	}
	sort.Float64s(pts)
	return pts
}

// integrate returns ∫_a^b f by [numeric.IntegrateBreaks]: [a, b] is cut at
// every break point inside it (put the kinks of f there), and each piece into
// pieces equal Gauss-Legendre panels.
func integrate(f func(float64) float64, a, b float64, breaks []float64, pieces int) float64 {
	return numeric.IntegrateBreaks(f, cuts(a, b, breaks), pieces)
}

// glX and glW hold the 20-point Gauss-Legendre rule on [−1, 1], from gonum.
var glX, glW = func() ([]float64, []float64) {
	x, w := make([]float64, 20), make([]float64, 20)
	quad.Legendre{}.FixedLocations(x, w, -1, 1)
	return x, w
}()

// glNodes returns the nodes and weights of the composite 20-point
// Gauss-Legendre rule on [a, b] cut at the break points inside it, with
// sub-panels of width at most maxW on every piece (so a long piece gets more
// panels than a short one).
//
// numeric.Integrate and numeric.IntegrateBreaks do not fit its two callers.
// They return an integral, not the rule, while the SVT reference (svtEval)
// multiplies the weights by the density of ρ once and reuses them for every
// output pattern. And IntegrateBreaks gives every piece the same number of
// panels, while amMix (through integrateW) needs a bound on the panel width
// over pieces whose lengths span eleven orders of magnitude (geomBreaks near
// zero). Calling numeric.Integrate piece by piece with its own panel count
// would serve integrateW, but at about three times the test time of
// TestDPMeanEpsilon and TestNonDPGaussian2: its 64-point rule is recomputed
// for every panel, and amMix, with over a hundred pieces, is evaluated
// thousands of times.
func glNodes(a, b float64, breaks []float64, maxW float64) (xs, ws []float64) {
	pts := cuts(a, b, breaks)
	for k := 0; k+1 < len(pts); k++ {
		lo, hi := pts[k], pts[k+1]
		if hi <= lo {
			continue
		}
		n := int(math.Ceil((hi - lo) / maxW))
		w := (hi - lo) / float64(n)
		for j := 0; j < n; j++ {
			c := lo + (float64(j)+0.5)*w
			for i, xi := range glX {
				xs = append(xs, c+xi*w/2)
				ws = append(ws, glW[i]*w/2)
			}
		}
	}
	return xs, ws
}

// integrateW returns ∫_a^b f by the rule of [glNodes]: cut at the break
// points, with sub-panels of width at most maxW.
func integrateW(f func(float64) float64, a, b float64, breaks []float64, maxW float64) float64 {
	xs, ws := glNodes(a, b, breaks, maxW)
	total := 0.0
	for i, x := range xs {
		total += ws[i] * f(x)
	}
	return total
}
