package constraint

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// chiSquareLimit is the 1 − 10⁻⁶ quantile of χ² with df degrees of freedom:
// a correct sampler exceeds it once in a million seeds.
func chiSquareLimit(df int) float64 {
	return distuv.ChiSquared{K: float64(df)}.Quantile(1 - 1e-6)
}

// chiSquare returns Σ (obs − exp)² / exp.
func chiSquare(obs []int, exp []float64) float64 {
	var s float64
	for a, o := range obs {
		d := float64(o) - exp[a]
		s += d * d / exp[a]
	}
	return s
}

func pcg(seed uint64) rand.Source { return rand.NewPCG(seed, 0x9e3779b97f4a7c15) }

func TestPairIndexRoundTrip(t *testing.T) {
	// Expected order written out by hand from the definition b(b−1)/2 + a.
	want := [][2]int{{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}, {0, 4}}
	for k, w := range want {
		i, j := PairAt(int64(k))
		if i != w[0] || j != w[1] {
			t.Errorf("PairAt(%d) = (%d,%d), want (%d,%d)", k, i, j, w[0], w[1])
		}
		if got := PairIndex(w[1], w[0]); got != int64(k) {
			t.Errorf("PairIndex(%d,%d) = %d, want %d", w[1], w[0], got, k)
		}
	}
	// Brute force over all pairs of small n: the indices of the pairs of
	// 0…n−1 are exactly 0…n(n−1)/2−1.
	for _, n := range []int{1, 2, 3, 5, 10, 70} {
		seen := make([]bool, NumPairs(n))
		for j := range n {
			for i := range j {
				k := PairIndex(i, j)
				if k < 0 || k >= NumPairs(n) || seen[k] {
					t.Fatalf("n=%d: PairIndex(%d,%d) = %d repeated or out of range", n, i, j, k)
				}
				seen[k] = true
				if a, b := PairAt(k); a != i || b != j {
					t.Fatalf("PairAt(%d) = (%d,%d), want (%d,%d)", k, a, b, i, j)
				}
			}
		}
	}
	// Large indices near the squares where the float estimate could round
	// the wrong way (those of nodes PairAt can return: below 2³¹ − 1 where
	// int has 32 bits).
	for _, b := range []int64{1 << 20, 1e6, 1<<31 - 2, 1<<31 - 1, 3037000499} {
		if b >= maxIndexNodes {
			continue
		}
		for _, a := range []int64{0, 1, b / 2, b - 1} {
			t0 := b*(b-1)/2 + a
			i, j := PairAt(t0)
			if int64(i) != a || int64(j) != b {
				t.Errorf("PairAt(%d) = (%d,%d), want (%d,%d)", t0, i, j, a, b)
			}
		}
	}
}

// TestPairIndexDomain: at the ends of the domain the two functions still
// invert each other, and beyond it they panic: PairIndex(0, 3037000501)
// returned a negative index, and PairAt(2⁶² − 1) never returned (review
// 109). The domain's end is computed here from its definition, the
// largest m with m(m−1) < 2⁶³ and at most math.MaxInt (which bounds it
// where int has 32 bits), in exact big-integer arithmetic.
func TestPairIndexDomain(t *testing.T) {
	two63 := new(big.Int).Lsh(big.NewInt(1), 63)
	m := new(big.Int).Sqrt(two63)
	prod := func(m *big.Int) *big.Int { return new(big.Int).Mul(m, new(big.Int).Sub(m, big.NewInt(1))) }
	for prod(m).Cmp(two63) >= 0 {
		m.Sub(m, big.NewInt(1))
	}
	for prod(new(big.Int).Add(m, big.NewInt(1))).Cmp(two63) < 0 {
		m.Add(m, big.NewInt(1))
	}
	if maxInt := big.NewInt(math.MaxInt); m.Cmp(maxInt) > 0 {
		m = maxInt
	}
	if m.Int64() != maxIndexNodes || new(big.Int).Rsh(prod(m), 1).Int64() != maxPairIndex {
		t.Fatalf("maxIndexNodes %d, maxPairIndex %d; by definition %v and %v", maxIndexNodes, int64(maxPairIndex), m, new(big.Int).Rsh(prod(m), 1))
	}
	last := int64(maxPairIndex) - 1
	if i, j := PairAt(last); i != maxIndexNodes-2 || j != maxIndexNodes-1 || PairIndex(i, j) != last {
		t.Errorf("PairAt(%d) = (%d, %d)", last, i, j)
	}
	panics := func(name string, f func()) {
		t.Helper()
		done := make(chan any, 1)
		go func() {
			defer func() { done <- recover() }()
			f()
		}()
		select {
		case r := <-done:
			if r == nil {
				t.Errorf("%s did not panic", name)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s did not return within 5 s", name)
		}
	}
	panics("PairAt(maxPairIndex)", func() { PairAt(maxPairIndex) })
	panics("PairAt(2⁶² − 1)", func() { PairAt(1<<62 - 1) })
	panics("PairAt(MaxInt64)", func() { PairAt(math.MaxInt64) })
	panics("PairIndex(0, maxIndexNodes)", func() { PairIndex(0, maxIndexNodes) })
	if far := int64(4000000000); far <= math.MaxInt { // beyond every int where int has 32 bits
		panics("PairIndex(1, 4·10⁹)", func() { PairIndex(1, int(far)) })
	}
}

// blocks returns a partition with the given class sizes, interleaved so that
// classes are not contiguous.
func interleaved(sizes ...int) []int {
	var out []int
	left := slices.Clone(sizes)
	for {
		done := true
		for c := range left {
			if left[c] > 0 {
				out = append(out, c)
				left[c]--
				done = false
			}
		}
		if done {
			return out
		}
	}
}

func withinPairs(truth []int) int64 {
	count := map[int]int{}
	for _, c := range truth {
		count[c]++
	}
	var s int64
	for _, c := range count {
		s += NumPairs(c)
	}
	return s
}

func checkOracle(t *testing.T, s *Set, truth []int) {
	t.Helper()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.N != len(truth) {
		t.Fatalf("N = %d, want %d", s.N, len(truth))
	}
	seen := map[int64]bool{}
	for _, p := range s.Pairs {
		if p.I >= p.J {
			t.Fatalf("pair (%d,%d) not ordered", p.I, p.J)
		}
		if seen[PairIndex(p.I, p.J)] {
			t.Fatalf("pair (%d,%d) repeated", p.I, p.J)
		}
		seen[PairIndex(p.I, p.J)] = true
		if (truth[p.I] == truth[p.J]) != (p.Kind == MustLink) {
			t.Fatalf("pair (%d,%d) kind %v, classes %d,%d", p.I, p.J, p.Kind, truth[p.I], truth[p.J])
		}
	}
}

func TestBernoulliPairsStatistics(t *testing.T) {
	tests := []struct {
		name  string
		truth []int
		p     float64
		reps  int
	}{
		{"1/n n=200 3 classes", interleaved(100, 60, 40), 1.0 / 200, 400},
		{"p=0.3 n=12", interleaved(6, 4, 2), 0.3, 2000},
		{"p=0.9 n=30", interleaved(10, 10, 10), 0.9, 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.truth)
			total := NumPairs(n)
			q := float64(withinPairs(tc.truth)) / float64(total) // must-link share
			hist := make([]int, total)
			sum, ml := 0, 0
			for r := range tc.reps {
				s, err := BernoulliPairs(tc.truth, tc.p, pcg(uint64(r)))
				if err != nil {
					t.Fatal(err)
				}
				checkOracle(t, s, tc.truth)
				for k, pr := range s.Pairs {
					if k > 0 && PairIndex(s.Pairs[k-1].I, s.Pairs[k-1].J) >= PairIndex(pr.I, pr.J) {
						t.Fatal("pairs not in increasing PairIndex order")
					}
					hist[PairIndex(pr.I, pr.J)]++
				}
				sum += len(s.Pairs)
				a, _ := s.Count()
				ml += a
			}
			// Total count ~ Binomial(reps·N, p): within 5 standard deviations.
			mean := float64(tc.reps) * float64(total) * tc.p
			sd := math.Sqrt(mean * (1 - tc.p))
			if math.Abs(float64(sum)-mean) > 5*sd {
				t.Errorf("drew %d pairs over %d seeds, want %.1f ± %.1f", sum, tc.reps, mean, 5*sd)
			}
			// Must-links among them ~ Binomial(sum, q).
			mlMean := float64(sum) * q
			mlSD := math.Sqrt(mlMean * (1 - q))
			if math.Abs(float64(ml)-mlMean) > 5*mlSD+1 {
				t.Errorf("%d must-links of %d, want %.1f ± %.1f", ml, sum, mlMean, 5*mlSD)
			}
			// Each pair independently with probability p: its count over the
			// seeds is Binomial(reps, p); the variance-scaled χ² has N degrees.
			var chi float64
			e := float64(tc.reps) * tc.p
			for _, c := range hist {
				d := float64(c) - e
				chi += d * d / (e * (1 - tc.p))
			}
			if lim := chiSquareLimit(int(total)); chi > lim {
				t.Errorf("pair frequencies χ² = %.1f > %.1f", chi, lim)
			}
		})
	}
}

func TestBernoulliPairsEdges(t *testing.T) {
	truth := interleaved(3, 2)
	s, err := BernoulliPairs(truth, 0, nil)
	if err != nil || len(s.Pairs) != 0 {
		t.Errorf("p=0: %v pairs, err %v", s, err)
	}
	s, err = BernoulliPairs(truth, 1, nil)
	if err != nil || len(s.Pairs) != 10 {
		t.Errorf("p=1: got %d pairs, want all 10 (err %v)", len(s.Pairs), err)
	}
	s, err = BernoulliPairs(nil, 0.5, nil)
	if err != nil || s.N != 0 || len(s.Pairs) != 0 {
		t.Errorf("no nodes: %+v %v", s, err)
	}
	for _, p := range []float64{-0.1, 1.5, math.NaN()} {
		if _, err := BernoulliPairs(truth, p, nil); err == nil {
			t.Errorf("p=%v: no error", p)
		}
	}
	if _, err := BernoulliPairs([]int{0, -1}, 0.5, nil); err == nil {
		t.Error("negative reference label: no error")
	}
}

func TestGeneratorsDeterministic(t *testing.T) {
	truth := interleaved(40, 30, 20, 10)
	gens := map[string]func(src rand.Source) any{
		"BernoulliPairs": func(src rand.Source) any { s, _ := BernoulliPairs(truth, 0.05, src); return s },
		"FractionPairs":  func(src rand.Source) any { s, _ := FractionPairs(truth, 0.02, src); return s },
		"FractionLabels": func(src rand.Source) any { l, _ := FractionLabels(truth, 0.1, src); return l },
		"LabelSets":      func(src rand.Source) any { l, _ := LabelSets(truth, 0.25, src); return l },
		"UniformMustLinks": func(src rand.Source) any {
			s, _ := UniformMustLinks(truth, 50, src)
			return s
		},
		"MustLinksUniformity": func(src rand.Source) any {
			s, _ := MustLinksUniformity(truth, 50, 0.3, src)
			return s
		},
		"FlipLabels": func(src rand.Source) any {
			l, _, _ := FlipLabels(Labels(truth), 0.1, 4, src)
			return l
		},
	}
	for name, gen := range gens {
		t.Run(name, func(t *testing.T) {
			a, b := gen(pcg(7)), gen(pcg(7))
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Error("same seed, different output")
			}
			if x, y := gen(nil), gen(nil); fmt.Sprint(x) != fmt.Sprint(y) {
				t.Error("nil source, different output")
			}
			if fmt.Sprint(a) == fmt.Sprint(gen(pcg(8))) {
				t.Error("seeds 7 and 8 gave the same output")
			}
		})
	}
}

func TestUniformPairs(t *testing.T) {
	// Both branches of sampleIndices: Floyd (m < N/8) and selection
	// sampling (m ≥ N/8).
	tests := []struct {
		name string
		n, m int
		reps int
	}{
		{"floyd", 12, 5, 6000},
		{"selection", 12, 40, 3000},
		{"all", 6, 15, 3},
		{"none", 6, 0, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			truth := interleaved(tc.n/2, tc.n-tc.n/2)
			total := NumPairs(tc.n)
			hist := make([]int, total)
			for r := range tc.reps {
				s, err := UniformPairs(truth, tc.m, pcg(uint64(r)))
				if err != nil {
					t.Fatal(err)
				}
				checkOracle(t, s, truth)
				if len(s.Pairs) != tc.m {
					t.Fatalf("%d pairs, want %d", len(s.Pairs), tc.m)
				}
				for _, p := range s.Pairs {
					hist[PairIndex(p.I, p.J)]++
				}
			}
			if tc.m == 0 || int64(tc.m) == total {
				return
			}
			// Each pair is included with probability m/N; the inclusion
			// counts are negatively correlated (fixed sum), which only
			// lowers the χ² statistic below that of independent counts.
			f := float64(tc.m) / float64(total)
			e := float64(tc.reps) * f
			var chi float64
			for _, c := range hist {
				d := float64(c) - e
				chi += d * d / (e * (1 - f))
			}
			if lim := chiSquareLimit(int(total)); chi > lim {
				t.Errorf("inclusion χ² = %.1f > %.1f", chi, lim)
			}
		})
	}
	if _, err := UniformPairs(interleaved(2, 2), 7, nil); err == nil {
		t.Error("7 pairs of 4 nodes: no error")
	}
	s, err := FractionPairs(interleaved(50, 50), 0.01, nil)
	if err != nil || len(s.Pairs) != 50 { // round(0.01·4950) = 50
		t.Errorf("FractionPairs 1%% of 4950: %d pairs, %v", len(s.Pairs), err)
	}
}

var sinkSet *Set

// BenchmarkPairs1e6 draws the FGPWC constraints (p = 1/n) on n = 10⁶ nodes:
// about 5·10⁵ pairs.
func BenchmarkPairs1e6(b *testing.B) {
	const n = 1_000_000
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % 10
	}
	b.ReportAllocs()
	for r := 0; b.Loop(); r++ {
		s, err := BernoulliPairs(truth, 1.0/n, pcg(uint64(r)))
		if err != nil {
			b.Fatal(err)
		}
		sinkSet = s
	}
	b.ReportMetric(float64(len(sinkSet.Pairs)), "pairs")
}

// BenchmarkFractionPairs1e6 draws 5·10⁵ distinct pairs on 10⁶ nodes.
func BenchmarkFractionPairs1e6(b *testing.B) {
	const n = 1_000_000
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % 10
	}
	for r := 0; b.Loop(); r++ {
		s, err := UniformPairs(truth, 500_000, pcg(uint64(r)))
		if err != nil {
			b.Fatal(err)
		}
		sinkSet = s
	}
}
