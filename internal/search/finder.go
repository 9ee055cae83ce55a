package search

import (
	"fmt"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/plan"
)

// Finder proposes candidate pairs one at a time, each after the screening
// of the one before ([Config.NewFinder]): a dataset finder of [KMRS24],
// Section 5. Its proposals are screened like any candidate, so it only
// chooses what is screened, never what is confirmed or how.
type Finder[D any] interface {
	// Next returns the pair of the next trial given the screening rank of
	// every pair it proposed before (in order, the larger of each pair's
	// two directions), or false when it has no more.
	Next(ranks []float64) (fixtures.Pair[D], bool)
}

// find screens the finder's proposals one at a time, after the
// candidates, feeding each screening's rank back, until it has no more,
// Config.Trials were screened, or a trial shows the claim exceeded as
// clearly as the wide stage's skip asks (WideSkipMargin). A screening's
// estimate is the best of what it looked at, biased upwards (for vectors,
// a score and its peak chosen on the same draws; a second screening is
// biased alike), so a trial shows the claim exceeded only when the
// statistic its screening chose, counted on fresh draws of the
// screening's size, bounds it above the claim at plan.TriggerLevel after
// Bonferroni over the candidates so far. That count only decides this: it
// is no confirmation, and its pair is confirmed, if at all, as any other.
func (s *screening[D, F]) find() error {
	if s.cfg.NewFinder == nil {
		return nil
	}
	f := s.cfg.NewFinder()
	var ranks []float64
	for t := 0; t < s.cfg.Trials; t++ {
		p, ok, err := next(f, ranks)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if err := s.screen(p, fmt.Sprintf("found %d", t+1)); err != nil {
			return err
		}
		s.trials = t + 1
		xy, yx := s.cands[len(s.cands)-2], s.cands[len(s.cands)-1]
		ranks = append(ranks, max(xy.Screening.Rank, yx.Screening.Rank))
		shows, clearly, err := s.showsExceeded(p, t, xy, yx)
		if err != nil {
			return err
		}
		if shows && s.foundAt == 0 {
			s.foundAt = t + 1
		}
		if clearly {
			s.logf("finder stops after %d trials: found %d, counted again, shows the claim exceeded by more than %g times", t+1, t+1, WideSkipMargin)
			return nil
		}
	}
	return nil
}

// showsExceeded reports whether trial t's pair, screened as the
// candidates xy and yx, shows the claim exceeded at the trigger level,
// and clearly so (by WideSkipMargin), on its statistics counted on fresh
// draws; they are counted only when its screening shows it.
func (s *screening[D, F]) showsExceeded(p fixtures.Pair[D], t int, xy, yx Candidate[D, F]) (shows, clearly bool, err error) {
	z := s.triggerZ()
	th := s.cfg.Run.Threshold
	if xy.Screening.Estimate-z*xy.Screening.StdErr <= th && yx.Screening.Estimate-z*yx.Screening.StdErr <= th {
		return false, false, nil
	}
	level := plan.TriggerLevel / float64(len(s.cands))
	bxy, byx, err := s.crit.Confirm(plan.SubSeed(s.cfg.Run.Seed, "finder check", t), p, s.cfg.Screening, level, &xy.Finding, &yx.Finding, nil)
	if err != nil {
		return false, false, &PairError[D]{Pair: p, Stage: fmt.Sprintf("counting found %d again", t+1), Err: err}
	}
	s.logf("found %d counted again: bounds %.4g, %.4g", t+1, bxy.LowerBound, byx.LowerBound)
	for _, b := range []Score{bxy, byx} {
		shows = shows || b.LowerBound > th
		clearly = clearly || b.LowerBound > WideSkipMargin*th
	}
	return shows, clearly, nil
}

// next calls the finder, turning a panic (in the user's code that maps a
// point to a pair) into an error.
func next[D any](f Finder[D], ranks []float64) (p fixtures.Pair[D], ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the finder panicked proposing trial %d: %v", len(ranks)+1, r)
		}
	}()
	p, ok = f.Next(ranks)
	return p, ok, nil
}
