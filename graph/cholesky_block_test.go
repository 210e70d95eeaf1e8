package graph_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
)

// TestCholeskyInverseBlockMatchesColumns checks that MulTo on an n×p
// block equals p calls on its single columns (to 1e-12 relative, column
// by column), for p = 1, 3, 8, 17 and 70 (column by column below 8, as a
// block from 8: both kernels; above 64 gonum's products may go parallel),
// both Laplacians, with and without relaxed supernodes, on random graphs
// from sparse to nearly complete (supernodes split at maxSupernode) and
// on k-NN graphs; that x and dst may be views of wider matrices (a stride
// above p) and x is left unchanged; and that dst aliasing x (the same
// matrix, or views of the same one) gives the same block.
func TestCholeskyInverseBlockMatchesColumns(t *testing.T) {
	ctx := context.Background()
	gs := []*graph.Graph{
		wideGraph(t, 80, 160, 6, 1e-9, 3),
		wideGraph(t, 40, 600, 2, 1e-3, 3),
		wideGraph(t, 300, 40000, 1, 1e-2, 3),
		wideGraph(t, 3, 0, 1, 1e-2, 1),
		knnGraph(t, 400, 2, 3),
		knnGraph(t, 300, 20, 4),
	}
	rng := rand.New(rand.NewPCG(21, 22))
	worst := 0.0
	for gi, g := range gs {
		n := g.N()
		for _, relax := range []bool{true, false} {
			sym, err := graph.AnalyzeCholeskyRelax(ctx, g, 0, relax)
			if err != nil {
				t.Fatal(err)
			}
			for _, kind := range []graph.LaplacianKind{graph.Unnormalized, graph.Symmetric} {
				inv, err := sym.Factor(ctx, g, kind, 1e-3)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range []int{1, 3, 8, 17, 70} {
					name := fmt.Sprintf("graph %d (%d nodes), relax %v, %v, p %d", gi, n, relax, kind, p)
					// x and dst are views into wider matrices.
					xBig := mat.NewDense(n, p+3, nil)
					for i := 0; i < n; i++ {
						for c := 0; c < p+3; c++ {
							xBig.Set(i, c, rng.NormFloat64())
						}
					}
					x := xBig.Slice(0, n, 2, 2+p).(*mat.Dense)
					xKeep := mat.DenseCopyOf(x)
					dstBig := mat.NewDense(n, p+2, nil)
					got := dstBig.Slice(0, n, 1, 1+p).(*mat.Dense)
					inv.MulTo(got, x)
					if !mat.Equal(x, xKeep) {
						t.Errorf("%s: MulTo changed x", name)
					}
					for i := 0; i < n; i++ {
						if dstBig.At(i, 0) != 0 || dstBig.At(i, p+1) != 0 {
							t.Fatalf("%s: MulTo wrote outside dst", name)
						}
					}
					for c := 0; c < p; c++ {
						xc := mat.DenseCopyOf(x.Slice(0, n, c, c+1))
						yc := mat.NewDense(n, 1, nil)
						inv.MulTo(yc, xc)
						var diff mat.Dense
						diff.Sub(got.Slice(0, n, c, c+1), yc)
						r := mat.Norm(&diff, 2) / mat.Norm(yc, 2)
						if !(r <= 1e-12) {
							t.Errorf("%s: column %d differs from its single-column solve by %.3g relative", name, c, r)
						}
						worst = max(worst, r)
					}
					inPlace := mat.DenseCopyOf(x)
					inv.MulTo(inPlace, inPlace)
					if !mat.Equal(inPlace, got) {
						t.Errorf("%s: MulTo with dst = x differs", name)
					}
					// dst aliasing x as views of the same wider matrix.
					inv.MulTo(x, x)
					if !mat.Equal(x, got) {
						t.Errorf("%s: MulTo with dst = x (views) differs", name)
					}
				}
			}
		}
	}
	t.Logf("largest relative difference of a column: %.3g", worst)
}

// BenchmarkCholeskyMulTo applies the inverse of L + σI, factored once, to
// blocks of p = 1, 10 and 30 columns (the shift-and-invert eigensolver's
// blocks are about 10 to 30 columns): the 10-NN graphs of
// BenchmarkCholeskyInverse, 5000 points in 2-D and 4601 in 20-D.
func BenchmarkCholeskyMulTo(b *testing.B) {
	ctx := context.Background()
	for _, bc := range []struct {
		name   string
		n, dim int
	}{{"2d-5000", 5000, 2}, {"20d-4601", 4601, 20}} {
		g := knnGraph(b, bc.n, bc.dim, 1)
		inv, err := graph.NewCholeskyInverse(ctx, g, graph.Unnormalized, 1e-9*2*g.MaxDegree())
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range []int{1, 10, 30} {
			b.Run(fmt.Sprintf("%s/p=%d", bc.name, p), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 2))
				xs := mat.NewDense(g.N(), p, nil)
				for i := 0; i < g.N(); i++ {
					for c := 0; c < p; c++ {
						xs.Set(i, c, rng.NormFloat64())
					}
				}
				y := mat.NewDense(g.N(), p, nil)
				b.ReportAllocs()
				for b.Loop() {
					inv.MulTo(y, xs)
				}
				// 2·Entries multiply-adds (4·Entries flops) a column.
				b.ReportMetric(4*float64(inv.Entries())*float64(p)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gflop/s")
			})
		}
	}
}

// TestCholeskyInverseConcurrentMulTo checks that concurrent calls of MulTo
// on one factor (blocks of 1 and 12 columns) give the serial results:
// MulTo only reads the factor (run with -race).
func TestCholeskyInverseConcurrentMulTo(t *testing.T) {
	g := knnGraph(t, 300, 5, 5)
	inv, err := graph.NewCholeskyInverse(context.Background(), g, graph.Symmetric, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var xs, want []*mat.Dense
	for k := 0; k < 4; k++ {
		p := []int{1, 12}[k%2]
		x := mat.NewDense(g.N(), p, nil)
		for i := 0; i < g.N(); i++ {
			for c := 0; c < p; c++ {
				x.Set(i, c, rng.NormFloat64())
			}
		}
		y := mat.NewDense(g.N(), p, nil)
		inv.MulTo(y, x)
		xs, want = append(xs, x), append(want, y)
	}
	got := make([]*mat.Dense, len(xs))
	var wg sync.WaitGroup
	for k, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, p := x.Dims()
			y := mat.NewDense(g.N(), p, nil)
			for range 3 {
				inv.MulTo(y, x)
			}
			got[k] = y
		}()
	}
	wg.Wait()
	for k := range xs {
		if !mat.Equal(got[k], want[k]) {
			t.Errorf("block %d: concurrent MulTo differs from the serial one", k)
		}
	}
}
