package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
	"github.com/tether-sc/tether/progress"
)

// coscRandomGraph returns a random graph on n nodes: each pair joined with
// probability p, weights uniform in (0.1, 1]; every node not in isolated
// gets at least one edge.
func coscRandomGraph(t *testing.T, rng *rand.Rand, n int, p float64, isolated ...int) *graph.Graph {
	t.Helper()
	skip := make(map[int]bool)
	for _, i := range isolated {
		skip[i] = true
	}
	var es []graph.Edge
	deg := make([]int, n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if !skip[i] && !skip[j] && rng.Float64() < p {
				es = append(es, graph.Edge{I: i, J: j, W: 0.1 + 0.9*rng.Float64()})
				deg[i]++
				deg[j]++
			}
		}
	}
	for i := 0; i < n; i++ {
		if deg[i] == 0 && !skip[i] {
			j := (i + 1 + rng.IntN(n-1)) % n
			for skip[j] {
				j = (j + 1) % n
			}
			if j == i {
				continue
			}
			es = append(es, graph.Edge{I: min(i, j), J: max(i, j), W: 0.1 + 0.9*rng.Float64()})
			deg[i]++
			deg[j]++
		}
	}
	g, err := graph.FromEdges(n, es)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// coscRandomPairs draws m distinct pairs and labels them by truth (must-link
// within a class, cannot-link across): consistent by construction.
func coscRandomPairs(rng *rand.Rand, truth []int, m int) *constraint.Set {
	n := len(truth)
	s := &constraint.Set{N: n}
	seen := make(map[[2]int]bool)
	for len(s.Pairs) < m && len(seen) < n*(n-1)/2 {
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j {
			continue
		}
		i, j = min(i, j), max(i, j)
		if seen[[2]int{i, j}] {
			continue
		}
		seen[[2]int{i, j}] = true
		k := constraint.CannotLink
		if truth[i] == truth[j] {
			k = constraint.MustLink
		}
		s.Pairs = append(s.Pairs, constraint.Pair{I: i, J: j, Kind: k})
	}
	return s
}

// coscNcut is the 2-way (or k-way) normalized cut Σ_c cut(C_c, V∖C_c)/vol(C_c)
// of labels, written from the definition on the dense weight matrix
// (independent of the code under test); +Inf if a cluster has volume 0.
func coscNcut(w *mat.SymDense, labels []int, k int) float64 {
	n, _ := w.Dims()
	cut := make([]float64, k)
	vol := make([]float64, k)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			vol[labels[i]] += w.At(i, j)
			if labels[i] != labels[j] {
				cut[labels[i]] += w.At(i, j)
			}
		}
	}
	var s float64
	for c := range cut {
		if !(vol[c] > 0) {
			return math.Inf(1)
		}
		s += cut[c] / vol[c]
	}
	return s
}

// coscConsistent reports whether the bipartition labels satisfies every pair.
func coscConsistent(pairs []constraint.Pair, labels []int) bool {
	for _, p := range pairs {
		if (labels[p.I] == labels[p.J]) != (p.Kind == constraint.MustLink) {
			return false
		}
	}
	return true
}

// coscBruteForce returns the least Ncut over all bipartitions of g (both
// sides of positive volume) consistent with pairs, by enumeration of the
// 2^(n−1) bipartitions with node n−1 on side 0; +Inf if there is none.
func coscBruteForce(g *graph.Graph, pairs []constraint.Pair) float64 {
	n := g.N()
	w := g.Dense()
	best := math.Inf(1)
	labels := make([]int, n)
	for mask := 1; mask < 1<<(n-1); mask++ {
		for i := 0; i < n; i++ {
			labels[i] = (mask >> i) & 1
		}
		if !coscConsistent(pairs, labels) {
			continue
		}
		best = min(best, coscNcut(w, labels, 2))
	}
	return best
}

// TestCOSCBruteForce: on tiny random graphs with random consistent
// constraint sets (and none), COSC at k = 2 reaches the least constrained
// Ncut found by enumerating all bipartitions (coscBruteForce), and
// violates no constraint. Tolerance: 1e-9 relative (the same partition).
func TestCOSCBruteForce(t *testing.T) {
	cases := []struct {
		name  string
		n     int
		p     float64
		pairs int
		seed  uint64
	}{
		{"n6-none", 6, 0.5, 0, 1},
		{"n8-3pairs", 8, 0.4, 3, 2},
		{"n9-6pairs", 9, 0.35, 6, 3},
		{"n10-4pairs", 10, 0.3, 4, 4},
		{"n10-none", 10, 0.3, 0, 5},
		{"n11-8pairs", 11, 0.3, 8, 6},
		{"n12-5pairs", 12, 0.25, 5, 7},
		{"n12-10pairs", 12, 0.3, 10, 8},
		{"n13-7pairs", 13, 0.25, 7, 9},
		{"n14-6pairs", 14, 0.2, 6, 10},
		{"n14-12pairs", 14, 0.3, 12, 11},
		{"n14-dense-4pairs", 14, 0.7, 4, 12},
	}
	const tol = 1e-9
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 77))
			g := coscRandomGraph(t, rng, tc.n, tc.p)
			truth := make([]int, tc.n)
			for i := range truth {
				truth[i] = rng.IntN(2)
			}
			set := coscRandomPairs(rng, truth, tc.pairs)
			want := coscBruteForce(g, set.Pairs)
			res, err := Run(context.Background(), COSC{}, &Problem{Graph: g, K: 2, Constraints: set}, &Settings{Seed: tc.seed})
			if err != nil {
				t.Fatal(err)
			}
			if ml, cl := constraint.Violations(set, res.Labels); ml+cl != 0 {
				t.Errorf("violations: %d must-links, %d cannot-links", ml, cl)
			}
			got := coscNcut(g.Dense(), res.Labels, 2)
			if math.Abs(got-want) > tol*want {
				t.Errorf("Ncut = %.12g, brute force %.12g", got, want)
			}
			if math.Abs(res.Objective-got) > 1e-12*max(1, got) {
				t.Errorf("Objective = %.12g, Ncut of labels %.12g", res.Objective, got)
			}
		})
	}
}

// coscBlobsProblem: n points in k 2-D Gaussian blobs (centre spread 2), the
// symmetric 10-NN RBF graph, npairs distinct pairs drawn uniformly and
// labelled by the truth.
func coscBlobsProblem(t testing.TB, n, k int, seed uint64, npairs int) (*Problem, []int) {
	return coscBlobsSpread(t, n, k, seed, npairs, 2)
}

// coscBlobsSpread is coscBlobsProblem with centre spread spread.
func coscBlobsSpread(t testing.TB, n, k int, seed uint64, npairs int, spread float64) (*Problem, []int) {
	rnd := rand.New(rand.NewPCG(seed, 1))
	x, truth := fgpwcBlobs(rnd, n, 2, k, spread)
	g := fgpwcKNNGraph(t, x, 10)
	set := coscRandomPairs(rand.New(rand.NewPCG(seed, 2)), truth, npairs)
	return &Problem{Graph: g, K: k, Constraints: set}, truth
}

// TestCOSCZeroViolations: for consistent constraints at k = 2 COSC violates
// none (Theorem 3 with the consistent start), on k-NN graphs of blobs (the
// constraints follow the clusters) and on random graphs with constraints
// drawn from a random labelling (they fight the graph).
func TestCOSCZeroViolations(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n      int
		pairs  int
		random bool
	}{
		{"blobs-200-20", 200, 20, false},
		{"blobs-300-150", 300, 150, false},
		{"random-60-40", 60, 40, true},
		{"random-120-200", 120, 200, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p *Problem
			if tc.random {
				rng := rand.New(rand.NewPCG(uint64(tc.n), 5))
				g := coscRandomGraph(t, rng, tc.n, 6/float64(tc.n))
				truth := make([]int, tc.n)
				for i := range truth {
					truth[i] = rng.IntN(2)
				}
				p = &Problem{Graph: g, K: 2, Constraints: coscRandomPairs(rng, truth, tc.pairs)}
			} else {
				p, _ = coscBlobsProblem(t, tc.n, 2, uint64(tc.n), tc.pairs)
			}
			res, err := Run(context.Background(), COSC{}, p, &Settings{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if ml, cl := constraint.Violations(p.Constraints, res.Labels); ml+cl != 0 {
				t.Errorf("violations: %d must-links, %d cannot-links", ml, cl)
			}
		})
	}
}

// coscReduced returns COSC's bisector of g with the pairs and cfg (seed
// 1, exact) and its reduced graph of all the nodes: the setup of the
// tests that run one bisection step by hand.
func coscReduced(t *testing.T, g *graph.Graph, pairs []constraint.Pair, cfg coscConfig) (*coscBisector, *coscGraph) {
	t.Helper()
	comp, _ := constraint.Closure(&constraint.Set{N: g.N(), Pairs: pairs})
	bs := &coscBisector{g: g, comp: comp, pairs: pairs, cfg: cfg, s: &Settings{Seed: 1}, exact: true}
	all := make([]int, g.N())
	for i := range all {
		all[i] = i
	}
	cg, _, err := bs.reduce(all)
	if err != nil {
		t.Fatal(err)
	}
	return bs, cg
}

// coscTopLevel builds the whole-graph two-way problem of p with γ from
// Theorem 3, as bisect does: λ₀ the Ncut of the consistent split improved
// by improveConsistent, divided by q_min (theorem3Gamma) (helper of the
// solver tests).
func coscTopLevel(t *testing.T, p *Problem) (*coscBisector, *coscGraph, []float64) {
	t.Helper()
	var pairs []constraint.Pair
	if p.Constraints != nil {
		pairs = p.Constraints.Pairs
	}
	bs, cg := coscReduced(t, p.Graph, pairs, coscConfig{starts: 4, maxIter: 40, innerGap: 0.1})
	f0, err := bs.spectral(context.Background(), cg)
	if err != nil || f0 == nil {
		t.Fatalf("no spectral vector: %v", err)
	}
	col := colourCannotLinks(cg)
	side, _, ok := consistentSplit(cg, col, f0)
	if !ok {
		t.Fatal("no consistent split")
	}
	if len(cg.cl) > 0 {
		cg.gamma = theorem3Gamma(cg, improveConsistent(cg, col, side))
	}
	return bs, cg, f0
}

// TestCOSCMonotone: F_γ(f^k) never increases over the RatioDCA iterations
// (Hein and Setzer 2011, Prop. 3.1), from random and spectral starts, on
// several problems; every trace value is F_γ recomputed by fval of the
// iterate, including a step the guard would reject.
func TestCOSCMonotone(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n, pairs int
	}{{"blobs-150-0", 150, 0}, {"blobs-200-30", 200, 30}, {"blobs-400-200", 400, 200}} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := coscBlobsProblem(t, tc.n, 2, uint64(tc.n)+1, tc.pairs)
			_, cg, f0 := coscTopLevel(t, p)
			st := newCOSCState(cg, 0.1, coscMaxInner)
			rng := rand.New(rand.NewPCG(9, 9))
			steps := 0
			for start := 0; start < 5; start++ {
				f := append([]float64(nil), f0...)
				if start > 0 {
					for i := range f {
						f[i] = rng.NormFloat64()
					}
				}
				if _, err := st.ratioDCA(context.Background(), f, 30, 0); err != nil {
					t.Fatal(err)
				}
				for k := 1; k < len(st.trace); k++ {
					if st.trace[k] > st.trace[k-1]*(1+1e-12) {
						t.Errorf("start %d: F_γ rose at step %d: %.15g → %.15g", start, k, st.trace[k-1], st.trace[k])
					}
				}
				steps += len(st.trace) - 1
			}
			if st.rejected != 0 {
				t.Errorf("%d steps rejected by the guard", st.rejected)
			}
			if steps < 5 {
				t.Errorf("only %d RatioDCA steps in 5 starts: the test shows nothing", steps)
			}
		})
	}
}

// coscFiedlerSweep: the independent reference of TestCOSCFiedler. The
// Fiedler vector u = D^{-1/2}v₂ of L_sym = I − D^{-1/2}WD^{-1/2} (dense,
// mat.EigenSym), then every threshold set {i : u_i ≥ u_(t)} that satisfies
// all pairs; the least Ncut among them (+Inf if none).
func coscFiedlerSweep(t *testing.T, g *graph.Graph, pairs []constraint.Pair) float64 {
	n := g.N()
	w := g.Dense()
	d := g.Degrees()
	l := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := -w.At(i, j) / math.Sqrt(d[i]*d[j])
			if i == j {
				v += 1
			}
			l.SetSym(i, j, v)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(l, true) {
		t.Fatal("EigenSym failed")
	}
	var vec mat.Dense
	es.VectorsTo(&vec)
	u := make([]float64, n)
	order := make([]int, n)
	for i := range u {
		u[i] = vec.At(i, 1) / math.Sqrt(d[i])
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return u[order[a]] > u[order[b]] })
	best := math.Inf(1)
	labels := make([]int, n)
	for tt := 0; tt < n-1; tt++ {
		labels[order[tt]] = 1
		if coscConsistent(pairs, labels) {
			best = min(best, coscNcut(w, labels, 2))
		}
	}
	return best
}

// TestCOSCFiedler: the constrained Ncut COSC finds is at most the least
// Ncut of the consistent thresholds of the Fiedler vector (computed
// independently, coscFiedlerSweep), on k-NN graphs of blobs.
func TestCOSCFiedler(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	compared := 0
	for _, tc := range []struct {
		name     string
		n, pairs int
		seed     uint64
	}{{"blobs-120-10", 120, 10, 1}, {"blobs-200-6", 200, 6, 2}, {"blobs-250-40", 250, 40, 3}, {"blobs-300-2", 300, 2, 4}, {"blobs-150-4", 150, 4, 5}, {"blobs-400-3", 400, 3, 6}} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := coscBlobsProblem(t, tc.n, 2, tc.seed, tc.pairs)
			ref := coscFiedlerSweep(t, p.Graph, p.Constraints.Pairs)
			res, err := Run(context.Background(), COSC{}, p, &Settings{Seed: tc.seed})
			if err != nil {
				t.Fatal(err)
			}
			got := coscNcut(p.Graph.Dense(), res.Labels, 2)
			t.Logf("COSC Ncut %.6g, best consistent Fiedler threshold %.6g", got, ref)
			if math.IsInf(ref, 1) {
				return
			}
			compared++
			if got > ref*(1+1e-12) {
				t.Errorf("COSC Ncut %.12g > Fiedler sweep %.12g", got, ref)
			}
		})
	}
	if compared == 0 {
		t.Error("no case had a consistent Fiedler threshold")
	}
}

// coscProjectH is the Euclidean projection of z onto H = {x : Σx = 0,
// ‖x‖₁ ≤ 2s}, written from the KKT conditions (x = soft(z − μ, θ)) and
// solved by nested bisection on θ and μ — not the clipping prox of the
// code under test.
func coscProjectH(z []float64, s float64) []float64 {
	n := len(z)
	soft := func(mu, th float64) []float64 {
		x := make([]float64, n)
		for i, v := range z {
			a := v - mu
			x[i] = math.Copysign(max(math.Abs(a)-th, 0), a)
		}
		return x
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range z {
		lo, hi = min(lo, v), max(hi, v)
	}
	muFor := func(th float64) float64 {
		a, b := lo-th-1, hi+th+1
		for it := 0; it < 200; it++ {
			m := (a + b) / 2
			var sum float64
			for _, v := range soft(m, th) {
				sum += v
			}
			if sum > 0 {
				a = m
			} else {
				b = m
			}
		}
		return (a + b) / 2
	}
	l1 := func(x []float64) float64 {
		var t float64
		for _, v := range x {
			t += math.Abs(v)
		}
		return t
	}
	if x := soft(muFor(0), 0); l1(x) <= 2*s {
		return x
	}
	a, b := 0.0, hi-lo
	for it := 0; it < 200; it++ {
		th := (a + b) / 2
		if l1(soft(muFor(th), th)) > 2*s {
			a = th
		} else {
			b = th
		}
	}
	th := (a + b) / 2
	return soft(muFor(th), th)
}

// TestCOSCInnerGap: the inner solver's answer is certified optimal on small
// instances by a duality gap computed in the test: the primal value Φ(u) =
// Σ_ij W_ij|u_i − u_j| + s(max u − min u) − ⟨u, c⟩ from the dense weights,
// and the dual value −‖c − Kᵀα − P_H(c − Kᵀα)‖ with the test's own
// projection onto H (coscProjectH). Φ(u) must also lie below Φ at 2000
// random unit vectors.
func TestCOSCInnerGap(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		pairs int
		gamma float64
	}{{"no-cl", 8, 0, 0}, {"cl-small-gamma", 9, 5, 0.3}, {"cl-large-gamma", 10, 6, 40}} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.n), 3))
			g := coscRandomGraph(t, rng, tc.n, 0.4)
			truth := make([]int, tc.n)
			for i := range truth {
				truth[i] = rng.IntN(2)
			}
			set := coscRandomPairs(rng, truth, tc.pairs)
			for k := range set.Pairs {
				set.Pairs[k].Kind = constraint.CannotLink // no merging: W is g's
			}
			comp, _ := constraint.Closure(set)
			bs := &coscBisector{g: g, comp: comp, pairs: set.Pairs}
			all := make([]int, tc.n)
			for i := range all {
				all[i] = i
			}
			cg, _, err := bs.reduce(all)
			if err != nil {
				t.Fatal(err)
			}
			cg.gamma = tc.gamma
			s := cg.gamma * cg.volQ
			st := newCOSCState(cg, 1e-10, 200000)
			for i := range st.c {
				st.c[i] = 3 * rng.NormFloat64()
			}
			u := make([]float64, tc.n)
			if ok, err := st.inner(context.Background(), u); err != nil || !ok {
				t.Fatalf("inner found no descent (error %v)", err)
			}
			w := g.Dense()
			phi := func(u []float64) float64 {
				var v float64
				lo, hi := u[0], u[0]
				for i := range u {
					lo, hi = min(lo, u[i]), max(hi, u[i])
					v -= u[i] * st.c[i]
					for j := range u {
						v += w.At(i, j) * math.Abs(u[i]-u[j])
					}
				}
				return v + s*(hi-lo)
			}
			for e, a := range st.xa {
				if math.Abs(a) > 1 {
					t.Fatalf("α_%d = %v outside [−1, 1]", e, a)
				}
			}
			z := append([]float64(nil), st.c...)
			for e, a := range st.xa {
				i, j := cg.ei[e], cg.ej[e]
				z[i] -= 2 * w.At(int(i), int(j)) * a
				z[j] += 2 * w.At(int(i), int(j)) * a
			}
			x := coscProjectH(z, s)
			var dist float64
			for i := range z {
				dist += (z[i] - x[i]) * (z[i] - x[i])
			}
			dual := -math.Sqrt(dist)
			primal := phi(u)
			if gap := primal - dual; gap < -1e-9*math.Abs(dual) || gap > 1e-6*math.Abs(dual) {
				t.Errorf("duality gap %.3g (Φ(u) = %.10g, dual %.10g)", gap, primal, dual)
			}
			for k := 0; k < 2000; k++ {
				r := make([]float64, tc.n)
				for i := range r {
					r[i] = rng.NormFloat64()
				}
				normalize(r)
				if v := phi(r); v < primal-1e-6*math.Abs(primal) {
					t.Fatalf("Φ(random unit vector) = %.10g < Φ(u) = %.10g", v, primal)
				}
			}
		})
	}
}

// TestCOSCProxMaxMin: proxMaxMin against the optimality condition
// z − u ∈ ∂h(u), h = s(max − min): z − u sums to 0, is ≥ 0 exactly on
// maxima of u and ≤ 0 on minima with masses s each, or u is constant
// with ‖z − u‖₁ ≤ 2s.
func TestCOSCProxMaxMin(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range []float64{0.01, 0.5, 2, 10, 1e3} {
		for _, n := range []int{1, 2, 3, 7, 40} {
			z := make([]float64, n)
			for i := range z {
				z[i] = rng.NormFloat64()
			}
			u := append([]float64(nil), z...)
			proxMaxMin(u, s, make([]int, n))
			lo, hi := u[0], u[0]
			for _, v := range u {
				lo, hi = min(lo, v), max(hi, v)
			}
			var pos, neg, sum float64
			for i := range z {
				d := z[i] - u[i]
				sum += d
				switch {
				case d > 1e-12 && u[i] != hi, d < -1e-12 && u[i] != lo:
					t.Fatalf("s=%v n=%d: z−u = %v at a node not at the max/min", s, n, d)
				case d > 0:
					pos += d
				default:
					neg -= d
				}
			}
			tol := 1e-9 * max(1, s)
			if math.Abs(sum) > tol {
				t.Errorf("s=%v n=%d: Σ(z − u) = %v", s, n, sum)
			}
			if hi > lo && (math.Abs(pos-s) > tol || math.Abs(neg-s) > tol) {
				t.Errorf("s=%v n=%d: masses %v, %v, want %v", s, n, pos, neg, s)
			}
			if hi == lo && pos+neg > 2*s+tol {
				t.Errorf("s=%v n=%d: constant prox with ‖z − u‖₁ = %v > 2s", s, n, pos+neg)
			}
		}
	}
}

// TestCOSCBadInput: inconsistent constraints (the error names the
// constraints and nodes), no constraints, isolated nodes, a graph all one
// must-link component, knobs out of range, cancellation.
func TestCOSCBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	g := coscRandomGraph(t, rng, 12, 0.4)
	ml := func(i, j int) constraint.Pair { return constraint.Pair{I: i, J: j, Kind: constraint.MustLink} }
	cl := func(i, j int) constraint.Pair { return constraint.Pair{I: i, J: j, Kind: constraint.CannotLink} }
	all := make([]constraint.Pair, 0)
	for i := 1; i < 12; i++ {
		all = append(all, ml(0, i))
	}
	for _, tc := range []struct {
		name    string
		k       int
		pairs   []constraint.Pair
		m       COSC
		wantErr []string // substrings; nil means no error
	}{
		{"cl-in-ml-component", 2, []constraint.Pair{ml(0, 1), ml(1, 2), cl(0, 2)}, COSC{}, []string{"cl(0,2)", "ml(0,1)", "ml(1,2)"}},
		{"ml-and-cl-on-one-pair", 3, []constraint.Pair{ml(3, 4), cl(3, 4)}, COSC{}, []string{"(3,4)"}},
		{"odd-cycle", 2, []constraint.Pair{cl(0, 5), cl(5, 9), cl(9, 0)}, COSC{}, []string{"odd cycle", "(0,5)", "(5,9)", "(9,0)"}},
		{"odd-cycle-through-ml", 2, []constraint.Pair{ml(0, 1), cl(1, 5), cl(5, 9), cl(9, 0), cl(2, 3)}, COSC{}, []string{"odd cycle of 3", "(1,5)", "(5,9)", "(9,0)"}},
		{"odd-cycle-k3-allowed", 3, []constraint.Pair{cl(0, 5), cl(5, 9), cl(9, 0)}, COSC{}, nil},
		{"no-constraints", 2, nil, COSC{}, nil},
		{"all-must-linked", 2, all, COSC{}, []string{"cannot be cut"}},
		{"bad-knob", 2, nil, COSC{MaxIter: -1}, []string{"MaxIter"}},
		{"bad-gap", 2, nil, COSC{InnerGap: 1}, []string{"InnerGap"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Problem{Graph: g, K: tc.k, Constraints: &constraint.Set{N: 12, Pairs: tc.pairs}}
			res, err := Run(context.Background(), tc.m, p, nil)
			if tc.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				if tc.k == 2 {
					if ml, cl := constraint.Violations(p.Constraints, res.Labels); ml+cl > 0 {
						t.Errorf("%d + %d violations", ml, cl)
					}
				}
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	t.Run("isolated-nodes", func(t *testing.T) {
		g := coscRandomGraph(t, rng, 14, 0.35, 3, 9)
		set := &constraint.Set{N: 14, Pairs: []constraint.Pair{cl(3, 4), ml(9, 10), cl(0, 1)}}
		res, err := Run(context.Background(), COSC{}, &Problem{Graph: g, K: 2, Constraints: set}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ml, cl := constraint.Violations(set, res.Labels); ml+cl > 0 {
			t.Errorf("%d + %d violations", ml, cl)
		}
		if !strings.Contains(strings.Join(res.Warnings, "; "), "degree 0") {
			t.Errorf("no warning about degree-0 nodes: %v", res.Warnings)
		}
		if want := coscBruteForce(g, set.Pairs); math.Abs(res.Objective-want) > 1e-9*want {
			t.Errorf("Ncut %.12g, brute force %.12g", res.Objective, want)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		p, _ := coscBlobsProblem(t, 300, 3, 1, 60)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		events := 0
		s := &Settings{Recorder: progress.Func(func(progress.Event) { events++; cancel() })}
		_, err := Run(ctx, COSC{}, p, s)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if events != 1 {
			t.Errorf("%d progress events after cancelling, want 1", events)
		}
	})
}

// TestCOSCDeterministic: the same Seed gives the same labels and objective.
func TestCOSCDeterministic(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	p, _ := coscBlobsProblem(t, 240, 3, 5, 40)
	var first *Result
	for r := 0; r < 2; r++ {
		res, err := Run(context.Background(), COSC{}, p, &Settings{Seed: 11})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		if res.Objective != first.Objective || res.Iterations != first.Iterations {
			t.Errorf("objective %v / %v, iterations %d / %d", res.Objective, first.Objective, res.Iterations, first.Iterations)
		}
		for i := range res.Labels {
			if res.Labels[i] != first.Labels[i] {
				t.Fatalf("label %d differs", i)
			}
		}
	}
}

// TestCOSCMultiway: recursive bisection on k-NN graphs of well-separated
// blobs (centre spread 6) finds the blobs (measured ARI 1.000 for both
// cases when the test was written; threshold 0.9) and labels 0…k−1.
func TestCOSCMultiway(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	for _, tc := range []struct {
		n, k, pairs int
		minARI      float64
	}{{300, 3, 60, 0.9}, {400, 4, 120, 0.9}} {
		p, truth := coscBlobsSpread(t, tc.n, tc.k, 21, tc.pairs, 6)
		res, err := Run(context.Background(), COSC{}, p, &Settings{Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		ari, _ := metrics.ARI(truth, res.Labels)
		ml, cl := constraint.Violations(p.Constraints, res.Labels)
		t.Logf("n=%d k=%d: ARI %.3f, Ncut %.4f, violations %d+%d, %d RatioDCA steps", tc.n, tc.k, ari, res.Objective, ml, cl, res.Iterations)
		if ari < tc.minARI {
			t.Errorf("n=%d k=%d: ARI %.3f < %.2f", tc.n, tc.k, ari, tc.minARI)
		}
		used := make(map[int]bool)
		for _, c := range res.Labels {
			used[c] = true
		}
		if len(used) != tc.k {
			t.Errorf("%d clusters used, want %d", len(used), tc.k)
		}
	}
}

// TestCOSCRatioDCAAlone: RatioDCA from random starts only (neither the
// consistent nor the spectral start) reaches the brute-force optimum of the
// constrained Ncut on tiny graphs, with γ from Theorem 3: evidence that
// the relaxation (Theorem 2) and its optimization work by themselves, not
// only the consistent start and its greedy moves. 20 starts per case;
// control measured when the test was written: the optimal thresholds of
// the same 20 random vectors without RatioDCA steps (MaxIter 0) miss the
// optimum in 5 of the 8 cases, RatioDCA from 3 starts in 3 of them.
func TestCOSCRatioDCAAlone(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		c := coscRatioDCABest(t, seed, 0)
		if math.Abs(c.best-c.want) > 1e-9*c.want {
			t.Errorf("seed %d (n = %d, %d pairs): RatioDCA best F̂_γ %.12g, brute force %.12g", seed, c.n, c.pairs, c.best, c.want)
		}
	}
}

// ratioDCACase is one case of coscRatioDCABest: the best F̂_γ of the
// RatioDCA runs, the brute-force optimum of the unscaled graph, and the
// case's size.
type ratioDCACase struct {
	best, want float64
	n, pairs   int
}

// coscRatioDCABest draws the random case of seed (8 to 13 nodes, 2 to 6
// pairs), scales its weights by 2^e (exact), sets γ by Theorem 3 with
// the optimal consistent Ncut itself when there are cannot-links, and
// runs RatioDCA alone from 20 seeded normal starts (40 outer steps
// each), returning the best F̂_γ beside the brute force of the
// unscaled graph (the ratio is invariant to the scale).
func coscRatioDCABest(t *testing.T, seed uint64, e int) ratioDCACase {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	n := 8 + int(seed)%6
	g := coscRandomGraph(t, rng, n, 0.35)
	truth := make([]int, n)
	for i := range truth {
		truth[i] = rng.IntN(2)
	}
	set := coscRandomPairs(rng, truth, 2+int(seed)%5)
	want := coscBruteForce(g, set.Pairs)
	_, cg, _ := coscTopLevel(t, &Problem{Graph: g.ScaledPow2(e), K: 2, Constraints: set})
	if len(cg.cl) > 0 {
		cg.gamma = theorem3Gamma(cg, want)
	}
	st := newCOSCState(cg, 0.1, coscMaxInner)
	best := math.Inf(1)
	for start := 0; start < 20; start++ {
		f := make([]float64, cg.n)
		for i := range f {
			f[i] = rng.NormFloat64()
		}
		run, err := st.ratioDCA(context.Background(), f, 40, coscOuterTol)
		if err != nil {
			t.Fatal(err)
		}
		best = min(best, run.fhat)
	}
	return ratioDCACase{best: best, want: want, n: n, pairs: len(set.Pairs)}
}

// TestCOSCInnerCancel: the inner problem of RatioDCA checks ctx while it
// runs (review 49, finding 6: one inner solve took about 1 s at 6·10⁴
// nodes, and ctx was checked only between outer steps). On 2·10⁴ blobs
// (10-NN, 10⁴ pairs) with the gap tolerance tightened so that the solve
// runs its coscMaxInner = 300 iterations (0.35 s on 2 shared cores), a
// cancel 50 ms in must return within 500 ms (it took 52 ms), with an
// error wrapping context.Canceled that names the inner problem. The
// uncancelled solve is timed first; a machine on which it takes less than
// 200 ms skips the test (it would not tell a check from none). About
// 0.5 s.
func TestCOSCInnerCancel(t *testing.T) {
	const n = 20000
	p, _ := coscBlobsProblem(t, n, 2, 1, n/2)
	cfg, err := COSC{}.config()
	if err != nil {
		t.Fatal(err)
	}
	_, cg := coscReduced(t, p.Graph, p.Constraints.Pairs, cfg)
	rng := rand.New(rand.NewPCG(1, 2))
	f := make([]float64, cg.n)
	for i := range f {
		f[i] = rng.NormFloat64()
	}
	normalize(f)
	cg.gamma = cg.vol / 4 * unconstrainedSweep(cg, f) / (cg.volQ / 2)
	// solve runs one inner problem from f, to the iteration cap (the gap
	// tolerance 10⁻¹⁵ is not reached), and returns its time and error.
	solve := func(ctx context.Context) (time.Duration, error) {
		st := newCOSCState(cg, 1e-15, coscMaxInner)
		st.subgradients(f, cg.fval(f))
		u := make([]float64, cg.n)
		start := time.Now()
		_, err := st.inner(ctx, u)
		return time.Since(start), err
	}
	full, err := solve(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("uncancelled inner solve (%d super-nodes, %d edges): %v", cg.n, len(cg.ew), full)
	if full < 200*time.Millisecond {
		t.Skipf("the inner solve took %v, under 200 ms: too fast on this machine to test its cancellation", full)
	}
	const delay, bound = 50 * time.Millisecond, 500 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(delay, cancel)
	took, err := solve(ctx)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "inner problem") {
		t.Fatalf("error %v, want one wrapping context.Canceled that names the inner problem", err)
	}
	if took > delay+bound {
		t.Errorf("returned %v after the start, %v after the cancel, want ≤ %v", took, took-delay, bound)
	}
	t.Logf("cancelled at %v: returned after %v", delay, took)
}

// TestCOSCTheorem3Gamma: at k = 2 the bisection's γ is Theorem 3's
// (thesis §4.4.1; Rangapuram and Hein 2012), γ = vol(V)/4·λ/q_min, λ the
// Ncut of a consistent partition (here the least, which the consistent
// start reaches on this instance) and q_min the least cannot-link weight
// after merging (the thesis's γ for unit weights, divided by q_min so that
// Theorem 1 holds for weighted ones), all computed here by enumeration
// from the definitions. Theorem 1 is then checked by enumerating F̂_γ
// (eq. 4.4.1–4.4.2) over every set that keeps the must-links together
// (the sets COSC searches): with the code's γ its minimum is λ and every
// minimizer is consistent, while γ/20 is minimized by a violating set, so
// this instance tells a too small γ apart. The output of COSC at k = 2
// does not (it keeps only consistent sets): a γ multiplied by 0.05, or
// set to 0, left every other TestCOSC* test passing.
//
// The graph: two cliques {0…5} and {6…11} (weights 1), joined by three
// edges of weight 0.1; the constraints fight it: cannot-links (0,1) of
// weight 0.5, (6,7) of weight 2, and (2,9) and (8,2), whose must-link
// (8,10) puts both between the same two super-nodes (merged weight
// 0.75 + 1.5), and a must-link (3,10).
func TestCOSCTheorem3Gamma(t *testing.T) {
	const n = 12
	var es []graph.Edge
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if (i < 6) == (j < 6) {
				es = append(es, graph.Edge{I: i, J: j, W: 1})
			}
		}
	}
	es = append(es, graph.Edge{I: 0, J: 6, W: 0.1}, graph.Edge{I: 2, J: 8, W: 0.1}, graph.Edge{I: 5, J: 11, W: 0.1})
	g, err := graph.FromEdges(n, es)
	if err != nil {
		t.Fatal(err)
	}
	cl := func(i, j int, w float64) constraint.Pair {
		return constraint.Pair{I: i, J: j, Kind: constraint.CannotLink, Weight: w}
	}
	ml := func(i, j int) constraint.Pair { return constraint.Pair{I: i, J: j, Kind: constraint.MustLink} }
	pairs := []constraint.Pair{cl(0, 1, 0.5), cl(6, 7, 2), cl(2, 9, 0.75), cl(8, 2, 1.5), ml(8, 10), ml(3, 10)}
	const qmin = 0.5 // (0,1); (2,9) and (8,2) merge into 2.25

	// Enumeration from the definitions on the dense W.
	w := g.Dense()
	vol := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			vol += w.At(i, j)
		}
	}
	type set struct {
		labels      []int
		ncut        float64
		cut, bal    float64
		violatedCL  float64 // weight of the cannot-links inside a side
		consistent  bool
		splitsMLink bool
	}
	var sets []set
	for mask := 1; mask < 1<<(n-1); mask++ {
		s := set{labels: make([]int, n)}
		for i := range s.labels {
			s.labels[i] = (mask >> i) & 1
		}
		var vc float64
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if s.labels[i] == 1 {
					vc += w.At(i, j)
					if s.labels[j] == 0 {
						s.cut += w.At(i, j)
					}
				}
			}
		}
		s.bal = 2 * vc * (vol - vc) / vol
		s.ncut = coscNcut(w, s.labels, 2)
		for _, p := range pairs {
			same := s.labels[p.I] == s.labels[p.J]
			if p.Kind == constraint.MustLink && !same {
				s.splitsMLink = true
			}
			if p.Kind == constraint.CannotLink && same {
				s.violatedCL += p.W()
			}
		}
		s.consistent = !s.splitsMLink && s.violatedCL == 0
		if !s.splitsMLink && s.bal > 0 {
			sets = append(sets, s)
		}
	}
	lambda := math.Inf(1)
	for _, s := range sets {
		if s.consistent {
			lambda = min(lambda, s.ncut)
		}
	}
	// F̂_γ(C) = (2cut + γN̂)/bal, N̂ = vol(Q^c) − 2Σ_{i∈C, j∈C̄} q^c_ij =
	// twice the weight of the violated cannot-links (M̂ = 0: must-links
	// kept together).
	fhatMin := func(gamma float64) (float64, []set) {
		best := math.Inf(1)
		var at []set
		for _, s := range sets {
			f := (2*s.cut + gamma*2*s.violatedCL) / s.bal
			switch {
			case len(at) == 0 || f < best-1e-12*best:
				best, at = f, []set{s}
			case f <= best+1e-12*best:
				at = append(at, s)
			}
		}
		return best, at
	}

	bs, cg := coscReduced(t, g, pairs, coscConfig{starts: 2, maxIter: 40, innerGap: 0.1})
	if _, ok, err := bs.bisect(context.Background(), cg); err != nil || !ok {
		t.Fatalf("bisect: ok %v, %v", ok, err)
	}
	if math.Abs(bs.last.lambda0-lambda) > 1e-12*lambda {
		t.Fatalf("λ₀ = %.15g, least consistent Ncut by enumeration %.15g", bs.last.lambda0, lambda)
	}
	want := vol / 4 * lambda / qmin
	if math.Abs(bs.last.gamma-want) > 1e-12*want {
		t.Errorf("γ = %.15g, want vol(V)/4·λ/q_min = %g/4·%.15g/%g = %.15g", bs.last.gamma, vol, lambda, qmin, want)
	}
	// Theorem 1 with the code's γ: min F̂_γ = λ, at consistent sets only.
	got, at := fhatMin(bs.last.gamma)
	if math.Abs(got-lambda) > 1e-9*lambda {
		t.Errorf("min F̂_γ = %.12g with the code's γ = %g, want the least consistent Ncut %.12g", got, bs.last.gamma, lambda)
	}
	for _, s := range at {
		if !s.consistent {
			t.Errorf("γ = %g: a minimizer of F̂_γ violates cannot-links of weight %g (labels %v)", bs.last.gamma, s.violatedCL, s.labels)
		}
	}
	// The instance needs its γ: at γ/20 a violating set wins.
	if _, at := fhatMin(want / 20); len(at) == 0 || at[0].consistent {
		t.Errorf("γ/20 = %g is still minimized by a consistent set: the instance does not test γ", want/20)
	}
}

// TestCOSCInnerScaleFree: RatioDCA does the same steps whatever the scale
// of the weights, within the range [2⁻⁶⁰, 2⁶⁰] that Run passes unscaled:
// F_γ is invariant under w → s·w (R₁, R₂ and S all scale by s), so the
// λ sequence from a fixed start at 2⁰ is the reference for those at
// 2⁻⁵⁰, 2⁻⁵⁵, 2⁻⁵⁹, 2⁵⁰ and 2⁵⁹ (same step count, λ to 10⁻⁹ relative;
// blobs, 200 nodes, 10-NN, 60 pairs). And on the small problems of
// TestCOSCRatioDCAAlone with the weights ×2⁻⁵⁹, RatioDCA from 20 random
// starts reaches the brute-force optimum. Review 136: the inner
// problem's no-descent test ‖w‖ ≤ 10⁻¹³(‖c‖ + 1) was absolute through its
// +1 while c scales with the weights: 5 steps at 2⁰…2⁻⁴⁰, 2 at 2⁻⁵⁰, 1 at
// 2⁻⁵⁵, 0 at 2⁻⁵⁹ on these blobs.
func TestCOSCInnerScaleFree(t *testing.T) {
	p0, _ := coscBlobsProblem(t, 200, 2, 3, 60)
	var ref []float64
	for _, e := range []int{0, -50, -55, -59, 50, 59} {
		p := *p0
		p.Graph = p0.Graph.ScaledPow2(e)
		_, cg, _ := coscTopLevel(t, &p)
		st := newCOSCState(cg, 0.1, coscMaxInner)
		rng := rand.New(rand.NewPCG(7, 7))
		f := make([]float64, cg.n)
		for i := range f {
			f[i] = rng.NormFloat64()
		}
		if _, err := st.ratioDCA(context.Background(), f, 100, coscOuterTol); err != nil {
			t.Fatal(err)
		}
		if e == 0 {
			ref = append([]float64(nil), st.trace...)
			if len(ref) < 4 {
				t.Fatalf("2⁰: only %d steps; the test wants a longer sequence", len(ref)-1)
			}
			continue
		}
		if len(st.trace) != len(ref) {
			t.Errorf("2^%d: %d RatioDCA steps (λ %v), %d at 2⁰ (λ %v)", e, len(st.trace)-1, st.trace, len(ref)-1, ref)
			continue
		}
		for k := range ref {
			if math.Abs(st.trace[k]-ref[k]) > 1e-9*ref[k] {
				t.Errorf("2^%d: λ after step %d = %.12g, %.12g at 2⁰", e, k, st.trace[k], ref[k])
			}
		}
	}
	for seed := uint64(1); seed <= 8; seed++ {
		c := coscRatioDCABest(t, seed, -59)
		if math.Abs(c.best-c.want) > 1e-9*c.want {
			t.Errorf("seed %d (n = %d, weights ×2⁻⁵⁹): RatioDCA best F̂_γ %.12g, brute force %.12g", seed, c.n, c.best, c.want)
		}
	}
}
