package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// disconnectedProblem is the test problem of the core rule: two 10-cliques
// (nodes 0–9 and 10–19) joined by one weak edge, a 2-node component
// {20, 21} and two isolated nodes 22 and 23; n = 24, k = 2, so components
// below n/(4k) = 3 nodes are small and the core is 0–19. Node 22 is
// must-linked to node 4 (clique A); nothing links 20, 21 or 23 to the
// core. Features place the cliques apart; the bipartite matrix (12 rows,
// 12 columns) has two blocks.
func disconnectedProblem(t testing.TB) (*Problem, constraint.Labels, *constraint.Set) {
	t.Helper()
	var edges []graph.Edge
	for c := 0; c < 2; c++ {
		for i := 0; i < 10; i++ {
			for j := i + 1; j < 10; j++ {
				edges = append(edges, graph.Edge{I: 10*c + i, J: 10*c + j, W: 1})
			}
		}
	}
	edges = append(edges, graph.Edge{I: 0, J: 10, W: 0.1}, graph.Edge{I: 20, J: 21, W: 1})
	const n = 24
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	cons := &constraint.Set{N: n, Pairs: []constraint.Pair{
		{I: 1, J: 2, Kind: constraint.MustLink}, {I: 11, J: 12, Kind: constraint.MustLink},
		{I: 3, J: 13, Kind: constraint.CannotLink}, {I: 5, J: 15, Kind: constraint.CannotLink},
		{I: 22, J: 4, Kind: constraint.MustLink},
	}}
	labels := make(constraint.Labels, n)
	for i := range labels {
		labels[i] = constraint.Unlabeled
	}
	labels[0], labels[5], labels[10], labels[15] = 0, 0, 1, 1
	x := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		x.Set(i, 0, float64(min(i/10, 1))*5+0.1*float64(i%3))
		x.Set(i, 1, 0.1*float64(i%7))
	}
	b := mat.NewDense(12, 12, nil)
	for i := 0; i < 12; i++ {
		for j := 0; j < 12; j++ {
			if (i < 6) == (j < 6) {
				b.Set(i, j, 1+0.1*float64((i+j)%3))
			}
		}
	}
	return &Problem{Graph: g, K: 2, Features: x, Bipartite: b}, labels, cons
}

// supervised returns a copy of base with the supervision a method using u
// reads: the constraints cons for a method of pairs (those that take pairs
// or labels get the pairs), else the labels, else none.
func supervised(base *Problem, u Uses, labels constraint.Labels, cons *constraint.Set) *Problem {
	p := *base
	if u.Supervision&Pairs != 0 {
		p.Constraints = cons
	}
	if u.Supervision&LabelSet != 0 && u.Supervision&Pairs == 0 {
		p.Labels = labels
	}
	return &p
}

// Every registered method returns a full partition of a graph with isolated
// nodes and a small component, and says what it did with them. The methods
// with Uses.Core go through Run's rule (core.go); the others handle such
// graphs their own way, each listed with its reason and its message: a
// warning, or a note for the regularization (the default's documented
// behaviour, a note since the auto rule's choice is no longer a warning).
func TestRegistryMethodsOnDisconnectedGraph(t *testing.T) {
	own := map[string]struct{ why, warning string }{
		"njw":         {"regularized L_sym (graph.Regularization)", "regularized"},
		"ncut":        {"regularized L_rw", "regularized"},
		"cscap":       {"regularized L_sym", "regularized"},
		"ccsr":        {"regularized L_sym", "regularized"},
		"auto":        {"its candidates go through Run; the returned NJW is regularized", "regularized"},
		"labelprop":   {"label recovery (labelrecover.go)", "isolated nodes have no edge"},
		"mavro":       {"label recovery", "isolated nodes have no edge"},
		"mavro-k":     {"label recovery", "isolated nodes have no edge"},
		"noa-ssc":     {"label recovery", "isolated nodes have no edge"},
		"cosc":        {"a node of degree 0 costs nothing on either side of its cut", "degree 0"},
		"usc":         {"L = D − W is defined everywhere; each component takes an eigenvector, which it says", "connected components"},
		"opplc":       {"estimates k: unlinked nodes start clusters of their own", "found"},
		"bethe":       {"H(r) = (r²−1)I − rA + D is positive on isolated nodes and small trees: they take no negative eigenvalue", ""},
		"hbisect":     {"Cheeger sweeps on the exact Ncut; a component is a cut of Ncut 0", ""},
		"fast-ge2-bh": {"self loops regularize the Bethe Hessians (seed 004 ch. 5)", ""},
		"cpca":        {"clusters feature rows", ""},
		"cvqe":        {"clusters feature rows", ""},
		"clpp":        {"projects feature rows; XᵀL̃X and XᵀD̄X are defined on isolated nodes", ""},
		"cocluster":   {"co-clusters the bipartite matrix, not the graph", ""},
	}
	base, labels, cons := disconnectedProblem(t)
	n := base.Graph.N()
	for _, info := range Methods() {
		t.Run(info.Name, func(t *testing.T) {
			m := info.New()
			u := m.Uses()
			res, err := Run(context.Background(), m, supervised(base, u, labels, cons), &Settings{Seed: 1})
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if len(res.Labels) != n {
				t.Fatalf("%d labels for %d nodes", len(res.Labels), n)
			}
			for i, c := range res.Labels {
				if c < 0 || c >= res.K {
					t.Fatalf("node %d in cluster %d of %d", i, c, res.K)
				}
			}
			all := strings.Join(res.Warnings, "\n")
			if u.Core {
				if _, ok := own[info.Name]; ok {
					t.Fatalf("%s declares Uses.Core and is also listed as handling the graph its own way", info.Name)
				}
				want := "attached the 4 other nodes"
				if !strings.Contains(all, want) || !strings.Contains(all, "2 isolated nodes and 1 component of 2 nodes") {
					t.Errorf("warnings %q, want one saying %q", res.Warnings, want)
				}
				// The must-link 22–4 is kept by the attachment.
				if res.Labels[22] != res.Labels[4] {
					t.Errorf("node 22 in cluster %d, its must-link partner 4 in %d", res.Labels[22], res.Labels[4])
				}
				// 20 and 21 are linked by an edge: they stay together.
				if res.Labels[20] != res.Labels[21] {
					t.Errorf("the 2-node component is split: %d, %d", res.Labels[20], res.Labels[21])
				}
				return
			}
			o, ok := own[info.Name]
			if !ok {
				t.Fatalf("%s neither declares Uses.Core nor is listed with its own handling of disconnected graphs", info.Name)
			}
			if msgs := all + "\n" + strings.Join(res.Notes, "\n"); !strings.Contains(msgs, o.warning) {
				t.Errorf("warnings %q, notes %q, want one containing %q (%s)", res.Warnings, res.Notes, o.warning, o.why)
			}
		})
	}
}

// The knob-dependent declarations: SSC:KA and power-law means with the
// normalized-cut kernel, which divides by degrees, and SSC:KA with the
// commute-time kernel, which is 0 on isolated nodes, go through the core
// rule.
func TestCoreKnobDependentMethods(t *testing.T) {
	base, _, cons := disconnectedProblem(t)
	for _, m := range []Method{SSCKA{Objective: NormalizedCut}, PLMeans{Kernel: PLNormalizedCut}, SSCKA{Objective: CommuteTime}} {
		t.Run(m.Name(), func(t *testing.T) {
			if !m.Uses().Core {
				t.Fatal("Uses().Core not set")
			}
			p := *base
			p.Constraints = cons
			res, err := Run(context.Background(), m, &p, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if all := strings.Join(res.Warnings, "\n"); !strings.Contains(all, "attached the 4 other nodes") {
				t.Errorf("warnings %q", res.Warnings)
			}
		})
	}
	if (SSCKA{Objective: RatioAssociation}).Uses().Core || (PLMeans{Kernel: PLRatioCut}).Uses().Core {
		t.Error("ratio kernels declare Uses.Core")
	}
	if !(SSCKA{}).Uses().Core {
		t.Error("the default commute-time kernel does not declare Uses.Core")
	}
}

// Strict mode passes the whole graph: the methods that refused isolated
// nodes before issue 19 still do, with the same errors.
func TestDisconnectedStrict(t *testing.T) {
	base, _, cons := disconnectedProblem(t)
	for _, tc := range []struct {
		method string
		want   error
	}{
		{"fgpwc", ErrInvalid},
		{"csp", graph.ErrIsolated},
		{"fast-ge", graph.ErrIsolated},
		{"ml-noa-ssc", graph.ErrIsolated},
		{"mcl-noa-ssc", graph.ErrIsolated},
		{"l1csc", ErrInvalid},
		{"plmeans", graph.ErrIsolated},
	} {
		t.Run(tc.method, func(t *testing.T) {
			m, err := New(tc.method)
			if err != nil {
				t.Fatal(err)
			}
			p := *base
			p.Constraints = cons
			p.Disconnected = DisconnectedStrict
			if _, err := Run(context.Background(), m, &p, &Settings{Seed: 1}); !errors.Is(err, tc.want) {
				t.Errorf("strict: error %v, want %v", err, tc.want)
			}
		})
	}
	p := *base
	p.Disconnected = 7
	if _, err := Run(context.Background(), NJW{}, &p, nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "disconnected-graph rule") {
		t.Errorf("Disconnected = 7: error %v", err)
	}
	var d Disconnected
	if err := d.UnmarshalText([]byte("strict")); err != nil || d != DisconnectedStrict || d.String() != "strict" {
		t.Errorf("UnmarshalText(strict) = %v, %v", d, err)
	}
	if err := d.UnmarshalText([]byte("drop")); !errors.Is(err, ErrInvalid) {
		t.Errorf("UnmarshalText(drop): %v", err)
	}
}

// On the core, Run's answer is the method's answer on the induced subgraph
// built independently (graph.FromEdges on the core's edges, constraints
// re-indexed by hand), with the same seed.
func TestCoreEqualsMethodOnSubgraph(t *testing.T) {
	base, _, cons := disconnectedProblem(t)
	var edges []graph.Edge
	for _, e := range base.Graph.Edges() {
		if e.I < 20 && e.J < 20 {
			edges = append(edges, e)
		}
	}
	sg, err := graph.FromEdges(20, edges)
	if err != nil {
		t.Fatal(err)
	}
	subCons := &constraint.Set{N: 20}
	for _, q := range cons.Pairs {
		if q.I < 20 && q.J < 20 {
			subCons.Pairs = append(subCons.Pairs, q)
		}
	}
	for _, name := range []string{"fgpwc", "sl", "csp", "mcl-noa-ssc", "fast-ge"} {
		t.Run(name, func(t *testing.T) {
			m, _ := New(name)
			full, err := Run(context.Background(), m, &Problem{Graph: base.Graph, K: 2, Constraints: cons}, &Settings{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			sub, err := Run(context.Background(), m, &Problem{Graph: sg, K: 2, Constraints: subCons}, &Settings{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(full.Labels[:20], sub.Labels) {
				t.Errorf("core labels %v, method on the subgraph %v", full.Labels[:20], sub.Labels)
			}
			if full.Objective != sub.Objective {
				t.Errorf("objective %v, on the subgraph %v", full.Objective, sub.Objective)
			}
			if full.Embedding != nil {
				r, c := full.Embedding.Dims()
				if r != 24 {
					t.Fatalf("embedding has %d rows, want 24", r)
				}
				// Attached rows: the mean core row of their cluster.
				for _, i := range []int{20, 21, 22, 23} {
					for j := 0; j < c; j++ {
						var s, cnt float64
						for a := 0; a < 20; a++ {
							if full.Labels[a] == full.Labels[i] {
								s += full.Embedding.At(a, j)
								cnt++
							}
						}
						if got, want := full.Embedding.At(i, j), s/cnt; math.Abs(got-want) > 1e-12 {
							t.Errorf("embedding (%d, %d) = %v, want the cluster mean %v", i, j, got, want)
						}
					}
				}
			}
		})
	}
}

// The attachment rule by hand on a small graph (numbers worked out below).
func TestAttachRestHand(t *testing.T) {
	// Core: 0, 1 in cluster 0; 2, 3, 4 in cluster 1 (cluster 1 is the
	// largest). Outside: 5–6–7 a path with 5 linked to 0 (w 1) and 2 (w 2);
	// 8 labelled 0 (the class of core node 1); 9 must-linked to 0 and
	// joined to 3 by an edge of weight 5; 10 isolated with a cannot-link
	// to 3; 11–12 an edge with nothing else.
	edges := []graph.Edge{
		{I: 0, J: 1, W: 1}, {I: 2, J: 3, W: 1}, {I: 3, J: 4, W: 1},
		{I: 5, J: 0, W: 1}, {I: 5, J: 2, W: 2}, {I: 5, J: 6, W: 1}, {I: 6, J: 7, W: 1},
		{I: 9, J: 3, W: 5}, {I: 11, J: 12, W: 1},
	}
	g, err := graph.FromEdges(13, edges)
	if err != nil {
		t.Fatal(err)
	}
	cons := &constraint.Set{N: 13, Pairs: []constraint.Pair{
		{I: 9, J: 0, Kind: constraint.MustLink},
		{I: 10, J: 3, Kind: constraint.CannotLink},
	}}
	labels := constraint.Labels{-1, 0, -1, -1, -1, -1, -1, -1, 0, -1, -1, -1, -1}
	assign := []int{0, 0, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1, -1}
	c := attachRest(g, cons, labels, assign, 2)
	// 5: edges 1 to cluster 0, 2 to cluster 1 → 1; 6, 7 follow (rounds 2,
	// 3); 8: label 0 → cluster 0; 9: must-link to 0 beats the heavier
	// edge → 0; 10: nothing, cannot-link to 3 (cluster 1, the largest)
	// → cluster 0; 11: nothing → cluster 1, the largest; 12 follows 11.
	want := []int{0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1}
	if !slices.Equal(assign, want) {
		t.Errorf("assign %v, want %v", assign, want)
	}
	if c != (attachCounts{label: 1, mustLink: 1, edges: 4, none: 2, largest: 1, largestSize: 3}) {
		t.Errorf("counts %+v", c)
	}
}

// Brute force: on random tiny graphs, attachRest's placement is the one
// and only assignment of the outside nodes that satisfies the rule as
// stated at the top of core.go, checked from distances computed by
// Floyd–Warshall and every one of the k^m assignments enumerated.
func TestAttachRestBruteForce(t *testing.T) {
	const k = 3
	checked := 0
	for seed := uint64(0); seed < 150; seed++ {
		rnd := rand.New(rand.NewPCG(seed, 77))
		nc := 3 + rnd.IntN(3) // core nodes
		m := 2 + rnd.IntN(5)  // outside nodes
		n := nc + m
		assign0 := make([]int, n)
		for i := range assign0 {
			assign0[i] = -1
			if i < nc {
				assign0[i] = rnd.IntN(k)
			}
		}
		var edges []graph.Edge
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if j >= nc && rnd.Float64() < 0.3 {
					edges = append(edges, graph.Edge{I: i, J: j, W: float64(1 + rnd.IntN(3))})
				}
			}
		}
		g, err := graph.FromEdges(n, edges)
		if err != nil {
			t.Fatal(err)
		}
		cons := &constraint.Set{N: n}
		for q := 0; q < 3; q++ {
			i, j := nc+rnd.IntN(m), rnd.IntN(n)
			if i == j {
				continue
			}
			kind := constraint.MustLink
			if rnd.IntN(2) == 0 {
				kind = constraint.CannotLink
			}
			cons.Pairs = append(cons.Pairs, constraint.Pair{I: i, J: j, Kind: kind, Weight: float64(1 + rnd.IntN(2))})
		}
		labels := make(constraint.Labels, n)
		for i := range labels {
			labels[i] = constraint.Unlabeled
			if rnd.IntN(4) == 0 {
				labels[i] = rnd.IntN(2)
			}
		}
		// Anchors: the core, and labelled outside nodes whose class has a
		// core node (majority cluster of the class, ties to the lowest).
		anchor := slices.Clone(assign0)
		for i := nc; i < n; i++ {
			if labels[i] == constraint.Unlabeled {
				continue
			}
			cnt := make([]int, k)
			seen := false
			for a := 0; a < nc; a++ {
				if labels[a] == labels[i] {
					cnt[assign0[a]]++
					seen = true
				}
			}
			if seen {
				anchor[i] = argmaxInt(cnt)
			}
		}
		// Link distances from the anchors (edges and must-links).
		const inf = 1 << 30
		d := make([][]int, n)
		for i := range d {
			d[i] = make([]int, n)
			for j := range d[i] {
				if i != j {
					d[i][j] = inf
				}
			}
		}
		for _, e := range g.Edges() {
			if e.I != e.J {
				d[e.I][e.J], d[e.J][e.I] = 1, 1
			}
		}
		for _, q := range cons.Pairs {
			if q.Kind == constraint.MustLink {
				d[q.I][q.J], d[q.J][q.I] = 1, 1
			}
		}
		for via := 0; via < n; via++ {
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					d[i][j] = min(d[i][j], d[i][via]+d[via][j])
				}
			}
		}
		dist := make([]int, n)
		var free []int
		reachable := true
		for i := 0; i < n; i++ {
			dist[i] = inf
			for a := 0; a < n; a++ {
				if anchor[a] >= 0 {
					dist[i] = min(dist[i], d[a][i])
				}
			}
			if anchor[i] < 0 {
				free = append(free, i)
				reachable = reachable && dist[i] < inf
			}
		}
		if !reachable {
			continue // seeds are covered by TestAttachRestHand
		}
		ok := func(c []int) bool {
			for _, i := range free {
				score := make([]float64, k)
				forbid := make([]bool, k)
				byML := false
				for _, q := range cons.Pairs {
					j := q.J
					if q.J == i {
						j = q.I
					} else if q.I != i {
						continue
					}
					if dist[j] >= dist[i] {
						continue
					}
					if q.Kind == constraint.CannotLink {
						forbid[c[j]] = true
					} else {
						score[c[j]] += q.W()
						byML = true
					}
				}
				if !byML {
					for j := 0; j < n; j++ {
						if w := g.Weight(i, j); w > 0 && j != i && dist[j] < dist[i] {
							score[c[j]] += w
						}
					}
				}
				best, bestAny := -1, -1
				for a := 0; a < k; a++ {
					if score[a] <= 0 {
						continue
					}
					if bestAny < 0 || score[a] > score[bestAny] {
						bestAny = a
					}
					if !forbid[a] && (best < 0 || score[a] > score[best]) {
						best = a
					}
				}
				if best < 0 {
					best = bestAny
				}
				if c[i] != best {
					return false
				}
			}
			return true
		}
		var solutions [][]int
		c := slices.Clone(anchor)
		var enumerate func(f int)
		enumerate = func(f int) {
			if f == len(free) {
				if ok(c) {
					solutions = append(solutions, slices.Clone(c))
				}
				return
			}
			for a := 0; a < k; a++ {
				c[free[f]] = a
				enumerate(f + 1)
			}
		}
		enumerate(0)
		checked++
		got := slices.Clone(assign0)
		attachRest(g, cons, labels, got, k)
		if len(solutions) != 1 || !slices.Equal(solutions[0], got) {
			t.Fatalf("seed %d: %d assignments satisfy the rule (%v), attachRest gave %v", seed, len(solutions), solutions, got)
		}
	}
	if checked < 50 {
		t.Errorf("only %d of 150 random graphs had every outside node linked to an anchor", checked)
	}
	t.Logf("%d graphs checked", checked)
}

func argmaxInt(s []int) int {
	b := 0
	for i, v := range s {
		if v > s[b] {
			b = i
		}
	}
	return b
}
