package cluster

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
)

// NOASSC is Normalized One-against-All Supervised Spectral Clustering
// (NOA-SSC, seed 000 Alg. 7, §3.3): one MAVRO problem per class. For class
// c the labelled nodes ℓ_c are set against all other labelled nodes
// ℓ̄_c = ℓ \ ℓ_c with the two-class vector of eq. 3.2.4,
//
//	v_c(i) = √(d_i/vol(ℓ)) · √(vol(ℓ̄_c)/vol(ℓ_c))   for i ∈ ℓ_c,
//	v_c(i) = −√(d_i/vol(ℓ)) · √(vol(ℓ_c)/vol(ℓ̄_c))  for i ∈ ℓ̄_c,
//
// 0 elsewhere, and g_c is the dominant eigenvector of
// D^{-1/2}(W + γ D^{1/2} v_c v_cᵀ D^{1/2})D^{-1/2} − 2uuᵀ + I, oriented
// positive on ℓ_c. The rows of S = [g_1 … g_K] are scaled to unit length
// (eq. 3.3.3) and k-means (thesis Alg. 4) gives the clusters.
//
// The thesis prints eq. 3.3.2 (and the proof of Prop. 6) with index typos:
// every volume reads vol(ℓ_c), which would make both square-root ratios 1
// and break the zero row sums of Y_c = D^{1/2} v_c v_cᵀ D^{1/2}. We follow
// SPEC §6: the intended vector is eq. 3.2.4 with A₁ = ℓ_c and A₂ = ℓ̄_c, for
// which Σ_i √d_i v_c(i) = 0, so every Y_c keeps the degrees and the
// deflation by u is exact. For K = 2, v_2 = −v_1, both problems are
// MAVRO's, and the partition is MAVRO's sign split (seed 000 §3.4); g_2 =
// −g_1 is then not recomputed.
//
// It needs Problem.K ≥ 2 and Problem.Labels. A class 0…K−1 with no
// labelled node, or an unlabelled node of degree zero, is recovered from
// the NJW partition with a warning (labelrecover.go; beyond the source);
// with Strict, errors wrap ErrInvalid for the class and graph.ErrIsolated
// for the node instead. Pairwise constraints are not used (see MLNOASSC and
// MCLNOASSC).
//
// Result: Labels, Eigenvalues[c] = the dominant eigenvalue of class c's
// operator (in [0, 2+γ]), Embedding = S (n×K), Objective = k-means
// distortion, Iterations = k-means iterations.
//
// Cost: K dominant-eigenvector computations (one for K = 2) sharing one
// sparse block product per power iteration, O(nnz·K), then k-means in O(n·K²) per iteration.
type NOASSC struct {
	// Gamma is the supervision weight γ > 0. If Gamma is 0, the thesis's
	// 1.25 is used (seed 000 §3.4).
	Gamma float64 `doc:"supervision weight γ (0: 1.25)" range:"0 | (0, 1e6]"`
	// Tol is the power method's relative residual tolerance. If Tol is 0,
	// 1e-9 is used.
	Tol float64 `doc:"power-method tolerance (0: 1e-9)" range:"0 | [1e-15, 1)"`
	// MaxIter caps the power iterations per class. If MaxIter is 0, 3000
	// are allowed; when reached, the vector is computed by the eigensolver
	// of Settings instead, with a warning.
	MaxIter int `doc:"power-method iteration cap (0: default)" range:"[0, 1e9]"`
	// Eigensolver computes the vectors with the eigensolver of Settings
	// instead of the power method.
	Eigensolver bool `doc:"the eigensolver instead of the power method"`
	// Strict refuses (an error wrapping ErrInvalid) a class without a
	// labelled node, and a graph with an isolated node. The zero value
	// false recovers them from the spectral embedding, with a warning
	// (labelrecover.go).
	Strict bool `doc:"refuse a class with no labelled node or an isolated node instead of recovering it spectrally"`
}

// Name returns "noa-ssc".
func (NOASSC) Name() string { return "noa-ssc" }

// Uses declares what NOASSC reads from a Problem (see Run).
func (NOASSC) Uses() Uses { return Uses{Supervision: LabelSet} }

// Partition partitions p.Graph into p.K clusters.
func (m NOASSC) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, m, p, s)
	if err != nil {
		return nil, err
	}
	return m.cluster(ctx, p, s, "noa-ssc")
}

func (m NOASSC) cluster(ctx context.Context, p *Problem, s *Settings, name string) (*Result, error) {
	if m.Strict || p.K < 2 {
		return m.strict(ctx, p, s, name)
	}
	return recoverLabels(ctx, name, p, s, false, 2, func(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
		return m.strict(ctx, p, s, name)
	})
}

// strict is NOA-SSC proper: it refuses gaps in the labels.
func (m NOASSC) strict(ctx context.Context, p *Problem, s *Settings, name string) (*Result, error) {
	if p.K < 2 {
		return nil, fmt.Errorf("%w: %s needs k ≥ 2 (one class against the others), k = %d", ErrInvalid, name, p.K)
	}
	gamma, tol, maxIter, err := rankOneKnobs(name, m.Gamma, m.Tol, m.MaxIter)
	if err != nil {
		return nil, err
	}
	members, err := labelledClasses(name, p)
	if err != nil {
		return nil, err
	}
	g := p.Graph
	na, err := graph.NewNormalizedAdjacency(g)
	if err != nil {
		return nil, wrapMethod(name, err)
	}
	k := p.K
	u := sqrtDegreeUnit(g)
	// For k = 2, v_2 = −v_1 (ℓ̄_1 = ℓ_2), so both classes have the same
	// operator and g_2 = −g_1: only g_1 is computed, which also makes the
	// partition exactly MAVRO's sign split, even at entries near zero.
	nv := k
	if k == 2 {
		nv = 1
	}
	vs := make([][]float64, nv)
	for c := range vs {
		vs[c] = oneAgainstAll(g, members, c)
	}
	vecs, vals, warns, err := dominantVectors(ctx, na, u, vs, gamma, m.Eigensolver, tol, maxIter, s, streamPower)
	if err != nil {
		return nil, methodError(name, "class vectors g_c (eq. 3.3.3)", err)
	}
	sm := vecs
	if k == 2 {
		n := g.N()
		sm = mat.NewDense(n, 2, nil)
		for i := 0; i < n; i++ {
			x := vecs.At(i, 0)
			sm.Set(i, 0, x)
			sm.Set(i, 1, -x)
		}
		vals = []float64{vals[0], vals[0]}
	}
	res := &Result{K: k, Eigenvalues: vals}
	for _, w := range warns {
		res.Warnings = append(res.Warnings, name+": "+w)
	}
	if k == 2 {
		// Rows ±(1, −1)/√2 by the sign of g_1, rounding included, and
		// exact zeros kept: MAVRO's sign split, which the k = 2 case is
		// (thesis §3.4, Table 3.1), decides entries at rounding level by
		// their sign too.
		unitRows(sm)
	} else if w := zeroRowsWarning(name, normalizeRows(sm, max(tol, s.rowTol(g.N()))), g.N()); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	part, err := partition(ctx, sm, k, s, 10, nil)
	if err != nil {
		return nil, cancelledIn(name, "k-means on the class vectors", err)
	}
	res.Labels, res.Embedding, res.Objective, res.Iterations = part.Labels, part.Embedding, part.Objective, part.Iterations
	if _, nc := g.Components(); nc > 1 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: graph has %d connected components; the class vectors may mix their indicators", name, nc))
	}
	return res, nil
}

// oneAgainstAll returns NOA-SSC's v_c: the two-class vector of eq. 3.2.4
// with A₁ = the labelled nodes of class c and A₂ = all other labelled nodes
// (eq. 3.3.2 with its typos resolved, SPEC §6).
func oneAgainstAll(g *graph.Graph, members [][]int, c int) []float64 {
	var rest []int
	for j, m := range members {
		if j != c {
			rest = append(rest, m...)
		}
	}
	return twoClassVector(g, members[c], rest)
}
