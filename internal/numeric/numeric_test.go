package numeric

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"
)

func TestLogAddSubExp(t *testing.T) {
	require.InDelta(t, math.Log(math.Exp(1)+math.Exp(2)), LogAddExp(1, 2), 1e-15)
	require.Equal(t, 1000+math.Log(2), LogAddExp(1000, 1000))
	require.Equal(t, 3.0, LogAddExp(math.Inf(-1), 3))
	require.InDelta(t, math.Log(math.Exp(2)-math.Exp(1)), LogSubExp(2, 1), 1e-15)
	require.True(t, math.IsInf(LogSubExp(5, 5), -1))
	require.True(t, math.IsNaN(LogSubExp(1, 2)))
	require.InDelta(t, 800+math.Log(1+math.Exp(-1)+math.Exp(-2)), LogSumExp([]float64{800, 799, 798}), 1e-12)
	require.True(t, math.IsInf(LogSumExp(nil), -1))
}

// The softmax floor of [KAD24] eq. (13) satisfies t_τ ≥ max(t, τ) and
// t_τ − max(t, τ) ≤ log(2)/β (Appendix B), also at β·t far beyond exp's range.
func TestSoftFloorProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := rapid.Float64Range(-1e3, 1e3).Draw(t, "t")
		tau := rapid.Float64Range(1e-12, 1).Draw(t, "tau")
		beta := rapid.Float64Range(1, 1e12).Draw(t, "beta")
		f := SoftFloor(x, tau, beta)
		m := math.Max(x, tau)
		if !(f >= m) || f-m > math.Ln2/beta*(1+1e-12)+1e-15*math.Abs(m) {
			t.Fatalf("SoftFloor(%v, %v, %v) = %v, max = %v", x, tau, beta, f, m)
		}
		s := SoftFloorSlope(x, tau, beta)
		if !(s >= 0 && s <= 1) {
			t.Fatalf("slope %v outside [0,1]", s)
		}
	})
	// Against the direct definition where exp does not overflow.
	for _, c := range [][3]float64{{0.3, 0.5, 10}, {0.7, 0.5, 10}, {1e-5, 1e-5, 1e5}, {2e-5, 1e-5, 1e5}} {
		direct := math.Log(math.Exp(c[0]*c[2])+math.Exp(c[1]*c[2])) / c[2]
		require.InEpsilon(t, direct, SoftFloor(c[0], c[1], c[2]), 1e-12)
		slope := math.Exp(c[0]*c[2]) / (math.Exp(c[0]*c[2]) + math.Exp(c[1]*c[2]))
		require.InEpsilon(t, slope, SoftFloorSlope(c[0], c[1], c[2]), 1e-12)
	}
	require.Equal(t, 1.0, SoftFloorSlope(1e4, 1e-5, 1e5))
	require.Equal(t, 0.0, SoftFloorSlope(-1e4, 1e-5, 1e5))
	require.Equal(t, 1e4, SoftFloor(1e4, 1e-5, 1e5))
}

func TestLogErfc(t *testing.T) {
	for _, x := range []float64{-3, 0.1, 1, 5, 10, 19.9, 25} {
		require.InEpsilon(t, math.Log(math.Erfc(x)), LogErfc(x), 1e-12, "x=%v", x)
	}
	// Beyond 26 erfc underflows; continuity across the switch at 20 and the
	// leading asymptote −x² − log(x√π) bound the series.
	require.InEpsilon(t, math.Log(math.Erfc(20)), LogErfc(20), 1e-13)
	for _, x := range []float64{30, 100, 1e4} {
		lead := -x*x - math.Log(x) - 0.5*math.Log(math.Pi)
		require.LessOrEqual(t, LogErfc(x), lead)
		require.InDelta(t, lead, LogErfc(x), 1/(x*x))
	}
}

func TestLogAbsBinomial(t *testing.T) {
	l, s := LogAbsBinomial(10, 3)
	require.InDelta(t, math.Log(120), l, 1e-12)
	require.Equal(t, 1, s)
	l, s = LogAbsBinomial(10, 11)
	require.True(t, math.IsInf(l, -1))
	require.Equal(t, 0, s)
	// C(2.5, 4) = 2.5·1.5·0.5·(−0.5)/24 < 0.
	l, s = LogAbsBinomial(2.5, 4)
	require.InDelta(t, math.Log(2.5*1.5*0.5*0.5/24), l, 1e-12)
	require.Equal(t, -1, s)
}

func TestIntegrate(t *testing.T) {
	require.InEpsilon(t, 2.0, Integrate(math.Sin, 0, math.Pi, 4), 1e-14)
	abs := func(x float64) float64 { return math.Abs(x) }
	require.InEpsilon(t, 1.0, IntegrateBreaks(abs, []float64{-1, 0, 1}, 1), 1e-14)
	// log ∫ exp(g) for g spanning e^800.
	g := func(x float64) float64 { return 800 - x*x/2 }
	require.InEpsilon(t, 800+0.5*math.Log(2*math.Pi), LogIntegrateBreaks(g, []float64{-40, 40}, 8), 1e-12)
}

// ConvolveSymmetric convolves with fresh transforms.
func ConvolveSymmetric(m []float64, kernels ...[]float64) [][]float64 {
	c := NewConvolver()
	ks := make([]*Transformed, len(kernels))
	for i, k := range kernels {
		ks[i] = c.Kernel(k)
	}
	return c.Convolve(c.Masses(m), ks...)
}

// A Convolver agrees with the direct sum c_i = Σ_j m_j k_{|i−j|}.
func TestConvolveSymmetric(t *testing.T) {
	m := []float64{0.5, 0, 2, 1, 0, 0, 3}
	k := []float64{1, 0.5, 0.25}
	got := ConvolveSymmetric(m, k)[0]
	for i := range m {
		want := 0.0
		for j := range m {
			if d := i - j; d > -len(k) && d < len(k) {
				want += m[j] * k[max(d, -d)]
			}
		}
		require.InDelta(t, want, got[i], 1e-12, "i=%d", i)
	}
}

// SortFloats sorts as slices.Sort does, on values spanning every magnitude.
func TestSortFloats(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.SliceOfN(rapid.OneOf(rapid.Float64(), rapid.Float64Range(-1, 1), rapid.SampledFrom([]float64{0, 1, math.Inf(1), math.Inf(-1), 1e-300, -5e-324})), 0, 1000).Draw(t, "v")
		want := slices.Clone(v)
		slices.Sort(want)
		got := slices.Clone(v)
		SortFloats(got)
		if !slices.Equal(want, got) {
			t.Fatalf("SortFloats(%v) = %v", v, got)
		}
	})
	r := rand.New(rand.NewPCG(1, 2))
	v := make([]float64, 100000)
	for i := range v {
		v[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
	}
	want := slices.Clone(v)
	slices.Sort(want)
	SortFloats(v)
	require.Equal(t, want, v)
	neg, pos := math.Copysign(0, -1), 0.0
	z := []float64{pos, neg}
	SortFloats(z)
	require.True(t, math.Signbit(z[0]) && !math.Signbit(z[1]), "−0 before +0")
}

// The Clopper–Pearson bounds solve P(Bin(n, p) ≥ k) = α (lower) and
// P(Bin(n, p) ≤ k) = α (upper); checked against gonum's binomial CDF.
func TestBinomialBoundsSolveTheirTails(t *testing.T) {
	for _, c := range []struct{ k, n int64 }{{1, 10}, {3, 20}, {100, 1000000}, {740, 1000000}, {999, 1000}, {500000, 1000000}} {
		for _, alpha := range []float64{0.05, 0.0035, 1e-6} {
			lo := BinomialLower(c.k, c.n, alpha)
			up := BinomialUpper(c.k, c.n, alpha)
			b := distuv.Binomial{N: float64(c.n), P: lo}
			require.InDelta(t, alpha, 1-b.CDF(float64(c.k-1)), 1e-6*alpha+1e-12, "lower k=%d n=%d α=%g", c.k, c.n, alpha)
			if c.k < c.n {
				b = distuv.Binomial{N: float64(c.n), P: up}
				require.InDelta(t, alpha, b.CDF(float64(c.k)), 1e-6*alpha+1e-12, "upper k=%d n=%d α=%g", c.k, c.n, alpha)
			}
			require.Less(t, lo, float64(c.k)/float64(c.n))
			require.Greater(t, up, float64(c.k)/float64(c.n))
		}
	}
	require.Equal(t, 0.0, BinomialLower(0, 10, 0.05))
	require.InDelta(t, math.Pow(1e-11, 0.01), BinomialLower(100, 100, 1e-11), 1e-12)
	require.InDelta(t, 1-math.Pow(0.05, 0.1), BinomialUpper(0, 10, 0.05), 1e-15)
	require.Equal(t, 1.0, BinomialUpper(10, 10, 0.05))
	require.Panics(t, func() { BinomialLower(3, 2, 0.05) })
}

// A few successes in many trials at small levels, where gonum's Beta
// quantile is far off (an upper bound of 0.035 for 3 of 10⁶ at 5·10⁻⁶,
// truly 2.0·10⁻⁵): each bound's tail, summed term by term from ln Γ (no
// incomplete beta function), is its level to within 10⁻⁵ of it.
func TestBinomialBoundsOfFewSuccessesInManyTrials(t *testing.T) {
	for _, n := range []int64{1000, 100_000, 1_000_000, 100_000_000, 1_000_000_000} {
		for _, alpha := range []float64{0.05, 1e-5, 5e-6, 1e-7, 1e-9, 1e-11} {
			for _, k := range []int64{1, 2, 3, 4, 5, 8, 13, 25, 60, 150} {
				lo, up := BinomialLower(k, n, alpha), BinomialUpper(k, n, alpha)
				assert.InEpsilon(t, alpha, binomialSFBySum(k, n, lo), 1e-5, "lower k=%d n=%d α=%g: %g", k, n, alpha, lo)
				assert.InEpsilon(t, alpha, binomialCDFBySum(k, n, up), 1e-5, "upper k=%d n=%d α=%g: %g", k, n, alpha, up)
			}
		}
	}
}

// binomialCDFBySum is P(Bin(n, p) ≤ k) and binomialSFBySum P(Bin(n, p) ≥ k),
// their terms from ln Γ, each for k beyond the mean on its side, where
// the sum is small and needs no complement.
func binomialCDFBySum(k, n int64, p float64) float64 {
	sum := 0.0
	for j := int64(0); j <= k; j++ {
		sum += binomialTerm(j, n, p)
	}
	return sum
}

func binomialSFBySum(k, n int64, p float64) float64 {
	sum := 0.0
	for j := k; j <= n; j++ {
		term := binomialTerm(j, n, p)
		sum += term
		if term < 1e-20*sum {
			break
		}
	}
	return sum
}

// binomialTerm is P(Bin(n, p) = j) with ln C(n, j) as Σ_{i<j} ln(n−i) − ln j!
// (ln Γ(n+1) itself is 2·10¹¹ at n = 10¹⁰, too large to subtract).
func binomialTerm(j, n int64, p float64) float64 {
	logChoose, _ := math.Lgamma(float64(j) + 1)
	logChoose = -logChoose
	for i := int64(0); i < j; i++ {
		logChoose += math.Log(float64(n - i))
	}
	return math.Exp(logChoose + float64(j)*math.Log(p) + float64(n-j)*math.Log1p(-p))
}
