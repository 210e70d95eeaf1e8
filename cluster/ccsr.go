package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
)

// Defaults of CCSR; each is documented on the knob it fills.
const (
	ccsrDefaultM       = 15 // thesis §4.3.1: the authors' example m
	ccsrDefaultTol     = 1e-7
	ccsrDefaultMaxIter = 20000
	ccsrKMeansRuns     = 30 // thesis §4.5.1, seed 003 §5.1
)

// CCSR is constrained clustering via spectral regularization (Li, Liu and
// Tang, CVPR 2009), as described in thesis §4.3.1, Alg. 13 and eq.
// 4.3.1–4.3.4. With F = (u_1 … u_m) the eigenvectors of L_sym =
// I − D^{-1/2}WD^{-1/2} for its m smallest eigenvalues (Alg. 13, lines
// 2–4) and u_i the i-th row of F, it learns the m×m matrix
//
//	M* = argmin_{M ⪰ 0} Σ_{(i,j) ∈ S} w_ij (u_iᵀ M u_j − t_ij)²       (eq. 4.3.2)
//
// over the constraint set S only (thesis: "unconstrained pairs of nodes
// are not part of this optimization problem"), with the targets of the
// ideal embedding, t_ij = 1 for a must-link and 0 for a cannot-link, and
// the weights w_ij of soft constraints (constraint.Pair.W; 1 for hard
// ones, which is the paper's unweighted objective). Eq. 4.3.2 prints
// u_iᵀ M u_i: a typo for u_iᵀ M u_j, as eq. 4.3.1 (u_iᵀXXᵀu_j) and the
// vectors s_ij = vec(u_j u_iᵀ) of eq. 4.3.3 show. The partition is k-means
// on the rows of F·M*^{1/2} (Alg. 13, line 6), Settings.Restarts runs (0:
// 30, thesis §4.5.1), keeping the run that violates the least constraint
// weight (the protocol of thesis §4.5.1 and seed 003 §5.1).
//
// The embedding keeps u_1 = D^{1/2}1/‖D^{1/2}1‖ (Alg. 13 takes "the m
// eigenvectors … corresponding to the first m smallest eigenvalues"), and
// its rows are not normalized: neither the thesis nor the paper normalizes
// them, and the targets t_ij already ask for unit-norm, orthogonal rows
// between classes. (FGPWC, by contrast, drops u_1 because its start
// (VᵀL_symV)^{-1/2} would divide by 0; CCSR has no such start.)
//
// # The solver
//
// The authors write the problem as the SDP 4.3.4 on m(m+1)/2 + 1
// variables with an (m²+1)×(m²+1) cone and solve it with CSDP; an
// interior-point method then costs about O(m⁶) per iteration, and the
// thesis (§4.3.1) and seed 003 (§5.1, Table 1: no CCSR result for m ≥ 50)
// report that it becomes intractable as m grows. The problem is a
// PSD-constrained linear least squares, f(M) = Σ_k w_k(⟨S_k, M⟩ − t_k)²
// with S_k = (u_i u_jᵀ + u_j u_iᵀ)/2, and we solve it exactly (it is
// convex) by accelerated projected gradient: FISTA with the adaptive
// restart of O'Donoghue and Candès (2015) on the objective, which makes
// it monotone (f never increases from one accepted iterate to the next),
// starting at M₀ = 0, step 1/L with L = 2λ_max(Σ_k w_k s_k s_kᵀ) (the
// Lipschitz constant of ∇f, estimated by the power method on the map
// X ↦ Σ_k w_k⟨S_k, X⟩S_k and doubled by backtracking whenever the exact
// quadratic upper bound fails), and the projection onto the PSD cone by
// clipping the negative eigenvalues of the m×m iterate. The gradient is
// G(M) = 2Σ_k w_k r_k S_k, r_k = u_iᵀMu_j − t_k, computed as AᵀDB + BᵀDA
// with A, B the K×m matrices of the constrained rows and D = diag(w∘r).
//
// The iterations run in whitened coordinates: M = PNP with P = C^{+1/2},
// C = (AᵀWA + BᵀWB)/2 the second moment of the constrained rows (its
// pseudo-inverse square root; directions that no constrained row reaches
// stay 0). The congruence keeps the cone (M ⪰ 0 ⟺ N ⪰ 0 on the range of
// P), so the projection is still an eigenvalue clipping, and it removes
// the scale disparity between eigenvectors that carry much or little
// weight on the constrained nodes: on the XOR test 25 iterations instead
// of 418, on the 10-NN benchmark graphs 2 to 4 times fewer.
//
// The stopping rule is the KKT residual of the problem in the whitened
// coordinates (equivalent: G_N = PG_MP, and ⟨N, G_N⟩ = ⟨M, G_M⟩): N ⪰ 0
// is optimal if and only if N = Π₊(N − G(N)/L) (then G ⪰ 0 and
// ⟨N, G⟩ = 0), and the solver stops when
//
//	L‖N − Π₊(N − G(N)/L)‖_F ≤ Tol·‖G(0)‖_F,
//
// Tol = 1e-7 by default; ‖G(0)‖_F = 2‖Σ_{must-links} w_k S_k‖_F sets the
// scale. A solve that stops at MaxIter, or where rounding stops the
// decrease of f first (the floor measured on the tests' instances: a
// relative residual of 1e-11 to 4e-9), warns. Rounding: the restart and
// backtracking tests use 𝒜 of differences of iterates, never differences
// of f. Cost per iteration O(K·m² + m³) for K constraints (three K×m by
// m×m products and one m×m symmetric eigendecomposition), memory
// O(K·m + m²); the n×m embedding is not touched by the solver. Measured
// (BenchmarkCCSRSolve, 2 shared cores, K ≈ 500 / 5000 constraints): m = 10
// in 14 / 90 ms, m = 20 in 63 / 166 ms, m = 50 in 0.74 / 1.07 s.
//
// With at least as many constraints as unknowns (K ≥ p = m(m+1)/2) and
// m ≤ 32, the solver works instead with the Gram matrix of the constraints
// (ccsr_gram.go): f is the quadratic xᵀHx − 2h·x + Σ w t² in the p
// coefficients of the upper triangle, H = Σ_k w_k s_k s_kᵀ, formed once in
// O(K·p²/2); every map of the constraints becomes a p×p product, O(p²)
// per iteration instead of O(K·m²), with the same iterations, tests and
// start (same iteration counts and objectives to 1e-9 relative in
// TestCCSRGramMatchesConstraints). On spambase with 5n pairs (K = 23 005,
// m = 15) one CCSR run went from 220 s to 2 s.
//
// When fewer than m(m+1)/2 independent constraints are given, as in the
// protocol of seed 003 §5.1 for m ≥ 10 on small data sets, the minimizer
// is not unique: its value is, M* is not. Ours is the limit of the
// iterations from N₀ = 0; the authors' interior-point solver returns
// another minimizer (near the analytic centre of the optimal face), so the
// partitions may differ there. With many free entries the fit overfits
// (thesis §4.5.1: with d large, "constraints are indeed satisfied but
// nothing has been learnt").
//
// When some of the m eigenvectors live on a few weakly attached nodes
// (outliers joined to the graph by weights near 0), the problem has no
// useful minimizer: the constraints see such a direction only through
// its small components on constrained nodes, f keeps decreasing as M
// stretches it without bound (the solve stops at MaxIter with a warning),
// and the few nodes it lives on become rows of F·M^{1/2} hundreds of
// times longer than the others, which k-means puts in a cluster of their
// own. On BenchmarkCCSR10kKNN (n = 10⁴, 4800 pairs, m = 15) 9 of the 15
// eigenvectors lie on 2 to 4 nodes each (eigenvalues 7·10⁻¹⁷ to 7·10⁻⁴)
// and 42 of the 120 coefficient directions of M are numerically seen by
// no constraint (Gram eigenvalues below 10⁻¹² of the largest); f is
// 240.7 at the 20000 iterations (‖M‖_F = 5·10⁵), 228.3 when the KKT test
// is met after 2·10⁶ (‖M‖_F = 5·10⁸), 225.0 by an interior-point solve
// (‖M‖_F = 2·10¹¹), and every one of these M gives ARI 0 (k-means splits
// off 2 to 7 nodes): the method, not the solver. The regularized L_sym
// (Problem.Regularize with graph.RegOn; RegAuto leaves this graph exact)
// with RowNormalize gives a bounded M in 23 iterations and ARI 0.95
// (bench/results.md, 2026-11-29). RowNormalize alone does not bound M:
// ARI 0.97 at the cap, 0 after 10⁵ iterations.
//
// Problem.K ≥ 2. The number m defaults to min(15, n − 1): the thesis
// (§4.3.1) quotes the authors' m = 15 as solvable in under a minute;
// seed 003 Table 1 runs CCSR with its per-data-set m (10 to 20 where CCSR
// finished). M ≥ n is an error wrapping ErrInvalid, as are no constraints
// at all (ErrNoSupervision too; Uses.NeedsPairs) and no must-link: with cannot-links only (t = 0) M = 0 is optimal
// and F·M^{1/2} = 0 cannot be clustered. An isolated node is an error
// wrapping graph.ErrIsolated.
//
// Result: Labels, K, Eigenvalues = the m smallest eigenvalues of L_sym,
// Embedding = F·M*^{1/2} (n×m), Objective = f(M*), Iterations = solver
// iterations. Cost: the m smallest eigenpairs of L_sym (never an n×n
// matrix for large graphs), the solve above, O(n·m²) for F·M*^{1/2}, then
// the k-means runs on n×m rows.
type CCSR struct {
	// M is the dimension m of the spectral embedding, 1 ≤ M < n. If M is
	// 0, min(15, n − 1) is used (thesis §4.3.1, the authors' m = 15).
	M int `doc:"embedding dimension m (0: min(15, n−1))" range:"[0, 1e6]"`
	// Tol is the relative KKT tolerance of the PSD least-squares solve (see
	// CCSR). If Tol is 0, 1e-7 is used.
	Tol float64 `doc:"relative KKT tolerance of the M solve (0: 1e-7)" range:"0 | [1e-15, 1)"`
	// MaxIter caps the solver's iterations. If MaxIter is 0, 20000 are
	// used; reaching it adds a warning.
	MaxIter int `doc:"iteration cap of the M solve (0: 20000)" range:"[0, 1e9]"`
	// RowNormalize, beyond Alg. 13, scales every row of F to unit length
	// before M is fitted (as NJW, thesis Alg. 3, and FGPWC's "no tuning"
	// setting, seed 003 §5.1, do), so that rows of low-degree nodes and of
	// weakly attached groups, which eigenvectors of L_sym leave short or
	// make outliers, ask no large stretch of M. It does not stop the
	// unbounded stretch of eigenvectors that live on a few such nodes
	// (see CCSR); regularizing L_sym does. The zero value false uses F as
	// Alg. 13 does.
	RowNormalize bool `doc:"unit-length rows of F before the fit (beyond Alg. 13)"`
}

// Name returns "ccsr".
func (CCSR) Name() string { return "ccsr" }

// Uses declares what CCSR reads from a Problem (see Run).
func (CCSR) Uses() Uses {
	return Uses{Supervision: Pairs, NeedsPairs: true, MinK: 2, Regularizes: true}
}

// Partition partitions p.Graph into p.K clusters using p.Constraints and the
// pairs of p.Labels.
func (c CCSR) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, c, p, s)
	if err != nil {
		return nil, err
	}
	n := p.Graph.N()
	m := c.M
	if m == 0 {
		m = min(ccsrDefaultM, n-1)
	}
	if m < 1 || m >= n {
		return nil, knobInvalid("ccsr: M = %d, want 1 ≤ M < n = %d", m, n)
	}
	tol := c.Tol
	if tol == 0 {
		tol = ccsrDefaultTol
	}
	if !(tol > 0 && tol < 1) {
		return nil, knobInvalid("ccsr: Tol = %v, want 0 < Tol < 1", tol)
	}
	maxIter := c.MaxIter
	if maxIter == 0 {
		maxIter = ccsrDefaultMaxIter
	}
	if maxIter < 0 {
		return nil, knobInvalid("ccsr: MaxIter = %d, want ≥ 0", maxIter)
	}
	pairs, warnings, err := supervisionPairsContext(ctx, "ccsr", p, s, allPairs)
	if err != nil {
		return nil, err
	}
	if len(pairs) == 0 {
		// Run refuses a problem without pairs (noPairs); on a core
		// that leaves none, the error is the same kind.
		return nil, noSupervision("ccsr: no constraints: the objective of eq. 4.3.2 is empty (0 pairs)")
	}
	ml := 0
	for _, q := range pairs {
		if q.Kind == constraint.MustLink {
			ml++
		}
	}
	if ml == 0 {
		return nil, fmt.Errorf("%w: ccsr: no must-link among the %s: M = 0 fits every cannot-link target t = 0 exactly, and F·M^{1/2} = 0 cannot be clustered", ErrInvalid, wording.Count(len(pairs), "constraint", "constraints"))
	}
	e, err := laplacianEmbedding(ctx, p.Graph, graph.Symmetric, m, p.Regularize, s)
	if err != nil {
		return nil, cancelledIn("ccsr", "spectral embedding F", err)
	}
	warnings = append(warnings, e.warnings...)
	if c.RowNormalize {
		n := p.Graph.N()
		if w := zeroRowsWarning("ccsr", normalizeRows(e.vectors, s.rowTol(n)), n); w != "" {
			warnings = append(warnings, w)
		}
	}
	a, b, t, w := ccsrRows(e.vectors, pairs)
	sol, err := ccsrSolve(ctx, a, b, t, w, ccsrOptions{tol: tol, maxIter: maxIter})
	if err == nil {
		err = sol.finite()
	}
	if errors.Is(err, ErrNumerical) {
		// An overflow of the fit: the constraint weights set its scale
		// (the rows of F are unit eigenvectors'), so name them; M = 0
		// was reported before ("the fitted M is 0", ErrInvalid).
		return nil, ccsrWeightsError(err, pairs)
	}
	if err != nil {
		return nil, cancelledIn("ccsr", "PSD least-squares fit of M (eq. 4.3.2)", err)
	}
	switch {
	case sol.converged:
	case sol.stalled:
		warnings = append(warnings, fmt.Sprintf("ccsr: the M solve reached the rounding floor after %s with relative KKT residual %.3g > Tol = %.3g", wording.Count(sol.iters, "iteration", "iterations"), sol.kkt, tol))
	default:
		warnings = append(warnings, fmt.Sprintf("ccsr: the M solve stopped at MaxIter = %d with relative KKT residual %.3g > Tol = %.3g", maxIter, sol.kkt, tol))
	}
	root, ok := ccsrSqrt(sol.m)
	if !ok {
		return nil, fmt.Errorf("%w: ccsr: the fitted M is 0 (the must-linked rows of F have no direction of positive u_iᵀu_j); nothing to cluster", ErrInvalid)
	}
	y := mat.NewDense(n, m, nil)
	y.Mul(e.vectors, root)
	out, err := partition(ctx, y, p.K, s, ccsrKMeansRuns, violationSelect(pairs))
	if err != nil {
		return nil, cancelledIn("ccsr", "k-means on the rows of F·M^{1/2}", err)
	}
	out.Eigenvalues, out.Objective, out.Iterations, out.Warnings = e.values, sol.f, sol.iters, warnings
	return out, nil
}

// finite returns an error wrapping ErrNumerical when the solve's M, f or
// KKT residual is not finite: an overflow. The whitened iterate grows
// with the constraint weights, and once ‖z − y‖² passes float64's range
// the backtracking's bound holds for a norm of +Inf, so a step of no
// valid L stalled the solve at M = 0 with a residual of +Inf, which was
// reported as "the fitted M is 0" (ErrInvalid). An overflow the
// iterations recover from (weights of 1e160 on two triangles overflow
// the first step's norm, then converge) is not one. Cost O(m²).
func (sol *ccsrSolution) finite() error {
	m := sol.m.SymmetricDim()
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			if v := sol.m.At(i, j); !ccsrFinite(v) {
				return fmt.Errorf("%w: ccsr: floating-point overflow in the M solve: M[%d][%d] = %v", ErrNumerical, i, j, v)
			}
		}
	}
	if !ccsrFinite(sol.f) || !ccsrFinite(sol.kkt) {
		return fmt.Errorf("%w: ccsr: floating-point overflow in the M solve: objective %v, relative KKT residual %v", ErrNumerical, sol.f, sol.kkt)
	}
	return nil
}

// ccsrWeightsError returns err, a numerical failure of the fit of M,
// with the constraint weights that set its scale: their range, the pair
// of the largest, and the remedy when the largest is beyond
// ccsrWeightsOverflow. The fit depends only on the ratios of
// the weights (f scales with them, its minimizer does not), and its
// whitened iterate grows in proportion to them, so that beyond about
// 1e150 its squared norm passes float64's range (measured: weights of
// 1e160 fit, 1e170 overflow, on two triangles).
func ccsrWeightsError(err error, pairs []constraint.Pair) error {
	lo, hi := math.Inf(1), 0.0
	var q constraint.Pair
	for _, p := range pairs {
		w := p.W()
		lo = min(lo, w)
		if w > hi {
			hi, q = w, p
		}
	}
	if hi < ccsrWeightsOverflow {
		// Weights within range: the overflow came from elsewhere (F's
		// rows, the graph); say the weights without blaming them.
		return fmt.Errorf("%w (constraint weights %g to %g)", err, lo, hi)
	}
	return fmt.Errorf("%w; the constraint weights are too large for the fit (overflow): they range from %g to %g (the largest on the pair of nodes %d and %d), and the fit's iterates grow with them, past float64's range beyond about %g; M depends only on their ratios: divide them all by the largest", err, lo, hi, q.I, q.J, ccsrWeightsOverflow)
}

// ccsrWeightsOverflow is about the constraint weight beyond which CCSR's
// fit overflows (ccsrWeightsError): the square root of float64's largest
// value, 1.3e154, less a margin for the rows of F.
const ccsrWeightsOverflow = 1e150

// ccsrFinite reports whether v is neither NaN nor an infinity.
func ccsrFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// ccsrRows returns the K×m matrices A and B whose k-th rows are the rows
// u_i and u_j of f for the k-th pair, the targets t_k (1 must-link, 0
// cannot-link) and the weights w_k.
func ccsrRows(f *mat.Dense, pairs []constraint.Pair) (a, b *mat.Dense, t, w []float64) {
	_, m := f.Dims()
	k := len(pairs)
	a, b = mat.NewDense(k, m, nil), mat.NewDense(k, m, nil)
	t, w = make([]float64, k), make([]float64, k)
	for i, q := range pairs {
		a.SetRow(i, f.RawRowView(q.I)[:m])
		b.SetRow(i, f.RawRowView(q.J)[:m])
		if q.Kind == constraint.MustLink {
			t[i] = 1
		}
		w[i] = q.W()
	}
	return a, b, t, w
}

// ccsrOptions controls ccsrSolve.
type ccsrOptions struct {
	tol     float64 // relative KKT tolerance
	maxIter int
	trace   bool // record f at every accepted iterate
	raw     bool // no whitening (tests)
	form    ccsrForm
}

// ccsrForm chooses how ccsrSolveRaw evaluates the constraint map.
type ccsrForm int

const (
	ccsrFormAuto        ccsrForm = iota // the Gram form when whitened and ccsrUseGram says so
	ccsrFormConstraints                 // always the K constraints (tests)
	ccsrFormGram                        // always the Gram form (tests)
)

// ccsrSolution is the result of ccsrSolve.
type ccsrSolution struct {
	m         *mat.SymDense // the minimizer, PSD
	f         float64       // f(m)
	grad      *mat.SymDense // G(m)
	kkt       float64       // L‖M − Π₊(M − G/L)‖_F / ‖G(0)‖_F
	lip       float64       // the final L
	iters     int
	restarts  int
	converged bool
	stalled   bool      // stopped by rounding (a plain step did not decrease f)
	trace     []float64 // f(x_0), f(x_1), … when ccsrOptions.trace
}

// ccsrOp holds the linear map 𝒜(X)_k = a_kᵀXb_k = ⟨S_k, X⟩ of the K
// constraints and its scratch space.
type ccsrOp struct {
	a, b *mat.Dense // K×m
	t, w []float64
	res  []float64  // K scratch: w_k(𝒜x_k − t_k)
	ax   *mat.Dense // K×m scratch
	db   *mat.Dense // K×m scratch
	mm   *mat.Dense // m×m scratch
	xd   *mat.Dense // m×m scratch: X stored in full
}

// newCCSROp returns the map of the K constraints with rows a, b (K×m),
// targets t and weights w, with its scratch space.
func newCCSROp(a, b *mat.Dense, t, w []float64) *ccsrOp {
	kk, m := a.Dims()
	return &ccsrOp{a: a, b: b, t: t, w: w, res: make([]float64, kk), ax: mat.NewDense(kk, m, nil), db: mat.NewDense(kk, m, nil), mm: mat.NewDense(m, m, nil)}
}

// objective returns f = Σ_k w_k(ax_k − t_k)² for ax = 𝒜X. O(K).
func (o *ccsrOp) objective(ax []float64) float64 {
	var f float64
	for k, v := range ax {
		r := v - o.t[k]
		f += o.w[k] * r * r
	}
	return f
}

// gradient sets g = 2Σ_k w_k(ax_k − t_k)S_k for ax = 𝒜X. O(K·m²).
func (o *ccsrOp) gradient(g *mat.SymDense, ax []float64) {
	for k, v := range ax {
		o.res[k] = o.w[k] * (v - o.t[k])
	}
	o.adjoint(g, o.res, 2)
}

// finish sets sol's M = x and its f, G and relative KKT residual, all
// computed from the constraints themselves (ax is K scratch, g and step
// m×m scratch), and marks it converged when that residual is at most tol.
func (o *ccsrOp) finish(sol *ccsrSolution, x *mat.SymDense, ax []float64, g, step *mat.SymDense, proj *psdProjector, lip, scale, tol float64) {
	o.apply(ax, x)
	o.gradient(g, ax)
	sol.m, sol.f, sol.grad, sol.lip = x, o.objective(ax), g, lip
	sol.kkt = ccsrKKT(x, ax, o.gradient, mat.NewSymDense(x.SymmetricDim(), nil), proj, step, lip) / scale
	if sol.kkt <= tol {
		sol.converged, sol.stalled = true, false
	}
}

// apply sets dst_k = a_kᵀ X b_k. Cost O(K·m²).
func (o *ccsrOp) apply(dst []float64, x *mat.SymDense) {
	_, m := o.a.Dims()
	// gonum's Dsymm is a plain loop; Dgemm on the full copy is faster.
	if o.xd == nil {
		o.xd = mat.NewDense(m, m, nil)
	}
	for i := 0; i < m; i++ {
		row := o.xd.RawRowView(i)
		for j := range row {
			row[j] = x.At(i, j)
		}
	}
	o.ax.Mul(o.a, o.xd)
	for k := range dst {
		r, s := o.ax.RawRowView(k)[:m], o.b.RawRowView(k)[:m]
		var d float64
		for j, v := range r {
			d += v * s[j]
		}
		dst[k] = d
	}
}

// adjoint sets dst = scale·Σ_k c_k S_k = scale·(AᵀCB + BᵀCA)/2, C = diag(c).
// Cost O(K·m²).
func (o *ccsrOp) adjoint(dst *mat.SymDense, c []float64, scale float64) {
	_, m := o.a.Dims()
	for k, v := range c {
		r, s := o.db.RawRowView(k)[:m], o.b.RawRowView(k)[:m]
		for j, u := range s {
			r[j] = v * u
		}
	}
	o.mm.Mul(o.a.T(), o.db)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			dst.SetSym(i, j, scale*(o.mm.At(i, j)+o.mm.At(j, i))/2)
		}
	}
}

// ccsrSolve minimizes f(M) = Σ_k w_k(a_kᵀMb_k − t_k)² over M ⪰ 0 by
// restarted FISTA with projection onto the PSD cone (see CCSR), from
// M₀ = 0, until the relative KKT residual is at most opt.tol or opt.maxIter
// iterations. a and b are K×m, t and w of length K, w > 0. The accepted
// iterates' objective never increases. Cost O(K·m² + m³) per iteration.
//
// Rounding: near the optimum f(z) − f(x) is far below the rounding of f
// itself, so the restart test and the backtracking test never subtract
// two values of f or of 𝒜: they use 𝒜 of the differences (z − y is
// formed entrywise, then mapped; 𝒜(z − x) = 𝒜(z − y) + 𝒜(y − x) and
// 𝒜(y − x) = β·𝒜(x − x_prev) is carried over), with
// f(z) − f(x) = Σ_k w_k d_k(d_k + 2r_k), d = 𝒜(z − x), r = 𝒜x − t.
// 𝒜x is recomputed from x every ccsrRefresh accepted iterations.
func ccsrSolve(ctx context.Context, a, b *mat.Dense, t, w []float64, opt ccsrOptions) (*ccsrSolution, error) {
	if opt.raw {
		return ccsrSolveRaw(ctx, a, b, t, w, opt)
	}
	p := ccsrWhitener(a, b, w)
	var ap, bp mat.Dense
	ap.Mul(a, p)
	bp.Mul(b, p)
	sol, err := ccsrSolveRaw(ctx, &ap, &bp, t, w, opt)
	if err != nil {
		return nil, err
	}
	// M = P N P and G_M(M) = P⁺ G_N P⁺ on the range of P; recompute G
	// in the caller's coordinates instead.
	_, m := a.Dims()
	var pn, mm mat.Dense
	pn.Mul(p, sol.m)
	mm.Mul(&pn, p)
	out := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			out.SetSym(i, j, (mm.At(i, j)+mm.At(j, i))/2)
		}
	}
	o := newCCSROp(a, b, t, w)
	ax := make([]float64, len(t))
	o.apply(ax, out)
	g := mat.NewSymDense(m, nil)
	o.gradient(g, ax)
	sol.m, sol.f, sol.grad = out, o.objective(ax), g
	return sol, nil
}

// ccsrWhitener returns P = C^{+1/2} (the pseudo-inverse square root) of
// the second moment C = (AᵀWA + BᵀWB)/2 of the constrained rows:
// eigenvalues below 1e-12·λ_max(C) count as 0. Substituting M = PNP
// whitens the rows (a_k ↦ Pa_k); the directions P maps to 0 are never
// seen by a constraint, where M stays 0 either way.
func ccsrWhitener(a, b *mat.Dense, w []float64) *mat.Dense {
	kk, m := a.Dims()
	wa := mat.DenseCopyOf(a)
	wb := mat.DenseCopyOf(b)
	for k := 0; k < kk; k++ {
		s := math.Sqrt(w[k] / 2)
		ra, rb := wa.RawRowView(k), wb.RawRowView(k)
		for j := range ra {
			ra[j] *= s
			rb[j] *= s
		}
	}
	c := mat.NewSymDense(m, nil)
	c.SymRankK(c, 1, wa.T())
	c.SymRankK(c, 1, wb.T())
	var e mat.EigenSym
	if !e.Factorize(c, true) {
		panic("cluster: ccsr: symmetric eigendecomposition failed")
	}
	vals := e.Values(nil)
	var v mat.Dense
	e.VectorsTo(&v)
	top := vals[m-1]
	sv := mat.NewDense(m, m, nil)
	for j, l := range vals {
		if !(l > 1e-12*top) {
			continue
		}
		s := 1 / math.Sqrt(math.Sqrt(l))
		for i := 0; i < m; i++ {
			sv.Set(i, j, v.At(i, j)*s)
		}
	}
	p := mat.NewDense(m, m, nil)
	p.Mul(sv, sv.T())
	return p
}

// ccsrSolveRaw is ccsrSolve without the whitening: ccsrFISTA on the K
// constraints themselves (ccsrRawModel), or on their Gram form
// (ccsrSolveGram) when ccsrUseGram says so.
func ccsrSolveRaw(ctx context.Context, a, b *mat.Dense, t, w []float64, opt ccsrOptions) (*ccsrSolution, error) {
	kk, m := a.Dims()
	if br, bc := b.Dims(); br != kk || bc != m || len(t) != kk || len(w) != kk {
		panic("cluster: ccsrSolve: dimension mismatch")
	}
	if opt.form == ccsrFormGram || (opt.form == ccsrFormAuto && !opt.raw && ccsrUseGram(kk, m)) {
		return ccsrSolveGram(ctx, a, b, t, w, opt)
	}
	o := newCCSROp(a, b, t, w)
	g0 := mat.NewSymDense(m, nil)
	zero := make([]float64, kk)
	o.gradient(g0, zero)
	scale := symNorm(g0)
	if scale == 0 {
		// f is minimized by M = 0: every target is 0 (or no pair).
		return &ccsrSolution{m: mat.NewSymDense(m, nil), f: o.objective(zero), grad: g0, converged: true}, nil
	}
	lip, err := ccsrLipschitz(ctx, o)
	if err != nil {
		return nil, err
	}
	fm := &ccsrRawModel{o: o, t: t, w: w, ax: make([]float64, kk), yOff: make([]float64, kk), ay: make([]float64, kk), d: make([]float64, kk), scratch: mat.NewSymDense(m, nil)}
	return ccsrFISTA(ctx, fm, o, m, lip, scale, o.objective(fm.ax), opt)
}

// ccsrModel is how ccsrFISTA evaluates f and its gradient G: from the K
// constraints (ccsrRawModel) or from their Gram form (ccsrGramModel).
// Each form tracks what it needs about the iterate x and the extrapolated
// point y between the calls, which come in the order of ccsrFISTA.
type ccsrModel interface {
	// gradAt sets g = G(y).
	gradAt(g, y *mat.SymDense)
	// stepQuad returns Σ_k w_k⟨S_k, Δ⟩² for the step Δ = z − y, the exact
	// f(z) − f(y) − ⟨G(y), z − y⟩.
	stepQuad(step *mat.SymDense) float64
	// change returns f(z) − f(x) for the z of the last stepQuad.
	change(z, x *mat.SymDense) float64
	// restart says that y was reset to x.
	restart()
	// accept says that the z of the last change became the iterate x,
	// and that y = x + β(x − x_previous).
	accept(x *mat.SymDense, beta float64)
	// kkt returns L‖X − Π₊(X − G(X)/L)‖_F at the iterate x, using step as
	// scratch.
	kkt(x *mat.SymDense, proj *psdProjector, step *mat.SymDense, lip float64) float64
}

// ccsrFISTA minimizes f over the PSD cone from M = 0 by FISTA (Beck and
// Teboulle 2009) with backtracking on L (doubled until the exact
// quadratic model lies below L/2‖z − y‖²) and adaptive restart
// (O'Donoghue and Candès 2015: when f would rise, the momentum is
// dropped and the step taken again from x; when a plain step would
// rise, the rise is rounding and the descent stops, stalled). It stops
// when the gradient map at y is small and the KKT residual at x confirms
// it (≤ opt.tol·scale), or after opt.maxIter iterations; o.finish then
// reports f, G and the residual at the result from the constraints. lip
// is the starting L (ccsrLipschitz), fx = f(0). Cost per iteration: one
// gradient, one projection per backtracking step (an m×m
// eigendecomposition), and fm's updates.
func ccsrFISTA(ctx context.Context, fm ccsrModel, o *ccsrOp, m int, lip, scale, fx float64, opt ccsrOptions) (*ccsrSolution, error) {
	proj := newPSDProjector(m)
	x, y, z := mat.NewSymDense(m, nil), mat.NewSymDense(m, nil), mat.NewSymDense(m, nil)
	g := mat.NewSymDense(m, nil)
	step := mat.NewSymDense(m, nil)
	sol := &ccsrSolution{}
	if opt.trace {
		sol.trace = append(sol.trace, fx)
	}
	tk := 1.0
	momentum := false // y ≠ x
	for sol.iters < opt.maxIter {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sol.iters++
		fm.gradAt(g, y)
		var gm float64
		for {
			// z = Π₊(y − G/L); accept L when the exact quadratic model
			// f(z) − f(y) − ⟨G, z − y⟩ lies below the bound L/2‖z − y‖².
			axpySym(step, y, -1/lip, g)
			proj.project(z, step)
			if proj.err != nil {
				return nil, proj.err
			}
			axpySym(step, z, -1, y)
			quad := fm.stepQuad(step)
			dist := symNorm(step)
			if dist == 0 || quad <= lip/2*dist*dist*(1+1e-10) {
				// dist = 0: z = y, a fixed point of the step, whatever
				// rounding leaves in quad.
				gm = lip * dist
				break
			}
			lip *= 2
			if math.IsInf(lip, 1) {
				return nil, fmt.Errorf("%w: ccsr: the step bound L overflowed in the backtracking of iteration %d (constraint weights or graph weights out of floating-point range?)", ErrNumerical, sol.iters)
			}
		}
		df := fm.change(z, x)
		if df > 0 {
			if !momentum {
				// A plain projected-gradient step with a valid L cannot
				// increase f: the increase is rounding, the floor of
				// the solver.
				sol.stalled = true
				break
			}
			// Adaptive restart: drop the momentum, step from x.
			sol.restarts++
			tk, momentum = 1, false
			y.CopySym(x)
			fm.restart()
			continue
		}
		tn := (1 + math.Sqrt(1+4*tk*tk)) / 2
		beta := (tk - 1) / tn
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				zv := z.At(i, j)
				y.SetSym(i, j, zv+beta*(zv-x.At(i, j)))
			}
		}
		x, z = z, x
		fm.accept(x, beta)
		fx += df
		tk, momentum = tn, beta != 0
		if opt.trace {
			sol.trace = append(sol.trace, fx)
		}
		if gm <= opt.tol*scale {
			// The gradient map at y is small: check the KKT residual at
			// the iterate itself.
			r := fm.kkt(x, proj, step, lip)
			if proj.err != nil {
				return nil, proj.err
			}
			if r <= opt.tol*scale {
				sol.converged = true
				break
			}
		}
	}
	// f and G at the result from the constraints themselves, and the KKT
	// residual from that G.
	o.finish(sol, x, make([]float64, o.a.RawMatrix().Rows), g, step, proj, lip, scale, opt.tol)
	if proj.err != nil {
		return nil, proj.err
	}
	return sol, nil
}

// ccsrRawModel is ccsrFISTA's f from the K constraints: it tracks 𝒜x
// (updated by differences, recomputed every ccsrRefresh accepted
// iterations) and 𝒜(y − x), so that every evaluation costs one
// application of 𝒜 (O(K·m²)).
type ccsrRawModel struct {
	o        *ccsrOp
	t, w     []float64
	ax       []float64 // 𝒜x
	yOff     []float64 // 𝒜(y − x)
	ay       []float64 // 𝒜y = 𝒜x + 𝒜(y − x)
	d        []float64 // 𝒜(z − y), then 𝒜(z − x)
	scratch  *mat.SymDense
	accepted int
}

func (r *ccsrRawModel) gradAt(g, _ *mat.SymDense) {
	for k := range r.ay {
		r.ay[k] = r.ax[k] + r.yOff[k]
	}
	r.o.gradient(g, r.ay)
}

func (r *ccsrRawModel) stepQuad(step *mat.SymDense) float64 {
	r.o.apply(r.d, step)
	var quad float64
	for k, v := range r.d {
		quad += r.w[k] * v * v
	}
	return quad
}

func (r *ccsrRawModel) change(_, _ *mat.SymDense) float64 {
	// d = 𝒜(z − x) and f(z) − f(x).
	var df float64
	for k := range r.d {
		r.d[k] += r.yOff[k]
		df += r.w[k] * r.d[k] * (r.d[k] + 2*(r.ax[k]-r.t[k]))
	}
	return df
}

func (r *ccsrRawModel) restart() {
	for k := range r.yOff {
		r.yOff[k] = 0
	}
}

func (r *ccsrRawModel) accept(x *mat.SymDense, beta float64) {
	r.accepted++
	if r.accepted%ccsrRefresh == 0 {
		r.o.apply(r.ax, x)
	} else {
		for k := range r.ax {
			r.ax[k] += r.d[k]
		}
	}
	for k := range r.yOff {
		r.yOff[k] = beta * r.d[k]
	}
}

func (r *ccsrRawModel) kkt(x *mat.SymDense, proj *psdProjector, step *mat.SymDense, lip float64) float64 {
	return ccsrKKT(x, r.ax, r.o.gradient, r.scratch, proj, step, lip)
}

// ccsrRefresh is the number of accepted iterations after which ccsrSolve
// recomputes 𝒜x from x rather than updating it.
const ccsrRefresh = 64

// ccsrKKT returns L‖X − Π₊(X − G(X)/L)‖_F, using g and tmp as scratch.
func ccsrKKT(x *mat.SymDense, ax []float64, grad func(*mat.SymDense, []float64), g *mat.SymDense, proj *psdProjector, tmp *mat.SymDense, lip float64) float64 {
	_, m := x.Dims()
	grad(g, ax)
	axpySym(tmp, x, -1/lip, g)
	p := mat.NewSymDense(m, nil)
	proj.project(p, tmp)
	return lip * math.Sqrt(symDist2(p, x))
}

// axpySym sets dst = x + c·g (upper triangles).
func axpySym(dst, x *mat.SymDense, c float64, g *mat.SymDense) {
	n := x.SymmetricDim()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dst.SetSym(i, j, x.At(i, j)+c*g.At(i, j))
		}
	}
}

// symNorm returns ‖x‖_F.
func symNorm(x *mat.SymDense) float64 {
	n := x.SymmetricDim()
	var s float64
	for i := 0; i < n; i++ {
		s += x.At(i, i) * x.At(i, i)
		for j := i + 1; j < n; j++ {
			s += 2 * x.At(i, j) * x.At(i, j)
		}
	}
	return math.Sqrt(s)
}

// symDist2 returns ‖x − y‖²_F.
func symDist2(x, y *mat.SymDense) float64 {
	n := x.SymmetricDim()
	var s float64
	for i := 0; i < n; i++ {
		d := x.At(i, i) - y.At(i, i)
		s += d * d
		for j := i + 1; j < n; j++ {
			d := x.At(i, j) - y.At(i, j)
			s += 2 * d * d
		}
	}
	return s
}

// ccsrLipschitz returns 2λ_max(T) for T(X) = Σ_k w_k⟨S_k, X⟩S_k, the
// Hessian of f, estimated by 30 power iterations at most from a fixed
// pseudo-random symmetric start (relative change 1e-3 stops earlier). The
// estimate is from below; ccsrSolve's backtracking doubles it when the
// quadratic bound fails. Cost O(K·m²) per iteration.
func ccsrLipschitz(ctx context.Context, o *ccsrOp) (float64, error) {
	kk, m := o.a.Dims()
	ax := make([]float64, kk)
	return ccsrPowerLipschitz(ctx, m, func(y, x *mat.SymDense) float64 {
		o.apply(ax, x)
		// Rayleigh quotient ⟨X, T X⟩ = Σ w ⟨S_k, X⟩².
		var rq float64
		for k, v := range ax {
			rq += o.w[k] * v * v
			ax[k] *= o.w[k]
		}
		o.adjoint(y, ax, 1)
		return rq
	})
}

// ccsrPowerLipschitz runs the power iterations of ccsrLipschitz on m×m
// symmetric matrices; tx sets y = T(X) for a unit X and returns ⟨X, TX⟩.
func ccsrPowerLipschitz(ctx context.Context, m int, tx func(y, x *mat.SymDense) float64) (float64, error) {
	x := mat.NewSymDense(m, nil)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			x.SetSym(i, j, rnd.NormFloat64())
		}
	}
	y := mat.NewSymDense(m, nil)
	var lam float64
	for it := 0; it < 30; it++ {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		nx := symNorm(x)
		if nx == 0 {
			break
		}
		x.ScaleSym(1/nx, x)
		rq := tx(y, x)
		done := it > 0 && math.Abs(rq-lam) <= 1e-3*rq
		lam = rq
		if done {
			break
		}
		x, y = y, x
	}
	if !(lam > 0) {
		lam = 1
	}
	return 2 * lam, nil
}

// psdProjector projects symmetric m×m matrices onto the PSD cone.
type psdProjector struct {
	eig  mat.EigenSym
	vec  *mat.Dense
	tmp  *mat.Dense
	vals []float64
	// err is the first failure of project (an error wrapping
	// ErrNumerical), nil while every projection succeeded: the callers
	// check it after projecting (ccsrFISTA).
	err error
}

func newPSDProjector(m int) *psdProjector {
	return &psdProjector{vec: mat.NewDense(m, m, nil), tmp: mat.NewDense(m, m, nil), vals: make([]float64, m)}
}

// project sets dst = Σ_{λ_i > 0} λ_i v_i v_iᵀ for the eigenpairs of x (the
// nearest PSD matrix in the Frobenius norm). Cost O(m³). When the
// eigendecomposition fails (x holds values out of floating-point range:
// constraint weights near 1e308 overflow the iterates) it sets dst to 0
// and records an error wrapping ErrNumerical in p.err, the first one
// kept; it panicked before (review 92).
func (p *psdProjector) project(dst, x *mat.SymDense) {
	m := x.SymmetricDim()
	if !p.eig.Factorize(x, true) {
		if p.err == nil {
			p.err = fmt.Errorf("%w: ccsr: the eigendecomposition of a %d×%d iterate of M failed in its projection onto the PSD cone (constraint or graph weights out of floating-point range?)", ErrNumerical, m, m)
		}
		dst.Zero()
		return
	}
	p.eig.Values(p.vals)
	p.eig.VectorsTo(p.vec)
	for j, l := range p.vals {
		s := 0.0
		if l > 0 {
			s = l
		}
		for i := 0; i < m; i++ {
			p.tmp.Set(i, j, p.vec.At(i, j)*s)
		}
	}
	// dst = tmp·vecᵀ, symmetric.
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			var s float64
			ri, rj := p.tmp.RawRowView(i), p.vec.RawRowView(j)
			for l := 0; l < m; l++ {
				s += ri[l] * rj[l]
			}
			dst.SetSym(i, j, s)
		}
	}
}

// ccsrSqrt returns M^{1/2} (negative eigenvalues from rounding clipped to
// 0) and false when M is 0.
func ccsrSqrt(m *mat.SymDense) (*mat.Dense, bool) {
	n := m.SymmetricDim()
	var e mat.EigenSym
	if !e.Factorize(m, true) {
		return nil, false
	}
	vals := e.Values(nil)
	var v mat.Dense
	e.VectorsTo(&v)
	top := vals[n-1]
	if !(top > 0) {
		return nil, false
	}
	s := mat.NewDense(n, n, nil)
	for j, l := range vals {
		if l <= 0 {
			continue
		}
		r := math.Sqrt(l)
		for i := 0; i < n; i++ {
			s.Set(i, j, v.At(i, j)*r)
		}
	}
	out := mat.NewDense(n, n, nil)
	out.Mul(s, v.T())
	return out, true
}
