package dptest_test

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
)

// A report's JSON has the verdict by name, durations in seconds, numbers
// that are not finite as strings, and the reason with its class, type,
// text and remedy.
func TestReportJSON(t *testing.T) {
	rep := dptest.Report{
		Verdict: dptest.Unresolved, Claim: dptest.Claim{Kind: "ApproxDP", Eps: 1, Value: 1e-5},
		Reason:     &dptest.CoarseResolution{Measure: "δ(ε=1)", Claim: 1e-5, Resolution: 2e-4, Samples: 1000, DrawsNeeded: math.Inf(1)},
		Resolution: math.Inf(1), Elapsed: 1500 * time.Millisecond, Calls: 42,
		Witness: fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{0}},
	}
	b, err := json.Marshal(rep)
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(b, &got), "%s", b)
	require.Equal(t, "unresolved", got["verdict"])
	require.Equal(t, 1.5, got["elapsed_seconds"])
	require.Equal(t, "+Inf", got["resolution"])
	require.Equal(t, 42.0, got["calls"])
	require.Equal(t, map[string]any{"kind": "ApproxDP", "eps": 1.0, "value": 1e-5}, got["claim"])
	require.Equal(t, map[string]any{"x": []any{1.0}, "y": []any{0.0}}, got["witness"])
	reason := got["reason"].(map[string]any)
	require.Equal(t, "unresolved", reason["class"])
	require.Equal(t, "CoarseResolution", reason["type"])
	require.Equal(t, rep.Reason.Text(), reason["text"])
	require.Equal(t, "+Inf", reason["draws_needed"])
	require.Contains(t, got, "details")

	var holds map[string]any
	b, err = json.Marshal(dptest.Report{Verdict: dptest.Holds})
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &holds))
	require.NotContains(t, holds, "reason", "no reason for a holds verdict")
}
