package graph_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

// solveError returns the relative error of the factor of sym for g, kind
// and σ applied to 3 random columns, against a dense Cholesky solve of the
// matrix formed entry by entry (denseShifted).
func solveError(t *testing.T, sym *graph.CholeskySymbolic, g *graph.Graph, kind graph.LaplacianKind, sigma float64, seed uint64) float64 {
	t.Helper()
	inv, err := sym.Factor(context.Background(), g, kind, sigma)
	if err != nil {
		t.Fatal(err)
	}
	var chol mat.Cholesky
	if !chol.Factorize(denseShifted(g, kind, sigma)) {
		t.Fatal("dense matrix not positive definite")
	}
	n := g.N()
	rng := rand.New(rand.NewPCG(seed, 5))
	x := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		for c := 0; c < 3; c++ {
			x.Set(i, c, rng.NormFloat64())
		}
	}
	got := mat.NewDense(n, 3, nil)
	inv.MulTo(got, x)
	var want, diff mat.Dense
	if err := chol.SolveTo(&want, x); err != nil {
		t.Fatal(err)
	}
	diff.Sub(got, &want)
	return mat.Norm(&diff, 2) / mat.Norm(&want, 2)
}

// knnGraph is the CLI's default graph (10-NN, RBF with local σ) on n
// Gaussian points in dim dimensions, 5 blobs: the graphs whose narrow
// fundamental supernodes amalgamation merges.
func knnGraph(t testing.TB, n, dim int, seed uint64) *graph.Graph {
	t.Helper()
	x, _, err := synth.Blobs(n, 5, dim, 1, rand.NewPCG(seed, 1))
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(context.Background(), x, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// analyzeBoth returns g's analyses with and without amalgamation, and
// checks what they must share: the factor's entries and flops (the same
// order and fill), and the storage counts: stored values on and below the
// diagonal equal Entries plus the explicit zeros, exactly Entries without
// amalgamation, and at most maxSupernode columns a supernode.
func analyzeBoth(t *testing.T, g *graph.Graph) (relaxed, fundamental *graph.CholeskySymbolic) {
	t.Helper()
	ctx := context.Background()
	relaxed, err := graph.AnalyzeCholesky(ctx, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	fundamental, err = graph.AnalyzeCholeskyRelax(ctx, g, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if relaxed.Entries() != fundamental.Entries() || relaxed.Flops() != fundamental.Flops() {
		t.Errorf("entries %d, flops %v with amalgamation; %d, %v without", relaxed.Entries(), relaxed.Flops(), fundamental.Entries(), fundamental.Flops())
	}
	for _, s := range []*graph.CholeskySymbolic{relaxed, fundamental} {
		lower, zeros := s.LowerStored()
		if lower != s.Entries()+zeros || zeros < 0 || s.Stored() < lower {
			t.Errorf("stored %d, of them %d on and below the diagonal, %d explicit zeros; %d entries", s.Stored(), lower, zeros, s.Entries())
		}
		if w := s.MaxSupernodeWidth(); w > graph.MaxCholeskySupernode {
			t.Errorf("a supernode of %d columns, above %d", w, graph.MaxCholeskySupernode)
		}
	}
	if lower, zeros := fundamental.LowerStored(); lower != fundamental.Entries() || zeros != 0 {
		t.Errorf("without amalgamation: %d stored on and below the diagonal, %d zeros; want the %d entries, 0", lower, zeros, fundamental.Entries())
	}
	r, f := relaxed.Supernodes()
	if r0, f0 := fundamental.Supernodes(); r0 != f0 || f != f0 || r > f {
		t.Errorf("supernodes: %d from %d fundamental with amalgamation, %d from %d without", r, f, r0, f0)
	}
	return relaxed, fundamental
}

// TestCholeskyAmalgamatedMatchesDenseSolve checks the factor with relaxed
// supernodes against dense Cholesky solves (to 1e-9 relative, both
// Laplacians) on the graphs of TestCholeskyInverseMatchesDenseSolve and
// TestCholeskyInverseRandomGraphs and on k-NN graphs of blobs in 2 and
// 20 dimensions, and that amalgamation merges: on every k-NN graph, and
// on the random graphs in all, fewer supernodes than fundamental ones.
// The factor without amalgamation is checked too.
func TestCholeskyAmalgamatedMatchesDenseSolve(t *testing.T) {
	type graphCase struct {
		name  string
		g     *graph.Graph
		kind  graph.LaplacianKind
		sigma float64
		merge bool // must merge
	}
	var cases []graphCase
	for _, c := range []struct {
		n, extra   int
		span, tiny float64
		sigma      float64
		kind       graph.LaplacianKind
	}{
		{60, 90, 0, 1, 1e-3, graph.Unnormalized},
		{80, 160, 6, 1e-9, 1e-4, graph.Unnormalized},
		{40, 600, 2, 1e-3, 1e-3, graph.Unnormalized},
		{300, 40000, 1, 1e-2, 1e-3, graph.Unnormalized},
		{80, 160, 6, 1e-9, 1e-4, graph.Symmetric},
	} {
		cases = append(cases, graphCase{"wide", wideGraph(t, c.n, c.extra, c.span, c.tiny, 3), c.kind, c.sigma, false})
	}
	rng := rand.New(rand.NewPCG(11, 13))
	for trial := 0; trial < 40; trial++ {
		n := 3 + rng.IntN(148)
		extra := rng.IntN(n * n / 2)
		kind := graph.Unnormalized
		if trial%2 == 1 {
			kind = graph.Symmetric
		}
		cases = append(cases, graphCase{"random", wideGraph(t, n, extra, 3, 1e-4, uint64(trial)), kind, 1e-3, false})
	}
	for i, c := range []struct{ n, dim int }{{400, 2}, {300, 20}, {500, 5}} {
		kind := graph.Unnormalized
		if i == 1 {
			kind = graph.Symmetric
		}
		cases = append(cases, graphCase{"knn", knnGraph(t, c.n, c.dim, uint64(i)), kind, 1e-3, true})
	}
	var relaxedAll, fundamentalAll int
	for i, c := range cases {
		relaxed, fundamental := analyzeBoth(t, c.g)
		r, f := relaxed.Supernodes()
		relaxedAll += r
		fundamentalAll += f
		if c.merge && r >= f {
			t.Errorf("case %d (%s, %d nodes): %d supernodes from %d fundamental: no merge", i, c.name, c.g.N(), r, f)
		}
		for _, s := range []*graph.CholeskySymbolic{relaxed, fundamental} {
			if e := solveError(t, s, c.g, c.kind, c.sigma, uint64(i)); !(e <= 1e-9) {
				rs, fs := s.Supernodes()
				t.Errorf("case %d (%s, %d nodes, %v, %d supernodes from %d): relative error %.3g > 1e-9", i, c.name, c.g.N(), c.kind, rs, fs, e)
			}
		}
		if c.name == "knn" {
			_, zeros := relaxed.LowerStored()
			t.Logf("%d nodes: %d supernodes from %d, widest %d; %d entries, %d explicit zeros, %d stored (%d without amalgamation)", c.g.N(), r, f, relaxed.MaxSupernodeWidth(), relaxed.Entries(), zeros, relaxed.Stored(), fundamental.Stored())
		}
	}
	if relaxedAll >= fundamentalAll {
		t.Errorf("%d supernodes in all from %d fundamental: no merge", relaxedAll, fundamentalAll)
	}
}

// TestCholeskyAmalgamationRefused checks merges that must be refused: a
// complete graph's single chain of 200 columns, split at maxSupernode
// (128 + 72), whose merge would exceed it; and on a k-NN graph, any merge
// beyond the analysis' limit on stored values (at the fundamental
// supernodes' storage, no merge at all; halfway to the unlimited
// amalgamation's, some). The factors still match dense solves.
func TestCholeskyAmalgamationRefused(t *testing.T) {
	ctx := context.Background()
	const n = 200
	var edges []graph.Edge
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			edges = append(edges, graph.Edge{I: i, J: j, W: 0.5 + rng.Float64()})
		}
	}
	complete, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	relaxed, _ := analyzeBoth(t, complete)
	if r, f := relaxed.Supernodes(); r != 2 || f != 2 || relaxed.MaxSupernodeWidth() != graph.MaxCholeskySupernode {
		t.Errorf("complete graph: %d supernodes from %d, widest %d; want 2 from 2, %d", r, f, relaxed.MaxSupernodeWidth(), graph.MaxCholeskySupernode)
	}
	if e := solveError(t, relaxed, complete, graph.Unnormalized, 1e-3, 1); !(e <= 1e-9) {
		t.Errorf("complete graph: relative error %.3g > 1e-9", e)
	}

	g := knnGraph(t, 400, 10, 7)
	free, fundamental := analyzeBoth(t, g)
	if free.Stored() <= fundamental.Stored() {
		t.Fatalf("amalgamation stores %d values, %d without: nothing to limit", free.Stored(), fundamental.Stored())
	}
	_, f := fundamental.Supernodes()
	rFree, _ := free.Supernodes()
	for _, limit := range []int64{fundamental.Stored(), (fundamental.Stored() + free.Stored()) / 2} {
		s, err := graph.AnalyzeCholesky(ctx, g, limit)
		if err != nil {
			t.Fatalf("limit %d: %v", limit, err)
		}
		r, _ := s.Supernodes()
		switch {
		case s.Stored() > limit:
			t.Errorf("limit %d: %d values stored", limit, s.Stored())
		case limit == fundamental.Stored() && r != f:
			t.Errorf("limit at the fundamental supernodes' %d values: %d supernodes from %d", limit, r, f)
		case limit < free.Stored() && !(r > rFree && (limit == fundamental.Stored() || r < f)):
			t.Errorf("limit %d: %d supernodes, want between %d (unlimited) and %d (fundamental)", limit, r, rFree, f)
		}
		if e := solveError(t, s, g, graph.Symmetric, 1e-3, 2); !(e <= 1e-9) {
			t.Errorf("limit %d: relative error %.3g > 1e-9", limit, e)
		}
	}
	if _, err := graph.AnalyzeCholesky(ctx, g, fundamental.Stored()-1); !errors.Is(err, graph.ErrTooLarge) {
		t.Errorf("limit below the fundamental supernodes' storage: error %v, want ErrTooLarge", err)
	}
}

// TestEtreePostorder checks the postorder on random forests: a
// permutation in which every node comes after its children, each
// subtree is a contiguous range ending at its root, and the child of
// most entries (the last of them) right before its parent.
func TestEtreePostorder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 50; trial++ {
		n := 1 + rng.IntN(200)
		parent, counts := make([]int32, n), make([]int, n)
		for j := 0; j < n; j++ {
			parent[j] = -1
			if j+1 < n && rng.IntN(8) > 0 {
				parent[j] = int32(j + 1 + rng.IntN(min(n-j-1, 1+rng.IntN(10))))
			}
			counts[j] = 1 + rng.IntN(5)
		}
		post := graph.EtreePostorder(parent, counts)
		if len(post) != n {
			t.Fatalf("trial %d: %d nodes in the postorder, want %d", trial, len(post), n)
		}
		inv := make([]int, n)
		seen := make([]bool, n)
		for k, j := range post {
			if seen[j] {
				t.Fatalf("trial %d: node %d twice", trial, j)
			}
			seen[j], inv[j] = true, k
		}
		size := make([]int, n) // subtree sizes
		heavy := make([]int, n)
		for j := range heavy {
			heavy[j] = -1
		}
		for j := 0; j < n; j++ {
			size[j]++
			if p := parent[j]; p >= 0 {
				size[p] += size[j]
				if h := heavy[p]; h < 0 || counts[j] >= counts[h] {
					heavy[p] = j
				}
			}
		}
		for j := 0; j < n; j++ {
			// j lies in the range of each ancestor a, the size[a] places
			// ending at a, and before a: so each range holds exactly a's
			// subtree.
			for a := parent[j]; a >= 0; a = parent[a] {
				if !(inv[j] < inv[a] && inv[j] >= inv[a]-size[a]+1) {
					t.Errorf("trial %d: node %d at %d, its ancestor %d at %d with a subtree of %d", trial, j, inv[j], a, inv[a], size[a])
				}
			}
			if h := heavy[j]; h >= 0 && inv[h] != inv[j]-1 {
				t.Errorf("trial %d: heavy child %d of %d at %d, parent at %d", trial, h, j, inv[h], inv[j])
			}
		}
	}
}
