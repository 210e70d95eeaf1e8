package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// fgpwcCoreProblem is fgpwcStateProblem's 400 nodes (three blobs, 10-NN
// graph) with five more outside its core: two isolated nodes, 400 (class
// 1) and 401 (class 0), and a path of three, 402–404 (class 2). Node 400
// is must-linked to node 1 (class 1) and 402 to node 2 (class 2), so the
// attachment has must-links to follow; the constraints also hold the 30
// oracle pairs of the core.
func fgpwcCoreProblem(t *testing.T) (*Problem, []int) {
	t.Helper()
	p, truth := fgpwcStateProblem(t)
	edges := p.Graph.Edges()
	edges = append(edges, graph.Edge{I: 402, J: 403, W: 1}, graph.Edge{I: 403, J: 404, W: 1})
	g, err := graph.FromEdges(405, edges)
	if err != nil {
		t.Fatal(err)
	}
	truth = append(truth, 1, 0, 2, 2, 2)
	pairs := append([]constraint.Pair(nil), p.Constraints.Pairs...)
	pairs = append(pairs, constraint.Pair{I: 400, J: 1, Kind: constraint.MustLink}, constraint.Pair{I: 402, J: 2, Kind: constraint.MustLink})
	return &Problem{Graph: g, K: 3, Constraints: &constraint.Set{N: 405, Pairs: pairs}}, truth
}

// TestFGPWCStateForCore: on a graph with isolated nodes and a small
// component, NewStateFor embeds only the core, and the cold calls equal
// Run of FGPWC without a basis (which clusters the core and attaches the
// rest) call after call as the constraints grow: labels, objective,
// iterations, warnings. Warm calls then reuse that basis (no new
// embedding), place every node, and stay accurate.
func TestFGPWCStateForCore(t *testing.T) {
	p, truth := fgpwcCoreProblem(t)
	ctx := context.Background()
	s := &Settings{Seed: 3}
	if p.WholeGraph() {
		t.Fatal("the problem's graph has no nodes outside its core")
	}
	st, err := stateFGPWC().NewStateFor(ctx, p, s)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Basis().g.N(); got != 400 {
		t.Fatalf("the state embeds %d nodes, want the 400 of the core", got)
	}
	rnd := rand.New(rand.NewPCG(9, 9))
	for step, count := range []int{0, 5, 30} {
		q := *p
		q.Constraints = &constraint.Set{N: 405, Pairs: append(fgpwcOracle(rnd, truth[:400], count+1).Pairs[:count], p.Constraints.Pairs[len(p.Constraints.Pairs)-2:]...)}
		want, err := Run(ctx, stateFGPWC(), &q, s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := st.Cluster(ctx, &q, s, FGPWCWarm{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Labels, want.Labels) || got.Objective != want.Objective || got.Iterations != want.Iterations || !slices.Equal(got.Warnings, want.Warnings) {
			t.Errorf("step %d (%d pairs): state F = %v, %d iterations, warnings %q; Run F = %v, %d iterations, warnings %q; labels equal: %v",
				step, count, got.Objective, got.Iterations, got.Warnings, want.Objective, want.Iterations, want.Warnings, slices.Equal(got.Labels, want.Labels))
		}
		if len(got.Labels) != 405 {
			t.Fatalf("step %d: %d labels, want 405", step, len(got.Labels))
		}
	}
	// Warm k-means with growing constraints, with FGPWC's defaults (the
	// automatic m, as TestFGPWCStateWarm: m = 12 is for equality, not
	// quality). Tolerance 0.97 allows the isolated node 401, which has no
	// link and joins the largest cluster, and one boundary node.
	st, err = NewFGPWC().NewStateFor(ctx, p, s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Cluster(ctx, p, s, FGPWCWarm{}); err != nil {
		t.Fatal(err)
	}
	basis := st.Basis()
	q := *p
	for step := range 3 {
		q.Constraints = &constraint.Set{N: 405, Pairs: append(slices.Clone(q.Constraints.Pairs), fgpwcOracle(rnd, truth[:400], 5).Pairs...)}
		res, err := st.Cluster(ctx, &q, s, FGPWCWarm{KMeans: true})
		if err != nil {
			t.Fatal(err)
		}
		if st.Basis() != basis {
			t.Fatal("a warm call replaced the basis")
		}
		if len(res.Labels) != 405 || !strings.Contains(strings.Join(res.Warnings, "\n"), "attached") {
			t.Fatalf("warm step %d: %d labels, warnings %q; want 405 and the attachment's warning", step, len(res.Labels), res.Warnings)
		}
		if a := fgpwcARI(t, res.Labels, truth); a < 0.97 {
			t.Errorf("warm step %d: ARI %.4f, want ≥ 0.97", step, a)
		}
		// The must-linked nodes outside the core follow their partners.
		if res.Labels[400] != res.Labels[1] || res.Labels[402] != res.Labels[2] || res.Labels[403] != res.Labels[402] {
			t.Errorf("warm step %d: attached nodes 400, 402, 403 in clusters %d, %d, %d; their must-link partners 1, 2 in %d, %d",
				step, res.Labels[400], res.Labels[402], res.Labels[403], res.Labels[1], res.Labels[2])
		}
	}
}

// TestFGPWCStateForErrors: a state bound to a core refuses problems that
// ask for another graph treatment or another core, and a basis is reused
// only for the graph and core it embeds. NewStateFor on a graph without
// nodes outside its core is NewState.
func TestFGPWCStateForErrors(t *testing.T) {
	p, _ := fgpwcCoreProblem(t)
	ctx := context.Background()
	st, err := stateFGPWC().NewStateFor(ctx, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	strict := *p
	strict.Disconnected = DisconnectedStrict
	if _, err := st.Cluster(ctx, &strict, nil, FGPWCWarm{}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "strict") {
		t.Errorf("strict problem: err = %v, want ErrInvalid naming strict", err)
	}
	// k = 80: components below 405/320 nodes are small, so the 3-node
	// component joins the core.
	other := *p
	other.K = 80
	if _, err := st.Cluster(ctx, &other, nil, FGPWCWarm{}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "core") {
		t.Errorf("problem with another core: err = %v, want ErrInvalid naming the core", err)
	}
	f := stateFGPWC()
	f.Basis = st.Basis()
	if st2, err := f.NewStateFor(ctx, p, nil); err != nil || st2.Basis() != st.Basis() {
		t.Errorf("NewStateFor with the core's basis: %v, basis reused: %v", err, err == nil && st2.Basis() == st.Basis())
	}
	if _, err := f.NewStateFor(ctx, &other, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewStateFor with a basis of another core: err = %v, want ErrInvalid", err)
	}
	if _, err := f.NewState(ctx, p.Graph, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewState on the whole graph with the core's basis: err = %v, want ErrInvalid", err)
	}
	if _, err := stateFGPWC().NewStateFor(ctx, nil, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil problem: err = %v, want ErrInvalid", err)
	}
	whole, _ := fgpwcStateProblem(t)
	if st, err := stateFGPWC().NewStateFor(ctx, whole, nil); err != nil || st.core != nil || st.Basis().g != whole.Graph {
		t.Errorf("NewStateFor on a graph that is its core: err = %v; want NewState's state", err)
	}
}

// TestFGPWCStateK1 checks k = 1, which Run answers without the method (one
// cluster, no embedding): a state's call gives that answer instead of
// panicking on the missing embedding (as it did), and leaves the state as
// it was, so the next warm call starts from the call before.
func TestFGPWCStateK1(t *testing.T) {
	p, _ := fgpwcStateProblem(t)
	ctx := context.Background()
	st, err := stateFGPWC().NewState(ctx, p.Graph, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Cluster(ctx, p, nil, FGPWCWarm{}); err != nil {
		t.Fatal(err)
	}
	prevX := st.prevX
	one := *p
	one.K = 1
	for _, w := range []FGPWCWarm{{}, {KMeans: true, Descent: true}} {
		res, err := st.Cluster(ctx, &one, nil, w)
		if err != nil {
			t.Fatalf("k = 1, %+v: %v", w, err)
		}
		if res.K != 1 || len(res.Labels) != p.Graph.N() || slices.Max(res.Labels) != 0 {
			t.Errorf("k = 1, %+v: K = %d, %d labels, max %d; want one cluster of every node", w, res.K, len(res.Labels), slices.Max(res.Labels))
		}
		if st.prevX != prevX || st.prevK != 3 {
			t.Errorf("k = 1, %+v: the state changed (k %d)", w, st.prevK)
		}
	}
}

// BenchmarkFGPWCStateReclusterCore is what tether serve does after a
// person adds a constraint on a graph with isolated nodes: two moons of 10⁴
// points (noise 0.1, the default k-NN graph) and 100 isolated nodes, m = 4
// (the server's m = 2k), 20 oracle pairs before the timed additions, one
// pair added per iteration. "run" is cluster.Run, which embeds the core
// each time (the server's path for such graphs before NewStateFor);
// "warmKMeans" is a NewStateFor state with warm k-means (the server's
// default now). Setup is outside the timer.
func BenchmarkFGPWCStateReclusterCore(b *testing.B) {
	ctx := context.Background()
	const n, isolated = 10000, 100
	rnd := rand.New(rand.NewPCG(n, 3))
	x, moon, _ := fgpwcMoons(rnd, n, 0.1)
	g0, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		b.Fatal(err)
	}
	g, err := graph.FromEdges(n+isolated, g0.Edges())
	if err != nil {
		b.Fatal(err)
	}
	f := NewFGPWC()
	f.M = 4
	s := &Settings{Seed: 1}
	extra := fgpwcOracle(rnd, moon, 1000).Pairs
	for _, mode := range []string{"run", "warmKMeans"} {
		b.Run(mode, func(b *testing.B) {
			p := &Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: n + isolated, Pairs: fgpwcOracle(rnd, moon, 20).Pairs}}
			st, err := f.NewStateFor(ctx, p, s)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := st.Cluster(ctx, p, s, FGPWCWarm{}); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p.Constraints.Pairs = append(p.Constraints.Pairs, extra[i%len(extra)])
				i++
				var res *Result
				if mode == "run" {
					res, err = Run(ctx, f, p, s)
				} else {
					res, err = st.Cluster(ctx, p, s, FGPWCWarm{KMeans: true})
				}
				if err != nil {
					b.Fatal(err)
				}
				fgpwcStateBenchSink = res
			}
		})
	}
}
