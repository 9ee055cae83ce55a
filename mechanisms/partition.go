package mechanisms

import (
	"math"
	"math/rand/v2"
)

// PartitionSelection decides whether to keep a partition, as a partition
// selection at ε = 1, δ = 0.05 does for a few privacy units: a partition
// holding u units (records ≥ ½ of the dataset x ∈ [0, 1]^m) is kept with
// probability
//
//	p(0) = 0,  p(1) = δ,  p(2) = δ(1 + e^ε),  p(u) = δ(1 + e^ε + e^{2ε}) for u ≥ 3.
//
// For u ≤ 3 each step from u − 1 units meets p(u) = e^ε·p(u−1) + δ, so
// the hockey-stick divergence H_{e^1} of keeping is exactly 0.05 (and of
// dropping, negative): it is (1, 0.05)-DP and no better. A partition of one unit is kept and one of
// none never, so its pure-DP loss is infinite, as Google's
// dpagg.PreAggSelectPartition shows for a partition of one unit.
type PartitionSelection struct{}

// Sample reports whether the partition x is kept.
func (PartitionSelection) Sample(r *rand.Rand, x []float64) bool {
	const delta = 0.05
	keep := [4]float64{0, delta, delta * (1 + math.E), delta * (1 + math.E + math.E*math.E)}
	units := 0
	for _, v := range x {
		if v >= 0.5 {
			units++
		}
	}
	return r.Float64() < keep[min(units, 3)]
}
