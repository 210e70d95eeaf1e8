package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// pairsProbe is a method that reads pairs, does not resolve them, and
// whose partition depends on the weights' scale when they contradict
// each other (as ml-noa-ssc's does): every step of Run that looks at the
// pairs' contradictions applies to it (rescaled, the warning, weightScale).
// Its Partition splits the nodes by parity without polling, and records
// the checks of its context made before it.
type pairsProbe struct {
	at *int64 // the checks of the pollCtx before Partition
}

func (pairsProbe) Name() string { return "pairs-probe" }

func (pairsProbe) Uses() Uses {
	return Uses{Supervision: Pairs, WeightScale: "a probe's", ScaleOnContradiction: true}
}

func (m pairsProbe) Partition(ctx context.Context, p *Problem, _ *Settings) (*Result, error) {
	*m.at = ctx.(*pollCtx).calls.Load()
	labels := make([]int, p.Graph.N())
	for i := range labels {
		labels[i] = i % 2
	}
	return &Result{Labels: labels, K: 2}, nil
}

// contradictoryProblem returns a 2-cluster problem on a ring of 3·2¹⁶
// nodes whose pairs, 2¹⁷ of them, contradict each other (a pair both
// ways): enough for ContradictionsContext to check its context several
// times a pass.
func contradictoryProblem(t *testing.T) *Problem {
	t.Helper()
	const n = 3 << 16
	edges := make([]graph.Edge, n)
	for i := range edges {
		edges[i] = graph.Edge{I: i, J: (i + 1) % n, W: 1}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	set := &constraint.Set{N: n, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 1, J: 0, Kind: constraint.CannotLink}}}
	for i := 2; len(set.Pairs) < 1<<17; i++ {
		set.Pairs = append(set.Pairs, constraint.Pair{I: i, J: i + 5, Kind: constraint.MustLink + constraint.Kind(i%2)})
	}
	return &Problem{Graph: g, K: 2, Constraints: set}
}

// Run counts the contradictions of the pairs once, checking its context,
// before the method: rescaled and weightScale counted them again, without
// checking it (constraint.Contradictions: three passes over the pairs and
// a sort, seconds at 10⁷ pairs), beside the warning's count. With a
// method that does not poll, the checks of a run are Run's own, then
// those of one ContradictionsContext, all before the method; the warning
// is given.
func TestRunCountsContradictionsOnce(t *testing.T) {
	p := contradictoryProblem(t)
	count := newPollCtx(0)
	if _, _, err := constraint.ContradictionsContext(count, p.Constraints); err != nil {
		t.Fatal(err)
	}
	once := count.calls.Load()
	var at int64
	ctx := newPollCtx(0)
	res, err := Run(ctx, pairsProbe{at: &at}, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if total := ctx.calls.Load(); at != 1+once || total != 1+once {
		t.Errorf("checks before the method %d, in all %d; want Run's own and one count's: 1 + %d", at, total, once)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "pairs-probe: the pairwise constraints contradict each other") {
		t.Errorf("warnings %q: want the one about contradictory pairs", res.Warnings)
	}
}

// ml-noa-ssc's partition depends on the weights' scale when its pairs
// contradict each other: Run's count of them, which decides whether it
// scales the weights, checks the context (it did not), so that a run
// cancelled at its first check after Run's own stops there, naming the
// step.
func TestRunScaleCheckPolls(t *testing.T) {
	p := contradictoryProblem(t)
	_, err := Run(newPollCtx(2), MLNOASSC{}, p, nil)
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "cluster: ml-noa-ssc: check of the pairs for contradictions: ") {
		t.Errorf("err = %v, want context.Canceled naming ml-noa-ssc and the check of the pairs", err)
	}
}
