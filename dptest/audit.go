package dptest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"pgregory.net/rapid"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/internal/local"
	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/search"
	"github.com/dptest/dptest/internal/stat"
)

// ErrNoCandidates reports an audit of datasets of a type for which dptest
// knows no neighbouring pairs.
type ErrNoCandidates struct{ Type string }

func (e ErrNoCandidates) Error() string {
	return fmt.Sprintf("dptest: no candidate pairs for datasets of type %s: pass dptest.Pairs(fixtures.Pair[%[1]s]{X: …, Y: …}) or dptest.Neighbors(a *rapid.Generator[fixtures.Pair[%[1]s]])", e.Type)
}

// env is where an audit runs: the test's name, where progress goes (nil
// for nowhere) and the test's deadline (zero for none).
type env struct {
	name     string
	logf     func(string, ...any)
	deadline time.Time
}

// audit is the one path of every assertion: resolve the plan, build the
// candidates, check that the mechanism replays, run the engine once per
// criterion of the claim, report. The report of an audit that ends
// inconclusive or in an error, wherever it ends, renders that end.
func audit[D any](m Mechanism[D], c plan.Claim, opts []Option, e env) (Report, error) {
	rep, err := auditRuns(m, c, opts, e)
	rep.err = err
	rep.Verdict, rep.Reason = verdictOf(rep.violated, err)
	rep.Reach = rep.reach()
	rep.Details.Label = optionsOf(opts, "Label").label
	if dir := reportDirOf(opts); dir != "" {
		writeReport(dir, &rep)
	}
	return rep, err
}

// auditRuns is audit's work.
func auditRuns[D any](m Mechanism[D], c plan.Claim, opts []Option, e env) (Report, error) {
	rep := Report{Claim: Claim{Kind: c.Kind, Lambda: c.Lambda, Value: c.Eps}, Confidence: DefaultConfidence, unresolved: true}
	rep.Details.TestName = e.name
	switch c.Kind {
	case plan.KindDataCentric:
		rep.Claim.Value = math.Inf(1)
	case plan.KindApproxDP:
		rep.Claim.Eps, rep.Claim.Value = c.Eps, c.Delta
	case plan.KindGDP:
		rep.Claim.Value = c.Mu
	}
	p, o, err := prepare(m, c, opts, e.name)
	if err != nil {
		return rep, err
	}
	rep.Confidence, rep.Seed, rep.Details.Short, rep.Details.Settings, rep.unresolved = p.Confidence, p.Seed, p.Short, settingsOf(p), false
	rep.Details.Settings.Parallelism = o.parallelism
	rep.Details.Samples, rep.Details.ScreeningSamples = p.Confirmation.Samples, p.Screening.Samples
	cs, err := candidatesOf(m, o, p)
	if err != nil {
		return rep, err
	}
	rep.defaultDomain = cs.defaultDomain
	ctx, cancel, budgeted := auditContext(o.ctx, e.deadline, o.within)
	defer cancel()
	started := time.Now()
	src := sampler.Counting(m.source, ctx.Done(), o.parallelism)
	logf := e.logf
	if !p.Verbose {
		logf = nil
	}
	p = p.WithDeepening(cs.gen == nil && cs.finder == nil)
	in, err := cs.inputs(p.Seed)
	if err != nil {
		return rep, err
	}
	wide := 0 // wide pairs a run plans (fewer where the generator repeats itself)
	if cs.gen != nil {
		wide = p.WidePairs()
	}
	inputs := len(in) // pairs a run screens in full, the finder's trials included
	if cs.finder != nil {
		inputs += cs.finder.trials
	}
	first, err := cs.first(in)
	if err != nil {
		return rep, err
	}
	replays, took, err := src.Replays(plan.SubSeed(p.Seed, "replay", 0), first.X, plan.ReplayDraws)
	if err != nil {
		return rep, stopped(ctx, budgeted, fmt.Errorf("checking that the mechanism replays its draws on X=%v: %w", first.X, err), src.Calls())
	}
	rep.Details.NotReplayable = !replays
	if o.within > 0 && !p.SamplesPinned {
		if p, err = fitWithin(p, o.within-time.Since(started), took, inputs, wide, o.parallelism, src.LearnDraws); err != nil {
			rep.Calls = src.Calls()
			return rep, err
		}
		chosen := p.Confirmation.Samples != rep.Details.Samples
		rep.Details.Settings, rep.Details.Samples, rep.Details.ScreeningSamples, rep.Details.Short = settingsOf(p), p.Confirmation.Samples, p.Screening.Samples, p.Short
		rep.Details.Settings.Parallelism, rep.Details.Settings.SamplesChosen = o.parallelism, chosen
	}
	if logf != nil {
		logf("[dptest] %s", p.Ledger())
	}
	pr := newProgress(src, p, inputs, wide, logf)
	pr.tick = o.progress
	rep, err = runAll(rep, src, p, cs, pr)
	err = blindError(stopped(ctx, budgeted, err, rep.Calls))
	if passed := err == nil && !rep.violated; (passed || errors.Is(err, ErrInconclusive)) && ctx.Err() == nil && nothingSeen(rep) {
		pair, ok := WitnessOf[D](rep)
		if !ok {
			pair = first
		}
		started := time.Now()
		v, same := sameOutputs(src, plan.SubSeed(p.Seed, "same", 0), pair)
		rep.Calls, rep.Elapsed = src.Calls(), rep.Elapsed+time.Since(started)
		if same {
			rep.Details.Unvarying = v
		}
	}
	if reportDirOf(opts) != "" && ctx.Err() == nil {
		pair, ok := WitnessOf[D](rep)
		if !ok {
			pair = first
		}
		drawPictures(&rep, src, p.Seed, pair)
	}
	return rep, err
}

// nothingSeen reports whether every confirmation of an audit (its
// cross-checks' too), of which there was at least one, estimated its
// measure at 0 or below: what the confirmations of a mechanism whose
// outputs never vary show (and, where estimates are clipped at 0, those
// of many a mechanism within its claim).
func nothingSeen(rep Report) bool {
	all := slices.Clone(rep.Details.Confirmations)
	for _, c := range rep.Details.CrossChecks {
		all = append(all, c.Details.Confirmations...)
	}
	for _, c := range all {
		if c.Estimates[0] > 0 || c.Estimates[1] > 0 {
			return false
		}
	}
	return len(all) > 0
}

// sameOutputs reports whether the mechanism's outputs vary at all on
// pair, in plan.SameDraws further draws per side: if every one was the
// same output, it returns that output and true. The audit (audit, above)
// ends an inconclusive reason, or a pass's success line, with that fact
// and what follows if the outputs never vary. A failure to draw (the
// deadline, a cancelled Context) reports nothing.
func sameOutputs[D any](src sampler.Source[D], seed uint64, pair fixtures.Pair[D]) (string, bool) {
	v, same, err := src.Same(seed, pair.X, pair.Y, plan.SameDraws)
	return v, err == nil && same
}

// blindError turns outputs without an order that barely repeat into a
// suspect verdict: the audit could not see them.
func blindError(err error) error {
	var sparse *stat.SparseError
	if !errors.As(err, &sparse) {
		return err
	}
	return inconclusive(&BlindOutputs{Values: sparse.Values, Draws: sparse.Draws})
}

// prepare checks the claim, the mechanism and the options and resolves the
// plan.
func prepare[D any](m Mechanism[D], c plan.Claim, opts []Option, name string) (plan.Plan, *options, error) {
	o, err := collect(c.Kind, opts)
	if err != nil {
		return plan.Plan{}, o, err
	}
	p, err := plan.Resolve(c, name, o.settings, isShort())
	if err != nil {
		return p, o, err
	}
	if err := m.check(); err != nil {
		return p, o, err
	}
	if err := checkTesters(o.settings, m.source.Kind()); err != nil {
		return p, o, err
	}
	if k := m.source.Kind(); o.settings.RegionSet && k != "real" {
		return p, o, fmt.Errorf("dptest: Region applies to real outputs (a mechanism built with Continuous); this one's outputs are %s", map[string]string{"discrete": "discrete", "vector": "vectors"}[k])
	}
	return p, o, nil
}

// runAll runs the engine once per criterion of the plan, stopping at the
// first violation or error: the first run's report is the audit's, the
// others its cross-checks (or, with Testers, the other testers' runs). A
// run that ends suspect or unresolved does not stop the ones after it,
// which see what it cannot (outputs one dataset alone produces, a
// violation spread over many outputs): a violation one of them confirms
// is the verdict, else the audit keeps the first suspect reason, or the
// first unresolved one.
func runAll[D any](base Report, src *sampler.Counter[D], p plan.Plan, cs *candidates[D], pr *progress) (Report, error) {
	rep := base
	var kept error
	for i, r := range p.Runs {
		one, before := base, src.Calls()
		err := blindError(runOnce(&one, src, p, r, cs, pr))
		one.Calls = src.Calls() - before
		one.Verdict, one.Reason = verdictOf(one.violated, err)
		if i == 0 {
			rep = one
			rep.Calls += before // the replay check
		} else {
			rep.Details.CrossChecks = append(rep.Details.CrossChecks, one)
			rep.violated = one.violated
			rep.Elapsed += one.Elapsed
			rep.Calls += one.Calls
		}
		if len(p.Runs) > 1 && errors.Is(err, ErrInconclusive) {
			if kept == nil || errors.Is(err, ErrSuspect) && !errors.Is(kept, ErrSuspect) {
				kept = err
			}
			continue
		}
		if err != nil || one.violated {
			return rep, err
		}
	}
	return rep, kept
}

// auditContext is the context an audit runs in: the Context option's, if
// given, ended before the test's deadline, if it has one, by a margin of
// 5% of the time left (at least a second) for the report to be printed,
// and by the Within budget, if one is set; budgeted reports whether that
// budget ends it first.
func auditContext(ctx context.Context, deadline time.Time, within time.Duration) (_ context.Context, _ context.CancelFunc, budgeted bool) {
	if ctx == nil {
		ctx = context.Background()
	}
	if !deadline.IsZero() {
		deadline = deadline.Add(-max(time.Second, time.Until(deadline)/20))
	}
	if within > 0 && (deadline.IsZero() || time.Now().Add(within).Before(deadline)) {
		deadline, budgeted = time.Now().Add(within), true
	}
	if own, ok := ctx.Deadline(); ok && budgeted && own.Before(deadline) {
		budgeted = false
	}
	if deadline.IsZero() {
		ctx, cancel := context.WithCancel(ctx)
		return ctx, cancel, false
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	return ctx, cancel, budgeted
}

// WithinShare is the share of a Within budget's time left that the plan
// fills; the rest absorbs the estimate's error.
const WithinShare = 0.8

// fitWithin returns the plan at the largest sample size, at most the
// planned one, whose planned calls (plan.PlannedCallsLearning, with a
// vector's learning draws per screening: learn) fit in WithinShare
// of left, at the speed of the replay check (its second plan.ReplayDraws
// calls, on one goroutine, took took), times the goroutines of the Parallelism option
// if it is set (the user says the mechanism waits) and one otherwise: a
// mechanism that computes gains at most the cores, one behind a lock
// nothing, and small samples (under a block of draws per goroutine) run
// on one goroutine anyway; or an inconclusive error when not even
// MinSamples fits.
func fitWithin(p plan.Plan, left, took time.Duration, inputs, wide, workers int, learn func(pilot int) int) (plan.Plan, error) {
	workers = max(workers, 1)
	perCall := took.Seconds() / float64(plan.ReplayDraws) / float64(workers)
	seconds := func(q plan.Plan) float64 { return float64(q.PlannedCallsLearning(inputs, wide, learn)) * perCall }
	budget := WithinShare * left.Seconds()
	least := p
	for n := p.Confirmation.Samples; ; n = max(n*4/5, MinSamples) {
		q := p.WithSamples(n) // its command line names the size, chosen or not
		if seconds(q) <= budget {
			return q, nil
		}
		least = q
		if n <= MinSamples {
			break
		}
	}
	return p, inconclusive(&BudgetTooSmall{Left: left, PerCall: time.Duration(perCall * float64(workers) * float64(time.Second)),
		Least: time.Duration(seconds(least) * float64(time.Second)), Workers: workers, MinSamples: MinSamples})
}

// stopped turns draws ended by the audit's context into an unresolved
// verdict that says why and how far the audit got.
func stopped(ctx context.Context, budgeted bool, err error, calls int64) error {
	if !errors.Is(err, sampler.ErrStopped) {
		return err
	}
	why := &Stopped{Calls: calls, Cause: "the context was cancelled"}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && budgeted:
		why.Cause, why.Budget = "the time budget (dptest.Within) ran out", true
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		why.Cause = "the deadline (the test's -timeout, or the Context option's) came"
	}
	return inconclusive(why)
}

// candidates are what an audit searches: explicit pairs, a generator and a
// simplifier, each call of the user's code guarded against panics.
type candidates[D any] struct {
	pairs    []fixtures.Pair[D]
	gen      *rapid.Generator[fixtures.Pair[D]]
	n        int // pairs drawn from gen per run
	simplify func(fixtures.Pair[D]) ([]fixtures.Pair[D], error)
	// ranged: the simplifier is the default one, which simplifies within
	// the range of the candidates' records (simplifierFor).
	ranged    bool
	finder    *Finder[D]                   // FindPairs', if given
	drawn     map[uint64][]search.Input[D] // a run's candidates, by seed
	wideDrawn map[uint64][]search.Input[D] // a run's wide pairs, by seed
	// defaultDomain: no pairs, neighbours or finder were given, and the
	// audit searches fixtures.Defaults' domain.
	defaultDomain bool
}

// candidatesOf gathers the candidates: explicit pairs (options, then the
// mechanism's), the generator (option, then the mechanism's), and for
// datasets with neither, fixtures.Defaults.
func candidatesOf[D any](m Mechanism[D], o *options, p plan.Plan) (*candidates[D], error) {
	pairs, gen, simplify, err := typed[D](o)
	if err != nil {
		return nil, err
	}
	var found *Finder[D]
	if o.finder != nil {
		f, ok := o.finder.(Finder[D])
		if !ok {
			of := strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", o.finder), "dptest.Finder["), "]")
			return nil, fmt.Errorf("dptest: a Finder for datasets of type %s given to a mechanism on datasets of type %s", of, typeName[D]())
		}
		found = &f
	}
	pairs = append(pairs, m.pairs...)
	if gen == nil {
		gen = m.gen
	}
	if simplify == nil {
		simplify = m.simplify
	}
	defaulted := len(pairs) == 0 && gen == nil && found == nil
	if defaulted {
		pairs, gen = fixtures.Defaults[D]()
	}
	ranged := simplify == nil
	if simplify == nil && found == nil {
		// The default simplifier keeps the neighbour relation of the
		// pairs it sees (substitutions, records in their range); a
		// finder's Box has a relation of its own, which it cannot know.
		simplify = fixtures.Simplifier[D]()
	}
	cs := &candidates[D]{pairs: pairs, finder: found, drawn: make(map[uint64][]search.Input[D]), wideDrawn: make(map[uint64][]search.Input[D]), ranged: ranged}
	cs.defaultDomain = defaulted && (len(pairs) > 0 || gen != nil)
	if simplify != nil && p.Claim.Kind != plan.KindDataCentric { // the level of one dataset: nothing to simplify
		cs.simplify = func(q fixtures.Pair[D]) (out []fixtures.Pair[D], err error) {
			defer recoverInto(&err, "the simplifier")
			return simplify(q), nil
		}
	}
	if gen != nil && p.Candidates > 0 {
		cs.gen, cs.n = gen, p.Candidates
	}
	if len(cs.pairs) == 0 && cs.gen == nil && cs.finder == nil {
		return cs, ErrNoCandidates{Type: typeName[D]()}
	}
	return cs, nil
}

// simplifierFor returns the simplifier of a run: the user's, or, by
// default, fixtures.SimplifyFloatsWithin / SimplifyIntsWithin over the
// range of the records of the run's candidates (so that a witness in
// [−1, 1]^m is simplified toward −1 and 1, not 0 and 1). The records where
// X and Y differ are moved only when every candidate is a substitution
// pair differing in one record, the relation those moves keep; pairs that
// differ in several records (query answers, whose neighbour relation
// bounds each difference) keep them.
func (cs *candidates[D]) simplifierFor(in []search.Input[D]) func(fixtures.Pair[D]) ([]fixtures.Pair[D], error) {
	if cs.simplify == nil || !cs.ranged {
		return cs.simplify
	}
	lo, hi, ok := recordRange(in)
	if !ok {
		return cs.simplify
	}
	var f any
	switch any(*new(D)).(type) {
	case []float64:
		f = fixtures.SimplifyFloatsWithin(lo, hi)
	case []int:
		f = fixtures.SimplifyIntsWithin(int(lo), int(hi))
	default:
		return cs.simplify
	}
	simplify := f.(func(fixtures.Pair[D]) []fixtures.Pair[D])
	if !singleSubstitutions(in) {
		simplify = keepDiffering(simplify)
	}
	return func(q fixtures.Pair[D]) ([]fixtures.Pair[D], error) { return simplify(q), nil }
}

// inputs lists a run's candidates: the explicit pairs, then the pairs its
// seed draws from the generator (drawn once per seed), each pair once (a
// pair swapped is the same two measures; distinctPairs).
func (cs *candidates[D]) inputs(seed uint64) ([]search.Input[D], error) {
	if in, ok := cs.drawn[seed]; ok {
		return in, nil
	}
	var in []search.Input[D]
	seen := distinctPairs[D]{}
	for i, p := range cs.pairs {
		if seen.add(p) {
			in = append(in, search.Input[D]{Pair: p, Source: fmt.Sprintf("pair %d", i+1)})
		}
	}
	generated, err := cs.drawDistinct(seed, "generate", cs.n, seen)
	if err != nil {
		return nil, err
	}
	for i, p := range generated {
		in = append(in, search.Input[D]{Pair: p, Source: fmt.Sprintf("generated %d", i+1)})
	}
	cs.drawn[seed] = in
	return in, nil
}

// drawDistinct draws up to n pairs from the generator on the streams of
// label, none among seen (which it extends): a generator of few distinct
// pairs repeats them, so it stops after wideAttempts·n draws with what it
// has. A generator that never repeats a pair nor draws one of seen gives
// its first n draws.
func (cs *candidates[D]) drawDistinct(seed uint64, label string, n int, seen distinctPairs[D]) ([]fixtures.Pair[D], error) {
	var out []fixtures.Pair[D]
	for i := 0; cs.gen != nil && i < wideAttempts*n && len(out) < n; i++ {
		p, err := cs.example(int(plan.SubSeed(seed, label, i) >> 1))
		if err != nil {
			return nil, err
		}
		if seen.add(p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// distinctPairs is a set of pairs identified by their datasets
// (search.PairKey), each also standing for its swapped pair.
type distinctPairs[D any] map[string]bool

// add adds p and reports whether neither it nor its swapped pair was in.
func (s distinctPairs[D]) add(p fixtures.Pair[D]) bool {
	key, swapped := search.PairKey(p), search.PairKey(search.Swapped(p))
	if s[key] || s[swapped] {
		return false
	}
	s[key] = true
	return true
}

// first is the pair whose X the replay check draws on: the first
// candidate, or the finder's pair at the centre of its box.
func (cs *candidates[D]) first(in []search.Input[D]) (p fixtures.Pair[D], err error) {
	if len(in) > 0 {
		return in[0].Pair, nil
	}
	b := cs.finder.box
	z := make([]float64, b.Dim)
	for i := range z {
		z[i] = (b.Lo + b.Hi) / 2
	}
	defer recoverInto(&err, "the Box's Pair")
	return b.Pair(z), nil
}

// wide lists a run's wide pairs (search.Config.Wide): n more pairs its
// seed draws from the generator, on their own streams, none among in or
// drawn before (drawDistinct). Drawn once per seed.
func (cs *candidates[D]) wide(seed uint64, in []search.Input[D], n int) ([]search.Input[D], error) {
	if w, ok := cs.wideDrawn[seed]; ok || cs.gen == nil {
		return w, nil
	}
	seen := distinctPairs[D]{}
	for _, c := range in {
		seen.add(c.Pair)
	}
	pairs, err := cs.drawDistinct(seed, "generate wide", n, seen)
	if err != nil {
		return nil, err
	}
	var w []search.Input[D]
	for i, p := range pairs {
		w = append(w, search.Input[D]{Pair: p, Source: fmt.Sprintf("wide %d", i+1)})
	}
	cs.wideDrawn[seed] = w
	return w, nil
}

// wideAttempts bounds the draws from the generator for a run's generated
// or wide pairs at wideAttempts times the pairs wanted.
const wideAttempts = 4

// example draws one pair from the generator.
func (cs *candidates[D]) example(seed int) (p fixtures.Pair[D], err error) {
	defer recoverInto(&err, "the generator of neighbours")
	return cs.gen.Example(seed), nil
}

// recoverInto turns a panic of the user's code into an error.
func recoverInto(err *error, what string) {
	if v := recover(); v != nil {
		*err = fmt.Errorf("dptest: %s panicked: %v", what, v)
	}
}

// runOnce runs the engine for one criterion of the plan and fills the
// report from its outcome.
func runOnce[D any](rep *Report, src sampler.Source[D], p plan.Plan, r plan.Run, cs *candidates[D], pr *progress) error {
	rep.Claim.Kind, rep.Claim.Lambda, rep.Claim.Value = p.Claim.Kind, p.Claim.Lambda, r.Threshold
	if p.Claim.Kind == plan.KindDataCentric {
		rep.Claim.Value = math.Inf(1)
	}
	in, err := cs.inputs(r.Seed)
	if err != nil {
		return err
	}
	wide, err := cs.wide(r.Seed, in, p.WidePairs())
	if err != nil {
		return err
	}
	rep.Details.Searched = describePairs(in)
	cfg := search.Config[D]{
		Run: r, Screening: p.Screening, FirstScreening: p.FirstScreening, Confirmation: p.Confirmation,
		Candidates: in, Wide: wide, WideScreening: p.Wide, WideSift: p.WideSift, Simplify: cs.simplifierFor(in),
	}
	if f := cs.finder; f != nil {
		cfg.NewFinder = func() search.Finder[D] { return f.forRun(r.Seed) }
		cfg.Trials = f.trials
	}
	cfg.Looks, cfg.Audition = looksOf(p), p.EarlyConfirmation
	for _, b := range p.Ledger().Runs {
		if b.Run == r {
			cfg.Budget = b.Looks
		}
	}
	if len(cfg.Looks) > 0 && r.Deepens() {
		cfg.Deep = p.Deep
	}
	cfg.Nightly, cfg.HoldResolution = p.Nightly, p.HoldResolution
	if p.Claim.Kind == plan.KindDP && r.Criterion == plan.CriterionHockeyStick && r.Threshold == 0 {
		cfg.ZeroHoldFrom = zeroHoldFrom(p, cfg.Budget, p.Claim.Eps)
	}
	cfg.QuickScreening, cfg.QuickConfirmation, cfg.Recorded = p.Quick, p.QuickConfirmation, p.Recorded
	if pr.logf != nil {
		cfg.Logf = func(format string, args ...any) { pr.logf("[dptest] "+format, args...) }
	}
	if pr.logf != nil || pr.tick != nil {
		cfg.Progress = pr.report
	}
	switch r.Criterion {
	case plan.CriterionRenyi:
		return runRenyi(rep, src, p, r, cfg)
	case plan.CriterionHockeyStick, plan.CriterionGaussian:
		return runEvent(rep, src, p, r, cfg)
	case plan.CriterionHistogram:
		return runTester(rep, r, cfg, search.Histogram(src, r.Eps, r.Bins, r.Range, p.Confirmation.Samples, r.PerConfirmation()), groupsScore(rep))
	case plan.CriterionClassifier:
		return runTester(rep, r, cfg, search.Classifier(src, r.Eps, p.Confirmation.Samples, r.PerConfirmation()), groupsScore(rep))
	case plan.CriterionMMD:
		return runTester(rep, r, cfg, search.MMD(src, r.Eps, p.Confirmation.Samples, r.PerConfirmation()), func(search.MMDFinding) {})
	}
	out, err := search.Run(search.DPClaim(src, p.Local, p.Confirmation.Samples, r.PerConfirmation(), r.Threshold), cfg)
	fill(rep, out, err, func(e local.Estimate) {
		curve, event := e.Curve, e.Event
		rep.Details.Score, rep.Details.Location = scoreOf(e.Event), e.Location
		if out.Named.AltEvent { // maybe of another table or score (search.DPClaim)
			rep.Details.Score, rep.Details.Location, event = scoreOf(e.Alt), e.AltLocation, e.Alt
			if len(e.AltCurve.T) > 0 {
				curve = e.AltCurve
			}
		}
		rep.Details.Event, rep.Details.EventCounts, rep.Details.EventLevel = eventText(event, 1), countsOfXY(out.Named.Counts, out.Best.Reverse), out.Named.Level
		rep.event, rep.score = &eventGroups{g: event, k: 1}, learnedScore(event)
		if len(curve.T) > 0 {
			rep.Details.LossCurve = &LossCurve{T: curve.T, Loss: curve.Loss}
		}
	})
	if err == nil && p.Claim.Kind != plan.KindDataCentric {
		return inconclusive(out.Reason)
	}
	return err
}

// looksOf is a run's looks before the planned confirmation: the plan's,
// except for a data-centric audit, which measures a level rather than
// testing a claim.
func looksOf(p plan.Plan) []plan.Stage {
	if p.Claim.Kind == plan.KindDataCentric {
		return nil
	}
	return p.Looks
}

// runRenyi runs the Rényi criterion: an RDP claim's audit, or the order-2
// cross-check of a DP claim, which only adds evidence of a violation (an
// unresolved cross-check leaves the verdict to the other runs).
func runRenyi[D any](rep *Report, src sampler.Source[D], p plan.Plan, r plan.Run, cfg search.Config[D]) error {
	if p.Claim.Kind != plan.KindRDP {
		rep.Claim.Kind, rep.Claim.Lambda = plan.KindRDP, r.Lambda
	}
	out, err := search.Run(search.RDP(src, r.Lambda, p.Renyi, p.Confirmation.Samples, r.PerConfirmation()), cfg)
	fill(rep, out, err, func(f search.RenyiFinding) {
		rep.Details.Score, rep.score = scoreOf(f.Grouping), learnedScore(f.Grouping)
		if e := out.Named.AloneEvent; e != nil { // LowerBound is the event's
			rep.Details.Event, rep.Details.EventCounts, rep.Details.EventLevel = aloneEventText(f), countsOfXY(e.Counts, out.Best.Reverse), e.Level
			rep.Estimate = e.Estimate // the event's, which its bound is of
		}
	})
	if err == nil && out.Reason == nil && !out.Violated && !r.CrossCheck {
		alone, pair := aloneAmong(out.Screened, func(f search.RenyiFinding) search.AloneAtom { return f.Alone })
		rep.Details.Alone, err = aloneValuesVerdict(out.Confirmed, alone, renyiAlone(r.Lambda), r.Threshold, out.PerConfirm)
		if rep.Details.Alone == nil {
			rep.Details.Alone, err = aloneVerdict(alone, pair, renyiAlone(r.Lambda), r.Threshold, out.PerConfirm)
		}
		return err
	}
	if err == nil && !r.CrossCheck {
		return inconclusive(out.Reason)
	}
	return err
}

// runEvent runs an event criterion: the hockey-stick divergence of an
// (ε, δ)-DP claim (or, against δ = 0, the cross-check of a pure-DP claim,
// which only adds evidence of a violation), or the Gaussian-DP level of a
// μ-GDP claim.
func runEvent[D any](rep *Report, src sampler.Source[D], p plan.Plan, r plan.Run, cfg search.Config[D]) error {
	m := hockey.Gaussian()
	if r.Criterion == plan.CriterionHockeyStick {
		m = hockey.HockeyStick(r.Eps)
		rep.Claim.Kind, rep.Claim.Eps, rep.Claim.Lambda = plan.KindApproxDP, r.Eps, 0
	}
	out, err := search.Run(search.Event(src, m, p.Confirmation.Samples, r.PerConfirmation(), r.Threshold), cfg)
	fill(rep, out, err, func(f search.EventFinding) {
		rep.Details.Score, rep.Details.Event = scoreOf(f.Groups), eventText(f.Groups, f.InEvent)
		rep.event, rep.score = &eventGroups{g: f.Groups, k: f.InEvent}, learnedScore(f.Groups)
		rep.Details.EventCounts, rep.Details.EventLevel = countsOfXY(out.Named.Counts, out.Best.Reverse), out.Named.Level
	})
	if err == nil {
		rep.Details.TradeOff, rep.Details.Profile = tradeOffOf(out.Best.Confirmations[0].Tests, out.Samples, p.Alpha()) // the deciding look's draws
	}
	if err == nil && out.Reason == nil && !out.Violated && r.Criterion == plan.CriterionGaussian {
		alone, pair := aloneAmong(out.Screened, func(f search.EventFinding) search.AloneAtom { return f.Alone })
		rep.Details.Alone, err = aloneVerdict(alone, pair, gaussianAlone(), r.Threshold, out.PerConfirm)
		return err
	}
	if err == nil && !r.CrossCheck {
		if one, ok := out.Reason.(*OneSidedEvent); ok && r.Criterion == plan.CriterionGaussian {
			one.DrawsNeeded = unboundedReach(out, gaussianAlone(), r.Threshold)
		}
		return inconclusive(out.Reason)
	}
	return err
}

// countsOfXY orders a confirmation's event counts, the bounded side's
// first (search.Score.Counts), as X's and Y's: the bounded side is Y when
// the direction is reversed.
func countsOfXY(counts [2]int64, reverse bool) [2]int64 {
	if reverse {
		return [2]int64{counts[1], counts[0]}
	}
	return counts
}

// aloneEventText names the one event of an RDP violation found on the
// group of values the screening saw from one dataset only
// (search.Score.AloneEvent).
func aloneEventText(f search.RenyiFinding) string {
	values, example, unlisted := f.AloneGroupValues()
	a := AloneOutput{Values: values, Example: example, Unlisted: unlisted}
	if values > 1 || unlisted {
		return "the group of " + a.valuesText() + ", counted as one output, which the screening drew from one dataset only"
	}
	return a.valuesText() + ", which the screening drew from one dataset only"
}

// scoreOf describes the score a grouping of vector outputs counts; "" for
// other outputs.
func scoreOf(g stat.Grouping) string {
	if g.Partition == nil || g.Partition.Score == nil {
		return ""
	}
	return g.Partition.Score.String()
}

// tradeOffOf turns the counts of a confirmation's tests into the
// report's trade-off curve, with a band simultaneous at level alpha, and
// its privacy profile at profileEps.
func tradeOffOf(tests [][2]int64, n int, alpha float64) ([]TradeOffPoint, []ProfilePoint) {
	if len(tests) == 0 {
		return nil, nil
	}
	cp, cq := make([]int64, len(tests)), make([]int64, len(tests))
	for i, t := range tests {
		cp[i], cq[i] = t[0], t[1]
	}
	pts := hockey.TradeOff(cp, cq, int64(n), alpha)
	curve := make([]TradeOffPoint, len(pts))
	for i, p := range pts {
		curve[i] = TradeOffPoint(p)
	}
	profile := make([]ProfilePoint, 0, 6)
	for _, e := range profileEps() {
		profile = append(profile, ProfilePoint{Eps: e, Delta: hockey.Profile(pts, e)})
	}
	return curve, profile
}

// fill copies an engine outcome into the report; finding adds what the
// criterion's finding on the witness shows.
func fill[D, F any](rep *Report, out search.Outcome[D, F], err error, finding func(F)) {
	if err != nil {
		return
	}
	best := out.Best
	rep.Estimate, rep.LowerBound, rep.violated = best.Estimate(), best.Bound(), out.Violated
	rep.Resolution, rep.Details.Samples, rep.Details.EarlyLook, rep.Details.QuickLook = out.Resolution, out.Samples, out.Early, out.Quick
	rep.Details.DeepScreened = out.Deepened
	rep.Details.Unbounded = best.Confirmations[0].Unbounded && best.Confirmations[1].Unbounded
	rep.Witness = best.Pair
	rep.Direction = out.Direction(best)
	finding(best.Finding)
	rep.Details.PairsSearched, rep.Details.Confirmed, rep.Details.PerConfirmation, rep.Elapsed = out.PairsSearched, len(out.Confirmed), out.PerConfirm, out.Elapsed
	rep.Details.WideScreened, rep.Details.WidePromoted, rep.Details.WideSkipped = out.Wide.Screened, out.Wide.Promoted, out.Wide.Skipped
	rep.Details.Trials, rep.Details.FoundAt = out.Trials, out.FoundAt
	for _, c := range out.Confirmed {
		rep.Details.Confirmations = append(rep.Details.Confirmations, Confirmation{
			Witness: c.Pair, Direction: out.Direction(c), Screening: c.Screening.Estimate,
			Estimates: [2]float64{c.Confirmations[0].Estimate, c.Confirmations[1].Estimate},
			StdErrs:   [2]float64{c.Confirmations[0].StdErr, c.Confirmations[1].StdErr},
			Bounds:    [2]float64{c.Confirmations[0].LowerBound, c.Confirmations[1].LowerBound},
		})
	}
}

// zeroHoldFrom is search.Config.ZeroHoldFrom for a pure-DP claim's
// hockey-stick cross-check at ε: the draws of the first look whose
// reach (the rarest output of one dataset alone its confirmation
// catches) is within search.ReachSlack of what the planned look reaches,
// given the screening's own reach (isolatedLeast). 0 where none is.
func zeroHoldFrom(p plan.Plan, looks []plan.Look, eps float64) int {
	if len(looks) < 2 {
		return 0
	}
	each := math.Cbrt(search.DetectProbability)
	zBeta := numeric.UpperNormalQuantile(1 - each)
	least := hockey.HockeyStick(eps).Least
	planned := looks[len(looks)-1]
	target := search.ReachSlack * max(least(0, planned.Samples, planned.PerConfirmation, zBeta), isolatedLeast(p.Screening.Samples/2, each))
	for _, l := range looks[:len(looks)-1] {
		if l.Name != plan.QuickLookName && least(0, l.Samples, l.PerConfirmation, zBeta) <= target {
			return l.Samples
		}
	}
	return 0
}
