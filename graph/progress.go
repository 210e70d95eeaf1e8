package graph

import (
	"context"
	"fmt"
	"sync"

	"github.com/tether-sc/tether/progress"
)

// reporter sends the progress of graph construction's passes to a
// recorder, at most once per percent of a pass.
type reporter struct {
	rec  progress.Recorder
	mu   sync.Mutex
	last int // percent last sent in the current pass
	pass int
}

// begin starts a new pass.
func (r *reporter) begin() {
	r.mu.Lock()
	r.pass++
	r.last = -1
	r.mu.Unlock()
}

// report records that done of n items of the current pass are processed;
// reports that arrive late (a lower percentage) are dropped. Safe for
// concurrent use.
func (r *reporter) report(done, n int) {
	if n <= 0 {
		return
	}
	pct := 100 * done / n
	r.mu.Lock()
	send := pct > r.last
	if send {
		r.last = pct
	}
	pass := r.pass
	r.mu.Unlock()
	if send {
		r.rec.Record(progress.Event{Stage: "graph", Done: done, Total: n, Message: fmt.Sprintf("pass %d: %d of %d", pass, done, n)})
	}
}

// reporterKey is the context key of the reporter: an unexported plumbing
// detail of BuildRecorded, so that the chunked passes deep in the k-NN
// search report without every internal signature carrying a recorder.
type reporterKey struct{}

func withReporter(ctx context.Context, r *reporter) context.Context {
	return context.WithValue(ctx, reporterKey{}, r)
}

func reporterFrom(ctx context.Context) *reporter {
	r, _ := ctx.Value(reporterKey{}).(*reporter)
	return r
}
