package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

func TestCutWorked(t *testing.T) {
	// Two triangles {0,1,2}, {3,4,5} of unit edges joined by the edge
	// {2,3} of weight w, plus a self loop on node 0 (never cut). By hand:
	// cut = w, |A| = |B| = 3, vol(A) = 2+2+2 + w + 1 (loop), vol(B) = 6 + w,
	// RatioCut = 2w/3 (thesis eq. 2.3.2), Ncut = w/vol(A) + w/vol(B)
	// (thesis eq. 2.3.3 and 2.3.7).
	const w = 0.5
	edges := []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}, {I: 0, J: 2, W: 1},
		{I: 3, J: 4, W: 1}, {I: 4, J: 5, W: 1}, {I: 3, J: 5, W: 1}, {I: 2, J: 3, W: w}, {I: 0, J: 0, W: 1}}
	g, err := graph.FromEdges(6, edges)
	if err != nil {
		t.Fatal(err)
	}
	labels := []int{7, 7, 7, -2, -2, -2}
	got, err := CutFigures(g, labels)
	if err != nil {
		t.Fatal(err)
	}
	want := Cuts{Cut: w, RatioCut: 2 * w / 3, Ncut: w/(7+w) + w/(6+w)}
	if math.Abs(got.Cut-want.Cut) > 1e-15 || math.Abs(got.RatioCut-want.RatioCut) > 1e-15 || math.Abs(got.Ncut-want.Ncut) > 1e-15 {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// One cluster cuts nothing; singletons cut every non-loop edge.
	one, _ := CutFigures(g, make([]int, 6))
	if one != (Cuts{}) {
		t.Errorf("one cluster: %+v, want zeros", one)
	}
	c, _ := Cut(g, []int{0, 1, 2, 3, 4, 5})
	if c != 6+w {
		t.Errorf("singletons cut %v, want %v", c, 6+w)
	}
	r, _ := RatioCut(g, labels)
	nc, _ := Ncut(g, labels)
	if r != got.RatioCut || nc != got.Ncut {
		t.Errorf("RatioCut/Ncut wrappers disagree with CutFigures")
	}
}

func TestCutQuadraticForm(t *testing.T) {
	// Independent check through the Laplacian: for an indicator vector 1_A,
	// cut(A, Ā) = 1_Aᵀ(D − W)1_A and vol(A) = 1_Aᵀ D 1_A (thesis §2.2–2.3),
	// evaluated on the dense matrix.
	rng := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{1, 2, 5, 10, 40} {
		for rep := range 5 {
			t.Run(fmt.Sprintf("n=%d/%d", n, rep), func(t *testing.T) {
				var edges []graph.Edge
				for i := range n {
					for j := i; j < n; j++ {
						if rng.Float64() < 0.3 {
							edges = append(edges, graph.Edge{I: i, J: j, W: rng.Float64()})
						}
					}
				}
				g, err := graph.FromEdges(n, edges)
				if err != nil {
					t.Fatal(err)
				}
				labels := randPartition(rng, n, 1+rng.IntN(min(n, 4)))
				got, err := CutFigures(g, labels)
				if err != nil {
					t.Fatal(err)
				}
				w := g.Dense()
				var want Cuts
				for _, k := range dedup(labels) {
					var cut, vol float64
					size := 0
					for i := range n {
						if labels[i] != k {
							continue
						}
						size++
						for j := range n {
							wij := w.At(i, j)
							vol += wij
							if labels[j] != k {
								cut += wij // 1_Aᵀ(D − W)1_A = Σ_{i∈A} d_i − Σ_{i,j∈A} W_ij
							}
						}
					}
					want.Cut += cut / 2
					want.RatioCut += cut / float64(size)
					if vol > 0 {
						want.Ncut += cut / vol
					}
				}
				if math.Abs(got.Cut-want.Cut) > 1e-12 || math.Abs(got.RatioCut-want.RatioCut) > 1e-12 || math.Abs(got.Ncut-want.Ncut) > 1e-12 {
					t.Errorf("got %+v, dense %+v", got, want)
				}
			})
		}
	}
}

func TestCutErrors(t *testing.T) {
	g, _ := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 1}})
	if _, err := CutFigures(g, []int{0, 1}); !errors.Is(err, ErrSize) {
		t.Errorf("short labels: %v, want ErrSize", err)
	}
	if _, err := CutFigures(nil, []int{0}); err == nil {
		t.Error("nil graph accepted")
	}
	e, _ := graph.FromEdges(0, nil)
	if _, err := CutFigures(e, nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v, want ErrEmpty", err)
	}
}

func TestViolations(t *testing.T) {
	set := &constraint.Set{N: 4, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},   // kept
		{I: 1, J: 2, Kind: constraint.MustLink},   // split
		{I: 0, J: 3, Kind: constraint.CannotLink}, // violated: same cluster
		{I: 2, J: 3, Kind: constraint.CannotLink}, // kept
	}}
	ml, cl, err := Violations(set, []int{5, 5, 6, 5})
	if err != nil || ml != 1 || cl != 1 {
		t.Errorf("got %d %d %v, want 1 1", ml, cl, err)
	}
	if ml, cl, err := Violations(nil, []int{1}); ml != 0 || cl != 0 || err != nil {
		t.Errorf("nil set: %d %d %v", ml, cl, err)
	}
	if _, _, err := Violations(set, []int{0, 1}); !errors.Is(err, ErrSize) {
		t.Errorf("size mismatch: %v, want ErrSize", err)
	}
	bad := &constraint.Set{N: 2, Pairs: []constraint.Pair{{I: 0, J: 5, Kind: constraint.MustLink}}}
	if _, _, err := Violations(bad, []int{0, 1}); !errors.Is(err, constraint.ErrInvalid) {
		t.Errorf("bad pair: %v, want constraint.ErrInvalid", err)
	}
}
