package constraint

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestTable41(t *testing.T) {
	// Sizes copied from seed 000 Table 4.1; each partition has 500 nodes.
	want := map[string][]int{
		"A": {100, 100, 100, 100, 100},
		"B": {144, 125, 100, 75, 56},
		"C": {175, 150, 100, 50, 25},
		"D": {250, 125, 63, 31, 31},
	}
	for name, w := range want {
		got, err := Table41(name)
		if err != nil || !slices.Equal(got, w) {
			t.Errorf("Table41(%s) = %v, %v; want %v", name, got, err, w)
		}
		if l := BlockLabels(got); len(l) != 500 {
			t.Errorf("partition %s has %d nodes, want 500", name, len(l))
		}
	}
	if _, err := Table41("E"); err == nil {
		t.Error("Table41(E): no error")
	}
	if got := BlockLabels([]int{2, 0, 1}); !slices.Equal(got, []int{0, 0, 2}) {
		t.Errorf("BlockLabels = %v", got)
	}
}

func TestConnectivityThreshold(t *testing.T) {
	// Σ (n_c − 1)/2 · ln n_c by hand (natural logarithm):
	// A: 5 · 99/2 · ln 100 = 5 · 227.95 = 1139.75 → 1140, the thesis's "228 × 5 = 1140".
	// D: 124.5·ln 250 + 62·ln 125 + 31·ln 63 + 2·15·ln 31 = 687.42 + 299.35 + 128.44 + 103.02 = 1218.2.
	tests := []struct {
		sizes []int
		want  int
	}{
		{[]int{100, 100, 100, 100, 100}, 1140},
		{[]int{250, 125, 63, 31, 31}, 1218},
		{[]int{1, 0}, 0},
		{[]int{2}, 0}, // 1/2 · ln 2 = 0.35
	}
	for _, tc := range tests {
		if got := ConnectivityThreshold(tc.sizes); got != tc.want {
			t.Errorf("ConnectivityThreshold(%v) = %d, want %d", tc.sizes, got, tc.want)
		}
	}
}

func TestUniformMustLinks(t *testing.T) {
	truth := interleaved(5, 4, 1) // 10 + 6 = 16 correct must-links
	const m, reps = 3, 8000
	hist := map[int64]int{}
	for r := range reps {
		s, err := UniformMustLinks(truth, m, pcg(uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		checkOracle(t, s, truth)
		if ml, cl := s.Count(); ml != m || cl != 0 {
			t.Fatalf("%d must-links, %d cannot-links; want %d, 0", ml, cl, m)
		}
		for _, p := range s.Pairs {
			hist[PairIndex(p.I, p.J)]++
		}
	}
	if len(hist) != 16 {
		t.Fatalf("%d distinct must-links drawn, want 16", len(hist))
	}
	// Inclusion probability m/16 for each.
	f := float64(m) / 16
	var chi float64
	for _, c := range hist {
		d := float64(c) - reps*f
		chi += d * d / (reps * f * (1 - f))
	}
	if lim := chiSquareLimit(16); chi > lim {
		t.Errorf("inclusion χ² = %.1f > %.1f", chi, lim)
	}
	if _, err := UniformMustLinks(truth, 17, nil); err == nil {
		t.Error("17 of 16 must-links: no error")
	}
}

func shares(p, q Pair) bool { return p.I == q.I || p.I == q.J || p.J == q.I || p.J == q.J }

// TestMustLinksUniformityInvariants drives the process to exhaustion, through
// both rejection samplers and both exact fallbacks: every pair drawn is a
// new correct must-link, and with α = 0 each one after the first shares a
// node with an earlier one whenever such a remaining must-link exists
// (checked by brute force).
func TestMustLinksUniformityInvariants(t *testing.T) {
	truth := interleaved(7, 5, 3, 1)
	all := withinPairs(truth) // 21 + 10 + 3 = 34
	for _, alpha := range []float64{0, 0.3, 1} {
		for r := range 50 {
			s, err := MustLinksUniformity(truth, int(all), alpha, pcg(uint64(r)))
			if err != nil {
				t.Fatal(err)
			}
			checkOracle(t, s, truth)
			if int64(len(s.Pairs)) != all {
				t.Fatalf("%d pairs, want %d", len(s.Pairs), all)
			}
			if alpha != 0 {
				continue
			}
			for k := 1; k < len(s.Pairs); k++ {
				if slices.ContainsFunc(s.Pairs[:k], func(q Pair) bool { return shares(q, s.Pairs[k]) }) {
					continue
				}
				// Not adjacent: there must have been no adjacent candidate.
				for b := range len(truth) {
					for a := range b {
						cand := Pair{I: a, J: b, Kind: MustLink}
						if truth[a] != truth[b] || slices.Contains(s.Pairs[:k], cand) {
							continue
						}
						if slices.ContainsFunc(s.Pairs[:k], func(q Pair) bool { return shares(q, cand) }) {
							t.Fatalf("seed %d step %d: drew non-adjacent %v while %v was available", r, k, s.Pairs[k], cand)
						}
					}
				}
			}
		}
	}
	if _, err := MustLinksUniformity(truth, 5, 1.5, nil); err == nil {
		t.Error("α = 1.5: no error")
	}
}

// TestMustLinksUniformityAdjacentUniform checks the α = 0 rule on one class
// of 5 nodes: given the first two picks, the third is uniform among the
// remaining pairs sharing a node with them. When the two picks share a node
// the 7 candidates include the pair closing the triangle, whose two nodes
// are both touched, so this exercises the ½ acceptance of the sampler. The
// expected distribution is the uniform one by the definition in seed 000
// §4.1.3; candidates are enumerated by brute force.
func TestMustLinksUniformityAdjacentUniform(t *testing.T) {
	truth := []int{0, 0, 0, 0, 0}
	const reps = 60000
	type state struct{ a, b int64 } // first two picks, a < b
	counts := map[state]map[int64]int{}
	for r := range reps {
		s, err := MustLinksUniformity(truth, 3, 0, pcg(uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		a, b := PairIndex(s.Pairs[0].I, s.Pairs[0].J), PairIndex(s.Pairs[1].I, s.Pairs[1].J)
		st := state{min(a, b), max(a, b)}
		if counts[st] == nil {
			counts[st] = map[int64]int{}
		}
		counts[st][PairIndex(s.Pairs[2].I, s.Pairs[2].J)]++
	}
	var chi float64
	df := 0
	for st, c := range counts {
		p1, p2 := pairOf(st.a), pairOf(st.b)
		var cand []int64
		for t0 := range NumPairs(5) {
			q := pairOf(t0)
			if t0 != st.a && t0 != st.b && (shares(q, p1) || shares(q, p2)) {
				cand = append(cand, t0)
			}
		}
		total := 0
		obs := make([]int, len(cand))
		for a, t0 := range cand {
			obs[a] = c[t0]
			total += c[t0]
		}
		for t0 := range c {
			if !slices.Contains(cand, t0) {
				t.Fatalf("after %v, %v: drew %v, not adjacent", p1, p2, pairOf(t0))
			}
		}
		exp := make([]float64, len(cand))
		for a := range exp {
			exp[a] = float64(total) / float64(len(cand))
		}
		chi += chiSquare(obs, exp)
		df += len(cand) - 1
	}
	if lim := chiSquareLimit(df); chi > lim {
		t.Errorf("third pick χ² = %.1f > %.1f (df %d)", chi, lim, df)
	}
}

func pairOf(t int64) Pair {
	i, j := PairAt(t)
	return Pair{I: i, J: j, Kind: MustLink}
}

// TestMustLinksUniformityMix checks the mixture: after a first must-link in
// a class of n_c nodes, the second shares a node with it with probability
// α·A/(M−1) + (1 − α), A = 2(n_c − 2) adjacent pairs, M = Σ C(n_c, 2); the
// first pick is in class c with probability C(n_c,2)/M.
func TestMustLinksUniformityMix(t *testing.T) {
	truth := interleaved(6, 4) // M = 15 + 6 = 21
	const M, reps = 21.0, 20000
	for _, alpha := range []float64{0, 0.25, 0.5, 1} {
		t.Run(fmt.Sprint(alpha), func(t *testing.T) {
			adjacent := 0
			for r := range reps {
				s, err := MustLinksUniformity(truth, 2, alpha, pcg(uint64(r)))
				if err != nil {
					t.Fatal(err)
				}
				if shares(s.Pairs[0], s.Pairs[1]) {
					adjacent++
				}
			}
			// P(adjacent | uniform) = (15/21)·(8/20) + (6/21)·(4/20).
			pu := 15/M*8/(M-1) + 6/M*4/(M-1)
			p := alpha*pu + (1 - alpha)
			sd := math.Sqrt(reps * p * (1 - p))
			if math.Abs(float64(adjacent)-reps*p) > 5*sd+0.5 {
				t.Errorf("second pick adjacent %d times of %d, want %.0f ± %.0f", adjacent, reps, reps*p, 5*sd)
			}
		})
	}
}
