package kmeans

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWeightedSeedLaw: with weights, k-means++ draws the first centre with
// probability w_i/Σw and the second with probability w_j·D²(j)/Σ_m w_m·D²(m)
// (the D² law of thesis Alg. 4 with point multiplicities w). Pearson's χ²
// over the 12 ordered pairs of 4 points must stay below 31.26, the 0.999
// quantile of χ²(11) (standard tables).
func TestWeightedSeedLaw(t *testing.T) {
	pts := []float64{0, 1, 3, 7}
	w := []float64{0.5, 2, 1, 0.25}
	p := &vproblem{x: pts, stride: 1, n: 4, d: 1, k: 2, w: w}
	var wsum float64
	for _, v := range w {
		wsum += v
	}
	prob := map[[2]int]float64{}
	for i := range pts {
		var tot float64
		for m := range pts {
			tot += w[m] * (pts[m] - pts[i]) * (pts[m] - pts[i])
		}
		for j := range pts {
			if j != i {
				prob[[2]int{i, j}] = w[i] / wsum * w[j] * (pts[j] - pts[i]) * (pts[j] - pts[i]) / tot
			}
		}
	}
	const draws = 20000
	seen := map[[2]int]int{}
	for s := 0; s < draws; s++ {
		idx := seeded(p, rand.New(rand.NewPCG(uint64(s), 3)), 1)
		seen[[2]int{idx[0], idx[1]}]++
	}
	var chi2 float64
	for key, q := range prob {
		e := q * draws
		chi2 += (float64(seen[key]) - e) * (float64(seen[key]) - e) / e
	}
	t.Logf("χ² = %.1f", chi2)
	if chi2 > 31.26 {
		t.Errorf("χ² = %.1f > 31.26; counts %v", chi2, fmt.Sprint(seen))
	}
}

// TestSeedMatchesReference: seed, which forms four distances at a time,
// draws exactly the indices of the one-distance-at-a-time k-means++ loop
// (the reference below) for weighted and unweighted data, odd n (a partial
// last group of four) and several goroutines.
func TestSeedMatchesReference(t *testing.T) {
	ref := func(p *vproblem, rnd *rand.Rand) []int {
		minD := make([]float64, p.n)
		for i := range minD {
			minD[i] = math.Inf(1)
		}
		idx, _ := d2Sample(context.Background(), p.n, p.k, p.w, minD, rnd, 1, nil, func(c int, lo, hi int) {
			for i := lo; i < hi; i++ {
				if v := sqDist(p.row(i), p.row(c)); v < minD[i] {
					minD[i] = v
				}
			}
		})
		return idx
	}
	for _, tc := range []struct{ n, d, k int }{{1, 1, 1}, {7, 3, 4}, {501, 5, 8}, {4099, 7, 6}} {
		for _, weighted := range []bool{false, true} {
			r := rand.New(rand.NewPCG(uint64(tc.n), 5))
			x := make([]float64, tc.n*tc.d)
			for i := range x {
				x[i] = r.NormFloat64()
			}
			p := &vproblem{x: x, stride: tc.d, n: tc.n, d: tc.d, k: tc.k}
			if weighted {
				p.w = make([]float64, tc.n)
				for i := range p.w {
					p.w[i] = 0.1 + r.Float64()
				}
			}
			for s := uint64(0); s < 5; s++ {
				want := ref(p, rand.New(rand.NewPCG(s, 1)))
				for _, workers := range []int{1, 3} {
					if got := seeded(p, rand.New(rand.NewPCG(s, 1)), workers); !slices.Equal(got, want) {
						t.Errorf("n=%d d=%d k=%d weighted=%v seed %d, %d workers: %v, want %v",
							tc.n, tc.d, tc.k, weighted, s, workers, got, want)
					}
				}
			}
		}
	}
}

// seeded is p.seed with a context never cancelled.
func seeded(p *vproblem, rnd *rand.Rand, workers int) []int {
	idx, err := p.seed(context.Background(), rnd, workers)
	if err != nil {
		panic(err)
	}
	return idx
}
