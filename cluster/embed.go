package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
)

// defaultEigenTol is the relative residual tolerance of the eigensolver
// when Settings.EigenSettings is nil or sets no Tol: tight enough that the embedding is
// accurate to far below k-means' resolution, loose enough for 10⁵ nodes.
const defaultEigenTol = 1e-8

// solve runs the eigensolver chosen by s on problem p. An operator that
// holds a NaN or an infinity (eigen.ErrNonFinite) gives an error wrapping
// ErrNumerical as well: the problem's inputs are finite, so its entries
// overflowed.
func (s *Settings) solve(ctx context.Context, p eigen.Problem) (*eigen.Result, error) {
	return s.solveWith(ctx, p, nil)
}

// eigenSettings returns the eigensolver settings of s: EigenSettings, or
// the defaults, with a relative tolerance of defaultEigenTol where they
// set none, and s's eigen stream and Recorder where they set none.
func (s *Settings) eigenSettings() eigen.Settings {
	var es eigen.Settings
	if s.EigenSettings != nil {
		es = *s.EigenSettings
	}
	if es.Tol == 0 {
		es.Tol = defaultEigenTol
	}
	if es.Src == nil {
		es.Src = s.src(streamEigen)
	}
	if es.Recorder == nil {
		es.Recorder = s.Recorder
	}
	return es
}

// solveCapped is solve by autoSolver's choice with at most restarts
// restarts (outer iterations), the user's EigenSettings otherwise.
func (s *Settings) solveCapped(ctx context.Context, p eigen.Problem, restarts int) (*eigen.Result, error) {
	es := s.eigenSettings()
	es.MaxIter = restarts
	solver := autoSolver(p.A.Dim())
	res, err := solver.Solve(ctx, p, &es)
	return checkSolve(solver, res, err)
}

// solveWith is solve with a preferred solver pre for hard problems, used
// when Settings.Eigen is nil and pre is not: autoSolver's choice runs
// first with a budget of multigridAfter restarts, and only when it has not
// converged within it is the problem handed to pre. If pre does not
// succeed either (eigen.ErrNoConvergence, graph.ErrNoCoarsening), the
// problem is solved again by autoSolver's choice with the full budget, so
// that pre can never make a solve fail.
func (s *Settings) solveWith(ctx context.Context, p eigen.Problem, pre *multigridLOBPCG) (*eigen.Result, error) {
	es := s.eigenSettings()
	solver := s.Eigen
	if solver == nil && pre != nil {
		// Lanczos first, with a budget of multigridAfter restarts: the
		// easy problems converge within it, as before (a gap-bound
		// Krylov method is the fastest there), and only the rest are
		// handed over.
		short := es
		short.MaxIter = multigridAfter
		if es.MaxIter > 0 {
			short.MaxIter = min(es.MaxIter, multigridAfter)
		}
		auto := autoSolver(p.A.Dim())
		res, err := auto.Solve(ctx, p, &short)
		if err == nil || !errors.Is(err, eigen.ErrNoConvergence) {
			return checkSolve(auto, res, err)
		}
		res, err = pre.Solve(ctx, p, &es)
		if err == nil || ctx.Err() != nil || errors.Is(err, eigen.ErrNonFinite) {
			return checkSolve(pre, res, err)
		}
		// Any other failure (no convergence, a graph that does not
		// coarsen): Lanczos with the full budget.
	}
	if solver == nil {
		solver = autoSolver(p.A.Dim())
	}
	res, err := solver.Solve(ctx, p, &es)
	return checkSolve(solver, res, err)
}

// checkSolve maps the error of solver to cluster's: a partial result with
// eigen.ErrNoConvergence is returned with it, a non-finite operator or a
// B that is not positive definite gives an error wrapping ErrNumerical, and a problem the solver refuses
// (eigen.ErrInvalid: a generalized one given to Settings.Eigen =
// eigen.Lanczos, which solves standard problems only, or a solver field out
// of range) an error wrapping ErrInvalid that names the solver.
func checkSolve(solver eigen.Solver, res *eigen.Result, err error) (*eigen.Result, error) {
	if err != nil {
		if errors.Is(err, eigen.ErrNoConvergence) && res != nil {
			return res, err
		}
		if errors.Is(err, eigen.ErrNonFinite) {
			// The operator overflowed: Run's inputs are finite.
			return nil, fmt.Errorf("%w: eigensolver: %w", ErrNumerical, err)
		}
		if errors.Is(err, eigen.ErrNotPositiveDefinite) {
			// B is the method's own operator (a pencil's regularized
			// matrix), positive definite in exact arithmetic: singular
			// to working precision, a numerical failure (review 92:
			// tether serve answered 500).
			return nil, numericalError{fmt.Errorf("cluster: eigensolver: %w", err)}
		}
		if errors.Is(err, eigen.ErrInvalid) {
			return nil, fmt.Errorf("%w: eigensolver %T: %w", ErrInvalid, solver, err)
		}
		return nil, fmt.Errorf("cluster: eigensolver: %w", err)
	}
	return res, nil
}

// autoSolver is the solver used when Settings.Eigen is nil: Dense up to
// DenseLimit nodes, Lanczos above, whose basis may grow to LanczosMaxNCV
// vectors on hard problems from LanczosGrowMinN nodes (eigen.Lanczos.MaxNCV).
func autoSolver(n int) eigen.Solver {
	if n <= DenseLimit {
		return eigen.Dense{}
	}
	if n >= LanczosGrowMinN {
		return eigen.Lanczos{MaxNCV: LanczosMaxNCV}
	}
	return eigen.Lanczos{}
}

// LanczosGrowMinN is the number of nodes from which autoSolver lets the
// Lanczos basis grow, and LanczosMaxNCV the size it may grow to. Growth
// applies only to runs still unconverged after 8 restarts, such as the
// 2-D k-NN graphs of point clouds, whose small eigengaps make a short
// cycle lose most of its work: NJW's eigensolve on 10⁵ 2-D blob points
// (the CLI's default 10-NN graph) takes 1623 products instead of 3866,
// about half the time (BenchmarkLanczos2DKNN, BenchmarkNJW2D100k;
// bench/results.md, 2026-11-28). Memory grows by n·(LanczosMaxNCV − NCV)
// floats, 32 MB at 10⁵ nodes for K = 5. Below 2·10⁴ nodes the solve takes
// under a second and the published reproductions, all smaller, keep
// their results bit for bit. The basis of a run with K ≥ 32 pairs not
// deflated is already at least 65 vectors long and does not grow.
const (
	LanczosGrowMinN = 20000
	LanczosMaxNCV   = 64
)

// MultigridMinN is the number of nodes from which laplacianEmbedding
// solves L_sym (without regularization, at most MultigridMaxK pairs not
// deflated, Settings.Eigen nil) by LOBPCG preconditioned with a multigrid
// V-cycle (graph.Multigrid approximating (L_sym + multigridSigma·I)⁻¹)
// instead of Lanczos, when the graph's pseudo-diameter
// (graph.PseudoDiameter) is at least multigridMinDepth. Lanczos runs
// first for multigridAfter restarts; only a solve that has not converged
// within them is handed over, and one the multigrid does not finish (a
// graph that does not coarsen, no convergence) goes back to Lanczos
// (solveWith). Below MultigridMinN nodes nothing of this applies, so the
// published reproductions, all smaller, keep their results bit for bit.
//
// Why the diameter: a preconditioner that inverts L_sym approximately
// makes LOBPCG's convergence depend on the ratios of the eigenvalues
// instead of their gaps relative to ‖L_sym‖ (Knyazev 2001, §5), so its
// iterations hardly grow with the graph, while a Krylov method needs
// about as many products as the graph has hops across (on a graph that
// looks like a d-dimensional mesh, λ₂ ∝ 1/diameter² and Lanczos' products
// ∝ 1/√λ). Each LOBPCG iteration costs a V-cycle per column, about 40
// products' worth for a block of 9, so the multigrid pays only on long
// graphs, the k-NN graphs of 2-D point clouds. Measured at 10⁵ nodes
// (NJW's eigensolve alone, multigrid against Lanczos with MaxNCV 64, one
// run each; bench/results.md, 2026-11-29): 2-D blobs, pseudo-diameter
// 157: k = 5 3.2 s against 4.6 s, k = 10 6.5 s against 7.1 s; 3-D blobs,
// 46: k = 5 3.1 s against 1.8 s, k = 10 6.0 s against 2.4 s; 6-D, 21:
// k = 10 12.7 s against 2.1 s; 10-D blobs, 15, with k above the number of
// blobs (eigenvalues 6 onwards a near-degenerate bulk around 0.115): 15–24
// s against 1.7–2.5 s (BenchmarkNJWBulk100k). On 2-D blobs the two cost
// about the same at 5·10⁴ nodes (pseudo-diameter 121: 1.9 s against 2.2 s)
// and Lanczos wins at 2·10⁴ (79: 0.55 s against 0.47 s). Hence a depth of
// 128. The Ritz values after Lanczos' first restarts could not tell these
// cases apart (θ₅ = 0.0065 in 2-D, 0.0076 in 3-D, both far above the
// eigenvalues). Until 2026-11-29 every such solve from 10⁵ nodes was
// handed over, whatever the diameter.
//
// MultigridMaxK bounds the pairs: LOBPCG's dense block algebra grows like
// n·K², and for many pairs Lanczos is cheaper.
const (
	MultigridMinN     = 100000
	multigridMinDepth = 128
	MultigridMaxK     = 16
	multigridSigma    = 1e-5
	multigridAfter    = 8
)

// multigridSolver returns the solver laplacianEmbedding hands a hard
// L_sym of g to (see MultigridMinN), or nil when it does not apply. Cost:
// the pseudo-diameter's sweeps, O(nnz) each, when the other conditions
// hold; an error only when ctx is done.
func multigridSolver(ctx context.Context, g *graph.Graph, kind graph.LaplacianKind, tau float64, pairs int, s *Settings) (*multigridLOBPCG, error) {
	if s.Eigen != nil || kind != graph.Symmetric || tau != 0 || g.N() < MultigridMinN || pairs > MultigridMaxK || pairs < 1 {
		return nil, nil
	}
	depth, err := g.PseudoDiameter(ctx)
	if err != nil || depth < multigridMinDepth {
		return nil, err
	}
	return &multigridLOBPCG{g: g}, nil
}

// invertFirstMinPairs, invertFirstMinN and invertFirstMinDepth: from
// invertFirstMinN nodes, on a graph whose pseudo-diameter
// (graph.PseudoDiameter) is at least invertFirstMinDepth,
// laplacianEmbedding solves for more than invertFirstMinPairs pairs not
// deflated (FGPWC's automatic m, whose cap is 200) by shift-and-invert from
// the start: one round of shiftInvertEmbedding (Lanczos on (L + σI)⁻¹ with
// a sparse Cholesky factor and a convergence test relative to each
// eigenvalue, eigen.Lanczos.PerValue, so that every pair's residual meets
// the iterative solver's own test on L, which is checked), when the
// factor fits shiftInvertMaxEntries and its cost shiftInvertMaxFlops.
// When the factor does not fit, or some pair fails the test, the
// iterative solve runs as before.
//
// Why: on the k-NN graph of a 2-D point cloud the wanted eigenvalues crowd
// near 0 relative to ‖L‖ (λ_201 of L_sym = 0.0072 on 10⁵ moons points), so
// Lanczos on L needs many restarts, while on the inverted operator the
// same pairs are separated by their ratios; and such graphs have small
// separators, so the factor is cheap (5.3·10⁶ entries, 0.6 s, at 10⁵
// moons points). Measured (bench/results.md, 2026-11-29): those 201 pairs
// in one inverted round, about 34 s, against 132 s for Lanczos on L (272 s
// on a draw where λ₂ fell below Lanczos' resolution and was repaired);
// FGPWC end to end with its defaults on 10⁵ moons points 65 s instead of
// 174 s (the CLI's draw, same labels) and of 346 s (fgpwc-cap-dev's draw,
// whose λ₂ is repaired; ARI 0.8848 both). With the test relative to ‖inv‖
// instead of to each value, one round resolved only 191 of those 201
// pairs (invertedSolve).
//
// Why the diameter: the factor's size follows the graph's dimension, and
// the pseudo-diameter tells the dimension apart cheaply (a few
// breadth-first sweeps). The 10-NN graphs of blob clouds measured: in 2-D
// depth 70 at 2·10⁴ points and 148 at 10⁵, factors of 9·10⁵ and 5.8·10⁶
// entries; in 3-D depth 28 and 45, in 4-D 20 and 30, in 10-D 13 and 14,
// whose factors cost 5·10⁹ to 2.7·10¹⁰ multiply-adds at 2·10⁴ points and
// exceed shiftInvertMaxEntries at 10⁵, found only after 5 to 33 s of
// analysis (which is why a rule without the diameter made FGPWC on 10-D
// blobs at 10⁵ points 2.7 times slower). Sparse random graphs (block
// models) have depths near log n.
//
// Up to invertFirstMinPairs pairs the solve is short anyway, and the
// multigrid LOBPCG serves long graphs. Below invertFirstMinN nodes nothing
// of this applies, so the published reproductions, all smaller, keep their
// results bit for bit.
const (
	invertFirstMinPairs = MultigridMaxK
	invertFirstMinN     = LanczosGrowMinN
	invertFirstMinDepth = 64
)

// invertFirst reports whether laplacianEmbedding solves pairs eigenpairs
// (not counting the deflated ones) of the Laplacian of kind of g by
// shift-and-invert first (invertFirstMinPairs); repairable is whether a
// shift-and-invert solve may replace the iterative one at all. Cost: the
// pseudo-diameter's sweeps, O(nnz) each, when the other conditions hold;
// an error only when ctx is done.
func invertFirst(ctx context.Context, g *graph.Graph, kind graph.LaplacianKind, pairs int, repairable bool, s *Settings) (bool, error) {
	if !repairable || pairs <= invertFirstMinPairs || g.N() < invertFirstMinN || (kind != graph.Symmetric && kind != graph.Unnormalized) {
		return false, nil
	}
	if es := s.EigenSettings; es != nil && es.MaxIter > 0 {
		return false, nil // a capped solve was asked for: keep it
	}
	depth, err := g.PseudoDiameter(ctx)
	if err != nil || depth < invertFirstMinDepth {
		return false, err
	}
	return true, nil
}

// multigridLOBPCG solves L_sym of g by eigen.LOBPCG preconditioned with
// graph.Multigrid, built when Solve is called (so that a problem Lanczos
// solves within its first restarts never pays for it). A graph that does
// not coarsen gives an error wrapping graph.ErrNoCoarsening. Cost: O(nnz) per level to build, then per
// LOBPCG iteration one product with L_sym and one V-cycle per active
// column plus O(n·BlockSize²) block algebra.
type multigridLOBPCG struct{ g *graph.Graph }

func (m *multigridLOBPCG) Solve(ctx context.Context, p eigen.Problem, s *eigen.Settings) (*eigen.Result, error) {
	mg, err := graph.NewMultigrid(ctx, m.g, multigridSigma)
	if err != nil {
		return nil, err
	}
	return eigen.LOBPCG{T: mg}.Solve(ctx, p, s)
}

// nullBasis returns the orthonormal basis of the null space of a Laplacian
// of g with components comp (count of them): the vectors D^{1/2}1_C/√vol(C)
// for L_sym (sqrtDeg true) or 1_C/√|C| for L. At most max vectors are
// returned, for the largest components first (ties by smallest node).
func nullBasis(g *graph.Graph, comp []int, count, max int, sqrtDeg bool) *mat.Dense {
	size := make([]int, count)
	for _, c := range comp {
		size[c]++
	}
	order := make([]int, count)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return size[order[a]] > size[order[b]] })
	if max > count {
		max = count
	}
	col := make([]int, count)
	for i := range col {
		col[i] = -1
	}
	for j := 0; j < max; j++ {
		col[order[j]] = j
	}
	n := g.N()
	z := mat.NewDense(n, max, nil)
	norm := make([]float64, max)
	for i, c := range comp {
		j := col[c]
		if j < 0 {
			continue
		}
		v := 1.0
		if sqrtDeg {
			v = math.Sqrt(g.Degree(i))
		}
		z.Set(i, j, v)
		norm[j] += v * v
	}
	for i, c := range comp {
		if j := col[c]; j >= 0 {
			z.Set(i, j, z.At(i, j)/math.Sqrt(norm[j]))
		}
	}
	return z
}

// embedding is the result of a Laplacian eigendecomposition.
type embedding struct {
	values   []float64  // ascending
	vectors  *mat.Dense // n×count
	deg      []float64  // the degrees the Laplacian normalizes by: d, or d + τ when regularized
	tau      float64    // the regularization τ applied (0: none)
	warnings []string
	inverted bool // solved by shift-and-invert from the start (invertFirst)
}

// exactLaplacian is the regularization of the methods whose mathematics
// needs the exact Laplacian: the bisections (COSC, hierarchical bisection,
// L1CSC), whose objective is the Ncut value itself (a component split off
// has Ncut 0, the optimum), FGPWC, whose objective F(X) is stated on L_sym
// (seed 003 eq. 6), and the unnormalized Laplacians, which have no degree
// normalization to regularize.
var exactLaplacian = graph.Regularization{Mode: graph.RegNone}

// laplacianEmbedding returns the count smallest eigenpairs of the Laplacian
// of the given kind (Unnormalized or Symmetric), ascending.
//
// For Symmetric, reg selects the regularized L_sym,τ (graph.Regularization;
// by default, RegAuto, for disconnected graphs and graphs of heterogeneous
// degrees): its degrees are d + τ, so isolated nodes are accepted and small
// components and dangling trees no longer take the smallest eigenvalues
// (Qin & Rohe 2013; Zhang & Rohe 2018); a warning gives τ and the reason.
// Only the complete form (τ/n added to every W_ij) has a known null vector,
// D_τ^{1/2}1, which is deflated.
//
// Without regularization, when the graph is disconnected, the exact null
// vectors of its components are deflated (largest components first) so the
// solver never has to resolve a repeated zero eigenvalue; a warning says
// so. For a connected graph the single null vector is deflated too.
// Isolated nodes make L_sym undefined and give an error wrapping
// graph.ErrIsolated.
//
// When an iterative solve (Settings.Eigen nil, above DenseLimit nodes, no
// regularization) returns eigenvalues above 0 but below its resolution
// tol·‖L‖, where it cannot tell them apart and may miss some, or does not
// converge (after shiftInvertAfter restarts when that is below its
// budget, outside the multigrid path), the pairs are solved again by
// shift-and-invert with a sparse direct factor (shiftInvertEmbedding),
// within a budget of factor size and cost (shiftInvertBudget,
// Settings.Repair); a warning says which was done.
func laplacianEmbedding(ctx context.Context, g *graph.Graph, kind graph.LaplacianKind, count int, reg graph.Regularization, s *Settings) (*embedding, error) {
	n := g.N()
	if count < 1 || count > n {
		return nil, fmt.Errorf("%w: %d eigenvectors requested for %d nodes", ErrInvalid, count, n)
	}
	// Run checked the τ the caller gave against graph.MaxTau (validate);
	// here it may be that τ times the power of two that brought tiny
	// weights into [½, 1) (rescaled), beyond MaxTau but on the weights'
	// scale: only its mode and sign are checked again.
	chk := reg
	if chk.Tau > graph.MaxTau && !math.IsInf(chk.Tau, 1) {
		chk.Tau = graph.MaxTau
	}
	if err := chk.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	tau := 0.0
	if kind != graph.Unnormalized {
		tau = reg.TauFor(g, count)
	}
	var comp []int
	nc := 0
	if tau == 0 {
		comp, nc = g.Components()
		if n >= componentSplitMinN && nc > 1 && count > nc && (kind == graph.Unnormalized || len(g.Isolated()) == 0) {
			return componentEmbedding(ctx, g, kind, count, comp, nc, s)
		}
	}
	newOp := func(h *graph.Graph) (*graph.Laplacian, error) {
		return graph.NewRegularizedLaplacian(h, kind, tau, reg.Complete && tau > 0)
	}
	// Above DenseLimit the iterative solver's sparse products matter:
	// relabel the nodes of sparse graphs (at most rcmMaxRow stored entries
	// per node on average) in reverse Cuthill–McKee order so that the
	// products read memory almost sequentially (1.35× faster on a 10⁵-node
	// k-NN graph), and map the eigenvectors back. The spectrum is the same.
	// Dense graphs gain nothing and would pay for sorting long rows.
	var perm []int
	var op *graph.Laplacian
	var err error
	gop := g // the graph of op
	if n > DenseLimit && g.NNZ() <= rcmMaxRow*n {
		if perm, err = g.RCMOrder(ctx); err != nil {
			return nil, fmt.Errorf("cluster: %w", err)
		}
		gp, perr := g.Permute(ctx, perm)
		if perr != nil {
			return nil, fmt.Errorf("cluster: %w", perr)
		}
		gop = gp
		if op, err = newOp(gp); err != nil {
			// Rebuilt on g as given, so that the error (an isolated
			// node) names the caller's node, not the relabelled one.
			_, err = newOp(g)
		}
	} else {
		op, err = newOp(g)
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	e := &embedding{deg: g.Degrees(), tau: tau}
	var z *mat.Dense
	if tau > 0 {
		for i := range e.deg {
			e.deg[i] += tau
		}
		why := "by request"
		if reg.Mode == graph.RegAuto {
			_, why = graph.NeedsRegularization(g, count)
		}
		form := "d + τ"
		if reg.Complete {
			form = "d + τ and τ/n added to every W_ij"
		}
		// A note, whether asked for or chosen by the auto rule (the
		// default, documented: it says why, isolated nodes, too many or
		// too small components or very unequal degrees); the problems
		// that remain after it (zero embedding rows, a collapsed
		// partition) are warnings of their own.
		e.warnings = append(e.warnings, note(fmt.Sprintf("%v regularized (%s), τ = %.4g: %s", kind, form, tau, why)))
		if reg.Complete {
			// W_τ1 = D_τ1: D_τ^{1/2}1 is the exact null vector.
			z = mat.NewDense(n, 1, nil)
			var nrm float64
			for _, d := range e.deg {
				nrm += d
			}
			for i, d := range e.deg {
				z.Set(i, 0, math.Sqrt(d/nrm))
			}
		}
	} else {
		// The null vectors are known exactly (one per component: 1_C for L,
		// D^{1/2}1_C for L_sym), so the solver never computes them, even for
		// a connected graph: one pair fewer for Lanczos, and an exact first
		// eigenvector.
		z = nullBasis(g, comp, nc, count, kind == graph.Symmetric)
		if nc > 1 {
			e.warnings = append(e.warnings, fmt.Sprintf("graph has %d connected components; their indicator vectors are exact eigenvectors of eigenvalue 0: "+componentsApartText+", so clusters tend to follow the components (harmless when each component is a cluster or a union of clusters; otherwise a graph with more neighbours joins them%s)", nc, inParens(s.front("knn"))))
			if nc > count {
				e.warnings = append(e.warnings, fmt.Sprintf("more components (%d) than eigenvectors requested (%d): the embedding cannot separate all components", nc, count))
			}
		}
	}
	d := 0
	if z != nil {
		_, d = z.Dims()
	}
	if d == count {
		// The deflated null vectors are all that was asked for.
		e.values, e.vectors = make([]float64, d), z
		return e, nil
	}
	if perm != nil && z != nil {
		// Row k of the relabelled problem is node perm[k] (z is ours).
		z.PermuteRows(perm, false)
	}
	p := eigen.Problem{A: op, K: count, Which: eigen.Smallest}
	if z != nil {
		p.Deflate, p.DeflateValues = z, make([]float64, d)
	}
	norm := laplacianNormBound(kind, e.deg)
	rel, dense := solverResolution(s, n)
	repairable := tau == 0 && s.Eigen == nil && n > DenseLimit && s.Repair != RepairNever
	// repair solves again by shift-and-invert (shiftInvertEmbedding) after
	// an iterative solve res that left eigenvalues below its resolution
	// (w, belowResolution's warning) or did not converge (failure, its
	// error; after restarts restarts when cut short). It reports whether
	// the repair was made, and sets e's pairs and warnings if so, else
	// the reason in w or failure.
	repair := func(res *eigen.Result, w, failure *string, restarts int) (bool, error) {
		vals, vecs, why, err := shiftInvertEmbedding(ctx, gop, op, kind, count, z, res.Values, norm*rel, norm, shiftInvertBudget(s.Repair, res.MatVecs, gop.NNZ(), n), *failure != "", shiftInvertRounds, false, s)
		if err != nil {
			return false, err
		}
		if vecs == nil {
			if *w != "" {
				*w += "; " + why
			} else {
				*failure += "; " + why
			}
			return false, nil
		}
		e.values, e.vectors = vals, vecs
		var done []string
		if *w != "" {
			done = append(done, fmt.Sprintf("the eigenvalues of %v below the iterative solver's resolution (%d found, from %.3g)", kind, countBelow(res.Values, norm*rel), firstPositive(res.Values)))
		}
		if *failure != "" && restarts > 0 {
			done = append(done, fmt.Sprintf("the eigenpairs of %v the iterative solver had not converged to in %d restarts", kind, restarts))
		} else if *failure != "" {
			done = append(done, fmt.Sprintf("the eigenpairs of %v the iterative solver did not converge to (%s)", kind, *failure))
		}
		*w = strings.Join(done, " and ") + " were resolved by a shift-and-invert solve with a sparse direct factorization"
		if w2 := belowResolution(e.values, kind, norm, denseResolution(n), true); w2 != "" {
			*w += "; " + w2
		}
		*failure = ""
		return true, nil
	}
	pre, err := multigridSolver(ctx, gop, kind, tau, count-d, s)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	if first, err := invertFirst(ctx, gop, kind, count-d, repairable, s); err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	} else if first {
		// Many pairs of a long graph: shift-and-invert from the start
		// (invertFirstMinPairs). When it does not resolve every pair
		// within its budget, the iterative solve below runs as before.
		vals, vecs, _, err := shiftInvertEmbedding(ctx, gop, op, kind, count, z, nil, norm*rel, norm, shiftInvertMaxFlops, false, 1, true, s)
		if err != nil {
			return nil, err
		}
		if vecs != nil {
			e.values, e.vectors, e.inverted = vals, vecs, true
			if w := belowResolution(e.values, kind, norm, denseResolution(n), true); w != "" {
				e.warnings = append(e.warnings, w)
			}
			return e.unpermute(perm), nil
		}
	}
	var res *eigen.Result
	if repairable && pre == nil && (s.EigenSettings == nil || s.EigenSettings.MaxIter == 0 || s.EigenSettings.MaxIter > shiftInvertAfter) {
		// A solve that has not converged in shiftInvertAfter restarts
		// (small eigenvalues clustered relative to ‖L‖: paths, meshes,
		// low-dimensional k-NN graphs) is handed to shift-and-invert
		// when its factor fits the budget of the work spent so far (or
		// shiftInvertFreeFlops), instead of running to 1000 restarts
		// first (65 s on a 50 000-node path). A solve that converges
		// within them is the full solve's, unless Lanczos' verification
		// runs (its search for a pair it missed, which get the same cap)
		// would have needed more.
		res, err = s.solveCapped(ctx, p, shiftInvertAfter)
		if res != nil && errors.Is(err, eigen.ErrNoConvergence) {
			w, failure := belowResolution(res.Values, kind, norm, rel, dense), err.Error()
			ok, rerr := repair(res, &w, &failure, shiftInvertAfter)
			if rerr != nil {
				return nil, rerr
			}
			if ok {
				e.warnings = append(e.warnings, w)
				return e.unpermute(perm), nil
			}
			// Over the budget so far: the full solve, whose larger
			// budget may allow the repair after it.
			res, err = nil, nil
		}
	}
	if res == nil && err == nil {
		res, err = s.solveWith(ctx, p, pre)
	}
	var failure string // the iterative solve's error when it did not converge
	if err != nil {
		if res == nil {
			return nil, err
		}
		failure = err.Error()
	}
	e.values, e.vectors = res.Values, res.Vectors
	w := belowResolution(e.values, kind, norm, rel, dense)
	if (w != "" || failure != "") && repairable {
		// The iterative solve could not resolve them, or did not
		// converge: solve again by shift-and-invert, which resolves
		// them as a dense solver would.
		if _, err := repair(res, &w, &failure, 0); err != nil {
			return nil, err
		}
	}
	if failure != "" {
		e.warnings = append(e.warnings, failure)
	}
	if w != "" {
		e.warnings = append(e.warnings, w)
	}
	return e.unpermute(perm), nil
}

// unpermute maps e's vectors back to the caller's labels when the graph
// was relabelled (row k goes to node perm[k]; perm nil: none) and returns
// e.
func (e *embedding) unpermute(perm []int) *embedding {
	if perm != nil {
		e.vectors.PermuteRows(perm, true)
	}
	return e
}

// laplacianNormBound returns a bound of ‖L‖ for the Laplacian of the given
// kind with degrees deg: 2·max degree for L = D − W (Gershgorin), 2 for the
// normalized ones. Cost O(n).
func laplacianNormBound(kind graph.LaplacianKind, deg []float64) float64 {
	if kind != graph.Unnormalized {
		return 2
	}
	dmax := 0.0
	for _, d := range deg {
		dmax = math.Max(dmax, d)
	}
	return 2 * dmax
}

// solverResolution returns the relative resolution of the eigensolve
// laplacianEmbedding runs for n nodes with settings s: the residual
// tolerance of an iterative solver (eigen.Settings.Tol, defaultEigenTol
// when unset), or denseResolution for the dense solver (Settings.Eigen
// eigen.Dense, or nil up to DenseLimit nodes).
func solverResolution(s *Settings, n int) (rel float64, dense bool) {
	s = s.orDefault()
	if _, dense := s.Eigen.(eigen.Dense); dense || (s.Eigen == nil && n <= DenseLimit) {
		return denseResolution(n), true
	}
	tol := defaultEigenTol
	if es := s.EigenSettings; es != nil && es.Tol != 0 {
		tol = es.Tol
	}
	return tol, false
}

// denseResolution is the relative resolution of a backward-stable dense
// eigensolver on an n×n matrix, n·ε: its eigenvalues are exact for a
// matrix within about n·ε·‖L‖ of L (the usual bound of Householder
// tridiagonalization, Golub & Van Loan §8.3).
func denseResolution(n int) float64 { return float64(max(n, 1)) * 0x1p-52 }

// countBelow returns the number of values in (0, res).
func countBelow(values []float64, res float64) int {
	c := 0
	for _, v := range values {
		if v > 0 && v < res {
			c++
		}
	}
	return c
}

// firstPositive returns the smallest positive value of the ascending
// values, 0 if there is none.
func firstPositive(values []float64) float64 {
	for _, v := range values {
		if v > 0 {
			return v
		}
	}
	return 0
}

// belowResolution returns a warning when a computed eigenvalue of the
// Laplacian lies above 0 but below the eigensolver's resolution, rel·norm
// (rel from solverResolution, norm the bound of ‖L‖ from
// laplacianNormBound), "" otherwise. Such eigenvalues are within the
// solver's error of 0 and of each other, so their eigenvectors are not
// determined, and an iterative solver can return eigenpairs within
// tolerance that are not the smallest: on fgpwc-table1's spambase graph,
// whose degrees span 0.008 to 477, Lanczos missed six eigenvalues of
// D − W below 10⁻⁶ (BenchmarkSSCKACommuteSpambase); laplacianEmbedding
// then solves again by shift-and-invert (shiftInvertEmbedding). The
// exactly deflated null vectors (eigenvalue 0) do not count. Cost
// O(count). dense says that the values come from a dense-accurate solve
// (the dense solver, or shift-and-invert): they are then zeros within
// rounding, and the warning says so.
func belowResolution(values []float64, kind graph.LaplacianKind, norm, rel float64, dense bool) string {
	res := rel * norm
	low := countBelow(values, res)
	if low == 0 {
		return ""
	}
	if dense {
		// A dense-accurate solve: these are zeros within rounding.
		return fmt.Sprintf("%d eigenvalue(s) of %v, from %.3g, lie below its rounding error n·ε·‖L‖ ≈ %.3g: numerically they are zeros, so the graph is disconnected in all but name (nodes or groups joined by weights near zero); their eigenvectors are not determined (regularization, L_sym or dropping such nodes helps)", low, kind, firstPositive(values), res)
	}
	return fmt.Sprintf("%d eigenvalue(s) of %v, from %.3g, lie below the eigensolver's resolution ≈ %.3g: they cannot be told apart from 0 or from each other, and the embedding may not hold the smallest eigenpairs (nodes of near-zero degree, or weights spanning many orders of magnitude; regularization, L_sym or dropping such nodes helps)", low, kind, firstPositive(values), res)
}

// componentSplitMinN is the number of nodes from which laplacianEmbedding
// solves the eigenproblem of a disconnected graph component by component
// (componentEmbedding). Below it the whole-graph solve costs about a second
// at most, and its results, those of the published reproductions, are
// kept as they were.
const componentSplitMinN = 10000

// componentEmbedding is laplacianEmbedding, without regularization, for a
// graph with nc > 1 components (comp) and count > nc: the Laplacian is
// block diagonal, so its eigenpairs are those of the components' own
// Laplacians, zero outside the component. Each component c of n_c nodes is
// solved on its own (laplacianEmbedding on the induced subgraph, which is
// connected, with its null vector deflated) for
// K_c = min(n_c, ⌈count·n_c/n⌉ + max(4, ⌈count·n_c/(4n)⌉)) pairs; the
// count smallest of all, ties by the order of nullBasis (larger
// components first), form the embedding. The choice is checked: when a
// component's largest computed eigenvalue lies below the count-th value
// retained while it has eigenvalues not computed, some of them might
// belong to the embedding, so K_c is doubled and that component solved
// again. The result equals the whole-graph solve up to the solver's
// tolerance (and the choice of basis inside repeated eigenvalues).
//
// Why: the cost of Lanczos for many pairs is dominated by orthogonalizing
// against a basis of about 2·count vectors of length n; per component the
// basis is about 2·K_c vectors of length n_c (for FGPWC's 51 pairs on a
// 10⁵-node k-NN graph of 3 components, fgpwc_bench_test.go). Cost: the
// sum over components of their solves, plus O(nnz) for the subgraphs.
func componentEmbedding(ctx context.Context, g *graph.Graph, kind graph.LaplacianKind, count int, comp []int, nc int, s *Settings) (*embedding, error) {
	n := g.N()
	members := make([][]int, nc)
	for i, c := range comp {
		members[c] = append(members[c], i)
	}
	// Components in nullBasis's order: larger first, ties by smallest node.
	order := make([]int, nc)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return len(members[order[a]]) > len(members[order[b]]) })
	type part struct {
		nodes []int
		k     int
		e     *embedding
	}
	parts := make([]part, nc)
	for r, c := range order {
		nodes := members[c]
		nn := len(nodes)
		share := (count*nn + n - 1) / n
		parts[r] = part{nodes: nodes, k: min(nn, share+max(4, (share+3)/4))}
	}
	solve := func(pt *part) error {
		sub, err := g.Subgraph(pt.nodes)
		if err != nil {
			return fmt.Errorf("cluster: %w", err)
		}
		e, err := laplacianEmbedding(ctx, sub, kind, pt.k, exactLaplacian, s)
		if err != nil {
			return err
		}
		pt.e = e
		return nil
	}
	for r := range parts {
		if err := solve(&parts[r]); err != nil {
			return nil, err
		}
	}
	type pick struct {
		v    float64
		r, j int
	}
	var picks []pick
	for {
		picks = picks[:0]
		for r, pt := range parts {
			for j, v := range pt.e.values {
				picks = append(picks, pick{v, r, j})
			}
		}
		sort.SliceStable(picks, func(a, b int) bool {
			if picks[a].v != picks[b].v {
				return picks[a].v < picks[b].v
			}
			if picks[a].r != picks[b].r {
				return picks[a].r < picks[b].r
			}
			return picks[a].j < picks[b].j
		})
		if len(picks) > count {
			picks = picks[:count]
		}
		thr := picks[len(picks)-1].v
		again := false
		for r := range parts {
			pt := &parts[r]
			if pt.k < len(pt.nodes) && pt.e.values[pt.k-1] < thr {
				pt.k = min(len(pt.nodes), 2*pt.k)
				if err := solve(pt); err != nil {
					return nil, err
				}
				again = true
			}
		}
		if !again && len(picks) == count {
			break
		}
		if !again {
			return nil, fmt.Errorf("%w: %d eigenvectors requested for %d nodes", ErrInvalid, count, n)
		}
	}
	e := &embedding{deg: g.Degrees(), values: make([]float64, count), vectors: mat.NewDense(n, count, nil)}
	e.warnings = append(e.warnings, fmt.Sprintf("graph has %d connected components; their indicator vectors are exact eigenvectors of eigenvalue 0 (the components were solved one by one)", nc))
	seen := map[string]bool{}
	for _, pt := range parts {
		for _, w := range pt.e.warnings {
			if !seen[w] {
				seen[w] = true
				e.warnings = append(e.warnings, w)
			}
		}
	}
	for col, pk := range picks {
		pt := parts[pk.r]
		e.values[col] = pk.v
		for t, node := range pt.nodes {
			e.vectors.Set(node, col, pt.e.vectors.At(t, pk.j))
		}
	}
	return e, nil
}

// rcmMaxRow is the largest mean number of stored entries per node for which
// laplacianEmbedding relabels the graph in RCM order.
const rcmMaxRow = 100

// commuteTimeScale scales column j of e.vectors (eigenvectors of L = D −
// W) by 1/√λ_j, the commute-time embedding of thesis eq. 2.4.18 with the
// 1/√λ correction, and sets the columns of eigenvalue ≤ 1e-9·λ_max (null
// vectors) to 0, as the pseudo-inverse L⁺ does. It returns the number of
// such null columns. Cost O(n·k).
func commuteTimeScale(e *embedding) (zero int) {
	n, k := e.vectors.Dims()
	floor := zeroEigenvalueFloor(e.values[:k])
	scale := make([]float64, k)
	for j, l := range e.values[:k] {
		if l > floor {
			scale[j] = 1 / math.Sqrt(l)
		} else {
			zero++
		}
	}
	for i := 0; i < n; i++ {
		row := e.vectors.RawRowView(i)[:k]
		for j := range row {
			row[j] *= scale[j]
		}
	}
	return zero
}

// componentsApartText is the phrase of the embedding's warning on a
// disconnected graph, which SSCKA's commute kernel replaces by its own
// (componentIndicators).
const componentsApartText = "the embedding sets each component apart"

// zeroEigenvalueFloor returns the value at or below which an eigenvalue
// of L among values counts as 0 to rounding: 10⁻⁹ times the largest.
// Cost O(len(values)).
func zeroEigenvalueFloor(values []float64) float64 {
	top := 0.0
	for _, l := range values {
		top = max(top, l)
	}
	return 1e-9 * top
}

// normalizeRows scales every row of x to unit Euclidean length (thesis
// Alg. 3, line 4) but the rows that are numerically zero, which it sets to
// exactly zero (clearZeroRows, with tol the relative accuracy of x's
// columns: rowTol for eigenvectors), and returns the number of rows left
// at zero. A row holding NaN is left as it is. Cost O(r·c).
func normalizeRows(x *mat.Dense, tol float64) (zero int) {
	clearZeroRows(x, tol)
	return unitRows(x)
}

// unitRows scales every row of x that is not exactly zero (nor holds NaN)
// to unit Euclidean length, however small, and returns the number of
// exact zero rows: normalizeRows without clearZeroRows, for NOA-SSC's
// k = 2, whose rows must follow the sign of g_1 as MAVRO's split does,
// and for CSP's rows, told zero before their scaling. Cost O(r·c).
func unitRows(x *mat.Dense) (zero int) {
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		row := x.RawRowView(i)[:c]
		var s float64
		for _, v := range row {
			s += v * v
		}
		switch {
		case s > 0:
			s = 1 / math.Sqrt(s)
			for j := range row {
				row[j] *= s
			}
		case s == 0:
			zero++
		}
	}
	return zero
}

// clearZeroRows sets to zero the rows of x that are numerically zero, of
// norm at most max(tol, r·ε)·‖x‖_F (r the rows of x, ε = 2⁻⁵²), where tol
// is the relative accuracy of x's columns (for eigenvectors the solver's
// relative residual tolerance: rowTol), and returns their number, exact
// zeros included.
//
// Such a row is, as far as the solver can tell, a node where the
// eigenvectors are zero: in exact arithmetic they are at an isolated node
// or a small component of a regularized L_sym, which the k smallest
// eigenvectors leave out, at a component without constraints in
// FAST-GE-2.0, and they are below the solver's accuracy at a node of
// degree 10⁻²⁰ beside degrees of 1 (full RBF graphs of mean-variance
// bandwidth: rows of 10⁻²⁶–10⁻²⁰ on ionosphere). A dense solve returns
// rounding there, about 10⁻¹⁷, an iterative one the residual it stopped
// at: for the default tolerance 10⁻⁸ (defaultEigenTol), up to 6·10⁻⁹, or
// 2·10⁻⁸ times the largest row norm, on a 506-node graph with 4 isolated
// nodes, k = 4. Scaled to unit length (normalizeRows before this bound),
// that noise gave the node an arbitrary direction, hence a cluster that
// changed with the solver and the seed.
//
// The bound is the error of a row of computed eigenvectors: column j is
// accurate to about tol·‖x_j‖ (‖L‖/gap taken as 1), so row i to
// tol·‖x‖_F, and a row no larger than its own error has no direction to
// keep. r·ε is the floor: the resolution of a backward-stable dense
// solve of an r×r matrix (denseResolution, which rowTol gives for the
// dense solver), and of rows formed exactly (tol 0) up to the rounding of
// their products. A larger floor such as √ε would also clear rows that a
// dense solve resolves (10⁻¹² at an error of 10⁻¹⁴), of nodes of small
// degree. The bound is relative, so the test does not depend on the scale
// of x. A row left at zero is clustered by no information of its own:
// k-means puts all such rows in one cluster, the one whose centre lies
// nearest the origin; the callers warn with zeroRowsWarning. A row
// holding NaN or ±Inf is kept and left out of ‖x‖_F; when the sum of the
// others overflows, only the exact zeros are cleared. Cost O(r·c).
func clearZeroRows(x *mat.Dense, tol float64) (zero int) {
	r, c := x.Dims()
	sq, total := rowSquares(x)
	t := max(tol, float64(r)*0x1p-52)
	floor := t * t * total // squared norms against (t·‖x‖_F)²
	if math.IsInf(floor, 0) {
		floor = 0
	}
	for i, s := range sq {
		if s <= floor {
			clear(x.RawRowView(i)[:c])
			zero++
		}
	}
	return zero
}

// rowSquares returns the squared norm of every row of x and their sum
// over the rows that hold no NaN or ±Inf, ‖x‖²_F of the finite rows.
// Cost O(r·c).
func rowSquares(x *mat.Dense) (sq []float64, total float64) {
	r, c := x.Dims()
	sq = make([]float64, r)
	for i := 0; i < r; i++ {
		var s float64
		for _, v := range x.RawRowView(i)[:c] {
			s += v * v
		}
		sq[i] = s
		if !math.IsNaN(s) && !math.IsInf(s, 0) {
			total += s
		}
	}
	return sq, total
}

// rowTol returns the relative accuracy of the eigenvectors that s's
// eigensolver computes for n nodes, for clearZeroRows: the iterative
// solver's relative residual tolerance (defaultEigenTol unless
// EigenSettings set one), or the dense solver's n·ε (solverResolution;
// a solver that returns more accurate vectors, the shift-and-invert
// repair or the dense pencil solve above DenseLimit, is taken at the
// iterative tolerance, which can only clear rows below it).
// Cost O(1).
func (s *Settings) rowTol(n int) float64 {
	rel, _ := solverResolution(s, n)
	return rel
}

// zeroRowsWarning is the warning of method name when normalizeRows
// (clearZeroRows) left zero of the n rows of its embedding at zero, or ""
// when zero is 0 (FGPWC's is unresolvedRowsWarning). Cost O(1).
func zeroRowsWarning(name string, zero, n int) string {
	if zero == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %s of %d %s a zero embedding row (the eigenvectors are 0 there, up to rounding: isolated nodes, or parts of the graph the embedding does not reach), so %s clustered by no information of %s own: k-means puts %s in one cluster", name, wording.Count(zero, "node", "nodes"), n, wording.Form(zero, "has", "have"), wording.Form(zero, "it is", "they are"), wording.Form(zero, "its", "their"), wording.Form(zero, "it", "them all"))
}

// columnRowNormalize scales every column of x to unit Euclidean norm and
// then every row (seed 004 Alg. 3, line 4: "X with rows and columns
// normalized"), and returns normalizeRows' count of the rows it left at
// zero (tol as there). Zero columns are left at zero. A column is scaled
// whatever its norm, however small beside the others: each is an
// eigenvector, never zero in exact arithmetic, and the scaling is meant
// to make up for the differences of their norms; it is rows that are
// numerically zero, where the eigenvectors vanish (clearZeroRows).
func columnRowNormalize(x *mat.Dense, tol float64) (zero int) {
	n, k := x.Dims()
	for j := 0; j < k; j++ {
		var s float64
		for i := 0; i < n; i++ {
			v := x.At(i, j)
			s += v * v
		}
		if s > 0 {
			s = 1 / math.Sqrt(s)
			for i := 0; i < n; i++ {
				x.Set(i, j, x.At(i, j)*s)
			}
		}
	}
	return normalizeRows(x, tol)
}
