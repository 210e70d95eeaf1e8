package graph

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/progress"
)

// BuildRecorded reports each pass up to its total, and builds the same
// graph as Build.
func TestBuildRecordedReportsProgress(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	n := 5000
	x := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < 3; j++ {
			x.Set(i, j, rnd.NormFloat64())
		}
	}
	var mu sync.Mutex
	var events []progress.Event
	rec := progress.Func(func(e progress.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})
	g, err := BuildRecorded(context.Background(), x, DefaultSpec(), rec)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Build(context.Background(), x, DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	if g.NNZ() != want.NNZ() || g.Volume() != want.Volume() {
		t.Errorf("recorded build differs: nnz %d vs %d", g.NNZ(), want.NNZ())
	}
	complete := 0
	for _, e := range events {
		if e.Stage != "graph" || e.Total < 1 || e.Done > e.Total {
			t.Fatalf("event %+v", e)
		}
		if e.Done == e.Total {
			complete++
		}
	}
	if complete == 0 || len(events) > 101*(complete+1) {
		t.Errorf("%d events, %d complete passes", len(events), complete)
	}
}

// TestBuildRecordedApproxRounds: with the approximate search on more
// points than one join batch, each NN-descent round is one progress pass
// over all n points (not one per batch of joinBatch neighbourhoods), and
// every pass reaches its total.
func TestBuildRecordedApproxRounds(t *testing.T) {
	n := 2*joinBatch + 8000
	x := randData(n, 5, 4, 3)
	var mu sync.Mutex
	var events []progress.Event
	rec := progress.Func(func(e progress.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})
	spec := DefaultSpec()
	spec.Search = SearchApprox
	if _, err := BuildRecorded(context.Background(), x, spec, rec); err != nil {
		t.Fatal(err)
	}
	rounds, complete := 0, 0
	for _, e := range events {
		if e.Total == joinBatch {
			t.Fatalf("a pass of one join batch: %+v", e)
		}
		if e.Done == e.Total {
			complete++
			if e.Total == n {
				rounds++
			}
		}
	}
	if rounds == 0 {
		t.Errorf("no pass over all %d points among %d events", n, len(events))
	}
	if complete < rounds || len(events) > 101*(complete+1) {
		t.Errorf("%d events, %d complete passes", len(events), complete)
	}
}
