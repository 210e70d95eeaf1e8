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

func TestRCMOrder(t *testing.T) {
	const side = 12
	grid := func(i int) []int {
		var out []int
		if i%side < side-1 {
			out = append(out, i+1)
		}
		if i+side < side*side {
			out = append(out, i+side)
		}
		return out
	}
	path := func(n int) func(int) []int {
		return func(i int) []int {
			if i < n-1 {
				return []int{i + 1}
			}
			return nil
		}
	}
	// Two paths and isolated nodes: several components.
	forest := func(i int) []int {
		switch {
		case i < 30:
			return path(30)(i)
		case i < 50 && i+1 < 50:
			return []int{i + 1}
		}
		return nil
	}
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
