package dptest

import (
	"github.com/dptest/dptest/internal/sampler"
)

// Executor makes a mechanism's counting draws on other machines: the
// blocks of one draw of the audit's seeded streams, merged. Package
// github.com/dptest/dptest/beam implements it on Apache Beam.
type Executor = sampler.Executor

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
