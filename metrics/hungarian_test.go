package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// bruteAssign returns the minimal total cost over all injective maps from
// the smaller side of cost into the larger, by enumerating permutations.
func bruteAssign(cost [][]float64) float64 {
	r := len(cost)
	if r == 0 || len(cost[0]) == 0 {
		return 0
	}
	c := len(cost[0])
	at := func(i, j int) float64 { return cost[i][j] }
	if r > c {
		r, c = c, r
		at = func(i, j int) float64 { return cost[j][i] }
	}
	best := math.Inf(1)
	used := make([]bool, c)
	var rec func(i int, sum float64)
	rec = func(i int, sum float64) {
		if i == r {
			best = min(best, sum)
			return
		}
		for j := range c {
			if !used[j] {
				used[j] = true
				rec(i+1, sum+at(i, j))
				used[j] = false
			}
		}
	}
	rec(0, 0)
	return best
}

func TestHungarianBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	kinds := []struct {
		name string
		draw func() float64
	}{
		{"small integers (ties)", func() float64 { return float64(rng.IntN(4)) }},
		{"signed integers", func() float64 { return float64(rng.IntN(201) - 100) }},
		{"reals", func() float64 { return rng.NormFloat64() * 1e3 }},
	}
	for _, kind := range kinds {
		for r := 0; r <= 7; r++ {
			for c := 0; c <= 7; c++ {
				for rep := range 3 {
					t.Run(fmt.Sprintf("%s/%dx%d/%d", kind.name, r, c, rep), func(t *testing.T) {
						cost := make([][]float64, r)
						for i := range cost {
							cost[i] = make([]float64, c)
							for j := range cost[i] {
								cost[i][j] = kind.draw()
							}
						}
						assign, total := Hungarian(cost)
						if len(assign) != r {
							t.Fatalf("assignment of length %d, want %d", len(assign), r)
						}
						used := map[int]bool{}
						sum, matched := 0.0, 0
						for i, j := range assign {
							if j < 0 {
								continue
							}
							if j >= c || used[j] {
								t.Fatalf("row %d → column %d: invalid or repeated", i, j)
							}
							used[j] = true
							sum += cost[i][j]
							matched++
						}
						if matched != min(r, c) {
							t.Fatalf("%d rows matched, want %d", matched, min(r, c))
						}
						if sum != total {
							t.Fatalf("returned total %v, assignment sums to %v", total, sum)
						}
						want := bruteAssign(cost)
						if math.Abs(total-want) > 1e-9*(1+math.Abs(want)) {
							t.Fatalf("total %v, brute force %v", total, want)
						}
					})
				}
			}
		}
	}
}

func TestHungarianWorked(t *testing.T) {
	// a_ij = 3i + j + 1 is a row term plus a column term, so every
	// permutation costs the same: 1+5+9 = 15.
	cost := [][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	if _, total := Hungarian(cost); total != 15 {
		t.Errorf("total %v, want 15", total)
	}
	// The example of scipy's linear_sum_assignment documentation; the six
	// permutations cost 6, 11, 5, 9, 7, 6, so the unique optimum is
	// 0→1, 1→0, 2→2 with cost 1+2+2 = 5.
	cost = [][]float64{{4, 1, 3}, {2, 0, 5}, {3, 2, 2}}
	assign, total := Hungarian(cost)
	if total != 5 || assign[0] != 1 || assign[1] != 0 || assign[2] != 2 {
		t.Errorf("assignment %v total %v, want [1 0 2] 5", assign, total)
	}
}

func TestHungarianPanics(t *testing.T) {
	for name, cost := range map[string][][]float64{
		"ragged": {{1, 2}, {3}},
		"NaN":    {{1, math.NaN()}},
		"Inf":    {{math.Inf(1)}},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			Hungarian(cost)
		})
	}
}

func TestHungarianCubic(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	// Doubling k should multiply the time by about 8 (O(k³)), certainly not
	// by the 2^k of an enumeration; allow a generous factor for noise.
	rng := rand.New(rand.NewPCG(13, 14))
	timeIt := func(k int) float64 {
		cost := make([][]float64, k)
		for i := range cost {
			cost[i] = make([]float64, k)
			for j := range cost[i] {
				cost[i][j] = float64(rng.IntN(1000))
			}
		}
		best := math.Inf(1)
		for range 3 {
			start := time.Now()
			Hungarian(cost)
			best = min(best, float64(time.Since(start)))
		}
		return best
	}
	small, large := timeIt(100), timeIt(400)
	if ratio := large / small; ratio > 64*4 {
		t.Errorf("k 100 → 400 multiplied the time by %.0f, want about 64 (O(k³))", ratio)
	}
}
