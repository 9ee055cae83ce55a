package dptestbeam

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"github.com/dptest/dptest/beam/internal/aggregation"
	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
)

// The audited claim and the audits' sizes. The claim's δ is far above a
// deployment's: 10,000 trials per side resolve δ only to about a tenth
// (δ = 10⁻⁶ would be Unresolved, not passed). An audit of recorded real
// outputs needs a little under 9,000 per side (its error states the
// least); 10,000 trials resolve δ(ε) below ResolutionFactor·δ, so the
// correct variant holds rather than ends unresolved. The live audit of
// the twin is capped at aggTwinSamples draws per side, which resolve it
// too, to keep the test fast.
const (
	aggEps         = 2.0
	aggDelta       = 0.1
	aggTrials      = 10_000
	aggNoiseSeed   = 1  // the pipeline's and the twin's noise
	aggAuditSeed   = 11 // the audits' own draws and splits
	aggTwinSamples = 20_000
	aggUser        = "u"
	aggPartitionC  = "C"
	aggRowsInC     = 8
)

// noVerdict is the verdict of an audit that could not run.
const noVerdict = dptest.Verdict(0)

// aggRecords is the dataset X of the audits: baseUsers users with a row
// each in partitions A and, if both, B, and the differing user with two
// rows in A and aggRowsInC rows in C, which no one else touches, all of
// values beyond MaxValue. Y is X without the differing user.
func aggRecords(baseUsers int, both bool) []aggregation.Record {
	var recs []aggregation.Record
	for i := range baseUsers {
		user := fmt.Sprintf("b%d", i)
		recs = append(recs, aggregation.Record{User: user, Partition: "A", Value: float64(3 * i % 11)})
		if both {
			recs = append(recs, aggregation.Record{User: user, Partition: "B", Value: float64(7 * i % 11)})
		}
	}
	for range 2 {
		recs = append(recs, aggregation.Record{User: aggUser, Partition: "A", Value: 50})
	}
	for range aggRowsInC {
		recs = append(recs, aggregation.Record{User: aggUser, Partition: aggPartitionC, Value: 50})
	}
	return recs
}

// aggPair is the pair of the audits: X with two other users, each with
// one row in A, and Y without the differing user. The fewer records, the
// faster the pipeline runs its trials.
func aggPair(t *testing.T) fixtures.Pair[[]aggregation.Record] {
	t.Helper()
	pair, err := UnitPair(aggRecords(2, false), func(r aggregation.Record) bool { return r.User == aggUser })
	if err != nil {
		t.Fatal(err)
	}
	return pair
}

// aggParams are the audited mechanism's parameters: (ε, δ) as claimed,
// each user's contribution bounded to 2 partitions and 2 rows in each,
// values clamped to [0, 10].
func aggParams(v aggregation.Variant) aggregation.Params {
	return aggregation.Params{
		Epsilon: aggEps, Delta: aggDelta,
		MaxPartitions: 2, MaxRowsPerPartition: 2, MaxValue: 10,
		Variant: v,
	}
}

// aggEncodeC is the audited output of a trial: the released count of
// partition C, the one only the differing user touches, or 0 if C was
// suppressed. Every variant's bug shows in how often C is released,
// and a post-processing keeps the audits' lower bounds valid.
func aggEncodeC(rows []aggregation.Row) ([]float64, error) {
	for _, r := range rows {
		if r.Partition == aggPartitionC {
			return []float64{r.Count}, nil
		}
	}
	return []float64{0}, nil
}

// aggregationPipeline is the Beam form of a, seeded by seed.
func aggregationPipeline(a aggregation.Aggregation, seed uint64) Pipeline[aggregation.Record, aggregation.Row] {
	return Pipeline[aggregation.Record, aggregation.Row]{
		Transform: func(s beam.Scope, records beam.PCollection) beam.PCollection {
			return a.Transform(s, seed, records)
		},
		Encode: aggEncodeC,
	}
}

// aggregationTwin is a's in-process form as a mechanism: each call
// releases with the noise of a seed drawn from r.
func aggregationTwin(a aggregation.Aggregation) dptest.Mechanism[[]aggregation.Record] {
	return dptest.Continuous(func(r *rand.Rand, x []aggregation.Record) float64 {
		v, _ := aggEncodeC(a.Release(r.Uint64(), x))
		return v[0]
	})
}

// TestPipelineAuditsMatchInProcess audits each variant twice on the same
// pair, removing the differing user with all their rows: its pipeline's
// trials on Prism, with the recorded-output audit, and its in-process
// twin, with the live engine on that pair alone. Both must give the
// variant's verdict. The pipeline's outputs must also equal, trial by
// trial, the twin's on the trial's seed.
//
// Every audit runs at dptest's default confidence: an audit of a claim
// that holds ends violated with probability at most 1 − DefaultConfidence
// = 10⁻⁴, so this test fails the correct variant with probability at most
// 2·10⁻⁴ (two audits). The audited output's δ(ε) is the probability that
// C is released: δ/2 for Correct, and for the broken variants 2.2δ
// (NoBounding: eight rows counted where two should be), 2.7δ (RowNoise)
// and 3.9δ (LeakyThreshold), whose confirmed lower bounds lie far above
// δ. The seeds are fixed, so each verdict replays.
func TestPipelineAuditsMatchInProcess(t *testing.T) {
	pair := aggPair(t)
	want := map[aggregation.Variant]dptest.Verdict{
		aggregation.Correct:        dptest.Holds,
		aggregation.NoBounding:     dptest.Violated,
		aggregation.RowNoise:       dptest.Violated,
		aggregation.LeakyThreshold: dptest.Violated,
	}
	for v := aggregation.Correct; v <= aggregation.LeakyThreshold; v++ {
		t.Run(v.String(), func(t *testing.T) {
			a, err := aggregation.New(aggParams(v))
			if err != nil {
				t.Fatal(err)
			}
			trials, err := RunPipelineTrials(t.Context(), aggregationPipeline(a, aggNoiseSeed), pair, aggTrials)
			if err != nil {
				t.Fatal(err)
			}
			checkAggTwinOutputs(t, a, pair, trials)
			// A suspect or unresolved audit returns an error beside its
			// verdict; only an audit without one could not run.
			piped, err := dptest.AuditRecordedApproxDP(trials.Recorded(), aggEps, aggDelta, dptest.Seed(aggAuditSeed))
			if piped.Verdict == noVerdict {
				t.Fatal(err)
			}
			live, err := dptest.AuditApproxDP(aggregationTwin(a), aggEps, aggDelta,
				dptest.Pairs(pair), dptest.Samples(aggTwinSamples), dptest.Seed(aggAuditSeed))
			if live.Verdict == noVerdict {
				t.Fatal(err)
			}
			t.Logf("pipeline: %v, δ(ε) ≥ %.4f, resolution %.4f, %d trials per side", piped.Verdict, piped.LowerBound, piped.Resolution, aggTrials)
			t.Logf("in-process: %v, δ(ε) ≥ %.4f, resolution %.4f, %d calls", live.Verdict, live.LowerBound, live.Resolution, live.Calls)
			if piped.Verdict != want[v] || live.Verdict != want[v] {
				t.Errorf("verdicts: pipeline %v, in-process %v; want %v for both", piped.Verdict, live.Verdict, want[v])
			}
			if live.Details.PairsSearched != 1 {
				t.Errorf("the in-process audit searched %d pairs, want the given one alone", live.Details.PairsSearched)
			}
		})
	}
}

// checkAggTwinOutputs checks that every trial of the pipeline released what
// the twin releases on the trial's seed and dataset.
func checkAggTwinOutputs(t *testing.T, a aggregation.Aggregation, pair fixtures.Pair[[]aggregation.Record], trials PipelineTrials) {
	t.Helper()
	for side, outs := range [2][][]float64{trials.X, trials.Y} {
		data := [2][]aggregation.Record{pair.X, pair.Y}[side]
		for i, got := range outs {
			want, _ := aggEncodeC(a.Release(aggregation.TrialSeed(aggNoiseSeed, side*len(outs)+i), data))
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d of %s: the pipeline released %v, the twin %v", i, [2]string{"X", "Y"}[side], got, want)
			}
		}
	}
}

// TestAggregationPipelineReleasesWhatItsTwinDoes checks every variant's
// Beam transform against its in-process twin on whole releases, of a
// dataset whose partitions A and B hold fifteen users: each trial's counts
// and sums of A, B and C, bit for bit.
func TestAggregationPipelineReleasesWhatItsTwinDoes(t *testing.T) {
	const trials = 50
	pair, err := UnitPair(aggRecords(15, true), func(r aggregation.Record) bool { return r.User == aggUser })
	if err != nil {
		t.Fatal(err)
	}
	partitions := []string{"A", "B", aggPartitionC}
	for v := aggregation.Correct; v <= aggregation.LeakyThreshold; v++ {
		a, err := aggregation.New(aggParams(v))
		if err != nil {
			t.Fatal(err)
		}
		m := aggregationPipeline(a, aggNoiseSeed)
		m.Encode = func(rows []aggregation.Row) ([]float64, error) { return aggregation.Vector(rows, partitions) }
		got, err := RunPipelineTrials(t.Context(), m, pair, trials)
		if err != nil {
			t.Fatal(err)
		}
		released := 0
		for side, outs := range [2][][]float64{got.X, got.Y} {
			data := [2][]aggregation.Record{pair.X, pair.Y}[side]
			for i, out := range outs {
				want, _ := aggregation.Vector(a.Release(aggregation.TrialSeed(aggNoiseSeed, side*trials+i), data), partitions)
				if !slices.Equal(out, want) {
					t.Fatalf("%v, trial %d of %s: the pipeline released %v, the twin %v", v, i, [2]string{"X", "Y"}[side], out, want)
				}
				if out[0] != 0 && out[2] != 0 {
					released++
				}
			}
		}
		if released < trials { // A and B pass the threshold in most trials
			t.Errorf("%v: A and B were both released in %d trials of %d", v, released, 2*trials)
		}
	}
}

// pipelineIdentity releases a trial's records as they are.
func pipelineIdentity(s beam.Scope, records beam.PCollection) beam.PCollection { return records }

func TestRunPipelineTrialsRefusesBadInput(t *testing.T) {
	pair := fixtures.Pair[[]int]{X: []int{1, 2}, Y: []int{1}}
	ok := Pipeline[int, int]{Transform: pipelineIdentity, Encode: func(outs []int) ([]float64, error) { return []float64{float64(len(outs))}, nil }}
	cases := map[string]struct {
		m      Pipeline[int, int]
		pair   fixtures.Pair[[]int]
		trials int
	}{
		"no trials":       {ok, pair, 0},
		"negative trials": {ok, pair, -3},
		"equal datasets":  {ok, fixtures.Pair[[]int]{X: []int{1}, Y: []int{1}}, 10},
		"empty datasets":  {ok, fixtures.Pair[[]int]{X: nil, Y: []int{}}, 10},
		"no Transform":    {Pipeline[int, int]{Encode: ok.Encode}, pair, 10},
		"no Encode":       {Pipeline[int, int]{Transform: pipelineIdentity}, pair, 10},
		"wrong output type": {Pipeline[int, int]{Encode: ok.Encode, Transform: func(s beam.Scope, c beam.PCollection) beam.PCollection {
			return beam.DropKey(s, c)
		}}, pair, 10},
		"panicking Transform": {Pipeline[int, int]{Encode: ok.Encode, Transform: func(beam.Scope, beam.PCollection) beam.PCollection {
			panic("no transform here")
		}}, pair, 10},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := RunPipelineTrials(t.Context(), c.m, c.pair, c.trials); err == nil {
				t.Fatal("no error")
			} else {
				t.Log(err)
			}
		})
	}
}

func init() {
	register.Function2x2(pipelineLaterTrial)
	register.Function2x2(pipelineNaN)
}

// pipelineLaterTrial keys an output by a trial that had no records.
func pipelineLaterTrial(trial, v int) (int, int) { return trial + 1000, v }

// pipelineNaN releases a NaN, which JSON cannot write.
func pipelineNaN(trial, _ int) (int, float64) { return trial, math.NaN() }

func TestRunPipelineTrialsRefusesBadOutputs(t *testing.T) {
	pair := fixtures.Pair[[]int]{X: []int{1, 2}, Y: []int{1}}
	byCount := func(outs []int) ([]float64, error) { return make([]float64, len(outs)), nil }
	one := func(outs []int) ([]float64, error) { return []float64{1}, nil }
	cases := map[string]Pipeline[int, int]{
		"encodings of unequal length": {Transform: pipelineIdentity, Encode: byCount},
		"an encoding error": {Transform: pipelineIdentity, Encode: func([]int) ([]float64, error) {
			return nil, fmt.Errorf("cannot encode")
		}},
		"an output of another trial": {Encode: one, Transform: func(s beam.Scope, c beam.PCollection) beam.PCollection {
			return beam.ParDo(s, pipelineLaterTrial, c)
		}},
	}
	for name, m := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := RunPipelineTrials(context.Background(), m, pair, 3); err == nil {
				t.Fatal("no error")
			} else {
				t.Log(err)
			}
		})
	}
	nan := Pipeline[int, float64]{Encode: func([]float64) ([]float64, error) { return []float64{1}, nil },
		Transform: func(s beam.Scope, c beam.PCollection) beam.PCollection { return beam.ParDo(s, pipelineNaN, c) }}
	if _, err := RunPipelineTrials(context.Background(), nan, pair, 3); err == nil {
		t.Fatal("a NaN output: no error")
	} else {
		t.Log(err)
	}
}

func TestRunPipelineTrialsKeysTrials(t *testing.T) {
	m := Pipeline[int, int]{Transform: pipelineIdentity, Encode: func(outs []int) ([]float64, error) {
		slices.Sort(outs)
		v := make([]float64, 2)
		for i, o := range outs {
			v[i] = float64(o)
		}
		return v, nil
	}}
	got, err := RunPipelineTrials(t.Context(), m, fixtures.Pair[[]int]{X: []int{1, 2}, Y: []int{1}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := PipelineTrials{X: [][]float64{{1, 2}, {1, 2}, {1, 2}}, Y: [][]float64{{1, 0}, {1, 0}, {1, 0}}}
	if !slices.EqualFunc(got.X, want.X, slices.Equal) || !slices.EqualFunc(got.Y, want.Y, slices.Equal) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// An empty Y, on a given runner, written to a given directory: its
	// files stay there.
	ran := false
	m.Runner = func(ctx context.Context, p *beam.Pipeline) error {
		ran = true
		_, err := prism.Execute(ctx, p)
		return err
	}
	m.ResultDir = t.TempDir()
	got, err = RunPipelineTrials(t.Context(), m, fixtures.Pair[[]int]{X: []int{2}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	want = PipelineTrials{X: [][]float64{{2, 0}, {2, 0}}, Y: [][]float64{{0, 0}, {0, 0}}}
	if !slices.EqualFunc(got.X, want.X, slices.Equal) || !slices.EqualFunc(got.Y, want.Y, slices.Equal) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if !ran {
		t.Error("the Runner was not called")
	}
	if files, _ := filepath.Glob(filepath.Join(m.ResultDir, "*", "*.jsonl")); len(files) != 2 {
		t.Fatalf("files left in ResultDir: %v, want X's and Y's", files)
	}
}

func TestAuditPipelineNeedsEnoughTrials(t *testing.T) {
	m := Pipeline[int, int]{Transform: pipelineIdentity, Encode: func(outs []int) ([]float64, error) { return []float64{float64(len(outs))}, nil }}
	pair := fixtures.Pair[[]int]{X: []int{1, 2}, Y: []int{1}}
	if rep, err := AuditPipelineApproxDP(t.Context(), m, pair, 10, 1, 0.1); err == nil || rep.Verdict != noVerdict {
		t.Fatalf("10 trials: %v, %v; want an error and no verdict", rep.Verdict, err)
	} else {
		t.Log(err)
	}
	if _, err := AuditPipelineDP(t.Context(), m, pair, 0, 1); err == nil {
		t.Fatal("no trials: no error")
	}
}

func TestUnitPair(t *testing.T) {
	even := func(v int) bool { return v%2 == 0 }
	p, err := UnitPair([]int{1, 2, 3, 4}, even)
	if err != nil || !slices.Equal(p.X, []int{1, 2, 3, 4}) || !slices.Equal(p.Y, []int{1, 3}) {
		t.Fatalf("UnitPair = %v, %v", p, err)
	}
	if p, err := UnitPair([]int{2, 4}, even); err != nil || len(p.Y) != 0 {
		t.Errorf("the unit alone: UnitPair = %v, %v; want Y empty", p, err)
	}
	if _, err := UnitPair([]int{1, 3}, even); err == nil {
		t.Error("the unit absent: no error")
	}
	if _, err := UnitPair([]int{1}, nil); err == nil {
		t.Error("nil inUnit: no error")
	}
}

// ExampleAuditPipelineApproxDP audits a Beam aggregation's (2, 0.1)-DP
// claim on the neighbours that remove one user with all their rows.
func ExampleAuditPipelineApproxDP() {
	records := []aggregation.Record{
		{User: "a", Partition: "A", Value: 3},
		{User: "b", Partition: "A", Value: 5},
		{User: "u", Partition: "A", Value: 7},
		{User: "u", Partition: "C", Value: 9},
	}
	pair, _ := UnitPair(records, func(r aggregation.Record) bool { return r.User == "u" })
	agg, _ := aggregation.New(aggregation.Params{Epsilon: 2, Delta: 0.1, MaxPartitions: 2, MaxRowsPerPartition: 2, MaxValue: 10})
	m := Pipeline[aggregation.Record, aggregation.Row]{
		Transform: func(s beam.Scope, trials beam.PCollection) beam.PCollection {
			return agg.Transform(s, 1, trials) // trial t's noise is seeded by (1, t)
		},
		Encode: aggEncodeC, // the released count of C, 0 if suppressed
	}
	rep, err := AuditPipelineApproxDP(context.Background(), m, pair, 10_000, 2, 0.1)
	fmt.Println(rep.Verdict, err)
}
