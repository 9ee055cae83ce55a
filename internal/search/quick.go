package search

import (
	"slices"

	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
)

// quickLook is the first look of a run with a quick look
// (Config.QuickScreening): the candidates are screened on the quick
// stage, widened, improved and simplified as in the full run, on streams
// of a seed of its own; where that screening can decide ([screening.decidable]),
// the leading candidates are confirmed on Config.QuickConfirmation fresh
// draws per side at plan.QuickLookShare of the run's α. The outcome has
// Quick set when the claim is violated or held with margin there, by the
// rules of the early look ([held]). Otherwise rest is the configuration
// of the full run: the rest of α, and, if the quick look ran the wide
// screening, its result and the pairs it promoted among the candidates
// (the wide screening only chooses, so its choice serves any later look).
//
// What the quick look cannot see, the full screening could: outputs rarer
// than about one in the quick screening's draws. It cannot pass a claim
// on evidence that leans on them, because [held] also asks that no
// confirmation put more than a little of its evidence beyond the
// screening's extremes, counted no event one dataset alone produced, and
// resolves the claim (the resolution within plan.ResolutionFactor); and a
// quick look that cannot resolve its candidates' outputs (values too rare
// to screen) never passes.
func quickLook[D, F any](crit Criterion[D, F], cfg Config[D]) (out Outcome[D, F], rest Config[D], err error) {
	rest = cfg
	rest.QuickScreening, rest.QuickConfirmation = plan.Stage{}, plan.Stage{}
	rest.Run.Alpha = cfg.Run.Alpha * (1 - plan.QuickLookShare)
	q := rest
	q.Run.Seed = plan.SubSeed(cfg.Run.Seed, "quick", 0)
	q.Run.Alpha = cfg.Run.Alpha * plan.QuickLookShare
	q.Screening, q.Confirmation, q.Early = cfg.QuickScreening, cfg.QuickConfirmation, plan.Stage{}
	s := newScreening(crit, q)
	out = Outcome[D, F]{Directions: crit.Directions()}
	if err := s.screenAll(); err != nil {
		return out, rest, err
	}
	if out.Wide, err = s.widen(); err != nil {
		return out, rest, err
	}
	if out.Wide.Screened > 0 {
		wide := out.Wide
		rest.widened, rest.Wide = &wide, nil
		rest.Candidates = append(slices.Clip(cfg.Candidates), s.promoted...)
	}
	for _, stage := range []func() error{s.improve, s.simplify} {
		if err := stage(); err != nil {
			return out, rest, err
		}
	}
	out.PairsSearched = s.screened - s.rescreened
	if !s.decidable() {
		s.logf("quick look at %d draws per side: the screening shows neither a clear violation nor every upper bound under %g of the claim; screening in full", q.Screening.Samples, plan.HoldShare)
		return out, rest, nil
	}
	var accs []*Counts
	out, err = s.conclude(out, q, &accs, true)
	if err != nil {
		return out, rest, err
	}
	if out.Violated || out.Held {
		out.Quick = true
		s.logf("quick look at %d draws per side decides: %s", q.Confirmation.Samples, map[bool]string{true: "violated", false: "held with margin"}[out.Violated])
		return out, rest, nil
	}
	s.logf("quick look confirmed at %d draws per side: neither violated nor held with margin; screening in full", q.Confirmation.Samples)
	return out, rest, nil
}

// decidable reports whether the screening can lead its confirmation to a
// decision: the best candidate's screening shows a violation at
// plan.TriggerLevel (after Bonferroni over the candidates), or every
// candidate's screening could pass the claim with margin ([held]'s test of
// the screenings).
func (s *screening[D, F]) decidable() bool {
	z := numeric.UpperNormalQuantile(plan.TriggerLevel / float64(len(s.cands)))
	if s.violates(s.cands[0], z) {
		return true
	}
	below := holdTest(s.crit, s.cfg.Run.Threshold)
	if below == nil {
		return false
	}
	for _, c := range s.cands {
		if !below(c.Screening) {
			return false
		}
	}
	return true
}
