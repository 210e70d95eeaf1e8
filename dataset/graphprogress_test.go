package dataset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/ctxsort"
	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/progress"
)

// parseSteps are the steps of an edge list's parse, in order.
var parseSteps = []string{"lines", "numbering the nodes", "sorting the edges", "combining repeated edges", "building the graph"}

// progressEdgeLists returns edge lists of integer and of named nodes
// whose sort takes several checks of ctxsort.ByKey.
func progressEdgeLists() map[string]string {
	const rows = 3*ctxsort.PollEvery + 5
	var ints, named strings.Builder
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&ints, "%d %d 1\n", (i*7919)%rows, i)
		fmt.Fprintf(&named, "n%d n%d 1\n", (i*7919)%rows, i)
	}
	return map[string]string{"ints.txt": ints.String(), "named.txt": named.String()}
}

// GraphOptions.Recorder follows an edge list's parse as the stage
// "parsing NAME" in thousandths, through each step in order, never going
// back, with fractions inside the steps, to the total; the graph is the
// one read without it.
func TestReadGraphProgress(t *testing.T) {
	for name, text := range progressEdgeLists() {
		var l progress.Log
		d, err := ReadGraph(context.Background(), strings.NewReader(text), name, EdgeList, GraphOptions{Recorder: &l})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := ReadGraph(context.Background(), strings.NewReader(text), name, EdgeList, GraphOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d.G.NNZ() != plain.G.NNZ() || d.G.Volume() != plain.G.Volume() {
			t.Errorf("%s: the graph differs from the one read without a recorder", name)
		}
		es := l.Events("parsing " + name)
		msgs, inside := parseStepsOf(t, name, es)
		if !slices.Equal(msgs, parseSteps) {
			t.Errorf("%s: steps %q, want %q", name, msgs, parseSteps)
		}
		for _, s := range parseSteps[:3] {
			if !inside[s] {
				t.Errorf("%s: no fraction inside the step %q", name, s)
			}
		}
		if last := es[len(es)-1]; last.Done != last.Total {
			t.Errorf("%s: last event %+v, want the total", name, last)
		}
	}
}

// The steps of an edge list's parse that report fractions check the
// context as they go: cancelled once a step has reported progress past
// its start, the parse stops with context.Canceled, naming the file,
// before the next step starts. The sort of the entries was one call of
// slices.SortStableFunc, 3 s for 3·10⁶ edges without a check.
func TestReadGraphCancelInsideTheSteps(t *testing.T) {
	for name, text := range progressEdgeLists() {
		for s, step := range parseSteps[:3] {
			ctx, cancel := context.WithCancel(context.Background())
			rec := &testctx.StepCanceller{Step: step, Cancel: cancel}
			_, err := ReadGraph(ctx, strings.NewReader(text), name, EdgeList, GraphOptions{Recorder: rec})
			cancel()
			seen := rec.Seen()
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), name+": ") {
				t.Errorf("%s, cancelled inside %q: err = %v, want context.Canceled naming the file", name, step, err)
			}
			if slices.Contains(seen, parseSteps[s+1]) {
				t.Errorf("%s, cancelled inside %q: went on to the steps %q", name, step, seen)
			}
		}
	}
}

// parseStepsOf checks that the events es of a parse, named name, count in
// progress.MeterTotal and never go back, and returns the steps (the
// messages in order, repeats merged) and those that advanced inside.
func parseStepsOf(t *testing.T, name string, es []progress.Event) (msgs []string, inside map[string]bool) {
	t.Helper()
	inside = map[string]bool{}
	for i, e := range es {
		if e.Total != progress.MeterTotal || (i > 0 && e.Done < es[i-1].Done) {
			t.Fatalf("%s: event %d %+v after %+v", name, i, e, es[max(i-1, 0)])
		}
		if len(msgs) == 0 || msgs[len(msgs)-1] != e.Message {
			msgs = append(msgs, e.Message)
		} else if e.Done > es[i-1].Done {
			inside[e.Message] = true
		}
	}
	return msgs, inside
}
