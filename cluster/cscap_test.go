package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// cscapWellConditioned returns a symmetric positive definite W (an RBF
// kernel matrix on random points plus 0.5·I, so λ_min ≥ 0.5).
func cscapWellConditioned(n int, seed uint64) *mat.SymDense {
	rng := rand.New(rand.NewPCG(seed, 5))
	x := make([]float64, 2*n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	w := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dx, dy := x[2*i]-x[2*j], x[2*i+1]-x[2*j+1]
			v := math.Exp(-(dx*dx + dy*dy) / 2)
			if i == j {
				v += 0.5
			}
			w.SetSym(i, j, v)
		}
	}
	return w
}

// cscapExplicit returns (W⁻¹ + M)⁻¹ with M built entry by entry from thesis
// eq. 4.2.12 (M_ii = m_i/ε_m² + c_i/ε_c², −1/ε_m² on must-links, +1/ε_c² on
// cannot-links; the printed c_j is c_i, the number of cannot-links at i),
// by explicit inversion.
func cscapExplicit(t *testing.T, w *mat.SymDense, pairs []constraint.Pair, em, ec float64) *mat.Dense {
	t.Helper()
	n := w.SymmetricDim()
	m := mat.NewDense(n, n, nil)
	for _, q := range pairs {
		e := em
		off := -1.0
		if q.Kind == constraint.CannotLink {
			e, off = ec, 1
		}
		v := q.W() / (e * e)
		m.Set(q.I, q.I, m.At(q.I, q.I)+v)
		m.Set(q.J, q.J, m.At(q.J, q.J)+v)
		m.Set(q.I, q.J, m.At(q.I, q.J)+off*v)
		m.Set(q.J, q.I, m.At(q.J, q.I)+off*v)
	}
	var wi mat.Dense
	if err := wi.Inverse(w); err != nil {
		t.Fatal(err)
	}
	wi.Add(&wi, m)
	var out mat.Dense
	if err := out.Inverse(&wi); err != nil {
		t.Fatal(err)
	}
	return &out
}

func TestCSCAPWoodburyMatchesExplicitInverse(t *testing.T) {
	w := cscapWellConditioned(15, 1)
	pairs := []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},
		{I: 1, J: 4, Kind: constraint.MustLink, Weight: 0.5},
		{I: 2, J: 9, Kind: constraint.CannotLink},
		{I: 3, J: 11, Kind: constraint.CannotLink, Weight: 2},
		{I: 0, J: 14, Kind: constraint.CannotLink},
	}
	for _, eps := range [][2]float64{{1, 1}, {0.3, 0.5}, {0.05, 0.1}} {
		got, err := woodbury(context.Background(), w, pairs, eps[0], eps[1], nil)
		if err != nil {
			t.Fatal(err)
		}
		want := cscapExplicit(t, w, pairs, eps[0], eps[1])
		// Explicit inversion of W (condition ≈ 20) and of W⁻¹ + M loses a
		// few digits; 1e-10 absolute on entries of size ≤ 1.5.
		if d := pwMaxAbsDiff(got, want); d > 1e-10 {
			t.Errorf("ε = %v: max |Woodbury − explicit| = %g", eps, d)
		}
	}
}

// TestCSCAPSeparateCannotLinks checks Alg. 12: min over cannot-links c of
// ((W̄ᵐ)⁻¹ + M^{c})⁻¹, each by explicit inversion, against W̄ᵐ − T.
func TestCSCAPSeparateCannotLinks(t *testing.T) {
	w := cscapWellConditioned(12, 2)
	ml := []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 5, J: 6, Kind: constraint.MustLink}}
	cl := []constraint.Pair{{I: 0, J: 5, Kind: constraint.CannotLink}, {I: 2, J: 8, Kind: constraint.CannotLink}, {I: 6, J: 10, Kind: constraint.CannotLink, Weight: 3}}
	const em, ec = 0.2, 0.3
	wm, err := woodbury(context.Background(), w, ml, em, ec, nil)
	if err != nil {
		t.Fatal(err)
	}
	tmax, err := cannotLinkMax(context.Background(), wm, cl, ec, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := clipSym(context.Background(), wm, tmax)
	if err != nil {
		t.Fatal(err)
	}
	n := 12
	want := mat.NewDense(n, n, nil)
	for i := range want.RawMatrix().Data {
		want.RawMatrix().Data[i] = math.Inf(1)
	}
	for _, c := range cl {
		wc := cscapExplicit(t, wm, []constraint.Pair{c}, em, ec)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want.Set(i, j, math.Min(want.At(i, j), wc.At(i, j)))
			}
		}
	}
	for i := range want.RawMatrix().Data {
		want.RawMatrix().Data[i] = math.Max(0, want.RawMatrix().Data[i])
	}
	if d := pwMaxAbsDiff(got, want); d > 1e-10 {
		t.Errorf("max |Alg. 12 − explicit| = %g", d)
	}
}

// cscapRings returns k cycles of size nodes (unit weights) joined in a chain
// by edges of weight 0.1, the must-links (2t, 2t+1) inside every cycle and
// a cannot-link between consecutive cycles. With the default diagonal
// W_ii = 1 a cycle of even length has λ_min(W) = 1 + 2cos(π) = −1, and the
// must-link vectors sum to the alternating eigenvector: UᵀWU has an
// eigenvalue −1, so I + UᵀWU is exactly singular.
func cscapRings(t *testing.T, size, k int) (*Problem, []int) {
	t.Helper()
	var es []graph.Edge
	truth := make([]int, k*size)
	set := &constraint.Set{N: k * size}
	for c := 0; c < k; c++ {
		for i := 0; i < size; i++ {
			truth[c*size+i] = c
			es = append(es, graph.Edge{I: c*size + i, J: c*size + (i+1)%size, W: 1})
		}
		for i := 0; i+1 < size; i += 2 {
			set.Pairs = append(set.Pairs, constraint.Pair{I: c*size + i, J: c*size + i + 1, Kind: constraint.MustLink})
		}
		if c+1 < k {
			es = append(es, graph.Edge{I: c * size, J: (c+1)*size + size/2, W: 0.1})
			set.Pairs = append(set.Pairs, constraint.Pair{I: c*size + 3, J: (c+1)*size + 4, Kind: constraint.CannotLink})
		}
	}
	g, err := graph.FromEdges(k*size, es)
	if err != nil {
		t.Fatal(err)
	}
	return &Problem{Graph: g, K: k, Constraints: set}, truth
}

// cscapCosine returns a symmetric 5-NN cosine graph on n random binary
// "documents" of d words in k classes (class c favours the words j ≡ c
// mod k), the kind of sparse graph webkb gives, with constraints drawn
// with probability 2/n per pair.
func cscapCosine(t *testing.T, n, k, d int, seed uint64) (*Problem, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, d, nil)
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % k
		for j := 0; j < d; j++ {
			p := 0.1
			if j%k == truth[i] {
				p = 0.3
			}
			if rng.Float64() < p {
				x.Set(i, j, 1)
			}
		}
	}
	g, err := graph.Build(context.Background(), x, graph.Spec{Kind: graph.SymmetricKNN, K: 5, Affinity: graph.Cosine})
	if err != nil {
		t.Fatal(err)
	}
	set, err := constraint.BernoulliPairs(truth, 2/float64(n), rand.NewPCG(seed, 9))
	if err != nil {
		t.Fatal(err)
	}
	return &Problem{Graph: g, K: k, Constraints: set}, truth
}

// TestCSCAPIndefiniteShift runs CSCAP on graphs whose W is indefinite and
// on which the unrepaired propagation fails (Shift < 0), and checks that
// the automatic shift makes them cluster and says so in a warning.
func TestCSCAPIndefiniteShift(t *testing.T) {
	ringsK2, truthR2 := cscapRings(t, 12, 2)
	ringsK3, truthR3 := cscapRings(t, 12, 3)
	cos, truthC := cscapCosine(t, 30, 3, 30, 1)
	cases := []struct {
		name    string
		p       *Problem
		truth   []int
		failure string // substring of the error without the shift
		minARI  float64
	}{
		// Separate cycles: with the constraints the answer is exact.
		{"rings k=2 (Alg. 11)", ringsK2, truthR2, "I + UᵀWU is singular", 1},
		{"rings k=3 (Alg. 12)", ringsK3, truthR3, "I + UᵀWU is singular", 1},
		// Noisy classes: unconstrained spectral clustering does not find
		// them either; 0.36 is measured (ARI of a random partition ≈ 0).
		{"cosine 5-NN k=3 (Alg. 12)", cos, truthC, "1 + uᵀW̄u", 0.3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), CSCAP{Shift: -1}, tc.p, &Settings{Seed: 1})
			if err == nil || !strings.Contains(err.Error(), tc.failure) {
				t.Fatalf("without the shift: error %v, want one containing %q", err, tc.failure)
			}
			res, err := Run(context.Background(), CSCAP{}, tc.p, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			ari, err := metrics.ARI(tc.truth, res.Labels)
			if err != nil {
				t.Fatal(err)
			}
			if ari < tc.minARI {
				t.Errorf("ARI %.3f < %.2f", ari, tc.minARI)
			}
			w := cscapAffinity(tc.p.Graph, 0)
			delta, _, err := cscapMinimalShift(context.Background(), w, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("δ = %.6g", delta)
			if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], want) {
				t.Errorf("warnings %q, want the first to report %q", res.Warnings, want)
			}
		})
	}
}

// TestCSCAPMinimalShift checks δ against −λ_min(W) + τ with λ_min from an
// independent dense eigendecomposition (mat.EigenSym with vectors, a
// different LAPACK path from the values-only one Cluster uses) and, where
// known, from the closed form; and checks minimality without any
// eigenvalue: W + δI factorizes, W + (δ − 2τ)I does not.
func TestCSCAPMinimalShift(t *testing.T) {
	ring, _ := cscapRings(t, 8, 1)
	cos, _ := cscapCosine(t, 40, 2, 30, 3)
	type tc struct {
		name string
		w    *mat.SymDense
		// exact is δ in closed form, with τ = 1e-8·‖W‖_∞ (NaN: not known).
		exact float64
	}
	cases := []tc{
		// Cycle C₈ with unit diagonal: eigenvalues 1 + 2cos(2πj/8), the
		// smallest −1 (j = 4); ‖W‖_∞ = 3.
		{"cycle C8", cscapAffinity(ring.Graph, 0), 1 + 3e-8},
		{"cosine 5-NN", cscapAffinity(cos.Graph, 0), math.NaN()},
		// Positive definite (λ_min ≥ 0.5): no shift.
		{"RBF + 0.5I", cscapWellConditioned(20, 4), 0},
		{"zero", mat.NewSymDense(3, nil), 0},
	}
	// Random symmetric matrices with entries in [−1, 1) over a size ladder
	// (n = 1 draws 0.52, a positive definite 1×1; the others are indefinite
	// or not, as drawn).
	for _, n := range []int{1, 2, 3, 5, 10, 70} {
		rng := rand.New(rand.NewPCG(uint64(n), 11))
		w := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				w.SetSym(i, j, 2*rng.Float64()-1)
			}
		}
		cases = append(cases, tc{fmt.Sprintf("random n=%d", n), w, math.NaN()})
	}
	// A singular positive semidefinite Gram matrix XXᵀ of rank 3: λ_min is
	// 0 up to rounding, far inside the tolerance τ, so no shift.
	rng := rand.New(rand.NewPCG(5, 11))
	x := mat.NewDense(12, 3, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = rng.NormFloat64()
	}
	gram := mat.NewSymDense(12, nil)
	gram.SymOuterK(1, x)
	cases = append(cases, tc{"rank-3 Gram", gram, 0})
	// Two components, one of them with weights of 1e-130: gonum's
	// values-only EigenSym panicked on the tiny block (eigen.SymValues).
	// λ_min = −1 (the edge of weight 1), so δ = 1 + τ with τ = 1e-8.
	const tiny = 1e-130
	blocks := mat.NewSymDense(4, []float64{0, 1, 0, 0, 1, 0, 0, 0, 0, 0, tiny, 0.5 * tiny, 0, 0, 0.5 * tiny, tiny})
	cases = append(cases, tc{"tiny component", blocks, 1 + 1e-8})

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := c.w.SymmetricDim()
			orig := mat.NewSymDense(n, nil)
			orig.CopySym(c.w)
			delta, lmin, err := cscapMinimalShift(context.Background(), c.w, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(orig, c.w) {
				t.Fatal("w was modified")
			}
			tau, err := cscapMargin(context.Background(), c.w)
			if err != nil {
				t.Fatal(err)
			}
			var es mat.EigenSym
			if !es.Factorize(c.w, true) {
				t.Fatal("EigenSym failed")
			}
			ref := es.Values(nil)[0]
			want := 0.0
			if ref < -tau {
				want = -ref + tau
			}
			// Dense eigenvalues are accurate to about n·ε·‖W‖ (‖W‖ ≤ 70
			// here); τ itself is 1e-8·‖W‖_∞.
			const tol = 1e-12
			if math.Abs(delta-want) > tol {
				t.Errorf("δ = %.17g, want −λ_min + τ = %.17g (EigenSym λ_min = %v, τ = %g)", delta, want, ref, tau)
			}
			if !math.IsNaN(c.exact) && math.Abs(delta-c.exact) > tol {
				t.Errorf("δ = %.17g, want %.17g (closed form)", delta, c.exact)
			}
			if delta == 0 {
				if !math.IsNaN(lmin) {
					t.Errorf("no shift but λ_min reported as %v", lmin)
				}
				return
			}
			if math.Abs(lmin-ref) > tol {
				t.Errorf("reported λ_min = %v, EigenSym %v", lmin, ref)
			}
			if ok, _ := cscapPositiveDefinite(context.Background(), c.w, delta, nil); !ok {
				t.Errorf("W + δI is not positive definite")
			}
			if ok, _ := cscapPositiveDefinite(context.Background(), c.w, delta-2*tau, nil); ok {
				t.Errorf("W + (δ − 2τ)I is positive definite: δ is not minimal")
			}
		})
	}
}

// TestCSCAPShiftLeavesPSDUnchanged checks that a positive semidefinite W
// gives bit-identical results with the automatic shift and with the repair
// turned off (the behaviour before the shift existed), and that a positive
// Shift equals the same amount added through Diagonal.
func TestCSCAPShiftLeavesPSDUnchanged(t *testing.T) {
	w := cscapWellConditioned(40, 6)
	g, err := graph.FromDense(w)
	if err != nil {
		t.Fatal(err)
	}
	labels := make(constraint.Labels, 40)
	for i := range labels {
		labels[i] = constraint.Unlabeled
	}
	copy(labels, []int{0, 0, 1, 1, 2, 2})
	set := constraint.FromLabels(labels)
	same := func(t *testing.T, a, b *Result) {
		t.Helper()
		if !slices.Equal(a.Labels, b.Labels) || !slices.Equal(a.Eigenvalues, b.Eigenvalues) || !slices.Equal(a.Embedding.RawMatrix().Data, b.Embedding.RawMatrix().Data) || a.Objective != b.Objective {
			t.Errorf("results differ: labels %v / %v, eigenvalues %v / %v", a.Labels, b.Labels, a.Eigenvalues, b.Eigenvalues)
		}
	}
	for _, k := range []int{2, 3} {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			p := &Problem{Graph: g, K: k, Constraints: set}
			auto, err := Run(context.Background(), CSCAP{}, p, &Settings{Seed: 2})
			if err != nil {
				t.Fatal(err)
			}
			off, err := Run(context.Background(), CSCAP{Shift: -1}, p, &Settings{Seed: 2})
			if err != nil {
				t.Fatal(err)
			}
			same(t, auto, off)
			if len(auto.Warnings) != len(off.Warnings) {
				t.Errorf("warnings %q, want %q", auto.Warnings, off.Warnings)
			}
		})
	}
	// A positive Shift is added as given: on a graph without self loops it
	// equals Diagonal + Shift.
	rings, _ := cscapRings(t, 12, 2)
	a, err := Run(context.Background(), CSCAP{Diagonal: 1, Shift: 0.75}, rings, &Settings{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), CSCAP{Diagonal: 1.75, Shift: -1}, rings, &Settings{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	same(t, a, b)
}

func TestCSCAPInvalidShift(t *testing.T) {
	p, _ := cscapRings(t, 6, 2)
	for _, s := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := Run(context.Background(), (CSCAP{Shift: s}), p, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("Shift = %v: error %v, want ErrInvalid", s, err)
		}
	}
}

// woodbury's fallback for an I + UᵀWU that is not positive definite (W
// indefinite, Shift < 0), an LU factorization and solve that poll ctx
// (luFactorContext, solveContext), gives the numbers of the mat.LU it
// replaced (Factorize, Cond, SolveTo) bit for bit, with fewer and more
// pairs than the LU's block size 64 and more right-hand sides (n = 150)
// than the solve's block (128), polls inside the LU, and returns
// context.Canceled wherever it is cancelled.
func TestWoodburyLUFallbackMatchesMatLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	for _, q := range []int{40, 100} {
		const n = 150
		w := cscapWellConditioned(n, uint64(q))
		for i := 0; i < n; i++ {
			w.SetSym(i, i, w.At(i, i)-3) // indefinite
		}
		pairs := randomWeightedPairs(rng, n, q)
		const epsM, epsC = 1, 0.5
		// The reference: woodbury's LU branch as it was, by mat.LU.
		wu, sign, coef, err := woodburyColumns(context.Background(), w, pairs, epsM, epsC, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := woodburySystem(wu, pairs, coef, sign)
		var chol mat.Cholesky
		if chol.Factorize(c) {
			t.Fatalf("q = %d: I + UᵀWU is positive definite: the case does not reach the LU fallback", q)
		}
		var lu mat.LU
		lu.Factorize(c)
		if cond := lu.Cond(); math.IsInf(cond, 1) || cond > 1e14 {
			t.Fatalf("q = %d: I + UᵀWU is singular (condition %g): choose another case", q, cond)
		}
		var x mat.Dense
		if err := lu.SolveTo(&x, false, wu.T()); err != nil {
			t.Fatal(err)
		}
		var corr mat.Dense
		corr.Mul(wu, &x)
		want := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				want.SetSym(i, j, w.At(i, j)-(corr.At(i, j)+corr.At(j, i))/2)
			}
		}
		ctx := newPollCtx(0)
		got, err := woodbury(ctx, w, pairs, epsM, epsC, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.RawSymmetric().Data, want.RawSymmetric().Data) {
			t.Errorf("q = %d: W̄ differs from the one by mat.LU", q)
		}
		// Polls outside the LU: after WU, the Cholesky attempt's start
		// (and its blocks when q > 64, up to the failure), before the
		// product, its one block (n ≤ 256) and its end: at least 5.
		// Inside: the LU's start, one per block of 64 columns when q > 64,
		// one after the factorization, one per block of 128 right-hand
		// sides and one after the solve; mat.LU had none.
		polls := ctx.calls.Load()
		blocks := int64(0)
		if q > 64 {
			blocks = int64(q+63) / 64
		}
		if least := 5 + 1 + blocks + 1 + (n+luSolveBlock-1)/luSolveBlock + 1; polls < least {
			t.Errorf("q = %d: %d polls, want at least %d", q, polls, least)
		}
		for k := int64(1); k <= polls; k++ {
			if _, err := woodbury(newPollCtx(k), w, pairs, epsM, epsC, nil); !errors.Is(err, context.Canceled) {
				t.Fatalf("q = %d, cancelled at poll %d of %d: error %v, want context.Canceled", q, k, polls, err)
			}
		}
	}
}
