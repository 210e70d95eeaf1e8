package progress

import (
	"maps"
	"slices"
	"sync"
)

// Event describes the state of one stage of a computation.
type Event struct {
	// Stage names the step, for example "graph", "eigen", "kmeans" (the
	// package documentation lists them).
	Stage string
	// Done and Total measure progress in stage-specific units; Total is 0
	// when unknown.
	Done, Total int
	// Message is optional detail, such as a residual.
	Message string
}

// Recorder receives progress events. Implementations must be safe for
// concurrent use: parallel stages report from several goroutines.
type Recorder interface {
	Record(Event)
}

// Func adapts a function to the Recorder interface.
type Func func(Event)

// Record calls f(e).
func (f Func) Record(e Event) { f(e) }

// Send records e on r if r is not nil.
func Send(r Recorder, e Event) {
	if r != nil {
		r.Record(e)
	}
}

// Log is a Recorder that keeps every event, by stage, in order: for tests
// and tools that inspect how a computation reported. The zero value is
// ready to use; it is safe for concurrent use.
type Log struct {
	mu     sync.Mutex
	stages map[string][]Event
}

// Record keeps e.
func (l *Log) Record(e Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stages == nil {
		l.stages = map[string][]Event{}
	}
	l.stages[e.Stage] = append(l.stages[e.Stage], e)
}

// Events returns a copy of the events of stage, in the order recorded.
func (l *Log) Events(stage string) []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.stages[stage])
}

// Stages returns the names of the stages with events, sorted.
func (l *Log) Stages() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Sorted(maps.Keys(l.stages))
}
