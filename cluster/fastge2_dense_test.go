package cluster

import (
	"context"
	"math"
	"math/cmplx"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// This file checks FAST-GE-2.0 (seed 004 §4.2, Alg. 3) and the three
// Bethe Hessian variants of the modified method (seed 004 ch. 5, Alg. 4)
// end to end against fge2Reference, a dense implementation written from
// the seed's equations alone: it shares no code with fastge2.go, pencil.go
// or operators.go (no symOp, no solvePencil, no Schur complement), and
// solves each pencil by a different route from the library's:
//
//   - plain FAST-GE-2.0: Theorem 4.2.5 literally — Z an orthonormal basis of
//     the common null space found by an SVD of [L_N; L_H], S = I, μ = 1,
//     the pencil (K, M) reduced by the Cholesky factor of M, λ = −1/σ − μ;
//   - "only L_H" and "both": H_H positive definite, so (P_N, H_H) is reduced
//     by the Cholesky factor of H_H;
//   - "only L_N": the reversed pencil L_H x = τ H_N x as the nonsymmetric
//     matrix H_N⁻¹L_H (gonum's general Eigen), λ = 1/τ for τ ≠ 0.
//
// The library's Result.Eigenvalues must match the reference to 1e-8
// (relative) and its Result.Embedding (columns, then rows normalized, Alg. 3
// line 4) the reference's to 1e-6 entrywise, up to the sign of each column.

// fge2Ref is the output of fge2Reference.
type fge2Ref struct {
	lambda []float64  // the k smallest finite generalized eigenvalues, ascending
	next   float64    // λ_{k+1} (for the gap check), +Inf if none
	y      *mat.Dense // n×k, the normalized embedding Y of Alg. 3 line 4
	r      float64    // the Bethe Hessian parameter used
}

// fge2Reference computes seed 004's embedding densely. a is the adjacency
// matrix of G, labels[i] ≥ 0 the constraint set V_ℓ of node i (−1: none).
// selfLoops applies A ↦ A + E_m (Alg. 4 line 1, §5.2); betheN and betheH
// replace L_N and L_H by H(r) = (r² − 1)E − rA + D (eq. 3.5 on the weighted
// matrices, as FastGE2BH documents). r = 0 means √(1ᵀA1/n) of the
// self-looped A, the default of FastGE2BH.
func fge2Reference(t *testing.T, a0 *mat.Dense, labels []int, k int, selfLoops, betheN, betheH bool, r float64) fge2Ref {
	t.Helper()
	n, _ := a0.Dims()
	a := mat.DenseCopyOf(a0)
	if selfLoops {
		for i := 0; i < n; i++ {
			a.Set(i, i, a.At(i, i)+1)
		}
	}
	if r == 0 && (betheN || betheH) {
		r = math.Sqrt(mat.Sum(a) / float64(n))
		if r <= mat.Max(a) {
			t.Fatalf("reference: default r = %g ≤ max weight: choose another test graph", r)
		}
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = mat.Sum(a.RowView(i))
	}
	dmin, dmax := d[0], d[0]
	for _, v := range d {
		dmin, dmax = math.Min(dmin, v), math.Max(dmax, v)
	}
	// The constraint sets V_1 … V_k as lists.
	var sets [][]int
	for i, l := range labels {
		if l < 0 {
			continue
		}
		for len(sets) <= l {
			sets = append(sets, nil)
		}
		sets[l] = append(sets[l], i)
	}
	weight := func(i, j int) float64 { return d[i] * d[j] / (dmin * dmax) }
	// A_M = Σ_ℓ A_{M_ℓ} (eq. 4.2–4.3) and A_C (eq. 4.6), set by set.
	am := mat.NewDense(n, n, nil)
	ac := mat.NewDense(n, n, nil)
	for l1, s1 := range sets {
		for l2, s2 := range sets {
			for _, i := range s1 {
				for _, j := range s2 {
					if l1 == l2 {
						am.Set(i, j, am.At(i, j)+weight(i, j))
					} else {
						ac.Set(i, j, ac.At(i, j)+weight(i, j))
					}
				}
			}
		}
	}
	// d⁽ᴷ⁾: column sums of A_C + A_Cᵀ; A_K (eq. 4.7); A_H (eq. 4.5); A_N (eq. 4.10).
	acs := mat.NewDense(n, n, nil)
	acs.Add(ac, ac.T())
	dk := make([]float64, n)
	for j := range dk {
		dk[j] = mat.Sum(acs.ColView(j))
	}
	var volK float64
	for _, v := range dk {
		volK += v
	}
	ah := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			ah.Set(i, j, (acs.At(i, j)+dk[i]*dk[j]/volK)/float64(n))
		}
	}
	an := mat.NewDense(n, n, nil)
	an.Add(a, am)
	lap := func(x *mat.Dense) *mat.SymDense {
		o := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := -x.At(i, j)
				if i == j {
					v += mat.Sum(x.RowView(i))
				}
				o.SetSym(i, j, v)
			}
		}
		return o
	}
	bethe := func(x *mat.Dense) *mat.SymDense {
		o := lap(x) // D − A
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := o.At(i, j) + (1-r)*x.At(i, j) // (r² − 1)E − rA + D
				if i == j {
					v += r*r - 1
				}
				o.SetSym(i, j, v)
			}
		}
		return o
	}
	pn, ph := lap(an), lap(ah)
	if betheN {
		pn = bethe(an)
	}
	if betheH {
		ph = bethe(ah)
	}

	var lam []float64
	var x *mat.Dense
	switch {
	case !betheN && !betheH:
		lam, x = fge2RefTheorem425(t, pn, ph)
	case betheH:
		lam, x = fge2RefCholesky(t, pn, ph)
	default:
		lam, x = fge2RefReversed(t, pn, ph)
	}
	if len(lam) < k {
		t.Fatalf("reference: %d finite eigenvalues, %d wanted", len(lam), k)
	}
	ref := fge2Ref{lambda: lam[:k], next: math.Inf(1), r: r}
	if len(lam) > k {
		ref.next = lam[k]
	}
	// Y: X with columns, then rows, normalized (Alg. 3 line 4).
	y := mat.DenseCopyOf(x.Slice(0, n, 0, k))
	for j := 0; j < k; j++ {
		c := mat.Norm(y.ColView(j), 2)
		for i := 0; i < n; i++ {
			y.Set(i, j, y.At(i, j)/c)
		}
	}
	for i := 0; i < n; i++ {
		if c := mat.Norm(y.RowView(i), 2); c > 0 {
			for j := 0; j < k; j++ {
				y.Set(i, j, y.At(i, j)/c)
			}
		}
	}
	ref.y = y
	return ref
}

// fge2RefTheorem425 solves L_N x = λ L_H x by seed 004 Theorem 4.2.5:
// K = −L_H, M = L_N + μL_H + ZSZᵀ with S = I, μ = 1 and Z from an SVD; it
// checks parts (a) (M positive definite) and (b) (n − r eigenvalues σ = 0,
// r = rank L_H) and returns λ_i = −1/σ_i − μ for the r negative σ, with
// their vectors.
func fge2RefTheorem425(t *testing.T, ln, lh *mat.SymDense) ([]float64, *mat.Dense) {
	t.Helper()
	n := ln.SymmetricDim()
	const mu = 1.0
	stack := mat.NewDense(2*n, n, nil)
	stack.Slice(0, n, 0, n).(*mat.Dense).Copy(ln)
	stack.Slice(n, 2*n, 0, n).(*mat.Dense).Copy(lh)
	var svd mat.SVD
	if !svd.Factorize(stack, mat.SVDFull) {
		t.Fatal("reference: SVD failed")
	}
	sv := svd.Values(nil)
	var v mat.Dense
	svd.VTo(&v)
	tol := 1e-10 * sv[0]
	var zcols []int
	for j, s := range sv {
		if s < tol {
			zcols = append(zcols, j)
		}
	}
	m := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			var zz float64
			for _, c := range zcols {
				zz += v.At(i, c) * v.At(j, c)
			}
			m.SetSym(i, j, ln.At(i, j)+mu*lh.At(i, j)+zz)
		}
	}
	var svdH mat.SVD
	svdH.Factorize(lh, mat.SVDNone)
	rank := 0
	for _, s := range svdH.Values(nil) {
		if s > 1e-10*svdH.Values(nil)[0] {
			rank++
		}
	}
	k := mat.NewSymDense(n, nil)
	k.ScaleSym(-1, lh)
	sigma, vecs := fge2RefGenSym(t, k, m) // (a): fails if M is not positive definite
	for i := rank; i < n; i++ {
		if math.Abs(sigma[i]) > 1e-9 {
			t.Fatalf("Theorem 4.2.5(b): σ_%d = %g, want 0 (rank L_H = %d)", i+1, sigma[i], rank)
		}
	}
	lam := make([]float64, rank)
	for i := range lam {
		if !(sigma[i] < 0) {
			t.Fatalf("Theorem 4.2.5(b): σ_%d = %g, want < 0", i+1, sigma[i])
		}
		lam[i] = -1/sigma[i] - mu
	}
	return lam, vecs.Slice(0, n, 0, rank).(*mat.Dense)
}

// fge2RefCholesky solves P x = λ B x for B positive definite by the
// Cholesky reduction (Golub & Van Loan §8.7.2).
func fge2RefCholesky(t *testing.T, p, b *mat.SymDense) ([]float64, *mat.Dense) {
	t.Helper()
	return fge2RefGenSym(t, p, b)
}

// fge2RefGenSym returns the eigenpairs of A x = λ B x, B positive definite,
// ascending: C = L⁻¹AL⁻ᵀ with B = LLᵀ, x = L⁻ᵀy.
func fge2RefGenSym(t *testing.T, a, b *mat.SymDense) ([]float64, *mat.Dense) {
	t.Helper()
	n := a.SymmetricDim()
	var ch mat.Cholesky
	if !ch.Factorize(b) {
		t.Fatal("reference: B is not positive definite")
	}
	var l, li mat.TriDense
	ch.LTo(&l)
	if err := li.InverseTri(&l); err != nil {
		t.Fatal(err)
	}
	var c mat.Dense
	c.Product(&li, a, li.T())
	cs := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			cs.SetSym(i, j, (c.At(i, j)+c.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(cs, true) {
		t.Fatal("reference: eigendecomposition failed")
	}
	var yv mat.Dense
	es.VectorsTo(&yv)
	var x mat.Dense
	x.Mul(li.T(), &yv)
	return es.Values(nil), &x
}

// fge2RefReversed solves P x = λ L x (L positive semidefinite, P
// nonsingular) through the eigenvalues τ of P⁻¹L: λ = 1/τ for τ ≠ 0, with
// the real parts of the eigenvectors (the finite λ of a symmetric pencil
// with L ⪰ 0 are real, which is checked).
func fge2RefReversed(t *testing.T, p, l *mat.SymDense) ([]float64, *mat.Dense) {
	t.Helper()
	n := p.SymmetricDim()
	var lu mat.LU
	lu.Factorize(p)
	var q mat.Dense
	if err := lu.SolveTo(&q, false, l); err != nil {
		t.Fatalf("reference: P is singular: %v", err)
	}
	var eig mat.Eigen
	if !eig.Factorize(&q, mat.EigenRight) {
		t.Fatal("reference: Eigen failed")
	}
	tau := eig.Values(nil)
	var cv mat.CDense
	eig.VectorsTo(&cv)
	var tmax float64
	for _, v := range tau {
		tmax = math.Max(tmax, cmplx.Abs(v))
	}
	type pair struct {
		lam float64
		col int
	}
	var ps []pair
	for j, v := range tau {
		if cmplx.Abs(v) <= 1e-9*tmax {
			continue // an infinite λ
		}
		if math.Abs(imag(v)) > 1e-9*tmax {
			t.Fatalf("reference: complex τ = %v", v)
		}
		ps = append(ps, pair{1 / real(v), j})
	}
	sort.Slice(ps, func(a, b int) bool { return ps[a].lam < ps[b].lam })
	lam := make([]float64, len(ps))
	x := mat.NewDense(n, max(len(ps), 1), nil)
	for c, pr := range ps {
		lam[c] = pr.lam
		// An eigenvector of a real eigenvalue may carry a complex phase:
		// rotate it onto its largest entry, then take the real part.
		var big complex128
		for i := 0; i < n; i++ {
			if v := cv.At(i, pr.col); cmplx.Abs(v) > cmplx.Abs(big) {
				big = v
			}
		}
		ph := cmplx.Conj(big) / complex(cmplx.Abs(big), 0)
		for i := 0; i < n; i++ {
			v := cv.At(i, pr.col) * ph
			if math.Abs(imag(v)) > 1e-8 {
				t.Fatalf("reference: eigenvector of λ = %g is not real (%v)", pr.lam, v)
			}
			x.Set(i, c, real(v))
		}
	}
	return lam, x
}

// fge2Labelled returns labels on n nodes: node i is in set i mod k when
// i mod 3 ≠ 1 (about two thirds labelled), else −1.
func fge2Labelled(n, k int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = -1
		if i%3 != 1 {
			l[i] = (i / 3) % k
		}
	}
	return l
}

// TestFastGE2MatchesDenseReference runs FastGE2 and the three FastGE2BH
// variants through Run on small graphs and compares their eigenvalues and
// normalized embeddings with fge2Reference.
func TestFastGE2MatchesDenseReference(t *testing.T) {
	// A graph with an isolated node (node n−1: the self loop fix of §5.2
	// makes its degree 1) for the modified method, which FastGE2 rejects.
	isolated := func(n, m int, seed uint64) *graph.Graph {
		g := pwRandomGraph(t, n-1, m, seed)
		es := g.Edges()
		h, err := graph.FromEdges(n, es)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	type tc struct {
		name       string
		g          *graph.Graph
		k          int
		method     Method
		self, n, h bool    // reference switches: self loops, Bethe L_N, Bethe L_H
		r          float64 // 0: default
		pairs      bool    // pass the labels as Problem.Constraints instead
		// multiple: λ_1 = λ_2 = 0 is expected ("only L_H" with an unlabelled
		// component of G_N: its indicator is a second null vector of L_N), so
		// the eigenvectors are not unique and only eigenvalues are compared.
		multiple bool
	}
	var cases []tc
	for _, gc := range []struct {
		name string
		g    *graph.Graph
		k    int
	}{
		{"path+random n=18 k=2", pwRandomGraph(t, 18, 30, 21), 2},
		{"path+random n=24 k=3", pwRandomGraph(t, 24, 40, 22), 3},
		{"blobs n=30 k=3", func() *graph.Graph { g, _ := pwBlobGraph(t, 30, 3, 1.0, 23); return g }(), 3},
	} {
		cases = append(cases,
			tc{name: gc.name + "/fast-ge2", g: gc.g, k: gc.k, method: FastGE2{}},
			tc{name: gc.name + "/fast-ge2 μ=5", g: gc.g, k: gc.k, method: FastGE2{Mu: 5}},
			tc{name: gc.name + "/fast-ge2 pairs", g: gc.g, k: gc.k, method: FastGE2{}, pairs: true},
			tc{name: gc.name + "/bh LN r=2", g: gc.g, k: gc.k, method: FastGE2BH{Variant: BetheLN, R: 2}, self: true, n: true, r: 2},
			tc{name: gc.name + "/bh LN default r", g: gc.g, k: gc.k, method: FastGE2BH{Variant: BetheLN}, self: true, n: true},
			tc{name: gc.name + "/bh LH r=2", g: gc.g, k: gc.k, method: FastGE2BH{Variant: BetheLH, R: 2}, self: true, h: true, r: 2},
			tc{name: gc.name + "/bh both r=2", g: gc.g, k: gc.k, method: FastGE2BH{Variant: BetheBoth, R: 2}, self: true, n: true, h: true, r: 2},
			tc{name: gc.name + "/bh both default r", g: gc.g, k: gc.k, method: FastGE2BH{Variant: BetheBoth}, self: true, n: true, h: true},
		)
	}
	iso := isolated(20, 25, 24)
	for _, v := range []struct {
		variant BetheVariant
		n, h    bool
	}{{BetheLN, true, false}, {BetheLH, false, true}, {BetheBoth, true, true}} {
		cases = append(cases, tc{name: "isolated node n=20 k=2/bh " + v.variant.String(), g: iso, k: 2,
			method: FastGE2BH{Variant: v.variant, R: 4}, self: true, n: v.n, h: v.h, r: 4, multiple: v.variant == BetheLH})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := c.g.N()
			labels := fge2Labelled(n, c.k)
			ref := fge2Reference(t, mat.DenseCopyOf(c.g.Dense()), labels, c.k, c.self, c.n, c.h, c.r)
			// The comparison of vectors needs simple eigenvalues.
			all := append(append([]float64(nil), ref.lambda...), ref.next)
			simple := true
			for j := 1; j < len(all); j++ {
				if gap := all[j] - all[j-1]; !(gap > 1e-6*math.Max(1, math.Abs(all[j]))) {
					simple = false
				}
			}
			if simple == c.multiple {
				t.Fatalf("eigenvalues %v: simple = %v, want %v", all, simple, !c.multiple)
			}
			p := &Problem{Graph: c.g, K: c.k}
			if c.pairs {
				p.Constraints = constraint.FromLabels(labels)
			} else {
				p.Labels = labels
			}
			res, err := Run(context.Background(), c.method, p, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for j, w := range ref.lambda {
				if math.Abs(res.Eigenvalues[j]-w) > 1e-8*math.Max(1, math.Abs(w)) {
					t.Errorf("λ_%d = %.12g, reference %.12g", j+1, res.Eigenvalues[j], w)
				}
			}
			if res.Embedding == nil {
				t.Fatal("no embedding")
			}
			if c.multiple {
				return
			}
			if d := fge2SignedDiff(res.Embedding, ref.y); d > 1e-6 {
				t.Errorf("embedding differs from the reference by %g (up to column signs)", d)
			}
		})
	}
}

// fge2SignedDiff returns max |got − s_j·want| over entries, s_j = ±1 the
// sign aligning column j.
func fge2SignedDiff(got, want *mat.Dense) float64 {
	n, k := want.Dims()
	if gn, gk := got.Dims(); gn != n || gk != k {
		return math.Inf(1)
	}
	var worst float64
	for j := 0; j < k; j++ {
		s := 1.0
		if mat.Dot(got.ColView(j), want.ColView(j)) < 0 {
			s = -1
		}
		for i := 0; i < n; i++ {
			worst = math.Max(worst, math.Abs(got.At(i, j)-s*want.At(i, j)))
		}
	}
	return worst
}

// TestFastGE2ReferenceTheorem425Example is the worked example of seed 004
// Proposition 4.2.2 (a complete graph with V_1 = {v_1}, V_2 = {v_2}): the
// reference builds L_H = (3/m)(e_1 − e_2)(e_1 − e_2)ᵀ, whose rank is 1, so the
// pencil has exactly one finite eigenvalue, λ = 1/((3/m)·vᵀL_N⁺v) with
// v = e_1 − e_2. On K_m with unit weights, L_N = mI − 11ᵀ (A_M adds only
// the diagonal entries (1,1) and (2,2), which the Laplacian ignores), so
// L_N⁺v = v/m, vᵀL_N⁺v = 2/m and λ = m²/6 = 6 for m = 6.
func TestFastGE2ReferenceTheorem425Example(t *testing.T) {
	const m = 6
	a := mat.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			if i != j {
				a.Set(i, j, 1)
			}
		}
	}
	labels := []int{0, 1, -1, -1, -1, -1}
	ref := fge2Reference(t, a, labels, 1, false, false, false, 0)
	if math.Abs(ref.lambda[0]-m*m/6.0) > 1e-10 || !math.IsInf(ref.next, 1) {
		t.Errorf("reference λ = %v (next %v), want exactly one finite λ = %g", ref.lambda, ref.next, m*m/6.0)
	}
	// The library agrees (k = 1 is below Run's minimum, so call the pencil
	// through the method's own graph construction).
	g, err := graph.FromDense(mat.NewSymDense(m, a.RawMatrix().Data))
	if err != nil {
		t.Fatal(err)
	}
	gs, err := buildFastGE2(g, labels, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	ln, lh := laplacianOf(gs.an), laplacianOf(gs.ah)
	pr, err := solvePencil(context.Background(), ln, lh, 1, pencilOptions{z: newCompOp(gs.comp, gs.count, 1), mu: 1, singularL: true, definiteM: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := pr.values[0]; math.Abs(got-m*m/6.0) > 1e-9 {
		t.Errorf("library λ = %.12g, want %g", got, m*m/6.0)
	}
}
