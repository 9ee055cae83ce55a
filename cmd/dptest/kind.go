package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dptest/dptest/dptest"
)

// How numbers are read (--discrete, --real, or neither).
const (
	modeAuto     = "auto"
	modeDiscrete = "discrete"
	modeReal     = "real"
)

// recordedOf decides how the outputs of two recordings are counted and
// returns them as one dptest.Recorded, with a phrase saying what was
// decided. Text labels are discrete. Vectors are real vectors, or, under
// --discrete, values counted exactly. Numbers are discrete when --discrete
// says so or, by default, when every number in both files is an integer;
// otherwise (or under --real) they are real.
func recordedOf(x, y *recording, mode string) (dptest.Recorded, string, error) {
	if x.shape != y.shape {
		return dptest.Recorded{}, "", fmt.Errorf("%s holds %s per line (line %d), %s %s (line %d): both must hold one kind of output",
			x.name, x.shape, x.first, y.name, y.shape, y.first)
	}
	var rec dptest.Recorded
	var what string
	switch {
	case x.shape == label && mode == modeReal:
		return rec, "", &lineError{x.name, x.first, "a text label is not a real output (--real)"}
	case x.shape == label:
		rec, what = dptest.RecordedDiscrete(x.labels, y.labels), "discrete: text labels, counted value by value"
	case x.shape == vector && mode == modeDiscrete:
		rec, what = dptest.RecordedDiscrete(vectorKeys(x.vectors), vectorKeys(y.vectors)), "discrete: each vector one value (--discrete), counted value by value"
	case x.shape == vector:
		rec, what = dptest.RecordedVectors(x.vectors, y.vectors), fmt.Sprintf("vectors of %d coordinates, reduced to learned scores", len(x.vectors[0]))
	case mode == modeDiscrete:
		rec, what = dptest.RecordedDiscrete(x.numbers, y.numbers), "discrete numbers (--discrete), counted value by value"
	case mode == modeAuto && x.integral && y.integral:
		rec, what = dptest.RecordedDiscrete(x.numbers, y.numbers), "discrete: every number is an integer, counted value by value (--real reads them as real)"
	default:
		rec, what = dptest.RecordedReal(x.numbers, y.numbers), "real numbers"
	}
	return rec.Named(x.name, y.name), what, nil
}

// vectorKeys writes each vector as one text value, its coordinates
// joined by commas.
func vectorKeys(vs [][]float64) []string {
	keys := make([]string, len(vs))
	var b strings.Builder
	for i, v := range vs {
		b.Reset()
		for j, c := range v {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(c, 'g', -1, 64))
		}
		keys[i] = b.String()
	}
	return keys
}
