package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// pencilDense returns the finite eigenvalues λ of P x = λ L x, ascending,
// by the dense reduction of M = P + μL (positive definite) = RᵀR: the
// eigenvalues τ of R⁻ᵀLR⁻¹ (fge2RefGenSym, gonum EigenSym) are τ = 1/(λ + μ), and τ = 0
// (to 10⁻¹⁰ of the largest |τ|) is an infinite λ.
func pencilDense(t *testing.T, p, l *mat.SymDense, mu float64) []float64 {
	t.Helper()
	n := p.SymmetricDim()
	m := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			m.SetSym(i, j, p.At(i, j)+mu*l.At(i, j))
		}
	}
	taus, _ := fge2RefGenSym(t, l, m) // L y = τ M y, the τ of R⁻ᵀLR⁻¹
	tmax := 0.0
	for _, x := range taus {
		tmax = max(tmax, math.Abs(x))
	}
	var out []float64
	for _, x := range taus {
		if math.Abs(x) > 1e-10*tmax {
			out = append(out, 1/x-mu)
		}
	}
	sort.Float64s(out)
	return out
}

// TestSolvePencilIndefiniteL: solvePencil with an L that may be
// indefinite (opt.singularL unset, as fast-ge2-bh passes the Bethe
// Hessian H_H) against the dense generalized eigendecomposition
// (pencilDense): a positive definite L (path "definite") and a
// semidefinite one (path "regularized") give the k smallest finite
// eigenvalues to 10⁻⁸; an indefinite L is an error wrapping errPencil and
// ErrNumerical. Review 136: with P = diag(1, …, 6), L = diag(1, 1, 1, 1,
// 1, −0.2), μ = 1, k = 2 path 2 kept only τ = 1/(λ + μ) > 0 and returned
// [1, 2] on path "regularized"; the exact two smallest are [−30, 1]. The
// rotated rows have the same spectra in random orthonormal bases, P and L
// in different ones.
func TestSolvePencilIndefiniteL(t *testing.T) {
	rng := rand.New(rand.NewPCG(136, 4))
	randOrth := func(n int) *mat.Dense {
		a := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				a.Set(i, j, rng.NormFloat64())
			}
		}
		var qr mat.QR
		qr.Factorize(a)
		var q mat.Dense
		qr.QTo(&q)
		return &q
	}
	// op returns Q diag(d) Qᵀ as an operator (symOp's low-rank term; the
	// diagonal alone when q is nil) and densely.
	op := func(d []float64, q *mat.Dense) (*symOp, *mat.SymDense) {
		n := len(d)
		if q == nil {
			s := mat.NewSymDense(n, nil)
			for i, v := range d {
				s.SetSym(i, i, v)
			}
			return &symOp{n: n, dg: append([]float64(nil), d...)}, s
		}
		o := &symOp{n: n}
		cols := make([][]float64, n)
		for j := range cols {
			cols[j] = mat.Col(nil, j, q)
		}
		o.addLowRank(cols, append([]float64(nil), d...))
		var qd mat.Dense
		qd.Mul(q, mat.NewDiagDense(n, d))
		var a mat.Dense
		a.Mul(&qd, q.T())
		s := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				s.SetSym(i, j, (a.At(i, j)+a.At(j, i))/2)
			}
		}
		return o, s
	}
	pd := []float64{1, 2, 3, 4, 5, 6}
	qp, ql := randOrth(6), randOrth(6)
	for _, c := range []struct {
		name   string
		ld     []float64
		rotate bool
		path   string // "" for an error
	}{
		{"definite", []float64{1, 1, 1, 1, 1, 0.2}, false, "definite"},
		{"semidefinite", []float64{1, 1, 1, 1, 1, 0}, false, "regularized"},
		{"indefinite", []float64{1, 1, 1, 1, 1, -0.2}, false, ""},
		{"definite rotated", []float64{1, 1, 1, 1, 1, 0.2}, true, "definite"},
		{"semidefinite rotated", []float64{1, 1, 1, 1, 1, 0}, true, "regularized"},
		{"indefinite rotated", []float64{1, 1, 1, 1, 1, -0.2}, true, ""},
	} {
		const mu, k = 1.0, 2
		var po, lo *symOp
		var pm, lm *mat.SymDense
		if c.rotate {
			po, pm = op(pd, qp)
			lo, lm = op(c.ld, ql)
		} else {
			po, pm = op(pd, nil)
			lo, lm = op(c.ld, nil)
		}
		want := pencilDense(t, pm, lm, mu)[:k]
		pr, err := solvePencil(context.Background(), po, lo, k, pencilOptions{mu: mu}, nil)
		if c.path == "" {
			// The dense decomposition has eigenvalues below −μ (τ < 0),
			// which path 2 cannot return.
			if !(want[0] < -mu) {
				t.Fatalf("%s: the dense smallest eigenvalues %v are not below −μ", c.name, want)
			}
			if err == nil {
				t.Errorf("%s: path %q gave %v, the dense decomposition %v; want an error", c.name, pr.path, pr.values, want)
			} else if !errors.Is(err, errPencil) || !errors.Is(err, ErrNumerical) {
				t.Errorf("%s: error %v does not wrap errPencil and ErrNumerical", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if pr.path != c.path {
			t.Errorf("%s: path %q, want %q", c.name, pr.path, c.path)
		}
		for j := range want {
			if math.Abs(pr.values[j]-want[j]) > 1e-8*max(1, math.Abs(want[j])) {
				t.Errorf("%s: λ_%d = %.12g, dense %.12g", c.name, j+1, pr.values[j], want[j])
			}
		}
	}
}
