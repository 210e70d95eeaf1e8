package graph

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestApproxKNNRecall compares ApproxKNN with the independent brute-force
// reference bruteNeighbors on small sets: every reported distance must be
// the exact one, rows sorted and free of the point itself and of repeats,
// and the recall above a floor (the floors are well below the recall
// measured, 0.99–1.00, so they catch a broken descent, not noise).
func TestApproxKNNRecall(t *testing.T) {
	for _, c := range []struct {
		name      string
		n, d, b   int
		k         int
		minRecall float64
	}{
		{"blobs n=600 d=3", 600, 3, 4, 5, 0.97},
		{"blobs n=1500 d=10", 1500, 10, 5, 10, 0.95},
		{"uniform n=1000 d=8", 1000, 8, 0, 10, 0.95},
		{"blobs n=400 d=20 k=20", 400, 20, 3, 20, 0.95},
		{"tiny n=12 k=11", 12, 2, 0, 11, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := randData(c.n, c.d, c.b, 5)
			nb, err := ApproxKNN(context.Background(), x, c.k, &ApproxOptions{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !nb.Approximate || nb.K != c.k || nb.N() != c.n {
				t.Fatalf("K=%d N=%d Approximate=%v", nb.K, nb.N(), nb.Approximate)
			}
			idx, d2 := bruteNeighbors(x, c.k)
			found := 0
			for i := 0; i < c.n; i++ {
				row, rd := nb.Row(i)
				seen := map[int32]bool{}
				for r, j := range row {
					if int(j) == i || seen[j] {
						t.Fatalf("row %d: entry %d (%d) is the point itself or repeated", i, r, j)
					}
					seen[j] = true
					if want := dist2(x.RawRowView(i), x.RawRowView(int(j))); rd[r] != want {
						t.Fatalf("row %d: distance² to %d is %v, exact %v", i, j, rd[r], want)
					}
					if r > 0 && (rd[r] < rd[r-1] || (rd[r] == rd[r-1] && j < row[r-1])) {
						t.Fatalf("row %d not sorted at %d", i, r)
					}
					if rd[r] <= d2[i][c.k-1] {
						found++
					}
				}
				_ = idx
			}
			rec := float64(found) / float64(c.n*c.k)
			if rec < c.minRecall {
				t.Errorf("recall %.4f < %.2f", rec, c.minRecall)
			}
			// Recall computes the same figure from the exact lists.
			ex, err := KNN(context.Background(), x, c.k)
			if err != nil {
				t.Fatal(err)
			}
			if got := Recall(nb, ex, nil); math.Abs(got-rec) > 1e-12 {
				t.Errorf("Recall = %v, counted %v", got, rec)
			}
		})
	}
}

// TestRecallHandComputed checks Recall and its tie rule on lists written by
// hand.
func TestRecallHandComputed(t *testing.T) {
	exact := &Neighbors{K: 2, Index: []int32{1, 2, 0, 2, 0, 1}, Dist2: []float64{1, 4, 1, 2, 2, 4}}
	approx := &Neighbors{K: 2, Index: []int32{2, 1, 2, 3, 1, 3}, Dist2: []float64{4, 1, 2, 2, 4, 5}}
	// Row 0: both found; row 1: index 3 at distance 2 ties the 2nd exact
	// distance (found); row 2: 1 found (4 ≤ 4), 3 at 5 missed: 5/6.
	if got, want := Recall(approx, exact, nil), 5.0/6; math.Abs(got-want) > 1e-15 {
		t.Errorf("Recall = %v, want %v", got, want)
	}
	// Sampled rows: exact row 0 is approx row 2.
	sub := &Neighbors{K: 2, Index: []int32{0, 1}, Dist2: []float64{2, 4}}
	if got := Recall(approx, sub, []int{2}); got != 0.5 {
		t.Errorf("sampled Recall = %v, want 0.5", got)
	}
}

// TestSampleRecall: the sampled recall is an unbiased estimate of the
// exhaustive one; both paths (k-d tree and brute force) must agree with
// the exhaustive figure within sampling error.
func TestSampleRecall(t *testing.T) {
	for _, d := range []int{6, 24} {
		x := randData(3000, d, 6, 9)
		nb, err := ApproxKNN(context.Background(), x, 10, &ApproxOptions{Seed: 3, MaxIter: 1})
		if err != nil {
			t.Fatal(err)
		}
		all, rows, err := SampleRecall(context.Background(), x, nb, 0, 0)
		if err != nil || rows != 3000 {
			t.Fatalf("rows %d, err %v", rows, err)
		}
		part, rows, err := SampleRecall(context.Background(), x, nb, 500, 7)
		if err != nil || rows != 500 {
			t.Fatalf("rows %d, err %v", rows, err)
		}
		// Binomial standard error of a mean of 500 rows is below 0.02.
		if math.Abs(all-part) > 0.05 {
			t.Errorf("d=%d: sampled recall %.4f, exhaustive %.4f", d, part, all)
		}
		if all >= 1 {
			t.Logf("d=%d: one round already exact (%.4f)", d, all)
		}
	}
}

func TestApproxKNNDeterministic(t *testing.T) {
	x := randData(5000, 10, 5, 11)
	prev := runtime.GOMAXPROCS(1)
	a, err := ApproxKNN(context.Background(), x, 10, &ApproxOptions{Seed: 4})
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ApproxKNN(context.Background(), x, 10, &ApproxOptions{Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Index {
		if a.Index[i] != b.Index[i] || a.Dist2[i] != b.Dist2[i] {
			t.Fatalf("entry %d differs between GOMAXPROCS 1 and %d", i, prev)
		}
	}
}

func TestApproxKNNErrors(t *testing.T) {
	nan := randData(10, 3, 0, 1)
	nan.Set(4, 2, math.NaN())
	for _, c := range []struct {
		name string
		k    int
		opt  *ApproxOptions
		want string
	}{
		{"nan", 3, nil, "row 4, column 2"},
		{"k=0", 0, nil, "1 ≤ k < n = 10"},
		{"k=n", 10, nil, "1 ≤ k < n = 10"},
		{"trees", 3, &ApproxOptions{Trees: -1}, "Trees = -1"},
		{"one tree", 3, &ApproxOptions{Trees: 1}, "at least 2 k-d trees"},
		{"delta", 3, &ApproxOptions{Delta: 2}, "Delta = 2"},
		{"iter", 3, &ApproxOptions{MaxIter: -2}, "MaxIter = -2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := randData(10, 3, 0, 1)
			if c.name == "nan" {
				x = nan
			}
			_, err := ApproxKNN(context.Background(), x, c.k, c.opt)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "graph: ") {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ApproxKNN(ctx, randData(3000, 5, 0, 1), 5, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

func benchApproxKNN(b *testing.B, n, d, k int) {
	x := knnBenchData(n, d)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		nb, err := ApproxKNN(context.Background(), x, k, nil)
		if err != nil {
			b.Fatal(err)
		}
		sinkNeighbors = nb
	}
}

func BenchmarkApproxKNN100k10d(b *testing.B) { benchApproxKNN(b, 100000, 10, 10) }
func BenchmarkApproxKNN1M10d(b *testing.B)   { benchApproxKNN(b, 1000000, 10, 10) }

// TestBuildApproxSearch: a graph built with the approximate search has the
// exact weights of its edges (binary and RBF with local scaling computed
// from the approximate lists) and nearly the edges of the exact graph; the
// lists BuildNeighbors returns are the ones ApproxKNN returns, and
// SearchAuto below ApproxMinN is the exact search.
func TestBuildApproxSearch(t *testing.T) {
	x := randData(3000, 10, 5, 21)
	ctx := context.Background()
	spec := Spec{Kind: SymmetricKNN, K: 10, Affinity: Binary, Search: SearchApprox, Seed: 2}
	g, nb, err := BuildNeighbors(ctx, x, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ApproxKNN(ctx, x, 10, &ApproxOptions{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !nb.Approximate || !slices.Equal(nb.Index, want.Index) || !slices.Equal(nb.Dist2, want.Dist2) {
		t.Fatal("BuildNeighbors' lists differ from ApproxKNN's")
	}
	spec.Search = SearchExact
	ge, nbe, err := BuildNeighbors(ctx, x, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if nbe.Approximate {
		t.Fatal("exact lists marked approximate")
	}
	spec.Search = SearchAuto
	ga, err := Build(ctx, x, spec)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < ge.N(); i++ {
		ac, av := ga.Row(i)
		ec, ev := ge.Row(i)
		if !slices.Equal(ac, ec) || !slices.Equal(av, ev) {
			t.Fatalf("auto below ApproxMinN: row %d differs from the exact graph's", i)
		}
	}
	// Shared edges: the approximate graph's edges that the exact graph has.
	shared := 0
	for i := 0; i < g.N(); i++ {
		ec, _ := ge.Row(i)
		c, v := g.Row(i)
		for r, j := range c {
			if v[r] != 1 {
				t.Fatalf("edge (%d,%d) weighs %v", i, j, v[r])
			}
			if _, ok := slices.BinarySearch(ec, j); ok {
				shared++
			}
		}
	}
	if f := float64(shared) / float64(ge.NNZ()); f < 0.95 {
		t.Errorf("the approximate graph has %.3f of the exact graph's edges", f)
	}
}

// TestSelectRev compares the bounded selection of reverse links with a
// full sort by (distance, position), on lists with many ties.
func TestSelectRev(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ n, m int }{{1, 1}, {5, 5}, {6, 5}, {40, 9}, {200, 3}, {17, 1}} {
		for rep := 0; rep < 20; rep++ {
			ix := make([]int32, c.n)
			d := make([]float64, c.n)
			nw := make([]bool, c.n)
			for i := range ix {
				ix[i], d[i] = int32(rng.IntN(1000)), float64(rng.IntN(4))
				nw[i] = ix[i]%2 == 0
			}
			type e struct {
				ix int32
				d  float64
			}
			want := make([]e, c.n)
			for i := range want {
				want[i] = e{ix[i], d[i]}
			}
			slices.SortFunc(want, func(a, b e) int {
				if a.d != b.d {
					return cmp.Compare(a.d, b.d)
				}
				return cmp.Compare(a.ix, b.ix)
			})
			selectRev(ix, d, nw, c.m)
			for r := 0; r < min(c.m, c.n); r++ {
				if ix[r] != want[r].ix || d[r] != want[r].d || nw[r] != (ix[r]%2 == 0) {
					t.Fatalf("n=%d m=%d: entry %d is (%d, %v), want (%d, %v)", c.n, c.m, r, ix[r], d[r], want[r].ix, want[r].d)
				}
			}
		}
	}
}

// TestApproxKNNDeltaStops: a larger Delta stops the descent after fewer
// rounds, and every round but the last changed at least Delta·n·k entries
// (the early termination rule).
func TestApproxKNNDeltaStops(t *testing.T) {
	x := randData(4000, 10, 5, 8)
	rounds := func(delta float64) int {
		var changes []int64
		o := &ApproxOptions{Seed: 1, Delta: delta, trace: func(r int, c int64) {
			if r >= 0 {
				changes = append(changes, c)
			}
		}}
		if _, err := ApproxKNN(context.Background(), x, 10, o); err != nil {
			t.Fatal(err)
		}
		pool := float64(x.RawMatrix().Rows * 15) // n·Pool, Pool = 10 + 10/2
		for r, c := range changes[:len(changes)-1] {
			if float64(c) < delta*pool {
				t.Errorf("Delta %v: round %d changed %d < %v entries but the descent went on", delta, r, c, delta*pool)
			}
		}
		return len(changes)
	}
	loose, tight := rounds(0.05), rounds(1e-6)
	if loose >= tight {
		t.Errorf("Delta 0.05 ran %d rounds, Delta 1e-6 ran %d", loose, tight)
	}
}

// TestDist2f32Bound compares the float32 distance of the descent with the
// float64 dist2 of the same coordinates (relative error within a few
// float32 roundings per term) and checks its early exit: above bound it
// returns some value above bound.
func TestDist2f32Bound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{1, 3, 4, 5, 8, 10, 17} {
		for rep := 0; rep < 50; rep++ {
			a, b := make([]float32, d), make([]float32, d)
			a64, b64 := make([]float64, d), make([]float64, d)
			for c := range a {
				a[c], b[c] = float32(10*rng.NormFloat64()), float32(10*rng.NormFloat64())
				a64[c], b64[c] = float64(a[c]), float64(b[c])
			}
			want := dist2(a64, b64)
			got := dist2f32Bound(a, b, float32(math.Inf(1)))
			if tol := 4 * float64(d) * 0x1p-24 * want; math.Abs(float64(got)-want) > tol {
				t.Fatalf("d=%d: %v, float64 %v", d, got, want)
			}
			if bound := float32(want / 2); dist2f32Bound(a, b, bound) <= bound {
				t.Fatalf("d=%d: early exit returned %v ≤ bound %v", d, dist2f32Bound(a, b, bound), bound)
			}
		}
	}
}

// TestDist2f32x10Bound checks the 10-D distance against a plain float32
// loop over the coordinates in index order (bit for bit when the sum does
// not exceed the bound, the descent's ranking depends on it), its early
// exits (above bound it returns a value above bound, at every threshold
// between the partial sums), and that only the first 10 coordinates of
// longer slices count.
func TestDist2f32x10Bound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for rep := 0; rep < 2000; rep++ {
		a, b := make([]float32, 12), make([]float32, 12)
		for c := range a {
			a[c], b[c] = float32(10*rng.NormFloat64()), float32(10*rng.NormFloat64())
		}
		if rep%7 == 0 {
			copy(b, a[:5]) // small partial sums
		}
		var want float32
		var partial [10]float32
		for c := 0; c < 10; c++ {
			x := a[c] - b[c]
			want += float32(x * x) // no fused multiply-add
			partial[c] = want
		}
		if got := dist2f32x10Bound(a, b, float32(math.Inf(1))); got != want {
			t.Fatalf("rep %d: %v, plain loop %v", rep, got, want)
		}
		if got := dist2f32x10Bound(a, b, want); got != want {
			t.Fatalf("rep %d: bound = distance gave %v, want %v", rep, got, want)
		}
		for _, bound := range []float32{0, partial[2], partial[3], partial[6], partial[8], want / 2, math.Nextafter32(want, 0)} {
			if bound >= want {
				continue
			}
			if got := dist2f32x10Bound(a, b, bound); got <= bound {
				t.Fatalf("rep %d: bound %v: returned %v ≤ bound (distance %v)", rep, bound, got, want)
			}
		}
	}
}

// TestDescentSeed checks the leaf seeding against brute force: after
// seeding from several partitions (contiguous leaves, permuted ones, and
// leaves smaller than k+1 that are widened), each point's list is the k
// nearest of its candidates (its leaf mates in every partition, widened to
// k+1 slots, itself excluded) by (float32 distance, position), computed
// by a plain loop and a sort.
func TestDescentSeed(t *testing.T) {
	for _, c := range []struct{ n, d, k int }{{300, 10, 7}, {200, 3, 5}, {64, 2, 12}} {
		rng := rand.New(rand.NewPCG(uint64(c.n), 3))
		s := &descent{n: c.n, dim: c.d, k: c.k, pts: make([]float32, c.n*c.d),
			idx: make([]int32, c.n*c.k), dst: make([]float64, c.n*c.k)}
		for i := range s.pts {
			s.pts[i] = float32(rng.IntN(20)) / 4 // ties
		}
		// Partitions: ord (nil: identity) and leaf bounds.
		type part struct{ ord, bounds []int32 }
		var parts []part
		for tr := 0; tr < 3; tr++ {
			var ord []int32
			if tr > 0 {
				ord = make([]int32, c.n)
				for i, v := range rng.Perm(c.n) {
					ord[i] = int32(v)
				}
			}
			bounds := []int32{0}
			for int(bounds[len(bounds)-1]) < c.n {
				size := 1 + rng.IntN(2*c.k) // some below k+1
				bounds = append(bounds, int32(min(c.n, int(bounds[len(bounds)-1])+size)))
			}
			parts = append(parts, part{ord, bounds})
		}
		cnt := make([]int32, c.n)
		for tr, pt := range parts {
			if err := s.seed(context.Background(), pt.ord, pt.bounds, cnt, tr == 0); err != nil {
				t.Fatal(err)
			}
		}
		for p := 0; p < c.n; p++ {
			cand := map[int32]bool{}
			for _, pt := range parts {
				slot := func(q int) int32 {
					if pt.ord == nil {
						return int32(q)
					}
					return pt.ord[q]
				}
				for l := 0; l+1 < len(pt.bounds); l++ {
					a, b := int(pt.bounds[l]), int(pt.bounds[l+1])
					in := false
					for q := a; q < b; q++ {
						in = in || slot(q) == int32(p)
					}
					if !in {
						continue
					}
					for b-a < c.k+1 { // widen as documented
						if a > 0 {
							a--
						}
						if b < c.n && b-a < c.k+1 {
							b++
						}
					}
					for q := a; q < b; q++ {
						if slot(q) != int32(p) {
							cand[slot(q)] = true
						}
					}
				}
			}
			type nd struct {
				d float32
				q int32
			}
			var all []nd
			for q := range cand {
				var sum float32
				for j := 0; j < c.d; j++ {
					x := s.pts[p*c.d+j] - s.pts[int(q)*c.d+j]
					sum += float32(x * x)
				}
				all = append(all, nd{sum, q})
			}
			slices.SortFunc(all, func(a, b nd) int {
				if a.d != b.d {
					return cmp.Compare(a.d, b.d)
				}
				return cmp.Compare(a.q, b.q)
			})
			if int(cnt[p]) != c.k {
				t.Fatalf("n=%d: point %d holds %d entries, want %d", c.n, p, cnt[p], c.k)
			}
			row, rd := slices.Clone(s.idx[p*c.k:(p+1)*c.k]), slices.Clone(s.dst[p*c.k:(p+1)*c.k])
			sortPairs(row, rd)
			for r := range row {
				if row[r] != all[r].q || rd[r] != float64(all[r].d) {
					t.Fatalf("n=%d: point %d entry %d = (%d, %v), brute force (%d, %v)", c.n, p, r, row[r], rd[r], all[r].q, all[r].d)
				}
			}
		}
	}
}

// TestFlagNew checks flagNew's new flags against a plain membership
// test: random current rows (sorted by distance, then position, with
// ties), and next rows mixing kept entries (same distances) and new ones.
func TestFlagNew(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n, k = 40, 6
	for rep := 0; rep < 500; rep++ {
		perm := rng.Perm(n)
		dist := make([]float64, n)
		for q := range dist {
			dist[q] = float64(rng.IntN(5)) // many ties
		}
		row := func(qs []int) ([]int32, []float64) {
			idx, d := make([]int32, len(qs)), make([]float64, len(qs))
			for r, q := range qs {
				idx[r], d[r] = int32(q), dist[q]
			}
			sortPairs(idx, d)
			return idx[:k], d[:k]
		}
		old, od := row(perm[:k])
		a := rng.IntN(k)
		next, nd := row(perm[a : a+k+rng.IntN(4)]) // kept or new entries
		nw := make([]bool, k)
		c := flagNew(old, od, next, nd, nw)
		want := 0
		for r, q := range next {
			isNew := !slices.Contains(old, q)
			if isNew {
				want++
			}
			if nw[r] != isNew {
				t.Fatalf("rep %d: entry %d (%d) flagged %v, want %v", rep, r, q, nw[r], isNew)
			}
		}
		if c != want {
			t.Fatalf("rep %d: %d new, want %d", rep, c, want)
		}
	}
}

// TestDescentRound checks one round of the local join (neighbourhoods,
// then round) against brute force on random lists: each point's local
// neighbourhood is its forward entries and its ReverseCap closest reverse
// ones, a link new if any of its entries is; a point's candidates are the
// points sharing a neighbourhood with it through at least one new link,
// and the neighbourhood's owner when their link is new; its next list is
// the k nearest of its current list and its candidates by (float32
// distance, position), computed by a plain loop and a sort, and its new
// flags mark the entries not in the current list. The largest case spans
// several batches (joinBatch) and offer buckets.
func TestDescentRound(t *testing.T) {
	type nd struct {
		d float32
		q int32
	}
	byDist := func(a, b nd) int {
		if a.d != b.d {
			return cmp.Compare(a.d, b.d)
		}
		return cmp.Compare(a.q, b.q)
	}
	for _, c := range []struct{ n, d, k, rcap int }{{300, 10, 7, 6}, {200, 3, 5, 12}, {90_000, 3, 4, 3}} {
		rng := rand.New(rand.NewPCG(uint64(c.n), 9))
		n, k := c.n, c.k
		s := &descent{n: n, dim: c.d, k: k, pts: make([]float32, n*c.d),
			idx: make([]int32, n*k), dst: make([]float64, n*k), isNew: make([]bool, n*k),
			nIdx: make([]int32, n*k), nDst: make([]float64, n*k), nNew: make([]bool, n*k)}
		for i := range s.pts {
			s.pts[i] = float32(rng.IntN(40)) / 4 // ties
		}
		dist := func(p, q int32) float32 {
			var sum float32
			for j := 0; j < c.d; j++ {
				x := s.pts[int(p)*c.d+j] - s.pts[int(q)*c.d+j]
				sum += float32(x * x)
			}
			return sum
		}
		// Random current lists of nearby positions, sorted.
		for p := 0; p < n; p++ {
			row := s.idx[p*k : (p+1)*k]
			for r := range row {
				for {
					q := int32(max(0, min(n-1, p+rng.IntN(41)-20)))
					if q != int32(p) && !slices.Contains(row[:r], q) {
						row[r] = q
						break
					}
				}
				s.dst[p*k+r] = float64(dist(int32(p), row[r]))
				s.isNew[p*k+r] = rng.IntN(3) == 0
			}
			sortPairs(row, s.dst[p*k:(p+1)*k])
		}
		// Brute force: links of each neighbourhood, new if any entry is.
		links := make([]map[int32]bool, n)
		for v := range links {
			links[v] = map[int32]bool{}
		}
		rev := make([][]nd, n)
		revNew := map[[2]int32]bool{}
		for u := 0; u < n; u++ {
			for r := u * k; r < (u+1)*k; r++ {
				v := s.idx[r]
				links[u][v] = links[u][v] || s.isNew[r]
				rev[v] = append(rev[v], nd{float32(s.dst[r]), int32(u)})
				revNew[[2]int32{v, int32(u)}] = s.isNew[r]
			}
		}
		for v := range rev {
			slices.SortFunc(rev[v], byDist)
			for _, e := range rev[v][:min(len(rev[v]), c.rcap)] {
				links[v][e.q] = links[v][e.q] || revNew[[2]int32{int32(v), e.q}]
			}
		}
		cand := make([]map[int32]bool, n)
		for p := range cand {
			cand[p] = map[int32]bool{}
		}
		for v, l := range links {
			for a, na := range l {
				if na {
					cand[v][a], cand[a][int32(v)] = true, true
				}
				for b, nb := range l {
					if a != b && (na || nb) {
						cand[a][b] = true
					}
				}
			}
		}
		s.neighbourhoods(c.rcap)
		var pool []*joinScratch
		changed, err := s.round(context.Background(), &pool)
		if err != nil {
			t.Fatal(err)
		}
		want := int64(0)
		for p := 0; p < n; p++ {
			old := s.idx[p*k : (p+1)*k]
			var all []nd
			for _, q := range old {
				all = append(all, nd{dist(int32(p), q), q})
			}
			for q := range cand[p] {
				if !slices.Contains(old, q) {
					all = append(all, nd{dist(int32(p), q), q})
				}
			}
			slices.SortFunc(all, byDist)
			for r := 0; r < k; r++ {
				got := nd{float32(s.nDst[p*k+r]), s.nIdx[p*k+r]}
				if got != all[r] || s.nDst[p*k+r] != float64(got.d) {
					t.Fatalf("n=%d: point %d entry %d = %v, brute force %v", n, p, r, got, all[r])
				}
				isNew := !slices.Contains(old, got.q)
				if s.nNew[p*k+r] != isNew {
					t.Fatalf("n=%d: point %d entry %d flagged %v, want %v", n, p, r, s.nNew[p*k+r], isNew)
				}
				if isNew {
					want++
				}
			}
		}
		if changed != want {
			t.Errorf("n=%d: round reports %d new entries, counted %d", n, changed, want)
		}
	}
}
