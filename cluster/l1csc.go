package cluster

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// L1CSC is constrained spectral clustering with an ℓ1 penalty on the
// constraint violations (Kawale and Boley, SDM 2013; seed 001 §4, Alg. 1,
// eq. 4.8–4.10). Each constraint is a row of C: a must-link (i, j) is
// (… −1 at i … +1 at j …), a cannot-link (… +1 at i … +1 at j …), so that
// (Cx)_r = 0 when x puts i and j on the same side (must-link) or on
// opposite sides with equal magnitude (cannot-link). A constraint of
// weight w ≠ 1 (constraint.Pair.Weight) has its row scaled by w. The
// method minimizes (eq. 4.9, p = 1)
//
//	J(x) = ½ xᵀLx + λ‖Cx‖₁  s.t.  dᵀx = 0,  xᵀDx = 1,
//
// L = D − W, d = D·1 (Cut = L1CSCNcut, the relaxed normalized cut of
// eq. 4.8), or D = I, d = 1 (Cut = L1CSCNodeCut, the node cut). From a
// start x⁰ (dᵀx⁰ = 0, x⁰ᵀDx⁰ = 1), Alg. 1 repeats: solve the convex
// subproblem (eq. 4.10)
//
//	min ½ x̂ᵀLx̂ + μ‖x̂ − x‖²_D + λ‖ẑ‖₁  s.t.  dᵀx̂ = 0,  Cx̂ = ẑ,  xᵀDx̂ = 1,
//
// then x ← x̂/γ, γ = ‖x̂‖_D. By the Theorem of §4.3 each step is a descent
// step of J as long as the subproblem's value at x̂ is below its value at
// the feasible start x̂ = x; Alg. 1 accepts a step only then (and only if
// the recomputed J decreases), so J is non-increasing. It stops after
// MaxIter steps, when J decreases by less than OuterTol·J, or when the
// subproblem no longer improves on its start.
//
// Alg. 1 is a local descent on a non-convex problem, and the paper leaves
// x⁰ open. L1CSC runs it from Starts spectral starts, the generalized
// eigenvectors 2, 3, … of L x = σ D x (the unconstrained solution first;
// Lanczos or the dense solver of Settings, centred and D-normalized), and
// keeps the final x of least J. One start is not enough when the
// constraints ask for another cut than the graph's: from the Fiedler
// vector the ℓ1 penalty shrinks the violated pairs towards
// x_i = x_j = 0, which zeroes both a must-link row (−1, +1) and a
// cannot-link row (+1, +1), and Alg. 1 stalls there with the constrained
// nodes at 0 (TestL1CSCFollowsConstraints: four cliques, λ = 1: J 0.46 from
// the Fiedler vector, 0.11 from the third eigenvector, which the
// constraints ask for).
//
// # The subproblem
//
// The subproblem is solved by ADMM (Boyd et al. 2011, §3) on the splitting
// f(x̂) + g(ẑ) with Cx̂ − ẑ = 0, f the quadratic with the two linear
// equalities as a hard domain, g = λ‖·‖₁. In scaled form with penalty ρ:
//
//	x̂ ← argmin_{Ax̂=b} ½x̂ᵀLx̂ + μ‖x̂ − x‖²_D + ρ/2‖Cx̂ − ẑ + u‖²,
//	ẑ ← soft(Cx̂ + u, λ/ρ),  u ← u + Cx̂ − ẑ,
//
// A = [dᵀ; (Dx)ᵀ], b = (0, 1). The x̂-update is the KKT system of H =
// L + 2μD + ρCᵀC (positive definite: 2μD is) with the two rows of A:
// x̂ = y − H⁻¹Aᵀν, y = H⁻¹(2μDx + ρCᵀ(ẑ − u)), ν the solution of the 2×2
// system (A H⁻¹Aᵀ)ν = Ay − b. H⁻¹d and H⁻¹Dx are solved once per outer
// step (and when ρ changes), H⁻¹ρCᵀ(ẑ − u) once per ADMM iteration. H is
// fixed while ρ is, so when it is at least a quarter full and n ≤ 2000
// (the full RBF graphs of the UCI reproductions) the solves use its
// dense Cholesky factor (n³/3 flops when ρ changes, 2n² per solve, 8n²
// bytes), exact to rounding; on wdbc's noisy-constraints
// cells (n = 569, 1400 constraints) that is 8× faster than the conjugate
// gradients, which needed 8 products with H per solve
// (BenchmarkL1CSCWDBCDense); with 5·10⁴ constraints on the same graph
// (seed001-tables2-3, 80% of the labels known) about 2.4×, the O(p) products
// with C and Cᵀ and a new factor at each change of ρ (about 100 a run)
// then weighing as much as the solves. Otherwise nothing n×n is formed: the solves
// are preconditioned conjugate gradients on the sparse operator H
// (relative residual RelTol/10, tightened with ADMM's tolerances below,
// warm-started from the previous solution),
// and the preconditioner keeps H's diagonal and the
// couplings of the constraints of a spanning forest of the constraint
// graph, factored exactly in O(n): once ρ has grown, ρCᵀC
// dominates H, and Jacobi alone needed thousands of iterations per solve
// at n = 10⁵ with 5·10⁴ constraints. ADMM stops when the primal and dual
// residuals r = ‖Cx̂ − ẑ‖ and s = ρ‖Cᵀ(ẑ − ẑ_prev)‖ satisfy Boyd's eq. 3.12
//
//	r ≤ √p·AbsTol·σ + RelTol·max(‖Cx̂‖, ‖ẑ‖),  s ≤ √n·AbsTol·σρ + RelTol·ρ‖Cᵀu‖,
//
// (p constraints, σ = 1/√(Σ_i D_ii) the entry scale of a unit vector x),
// or after MaxInner iterations. ρ starts at the mean degree and is
// balanced (doubled or halved when one residual, relative to its scale in
// eq. 3.12, exceeds ten times the other and its own tolerance; Boyd
// §3.4.1) during the first 200 iterations of a subproblem, up to 10⁴
// times its start. The final x̂ is projected exactly onto Ax̂ = b (Euclidean, O(n)). When it
// does not improve on x̂ = x, ADMM resumes with tolerances ten times
// tighter, twice at most. ẑ and u are warm-started across outer steps
// (ẑ/γ, as step 5 of Alg. 1 does). Cost per ADMM iteration:
// O(nnz + p) times (1 + the conjugate-gradient iterations), or O(n² + p)
// with the dense factor; per outer step
// that times the ADMM iterations (most of them in the first outer step:
// 100–500, then a few); per bisection that times the outer steps and
// Starts, plus one eigenproblem for Starts + 1 vectors; memory
// O(nnz + n + p) besides the eigensolver's, plus n² floats with the dense
// factor.
//
// # Clusters
//
// Two clusters: the sign of the final x (x_i > 0 on one side). k > 2: the
// hierarchical scheme that §6 of the paper proposes, run greedily (the
// paper leaves open which cluster to split): every cluster S is bisected
// by Alg. 1 on its induced subgraph, with the constraints having both
// nodes in S, and with D the degrees in the whole graph (so that, for the
// Ncut variant, the relaxed objective is the one of the k-way normalized
// cut's terms cut(A, V∖A)/vol(A), and a node without neighbours in S keeps
// a positive weight); the cluster whose split increases the k-way cut
// Σ_c cut(C_c, V∖C_c)/vol(C_c) (node cut: /|C_c|) of the whole graph
// least is split, until k clusters (bisection.go).
//
// For k > 2 the bisections use the must-links only. A cannot-link asks
// for different final clusters, not for different halves at every split,
// and its row (+1, +1) asks x_i = −x_j: with three classes no 2-way vector
// satisfies the cannot-links between all of them, and the penalty then
// cuts through classes. Measured on three overlapping blobs (n = 300,
// 150 random pairs, TestL1CSCKWay): ARI 0.89 with must-links only, 0.42
// with every constraint in every bisection (NJW without constraints:
// 0.79). Cannot-links are then never enforced for k > 2.
//
// Without constraints L1CSC is the unconstrained spectral bisection (the
// sign of the Fiedler vector, recursively), with a warning. Contradictory
// or noisy constraints are not an error: the ℓ1 penalty lets a few of
// them be violated (the paper's motivation). For the Ncut variant a node
// of degree 0 makes D singular: an error wrapping ErrInvalid names it (the
// node-cut variant accepts it). The node cut's relaxation (the Fiedler
// vector of L) tends to split weakly attached groups off k-NN graphs
// (ARI ≈ 0.05 on the blobs of TestL1CSCSatisfiesConstraints, against 0.93
// for the normalized cut): prefer the default. A node of degree below
// 10⁻¹² of the mean (an RBF outlier) leaves its entry of x almost free in
// the D-norm, and a warning says so; its entry of each start is repaired
// (replaced by the weighted mean of its neighbours' entries), without
// which the eigensolver's error, amplified by D_ii^{-1/2}, dominates J and
// the ADMM tolerances (the graph of BenchmarkL1CSC10kKNN, before the
// benchmark joins its outliers to their nearest points, has a node of
// degree 2·10⁻³⁵: ARI 0.002 and J 10⁷ without the repair).
//
// Result: Labels; for k = 2 Objective is J of the final x and Embedding
// the n×1 matrix of x; for k > 2 Objective is the k-way cut above and
// Embedding is nil. Iterations counts the outer steps of Alg. 1 over all
// starts and bisections.
type L1CSC struct {
	// Lambda is λ of eq. 4.9, the weight of ‖Cx‖₁. If Lambda is 0, 1 is
	// used; the paper selects λ in [0.1, 10]. Larger λ enforces more
	// constraints.
	Lambda float64 `doc:"weight λ of the ℓ1 penalty ‖Cx‖₁, eq. 4.9 (0: 1; the paper uses [0.1, 10])" range:"0 | [1e-12, 1e6]"`
	// Mu is the damping μ of the subproblem (eq. 4.10). If Mu is 0, 1 is
	// used, the paper's value.
	Mu float64 `doc:"damping μ of the subproblem, eq. 4.10 (0: 1)" range:"0 | [1e-6, 1e6]"`
	// Cut selects the normalized cut (D-weighted, the zero value) or the
	// node cut (D = I).
	Cut L1CSCCut `doc:"relaxed cut: ncut (D-weighted, eq. 4.8) or node (D = I)"`
	// Starts is the number of starting vectors of Alg. 1 per bisection:
	// the generalized eigenvectors 2, …, Starts+1 of L x = σ D x; the
	// final vector of least J is kept. If Starts is 0, 3 are used.
	Starts int `doc:"starts of Alg. 1 per bisection: generalized eigenvectors 2…Starts+1, least J kept (0: 3)" range:"[0, 100]"`
	// MaxIter caps the outer steps of Alg. 1 per bisection. If MaxIter is
	// 0, 100 are used.
	MaxIter int `doc:"outer steps of Alg. 1 per bisection (0: 100)" range:"[0, 1e6]"`
	// OuterTol is the relative decrease of J below which Alg. 1 stops. If
	// OuterTol is 0, 1e-4 is used.
	OuterTol float64 `doc:"relative decrease of J at which Alg. 1 stops (0: 1e-4)" range:"0 | [1e-15, 0.5]"`
	// MaxInner caps the ADMM iterations of one subproblem. If MaxInner is
	// 0, 1000 are used.
	MaxInner int `doc:"ADMM iterations per subproblem (0: 1000)" range:"[0, 1e7]"`
	// AbsTol is the absolute tolerance of the ADMM residuals, relative to
	// the entry scale of a unit vector. If AbsTol is 0, 1e-7 is used.
	AbsTol float64 `doc:"absolute ADMM residual tolerance, in units of 1/√(Σ D_ii) (0: 1e-7)" range:"0 | [1e-15, 1]"`
	// RelTol is the relative tolerance of the ADMM residuals. If RelTol is
	// 0, 1e-5 is used.
	RelTol float64 `doc:"relative ADMM residual tolerance (0: 1e-5)" range:"0 | [1e-15, 1]"`

	// jacobi selects the Jacobi preconditioner instead of forestPrec
	// (unexported: for the benchmarks that compare the two).
	jacobi bool
	// solver forces the linear solver of the x̂-update (unexported: for
	// the tests and benchmarks that compare them).
	solver l1Solver
}

// L1CSCCut selects the cut of L1CSC's relaxation (seed 001 eq. 4.8).
type L1CSCCut int

const (
	// L1CSCNcut: the normalized (edge) cut, L x = σ D x, constraints
	// dᵀx = 0 and xᵀDx = 1.
	L1CSCNcut L1CSCCut = iota
	// L1CSCNodeCut: the node cut, D and d replaced by I and 1.
	L1CSCNodeCut
)

// l1cscCutNames are the names of the L1CSCCut values, in order.
var l1cscCutNames = []string{"ncut", "node"}

// String returns "ncut" or "node".
func (c L1CSCCut) String() string { return enum.String("L1CSCCut", l1cscCutNames, c) }

// MarshalText returns the name of c.
func (c L1CSCCut) MarshalText() ([]byte, error) { return enum.Marshal("cut", l1cscCutNames, c) }

// UnmarshalText sets c from its name ("ncut" or "node"), as a
// command-line value (tether cluster -set Cut=…) and in JSON.
func (c *L1CSCCut) UnmarshalText(b []byte) error { return parseEnum(c, "cut", l1cscCutNames, b) }

// Name returns "l1csc".
func (L1CSC) Name() string { return "l1csc" }

// Uses declares what L1CSC reads from a Problem (see Run). It declares
// NoKEigensolve: each bisection solves for Starts + 1 generalized
// eigenvectors (its spectral starts), a number set by the knob Starts
// (at most 101), not by k.
func (L1CSC) Uses() Uses {
	return Uses{Supervision: Pairs, MinK: 2, Core: true, NoKEigensolve: true,
		WeightScale: "the penalty λ‖Cx‖₁ does not scale as the cut xᵀLx does (seed 001 eq. 4.8)"}
}

const (
	l1cscCGMax       = 2000 // their iteration cap
	l1cscRhoMax      = 1e4  // cap of the balanced ρ, times its start
	l1cscBalance     = 200  // ADMM iterations during which ρ is balanced
	l1cscTightenings = 2    // tolerance tightenings when a subproblem does not descend
)

// l1Config holds L1CSC's knobs with defaults applied.
type l1Config struct {
	lambda, mu      float64
	node            bool
	starts, maxIter int
	outerTol        float64
	maxInner        int
	absTol, relTol  float64
	// jacobi selects the Jacobi preconditioner instead of forestPrec
	// (tests and benchmarks compare the two).
	jacobi bool
	// solver chooses the x̂-update's linear solver (tests and benchmarks
	// compare them); the zero value chooses by size (l1UseDense).
	solver l1Solver
}

// l1Solver selects the linear solver of the ADMM x̂-update.
type l1Solver int

const (
	l1SolveAuto l1Solver = iota // l1UseDense decides
	l1SolveCG                   // preconditioned conjugate gradients
	l1SolveChol                 // dense Cholesky (l1Chol)
)

func (c L1CSC) config() (l1Config, error) {
	cfg := l1Config{lambda: c.Lambda, mu: c.Mu, node: c.Cut == L1CSCNodeCut, maxIter: c.MaxIter, outerTol: c.OuterTol, maxInner: c.MaxInner, absTol: c.AbsTol, relTol: c.RelTol, jacobi: c.jacobi, solver: c.solver}
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&cfg.lambda, 1)
	def(&cfg.mu, 1)
	def(&cfg.outerTol, 1e-4)
	def(&cfg.absTol, 1e-7)
	def(&cfg.relTol, 1e-5)
	if cfg.maxIter == 0 {
		cfg.maxIter = 100
	}
	cfg.starts = c.Starts
	if cfg.starts == 0 {
		cfg.starts = 3
	}
	if cfg.maxInner == 0 {
		cfg.maxInner = 1000
	}
	switch {
	case c.Cut != L1CSCNcut && c.Cut != L1CSCNodeCut:
		return cfg, fmt.Errorf("%w: l1csc: unknown Cut %d", ErrInvalid, int(c.Cut))
	case !(cfg.lambda > 0) || math.IsInf(cfg.lambda, 1):
		return cfg, fmt.Errorf("%w: l1csc: Lambda = %v, want > 0", ErrInvalid, c.Lambda)
	case !(cfg.mu > 0) || math.IsInf(cfg.mu, 1):
		return cfg, fmt.Errorf("%w: l1csc: Mu = %v, want > 0", ErrInvalid, c.Mu)
	case cfg.starts < 0 || cfg.maxIter < 0 || cfg.maxInner < 0:
		return cfg, fmt.Errorf("%w: l1csc: Starts = %d, MaxIter = %d and MaxInner = %d, want ≥ 0", ErrInvalid, c.Starts, c.MaxIter, c.MaxInner)
	case !(cfg.outerTol > 0 && cfg.outerTol < 1):
		return cfg, fmt.Errorf("%w: l1csc: OuterTol = %v, want in (0, 1)", ErrInvalid, c.OuterTol)
	case !(cfg.absTol > 0 && cfg.absTol <= 1) || !(cfg.relTol > 0 && cfg.relTol <= 1):
		return cfg, fmt.Errorf("%w: l1csc: AbsTol = %v and RelTol = %v, want in (0, 1]", ErrInvalid, c.AbsTol, c.RelTol)
	}
	return cfg, nil
}

// Partition partitions p.Graph into p.K clusters using p.Constraints and the
// pairs of p.Labels.
func (c L1CSC) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, c, p, s)
	if err != nil {
		return nil, err
	}
	cfg, err := c.config()
	if err != nil {
		return nil, err
	}
	pairs, warnings, err := supervisionPairsContext(ctx, "l1csc", p, s, allPairs)
	if err != nil {
		return nil, err
	}
	g := p.Graph
	n := g.N()
	if !(g.Volume() > 0) {
		return nil, fmt.Errorf("%w: %w: l1csc: the graph has no edge, so node 0 and every other node has degree 0: add self loops %s or drop the nodes of degree 0", ErrInvalid, graph.ErrIsolated, s.selfLoops())
	}
	if iso := g.Isolated(); len(iso) > 0 && !cfg.node {
		return nil, fmt.Errorf("%w: %w: l1csc: node %d has degree 0 (%s): D is singular for the normalized cut; add self loops %s, drop the nodes of degree 0, or use Cut = node", ErrInvalid, graph.ErrIsolated, iso[0], wording.Count(len(iso), "such node", "such nodes"), s.selfLoops())
	}
	if !cfg.node {
		lo := 0
		for i := 1; i < n; i++ {
			if g.Degree(i) < g.Degree(lo) {
				lo = i
			}
		}
		if g.Degree(lo) < 1e-12*g.Volume()/float64(n) {
			warnings = append(warnings, fmt.Sprintf("l1csc: node %d has degree %.3g, below 10⁻¹² of the mean: its entry of x is ill-determined in the D-norm (eq. 4.8), and J may be dominated by its constraints", lo, g.Degree(lo)))
		}
	}
	bpairs := pairs
	if p.K > 2 {
		bpairs = mustLinks(pairs)
	}
	b := &l1Bisector{g: g, pairs: bpairs, cfg: cfg, s: s.derive(streamL1CSC)}
	labels, got, err := recursiveBisection(ctx, "l1csc", n, p.K, b.split)
	switch {
	case err != nil:
		return nil, err
	case labels == nil:
		return nil, fmt.Errorf("%w: l1csc: only %s could be split for k = %d (clusters of one node)", ErrInvalid, wording.Count(got, "cluster", "clusters"), p.K)
	}
	if b.unconverged > 0 {
		warnings = append(warnings, fmt.Sprintf("l1csc: %d of %d subproblems reached MaxInner = %d ADMM iterations before the residual tolerances (their descent was checked)", b.unconverged, b.subproblems, cfg.maxInner))
	}
	if b.capped > 0 {
		warnings = append(warnings, fmt.Sprintf("l1csc: %d bisections reached MaxIter = %d outer steps", b.capped, cfg.maxIter))
	}
	res := &Result{Labels: labels, K: p.K, Iterations: b.iters, Warnings: append(warnings, b.warnings...)}
	if p.K == 2 {
		res.Objective = b.first.objective
		res.Embedding = mat.NewDense(n, 1, b.first.x)
	} else {
		res.Objective = kwayCut(g, labels, p.K, !cfg.node)
	}
	return res, nil
}

// kwayCut returns Σ_c cut(C_c, V∖C_c)/vol(C_c) (byVolume) or
// Σ_c cut(C_c, V∖C_c)/|C_c|; empty or zero-volume clusters add 0. O(nnz).
func kwayCut(g *graph.Graph, labels []int, k int, byVolume bool) float64 {
	if byVolume {
		return kwayNcut(g, labels, k)
	}
	cut := make([]float64, k)
	size := make([]float64, k)
	for i := 0; i < g.N(); i++ {
		idx, w := g.Row(i)
		size[labels[i]]++
		for t, j := range idx {
			if labels[j] != labels[i] {
				cut[labels[i]] += w[t]
			}
		}
	}
	var s float64
	for c := range cut {
		if size[c] > 0 {
			s += cut[c] / size[c]
		}
	}
	return s
}

// l1Bisector bisects clusters of g by Alg. 1.
type l1Bisector struct {
	g     *graph.Graph
	pairs []constraint.Pair
	cfg   l1Config
	s     *Settings

	count, iters, subproblems, unconverged, capped int
	warnings                                       []string
	// first is the outcome of the first bisection (the whole graph).
	first l1Run
	// onRun, when not nil, receives every bisection's problem and run (tests).
	onRun func(*l1Problem, *l1Run)
}

// split bisects the cluster nodes by the sign of Alg. 1's final vector.
func (bs *l1Bisector) split(ctx context.Context, nodes []int) (bisection, error) {
	sp := bisection{nodes: nodes}
	id := bs.count
	bs.count++
	if len(nodes) < 2 {
		return sp, nil
	}
	q := newL1Problem(bs.g, nodes, bs.pairs, bs.cfg.node)
	starts := bs.cfg.starts
	if q.p() == 0 {
		starts = 1 // unconstrained: the Fiedler vector is optimal
	}
	xs, warn, err := q.spectralStarts(ctx, bs.s, starts)
	if err != nil {
		return sp, cancelledIn("l1csc", fmt.Sprintf("bisection %d (%d nodes): spectral starting vectors", id, len(nodes)), err)
	}
	if id == 0 {
		bs.warnings = append(bs.warnings, warn...)
	}
	var run l1Run
	for k, x0 := range xs {
		r, err := q.alg1(ctx, x0, bs.cfg, func(step int, j float64, inner int) {
			progress.Send(bs.s.Recorder, progress.Event{Stage: "l1csc", Done: step, Total: bs.cfg.maxIter, Message: fmt.Sprintf("bisection %d (%d nodes), start %d: J = %.8g after %d ADMM iterations", id, len(nodes), k+1, j, inner)})
		})
		if err != nil {
			return sp, fmt.Errorf("cluster: l1csc: bisection %d (%d nodes), start %d: %w", id, len(nodes), k+1, err)
		}
		bs.iters += r.steps
		bs.subproblems += r.subproblems
		bs.unconverged += r.unconverged
		if r.capped {
			bs.capped++
		}
		if k == 0 || r.objective < run.objective {
			run = r
		}
	}
	if bs.onRun != nil {
		bs.onRun(q, &run)
	}
	if id == 0 {
		bs.first = run
	}
	sp.sideA = make([]bool, len(nodes))
	a := 0
	for k, v := range run.x {
		if v > 0 {
			sp.sideA[k] = true
			a++
		}
	}
	if a == 0 || a == len(nodes) {
		return sp, nil
	}
	sp.ok = true
	sp.delta = splitDelta(bs.g, nodes, sp.sideA, !bs.cfg.node)
	return sp, nil
}

// l1Problem is the bisection problem of Alg. 1 on one set of nodes: the
// Laplacian L of their induced subgraph, the diagonal M of the D-norm
// (whole-graph degrees for the normalized cut, ones for the node cut) and
// the constraint rows with both nodes in the set.
type l1Problem struct {
	n   int
	ptr []int
	adj []int32
	w   []float64 // off-diagonal weights of the induced subgraph
	m   []float64 // diagonal of M; d = M·1
	// Constraint row r: (Cx)_r = cw[r]·(cs[r]·x[ci[r]] + x[cj[r]]), cs = −1
	// for a must-link and +1 for a cannot-link.
	ci, cj []int32
	cs, cw []float64
	node   bool // M = I (the node cut)
}

// newL1Problem builds the problem of the subgraph of g induced by nodes.
// Cost O(Σ_{v∈nodes} deg(v) + #pairs + g.N()).
func newL1Problem(g *graph.Graph, nodes []int, pairs []constraint.Pair, node bool) *l1Problem {
	pos := make([]int32, g.N())
	for i := range pos {
		pos[i] = -1
	}
	for k, v := range nodes {
		pos[v] = int32(k)
	}
	n := len(nodes)
	q := &l1Problem{n: n, ptr: make([]int, n+1), m: make([]float64, n), node: node}
	for k, v := range nodes {
		idx, w := g.Row(v)
		for t, j := range idx {
			if pj := pos[j]; pj >= 0 && int(j) != v && w[t] != 0 {
				q.adj = append(q.adj, pj)
				q.w = append(q.w, w[t])
			}
		}
		q.ptr[k+1] = len(q.adj)
		q.m[k] = 1
		if !node {
			q.m[k] = g.Degree(v)
		}
	}
	for _, pr := range pairs {
		pi, pj := pos[pr.I], pos[pr.J]
		if pi < 0 || pj < 0 {
			continue
		}
		sgn := 1.0
		if pr.Kind == constraint.MustLink {
			sgn = -1
		}
		q.ci = append(q.ci, pi)
		q.cj = append(q.cj, pj)
		q.cs = append(q.cs, sgn)
		q.cw = append(q.cw, pr.W())
	}
	return q
}

// p returns the number of constraint rows.
func (q *l1Problem) p() int { return len(q.ci) }

// lapMulTo sets dst = L·x, (Lx)_i = Σ_j w_ij(x_i − x_j). O(nnz).
func (q *l1Problem) lapMulTo(dst, x []float64) {
	for i := 0; i < q.n; i++ {
		var s float64
		xi := x[i]
		for t := q.ptr[i]; t < q.ptr[i+1]; t++ {
			s += q.w[t] * (xi - x[q.adj[t]])
		}
		dst[i] = s
	}
}

// cMulTo sets dst = C·x (length p). O(p).
func (q *l1Problem) cMulTo(dst, x []float64) {
	for r := range q.ci {
		dst[r] = q.cw[r] * (q.cs[r]*x[q.ci[r]] + x[q.cj[r]])
	}
}

// ctMulTo sets dst = Cᵀ·y (length n). O(n + p).
func (q *l1Problem) ctMulTo(dst, y []float64) {
	for i := range dst {
		dst[i] = 0
	}
	for r, v := range y {
		v *= q.cw[r]
		dst[q.ci[r]] += q.cs[r] * v
		dst[q.cj[r]] += v
	}
}

// objective returns J(x) = ½xᵀLx + λ‖Cx‖₁ (eq. 4.9, p = 1), using the
// work vectors ln (length n) and lc (length p).
func (q *l1Problem) objective(x []float64, lambda float64, ln, lc []float64) float64 {
	q.lapMulTo(ln, x)
	q.cMulTo(lc, x)
	var l1 float64
	for _, v := range lc {
		l1 += math.Abs(v)
	}
	return 0.5*dot(x, ln) + lambda*l1
}

// normalize centres x (dᵀx = 0, d = M·1) and scales it to xᵀMx = 1. It
// returns false when x is 0 after centring.
func (q *l1Problem) normalize(x []float64) bool {
	var dx, vol float64
	for i, v := range x {
		dx += q.m[i] * v
		vol += q.m[i]
	}
	var nrm float64
	for i := range x {
		x[i] -= dx / vol
		nrm += q.m[i] * x[i] * x[i]
	}
	if !(nrm > 0) || math.IsInf(nrm, 1) {
		return false
	}
	nrm = math.Sqrt(nrm)
	for i := range x {
		x[i] /= nrm
	}
	return true
}

// spectralStarts returns up to count starting vectors x⁰: the generalized
// eigenvectors 2, 3, … of L x = σ M x, each centred and M-normalized. For
// the normalized cut they are M^{-1/2}v_i, v_i the eigenvectors of L_sym
// of the subgraph with self loops that make its degrees M (L is unchanged
// by self loops); for the node cut the eigenvectors of L. For two nodes
// the only admissible direction is returned.
func (q *l1Problem) spectralStarts(ctx context.Context, s *Settings, count int) ([][]float64, []string, error) {
	n := q.n
	if n == 2 {
		x := []float64{q.m[1], -q.m[0]}
		q.normalize(x)
		return [][]float64{x}, nil, nil
	}
	count = min(count, n-1)
	ptr := make([]int, n+1)
	idx := make([]int32, 0, len(q.adj)+n)
	w := make([]float64, 0, len(q.adj)+n)
	for i := 0; i < n; i++ {
		self := q.m[i]
		for t := q.ptr[i]; t < q.ptr[i+1]; t++ {
			idx = append(idx, q.adj[t])
			w = append(w, q.w[t])
			self -= q.w[t]
		}
		if !q.node && self > 1e-12*q.m[i] {
			idx = append(idx, int32(i))
			w = append(w, self)
		}
		ptr[i+1] = len(idx)
	}
	sg, err := graph.FromCSR(n, ptr, idx, w, 1e-12)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: l1csc: %w", err)
	}
	kind := graph.Symmetric
	if q.node {
		kind = graph.Unnormalized
	}
	e, err := laplacianEmbedding(ctx, sg, kind, count+1, exactLaplacian, s)
	if err != nil {
		return nil, nil, err
	}
	var xs [][]float64
	for c := 1; c <= count; c++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = e.vectors.At(i, c)
			if kind == graph.Symmetric {
				x[i] /= math.Sqrt(q.m[i])
			}
		}
		if kind == graph.Symmetric {
			q.repairFaint(x)
		}
		if q.normalize(x) {
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 {
		return nil, nil, fmt.Errorf("%w: l1csc: the spectral starts are constant on %d nodes", ErrNumerical, n)
	}
	return xs, e.warnings, nil
}

// l1FaintDegree: a node whose weight in M is below l1FaintDegree times the
// mean is faint (see repairFaint).
const l1FaintDegree = 1e-8

// repairFaint replaces the entry of x at each faint node i (M_ii below
// l1FaintDegree times the mean) by the weighted mean of its neighbours in
// the subgraph (0 without neighbours). In x = M^{-1/2}v the eigensolver's
// error on v_i is multiplied by M_ii^{-1/2} (10¹⁷ for an RBF outlier of
// degree 10⁻³⁵), while the exact eigenvector satisfies x_i =
// (Wx)_i/((1 − σ)M_ii), a neighbour mean for small σ. O(nnz).
func (q *l1Problem) repairFaint(x []float64) {
	var mean float64
	for _, v := range q.m {
		mean += v
	}
	mean /= float64(q.n)
	for i, v := range q.m {
		if v >= l1FaintDegree*mean {
			continue
		}
		var s, w float64
		for t := q.ptr[i]; t < q.ptr[i+1]; t++ {
			s += q.w[t] * x[q.adj[t]]
			w += q.w[t]
		}
		x[i] = 0
		if w > 0 {
			x[i] = s / w
		}
	}
}

// l1Run is the outcome of Alg. 1 on one problem.
type l1Run struct {
	x         []float64 // final vector, dᵀx = 0, xᵀMx = 1
	objective float64   // J(x)
	// trace[k] is J(x^[k]), trace[0] that of the start; non-increasing.
	trace []float64
	// iterates[k] is x^[k] (recorded only when keep is set: tests).
	iterates [][]float64
	keep     bool
	steps    int // accepted outer steps
	// subproblems solved, and those that reached MaxInner.
	subproblems, unconverged int
	inner                    int  // ADMM iterations
	capped                   bool // MaxIter reached
}

// alg1 runs Alg. 1 from x0 (normalized by the caller) and reports each
// accepted step to step (may be nil).
func (q *l1Problem) alg1(ctx context.Context, x0 []float64, cfg l1Config, step func(k int, j float64, inner int)) (l1Run, error) {
	return q.alg1Keep(ctx, x0, cfg, step, false)
}

func (q *l1Problem) alg1Keep(ctx context.Context, x0 []float64, cfg l1Config, step func(k int, j float64, inner int), keep bool) (l1Run, error) {
	n, p := q.n, q.p()
	run := l1Run{keep: keep}
	x := append([]float64(nil), x0...)
	ln, lc := make([]float64, n), make([]float64, p)
	j := q.objective(x, cfg.lambda, ln, lc)
	run.trace = append(run.trace, j)
	if keep {
		run.iterates = append(run.iterates, append([]float64(nil), x...))
	}
	if p == 0 {
		// Unconstrained: x⁰ solves eq. 4.8, and is a fixed point of Alg. 1.
		run.x, run.objective = x, j
		return run, nil
	}
	ad := newL1ADMM(q, cfg)
	ad.warmStart(x)
	xhat := make([]float64, n)
	for k := 0; k < cfg.maxIter; k++ {
		if err := ctx.Err(); err != nil {
			return run, fmt.Errorf("step %d of Alg. 1: %w", k+1, err)
		}
		ok, conv, err := ad.solve(ctx, x, xhat)
		if err != nil {
			return run, fmt.Errorf("step %d of Alg. 1: ADMM subproblem: %w", k+1, err)
		}
		run.subproblems++
		if !conv {
			run.unconverged++
		}
		if !ok {
			break // no descent: x solves its own subproblem
		}
		var g2 float64
		for i, v := range xhat {
			g2 += q.m[i] * v * v
		}
		gamma := math.Sqrt(g2)
		for i := range xhat {
			xhat[i] /= gamma
		}
		jn := q.objective(xhat, cfg.lambda, ln, lc)
		if !(jn <= j) {
			break
		}
		ad.scaleZ(1 / gamma)
		copy(x, xhat)
		run.steps++
		run.trace = append(run.trace, jn)
		if keep {
			run.iterates = append(run.iterates, append([]float64(nil), x...))
		}
		if step != nil {
			step(k+1, jn, ad.iters)
		}
		done := j-jn <= cfg.outerTol*j
		j = jn
		if done {
			break
		}
		if k == cfg.maxIter-1 {
			run.capped = true
		}
	}
	run.x, run.objective, run.inner = x, j, ad.iters
	return run, nil
}

// l1ADMM solves the subproblem (eq. 4.10) by ADMM; see L1CSC.
type l1ADMM struct {
	q   *l1Problem
	cfg l1Config
	rho float64

	ldiag, cdiag  []float64 // diagonals of L and CᵀC
	hdiag, inv    []float64 // diagonal of H and its inverse (Jacobi)
	chol          *l1Chol   // dense factor of H, or nil: conjugate gradients
	forest        *forestPrec
	prec          func(dst, r []float64) // preconditioner of H
	a2            []float64              // M·x
	h1, h2, w     []float64              // H⁻¹d, H⁻¹Mx, H⁻¹ρCᵀ(ẑ − u)
	s11, s12, s22 float64                // A H⁻¹ Aᵀ
	z, u, cx, dz  []float64              // length p
	rhs, tn       []float64              // length n
	cg            *cgWork
	iters         int
	cgIters       int     // conjugate-gradient iterations over all solves
	scale         float64 // σ = 1/√(Σ M_ii)
	rhoMax        float64 // cap of the balanced ρ
	// relTol is the ADMM round's RelTol, ten times tighter at each
	// tightening (see solve); the conjugate gradients follow it (cgTol).
	relTol  float64
	factors int // dense factorizations
}

func newL1ADMM(q *l1Problem, cfg l1Config) *l1ADMM {
	n, p := q.n, q.p()
	ad := &l1ADMM{q: q, cfg: cfg,
		ldiag: make([]float64, n), cdiag: make([]float64, n), hdiag: make([]float64, n), inv: make([]float64, n), a2: make([]float64, n),
		h1: make([]float64, n), h2: make([]float64, n), w: make([]float64, n),
		z: make([]float64, p), u: make([]float64, p), cx: make([]float64, p), dz: make([]float64, p),
		rhs: make([]float64, n), tn: make([]float64, n), cg: newCGWork(n), relTol: cfg.relTol}
	var vol, deg float64
	for i := 0; i < n; i++ {
		for t := q.ptr[i]; t < q.ptr[i+1]; t++ {
			ad.ldiag[i] += q.w[t]
		}
		vol += q.m[i]
		deg += ad.ldiag[i]
	}
	for r := range q.ci {
		c2 := q.cw[r] * q.cw[r]
		ad.cdiag[q.ci[r]] += c2
		ad.cdiag[q.cj[r]] += c2
	}
	ad.scale = 1 / math.Sqrt(vol)
	ad.rho = deg / float64(n)
	if !(ad.rho > 0) {
		ad.rho = 1
	}
	ad.rhoMax = l1cscRhoMax * ad.rho
	if cfg.solver == l1SolveChol || cfg.solver == l1SolveAuto && l1UseDense(n, len(q.adj), p) {
		ad.chol = newL1Chol(n)
	}
	ad.setPreconditioner()
	return ad
}

// setPreconditioner prepares the solves with H for the current ρ: the
// dense factor (l1Chol, O(n² + nnz + p + n³/3)) when the size asks for
// it, otherwise the preconditioner of the conjugate gradients, the
// spanning-forest one (forestPrec) by default, Jacobi when
// l1Config.jacobi is set (O(n)). If the dense factorization fails (H not
// numerically positive definite), the conjugate gradients take over.
func (ad *l1ADMM) setPreconditioner() {
	for i := range ad.inv {
		ad.hdiag[i] = ad.ldiag[i] + 2*ad.cfg.mu*ad.q.m[i] + ad.rho*ad.cdiag[i]
		ad.inv[i] = 1 / ad.hdiag[i]
	}
	if ad.chol != nil {
		ad.factors++
		if ad.chol.factor(ad.q, ad.cfg.mu, ad.rho) {
			return
		}
		ad.chol = nil
	}
	if ad.prec == nil {
		if ad.cfg.jacobi {
			ad.prec = jacobiPrec(ad.inv)
		} else {
			q := ad.q
			ad.forest = newForestPrec(q.n, q.ci, q.cj, q.cs, q.cw)
			ad.prec = ad.forest.solveTo
		}
	}
	if ad.forest != nil {
		ad.forest.factor(ad.hdiag, ad.rho)
	}
}

// cgSolve solves H x = b: by the dense factor when there is one, else by
// preconditioned conjugate gradients from the x given, counting the
// iterations.
func (ad *l1ADMM) cgSolve(b, x []float64) {
	if ad.chol != nil {
		ad.chol.solveTo(x, b)
		return
	}
	it, _ := solveCG(ad.hMulTo, ad.prec, b, x, ad.cgTol(), l1cscCGMax, ad.cg)
	ad.cgIters += it
}

// warmStart sets ẑ = Cx, u = 0.
func (ad *l1ADMM) warmStart(x []float64) {
	ad.q.cMulTo(ad.z, x)
	for r := range ad.u {
		ad.u[r] = 0
	}
}

// scaleZ multiplies ẑ by c (step 5 of Alg. 1).
func (ad *l1ADMM) scaleZ(c float64) {
	for r := range ad.z {
		ad.z[r] *= c
	}
}

// hMulTo sets dst = H·x = (L + 2μM + ρCᵀC)·x. O(nnz + p).
func (ad *l1ADMM) hMulTo(dst, x []float64) {
	q := ad.q
	q.lapMulTo(dst, x)
	q.cMulTo(ad.dz, x)
	q.ctMulTo(ad.tn, ad.dz)
	for i := range dst {
		dst[i] += 2*ad.cfg.mu*q.m[i]*x[i] + ad.rho*ad.tn[i]
	}
}

// cgTol is the relative residual of the conjugate-gradient solves: the
// current ADMM round's RelTol/10 (RelTol, then ten times tighter at each
// tightening of solve), at least 10⁻¹⁴. (On BenchmarkL1CSC1kKNN, 10⁻⁸
// instead of the default 10⁻⁶ gives the same J to 6 digits and the same
// labels, in 1.7× the time.) It read RelTol itself, so the solves did not
// tighten with the rounds, and with a large λ or small weights Alg. 1
// stopped early (review 136).
func (ad *l1ADMM) cgTol() float64 { return max(ad.relTol/10, 1e-14) }

// factor solves H h1 = d and H h2 = Mx and forms A H⁻¹ Aᵀ.
func (ad *l1ADMM) factor() {
	q := ad.q
	ad.cgSolve(q.m, ad.h1)
	ad.cgSolve(ad.a2, ad.h2)
	ad.s11 = dot(q.m, ad.h1)
	ad.s12 = dot(q.m, ad.h2)
	ad.s22 = dot(ad.a2, ad.h2)
}

// solve runs ADMM for the subproblem at x, writing x̂ to xhat. ok reports
// that x̂ improves on x̂ = x (a descent step, Theorem part I), conv that
// the residual tolerances were met.
func (ad *l1ADMM) solve(ctx context.Context, x, xhat []float64) (ok, conv bool, err error) {
	q, cfg := ad.q, ad.cfg
	n, p := q.n, q.p()
	for i := range ad.a2 {
		ad.a2[i] = q.m[i] * x[i]
	}
	ad.relTol = cfg.relTol
	ad.factor()
	ln, lc := ad.rhs, ad.cx // scratch for the objective; overwritten below
	f0 := q.objective(x, cfg.lambda, ln, lc)
	absTol, relTol := cfg.absTol, cfg.relTol
	thr := func() float64 { return cfg.lambda / ad.rho }
	for round := 0; round <= l1cscTightenings; round++ {
		conv = false
		ad.relTol = relTol
		for it := 0; it < cfg.maxInner; it++ {
			if it%16 == 0 {
				if err := ctx.Err(); err != nil {
					return false, false, err
				}
			}
			ad.iters++
			// x̂-update.
			for r := range ad.dz {
				ad.dz[r] = ad.z[r] - ad.u[r]
			}
			q.ctMulTo(ad.rhs, ad.dz)
			for i := range ad.rhs {
				ad.rhs[i] *= ad.rho
			}
			ad.cgSolve(ad.rhs, ad.w)
			var r1, r2 float64
			for i := range xhat {
				xhat[i] = 2*cfg.mu*ad.h2[i] + ad.w[i]
				r1 += q.m[i] * xhat[i]
				r2 += ad.a2[i] * xhat[i]
			}
			r2--
			det := ad.s11*ad.s22 - ad.s12*ad.s12
			nu1 := (ad.s22*r1 - ad.s12*r2) / det
			nu2 := (ad.s11*r2 - ad.s12*r1) / det
			for i := range xhat {
				xhat[i] -= nu1*ad.h1[i] + nu2*ad.h2[i]
			}
			// ẑ- and u-updates.
			q.cMulTo(ad.cx, xhat)
			t := thr()
			var rp, ncx, nz float64
			for r := range ad.z {
				v := ad.cx[r] + ad.u[r]
				zn := math.Copysign(math.Max(math.Abs(v)-t, 0), v)
				ad.dz[r] = zn - ad.z[r]
				ad.z[r] = zn
				res := ad.cx[r] - zn
				ad.u[r] += res
				rp += res * res
				ncx += ad.cx[r] * ad.cx[r]
				nz += zn * zn
			}
			q.ctMulTo(ad.tn, ad.dz)
			ds := ad.rho * math.Sqrt(dot(ad.tn, ad.tn))
			q.ctMulTo(ad.tn, ad.u)
			nu := ad.rho * math.Sqrt(dot(ad.tn, ad.tn))
			rp = math.Sqrt(rp)
			epri := math.Sqrt(float64(p))*absTol*ad.scale + relTol*math.Sqrt(math.Max(ncx, nz))
			edual := math.Sqrt(float64(n))*absTol*ad.scale*ad.rho + relTol*nu
			if rp <= epri && ds <= edual {
				conv = true
				break
			}
			if it < l1cscBalance && it%5 == 4 {
				c := 1.0
				// Residuals relative to their scales (eq. 3.12's
				// right-hand sides), so that ρ does not drift with units.
				rr := rp / math.Max(math.Sqrt(math.Max(ncx, nz)), 1e-300)
				sr := ds / math.Max(nu, 1e-300)
				switch {
				case rr > 10*sr && rp > epri && ad.rho < ad.rhoMax:
					c = 2
				case sr > 10*rr && ds > edual:
					c = 0.5
				}
				if c != 1 {
					ad.rho *= c
					for r := range ad.u {
						ad.u[r] /= c
					}
					for i := range ad.w {
						ad.w[i] *= c
					}
					ad.setPreconditioner()
					ad.factor()
				}
			}
		}
		ad.project(x, xhat)
		f := q.objective(xhat, cfg.lambda, ad.rhs, ad.cx)
		var dev float64
		for i, v := range xhat {
			e := v - x[i]
			dev += q.m[i] * e * e
		}
		f += cfg.mu * dev
		if f < f0 {
			return true, conv, nil
		}
		if !conv {
			break // more iterations at tighter tolerances would not finish either
		}
		absTol /= 10
		relTol /= 10
	}
	return false, conv, nil
}

// project replaces xhat by its Euclidean projection onto dᵀx̂ = 0,
// (Mx)ᵀx̂ = 1. O(n).
func (ad *l1ADMM) project(x, xhat []float64) {
	q := ad.q
	var g11, g12, g22, r1, r2 float64
	for i, m := range q.m {
		a2 := m * x[i]
		g11 += m * m
		g12 += m * a2
		g22 += a2 * a2
		r1 += m * xhat[i]
		r2 += a2 * xhat[i]
	}
	r2--
	det := g11*g22 - g12*g12
	if !(det > 0) {
		return
	}
	c1 := (g22*r1 - g12*r2) / det
	c2 := (g11*r2 - g12*r1) / det
	for i, m := range q.m {
		xhat[i] -= c1*m + c2*m*x[i]
	}
}

// mustLinks returns the must-links of pairs.
func mustLinks(pairs []constraint.Pair) []constraint.Pair {
	var out []constraint.Pair
	for _, pr := range pairs {
		if pr.Kind == constraint.MustLink {
			out = append(out, pr)
		}
	}
	return out
}
