package cluster

import (
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
const meterTotal = progress.MeterTotal

// meter reports the progress of one stage of a method made of several
// steps of known estimated cost (a dense factorization, a solve, a
// product) as one fraction of the stage: a progress.Meter, whose Step
// returns the tick the step's kernel reports to. The caller plans the
// total cost when making it, then starts each step with its cost (step)
// or passes over one it does not need (skip); see progress.Meter. A nil
// meter (no recorder) does nothing, and the ticks it returns are nil.
// Safe for concurrent use.
type meter struct{ m *progress.Meter }

// newMeter returns a meter for stage on rec, of planned cost total; nil
// when rec is nil.
func newMeter(rec progress.Recorder, stage string, total float64) *meter {
	if rec == nil {
		return nil
	}
	return &meter{progress.NewMeter(rec, stage, total)}
}

// step starts the next step, named msg, of cost c, and returns the tick
// its kernel reports to; the previous step counts as done.
func (m *meter) step(msg string, c float64) tick {
	if m == nil {
		return nil
	}
	return m.m.Step(msg, c)
}

// skip passes over c of the planned cost: a step that is not needed (a
// prior already made, a positive semidefinite W that needs no shift).
func (m *meter) skip(c float64) {
	if m != nil {
		m.m.Skip(c)
	}
}

// done ends the stage: Done = Total.
func (m *meter) done() {
	if m != nil {
		m.m.Done()
	}
}
