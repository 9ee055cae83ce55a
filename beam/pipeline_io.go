package dptestbeam

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/dptest/dptest/fixtures"
)

// A run's file holds one line per released output, the JSON of a
// pipelineOutput, and one header line, pipelineHeader's. textio writes no
// file for an empty collection; with the header, a run that released
// nothing still writes one, and a file without it is not the run's.

// pipelineMaxLine is the longest line read back.
const pipelineMaxLine = 64 << 20

// pipelineOutput is one line of a run's file.
type pipelineOutput[O any] struct {
	Trial  int `json:"t"`
	Output O   `json:"o"`
}

// pipelineLine encodes one released output as a line.
func pipelineLine(trial int, o beam.X) (string, error) {
	b, err := json.Marshal(pipelineOutput[any]{Trial: trial, Output: o})
	if err != nil {
		return "", fmt.Errorf("dptestbeam: an output of trial %d cannot be written as JSON: %w", trial, err)
	}
	return string(b), nil
}

// pipelineHeader is the header line of a side's file.
func pipelineHeader(side, trials int) string {
	return fmt.Sprintf("#dptestbeam %s trials=%d", [2]string{"X", "Y"}[side], trials)
}

// readTrials reads a side's file back: the outputs of each of its n
// trials, whose indices run from side·n.
func readTrials[O any](ctx context.Context, path string, side, n int) ([][]O, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dptestbeam: reading the outputs: %w", err)
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dptestbeam: reading the outputs: %w (does the runner write where this process reads? See Pipeline.ResultDir)", err)
	}
	defer rc.Close()
	first, outs := side*n, make([][]O, n)
	header := pipelineHeader(side, n)
	seen := false
	sc := bufio.NewScanner(rc)
	sc.Buffer(nil, pipelineMaxLine)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			seen = seen || text == header
			continue
		}
		var o pipelineOutput[O]
		if err := json.Unmarshal([]byte(text), &o); err != nil {
			return nil, fmt.Errorf("dptestbeam: %s, line %d: %w", path, line, err)
		}
		if o.Trial < first || o.Trial >= first+n {
			return nil, fmt.Errorf("dptestbeam: the Transform released an output of trial %d, but %s's trials are %d to %d", o.Trial, [2]string{"X", "Y"}[side], first, first+n-1)
		}
		outs[o.Trial-first] = append(outs[o.Trial-first], o.Output)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("dptestbeam: reading %s: %w", path, err)
	}
	if !seen {
		return nil, fmt.Errorf("dptestbeam: %s lacks its header %q: it is not this run's file, or not complete", path, header)
	}
	return outs, nil
}

// encodeTrials encodes each trial's outputs.
func encodeTrials[O any](encode func([]O) ([]float64, error), outs [][]O, side int) ([][]float64, error) {
	vs := make([][]float64, len(outs))
	for i, o := range outs {
		v, err := encode(o)
		switch {
		case err != nil:
			return nil, fmt.Errorf("dptestbeam: encoding trial %d of %s: %w", i, [2]string{"X", "Y"}[side], err)
		case len(v) == 0:
			return nil, fmt.Errorf("dptestbeam: trial %d of %s encodes to no values", i, [2]string{"X", "Y"}[side])
		}
		vs[i] = v
	}
	return vs, nil
}

// sameLength checks that every encoded output has the length of X's
// first.
func sameLength(out [2][][]float64) error {
	dim := len(out[0][0])
	for side, vs := range out {
		for i, v := range vs {
			if len(v) != dim {
				return fmt.Errorf("dptestbeam: trial %d of %s encodes to a vector of length %d, trial 0 of X to one of length %d", i, [2]string{"X", "Y"}[side], len(v), dim)
			}
		}
	}
	return nil
}

// UnitPair returns the neighbouring datasets of one privacy unit: X is
// records, Y is records without the unit's, all of them (inUnit reports
// whether a record is the unit's). Y may be empty. It is an error if the
// unit holds no record.
func UnitPair[R any](records []R, inUnit func(R) bool) (fixtures.Pair[[]R], error) {
	if inUnit == nil {
		return fixtures.Pair[[]R]{}, errors.New("dptestbeam: UnitPair needs a non-nil inUnit")
	}
	rest := []R{}
	for _, r := range records {
		if !inUnit(r) {
			rest = append(rest, r)
		}
	}
	if len(rest) == len(records) {
		return fixtures.Pair[[]R]{}, errors.New("dptestbeam: the privacy unit holds none of the records")
	}
	return fixtures.Pair[[]R]{X: append([]R(nil), records...), Y: rest}, nil
}
