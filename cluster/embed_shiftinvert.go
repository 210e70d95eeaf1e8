package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// Budget and shift of shiftInvertEmbedding. The factor may store at most
// shiftInvertMaxEntries values (200 MB), and the repair may cost at most
// the larger of shiftInvertFreeFlops and the work the iterative solve
// already spent, and never more than shiftInvertMaxFlops (some seconds on
// this project's 2-core machine): shiftInvertBudget. The cost counted is
// the factorization's multiply-adds plus shiftInvertProducts products
// with the factor (two triangular solves, 2·entries each). So the repair
// never costs much more than the solve it repairs.
//
// Measured (2026-11-29, graph.CholeskyInverse: minimum degree order,
// supernodal factor): on spambase's 10-NN graph (min–max scaled, 4601
// nodes) the factor holds 1.15·10⁶ entries, 4.3·10⁸ multiply-adds, made in
// about 0.3 s (the envelope factor used before held 3.6·10⁶ entries,
// 2.3·10⁹ multiply-adds, 0.58 s), so the repair's cost, 6.6·10⁸, is within
// the free budget; on fgpwc-table1's full spambase RBF graph the factor
// is dense (10⁷ entries, 1.5·10¹⁰ multiply-adds, about 5 s), made because
// Lanczos had spent some 10¹¹ there.
//
// The shift σ = shiftInvertRelShift·‖L‖ lies a thousand times above the
// rounding error of L (ε·‖L‖), so that L + σI is numerically positive
// definite even with exact null vectors, and far below the resolution of
// the iterative solve (tol·‖L‖, 10⁻⁸‖L‖ by default), so that the
// operator's eigenvalues 1/(λ + σ) separate the eigenvalues the iterative
// solve could not: 10⁻¹² and 1.6·10⁻¹² of the spambase graph's L, whose
// ‖L‖ bound is 154, differ by 20% in 1/(λ+σ).
const (
	shiftInvertMaxEntries = 25_000_000
	shiftInvertMaxFlops   = 2e10
	shiftInvertFreeFlops  = 1e9
	shiftInvertProducts   = 100
	shiftInvertRelShift   = 1e-11
)

// shiftInvertBudget returns the multiply-adds shiftInvertEmbedding may
// spend under mode r (Settings.Repair) after an iterative solve of matVecs
// single-vector products with an operator of nnz stored entries on n
// nodes: for RepairAuto the work spent, 2·(nnz + n) per product, bounded
// below by shiftInvertFreeFlops and above by shiftInvertMaxFlops; for
// RepairAlways shiftInvertMaxFlops.
func shiftInvertBudget(r Repair, matVecs, nnz, n int) float64 {
	if r == RepairAlways {
		return shiftInvertMaxFlops
	}
	spent := float64(matVecs) * 2 * float64(nnz+n)
	return min(shiftInvertMaxFlops, max(shiftInvertFreeFlops, spent))
}

// shiftInvertCost is the cost shiftInvertBudget bounds: the factor's
// multiply-adds plus shiftInvertProducts products with it.
func shiftInvertCost(entries int64, flops float64) float64 {
	return flops + shiftInvertProducts*2*float64(entries)
}

// shiftInvertMargin is the number of pairs step 1 of shiftInvertEmbedding
// asks for beyond those the iterative solve found below its resolution.
const shiftInvertMargin = 4

// shiftInvertEmbedding solves the count smallest eigenpairs of the
// Laplacian op of g (kind Unnormalized or Symmetric, without
// regularization) when an iterative solve returned values with some in
// (0, floor), floor the solver's resolution tol·‖L‖. It works in two steps.
//
//  1. The eigenpairs below floor, by Lanczos on (L + σI)⁻¹
//     (graph.CholeskyInverse: a sparse Cholesky factor in minimum degree
//     order), the shift-and-invert transformation: the wanted eigenvalues
//     λ become the largest, 1/(λ + σ), and are resolved by their ratios
//     instead of their gaps relative to ‖L‖. It asks for as many pairs as
//     the iterative solve found below floor plus shiftInvertMargin, and
//     doubles the number (up to count) until the largest one it returns
//     lies at or above floor, so that none below floor is left out.
//  2. Step 1's pairs are accepted, in ascending order, while they lie below
//     floor or their residual on L meets the iterative solver's own test
//     (‖Lv − λv‖ ≤ tol·‖L‖). When fewer than count are accepted, the rest
//     are solved by the iterative solver on L with the accepted pairs
//     deflated: L restricted to their complement has no eigenvalue below
//     floor, so that solve is well resolved. Step 1 cannot serve for pairs
//     far above σ: its residuals are bounded relative to 1/σ, which
//     resolves nothing near λ ≈ 1 (measured: on spambase's k-NN graph, a
//     shift-and-invert solve of 129 pairs of L_sym returned wrong
//     eigenvalues near 0.78); but small counts are often accepted whole
//     (fgpwc-table1's full spambase graph, 11 pairs of L up to 2.3·10⁻³),
//     which saves step 2's solve.
//
// z (n×d, nil for none) holds the exact null vectors, deflated in both
// steps. norm is the bound of ‖L‖ (2·max degree for L, 2 for L_sym).
//
// It returns the eigenvalues (ascending, those of z exactly 0) and the
// eigenvectors, or nil and a reason when the factor exceeds the budget
// (shiftInvertMaxEntries stored values, maxFlops multiply-adds: see
// shiftInvertBudget) or a step fails; an error only when ctx is
// cancelled. Cost: the factor's analysis (graph.AnalyzeCholesky, stopped
// as soon as the factor exceeds the cap) and factorization, two
// triangular solves per product of step 1, and step 2's iterative solve.
func shiftInvertEmbedding(ctx context.Context, g *graph.Graph, op eigen.Operator, kind graph.LaplacianKind, count int, z *mat.Dense, first []float64, floor, norm, maxFlops float64, s *Settings) (values []float64, vectors *mat.Dense, why string, err error) {
	overBudget := func(size string) ([]float64, *mat.Dense, string, error) {
		return nil, nil, fmt.Sprintf("a shift-and-invert solve was not made: its factor would hold %s, above its budget of %d entries and %.2g (at most the work the iterative solve spent, at least %.2g; cluster.Settings.Repair = RepairAlways, or tether cluster -repair always, raises it to %.2g)", size, shiftInvertMaxEntries, maxFlops, shiftInvertFreeFlops, shiftInvertMaxFlops), nil
	}
	sym, err := graph.AnalyzeCholesky(ctx, g, shiftInvertMaxEntries)
	switch {
	case errors.Is(err, graph.ErrTooLarge):
		return overBudget(fmt.Sprintf("more than %d entries", shiftInvertMaxEntries))
	case err != nil:
		return nil, nil, "", fmt.Errorf("cluster: %w", err) // only ctx's
	}
	if cost := shiftInvertCost(sym.Entries(), sym.Flops()); sym.Stored() > shiftInvertMaxEntries || cost > maxFlops {
		return overBudget(fmt.Sprintf("%d entries and it would cost about %.2g multiply-adds", sym.Stored(), cost))
	}
	sigma := shiftInvertRelShift * norm
	inv, err := sym.Factor(ctx, g, kind, sigma)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, "", fmt.Errorf("cluster: %w", err)
		}
		return nil, nil, fmt.Sprintf("the shift-and-invert solve failed: %v", err), nil
	}
	d := 0
	if z != nil {
		_, d = z.Dims()
	}
	fail := func(err error) ([]float64, *mat.Dense, string, error) {
		if ctx.Err() != nil {
			return nil, nil, "", err
		}
		return nil, nil, fmt.Sprintf("the shift-and-invert solve failed: %v", err), nil
	}
	// Step 1: the pairs below floor.
	k := min(count, d+countBelow(first, floor)+shiftInvertMargin)
	var lo []float64
	var lov *mat.Dense
	for {
		p := eigen.Problem{A: inv, K: k, Which: eigen.Largest}
		if d > 0 {
			p.Deflate, p.DeflateValues = z, make([]float64, d)
			for i := range p.DeflateValues {
				p.DeflateValues[i] = 1 / sigma
			}
		}
		res, err := s.solve(ctx, p)
		if err != nil {
			return fail(err)
		}
		// Largest first: 1/(λ + σ) descending is λ ascending. The
		// deflated pairs carry 1/σ exactly and are exact zeros.
		lo = make([]float64, k)
		for j, mu := range res.Values {
			if mu != 1/sigma {
				lo[j] = math.Max(0, 1/mu-sigma)
			}
		}
		lov = res.Vectors
		if k == count || lo[k-1] >= floor {
			break
		}
		k = min(count, 2*k)
	}
	// Accepted: the longest prefix of pairs whose residual on L meets the
	// iterative solver's own test, ‖Lv − λv‖ ≤ tol·‖L‖ = floor, or that lie
	// below floor (whose residuals step 1 bounds by about tol·σ).
	low := acceptedPrefix(op, lo, lov, floor)
	if low == count {
		return lo, lov, "", nil
	}
	// Step 2: the rest, with the accepted pairs deflated (at least the
	// null vectors of z, when there are any).
	p := eigen.Problem{A: op, K: count, Which: eigen.Smallest}
	if low > 0 {
		p.Deflate, p.DeflateValues = mat.DenseCopyOf(lov.Slice(0, g.N(), 0, low)), lo[:low]
	}
	res, err := s.solve(ctx, p)
	if err != nil {
		return fail(err)
	}
	return res.Values, res.Vectors, "", nil
}

// acceptedPrefix returns the number of leading pairs (values ascending,
// vectors their columns) that lie below floor or whose residual
// ‖Av − λv‖ is at most floor. Cost: one product of A with the block.
func acceptedPrefix(a eigen.Operator, values []float64, vectors *mat.Dense, floor float64) int {
	n, k := vectors.Dims()
	av := mat.NewDense(n, k, nil)
	a.MulTo(av, vectors)
	for j, v := range values {
		if v < floor {
			continue
		}
		var r2 float64
		for i := 0; i < n; i++ {
			d := av.At(i, j) - v*vectors.At(i, j)
			r2 += d * d
		}
		if math.Sqrt(r2) > floor {
			return j
		}
	}
	return k
}
