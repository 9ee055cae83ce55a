package dptestbeam

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/typex"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // the default Dir's files
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
)

func init() {
	register.DoFn2x0[beam.T, func(int, beam.T)](&pipelineTrialsFn{})
	register.Emitter2[int, beam.T]()
	register.Function2x2(pipelineLine)
}

// Pipeline is a DP aggregation written as a Beam transform, audited end
// to end as a mechanism: datasets of records of type R in, released
// outputs of type O out. Many trials run in one pipeline. Each record
// enters once per trial, keyed by the trial's index, and each released
// output leaves keyed by the trial it belongs to, in the spirit of
// Privacy on Beam's test modes.
//
// R and O must be types Beam can encode (register a struct with
// beam.RegisterType), and O must round-trip through encoding/json: its
// fields exported, its numbers finite.
//
// The zero Runner and ResultDir run the pipeline on Prism, the runner
// embedded in Beam's Go SDK, and write its outputs to a new local
// temporary directory, removed afterwards. Prism's first run sets
// process-wide options, so a test should not start its first pipelines
// from parallel goroutines. Another runner (beamx.Run with its flags, as
// for [Runner]) needs a ResultDir that its workers and this process both
// reach, such as gs://bucket/dir with Beam's gcs filesystem imported. The
// files written there are named uniquely for each run and left in place.
type Pipeline[R, O any] struct {
	// Transform applies the aggregation to records, a PCollection<KV<int,
	// R>> holding each record of a dataset once per trial, keyed by the
	// trial's index. It returns a PCollection<KV<int, O>> of the released
	// outputs, keyed by the trial they belong to. A trial is one run of
	// the mechanism: it must not mix records of two trials, and it should
	// draw its noise from a generator seeded by its index, so that runs
	// replay. The two datasets' trials have distinct indices, so their
	// noises are independent.
	Transform func(s beam.Scope, records beam.PCollection) beam.PCollection
	// Encode maps the outputs one trial released, in no given order and
	// none if it released nothing, to the output audited: a vector of the
	// same length for every trial, a real number if of length 1.
	Encode func(outs []O) ([]float64, error)
	// Runner runs the pipeline; nil runs it on Prism.
	Runner func(ctx context.Context, p *beam.Pipeline) error
	// ResultDir is where the outputs are written and read back, through
	// Beam's filesystems; "" is a new local temporary directory.
	ResultDir string
}

// PipelineTrials holds a pipeline's encoded outputs, one per trial: X's
// on the pair's X, Y's on its Y.
type PipelineTrials struct {
	X, Y [][]float64
}

// Recorded returns the trials as recorded outputs to audit: real ones if
// each output has one coordinate, vectors otherwise.
func (t PipelineTrials) Recorded() dptest.Recorded {
	if len(t.X) > 0 && len(t.X[0]) == 1 {
		return dptest.RecordedReal(pipelineFirsts(t.X), pipelineFirsts(t.Y))
	}
	return dptest.RecordedVectors(t.X, t.Y)
}

// pipelineFirsts returns the first coordinate of each vector.
func pipelineFirsts(vs [][]float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = v[0]
	}
	return out
}

// AuditPipelineDP runs trials of m on each dataset of pair
// ([RunPipelineTrials]) and audits the pure ε-DP claim on their outputs
// with [dptest.AuditRecordedDP], which takes opts. An error of the run is
// returned with a zero Report; otherwise the audit's report and error
// are, as dptest returns them (a suspect or unresolved audit has both).
// The audit needs several thousand trials per dataset; its error states
// the least. For other claims, audit [PipelineTrials.Recorded] with
// dptest's other recorded-output audits.
func AuditPipelineDP[R, O any](ctx context.Context, m Pipeline[R, O], pair fixtures.Pair[[]R], trials int, eps float64, opts ...dptest.Option) (dptest.Report, error) {
	tr, err := RunPipelineTrials(ctx, m, pair, trials)
	if err != nil {
		return dptest.Report{}, err
	}
	return dptest.AuditRecordedDP(tr.Recorded(), eps, opts...)
}

// AuditPipelineApproxDP is [AuditPipelineDP] for the (ε, δ)-DP claim,
// audited with [dptest.AuditRecordedApproxDP].
func AuditPipelineApproxDP[R, O any](ctx context.Context, m Pipeline[R, O], pair fixtures.Pair[[]R], trials int, eps, delta float64, opts ...dptest.Option) (dptest.Report, error) {
	tr, err := RunPipelineTrials(ctx, m, pair, trials)
	if err != nil {
		return dptest.Report{}, err
	}
	return dptest.AuditRecordedApproxDP(tr.Recorded(), eps, delta, opts...)
}

// RunPipelineTrials runs trials trials of m on each dataset of pair, in
// one pipeline, and returns each trial's encoded output. X's trials have
// the indices 0 to trials−1, Y's trials to 2·trials−1. The outputs
// are written through Beam's textio to m.ResultDir and read back. An error
// names what is wrong: fewer than one trial, datasets that are equal
// (neighbours differ in one privacy unit's records), a transform that
// panics or returns a collection not of KV<int, O>, a failed run, an
// output of a trial that had no records, or encodings of unequal length.
func RunPipelineTrials[R, O any](ctx context.Context, m Pipeline[R, O], pair fixtures.Pair[[]R], trials int) (PipelineTrials, error) {
	switch {
	case m.Transform == nil:
		return PipelineTrials{}, errors.New("dptestbeam: Pipeline needs a Transform")
	case m.Encode == nil:
		return PipelineTrials{}, errors.New("dptestbeam: Pipeline needs an Encode")
	case trials < 1:
		return PipelineTrials{}, fmt.Errorf("dptestbeam: trials must be ≥ 1, got %d", trials)
	case len(pair.X) == 0 && len(pair.Y) == 0, reflect.DeepEqual(pair.X, pair.Y):
		return PipelineTrials{}, errors.New("dptestbeam: the pair's datasets are equal; neighbours differ in one privacy unit's records")
	}
	dir, cleanup, err := pipelineDir(m.ResultDir)
	if err != nil {
		return PipelineTrials{}, err
	}
	defer cleanup()
	files := [2]string{dir + "/x.jsonl", dir + "/y.jsonl"}
	p, err := buildTrials(m, pair, trials, files)
	if err != nil {
		return PipelineTrials{}, err
	}
	if err := runPipeline(ctx, m.Runner, p); err != nil {
		return PipelineTrials{}, fmt.Errorf("dptestbeam: the pipeline failed: %w", err)
	}
	var out [2][][]float64
	for side := range files {
		outs, err := readTrials[O](ctx, files[side], side, trials)
		if err != nil {
			return PipelineTrials{}, err
		}
		if out[side], err = encodeTrials(m.Encode, outs, side); err != nil {
			return PipelineTrials{}, err
		}
	}
	if err := sameLength(out); err != nil {
		return PipelineTrials{}, err
	}
	return PipelineTrials{X: out[0], Y: out[1]}, nil
}

// pipelineDir returns the directory of a run's files and what removes
// them: a new local temporary directory for "", else a new name under
// dir, whose files are left.
func pipelineDir(dir string) (string, func(), error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "dptestbeam-*")
		if err != nil {
			return "", nil, fmt.Errorf("dptestbeam: %w", err)
		}
		return d, func() { os.RemoveAll(d) }, nil
	}
	return fmt.Sprintf("%s/dptestbeam-%016x", strings.TrimSuffix(dir, "/"), rand.Uint64()), func() {}, nil
}

// runPipeline runs p with run, or on Prism if run is nil.
func runPipeline(ctx context.Context, run func(context.Context, *beam.Pipeline) error, p *beam.Pipeline) error {
	if !beam.Initialized() {
		beam.Init()
	}
	if run == nil {
		_, err := prism.Execute(ctx, p)
		return err
	}
	return run(ctx, p)
}

// buildTrials builds the pipeline of both datasets' trials, each
// writing to its file a header line and a line per output.
func buildTrials[R, O any](m Pipeline[R, O], pair fixtures.Pair[[]R], trials int, files [2]string) (p *beam.Pipeline, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("dptestbeam: building the pipeline: %v", r)
		}
	}()
	p, root := beam.NewPipelineWithRoot()
	for side, data := range [2][]R{pair.X, pair.Y} {
		s := root.Scope([2]string{"X", "Y"}[side])
		records := beam.CreateList(s, data)
		keyed := beam.ParDo(s, &pipelineTrialsFn{First: side * trials, N: trials}, records)
		released := m.Transform(s, keyed)
		if err := checkReleased[O](released); err != nil {
			return nil, err
		}
		lines := beam.ParDo(s, pipelineLine, released)
		header := beam.Create(s, pipelineHeader(side, trials))
		textio.Write(s, files[side], beam.Flatten(s, header, lines))
	}
	return p, nil
}

// checkReleased checks that the transform returned a PCollection<KV<int, O>>.
func checkReleased[O any](c beam.PCollection) error {
	if !c.IsValid() {
		return errors.New("dptestbeam: the Transform returned an invalid PCollection")
	}
	t := c.Type()
	want := reflect.TypeFor[O]()
	if !typex.IsKV(t) || t.Components()[0].Type() != reflect.TypeFor[int]() || t.Components()[1].Type() != want {
		return fmt.Errorf("dptestbeam: the Transform returned a PCollection<%v>; it must return a PCollection<KV<int, %v>>", t, want)
	}
	return nil
}

// pipelineTrialsFn emits its record once per trial, keyed by the trial
// indices First to First+N−1.
type pipelineTrialsFn struct {
	First, N int
}

func (f *pipelineTrialsFn) ProcessElement(r beam.T, emit func(int, beam.T)) {
	for t := f.First; t < f.First+f.N; t++ {
		emit(t, r)
	}
}
