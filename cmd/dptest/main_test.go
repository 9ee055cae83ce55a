package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/mechanisms"
)

// draws is the outputs per side of the recordings written here.
const draws = 40_000

// writeLines writes one file of lines in dir and returns its path.
func writeLines(t *testing.T, dir, name string, lines []string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	return path
}

// recordFiles writes n outputs of f on x and on y, from a generator of
// the given seed, one number per line, and returns the two paths.
func recordFiles(t *testing.T, seed uint64, f func(*rand.Rand, []float64) float64) (string, string) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	lx, ly := make([]string, draws), make([]string, draws)
	for i := range lx {
		lx[i] = strconv.FormatFloat(f(r, []float64{1}), 'g', -1, 64)
		ly[i] = strconv.FormatFloat(f(r, []float64{0}), 'g', -1, 64)
	}
	dir := t.TempDir()
	return writeLines(t, dir, "x.txt", lx), writeLines(t, dir, "y.txt", ly)
}

// runJSON runs the command with --json and returns its exit code and
// the report's verdict and reason type.
func runJSON(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := run(append(args, "--json", "--quiet"), &out, &errs)
	var rep struct {
		Verdict string
		Reason  struct{ Type string }
		Details struct{ Recorded dptest.RecordedSplit }
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep), "stdout %q, stderr %q", out.String(), errs.String())
	require.Equal(t, draws, rep.Details.Recorded.Used)
	return code, rep.Verdict, rep.Reason.Type
}

// Recordings of the Laplace mechanism (scale 1) and the Gaussian one
// (σ = 2) at their exact privacy hold, or are unresolved, for every claim
// type, and exit 0. Each audit falsely fails with probability at most
// 10⁻⁴ (the default confidence); the seeds are fixed.
func TestAuditHolds(t *testing.T) {
	lx, ly := recordFiles(t, 1, mechanisms.Laplace{B: 1}.Sample)
	gx, gy := recordFiles(t, 2, mechanisms.Gaussian{Sigma: 2}.Sample)
	lap := mechanisms.Laplace{B: 1}
	for _, args := range [][]string{
		{"rdp", "--lambda", "2", "--eps", fmt.Sprint(lap.RDP(2)), lx, ly},
		{"dp", "--eps", "1", lx, ly},
		{"approx", "--eps", "0.5", "--delta", fmt.Sprint(1 - 0.7788007830714049), lx, ly}, // δ(½) = 1 − e^{−¼}
		{"gdp", "--mu", "0.5", gx, gy},
		{"rdp", "--lambda", "2", "--eps", "0.25", gx, gy},
	} {
		t.Run(args[0], func(t *testing.T) {
			code, verdict, _ := runJSON(t, append([]string{"audit"}, args...)...)
			require.Contains(t, []string{"holds", "unresolved"}, verdict)
			require.Equal(t, exitHolds, code)
		})
	}
}

// A claim of a third of the truth is violated, exit 1, in text and JSON.
// At 40,000 draws per side the bounds lie within a fifth of the truth,
// so each audit misses the violation with probability far below 10⁻⁶.
func TestAuditViolated(t *testing.T) {
	lx, ly := recordFiles(t, 3, mechanisms.Laplace{B: 1}.Sample)
	code, verdict, _ := runJSON(t, "audit", "dp", "--eps", "0.33", lx, ly)
	require.Equal(t, "violated", verdict)
	require.Equal(t, exitViolated, code)

	var out, errs bytes.Buffer
	require.Equal(t, exitViolated, run([]string{"audit", "gdp", lx, ly, "--mu", "0.3", "--quiet"}, &out, &errs), errs.String())
	require.Contains(t, out.String(), "two rounds of", "the text says how the records were split")
}

// An unresolved audit exits 0, and 4 under --strict: (ε, δ) = (1, 10⁻⁷)
// lies far below what 15,000 draws per round can show (ClaimBeyondReach
// or CoarseResolution), whatever the draws.
func TestAuditStrict(t *testing.T) {
	lx, ly := recordFiles(t, 4, mechanisms.Laplace{B: 1}.Sample)
	args := []string{"audit", "approx", "--eps", "1", "--delta", "1e-7", lx, ly}
	code, verdict, _ := runJSON(t, args...)
	require.Equal(t, "unresolved", verdict)
	require.Equal(t, exitHolds, code)
	code, verdict, _ = runJSON(t, append(args, "--strict")...)
	require.Equal(t, "unresolved", verdict)
	require.Equal(t, exitUnresolved, code)
}

// Text labels that never repeat cannot be seen: the audit is suspect,
// exit 3 (BlindOutputs). This holds for any draws: every label is new.
func TestAuditSuspect(t *testing.T) {
	dir := t.TempDir()
	lx, ly := make([]string, draws), make([]string, draws)
	for i := range lx {
		lx[i], ly[i] = fmt.Sprintf(`"x%d"`, i), fmt.Sprintf(`"y%d"`, i)
	}
	code, verdict, reason := runJSON(t, "audit", "rdp", "--lambda", "2", "--eps", "1",
		writeLines(t, dir, "x.jsonl", lx), writeLines(t, dir, "y.jsonl", ly))
	require.Equal(t, "suspect", verdict)
	require.Equal(t, "BlindOutputs", reason)
	require.Equal(t, exitSuspect, code)
}

// Discrete integers, JSON labels and CSV vectors are read and audited.
// Each holds at its claim (false failure at most 10⁻⁴ each).
func TestAuditFormats(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(5, 1))
	dl, g := mechanisms.DiscreteLaplace{B: 2, Sensitivity: 1}, mechanisms.Gaussian{Sigma: 2}
	var ix, iy, jx, jy, vx, vy []string
	for range draws {
		ix, iy = append(ix, fmt.Sprint(dl.Sample(r, 1))), append(iy, fmt.Sprint(dl.Sample(r, 0)))
		jx, jy = append(jx, fmt.Sprintf("%q", fmt.Sprint("v", dl.Sample(r, 1)))), append(jy, fmt.Sprintf("%q", fmt.Sprint("v", dl.Sample(r, 0))))
		vx = append(vx, fmt.Sprintf("%g, %g", g.Sample(r, []float64{1}), g.Sample(r, []float64{0})))
		vy = append(vy, fmt.Sprintf("[%g, %g]", g.Sample(r, []float64{0}), g.Sample(r, []float64{0})))
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"integers", []string{"dp", "--eps", fmt.Sprint(dl.Epsilon()), writeLines(t, dir, "ix", ix), writeLines(t, dir, "iy", iy)}},
		{"labels", []string{"gdp", "--mu", "0.6", writeLines(t, dir, "jx", jx), writeLines(t, dir, "jy", jy)}},
		{"vectors", []string{"rdp", "--lambda", "2", "--eps", fmt.Sprint(g.RDP(2)), writeLines(t, dir, "vx", vx), writeLines(t, dir, "vy", vy)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, verdict, _ := runJSON(t, append([]string{"audit"}, c.args...)...)
			require.Contains(t, []string{"holds", "unresolved"}, verdict)
			require.Equal(t, exitHolds, code)
		})
	}
}

// Bad input exits 2 with a message naming the file and, where there is
// one, the line.
func TestAuditBadInput(t *testing.T) {
	dir := t.TempDir()
	good := make([]string, draws)
	for i := range good {
		good[i] = strconv.Itoa(i % 7)
	}
	y := writeLines(t, dir, "y.txt", good)
	bad := func(name string, at int, line string) string {
		lines := append([]string{}, good...)
		lines[at-1] = line
		return writeLines(t, dir, name, lines)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"malformed", []string{"dp", "--eps", "1", bad("m.txt", 12, "twelve"), y}, "m.txt:12:"},
		{"NaN", []string{"dp", "--eps", "1", bad("n.txt", 30, "NaN"), y}, "n.txt:30:"},
		{"Inf in a row", []string{"dp", "--eps", "1", bad("i.txt", 5, "1, +Inf"), y}, "i.txt:5:"},
		{"mixed kinds", []string{"dp", "--eps", "1", bad("k.txt", 7, "1, 2"), y}, "k.txt:7:"},
		{"mixed lengths", []string{"dp", "--eps", "1", writeLines(t, dir, "v.txt", []string{"[1, 2]", "[1, 2]", "[3]"}), y}, "v.txt:3:"},
		{"empty", []string{"dp", "--eps", "1", writeLines(t, dir, "e.txt", []string{"# nothing"}), y}, "e.txt"},
		{"short", []string{"dp", "--eps", "1", writeLines(t, dir, "s.txt", good[:draws/4-1]), y}, "s.txt"},
		{"missing", []string{"dp", "--eps", "1", filepath.Join(dir, "none"), y}, "none"},
		{"no claim value", []string{"rdp", "--eps", "1", y, y}, "--lambda"},
		{"foreign flag", []string{"dp", "--eps", "1", "--mu", "1", y, y}, "--mu"},
		{"unknown claim", []string{"ldp", "--eps", "1", y, y}, "ldp"},
		{"one file", []string{"dp", "--eps", "1", y}, "two files"},
		{"bad value", []string{"rdp", "--lambda", "1", "--eps", "1", y, y}, "λ"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			require.Equal(t, exitUsage, run(append([]string{"audit", "--quiet"}, c.args...), &out, &errs))
			require.Contains(t, errs.String(), c.want)
			require.Empty(t, out.String())
		})
	}
}

// The command names: help exits 0, an unknown one 2, demo with an
// argument it does not take 2.
func TestRunCommands(t *testing.T) {
	var out, errs bytes.Buffer
	require.Equal(t, exitHolds, run([]string{"help"}, &out, &errs))
	require.Contains(t, out.String(), "Exit codes")
	require.Equal(t, exitUsage, run([]string{"nope"}, &out, &errs))
	require.Equal(t, exitUsage, run([]string{"demo", "extra"}, &out, &errs))
	require.Equal(t, exitUsage, run([]string{"demo", "-nope"}, &out, &errs))
	require.Equal(t, exitUsage, run(nil, &out, &errs))
	require.Equal(t, exitHolds, run([]string{"audit", "-h"}, &out, &errs))
}

// The bar shows nothing in its first second, then a line (on a writer
// that is not a terminal), and nothing under --quiet.
func TestBar(t *testing.T) {
	now := time.Unix(0, 0)
	clock := func() time.Time { return now }
	var buf bytes.Buffer
	b := newBar(&buf, clock)
	b.set("reading x", 1, 4)
	require.Empty(t, buf.String())
	now = now.Add(progressDelay)
	b.set("reading x", 1, 4)
	require.Contains(t, buf.String(), "25%")
	quiet := newBar(nil, clock)
	quiet.set("reading x", 1, 4)
	quiet.done()
}

// --report DIR writes the audit's page and report.json beside the text;
// a directory that cannot be written is a usage error (exit 2). Fixed
// seed; a violation by a factor of three, detected at every seed tried.
func TestAuditReport(t *testing.T) {
	lx, ly := recordFiles(t, 5, mechanisms.Laplace{B: 1}.Sample)
	dir := filepath.Join(t.TempDir(), "report")
	var out, errs bytes.Buffer
	code := run([]string{"audit", "dp", "--eps", "0.33", "--quiet", "--report", dir, lx, ly}, &out, &errs)
	require.Equal(t, exitViolated, code, errs.String())
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	var entries []struct{ Verdict, Page string }
	require.NoError(t, json.Unmarshal(b, &entries))
	require.Len(t, entries, 1)
	require.Equal(t, "violated", entries[0].Verdict)
	page, err := os.ReadFile(filepath.Join(dir, entries[0].Page))
	require.NoError(t, err)
	require.GreaterOrEqual(t, strings.Count(string(page), "<svg"), 2)

	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	code = run([]string{"audit", "dp", "--eps", "1", "--quiet", "--report", file, lx, ly}, &out, &errs)
	require.Equal(t, exitUsage, code)
}
