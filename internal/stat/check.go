package stat

import (
	"errors"
	"fmt"
	"math"
)

// ErrNotCountable reports an output that is not equal to itself (a NaN, or
// a struct or array holding one), which no frequency table can count.
var ErrNotCountable = errors.New("a discrete output must equal itself to be counted (a NaN never does)")

// CheckFinite accepts a finite real output. Every real output passes
// through it before it reaches a statistic.
func CheckFinite(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("output %v: real outputs must be finite", v)
	}
	return nil
}

// CheckCountable accepts a discrete output equal to itself. Every discrete
// output passes through it before it reaches a statistic.
func CheckCountable[O comparable](v O) error {
	if v != v {
		return fmt.Errorf("output %v: %w", v, ErrNotCountable)
	}
	return nil
}
