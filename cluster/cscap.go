package cluster

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
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
// 3·8·n² bytes (W, W̄ and the k > 2 running minimum) and time O(n²·|S|);
// above MaxBytes Cluster refuses with an estimate.
//
// The Gaussian-process reading needs W ⪰ 0; an affinity graph without self
// loops has W_ii = 0 and is indefinite, so missing diagonal entries are set
// (see Diagonal).
type CSCAP struct {
	// EpsML and EpsCL are ε_m and ε_c, the softness of must-links and
	// cannot-links (→ 0: hard constraints). If zero, 1 is used: the
	// constraint noise equals the prior's √W_ii = 1 of an RBF affinity. The
	// sources give no value. On separated RBF blobs (TestPairwiseMethods…)
	// ε = 1 and ε = 0.01 recover the classes while ε = 0.1 does not: there
	// the posterior W̄ has small entries of both signs inside the classes,
	// and clipping max(0, W̄) leaves a noisy affinity.
	EpsML, EpsCL float64
	// Diagonal is W_ii for nodes without a self loop. If Diagonal is 0,
	// max_j W_ij is used (1 on an RBF graph, where k(x, x) = 1).
	Diagonal float64
	// Joint forces Alg. 11 (all constraints in one M) for k > 2.
	Joint bool
	// MaxBytes is the memory limit of the dense work. If MaxBytes is 0,
	// 2 GiB is used.
	MaxBytes int64
}

// Name returns "cscap".
func (CSCAP) Name() string { return "cscap" }

// Cluster partitions p.Graph into p.K clusters using p.Constraints and the
// pairs of p.Labels. It returns an error wrapping ErrInvalid for an
// ill-posed problem or when the dense work would exceed MaxBytes.
func (c CSCAP) Cluster(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	start := time.Now()
	if err := checkProblem(p, true); err != nil {
		return nil, err
	}
	epsM, epsC := c.EpsML, c.EpsCL
	if epsM == 0 {
		epsM = 1
	}
	if epsC == 0 {
		epsC = 1
	}
	if !(epsM > 0) || !(epsC > 0) || math.IsInf(epsM, 0) || math.IsInf(epsC, 0) || !(c.Diagonal >= 0) || math.IsInf(c.Diagonal, 0) {
		return nil, fmt.Errorf("%w: cscap: EpsML = %v, EpsCL = %v, Diagonal = %v", ErrInvalid, c.EpsML, c.EpsCL, c.Diagonal)
	}
	s = s.orDefault()
	g := p.Graph
	n := g.N()
	limit := c.MaxBytes
	if limit == 0 {
		limit = 2 << 30
	}
	pairs, err := pairsOf(p, "cscap", maxLabelPairs)
	if err != nil {
		return nil, err
	}
	if need := cscapBytes(n, len(pairs)); need > limit {
		return nil, fmt.Errorf("%w: cscap: n = %d with %d constraints needs about %s for its dense n×n matrices, more than the limit of %s (CSCAP.MaxBytes)", ErrInvalid, n, len(pairs), byteSize(need), byteSize(limit))
	}
	w := cscapAffinity(g, c.Diagonal)
	var ml, cl []constraint.Pair
	for _, q := range pairs {
		if q.Kind == constraint.MustLink {
			ml = append(ml, q)
		} else {
			cl = append(cl, q)
		}
	}
	var a *mat.SymDense
	if p.K <= 2 || c.Joint {
		wb, err := woodbury(w, pairs, epsM, epsC)
		if err != nil {
			return nil, err
		}
		a = clipSym(wb, nil)
	} else {
		wm, err := woodbury(w, ml, epsM, epsC)
		if err != nil {
			return nil, err
		}
		corr, err := cannotLinkMax(wm, cl, epsC)
		if err != nil {
			return nil, err
		}
		a = clipSym(wm, corr)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ga, err := graph.FromDense(a)
	if err != nil {
		return nil, fmt.Errorf("cluster: cscap: %w", err)
	}
	e, err := laplacianEmbedding(ctx, ga, graph.Symmetric, p.K, s)
	if err != nil {
		return nil, fmt.Errorf("cluster: cscap: normalized cut of the propagated affinity: %w", err)
	}
	u := e.vectors
	for i := 0; i < n; i++ {
		f := 1 / math.Sqrt(ga.Degree(i))
		row := u.RawRowView(i)
		for j := range row {
			row[j] *= f
		}
	}
	km, err := runKMeans(ctx, u, p.K, withSeedStream(s, streamCSCAP), fastGERestarts, violationSelect(pairs))
	if err != nil {
		return nil, err
	}
	return &Result{
		Labels:      km.Labels,
		K:           p.K,
		Eigenvalues: e.values,
		Embedding:   u,
		Objective:   km.Distortion,
		Iterations:  km.Iterations,
		Runtime:     time.Since(start),
		Warnings:    e.warnings,
	}, nil
}

// cscapBytes estimates the memory of CSCAP: three n×n float64 matrices, the
// n×|S| block WU and the |S|×|S| system.
func cscapBytes(n, q int) int64 {
	nn, qq := int64(n), int64(q)
	return 8 * (3*nn*nn + 2*nn*qq + qq*qq)
}

// byteSize formats a byte count.
func byteSize(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
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
func woodbury(w *mat.SymDense, pairs []constraint.Pair, epsM, epsC float64) (*mat.SymDense, error) {
	n := w.SymmetricDim()
	q := len(pairs)
	out := mat.NewSymDense(n, nil)
	out.CopySym(w)
	if q == 0 {
		return out, nil
	}
	// WU: column t is c_t (W e_i ± W e_j).
	wu := mat.NewDense(n, q, nil)
	sign := make([]float64, q)
	coef := make([]float64, q)
	for t, pr := range pairs {
		sign[t], coef[t] = -1, math.Sqrt(pr.W())/epsM
		if pr.Kind == constraint.CannotLink {
			sign[t], coef[t] = 1, math.Sqrt(pr.W())/epsC
		}
		for i := 0; i < n; i++ {
			wu.Set(i, t, coef[t]*(w.At(i, pr.I)+sign[t]*w.At(i, pr.J)))
		}
	}
	// C = I + UᵀWU: row t of Uᵀ(WU) is c_t (WU[i,:] ± WU[j,:]).
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
	x := mat.NewDense(q, n, nil)
	var ch mat.Cholesky
	if ch.Factorize(cm) {
		if err := ch.SolveTo(x, wu.T()); err != nil {
			return nil, fmt.Errorf("cluster: cscap: solving I + UᵀWU: %w", err)
		}
	} else {
		var lu mat.LU
		lu.Factorize(cm)
		if cond := lu.Cond(); math.IsInf(cond, 1) || cond > 1e14 {
			return nil, fmt.Errorf("cluster: cscap: I + UᵀWU is singular (condition %.3g): W is far from positive semidefinite", cond)
		}
		if err := lu.SolveTo(x, false, wu.T()); err != nil {
			return nil, fmt.Errorf("cluster: cscap: solving I + UᵀWU: %w", err)
		}
	}
	corr := mat.NewDense(n, n, nil)
	corr.Mul(wu, x)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			out.SetSym(i, j, w.At(i, j)-(corr.At(i, j)+corr.At(j, i))/2)
		}
	}
	return out, nil
}

// cannotLinkMax returns T[a,b] = max_c z_c(a) z_c(b) over the cannot-links
// c, with z_c = W̄ᵐu_c/√(1 + u_cᵀW̄ᵐu_c) (Alg. 12, lines 4–7: min_c W̄ᶜ =
// W̄ᵐ − T), or nil when there is none. Cost O(n²·n_c).
func cannotLinkMax(wm *mat.SymDense, cl []constraint.Pair, epsC float64) (*mat.Dense, error) {
	if len(cl) == 0 {
		return nil, nil
	}
	n := wm.SymmetricDim()
	t := mat.NewDense(n, n, nil)
	for i := range t.RawMatrix().Data {
		t.RawMatrix().Data[i] = math.Inf(-1)
	}
	z := make([]float64, n)
	for _, pr := range cl {
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
		raw := t.RawMatrix()
		for a := 0; a < n; a++ {
			za := z[a]
			row := raw.Data[a*raw.Stride : a*raw.Stride+n]
			for b, zb := range z {
				if v := za * zb; v > row[b] {
					row[b] = v
				}
			}
		}
	}
	return t, nil
}

// clipSym returns max(0, W̄ − T) entrywise (T nil means 0).
func clipSym(wb *mat.SymDense, t *mat.Dense) *mat.SymDense {
	n := wb.SymmetricDim()
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := wb.At(i, j)
			if t != nil {
				v -= t.At(i, j)
			}
			a.SetSym(i, j, math.Max(0, v))
		}
	}
	return a
}
