package kmeans_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/kmeans"
	"github.com/tether-sc/tether/progress"
)

// TestUpdateByHand checks one iteration from given centres against hand
// computations of thesis Alg. 4 line 9 (Chatel) and of the plain mean.
func TestUpdateByHand(t *testing.T) {
	cases := []struct {
		name    string
		x       []float64 // 1-D points
		w       []float64
		centers []float64
		rule    kmeans.UpdateRule
		labels  []int
		want    []float64 // centres after the update
		dist    float64
	}{
		// Assignment: 0,1,2 → centre 0 (2 is at 2 from 0, 3 from 5); 10 → 5.
		// μ0 = (0+1+2 + 0)/(3+1) = 0.75, μ1 = (10 + 5)/(1+1) = 7.5.
		// J = 0.75² + 0.25² + 1.25² + 2.5² = 8.4375.
		{"chatel", []float64{0, 1, 2, 10}, nil, []float64{0, 5}, kmeans.Chatel, []int{0, 0, 0, 1}, []float64{0.75, 7.5}, 8.4375},
		// Plain means 1 and 10; J = 1 + 0 + 1 + 0 = 2.
		{"lloyd", []float64{0, 1, 2, 10}, nil, []float64{0, 5}, kmeans.Lloyd, []int{0, 0, 0, 1}, []float64{1, 10}, 2},
		// Weights 1,3,2, mean weight w̄ = 2: μ0 = (1·0 + 3·2 + 2·0)/(1+3+2) = 1,
		// μ1 = (2·10 + 2·9)/(2+2) = 9.5; J = 1·1 + 3·1 + 2·0.25 = 4.5.
		{"chatel weighted", []float64{0, 2, 10}, []float64{1, 3, 2}, []float64{0, 9}, kmeans.Chatel, []int{0, 0, 1}, []float64{1, 9.5}, 4.5},
		// μ0 = 6/4 = 1.5, μ1 = 10; J = 1·2.25 + 3·0.25 = 3.
		{"lloyd weighted", []float64{0, 2, 10}, []float64{1, 3, 2}, []float64{0, 9}, kmeans.Lloyd, []int{0, 0, 1}, []float64{1.5, 10}, 3},
		// Empty cluster: centre 100 wins no point, so the farthest point (3,
		// cost 3² = 9) moves to it and becomes its centre. Chatel:
		// μ0 = (1+2+0)/3 = 1, μ1 = (3+3)/2 = 3, J = 0 + 1 + 0 = 1.
		{"chatel refill", []float64{1, 2, 3}, nil, []float64{0, 100}, kmeans.Chatel, []int{0, 0, 1}, []float64{1, 3}, 1},
		// Lloyd: μ0 = 1.5, μ1 = 3, J = 0.25 + 0.25 = 0.5.
		{"lloyd refill", []float64{1, 2, 3}, nil, []float64{0, 100}, kmeans.Lloyd, []int{0, 0, 1}, []float64{1.5, 3}, 0.5},
	}
	const tol = 1e-14
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := mat.NewDense(len(tc.x), 1, tc.x)
			res, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{
				K: len(tc.centers), MaxIter: 1, Update: tc.rule, Weights: tc.w,
				Centers: mat.NewDense(len(tc.centers), 1, tc.centers),
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Labels, tc.labels) {
				t.Errorf("labels %v, want %v", res.Labels, tc.labels)
			}
			for c, want := range tc.want {
				if got := res.Centers.At(c, 0); math.Abs(got-want) > tol {
					t.Errorf("centre %d = %v, want %v", c, got, want)
				}
			}
			if math.Abs(res.Distortion-tc.dist) > tol {
				t.Errorf("distortion %v, want %v", res.Distortion, tc.dist)
			}
		})
	}
}

// TestRefillConverges runs the refill example to convergence: both rules
// end at the partition {1,2},{3} whose means 1.5, 3 give J = 0.5 (hand
// computation; Chatel approaches it geometrically, hence the tolerance).
func TestRefillConverges(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{1, 2, 3})
	for _, rule := range []kmeans.UpdateRule{kmeans.Chatel, kmeans.Lloyd} {
		res, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: 2, Update: rule,
			Centers: mat.NewDense(2, 1, []float64{0, 100})})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Labels, []int{0, 0, 1}) || math.Abs(res.Distortion-0.5) > 1e-8 || res.Reseeds != 1 || !res.Converged {
			t.Errorf("%v: labels %v distortion %v reseeds %d converged %v; want [0 0 1], 0.5, 1, true",
				rule, res.Labels, res.Distortion, res.Reseeds, res.Converged)
		}
	}
}

// TestInvariants checks, over a ladder of sizes, both update rules and
// random weights: the trace never increases, Distortion is the last trace
// value and equals Σ w‖x − μ‖² recomputed from Labels and Centers, every
// cluster is non-empty, and Lloyd ends at a partition whose means give the
// same distortion.
func TestInvariants(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 10, 70, 500, 5000} {
		for _, k := range []int{1, 2, 3, 5, 8} {
			if k > n {
				continue
			}
			for _, rule := range []kmeans.UpdateRule{kmeans.Chatel, kmeans.Lloyd} {
				for _, weighted := range []bool{false, true} {
					name := fmt.Sprintf("n=%d/k=%d/%v/weighted=%v", n, k, rule, weighted)
					t.Run(name, func(t *testing.T) {
						x := uniformData(n, 3, uint64(n*31+k))
						var w []float64
						if weighted {
							r := rand.New(rand.NewPCG(uint64(n), 3))
							w = make([]float64, n)
							for i := range w {
								w[i] = 0.1 + r.Float64()
							}
						}
						res, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{
							K: k, Update: rule, Weights: w, Restarts: 3, Src: rand.NewPCG(5, uint64(k))})
						if err != nil {
							t.Fatal(err)
						}
						if at := nonIncreasing(res.Trace, 1e-13); at >= 0 {
							t.Errorf("trace increases at %d: %v", at, res.Trace)
						}
						if res.Distortion != res.Trace[len(res.Trace)-1] || len(res.Trace) != res.Iterations {
							t.Errorf("distortion %v, iterations %d; trace %v", res.Distortion, res.Iterations, res.Trace)
						}
						var direct float64
						for i := 0; i < n; i++ {
							wi := 1.0
							if w != nil {
								wi = w[i]
							}
							for j := 0; j < 3; j++ {
								e := x.At(i, j) - res.Centers.At(res.Labels[i], j)
								direct += wi * e * e
							}
						}
						if math.Abs(direct-res.Distortion) > 1e-12*math.Max(1, direct) {
							t.Errorf("distortion %v, recomputed %v", res.Distortion, direct)
						}
						for c, m := range counts(res.Labels, k) {
							if m == 0 {
								t.Errorf("cluster %d is empty", c)
							}
						}
						if rule == kmeans.Lloyd && res.Converged {
							s, _ := sse(x, w, res.Labels, k)
							if math.Abs(s-res.Distortion) > 1e-12*math.Max(1, s) {
								t.Errorf("Lloyd distortion %v, SSE of its partition %v", res.Distortion, s)
							}
						}
					})
				}
			}
		}
	}
}

// TestFewDistinctPoints: with fewer distinct points than k the duplicates
// are split, every cluster is non-empty, the distortion is 0 and the result
// is deterministic.
func TestFewDistinctPoints(t *testing.T) {
	cases := []struct {
		name string
		x    []float64 // 2-D rows
		k    int
	}{
		{"three copies and one", []float64{0, 0, 0, 0, 0, 0, 1, 1}, 3},
		{"all equal", []float64{5, 5, 5, 5, 5, 5, 5, 5}, 4},
		{"two values k=4 of 6", []float64{1, 2, 1, 2, 1, 2, 3, 3, 3, 3, 1, 2}, 4},
	}
	for _, tc := range cases {
		for _, rule := range []kmeans.UpdateRule{kmeans.Chatel, kmeans.Lloyd} {
			t.Run(tc.name+"/"+rule.String(), func(t *testing.T) {
				x := mat.NewDense(len(tc.x)/2, 2, tc.x)
				var first []int
				for rep := 0; rep < 2; rep++ {
					res, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: tc.k, Update: rule})
					if err != nil {
						t.Fatal(err)
					}
					for c, m := range counts(res.Labels, tc.k) {
						if m == 0 {
							t.Errorf("cluster %d empty: %v", c, res.Labels)
						}
					}
					if res.Distortion != 0 {
						t.Errorf("distortion %v, want 0", res.Distortion)
					}
					if rep == 0 {
						first = res.Labels
					} else if !slices.Equal(first, res.Labels) {
						t.Errorf("not deterministic: %v then %v", first, res.Labels)
					}
				}
			})
		}
	}
}

// TestBruteForce: on tiny random sets, enough restarts reach the optimum
// found by enumerating every labelling with k non-empty clusters.
func TestBruteForce(t *testing.T) {
	for n := 3; n <= 8; n++ {
		for k := 2; k <= 3 && k <= n; k++ {
			x := uniformData(n, 2, uint64(100*n+k))
			opt := math.Inf(1)
			lab := make([]int, n)
			total := 1
			for range n {
				total *= k
			}
			for code := 0; code < total; code++ {
				c := code
				for i := range lab {
					lab[i] = c % k
					c /= k
				}
				if s, ne := sse(x, nil, lab, k); ne == k {
					opt = math.Min(opt, s)
				}
			}
			for _, rule := range []kmeans.UpdateRule{kmeans.Chatel, kmeans.Lloyd} {
				res, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: k, Restarts: 40, Update: rule,
					Src: rand.NewPCG(uint64(n), uint64(k))})
				if err != nil {
					t.Fatal(err)
				}
				got, _ := sse(x, nil, res.Labels, k)
				if got > opt*(1+1e-9)+1e-15 {
					t.Errorf("n=%d k=%d %v: SSE %v, optimum %v", n, k, rule, got, opt)
				}
				if math.Abs(res.Distortion-got) > 1e-6*math.Max(got, 1e-9) {
					t.Errorf("n=%d k=%d %v: distortion %v far from SSE of the partition %v", n, k, rule, res.Distortion, got)
				}
			}
		}
	}
}

// TestBlobs: well-separated blobs are recovered exactly.
func TestBlobs(t *testing.T) {
	cases := []struct {
		n, d, k int
	}{
		{30, 2, 3}, {120, 2, 3}, {600, 5, 6}, {9000, 4, 5},
	}
	for _, tc := range cases {
		for _, rule := range []kmeans.UpdateRule{kmeans.Chatel, kmeans.Lloyd} {
			t.Run(fmt.Sprintf("n=%d/k=%d/%v", tc.n, tc.k, rule), func(t *testing.T) {
				x, truth := blobs(tc.n, tc.d, tc.k, 50, 1, uint64(tc.n))
				res, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: tc.k, Update: rule})
				if err != nil {
					t.Fatal(err)
				}
				if !samePartition(res.Labels, truth) {
					t.Errorf("blobs not recovered")
				}
			})
		}
	}
}

// TestSeedD2Law compares the frequencies of the ordered index tuples drawn
// by Seed on 1-D points {0, 1, 3, 7} with the exact k-means++ law computed
// here: P(i) = 1/n, then P(j | chosen) = D²(j)/Σ D². Pearson's χ² over all
// tuples must stay below the 0.999 quantile of its χ² distribution (31.26
// for 11 degrees of freedom, 49.73 for 23; standard tables); with fixed
// seeds the test is deterministic. Sampling ∝ D instead of D² gives χ² > 10⁴.
func TestSeedD2Law(t *testing.T) {
	pts := []float64{0, 1, 3, 7}
	x := mat.NewDense(4, 1, pts)
	cases := []struct {
		k     int
		limit float64
	}{{2, 31.26}, {3, 49.73}} // 0.999 quantiles of χ²(11), χ²(23)
	const draws = 20000
	for _, tc := range cases {
		t.Run(fmt.Sprint("k=", tc.k), func(t *testing.T) {
			prob := map[string]float64{}
			var rec func(chosen []int, p float64)
			rec = func(chosen []int, p float64) {
				if len(chosen) == tc.k {
					prob[fmt.Sprint(chosen)] = p
					return
				}
				d2 := make([]float64, len(pts))
				var tot float64
				for j, v := range pts {
					d2[j] = math.Inf(1)
					for _, c := range chosen {
						d2[j] = math.Min(d2[j], (v-pts[c])*(v-pts[c]))
					}
					tot += d2[j]
				}
				for j := range pts {
					if d2[j] > 0 {
						rec(append(slices.Clone(chosen), j), p*d2[j]/tot)
					}
				}
			}
			for i := range pts {
				rec([]int{i}, 1/float64(len(pts)))
			}
			seen := map[string]int{}
			for s := 0; s < draws; s++ {
				idx, err := kmeans.Seed(x, tc.k, rand.NewPCG(uint64(s), 17))
				if err != nil {
					t.Fatal(err)
				}
				key := fmt.Sprint(idx)
				if _, ok := prob[key]; !ok {
					t.Fatalf("impossible draw %v", idx)
				}
				seen[key]++
			}
			var chi2 float64
			for key, p := range prob {
				e := p * draws
				chi2 += (float64(seen[key]) - e) * (float64(seen[key]) - e) / e
			}
			t.Logf("χ² = %.1f over %d cells", chi2, len(prob))
			if chi2 > tc.limit {
				t.Errorf("χ² = %.1f over %d cells, limit %.1f", chi2, len(prob), tc.limit)
			}
		})
	}
}

// TestDeterminism: the same Src gives bit-identical results whatever the
// number of workers and GOMAXPROCS.
func TestDeterminism(t *testing.T) {
	x, _ := blobs(7000, 3, 4, 3, 1, 11) // overlapping blobs: restarts differ
	var ref *kmeans.Result
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		for _, workers := range []int{0, 1, 3, 8} {
			res, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: 4, Restarts: 6, Workers: workers,
				Src: rand.NewPCG(1, 2)})
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = res
				continue
			}
			if !slices.Equal(res.Labels, ref.Labels) || res.Distortion != ref.Distortion || res.Restart != ref.Restart ||
				!slices.Equal(res.Trace, ref.Trace) || !slices.Equal(res.Distortions, ref.Distortions) || !mat.Equal(res.Centers, ref.Centers) {
				t.Errorf("GOMAXPROCS=%d Workers=%d: result differs", procs, workers)
			}
		}
	}
	other, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: 4, Restarts: 6, Src: rand.NewPCG(3, 4)})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(other.Distortions, ref.Distortions) {
		t.Errorf("another seed gave the same per-restart distortions: the seed is not used")
	}
}

// TestSelect: the winner has the lowest score, ties broken by distortion.
func TestSelect(t *testing.T) {
	x := uniformData(300, 2, 8)
	const k, restarts = 6, 12
	// Src is stateful: every run gets a fresh one with the same seed.
	settings := func() kmeans.Settings {
		return kmeans.Settings{K: k, Restarts: restarts, Update: kmeans.Lloyd, Src: rand.NewPCG(9, 9)}
	}
	plain, err := kmeans.Cluster(context.Background(), x, settings())
	if err != nil {
		t.Fatal(err)
	}
	if plain.Scores != nil || plain.Distortions[plain.Restart] != slices.Min(plain.Distortions) {
		t.Fatalf("without Select the lowest distortion must win: %v, restart %d", plain.Distortions, plain.Restart)
	}
	if slices.Min(plain.Distortions) == slices.Max(plain.Distortions) {
		t.Fatalf("restarts all equal; test data does not discriminate")
	}
	t.Run("worst", func(t *testing.T) {
		s := settings()
		calls := 0 // not atomic: -race flags concurrent calls
		s.Select = func(labels []int) float64 {
			calls++
			v, _ := sse(x, nil, labels, k)
			return -v
		}
		res, err := kmeans.Cluster(context.Background(), x, s)
		if err != nil {
			t.Fatal(err)
		}
		if calls != restarts {
			t.Errorf("Select called %d times, want %d", calls, restarts)
		}
		if res.Scores[res.Restart] != slices.Min(res.Scores) {
			t.Errorf("winner score %v, scores %v", res.Scores[res.Restart], res.Scores)
		}
		// Lloyd's distortion is the SSE of its partition, so the lowest
		// score is the highest distortion.
		if res.Distortions[res.Restart] != slices.Max(res.Distortions) {
			t.Errorf("winner distortion %v, want the largest of %v", res.Distortions[res.Restart], res.Distortions)
		}
		if !slices.Equal(res.Distortions, plain.Distortions) {
			t.Errorf("Select changed the runs")
		}
	})
	t.Run("ties", func(t *testing.T) {
		s := settings()
		s.Select = func([]int) float64 { return 1 }
		res, err := kmeans.Cluster(context.Background(), x, s)
		if err != nil {
			t.Fatal(err)
		}
		if res.Restart != plain.Restart || !slices.Equal(res.Labels, plain.Labels) {
			t.Errorf("constant score: restart %d, want %d (lowest distortion)", res.Restart, plain.Restart)
		}
	})
	t.Run("nan", func(t *testing.T) {
		s := settings()
		s.Select = func(labels []int) float64 {
			if labels[0] == plain.Labels[0] {
				return math.NaN()
			}
			return 0
		}
		res, err := kmeans.Cluster(context.Background(), x, s)
		if err != nil {
			t.Fatal(err)
		}
		if !math.IsInf(res.Scores[res.Restart], 1) && res.Scores[res.Restart] != 0 {
			t.Errorf("NaN score not counted as +Inf: %v", res.Scores)
		}
	})
}

// TestCancel: a cancelled context stops Cluster with an error wrapping
// context.Canceled, before the start and between restarts.
func TestCancel(t *testing.T) {
	x := uniformData(2000, 2, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := kmeans.Cluster(ctx, x, kmeans.Settings{K: 3}); !errors.Is(err, context.Canceled) {
		t.Errorf("pre-cancelled: err = %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	rec := progress.Func(func(progress.Event) { cancel() })
	if _, err := kmeans.Cluster(ctx, x, kmeans.Settings{K: 3, Workers: 1, Restarts: 5, Recorder: rec}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled after the first restart: err = %v", err)
	}
}

// TestErrors: invalid input gives errors wrapping ErrInvalid that name the
// problem, never panics.
func TestErrors(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{0, 0, 1, 1, 2, 2})
	bad := mat.NewDense(3, 2, []float64{0, 0, 1, math.NaN(), 2, 2})
	inf := mat.NewDense(3, 2, []float64{0, 0, 1, 1, math.Inf(-1), 2})
	cases := []struct {
		name string
		x    *mat.Dense
		s    kmeans.Settings
		msg  string
	}{
		{"nil", nil, kmeans.Settings{K: 1}, "no points"},
		{"empty", &mat.Dense{}, kmeans.Settings{K: 1}, "no points"},
		{"k=0", x, kmeans.Settings{K: 0}, "k = 0"},
		{"k>n", x, kmeans.Settings{K: 4}, "k = 4"},
		{"NaN", bad, kmeans.Settings{K: 2}, "row 1, col 1"},
		{"Inf", inf, kmeans.Settings{K: 2}, "row 2, col 0"},
		{"restarts", x, kmeans.Settings{K: 2, Restarts: -1}, "Restarts"},
		// Before MaxRestarts, Restarts = 1 << 40 allocated a slice of that
		// length and the process died of a fatal out-of-memory error.
		{"restarts above MaxRestarts", x, kmeans.Settings{K: 2, Restarts: kmeans.MaxRestarts + 1}, "Restarts = 1048577"},
		{"restarts 1<<40", x, kmeans.Settings{K: 2, Restarts: min(1<<40, math.MaxInt)}, "MaxRestarts"},
		{"maxiter", x, kmeans.Settings{K: 2, MaxIter: -1}, "MaxIter"},
		{"tol", x, kmeans.Settings{K: 2, Tol: math.NaN()}, "Tol"},
		{"workers", x, kmeans.Settings{K: 2, Workers: -2}, "Workers"},
		{"weights len", x, kmeans.Settings{K: 2, Weights: []float64{1}}, "1 weights"},
		{"weight zero", x, kmeans.Settings{K: 2, Weights: []float64{1, 0, 1}}, "weight 1"},
		{"weight NaN", x, kmeans.Settings{K: 2, Weights: []float64{1, 1, math.NaN()}}, "weight 2"},
		{"update", x, kmeans.Settings{K: 2, Update: 7}, "update rule"},
		{"init len", x, kmeans.Settings{K: 2, Init: []int{0, 1}}, "2 labels"},
		{"init range", x, kmeans.Settings{K: 2, Init: []int{0, 2, 1}}, "Init[1] = 2"},
		{"init empty", x, kmeans.Settings{K: 2, Init: []int{0, 0, 0}}, "cluster 1 empty"},
		{"centers dims", x, kmeans.Settings{K: 2, Centers: mat.NewDense(2, 1, nil)}, "2×1"},
		{"centers NaN", x, kmeans.Settings{K: 2, Centers: mat.NewDense(2, 2, []float64{0, 0, math.NaN(), 0})}, "row 1, col 0"},
		{"both", x, kmeans.Settings{K: 2, Init: []int{0, 1, 1}, Centers: mat.NewDense(2, 2, nil)}, "both"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := kmeans.Cluster(context.Background(), tc.x, tc.s)
			if !errors.Is(err, kmeans.ErrInvalid) || !strings.Contains(err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), "kmeans: ") {
				t.Errorf("err = %v, want ErrInvalid mentioning %q", err, tc.msg)
			}
		})
	}
	if _, err := kmeans.Seed(bad, 2, nil); !errors.Is(err, kmeans.ErrInvalid) {
		t.Errorf("Seed NaN: %v", err)
	}
	if _, err := kmeans.Seed(x, 4, nil); !errors.Is(err, kmeans.ErrInvalid) {
		t.Errorf("Seed k>n: %v", err)
	}
}

// TestDistortionOverflow: finite points or weights whose distortion
// overflows (points near ±1e200, whose squared distances exceed the
// float64 range; weights of 1e308, whose sum does) give an error wrapping
// ErrNonFinite, never a result with an infinite or NaN distortion. Before,
// Cluster returned Distortion +Inf or NaN and a partition chosen among
// infinite distances ([0 0 1 0] for −1e200, 1e200, 1.5e200, −1.5e200).
func TestDistortionOverflow(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{0, 0, 0, 0, 1, 1, 1, 1})
	for _, tc := range []struct {
		name string
		x    *mat.Dense
		s    kmeans.Settings
	}{
		{"points ±1e200", mat.NewDense(4, 1, []float64{-1e200, 1e200, 1.5e200, -1.5e200}), kmeans.Settings{K: 2}},
		{"points ±1.7e308", mat.NewDense(4, 1, []float64{-1.7e308, 1.7e308, 1.6e308, -1.6e308}), kmeans.Settings{K: 2}},
		{"points, Lloyd", mat.NewDense(4, 1, []float64{-1e200, 1e200, 1.5e200, -1.5e200}), kmeans.Settings{K: 2, Update: kmeans.Lloyd}},
		{"weights 1e308", x, kmeans.Settings{K: 2, Weights: []float64{1e308, 1e308, 1e308, 1e308}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := kmeans.Cluster(context.Background(), tc.x, tc.s)
			if !errors.Is(err, kmeans.ErrNonFinite) || !strings.Contains(err.Error(), "out of floating-point range") {
				if res != nil {
					t.Fatalf("distortion %v, labels %v, error %v; want ErrNonFinite", res.Distortion, res.Labels, err)
				}
				t.Fatalf("error %v, want ErrNonFinite", err)
			}
		})
	}
	// Points near 1e150 (squared distances near 1e300) are in range.
	res, err := kmeans.Cluster(context.Background(), mat.NewDense(4, 1, []float64{-1e150, 1e150, 1.5e150, -1.5e150}), kmeans.Settings{K: 2})
	if err != nil || math.IsInf(res.Distortion, 0) || res.Labels[1] != res.Labels[2] || res.Labels[0] != res.Labels[3] {
		t.Fatalf("1e150: %v, %v", res, err)
	}
}

// TestInitLabels: starting from a partition runs once from its means; a
// stable partition of separated blobs is a fixed point.
func TestInitLabels(t *testing.T) {
	x, truth := blobs(90, 2, 3, 40, 1, 4)
	res, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: 3, Init: truth, Restarts: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Labels, truth) || len(res.Distortions) != 1 {
		t.Errorf("labels moved from the optimal start, or %d runs", len(res.Distortions))
	}
}
