package graph

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testpanic"
)

func TestMeanVarianceSigmaSizes(t *testing.T) {
	for _, c := range []struct {
		name string
		data []float64
		n, d int
		want float64
	}{
		{"empty", nil, 0, 0, 0},
		{"no rows", nil, 0, 3, 0},
		{"no columns", nil, 5, 0, 0},
		{"one row", []float64{1, 2}, 1, 2, 0},
		// Column variances 0.5 and 2: σ = √1.25.
		{"two rows", []float64{1, 0, 2, 2}, 2, 2, math.Sqrt(1.25)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := MeanVarianceSigma(c.data, c.n, c.d); math.Abs(got-c.want) > 1e-15 {
				t.Errorf("MeanVarianceSigma = %v, want %v", got, c.want)
			}
		})
	}
}

func TestMeanVarianceSigmaPanics(t *testing.T) {
	for _, c := range []struct {
		name string
		data []float64
		n, d int
		want string
	}{
		{"short", []float64{1, 2}, 3, 2, "graph: MeanVarianceSigma: len(data) = 2, want n·d with n = 3, d = 2"},
		{"long", []float64{1, 2, 3}, 1, 2, "graph: MeanVarianceSigma: len(data) = 3, want n·d with n = 1, d = 2"},
		{"data without columns", []float64{1}, 1, 0, "len(data) = 1, want n·d with n = 1, d = 0"},
		{"negative n", nil, -1, 2, "graph: MeanVarianceSigma: negative dimension n = -1, d = 2"},
		{"negative d", nil, 2, -1, "graph: MeanVarianceSigma: negative dimension n = 2, d = -1"},
		{"overflow", nil, math.MaxInt/2 + 1, 2, fmt.Sprintf("len(data) = 0, want n·d with n = %d, d = 2", math.MaxInt/2+1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := testpanic.Message(func() { MeanVarianceSigma(c.data, c.n, c.d) })
			if !strings.Contains(msg, c.want) {
				t.Errorf("panic %q, want one containing %q", msg, c.want)
			}
		})
	}
}

func TestRecallPanics(t *testing.T) {
	// Three points with K = 2, and the same lists with K = 1 and K = 3.
	nb2 := &Neighbors{K: 2, Index: []int32{1, 2, 0, 2, 0, 1}, Dist2: []float64{1, 4, 1, 2, 2, 4}}
	nb1 := &Neighbors{K: 1, Index: []int32{1, 0, 0}, Dist2: []float64{1, 1, 2}}
	nb3 := &Neighbors{K: 3, Index: []int32{1, 2, 3, 0, 2, 3}, Dist2: []float64{1, 4, 5, 1, 2, 3}}
	one2 := &Neighbors{K: 2, Index: []int32{1, 2}, Dist2: []float64{1, 4}}
	for _, c := range []struct {
		name          string
		approx, exact *Neighbors
		rows          []int
		want          string
	}{
		{"K 2 against 3", nb2, nb3, nil, "graph: Recall: approx has K = 2, exact has K = 3; both must have the same K"},
		{"K 2 against 1", nb2, nb1, nil, "graph: Recall: approx has K = 2, exact has K = 1"},
		{"nil approx", nil, nb2, nil, "graph: Recall: approx is nil"},
		{"nil exact", nb2, nil, nil, "graph: Recall: exact is nil"},
		{"negative K", &Neighbors{K: -1}, nb2, nil, "graph: Recall: approx has K = -1"},
		{"short Dist2", nb2, &Neighbors{K: 2, Index: []int32{1, 2}, Dist2: []float64{1}}, nil,
			"graph: Recall: exact has 2 indices and 1 distances"},
		{"partial row", &Neighbors{K: 2, Index: []int32{1, 2, 0}, Dist2: []float64{1, 2, 3}}, nb2, nil,
			"graph: Recall: approx has 3 entries, not a multiple of K = 2"},
		{"entries with K 0", &Neighbors{Index: []int32{1}, Dist2: []float64{1}}, &Neighbors{}, nil,
			"graph: Recall: approx has 1 entries, not a multiple of K = 0"},
		{"row counts differ", nb2, one2, nil, "graph: Recall: approx has 3 rows, exact has 1 and rows is nil"},
		{"rows too short", nb2, nb2, []int{0}, "graph: Recall: rows has 1 entries, exact has 3 rows"},
		{"rows too long", nb2, one2, []int{0, 1}, "graph: Recall: rows has 2 entries, exact has 1 rows"},
		{"row past approx", nb2, one2, []int{3}, "graph: Recall: rows[0] = 3 outside [0,3)"},
		{"negative row", nb2, one2, []int{-1}, "graph: Recall: rows[0] = -1 outside [0,3)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := testpanic.Message(func() { Recall(c.approx, c.exact, c.rows) })
			if !strings.Contains(msg, c.want) {
				t.Errorf("panic %q, want one containing %q", msg, c.want)
			}
		})
	}
	// The boundaries of the contract do not panic: no rows gives NaN,
	// identical lists recall 1, and a sample of the last row is valid.
	if got := Recall(&Neighbors{K: 2}, &Neighbors{K: 2}, nil); !math.IsNaN(got) {
		t.Errorf("empty Recall = %v, want NaN", got)
	}
	if got := Recall(&Neighbors{}, &Neighbors{}, nil); !math.IsNaN(got) {
		t.Errorf("K = 0 Recall = %v, want NaN", got)
	}
	if got := Recall(nb2, nb2, nil); got != 1 {
		t.Errorf("Recall of identical lists = %v, want 1", got)
	}
	if got := Recall(nb2, &Neighbors{K: 2, Index: []int32{0, 1}, Dist2: []float64{2, 4}}, []int{2}); got != 1 {
		t.Errorf("sampled Recall of the last row = %v, want 1", got)
	}
}

// TestNodeOutsidePanics: the accessors of one node panic for a node outside
// [0, n) with a message naming the method, the node and the range, not
// Go's bare "index out of range" (Degree, Row, and Weight for i did, and
// Neighbors.Row).
func TestNodeOutsidePanics(t *testing.T) {
	// A path 0 – 1 – 2 – 3 – 4 of unit weights.
	g, err := FromEdges(5, []Edge{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 4, 1}})
	if err != nil {
		t.Fatal(err)
	}
	var zero Graph
	// The 2 nearest neighbours of 3 points.
	nb := &Neighbors{K: 2, Index: []int32{1, 2, 0, 2, 0, 1}, Dist2: []float64{1, 4, 1, 2, 2, 4}}
	var noLists Neighbors
	for _, c := range []struct {
		name string
		f    func()
		want string // "" for no panic
	}{
		{"Degree in range", func() { g.Degree(4) }, ""},
		{"Degree above", func() { g.Degree(7) }, "graph: Degree(7) of a graph with 5 nodes, want 0 ≤ i < 5"},
		{"Degree at n", func() { g.Degree(5) }, "graph: Degree(5) of a graph with 5 nodes, want 0 ≤ i < 5"},
		{"Degree negative", func() { g.Degree(-1) }, "graph: Degree(-1) of a graph with 5 nodes, want 0 ≤ i < 5"},
		{"Degree of the zero graph", func() { zero.Degree(0) }, "graph: Degree(0) of a graph with 0 nodes, want 0 ≤ i < 0"},
		{"Row in range", func() { g.Row(0) }, ""},
		{"Row at n", func() { g.Row(5) }, "graph: Row(5) of a graph with 5 nodes, want 0 ≤ i < 5"},
		{"Row negative", func() { g.Row(-3) }, "graph: Row(-3) of a graph with 5 nodes, want 0 ≤ i < 5"},
		{"Row of the zero graph", func() { zero.Row(0) }, "graph: Row(0) of a graph with 0 nodes, want 0 ≤ i < 0"},
		{"Weight in range", func() { g.Weight(4, 0) }, ""},
		{"Weight, i at n", func() { g.Weight(5, 0) }, "graph: Weight(5, 0) of a graph with 5 nodes, want 0 ≤ i, j < 5"},
		{"Weight, i negative", func() { g.Weight(-1, 2) }, "graph: Weight(-1, 2) of a graph with 5 nodes, want 0 ≤ i, j < 5"},
		{"Weight, j above", func() { g.Weight(0, 7) }, "graph: Weight(0, 7) of a graph with 5 nodes, want 0 ≤ i, j < 5"},
		{"Neighbors.Row in range", func() { nb.Row(2) }, ""},
		{"Neighbors.Row at n", func() { nb.Row(3) }, "graph: Neighbors.Row(3) of the neighbour lists of 3 points, want 0 ≤ i < 3"},
		{"Neighbors.Row above", func() { nb.Row(9) }, "graph: Neighbors.Row(9) of the neighbour lists of 3 points, want 0 ≤ i < 3"},
		{"Neighbors.Row negative", func() { nb.Row(-1) }, "graph: Neighbors.Row(-1) of the neighbour lists of 3 points, want 0 ≤ i < 3"},
		{"Neighbors.Row of no lists", func() { noLists.Row(0) }, "graph: Neighbors.Row(0) of the neighbour lists of 0 points, want 0 ≤ i < 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := testpanic.Message(c.f); got != c.want {
				t.Errorf("panic %q, want %q", got, c.want)
			}
		})
	}
}
