// Package pages writes the report directory of a run of audits: a page per
// audit with its pictures, an index of every audit, and report.json. Pages
// are self-contained: inline SVG and CSS, no script, nothing fetched.
// Several test binaries may write one directory at once: a lock file
// orders their writes, and each write rebuilds the index from every audit
// in the directory.
package pages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Names in the report directory.
const (
	IndexFile  = "index.html"
	JSONFile   = "report.json"
	AuditsDir  = "audits"
	lockFile   = ".lock"
	lockWait   = 30 * time.Second
	lockStale  = time.Minute
	lockPoll   = 10 * time.Millisecond
	maxIDRunes = 80
)

// Fact is one labelled line of a page.
type Fact struct{ Label, Value string }

// Picture is one SVG picture with its title and caption.
type Picture struct {
	Title, Caption string
	SVG            []byte
}

// Audit is what a page shows of one audit, and what the index lists.
type Audit struct {
	Test, Claim, Verdict string
	// Text is the verdict as the test log shows it.
	Text      string
	Facts     []Fact
	Reproduce string
	Pictures  []Picture
	// Notes say which pictures could not be drawn, and why.
	Notes             []string
	Bound, Resolution float64
	Calls             int64
	Seconds           float64
	// Seed and JSON identify the audit and hold its report object.
	Seed uint64
	JSON json.RawMessage
}

// Entry is one audit's line of report.json: its page, and the report.
type Entry struct {
	Page       string          `json:"page"`
	Test       string          `json:"test"`
	Claim      string          `json:"claim"`
	Verdict    string          `json:"verdict"`
	Bound      Number          `json:"bound"`
	Resolution Number          `json:"resolution"`
	Calls      int64           `json:"calls"`
	Seconds    Number          `json:"seconds"`
	Report     json.RawMessage `json:"report"`
}

// ID is the file stem of an audit's page: its test, claim and seed, and
// the process and time of the write, so that no two audits share a page.
// Entries accumulate: give each run a directory of its own.
func ID(a Audit) string {
	clean := func(s string) string {
		s = strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
				return r
			}
			return '_'
		}, s)
		if r := []rune(s); len(r) > maxIDRunes {
			s = string(r[:maxIDRunes])
		}
		return s
	}
	return fmt.Sprintf("%s-%s-%016x-%d-%x", clean(a.Test), clean(a.Claim), a.Seed, os.Getpid(), time.Now().UnixNano())
}

// Write adds one audit to the report directory dir (made if missing): its
// page and entry, then the index and report.json rebuilt from every entry.
func Write(dir string, a Audit) error {
	if err := os.MkdirAll(filepath.Join(dir, AuditsDir), 0o755); err != nil {
		return err
	}
	unlock, err := lock(dir)
	if err != nil {
		return err
	}
	defer unlock()
	id := ID(a)
	page, err := pageHTML(a)
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, AuditsDir, id+".html"), page); err != nil {
		return err
	}
	e := Entry{Page: AuditsDir + "/" + id + ".html", Test: a.Test, Claim: a.Claim, Verdict: a.Verdict,
		Bound: Number(a.Bound), Resolution: Number(a.Resolution), Calls: a.Calls, Seconds: Number(a.Seconds), Report: a.JSON}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, AuditsDir, id+".json"), b); err != nil {
		return err
	}
	return rebuild(dir)
}

// Number is a float64 whose JSON is a number, or a string ("+Inf",
// "-Inf", "NaN") where JSON has no number for it, as in the report.
type Number float64

// MarshalJSON writes n as a number, or as a string when not finite.
func (n Number) MarshalJSON() ([]byte, error) {
	v := float64(n)
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return json.Marshal(strconv.FormatFloat(v, 'g', -1, 64))
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads a number or one of the strings MarshalJSON writes.
func (n *Number) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		v, err := strconv.ParseFloat(s, 64)
		*n = Number(v)
		return err
	}
	var v float64
	err := json.Unmarshal(b, &v)
	*n = Number(v)
	return err
}

// Entries reads every audit's entry in dir, failures first.
func Entries(dir string) ([]Entry, error) {
	paths, err := filepath.Glob(filepath.Join(dir, AuditsDir, "*.json"))
	if err != nil {
		return nil, err
	}
	var es []Entry
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var e Entry
		if err := json.Unmarshal(b, &e); err != nil {
			return nil, fmt.Errorf("pages: %s: %w", p, err)
		}
		es = append(es, e)
	}
	slices.SortStableFunc(es, func(a, b Entry) int {
		if c := rank(a.Verdict) - rank(b.Verdict); c != 0 {
			return c
		}
		return strings.Compare(a.Test+a.Claim, b.Test+b.Claim)
	})
	return es, nil
}

// rank orders verdicts in the index: failures and suspects first.
func rank(verdict string) int {
	switch verdict {
	case "violated":
		return 0
	case "suspect":
		return 2
	case "unresolved":
		return 3
	case "holds":
		return 4
	}
	return 1 // an audit that could not run
}

func rebuild(dir string) error {
	es, err := Entries(dir)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(es, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, JSONFile), b); err != nil {
		return err
	}
	index, err := indexHTML(es)
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, IndexFile), index)
}

// writeFile writes b to path through a temporary file, so that a reader
// never sees half a file.
func writeFile(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// lock takes the directory's lock file, waiting up to lockWait; a lock
// older than lockStale is taken as left by a killed process.
func lock(dir string) (unlock func(), err error) {
	path := filepath.Join(dir, lockFile)
	deadline := time.Now().Add(lockWait)
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if st, serr := os.Stat(path); serr == nil && time.Since(st.ModTime()) > lockStale {
			os.Remove(path)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("pages: %s is locked by another writer for over %v", path, lockWait)
		}
		time.Sleep(lockPoll)
	}
}

const style = `body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4}.num{text-align:right;font-variant-numeric:tabular-nums}
.v-violated,.v-error{color:#b00020;font-weight:bold}.v-suspect{color:#b35c00;font-weight:bold}.v-unresolved{color:#555}.v-holds{color:#146c2e}
pre{white-space:pre-wrap;background:#f7f7f7;padding:.6rem;border-radius:4px}figure{margin:1rem 0}figcaption{color:#444;font-size:.9rem}
svg{max-width:100%;height:auto}`

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{"svg": func(b []byte) template.HTML { return template.HTML(b) }}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Test}}: {{.Claim}}</title><style>` + style + `</style></head>
<body><p><a href="../` + IndexFile + `">All audits</a></p>
<h1>{{.Test}}: {{.Claim}} <span class="v-{{.Verdict}}">{{.Verdict}}</span></h1>
<pre id="verdict">{{.Text}}</pre>
<table id="facts">{{range .Facts}}<tr><th>{{.Label}}</th><td>{{.Value}}</td></tr>{{end}}</table>
{{if .Reproduce}}<h2>Reproduce</h2><pre>{{.Reproduce}}</pre>{{end}}
{{range .Pictures}}<figure class="picture"><h2>{{.Title}}</h2>{{svg .SVG}}<figcaption>{{.Caption}}</figcaption></figure>{{end}}
{{range .Notes}}<p class="note">{{.}}</p>{{end}}
</body></html>
`))

func pageHTML(a Audit) ([]byte, error) {
	var b bytes.Buffer
	err := pageTemplate.Execute(&b, a)
	return b.Bytes(), err
}

var indexTemplate = template.Must(template.New("index").Funcs(template.FuncMap{"num": number}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>dptest audits</title><style>` + style + `</style></head>
<body><h1>dptest: {{len .}} audits</h1>
<p>Failures and suspects first. A verdict links to its page.</p>
<table id="audits"><thead><tr><th>test</th><th>claim</th><th>verdict</th><th class="num">bound</th><th class="num">resolution</th><th class="num">calls</th><th class="num">seconds</th></tr></thead><tbody>
{{range .}}<tr class="audit"><td>{{.Test}}</td><td>{{.Claim}}</td><td><a class="v-{{.Verdict}}" href="{{.Page}}">{{.Verdict}}</a></td><td class="num">{{num .Bound}}</td><td class="num">{{num .Resolution}}</td><td class="num">{{.Calls}}</td><td class="num">{{printf "%.2f" .Seconds}}</td></tr>
{{end}}</tbody></table></body></html>
`))

func number(v Number) string { return fmt.Sprintf("%.4g", float64(v)) }

func indexHTML(es []Entry) ([]byte, error) {
	var b bytes.Buffer
	err := indexTemplate.Execute(&b, es)
	return b.Bytes(), err
}
