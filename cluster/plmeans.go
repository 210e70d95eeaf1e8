package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/kmeans"
	"github.com/tether-sc/tether/pitmanyor"
	"github.com/tether-sc/tether/progress"
)

// PLKernel selects what power-law means clusters: the feature rows
// (the vector version of thesis Alg. 16) or the graph through one of the
// kernels of thesis Table 5.2.
type PLKernel int

const (
	// PLNormalizedCut: kernel σ_s D⁻¹ + D⁻¹WD⁻¹ with node weights d
	// (Table 5.2, normalized cut). The zero value.
	PLNormalizedCut PLKernel = iota
	// PLRatioAssociation: kernel σ_s I + W, unit weights.
	PLRatioAssociation
	// PLRatioCut: kernel σ_s I − L, unit weights.
	PLRatioCut
	// PLFeatures: the vector version on Problem.Features (Alg. 16 as
	// printed, unit weights); the graph is not used.
	PLFeatures
)

// plKernelNames are the names of the PLKernel values, in order.
var plKernelNames = []string{"ncut", "ratio-association", "ratio-cut", "features"}

// String returns "ncut", "ratio-association", "ratio-cut" or "features".
func (v PLKernel) String() string { return enum.String("PLKernel", plKernelNames, v) }

// MarshalText returns the name of v.
func (v PLKernel) MarshalText() ([]byte, error) {
	return enum.Marshal("power-law means kernel", plKernelNames, v)
}

// UnmarshalText sets v from its name (ncut, ratio-association, ratio-cut or
// features, any case), so that it works as a command-line value (tether
// cluster -set Kernel=…) and in JSON.
func (v *PLKernel) UnmarshalText(b []byte) error {
	return parseEnum(v, "power-law means kernel", plKernelNames, b)
}

// PLMeans is power-law means (Zhou, Zhang & Kulis 2014, "Power-law graph
// cuts"; thesis §5.2.2, Alg. 16): weighted (kernel) k-means regularized by
// the Pitman–Yor partition prior, which finds k. It locally minimizes
// (thesis eq. 5.2.2)
//
//	J(Z) = Σ_c Σ_{i∈A_c} w_i ‖φ(x_i) − μ_c‖² − σ ln p(Z | α, θ),
//
// μ_c the weighted mean of cluster c and ln p the Pitman–Yor law of §5.2.1
// (pitmanyor.CRP.LogProb). Result.Objective is J, constant term
// −Σ_{i<n} ln(α + i) of ln p included.
//
// # Algorithm
//
// As Alg. 16: all points start in one cluster; then each sweep visits the
// points in order (index order, Alg. 16) and moves point i from its
// cluster c to the target c' of smallest score, eq. 5.2.3–5.2.7:
//
//	c' = c:                 w_i‖φ_i − μ_c‖²                                   (5.2.3)
//	c' ≠ c, n_c > 1:        w_i‖φ_i − μ_c'‖² + σ ln((n_c − 1 − θ)/(n_c' − θ))  (5.2.4)
//	c' ≠ c, n_c = 1:        w_i‖φ_i − μ_c'‖² + σ ln((α + (k−1)θ)/(n_c' − θ))  (5.2.5)
//	new cluster, n_c > 1:   σ ln((n_c − 1 − θ)/(α + kθ))                      (5.2.6)
//	new cluster, n_c = 1:   ∞                                                 (5.2.7)
//
// then recomputes the centroids. Ties keep the point where it is, then
// prefer the lowest cluster index, then an existing cluster over a new one.
// The listing leaves open when the centroids and the counts are updated;
// we fix it so that J never increases (tested): within a sweep the
// centroids μ_c are those of the partition at the start of the sweep
// (frozen), while n_c and k are the live counts. Each move then lowers
// J(Z, μ) = Σ_i w_i‖φ_i − μ_{Z_i}‖² − σ ln p(Z) with μ fixed by exactly
// the difference of the two scores (a new cluster's centroid is φ_i, at
// distance 0), and recomputing the means at the end of the sweep lowers it
// again, as in DP-means (Kulis & Jordan 2012). A cluster opened by point i
// is a target at once for the points after i, its centroid fixed at φ_i
// until the sweep ends (Alg. 16 line 9, μ_k = x_i; §5.2.3: "following data
// points can either remain in the big initial cluster, create a new
// singleton or join another singleton"). The run stops when a sweep
// moves no point (a fixed point: no single move improves J with the
// centroids fixed) or after MaxIter sweeps (with a warning). The second
// step needs a real feature space, i.e. a positive semidefinite kernel:
// the default Shift makes the graph kernels so.
//
// §5.2.3 of the thesis shows the limits of this scheme: a point leaves a
// cluster of size n_c for a new singleton when (α + kθ)
// exp(w_i‖φ_i − μ_c‖²/σ) > n_c − 1 − θ (eq. 5.2.8), so a small σ makes
// every point a singleton and a large σ keeps one cluster; and a cluster
// of size 2 can only form when α + 3θ < 1 (eq. 5.2.9). The experiment
// plmeans-limits shows both on data.
//
// # Choices
//
// Kernel selects the version: PLFeatures is the vector version (unit
// weights) on Problem.Features; the others cluster Problem.Graph with the
// kernels and node weights of thesis Table 5.2. The diagonal shift of
// those kernels (written σ in Table 5.2, a different quantity from the
// trade-off σ of eq. 5.2.2) is the knob Shift. With a linear kernel
// K = XXᵀ the kernel version equals the vector version (tested).
//
// k is found, not given: K = 0 is the normal use. A Problem.K > 0 caps the
// number of clusters: no new cluster is opened while K are in use (the
// moves between existing clusters are unchanged).
//
// Randomness: with Settings.Restarts ≤ 1 (the default) the run is Alg. 16
// exactly and deterministic. With r > 1 restarts, runs 2…r visit the points
// in a random order (one permutation per run, drawn from Settings.Seed)
// and the run of lowest J is kept.
//
// Errors wrap ErrInvalid for θ ∉ [0, 1), α ≤ −θ, non-finite feature rows or
// knobs out of range, and graph.ErrIsolated for a node of degree 0 with the
// normalized-cut kernel; a cancelled ctx gives one wrapping ctx.Err()
// that names the run and the sweep ("cluster: plmeans: run 1 of 1: sweep
// 3: context canceled").
//
// Cost per sweep: O(n·k·d) for the vector version (d features), O(nnz +
// n·k) for the graph kernels, k the current number of clusters, which
// ranges from 1 to n (all singletons, the small-σ regime of §5.2.3: then
// O(n²) per sweep). Memory O(n + k·d), resp. O(nnz + n + k).
type PLMeans struct {
	// Kernel selects the version; the zero value is PLNormalizedCut.
	Kernel PLKernel `doc:"what is clustered: ncut, ratio-association, ratio-cut (graph kernels of Table 5.2) or features (vector version)"`
	// Alpha is the Pitman–Yor concentration α > −Theta. If Alpha and Theta
	// are both 0 (an invalid pair), α = 0.5 and θ = 0.1 are used, which
	// satisfy α + 3θ < 1 (thesis eq. 5.2.9). If only one of them is 0, it
	// is used as 0, with a warning in Result.Warnings (the default pair
	// does not apply).
	Alpha float64 `doc:"Pitman–Yor concentration α > −θ (α = θ = 0: 0.5 and 0.1)" range:"(-1, 1e12]"`
	// Theta is the Pitman–Yor discount θ ∈ [0, 1).
	Theta float64 `doc:"Pitman–Yor discount θ ∈ [0, 1) (α = θ = 0: 0.5 and 0.1)" range:"[0, 1)"`
	// Sigma is the trade-off σ > 0 of eq. 5.2.2 between the k-means cost
	// and −ln p(Z), in the units of w‖φ − μ‖². If Sigma is 0, 1 is used.
	Sigma float64 `doc:"trade-off σ of eq. 5.2.2 (0: 1)" range:"0 | (0, 1e12]"`
	// Shift is the diagonal shift of the graph kernels of Table 5.2 (σI,
	// σI, σD⁻¹ there). If Shift is 0, the Gershgorin bound that makes the
	// kernel positive semidefinite is used (kmeans.NormalizedCutShift and
	// its siblings; ≤ 1 for ncut), so that J never increases. Any other
	// value is used as given; a negative one may make the kernel
	// indefinite. A larger shift adds about Shift to the cost of staying
	// in a cluster and nothing to a new singleton: it must be weighed with
	// Sigma. Unused by PLFeatures.
	Shift float64 `doc:"diagonal shift of the graph kernel (0: smallest Gershgorin shift making it PSD)" range:"[-1e12, 1e12]"`
	// MaxIter bounds the number of sweeps. If MaxIter is 0, 100 are used.
	MaxIter int `doc:"maximum number of sweeps (0: 100)" range:"0 | [1, 1000000]"`
}

// Name returns "plmeans".
func (PLMeans) Name() string { return "plmeans" }

// Uses declares what PLMeans reads from a Problem (see Run): feature rows
// for PLFeatures, the graph otherwise; k is estimated.
func (m PLMeans) Uses() Uses {
	if m.Kernel == PLFeatures {
		return Uses{Input: FeatureInput, EstimatesK: true, FindsK: true, NoKEigensolve: true}
	}
	// The normalized-cut kernel divides by degrees: a graph with isolated
	// nodes goes through Run's core rule (core.go).
	return Uses{EstimatesK: true, FindsK: true, Core: m.Kernel == PLNormalizedCut, NoKEigensolve: true}
}

// plParams are the resolved knobs.
type plParams struct {
	alpha, theta, sigma float64
	maxIter             int
}

// params applies the defaults and checks the knobs.
func (m PLMeans) params() (plParams, error) {
	p := plParams{alpha: m.Alpha, theta: m.Theta, sigma: m.Sigma, maxIter: m.MaxIter}
	if p.alpha == 0 && p.theta == 0 {
		p.alpha, p.theta = 0.5, 0.1
	}
	if p.sigma == 0 {
		p.sigma = 1
	}
	if p.maxIter == 0 {
		p.maxIter = 100
	}
	if !(p.theta >= 0 && p.theta < 1) {
		return p, knobInvalid("plmeans: θ = %v, want 0 ≤ θ < 1", p.theta)
	}
	if !(p.alpha > -p.theta) || math.IsInf(p.alpha, 1) {
		return p, knobInvalid("plmeans: α = %v, want a finite α > −θ = %v", p.alpha, 0-p.theta) // 0 − θ: never "-0"
	}
	if !(p.sigma > 0) || math.IsInf(p.sigma, 1) {
		return p, knobInvalid("plmeans: σ = %v, want a finite σ > 0", p.sigma)
	}
	if p.maxIter < 1 {
		return p, knobInvalid("plmeans: MaxIter = %d, want ≥ 1", p.maxIter)
	}
	return p, nil
}

// Partition clusters p.Features (PLFeatures) or p.Graph, finding k.
func (m PLMeans) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, m, p, s)
	if err != nil {
		return nil, err
	}
	par, err := m.params()
	if err != nil {
		return nil, err
	}
	var sp plSpace
	if m.Kernel == PLFeatures {
		if p.Features == nil {
			return nil, fmt.Errorf("%w: plmeans: Kernel = features needs Problem.Features", ErrInvalid)
		}
		if err := finiteRows(p.Features); err != nil {
			return nil, fmt.Errorf("%w: plmeans: %v", ErrInvalid, err)
		}
		sp = newPLVectors(p.Features)
	} else {
		if p.Graph == nil {
			return nil, fmt.Errorf("%w: plmeans: no graph", ErrInvalid)
		}
		if sp, err = newPLGraphKernel(p.Graph, m.Kernel, m.Shift); err != nil {
			return nil, err
		}
	}
	runs := max(1, s.Restarts)
	var rnd *rand.Rand
	var best *plRun
	n := sp.dim()
	for r := 0; r < runs; r++ {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		if r > 0 {
			if rnd == nil {
				rnd = rand.New(s.src(streamPLMeans))
			}
			rnd.Shuffle(n, func(a, b int) { order[a], order[b] = order[b], order[a] })
		}
		run, err := plSolve(ctx, sp, par, order, p.K, s.Recorder)
		if err != nil {
			// Only a cancellation stops a run.
			return nil, fmt.Errorf("cluster: plmeans: run %d of %d: %w", r+1, runs, err)
		}
		if best == nil || run.objective < best.objective {
			best = run
		}
	}
	res := &Result{Labels: best.labels, K: best.k, Objective: best.objective, Iterations: best.sweeps}
	if p.K > 0 && best.k < p.K {
		// K caps the clusters; say so when it did not bind, as opplc
		// does, so that a K = 3 answered with one cluster is not a
		// surprise.
		res.Warnings = append(res.Warnings, fmt.Sprintf("plmeans estimates k: found %s, fewer than the cap K = %d", wording.Count(best.k, "cluster", "clusters"), p.K))
	}
	if !best.converged {
		res.Warnings = append(res.Warnings, fmt.Sprintf("plmeans: stopped after %s without reaching a fixed point (MaxIter)", wording.Count(best.sweeps, "sweep", "sweeps")))
	}
	sizes := make([]int, best.k)
	for _, l := range best.labels {
		sizes[l]++
	}
	single := 0
	for _, c := range sizes {
		if c == 1 {
			single++
		}
	}
	switch {
	case m.Alpha == 0 && m.Theta != 0:
		res.Warnings = append(res.Warnings, fmt.Sprintf("plmeans: α = 0 used with θ = %g: the default pair α = 0.5, θ = 0.1 applies only when both are 0; set Alpha too", m.Theta))
	case m.Theta == 0 && m.Alpha != 0:
		res.Warnings = append(res.Warnings, fmt.Sprintf("plmeans: θ = 0 (no discount: a Dirichlet-process prior) used with α = %g: the default pair α = 0.5, θ = 0.1 applies only when both are 0; set Theta too", m.Alpha))
	}
	if n > 2 && best.k == 1 && p.K != 1 {
		// eq. 5.2.8: no point leaves the one cluster of size n when
		// (α + θ)exp(w_i‖φ_i − μ‖²/σ) ≤ n − 1 − θ, which a large σ ensures.
		res.Warnings = append(res.Warnings, fmt.Sprintf("plmeans: one cluster holds all %d nodes: σ = %g may be too large (thesis §5.2.3, eq. 5.2.8)", n, par.sigma))
	}
	if n > 2 && 2*single > n {
		why := fmt.Sprintf("σ = %g may be too small", par.sigma)
		if par.alpha+3*par.theta >= 1 {
			why += fmt.Sprintf(", and α + 3θ = %g ≥ 1 keeps singletons from merging", par.alpha+3*par.theta)
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("plmeans: %d of %d nodes %s: %s (thesis §5.2.3, eq. 5.2.8–5.2.9)", single, n, wording.Form(single, "is a singleton", "are singletons"), why))
	}
	return res, nil
}

// plRun is the outcome of one run of plSolve.
type plRun struct {
	labels    []int
	k         int
	objective float64
	trace     []float64 // J after initialisation and after each sweep
	sweeps    int
	converged bool
}

// plSpace is where power-law means measures distances: feature rows or a
// kernel's feature space, with node weights.
type plSpace interface {
	dim() int
	weight(i int) float64
	// freeze fixes μ_c, c < k, as the weighted means of the clusters of
	// labels (all non-empty).
	freeze(labels []int, k int)
	// open adds a frozen cluster whose centroid is φ_i (Alg. 16 line 9,
	// μ_k = x_i), numbered after the last: a cluster opened by point i
	// during a sweep.
	open(i int)
	// distances sets d[c] = ‖φ_i − μ_c‖² for every frozen cluster c, the
	// opened ones included (len(d) of them).
	distances(i int, d []float64)
	// cost returns Σ_i w_i ‖φ_i − μ_{labels_i}‖² with μ the weighted means
	// of labels (k non-empty clusters).
	cost(labels []int, k int) float64
}

// plLogPrior returns ln p(Z | α, θ) for the cluster sizes.
func plLogPrior(par plParams, sizes []int) float64 {
	lp, err := pitmanyor.CRP{Alpha: par.alpha, Theta: par.theta}.LogProbSizes(sizes)
	if err != nil {
		panic("cluster: plmeans: " + err.Error()) // parameters and sizes were checked
	}
	return lp
}

// plSolve runs Alg. 16 from one cluster, visiting the points in order.
// kcap > 0 caps the number of clusters. ctx is checked before each sweep
// and every 1024 points within one; its only error wraps ctx.Err() and
// names the sweep ("sweep 3: context canceled").
func plSolve(ctx context.Context, sp plSpace, par plParams, order []int, kcap int, rec progress.Recorder) (*plRun, error) {
	n := sp.dim()
	labels := make([]int, n)
	sizes := []int{n}
	k := 1
	run := &plRun{}
	obj := sp.cost(labels, k) - par.sigma*plLogPrior(par, sizes)
	run.trace = append(run.trace, obj)
	d := make([]float64, 0, 16)
	lnNew := func(k int) float64 { return math.Log(par.alpha + float64(k)*par.theta) }
	for it := 1; it <= par.maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("sweep %d: %w", it, err)
		}
		sp.freeze(labels, k)
		d = append(d[:0], make([]float64, k)...)
		moved := 0
		for t, i := range order {
			if t&1023 == 1023 {
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("sweep %d, point %d of %d: %w", it, t+1, n, err)
				}
			}
			c := labels[i]
			nc := sizes[c]
			w := sp.weight(i)
			sp.distances(i, d)
			best, bc := w*d[c], c // eq. 5.2.3
			var leave float64     // −ln of the prior factor lost by leaving c
			if nc > 1 {
				leave = math.Log(float64(nc) - 1 - par.theta)
			} else {
				leave = math.Log(par.alpha + float64(k-1)*par.theta)
			}
			for c2 := range d {
				if c2 == c || sizes[c2] == 0 {
					continue
				}
				// eq. 5.2.4 (n_c > 1) and 5.2.5 (n_c = 1)
				v := w*d[c2] + par.sigma*(leave-math.Log(float64(sizes[c2])-par.theta))
				if v < best {
					best, bc = v, c2
				}
			}
			if nc > 1 && (kcap <= 0 || k < kcap) {
				// eq. 5.2.6; eq. 5.2.7 (n_c = 1) is never a candidate.
				if v := par.sigma * (leave - lnNew(k)); v < best {
					best, bc = v, len(sizes)
				}
			}
			if bc == c {
				continue
			}
			moved++
			sizes[c]--
			if sizes[c] == 0 {
				k--
			}
			if bc == len(sizes) {
				// Alg. 16 line 9: the new cluster's centroid is x_i, and
				// it is a target for the points after i in this sweep.
				sizes = append(sizes, 0)
				k++
				sp.open(i)
				d = append(d, 0)
			}
			sizes[bc]++
			labels[i] = bc
		}
		// Renumber the clusters 0…k−1 by first appearance.
		remap := make([]int, len(sizes))
		for j := range remap {
			remap[j] = -1
		}
		next := 0
		for i, l := range labels {
			if remap[l] < 0 {
				remap[l] = next
				next++
			}
			labels[i] = remap[l]
		}
		sizes = sizes[:0]
		sizes = append(sizes, make([]int, next)...)
		for _, l := range labels {
			sizes[l]++
		}
		k = next
		obj = sp.cost(labels, k) - par.sigma*plLogPrior(par, sizes)
		run.trace = append(run.trace, obj)
		run.sweeps = it
		progress.Send(rec, progress.Event{Stage: "plmeans", Done: it, Total: par.maxIter, Message: fmt.Sprintf("k = %d, J = %.6g, %d moved", k, obj, moved)})
		if moved == 0 {
			run.converged = true
			break
		}
	}
	run.labels, run.k, run.objective = labels, k, obj
	return run, nil
}

// plVectors is the vector version's space: rows of x, unit weights.
type plVectors struct {
	n, d int
	x    []float64 // row-major n×d
	mu   []float64 // frozen centroids, k×d
}

func newPLVectors(x *mat.Dense) *plVectors {
	n, d := x.Dims()
	v := &plVectors{n: n, d: d, x: make([]float64, n*d)}
	for i := 0; i < n; i++ {
		copy(v.x[i*d:(i+1)*d], x.RawRowView(i))
	}
	return v
}

func (v *plVectors) dim() int           { return v.n }
func (v *plVectors) weight(int) float64 { return 1 }

// means sets mu (k×d) to the cluster means of labels.
func (v *plVectors) means(labels []int, k int, mu []float64) []float64 {
	mu = append(mu[:0], make([]float64, k*v.d)...)
	cnt := make([]float64, k)
	for i, l := range labels {
		cnt[l]++
		row := v.x[i*v.d : (i+1)*v.d]
		m := mu[l*v.d : (l+1)*v.d]
		for j, x := range row {
			m[j] += x
		}
	}
	for c := 0; c < k; c++ {
		m := mu[c*v.d : (c+1)*v.d]
		for j := range m {
			m[j] /= cnt[c]
		}
	}
	return mu
}

func (v *plVectors) freeze(labels []int, k int) { v.mu = v.means(labels, k, v.mu) }

func (v *plVectors) open(i int) { v.mu = append(v.mu, v.x[i*v.d:(i+1)*v.d]...) }

func (v *plVectors) distances(i int, d []float64) {
	row := v.x[i*v.d : (i+1)*v.d]
	for c := range d {
		m := v.mu[c*v.d : (c+1)*v.d]
		var s float64
		for j, x := range row {
			t := x - m[j]
			s += t * t
		}
		d[c] = s
	}
}

func (v *plVectors) cost(labels []int, k int) float64 {
	mu := v.means(labels, k, nil)
	var s float64
	for i, l := range labels {
		row := v.x[i*v.d : (i+1)*v.d]
		m := mu[l*v.d : (l+1)*v.d]
		for j, x := range row {
			t := x - m[j]
			s += t * t
		}
	}
	return s
}

// plKernelRows is a symmetric kernel known by rows: diag(i) = K_ii and
// row(i, f) calls f(b, K_ib) for every b with K_ib ≠ 0 (b = i included;
// a b may be visited more than once, the values then add up).
type plKernelRows interface {
	diag(i int) float64
	row(i int, f func(b int, v float64))
}

// plKernel is the kernel version's space: a kernel with node weights.
type plKernel struct {
	n    int
	k    plKernelRows
	w    []float64
	kd   []float64 // K_ii
	fl   []int     // frozen labels
	s, g []float64 // frozen Σ_{a∈c} w_a and Σ_{a,b∈c} w_a w_b K_ab
	op   []int     // op[a]: the cluster opened by point a this sweep, or −1
	acc  []float64
	seen []int
}

func newPLKernel(k plKernelRows, w []float64) *plKernel {
	n := len(w)
	p := &plKernel{n: n, k: k, w: w, kd: make([]float64, n)}
	for i := range p.kd {
		p.kd[i] = k.diag(i)
	}
	return p
}

func (p *plKernel) dim() int             { return p.n }
func (p *plKernel) weight(i int) float64 { return p.w[i] }

// stats sets s and g for the clusters of labels. Cost O(nnz(K)).
func (p *plKernel) stats(labels []int, k int, s, g []float64) ([]float64, []float64) {
	s = append(s[:0], make([]float64, k)...)
	g = append(g[:0], make([]float64, k)...)
	for a, l := range labels {
		s[l] += p.w[a]
		var sum float64
		p.k.row(a, func(b int, v float64) {
			if labels[b] == l {
				sum += p.w[b] * v
			}
		})
		g[l] += p.w[a] * sum
	}
	return s, g
}

func (p *plKernel) freeze(labels []int, k int) {
	p.fl = append(p.fl[:0], labels...)
	p.s, p.g = p.stats(labels, k, p.s, p.g)
	p.acc = append(p.acc[:0], make([]float64, k)...)
	if p.op == nil {
		p.op = make([]int, p.n)
	}
	for a := range p.op {
		p.op[a] = -1
	}
}

// open adds the frozen cluster {i}: s = w_i, g = w_i² K_ii, so that its
// centroid is φ_i.
func (p *plKernel) open(i int) {
	p.op[i] = len(p.s)
	p.s = append(p.s, p.w[i])
	p.g = append(p.g, p.w[i]*p.w[i]*p.kd[i])
	p.acc = append(p.acc, 0)
}

// distances: ‖φ_i − μ_c‖² = K_ii − 2 Σ_{b∈c} w_b K_ib / s_c + g_c / s_c²,
// the sums over the frozen clusters, a point b that opened a cluster
// counting in its frozen cluster and in the one it opened. Cost
// O(nnz(row i) + k).
func (p *plKernel) distances(i int, d []float64) {
	p.seen = p.seen[:0]
	add := func(l int, x float64) {
		if p.acc[l] == 0 {
			p.seen = append(p.seen, l)
		}
		p.acc[l] += x
	}
	p.k.row(i, func(b int, v float64) {
		add(p.fl[b], p.w[b]*v)
		if o := p.op[b]; o >= 0 {
			add(o, p.w[b]*v)
		}
	})
	for c := range d {
		d[c] = p.kd[i] - 2*p.acc[c]/p.s[c] + p.g[c]/(p.s[c]*p.s[c])
	}
	for _, l := range p.seen {
		p.acc[l] = 0
	}
}

// cost is Σ_a w_a K_aa − Σ_c g_c/s_c.
func (p *plKernel) cost(labels []int, k int) float64 {
	s, g := p.stats(labels, k, nil, nil)
	var j float64
	for a, v := range p.kd {
		j += p.w[a] * v
	}
	for c := range s {
		j -= g[c] / s[c]
	}
	return j
}

// plGraphRows is K = diag(δ) + S·W·S (S = diag(scale), nil meaning I).
type plGraphRows struct {
	g     *graph.Graph
	delta []float64
	scale []float64
}

func (r *plGraphRows) sc(i int) float64 {
	if r.scale == nil {
		return 1
	}
	return r.scale[i]
}

func (r *plGraphRows) diag(i int) float64 {
	s := r.sc(i)
	return r.delta[i] + s*s*r.g.Weight(i, i)
}

func (r *plGraphRows) row(i int, f func(b int, v float64)) {
	si := r.sc(i)
	idx, w := r.g.Row(i)
	for t, b := range idx {
		f(int(b), si*w[t]*r.sc(int(b)))
	}
	if r.delta[i] != 0 {
		f(i, r.delta[i])
	}
}

// newPLGraphKernel builds the Table 5.2 kernel selected by kern, with the
// diagonal shift shift (0: the Gershgorin PSD bound).
func newPLGraphKernel(g *graph.Graph, kern PLKernel, shift float64) (*plKernel, error) {
	n := g.N()
	delta := make([]float64, n)
	var scale, w []float64
	switch kern {
	case PLRatioAssociation:
		if shift == 0 {
			shift = kmeans.RatioAssociationShift(g)
		}
		for i := range delta {
			delta[i] = shift
		}
	case PLRatioCut:
		if shift == 0 {
			shift = kmeans.RatioCutShift(g)
		}
		for i := range delta {
			delta[i] = shift - g.Degree(i)
		}
	case PLNormalizedCut:
		if shift == 0 {
			shift = kmeans.NormalizedCutShift(g)
		}
		scale, w = make([]float64, n), make([]float64, n)
		for i := range delta {
			di := g.Degree(i)
			if !(di > 0) {
				return nil, fmt.Errorf("cluster: plmeans: normalized cut kernel: %w: node %d has degree 0", graph.ErrIsolated, i)
			}
			delta[i], scale[i], w[i] = shift/di, 1/di, di
		}
	default:
		return nil, fmt.Errorf("%w: plmeans: unknown kernel %v", ErrInvalid, kern)
	}
	if w == nil {
		w = make([]float64, n)
		for i := range w {
			w[i] = 1
		}
	}
	return newPLKernel(&plGraphRows{g: g, delta: delta, scale: scale}, w), nil
}
