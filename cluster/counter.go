package cluster

import (
	"sync"

	"github.com/tether-sc/tether/progress"
)

// counter reports a known number of items done in parallel (auto's fits
// of its candidates on the folds) as Events{Stage, Done: items done,
// Total: items}, one event per item with Message naming it, after a first
// event with Done 0. Done never decreases: the events are sent in the
// order of the count, under a lock. A nil counter (no recorder) does
// nothing. Safe for concurrent use. Where the work is a few weighted
// steps rather than many like items, meter reports it instead.
type counter struct {
	rec   progress.Recorder
	stage string
	total int

	mu   sync.Mutex
	done int
}

// newCounter returns a counter of total items for stage on rec, with the
// first event (Done 0, Message msg) sent; nil when rec is nil or total
// ≤ 0.
func newCounter(rec progress.Recorder, stage, msg string, total int) *counter {
	if rec == nil || total <= 0 {
		return nil
	}
	rec.Record(progress.Event{Stage: stage, Total: total, Message: msg})
	return &counter{rec: rec, stage: stage, total: total}
}

// add counts one more item done, msg saying which.
func (c *counter) add(msg string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done = min(c.done+1, c.total)
	c.rec.Record(progress.Event{Stage: c.stage, Done: c.done, Total: c.total, Message: msg})
}
