package mechanisms

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The keep rates of 0…4 units over 200,000 draws, seed fixed, within five
// standard errors of p(u) (a correct law fails with probability < 10⁻⁵),
// and each step from u − 1 to u ≤ 3 units meets p(u) = e·p(u−1) + 0.05.
func TestPartitionSelectionKeepRates(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	want := []float64{0, 0.05, 0.05 * (1 + math.E), 0.05 * (1 + math.E + math.E*math.E), 0.05 * (1 + math.E + math.E*math.E)}
	const n = 200_000
	for u, p := range want {
		x := make([]float64, 5)
		for i := 0; i < u; i++ {
			x[i] = 1
		}
		kept := 0
		for i := 0; i < n; i++ {
			if (PartitionSelection{}).Sample(r, x) {
				kept++
			}
		}
		require.InDelta(t, p, float64(kept)/n, 5*math.Sqrt(p*(1-p)/n)+1e-12, "%d units", u)
		if u >= 1 && u <= 3 {
			require.InDelta(t, math.E*want[u-1]+0.05, p, 1e-12)
		}
	}
}
