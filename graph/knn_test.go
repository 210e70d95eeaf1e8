package graph

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/spatial/kdtree"
)

// randData returns n points in d dimensions: Gaussian blobs when blobs > 0
// (unit variance, centres N(0, 10²)), else uniform on [0,1)^d.
func randData(n, d, blobs int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 17))
	x := mat.NewDense(n, d, nil)
	if blobs <= 0 {
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				x.Set(i, j, rng.Float64())
			}
		}
		return x
	}
	centres := make([][]float64, blobs)
	for b := range centres {
		centres[b] = make([]float64, d)
		for j := range centres[b] {
			centres[b][j] = 10 * rng.NormFloat64()
		}
	}
	for i := 0; i < n; i++ {
		c := centres[rng.IntN(blobs)]
		for j := 0; j < d; j++ {
			x.Set(i, j, c[j]+rng.NormFloat64())
		}
	}
	return x
}

// bruteNeighbors is the reference: all n−1 distances of each row, computed
// independently with a plain loop in column order, sorted by (distance,
// index), first k kept.
func bruteNeighbors(x *mat.Dense, k int) (idx [][]int, d2 [][]float64) {
	n, d := x.Dims()
	idx = make([][]int, n)
	d2 = make([][]float64, n)
	type cand struct {
		j int
		d float64
	}
	for i := 0; i < n; i++ {
		var cs []cand
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			var s float64
			for c := 0; c < d; c++ {
				t := x.At(i, c) - x.At(j, c)
				s += float64(t * t)
			}
			cs = append(cs, cand{j, s})
		}
		sort.Slice(cs, func(a, b int) bool {
			if cs[a].d != cs[b].d {
				return cs[a].d < cs[b].d
			}
			return cs[a].j < cs[b].j
		})
		for _, c := range cs[:k] {
			idx[i] = append(idx[i], c.j)
			d2[i] = append(d2[i], c.d)
		}
	}
	return idx, d2
}

// withDuplicates copies x and overwrites some rows with copies of others,
// including groups larger than k.
func withDuplicates(x *mat.Dense, seed uint64) *mat.Dense {
	n, _ := x.Dims()
	y := mat.DenseCopyOf(x)
	rng := rand.New(rand.NewPCG(seed, 3))
	for t := 0; t < n/4; t++ {
		y.SetRow(rng.IntN(n), x.RawRowView(rng.IntN(n)))
	}
	// A group of 15 identical points.
	for t := 0; t < min(15, n); t++ {
		y.SetRow(t*(n/15+1)%n, x.RawRowView(0))
	}
	return y
}

func TestKNNExact(t *testing.T) {
	type tc struct {
		name string
		x    *mat.Dense
		k    int
	}
	var cases []tc
	for _, d := range []int{1, 2, 3, 8, 10, 16, 17, 50, 200} {
		n := 300
		if d >= 50 {
			n = 250
		}
		cases = append(cases,
			tc{name: "uniform/d=" + itoa(d), x: randData(n, d, 0, uint64(d)), k: 7},
			tc{name: "blobs/d=" + itoa(d), x: randData(n, d, 4, uint64(d)+100), k: 10},
			tc{name: "dups/d=" + itoa(d), x: withDuplicates(randData(n, d, 3, uint64(d)+200), uint64(d)), k: 5},
		)
	}
	// Grid data: many exactly tied distances.
	grid := mat.NewDense(400, 2, nil)
	for i := 0; i < 400; i++ {
		grid.Set(i, 0, float64(i%20))
		grid.Set(i, 1, float64(i/20))
	}
	cases = append(cases,
		tc{name: "grid", x: grid, k: 8},
		tc{name: "k=n-1/d=3", x: randData(40, 3, 0, 9), k: 39},
		tc{name: "k=n-1/d=30", x: randData(40, 30, 0, 9), k: 39},
		tc{name: "n=2", x: mat.NewDense(2, 2, []float64{0, 0, 1, 1}), k: 1},
		tc{name: "large-offset/d=20", x: offset(randData(300, 20, 2, 5), 1e6), k: 6},
		tc{name: "brute-tiles/d=20", x: randData(700, 20, 5, 6), k: 12},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := KNN(context.Background(), c.x, c.k)
			if err != nil {
				t.Fatal(err)
			}
			wantIdx, wantD := bruteNeighbors(c.x, c.k)
			n, _ := c.x.Dims()
			if got.N() != n || got.K != c.k {
				t.Fatalf("got %d×%d neighbours, want %d×%d", got.N(), got.K, n, c.k)
			}
			for i := 0; i < n; i++ {
				idx, d2 := got.Row(i)
				for r := range idx {
					// Exact equality: both sides sum (a−b)² in column order.
					if int(idx[r]) != wantIdx[i][r] || d2[r] != wantD[i][r] {
						t.Fatalf("row %d rank %d: got (%d, %v), want (%d, %v)", i, r, idx[r], d2[r], wantIdx[i][r], wantD[i][r])
					}
				}
			}
		})
	}
}

func offset(x *mat.Dense, v float64) *mat.Dense {
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			x.Set(i, j, x.At(i, j)+v)
		}
	}
	return x
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// TestKNNAgainstGonum checks the k-th neighbour distances against gonum's
// kd-tree, an independent implementation, on a larger problem.
func TestKNNAgainstGonum(t *testing.T) {
	n, d, k := 3000, 5, 10
	if testing.Short() {
		n = 800
	}
	x := randData(n, d, 5, 42)
	got, err := KNN(context.Background(), x, k)
	if err != nil {
		t.Fatal(err)
	}
	pts := make(kdtree.Points, n)
	for i := range pts {
		pts[i] = kdtree.Point(append([]float64(nil), x.RawRowView(i)...))
	}
	tree := kdtree.New(pts, false)
	for i := 0; i < n; i++ {
		keep := kdtree.NewNKeeper(k + 1) // the query itself is returned first
		tree.NearestSet(keep, kdtree.Point(x.RawRowView(i)))
		var ds []float64
		for _, c := range keep.Heap {
			ds = append(ds, c.Dist)
		}
		sort.Float64s(ds)
		_, d2 := got.Row(i)
		for r := 0; r < k; r++ {
			// gonum sums squared differences too; tolerance covers a
			// different summation order.
			if math.Abs(ds[r+1]-d2[r]) > 1e-12*(1+ds[r+1]) {
				t.Fatalf("row %d rank %d: distance² %v, gonum %v", i, r, d2[r], ds[r+1])
			}
		}
	}
}

func TestKNNDeterministic(t *testing.T) {
	for _, d := range []int{3, 40} {
		x := randData(2000, d, 3, 7)
		prev := runtime.GOMAXPROCS(1)
		a, err := KNN(context.Background(), x, 9)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		b, err := KNN(context.Background(), x, 9)
		if err != nil {
			t.Fatal(err)
		}
		for i := range a.Index {
			if a.Index[i] != b.Index[i] || a.Dist2[i] != b.Dist2[i] {
				t.Fatalf("d=%d: entry %d differs between GOMAXPROCS 1 and %d", d, i, prev)
			}
		}
	}
}

func TestKNNCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, d := range []int{3, 40} {
		_, err := KNN(ctx, randData(3000, d, 0, 1), 5)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("d=%d: err = %v, want context.Canceled", d, err)
		}
	}
}

func TestKNNErrors(t *testing.T) {
	nan := randData(10, 3, 0, 1)
	nan.Set(4, 2, math.NaN())
	inf := randData(10, 3, 0, 1)
	inf.Set(7, 0, math.Inf(-1))
	for _, c := range []struct {
		name string
		x    *mat.Dense
		k    int
		want string
	}{
		{"nan", nan, 3, "row 4, column 2"},
		{"inf", inf, 3, "row 7, column 0"},
		{"k=0", randData(10, 3, 0, 1), 0, "1 ≤ k < n = 10"},
		{"k=n", randData(10, 3, 0, 1), 10, "1 ≤ k < n = 10"},
		{"n=1", randData(1, 3, 0, 1), 1, "1 ≤ k < n = 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := KNN(context.Background(), c.x, c.k)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "graph: ") {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}

// knnBenchData is the seeded helper for the benchmarks.
func knnBenchData(n, d int) *mat.Dense { return randData(n, d, 5, 2024) }

var sinkNeighbors *Neighbors

func benchKNN(b *testing.B, n, d, k int) {
	x := knnBenchData(n, d)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		nb, err := KNN(context.Background(), x, k)
		if err != nil {
			b.Fatal(err)
		}
		sinkNeighbors = nb
	}
}

func BenchmarkKNN20k8d(b *testing.B)   { benchKNN(b, 20000, 8, 10) }
func BenchmarkKNN100k10d(b *testing.B) { benchKNN(b, 100000, 10, 10) }
func BenchmarkKNN5k200d(b *testing.B)  { benchKNN(b, 5000, 200, 10) }
func BenchmarkKNN20k16d(b *testing.B)  { benchKNN(b, 20000, 16, 10) }
func BenchmarkKNN20k17d(b *testing.B)  { benchKNN(b, 20000, 17, 10) }

// BenchmarkGonumKDTree20k8d is the reference figure from the issue.
func BenchmarkGonumKDTree20k8d(b *testing.B) {
	x := knnBenchData(20000, 8)
	pts := make(kdtree.Points, 20000)
	for i := range pts {
		pts[i] = kdtree.Point(x.RawRowView(i))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tree := kdtree.New(pts, false)
		for q := range pts {
			keep := kdtree.NewNKeeper(11)
			tree.NearestSet(keep, pts[q])
		}
	}
}
