// Command scale measures what a counting draw costs when it runs as an
// Apache Beam pipeline on Prism (issue 57, "Scale"), and models the time
// of one draw on many workers from the parts it measures.
//
// It has four parts (-part, comma-separated, or all):
//
//   - profile: the counting draws of default audits, made by an in-process
//     Executor that records each task (kind, blocks, cells) and times each
//     merge and decode on the audit's own results.
//   - components: a pipeline's fixed cost (a task of one call), the cost
//     of one block on a worker (dptest.RunTask), of each merge
//     (dptest.MergeTaskResults) as a worker folds 128 blocks, and of the
//     driver's decode.
//   - calls: calls per second of one draw of B blocks, in process
//     (sampler.Draw on 1 and 2 goroutines) and on Prism (GOMAXPROCS 1 and
//     2, Prism's bundle splitting on and off, 1 and 4 blocks an element),
//     for a slow mechanism (a busy loop of about 10 µs, then a Gaussian)
//     and a fast one (the Gaussian), counted as a confirmation counts
//     (groups of cells) and, for the Gaussian, as a screening does
//     (cells with tails).
//   - audit: one default audit in process and with dptestbeam.Real on
//     Prism, each pipeline of the library timed through its Runner option.
//
// The model at the end uses the figures of components and profile from
// the same run.
//
// dptestbeam's executor is not exported, and dptest has no exported entry
// that makes one draw. So the calls and components parts run a copy of
// the pipeline of beam/draws.go as of 497c557 (mirrorExec: the same
// transforms in the same order, the same calls of dptest.RunTask and
// dptest.MergeTaskResults), on tasks made by the sampler itself. The audit
// part runs the library's own pipelines, to check that the copy costs
// what they cost.
//
//	cd beam && go run ./internal/experiments/scale -reps 3
package main

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	dptestbeam "github.com/dptest/dptest/beam"
	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
	"github.com/dptest/dptest/mechanisms"
)

// Busy is a slow mechanism: Iters rounds of integer work that ignore r,
// then a Gaussian of deviation Sigma added to the sum of x.
type Busy struct {
	Iters int
	Sigma float64
}

func (m Busy) Sample(r *rand.Rand, x []float64) float64 {
	h := uint64(m.Iters)
	for i := 0; i < m.Iters; i++ {
		h = h*6364136223846793005 + 1442695040888963407
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	// h's top bit shifts the output by at most 1e-300: it keeps the loop.
	return s + m.Sigma*r.NormFloat64() + float64(h>>63)*1e-300
}

type realMech interface {
	Sample(r *rand.Rand, x []float64) float64
}

func init() {
	beamlog.LogLevel = "warn" // Prism logs every pipeline at level info
	dptestbeam.Register[[]float64, float64, Busy]()
	dptestbeam.Register[[]float64, float64, mechanisms.Gaussian]()
	beam.RegisterType(reflect.TypeOf(blockRange{}))
	register.DoFn1x2[blockRange, []byte, error](&drawFn[Busy]{})
	register.DoFn1x2[blockRange, []byte, error](&drawFn[mechanisms.Gaussian]{})
	register.Combiner1[[]byte](&mergeFn{})
	register.DoFn2x1[context.Context, []byte, error](&writeFn{})
}

// ---- The copy of beam/draws.go's pipeline, with probes ----

// probe counts, across the process, what the copied pipeline's workers
// did. Pipelines run one at a time here, so each run resets it.
var probe struct {
	bundles, elems, inflight, maxInflight atomic.Int64
	elemNanos, merges, mergeNanos         atomic.Int64
	first, last                           atomic.Int64 // unix nanos: first element's start, last one's end
}

func resetProbe() {
	for _, a := range []*atomic.Int64{&probe.bundles, &probe.elems, &probe.inflight, &probe.maxInflight,
		&probe.elemNanos, &probe.merges, &probe.mergeNanos, &probe.last} {
		a.Store(0)
	}
	probe.first.Store(math.MaxInt64)
}

type blockRange struct{ First, Last int }

type drawFn[M realMech] struct {
	Mech M
	Task []byte
}

func (f *drawFn[M]) StartBundle() { probe.bundles.Add(1) }

func (f *drawFn[M]) ProcessElement(b blockRange) ([]byte, error) {
	t0 := time.Now()
	for v := t0.UnixNano(); ; {
		old := probe.first.Load()
		if v >= old || probe.first.CompareAndSwap(old, v) {
			break
		}
	}
	in := probe.inflight.Add(1)
	for {
		old := probe.maxInflight.Load()
		if in <= old || probe.maxInflight.CompareAndSwap(old, in) {
			break
		}
	}
	out, err := dptest.RunTask(f.Task, f.Mech.Sample, b.First, b.Last)
	probe.inflight.Add(-1)
	end := time.Now()
	probe.elems.Add(1)
	probe.elemNanos.Add(int64(end.Sub(t0)))
	for v := end.UnixNano(); ; {
		old := probe.last.Load()
		if v <= old || probe.last.CompareAndSwap(old, v) {
			break
		}
	}
	return out, err
}

type mergeFn struct{ Task []byte }

func (f *mergeFn) CreateAccumulator() []byte { return dptest.EmptyTaskResult() }

func (f *mergeFn) merge(a, b []byte) ([]byte, error) {
	t0 := time.Now()
	out, err := dptest.MergeTaskResults[float64](f.Task, a, b)
	probe.merges.Add(1)
	probe.mergeNanos.Add(int64(time.Since(t0)))
	return out, err
}

func (f *mergeFn) AddInput(acc, in []byte) ([]byte, error)       { return f.merge(acc, in) }
func (f *mergeFn) MergeAccumulators(a, b []byte) ([]byte, error) { return f.merge(a, b) }
func (f *mergeFn) ExtractOutput(acc []byte) []byte               { return acc }

type writeFn struct{ Path string }

func (f *writeFn) ProcessElement(ctx context.Context, data []byte) error {
	fs, err := filesystem.New(ctx, f.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	return filesystem.Write(ctx, fs, f.Path, data)
}

// mirrorExec is dptestbeam's executor as of beam/draws.go: one pipeline a
// draw, perElem blocks an element, Reshuffle, a ParDo of RunTask, a
// Combine of MergeResults, the merged result written to a file and read.
type mirrorExec[M realMech] struct {
	mech    M
	perElem int
}

// pipelineRuns numbers the copy's pipelines, for their result files.
var pipelineRuns atomic.Int64

// phases of one Execute: building the pipeline, running it, reading its
// result; and what the probe saw.
type phases struct {
	build, run, read              time.Duration
	cpu                           time.Duration // the process's user and system time during the draw
	bundles, elems, maxInflight   int64
	elemTime, mergeTime, elemSpan time.Duration
	merges                        int64
}

func (p phases) total() time.Duration { return p.build + p.run + p.read }

func (e *mirrorExec[M]) execute(task []byte, first, last int) ([]byte, phases, error) {
	var ph phases
	if !beam.Initialized() {
		beam.Init()
	}
	resetProbe()
	cpu0 := cpuTime()
	t0 := time.Now()
	p, s := beam.NewPipelineWithRoot()
	var elems []blockRange
	for lo := first; lo < last; lo += e.perElem {
		elems = append(elems, blockRange{First: lo, Last: min(lo+e.perElem, last)})
	}
	in := beam.Reshuffle(s, beam.CreateList(s, elems))
	counts := beam.ParDo(s, &drawFn[M]{Mech: e.mech, Task: task}, in)
	merged := beam.Combine(s, &mergeFn{Task: task}, counts)
	path := filepath.Join(os.TempDir(), fmt.Sprintf("scale-%d-%d", os.Getpid(), pipelineRuns.Add(1)))
	beam.ParDo0(s, &writeFn{Path: path}, merged)
	t1 := time.Now()
	ctx := context.Background()
	if _, err := prism.Execute(ctx, p); err != nil {
		return nil, ph, err
	}
	t2 := time.Now()
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, ph, err
	}
	defer fs.Close()
	out, err := filesystem.Read(ctx, fs, path)
	if err != nil {
		return nil, ph, err
	}
	if r, ok := fs.(filesystem.Remover); ok {
		_ = r.Remove(ctx, path)
	}
	t3 := time.Now()
	ph = phases{build: t1.Sub(t0), run: t2.Sub(t1), read: t3.Sub(t2), cpu: cpuTime() - cpu0,
		bundles: probe.bundles.Load(), elems: probe.elems.Load(), maxInflight: probe.maxInflight.Load(),
		elemTime: time.Duration(probe.elemNanos.Load()), mergeTime: time.Duration(probe.mergeNanos.Load()),
		merges: probe.merges.Load()}
	if l := probe.last.Load(); l > 0 {
		ph.elemSpan = time.Duration(l - probe.first.Load())
	}
	return out, ph, nil
}

// ---- Tasks and results, read with gob by field name ----

// taskView is the part of sampler's task this program reads.
type taskView struct {
	N, First, Blocks int
	Data             []byte
	Spec             struct {
		Stat       string
		Partitions []stat.PartitionState
		Keep       int
		Groupings  []struct{ Groups int }
	}
}

// resultView mirrors sampler's result field by field, so that decoding
// into it does the driver's work.
type resultView struct {
	Empty     bool
	Calls     int64
	Failed    bool
	FailIndex int64
	FailCause string
	Counts    stat.CountsState
	NoValues  bool
	Values    []byte
	ValuesN   int64
	Groups    [][]int64
	GroupsN   int64
}

func gobDecode(data []byte, v any) error { return gob.NewDecoder(bytes.NewReader(data)).Decode(v) }

func viewTask(task []byte) taskView {
	var t taskView
	if err := gobDecode(task, &t); err != nil {
		panic(err)
	}
	return t
}

// describe is a task's kind and size: its statistic, cells, groups.
func describe(task []byte) string {
	t := viewTask(task)
	cells := 0
	for _, p := range t.Spec.Partitions {
		cells += len(p.Bounds) + 1
	}
	groups := 0
	for _, g := range t.Spec.Groupings {
		groups += g.Groups
	}
	s := t.Spec.Stat
	if cells > 0 {
		s += fmt.Sprintf(" %d cells", cells)
	}
	if t.Spec.Keep > 0 {
		s += fmt.Sprintf(" keep %d", t.Spec.Keep)
	}
	if groups > 0 {
		s += fmt.Sprintf(" %d groupings %d groups", len(t.Spec.Groupings), groups)
	}
	return s
}

// capture is an Executor that keeps the first task it is sent and fails
// the draw, which ends the sampler's call there.
type capture struct{ task []byte }

var errCaptured = errors.New("captured")

func (c *capture) Execute(task []byte, first, last int) ([]byte, error) {
	if c.task == nil {
		c.task = task
	}
	return nil, errCaptured
}

// drawCase is one counting draw: its task as sampler encodes it, and the
// same draw made here by sampler.Draw on a given number of goroutines.
type drawCase struct {
	task []byte
	here func(workers int) error
}

// realTask is the X side of a screening of n real outputs of m per side
// on x and y: counts in a partition fixed on a pilot, tails kept (the
// statistic "counts"), the pilot an audit's stage of n has.
func realTask(m realMech, x, y []float64, n int, seed uint64) drawCase {
	c := &capture{}
	src, err := sampler.DrawnElsewhere(sampler.Real(m.Sample), sampler.Elsewhere{Executor: c, MinBlocks: 1})
	if err != nil {
		panic(err)
	}
	_, err = src.Sample(seed, x, y, n, plan.StageOf(n).Pilot)
	if !errors.Is(err, errCaptured) || c.task == nil {
		panic(fmt.Sprintf("no task captured: %v", err))
	}
	t := viewTask(c.task)
	part, err := stat.PartitionFrom(t.Spec.Partitions[0])
	if err != nil {
		panic(err)
	}
	return drawCase{c.task, func(w int) error {
		_, err := sampler.Draw(sampler.Stream{Seed: seed, ID: 7, Workers: w}, t.N,
			func(r *rand.Rand) float64 { return m.Sample(r, x) }, stat.CheckFinite,
			func() *stat.PartitionCounts { return stat.NewTailCounts(part, t.Spec.Keep) })
		return err
	}}
}

// groupsTask is the X side of a confirmation of n real outputs of m per
// side: counts of one grouping of the cells of a partition fixed on a
// pilot, each cell its own group (the statistic "groups").
func groupsTask(m realMech, x, y []float64, n int, seed uint64) drawCase {
	r := rand.New(rand.NewPCG(seed, 99))
	pilot := plan.StageOf(n).Pilot
	pooled := make([]float64, 0, 2*pilot)
	for range pilot {
		pooled = append(pooled, m.Sample(r, x), m.Sample(r, y))
	}
	part := stat.PartitionOf(pooled)
	of := make([]int, part.Cells())
	for i := range of {
		of[i] = i
	}
	gs := []stat.Grouping{{Groups: part.Cells(), Partition: part, OfCell: of}}
	c := &capture{}
	src, err := sampler.DrawnElsewhere(sampler.Real(m.Sample), sampler.Elsewhere{Executor: c, MinBlocks: 1})
	if err != nil {
		panic(err)
	}
	_, _, err = src.Count(seed, x, y, 0, n, gs)
	if !errors.Is(err, errCaptured) || c.task == nil {
		panic(fmt.Sprintf("no task captured: %v", err))
	}
	newCounts, err := stat.NewGroupCounts[float64](gs)
	if err != nil {
		panic(err)
	}
	return drawCase{c.task, func(w int) error {
		_, err := sampler.Draw(sampler.Stream{Seed: seed, ID: 7, Workers: w}, n,
			func(r *rand.Rand) float64 { return m.Sample(r, x) }, stat.CheckFinite, newCounts)
		return err
	}}
}

// ---- The profile: an in-process Executor that records ----

type drawRecord struct {
	kind        string
	first, last int
	took        time.Duration // the whole Execute here (2 goroutines)
	merges      []time.Duration
	decode      time.Duration
	resultBytes int
	blockBytes  int // the first block's result
	task        []byte
}

// recorder makes each task's blocks here, one dptest.RunTask a block on
// GOMAXPROCS goroutines, and merges them in order, timing each merge.
type recorder[D any, O comparable] struct {
	f     func(*rand.Rand, D) O
	mu    sync.Mutex // an audit runs two samplings at once
	draws []drawRecord
}

func (rec *recorder[D, O]) Execute(task []byte, first, last int) ([]byte, error) {
	t0 := time.Now()
	res := make([][]byte, last-first)
	errs := make([]error, last-first)
	var next atomic.Int64
	next.Store(int64(first))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				b := int(next.Add(1) - 1)
				if b >= last {
					return
				}
				res[b-first], errs[b-first] = dptest.RunTask(task, rec.f, b, b+1)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	d := drawRecord{kind: describe(task), first: first, last: last, task: task, blockBytes: len(res[0])}
	acc := dptest.EmptyTaskResult()
	for i, r := range res {
		m0 := time.Now()
		var err error
		if acc, err = dptest.MergeTaskResults[O](task, acc, r); err != nil {
			return nil, err
		}
		if i > 0 { // the first merge is into the empty result
			d.merges = append(d.merges, time.Since(m0))
		}
	}
	d.took = time.Since(t0)
	d.resultBytes = len(acc)
	d0 := time.Now()
	var v resultView
	if err := gobDecode(acc, &v); err != nil {
		return nil, err
	}
	d.decode = time.Since(d0)
	rec.mu.Lock()
	rec.draws = append(rec.draws, d)
	rec.mu.Unlock()
	return acc, nil
}

// ---- Helpers ----

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func medianF(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return math.NaN()
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:3], " ")
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			return strings.TrimSpace(strings.SplitN(l, ":", 2)[1])
		}
	}
	return "?"
}

func header(name string) {
	fmt.Printf("\n## %s  (%s, load %s)\n\n", name, time.Now().UTC().Format(time.RFC3339), loadavg())
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", d.Seconds()*1e3) }
func us(d time.Duration) string { return fmt.Sprintf("%.1f", d.Seconds()*1e6) }
func human(d time.Duration) string {
	switch s := d.Seconds(); {
	case s < 1:
		return fmt.Sprintf("%.0f ms", s*1e3)
	case s < 120:
		return fmt.Sprintf("%.1f s", s)
	case s < 7200:
		return fmt.Sprintf("%.1f min", s/60)
	default:
		return fmt.Sprintf("%.1f h", s/3600)
	}
}

// perCall times the mechanism on one goroutine, 5 runs of n calls: the
// fastest run's time a call, and the median run's.
func perCall(m realMech, x []float64, n int) (fastest, med time.Duration) {
	r := rand.New(rand.NewPCG(1, 2))
	var ds []time.Duration
	for range 5 {
		t0 := time.Now()
		s := 0.0
		for range n {
			s += m.Sample(r, x)
		}
		ds = append(ds, time.Since(t0)/time.Duration(n))
		if math.IsNaN(s) {
			panic("NaN")
		}
	}
	return slices.Min(ds), median(ds)
}

// calibrate returns Iters for a Busy call of about target on one
// goroutine, from the fastest of several runs (the machine is shared).
func calibrate(target time.Duration, x []float64) int {
	iters := 1000
	for range 4 {
		c, _ := perCall(Busy{Iters: iters, Sigma: 1}, x, 2000)
		iters = max(1, int(float64(iters)*float64(target)/float64(c)))
	}
	return iters
}

// inProcess times the draw made here by sampler.Draw on w goroutines,
// GOMAXPROCS w: the draw an audit makes without an executor.
func inProcess(dc drawCase, w int) (wall, cpu time.Duration) {
	prev := runtime.GOMAXPROCS(w)
	defer runtime.GOMAXPROCS(prev)
	c0 := cpuTime()
	t0 := time.Now()
	if err := dc.here(w); err != nil {
		panic(err)
	}
	return time.Since(t0), cpuTime() - c0
}

// prismConfig is how Prism runs one draw.
type prismConfig struct {
	name    string
	procs   int
	noSplit bool
	perElem int
	inProc  bool // sampler.Draw on procs goroutines instead
}

func (c prismConfig) apply() func() {
	prev := runtime.GOMAXPROCS(c.procs)
	prevExp := *jobopts.Experiments
	if c.noSplit {
		*jobopts.Experiments = "prism_disable_sdf_split"
	}
	return func() { runtime.GOMAXPROCS(prev); *jobopts.Experiments = prevExp }
}

func onPrism[M realMech](m M, task []byte, c prismConfig) (phases, error) {
	defer c.apply()()
	t := viewTask(task)
	ex := &mirrorExec[M]{mech: m, perElem: c.perElem}
	_, ph, err := ex.execute(task, t.First, t.First+t.Blocks)
	return ph, err
}

// ---- Parts ----

var (
	reps       = flag.Int("reps", 3, "runs of each configuration (medians reported)")
	parts      = flag.String("part", "all", "parts to run: profile, calls, components, audit, or all")
	blocks     = flag.String("blocks", "8,32,128", "draw sizes in blocks for the calls part")
	target     = flag.Duration("slow", 10*time.Microsecond, "the slow mechanism's time a call")
	cases      = flag.String("cases", "slow,gauss-groups,gauss-counts", "the calls part's cases")
	quick      = flag.Bool("quick", false, "fewer configurations (a smoke run)")
	cpuProfile = flag.String("cpuprofile", "", "write a CPU profile to this file")
	itersFlag  = flag.Int("iters", 9100, "the slow mechanism's Iters (9100: about 10 µs a call here, 2026-12-08; 0: calibrate to -slow now)")
)

// measured holds what the parts measure, for the model.
var measured struct {
	start, startP1             time.Duration // a pipeline of one draw, GOMAXPROCS 2 and 1
	blockCounts, blockGroups   time.Duration // RunTask of one block of the Gaussian, one goroutine
	drawGauss, drawGaussGroups time.Duration // sampler.Draw of one block of the Gaussian into the same statistics
	blockBusy                  time.Duration // RunTask of one block of the slow mechanism
	countsSeries, groupsSeries []seriesPoint
	prismSlope                 map[string]time.Duration // a block's time on Prism, one after another
	merge, decode              map[string]time.Duration
	mergeAll, decodeAll        map[string][]time.Duration
	pipelinesPerAudit          int
	drawsPerAudit              []int // blocks of each counting draw
	auditDraws                 []struct{ from, n int }
	busyCall, gaussCall        time.Duration
	prism128                   map[string]time.Duration // a draw of 128 blocks on Prism, GOMAXPROCS 2, one block an element
}

var x0, y0 = []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, []float64{1, 0, 0, 0, 0, 0, 0, 0, 0, 0}

func main() {
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			panic(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			panic(err)
		}
		defer pprof.StopCPUProfile()
	}
	measured.merge = map[string]time.Duration{}
	measured.decode = map[string]time.Duration{}
	measured.mergeAll = map[string][]time.Duration{}
	measured.decodeAll = map[string][]time.Duration{}
	measured.prismSlope = map[string]time.Duration{}
	measured.prism128 = map[string]time.Duration{}
	host, _ := os.Hostname()
	fmt.Printf("# scale: %s, %d CPUs (%s), Go %s, GOMAXPROCS %d, host %s\n", time.Now().UTC().Format(time.RFC3339),
		runtime.NumCPU(), cpuModel(), runtime.Version(), runtime.GOMAXPROCS(0), host)
	fmt.Printf("# command: scale %s\n", strings.Join(os.Args[1:], " "))
	run := func(p string) bool { return *parts == "all" || slices.Contains(strings.Split(*parts, ","), p) }
	iters := *itersFlag
	if iters == 0 {
		iters = calibrate(*target, x0)
	}
	busy := Busy{Iters: iters, Sigma: 1}
	bFast, bMed := perCall(busy, x0, 5000)
	measured.busyCall = bMed
	gauss := mechanisms.Gaussian{Sigma: 1}
	gFast, gMed := perCall(gauss, x0, 1<<20)
	measured.gaussCall = gMed
	fmt.Printf("# slow mechanism: Busy{Iters: %d}, %s µs a call (fastest of 5 runs %s µs); Gaussian %.0f ns a call (fastest %.0f ns); one goroutine\n",
		iters, us(bMed), us(bFast), gMed.Seconds()*1e9, gFast.Seconds()*1e9)
	if run("profile") {
		profile()
	}
	if run("components") {
		components(busy, gauss)
	}
	if run("calls") {
		calls(busy, gauss)
	}
	if run("audit") {
		audit(gauss)
	}
	model()
}

func profile() {
	header("profile: the counting draws of default audits (in-process executor, 2 goroutines)")
	gauss := mechanisms.Gaussian{Sigma: 1}
	dl := mechanisms.DiscreteLaplace{B: 40, Sensitivity: 1}
	gr := &recorder[[]float64, float64]{f: gauss.Sample}
	dr := &recorder[int64, int64]{f: dl.Sample}
	type auditRun struct {
		name    string
		typical bool // the model's typical audit
		rec     interface{ records() []drawRecord }
		run     func() (dptest.Report, error)
	}
	runs := []auditRun{
		{"AuditRDP, Gaussian σ=1, λ=2, at its exact RDP, seed 1", true, recs[[]float64, float64]{gr}, func() (dptest.Report, error) {
			return dptest.AuditRDP(dptest.DrawnElsewhere(dptest.Continuous(gauss.Sample), gr, 1), 2, gauss.RDP(2), dptest.Seed(1))
		}},
		{"AuditRDP, discrete Laplace b=40, λ=2, at its exact RDP, pair (1, 0), seed 1", false, recs[int64, int64]{dr}, func() (dptest.Report, error) {
			m := dptest.Discrete(dl.Sample).WithPairs(fixtures.Pair[int64]{X: 1, Y: 0})
			return dptest.AuditRDP(dptest.DrawnElsewhere(m, dr, 1), 2, dl.RDP(2), dptest.Seed(1))
		}},
	}
	for _, a := range runs {
		t0 := time.Now()
		rep, err := a.run()
		took := time.Since(t0)
		ds := a.rec.records()
		verdict := fmt.Sprint(rep.Verdict)
		if err != nil {
			verdict = "error: " + err.Error()
		}
		total, atLeast4, blocks4 := 0, 0, 0
		for _, d := range ds {
			b := d.last - d.first
			total += b
			if b >= dptestbeam.DefaultMinBlocks {
				atLeast4++
				blocks4 += b
			}
		}
		fmt.Printf("%s: %s, %d calls, %s here.\n%d counting draws, %d blocks; %d draws of ≥ %d blocks (dptestbeam's default MinBlocks), %d blocks.\n\n",
			a.name, verdict, rep.Calls, human(took), len(ds), total, atLeast4, dptestbeam.DefaultMinBlocks, blocks4)
		type group struct {
			draws, blocks          int
			blockKB, mergedKB      []float64
			merges, decodes, heres []time.Duration
		}
		groups := map[string]*group{}
		var keys []string
		for _, d := range ds {
			b := d.last - d.first
			k := fmt.Sprintf("%s | %d", d.kind, b)
			g := groups[k]
			if g == nil {
				g = &group{}
				groups[k] = g
				keys = append(keys, k)
			}
			g.draws++
			g.blocks += b
			g.blockKB = append(g.blockKB, float64(d.blockBytes)/1024)
			g.mergedKB = append(g.mergedKB, float64(d.resultBytes)/1024)
			g.merges = append(g.merges, d.merges...)
			g.decodes = append(g.decodes, d.decode)
			g.heres = append(g.heres, d.took)
			kind := strings.Fields(d.kind)[0]
			if a.typical || measured.merge[kind] == 0 {
				measured.mergeAll[kind] = append(measured.mergeAll[kind], d.merges...)
				measured.decodeAll[kind] = append(measured.decodeAll[kind], d.decode)
			}
			if a.typical {
				measured.drawsPerAudit = append(measured.drawsPerAudit, b)
				t := viewTask(d.task)
				measured.auditDraws = append(measured.auditDraws, struct{ from, n int }{t.First * sampler.BlockSize, t.N})
			}
		}
		slices.Sort(keys)
		fmt.Println("| statistic | blocks a draw | draws | result KB, one block / merged | merge µs | decode µs | here ms |")
		fmt.Println("|---|---|---|---|---|---|---|")
		for _, k := range keys {
			g := groups[k]
			mg := "–"
			if len(g.merges) > 0 {
				mg = us(median(g.merges))
			}
			fmt.Printf("| %s | %d | %.1f / %.1f | %s | %s | %s |\n", k, g.draws, medianF(g.blockKB), medianF(g.mergedKB),
				mg, us(median(g.decodes)), ms(median(g.heres)))
		}
		fmt.Println()
	}
	for k, v := range measured.mergeAll {
		measured.merge[k] = median(v)
		measured.decode[k] = median(measured.decodeAll[k])
	}
	measured.pipelinesPerAudit = len(measured.drawsPerAudit)
	fmt.Println("Medians over the draws of the typical audit (the Gaussian's; other kinds from the second audit):")
	for _, k := range slices.Sorted(maps.Keys(measured.merge)) {
		fmt.Printf("%s: merge %s µs (of %d), decode %s µs; ", k, us(measured.merge[k]), len(measured.mergeAll[k]), us(measured.decode[k]))
	}
	fmt.Println()
}

type recs[D any, O comparable] struct{ r *recorder[D, O] }

func (r recs[D, O]) records() []drawRecord { return r.r.draws }

// seriesPoint is one merge of a block's result into the merge of k−1
// blocks' results (dptest.MergeTaskResults), and the driver's decode of the
// merge of k.
type seriesPoint struct {
	k             int
	merge, decode time.Duration
	bytes         int
}

// mergeSeries folds the results of the task's blocks one by one, as a
// worker folds its elements' results, timing each merge (median of 3)
// and the driver's decode of the merge of k (at k = 2, 4, 8, … and the
// last, median of 5; interpolated between).
func mergeSeries(task []byte, f func(*rand.Rand, []float64) float64) []seriesPoint {
	t := viewTask(task)
	acc := dptest.EmptyTaskResult()
	var out []seriesPoint
	for b := t.First; b < t.First+t.Blocks; b++ {
		r, err := dptest.RunTask(task, f, b, b+1)
		if err != nil {
			panic(err)
		}
		k := b - t.First + 1
		var ds []time.Duration
		var next []byte
		for range 3 {
			t0 := time.Now()
			next, err = dptest.MergeTaskResults[float64](task, acc, r)
			ds = append(ds, time.Since(t0))
			if err != nil {
				panic(err)
			}
		}
		acc = next
		if k < 2 {
			continue
		}
		p := seriesPoint{k: k, merge: median(ds), bytes: len(acc), decode: -1}
		if k&(k-1) == 0 || k == t.Blocks {
			var dec []time.Duration
			for range 5 {
				var v resultView
				t0 := time.Now()
				if err := gobDecode(acc, &v); err != nil {
					panic(err)
				}
				dec = append(dec, time.Since(t0))
			}
			p.decode = median(dec)
		}
		out = append(out, p)
	}
	// Decodes between the timed ones: interpolated in the result's size.
	for i := range out {
		if out[i].decode >= 0 {
			continue
		}
		lo, hi := i, i
		for lo > 0 && out[lo].decode < 0 {
			lo--
		}
		for hi < len(out)-1 && out[hi].decode < 0 {
			hi++
		}
		a, b := out[lo], out[hi]
		if a.bytes == b.bytes {
			out[i].decode = a.decode
			continue
		}
		x := math.Max(0, math.Min(1, float64(out[i].bytes-a.bytes)/float64(b.bytes-a.bytes)))
		out[i].decode = a.decode + time.Duration(x*float64(b.decode-a.decode))
	}
	return out
}

// at interpolates a series linearly in k, flat beyond its ends.
func at(series []seriesPoint, k int, f func(seriesPoint) time.Duration) time.Duration {
	if len(series) == 0 {
		return 0
	}
	if k <= series[0].k {
		return f(series[0])
	}
	for i := 1; i < len(series); i++ {
		if k <= series[i].k {
			a, b := series[i-1], series[i]
			x := float64(k-a.k) / float64(b.k-a.k)
			return f(a) + time.Duration(x*float64(f(b)-f(a)))
		}
	}
	return f(series[len(series)-1])
}

func components(busy Busy, gauss mechanisms.Gaussian) {
	header("components")
	// A pipeline's fixed cost: one block of one draw.
	tiny := realTask(gauss, x0, y0, 1, 1)
	fmt.Println("| pipeline of one draw of one call | median ms | build | run | read | process CPU ms | min | max | runs |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, procs := range []int{2, 1} {
		var tot, build, run, read, cpu []time.Duration
		for range max(5, 3**reps) {
			ph, err := onPrism(gauss, tiny.task, prismConfig{procs: procs, perElem: 1})
			if err != nil {
				panic(err)
			}
			tot, build, run, read = append(tot, ph.total()), append(build, ph.build), append(run, ph.run), append(read, ph.read)
			cpu = append(cpu, ph.cpu)
		}
		fmt.Printf("| GOMAXPROCS %d | %s | %s | %s | %s | %s | %s | %s | %d |\n",
			procs, ms(median(tot)), ms(median(build)), ms(median(run)), ms(median(read)), ms(median(cpu)), ms(slices.Min(tot)), ms(slices.Max(tot)), len(tot))
		if procs == 2 {
			measured.start = median(tot)
		} else {
			measured.startP1 = median(tot)
		}
	}
	// Two at once, as an audit runs its two samplings.
	restore := prismConfig{procs: 2}.apply()
	var both []time.Duration
	for range max(5, 3**reps) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for range 2 {
			wg.Go(func() {
				ex := &mirrorExec[mechanisms.Gaussian]{mech: gauss, perElem: 1}
				t0 := time.Now()
				if _, _, err := ex.execute(tiny.task, 0, 1); err != nil {
					panic(err)
				}
				mu.Lock()
				both = append(both, time.Since(t0))
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	restore()
	fmt.Printf("| two at once, GOMAXPROCS 2 (each) | %s | | | | | %s | %s | %d |\n", ms(median(both)), ms(slices.Min(both)), ms(slices.Max(both)), len(both))

	// One block on a worker: RunTask against the draws alone.
	const nb = 128
	counts := realTask(gauss, x0, y0, nb*sampler.BlockSize, 1)
	groups := groupsTask(gauss, x0, y0, nb*sampler.BlockSize, 1)
	fmt.Println()
	fmt.Println("One block (8192 calls) on one goroutine, medians of 16 blocks; the task's decode, medians of 50:")
	fmt.Println()
	fmt.Println("| mechanism, statistic | task bytes | RunTask ms | sampler.Draw ms | task decode µs |")
	fmt.Println("|---|---|---|---|---|")
	type blockCase struct {
		name string
		m    realMech
		dc   drawCase
		runs int
	}
	bcs := []blockCase{
		{"Gaussian, " + describe(counts.task), gauss, counts, 16},
		{"Gaussian, " + describe(groups.task), gauss, groups, 16},
		{"slow, " + describe(groups.task), busy, groupsTask(busy, x0, y0, 4*sampler.BlockSize, 1), 4},
	}
	for i, bc := range bcs {
		var rt, dr, dec []time.Duration
		for b := range bc.runs {
			t0 := time.Now()
			if _, err := dptest.RunTask(bc.dc.task, bc.m.Sample, b, b+1); err != nil {
				panic(err)
			}
			rt = append(rt, time.Since(t0))
		}
		one := bc.dc
		t := viewTask(one.task)
		for range bc.runs {
			// One block's worth: a draw of 8192 on one goroutine.
			var dc drawCase
			if i == 0 {
				dc = drawCaseOfN(bc.m, t, sampler.BlockSize, true)
			} else {
				dc = drawCaseOfN(bc.m, t, sampler.BlockSize, false)
			}
			t0 := time.Now()
			if err := dc.here(1); err != nil {
				panic(err)
			}
			dr = append(dr, time.Since(t0))
		}
		for range 50 {
			t0 := time.Now()
			_ = viewTask(one.task)
			dec = append(dec, time.Since(t0))
		}
		fmt.Printf("| %s | %d | %.2f | %.2f | %s |\n", bc.name, len(one.task), median(rt).Seconds()*1e3, median(dr).Seconds()*1e3, us(median(dec)))
		switch i {
		case 0:
			measured.blockCounts, measured.drawGauss = median(rt), median(dr)
		case 1:
			measured.blockGroups, measured.drawGaussGroups = median(rt), median(dr)
		case 2:
			measured.blockBusy = median(rt)
		}
	}

	// Merges: a worker folding its blocks' results one by one.
	fmt.Println()
	fmt.Printf("Merging a block's result into the merge of k−1 (dptest.MergeTaskResults), and the driver's decode of the merge of k; the Gaussian's tasks of %d blocks; medians of 5:\n\n", nb)
	fmt.Println("| statistic | k | merge µs | decode µs | merged KB |")
	fmt.Println("|---|---|---|---|---|")
	measured.countsSeries = mergeSeries(counts.task, gauss.Sample)
	measured.groupsSeries = mergeSeries(groups.task, gauss.Sample)
	for _, sr := range []struct {
		name   string
		series []seriesPoint
	}{{"counts (screening: cells, tails)", measured.countsSeries}, {"groups (confirmation: cells)", measured.groupsSeries}} {
		peak := 0
		for i, p := range sr.series {
			if p.bytes > sr.series[peak].bytes {
				peak = i
			}
		}
		for i, p := range sr.series {
			if p.k&(p.k-1) != 0 && i != len(sr.series)-1 && i != peak && i != peak+1 {
				continue
			}
			fmt.Printf("| %s | %d | %s | %s | %.1f |\n", sr.name, p.k, us(p.merge), us(p.decode), float64(p.bytes)/1024)
		}
	}
}

// drawCaseOfN is a draw made here of n outputs into the statistic of the
// task t: counts with tails, or groups of its partition's cells.
func drawCaseOfN(m realMech, t taskView, n int, counts bool) drawCase {
	var x []float64
	if err := gobDecode(t.Data, &x); err != nil {
		panic(err)
	}
	part, err := stat.PartitionFrom(t.Spec.Partitions[0])
	if err != nil {
		panic(err)
	}
	f := func(r *rand.Rand) float64 { return m.Sample(r, x) }
	if counts {
		return drawCase{nil, func(w int) error {
			_, err := sampler.Draw(sampler.Stream{Seed: 1, ID: 7, Workers: w}, n, f, stat.CheckFinite,
				func() *stat.PartitionCounts { return stat.NewTailCounts(part, t.Spec.Keep) })
			return err
		}}
	}
	of := make([]int, part.Cells())
	for i := range of {
		of[i] = i
	}
	newCounts, err := stat.NewGroupCounts[float64]([]stat.Grouping{{Groups: part.Cells(), Partition: part, OfCell: of}})
	if err != nil {
		panic(err)
	}
	return drawCase{nil, func(w int) error {
		_, err := sampler.Draw(sampler.Stream{Seed: 1, ID: 7, Workers: w}, n, f, stat.CheckFinite, newCounts)
		return err
	}}
}

func calls(busy Busy, gauss mechanisms.Gaussian) {
	var sizes []int
	for _, s := range strings.Split(*blocks, ",") {
		var b int
		fmt.Sscan(s, &b)
		sizes = append(sizes, b)
	}
	configs := []prismConfig{
		{name: "here, 1 goroutine", procs: 1, inProc: true},
		{name: "here, 2 goroutines", procs: 2, inProc: true},
		{name: "Prism, GOMAXPROCS 1", procs: 1, perElem: 1},
		{name: "Prism, GOMAXPROCS 2", procs: 2, perElem: 1},
		{name: "Prism, GOMAXPROCS 2, no split", procs: 2, perElem: 1, noSplit: true},
		{name: "Prism, GOMAXPROCS 2, 4 blocks an element", procs: 2, perElem: 4},
	}
	if *quick {
		configs = []prismConfig{configs[1], configs[3]}
	}
	type mech struct {
		name   string
		m      realMech
		counts bool
	}
	mechs := []mech{
		{fmt.Sprintf("slow (%s µs a call), groups", us(measured.busyCall)), busy, false},
		{"Gaussian, groups", gauss, false},
		{"Gaussian, counts", gauss, true},
	}
	for i, mc := range mechs {
		if !slices.Contains(strings.Split(*cases, ","), []string{"slow", "gauss-groups", "gauss-counts"}[i]) {
			continue
		}
		header("calls per second of one draw: " + mc.name)
		tasks := map[int]drawCase{}
		for _, b := range sizes {
			if mc.counts {
				tasks[b] = realTask(mc.m, x0, y0, b*sampler.BlockSize, 1)
			} else {
				tasks[b] = groupsTask(mc.m, x0, y0, b*sampler.BlockSize, 1)
			}
		}
		type cell struct {
			secs                     []float64
			bundles, inflight, elems []float64
			par                      []float64
			mergeMs, cpu             []float64
		}
		cells := map[string]*cell{}
		key := func(c prismConfig, b int) string { return fmt.Sprintf("%s/%d", c.name, b) }
		var slopeB, slopeT []float64
		for rep := range *reps {
			for _, b := range sizes {
				for _, c := range configs {
					k := key(c, b)
					if cells[k] == nil {
						cells[k] = &cell{}
					}
					ce := cells[k]
					if c.inProc {
						wall, cpu := inProcess(tasks[b], c.procs)
						ce.secs = append(ce.secs, wall.Seconds())
						ce.cpu = append(ce.cpu, cpu.Seconds())
						continue
					}
					var ph phases
					var err error
					switch m := mc.m.(type) {
					case Busy:
						ph, err = onPrism(m, tasks[b].task, c)
					case mechanisms.Gaussian:
						ph, err = onPrism(m, tasks[b].task, c)
					}
					if err != nil {
						panic(err)
					}
					ce.secs = append(ce.secs, ph.total().Seconds())
					ce.cpu = append(ce.cpu, ph.cpu.Seconds())
					ce.bundles = append(ce.bundles, float64(ph.bundles))
					ce.inflight = append(ce.inflight, float64(ph.maxInflight))
					ce.par = append(ce.par, ph.elemTime.Seconds()/ph.elemSpan.Seconds())
					ce.mergeMs = append(ce.mergeMs, ph.mergeTime.Seconds()*1e3)
					if c.procs == 2 && !c.noSplit && c.perElem == 1 {
						slopeB, slopeT = append(slopeB, float64(b)), append(slopeT, ph.total().Seconds())
					}
				}
			}
			fmt.Printf("(rep %d of %d done, load %s)\n", rep+1, *reps, loadavg())
		}
		fmt.Println()
		fmt.Printf("| configuration |")
		for _, b := range sizes {
			fmt.Printf(" %d blocks |", b)
		}
		fmt.Printf("\n|---|")
		for range sizes {
			fmt.Printf("---|")
		}
		fmt.Println()
		for _, c := range configs {
			fmt.Printf("| %s |", c.name)
			for _, b := range sizes {
				s := medianF(cells[key(c, b)].secs)
				fmt.Printf(" %s/s (%s) |", rate(float64(b*sampler.BlockSize)/s), human(time.Duration(s*1e9)))
			}
			fmt.Println()
		}
		fmt.Println()
		fmt.Println("The process's CPU time a draw (medians; less sensitive to the machine's load than wall time):")
		fmt.Println()
		fmt.Printf("| configuration |")
		for _, b := range sizes {
			fmt.Printf(" %d blocks |", b)
		}
		fmt.Printf("\n|---|")
		for range sizes {
			fmt.Printf("---|")
		}
		fmt.Println()
		for _, c := range configs {
			fmt.Printf("| %s |", c.name)
			for _, b := range sizes {
				fmt.Printf(" %s |", human(time.Duration(medianF(cells[key(c, b)].cpu)*1e9)))
			}
			fmt.Println()
		}
		fmt.Println()
		fmt.Println("| on Prism | blocks | bundles | most elements at once | elements' time / their span | merges ms | process CPU / wall |")
		fmt.Println("|---|---|---|---|---|---|---|")
		for _, c := range configs {
			if c.inProc {
				continue
			}
			for _, b := range sizes {
				ce := cells[key(c, b)]
				fmt.Printf("| %s | %d | %.0f | %.0f | %.2f | %.0f | %.2f |\n", c.name, b, medianF(ce.bundles), medianF(ce.inflight),
					medianF(ce.par), medianF(ce.mergeMs), medianF(ce.cpu)/medianF(ce.secs))
			}
		}
		if len(slopeB) > 1 {
			icept, slope := fit(slopeB, slopeT)
			fmt.Printf("\nPrism, GOMAXPROCS 2, one block an element: time = %.1f ms + %.2f ms a block (least squares over %d draws)\n",
				icept*1e3, slope*1e3, len(slopeB))
			measured.prismSlope[mc.name] = time.Duration(slope * 1e9)
		}
		if ce := cells[key(configs[3], 128)]; ce != nil && !*quick {
			measured.prism128[mc.name] = time.Duration(medianF(ce.secs) * 1e9)
		}
	}
}

// fit is the least-squares line of y on x.
func fit(x, y []float64) (intercept, slope float64) {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(x))
	var sxy, sxx float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
	}
	slope = sxy / sxx
	return my - slope*mx, slope
}

func rate(r float64) string {
	switch {
	case r >= 1e6:
		return fmt.Sprintf("%.1fM", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.0fk", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}

// audit runs one default audit of the Gaussian in process and with the
// library on Prism (MinBlocks 1 and the default 4), every pipeline timed
// through dptestbeam.Runner, its blocks read from the Tally.
func audit(gauss mechanisms.Gaussian) {
	header("audit: the library's own pipelines (dptestbeam.Real), GOMAXPROCS 2")
	type pipe struct {
		blocks int64
		took   time.Duration
	}
	type setting struct {
		name string
		opts []dptestbeam.Option
	}
	settings := []setting{{"here (no executor)", nil}, {"Prism, MinBlocks(1)", []dptestbeam.Option{dptestbeam.MinBlocks(1)}},
		{"Prism, default MinBlocks(4)", []dptestbeam.Option{}}}
	walls := map[string][]time.Duration{}
	lastPipes := map[string][]pipe{}
	var calls int64
	var want dptest.Report
	for rep := range *reps {
		for _, st := range settings {
			var tally dptestbeam.Tally
			var pipes []pipe
			var mu sync.Mutex
			timed := func(ctx context.Context, p *beam.Pipeline) error {
				blocks := pipelineBlocks(p)
				t0 := time.Now()
				_, err := prism.Execute(ctx, p)
				mu.Lock()
				pipes = append(pipes, pipe{int64(blocks), time.Since(t0)})
				mu.Unlock()
				return err
			}
			m := dptest.Continuous(gauss.Sample)
			if st.opts != nil {
				m = dptestbeam.Real[[]float64](gauss, append(st.opts, dptestbeam.Counted(&tally), dptestbeam.Runner(timed))...)
			}
			t0 := time.Now()
			got, err := dptest.AuditRDP(m, 2, gauss.RDP(2), dptest.Seed(1))
			if err != nil {
				panic(err)
			}
			walls[st.name] = append(walls[st.name], time.Since(t0))
			if st.opts == nil {
				want = got
			} else if got.Verdict != want.Verdict || got.LowerBound != want.LowerBound || got.Calls != want.Calls {
				panic("the audit on Prism differs from the audit here")
			}
			calls = got.Calls
			lastPipes[st.name] = pipes
		}
		fmt.Printf("(rep %d of %d done, load %s)\n", rep+1, *reps, loadavg())
	}
	fmt.Printf("\nAuditRDP of the Gaussian σ=1, λ=2, seed 1 (%d calls, verdict %v, the same bound every way):\n\n", calls, want.Verdict)
	fmt.Println("| setting | audit wall (median) | min | max | pipelines | blocks on Prism | pipelines' run time in all (two at once) |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, st := range settings {
		w := walls[st.name]
		var sum time.Duration
		var blocks int64
		for _, p := range lastPipes[st.name] {
			sum += p.took
			blocks += p.blocks
		}
		fmt.Printf("| %s | %s | %s | %s | %d | %d | %s |\n", st.name, human(median(w)), human(slices.Min(w)), human(slices.Max(w)),
			len(lastPipes[st.name]), blocks, human(sum))
	}
	fmt.Println()
	fmt.Println("The library's pipelines by size (MinBlocks(1), last run), against the copy's pipeline of one call (components):")
	fmt.Println()
	fmt.Println("| blocks | pipelines | run ms, median | min | max |")
	fmt.Println("|---|---|---|---|---|")
	by := map[int64][]time.Duration{}
	for _, p := range lastPipes["Prism, MinBlocks(1)"] {
		by[p.blocks] = append(by[p.blocks], p.took)
	}
	for _, b := range slices.Sorted(maps.Keys(by)) {
		fmt.Printf("| %d | %d | %s | %s | %s |\n", b, len(by[b]), ms(median(by[b])), ms(slices.Min(by[b])), ms(slices.Max(by[b])))
	}
	if measured.start > 0 {
		fmt.Printf("\nThe copy's pipeline of one call, start to result read: %s ms.\n", ms(measured.start))
	}
}

// pipelineBlocks reads the blocks of the draw a pipeline of dptestbeam
// makes from the task its DoFns carry (their exported field Task).
func pipelineBlocks(p *beam.Pipeline) int {
	edges, _, err := p.Build()
	if err != nil {
		panic(err)
	}
	for _, e := range edges {
		if e.DoFn == nil {
			continue
		}
		v := reflect.ValueOf((*graph.Fn)(e.DoFn).Recv)
		for v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			continue
		}
		if f := v.FieldByName("Task"); f.IsValid() && f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Uint8 {
			return viewTask(f.Bytes()).Blocks
		}
	}
	return -1
}

// drawTime is the model's time of one counting draw of B blocks on w
// workers, each call taking c, with pipeline start s: the blocks of
// ceil(B/w) a worker one after another, each with its overhead o; each
// worker folding its results (the merge of k results costs series(k));
// one worker merging the partial results; the driver decoding the merge
// of B.
func drawTime(B, w int, c, s, o time.Duration, series []seriesPoint) (total, serial time.Duration) {
	merge := func(k int) time.Duration { return at(series, k, func(p seriesPoint) time.Duration { return p.merge }) }
	b := (B + w - 1) / w
	parts := (B + b - 1) / b
	total = s + time.Duration(b)*(sampler.BlockSize*c+o)
	for k := 2; k <= b; k++ {
		total += merge(k)
	}
	for j := 2; j <= parts; j++ {
		serial += merge(j * b)
	}
	serial += at(series, B, func(p seriesPoint) time.Duration { return p.decode })
	return total + serial, s + serial
}

// model prints T(w) for typical draws from the measured parts.
func model() {
	header("model of one counting draw on w workers")
	if measured.start == 0 || len(measured.countsSeries) == 0 {
		fmt.Println("(run -part components first: the model needs its figures)")
		return
	}
	// o: a block's time on a worker beyond its mechanism's calls (the
	// statistic's work, the task's decode, the result's encode).
	calls := sampler.BlockSize * measured.gaussCall
	oCounts := measured.blockCounts - calls
	oGroups := measured.blockGroups - calls
	fmt.Printf("Inputs, measured above: pipeline start S = %s ms on Prism (GOMAXPROCS 2); a block's time on a worker beyond its 8192 calls o = %.2f ms (counts), %.2f ms (groups) (RunTask of the Gaussian less 8192 × %.0f ns); merges m(k) and decodes D(k) by size from the series above.\n",
		ms(measured.start), oCounts.Seconds()*1e3, oGroups.Seconds()*1e3, measured.gaussCall.Seconds()*1e9)
	for _, name := range slices.Sorted(maps.Keys(measured.prismSlope)) {
		fmt.Printf("On Prism, %s: %.2f ms a block one after another (the fitted slope).\n", name, measured.prismSlope[name].Seconds()*1e3)
	}
	// The model against the copy on Prism: one worker (no split), the
	// Gaussian's draws of 128 blocks.
	for _, chk := range []struct {
		name   string
		o      time.Duration
		series []seriesPoint
	}{{"Gaussian, groups", oGroups, measured.groupsSeries}, {"Gaussian, counts", oCounts, measured.countsSeries}} {
		if got, ok := measured.prism128[chk.name]; ok {
			t, _ := drawTime(128, 1, measured.gaussCall, measured.start, chk.o, chk.series)
			fmt.Printf("Check, %s, 128 blocks on Prism (GOMAXPROCS 2, one bundle): model T(1) = %s, measured %s.\n", chk.name, human(t), human(got))
		}
	}
	fmt.Println()
	fmt.Println("    T(w) = S + b·(8192·c + o) + Σ_{k=2..b} m(k) + Σ_{j=2..p} m(j·b) + D(B),   b = ceil(B/w), p = ceil(B/b)")
	fmt.Println()
	fmt.Println("B blocks; c a call's time; m(k) the merge whose result holds k blocks; D(B) the driver's decode.")
	fmt.Println("Each worker folds its own blocks (combiner lifting); one worker then merges the p partial results.")
	fmt.Println("The serial part, S + Σ m(j·b) + D(B), does not shrink with w. Here: T = ceil(B/2)·8192·c on 2 cores.")
	fmt.Println()
	dataflow := 180 * time.Second
	type drawKind struct {
		name   string
		B      int
		o      time.Duration
		series []seriesPoint
	}
	kinds := []drawKind{
		{"screening (counts), 13 blocks", 13, oCounts, measured.countsSeries},
		{"confirmation (groups), 122 blocks", 122, oGroups, measured.groupsSeries},
		{"confirmation (counts), 122 blocks", 122, oCounts, measured.countsSeries},
	}
	ws := []int{10, 100, 1000}
	// half is the fewest workers at which the serial part is at least the
	// workers' part: past it, more workers cut less than half the time.
	half := func(d drawKind, c, s time.Duration) string {
		for w := 1; w <= d.B; w++ {
			t, serial := drawTime(d.B, w, c, s, d.o, d.series)
			if serial >= t-serial {
				return fmt.Sprint(w)
			}
		}
		return fmt.Sprintf("> %d", d.B)
	}
	fmt.Println("| draw | c | here, 2 cores | S of Prism: w=10 | w=100 | w=1000 | serial part | serial ≥ rest from w = | S = 3 min: w=10 | w=100 | w=1000 | serial ≥ rest from w = |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, d := range kinds {
		for _, c := range []time.Duration{10 * time.Microsecond, time.Millisecond, 100 * time.Millisecond} {
			here := time.Duration((d.B+1)/2) * sampler.BlockSize * c
			fmt.Printf("| %s | %v | %s |", d.name, c, human(here))
			var serial time.Duration
			for _, w := range ws {
				t, sr := drawTime(d.B, w, c, measured.start, d.o, d.series)
				serial = sr
				fmt.Printf(" %s |", human(t))
			}
			fmt.Printf(" %s | %s |", human(serial), half(d, c, measured.start))
			for _, w := range ws {
				t, _ := drawTime(d.B, w, c, dataflow, d.o, d.series)
				fmt.Printf(" %s |", human(t))
			}
			fmt.Printf(" %s |\n", half(d, c, dataflow))
		}
	}
	fmt.Println()
	fmt.Println("Break-even call time c*: the draw on B workers takes as long as here on 2 cores,")
	fmt.Println("ceil(B/2)·8192·c* = S + 8192·c* + o + Σ m + D(B):")
	fmt.Println()
	fmt.Println("| draw | S | c* |")
	fmt.Println("|---|---|---|")
	for _, d := range kinds {
		for _, s := range []time.Duration{measured.start, dataflow} {
			_, fixed := drawTime(d.B, d.B, 0, s, d.o, d.series)
			fixed += d.o
			k := float64((d.B+1)/2 - 1)
			c := time.Duration(float64(fixed) / (k * sampler.BlockSize))
			fmt.Printf("| %s | %s | %s |\n", d.name, human(s), c.Round(10*time.Nanosecond))
		}
	}
	if n := measured.pipelinesPerAudit; n > 0 {
		fmt.Println()
		fmt.Println("A whole default audit (the profile's AuditRDP of the Gaussian), its draws one after another:")
		fmt.Println()
		fmt.Println("| c | here, 2 cores | w = ∞, S of Prism | w = ∞, S = 3 min | w = ∞, S = 3 min, MinBlocks(4) |")
		fmt.Println("|---|---|---|---|---|")
		for _, c := range []time.Duration{10 * time.Microsecond, time.Millisecond, 100 * time.Millisecond} {
			var here, prismT, dfT, df4 time.Duration
			for _, d := range measured.auditDraws {
				blocks := (d.n - d.from + sampler.BlockSize - 1) / sampler.BlockSize
				longest := min(sampler.BlockSize, d.n-d.from)
				local := time.Duration((blocks+1)/2) * time.Duration(longest) * c
				here += local
				unit := time.Duration(longest) * c
				prismT += measured.start + unit
				dfT += dataflow + unit
				if blocks >= dptestbeam.DefaultMinBlocks {
					df4 += dataflow + unit
				} else {
					df4 += local
				}
			}
			fmt.Printf("| %v | %s | %s | %s | %s |\n", c, human(here), human(prismT), human(dfT), human(df4))
		}
		// Per call: the audit here costs H calls' time, on w = ∞ workers
		// its starts plus U calls' time; break-even at c* = starts/(H − U).
		var H, U1, U4 float64
		starts4 := 0
		for _, d := range measured.auditDraws {
			blocks := (d.n - d.from + sampler.BlockSize - 1) / sampler.BlockSize
			longest := float64(min(sampler.BlockSize, d.n-d.from))
			local := float64((blocks+1)/2) * longest
			H += local
			U1 += longest
			if blocks >= dptestbeam.DefaultMinBlocks {
				U4 += longest
				starts4++
			} else {
				U4 += local
			}
		}
		fmt.Printf("\nIn calls' time: here %.3g calls, on w = ∞ %.3g (MinBlocks 1) or %.3g (MinBlocks 4): at most %.1f× faster than here.\n", H, U1, U4, H/U1)
		fmt.Printf("Break-even c* of the whole audit: %s (S of Prism, MinBlocks 1), %s (S = 3 min, MinBlocks 1), %s (S = 3 min, MinBlocks 4).\n",
			time.Duration(float64(n)*float64(measured.start)/(H-U1)).Round(time.Microsecond),
			time.Duration(float64(n)*float64(dataflow)/(H-U1)).Round(time.Microsecond),
			time.Duration(float64(starts4)*float64(dataflow)/(H-U4)).Round(time.Microsecond))
		fmt.Printf("\n%d counting draws; a draw's time is its longest block's calls (w = ∞) or its blocks two at a time (here); merges, decodes and the calls outside counting draws (pilots, replay checks) are left out.\n", n)
	}
}
