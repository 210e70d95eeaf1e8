package cluster

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// Budget and shift of shiftInvertEmbedding. The envelope budget is 200 MB
// of factor and about ten seconds of factorization on this project's
// 2-core machine (2.3·10⁹ multiply-adds took half a second on
// fgpwc-table1's spambase graph); a larger envelope keeps the iterative
// solve and its warning. The shift σ = shiftInvertRelShift·‖L‖ lies a
// thousand times above the rounding error of L (ε·‖L‖), so that L + σI is
// numerically positive definite even with exact null vectors, and far
// below the resolution of the iterative solve (tol·‖L‖, 10⁻⁸‖L‖ by
// default), so that the operator's eigenvalues 1/(λ + σ) separate the
// eigenvalues the iterative solve could not: 10⁻¹² and 1.6·10⁻¹² of the
// spambase graph's L, whose ‖L‖ bound is 154, differ by 20% in 1/(λ+σ).
const (
	shiftInvertMaxEntries = 25_000_000
	shiftInvertMaxFlops   = 2e10
	shiftInvertRelShift   = 1e-11
)

// shiftInvertEmbedding solves the count smallest eigenpairs of the
// Laplacian of g of the given kind (Unnormalized or Symmetric, without
// regularization) by Lanczos on (L + σI)⁻¹ (graph.EnvelopeInverse: a
// sparse Cholesky factor in envelope storage), the shift-and-invert
// transformation: the wanted eigenvalues λ become the largest, 1/(λ + σ),
// and are resolved by their ratios instead of their gaps relative to ‖L‖.
// z (n×d, nil for none) holds the exact null vectors, deflated with
// eigenvalue 1/σ. g must already be in a banded order (laplacianEmbedding
// relabels graphs above DenseLimit in reverse Cuthill–McKee order). norm
// is the bound of ‖L‖ (2·max degree for L, 2 for L_sym).
//
// It returns the eigenvalues (ascending, those of z exactly 0) and the
// eigenvectors, or nil and a reason when the envelope exceeds the budget
// (shiftInvertMaxEntries, shiftInvertMaxFlops) or the factorization or
// the solve fails; an error only when ctx is cancelled. Cost: the
// envelope's factorization (graph.EnvelopeSize), then per Lanczos product
// two triangular solves of the envelope's size.
func shiftInvertEmbedding(ctx context.Context, g *graph.Graph, kind graph.LaplacianKind, count int, z *mat.Dense, norm float64, s *Settings) (values []float64, vectors *mat.Dense, why string, err error) {
	return shiftInvertEmbeddingWithin(ctx, g, kind, count, z, norm, s, shiftInvertMaxEntries, shiftInvertMaxFlops)
}

// shiftInvertEmbeddingWithin is shiftInvertEmbedding with the budget of
// maxEntries envelope entries and maxFlops multiply-adds.
func shiftInvertEmbeddingWithin(ctx context.Context, g *graph.Graph, kind graph.LaplacianKind, count int, z *mat.Dense, norm float64, s *Settings, maxEntries int64, maxFlops float64) (values []float64, vectors *mat.Dense, why string, err error) {
	entries, flops := graph.EnvelopeSize(g)
	if entries > maxEntries || flops > maxFlops {
		return nil, nil, fmt.Sprintf("a shift-and-invert solve would need a factor of %d entries and %.2g multiply-adds, above its budget of %d and %.2g", entries, flops, maxEntries, maxFlops), nil
	}
	sigma := shiftInvertRelShift * norm
	inv, err := graph.NewEnvelopeInverse(ctx, g, kind, sigma)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, "", fmt.Errorf("cluster: %w", err)
		}
		return nil, nil, fmt.Sprintf("the shift-and-invert solve failed: %v", err), nil
	}
	p := eigen.Problem{A: inv, K: count, Which: eigen.Largest}
	if z != nil {
		_, d := z.Dims()
		p.Deflate, p.DeflateValues = z, make([]float64, d)
		for i := range p.DeflateValues {
			p.DeflateValues[i] = 1 / sigma
		}
	}
	res, err := s.solve(ctx, p)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, "", err
		}
		return nil, nil, fmt.Sprintf("the shift-and-invert solve failed: %v", err), nil
	}
	// Largest first: 1/(λ + σ) descending is λ ascending. The deflated
	// pairs carry 1/σ exactly and are exact zeros.
	values = make([]float64, count)
	for j, mu := range res.Values {
		if mu != 1/sigma {
			values[j] = math.Max(0, 1/mu-sigma)
		}
	}
	return values, res.Vectors, "", nil
}
