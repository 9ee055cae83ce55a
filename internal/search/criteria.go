package search

import (
	"fmt"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/local"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
)

// RDP is the criterion of a Rényi-DP audit: D_λ(M(X) ‖ M(Y)), bounded by
// the softmax-floored plug-in of [KAD24] (package renyi) on counts. The
// screening counts each pair's outputs per value (discrete) or per cell of
// a partition fixed by its pilot (real), groups the cells by their
// estimated ratio for each direction (renyi.Group) and ranks by the
// estimate on the groups; the confirmation counts fresh outputs in the
// groups fixed for a sample of confirm outputs per side.
func RDP[D any](src sampler.Source[D], lambda float64, rules plan.RenyiRules, confirm int) Criterion[D, RenyiFinding] {
	return rdpCriterion[D]{src, renyi.Params{
		Lambda: lambda, DiscreteTau: rules.DiscreteTau, RelativeTau: rules.RelativeTau,
	}, confirm}
}

// RenyiFinding is what the screening of one direction found: its estimate
// on the screening's groups and the grouping a confirmation counts.
type RenyiFinding struct {
	Screening renyi.Result
	Grouping  stat.Grouping
}

type rdpCriterion[D any] struct {
	src     sampler.Source[D]
	par     renyi.Params
	confirm int
}

func (rdpCriterion[D]) Directions() [2]string { return [2]string{"D(M(X)‖M(Y))", "D(M(Y)‖M(X))"} }

func (c rdpCriterion[D]) Screen(seed uint64, p fixtures.Pair[D], st plan.Stage) (xy, yx Screened[RenyiFinding], err error) {
	s, err := c.src.Sample(seed, p.X, p.Y, st.Samples, st.Pilot)
	if err != nil {
		return xy, yx, err
	}
	t, ok := s.(*stat.Table)
	if !ok {
		return xy, yx, fmt.Errorf("search: no Rényi screening of a sample of type %T", s)
	}
	if err := resolvable(t); err != nil {
		return xy, yx, err
	}
	par := c.par
	par.Alpha = plan.TriggerLevel
	var out [2]Screened[RenyiFinding]
	for d, reverse := range []bool{false, true} {
		both := [2]renyi.Result{}
		both[0], both[1], err = renyi.Both(renyi.Grouped(t, renyi.Group(t, par.Lambda, st.Samples, reverse)), par)
		if err != nil {
			return xy, yx, err
		}
		r := both[d]
		score := Score{Estimate: r.Estimate, StdErr: r.StdErr, LowerBound: r.LowerBound, Rank: r.Estimate}
		out[d] = Screened[RenyiFinding]{score, RenyiFinding{Screening: r, Grouping: renyi.Group(t, par.Lambda, c.confirm, reverse)}}
	}
	return out[0], out[1], nil
}

func (c rdpCriterion[D]) Confirm(seed uint64, p fixtures.Pair[D], st plan.Stage, alpha float64, sxy, syx *RenyiFinding) (xy, yx Score, err error) {
	var gs []stat.Grouping
	for _, f := range []*RenyiFinding{sxy, syx} {
		if f != nil {
			gs = append(gs, f.Grouping)
		}
	}
	cx, cy, err := c.src.Count(seed, p.X, p.Y, st.Samples, gs)
	if err != nil {
		return xy, yx, err
	}
	par := c.par
	par.Alpha = alpha
	n := int64(st.Samples)
	k := 0
	for d, f := range []*RenyiFinding{sxy, syx} {
		if f == nil {
			continue
		}
		a, b, err := renyi.Both(stat.Counted(cx[k], cy[k], n, n), par)
		if err != nil {
			return xy, yx, err
		}
		r := [2]renyi.Result{a, b}[d]
		score := Score{Estimate: r.Estimate, StdErr: r.StdErr, LowerBound: r.LowerBound}
		if d == 0 {
			score.Lumped = renyi.LumpedShare(cx[k], cy[k], n, par.Lambda, f.Grouping.Lumped)
		} else {
			score.Lumped = renyi.LumpedShare(cy[k], cx[k], n, par.Lambda, f.Grouping.Lumped)
		}
		if d == 0 {
			xy = score
		} else {
			yx = score
		}
		k++
	}
	return xy, yx, nil
}

// DP is the criterion of a pure-DP audit by the local approach of [AKD22]:
// the maximal loss ln f_X(t) − ln f_Y(t) over values or cells t (screening,
// DPL), confirmed on fresh samples in the event the screening chose (MPL).
func DP[D any](src sampler.Source[D], rules plan.LocalRules) Criterion[D, local.Estimate] {
	return dpCriterion[D]{src, local.Params{Region: rules.Region, Tau: rules.Floor, FloorCount: rules.FloorCount}}
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
	if t, ok := s.(*stat.Table); ok {
		if err := resolvable(t); err != nil {
			return xy, yx, err
		}
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
	var gs []stat.Grouping
	for _, e := range []*local.Estimate{sxy, syx} {
		if e != nil {
			gs = append(gs, e.Event)
		}
	}
	cx, cy, err := c.src.Count(seed, p.X, p.Y, st.Samples, gs)
	if err != nil {
		return xy, yx, err
	}
	n := int64(st.Samples)
	score := func(b local.Bound) Score { return Score{Estimate: b.Loss, StdErr: b.StdErr, LowerBound: b.LowerBound} }
	k := 0
	if sxy != nil {
		xy = score(local.CountBound(cx[k][0], n, cy[k][0], n, alpha))
		k++
	}
	if syx != nil {
		yx = score(local.CountBound(cy[k][0], n, cx[k][0], n, alpha))
	}
	return xy, yx, nil
}

// resolvable returns a *stat.SparseError for a table of values that barely
// repeat and have no order to group them by.
func resolvable(t *stat.Table) error {
	if t.Partition == nil && t.Sparse() {
		return &stat.SparseError{Values: len(t.Cells), Draws: t.NP + t.NQ}
	}
	return nil
}
