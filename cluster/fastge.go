package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// FastGE is FAST-GE, the generalized spectral method of Cucuringu, Koutis,
// Chawla, Miller and Peng (2016), as described in thesis §4.4.2, Alg. 15.
// Must-links and cannot-links become graphs G_ML and G_CL whose edge (i, j)
// has weight w_ij·d_i d_j/(d_min d_max) (w_ij the pair's weight, d the
// degrees of W); with the demand graph K = ddᵀ/vol(V),
//
//	G = W + G_ML,  H = K/n + G_CL,
//
// and the embedding is the k generalized eigenvectors of L_G x = λ L_H x
// with the smallest finite eigenvalues, then (Alg. 15, lines 3–6)
// d-centred, U ← U − 1dᵀU/(1ᵀd), L_H-normalized, U ← U(UᵀL_H U)^{-1/2}, and
// projected on the unit sphere row by row. k-means follows; the run with the
// fewest violated constraints (by weight) is kept (thesis §4.5.1).
//
// The pencil (L_G, L_H) is singular: both Laplacians annihilate the
// constant vector (and, if G ∪ H is disconnected, every component
// indicator). We use the regularization of seed 004 Theorem 4.2.5: with Z
// the normalized component indicators of G ∪ H — exactly the common null
// space of two Laplacians of non-negative graphs — M = L_G + μL_H + sZZᵀ is
// positive definite and L_H x = τ M x, τ = 1/(λ + μ), gives the wanted λ as
// its largest τ (pencil.go). The eigenvectors are then M-orthogonal to
// Z, i.e. centred on each component, and line 3 re-centres them in the
// d-inner product, as the thesis says any x + c1 is as good.
//
// L_H is singular in more ways than the constant vector only when a node
// has degree 0 (K has a zero row); such graphs are rejected with an error
// wrapping graph.ErrIsolated (the weights d_i d_j/(d_min d_max) divide by
// d_min = 0), so add self loops (graph.Graph.WithSelfLoops) first.
//
// Cost: O(nnz + |S|) to build, one generalized eigensolve, and k-means.
// The eigensolve is dense for n ≤ DenseLimit. Above, when the graph is so
// dense that a product costs about n² flops (nnz > n²·n/6000, n ≤ 6000)
// and Settings.Eigen is nil, M is formed densely and factorized once,
// M = RᵀR (n³/3 flops, 8n² bytes), and the standard problem
// R⁻ᵀL_H R⁻¹ y = τ y is solved by Lanczos with two triangular solves per
// product: LOBPCG with B = M converges slowly there,
// because M inherits the degree spread of the graph (spambase, d_max/d_min
// ≈ 6·10⁴: no convergence in 1000 iterations, 200–300 s; the Cholesky path
// takes about 10 s). Otherwise LOBPCG with B = M, O(nnz·k) per iteration;
// from 10⁵ nodes with Settings.Eigen nil, LOBPCG is preconditioned by a
// multigrid V-cycle approximating M⁻¹ (graph.Multigrid), whose iteration
// count does not grow with n as the plain one's does, for about twice the
// memory (2.1 GB against 1.1 GB at 3·10⁵ nodes of a 10-NN graph); an
// explicit Settings.Eigen (eigen.LOBPCG{}) keeps the plain solve. When the
// graph does not coarsen, plain LOBPCG is used.
//
// Result: Labels; Eigenvalues the k smallest finite eigenvalues λ of the
// pencil; Embedding the n×k rows after Alg. 15, lines 3–6; Objective the
// k-means distortion of the run kept over those rows: of
// Settings.Restarts runs (30 if 0, thesis §4.5.1), the one violating the
// least weight of constraints, ties to the lower distortion; Iterations
// its Lloyd iterations.
type FastGE struct {
	// Mu is μ of the regularization. If Mu is 0, μ = tr(L_G)/(10·tr(L_H)),
	// divided by 100 on the dense Cholesky path and the
	// multigrid-preconditioned one (n ≥ 10⁵; see below). The
	// eigenvectors do not depend on μ > 0; only the conditioning does.
	Mu float64 `doc:"regularization μ (0: tr(L_G)/(10·tr(L_H)))" range:"0 | [1e-12, 1e12]"`
}

// Name returns "fast-ge".
func (FastGE) Name() string { return "fast-ge" }

// Uses declares what FastGE reads from a Problem (see Run).
func (FastGE) Uses() Uses {
	return Uses{Supervision: Pairs, Core: true, Generalized: true,
		WeightScale: "the constraint graphs' weights w·d_i d_j/(d_min d_max) do not grow with the edges' (thesis §4.4.2)"}
}

// fastGERestarts is the default number of k-means restarts of the pairwise
// methods compared in thesis Table 4.4 (§4.5.1: 30 runs, fewest violations).
const fastGERestarts = 30

// Partition partitions p.Graph into p.K clusters using p.Constraints (and the
// pairs of p.Labels, if any). It returns an error wrapping ErrInvalid for an
// ill-posed problem, graph.ErrIsolated for a node of degree 0, and an error
// when the pencil has fewer than k finite eigenvalues.
func (f FastGE) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, f, p, s)
	if err != nil {
		return nil, err
	}
	if f.Mu < 0 || math.IsNaN(f.Mu) || math.IsInf(f.Mu, 0) {
		return nil, fmt.Errorf("%w: fast-ge: Mu = %v, want a finite value ≥ 0", ErrInvalid, f.Mu)
	}
	pairs, pairWarnings, err := supervisionPairsContext(ctx, "fast-ge", p, s, allPairs)
	if err != nil {
		return nil, err
	}
	g := p.Graph
	fp, err := buildFastGE(g, pairs)
	if err != nil {
		return nil, err
	}
	if _, nc := g.Components(); nc >= g.N() && g.N() > 1 {
		// Self loops only (buildFastGE refused a node of degree 0): L_G
		// = 0, so M = μL_H + sZZᵀ with μ = 0 is singular, and the
		// eigensolver's Cholesky failure said nothing of why (review 92).
		return nil, fmt.Errorf("%w: fast-ge: the graph has no edge between distinct nodes, so L_G = 0 and the pencil (L_G, L_H) has nothing of the graph to cluster by: build the graph with more neighbours or a larger radius", ErrInvalid)
	}
	pr, err := f.solve(ctx, g, fp, len(pairs), p.K, s, FastGEMultigridMinN)
	if err != nil {
		return nil, methodError("fast-ge", "eigenpairs of the pencil (L_G, L_H)", tinyWeightsHint(g, "M = L_G + μL_H + sZZᵀ", err))
	}
	u := pr.vectors
	zero, err := fastGENormalize(u, fp.d, fp.lh, s.rowTol(g.N()))
	if err != nil {
		return nil, wrapMethod("fast-ge", err)
	}
	res, err := partition(ctx, u, p.K, s.derive(streamFastGE), fastGERestarts, violationSelect(pairs))
	if err != nil {
		return nil, cancelledIn("fast-ge", "k-means on the eigenvectors", err)
	}
	res.Eigenvalues, res.Warnings = pr.values, append(pairWarnings, pr.warnings...)
	if w := zeroRowsWarning("fast-ge", zero, g.N()); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	return res, nil
}

// tinyWeightsHint returns err, saying why when it wraps
// eigen.ErrNotPositiveDefinite and g's edge weights are tiny (the largest
// below 10⁻⁶): the constraint graphs of FAST-GE and FAST-GE-2.0 weigh
// about 1 whatever the edges weigh (Uses.WeightScale), so with edges
// near 10⁻²⁰ the regularized matrix m (named in the message) is singular
// to working precision on the nodes the constraints join (a 6-node
// graph of weights 10⁻²⁰ fails so; 10⁻⁸ clusters). Cost O(nnz) on error.
func tinyWeightsHint(g *graph.Graph, m string, err error) error {
	if !errors.Is(err, eigen.ErrNotPositiveDefinite) {
		return err
	}
	if _, wmax := edgeWeightRange(g); wmax < 1e-6 {
		return fmt.Errorf("%w: %s is singular to working precision: the edge weights (largest %.3g) are negligible beside the constraint graphs' (about 1, whatever the edges weigh): scale the weights up, so that the largest is about 1", err, m, wmax)
	}
	return err
}

// solve returns the k smallest finite eigenpairs of FAST-GE's pencil fp
// of g (pairs constraints), on the path FastGE's doc describes: dense,
// dense Cholesky, LOBPCG preconditioned by fastGEPrecond from mgMinN
// nodes (FastGEMultigridMinN; tests lower it), or plain LOBPCG.
func (f FastGE) solve(ctx context.Context, g *graph.Graph, fp *fastGEPencil, pairs, k int, s *Settings, mgMinN int) (*pencilResult, error) {
	n := g.N()
	// The union G ∪ H is connected: K joins every pair of nodes of positive
	// degree, and all degrees are positive here.
	comp := make([]int, n)
	trG, trH := fp.lg.trace(), fp.lh.trace()
	opt := pencilOptions{z: newCompOp(comp, 1, trG/float64(n)), mu: f.Mu, singularL: true, definiteM: true}
	opt.cholesky = s.Eigen == nil && FastGEDenseCholesky(n, g.NNZ(), pairs)
	mu0 := trG / (10 * trH)
	if opt.mu == 0 {
		opt.mu = mu0
		if opt.cholesky {
			opt.mu = mu0 / fastGEMuFactor
		}
	}
	if s.Eigen == nil && !opt.cholesky && n > DenseLimit && n >= mgMinN {
		mu := f.Mu
		if mu == 0 {
			mu = mu0 / fastGEMuFactor
		}
		pre, err := newFastGEPrecond(ctx, g, fp.ml, fp.cl, mu, trG/float64(n))
		switch {
		case err == nil:
			opt.precond, opt.mu = pre, mu
		case !errors.Is(err, graph.ErrNoCoarsening):
			return nil, err
		}
		// A graph that does not coarsen: plain LOBPCG, with its μ.
	}
	return solvePencil(ctx, fp.lg, fp.lh, k, opt, s)
}

// fastGEPencil holds FAST-GE's pencil and the graphs it is made of.
type fastGEPencil struct {
	lg, lh *formOp
	d      []float64    // the degrees of W
	ml, cl *graph.Graph // G_ML and G_CL
}

// buildFastGE returns L_G and L_H of thesis §4.4.2 (G = W + G_ML,
// H = K/n + G_CL, K = ddᵀ/vol, constraint weights w·d_i d_j/(d_min d_max)),
// the degrees d of W and the constraint graphs.
func buildFastGE(g *graph.Graph, pairs []constraint.Pair) (*fastGEPencil, error) {
	n := g.N()
	d := g.Degrees()
	dmin, dmax, err := degreeRange(d, "fast-ge")
	if err != nil {
		return nil, err
	}
	var ml, cl []graph.Edge
	for t, q := range pairs {
		e := graph.Edge{I: q.I, J: q.J, W: q.W() * d[q.I] * d[q.J] / (dmin * dmax)}
		if math.IsInf(e.W, 0) || math.IsNaN(e.W) {
			return nil, fmt.Errorf("%w: fast-ge: pair %d (%d,%d): its weight w·d_i d_j/(d_min d_max) = %v·%v·%v/(%v·%v) is %v: the graph or constraint weights are out of floating-point range", ErrNumerical, t, q.I, q.J, q.W(), d[q.I], d[q.J], dmin, dmax, e.W)
		}
		if q.Kind == constraint.MustLink {
			ml = append(ml, e)
		} else {
			cl = append(cl, e)
		}
	}
	gml, err := graph.FromEdges(n, ml)
	if err != nil {
		return nil, fmt.Errorf("cluster: fast-ge: must-link graph: %w", err)
	}
	gcl, err := graph.FromEdges(n, cl)
	if err != nil {
		return nil, fmt.Errorf("cluster: fast-ge: cannot-link graph: %w", err)
	}
	vol := g.Volume()
	ag := &symOp{n: n, parts: []scaledGraph{{g, 1}, {gml, 1}}}
	ah := &symOp{n: n, parts: []scaledGraph{{gcl, 1}}}
	ah.addLowRank([][]float64{d}, []float64{1 / (vol * float64(n))})
	return &fastGEPencil{lg: laplacianOf(ag), lh: laplacianOf(ah), d: d, ml: gml, cl: gcl}, nil
}

// fastGENormalize applies lines 3–6 of thesis Alg. 15 to u in place:
// U ← U − 1dᵀU/(1ᵀd), U ← U(UᵀL_H U)^{-1/2}, rows to unit length, and
// returns the number of rows left at zero (normalizeRows, with the
// relative accuracy tol of u's columns).
func fastGENormalize(u *mat.Dense, d []float64, lh *formOp, tol float64) (zero int, err error) {
	n, k := u.Dims()
	var vol float64
	for _, v := range d {
		vol += v
	}
	for j := 0; j < k; j++ {
		var m float64
		for i := 0; i < n; i++ {
			m += d[i] * u.At(i, j)
		}
		m /= vol
		for i := 0; i < n; i++ {
			u.Set(i, j, u.At(i, j)-m)
		}
	}
	lu := mat.NewDense(n, k, nil)
	lh.MulTo(lu, u)
	gm := mat.NewDense(k, k, nil)
	gm.Mul(u.T(), lu)
	g := mat.NewSymDense(k, nil)
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			g.SetSym(a, b, (gm.At(a, b)+gm.At(b, a))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(g, true) {
		return 0, fmt.Errorf("eigendecomposition of UᵀL_H U failed")
	}
	w := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	isq := mat.NewDense(k, k, nil)
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			var t float64
			for c := 0; c < k; c++ {
				if !(w[c] > 0) {
					return 0, fmt.Errorf("UᵀL_H U is singular (eigenvalue %g): an eigenvector lies in the null space of L_H", w[c])
				}
				t += v.At(a, c) * v.At(b, c) / math.Sqrt(w[c])
			}
			isq.Set(a, b, t)
		}
	}
	tmp := mat.DenseCopyOf(u)
	u.Mul(tmp, isq)
	return normalizeRows(u, tol), nil
}
