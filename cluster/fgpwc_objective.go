package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/progress"
)

// fgpwcObjective is the FGPWC cost of seed 003 eq. (1), with per-constraint
// weights w_k for soft constraints:
//
//	F(X) = Σ_k w_k (g_k − q_k)² + γ‖X‖²_F,  g_k = exp(−s_k ‖e_k X‖²),
//
// where e_k = a_k − b_k is the difference of the embedding rows of the k-th
// constrained pair (the k-th row of E = A − B), q_k = 1 for a must-link and 0
// for a cannot-link, and s_k = 1/σ_m or 1/σ_c. Writing y_k = e_k X, the
// derivative of ‖y_k‖² = e_k X Xᵀ e_kᵀ with respect to X is 2 e_kᵀ y_k, so
//
//	∇F(X) = Σ_k c_k e_kᵀ y_k + 2γX = Eᵀ diag(c) E X + 2γX,
//	c_k = w_k · 2(g_k − q_k) · g_k · (−s_k) · 2 = −4 w_k s_k g_k (g_k − q_k).
//
// One value costs a K×m by m×m product (O(K·m²)); the gradient at the same
// point one more (Eᵀ·diag(c)Y). Nothing of size n is touched.
//
// eval caches Y = EX and g at the point it was called with; gradTo reuses
// them, so the calling pattern is eval(x) then optionally gradTo(dst, x).
// An objective is not safe for concurrent use.
type fgpwcObjective struct {
	e        *mat.Dense // K×m
	s, q, w  []float64  // per constraint
	gamma    float64
	k, m     int
	y        *mat.Dense // K×m scratch: E·X at the cached point
	g        []float64  // Gaussian similarities at the cached point
	c        []float64  // gradient coefficients
	cy       *mat.Dense // K×m scratch: diag(c)·Y
	evals    int        // number of eval calls
	gradEval int        // number of gradTo calls
}

// newFGPWCObjective builds the objective for the embedding v (n×m) and the
// pairs, with s_k = 1/sigmaML or 1/sigmaCL. It precomputes E = A − B once.
func newFGPWCObjective(v *mat.Dense, pairs []constraint.Pair, sigmaML, sigmaCL, gamma float64) *fgpwcObjective {
	_, m := v.Dims()
	kk := len(pairs)
	o := &fgpwcObjective{
		s: make([]float64, kk), q: make([]float64, kk), w: make([]float64, kk),
		gamma: gamma, k: kk, m: m,
		g: make([]float64, kk), c: make([]float64, kk),
	}
	if kk == 0 {
		return o
	}
	o.e = mat.NewDense(kk, m, nil)
	o.y = mat.NewDense(kk, m, nil)
	o.cy = mat.NewDense(kk, m, nil)
	raw := o.e.RawMatrix()
	for k, p := range pairs {
		row := raw.Data[k*raw.Stride : k*raw.Stride+m]
		floats.SubTo(row, v.RawRowView(p.I), v.RawRowView(p.J))
		o.w[k] = p.W()
		if p.Kind == constraint.MustLink {
			o.q[k], o.s[k] = 1, 1/sigmaML
		} else {
			o.q[k], o.s[k] = 0, 1/sigmaCL
		}
	}
	return o
}

// eval returns F(x) and caches E·x and the similarities g_k.
func (o *fgpwcObjective) eval(x *mat.Dense) float64 {
	o.evals++
	f := 0.0
	if o.k > 0 {
		o.y.Mul(o.e, x)
		raw := o.y.RawMatrix()
		for k := 0; k < o.k; k++ {
			row := raw.Data[k*raw.Stride : k*raw.Stride+o.m]
			d := floats.Dot(row, row)
			g := math.Exp(-o.s[k] * d)
			o.g[k] = g
			r := g - o.q[k]
			f += o.w[k] * r * r
		}
	}
	if o.gamma != 0 {
		nx := mat.Norm(x, 2)
		f += o.gamma * nx * nx
	}
	return f
}

// gradTo sets dst = ∇F(x), using the values cached by the last eval, which
// must have been at x.
func (o *fgpwcObjective) gradTo(dst, x *mat.Dense) {
	o.gradEval++
	if o.k == 0 {
		dst.Scale(2*o.gamma, x)
		return
	}
	for k := range o.c {
		g := o.g[k]
		o.c[k] = -4 * o.w[k] * o.s[k] * g * (g - o.q[k])
	}
	yr, cr := o.y.RawMatrix(), o.cy.RawMatrix()
	for k := 0; k < o.k; k++ {
		floats.ScaleTo(cr.Data[k*cr.Stride:k*cr.Stride+o.m], o.c[k], yr.Data[k*yr.Stride:k*yr.Stride+o.m])
	}
	dst.Mul(o.e.T(), o.cy)
	if o.gamma != 0 {
		dst.Add(dst, scaled(2*o.gamma, x))
	}
}

func scaled(a float64, x mat.Matrix) *mat.Dense {
	var d mat.Dense
	d.Scale(a, x)
	return &d
}

// dataTerm returns Σ_k w_k (g_k − q_k)² at the cached point: the Gaussian
// fit without the regularizer.
func (o *fgpwcObjective) dataTerm() float64 {
	f := 0.0
	for k := range o.g {
		r := o.g[k] - o.q[k]
		f += o.w[k] * r * r
	}
	return f
}

// fgpwcInitial returns X₀ = (VᵀL_symV)^{-1/2} (seed 003 §3.1, thesis eq.
// 4.3.8) from vtlv = VᵀL_symV, by the symmetric eigendecomposition
// vtlv = QΛQᵀ, X₀ = QΛ^{-1/2}Qᵀ. VᵀL_symV is positive semidefinite; an
// eigenvalue at or below the floor max(10⁻¹⁰·λ_max, 10⁻¹²) (zero up to
// rounding, e.g. the extra null vectors of a disconnected graph) would give
// 1/√0. Such eigenvalues are raised to the smallest eigenvalue above the
// floor, which gives those directions the scale of the slowest non-trivial
// mode; clamped counts them. When no eigenvalue is above the floor (an
// embedding made only of null vectors) X₀ = I and clamped = m. It returns
// an error when the decomposition fails or vtlv is not finite.
func fgpwcInitial(vtlv *mat.SymDense) (x0 *mat.Dense, clamped int, err error) {
	m := vtlv.SymmetricDim()
	var es mat.EigenSym
	if !es.Factorize(vtlv, true) {
		return nil, 0, errors.New("cluster: fgpwc: eigendecomposition of VᵀL_symV failed")
	}
	lam := es.Values(nil)
	var q mat.Dense
	es.VectorsTo(&q)
	lmax := 0.0
	for _, l := range lam {
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return nil, 0, fmt.Errorf("cluster: fgpwc: VᵀL_symV has eigenvalue %v", l)
		}
		lmax = math.Max(lmax, l)
	}
	floor := math.Max(1e-10*lmax, 1e-12)
	repl := math.Inf(1)
	for _, l := range lam {
		if l > floor && l < repl {
			repl = l
		}
	}
	if math.IsInf(repl, 1) {
		x0 = mat.NewDense(m, m, nil)
		for j := 0; j < m; j++ {
			x0.Set(j, j, 1)
		}
		return x0, m, nil
	}
	scale := make([]float64, m)
	for j, l := range lam {
		if l <= floor {
			l = repl
			clamped++
		}
		scale[j] = 1 / math.Sqrt(l)
	}
	// X₀ = Q diag(scale) Qᵀ.
	qs := mat.DenseCopyOf(&q)
	for j := 0; j < m; j++ {
		col := scale[j]
		for i := 0; i < m; i++ {
			qs.Set(i, j, qs.At(i, j)*col)
		}
	}
	x0 = mat.NewDense(m, m, nil)
	x0.Mul(qs, q.T())
	// Symmetrize away rounding.
	for i := 0; i < m; i++ {
		for j := i + 1; j < m; j++ {
			a := 0.5 * (x0.At(i, j) + x0.At(j, i))
			x0.Set(i, j, a)
			x0.Set(j, i, a)
		}
	}
	return x0, clamped, nil
}

// FGPWCOptimizer selects how FGPWC minimizes F(X).
type FGPWCOptimizer int

const (
	// StepHalving is the descent of seed 003 Alg. 1: X ← X − α∇F(X) with
	// α = 1 at the start, and α ← α/2 whenever the step does not decrease F.
	// The paper keeps X* = the last point that decreased F; we read lines
	// 7–11 as backtracking, i.e. a rejected step is discarded and the next
	// trial starts again from X*, so F decreases monotonically. α never
	// grows, as in the paper. Every trial counts as one iteration (the
	// paper's i).
	StepHalving FGPWCOptimizer = iota
	// LBFGS minimizes F from the same X₀ by limited-memory BFGS (the
	// two-loop recursion of Nocedal & Wright, Numerical Optimization, Alg.
	// 7.4, 10 pairs) with a backtracking Armijo line search that halves the
	// step, so F decreases monotonically. Beyond the paper. It is
	// implemented here rather than taken from gonum/optimize because that
	// package pulls in golang.org/x/tools (through gonum/stat/distmv), which
	// is not a dependency of tether.
	LBFGS
)

// String returns "halving" or "lbfgs".
func (o FGPWCOptimizer) String() string {
	switch o {
	case StepHalving:
		return "halving"
	case LBFGS:
		return "lbfgs"
	}
	return fmt.Sprintf("FGPWCOptimizer(%d)", int(o))
}

// descentResult is what a minimization returns.
type descentResult struct {
	x          *mat.Dense
	f          float64
	gradNorm2  float64 // ‖∇F(x)‖²_F
	iterations int
	converged  bool      // ‖∇F‖² < tol reached
	trace      []float64 // F after every accepted step, starting with F(X₀)
	status     string
}

// descend minimizes o from x0 (not modified) with the given optimizer, at
// most maxIter iterations, stopping when ‖∇F‖²_F < tol. The context is
// checked every iteration; rec receives an event every 10 iterations.
func descend(ctx context.Context, o *fgpwcObjective, x0 *mat.Dense, opt FGPWCOptimizer, maxIter int, tol float64, rec progress.Recorder) (*descentResult, error) {
	switch opt {
	case StepHalving:
		return descendHalving(ctx, o, x0, maxIter, tol, rec)
	case LBFGS:
		return descendLBFGS(ctx, o, x0, maxIter, tol, rec)
	}
	return nil, fmt.Errorf("%w: fgpwc: unknown optimizer %d", ErrInvalid, int(opt))
}

func descendHalving(ctx context.Context, o *fgpwcObjective, x0 *mat.Dense, maxIter int, tol float64, rec progress.Recorder) (*descentResult, error) {
	m, _ := x0.Dims()
	x := mat.DenseCopyOf(x0)
	trial := mat.NewDense(m, m, nil)
	grad := mat.NewDense(m, m, nil)
	f := o.eval(x)
	o.gradTo(grad, x)
	gn := mat.Norm(grad, 2)
	res := &descentResult{trace: []float64{f}}
	alpha := 1.0
	i := 0
	for {
		if gn*gn < tol {
			res.converged, res.status = true, "gradient below tolerance"
			break
		}
		if i >= maxIter {
			res.status = "iteration limit"
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// Stop when the step no longer changes X in floating point.
		if alpha*gn <= 1e-15*math.Max(1, mat.Norm(x, 2)) {
			res.status = "step too small"
			break
		}
		i++
		trial.Scale(-alpha, grad)
		trial.Add(trial, x)
		ft := o.eval(trial)
		if ft < f { // F(X_i) < F(X_{i−1}): accept (Alg. 1 line 11)
			x, trial = trial, x
			f = ft
			o.gradTo(grad, x)
			gn = mat.Norm(grad, 2)
			res.trace = append(res.trace, f)
		} else { // includes NaN: reject, halve (Alg. 1 line 9)
			alpha /= 2
		}
		if rec != nil && i%10 == 0 {
			rec.Record(progress.Event{Stage: "fgpwc", Done: i, Total: maxIter, Message: fmt.Sprintf("F = %.6g, |grad|² = %.3g", f, gn*gn)})
		}
	}
	res.x, res.f, res.gradNorm2, res.iterations = x, f, gn*gn, i
	return res, nil
}

// lbfgsStore is the number of correction pairs kept by the LBFGS optimizer.
const lbfgsStore = 10

func descendLBFGS(ctx context.Context, o *fgpwcObjective, x0 *mat.Dense, maxIter int, tol float64, rec progress.Recorder) (*descentResult, error) {
	m, _ := x0.Dims()
	dim := m * m
	x := mat.DenseCopyOf(x0)
	grad := mat.NewDense(m, m, nil)
	trial := mat.NewDense(m, m, nil)
	gradT := mat.NewDense(m, m, nil)
	xs, gs, ts := x.RawMatrix().Data, grad.RawMatrix().Data, trial.RawMatrix().Data
	f := o.eval(x)
	o.gradTo(grad, x)
	res := &descentResult{trace: []float64{f}}

	sHist := make([][]float64, 0, lbfgsStore)
	yHist := make([][]float64, 0, lbfgsStore)
	rho := make([]float64, 0, lbfgsStore)
	alpha := make([]float64, lbfgsStore)
	d := make([]float64, dim)
	i := 0
	for {
		gn2 := floats.Dot(gs, gs)
		if gn2 < tol {
			res.converged, res.status = true, "gradient below tolerance"
			break
		}
		if i >= maxIter {
			res.status = "iteration limit"
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		i++
		// Two-loop recursion: d = −H·g.
		copy(d, gs)
		for j := len(sHist) - 1; j >= 0; j-- {
			alpha[j] = rho[j] * floats.Dot(sHist[j], d)
			floats.AddScaled(d, -alpha[j], yHist[j])
		}
		if h := len(sHist); h > 0 {
			sy := 1 / rho[h-1]
			yy := floats.Dot(yHist[h-1], yHist[h-1])
			floats.Scale(sy/yy, d)
		} else {
			// First step: length at most 1, as the paper's α = 1 on −∇F.
			floats.Scale(1/math.Max(1, math.Sqrt(gn2)), d)
		}
		for j := range sHist {
			b := rho[j] * floats.Dot(yHist[j], d)
			floats.AddScaled(d, alpha[j]-b, sHist[j])
		}
		floats.Scale(-1, d)
		slope := floats.Dot(gs, d)
		if !(slope < 0) {
			// Not a descent direction (lost curvature): restart from −∇F.
			sHist, yHist, rho = sHist[:0], yHist[:0], rho[:0]
			floats.ScaleTo(d, -1/math.Max(1, math.Sqrt(gn2)), gs)
			slope = floats.Dot(gs, d)
		}
		// Backtracking Armijo search, halving the step.
		t := 1.0
		var ft float64
		accepted := false
		for range 60 {
			floats.AddScaledTo(ts, xs, t, d)
			ft = o.eval(trial)
			if ft <= f+1e-4*t*slope && ft < f {
				accepted = true
				break
			}
			t /= 2
		}
		if !accepted {
			if len(sHist) > 0 {
				sHist, yHist, rho = sHist[:0], yHist[:0], rho[:0]
				continue
			}
			res.status = "line search failed"
			break
		}
		o.gradTo(gradT, trial)
		gts := gradT.RawMatrix().Data
		sv := make([]float64, dim)
		yv := make([]float64, dim)
		floats.SubTo(sv, ts, xs)
		floats.SubTo(yv, gts, gs)
		if sy := floats.Dot(sv, yv); sy > 1e-12*floats.Norm(sv, 2)*floats.Norm(yv, 2) && sy > 0 {
			if len(sHist) == lbfgsStore {
				sHist, yHist, rho = sHist[1:], yHist[1:], rho[1:]
			}
			sHist, yHist, rho = append(sHist, sv), append(yHist, yv), append(rho, 1/sy)
		}
		x, trial = trial, x
		grad, gradT = gradT, grad
		xs, gs, ts = x.RawMatrix().Data, grad.RawMatrix().Data, trial.RawMatrix().Data
		f = ft
		res.trace = append(res.trace, f)
		if rec != nil && i%10 == 0 {
			rec.Record(progress.Event{Stage: "fgpwc", Done: i, Total: maxIter, Message: fmt.Sprintf("F = %.6g, |grad|² = %.3g", f, floats.Dot(gs, gs))})
		}
	}
	res.x, res.f, res.gradNorm2, res.iterations = x, f, floats.Dot(gs, gs), i
	return res, nil
}
