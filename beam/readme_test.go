package dptestbeam_test

// The README's examples, verbatim. The claim is correct, so the test
// fails with probability at most 10⁻⁴ (the default confidence); its seed
// is fixed by its name.

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/stretchr/testify/require"

	dptestbeam "github.com/dptest/dptest/beam"
	"github.com/dptest/dptest/dptest"
)

type NoisySum struct{ Sigma float64 }

func (m NoisySum) Sample(r *rand.Rand, x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s + m.Sigma*r.NormFloat64()
}

func init() { dptestbeam.Register[[]float64, float64, NoisySum]() }

func TestNoisySumOnBeam(t *testing.T) {
	mech := dptestbeam.Real[[]float64](NoisySum{Sigma: 3})
	dptest.RequireRDP(t, mech, 2, 2.0/(2*9))
}

// onAnotherRunner is the README's other runner, compiled; running it
// needs that runner.
func onAnotherRunner() dptest.Mechanism[[]float64] {
	return dptestbeam.Real[[]float64](NoisySum{Sigma: 3},
		dptestbeam.Runner(beamx.Run),
		dptestbeam.ResultDir("gs://my-bucket/dptest"))
}

// TestREADMEBlocksAreTested fails when a Go block of the README is not in
// this file verbatim.
func TestREADMEBlocksAreTested(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	self, err := os.ReadFile("readme_test.go")
	require.NoError(t, err)
	blocks := strings.Split(string(readme), "```go\n")[1:]
	require.NotEmpty(t, blocks)
	for _, b := range blocks {
		code := b[:strings.Index(b, "```")]
		require.Contains(t, string(self), code, "a README block missing from readme_test.go")
	}
}
