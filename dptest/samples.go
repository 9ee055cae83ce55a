package dptest

import (
	"github.com/dptest/dptest/internal/renyi"
)

// Bound is a one-sided lower bound on a Rényi divergence D_λ(P ‖ Q) computed
// from recorded outputs X₁…X_n ∼ P and Y₁…Y_m ∼ Q ([KAD24] eq. (16)):
// P(D_λ(P ‖ Q) ≥ LowerBound) ≥ Confidence, asymptotically.
type Bound struct {
	Lambda     float64
	Estimate   float64 // D̂_λ, the bias-corrected softmax-floored plug-in estimate
	StdErr     float64 // its estimated standard error
	LowerBound float64 // Estimate − z_Confidence · StdErr
	Confidence float64
	NX, NY     int // sample sizes
}

func boundFrom(r renyi.Result, conf float64) Bound {
	return Bound{
		Lambda: r.Lambda, Estimate: r.Estimate, StdErr: r.StdErr, LowerBound: r.LowerBound,
		Confidence: conf, NX: int(r.NP), NY: int(r.NQ),
	}
}

// RDPBound bounds D_λ(P ‖ Q) from real outputs recorded elsewhere (another
// system's logs, say): xs drawn on one dataset, ys on its neighbour. The
// samples may differ in size and need at least MinSamples values each;
// values that repeat are atoms counted exactly, the rest is estimated by a
// kernel density. Only [Confidence] among the options applies (default
// 0.9999). Unlike an audit there is no search and no second confirmation:
// the bound rests on the normal approximation at the stated confidence.
//
// Errors: λ ≤ 1 or not finite, fewer than MinSamples values, a NaN or ±Inf
// value (its index is named), a sample whose values are all equal (a point
// mass: use [RDPBoundDiscrete]) or that mostly repeat a few values.
func RDPBound(xs, ys []float64, lambda float64, opts ...Option) (Bound, error) {
	conf := resolve(opts).confidence
	r, err := renyi.ContinuousSamples(xs, ys, renyi.Params{Lambda: lambda, Alpha: 1 - conf})
	if err != nil {
		return Bound{}, err
	}
	return boundFrom(r, conf), nil
}

// RDPBoundDiscrete is [RDPBound] for discrete outputs of any comparable type,
// counted exactly. A value not equal to itself (a NaN) is an error.
func RDPBoundDiscrete[O comparable](xs, ys []O, lambda float64, opts ...Option) (Bound, error) {
	conf := resolve(opts).confidence
	r, err := renyi.DiscreteSamples(xs, ys, renyi.Params{Lambda: lambda, Alpha: 1 - conf})
	if err != nil {
		return Bound{}, err
	}
	return boundFrom(r, conf), nil
}
