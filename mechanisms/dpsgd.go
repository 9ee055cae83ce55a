package mechanisms

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DPSGDParams is the number of parameters of the linear model of [DPSGDStep].
const DPSGDParams = 10

// DPSGDStep is one step of DP-SGD (Abadi et al. 2016) on a linear model
// with d = [DPSGDParams] parameters, released as the noisy gradient sum. A
// dataset is a list of examples, each a feature vector a ∈ R^d with label
// 1; at θ = 0 the squared loss ½(θᵀa − 1)² has gradient g(a) = −a. The step
// samples each example with probability Q (Poisson subsampling), clips each
// sampled gradient to norm C and adds Gaussian noise:
//
//	M(x) = Σ_{i ∈ batch} clip_C(g(xᵢ)) + N(0, σ²C² I_d),   clip_C(g) = g·min(1, C/‖g‖).
//
// Under add/remove neighbours its exact RDP is that of the sampled
// Gaussian mechanism, [SampledGaussianRDP](Q, σ, λ) ([MTZ19] Section 3.3):
// the added example's clipped gradient is a shift of norm at most C.
//
// With ClipAfterSum (a bug) the step clips the batch's summed gradient
// instead of each example's: the noise still assumes sensitivity C, but one
// example can move the clipped sum from −C·û to +C·û (2C), and [DPSGDStep.RDP]
// no longer holds. Q must lie in (0, 1]; Sigma and C must be positive;
// examples must have [DPSGDParams] coordinates.
type DPSGDStep struct {
	Q, Sigma, C  float64
	ClipAfterSum bool
}

// Sample draws M(x).
func (m DPSGDStep) Sample(r *rand.Rand, x [][]float64) []float64 {
	m.check()
	sumG := make([]float64, DPSGDParams)
	for _, a := range x {
		if len(a) != DPSGDParams {
			panic(fmt.Sprintf("mechanisms: DPSGDStep examples need %d features, got %d", DPSGDParams, len(a)))
		}
		if r.Float64() >= m.Q {
			continue
		}
		scale := -1.0
		if !m.ClipAfterSum {
			scale *= clipFactor(a, m.C)
		}
		for j, v := range a {
			sumG[j] += scale * v
		}
	}
	if m.ClipAfterSum {
		f := clipFactor(sumG, m.C)
		for j := range sumG {
			sumG[j] *= f
		}
	}
	for j := range sumG {
		sumG[j] += m.Sigma * m.C * r.NormFloat64()
	}
	return sumG
}

// clipFactor is min(1, c/‖v‖).
func clipFactor(v []float64, c float64) float64 {
	n := 0.0
	for _, x := range v {
		n += x * x
	}
	n = math.Sqrt(n)
	if n <= c {
		return 1
	}
	return c / n
}

// RDP returns the exact RDP of the correct step under add/remove
// neighbours, [SampledGaussianRDP](Q, σ, λ); for the ClipAfterSum bug it
// is the claim the step fails. It panics unless λ > 1.
func (m DPSGDStep) RDP(lambda float64) float64 {
	m.check()
	return SampledGaussianRDP(m.Q, m.Sigma, lambda)
}

func (m DPSGDStep) check() {
	if !(m.Q > 0 && m.Q <= 1) {
		panic(fmt.Sprintf("mechanisms: DPSGDStep.Q must lie in (0, 1], got %v", m.Q))
	}
	mustPositive("DPSGDStep", "Sigma", m.Sigma)
	mustPositive("DPSGDStep", "C", m.C)
}
