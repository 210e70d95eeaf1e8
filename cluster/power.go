package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/progress"
)

// supervisedOp is the operator
//
//	sign·D^{-1/2} W D^{-1/2} + shift·I + Σ_j coef_j w_j w_jᵀ
//
// applied without forming any n×n matrix: one sparse product and one rank-r
// update, O(nnz + r·n) per vector. With Y = D^{1/2} v vᵀ D^{1/2},
// D^{-1/2}(W + γY)D^{-1/2} = D^{-1/2} W D^{-1/2} + γ v vᵀ, so every
// operator of seed 000 §3.2–3.3 has this form.
type supervisedOp struct {
	na    *graph.NormalizedAdjacency
	sign  float64
	shift float64
	vecs  [][]float64
	coef  []float64
}

// Dim returns n.
func (o *supervisedOp) Dim() int { return o.na.Dim() }

// MulTo sets dst = op·x for n×p blocks.
func (o *supervisedOp) MulTo(dst, x *mat.Dense) {
	o.na.MulTo(dst, x)
	n, p := x.Dims()
	t := make([]float64, p)
	for i := 0; i < n; i++ {
		out := dst.RawRowView(i)[:p]
		xi := x.RawRowView(i)[:p]
		for c := range out {
			out[c] = o.sign*out[c] + o.shift*xi[c]
		}
	}
	for j, v := range o.vecs {
		for c := range t {
			t[c] = 0
		}
		for i, vi := range v {
			if vi == 0 {
				continue
			}
			xi := x.RawRowView(i)[:p]
			for c := range t {
				t[c] += vi * xi[c]
			}
		}
		for c := range t {
			t[c] *= o.coef[j]
		}
		for i, vi := range v {
			if vi == 0 {
				continue
			}
			out := dst.RawRowView(i)[:p]
			for c := range out {
				out[c] += vi * t[c]
			}
		}
	}
}

// sqrtDegreeUnit returns u = D^{1/2}1/‖D^{1/2}1‖, the eigenvector of
// D^{-1/2} W D^{-1/2} for the eigenvalue 1 (seed 000 Alg. 6 line 3).
func sqrtDegreeUnit(g *graph.Graph) []float64 {
	u := make([]float64, g.N())
	vol := g.Volume()
	for i := range u {
		u[i] = math.Sqrt(g.Degree(i) / vol)
	}
	return u
}

// deflatedOp returns D^{-1/2}(W + γ D^{1/2} v vᵀ D^{1/2})D^{-1/2} − 2uuᵀ + I
// (seed 000 Alg. 6 line 4 and Alg. 7 line 3). Its eigenvalues lie in
// [0, 2 + γ]: N + I is positive semidefinite with eigenvalue 2 on u, −2uuᵀ
// moves that one to 0, and γvvᵀ ⪰ 0 with v ⊥ u. So the largest eigenvalue
// is also the largest in magnitude, which the power method needs.
func deflatedOp(na *graph.NormalizedAdjacency, u, v []float64, gamma float64) *supervisedOp {
	return &supervisedOp{na: na, sign: 1, shift: 1, vecs: [][]float64{v, u}, coef: []float64{gamma, -2}}
}

// powerBlock runs the power method of seed 000 §3.2.1 (eq. 3.2.1) on the
// deflated operators M_c = D^{-1/2}WD^{-1/2} + γ v_c v_cᵀ − 2uuᵀ + I of the
// classes c (one column each, all positive semidefinite, so the dominant
// eigenvalue is the largest), from the columns of x. The columns share one
// sparse product per iteration (a block product costs far less than K
// single ones); each column then gets its own rank-one terms, loses its
// component along u (which only cancels rounding: u is in every M_c's null
// space) and is normalized. A column stops, frozen, when
// ‖M_c x − λx‖ ≤ tol·λ with λ = xᵀM_c x. On return x holds the unit
// vectors; vals, iters and conv are per column.
func powerBlock(ctx context.Context, na *graph.NormalizedAdjacency, u []float64, vs [][]float64, gamma float64, x *mat.Dense, tol float64, maxIter int, rec progress.Recorder) (vals []float64, iters []int, conv []bool, err error) {
	n, k := x.Dims()
	// The supervision vectors are zero off the labelled nodes: keep them sparse.
	type sparse struct {
		idx []int
		val []float64
	}
	sv := make([]sparse, k)
	for c, v := range vs {
		for i, a := range v {
			if a != 0 {
				sv[c].idx = append(sv[c].idx, i)
				sv[c].val = append(sv[c].val, a)
			}
		}
	}
	vals = make([]float64, k)
	iters = make([]int, k)
	conv = make([]bool, k)
	y := mat.NewDense(n, k, nil)
	xs, ys := x.RawMatrix().Data, y.RawMatrix().Data
	tv := make([]float64, k)
	tu := make([]float64, k)
	lam := make([]float64, k)
	r2 := make([]float64, k)
	nrm := make([]float64, k)
	// Start: remove u, normalize.
	columnDots(tu, xs, u, k)
	for i, ui := range u {
		row := xs[i*k : i*k+k : i*k+k]
		for c := range row {
			row[c] -= tu[c] * ui
		}
	}
	if !normalizeColumns(xs, k, nrm) {
		return nil, nil, nil, fmt.Errorf("cluster: power method: zero starting vector")
	}
	left := k
	for it := 1; it <= maxIter && left > 0; it++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, fmt.Errorf("cluster: power method: iteration %d: %w", it, err)
		}
		na.MulTo(y, x)
		// y_c += x_c + γ v_c (v_cᵀx_c) − 2u(uᵀx_c).
		columnDots(tu, xs, u, k)
		for c := range sv {
			var t float64
			for q, i := range sv[c].idx {
				t += sv[c].val[q] * xs[i*k+c]
			}
			tv[c] = gamma * t
		}
		for i, ui := range u {
			yr, xr := ys[i*k:i*k+k:i*k+k], xs[i*k:i*k+k:i*k+k]
			for c := range yr {
				yr[c] += xr[c] - 2*tu[c]*ui
			}
		}
		for c := range sv {
			for q, i := range sv[c].idx {
				ys[i*k+c] += tv[c] * sv[c].val[q]
			}
		}
		clear(lam)
		for i := 0; i < n; i++ {
			yr, xr := ys[i*k:i*k+k:i*k+k], xs[i*k:i*k+k:i*k+k]
			for c := range yr {
				lam[c] += xr[c] * yr[c]
			}
		}
		clear(r2)
		for i := 0; i < n; i++ {
			yr, xr := ys[i*k:i*k+k:i*k+k], xs[i*k:i*k+k:i*k+k]
			for c := range yr {
				d := yr[c] - lam[c]*xr[c]
				r2[c] += d * d
			}
		}
		for c := 0; c < k; c++ {
			if conv[c] {
				continue
			}
			vals[c], iters[c] = lam[c], it
			if math.Sqrt(r2[c]) <= tol*math.Abs(lam[c]) {
				conv[c] = true
				left--
			}
		}
		// x_c ← y_c for the columns updated in this iteration (one that
		// just converged takes this last product too, then freezes),
		// minus its component along u, normalized.
		columnDots(tu, ys, u, k)
		for i := 0; i < n; i++ {
			yr, xr := ys[i*k:i*k+k:i*k+k], xs[i*k:i*k+k:i*k+k]
			for c := range yr {
				if iters[c] == it {
					xr[c] = yr[c] - tu[c]*u[i]
				}
			}
		}
		clear(nrm)
		for i := 0; i < n; i++ {
			xr := xs[i*k : i*k+k : i*k+k]
			for c, v := range xr {
				nrm[c] += v * v
			}
		}
		for c := range nrm {
			if iters[c] == it {
				if !(nrm[c] > 0) || math.IsInf(nrm[c], 0) {
					return nil, nil, nil, fmt.Errorf("cluster: power method: the operator of class %d maps the iterate to zero", c)
				}
				nrm[c] = 1 / math.Sqrt(nrm[c])
			} else {
				nrm[c] = 1
			}
		}
		for i := 0; i < n; i++ {
			xr := xs[i*k : i*k+k : i*k+k]
			for c := range xr {
				xr[c] *= nrm[c]
			}
		}
		if it%100 == 0 {
			progress.Send(rec, progress.Event{Stage: "power", Done: it, Total: maxIter, Message: fmt.Sprintf("%d of %d vectors left", left, k)})
		}
	}
	return vals, iters, conv, nil
}

// columnDots sets dst[c] = Σ_i x[i·k+c]·u[i] for the row-major n×k block x.
func columnDots(dst, x, u []float64, k int) {
	clear(dst)
	for i, ui := range u {
		row := x[i*k : i*k+k : i*k+k]
		for c, v := range row {
			dst[c] += v * ui
		}
	}
}

// normalizeColumns scales the columns of the row-major block x to unit norm
// (nrm is scratch of length k) and reports whether all were non-zero.
func normalizeColumns(x []float64, k int, nrm []float64) bool {
	clear(nrm)
	for i := 0; i+k <= len(x); i += k {
		for c, v := range x[i : i+k] {
			nrm[c] += v * v
		}
	}
	for c, v := range nrm {
		if !(v > 0) || math.IsInf(v, 0) {
			return false
		}
		nrm[c] = 1 / math.Sqrt(v)
	}
	for i := 0; i+k <= len(x); i += k {
		row := x[i : i+k]
		for c := range row {
			row[c] *= nrm[c]
		}
	}
	return true
}

// dotVec returns aᵀb.
func dotVec(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// normalizeVec scales x to unit norm and reports whether it was non-zero.
func normalizeVec(x []float64) bool {
	s := math.Sqrt(dotVec(x, x))
	if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return false
	}
	for i := range x {
		x[i] /= s
	}
	return true
}

// dominantVectors returns, for each supervision vector v_c, the unit
// eigenvector of the deflated operator deflatedOp(na, u, v_c, γ) for its
// largest eigenvalue, oriented so that vecᵀv_c ≥ 0, and that eigenvalue.
// They are computed together by the power method (powerBlock) from
// v_c/‖v_c‖ plus half a random unit vector (the supervision direction is the
// natural hint; the random part, drawn from stream id + 0x100·c, guarantees a
// component along the answer). When useSolver is set, or a vector has not
// converged after maxIter iterations, the eigensolver of s computes it
// instead; the second case adds a warning naming the class.
func dominantVectors(ctx context.Context, na *graph.NormalizedAdjacency, u []float64, vs [][]float64, gamma float64, useSolver bool, tol float64, maxIter int, s *Settings, id stream) (vecs *mat.Dense, vals []float64, warns []string, err error) {
	n, k := na.Dim(), len(vs)
	vecs = mat.NewDense(n, k, nil)
	vals = make([]float64, k)
	conv := make([]bool, k)
	if !useSolver {
		for c, v := range vs {
			rng := rand.New(s.src(id + 0x100*stream(c)))
			r := make([]float64, n)
			for i := range r {
				r[i] = rng.NormFloat64()
			}
			normalizeVec(r)
			st := append([]float64(nil), v...)
			normalizeVec(st)
			for i := range st {
				vecs.Set(i, c, st[i]+0.5*r[i])
			}
		}
		var iters []int
		vals, iters, conv, err = powerBlock(ctx, na, u, vs, gamma, vecs, tol, maxIter, s.Recorder)
		if err != nil {
			return nil, nil, nil, err
		}
		for c, ok := range conv {
			if !ok {
				warns = append(warns, fmt.Sprintf("class %d: power method not converged after %d iterations (gap too small); eigenvector computed by the eigensolver instead", c, iters[c]))
			}
		}
	}
	col := make([]float64, n)
	for c, v := range vs {
		if !conv[c] {
			res, err := s.solve(ctx, eigen.Problem{A: deflatedOp(na, u, v, gamma), K: 1, Which: eigen.Largest})
			if err != nil {
				if res == nil {
					return nil, nil, nil, err
				}
				warns = append(warns, fmt.Sprintf("class %d: %v", c, err))
			}
			vals[c] = res.Values[0]
			for i := 0; i < n; i++ {
				vecs.Set(i, c, res.Vectors.At(i, 0))
			}
		}
		mat.Col(col, c, vecs)
		if dotVec(col, v) < 0 {
			for i := 0; i < n; i++ {
				vecs.Set(i, c, -col[i])
			}
		}
	}
	return vecs, vals, warns, nil
}
