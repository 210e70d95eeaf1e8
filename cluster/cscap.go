package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// CSCAP is constrained spectral clustering through affinity propagation
// (Lu and Carreira-Perpiñán 2008; thesis §4.2.2, Alg. 11 and 12). W is read
// as the covariance of a Gaussian process f; a must-link (i, j) observes
// f_i − f_j ~ N(0, ε_m²) and a cannot-link f_i + f_j ~ N(0, ε_c²) (the
// thesis prints f_i − f_j in the cannot-link term of eq. 4.2.10; the sum is
// meant, as eq. 4.2.12's +1/ε_c² off-diagonal shows). The posterior
// covariance is the new affinity (eq. 4.2.12)
//
//	W̄ = (W⁻¹ + M)⁻¹,  M = Σ_ML (e_i − e_j)(e_i − e_j)ᵀ/ε_m² + Σ_CL (e_i + e_j)(e_i + e_j)ᵀ/ε_c²,
//
// computed in the Woodbury form with the rank-|S| factorization M = UUᵀ:
// W̄ = W − WU(I + UᵀWU)⁻¹UᵀW, so only an |S|×|S| system is solved and W is
// never inverted. Then A = max(0, W̄) entrywise and normalized cut
// (Shi–Malik) on A, keeping the k-means run with the fewest violated
// constraints.
//
// For k > 2 (Alg. 12) must-links are propagated first, W̄ᵐ, and each
// cannot-link c separately, W̄ᶜ = W̄ᵐ − W̄ᵐu_c u_cᵀW̄ᵐ/(1 + u_cᵀW̄ᵐu_c) (a
// rank-one Woodbury update), and A = max(0, min_c W̄ᶜ) entrywise.
//
// The method is dense by nature: W̄ is a full n×n matrix. Memory is about
// 3·8·n² bytes (W, W̄ and the k > 2 running minimum) plus the |S|×|S|
// system and two n×|S| blocks, or one more n×n matrix when |S| is large
// (the direct form's factorization), and time
// O(min(|S|³/3 + n·|S|² + n²·|S|, n³)) (see the cost below); above
// MaxBytes Partition refuses with an estimate.
//
// The Gaussian-process reading needs W ⪰ 0 (W is the prior covariance of
// eq. 4.2.9, and W̄ ≻ 0 below eq. 4.2.13 relies on it). An affinity graph
// without self loops has W_ii = 0 and is indefinite, so missing diagonal
// entries are set first (see Diagonal); a sparse k-NN graph, or a
// locally scaled RBF graph, typically stays indefinite after that (on the
// data of seed 003 Table 1, λ_min(W) is between −1.8 and −4.8 for the
// cosine 10-NN graphs and about −0.25 for the full RBF graphs), and then W
// is shifted to W + δI (see Shift). With an indefinite W,
// I + UᵀWU below can be singular, 1 + uᵀW̄u of Alg. 12 negative, and W̄
// can have negative diagonal entries, which leave nodes isolated in A.
//
// The partition depends on the scale of W below 1: ε_m² and ε_c² are
// variances on W's scale, so smaller weights weaken the constraints. On
// the 300-node SBM graph of TestWeightScale (6/n of the pairs as
// constraints), the weights times 2⁻¹⁰ gave a partition at ARI 0 against
// that of scale 1 (ARI 0.987 against the blocks), while times 10³ gave
// the same partition; from 10¹⁰⁰ I + UᵀWU is singular. It declares
// Uses.WeightScale.
//
// Cost beyond the propagation: one Cholesky factorization of W
// (O(n³/3)) to test W ⪰ 0 and, when W is indefinite, the eigenvalues of W
// by a dense decomposition (O(4n³/3)) and a second factorization to
// confirm the shifted matrix (work on the graph alone, which Auto does
// once for all its fits). The propagation itself, for q
// constraints (all of them for k = 2 or Joint, the must-links otherwise),
// takes the cheaper of two exact forms: the Woodbury
// system, q³/3 flops to factorize I + UᵀWU, 2q²n to solve it for WU's n
// columns (on all cores) and 2n²q for the product, or, once q exceeds
// about 0.6·n, the n×n system I + WUUᵀ (8n³/3 flops, cscap_direct.go): with
// n = 950 and q = 4750 (5n pairs, k = 2) one fit took about 10 s in the
// Woodbury form on the 2-core machine. Alg. 12 adds n²·n_c/2 comparisons
// for n_c cannot-links.
//
// Progress (Settings.Recorder): the work on the graph alone reports as
// the stage "cscap-prior" (the dense W, the Cholesky test, the
// eigenvalues of W and the confirming factorization), the propagation,
// the cannot-link correction of Alg. 12 and the graph of A as
// "cscap-propagation", each as thousandths of the stage (Total 1000)
// with the step in Message; then the eigensolver reports "eigen" and
// k-means "kmeans".
//
// Result: Labels; Eigenvalues the k smallest of L_sym of A (regularized
// as Problem.Regularize says), ascending;
// Embedding the n×k generalized eigenvectors D_A^{-1/2}v of the normalized
// cut on A; Objective the k-means distortion of the run kept over the
// embedding's rows: of Settings.Restarts runs (30 if 0, as thesis §4.5.1
// compares the pairwise methods), the one violating the least weight of
// constraints, ties to the lower distortion; Iterations its Lloyd
// iterations.
type CSCAP struct {
	// EpsML and EpsCL are ε_m and ε_c, the softness of must-links and
	// cannot-links (→ 0: hard constraints). If zero, 1 is used: the
	// constraint noise equals the prior's √W_ii = 1 of an RBF affinity. The
	// sources give no value. On separated RBF blobs (TestPairwiseMethods…)
	// ε = 1 and ε = 0.01 recover the classes while ε = 0.1 does not: there
	// the posterior W̄ has small entries of both signs inside the classes,
	// and clipping max(0, W̄) leaves a noisy affinity.
	EpsML float64 `doc:"must-link softness ε_m (0: 1)" range:"0 | [1e-12, 1e12]"`
	EpsCL float64 `doc:"cannot-link softness ε_c (0: 1)" range:"0 | [1e-12, 1e12]"`
	// Diagonal is W_ii for nodes without a self loop. If Diagonal is 0,
	// max_j W_ij is used, the strongest edge at i (on an RBF graph slightly
	// below the kernel's k(x, x) = 1).
	Diagonal float64 `doc:"W_ii of nodes without a self loop (0: strongest edge)" range:"[0, 1e12]"`
	// Shift is δ of the diagonal shift W + δI that turns an indefinite W
	// (after the Diagonal fill) into a valid covariance for eq. 4.2.9. The
	// shift keeps the eigenvectors of W and raises every eigenvalue by δ,
	// the "jitter" a Gaussian-process user adds to an indefinite kernel.
	// If Shift is 0, the smallest sufficient shift is used: none when
	// W ⪰ 0 to tolerance, λ_min(W) ≥ −τ with τ = 1e-8·‖W‖_∞ (the test is a
	// Cholesky factorization of W + τI, so a positive semidefinite W is
	// used exactly as given), and otherwise δ = −λ_min(W) + τ, so that
	// λ_min(W + δI) = τ; Result.Warnings then says so and gives λ_min and
	// δ. A positive Shift is added as given, whatever W is. A negative
	// Shift turns the repair off: W is used as it is, and an indefinite W
	// usually makes Partition fail (I + UᵀWU singular, 1 + uᵀW̄u ≤ 0, or an
	// isolated node in A).
	Shift float64 `doc:"diagonal shift δ of an indefinite W (0: minimal; < 0: no repair)" range:"[-1e12, 1e12]"`
	// Joint forces Alg. 11 (all constraints in one M) for k > 2.
	Joint bool `doc:"all constraints in one step (Alg. 11) for k > 2"`
	// NoVote turns off the default down-weighting of contradicted
	// constraints. By default (ours, beyond the sources; issue 17), when
	// there are at least VoteMinPairs constraints, each one's weight is
	// scaled by constraint.VoteWeights on the affinity W (its softness ε
	// divided by √f): a constraint that the constraints near it on the
	// graph contradict (agreement a < 0) counts less, and one with a ≤ −½
	// (at least 75% of its neighbours' vote weight for the other kind) is
	// left out. It makes CSCAP robust to wrong constraints (with 10% of
	// them flipped, docs/results/noisy-constraints) at a small cost on
	// clean ones. Cost: the affinity look-ups between each constraint and
	// the constraints with an end next to one of its ends on the graph
	// (constraint.VoteOptions.Neighbours), O(m²) for m constraints only on
	// a dense graph.
	NoVote bool `doc:"use every constraint at full weight (no vote down-weighting of contradicted ones)"`
	// MaxBytes is the memory limit of the dense work. If MaxBytes is 0,
	// 2 GiB is used.
	MaxBytes int64 `doc:"memory limit of the dense work (0: 2 GiB)" range:"[0, 1e15]"`

	// prior, when not nil and made for the graph being clustered, is the
	// work on the graph alone that Partition would otherwise redo (see
	// cscapPrior): Auto computes it once for its folds and final fit.
	// Unexported, unlike FGPWC.Basis: it is a cache with nothing to set.
	prior *cscapPrior
}

// cscapPrior is the part of CSCAP's work that depends on the graph and the
// knobs Diagonal and Shift alone, not on the constraints: the dense prior
// W with its missing diagonal filled (cscapAffinity) and shifted by δ
// (W + δI, see CSCAP.Shift), and the vote's similarity and neighbours on
// W before the shift. Read only once made, so the fits of Auto's folds
// share one.
type cscapPrior struct {
	g               *graph.Graph // the graph it was made for
	diagonal, shift float64      // and the knobs
	w               *mat.SymDense
	sim             func(a, b int) float64 // denseSim of W before the shift (called with a ≠ b only)
	nbr             func(a int) []int32    // the graph's rows: every b ≠ a with sim(a, b) > 0; nil on a complete graph (graph.Graph.Complete)
	delta, lmin     float64                // the automatic shift (Shift = 0) and λ_min(W) (NaN if not computed)
}

// newPrior returns the cscapPrior of g under c's Diagonal and Shift. The
// error is cscapMinimalShift's. Cost: O(n²) and, with Shift = 0, one
// O(n³/3) Cholesky factorization, and when W is indefinite a dense
// eigenvalue decomposition and a second factorization (see
// cscapMinimalShift); 8·n² bytes, plus 8·n² during the shift's tests.
// ctx is checked between the O(n²) steps (each 0.1–0.3 s at n = 6000 on
// the 2-core machine), every cscapRowPoll rows of those that read W
// entry by entry (the vote's similarity, the shift's margin) and inside
// the O(n³) ones; the error then wraps
// ctx.Err() and names cscap and the step ("cluster: cscap: dense
// affinity W: context canceled"). rec (nil: none) receives the progress
// of the stage "cscap-prior" (see CSCAP).
func (c CSCAP) newPrior(ctx context.Context, g *graph.Graph, rec progress.Recorder) (*cscapPrior, error) {
	n := float64(g.N())
	var shiftCost float64
	if c.Shift == 0 {
		shiftCost = cscapShiftCost(g.N())
	}
	m := newMeter(rec, "cscap-prior", cscapCostEntry*n*n+shiftCost)
	m.step("dense affinity W", cscapCostEntry*n*n/2)
	w := cscapAffinity(g, c.Diagonal)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("cluster: cscap: dense affinity W: %w", err)
	}
	pr := &cscapPrior{g: g, diagonal: c.Diagonal, shift: c.Shift, w: w, lmin: math.NaN()}
	// The vote reads off-diagonal entries only (constraint.Vote takes
	// sim(a, a) = 1 itself), which the shift leaves unchanged.
	m.step("similarity of W for the vote", cscapCostEntry*n*n/2)
	sim, err := denseSim(ctx, w)
	if err != nil {
		return nil, fmt.Errorf("cluster: cscap: similarity of W for the vote: %w", err)
	}
	pr.sim = sim
	pr.nbr = func(a int) []int32 { idx, _ := g.Row(a); return idx }
	if g.Complete() {
		pr.nbr = nil // the same votes by a scan of every pair, without sorting the neighbours' pairs
	}
	switch {
	case c.Shift > 0:
		cscapAddDiagonal(w, c.Shift)
	case c.Shift == 0:
		delta, lmin, err := cscapMinimalShift(ctx, w, m)
		if err != nil {
			return nil, err
		}
		if delta > 0 {
			cscapAddDiagonal(w, delta)
			pr.delta, pr.lmin = delta, lmin
		}
	}
	m.done()
	return pr, nil
}

// Estimated costs of CSCAP's steps, for the fractions of its progress
// stages (meter), in flops of a dense matrix product weighted by how much
// slower each kind of work ran on the 2-core machine at n = 3000: the
// products and factorizations 10–18 GFlop/s (weight 1), the tridiagonal
// reduction for the eigenvalues of W 1.5–2 GFlop/s and cannotLinkMax's
// comparisons 1.5 G/s (weight 6), a pass over an n×n matrix entry by entry
// (At, SetSym) 10–17 ns an entry (weight 150).
const (
	cscapCostEntry   = 150
	cscapCostReduce  = 6
	cscapCostCompare = 6
)

// cscapShiftCost is the estimated cost of cscapMinimalShift on an n×n W
// when W is indefinite: the test factorization (n³/3 flops, with the
// margin's pass over W), the eigenvalues (4n³/3, the reduction's weight)
// and the confirming factorization (n³/3).
func cscapShiftCost(n int) float64 {
	nf := float64(n)
	return cscapCostEntry*nf*nf + 2*nf*nf*nf/3 + cscapCostReduce*4*nf*nf*nf/3
}

// Name returns "cscap".
func (CSCAP) Name() string { return "cscap" }

// Uses declares what CSCAP reads from a Problem (see Run).
func (CSCAP) Uses() Uses {
	return Uses{Supervision: Pairs, Regularizes: true,
		WeightScale: "ε_m² and ε_c² are variances on the scale of W, the prior covariance (thesis eq. 4.2.9–4.2.10)"}
}

// Partition partitions p.Graph into p.K clusters using p.Constraints and the
// pairs of p.Labels. It returns an error wrapping ErrInvalid for an
// ill-posed problem or when the dense work would exceed MaxBytes.
func (c CSCAP) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, c, p, s)
	if err != nil {
		return nil, err
	}
	epsM, epsC := c.EpsML, c.EpsCL
	if epsM == 0 {
		epsM = 1
	}
	if epsC == 0 {
		epsC = 1
	}
	if !(epsM > 0) || !(epsC > 0) || math.IsInf(epsM, 0) || math.IsInf(epsC, 0) || !(c.Diagonal >= 0) || math.IsInf(c.Diagonal, 0) || math.IsNaN(c.Shift) || math.IsInf(c.Shift, 0) {
		return nil, fmt.Errorf("%w: cscap: EpsML = %v, EpsCL = %v, Diagonal = %v, Shift = %v", ErrInvalid, c.EpsML, c.EpsCL, c.Diagonal, c.Shift)
	}
	g := p.Graph
	n := g.N()
	limit := c.MaxBytes
	if limit == 0 {
		limit = 2 << 30
	}
	pairs, pairWarnings, err := supervisionPairsContext(ctx, "cscap", p, s, allPairs)
	if err != nil {
		return nil, err
	}
	if need := cscapBytes(n, len(pairs)); need > limit {
		return nil, fmt.Errorf("%w: cscap: n = %d with %d constraints needs about %s for its dense n×n matrices, more than the limit of %s (CSCAP.MaxBytes)", ErrInvalid, n, len(pairs), wording.Bytes(need), wording.Bytes(limit))
	}
	pr := c.prior
	if pr == nil || pr.g != g || pr.diagonal != c.Diagonal || pr.shift != c.Shift {
		if pr, err = c.newPrior(ctx, g, s.Recorder); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("cluster: cscap: prior W: %w", err)
		}
	}
	w := pr.w
	warnings := pairWarnings
	if !c.NoVote {
		var vw []string
		if pairs, vw, err = votePairs(ctx, "cscap", "CSCAP.NoVote", n, pairs, pr.sim, pr.nbr); err != nil {
			return nil, err
		}
		warnings = append(warnings, vw...)
	}
	if pr.delta > 0 {
		warnings = append(warnings, fmt.Sprintf("cscap: W is not positive semidefinite (λ_min = %.6g), as the Gaussian-process prior of thesis eq. 4.2.9 requires; used W + δI with δ = %.6g (eigenvectors unchanged, eigenvalues raised by δ; set CSCAP.Shift to choose δ)", pr.lmin, pr.delta))
	}
	var ml, cl []constraint.Pair
	for _, q := range pairs {
		if q.Kind == constraint.MustLink {
			ml = append(ml, q)
		} else {
			cl = append(cl, q)
		}
	}
	joint := p.K <= 2 || c.Joint
	nf := float64(n)
	var cost float64
	if joint {
		cost = cscapPropagateCost(n, len(pairs))
	} else {
		cost = cscapPropagateCost(n, len(ml)) + cannotLinkCost(n, len(cl))
	}
	clipCost, graphCost := cscapCostEntry*nf*nf/2, cscapCostEntry*nf*nf
	m := newMeter(s.Recorder, "cscap-propagation", cost+clipCost+graphCost)
	var a *mat.SymDense
	if joint {
		wb, err := cscapPropagate(ctx, w, pairs, epsM, epsC, m)
		if err != nil {
			return nil, cancelledIn("cscap", "propagation of the constraints (eq. 4.2.12)", err)
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("cluster: cscap: propagation of the constraints (eq. 4.2.12): %w", err)
		}
		m.step("clipped affinity max(0, W̄)", clipCost)
		if a, err = clipSym(ctx, wb, nil); err != nil {
			return nil, fmt.Errorf("cluster: cscap: clipped propagated affinity: %w", err)
		}
	} else {
		wm, err := cscapPropagate(ctx, w, ml, epsM, epsC, m)
		if err != nil {
			return nil, cancelledIn("cscap", "propagation of the must-links (Alg. 12)", err)
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("cluster: cscap: propagation of the must-links (Alg. 12): %w", err)
		}
		corr, err := cannotLinkMax(ctx, wm, cl, epsC, m.step(fmt.Sprintf("correction by %d cannot-links (Alg. 12)", len(cl)), cannotLinkCost(n, len(cl))))
		if err != nil {
			return nil, cancelledIn("cscap", "cannot-link correction (Alg. 12, lines 4–7)", err)
		}
		m.step("clipped affinity max(0, W̄ − T)", clipCost)
		if a, err = clipSym(ctx, wm, corr); err != nil {
			return nil, fmt.Errorf("cluster: cscap: clipped propagated affinity: %w", err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("cluster: cscap: clipped propagated affinity: %w", err)
	}
	m.step("graph of the propagated affinity", graphCost)
	ga, err := graph.FromDenseContext(ctx, a)
	if err != nil {
		return nil, fmt.Errorf("cluster: cscap: graph of the propagated affinity: %w", err)
	}
	m.done()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("cluster: cscap: graph of the propagated affinity: %w", err)
	}
	e, err := laplacianEmbedding(ctx, ga, graph.Symmetric, p.K, p.Regularize, s)
	if err != nil {
		return nil, fmt.Errorf("cluster: cscap: normalized cut of the propagated affinity: %w", err)
	}
	u := e.vectors
	for i := 0; i < n; i++ {
		f := 1 / math.Sqrt(e.deg[i])
		row := u.RawRowView(i)
		for j := range row {
			row[j] *= f
		}
	}
	res, err := partition(ctx, u, p.K, s.derive(streamCSCAP), fastGERestarts, violationSelect(pairs))
	if err != nil {
		if errors.Is(err, ErrNumerical) {
			return nil, fmt.Errorf("cluster: cscap: eigenvectors of the propagated affinity W̄: %w", err)
		}
		return nil, cancelledIn("cscap", "k-means on the eigenvectors", err)
	}
	res.Eigenvalues, res.Warnings = e.values, append(warnings, e.warnings...)
	return res, nil
}

// cscapMargin is τ = 1e-8·‖W‖_∞, the tolerance below which a negative
// eigenvalue of W is taken for rounding, and the margin left above zero by
// the automatic shift. ‖W‖_∞ (the largest absolute row sum) bounds ‖W‖₂.
// ctx is checked every cscapRowPoll rows (cscapRowCheck); the error is
// ctx.Err(). Cost O(n²).
func cscapMargin(ctx context.Context, w *mat.SymDense) (float64, error) {
	n := w.SymmetricDim()
	var norm float64
	for i := 0; i < n; i++ {
		if err := cscapRowCheck(ctx, i); err != nil {
			return 0, err
		}
		var r float64
		for j := 0; j < n; j++ {
			r += math.Abs(w.At(i, j))
		}
		norm = math.Max(norm, r)
	}
	return 1e-8 * norm, nil
}

// cscapRowPoll is the number of rows that CSCAP's passes over an n×n
// matrix entry by entry (cscapMargin, denseSim, clipSym and the
// symmetrizations of woodbury and cscapDirect: 15–32 ms each at n = 3000
// on the 2-core machine, so about 0.06–0.13 s at n = 6000) handle between
// two checks of the context: at most 256·n entries, a 23rd of a pass at
// n = 6000 (under 10 ms), with a cost not measurable (clipSym at n =
// 3000: 22 ms with the checks and without).
const cscapRowPoll = 256

// cscapRowCheck returns ctx's error at every cscapRowPoll-th row i (row 0
// included), nil otherwise.
func cscapRowCheck(ctx context.Context, i int) error {
	if i%cscapRowPoll != 0 {
		return nil
	}
	return ctx.Err()
}

// cscapMinimalShift returns the smallest δ ≥ 0, up to the margin τ of
// cscapMargin, with W + δI positive semidefinite, and λ_min(W) (NaN when it
// was not computed). δ = 0 when the Cholesky factorization of W + τI
// succeeds (λ_min(W) > −τ up to rounding); otherwise δ = max(0, −λ_min) + τ
// with λ_min from a dense symmetric eigenvalue decomposition (values only,
// LAPACK dsyev through mat.EigenSym: accurate to about n·ε·‖W‖ ≪ τ), and
// a factorization of W + δI confirms it. w is left unchanged.
//
// The dense decomposition is used rather than the iterative solvers of
// Settings because λ_min of these matrices sits at the edge of a dense
// cluster of small eigenvalues (on a locally scaled RBF graph W ≈ K − cI
// with K ⪰ 0 of rapidly decaying spectrum), where Lanczos needs thousands
// of products: 9 s against 0.8 s for n = 958 (tic-tac-toe).
//
// A cancelled ctx gives an error wrapping ctx.Err() that names cscap and
// the step ("cluster: cscap: positive semidefinite shift of W: Cholesky
// test of W + τI (τ = …): context canceled").
//
// m (nil: none) takes the steps, of the costs of cscapShiftCost; those
// not needed (W ⪰ 0) are skipped.
//
// Cost: one O(n³/3) factorization when W ⪰ 0; otherwise a second one and
// the O(4n³/3) tridiagonal reduction; 8·n² bytes for the copy.
func cscapMinimalShift(ctx context.Context, w *mat.SymDense, m *meter) (delta, lmin float64, err error) {
	const stage = "cluster: cscap: positive semidefinite shift of W"
	nf := float64(w.SymmetricDim())
	factorCost, valuesCost := cscapCostEntry*nf*nf+nf*nf*nf/3, cscapCostReduce*4*nf*nf*nf/3
	t := m.step("Cholesky test of W + τI", factorCost)
	tau, err := cscapMargin(ctx, w)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: margin τ = 1e-8·‖W‖_∞: %w", stage, err)
	}
	if tau == 0 {
		m.skip(valuesCost + nf*nf*nf/3)
		return 0, math.NaN(), nil // W = 0
	}
	if err := ctx.Err(); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", stage, err)
	}
	if ok, err := cscapPositiveDefinite(ctx, w, tau, t); err != nil {
		return 0, 0, fmt.Errorf("%s: Cholesky test of W + τI (τ = %g): %w", stage, tau, err)
	} else if ok {
		m.skip(valuesCost + nf*nf*nf/3)
		return 0, math.NaN(), nil
	}
	if err := ctx.Err(); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", stage, err)
	}
	vals, err := symValuesContext(ctx, w, m.step("eigenvalues of W (W is indefinite)", valuesCost))
	if err != nil {
		return 0, 0, fmt.Errorf("cluster: cscap: eigenvalues of W (n = %d) for the positive semidefinite shift: %w", w.SymmetricDim(), err)
	}
	if err := ctx.Err(); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", stage, err)
	}
	lmin = vals[0]
	delta = math.Max(0, -lmin) + tau
	if ok, err := cscapPositiveDefinite(ctx, w, delta, m.step("Cholesky factorization of W + δI", nf*nf*nf/3)); err != nil {
		return 0, 0, fmt.Errorf("%s: Cholesky test of W + δI (δ = %g): %w", stage, delta, err)
	} else if !ok {
		return 0, 0, fmt.Errorf("cluster: cscap: W + δI with δ = %g (λ_min(W) = %g) is not numerically positive definite; set CSCAP.Shift", delta, lmin)
	}
	return delta, lmin, nil
}

// cscapPositiveDefinite reports whether the Cholesky factorization of
// W + δI succeeds (potrfContext on a copy of the upper triangle, the
// factorization mat.Cholesky.Factorize performs, polling ctx between
// blocks, ticking t). w is left unchanged. The error is ctx.Err().
func cscapPositiveDefinite(ctx context.Context, w *mat.SymDense, delta float64, t tick) (bool, error) {
	n := w.SymmetricDim()
	raw := w.RawSymmetric()
	buf := make([]float64, n*n)
	for i := 0; i < n; i++ {
		copy(buf[i*n+i:(i+1)*n], raw.Data[i*raw.Stride+i:i*raw.Stride+n])
		buf[i*n+i] += delta
	}
	return potrfContext(ctx, blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: max(1, n), Data: buf}, t)
}

// denseSim returns the similarity w_ab/max for a ≠ b, with max the largest
// off-diagonal entry of w when it exceeds 1 (and 1 otherwise), so that the
// values lie in [0, 1] as constraint.Vote expects of a nonnegative
// affinity. O(n²) once, O(1) per call. ctx is checked every cscapRowPoll
// rows of the pass (cscapRowCheck); the error is ctx.Err().
func denseSim(ctx context.Context, w *mat.SymDense) (func(a, b int) float64, error) {
	n := w.SymmetricDim()
	scale := 1.0
	for i := 0; i < n; i++ {
		if err := cscapRowCheck(ctx, i); err != nil {
			return nil, err
		}
		for j := i + 1; j < n; j++ {
			scale = math.Max(scale, w.At(i, j))
		}
	}
	return func(a, b int) float64 { return math.Max(0, w.At(a, b)) / scale }, nil
}

// cscapAddDiagonal adds δ to every diagonal entry of w.
func cscapAddDiagonal(w *mat.SymDense, delta float64) {
	for i := 0; i < w.SymmetricDim(); i++ {
		w.SetSym(i, i, w.At(i, i)+delta)
	}
}

// cscapBytes estimates the memory of CSCAP: three n×n float64 matrices,
// and for the propagation (cscapPropagate) the n×|S| blocks WU and its
// solve and the |S|×|S| system of the Woodbury form, or one more n×n
// matrix for the direct form (its system, whose storage then holds the
// result, is one of the three; the factorization's copy is the fourth).
func cscapBytes(n, q int) int64 {
	nn, qq := int64(n), int64(q)
	if cscapDirectCheaper(n, q) {
		return 8 * 4 * nn * nn
	}
	return 8 * (3*nn*nn + 2*nn*qq + qq*qq)
}

// cscapAffinity returns W as a dense matrix, with missing diagonal entries
// set to diag (or to the row maximum when diag is 0).
func cscapAffinity(g *graph.Graph, diag float64) *mat.SymDense {
	w := g.Dense()
	n := g.N()
	for i := 0; i < n; i++ {
		if w.At(i, i) != 0 {
			continue
		}
		v := diag
		if v == 0 {
			_, ws := g.Row(i)
			for _, x := range ws {
				v = math.Max(v, x)
			}
		}
		w.SetSym(i, i, v)
	}
	return w
}

// woodbury returns W̄ = W − WU(I + UᵀWU)⁻¹UᵀW for the factor U of M
// (thesis eq. 4.2.12): column t of U is (e_i − e_j)√w_t/ε_m for a must-link
// and (e_i + e_j)√w_t/ε_c for a cannot-link. Cost O(n·|S| + |S|³ + n²·|S|).
// ctx is checked after the copy of W, every cscapPairPoll columns of WU,
// between the blocks of the factorization (potrfContext), of the solve
// (cholSolveColumns) and of the product (mulContext), every cscapRowPoll
// rows of the symmetrization of the result and after it and, when the Cholesky factorization
// fails (an indefinite W, Shift < 0), between the blocks of the LU
// factorization and its solve (luFactorContext, solveContext, with the
// condition estimate's solves, geconContext), and before each solve of
// the condition estimate after the Cholesky factorization
// (poconContext: gonum's Pocon, which did not poll, a few O(|S|²)
// triangular solves, 0.09 s for |S| = 3000 on the 2-core machine and
// growing as |S|²). m (nil: none) takes the steps, of the costs of
// woodburyCosts.
func woodbury(ctx context.Context, w *mat.SymDense, pairs []constraint.Pair, epsM, epsC float64, m *meter) (*mat.SymDense, error) {
	n := w.SymmetricDim()
	q := len(pairs)
	cost := woodburyCosts(n, q)
	m.step("copy of W", cost.copy)
	out := mat.NewSymDense(n, nil)
	out.CopySym(w)
	if q == 0 {
		return out, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	wu, sign, coef, err := woodburyColumns(ctx, w, pairs, epsM, epsC, m.step(fmt.Sprintf("columns of WU (%d pairs)", q), cost.columns))
	if err != nil {
		return nil, err
	}
	m.step(fmt.Sprintf("system I + UᵀWU (%d×%[1]d)", q), cost.system)
	cm := woodburySystem(wu, pairs, coef, sign)
	x := mat.NewDense(q, n, nil)
	// C = UᵀU by Cholesky in place, the numbers mat.Cholesky.Factorize
	// computes on a copy of C (C's norm, lapack64.Potrf, lapack64.Pocon's
	// condition estimate) without a second q×q matrix; like
	// mat.Cholesky.SolveTo, a condition number above
	// mat.ConditionTolerance is refused. The columns of the right-hand
	// side are solved on all cores (cholSolveColumns).
	sym := cm.RawSymmetric()
	work := make([]float64, 3*q)
	norm := lapack64.Lansy(lapack.MaxRowSum, sym, work)
	ok, err := potrfContext(ctx, sym, m.step(fmt.Sprintf("Cholesky factorization of I + UᵀWU (%d×%[1]d)", q), cost.factor))
	if err != nil {
		return nil, err
	}
	if ok {
		rcond, err := poconContext(ctx, sym, norm, work, make([]int, q))
		if err != nil {
			return nil, err
		}
		if cond := 1 / rcond; cond > mat.ConditionTolerance {
			return nil, fmt.Errorf("%w: cscap: solving I + UᵀWU (Woodbury update of W by the %d pairs): %w", ErrNumerical, q, mat.Condition(cond))
		}
		t := m.step(fmt.Sprintf("solve of I + UᵀWU for the %d columns of UᵀW", n), cost.solve)
		x.Copy(wu.T())
		if err := cholSolveColumns(ctx, blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: q, Stride: sym.Stride, Data: sym.Data}, x.RawMatrix(), t); err != nil {
			return nil, err
		}
	} else {
		// Potrf stopped part way through C (W indefinite, Shift < 0):
		// build it again and solve it by LU with partial pivoting, the
		// numbers of mat.LU's Factorize, Cond and SolveTo
		// (luFactorContext, solveContext), polling between blocks. The
		// progress takes the factorization (2q³/3 flops) as free and the
		// solve (2q²n) as the Cholesky solve's: the fallback is rare
		// (Shift < 0) and cheaper than the product.
		lu, err := luFactorContext(ctx, woodburySystem(wu, pairs, coef, sign), m.step(fmt.Sprintf("LU factorization of I + UᵀWU (%d×%[1]d; W is indefinite)", q), 0))
		if err != nil {
			return nil, err
		}
		if cond := lu.cond; math.IsInf(cond, 1) || cond > 1e14 {
			return nil, fmt.Errorf("%w: cscap: I + UᵀWU is singular (condition %.3g): W is far from positive semidefinite", ErrNumerical, cond)
		}
		if err := lu.solveContext(ctx, x, wu.T(), m.step(fmt.Sprintf("solve of I + UᵀWU for the %d columns of UᵀW", n), cost.solve)); err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%w: cscap: solving I + UᵀWU (Woodbury update of W by the %d pairs): %w", ErrNumerical, q, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	corr := mat.NewDense(n, n, nil)
	if err := mulContext(ctx, corr, wu, x, m.step(fmt.Sprintf("product WU·(I + UᵀWU)⁻¹UᵀW (%d×%d by %[2]d×%[1]d)", n, q), cost.product)); err != nil {
		return nil, err
	}
	m.step("W̄ = W − the product, symmetrized", cost.symmetrize)
	if err := woodburySymmetrized(ctx, out, w, corr); err != nil {
		return nil, err
	}
	return out, ctx.Err()
}

// woodburySymmetrized sets the upper triangle of out to W − (C + Cᵀ)/2
// for the n×n product C of woodbury. ctx is checked every cscapRowPoll
// rows (cscapRowCheck); the error is ctx.Err(), out then set part way.
// Cost O(n²).
func woodburySymmetrized(ctx context.Context, out, w *mat.SymDense, corr *mat.Dense) error {
	n := w.SymmetricDim()
	for i := 0; i < n; i++ {
		if err := cscapRowCheck(ctx, i); err != nil {
			return err
		}
		for j := i; j < n; j++ {
			out.SetSym(i, j, w.At(i, j)-(corr.At(i, j)+corr.At(j, i))/2)
		}
	}
	return nil
}

// woodburyCost holds the estimated costs of woodbury's steps (in the
// units of cscapCostEntry).
type woodburyCost struct {
	copy, columns, system, factor, solve, product, symmetrize float64
}

// woodburyCosts returns the estimated costs of woodbury's steps for n
// nodes and q pairs: the copy of W (n² entries), the columns of WU (n·q
// entries) and the system (q²/2 entries), entry by entry; the
// factorization (q³/3 flops), the solve (2q²n) and the product (2n²q);
// the symmetrization (n²/2 entries).
func woodburyCosts(n, q int) woodburyCost {
	nf, qf := float64(n), float64(q)
	return woodburyCost{
		copy:       nf * nf,
		columns:    cscapCostEntry * nf * qf,
		system:     cscapCostEntry * qf * qf / 2,
		factor:     qf * qf * qf / 3,
		solve:      2 * qf * qf * nf,
		product:    2 * nf * nf * qf,
		symmetrize: cscapCostEntry * nf * nf / 2,
	}
}

// total is the cost of all of woodbury's steps.
func (c woodburyCost) total() float64 {
	return c.copy + c.columns + c.system + c.factor + c.solve + c.product + c.symmetrize
}

// cannotLinkCost is the estimated cost of cannotLinkMax for n nodes and
// nc cannot-links (n²·nc/2 comparisons, n·nc entries read from W̄ᵐ).
func cannotLinkCost(n, nc int) float64 {
	nf, cf := float64(n), float64(nc)
	return cscapCostCompare*nf*nf*cf/2 + cscapCostEntry*nf*cf
}

// cscapPairPoll is the number of pairs whose columns woodbury and
// cscapDirectSystem form between two checks of the context: O(n) work
// each, about 12 ms for 256 pairs at n = 6000 on the 2-core machine.
const cscapPairPoll = 256

// woodburySystem returns C = I + UᵀWU of woodbury from WU and U's
// columns c_t(e_i ± e_j): row t of Uᵀ(WU) is c_t (WU[i,:] ± WU[j,:]).
// O(q²) for q pairs.
// woodburyColumns returns WU, whose column t is c_t (W e_i + s_t W e_j)
// for pair t = (i, j), with the signs s_t and coefficients c_t of
// cscapColumn. ctx is checked, and tk (nil: none) told the fraction of
// the pairs done, every cscapPairPoll pairs and at the end. Cost O(n·q)
// for q pairs.
func woodburyColumns(ctx context.Context, w *mat.SymDense, pairs []constraint.Pair, epsM, epsC float64, tk tick) (wu *mat.Dense, sign, coef []float64, err error) {
	n, q := w.SymmetricDim(), len(pairs)
	wu = mat.NewDense(n, q, nil)
	sign, coef = make([]float64, q), make([]float64, q)
	for t, pr := range pairs {
		if t%cscapPairPoll == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, nil, err
			}
			tk.at(float64(t) / float64(q))
		}
		sign[t], coef[t] = cscapColumn(pr, epsM, epsC)
		for i := 0; i < n; i++ {
			wu.Set(i, t, coef[t]*(w.At(i, pr.I)+sign[t]*w.At(i, pr.J)))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	tk.at(1)
	return wu, sign, coef, nil
}

func woodburySystem(wu *mat.Dense, pairs []constraint.Pair, coef, sign []float64) *mat.SymDense {
	q := len(pairs)
	cm := mat.NewSymDense(q, nil)
	for t, pr := range pairs {
		for u := t; u < q; u++ {
			v := coef[t] * (wu.At(pr.I, u) + sign[t]*wu.At(pr.J, u))
			if t == u {
				v++
			}
			cm.SetSym(t, u, v)
		}
	}
	return cm
}

// cholSolveColumns overwrites b with A⁻¹b for A = UᵀU, u the upper
// Cholesky factor (lapack64.Potrs), in blocks of at most cholSolveWidth
// contiguous columns handed out to the cores (parallel.For, which checks
// ctx before each block). Each column's solve is the same sequence of
// operations as in one Potrs call on all of b (gonum's Dtrsm updates rows
// by axpy, column by column independently), so the result is identical
// to it, bit for bit; only the wall time changes. The error is ctx.Err(),
// b then left part way. t (nil: none) receives the fraction of the blocks
// solved after each. Cost 2·m²·nrhs flops for m×m A, nrhs = b's columns,
// 2·m²·cholSolveWidth per block.
func cholSolveColumns(ctx context.Context, u blas64.Triangular, b blas64.General, t tick) error {
	w := parallel.Workers(0, b.Cols)
	width := max(1, min(cholSolveWidth, (b.Cols+w-1)/w))
	blocks := (b.Cols + width - 1) / width
	var solved atomic.Int64
	if err := parallel.For(ctx, blocks, 0, func(i int) error {
		c0 := i * width
		lapack64.Potrs(u, blas64.General{Rows: b.Rows, Cols: min(width, b.Cols-c0), Stride: b.Stride, Data: b.Data[c0:]})
		t.at(float64(solved.Add(1)) / float64(blocks))
		return nil
	}); err != nil {
		return err
	}
	return ctx.Err()
}

// cholSolveWidth is the largest number of columns cholSolveColumns solves
// in one block.
const cholSolveWidth = 128

// cannotLinkMax returns the upper triangle (b ≥ a) of T[a,b] = max_c
// z_c(a) z_c(b) over the cannot-links c, with z_c = W̄ᵐu_c/√(1 +
// u_cᵀW̄ᵐu_c) (Alg. 12, lines 4–7: min_c W̄ᶜ = W̄ᵐ − T), or nil when there
// is none. T is symmetric (z_c(a) z_c(b) = z_c(b) z_c(a) exactly), and
// clipSym reads only that triangle; the entries below the diagonal are
// left at −∞. The z_c are formed cannotLinkChunk at a time, in order,
// and the rows of T are updated in parallel, row a by worker a mod the
// workers (the triangle's rows shorten with a, so this spreads the work
// evenly), four cannot-links per pass over a row; every entry still sees
// the cannot-links in their order, with the same strict comparisons, so
// T is the same, bit for bit, as one cannot-link at a time on one core.
// Cost O(n²·n_c/2) time, 8·n·cannotLinkChunk bytes besides T. ctx is
// checked before each chunk of cannot-links, and t (nil: none) told the
// fraction of the cannot-links done after each.
func cannotLinkMax(ctx context.Context, wm *mat.SymDense, cl []constraint.Pair, epsC float64, t tick) (*mat.Dense, error) {
	if len(cl) == 0 {
		return nil, nil
	}
	n := wm.SymmetricDim()
	tm := mat.NewDense(n, n, nil)
	raw := tm.RawMatrix()
	for i := range raw.Data {
		raw.Data[i] = math.Inf(-1)
	}
	chunk := min(cannotLinkChunk, len(cl))
	zs := make([]float64, chunk*n)
	workers := parallel.Workers(0, n)
	for c0 := 0; c0 < len(cl); c0 += chunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		part := cl[c0:min(len(cl), c0+chunk)]
		for q, pr := range part {
			z := zs[q*n : (q+1)*n]
			c := math.Sqrt(pr.W()) / epsC
			for i := 0; i < n; i++ {
				z[i] = c * (wm.At(i, pr.I) + wm.At(i, pr.J))
			}
			beta := 1 + c*(z[pr.I]+z[pr.J])
			if !(beta > 0) {
				return nil, fmt.Errorf("cluster: cscap: cannot-link (%d,%d): 1 + uᵀW̄u = %g ≤ 0 (W is not positive semidefinite)", pr.I, pr.J, beta)
			}
			f := 1 / math.Sqrt(beta)
			for i := range z {
				z[i] *= f
			}
		}
		// fn never fails and the context is never cancelled.
		_ = parallel.For(context.Background(), workers, workers, func(w int) error {
			for a := w; a < n; a += workers {
				row := raw.Data[a*raw.Stride+a : a*raw.Stride+n]
				q := 0
				// Four cannot-links per pass over the row, in order: each
				// entry takes the same strict comparisons as one at a
				// time, with a quarter of the loads and stores of T.
				for ; q+4 <= len(part); q += 4 {
					z0 := zs[q*n+a : (q+1)*n][:len(row)]
					z1 := zs[(q+1)*n+a : (q+2)*n][:len(row)]
					z2 := zs[(q+2)*n+a : (q+3)*n][:len(row)]
					z3 := zs[(q+3)*n+a : (q+4)*n][:len(row)]
					a0, a1, a2, a3 := z0[0], z1[0], z2[0], z3[0]
					for b := range row {
						m := row[b]
						if v := a0 * z0[b]; v > m {
							m = v
						}
						if v := a1 * z1[b]; v > m {
							m = v
						}
						if v := a2 * z2[b]; v > m {
							m = v
						}
						if v := a3 * z3[b]; v > m {
							m = v
						}
						row[b] = m
					}
				}
				for ; q < len(part); q++ {
					z := zs[q*n+a : (q+1)*n]
					za := z[0]
					for b, zb := range z {
						if v := za * zb; v > row[b] {
							row[b] = v
						}
					}
				}
			}
			return nil
		})
		t.at(float64(c0+len(part)) / float64(len(cl)))
	}
	return tm, nil
}

// cannotLinkChunk is the number of cannot-links whose z_c cannotLinkMax
// forms before updating T with them.
const cannotLinkChunk = 64

// clipSym returns max(0, W̄ − T) entrywise (T nil means 0). ctx is
// checked every cscapRowPoll rows (cscapRowCheck); the error is
// ctx.Err(). Cost O(n²).
func clipSym(ctx context.Context, wb *mat.SymDense, t *mat.Dense) (*mat.SymDense, error) {
	n := wb.SymmetricDim()
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		if err := cscapRowCheck(ctx, i); err != nil {
			return nil, err
		}
		for j := i; j < n; j++ {
			v := wb.At(i, j)
			if t != nil {
				v -= t.At(i, j)
			}
			a.SetSym(i, j, math.Max(0, v))
		}
	}
	return a, nil
}
