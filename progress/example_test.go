package progress_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/kmeans"
	"github.com/tether-sc/tether/progress"
)

// A function as a Recorder: k-means reports its restarts on the stage
// "kmeans", Done of Total the restarts finished (one worker here, so that
// the events come in one order).
func ExampleFunc() {
	x := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2})
	rec := progress.Func(func(e progress.Event) {
		fmt.Printf("%s: %d/%d\n", e.Stage, e.Done, e.Total)
	})
	if _, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: 2, Restarts: 3, Workers: 1, Recorder: rec}); err != nil {
		panic(err)
	}
	// Output:
	// kmeans: 1/3
	// kmeans: 2/3
	// kmeans: 3/3
}

// A Log keeps the events by stage, for a test or a tool to inspect
// afterwards; it is safe for the concurrent events of parallel restarts.
func ExampleLog() {
	x := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2})
	var log progress.Log
	if _, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: 2, Restarts: 4, Recorder: &log}); err != nil {
		panic(err)
	}
	ev := log.Events("kmeans")
	last := ev[len(ev)-1]
	fmt.Println(log.Stages(), len(ev), last.Done, last.Total)
	// Output:
	// [kmeans] 4 4 4
}

// Send records an event on a recorder that may be nil, as the library's
// code does with an optional Settings.Recorder.
func ExampleSend() {
	var none progress.Recorder
	progress.Send(none, progress.Event{Stage: "graph", Done: 1, Total: 2}) // nothing happens
	var log progress.Log
	progress.Send(&log, progress.Event{Stage: "graph", Done: 1, Total: 2})
	fmt.Println(log.Events("graph"))
	// Output:
	// [{graph 1 2 }]
}
