package cluster

import (
	"sync"

	"github.com/tether-sc/tether/progress"
)

// tick receives the progress of one step of a blocked kernel (a dense
// factorization, a product, a loop over pairs) as the fraction f ∈ [0, 1]
// of the step's work done: the kernels that take one call it between
// blocks, where they poll the context. A nil tick ignores the calls.
type tick func(f float64)

// at calls t(f) when t is not nil.
func (t tick) at(f float64) {
	if t != nil {
		t(f)
	}
}

// meterTotal is the Total of a meter's events: its Done counts thousandths
// of the stage.
const meterTotal = 1000

// meter reports the progress of one stage of a method made of several
// steps of known estimated cost (a dense factorization, a solve, a
// product) as one fraction of the stage: Events{Stage, Done, Total:
// meterTotal} with Message naming the current step. The caller plans the
// total cost when making it, then starts each step with its cost (step)
// or passes over one it does not need (skip); a step's kernel reports the
// fraction of the step done (tick), weighted by the step's share of the
// total, so that the fraction of the stage grows about evenly with time
// when the costs are those of the kernels in time (see the cost
// constants). Done never decreases and stays below meterTotal until done,
// which sends Done = meterTotal. A nil meter (no recorder) does nothing,
// and the ticks it returns are nil. Safe for concurrent use (a step's
// kernel may tick from several goroutines).
type meter struct {
	rec   progress.Recorder
	stage string
	total float64 // the planned cost of the stage

	mu    sync.Mutex
	pos   float64 // the cost of the steps before the current one
	width float64 // the cost of the current step
	msg   string  // the current step's name
	sent  int     // the last Done sent; −1 before the first event
	said  string  // the message of the last event sent
}

// newMeter returns a meter for stage on rec, of planned cost total; nil
// when rec is nil.
func newMeter(rec progress.Recorder, stage string, total float64) *meter {
	if rec == nil {
		return nil
	}
	return &meter{rec: rec, stage: stage, total: total, sent: -1}
}

// step starts the next step, named msg, of cost c, and returns the tick
// its kernel reports to; the previous step counts as done.
func (m *meter) step(msg string, c float64) tick {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	m.pos += m.width
	m.width, m.msg = c, msg
	m.send(m.pos)
	m.mu.Unlock()
	return m.tick
}

// skip passes over c of the planned cost: a step that is not needed (a
// prior already made, a positive semidefinite W that needs no shift).
func (m *meter) skip(c float64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.pos += m.width + c
	m.width = 0
	m.send(m.pos)
	m.mu.Unlock()
}

// tick records that the fraction f of the current step is done.
func (m *meter) tick(f float64) {
	m.mu.Lock()
	m.send(m.pos + min(1, max(0, f))*m.width)
	m.mu.Unlock()
}

// done ends the stage: Done = Total.
func (m *meter) done() {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.sent = meterTotal
	m.rec.Record(progress.Event{Stage: m.stage, Done: meterTotal, Total: meterTotal, Message: m.msg})
	m.mu.Unlock()
}

// send records the stage at cost pos when its thousandth or its message
// changed; below meterTotal until done, never below the last sent. m.mu
// is held.
func (m *meter) send(pos float64) {
	if m.sent >= meterTotal {
		return // done
	}
	d := 0
	if m.total > 0 {
		d = int(meterTotal * pos / m.total)
	}
	d = min(meterTotal-1, max(m.sent, d))
	if d == m.sent && m.msg == m.said {
		return
	}
	m.sent, m.said = d, m.msg
	m.rec.Record(progress.Event{Stage: m.stage, Done: d, Total: meterTotal, Message: m.msg})
}
