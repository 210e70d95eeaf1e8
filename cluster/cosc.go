package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// COSC is constrained 1-spectral clustering (Rangapuram and Hein, AISTATS
// 2012; thesis §4.4.1, eq. 4.4.1–4.4.8). For a bipartition (C, C̄) with
// cannot-link weights q_ij it minimizes
//
//	F̂_γ(C) = (2cut(C, C̄) + γ(M̂(C) + N̂(C))) / bal(C),
//	bal(C) = 2·vol(C)·vol(C̄)/vol(V),                          (eq. 4.4.1–4.4.2)
//
// (M̂, N̂ twice the weight of violated must-links and cannot-links; for a
// consistent C, F̂_γ(C) = Ncut(C, C̄)), through its tight continuous
// relaxation (eq. 4.4.6, Theorem 2)
//
//	F_γ(f) = (Σ_ij w_ij|f_i − f_j| + γM(f) + γN(f)) / ‖B(f − ⟨f, b⟩/vol·1)‖₁,
//	N(f) = vol(Q^c)(max f − min f) − Σ_ij q^c_ij|f_i − f_j|.
//
// # Must-links
//
// Must-links are merged, as Rangapuram and Hein do (the reason their graph
// carries vertex weights b): each component of the must-link closure
// (constraint.Closure) becomes one super-node whose weight b is the sum of
// its nodes' degrees, edges between super-nodes are summed and edges inside
// one are dropped (they are never cut). Ncut is unchanged, M = 0, and
// must-links are never violated. A cannot-link inside a must-link
// component (or on a must-linked pair) admits no partition: an error
// wrapping ErrInvalid names it and the must-link chain.
//
// # γ and consistency (Theorem 3)
//
// For k = 2, γ = vol(V)/4·λ₀/q_min, λ₀ the Ncut of a partition
// consistent with the constraints and q_min the smallest merged cannot-link weight (1 for
// unweighted constraints, as in the thesis; dividing by it keeps
// Theorem 3 true for weighted ones): then every violating C has
// F̂_γ(C) ≥ 4γq_min/vol(V) = λ₀, and the minimizers of F̂_γ are the
// consistent partitions of least Ncut. The consistent partition is found
// by 2-colouring the cannot-link graph between super-nodes (breadth-first),
// orienting each of its connected pieces by the sign of the b-weighted
// spectral vector f₀ (below) on its colour classes, both global
// orientations tried, and sweeping the unconstrained super-nodes in
// decreasing f₀; the sweep's best partition is then improved by greedy
// moves of whole colour pieces and single unconstrained super-nodes
// (O(nnz) per pass, at most 50 passes), and its Ncut is λ₀. (On
// BenchmarkCOSC10kKNN, a disconnected graph whose f₀ is a component
// indicator, the moves take λ₀ from 0.85 to 0.0062.) For k = 2, cannot-links
// that are not 2-colourable (an odd cycle between must-link components)
// admit no 2-way partition: an error wrapping ErrInvalid names the
// cannot-links of the cycle (node indices).
//
// # Optimization
//
// F_γ is a ratio of differences of convex one-homogeneous functions,
// R₁ − R₂ over S, R₁(f) = Σ w_ij|f_i − f_j| + γ·vol(Q^c)(max f − min f),
// R₂(f) = γΣ q_ij|f_i − f_j|. It is minimized by RatioDCA, the nonlinear
// inverse power method of Hein and Setzer (NIPS 2011, Alg. 1): with
// λ^k = F_γ(f^k),
//
//	f^{k+1} = argmin_{‖u‖₂ ≤ 1} R₁(u) − ⟨u, r₂(f^k) + λ^k s₁(f^k)⟩,
//
// r₂ ∈ ∂R₂, s₁ ∈ ∂S; F_γ decreases strictly whenever the inner value is
// negative. The inner problem is solved through its dual,
// min_{|α|_∞ ≤ 1} ½‖prox_h(c − Kᵀα)‖² (α one variable per edge, K the
// weighted incidence matrix, h = γ·vol(Q^c)(max − min) whose prox is a
// clipping computed exactly; see cosc_solver.go), by FISTA with gradient
// restarts, warm-started across outer steps. The large max − min term so
// never enters the step size. It stops when the duality gap is at most
// InnerGap times the dual value ‖prox_h(c − Kᵀα)‖, which guarantees a
// strict descent, or after 300 iterations (a stall: the start ends unless
// the inner value is still negative). One inner iteration costs
// O(nnz + n + #cannot-links) (the clipping levels by Michelot's active-set
// passes, O(n) each, a few in practice). After every outer step f is
// thresholded optimally: all n − 1 level sets scored in one sorted sweep,
// O(n log n + nnz + #cannot-links), and the best set met is kept (the
// iterate itself stays continuous: restarted from the indicator of its
// threshold set, RatioDCA often stalls at once). A start ends after
// MaxIter steps, a relative decrease of λ below 10⁻⁴, or no descent.
//
// Starts: the indicator of the consistent partition (Rangapuram and Hein:
// COSC then improves it or stops at once), the spectral vector f₀ =
// D_b^{-1/2}v₂ (v₂ the second eigenvector of the normalized Laplacian of
// the merged graph, degrees b; skipped when that graph has a node of
// weight 0) and Starts random Gaussian vectors (drawn from Settings.Seed on
// a random stream of COSC's own, seeds.go). The threshold set of least F̂_γ
// met by any start is kept; at k = 2 only consistent sets are kept, so that
// k = 2 never violates a constraint (by Theorem 3 no violating set can beat
// the consistent start).
//
// # k > 2
//
// Recursive bisection, as Hein and Bühler's 1-spectral multi-partitioning
// does it: each cluster C is bisected by COSC on its induced subgraph
// (degrees of that subgraph as vertex weights, must-link components merged,
// cannot-links with both nodes in C), but its threshold sets are scored by
// the terms they add to the k-way normalized cut of the whole graph,
// cut(A, V∖A)/vol(A) + cut(B, V∖B)/vol(B) (plus the cannot-link penalty
// γ(vol(Q^c) − 2·cut_Q)/bal), so that a fragment the induced k-NN
// subgraph leaves disconnected is not split off for free. The cluster
// whose split increases the k-way Ncut Σ_i cut(C_i, V∖C_i)/vol(C_i) least
// is split (a split never lowers it), until k clusters. Cannot-links between clusters are satisfied
// already and drop out.
//
// For k > 2, Theorem 3's γ is not used: a cannot-link may rightly join the
// two sides of an early split (three classes cannot be cut in two without
// putting two together), and forcing every cannot-link apart at the first
// split cuts through classes. There γ = vol(V)/4·λ_s/Σq, λ_s the least
// score without the penalty among the thresholds of f₀ (at the first
// split the Ncut of the graph; at later ones the terms the split adds to
// the k-way Ncut, as above): violating every
// cannot-link costs about one λ_s at a balanced split. Violations are
// then possible, which is why the guarantee is lost for k > 2 (thesis
// §4.4.1); must-links are never violated. Measured on the n = 900, k = 3
// problem of the benchmarks (3 overlapping blobs, 485 pairs): ARI 0.79
// with this γ, 0.24 with Theorem 3's.
//
// Without any constraint COSC is the unconstrained 1-spectral Ncut of Hein
// and Setzer (γ plays no role). A node of degree 0 costs nothing on either
// side (b = 0): it goes where the thresholding puts it (a warning says so).
//
// Result: Labels; Objective the k-way normalized cut of Labels on
// p.Graph; Iterations the RatioDCA steps of all starts and bisections.
// Cost per bisection: (Starts + 2) × outer steps × inner iterations ×
// O(nnz + n + #constraints), plus one second eigenvector; k − 1
// bisections for k = 2, 2k − 3 for k > 2 (both halves of each split are
// bisected, to choose the next); memory O(nnz + n + #constraints) per
// worker: the starts of a bisection run concurrently on every core, and
// the result does not depend on the number of workers. Measured on a
// fully connected RBF graph of 900 nodes (810 000 stored weights, k = 3,
// 468 pairs, the interlaced circles of seed 003's table) with 2 busy
// cores: 161 s with the default starts run one after the other, 72 s
// with Starts = 2 and 26 s with the consistent and spectral starts only
// (Starts = −1), all three reaching the same partition; all of it is the
// inner FISTA solver.
type COSC struct {
	// Starts is the number of random starts of RatioDCA per bisection,
	// besides the consistent-partition and spectral starts. If Starts is
	// 0, 6 are used; a negative value means none.
	Starts int `doc:"random RatioDCA starts per bisection besides the consistent and spectral ones (0: 6; < 0: none)" range:"[-1, 1e5]"`
	// MaxIter caps the RatioDCA (outer) steps per start. If MaxIter is 0,
	// 40 are used.
	MaxIter int `doc:"RatioDCA steps per start (0: 40)" range:"[0, 1e6]"`
	// InnerGap is the relative duality gap at which the inner problem
	// stops. If InnerGap is 0, 0.1 is used.
	InnerGap float64 `doc:"relative duality gap of the inner problem (0: 0.1)" range:"0 | [1e-12, 0.9]"`
}

// StartWorkers returns the number of RatioDCA starts a bisection runs at
// once, each on its own scratch state: parallel.Workers(0, total), that
// is min(GOMAXPROCS, total), for the total of Starts random starts (0: 6;
// < 0: none) and the consistent-partition and spectral starts, so at most
// Starts + 2 (2 with Starts < 0, 8 by default) whatever the cores. Its
// scratch states are the part of cosc's memory that grows with the
// cores (tether serve's estimate reads it). Cost O(1).
func (c COSC) StartWorkers() int {
	return parallel.Workers(0, c.starts()+2)
}

// starts returns the number of random starts per bisection: Starts, 6
// when it is 0, none when it is negative.
func (c COSC) starts() int {
	switch {
	case c.Starts == 0:
		return 6
	case c.Starts < 0:
		return 0
	}
	return c.Starts
}

// Name returns "cosc".
func (COSC) Name() string { return "cosc" }

// Uses declares what COSC reads from a Problem (see Run). It declares
// NoKEigensolve: its only eigensolve is the starting Fiedler vector of
// each bisection (2 pairs of the merged graph's L_sym), whatever k.
func (COSC) Uses() Uses { return Uses{Supervision: Pairs, MinK: 2, NoKEigensolve: true} }

const (
	coscMaxInner = 300
	coscOuterTol = 1e-4
)

// coscConfig holds COSC's knobs with defaults applied.
type coscConfig struct {
	starts, maxIter int
	innerGap        float64
}

func (c COSC) config() (coscConfig, error) {
	cfg := coscConfig{starts: c.starts(), maxIter: c.MaxIter, innerGap: c.InnerGap}
	if cfg.maxIter == 0 {
		cfg.maxIter = 40
	}
	if cfg.innerGap == 0 {
		cfg.innerGap = 0.1
	}
	if cfg.maxIter < 0 || !(cfg.innerGap > 0 && cfg.innerGap < 1) {
		return cfg, fmt.Errorf("%w: cosc: MaxIter = %d must be ≥ 0 and InnerGap = %v in (0, 1)", ErrInvalid, c.MaxIter, c.InnerGap)
	}
	return cfg, nil
}

// Partition partitions p.Graph into p.K clusters using p.Constraints and the
// pairs of p.Labels.
func (c COSC) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, c, p, s)
	if err != nil {
		return nil, err
	}
	cfg, err := c.config()
	if err != nil {
		return nil, err
	}
	pairs, warnings, err := supervisionPairsContext(ctx, "cosc", p, s, allPairs)
	if err != nil {
		return nil, err
	}
	g := p.Graph
	n := g.N()
	if !(g.Volume() > 0) {
		return nil, fmt.Errorf("%w: %w: cosc: the graph has no edge, so node 0 and every other node has degree 0: add self loops %s or drop the nodes of degree 0", ErrInvalid, graph.ErrIsolated, s.selfLoops())
	}
	set := &constraint.Set{N: n, Pairs: pairs}
	if err := coscContradictions(ctx, set, s); err != nil {
		return nil, err
	}
	comp, _ := constraint.Closure(set)
	if iso := g.Isolated(); len(iso) > 0 {
		warnings = append(warnings, fmt.Sprintf("cosc: %s of degree 0 (first %d) cost nothing on either side", wording.Count(len(iso), "node", "nodes"), iso[0]))
	}
	b := &coscBisector{g: g, comp: comp, pairs: pairs, cfg: cfg, s: s, exact: p.K == 2}
	labels, got, err := recursiveBisection(ctx, "cosc", n, p.K, b.split)
	switch {
	case err != nil:
		return nil, err
	case labels == nil && got < 2:
		return nil, fmt.Errorf("%w: cosc: the graph cannot be cut in two parts of positive volume (the must-link components cover it)", ErrInvalid)
	case labels == nil:
		return nil, fmt.Errorf("%w: cosc: only %s could be split for k = %d (must-link components or zero-volume parts)", ErrInvalid, wording.Count(got, "cluster", "clusters"), p.K)
	}
	return &Result{Labels: labels, K: p.K, Objective: kwayNcut(g, labels, p.K), Iterations: b.iters, Warnings: warnings}, nil
}

// kwayNcut returns Σ_c cut(C_c, V∖C_c)/vol(C_c) (empty or zero-volume
// clusters add 0). O(nnz).
func kwayNcut(g *graph.Graph, labels []int, k int) float64 {
	cut := make([]float64, k)
	vol := make([]float64, k)
	for i := 0; i < g.N(); i++ {
		idx, w := g.Row(i)
		vol[labels[i]] += g.Degree(i)
		for t, j := range idx {
			if labels[j] != labels[i] {
				cut[labels[i]] += w[t]
			}
		}
	}
	var s float64
	for c := range cut {
		if vol[c] > 0 {
			s += cut[c] / vol[c]
		}
	}
	return s
}

// coscContradictions returns an error wrapping ErrInvalid for the first
// cannot-link that joins two nodes of one must-link component (or a pair
// that is both must-link and cannot-link), as constraint.Check finds it;
// ctx is checked as the pairs are (constraint.CheckContext: 10⁷ pairs
// take seconds), the error then ctx's, naming cosc and the step.
func coscContradictions(ctx context.Context, set *constraint.Set, s *Settings) error {
	rep, err := constraint.CheckContext(ctx, set)
	if err != nil {
		return cancelledIn("cosc", "check of the pairs for contradictions", err)
	}
	for _, cf := range rep.Conflicts {
		if cf.Kind == constraint.CannotLinkInComponent || cf.Kind == constraint.Contradiction {
			return fmt.Errorf("%w: cosc: %s: no partition satisfies the constraints; resolve the contradiction first %s, or use a method that resolves it (ml-noa-ssc, mcl-noa-ssc)", ErrInvalid, cf, s.resolveRemedy())
		}
	}
	return nil
}

// coscBisector bisects clusters of g.
type coscBisector struct {
	g        *graph.Graph
	comp     []int // must-link closure
	pairs    []constraint.Pair
	cfg      coscConfig
	s        *Settings
	exact    bool // k = 2: a non-2-colourable problem is an error
	count    int  // bisections so far (random stream of each)
	iters    int
	rejected int
	// traces, when not nil, receives the λ trace of every start (tests).
	traces *[][]float64
	// last holds the diagnostics of the last bisection (tests).
	last struct {
		gamma, lambda0, fhat float64
		starts               int
	}
}

// split bisects the cluster nodes. Its delta is the change of the k-way
// Ncut of p.Graph when the cluster is replaced by its two sides.
func (bs *coscBisector) split(ctx context.Context, nodes []int) (bisection, error) {
	sp := bisection{nodes: nodes}
	if len(nodes) < 2 {
		return sp, nil
	}
	cg, super, err := bs.reduce(nodes)
	if err != nil {
		return sp, err
	}
	inC, ok, err := bs.bisect(ctx, cg)
	if err != nil || !ok {
		return sp, err
	}
	sp.sideA = make([]bool, len(nodes))
	for k := range nodes {
		sp.sideA[k] = inC[super[k]]
	}
	sp.ok = true
	sp.delta = splitDelta(bs.g, nodes, sp.sideA, true)
	return sp, nil
}

// reduce builds the two-way problem on the subgraph induced by nodes with
// the must-link components merged: super[k] is the super-node of
// nodes[k]. Cost O(Σ degrees + #pairs).
func (bs *coscBisector) reduce(nodes []int) (*coscGraph, []int, error) {
	g := bs.g
	pos := make(map[int]int, len(nodes))
	for k, v := range nodes {
		pos[v] = k
	}
	sid := make(map[int]int)
	super := make([]int, len(nodes))
	for k, v := range nodes {
		c, ok := sid[bs.comp[v]]
		if !ok {
			c = len(sid)
			sid[bs.comp[v]] = c
		}
		super[k] = c
	}
	m := len(sid)
	cg := &coscGraph{n: m, b: make([]float64, m), bg: make([]float64, m), out: make([]float64, m)}
	// Members of each super-node (counting sort).
	start := make([]int, m+1)
	for _, c := range super {
		start[c+1]++
	}
	for c := 0; c < m; c++ {
		start[c+1] += start[c]
	}
	mem := make([]int, len(nodes))
	fill := append([]int(nil), start[:m]...)
	for k, c := range super {
		mem[fill[c]] = k
		fill[c]++
	}
	acc := make([]float64, m)
	mark := make([]int, m)
	for c := range mark {
		mark[c] = -1
	}
	cg.ptr = make([]int, m+1)
	var touched []int
	for c := 0; c < m; c++ {
		touched = touched[:0]
		for _, k := range mem[start[c]:start[c+1]] {
			idx, w := g.Row(nodes[k])
			for t, j := range idx {
				q, ok := pos[int(j)]
				if !ok {
					continue
				}
				cg.b[c] += w[t]
				d := super[q]
				if d == c || w[t] == 0 {
					continue
				}
				if mark[d] != c {
					mark[d] = c
					acc[d] = 0
					touched = append(touched, d)
				}
				acc[d] += w[t]
			}
		}
		sort.Ints(touched)
		for _, d := range touched {
			cg.adj = append(cg.adj, int32(d))
			cg.w = append(cg.w, acc[d])
			if d > c {
				cg.ei = append(cg.ei, int32(c))
				cg.ej = append(cg.ej, int32(d))
				cg.ew = append(cg.ew, 2*acc[d])
			}
		}
		cg.ptr[c+1] = len(cg.adj)
		cg.vol += cg.b[c]
		for _, k := range mem[start[c]:start[c+1]] {
			cg.bg[c] += g.Degree(nodes[k])
		}
		if len(nodes) < g.N() {
			cg.out[c] = max(cg.bg[c]-cg.b[c], 0)
		} else {
			cg.bg[c] = cg.b[c]
		}
		cg.volg += cg.bg[c]
		cg.outTotal += cg.out[c]
	}
	// Sums over different member orders may differ in the last bit: copy
	// the upper triangle onto the lower one (rows are sorted).
	for c := 0; c < m; c++ {
		for t := cg.ptr[c]; t < cg.ptr[c+1]; t++ {
			d := int(cg.adj[t])
			if d <= c {
				continue
			}
			row := cg.adj[cg.ptr[d]:cg.ptr[d+1]]
			k := sort.Search(len(row), func(k int) bool { return int(row[k]) >= c })
			cg.w[cg.ptr[d]+k] = cg.w[t]
		}
	}
	// Cannot-links with both nodes inside, merged per super-node pair.
	type key struct{ i, j int }
	merged := make(map[key]int)
	for t, pr := range bs.pairs {
		if pr.Kind != constraint.CannotLink {
			continue
		}
		a, oka := pos[pr.I]
		b, okb := pos[pr.J]
		if !oka || !okb {
			continue
		}
		ci, cj := super[a], super[b]
		if ci == cj {
			// Excluded by coscContradictions.
			return nil, nil, fmt.Errorf("%w: cosc: cannot-link %d (%d,%d) inside a must-link component", ErrInvalid, t, pr.I, pr.J)
		}
		if ci > cj {
			ci, cj = cj, ci
		}
		if e, ok := merged[key{ci, cj}]; ok {
			cg.cl[e].q += pr.W()
			continue
		}
		merged[key{ci, cj}] = len(cg.cl)
		cg.cl = append(cg.cl, coscCL{i: ci, j: cj, q: pr.W(), pair: t})
	}
	sort.Slice(cg.cl, func(a, b int) bool {
		if cg.cl[a].i != cg.cl[b].i {
			return cg.cl[a].i < cg.cl[b].i
		}
		return cg.cl[a].j < cg.cl[b].j
	})
	cg.clPtr = make([]int, m+1)
	for _, e := range cg.cl {
		cg.clPtr[e.i+1]++
		cg.clPtr[e.j+1]++
		cg.volQ += 2 * e.q
	}
	for c := 0; c < m; c++ {
		cg.clPtr[c+1] += cg.clPtr[c]
	}
	cg.clAdj = make([]int32, cg.clPtr[m])
	cg.clQ = make([]float64, cg.clPtr[m])
	fill = append(fill[:0], cg.clPtr[:m]...)
	for _, e := range cg.cl {
		cg.clAdj[fill[e.i]], cg.clQ[fill[e.i]] = int32(e.j), e.q
		fill[e.i]++
		cg.clAdj[fill[e.j]], cg.clQ[fill[e.j]] = int32(e.i), e.q
		fill[e.j]++
	}
	return cg, super, nil
}

// coscColouring is a breadth-first 2-colouring of the cannot-link graph of
// a coscGraph: piece[i] is the connected piece of super-node i (−1 without
// cannot-links), colour[i] ∈ {0, 1}; odd is the index in cg.cl of the
// first cannot-link joining two super-nodes of one colour (−1 if none),
// parent[i] the cannot-link by which the search reached i (−1 at roots).
type coscColouring struct {
	piece, colour, parent []int
	pieces                int
	odd                   int
}

func colourCannotLinks(cg *coscGraph) *coscColouring {
	m := cg.n
	col := &coscColouring{piece: make([]int, m), colour: make([]int, m), parent: make([]int, m), odd: -1}
	for i := range col.piece {
		col.piece[i], col.parent[i] = -1, -1
	}
	// Index of each CSR entry's cannot-link, for parent pointers.
	eidx := make([]int, len(cg.clAdj))
	fill := append([]int(nil), cg.clPtr[:m]...)
	for e, c := range cg.cl {
		eidx[fill[c.i]] = e
		fill[c.i]++
		eidx[fill[c.j]] = e
		fill[c.j]++
	}
	var queue []int
	for r := 0; r < m; r++ {
		if col.piece[r] >= 0 || cg.clPtr[r] == cg.clPtr[r+1] {
			continue
		}
		col.piece[r] = col.pieces
		queue = append(queue[:0], r)
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			for t := cg.clPtr[i]; t < cg.clPtr[i+1]; t++ {
				j := int(cg.clAdj[t])
				if col.piece[j] < 0 {
					col.piece[j] = col.pieces
					col.colour[j] = 1 - col.colour[i]
					col.parent[j] = eidx[t]
					queue = append(queue, j)
				} else if col.colour[j] == col.colour[i] && col.odd < 0 {
					col.odd = eidx[t]
				}
			}
		}
		col.pieces++
	}
	return col
}

// oddCycleError describes the odd cycle closed by cannot-link col.odd: the
// tree paths from its two ends to their common ancestor, and itself.
func (bs *coscBisector) oddCycleError(cg *coscGraph, col *coscColouring) error {
	e := cg.cl[col.odd]
	depth := func(i int) int {
		d := 0
		for col.parent[i] >= 0 {
			c := cg.cl[col.parent[i]]
			i = c.i + c.j - i
			d++
		}
		return d
	}
	up := func(i int) (int, int) { c := cg.cl[col.parent[i]]; return c.i + c.j - i, col.parent[i] }
	var edges []int
	a, b := e.i, e.j
	da, db := depth(a), depth(b)
	for da > db {
		var t int
		a, t = up(a)
		edges = append(edges, t)
		da--
	}
	for db > da {
		var t int
		b, t = up(b)
		edges = append(edges, t)
		db--
	}
	for a != b {
		var t int
		a, t = up(a)
		edges = append(edges, t)
		b, t = up(b)
		edges = append(edges, t)
	}
	desc := make([]string, 0, len(edges)+1)
	for _, t := range append([]int{col.odd}, edges...) {
		pr := bs.pairs[cg.cl[t].pair]
		desc = append(desc, fmt.Sprintf("(%d,%d) [pair %d]", pr.I, pr.J, cg.cl[t].pair))
	}
	pr := bs.pairs[e.pair]
	return fmt.Errorf("%w: cosc: cannot-link %d (%d,%d) closes an odd cycle of %s between must-link components: %s; no 2-way partition satisfies %s", ErrInvalid, e.pair, pr.I, pr.J, wording.Count(len(desc), "cannot-link", "cannot-links"), strings.Join(desc, ", "), wording.Form(len(desc), "it", "them"))
}

// bisect returns the best two-way split (inC over super-nodes) of cg, or
// ok = false when no split has positive volume on both sides.
func (bs *coscBisector) bisect(ctx context.Context, cg *coscGraph) (inC []bool, ok bool, err error) {
	id := bs.count
	bs.count++
	positive := 0
	for _, b := range cg.b {
		if b > 0 {
			positive++
		}
	}
	if cg.n < 2 || positive < 2 {
		return nil, false, nil
	}
	col := colourCannotLinks(cg)
	consistent := col.odd < 0
	if !consistent && bs.exact {
		return nil, false, bs.oddCycleError(cg, col)
	}
	rng := rand.New(streamSrc(bs.s.Seed, streamCOSC+stream(0x100*id)))
	f0, err := bs.spectral(ctx, cg)
	if err != nil {
		return nil, false, fmt.Errorf("cluster: cosc: bisection %d: spectral start: %w", id, err)
	}
	randomVec := func() []float64 {
		f := make([]float64, cg.n)
		for i := range f {
			f[i] = rng.NormFloat64()
		}
		return f
	}
	// fixed holds the starts that are not random: the consistent
	// partition's indicator and the spectral vector (when there is one).
	var fixed [][]float64
	if f0 != nil {
		fixed = append(fixed, f0)
	} else {
		f0 = randomVec()
	}
	side0, _, found := consistentSplit(cg, col, f0)
	if !found {
		return nil, false, nil
	}
	lambda0 := improveConsistent(cg, col, side0)
	switch {
	case len(cg.cl) == 0:
	case consistent && bs.exact:
		cg.gamma = theorem3Gamma(cg, lambda0)
	default:
		// No consistent split (k > 2): violating every cannot-link costs
		// about the least unconstrained Ncut λ_s of f₀'s thresholds.
		cg.gamma = cg.vol / 4 * unconstrainedSweep(cg, f0) / (cg.volQ / 2)
	}
	bestF, _, _ := cg.setValue(side0)
	best := append([]bool(nil), side0...)
	ind := make([]float64, cg.n)
	indicator(ind, side0)
	fixed = append([][]float64{ind}, fixed...)
	total := len(fixed) + bs.cfg.starts
	// The starts are independent (ratioDCA resets the dual variables), so
	// they run concurrently, each worker on its own scratch state, in
	// batches of twice the workers: a batch's random starts are drawn in
	// start order from rng (the draws of a loop drawing them all first),
	// and the batch's results are then taken in start order, as a
	// sequential loop would. Memory so stays O(workers·n) whatever
	// Starts is (drawing all the starts first took Starts·n·8 bytes: 16 GB
	// for Starts = 10⁵ at n = 20 000, before any check of ctx).
	batch := 2 * parallel.Workers(0, total)
	vecs := make([][]float64, 0, batch)
	runs := make([]*coscRun, batch)
	traces := make([][]float64, batch)
	var mu sync.Mutex
	var states, free []*coscState
	var done atomic.Int64
	for lo := 0; lo < total; lo += batch {
		vecs = vecs[:0]
		for k := lo; k < min(lo+batch, total); k++ {
			if err := ctx.Err(); err != nil {
				return nil, false, fmt.Errorf("cluster: cosc: bisection %d: start %d: %w", id, k+1, err)
			}
			if k < len(fixed) {
				vecs = append(vecs, fixed[k])
			} else {
				vecs = append(vecs, randomVec())
			}
		}
		err = parallel.ForState(ctx, len(vecs), 0, func() *coscState {
			mu.Lock()
			defer mu.Unlock()
			if len(free) > 0 {
				st := free[len(free)-1]
				free = free[:len(free)-1]
				return st
			}
			st := newCOSCState(cg, bs.cfg.innerGap, coscMaxInner)
			states = append(states, st)
			return st
		}, func(st *coscState, j int) error {
			run, err := st.ratioDCA(ctx, vecs[j], bs.cfg.maxIter, coscOuterTol)
			if err != nil {
				return fmt.Errorf("start %d: %w", lo+j+1, err)
			}
			runs[j] = run
			if bs.traces != nil {
				traces[j] = append([]float64(nil), st.trace...)
			}
			progress.Send(bs.s.Recorder, progress.Event{Stage: "cosc", Done: int(done.Add(1)), Total: total, Message: fmt.Sprintf("bisection %d: F̂_γ = %.6g", id, run.fhat)})
			return nil
		})
		if err != nil {
			// Only a cancellation stops the starts.
			return nil, false, fmt.Errorf("cluster: cosc: bisection %d: %w", id, err)
		}
		// Every state is idle between batches: the next batch reuses them.
		free = append(free[:0], states...)
		for j, run := range runs[:len(vecs)] {
			runs[j] = nil
			bs.iters += run.iters
			if bs.traces != nil {
				*bs.traces = append(*bs.traces, traces[j])
			}
			if math.IsInf(run.fhat, 1) {
				continue
			}
			fh, _, viol := cg.setValue(run.inC)
			if consistent && bs.exact && viol > 0 {
				continue
			}
			if fh < bestF {
				bestF = fh
				copy(best, run.inC)
			}
		}
	}
	for _, st := range states {
		bs.rejected += st.rejected
	}
	bs.last.gamma, bs.last.lambda0, bs.last.fhat, bs.last.starts = cg.gamma, lambda0, bestF, total
	return best, true, nil
}

// spectral returns D_b^{-1/2}v₂ for the merged graph with self loops that
// make its degrees b, or nil when it has a node of weight 0.
func (bs *coscBisector) spectral(ctx context.Context, cg *coscGraph) ([]float64, error) {
	m := cg.n
	if m < 3 {
		return nil, nil
	}
	ptr := make([]int, m+1)
	idx := make([]int32, 0, len(cg.adj)+m)
	w := make([]float64, 0, len(cg.adj)+m)
	for c := 0; c < m; c++ {
		if !(cg.b[c] > 0) {
			return nil, nil
		}
		self := cg.b[c]
		for t := cg.ptr[c]; t < cg.ptr[c+1]; t++ {
			idx = append(idx, cg.adj[t])
			w = append(w, cg.w[t])
			self -= cg.w[t]
		}
		if self > 1e-12*cg.b[c] {
			idx = append(idx, int32(c))
			w = append(w, self)
		}
		ptr[c+1] = len(idx)
	}
	mg, err := graph.FromCSR(m, ptr, idx, w, 0)
	if err != nil {
		return nil, nil
	}
	e, err := laplacianEmbedding(ctx, mg, graph.Symmetric, 2, exactLaplacian, bs.s)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil
	}
	f := make([]float64, m)
	for i := range f {
		f[i] = e.vectors.At(i, 1) / math.Sqrt(mg.Degree(i))
	}
	return f, nil
}

// consistentSplit returns a bipartition of cg consistent with the
// colouring col (violating only the cannot-links col cannot colour), of
// least Ncut among: each cannot-link piece oriented by the sign of
// Σ_{i in piece} b_i(f_i − m)(2colour_i − 1), m the b-mean of f (and all
// orientations flipped), the unconstrained super-nodes added in
// decreasing f. found is false when no candidate has positive volume on
// both sides. O(pieces + n log n + nnz) per orientation.
func consistentSplit(cg *coscGraph, col *coscColouring, f []float64) (side []bool, ncut float64, found bool) {
	var mean float64
	for i, b := range cg.b {
		mean += b * f[i]
	}
	mean /= cg.vol
	score := make([]float64, col.pieces)
	var free []int
	for i := 0; i < cg.n; i++ {
		if col.piece[i] < 0 {
			free = append(free, i)
			continue
		}
		score[col.piece[i]] += cg.b[i] * (f[i] - mean) * float64(2*col.colour[i]-1)
	}
	sort.SliceStable(free, func(a, b int) bool { return f[free[a]] > f[free[b]] })
	ncut = math.Inf(1)
	cur := make([]bool, cg.n)
	for _, flip := range []bool{false, true} {
		for i := 0; i < cg.n; i++ {
			cur[i] = false
			if pc := col.piece[i]; pc >= 0 {
				want := 1
				if score[pc] < 0 {
					want = 0
				}
				cur[i] = (col.colour[i] == want) != flip
			}
		}
		var cut, volC float64
		for i := 0; i < cg.n; i++ {
			if !cur[i] {
				continue
			}
			volC += cg.b[i]
			for t := cg.ptr[i]; t < cg.ptr[i+1]; t++ {
				if !cur[cg.adj[t]] {
					cut += cg.w[t]
				}
			}
		}
		bestT := -2
		for t := -1; t < len(free); t++ {
			if t >= 0 {
				i := free[t]
				cur[i] = true
				volC += cg.b[i]
				for k := cg.ptr[i]; k < cg.ptr[i+1]; k++ {
					if cur[cg.adj[k]] {
						cut -= cg.w[k]
					} else {
						cut += cg.w[k]
					}
				}
			}
			bal := 2 * volC * (cg.vol - volC) / cg.vol
			if !(bal > 0) {
				continue
			}
			if nc := 2 * max(cut, 0) / bal; nc < ncut {
				ncut, bestT = nc, t
			}
		}
		if bestT > -2 {
			found = true
			if side == nil {
				side = make([]bool, cg.n)
			}
			for i := 0; i < cg.n; i++ {
				side[i] = false
				if pc := col.piece[i]; pc >= 0 {
					want := 1
					if score[pc] < 0 {
						want = 0
					}
					side[i] = (col.colour[i] == want) != flip
				}
			}
			for t := 0; t <= bestT; t++ {
				side[free[t]] = true
			}
		}
		for _, i := range free {
			cur[i] = false
		}
	}
	return side, ncut, found
}

// unconstrainedSweep returns the least Ncut among the threshold sets of f
// (cannot-links ignored; +Inf when none has positive volume on both sides).
func unconstrainedSweep(cg *coscGraph, f []float64) float64 {
	g0 := *cg
	g0.gamma = 0
	st := &coscState{g: &g0, order: make([]int, cg.n), inC: make([]bool, cg.n)}
	return st.sweep(f, make([]bool, cg.n))
}

// coscMaxPasses bounds the passes of improveConsistent.
const coscMaxPasses = 50

// theorem3Gamma returns γ = vol(V)/4·λ₀/q_min of Theorem 3 for the
// two-way problem cg with cannot-links, λ₀ the Ncut of a consistent
// partition and q_min the smallest merged cannot-link weight of cg (see
// the comment on COSC). Cost O(len(cg.cl)).
func theorem3Gamma(cg *coscGraph, lambda0 float64) float64 {
	qmin := math.Inf(1)
	for _, c := range cg.cl {
		qmin = min(qmin, c.q)
	}
	return cg.vol / 4 * lambda0 / qmin
}

// improveConsistent lowers the Ncut of the bipartition side by greedy
// moves that keep the colouring: a unit is a connected piece of the
// cannot-link graph (all its super-nodes change side together, so its
// cannot-links stay cut) or a super-node without cannot-links; a unit is
// moved when that lowers cut(C, C̄)(1/vol(C) + 1/vol(C̄)) and leaves both
// sides of positive volume. Passes over all units repeat until none moves
// (at most coscMaxPasses). It returns the final Ncut. O(nnz + n) per pass.
func improveConsistent(cg *coscGraph, col *coscColouring, side []bool) float64 {
	// Units: pieces 0…pieces−1, then one per free super-node.
	unit := make([]int, cg.n)
	units := col.pieces
	for i := 0; i < cg.n; i++ {
		if col.piece[i] >= 0 {
			unit[i] = col.piece[i]
		} else {
			unit[i] = units
			units++
		}
	}
	start := make([]int, units+1)
	for _, u := range unit {
		start[u+1]++
	}
	for u := 0; u < units; u++ {
		start[u+1] += start[u]
	}
	mem := make([]int, cg.n)
	fill := append([]int(nil), start[:units]...)
	for i, u := range unit {
		mem[fill[u]] = i
		fill[u]++
	}
	var cut, volC float64
	for i := 0; i < cg.n; i++ {
		if !side[i] {
			continue
		}
		volC += cg.b[i]
		for t := cg.ptr[i]; t < cg.ptr[i+1]; t++ {
			if !side[cg.adj[t]] {
				cut += cg.w[t]
			}
		}
	}
	ncut := func(cut, volC float64) float64 {
		volD := cg.vol - volC
		if !(volC > 0) || !(volD > 0) {
			return math.Inf(1)
		}
		return max(cut, 0) * (1/volC + 1/volD)
	}
	cur := ncut(cut, volC)
	for pass := 0; pass < coscMaxPasses; pass++ {
		moved := false
		for u := 0; u < units; u++ {
			var dcut, dvol float64
			for _, i := range mem[start[u]:start[u+1]] {
				if side[i] {
					dvol -= cg.b[i]
				} else {
					dvol += cg.b[i]
				}
				for t := cg.ptr[i]; t < cg.ptr[i+1]; t++ {
					j := cg.adj[t]
					if unit[j] == u {
						continue
					}
					if side[i] != side[j] {
						dcut -= cg.w[t]
					} else {
						dcut += cg.w[t]
					}
				}
			}
			if nc := ncut(cut+dcut, volC+dvol); nc < cur*(1-1e-12) {
				for _, i := range mem[start[u]:start[u+1]] {
					side[i] = !side[i]
				}
				cut, volC, cur, moved = cut+dcut, volC+dvol, nc, true
			}
		}
		if !moved {
			break
		}
	}
	return cur
}
