// Package progress defines how long-running computations in tether report
// progress. The library never prints: it sends Events to a Recorder supplied
// by the caller; the command-line tool supplies one that writes to stderr.
package progress

// Event describes the state of one stage of a computation.
type Event struct {
	// Stage names the step, for example "knn", "eigen", "kmeans".
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
