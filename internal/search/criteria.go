package search

import (
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/local"
	"github.com/dptest/dptest/internal/renyi"
)

// RDP is the criterion of a Rényi-DP audit: D_λ(M(X) ‖ M(Y)), estimated and
// bounded by the softmax-floored plug-in of [KAD24] (package renyi).
func RDP[D any](m Mechanism[D], lambda float64, workers int) Criterion[D] {
	return rdpCriterion[D]{m, lambda, workers}
}

type rdpCriterion[D any] struct {
	m       Mechanism[D]
	lambda  float64
	workers int
}

func fromRenyi(r renyi.Result) Score {
	return Score{Estimate: r.Estimate, StdErr: r.StdErr, LowerBound: r.LowerBound, Rank: r.Estimate, Detail: r}
}

func (c rdpCriterion[D]) Screen(seed uint64, p fixtures.Pair[D], n int) (xy, yx Score, err error) {
	// Screening ranks by point estimate; the 95% level only matters for
	// its LowerBound, which is reported in verbose logs.
	a, b, err := c.m.Pair(seed, p.X, p.Y, n, renyi.Params{Lambda: c.lambda, Alpha: 0.05}, c.workers)
	return fromRenyi(a), fromRenyi(b), err
}

func (c rdpCriterion[D]) Confirm(seed uint64, p fixtures.Pair[D], n int, alpha float64, _, _ *Score) (xy, yx Score, err error) {
	a, b, err := c.m.Pair(seed, p.X, p.Y, n, renyi.Params{Lambda: c.lambda, Alpha: alpha}, c.workers)
	return fromRenyi(a), fromRenyi(b), err
}

// DP is the criterion of a pure-DP audit by the local approach of [AKD22]:
// the maximal loss ln f_X(t) − ln f_Y(t) over outputs t (screening, DPL),
// confirmed on fresh samples at the event the screening chose (MPL).
func DP[D any](m Mechanism[D], par LocalParams, workers int) Criterion[D] {
	return dpCriterion[D]{m, par, workers}
}

type dpCriterion[D any] struct {
	m       Mechanism[D]
	par     LocalParams
	workers int
}

// Directions names the two losses a DP screening measures, for the logs.
func (dpCriterion[D]) Directions() [2]string {
	return [2]string{"ln f_X − ln f_Y", "ln f_Y − ln f_X"}
}

func (c dpCriterion[D]) Screen(seed uint64, p fixtures.Pair[D], n int) (xy, yx Score, err error) {
	a, b, err := c.m.Screen(seed, p.X, p.Y, n, c.par, c.workers)
	if err != nil {
		return xy, yx, err
	}
	return Score{Estimate: a.Loss, StdErr: a.StdErr, Rank: a.Loss - local.PeakPenalty*a.StdErr, Detail: a},
		Score{Estimate: b.Loss, StdErr: b.StdErr, Rank: b.Loss - local.PeakPenalty*b.StdErr, Detail: b}, nil
}

func (c dpCriterion[D]) Confirm(seed uint64, p fixtures.Pair[D], n int, alpha float64, sxy, syx *Score) (xy, yx Score, err error) {
	var events []local.Event
	if sxy != nil {
		events = append(events, sxy.Detail.(local.Estimate).Event)
	}
	if syx != nil {
		events = append(events, syx.Detail.(local.Estimate).Event)
	}
	cx, cy, err := c.m.Count(seed, p.X, p.Y, n, events, c.workers)
	if err != nil {
		return xy, yx, err
	}
	i := 0
	if sxy != nil {
		b := local.CountBound(cx[i], int64(n), cy[i], int64(n), alpha)
		xy = Score{Estimate: b.Loss, StdErr: b.StdErr, LowerBound: b.LowerBound, Detail: b}
		i++
	}
	if syx != nil {
		b := local.CountBound(cy[i], int64(n), cx[i], int64(n), alpha)
		yx = Score{Estimate: b.Loss, StdErr: b.StdErr, LowerBound: b.LowerBound, Detail: b}
	}
	return xy, yx, nil
}
