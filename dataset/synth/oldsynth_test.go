package synth

// The generators as they were before they took a context
// (MoonsContext, …, and DCSBMContext's interruptible sort): oracles of
// TestContextGeneratorsSameAsOld.

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
)

func oldCheckOutput(name string, noise float64, x *mat.Dense) error {
	n, _ := x.Dims()
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return fmt.Errorf("%w: %s: noise = %v makes x%d of point %d %v (beyond the float64 range); want a smaller noise", ErrInvalid, name, noise, j+1, i, v)
			}
		}
	}
	return nil
}
func oldMoons(n int, noise float64, src rand.Source) (*mat.Dense, []int, error) {
	if err := checkPoints("Moons", n, 2, noise); err != nil {
		return nil, nil, err
	}
	rng := newRand(src)
	x := mat.NewDense(n, 2, nil)
	labels := make([]int, n)
	nOut := n / 2
	nIn := n - nOut
	for i := 0; i < n; i++ {
		var a, b float64
		if i < nOut {
			t := linspace(0, math.Pi, i, nOut, true)
			a, b = math.Cos(t), math.Sin(t)
		} else {
			t := linspace(0, math.Pi, i-nOut, nIn, true)
			a, b = 1-math.Cos(t), 0.5-math.Sin(t)
			labels[i] = 1
		}
		x.Set(i, 0, a+noise*rng.NormFloat64())
		x.Set(i, 1, b+noise*rng.NormFloat64())
	}
	if err := oldCheckOutput("Moons", noise, x); err != nil {
		return nil, nil, err
	}
	return x, labels, nil
}
func oldCircles(n int, noise, factor float64, src rand.Source) (*mat.Dense, []int, error) {
	if err := checkPoints("Circles", n, 2, noise); err != nil {
		return nil, nil, err
	}
	if !(factor > 0 && factor < 1) {
		return nil, nil, fmt.Errorf("%w: Circles: factor = %v, want 0 < factor < 1", ErrInvalid, factor)
	}
	rng := newRand(src)
	x := mat.NewDense(n, 2, nil)
	labels := make([]int, n)
	nOut := n / 2
	nIn := n - nOut
	for i := 0; i < n; i++ {
		r, t := 1.0, 0.0
		if i < nOut {
			t = linspace(0, 2*math.Pi, i, nOut, false)
		} else {
			r, t = factor, linspace(0, 2*math.Pi, i-nOut, nIn, false)
			labels[i] = 1
		}
		x.Set(i, 0, r*math.Cos(t)+noise*rng.NormFloat64())
		x.Set(i, 1, r*math.Sin(t)+noise*rng.NormFloat64())
	}
	if err := oldCheckOutput("Circles", noise, x); err != nil {
		return nil, nil, err
	}
	return x, labels, nil
}
func oldInterlacedCircles(n, k int, noise float64, src rand.Source) (*mat.Dense, []int, error) {
	if err := checkPoints("InterlacedCircles", n, 2, noise); err != nil {
		return nil, nil, err
	}
	if k < 1 || k > n {
		return nil, nil, fmt.Errorf("%w: InterlacedCircles: k = %d, want 1 ≤ k ≤ n = %d", ErrInvalid, k, n)
	}
	rng := newRand(src)
	x := mat.NewDense(n, 2, nil)
	labels := make([]int, n)
	i := 0
	for c, m := range split(n, k) {
		for q := 0; q < m; q++ {
			t := linspace(0, 2*math.Pi, q, m, false)
			x.Set(i, 0, float64(c)+math.Cos(t)+noise*rng.NormFloat64())
			x.Set(i, 1, math.Sin(t)+noise*rng.NormFloat64())
			labels[i] = c
			i++
		}
	}
	if err := oldCheckOutput("InterlacedCircles", noise, x); err != nil {
		return nil, nil, err
	}
	return x, labels, nil
}
func oldXOR(n int, noise float64, src rand.Source) (*mat.Dense, []int, error) {
	if err := checkPoints("XOR", n, 2, noise); err != nil {
		return nil, nil, err
	}
	rng := newRand(src)
	centres := [4][2]float64{{1, 1}, {-1, -1}, {1, -1}, {-1, 1}}
	x := mat.NewDense(n, 2, nil)
	labels := make([]int, n)
	i := 0
	for c, m := range split(n, 4) {
		for q := 0; q < m; q++ {
			x.Set(i, 0, centres[c][0]+noise*rng.NormFloat64())
			x.Set(i, 1, centres[c][1]+noise*rng.NormFloat64())
			labels[i] = c / 2
			i++
		}
	}
	if err := oldCheckOutput("XOR", noise, x); err != nil {
		return nil, nil, err
	}
	return x, labels, nil
}
func oldBlobs(n, k, dim int, std float64, src rand.Source) (*mat.Dense, []int, error) {
	if dim < 1 {
		return nil, nil, fmt.Errorf("%w: Blobs: dim = %d, want ≥ 1", ErrInvalid, dim)
	}
	if err := checkPoints("Blobs", n, dim, std); err != nil {
		return nil, nil, err
	}
	if k < 1 || k > n {
		return nil, nil, fmt.Errorf("%w: Blobs: k = %d, want 1 ≤ k ≤ n = %d", ErrInvalid, k, n)
	}
	rng := newRand(src)
	centres := make([]float64, k*dim)
	for t := range centres {
		centres[t] = BlobBox * (2*rng.Float64() - 1)
	}
	x := mat.NewDense(n, dim, nil)
	labels := make([]int, n)
	i := 0
	for c, m := range split(n, k) {
		for q := 0; q < m; q++ {
			for d := 0; d < dim; d++ {
				x.Set(i, d, centres[c*dim+d]+std*rng.NormFloat64())
			}
			labels[i] = c
			i++
		}
	}
	if err := oldCheckOutput("Blobs", std, x); err != nil {
		return nil, nil, err
	}
	return x, labels, nil
}

func oldDCSBMContext(ctx context.Context, n, k int, cin, cout, gamma float64, src rand.Source) (*graph.Graph, []int, []float64, error) {
	if n < 1 || k < 1 || k > n {
		return nil, nil, nil, fmt.Errorf("%w: DC-SBM: n = %d, k = %d, want 1 ≤ k ≤ n", ErrInvalid, n, k)
	}
	if n > MaxValues {
		return nil, nil, nil, fmt.Errorf("%w: DC-SBM: n = %d nodes exceed MaxValues = %d", ErrInvalid, n, MaxValues)
	}
	for _, c := range []float64{cin, cout} {
		if !(c >= 0 && c <= float64(n)) {
			return nil, nil, nil, fmt.Errorf("%w: DC-SBM: c_in = %v, c_out = %v, want 0 ≤ c ≤ n = %d", ErrInvalid, cin, cout, n)
		}
	}
	if !(gamma == 0 || gamma > 2) || math.IsInf(gamma, 0) {
		return nil, nil, nil, fmt.Errorf("%w: DC-SBM: gamma = %v, want 0 (no degree correction) or a finite exponent > 2 (the power law must have a mean)", ErrInvalid, gamma)
	}
	if entries := float64(n) * (cin + float64(k-1)*cout) / float64(k); entries > MaxValues {
		return nil, nil, nil, fmt.Errorf("%w: DC-SBM: about %.3g expected adjacency entries (n = %d, c_in = %v, c_out = %v) exceed MaxValues = %d", ErrInvalid, entries, n, cin, cout, MaxValues)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	rng := newRand(src)
	sizes := split(n, k)
	start := make([]int, k+1)
	labels := make([]int, n)
	theta := make([]float64, n)
	for b, s := range sizes {
		start[b+1] = start[b] + s
		var sum float64
		for i := start[b]; i < start[b+1]; i++ {
			labels[i] = b
			theta[i] = 1
			if gamma > 0 {
				// Inverse CDF of the Pareto law ∝ θ^{−γ} on [1, ∞).
				theta[i] = math.Pow(1-rng.Float64(), -1/(gamma-1))
			}
			sum += theta[i]
		}
		for i := start[b]; i < start[b+1]; i++ {
			theta[i] *= float64(s) / sum
		}
	}
	// cum[b] holds the cumulative θ of block b, for drawing endpoints ∝ θ.
	cum := make([][]float64, k)
	for b := range cum {
		c := make([]float64, sizes[b])
		var s float64
		for t := range c {
			s += theta[start[b]+t]
			c[t] = s
		}
		cum[b] = c
	}
	draw := func(b int) int {
		c := cum[b]
		u := rng.Float64() * c[len(c)-1]
		t := sort.SearchFloat64s(c, u)
		if t == len(c) {
			t--
		}
		return start[b] + t
	}
	type pair struct{ i, j int32 }
	var pairs []pair
	steps := 0
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			c := cout
			if a == b {
				c = cin
			}
			// Σ θ over a block is its size; ordered pairs within a block
			// are counted twice, so the unordered mean is halved.
			mean := c * float64(sizes[a]) * float64(sizes[b]) / float64(n)
			if a == b {
				mean /= 2
			}
			if mean <= 0 {
				continue
			}
			// A Poisson(mean) count, as the arrivals of a unit-rate
			// Poisson process before time mean: O(count).
			for t := rng.ExpFloat64(); t <= mean; t += rng.ExpFloat64() {
				steps++
				if steps%ctxEvery == 0 {
					if err := ctx.Err(); err != nil {
						return nil, nil, nil, err
					}
				}
				i, j := draw(a), draw(b)
				if i == j {
					continue
				}
				if i > j {
					i, j = j, i
				}
				pairs = append(pairs, pair{int32(i), int32(j)})
			}
		}
	}
	slices.SortFunc(pairs, func(x, y pair) int {
		if x.i != y.i {
			return int(x.i - y.i)
		}
		return int(x.j - y.j)
	})
	pairs = slices.Compact(pairs)
	edges := make([]graph.Edge, len(pairs))
	for e, p := range pairs {
		edges[e] = graph.Edge{I: int(p.i), J: int(p.j), W: 1}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		return nil, nil, nil, err
	}
	return g, labels, theta, nil
}
