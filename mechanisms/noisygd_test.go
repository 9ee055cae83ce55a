package mechanisms

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// noisyGDMoments runs the recursion of the mean and variance of θ_k, an
// independent route to the law of θ_K.
func noisyGDMoments(eta, b float64, k int, mean float64) (mu, v float64) {
	for i := 0; i < k; i++ {
		mu = (1-eta)*mu + eta*mean
		v = (1-eta)*(1-eta)*v + 2*eta*b*b
	}
	return mu, v
}

func TestNoisyGDRDPMatchesRecursion(t *testing.T) {
	for _, c := range []struct {
		eta, b float64
		k, m   int
	}{{0.2, 1, 10, 10}, {0.5, 2, 3, 5}, {1, 1, 1, 10}} {
		g := NoisyGD{Eta: c.eta, B: c.b, K: c.k, M: c.m}
		mu1, v := noisyGDMoments(c.eta, c.b, c.k, 1/float64(c.m))
		for _, l := range []float64{1.5, 2, 5, 7} {
			// Equal variances: D_λ = λ Δμ² / (2 v).
			require.InEpsilon(t, l*mu1*mu1/(2*v), g.RDP(l), 1e-12)
		}
	}
	require.Equal(t, NoisyGD{Eta: 0.2, B: 1, K: 10, M: 10}.RDP(2), NoisyGD{Eta: 0.2, B: 1, K: 10}.RDP(2))
}

func TestNoisyGDSampleFits(t *testing.T) {
	r := newTestRand(8, phi64)
	x, _ := canonical10()
	g := NoisyGD{Eta: 0.2, B: 1, K: 10}
	mu, v := noisyGDMoments(0.2, 1, 10, 0.1)
	s := math.Sqrt(v)
	checkFitsCDF(t, 200000, func() float64 { return g.Sample(r, x) },
		func(t float64) float64 { return normalCDF(t, mu, s) }, linspace(mu-3*s, mu+3*s, 30))
}

func TestNoisyGDBadParameters(t *testing.T) {
	require.PanicsWithValue(t, "mechanisms: NoisyGD.Eta must lie in (0, 1], got 0", func() { NoisyGD{B: 1, K: 1}.RDP(2) })
	require.PanicsWithValue(t, "mechanisms: NoisyGD.K must be ≥ 1, got 0", func() { NoisyGD{Eta: 0.2, B: 1}.RDP(2) })
	require.PanicsWithValue(t, "mechanisms: NoisyGD needs a non-empty dataset", func() { NoisyGD{Eta: 0.2, B: 1, K: 1}.Sample(newTestRand(1, phi64), nil) })
}
