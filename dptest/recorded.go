package dptest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/search"
	"github.com/dptest/dptest/internal/stat"
)

// Audits of outputs recorded elsewhere. The records of each side are
// shuffled by the audit's seed; the first of them, as many per side as the
// shorter recording holds, are used and split in three: one in
// [RecordedSelectionFraction] chooses the statistic, and each half of
// the rest confirms it in one of the two confirmation rounds.
const (
	// RecordedSelectionFraction: one output in so many of those used per
	// side chooses the statistic (cells, event, direction, score).
	RecordedSelectionFraction = 4
	// RecordedLengthRatio is how many times longer than the other one
	// recording may be: past it, most of the longer would go unused, which
	// suggests recordings that do not belong together.
	RecordedLengthRatio = 4
	// recordedPilotFraction: the pilot that fixes the cells of real
	// outputs is one selection draw in so many (at most plan.MaxPilot).
	recordedPilotFraction = 9
)

// Recorded is a pair of recordings of one mechanism's outputs made
// elsewhere (another system's logs, say): X's drawn on one dataset, Y's on
// its neighbour, each draw independent. Build it with [RecordedReal],
// [RecordedDiscrete] or [RecordedVectors], name it with [Recorded.Named],
// and audit it with [AuditRecordedRDP], [AuditRecordedDP],
// [AuditRecordedApproxDP] or [AuditRecordedGDP].
type Recorded struct {
	kind  string // "real", "discrete" or "vector"
	names [2]string
	n     [2]int
	dim   int
	err   error // of the outputs, reported by the audit
	// source builds the source of the records split by sizes, shuffled
	// by seed, whose confirmation rounds roundOf names.
	source func(sz RecordedSplit, seed uint64, roundOf map[uint64]int) sampler.Source[string]
	// firsts returns the first n outputs of each recording, for a
	// report's pictures (ReportTo).
	firsts func(n int) (xs, ys []any)
}

// RecordedSplit is how an audit of recorded outputs split its records.
type RecordedSplit struct {
	// Names are X's recording's and Y's; Kind is "real", "discrete" or
	// "vector", of Dim coordinates.
	Names [2]string `json:"names"`
	Kind  string    `json:"kind"`
	Dim   int       `json:"dim,omitempty"`
	// Recorded is the outputs in each recording; Used, per side, the
	// shorter one's count (the rest of the longer is not read).
	Recorded [2]int `json:"recorded"`
	Used     int    `json:"used"`
	// Selection is the outputs per side that chose the statistic (pilot
	// and a vector's learning draws included); Confirmation those per
	// side of each of the two confirmation rounds. No output serves two
	// of these.
	Selection    int `json:"selection"`
	Confirmation int `json:"confirmation"`
}

// RecordedReal records real outputs: xs drawn on one dataset, ys on its
// neighbour. A NaN or ±Inf value is an error of the audit, which names
// its index.
func RecordedReal(xs, ys []float64) Recorded {
	r := newRecorded("real", len(xs), len(ys), checkSides(xs, ys, stat.CheckFinite))
	r.firsts = func(n int) ([]any, []any) { return firstsOf(xs, n), firstsOf(ys, n) }
	r.source = func(sz RecordedSplit, seed uint64, roundOf map[uint64]int) sampler.Source[string] {
		return sampler.RecordedReal[string](splitRecords(xs, ys, sz, seed, roundOf))
	}
	return r
}

// RecordedDiscrete records discrete outputs of any comparable type,
// counted exactly value by value (numbers seen too rarely are also
// screened in ranges). A value not equal to itself (a NaN) is an error of
// the audit.
func RecordedDiscrete[O comparable](xs, ys []O) Recorded {
	r := newRecorded("discrete", len(xs), len(ys), checkSides(xs, ys, stat.CheckCountable[O]))
	r.firsts = func(n int) ([]any, []any) { return firstsOf(xs, n), firstsOf(ys, n) }
	r.source = func(sz RecordedSplit, seed uint64, roundOf map[uint64]int) sampler.Source[string] {
		return sampler.RecordedDiscrete[string](splitRecords(xs, ys, sz, seed, roundOf))
	}
	return r
}

// RecordedVectors records vector outputs, all of one length (within the
// sampler's dimension limit, which the error names), all finite. As for a
// [Vector] mechanism, the audit learns scores from part of the selection
// draws and bounds the claim on the best score, a post-processing: a lower
// bound stays one.
func RecordedVectors(xs, ys [][]float64) Recorded {
	dim := 0
	if len(xs) > 0 {
		dim = len(xs[0])
	}
	check := func(v []float64) error {
		if len(v) == 0 {
			return errors.New("an empty vector")
		}
		return stat.CheckVector(v, dim)
	}
	err := checkSides(xs, ys, check)
	if err == nil && dim > sampler.MaxDim {
		err = fmt.Errorf("dptest: vectors of %d coordinates are more than a score can be learned from (at most %d)", dim, sampler.MaxDim)
	}
	r := newRecorded("vector", len(xs), len(ys), err)
	r.dim = dim
	r.firsts = func(n int) ([]any, []any) { return firstsOf(xs, n), firstsOf(ys, n) }
	r.source = func(sz RecordedSplit, seed uint64, roundOf map[uint64]int) sampler.Source[string] {
		return sampler.RecordedVectors[string](splitRecords(xs, ys, sz, seed, roundOf), dim)
	}
	return r
}

// Named returns the recordings named x and y (file names, say): the
// report's witness and text name them. They are "X" and "Y" by default.
func (r Recorded) Named(x, y string) Recorded {
	r.names = [2]string{x, y}
	return r
}

func newRecorded(kind string, nx, ny int, err error) Recorded {
	return Recorded{kind: kind, names: [2]string{"X", "Y"}, n: [2]int{nx, ny}, err: err}
}

// firstsOf returns the first n of vs (all, if fewer) as any.
func firstsOf[O any](vs []O, n int) []any {
	out := make([]any, min(n, len(vs)))
	for i := range out {
		out[i] = vs[i]
	}
	return out
}

// checkSides checks every output of both sides, naming the first bad
// one by its side and index.
func checkSides[O any](xs, ys []O, check func(O) error) error {
	for s, vs := range [2][]O{xs, ys} {
		for i, v := range vs {
			if err := check(v); err != nil {
				return fmt.Errorf("dptest: %s recording, output %d: %w", [...]string{"X's", "Y's"}[s], i, err)
			}
		}
	}
	return nil
}

// splitRecords shuffles each side's outputs by seed and cuts the first
// sz.Used of them into the selection draws and the two confirmation
// rounds.
func splitRecords[O any](xs, ys []O, sz RecordedSplit, seed uint64, roundOf map[uint64]int) *sampler.Records[O] {
	var sel [2][]O
	var rounds [2][2][]O
	for side, vs := range [2][]O{xs, ys} {
		perm := rand.New(rand.NewPCG(plan.SubSeed(seed, "split", side), uint64(side))).Perm(len(vs))
		take := func(from, n int) []O {
			out := make([]O, n)
			for i := range out {
				out[i] = vs[perm[from+i]]
			}
			return out
		}
		sel[side] = take(0, sz.Selection)
		rounds[0][side] = take(sz.Selection, sz.Confirmation)
		rounds[1][side] = take(sz.Selection+sz.Confirmation, sz.Confirmation)
	}
	return sampler.NewRecords(sel, rounds, roundOf)
}

// splitOf sizes the split of used outputs per side and the screening
// stage that reads the selection draws whole: for real outputs a pilot
// first, for vectors two learning samples before it too. ok is false
// where the screening or a confirmation round would be too small.
func (r Recorded) splitOf(used int) (RecordedSplit, plan.Stage, bool) {
	sz := RecordedSplit{Names: r.names, Kind: r.kind, Dim: r.dim, Recorded: r.n, Used: used}
	sz.Selection = used / RecordedSelectionFraction
	sz.Confirmation = (used - sz.Selection) / 2
	st := plan.Stage{Samples: sz.Selection}
	if r.kind != "discrete" {
		st.Pilot = min(plan.MaxPilot, sz.Selection/recordedPilotFraction)
		st.Samples -= st.Pilot
	}
	if r.kind == "vector" {
		st.Samples -= 2 * sampler.LearnSize(st.Pilot, r.dim)
	}
	return sz, st, st.Samples >= 2*MinSamples && st.Pilot >= 0 && sz.Confirmation >= MinSamples
}

// leastUsed is the fewest outputs per side that splitOf accepts.
func (r Recorded) leastUsed() int {
	lo, hi := 1, 1<<40
	for lo < hi {
		if mid := lo + (hi-lo)/2; r.ok(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

func (r Recorded) ok(used int) bool { _, _, ok := r.splitOf(used); return ok }

// recordedOptions are the options an audit of recorded outputs takes.
var recordedOptions = []string{"Confidence", "Seed", "Verbose", "Strict", "OnProgress", "ReportTo", "Label"}

// OnProgress calls f with the calls (for recorded outputs, the outputs
// read) an audit has made and those it plans, after every screening
// and confirmation: for a progress bar. f may be called from several
// goroutines, one at a time.
func OnProgress(f func(done, planned int64)) Option {
	return option{"OnProgress", nil, func(o *options) {
		if f == nil {
			o.fail("OnProgress needs a non-nil function")
			return
		}
		o.progress = f
	}}
}

// checkRecordedOptions refuses an option an audit of recorded outputs
// does not take: one that chooses pairs, sample sizes or stages.
func checkRecordedOptions(opts []Option) error {
	for _, o := range opts {
		if op, ok := o.(option); ok && !slices.Contains(recordedOptions, op.name) {
			return fmt.Errorf("dptest: %s does not apply to an audit of recorded outputs (it takes %v)", op.name, recordedOptions)
		}
	}
	return nil
}

// recordedPlan resolves the plan of an audit of rec: the claim's runs,
// seed and confidence as for a live audit, its stages the split's.
func recordedPlan(rec Recorded, c plan.Claim, opts []Option) (plan.Plan, *options, RecordedSplit, error) {
	o, err := collect(c.Kind, opts)
	if err == nil {
		err = checkRecordedOptions(opts)
	}
	if err != nil {
		return plan.Plan{}, o, RecordedSplit{}, err
	}
	p, err := plan.Resolve(c, "", o.settings, false)
	if err != nil {
		return p, o, RecordedSplit{}, err
	}
	sz, st, err := rec.split()
	if err != nil {
		return p, o, sz, err
	}
	p.Screening, p.FirstScreening, p.Confirmation, p.Looks = st, st, plan.Stage{Samples: sz.Confirmation}, nil
	p.EarlyConfirmation, p.Deep, p.Quick, p.QuickConfirmation, p.Wide, p.WideSift = plan.Stage{}, plan.Stage{}, plan.Stage{}, plan.Stage{}, plan.Stage{}, plan.Stage{}
	p.QuickLook, p.Candidates, p.Short, p.Recorded = false, 0, false, true
	return p, o, sz, nil
}

// split checks the recordings' sizes and outputs and sizes their split.
func (r Recorded) split() (RecordedSplit, plan.Stage, error) {
	nx, ny := r.n[0], r.n[1]
	switch {
	case r.source == nil:
		return RecordedSplit{}, plan.Stage{}, errors.New("dptest: zero Recorded; build one with RecordedReal, RecordedDiscrete or RecordedVectors")
	case nx == 0:
		return RecordedSplit{}, plan.Stage{}, fmt.Errorf("dptest: %s has no outputs", r.names[0])
	case ny == 0:
		return RecordedSplit{}, plan.Stage{}, fmt.Errorf("dptest: %s has no outputs", r.names[1])
	case r.err != nil:
		return RecordedSplit{}, plan.Stage{}, r.err
	case max(nx, ny) > RecordedLengthRatio*min(nx, ny):
		return RecordedSplit{}, plan.Stage{}, fmt.Errorf("dptest: %s holds %d outputs and %s %d: the shorter must hold at least 1/%d of the longer's",
			r.names[0], nx, r.names[1], ny, RecordedLengthRatio)
	}
	used := min(nx, ny)
	sz, st, ok := r.splitOf(used)
	if !ok {
		return sz, st, fmt.Errorf("dptest: %d outputs per side are too few for an audit of recorded %s outputs: it needs at least %d", used, r.kind, r.leastUsed())
	}
	return sz, st, nil
}

// auditRecorded is the one path of every audit of recorded outputs: the
// plan, the split, the engine's runs of the claim on the split's source,
// the verdict.
func auditRecorded(rec Recorded, c plan.Claim, opts []Option) (Report, error) {
	rep := Report{Claim: Claim{Kind: c.Kind, Lambda: c.Lambda, Value: c.Eps}, Confidence: DefaultConfidence, unresolved: true}
	switch c.Kind {
	case plan.KindApproxDP:
		rep.Claim.Eps, rep.Claim.Value = c.Eps, c.Delta
	case plan.KindGDP:
		rep.Claim.Value = c.Mu
	}
	p, o, sz, err := recordedPlan(rec, c, opts)
	if err != nil {
		rep.err = err
		return rep, err
	}
	rep.Confidence, rep.Seed, rep.Details.Settings, rep.unresolved = p.Confidence, p.Seed, settingsOf(p), false
	rep.Details.Samples, rep.Details.ScreeningSamples = p.Confirmation.Samples, p.Screening.Samples
	rep.Details.Recorded = &sz
	roundOf := make(map[uint64]int)
	for _, r := range p.Runs {
		roundOf[search.ConfirmSeed(r.Seed, 0, 0)], roundOf[search.ConfirmSeed(r.Seed, 1, 0)] = 0, 1
	}
	src := sampler.Counting(rec.source(sz, p.Seed, roundOf), nil, 0)
	pair := fixtures.Pair[string]{X: sz.Names[0], Y: sz.Names[1]}
	cs := &candidates[string]{pairs: []fixtures.Pair[string]{pair}, drawn: make(map[uint64][]search.Input[string]), wideDrawn: make(map[uint64][]search.Input[string])}
	var logf func(string, ...any)
	if p.Verbose {
		logf = stderrLogger
	}
	now := time.Now()
	pr := &progress{calls: src.Calls, planned: int64(len(p.Runs)) * 2 * int64(sz.Selection+2*sz.Confirmation), start: now, last: now, logf: logf, tick: o.progress}
	rep, err = runAll(rep, src, p, cs, pr)
	rep.Calls = src.Calls()
	rep.err = blindError(err)
	rep.Verdict, rep.Reason = verdictOf(rep.violated, rep.err)
	searched := "the recordings X and Y"
	if sz.Names != [2]string{"X", "Y"} {
		searched = fmt.Sprintf("the recordings X=%s and Y=%s", sz.Names[0], sz.Names[1])
	}
	rep.Details.Searched = searched
	for i := range rep.Details.CrossChecks {
		rep.Details.CrossChecks[i].Details.Searched = searched
	}
	rep.Reach = rep.reach()
	rep.Details.Label = optionsOf(opts, "Label").label
	if dir := reportDirOf(opts); dir != "" {
		xs, ys := rec.firsts(PictureDraws)
		rep.drawn = &drawn{xs: xs, ys: ys, recorded: true}
		writeReport(dir, &rep)
	}
	return rep, rep.err
}

// AuditRecordedRDP audits the claim D_λ(M(X) ‖ M(Y)) ≤ ε, both
// directions, on outputs recorded elsewhere, with the statistics and
// verdicts of [AuditRDP]: the softmax-floored Rényi bound of [KAD24],
// its groups chosen on the selection draws and bounded on the two
// confirmation rounds (see [RecordedSplit]). Options: [Confidence],
// [Seed] (which shuffles the split), [Verbose], [Strict], [OnProgress].
// An error means the audit could not run: too few outputs per side (the
// least follows from [MinSamples] and the split; the error states it), a
// bad output, recordings of very unequal length ([RecordedLengthRatio]),
// a refused value or option.
func AuditRecordedRDP(rec Recorded, lambda, eps float64, opts ...Option) (Report, error) {
	return auditRecorded(rec, rdpClaim(lambda, eps), opts)
}

// AuditRecordedDP audits the pure ε-DP claim on outputs recorded
// elsewhere, as [AuditDP] does: the local audit of [AKD22] with its
// hockey-stick and Rényi cross-checks, each on the split of
// [AuditRecordedRDP].
func AuditRecordedDP(rec Recorded, eps float64, opts ...Option) (Report, error) {
	return auditRecorded(rec, dpClaim(eps), opts)
}

// AuditRecordedApproxDP audits the (ε, δ)-DP claim on outputs recorded
// elsewhere, as [AuditApproxDP] does ([KMRS24], Section 3), on the split
// of [AuditRecordedRDP]. With δ = 0 it is [AuditRecordedDP].
func AuditRecordedApproxDP(rec Recorded, eps, delta float64, opts ...Option) (Report, error) {
	return auditRecorded(rec, approxDPClaim(eps, delta), opts)
}

// AuditRecordedGDP audits the μ-Gaussian-DP claim on outputs recorded
// elsewhere, as [AuditGDP] does, on the split of [AuditRecordedRDP].
func AuditRecordedGDP(rec Recorded, mu float64, opts ...Option) (Report, error) {
	return auditRecorded(rec, gdpClaim(mu), opts)
}
