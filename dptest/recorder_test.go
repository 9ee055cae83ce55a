package dptest_test

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dptest/dptest/dptest"
)

// recorder is a TestingT that records what an assertion reports. FailNow
// ends the calling goroutine as testing.T's does, so assertions under test
// run in their own goroutine (see run).
type recorder struct {
	mu     sync.Mutex
	name   string
	errors []string
	logs   []string
	failed bool
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

// auditLogs returns the lines logged but DefaultDomainHint, which the
// first test of the binary to search the default domain logs.
func (r *recorder) auditLogs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, l := range r.logs {
		if l != dptest.DefaultDomainHint {
			out = append(out, l)
		}
	}
	return out
}

func (r *recorder) FailNow() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
	panic(failNow{})
}

func (r *recorder) Helper()      {}
func (r *recorder) Name() string { return r.name }

type failNow struct{}

// run calls f with a fresh recorder named name and returns the recorder once
// f returns or calls FailNow.
func run(name string, f func(t *recorder)) *recorder {
	r := &recorder{name: name}
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(failNow); !ok {
					panic(v)
				}
			}
		}()
		f(r)
	}()
	return r
}

func (r *recorder) text() string { return strings.Join(r.errors, "\n") }

// skipRecorder is a recorder with Skipf, which ends the test as
// testing.T's does.
type skipRecorder struct {
	*recorder
	skipped bool
}

func (r *skipRecorder) Skipf(format string, args ...any) {
	r.Logf(format, args...)
	r.skipped = true
	panic(failNow{})
}
