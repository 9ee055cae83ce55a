package search

import (
	"slices"

	"github.com/dptest/dptest/internal/plan"
)

// quickLook is the first look of a run with a quick look
// (Config.QuickScreening): the candidates are screened on the quick
// stage, widened, improved and simplified as in the full run (no
// refinement), on streams of a seed of its own; where that screening can
// decide ([screening.decidable]), the leading candidates are confirmed on
// Config.QuickConfirmation fresh draws per side at plan.QuickLookShare of
// the run's α. The outcome has Quick set when the claim is violated or
// held with margin there, by the rules of the early look ([held]).
// Otherwise rest is the configuration of the full run: the rest of α
// (spent or not at the quick look), and what the quick look's wide stage
// sifted, from which the full run promotes against its own best candidate
// (the wide stage only chooses, so its draws serve any later look). A
// screening that fails at the quick look's size for want of draws (values
// too rare to screen, say) leaves the decision to the full run; the
// mechanism's own failures end the run, as anywhere.
//
// Its pass needs, as the early look's, no confirmation leaning on the
// tails beyond the screening's extremes, none counting outputs of one
// dataset alone, and a resolution within ResolutionFactor of the claim.
// An output of one dataset alone that the quick screening's cells
// isolate (three repeats of a value, or a far gap) blocks the hold on
// every statistic screened (the event criterion's MarginHeld); those
// checks cannot show what no statistic counts: outputs the half of the
// quick screening that chooses the cells repeats fewer than three times
// (rarer than about one in 920 draws at the default sizes, which the pass
// states), and statistics only a larger screening would choose, which
// the full screening sees. That is why the quick look is opt-in
// (dptest.Quick).
func quickLook[D, F any](crit Criterion[D, F], cfg Config[D]) (out Outcome[D, F], rest Config[D], err error) {
	rest = cfg
	rest.QuickScreening, rest.QuickConfirmation = plan.Stage{}, plan.Stage{}
	q := rest
	q.Run.Seed = plan.SubSeed(cfg.Run.Seed, "quick", 0)
	q.Run.Alpha = cfg.lookAlpha(plan.QuickLookName)
	q.Screening, q.Confirmation, q.Looks = cfg.QuickScreening, cfg.QuickConfirmation, nil
	s := newScreening(crit, q)
	out, err = s.selectCandidates(false)
	if s.sifted != nil {
		rest.carried = &wideCarry[D]{res: out.Wide, sifted: s.sifted}
	}
	if err != nil {
		return s.fallThrough(out, rest, err)
	}
	if !s.decidable() {
		s.logf("quick look at %d draws per side: the screening shows neither a clear violation nor room to spare on outputs it resolves; screening in full", q.Screening.Samples)
		return out, rest, nil
	}
	var accs []*Counts
	if out, err = s.conclude(out, q, &accs, true); err != nil {
		return s.fallThrough(out, rest, err)
	}
	if out.Violated || out.Held {
		out.Quick = true
		s.logf("quick look at %d draws per side decides: %s", q.Confirmation.Samples, decision(out))
		return out, rest, nil
	}
	s.logf("quick look confirmed at %d draws per side: neither violated nor held with margin; screening in full", q.Confirmation.Samples)
	return out, rest, nil
}

// fallThrough ends a quick look that failed: a failure of the mechanism
// (a draw, a changed dataset, the deadline) ends the run with it, as
// anywhere; one of the statistics at the quick look's size leaves the
// decision to the full run.
func (s *screening[D, F]) fallThrough(out Outcome[D, F], rest Config[D], err error) (Outcome[D, F], Config[D], error) {
	if mechanismFailure(err) {
		return out, rest, err
	}
	s.logf("quick look at %d draws per side failed (%v); screening in full", s.cfg.Screening.Samples, err)
	return Outcome[D, F]{}, rest, nil
}

// wideCarry is what a quick look's wide stage sifted, for the full run.
type wideCarry[D any] struct {
	res    WideResult
	sifted []ranked[D]
}

// decidable reports whether the screening can lead its confirmation to a
// decision: the best candidate's screening shows a violation at
// plan.TriggerLevel (after Bonferroni over the candidates), or every
// candidate's screening could pass the claim with margin ([held]'s test of
// the screenings) and none of those it would confirm is unresolved (values
// too rare to screen, which leave its confirmation unresolved too: it
// could not hold, and the full run screens them again at the
// confirmation's size).
func (s *screening[D, F]) decidable() bool {
	if s.violates(s.cands[0], s.triggerZ()) {
		return true
	}
	below := holdTest(s.crit, s.cfg.Run.Threshold)
	return below != nil && screeningsPass(s.cands, below) && !slices.ContainsFunc(distinctLeading(s.cands, plan.Confirmed), func(i int) bool {
		return s.cands[i].Screening.Reason != nil
	})
}
