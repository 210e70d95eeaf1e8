package graph_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/tether-sc/tether/graph"
)

// orderHash returns the first 16 hex digits of the SHA-256 of order, each
// node as 4 bytes little-endian.
func orderHash(order []int) string {
	h := sha256.New()
	var buf [4]byte
	for _, v := range order {
		binary.LittleEndian.PutUint32(buf[:], uint32(v))
		h.Write(buf[:])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// goldenOrderGraphs returns the graphs of TestMinDegreeOrderGolden, by
// name: random graphs from a path to nearly complete (wideGraph), the
// k-NN graphs of blobs of BenchmarkCholeskyInverse (5000 points in 2-D,
// 4601 in 20-D) and smaller ones, a grid, a star, a complete graph and a
// graph with isolated nodes.
func goldenOrderGraphs(t *testing.T) map[string]*graph.Graph {
	t.Helper()
	build := func(n int, edges []graph.Edge) *graph.Graph {
		g, err := graph.FromEdges(n, edges)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	gs := map[string]*graph.Graph{
		"wide-60-90":      wideGraph(t, 60, 90, 0, 1, 3),
		"wide-80-160":     wideGraph(t, 80, 160, 6, 1e-9, 3),
		"wide-40-600":     wideGraph(t, 40, 600, 2, 1e-3, 3),
		"wide-300-40000":  wideGraph(t, 300, 40000, 1, 1e-2, 3),
		"wide-2000-3000":  wideGraph(t, 2000, 3000, 1, 1e-2, 5),
		"wide-1000-20000": wideGraph(t, 1000, 20000, 1, 1e-2, 6),
		"knn-2d-5000":     knnGraph(t, 5000, 2, 1),
		"knn-20d-4601":    knnGraph(t, 4601, 20, 1),
		"knn-5d-500":      knnGraph(t, 500, 5, 2),
		"knn-10d-400":     knnGraph(t, 400, 10, 7),
	}
	const side = 40
	var star, complete []graph.Edge
	for i := 0; i < 60; i++ {
		if i != 7 {
			star = append(star, graph.Edge{I: 7, J: i, W: 1})
		}
		for j := i + 1; j < 60; j++ {
			complete = append(complete, graph.Edge{I: i, J: j, W: 1})
		}
	}
	gs["grid-40"] = gridGraph(side, side)
	gs["star-60"] = build(60, star)
	gs["complete-60"] = build(60, complete)
	gs["isolated-5"] = build(5, []graph.Edge{{I: 1, J: 3, W: 1}})
	return gs
}

// goldenOrders holds orderHash of MinDegreeOrder on each graph of
// goldenOrderGraphs, as main's code (a083484) returned them before its
// workspaces were preallocated: the order must not change.
var goldenOrders = map[string]string{
	"complete-60":     "652600982b73223d",
	"grid-40":         "fcc5bbe910b1a545",
	"isolated-5":      "d34a934bd6fb920d",
	"knn-10d-400":     "5f89c57bdb01f0e9",
	"knn-20d-4601":    "8ea6fcaec95e7648",
	"knn-2d-5000":     "34af5ba4dcddb6c0",
	"knn-5d-500":      "201b048a97e220fe",
	"star-60":         "2387aed6ca0c064d",
	"wide-1000-20000": "c12c58001d0141d2",
	"wide-2000-3000":  "2978f02134d26658",
	"wide-300-40000":  "bf825f2e08060afb",
	"wide-40-600":     "97071e5490d51016",
	"wide-60-90":      "3bae90e157c90428",
	"wide-80-160":     "176b2cac42a580de",
}

// TestMinDegreeOrderGolden checks that MinDegreeOrder returns, bit for
// bit, the orders recorded in goldenOrders.
func TestMinDegreeOrderGolden(t *testing.T) {
	ctx := context.Background()
	gs := goldenOrderGraphs(t)
	if len(gs) != len(goldenOrders) {
		t.Errorf("%d graphs, %d golden orders", len(gs), len(goldenOrders))
	}
	for name, g := range gs {
		order, err := g.MinDegreeOrder(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := orderHash(order)
		want, ok := goldenOrders[name]
		switch {
		case !ok:
			t.Errorf("%s: no golden order; got %q", name, got)
		case got != want:
			t.Errorf("%s: order hash %s, want %s", name, got, want)
		}
	}
}

// TestMinDegreeOrderAllocs checks that MinDegreeOrder makes a fixed
// number of allocations, whatever the graph's size (18 with Go 1.26;
// 35 054 on the 2-D graph before its lists were preallocated).
func TestMinDegreeOrderAllocs(t *testing.T) {
	ctx := context.Background()
	for name, g := range goldenOrderGraphs(t) {
		if a := testing.AllocsPerRun(2, func() {
			if _, err := g.MinDegreeOrder(ctx); err != nil {
				t.Fatal(err)
			}
		}); a > 32 {
			t.Errorf("%s (%d nodes): %.0f allocations, want at most 32", name, g.N(), a)
		}
	}
}
