package synth

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
)

type pointGen func(n int, src rand.Source) (*mat.Dense, []int, error)

func generators() map[string]struct {
	gen pointGen
	k   int // number of classes for large n
	dim int
} {
	return map[string]struct {
		gen pointGen
		k   int
		dim int
	}{
		"moons": {func(n int, s rand.Source) (*mat.Dense, []int, error) { return Moons(n, 0.1, s) }, 2, 2},
		"circles": {func(n int, s rand.Source) (*mat.Dense, []int, error) {
			return Circles(n, 0.05, 0.5, s)
		}, 2, 2},
		"interlaced": {func(n int, s rand.Source) (*mat.Dense, []int, error) {
			return InterlacedCircles(n, min(3, n), 0.05, s)
		}, 3, 2},
		"xor":   {func(n int, s rand.Source) (*mat.Dense, []int, error) { return XOR(n, 0.2, s) }, 2, 2},
		"blobs": {func(n int, s rand.Source) (*mat.Dense, []int, error) { return Blobs(n, min(4, n), 3, 1, s) }, 4, 3},
	}
}

func TestShapesAndCounts(t *testing.T) {
	for name, g := range generators() {
		for _, n := range []int{1, 2, 3, 5, 10, 70, 901} {
			x, labels, err := g.gen(n, rand.NewPCG(7, uint64(n)))
			if err != nil {
				t.Fatalf("%s n=%d: %v", name, n, err)
			}
			r, c := x.Dims()
			if r != n || c != g.dim || len(labels) != n {
				t.Fatalf("%s n=%d: %d×%d with %d labels", name, n, r, c, len(labels))
			}
			count := map[int]int{}
			for _, l := range labels {
				count[l]++
			}
			// Balanced: the class sizes differ by at most one point per
			// group (xor has two groups per class).
			lo, hi := n, 0
			for _, v := range count {
				lo, hi = min(lo, v), max(hi, v)
			}
			if n >= 70 && (len(count) != g.k || hi-lo > 2) {
				t.Errorf("%s n=%d: class counts %v", name, n, count)
			}
			for i := 0; i < n; i++ {
				for j := 0; j < c; j++ {
					if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
						t.Fatalf("%s: X[%d,%d] = %v", name, i, j, v)
					}
				}
			}
		}
	}
}

func TestDeterminism(t *testing.T) {
	for name, g := range generators() {
		a, la, _ := g.gen(50, rand.NewPCG(3, 4))
		b, lb, _ := g.gen(50, rand.NewPCG(3, 4))
		c, _, _ := g.gen(50, rand.NewPCG(5, 6))
		d, _, _ := g.gen(50, nil)
		e, _, _ := g.gen(50, nil)
		if !mat.Equal(a, b) || !equalInts(la, lb) || !mat.Equal(d, e) {
			t.Errorf("%s: same seed, different output", name)
		}
		if mat.Equal(a, c) {
			t.Errorf("%s: different seeds, same output", name)
		}
	}
	g1, l1, _ := SBM(300, 3, 8, 2, rand.NewPCG(1, 1))
	g2, l2, _ := SBM(300, 3, 8, 2, rand.NewPCG(1, 1))
	if !mat.Equal(g1.Dense(), g2.Dense()) || !equalInts(l1, l2) {
		t.Error("SBM: same seed, different output")
	}
}

func equalInts(a, b []int) bool {
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

// classStats returns per-class coordinate means and variances.
func classStats(x *mat.Dense, labels []int, class int) (mean, vr []float64, m int) {
	_, d := x.Dims()
	mean, vr = make([]float64, d), make([]float64, d)
	for i, l := range labels {
		if l != class {
			continue
		}
		m++
		for j := 0; j < d; j++ {
			mean[j] += x.At(i, j)
		}
	}
	for j := range mean {
		mean[j] /= float64(m)
	}
	for i, l := range labels {
		if l != class {
			continue
		}
		for j := 0; j < d; j++ {
			v := x.At(i, j) - mean[j]
			vr[j] += v * v / float64(m-1)
		}
	}
	return mean, vr, m
}

func TestMoonsGeometry(t *testing.T) {
	// Without noise every point lies on its circle.
	x, labels, _ := Moons(101, 0, nil)
	for i, l := range labels {
		a, b := x.At(i, 0), x.At(i, 1)
		var r float64
		if l == 0 {
			r = math.Hypot(a, b)
		} else {
			r = math.Hypot(a-1, b-0.5)
		}
		if math.Abs(r-1) > 1e-12 {
			t.Errorf("point %d (label %d) at distance %v from its centre", i, l, r)
		}
	}
	// With noise σ the mean of the outer moon is (0, ȳ) where
	// ȳ = (1/m) Σ_{i<m} sin(iπ/M), M = m−1, = cot(π/2M)/m by the closed form
	// Σ_{i=0}^{M} sin(iθ) = sin(Mθ/2)·sin((M+1)θ/2)/sin(θ/2) at θ = π/M.
	const n, sigma = 20000, 0.3
	x, labels, _ = Moons(n, sigma, rand.NewPCG(11, 12))
	m := n / 2
	M := float64(m - 1)
	want := []float64{0, 1 / math.Tan(math.Pi/(2*M)) / float64(m)}
	mean, _, got := classStats(x, labels, 0)
	if got != m {
		t.Fatalf("%d outer points, want %d", got, m)
	}
	// The noise adds σ/√m standard error to each mean; allow 5 of them.
	tol := 5 * sigma / math.Sqrt(float64(m))
	for j := range want {
		if math.Abs(mean[j]-want[j]) > tol {
			t.Errorf("outer moon mean[%d] = %v, want %v ± %v", j, mean[j], want[j], tol)
		}
	}
}

func TestXORAndBlobsMoments(t *testing.T) {
	const sigma = 0.4
	x, labels, _ := XOR(40000, sigma, rand.NewPCG(5, 5))
	// Group order: (1,1), (−1,−1) with label 0, (1,−1), (−1,1) with label 1.
	centres := [][2]float64{{1, 1}, {-1, -1}, {1, -1}, {-1, 1}}
	for q, c := range centres {
		var s [2]float64
		var ss [2]float64
		m := 10000
		for i := q * m; i < (q+1)*m; i++ {
			if labels[i] != q/2 {
				t.Fatalf("row %d label %d, want %d", i, labels[i], q/2)
			}
			for j := 0; j < 2; j++ {
				v := x.At(i, j) - c[j]
				s[j] += v
				ss[j] += v * v
			}
		}
		for j := 0; j < 2; j++ {
			mean := s[j] / float64(m)
			vr := ss[j] / float64(m)
			// Standard errors: σ/√m for the mean, σ²√(2/m) for the variance.
			if math.Abs(mean) > 5*sigma/math.Sqrt(float64(m)) {
				t.Errorf("xor group %d coord %d: mean offset %v", q, j, mean)
			}
			if math.Abs(vr-sigma*sigma) > 5*sigma*sigma*math.Sqrt(2/float64(m)) {
				t.Errorf("xor group %d coord %d: variance %v, want %v", q, j, vr, sigma*sigma)
			}
		}
	}

	const std = 2.0
	x, labels, _ = Blobs(8000, 4, 3, std, rand.NewPCG(9, 9))
	for c := 0; c < 4; c++ {
		mean, vr, m := classStats(x, labels, c)
		if m != 2000 {
			t.Errorf("blob %d has %d points", c, m)
		}
		for j := range mean {
			if math.Abs(mean[j]) > BlobBox+5*std/math.Sqrt(float64(m)) {
				t.Errorf("blob %d centre coordinate %v outside the box", c, mean[j])
			}
			if math.Abs(vr[j]-std*std) > 5*std*std*math.Sqrt(2/float64(m)) {
				t.Errorf("blob %d variance %v, want %v", c, vr[j], std*std)
			}
		}
	}
}

func TestCirclesRadii(t *testing.T) {
	x, labels, _ := Circles(10, 0, 0.3, nil)
	for i, l := range labels {
		want := 1.0
		if l == 1 {
			want = 0.3
		}
		if r := math.Hypot(x.At(i, 0), x.At(i, 1)); math.Abs(r-want) > 1e-12 {
			t.Errorf("point %d radius %v, want %v", i, r, want)
		}
	}
	x, labels, _ = InterlacedCircles(9, 3, 0, nil)
	for i, l := range labels {
		if r := math.Hypot(x.At(i, 0)-float64(l), x.At(i, 1)); math.Abs(r-1) > 1e-12 {
			t.Errorf("interlaced point %d radius %v around centre %d", i, r, l)
		}
	}
}

// expectedEdges returns the mean and variance of the SBM edge count,
// summing p(1−p) over the pair classes (independent Bernoulli pairs).
func expectedEdges(n, k int, cin, cout float64) (mean, vr float64) {
	sizes := split(n, k)
	pin, pout := cin/float64(n), cout/float64(n)
	for a, s := range sizes {
		pairs := float64(s) * float64(s-1) / 2
		mean += pin * pairs
		vr += pin * (1 - pin) * pairs
		for _, sb := range sizes[a+1:] {
			pairs := float64(s) * float64(sb)
			mean += pout * pairs
			vr += pout * (1 - pout) * pairs
		}
	}
	return mean, vr
}

func TestSBMEdgeCounts(t *testing.T) {
	cases := []struct {
		n, k      int
		cin, cout float64
	}{
		{1000, 2, 10, 2},
		{999, 3, 6, 1},
		{500, 5, 20, 0},
		{50, 2, 50, 50}, // p = 1: the complete graph
		{200, 4, 0, 3},
	}
	for _, c := range cases {
		const seeds = 40
		var in, out float64
		for s := uint64(0); s < seeds; s++ {
			g, labels, err := SBM(c.n, c.k, c.cin, c.cout, rand.NewPCG(s, 99))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range g.Edges() {
				if e.I == e.J || e.W != 1 {
					t.Fatalf("edge %+v: self loop or repeated pair", e)
				}
				if labels[e.I] == labels[e.J] {
					in++
				} else {
					out++
				}
			}
		}
		nIn, vIn := expectedEdges(c.n, c.k, c.cin, 0)
		nOut, vOut := expectedEdges(c.n, c.k, 0, c.cout)
		for _, chk := range []struct {
			what      string
			got, m, v float64
		}{{"in", in / seeds, nIn, vIn / seeds}, {"out", out / seeds, nOut, vOut / seeds}} {
			// Within 5 standard deviations of the mean over the seeds.
			if math.Abs(chk.got-chk.m) > 5*math.Sqrt(chk.v)+1e-9 {
				t.Errorf("n=%d k=%d cin=%v cout=%v: mean %s-block edges %v, want %v ± %v", c.n, c.k, c.cin, c.cout, chk.what, chk.got, chk.m, 5*math.Sqrt(chk.v))
			}
		}
	}
}

func TestSBMPairUniformity(t *testing.T) {
	// Brute force: each of the 15 pairs of 6 nodes must appear with its
	// probability p (0.5 inside the 2 blocks of 3, 1/6 across) — a
	// skipping bug shows up as a biased pair.
	const n, trials = 6, 6000
	freq := make(map[[2]int]int)
	for s := uint64(0); s < trials; s++ {
		g, _, _ := SBM(n, 2, 3, 1, rand.NewPCG(s, 1))
		for _, e := range g.Edges() {
			freq[[2]int{e.I, e.J}]++
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			p := 1.0 / 6
			if i/3 == j/3 {
				p = 0.5
			}
			got := float64(freq[[2]int{i, j}]) / trials
			if sd := math.Sqrt(p * (1 - p) / trials); math.Abs(got-p) > 5*sd {
				t.Errorf("pair (%d,%d): frequency %v, want %v ± %v", i, j, got, p, 5*sd)
			}
		}
	}
}

func TestThreshold(t *testing.T) {
	cases := []struct {
		k          int
		cin, cout  float64
		want       float64
		detectable bool
	}{
		// c = 3, 2√3 = 3.4641; c_in − c_out = 4.
		{2, 5, 1, 2 * math.Sqrt(3), true},
		// Seed 004 Fig. 3.1 setting: c_out = 1, k = 2; c_in = 7 gives c = 4,
		// threshold 4 < 6.
		{2, 7, 1, 4, true},
		// c = 2.5, 3√2.5 = 4.743 > 4 − 1.
		{3, 4, 1, 3 * math.Sqrt(2.5), false},
	}
	for _, c := range cases {
		if got := Threshold(c.k, c.cin, c.cout); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Threshold(%d,%v,%v) = %v, want %v", c.k, c.cin, c.cout, got, c.want)
		}
		if got := Detectable(c.k, c.cin, c.cout); got != c.detectable {
			t.Errorf("Detectable(%d,%v,%v) = %v", c.k, c.cin, c.cout, got)
		}
	}
}

func TestInvalid(t *testing.T) {
	errs := []error{}
	add := func(_ any, _ []int, err error) { errs = append(errs, err) }
	add(Moons(0, 0.1, nil))
	add(Moons(10, -1, nil))
	add(Moons(10, math.NaN(), nil))
	add(Circles(10, 0.1, 1, nil))
	add(InterlacedCircles(2, 3, 0, nil))
	add(XOR(-1, 0, nil))
	add(Blobs(10, 0, 2, 1, nil))
	add(Blobs(10, 2, 0, 1, nil))
	add(Blobs(10, 2, min(1<<40, math.MaxInt), 1, nil)) // 10·2⁴⁰ (10·(2³¹−1) with 32-bit ints) values > MaxValues
	var g *graph.Graph
	g, _, err := SBM(10, 2, 11, 0, nil)
	add(g, nil, err)
	g, _, err = SBM(10, 11, 1, 0, nil)
	add(g, nil, err)
	// A dense SBM: about n²/2 = 5·10⁹ expected adjacency entries > MaxValues.
	g, _, err = SBM(100000, 2, 100000, 0, nil)
	add(g, nil, err)
	for i, err := range errs {
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("case %d: err = %v, want ErrInvalid", i, err)
		}
	}
}

var sinkGraph *graph.Graph

func BenchmarkSBM100k(b *testing.B) {
	// n = 10⁵, mean degree ≈ 10: about 5·10⁵ edges.
	for i := 0; i < b.N; i++ {
		g, _, err := SBM(100000, 4, 22, 6, rand.NewPCG(uint64(i), 1))
		if err != nil {
			b.Fatal(err)
		}
		sinkGraph = g
	}
}

// TestNoiseOverflow: a finite noise so large that a coordinate overflows
// (1e308 times a normal deviate beyond 1.8) is refused by every point
// generator with ErrInvalid naming the generator, the noise and the value,
// instead of returning ±Inf features (tether's readers refuse the file);
// a noise of 1e300 still gives finite points.
func TestNoiseOverflow(t *testing.T) {
	cases := []struct {
		name string
		gen  func(noise float64) (*mat.Dense, []int, error)
	}{
		{"Moons", func(s float64) (*mat.Dense, []int, error) { return Moons(300, s, nil) }},
		{"Circles", func(s float64) (*mat.Dense, []int, error) { return Circles(300, s, 0.5, nil) }},
		{"InterlacedCircles", func(s float64) (*mat.Dense, []int, error) { return InterlacedCircles(300, 3, s, nil) }},
		{"XOR", func(s float64) (*mat.Dense, []int, error) { return XOR(300, s, nil) }},
		{"Blobs", func(s float64) (*mat.Dense, []int, error) { return Blobs(300, 3, 4, s, nil) }},
	}
	for _, c := range cases {
		x, _, err := c.gen(1e308)
		if !errors.Is(err, ErrInvalid) || x != nil {
			t.Errorf("%s, noise 1e308: error %v (points returned: %v), want ErrInvalid and no points", c.name, err, x != nil)
		} else if msg := err.Error(); !strings.Contains(msg, c.name+": noise = 1e+308") || !strings.Contains(msg, "Inf") {
			t.Errorf("%s, noise 1e308: message %q, want the generator, the noise and the value", c.name, msg)
		}
		x, _, err = c.gen(1e300)
		if err != nil {
			t.Fatalf("%s, noise 1e300: %v", c.name, err)
		}
		for _, v := range x.RawMatrix().Data {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				t.Fatalf("%s, noise 1e300: value %v", c.name, v)
			}
		}
	}
}
