package cluster

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// This file holds the two constrained linear projections of seed 002 §3,
// cPCA and cLPP, and what they share: the feature checks, the projection
// dimension by the share of the data variance, and k-means on the
// projected rows.

// CPCA is the constrained principal component analysis of seed 002 §3.1
// (eq. 9–14; Zhang, Zhou and Chen 2007, SSDR with α = β = 1), followed by
// k-means (§3, line 155). With the feature rows x_i (n×d), the constraint
// weights of eq. 11
//
//	w̃_ij = 1/n² + 1/|C|  for a cannot-link (i, j),
//	w̃_ij = 1/n² − 1/|M|  for a must-link,
//	w̃_ij = 1/n²          otherwise,
//
// and L̃ = D̃ − W̃, the projection directions a (aᵀa = 1, eq. 13) are the
// eigenvectors of the largest eigenvalues of the d×d matrix (eq. 14)
//
//	S = Xᵀ L̃ X = Σ_c + (1/|C|) Σ_C Δ_ijΔ_ijᵀ − (1/|M|) Σ_M Δ_ijΔ_ijᵀ,
//
// where Σ_c = (1/n) Σ_i (x_i − x̄)(x_i − x̄)ᵀ is the covariance (the 1/n²
// part of L̃ is (I − 11ᵀ/n)/n) and Δ_ij = x_i − x_j, each listed pair
// counted once: aᵀSa is the variance of the projection plus the mean
// squared projected distance of the cannot-linked pairs minus that of the
// must-linked ones. (Eq. 8 writes J_PCA with 1/n² where the variance of
// eq. 7 has 1/(2n²); eq. 10–14, whose matrix we use, agree with eq. 7.)
// The matrix is formed directly, never an n×n one. A pair of weight w
// counts w times in its mean (1/|C| becomes w/Σ_C w); a pair listed twice
// counts twice; partial labels become pairs (see MaxLabelPairs).
//
// The projected rows y_i = Aᵀ(x_i − x̄) of the m leading directions are
// clustered by k-means, Settings.Restarts runs (10 if 0) keeping the run of
// lowest distortion. m is chosen as in seed 002 §6.1 (line 289–293, "95% of
// the total variance"): the fewest principal components of the data whose
// variance reaches Variance (0.95) of the total; CPCA and CLPP keep the
// same m for the same data at every constraint rate. Without constraints
// CPCA is PCA followed by k-means.
//
// When m = d (the variance rule needs every dimension, as on 2-D data of
// two comparable spreads, or Dim = d) the projection is an orthogonal
// change of basis, which keeps every distance: k-means gives the same
// partition with any constraints or none, and the Result warns so
// (TestCPCAFullRankWarns). CLPP's full-rank projection is not orthogonal
// (it whitens by XᵀD̄X, which the constraints enter), so it can still move.
//
// Result: Labels, K, Eigenvalues the m kept eigenvalues of S in
// decreasing order (they may be negative when must-links dominate),
// Embedding the n×m projected rows, Objective the k-means distortion,
// Iterations its Lloyd iterations.
//
// Errors wrapping ErrInvalid: no feature rows, d = 0, every feature
// constant, Dim > d. Cost: O(n·d² + |S|·d² + d³) to form and decompose S,
// then k-means in m dimensions; memory O(n·d + d²). Measured
// (BenchmarkCPCA100k, 2 shared cores): n = 10⁵, d = 10, 5·10⁴ pairs, 0.54 s.
type CPCA struct {
	// Variance is the share of the total variance of the feature rows that
	// sets the projection dimension m (the fewest principal components
	// reaching it). If Variance is 0, 0.95 is used (seed 002 §6.1). It is
	// ignored when Dim is set.
	Variance float64 `doc:"share of the data variance that sets the projection dimension (0: 0.95)" range:"0 | (0, 1]"`
	// Dim, if positive, is the projection dimension m, 1 ≤ Dim ≤ d. If Dim
	// is 0, m is chosen by Variance.
	Dim int `doc:"projection dimension, at most the number of features (0: by Variance)" range:"[0, 1e9]"`
}

// Name returns "cpca".
func (CPCA) Name() string { return "cpca" }

// Uses declares what CPCA reads from a Problem (see Run): feature rows and
// pairwise constraints; a graph given beside them is not used.
func (CPCA) Uses() Uses { return Uses{Input: FeatureInput, Supervision: Pairs, NoKEigensolve: true} }

// Partition projects p.Features by cPCA and clusters the projected rows.
func (c CPCA) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, c, p, s)
	if err != nil {
		return nil, err
	}
	const name = "cpca"
	x, err := projFeatures(name, p)
	if err != nil {
		return nil, err
	}
	_, d := x.Dims()
	pairs, warnings, err := supervisionPairsContext(ctx, name, p, s, allPairs)
	if err != nil {
		return nil, err
	}
	xc, cov, _, m, err := principal(ctx, name, x, c.Variance, c.Dim)
	if err != nil {
		return nil, err
	}
	// S = Σ_c + Σ_C (w/Σ_C w) ΔΔᵀ − Σ_M (w/Σ_M w) ΔΔᵀ (eq. 11–14).
	var wc, wm float64
	for _, q := range pairs {
		if q.Kind == constraint.MustLink {
			wm += q.W()
		} else {
			wc += q.W()
		}
	}
	sm := mat.NewSymDense(d, nil)
	sm.CopySym(cov)
	delta := mat.NewVecDense(d, nil)
	for t, q := range pairs {
		if t%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("cluster: %s: the cPCA matrix XᵀL̃X, pair %d of %d: %w", name, t+1, len(pairs), err)
			}
		}
		for j := 0; j < d; j++ {
			delta.SetVec(j, x.At(q.I, j)-x.At(q.J, j))
		}
		coef := q.W() / wc
		if q.Kind == constraint.MustLink {
			coef = -q.W() / wm
		}
		sm.SymRankOne(sm, coef, delta)
	}
	e, err := eigSym(name, "cPCA matrix XᵀL̃X", sm)
	if err != nil {
		return nil, err
	}
	if m == d && len(pairs) > 0 {
		warnings = append(warnings, cpcaFullRankWarning(name, d, c.Variance, c.Dim > 0, s))
	}
	// The m largest eigenvalues, decreasing.
	a := mat.NewDense(d, m, nil)
	vals := make([]float64, m)
	for t := 0; t < m; t++ {
		col := d - 1 - t
		vals[t] = e.values[col]
		for j := 0; j < d; j++ {
			a.Set(j, t, e.vectors.At(j, col))
		}
	}
	return projPartition(ctx, name, xc, a, vals, p.K, s.derive(streamCPCA), warnings)
}

// cpcaFullRankWarning is cPCA's warning when the projection keeps all d
// dimensions: the directions are then an orthonormal basis of the feature
// space, y_i = Aᵀ(x_i − x̄) with A orthogonal, which keeps every distance,
// so k-means (and its seeding) sees the same rows whatever S, and the
// constraints cannot change the partition (up to rounding). dim says
// whether m = d was asked for (CPCA.Dim) rather than reached by the
// variance rule. The remedy is spelled by s (Settings.Spelling).
func cpcaFullRankWarning(name string, d int, share float64, dim bool, s *Settings) string {
	if share == 0 {
		share = 0.95
	}
	why := fmt.Sprintf("Variance = %g of the variance needs all of them", share)
	if dim {
		why = fmt.Sprintf("Dim = %d", d)
	}
	return fmt.Sprintf("%s: the projection keeps all d = %d dimensions (%s), so it is a rotation of the feature rows, which k-means cannot see: the constraints cannot change the partition; a projection dimension below d lets them act %s",
		name, d, why, s.remedy(fmt.Sprintf("CPCA.Dim ≤ %d, or a smaller CPCA.Variance", d-1), "set", fmt.Sprintf("Dim=%d", d-1)))
}

// CLPP is the constrained locality preserving projection of seed 002 §3.2
// (eq. 15–22; Cevikalp and Verbeek 2008), followed by k-means (§3, line
// 155). With the affinity W of Problem.Graph and the constraints added to
// it (eq. 21),
//
//	w̃_ij = w_ij + 1  for a must-link (i, j),
//	w̃_ij = w_ij − 1  for a cannot-link,
//	w̃_ij = w_ij      otherwise
//
// (a pair of weight w adds ±w; a pair listed twice adds twice), the
// projection directions a minimize (eq. 20, 22)
//
//	J = Σ_ij w̃_ij (aᵀx_i − aᵀx_j)² = 2 aᵀXᵀL̃Xa,  L̃ = D̃ − W̃,  D̃ = diag(W̃1),
//
// subject to aᵀXᵀD̄Xa = 1: they are the generalized eigenvectors of the
// smallest eigenvalues of XᵀL̃X a = λ XᵀD̄X a. (Eq. 19, J_LPP + Σ_M − Σ_C
// with each constrained pair once, weighs the constraints half as much:
// J_LPP = Σ_ij w_ij(aᵀx_i − aᵀx_j)² runs over ordered pairs (eq. 16) and
// counts every edge twice, while eq. 20–21, w̃_ij = w_ij ± 1 summed over
// ordered i, j, count every constrained pair twice too. We follow eq.
// 20–22, whose matrices seed 002 solves; eq. 19's J is CLPP's with
// constraint weights 1/2, which also halve the constraints' part of D̄,
// a normalization eq. 19 leaves open. On the four points of
// TestLinProjToyConstraintsMoveTheProjection, eq. 19 gives J = 360a₁² +
// 32a₂², eq. 20 432a₁² + 32a₂².) J uses the degree D̃ of W̃,
// so that J is exactly eq. 20 (must-linked points are pulled together,
// cannot-linked ones pushed apart; XᵀL̃X may be indefinite). In the
// normalization, which seed 002 writes with the same D̃, we use the
// signed degree D̄_ii = Σ_j |w̃_ij| of seed 002 §2 (line 87): a node with
// more cannot-links than affinity has D̃_ii < 0, and XᵀD̃X is then no
// longer positive definite, so that the constraint aᵀXᵀD̃Xa = 1 would not
// bound a. Without constraints D̄ = D̃ = D and CLPP is LPP (eq. 18).
//
// The rows are centred at their D̄-weighted mean, so that y = Xa is
// D̄-orthogonal to the constant vector, the trivial solution of Laplacian
// eigenmaps (J is unchanged by any translation, L̃1 = 0; the
// normalization is not, and uncentred rows would let the origin of the
// feature coordinates choose the projection). The problem is solved in the
// span of the centred rows (the principal directions of variance above
// 1e-10 of the largest), where XᵀD̄X is positive definite when the nodes
// of positive D̄ span the data (He and Niyogi's LPP and Laplacianfaces
// remove the null space by such a PCA step too): a Cholesky factor turns
// it into a symmetric d×d eigenproblem.
//
// The graph is Problem.Graph: seed 002 uses the Gaussian 10-NN graph of
// eq. 15 (§6.1, line 295), which `tether cluster -knn 10` builds and the
// seed-002 reproduction passes. Its products cost O(nnz·d), never an n×n
// matrix. The projection dimension m, the k-means step and the Result are
// as for CPCA (Embedding the n×m projected rows, Objective the k-means
// distortion of the run kept over them, Iterations its Lloyd iterations),
// with Eigenvalues the m smallest generalized eigenvalues in increasing
// order.
//
// Errors wrapping ErrInvalid: no feature rows or no graph, d = 0, every
// feature constant, Dim > d, and XᵀD̄X singular on the span of the rows
// (the nodes with an edge or a constraint span fewer dimensions than the
// data). When the rows span r < m dimensions, m = r with a warning. Cost:
// O((nnz + |S|)·log(nnz + |S|)) to merge the constraints into the graph,
// O((nnz + |S|)·d + n·d²) for XᵀL̃X and XᵀD̄X, O(d³) for the
// eigenproblems, then k-means; memory O(nnz + |S| + n·d + d²). Measured
// (BenchmarkCLPP100kKNN, 2 shared cores): n = 10⁵, d = 10, 10-NN graph
// (1.5·10⁶ entries), 5·10⁴ pairs, 2.6 s.
type CLPP struct {
	// Variance is the share of the total variance of the feature rows that
	// sets the projection dimension m (the fewest principal components
	// reaching it). If Variance is 0, 0.95 is used (seed 002 §6.1). It is
	// ignored when Dim is set.
	Variance float64 `doc:"share of the data variance that sets the projection dimension (0: 0.95)" range:"0 | (0, 1]"`
	// Dim, if positive, is the projection dimension m, 1 ≤ Dim ≤ d. If Dim
	// is 0, m is chosen by Variance.
	Dim int `doc:"projection dimension, at most the number of features (0: by Variance)" range:"[0, 1e9]"`
}

// Name returns "clpp".
func (CLPP) Name() string { return "clpp" }

// Uses declares what CLPP reads from a Problem (see Run): feature rows, the
// affinity graph on them, and pairwise constraints. The partition depends
// on the scale of the edge weights (Uses.WeightScale): W̃ = W + Q adds the
// constraints' entries ±w_q, on the similarity scale, to the edge weights
// (seed 002 eq. 21), so edges far above 1 drown the constraints and edges
// far below 1 leave only them (TestWeightScale).
func (CLPP) Uses() Uses {
	return Uses{Input: GraphInput | FeatureInput, Supervision: Pairs, NoKEigensolve: true,
		WeightScale: "W̃ = W + Q adds the constraints' entries ±w to the edge weights (seed 002 eq. 21)"}
}

// Partition projects p.Features by cLPP on p.Graph and clusters the
// projected rows.
func (c CLPP) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, c, p, s)
	if err != nil {
		return nil, err
	}
	const name = "clpp"
	x, err := projFeatures(name, p)
	if err != nil {
		return nil, err
	}
	n, d := x.Dims()
	if p.Graph == nil || p.Graph.N() != n {
		return nil, fmt.Errorf("%w: %s needs the affinity graph of the %d feature rows", ErrInvalid, name, n)
	}
	pairs, warnings, err := supervisionPairsContext(ctx, name, p, s, allPairs)
	if err != nil {
		return nil, err
	}
	// W̃ = W + Q (eq. 21), duplicates summed.
	g := p.Graph
	es := make([]entry, 0, g.NNZ()+2*len(pairs))
	for i := 0; i < n; i++ {
		idx, w := g.Row(i)
		for t, j := range idx {
			es = append(es, entry{i, int(j), w[t]})
		}
	}
	for _, q := range pairs {
		v := q.W()
		if q.Kind == constraint.CannotLink {
			v = -v
		}
		es = append(es, entry{q.I, q.J, v}, entry{q.J, q.I, v})
	}
	wt := newSignedCSR(n, es)
	deg := make([]float64, n)  // D̃ = W̃1
	sdeg := make([]float64, n) // D̄ = |W̃|1
	for i := 0; i < n; i++ {
		for t := wt.ptr[i]; t < wt.ptr[i+1]; t++ {
			deg[i] += wt.w[t]
			sdeg[i] += math.Abs(wt.w[t])
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("cluster: %s: the constrained affinity W̃ (eq. 21): %w", name, err)
	}
	// The span of the rows and the dimension m, from the covariance.
	_, _, pca, m, err := principal(ctx, name, x, c.Variance, c.Dim)
	if err != nil {
		return nil, err
	}
	r := 0
	top := pca.values[d-1]
	for _, v := range pca.values {
		if v > clppRankTol*top {
			r++
		}
	}
	if m > r {
		warnings = append(warnings, fmt.Sprintf("%s: the feature rows span %d dimensions, fewer than Dim = %d; the projection has %d", name, r, m, r))
		m = r
	}
	u := mat.NewDense(d, r, nil) // principal directions, decreasing variance
	for t := 0; t < r; t++ {
		for j := 0; j < d; j++ {
			u.Set(j, t, pca.vectors.At(j, d-1-t))
		}
	}
	// Rows centred at the D̄-weighted mean, in the basis u (n×r).
	xc, _ := centreRows(x, sdeg)
	z := mat.NewDense(n, r, nil)
	z.Mul(xc, u)
	// A = ZᵀL̃Z = Zᵀ(D̃Z − W̃Z), B = ZᵀD̄Z.
	wz := mat.NewDense(n, r, nil)
	zr, wr := z.RawMatrix(), wz.RawMatrix()
	for i := 0; i < n; i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("cluster: %s: XᵀL̃X, row %d of %d: %w", name, i+1, n, err)
			}
		}
		out := wr.Data[i*wr.Stride : i*wr.Stride+r]
		for t := wt.ptr[i]; t < wt.ptr[i+1]; t++ {
			v := wt.w[t]
			j := wt.idx[t]
			for c, zv := range zr.Data[j*zr.Stride : j*zr.Stride+r] {
				out[c] -= v * zv
			}
		}
		for c, zv := range zr.Data[i*zr.Stride : i*zr.Stride+r] {
			out[c] += deg[i] * zv
		}
	}
	var ad mat.Dense
	ad.Mul(z.T(), wz)
	a := mat.NewSymDense(r, nil)
	for i := 0; i < r; i++ {
		for j := i; j < r; j++ {
			a.SetSym(i, j, (ad.At(i, j)+ad.At(j, i))/2)
		}
	}
	b, err := scatter(ctx, z, sdeg, 1)
	if err != nil {
		return nil, fmt.Errorf("cluster: %s: XᵀD̄X: %w", name, err)
	}
	var ch mat.Cholesky
	if !ch.Factorize(b) {
		return nil, fmt.Errorf("%w: %s: XᵀD̄X is singular on the span of the feature rows: the nodes with an edge or a constraint span fewer dimensions than the data", ErrInvalid, name)
	}
	// With B = UᵀU: C = U⁻ᵀAU⁻¹, Cw = λw, v = U⁻¹w (vᵀBv = wᵀw = 1).
	var uf, ui mat.TriDense
	ch.UTo(&uf)
	if err := ui.InverseTri(&uf); err != nil {
		return nil, fmt.Errorf("%w: %s: XᵀD̄X is numerically singular: %v", ErrNumerical, name, err)
	}
	var t1, cm mat.Dense
	t1.Mul(a, &ui)
	cm.Mul(ui.T(), &t1)
	cs := mat.NewSymDense(r, nil)
	for i := 0; i < r; i++ {
		for j := i; j < r; j++ {
			cs.SetSym(i, j, (cm.At(i, j)+cm.At(j, i))/2)
		}
	}
	e, err := eigSym(name, "cLPP pencil", cs)
	if err != nil {
		return nil, err
	}
	wm := mat.NewDense(r, m, nil)
	for t := 0; t < m; t++ {
		for j := 0; j < r; j++ {
			wm.Set(j, t, e.vectors.At(j, t))
		}
	}
	var v mat.Dense
	v.Mul(&ui, wm)
	dirs := mat.NewDense(d, m, nil) // a = u·v, the directions in feature space
	dirs.Mul(u, &v)
	vals := append([]float64(nil), e.values[:m]...)
	return projPartition(ctx, name, xc, dirs, vals, p.K, s.derive(streamCLPP), warnings)
}

// clppRankTol is the relative variance below which a principal direction
// of the feature rows is taken as outside their span.
const clppRankTol = 1e-10

// projFeatures returns p.Features after the checks Run leaves to the
// projection methods: at least one column.
func projFeatures(name string, p *Problem) (*mat.Dense, error) {
	if p.Features == nil {
		return nil, fmt.Errorf("%w: %s projects feature rows: Problem.Features is nil (a graph alone is not enough)", ErrInvalid, name)
	}
	n, d := p.Features.Dims()
	if n == 0 || d == 0 {
		return nil, fmt.Errorf("%w: %s: the feature matrix is %d×%d, want at least one row and one feature", ErrInvalid, name, n, d)
	}
	return p.Features, nil
}

// principal returns the centred rows of x, their covariance, its
// eigendecomposition (ascending) and the projection dimension: the fewest
// principal directions holding share of the variance, or dim when dim >
// 0 (projDim). A covariance that overflows (finite features near 1e±300)
// is an error wrapping ErrNumerical; a cancelled ctx, one wrapping
// ctx.Err() that names the method name and the covariance. Cost
// O(n·d² + d³).
func principal(ctx context.Context, name string, x *mat.Dense, share float64, dim int) (*mat.Dense, *mat.SymDense, *symEig, int, error) {
	n, d := x.Dims()
	xc, _ := centreRows(x, nil)
	cov, err := scatter(ctx, xc, nil, 1/float64(n))
	if err != nil {
		return nil, nil, nil, 0, fmt.Errorf("cluster: %s: covariance of the feature rows: %w", name, err)
	}
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			if v := cov.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, nil, 0, fmt.Errorf("%w: %s: the covariance of the feature rows overflows (entry (%d, %d) = %v): the features are out of floating-point range; rescale them", ErrNumerical, name, i, j, v)
			}
		}
	}
	pca, err := eigSym(name, "covariance", cov)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	m, err := projDim(name, pca.values, share, dim, d)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	return xc, cov, pca, m, nil
}

// centreRows returns the rows of x minus their mean, weighted by w (nil:
// uniform), and the mean. Zero total weight gives the uniform mean.
func centreRows(x *mat.Dense, w []float64) (*mat.Dense, []float64) {
	n, d := x.Dims()
	mean := make([]float64, d)
	var tot float64
	for i := 0; i < n; i++ {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		tot += wi
		for j := 0; j < d; j++ {
			mean[j] += wi * x.At(i, j)
		}
	}
	if !(tot > 0) {
		return centreRows(x, nil)
	}
	for j := range mean {
		mean[j] /= tot
	}
	out := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			out.Set(i, j, x.At(i, j)-mean[j])
		}
	}
	return out, mean
}

// scatter returns alpha·Σ_i w_i x_i x_iᵀ (w nil: uniform) for the rows of
// x. ctx is checked after the product; the error is ctx.Err(), which the
// caller names. Cost O(n·d²).
func scatter(ctx context.Context, x *mat.Dense, w []float64, alpha float64) (*mat.SymDense, error) {
	n, d := x.Dims()
	out := mat.NewSymDense(d, nil)
	if w == nil {
		out.SymOuterK(alpha, x.T())
		return out, ctx.Err()
	}
	xw := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		s := math.Sqrt(w[i])
		for j := 0; j < d; j++ {
			xw.Set(i, j, s*x.At(i, j))
		}
	}
	out.SymOuterK(alpha, xw.T())
	return out, ctx.Err()
}

// symEig is an eigendecomposition with values in increasing order.
type symEig struct {
	values  []float64
	vectors *mat.Dense
}

// eigSym decomposes the symmetric matrix a (what names it in errors).
func eigSym(name, what string, a *mat.SymDense) (*symEig, error) {
	var e mat.EigenSym
	if !e.Factorize(a, true) {
		return nil, fmt.Errorf("%w: %s: the eigendecomposition of the %s did not converge", ErrNumerical, name, what)
	}
	out := &symEig{values: e.Values(nil), vectors: &mat.Dense{}}
	e.VectorsTo(out.vectors)
	return out, nil
}

// projDim returns the projection dimension: dim if positive (at most d),
// else the fewest leading eigenvalues of the covariance (cov, increasing)
// whose sum reaches share (0: 0.95) of their total (seed 002 §6.1). Every
// feature constant is an error wrapping ErrInvalid.
func projDim(name string, cov []float64, share float64, dim, d int) (int, error) {
	top := cov[len(cov)-1]
	if !(top > 0) {
		return 0, fmt.Errorf("%w: %s: every feature is constant: the feature rows have no variance to project", ErrInvalid, name)
	}
	if dim > 0 {
		if dim > d {
			return 0, knobInvalid("%s: Dim = %d exceeds the %d features", name, dim, d)
		}
		return dim, nil
	}
	if share == 0 {
		share = 0.95
	}
	var total float64
	for _, v := range cov {
		total += max(v, 0)
	}
	var cum float64
	for t := 0; t < len(cov); t++ {
		cum += max(cov[len(cov)-1-t], 0)
		if cum >= share*total*(1-1e-12) {
			return t + 1, nil
		}
	}
	return len(cov), nil
}

// projPartition clusters the projected rows xc·a by k-means (lowest
// distortion of s.Restarts runs, 10 if 0) and fills the Result. A
// cancellation is an error wrapping ctx.Err() that names the method name
// and the k-means step (cancelledIn); k-means' other errors are returned
// as they are.
func projPartition(ctx context.Context, name string, xc, a *mat.Dense, vals []float64, k int, s *Settings, warnings []string) (*Result, error) {
	n, _ := xc.Dims()
	_, m := a.Dims()
	y := mat.NewDense(n, m, nil)
	y.Mul(xc, a)
	res, err := partition(ctx, y, k, s, 10, nil)
	if err != nil {
		return nil, cancelledIn(name, "k-means on the projected rows", err)
	}
	res.Eigenvalues, res.Warnings = vals, warnings
	return res, nil
}
