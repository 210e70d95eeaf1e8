package cluster

import (
	"context"
	"fmt"
	"math"
	"sort"
)

// coscGraph is one two-way COSC problem (see COSC) after the must-link
// components were merged: n super-nodes with vertex weights b, the
// symmetric weights between distinct super-nodes as a list of edges, and
// the cannot-links between super-nodes, duplicates summed.
type coscGraph struct {
	n   int
	b   []float64 // vertex weights: volumes of the super-nodes
	vol float64
	// ptr, adj, w: symmetric CSR of the weights between distinct
	// super-nodes (no diagonal).
	ptr []int
	adj []int32
	w   []float64
	// ei, ej, ew: each edge once (ei < ej), ew = 2·w_e, the weight of
	// |f_i − f_j| in Σ_{i,j} w_ij |f_i − f_j|.
	ei, ej []int32
	ew     []float64
	// cl: merged cannot-links; clPtr, clAdj, clQ their symmetric CSR.
	cl    []coscCL
	clPtr []int
	clAdj []int32
	clQ   []float64
	volQ  float64 // vol(Q^c) = Σ_{i,j} q_ij = 2 Σ_cl q
	gamma float64
	// bg, out: per super-node, its volume in the whole graph and the
	// weight of its edges to nodes outside the problem (see score);
	// volg = Σ bg, outTotal = Σ out.
	bg, out        []float64
	volg, outTotal float64
}

// coscCL is a cannot-link between super-nodes i < j of weight q; pair is
// the index of one of the constraints it merges.
type coscCL struct {
	i, j int
	q    float64
	pair int
}

// coscState is the RatioDCA state of one start: the dual variables of the
// inner problem (warm-started across outer steps) and scratch.
type coscState struct {
	g        *coscGraph
	innerTol float64 // relative duality gap
	maxInner int
	// dual variables α, extrapolation, previous iterate
	xa, ya, pa []float64
	la         float64 // Lipschitz constant of the dual gradient
	r, c       []float64
	s1, r2     []float64
	idx        []int
	inC        []bool
	order      []int
	// diagnostics
	innerIters int
	trace      []float64 // λ after each outer step (tests)
	lastGap    float64
	lastDual   float64
	rejected   int
}

func newCOSCState(g *coscGraph, innerTol float64, maxInner int) *coscState {
	n, m := g.n, len(g.ew)
	st := &coscState{g: g, innerTol: innerTol, maxInner: maxInner}
	st.xa, st.ya, st.pa = make([]float64, m), make([]float64, m), make([]float64, m)
	st.r, st.c = make([]float64, n), make([]float64, n)
	st.s1, st.r2 = make([]float64, n), make([]float64, n)
	st.idx = make([]int, n)
	st.inC = make([]bool, n)
	st.order = make([]int, n)
	// λ_max of KᵀK (the Laplacian with edge weights ew²) is at most
	// max over edges of d_i + d_j, d_i = Σ_j ew_ij².
	d4 := make([]float64, n)
	for e, w := range g.ew {
		d4[g.ei[e]] += w * w
		d4[g.ej[e]] += w * w
	}
	var lk float64
	for e := range g.ew {
		lk = max(lk, d4[g.ei[e]]+d4[g.ej[e]])
	}
	if lk == 0 {
		lk = 1
	}
	st.la = lk
	return st
}

// resetDual sets α = 0.
func (st *coscState) resetDual() { clear(st.xa) }

// ratio returns the numerator R₁(f) − R₂(f) and the denominator S(f) of
// F_γ(f) (thesis eq. 4.4.6 with the must-links merged: M = 0). O(nnz + n + #cl).
func (g *coscGraph) ratio(f []float64) (num, den float64) {
	num = g.r1(f)
	for _, c := range g.cl {
		num -= 2 * g.gamma * c.q * math.Abs(f[c.i]-f[c.j])
	}
	var m float64
	for i, b := range g.b {
		m += b * f[i]
	}
	m /= g.vol
	for i, b := range g.b {
		den += b * math.Abs(f[i]-m)
	}
	return max(num, 0), den
}

// r1 is the convex part of the numerator: Σ_{i,j} w_ij|f_i − f_j| +
// γ·vol(Q^c)·(max f − min f).
func (g *coscGraph) r1(f []float64) float64 {
	var tv float64
	for e, w := range g.ew {
		tv += w * math.Abs(f[g.ei[e]]-f[g.ej[e]])
	}
	if g.volQ > 0 && g.gamma > 0 {
		lo, hi := f[0], f[0]
		for _, x := range f {
			lo, hi = min(lo, x), max(hi, x)
		}
		tv += g.gamma * g.volQ * (hi - lo)
	}
	return tv
}

// fval is F_γ(f), +Inf when S(f) = 0.
func (g *coscGraph) fval(f []float64) float64 {
	num, den := g.ratio(f)
	if !(den > 0) {
		return math.Inf(1)
	}
	return num / den
}

// score is the objective by which threshold sets are compared:
//
//	(cut + out_C)/vol_g(C) + (cut + out_C̄)/vol_g(C̄) + γ(vol(Q^c) − 2·clcut)/bal(C),
//
// cut and clcut the weights of cut edges and cannot-links inside the
// problem, out the weight of edges to nodes outside it and vol_g the
// volumes in the whole graph (the k-way Ncut terms the split contributes,
// as in Hein and Bühler's multi-partitioning), bal(C) the balance of
// eq. 4.4.2 with the problem's own weights b. For the whole graph
// (out = 0, vol_g = b) it is F̂_γ(C) of eq. 4.4.1. +Inf when a side has
// volume 0.
func (g *coscGraph) score(cut, clcut, volC, volgC, outC float64) float64 {
	bal := 2 * volC * (g.vol - volC) / g.vol
	volgD := g.volg - volgC
	if !(bal > 0) || !(volgC > 0) || !(volgD > 0) {
		return math.Inf(1)
	}
	cut = max(cut, 0)
	return (cut+outC)/volgC + (cut+g.outTotal-outC)/volgD + g.gamma*max(g.volQ-2*clcut, 0)/bal
}

// setValue returns the score of C (see score), the Ncut part (without
// the penalty) and the weight of violated cannot-links. O(nnz + #cl).
func (g *coscGraph) setValue(inC []bool) (fhat, ncut, viol float64) {
	var cut, volC, volgC, outC, clcut float64
	for i := 0; i < g.n; i++ {
		if !inC[i] {
			continue
		}
		volC += g.b[i]
		volgC += g.bg[i]
		outC += g.out[i]
		for t := g.ptr[i]; t < g.ptr[i+1]; t++ {
			if !inC[g.adj[t]] {
				cut += g.w[t]
			}
		}
	}
	for _, c := range g.cl {
		if inC[c.i] != inC[c.j] {
			clcut += c.q
		}
	}
	viol = max(g.volQ/2-clcut, 0)
	fhat = g.score(cut, clcut, volC, volgC, outC)
	g0 := *g
	g0.gamma = 0
	return fhat, g0.score(cut, clcut, volC, volgC, outC), viol
}

// sweep is the optimal thresholding of f: the sets C_t of the t largest
// entries of f (ties broken by index), t = 1…n−1, are compared by score;
// inC is set to the best, whose score is returned (+Inf when no set has
// positive volume on both sides). O(n log n + nnz + #cl).
func (st *coscState) sweep(f []float64, inC []bool) float64 {
	g := st.g
	order := st.order
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		fa, fb := f[order[a]], f[order[b]]
		if fa != fb {
			return fa > fb
		}
		return order[a] < order[b]
	})
	cur := st.inC
	clear(cur)
	var cut, volC, volgC, outC, clcut float64
	best, bestT := math.Inf(1), -1
	for t := 0; t < g.n-1; t++ {
		i := order[t]
		cur[i] = true
		volC += g.b[i]
		volgC += g.bg[i]
		outC += g.out[i]
		for k := g.ptr[i]; k < g.ptr[i+1]; k++ {
			if cur[g.adj[k]] {
				cut -= g.w[k]
			} else {
				cut += g.w[k]
			}
		}
		for k := g.clPtr[i]; k < g.clPtr[i+1]; k++ {
			if cur[g.clAdj[k]] {
				clcut -= g.clQ[k]
			} else {
				clcut += g.clQ[k]
			}
		}
		if fh := g.score(cut, clcut, volC, volgC, outC); fh < best {
			best, bestT = fh, t
		}
	}
	clear(inC)
	for t := 0; t <= bestT; t++ {
		inC[order[t]] = true
	}
	return best
}

// indicator sets f to 1_C/‖1_C‖.
func indicator(f []float64, inC []bool) {
	var c float64
	for _, in := range inC {
		if in {
			c++
		}
	}
	for i, in := range inC {
		f[i] = 0
		if in {
			f[i] = 1 / math.Sqrt(c)
		}
	}
}

// coscRun is the outcome of RatioDCA from one start: the best threshold set
// met, its F̂_γ, and the final iterate.
type coscRun struct {
	inC   []bool
	fhat  float64
	f     []float64
	iters int
}

// ratioDCA minimizes F_γ from f (modified) by the nonlinear inverse power
// method of Hein and Setzer (2011, Alg. 1 with S₂ = 0): with λ^k = F_γ(f^k),
//
//	f^{k+1} = argmin_{‖u‖₂ ≤ 1} R₁(u) − ⟨u, r₂(f^k) + λ^k s₁(f^k)⟩,
//
// r₂ ∈ ∂R₂(f^k), s₁ ∈ ∂S(f^k), the inner problem solved by coscState.inner.
// After each step f is thresholded optimally (sweep) and the best set met
// is kept; the iterate itself stays continuous (restarting from the
// indicator of the threshold set stalls: the inner problem at an indicator
// often has value 0). It stops when the relative decrease of λ is below tol, after
// maxIter steps, or when the inner problem finds no descent. A cancelled
// ctx, checked at every step and within the inner problem (see inner),
// returns an error wrapping ctx.Err() that names the step ("RatioDCA step
// 3: inner problem: context canceled"; the caller adds the method).
func (st *coscState) ratioDCA(ctx context.Context, f []float64, maxIter int, tol float64) (*coscRun, error) {
	g := st.g
	run := &coscRun{inC: make([]bool, g.n), fhat: math.Inf(1), f: f}
	normalize(f)
	lam := g.fval(f)
	cand := make([]bool, g.n)
	if fh := st.sweep(f, cand); fh < run.fhat {
		run.fhat = fh
		copy(run.inC, cand)
	}
	if math.IsInf(lam, 1) {
		return run, nil
	}
	st.resetDual()
	st.trace = append(st.trace[:0], lam)
	u := make([]float64, g.n)
	for it := 0; it < maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("RatioDCA step %d: %w", it+1, err)
		}
		if lam <= 0 {
			break
		}
		st.subgradients(f, lam)
		descent, err := st.inner(ctx, u)
		if err != nil {
			return nil, fmt.Errorf("RatioDCA step %d: %w", it+1, err)
		}
		if !descent {
			break
		}
		lu := g.fval(u)
		if !(lu < lam) {
			// A negative inner value implies F_γ(u) < λ (Hein and Setzer
			// 2011, Prop. 3.1): this is a stall at rounding level (seen:
			// relative 10⁻¹⁵), counted as rejected only beyond 10⁻¹².
			if !(lu <= lam*(1+1e-12)) {
				st.rejected++
			}
			st.trace = append(st.trace, lu) // so that tests see it
			break
		}
		copy(f, u)
		if fh := st.sweep(f, cand); fh < run.fhat {
			run.fhat = fh
			copy(run.inC, cand)
		}
		run.iters++
		st.trace = append(st.trace, lu)
		dec := (lam - lu) / lam
		lam = lu
		if dec < tol {
			break
		}
	}
	return run, nil
}

// normalize scales f to unit Euclidean norm (f = 0 is left alone).
func normalize(f []float64) {
	var s float64
	for _, x := range f {
		s += x * x
	}
	if s > 0 {
		s = 1 / math.Sqrt(s)
		for i := range f {
			f[i] *= s
		}
	}
}

// subgradients sets st.c = r₂ + λ s₁ with r₂ ∈ ∂R₂(f), R₂(f) =
// γ Σ_{i,j} q_ij |f_i − f_j|, and s₁ ∈ ∂S(f), S(f) = Σ b_i|f_i − m(f)|,
// m(f) = ⟨b, f⟩/vol: s₁ = Bσ − b⟨b, σ⟩/vol, σ = sign(f − m) (0 at 0).
func (st *coscState) subgradients(f []float64, lam float64) {
	g := st.g
	clear(st.r2)
	for _, c := range g.cl {
		d := f[c.i] - f[c.j]
		if d == 0 {
			continue
		}
		t := 2 * g.gamma * c.q
		if d < 0 {
			t = -t
		}
		st.r2[c.i] += t
		st.r2[c.j] -= t
	}
	var m float64
	for i, b := range g.b {
		m += b * f[i]
	}
	m /= g.vol
	var bs float64
	for i, b := range g.b {
		var sg float64
		switch {
		case f[i] > m:
			sg = 1
		case f[i] < m:
			sg = -1
		}
		st.s1[i] = b * sg
		bs += b * sg
	}
	for i, b := range g.b {
		st.s1[i] -= b * bs / g.vol
		st.c[i] = st.r2[i] + lam*st.s1[i]
	}
}

// inner solves the inner problem of RatioDCA for c = st.c,
//
//	min_{‖u‖₂ ≤ 1} Φ(u) = R₁(u) − ⟨u, c⟩,
//
// through its dual. R₁ = TV + h, TV(u) = Σ_e ew_e|u_i − u_j| =
// max_{|α|_∞ ≤ 1} ⟨Kᵀα, u⟩ and h(u) = s(max u − min u), s = γ·vol(Q^c),
// the support function of the set H = s(Δ − Δ) = {x : Σx = 0, ‖x‖₁ ≤ 2s}.
// So min_u Φ = max_{α, x∈H} min_{‖u‖≤1} ⟨u, Kᵀα + x − c⟩ =
// −min_{α} dist(c − Kᵀα, H), and by Moreau's identity
// dist(z, H) = ‖prox_h(z)‖: the dual is
//
//	min_{|α|_∞ ≤ 1} g(α) = ½‖prox_h(c − Kᵀα)‖²,   ∇g = −K prox_h(c − Kᵀα),
//
// smooth with Lipschitz constant ‖K‖² ≤ max_e(d_i + d_j), d_i = Σ_j ew_ij²,
// whatever s (the large max − min term enters only through its exact
// prox, a clipping, see proxMaxMin). It is solved by FISTA (Beck and
// Teboulle 2009) with gradient restarts (O'Donoghue and Candès 2015),
// projecting by clipping. The primal point of α is u = w/‖w‖, w =
// prox_h(c − Kᵀα), and every 5 iterations the duality gap Φ(u) + ‖w‖ ≥ 0
// is evaluated; it stops when the gap is at most innerTol·‖w‖, which
// makes Φ(u) ≤ −(1 − innerTol)‖w‖ < 0, a strict descent of F_γ. It
// returns false when no descent is found (c = 0, or ‖w‖ ≤ 10⁻¹³‖c‖, zero
// up to rounding: c lies in the dual set, f^k is a critical point; or
// Φ(u) ≥ 0 after maxInner iterations). Cost O(nnz + n + #cl) per iteration.
//
// ctx is checked after every coscPollWork/(edges + n) iterations (at
// least every iteration): one inner solve can take about a second on
// 6·10⁴ nodes (up to maxInner iterations of O(nnz)), and was checked only
// between outer steps before (review 49, finding 6). A cancelled ctx
// returns an error wrapping ctx.Err() ("inner problem: iteration 48:
// context canceled").
func (st *coscState) inner(ctx context.Context, u []float64) (bool, error) {
	g := st.g
	copy(st.ya, st.xa)
	t := 1.0
	var cn float64
	for _, x := range st.c {
		cn += x * x
	}
	cn = math.Sqrt(cn)
	if cn == 0 {
		return false, nil // Φ(u) = R₁(u) ≥ 0: no descent
	}
	poll := max(1, coscPollWork/(len(g.ew)+g.n))
	for it := 1; it <= st.maxInner; it++ {
		if it%poll == 0 {
			if err := ctx.Err(); err != nil {
				return false, fmt.Errorf("inner problem: iteration %d: %w", it, err)
			}
		}
		st.innerIters++
		st.proxPoint(st.r, st.ya)
		copy(st.pa, st.xa)
		var dot float64
		for e, w := range g.ew {
			a := st.ya[e] + w*(st.r[g.ei[e]]-st.r[g.ej[e]])/st.la
			a = max(-1, min(1, a))
			st.xa[e] = a
			dot += (st.ya[e] - a) * (a - st.pa[e])
		}
		// Restart when the step opposes the momentum.
		tn := (1 + math.Sqrt(1+4*t*t)) / 2
		beta := (t - 1) / tn
		if dot > 0 {
			tn, beta = 1, 0
		}
		t = tn
		for e, a := range st.xa {
			st.ya[e] = a + beta*(a-st.pa[e])
		}
		if it%5 != 0 && it != st.maxInner {
			continue
		}
		phi, dist := st.primal(u)
		// Relative to ‖c‖, which scales with the weights: the absolute
		// floor of 1 (10⁻¹³·(‖c‖ + 1)) stopped RatioDCA early at small
		// weights (review 136: 29 steps at weights ×2⁰…2⁻⁴⁰, 13 at 2⁻⁵⁰,
		// 0 at 2⁻⁵⁹).
		if dist <= 1e-13*cn {
			return false, nil
		}
		gap := phi + dist
		st.lastGap, st.lastDual = gap, -dist
		if gap <= st.innerTol*dist || it == st.maxInner {
			return phi < 0, nil
		}
	}
	return false, nil
}

// coscPollWork is the work, in edges + nodes visited, of the inner
// iterations between two checks of ctx (see coscState.inner). One
// iteration takes about 2 ms for 1.3·10⁵ edges + nodes (2·10⁴ blobs,
// 10-NN), so 2¹⁸ is a check every 4 ms or so, every iteration above
// 2.6·10⁵, and every 87 iterations (well under 1 ms) for 450 nodes: one
// ctx.Err() call is negligible beside it.
const coscPollWork = 1 << 18

// proxPoint sets w = prox_h(c − Kᵀα).
func (st *coscState) proxPoint(w, a []float64) {
	g := st.g
	copy(w, st.c)
	for e, ew := range g.ew {
		t := ew * a[e]
		w[g.ei[e]] -= t
		w[g.ej[e]] += t
	}
	proxMaxMin(w, g.gamma*g.volQ, st.idx)
}

// primal sets u = w/‖w‖, w = prox_h(c − Kᵀα) for the dual iterate α, and
// returns Φ(u) and ‖w‖ (the dual value is −‖w‖).
func (st *coscState) primal(u []float64) (phi, dist float64) {
	st.proxPoint(u, st.xa)
	for _, x := range u {
		dist += x * x
	}
	dist = math.Sqrt(dist)
	if dist == 0 {
		return 0, 0
	}
	var cu float64
	for i := range u {
		u[i] /= dist
		cu += u[i] * st.c[i]
	}
	return st.g.r1(u) - cu, dist
}

// proxMaxMin replaces z by the proximal point of h(u) = s(max u − min u):
// argmin_u ½‖u − z‖² + h(u) = clip(z, lo, hi), hi and lo solving
// Σ(z_i − hi)₊ = s and Σ(lo − z_i)₊ = s (the optimality condition
// z − u ∈ ∂h(u) holds: the clipped excess is a point of sΔ on the maxima
// minus one of sΔ on the minima); when lo ≥ hi, ‖z − mean z‖₁ ≤ 2s and
// the prox is the constant mean z. s = 0 leaves z alone. O(n) per
// Michelot pass; idx is scratch of length ≥ len(z).
func proxMaxMin(z []float64, s float64, idx []int) {
	if !(s > 0) {
		return
	}
	hi := excessLevel(z, s, idx, 1)
	lo := -excessLevel(z, s, idx, -1)
	if lo >= hi {
		var m float64
		for _, x := range z {
			m += x
		}
		m /= float64(len(z))
		for i := range z {
			z[i] = m
		}
		return
	}
	for i, x := range z {
		z[i] = max(lo, min(hi, x))
	}
}

// excessLevel returns the τ with Σ(sg·z_i − τ)₊ = s (s > 0), by
// Michelot's active-set iteration.
func excessLevel(z []float64, s float64, idx []int, sg float64) float64 {
	act := idx[:0]
	var sum float64
	for i, v := range z {
		act = append(act, i)
		sum += sg * v
	}
	tau := (sum - s) / float64(len(act))
	for {
		k := 0
		sum = 0
		for _, i := range act {
			if v := sg * z[i]; v > tau {
				act[k] = i
				k++
				sum += v
			}
		}
		if k == len(act) || k == 0 {
			return tau
		}
		act = act[:k]
		tau = (sum - s) / float64(k)
	}
}
