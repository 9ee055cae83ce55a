package search

import (
	"errors"
	"fmt"
	"time"

	"github.com/dptest/dptest/internal/plan"
)

// ConfirmSeed is the seed of round (0 or 1) of the confirmation of the
// group-th pair a run of seed confirms: each round of each pair draws on
// streams of its own.
func ConfirmSeed(seed uint64, round, group int) uint64 {
	return plan.SubSeed(seed, fmt.Sprintf("confirm%d", round), group)
}

// errRecordedConfig reports a run on recorded outputs configured with a
// stage that would draw beyond the records.
var errRecordedConfig = errors.New("search: a run on recorded outputs screens one pair once and confirms it once: no quick or early look, deep or wide screening, simplifier or finder")

// runRecorded is [Run] on outputs recorded elsewhere (Config.Recorded):
// the one candidate pair is screened once in both directions, its
// directions confirmed in two rounds of the confirmation stage, and the
// claim decided as Run decides it. There is no quick or early look, no
// wide, improving, simplifying, refining or deep screening: each would
// need draws beyond the records' share for it. The screening's draws
// and the confirmations' are the records' own split (sampler.Records),
// so the false-failure argument of Run holds unchanged: the
// confirmations count draws the screening never saw, each round its
// own.
func runRecorded[D, F any](crit Criterion[D, F], cfg Config[D]) (Outcome[D, F], error) {
	start := time.Now()
	if cfg.QuickScreening.Samples > 0 || len(cfg.Looks) > 0 || cfg.Deep.Samples > 0 || len(cfg.Wide) > 0 ||
		cfg.Simplify != nil || cfg.NewFinder != nil || len(cfg.Candidates) != 1 {
		return Outcome[D, F]{Directions: crit.Directions()}, errRecordedConfig
	}
	s := newScreening(crit, cfg)
	base, err := s.selectCandidates(false)
	if err != nil {
		return base, err
	}
	out, err := s.conclude(base, cfg, nil, false)
	out.Elapsed = time.Since(start)
	return out, err
}
