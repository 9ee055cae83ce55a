package dptest

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/local"
	"github.com/dptest/dptest/internal/search"
)

// Kinds of claim.
const (
	kindRDP = "RDP"
	kindDP  = "DP"
)

// claim is what one run of the engine checks: the criterion's value is at
// most eps, with false-failure probability at most alpha.
type claim struct {
	kind   string
	lambda float64
	eps    float64
	alpha  float64
}

// ErrNoCandidates reports an audit of datasets of a type for which dptest
// knows no neighbouring pairs.
type ErrNoCandidates struct{ Type string }

func (e ErrNoCandidates) Error() string {
	return fmt.Sprintf("dptest: no candidate pairs for datasets of type %s: pass dptest.Pairs(fixtures.Pair[%[1]s]{X: …, Y: …}) or dptest.Neighbors(a *rapid.Generator[fixtures.Pair[%[1]s]])", e.Type)
}

// candidates fills the engine's candidate pairs from the options: explicit
// Pairs, the Neighbors generator, and for []float64 datasets without either
// the canonical pair and the unit-cube generator.
func candidates[D any](cfg config, sc *search.Config[D]) error {
	for _, ps := range cfg.pairs {
		p, ok := ps.([]fixtures.Pair[D])
		if !ok {
			return fmt.Errorf("dptest: Pairs of %s given to a mechanism on datasets of type %s", elemType(ps), typeName[D]())
		}
		sc.Pairs = append(sc.Pairs, p...)
	}
	if cfg.neighbors != nil {
		g, ok := cfg.neighbors.(*rapid.Generator[fixtures.Pair[D]])
		if !ok {
			return fmt.Errorf("dptest: a Neighbors generator of %T given to a mechanism on datasets of type %s", cfg.neighbors, typeName[D]())
		}
		sc.Generator = g
	}
	var zero D
	if _, isVec := any(zero).([]float64); isVec {
		if len(sc.Pairs) == 0 && sc.Generator == nil {
			sc.Pairs = any([]fixtures.Pair[[]float64]{fixtures.Canonical(10)}).([]fixtures.Pair[D])
			sc.Generator = any(fixtures.UnitCube(10)).(*rapid.Generator[fixtures.Pair[D]])
		}
		sc.Simplify = any(simplifyVector).(func(fixtures.Pair[D]) []fixtures.Pair[D])
	}
	if len(sc.Pairs) == 0 && (sc.Generator == nil || sc.Generated == 0) {
		return ErrNoCandidates{Type: typeName[D]()}
	}
	return nil
}

// run runs the engine once and fills a report.
func run[D any](crit search.Criterion[D], cl claim, cfg config, seed uint64, name string, logf func(string, ...any)) (Report, search.Outcome[D], error) {
	rep := Report{
		Kind: cl.kind, Lambda: cl.lambda, Claimed: cl.eps, Confidence: cfg.confidence,
		Samples: cfg.samples, Seed: cfg.seed, Short: cfg.short, TestName: name,
		ScreeningSamples: max(MinSamples, cfg.samples/screenFraction),
	}
	sc := search.Config[D]{
		Claim: cl.eps, Alpha: cl.alpha,
		Samples: cfg.samples, Screen: rep.ScreeningSamples, Seed: seed,
		Generated: cfg.candidates, Confirm: confirmedCandidates,
	}
	if cfg.verbose && logf != nil {
		sc.Logf = func(format string, args ...any) { logf("[dptest] "+format, args...) }
	}
	if err := candidates(cfg, &sc); err != nil {
		return rep, search.Outcome[D]{}, err
	}
	out, err := search.Run(crit, sc)
	if err != nil {
		return rep, out, err
	}
	best := out.Best
	rep.Estimate = best.Estimate()
	rep.LowerBound = best.Bound()
	rep.Violated = out.Violated
	rep.Witness = best.Pair
	rep.Direction = best.Direction()
	if cl.kind == kindDP {
		rep.Direction = map[string]string{"D(M(X)‖M(Y))": "ln f_X − ln f_Y", "D(M(Y)‖M(X))": "ln f_Y − ln f_X"}[rep.Direction]
		if e, ok := best.Screening.Detail.(local.Estimate); ok {
			rep.Location = location(e.Event)
			if len(e.Curve.T) > 0 {
				rep.LossCurve = &LossCurve{T: e.Curve.T, Loss: e.Curve.Loss}
			}
		}
	}
	rep.PairsSearched = out.PairsSearched
	rep.Confirmed = len(out.Confirmed)
	rep.PerConfirmation = out.PerConfirm
	rep.Elapsed = out.Elapsed
	for _, c := range out.Confirmed {
		rep.Confirmations = append(rep.Confirmations, Confirmation{
			Witness: c.Pair, Direction: c.Direction(), Screening: c.Screening.Estimate,
			Estimates: [2]float64{c.Confirmations[0].Estimate, c.Confirmations[1].Estimate},
			StdErrs:   [2]float64{c.Confirmations[0].StdErr, c.Confirmations[1].StdErr},
			Bounds:    [2]float64{c.Confirmations[0].LowerBound, c.Confirmations[1].LowerBound},
		})
	}
	return rep, out, nil
}

// location is what a report shows of a local event: the output value t̂.
func location(e local.Event) any {
	if e.Kind == local.Cell {
		return e.Cell
	}
	return e.Location
}
