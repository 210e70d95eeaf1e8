package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/ctxsort"
	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/wording"
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
// In the pair form, one value costs a K×m by m×m product (O(K·m²)); the
// gradient at the same point one more (Eᵀ·diag(c)Y). When the constrained
// pairs touch fewer distinct nodes u than there are pairs (u < K: 15 000
// pairs on 3000 nodes), the node form is used instead, the same numbers
// in another order: Z = V_U X for the u rows V_U of the constrained nodes
// (O(u·m²)), y_k = z_{i_k} − z_{j_k} (O(K·m)), and the gradient
// V_Uᵀ G with G = Σ_k c_k (1_{i_k} − 1_{j_k}) y_k accumulated per node
// (O(K·m + u·m²)). Nothing of size n is touched beyond the u rows.
//
// evalContext caches Y = EX and g at the point it was called with;
// gradToContext reuses them, so the calling pattern is evalContext(ctx,
// x) then optionally gradToContext(ctx, dst, x).
// An objective is not safe for concurrent use.
type fgpwcObjective struct {
	e        *mat.Dense // K×m (pair form; nil in the node form)
	vu       *mat.Dense // u×m rows of V of the constrained nodes (node form)
	ia, ib   []int32    // the pairs' rows of vu (node form)
	z, gz    *mat.Dense // u×m scratch (node form): V_U·X and G
	s, q, w  []float64  // per constraint
	gamma    float64
	k, m     int
	y        *mat.Dense // K×m scratch: E·X at the cached point
	g        []float64  // Gaussian similarities at the cached point
	c        []float64  // gradient coefficients
	cy       *mat.Dense // K×m scratch: diag(c)·Y
	evals    int        // number of evalContext calls
	gradEval int        // number of gradToContext calls
}

// fgpwcPairPoll is the number of pairs newFGPWCObjectiveContext's passes
// handle between two checks of the context: a few milliseconds.
const fgpwcPairPoll = 1 << 16

// fgpwcObjectiveBytes is an upper bound on the memory of the objective
// of kk pairs on an m-dimensional embedding: Y, C·Y and E (or the node
// form's, smaller), each kk×m, and five vectors of kk.
func fgpwcObjectiveBytes(kk, m int) int64 {
	return 8 * (3*int64(kk)*int64(m) + 5*int64(kk))
}

// FGPWCObjectiveBytes returns the memory FGPWC's objective takes for
// pairs constraints on an embedding of m columns, 8·(3·pairs·m + 5·pairs)
// bytes, the figure Settings.MaxBlockBytes bounds it by: a front end that
// checks a request's memory before running it (tether serve) counts it so
// that a request it accepts is not refused after the embedding. Cost O(1).
func FGPWCObjectiveBytes(pairs, m int) int64 { return fgpwcObjectiveBytes(pairs, m) }

// newFGPWCObjectiveContext builds the objective for the embedding v (n×m)
// and the pairs, with s_k = 1/sigmaML or 1/sigmaCL, precomputing E = A − B
// (or the node form's rows and indices) once. It checks ctx, and tells
// t (nil: none) the fraction done, every fgpwcPairPoll pairs of its two
// passes over them (their distinct nodes, then the rows of E or the node
// form's indices): about 1.5 s in all for 10⁷ pairs on the 2-core
// machine. The error is ctx.Err(), or, before anything is allocated, one
// wrapping ErrInvalid and ErrMemoryBound (Settings.checkBlocks) when the
// objective's blocks (fgpwcObjectiveBytes) need more than maxBlock bytes,
// the run's Settings.MaxBlockBytes (0: no bound): 10⁷ pairs at the
// automatic m of about 200 need 48 GB, and such a run was killed for lack
// of memory instead of being refused. Go's soft memory limit
// (debug.SetMemoryLimit, GOMEMLIMIT) is a garbage-collection target, not
// a bound, and is not read.
func newFGPWCObjectiveContext(ctx context.Context, v *mat.Dense, pairs []constraint.Pair, sigmaML, sigmaCL, gamma float64, maxBlock int64, t tick) (*fgpwcObjective, error) {
	_, m := v.Dims()
	kk := len(pairs)
	bound := Settings{MaxBlockBytes: maxBlock}
	if err := bound.checkBlocks("fgpwc", float64(fgpwcObjectiveBytes(kk, m)), fmt.Sprintf("the objective's %d×%d blocks (Y, C·Y and E) for %d constraints on an embedding of m = %d columns", kk, m, kk, m), "lower M (or MaxM), or give fewer constraints"); err != nil {
		return nil, err
	}
	o := &fgpwcObjective{
		s: make([]float64, kk), q: make([]float64, kk), w: make([]float64, kk),
		gamma: gamma, k: kk, m: m,
		g: make([]float64, kk), c: make([]float64, kk),
	}
	if kk == 0 {
		return o, nil
	}
	o.y = mat.NewDense(kk, m, nil)
	o.cy = mat.NewDense(kk, m, nil)
	// poll checks ctx and ticks at pair k of the pass (0 or 1).
	poll := func(pass, k int) error {
		if k%fgpwcPairPoll != 0 {
			return nil
		}
		t.at((float64(pass) + float64(k)/float64(kk)) / 2)
		return ctx.Err()
	}
	nodes, err := fgpwcPairNodesContext(pairs, func(k int) error { return poll(0, k) })
	if err != nil {
		return nil, err
	}
	if len(nodes) < kk {
		if err := o.nodeForm(v, pairs, nodes, func(k int) error { return poll(1, k) }); err != nil {
			return nil, err
		}
	} else {
		o.e = mat.NewDense(kk, m, nil)
		raw := o.e.RawMatrix()
		for k, p := range pairs {
			if err := poll(1, k); err != nil {
				return nil, err
			}
			floats.SubTo(raw.Data[k*raw.Stride:k*raw.Stride+m], v.RawRowView(p.I), v.RawRowView(p.J))
		}
	}
	for k, p := range pairs {
		o.w[k] = p.W()
		if p.Kind == constraint.MustLink {
			o.q[k], o.s[k] = 1, 1/sigmaML
		} else {
			o.q[k], o.s[k] = 0, 1/sigmaCL
		}
	}
	t.at(1)
	return o, ctx.Err()
}

// fgpwcPairNodesContext returns the distinct nodes of pairs, ascending,
// calling poll (nil: none) before each pair, with its index; an error of
// poll is returned.
func fgpwcPairNodesContext(pairs []constraint.Pair, poll func(k int) error) ([]int, error) {
	seen := make(map[int]bool, 2*len(pairs))
	var nodes []int
	for k, p := range pairs {
		if poll != nil {
			if err := poll(k); err != nil {
				return nil, err
			}
		}
		for _, i := range [2]int{p.I, p.J} {
			if !seen[i] {
				seen[i] = true
				nodes = append(nodes, i)
			}
		}
	}
	sort.Ints(nodes)
	return nodes, nil
}

// nodeForm sets o up for the node form (see fgpwcObjective) on the given
// distinct nodes of pairs, calling poll before each pair, with its index;
// an error of poll is returned.
func (o *fgpwcObjective) nodeForm(v *mat.Dense, pairs []constraint.Pair, nodes []int, poll func(k int) error) error {
	u := len(nodes)
	pos := make(map[int]int32, u)
	o.vu = mat.NewDense(u, o.m, nil)
	for a, i := range nodes {
		pos[i] = int32(a)
		copy(o.vu.RawRowView(a), v.RawRowView(i)[:o.m])
	}
	o.ia, o.ib = make([]int32, len(pairs)), make([]int32, len(pairs))
	for k, p := range pairs {
		if err := poll(k); err != nil {
			return err
		}
		o.ia[k], o.ib[k] = pos[p.I], pos[p.J]
	}
	o.z = mat.NewDense(u, o.m, nil)
	o.gz = mat.NewDense(u, o.m, nil)
	return nil
}

// The products of evalContext and gradToContext, fgpwcPairPoll rows at a
// time with ctx checked before each block (an evaluation of F, or of ∇F,
// over 10⁷ pairs took 1–2 s without a check). Each gives the numbers of the one
// product it replaces, bit for bit (TestFGPWCObjectiveBlocksMatch):
// gonum's Dgemm forms every entry of a product as a sum over the inner
// index in increasing order, whatever the rows of the output around it
// (mulRowBlocks), and accumulates into its output when beta = 1, so that
// a product over the inner index split in consecutive blocks, the first
// with beta = 0 and the others with beta = 1, adds the same terms in the
// same order (mulInnerBlocks).

// mulRowBlocks sets dst = a·x, as dst.Mul(a, x) does, rows rows of a at a
// time (fgpwcPairPoll in the objective), checking ctx before each block;
// the error is ctx.Err(), dst then part written.
func mulRowBlocks(ctx context.Context, dst, a, x *mat.Dense, rows int) error {
	r, c := a.Dims()
	_, w := x.Dims()
	for r0 := 0; r0 < r; r0 += rows {
		if err := ctx.Err(); err != nil {
			return err
		}
		r1 := min(r0+rows, r)
		dst.Slice(r0, r1, 0, w).(*mat.Dense).Mul(a.Slice(r0, r1, 0, c), x)
	}
	return nil
}

// mulInnerBlocks sets dst = aᵀ·b, as dst.Mul(a.T(), b) does, for a and b
// of the same rows, over rows of their rows at a time (fgpwcPairPoll in
// the objective; blas64.Gemm with beta = 0 for the first block, 1 for the
// others), checking ctx before each block; the error is ctx.Err(), dst
// then a partial sum. dst must be a's columns × b's columns.
func mulInnerBlocks(ctx context.Context, dst, a, b *mat.Dense, rows int) error {
	r, ca := a.Dims()
	_, cb := b.Dims()
	if r == 0 {
		dst.Zero() // a sum of no terms
		return ctx.Err()
	}
	for r0 := 0; r0 < r; r0 += rows {
		if err := ctx.Err(); err != nil {
			return err
		}
		r1 := min(r0+rows, r)
		beta := 1.0
		if r0 == 0 {
			beta = 0
		}
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, a.Slice(r0, r1, 0, ca).(*mat.Dense).RawMatrix(), b.Slice(r0, r1, 0, cb).(*mat.Dense).RawMatrix(), beta, dst.RawMatrix())
	}
	return nil
}

// pairPoll returns ctx's error at every fgpwcPairPoll-th pair k, nil
// otherwise.
func pairPoll(ctx context.Context, k int) error {
	if k%fgpwcPairPoll != 0 {
		return nil
	}
	return ctx.Err()
}

// pairDiffs sets o.y = E·x: one product in the pair form; Z = V_U·x and
// differences of its rows in the node form; ctx is checked every
// fgpwcPairPoll rows of the products and pairs, its error returned.
func (o *fgpwcObjective) pairDiffs(ctx context.Context, x *mat.Dense) error {
	if o.e != nil {
		return mulRowBlocks(ctx, o.y, o.e, x, fgpwcPairPoll)
	}
	if err := mulRowBlocks(ctx, o.z, o.vu, x, fgpwcPairPoll); err != nil {
		return err
	}
	zr, yr := o.z.RawMatrix(), o.y.RawMatrix()
	for k := 0; k < o.k; k++ {
		if err := pairPoll(ctx, k); err != nil {
			return err
		}
		a, b := int(o.ia[k]), int(o.ib[k])
		floats.SubTo(yr.Data[k*yr.Stride:k*yr.Stride+o.m], zr.Data[a*zr.Stride:a*zr.Stride+o.m], zr.Data[b*zr.Stride:b*zr.Stride+o.m])
	}
	return nil
}

// evalContext returns F(x) and caches E·x and the similarities g_k,
// checking ctx every fgpwcPairPoll pairs of its product and of its pass
// over the pairs (1–2 s in all at 10⁷ pairs); when ctx is cancelled it
// returns ctx.Err(), and the cache is stale.
// Cost O(K·m²) in the pair form.
func (o *fgpwcObjective) evalContext(ctx context.Context, x *mat.Dense) (float64, error) {
	o.evals++
	f := 0.0
	if o.k > 0 {
		if err := o.pairDiffs(ctx, x); err != nil {
			return 0, err
		}
		raw := o.y.RawMatrix()
		for k := 0; k < o.k; k++ {
			if err := pairPoll(ctx, k); err != nil {
				return 0, err
			}
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
	return f, nil
}

// gradToContext sets dst = ∇F(x), using the values cached by the last
// evalContext, which must have been at x, checking ctx every
// fgpwcPairPoll pairs of its passes over them and rows of its product (as
// long as an evaluation of F); when ctx is cancelled it returns
// ctx.Err(), dst then part written.
// Cost O(K·m²) in the pair form.
func (o *fgpwcObjective) gradToContext(ctx context.Context, dst, x *mat.Dense) error {
	o.gradEval++
	if o.k == 0 {
		dst.Scale(2*o.gamma, x)
		return ctx.Err()
	}
	for k := range o.c {
		if err := pairPoll(ctx, k); err != nil {
			return err
		}
		g := o.g[k]
		o.c[k] = -4 * o.w[k] * o.s[k] * g * (g - o.q[k])
	}
	yr, cr := o.y.RawMatrix(), o.cy.RawMatrix()
	for k := 0; k < o.k; k++ {
		if err := pairPoll(ctx, k); err != nil {
			return err
		}
		floats.ScaleTo(cr.Data[k*cr.Stride:k*cr.Stride+o.m], o.c[k], yr.Data[k*yr.Stride:k*yr.Stride+o.m])
	}
	if o.e != nil {
		if err := mulInnerBlocks(ctx, dst, o.e, o.cy, fgpwcPairPoll); err != nil {
			return err
		}
	} else {
		// G = Σ_k (1_{i_k} − 1_{j_k}) c_k y_k, then dst = V_Uᵀ G.
		o.gz.Zero()
		gr := o.gz.RawMatrix()
		for k := 0; k < o.k; k++ {
			if err := pairPoll(ctx, k); err != nil {
				return err
			}
			row := cr.Data[k*cr.Stride : k*cr.Stride+o.m]
			a, b := int(o.ia[k]), int(o.ib[k])
			floats.Add(gr.Data[a*gr.Stride:a*gr.Stride+o.m], row)
			floats.Sub(gr.Data[b*gr.Stride:b*gr.Stride+o.m], row)
		}
		if err := mulInnerBlocks(ctx, dst, o.vu, o.gz, fgpwcPairPoll); err != nil {
			return err
		}
	}
	if o.gamma != 0 {
		// dst += 2γx, row by row without allocating.
		for i := 0; i < o.m; i++ {
			floats.AddScaled(dst.RawRowView(i), 2*o.gamma, x.RawRowView(i))
		}
	}
	return nil
}

// medianDist2 returns the median over the constraints of ‖e_k x‖², the
// squared distance of the k-th pair in the rows of V·x (the mean of the two
// middle values for an even count); it overwrites the cached point, and
// leaves the cached similarities stale (call evalContext next). It is 0 without
// constraints. The distances are evalContext's, computed fgpwcPairPoll rows of
// E·x (or of V_U·x and the pairs) at a time, and ordered by
// ctxsort.ByKey, the order of sort.Float64s (NaN first): ctx is checked
// between the blocks and in the sort (10⁷ pairs took about 1 s without a
// check), its error returned, and t (nil: none) told the fraction done.
// Cost that of evalContext and O(K) for the sort.
func (o *fgpwcObjective) medianDist2(ctx context.Context, x *mat.Dense, t tick) (float64, error) {
	if o.k == 0 {
		return 0, ctx.Err()
	}
	// rows sets dst = a·x fgpwcPairPoll rows at a time, as dst.Mul(a, x)
	// (each row of the product is formed alone, in the same order), the
	// fraction done of [f0, f1] told to t.
	rows := func(dst, a *mat.Dense, f0, f1 float64) error {
		r, _ := a.Dims()
		for r0 := 0; r0 < r; r0 += fgpwcPairPoll {
			if err := ctx.Err(); err != nil {
				return err
			}
			t.at(f0 + (f1-f0)*float64(r0)/float64(r))
			r1 := min(r0+fgpwcPairPoll, r)
			dst.Slice(r0, r1, 0, o.m).(*mat.Dense).Mul(a.Slice(r0, r1, 0, o.m), x)
		}
		return nil
	}
	// The products, then the distances, to 0.4; the sort after.
	f0 := 0.3
	if o.e != nil {
		if err := rows(o.y, o.e, 0, f0); err != nil {
			return 0, err
		}
	} else {
		f0 = 0.1
		if err := rows(o.z, o.vu, 0, f0); err != nil {
			return 0, err
		}
	}
	d := make([]float64, o.k)
	yr := o.y.RawMatrix()
	for k := range d {
		if k%fgpwcPairPoll == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			t.at(f0 + (0.4-f0)*float64(k)/float64(o.k))
		}
		row := yr.Data[k*yr.Stride : k*yr.Stride+o.m]
		if o.e == nil {
			// evalContext's pairDiffs, pair by pair.
			a, b := int(o.ia[k]), int(o.ib[k])
			floats.SubTo(row, o.z.RawRowView(a), o.z.RawRowView(b))
		}
		d[k] = floats.Dot(row, row)
	}
	if err := ctxsort.ByKey(ctx, d, floatOrder, func(f float64) { t.at(0.4 + 0.6*f) }); err != nil {
		return 0, err
	}
	t.at(1)
	if o.k%2 == 1 {
		return d[o.k/2], nil
	}
	return 0.5 * (d[o.k/2-1] + d[o.k/2]), nil
}

// floatOrder maps v to a key whose order is that of sort.Float64s: NaN
// first, then −Inf … +Inf (−0 before +0, which sort.Float64s does not
// order).
func floatOrder(v float64) uint64 {
	if math.IsNaN(v) {
		return 0
	}
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b // negative: larger magnitudes first
	}
	return b | 1<<63
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
	// LBFGS minimizes F from the same X₀ by limited-memory BFGS: gonum's
	// optimize.LBFGS (15 correction pairs, bisection line search under the
	// strong Wolfe conditions) driven by optimize.Minimize. Beyond the
	// paper. An iteration is one major iteration (one line search).
	LBFGS
)

// fgpwcOptimizerNames are the names of the FGPWCOptimizer values, in order.
var fgpwcOptimizerNames = []string{"halving", "lbfgs"}

// String returns "halving" or "lbfgs".
func (v FGPWCOptimizer) String() string { return enum.String("FGPWCOptimizer", fgpwcOptimizerNames, v) }

// MarshalText returns the name of v.
func (v FGPWCOptimizer) MarshalText() ([]byte, error) {
	return enum.Marshal("optimizer", fgpwcOptimizerNames, v)
}

// UnmarshalText sets v from its name (halving or lbfgs, any case), so that it works
// as a command-line value (tether cluster -set Optimizer=…) and in JSON.
func (v *FGPWCOptimizer) UnmarshalText(b []byte) error {
	return parseEnum(v, "optimizer", fgpwcOptimizerNames, b)
}

// descentStop is when a descent stops: after maxIter iterations, when
// ‖∇F‖²_F < gradTol (absolute), or when F decreased by at most
// fTol·F over the last window accepted steps (fTol = 0 disables the test).
type descentStop struct {
	maxIter int
	gradTol float64
	fTol    float64
	window  int
	// snaps, if not nil, are iteration caps ≤ maxIter, ascending: the
	// descent records the point it would return if stopped at each
	// (descentResult.snapX), so that one descent to maxIter gives the
	// results of the descents capped at every snap (IterCV).
	snaps []int
}

// flat reports whether the relative-decrease test stops the descent, given
// F after every accepted step (trace[0] = F(X₀)).
func (st descentStop) flat(trace []float64) bool {
	w := st.window
	if st.fTol <= 0 || w <= 0 || len(trace) <= w {
		return false
	}
	old, f := trace[len(trace)-1-w], trace[len(trace)-1]
	return old-f <= st.fTol*math.Abs(old)
}

// descentResult is what a minimization returns.
type descentResult struct {
	x          *mat.Dense
	f          float64
	gradNorm2  float64 // ‖∇F(x)‖²_F
	iterations int
	converged  bool      // stopped by the gradient or the relative-decrease test
	trace      []float64 // F after every accepted step, starting with F(X₀)
	status     string
	// snapX[i] and snapF[i] are the point and F a descent capped at
	// descentStop.snaps[i] iterations returns (nil without snaps).
	snapX []*mat.Dense
	snapF []float64
}

// warning returns the Result warning for a descent that ended neither by
// its convergence tests nor at its iteration cap (a step too small to
// change X, or an L-BFGS line search that failed), "" otherwise and when
// there were no constraints (npairs = 0: F has no data term). The cap is
// FGPWC's early stopping (FGPWC.MaxIter), so ending there is the design,
// not a condition to warn about.
func (r *descentResult) warning(npairs int) string {
	if npairs == 0 || r.converged || r.status == "iteration limit" {
		return ""
	}
	return fmt.Sprintf("fgpwc: descent stopped after %s (%s) with ‖∇F‖² = %.3g", wording.Count(r.iterations, "iteration", "iterations"), r.status, r.gradNorm2)
}

// snapAt records x and f for every cap of st.snaps equal to iteration i
// not recorded yet.
func (r *descentResult) snapAt(st descentStop, i int, x *mat.Dense, f float64) {
	for len(r.snapX) < len(st.snaps) && st.snaps[len(r.snapX)] == i {
		r.snapX = append(r.snapX, mat.DenseCopyOf(x))
		r.snapF = append(r.snapF, f)
	}
}

// fillSnaps records the final point for the caps of st.snaps the descent
// did not reach (it stopped before them, so a descent capped there
// returns the same point).
func (r *descentResult) fillSnaps(st descentStop) {
	for len(r.snapX) < len(st.snaps) {
		r.snapX = append(r.snapX, mat.DenseCopyOf(r.x))
		r.snapF = append(r.snapF, r.f)
	}
}

// descend minimizes o from x0 (not modified) with the given optimizer until
// st says stop. The context is checked every iteration; rec receives an
// event every iteration (one took a second with 10⁷ pairs, where every
// 10th left a run of 9 iterations at 0/9). Cost: O(K·m²) per evaluation of F or ∇F, one
// of each per accepted step; nothing of size n.
func descend(ctx context.Context, o *fgpwcObjective, x0 *mat.Dense, opt FGPWCOptimizer, st descentStop, rec progress.Recorder) (*descentResult, error) {
	switch opt {
	case StepHalving:
		return descendHalving(ctx, o, x0, st, rec)
	case LBFGS:
		return descendLBFGS(ctx, o, x0, st, rec)
	}
	return nil, fmt.Errorf("%w: fgpwc: unknown optimizer %d", ErrInvalid, int(opt))
}

func descendHalving(ctx context.Context, o *fgpwcObjective, x0 *mat.Dense, st descentStop, rec progress.Recorder) (*descentResult, error) {
	m, _ := x0.Dims()
	x := mat.DenseCopyOf(x0)
	trial := mat.NewDense(m, m, nil)
	grad := mat.NewDense(m, m, nil)
	f, err := o.evalContext(ctx, x)
	if err != nil {
		return nil, err
	}
	if err := o.gradToContext(ctx, grad, x); err != nil {
		return nil, err
	}
	gn := mat.Norm(grad, 2)
	res := &descentResult{trace: []float64{f}}
	alpha := 1.0
	i := 0
	for {
		// A descent capped at i iterations stops at this point, whatever
		// the tests below say.
		res.snapAt(st, i, x, f)
		if gn*gn < st.gradTol {
			res.converged, res.status = true, "gradient below tolerance"
			break
		}
		if st.flat(res.trace) {
			res.converged, res.status = true, "relative decrease of F below tolerance"
			break
		}
		if i >= st.maxIter {
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
		ft, err := o.evalContext(ctx, trial)
		if err != nil {
			return nil, err
		}
		if ft < f { // F(X_i) < F(X_{i−1}): accept (Alg. 1 line 11)
			x, trial = trial, x
			f = ft
			if err := o.gradToContext(ctx, grad, x); err != nil {
				return nil, err
			}
			gn = mat.Norm(grad, 2)
			res.trace = append(res.trace, f)
		} else { // includes NaN: reject, halve (Alg. 1 line 9)
			alpha /= 2
		}
		if rec != nil {
			rec.Record(progress.Event{Stage: "fgpwc", Done: i, Total: st.maxIter, Message: fmt.Sprintf("F = %.6g, |grad|² = %.3g", f, gn*gn)})
		}
	}
	res.x, res.f, res.gradNorm2, res.iterations = x, f, gn*gn, i
	res.fillSnaps(st)
	return res, nil
}

// lbfgsDriver adapts the objective to gonum's optimize package: it is the
// optimize.Problem's Func and Grad, the Converger (gradient and
// relative-decrease tests of descentStop) and the Recorder (cancellation,
// progress, trace).
type lbfgsDriver struct {
	ctx   context.Context
	o     *fgpwcObjective
	st    descentStop
	rec   progress.Recorder
	m     int
	at    []float64 // the point o's cache holds
	trace []float64
	iter  int
	stat  string
	snaps descentResult // the points at the caps of st.snaps
}

// point returns x as an m×m matrix sharing its data.
func (d *lbfgsDriver) point(x []float64) *mat.Dense {
	return mat.NewDense(d.m, d.m, x)
}

// fn is F at x, checking d.ctx as evalContext does: when it is cancelled
// F is NaN, and the cache is marked stale (d.at NaN); Record then stops
// the minimization with ctx's error.
func (d *lbfgsDriver) fn(x []float64) float64 {
	f, err := d.o.evalContext(d.ctx, d.point(x))
	if err != nil {
		for i := range d.at {
			d.at[i] = math.NaN()
		}
		return math.NaN()
	}
	copy(d.at, x)
	return f
}

// grad sets g = ∇F(x), checking d.ctx as gradToContext does: when it is
// cancelled g is NaN, and Record then stops the minimization.
func (d *lbfgsDriver) grad(g, x []float64) {
	if !floats.Equal(d.at, x) {
		d.fn(x)
	}
	if d.o.gradToContext(d.ctx, d.point(g), d.point(x)) != nil {
		for i := range g {
			g[i] = math.NaN()
		}
	}
}

// lbfgsConverger is the driver as an optimize.Converger.
type lbfgsConverger struct{ *lbfgsDriver }

func (lbfgsConverger) Init(int) {}

func (d lbfgsConverger) Converged(loc *optimize.Location) optimize.Status {
	if loc.Gradient != nil && floats.Dot(loc.Gradient, loc.Gradient) < d.st.gradTol {
		d.stat = "gradient below tolerance"
		return optimize.GradientThreshold
	}
	if d.st.flat(d.trace) {
		d.stat = "relative decrease of F below tolerance"
		return optimize.FunctionConvergence
	}
	return optimize.NotTerminated
}

// Init and Record make the driver an optimize.Recorder: it keeps the trace
// of F at major iterations, reports progress and aborts on cancellation.
func (d *lbfgsDriver) Init() error { return nil }

func (d *lbfgsDriver) Record(loc *optimize.Location, op optimize.Operation, _ *optimize.Stats) error {
	if err := d.ctx.Err(); err != nil {
		return err
	}
	if op == optimize.MajorIteration {
		// gonum's line-search methods announce the initial point as their
		// first major iteration: it starts the trace and is not counted.
		d.trace = append(d.trace, loc.F)
		d.iter = len(d.trace) - 1
		// gonum records only iterations that do not end the run, so a
		// run capped here continues no further than loc.
		d.snaps.snapAt(d.st, d.iter, mat.NewDense(d.m, d.m, loc.X), loc.F)
		if d.rec != nil {
			d.rec.Record(progress.Event{Stage: "fgpwc", Done: d.iter, Total: d.st.maxIter, Message: fmt.Sprintf("F = %.6g, |grad|² = %.3g", loc.F, floats.Dot(loc.Gradient, loc.Gradient))})
		}
	}
	return nil
}

func descendLBFGS(ctx context.Context, o *fgpwcObjective, x0 *mat.Dense, st descentStop, rec progress.Recorder) (*descentResult, error) {
	m, _ := x0.Dims()
	d := &lbfgsDriver{ctx: ctx, o: o, st: st, rec: rec, m: m, at: make([]float64, m*m)}
	init := mat.DenseCopyOf(x0).RawMatrix().Data
	f0 := d.fn(init)
	g0 := make([]float64, m*m)
	d.grad(g0, init)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &descentResult{}
	if floats.Dot(g0, g0) < st.gradTol || st.maxIter == 0 {
		res.x, res.f, res.gradNorm2, res.trace = mat.NewDense(m, m, init), f0, floats.Dot(g0, g0), []float64{f0}
		res.converged, res.status = st.maxIter > 0, "gradient below tolerance"
		if st.maxIter == 0 {
			res.status = "iteration limit"
		}
		res.fillSnaps(st)
		return res, nil
	}
	settings := &optimize.Settings{
		InitValues: &optimize.Location{F: f0, Gradient: g0},
		// gonum counts the start as the first major iteration: one more
		// allows st.maxIter steps.
		MajorIterations: st.maxIter + 1,
		Converger:       lbfgsConverger{d},
		Recorder:        d,
	}
	r, err := optimize.Minimize(optimize.Problem{Func: d.fn, Grad: d.grad}, init, settings, &optimize.LBFGS{})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if r == nil {
		return nil, fmt.Errorf("cluster: fgpwc: L-BFGS: %w", err)
	}
	// gonum returns the best point found; an error (e.g. a line search that
	// cannot make progress, which happens at a minimum in floating point)
	// still leaves a usable point, reported in the status.
	res.x = mat.NewDense(m, m, append([]float64(nil), r.X...))
	res.f = r.F
	g := r.Gradient
	if g == nil {
		g = make([]float64, m*m)
		d.grad(g, r.X)
	}
	res.gradNorm2 = floats.Dot(g, g)
	res.trace = d.trace
	if len(res.trace) == 0 || res.trace[0] != f0 {
		res.trace = append([]float64{f0}, res.trace...)
	}
	if r.F < res.trace[len(res.trace)-1] {
		// gonum returns the best point evaluated, which may come from the
		// last line search (its last step is not announced as a major
		// iteration).
		res.trace = append(res.trace, r.F)
	}
	// One accepted step per point after the start.
	res.iterations = len(res.trace) - 1
	switch {
	case err != nil:
		res.status = "L-BFGS stopped: " + err.Error()
	case r.Status == optimize.IterationLimit:
		res.status = "iteration limit"
	default:
		res.converged, res.status = true, d.stat
	}
	res.snapX, res.snapF = d.snaps.snapX, d.snaps.snapF
	res.fillSnaps(st)
	return res, nil
}
