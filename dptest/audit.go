package dptest

import (
	"fmt"
	"hash/fnv"
	"os"
	"reflect"

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
	rep.Direction = out.Direction(best)
	if cl.kind == kindDP {
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
			Witness: c.Pair, Direction: out.Direction(c), Screening: c.Screening.Estimate,
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

// TestingT is the part of a test that dptest needs: *testing.T, *testing.B,
// *testing.F and *rapid.T all satisfy it. If t also has Helper(), Name() or
// Logf(...), dptest uses them: to attribute failures to the caller, to
// derive the default seed and the reproduce line, and to log successes.
type TestingT interface {
	Errorf(format string, args ...any)
	FailNow()
}

func testName(t TestingT) string {
	if n, ok := t.(interface{ Name() string }); ok {
		return n.Name()
	}
	return ""
}

func logger(t TestingT) func(string, ...any) {
	if l, ok := t.(interface{ Logf(string, ...any) }); ok {
		return l.Logf
	}
	return func(string, ...any) {}
}

// verdict reports an audit's outcome to t: an error or a violation with
// t.Errorf (false), a success as a log line (true).
func verdict(t TestingT, rep Report, err error) bool {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	switch {
	case err != nil:
		t.Errorf("%s", errorText(rep, err))
		return false
	case rep.Violated:
		t.Errorf("%s", rep.String())
		return false
	}
	logger(t)("%s", rep.String())
	return true
}

// stderrLogger is the progress logger of the Audit functions, which have no
// test to log to: standard error, with -dptest.v or Verbose only.
func stderrLogger(cfg config) func(string, ...any) {
	if !cfg.verbose {
		return nil
	}
	return func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
}

// deriveSeed is the default seed: a hash of the test name and the claim, so
// that a CI run replays the same audit every time and two assertions in one
// test draw different samples.
func deriveSeed(name string, lambda, eps float64) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "dptest|%s|%v|%v", name, lambda, eps)
	return h.Sum64()
}

func typeName[D any]() string { return reflect.TypeFor[D]().String() }

func elemType(pairs any) string {
	t := reflect.TypeOf(pairs)
	if t.Kind() == reflect.Slice {
		return t.Elem().String()
	}
	return t.String()
}

// errorText renders an audit that could not finish.
func errorText(r Report, err error) string {
	return fmt.Sprintf("[dptest] %s could not be audited: %v\n    To reproduce: %s", r.claimText(), err, r.Reproduce())
}

// simplifyVector proposes simpler versions of a pair of real vectors: all
// records they share set to 0; then each shared record set to 0 in turn; then
// the records that differ rounded to 0 or 1, keeping them apart.
func simplifyVector(p fixtures.Pair[[]float64]) []fixtures.Pair[[]float64] {
	if len(p.X) != len(p.Y) {
		return nil
	}
	var out []fixtures.Pair[[]float64]
	clone := func() fixtures.Pair[[]float64] {
		return fixtures.Pair[[]float64]{X: append([]float64(nil), p.X...), Y: append([]float64(nil), p.Y...)}
	}
	var shared []int
	for i := range p.X {
		if p.X[i] == p.Y[i] && p.X[i] != 0 {
			shared = append(shared, i)
		}
	}
	if len(shared) > 1 {
		q := clone()
		for _, i := range shared {
			q.X[i], q.Y[i] = 0, 0
		}
		out = append(out, q)
	}
	for _, i := range shared {
		q := clone()
		q.X[i], q.Y[i] = 0, 0
		out = append(out, q)
	}
	for i := range p.X {
		if p.X[i] == p.Y[i] {
			continue
		}
		hi, lo := 1.0, 0.0
		if p.X[i] < p.Y[i] {
			hi, lo = 0, 1
		}
		if p.X[i] != hi || p.Y[i] != lo {
			q := clone()
			q.X[i], q.Y[i] = hi, lo
			out = append(out, q)
		}
	}
	return out
}
