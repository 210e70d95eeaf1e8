package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// fgBlobKNN returns the binary 10-NN graph of n points in k Gaussian blobs
// in 10-D (the data of bench/scaling, smaller) and pairs drawn with
// probability 1/n each (seed 003 §5.1).
func fgBlobKNN(t testing.TB, n, k int) (*graph.Graph, []int, *constraint.Set) {
	t.Helper()
	x, truth, err := synth.Blobs(n, k, 10, 4, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(context.Background(), x, graph.Spec{Kind: graph.SklearnKNN, K: 10, Affinity: graph.Binary, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	set, err := constraint.BernoulliPairs(truth, 1/float64(n), rand.NewPCG(2, 2))
	if err != nil {
		t.Fatal(err)
	}
	return g, truth, set
}

// TestFastGEPrecondWoodbury: M = L_G + μL_H + sZZᵀ equals S + U diag(c)Uᵀ
// with S = L(G') + (μ/n)D formed here from G' entry by entry, and with the
// exact S⁻¹ in place of the V-cycle the Woodbury operator is M⁻¹ (T·M = I).
func TestFastGEPrecondWoodbury(t *testing.T) {
	const n = 90
	g := pwRandomGraph(t, n, 250, 4)
	labels := make([]int, n)
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range labels {
		labels[i] = rng.IntN(3)
	}
	set, err := constraint.UniformPairs(labels, 40, rand.NewPCG(4, 5))
	if err != nil {
		t.Fatal(err)
	}
	fp, err := buildFastGE(g, set.Pairs)
	if err != nil {
		t.Fatal(err)
	}
	for _, mu := range []float64{0.37, 1e-3} {
		s := fp.lg.trace() / n
		m := graph.Dense(&comboOp{ops: []eigen.Operator{fp.lg, fp.lh, newCompOp(make([]int, n), 1, s)}, coef: []float64{1, mu, 1}})
		gp, u, c, err := fastGESplit(g, fp.ml, fp.cl, mu, s)
		if err != nil {
			t.Fatal(err)
		}
		d := g.Degrees()
		sd := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			idx, w := gp.Row(i)
			diag := mu / n * d[i]
			for k, j := range idx {
				if int(j) != i {
					sd.SetSym(i, int(j), -w[k])
					diag += w[k]
				}
			}
			sd.SetSym(i, i, diag)
		}
		var uc, split mat.Dense
		uc.Mul(u, mat.NewDiagDense(2, c[:]))
		split.Mul(&uc, u.T())
		split.Add(&split, sd)
		scale := mat.Norm(m, math.Inf(1))
		if e := pwMaxAbsDiff(m, &split); e > 1e-12*scale {
			t.Fatalf("μ = %g: M − (S + UCUᵀ) has max |entry| %g (‖M‖ %g)", mu, e, scale)
		}
		var chol mat.Cholesky
		if !chol.Factorize(sd) {
			t.Fatalf("μ = %g: S is not positive definite", mu)
		}
		var sinv mat.SymDense
		if err := chol.InverseTo(&sinv); err != nil {
			t.Fatal(err)
		}
		pre, err := woodburyPrecond(eigen.NewMatrix(&sinv), u, c)
		if err != nil {
			t.Fatal(err)
		}
		var tm mat.Dense
		tm.Mul(graph.Dense(pre), m)
		for i := 0; i < n; i++ {
			tm.Set(i, i, tm.At(i, i)-1)
		}
		if e := mat.Norm(&tm, math.Inf(1)); e > 1e-9 {
			t.Errorf("μ = %g: ‖T·M − I‖∞ = %g with the exact S⁻¹", mu, e)
		}
	}
}

// TestFastGEPrecondSymmetricPositive: with the V-cycle of several levels,
// T is symmetric and positive definite, as LOBPCG requires of a
// preconditioner.
func TestFastGEPrecondSymmetricPositive(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	const n = 1500
	g, _, set := fgBlobKNN(t, n, 5)
	fp, err := buildFastGE(g, set.Pairs)
	if err != nil {
		t.Fatal(err)
	}
	mu := fp.lg.trace() / (10 * fp.lh.trace()) / fastGEMuFactor
	pre, err := newFastGEPrecond(context.Background(), g, fp.ml, fp.cl, mu, fp.lg.trace()/n)
	if err != nil {
		t.Fatal(err)
	}
	if lv := pre.inner.(*diagScaledOp).op.(*graph.Multigrid).Levels(); lv < 2 {
		t.Fatalf("the V-cycle has %d level: the test needs a coarse grid", lv)
	}
	td := graph.Dense(pre)
	scale := mat.Norm(td, math.Inf(1))
	if e := pwMaxAbsDiff(td, td.T()); e > 1e-10*scale {
		t.Errorf("T − Tᵀ has max |entry| %g (‖T‖∞ %g)", e, scale)
	}
	sym := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, (td.At(i, j)+td.At(j, i))/2)
		}
	}
	vals, err := eigen.SymValues(sym)
	if err != nil {
		t.Fatal(err)
	}
	if vals[0] <= 1e-12*vals[n-1] {
		t.Errorf("T's eigenvalues range over [%g, %g]: not positive definite", vals[0], vals[n-1])
	}
}

// TestFastGEMultigridPathMatches: the preconditioned path (threshold
// lowered to 0) finds the eigenpairs of the plain LOBPCG path, and FAST-GE
// the same partition; on a graph that does not coarsen (a star) it falls
// back to plain LOBPCG.
func TestFastGEMultigridPathMatches(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	const n, k = 4000, 5
	g, _, set := fgBlobKNN(t, n, k)
	fp, err := buildFastGE(g, set.Pairs)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := &Settings{Seed: 1}
	mg, err := FastGE{}.solve(ctx, g, fp, len(set.Pairs), k, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := FastGE{}.solve(ctx, g, fp, len(set.Pairs), k, s, math.MaxInt)
	if err != nil {
		t.Fatal(err)
	}
	if !mg.preconditioned || plain.preconditioned {
		t.Fatalf("preconditioned: %v with the threshold at 0, %v with it at MaxInt", mg.preconditioned, plain.preconditioned)
	}
	for j := range k {
		if math.Abs(mg.values[j]-plain.values[j]) > 1e-7*math.Max(plain.values[j], 1e-3) {
			t.Errorf("λ_%d: preconditioned %.12g, plain %.12g", j+1, mg.values[j], plain.values[j])
		}
	}
	// Same subspace: the largest principal angle between the two sets of
	// vectors, each orthonormalized in the Euclidean metric.
	if a := pwSubspaceSine(mg.vectors, plain.vectors); a > 1e-5 {
		t.Errorf("sine of the largest principal angle between the subspaces: %g", a)
	}
	// Whole FAST-GE runs: the library path (n < 10⁵: plain) against the
	// preconditioned one through the same normalization and k-means.
	p := &Problem{Graph: g, K: k, Constraints: set}
	res, err := Run(ctx, FastGE{}, p, s)
	if err != nil {
		t.Fatal(err)
	}
	u := mat.DenseCopyOf(mg.vectors)
	if _, err := fastGENormalize(u, fp.d, fp.lh, s.rowTol(g.N())); err != nil {
		t.Fatal(err)
	}
	alt, err := partition(ctx, u, k, s.derive(streamFastGE), fastGERestarts, violationSelect(set.Pairs))
	if err != nil {
		t.Fatal(err)
	}
	if a, err := metrics.ARI(res.Labels, alt.Labels); err != nil || a < 0.999 {
		t.Errorf("partitions of the two paths: ARI %v (%v)", a, err)
	}

	// A star does not coarsen: the preconditioner is skipped.
	const leaves = 1500
	var es []graph.Edge
	for i := 1; i <= leaves; i++ {
		es = append(es, graph.Edge{I: 0, J: i, W: 1})
	}
	star, err := graph.FromEdges(leaves+1, es)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := graph.NewMultigrid(ctx, star, 1e-5); !errors.Is(err, graph.ErrNoCoarsening) {
		t.Fatalf("the star coarsens (%v): the fallback is not tested", err)
	}
	pairs := []constraint.Pair{{I: 1, J: 2, Kind: constraint.MustLink}, {I: 3, J: 4, Kind: constraint.CannotLink}, {I: 5, J: 6, Kind: constraint.CannotLink}}
	sp, err := buildFastGE(star, pairs)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := FastGE{}.solve(ctx, star, sp, len(pairs), 2, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	if pr.preconditioned {
		t.Error("a star was solved with the multigrid preconditioner")
	}
}

// pwSubspaceSine returns the sine of the largest principal angle between
// the column spaces of a and b (n×k each).
func pwSubspaceSine(a, b *mat.Dense) float64 {
	orth := func(x *mat.Dense) *mat.Dense {
		var qr mat.QR
		qr.Factorize(x)
		var q mat.Dense
		qr.QTo(&q)
		_, k := x.Dims()
		n, _ := q.Dims()
		return mat.DenseCopyOf(q.Slice(0, n, 0, k))
	}
	qa, qb := orth(a), orth(b)
	var c mat.Dense
	c.Mul(qa.T(), qb)
	var svd mat.SVD
	svd.Factorize(&c, mat.SVDNone)
	sv := svd.Values(nil)
	smin := sv[len(sv)-1]
	return math.Sqrt(math.Max(0, 1-smin*smin))
}

// TestFastGEPrecondCancelled: building the preconditioner stops on a
// cancelled context.
func TestFastGEPrecondCancelled(t *testing.T) {
	const n = 3000
	g, _, set := fgBlobKNN(t, n, 5)
	fp, err := buildFastGE(g, set.Pairs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newFastGEPrecond(ctx, g, fp.ml, fp.cl, 0.01, fp.lg.trace()/n); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled build: error %v, want context.Canceled", err)
	}
}
