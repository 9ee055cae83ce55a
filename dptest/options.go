package dptest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"pgregory.net/rapid"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/plan"
)

// Defaults and limits; the flags and options below change them.
const (
	DefaultSamples    = plan.DefaultSamples
	ShortSamples      = plan.ShortSamples // with go test -short
	DefaultConfidence = plan.DefaultConfidence
	DefaultCandidates = plan.DefaultCandidates
	ShortCandidates   = plan.ShortCandidates
	MinSamples        = plan.MinSamples
	// CrossCheckOrder is the Rényi order of the cross-check of a DP audit.
	CrossCheckOrder = plan.CrossCheckOrder
)

// Option configures an audit. Options are built only by this package's
// constructors: [Samples], [Seed], [Confidence], [Candidates], [Verbose],
// [Pairs], [Neighbors], [Simplifier], [Strict], [Nightly], [Resolution],
// [Quick], [Within], [Parallelism], [Context], [OnProgress], [ReportTo],
// [Label], and for DP audits [Region], [Floor] and [Testers]. A bad value, or an option that does
// not apply to the claim, is an error of the audit (Audit* return it,
// Require* and Check* fail the test with it), never a panic. An option
// given twice keeps its last value (so that a helper's defaults can be
// overridden by appending), except [Pairs], which adds, and [Testers] and
// [FindPairs], which refuse a second.
type Option interface{ apply(*options) }

// option is every Option: its name, the claims it applies to (nil: all)
// and what it sets.
type option struct {
	name  string
	kinds []string
	set   func(*options)
}

func (o option) apply(os *options) {
	if o.kinds != nil && !slices.Contains(o.kinds, os.kind) {
		os.errs = append(os.errs, fmt.Errorf("dptest: %s does not apply to %s", o.name, kindPhrase(os.kind)))
		return
	}
	o.set(os)
}

// Claim kinds as options see them; kindSamples is a bound from recorded
// outputs.
const kindSamples = "samples"

var (
	searchKinds = []string{plan.KindRDP, plan.KindDP, plan.KindApproxDP, plan.KindGDP}
	localKinds  = []string{plan.KindDP, plan.KindDataCentric}
	auditKinds  = []string{plan.KindRDP, plan.KindDP, plan.KindApproxDP, plan.KindGDP, plan.KindDataCentric}
)

func kindPhrase(kind string) string {
	switch kind {
	case plan.KindRDP:
		return "an RDP claim"
	case plan.KindDP:
		return "a DP claim"
	case plan.KindApproxDP:
		return "an (ε, δ)-DP claim"
	case plan.KindGDP:
		return "a Gaussian-DP claim"
	case plan.KindDataCentric:
		return "AuditDataCentricDP"
	}
	return "a bound from recorded outputs"
}

// options is what the options of one audit set.
type options struct {
	kind        string
	ctx         context.Context
	parallelism int           // goroutines per sampling, 0 for GOMAXPROCS
	within      time.Duration // time budget, 0 for none
	settings    plan.Settings
	pairs       []any // each a []fixtures.Pair[D]
	neighbors   any   // a *rapid.Generator[fixtures.Pair[D]]
	simplify    any   // a func(fixtures.Pair[D]) []fixtures.Pair[D]
	finder      any   // a Finder[D]
	reportDir   string
	label       string
	progress    func(done, planned int64)
	errs        []error
}

// collect applies the options of an audit of the given kind.
func collect(kind string, opts []Option) (*options, error) {
	o := &options{kind: kind}
	for _, opt := range opts {
		if opt == nil {
			o.errs = append(o.errs, fmt.Errorf("dptest: nil Option"))
			continue
		}
		opt.apply(o)
	}
	if len(o.errs) > 0 {
		return o, o.errs[0]
	}
	return o, nil
}

func (o *options) fail(format string, args ...any) {
	o.errs = append(o.errs, fmt.Errorf("dptest: "+format, args...))
}

// Samples sets the confirming sample size per side. The screening uses a
// fixed fraction of it. An audit of given pairs alone may screen its
// leading pairs again on a larger fraction ([Details.DeepScreened]).
// It must be at least [MinSamples].
func Samples(n int) Option {
	return option{"Samples", auditKinds, func(o *options) { o.settings.Samples, o.settings.SamplesSet = n, true }}
}

// Seed fixes the seed of the audit, which determines every candidate pair
// and every output drawn; a report's Seed replays it.
func Seed(seed uint64) Option {
	return option{"Seed", auditKinds, func(o *options) { o.settings.Seed, o.settings.SeedSet = seed, true }}
}

// Confidence sets the confidence 1 − α of the verdict: a mechanism that meets
// its claim fails with probability at most α. It must lie in (0, 1).
func Confidence(conf float64) Option {
	return option{"Confidence", nil, func(o *options) { o.settings.Confidence, o.settings.ConfidenceSet = conf, true }}
}

// Candidates sets how many pairs are drawn from the Neighbors generator (or
// the default one): distinct pairs (a pair and its swap, X and Y
// exchanged, are one: the same two directions), none among the explicit
// ones, within a fixed multiple of n draws (a generator of fewer distinct
// pairs gives what it has). It must be ≥ 0. An audit given pairs (Pairs,
// WithPairs) and no generator draws none: the default generator applies
// only to an audit with neither, so Candidates then has nothing to draw
// from.
func Candidates(n int) Option {
	return option{"Candidates", searchKinds, func(o *options) { o.settings.Candidates, o.settings.CandSet = n, true }}
}

// Parallelism sets how many goroutines call the mechanism in each sampling
// (by default GOMAXPROCS; two samplings run at once). A mechanism that
// waits rather than computes (a remote call, a sleep, I/O) is audited
// faster on more goroutines than cores; one that computes is not, nor
// one whose calls queue on a lock (noise read from one shared source, as
// Google's differential-privacy library reads its secure randomness). The
// draws, and so the verdict, do not depend on it: each block of draws has
// its own stream. It must be ≥ 1.
func Parallelism(n int) Option {
	return option{"Parallelism", auditKinds, func(o *options) {
		if n < 1 {
			o.fail("Parallelism must be ≥ 1, got %d", n)
			return
		}
		o.parallelism = n
	}}
}

// Within gives the audit a time budget d. The audit measures the
// mechanism's speed on its first calls (the replay check). It plans the
// largest sample size, at most the planned one, whose calls fit in
// [WithinShare] of what is left of d, and it ends by d. An audit that cannot decide in d ends unresolved
// ([Stopped]), never passed; one whose budget cannot fit Samples' minimum
// ends so at once, saying what it would need. The chosen size is in the
// report's Settings and its reproduce line (-dptest.samples), so the
// verdict replays on any machine: given on the command line (or as
// DPTEST_SAMPLES), -dptest.samples pins the size of an audit with a budget
// (it is not refitted, and it outranks a Samples option, which is otherwise
// the most Within may choose); the budget still ends the audit, unresolved,
// if that size does not fit. Outside a test, the replay is Samples at the
// chosen size in place of Within. The plan assumes the calls run one at a
// time, or, with [Parallelism](n), n at a time (a mechanism that waits); a
// mechanism that computes may then finish early. The test's own deadline
// still applies. d must be positive.
func Within(d time.Duration) Option {
	return option{"Within", auditKinds, func(o *options) {
		if d <= 0 {
			o.fail("Within needs a positive duration, got %v", d)
			return
		}
		o.within, o.settings.Fitted = d, true
	}}
}

// Verbose logs every screened pair and every confirmation, as -dptest.v does.
func Verbose() Option {
	return option{"Verbose", auditKinds, func(o *options) { o.settings.Verbose = true }}
}

// Quick trades reach for calls. It is for slow mechanisms whose claims
// have room, not for a last check of a tight one.
//
// The audit first screens its candidates on a small fraction of the
// screening's draws. Where that shows a clear violation or room to spare,
// it confirms on a small fraction of the planned draws and decides there
// ([Details.QuickLook]). Otherwise the full audit follows, on most of the
// false-failure budget.
// Candidates are ranked by successive halving: all on a small share of
// the screening, the leaders in full.
//
// The price is the screening's reach. An output that one dataset emits
// rarely can go unseen, and the pass states the reach it had. Audits too
// small for a quick look (go test -short) have none. -dptest.quick and
// DPTEST_QUICK set it too.
func Quick() Option {
	return option{"Quick", searchKinds, func(o *options) { o.settings.Quick = true }}
}

// Nightly audits at full depth, for nightly runs and release gates:
// every candidate pair is screened in full, and only a violation ends
// the audit before its planned confirmation. A default audit stops as
// soon as its verdict is settled. -dptest.nightly and DPTEST_NIGHTLY set
// it too; -dptest.samples adds depth.
func Nightly() Option {
	return option{"Nightly", auditKinds, func(o *options) { o.settings.Nightly = true }}
}

// Resolution sets the multiple of the claim an audit must resolve before
// an early look holds the claim: a factor in (1, ResolutionFactor]. A
// smaller factor spends more draws for a tighter pass. The verdict holds
// at the planned look on its own rule, as without the option.
func Resolution(factor float64) Option {
	return option{"Resolution", auditKinds, func(o *options) {
		if !(factor > 1 && factor <= ResolutionFactor) {
			o.fail("Resolution needs a factor in (1, %g], got %v", ResolutionFactor, factor)
			return
		}
		o.settings.Resolution = factor
	}}
}

// Strict makes an unresolved audit fail the test, as -dptest.strict and
// DPTEST_STRICT do: for release gates and nightly runs. By default an
// unresolved audit skips a Require* test and lets Check* pass, with a
// line saying what was verified and what would resolve the claim.
func Strict() Option {
	return option{"Strict", auditKinds, func(o *options) { o.settings.Strict = true }}
}

// Context ends the audit when ctx is done, unresolved ([Stopped]), with
// the report so far. Require*, Check* and Make* also stop before the
// test's deadline (go test -timeout) on their own.
func Context(ctx context.Context) Option {
	return option{"Context", auditKinds, func(o *options) {
		if ctx == nil {
			o.fail("Context needs a non-nil context")
			return
		}
		o.ctx = ctx
	}}
}

// Pairs adds explicit candidate pairs, screened before any generated ones;
// both directions of each are audited. Pairs of another dataset type than
// the mechanism's are an error of the audit; [Mechanism.WithPairs] is the
// form the compiler checks.
func Pairs[D any](pairs ...fixtures.Pair[D]) Option {
	return option{"Pairs", searchKinds, func(o *options) {
		if len(pairs) == 0 {
			// An empty list (a slice left empty by a bug) must not
			// fall back on the default candidates unsaid.
			o.fail("Pairs needs at least one pair")
			return
		}
		o.pairs = append(o.pairs, pairs)
	}}
}

// Neighbors sets a rapid generator of neighbouring pairs (for example
// fixtures.Substitution or fixtures.AddRemove); [Candidates] pairs are drawn
// from it, deterministically from the audit's seed. A generator of another
// dataset type than the mechanism's, or nil, is an error of the audit;
// [Mechanism.WithNeighbors] is the form the compiler checks.
func Neighbors[D any](g *rapid.Generator[fixtures.Pair[D]]) Option {
	return option{"Neighbors", searchKinds, func(o *options) {
		if g == nil {
			o.fail("Neighbors needs a non-nil generator")
			return
		}
		o.neighbors = g
	}}
}

// Simplifier sets how the audit simplifies its witness (see
// [Mechanism.WithSimplifier], the form the compiler checks).
func Simplifier[D any](f func(fixtures.Pair[D]) []fixtures.Pair[D]) Option {
	return option{"Simplifier", searchKinds, func(o *options) {
		if f == nil {
			o.fail("Simplifier needs a non-nil function")
			return
		}
		o.simplify = f
	}}
}

// Region sets the region C of real outputs over which a DP audit searches
// for the largest privacy loss ([AKD22], eq. (21)); by default it is
// every output. The loss outside C is not seen, so C should cover the
// outputs where a violation is suspected. A region reaching far into the
// tails, where few outputs fall, makes the estimates noisy. It needs
// finite lo < hi.
func Region(lo, hi float64) Option {
	return option{"Region", localKinds, func(o *options) { o.settings.Region, o.settings.RegionSet = [2]float64{lo, hi}, true }}
}

// Floor sets the floor τ of the truncated density estimates of a DP audit's
// screening ([AKD22], Algorithms 1–2): a probability for discrete outputs, a
// density in output units for real ones. By default it is a few samples'
// worth: k/n for discrete outputs, k/(n·h) for real ones with bandwidth h,
// k a fixed count. It must be positive and finite.
func Floor(tau float64) Option {
	return option{"Floor", localKinds, func(o *options) { o.settings.Floor, o.settings.FloorSet = tau, true }}
}

// typeName names a type as the compiler would.
func typeName[D any]() string { return reflect.TypeFor[D]().String() }

// typed returns the options' dataset-typed values for datasets of type D, or
// an error naming both types.
func typed[D any](o *options) (pairs []fixtures.Pair[D], gen *rapid.Generator[fixtures.Pair[D]], simplify func(fixtures.Pair[D]) []fixtures.Pair[D], err error) {
	want := typeName[D]()
	for _, ps := range o.pairs {
		p, ok := ps.([]fixtures.Pair[D])
		if !ok {
			return nil, nil, nil, fmt.Errorf("dptest: Pairs of %s given to a mechanism on datasets of type %s", elemName(ps), want)
		}
		pairs = append(pairs, p...)
	}
	if o.neighbors != nil {
		if gen, _ = o.neighbors.(*rapid.Generator[fixtures.Pair[D]]); gen == nil {
			return nil, nil, nil, fmt.Errorf("dptest: a Neighbors generator of %s given to a mechanism on datasets of type %s", pairArg(o.neighbors), want)
		}
	}
	if o.simplify != nil {
		if simplify, _ = o.simplify.(func(fixtures.Pair[D]) []fixtures.Pair[D]); simplify == nil {
			return nil, nil, nil, fmt.Errorf("dptest: a Simplifier of %s given to a mechanism on datasets of type %s", pairArg(o.simplify), want)
		}
	}
	return pairs, gen, simplify, nil
}

// elemName names the dataset type of a []fixtures.Pair[D].
func elemName(pairs any) string {
	return pairArg(reflect.Zero(reflect.TypeOf(pairs).Elem()).Interface())
}

// pairArg names the dataset type of a value built on fixtures.Pair[D]: the
// type argument of the first Pair in its type's name.
func pairArg(v any) string {
	s := reflect.TypeOf(v).String()
	if i := strings.Index(s, "Pair["); i >= 0 {
		s = s[i+len("Pair["):]
		depth := 1
		for j, c := range s {
			switch c {
			case '[':
				depth++
			case ']':
				depth--
				if depth == 0 {
					return s[:j]
				}
			}
		}
	}
	return s
}
