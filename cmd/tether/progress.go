package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/tether-sc/tether/progress"
)

// stderrRecorder prints progress events on a writer (stderr) for stages that
// have run for more than a second, at most once per second per stage, so
// short runs stay silent. It is safe for concurrent use.
type stderrRecorder struct {
	mu     sync.Mutex
	w      io.Writer
	start  map[string]time.Time
	last   map[string]time.Time
	now    func() time.Time
	quiet  bool
	shown  bool
	latest string
}

func newRecorder(w io.Writer, quiet bool) *stderrRecorder {
	return &stderrRecorder{w: w, start: map[string]time.Time{}, last: map[string]time.Time{}, now: time.Now, quiet: quiet}
}

// Record implements progress.Recorder.
func (r *stderrRecorder) Record(e progress.Event) {
	if r == nil || r.quiet {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.now()
	st, ok := r.start[e.Stage]
	if !ok {
		r.start[e.Stage] = t
		return
	}
	if t.Sub(st) < time.Second || t.Sub(r.last[e.Stage]) < time.Second {
		return
	}
	r.last[e.Stage] = t
	line := fmt.Sprintf("%s: ", e.Stage)
	if e.Total > 0 {
		line += fmt.Sprintf("%s %d/%d (%.0f%%)", bar(e.Done, e.Total, 20), e.Done, e.Total, 100*float64(e.Done)/float64(e.Total))
	} else if e.Done > 0 {
		line += fmt.Sprintf("%d", e.Done)
	}
	if e.Message != "" {
		line += " " + e.Message
	}
	line += fmt.Sprintf(" [%.1fs]", t.Sub(st).Seconds())
	fmt.Fprintln(r.w, line)
	r.shown = true
}

// step announces the start and end of a coarse step on stderr when it takes
// more than a second. Use as: defer r.step("building graph")().
func (r *stderrRecorder) step(name string) func() {
	t0 := r.now()
	return func() {
		if r.quiet {
			return
		}
		if d := r.now().Sub(t0); d >= time.Second {
			r.mu.Lock()
			fmt.Fprintf(r.w, "%s: %.2fs\n", name, d.Seconds())
			r.mu.Unlock()
		}
	}
}

// bar draws done/total as a bar of width characters: [#####.....].
func bar(done, total, width int) string {
	fill := 0
	if total > 0 {
		fill = min(width, max(0, done*width/total))
	}
	return "[" + strings.Repeat("#", fill) + strings.Repeat(".", width-fill) + "]"
}
