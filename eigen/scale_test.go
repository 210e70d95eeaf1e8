package eigen_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/eigen/eigentest"
	"github.com/tether-sc/tether/graph"
)

// scaleGraph returns the edges of eigentest.RandomGraph on n nodes with
// weights multiplied by c, and the dense Laplacian of the given kind of
// the unscaled graph.
func scaleGraph(n int, c float64, kind graph.LaplacianKind) (scaled []graph.Edge, ref *mat.SymDense) {
	edges := eigentest.RandomGraph(n, rand.New(rand.NewPCG(uint64(n), 117)))
	scaled = make([]graph.Edge, len(edges))
	for i, e := range edges {
		scaled[i] = graph.Edge{I: e.I, J: e.J, W: c * e.W}
	}
	return scaled, eigentest.DenseLaplacian(n, edges, kind)
}

// degrees returns the weighted degrees of the graph on n nodes with the
// given edges, a self loop counted once (as graph and eigentest count it).
func degrees(n int, edges []graph.Edge) []float64 {
	d := make([]float64, n)
	for _, e := range edges {
		d[e.I] += e.W
		if e.J != e.I {
			d[e.J] += e.W
		}
	}
	return d
}

// unnormalizedOf returns the Laplacian D − W of the graph on n nodes with
// the given edges, as an operator.
func unnormalizedOf(t *testing.T, n int, edges []graph.Edge) *graph.Laplacian {
	t.Helper()
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	l, err := graph.NewLaplacian(g, graph.Unnormalized)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// jacobi returns the Jacobi preconditioner diag(1/d_i) of an operator with
// diagonal d, as a diagOp.
func jacobi(d []float64) diagOp {
	t := make(diagOp, len(d))
	for i, v := range d {
		t[i] = 1 / v
	}
	return t
}

// symEigen returns the eigenvalues (ascending) and orthonormal eigenvectors
// of a by gonum's dense EigenSym.
func symEigen(t *testing.T, a *mat.SymDense) ([]float64, *mat.Dense) {
	t.Helper()
	var es mat.EigenSym
	if !es.Factorize(a, true) {
		t.Fatal("EigenSym failed")
	}
	var v mat.Dense
	es.VectorsTo(&v)
	return es.Values(nil), &v
}

// pencilResidual returns ‖A v − μ B v‖ / ‖v‖ (b nil: the identity) for the
// column v, normalized first with a scale-safe norm so that a v of any
// magnitude gives the residual of the ordinary-scale pencil (a, b).
func pencilResidual(a, b *mat.SymDense, v []float64, mu float64) float64 {
	u := mat.NewVecDense(len(v), nil)
	u.ScaleVec(1/floats.Norm(v, 2), mat.NewVecDense(len(v), v))
	var av, bv mat.VecDense
	av.MulVec(a, u)
	if b != nil {
		bv.MulVec(b, u)
	} else {
		bv.CloneFromVec(u)
	}
	av.AddScaledVec(&av, -mu, &bv)
	return mat.Norm(&av, 2)
}

// TestExtremeScale: the Laplacian L = D − W of a random graph whose weights
// are multiplied by c has the eigenpairs of the unscaled L with values
// times c, for every c at which L·x is representable. Each solver must
// return them (K = 4 smallest, once with the constant vector deflated;
// checked by checkScaled against dense EigenSym of the unscaled matrix),
// and Result.Residuals/c must be the residual of the unscaled problem
// recomputed here: they were sums of squares, which read exactly 0 below
// c ≈ 1e-155 and +Inf above c ≈ 1e155 for every solver (review 117).
func TestExtremeScale(t *testing.T) {
	const n, k = 200, 4
	type tc struct {
		solver  string // a solver, "LOBPCG+T" for LOBPCG with Jacobi's T
		c       float64
		deflate bool
	}
	var cases []tc
	for _, s := range []string{"Dense", "Lanczos", "LOBPCG", "LOBPCG+T", "BlockLanczos"} {
		for _, c := range []float64{1e-300, 1e-200, 1e-170, 1e-160, 1e-150, 1e-100, 1, 1e100, 1e150, 1e155, 1e200, 1e300} {
			cases = append(cases, tc{s, c, false})
		}
		for _, c := range []float64{1e-170, 1e155} {
			cases = append(cases, tc{s, c, true})
		}
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/c=%g/deflate=%v", c.solver, c.c, c.deflate), func(t *testing.T) {
			edges, l1 := scaleGraph(n, c.c, graph.Unnormalized)
			solver := map[string]eigen.Solver{
				"Dense":        eigen.Dense{},
				"Lanczos":      eigen.Lanczos{},
				"LOBPCG":       eigen.LOBPCG{},
				"LOBPCG+T":     eigen.LOBPCG{T: jacobi(degrees(n, edges))},
				"BlockLanczos": eigen.BlockLanczos{},
			}[c.solver]
			lc := unnormalizedOf(t, n, edges)
			ref, _ := symEigen(t, l1)
			norm := ref[n-1]
			p := eigen.Problem{A: lc, K: k}
			if c.deflate {
				q := mat.NewDense(n, 1, nil)
				for i := 0; i < n; i++ {
					q.Set(i, 0, 1/math.Sqrt(n))
				}
				p.Deflate, p.DeflateValues = q, []float64{0}
			}
			res, err := solver.Solve(context.Background(), p, nil)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			scaledPencil{a: l1, ca: c.c, cb: 1, want: ref[:k], valNorm: norm, resNorm: norm}.check(t, res)
		})
	}
}

// scaledPencil is the problem ca·a x = λ·cb·b x built from an
// ordinary-scale pencil (a, b) (b nil: the identity) whose wanted
// eigenvalues want (ascending) are known from dense EigenSym; its
// eigenvalues are (ca/cb)·want and its B-orthonormal vectors those of (a,
// b) divided by √cb. valNorm and resNorm set the tolerances of values and
// residuals (‖a‖ for a standard problem).
type scaledPencil struct {
	a, b             *mat.SymDense
	ca, cb           float64
	want             []float64
	valNorm, resNorm float64
}

// check checks res against the pencil: values/(ca/cb) within
// 1e-8·valNorm of want; vectors that √cb makes b-orthonormal; residuals
// recomputed on (a, b) within 1e-8·resNorm; and Result.Residuals/ca equal
// to those to 10% or 1e-16·resNorm (rounding level: a residual reported as
// 0 or +Inf fails).
func (sp scaledPencil) check(t *testing.T, res *eigen.Result) {
	t.Helper()
	k := len(sp.want)
	n, _ := res.Vectors.Dims()
	vs := sp.ca / sp.cb
	for j := 0; j < k; j++ {
		if got := res.Values[j] / vs; !(math.Abs(got-sp.want[j]) <= 1e-8*sp.valNorm) {
			t.Errorf("value %d / scale = %.10g, want %.10g", j, got, sp.want[j])
		}
	}
	v := mat.NewDense(n, k, nil)
	v.Scale(math.Sqrt(sp.cb), res.Vectors)
	var bv, g mat.Dense
	if sp.b != nil {
		bv.Mul(sp.b, v)
	} else {
		bv.CloneFrom(v)
	}
	g.Mul(v.T(), &bv)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			w := 0.0
			if i == j {
				w = 1
			}
			if d := math.Abs(g.At(i, j) - w); !(d <= 1e-8) {
				t.Errorf("VᵀBV[%d,%d] off the identity by %.3g", i, j, d)
			}
		}
	}
	col := make([]float64, n)
	for j := 0; j < k; j++ {
		mat.Col(col, j, res.Vectors)
		r := pencilResidual(sp.a, sp.b, col, res.Values[j]/vs)
		got := res.Residuals[j] / sp.ca
		if !(r <= 1e-8*sp.resNorm) {
			t.Errorf("pair %d: recomputed residual %.3g > 1e-8·‖A‖ = %.3g", j, r, 1e-8*sp.resNorm)
		}
		if !(math.Abs(got-r) <= 0.1*r+1e-16*sp.resNorm) {
			t.Errorf("pair %d: Residuals/c = %.3g, recomputed %.3g", j, got, r)
		}
	}
}

// TestExtremeScaleGeneralized: Shi–Malik's pencil L u = λ D u with L from
// the graph's weights times ca and D its unscaled degrees times cb has the
// eigenvalues of the unscaled L_sym times ca/cb and, scaled by √cb, the
// D-orthonormal vectors of the unscaled pencil. The solvers of generalized
// problems must return them (checked by scaledPencil against dense
// EigenSym of the unscaled L_sym) with A, B or both far from 1, once with
// the D-normalized constant vector deflated; Result.Residuals of vectors
// near 1e85 (cb = 1e-170) had the quotient of their sums of squares
// underflow to 0 (review 117).
func TestExtremeScaleGeneralized(t *testing.T) {
	const n, k = 200, 4
	type tc struct {
		solver  string // a solver, "LOBPCG+T" for LOBPCG with Jacobi's T
		ca, cb  float64
		deflate bool
	}
	var cases []tc
	for _, s := range []string{"Dense", "LOBPCG", "LOBPCG+T"} {
		for _, sc := range [][2]float64{{1, 1}, {1e-170, 1}, {1, 1e-170}, {1e-170, 1e-170}, {1e170, 1}, {1, 1e200}, {1e160, 1e160}, {1e-150, 1e150}, {1e-300, 1e-300}, {1e300, 1e300}} {
			cases = append(cases, tc{s, sc[0], sc[1], false})
		}
		for _, sc := range [][2]float64{{1e-170, 1e-170}, {1e-150, 1e150}, {1, 1e200}} {
			cases = append(cases, tc{s, sc[0], sc[1], true})
		}
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/ca=%g/cb=%g/deflate=%v", c.solver, c.ca, c.cb, c.deflate), func(t *testing.T) {
			edges, l1 := scaleGraph(n, c.ca, graph.Unnormalized)
			unscaled, lsym := scaleGraph(n, 1, graph.Symmetric)
			lc := unnormalizedOf(t, n, edges)
			d1 := degrees(n, unscaled)
			db := make(diagOp, n)
			dense := mat.NewSymDense(n, nil)
			var vol float64
			for i, v := range d1 {
				db[i] = c.cb * v
				dense.SetSym(i, i, v)
				vol += db[i]
			}
			ref, _ := symEigen(t, lsym)
			lref, _ := symEigen(t, l1)
			p := eigen.Problem{A: lc, B: db, K: k}
			if c.deflate {
				q := mat.NewDense(n, 1, nil)
				for i := 0; i < n; i++ {
					q.Set(i, 0, 1/math.Sqrt(vol))
				}
				p.Deflate, p.DeflateValues = q, []float64{0}
			}
			solver := map[string]eigen.Solver{
				"Dense":    eigen.Dense{},
				"LOBPCG":   eigen.LOBPCG{},
				"LOBPCG+T": eigen.LOBPCG{T: jacobi(degrees(n, edges))},
			}[c.solver]
			res, err := solver.Solve(context.Background(), p, nil)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			scaledPencil{a: l1, b: dense, ca: c.ca, cb: c.cb, want: ref[:k], valNorm: ref[n-1], resNorm: lref[n-1]}.check(t, res)
		})
	}
}

// scaledOperator is s·A, with s·(A·x) computed in floating point.
type scaledOperator struct {
	eigen.Operator
	s float64
}

func (o scaledOperator) MulTo(dst, x *mat.Dense) {
	o.Operator.MulTo(dst, x)
	dst.Scale(o.s, dst)
}

// growingOperator is A for its first block product and s·A after it: an
// operator whose products leave floating-point range after the one the
// block solvers estimate its scale from.
type growingOperator struct {
	eigen.Operator
	s     float64
	calls int
}

func (o *growingOperator) MulTo(dst, x *mat.Dense) {
	o.Operator.MulTo(dst, x)
	if _, c := dst.Dims(); c == 0 {
		return // LOBPCG may apply A to no columns; mat refuses to scale them
	}
	if o.calls++; o.calls > 1 {
		dst.Scale(o.s, dst)
	}
}

// TestExtremeScaleNonFinite: products out of floating-point range give an
// error wrapping ErrNonFinite, as its doc says, rather than another error
// or a wrong answer: 1e308·L, whose products overflow, and an operator
// whose products grow by 1e200 after the first (review 117: LOBPCG
// reported ErrNoConvergence, "stagnated … residual NaN", with garbage
// vectors on L·1e155).
func TestExtremeScaleNonFinite(t *testing.T) {
	const n = 200
	edges, _ := scaleGraph(n, 1, graph.Unnormalized)
	l := unnormalizedOf(t, n, edges)
	for _, c := range []struct {
		solver string
		grows  bool
	}{
		{"Dense", false}, {"Lanczos", false}, {"LOBPCG", false}, {"LOBPCG", true},
		{"BlockLanczos", false}, {"BlockLanczos", true},
	} {
		t.Run(fmt.Sprintf("%s/grows=%v", c.solver, c.grows), func(t *testing.T) {
			var op eigen.Operator = scaledOperator{l, 1e308}
			if c.grows {
				op = &growingOperator{Operator: l, s: 1e200}
			}
			solver := map[string]eigen.Solver{
				"Dense":        eigen.Dense{},
				"Lanczos":      eigen.Lanczos{},
				"LOBPCG":       eigen.LOBPCG{},
				"BlockLanczos": eigen.BlockLanczos{},
			}[c.solver]
			res, err := solver.Solve(context.Background(), eigen.Problem{A: op, K: 4}, nil)
			if !errors.Is(err, eigen.ErrNonFinite) {
				t.Errorf("error %v, want one wrapping ErrNonFinite (values %v)", err, resValues(res))
			}
		})
	}
}

// TestExtremePencilRatio: a pencil whose eigenvalues are representable
// although 2^(eA − eB), the factor between the rescaled problem's and
// its own, is not (A = 2^600·diag(1 + 0.9i/n), B = 2^−423·I: eigenvalues
// about 2^1023·(1…1.9)/2 up to 8.99e307) is solved, every value finite
// and right to the tolerance; LOBPCG returned +Inf values with a nil
// error, the factor Ldexp(1, 1023+) having overflowed (review 124). A
// pencil whose eigenvalues overflow gives ErrNonFinite, never an infinite
// or NaN value with a nil error (Dense's reduction overflows first: an
// error too).
func TestExtremePencilRatio(t *testing.T) {
	const n, k = 200, 4
	a, b, big := make(diagOp, n), make(diagOp, n), make(diagOp, n)
	for i := range a {
		a[i] = math.Ldexp(1+0.9*float64(i)/n, 600)
		b[i] = math.Ldexp(1, -423)
		big[i] = math.Ldexp(1+0.9*float64(i)/n, 1000)
	}
	for _, s := range []eigen.Solver{eigen.LOBPCG{}, eigen.LOBPCG{T: jacobi(a)}} {
		res, err := s.Solve(context.Background(), eigen.Problem{A: a, B: b, K: k}, nil)
		if err != nil {
			t.Fatalf("%T: %v", s, err)
		}
		for j, v := range res.Values {
			want := math.Ldexp(1+0.9*float64(j)/n, 1023)
			if math.IsInf(v, 0) || math.Abs(v-want) > 1e-8*want {
				t.Errorf("%T: λ_%d = %g, want %g", s, j, v, want)
			}
		}
	}
	res, err := eigen.LOBPCG{}.Solve(context.Background(), eigen.Problem{A: big, B: b, K: k}, nil)
	if !errors.Is(err, eigen.ErrNonFinite) {
		t.Errorf("LOBPCG on a pencil whose eigenvalues overflow: %v (result %v), want ErrNonFinite", err, res)
	}
	// Dense's reduction to a standard problem overflows before its
	// eigenvalues do: an error either way, never a value.
	if res, err := (eigen.Dense{}).Solve(context.Background(), eigen.Problem{A: big, B: b, K: k}, nil); err == nil {
		t.Errorf("Dense on a pencil whose eigenvalues overflow: values %v with no error", res.Values)
	}
}
