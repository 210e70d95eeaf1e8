package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// LabelProp is label propagation, the harmonic-function classifier of Zhu
// et al. ("LABEL PROP." in the thesis; seed 000 §3.1): each unlabelled node
// takes the degree-weighted mean of its neighbours' class indicators, the
// labelled nodes being clamped to theirs, and is assigned the class with the
// largest score. The scores solve (seed 000 eq. 3.1.4 and 3.1.6)
//
//	H_u = (I − P_uu)⁻¹ P_ul Y_l = (D_uu − W_uu)⁻¹ W_ul Y_l,  P = D⁻¹W,
//
// where Y_l is the one-hot matrix of the known labels. The closed form
// (the default) solves the sparse symmetric positive definite system
// (D_uu − W_uu) H_u = W_ul Y_l by conjugate gradients with the Jacobi
// preconditioner (the diagonal of D_uu − W_uu), one right-hand side per
// class; no inverse and no
// dense n×n matrix is formed. Iterative selects the thesis's Alg. 5
// instead: H ← P H, H_l ← Y_l, repeated from a random start until H stops
// changing; both converge to the same H (seed 000 Prop. 5).
//
// It needs Problem.Labels. Labels cannot propagate between connected
// components (D_uu − W_uu is then singular), nor create a class that has
// no labelled node: where a class 0…K−1 or a component has no labelled
// node, label propagation runs on the part the labels reach and the gaps
// are filled from the NJW partition, with a warning for each
// (labelrecover.go; beyond the source). With Strict, an error wrapping
// ErrInvalid names the class or component instead. Pairwise constraints
// do not define labels and are not used.
//
// Result: Labels (labelled nodes keep theirs; ties go to the smaller
// class), Embedding = H (n×K, rows of unlabelled nodes sum to 1), Objective
// = the harmonic energy trace(HᵀLH) = ½ Σ_ij W_ij ‖H_i − H_j‖², Iterations
// = CG iterations or Alg. 5 sweeps. No eigenvalues.
//
// Cost: O(nnz·K) per CG iteration (or sweep), memory O(n·K). CG needs
// O(√κ) iterations for the condition number κ of D_uu^{-1/2}(D_uu −
// W_uu)D_uu^{-1/2}; Alg. 5 needs O(1/(1 − ρ(P_uu))) sweeps, far more.
type LabelProp struct {
	// Iterative selects Alg. 5 instead of the closed form.
	Iterative bool `doc:"Alg. 5's sweeps instead of the closed form by conjugate gradients"`
	// Tol is the stopping tolerance. Closed form: every class column
	// satisfies ‖b − A h‖ ≤ Tol·‖b‖. Iterative: the largest change of an
	// entry of H in one sweep is ≤ Tol. If Tol is 0, 1e-10 is used.
	Tol float64 `doc:"stopping tolerance (0: 1e-10)" range:"0 | [1e-15, 1)"`
	// MaxIter caps CG iterations (closed form) or sweeps (iterative); a
	// warning is added when it is reached. If MaxIter is 0, 10000 CG
	// iterations or 100000 sweeps are allowed.
	MaxIter int `doc:"cap on CG iterations or sweeps (0: 10000 or 100000)" range:"[0, 1e9]"`
	// Strict refuses (an error wrapping ErrInvalid) a class or a connected
	// component without a labelled node. The zero value false recovers
	// them from the spectral embedding, with a warning (labelrecover.go).
	Strict bool `doc:"refuse a class or component with no labelled node instead of recovering it spectrally"`
}

// Name returns "labelprop".
func (LabelProp) Name() string { return "labelprop" }

// Uses declares what LabelProp reads from a Problem (see Run).
func (LabelProp) Uses() Uses { return Uses{Supervision: LabelSet, NoKEigensolve: true} }

// Partition classifies the unlabelled nodes of p.Graph into p.K classes.
func (lp LabelProp) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, lp, p, s)
	if err != nil {
		return nil, err
	}
	if lp.Strict {
		return lp.strict(ctx, p, s)
	}
	return recoverLabels(ctx, "labelprop", p, s, true, 1, lp.strict)
}

// strict is label propagation proper: it refuses gaps in the labels.
func (lp LabelProp) strict(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	if _, err := labelledClasses("labelprop", p); err != nil {
		return nil, err
	}
	g := p.Graph
	if err := checkSupervisedComponents(g, p.Labels); err != nil {
		return nil, err
	}
	tol := lp.Tol
	if tol == 0 {
		tol = 1e-10
	}
	if !(tol > 0 && tol < 1) {
		return nil, fmt.Errorf("%w: labelprop tolerance %v outside (0, 1)", ErrInvalid, lp.Tol)
	}
	if lp.MaxIter < 0 {
		return nil, fmt.Errorf("%w: labelprop MaxIter %d is negative", ErrInvalid, lp.MaxIter)
	}
	if err := lp.checkBlocks(g.N(), p.K, s); err != nil {
		return nil, err
	}
	var (
		h     *mat.Dense
		iters int
		ok    bool
		err   error
	)
	if lp.Iterative {
		maxIter := lp.MaxIter
		if maxIter == 0 {
			maxIter = 100000
		}
		h, iters, ok, err = propagateIterative(ctx, g, p.Labels, p.K, tol, maxIter, s.src(streamLabelProp), s.Recorder)
	} else {
		maxIter := lp.MaxIter
		if maxIter == 0 {
			maxIter = 10000
		}
		h, iters, ok, err = propagateClosedForm(ctx, g, p.Labels, p.K, tol, maxIter, s.Recorder)
	}
	if err != nil {
		// Only a cancellation stops the propagation.
		return nil, fmt.Errorf("cluster: labelprop: propagation: %w", err)
	}
	res := &Result{
		Labels:     argmaxRows(h, p.Labels),
		K:          p.K,
		Embedding:  h,
		Objective:  harmonicEnergy(g, h),
		Iterations: iters,
	}
	if !ok {
		what := "conjugate gradients"
		if lp.Iterative {
			what = "Alg. 5 sweeps"
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("labelprop: %s stopped after %s before reaching tolerance %g", what, wording.Count(iters, "iteration", "iterations"), tol))
	}
	return res, nil
}

// checkBlocks refuses (Settings.checkBlocks) a propagation of k classes
// on n nodes whose n×k blocks pass s.MaxBlockBytes: the closed form holds
// six (H and, over the unlabelled rows, the right-hand side, the iterate,
// the preconditioned residual, the direction and its product: 48·n·k
// bytes), Alg. 5 two (16·n·k). Without it, 200 000 classes of partial
// labels on 200 000 nodes allocated a 320 GB H at once and the runtime
// died (fatal error: out of memory). Cost O(1).
func (lp LabelProp) checkBlocks(n, k int, s *Settings) error {
	blocks, what := 6.0, "its n×K class scores H and conjugate-gradient blocks"
	if lp.Iterative {
		blocks, what = 2, "its two n×K class-score blocks (Alg. 5)"
	}
	need := blocks * 8 * float64(n) * float64(k)
	return s.checkBlocks("labelprop", need, fmt.Sprintf("%s (n = %d nodes, K = %d classes)", what, n, k), "give partial labels with fewer classes (K is the number of classes), or use a method that does not score every class on every node")
}

// checkSupervisedComponents reports, wrapping ErrInvalid, the first
// connected component of g (by smallest node) without a labelled node.
func checkSupervisedComponents(g *graph.Graph, labels constraint.Labels) error {
	comp, nc := g.Components()
	seen := make([]bool, nc)
	size := make([]int, nc)
	first := make([]int, nc)
	for c := range first {
		first[c] = -1
	}
	for i, c := range comp {
		size[c]++
		if first[c] < 0 {
			first[c] = i
		}
		if labels[i] != constraint.Unlabeled {
			seen[c] = true
		}
	}
	for c, ok := range seen {
		if !ok {
			return fmt.Errorf("%w: labelprop: connected component %d of %d (%s, smallest node %d) has no labelled node, so labels cannot reach it (seed 000 §3.1)", ErrInvalid, c, nc, wording.Count(size[c], "node", "nodes"), first[c])
		}
	}
	return nil
}

// unlabelledIndex returns the unlabelled nodes in increasing order and pos,
// with pos[i] the index of node i among them or −1 for labelled nodes.
func unlabelledIndex(labels constraint.Labels) (unl, pos []int) {
	pos = make([]int, len(labels))
	for i, c := range labels {
		if c == constraint.Unlabeled {
			pos[i] = len(unl)
			unl = append(unl, i)
		} else {
			pos[i] = -1
		}
	}
	return unl, pos
}

// propagateClosedForm solves (D_uu − W_uu) H_u = W_ul Y_l (seed 000
// eq. 3.1.6) by Jacobi-preconditioned conjugate gradients, the K columns
// run side by side with their own step lengths, and returns the full n×K H
// with H_l = Y_l. ok is false when maxIter was reached first.
func propagateClosedForm(ctx context.Context, g *graph.Graph, labels constraint.Labels, k int, tol float64, maxIter int, rec progress.Recorder) (h *mat.Dense, iters int, ok bool, err error) {
	n := g.N()
	unl, pos := unlabelledIndex(labels)
	nu := len(unl)
	h = mat.NewDense(n, k, nil)
	for i, c := range labels {
		if c != constraint.Unlabeled {
			h.Set(i, c, 1)
		}
	}
	if nu == 0 {
		return h, 0, true, nil
	}
	// W_uu in CSR over the unlabelled nodes (without its diagonal, which
	// is folded into diag = d_u − W_ii), b = W_ul Y_l.
	b := make([]float64, nu*k)
	diag := make([]float64, nu)
	ptr := make([]int, nu+1)
	var idx []int32
	var wts []float64
	for a, i := range unl {
		diag[a] = g.Degree(i)
		nbr, w := g.Row(i)
		for t, j := range nbr {
			switch q := pos[j]; {
			case int(j) == i:
				diag[a] -= w[t]
			case q >= 0:
				idx = append(idx, int32(q))
				wts = append(wts, w[t])
			default:
				b[a*k+labels[j]] += w[t]
			}
		}
		ptr[a+1] = len(idx)
	}
	// A x = (D_uu − W_uu) x, rows in parallel.
	mul := func(dst, x []float64) {
		parallel.Range(nu, len(idx)*k, func(lo, hi int) {
			for a := lo; a < hi; a++ {
				out := dst[a*k : a*k+k : a*k+k]
				xa := x[a*k : a*k+k : a*k+k]
				d := diag[a]
				for c := range out {
					out[c] = d * xa[c]
				}
				for t := ptr[a]; t < ptr[a+1]; t++ {
					q := int(idx[t])
					xq := x[q*k : q*k+k : q*k+k]
					wv := wts[t]
					for c, v := range xq {
						out[c] -= wv * v
					}
				}
			}
		})
	}
	inv := make([]float64, nu)
	for a, d := range diag {
		inv[a] = 1 / d // > 0: the node has a neighbour, its component holding a label
	}
	x := make([]float64, nu*k)
	r := append([]float64(nil), b...) // r = b − A·0
	z := make([]float64, nu*k)
	pdir := make([]float64, nu*k)
	ap := make([]float64, nu*k)
	bnorm := make([]float64, k)
	rz := make([]float64, k)
	alpha := make([]float64, k)
	beta := make([]float64, k)
	num := make([]float64, k)
	rr := make([]float64, k)
	active := make([]bool, k)
	for a := 0; a < nu; a++ {
		for c := 0; c < k; c++ {
			v := r[a*k+c]
			bnorm[c] += v * v
			z[a*k+c] = v * inv[a]
			rz[c] += v * z[a*k+c]
		}
	}
	copy(pdir, z)
	left := 0
	for c := range active {
		bnorm[c] = math.Sqrt(bnorm[c])
		active[c] = bnorm[c] > 0
		if active[c] {
			left++
		}
	}
	for iters = 0; left > 0; iters++ {
		if iters == maxIter {
			return fillUnlabelled(h, unl, x, k), iters, false, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, iters, false, err
		}
		mul(ap, pdir)
		clear(num)
		for a := 0; a < nu; a++ {
			pa, qa := pdir[a*k:a*k+k:a*k+k], ap[a*k:a*k+k:a*k+k]
			for c, v := range pa {
				num[c] += v * qa[c]
			}
		}
		for c := range alpha {
			alpha[c] = 0
			if active[c] && num[c] > 0 {
				alpha[c] = rz[c] / num[c]
			}
		}
		clear(rr)
		for a := 0; a < nu; a++ {
			xa, ra := x[a*k:a*k+k:a*k+k], r[a*k:a*k+k:a*k+k]
			pa, qa := pdir[a*k:a*k+k:a*k+k], ap[a*k:a*k+k:a*k+k]
			for c, al := range alpha {
				xa[c] += al * pa[c]
				ra[c] -= al * qa[c]
				rr[c] += ra[c] * ra[c]
			}
		}
		for c := 0; c < k; c++ {
			if active[c] && (num[c] <= 0 || math.Sqrt(rr[c]) <= tol*bnorm[c]) {
				active[c] = false
				left--
			}
		}
		if left == 0 {
			iters++
			break
		}
		clear(beta)
		for a := 0; a < nu; a++ {
			ra, za := r[a*k:a*k+k:a*k+k], z[a*k:a*k+k:a*k+k]
			s := inv[a]
			for c, v := range ra {
				za[c] = v * s
				beta[c] += v * za[c] // new rz for now
			}
		}
		for c := range beta {
			if active[c] {
				beta[c], rz[c] = beta[c]/rz[c], beta[c]
			} else {
				beta[c] = 0
			}
		}
		for a := 0; a < nu; a++ {
			pa, za := pdir[a*k:a*k+k:a*k+k], z[a*k:a*k+k:a*k+k]
			for c, bt := range beta {
				if active[c] {
					pa[c] = za[c] + bt*pa[c]
				}
			}
		}
		if iters%50 == 0 {
			progress.Send(rec, progress.Event{Stage: "labelprop", Done: iters, Message: fmt.Sprintf("%d of %d classes left", left, k)})
		}
	}
	return fillUnlabelled(h, unl, x, k), iters, true, nil
}

// fillUnlabelled copies the nu×k solution x into the unlabelled rows of h.
func fillUnlabelled(h *mat.Dense, unl []int, x []float64, k int) *mat.Dense {
	for a, i := range unl {
		copy(h.RawRowView(i)[:k], x[a*k:(a+1)*k])
	}
	return h
}

// propagateIterative runs seed 000 Alg. 5: H starts uniform in [0,1) on
// unlabelled rows (line 2), then H ← D⁻¹W H (line 5) and H_l ← Y_l (line 6)
// until no entry changes by more than tol. ok is false when maxIter sweeps
// were made first.
func propagateIterative(ctx context.Context, g *graph.Graph, labels constraint.Labels, k int, tol float64, maxIter int, src rand.Source, rec progress.Recorder) (*mat.Dense, int, bool, error) {
	n := g.N()
	rng := rand.New(src)
	cur := mat.NewDense(n, k, nil)
	for i, c := range labels {
		row := cur.RawRowView(i)[:k]
		if c != constraint.Unlabeled {
			row[c] = 1
			continue
		}
		for j := range row {
			row[j] = rng.Float64()
		}
	}
	next := mat.NewDense(n, k, nil)
	for sweep := 1; sweep <= maxIter; sweep++ {
		if err := ctx.Err(); err != nil {
			return nil, sweep, false, err
		}
		var mu sync.Mutex
		var change float64
		parallel.Range(n, g.NNZ()*k, func(lo, hi int) {
			var local float64
			for i := lo; i < hi; i++ {
				out := next.RawRowView(i)[:k]
				if c := labels[i]; c != constraint.Unlabeled {
					copy(out, cur.RawRowView(i)[:k])
					continue
				}
				for c := range out {
					out[c] = 0
				}
				idx, w := g.Row(i)
				inv := 1 / g.Degree(i) // > 0: the component of i is supervised
				for t, j := range idx {
					row := cur.RawRowView(int(j))[:k]
					wv := w[t] * inv
					for c := range out {
						out[c] += wv * row[c]
					}
				}
				old := cur.RawRowView(i)[:k]
				for c := range out {
					local = math.Max(local, math.Abs(out[c]-old[c]))
				}
			}
			mu.Lock()
			change = math.Max(change, local)
			mu.Unlock()
		})
		cur, next = next, cur
		if sweep%1000 == 0 {
			progress.Send(rec, progress.Event{Stage: "labelprop", Done: sweep, Total: maxIter, Message: fmt.Sprintf("change %.3g", change)})
		}
		if change <= tol {
			return cur, sweep, true, nil
		}
	}
	return cur, maxIter, false, nil
}

// lpTieTol is the distance below the largest score within which argmaxRows
// counts a class as tied with it. Scores lie in [0, 1] and both modes
// compute them to about 1e-8 or better (CG to a relative residual of Tol,
// the sweeps to a change of Tol), so an exact tie of the harmonic function
// is one to 1e-6, in either mode, whatever the rounding.
const lpTieTol = 1e-6

// argmaxRows returns, per row of h, the column of its largest entry (the
// smallest column within lpTieTol of it: ties go to the smaller class);
// labelled nodes keep their label.
func argmaxRows(h *mat.Dense, labels constraint.Labels) []int {
	n, k := h.Dims()
	out := make([]int, n)
	for i := 0; i < n; i++ {
		if labels[i] != constraint.Unlabeled {
			out[i] = labels[i]
			continue
		}
		row := h.RawRowView(i)[:k]
		top := floats.Max(row)
		best := 0
		for row[best] < top-lpTieTol {
			best++
		}
		out[i] = best
	}
	return out
}

// harmonicEnergy returns trace(HᵀLH) = ½ Σ_ij W_ij ‖H_i − H_j‖².
func harmonicEnergy(g *graph.Graph, h *mat.Dense) float64 {
	n, k := h.Dims()
	var e float64
	for i := 0; i < n; i++ {
		hi := h.RawRowView(i)[:k]
		idx, w := g.Row(i)
		for t, j := range idx {
			if int(j) <= i {
				continue
			}
			hj := h.RawRowView(int(j))[:k]
			var d2 float64
			for c := range hi {
				d := hi[c] - hj[c]
				d2 += d * d
			}
			e += w[t] * d2
		}
	}
	return e
}
