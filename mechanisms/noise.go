package mechanisms

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// laplaceNoise draws one sample of Lap(0, b), the density exp(−|t|/b)/(2b),
// as a standard exponential (math/rand/v2's ziggurat) with a random sign.
func laplaceNoise(r *rand.Rand, b float64) float64 {
	e := b * r.ExpFloat64()
	if r.Uint64()&1 == 0 {
		return -e
	}
	return e
}

// addLaplaceNoise adds independent Lap(0, b) noise to every element of v:
// a standard exponential each, with its sign from one bit of a 64-bit
// draw shared by 64 elements: the same law as laplaceNoise with about half
// its generator calls (ExpFloat64 mostly takes one), for a long histogram
// spends most of its time drawing.
func addLaplaceNoise(r *rand.Rand, v []float64, b float64) {
	var signs uint64
	for j := range v {
		if j%64 == 0 {
			signs = r.Uint64()
		}
		e := b * r.ExpFloat64()
		if signs&1 == 0 {
			e = -e
		}
		signs >>= 1
		v[j] += e
	}
}

// sum returns Σ x_i.
func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// mustPositive panics with a package-prefixed message unless v > 0 (and not NaN).
func mustPositive(mech, field string, v float64) {
	if !(v > 0) || math.IsInf(v, 1) {
		panic(fmt.Sprintf("mechanisms: %s.%s must be positive and finite, got %v", mech, field, v))
	}
}

// mustNonNegative panics unless v ≥ 0 and finite.
func mustNonNegative(mech, field string, v float64) {
	if !(v >= 0) || math.IsInf(v, 1) {
		panic(fmt.Sprintf("mechanisms: %s.%s must be non-negative and finite, got %v", mech, field, v))
	}
}

// mustOrder panics unless the Rényi order λ > 1 (λ = +Inf is allowed).
func mustOrder(lambda float64) {
	if !(lambda > 1) {
		panic(fmt.Sprintf("mechanisms: order λ must be > 1, got %v", lambda))
	}
}

// mustRate panics unless the sampling rate γ lies in (0, 1].
func mustRate(mech, field string, g float64) {
	if !(g > 0 && g <= 1) {
		panic(fmt.Sprintf("mechanisms: %s.%s must lie in (0, 1], got %v", mech, field, g))
	}
}
