package renyi

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/dptest/dptest/internal/density"
)

// Sample-level errors.
var (
	ErrEmpty     = errors.New("renyi: a sample is empty")
	ErrNonFinite = errors.New("renyi: a sample holds NaN or ±Inf")
	// ErrMostlyDiscrete reports real samples whose values mostly repeat.
	ErrMostlyDiscrete = fmt.Errorf("renyi: the samples repeat more than %d distinct values or have no continuous part: they are discrete outputs, use the discrete estimator", density.MaxAtoms)
)

// ContinuousSamples bounds D_λ(p ‖ q) from real samples xs ∼ p and ys ∼ q
// held in memory (outputs recorded elsewhere); sample sizes may differ. As
// in an audit, heavy-tailed samples are first mapped by
// density.HeavyTailTransform, values that repeat are atoms counted exactly
// (a clamped or rounded release), and the grid for the rest is fixed from
// the pooled samples' range as [density.GridFor] does from a pilot. A sample whose
// values are all equal is a point mass and is rejected with ErrPointMassP or
// ErrPointMassQ (use [DiscreteSamples]), as are samples with more than
// density.MaxAtoms repeated values (ErrMostlyDiscrete).
func ContinuousSamples(xs, ys []float64, par Params) (Result, error) {
	if len(xs) == 0 || len(ys) == 0 {
		return Result{}, ErrEmpty
	}
	for i, v := range xs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Result{}, fmt.Errorf("%w: first sample, value %d is %v", ErrNonFinite, i, v)
		}
	}
	for i, v := range ys {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Result{}, fmt.Errorf("%w: second sample, value %d is %v", ErrNonFinite, i, v)
		}
	}
	if err := par.check(int64(len(xs)), int64(len(ys))); err != nil {
		return Result{}, err
	}
	if allEqual(xs) {
		return Result{}, ErrPointMassP
	}
	if allEqual(ys) {
		return Result{}, ErrPointMassQ
	}
	pooled := append(slices.Clone(xs), ys...)
	slices.Sort(pooled)
	if tr, _, ok := density.HeavyTailTransform(pooled); ok {
		// Heavy tails: estimate on the asinh scale, a bijection.
		xs, ys = mapValues(xs, tr), mapValues(ys, tr)
		for i, v := range pooled {
			pooled[i] = tr(v)
		}
		slices.Sort(pooled)
	}
	atoms, rest, tooMany := density.FindAtoms(pooled)
	if tooMany {
		return Result{}, ErrMostlyDiscrete
	}
	if len(rest) < 2 || rest[0] == rest[len(rest)-1] {
		return Result{}, ErrMostlyDiscrete
	}
	g, err := density.GridForSorted(rest, min(len(xs), len(ys)))
	if err != nil {
		return Result{}, err
	}
	rx, ry := density.NewReal(g, atoms), density.NewReal(g, atoms)
	for _, v := range xs {
		rx.Add(v)
	}
	for _, v := range ys {
		ry.Add(v)
	}
	return Real(rx, ry, par)
}

func mapValues(v []float64, f func(float64) float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = f(x)
	}
	return out
}

func allEqual(v []float64) bool {
	for _, x := range v[1:] {
		if x != v[0] {
			return false
		}
	}
	return true
}

// DiscreteSamples bounds D_λ(p ‖ q) from discrete samples xs ∼ p and ys ∼ q
// of any comparable type held in memory; sample sizes may differ. A value
// that is not equal to itself (a NaN, or a struct or array holding one)
// cannot be counted and is rejected with ErrNonFinite.
func DiscreteSamples[O comparable](xs, ys []O, par Params) (Result, error) {
	if len(xs) == 0 || len(ys) == 0 {
		return Result{}, ErrEmpty
	}
	fx, fy := density.NewFreq[O](), density.NewFreq[O]()
	for i, v := range xs {
		if v != v {
			return Result{}, fmt.Errorf("%w: first sample, value %d is %v", ErrNonFinite, i, v)
		}
		fx.Add(v)
	}
	for i, v := range ys {
		if v != v {
			return Result{}, fmt.Errorf("%w: second sample, value %d is %v", ErrNonFinite, i, v)
		}
		fy.Add(v)
	}
	return Discrete(fx, fy, par)
}
