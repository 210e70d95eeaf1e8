package graph

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// eigenvalues returns the eigenvalues of a dense matrix that must be
// symmetric (checked to 1e-13).
func eigenvalues(t *testing.T, a *mat.Dense) []float64 {
	t.Helper()
	n, _ := a.Dims()
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if math.Abs(a.At(i, j)-a.At(j, i)) > 1e-13 {
				t.Fatalf("not symmetric at (%d,%d): %v vs %v", i, j, a.At(i, j), a.At(j, i))
			}
			s.SetSym(i, j, a.At(i, j))
		}
	}
	var e mat.EigenSym
	if !e.Factorize(s, false) {
		t.Fatal("eigendecomposition failed")
	}
	return e.Values(nil)
}

// connectedGraph is randGraph plus a path through all nodes, so no node is
// isolated and the graph is connected.
func connectedGraph(t *testing.T, n int, seed uint64) (*Graph, *mat.SymDense) {
	g, a := randGraph(t, n, 0.3, true, seed)
	edges := g.Edges()
	for i := 0; i+1 < n; i++ {
		edges = append(edges, Edge{I: i, J: i + 1, W: 0.5})
		a.SetSym(i, i+1, a.At(i, i+1)+0.5)
	}
	if n == 1 {
		edges = append(edges, Edge{I: 0, J: 0, W: 1})
		a.SetSym(0, 0, a.At(0, 0)+1)
	}
	g, err := FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g, a
}

var sizes = []int{1, 2, 3, 5, 10, 70}

func TestLaplacianDenseFormulas(t *testing.T) {
	for _, n := range sizes {
		g, a := connectedGraph(t, n, uint64(n)+7)
		d := make([]float64, n)
		for i := range d {
			for j := 0; j < n; j++ {
				d[i] += a.At(i, j)
			}
		}
		// Dense formulas of thesis eq. 2.2.1, 2.2.6, 2.2.7.
		wantL := mat.NewDense(n, n, nil)
		wantSym := mat.NewDense(n, n, nil)
		wantRW := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				var id float64
				if i == j {
					id = 1
				}
				wantL.Set(i, j, id*d[i]-a.At(i, j))
				wantSym.Set(i, j, id-a.At(i, j)/math.Sqrt(d[i]*d[j]))
				wantRW.Set(i, j, id-a.At(i, j)/d[i])
			}
		}
		for _, c := range []struct {
			kind LaplacianKind
			want *mat.Dense
		}{{Unnormalized, wantL}, {Symmetric, wantSym}, {RandomWalk, wantRW}} {
			l, err := NewLaplacian(g, c.kind)
			if err != nil {
				t.Fatal(err)
			}
			if l.Dim() != n || l.Kind() != c.kind {
				t.Fatalf("Dim/Kind = %d/%v", l.Dim(), l.Kind())
			}
			if got := Dense(l); !mat.EqualApprox(got, c.want, 1e-13) {
				t.Fatalf("n=%d %v: operator differs from the dense formula", n, c.kind)
			}
		}
		// I − L_sym = D^{-1/2} W D^{-1/2}.
		na, err := NewNormalizedAdjacency(g)
		if err != nil {
			t.Fatal(err)
		}
		var wantNA mat.Dense
		wantNA.Sub(eye(n), wantSym)
		if got := Dense(na); na.Dim() != n || !mat.EqualApprox(got, &wantNA, 1e-13) {
			t.Fatalf("n=%d: normalized adjacency differs", n)
		}
		dm := NewDegreeMatrix(g)
		wantD := mat.NewDense(n, n, nil)
		for i := range d {
			wantD.Set(i, i, d[i])
		}
		if got := Dense(dm); dm.Dim() != n || !mat.EqualApprox(got, wantD, 1e-13) {
			t.Fatalf("n=%d: degree matrix differs", n)
		}
	}
}

func eye(n int) *mat.Dense {
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		m.Set(i, i, 1)
	}
	return m
}

func TestLaplacianProperties(t *testing.T) {
	for _, n := range sizes {
		g, _ := connectedGraph(t, n, uint64(n)+11)
		l, _ := NewLaplacian(g, Unnormalized)
		L := Dense(l)
		// Zero row sums: L·1 = 0 (thesis Prop. 2.2.1).
		scale := g.MaxDegree()
		for i := 0; i < n; i++ {
			var s float64
			for j := 0; j < n; j++ {
				s += L.At(i, j)
			}
			if math.Abs(s) > 1e-13*scale {
				t.Fatalf("n=%d: row %d of L sums to %v", n, i, s)
			}
		}
		// PSD, and 0 is simple for a connected graph.
		ev := eigenvalues(t, L)
		if ev[0] < -1e-12*scale || (n > 1 && ev[1] < 1e-10) {
			t.Fatalf("n=%d: eigenvalues of L %v", n, ev[:min(3, n)])
		}
		ls, _ := NewLaplacian(g, Symmetric)
		ev = eigenvalues(t, Dense(ls))
		// Spectrum of L_sym lies in [0, 2].
		if ev[0] < -1e-12 || ev[n-1] > 2+1e-12 {
			t.Fatalf("n=%d: L_sym spectrum [%v, %v]", n, ev[0], ev[n-1])
		}
	}
	// Multiplicity of 0 equals the number of components: three triangles.
	var edges []Edge
	for c := 0; c < 3; c++ {
		b := 3 * c
		edges = append(edges, Edge{b, b + 1, 1}, Edge{b + 1, b + 2, 2}, Edge{b, b + 2, 3})
	}
	g, _ := FromEdges(9, edges)
	l, _ := NewLaplacian(g, Unnormalized)
	ev := eigenvalues(t, Dense(l))
	zeros := 0
	for _, v := range ev {
		if math.Abs(v) < 1e-12 {
			zeros++
		}
	}
	if zeros != 3 {
		t.Errorf("L of three triangles has %d zero eigenvalues, want 3: %v", zeros, ev)
	}
}

func TestLaplacianIsolated(t *testing.T) {
	g, _ := FromEdges(3, []Edge{{0, 1, 1}})
	for _, kind := range []LaplacianKind{Symmetric, RandomWalk} {
		if _, err := NewLaplacian(g, kind); !errors.Is(err, ErrIsolated) {
			t.Errorf("%v: err = %v, want ErrIsolated", kind, err)
		}
	}
	if _, err := NewNormalizedAdjacency(g); !errors.Is(err, ErrIsolated) {
		t.Errorf("normalized adjacency: err = %v, want ErrIsolated", err)
	}
	if _, err := NewLaplacian(g, Unnormalized); err != nil {
		t.Errorf("L of a graph with an isolated node: %v", err)
	}
	// The documented regularization removes the error.
	h, _ := g.WithSelfLoops(1)
	if _, err := NewLaplacian(h, Symmetric); err != nil {
		t.Errorf("after WithSelfLoops: %v", err)
	}
	if _, err := NewLaplacian(g, LaplacianKind(5)); err == nil {
		t.Error("unknown kind accepted")
	}
}

func TestBetheHessian(t *testing.T) {
	for _, n := range sizes {
		// Weighted: seed 004 eq. 3.6 with the sum read as Σ_k W_ik²/(r²−W_ik²)
		// (SPEC §3: the printed A_ij² is a typo).
		g, a := connectedGraph(t, n, uint64(n)+13)
		r := 1.7 // > max weight (≤ 1.5)
		want := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			s := 1.0
			for k := 0; k < n; k++ {
				w := a.At(i, k)
				s += w * w / (r*r - w*w)
			}
			for j := 0; j < n; j++ {
				w := a.At(i, j)
				v := -r * w / (r*r - w*w)
				if i == j {
					v += s
				}
				want.Set(i, j, v)
			}
		}
		h, err := NewBetheHessian(g, r)
		if err != nil {
			t.Fatal(err)
		}
		if got := Dense(h); h.Dim() != n || h.R() != r || !mat.EqualApprox(got, want, 1e-13) {
			t.Fatalf("n=%d: weighted Bethe Hessian differs from eq. 3.6", n)
		}
		// Coupling: the largest off-diagonal row sum of eq. 3.6's matrix.
		coupling := 0.0
		for i := 0; i < n; i++ {
			s := 0.0
			for j := 0; j < n; j++ {
				if j != i {
					s += math.Abs(want.At(i, j))
				}
			}
			coupling = math.Max(coupling, s)
		}
		if got := h.Coupling(); math.Abs(got-coupling) > 1e-13*coupling {
			t.Fatalf("n=%d: Coupling %v, eq. 3.6's largest off-diagonal row sum %v", n, got, coupling)
		}
		// Unweighted, no loops: H·(r²−1) = (r²−1)I − rA + D (eq. 3.5).
		var edges []Edge
		A := mat.NewDense(n, n, nil)
		for _, e := range g.Edges() {
			if e.I != e.J {
				edges = append(edges, Edge{I: e.I, J: e.J, W: 1})
				A.Set(e.I, e.J, 1)
				A.Set(e.J, e.I, 1)
			}
		}
		u, _ := FromEdges(n, edges)
		r = 2.5
		hu, err := NewBetheHessian(u, r)
		if err != nil {
			t.Fatal(err)
		}
		want35 := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			var deg float64
			for j := 0; j < n; j++ {
				deg += A.At(i, j)
				want35.Set(i, j, -r*A.At(i, j))
			}
			want35.Set(i, i, r*r-1+deg)
		}
		var got mat.Dense
		got.Scale(r*r-1, Dense(hu))
		if !mat.EqualApprox(&got, want35, 1e-12) {
			t.Fatalf("n=%d: (r²−1)·H differs from eq. 3.5", n)
		}
	}
	g, _ := FromEdges(2, []Edge{{0, 1, 2}})
	for _, r := range []float64{2, 1, 0, -1, math.NaN(), math.Inf(1)} {
		if _, err := NewBetheHessian(g, r); err == nil {
			t.Errorf("r = %v accepted with a weight-2 edge", r)
		}
	}
	// BetheR = √(mean degree): a 4-cycle has mean degree 2.
	c4, _ := FromEdges(4, []Edge{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 0, 1}})
	if got := BetheR(c4); math.Abs(got-math.Sqrt2) > 1e-15 {
		t.Errorf("BetheR(C4) = %v, want √2", got)
	}
	empty, _ := FromEdges(3, nil)
	if got := BetheR(empty); got != 1 {
		t.Errorf("BetheR(empty) = %v, want 1", got)
	}
	// A perfect matching has mean degree 1: √c = 1 = the edge weight, where
	// the weighted H(r) is undefined; BetheR steps above the weight and
	// H(r) is then defined (it was an error before).
	match, err := FromEdges(4, []Edge{{I: 0, J: 1, W: 1}, {I: 2, J: 3, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := BetheR(match); got != 1.01 {
		t.Errorf("BetheR(matching) = %v, want 1.01", got)
	}
	if _, err := NewBetheHessian(match, BetheR(match)); err != nil {
		t.Errorf("H(BetheR) of a matching: %v", err)
	}
}
