package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// forestCase is a random l1Problem: a ring graph on n nodes with random
// weights (so L is connected) and p random constraint rows with random
// kinds and weights.
func forestCase(n, p int, seed uint64) *l1Problem {
	rng := rand.New(rand.NewPCG(seed, 99))
	q := &l1Problem{n: n, ptr: make([]int, n+1), m: make([]float64, n)}
	for i := 0; i < n; i++ {
		for _, j := range []int{(i + n - 1) % n, (i + 1) % n} {
			if j != i && n > 1 {
				q.adj = append(q.adj, int32(j))
				q.w = append(q.w, 0.5+rng.Float64())
			}
		}
		q.ptr[i+1] = len(q.adj)
	}
	// Symmetrize the ring weights: w_ij = w_ji.
	for i := 0; i < n; i++ {
		for t := q.ptr[i]; t < q.ptr[i+1]; t++ {
			j := int(q.adj[t])
			for u := q.ptr[j]; u < q.ptr[j+1]; u++ {
				if int(q.adj[u]) == i && j < i {
					q.w[t] = q.w[u]
				}
			}
		}
	}
	for i := range q.m {
		for t := q.ptr[i]; t < q.ptr[i+1]; t++ {
			q.m[i] += q.w[t]
		}
		if q.m[i] == 0 {
			q.m[i] = 1 // n = 1: no edge
		}
	}
	for r := 0; r < p; r++ {
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j {
			continue
		}
		s := 1.0
		if rng.IntN(2) == 0 {
			s = -1
		}
		q.ci, q.cj = append(q.ci, int32(i)), append(q.cj, int32(j))
		q.cs, q.cw = append(q.cs, s), append(q.cw, 0.5+rng.Float64())
	}
	return q
}

func TestForestPrecSolvesItsMatrix(t *testing.T) {
	// P built entry by entry from its definition (diag(H) plus the
	// forest's constraint couplings, the forest found independently by a
	// depth-first search over the rows in order) and solved densely (LU)
	// must match forestPrec.solveTo. With p < n − 1 random rows the
	// constraint graph is usually a forest and P = diag(L) + 2μM + ρCᵀC;
	// the larger p closes cycles.
	for _, tc := range []struct {
		n, p int
		rho  float64
	}{{1, 0, 1}, {2, 1, 1}, {3, 2, 10}, {5, 3, 1e3}, {10, 6, 1e4}, {70, 40, 1e2}, {70, 200, 1e3}} {
		q := forestCase(tc.n, tc.p, uint64(tc.n*1000+tc.p))
		ad := newL1ADMM(q, l1Config{mu: 1, relTol: 1e-5, solver: l1SolveCG})
		ad.rho = tc.rho
		ad.setPreconditioner()
		n := q.n
		pm := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			pm.Set(i, i, ad.ldiag[i]+2*q.m[i]+tc.rho*ad.cdiag[i])
		}
		// Spanning forest by connectivity tests on the rows in order.
		comp := make([]int, n)
		for i := range comp {
			comp[i] = i
		}
		relabel := func(from, to int) {
			for i := range comp {
				if comp[i] == from {
					comp[i] = to
				}
			}
		}
		for r := range q.ci {
			i, j := int(q.ci[r]), int(q.cj[r])
			if comp[i] == comp[j] {
				continue
			}
			relabel(comp[i], comp[j])
			v := tc.rho * q.cw[r] * q.cw[r] * q.cs[r]
			pm.Set(i, j, pm.At(i, j)+v)
			pm.Set(j, i, pm.At(j, i)+v)
		}
		rng := rand.New(rand.NewPCG(uint64(tc.n), 3))
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		var want mat.VecDense
		if err := want.SolveVec(pm, mat.NewVecDense(n, append([]float64(nil), b...))); err != nil {
			t.Fatal(err)
		}
		got := make([]float64, n)
		ad.forest.solveTo(got, b)
		var err2, norm float64
		for i := range got {
			e := got[i] - want.AtVec(i)
			err2 += e * e
			norm += want.AtVec(i) * want.AtVec(i)
		}
		if rel := math.Sqrt(err2 / norm); rel > 1e-10 {
			t.Errorf("n=%d p=%d ρ=%g: relative error %.3g of P⁻¹b", tc.n, tc.p, tc.rho, rel)
		}
		// In place gives the same.
		inPlace := append([]float64(nil), b...)
		ad.forest.solveTo(inPlace, inPlace)
		for i := range got {
			if inPlace[i] != got[i] {
				t.Fatalf("n=%d p=%d: in-place solve differs", tc.n, tc.p)
			}
		}
	}
}

func TestForestPrecCGMatchesJacobi(t *testing.T) {
	// The system H x = b of the ADMM x̂-update at a large ρ (where ρCᵀC
	// dominates): conjugate gradients with the forest preconditioner and
	// with Jacobi reach the same solution to tolerance, which also solves
	// the dense system (LU), and the forest needs far fewer iterations.
	for _, tc := range []struct {
		n, p     int
		rho      float64
		maxRatio float64 // forest iterations ≤ maxRatio × Jacobi's
	}{{800, 400, 1e3, 0.2}, {800, 400, 1e5, 0.05}, {600, 900, 1e4, 0.5}} {
		q := forestCase(tc.n, tc.p, uint64(tc.n+tc.p))
		rng := rand.New(rand.NewPCG(5, uint64(tc.p)))
		b := make([]float64, tc.n)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		var sols [2][]float64
		var its [2]int
		for k, jac := range []bool{false, true} {
			ad := newL1ADMM(q, l1Config{mu: 1, relTol: 1e-5, jacobi: jac, solver: l1SolveCG})
			ad.rho = tc.rho
			ad.setPreconditioner()
			x := make([]float64, tc.n)
			it, ok := solveCG(ad.hMulTo, ad.prec, b, x, 1e-12, 100000, newCGWork(tc.n))
			if !ok {
				t.Fatalf("n=%d ρ=%g jacobi=%v: no convergence in %d iterations", tc.n, tc.rho, jac, it)
			}
			sols[k], its[k] = x, it
		}
		// Dense reference.
		ad := newL1ADMM(q, l1Config{mu: 1, solver: l1SolveCG})
		ad.rho = tc.rho
		hm := mat.NewDense(tc.n, tc.n, nil)
		e := make([]float64, tc.n)
		col := make([]float64, tc.n)
		for j := 0; j < tc.n; j++ {
			e[j] = 1
			ad.hMulTo(col, e)
			e[j] = 0
			hm.SetCol(j, col)
		}
		var want mat.VecDense
		if err := want.SolveVec(hm, mat.NewVecDense(tc.n, b)); err != nil {
			t.Fatal(err)
		}
		for k, name := range []string{"forest", "jacobi"} {
			var err2, norm float64
			for i, v := range sols[k] {
				d := v - want.AtVec(i)
				err2 += d * d
				norm += want.AtVec(i) * want.AtVec(i)
			}
			if rel := math.Sqrt(err2 / norm); rel > 1e-6 {
				t.Errorf("n=%d ρ=%g: %s CG relative error %.3g against the dense solve", tc.n, tc.rho, name, rel)
			}
		}
		t.Logf("n=%d p=%d ρ=%g: CG iterations forest %d, Jacobi %d", tc.n, tc.p, tc.rho, its[0], its[1])
		if float64(its[0]) > tc.maxRatio*float64(its[1]) {
			t.Errorf("n=%d ρ=%g: forest %d iterations, Jacobi %d: want ≤ %.2f×", tc.n, tc.rho, its[0], its[1], tc.maxRatio)
		}
	}
}

func TestForestPrecAlg1MatchesJacobi(t *testing.T) {
	// Alg. 1 from the same start with either preconditioner of the
	// conjugate gradients, and with the dense Cholesky factor of H
	// (l1Chol): the solves agree to their tolerance, so the final J agrees
	// closely (ADMM's stopping rule lets them differ a little) and the
	// sides agree but for a few nodes near 0.
	rng := rand.New(rand.NewPCG(21, 4))
	x, truth := fgpwcBlobs(rng, 300, 2, 2, 2)
	g := fgpwcKNNGraph(t, x, 10)
	pairs := coscRandomPairs(rng, truth, 150).Pairs
	for i := range pairs {
		if rng.Float64() < 0.1 {
			pairs[i].Kind = 1 - pairs[i].Kind
		}
	}
	all := make([]int, g.N())
	for i := range all {
		all[i] = i
	}
	q := newL1Problem(g, all, pairs, false)
	xs, _, err := q.spectralStarts(context.Background(), &Settings{Seed: 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"forest", "jacobi", "cholesky"}
	var runs [3]l1Run
	for k := range names {
		cfg := l1Config{lambda: 1, mu: 1, maxIter: 100, outerTol: 1e-4, maxInner: 1000, absTol: 1e-7, relTol: 1e-5, jacobi: k == 1, solver: l1SolveCG}
		if k == 2 {
			cfg.solver = l1SolveChol
		}
		runs[k], err = q.alg1(context.Background(), xs[0], cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
	}
	for k := 1; k < len(runs); k++ {
		jf, jk := runs[0].objective, runs[k].objective
		if math.Abs(jf-jk) > 1e-3*math.Abs(jk) {
			t.Errorf("J: forest %.10g, %s %.10g", jf, names[k], jk)
		}
		var differ int
		for i := range runs[0].x {
			if (runs[0].x[i] > 0) != (runs[k].x[i] > 0) {
				differ++
			}
		}
		if differ > 3 {
			t.Errorf("%d of %d nodes change side between forest and %s", differ, len(all), names[k])
		}
	}
}
