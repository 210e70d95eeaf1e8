package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tether-sc/tether/internal/testpanic"
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
	for _, c := range []struct {
		name string
		cost [][]float64
		want string
	}{
		{"short row", [][]float64{{1, 2}, {3}}, "metrics: Hungarian: row 1 has 1 entries, row 0 has 2"},
		{"long row", [][]float64{{1}, {2}, {3, 4}}, "metrics: Hungarian: row 2 has 2 entries, row 0 has 1"},
		{"empty row", [][]float64{{}, {1}}, "metrics: Hungarian: row 1 has 1 entries, row 0 has 0"},
		{"NaN", [][]float64{{1, math.NaN()}}, "metrics: Hungarian: cost[0][1] = NaN is not finite"},
		{"+Inf", [][]float64{{0}, {math.Inf(1)}}, "metrics: Hungarian: cost[1][0] = +Inf is not finite"},
		{"-Inf", [][]float64{{0, 0}, {0, math.Inf(-1)}}, "metrics: Hungarian: cost[1][1] = -Inf is not finite"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := testpanic.Message(func() { Hungarian(c.cost) })
			if msg != c.want {
				t.Errorf("panic %q, want %q", msg, c.want)
			}
		})
	}
	// The largest finite entries are valid.
	if assign, total := Hungarian([][]float64{{math.MaxFloat64}}); assign[0] != 0 || total != math.MaxFloat64 {
		t.Errorf("MaxFloat64: %v %v", assign, total)
	}
}

// TestHungarianHuge: finite costs near the float64 range, whose dual
// potentials overflowed (Hungarian then looped forever on the first case),
// give an optimal assignment. The brute force runs on the costs scaled by
// 2⁻⁶⁴, whose sums cannot overflow; the tolerance is the rounding of sums
// of entries of magnitude 2⁻⁶⁴·1.8·10³⁰⁸.
func TestHungarianHuge(t *testing.T) {
	const big = math.MaxFloat64
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Row 0 → 1, row 1 → 0 costs 1e308 − big < 0 = the other way.
		assign, total := Hungarian([][]float64{{-1e308, 1e308}, {-big, 1e308}})
		if assign[0] != 1 || assign[1] != 0 || total != 1e308-big {
			t.Errorf("assignment %v total %v, want [1 0] %v", assign, total, 1e308-big)
		}
		rng := rand.New(rand.NewPCG(21, 22))
		vals := []float64{big, -big, 1e308, -1e308, 9e307, -5e307, 3e307, 1, -1, 0}
		for rep := range 3000 {
			r, c := 1+rng.IntN(5), 1+rng.IntN(5)
			cost := make([][]float64, r)
			scaled := make([][]float64, r)
			for i := range cost {
				cost[i] = make([]float64, c)
				scaled[i] = make([]float64, c)
				for j := range cost[i] {
					cost[i][j] = vals[rng.IntN(len(vals))]
					scaled[i][j] = cost[i][j] * 0x1p-64
				}
			}
			assign, _ := Hungarian(cost)
			got := 0.0
			for i, j := range assign {
				if j >= 0 {
					got += scaled[i][j]
				}
			}
			if want := bruteAssign(scaled); math.Abs(got-want) > 1e-12*0x1p-64*big*float64(max(r, c)) {
				t.Errorf("rep %d: %v: scaled total %v, optimum %v", rep, cost, got, want)
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Hungarian did not return within a minute")
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
