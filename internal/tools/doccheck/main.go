// Command doccheck holds the project's documentation to two rules: the
// README is at most MaxReadmeBytes long, and no sentence of README.md or
// docs/*.md or beam/README.md has more than MaxSentenceWords words.
//
// Run it from the module root, or give the root as its one argument:
//
//	go run ./internal/tools/doccheck [root]
//
// It prints each violation with its file and line and exits 1 if there
// is any, 0 if there is none, and 2 if a file cannot be read.
//
// Sentences are read from prose only. Fenced code blocks, indented code
// blocks, table rows and headings are skipped. A paragraph (lines up to
// a blank line, a skipped line or a new list item) is split into
// sentences after ". ", "? " and "! ". Words are whitespace-separated
// tokens. The splitter is deliberately simple: an abbreviation such as
// "e.g. " ends a sentence early, which can only make a sentence shorter.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// MaxReadmeBytes is the largest README.md allowed: 15 KB.
const MaxReadmeBytes = 15 * 1024

// MaxSentenceWords is the most words a sentence of the docs may have.
const MaxSentenceWords = 40

// sentenceEnds are the separators a paragraph is split on. Each keeps
// its punctuation with the sentence before it.
var sentenceEnds = []string{". ", "? ", "! "}

// Sentence is one sentence of prose, with the line it starts on.
type Sentence struct {
	Line int    // 1-based line of the sentence's first word
	Text string // the sentence, its lines joined by single spaces
}

// Words counts the sentence's whitespace-separated tokens.
func (s Sentence) Words() int { return len(strings.Fields(s.Text)) }

// Violation is one broken rule, located in a file.
type Violation struct {
	File string
	Line int // 0 for a rule about the whole file
	Msg  string
}

func (v Violation) String() string {
	if v.Line == 0 {
		return v.File + ": " + v.Msg
	}
	return fmt.Sprintf("%s:%d: %s", v.File, v.Line, v.Msg)
}

// Sentences returns the sentences of the prose in a Markdown text.
func Sentences(text string) []Sentence {
	var (
		out   []Sentence
		para  strings.Builder
		lines []lineStart // where each line begins in para
		fence string      // the open fence ("```" or "~~~"), or ""
		prev  = blank     // the kind of the previous line
	)
	flush := func() {
		if para.Len() > 0 {
			out = append(out, split(para.String(), lines)...)
		}
		para.Reset()
		lines = lines[:0]
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " \t\r")
		trimmed := strings.TrimLeft(line, " \t")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			prev = code
			continue
		case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
			flush()
			fence = trimmed[:3]
			prev = code
			continue
		case trimmed == "":
			flush()
			prev = blank
			continue
		case isIndentedCode(line) && (prev == blank || prev == code):
			// An indented code block cannot interrupt a paragraph.
			flush()
			prev = code
			continue
		case strings.HasPrefix(trimmed, "|"), isHeading(trimmed):
			flush()
			prev = code
			continue
		}
		trimmed = strings.TrimLeft(strings.TrimPrefix(trimmed, ">"), " ")
		if rest, ok := cutListMarker(trimmed); ok {
			flush()
			trimmed = rest
		}
		if para.Len() > 0 {
			para.WriteByte(' ')
		}
		lines = append(lines, lineStart{offset: para.Len(), line: n})
		para.WriteString(trimmed)
		prev = prose
	}
	flush()
	return out
}

// Kinds of line, as far as a following indented line cares.
const (
	blank = iota
	prose
	code
)

// lineStart maps an offset in a paragraph to the line it came from.
type lineStart struct{ offset, line int }

// split cuts a paragraph into sentences after each of sentenceEnds.
func split(para string, lines []lineStart) []Sentence {
	var out []Sentence
	start := 0
	add := func(end int) {
		s := strings.TrimSpace(para[start:end])
		if s != "" {
			// The sentence starts at its first non-space byte.
			at := start + strings.IndexFunc(para[start:end], func(r rune) bool { return !unicode.IsSpace(r) })
			out = append(out, Sentence{Line: lineOf(lines, at), Text: s})
		}
		start = end
	}
	for i := 0; i < len(para); i++ {
		for _, sep := range sentenceEnds {
			if strings.HasPrefix(para[i:], sep) {
				add(i + 1) // keep the punctuation, drop the space
				break
			}
		}
	}
	add(len(para))
	return out
}

// lineOf returns the line the byte at offset came from.
func lineOf(lines []lineStart, offset int) int {
	i := sort.Search(len(lines), func(i int) bool { return lines[i].offset > offset })
	if i == 0 {
		return lines[0].line
	}
	return lines[i-1].line
}

// isIndentedCode reports a line indented by a tab or four spaces.
func isIndentedCode(line string) bool {
	return strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "    ")
}

// isHeading reports an ATX heading: one to six '#' and a space, or only '#'.
func isHeading(trimmed string) bool {
	n := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
	return n >= 1 && n <= 6 && (len(trimmed) == n || trimmed[n] == ' ')
}

// cutListMarker removes a list item's marker ("- ", "* ", "+ ", "1. ",
// "1) ") and reports whether there was one.
func cutListMarker(s string) (string, bool) {
	for _, m := range []string{"- ", "* ", "+ "} {
		if strings.HasPrefix(s, m) {
			return strings.TrimLeft(s[len(m):], " "), true
		}
	}
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return strings.TrimLeft(s[i+2:], " "), true
	}
	return s, false
}

// CheckSentences returns a violation for every sentence of text longer
// than MaxSentenceWords words; name is the file's name in the messages.
func CheckSentences(name, text string) []Violation {
	var out []Violation
	for _, s := range Sentences(text) {
		if w := s.Words(); w > MaxSentenceWords {
			out = append(out, Violation{File: name, Line: s.Line,
				Msg: fmt.Sprintf("sentence of %d words (at most %d): %s", w, MaxSentenceWords, s.Text)})
		}
	}
	return out
}

// CheckSize returns a violation if a README of size bytes is too long.
func CheckSize(name string, size int) []Violation {
	if size <= MaxReadmeBytes {
		return nil
	}
	return []Violation{{File: name,
		Msg: fmt.Sprintf("%d bytes (at most %d)", size, MaxReadmeBytes)}}
}

// Check applies both rules to README.md, and the sentence rule to
// docs/*.md and beam/README.md (if present), under root. File names in
// the violations are relative to root.
func Check(root string) ([]Violation, error) {
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return nil, err
	}
	out := CheckSize("README.md", len(readme))
	out = append(out, CheckSentences("README.md", string(readme))...)
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(docs)
	if _, err := os.Stat(filepath.Join(root, "beam", "README.md")); err == nil {
		docs = append(docs, filepath.Join(root, "beam", "README.md"))
	}
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		name, _ := filepath.Rel(root, path)
		name = filepath.ToSlash(name)
		out = append(out, CheckSentences(name, string(bytes.ToValidUTF8(b, []byte("?"))))...)
	}
	return out, nil
}

// run checks root, prints what it finds to w and returns the exit code.
func run(args []string, w io.Writer) int {
	root := "."
	switch len(args) {
	case 0:
	case 1:
		root = args[0]
	default:
		fmt.Fprintln(w, "usage: doccheck [root]")
		return 2
	}
	vs, err := Check(root)
	if err != nil {
		fmt.Fprintln(w, "doccheck:", err)
		return 2
	}
	for _, v := range vs {
		fmt.Fprintln(w, v)
	}
	if len(vs) > 0 {
		fmt.Fprintf(w, "doccheck: %d violations\n", len(vs))
		return 1
	}
	return 0
}

func main() { os.Exit(run(os.Args[1:], os.Stdout)) }
