package search

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
)

// Wide screening. A violation can need a pair that random candidates
// rarely hold: a DP-SGD step that clips the summed gradient exceeds its
// claim only on pairs whose added example opposes and outweighs one
// already there, about one random pair in 25. Screening five times as
// many pairs in full would cost five times the screening; instead the
// wide pairs (Config.Wide) are screened on a small sample
// (Config.WideScreening), the plan.WideSifted most divergent again on a
// larger one (Config.WideSift), and only those that then clearly beat the
// best candidate are screened in full and join the candidates. The
// candidates keep their full screening, so the rare outputs a full
// screening can see are seen as before: the wide stage only adds pairs,
// and as every screening it chooses, it never confirms. It runs unless a
// candidate's screening already shows a clear violation (WideSkipMargin).
const (
	// WideLevel is the level, after Bonferroni over the sifted pairs'
	// directions, at which a sifting screening must beat the best
	// candidate's rank for its pair to be promoted: a promotion costs a
	// full screening, and the best of several estimates is biased upwards.
	WideLevel = 0.05
	// MaxWidePromoted caps the wide pairs promoted to a full screening.
	MaxWidePromoted = 2
	// WideSkipMargin: the wide stage is skipped when the best candidate's
	// screening exceeds WideSkipMargin times the claim at
	// plan.TriggerLevel (after Bonferroni over the candidates), a
	// violation its confirmation will show. A screening just above the
	// claim is not enough: the best of many screenings is biased upwards,
	// and a pair at the claim screened at 1.38 against 1 would otherwise
	// leave the run without its wide search.
	WideSkipMargin = 1.5
)

// WideResult says what a run's wide screening did.
type WideResult struct {
	Screened int // wide pairs screened coarsely
	Sifted   int // of them, screened again on the larger sample
	// Skipped are the coarse or sifting screenings among them that could
	// not estimate (outputs too sparse to resolve at their size, say); the
	// mechanism's own failures end the run as on any pair.
	Skipped  int
	Promoted int // wide pairs screened again in full, now candidates
	Samples  int // the coarse screening's draws per side
}

// widen screens the wide pairs coarsely, screens the plan.WideSifted of
// highest rank (either direction) again on the sifting stage, and
// promotes to a full screening, as candidates, at most MaxWidePromoted
// whose sifting rank less z standard errors (z at WideLevel over the
// sifted directions) exceeds the best candidate's rank, most clearly
// ahead first. Each stage draws afresh, so a promoted pair leads only on
// its full screening's evidence.
func (s *screening[D, F]) widen() (WideResult, error) {
	res, err := s.siftWide()
	if err != nil || s.sifted == nil {
		return res, err
	}
	return s.promote(s.sifted, res)
}

// siftWide runs the wide stage's coarse and sifting screenings, unless a
// candidate already shows a clear violation, and keeps the sifted pairs
// in s.sifted (nil when the stage did not run).
func (s *screening[D, F]) siftWide() (WideResult, error) {
	res := WideResult{Samples: s.cfg.WideScreening.Samples}
	if len(s.cfg.Wide) == 0 || res.Samples == 0 {
		return res, nil
	}
	zSkip := s.triggerZ()
	clear := func() bool {
		c := s.cands[0].Screening
		return c.Estimate-zSkip*c.StdErr > WideSkipMargin*s.cfg.Run.Threshold
	}
	// A first screening's few draws can show a clear violation by chance
	// (a Rényi estimate's standard error is itself noisy there): the skip
	// rests on the leaders' full screenings.
	if clear() && s.cands[0].Screened < s.full().Samples {
		if err := s.screenLeaders(); err != nil {
			return res, err
		}
	}
	if clear() {
		s.logf("wide screening skipped: a candidate's screening already shows the claim exceeded by more than %g times", WideSkipMargin)
		return res, nil
	}
	coarse, err := s.wideStage(s.cfg.Wide, "wide", s.cfg.WideScreening, &res)
	if err != nil {
		return res, err
	}
	res.Screened = len(s.cfg.Wide)
	sortRanked(coarse)
	sifted, err := s.wideStage(inputsOf(coarse[:min(len(coarse), plan.WideSifted)]), "sift", s.cfg.WideSift, &res)
	if err != nil {
		return res, err
	}
	res.Sifted = len(sifted)
	if sifted == nil {
		sifted = []ranked[D]{} // the stage ran, though no pair could be sifted
	}
	s.sifted = sifted
	return res, nil
}

// promote screens in full, as candidates, at most MaxWidePromoted of the
// sifted pairs whose sifting rank less z standard errors (z at WideLevel
// over the sifted directions) exceeds the best candidate's rank, most
// clearly ahead first, and returns res with their count.
func (s *screening[D, F]) promote(sifted []ranked[D], res WideResult) (WideResult, error) {
	best := s.cands[0].Screening.Rank
	z := numeric.UpperNormalQuantile(WideLevel / float64(2*max(1, len(sifted))))
	ahead := make([]ranked[D], len(sifted))
	for i, w := range sifted {
		ahead[i] = ranked[D]{w.in, w.score, promotionMargin(w.score, z)}
	}
	sortRanked(ahead)
	res.Promoted = 0
	for _, w := range ahead {
		if !(w.rank > best) {
			break
		}
		if res.Promoted == MaxWidePromoted {
			s.logf("wide pair %s also beats the best candidate (%.4g against %.4g) but is not promoted: at most %d are", w.in.Source, w.rank, best, MaxWidePromoted)
			continue
		}
		s.logf("wide pair %s promoted: its sifting rank less %.3g standard errors (or its lower bound, where the standard error is infinite), %.4g, exceeds the best candidate's %.4g", w.in.Source, z, w.rank, best)
		if err := s.screen(w.in.Pair, w.in.Source); err != nil {
			return res, err
		}
		res.Promoted++
	}
	sortByRank(s.cands)
	s.logf("wide screening: %d pairs at %d draws per side, %d again at %d, %d skipped, %d promoted",
		res.Screened, res.Samples, res.Sifted, s.cfg.WideSift.Samples, res.Skipped, res.Promoted)
	return res, nil
}

// ranked is a wide pair's screening of its higher-ranked direction and
// the rank it is ordered by.
type ranked[D any] struct {
	in    Input[D]
	score Score
	rank  float64
}

// promotionMargin is a sifting screening's rank less z standard errors,
// or, where its standard error is not finite (a Rényi event the other
// dataset never produced in the held-out draws, as an unbounded divergence
// shows), its lower bound at plan.TriggerLevel: the pairs of the worst
// violations must not fall to −∞.
func promotionMargin(sc Score, z float64) float64 {
	if math.IsInf(sc.StdErr, 0) || math.IsNaN(sc.StdErr) {
		return sc.LowerBound
	}
	return sc.Rank - z*sc.StdErr
}

func sortRanked[D any](rs []ranked[D]) {
	slices.SortStableFunc(rs, func(a, b ranked[D]) int { return cmp.Compare(b.rank, a.rank) })
}

func inputsOf[D any](rs []ranked[D]) []Input[D] {
	in := make([]Input[D], len(rs))
	for i, r := range rs {
		in[i] = r.in
	}
	return in
}

// wideStage screens the inputs at st on streams of label and returns
// those it could estimate, in order, counting the others in res.Skipped;
// a failure of the mechanism is returned as the pair's error.
func (s *screening[D, F]) wideStage(in []Input[D], label string, st plan.Stage, res *WideResult) ([]ranked[D], error) {
	pairs := pairsOf(in)
	var out []ranked[D]
	for i, r := range s.screenConcurrently(pairs, label, st) {
		if r.err != nil {
			if mechanismFailure(r.err) {
				return nil, &PairError[D]{Pair: pairs[i], Stage: label + " screening " + in[i].Source, Err: r.err}
			}
			res.Skipped++
			s.logf("%s screening of %s skipped: %v", label, in[i].Source, r.err)
			continue
		}
		d := r.dirs[0]
		if r.dirs[1].Rank > d.Rank {
			d = r.dirs[1]
		}
		out = append(out, ranked[D]{in[i], d.Score, d.Rank})
	}
	return out, nil
}

// mechanismFailure reports whether a screening error is the mechanism's
// (a draw that failed, a dataset it changed, draws stopped by the
// deadline) rather than the statistic's at the screening's size.
func mechanismFailure(err error) bool {
	var draw *sampler.DrawError
	return errors.As(err, &draw) || errors.Is(err, sampler.ErrStopped) || errors.Is(err, sampler.ErrMutatedInput)
}
