package dptest_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dptest/dptest/dptest"
)

func TestZZLeaky(t *testing.T) {
	lap := func(r *rand.Rand) float64 {
		u := r.Float64() - 0.5
		return -math.Copysign(math.Log1p(-2*math.Abs(u)), u)
	}
	sum := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s
	}
	leaky := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		if r.Float64() < 0.01 {
			return sum(x)
		}
		return sum(x) + lap(r)
	})
	g := dptest.Continuous(func(r *rand.Rand, x []float64) float64 { return sum(x) + r.NormFloat64() })
	for seed := uint64(1); seed <= 6; seed++ {
		rep, err := dptest.AuditApproxDP(leaky, 1, 0.0101, dptest.Seed(seed))
		rep2, err2 := dptest.AuditApproxDP(g, 1, 0.1269, dptest.Seed(seed))
		t.Logf("seed %d leaky: inc=%v LB %.5f res %.5f | gauss: inc=%v LB/t %.4f res/t %.4f", seed, err != nil, rep.LowerBound, rep.Resolution, err2 != nil, rep2.LowerBound/0.1269, rep2.Resolution/0.1269)
	}
}
