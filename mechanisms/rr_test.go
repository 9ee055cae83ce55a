package mechanisms

import (
	"math"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/require"
)

// rrOutputPMF returns P(A(x) = v) for every v ∈ {0,1}^M by enumeration.
func rrOutputPMF(eps0 float64, x []float64) []float64 {
	p0 := 1 / (1 + math.Exp(eps0))
	out := make([]float64, 1<<len(x))
	for v := range out {
		p := 1.0
		for i, xi := range x {
			one := (1-xi)*p0 + xi*(1-p0)
			if v>>i&1 == 1 {
				p *= one
			} else {
				p *= 1 - one
			}
		}
		out[v] = p
	}
	return out
}

func renyiDiscrete(p, q []float64, lambda float64) float64 {
	s := 0.0
	for i := range p {
		if p[i] > 0 {
			s += math.Pow(p[i], lambda) * math.Pow(q[i], 1-lambda)
		}
	}
	return math.Log(s) / (lambda - 1)
}

func TestRandomizedResponseRDPBySummation(t *testing.T) {
	x := []float64{1, 0, 1, 0, 0}
	y := []float64{0, 0, 1, 0, 0}
	for _, e := range []float64{0.1, 1.5, 3} {
		m := RandomizedResponse{Eps0: e, M: 5}
		p, q := rrOutputPMF(e, x), rrOutputPMF(e, y)
		for _, l := range []float64{1.5, 2, 5, 7} {
			require.InEpsilon(t, renyiDiscrete(p, q, l), m.RDP(l), 1e-10, "ε0=%v λ=%v", e, l)
		}
		require.Equal(t, e, m.RDP(math.Inf(1)))
	}
}

func TestRandomizedResponseSampleFits(t *testing.T) {
	r := newTestRand(5, phi64)
	x := []float64{1, 0, 1, 0.5}
	m := RandomizedResponse{Eps0: 1.5, M: 4}
	counts := make([]int, 16)
	for i := 0; i < 100000; i++ {
		counts[m.Sample(r, x)]++
	}
	checkFitsPMF(t, counts, rrOutputPMF(1.5, x))
}

// shuffledPMF returns P(#ones = k) by convolving the M Bernoulli reports, an
// independent route to the distribution of ShuffledRR.
func shuffledPMF(eps0 float64, x []float64) []float64 {
	p0 := 1 / (1 + math.Exp(eps0))
	pmf := []float64{1}
	for _, xi := range x {
		one := (1-xi)*p0 + xi*(1-p0)
		next := make([]float64, len(pmf)+1)
		for k, w := range pmf {
			next[k] += w * (1 - one)
			next[k+1] += w * one
		}
		pmf = next
	}
	return pmf
}

func TestShuffledRRRDPBySummation(t *testing.T) {
	for _, c := range []struct {
		e float64
		m int
	}{{1.5, 10}, {0.5, 3}, {3, 20}} {
		x := make([]float64, c.m)
		y := make([]float64, c.m)
		x[0] = 1
		p, q := shuffledPMF(c.e, x), shuffledPMF(c.e, y)
		m := ShuffledRR{Eps0: c.e, M: c.m}
		for _, l := range []float64{1.5, 2, 3, 5, 7, 10, 2.7} {
			require.InEpsilon(t, renyiDiscrete(p, q, l), m.RDP(l), 1e-9, "ε0=%v m=%v λ=%v", c.e, c.m, l)
		}
		// Moment form and direct sum agree at integer orders.
		for l := 2; l <= 20; l++ {
			require.InEpsilon(t, m.rdpSum(float64(l)), m.rdpMoments(l), 1e-8, "λ=%d", l)
		}
		require.InEpsilon(t, c.e, m.RDP(math.Inf(1)), 1e-12)
	}
	// Shuffling reduces RR's divergence by more than 60% ([KAD24] IV-B).
	for _, l := range []float64{2, 5, 7} {
		require.Less(t, ShuffledRR{Eps0: 1.5, M: 10}.RDP(l), 0.4*RandomizedResponse{Eps0: 1.5, M: 10}.RDP(l))
	}
}

func TestShuffledRRSampleFits(t *testing.T) {
	r := newTestRand(6, phi64)
	x := []float64{1, 0, 0, 1, 0, 0, 0, 1, 0, 0}
	m := ShuffledRR{Eps0: 1.5, M: 10}
	counts := make([]int, 11)
	for i := 0; i < 200000; i++ {
		counts[m.Sample(r, x)]++
	}
	pmf := shuffledPMF(1.5, x)
	// Merge the sparse upper cells so that every expected count is ≥ 5.
	merged, mp := counts[:8], pmf[:8]
	for k := 8; k <= 10; k++ {
		merged[7] += counts[k]
		mp[7] += pmf[k]
	}
	checkFitsPMF(t, merged, mp)
	require.Equal(t, bits.OnesCount64(0b1011), 3) // sanity of the packing helper used above
}

func TestRRBadParameters(t *testing.T) {
	r := newTestRand(7, phi64)
	require.PanicsWithValue(t, "mechanisms: RandomizedResponse.M must lie in [1, 64], got 0", func() { RandomizedResponse{Eps0: 1}.RDP(2) })
	require.PanicsWithValue(t, "mechanisms: ShuffledRR.Eps0 must be non-negative and finite, got -1", func() { ShuffledRR{Eps0: -1, M: 3}.RDP(2) })
	require.PanicsWithValue(t, "mechanisms: RandomizedResponse expects datasets of M = 3 records, got 2", func() {
		RandomizedResponse{Eps0: 1, M: 3}.Sample(r, []float64{0, 1})
	})
	require.PanicsWithValue(t, "mechanisms: order λ must be > 1, got 1", func() { ShuffledRR{Eps0: 1, M: 3}.RDP(1) })
}
