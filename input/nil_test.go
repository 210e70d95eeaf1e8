package input

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/testpanic"
)

// TestNilInputs: a nil *Data, a nil method and a nil graph are errors (N
// is 0), not nil dereferences, and a Data built by hand without a Name is
// called "input" in messages rather than leaving them to start with ": ".
func TestNilInputs(t *testing.T) {
	ctx := context.Background()
	g := path3(t)
	x := mat.NewDense(3, 1, []float64{0, 1, 2})
	for _, tc := range []struct {
		name string
		f    func() error
		want string
	}{
		{"BuildGraph nil data", func() error { _, err := (*Data)(nil).BuildGraph(ctx, graph.Spec{}, nil); return err }, "input: no data"},
		{"BuildGraph without rows", func() error { _, err := (&Data{}).BuildGraph(ctx, graph.Spec{}, nil); return err }, "input: no graph and no feature rows to build one from"},
		{"BuildGraph bad spec", func() error { _, err := (&Data{X: x}).BuildGraph(ctx, graph.Spec{K: 5}, nil); return err }, "input: building the graph: "},
		{"Check unnamed", func() error { return (&Data{}).Check() }, "input: no graph (build it with BuildGraph)"},
		{"Check unnamed truth", func() error { return (&Data{Graph: g, Truth: []int{0}}).Check() }, "input: reference has 1 label for 3 nodes"},
		{"NewProblem nil method", func() error { _, err := NewProblem(&Data{Name: "p", Graph: g}, nil, 2); return err }, "input: no method"},
		{"NewProblem unnamed graph", func() error { _, err := NewProblem(&Data{Graph: g}, cluster.CPCA{}, 2); return err }, "method cpca projects feature rows, and input is a graph without features"},
		{"VoteFilter nil graph", func() error { _, err := VoteFilter(ctx, nil, nil, 2); return err }, "vote filter: no graph"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if msg := testpanic.Message(func() { err = tc.f() }); msg != "" {
				t.Fatalf("panic: %s", msg)
			}
			if got := errText(err); len(got) < len(tc.want) || got[:len(tc.want)] != tc.want {
				t.Errorf("err = %q, want one starting %q", got, tc.want)
			}
		})
	}
	if n := (*Data)(nil).N(); n != 0 {
		t.Errorf("nil Data: N = %d, want 0", n)
	}
}
