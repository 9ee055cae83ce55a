package dptest

import (
	"math/rand/v2"

	"github.com/dptest/dptest/internal/search"
)

// Mechanism is a randomized mechanism on datasets of type D, as a function
// of a seeded generator and a dataset. Build one with [Continuous] for real
// outputs or [Discrete] for outputs of any comparable type.
//
// The function must draw all its randomness from r (math/rand/v2): dptest
// seeds r from the audit's seed and the block of samples being drawn, so a
// seed replays every output. It is called from several goroutines at once,
// each with its own r, so it must not mutate shared state.
type Mechanism[D any] struct {
	impl search.Mechanism[D]
}

// Continuous wraps a mechanism with real outputs. The outputs may mix a
// density with atoms (a clamped or rounded release): values that repeat are
// counted exactly, the rest go into a kernel density estimate. NaN and ±Inf
// are errors that fail the assertion.
func Continuous[D any](f func(r *rand.Rand, x D) float64) Mechanism[D] {
	if f == nil {
		panic("dptest: Continuous needs a non-nil function")
	}
	return Mechanism[D]{search.Real(f)}
}

// Discrete wraps a mechanism with outputs of any comparable type (an index,
// a bit pattern, a string, a struct of such), counted exactly. A value that
// is not equal to itself, such as a NaN, is an error that fails the
// assertion.
func Discrete[D any, O comparable](f func(r *rand.Rand, x D) O) Mechanism[D] {
	if f == nil {
		panic("dptest: Discrete needs a non-nil function")
	}
	return Mechanism[D]{search.Discrete(f)}
}

func (m Mechanism[D]) valid() bool { return m.impl != nil }
