package cluster

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// cscapPropagate returns W̄ = W − WU(I + UᵀWU)⁻¹UᵀW (thesis eq. 4.2.12) in
// whichever of two exact forms costs fewer flops for n nodes and q pairs:
// the Woodbury form (woodbury: a q×q system, q³/3 + 2q²n + 2n²q) or the
// direct form (cscapDirect: an n×n system, 8n³/3), which wins once q
// exceeds about 0.6·n. The two agree to rounding
// (TestCSCAPDirectMatchesWoodbury). ctx is checked first and inside
// both forms (see cscapDirect and woodbury). m (nil: none) takes the
// steps of the form used, of total cost cscapPropagateCost.
func cscapPropagate(ctx context.Context, w *mat.SymDense, pairs []constraint.Pair, epsM, epsC float64, m *meter) (*mat.SymDense, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if cscapDirectCheaper(w.SymmetricDim(), len(pairs)) {
		return cscapDirect(ctx, w, pairs, epsM, epsC, m)
	}
	return woodbury(ctx, w, pairs, epsM, epsC, m)
}

// cscapPropagateCost is the estimated cost of cscapPropagate for n nodes
// and q pairs (in the units of cscapCostEntry): woodburyCosts' total, or
// that of cscapDirectCosts.
func cscapPropagateCost(n, q int) float64 {
	if cscapDirectCheaper(n, q) {
		return cscapDirectCosts(n, q).total()
	}
	return woodburyCosts(n, q).total()
}

// cscapDirectCost holds the estimated costs of cscapDirect's steps.
type cscapDirectCost struct {
	system, factor, solve, symmetrize float64
}

// cscapDirectCosts returns the estimated costs of cscapDirect's steps for
// n nodes and q pairs: the system (n·q entries of W read), the LU
// factorization (2n³/3 flops, and its condition estimate, which does not
// tick: n² entries), the solve (2n³) and the symmetrization (n²/2 raw
// entries, a tenth of an entry read through At).
func cscapDirectCosts(n, q int) cscapDirectCost {
	nf, qf := float64(n), float64(q)
	return cscapDirectCost{
		system:     cscapCostEntry * nf * qf,
		factor:     2*nf*nf*nf/3 + cscapCostEntry*nf*nf,
		solve:      2 * nf * nf * nf,
		symmetrize: cscapCostEntry * nf * nf / 20,
	}
}

// total is the cost of all of cscapDirect's steps.
func (c cscapDirectCost) total() float64 { return c.system + c.factor + c.solve + c.symmetrize }

// cscapDirectCheaper reports whether the direct form of the propagation
// (8n³/3 flops) is cheaper than the Woodbury form (q³/3 + 2q²n + 2n²q)
// for n nodes and q pairs.
func cscapDirectCheaper(n, q int) bool {
	nf, qf := float64(n), float64(q)
	return qf*qf*qf/3+2*qf*qf*nf+2*nf*nf*qf > 8*nf*nf*nf/3
}

// cscapDirect returns W̄ = W − WU(I + UᵀWU)⁻¹UᵀW, with U as in woodbury,
// by the push-through identity W̄ = (I + WUUᵀ)⁻¹W: M = UUᵀ has 2×2 blocks
// c_t²(e_i ± e_j)(e_i ± e_j)ᵀ, so I + WM is formed column by column in
// O(n·q), factorized by LU with partial pivoting (I + WM has the
// eigenvalues 1 + λ(W^{1/2}MW^{1/2}) ≥ 1 when W ⪰ 0, so it is
// invertible) and solved for the n columns of W; the result is
// symmetrized, as woodbury's is. Cost 8n³/3 flops and two n×n matrices
// beside W (A, which then holds the solution and the result, and the
// factorization's copy of it), whatever q, against woodbury's q³/3 + 2q²n + 2n²q: at n = 950
// and q = 4750 (5n pairs) about 40× fewer flops. An ill-conditioned
// system (condition above 1e14, W far from positive semidefinite) is an
// error, as in woodbury's LU fallback. ctx is checked between the blocks
// of the factorization and of the solve (luFactorContext, solveContext:
// the numbers of mat.LU) and between the triangular solves of the
// condition estimate between them (geconContext: 1.1–1.7 s in all at
// n = 6000 on the 2-core machine), and every cscapRowPoll rows of the
// symmetrization (cscapRowCheck). m (nil: none) takes the steps, of the
// costs of cscapDirectCosts.
func cscapDirect(ctx context.Context, w *mat.SymDense, pairs []constraint.Pair, epsM, epsC float64, m *meter) (*mat.SymDense, error) {
	n := w.SymmetricDim()
	if len(pairs) == 0 {
		out := mat.NewSymDense(n, nil)
		out.CopySym(w)
		return out, nil
	}
	cost := cscapDirectCosts(n, len(pairs))
	a, err := cscapDirectSystem(ctx, w, pairs, epsM, epsC, m.step(fmt.Sprintf("system I + WUUᵀ (%d pairs)", len(pairs)), cost.system))
	if err != nil {
		return nil, err
	}
	raw := a.RawMatrix()
	lu, err := luFactorContext(ctx, a, m.step(fmt.Sprintf("LU factorization of I + WUUᵀ (%d×%[1]d)", n), cost.factor))
	if err != nil {
		return nil, err
	}
	if cond := lu.cond; math.IsInf(cond, 1) || cond > 1e14 {
		return nil, fmt.Errorf("cluster: cscap: I + WUUᵀ is singular (condition %.3g): W is far from positive semidefinite", cond)
	}
	// The factorization holds its own copy of A, so A's storage takes the
	// solution X and then, symmetrized in place (each pair i < j read
	// once; (x + x)/2 = x on the diagonal), the result: two n×n matrices
	// beside W instead of four, the same values.
	x := mat.NewDense(n, n, raw.Data)
	if err := lu.solveContext(ctx, x, w, m.step(fmt.Sprintf("solve of I + WUUᵀ for the %d columns of W", n), cost.solve)); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("cluster: cscap: solving I + WUUᵀ: %w", err)
	}
	m.step("W̄, symmetrized", cost.symmetrize)
	if err := symmetrizeInPlace(ctx, raw.Data, n); err != nil {
		return nil, err
	}
	return mat.NewSymDense(n, raw.Data), nil
}

// symmetrizeInPlace sets both x_ij and x_ji of the n×n row-major x to
// (x_ij + x_ji)/2, each pair i < j read once ((x + x)/2 = x on the
// diagonal). ctx is checked every cscapRowPoll rows (cscapRowCheck); the
// error is ctx.Err(), x then set part way. Cost O(n²).
func symmetrizeInPlace(ctx context.Context, x []float64, n int) error {
	for i := 0; i < n; i++ {
		if err := cscapRowCheck(ctx, i); err != nil {
			return err
		}
		for j := i + 1; j < n; j++ {
			v := (x[i*n+j] + x[j*n+i]) / 2
			x[i*n+j], x[j*n+i] = v, v
		}
	}
	return nil
}

// cscapDirectSystem returns A = I + WM of cscapDirect, M = UUᵀ: pair t
// adds c_t²·v_t to column i and ±c_t²·v_t to column j, with v_t = W e_i ±
// W e_j. Cost O(n·q) and one n×n matrix (1.2 s for n = 6000, q = 24000
// on the 2-core machine); ctx is checked, and tk (nil: none) told the
// fraction of the pairs done, every cscapPairPoll pairs, and the error is
// ctx.Err().
func cscapDirectSystem(ctx context.Context, w *mat.SymDense, pairs []constraint.Pair, epsM, epsC float64, tk tick) (*mat.Dense, error) {
	n := w.SymmetricDim()
	a := mat.NewDense(n, n, nil)
	raw := a.RawMatrix()
	for t := range pairs {
		if t%cscapPairPoll == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			tk.at(float64(t) / float64(len(pairs)))
		}
		pr := pairs[t]
		sign, coef := cscapColumn(pr, epsM, epsC)
		c2 := coef * coef
		for r := 0; r < n; r++ {
			v := c2 * (w.At(r, pr.I) + sign*w.At(r, pr.J))
			row := raw.Data[r*raw.Stride : r*raw.Stride+n]
			row[pr.I] += v
			row[pr.J] += sign * v
		}
	}
	for i := 0; i < n; i++ {
		raw.Data[i*raw.Stride+i]++
	}
	tk.at(1)
	return a, nil
}

// cscapColumn returns the sign and scale of column t of U for pair pr:
// U's column is coef·(e_i + sign·e_j), coef = √w_t/ε_m and sign −1 for a
// must-link, √w_t/ε_c and +1 for a cannot-link (thesis eq. 4.2.12).
func cscapColumn(pr constraint.Pair, epsM, epsC float64) (sign, coef float64) {
	if pr.Kind == constraint.CannotLink {
		return 1, math.Sqrt(pr.W()) / epsC
	}
	return -1, math.Sqrt(pr.W()) / epsM
}
