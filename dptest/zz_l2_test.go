package dptest_test

import (
	"testing"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/experiments/expstat"
	"github.com/dptest/dptest/mechanisms"
)

func TestZZL2(t *testing.T) {
	p := fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{1, 0}}
	m := dptest.Continuous(mechanisms.NonDPLaplace2{Eps: 1}.Sample)
	for i := 0; i < 3; i++ {
		rep, err := dptest.AuditDP(m, 1, dptest.Pairs(p), dptest.Candidates(0), dptest.Samples(50000), dptest.Seed(expstat.RunSeed("table1|%s|%g|%d|%d", "NonDPLaplace2", 1.0, 50000, i)), dptest.Verbose())
		t.Logf("err=%v violated=%v LB=%v est=%v loc=%v res=%v", err, rep.Violated, rep.LowerBound, rep.Estimate, rep.Location, rep.Resolution)
	}
}
