package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
)

// plTestLogPrior is ln p(Z|α,θ) as the product of the CRP's seating
// probabilities (thesis §5.1.3): customer m+1 opens table k+1 with
// probability (α + kθ)/(α + m) or joins table c with (n_c − θ)/(α + m).
// Seating the clusters one after the other gives the law of the partition
// (it is exchangeable). Written independently of pitmanyor.LogProb.
func plTestLogPrior(alpha, theta float64, labels []int) float64 {
	sizes := map[int]int{}
	var order []int
	for _, l := range labels {
		if sizes[l] == 0 {
			order = append(order, l)
		}
		sizes[l]++
	}
	lp, m, k := 0.0, 0, 0
	for _, l := range order {
		for j := 0; j < sizes[l]; j++ {
			if m > 0 {
				if j == 0 {
					lp += math.Log((alpha + float64(k)*theta) / (alpha + float64(m)))
				} else {
					lp += math.Log((float64(j) - theta) / (alpha + float64(m)))
				}
			}
			if j == 0 {
				k++
			}
			m++
		}
	}
	return lp
}

// plTestJ is eq. 5.2.2 on feature rows with unit weights, centroids the
// cluster means, written directly.
func plTestJ(x [][]float64, labels []int, alpha, theta, sigma float64) float64 {
	mu := plTestMeans(x, labels)
	var s float64
	for i, l := range labels {
		s += plTestSq(x[i], mu[l])
	}
	return s - sigma*plTestLogPrior(alpha, theta, labels)
}

func plTestMeans(x [][]float64, labels []int) map[int][]float64 {
	mu, cnt := map[int][]float64{}, map[int]float64{}
	for i, l := range labels {
		if mu[l] == nil {
			mu[l] = make([]float64, len(x[i]))
		}
		for j, v := range x[i] {
			mu[l][j] += v
		}
		cnt[l]++
	}
	for l, m := range mu {
		for j := range m {
			m[j] /= cnt[l]
		}
	}
	return mu
}

func plTestSq(a, b []float64) float64 {
	var s float64
	for j := range a {
		s += (a[j] - b[j]) * (a[j] - b[j])
	}
	return s
}

// plTestBlobs returns n points in dim dimensions around k centres spread
// by sep, with unit spread.
func plTestBlobs(n, k, dim int, sep float64, seed uint64) [][]float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	centres := make([][]float64, k)
	for c := range centres {
		centres[c] = make([]float64, dim)
		for j := range centres[c] {
			centres[c][j] = sep * r.NormFloat64()
		}
	}
	x := make([][]float64, n)
	for i := range x {
		c := r.IntN(k)
		x[i] = make([]float64, dim)
		for j := range x[i] {
			x[i][j] = centres[c][j] + r.NormFloat64()
		}
	}
	return x
}

func plTestDense(x [][]float64) *mat.Dense {
	m := mat.NewDense(len(x), len(x[0]), nil)
	for i, r := range x {
		m.SetRow(i, r)
	}
	return m
}

// TestPLMeansObjectiveMonotone: the objective recomputed here (means,
// squared distances, the seating product) equals the reported one, and it
// never increases over the sweeps.
func TestPLMeansObjectiveMonotone(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 10, 70} {
		for _, tc := range []struct{ alpha, theta, sigma float64 }{
			{0.5, 0.1, 1}, {1, 0.2, 1}, {0.1, 0, 5}, {2, 0.5, 0.3}, {0.05, 0.05, 20},
		} {
			t.Run(fmt.Sprintf("n=%d/a=%g/th=%g/s=%g", n, tc.alpha, tc.theta, tc.sigma), func(t *testing.T) {
				x := plTestBlobs(n, 3, 2, 4, uint64(n))
				par := plParams{alpha: tc.alpha, theta: tc.theta, sigma: tc.sigma, maxIter: 100}
				order := make([]int, n)
				for i := range order {
					order[i] = i
				}
				run, err := plSolve(context.Background(), newPLVectors(plTestDense(x)), par, order, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				want := plTestJ(x, run.labels, tc.alpha, tc.theta, tc.sigma)
				if math.Abs(run.objective-want) > 1e-9*(1+math.Abs(want)) {
					t.Errorf("objective %v, recomputed %v", run.objective, want)
				}
				for i := 1; i < len(run.trace); i++ {
					if run.trace[i] > run.trace[i-1]+1e-9*(1+math.Abs(run.trace[i-1])) {
						t.Errorf("objective rose at sweep %d: %v → %v", i, run.trace[i-1], run.trace[i])
					}
				}
				if !run.converged {
					t.Errorf("no fixed point after %d sweeps", run.sweeps)
				}
			})
		}
	}
}

// plTestGraph is a random weighted graph: two dense groups and sparse noise.
func plTestGraph(t testing.TB, n int, seed uint64) *graph.Graph {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 11))
	var e []graph.Edge
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			p := 0.1
			if (i < n/2) == (j < n/2) {
				p = 0.7
			}
			if r.Float64() < p || j == i+1 {
				e = append(e, graph.Edge{I: i, J: j, W: 0.5 + r.Float64()})
			}
		}
	}
	g, err := graph.FromEdges(n, e)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// plTestKernelJ is eq. 5.2.2 in a kernel's feature space from the dense
// kernel matrix K and weights w, written directly:
// Σ_i w_i (K_ii − 2Σ_{j∈c} w_j K_ij/s_c + Σ_{j,l∈c} w_j w_l K_jl/s_c²).
func plTestKernelJ(k *mat.Dense, w []float64, labels []int, alpha, theta, sigma float64) float64 {
	var j float64
	for i, li := range labels {
		var s, a, b float64
		for p, lp := range labels {
			if lp != li {
				continue
			}
			s += w[p]
			a += w[p] * k.At(i, p)
			for q, lq := range labels {
				if lq == li {
					b += w[p] * w[q] * k.At(p, q)
				}
			}
		}
		j += w[i] * (k.At(i, i) - 2*a/s + b/(s*s))
	}
	return j - sigma*plTestLogPrior(alpha, theta, labels)
}

// TestPLMeansGraphKernels: for the three kernels of thesis Table 5.2 built
// here from the dense W (shift: the Gershgorin bound, recomputed here),
// the reported objective equals plTestKernelJ and never increases.
func TestPLMeansGraphKernels(t *testing.T) {
	for _, n := range []int{3, 10, 40} {
		g := plTestGraph(t, n, uint64(n))
		w := g.Dense()
		deg := make([]float64, n)
		for i := range deg {
			for j := 0; j < n; j++ {
				deg[i] += w.At(i, j)
			}
		}
		for _, kern := range []PLKernel{PLNormalizedCut, PLRatioAssociation, PLRatioCut} {
			for _, sigma := range []float64{0.01, 0.3, 3} {
				t.Run(fmt.Sprintf("n=%d/%v/s=%g", n, kern, sigma), func(t *testing.T) {
					K := mat.NewDense(n, n, nil)
					wt := make([]float64, n)
					var shift float64
					for i := 0; i < n; i++ {
						switch kern {
						case PLRatioAssociation:
							shift = max(shift, deg[i]) // no self loops: d_i − 2W_ii
						case PLRatioCut:
							shift = max(shift, 2*deg[i])
						case PLNormalizedCut:
							shift = 1
						}
					}
					for i := 0; i < n; i++ {
						wt[i] = 1
						for j := 0; j < n; j++ {
							var v float64
							switch kern {
							case PLRatioAssociation:
								v = w.At(i, j)
							case PLRatioCut:
								v = w.At(i, j)
								if i == j {
									v -= deg[i]
								}
							case PLNormalizedCut:
								v = w.At(i, j) / (deg[i] * deg[j])
							}
							K.Set(i, j, v)
						}
						if kern == PLNormalizedCut {
							wt[i] = deg[i]
							K.Set(i, i, K.At(i, i)+shift/deg[i])
						} else {
							K.Set(i, i, K.At(i, i)+shift)
						}
					}
					sp, err := newPLGraphKernel(g, kern, 0)
					if err != nil {
						t.Fatal(err)
					}
					par := plParams{alpha: 0.3, theta: 0.1, sigma: sigma, maxIter: 100}
					order := make([]int, n)
					for i := range order {
						order[i] = i
					}
					run, err := plSolve(context.Background(), sp, par, order, 0, nil)
					if err != nil {
						t.Fatal(err)
					}
					want := plTestKernelJ(K, wt, run.labels, par.alpha, par.theta, par.sigma)
					if math.Abs(run.objective-want) > 1e-9*(1+math.Abs(want)) {
						t.Errorf("objective %v, recomputed %v", run.objective, want)
					}
					for i := 1; i < len(run.trace); i++ {
						if run.trace[i] > run.trace[i-1]+1e-9*(1+math.Abs(run.trace[i-1])) {
							t.Errorf("objective rose at sweep %d: %v → %v", i, run.trace[i-1], run.trace[i])
						}
					}
				})
			}
		}
	}
}

// TestPLMeansLocalOptimum: at the result, with the centroids μ of the
// result fixed, no single move of a point to another cluster or (from a
// non-singleton) to a new cluster of its own lowers
// J(Z, μ) = Σ_i ‖x_i − μ_{Z_i}‖² − σ ln p(Z), evaluated here by brute
// force for every move: Alg. 16's fixed point.
func TestPLMeansLocalOptimum(t *testing.T) {
	for _, tc := range []struct {
		n                   int
		alpha, theta, sigma float64
	}{
		{12, 0.5, 0.1, 1}, {20, 0.2, 0.05, 3}, {30, 1, 0.2, 0.5}, {25, 0.05, 0, 10},
	} {
		t.Run(fmt.Sprintf("n=%d/a=%g/th=%g/s=%g", tc.n, tc.alpha, tc.theta, tc.sigma), func(t *testing.T) {
			x := plTestBlobs(tc.n, 3, 2, 3, uint64(tc.n)+5)
			res, err := Run(context.Background(), PLMeans{Kernel: PLFeatures, Alpha: tc.alpha, Theta: tc.theta, Sigma: tc.sigma}, &Problem{Features: plTestDense(x)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			mu := plTestMeans(x, res.Labels)
			jfix := func(labels []int, extra map[int][]float64) float64 {
				var s float64
				for i, l := range labels {
					m := mu[l]
					if m == nil {
						m = extra[l]
					}
					s += plTestSq(x[i], m)
				}
				return s - tc.sigma*plTestLogPrior(tc.alpha, tc.theta, labels)
			}
			base := jfix(res.Labels, nil)
			sizes := map[int]int{}
			for _, l := range res.Labels {
				sizes[l]++
			}
			for i := range x {
				for c := 0; c <= res.K; c++ { // c = K: a new cluster
					if c == res.Labels[i] || (c == res.K && sizes[res.Labels[i]] == 1) {
						continue
					}
					z := slices.Clone(res.Labels)
					z[i] = c
					if v := jfix(z, map[int][]float64{res.K: x[i]}); v < base-1e-9*(1+math.Abs(base)) {
						t.Errorf("moving %d from %d to %d lowers J(Z, μ): %v < %v", i, res.Labels[i], c, v, base)
					}
				}
			}
		})
	}
}

// TestPLMeansGlobalTiny: on tiny, well-separated inputs the result is the
// global minimum of eq. 5.2.2 over all partitions, enumerated here
// (restricted growth strings: Bell(7) = 877 partitions). "two groups,
// θ = 0.1" was a trap before review 93: a cluster opened in a sweep was a
// target only from the next sweep, so the first sweep made every point a
// singleton and singletons cannot merge (α + (k−1)θ ≥ 1 − θ); with Alg.
// 16 line 9 (μ_k = x_i at once) the points after the first singleton join
// it and the global minimum {0, 0, 0, 1, 1, 1} is found.
func TestPLMeansGlobalTiny(t *testing.T) {
	for _, tc := range []struct {
		name                string
		x                   [][]float64
		alpha, theta, sigma float64
	}{
		{"two groups", [][]float64{{0}, {0.1}, {0.2}, {5}, {5.1}, {5.3}}, 0.5, 0.02, 1},
		{"two groups, θ = 0.1", [][]float64{{0}, {0.1}, {0.2}, {5}, {5.1}, {5.3}}, 0.5, 0.1, 1},
		{"three groups", [][]float64{{0, 0}, {0.2, 0}, {4, 4}, {4, 4.1}, {4.2, 4}, {-4, 4}, {-4.1, 4.1}}, 0.3, 0.05, 1},
		{"one group", [][]float64{{0}, {0.1}, {0.3}, {0.35}, {0.5}}, 0.5, 0.1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.x)
			res, err := Run(context.Background(), PLMeans{Kernel: PLFeatures, Alpha: tc.alpha, Theta: tc.theta, Sigma: tc.sigma}, &Problem{Features: plTestDense(tc.x)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			best, bestZ := math.Inf(1), []int(nil)
			z := make([]int, n)
			var rec func(i, k int)
			rec = func(i, k int) {
				if i == n {
					if v := plTestJ(tc.x, z, tc.alpha, tc.theta, tc.sigma); v < best {
						best, bestZ = v, slices.Clone(z)
					}
					return
				}
				for c := 0; c <= k; c++ {
					z[i] = c
					rec(i+1, max(k, c+1))
				}
			}
			z[0] = 0
			rec(1, 1)
			if !slices.Equal(res.Labels, bestZ) || math.Abs(res.Objective-best) > 1e-9*(1+math.Abs(best)) {
				t.Errorf("labels %v (J = %v), global minimum %v (J = %v)", res.Labels, res.Objective, bestZ, best)
			}
		})
	}
}

// plLinearRows is the linear kernel K = XXᵀ, dense.
type plLinearRows struct{ x [][]float64 }

func (r plLinearRows) diag(i int) float64 { return plTestDot(r.x[i], r.x[i]) }
func (r plLinearRows) row(i int, f func(int, float64)) {
	for b := range r.x {
		f(b, plTestDot(r.x[i], r.x[b]))
	}
}

func plTestDot(a, b []float64) float64 {
	var s float64
	for j := range a {
		s += a[j] * b[j]
	}
	return s
}

// TestPLMeansKernelEqualsVector: the kernel version with the linear kernel
// on the feature rows and unit weights gives the vector version's
// partition, objective and number of sweeps.
func TestPLMeansKernelEqualsVector(t *testing.T) {
	for _, n := range []int{1, 5, 30, 80} {
		for _, sigma := range []float64{0.05, 1, 20} {
			t.Run(fmt.Sprintf("n=%d/s=%g", n, sigma), func(t *testing.T) {
				x := plTestBlobs(n, 4, 3, 3, uint64(n)*3)
				par := plParams{alpha: 0.4, theta: 0.15, sigma: sigma, maxIter: 100}
				order := make([]int, n)
				for i := range order {
					order[i] = i
				}
				w := make([]float64, n)
				for i := range w {
					w[i] = 1
				}
				vr, err := plSolve(context.Background(), newPLVectors(plTestDense(x)), par, order, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				kr, err := plSolve(context.Background(), newPLKernel(plLinearRows{x}, w), par, order, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(vr.labels, kr.labels) || vr.sweeps != kr.sweeps {
					t.Errorf("vector %v (%d sweeps), kernel %v (%d sweeps)", vr.labels, vr.sweeps, kr.labels, kr.sweeps)
				}
				if math.Abs(vr.objective-kr.objective) > 1e-8*(1+math.Abs(vr.objective)) {
					t.Errorf("objective: vector %v, kernel %v", vr.objective, kr.objective)
				}
			})
		}
	}
}

// TestPLMeansSingletonBound checks thesis §5.2.3 against the objective.
// (1) The singleton condition 5.2.8: moving x_i out of a cluster of size
// n_c into a new cluster lowers J(Z, μ) (μ fixed, evaluated here) exactly
// when (α + kθ) exp(‖x_i − μ_c‖²/σ) > n_c − 1 − θ. (2) Merging two
// coincident singletons beside one big cluster (k = 3) lowers J exactly
// when α + 3θ < 1 (eq. 5.2.9): ΔJ = σ ln((α + 2θ)/(1 − θ)). (3) PLMeans
// itself merges two far, coincident points into one cluster exactly when
// α + 3θ < 1.
func TestPLMeansSingletonBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for trial := 0; trial < 500; trial++ {
		alpha := r.Float64()*2 - 0.05
		theta := r.Float64() * 0.9
		if alpha <= -theta {
			continue
		}
		sigma := math.Exp(r.NormFloat64())
		nc := 2 + r.IntN(20)
		k := 1 + r.IntN(10)
		// Cluster 0 has nc points; clusters 1…k−1 one point each.
		x := make([][]float64, 0, nc+k-1)
		for i := 0; i < nc+k-1; i++ {
			x = append(x, []float64{r.NormFloat64() * 2})
		}
		labels := make([]int, len(x))
		for i := nc; i < len(x); i++ {
			labels[i] = i - nc + 1
		}
		mu := plTestMeans(x, labels)
		jfix := func(z []int) float64 {
			var s float64
			for i, l := range z {
				m, ok := mu[l]
				if !ok {
					m = x[i]
				}
				s += plTestSq(x[i], m)
			}
			return s - sigma*plTestLogPrior(alpha, theta, z)
		}
		z := slices.Clone(labels)
		z[0] = k // point 0 to a new cluster
		dj := jfix(z) - jfix(labels)
		cond := (alpha+float64(k)*theta)*math.Exp(plTestSq(x[0], mu[0])/sigma) > float64(nc)-1-theta
		if math.Abs(dj) > 1e-9 && (dj < 0) != cond {
			t.Errorf("α=%g θ=%g σ=%g n_c=%d k=%d: ΔJ = %v, condition 5.2.8 %v", alpha, theta, sigma, nc, k, dj, cond)
		}
	}
	for _, alpha := range []float64{0.05, 0.3, 0.6, 0.9, 1.5} {
		for _, theta := range []float64{0, 0.1, 0.2, 0.3} {
			if d := alpha + 3*theta - 1; math.Abs(d) < 1e-6 {
				continue // the tie
			}
			t.Run(fmt.Sprintf("a=%g/th=%g", alpha, theta), func(t *testing.T) {
				const m = 200
				x := make([][]float64, m+2)
				for i := range x {
					x[i] = []float64{0}
				}
				x[m], x[m+1] = []float64{10}, []float64{10}
				a := make([]int, m+2)
				a[m], a[m+1] = 1, 2
				b := slices.Clone(a)
				b[m+1] = 1
				sigma := 1.0
				dj := plTestJ(x, b, alpha, theta, sigma) - plTestJ(x, a, alpha, theta, sigma)
				if want := sigma * math.Log((alpha+2*theta)/(1-theta)); math.Abs(dj-want) > 1e-9 {
					t.Errorf("ΔJ of the merge = %v, want σ ln((α+2θ)/(1−θ)) = %v", dj, want)
				}
				bound := alpha+3*theta < 1
				if (dj < 0) != bound {
					t.Errorf("merge lowers J: %v, α + 3θ < 1: %v", dj < 0, bound)
				}
				res, err := Run(context.Background(), PLMeans{Kernel: PLFeatures, Alpha: alpha, Theta: theta, Sigma: sigma}, &Problem{Features: plTestDense(x)}, nil)
				if err != nil {
					t.Fatal(err)
				}
				together := res.Labels[m] == res.Labels[m+1]
				if together != bound || res.Labels[m] == res.Labels[0] {
					t.Errorf("labels of the far points %d, %d (big cluster %d), α + 3θ < 1: %v", res.Labels[m], res.Labels[m+1], res.Labels[0], bound)
				}
			})
		}
	}
}

// TestPLMeansDeterministic: the same Settings give the same result, with
// and without random visiting orders; a K cap is honoured.
func TestPLMeansDeterministic(t *testing.T) {
	x := plTestDense(plTestBlobs(60, 4, 2, 4, 3))
	g := plTestGraph(t, 40, 4)
	for _, tc := range []struct {
		name string
		m    PLMeans
		p    *Problem
	}{
		{"features", PLMeans{Kernel: PLFeatures, Sigma: 2}, &Problem{Features: x}},
		{"ncut", PLMeans{Sigma: 0.05}, &Problem{Graph: g}},
		{"ratio-cut", PLMeans{Kernel: PLRatioCut, Sigma: 3}, &Problem{Graph: g}},
	} {
		for _, restarts := range []int{0, 4} {
			t.Run(fmt.Sprintf("%s/r=%d", tc.name, restarts), func(t *testing.T) {
				s := &Settings{Seed: 9, Restarts: restarts}
				a, err := Run(context.Background(), tc.m, tc.p, s)
				if err != nil {
					t.Fatal(err)
				}
				b, err := Run(context.Background(), tc.m, tc.p, s)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(a.Labels, b.Labels) || a.Objective != b.Objective {
					t.Errorf("two runs differ: %v (%v) and %v (%v)", a.Labels, a.Objective, b.Labels, b.Objective)
				}
				p := *tc.p
				p.K = 2
				c, err := Run(context.Background(), tc.m, &p, s)
				if err != nil {
					t.Fatal(err)
				}
				if c.K > 2 {
					t.Errorf("K cap 2: got %d clusters", c.K)
				}
				// A cap that does not bind is said, as opplc says it.
				warned := slices.ContainsFunc(c.Warnings, func(w string) bool { return strings.Contains(w, "fewer than the cap K = 2") })
				if warned != (c.K < 2) {
					t.Errorf("K = %d of cap 2, warnings %q", c.K, c.Warnings)
				}
			})
		}
	}
}

// TestPLMeansBadInput: θ ∉ [0, 1), α ≤ −θ, non-finite features, a missing
// input and an isolated node with the ncut kernel are errors naming the
// value; a cancelled context stops the run.
func TestPLMeansBadInput(t *testing.T) {
	x := plTestDense(plTestBlobs(10, 2, 2, 3, 1))
	nan := mat.DenseCopyOf(x)
	nan.Set(3, 1, math.NaN())
	iso, err := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		m    PLMeans
		p    *Problem
		want error
		msg  string
	}{
		{"theta=1", PLMeans{Kernel: PLFeatures, Alpha: 0.5, Theta: 1}, &Problem{Features: x}, ErrInvalid, "1"},
		{"theta<0", PLMeans{Kernel: PLFeatures, Alpha: 0.5, Theta: -0.1}, &Problem{Features: x}, ErrInvalid, "-0.1"},
		{"alpha=-theta", PLMeans{Kernel: PLFeatures, Alpha: -0.2, Theta: 0.2}, &Problem{Features: x}, ErrInvalid, "α = -0.2"},
		{"alpha<-theta", PLMeans{Kernel: PLFeatures, Alpha: -0.5, Theta: 0.2}, &Problem{Features: x}, ErrInvalid, "α = -0.5"},
		// The bound printed "−θ = -0" (the negated zero) for θ = 0.
		{"alpha<0=theta", PLMeans{Kernel: PLFeatures, Alpha: -0.5, Theta: 0}, &Problem{Features: x}, ErrInvalid, "α = -0.5, want a finite α > −θ = 0"},
		{"alpha=0 theta=0.0", PLMeans{Kernel: PLFeatures, Alpha: 0, Theta: 1e-300, Sigma: 1}, &Problem{Features: x}, nil, ""},
		{"nan feature", PLMeans{Kernel: PLFeatures}, &Problem{Features: nan}, ErrInvalid, "NaN"},
		{"no features", PLMeans{Kernel: PLFeatures}, &Problem{Graph: iso}, ErrInvalid, "Features"},
		// Strict: by default Run clusters the core and attaches node 2 (core.go).
		{"isolated", PLMeans{}, &Problem{Graph: iso, Disconnected: DisconnectedStrict}, graph.ErrIsolated, "node 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), tc.m, tc.p, nil)
			if tc.want == nil {
				if err != nil {
					t.Errorf("error %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want %v naming %q", err, tc.want, tc.msg)
			}
			// The method checks its parameters itself too (direct calls).
			if tc.want == ErrInvalid && strings.HasPrefix(tc.name, "theta") || strings.HasPrefix(tc.name, "alpha<") {
				if _, err := tc.m.Partition(context.Background(), tc.p, &Settings{}); !errors.Is(err, ErrInvalid) {
					t.Errorf("Partition: error %v, want ErrInvalid", err)
				}
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (PLMeans{Kernel: PLFeatures}).Partition(ctx, &Problem{Features: x}, &Settings{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestPLMeansCapWarning: on one blob, a cap K = 3 does not bind; the
// result says so (it returned fewer clusters without a word).
func TestPLMeansCapWarning(t *testing.T) {
	x := plTestDense(plTestBlobs(60, 1, 2, 0.5, 3))
	res, err := Run(context.Background(), PLMeans{Kernel: PLFeatures, Sigma: 2}, &Problem{Features: x, K: 3}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.K >= 3 {
		t.Fatalf("K = %d: the cap binds on one blob", res.K)
	}
	want := fmt.Sprintf("plmeans estimates k: found %s, fewer than the cap K = 3", wording.Count(res.K, "cluster", "clusters"))
	if !slices.Contains(res.Warnings, want) {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
}

// plTestAlg16 is thesis Alg. 16 (vector case, unit weights) transcribed
// directly, with maps and counts recomputed from the labels at every
// point: each sweep visits the points in index order and gives each the
// cluster of smallest score of eq. 5.2.3–5.2.7, the centroids those of the
// start of the sweep except that a cluster opened by a point has its
// centroid at that point (line 9) until the means are recomputed (lines
// 10–11). Ties: stay, then the lowest cluster index, then an existing
// cluster before a new one. Clusters are renumbered by first appearance
// after each sweep. It returns the labels and the number of sweeps.
func plTestAlg16(x [][]float64, alpha, theta, sigma float64, maxIter int) ([]int, int) {
	n := len(x)
	z := make([]int, n)
	sweeps := 0
	for it := 1; it <= maxIter; it++ {
		sweeps = it
		mu := plTestMeans(x, z)
		next := 0
		for _, l := range z {
			next = max(next, l+1)
		}
		moved := false
		for i := range x {
			size := map[int]int{}
			for _, l := range z {
				size[l]++
			}
			k := len(size)
			c, nc := z[i], size[z[i]]
			var leave float64
			if nc > 1 {
				leave = math.Log(float64(nc) - 1 - theta)
			} else {
				leave = math.Log(alpha + float64(k-1)*theta)
			}
			best, bc := plTestSq(x[i], mu[c]), c
			for c2 := 0; c2 < next; c2++ {
				if c2 == c || size[c2] == 0 {
					continue
				}
				if v := plTestSq(x[i], mu[c2]) + sigma*(leave-math.Log(float64(size[c2])-theta)); v < best {
					best, bc = v, c2
				}
			}
			if nc > 1 {
				if v := sigma * (leave - math.Log(alpha+float64(k)*theta)); v < best {
					bc = next
				}
			}
			if bc == c {
				continue
			}
			moved = true
			if bc == next {
				mu[next] = slices.Clone(x[i])
				next++
			}
			z[i] = bc
		}
		remap := map[int]int{}
		for i, l := range z {
			if _, ok := remap[l]; !ok {
				remap[l] = len(remap)
			}
			z[i] = remap[l]
		}
		if !moved {
			break
		}
	}
	return z, sweeps
}

// TestPLMeansFollowsAlg16: the vector version gives the labels and the
// number of sweeps of plTestAlg16 on random inputs across the regimes of
// §5.2.3 (singletons, one cluster, several), including the cases review
// 93 found where new clusters were not targets within their sweep.
func TestPLMeansFollowsAlg16(t *testing.T) {
	cases := []struct {
		name                string
		x                   [][]float64
		alpha, theta, sigma float64
	}{
		{"review 93", [][]float64{{0}, {0.1}, {0.2}, {5}, {5.1}, {5.3}}, 0.5, 0.1, 1},
	}
	for seed := uint64(1); seed <= 6; seed++ {
		for _, par := range []struct{ alpha, theta, sigma float64 }{{0.5, 0.1, 1}, {0.05, 0.2, 0.1}, {1, 0, 3}, {0.3, 0.05, 0.5}} {
			cases = append(cases, struct {
				name                string
				x                   [][]float64
				alpha, theta, sigma float64
			}{fmt.Sprintf("blobs seed %d α %g θ %g σ %g", seed, par.alpha, par.theta, par.sigma), plTestBlobs(40, 4, 2, 3, seed), par.alpha, par.theta, par.sigma})
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := PLMeans{Kernel: PLFeatures, Alpha: tc.alpha, Theta: tc.theta, Sigma: tc.sigma}
			res, err := Run(context.Background(), m, &Problem{Features: plTestDense(tc.x)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			want, sweeps := plTestAlg16(tc.x, tc.alpha, tc.theta, tc.sigma, 100)
			if !slices.Equal(res.Labels, want) || res.Iterations != sweeps {
				t.Errorf("labels %v after %d sweeps, Alg. 16 gives %v after %d", res.Labels, res.Iterations, want, sweeps)
			}
		})
	}
}

// TestPLMeansWarnings: a result of one cluster for all the points (a σ so
// large that no point leaves: eq. 5.2.8, (α + θ)e^{‖x − μ‖²/σ} ≤ n − 1 − θ
// for every point, checked below) carries a warning naming σ, as the
// all-singletons result does; a well-separated run at σ = 1 does not.
// Setting one of Alpha and Theta and leaving the other at 0 uses that 0,
// not the default pair (0.5, 0.1), with a warning; both 0 or both set,
// none. Before, none of these warnings existed (QA: -set Theta=0.3 ran
// with α = 0 silently; σ = 1e6 answered k = 1 without a word).
func TestPLMeansWarnings(t *testing.T) {
	x := plTestBlobs(60, 3, 2, 6, 4)
	const bigSigma = 1e6
	// Oracle of eq. 5.2.8 for the one cluster: its mean and the largest
	// squared distance to it.
	mu := make([]float64, 2)
	for _, r := range x {
		mu[0] += r[0] / float64(len(x))
		mu[1] += r[1] / float64(len(x))
	}
	far := 0.0
	for _, r := range x {
		far = math.Max(far, plTestSq(r, mu))
	}
	if (0.5+0.1)*math.Exp(far/bigSigma) > float64(len(x))-1-0.1 {
		t.Fatalf("σ = %g does not keep one cluster by eq. 5.2.8", bigSigma)
	}
	const one = "one cluster holds all 60 nodes: σ = 1e+06 may be too large"
	const pairA = "α = 0 used with θ = 0.3: the default pair α = 0.5, θ = 0.1 applies only when both are 0"
	const pairT = "θ = 0 (no discount: a Dirichlet-process prior) used with α = 0.7"
	for _, tc := range []struct {
		name string
		m    PLMeans
		want []string
		not  []string
	}{
		{"large sigma", PLMeans{Kernel: PLFeatures, Sigma: bigSigma}, []string{one}, []string{pairA, pairT}},
		{"default", PLMeans{Kernel: PLFeatures}, nil, []string{one, pairA, pairT}},
		{"theta alone", PLMeans{Kernel: PLFeatures, Theta: 0.3}, []string{pairA}, []string{one, pairT}},
		{"alpha alone", PLMeans{Kernel: PLFeatures, Alpha: 0.7}, []string{pairT}, []string{one, pairA}},
		{"both", PLMeans{Kernel: PLFeatures, Alpha: 0.7, Theta: 0.1}, nil, []string{one, pairA, pairT}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), tc.m, &Problem{Features: plTestDense(x)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(res.Warnings, "\n")
			if tc.name == "large sigma" && res.K != 1 {
				t.Fatalf("σ = %g: k = %d, want 1", bigSigma, res.K)
			}
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("k = %d, warnings %q, want %q", res.K, res.Warnings, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(all, w) {
					t.Errorf("k = %d, warnings %q, do not want %q", res.K, res.Warnings, w)
				}
			}
		})
	}
	// A cap K = 1 asks for one cluster: no warning.
	res, err := Run(context.Background(), PLMeans{Kernel: PLFeatures, Sigma: bigSigma}, &Problem{Features: plTestDense(x), K: 1}, nil)
	if err != nil || strings.Contains(strings.Join(res.Warnings, "\n"), "one cluster holds") {
		t.Errorf("K = 1: warnings %q (%v)", res.Warnings, err)
	}
}
