package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
)

// densePencilEig, whose products and Schur complement poll ctx
// (mulContext, schurComplement), gives the numbers of
// densePencilEigGonum, the same steps by mat.Dense.Mul and mat.LU as
// densePencilEig performed them before it polled, bit for bit: on
// FAST-GE-2.0's indefinite pencil (a Bethe Hessian P, the Laplacian L_H)
// of random graphs with labelled nodes, so that L has a support S smaller
// than n (|U| > 0) and a null space on S, at sizes below and above the
// block sizes of the LU (64), its solve (128) and the products (256).
func TestDensePencilEigMatchesGonum(t *testing.T) {
	for _, tc := range []struct{ n, labelled, k int }{{16, 8, 3}, {120, 60, 3}, {300, 200, 4}, {400, 330, 5}} {
		p, l := densePencilEigProblem(t, tc.n, tc.labelled, tc.k, uint64(tc.n))
		wantVals, wantVecs, werr := densePencilEigGonum(p, l, tc.k)
		gotVals, gotVecs, err := densePencilEig(context.Background(), p, l, tc.k)
		if err != nil || werr != nil {
			t.Fatalf("n = %d: error %v, reference's %v", tc.n, err, werr)
		}
		if !slices.Equal(gotVals, wantVals) || !slices.Equal(gotVecs.RawMatrix().Data, wantVecs.RawMatrix().Data) {
			t.Errorf("n = %d: differs from the reference", tc.n)
		}
	}
}

// densePencilEigProblem returns FAST-GE-2.0's pencil P = H_N (Bethe
// Hessian, r = 2), L = L_H on a random graph of n nodes (pwRandomGraph)
// whose first labelled nodes in a random order carry the k labels in turn.
func densePencilEigProblem(tb testing.TB, n, labelled, k int, seed uint64) (p, l *mat.Dense) {
	tb.Helper()
	g := pwRandomGraph(tb, n, 2*n, seed)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
	}
	perm := rand.New(rand.NewPCG(seed, 3)).Perm(n)
	for j, i := range perm[:labelled] {
		labels[i] = j % k
	}
	gs, err := buildFastGE2(g, labels, nil, "test")
	if err != nil {
		tb.Fatal(err)
	}
	return graph.Dense(betheOf(gs.an, 2)), graph.Dense(laplacianOf(gs.ah))
}

// schurComplement gives the numbers of mat.LU and mat.Dense.Mul
// (schurComplementGonum, the function before it polled) bit for bit, with
// fewer and more unknowns than the LU's block size (64) and more
// right-hand sides than the solve's block (128), and returns
// context.Canceled wherever it is cancelled.
func TestSchurComplementMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	fill := func(r, c int) *mat.Dense { return normalDense(rng, r, c) }
	for _, sh := range [][2]int{{1, 3}, {10, 40}, {70, 300}, {150, 130}} {
		nn, r := sh[0], sh[1]
		pnn, pnr, prr := fill(nn, nn), fill(nn, r), fill(r, r)
		wantPrr := mat.DenseCopyOf(prr)
		want, werr := schurComplementGonum(pnn, pnr, wantPrr)
		ctx := newPollCtx(0)
		got, err := schurComplement(ctx, pnn, pnr, prr)
		if err != nil || werr != nil {
			t.Fatalf("%v: error %v, reference's %v", sh, err, werr)
		}
		if !slices.Equal(got.RawMatrix().Data, want.RawMatrix().Data) || !slices.Equal(prr.RawMatrix().Data, wantPrr.RawMatrix().Data) {
			t.Errorf("%v: differs from the reference", sh)
		}
		polls := ctx.calls.Load()
		for k := int64(1); k <= polls; k++ {
			if _, err := schurComplement(newPollCtx(k), pnn, pnr, mat.DenseCopyOf(wantPrr)); !errors.Is(err, context.Canceled) {
				t.Fatalf("%v, cancelled at poll %d of %d: error %v, want context.Canceled", sh, k, polls, err)
			}
		}
	}
}

// densePencilEig cancelled at any of its polls returns an error wrapping
// context.Canceled and no result; it is the dense path of fast-ge2-bh
// that Run takes only when the Householder reduction of densePencil does
// not apply, which no cancelProblem reaches. Its pencil has 300 nodes,
// 200 of them labelled. Before its products and LU polled it checked ctx
// 4 times; now 36 times, and a floor of 20 fails if those polls are
// lost. The two eigendecompositions (mat.EigenSym with vectors) do not
// poll inside.
func TestCancelDensePencilEigAtEveryPoll(t *testing.T) {
	p, l := densePencilEigProblem(t, 300, 200, 4, 9)
	ctx := newPollCtx(0)
	if _, _, err := densePencilEig(ctx, p, l, 4); err != nil {
		t.Fatalf("uncancelled run: %v", err)
	}
	polls := ctx.calls.Load()
	t.Logf("%d polls", polls)
	if polls < 20 {
		t.Errorf("%d polls of ctx in an uncancelled run, want ≥ 20: a dense step no longer polls", polls)
	}
	for k := int64(1); k <= polls; k++ {
		vals, vecs, err := densePencilEig(newPollCtx(k), p, l, 4)
		if !errors.Is(err, context.Canceled) || vals != nil || vecs != nil {
			t.Fatalf("cancelled at poll %d of %d: result %v, error %v; want no result and an error wrapping context.Canceled", k, polls, vals != nil, err)
		}
	}
}

// densePencilEigGonum is densePencilEig as it was before it polled ctx
// inside its steps (mat.Dense.Mul, mat.LU by schurComplementGonum, and
// no ctx): the reference of TestDensePencilEigMatchesGonum.
func densePencilEigGonum(p, l *mat.Dense, k int) ([]float64, *mat.Dense, error) {
	n, _ := p.Dims()
	sup, out := pencilSupport(l)
	ns, nu := len(sup), len(out)
	if ns < k {
		return nil, nil, fmt.Errorf("%w: %w: only %d finite generalized eigenvalues, %d requested (too few constraints, or constraints that contradict each other?)", ErrInvalid, errPencil, max(ns-1, 0), k)
	}
	ls := mat.NewSymDense(ns, nil)
	for a, i := range sup {
		for b := a; b < ns; b++ {
			j := sup[b]
			ls.SetSym(a, b, (l.At(i, j)+l.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(ls, true) {
		return nil, nil, fmt.Errorf("%w: eigendecomposition of L failed", errPencil)
	}
	w := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	wmax := 0.0
	for _, x := range w {
		wmax = math.Max(wmax, math.Abs(x))
	}
	tol := 1e-10 * math.Max(wmax, 1e-300)
	var rng, nul []int
	for j, x := range w {
		switch {
		case x < -1e3*tol:
			return nil, nil, fmt.Errorf("%w: L has the negative eigenvalue %g", errPencil, x)
		case x > tol:
			rng = append(rng, j)
		default:
			nul = append(nul, j)
		}
	}
	r, n0 := len(rng), len(nul)
	if r < k {
		return nil, nil, fmt.Errorf("%w: %w: only %d finite generalized eigenvalues, %d requested (too few constraints, or constraints that contradict each other?)", ErrInvalid, errPencil, r, k)
	}
	all := make([]int, ns)
	for j := range all {
		all[j] = j
	}
	vr := subMatrix(&v, all, rng)
	pss := subMatrix(p, sup, sup)
	pssVr := mat.NewDense(ns, r, nil)
	pssVr.Mul(pss, vr)
	prr := mat.NewDense(r, r, nil)
	prr.Mul(vr.T(), pssVr)
	var b0, bu *mat.Dense // P_nn⁻¹ P_nr split into the V_0 rows and the U rows
	var v0 *mat.Dense
	if nn := nu + n0; nn > 0 {
		pnr := mat.NewDense(nn, r, nil)
		pnn := mat.NewDense(nn, nn, nil)
		var pus *mat.Dense
		if nu > 0 {
			pus = subMatrix(p, out, sup)
			pnr.Slice(0, nu, 0, r).(*mat.Dense).Mul(pus, vr)
			pnn.Slice(0, nu, 0, nu).(*mat.Dense).Copy(subMatrix(p, out, out))
		}
		if n0 > 0 {
			v0 = subMatrix(&v, all, nul)
			pnr.Slice(nu, nn, 0, r).(*mat.Dense).Mul(v0.T(), pssVr)
			t := mat.NewDense(ns, n0, nil)
			t.Mul(pss, v0)
			pnn.Slice(nu, nn, nu, nn).(*mat.Dense).Mul(v0.T(), t)
			if nu > 0 {
				c := mat.NewDense(nu, n0, nil)
				c.Mul(pus, v0)
				pnn.Slice(0, nu, nu, nn).(*mat.Dense).Copy(c)
				pnn.Slice(nu, nn, 0, nu).(*mat.Dense).Copy(c.T())
			}
		}
		x, err := schurComplementGonum(pnn, pnr, prr)
		if err != nil {
			return nil, nil, err
		}
		if nu > 0 {
			bu = x.Slice(0, nu, 0, r).(*mat.Dense)
		}
		if n0 > 0 {
			b0 = x.Slice(nu, nn, 0, r).(*mat.Dense)
		}
	}
	// S̃ = Λ^{-1/2} S Λ^{-1/2}.
	st := mat.NewSymDense(r, nil)
	for a := 0; a < r; a++ {
		for b := a; b < r; b++ {
			val := (prr.At(a, b) + prr.At(b, a)) / 2 / math.Sqrt(w[rng[a]]*w[rng[b]])
			st.SetSym(a, b, val)
		}
	}
	var es2 mat.EigenSym
	if !es2.Factorize(st, true) {
		return nil, nil, fmt.Errorf("%w: eigendecomposition of the Schur complement failed", errPencil)
	}
	vals := es2.Values(nil)[:k:k]
	var y mat.Dense
	es2.VectorsTo(&y)
	ar := mat.NewDense(r, k, nil)
	for a := 0; a < r; a++ {
		f := 1 / math.Sqrt(w[rng[a]])
		for j := 0; j < k; j++ {
			ar.Set(a, j, y.At(a, j)*f)
		}
	}
	xs := mat.NewDense(ns, k, nil)
	xs.Mul(vr, ar)
	if b0 != nil {
		t := mat.NewDense(n0, k, nil)
		t.Mul(b0, ar)
		c := mat.NewDense(ns, k, nil)
		c.Mul(v0, t)
		xs.Sub(xs, c)
	}
	vecs := mat.NewDense(n, k, nil)
	for a, i := range sup {
		vecs.SetRow(i, xs.RawRowView(a))
	}
	if bu != nil {
		t := mat.NewDense(nu, k, nil)
		t.Mul(bu, ar)
		for a, i := range out {
			row := t.RawRowView(a)
			for j := range row {
				vecs.Set(i, j, -row[j])
			}
		}
	}
	return append([]float64(nil), vals...), vecs, nil
}

// schurComplementGonum is schurComplement as it was before it polled
// ctx, by mat.LU and mat.Dense.Mul.
func schurComplementGonum(pnn, pnr, prr *mat.Dense) (*mat.Dense, error) {
	var lu mat.LU
	lu.Factorize(pnn)
	if cond := lu.Cond(); math.IsInf(cond, 1) || cond > 1e14 {
		return nil, fmt.Errorf("%w: P is singular on the null space of L (condition %.3g): P and L share a null vector", errPencil, cond)
	}
	nn, _ := pnn.Dims()
	_, r := pnr.Dims()
	x := mat.NewDense(nn, r, nil)
	if err := lu.SolveTo(x, false, pnr); err != nil {
		return nil, fmt.Errorf("%w: %v", errPencil, err)
	}
	corr := mat.NewDense(r, r, nil)
	corr.Mul(pnr.T(), x)
	prr.Sub(prr, corr)
	return x, nil
}
