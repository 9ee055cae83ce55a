package dptest

import (
	"sync"
	"time"

	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
)

// progressEvery is how often -dptest.v reports the progress of a long
// audit.
const progressEvery = time.Second

// progress reports, with -dptest.v, how many mechanism calls an audit has
// made of those it plans, at what rate, and about how long it has left.
type progress struct {
	mu          sync.Mutex
	calls       func() int64
	planned     int64
	start, last time.Time
	logf        func(string, ...any) // nil: report nothing
	// tick, if not nil, is told the calls made and planned at every
	// report (the OnProgress option).
	tick func(done, planned int64)
}

// newProgress plans the calls of an audit (plan.PlannedCallsLearning: an
// estimate, with a vector's learning draws).
func newProgress[D any](src *sampler.Counter[D], p plan.Plan, inputs, wide int, logf func(string, ...any)) *progress {
	now := time.Now()
	return &progress{calls: src.Calls, planned: p.PlannedCallsLearning(inputs, wide, src.LearnDraws), start: now, last: now, logf: logf}
}

// report logs the progress if progressEvery has passed since the last
// report.
func (pr *progress) report() {
	if pr.logf == nil && pr.tick == nil {
		return
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.tick != nil {
		pr.tick(pr.calls(), pr.planned)
	}
	if pr.logf == nil {
		return
	}
	now := time.Now()
	if now.Sub(pr.last) < progressEvery {
		return
	}
	pr.last = now
	done := pr.calls()
	rate := float64(done) / now.Sub(pr.start).Seconds()
	left := time.Duration(float64(max(pr.planned-done, 0)) / rate * float64(time.Second))
	pr.logf("[dptest] progress: %s of about %s mechanism calls, %s a second, about %s left",
		thousands(int(done)), thousands(int(max(pr.planned, done))), thousands(int(rate)), left.Round(100*time.Millisecond))
}
