package dptestbeam

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // results on this machine
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/dptest/dptest/dptest"
)

// Sampler is a mechanism Beam workers can run: a struct type whose
// exported fields are all its parameters. Workers rebuild it from those
// fields, so unexported fields and closures cannot travel.
type Sampler[D any, O comparable] interface {
	Sample(r *rand.Rand, x D) O
}

// Register registers the Beam functions that draw M's outputs on datasets
// of type D. Call it in an init function of the package that defines M,
// so that every worker knows them, as Beam requires.
func Register[D any, O comparable, M Sampler[D, O]]() {
	register.DoFn1x2[blockRange, []byte, error](&drawFn[D, O, M]{})
	if key, ok := runtime.TypeKey(reflect.TypeFor[mergeFn[O]]()); !ok || !registered(key) {
		register.Combiner1[[]byte](&mergeFn[O]{}) // once per output type
	}
}

func init() {
	beam.RegisterType(reflect.TypeOf(blockRange{}))
	register.DoFn2x1[context.Context, []byte, error](&writeFn{})
}

// Real returns a mechanism with real outputs whose counting draws run on
// Beam: every screening's and confirmation's draws, in blocks merged by
// a CombineFn. Verdicts and bounds equal those of dptest.Continuous(m.Sample)
// for the same seed. Register[D, float64, M] must have been called.
func Real[D any, M Sampler[D, float64]](m M, opts ...Option) dptest.Mechanism[D] {
	ex := newExecutor[D, float64](m, opts)
	return dptest.DrawnElsewhere(dptest.Continuous(m.Sample), ex, ex.cfg.minBlocks)
}

// Discrete returns a mechanism with outputs of a comparable type O whose
// counting draws run on Beam, as [Real] does. Outputs travel with
// encoding/gob. Register[D, O, M] must have been called.
func Discrete[D any, O comparable, M Sampler[D, O]](m M, opts ...Option) dptest.Mechanism[D] {
	ex := newExecutor[D, O](m, opts)
	return dptest.DrawnElsewhere(dptest.Discrete(m.Sample), ex, ex.cfg.minBlocks)
}

// NewExecutor returns the Beam executor of m's draws, which Real and
// Discrete use, for dptest.DrawnElsewhere. An error of m or of the
// options is returned by every draw.
func NewExecutor[D any, O comparable, M Sampler[D, O]](m M, opts ...Option) dptest.Executor {
	return newExecutor[D, O](m, opts)
}

// Option configures where and how the draws run.
type Option func(*config)

type config struct {
	run           func(context.Context, *beam.Pipeline) error
	ctx           context.Context
	resultDir     string
	blocksPerElem int
	minBlocks     int
	tally         *Tally
}

// Tally counts what ran on Beam: pipelines, and blocks of draws.
type Tally struct{ Pipelines, Blocks atomic.Int64 }

// Counted adds each pipeline run and its blocks to t.
func Counted(t *Tally) Option { return func(c *config) { c.tally = t } }

// Defaults: how many blocks of draws one element of a pipeline makes (a
// block is dptest.BlockSize draws), and the fewest blocks a draw must
// span to run as a pipeline. Smaller draws cost less here than a
// pipeline's start.
const (
	DefaultBlocksPerElement = 1
	DefaultMinBlocks        = 4
)

// Runner runs each pipeline with run in place of Prism. For a runner
// elsewhere, run is typically beamx.Run with the runner's flags, and
// ResultDir names storage every worker and this process can reach.
func Runner(run func(context.Context, *beam.Pipeline) error) Option {
	return func(c *config) { c.run = run }
}

// ResultDir is where each pipeline writes its merged counts for this
// process to read: a local directory (the default, the system's temporary
// one) or, for a runner elsewhere, a path of a Beam filesystem (gs://…).
func ResultDir(dir string) Option { return func(c *config) { c.resultDir = dir } }

// BlocksPerElement sets how many blocks of draws each element makes.
func BlocksPerElement(k int) Option { return func(c *config) { c.blocksPerElem = k } }

// MinBlocks sets the fewest blocks a draw must span to run on Beam;
// smaller draws are made in this process.
func MinBlocks(k int) Option { return func(c *config) { c.minBlocks = k } }

// Context sets the context pipelines run under.
func Context(ctx context.Context) Option { return func(c *config) { c.ctx = ctx } }

func runOnPrism(ctx context.Context, p *beam.Pipeline) error {
	_, err := prism.Execute(ctx, p)
	return err
}

// executor runs a task's blocks as a Beam pipeline.
type executor[D any, O comparable, M Sampler[D, O]] struct {
	mech M
	cfg  config
	err  error // a construction error, returned by every draw
	runs atomic.Int64
}

func newExecutor[D any, O comparable, M Sampler[D, O]](m M, opts []Option) *executor[D, O, M] {
	cfg := config{run: runOnPrism, ctx: context.Background(), resultDir: os.TempDir(),
		blocksPerElem: DefaultBlocksPerElement, minBlocks: DefaultMinBlocks}
	for _, o := range opts {
		o(&cfg)
	}
	ex := &executor[D, O, M]{mech: m, cfg: cfg}
	ex.err = checkShippable[D, O, M](m, cfg)
	return ex
}

// checkShippable reports why m cannot run on workers, if it cannot.
func checkShippable[D any, O comparable, M Sampler[D, O]](m M, cfg config) error {
	t := reflect.TypeOf(m)
	if t == nil || t.Kind() != reflect.Struct {
		return fmt.Errorf("dptestbeam: a mechanism of type %v cannot be shipped to Beam workers: "+
			"write it as a struct type whose exported fields are its parameters, with a Sample method", t)
	}
	for i := range t.NumField() {
		if f := t.Field(i); !f.IsExported() {
			return fmt.Errorf("dptestbeam: field %s of %v is unexported, so workers would not get it: export it", f.Name, t)
		}
	}
	fn := reflect.TypeOf(drawFn[D, O, M]{})
	if key, ok := runtime.TypeKey(fn); !ok || !registered(key) {
		return fmt.Errorf("dptestbeam: call dptestbeam.Register[%v, %v, %v]() in an init function, so that workers can draw it",
			reflect.TypeFor[D](), reflect.TypeFor[O](), t)
	}
	if cfg.blocksPerElem < 1 || cfg.minBlocks < 1 {
		return fmt.Errorf("dptestbeam: BlocksPerElement and MinBlocks must be at least 1")
	}
	return nil
}

func registered(key string) bool {
	_, ok := runtime.LookupType(key)
	return ok
}

// Execute implements dptest.Executor: one pipeline per draw.
func (e *executor[D, O, M]) Execute(task []byte, first, last int) ([]byte, error) {
	if e.err != nil {
		return nil, e.err
	}
	if !beam.Initialized() {
		beam.Init()
	}
	p, s := beam.NewPipelineWithRoot()
	var elems []blockRange
	for lo := first; lo < last; lo += e.cfg.blocksPerElem {
		elems = append(elems, blockRange{First: lo, Last: min(lo+e.cfg.blocksPerElem, last)})
	}
	in := beam.Reshuffle(s, beam.CreateList(s, elems))
	counts := beam.ParDo(s, &drawFn[D, O, M]{Mech: e.mech, Task: task}, in)
	merged := beam.Combine(s, &mergeFn[O]{Task: task}, counts)
	path := filepath.Join(e.cfg.resultDir, fmt.Sprintf("dptestbeam-%d-%p-%d", os.Getpid(), e, e.runs.Add(1)))
	beam.ParDo0(s, &writeFn{Path: path}, merged)
	if err := e.cfg.run(e.cfg.ctx, p); err != nil {
		return nil, fmt.Errorf("the pipeline failed: %w", err)
	}
	if t := e.cfg.tally; t != nil {
		t.Pipelines.Add(1)
		t.Blocks.Add(int64(last - first))
	}
	fs, err := filesystem.New(e.cfg.ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	out, err := filesystem.Read(e.cfg.ctx, fs, path)
	if err != nil {
		return nil, fmt.Errorf("reading the pipeline's result: %w", err)
	}
	if r, ok := fs.(filesystem.Remover); ok {
		_ = r.Remove(e.cfg.ctx, path)
	}
	return out, nil
}

// blockRange is the blocks First to Last−1 of a task: one element.
type blockRange struct{ First, Last int }

// drawFn makes the blocks of each element with the mechanism.
type drawFn[D any, O comparable, M Sampler[D, O]] struct {
	Mech M
	Task []byte
}

func (f *drawFn[D, O, M]) ProcessElement(b blockRange) ([]byte, error) {
	return dptest.RunTask(f.Task, f.Mech.Sample, b.First, b.Last)
}

// mergeFn merges the elements' counts.
type mergeFn[O comparable] struct{ Task []byte }

func (f *mergeFn[O]) CreateAccumulator() []byte { return dptest.EmptyTaskResult() }

func (f *mergeFn[O]) AddInput(acc, in []byte) ([]byte, error) {
	return dptest.MergeTaskResults[O](f.Task, acc, in)
}

func (f *mergeFn[O]) MergeAccumulators(a, b []byte) ([]byte, error) {
	return dptest.MergeTaskResults[O](f.Task, a, b)
}

func (f *mergeFn[O]) ExtractOutput(acc []byte) []byte { return acc }

// writeFn writes the merged counts where the driver reads them.
type writeFn struct{ Path string }

func (f *writeFn) ProcessElement(ctx context.Context, data []byte) error {
	fs, err := filesystem.New(ctx, f.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	return filesystem.Write(ctx, fs, f.Path, data)
}
