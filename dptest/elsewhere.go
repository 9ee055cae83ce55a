package dptest

import (
	"math/rand/v2"

	"github.com/dptest/dptest/internal/sampler"
)

// Executor makes a mechanism's counting draws on other machines: the
// blocks of one draw of the audit's seeded streams, each made by
// [RunTask], merged by [MergeTaskResults]. Package
// github.com/dptest/dptest/beam implements it on Apache Beam.
type Executor = sampler.Executor

// BlockSize is the draws of one block, an Executor's unit of work: block
// b of a stream is drawn with a generator of its own, seeded from the
// audit's seed, the stream and b.
const BlockSize = sampler.BlockSize

// DrawnElsewhere returns m with its counting draws made by ex: those of
// every screening and confirmation, in draws of at least minBlocks blocks
// (at least one). Pilots, replay checks and pictures draw here. For the
// same seed, verdicts and bounds equal those of m's draws made here.
// Datasets and outputs travel with encoding/gob. A Vector mechanism is an
// error of every audit of the result.
func DrawnElsewhere[D any](m Mechanism[D], ex Executor, minBlocks int) Mechanism[D] {
	if m.err != nil {
		return m
	}
	src, err := sampler.DrawnElsewhere(m.source, sampler.Elsewhere{Executor: ex, MinBlocks: minBlocks})
	if err != nil {
		m.err = err
		return m
	}
	m.source = src
	return m
}

// RunTask makes blocks first to last−1 of a task an Executor was given,
// with the mechanism f, on one goroutine, and returns their encoded counts.
// An Executor's workers call it; f must be the mechanism of the audit.
func RunTask[D any, O comparable](task []byte, f func(r *rand.Rand, x D) O, first, last int) ([]byte, error) {
	return sampler.RunTask(task, f, first, last)
}

// MergeTaskResults merges two results of RunTask on one task, of outputs
// of type O: what an Executor's combiner does.
func MergeTaskResults[O comparable](task, a, b []byte) ([]byte, error) {
	return sampler.MergeResults[O](task, a, b)
}

// EmptyTaskResult is the result of no blocks, which merges as nothing.
func EmptyTaskResult() []byte { return sampler.EmptyResult() }
