package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// TestCSCAPSharedPriorIdentical checks that a CSCAP fit with a prior made
// beforehand (as Auto shares one across its folds and final fit) returns
// exactly what it returns alone: the same labels, eigenvalues and
// warnings, bit for bit (tolerance 0), on the three training parts of
// auto's folds of a problem with many pairs per node (300 nodes, 1500
// pairs), for Alg. 11 (k = 2) and Alg. 12 (k = 3), with the automatic
// shift (the 10-NN RBF graphs here are indefinite), a given shift and no
// vote.
func TestCSCAPSharedPriorIdentical(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		k    int
		c    CSCAP
	}{
		{"k=2", 2, CSCAP{}},
		{"k=3", 3, CSCAP{}},
		{"k=2 Shift=0.5", 2, CSCAP{Shift: 0.5}},
		{"k=3 NoVote", 3, CSCAP{NoVote: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := autoBlobsProblem(t, 300, tc.k, 1500)
			pr, err := tc.c.newPrior(ctx, p.Graph, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.c.Shift == 0 && !(pr.delta > 0) {
				t.Fatalf("δ = %v: the graph is positive semidefinite, the shift is not exercised", pr.delta)
			}
			shared := tc.c
			shared.prior = pr
			train, _ := fgpwcSplit(p.Constraints.Pairs, 3, 1)
			s := &Settings{Seed: 1, Restarts: 5}
			for f, pairs := range train {
				fp := &Problem{Graph: p.Graph, K: p.K, Constraints: &constraint.Set{N: p.Graph.N(), Pairs: pairs}}
				alone, err := Run(ctx, tc.c, fp, s)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Run(ctx, shared, fp, s)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got.Labels, alone.Labels) || !slices.Equal(got.Eigenvalues, alone.Eigenvalues) || !slices.Equal(got.Warnings, alone.Warnings) || !slices.Equal(got.Notes, alone.Notes) {
					t.Errorf("fold %d: shared prior gives labels/eigenvalues/warnings %v/%v/%q, alone %v/%v/%q", f, got.Labels[:10], got.Eigenvalues, got.Warnings, alone.Labels[:10], alone.Eigenvalues, alone.Warnings)
				}
			}
		})
	}
}

// TestCSCAPVoteNeighboursIdentical checks that CSCAP's vote restricted to
// the graph's rows (VoteOptions.Neighbours) keeps the same pairs with the
// same weights, bit for bit, as the full O(m²) scan, on a 10-NN graph with
// 5 pairs per node.
func TestCSCAPVoteNeighboursIdentical(t *testing.T) {
	for _, k := range []int{2, 3} {
		p, _ := autoBlobsProblem(t, 300, k, 1500)
		pr, err := CSCAP{}.newPrior(context.Background(), p.Graph, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := p.Graph.N()
		full, fw, err := votePairs(context.Background(), "cscap", "CSCAP.NoVote", n, p.Constraints.Pairs, pr.sim, nil)
		if err != nil {
			t.Fatal(err)
		}
		near, nw, err := votePairs(context.Background(), "cscap", "CSCAP.NoVote", n, p.Constraints.Pairs, pr.sim, pr.nbr)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(full, near) || !slices.Equal(fw, nw) {
			t.Errorf("k = %d: %d pairs kept by the full scan, %d with neighbours (warnings %q, %q)", k, len(full), len(near), fw, nw)
		}
		if len(fw) == 0 {
			t.Errorf("k = %d: no pair down-weighted: the vote's weights are not exercised", k)
		}
	}
}

// TestCholSolveColumnsIdentical checks cholSolveColumns against
// mat.Cholesky.SolveTo (one lapack64.Potrs on all columns) with tolerance
// 0 on random positive definite systems of sizes {1, 2, 3, 5, 10, 70} with
// 1, 3, 71 and 2·cholSolveWidth + 5 right-hand sides.
func TestCholSolveColumnsIdentical(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 11))
	for _, m := range []int{1, 2, 3, 5, 10, 70} {
		for _, nrhs := range []int{1, 3, 71, 2*cholSolveWidth + 5} {
			t.Run(fmt.Sprintf("m=%d/nrhs=%d", m, nrhs), func(t *testing.T) {
				g := mat.NewDense(m, m, nil)
				for i := range g.RawMatrix().Data {
					g.RawMatrix().Data[i] = rnd.NormFloat64()
				}
				a := mat.NewSymDense(m, nil)
				a.SymOuterK(1, g)
				for i := 0; i < m; i++ {
					a.SetSym(i, i, a.At(i, i)+0.1)
				}
				var ch mat.Cholesky
				if !ch.Factorize(a) {
					t.Fatal("not positive definite")
				}
				b := mat.NewDense(m, nrhs, nil)
				for i := range b.RawMatrix().Data {
					b.RawMatrix().Data[i] = rnd.NormFloat64()
				}
				want := mat.NewDense(m, nrhs, nil)
				if err := ch.SolveTo(want, b); err != nil {
					t.Fatal(err)
				}
				got := mat.DenseCopyOf(b)
				_ = cholSolveColumns(context.Background(), ch.RawU().(*mat.TriDense).RawTriangular(), got.RawMatrix(), nil)
				if !mat.Equal(got, want) {
					var d mat.Dense
					d.Sub(got, want)
					t.Errorf("max |difference| = %g, want 0", mat.Norm(&d, math.Inf(1)))
				}
			})
		}
	}
}

// TestCannotLinkMaxUpperTriangle checks cannotLinkMax's upper triangle
// against T[a,b] = max_c z_c(a) z_c(b) computed here over every entry,
// one cannot-link at a time (a strict comparison, as Alg. 12's running
// maximum), bit for bit (math.Float64bits, so that a −0 for a +0 shows),
// and that clipSym of it equals clipSym of the full T.
func TestCannotLinkMaxUpperTriangle(t *testing.T) {
	// 600 = 9 chunks of 64 and 24 (passes of four); 603 and 5 leave
	// cannot-links after the last pass of four.
	for _, count := range []int{600, 603, 5} {
		cannotLinkMaxCheck(t, count)
	}
}

func cannotLinkMaxCheck(t *testing.T, count int) {
	t.Helper()
	w := cscapWellConditioned(40, 3)
	cl := randomCannotLinks(40, count)
	const ec = 0.7
	got, err := cannotLinkMax(context.Background(), w, cl, ec, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 40
	full := mat.NewDense(n, n, nil)
	for i := range full.RawMatrix().Data {
		full.RawMatrix().Data[i] = math.Inf(-1)
	}
	z := make([]float64, n)
	for _, pr := range cl {
		c := math.Sqrt(pr.W()) / ec
		for i := range z {
			z[i] = c * (w.At(i, pr.I) + w.At(i, pr.J))
		}
		f := 1 / math.Sqrt(1+c*(z[pr.I]+z[pr.J]))
		for i := range z {
			z[i] *= f
		}
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				if v := z[a] * z[b]; v > full.At(a, b) {
					full.Set(a, b, v)
				}
			}
		}
	}
	for a := 0; a < n; a++ {
		for b := a; b < n; b++ {
			if math.Float64bits(got.At(a, b)) != math.Float64bits(full.At(a, b)) {
				t.Fatalf("%d cannot-links: T[%d,%d] = %v, want %v", count, a, b, got.At(a, b), full.At(a, b))
			}
		}
	}
	clipGot, err := clipSym(context.Background(), w, got)
	if err != nil {
		t.Fatal(err)
	}
	clipFull, err := clipSym(context.Background(), w, full)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(clipGot, clipFull) {
		t.Error("clipSym differs")
	}
}

// TestAutoManyPairsByHand checks Auto on a problem with many pairs per
// node, where its costly candidates run (300 nodes, 5n pairs, k = 2 and
// 3), against autoByHand, which fits every candidate alone on every fold
// with nothing shared: every score equal exactly (tolerance 0, the same
// counts), the same choice, and the chosen method's own Run on the whole
// problem giving the same labels.
func TestAutoManyPairsByHand(t *testing.T) {
	if testing.Short() {
		t.Skip("about 10 s")
	}
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	for _, k := range []int{2, 3} {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			t.Parallel() // no clock read, nothing shared
			p, _ := autoBlobsProblem(t, 300, k, 1500)
			s := &Settings{Seed: 1}
			res, err := Run(context.Background(), Auto{}, p, s)
			if err != nil {
				t.Fatal(err)
			}
			rep := res.Report.(*AutoReport)
			scores, best := autoByHand(t, p, s)
			cands := autoCandidates(false, p.Graph.N(), p.K)
			for ci, c := range cands {
				if got := rep.Candidates[ci]; got.Name != c.name || got.Score != scores[ci] {
					t.Errorf("%s: score %v, alone on each fold %v", c.name, got.Score, scores[ci])
				}
			}
			if rep.Chosen != cands[best].name {
				t.Fatalf("chose %s, by hand %s", rep.Chosen, cands[best].name)
			}
			fp := p
			if !cands[best].supervised {
				fp = &Problem{Graph: p.Graph, K: p.K}
			}
			direct, err := Run(context.Background(), cands[best].method, fp, s)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(direct.Labels, res.Labels) {
				t.Errorf("auto's labels differ from %s run alone", rep.Chosen)
			}
			t.Log(rep)
		})
	}
}

// woodburyByMat is woodbury as it was written before the in-place
// factorization and the column-parallel solve: mat.Cholesky on a copy of
// C, its SolveTo, and mat.LU when C is not positive definite.
func woodburyByMat(w *mat.SymDense, pairs []constraint.Pair, epsM, epsC float64) (*mat.SymDense, error) {
	n, q := w.SymmetricDim(), len(pairs)
	out := mat.NewSymDense(n, nil)
	out.CopySym(w)
	wu, sign, coef, err := woodburyColumns(context.Background(), w, pairs, epsM, epsC, nil)
	if err != nil {
		return nil, err
	}
	cm := woodburySystem(wu, pairs, coef, sign)
	x := mat.NewDense(q, n, nil)
	var ch mat.Cholesky
	if ch.Factorize(cm) {
		if err := ch.SolveTo(x, wu.T()); err != nil {
			return nil, err
		}
	} else {
		var lu mat.LU
		lu.Factorize(cm)
		if cond := lu.Cond(); math.IsInf(cond, 1) || cond > 1e14 {
			return nil, fmt.Errorf("singular (condition %.3g)", cond)
		}
		if err := lu.SolveTo(x, false, wu.T()); err != nil {
			return nil, err
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

// TestWoodburyInPlaceIdentical checks woodbury (C factorized in place, the
// solve split by columns) against woodburyByMat with tolerance 0: on the
// shifted prior of a 10-NN graph with 5 pairs per node (positive definite
// C, more pairs than nodes), on the unshifted indefinite prior (C not
// positive definite: the LU path), and with small ε (large entries).
func TestWoodburyInPlaceIdentical(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	p, _ := autoBlobsProblem(t, 200, 2, 1000)
	shifted, err := CSCAP{}.newPrior(context.Background(), p.Graph, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw := cscapAffinity(p.Graph, 0)
	pairs := p.Constraints.Pairs
	for _, tc := range []struct {
		name       string
		w          *mat.SymDense
		pairs      []constraint.Pair
		epsM, epsC float64
	}{
		{"shifted, 1000 pairs", shifted.w, pairs, 1, 1},
		{"shifted, 150 pairs", shifted.w, pairs[:150], 1, 1},
		{"unshifted, 1000 pairs", raw, pairs, 1, 1},
		{"shifted, ε = 0.01", shifted.w, pairs[:300], 0.01, 0.02},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, gerr := woodbury(context.Background(), tc.w, tc.pairs, tc.epsM, tc.epsC, nil)
			want, werr := woodburyByMat(tc.w, tc.pairs, tc.epsM, tc.epsC)
			if (gerr != nil) != (werr != nil) {
				t.Fatalf("error %v, by mat.Cholesky %v", gerr, werr)
			}
			if gerr != nil {
				t.Logf("both fail: %v", gerr)
				return
			}
			if !mat.Equal(got, want) {
				var d mat.Dense
				d.Sub(got, want)
				t.Errorf("max |difference| = %g, want 0", mat.Norm(&d, math.Inf(1)))
			}
		})
	}
}

// BenchmarkCannotLinkMax500: Alg. 12's running maximum on 500 nodes with
// 600 cannot-links (noisy-constraints' size at 5/n on wdbc).
func BenchmarkCannotLinkMax500(b *testing.B) {
	w := cscapWellConditioned(500, 3)
	cl := randomCannotLinks(500, 600)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := cannotLinkMax(context.Background(), w, cl, 0.7, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// randomCannotLinks draws count cannot-links between distinct nodes of n
// (I < J), with weights in [0.5, 1.5), from a fixed stream.
func randomCannotLinks(n, count int) []constraint.Pair {
	rnd := rand.New(rand.NewPCG(3, 4))
	var cl []constraint.Pair
	for len(cl) < count {
		i, j := rnd.IntN(n), rnd.IntN(n)
		if i != j {
			cl = append(cl, constraint.Pair{I: min(i, j), J: max(i, j), Kind: constraint.CannotLink, Weight: 0.5 + rnd.Float64()})
		}
	}
	return cl
}

// ML- and MCL-NOA-SSC given CSCAP{}'s prior of the graph (as Auto gives
// them its cscap candidate's) return exactly what they return without it
// on contradictory constraints, where the resolve runs CSCAP as its
// reference in every fold; a prior of another graph, or made with other
// knobs, changes nothing either (pairNOASSC does not take it, and CSCAP
// would not use it); and Auto hands its prior to both candidates.
func TestNOASSCSharedPriorIdentical(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	ctx := context.Background()
	p, _, _ := cscapVoteCase(t, 5, 160, 0.15)
	if consistentPairs(p.Constraints) {
		t.Fatal("the case's pairs are consistent: the resolve would not run")
	}
	pr, err := (CSCAP{}).newPrior(ctx, p.Graph, nil)
	if err != nil {
		t.Fatal(err)
	}
	other, _, _ := cscapVoteCase(t, 6, 160, 0.15)
	prOther, err := (CSCAP{}).newPrior(ctx, other.Graph, nil)
	if err != nil {
		t.Fatal(err)
	}
	prShift, err := (CSCAP{Shift: 0.5}).newPrior(ctx, p.Graph, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		plain     Method
		withPrior func(*cscapPrior) Method
	}{
		{"ml-noa-ssc", MLNOASSC{}, func(q *cscapPrior) Method { return MLNOASSC{prior: q} }},
		{"mcl-noa-ssc", MCLNOASSC{}, func(q *cscapPrior) Method { return MCLNOASSC{prior: q} }},
	} {
		want, err := Run(ctx, tc.plain, p, &Settings{Seed: 3, Restarts: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []*cscapPrior{pr, prOther, prShift} {
			got, err := Run(ctx, tc.withPrior(q), p, &Settings{Seed: 3, Restarts: 3})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Labels, want.Labels) || !slices.Equal(got.Warnings, want.Warnings) || !slices.Equal(got.Notes, want.Notes) {
				t.Errorf("%s: with a shared prior (own graph %v) the result differs", tc.name, q == pr)
			}
		}
	}
	// Auto's candidates: the prior reaches both NOA-SSC methods and no
	// other.
	cands := autoCandidates(false, p.Graph.N(), p.K)
	autoShareNOASSC(cands, pr)
	got := 0
	var refs []*referenceCache
	for _, c := range cands {
		switch m := c.method.(type) {
		case MLNOASSC:
			got += boolInt(m.prior == pr)
			refs = append(refs, m.refs)
		case MCLNOASSC:
			got += boolInt(m.prior == pr)
			refs = append(refs, m.refs)
		}
	}
	if got != 2 || len(refs) != 2 || refs[0] == nil || refs[0] != refs[1] {
		t.Errorf("the prior reached %d NOA-SSC candidates (want 2), reference caches %v (want one, shared)", got, refs)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ML- and MCL-NOA-SSC sharing one referenceCache, run concurrently (as
// in Auto), return exactly what each returns alone; the second method
// computes no reference partition of its own (every one it needs is in
// the cache already); and a partition whose computation was cancelled is
// computed again for a caller whose context is live.
func TestReferenceCacheShared(t *testing.T) {
	ctx := context.Background()
	p, _, _ := cscapVoteCase(t, 7, 160, 0.15)
	if consistentPairs(p.Constraints) {
		t.Fatal("the case's pairs are consistent: the resolve would not run")
	}
	s := &Settings{Seed: 2, Restarts: 3}
	wantML, err := Run(ctx, MLNOASSC{}, p, s)
	if err != nil {
		t.Fatal(err)
	}
	wantMCL, err := Run(ctx, MCLNOASSC{}, p, s)
	if err != nil {
		t.Fatal(err)
	}
	refs := &referenceCache{}
	var ml, mcl *Result
	var errML, errMCL error
	var wg sync.WaitGroup
	wg.Go(func() { ml, errML = Run(ctx, MLNOASSC{refs: refs}, p, s) })
	wg.Go(func() { mcl, errMCL = Run(ctx, MCLNOASSC{refs: refs}, p, s) })
	wg.Wait()
	if errML != nil || errMCL != nil {
		t.Fatal(errML, errMCL)
	}
	for _, c := range []struct {
		name      string
		got, want *Result
	}{{"ml-noa-ssc", ml, wantML}, {"mcl-noa-ssc", mcl, wantMCL}} {
		if !slices.Equal(c.got.Labels, c.want.Labels) || !slices.Equal(c.got.Warnings, c.want.Warnings) || !slices.Equal(c.got.Notes, c.want.Notes) {
			t.Errorf("%s: with a shared reference cache the result differs", c.name)
		}
	}
	// Sequentially: MCL-NOA-SSC after ML-NOA-SSC adds no partition.
	seq := &referenceCache{}
	if _, err := Run(ctx, MLNOASSC{refs: seq}, p, s); err != nil {
		t.Fatal(err)
	}
	n := len(seq.m)
	if n == 0 {
		t.Fatal("ML-NOA-SSC put no reference partition in the cache")
	}
	if _, err := Run(ctx, MCLNOASSC{refs: seq}, p, s); err != nil {
		t.Fatal(err)
	}
	if len(seq.m) != n {
		t.Errorf("MCL-NOA-SSC computed %d reference partitions of its own, want 0", len(seq.m)-n)
	}
	// A cancelled computation is not handed to a live caller.
	cc := &referenceCache{}
	set := p.Constraints
	key := referenceKey(ReferenceFastGE, p, set, s)
	done := make(chan struct{})
	close(done)
	cc.m = map[string]*referenceEntry{key: {done: done, err: context.Canceled}}
	res, err := cc.partition(ctx, ReferenceFastGE, FastGE{}, p, set, s)
	if err != nil || res == nil {
		t.Errorf("after a cancelled computation: %v, %v; want the partition", res, err)
	}
}
