package dptest_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/mechanisms"
)

// recordedDraws is the outputs per side of the recordings these tests
// audit: enough for every claim below to resolve, few enough to be fast.
const recordedDraws = 40_000

// record draws n outputs of f on the datasets x and y, from a generator
// of the given seed.
func record[D, O any](seed uint64, n int, f func(*rand.Rand, D) O, x, y D) (xs, ys []O) {
	r := rand.New(rand.NewPCG(seed, seed+1))
	xs, ys = make([]O, n), make([]O, n)
	for i := range xs {
		xs[i], ys[i] = f(r, x), f(r, y)
	}
	return xs, ys
}

// recordedVectors draws n vectors of three coordinates: the first is the
// Gaussian mechanism on x or y, the other two noise alone.
func recordedVectors(seed uint64, n int, g mechanisms.Gaussian) (xs, ys [][]float64) {
	vec := func(r *rand.Rand, x []float64) []float64 {
		return []float64{g.Sample(r, x), g.Sample(r, []float64{0}), g.Sample(r, []float64{0})}
	}
	return record(seed, n, vec, []float64{1}, []float64{0})
}

// laplaceDelta is the exact δ(ε) of the Laplace mechanism of scale 1 on
// the canonical pair: 1 − e^{(ε−1)/2} for ε < 1.
func laplaceDelta(eps float64) float64 { return 1 - math.Exp((eps-1)/2) }

type recordedCase struct {
	name  string
	audit func(rec dptest.Recorded) (dptest.Report, error)
	rec   dptest.Recorded
}

func recordedCases(truth float64) []recordedCase {
	lap, dlap, g := mechanisms.Laplace{B: 1}, mechanisms.DiscreteLaplace{B: 2, Sensitivity: 1}, mechanisms.Gaussian{Sigma: 2}
	real := dptest.RecordedReal(record(1, recordedDraws, lap.Sample, []float64{1}, []float64{0}))
	gauss := dptest.RecordedReal(record(2, recordedDraws, g.Sample, []float64{1}, []float64{0}))
	ints := dptest.RecordedDiscrete(record(3, recordedDraws, dlap.Sample, 1, 0))
	vecs := dptest.RecordedVectors(recordedVectors(4, recordedDraws, g))
	return []recordedCase{
		{"real RDP", func(r dptest.Recorded) (dptest.Report, error) { return dptest.AuditRecordedRDP(r, 2, truth*lap.RDP(2)) }, real},
		{"real DP", func(r dptest.Recorded) (dptest.Report, error) { return dptest.AuditRecordedDP(r, truth*lap.Epsilon()) }, real},
		{"real approx DP", func(r dptest.Recorded) (dptest.Report, error) {
			return dptest.AuditRecordedApproxDP(r, 0.5, truth*laplaceDelta(0.5))
		}, real},
		{"real GDP", func(r dptest.Recorded) (dptest.Report, error) { return dptest.AuditRecordedGDP(r, truth/g.Sigma) }, gauss},
		{"discrete RDP", func(r dptest.Recorded) (dptest.Report, error) {
			return dptest.AuditRecordedRDP(r, 2, truth*dlap.RDP(2))
		}, ints},
		{"discrete DP", func(r dptest.Recorded) (dptest.Report, error) { return dptest.AuditRecordedDP(r, truth*dlap.Epsilon()) }, ints},
		{"vector RDP", func(r dptest.Recorded) (dptest.Report, error) { return dptest.AuditRecordedRDP(r, 2, truth*g.RDP(2)) }, vecs},
		{"vector GDP", func(r dptest.Recorded) (dptest.Report, error) { return dptest.AuditRecordedGDP(r, truth/g.Sigma) }, vecs},
	}
}

// Recordings of mechanisms at their exact privacy never end violated or
// suspect. Each audit falsely fails with probability at most 10⁻⁴ (the
// default confidence), so the eight together at most 8·10⁻⁴; the seeds
// are fixed, so the test is deterministic.
func TestAuditRecordedAtTruth(t *testing.T) {
	for _, c := range recordedCases(1) {
		t.Run(c.name, func(t *testing.T) {
			rep, err := c.audit(c.rec)
			if rep.Verdict == dptest.Unresolved {
				require.ErrorIs(t, err, dptest.ErrUnresolved)
				return
			}
			require.NoError(t, err)
			require.Equal(t, dptest.Holds, rep.Verdict, "%s", rep)
			require.LessOrEqual(t, rep.LowerBound, rep.Claim.Value)
		})
	}
}

// A claim of a third of the truth is violated. At 40,000 draws per side
// the confirmed bounds lie within a fifth of the truth (the resolutions
// at the truth above are 1.05–1.3×), so each audit misses such a
// violation with probability far below 10⁻⁶.
func TestAuditRecordedViolated(t *testing.T) {
	for _, c := range recordedCases(1.0 / 3) {
		t.Run(c.name, func(t *testing.T) {
			rep, err := c.audit(c.rec)
			require.NoError(t, err)
			require.Equal(t, dptest.Violated, rep.Verdict, "%s", rep)
			require.Greater(t, rep.LowerBound, rep.Claim.Value)
		})
	}
}

// The report says how the records were split, and no output serves two
// purposes: the selection and both rounds add up to at most the outputs
// used, and the outputs read are exactly those.
func TestAuditRecordedSplit(t *testing.T) {
	xs, ys := record(5, 30_000, mechanisms.Laplace{B: 1}.Sample, []float64{1}, []float64{0})
	rep, err := dptest.AuditRecordedRDP(dptest.RecordedReal(xs, ys[:20_000]).Named("a.txt", "b.txt"), 2, 1, dptest.Seed(7))
	require.NoError(t, err)
	s := rep.Details.Recorded
	require.NotNil(t, s)
	require.Equal(t, [2]string{"a.txt", "b.txt"}, s.Names)
	require.Equal(t, [2]int{30_000, 20_000}, s.Recorded)
	require.Equal(t, 20_000, s.Used)
	require.Equal(t, 20_000/dptest.RecordedSelectionFraction, s.Selection)
	require.LessOrEqual(t, s.Selection+2*s.Confirmation, s.Used)
	require.Equal(t, s.Confirmation, rep.Details.Samples)
	require.Equal(t, int64(2*(s.Selection+2*s.Confirmation)), rep.Calls, "each side's selection once, each round once")
	require.Equal(t, uint64(7), rep.Seed)

	again, err := dptest.AuditRecordedRDP(dptest.RecordedReal(xs, ys[:20_000]).Named("a.txt", "b.txt"), 2, 1, dptest.Seed(7))
	require.NoError(t, err)
	require.Equal(t, rep.LowerBound, again.LowerBound, "a seed replays the audit")

	b, err := json.Marshal(rep)
	require.NoError(t, err)
	var got struct {
		Verdict string
		Details struct {
			Recorded dptest.RecordedSplit
		}
	}
	require.NoError(t, json.Unmarshal(b, &got))
	require.Equal(t, "holds", got.Verdict)
	require.Equal(t, *s, got.Details.Recorded)
}

// Recordings an audit cannot take are errors of the audit, naming what
// is wrong; no verdict.
func TestAuditRecordedErrors(t *testing.T) {
	xs, ys := record(6, 12_000, mechanisms.Laplace{B: 1}.Sample, []float64{1}, []float64{0})
	nan := append([]float64{}, xs...)
	nan[17] = math.NaN()
	short := make([][]float64, 20_000)
	for i := range short {
		short[i] = []float64{xs[i%len(xs)], 1}
	}
	short[9] = []float64{1}
	for _, c := range []struct {
		name string
		rec  dptest.Recorded
		opts []dptest.Option
		want string
	}{
		{"empty", dptest.RecordedReal(nil, ys), nil, "X has no outputs"},
		{"NaN", dptest.RecordedReal(nan, ys), nil, "output 17"},
		{"too few", dptest.RecordedReal(xs[:5000], ys[:5000]), nil, "too few"},
		{"unequal", dptest.RecordedReal(xs, ys[:2999]), nil, "at least 1/4"},
		{"mixed lengths", dptest.RecordedVectors(short, short), nil, "output 9"},
		{"option", dptest.RecordedReal(xs, ys), []dptest.Option{dptest.Samples(5000)}, "Samples does not apply"},
		{"zero", dptest.Recorded{}, nil, "zero Recorded"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := dptest.AuditRecordedRDP(c.rec, 2, 1, c.opts...)
			require.Error(t, err)
			require.True(t, strings.Contains(err.Error(), c.want), "%v", err)
			require.Equal(t, dptest.Verdict(0), rep.Verdict)
		})
	}
}

// The fewest outputs per side each kind of recording takes are at most
// those the documentation of AuditRecordedRDP states, and fewer are
// refused as too few.
func TestAuditRecordedLeast(t *testing.T) {
	for _, c := range []struct {
		rec  func(n int) dptest.Recorded
		most int
	}{
		{func(n int) dptest.Recorded { v := make([]float64, n); return dptest.RecordedReal(v, v) }, 9000},
		{func(n int) dptest.Recorded { v := make([]int, n); return dptest.RecordedDiscrete(v, v) }, 8000},
		{func(n int) dptest.Recorded {
			v := make([][]float64, n)
			for i := range v {
				v[i] = []float64{0, 1}
			}
			return dptest.RecordedVectors(v, v)
		}, 18_000},
	} {
		_, err := dptest.AuditRecordedRDP(c.rec(100), 2, 1)
		var least int
		_, scanErr := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "at least"):], "at least %d", &least)
		require.NoError(t, scanErr, "%v", err)
		require.LessOrEqual(t, least, c.most)
		_, err = dptest.AuditRecordedRDP(c.rec(least-1), 2, 1)
		require.ErrorContains(t, err, "too few")
	}
}
