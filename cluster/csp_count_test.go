package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
)

// cspDenseFeasibleCount counts the positive eigenvalues of B = Q̄ − cI on
// n^⊥ by brute force, independently of feasibleCount: the dense matrix
// PBP − nnᵀ (P = I − nnᵀ) has the eigenvalues of B on n^⊥ plus −1 for n,
// so its positive eigenvalues are the ones wanted. It returns them too.
func cspDenseFeasibleCount(t *testing.T, o *cspOps) (int, []float64) {
	t.Helper()
	n := len(o.dis)
	q := mat.NewDense(n, n, nil)
	m := o.qbar.m
	for i := 0; i < n; i++ {
		for t := m.ptr[i]; t < m.ptr[i+1]; t++ {
			q.Set(i, m.idx[t], q.At(i, m.idx[t])+m.w[t])
		}
		q.Set(i, i, q.At(i, i)-o.c)
	}
	nv := mat.NewVecDense(n, append([]float64(nil), o.sqc...)) // n = D^{1/2}1/√vol
	p := mat.NewDense(n, n, nil)
	p.Outer(-1, nv, nv)
	for i := 0; i < n; i++ {
		p.Set(i, i, p.At(i, i)+1)
	}
	var pbp mat.Dense
	pbp.Product(p, q, p)
	var nn mat.Dense
	nn.Outer(1, nv, nv)
	pbp.Sub(&pbp, &nn)
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, (pbp.At(i, j)+pbp.At(j, i))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, false) {
		t.Fatal("dense eigendecomposition failed")
	}
	vals := es.Values(nil)
	c := 0
	for _, v := range vals {
		if v > 0 {
			c++
		}
	}
	return c, vals
}

// TestCSPFeasibleCount: the inertia count of feasibleCount equals the
// number of positive eigenvalues of the dense PBP on n^⊥ (brute force, on
// small connected k-NN graphs with mixed must- and cannot-links, weights 1
// and 2), over α from nearly nothing feasible to most things feasible, and
// on the n = 420 graph of TestCSPSparseMatchesDense it gives the dense
// solver's counts measured there (2, 6, 18, 113).
func TestCSPFeasibleCount(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	for _, tc := range []struct {
		n, m int
		seed uint64
	}{{12, 4, 1}, {30, 10, 2}, {30, 40, 3}, {60, 25, 4}, {120, 60, 5}, {120, 300, 6}} {
		x, _ := fgpwcBlobs(rand.New(rand.NewPCG(tc.seed, 9)), tc.n, 2, 2, 1)
		g := fgpwcKNNGraph(t, x, min(tc.n-1, 8))
		comp, nc := g.Components()
		if nc != 1 {
			t.Fatalf("n = %d: the graph has %d components", tc.n, nc)
		}
		pairs := cspMixedPairs(tc.n, tc.m, tc.seed)
		deg := g.Degrees()
		var vol float64
		for _, d := range deg {
			vol += d
		}
		for _, frac := range []float64{0.9, 0.5, 0.2, 0.05, 0.01} {
			t.Run(fmt.Sprintf("n=%d/m=%d/frac=%v", tc.n, tc.m, frac), func(t *testing.T) {
				o := newCSPOps(g, pairs, deg, comp, nc)
				// c = α/vol = frac·λ_max(Q̄), with λ_max from a dense
				// eigendecomposition of Q̄ (c = 0 for the brute force).
				_, qv := cspDenseFeasibleCount(t, o)
				o.c = frac * (qv[len(qv)-1] + 1) // PQ̄P − nnᵀ: its top eigenvalue bounds λ_max(PQ̄P)
				want, vals := cspDenseFeasibleCount(t, o)
				got, ok := o.feasibleCount()
				if !ok {
					t.Fatalf("count not computed (dense spectrum %v)", vals)
				}
				if got != want {
					t.Errorf("feasibleCount = %d, brute force %d", got, want)
				}
			})
		}
	}
	p, _ := cspKNNProblem(t, 420)
	comp, nc := p.Graph.Components()
	for _, c := range []struct {
		frac     float64
		feasible int
	}{{0.5, 2}, {0.2, 6}, {0.1, 18}, {0.02, 113}} {
		sol, err := cspSolve(context.Background(), p.Graph, p.Constraints.Pairs, c.frac, 1, &Settings{Eigen: eigen.Dense{}})
		if err != nil {
			t.Fatal(err)
		}
		o := newCSPOps(p.Graph, p.Constraints.Pairs, p.Graph.Degrees(), comp, nc)
		o.c = sol.alpha / sol.vol
		if got, ok := o.feasibleCount(); !ok || got != c.feasible || got != len(sol.values) {
			t.Errorf("frac %v: feasibleCount = %d (ok %v), dense solver %d feasible, measured %d", c.frac, got, ok, len(sol.values), c.feasible)
		}
	}
}

// TestCSPFeasibleCountDeclines: no count on a disconnected graph, nor when
// a constraint component is too large for the budget.
func TestCSPFeasibleCountDeclines(t *testing.T) {
	g := cspUnion(t, pwRandomGraph(t, 15, 20, 3), pwRandomGraph(t, 12, 10, 4))
	comp, nc := g.Components()
	o := newCSPOps(g, []constraint.Pair{{I: 0, J: 7, Kind: constraint.MustLink}}, g.Degrees(), comp, nc)
	o.c = 0.1
	if _, ok := o.feasibleCount(); ok {
		t.Error("disconnected graph: counted")
	}
	n := 700 // a chain of must-links over 700 nodes: 700³ > cspInertiaBudget
	x, _ := fgpwcBlobs(rand.New(rand.NewPCG(1, 9)), n, 2, 2, 1)
	g = fgpwcKNNGraph(t, x, 10)
	comp, nc = g.Components()
	var pairs []constraint.Pair
	for i := 1; i < n; i++ {
		pairs = append(pairs, constraint.Pair{I: i - 1, J: i, Kind: constraint.MustLink})
	}
	o = newCSPOps(g, pairs, g.Degrees(), comp, nc)
	o.c = 0.1
	if _, ok := o.feasibleCount(); ok || nc != 1 {
		t.Errorf("one constraint component of %d nodes: counted (graph components %d)", n, nc)
	}
}

func TestCSPJump(t *testing.T) {
	// The doubling from first = 9 (want 1, nc = 1) to the cap limit = 65:
	// 9, 18, 36, 65. It stops at the first K with p < K − 1.
	for _, tc := range []struct {
		p, kk, prev int
	}{{0, 9, 0}, {7, 9, 0}, {8, 18, 9}, {16, 18, 9}, {17, 36, 18}, {34, 36, 18}, {35, 65, 36}, {64, 65, 36}, {500, 65, 36}} {
		if kk, prev := cspJump(9, 65, 1, tc.p); kk != tc.kk || prev != tc.prev {
			t.Errorf("cspJump(9, 65, 1, %d) = %d, %d, want %d, %d", tc.p, kk, prev, tc.kk, tc.prev)
		}
	}
}

// TestCSPCountSameResult: starting the doubling where the count says
// (cspSolve) gives exactly — bit for bit — the feasible vectors, λ and
// costs of the full doubling (count off), since the deciding solve is the
// same problem: at AlphaFraction 0.1 (18 feasible, solves 8 and 16 skipped)
// and 0.02 (113 feasible, the cap; -short skips it).
func TestCSPCountSameResult(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	p, _ := cspKNNProblem(t, 420)
	fracs := []float64{0.1, 0.02}
	if testing.Short() {
		fracs = fracs[:1]
	}
	// The solves, with the count (sols[i][0]) and without (sols[i][1]),
	// in parallel subtests: no clock is read, and p is read only.
	sols := make([][2]*cspSolution, len(fracs))
	t.Run("solves", func(t *testing.T) {
		for i, frac := range fracs {
			for j, count := range []bool{true, false} {
				t.Run(fmt.Sprintf("frac=%v/count=%v", frac, count), func(t *testing.T) {
					t.Parallel()
					sol, err := cspSolveCount(context.Background(), p.Graph, p.Constraints.Pairs, frac, 1, &Settings{Seed: 3}, count, 0)
					if err != nil {
						t.Fatal(err)
					}
					sols[i][j] = sol
				})
			}
		}
	})
	for i, frac := range fracs {
		a, b := sols[i][0], sols[i][1]
		if a == nil || b == nil {
			t.Fatalf("frac %v: a solve failed", frac)
		}
		if len(a.values) != len(b.values) || !mat.Equal(a.vectors, b.vectors) {
			t.Fatalf("frac %v: %d vectors with the count, %d without, or the vectors differ", frac, len(a.values), len(b.values))
		}
		for j := range a.values {
			if a.values[j] != b.values[j] || a.costs[j] != b.costs[j] || math.IsNaN(a.costs[j]) {
				t.Errorf("frac %v: pair %d: λ %v / %v, cost %v / %v", frac, j, a.values[j], b.values[j], a.costs[j], b.costs[j])
			}
		}
	}
}
