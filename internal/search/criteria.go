package search

import (
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/local"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
)

// RDP is the criterion of a Rényi-DP audit: D_λ(M(X) ‖ M(Y)), estimated and
// bounded by the softmax-floored plug-in of [KAD24] (package renyi) on the
// statistic the source draws. The screening ranks by point estimate.
func RDP[D any](src sampler.Source[D], lambda float64, rules plan.RenyiRules) Criterion[D, renyi.Result] {
	return rdpCriterion[D]{src, renyi.Params{
		Lambda: lambda, DiscreteTau: rules.DiscreteTau, RelativeTau: rules.RelativeTau, TailCount: rules.TailCount,
	}}
}

type rdpCriterion[D any] struct {
	src sampler.Source[D]
	par renyi.Params
}

func (rdpCriterion[D]) Directions() [2]string { return [2]string{"D(M(X)‖M(Y))", "D(M(Y)‖M(X))"} }

func (c rdpCriterion[D]) both(seed uint64, p fixtures.Pair[D], st plan.Stage, alpha float64) (xy, yx renyi.Result, err error) {
	s, err := c.src.Sample(seed, p.X, p.Y, st.Samples, st.Pilot)
	if err != nil {
		return xy, yx, err
	}
	par := c.par
	par.Alpha = alpha
	return renyi.Both(s, par)
}

func screened(r renyi.Result) Screened[renyi.Result] {
	return Screened[renyi.Result]{Score{Estimate: r.Estimate, StdErr: r.StdErr, LowerBound: r.LowerBound, Rank: r.Estimate}, r}
}

func (c rdpCriterion[D]) Screen(seed uint64, p fixtures.Pair[D], st plan.Stage) (xy, yx Screened[renyi.Result], err error) {
	a, b, err := c.both(seed, p, st, plan.TriggerLevel)
	return screened(a), screened(b), err
}

func (c rdpCriterion[D]) Confirm(seed uint64, p fixtures.Pair[D], st plan.Stage, alpha float64, _, _ *renyi.Result) (xy, yx Score, err error) {
	a, b, err := c.both(seed, p, st, alpha)
	return screened(a).Score, screened(b).Score, err
}

// DP is the criterion of a pure-DP audit by the local approach of [AKD22]:
// the maximal loss ln f_X(t) − ln f_Y(t) over outputs t (screening, DPL),
// confirmed on fresh samples at the event the screening chose (MPL).
func DP[D any](src sampler.Source[D], rules plan.LocalRules) Criterion[D, local.Estimate] {
	return dpCriterion[D]{src, local.Params{
		Region: rules.Region, RegionTail: rules.RegionTail, Tau: rules.Floor, FloorCount: rules.FloorCount,
	}}
}

type dpCriterion[D any] struct {
	src sampler.Source[D]
	par local.Params
}

func (dpCriterion[D]) Directions() [2]string {
	return [2]string{"ln f_X − ln f_Y", "ln f_Y − ln f_X"}
}

func (c dpCriterion[D]) Screen(seed uint64, p fixtures.Pair[D], st plan.Stage) (xy, yx Screened[local.Estimate], err error) {
	s, err := c.src.Sample(seed, p.X, p.Y, st.Samples, st.Pilot)
	if err != nil {
		return xy, yx, err
	}
	a, b, err := local.Screen(s, c.par)
	if err != nil {
		return xy, yx, err
	}
	rank := func(e local.Estimate) Screened[local.Estimate] {
		return Screened[local.Estimate]{Score{Estimate: e.Loss, StdErr: e.StdErr, Rank: e.Loss - local.PeakPenalty*e.StdErr}, e}
	}
	return rank(a), rank(b), nil
}

func (c dpCriterion[D]) Confirm(seed uint64, p fixtures.Pair[D], st plan.Stage, alpha float64, sxy, syx *local.Estimate) (xy, yx Score, err error) {
	var events []stat.Event
	for _, e := range []*local.Estimate{sxy, syx} {
		if e != nil {
			events = append(events, e.Event)
		}
	}
	cx, cy, err := c.src.Count(seed, p.X, p.Y, st.Samples, events)
	if err != nil {
		return xy, yx, err
	}
	n := int64(st.Samples)
	score := func(b local.Bound) Score { return Score{Estimate: b.Loss, StdErr: b.StdErr, LowerBound: b.LowerBound} }
	i := 0
	if sxy != nil {
		xy = score(local.CountBound(cx[i], n, cy[i], n, alpha))
		i++
	}
	if syx != nil {
		yx = score(local.CountBound(cy[i], n, cx[i], n, alpha))
	}
	return xy, yx, nil
}
