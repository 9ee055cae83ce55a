package dptest_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/pages"
	"github.com/dptest/dptest/mechanisms"
)

// reportDraws and reportSeed are the draws per side and the seed of
// reportAudits' audits.
const reportDraws, reportSeed = 50_000, 7

// reportAudits writes one audit of each claim type, a discrete and a
// vector mechanism's, and a violation into dir, and returns their reports.
// Fixed seeds; the correct claims have room, so none is violated or
// suspect but with probability under 10⁻⁴ each.
func reportAudits(t *testing.T, dir string) []dptest.Report {
	t.Helper()
	lap, gauss := mechanisms.Laplace{B: 1}, mechanisms.Gaussian{Sigma: 1}
	rr := dptest.Discrete(func(r *rand.Rand, x []float64) int {
		b := 0
		if x[0] > 0.5 {
			b = 1
		}
		if r.Float64() < 0.25 {
			return 1 - b
		}
		return b
	})
	vec := dptest.Vector(func(r *rand.Rand, x []float64) []float64 {
		return []float64{x[0] + r.NormFloat64(), x[1] + r.NormFloat64()}
	})
	opts := []dptest.Option{dptest.Samples(reportDraws), dptest.Seed(reportSeed), dptest.ReportTo(dir)}
	var reps []dptest.Report
	keep := func(rep dptest.Report, err error) {
		t.Helper()
		require.Empty(t, rep.Details.ReportError)
		reps = append(reps, rep)
	}
	keep(dptest.AuditRDP(dptest.Continuous(lap.Sample), 2, 2*lap.RDP(2), opts...))
	keep(dptest.AuditDP(dptest.Continuous(lap.Sample), 2, opts...))
	keep(dptest.AuditApproxDP(dptest.Continuous(gauss.Sample), 1, 0.6, opts...))
	keep(dptest.AuditGDP(dptest.Continuous(gauss.Sample), 2, opts...))
	keep(dptest.AuditDP(rr, 3, opts...))
	keep(dptest.AuditGDP(vec, 3, opts...))
	keep(dptest.AuditRDP(dptest.Continuous(lap.Sample), 2, lap.RDP(2)/4, opts...))
	return reps
}

// The report directory holds a page per audit with its pictures, an index
// listing every audit, failures first, and report.json with one entry per
// audit whose report object is the Report's JSON. Its keys are documented
// (requireJSONSchemaDocumented), and its pages render in a browser
// (requireRendersInBrowser): the three checks share one set of audits.
func TestReportDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reps := reportAudits(t, dir)
	t.Run("json schema", func(t *testing.T) { requireJSONSchemaDocumented(t, dir) })
	t.Run("browser", func(t *testing.T) { requireRendersInBrowser(t, dir, len(reps)) })
	require.Equal(t, dptest.Violated, reps[len(reps)-1].Verdict)
	for _, rep := range reps[:len(reps)-1] {
		require.Contains(t, []dptest.Verdict{dptest.Holds, dptest.Unresolved}, rep.Verdict, "%s", rep)
		require.Positive(t, rep.Details.PictureCalls)
	}

	b, err := os.ReadFile(filepath.Join(dir, pages.JSONFile))
	require.NoError(t, err)
	var entries []pages.Entry
	require.NoError(t, json.Unmarshal(b, &entries))
	require.Equal(t, len(reps), len(entries))
	require.Equal(t, "violated", entries[0].Verdict, "failures first")
	for _, e := range entries {
		var report map[string]any
		require.NoError(t, json.Unmarshal(e.Report, &report))
		require.Equal(t, e.Verdict, report["verdict"])
		require.Contains(t, report, "claim")
		page, err := os.ReadFile(filepath.Join(dir, e.Page))
		require.NoError(t, err)
		require.Equal(t, 2, strings.Count(string(page), "<svg"), "%s: the distributions and the claim's picture", e.Page)
		require.NotContains(t, string(page), `class="note"`, e.Page)
	}
	index, err := os.ReadFile(filepath.Join(dir, pages.IndexFile))
	require.NoError(t, err)
	require.Equal(t, len(reps), strings.Count(string(index), `<tr class="audit">`))

	// Entries accumulate: an audit run again adds its own (reportAudits'
	// first, as it ran).
	lap := mechanisms.Laplace{B: 1}
	again, err := dptest.AuditRDP(dptest.Continuous(lap.Sample), 2, 2*lap.RDP(2), dptest.Samples(reportDraws), dptest.Seed(reportSeed), dptest.ReportTo(dir))
	require.NoError(t, err)
	require.Equal(t, reps[0].LowerBound, again.LowerBound, "the same audit")
	b, err = os.ReadFile(filepath.Join(dir, pages.JSONFile))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &entries))
	require.Len(t, entries, len(reps)+1)
}

// ReportTo needs a directory; a directory that cannot be written fails the
// test form with the reason, and leaves the audit's verdict as it was.
func TestReportToErrors(t *testing.T) {
	m := dptest.Continuous(mechanisms.Laplace{B: 1}.Sample)
	_, err := dptest.AuditDP(m, 1, dptest.ReportTo(""))
	require.Error(t, err)

	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	rep, err := dptest.AuditDP(m, 1, dptest.Samples(20_000), dptest.Seed(1), dptest.ReportTo(file))
	require.NoError(t, err)
	require.NotEmpty(t, rep.Details.ReportError)
	rec := &recorder{}
	require.False(t, dptest.CheckDP(rec, m, 1, dptest.Samples(20_000), dptest.Seed(1), dptest.ReportTo(file)))
	require.NotEmpty(t, rec.errors)
}

// documentedKeys reads the keys of the table under heading in
// docs/report-json.md, and which of them are optional.
func documentedKeys(t *testing.T, heading string) map[string]bool {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "report-json.md"))
	require.NoError(t, err)
	keys := map[string]bool{}
	in := false
	for _, line := range strings.Split(string(doc), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## "+heading
		case in && strings.HasPrefix(line, "| `"):
			cells := strings.Split(line, "|")
			keys[strings.Trim(cells[1], " `")] = strings.Contains(cells[2], "optional")
		}
	}
	require.NotEmpty(t, keys, heading)
	return keys
}

// requireJSONSchemaDocumented requires report.json's entries and reports
// in dir to have exactly the keys that docs/report-json.md documents, the
// optional ones aside.
func requireJSONSchemaDocumented(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, pages.JSONFile))
	require.NoError(t, err)
	var entries []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &entries))
	check := func(heading string, obj map[string]json.RawMessage) {
		t.Helper()
		doc := documentedKeys(t, heading)
		for k := range obj {
			require.Contains(t, doc, k, "%s key %q is not documented", heading, k)
		}
		for k, optional := range doc {
			if !optional {
				require.Contains(t, obj, k, "%s key %q is documented but missing", heading, k)
			}
		}
	}
	for _, e := range entries {
		check("Entry", e)
		var report map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(e["report"], &report))
		check("Report", report)
	}
}

// A relative report directory of the command line is taken from the
// module's root, where go test ./... runs each package in its own
// directory; an absolute one is kept.
func TestReportDirFromModuleRoot(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	root := filepath.Dir(wd) // this package is one below the module's root
	require.FileExists(t, filepath.Join(root, "go.mod"))
	require.Equal(t, filepath.Join(root, "out"), dptest.FromModuleRoot("out"))
	require.Equal(t, "/abs/out", dptest.FromModuleRoot("/abs/out"))
	require.Empty(t, dptest.FromModuleRoot(""))
}

// An audit of []float64 datasets given no neighbours searches the default
// domain, and the hint says how to declare one, once per binary; an audit
// given its pairs gives no hint.
func TestDefaultDomainHint(t *testing.T) {
	lap := mechanisms.Laplace{B: 1}
	opts := []dptest.Option{dptest.Samples(20_000), dptest.Seed(1)}
	var hinted atomic.Bool
	defaulted, err := dptest.AuditDP(dptest.Continuous(lap.Sample), 2, opts...)
	require.NoError(t, err)
	rec := &recorder{}
	dptest.HintDefaultDomain(rec, &hinted, defaulted)
	dptest.HintDefaultDomain(rec, &hinted, defaulted)
	require.Len(t, rec.logs, 1, "once")

	rec, hinted = &recorder{}, atomic.Bool{}
	given, err := dptest.AuditDP(dptest.Continuous(lap.Sample).WithPairs(fixtures.Canonical(10)), 2, opts...)
	require.NoError(t, err)
	dptest.HintDefaultDomain(rec, &hinted, given)
	require.Empty(t, rec.logs)
}
