package synth

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/graph"
)

// TestDCSBMEdgeCount checks the sampled graph against the model's closed
// form: given the θ drawn, edges are independent with
// P(i ~ j) = 1 − exp(−θ_iθ_jB_{g_ig_j}/n), so the edge count has mean
// Σ_{i<j} p_ij and variance Σ p_ij(1 − p_ij), computed here by brute force
// over all pairs. The count must lie within 5 standard deviations, and so
// must the count inside blocks.
func TestDCSBMEdgeCount(t *testing.T) {
	for _, tc := range []struct {
		n, k            int
		cin, cout, gamm float64
	}{
		{300, 2, 10, 2, 0},
		{300, 3, 12, 3, 2.5},
		{500, 4, 6, 1, 3},
		{200, 1, 8, 0, 2.2},
	} {
		t.Run(fmt.Sprintf("n=%d k=%d γ=%g", tc.n, tc.k, tc.gamm), func(t *testing.T) {
			for seed := uint64(1); seed <= 3; seed++ {
				g, labels, theta, err := DCSBM(tc.n, tc.k, tc.cin, tc.cout, tc.gamm, rand.NewPCG(seed, 5))
				if err != nil {
					t.Fatal(err)
				}
				var mean, vr, meanIn, vrIn float64
				for i := 0; i < tc.n; i++ {
					for j := i + 1; j < tc.n; j++ {
						c := tc.cout
						if labels[i] == labels[j] {
							c = tc.cin
						}
						p := -math.Expm1(-theta[i] * theta[j] * c / float64(tc.n))
						mean += p
						vr += p * (1 - p)
						if labels[i] == labels[j] {
							meanIn += p
							vrIn += p * (1 - p)
						}
					}
				}
				var m, in float64
				for _, e := range g.Edges() {
					if e.I == e.J || e.W != 1 {
						t.Fatalf("edge %+v: want a simple unweighted graph", e)
					}
					m++
					if labels[e.I] == labels[e.J] {
						in++
					}
				}
				if z := (m - mean) / math.Sqrt(vr); math.Abs(z) > 5 {
					t.Errorf("seed %d: %g edges, expected %.1f ± %.1f (z = %.2f)", seed, m, mean, math.Sqrt(vr), z)
				}
				if z := (in - meanIn) / math.Sqrt(vrIn); math.Abs(z) > 5 {
					t.Errorf("seed %d: %g edges inside blocks, expected %.1f ± %.1f", seed, in, meanIn, math.Sqrt(vrIn))
				}
				// θ has mean 1 in each block; all 1 without correction.
				sum := make([]float64, tc.k)
				cnt := make([]float64, tc.k)
				for i, th := range theta {
					sum[labels[i]] += th
					cnt[labels[i]]++
					if tc.gamm == 0 && th != 1 {
						t.Fatalf("γ = 0: θ_%d = %v, want 1", i, th)
					}
				}
				for b := range sum {
					if math.Abs(sum[b]/cnt[b]-1) > 1e-12 {
						t.Errorf("block %d: mean θ %v, want 1", b, sum[b]/cnt[b])
					}
				}
			}
		})
	}
}

// TestDCSBMHeterogeneity checks that the power law makes the degrees
// heterogeneous, more so for a smaller exponent, and that the same seed
// gives the same graph.
func TestDCSBMHeterogeneity(t *testing.T) {
	cv := func(gamma float64, seed uint64) float64 {
		g, _, _, err := DCSBM(2000, 2, 10, 2, gamma, rand.NewPCG(seed, 1))
		if err != nil {
			t.Fatal(err)
		}
		return graph.DegreeCV(g)
	}
	// Poisson degrees of mean 6 have CV ≈ 1/√6 ≈ 0.41 (a little less after
	// merging multi-edges); a Pareto θ of exponent 2.5 has a CV above 1.
	if c := cv(0, 1); c < 0.3 || c > 0.5 {
		t.Errorf("γ = 0: degree CV %.3f, want ≈ 0.41", c)
	}
	if a, b := cv(3.5, 1), cv(2.2, 1); !(a > 0.6 && b > a) {
		t.Errorf("degree CV %.3f at γ = 3.5 and %.3f at γ = 2.2: want > 0.6 and increasing as γ falls", a, b)
	}
	g1, _, _, _ := DCSBM(300, 3, 9, 1, 2.5, rand.NewPCG(4, 4))
	g2, _, _, _ := DCSBM(300, 3, 9, 1, 2.5, rand.NewPCG(4, 4))
	if !sameEdges(g1.Edges(), g2.Edges()) {
		t.Error("same seed, different graphs")
	}
}

func sameEdges(a, b []graph.Edge) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDCSBMErrors(t *testing.T) {
	for _, tc := range []struct {
		name            string
		n, k            int
		cin, cout, gamm float64
	}{
		{"no nodes", 0, 1, 1, 1, 0},
		{"k above n", 3, 4, 1, 1, 0},
		{"negative c", 10, 2, -1, 1, 0},
		{"c above n", 10, 2, 11, 1, 0},
		{"gamma 2", 10, 2, 1, 1, 2},
		{"gamma 1.5", 10, 2, 1, 1, 1.5},
		{"gamma negative", 10, 2, 1, 1, -3},
		{"gamma NaN", 10, 2, 1, 1, math.NaN()},
		{"gamma inf", 10, 2, 1, 1, math.Inf(1)},
	} {
		if _, _, _, err := DCSBM(tc.n, tc.k, tc.cin, tc.cout, tc.gamm, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", tc.name, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, _, err := DCSBMContext(ctx, 1000, 2, 10, 2, 2.5, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

func ExampleDCSBM() {
	g, labels, theta, err := DCSBM(1000, 2, 12, 2, 2.5, rand.NewPCG(1, 1))
	if err != nil {
		fmt.Println(err)
		return
	}
	st := g.Stats()
	fmt.Printf("nodes %d, blocks of %d and %d\n", g.N(), count(labels, 0), count(labels, 1))
	// The mean degree is below c = (12 + 2)/2 = 7: the hubs' expected
	// degrees θ_i·c exceed what n − 1 neighbours can give.
	fmt.Printf("mean degree %.1f, max %.0f, θ_max %.1f, degree CV %.2f\n", st.MeanDegree, st.MaxDegree, maxOf(theta), graph.DegreeCV(g))
	// Output:
	// nodes 1000, blocks of 500 and 500
	// mean degree 5.4, max 433, θ_max 194.6, degree CV 2.90
}

func count(l []int, c int) int {
	n := 0
	for _, v := range l {
		if v == c {
			n++
		}
	}
	return n
}

func maxOf(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, v)
	}
	return m
}
