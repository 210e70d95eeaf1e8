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

// defaultGamma is the supervision weight γ of MAVRO, the Mavroeidis k-way
// method and NOA-SSC when their Gamma is 0: the value of the thesis
// experiments (seed 000 §3.4, "we simply set it to 1.25").
const defaultGamma = 1.25

// twoClassVector returns the supervision vector of seed 000 eq. 3.2.4 for
// the labelled sets a1 and a2 (both non-empty, positive degrees):
//
//	v(i) = √(d_i/vol(A)) · √(vol(A₂)/vol(A₁))   for i ∈ A₁,
//	v(i) = −√(d_i/vol(A)) · √(vol(A₁)/vol(A₂))  for i ∈ A₂,
//
// 0 elsewhere, A = A₁ ∪ A₂. It has unit norm and Σ_i √d_i v(i) = 0, so
// Y = D^{1/2} v vᵀ D^{1/2} has zero row sums: the degrees are unchanged.
// NOA-SSC's v_c (eq. 3.3.2) is this vector with A₁ = ℓ_c, A₂ = ℓ \ ℓ_c.
func twoClassVector(g *graph.Graph, a1, a2 []int) []float64 {
	var vol1, vol2 float64
	for _, i := range a1 {
		vol1 += g.Degree(i)
	}
	for _, i := range a2 {
		vol2 += g.Degree(i)
	}
	vol := vol1 + vol2
	v := make([]float64, g.N())
	f1, f2 := math.Sqrt(vol2/vol1), math.Sqrt(vol1/vol2)
	for _, i := range a1 {
		v[i] = math.Sqrt(g.Degree(i)/vol) * f1
	}
	for _, i := range a2 {
		v[i] = -math.Sqrt(g.Degree(i)/vol) * f2
	}
	return v
}

// MAVRO is the 2-cluster semi-supervised spectral method of Mavroeidis
// (2010) as given in seed 000 Alg. 6 (§3.2.2): the labels of the two
// classes enter as the rank-one update γY of the affinity, with
// Y = D^{1/2} v vᵀ D^{1/2} and v of eq. 3.2.4 (Y's rows sum to zero, so the
// degrees do not change), and the semi-supervised Fiedler vector is the
// dominant eigenvector of
//
//	L̄ = D^{-1/2}(W + γY)D^{-1/2} − 2uuᵀ + I,  u = D^{1/2}1/‖D^{1/2}1‖,
//
// found by the power method; nodes with a positive entry form cluster 0
// (the side of class 0's labelled nodes) and the others cluster 1. The
// operator is applied as sparse plus rank two; no n×n matrix is formed.
//
// It needs Problem.K = 2 and Problem.Labels. A class with no labelled
// node, or an unlabelled node of degree zero (D^{-1/2} is undefined
// there), is recovered from the NJW partition with a warning
// (labelrecover.go; beyond the source); with Strict, errors wrap
// ErrInvalid and graph.ErrIsolated instead. On a disconnected graph the
// vector may mix the components' indicator vectors: a warning says so.
//
// Result: Labels, Eigenvalues = {dominant eigenvalue of L̄}, Embedding = the
// n×1 vector (unit norm, positive on class 0's labelled side), Objective
// 0: the partition is the vector's sign, which minimizes no objective over
// partitions (the vector's own quotient is the eigenvalue).
//
// Cost: O(nnz + n) per power iteration; the number of iterations falls as
// the gap between the two largest eigenvalues of L̄ grows, which is what the
// supervision does (seed 000 §3.2).
type MAVRO struct {
	// Gamma is the supervision weight γ > 0. If Gamma is 0, 1.25 (seed 000 §3.4).
	Gamma float64 `doc:"supervision weight γ (0: 1.25)" range:"0 | (0, 1e6]"`
	// Tol is the power method's relative residual tolerance
	// ‖L̄x − λx‖ ≤ Tol·λ. If Tol is 0, 1e-9 is used.
	Tol float64 `doc:"power-method tolerance (0: 1e-9)" range:"0 | [1e-15, 1)"`
	// MaxIter caps the power iterations. If MaxIter is 0, 3000 are allowed.
	// When the cap is reached the vector is computed by the eigensolver of
	// Settings instead, with a warning.
	MaxIter int `doc:"power-method iteration cap (0: default)" range:"[0, 1e9]"`
	// Eigensolver computes the vector with the eigensolver of Settings
	// (Lanczos, or dense for small n) instead of the power method.
	Eigensolver bool `doc:"the eigensolver instead of the power method"`
	// Strict refuses a class without a labelled node and an isolated node
	// instead of recovering them (labelrecover.go).
	Strict bool `doc:"refuse a class with no labelled node or an isolated node instead of recovering it spectrally"`
}

// Name returns "mavro".
func (MAVRO) Name() string { return "mavro" }

// Uses declares what MAVRO reads from a Problem (see Run). It declares
// NoKEigensolve: it computes one vector, the semi-supervised Fiedler
// vector (eq. 3.2.4), by the power method or Eigensolver, for its k = 2.
func (MAVRO) Uses() Uses { return Uses{Supervision: LabelSet, MinK: 2, MaxK: 2, NoKEigensolve: true} }

// Partition splits p.Graph in two.
func (m MAVRO) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, m, p, s)
	if err != nil {
		return nil, err
	}
	if p.K != 2 {
		return nil, fmt.Errorf("%w: mavro is the 2-cluster method (seed 000 Alg. 6), k = %d: use mavro-k or noa-ssc", ErrInvalid, p.K)
	}
	if m.Strict {
		return m.strict(ctx, p, s)
	}
	return recoverLabels(ctx, "mavro", p, s, false, 2, m.strict)
}

// strict is MAVRO proper: it refuses gaps in the labels.
func (m MAVRO) strict(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	gamma, tol, maxIter, err := rankOneKnobs("mavro", m.Gamma, m.Tol, m.MaxIter)
	if err != nil {
		return nil, err
	}
	members, err := labelledClasses("mavro", p)
	if err != nil {
		return nil, err
	}
	g := p.Graph
	na, err := graph.NewNormalizedAdjacency(g)
	if err != nil {
		return nil, fmt.Errorf("cluster: mavro: %w", err)
	}
	u := sqrtDegreeUnit(g)
	v := twoClassVector(g, members[0], members[1])
	vecs, vals, warns, err := dominantVectors(ctx, na, u, [][]float64{v}, gamma, m.Eigensolver, tol, maxIter, s, streamPower)
	if err != nil {
		return nil, methodError("mavro", "semi-supervised Fiedler vector (eq. 3.2.4)", err)
	}
	res := &Result{
		Labels:      make([]int, g.N()),
		K:           2,
		Eigenvalues: vals,
		Embedding:   vecs,
	}
	for i := range res.Labels {
		if vecs.At(i, 0) <= 0 {
			res.Labels[i] = 1
		}
	}
	for _, w := range warns {
		res.Warnings = append(res.Warnings, "mavro: "+w)
	}
	if _, nc := g.Components(); nc > 1 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("mavro: graph has %d connected components; the semi-supervised Fiedler vector may mix their indicators", nc))
	}
	return res, nil
}

// rankOneKnobs applies the defaults of MAVRO and NOA-SSC and checks them.
func rankOneKnobs(method string, gamma, tol float64, maxIter int) (float64, float64, int, error) {
	if gamma == 0 {
		gamma = defaultGamma
	}
	if tol == 0 {
		tol = 1e-9
	}
	if maxIter == 0 {
		maxIter = 3000
	}
	switch {
	case !(gamma > 0) || math.IsInf(gamma, 0):
		return 0, 0, 0, fmt.Errorf("%w: %s: gamma %v must be positive and finite", ErrInvalid, method, gamma)
	case !(tol > 0 && tol < 1):
		return 0, 0, 0, fmt.Errorf("%w: %s: tolerance %v outside (0, 1)", ErrInvalid, method, tol)
	case maxIter < 0:
		return 0, 0, 0, fmt.Errorf("%w: %s: MaxIter %d is negative", ErrInvalid, method, maxIter)
	}
	return gamma, tol, maxIter, nil
}

// MavroK is the k-way extension of Mavroeidis (2011) as given in seed 000
// §3.2.3: with the class vectors of eq. 3.2.6,
//
//	v_j(i) = √(d_i / vol(A_j)) for i ∈ A_j (the labelled nodes of class j), 0 elsewhere,
//
// the embedding is the K eigenvectors with the smallest eigenvalues of
// (eq. 3.2.7)
//
//	I − D^{-1/2}(W + γ Σ_j D^{1/2} v_j v_jᵀ D^{1/2})D^{-1/2} = I − D^{-1/2}WD^{-1/2} − γ Σ_j v_j v_jᵀ,
//
// applied as sparse plus rank K. As for the other methods of the thesis's
// comparison (seed 000 §3.4) the rows are scaled to unit length before
// k-means. Unlike MAVRO and NOA-SSC, Y = Σ_j D^{1/2} v_j v_jᵀ D^{1/2} does
// not preserve the degrees (row i of Y sums to d_i for every labelled node
// i, so W + γY has degree (1+γ)d_i there; the thesis points this out), so
// no deflation trick applies and the Lanczos (or dense) solver of Settings
// is used.
//
// It needs Problem.Labels. A class 0…K−1 with no labelled node, or an
// unlabelled node of degree zero, is recovered from the NJW partition with
// a warning (labelrecover.go; beyond the source); with Strict, errors wrap
// ErrInvalid and graph.ErrIsolated instead.
//
// Result: Labels, Eigenvalues (K, ascending, possibly negative down to −γ),
// Embedding (n×K, rows normalized), Objective = k-means distortion.
//
// Cost: a partial eigendecomposition, O(nnz + K·n) per operator application,
// and k-means.
type MavroK struct {
	// Gamma is the supervision weight γ > 0. If Gamma is 0, 1.25 (seed 000 §3.4).
	Gamma float64 `doc:"supervision weight γ (0: 1.25)" range:"0 | (0, 1e6]"`
	// Strict refuses a class without a labelled node and an isolated node
	// instead of recovering them (labelrecover.go).
	Strict bool `doc:"refuse a class with no labelled node or an isolated node instead of recovering it spectrally"`
}

// Name returns "mavro-k".
func (MavroK) Name() string { return "mavro-k" }

// Uses declares what MavroK reads from a Problem (see Run).
func (MavroK) Uses() Uses { return Uses{Supervision: LabelSet} }

// Partition partitions p.Graph into p.K clusters.
func (m MavroK) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, m, p, s)
	if err != nil {
		return nil, err
	}
	if m.Strict {
		return m.strict(ctx, p, s)
	}
	return recoverLabels(ctx, "mavro-k", p, s, false, 1, m.strict)
}

// strict is the k-way MAVRO proper: it refuses gaps in the labels.
func (m MavroK) strict(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	gamma, _, _, err := rankOneKnobs("mavro-k", m.Gamma, 0, 0)
	if err != nil {
		return nil, err
	}
	members, err := labelledClasses("mavro-k", p)
	if err != nil {
		return nil, err
	}
	g := p.Graph
	na, err := graph.NewNormalizedAdjacency(g)
	if err != nil {
		return nil, fmt.Errorf("cluster: mavro-k: %w", err)
	}
	op := &supervisedOp{na: na, sign: -1, shift: 1}
	for _, a := range members {
		op.vecs = append(op.vecs, classVector(g, a))
		op.coef = append(op.coef, -gamma)
	}
	res0, err := s.solve(ctx, eigen.Problem{A: op, K: p.K, Which: eigen.Smallest})
	var warnings []string
	if err != nil {
		if res0 == nil || !errors.Is(err, eigen.ErrNoConvergence) {
			return nil, cancelledIn("mavro-k", "eigenvectors of eq. 3.2.7", err)
		}
		warnings = append(warnings, "mavro-k: "+err.Error())
	}
	x := mat.DenseCopyOf(res0.Vectors)
	if w := zeroRowsWarning("mavro-k", normalizeRows(x, s.rowTol(g.N())), g.N()); w != "" {
		warnings = append(warnings, w)
	}
	res, err := partition(ctx, x, p.K, s, 10, nil)
	if err != nil {
		return nil, cancelledIn("mavro-k", "k-means on the eigenvectors", err)
	}
	res.Eigenvalues, res.Warnings = res0.Values, warnings
	return res, nil
}

// classVector returns v_j of seed 000 eq. 3.2.6 for the labelled nodes a of
// one class: √(d_i/vol(a)) on a, 0 elsewhere (unit norm).
func classVector(g *graph.Graph, a []int) []float64 {
	var vol float64
	for _, i := range a {
		vol += g.Degree(i)
	}
	v := make([]float64, g.N())
	for _, i := range a {
		v[i] = math.Sqrt(g.Degree(i) / vol)
	}
	return v
}
