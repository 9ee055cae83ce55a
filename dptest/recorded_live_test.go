package dptest_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/mechanisms"
)

// recordedPerSide is the outputs per side recorded for the comparison
// below; a recorded audit confirms on 3/8 of them a round, which the live
// audit's Samples matches.
const recordedPerSide = 80_000

// An audit of recorded outputs gives the live audit's verdict on the same
// mechanism and pair, at the same confirming sample size, for every claim
// type: a claim at twice the truth holds, one at a third is violated.
// Fixed seeds; a false failure of a correct claim has probability at most
// 10⁻⁴ an audit, and the violations are by a factor of three.
func TestRecordedAuditsMatchLiveAudits(t *testing.T) {
	t.Parallel()
	lap, gauss := mechanisms.Laplace{B: 1}, mechanisms.Gaussian{Sigma: 2}
	pair := fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}}
	record := func(f func(*rand.Rand, []float64) float64) dptest.Recorded {
		r := rand.New(rand.NewPCG(9, 9))
		xs, ys := make([]float64, recordedPerSide), make([]float64, recordedPerSide)
		for i := range xs {
			xs[i], ys[i] = f(r, pair.X), f(r, pair.Y)
		}
		return dptest.RecordedReal(xs, ys)
	}
	lapRec, gaussRec := record(lap.Sample), record(gauss.Sample)
	live := []dptest.Option{dptest.Samples(recordedPerSide * 3 / 8), dptest.Seed(4)}
	lapLive := dptest.Continuous(lap.Sample).WithPairs(pair)
	gaussLive := dptest.Continuous(gauss.Sample).WithPairs(pair)
	deltaHalf := 1 - math.Exp(-0.25) // the Laplace mechanism's δ at ε = ½
	for _, factor := range []float64{2, 1.0 / 3} {
		want := dptest.Holds
		if factor < 1 {
			want = dptest.Violated
		}
		audits := map[string][2]func() (dptest.Report, error){
			"RDP": {
				func() (dptest.Report, error) { return dptest.AuditRDP(lapLive, 2, factor*lap.RDP(2), live...) },
				func() (dptest.Report, error) {
					return dptest.AuditRecordedRDP(lapRec, 2, factor*lap.RDP(2), dptest.Seed(4))
				},
			},
			"DP": {
				func() (dptest.Report, error) { return dptest.AuditDP(lapLive, factor, live...) },
				func() (dptest.Report, error) { return dptest.AuditRecordedDP(lapRec, factor, dptest.Seed(4)) },
			},
			"ApproxDP": {
				func() (dptest.Report, error) {
					return dptest.AuditApproxDP(lapLive, 0.5, min(factor*deltaHalf, 0.99), live...)
				},
				func() (dptest.Report, error) {
					return dptest.AuditRecordedApproxDP(lapRec, 0.5, min(factor*deltaHalf, 0.99), dptest.Seed(4))
				},
			},
			"GDP": {
				func() (dptest.Report, error) { return dptest.AuditGDP(gaussLive, factor*0.5, live...) },
				func() (dptest.Report, error) { return dptest.AuditRecordedGDP(gaussRec, factor*0.5, dptest.Seed(4)) },
			},
		}
		for kind, a := range audits {
			name := fmt.Sprintf("%s at %.2f× the truth", kind, factor)
			l, err := a[0]()
			require.NoError(t, err, name)
			r, err := a[1]()
			require.NoError(t, err, name)
			require.Equal(t, want, l.Verdict, "%s, live: %s", name, l)
			require.Equal(t, l.Verdict, r.Verdict, "%s, recorded: %s", name, r)
		}
	}
}
