package dptest_test

import (
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/assert"
	"github.com/dptest/dptest/dptest"
)

// attributingT attributes each message, as package testing does, to the
// first caller on the stack that did not mark itself with Helper().
type attributingT struct {
	helpers map[string]bool
	files   []string
}

func (a *attributingT) Helper() {
	pc, _, _, _ := runtime.Caller(1)
	a.helpers[runtime.FuncForPC(pc).Name()] = true
}

func (a *attributingT) attribute() {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if !a.helpers[f.Function] {
			a.files = append(a.files, filepath.Base(f.File))
			return
		}
		if !more {
			return
		}
	}
}

func (a *attributingT) Errorf(string, ...any) { a.attribute() }
func (a *attributingT) Logf(string, ...any)   { a.attribute() }
func (a *attributingT) FailNow()              {}
func (a *attributingT) Name() string          { return "TestAttribution" }

// Every form's success line and failure is attributed to the test that
// called it, not to dptest's own files (a Check form once pointed every
// line at testing.go).
func TestMessagesAreAttributedToTheCaller(t *testing.T) {
	mech := dptest.Continuous(func(r *rand.Rand, x []float64) float64 {
		return x[0] + r.ExpFloat64()*float64(1-2*r.IntN(2))
	})
	opts := []dptest.Option{dptest.Samples(2000), dptest.Candidates(1)}
	a := &attributingT{helpers: map[string]bool{}}
	forms := []func(){
		func() { dptest.CheckDP(a, mech, 1, opts...) },
		func() { dptest.CheckDP(a, mech, 0.01, opts...) },
		func() { dptest.RequireRDP(a, mech, 2, 10, opts...) },
		func() { dptest.CheckGDP(a, mech, 10, opts...) },
		func() { dptest.CheckApproxDP(a, mech, 1, 0.5, opts...) },
		func() { assert.DP(a, mech, 0.01, opts...) },
		func() { dptest.CheckRDPSamples(a, []float64{1, 2, 3}, []float64{1, 2, 4}, 2, 1) },
	}
	for i, form := range forms {
		before := len(a.files)
		form()
		require.Greater(t, len(a.files), before, "form %d reported nothing", i)
	}
	for i, f := range a.files {
		require.Equal(t, "helper_test.go", f, "message %d", i)
	}
}

// skipShort skips, under -short, a test whose check faster tests make:
// cost says what the test spends, faster names those tests.
func skipShort(t *testing.T, cost string, faster ...string) {
	t.Helper()
	if !testing.Short() {
		return
	}
	verb := "check"
	if len(faster) == 1 {
		verb = "checks"
	}
	t.Skipf("%s; under -short %s %s the same, faster", cost, strings.Join(faster, " and "), verb)
}

// shortFirst returns the values a test loops over (fixed seeds, orders or
// ε), or under -short the first alone: -short runs one audit of each
// kind, the full suite all of them.
func shortFirst[T any](values ...T) []T {
	if testing.Short() {
		return values[:1]
	}
	return values
}
