package search

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
)

// A run on recorded outputs refuses every stage that would draw beyond
// the records' split.
func TestRunRecordedRefusesStages(t *testing.T) {
	src := sampler.Real(func(r *rand.Rand, x int) float64 { return float64(x) + r.NormFloat64() })
	crit := RDP(src, 2, plan.RenyiRules{}, 1000, 0.01)
	one := []Input[int]{{Pair: fixtures.Pair[int]{X: 1, Y: 0}, Source: "pair 1"}}
	for name, cfg := range map[string]Config[int]{
		"early look":  {Candidates: one, Looks: []plan.Stage{{Samples: sampler.BlockSize}}},
		"quick look":  {Candidates: one, QuickScreening: plan.Stage{Samples: 2000}},
		"wide pairs":  {Candidates: one, Wide: one},
		"simplifier":  {Candidates: one, Simplify: func(fixtures.Pair[int]) ([]fixtures.Pair[int], error) { return nil, nil }},
		"two pairs":   {Candidates: append(one, one...)},
		"no pairs":    {},
		"deep screen": {Candidates: one, Deep: plan.Stage{Samples: 4000}},
	} {
		cfg.Recorded = true
		_, err := Run(crit, cfg)
		require.ErrorIs(t, err, errRecordedConfig, name)
	}
}
