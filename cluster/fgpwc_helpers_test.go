package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// fgpwcMoons returns n points on two interleaved half circles (the usual
// "two moons": outer (cos t, sin t), inner (1 − cos t, 0.5 − sin t), t in
// [0, π]) with Gaussian noise of the given standard deviation, the moon of
// each point, and the "side" labelling: 0 for the left half of each moon
// (t > π/2), 1 for the right half. Points alternate between the moons.
func fgpwcMoons(rnd *rand.Rand, n int, noise float64) (x *mat.Dense, moon, side []int) {
	x = mat.NewDense(n, 2, nil)
	moon = make([]int, n)
	side = make([]int, n)
	for i := 0; i < n; i++ {
		t := math.Pi * rnd.Float64()
		var a, b float64
		if i%2 == 0 {
			a, b = math.Cos(t), math.Sin(t)
		} else {
			a, b = 1-math.Cos(t), 0.5-math.Sin(t)
			moon[i] = 1
		}
		if t < math.Pi/2 {
			side[i] = 1
		}
		// On the inner moon t < π/2 is its left half: mirror so that
		// "side" means the same half of the plane for both moons.
		if moon[i] == 1 {
			side[i] = 1 - side[i]
		}
		x.Set(i, 0, a+noise*rnd.NormFloat64())
		x.Set(i, 1, b+noise*rnd.NormFloat64())
	}
	return x, moon, side
}

// fgpwcBlobs returns n points in d dimensions around k centres drawn
// N(0, spread²) (point i belongs to cluster i mod k), with unit noise.
func fgpwcBlobs(rnd *rand.Rand, n, d, k int, spread float64) (x *mat.Dense, truth []int) {
	centres := make([][]float64, k)
	for c := range centres {
		centres[c] = make([]float64, d)
		for j := range centres[c] {
			centres[c][j] = spread * rnd.NormFloat64()
		}
	}
	x = mat.NewDense(n, d, nil)
	truth = make([]int, n)
	for i := 0; i < n; i++ {
		truth[i] = i % k
		for j := 0; j < d; j++ {
			x.Set(i, j, centres[truth[i]][j]+rnd.NormFloat64())
		}
	}
	return x, truth
}

// fgpwcKNNGraph builds the symmetric ("either is a neighbour") k-NN graph
// of the rows of x with RBF weights exp(−d²/2σ²), σ the median distance to
// the k-th neighbour. It uses graph.KNN.
func fgpwcKNNGraph(tb testing.TB, x *mat.Dense, k int) *graph.Graph {
	tb.Helper()
	nb, err := graph.KNN(context.Background(), x, k)
	if err != nil {
		tb.Fatal(err)
	}
	n := nb.N()
	kth := make([]float64, n)
	for i := 0; i < n; i++ {
		_, d2 := nb.Row(i)
		kth[i] = d2[k-1]
	}
	sort.Float64s(kth)
	s2 := kth[n/2]
	if s2 == 0 {
		s2 = 1
	}
	type key struct{ i, j int32 }
	keys := make([]key, 0, n*k)
	w := make(map[key]float64, n*k)
	for i := 0; i < n; i++ {
		idx, d2 := nb.Row(i)
		for c, j := range idx {
			a, b := int32(i), j
			if a > b {
				a, b = b, a
			}
			kk := key{a, b}
			if _, ok := w[kk]; !ok {
				keys = append(keys, kk)
			}
			w[kk] = math.Exp(-d2[c] / (2 * s2))
		}
	}
	slices.SortFunc(keys, func(p, q key) int {
		if p.i != q.i {
			return int(p.i - q.i)
		}
		return int(p.j - q.j)
	})
	edges := make([]graph.Edge, len(keys))
	for e, kk := range keys {
		edges[e] = graph.Edge{I: int(kk.i), J: int(kk.j), W: w[kk]}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// fgpwcOracle returns count random pairs labelled by truth (must-link when
// truth agrees).
func fgpwcOracle(rnd *rand.Rand, truth []int, count int) *constraint.Set {
	n := len(truth)
	s := &constraint.Set{N: n}
	for len(s.Pairs) < count {
		i, j := rnd.IntN(n), rnd.IntN(n)
		if i == j {
			continue
		}
		kind := constraint.CannotLink
		if truth[i] == truth[j] {
			kind = constraint.MustLink
		}
		s.Pairs = append(s.Pairs, constraint.Pair{I: i, J: j, Kind: kind})
	}
	return s
}
