package synth

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/ctxsort"
)

// DCSBM draws a degree-corrected stochastic block model graph (Karrer &
// Newman 2011, Poisson form) with n nodes in k blocks of equal size (block
// b holds nodes b·n/k…, as SBM), and returns it with the block labels.
// It is DCSBMContext with a background context.
func DCSBM(n, k int, cin, cout, gamma float64, src rand.Source) (*graph.Graph, []int, []float64, error) {
	return DCSBMContext(context.Background(), n, k, cin, cout, gamma, src)
}

// DCSBMContext draws a degree-corrected SBM. Every node i has a degree
// propensity θ_i; the number of edges between nodes i ≠ j is Poisson with
// mean θ_i θ_j B_{g_i g_j}/n, B = c_in on the diagonal and c_out off it, and
// the multigraph is reduced to a simple unweighted graph (an edge where the
// count is ≥ 1, so P(i ~ j) = 1 − exp(−θ_iθ_jB/n); self loops dropped).
//
// With gamma = 0 every θ_i is 1 and the model is the SBM of seed 004 §3.1
// in Poisson form. With gamma > 2 the θ_i are drawn from the power law
// (Pareto) density ∝ θ^{−gamma} on [1, ∞), then scaled to mean 1 in each
// block, so that the expected degree of node i is about θ_i·c with
// c = (c_in + (k−1)c_out)/k the mean degree, and the degrees have a
// power-law tail of exponent gamma (the model of Gulikers, Lelarge &
// Massoulié 2017 and of Dall'Amico, Couillet & Tremblay 2019's
// experiments). Smaller gamma means more heterogeneous degrees; gamma in
// (0, 2] (infinite mean) is refused. The θ are returned too (row order).
//
// Sampling is per pair of blocks: a Poisson number of edges, each with
// endpoints drawn ∝ θ (Karrer & Newman's construction). Cost O(n log n + m
// log n) time and O(n + m) memory for m edges; ctx is checked every 4096
// edges drawn, while they are sorted (ctxsort.InPlace) and while the
// graph is built (graph.FromEdgesContext): a cancelled ctx gives
// ctx.Err(). Errors wrap ErrInvalid for n < 1, k outside [1, n], c outside [0,
// n], a gamma in (0, 2] or negative, or an expected size beyond MaxValues.
func DCSBMContext(ctx context.Context, n, k int, cin, cout, gamma float64, src rand.Source) (*graph.Graph, []int, []float64, error) {
	if n < 1 || k < 1 || k > n {
		return nil, nil, nil, paramError([]string{"n", "k"}, "%w: DC-SBM: n = %d, k = %d, want 1 ≤ k ≤ n", ErrInvalid, n, k)
	}
	if n > MaxValues {
		return nil, nil, nil, paramError([]string{"n"}, "%w: DC-SBM: n = %d nodes exceed MaxValues = %d", ErrInvalid, n, MaxValues)
	}
	for _, c := range []float64{cin, cout} {
		if !(c >= 0 && c <= float64(n)) {
			return nil, nil, nil, paramError([]string{"cin", "cout", "n"}, "%w: DC-SBM: c_in = %v, c_out = %v, want 0 ≤ c ≤ n = %d", ErrInvalid, cin, cout, n)
		}
	}
	if !(gamma == 0 || gamma > 2) || math.IsInf(gamma, 0) {
		return nil, nil, nil, paramError([]string{"gamma"}, "%w: DC-SBM: gamma = %v, want 0 (no degree correction) or a finite exponent > 2 (the power law must have a mean)", ErrInvalid, gamma)
	}
	if entries := float64(n) * (cin + float64(k-1)*cout) / float64(k); entries > MaxValues {
		return nil, nil, nil, paramError([]string{"n", "k", "cin", "cout"}, "%w: DC-SBM: about %.3g expected adjacency entries (n = %d, c_in = %v, c_out = %v) exceed MaxValues = %d", ErrInvalid, entries, n, cin, cout, MaxValues)
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
	// Sorted by (i, j), checking ctx (slices.SortFunc took seconds on
	// 10⁷ pairs, uninterruptible); equal pairs are equal in full, so the
	// order is that of any sort by (i, j).
	if err := ctxsort.InPlace(ctx, pairs,
		func(p pair) uint64 { return uint64(uint32(p.i))<<32 | uint64(uint32(p.j)) },
		func(pair) uint64 { return 0 }, nil); err != nil {
		return nil, nil, nil, err
	}
	pairs = slices.Compact(pairs)
	edges := make([]graph.Edge, len(pairs))
	for e, p := range pairs {
		if e%ctxEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, nil, err
			}
		}
		edges[e] = graph.Edge{I: int(p.i), J: int(p.j), W: 1}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	g, err := graph.FromEdgesContext(ctx, n, edges)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, nil, nil, ctx.Err()
		}
		return nil, nil, nil, err
	}
	return g, labels, theta, nil
}
