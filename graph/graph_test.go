package graph

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"
)

// randGraph returns a random weighted graph on n nodes: each pair is an edge
// with probability p, weights uniform in (0,1]; with loops, some nodes get
// a self loop. The dense matrix is returned too.
func randGraph(t testing.TB, n int, p float64, loops bool, seed uint64) (*Graph, *mat.SymDense) {
	rng := rand.New(rand.NewPCG(seed, 99))
	a := mat.NewSymDense(n, nil)
	var edges []Edge
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if j == i && !(loops && rng.Float64() < 0.3) {
				continue
			}
			if j > i && rng.Float64() >= p {
				continue
			}
			w := 1 - rng.Float64()
			a.SetSym(i, j, w)
			edges = append(edges, Edge{I: i, J: j, W: w})
		}
	}
	g, err := FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g, a
}

func TestFromEdgesRoundTrip(t *testing.T) {
	empty, err := FromEdges(0, nil)
	if err != nil || empty.N() != 0 || empty.NNZ() != 0 || empty.Volume() != 0 {
		t.Fatalf("empty graph: %v, %v", empty, err)
	}
	if _, c := empty.Components(); c != 0 {
		t.Fatalf("empty graph has %d components", c)
	}
	for _, n := range []int{1, 2, 3, 5, 10, 70} {
		g, a := randGraph(t, n, 0.3, true, uint64(n))
		if !mat.Equal(g.Dense(), a) {
			t.Fatalf("n=%d: Dense() differs from the edges", n)
		}
		// Edges → FromEdges is the identity.
		h, err := FromEdges(n, g.Edges())
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(h.Dense(), a) {
			t.Fatalf("n=%d: Edges/FromEdges round trip differs", n)
		}
		// FromDense(Dense()) is the identity.
		h, err = FromDense(a)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(h.Dense(), a) || h.NNZ() != g.NNZ() {
			t.Fatalf("n=%d: FromDense round trip differs", n)
		}
		// Degrees are row sums of the dense matrix; a loop counts once.
		for i := 0; i < n; i++ {
			var s float64
			for j := 0; j < n; j++ {
				s += a.At(i, j)
			}
			if math.Abs(g.Degree(i)-s) > 1e-14*math.Max(1, s) {
				t.Fatalf("n=%d: degree %d = %v, row sum %v", n, i, g.Degree(i), s)
			}
		}
	}
}

func TestFromEdgesSumsAndDrops(t *testing.T) {
	g, err := FromEdges(3, []Edge{{0, 1, 1}, {1, 0, 2}, {2, 2, 0.5}, {1, 2, 0}})
	if err != nil {
		t.Fatal(err)
	}
	// (0,1) entered twice: 1 + 2; the zero-weight edge is dropped; the loop
	// is stored once.
	if g.Weight(0, 1) != 3 || g.Weight(1, 0) != 3 || g.Weight(1, 2) != 0 || g.Weight(2, 2) != 0.5 {
		t.Errorf("weights %v", g.Dense())
	}
	if g.NNZ() != 3 || g.Degree(2) != 0.5 || g.Volume() != 6.5 || g.MaxDegree() != 3 {
		t.Errorf("nnz %d degree(2) %v volume %v max %v", g.NNZ(), g.Degree(2), g.Volume(), g.MaxDegree())
	}
	// A node outside the graph is a programming error for j as for i
	// (Weight(0, 3) returned 0).
	for _, ij := range [][2]int{{0, 3}, {0, -1}, {3, 0}} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("Weight(%d, %d) on 3 nodes did not panic", ij[0], ij[1])
				}
			}()
			g.Weight(ij[0], ij[1])
		}()
	}
}

func TestFromEdgesErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		edges []Edge
		want  string
	}{
		{"negative n", -1, nil, "negative node count"},
		{"n beyond int32", min(1<<62, math.MaxInt), nil, "exceeds the 2147483647 a Graph can index"}, // no int exceeds it where int has 32 bits
		{"range", 3, []Edge{{0, 3, 1}}, "edge 0 (0,3)"},
		{"negative", 3, []Edge{{0, 1, 1}, {1, 2, -1}}, "edge 1 (1,2)"},
		{"nan", 3, []Edge{{0, 1, math.NaN()}}, "NaN"},
		{"inf", 3, []Edge{{0, 1, math.Inf(1)}}, "+Inf"},
		// Finite weights whose sum over repeated edges overflows: the
		// graph stored W[0,1] = +Inf.
		{"repeated edge overflows", 3, []Edge{{2, 2, 1}, {0, 1, 1.5e308}, {1, 0, 1.5e308}}, "entry (0,1): the summed weight of its repeated entries overflows to +Inf"},
	} {
		if c.n == math.MaxInt && math.MaxInt == math.MaxInt32 {
			continue // "n beyond int32" where int has 32 bits
		}
		_, err := FromEdges(c.n, c.edges)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want ErrInvalid containing %q", c.name, err, c.want)
		}
	}
}

func TestFromCSR(t *testing.T) {
	// Rows unsorted and with a duplicate entry (0,1) split as 0.25 + 0.75.
	ptr := []int{0, 3, 5, 6}
	idx := []int32{2, 1, 1, 0, 2, 1}
	g, err := FromCSR(3, ptr, idx, []float64{0.5, 0.25, 0.75, 1, 2, 2}, 0)
	if err == nil {
		// Row 2 has only (2,1); (2,0) is missing while (0,2) = 0.5.
		t.Fatalf("asymmetric CSR accepted: %v", g.Dense())
	}
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "not symmetric") {
		t.Fatalf("err = %v", err)
	}
	ptr = []int{0, 3, 5, 7}
	idx = []int32{2, 1, 1, 0, 2, 1, 0}
	w := []float64{0.5, 0.25, 0.75, 1, 2, 2, 0.5}
	g, err = FromCSR(3, ptr, idx, w, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := mat.NewSymDense(3, []float64{0, 1, 0.5, 1, 0, 2, 0.5, 2, 0})
	if !mat.Equal(g.Dense(), want) {
		t.Errorf("got %v, want %v", mat.Formatted(g.Dense()), mat.Formatted(want))
	}
	// The inputs are copied: changing them does not change the graph.
	w[0] = 100
	if g.Weight(0, 2) != 0.5 {
		t.Error("FromCSR aliases its input")
	}
	// Tolerance: relative mismatch 1e-10 passes with tol 1e-9, fails with 0.
	ptr2, idx2 := []int{0, 1, 2}, []int32{1, 0}
	if _, err := FromCSR(2, ptr2, idx2, []float64{1, 1 + 1e-10}, 1e-9); err != nil {
		t.Errorf("tolerance 1e-9 rejected a 1e-10 mismatch: %v", err)
	}
	if _, err := FromCSR(2, ptr2, idx2, []float64{1, 1 + 1e-10}, 0); err == nil {
		t.Error("tolerance 0 accepted a mismatch")
	}
	for _, c := range []struct {
		name string
		ptr  []int
		idx  []int32
		w    []float64
		want string
	}{
		{"malformed", []int{0, 1}, []int32{0}, []float64{1}, "malformed"},
		{"decreasing", []int{0, 2, 1, 2}, []int32{0, 1}, []float64{1, 1}, "decreases at row 1"},
		{"range", []int{0, 1, 1, 1}, []int32{5}, []float64{1}, "entry (0,5)"},
		{"negative", []int{0, 1, 2, 2}, []int32{1, 0}, []float64{-1, -1}, "negative"},
	} {
		if _, err := FromCSR(3, c.ptr, c.idx, c.w, 0); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want ErrInvalid containing %q", c.name, err, c.want)
		}
	}
}

// FromCSR names the bad argument, without a panic, for a negative n, a
// row pointer past the end of idx, a tolerance that is not a finite value
// ≥ 0 and duplicate entries whose sum overflows. Before, n = −1 and the
// row pointer panicked (index out of range), tol = NaN or +Inf accepted
// any asymmetric matrix (and stored it), tol < 0 refused symmetric ones
// as "not symmetric", and the overflow stored W[0,1] = +Inf.
func TestFromCSRBadArguments(t *testing.T) {
	sym := func(w float64) ([]int, []int32, []float64) { return []int{0, 1, 2}, []int32{1, 0}, []float64{1, w} }
	for _, c := range []struct {
		name string
		n    int
		ptr  []int
		idx  []int32
		w    []float64
		tol  float64
		want string
	}{
		{"negative n", -1, []int{}, nil, nil, 0, "negative node count -1"},
		{"row pointer past idx", 2, []int{0, 3, 2}, []int32{1, 0}, []float64{1, 1}, 0, "row pointer 3 of row 0 exceeds len(idx) = 2"},
		{"NaN tolerance", 2, nil, nil, nil, math.NaN(), "symmetry tolerance NaN, want a finite value ≥ 0"},
		{"infinite tolerance", 2, nil, nil, nil, math.Inf(1), "symmetry tolerance +Inf"},
		{"negative tolerance", 2, nil, nil, nil, -1, "symmetry tolerance -1"},
		{"duplicates overflow", 2, []int{0, 2, 4}, []int32{1, 1, 0, 0}, []float64{1.5e308, 1.5e308, 1.5e308, 1.5e308}, 0, "entry (0,1): the summed weight of its repeated entries overflows to +Inf"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ptr, idx, w := c.ptr, c.idx, c.w
			if ptr == nil {
				ptr, idx, w = sym(5) // asymmetric: any valid tolerance below 0.8 refuses it
			}
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("panic: %v", r)
					}
				}()
				_, err = FromCSR(c.n, ptr, idx, w, c.tol)
			}()
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %v, want ErrInvalid containing %q", err, c.want)
			}
		})
	}
	// The valid tolerances still decide: 0.5 refuses 1 against 5, 0.9
	// accepts it.
	ptr, idx, w := sym(5)
	if _, err := FromCSR(2, ptr, idx, w, 0.5); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "not symmetric") {
		t.Errorf("tol 0.5: err = %v", err)
	}
	if _, err := FromCSR(2, ptr, idx, w, 0.9); err != nil {
		t.Errorf("tol 0.9: err = %v", err)
	}
}

func TestFromDenseErrors(t *testing.T) {
	a := mat.NewSymDense(2, []float64{0, -1, -1, 0})
	if _, err := FromDense(a); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "entry (0,1)") {
		t.Errorf("err = %v", err)
	}
}

func TestComponentsAndIsolated(t *testing.T) {
	// A triangle {0,1,2}, a path 3–4–5 (weights 1, 2); node 6 isolated; node 7 has only a
	// self loop (a component of its own, not isolated).
	edges := []Edge{{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {3, 4, 1}, {4, 5, 2}, {7, 7, 1}}
	g, err := FromEdges(8, edges)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{0, 0, 0, 1, 1, 1, 2, 3}
	// Components caches its result: concurrent first calls agree, and a
	// caller modifying its copy does not change later answers.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			comp, count := g.Components()
			if count != 4 || !slices.Equal(comp, want) {
				t.Errorf("comp = %v (%d), want %v (4)", comp, count, want)
			}
			comp[0] = 99
		})
	}
	wg.Wait()
	comp, count := g.Components()
	if count != 4 || !slices.Equal(comp, want) {
		t.Fatalf("comp = %v (%d), want %v (4)", comp, count, want)
	}
	if iso := g.Isolated(); len(iso) != 1 || iso[0] != 6 {
		t.Errorf("Isolated = %v, want [6]", iso)
	}
	// Degrees by hand: 2, 2, 2, 1, 3, 2, 0, 1 (sum 13); 5 non-loop edges.
	st := g.Stats()
	if st.N != 8 || st.Edges != 5 || st.SelfLoops != 1 || st.Components != 4 || st.LargestComponent != 3 ||
		st.MinDegree != 0 || st.MaxDegree != 3 || st.MeanDegree != 13.0/8 || st.MeanNeighbors != 10.0/8 {
		t.Errorf("Stats = %+v", st)
	}
	// Path graph: one component.
	var path []Edge
	for i := 0; i < 99; i++ {
		path = append(path, Edge{I: i, J: i + 1, W: 1})
	}
	p, _ := FromEdges(100, path)
	if _, c := p.Components(); c != 1 {
		t.Errorf("path: %d components", c)
	}
}

func TestWithSelfLoopsAndSubgraph(t *testing.T) {
	g, a := randGraph(t, 12, 0.4, true, 5)
	h, err := g.WithSelfLoops(0.5)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		for j := 0; j < 12; j++ {
			want := a.At(i, j)
			if i == j {
				want += 0.5
			}
			if h.Weight(i, j) != want {
				t.Fatalf("W'[%d,%d] = %v, want %v", i, j, h.Weight(i, j), want)
			}
		}
	}
	if _, err := g.WithSelfLoops(-1); !errors.Is(err, ErrInvalid) {
		t.Errorf("negative loop weight: err = %v", err)
	}
	nodes := []int{7, 2, 9}
	s, err := g.Subgraph(nodes)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range nodes {
		for l, u := range nodes {
			if s.Weight(k, l) != a.At(v, u) {
				t.Fatalf("sub[%d,%d] = %v, want W[%d,%d] = %v", k, l, s.Weight(k, l), v, u, a.At(v, u))
			}
		}
	}
	if _, err := g.Subgraph([]int{12}); !errors.Is(err, ErrInvalid) {
		t.Errorf("out-of-range subgraph: err = %v", err)
	}
	// A repeated node is refused, naming it and its two positions, on
	// both paths (position table for large subsets, map for small ones);
	// it used to return a graph whose edges depended on the repetition.
	for _, nodes := range [][]int{{7, 2, 9, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 2}} {
		_, err := g.Subgraph(nodes)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "subgraph node 2 repeated (positions") {
			t.Errorf("repeated node in %v: err = %v", nodes, err)
		}
	}
}

func TestMulTo(t *testing.T) {
	// n = 800 is large enough for the parallel path.
	for _, n := range []int{1, 5, 70, 800} {
		g, a := randGraph(t, n, math.Min(1, 20/float64(n)), true, uint64(n)+1)
		rng := rand.New(rand.NewPCG(1, 2))
		x := mat.NewDense(n, 3, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < 3; j++ {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		got := mat.NewDense(n, 3, nil)
		got.Apply(func(int, int, float64) float64 { return math.NaN() }, got) // dst is overwritten
		g.MulTo(got, x)
		var want mat.Dense
		want.Mul(a, x)
		if !mat.EqualApprox(got, &want, 1e-12) {
			t.Fatalf("n=%d: W·x differs from the dense product", n)
		}
	}
}

func TestEmptyGraphDense(t *testing.T) {
	g, err := FromEdges(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Dense().IsEmpty() {
		t.Error("Dense of the empty graph is not empty")
	}
	l, err := NewLaplacian(g, Unnormalized)
	if err != nil {
		t.Fatal(err)
	}
	if !Dense(l).IsEmpty() {
		t.Error("Dense(L) of the empty graph is not empty")
	}
}

// apply's loop for narrow blocks (axpyRowsSmall) gives the sums of
// gonum's Daxpy bit for bit, for every width below applyAxpyMin, with
// zero, negative and negative-zero weights and entries, and infinite
// entries met only by zero weights.
func TestAxpyRowsSmallMatchesDaxpy(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var blas gonum.Implementation
	const rows, nnz = 50, 40
	for p := 1; p < applyAxpyMin; p++ {
		stride := p + 2
		data := make([]float64, rows*stride)
		for i := range data {
			switch rng.IntN(10) {
			case 0:
				data[i] = 0
			case 1:
				data[i] = math.Copysign(0, -1)
			default:
				data[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
			}
		}
		vv := make([]float64, nnz)
		idx := make([]int32, nnz)
		for t := range vv {
			idx[t] = int32(rng.IntN(rows))
			switch rng.IntN(8) {
			case 0:
				vv[t] = 0
			case 1:
				vv[t] = math.Copysign(0, -1)
			default:
				vv[t] = rng.NormFloat64()
			}
		}
		// Row 0 holds infinities, reached only with zero weights: Daxpy
		// skips a zero factor, where 0·∞ would give NaN.
		for c := 0; c < p; c++ {
			data[c] = math.Inf(1)
		}
		for t := 0; t < nnz; t += 5 {
			idx[t] = 0
		}
		for t := range vv {
			if idx[t] == 0 {
				vv[t] = math.Copysign(0, float64(t%2)-0.5)
			}
		}
		got := make([]float64, p)
		axpyRowsSmall(got, vv, idx, data, stride)
		want := make([]float64, p)
		for t, j := range idx {
			blas.Daxpy(p, vv[t], data[int(j)*stride:int(j)*stride+p], 1, want, 1)
		}
		for c := range got {
			if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
				t.Fatalf("p=%d, column %d: %v, Daxpy gives %v", p, c, got[c], want[c])
			}
		}
	}
}

// ScaledPow2 equals the graph built from the edges with their weights
// times 2^e: every weight and degree, exactly, and the components.
func TestScaledPow2(t *testing.T) {
	edges := []Edge{{0, 1, 0.3}, {1, 2, 1.7e-3}, {2, 0, 5}, {3, 4, 0.1}, {4, 4, 0.25}, {5, 5, 1}}
	g, err := FromEdges(7, edges)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []int{-700, -60, 0, 1, 61, 900} {
		scaled := make([]Edge, len(edges))
		for k, ed := range edges {
			scaled[k] = Edge{ed.I, ed.J, math.Ldexp(ed.W, e)}
		}
		want, err := FromEdges(7, scaled)
		if err != nil {
			t.Fatal(err)
		}
		got := g.ScaledPow2(e)
		for i := 0; i < 7; i++ {
			if got.Degree(i) != want.Degree(i) {
				t.Errorf("e = %d: degree %d = %v, want %v", e, i, got.Degree(i), want.Degree(i))
			}
			for j := 0; j < 7; j++ {
				if got.Weight(i, j) != want.Weight(i, j) {
					t.Errorf("e = %d: W(%d,%d) = %v, want %v", e, i, j, got.Weight(i, j), want.Weight(i, j))
				}
			}
		}
		if _, c := got.Components(); c != 4 {
			t.Errorf("e = %d: %d components, want 4", e, c)
		}
		if got.NNZ() != g.NNZ() {
			t.Errorf("e = %d: nnz %d, want %d", e, got.NNZ(), g.NNZ())
		}
	}
}

// Normalized divides every weight by the largest between distinct nodes:
// weights and degrees against the graph built from the divided edges,
// within one rounding; an unweighted or edgeless graph comes back as it
// is; weights spanning more than float64's range are refused, naming the
// node.
func TestNormalized(t *testing.T) {
	edges := []Edge{{0, 1, 30}, {1, 2, 4}, {2, 0, 250}, {3, 3, 7}, {3, 4, 1e-3}}
	g, err := FromEdges(5, edges)
	if err != nil {
		t.Fatal(err)
	}
	got, wmax, err := g.Normalized()
	if err != nil || wmax != 250 {
		t.Fatalf("Normalized: largest %v, %v; want 250", wmax, err)
	}
	div := make([]Edge, len(edges))
	for k, e := range edges {
		div[k] = Edge{e.I, e.J, e.W / 250}
	}
	want, _ := FromEdges(5, div)
	for i := 0; i < 5; i++ {
		if d := math.Abs(got.Degree(i) - want.Degree(i)); d > 1e-15*want.Degree(i) {
			t.Errorf("degree %d = %v, want %v", i, got.Degree(i), want.Degree(i))
		}
		for j := 0; j < 5; j++ {
			if got.Weight(i, j) != want.Weight(i, j) {
				t.Errorf("W(%d,%d) = %v, want %v", i, j, got.Weight(i, j), want.Weight(i, j))
			}
		}
	}
	unit, _ := FromEdges(3, []Edge{{0, 1, 1}, {1, 2, 1}, {2, 2, 5}})
	edgeless, _ := FromEdges(2, []Edge{{0, 0, 3}})
	for name, h := range map[string]*Graph{"unweighted": unit, "edgeless": edgeless} {
		if same, _, err := h.Normalized(); same != h || err != nil {
			t.Errorf("%s: a new graph (%v), want the same", name, err)
		}
	}
	wide, _ := FromEdges(3, []Edge{{0, 1, 1e300}, {1, 2, 1e-300}})
	if _, _, err := wide.Normalized(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "underflows to 0 (node 1)") {
		t.Errorf("weights 1e300 and 1e-300: error %v, want one naming node 1", err)
	}
	// A self loop 10³¹⁰ times the largest edge overflows (+Inf reached the
	// eigensolver as NaN; review 114); one of 8e307 beside edges of 0.5
	// does not (1.6e308), but two of them sum beyond float64 (review 115).
	loop, _ := FromEdges(3, []Edge{{0, 1, 1e-300}, {1, 2, 1e-300}, {2, 2, 1e10}})
	if _, _, err := loop.Normalized(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "self loop 1e+10 of node 2") {
		t.Errorf("self loop 1e10 beside edges of 1e-300: error %v, want one naming node 2", err)
	}
	one, _ := FromEdges(4, []Edge{{0, 1, 0.5}, {1, 2, 0.5}, {2, 3, 0.5}, {3, 0, 0.5}, {0, 0, 8e307}})
	if h, _, err := one.Normalized(); err != nil || h.Weight(0, 0) != 1.6e308 {
		t.Errorf("a self loop of 8e307 beside edges of 0.5: %v", err)
	}
	two, _ := FromEdges(4, []Edge{{0, 1, 0.5}, {1, 2, 0.5}, {2, 3, 0.5}, {3, 0, 0.5}, {0, 0, 8e307}, {2, 2, 8e307}})
	if _, _, err := two.Normalized(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "sum beyond float64's range") {
		t.Errorf("two self loops of 8e307 beside edges of 0.5: %v", err)
	}
}
