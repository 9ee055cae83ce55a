package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/internal/pages"
)

// Claim types and the flags each needs.
var claimFlags = map[string][]string{
	"rdp":    {"lambda", "eps"},
	"dp":     {"eps"},
	"approx": {"eps", "delta"},
	"gdp":    {"mu"},
}

// claimValues are the flags that state a claim's values.
var claimValues = []string{"lambda", "eps", "delta", "mu"}

// auditConfig is a parsed audit command line.
type auditConfig struct {
	claim                  string
	lambda, eps, delta, mu float64
	confidence             float64
	seed                   uint64
	seedSet                bool
	strict, json, quiet    bool
	report                 string // a directory for the HTML report, or ""
	mode                   string // modeAuto, modeDiscrete or modeReal
	files                  [2]string
}

// audit runs dptest audit and returns its exit code.
func audit(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseAudit(args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitHolds
	case err != nil:
		fmt.Fprintf(stderr, "dptest: %v\n(dptest audit -h shows the usage)\n", err)
		return exitUsage
	}
	var progress io.Writer = stderr
	if cfg.quiet {
		progress = nil
	}
	b := newBar(progress, time.Now)
	rep, what, err := auditFiles(cfg, b)
	b.done()
	if err != nil {
		// The library's errors carry the prefix already.
		fmt.Fprintf(stderr, "dptest: %s\n", strings.TrimPrefix(err.Error(), "dptest: "))
		return exitUsage
	}
	for _, w := range writersOf(cfg) {
		if err := w(rep, what, stdout); err != nil {
			fmt.Fprintf(stderr, "dptest: %v\n", err)
			return exitUsage
		}
	}
	if cfg.report != "" {
		if rep.Details.ReportError != "" {
			fmt.Fprintf(stderr, "dptest: the report directory could not be written: %s\n", rep.Details.ReportError)
			return exitUsage
		}
		fmt.Fprintf(stderr, "report: %s\n", filepath.Join(cfg.report, pages.IndexFile))
	}
	return exitCode(rep.Verdict, cfg.strict)
}

// exitCode is the exit code of a verdict.
func exitCode(v dptest.Verdict, strict bool) int {
	switch v {
	case dptest.Holds:
		return exitHolds
	case dptest.Violated:
		return exitViolated
	case dptest.Suspect:
		return exitSuspect
	case dptest.Unresolved:
		if strict {
			return exitUnresolved
		}
		return exitHolds
	}
	return exitUsage
}

// parseAudit parses the audit command line: the claim type, then flags
// and the two files in any order ("--" ends the flags).
func parseAudit(args []string, stderr io.Writer) (auditConfig, error) {
	cfg := auditConfig{confidence: dptest.DefaultConfidence, mode: modeAuto}
	fs := flag.NewFlagSet("dptest audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults(); fmt.Fprint(stderr, exitCodes) }
	fs.Float64Var(&cfg.lambda, "lambda", 0, "the Rényi order `λ` > 1 (rdp)")
	fs.Float64Var(&cfg.eps, "eps", 0, "the claimed `ε` (rdp, dp, approx)")
	fs.Float64Var(&cfg.delta, "delta", 0, "the claimed `δ` in [0, 1) (approx)")
	fs.Float64Var(&cfg.mu, "mu", 0, "the claimed `μ` (gdp)")
	fs.Float64Var(&cfg.confidence, "confidence", dptest.DefaultConfidence, "`confidence` of the verdict, in (0, 1)")
	fs.Func("seed", "`seed` of the split of the records (default: derived from the claim)", func(s string) error {
		v, err := strconv.ParseUint(s, 10, 64)
		cfg.seed, cfg.seedSet = v, err == nil
		return err
	})
	fs.BoolVar(&cfg.strict, "strict", false, "exit 4, not 0, when the audit is unresolved")
	fs.BoolVar(&cfg.json, "json", false, "print the report as JSON")
	fs.StringVar(&cfg.report, "report", "", "write the audit's page, index.html and report.json into `DIR`")
	fs.BoolVar(&cfg.quiet, "quiet", false, "show no progress bar")
	discrete := fs.Bool("discrete", false, "count numbers value by value; read any text as a label")
	asReal := fs.Bool("real", false, "read numbers as real outputs, even if all are integers")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return cfg, err
	}
	switch {
	case *discrete && *asReal:
		return cfg, errors.New("--discrete and --real exclude each other")
	case *discrete:
		cfg.mode = modeDiscrete
	case *asReal:
		cfg.mode = modeReal
	}
	if len(pos) != 3 {
		return cfg, fmt.Errorf("want a claim type and two files, got %d arguments %q", len(pos), pos)
	}
	cfg.claim, cfg.files = pos[0], [2]string{pos[1], pos[2]}
	return cfg, checkClaimFlags(cfg.claim, fs)
}

// parseInterleaved parses flags among positional arguments, returning
// the positional ones in order; everything after "--" is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, rest = args[:i], args[i+1:]
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if args = fs.Args(); len(args) == 0 {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// checkClaimFlags checks that the claim type is known, that its values
// are all given and that no other claim's are.
func checkClaimFlags(claim string, fs *flag.FlagSet) error {
	need, ok := claimFlags[claim]
	if !ok {
		return fmt.Errorf("unknown claim type %q (want rdp, dp, approx or gdp)", claim)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, name := range need {
		if !set[name] {
			return fmt.Errorf("%s needs --%s", claim, name)
		}
	}
	for _, name := range claimValues {
		if set[name] && !slices.Contains(need, name) {
			return fmt.Errorf("--%s does not apply to %s", name, claim)
		}
	}
	return nil
}

// auditFiles reads both files and audits the claim on them.
func auditFiles(cfg auditConfig, b *bar) (dptest.Report, string, error) {
	var recs [2]*recording
	for i, name := range cfg.files {
		r, err := readRecording(name, cfg.mode == modeDiscrete, func(done, total int64) { b.set("reading "+shorten(name), done, total) })
		if err != nil {
			return dptest.Report{}, "", err
		}
		recs[i] = r
	}
	rec, what, err := recordedOf(recs[0], recs[1], cfg.mode)
	if err != nil {
		return dptest.Report{}, "", err
	}
	opts := []dptest.Option{dptest.Confidence(cfg.confidence), dptest.OnProgress(func(done, planned int64) { b.set("auditing", done, planned) })}
	if cfg.seedSet {
		opts = append(opts, dptest.Seed(cfg.seed))
	}
	if cfg.strict {
		opts = append(opts, dptest.Strict())
	}
	if cfg.report != "" {
		opts = append(opts, dptest.ReportTo(cfg.report), dptest.Label(cfg.files[0]+" vs "+cfg.files[1]))
	}
	var rep dptest.Report
	switch cfg.claim {
	case "rdp":
		rep, err = dptest.AuditRecordedRDP(rec, cfg.lambda, cfg.eps, opts...)
	case "dp":
		rep, err = dptest.AuditRecordedDP(rec, cfg.eps, opts...)
	case "approx":
		rep, err = dptest.AuditRecordedApproxDP(rec, cfg.eps, cfg.delta, opts...)
	case "gdp":
		rep, err = dptest.AuditRecordedGDP(rec, cfg.mu, opts...)
	}
	if rep.Verdict == 0 { // no verdict: the audit could not run
		return rep, what, err
	}
	return rep, what, nil
}

// reportWriter writes a finished report; what says how the outputs were
// read.
type reportWriter func(rep dptest.Report, what string, stdout io.Writer) error

// writersOf lists the writers of an audit's report: its text or its
// JSON on stdout. Another output, such as a --report DIR of HTML pages,
// adds its flag to parseAudit and its writer here; it reads the same
// finished Report.
func writersOf(cfg auditConfig) []reportWriter {
	if cfg.json {
		return []reportWriter{writeJSON}
	}
	return []reportWriter{writeText}
}

// writeJSON writes the report's JSON (Report.MarshalJSON) on one line.
func writeJSON(rep dptest.Report, _ string, stdout io.Writer) error {
	b, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", b)
	return err
}

// writeText writes the report's text, then how the records were read
// and split, and the seed that replays the split.
func writeText(rep dptest.Report, what string, stdout io.Writer) error {
	var b strings.Builder
	text := rep.String()
	b.WriteString(text)
	if s := rep.Details.Recorded; s != nil {
		fmt.Fprintf(&b, "\n    outputs:      %s", what)
		fmt.Fprintf(&b, "\n    records:      %s %s and %s %s outputs; %s per side used: %s chose the statistic, two rounds of %s confirmed it",
			s.Names[0], thousands(s.Recorded[0]), s.Names[1], thousands(s.Recorded[1]), thousands(s.Used), thousands(s.Selection), thousands(s.Confirmation))
	}
	if !strings.Contains(text, "To reproduce:") {
		fmt.Fprintf(&b, "\n    seed:         %d (--seed %[1]d replays the split)", rep.Seed)
	}
	if rep.Verdict == dptest.Unresolved || rep.Verdict == dptest.Suspect {
		// The reason counts draws per side of one confirmation round.
		f := float64(dptest.RecordedSelectionFraction)
		fmt.Fprintf(&b, "\n    recordings:   draws per side above are one confirmation round's; a recording needs %.3g times as many outputs", 2*f/(f-1))
	}
	_, err := fmt.Fprintln(stdout, b.String())
	return err
}

// thousands prints a count with comma separators: 1,000,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
