package mechanisms

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// discreteLaplaceRDPBySummation sums D_λ of the two-sided geometric of
// scale b against its shift by s term by term, over k within 60b of both
// centres (the terms beyond are below e^{−60} of the largest).
func discreteLaplaceRDPBySummation(b float64, s int, lambda float64) float64 {
	w := int(60*b) + 60
	logMass := func(k int) float64 { return -math.Abs(float64(k)) / b }
	var z, sum float64
	for k := -w; k <= w+s; k++ {
		z += math.Exp(logMass(k))
		sum += math.Exp(lambda*logMass(k-s) + (1-lambda)*logMass(k))
	}
	return math.Log(sum/z) / (lambda - 1)
}

func TestDiscreteLaplaceRDPMatchesSummation(t *testing.T) {
	for _, c := range []struct {
		b float64
		s int
	}{{0.5, 1}, {1, 1}, {3, 2}, {10, 7}, {1000, 1000}} {
		m := DiscreteLaplace{B: c.b, Sensitivity: c.s}
		for _, l := range []float64{1.5, 2, 5, 10, 16} {
			require.InEpsilon(t, discreteLaplaceRDPBySummation(c.b, c.s, l), m.RDP(l), 1e-9, "b=%v s=%v λ=%v", c.b, c.s, l)
		}
		require.Equal(t, float64(c.s)/c.b, m.RDP(math.Inf(1)))
		require.Equal(t, float64(c.s)/c.b, m.Epsilon())
		require.Less(t, m.RDP(500), m.Epsilon())
	}
	// Wide noise: the lattice no longer shows; the Laplace of scale b/s.
	for _, l := range []float64{2, 10, 16} {
		require.InEpsilon(t, Laplace{B: 1}.RDP(l), DiscreteLaplace{B: 1000, Sensitivity: 1000}.RDP(l), 1e-6)
	}
	// Large orders and scales stay finite, and at most s/b.
	require.InEpsilon(t, 2.0, DiscreteLaplace{B: 50, Sensitivity: 100}.RDP(1e6), 1e-3)
	require.Equal(t, 2000.0, DiscreteLaplace{B: 1e-3, Sensitivity: 2}.RDP(1e306))
}

func TestDiscreteLaplaceSample(t *testing.T) {
	m := DiscreteLaplace{B: 2, Sensitivity: 1}
	r := rand.New(rand.NewPCG(1, 2))
	const n = 400_000
	counts := map[int64]int{}
	for range n {
		counts[m.Sample(r, 5)-5]++
	}
	a := math.Exp(-1 / m.B)
	for k := int64(-3); k <= 3; k++ {
		want := (1 - a) / (1 + a) * math.Pow(a, math.Abs(float64(k)))
		// 5 standard errors: a false failure has probability below 10⁻⁵ a value.
		require.InDelta(t, want, float64(counts[k])/n, 5*math.Sqrt(want/n), "k=%d", k)
	}
	require.PanicsWithValue(t, "mechanisms: DiscreteLaplace.B must be positive and finite, got 0", func() { DiscreteLaplace{Sensitivity: 1}.Sample(r, 0) })
	require.PanicsWithValue(t, "mechanisms: DiscreteLaplace.Sensitivity must be at least 1, got 0", func() { DiscreteLaplace{B: 1}.RDP(2) })
	require.PanicsWithValue(t, "mechanisms: DiscreteLaplace.B must be at most 1e15 (the draws are int64), got 1e+16", func() { DiscreteLaplace{B: 1e16, Sensitivity: 1}.Sample(r, 0) })
}
