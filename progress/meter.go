package progress

import "sync"

// MeterTotal is the Total of a Meter's events: their Done counts
// thousandths of the stage.
const MeterTotal = 1000

// Meter reports the progress of one stage made of several steps of known
// estimated cost (a parse, a sort, a factorization, a solve) as one
// fraction of the stage: Events{Stage, Done, Total: MeterTotal} with
// Message naming the current step. The caller plans the total cost when
// making it, then starts each step with its cost (Step) or passes over
// one it does not need (Skip); a step's loop reports the fraction of the
// step done to the function Step returns, weighted by the step's share
// of the total, so that the fraction of the stage grows about evenly
// with time when the costs are proportional to the steps' times. Done
// never decreases and stays below MeterTotal until Done is called, which
// sends Done = MeterTotal; an event is sent only when the thousandth or
// the message changes. A nil *Meter (no recorder) does nothing, and the
// functions its Step returns are nil. Safe for concurrent use (a step's
// loop may report from several goroutines).
type Meter struct {
	rec   Recorder
	stage string
	total float64 // the planned cost of the stage

	mu    sync.Mutex
	pos   float64 // the cost of the steps before the current one
	width float64 // the cost of the current step
	msg   string  // the current step's name
	sent  int     // the last Done sent; −1 before the first event
	said  string  // the message of the last event sent
}

// NewMeter returns a meter for stage on rec, of planned cost total; nil
// when rec is nil.
func NewMeter(rec Recorder, stage string, total float64) *Meter {
	if rec == nil {
		return nil
	}
	return &Meter{rec: rec, stage: stage, total: total, sent: -1}
}

// Step starts the next step, named msg, of cost c, and returns the
// function its loop reports the fraction f ∈ [0, 1] of the step done to
// (a value outside is clamped); the previous step counts as done. It
// returns nil on a nil meter.
func (m *Meter) Step(msg string, c float64) func(f float64) {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	m.pos += m.width
	m.width, m.msg = c, msg
	m.send(m.pos)
	m.mu.Unlock()
	return m.at
}

// Skip passes over c of the planned cost: a step that is not needed.
func (m *Meter) Skip(c float64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.pos += m.width + c
	m.width = 0
	m.send(m.pos)
	m.mu.Unlock()
}

// at records that the fraction f of the current step is done.
func (m *Meter) at(f float64) {
	m.mu.Lock()
	m.send(m.pos + min(1, max(0, f))*m.width)
	m.mu.Unlock()
}

// Done ends the stage: Done = Total.
func (m *Meter) Done() {
	if m == nil {
		return
	}
	m.mu.Lock()
	m.sent = MeterTotal
	m.rec.Record(Event{Stage: m.stage, Done: MeterTotal, Total: MeterTotal, Message: m.msg})
	m.mu.Unlock()
}

// send records the stage at cost pos when its thousandth or its message
// changed; below MeterTotal until done, never below the last sent. m.mu
// is held.
func (m *Meter) send(pos float64) {
	if m.sent >= MeterTotal {
		return // done
	}
	d := 0
	if m.total > 0 {
		d = int(MeterTotal * pos / m.total)
	}
	d = min(MeterTotal-1, max(m.sent, d))
	if d == m.sent && m.msg == m.said {
		return
	}
	m.sent, m.said = d, m.msg
	m.rec.Record(Event{Stage: m.stage, Done: d, Total: MeterTotal, Message: m.msg})
}
