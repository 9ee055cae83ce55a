package search

import (
	"fmt"

	"github.com/dptest/dptest/fixtures"
)

// Finder proposes candidate pairs one at a time, each after the screening
// of the one before ([Config.Finder]): a dataset finder of [KMRS24],
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
// Config.Trials were screened, or a screening shows the claim exceeded as
// clearly as the wide stage's skip asks (WideSkipMargin at
// plan.TriggerLevel after Bonferroni over the candidates so far).
func (s *screening[D, F]) find() error {
	f := s.cfg.Finder
	if f == nil {
		return nil
	}
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
		z := s.triggerZ()
		for _, c := range []Candidate[D, F]{xy, yx} {
			if s.foundAt == 0 && c.Screening.Estimate-z*c.Screening.StdErr > s.cfg.Run.Threshold {
				s.foundAt = t + 1
			}
			if c.Screening.Estimate-z*c.Screening.StdErr > WideSkipMargin*s.cfg.Run.Threshold {
				s.logf("finder stops after %d trials: found %d shows the claim exceeded by more than %g times", t+1, t+1, WideSkipMargin)
				return nil
			}
		}
	}
	return nil
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
