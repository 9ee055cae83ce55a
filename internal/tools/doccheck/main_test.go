package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// words returns a sentence of n words ending in a full stop.
func words(n int) string {
	return strings.TrimSpace(strings.Repeat("word ", n-1)) + " end."
}

func TestSentencesSplitsOnStopsAndBlankLines(t *testing.T) {
	text := "One two. Three four? Five six!\nSeven\neight.\n\nNine ten"
	got := Sentences(text)
	want := []Sentence{
		{1, "One two."}, {1, "Three four?"}, {1, "Five six!"},
		{2, "Seven eight."}, {5, "Nine ten"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d sentences %q, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sentence %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestSentencesKeepsAStopWithoutASpace(t *testing.T) {
	// "0.5" and "dptest.Samples" do not end a sentence.
	got := Sentences("A value of 0.5 is set by dptest.Samples here. Next.")
	if len(got) != 2 || got[0].Text != "A value of 0.5 is set by dptest.Samples here." {
		t.Fatalf("got %q", got)
	}
}

func TestSentencesLineOfASentenceThatStartsMidLine(t *testing.T) {
	got := Sentences("First line. Second\nsentence ends. Third\nstarts on line two.")
	lines := []int{1, 1, 2}
	for i, s := range got {
		if s.Line != lines[i] {
			t.Errorf("%q starts on line %d, want %d", s.Text, s.Line, lines[i])
		}
	}
}

func TestSentencesSkipsCodeTablesAndHeadings(t *testing.T) {
	long := words(60)
	text := strings.Join([]string{
		"# " + long,
		"",
		"```go",
		long,
		"```",
		"",
		"~~~",
		long,
		"~~~",
		"",
		"    " + long,
		"\t" + long,
		"",
		"| a | " + long + " |",
		"|---|---|",
		"",
		"Prose.",
	}, "\n")
	got := Sentences(text)
	if len(got) != 1 || got[0].Text != "Prose." || got[0].Line != 17 {
		t.Fatalf("got %q, want only the prose on line 17", got)
	}
}

func TestSentencesIndentedContinuationIsProse(t *testing.T) {
	// A line indented by four spaces inside a paragraph continues it.
	got := Sentences("- A list item that\n    continues here.")
	if len(got) != 1 || got[0].Text != "A list item that continues here." {
		t.Fatalf("got %q", got)
	}
}

func TestSentencesListItemsAreParagraphs(t *testing.T) {
	got := Sentences("- first item\n- second item\n1. third item\n2) fourth")
	want := []string{"first item", "second item", "third item", "fourth"}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i].Text != want[i] || got[i].Line != i+1 {
			t.Errorf("item %d: got %+v", i, got[i])
		}
	}
}

func TestCheckSentencesFailsALongSentence(t *testing.T) {
	ok := words(MaxSentenceWords)
	long := words(MaxSentenceWords + 1)
	vs := CheckSentences("x.md", ok+"\n\nIntro. "+long+" After.")
	if len(vs) != 1 {
		t.Fatalf("got %d violations %v, want 1", len(vs), vs)
	}
	if vs[0].Line != 3 || !strings.Contains(vs[0].Msg, "41 words") {
		t.Errorf("got %v", vs[0])
	}
	// The same sentence split over lines is still one sentence.
	wrapped := strings.ReplaceAll(long, " word word ", "\nword word\n")
	if vs := CheckSentences("x.md", wrapped); len(vs) != 1 {
		t.Errorf("wrapped: got %v", vs)
	}
}

func TestCheckSentencesIgnoresLongCodeAndTables(t *testing.T) {
	long := words(3 * MaxSentenceWords)
	text := "Short.\n\n```\n" + long + "\n```\n\n| " + long + " |\n\n    " + long + "\n"
	if vs := CheckSentences("x.md", text); len(vs) != 0 {
		t.Fatalf("got %v", vs)
	}
}

func TestCheckSize(t *testing.T) {
	if vs := CheckSize("README.md", MaxReadmeBytes); len(vs) != 0 {
		t.Errorf("at the limit: %v", vs)
	}
	if vs := CheckSize("README.md", MaxReadmeBytes+1); len(vs) != 1 {
		t.Errorf("one byte over: %v", vs)
	}
}

func TestRun(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "# dptest\n\nShort and sweet.\n")
	write("docs/a.md", "Fine.\n")
	var out bytes.Buffer
	if code := run([]string{root}, &out); code != 0 {
		t.Fatalf("clean tree: exit %d, output %q", code, out.String())
	}

	write("docs/b.md", "Fine.\n\n"+words(MaxSentenceWords+5)+"\n")
	write("README.md", strings.Repeat("x", MaxReadmeBytes+1))
	out.Reset()
	if code := run([]string{root}, &out); code != 1 {
		t.Fatalf("violations: exit %d, output %q", code, out.String())
	}
	for _, want := range []string{"README.md: 15361 bytes", "docs/b.md:3: sentence of 45 words"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	if code := run([]string{filepath.Join(root, "missing")}, &out); code != 2 {
		t.Errorf("missing root: exit %d", code)
	}
}
