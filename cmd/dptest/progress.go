package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Progress bar timing: nothing shows before progressDelay; a terminal is
// redrawn at most every progressRedraw, other writers (a log file) get a
// line at most every progressLine.
const (
	progressDelay  = time.Second
	progressRedraw = 100 * time.Millisecond
	progressLine   = 2 * time.Second
	barWidth       = 24
)

// bar is a progress bar on standard error. It stays silent for the first
// progressDelay (short work shows nothing) and under --quiet.
type bar struct {
	mu    sync.Mutex
	w     io.Writer // nil: quiet
	tty   bool
	now   func() time.Time
	start time.Time
	last  time.Time
	drawn bool
}

// newBar returns a bar writing to w, nil for none.
func newBar(w io.Writer, now func() time.Time) *bar {
	b := &bar{w: w, now: now, start: now()}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil {
			b.tty = fi.Mode()&os.ModeCharDevice != 0
		}
	}
	return b
}

// set shows that the stage named what has done of total.
func (b *bar) set(what string, done, total int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.now()
	every := progressLine
	if b.tty {
		every = progressRedraw
	}
	if b.w == nil || t.Sub(b.start) < progressDelay || b.drawn && t.Sub(b.last) < every {
		return
	}
	b.last, b.drawn = t, true
	share := 0.0
	if total > 0 {
		share = min(1, max(0, float64(done)/float64(total)))
	}
	full := int(share * barWidth)
	line := fmt.Sprintf("dptest: %-28s [%s%s] %3.0f%%", what, strings.Repeat("=", full), strings.Repeat(" ", barWidth-full), 100*share)
	if b.tty {
		fmt.Fprintf(b.w, "\r%s", line)
		return
	}
	fmt.Fprintln(b.w, line)
}

// done clears a terminal's bar line.
func (b *bar) done() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.w != nil && b.tty && b.drawn {
		fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", 40+barWidth))
	}
	b.drawn = false
}
