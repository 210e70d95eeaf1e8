// Package eigentest is the conformance suite that every eigen.Solver in
// tether passes, in the manner of gonum's lapack/testlapack: one Run
// function, called from each solver's tests, that checks the solver against
// independent computations.
//
// Expected values come from two independent sources. Closed-form spectra of
// graph Laplacians (path, cycle, complete graph, star, disjoint cliques) are
// written out in this file from the textbook formulas. Random sparse graphs
// and random definite pencils are compared with gonum's dense
// mat.EigenSym applied to matrices that this file builds itself from the
// edge list (L = D − W, L_sym = I − D^{-1/2}WD^{-1/2}), and for generalized
// problems with the reduction C = B^{-1/2}AB^{-1/2} computed from an
// eigendecomposition of B — not the Cholesky reduction used by eigen.Dense.
package eigentest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// Option configures Run.
type Option func(*config)

type config struct {
	standardOnly bool
	sizes        []int
	tol          float64
}

// StandardOnly declares that the solver supports only standard problems
// (B = nil). Run then checks that generalized problems are rejected with an
// error wrapping eigen.ErrInvalid instead of checking the solver's answers
// to them.
func StandardOnly() Option { return func(c *config) { c.standardOnly = true } }

// Tolerances used by Run. The solver is asked for relative residuals of
// SolverTol; eigenvalues must match the reference to ValueTol·max(1, |λ|);
// residuals must be below ResidualTol·(‖A‖ + |λ|‖B‖); B-orthonormality holds
// to OrthoTol entrywise; the sine of the largest principal angle between the
// computed and reference invariant subspaces must be below AngleTol whenever
// the spectral gap after the K-th eigenvalue exceeds 1e-3·‖A‖.
const (
	SolverTol   = 1e-10
	ValueTol    = 1e-8
	ResidualTol = 1e-8
	OrthoTol    = 1e-8
	AngleTol    = 1e-6
)

// Run runs the conformance suite on s as subtests of t.
func Run(t *testing.T, s eigen.Solver, opts ...Option) {
	cfg := config{sizes: []int{1, 2, 3, 5, 10, 70, 300}, tol: SolverTol}
	for _, o := range opts {
		o(&cfg)
	}
	t.Run("RandomLaplacian", func(t *testing.T) { testRandomLaplacian(t, s, cfg) })
	t.Run("Path", func(t *testing.T) { testPath(t, s, cfg) })
	t.Run("Cycle", func(t *testing.T) { testCycle(t, s, cfg) })
	t.Run("Complete", func(t *testing.T) { testComplete(t, s, cfg) })
	t.Run("Star", func(t *testing.T) { testStar(t, s, cfg) })
	t.Run("Cliques", func(t *testing.T) { testCliques(t, s, cfg) })
	t.Run("GeneralizedSPD", func(t *testing.T) { testGeneralizedSPD(t, s, cfg) })
	t.Run("ShiMalik", func(t *testing.T) { testShiMalik(t, s, cfg) })
	t.Run("NotPositiveDefinite", func(t *testing.T) { testNotPD(t, s, cfg) })
	t.Run("Determinism", func(t *testing.T) { testDeterminism(t, s, cfg) })
	t.Run("Cancel", func(t *testing.T) { testCancel(t, s, cfg) })
	t.Run("BadInput", func(t *testing.T) { testBadInput(t, s, cfg) })
}

// RandomGraph returns the edges of a connected random sparse weighted graph
// on n nodes: a path with weights in [0.5, 1.5), about 2n further random
// edges with weights in [0.1, 1.1) and a self loop of weight 0.5 on node 0.
func RandomGraph(n int, rng *rand.Rand) []graph.Edge {
	edges := []graph.Edge{{I: 0, J: 0, W: 0.5}}
	for i := 0; i+1 < n; i++ {
		edges = append(edges, graph.Edge{I: i, J: i + 1, W: 0.5 + rng.Float64()})
	}
	if n > 2 {
		for e := 0; e < 2*n; e++ {
			i, j := rng.IntN(n), rng.IntN(n)
			if i != j {
				edges = append(edges, graph.Edge{I: i, J: j, W: 0.1 + rng.Float64()})
			}
		}
	}
	return edges
}

// DenseLaplacian builds the Laplacian of kind (Unnormalized or Symmetric)
// of the graph with the given edges directly from the definitions
// L = D − W and L_sym = I − D^{-1/2} W D^{-1/2} (thesis eqs. 2.2.1, 2.2.6),
// with repeated edges summed and a self loop counted once in the degree.
func DenseLaplacian(n int, edges []graph.Edge, kind graph.LaplacianKind) *mat.SymDense {
	w := mat.NewDense(n, n, nil)
	for _, e := range edges {
		w.Set(e.I, e.J, w.At(e.I, e.J)+e.W)
		if e.I != e.J {
			w.Set(e.J, e.I, w.At(e.J, e.I)+e.W)
		}
	}
	deg := make([]float64, n)
	for i := range deg {
		deg[i] = mat.Sum(w.RowView(i))
	}
	l := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			var v float64
			switch kind {
			case graph.Unnormalized:
				v = -w.At(i, j)
				if i == j {
					v += deg[i]
				}
			case graph.Symmetric:
				v = -w.At(i, j) / math.Sqrt(deg[i]*deg[j])
				if i == j {
					v++
				}
			default:
				panic("eigentest: unsupported Laplacian kind")
			}
			l.SetSym(i, j, v)
		}
	}
	return l
}

// reference returns all eigenvalues (ascending) and B-orthonormal
// eigenvectors of the pencil (a, b) (b nil: identity), by dense EigenSym on
// B^{-1/2} A B^{-1/2}.
func reference(t *testing.T, a, b *mat.SymDense) ([]float64, *mat.Dense) {
	t.Helper()
	n := a.SymmetricDim()
	c := a
	var bmh *mat.Dense
	if b != nil {
		var eb mat.EigenSym
		if !eb.Factorize(b, true) {
			t.Fatal("reference: EigenSym of B failed")
		}
		sv := eb.Values(nil)
		var u mat.Dense
		eb.VectorsTo(&u)
		us := mat.DenseCopyOf(&u)
		for j, v := range sv {
			if v <= 0 {
				t.Fatalf("reference: B has eigenvalue %g", v)
			}
			col := mat.Col(nil, j, us)
			for i := range col {
				col[i] /= math.Sqrt(v)
			}
			us.SetCol(j, col)
		}
		bmh = mat.NewDense(n, n, nil)
		bmh.Mul(us, u.T())
		tmp := mat.NewDense(n, n, nil)
		tmp.Mul(bmh, a)
		tmp.Mul(tmp, bmh)
		c = mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				c.SetSym(i, j, 0.5*(tmp.At(i, j)+tmp.At(j, i)))
			}
		}
	}
	var es mat.EigenSym
	if !es.Factorize(c, true) {
		t.Fatal("reference: EigenSym failed")
	}
	vals := es.Values(nil)
	var y mat.Dense
	es.VectorsTo(&y)
	if bmh == nil {
		return vals, &y
	}
	x := mat.NewDense(n, n, nil)
	x.Mul(bmh, &y)
	return vals, x
}

// pick returns the K values and vectors selected by which from a full
// ascending decomposition, and the gap to the next eigenvalue (+Inf if none).
func pick(vals []float64, vecs *mat.Dense, k int, which eigen.Which) ([]float64, *mat.Dense, float64) {
	n := len(vals)
	out := make([]float64, k)
	var u *mat.Dense
	if vecs != nil {
		u = mat.NewDense(n, k, nil)
	}
	for j := 0; j < k; j++ {
		c := j
		if which == eigen.Largest {
			c = n - 1 - j
		}
		out[j] = vals[c]
		if u != nil {
			u.SetCol(j, mat.Col(nil, c, vecs))
		}
	}
	gap := math.Inf(1)
	if k < n {
		if which == eigen.Smallest {
			gap = vals[k] - vals[k-1]
		} else {
			gap = vals[n-k] - vals[n-k-1]
		}
	}
	return out, u, gap
}

// symNorm returns max |λ| of a (its spectral norm), computed from its
// eigenvalues.
func symNorm(a *mat.SymDense) float64 {
	var es mat.EigenSym
	es.Factorize(a, false)
	v := es.Values(nil)
	return math.Max(math.Abs(v[0]), math.Abs(v[len(v)-1]))
}

// want describes the expected answer of one problem.
type want struct {
	a, b   *mat.SymDense // dense matrices of the problem (b nil: identity)
	values []float64     // expected eigenvalues, ordered by which
	vecs   *mat.Dense    // reference eigenvectors (n×K) or nil
	gap    float64       // gap after the K-th eigenvalue (for the angle check)
	normA  float64       // ‖A‖₂; computed by check when 0
	normB  float64       // ‖B‖₂; computed by check when 0 and b is set
}

// check verifies res against w.
func check(t *testing.T, res *eigen.Result, p eigen.Problem, w want) {
	t.Helper()
	n := w.a.SymmetricDim()
	k := p.K
	if res == nil {
		t.Fatal("nil result")
	}
	if len(res.Values) != k || len(res.Residuals) != k || res.Vectors == nil {
		t.Fatalf("result has %d values, %d residuals, vectors %v; want K = %d", len(res.Values), len(res.Residuals), res.Vectors != nil, k)
	}
	if r, c := res.Vectors.Dims(); r != n || c != k {
		t.Fatalf("Vectors is %d×%d, want %d×%d", r, c, n, k)
	}
	for j, v := range res.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("Values[%d] = %v", j, v)
		}
		if j > 0 {
			prev := res.Values[j-1]
			if (p.Which == eigen.Smallest && v < prev) || (p.Which == eigen.Largest && v > prev) {
				t.Errorf("Values not ordered for %v: %v", p.Which, res.Values)
				break
			}
		}
	}
	for j, v := range res.Values {
		if d := math.Abs(v - w.values[j]); !(d <= ValueTol*math.Max(1, math.Abs(w.values[j]))) {
			t.Errorf("Values[%d] = %.15g, want %.15g (|diff| %.3g)", j, v, w.values[j], d)
		}
	}
	// B-orthonormality.
	v := res.Vectors
	bv := mat.DenseCopyOf(v)
	if w.b != nil {
		bv.Mul(w.b, v)
	}
	g := mat.NewDense(k, k, nil)
	g.Mul(v.T(), bv)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			want := 0.0
			if i == j {
				want = 1
			}
			if d := math.Abs(g.At(i, j) - want); !(d <= OrthoTol) {
				t.Errorf("(VᵀBV)[%d,%d] = %.12g, want %g", i, j, g.At(i, j), want)
			}
		}
	}
	// Residuals, recomputed here.
	normA, normB := w.normA, 1.0
	if normA == 0 {
		normA = symNorm(w.a)
	}
	if w.b != nil {
		if normB = w.normB; normB == 0 {
			normB = symNorm(w.b)
		}
	}
	av := mat.NewDense(n, k, nil)
	av.Mul(w.a, v)
	for j := 0; j < k; j++ {
		var r2, x2 float64
		for i := 0; i < n; i++ {
			r := av.At(i, j) - res.Values[j]*bv.At(i, j)
			r2 += r * r
			x2 += v.At(i, j) * v.At(i, j)
		}
		r := math.Sqrt(r2 / x2)
		// The floor of 1 absorbs the rounding differences between the
		// solver's operator and the dense matrix built here when ‖A‖ ≈ 0.
		scale := math.Max(1, normA+math.Abs(res.Values[j])*normB)
		if !(r <= ResidualTol*scale) {
			t.Errorf("residual of pair %d (λ = %g) is %.3g > %.3g", j, res.Values[j], r, ResidualTol*scale)
		}
		if d := math.Abs(r - res.Residuals[j]); !(d <= 1e-10*scale) {
			t.Errorf("Residuals[%d] = %.3g, recomputed %.3g", j, res.Residuals[j], r)
		}
	}
	// Principal angles with the reference subspace.
	if w.vecs != nil && w.gap > 1e-3*normA {
		if s := SinMaxAngle(w.vecs, v, w.b); !(s <= AngleTol) {
			t.Errorf("largest principal angle has sine %.3g > %g (gap %.3g)", s, AngleTol, w.gap)
		}
	}
}

// SinMaxAngle returns the sine of the largest principal angle between the
// spans of the B-orthonormal columns of u and v (b nil: identity), as the
// B-norm of (I − U UᵀB) V.
func SinMaxAngle(u, v *mat.Dense, b *mat.SymDense) float64 {
	n, k := v.Dims()
	bv := mat.DenseCopyOf(v)
	if b != nil {
		bv.Mul(b, v)
	}
	c := mat.NewDense(u.RawMatrix().Cols, k, nil)
	c.Mul(u.T(), bv)
	e := mat.NewDense(n, k, nil)
	e.Mul(u, c)
	e.Sub(v, e)
	be := mat.DenseCopyOf(e)
	if b != nil {
		be.Mul(b, e)
	}
	g := mat.NewSymDense(k, nil)
	gd := mat.NewDense(k, k, nil)
	gd.Mul(e.T(), be)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			g.SetSym(i, j, 0.5*(gd.At(i, j)+gd.At(j, i)))
		}
	}
	var es mat.EigenSym
	es.Factorize(g, false)
	ev := es.Values(nil)
	return math.Sqrt(math.Max(0, ev[len(ev)-1]))
}

func settings() *eigen.Settings {
	return &eigen.Settings{Tol: SolverTol}
}

func solve(t *testing.T, s eigen.Solver, p eigen.Problem) *eigen.Result {
	t.Helper()
	res, err := s.Solve(context.Background(), p, settings())
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	return res
}

func kList(n int, ks ...int) []int {
	var out []int
	for _, k := range ks {
		k = min(k, n)
		if k >= 1 && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func mustGraph(t *testing.T, n int, edges []graph.Edge) *graph.Graph {
	t.Helper()
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustLaplacian(t *testing.T, g *graph.Graph, kind graph.LaplacianKind) *graph.Laplacian {
	t.Helper()
	l, err := graph.NewLaplacian(g, kind)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// testRandomLaplacian compares L and L_sym of random sparse graphs with the
// dense reference, for both ends of the spectrum.
func testRandomLaplacian(t *testing.T, s eigen.Solver, cfg config) {
	for _, n := range cfg.sizes {
		edges := RandomGraph(n, rand.New(rand.NewPCG(1, uint64(n))))
		g := mustGraph(t, n, edges)
		for _, kind := range []graph.LaplacianKind{graph.Unnormalized, graph.Symmetric} {
			a := DenseLaplacian(n, edges, kind)
			vals, vecs := reference(t, a, nil)
			normA := math.Max(math.Abs(vals[0]), math.Abs(vals[n-1]))
			op := mustLaplacian(t, g, kind)
			for _, which := range []eigen.Which{eigen.Smallest, eigen.Largest} {
				for _, k := range kList(n, 1, 3, 6) {
					t.Run(fmt.Sprintf("n=%d/%v/%v/K=%d", n, kind, which, k), func(t *testing.T) {
						p := eigen.Problem{A: op, K: k, Which: which}
						wv, wu, gap := pick(vals, vecs, k, which)
						check(t, solve(t, s, p), p, want{a: a, values: wv, vecs: wu, gap: gap, normA: normA})
					})
				}
			}
		}
	}
}

// knownCase checks the unnormalized Laplacian of a graph whose full
// spectrum (any order) is given in closed form.
func knownCase(t *testing.T, s eigen.Solver, n int, edges []graph.Edge, spectrum []float64, ks []int) {
	t.Helper()
	g := mustGraph(t, n, edges)
	op := mustLaplacian(t, g, graph.Unnormalized)
	a := DenseLaplacian(n, edges, graph.Unnormalized)
	sorted := slices.Clone(spectrum)
	slices.Sort(sorted)
	normA := math.Max(math.Abs(sorted[0]), math.Abs(sorted[n-1]))
	for _, which := range []eigen.Which{eigen.Smallest, eigen.Largest} {
		for _, k := range ks {
			t.Run(fmt.Sprintf("n=%d/%v/K=%d", n, which, k), func(t *testing.T) {
				p := eigen.Problem{A: op, K: k, Which: which}
				wv, _, _ := pick(sorted, nil, k, which)
				check(t, solve(t, s, p), p, want{a: a, values: wv, normA: normA})
			})
		}
	}
}

func unweighted(pairs [][2]int) []graph.Edge {
	e := make([]graph.Edge, len(pairs))
	for i, p := range pairs {
		e[i] = graph.Edge{I: p[0], J: p[1], W: 1}
	}
	return e
}

// testPath: L of the path P_n has eigenvalues 2 − 2cos(πj/n), j = 0…n−1
// (Brouwer & Haemers, Spectra of Graphs, §1.4.4).
func testPath(t *testing.T, s eigen.Solver, cfg config) {
	for _, n := range cfg.sizes {
		var pairs [][2]int
		for i := 0; i+1 < n; i++ {
			pairs = append(pairs, [2]int{i, i + 1})
		}
		spec := make([]float64, n)
		for j := range spec {
			spec[j] = 2 - 2*math.Cos(math.Pi*float64(j)/float64(n))
		}
		knownCase(t, s, n, unweighted(pairs), spec, kList(n, 1, 6))
	}
}

// testCycle: L of the cycle C_n has eigenvalues 2 − 2cos(2πj/n), j = 0…n−1
// (Brouwer & Haemers §1.4.3); all but 0 (and 4 for even n) are double.
func testCycle(t *testing.T, s eigen.Solver, cfg config) {
	for _, n := range cfg.sizes {
		if n < 3 {
			continue
		}
		var pairs [][2]int
		for i := 0; i < n; i++ {
			pairs = append(pairs, [2]int{i, (i + 1) % n})
		}
		spec := make([]float64, n)
		for j := range spec {
			spec[j] = 2 - 2*math.Cos(2*math.Pi*float64(j)/float64(n))
		}
		knownCase(t, s, n, unweighted(pairs), spec, kList(n, 1, 5))
	}
}

// testComplete: L of K_n has eigenvalues 0 (once) and n (n−1 times).
func testComplete(t *testing.T, s eigen.Solver, cfg config) {
	for _, n := range cfg.sizes {
		if n > 100 {
			continue
		}
		var pairs [][2]int
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				pairs = append(pairs, [2]int{i, j})
			}
		}
		spec := make([]float64, n)
		for j := 1; j < n; j++ {
			spec[j] = float64(n)
		}
		knownCase(t, s, n, unweighted(pairs), spec, kList(n, 1, 4))
	}
}

// testStar: L of the star K_{1,n−1} has eigenvalues 0, 1 (n−2 times) and n.
func testStar(t *testing.T, s eigen.Solver, cfg config) {
	for _, n := range cfg.sizes {
		if n < 2 {
			continue
		}
		var pairs [][2]int
		for i := 1; i < n; i++ {
			pairs = append(pairs, [2]int{0, i})
		}
		spec := make([]float64, n)
		for j := 1; j < n-1; j++ {
			spec[j] = 1
		}
		spec[n-1] = float64(n)
		knownCase(t, s, n, unweighted(pairs), spec, kList(n, 1, 4))
	}
}

// cliqueSizes are the clique sizes of the disjoint unions tested.
var cliqueSizes = [][]int{
	{1},
	{2, 3},
	{3, 3, 3},
	{5, 8, 13},
	{4, 6, 10, 12, 20},
	{40, 50, 60, 70, 80},
	{10, 10, 10, 10, 10, 10, 10, 10},
}

// testCliques: L of a disjoint union of cliques K_{s_1} ∪ … ∪ K_{s_c} has
// eigenvalue 0 with multiplicity c and s_i with multiplicity s_i − 1 (each
// clique contributes the spectrum of K_{s_i}). Solved without deflation
// (the solver must find the c-fold zero by itself) and with the normalized
// component indicators deflated.
func testCliques(t *testing.T, s eigen.Solver, cfg config) {
	for _, sizes := range cliqueSizes {
		var pairs [][2]int
		var spec []float64
		n := 0
		for _, sz := range sizes {
			for i := 0; i < sz; i++ {
				for j := i + 1; j < sz; j++ {
					pairs = append(pairs, [2]int{n + i, n + j})
				}
			}
			spec = append(spec, 0)
			for j := 1; j < sz; j++ {
				spec = append(spec, float64(sz))
			}
			n += sz
		}
		c := len(sizes)
		edges := unweighted(pairs)
		g := mustGraph(t, n, edges)
		op := mustLaplacian(t, g, graph.Unnormalized)
		a := DenseLaplacian(n, edges, graph.Unnormalized)
		sorted := slices.Clone(spec)
		slices.Sort(sorted)
		normA := sorted[n-1]
		for _, k := range kList(n, c, c+2) {
			wv, _, _ := pick(sorted, nil, k, eigen.Smallest)
			t.Run(fmt.Sprintf("sizes=%v/K=%d", sizes, k), func(t *testing.T) {
				p := eigen.Problem{A: op, K: k, Which: eigen.Smallest}
				res := solve(t, s, p)
				check(t, res, p, want{a: a, values: wv, normA: normA})
				zeros := 0
				for _, v := range res.Values {
					if math.Abs(v) <= 1e-8 {
						zeros++
					}
				}
				if zeros != min(c, k) {
					t.Errorf("found %d zero eigenvalues, want %d (values %v)", zeros, min(c, k), res.Values)
				}
			})
			t.Run(fmt.Sprintf("sizes=%v/K=%d/Deflate", sizes, k), func(t *testing.T) {
				q := mat.NewDense(n, c, nil)
				off := 0
				for j, sz := range sizes {
					for i := 0; i < sz; i++ {
						q.Set(off+i, j, 1/math.Sqrt(float64(sz)))
					}
					off += sz
				}
				p := eigen.Problem{A: op, K: k, Which: eigen.Smallest, Deflate: q, DeflateValues: make([]float64, c)}
				res := solve(t, s, p)
				check(t, res, p, want{a: a, values: wv, normA: normA})
				for j := 0; j < c; j++ {
					if !mat.Equal(res.Vectors.ColView(j), q.ColView(j)) {
						t.Errorf("column %d is not deflated vector %d", j, j)
						break
					}
				}
			})
		}
	}
}

// randomSPD returns a random symmetric positive definite matrix with
// eigenvalues in about [0.5, 3]: diag(0.5 + U[0,1)) + MᵀM/n for a random
// sparse-ish M.
func randomSPD(n int, rng *rand.Rand) *mat.SymDense {
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for e := 0; e < 3; e++ {
			m.Set(i, rng.IntN(n), rng.NormFloat64())
		}
	}
	mm := mat.NewDense(n, n, nil)
	mm.Mul(m.T(), m)
	b := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := 0.5 * (mm.At(i, j) + mm.At(j, i)) / float64(n)
			if i == j {
				v += 0.5 + rng.Float64()
			}
			b.SetSym(i, j, v)
		}
	}
	return b
}

// testGeneralizedSPD solves A x = λ B x for the Laplacian A of a random
// graph and a random SPD B, against the B^{-1/2} reduction.
func testGeneralizedSPD(t *testing.T, s eigen.Solver, cfg config) {
	for _, n := range cfg.sizes {
		rng := rand.New(rand.NewPCG(2, uint64(n)))
		edges := RandomGraph(n, rng)
		a := DenseLaplacian(n, edges, graph.Unnormalized)
		b := randomSPD(n, rng)
		vals, vecs := reference(t, a, b)
		normA, normB := symNorm(a), symNorm(b)
		for _, which := range []eigen.Which{eigen.Smallest, eigen.Largest} {
			for _, k := range kList(n, 1, 4) {
				t.Run(fmt.Sprintf("n=%d/%v/K=%d", n, which, k), func(t *testing.T) {
					p := eigen.Problem{A: eigen.NewMatrix(a), B: eigen.NewMatrix(b), K: k, Which: which}
					if cfg.standardOnly {
						if _, err := s.Solve(context.Background(), p, settings()); !errors.Is(err, eigen.ErrInvalid) {
							t.Fatalf("standard-only solver: generalized problem gives error %v, want one wrapping eigen.ErrInvalid", err)
						}
						return
					}
					wv, wu, gap := pick(vals, vecs, k, which)
					check(t, solve(t, s, p), p, want{a: a, b: b, values: wv, vecs: wu, gap: gap, normA: normA, normB: normB})
				})
			}
		}
	}
}

// testShiMalik solves L u = λ D u (thesis Alg. 2), whose eigenvalues are
// those of L_sym (u = D^{-1/2} v for an eigenvector v of L_sym), with the
// graph package's operators; also on two disjoint random graphs with the
// D-normalized component indicators deflated.
func testShiMalik(t *testing.T, s eigen.Solver, cfg config) {
	for _, n := range cfg.sizes {
		rng := rand.New(rand.NewPCG(3, uint64(n)))
		edges := RandomGraph(n, rng)
		g := mustGraph(t, n, edges)
		ref, _ := reference(t, DenseLaplacian(n, edges, graph.Symmetric), nil)
		a := DenseLaplacian(n, edges, graph.Unnormalized)
		d := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			d.SetSym(i, i, g.Degree(i))
		}
		for _, which := range []eigen.Which{eigen.Smallest, eigen.Largest} {
			for _, k := range kList(n, 1, 5) {
				t.Run(fmt.Sprintf("n=%d/%v/K=%d", n, which, k), func(t *testing.T) {
					p := eigen.Problem{A: mustLaplacian(t, g, graph.Unnormalized), B: graph.NewDegreeMatrix(g), K: k, Which: which}
					if cfg.standardOnly {
						if _, err := s.Solve(context.Background(), p, settings()); !errors.Is(err, eigen.ErrInvalid) {
							t.Fatalf("standard-only solver: generalized problem gives error %v, want one wrapping eigen.ErrInvalid", err)
						}
						return
					}
					wv, _, _ := pick(ref, nil, k, which)
					check(t, solve(t, s, p), p, want{a: a, b: d, values: wv})
				})
			}
		}
	}
	if cfg.standardOnly {
		return
	}
	// Two components: nodes [0, n1) and [n1, n1+n2).
	for _, n1 := range []int{3, 40, 150} {
		n2 := n1 + 7
		rng := rand.New(rand.NewPCG(4, uint64(n1)))
		edges := RandomGraph(n1, rng)
		for _, e := range RandomGraph(n2, rng) {
			edges = append(edges, graph.Edge{I: e.I + n1, J: e.J + n1, W: e.W})
		}
		n := n1 + n2
		g := mustGraph(t, n, edges)
		ref, _ := reference(t, DenseLaplacian(n, edges, graph.Symmetric), nil)
		a := DenseLaplacian(n, edges, graph.Unnormalized)
		d := mat.NewSymDense(n, nil)
		q := mat.NewDense(n, 2, nil)
		var vol [2]float64
		for i := 0; i < n; i++ {
			d.SetSym(i, i, g.Degree(i))
			vol[min(i/n1, 1)] += g.Degree(i)
		}
		for i := 0; i < n; i++ {
			c := min(i/n1, 1)
			q.Set(i, c, 1/math.Sqrt(vol[c]))
		}
		k := 5
		t.Run(fmt.Sprintf("components=%d+%d/Deflate", n1, n2), func(t *testing.T) {
			p := eigen.Problem{A: mustLaplacian(t, g, graph.Unnormalized), B: graph.NewDegreeMatrix(g), K: k,
				Deflate: q, DeflateValues: []float64{0, 0}}
			wv, _, _ := pick(ref, nil, k, eigen.Smallest)
			check(t, solve(t, s, p), p, want{a: a, b: d, values: wv})
		})
	}
}

// testNotPD: B = −I is not positive definite.
func testNotPD(t *testing.T, s eigen.Solver, cfg config) {
	for _, n := range cfg.sizes {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			edges := RandomGraph(n, rand.New(rand.NewPCG(5, uint64(n))))
			a := DenseLaplacian(n, edges, graph.Unnormalized)
			b := mat.NewSymDense(n, nil)
			for i := 0; i < n; i++ {
				b.SetSym(i, i, -1)
			}
			p := eigen.Problem{A: eigen.NewMatrix(a), B: eigen.NewMatrix(b), K: min(n, 2)}
			_, err := s.Solve(context.Background(), p, settings())
			switch {
			case err == nil:
				t.Fatal("no error for B = −I")
			case !cfg.standardOnly && !errors.Is(err, eigen.ErrNotPositiveDefinite):
				t.Fatalf("error %v does not wrap ErrNotPositiveDefinite", err)
			case cfg.standardOnly && !errors.Is(err, eigen.ErrInvalid):
				t.Fatalf("standard-only solver: error %v does not wrap ErrInvalid", err)
			}
		})
	}
}

// testDeterminism: the same Src gives bit-identical output, and so does the
// default (nil) Src.
func testDeterminism(t *testing.T, s eigen.Solver, cfg config) {
	n := slices.Max(cfg.sizes)
	edges := RandomGraph(n, rand.New(rand.NewPCG(6, uint64(n))))
	g := mustGraph(t, n, edges)
	op := mustLaplacian(t, g, graph.Symmetric)
	p := eigen.Problem{A: op, K: min(n, 4)}
	for _, seeded := range []bool{true, false} {
		run := func() *eigen.Result {
			st := settings()
			if seeded {
				st.Src = rand.NewPCG(7, 9)
			}
			res, err := s.Solve(context.Background(), p, st)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		r1, r2 := run(), run()
		if !slices.Equal(r1.Values, r2.Values) || !mat.Equal(r1.Vectors, r2.Vectors) || !slices.Equal(r1.Residuals, r2.Residuals) {
			t.Errorf("seeded=%v: two runs differ: %v vs %v", seeded, r1.Values, r2.Values)
		}
	}
}

// testCancel: a cancelled context makes Solve return ctx.Err().
func testCancel(t *testing.T, s eigen.Solver, cfg config) {
	n := slices.Max(cfg.sizes)
	edges := RandomGraph(n, rand.New(rand.NewPCG(8, uint64(n))))
	g := mustGraph(t, n, edges)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, gen := range []bool{false, true} {
		p := eigen.Problem{A: mustLaplacian(t, g, graph.Unnormalized), K: min(n, 3)}
		if gen {
			p.B = graph.NewDegreeMatrix(g)
		}
		_, err := s.Solve(ctx, p, settings())
		if !errors.Is(err, context.Canceled) {
			t.Errorf("generalized=%v: error %v, want context.Canceled", gen, err)
		}
	}
}

// testBadInput: invalid problems and Settings return errors wrapping
// eigen.ErrInvalid, never panic.
func testBadInput(t *testing.T, s eigen.Solver, cfg config) {
	n := 10
	edges := RandomGraph(n, rand.New(rand.NewPCG(9, 0)))
	g := mustGraph(t, n, edges)
	op := mustLaplacian(t, g, graph.Unnormalized)
	notOrtho := mat.NewDense(n, 1, nil)
	notOrtho.Set(0, 0, 2)
	cases := []struct {
		name string
		p    eigen.Problem
		s    *eigen.Settings
	}{
		{"K=0", eigen.Problem{A: op, K: 0}, nil},
		{"K=-1", eigen.Problem{A: op, K: -1}, nil},
		{"K=n+1", eigen.Problem{A: op, K: n + 1}, nil},
		{"nil A", eigen.Problem{K: 1}, nil},
		{"B dimension", eigen.Problem{A: op, B: eigen.NewMatrix(mat.NewSymDense(n+1, nil)), K: 1}, nil},
		{"bad Which", eigen.Problem{A: op, K: 1, Which: eigen.Which(7)}, nil},
		{"Deflate rows", eigen.Problem{A: op, K: 2, Deflate: mat.NewDense(n+1, 1, nil), DeflateValues: []float64{0}}, nil},
		{"Deflate values", eigen.Problem{A: op, K: 2, Deflate: mat.NewDense(n, 1, nil)}, nil},
		{"Deflate > K", eigen.Problem{A: op, K: 1, Deflate: mat.NewDense(n, 2, nil), DeflateValues: []float64{0, 0}}, nil},
		{"Deflate not orthonormal", eigen.Problem{A: op, K: 2, Deflate: notOrtho, DeflateValues: []float64{0}}, nil},
		{"negative Tol", eigen.Problem{A: op, K: 1}, &eigen.Settings{Tol: -1}},
		{"NaN Tol", eigen.Problem{A: op, K: 1}, &eigen.Settings{Tol: math.NaN()}},
		{"negative MaxIter", eigen.Problem{A: op, K: 1}, &eigen.Settings{MaxIter: -3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			res, err := s.Solve(context.Background(), c.p, c.s)
			if err == nil {
				t.Fatalf("no error (result %v)", res.Values)
			}
			if !errors.Is(err, eigen.ErrInvalid) {
				t.Errorf("error %v does not wrap eigen.ErrInvalid", err)
			}
		})
	}
}
