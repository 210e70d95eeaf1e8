package cluster

import (
	"context"
	"sync"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/progress"
)

// TestAutoProgress: auto reports its cross-validation on the stage
// "auto", Done of Total the fits finished, one by one from 0 to Total,
// Total the fits its report lists (one per unconstrained candidate, one
// per fold of each supervised one), and reaches Total before the final
// fit of its supervised winner reports anything; the fits themselves are
// quiet. It sent no event at all while it cross-validated (review 86:
// 1.95 s of silence on 3000 blobs). With too little supervision there is
// no "auto" stage, and NJW's one fit reports its own. ExampleAuto's
// problem, where ml-noa-ssc wins.
func TestAutoProgress(t *testing.T) {
	ctx := context.Background()
	_, g, set := autoMoons(t)
	var log progress.Log
	var mu sync.Mutex
	var seq []progress.Event // every event, in the order recorded
	rec := progress.Func(func(e progress.Event) {
		mu.Lock()
		seq = append(seq, e)
		mu.Unlock()
		log.Record(e)
	})
	res, err := Run(ctx, Auto{}, &Problem{Graph: g, K: 2, Constraints: set}, &Settings{Seed: 1, Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report.(*AutoReport)
	want := 0
	supervisedWinner := false
	for _, c := range rep.Candidates {
		switch {
		case c.Skipped != "":
		case c.Supervised:
			want += rep.Folds
		default:
			want++
		}
		if c.Name == rep.Chosen {
			supervisedWinner = c.Supervised
		}
	}
	if !supervisedWinner {
		t.Fatalf("auto chose %s, an unconstrained candidate: the test needs a final fit", rep.Chosen)
	}
	ev := log.Events("auto")
	if len(ev) != want+1 {
		t.Fatalf("%d events on the stage auto, want %d (a first at 0, then one per fit)", len(ev), want+1)
	}
	for i, e := range ev {
		if e.Done != i || e.Total != want || e.Message == "" {
			t.Errorf("event %d of auto: %+v, want Done %d, Total %d and a message", i, e, i, want)
		}
	}
	// Between the first fit finished and the last, nothing else reports
	// (the fits are quiet); after the last, the final fit does.
	first, last := -1, -1
	for i, e := range seq {
		if e.Stage == "auto" && e.Done == 1 {
			first = i
		}
		if e.Stage == "auto" && e.Done == want {
			last = i
		}
	}
	for _, e := range seq[first:last] {
		if e.Stage != "auto" {
			t.Errorf("event %+v among the fits of the cross-validation", e)
			break
		}
	}
	if last == len(seq)-1 {
		t.Errorf("no event after the cross-validation: the final fit of %s reported nothing", rep.Chosen)
	}

	// Two pairs, fewer than the 10 a choice needs: NJW's fit reports.
	var few progress.Log
	two := &constraint.Set{N: set.N, Pairs: set.Pairs[:2]}
	if _, err := Run(ctx, Auto{}, &Problem{Graph: g, K: 2, Constraints: two}, &Settings{Seed: 1, Recorder: &few}); err != nil {
		t.Fatal(err)
	}
	if n := len(few.Events("auto")); n != 0 || len(few.Events("kmeans")) == 0 {
		t.Errorf("too little supervision: %d auto events (want 0), stages %v (want NJW's kmeans among them)", n, few.Stages())
	}
}
