package pitmanyor

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// seqLogProb is log p(Z) as the product of the seating probabilities of
// thesis §5.1.3, customer by customer in the order of labels: written
// independently of LogProb's closed form.
func seqLogProb(c CRP, labels []int) float64 {
	size := map[int]int{}
	lp := 0.0
	for m, l := range labels {
		k := len(size)
		if m > 0 {
			if s, ok := size[l]; ok {
				lp += math.Log((float64(s) - c.Theta) / (c.Alpha + float64(m)))
			} else {
				lp += math.Log((c.Alpha + float64(k)*c.Theta) / (c.Alpha + float64(m)))
			}
		}
		size[l]++
	}
	return lp
}

var params = []struct {
	name string
	c    CRP
}{
	{"DP a1", CRP{1, 0}},
	{"a1 t0.5", CRP{1, 0.5}},
	{"a10 t0.2", CRP{10, 0.2}},
	{"a-0.3 t0.5", CRP{-0.3, 0.5}},
	{"a0 t0.7", CRP{0, 0.7}},
	{"a1e9 t0.9", CRP{1e9, 0.9}},
	{"a2 t1e-9", CRP{2, 1e-9}},
	{"a0.01 t0.99", CRP{0.01, 0.99}},
}

func TestLogProbAgainstSequentialProduct(t *testing.T) {
	for _, p := range params {
		for _, n := range []int{1, 2, 3, 5, 10, 70, 1000} {
			z, err := p.c.Sample(n, rand.NewPCG(1, uint64(n)))
			if err != nil {
				t.Fatal(err)
			}
			// A random relabelling and a random order of the customers: the
			// closed form is exchangeable, the sequential product of the
			// permuted sequence must agree.
			r := rand.New(rand.NewPCG(2, uint64(n)))
			perm := r.Perm(n)
			zp := make([]int, n)
			for i, j := range perm {
				zp[i] = 7*z[j] - 3
			}
			got, err := p.c.LogProb(zp)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []float64{seqLogProb(p.c, z), seqLogProb(p.c, zp)} {
				if math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
					t.Errorf("%s n=%d: LogProb %.15g, sequential product %.15g", p.name, n, got, want)
				}
			}
		}
	}
}

// partitions calls f with every partition of n items as a restricted
// growth string.
func partitions(n int, f func([]int)) {
	z := make([]int, n)
	var rec func(i, k int)
	rec = func(i, k int) {
		if i == n {
			f(z)
			return
		}
		for c := 0; c <= k; c++ {
			z[i] = c
			rec(i+1, max(k, c+1))
		}
	}
	rec(0, 0)
}

func TestLogProbSumsToOne(t *testing.T) {
	for _, p := range params {
		for _, n := range []int{1, 4, 7} {
			total, count := 0.0, 0
			partitions(n, func(z []int) {
				lp, _ := p.c.LogProb(z)
				total += math.Exp(lp)
				count++
			})
			// Bell numbers B_1 = 1, B_4 = 15, B_7 = 877.
			if want := map[int]int{1: 1, 4: 15, 7: 877}[n]; count != want {
				t.Fatalf("%d partitions of %d, want %d", count, n, want)
			}
			if math.Abs(total-1) > 1e-12 {
				t.Errorf("%s n=%d: Σ p(Z) = %.15g", p.name, n, total)
			}
		}
	}
}

func TestSampleDistribution(t *testing.T) {
	// Frequencies of the 52 partitions of 5 customers over 10⁵ draws
	// against exp(LogProb), each within 5 binomial standard deviations
	// (+1 for rounding); Sample's labels are restricted growth strings.
	for _, p := range []CRP{{1, 0.5}, {-0.3, 0.5}, {2, 0}} {
		const draws = 100000
		count := map[[5]int]int{}
		r := rand.NewPCG(3, 0)
		for range draws {
			z, _ := p.Sample(5, r)
			count[[5]int(z)]++
		}
		partitions(5, func(z []int) {
			lp, _ := p.LogProb(z)
			q := math.Exp(lp)
			sd := math.Sqrt(draws * q * (1 - q))
			if got := float64(count[[5]int(z)]); math.Abs(got-draws*q) > 5*sd+1 {
				t.Errorf("%+v: partition %v drawn %v times, expected %.1f ± %.1f", p, z, got, draws*q, sd)
			}
		})
	}
}

func TestExpectedClustersAgainstRecursion(t *testing.T) {
	for _, p := range params {
		e := 1.0 // E[K_1]
		for n := 1; n <= 20000; n++ {
			if n > 1 {
				e += (p.c.Alpha + p.c.Theta*e) / (p.c.Alpha + float64(n-1))
			}
			if n <= 10 || n%997 == 0 || n == 20000 {
				got, err := p.c.ExpectedClusters(n)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(got-e) > 1e-9*e {
					t.Fatalf("%s: E[K_%d] = %.15g, recursion %.15g", p.name, n, got, e)
				}
			}
		}
	}
	if e, _ := (CRP{1, 0.5}).ExpectedClusters(0); e != 0 {
		t.Errorf("E[K_0] = %v", e)
	}
}

// TestExpectedClustersSmallDiscount: θ just above the recursion's
// threshold 10⁻⁶ and large n, where the difference of two Lgamma values
// of about n·ln n lost 1.6·10⁻⁵ of E[K_n] at α = 0.5, θ = 10⁻⁶, n = 10⁵
// (6·10⁻⁴ at n = 10⁷; review 109). Against the recursion E[K_{m+1}] =
// E[K_m] + (α + θE[K_m])/(α + m), run here in float64 (a sum of positive
// terms, relative error about n·ε = 2·10⁻¹⁰ at n = 10⁶).
func TestExpectedClustersSmallDiscount(t *testing.T) {
	for _, tc := range []struct {
		alpha, theta float64
		n            int
	}{
		{0.5, 1e-6, 100000},
		{0.5, 1e-5, 1000000},
		{0.5, 1e-3, 1000000},
		{100, 1e-4, 1000000},
		{1, 0.5, 1000000},
		{5, 0.9, 100000},
	} {
		e := 1.0
		for m := 1; m < tc.n; m++ {
			e += (tc.alpha + tc.theta*e) / (tc.alpha + float64(m))
		}
		got, err := CRP{tc.alpha, tc.theta}.ExpectedClusters(tc.n)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-e) > 1e-8*e {
			t.Errorf("α = %v, θ = %v: E[K_%d] = %.15g, recursion %.15g (relative error %.2g)", tc.alpha, tc.theta, tc.n, got, e, math.Abs(got-e)/e)
		}
	}
}

func TestClusterGrowthBySimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	for _, c := range []CRP{{1, 0.5}, {5, 0.25}, {0.5, 0.75}} {
		// E[K_n] = C·n^θ·(1 + O(1/n)) − α/θ (ExpectedClusters): the log–log
		// slope of E[K_n] + α/θ between n = 10⁵ and 10⁶ is within 0.001 of θ.
		// (Without the offset the slope converges slowly: 0.267 for
		// α = 5, θ = 0.25.)
		off := c.Alpha / c.Theta
		e5, _ := c.ExpectedClusters(100000)
		e6, _ := c.ExpectedClusters(1000000)
		if slope := math.Log((e6+off)/(e5+off)) / math.Log(10); math.Abs(slope-c.Theta) > 0.001 {
			t.Errorf("%+v: slope of E[K_n] %v, want θ = %v", c, slope, c.Theta)
		}
		// Simulation: the mean of K_n over 200 partitions within 4 standard
		// errors of E[K_n] at n = 1000 and 8000, and the simulated slope (of
		// the mean plus α/θ) within 0.05 of θ.
		var means [2]float64
		for i, n := range []int{1000, 8000} {
			const reps = 200
			var ks []float64
			for rep := range reps {
				z, _ := c.Sample(n, rand.NewPCG(4, uint64(rep)))
				ks = append(ks, float64(slices.Max(z)+1))
			}
			mean, sd := meanSD(ks)
			want, _ := c.ExpectedClusters(n)
			if se := sd / math.Sqrt(reps); math.Abs(mean-want) > 4*se {
				t.Errorf("%+v n=%d: mean K = %.2f ± %.2f, E[K_n] = %.2f", c, n, mean, se, want)
			}
			means[i] = mean
		}
		if slope := math.Log((means[1]+off)/(means[0]+off)) / math.Log(8); math.Abs(slope-c.Theta) > 0.05 {
			t.Errorf("%+v: simulated slope %v, want θ = %v", c, slope, c.Theta)
		}
	}
}

func meanSD(v []float64) (float64, float64) {
	m := 0.0
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	s := 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return m, math.Sqrt(s / float64(len(v)-1))
}

func TestSampleDeterministic(t *testing.T) {
	c := CRP{1, 0.5}
	a, _ := c.Sample(500, rand.NewPCG(5, 5))
	b, _ := c.Sample(500, rand.NewPCG(5, 5))
	d, _ := c.Sample(500, rand.NewPCG(5, 6))
	if !slices.Equal(a, b) || slices.Equal(a, d) {
		t.Error("same seed must give the same partition, another seed another")
	}
	if z, _ := c.Sample(0, rand.NewPCG(1, 1)); len(z) != 0 {
		t.Error("n = 0")
	}
}

func TestBadInput(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		c    CRP
		want string
	}{
		{"theta 1", CRP{1, 1}, "θ = 1"},
		{"theta negative", CRP{1, -0.1}, "θ = -0.1"},
		{"theta nan", CRP{1, nan}, "θ = NaN"},
		{"alpha = -theta", CRP{-0.5, 0.5}, "α = -0.5, want a finite α > −θ = -0.5"},
		// The bound printed "−θ = -0" (the negated zero) for θ = 0.
		{"alpha 0 theta 0", CRP{0, 0}, "α = 0, want a finite α > −θ = 0"},
		{"alpha nan", CRP{nan, 0.5}, "α = NaN"},
		{"alpha inf", CRP{math.Inf(1), 0.5}, "α = +Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, err := range []error{
				tc.c.Validate(),
				func() error { _, err := tc.c.Sample(3, rand.NewPCG(1, 1)); return err }(),
				func() error { _, err := tc.c.LogProb([]int{0, 0}); return err }(),
				func() error { _, err := tc.c.ExpectedClusters(3); return err }(),
			} {
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("err = %v, want ErrInvalid containing %q", err, tc.want)
				}
			}
		})
	}
	c := CRP{1, 0.5}
	if _, err := c.Sample(MaxN+1, rand.NewPCG(1, 1)); !errors.Is(err, ErrInvalid) {
		t.Errorf("n > MaxN: %v", err)
	}
	if _, err := c.Sample(-1, rand.NewPCG(1, 1)); !errors.Is(err, ErrInvalid) {
		t.Errorf("n < 0: %v", err)
	}
	// A nil source panicked (nil pointer dereference).
	if err := sampleNilSource(c); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "nil random source") {
		t.Errorf("nil source: %v", err)
	}
	if _, err := c.LogProbSizes([]int{3, 0}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "size[1] = 0") {
		t.Errorf("size 0: %v", err)
	}
	if _, err := c.ExpectedClusters(-2); !errors.Is(err, ErrInvalid) {
		t.Errorf("n < 0: %v", err)
	}
}

// sampleNilSource returns the error of c.Sample(3, nil), a panic included.
func sampleNilSource(c CRP) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	_, err = c.Sample(3, nil)
	return err
}

// TestExpectedClustersDirichletLarge: θ = 0 beyond 2²⁰ customers takes
// α(ψ(α+n) − ψ(α)) in O(1) (n = 2·10⁹ took 12.7 s in the O(n) sum).
// References: mpmath's digamma at 40 digits, and for α = 10³⁰⁰ (beyond
// mpmath's digits there) Σ α/(α+i) = n − Σ i/(α+i) = n to 10⁻²⁸⁰.
func TestExpectedClustersDirichletLarge(t *testing.T) {
	for _, tc := range []struct {
		alpha float64
		n     int
		want  float64
	}{
		{2, 2_000_000_000, 41.987257366315778652},
		{1, 1<<20 + 1, 14.440160706610928373}, // the first n past the sum
		{0.01, 1 << 21, 1.1511697601597730097},
		{1e5, 3_000_000, 343399.20432031483271},
		{1e300, 2_000_000, 2e6},
		{5e-324, 1 << 21, 1},
	} {
		got, err := CRP{tc.alpha, 0}.ExpectedClusters(tc.n)
		if err != nil || math.Abs(got-tc.want) > 1e-13*tc.want {
			t.Errorf("α = %v: E[K_%d] = %.17g (%v), want %.17g", tc.alpha, tc.n, got, err, tc.want)
		}
	}
}

// TestExpectedClustersHugeAlpha: α so large that (α+θ)/θ overflows
// gave NaN at n = 1 and +Inf beyond with a nil error (review 134). E[K_n]
// = n − Σ_{i<n} (i − θE[K_i])/(α+i) is n to within n²/α, below 10⁻²⁰⁰ of
// it here, so the reference is n.
func TestExpectedClustersHugeAlpha(t *testing.T) {
	for _, c := range []struct {
		alpha, theta float64
	}{{math.MaxFloat64, 0.5}, {1e308, 0.5}, {2e302, 1e-6}, {1e260, 0.9}} {
		for _, n := range []int{1, 2, 1000, min(1<<40, math.MaxInt)} {
			got, err := CRP{c.alpha, c.theta}.ExpectedClusters(n)
			if err != nil || got != float64(n) {
				t.Errorf("α = %g, θ = %g: E[K_%d] = %v (%v), want %d", c.alpha, c.theta, n, got, err, n)
			}
		}
	}
}

// TestLogProbTinyDiscount: α/θ overflows (θ tiny or subnormal, or α near
// the largest float64) while ln(α + iθ) does not: LogProbSizes gave +Inf.
// References: for sizes [1, 1], ln((α + θ)/(α + 1)) (the second customer
// opens a table), ln ½ for α = 1, and 0 to 10⁻³⁰⁸ for the largest α; for
// sizes [3, 2, 1], the product of the seating probabilities (seqLogProb).
// With θ = 0 and a subnormal α, ln α was misread by math.Log
// (golang/go#56600): ln p([1, 1]) = ln α − ln(1 + α) = −1074 ln 2.
func TestLogProbTinyDiscount(t *testing.T) {
	for _, tc := range []struct {
		c     CRP
		sizes []int
		want  float64
	}{
		{CRP{1, 5e-324}, []int{1, 1}, -math.Ln2},
		{CRP{1, 1e-310}, []int{1, 1}, -math.Ln2},
		{CRP{1, 1e-301}, []int{1, 1}, -math.Ln2},
		{CRP{math.MaxFloat64, 0.5}, []int{1, 1}, 0},
		{CRP{2, 1e-305}, []int{3, 2, 1}, seqLogProb(CRP{2, 1e-305}, []int{0, 0, 0, 1, 1, 2})},
		{CRP{0x1p-1074, 0}, []int{1, 1}, -1074 * math.Ln2},
	} {
		got, err := tc.c.LogProbSizes(tc.sizes)
		if err != nil || math.Abs(got-tc.want) > 1e-12*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%+v: LogProbSizes(%v) = %.17g (%v), want %.17g", tc.c, tc.sizes, got, err, tc.want)
		}
	}
}
