package dptest

import (
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/stat"
	"github.com/dptest/dptest/internal/tb"
	"github.com/dptest/dptest/internal/verdict"
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

// RDPBound bounds D_λ(P ‖ Q) from real outputs recorded elsewhere (another
// system's logs, say): xs drawn on one dataset, ys on its neighbour. The
// samples may differ in size and need at least [MinSamples] values each;
// values that repeat are atoms counted exactly, the rest is estimated by a
// kernel density. Only [Confidence] among the options applies (default
// [DefaultConfidence]). Unlike an audit there is no search and no second
// confirmation: the bound rests on the normal approximation at the stated
// confidence.
//
// Errors: λ ≤ 1 or not finite, fewer than [MinSamples] values, a NaN or ±Inf
// value (its index is named), a sample whose values are all equal (a point
// mass: use [RDPBoundDiscrete]) or that mostly repeat a few values, an
// option other than Confidence.
func RDPBound(xs, ys []float64, lambda float64, opts ...Option) (Bound, error) {
	return bound(lambda, opts, func() (stat.Sample, error) { return stat.FromValues(xs, ys) })
}

// RDPBoundDiscrete is [RDPBound] for discrete outputs of any comparable type,
// counted exactly. A value not equal to itself (a NaN) is an error.
func RDPBoundDiscrete[O comparable](xs, ys []O, lambda float64, opts ...Option) (Bound, error) {
	return bound(lambda, opts, func() (stat.Sample, error) { return stat.FromOutputs(xs, ys) })
}

func bound(lambda float64, opts []Option, sample func() (stat.Sample, error)) (Bound, error) {
	return boundOf(plan.Claim{Kind: plan.KindRDP, Lambda: lambda, Eps: 0}, opts, sample)
}

// boundOf bounds D_λ from recorded outputs; the claim's ε (0 for a bound
// alone) is checked with λ.
func boundOf(c plan.Claim, opts []Option, sample func() (stat.Sample, error)) (Bound, error) {
	lambda := c.Lambda
	o, err := collect(kindSamples, opts)
	if err != nil {
		return Bound{}, err
	}
	p, err := plan.Resolve(c, "", o.settings, false)
	if err != nil {
		return Bound{}, err
	}
	s, err := sample()
	if err != nil {
		return Bound{}, err
	}
	r, _, err := renyi.Both(s, renyi.Params{
		Lambda: lambda, Alpha: p.Alpha(),
		DiscreteTau: p.Renyi.DiscreteTau, RelativeTau: p.Renyi.RelativeTau, TailCount: p.Renyi.TailCount,
	})
	if err != nil {
		return Bound{}, err
	}
	return Bound{
		Lambda: r.Lambda, Estimate: r.Estimate, StdErr: r.StdErr, LowerBound: r.LowerBound,
		Confidence: p.Confidence, NX: int(r.NP), NY: int(r.NQ),
	}, nil
}

// CheckRDPSamples checks D_λ(P ‖ Q) ≤ ε against real outputs xs ∼ P and ys ∼
// Q recorded on two neighbouring datasets (also available as
// assert.RDPSamples): it fails (t.Errorf, false) if the lower bound of
// [RDPBound] exceeds ε, or if the bound cannot be computed. Both
// directions matter: to check the claim for the pair, call it also with
// the samples swapped.
func CheckRDPSamples(t CheckT, xs, ys []float64, lambda, eps float64, opts ...Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	b, err := boundOf(rdpClaim(lambda, eps), opts, func() (stat.Sample, error) { return stat.FromValues(xs, ys) })
	return reportRecorded(t, recordedReport(t, b, lambda, eps), err)
}

// CheckRDPSamplesDiscrete is [CheckRDPSamples] for discrete outputs of any
// comparable type.
func CheckRDPSamplesDiscrete[O comparable](t CheckT, xs, ys []O, lambda, eps float64, opts ...Option) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	b, err := boundOf(rdpClaim(lambda, eps), opts, func() (stat.Sample, error) { return stat.FromOutputs(xs, ys) })
	return reportRecorded(t, recordedReport(t, b, lambda, eps), err)
}

// reportRecorded reports a check of recorded outputs to t.
func reportRecorded(t CheckT, rep Report, err error) bool {
	if h, ok := t.(tb.Helper); ok {
		h.Helper()
	}
	if err != nil {
		rep.err, rep.Verdict = err, verdict.None
	}
	return report(t, rep, false)
}

func recordedReport(t CheckT, b Bound, lambda, eps float64) Report {
	r := Report{
		Claim: Claim{Kind: plan.KindRDP, Lambda: lambda, Value: eps}, Estimate: b.Estimate, LowerBound: b.LowerBound,
		Confidence: b.Confidence, violated: b.LowerBound > eps, Verdict: Holds,
		recorded: true, recordedNs: [2]int{b.NX, b.NY}, stdErr: b.StdErr,
	}
	if r.violated {
		r.Verdict = Violated
	}
	r.Details.TestName = testName(t)
	return r
}
