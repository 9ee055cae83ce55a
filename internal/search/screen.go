package search

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
)

// maxSimplify caps the screenings spent on simplifying the best pair.
const maxSimplify = 24

// MaxImprove caps the screenings spent improving the best pair when no
// screening shows a violation yet.
const MaxImprove = 4

// SimplifySlack is the relative loss of screening estimate a simpler pair
// may show and still replace the best one (besides two standard errors of
// the difference). The standard error of a local DP screening is that of the
// loss at one output and does not see the noise of its maximum over outputs,
// so without the slack a pair as divergent as the best (any pair whose sums
// differ by one, for the Laplace mechanism) can be rejected and the witness
// keep values such as 2.9·10⁻²².
const SimplifySlack = 0.05

// screening is the first stage of a run: every candidate pair screened in
// both directions, each screening on its own stream.
type screening[D, F any] struct {
	crit       Criterion[D, F]
	cfg        Config[D]
	cands      []Candidate[D, F]
	sifted     []ranked[D]        // the wide pairs screened again, nil if the wide stage did not run
	screened   int                // screenings made
	rescreened int                // of them, repeats of a pair already screened
	refined    []fixtures.Pair[D] // the pairs refine screened again at the confirmation's size
	trials     int                // the finder's proposals screened
	foundAt    int                // the first of them whose statistic, counted again, exceeded the claim (see showsExceeded)
	fullStage  plan.Stage         // the full screening's stage (Config.Screening as given)
}

func newScreening[D, F any](crit Criterion[D, F], cfg Config[D]) *screening[D, F] {
	return &screening[D, F]{crit: crit, cfg: cfg, fullStage: cfg.Screening}
}

func (s *screening[D, F]) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf(format, args...)
	}
}

// screen samples a pair on a fresh stream and appends its two directions.
func (s *screening[D, F]) screen(p fixtures.Pair[D], source string) error {
	xy, yx, err := s.crit.Screen(plan.SubSeed(s.cfg.Run.Seed, "screen", s.screened), p, s.cfg.Screening)
	s.screened++
	return s.add(p, source, xy, yx, err)
}

// add appends a screening's two directions, or returns its error.
func (s *screening[D, F]) add(p fixtures.Pair[D], source string, xy, yx Screened[F], err error) error {
	if err != nil {
		return &PairError[D]{Pair: p, Stage: "screening " + source, Err: err}
	}
	names := s.crit.Directions()
	s.logf("screened %s: %s ≈ %.4g, %s ≈ %.4g  X=%v Y=%v", source, names[0], xy.Estimate, names[1], yx.Estimate, p.X, p.Y)
	n := s.cfg.Screening.Samples
	s.cands = append(s.cands,
		Candidate[D, F]{Pair: p, Source: source, Screening: xy.Score, Finding: xy.Finding, Screened: n},
		Candidate[D, F]{Pair: p, Reverse: true, Source: source, Screening: yx.Score, Finding: yx.Finding, Screened: n})
	return nil
}

// screenLeaders screens again, at the full screening's size, the pairs of
// the leading candidates, where the candidates were screened first on
// fewer draws (Config.FirstScreening), in up to MaxLeaderRounds rounds
// (rankLeaders says which lead), and puts the candidates screened in full
// first, ranked by that screening: they are the ones confirmed, on the
// statistics it fixed. The candidates screened only on fewer draws
// follow (a small screening's estimate is the noisier, and often the
// higher, so it would not rank fairly beside a full one).
func (s *screening[D, F]) screenLeaders() error {
	full := s.full()
	if full.Samples <= s.cfg.Screening.Samples {
		return nil
	}
	z := s.triggerZ()
	for range MaxLeaderRounds {
		s.rankLeaders(full.Samples, z)
		pairs := s.leadingPairs(func(c Candidate[D, F]) bool { return c.Screened < full.Samples })
		if len(pairs) == 0 {
			break
		}
		// A pair given as an input is screened on the streams a full
		// screening of all inputs gives it, so its statistics are those
		// of a run without a first screening; others on streams of
		// their own.
		seed := func(i int) uint64 {
			if k := slices.IndexFunc(s.cfg.Candidates, func(in Input[D]) bool { return sameDatasets(in.Pair, pairs[i]) }); k >= 0 {
				return plan.SubSeed(s.cfg.Run.Seed, "screen", k)
			}
			return plan.SubSeed(s.cfg.Run.Seed, "full", s.rescreened+i)
		}
		if err := s.rescreenOn(pairs, seed, "screened in full", "full screening", full); err != nil {
			return err
		}
	}
	s.rankLeaders(full.Samples, z)
	// The candidates confirmed are the leading ones screened in full.
	inFull := func(c Candidate[D, F]) int {
		if c.Screened >= full.Samples {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(s.cands, func(a, b Candidate[D, F]) int { return cmp.Compare(inFull(b), inFull(a)) })
	return nil
}

// MaxLeaderRounds caps the rounds of full screenings screenLeaders runs:
// each screens in full the leading pairs not yet screened so.
const MaxLeaderRounds = 3

// rankLeaders orders the candidates for screenLeaders: those screened in
// full by their Rank; the others by their Rank less z of their first
// screening's standard errors, a lower bound of what a full screening
// would show. A pair whose full screening fell below what another's first
// screening still promises gives way to it, and that one is screened in
// full next (successive halving: a first screening's leader may be noise,
// a pair that differs in nothing).
func (s *screening[D, F]) rankLeaders(full int, z float64) {
	if !slices.ContainsFunc(s.cands, func(c Candidate[D, F]) bool { return c.Screened >= full }) {
		// Before any full screening the first screenings rank as they
		// are: a penalty would favour the pairs of least spread, such as
		// a pair that differs in nothing.
		sortByRank(s.cands)
		return
	}
	key := func(c Candidate[D, F]) float64 {
		if c.Screened >= full {
			return c.Screening.Rank
		}
		return c.Screening.Rank - z*c.Screening.StdErr
	}
	slices.SortStableFunc(s.cands, func(a, b Candidate[D, F]) int { return cmp.Compare(key(b), key(a)) })
}

// full is the stage of a full screening: Config.Screening as the run was
// given it.
func (s *screening[D, F]) full() plan.Stage { return s.fullStage }

// screenAll screens every input and ranks the candidates, most divergent
// first. Screenings run concurrently (see [concurrently]); each draws on
// its own streams, so the candidates, their order and the first error are
// those of screening the inputs one by one.
func (s *screening[D, F]) screenAll() error {
	in := s.cfg.Candidates
	label := "screen"
	if s.cfg.Screening.Samples < s.full().Samples {
		label = "first screen"
	}
	for i, r := range s.screenConcurrently(pairsOf(in), label, s.cfg.Screening) {
		s.screened++
		if err := s.add(in[i].Pair, in[i].Source, r.dirs[0], r.dirs[1], r.err); err != nil {
			return err
		}
	}
	if err := s.find(); err != nil {
		return err
	}
	if len(s.cands) == 0 {
		return fmt.Errorf("no candidate pairs to screen")
	}
	sortByRank(s.cands)
	return nil
}

// pairsOf lists the inputs' pairs, in order.
func pairsOf[D any](in []Input[D]) []fixtures.Pair[D] {
	pairs := make([]fixtures.Pair[D], len(in))
	for i, c := range in {
		pairs[i] = c.Pair
	}
	return pairs
}

func sortByRank[D, F any](cands []Candidate[D, F]) {
	slices.SortStableFunc(cands, func(a, b Candidate[D, F]) int {
		return cmp.Compare(b.Screening.Rank, a.Screening.Rank)
	})
}

// triggerZ is the z of plan.TriggerLevel after Bonferroni over the
// candidates screened so far.
func (s *screening[D, F]) triggerZ() float64 {
	return numeric.UpperNormalQuantile(plan.TriggerLevel / float64(len(s.cands)))
}

// violates reports whether a screening shows a violation at z standard
// errors.
func (s *screening[D, F]) violates(c Candidate[D, F], z float64) bool {
	return c.Screening.Estimate-z*c.Screening.StdErr > s.cfg.Run.Threshold
}

// simplify replaces the best candidate by a simpler pair that is as
// divergent, when the best screening already shows a violation at
// plan.TriggerLevel after Bonferroni over the candidates (the best of many
// screening estimates is biased upwards).
//
// Greedy: it tries the proposals for the current best pair in order, moves
// to the first that is as divergent as the best as far as the screening can
// tell (within two standard errors of the difference, or SimplifySlack of
// the estimate) and still above the claim at plan.SimplifyLevel, and starts
// again from it, within maxSimplify screenings. The best pair's own
// screening, the largest of many, is biased upwards (by a third for a
// Laplace mechanism among 21 pairs), so proposals are compared with a fresh
// screening of it, which is not a candidate; comparing every step with that
// one reference keeps the slack from adding up over the steps. The
// simplest pair found leads the ranking; the others follow by rank.
func (s *screening[D, F]) simplify() error {
	zTrigger := s.triggerZ()
	if s.cfg.Simplify == nil || !s.violates(s.cands[0], zTrigger) {
		return nil
	}
	best := s.cands[0]
	if proposals, err := s.proposals(best.Pair); err != nil || len(proposals) == 0 {
		return err
	}
	top, err := s.reference(best)
	if err != nil {
		return err
	}
	zKeep := numeric.UpperNormalQuantile(plan.SimplifyLevel)
	tries := 0
	for improved := true; improved && tries < maxSimplify; {
		improved = false
		proposals, err := s.proposals(best.Pair)
		if err != nil {
			return err
		}
		for _, p := range proposals {
			if tries >= maxSimplify {
				break
			}
			tries++
			n := len(s.cands)
			if err := s.screen(p, "simplified"); err != nil {
				return err
			}
			c := s.cands[n+reverseIndex(best.Reverse)]
			tol := max(2*math.Hypot(c.Screening.StdErr, top.StdErr), SimplifySlack*math.Abs(top.Estimate))
			// A proposal screened on a first screening's fewer draws keeps
			// the lead on its estimate above the claim: its standard error
			// there is too wide for zKeep, and the leaders are screened in
			// full again after (screenLeaders).
			shows := s.violates(c, zKeep) || c.Screened < s.full().Samples && c.Screening.Estimate > s.cfg.Run.Threshold
			if c.Screening.Estimate >= top.Estimate-tol && shows {
				best, improved = c, true
				break
			}
		}
	}
	i := slices.IndexFunc(s.cands, func(c Candidate[D, F]) bool {
		return c.Reverse == best.Reverse && sameDatasets(c.Pair, best.Pair)
	})
	s.cands = append([]Candidate[D, F]{best}, slices.Delete(s.cands, i, i+1)...)
	sortByRank(s.cands[1:])
	return nil
}

// improve screens, when the best candidate does not yet show a violation,
// up to MaxImprove of the simplifier's proposals for its pair, last first:
// the default simplifier of one-record substitutions of []float64
// (fixtures.SimplifyFloatsWithin) lists last the moves of the differing
// record to the extremes of the candidates' range, the moves that can make
// a pair more divergent (a mechanism that clips at a record's value, found
// on a pair whose records differ by less than the range); other
// simplifiers' proposals are screened the same way. The proposals join
// the candidates and the ranking like any screened pair; their screenings
// are fresh, so a proposal leads only on its own evidence.
func (s *screening[D, F]) improve() error {
	zTrigger := s.triggerZ()
	if s.cfg.Simplify == nil || s.violates(s.cands[0], zTrigger) {
		return nil
	}
	proposals, err := s.proposals(s.cands[0].Pair)
	if err != nil {
		return err
	}
	for i, tries := len(proposals)-1, 0; i >= 0 && tries < MaxImprove; i, tries = i-1, tries+1 {
		if err := s.screen(proposals[i], "improved"); err != nil {
			return err
		}
	}
	sortByRank(s.cands)
	return nil
}

// proposals returns the simplifier's proposals for a pair, or its error
// naming the pair.
func (s *screening[D, F]) proposals(p fixtures.Pair[D]) ([]fixtures.Pair[D], error) {
	out, err := s.cfg.Simplify(p)
	if err != nil {
		return nil, &PairError[D]{Pair: p, Stage: "simplifying", Err: err}
	}
	return out, nil
}

// reference screens the best pair afresh and returns that screening of the
// best direction, which is not kept as a candidate.
func (s *screening[D, F]) reference(best Candidate[D, F]) (Score, error) {
	n := len(s.cands)
	if err := s.screen(best.Pair, "again"); err != nil {
		return Score{}, err
	}
	s.rescreened++
	top := s.cands[n+reverseIndex(best.Reverse)].Screening
	s.cands = s.cands[:n]
	return top, nil
}

// refine screens again, at the confirmation's size, the pairs of the
// candidates to be confirmed (the plan.Confirmed best) whose screening
// could not resolve their outputs (Score.Unresolved: numbers seen too
// rarely to be told apart one by one, and screened in ranges too). A
// confirmation counts only what its screening fixed, so a statistic fixed
// on a larger sample is the one way such a pair can be resolved; where
// values are still too rare at that size, the refined screening says so
// and the audit stays inconclusive. The refined screenings replace the
// pair's candidates where they stand, so the order that simplify left
// stands too. It costs one more draw of the confirmation's size per
// refined pair, and none for outputs the screening resolved.
func (s *screening[D, F]) refine() error {
	pairs := s.leadingPairs(func(c Candidate[D, F]) bool { return c.Screening.Reason != nil })
	s.refined = pairs
	return s.rescreen(pairs, "refine", "refined", "refined screening", s.cfg.Confirmation)
}

// deepen screens again, at Config.Deep's size, the pairs of the candidates
// the early look confirmed (the plan.Confirmed best), but for those refine
// already screened at the confirmation's size, and keeps the statistics of
// the larger screening only if they promise more. It runs when an early
// look decided nothing: the claim is then near what the screening's
// statistic can show, and a statistic fixed on more draws (a local event
// placed more tightly about a narrow peak) may show more. Or less: the
// largest of more blocks is luckier, and an event grown from a lucky peak
// is narrow. So the old and the new statistics are both counted on the
// same draws of streams of their own, at the early look's size and in two
// rounds as it (an audition; a Rényi statistic's groups merged for that
// size, as the early look's are), and the new ones, all of them, replace the
// old if their best candidate's bound at the planned size and level z,
// predicted from those counts ([predictedBound]), beats the old ones'.
// The planned confirmation then counts them from the start of its streams
// (the early look's draws, counted again); otherwise the old candidates
// stand and it continues the early look's counts (accs). Either way the
// statistic confirmed, and the choice of it, rest on draws the
// confirmation does not count (the screenings and the audition), so it
// bounds the divergence at its level as any statistic fixed in advance
// does, and no guarantee moves. A statistic that fails at the larger size
// (not the mechanism) leaves the old ones standing. It returns the counts
// the planned look continues and whether the new statistics replaced the
// old.
func (s *screening[D, F]) deepen(accs []*Counts, z float64) ([]*Counts, bool, error) {
	cfg := s.cfg
	pairs := s.leadingPairs(func(c Candidate[D, F]) bool {
		return !slices.ContainsFunc(s.refined, func(p fixtures.Pair[D]) bool { return sameDatasets(p, c.Pair) })
	})
	if len(pairs) == 0 {
		return accs, false, nil
	}
	audition := cfg
	audition.Run.Seed, audition.Confirmation = plan.SubSeed(cfg.Run.Seed, "audition", 0), cfg.Audition
	shrink := math.Sqrt(float64(cfg.Audition.Samples) / float64(cfg.Confirmation.Samples))
	kept := slices.Clone(s.cands)
	auditioned, _, err := confirm(s.crit, audition, s.cands, nil)
	if err != nil {
		return s.keep(kept, accs, err)
	}
	old := predictedBound(auditioned, shrink, z)
	if err := s.rescreen(pairs, "deepen", "screened again", "deep screening", cfg.Deep); err != nil {
		return s.keep(kept, accs, err)
	}
	if auditioned, _, err = confirm(s.crit, audition, s.cands, nil); err != nil {
		return s.keep(kept, accs, err)
	}
	next := predictedBound(auditioned, shrink, z)
	if !(next > old) {
		s.cands = kept
		s.logf("the larger screening's statistics predict a bound of %.4g at %d draws per side, the screening's before %.4g: keeping those, and the early look's draws", next, cfg.Confirmation.Samples, old)
		return accs, false, nil
	}
	s.logf("the larger screening's statistics predict a bound of %.4g at %d draws per side, the screening's before %.4g: counting them from the start of the confirmation's draws", next, cfg.Confirmation.Samples, old)
	return nil, true, nil
}

// keep ends a deep screening that failed: a failure of the mechanism (a
// draw, a changed dataset, the deadline) ends the run with it, as
// anywhere; one of a statistic at the larger size leaves the candidates
// kept, and the early look's counts, standing.
func (s *screening[D, F]) keep(kept []Candidate[D, F], accs []*Counts, err error) ([]*Counts, bool, error) {
	if mechanismFailure(err) {
		return nil, false, err
	}
	s.cands = kept
	s.logf("deep screening failed (%v); keeping the screening's statistics and the early look's draws", err)
	return accs, false, nil
}

// AuditionPenalty is the number of standard errors of its own estimate
// (the mean of two rounds) that a statistic's predicted bound loses in
// deepen's comparison: a narrow event's estimate at the early look's size
// is noisy, and without it a lucky one wins. (For an event criterion the
// standard error is the widened one of its score, which also covers the
// event's shortfall against the best prefix of its groups.)
const AuditionPenalty = 2

// predictedBound is the largest, over the candidates, of the mean over
// their two confirmations of
//
//	Estimate − z·shrink·StdErr − AuditionPenalty·StdErr/√2,
//
// the lower bound at level z of a confirmation 1/shrink² times the size
// (its standard error shrink·StdErr), less the uncertainty of the
// prediction; unlike the confirmations' own LowerBound it is never
// clipped (a hockey-stick bound is at least 0).
func predictedBound[D, F any](cands []Candidate[D, F], shrink, z float64) float64 {
	best := math.Inf(-1)
	for _, c := range cands {
		sum := 0.0
		for _, s := range c.Confirmations {
			sum += s.Estimate - (z*shrink+AuditionPenalty/math.Sqrt2)*s.StdErr
		}
		if m := sum / 2; m > best {
			best = m
		}
	}
	return best
}

// leadingPairs lists the distinct pairs of the plan.Confirmed best
// candidates (those confirm would confirm: distinctLeading) that satisfy
// keep, in order.
func (s *screening[D, F]) leadingPairs(keep func(Candidate[D, F]) bool) []fixtures.Pair[D] {
	var pairs []fixtures.Pair[D]
	for _, i := range distinctLeading(s.cands, plan.Confirmed) {
		c := s.cands[i]
		if keep(c) && !slices.ContainsFunc(pairs, func(p fixtures.Pair[D]) bool { return sameDatasets(p, c.Pair) }) {
			pairs = append(pairs, c.Pair)
		}
	}
	return pairs
}

// rescreen screens the pairs again at stage st (streams of label) and
// puts each new screening in place of its pair's candidates; verb names
// it in the log, stage in an error.
func (s *screening[D, F]) rescreen(pairs []fixtures.Pair[D], label, verb, stage string, st plan.Stage) error {
	return s.rescreenOn(pairs, func(i int) uint64 { return plan.SubSeed(s.cfg.Run.Seed, label, i) }, verb, stage, st)
}

// rescreenOn is rescreen with pair i on the streams of seed(i).
func (s *screening[D, F]) rescreenOn(pairs []fixtures.Pair[D], seed func(i int) uint64, verb, stage string, st plan.Stage) error {
	for i, r := range s.screenOn(pairs, seed, st) {
		s.screened++
		s.rescreened++
		if r.err != nil {
			return &PairError[D]{Pair: pairs[i], Stage: stage, Err: r.err}
		}
		for k, c := range s.cands {
			if sameDatasets(c.Pair, pairs[i]) {
				d := r.dirs[reverseIndex(c.Reverse)]
				s.cands[k].Screening, s.cands[k].Finding, s.cands[k].Screened = d.Score, d.Finding, st.Samples
				s.logf("%s %s %s at %d draws per side: ≈ %.4g", verb, c.Source, s.crit.Directions()[reverseIndex(c.Reverse)], st.Samples, d.Estimate)
			}
		}
	}
	return nil
}

// screenResult is one pair's screening in both directions, or its error.
type screenResult[F any] struct {
	dirs [2]Screened[F]
	err  error
}

// screenConcurrently screens the pairs at stage st, pair i on the streams
// of plan.SubSeed(seed, label, i), concurrently (see [concurrently]); the
// results are in the pairs' order, as if screened one by one. Once the
// mechanism failed on a pair (mechanismFailure), the pairs after it are
// not started: every caller ends at the first such failure in order, so
// their results would never be read, and a mechanism that panics on one
// pair is reported without screening all the others first.
func (s *screening[D, F]) screenConcurrently(pairs []fixtures.Pair[D], label string, st plan.Stage) []screenResult[F] {
	return s.screenOn(pairs, func(i int) uint64 { return plan.SubSeed(s.cfg.Run.Seed, label, i) }, st)
}

// screenOn is screenConcurrently with pair i on the streams of seed(i).
func (s *screening[D, F]) screenOn(pairs []fixtures.Pair[D], seed func(i int) uint64, st plan.Stage) []screenResult[F] {
	results := make([]screenResult[F], len(pairs))
	var firstFailed atomic.Int64
	firstFailed.Store(math.MaxInt64)
	concurrently(len(pairs), func(i int) {
		if int64(i) > firstFailed.Load() {
			return
		}
		r := &results[i]
		r.dirs[0], r.dirs[1], r.err = s.crit.Screen(seed(i), pairs[i], st)
		s.cfg.progress()
		for mechanismFailure(r.err) {
			if first := firstFailed.Load(); int64(i) >= first || firstFailed.CompareAndSwap(first, int64(i)) {
				break
			}
		}
	})
	return results
}
