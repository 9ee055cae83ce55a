package dptest_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/mechanisms"
)

// inBundles is an Executor that makes a task's blocks here, three blocks
// an element, and merges the elements' results in reverse: a distributed
// runner without one.
type inBundles[D any, O comparable] struct {
	f     func(*rand.Rand, D) O
	tasks int
}

func (b *inBundles[D, O]) Execute(task []byte, first, last int) ([]byte, error) {
	b.tasks++
	merged := dptest.EmptyTaskResult()
	for hi := last; hi > first; hi -= 3 {
		r, err := dptest.RunTask(task, b.f, max(first, hi-3), hi)
		if err != nil {
			return nil, err
		}
		if merged, err = dptest.MergeTaskResults[O](task, merged, r); err != nil {
			return nil, err
		}
	}
	return merged, nil
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

// An audit whose counting draws are made elsewhere gives the verdict,
// bounds and calls of the same audit made here, for every claim type and
// for real and discrete outputs. Deterministic: one seed, both ways.
func TestDrawnElsewhereGivesTheSameAudit(t *testing.T) {
	lap, gauss := mechanisms.Laplace{B: 1}, mechanisms.Gaussian{Sigma: 2}
	rr := mechanisms.RandomizedResponse{Eps0: 1, M: 10}
	opts := []dptest.Option{dptest.Seed(11), dptest.Quick()}
	lapEx := &inBundles[[]float64, float64]{f: lap.Sample}
	gaussEx := &inBundles[[]float64, float64]{f: gauss.Sample}
	rrEx := &inBundles[[]float64, uint64]{f: rr.Sample}
	lapThere := dptest.DrawnElsewhere(dptest.Continuous(lap.Sample), lapEx, 1)
	gaussThere := dptest.DrawnElsewhere(dptest.Continuous(gauss.Sample), gaussEx, 1)
	rrThere := dptest.DrawnElsewhere(dptest.Discrete(rr.Sample), rrEx, 1)
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
		want, errHere := a[0]()
		got, errThere := a[1]()
		require.NoError(t, errHere, name)
		require.NoError(t, errThere, name)
		sameReport(t, want, got, name)
		t.Logf("%s: %v, bound %.4g, %d calls", name, got.Verdict, got.LowerBound, got.Calls)
	}
	require.Positive(t, lapEx.tasks)
	require.Positive(t, gaussEx.tasks)
	require.Positive(t, rrEx.tasks)
}
