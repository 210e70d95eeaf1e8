package metrics

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/progress"
)

// evalInput returns labels and pairs large enough that the expected
// mutual information and the passes over the pairs check their context
// several times.
func evalInput() (truth, pred []int, set *constraint.Set) {
	const n, m = 100000, 3*pairPoll + 5
	rnd := rand.New(rand.NewPCG(3, 3))
	truth, pred = make([]int, n), make([]int, n)
	for i := range truth {
		truth[i] = rnd.IntN(3)
		pred[i] = (truth[i] + rnd.IntN(2)) % 3
		if i%97 == 0 {
			truth[i] = constraint.Unlabeled
		}
	}
	set = &constraint.Set{N: n}
	for range m {
		i, j := rnd.IntN(n), rnd.IntN(n-1)
		if j >= i {
			j++
		}
		set.Pairs = append(set.Pairs, constraint.Pair{I: i, J: j, Kind: constraint.MustLink + constraint.Kind(rnd.IntN(2))})
	}
	set.Pairs = append(set.Pairs, set.Pairs[:100]...) // repeats, counted once
	return truth, pred, set
}

// EvaluateContext gives Evaluate's report, reporting its progress to
// Options.Recorder as the stage "figures": thousandths, never going back,
// through its steps in order, with fractions inside the long ones, to the
// total.
func TestEvaluateContextProgress(t *testing.T) {
	truth, pred, set := evalInput()
	opt := Options{Constraints: set, Unconstrained: true, Unlabeled: true}
	want, err := Evaluate(truth, pred, &opt)
	if err != nil {
		t.Fatal(err)
	}
	var l progress.Log
	opt.Recorder = &l
	got, err := EvaluateContext(context.Background(), truth, pred, &opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Figures) != len(want.Figures) || !slices.Equal(got.Notes, want.Notes) {
		t.Fatalf("report %+v, want %+v", got, want)
	}
	for i, f := range got.Figures {
		if w := want.Figures[i]; f.Name != w.Name || math.Float64bits(f.Value) != math.Float64bits(w.Value) {
			t.Errorf("figure %s = %v, Evaluate's %s = %v", f.Name, f.Value, w.Name, w.Value)
		}
	}
	es := l.Events("figures")
	var steps []string
	inside := map[string]bool{}
	for i, e := range es {
		if e.Total != progress.MeterTotal || (i > 0 && e.Done < es[i-1].Done) {
			t.Fatalf("event %d %+v after %+v", i, e, es[max(i-1, 0)])
		}
		if len(steps) == 0 || steps[len(steps)-1] != e.Message {
			steps = append(steps, e.Message)
		} else if e.Done > es[i-1].Done {
			inside[e.Message] = true
		}
	}
	if want := []string{stepOthers, stepEMI, stepPairs, stepUncons}; !slices.Equal(steps, want) {
		t.Errorf("steps %q, want %q", steps, want)
	}
	for _, s := range []string{stepEMI, stepPairs, stepUncons} {
		if !inside[s] {
			t.Errorf("no fraction inside %q", s)
		}
	}
	if last := es[len(es)-1]; last.Done != last.Total {
		t.Errorf("last event %+v, want the total", last)
	}
}

// The long steps of EvaluateContext check its context as they go (AMI's
// expected mutual information took 1.4 s at 2·10⁶ items, the figures of
// Options.Unconstrained 6 s at 10⁷ pairs, without a check): cancelled
// once a step has reported progress past its start, it stops with
// context.Canceled, naming the step, before the next one starts.
func TestEvaluateContextCancelInsideTheSteps(t *testing.T) {
	truth, pred, set := evalInput()
	steps := []string{stepEMI, stepPairs, stepUncons}
	for s, step := range steps {
		ctx, cancel := context.WithCancel(context.Background())
		rec := &testctx.StepCanceller{Step: step, Cancel: cancel}
		_, err := EvaluateContext(ctx, truth, pred, &Options{Constraints: set, Unconstrained: true, Unlabeled: true, Recorder: rec})
		cancel()
		seen := rec.Seen()
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "metrics: stopped while computing the "+step) {
			t.Errorf("cancelled inside %q: err = %v, want context.Canceled naming the step", step, err)
		}
		if s+1 < len(steps) && slices.Contains(seen, steps[s+1]) {
			t.Errorf("cancelled inside %q: went on to %q", step, seen)
		}
	}
	if _, err := EvaluateContext(testctx.CancelAfter(0), truth, pred, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: err = %v, want context.Canceled", err)
	}
}
