package dptest

import (
	"fmt"
	"math"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/local"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/search"
)

// ErrNoCandidates reports an audit of datasets of a type for which dptest
// knows no neighbouring pairs.
type ErrNoCandidates struct{ Type string }

func (e ErrNoCandidates) Error() string {
	return fmt.Sprintf("dptest: no candidate pairs for datasets of type %s: pass dptest.Pairs(fixtures.Pair[%[1]s]{X: …, Y: …}) or dptest.Neighbors(a *rapid.Generator[fixtures.Pair[%[1]s]])", e.Type)
}

// audit is the one path of every assertion: resolve the plan, build the
// candidates, run the engine once per criterion of the claim, report.
func audit[D any](m Mechanism[D], c plan.Claim, opts []Option, name string, logf func(string, ...any)) (Report, error) {
	rep := Report{Kind: c.Kind, Lambda: c.Lambda, Claimed: c.Eps, TestName: name, Confidence: DefaultConfidence}
	if c.Kind == plan.KindDataCentric {
		rep.Claimed = math.Inf(1)
	}
	if err := c.Check(); err != nil {
		return rep, err
	}
	if err := m.check(); err != nil {
		return rep, err
	}
	o, err := collect(c.Kind, opts)
	if err != nil {
		return rep, err
	}
	p, err := plan.Resolve(c, name, o.settings, isShort())
	if err != nil {
		return rep, err
	}
	rep.Confidence, rep.Seed, rep.Short, rep.Settings = p.Confidence, p.Seed, p.Short, settingsOf(p)
	rep.Samples, rep.ScreeningSamples = p.Confirmation.Samples, p.Screening.Samples
	cs, err := candidatesOf(m, o, p)
	if err != nil {
		return rep, err
	}
	if !p.Verbose {
		logf = nil
	}
	src := sampler.Counting(m.source)
	base := rep
	for i, r := range p.Runs {
		one, before := base, src.Calls()
		err := runOnce(&one, src, p, r, cs, logf)
		one.Calls = src.Calls() - before
		if i == 0 {
			rep = one
		} else {
			rep.CrossCheck = &one
			rep.Violated = one.Violated
			rep.Elapsed += one.Elapsed
			rep.Calls += one.Calls
		}
		if err != nil || one.Violated {
			return rep, err
		}
	}
	return rep, nil
}

// candidates are what an audit searches: explicit pairs, a generator and a
// simplifier.
type candidates[D any] struct {
	pairs    []fixtures.Pair[D]
	gen      func(seed uint64) []search.Input[D]
	simplify func(fixtures.Pair[D]) []fixtures.Pair[D]
}

// candidatesOf gathers the candidates: explicit pairs (options, then the
// mechanism's), the generator (option, then the mechanism's), and for
// datasets with neither, fixtures.Defaults.
func candidatesOf[D any](m Mechanism[D], o *options, p plan.Plan) (candidates[D], error) {
	pairs, gen, simplify, err := typed[D](o)
	if err != nil {
		return candidates[D]{}, err
	}
	pairs = append(pairs, m.pairs...)
	if gen == nil {
		gen = m.gen
	}
	if simplify == nil {
		simplify = m.simplify
	}
	if len(pairs) == 0 && gen == nil {
		pairs, gen = fixtures.Defaults[D]()
	}
	if simplify == nil {
		simplify = fixtures.Simplifier[D]()
	}
	cs := candidates[D]{pairs: pairs, simplify: simplify}
	if p.Claim.Kind == plan.KindDataCentric {
		cs.simplify = nil // the level of one dataset: nothing to simplify
	}
	if gen != nil && p.Candidates > 0 {
		n := p.Candidates
		cs.gen = func(seed uint64) []search.Input[D] {
			out := make([]search.Input[D], n)
			for i := range out {
				out[i] = search.Input[D]{Pair: gen.Example(int(plan.SubSeed(seed, "generate", i) >> 1)), Source: fmt.Sprintf("generated %d", i+1)}
			}
			return out
		}
	}
	if len(cs.pairs) == 0 && cs.gen == nil {
		return cs, ErrNoCandidates{Type: typeName[D]()}
	}
	return cs, nil
}

// inputs lists a run's candidates: the explicit pairs, then the pairs its
// seed draws from the generator.
func (cs candidates[D]) inputs(seed uint64) []search.Input[D] {
	var in []search.Input[D]
	for i, p := range cs.pairs {
		in = append(in, search.Input[D]{Pair: p, Source: fmt.Sprintf("pair %d", i+1)})
	}
	if cs.gen != nil {
		in = append(in, cs.gen(seed)...)
	}
	return in
}

// runOnce runs the engine for one criterion of the plan and fills the
// report from its outcome.
func runOnce[D any](rep *Report, src sampler.Source[D], p plan.Plan, r plan.Run, cs candidates[D], logf func(string, ...any)) error {
	rep.Kind, rep.Lambda, rep.Claimed = p.Claim.Kind, p.Claim.Lambda, r.Threshold
	if p.Claim.Kind == plan.KindDataCentric {
		rep.Claimed = math.Inf(1)
	}
	cfg := search.Config[D]{
		Run: r, Screening: p.Screening, Confirmation: p.Confirmation,
		Candidates: cs.inputs(r.Seed), Simplify: cs.simplify,
	}
	if logf != nil {
		cfg.Logf = func(format string, args ...any) { logf("[dptest] "+format, args...) }
	}
	if r.Criterion == plan.CriterionRenyi {
		if p.Claim.Kind != plan.KindRDP {
			rep.Kind, rep.Lambda = plan.KindRDP, r.Lambda
		}
		out, err := search.Run(search.RDP(src, r.Lambda, p.Renyi), cfg)
		fill(rep, out, err, func(renyi.Result) {})
		return err
	}
	out, err := search.Run(search.DP(src, p.Local), cfg)
	fill(rep, out, err, func(e local.Estimate) {
		rep.Location = e.Event.Location
		if len(e.Curve.T) > 0 {
			rep.LossCurve = &LossCurve{T: e.Curve.T, Loss: e.Curve.Loss}
		}
	})
	return err
}

// fill copies an engine outcome into the report; finding adds what the
// criterion's finding on the witness shows.
func fill[D, F any](rep *Report, out search.Outcome[D, F], err error, finding func(F)) {
	if err != nil {
		return
	}
	best := out.Best
	rep.Estimate, rep.LowerBound, rep.Violated = best.Estimate(), best.Bound(), out.Violated
	rep.Witness = best.Pair
	rep.Direction = out.Direction(best)
	finding(best.Finding)
	rep.PairsSearched, rep.Confirmed, rep.PerConfirmation, rep.Elapsed = out.PairsSearched, len(out.Confirmed), out.PerConfirm, out.Elapsed
	for _, c := range out.Confirmed {
		rep.Confirmations = append(rep.Confirmations, Confirmation{
			Witness: c.Pair, Direction: out.Direction(c), Screening: c.Screening.Estimate,
			Estimates: [2]float64{c.Confirmations[0].Estimate, c.Confirmations[1].Estimate},
			StdErrs:   [2]float64{c.Confirmations[0].StdErr, c.Confirmations[1].StdErr},
			Bounds:    [2]float64{c.Confirmations[0].LowerBound, c.Confirmations[1].LowerBound},
		})
	}
}
