package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// isolatedProblem returns a problem on the n-node graph of edges (unit
// weights) with k clusters, the labels and the constraints that
// supervised hands out: node c labelled c for c < k, a cannot-link 0–1 and
// a must-link 0–2. Every problem has feature rows (two separated groups,
// for cpca, cvqe, clpp); only a method that co-clusters gets the
// ⌊n/2⌋×⌈n/2⌉ positive bipartite matrix, so that Run warns about no
// ignored input.
func isolatedProblem(t *testing.T, n int, edges [][2]int, k int, u Uses) *Problem {
	t.Helper()
	var es []graph.Edge
	for _, e := range edges {
		es = append(es, graph.Edge{I: e[0], J: e[1], W: 1})
	}
	g, err := graph.FromEdges(n, es)
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		x.Set(i, 0, float64(i%2)*5+0.1*float64(i))
		x.Set(i, 1, 0.3*float64(i%3))
	}
	labels := make(constraint.Labels, n)
	for i := range labels {
		labels[i] = constraint.Unlabeled
		if i < k {
			labels[i] = i
		}
	}
	cons := &constraint.Set{N: n, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.CannotLink}, {I: 0, J: 2, Kind: constraint.MustLink},
	}}
	base := &Problem{Graph: g, K: k}
	if u.Input&FeatureInput != 0 {
		base.Features = x
		if u.Input&GraphInput == 0 {
			// cpca, cvqe: a graph beside the rows draws a warning
			// that it is ignored.
			base.Graph = nil
		}
	}
	if u.Input&BipartiteInput != 0 {
		r := n / 2
		b := mat.NewDense(r, n-r, nil)
		for i := 0; i < r; i++ {
			for j := 0; j < n-r; j++ {
				b.Set(i, j, 1+float64((i+j)%2))
			}
		}
		base.Bipartite = b
		if u.Input&GraphInput == 0 {
			// cocluster: likewise.
			base.Graph = nil
		}
	}
	return supervised(base, u, labels, cons)
}

// runRecover is Run with a panic turned into an error, so that a table
// over every method reports a panic as that method's failure.
func runRecover(m Method, p *Problem) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return Run(context.Background(), m, p, &Settings{Seed: 1})
}

// On graphs where a node of degree 0 cannot be set aside, every registered
// method returns a partition or an error wrapping ErrInvalid: never an
// unclassified error (which the CLI and the server report as internal) and
// never a panic. The methods listed in isolated refuse the node of degree
// 0 itself: their error wraps both ErrInvalid and graph.ErrIsolated (Run's
// isolatedInvalid), names a node and says what to do, once ("self loops"
// at most once: Run's advice was added to messages that gave it already,
// those of the graph package's Laplacians and of fast-ge's weights). The
// lists are the
// methods whose operators divide by degrees (D^{-1/2}, D^{-1} or
// d_min) and that reach such a node: on the edgeless graph the core rule
// keeps every node (no node has an edge); with one isolated node and
// k = n − 1 the core is the path, so only k, too large for several
// methods, is refused; with k = n the core rule keeps every node again.
func TestIsolatedNodeErrorsAreInvalid(t *testing.T) {
	path := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}} // nodes 0–4; node 5 isolated
	degreeDivisors := []string{"csc", "csp", "fast-ge", "fast-ge2", "fgpwc", "l1csc", "mavro-k", "noa-ssc", "plmeans"}
	for _, tc := range []struct {
		name     string
		n        int
		edges    [][2]int
		k        int
		isolated []string // methods refusing with ErrInvalid and graph.ErrIsolated
	}{
		{"edgeless n=5 k=2", 5, nil, 2, append([]string{"cosc", "mavro", "ml-noa-ssc", "mcl-noa-ssc"}, degreeDivisors...)},
		{"isolated node k=n-1", 6, path, 5, nil},
		{"isolated node k=n", 6, path, 6, degreeDivisors},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, info := range Methods() {
				t.Run(info.Name, func(t *testing.T) {
					m := info.New()
					p := isolatedProblem(t, tc.n, tc.edges, tc.k, m.Uses())
					res, err := runRecover(m, p)
					wantIsolated := slices.Contains(tc.isolated, info.Name)
					switch {
					case wantIsolated && (!errors.Is(err, ErrInvalid) || !errors.Is(err, graph.ErrIsolated)):
						t.Fatalf("error %v, want one wrapping ErrInvalid and graph.ErrIsolated", err)
					case wantIsolated:
						if msg := err.Error(); !strings.Contains(msg, "node ") || !strings.Contains(msg, "add self loops") || !strings.Contains(msg, "drop the node") {
							t.Errorf("error %q does not name the node and say what to do", msg)
						}
						if msg := err.Error(); strings.Count(msg, "self loops") > 1 {
							t.Errorf("error %q gives the self-loop advice %d times", msg, strings.Count(msg, "self loops"))
						}
					case errors.Is(err, graph.ErrIsolated):
						t.Fatalf("error %v wraps graph.ErrIsolated; add %s to the list if the refusal is right", err, info.Name)
					case err != nil && !errors.Is(err, ErrInvalid):
						t.Fatalf("unclassified error %v", err)
					case err == nil:
						if len(res.Labels) != tc.n {
							t.Fatalf("%d labels for %d nodes", len(res.Labels), tc.n)
						}
						for i, c := range res.Labels {
							if c < 0 || c >= res.K {
								t.Fatalf("node %d in cluster %d of %d", i, c, res.K)
							}
						}
					}
				})
			}
		})
	}
}

// With k = 1, Run answers the one partition without calling the method:
// every method that admits k = 1 returns all nodes in cluster 0 with no
// warning but the one that the problem's cannot-link is violated, on
// graphs whose nodes of degree 0 several methods refuse for
// k ≥ 2 (csc, fast-ge, fast-ge2, ml-/mcl-noa-ssc and plmeans did for
// k = 1 too); the methods that declare MinK ≥ 2 refuse it with ErrInvalid
// on every graph.
func TestRunKOneIsOneCluster(t *testing.T) {
	minK2 := []string{"ccsr", "cosc", "csp", "cvqe", "l1csc", "mavro"}
	for _, tc := range []struct {
		name  string
		n     int
		edges [][2]int
	}{
		{"edgeless n=5", 5, nil},
		{"isolated node", 6, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}}},
		{"path", 5, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, info := range Methods() {
				t.Run(info.Name, func(t *testing.T) {
					m := info.New()
					res, err := runRecover(m, isolatedProblem(t, tc.n, tc.edges, 1, m.Uses()))
					if slices.Contains(minK2, info.Name) {
						if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "k = 1, the method takes") {
							t.Fatalf("error %v, want ErrInvalid for k below MinK", err)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					other := false
					for _, w := range res.Warnings {
						other = other || !strings.Contains(w, "k = 1 puts every node in one cluster: the cannot-link is violated")
					}
					if res.K != 1 || !slices.Equal(res.Labels, make([]int, tc.n)) || other || len(res.Notes) != 0 {
						t.Errorf("K = %d, labels %v, warnings %q; want one cluster, no warning but the violated cannot-link's", res.K, res.Labels, res.Warnings)
					}
				})
			}
		})
	}
}

// TestEdgelessWarns: on a graph with no edge between distinct nodes
// (graph.FromEdges(10, nil), and self loops only), bethe and hbisect
// return a partition that means nothing (H(r) is diagonal; every node is
// a component), and say so in a warning, as njw and ncut do; a graph with
// one edge gets no such warning (review 49, finding 12). k = 0 (estimated)
// and k = 2.
func TestEdgelessWarns(t *testing.T) {
	loops := make([]graph.Edge, 10)
	for i := range loops {
		loops[i] = graph.Edge{I: i, J: i, W: float64(i + 1)}
	}
	for _, gc := range []struct {
		name  string
		edges []graph.Edge
		warn  bool
	}{
		{"no edge", nil, true},
		{"self loops only", loops, true},
		{"one edge", []graph.Edge{{I: 0, J: 1, W: 1}}, false},
	} {
		g, err := graph.FromEdges(10, gc.edges)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []Method{BetheHessian{}, HBisection{}} {
			for _, k := range []int{0, 2} {
				t.Run(fmt.Sprintf("%s/%s/k=%d", gc.name, m.Name(), k), func(t *testing.T) {
					res, err := Run(context.Background(), m, &Problem{Graph: g, K: k}, nil)
					if err != nil {
						t.Fatal(err)
					}
					warned := slices.ContainsFunc(res.Warnings, func(w string) bool {
						return strings.HasPrefix(w, m.Name()+": the graph has no edge between distinct nodes (10 isolated nodes)")
					})
					if warned != gc.warn {
						t.Errorf("warnings %q: the no-edge warning given %v, want %v", res.Warnings, warned, gc.warn)
					}
					// Once: Run's own (edgeless) only when the method
					// gave none.
					count := 0
					for _, w := range res.Warnings {
						if strings.Contains(w, "no edge between distinct nodes") {
							count++
						}
					}
					if gc.warn && count != 1 {
						t.Errorf("warnings %q: %d about the missing edges, want 1", res.Warnings, count)
					}
				})
			}
		}
	}
}
