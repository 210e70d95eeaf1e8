package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
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
// number of eigenvalues of Q̄ above α/vol (Cauchy interlacing); measured:
// 1 to 18 on the tests' graphs at AlphaFraction ≥ 0.1, 113 and 258 at
// AlphaFraction 0.02 and 0.005 (n = 420 and 1000).
//
// A graph with c > 1 connected components makes L̄ singular on n^⊥: its
// null space N₀ (dimension c − 1, spanned by Z = combinations of the
// component vectors n_j = D^{1/2}1_j/√vol_j orthogonal to n) holds
// vectors of cost 0, and (1) has λ = 0 there. We split v = r + a, r in the
// range of L̄ and a = Zy ∈ N₀. For λ ≠ 0 the N₀ rows of (1) give
// a = −Z B₀₀⁻¹ZᵀBr (B₀₀ = ZᵀBZ, c−1 × c−1), and the range rows the
// symmetric-definite pencil P_R S P_R r = μ(L̄ + Σ_j n_j n_jᵀ) r, S =
// B − BZ B₀₀⁻¹ ZᵀB the Schur complement (sparse plus rank c − 1) and P_R =
// I − Σ_j n_j n_jᵀ; the c vectors n_j are deflated (μ = 0). For a
// connected graph Z is empty and this is (2). The vectors a = Zy with y an
// eigenvector of B₀₀ of positive eigenvalue are feasible at cost 0: they
// come first. (Wang and Davidson keep λ > 0 only, which presumes a
// connected graph.) A singular B₀₀ is an error wrapping ErrNumerical, more
// than 200 components one wrapping ErrInvalid.
//
// For n ≤ DenseLimit, (2) is solved completely by the dense solver; above,
// the largest eigenpairs are computed by LOBPCG with B = M (the n_j
// deflated), which forms no n×n matrix, doubling the number K of pairs
// requested until a non-positive μ shows that all feasible vectors were
// found. The exception: a solve of K ≥ cspDenseMinK = 32 pairs on
// DenseLimit < n ≤ CSPDenseMax = 2000 nodes is made by eigen.Dense, which
// forms A and B of (2) as n×n matrices: O(n²) memory and O(n³) time. The
// doubling starts at K = max(2k, 8) + c and reaches K ≥ 32 when that is
// 32 or more, or when the solve before it (K/2 pairs) found all its
// K/2 − c non-deflated μ positive, which needs at least 16 − c feasible
// vectors (17 on a connected graph with k ≤ 4, where K goes 9, 18, 36).
// The doubling goes up to 64, or k − 1 when k is larger (a warning says
// when more feasible vectors may exist; where we compared with the dense
// solver, 113 and 258 feasible vectors on 10-NN graphs of n = 420 and
// 1000, the cheapest vector was among the 64). On a connected graph the
// number of feasible vectors is first counted exactly, as the number of
// positive eigenvalues of B on n^⊥ (Sylvester's law of inertia, through
// the small blocks of B over the components of the constraint graph), and
// the doubling starts at the step where it would have stopped, skipping
// the solves before it; the result is the same (the deciding solve is the
// same problem), except that convergence warnings of the skipped solves
// are not raised. Measured on fgpwc-table1 cells (n ≈ 850–960, 64 or
// more feasible vectors: the solves of 9, 18 and 36 pairs skipped, the
// one of 65 kept), one run each on a loaded machine: circles 12.1 → 6.0 s,
// vehicle 10.4 → 6.9 s, tic-tac-toe 10.8 → 8.8 s, xor 11.6 → 11.4 s; the
// solve of 65 pairs dominates.
// Settings.Eigen, if set, replaces both solvers.
//
// # Partition
//
// Each feasible vector is scaled to vᵀv = vol; its cost is vᵀL̄v. For k = 2
// the feasible vector of lowest cost is split by the sign of u = D^{-1/2}v
// (Wang and Davidson's Alg. 1). For k > 2 the k − 1 feasible vectors of
// lowest cost form the embedding D^{-1/2}V; its rows are scaled to unit
// length (a zero row stays zero), as seed 002 §6.1 (line 298) describes
// the FCSC setting ("the projected data are normalized to have
// unit-length"; NoRowNormalize turns it off), and clustered by k-means,
// Settings.Restarts runs (cspKMeansRestarts = 10 if 0, where seed 003
// §5.1 uses 30), keeping the run with the fewest violated constraints.
// With fewer than k − 1 feasible vectors there is no feasible K-way
// embedding and CSP returns an error wrapping ErrInvalid: seed 002 §6.1
// (lines 324–326) reports the same for every multiclass data set at the
// default α ("it does not allow to obtain a feasible solution with the
// fixed value of θ", θ a typo for α). Lowering AlphaFraction admits more
// vectors.
//
// That selection follows the K-way CSP of Wang, Qian and Davidson
// (DMKD 2012, not among the seeds: V* minimizes tr(VᵀL̄V) over k − 1 of
// the feasible eigenvectors), not the wording of seed 002 §4.3 (lines
// 206–209), which cites that paper as "selecting not only the first, but
// the top-K generalized eigenvectors corresponding to positive
// eigenvalues". We differ from that wording in three ways: k − 1 vectors,
// not k (none of them is the trivial vector D^{1/2}1, which eq. 30
// excludes); ranked by cost vᵀL̄v, not by eigenvalue (the order of
// λ = 1/μ is not that of cost: vᵀL̄v = λ(vᵀQ̄v − α), and vᵀQ̄v varies
// between vectors); and an error, not fewer vectors or infeasible ones,
// when fewer than k − 1 are feasible, a case the wording leaves open.
//
// α defaults to 0.5·λ_max(Q̄)·vol (seed 002 §6.1, line 297). Seed 001
// §5.1.2 says α is "the largest eigenvalue of the normalized matrix Q",
// i.e. AlphaFraction = 1/vol here, yet its Table 2 reports α up to 10²³:
// its scale is not ours, and we follow seed 002's explicit formula.
// λ_max(Q̄) is set by constrained nodes of small degree (Q̄_ij =
// q_ij/√(d_i d_j)): on the benchmarks' RBF 10-NN graphs λ_max(Q̄) ≈ 10.8
// while typical entries are 0.1–0.2, and the default α admits only vectors
// concentrated on a few such nodes (ARI ≈ 0.01 against the blobs in
// BenchmarkCSP1kKNN; 0.69 at AlphaFraction 0.005) — the over-weighting of
// the constraints that seed 001 §3.2 and §5.1.2 criticize. When
// α ≥ λ_max(PQ̄P)·vol no vector is feasible and CSP returns an error
// wrapping ErrInvalid that names α and λ_max(Q̄). Without any constraint
// Q̄ = 0 and the problem is ill-posed: also an error.
//
// Result: Labels, K, Eigenvalues the λ = 1/μ of the selected vectors in
// increasing cost (0 for null vectors), Embedding D^{-1/2}V (n×1 for
// k = 2; for k > 2 with unit rows unless NoRowNormalize), Objective the
// sum of their costs vᵀL̄v (the relaxed constrained cut, eq. 30),
// Iterations the k-means iterations (k > 2).
//
// A node of degree 0 is an error wrapping graph.ErrIsolated when CSP sees
// it: with Problem.Disconnected = DisconnectedStrict, or when Partition
// is called directly; Run's default attaches such nodes after clustering
// the rest (see Run). Cost: one
// extreme-eigenvalue solve of Q̄ (O(nnz(Q)) per product), then (2): O(n³)
// time and O(n²) memory for n ≤ DenseLimit and for the solves of K ≥ 32
// pairs on n ≤ 2000 nodes (eigen.Dense, see above), else LOBPCG at
// O((nnz(W) + nnz(Q) + n·c)·b + n·b²) per iteration for b vectors, its
// iteration count growing with the condition number of M, in memory
// O(nnz + n·(b + c)). A run with a dense solve allocates about 19 n×n
// float64 arrays in all, nearly all of it there: 150 MB at n = 1000
// (BenchmarkCSP1kKNN/alpha=0.005, whose solve of 65 pairs is dense), 486
// MB at n = 1800 (an audit's measure). Measured (BenchmarkCSP10kKNN, 2
// cores): n = 10⁴, 4800 pairs, 1.8 s.
type CSP struct {
	// AlphaFraction sets α = AlphaFraction·λ_max(Q̄)·vol. Values of 1 or
	// more are infeasible. If AlphaFraction is 0, 0.5 is used (seed 002
	// §6.1, line 297).
	AlphaFraction float64 `doc:"α as a fraction of λ_max(Q̄)·vol (0: 0.5)" range:"0 | (0, inf)"`
	// NoRowNormalize, for k > 2, clusters the rows of the embedding
	// D^{-1/2}V as they are. The zero value false scales each row to unit
	// length first (a zero row stays zero), as seed 002 §6.1 (line 298)
	// says of its FCSC setting. k = 2 is a sign split, which the scaling
	// would not change, so it is never applied there.
	NoRowNormalize bool `doc:"k > 2: k-means on the embedding rows as they are, not scaled to unit length (seed 002 §6.1 scales them)"`
}

// Name returns "csp".
func (CSP) Name() string { return "csp" }

// Uses declares what CSP reads from a Problem (see Run).
func (CSP) Uses() Uses {
	return Uses{Supervision: Pairs, NeedsPairs: true, MinK: 2, Core: true, Generalized: true}
}

// CSPMaxVectors caps the number of eigenpairs of (2) computed by the
// iterative path (raised to k − 1 when k is larger): LOBPCG's block
// algebra costs O(n·b²) per iteration; measured on BenchmarkCSP1kKNN at
// AlphaFraction 0.005 (258 feasible vectors), 11 s for the 64 largest.
const CSPMaxVectors = 64

// CSPDenseMax and cspDenseMinK: the doubling's generalized eigenproblems
// of K ≥ cspDenseMinK pairs on graphs of up to CSPDenseMax nodes are
// solved by eigen.Dense rather than LOBPCG. The dense reduction costs
// O(n³) time and O(n²) memory whatever K (150 MB allocated at n = 1000,
// see CSP); LOBPCG's Rayleigh–Ritz grows as n·K² per iteration.
// Measured on fgpwcBenchProblem's 10-NN graphs (the same vectors to
// rounding: equal costs to 1e-7): n = 500, K = 65: 0.24 s dense against
// 4.1 s; n = 1000, K = 65: 1.3 s against 10.2 s
// (BenchmarkCSP1kKNN/alpha=0.005); n = 2000, K = 48: 11 s against 27 s;
// but K ≤ 9 at n = 1000: 1.2–1.3 s against 0.13–0.17 s, and n = 3000,
// K = 8: 48 s against 7 s.
const (
	CSPDenseMax  = 2000
	cspDenseMinK = 32
)

// cspKMeansRestarts is the number of k-means runs of the k > 2 partition
// when Settings.Restarts is 0. Seed 003 §5.1 (line 162) repeats k-means
// 30 times for every method but COSC, keeping the run of fewest violated
// constraints, and CCSR and FGPWC default to 30 (ccsrKMeansRuns,
// fgpwcKMeansRuns); CSP keeps 10, its default since it was written,
// because changing it would change its results at k > 2. The
// reproduction of seed 003's Table 1, fgpwc-table1, passes 30 explicitly
// (experiment's fgpwcRestarts), as does noisy-constraints
// (noisyRestarts); realdata and seed002-rate use this default.
const cspKMeansRestarts = 10

// cspFeasTol is the relative tolerance of the feasibility check
// vᵀQ̄v ≥ α(1 − cspFeasTol) applied to each vector of μ > 0.
const cspFeasTol = 1e-6

// Partition partitions p.Graph into p.K clusters using p.Constraints and the
// pairs of p.Labels.
func (c CSP) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, c, p, s)
	if err != nil {
		return nil, err
	}
	frac := c.AlphaFraction
	if frac == 0 {
		frac = 0.5
	}
	if !(frac > 0) || math.IsInf(frac, 0) {
		return nil, fmt.Errorf("%w: csp: AlphaFraction = %v must be > 0", ErrInvalid, frac)
	}
	pairs, warnings, err := supervisionPairsContext(ctx, "csp", p, s, allPairs)
	if err != nil {
		return nil, err
	}
	sol, err := cspSolve(ctx, p.Graph, pairs, frac, p.K-1, s)
	if err != nil {
		return nil, cancelledIn("csp", "feasible eigenvectors (eq. 28–30)", err)
	}
	warnings = append(warnings, sol.warnings...)
	if len(sol.values) < p.K-1 {
		verb := "are"
		if len(sol.values) == 1 {
			verb = "is"
		}
		return nil, fmt.Errorf("%w: csp: k = %d needs %d feasible eigenvectors, only %d %s feasible at α = %.4g (λ_max(Q̄) = %.4g, vol = %.4g); lower AlphaFraction (seed 002 §6.1 reports FCSC infeasible for K > 2)", ErrInvalid, p.K, p.K-1, len(sol.values), verb, sol.alpha, sol.qmax, sol.vol)
	}
	m := p.K - 1
	u := mat.NewDense(p.Graph.N(), m, nil)
	u.Copy(sol.vectors.Slice(0, p.Graph.N(), 0, m))
	if p.K > 2 && !c.NoRowNormalize {
		// The rows that are numerically zero are told on V, whose
		// columns have the solver's accuracy, before D^{-1/2} scales
		// each row by its own factor (clearZeroRows; the unit rows that
		// cspKWay makes do not depend on that factor).
		clearZeroRows(u, s.rowTol(p.Graph.N()))
	}
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
	out, err := cspKWay(ctx, u, p.K, pairs, s, !c.NoRowNormalize)
	if err != nil {
		return nil, err
	}
	out.Eigenvalues, out.Objective, out.Warnings = sol.values[:m:m], obj, append(warnings, out.Warnings...)
	return out, nil
}

// cspKWay partitions the rows of the embedding u = D^{-1/2}V (n×(k−1),
// k > 2) into k clusters by k-means, keeping the run with the fewest
// violated pairs; with normalize, each row is first scaled to unit length
// in place (seed 002 §6.1, line 298), a zero row left at zero (unitRows:
// the caller has set to zero the rows of V that are numerically zero,
// clearZeroRows, before D^{-1/2} scaled them). The Result holds Labels, K,
// Embedding u, the k-means distortion as Objective, its Iterations and,
// when rows were left at zero, zeroRowsWarning as its one warning. Cost
// O(n·k) for the scaling, then k-means.
func cspKWay(ctx context.Context, u *mat.Dense, k int, pairs []constraint.Pair, s *Settings, normalize bool) (*Result, error) {
	zero := 0
	if normalize {
		zero = unitRows(u)
	}
	out, err := partition(ctx, u, k, s.derive(streamCSP), cspKMeansRestarts, violationSelect(pairs))
	if err != nil {
		return nil, cancelledIn("csp", "k-means on the feasible eigenvectors", err)
	}
	if w := zeroRowsWarning("csp", zero, u.RawMatrix().Rows); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	return out, nil
}

// cspSolution holds the feasible eigenvectors of (1), in increasing cost.
type cspSolution struct {
	values   []float64  // λ = 1/μ (0 for the null vectors of a disconnected graph)
	costs    []float64  // vᵀL̄v with vᵀv = vol
	vectors  *mat.Dense // n×len(values), vᵀv = vol, ⊥ D^{1/2}1
	alpha    float64
	qmax     float64 // λ_max(Q̄)
	vol      float64
	warnings []string
}

// cspMaxComponents bounds the number of connected components: the null
// space correction stores two n×(c−1) arrays.
const cspMaxComponents = 200

// cspSolve returns the feasible eigenvectors of (1) for α = frac·λ_max(Q̄)·vol
// (see CSP), all of them when there are fewer than CSPMaxVectors, and at
// least want of them when they exist (the iterative path stops once a
// non-positive μ shows). It returns an error wrapping ErrInvalid when none
// is feasible.
//
// The iterative path first counts the feasible vectors exactly
// (feasibleCount) and starts the doubling at its last step (cspJump), which
// saves the earlier solves without changing the result.
func cspSolve(ctx context.Context, g *graph.Graph, pairs []constraint.Pair, frac float64, want int, s *Settings) (*cspSolution, error) {
	return cspSolveCount(ctx, g, pairs, frac, want, s, true, CSPDenseMax)
}

// cspSolveCount is cspSolve; with count false the doubling starts from its
// first step, as it did before feasibleCount (the tests compare the two),
// and its solves of at least cspDenseMinK pairs are dense up to denseMax
// nodes (CSPDenseMax; the tests pass 0 to reach LOBPCG on small graphs).
func cspSolveCount(ctx context.Context, g *graph.Graph, pairs []constraint.Pair, frac float64, want int, s *Settings, count bool, denseMax int) (*cspSolution, error) {
	n := g.N()
	deg := g.Degrees()
	var vol float64
	for i, d := range deg {
		if !(d > 0) {
			return nil, fmt.Errorf("cluster: csp: %w: node %d has degree 0", graph.ErrIsolated, i)
		}
		vol += d
	}
	if math.IsInf(vol, 1) {
		return nil, fmt.Errorf("%w: csp: the volume Σd_i overflowed to %v: the graph's weights are out of floating-point range", ErrNumerical, vol)
	}
	if len(pairs) == 0 {
		return nil, noSupervision("csp: no constraints: Q̄ = 0, so FCSC has no feasible vector (λ_max(Q̄) = 0)")
	}
	i, j, ok, err := cspCancel(ctx, pairs)
	if err != nil {
		return nil, cancelledIn("csp", "check of the pairs for cancelling weights", err)
	}
	if ok {
		return nil, fmt.Errorf("%w: csp: the constraints cancel: every pair's must-link weight equals its cannot-link weight (pair (%d,%d) first), so Q = 0 and FCSC has no feasible vector; resolve the contradictions first (constraint.Resolve)", ErrInvalid, i, j)
	}
	comp, nc := g.Components()
	if nc > cspMaxComponents {
		return nil, fmt.Errorf("%w: csp: the graph has %d connected components, more than %d: cluster the components separately", ErrInvalid, nc, cspMaxComponents)
	}
	if nc >= n {
		return nil, fmt.Errorf("%w: csp: the graph has no edge between distinct nodes", ErrInvalid)
	}
	op := newCSPOps(g, pairs, deg, comp, nc)
	// λ_max(Q̄): Q̄ has a zero diagonal and a non-zero entry, so trace 0
	// makes λ_max > 0.
	qres, err := s.solve(ctx, eigen.Problem{A: &op.qbar, K: 1, Which: eigen.Largest})
	if err != nil && qres == nil {
		if errors.Is(err, ErrNumerical) {
			return nil, fmt.Errorf("cluster: csp: λ_max(Q̄), Q̄ = D^{-1/2}QD^{-1/2}: %w", err)
		}
		return nil, cancelledIn("csp", "λ_max(Q̄)", err)
	}
	if !(qres.Values[0] > 0) {
		// Q̄ has a zero diagonal, so λ_max(Q̄) ≥ max |Q̄_ij| > 0 unless
		// every entry w/√(d_i d_j) underflowed to 0.
		return nil, fmt.Errorf("%w: csp: λ_max(Q̄) = %v for %s: the entries w/√(d_i d_j) of Q̄ = D^{-1/2}QD^{-1/2} underflowed (constraint weights or degrees out of floating-point range)", ErrNumerical, qres.Values[0], wording.Count(len(pairs), "pair", "pairs"))
	}
	sol := &cspSolution{qmax: qres.Values[0], vol: vol}
	if err != nil {
		sol.warnings = append(sol.warnings, "csp: λ_max(Q̄): "+err.Error())
	}
	sol.alpha = frac * sol.qmax * vol
	if math.IsInf(sol.alpha, 0) && frac >= 1 {
		// The knob, not the data: AlphaFraction ≥ 1 admits no vector
		// anyway.
		return nil, fmt.Errorf("%w: csp: no feasible vector: α = AlphaFraction·λ_max(Q̄)·vol = %v·%v·%v overflows, and AlphaFraction ≥ 1 is infeasible in any case; lower AlphaFraction below 1", ErrInvalid, frac, sol.qmax, vol)
	}
	if math.IsInf(sol.alpha, 0) {
		return nil, fmt.Errorf("%w: csp: α = AlphaFraction·λ_max(Q̄)·vol = %v·%v·%v overflowed: the graph or constraint weights are out of floating-point range", ErrNumerical, frac, sol.qmax, vol)
	}
	op.c = sol.alpha / vol
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The null space of L̄ on n^⊥ (disconnected graphs): Z, BZ, B₀₀⁻¹ and
	// the null vectors of positive vᵀBv, feasible at cost 0.
	nullVecs, err := op.setupNull()
	if err != nil {
		return nil, err
	}
	defl := mat.NewDense(n, nc, nil)
	for i := 0; i < n; i++ {
		defl.Set(i, comp[i], op.sqc[i])
	}
	m := &cspMOp{o: op}
	a := &cspAOp{o: op}
	// Dense: all n pairs. Iterative: doubling until a μ ≤ 0 shows.
	kk := n
	iterative := s.Eigen == nil && n > DenseLimit
	limit := min(n, max(CSPMaxVectors, want)+nc)
	// skipped > 0: the solves of the doubling below with K < kk were
	// skipped, the last with K = skipped (see cspJump).
	skipped, first := 0, kk
	if iterative {
		kk = min(limit, max(2*want+2, 8)+nc)
		first = kk
		if p, ok := op.feasibleCount(); ok && count {
			kk, skipped = cspJump(kk, limit, nc, p)
		}
	}
	var res *eigen.Result
	var solveWarnings []string
	// Solves of many pairs on graphs of up to denseMax nodes are dense
	// (the same K pairs, to rounding).
	dense := *s
	dense.Eigen = eigen.Dense{}
	for {
		prob := eigen.Problem{A: a, B: m, K: kk, Which: eigen.Largest, Deflate: defl, DeflateValues: make([]float64, nc)}
		ss := s
		if iterative && n <= denseMax && kk >= cspDenseMinK {
			ss = &dense
		}
		res, err = genSolve(ctx, prob, ss)
		if err != nil && res == nil {
			if errors.Is(err, ErrNumerical) || errors.Is(err, ErrInvalid) {
				return nil, wrapMethod("csp", fmt.Errorf("the pencil of L̄ and Q̄ − α/vol·I (α = %.4g, vol = %.4g): %w", sol.alpha, vol, err))
			}
			return nil, cancelledIn("csp", fmt.Sprintf("%d eigenpairs of the pencil of L̄ and Q̄ − α/vol·I", kk), err)
		}
		if skipped > 0 {
			// The solves skipped would all have found only positive μ:
			// unless this one shows fewer than the last skipped could
			// hold (the count and the solver's sign test disagree), in
			// which case the doubling starts over.
			if cspPositive(res.Values) < skipped-nc {
				kk, skipped = first, 0
				continue
			}
			skipped = 0
		}
		if err != nil {
			solveWarnings = append(solveWarnings, "csp: "+err.Error())
		}
		// The K pairs include the nc deflated component vectors (μ = 0),
		// placed by value: all feasible vectors are found once fewer than
		// K − nc have μ > 0.
		if !iterative || cspPositive(res.Values) < kk-nc || kk >= limit {
			break
		}
		kk = min(limit, 2*kk)
	}
	sol.warnings = append(sol.warnings, solveWarnings...)
	if iterative && cspPositive(res.Values) >= kk-nc {
		sol.warnings = append(sol.warnings, fmt.Sprintf("csp: the %d largest μ = 1/λ are all positive; more feasible vectors may exist, and only these were compared by cost", kk-nc))
	}
	type cand struct {
		lam, cost float64
		v         []float64
	}
	var cs []cand
	x := mat.NewDense(n, 1, nil)
	qx := mat.NewDense(n, 1, nil)
	consider := func(lam float64) {
		nrm := mat.Norm(x, 2)
		if nrm == 0 {
			return
		}
		x.Scale(math.Sqrt(vol)/nrm, x)
		op.qbar.MulTo(qx, x)
		vq := mat.Dot(x.ColView(0), qx.ColView(0))
		if vq < sol.alpha*(1-cspFeasTol) {
			sol.warnings = append(sol.warnings, fmt.Sprintf("csp: eigenvector with λ = %.4g fails vᵀQ̄v ≥ α (%.6g < %.6g) numerically; dropped", lam, vq, sol.alpha))
			return
		}
		op.lbarMul(qx, x)
		cs = append(cs, cand{lam: lam, cost: mat.Dot(x.ColView(0), qx.ColView(0)), v: mat.Col(nil, 0, x)})
	}
	for _, y := range nullVecs {
		x.SetCol(0, y)
		consider(0)
	}
	scale := cspScale(res.Values)
	t := make([]float64, nc)
	for j, mu := range res.Values {
		if !(mu > 1e-10*scale) { // the same test as cspPositive
			continue
		}
		x.Copy(res.Vectors.Slice(0, n, j, j+1))
		op.projectOut(x, t) // rounding: exactly ⊥ every n_c in theory
		op.addNull(x)
		consider(1 / mu)
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("%w: csp: no feasible vector: the pencil L̄v = λ(Q̄ − α/vol·I)v has no positive λ at α = %.4g (AlphaFraction %.3g of λ_max(Q̄)·vol, λ_max(Q̄) = %.4g, vol = %.4g); lower AlphaFraction", ErrInvalid, sol.alpha, frac, sol.qmax, vol)
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].cost < cs[b].cost })
	sol.vectors = mat.NewDense(n, len(cs), nil)
	for j, c := range cs {
		sol.vectors.SetCol(j, c.v)
		sol.values = append(sol.values, c.lam)
		sol.costs = append(sol.costs, c.cost)
	}
	return sol, nil
}

// cspJump returns the number of pairs K of the last solve of cspSolve's
// doubling (K₀ = first, K ← min(limit, 2K) while all K − nc non-deflated
// μ are positive) when p of them are: the first K of the sequence with
// p < K − nc, or limit. prev is the K before it (0 if none), the last solve
// skipped. Starting there, the solve that decides is the same problem as
// the doubling's last, so the result is the same, without the earlier
// solves.
func cspJump(first, limit, nc, p int) (kk, prev int) {
	kk = first
	for p >= kk-nc && kk < limit {
		prev, kk = kk, min(limit, 2*kk)
	}
	return kk, prev
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

// cspOps holds what the operators of (2) share: the graph, D^{-1/2}, the
// normalized component vectors n_c = D^{1/2}1_c/√vol_c, Q̄ in sparse form,
// c = α/vol, and for a disconnected graph the null-space correction.
type cspOps struct {
	g    *graph.Graph
	dis  []float64 // D^{-1/2}
	comp []int     // component of each node
	nc   int       // number of components
	sqc  []float64 // n_c(i) = √(d_i/vol_c), c = comp[i]
	qbar cspQbar
	c    float64
	// nc > 1: Z (n×(nc−1)), an orthonormal basis of span{n_c} ∩ n^⊥ (the
	// null space of L̄ on n^⊥), BZ = (Q̄ − cI)Z and binv = (ZᵀBZ)⁻¹.
	z, bz, binv *mat.Dense
}

func newCSPOps(g *graph.Graph, pairs []constraint.Pair, deg []float64, comp []int, nc int) *cspOps {
	n := g.N()
	o := &cspOps{g: g, dis: make([]float64, n), comp: comp, nc: nc, sqc: make([]float64, n)}
	volc := make([]float64, nc)
	for i, d := range deg {
		o.dis[i] = 1 / math.Sqrt(d)
		volc[comp[i]] += d
	}
	for i, d := range deg {
		o.sqc[i] = math.Sqrt(d / volc[comp[i]])
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

// setupNull prepares the null-space correction of a disconnected graph and
// returns the null vectors v = Zy (y an eigenvector of B₀₀ = ZᵀBZ of
// positive eigenvalue), which satisfy vᵀQ̄v > α·vᵀv/vol at cost vᵀL̄v = 0.
// It returns an error wrapping ErrNumerical when B₀₀ is singular. Cost
// O(n·nc² + nnz(Q)·nc + nc³).
func (o *cspOps) setupNull() ([][]float64, error) {
	if o.nc == 1 {
		return nil, nil
	}
	n, nc := len(o.dis), o.nc
	// Householder H = I − 2wwᵀ maps s = (√(vol_c/vol))_c to e₁; its
	// columns 2…nc span s^⊥, and Z = [n_1 … n_nc]·H[:, 1:].
	sv := make([]float64, nc)
	var vol float64
	for i, di := range o.dis {
		d := 1 / (di * di)
		sv[o.comp[i]] += d
		vol += d
	}
	for c := range sv {
		sv[c] = math.Sqrt(sv[c] / vol)
	}
	w := append([]float64(nil), sv...)
	w[0] -= 1
	wn := floatsNorm(w)
	h := mat.NewDense(nc, nc-1, nil)
	for a := 0; a < nc; a++ {
		for b := 1; b < nc; b++ {
			v := -2 * w[a] * w[b] / (wn * wn)
			if a == b {
				v++
			}
			h.Set(a, b-1, v)
		}
	}
	o.z = mat.NewDense(n, nc-1, nil)
	for i := 0; i < n; i++ {
		row := o.z.RawRowView(i)
		hr := h.RawRowView(o.comp[i])
		for j := range row {
			row[j] = o.sqc[i] * hr[j]
		}
	}
	o.bz = mat.NewDense(n, nc-1, nil)
	o.qbar.MulTo(o.bz, o.z)
	o.bz.Add(o.bz, scaleBy(mat.DenseCopyOf(o.z), -o.c))
	b00 := mat.NewSymDense(nc-1, nil)
	{
		var t mat.Dense
		t.Mul(o.z.T(), o.bz)
		for a := 0; a < nc-1; a++ {
			for b := a; b < nc-1; b++ {
				b00.SetSym(a, b, (t.At(a, b)+t.At(b, a))/2)
			}
		}
	}
	var es mat.EigenSym
	if !es.Factorize(b00, true) {
		return nil, fmt.Errorf("%w: csp: eigendecomposition of ZᵀBZ failed", ErrNumerical)
	}
	beta := es.Values(nil)
	var y mat.Dense
	es.VectorsTo(&y)
	bmax := math.Max(math.Abs(beta[0]), math.Abs(beta[len(beta)-1]))
	o.binv = mat.NewDense(nc-1, nc-1, nil)
	var null [][]float64
	for j, b := range beta {
		if math.Abs(b) <= 1e-12*math.Max(bmax, o.c) {
			return nil, fmt.Errorf("%w: csp: Q̄ − α/vol·I is singular on the null space of L̄ (eigenvalue %.3g): a combination of component indicators has vᵀQ̄v = α exactly; change AlphaFraction", ErrNumerical, b)
		}
		yj := mat.Col(nil, j, &y)
		for a := range yj {
			for c := range yj {
				o.binv.Set(a, c, o.binv.At(a, c)+yj[a]*yj[c]/b)
			}
		}
		if b > 0 {
			v := make([]float64, n)
			for i := 0; i < n; i++ {
				v[i] = floats.Dot(o.z.RawRowView(i), yj)
			}
			null = append(null, v)
		}
	}
	return null, nil
}

// addNull sets x ← x − Z B₀₀⁻¹ (BZ)ᵀx: an eigenvector r of the reduced
// pencil (range of L̄) to the eigenvector r + a of (1). Cost O(n·nc).
func (o *cspOps) addNull(x *mat.Dense) {
	if o.z == nil {
		return
	}
	var t, u, corr mat.Dense
	t.Mul(o.bz.T(), x)
	u.Mul(o.binv, &t)
	corr.Mul(o.z, &u)
	x.Sub(x, &corr)
}

func floatsNorm(v []float64) float64 { return math.Sqrt(floats.Dot(v, v)) }

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

// componentDots sets t[c·p + col] = n_cᵀ x (column col).
func (o *cspOps) componentDots(x *mat.Dense, t []float64) {
	n, p := x.Dims()
	clear(t)
	for i := 0; i < n; i++ {
		tc := t[o.comp[i]*p : o.comp[i]*p+p]
		for c, v := range x.RawRowView(i) {
			tc[c] += o.sqc[i] * v
		}
	}
}

// addComponents sets x ← x + f·Σ_c n_c t_c.
func (o *cspOps) addComponents(x *mat.Dense, t []float64, f float64) {
	n, p := x.Dims()
	for i := 0; i < n; i++ {
		tc := t[o.comp[i]*p : o.comp[i]*p+p]
		row := x.RawRowView(i)
		for c := range row {
			row[c] += f * tc[c] * o.sqc[i]
		}
	}
}

// projectOut sets x ← (I − Σ_c n_c n_cᵀ)x, the projection onto the range
// of L̄; t is workspace of length nc·p.
func (o *cspOps) projectOut(x *mat.Dense, t []float64) {
	_, p := x.Dims()
	if len(t) < o.nc*p {
		t = make([]float64, o.nc*p)
	}
	t = t[:o.nc*p]
	o.componentDots(x, t)
	o.addComponents(x, t, -1)
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

// cspMOp is M = L̄ + Σ_c n_c n_cᵀ of (2), positive definite (on a
// connected graph Σ_c n_c n_cᵀ = nnᵀ).
type cspMOp struct{ o *cspOps }

// Dim returns n.
func (m *cspMOp) Dim() int { return len(m.o.dis) }

// MulTo sets dst = (L̄ + Σ_c n_c n_cᵀ)x. Cost O(nnz(W)·p + n·p).
func (m *cspMOp) MulTo(dst, x *mat.Dense) {
	m.o.lbarMul(dst, x)
	_, p := x.Dims()
	t := make([]float64, m.o.nc*p)
	m.o.componentDots(x, t)
	m.o.addComponents(dst, t, 1)
}

// cspAOp is A = P_R S P_R of (2): P_R = I − Σ_c n_c n_cᵀ and S = B − BZ
// B₀₀⁻¹ (BZ)ᵀ the Schur complement of B onto the range of L̄ (S = B on a
// connected graph).
type cspAOp struct{ o *cspOps }

// Dim returns n.
func (a *cspAOp) Dim() int { return len(a.o.dis) }

// MulTo sets dst = P_R S P_R x. Cost O(nnz(Q)·p + n·nc·p).
func (a *cspAOp) MulTo(dst, x *mat.Dense) {
	n, p := x.Dims()
	o := a.o
	y := mat.NewDense(n, p, nil)
	y.Copy(x)
	t := make([]float64, o.nc*p)
	o.projectOut(y, t)
	var corr mat.Dense
	if o.z != nil {
		var u, v mat.Dense
		u.Mul(o.bz.T(), y)
		v.Mul(o.binv, &u)
		corr.Mul(o.bz, &v)
	}
	o.qbar.MulTo(dst, y)
	dst.Add(dst, scaleBy(y, -o.c))
	if o.z != nil {
		dst.Sub(dst, &corr)
	}
	o.projectOut(dst, t)
}

// cspInertiaBudget bounds Σ s³ over the components of the constraint graph
// (s their sizes) for which feasibleCount runs dense eigendecompositions:
// beyond it (one component of ~600 constrained nodes) the count is skipped.
const cspInertiaBudget = 2e8

// feasibleCount returns the number of positive eigenvalues of B = Q̄ − cI
// restricted to n^⊥ (n = D^{1/2}1/√vol), which by Sylvester's law of
// inertia is the number of positive μ of (2), the feasible vectors, on a
// connected graph. ok is false when the count is not computed (a
// disconnected graph, a constraint component too large for the budget) or
// not reliable (B, or B on n^⊥, nearly singular).
//
// B is block diagonal over the connected components C of the constraint
// graph (−c on each unconstrained node), so its inertia is the sum of the
// blocks' and nᵀB⁻¹n = Σ_C Σ_j (y_jᵀn_C)²/β_j − Σ_{i unconstrained} n_i²/c
// from the blocks' eigenpairs (β_j, y_j). The bordered matrix
// K = [B n; nᵀ 0] has, by Haynsworth's inertia additivity through B,
// In(K) = In(B) + In(−nᵀB⁻¹n), and through the constraint, In(K) =
// In(B|n^⊥) + (1, 1, 0); hence
//
//	#pos(B|n^⊥) = #pos(B) − 1 + [nᵀB⁻¹n < 0].
//
// Cost O(nnz(Q) + Σ_C s_C³), no n×n matrix.
func (o *cspOps) feasibleCount() (count int, ok bool) {
	if o.nc != 1 {
		return 0, false
	}
	m := o.qbar.m
	n := m.n
	// Components of the constraint graph, by depth-first search.
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	var stack []int
	var members [][]int
	var budget float64
	for i := 0; i < n; i++ {
		if comp[i] >= 0 || m.ptr[i] == m.ptr[i+1] {
			continue
		}
		c := len(members)
		var mem []int
		comp[i] = c
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			mem = append(mem, u)
			for t := m.ptr[u]; t < m.ptr[u+1]; t++ {
				if v := m.idx[t]; comp[v] < 0 {
					comp[v] = c
					stack = append(stack, v)
				}
			}
		}
		members = append(members, mem)
		s := float64(len(mem))
		if budget += s * s * s; budget > cspInertiaBudget {
			return 0, false
		}
	}
	// The scale below which an eigenvalue of B counts as zero.
	var bmax float64
	for _, w := range m.w {
		bmax = math.Max(bmax, math.Abs(w))
	}
	tiny := 1e-9 * (bmax + o.c)
	var quad, quadAbs float64 // nᵀB⁻¹n and Σ of its terms' magnitudes
	pos := 0
	local := make([]int, n)
	var es mat.EigenSym
	var y mat.Dense
	for _, mem := range members {
		s := len(mem)
		for a, i := range mem {
			local[i] = a
		}
		bc := mat.NewSymDense(s, nil)
		for a, i := range mem {
			bc.SetSym(a, a, -o.c)
			for t := m.ptr[i]; t < m.ptr[i+1]; t++ {
				if b := local[m.idx[t]]; b >= a {
					bc.SetSym(a, b, bc.At(a, b)+m.w[t])
				}
			}
		}
		if !es.Factorize(bc, true) {
			return 0, false
		}
		y.Reset()
		es.VectorsTo(&y)
		for j, beta := range es.Values(nil) {
			if math.Abs(beta) <= tiny {
				return 0, false
			}
			if beta > 0 {
				pos++
			}
			var yn float64
			for a, i := range mem {
				yn += y.At(a, j) * o.sqc[i]
			}
			quad += yn * yn / beta
			quadAbs += yn * yn / math.Abs(beta)
		}
	}
	for i := 0; i < n; i++ {
		if comp[i] < 0 {
			quad -= o.sqc[i] * o.sqc[i] / o.c
			quadAbs += o.sqc[i] * o.sqc[i] / o.c
		}
	}
	if math.Abs(quad) <= 1e-9*quadAbs {
		return 0, false
	}
	count = pos - 1
	if quad < 0 {
		count++
	}
	return count, true
}

// cspCancel reports whether the signed weights of pairs (+w for a
// must-link, −w for a cannot-link) sum to exactly 0 on every unordered
// node pair, Q = 0, and returns the first pair then. A set without both
// kinds returns at once after one pass; otherwise the sums take a map of
// the distinct pairs. ctx is checked every cspCancelPoll pairs (its error
// then). Cost O(#pairs).
func cspCancel(ctx context.Context, pairs []constraint.Pair) (i, j int, ok bool, err error) {
	var ml, cl bool
	for t, q := range pairs {
		if t%cspCancelPoll == cspCancelPoll-1 {
			if err := ctx.Err(); err != nil {
				return 0, 0, false, err
			}
		}
		if q.Kind == constraint.CannotLink {
			cl = true
		} else {
			ml = true
		}
		if ml && cl {
			break
		}
	}
	if !ml || !cl {
		return 0, 0, false, nil
	}
	sum := map[[2]int]float64{}
	for t, q := range pairs {
		if t%cspCancelPoll == cspCancelPoll-1 {
			if err := ctx.Err(); err != nil {
				return 0, 0, false, err
			}
		}
		a, b := q.I, q.J
		if a > b {
			a, b = b, a
		}
		v := q.W()
		if q.Kind == constraint.CannotLink {
			v = -v
		}
		sum[[2]int{a, b}] += v
	}
	for _, v := range sum {
		if v != 0 {
			return 0, 0, false, nil
		}
	}
	return pairs[0].I, pairs[0].J, true, nil
}

// cspCancelPoll is how many pairs cspCancel handles between checks of its
// context.
const cspCancelPoll = 1 << 16
