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
// ‖L‖ bound is 154 (σ = 1.54·10⁻⁹), have images 1/(λ + σ) that differ
// by about 6·10⁻¹³/σ² ≈ 2.5·10⁵, where the solve's resolution is
// tol/σ ≈ 6.5.
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
// asks for beyond those the iterative solve found below its resolution;
// shiftInvertRounds bounds the rounds of its step 2.
// shiftInvertAfter is the number of restarts after which
// laplacianEmbedding hands a Lanczos solve that has not converged to
// shift-and-invert, when the factor fits the budget.
const (
	shiftInvertMargin = 4
	shiftInvertRounds = 3
	shiftInvertAfter  = 100
)

// shiftInvertEmbedding solves the count smallest eigenpairs of the
// Laplacian op of g (kind Unnormalized or Symmetric, without
// regularization) again when an iterative solve returned values with some
// in (0, floor), floor the solver's resolution tol·‖L‖, or did not
// converge (failed). It works in two steps, with sparse Cholesky factors
// of L + σI (graph.CholeskyInverse, minimum degree order; the analysis is
// shared by both steps).
//
//  1. Only when values lie below floor: those eigenpairs, by Lanczos on
//     (L + σI)⁻¹ with σ = shiftInvertRelShift·‖L‖, the shift-and-invert
//     transformation: the wanted eigenvalues λ become the largest,
//     1/(λ + σ), and are resolved by their ratios instead of their gaps
//     relative to ‖L‖. It asks for as many pairs as the iterative solve
//     found below floor plus shiftInvertMargin, and doubles the number (up
//     to count) until the largest one it returns lies at or above floor,
//     so that none below floor is left out. Its pairs are accepted, in
//     ascending order, while they lie below floor or their residual on L
//     meets the iterative solver's own test (‖Lv − λv‖ ≤ tol·‖L‖). Step 1
//     cannot serve for pairs far above σ: its residuals are bounded
//     relative to 1/σ, which resolves nothing near λ ≈ 1 (measured: on
//     spambase's k-NN graph, a shift-and-invert solve of 129 pairs of
//     L_sym returned wrong eigenvalues near 0.78); but small counts are
//     often accepted whole (fgpwc-table1's full spambase graph, 11 pairs of
//     L up to 2.3·10⁻³), which saves step 2.
//  2. The rest, with the accepted pairs (at least z) deflated: by the
//     iterative solver on L, whose restriction to their complement has no
//     eigenvalue below floor, unless the first solve failed to converge or
//     this one does; then by rounds (at most rounds, shiftInvertRounds
//     for a repair) of Lanczos
//     on (L + σ_r I)⁻¹ for all count pairs with the accepted ones deflated,
//     σ_1 = shiftInvertRelShift·‖L‖ or the largest accepted eigenvalue, each
//     round accepting the pairs that pass the residual test above and
//     moving σ to the largest of them. Small eigenvalues clustered
//     relative to ‖L‖, where Lanczos on L converges slowly, are separated
//     by their ratios there (measured: on a 5000-node path, Lanczos on L
//     reaches 1000 restarts with residual 3·10⁻⁴ for 14 pairs; one round
//     gives the closed-form eigenvalues: TestShiftInvertRepairsNoConvergence).
//
// z (n×d, nil for none) holds the exact null vectors, deflated in both
// steps. norm is the bound of ‖L‖ (2·max degree for L, 2 for L_sym).
//
// It returns the eigenvalues (ascending, those of z exactly 0) and the
// eigenvectors, or nil and a reason when the factors exceed the budget
// (shiftInvertMaxEntries stored values, maxFlops multiply-adds: see
// shiftInvertBudget) or a step fails; an error only when ctx is
// cancelled. Cost: the factor's analysis (graph.AnalyzeCholesky, stopped
// as soon as the factor exceeds the cap), one or two factorizations, two
// triangular solves per product of their Lanczos solves, and possibly
// step 2's iterative solve.
func shiftInvertEmbedding(ctx context.Context, g *graph.Graph, op eigen.Operator, kind graph.LaplacianKind, count int, z *mat.Dense, first []float64, floor, norm, maxFlops float64, failed bool, rounds int, perValue bool, s *Settings) (values []float64, vectors *mat.Dense, why string, err error) {
	overBudget := func(size string) ([]float64, *mat.Dense, string, error) {
		return nil, nil, fmt.Sprintf("a shift-and-invert solve was not made: its factor would hold %s, above its budget of %d entries and %.2g (at most the work the iterative solve spent, at least %.2g; cluster.Settings.Repair = RepairAlways%s raises it to %.2g)", size, shiftInvertMaxEntries, maxFlops, shiftInvertFreeFlops, inParens(s.front("repair", "always")), shiftInvertMaxFlops), nil
	}
	sym, err := graph.AnalyzeCholesky(ctx, g, shiftInvertMaxEntries)
	switch {
	case errors.Is(err, graph.ErrTooLarge):
		return overBudget(fmt.Sprintf("more than %d entries", shiftInvertMaxEntries))
	case err != nil:
		return nil, nil, "", fmt.Errorf("cluster: %w", err) // only ctx's
	}
	tiny := countBelow(first, floor) > 0
	cost := shiftInvertCost(sym.Entries(), sym.Flops()) // of one factorization and its solve
	if sym.Stored() > shiftInvertMaxEntries || cost > maxFlops {
		return overBudget(fmt.Sprintf("%d entries and it would cost about %.2g multiply-adds", sym.Stored(), cost))
	}
	spent := 0.0
	fail := func(err error) ([]float64, *mat.Dense, string, error) {
		if ctx.Err() != nil {
			return nil, nil, "", fmt.Errorf("cluster: %w", err)
		}
		return nil, nil, fmt.Sprintf("the shift-and-invert solve failed: %v", err), nil
	}
	n, d := g.N(), 0
	if z != nil {
		_, d = z.Dims()
	}
	// Accepted pairs so far: values ascending, vectors as columns.
	lo, lov := make([]float64, d), z
	keep := func(values []float64, vectors *mat.Dense, low int) {
		if low == 0 {
			lo, lov = nil, nil
			return
		}
		lo, lov = values[:low], mat.DenseCopyOf(vectors.Slice(0, n, 0, low))
	}
	if tiny {
		values, vectors, low, err := shiftInvertTiny(ctx, sym, g, kind, count, z, first, floor, norm, op, s)
		if err != nil {
			return fail(err)
		}
		spent += cost
		if low == count {
			return values, vectors, "", nil
		}
		keep(values, vectors, low)
		if !failed {
			p := eigen.Problem{A: op, K: count, Which: eigen.Smallest}
			if len(lo) > 0 {
				p.Deflate, p.DeflateValues = lov, lo
			}
			res, err := s.solve(ctx, p)
			if err == nil {
				return res.Values, res.Vectors, "", nil
			}
			if !errors.Is(err, eigen.ErrNoConvergence) || ctx.Err() != nil {
				return fail(err)
			}
		}
	}
	// Rounds of shift-and-invert for all count pairs with the accepted ones
	// deflated, the shift at the largest accepted eigenvalue.
	sigma := shiftInvertRelShift * norm
	if len(lo) > 0 {
		sigma = math.Max(sigma, lo[len(lo)-1])
	}
	for round := 0; len(lo) < count; round++ {
		if round == rounds {
			return fail(fmt.Errorf("%d of %d eigenpairs resolved after %d rounds", len(lo), count, round))
		}
		if spent+cost > maxFlops {
			return fail(fmt.Errorf("%d of %d eigenpairs resolved, and another factorization would exceed the budget of %.2g multiply-adds", len(lo), count, maxFlops))
		}
		inv, err := sym.Factor(ctx, g, kind, sigma)
		if err != nil {
			return fail(err)
		}
		spent += cost
		values, vectors, err := invertedSolve(ctx, inv, count, lo, lov, perValue, s)
		if err != nil {
			return fail(err)
		}
		low := acceptedPrefix(op, values, vectors, floor)
		if low <= len(lo) {
			return fail(fmt.Errorf("no eigenpair beyond the %d accepted met the residual test on %v in round %d (shift %.3g)", len(lo), kind, round+1, sigma))
		}
		if low == count {
			return values, vectors, "", nil
		}
		keep(values, vectors, low)
		sigma = lo[len(lo)-1]
	}
	return lo, lov, "", nil
}

// shiftInvertTiny is step 1 of shiftInvertEmbedding: the pairs below floor
// by Lanczos on (L + σI)⁻¹, σ = shiftInvertRelShift·norm, with z deflated.
// It returns its values (ascending), vectors, and how many of them are
// accepted (acceptedPrefix).
func shiftInvertTiny(ctx context.Context, sym *graph.CholeskySymbolic, g *graph.Graph, kind graph.LaplacianKind, count int, z *mat.Dense, first []float64, floor, norm float64, op eigen.Operator, s *Settings) ([]float64, *mat.Dense, int, error) {
	sigma := shiftInvertRelShift * norm
	inv, err := sym.Factor(ctx, g, kind, sigma)
	if err != nil {
		return nil, nil, 0, err
	}
	d := 0
	if z != nil {
		_, d = z.Dims()
	}
	k := min(count, d+countBelow(first, floor)+shiftInvertMargin)
	var lo []float64
	var lov *mat.Dense
	for {
		if lo, lov, err = invertedSolve(ctx, inv, k, make([]float64, d), z, false, s); err != nil {
			return nil, nil, 0, err
		}
		if k == count || lo[k-1] >= floor {
			break
		}
		k = min(count, 2*k)
	}
	// Accepted: the longest prefix of pairs whose residual on L meets the
	// iterative solver's own test, ‖Lv − λv‖ ≤ tol·‖L‖ = floor, or that lie
	// below floor (whose residuals step 1 bounds by about tol·σ).
	return lo, lov, acceptedPrefix(op, lo, lov, floor), nil
}

// invertedSolve returns the k smallest eigenpairs of L from the k largest
// of inv = (L + σI)⁻¹ by Lanczos, values ascending: λ = 1/μ − σ. The pairs
// (known, their values ascending; knownVecs nil for none) are deflated
// with their images 1/(λ + σ) and returned with their values exactly.
// With perValue (and above DenseLimit nodes, where the solver is Lanczos)
// the solve is eigen.Lanczos with PerValue and half s's tolerance tol, so
// that every pair returned meets acceptedPrefix's residual test on L,
// ‖Lv − λv‖ ≤ tol·norm with norm the bound of ‖L‖ (2 for L_sym, 2·max
// degree for L): its residual r on inv, at most tol/2 times its value μ,
// gives ‖Lv − λv‖ = ‖(L + σI)r‖/μ ≤ (‖L‖ + σ)·tol/2. Without it, s's
// solver and tolerance, relative to ‖inv‖ = 1/(λ_min + σ), resolve the
// pairs of larger λ only to tol·(λ + σ)/(λ_min + σ) relative to ‖L‖
// (measured: on 10⁵ moons points, one round resolved 191 of 201 pairs of
// L_sym).
func invertedSolve(ctx context.Context, inv *graph.CholeskyInverse, k int, known []float64, knownVecs *mat.Dense, perValue bool, s *Settings) ([]float64, *mat.Dense, error) {
	sigma := inv.Shift()
	p := eigen.Problem{A: inv, K: k, Which: eigen.Largest}
	exact := make(map[float64]float64, len(known)) // a deflated image → its eigenvalue
	if len(known) > 0 {
		p.Deflate, p.DeflateValues = knownVecs, make([]float64, len(known))
		for j, v := range known {
			p.DeflateValues[j] = 1 / (v + sigma)
			exact[p.DeflateValues[j]] = v
		}
	}
	var res *eigen.Result
	var err error
	if solver, ok := autoSolver(inv.Dim()).(eigen.Lanczos); ok && perValue {
		// autoSolver's Lanczos (the one s.solve would pick: the repair
		// and invertFirst require Settings.Eigen nil) with the test
		// relative to each value.
		es := s.eigenSettings()
		es.Tol /= 2
		solver.PerValue = true
		res, err = solver.Solve(ctx, p, &es)
		res, err = checkSolve(solver, res, err)
	} else {
		res, err = s.solve(ctx, p)
	}
	if err != nil {
		return nil, nil, err
	}
	// Largest first: 1/(λ + σ) descending is λ ascending.
	values := make([]float64, k)
	for j, mu := range res.Values {
		if v, ok := exact[mu]; ok {
			values[j] = v
		} else {
			values[j] = math.Max(0, 1/mu-sigma)
		}
	}
	return values, res.Vectors, nil
}

// acceptedPrefix returns the number of leading pairs (values ascending,
// vectors their columns) that lie below floor or whose residual
// ‖Av − λv‖ is at most floor. Cost: one product of A with the block,
// acceptedBlock columns at a time (two n×acceptedBlock buffers), stopping
// at the block of the first pair that fails.
func acceptedPrefix(a eigen.Operator, values []float64, vectors *mat.Dense, floor float64) int {
	n, k := vectors.Dims()
	bw := min(k, acceptedBlock)
	if bw == 0 {
		return 0
	}
	x, av := mat.NewDense(n, bw, nil), mat.NewDense(n, bw, nil)
	for lo := 0; lo < k; lo += bw {
		w := min(bw, k-lo)
		if w < bw {
			x, av = mat.NewDense(n, w, nil), mat.NewDense(n, w, nil)
		}
		x.Copy(vectors.Slice(0, n, lo, lo+w))
		a.MulTo(av, x)
		for j := range w {
			v := values[lo+j]
			if v < floor {
				continue
			}
			var r2 float64
			for i := 0; i < n; i++ {
				d := av.At(i, j) - v*x.At(i, j)
				r2 += d * d
			}
			if math.Sqrt(r2) > floor {
				return lo + j
			}
		}
	}
	return k
}

// acceptedBlock is the number of columns acceptedPrefix multiplies at a
// time.
const acceptedBlock = 32
