package dptestbeam_test

import (
	"math/rand/v2"
	"testing"
	"time"

	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/stretchr/testify/require"

	dptestbeam "github.com/dptest/dptest/beam"
	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/mechanisms"
)

func init() {
	beamlog.LogLevel = "warn" // Prism logs every pipeline at level info
	dptestbeam.Register[[]float64, float64, mechanisms.Laplace]()
	dptestbeam.Register[[]float64, float64, mechanisms.Gaussian]()
	dptestbeam.Register[[]float64, uint64, mechanisms.RandomizedResponse]()
}

// sameReport asserts what two audits of one seed must share.
func sameReport(t *testing.T, want, got dptest.Report, name string) {
	t.Helper()
	require.Equal(t, want.Verdict, got.Verdict, name)
	require.Equal(t, want.LowerBound, got.LowerBound, name)
	require.Equal(t, want.Estimate, got.Estimate, name)
	require.Equal(t, want.Calls, got.Calls, name)
	require.Equal(t, want.Resolution, got.Resolution, name)
	require.Equal(t, want.Witness, got.Witness, name)
}

// An audit whose counting draws run as Beam pipelines on Prism gives the
// verdict, bounds and calls of the same audit in process, for every claim
// type, on real and discrete outputs. Deterministic: one seed, both ways.
func TestAuditsOnPrismEqualAuditsInProcess(t *testing.T) {
	lap, gauss := mechanisms.Laplace{B: 1}, mechanisms.Gaussian{Sigma: 2}
	rr := mechanisms.RandomizedResponse{Eps0: 1, M: 10}
	opts := []dptest.Option{dptest.Seed(11)}
	// Elements of several blocks keep the pipelines few and short here.
	var tally dptestbeam.Tally
	onBeam := []dptestbeam.Option{dptestbeam.BlocksPerElement(4), dptestbeam.Counted(&tally)}
	lapThere := dptestbeam.Real[[]float64](lap, onBeam...)
	gaussThere := dptestbeam.Real[[]float64](gauss, onBeam...)
	rrThere := dptestbeam.Discrete[[]float64, uint64](rr, onBeam...)
	audits := map[string][2]func() (dptest.Report, error){
		"RDP of a Laplace": {
			func() (dptest.Report, error) {
				return dptest.AuditRDP(dptest.Continuous(lap.Sample), 2, 2*lap.RDP(2), opts...)
			},
			func() (dptest.Report, error) { return dptest.AuditRDP(lapThere, 2, 2*lap.RDP(2), opts...) },
		},
		"DP of a Laplace, violated": {
			func() (dptest.Report, error) { return dptest.AuditDP(dptest.Continuous(lap.Sample), 0.5, opts...) },
			func() (dptest.Report, error) { return dptest.AuditDP(lapThere, 0.5, opts...) },
		},
		"(ε, δ)-DP of a Gaussian": {
			func() (dptest.Report, error) {
				return dptest.AuditApproxDP(dptest.Continuous(gauss.Sample), 1, 0.05, opts...)
			},
			func() (dptest.Report, error) { return dptest.AuditApproxDP(gaussThere, 1, 0.05, opts...) },
		},
		"GDP of a Gaussian": {
			func() (dptest.Report, error) { return dptest.AuditGDP(dptest.Continuous(gauss.Sample), 1, opts...) },
			func() (dptest.Report, error) { return dptest.AuditGDP(gaussThere, 1, opts...) },
		},
		"DP of randomized response, violated": {
			func() (dptest.Report, error) { return dptest.AuditDP(dptest.Discrete(rr.Sample), 0.5, opts...) },
			func() (dptest.Report, error) { return dptest.AuditDP(rrThere, 0.5, opts...) },
		},
	}
	for name, a := range audits {
		want, err := a[0]()
		require.NoError(t, err, name)
		start := time.Now()
		got, err := a[1]()
		require.NoError(t, err, name)
		sameReport(t, want, got, name)
		t.Logf("%s: %v, bound %.4g, %d calls; on Prism in %v, %d pipelines, %d blocks", name, got.Verdict, got.LowerBound, got.Calls,
			time.Since(start).Round(time.Millisecond), tally.Pipelines.Swap(0), tally.Blocks.Swap(0))
	}
}

// closure is a mechanism Beam cannot ship: a function type.
type closure func(r *rand.Rand, x []float64) float64

func (c closure) Sample(r *rand.Rand, x []float64) float64 { return c(r, x) }

// hidden has a parameter workers would not get.
type hidden struct{ scale float64 }

func (h hidden) Sample(r *rand.Rand, x []float64) float64 { return x[0] + h.scale*r.NormFloat64() }

// unregistered is shippable but was never registered.
type unregistered struct{ Scale float64 }

func (u unregistered) Sample(r *rand.Rand, x []float64) float64 {
	return x[0] + u.Scale*r.NormFloat64()
}

// A mechanism that cannot run on workers is an error of its audit, which
// says what to change.
func TestWhatCannotShipIsAnError(t *testing.T) {
	for name, m := range map[string]dptest.Mechanism[[]float64]{
		"closure":      dptestbeam.Real[[]float64](closure(func(r *rand.Rand, x []float64) float64 { return x[0] })),
		"unexported":   dptestbeam.Real[[]float64](hidden{1}),
		"unregistered": dptestbeam.Real[[]float64](unregistered{1}),
	} {
		_, err := dptest.AuditDP(m, 1, dptest.Seed(1), dptest.Quick())
		require.Error(t, err, name)
		t.Logf("%s: %v", name, err)
	}
}
