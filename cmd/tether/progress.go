package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tether-sc/tether/progress"
)

// stderrRecorder prints progress events on a writer (stderr) for stages that
// have run for more than a second, at most once per second per stage, so
// short runs stay silent. A stage with a line printed also gets its final
// state printed, so that the last line left is not a partial one ("kmeans:
// 1/30 (3%)" read as a stall): the event that completes it (Done = Total)
// at once, or, for a stage that stops before its Total (an iteration cap
// not reached), its last event followed by ", done" when the step that ran
// it ends (flush; step), or by ", stopped" when the command's context was
// cancelled (Ctrl-C) by then. It is safe for concurrent use.
type stderrRecorder struct {
	mu    sync.Mutex
	w     io.Writer
	start map[string]time.Time
	last  map[string]time.Time
	// pending holds, for each stage whose partial line was printed and
	// whose final state was not, its latest event.
	pending map[string]progress.Event
	now     func() time.Time
	quiet   bool
	// ctx, if not nil, is the command's context: a stage or step still
	// open when it is cancelled is reported as stopped, not done.
	ctx context.Context
}

func newRecorder(w io.Writer, quiet bool) *stderrRecorder {
	return &stderrRecorder{w: w, start: map[string]time.Time{}, last: map[string]time.Time{}, pending: map[string]progress.Event{}, now: time.Now, quiet: quiet}
}

// recorder returns the progress recorder of a command running under ctx:
// on m.Stderr, silent when quiet (the command's -quiet), with m's clock.
func (m *Main) recorder(ctx context.Context, quiet bool) *stderrRecorder {
	r := newRecorder(m.Stderr, quiet)
	r.ctx = ctx
	if m.clock != nil {
		r.now = m.clock
	}
	return r
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
	complete := e.Total > 0 && e.Done >= e.Total
	if _, ok := r.pending[e.Stage]; ok {
		if complete {
			r.print(e, t.Sub(st), "")
			r.last[e.Stage] = t
			delete(r.pending, e.Stage)
			return
		}
		r.pending[e.Stage] = e
	}
	if t.Sub(st) < time.Second || t.Sub(r.last[e.Stage]) < time.Second {
		return
	}
	r.last[e.Stage] = t
	r.print(e, t.Sub(st), "")
	if !complete {
		r.pending[e.Stage] = e
	}
}

// flush prints the last event of every stage whose partial line was
// printed and whose final state was not, with ", done": the computation
// that ran it has ended; with ", stopped" when r's context was cancelled
// (it ended because of that). Stages in name order.
func (r *stderrRecorder) flush() {
	if r == nil || r.quiet {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.now()
	suffix := ", done"
	if r.stopped() {
		suffix = ", stopped"
	}
	for _, stage := range slices.Sorted(maps.Keys(r.pending)) {
		r.print(r.pending[stage], t.Sub(r.start[stage]), suffix)
	}
	clear(r.pending)
}

// stopped reports whether r's context, if any, was cancelled.
func (r *stderrRecorder) stopped() bool { return r.ctx != nil && r.ctx.Err() != nil }

// print writes the line of e, after elapsed in its stage, followed by
// suffix. r.mu is held.
func (r *stderrRecorder) print(e progress.Event, elapsed time.Duration, suffix string) {
	line := e.Stage + ":"
	if e.Total > 0 {
		line += fmt.Sprintf(" %s %d/%d (%.0f%%)", bar(e.Done, e.Total, 20), e.Done, e.Total, 100*float64(e.Done)/float64(e.Total))
	} else if e.Done > 0 {
		line += fmt.Sprintf(" %d", e.Done)
	}
	if e.Message != "" {
		line += " " + e.Message
	}
	line += fmt.Sprintf(" [%.1fs]%s", elapsed.Seconds(), suffix)
	fmt.Fprintln(r.w, line)
}

// step announces the end of a coarse step on stderr when it took more
// than a second, after the final state of its stages (flush). Use as:
// defer r.step("building graph")().
func (r *stderrRecorder) step(name string) func() {
	t0 := r.now()
	return func() {
		if r.quiet {
			return
		}
		r.flush()
		if d := r.now().Sub(t0); d >= time.Second {
			r.mu.Lock()
			if r.stopped() {
				fmt.Fprintf(r.w, "%s: stopped after %.2fs\n", name, d.Seconds())
			} else {
				fmt.Fprintf(r.w, "%s: %.2fs\n", name, d.Seconds())
			}
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
