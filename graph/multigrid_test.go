package graph_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/eigen/eigentest"
	"github.com/tether-sc/tether/graph"
)

// blobGraph2D is the CLI's default graph (symmetric 10-NN, local-scaling
// RBF) on n points of 5 Gaussian blobs in 2-D, as `tether gen blobs`.
func blobGraph2D(tb testing.TB, n int) *graph.Graph {
	tb.Helper()
	x, _, err := synth.Blobs(n, 5, 2, 1, rand.NewPCG(1, 1))
	if err != nil {
		tb.Fatal(err)
	}
	g, err := graph.Build(context.Background(), x, graph.DefaultSpec())
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// nullVectors returns D^{1/2}1_C/√vol(C) for every component C of g, the
// vectors cluster deflates from L_sym.
func nullVectors(g *graph.Graph) *mat.Dense {
	comp, nc := g.Components()
	z := mat.NewDense(g.N(), nc, nil)
	vol := make([]float64, nc)
	for i, d := range g.Degrees() {
		vol[comp[i]] += d
	}
	for i, d := range g.Degrees() {
		z.Set(i, comp[i], math.Sqrt(d/vol[comp[i]]))
	}
	return z
}

// njwProblem returns NJW's eigenproblem on the L_sym of the 2-D blob
// graph of n points: the 4 smallest pairs beyond the null vectors, which
// are deflated; with the Laplacian and the multigrid V-cycle for LOBPCG.
func njwProblem(t *testing.T, n int) (*graph.Laplacian, *graph.Multigrid, eigen.Problem) {
	t.Helper()
	g := blobGraph2D(t, n)
	op, err := graph.NewLaplacian(g, graph.Symmetric)
	if err != nil {
		t.Fatal(err)
	}
	mg, err := graph.NewMultigrid(context.Background(), g, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	z := nullVectors(g)
	_, d := z.Dims()
	return op, mg, eigen.Problem{A: op, K: d + 4, Deflate: z, DeflateValues: make([]float64, d)}
}

func TestCoarsenGalerkin(t *testing.T) {
	for _, n := range []int{1, 2, 3, 10, 70, 1000} {
		var g *graph.Graph
		if n < 70 {
			var edges []graph.Edge
			for i := 0; i+1 < n; i++ {
				edges = append(edges, graph.Edge{I: i, J: i + 1, W: 1 + float64(i)})
			}
			var err error
			if g, err = graph.FromEdges(n, edges); err != nil {
				t.Fatal(err)
			}
		} else {
			g = blobGraph2D(t, n)
		}
		c, agg, err := g.Coarsen(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(agg) != n {
			t.Fatalf("n=%d: %d aggregate labels", n, len(agg))
		}
		size := make([]int, c.N())
		for _, a := range agg {
			if a < 0 || int(a) >= c.N() {
				t.Fatalf("n=%d: aggregate %d outside [0,%d)", n, a, c.N())
			}
			size[a]++
		}
		for a, s := range size {
			if s < 1 || s > 2 {
				t.Fatalf("n=%d: aggregate %d has %d members, want 1 or 2", n, a, s)
			}
		}
		// Coarse degrees are the sums of the fine ones (PᵀDP), to rounding.
		dc := make([]float64, c.N())
		for i, a := range agg {
			dc[a] += g.Degree(i)
		}
		for a, d := range dc {
			if math.Abs(c.Degree(a)-d) > 1e-12*d {
				t.Fatalf("n=%d: coarse degree %d = %v, want %v", n, a, c.Degree(a), d)
			}
		}
		// Galerkin: uᵀ(D−W)u on u = P u_c equals u_cᵀ(D_c−C)u_c.
		rng := rand.New(rand.NewPCG(3, uint64(n)))
		uc := make([]float64, c.N())
		for i := range uc {
			uc[i] = rng.NormFloat64()
		}
		quad := func(h *graph.Graph, u func(int) float64) float64 {
			var q float64
			for i := 0; i < h.N(); i++ {
				idx, w := h.Row(i)
				for k, j := range idx {
					d := u(i) - u(int(j))
					q += w[k] * d * d
				}
			}
			return q / 2
		}
		qf := quad(g, func(i int) float64 { return uc[agg[i]] })
		qc := quad(c, func(a int) float64 { return uc[a] })
		if math.Abs(qf-qc) > 1e-10*math.Max(1, math.Abs(qf)) {
			t.Errorf("n=%d: fine energy %v, coarse %v", n, qf, qc)
		}
	}
}

// TestMultigridSymmetricPositive checks that one V-cycle is a symmetric
// positive definite operator, as LOBPCG's preconditioner must be:
// |xᵀTy − yᵀTx| ≤ 1e-10·‖x‖‖y‖‖T‖ and xᵀTx > 0 on random vectors.
func TestMultigridSymmetricPositive(t *testing.T) {
	for _, n := range []int{900, 5000} {
		g := blobGraph2D(t, n)
		mg, err := graph.NewMultigrid(context.Background(), g, 1e-5)
		if err != nil {
			t.Fatal(err)
		}
		if n > 800 && mg.Levels() < 2 {
			t.Fatalf("n=%d: %d levels", n, mg.Levels())
		}
		rng := rand.New(rand.NewPCG(5, uint64(n)))
		x := mat.NewDense(n, 3, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < 3; j++ {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		tx := mat.NewDense(n, 3, nil)
		mg.MulTo(tx, x)
		var g2 mat.Dense
		g2.Mul(x.T(), tx)
		scale := mat.Norm(&g2, 2)
		for i := 0; i < 3; i++ {
			if g2.At(i, i) <= 0 {
				t.Errorf("n=%d: xᵀTx = %v ≤ 0", n, g2.At(i, i))
			}
			for j := 0; j < i; j++ {
				if d := math.Abs(g2.At(i, j) - g2.At(j, i)); d > 1e-10*scale {
					t.Errorf("n=%d: asymmetry %v at (%d,%d), scale %v", n, d, i, j, scale)
				}
			}
		}
		// A block and its columns one at a time give the same result.
		col := mat.NewDense(n, 1, nil)
		one := mat.NewDense(n, 1, nil)
		col.Copy(x.Slice(0, n, 1, 2))
		mg.MulTo(one, col)
		for i := 0; i < n; i++ {
			if math.Abs(one.At(i, 0)-tx.At(i, 1)) > 1e-12*math.Max(1, math.Abs(tx.At(i, 1))) {
				t.Fatalf("n=%d: column applied alone differs at row %d", n, i)
			}
		}
	}
}

// TestMultigridLOBPCGMatchesDense: LOBPCG preconditioned by the V-cycle,
// on L_sym of 2-D 10-NN graphs with the null vectors deflated (as NJW
// poses it, K = 5), against gonum's dense EigenSym of the same matrix.
// Tolerances: eigenvalues within 1e-9 (the solve's tolerance 1e-9·‖L‖ on
// the residual bounds the eigenvalue error by about its square over the
// gap, far below), explicit residuals ≤ 1e-9·‖L‖ with ‖L‖ ≤ 2, columns
// orthonormal to 1e-10, and each vector's component outside the dense
// eigenspace of its eigenvalue below 1e-4 (residual over the gap).
func TestMultigridLOBPCGMatchesDense(t *testing.T) {
	const tol = 1e-9
	sizes := []int{500, 1200}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		op, mg, p := njwProblem(t, n)
		k := p.K
		res, err := eigen.LOBPCG{T: mg}.Solve(context.Background(), p, &eigen.Settings{Tol: tol})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		dense := graph.Dense(op)
		sym := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				sym.SetSym(i, j, (dense.At(i, j)+dense.At(j, i))/2)
			}
		}
		var es mat.EigenSym
		if !es.Factorize(sym, true) {
			t.Fatal("EigenSym failed")
		}
		want := es.Values(nil)
		var vecs mat.Dense
		es.VectorsTo(&vecs)
		for j := 0; j < k; j++ {
			if math.Abs(res.Values[j]-want[j]) > 1e-9 {
				t.Errorf("n=%d: λ_%d = %.15g, dense %.15g", n, j, res.Values[j], want[j])
			}
			if res.Residuals[j] > 2*tol {
				t.Errorf("n=%d: residual %d = %.3g > %.3g", n, j, res.Residuals[j], 2*tol)
			}
			// Component outside the dense eigenvectors of eigenvalues
			// within 1e-6 of λ_j.
			var in float64
			for c := 0; c < n; c++ {
				if math.Abs(want[c]-want[j]) > 1e-6 {
					continue
				}
				dot := mat.Dot(vecs.ColView(c), res.Vectors.ColView(j))
				in += dot * dot
			}
			if out := math.Sqrt(math.Max(0, 1-in)); out > 1e-4 {
				t.Errorf("n=%d: vector %d has %.3g outside its dense eigenspace", n, j, out)
			}
		}
		var gram mat.Dense
		gram.Mul(res.Vectors.T(), res.Vectors)
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				w := 0.0
				if i == j {
					w = 1
				}
				if math.Abs(gram.At(i, j)-w) > 1e-10 {
					t.Errorf("n=%d: (VᵀV)[%d,%d] = %v", n, i, j, gram.At(i, j))
				}
			}
		}
	}
}

// TestMultigridLOBPCGMatchesLanczos: on NJW's problem for 2·10⁴ 2-D
// points, cluster's default tolerance 1e-8, the multigrid-preconditioned
// LOBPCG and Lanczos (the solver it replaces) agree: eigenvalues within
// 1e-10 (both residuals are ≤ 1e-8·‖L‖ and the eigenvalue error is about
// the residual squared over the gap), explicit residuals ≤ 1e-8·‖L‖
// (‖L‖ ≤ 2), and the spans of the vectors equal to 1e-3 (the largest
// principal angle, bounded by residual over gap, gap ≥ 2e-5 here).
func TestMultigridLOBPCGMatchesLanczos(t *testing.T) {
	if testing.Short() {
		t.Skip("2·10⁴-node eigensolves")
	}
	const n, tol = 20000, 1e-8
	_, mg, p := njwProblem(t, n)
	got, err := eigen.LOBPCG{T: mg}.Solve(context.Background(), p, &eigen.Settings{Tol: tol})
	if err != nil {
		t.Fatal(err)
	}
	want, err := eigen.Lanczos{MaxNCV: 64}.Solve(context.Background(), p, &eigen.Settings{Tol: tol})
	if err != nil {
		t.Fatal(err)
	}
	for j := range want.Values {
		if math.Abs(got.Values[j]-want.Values[j]) > 1e-10 {
			t.Errorf("λ_%d: LOBPCG %.15g, Lanczos %.15g", j, got.Values[j], want.Values[j])
		}
		if got.Residuals[j] > 2*tol {
			t.Errorf("residual %d = %.3g", j, got.Residuals[j])
		}
	}
	if s := eigentest.SinMaxAngle(want.Vectors, got.Vectors, nil); s > 1e-3 {
		t.Errorf("largest principal angle sin %.3g > 1e-3", s)
	}
	t.Logf("LOBPCG %d iterations, %d products; Lanczos %d products", got.Iterations, got.MatVecs, want.MatVecs)
}

func TestMultigridErrors(t *testing.T) {
	g := blobGraph2D(t, 2000)
	for _, s := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := graph.NewMultigrid(context.Background(), g, s); !errors.Is(err, graph.ErrInvalid) {
			t.Errorf("σ = %v: error %v, want ErrInvalid", s, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := graph.NewMultigrid(ctx, g, 1e-5); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
	// A star does not coarsen: one matching pairs the centre only.
	var edges []graph.Edge
	for i := 1; i < 2000; i++ {
		edges = append(edges, graph.Edge{I: 0, J: i, W: 1})
	}
	star, err := graph.FromEdges(2000, edges)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := graph.NewMultigrid(context.Background(), star, 1e-5); !errors.Is(err, graph.ErrNoCoarsening) {
		t.Errorf("star: error %v, want ErrNoCoarsening", err)
	}
}
