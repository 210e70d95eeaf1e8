package cluster

import (
	"context"
	"fmt"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// SpectralLearning is the Spectral Learning method of Kamvar, Klein and
// Manning (2003) as given in seed 000 §4.1.1: the constraints overwrite the
// affinity, W_ij ← 1 for a must-link and W_ij ← 0 for a cannot-link (a
// must-link between non-adjacent nodes adds the edge), and k-means runs on
// the K largest eigenvectors of eq. 4.1.1,
//
//	N = (W + d_max I − D) / d_max = I − L/d_max,
//
// with d_max the largest degree of the modified graph (N = I when no edge
// is left, d_max = 0). N and L = D − W have the same eigenvectors, the
// largest of N being the smallest of L (seed 000 §4.1.1 shows σ = 1 −
// λ/d_max), so the embedding is computed as the K
// smallest eigenvectors of L, with the component deflation of the other
// Laplacian methods. As in step 4 of Kamvar et al. (after Ng, Jordan and
// Weiss) the rows are scaled to unit length before k-means; the thesis's
// summary omits that step.
//
// Supervision: Problem.Constraints; Problem.Labels, when given, are
// converted with constraint.FromLabels (every labelled pair, O(L²) pairs
// for L labels). A pair given as both must-link and cannot-link is an
// error wrapping ErrInvalid; so is no supervision at all.
//
// Soft constraints (beyond Kamvar et al., whose constraints are hard): a
// pair of confidence c = min(1, Σ Pair.W()) (its copies' weights summed)
// moves the affinity that far towards Kamvar et al.'s value, W_ij ←
// (1 − c)·W_ij + c·MustLinkWeight for a must-link and (1 − c)·W_ij for a
// cannot-link, the convex combination of the graph's affinity and the
// overwrite. Unit weights (and any confidence of 1 or more) give Kamvar
// et al.'s overwrite exactly (TestSpectralLearningSoftPairs); a pair of
// weight 10⁻⁹ barely moves its entry.
//
// Result: Labels, Eigenvalues = the K largest eigenvalues σ of N in
// descending order, Embedding (n×K, rows normalized), Objective = k-means
// distortion.
//
// Cost: O(nnz + pairs) to rebuild the graph, a partial eigendecomposition
// of L, and k-means.
type SpectralLearning struct {
	// MustLinkWeight is the affinity given to must-linked pairs. If
	// MustLinkWeight is 0, 1 is used (seed 000 §4.1.1; the largest RBF or
	// cosine similarity).
	MustLinkWeight float64 `doc:"affinity given to must-linked pairs (0: 1)" range:"0 | (0, 1e12]"`
	// FewestViolations keeps, of the k-means runs, the one that violates
	// the least constraint weight instead of the one of lowest distortion
	// (Kamvar et al.'s plain k-means): the protocol of seed 003 §5.1,
	// which the fgpwc-table1 reproduction applies to every method.
	FewestViolations bool `doc:"keep the k-means run violating the fewest constraints, not the lowest-distortion one (seed 003 §5.1)"`
}

// Name returns "sl".
func (SpectralLearning) Name() string { return "sl" }

// Uses declares what SpectralLearning reads from a Problem (see Run).
// It declares WeightScale: a must-link weighs MustLinkWeight (1 by
// default, Kamvar et al.'s largest similarity) whatever the edges weigh.
func (SpectralLearning) Uses() Uses {
	return Uses{Supervision: Pairs, NeedsPairs: true, Core: true,
		WeightScale: "must-links weigh MustLinkWeight (1 by default, the largest similarity of Kamvar et al. 2003) against the edges"}
}

// Partition partitions p.Graph into p.K clusters.
func (m SpectralLearning) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, m, p, s)
	if err != nil {
		return nil, err
	}
	wml := m.MustLinkWeight
	if wml == 0 {
		wml = 1
	}
	if !(wml > 0) || wml > 1e300 {
		return nil, fmt.Errorf("%w: sl: must-link weight %v must be positive and finite", ErrInvalid, m.MustLinkWeight)
	}
	pairs, pairWarnings, err := supervisionPairsContext(ctx, "sl", p, s, allPairs)
	if err != nil {
		return nil, err
	}
	if len(pairs) == 0 {
		return nil, noSupervision("sl needs pairwise constraints or labels: %s", noPairText(p))
	}
	set := &constraint.Set{N: p.Graph.N(), Pairs: pairs}
	g2, err := constrainedAffinity(ctx, p.Graph, set, wml, true, "sl", s)
	if err != nil {
		return nil, err
	}
	e, err := laplacianEmbedding(ctx, g2, graph.Unnormalized, p.K, exactLaplacian, s)
	if err != nil {
		return nil, cancelledIn("sl", "eigenvectors of the constrained Laplacian", err)
	}
	dmax := g2.MaxDegree()
	sigma := make([]float64, len(e.values))
	for j, l := range e.values {
		sigma[j] = 1
		if dmax > 0 {
			// Without an edge left (the cannot-links removed them
			// all) W = D = 0 and N is the limit d_max I/d_max = I.
			sigma[j] = 1 - l/dmax
		}
	}
	x := e.vectors
	if w := zeroRowsWarning("sl", normalizeRows(x, s.rowTol(g2.N())), g2.N()); w != "" {
		e.warnings = append(e.warnings, w)
	}
	var sel func([]int) float64
	if m.FewestViolations {
		sel = violationSelect(pairs)
	}
	res, err := partition(ctx, x, p.K, s, 10, sel)
	if err != nil {
		return nil, cancelledIn("sl", "k-means on the eigenvectors", err)
	}
	res.Eigenvalues, res.Warnings = sigma, append(pairWarnings, e.warnings...)
	return res, nil
}
