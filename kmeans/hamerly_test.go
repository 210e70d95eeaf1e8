package kmeans

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// boundedData returns n×d row-major data of the given kind, drawn from r:
//
//	gauss   k' = 4 Gaussian blobs (sd 1) around uniform centres in [0,6)^d
//	uniform uniform in [0,1)^d
//	grid    integers in {0,1,2}: many exactly tied distances
//	dups    5 distinct gauss rows, each repeated: coincident points
//	offset  10⁶ + 10⁻⁶·N(0,1): distances dominated by rounding
//	same    all rows equal
func boundedData(kind string, n, d int, r *rand.Rand) []float64 {
	x := make([]float64, n*d)
	switch kind {
	case "gauss":
		c := make([]float64, 4*d)
		for i := range c {
			c[i] = 6 * r.Float64()
		}
		for i := 0; i < n; i++ {
			m := r.IntN(4)
			for t := 0; t < d; t++ {
				x[i*d+t] = c[m*d+t] + r.NormFloat64()
			}
		}
	case "uniform":
		for i := range x {
			x[i] = r.Float64()
		}
	case "grid":
		for i := range x {
			x[i] = float64(r.IntN(3))
		}
	case "dups":
		base := make([]float64, 5*d)
		for i := range base {
			base[i] = r.NormFloat64()
		}
		for i := 0; i < n; i++ {
			copy(x[i*d:(i+1)*d], base[r.IntN(5)*d:])
		}
	case "offset":
		for i := range x {
			x[i] = 1e6 + 1e-6*r.NormFloat64()
		}
	case "same":
		for i := range x {
			x[i] = 0.25
		}
	default:
		panic("unknown kind " + kind)
	}
	return x
}

// sameOutcome reports the first difference between two outcomes, compared
// bit for bit, or "".
func sameOutcome(a, b *outcome) string {
	bits := func(v float64) uint64 { return math.Float64bits(v) }
	switch {
	case !slices.Equal(a.labels, b.labels):
		return "labels differ"
	case a.iters != b.iters:
		return fmt.Sprintf("iterations %d vs %d", a.iters, b.iters)
	case bits(a.value) != bits(b.value):
		return fmt.Sprintf("distortion %v vs %v", a.value, b.value)
	case a.converged != b.converged:
		return fmt.Sprintf("converged %v vs %v", a.converged, b.converged)
	case a.reseeds != b.reseeds:
		return fmt.Sprintf("reseeds %d vs %d", a.reseeds, b.reseeds)
	case !slices.EqualFunc(a.trace, b.trace, func(u, v float64) bool { return bits(u) == bits(v) }):
		return "traces differ"
	case !slices.EqualFunc(a.centers, b.centers, func(u, v float64) bool { return bits(u) == bits(v) }):
		return "centres differ"
	}
	return ""
}

// TestBoundedMatchesPlain: the bounded assignment (runBounded) returns
// exactly what the plain one (runPlain, the reference) returns, bit for bit
// (tolerance 0): labels, iterations, distortion trace, centres, reseeds. The
// problems cover sizes {1, 2, 3, 5, 10, 70, 500, 3000, 5000} (the last two
// span several blocks of forBlocks), dimensions {1, 2, 3, 8, 20, 50},
// k ∈ {1, 2, 3, 5, 8, 20}, uniform and random weights, both update rules,
// k-means++ seeds, given initial partitions and given centres with a
// duplicate (which empties a cluster and triggers reseeding), data with
// exact ties, coincident points and rounding-dominated distances, rows
// padded with NaN beyond d (stride > d), and 1 and 3 goroutines.
func TestBoundedMatchesPlain(t *testing.T) {
	shapes := []struct{ n, d, k int }{
		{1, 1, 1}, {2, 1, 2}, {3, 2, 2}, {5, 3, 3}, {10, 2, 3}, {10, 1, 5},
		{70, 2, 5}, {70, 8, 8}, {70, 3, 20}, {500, 1, 3}, {500, 8, 5}, {500, 50, 5},
		{500, 2, 20}, {5000, 3, 5}, {3000, 20, 2},
	}
	kinds := []string{"gauss", "uniform", "grid", "dups", "offset", "same"}
	if testing.Short() {
		shapes = shapes[:10]
	}
	skipped, total := 0, 0
	for si, sh := range shapes {
		for ki, kind := range kinds {
			for _, weighted := range []bool{false, true} {
				for _, rule := range []UpdateRule{Chatel, Lloyd} {
					for _, start := range []string{"seed", "init", "centers"} {
						name := fmt.Sprintf("n%d_d%d_k%d/%s/weighted=%v/%v/%s", sh.n, sh.d, sh.k, kind, weighted, rule, start)
						seed := uint64(1000*si + 10*ki)
						if weighted {
							seed += 5
						}
						t.Run(name, func(t *testing.T) {
							r := rand.New(rand.NewPCG(seed, uint64(rule)))
							dense := boundedData(kind, sh.n, sh.d, r)
							stride := sh.d + (si+ki)%2
							x := make([]float64, sh.n*stride)
							for i := range x {
								x[i] = math.NaN() // padding, never read
							}
							for i := 0; i < sh.n; i++ {
								copy(x[i*stride:], dense[i*sh.d:(i+1)*sh.d])
							}
							p := &vproblem{x: x, stride: stride, n: sh.n, d: sh.d, k: sh.k, wbar: 1,
								update: rule, maxIter: 60, tol: 1e-12}
							if weighted {
								p.w = make([]float64, sh.n)
								var sum float64
								for i := range p.w {
									p.w[i] = 0.1 + 3*r.Float64()
									sum += p.w[i]
								}
								p.wbar = sum / float64(sh.n)
							}
							centers := make([]float64, sh.k*sh.d)
							var init []int
							switch start {
							case "seed":
								for c, i := range seeded(p, r, 1) {
									copy(centers[c*sh.d:], p.row(i))
								}
							case "init":
								init = make([]int, sh.n)
								for i := range init {
									init[i] = i % sh.k
								}
								r.Shuffle(sh.n, func(i, j int) { init[i], init[j] = init[j], init[i] })
								copy(centers, p.means(init))
							case "centers":
								// Random rows, centre 1 a copy of centre 0.
								for c := 0; c < sh.k; c++ {
									copy(centers[c*sh.d:], p.row(r.IntN(sh.n)))
								}
								if sh.k > 1 {
									copy(centers[sh.d:2*sh.d], centers[:sh.d])
								}
							}
							want, err := p.runPlain(context.Background(), slices.Clone(centers), init, 1)
							if err != nil {
								t.Fatalf("plain: %v", err)
							}
							for _, workers := range []int{1, 3} {
								got, err := p.runBounded(context.Background(), slices.Clone(centers), init, workers)
								if err != nil {
									t.Fatalf("bounded: %v", err)
								}
								if diff := sameOutcome(got, want); diff != "" {
									t.Errorf("%d workers: %s", workers, diff)
								}
								if workers == 1 {
									skipped += got.skipped
									total += got.iters * sh.n
								}
							}
						})
					}
				}
			}
		}
	}
	t.Logf("%d of %d point assignments skipped", skipped, total)
}

// TestBoundedSkips is a cost budget: on well separated blobs the bounded
// assignment computes the k distances of a point in the first iteration
// and then for few points. The budget (full assignments ≤ 2n over the whole
// run, about 1.4n measured) leaves room for the points whose centre changes
// in the first iterations.
func TestBoundedSkips(t *testing.T) {
	const n, d, k = 4000, 10, 5
	r := rand.New(rand.NewPCG(7, 7))
	x := make([]float64, n*d)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x[i*d+j] = r.NormFloat64()
			if j == i%k {
				x[i*d+j] += 8
			}
		}
	}
	for _, rule := range []UpdateRule{Chatel, Lloyd} {
		p := &vproblem{x: x, stride: d, n: n, d: d, k: k, wbar: 1, update: rule, maxIter: 100, tol: 1e-9}
		centers := make([]float64, k*d)
		for c, i := range seeded(p, rand.New(rand.NewPCG(1, 2)), 1) {
			copy(centers[c*d:], p.row(i))
		}
		o, err := p.runBounded(context.Background(), centers, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		full := o.iters*n - o.skipped
		t.Logf("%v: %d iterations, %d full assignments (n = %d)", rule, o.iters, full, n)
		if full > 2*n {
			t.Errorf("%v: %d full assignments in %d iterations, want ≤ %d", rule, full, o.iters, 2*n)
		}
	}
}

// TestBoundedTie: a point exactly halfway between centre 0 (at 0) and its
// current centre 1 (at 2), with the tightest possible bounds (u = l = 1),
// is not skipped: its distances are computed and the tie goes to the lower
// index, as in the plain assignment. A point strictly closer to its centre
// (at 1.9) is skipped.
func TestBoundedTie(t *testing.T) {
	for _, tc := range []struct {
		x     float64
		label int
		skip  bool
	}{
		{1, 0, false},
		{1.9, 1, true},
	} {
		p := &vproblem{x: []float64{tc.x}, stride: 1, n: 1, d: 1, k: 2}
		q := (2 - tc.x) * (2 - tc.x)
		r := &boundedRun{p: p, bd: newBounds(1), centers: []float64{0, 2},
			labels: []int{1}, next: []int{-1},
			dist: []float64{q}, lower: []float64{tc.x}, half: []float64{1, 1}, bounded: true}
		skipped := r.assign(0, make([]float64, 2), true)
		if r.next[0] != tc.label || skipped != tc.skip {
			t.Errorf("x = %v: label %d, skipped %v; want %d, %v", tc.x, r.next[0], skipped, tc.label, tc.skip)
		}
	}
}

// TestSqDist4: the interleaved kernel returns sqDist's values bit for bit.
func TestSqDist4(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{0, 1, 2, 3, 7, 50, 129} {
		v := make([][]float64, 8)
		for i := range v {
			v[i] = make([]float64, d)
			for j := range v[i] {
				v[i][j] = math.Ldexp(r.NormFloat64(), r.IntN(40)-20)
			}
		}
		s0, s1, s2, s3 := sqDist4(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
		for i, s := range []float64{s0, s1, s2, s3} {
			if want := sqDist(v[2*i], v[2*i+1]); math.Float64bits(s) != math.Float64bits(want) {
				t.Errorf("d = %d, pair %d: %v, want %v", d, i, s, want)
			}
		}
	}
}

// BenchmarkRunPaths compares one run of the plain and the bounded
// assignment on one goroutine from the same k-means++ seeds: 10⁵ points,
// k = 5, in 50 dimensions (4 Gaussian blobs of boundedData "gauss", whose
// centres are about 12 apart) and in 5 dimensions.
func BenchmarkRunPaths(b *testing.B) {
	for _, d := range []int{50, 5} {
		const n, k = 100_000, 5
		x := boundedData("gauss", n, d, rand.New(rand.NewPCG(1, 1)))
		p := &vproblem{x: x, stride: d, n: n, d: d, k: k, wbar: 1, update: Chatel, maxIter: DefaultMaxIter, tol: DefaultTol}
		init := make([]float64, k*d)
		for c, i := range seeded(p, rand.New(rand.NewPCG(2, 2)), 1) {
			copy(init[c*d:], p.row(i))
		}
		for _, path := range []struct {
			name string
			run  func(context.Context, []float64, []int, int) (*outcome, error)
		}{{"plain", p.runPlain}, {"bounded", p.runBounded}} {
			b.Run(fmt.Sprintf("d%d/%s", d, path.name), func(b *testing.B) {
				var o *outcome
				for b.Loop() {
					var err error
					if o, err = path.run(context.Background(), slices.Clone(init), nil, 1); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(o.iters), "iters")
			})
		}
	}
}

// scaled returns v·2¹⁰⁷⁴ as an exact integer (v finite): every float64 is
// an integer multiple of 2⁻¹⁰⁷⁴.
func scaled(v float64) *big.Int {
	i, _ := new(big.Float).SetMantExp(new(big.Float).SetFloat64(v), 1074).Int(nil)
	return i
}

// exactSq returns ‖a − b‖²·2²¹⁴⁸ in exact integer arithmetic.
func exactSq(a, b []float64) *big.Int {
	s := new(big.Int)
	for t := range a {
		e := new(big.Int).Sub(scaled(a[t]), scaled(b[t]))
		s.Add(s, e.Mul(e, e))
	}
	return s
}

// ratSq returns v²·2²¹⁴⁸ as an exact integer (v finite).
func ratSq(v float64) *big.Int {
	i := scaled(v)
	return i.Mul(i, i)
}

// TestBoundsEnclose checks the rounding allowances of bounds against exact
// rational arithmetic (the independent computation): for vectors of many
// scales (including subnormal squares and near cancellation) and
// dimensions, lo(q) ≤ ‖a − b‖ ≤ hi(q) where q = sqDist(a, b), compared as exact
// integers scaled by 2²¹⁴⁸; a lower bound
// lowered by a drift and rounded down by shrink stays below the exact
// difference; and when an exact distance exceeds hi(q_a) the computed
// squared distances are strictly ordered, which is what makes a skipped
// point's assignment agree with the plain one.
func TestBoundsEnclose(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	cases := []struct {
		name         string
		scale, shift float64
	}{
		{"unit", 1, 0},
		{"large", 1e150, 0},
		{"small", 1e-150, 0},
		{"subnormal", 1e-160, 0},
		{"tiny", 1e-310, 0},
		{"cancel", 1e-6, 1e6},
		{"mixed", 0, 0}, // exponents spread over ±60
	}
	for _, c := range cases {
		for _, d := range []int{1, 2, 5, 50, 200} {
			bd := newBounds(d)
			draw := func() []float64 {
				v := make([]float64, d)
				for i := range v {
					if c.name == "mixed" {
						v[i] = math.Ldexp(r.NormFloat64(), r.IntN(120)-60)
					} else {
						v[i] = c.shift + c.scale*r.NormFloat64()
					}
				}
				return v
			}
			for trial := 0; trial < 200; trial++ {
				x, ca := draw(), draw()
				qa := sqDist(x, ca)
				ea := exactSq(x, ca)
				if h := bd.hi(qa); ratSq(h).Cmp(ea) < 0 {
					t.Fatalf("%s d=%d: hi(%v) = %v below the exact distance", c.name, d, qa, h)
				}
				if l := bd.lo(qa); l > 0 && ratSq(l).Cmp(ea) > 0 {
					t.Fatalf("%s d=%d: lo(%v) = %v above the exact distance", c.name, d, qa, l)
				}
				// A centre at a relative distance 1 + η from x, with η a
				// few times the allowance: when its exact distance exceeds
				// hi(qa), its computed squared distance must exceed qa.
				eta := (0.5 + 3*r.Float64()) * (bd.up - 1)
				cj := make([]float64, d)
				for i := range cj {
					cj[i] = x[i] + (ca[i]-x[i])*(1+eta)
				}
				qj := sqDist(x, cj)
				if h := bd.hi(qa); !math.IsInf(h, 0) && ratSq(h).Cmp(exactSq(x, cj)) < 0 && !(qj > qa) {
					t.Fatalf("%s d=%d: exact distance above hi(qa) = %v but qj = %v ≤ qa = %v", c.name, d, h, qj, qa)
				}
			}
		}
	}
	// (l − δ)·shrink ≤ l − δ exactly, for l and δ of every relative size.
	for trial := 0; trial < 100000; trial++ {
		l := math.Ldexp(r.Float64(), r.IntN(80)-40)
		delta := l * math.Ldexp(r.Float64(), r.IntN(20)-10)
		if trial%3 == 0 {
			delta = math.Nextafter(l, 0) // near cancellation
		}
		// A negative bound is valid (distances are ≥ 0).
		got := scaled((l - delta) * shrink)
		want := new(big.Int).Sub(scaled(l), scaled(delta))
		if got.Sign() > 0 && got.Cmp(want) > 0 {
			t.Fatalf("(%v − %v)·shrink = %v above the exact difference", l, delta, (l-delta)*shrink)
		}
	}
}
