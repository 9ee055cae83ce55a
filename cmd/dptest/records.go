package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// maxLine is the longest line a recording may hold (a long vector).
const maxLine = 64 << 20

// progressLines is how many lines pass between two reports of a file's
// reading progress.
const progressLines = 1 << 14

// shape is what one line of a recording holds.
type shape int

const (
	number shape = iota + 1 // a number
	vector                  // a CSV row or a JSON array of numbers
	label                   // a JSON string, or any text under --discrete
)

func (s shape) String() string {
	return [...]string{"nothing", "a number", "a vector", "a text label"}[s]
}

// recording is one file's outputs, all of one shape.
type recording struct {
	name     string
	shape    shape
	numbers  []float64
	vectors  [][]float64
	labels   []string
	integral bool // every number (or coordinate) is an integer
	first    int  // the line of the first output, which fixed the shape
}

func (r *recording) len() int { return len(r.numbers) + len(r.vectors) + len(r.labels) }

// lineError is a bad line of a recording: its file and line number.
type lineError struct {
	file string
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg) }

// readRecording reads the outputs in a file, one per line: blank lines
// and lines starting with # are skipped. textLabels makes a line that is
// not a number or a vector a text label (--discrete). progress, if not
// nil, is told the bytes read of the file's size.
func readRecording(name string, textLabels bool, progress func(done, total int64)) (*recording, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	cr := &countingReader{r: f}
	rec, err := parseRecording(name, cr, textLabels, func() {
		if progress != nil {
			progress(cr.n, size)
		}
	})
	if err != nil {
		return nil, err
	}
	if rec.len() == 0 {
		return nil, fmt.Errorf("%s: no outputs (an empty file)", name)
	}
	return rec, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// parseRecording parses a recording's lines; tick is called every
// progressLines lines.
func parseRecording(name string, r io.Reader, textLabels bool, tick func()) (*recording, error) {
	rec := &recording{name: name, integral: true}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		if line%progressLines == 0 {
			tick()
		}
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if err := rec.add(text, textLabels); err != nil {
			return nil, &lineError{name, line, err.Error()}
		}
		if rec.first == 0 {
			rec.first = line
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	return rec, nil
}

// add parses one line and appends its output, which must have the shape
// of the first (and a vector its length).
func (r *recording) add(text string, textLabels bool) error {
	s, num, vec, lab, err := parseLine(text, textLabels)
	if err != nil {
		return err
	}
	switch {
	case r.shape == 0:
		r.shape = s
	case s != r.shape:
		return fmt.Errorf("%s after %s on line %d: every line must hold the same kind of output", s, r.shape, r.first)
	case s == vector && len(vec) != len(r.vectors[0]):
		return fmt.Errorf("a vector of %d coordinates after %d on line %d: all must have one length", len(vec), len(r.vectors[0]), r.first)
	}
	switch s {
	case number:
		r.numbers = append(r.numbers, num)
		r.integral = r.integral && isInteger(num)
	case vector:
		r.vectors = append(r.vectors, vec)
		for _, v := range vec {
			r.integral = r.integral && isInteger(v)
		}
	default:
		r.labels = append(r.labels, lab)
	}
	return nil
}

// errNotFinite refuses NaN and ±Inf, which no mechanism may release as a
// number and no statistic can count.
var errNotFinite = errors.New("NaN or ±Inf is not an output dptest can count")

// parseLine reads one line: a JSON array of numbers or a CSV row (a
// vector), a JSON string (a label), a number, or, with textLabels, any
// other text as a label.
func parseLine(text string, textLabels bool) (shape, float64, []float64, string, error) {
	switch {
	case strings.HasPrefix(text, "["):
		var vec []float64
		if err := json.Unmarshal([]byte(text), &vec); err != nil || len(vec) == 0 {
			return 0, 0, nil, "", errors.New("not a JSON array of numbers")
		}
		return vector, 0, vec, "", nil
	case strings.HasPrefix(text, `"`):
		var s string
		if err := json.Unmarshal([]byte(text), &s); err != nil {
			return 0, 0, nil, "", errors.New("not a JSON string")
		}
		return label, 0, nil, s, nil
	case strings.Contains(text, ","):
		vec, err := parseCSV(text)
		return vector, 0, vec, "", err
	}
	v, err := strconv.ParseFloat(text, 64)
	switch {
	case err != nil && textLabels:
		return label, 0, nil, text, nil
	case err != nil:
		return 0, 0, nil, "", fmt.Errorf("%q is not a number, a CSV row, a JSON array or a JSON string (--discrete reads any text as a label)", shorten(text))
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, 0, nil, "", errNotFinite
	}
	return number, v, nil, "", nil
}

// parseCSV reads a CSV row of numbers.
func parseCSV(text string) ([]float64, error) {
	fields := strings.Split(text, ",")
	vec := make([]float64, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		switch {
		case err != nil:
			return nil, fmt.Errorf("field %d, %q, is not a number", i+1, shorten(strings.TrimSpace(f)))
		case math.IsNaN(v) || math.IsInf(v, 0):
			return nil, fmt.Errorf("field %d: %w", i+1, errNotFinite)
		}
		vec[i] = v
	}
	return vec, nil
}

// maxIntegral is the largest magnitude up to which every integer is a
// float64: past it, an integral value may be a rounded real.
const maxIntegral = 1 << 53

func isInteger(v float64) bool { return v == math.Trunc(v) && math.Abs(v) <= maxIntegral }

// shorten cuts a quoted line to a readable length.
func shorten(s string) string {
	const most = 40
	if r := []rune(s); len(r) > most {
		return string(r[:most-1]) + "…"
	}
	return s
}
