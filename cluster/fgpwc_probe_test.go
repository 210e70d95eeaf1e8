package cluster

import (
	"context"
	"fmt"
	"math"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// ringGraph is the cycle of n unit edges, whose L_sym = I − W/2 has the
// eigenvalues 1 − cos(2πj/n), j = 0…n−1 (a circulant matrix: closed form).
func ringGraph(t *testing.T, n int) (*graph.Graph, []float64) {
	t.Helper()
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		edges = append(edges, graph.Edge{I: i, J: (i + 1) % n, W: 1})
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	values := make([]float64, n)
	for j := range values {
		values[j] = 1 - math.Cos(2*math.Pi*float64(j)/float64(n))
	}
	sort.Float64s(values)
	return g, values
}

// TestFGPWCCertifyBelow checks fgpwcCertifyBelow on a ring of 1000 nodes
// against the closed-form eigenvalues: it never claims that the count
// smallest eigenvalues lie below a threshold at or under the count-th
// (thresholds λ_count and λ_count − 1e-3: soundness, which rests on the
// Ritz values bounding the eigenvalues from above), and it proves it for
// the requests the automatic m makes on this ring at the default
// threshold 0.9 (17, 33, 65 and 129 pairs; λ_129 = 0.080) and for a
// threshold of 1.9.
func TestFGPWCCertifyBelow(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	g, values := ringGraph(t, 1000)
	s := &Settings{EigenSettings: &eigen.Settings{Tol: fgpwcEigenTol}}
	ctx := context.Background()
	for _, count := range []int{17, 33, 65, 129} {
		lambda := values[count-1]
		for _, tc := range []struct {
			threshold float64
			want      bool
		}{
			{lambda, false},
			{lambda - 1e-3, false},
			{0.9, true},
			{1.9, true},
		} {
			t.Run(fmt.Sprintf("count=%d/threshold=%.4g", count, tc.threshold), func(t *testing.T) {
				got, err := fgpwcCertifyBelow(ctx, g, FGPWCSymmetric, count, tc.threshold, s)
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.want {
					t.Errorf("certified %v, want %v (λ_%d = %.6g)", got, tc.want, count, lambda)
				}
			})
		}
	}
}

// TestFGPWCAutoMSameEmbedding: on the 1000-node ring the automatic m
// (threshold 0.9: 468 eigenvalues below it) reaches the cap of 200 through
// requests of 16, 32, 64 and 128 pairs that fgpwcCertifyBelow proves all
// below the threshold (TestFGPWCCertifyBelow), so only the request of 200
// is solved; the basis is bit for bit the embedding of that one solve
// (laplacianEmbedding with 201 pairs, the trivial vector dropped), the
// last solve of the doubling before the proof existed.
func TestFGPWCAutoMSameEmbedding(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	g, _ := ringGraph(t, 1000)
	ctx := context.Background()
	// The single solve runs on its own goroutine, beside Embed (g is read
	// only; no clock is read).
	s := (&Settings{}).orDefault()
	s.EigenSettings = &eigen.Settings{Tol: fgpwcEigenTol}
	var e *embedding
	var errE error
	done := make(chan struct{})
	go func() {
		defer close(done)
		e, errE = laplacianEmbedding(ctx, g, graph.Symmetric, 201, exactLaplacian, s)
	}()
	b, err := FGPWC{}.Embed(ctx, g, nil)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if b.M() != 200 {
		t.Fatalf("m = %d, want the cap 200", b.M())
	}
	if errE != nil {
		t.Fatal(errE)
	}
	values, vecs := fgpwcDropNull(e.values, e.vectors, fgpwcTrivialVector(g.Degrees(), FGPWCSymmetric))
	got := b.Eigenvalues()
	for j := range values {
		if got[j] != values[j] {
			t.Fatalf("λ_%d = %v, the single solve's %v", j+2, got[j], values[j])
		}
	}
	if !mat.Equal(b.Vectors(), vecs) {
		t.Error("the basis differs from the single solve's vectors")
	}
}
