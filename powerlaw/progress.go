package powerlaw

import (
	"sync"

	"github.com/tether-sc/tether/progress"
)

// counter reports the items of a loop run in parallel (the candidate x_min
// values of Fit, the replicates of GoodnessOfFit) to a recorder as
// Event{Stage, Done: items done, Total: items}, at most once per
// thousandth of the items and always for the last one, so that a million
// short replicates do not make a million events. Done never decreases:
// the events are sent in the order of the count. A nil counter (no
// recorder) does nothing. Safe for concurrent use.
type counter struct {
	rec        progress.Recorder
	stage, msg string
	total      int

	mu   sync.Mutex
	done int // items done
	sent int // thousandths of total sent last; −1 before the first event
}

// newCounter returns a counter of total items for stage on rec, with the
// first event (Done 0) sent; nil when rec is nil or total ≤ 0.
func newCounter(rec progress.Recorder, stage, msg string, total int) *counter {
	if rec == nil || total <= 0 {
		return nil
	}
	c := &counter{rec: rec, stage: stage, msg: msg, total: total}
	rec.Record(progress.Event{Stage: stage, Total: total, Message: msg})
	return c
}

// add counts one more item done.
func (c *counter) add() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done++
	if k := int(int64(c.done) * 1000 / int64(c.total)); k > c.sent || c.done == c.total {
		c.sent = k
		c.rec.Record(progress.Event{Stage: c.stage, Done: c.done, Total: c.total, Message: c.msg})
	}
}
