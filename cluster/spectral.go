package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/wording"
)

// NJW is the normalized spectral clustering of Ng, Jordan and Weiss
// ("SPH. SC" in the thesis; thesis Alg. 3): the k eigenvectors of
// L_sym = I − D^{-1/2} W D^{-1/2} with the smallest eigenvalues, rows
// normalized to unit length, then k-means (thesis Alg. 4).
//
// Result: Labels; Eigenvalues the k smallest of L_sym, ascending;
// Embedding the n×k row-normalized eigenvectors; Objective the k-means
// distortion of the run kept (the lowest of Settings.Restarts runs, 10 if
// 0), Σ_i ‖x_i − μ_{c(i)}‖² over the embedding's rows; Iterations its
// Lloyd iterations.
//
// Cost: one partial eigendecomposition (O(nnz·k) per Lanczos step) and
// k-means in O(n·k²) per iteration.
type NJW struct{}

// Name returns "njw".
func (NJW) Name() string { return "njw" }

// Uses declares what NJW reads from a Problem (see Run).
func (NJW) Uses() Uses { return Uses{Regularizes: true} }

// Partition partitions p.Graph into p.K clusters. (Run warns about supervision, which it ignores.)
func (NJW) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, NJW{}, p, s)
	if err != nil {
		return nil, err
	}
	return spectral(ctx, "njw", p, s, graph.Symmetric, true, false)
}

// ShiMalik is the normalized cut of Shi and Malik (thesis Alg. 2): the first
// k generalized eigenvectors of L u = λ D u, then k-means. The generalized
// eigenvectors are computed as u = D^{-1/2} v from the eigenvectors v of
// L_sym, which have the same eigenvalues (thesis §2.3.1).
//
// Result: Labels; Eigenvalues the k smallest generalized eigenvalues of
// (L, D), those of L_sym, ascending; Embedding the n×k matrix of the u;
// Objective the k-means distortion of the run kept (the lowest of
// Settings.Restarts runs, 10 if 0) over the rows of u; Iterations its
// Lloyd iterations.
//
// Cost: NJW's, one partial eigendecomposition of L_sym (O(nnz·k) per
// Lanczos step; dense, O(n³), up to DenseLimit nodes) and k-means in
// O(n·k²) per iteration, plus O(n·k) for the D^{-1/2} scaling.
type ShiMalik struct{}

// Name returns "ncut".
func (ShiMalik) Name() string { return "ncut" }

// Uses declares what ShiMalik reads from a Problem (see Run).
func (ShiMalik) Uses() Uses { return Uses{Regularizes: true} }

// Partition partitions p.Graph into p.K clusters. (Run warns about supervision, which it ignores.)
func (ShiMalik) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, ShiMalik{}, p, s)
	if err != nil {
		return nil, err
	}
	return spectral(ctx, "ncut", p, s, graph.Symmetric, false, true)
}

// Unnormalized is unnormalized spectral clustering (seed 004 ch. 2): the k
// eigenvectors of L = D − W with the smallest eigenvalues, then k-means.
//
// With CommuteTime set, k-means runs on the commute-time embedding instead
// (thesis §2.4.2): column j of the embedding is u_j/√λ_j, so that squared
// distances between rows, times vol(G), are the commute-time distances
// ctd(i, j) = vol(G)(e_i − e_j)ᵀL⁺(e_i − e_j) of eq. 2.4.16 restricted to
// the k smallest eigenpairs (all n of them give exactly eq. 2.4.16). The
// thesis prints 1/λ_j in eq. 2.4.18; L⁺ = Σ_j u_j u_jᵀ/λ_j needs 1/√λ_j
// (SPEC §2). Columns of eigenvalue ≈ 0 (the constant vector of each
// connected component) get 0, as in the pseudo-inverse L⁺: between
// components the commute time is infinite, and a warning says that the
// distances there are L⁺'s, not commute times. Cost: that of usc plus
// O(n·k).
//
// Result: Labels; Eigenvalues the k smallest of L, ascending; Embedding
// the n×k eigenvectors u_j (with CommuteTime, the columns u_j/√λ_j);
// Objective the k-means distortion of the run kept (the lowest of
// Settings.Restarts runs, 10 if 0) over the embedding's rows; Iterations
// its Lloyd iterations. Cost: one partial eigendecomposition of L
// (O(nnz·k) per Lanczos step; dense, O(n³), up to DenseLimit nodes) and
// k-means in O(n·k²) per iteration.
type Unnormalized struct {
	// CommuteTime clusters the commute-time embedding u_j/√λ_j instead of
	// the eigenvectors u_j.
	CommuteTime bool `doc:"k-means on the commute-time embedding u_j/√λ_j (thesis §2.4.2, eq. 2.4.16–2.4.18)"`
}

// Name returns "usc".
func (Unnormalized) Name() string { return "usc" }

// Uses declares what Unnormalized reads from a Problem (see Run).
func (Unnormalized) Uses() Uses { return Uses{} }

// Partition partitions p.Graph into p.K clusters. (Run warns about supervision, which it ignores.)
func (u Unnormalized) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, u, p, s)
	if err != nil {
		return nil, err
	}
	if !u.CommuteTime {
		return spectral(ctx, "usc", p, s, graph.Unnormalized, false, false)
	}
	e, err := laplacianEmbedding(ctx, p.Graph, graph.Unnormalized, p.K, exactLaplacian, s)
	if err != nil {
		return nil, cancelledIn("usc", "eigenvectors of L", err)
	}
	zero := commuteTimeScale(e)
	if zero == p.K {
		return nil, fmt.Errorf("%w: usc: CommuteTime: the %d smallest eigenvalues of L are all 0 (at least %d connected components): the commute-time embedding is empty; ask for more clusters than components", ErrInvalid, p.K, p.K)
	}
	if zero > 1 {
		e.warnings = append(e.warnings, fmt.Sprintf("usc: %d connected components among the embedded eigenpairs: the commute time between them is infinite, and the embedding's distances there are those of the pseudo-inverse L⁺", zero))
	}
	res, err := partition(ctx, e.vectors, p.K, s, 10, nil)
	if err != nil {
		return nil, cancelledIn("usc", "k-means on the commute-time embedding", err)
	}
	res.Eigenvalues, res.Warnings = e.values, e.warnings
	return res, nil
}

// spectral is the common path of the Laplacian methods: embedding, optional
// row normalization (NJW) or D^{-1/2} scaling (Shi–Malik), k-means. A
// cancellation is an error that names the method name and the step
// (cancelledIn).
func spectral(ctx context.Context, name string, p *Problem, s *Settings, kind graph.LaplacianKind, rowNorm, degScale bool) (*Result, error) {
	g := p.Graph
	e, err := laplacianEmbedding(ctx, g, kind, p.K, p.Regularize, s)
	if err != nil {
		stage := "eigenvectors of L_sym"
		if kind == graph.Unnormalized {
			stage = "eigenvectors of L"
		}
		return nil, cancelledIn(name, stage, err)
	}
	u := e.vectors
	if degScale {
		n, k := u.Dims()
		for i := 0; i < n; i++ {
			f := 1 / math.Sqrt(e.deg[i])
			row := u.RawRowView(i)[:k]
			for j := range row {
				row[j] *= f
			}
		}
	}
	if rowNorm {
		if w := zeroRowsWarning(name, normalizeRows(u, s.rowTol(g.N())), g.N()); w != "" {
			e.warnings = append(e.warnings, w)
		}
	}
	res, err := partition(ctx, u, p.K, s, 10, nil)
	if err != nil {
		return nil, cancelledIn(name, "k-means on the eigenvectors", err)
	}
	res.Eigenvalues, res.Warnings = e.values, e.warnings
	return res, nil
}

// BetheHessian is Bethe Hessian spectral clustering (seed 004 §3.2, Alg. 2;
// Saade, Krzakala and Zdeborová 2014): the k eigenvectors of H(r) with the
// smallest eigenvalues, then k-means. H(r) is the weighted form of seed 004
// eq. 3.6 (graph.NewBetheHessian), which for unweighted graphs is eq. 3.5
// divided by r² − 1.
//
// When Problem.K is 0, k is the number of negative eigenvalues of H(r)
// (Saade et al.), at least 1.
//
// The parameter r comes from R, else from Rule: √c (seed 004 §3.2, right
// for the SBM) or √ρ̂ with ρ̂ = Σd²/Σd − 1, the non-backtracking spectral
// radius of a degree-heterogeneous graph (Saade et al. 2014; Le & Levina
// 2015; Dall'Amico, Couillet & Tremblay 2019, 2021). With √c, the hubs of a
// heterogeneous graph give negative eigenvalues of their own (localized
// on them), so the estimated k is far too large; √ρ̂ removes them
// (docs/results/kestimate measures both).
//
// It is meant for sparse graphs of the SBM kind. On the CLI's default
// 10-NN graph of overlapping feature points it can put nearly every node
// in one cluster: 99.9% of 10⁵ 2-D blob points with k = 5, where NJW gets
// ARI 0.72 (bench/results.md, "-method auto at 10⁵ nodes"); Run then
// warns that the partition has collapsed.
//
// The weighted H(r) reads the edge weights as couplings, so unlike NJW's
// L_sym it is not invariant under W → cW: on a 600-node SBM graph
// (tether gen sbm) the blocks are found with ARI 0.77 at weight 1 and
// 0.66 at weight 10⁻³ (and below). Weights so small that H(r) is the
// identity to rounding (10⁻²⁴ there) are refused with an error wrapping
// ErrNumerical rather than partitioned at random: the graph is refused when
// the coupling of H(r), its largest off-diagonal row sum
// (graph.BetheHessian.Coupling), is below 10⁻¹¹.
//
// Result: Labels; K (estimated when Problem.K is 0); Eigenvalues the k
// smallest of H(r), ascending (with Rule zeta, the ζ_p); Embedding the
// n×k eigenvectors (with Rule zeta, those of H(ζ_p), rows normalized);
// Objective the k-means distortion of the run kept (the lowest of
// Settings.Restarts runs, 10 if 0) over the embedding's rows; Iterations
// its Lloyd iterations.
//
// Cost: the k smallest eigenpairs of H(r), O(nnz + n) per product
// (Lanczos; dense, O(n³), up to DenseLimit nodes); with Problem.K = 0,
// solves for 8, 16, … of them until one is not negative (at most
// log₂(MaxK/8) + 2 solves); Rule zeta adds about k·log₂(10³) solves for
// k eigenpairs at most (Dall'Amico et al.'s search for each ζ_p); then k-means in
// O(n·k²) per iteration.
type BetheHessian struct {
	// R is the parameter r, above 1 (and above every edge weight, which
	// the weighted H(r) needs). If R is 0, r = √c with c the mean degree,
	// optimal for the stochastic block model (seed 004 §3.2), or 1.01 times
	// the largest edge weight where √c does not exceed it (graph.BetheR).
	R float64 `doc:"Bethe Hessian parameter r (0: from Rule)" range:"0 | (1, 1e6]"`
	// Rule chooses r when R is 0: BetheRuleMean (the zero value), r = √c
	// with c the mean degree (graph.BetheR), BetheRuleNB, r = √ρ̂
	// (graph.BetheRNonBacktracking), or BetheRuleZeta (see there).
	Rule BetheRule `doc:"r when R is 0: mean (√ mean degree, seed 004 §3.2), nb (√(Σd²/Σd − 1), Saade et al. 2014, Le & Levina 2015) or zeta (nb's k, then eigenvector p of H(ζ_p), Dall'Amico et al. 2019)"`
	// MaxK caps the estimated k when Problem.K is 0. If MaxK is 0, 100 is used.
	// An estimate at the cap, or of more than √n clusters, gets a warning
	// that it is unreliable and to give k (betheImplausibleK).
	MaxK int `doc:"cap of the estimated k (0: 100)" range:"[0, 1e6]"`
}

// Name returns "bethe".
func (BetheHessian) Name() string { return "bethe" }

// Uses declares what BetheHessian reads from a Problem (see Run).
func (BetheHessian) Uses() Uses {
	return Uses{EstimatesK: true,
		WeightScale: "H(r) = (r² − 1)I − rA + D reads them as couplings, and so does the estimate of k (seed 004 eq. 3.6)"}
}

// Partition partitions p.Graph. (Run warns about supervision, which it ignores.)
func (b BetheHessian) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, b, p, s)
	if err != nil {
		return nil, err
	}
	g := p.Graph
	if b.Rule < BetheRuleMean || b.Rule > BetheRuleZeta {
		return nil, fmt.Errorf("%w: bethe: unknown Rule %d", ErrInvalid, int(b.Rule))
	}
	r := b.R
	if r == 0 {
		r = b.Rule.R(g)
		if math.IsInf(r, 0) || math.IsNaN(r) {
			return nil, fmt.Errorf("%w: bethe: r = %v from the degrees (Rule %v) overflowed: the graph's weights are out of floating-point range", ErrNumerical, r, b.Rule)
		}
	}
	h, err := graph.NewBetheHessian(g, r)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	if err := betheCoupled(g, h); err != nil {
		return nil, err
	}
	n := g.N()
	k := p.K
	var warnings []string
	var res *eigen.Result
	if k == 0 {
		maxK := b.MaxK
		if maxK == 0 {
			maxK = 100
		}
		// Ask for a growing number of the smallest eigenvalues until one is
		// non-negative: the count of negative ones estimates k.
		want := min(8, n)
		capped := false // the count reached maxK (betheImplausibleK)
		for {
			res, err = s.solve(ctx, eigen.Problem{A: h, K: want, Which: eigen.Smallest})
			if err != nil && res == nil {
				return nil, betheSolveError(r, err)
			}
			neg := 0
			for _, v := range res.Values {
				if v < 0 {
					neg++
				}
			}
			if neg < want || want == n || want >= maxK {
				k = max(1, min(neg, maxK))
				capped = neg > maxK || neg == want && want < n
				break
			}
			want = min(2*want, n, maxK+1)
		}
		if k == 1 {
			warnings = append(warnings, betheOneCluster(g, r, s))
		} else {
			warnings = append(warnings, note(fmt.Sprintf("k = %d estimated from the negative eigenvalues of H(r), r = %.4g", k, r)))
			if w := betheImplausibleK(k, n, capped, s); w != "" {
				warnings = append(warnings, w)
			}
		}
	} else {
		res, err = s.solve(ctx, eigen.Problem{A: h, K: k, Which: eigen.Smallest})
		if err != nil && res == nil {
			return nil, betheSolveError(r, err)
		}
	}
	if err != nil {
		warnings = append(warnings, err.Error())
	}
	u := mat.DenseCopyOf(res.Vectors.Slice(0, n, 0, k))
	values := res.Values
	if b.Rule == BetheRuleZeta && b.R == 0 {
		var zeta []float64
		var unconverged string
		if u, zeta, unconverged, err = betheZetaEmbedding(ctx, g, k, r, s); err != nil {
			return nil, cancelledIn("bethe", "search for ζ_p (Rule zeta)", err)
		}
		if unconverged != "" {
			warnings = append(warnings, unconverged)
		}
		if w := zeroRowsWarning("bethe", normalizeRows(u, s.rowTol(n)), n); w != "" {
			warnings = append(warnings, w)
		}
		values = zeta
		warnings = append(warnings, note(fmt.Sprintf("eigenvector p taken from H(ζ_p), λ_p(H(ζ_p)) = 0: ζ = %.4g", zeta)))
	}
	out, err := partition(ctx, u, k, s, 10, nil)
	if err != nil {
		return nil, cancelledIn("bethe", "k-means on the eigenvectors", err)
	}
	if _, nc := g.Components(); nc == n && n > 1 {
		// Run's core rule cannot help (no node has an edge): say that the
		// partition means nothing, as njw's and ncut's warnings do.
		warnings = append(warnings, fmt.Sprintf("bethe: the graph has no edge between distinct nodes (%s): H(r) is diagonal, so its eigenvectors, and the partition, are arbitrary; build the graph with more neighbours or a larger radius", wording.Count(n, "isolated node", "isolated nodes")))
	}
	out.Eigenvalues, out.Warnings = values, warnings
	return out, nil
}

// betheOneCluster returns the warning for an estimate of k = 1 (H(r),
// r the parameter used, has no negative eigenvalue): the graph shows no
// community structure to H(r), and when its weights are not all 1 the
// count depends on their scale, which the weighted H(r) reads as
// couplings: a 3-block SBM graph's weights multiplied by 10 or by 0.1
// gave k = 1 where weight 1 gave 3. The remedy, giving k, is spelled by
// s (Settings.Spelling). Cost O(nnz).
func betheOneCluster(g *graph.Graph, r float64, s *Settings) string {
	msg := fmt.Sprintf("bethe: k = 1 estimated: H(r), r = %.4g, has no negative eigenvalue, so it sees no community structure", r)
	wmin, wmax := edgeWeightRange(g)
	if wmax > 0 && (wmin != 1 || wmax != 1) {
		msg += fmt.Sprintf("; the weighted H(r) reads the weights (here %.3g to %.3g) as couplings, so the count depends on their scale (an unweighted graph has weight 1): give k %s, or rescale the weights", wmin, wmax, s.remedy("Problem.K", "k"))
	} else {
		msg += "; give k " + s.remedy("Problem.K", "k") + " to partition it anyway"
	}
	return msg
}

// edgeWeightRange returns the smallest and largest weight of g's edges
// between distinct nodes (+Inf and 0 without such an edge; graph weights
// are positive). Cost O(nnz).
func edgeWeightRange(g *graph.Graph) (wmin, wmax float64) {
	wmin = math.Inf(1)
	for i := 0; i < g.N(); i++ {
		idx, w := g.Row(i)
		for q, j := range idx {
			if int(j) != i {
				wmin, wmax = math.Min(wmin, w[q]), math.Max(wmax, w[q])
			}
		}
	}
	return wmin, wmax
}

// betheMinCoupling is the smallest off-diagonal row sum of H(r)
// (BetheHessian.Coupling) for which its eigenvectors are computed. Below
// it, the graph's part of each product H(r)x, added to the diagonal's
// (at least 1), keeps too few bits: a 600-node SBM graph (mean degree 6,
// tether gen sbm) whose weights were scaled by 10⁻²² (coupling 2.4·10⁻¹¹)
// kept the partition of scale 10⁻³ (ARI 0.656 against the blocks), by
// 10⁻²⁴ (2.4·10⁻¹²) it drifted (0.650), by 10⁻²⁶ (2.4·10⁻¹³) it was
// arbitrary (ARI −0.0006).
const betheMinCoupling = 1e-11

// betheCoupled returns an error wrapping ErrNumerical when g has an edge
// between distinct nodes but H(r) is the identity to working precision
// (its coupling below betheMinCoupling): weights far below 1, which the
// weighted Bethe Hessian, not invariant under W → cW, reads as couplings
// near 0. The partition would be an arbitrary one: 10⁻²⁰⁰ times an SBM
// graph's weights gave ARI 0.003 against 0.77 at weight 1, without a
// word. A graph without such an edge keeps Partition's own warning. The
// check is global: a component of tiny weights beside components of
// normal ones passes it, and its nodes are then placed at random. Cost
// O(nnz).
func betheCoupled(g *graph.Graph, h *graph.BetheHessian) error {
	c := h.Coupling()
	if !(c < betheMinCoupling) {
		// Large enough, or NaN from an overflow that the eigensolver
		// reports (betheSolveError).
		return nil
	}
	_, wmax := edgeWeightRange(g)
	if !(wmax > 0) {
		return nil // no edge between distinct nodes: nothing to lose
	}
	// c = 0 with an edge: r·w_ij underflowed (weights near 1e-300).
	return fmt.Errorf("%w: bethe: the edge weights are too small for the weighted Bethe Hessian (largest %.3g, r = %.3g): H(r) is the identity up to %.3g (its largest off-diagonal row sum; below %g its eigenvectors lose the graph to rounding); H(r) is not invariant under scaling the weights: scale them up (an unweighted graph has weight 1)", ErrNumerical, wmax, h.R(), c, betheMinCoupling)
}

// betheSolveError wraps the eigensolver's error err on H(r) for Partition,
// saying which operator overflowed when err wraps ErrNumerical, and the
// step when it is a cancellation (cancelledIn).
func betheSolveError(r float64, err error) error {
	if isCancellation(err) {
		return cancelledIn("bethe", "eigenvectors of H(r)", err)
	}
	if errors.Is(err, ErrNumerical) {
		return fmt.Errorf("cluster: bethe: H(r) = (r²−1)I − rA + D, r = %.4g, overflowed (r² or r·w_ij out of floating-point range): %w", r, err)
	}
	return fmt.Errorf("cluster: bethe: %w", err)
}

// betheZetaTol is the relative width of the bracket at which the search
// for ζ_p stops.
const betheZetaTol = 1e-3

// betheZetaEmbedding returns the embedding of Dall'Amico, Couillet &
// Tremblay (2019, Alg. 1): for p = 1…k, the p-th eigenvector of H(ζ_p),
// where ζ_p ∈ (1, rmax] is the r at which the p-th smallest eigenvalue of
// H(r) vanishes (for a DC-SBM, ζ = (c_in + c_out)/(c_in − c_out) makes the
// informative eigenvector independent of the degree propensities θ). It
// also returns the ζ_p. λ_p(H(r)) ≥ 0 near r = 1 (H(1) is the Laplacian)
// and λ_p(H(rmax)) < 0 for the informative p; since λ_p ≤ λ_{p+1} for every
// r, the roots are ordered, ζ_p ≤ ζ_{p+1}, and each evaluation of the k
// smallest eigenvalues at one r narrows the brackets of every p. A p whose
// eigenvalue is not negative at rmax takes ζ_p = rmax. Bisection to a
// relative width of 10⁻³. Cost: about k·log₂(10³) evaluations of the k
// smallest eigenpairs of H(r) in the worst case, far fewer when the roots
// are close, each O(nnz·k) per Lanczos step. An eigensolve that does not
// converge (eigen.ErrNoConvergence with its partial result) is used as it
// is, and the returned warning says how many of the solves did not
// converge and why the first did not ("" when all did): the signs of its
// Ritz values steer the search and its vectors may be in the embedding
// (they were used without a word; review 117).
func betheZetaEmbedding(ctx context.Context, g *graph.Graph, k int, rmax float64, s *Settings) (*mat.Dense, []float64, string, error) {
	n := g.N()
	wmax := 0.0
	for i := 0; i < n; i++ {
		_, w := g.Row(i)
		for _, v := range w {
			wmax = math.Max(wmax, v)
		}
	}
	rmin := math.Nextafter(math.Max(wmax, 1), math.Inf(1)) * (1 + 1e-9)
	lo := make([]float64, k)
	hi := make([]float64, k)
	for p := range lo {
		lo[p], hi[p] = rmin, rmax
	}
	u := mat.NewDense(n, k, nil)
	have := make([]bool, k)
	solves, failed := 0, 0
	var firstFailure error
	eval := func(r float64) (*eigen.Result, error) {
		h, err := graph.NewBetheHessian(g, r)
		if err != nil {
			return nil, fmt.Errorf("cluster: %w", err)
		}
		res, err := s.solve(ctx, eigen.Problem{A: h, K: k, Which: eigen.Smallest})
		if err != nil && res == nil {
			return nil, err
		}
		solves++
		if err != nil {
			failed++
			if firstFailure == nil {
				firstFailure = fmt.Errorf("H(r), r = %.4g: %w", r, err)
			}
		}
		for q, v := range res.Values[:k] {
			if v >= 0 {
				lo[q] = math.Max(lo[q], r)
			} else {
				hi[q] = math.Min(hi[q], r)
			}
		}
		return res, nil
	}
	top, err := eval(rmax)
	if err != nil {
		return nil, nil, "", err
	}
	for p := 0; p < k; p++ {
		if top.Values[p] >= 0 {
			// Not negative at rmax: no root in the range.
			u.SetCol(p, mat.Col(nil, p, top.Vectors))
			have[p], lo[p], hi[p] = true, rmax, rmax
		}
	}
	for p := 0; p < k; p++ {
		if have[p] {
			continue
		}
		var last *eigen.Result
		var lastR float64
		for hi[p]-lo[p] > betheZetaTol*hi[p] {
			if err := ctx.Err(); err != nil {
				return nil, nil, "", err
			}
			r := (lo[p] + hi[p]) / 2
			res, err := eval(r)
			if err != nil {
				return nil, nil, "", err
			}
			last, lastR = res, r
		}
		mid := (lo[p] + hi[p]) / 2
		if last == nil || lastR != mid {
			if last, err = eval(mid); err != nil {
				return nil, nil, "", err
			}
		}
		u.SetCol(p, mat.Col(nil, p, last.Vectors))
		lo[p], hi[p] = mid, mid
	}
	warning := ""
	if failed > 0 {
		warning = fmt.Sprintf("bethe: %d of the %d eigensolves of the search for ζ_p (Rule zeta) did not converge, and their partial results steered it (the first: %v)", failed, solves, firstFailure)
	}
	return u, lo, warning, nil
}

// BetheRule chooses the Bethe Hessian parameter r from the graph.
type BetheRule int

const (
	// BetheRuleMean is r = √c, c the mean degree (seed 004 §3.2;
	// graph.BetheR).
	BetheRuleMean BetheRule = iota
	// BetheRuleNB is r = √ρ̂, ρ̂ = Σd²/Σd − 1 (graph.BetheRNonBacktracking).
	BetheRuleNB
	// BetheRuleZeta estimates k with r = √ρ̂ as BetheRuleNB, then embeds
	// with the eigenvector p of H(ζ_p), ζ_p the r at which the p-th
	// eigenvalue vanishes (Dall'Amico, Couillet & Tremblay 2019, Alg. 1),
	// rows normalized: insensitive to the degree heterogeneity of a
	// DC-SBM. It costs one bracketed root search per eigenvector.
	BetheRuleZeta
)

// betheRuleNames are the names of the BetheRule values, in order.
var betheRuleNames = []string{"mean", "nb", "zeta"}

// String returns "mean", "nb" or "zeta".
func (v BetheRule) String() string { return enum.String("BetheRule", betheRuleNames, v) }

// MarshalText returns the name of v.
func (v BetheRule) MarshalText() ([]byte, error) { return enum.Marshal("Rule", betheRuleNames, v) }

// UnmarshalText sets v from its name (mean, nb or zeta, any case), for
// tether cluster -set Rule=nb and JSON.
func (v *BetheRule) UnmarshalText(b []byte) error { return parseEnum(v, "Rule", betheRuleNames, b) }

// R returns the rule's r for g (graph.BetheR or
// graph.BetheRNonBacktracking). Cost O(n + nnz).
func (v BetheRule) R(g *graph.Graph) float64 {
	if v == BetheRuleNB || v == BetheRuleZeta {
		return graph.BetheRNonBacktracking(g)
	}
	return graph.BetheR(g)
}
