package aggregation

import (
	"math"
	"slices"
	"testing"
)

// The Beam transform is checked against Release, trial by trial, in
// dptestbeam's pipeline tests, which run it on Prism.

// testParams are ε = 2, δ = 0.1, Kp = Kr = 2, V = 10, of variant v.
func testParams(v Variant) Params {
	return Params{Epsilon: 2, Delta: 0.1, MaxPartitions: 2, MaxRowsPerPartition: 2, MaxValue: 10, Variant: v}
}

func TestNewRefusesBadParams(t *testing.T) {
	bad := map[string]func(p *Params){
		"zero ε":           func(p *Params) { p.Epsilon = 0 },
		"infinite ε":       func(p *Params) { p.Epsilon = math.Inf(1) },
		"NaN ε":            func(p *Params) { p.Epsilon = math.NaN() },
		"zero δ":           func(p *Params) { p.Delta = 0 },
		"δ of 1":           func(p *Params) { p.Delta = 1 },
		"no partitions":    func(p *Params) { p.MaxPartitions = 0 },
		"no rows":          func(p *Params) { p.MaxRowsPerPartition = -1 },
		"zero MaxValue":    func(p *Params) { p.MaxValue = 0 },
		"unknown variant":  func(p *Params) { p.Variant = LeakyThreshold + 1 },
		"negative variant": func(p *Params) { p.Variant = -1 },
	}
	for name, change := range bad {
		p := testParams(Correct)
		change(&p)
		if _, err := New(p); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := New(testParams(Correct)); err != nil {
		t.Fatal(err)
	}
}

// TestCalibration checks the noise scales and thresholds against the
// formulas of the package documentation, at ε = 2, δ = 0.1, Kp = Kr = 2,
// V = 10.
func TestCalibration(t *testing.T) {
	want := map[Variant]calibration{
		Correct:        {CountScale: 4, SumScale: 40, Threshold: 2 + 4*math.Log(10)},
		NoBounding:     {CountScale: 4, SumScale: 40, Threshold: 2 + 4*math.Log(10)},
		RowNoise:       {CountScale: 1, SumScale: 10, Threshold: 1 + math.Log(5)},
		LeakyThreshold: {CountScale: 4, SumScale: 40, Threshold: 3},
	}
	for v, w := range want {
		got := testParams(v).calibrate()
		if math.Abs(got.CountScale-w.CountScale) > 1e-12 || math.Abs(got.SumScale-w.SumScale) > 1e-12 || math.Abs(got.Threshold-w.Threshold) > 1e-12 {
			t.Errorf("%v: %+v, want %+v", v, got, w)
		}
	}
}

// heavyUser has five rows of value 50 in each of partitions A, B and C.
func heavyUser() []Record {
	var rows []Record
	for _, part := range []string{"C", "A", "B"} {
		for range 5 {
			rows = append(rows, Record{User: "u", Partition: part, Value: 50})
		}
	}
	return rows
}

func TestBoundKeepsTheLimits(t *testing.T) {
	p := testParams(Correct)
	for seed := range uint64(50) {
		cs := p.bound(seed, "u", heavyUser())
		if len(cs) != p.MaxPartitions {
			t.Fatalf("seed %d: %d partitions, want %d", seed, len(cs), p.MaxPartitions)
		}
		for _, c := range cs {
			if c.Count != p.MaxRowsPerPartition || c.Sum != float64(c.Count)*p.MaxValue {
				t.Fatalf("seed %d: contribution %+v, want %d rows clamped to %v", seed, c, p.MaxRowsPerPartition, p.MaxValue)
			}
		}
	}
	cs := testParams(NoBounding).bound(1, "u", heavyUser())
	if len(cs) != 3 || cs[0].Count != 5 || cs[0].Sum != 50 {
		t.Fatalf("NoBounding kept %+v, want every row, clamped", cs)
	}
}

func TestBoundChoosesPartitionsAtRandom(t *testing.T) {
	seen := make(map[string]int)
	for seed := range uint64(300) {
		for _, c := range testParams(Correct).bound(seed, "u", heavyUser()) {
			seen[c.Partition]++
		}
	}
	for _, part := range []string{"A", "B", "C"} {
		// Each is kept with probability 2/3: 200 times expected, fewer
		// than 150 with probability below 10⁻⁸ (and the seeds are fixed).
		if seen[part] < 150 {
			t.Errorf("partition %s kept %d times in 300", part, seen[part])
		}
	}
}

func TestBoundIgnoresRowOrder(t *testing.T) {
	rows := heavyUser()
	rows[0].Value, rows[7].Value = 3, 4
	want := testParams(Correct).bound(9, "u", rows)
	slices.Reverse(rows)
	if got := testParams(Correct).bound(9, "u", rows); !slices.Equal(got, want) {
		t.Fatalf("reversed rows bound to %+v, want %+v", got, want)
	}
}

func TestReleaseReplays(t *testing.T) {
	a, err := New(testParams(Correct))
	if err != nil {
		t.Fatal(err)
	}
	var recs []Record
	for i := range 30 {
		recs = append(recs, Record{User: string(rune('a' + i%10)), Partition: "A", Value: float64(i % 7)})
	}
	recs = append(recs, heavyUser()...)
	first := a.Release(TrialSeed(3, 4), recs)
	if len(first) == 0 || first[0].Partition != "A" {
		t.Fatalf("released %+v; want A among them", first)
	}
	slices.Reverse(recs)
	if again := a.Release(TrialSeed(3, 4), recs); !slices.Equal(again, first) {
		t.Fatalf("the same seed released %+v, then %+v", first, again)
	}
	if other := a.Release(TrialSeed(3, 5), recs); slices.Equal(other, first) {
		t.Fatalf("two trials released the same %+v", first)
	}
}

func TestVector(t *testing.T) {
	rows := []Row{{Partition: "C", Count: 12.5, Sum: 30}}
	v, err := Vector(rows, []string{"A", "C"})
	if err != nil || !slices.Equal(v, []float64{0, 0, 12.5, 30}) {
		t.Fatalf("Vector = %v, %v", v, err)
	}
	if _, err := Vector(rows, []string{"A"}); err == nil {
		t.Fatal("a partition not listed: no error")
	}
}
