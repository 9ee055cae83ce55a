package stat

import (
	"errors"
	"fmt"
	"slices"
)

// Errors of samples recorded elsewhere.
var (
	ErrEmpty      = errors.New("stat: a sample is empty")
	ErrPointMassP = errors.New("stat: the first sample is a point mass (all values equal): a point mass is a discrete output, use the discrete estimator")
	ErrPointMassQ = errors.New("stat: the second sample is a point mass (all values equal): a point mass is a discrete output, use the discrete estimator")
)

// FromValues builds the sample of real outputs recorded elsewhere, xs on one
// dataset and ys on its neighbour (sizes may differ): the design is fixed
// from the pooled values as [DesignReal] fixes it from a pilot, for
// min(len(xs), len(ys)) outputs per side, and every value is then counted
// on it. A NaN or ±Inf value is an error naming it; so are an empty
// sample, a sample whose values are all equal (ErrPointMassP,
// ErrPointMassQ) and values that mostly repeat (ErrDiscrete).
func FromValues(xs, ys []float64) (*Continuous, error) {
	if len(xs) == 0 || len(ys) == 0 {
		return nil, ErrEmpty
	}
	if err := checkAll(xs, ys, CheckFinite); err != nil {
		return nil, err
	}
	if allEqual(xs) {
		return nil, ErrPointMassP
	}
	if allEqual(ys) {
		return nil, ErrPointMassQ
	}
	d, err := DesignReal(append(slices.Clone(xs), ys...), min(len(xs), len(ys)))
	if err != nil {
		return nil, err
	}
	c := &Continuous{P: d.New(), Q: d.New(), Design: d}
	for _, v := range xs {
		c.P.Add(v)
	}
	for _, v := range ys {
		c.Q.Add(v)
	}
	return c, nil
}

// FromOutputs builds the table of discrete outputs recorded elsewhere, xs
// on one dataset and ys on its neighbour. A value not equal to itself is an
// error naming it; so is an empty sample.
func FromOutputs[O comparable](xs, ys []O) (*Table, error) {
	if len(xs) == 0 || len(ys) == 0 {
		return nil, ErrEmpty
	}
	if err := checkAll(xs, ys, CheckCountable[O]); err != nil {
		return nil, err
	}
	fx, fy := NewFreq[O](), NewFreq[O]()
	for _, v := range xs {
		fx.Add(v)
	}
	for _, v := range ys {
		fy.Add(v)
	}
	return Tabulate(fx, fy), nil
}

func checkAll[O any](xs, ys []O, check func(O) error) error {
	for s, vs := range [][]O{xs, ys} {
		for i, v := range vs {
			if err := check(v); err != nil {
				return fmt.Errorf("%s sample, value %d: %w", [...]string{"first", "second"}[s], i, err)
			}
		}
	}
	return nil
}

func allEqual(v []float64) bool {
	for _, x := range v[1:] {
		if x != v[0] {
			return false
		}
	}
	return true
}
