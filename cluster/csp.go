package cluster

import (
	"context"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// CSP is the flexible constrained spectral clustering (FCSC, "CSP" in the
// tables of seed 003 and the thesis) of Wang and Davidson (KDD 2010),
// described in seed 002 §4.3 (eq. 28–30) and seed 001 eq. 3.7. With the
// constraint matrix Q (q_ij = +w for a must-link, −w for a cannot-link, 0
// otherwise; seed 002 eq. 28), the normalized Laplacian
// L̄ = I − D^{-1/2}WD^{-1/2} and Q̄ = D^{-1/2}QD^{-1/2}, it solves
//
//	min vᵀL̄v  s.t.  vᵀQ̄v ≥ α,  vᵀv = vol,  v ⊥ D^{1/2}1      (seed 002 eq. 30)
//
// through the generalized eigenproblem
//
//	L̄v = λ(Q̄ − α/vol·I)v,  v ⊥ D^{1/2}1,                        (1)
//
// whose eigenvectors of positive λ, scaled to vᵀv = vol, are exactly the
// feasible ones: vᵀL̄v > 0 and λ > 0 give vᵀQ̄v − α = vᵀL̄v/λ > 0. The
// sources write v ≠ D^{1/2}1 (seed 002) or x ≠ 1 (seed 001) and discard the
// trivial eigenvector; we impose v ⊥ D^{1/2}1 as SPEC.md §7 states it, the
// constraint of every spectral relaxation of a balanced cut, by restricting
// (1) to the complement of n = D^{1/2}1/√vol (the KKT system of the problem
// with that constraint). The sources' unrestricted eigenvectors are only
// B-orthogonal to n, not orthogonal.
//
// # The indefinite pencil
//
// B = Q̄ − α/vol·I is indefinite, so (1) is not a symmetric-definite
// problem as written. We solve the reciprocal pencil instead: with P =
// I − nnᵀ and μ = 1/λ,
//
//	P B P v = μ (L̄ + nnᵀ) v.                                      (2)
//
// M = L̄ + nnᵀ is positive definite on a connected graph (L̄ is positive
// semidefinite with null space span{n}), so (2) is symmetric-definite and
// its eigenvalues are real; n is an eigenvector with μ = 0 (PBPn = 0), and
// every other eigenvector is M-orthogonal to it, nᵀMv = nᵀv = 0, hence in
// n^⊥, where Mv = L̄v and PBPv = PBv: (2) is (1) restricted to n^⊥ with
// μ = 1/λ. So the feasible vectors are the eigenvectors of (2) with μ > 0,
// the largest ones. By Sylvester's law of inertia (M is definite) their
// number equals the number of positive eigenvalues of PBP, at most the
// number of eigenvalues of Q̄ above α/vol (Cauchy interlacing): a handful
// for the default α, whatever n is. A disconnected graph makes M singular
// (every component indicator costs 0); CSP returns an error wrapping
// ErrInvalid then: cluster the components separately.
//
// For n ≤ DenseLimit, (2) is solved completely by the dense solver; above,
// the largest eigenpairs are computed by LOBPCG with B = M (n deflated),
// never forming an n×n matrix, doubling the number requested until a
// non-positive μ shows that all feasible vectors were found, up to
// cspMaxVectors (a warning says when more feasible vectors may exist).
// Settings.Eigen, if set, replaces both solvers.
//
// # Partition
//
// Each feasible vector is scaled to vᵀv = vol; its cost is vᵀL̄v. For k = 2
// the feasible vector of lowest cost is split by the sign of u = D^{-1/2}v
// (Wang and Davidson's Alg. 1). For k > 2 the k − 1 feasible vectors of
// lowest cost (Wang, Qian and Davidson 2012, cited in seed 002 §4.3 as
// "top-K") form the embedding D^{-1/2}V, clustered by k-means keeping the
// run with the fewest violated constraints. With fewer than k − 1 feasible
// vectors there is no feasible K-way embedding and CSP returns an error
// wrapping ErrInvalid: seed 002 §6.1 (lines 324–326) reports the same for
// every multiclass data set at the default α ("it does not allow to obtain
// a feasible solution with the fixed value of θ", θ a typo for α).
// Lowering AlphaFraction admits more vectors.
//
// α defaults to 0.5·λ_max(Q̄)·vol (seed 002 §6.1, line 297; seed 001 §5.1.2
// says α = λ_max(Q̄), which is outside the feasible range α < λ_max·vol
// for the normalization vᵀv = vol, so we follow seed 002). When
// α ≥ λ_max(PQ̄P)·vol no vector is feasible and CSP returns an error
// wrapping ErrInvalid that names α and λ_max(Q̄). Without any constraint
// Q̄ = 0 and the problem is ill-posed: also an error.
//
// Result: Labels, K, Eigenvalues the λ = 1/μ of the selected vectors in
// increasing cost, Embedding D^{-1/2}V (n×1 for k = 2), Objective the sum
// of their costs vᵀL̄v (the relaxed constrained cut, eq. 30), Iterations
// the k-means iterations (k > 2).
//
// A node of degree 0 is an error wrapping graph.ErrIsolated. Cost: one
// extreme-eigenvalue solve of Q̄ (O(nnz(Q)) per product), then (2): O(n³)
// for n ≤ DenseLimit, else LOBPCG at O((nnz(W) + nnz(Q) + n)·b + n·b²)
// per iteration for b vectors; its iteration count grows with the
// condition number of L̄ on n^⊥, 2/λ₂(L̄). Memory O(nnz + n·b).
type CSP struct {
	// AlphaFraction sets α = AlphaFraction·λ_max(Q̄)·vol. Values of 1 or
	// more are infeasible. If AlphaFraction is 0, 0.5 is used (seed 002
	// §6.1, line 297).
	AlphaFraction float64 `doc:"α as a fraction of λ_max(Q̄)·vol (0: 0.5)" range:"0 | (0, inf)"`
}

// Name returns "csp".
func (CSP) Name() string { return "csp" }

// Uses declares what CSP reads from a Problem (see Run).
func (CSP) Uses() Uses { return Uses{Supervision: Pairs, MinK: 2} }

// cspMaxVectors caps the number of eigenpairs of (2) computed by the
// iterative path: LOBPCG's block algebra costs O(n·b²) per iteration.
const cspMaxVectors = 64

// cspFeasTol is the relative tolerance of the feasibility check
// vᵀQ̄v ≥ α(1 − cspFeasTol) applied to each vector of μ > 0.
const cspFeasTol = 1e-6

// Partition partitions p.Graph into p.K clusters using p.Constraints and the
// pairs of p.Labels.
func (c CSP) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	frac := c.AlphaFraction
	if frac == 0 {
		frac = 0.5
	}
	if !(frac > 0) || math.IsInf(frac, 0) {
		return nil, fmt.Errorf("%w: csp: AlphaFraction = %v must be > 0", ErrInvalid, frac)
	}
	pairs, warnings, err := supervisionPairs("csp", p, s, allPairs)
	if err != nil {
		return nil, err
	}
	sol, err := cspSolve(ctx, p.Graph, pairs, frac, p.K-1, s)
	if err != nil {
		return nil, err
	}
	warnings = append(warnings, sol.warnings...)
	if len(sol.values) < p.K-1 {
		return nil, fmt.Errorf("%w: csp: k = %d needs %d feasible eigenvectors, only %d have λ > 0 at α = %.4g (λ_max(Q̄) = %.4g, vol = %.4g); lower AlphaFraction (seed 002 §6.1 reports FCSC infeasible for K > 2)", ErrInvalid, p.K, p.K-1, len(sol.values), sol.alpha, sol.qmax, sol.vol)
	}
	m := p.K - 1
	u := mat.NewDense(p.Graph.N(), m, nil)
	u.Copy(sol.vectors.Slice(0, p.Graph.N(), 0, m))
	deg := p.Graph.Degrees()
	var obj float64
	for j := 0; j < m; j++ {
		obj += sol.costs[j]
	}
	for i, d := range deg {
		row := u.RawRowView(i)
		for j := range row {
			row[j] /= math.Sqrt(d)
		}
	}
	if p.K == 2 {
		labels := make([]int, p.Graph.N())
		pos := 0
		for i := range labels {
			if u.At(i, 0) > 0 {
				labels[i] = 1
				pos++
			}
		}
		if pos == 0 || pos == len(labels) {
			warnings = append(warnings, "csp: the feasible vector of lowest cost has one sign: one cluster")
		}
		return &Result{Labels: labels, K: 2, Eigenvalues: sol.values[:1:1], Embedding: u, Objective: obj, Warnings: warnings}, nil
	}
	out, err := partition(ctx, u, p.K, s.derive(streamCSP), 10, violationSelect(pairs))
	if err != nil {
		return nil, err
	}
	out.Eigenvalues, out.Objective, out.Warnings = sol.values[:m:m], obj, warnings
	return out, nil
}

// cspSolution holds the feasible eigenvectors of (1), in increasing cost.
type cspSolution struct {
	values   []float64  // λ = 1/μ
	costs    []float64  // vᵀL̄v with vᵀv = vol
	vectors  *mat.Dense // n×len(values), vᵀv = vol, ⊥ D^{1/2}1
	alpha    float64
	qmax     float64 // λ_max(Q̄)
	vol      float64
	warnings []string
}

// cspSolve returns the feasible eigenvectors of (1) for α = frac·λ_max(Q̄)·vol
// (see CSP), all of them when there are at most cspMaxVectors, and at least
// want of them when they exist (the iterative path stops early once it has
// want vectors and a non-positive μ). It returns an error wrapping
// ErrInvalid when none is feasible.
func cspSolve(ctx context.Context, g *graph.Graph, pairs []constraint.Pair, frac float64, want int, s *Settings) (*cspSolution, error) {
	n := g.N()
	deg := g.Degrees()
	var vol float64
	for i, d := range deg {
		if !(d > 0) {
			return nil, fmt.Errorf("cluster: csp: %w: node %d has degree 0", graph.ErrIsolated, i)
		}
		vol += d
	}
	if _, nc := g.Components(); nc > 1 {
		return nil, fmt.Errorf("%w: csp: the graph has %d connected components; L̄ is then singular on D^{1/2}1^⊥ (each component indicator has cost 0) and FCSC is ill-posed: cluster the components separately", ErrInvalid, nc)
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("%w: csp: no constraints: Q̄ = 0, so FCSC has no feasible vector (λ_max(Q̄) = 0)", ErrInvalid)
	}
	op := newCSPOps(g, pairs, deg, vol)
	// λ_max(Q̄): Q̄ has a zero diagonal and a non-zero entry, so trace 0
	// makes λ_max > 0.
	qres, err := s.solve(ctx, eigen.Problem{A: &op.qbar, K: 1, Which: eigen.Largest})
	if err != nil && qres == nil {
		return nil, err
	}
	sol := &cspSolution{qmax: qres.Values[0], vol: vol}
	if err != nil {
		sol.warnings = append(sol.warnings, "csp: λ_max(Q̄): "+err.Error())
	}
	sol.alpha = frac * sol.qmax * vol
	op.c = sol.alpha / vol
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	nv := mat.NewDense(n, 1, op.sqd)
	m := &cspMOp{o: op}
	a := &cspAOp{o: op}
	// Dense: all n pairs. Iterative: doubling until a μ ≤ 0 shows.
	kk := n
	iterative := s.Eigen == nil && n > DenseLimit
	if iterative {
		kk = min(n-1, max(2*want+2, 8))
	}
	var res *eigen.Result
	for {
		prob := eigen.Problem{A: a, B: m, K: kk, Which: eigen.Largest, Deflate: nv, DeflateValues: []float64{0}}
		res, err = genSolve(ctx, prob, s)
		if err != nil && res == nil {
			return nil, err
		}
		if err != nil {
			sol.warnings = append(sol.warnings, "csp: "+err.Error())
		}
		// The K pairs include the deflated n (μ = 0), placed by value: all
		// feasible vectors are found once fewer than K − 1 have μ > 0.
		if !iterative || cspPositive(res.Values) < kk-1 || kk >= min(n-1, cspMaxVectors) {
			break
		}
		kk = min(n-1, 2*kk, cspMaxVectors)
	}
	if iterative && cspPositive(res.Values) >= kk-1 {
		sol.warnings = append(sol.warnings, fmt.Sprintf("csp: the %d largest μ = 1/λ are all positive; more feasible vectors may exist, and only these were compared by cost", kk-1))
	}
	// Keep μ > 0 (relative to the spectrum's scale) and check feasibility.
	scale := cspScale(res.Values)
	type cand struct {
		j          int
		lam, cost  float64
		normFactor float64
	}
	var cs []cand
	x := mat.NewDense(n, 1, nil)
	qx := mat.NewDense(n, 1, nil)
	for j, mu := range res.Values {
		if !(mu > 1e-10*scale) { // the same test as cspPositive
			continue
		}
		x.Copy(res.Vectors.Slice(0, n, j, j+1))
		// Remove any rounding component along n (exactly 0 in theory).
		var dot float64
		for i := 0; i < n; i++ {
			dot += op.sqd[i] * x.At(i, 0)
		}
		for i := 0; i < n; i++ {
			x.Set(i, 0, x.At(i, 0)-dot*op.sqd[i])
		}
		nrm := mat.Norm(x, 2)
		if nrm == 0 {
			continue
		}
		f := math.Sqrt(vol) / nrm
		op.qbar.MulTo(qx, x)
		vq := mat.Dot(x.ColView(0), qx.ColView(0)) * f * f
		if vq < sol.alpha*(1-cspFeasTol) {
			sol.warnings = append(sol.warnings, fmt.Sprintf("csp: eigenvector with μ = %.4g fails vᵀQ̄v ≥ α (%.6g < %.6g) numerically; dropped", mu, vq, sol.alpha))
			continue
		}
		op.lbarMul(qx, x)
		cs = append(cs, cand{j: j, lam: 1 / mu, cost: mat.Dot(x.ColView(0), qx.ColView(0)) * f * f, normFactor: f})
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("%w: csp: no feasible vector: the pencil L̄v = λ(Q̄ − α/vol·I)v has no positive λ at α = %.4g (AlphaFraction %.3g of λ_max(Q̄)·vol, λ_max(Q̄) = %.4g, vol = %.4g); lower AlphaFraction", ErrInvalid, sol.alpha, frac, sol.qmax, vol)
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].cost < cs[b].cost })
	sol.vectors = mat.NewDense(n, len(cs), nil)
	for t, c := range cs {
		var dot float64
		for i := 0; i < n; i++ {
			dot += op.sqd[i] * res.Vectors.At(i, c.j)
		}
		for i := 0; i < n; i++ {
			sol.vectors.Set(i, t, (res.Vectors.At(i, c.j)-dot*op.sqd[i])*c.normFactor)
		}
		sol.values = append(sol.values, c.lam)
		sol.costs = append(sol.costs, c.cost)
	}
	return sol, nil
}

// cspScale returns max |μ|, the scale of the relative test μ > 0.
func cspScale(mu []float64) float64 {
	var scale float64
	for _, v := range mu {
		scale = math.Max(scale, math.Abs(v))
	}
	return scale
}

// cspPositive counts the μ > 1e-10·max |μ|: the feasible eigenvalues.
func cspPositive(mu []float64) int {
	scale, c := cspScale(mu), 0
	for _, v := range mu {
		if v > 1e-10*scale {
			c++
		}
	}
	return c
}

// cspOps holds what the operators of (2) share: the graph, D^{-1/2},
// n = D^{1/2}1/√vol and Q̄ in sparse form, and c = α/vol.
type cspOps struct {
	g    *graph.Graph
	dis  []float64 // D^{-1/2}
	sqd  []float64 // n = D^{1/2}1/√vol
	qbar cspQbar
	c    float64
}

func newCSPOps(g *graph.Graph, pairs []constraint.Pair, deg []float64, vol float64) *cspOps {
	n := g.N()
	o := &cspOps{g: g, dis: make([]float64, n), sqd: make([]float64, n)}
	for i, d := range deg {
		o.dis[i] = 1 / math.Sqrt(d)
		o.sqd[i] = math.Sqrt(d / vol)
	}
	es := make([]entry, 0, 2*len(pairs))
	for _, q := range pairs {
		v := q.W()
		if q.Kind == constraint.CannotLink {
			v = -v
		}
		v *= o.dis[q.I] * o.dis[q.J]
		es = append(es, entry{q.I, q.J, v}, entry{q.J, q.I, v})
	}
	o.qbar.m = newSignedCSR(n, es)
	return o
}

// lbarMul sets dst = L̄x = x − D^{-1/2}WD^{-1/2}x. Cost O(nnz·p).
func (o *cspOps) lbarMul(dst, x *mat.Dense) {
	n, p := x.Dims()
	y := mat.NewDense(n, p, nil)
	y.Copy(x)
	scaleRows(y, o.dis)
	o.g.MulTo(dst, y)
	scaleRows(dst, o.dis)
	dst.Sub(x, dst)
}

// projectOut sets x ← (I − nnᵀ)x and returns nᵀx per column (in t).
func (o *cspOps) projectOut(x *mat.Dense, t []float64) {
	n, p := x.Dims()
	clear(t)
	for i := 0; i < n; i++ {
		row := x.RawRowView(i)
		for c, v := range row {
			t[c] += o.sqd[i] * v
		}
	}
	for i := 0; i < n; i++ {
		row := x.RawRowView(i)
		for c := 0; c < p; c++ {
			row[c] -= t[c] * o.sqd[i]
		}
	}
}

// scaleRows multiplies row i of x by f[i].
func scaleRows(x *mat.Dense, f []float64) {
	n, _ := x.Dims()
	for i := 0; i < n; i++ {
		row := x.RawRowView(i)
		for c := range row {
			row[c] *= f[i]
		}
	}
}

// cspQbar is Q̄ = D^{-1/2}QD^{-1/2} as a sparse operator.
type cspQbar struct{ m *signedCSR }

// Dim returns n.
func (q *cspQbar) Dim() int { return q.m.n }

// MulTo sets dst = Q̄x. Cost O(nnz(Q)·p).
func (q *cspQbar) MulTo(dst, x *mat.Dense) {
	_, p := x.Dims()
	xr, dm := x.RawMatrix(), dst.RawMatrix()
	m := q.m
	for i := 0; i < m.n; i++ {
		out := dm.Data[i*dm.Stride : i*dm.Stride+p]
		clear(out)
		for t := m.ptr[i]; t < m.ptr[i+1]; t++ {
			v := m.w[t]
			j := m.idx[t]
			for c, xv := range xr.Data[j*xr.Stride : j*xr.Stride+p] {
				out[c] += v * xv
			}
		}
	}
}

// cspMOp is M = L̄ + nnᵀ of (2), positive definite on a connected graph.
type cspMOp struct{ o *cspOps }

// Dim returns n.
func (m *cspMOp) Dim() int { return len(m.o.dis) }

// MulTo sets dst = (L̄ + nnᵀ)x. Cost O(nnz(W)·p).
func (m *cspMOp) MulTo(dst, x *mat.Dense) {
	m.o.lbarMul(dst, x)
	n, p := x.Dims()
	t := make([]float64, p)
	for i := 0; i < n; i++ {
		for c, v := range x.RawRowView(i) {
			t[c] += m.o.sqd[i] * v
		}
	}
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for c := range row {
			row[c] += t[c] * m.o.sqd[i]
		}
	}
}

// cspAOp is A = P(Q̄ − cI)P of (2), P = I − nnᵀ.
type cspAOp struct{ o *cspOps }

// Dim returns n.
func (a *cspAOp) Dim() int { return len(a.o.dis) }

// MulTo sets dst = P(Q̄ − cI)Px. Cost O(nnz(Q)·p + n·p).
func (a *cspAOp) MulTo(dst, x *mat.Dense) {
	n, p := x.Dims()
	y := mat.NewDense(n, p, nil)
	y.Copy(x)
	t := make([]float64, p)
	a.o.projectOut(y, t)
	a.o.qbar.MulTo(dst, y)
	dst.Add(dst, scaleBy(y, -a.o.c))
	a.o.projectOut(dst, t)
}
