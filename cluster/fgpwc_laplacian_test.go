package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// fgpwcDenseUnnormalized returns the eigenvalues (ascending) and
// eigenvectors of D − W of g, by a dense eigendecomposition.
func fgpwcDenseUnnormalized(t *testing.T, g *graph.Graph) ([]float64, *mat.Dense) {
	t.Helper()
	n := g.N()
	l := mat.NewSymDense(n, nil)
	for _, e := range g.Edges() {
		if e.I == e.J {
			continue
		}
		l.SetSym(e.I, e.J, -e.W)
	}
	for i, d := range g.Degrees() {
		l.SetSym(i, i, l.At(i, i)+d)
	}
	// Self loops add to the degree and to W_ii: they cancel on the diagonal.
	for _, e := range g.Edges() {
		if e.I == e.J {
			l.SetSym(e.I, e.I, l.At(e.I, e.I)-e.W)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(l, true) {
		t.Fatal("dense eigendecomposition failed")
	}
	var v mat.Dense
	es.VectorsTo(&v)
	return es.Values(nil), &v
}

// fgpwcEqualUpToSigns reports whether a and b (n×m) have equal columns up
// to their signs, within tol.
func fgpwcEqualUpToSigns(a, b mat.Matrix, tol float64) bool {
	n, m := a.Dims()
	for j := 0; j < m; j++ {
		s := 1.0
		if mat.Dot(mat.NewVecDense(n, mat.Col(nil, j, a)), mat.NewVecDense(n, mat.Col(nil, j, b))) < 0 {
			s = -1
		}
		for i := 0; i < n; i++ {
			if math.Abs(a.At(i, j)-s*b.At(i, j)) > tol {
				return false
			}
		}
	}
	return true
}

func TestFGPWCUnnormalizedEmbedding(t *testing.T) {
	// The D − W basis holds the eigenpairs 2 … m+1 of a dense
	// eigendecomposition of D − W (the four-block graph has distinct
	// eigenvalues there), and X₀ = (VᵀLV)^{-1/2} = diag(λ)^{-1/2} for the
	// orthonormal eigenvectors.
	g, _ := fgpwcFourBlocks(t, 6)
	vals, vecs := fgpwcDenseUnnormalized(t, g)
	n := g.N()
	for _, tc := range []struct {
		name   string
		solver eigen.Solver
	}{
		{"dense", eigen.Dense{}},
		{"Lanczos", eigen.Lanczos{}},
	} {
		for _, m := range []int{1, 2, 3} {
			t.Run(tc.name+"/m="+strconv.Itoa(m), func(t *testing.T) {
				f := FGPWC{M: m, Laplacian: FGPWCUnnormalized}
				b, err := f.Embed(context.Background(), g, &Settings{Eigen: tc.solver, Seed: 1, EigenSettings: &eigen.Settings{Tol: 1e-10}})
				if err != nil {
					t.Fatal(err)
				}
				if b.Laplacian() != FGPWCUnnormalized || b.M() != m {
					t.Fatalf("basis Laplacian %v, m %d; want unnormalized, %d", b.Laplacian(), b.M(), m)
				}
				const tol = 1e-6
				for j, l := range b.Eigenvalues() {
					if math.Abs(l-vals[j+1]) > tol*math.Max(1, vals[j+1]) {
						t.Errorf("λ_%d = %.10g, dense %.10g", j+2, l, vals[j+1])
					}
				}
				if !fgpwcEqualUpToSigns(b.v, vecs.Slice(0, n, 1, m+1), 1e-5) {
					t.Errorf("V differs from the dense eigenvectors 2…%d", m+1)
				}
				for i := 0; i < m; i++ {
					for j := 0; j < m; j++ {
						want := 0.0
						if i == j {
							want = 1 / math.Sqrt(vals[i+1])
						}
						if math.Abs(b.x0.At(i, j)-want) > 1e-5*math.Max(1, math.Abs(want)) {
							t.Errorf("X₀[%d,%d] = %.8g, want %.8g", i, j, b.x0.At(i, j), want)
						}
					}
				}
			})
		}
	}
}

func TestFGPWCUnnormalizedNoConstraints(t *testing.T) {
	// Without constraints FGPWC on D − W is unconstrained spectral
	// clustering on the D − W embedding: the result's embedding is V X₀ =
	// V diag(λ)^{-1/2} of the dense eigendecomposition (up to column signs)
	// and its labels are those of the same k-means on that embedding.
	rnd := rand.New(rand.NewPCG(3, 1))
	x, _ := fgpwcBlobs(rnd, 60, 2, 3, 2.5)
	g := fgpwcKNNGraph(t, x, 8)
	if _, c := g.Components(); c != 1 {
		t.Fatalf("the test graph has %d components, want 1", c)
	}
	vals, vecs := fgpwcDenseUnnormalized(t, g)
	n := g.N()
	for _, tc := range []struct {
		name string
		m, k int
	}{
		{"m = k (automatic)", 0, 3},
		{"m = 2", 2, 3},
		{"m = 6", 6, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := FGPWC{M: tc.m, Laplacian: FGPWCUnnormalized}
			s := &Settings{Seed: 7, Eigen: eigen.Dense{}}
			res, err := Run(context.Background(), f, &Problem{Graph: g, K: tc.k}, s)
			if err != nil {
				t.Fatal(err)
			}
			m := tc.m
			if m == 0 {
				m = tc.k // Spectral Learning's dimension
			}
			want := mat.NewDense(n, m, nil)
			for j := 0; j < m; j++ {
				for i := 0; i < n; i++ {
					want.Set(i, j, vecs.At(i, j+1)/math.Sqrt(vals[j+1]))
				}
			}
			if c := res.Embedding.RawMatrix().Cols; c != m {
				t.Fatalf("embedding has %d columns, want %d", c, m)
			}
			if !fgpwcEqualUpToSigns(res.Embedding, want, 1e-5) {
				t.Fatalf("embedding differs from V X₀ of the dense decomposition (λ %.6g, got row 0 %v, want %v)", vals[:m+2], mat.Row(nil, 0, res.Embedding), mat.Row(nil, 0, want))
			}
			labels, err := fgpwcKMeans(context.Background(), want, tc.k, nil, fgpwcKMeansRuns, s.Seed, s.orDefault())
			if err != nil {
				t.Fatal(err)
			}
			ari, err := metrics.ARI(labels, res.Labels)
			if err != nil {
				t.Fatal(err)
			}
			if ari < 1-1e-12 {
				t.Errorf("ARI between FGPWC's labels and k-means on the dense embedding = %.6f, want 1", ari)
			}
		})
	}
}

// fgpwcPendants returns two blocks of b nodes (weight 1 inside, 0.02
// between) and p pendant nodes hanging from block 0 by an edge of weight
// 0.001 each (class 0). D − W's smallest non-trivial eigenvectors localize
// on the pendants (their absolute cut is tiny), L_sym's Fiedler vector
// separates the blocks.
func fgpwcPendants(t *testing.T, b, p int) (*graph.Graph, []int) {
	t.Helper()
	n := 2*b + p
	truth := make([]int, n)
	var edges []graph.Edge
	for i := 0; i < 2*b; i++ {
		truth[i] = i / b
		for j := i + 1; j < 2*b; j++ {
			w := 0.02
			if i/b == j/b {
				w = 1
			}
			edges = append(edges, graph.Edge{I: i, J: j, W: w})
		}
	}
	for q := 0; q < p; q++ {
		edges = append(edges, graph.Edge{I: q, J: 2*b + q, W: 0.001})
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g, truth
}

// fgpwcHubs returns two classes of b nodes each made of a hub (weight 1 to
// every other node of its class) and leaves with weak links among
// themselves (0.05); the classes are joined by hub–hub weight 0.5 and
// leaf–leaf weights 0.01 between leaves of the same index. Both
// Laplacians are run on it; it serves the determinism test.
func fgpwcHubs(t *testing.T, b int) (*graph.Graph, []int) {
	t.Helper()
	n := 2 * b
	truth := make([]int, n)
	var edges []graph.Edge
	for c := 0; c < 2; c++ {
		hub := c * b
		for i := hub; i < hub+b; i++ {
			truth[i] = c
			if i > hub {
				edges = append(edges, graph.Edge{I: hub, J: i, W: 1})
				for j := i + 1; j < hub+b; j++ {
					edges = append(edges, graph.Edge{I: i, J: j, W: 0.05})
				}
			}
		}
	}
	edges = append(edges, graph.Edge{I: 0, J: b, W: 0.5})
	for i := 1; i < b; i++ {
		edges = append(edges, graph.Edge{I: i, J: b + i, W: 0.01})
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g, truth
}

// fgpwcPicked returns the Laplacian named by the auto choice's note (a
// cross-validated choice) or warning (too few constraints to choose).
func fgpwcPicked(t *testing.T, res *Result) FGPWCLaplacian {
	t.Helper()
	for _, w := range append(slices.Clone(res.Notes), res.Warnings...) {
		switch {
		case strings.Contains(w, "Laplacian"):
			t.Log(w)
		}
	}
	for _, w := range res.Notes {
		switch {
		case strings.Contains(w, "chose the Laplacian L = D − W"):
			return FGPWCUnnormalized
		case strings.Contains(w, "chose the Laplacian L_sym"):
			return FGPWCSymmetric
		}
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "L_sym kept") {
			return FGPWCSymmetric
		}
	}
	t.Fatalf("no report of the Laplacian's choice: notes %q, warnings %q", res.Notes, res.Warnings)
	return -1
}

func TestFGPWCAutoLaplacian(t *testing.T) {
	// The automatic choice is deterministic, returns exactly the fit of
	// the Laplacian it reports (the same run with that Laplacian fixed),
	// and picks L_sym where D − W's embedding of dimension k holds only the
	// pendants (the constraints, violated there, say so).
	pend, pendTruth := fgpwcPendants(t, 12, 3)
	hubs, hubTruth := fgpwcHubs(t, 15)
	for _, tc := range []struct {
		name    string
		g       *graph.Graph
		truth   []int
		prob    float64
		imprint bool
		iterCV  bool
		tune    bool
		want    FGPWCLaplacian // -1: either
	}{
		{"pendants, IterCV", pend, pendTruth, 0.15, false, true, false, FGPWCSymmetric},
		{"pendants, no selection", pend, pendTruth, 0.15, false, false, false, FGPWCSymmetric},
		{"pendants, AutoTune", pend, pendTruth, 0.15, false, false, true, FGPWCSymmetric},
		{"hubs, Imprint and IterCV", hubs, hubTruth, 0.1, true, true, false, -1},
		{"hubs, IterCV", hubs, hubTruth, 0.1, false, true, false, -1},
		{"hubs, Imprint, AutoTune and IterCV", hubs, hubTruth, 0.1, true, true, true, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set, err := constraint.BernoulliPairs(tc.truth, tc.prob, rand.NewPCG(11, 2))
			if err != nil {
				t.Fatal(err)
			}
			p := &Problem{Graph: tc.g, K: 2, Constraints: set}
			f := *NewFGPWC()
			f.Imprint, f.IterCV, f.AutoTune, f.TuneFolds, f.Laplacian = tc.imprint, tc.iterCV, tc.tune, 3, FGPWCAutoLaplacian
			s := &Settings{Seed: 5}
			res, err := Run(context.Background(), f, p, s)
			if err != nil {
				t.Fatal(err)
			}
			again, err := Run(context.Background(), f, p, s)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Labels, again.Labels) || !mat.Equal(res.Embedding, again.Embedding) {
				t.Error("two runs with the same seed differ")
			}
			picked := fgpwcPicked(t, res)
			if tc.want >= 0 && picked != tc.want {
				t.Errorf("picked %v, want %v (notes %q)", picked, tc.want, res.Notes)
			}
			fixed := f
			fixed.Laplacian = picked
			one, err := Run(context.Background(), fixed, p, s)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Labels, one.Labels) || !mat.EqualApprox(res.Embedding, one.Embedding, 1e-12) || res.Iterations != one.Iterations {
				t.Errorf("the automatic choice (%v) does not return that Laplacian's fit", picked)
			}
		})
	}
}

func TestFGPWCLaplacianErrors(t *testing.T) {
	g, truth := fgpwcFourBlocks(t, 5)
	set, err := constraint.BernoulliPairs(truth, 0.3, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sym, err := FGPWC{M: 3}.Embed(ctx, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	unn, err := FGPWC{M: 3, Laplacian: FGPWCUnnormalized}.Embed(ctx, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{Graph: g, K: 2, Constraints: set}
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"unknown kind", func() error { _, err := Run(ctx, (FGPWC{Laplacian: 7}), p, nil); return err }, "unknown Laplacian"},
		{"negative kind", func() error { _, err := Run(ctx, (FGPWC{Laplacian: -1}), p, nil); return err }, "unknown Laplacian"},
		{"L_sym basis, D − W method", func() error {
			_, err := Run(ctx, (FGPWC{M: 3, Laplacian: FGPWCUnnormalized, Basis: sym}), p, nil)
			return err
		}, "Laplacian = sym; the method has"},
		{"D − W basis, L_sym method", func() error { _, err := Run(ctx, (FGPWC{M: 3, Basis: unn}), p, nil); return err }, "Laplacian = unnormalized; the method has"},
		{"auto with a Basis", func() error {
			_, err := Run(ctx, (FGPWC{M: 3, Laplacian: FGPWCAutoLaplacian, Basis: sym}), p, nil)
			return err
		}, "leave Basis nil"},
		{"Embed with auto", func() error { _, err := (FGPWC{Laplacian: FGPWCAutoLaplacian}).Embed(ctx, g, nil); return err }, "fixed Laplacian"},
		{"CrossValidate with auto", func() error {
			_, err := (FGPWC{Laplacian: FGPWCAutoLaplacian}).CrossValidate(ctx, p, nil, nil, nil)
			return err
		}, "needs Run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %q does not wrap ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
	// Text forms (the command line's -set Laplacian=…).
	for _, tc := range []struct {
		in   string
		want FGPWCLaplacian
		ok   bool
	}{
		{"sym", FGPWCSymmetric, true}, {"Unnormalized", FGPWCUnnormalized, true}, {"auto", FGPWCAutoLaplacian, true}, {"rw", 0, false},
	} {
		var l FGPWCLaplacian
		err := l.UnmarshalText([]byte(tc.in))
		if (err == nil) != tc.ok || (tc.ok && l != tc.want) {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v, ok %v", tc.in, l, err, tc.want, tc.ok)
		}
		if tc.ok && l.String() != strings.ToLower(tc.in) {
			t.Errorf("String() = %q, want %q", l.String(), strings.ToLower(tc.in))
		}
	}
}
