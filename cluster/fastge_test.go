package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// pwRandomGraph returns a connected weighted graph on n nodes: a path (so it
// is connected) plus m random edges, weights in [0.5, 1.5).
func pwRandomGraph(t testing.TB, n, m int, seed uint64) *graph.Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 77))
	var es []graph.Edge
	for i := 0; i+1 < n; i++ {
		es = append(es, graph.Edge{I: i, J: i + 1, W: 0.5 + rng.Float64()})
	}
	for e := 0; e < m; e++ {
		i, j := rng.IntN(n), rng.IntN(n)
		if i != j {
			es = append(es, graph.Edge{I: i, J: j, W: 0.5 + rng.Float64()})
		}
	}
	g, err := graph.FromEdges(n, es)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// pwBlobGraph returns a full RBF graph (no self loops) on k Gaussian blobs
// with the reference labels.
func pwBlobGraph(t testing.TB, n, k int, std float64, seed uint64) (*graph.Graph, []int) {
	t.Helper()
	x, truth, err := synth.Blobs(n, k, 2, std, rand.NewPCG(seed, 1))
	if err != nil {
		t.Fatal(err)
	}
	w := mat.NewSymDense(n, nil)
	const s2 = 2 * 2.0 * 2.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dx, dy := x.At(i, 0)-x.At(j, 0), x.At(i, 1)-x.At(j, 1)
			w.SetSym(i, j, math.Exp(-(dx*dx+dy*dy)/s2))
		}
	}
	g, err := graph.FromDense(w)
	if err != nil {
		t.Fatal(err)
	}
	return g, truth
}

// pwLaplacianDense returns diag(A1) − A.
func pwLaplacianDense(a *mat.Dense) *mat.Dense {
	n, _ := a.Dims()
	l := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		var s float64
		for j := 0; j < n; j++ {
			s += a.At(i, j)
			l.Set(i, j, -a.At(i, j))
		}
		l.Set(i, i, l.At(i, i)+s)
	}
	return l
}

// pwMaxAbsDiff returns max |a_ij − b_ij|.
func pwMaxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// fastGE2Dense builds A_N and A_H of seed 004 eq. 4.2–4.7, 4.10 entry by
// entry from the label sets, independently of buildFastGE2.
func fastGE2Dense(g *graph.Graph, labels []int) (an, ah *mat.Dense) {
	n := g.N()
	d := g.Degrees()
	dmin, dmax := math.Inf(1), 0.0
	for _, v := range d {
		dmin, dmax = math.Min(dmin, v), math.Max(dmax, v)
	}
	an = mat.DenseCopyOf(g.Dense())
	acc := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if labels[i] < 0 || labels[j] < 0 {
				continue
			}
			v := d[i] * d[j] / (dmin * dmax)
			if labels[i] == labels[j] {
				an.Set(i, j, an.At(i, j)+v) // A_M, eq. 4.3 (i = j included)
			} else {
				acc.Set(i, j, acc.At(i, j)+2*v) // A_C + A_Cᵀ, eq. 4.6
			}
		}
	}
	return an, fge2DemandDense(acc)
}

// fge2DemandDense returns A_H = (A_C + A_Cᵀ + A_K)/n of seed 004 eq. 4.5
// and 4.7 from acc = A_C + A_Cᵀ (n×n), entry by entry: A_K = d⁽ᴷ⁾d⁽ᴷ⁾ᵀ/vol
// with d⁽ᴷ⁾ the row sums of acc.
func fge2DemandDense(acc *mat.Dense) *mat.Dense {
	n, _ := acc.Dims()
	dk := make([]float64, n)
	var vol float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			dk[i] += acc.At(i, j)
		}
		vol += dk[i]
	}
	ah := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			ah.Set(i, j, (acc.At(i, j)+dk[i]*dk[j]/vol)/float64(n))
		}
	}
	return ah
}

func TestFastGE2MatricesMatchDefinitions(t *testing.T) {
	g := pwRandomGraph(t, 12, 20, 1)
	labels := []int{0, -1, 0, 1, -1, 1, 2, -1, 0, -1, 2, -1}
	wantAN, wantAH := fastGE2Dense(g, labels)
	wantLN, wantLH := pwLaplacianDense(wantAN), pwLaplacianDense(wantAH)
	const r = 1.3
	wantHN := mat.NewDense(12, 12, nil)
	wantHN.Scale(-r, wantAN)
	for i := 0; i < 12; i++ {
		wantHN.Set(i, i, wantHN.At(i, i)+r*r-1+wantLN.At(i, i)+wantAN.At(i, i)) // (r²−1)I − rA + D, eq. 3.5
	}
	fromLabels, err := buildFastGE2(g, labels, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	fromPairs, err := buildFastGE2(g, nil, constraint.FromLabels(labels).Pairs, "test")
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-12
	cases := []struct {
		name      string
		got, want *mat.Dense
	}{
		{"A_N labels", graph.Dense(fromLabels.an), wantAN},
		{"A_H labels", graph.Dense(fromLabels.ah), wantAH},
		{"L_N labels", graph.Dense(laplacianOf(fromLabels.an)), wantLN},
		{"L_H labels", graph.Dense(laplacianOf(fromLabels.ah)), wantLH},
		// Pairs carry no A_M diagonal, which the Laplacian does not see.
		{"L_N pairs", graph.Dense(laplacianOf(fromPairs.an)), wantLN},
		{"L_H pairs", graph.Dense(laplacianOf(fromPairs.ah)), wantLH},
		{"A_H pairs", graph.Dense(fromPairs.ah), wantAH},
		{"H_N labels", graph.Dense(betheOf(fromLabels.an, r)), wantHN},
	}
	for _, tc := range cases {
		if d := pwMaxAbsDiff(tc.got, tc.want); d > tol*math.Max(1, mat.Norm(tc.want, math.Inf(1))) {
			t.Errorf("%s: max |Δ| = %g", tc.name, d)
		}
	}
	// The path graph is connected and the labelled nodes are joined by
	// A_K, so Z is the single component.
	if fromLabels.count != 1 {
		t.Errorf("components of G_N ∪ G_H: %d, want 1", fromLabels.count)
	}
}

// finitePencilDense returns the finite eigenvalues of (A, B), A positive
// definite on 1⊥ and both annihilating 1, ascending: the eigenvalues τ of
// B y = τ A y on 1⊥ by Cholesky reduction, λ = 1/τ for τ > 0. It is the
// independent computation for Theorem 4.2.5.
func finitePencilDense(t *testing.T, a, b *mat.Dense) []float64 {
	t.Helper()
	n, _ := a.Dims()
	// Orthonormal basis of 1⊥: eigenvectors of I − 11ᵀ/n with eigenvalue 1.
	p := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := -1 / float64(n)
			if i == j {
				v++
			}
			p.SetSym(i, j, v)
		}
	}
	var es mat.EigenSym
	es.Factorize(p, true)
	var v mat.Dense
	es.VectorsTo(&v)
	q := mat.DenseCopyOf(v.Slice(0, n, 1, n))
	proj := func(m *mat.Dense) *mat.SymDense {
		t1 := mat.NewDense(n, n-1, nil)
		t1.Mul(m, q)
		t2 := mat.NewDense(n-1, n-1, nil)
		t2.Mul(q.T(), t1)
		s := mat.NewSymDense(n-1, nil)
		for i := 0; i < n-1; i++ {
			for j := i; j < n-1; j++ {
				s.SetSym(i, j, (t2.At(i, j)+t2.At(j, i))/2)
			}
		}
		return s
	}
	ap, bp := proj(a), proj(b)
	var ch mat.Cholesky
	if !ch.Factorize(ap) {
		t.Fatal("A is not positive definite on 1⊥")
	}
	var l mat.TriDense
	ch.LTo(&l)
	var li mat.TriDense
	if err := li.InverseTri(&l); err != nil {
		t.Fatal(err)
	}
	c := mat.NewDense(n-1, n-1, nil)
	c.Product(&li, bp, li.T())
	cs := mat.NewSymDense(n-1, nil)
	for i := 0; i < n-1; i++ {
		for j := i; j < n-1; j++ {
			cs.SetSym(i, j, (c.At(i, j)+c.At(j, i))/2)
		}
	}
	var e2 mat.EigenSym
	e2.Factorize(cs, false)
	var lam []float64
	for _, tau := range e2.Values(nil) {
		if tau > 1e-10 {
			lam = append(lam, 1/tau)
		}
	}
	sort.Float64s(lam)
	return lam
}

// TestPencilTheorem425 checks the regularized pencil of seed 004
// Theorem 4.2.5: the eigenvalues of (K, M) are σ_i = −1/(λ_i + μ) for the r
// finite λ_i of (L_N, L_H) and 0 n − r times, and solvePencil's three paths
// return the smallest λ_i.
func TestPencilTheorem425(t *testing.T) {
	g := pwRandomGraph(t, 14, 25, 3)
	labels := []int{0, -1, 0, 1, -1, 1, -1, -1, 0, -1, 1, -1, -1, 0}
	an, ah := fastGE2Dense(g, labels)
	ln, lh := pwLaplacianDense(an), pwLaplacianDense(ah)
	lam := finitePencilDense(t, ln, lh)
	// rank(L_H) = #labelled − 1 = 6.
	if len(lam) != 6 {
		t.Fatalf("%d finite eigenvalues, want 6", len(lam))
	}
	const mu, s = 0.7, 2.5
	n := 14
	m := mat.NewSymDense(n, nil)
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			m.SetSym(i, j, ln.At(i, j)+mu*lh.At(i, j)+s/float64(n))
			k.SetSym(i, j, -lh.At(i, j))
		}
	}
	sigma := pwGenEigSym(t, k, m)
	for i, l := range lam {
		if want := -1 / (l + mu); math.Abs(sigma[i]-want) > 1e-9*math.Abs(want) {
			t.Errorf("σ_%d = %.12g, want −1/(λ+μ) = %.12g", i+1, sigma[i], want)
		}
	}
	for i := len(lam); i < n; i++ {
		if math.Abs(sigma[i]) > 1e-10 {
			t.Errorf("σ_%d = %g, want 0", i+1, sigma[i])
		}
	}

	gs, err := buildFastGE2(g, labels, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	opLN, opLH := laplacianOf(gs.an), laplacianOf(gs.ah)
	const kk = 3
	for _, tc := range []struct {
		name string
		opt  pencilOptions
		mu   float64
	}{
		{"regularized μ=0.7", pencilOptions{z: newCompOp(gs.comp, gs.count, s), mu: 0.7}, 0.7},
		{"regularized μ=30", pencilOptions{z: newCompOp(gs.comp, gs.count, s), mu: 30}, 30},
	} {
		pr, err := solvePencil(context.Background(), opLN, opLH, kk, tc.opt, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if pr.path != "regularized" {
			t.Errorf("%s: path %q", tc.name, pr.path)
		}
		pwCheckPencil(t, tc.name, pr.values, pr.vectors, lam[:kk], ln, lh)
	}
	// The dense path needs the common null vector 1 moved off zero too.
	lnz := mat.DenseCopyOf(ln)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			lnz.Set(i, j, lnz.At(i, j)+s/float64(n))
		}
	}
	vals, vecs, err := densePencil(context.Background(), lnz, lh, kk)
	if err != nil {
		t.Fatal(err)
	}
	pwCheckPencil(t, "dense", vals, vecs, lam[:kk], ln, lh)
}

// pwGenEigSym returns the eigenvalues of A x = λ B x, B positive definite,
// ascending, by the Cholesky reduction C = L⁻¹AL⁻ᵀ (Golub & Van Loan
// §8.7.2).
func pwGenEigSym(t *testing.T, a, b *mat.SymDense) []float64 {
	t.Helper()
	v, _ := fge2RefGenSym(t, a, b)
	return v
}

// pwCheckPencil compares eigenvalues to want (relative 1e-8) and checks the
// residual ‖P x − λ L x‖ ≤ 1e-7·‖P‖‖x‖.
func pwCheckPencil(t *testing.T, name string, vals []float64, vecs *mat.Dense, want []float64, p, l *mat.Dense) {
	t.Helper()
	for j, w := range want {
		if math.Abs(vals[j]-w) > 1e-8*math.Max(1, math.Abs(w)) {
			t.Errorf("%s: λ_%d = %.12g, want %.12g", name, j+1, vals[j], w)
		}
		x := mat.NewVecDense(vecs.RawMatrix().Rows, mat.Col(nil, j, vecs))
		var px, lx mat.VecDense
		px.MulVec(p, x)
		lx.MulVec(l, x)
		px.AddScaledVec(&px, -vals[j], &lx)
		if r := px.Norm(2); r > 1e-7*mat.Norm(p, 2)*x.Norm(2) {
			t.Errorf("%s: residual of pair %d is %g", name, j+1, r)
		}
	}
}

// pencilTestGraphs returns FAST-GE-2.0's two graphs on a 600-node random
// graph with 30% of its nodes labelled in three classes, the pencil of
// TestPencilIterativeMatchesDense.
func pencilTestGraphs(t *testing.T) *fastGE2Graphs {
	t.Helper()
	g := pwRandomGraph(t, 600, 1500, 5)
	truth := make([]int, 600)
	for i := range truth {
		truth[i] = i * 3 / 600
	}
	sets, err := constraint.LabelSets(truth, 0.3, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	labels, _ := constraint.SetsToLabels(600, sets)
	gs, err := buildFastGE2(g, labels, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

// TestPencilIterativeMatchesDense runs the regularized path with LOBPCG
// (n = 600 > DenseLimit) and compares it with the dense Schur complement on
// the same matrices.
func TestPencilIterativeMatchesDense(t *testing.T) {
	if testing.Short() {
		t.Skip("n = 600 dense reference")
	}
	gs := pencilTestGraphs(t)
	ln, lh := laplacianOf(gs.an), laplacianOf(gs.ah)
	mu := ln.trace() / (10 * lh.trace())
	pr, err := solvePencil(context.Background(), ln, lh, 3, pencilOptions{z: newCompOp(gs.comp, gs.count, 1), mu: mu, singularL: true, definiteM: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lnd := graph.Dense(&comboOp{ops: []eigen.Operator{ln, newCompOp(gs.comp, gs.count, 1)}, coef: []float64{1, 1}})
	want, _, err := densePencil(context.Background(), lnd, graph.Dense(lh), 3)
	if err != nil {
		t.Fatal(err)
	}
	// Eigenvalues to the eigensolver's tolerance (1e-8 relative residual).
	for j := range want {
		if math.Abs(pr.values[j]-want[j]) > 1e-6*math.Abs(want[j]) {
			t.Errorf("λ_%d: LOBPCG %.10g, dense %.10g", j+1, pr.values[j], want[j])
		}
	}
}

// TestDensePencilIndefinite checks the dense Schur complement on a Bethe
// Hessian P (indefinite on the null space of L_H, so Theorem 4.2.5 gives no
// definite M) against an independent limit: the eigenvalues of
// (P, L + εI) for small ε are the finite eigenvalues + O(ε), the infinite
// ones being O(1/ε).
func TestDensePencilIndefinite(t *testing.T) {
	g := pwRandomGraph(t, 16, 30, 7)
	labels := []int{0, -1, 0, 1, -1, 1, -1, -1, 0, -1, 1, -1, -1, 0, 1, -1}
	gs, err := buildFastGE2(g, labels, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	p := graph.Dense(betheOf(gs.an, 2))
	l := graph.Dense(laplacianOf(gs.ah))
	const k = 3
	vals, vecs, err := densePencil(context.Background(), p, l, k)
	if err != nil {
		t.Fatal(err)
	}
	const eps = 1e-9
	n := 16
	ps, ls := mat.NewSymDense(n, nil), mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			ps.SetSym(i, j, p.At(i, j))
			v := l.At(i, j)
			if i == j {
				v += eps
			}
			ls.SetSym(i, j, v)
		}
	}
	var finite []float64
	for _, v := range pwGenEigSym(t, ps, ls) {
		if math.Abs(v) < 1e4 { // infinite ones are ~1/ε = 1e9
			finite = append(finite, v)
		}
	}
	sort.Float64s(finite)
	if len(finite) != 7 { // rank(L_H) = 8 labelled − 1
		t.Fatalf("%d finite eigenvalues in the limit, want 7: %v", len(finite), finite)
	}
	pwCheckPencil(t, "dense indefinite", vals, vecs, nil, p, l)
	for j := 0; j < k; j++ {
		if math.Abs(vals[j]-finite[j]) > 1e-5*math.Max(1, math.Abs(finite[j])) {
			t.Errorf("λ_%d = %.10g, ε-limit gives %.10g", j+1, vals[j], finite[j])
		}
	}
	// The full-eigendecomposition route gives the same pairs.
	ve, vece, err := densePencilEig(context.Background(), p, l, k)
	if err != nil {
		t.Fatal(err)
	}
	pwCheckPencil(t, "densePencilEig", ve, vece, vals, p, l)
	// solvePencil takes the dense path here.
	pr, err := solvePencil(context.Background(), betheOf(gs.an, 2), laplacianOf(gs.ah), k, pencilOptions{mu: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pr.path != "dense" {
		t.Errorf("path %q, want dense", pr.path)
	}
	pwCheckPencil(t, "solvePencil dense", pr.values, pr.vectors, vals, p, l)
	// Beyond the dense path's limit on n the problem is refused as the
	// caller's (ErrInvalid), not left unclassified: tether serve
	// answered fast-ge2-bh on 10⁵ nodes 500 (review 92).
	_, err = solvePencil(context.Background(), betheOf(gs.an, 2), laplacianOf(gs.ah), k, pencilOptions{mu: 1, denseLimit: 15}, nil)
	if !errors.Is(err, ErrInvalid) || !errors.Is(err, errPencil) || errors.Is(err, ErrNumerical) || !strings.Contains(err.Error(), "n = 16 exceeds its limit 15") {
		t.Errorf("n = 16 beyond a dense limit of 15: error %v, want ErrInvalid naming n and the limit", err)
	}
}

// TestFastGESelfLoopsOnly: on a graph whose only edges are self loops
// L_G = 0 and FAST-GE's regularized M is singular; it failed with the
// eigensolver's bare Cholesky failure, which tether serve answered 500
// (review 92). It is now ErrInvalid saying why. A pencil failure that is
// numerical (B not positive definite to working precision, P singular
// on L's null space) wraps ErrNumerical (checkSolve, pencilError):
// TestFastGETinyWeights' 1e-20 triangles.
func TestFastGESelfLoopsOnly(t *testing.T) {
	loops := make([]graph.Edge, 6)
	for i := range loops {
		loops[i] = graph.Edge{I: i, J: i, W: 1}
	}
	g, err := graph.FromEdges(6, loops)
	if err != nil {
		t.Fatal(err)
	}
	for _, cons := range []*constraint.Set{nil, {N: 6, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 0, J: 5, Kind: constraint.CannotLink}}}} {
		_, err := Run(context.Background(), FastGE{}, &Problem{Graph: g, K: 2, Constraints: cons}, &Settings{Seed: 1})
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "no edge between distinct nodes") {
			t.Errorf("constraints %v: error %v, want ErrInvalid saying the graph has no edge between distinct nodes", cons, err)
		}
	}
}

// TestFastGEMatricesAndNormalization checks L_G, L_H of thesis §4.4.2 built
// entry by entry, and Alg. 15's lines 3–6 against a direct computation.
func TestFastGEMatricesAndNormalization(t *testing.T) {
	g := pwRandomGraph(t, 10, 15, 11)
	pairs := []constraint.Pair{
		{I: 0, J: 3, Kind: constraint.MustLink},
		{I: 2, J: 7, Kind: constraint.CannotLink, Weight: 2},
		{I: 5, J: 9, Kind: constraint.CannotLink},
	}
	n := 10
	d := g.Degrees()
	dmin, dmax := math.Inf(1), 0.0
	var vol float64
	for _, v := range d {
		dmin, dmax = math.Min(dmin, v), math.Max(dmax, v)
		vol += v
	}
	gm := mat.DenseCopyOf(g.Dense())
	hm := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			hm.Set(i, j, d[i]*d[j]/vol/float64(n)) // K/n
		}
	}
	for _, q := range pairs {
		w := q.W() * d[q.I] * d[q.J] / (dmin * dmax)
		target := gm
		if q.Kind == constraint.CannotLink {
			target = hm
		}
		target.Set(q.I, q.J, target.At(q.I, q.J)+w)
		target.Set(q.J, q.I, target.At(q.J, q.I)+w)
	}
	fp, err := buildFastGE(g, pairs)
	if err != nil {
		t.Fatal(err)
	}
	lg, lh := fp.lg, fp.lh
	lgd, lhd := pwLaplacianDense(gm), pwLaplacianDense(hm)
	if e := pwMaxAbsDiff(graph.Dense(lg), lgd); e > 1e-12 {
		t.Errorf("L_G: max |Δ| = %g", e)
	}
	if e := pwMaxAbsDiff(graph.Dense(lh), lhd); e > 1e-12 {
		t.Errorf("L_H: max |Δ| = %g", e)
	}
	// Lines 3–6 on an arbitrary U, recomputed here step by step.
	rng := rand.New(rand.NewPCG(2, 2))
	u := mat.NewDense(n, 3, nil)
	for i := range u.RawMatrix().Data {
		u.RawMatrix().Data[i] = rng.NormFloat64()
	}
	want := mat.DenseCopyOf(u)
	for j := 0; j < 3; j++ {
		var m float64
		for i := 0; i < n; i++ {
			m += d[i] * want.At(i, j) / vol
		}
		for i := 0; i < n; i++ {
			want.Set(i, j, want.At(i, j)-m)
		}
	}
	var gmat mat.Dense
	gmat.Product(want.T(), lhd, want)
	gs := mat.NewSymDense(3, nil)
	for a := 0; a < 3; a++ {
		for b := a; b < 3; b++ {
			gs.SetSym(a, b, (gmat.At(a, b)+gmat.At(b, a))/2)
		}
	}
	var es mat.EigenSym
	es.Factorize(gs, true)
	var v mat.Dense
	es.VectorsTo(&v)
	w := es.Values(nil)
	isq := mat.NewDense(3, 3, nil)
	isq.Product(&v, mat.NewDiagDense(3, []float64{1 / math.Sqrt(w[0]), 1 / math.Sqrt(w[1]), 1 / math.Sqrt(w[2])}), v.T())
	var wantU mat.Dense
	wantU.Mul(want, isq)
	normalizeRows(&wantU, 0)
	if _, err := fastGENormalize(u, d, lh, 0); err != nil {
		t.Fatal(err)
	}
	if e := pwMaxAbsDiff(u, &wantU); e > 1e-10 {
		t.Errorf("normalized embedding: max |Δ| = %g", e)
	}
}

// TestPairwiseMethodsRecoverBlobs runs every method of this issue through
// the registry on separated blobs with a few constraints: each must recover
// the partition (ARI ≥ 0.95, computed with metrics.ARI) and be
// deterministic.
func TestPairwiseMethodsRecoverBlobs(t *testing.T) {
	for _, k := range []int{2, 3} {
		g, truth := pwBlobGraph(t, 90, k, 0.6, uint64(k))
		labels, err := constraint.FractionLabels(truth, 0.15, rand.NewPCG(9, uint64(k)))
		if err != nil {
			t.Fatal(err)
		}
		set := constraint.FromLabels(labels)
		for _, name := range []string{"sscka", "cscap", "fast-ge", "fast-ge2", "csc"} {
			m, err := New(name)
			if err != nil {
				t.Fatal(err)
			}
			if name == "sscka" {
				// The thesis's kernel: the default commute kernel does not
				// recover 3 of these blobs (TestSSCKACommuteBlobs).
				m = SSCKA{Objective: RatioAssociation}
			}
			p := &Problem{Graph: g, K: k, Constraints: set}
			if name == "fast-ge2" || name == "fast-ge2-bh" {
				p = &Problem{Graph: g, K: k, Labels: labels}
			}
			a, err := Run(context.Background(), m, p, &Settings{Seed: 3})
			if err != nil {
				t.Fatalf("k=%d %s: %v", k, name, err)
			}
			ari, err := metrics.ARI(truth, a.Labels)
			if err != nil {
				t.Fatal(err)
			}
			if ari < 0.95 {
				t.Errorf("k=%d %s: ARI %.3f < 0.95 (warnings %v)", k, name, ari, a.Warnings)
			}
			b, err := Run(context.Background(), m, p, &Settings{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			for i := range a.Labels {
				if a.Labels[i] != b.Labels[i] {
					t.Fatalf("k=%d %s: not deterministic at node %d", k, name, i)
				}
			}
		}
	}
}

func TestPairwiseMethodErrors(t *testing.T) {
	iso, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	g := pwRandomGraph(t, 10, 10, 1)
	onlyML := &constraint.Set{N: 10, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		m    Method
		ctx  context.Context
		p    *Problem
		want error
	}{
		// Strict: by default Run clusters the core and attaches node 3
		// (core.go, TestRegistryMethodsOnDisconnectedGraph).
		{"fast-ge isolated", FastGE{}, context.Background(), &Problem{Graph: iso, K: 2, Disconnected: DisconnectedStrict}, graph.ErrIsolated},
		{"fast-ge2 isolated", FastGE2{}, context.Background(), &Problem{Graph: iso, K: 2, Labels: []int{0, 1, -1, -1}, Disconnected: DisconnectedStrict}, graph.ErrIsolated},
		{"fast-ge2 no cannot-link", FastGE2{}, context.Background(), &Problem{Graph: g, K: 2, Constraints: onlyML}, ErrInvalid},
		{"fast-ge2-bh bad variant", FastGE2BH{Variant: 7}, context.Background(), &Problem{Graph: g, K: 2}, ErrInvalid},
		{"csc isolated", CSC{}, context.Background(), &Problem{Graph: iso, K: 2, Disconnected: DisconnectedStrict}, graph.ErrIsolated},
		{"csc gamma", CSC{Gamma: 2}, context.Background(), &Problem{Graph: g, K: 2}, ErrInvalid},
		{"sscka ncut isolated", SSCKA{Objective: NormalizedCut}, context.Background(), &Problem{Graph: iso, K: 2, Disconnected: DisconnectedStrict}, graph.ErrIsolated},
		{"cscap memory", CSCAP{MaxBytes: 1000}, context.Background(), &Problem{Graph: g, K: 2}, ErrInvalid},
		{"k zero", SSCKA{}, context.Background(), &Problem{Graph: g}, ErrInvalid},
		{"sscka cancelled", SSCKA{}, cancelled, &Problem{Graph: g, K: 2}, context.Canceled},
		{"cscap cancelled", CSCAP{}, cancelled, &Problem{Graph: g, K: 2}, context.Canceled},
	}
	for _, tc := range cases {
		if _, err := Run(tc.ctx, tc.m, tc.p, nil); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
	// The memory refusal gives an estimate.
	_, err = Run(context.Background(), CSCAP{MaxBytes: 1000}, &Problem{Graph: g, K: 2}, nil)
	if err == nil || !pwContainsAll(err.Error(), "needs about", "2.3 KiB", "MaxBytes") {
		t.Errorf("memory error %q lacks the estimate", err)
	}
}

func pwContainsAll(s string, subs ...string) bool {
	for _, x := range subs {
		found := false
		for i := 0; i+len(x) <= len(s); i++ {
			if s[i:i+len(x)] == x {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Every enumeration of the package round-trips through its name
// (internal/enum's convention), in any case, and an unknown name is an
// error wrapping ErrInvalid.
func TestEnumNamesRoundTrip(t *testing.T) {
	type enumVal interface {
		String() string
		MarshalText() ([]byte, error)
	}
	check := func(name string, v enumVal, parse func([]byte) (enumVal, error)) {
		t.Helper()
		b, err := v.MarshalText()
		if err != nil || string(b) != v.String() {
			t.Errorf("%s %v: MarshalText %q, %v", name, v, b, err)
		}
		got, err := parse([]byte(strings.ToUpper(v.String())))
		if err != nil || got != v {
			t.Errorf("%s %v: parsed back as %v, %v", name, v, got, err)
		}
	}
	for _, v := range []BetheVariant{BetheLN, BetheLH, BetheBoth} {
		check("BetheVariant", v, func(b []byte) (enumVal, error) { var x BetheVariant; err := x.UnmarshalText(b); return x, err })
	}
	for _, v := range []KernelObjective{RatioAssociation, RatioCut, NormalizedCut} {
		check("KernelObjective", v, func(b []byte) (enumVal, error) { var x KernelObjective; err := x.UnmarshalText(b); return x, err })
	}
	for _, v := range []FGPWCOptimizer{StepHalving, LBFGS} {
		check("FGPWCOptimizer", v, func(b []byte) (enumVal, error) { var x FGPWCOptimizer; err := x.UnmarshalText(b); return x, err })
	}
	for _, v := range []FGPWCLaplacian{FGPWCSymmetric, FGPWCUnnormalized, FGPWCAutoLaplacian} {
		check("FGPWCLaplacian", v, func(b []byte) (enumVal, error) { var x FGPWCLaplacian; err := x.UnmarshalText(b); return x, err })
	}
	var bv BetheVariant
	var ko KernelObjective
	var fo FGPWCOptimizer
	var fl FGPWCLaplacian
	for _, u := range []interface{ UnmarshalText([]byte) error }{&bv, &ko, &fo, &fl} {
		if err := u.UnmarshalText([]byte("nope")); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `"nope" (want`) {
			t.Errorf("%T: unknown name gives %v", u, err)
		}
	}
	if s := BetheVariant(7).String(); s != "BetheVariant(7)" {
		t.Errorf("unnamed value prints %q", s)
	}
}

// TestFastGE2BHBeatsBetheOnSparseSBM reproduces the claim of seed 004
// §6.4–6.5 on one graph: on a sparse SBM just above the detectability
// threshold (n = 1000, k = 2, c_in = 2.75, c_out = 0.25, threshold 2.45),
// the modified FAST-GE-2.0 ("only L_N", r = √c, c = (c_in + c_out)/2) with
// 50% of the labels has a much higher NMI (2I/(H₁+H₂)) than unsupervised
// Bethe Hessian clustering. Measured: 0.58 against 0.12.
func TestFastGE2BHBeatsBetheOnSparseSBM(t *testing.T) {
	if testing.Short() {
		t.Skip("n = 1000 dense Schur complement")
	}
	g, truth, err := synth.SBM(1000, 2, 2.75, 0.25, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	sets, err := constraint.LabelSets(truth, 0.5, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	labels, _ := constraint.SetsToLabels(1000, sets)
	r := math.Sqrt(1.5)
	nmi := func(m Method, p *Problem) float64 {
		res, err := Run(context.Background(), m, p, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		v, _ := metrics.NMI(truth, res.Labels, metrics.Arithmetic)
		return v
	}
	bh := nmi(BetheHessian{R: r}, &Problem{Graph: g, K: 2})
	ln := nmi(FastGE2BH{R: r}, &Problem{Graph: g, K: 2, Labels: labels})
	if !(ln > bh+0.25) {
		t.Errorf("NMI fast-ge2-bh (LN) %.3f, Bethe Hessian %.3f", ln, bh)
	}
}

// TestFastGECholeskyPath checks the dense Cholesky path of FAST-GE
// (cholPencil, taken for dense graphs above DenseLimit) on a full RBF graph
// of n = 450 nodes: the dense M it factorizes equals the operator's matrix,
// its eigenvalues match the independent Cholesky reduction on 1⊥
// (finitePencilDense) to 1e-8 relative, with pencil residuals
// ‖L_G x − λ L_H x‖ ≤ 1e-7·‖L_G‖‖x‖, and FastGE gives the same partition
// as with LOBPCG forced through Settings.Eigen.
func TestFastGECholeskyPath(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	const n, k = 450, 3
	g, truth := pwBlobGraph(t, n, k, 1.5, 9)
	set, err := constraint.UniformPairs(truth, 120, rand.NewPCG(9, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !useCholPencil(n, g.NNZ()+2*len(set.Pairs)) {
		t.Fatalf("useCholPencil(%d, %d) = false on a full graph", n, g.NNZ())
	}
	if useCholPencil(DenseLimit, DenseLimit*DenseLimit) || useCholPencil(5000, 5000*20) || useCholPencil(cholDenseMaxN+1, (cholDenseMaxN+1)*(cholDenseMaxN+1)) {
		t.Error("useCholPencil is true at or below DenseLimit, on a sparse graph, or above cholDenseMaxN")
	}
	fp, err := buildFastGE(g, set.Pairs)
	if err != nil {
		t.Fatal(err)
	}
	lg, lh := fp.lg, fp.lh
	comp := make([]int, n)
	mu := lg.trace() / (10 * lh.trace()) / fastGEMuFactor
	z := newCompOp(comp, 1, lg.trace()/n)
	m := &comboOp{ops: []eigen.Operator{lg, lh, z}, coef: []float64{1, mu, 1}}
	md := make([]float64, n*n)
	m.addDenseTo(md, 1)
	if e := pwMaxAbsDiff(mat.NewDense(n, n, md), graph.Dense(m)); e > 1e-12*lg.trace() {
		t.Errorf("dense M: max |Δ| = %g", e)
	}
	lgd, lhd := graph.Dense(lg), graph.Dense(lh)
	want := finitePencilDense(t, lgd, lhd)[:k]
	pr, err := solvePencil(context.Background(), lg, lh, k, pencilOptions{z: z, mu: mu, singularL: true, definiteM: true, cholesky: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pwCheckPencil(t, "cholesky", pr.values, pr.vectors, want, lgd, lhd)

	p := &Problem{Graph: g, K: k, Constraints: set}
	chol, err := Run(context.Background(), FastGE{}, p, &Settings{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	lob, err := Run(context.Background(), FastGE{}, p, &Settings{Seed: 3, Eigen: eigen.LOBPCG{}})
	if err != nil {
		t.Fatal(err)
	}
	for j := range want {
		if math.Abs(chol.Eigenvalues[j]-want[j]) > 1e-8*want[j] || math.Abs(lob.Eigenvalues[j]-want[j]) > 1e-6*want[j] {
			t.Errorf("λ_%d: cholesky %.12g, LOBPCG %.12g, dense %.12g", j+1, chol.Eigenvalues[j], lob.Eigenvalues[j], want[j])
		}
	}
	if a, err := metrics.ARI(chol.Labels, lob.Labels); err != nil || a != 1 {
		t.Errorf("cholesky and LOBPCG partitions differ: ARI %v (%v)", a, err)
	}
}

// TestFastGEConstraintWeightOverflow: the scaled constraint weight
// w·d_i d_j/(d_min d_max) of finite, valid inputs can overflow; the error
// blamed graph.FromEdges ("invalid graph: weight is +Inf"), as if the input
// were ill-formed. It must wrap ErrNumerical and name the pair.
func TestFastGEConstraintWeightOverflow(t *testing.T) {
	heavy, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1e300}, {I: 1, J: 2, W: 1}, {I: 2, J: 3, W: 1e-300}, {I: 0, J: 3, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}, {I: 2, J: 3, W: 1}, {I: 0, J: 3, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		g    *graph.Graph
		pair constraint.Pair
		want string
	}{
		{"heavy degrees, must-link", heavy, constraint.Pair{I: 0, J: 1, Kind: constraint.MustLink}, "pair 0 (0,1)"},
		{"heavy degrees, cannot-link", heavy, constraint.Pair{I: 1, J: 0, Kind: constraint.CannotLink}, "pair 0 (1,0)"},
		{"huge constraint weight", plain, constraint.Pair{I: 0, J: 2, Kind: constraint.MustLink, Weight: math.MaxFloat64}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &Problem{Graph: c.g, K: 2, Constraints: &constraint.Set{N: 4, Pairs: []constraint.Pair{c.pair}}}
			_, err := Run(context.Background(), FastGE{}, p, nil)
			if c.want == "" {
				if err != nil && !errors.Is(err, ErrNumerical) && !errors.Is(err, ErrInvalid) {
					t.Fatalf("error %v, want none or one wrapping ErrNumerical or ErrInvalid", err)
				}
				return
			}
			if !errors.Is(err, ErrNumerical) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one wrapping ErrNumerical naming %q", err, c.want)
			}
		})
	}
}

// FAST-GE and FAST-GE-2.0 weigh their constraint graphs at about 1
// whatever the edges weigh: two triangles of weight 10⁻⁸ still cluster,
// and at 10⁻²⁰ the regularized matrix is singular to working precision,
// an error that says so and names the largest weight (tinyWeightsHint)
// instead of the eigensolver's bare "B is not positive definite".
func TestFastGETinyWeights(t *testing.T) {
	triangles := func(w float64) *graph.Graph {
		g, err := graph.FromEdges(6, []graph.Edge{{I: 0, J: 1, W: w}, {I: 1, J: 2, W: w}, {I: 0, J: 2, W: w}, {I: 3, J: 4, W: w}, {I: 4, J: 5, W: w}, {I: 3, J: 5, W: w}, {I: 2, J: 3, W: w * 1e-3}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	pairs := &constraint.Set{N: 6, Pairs: []constraint.Pair{{I: 0, J: 5, Kind: constraint.CannotLink}, {I: 0, J: 1, Kind: constraint.MustLink}, {I: 1, J: 4, Kind: constraint.CannotLink}}}
	for _, m := range []Method{FastGE{}, FastGE2{}} {
		res, err := Run(context.Background(), m, &Problem{Graph: triangles(1e-8), K: 2, Constraints: pairs}, &Settings{Seed: 1})
		if err != nil {
			t.Fatalf("%s at 1e-8: %v", m.Name(), err)
		}
		if l := res.Labels; l[0] != l[2] || l[3] != l[5] || l[0] == l[3] {
			t.Errorf("%s at 1e-8: labels %v, want the triangles", m.Name(), l)
		}
		_, err = Run(context.Background(), m, &Problem{Graph: triangles(1e-20), K: 2, Constraints: pairs}, &Settings{Seed: 1})
		if err == nil || !strings.Contains(err.Error(), "is singular to working precision: the edge weights (largest 1e-20) are negligible") {
			t.Errorf("%s at 1e-20: error %v, want the tiny-weights hint", m.Name(), err)
		}
		if !errors.Is(err, ErrNumerical) {
			t.Errorf("%s at 1e-20: error %v does not wrap ErrNumerical", m.Name(), err)
		}
	}
}

// TestPencilPathEstimateUnconvergedWarns: the λ_min estimates that choose
// the pencil's path (extremeEig) are eigensolves too; one that does not
// converge (capped at one restart here) is used with a warning in the
// result, as every other solve of the pencil gives. It was used without a
// word (review 117).
func TestPencilPathEstimateUnconvergedWarns(t *testing.T) {
	gs := pencilTestGraphs(t)
	ln, lh := laplacianOf(gs.an), laplacianOf(gs.ah)
	s := &Settings{Seed: 1, EigenSettings: &eigen.Settings{MaxIter: 1}}
	pr, err := solvePencil(context.Background(), ln, lh, 3, pencilOptions{mu: ln.trace() / (10 * lh.trace())}, s)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range pr.warnings {
		found = found || strings.Contains(w, "the smallest eigenvalue that decides the pencil's path (definite or not)")
	}
	if !found {
		t.Errorf("warnings %q lack the unconverged path estimate", pr.warnings)
	}
}
