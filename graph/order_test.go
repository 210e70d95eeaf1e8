package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bandwidth returns max |i − j| over the stored entries of g.
func bandwidth(g *Graph) int {
	b := 0
	for i := 0; i < g.N(); i++ {
		idx, _ := g.Row(i)
		for _, j := range idx {
			b = max(b, int(math.Abs(float64(i-int(j)))))
		}
	}
	return b
}

func TestPermute(t *testing.T) {
	for _, tc := range []struct {
		n     int
		p     float64
		loops bool
	}{{1, 0, false}, {7, 0.5, true}, {40, 0.1, false}, {90, 0.3, true}} {
		t.Run(fmt.Sprintf("n=%d", tc.n), func(t *testing.T) {
			g, a := randGraph(t, tc.n, tc.p, tc.loops, uint64(tc.n))
			rng := rand.New(rand.NewPCG(uint64(tc.n), 3))
			perm := rng.Perm(tc.n)
			gp, err := g.Permute(context.Background(), perm)
			if err != nil {
				t.Fatal(err)
			}
			if gp.NNZ() != g.NNZ() {
				t.Fatalf("NNZ %d, want %d", gp.NNZ(), g.NNZ())
			}
			for k := 0; k < tc.n; k++ {
				if d, want := gp.Degree(k), g.Degree(perm[k]); math.Abs(d-want) > 1e-12*math.Max(1, want) {
					t.Fatalf("degree of node %d = %v, want %v", k, d, want)
				}
				for l := 0; l < tc.n; l++ {
					if w, want := gp.Weight(k, l), a.At(perm[k], perm[l]); w != want {
						t.Fatalf("W'[%d,%d] = %v, want W[%d,%d] = %v", k, l, w, perm[k], perm[l], want)
					}
				}
			}
			// Sparse products commute with the relabelling: (W'x')_k = (Wx)_{perm[k]}.
			x := mat.NewDense(tc.n, 2, nil)
			xp := mat.NewDense(tc.n, 2, nil)
			for i := 0; i < tc.n; i++ {
				for c := 0; c < 2; c++ {
					x.Set(i, c, rng.NormFloat64())
				}
			}
			for k, v := range perm {
				xp.SetRow(k, x.RawRowView(v))
			}
			y, yp := mat.NewDense(tc.n, 2, nil), mat.NewDense(tc.n, 2, nil)
			g.MulTo(y, x)
			gp.MulTo(yp, xp)
			for k, v := range perm {
				for c := 0; c < 2; c++ {
					if d := math.Abs(yp.At(k, c) - y.At(v, c)); d > 1e-12 {
						t.Fatalf("(W'x')[%d,%d] differs from (Wx)[%d,%d] by %g", k, c, v, c, d)
					}
				}
			}
		})
	}
}

func TestPermuteBadInput(t *testing.T) {
	g, _ := randGraph(t, 5, 0.5, false, 1)
	for _, tc := range []struct {
		name string
		perm []int
	}{
		{"short", []int{0, 1, 2, 3}},
		{"out of range", []int{0, 1, 2, 3, 5}},
		{"negative", []int{0, 1, 2, -1, 4}},
		{"repeat", []int{0, 1, 2, 2, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := g.Permute(context.Background(), tc.perm); !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v, want ErrInvalid", err)
			}
		})
	}
}

// shuffled returns the graph with edges built by link on n nodes, labelled
// by a random permutation.
func shuffled(t *testing.T, n int, link func(i int) []int, seed uint64) *Graph {
	t.Helper()
	label := rand.New(rand.NewPCG(seed, 5)).Perm(n)
	var edges []Edge
	for i := 0; i < n; i++ {
		for _, j := range link(i) {
			edges = append(edges, Edge{I: label[i], J: label[j], W: 1})
		}
	}
	g, err := FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// pathLinks returns the links of a path of n nodes for shuffled: node i
// to i + 1.
func pathLinks(n int) func(int) []int {
	return func(i int) []int {
		if i < n-1 {
			return []int{i + 1}
		}
		return nil
	}
}

// gridLinks returns the links of a side×side grid for shuffled: node i to
// its right and lower neighbours.
func gridLinks(side int) func(int) []int {
	return func(i int) []int {
		var out []int
		if i%side < side-1 {
			out = append(out, i+1)
		}
		if i+side < side*side {
			out = append(out, i+side)
		}
		return out
	}
}

// forestLinks is the links of a path of nodes 0–29 beside a path of
// nodes 30–49, for shuffled; nodes from 50 are isolated.
func forestLinks(i int) []int {
	switch {
	case i < 30:
		return pathLinks(30)(i)
	case i < 49:
		return []int{i + 1}
	}
	return nil
}

func TestRCMOrder(t *testing.T) {
	const side = 12
	grid, path := gridLinks(side), pathLinks
	// Two paths and isolated nodes: several components.
	forest := forestLinks
	for _, tc := range []struct {
		name    string
		n       int
		link    func(int) []int
		maxBand int // the bandwidth of the natural labelling
	}{
		{"path", 100, path(100), 1},
		{"grid", side * side, grid, side},
		{"forest", 55, forest, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := shuffled(t, tc.n, tc.link, 7)
			order, err := g.RCMOrder(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			sorted := slices.Clone(order)
			slices.Sort(sorted)
			for i, v := range sorted {
				if v != i {
					t.Fatalf("order is not a permutation of 0…%d: sorted[%d] = %d", tc.n-1, i, v)
				}
			}
			if again, _ := g.RCMOrder(context.Background()); !slices.Equal(again, order) {
				t.Fatal("RCMOrder is not deterministic")
			}
			gp, err := g.Permute(context.Background(), order)
			if err != nil {
				t.Fatal(err)
			}
			before, after := bandwidth(g), bandwidth(gp)
			if after > tc.maxBand {
				t.Fatalf("bandwidth %d after RCM (%d before), want ≤ %d", after, before, tc.maxBand)
			}
		})
	}
}

// TestPseudoDiameter checks PseudoDiameter against diameters known in
// closed form, on shuffled labels: a path of n nodes n − 1, a side×side
// grid 2(side − 1), an even cycle of n nodes n/2, a star 2, a forest the
// largest of its components' (29 for a path of 30 beside a path of 20 and
// isolated nodes), a single node 0; and a cancelled context gives its
// error.
func TestPseudoDiameter(t *testing.T) {
	const side = 15
	grid, path := gridLinks(side), pathLinks
	cycle := func(i int) []int { return []int{(i + 1) % 40} }
	star := func(i int) []int {
		if i > 0 {
			return []int{0}
		}
		return nil
	}
	forest := forestLinks
	for _, tc := range []struct {
		name string
		n    int
		link func(int) []int
		want int
	}{
		{"path", 100, path(100), 99},
		{"grid", side * side, grid, 2 * (side - 1)},
		{"cycle", 40, cycle, 20},
		{"star", 30, star, 2},
		{"forest", 60, forest, 29},
		{"single", 1, path(1), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := shuffled(t, tc.n, tc.link, 3)
			got, err := g.PseudoDiameter(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("PseudoDiameter = %d, want %d", got, tc.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := shuffled(t, 20000, path(20000), 1)
	if _, err := g.PseudoDiameter(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}

// BenchmarkMulToOrder: one product with L_sym of a symmetric 10-NN graph of
// 10⁵ random points in 3-D, as built (random labels) and relabelled by
// RCMOrder.
func BenchmarkMulToOrder(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(100000, 3, nil)
	for i := 0; i < 100000; i++ {
		for c := 0; c < 3; c++ {
			x.Set(i, c, rng.Float64())
		}
	}
	g, err := Build(context.Background(), x, DefaultSpec())
	if err != nil {
		b.Fatal(err)
	}
	order, err := g.RCMOrder(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	gp, err := g.Permute(context.Background(), order)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		g    *Graph
	}{{"built", g}, {"rcm", gp}} {
		b.Run(tc.name, func(b *testing.B) {
			l, err := NewLaplacian(tc.g, Symmetric)
			if err != nil {
				b.Fatal(err)
			}
			v, w := mat.NewDense(tc.g.N(), 1, nil), mat.NewDense(tc.g.N(), 1, nil)
			v.Set(0, 0, 1)
			for b.Loop() {
				l.MulTo(w, v)
			}
		})
	}
}

// TestPermuteMatchesEdges checks Permute on graphs large enough for its
// parallel row blocks against the graph built from the relabelled edge
// list (FromEdges sorts and sums each row itself): the same columns,
// weights and degrees, bit for bit.
func TestPermuteMatchesEdges(t *testing.T) {
	for _, n := range []int{5000, 20000} {
		rng := rand.New(rand.NewPCG(uint64(n), 9))
		var edges []Edge
		for i := 0; i < n; i++ {
			for c := 0; c < 4; c++ {
				edges = append(edges, Edge{I: i, J: rng.IntN(n), W: rng.Float64() + 0.1})
			}
		}
		g, err := FromEdges(n, edges)
		if err != nil {
			t.Fatal(err)
		}
		perm := rng.Perm(n)
		inv := make([]int, n)
		for k, v := range perm {
			inv[v] = k
		}
		relabelled := make([]Edge, 0, g.NNZ())
		for i := 0; i < n; i++ {
			idx, w := g.Row(i)
			for t, j := range idx {
				if int(j) >= i { // each edge once; FromEdges symmetrizes
					relabelled = append(relabelled, Edge{I: inv[i], J: inv[j], W: w[t]})
				}
			}
		}
		want, err := FromEdges(n, relabelled)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.Permute(context.Background(), perm)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.ptr, want.ptr) || !slices.Equal(got.idx, want.idx) || !slices.Equal(got.w, want.w) || !slices.Equal(got.deg, want.deg) {
			t.Fatalf("n=%d: Permute differs from the graph of the relabelled edges", n)
		}
	}
}

// rcmReference is RCMOrder written plainly (George & Liu §4.3, as
// documented there): breadth-first sweeps for a pseudo-peripheral node,
// neighbours sorted by a comparison of (number of neighbours, label).
func rcmReference(g *Graph) []int {
	n := g.N()
	var order []int
	seen := make([]bool, n)
	bfs := func(root int) (levels [][]int) {
		lv := map[int]bool{root: true}
		cur := []int{root}
		for len(cur) > 0 {
			levels = append(levels, cur)
			var next []int
			for _, v := range cur {
				idx, _ := g.Row(v)
				for _, j := range idx {
					if !lv[int(j)] {
						lv[int(j)] = true
						next = append(next, int(j))
					}
				}
			}
			cur = next
		}
		return levels
	}
	// far is the node of fewest neighbours in the deepest level: the last
	// one of the level if it has that number, else the first that has.
	far := func(levels [][]int) (int, int) {
		deep := levels[len(levels)-1]
		best := deep[len(deep)-1]
		for _, v := range deep {
			if g.neighbours(v) < g.neighbours(best) {
				best = v
			}
		}
		return best, len(levels) - 1
	}
	for s := 0; s < n; s++ {
		if seen[s] {
			continue
		}
		root := s
		f, depth := far(bfs(root))
		for it := 0; it < 8; it++ {
			f2, d2 := far(bfs(f))
			if d2 <= depth {
				break
			}
			root, f, depth = f, f2, d2
		}
		head := len(order)
		order = append(order, root)
		seen[root] = true
		for h := head; h < len(order); h++ {
			idx, _ := g.Row(order[h])
			var nb []int
			for _, j := range idx {
				if !seen[j] {
					seen[j] = true
					nb = append(nb, int(j))
				}
			}
			slices.SortFunc(nb, func(a, b int) int {
				if da, db := g.neighbours(a), g.neighbours(b); da != db {
					return da - db
				}
				return a - b
			})
			order = append(order, nb...)
		}
	}
	slices.Reverse(order)
	return order
}

// TestRCMOrderMatchesReference compares RCMOrder with rcmReference on
// random graphs with many ties in the number of neighbours, several
// components and isolated nodes.
func TestRCMOrderMatchesReference(t *testing.T) {
	for _, tc := range []struct {
		n, deg int
	}{{1, 0}, {30, 1}, {200, 2}, {1000, 3}, {3000, 5}} {
		rng := rand.New(rand.NewPCG(uint64(tc.n), 11))
		var edges []Edge
		for i := 0; i < tc.n; i++ {
			for c := 0; c < tc.deg; c++ {
				// Local links (long paths, deep levels) and a few long ones.
				j := min(tc.n-1, i+1+rng.IntN(3))
				if rng.IntN(20) == 0 {
					j = rng.IntN(tc.n)
				}
				if j != i && rng.IntN(10) > 0 {
					edges = append(edges, Edge{I: i, J: j, W: 1})
				}
			}
		}
		g, err := FromEdges(tc.n, edges)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.RCMOrder(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if want := rcmReference(g); !slices.Equal(got, want) {
			t.Fatalf("n=%d: RCMOrder differs from the reference", tc.n)
		}
	}
	// Grids with shuffled labels: deepest levels of many nodes with the
	// same number of neighbours.
	for _, side := range [][2]int{{3, 3}, {5, 4}, {12, 12}, {7, 30}} {
		for seed := uint64(0); seed < 5; seed++ {
			r, c := side[0], side[1]
			g := shuffled(t, r*c, func(i int) []int {
				var out []int
				if i%c < c-1 {
					out = append(out, i+1)
				}
				if i+c < r*c {
					out = append(out, i+c)
				}
				return out
			}, seed)
			got, err := g.RCMOrder(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if want := rcmReference(g); !slices.Equal(got, want) {
				t.Fatalf("%d×%d grid, seed %d: RCMOrder differs from the reference", r, c, seed)
			}
		}
	}
}
