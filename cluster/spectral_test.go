package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// plantedCliques returns c cliques of the given sizes with unit weights,
// joined in a ring by single bridge edges of weight bridge (0 for none),
// and the planted labels.
func plantedCliques(t testing.TB, sizes []int, bridge float64) (*graph.Graph, []int) {
	t.Helper()
	var edges []graph.Edge
	var labels []int
	start := 0
	var firsts []int
	for c, sz := range sizes {
		firsts = append(firsts, start)
		for i := 0; i < sz; i++ {
			labels = append(labels, c)
			for j := i + 1; j < sz; j++ {
				edges = append(edges, graph.Edge{I: start + i, J: start + j, W: 1})
			}
		}
		start += sz
	}
	if bridge > 0 && len(sizes) > 1 {
		for c := range sizes {
			next := firsts[(c+1)%len(sizes)] + 1
			edges = append(edges, graph.Edge{I: firsts[c], J: next, W: bridge})
		}
	}
	g, err := graph.FromEdges(start, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g, labels
}

func ari(t testing.TB, a, b []int) float64 {
	t.Helper()
	v, err := metrics.ARI(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRegistryMethodsRecoverPlantedCliques(t *testing.T) {
	cases := []struct {
		name   string
		sizes  []int
		bridge float64
	}{
		{"3 equal cliques bridged", []int{20, 20, 20}, 0.5},
		{"4 unequal cliques bridged", []int{30, 12, 25, 8}, 0.2},
		{"3 disconnected cliques", []int{15, 10, 5}, 0},
	}
	for _, tc := range cases {
		g, truth := plantedCliques(t, tc.sizes, tc.bridge)
		for _, name := range []string{"njw", "ncut", "usc", "hbisect", "bethe"} {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				m, err := New(name)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Run(context.Background(), m, &Problem{Graph: g, K: len(tc.sizes)}, &Settings{Seed: 3})
				if err != nil {
					t.Fatal(err)
				}
				if got := ari(t, truth, res.Labels); got < 1-1e-12 {
					t.Errorf("ARI = %v, want 1 (labels %v)", got, res.Labels)
				}
			})
		}
	}
}

// denseSmallest returns the k smallest eigenvalues of the dense matrix a,
// computed with gonum's EigenSym, independent of the code under test.
func denseSmallest(t *testing.T, a *mat.SymDense, k int) []float64 {
	t.Helper()
	var es mat.EigenSym
	if !es.Factorize(a, false) {
		t.Fatal("EigenSym failed")
	}
	v := es.Values(nil)
	sort.Float64s(v)
	return v[:k]
}

// randomGraph returns a connected random graph: a ring plus random chords
// with random weights.
func randomGraph(t testing.TB, n, chords int, seed uint64) *graph.Graph {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		edges = append(edges, graph.Edge{I: i, J: (i + 1) % n, W: 0.5 + rng.Float64()})
	}
	for c := 0; c < chords; c++ {
		i, j := rng.IntN(n), rng.IntN(n)
		if i != j {
			edges = append(edges, graph.Edge{I: i, J: j, W: rng.Float64()})
		}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestEmbeddingsMatchDenseFormulas(t *testing.T) {
	const k = 4
	for _, n := range []int{12, 60, 500} {
		g := randomGraph(t, n, 3*n, uint64(n))
		w := g.Dense()
		d := g.Degrees()
		// L_sym and L written from the definitions (thesis §2.2).
		lsym := mat.NewSymDense(n, nil)
		lun := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := -w.At(i, j) / math.Sqrt(d[i]*d[j])
				u := -w.At(i, j)
				if i == j {
					v += 1
					u += d[i]
				}
				lsym.SetSym(i, j, v)
				lun.SetSym(i, j, u)
			}
		}
		for _, tc := range []struct {
			name string
			m    Method
			ref  *mat.SymDense
		}{
			{"njw", NJW{}, lsym},
			{"ncut", ShiMalik{}, lsym},
			{"usc", Unnormalized{}, lun},
		} {
			res, err := Run(context.Background(), tc.m, &Problem{Graph: g, K: k}, &Settings{Seed: 1})
			if err != nil {
				t.Fatalf("n=%d %s: %v", n, tc.name, err)
			}
			want := denseSmallest(t, tc.ref, k)
			for j := range want {
				if math.Abs(res.Eigenvalues[j]-want[j]) > 1e-8*math.Max(1, math.Abs(want[j])) {
					t.Errorf("n=%d %s: λ_%d = %.12g, dense %.12g", n, tc.name, j, res.Eigenvalues[j], want[j])
				}
			}
			if tc.name == "ncut" {
				// Shi–Malik rows are generalized eigenvectors: L u = λ D u.
				for j := 0; j < k; j++ {
					u := mat.Col(nil, j, res.Embedding)
					lu := mat.NewVecDense(n, nil)
					lu.MulVec(lun, mat.NewVecDense(n, u))
					var r, nrm float64
					for i := 0; i < n; i++ {
						r += math.Pow(lu.AtVec(i)-res.Eigenvalues[j]*d[i]*u[i], 2)
						nrm += u[i] * u[i] * d[i]
					}
					if math.Sqrt(r/nrm) > 1e-6 {
						t.Errorf("n=%d ncut: ‖Lu − λDu‖/‖u‖_D = %g for j=%d", n, math.Sqrt(r/nrm), j)
					}
				}
			}
			if tc.name == "njw" {
				for i := 0; i < n; i++ {
					if nr := mat.Norm(res.Embedding.RowView(i), 2); math.Abs(nr-1) > 1e-12 {
						t.Fatalf("n=%d njw: row %d has norm %v, want 1", n, i, nr)
					}
				}
			}
		}
	}
}

func TestHBisectionSweepIsBestThresholdCut(t *testing.T) {
	// The first cut of H. BISECTION must be the threshold cut of the Fiedler
	// vector with the smallest Ncut (thesis eq. 2.3.21). The reference scans
	// all thresholds of a dense eigenvector with Ncut written from its
	// definition.
	for _, seed := range []uint64{1, 2, 3} {
		n := 40
		g := randomGraph(t, n, 30, seed)
		res, err := Run(context.Background(), HBisection{}, &Problem{Graph: g, K: 2}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		got, err := metrics.Ncut(g, res.Labels)
		if err != nil {
			t.Fatal(err)
		}
		w := g.Dense()
		d := g.Degrees()
		lsym := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := -w.At(i, j) / math.Sqrt(d[i]*d[j])
				if i == j {
					v++
				}
				lsym.SetSym(i, j, v)
			}
		}
		var es mat.EigenSym
		es.Factorize(lsym, true)
		var vecs mat.Dense
		es.VectorsTo(&vecs)
		vals := es.Values(nil)
		idx := []int{}
		for i := range vals {
			idx = append(idx, i)
		}
		sort.Slice(idx, func(a, b int) bool { return vals[idx[a]] < vals[idx[b]] })
		f := make([]float64, n)
		for i := range f {
			f[i] = vecs.At(i, idx[1]) / math.Sqrt(d[i])
		}
		best := math.Inf(1)
		for _, c := range f {
			lab := make([]int, n)
			for i := range lab {
				if f[i] >= c {
					lab[i] = 1
				}
			}
			var cut, va, vb float64
			for i := 0; i < n; i++ {
				if lab[i] == 1 {
					va += d[i]
				} else {
					vb += d[i]
				}
				for j := 0; j < n; j++ {
					if lab[i] == 1 && lab[j] == 0 {
						cut += w.At(i, j)
					}
				}
			}
			if va > 0 && vb > 0 {
				best = math.Min(best, cut/va+cut/vb)
			}
		}
		if math.Abs(got-best) > 1e-9 {
			t.Errorf("seed %d: H. BISECTION Ncut %.12g, best threshold cut %.12g", seed, got, best)
		}
		// Objective is that Ncut (it was 0; review 86).
		if math.Abs(res.Objective-best) > 1e-9 {
			t.Errorf("seed %d: Objective %.12g, want the Ncut of the cut %.12g", seed, res.Objective, best)
		}
	}
}

func TestHBisectionAlphaStops(t *testing.T) {
	// Three cliques with weak bridges: Alg. 1 with K = 0 cuts exactly twice,
	// because further cuts inside a clique have Ncut ≥ 0.5.
	g, truth := plantedCliques(t, []int{12, 12, 12}, 0.05)
	res, err := Run(context.Background(), HBisection{Alpha: 0.5}, &Problem{Graph: g}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.K != 3 || ari(t, truth, res.Labels) < 1-1e-12 {
		t.Errorf("K = %d, ARI = %v; want 3 clusters equal to the cliques", res.K, ari(t, truth, res.Labels))
	}
	// Objective is the 3-way Ncut of the partition (metrics.Ncut).
	if want, err := metrics.Ncut(g, res.Labels); err != nil || math.Abs(res.Objective-want) > 1e-12*want {
		t.Errorf("Objective %.12g, want the partition's Ncut %.12g (%v)", res.Objective, want, err)
	}
}

func TestMethodsDeterministic(t *testing.T) {
	g := randomGraph(t, 300, 900, 9)
	for _, info := range Methods() {
		if info.New().Uses().Supervision != None {
			continue
		}
		a, err := Run(context.Background(), info.New(), &Problem{Graph: g, K: 3}, &Settings{Seed: 42})
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		b, err := Run(context.Background(), info.New(), &Problem{Graph: g, K: 3}, &Settings{Seed: 42})
		if err != nil {
			t.Fatal(err)
		}
		for i := range a.Labels {
			if a.Labels[i] != b.Labels[i] {
				t.Fatalf("%s: same seed gave different labels at node %d", info.Name, i)
			}
		}
	}
}

func TestMethodErrors(t *testing.T) {
	g, _ := plantedCliques(t, []int{5, 5}, 1)
	iso, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name   string
		method string
		ctx    context.Context
		p      *Problem
		want   error
	}{
		{"nil graph", "njw", context.Background(), &Problem{K: 2}, ErrInvalid},
		{"k zero", "njw", context.Background(), &Problem{Graph: g}, ErrInvalid},
		{"k negative", "usc", context.Background(), &Problem{Graph: g, K: -1}, ErrInvalid},
		{"k above n", "ncut", context.Background(), &Problem{Graph: g, K: 11}, ErrInvalid},
		// Without regularization; the default (RegAuto) regularizes a
		// graph with an isolated node and accepts it (TestRegularizedEmbedding).
		{"isolated node njw", "njw", context.Background(), &Problem{Graph: iso, K: 2, Regularize: graph.Regularization{Mode: graph.RegNone}}, graph.ErrIsolated},
		{"isolated node ncut", "ncut", context.Background(), &Problem{Graph: iso, K: 2, Regularize: graph.Regularization{Mode: graph.RegNone}}, graph.ErrIsolated},
		{"bad regularization", "njw", context.Background(), &Problem{Graph: g, K: 2, Regularize: graph.Regularization{Mode: graph.RegOn, Tau: -1}}, ErrInvalid},
		{"cancelled", "njw", cancelled, &Problem{Graph: randomGraph(t, 600, 600, 1), K: 2}, context.Canceled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := New(tc.method)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Run(tc.ctx, m, tc.p, nil)
			if !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := New("nope"); err == nil {
		t.Error("unknown method: no error")
	}
}

func TestUnnormalizedOnIsolatedNodes(t *testing.T) {
	// L = D − W is defined with isolated nodes: they are components of their
	// own, found without NaN.
	g, err := graph.FromEdges(5, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Unnormalized{}, &Problem{Graph: g, K: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range res.Eigenvalues {
		if math.IsNaN(v) || math.Abs(v) > 1e-12 {
			t.Errorf("eigenvalues %v, want three zeros", res.Eigenvalues)
		}
	}
}

var _ eigen.Solver = eigen.Lanczos{}
