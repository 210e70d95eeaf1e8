package metrics

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sizes is the ladder of partition sizes used by the random tests.
var sizes = []int{1, 2, 3, 5, 10, 70, 300}

// randPartition draws n labels uniformly from 0…k−1.
func randPartition(rng *rand.Rand, n, k int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = rng.IntN(k)
	}
	return l
}

// relabelRandom maps each distinct label to a distinct random value,
// negative and huge ones included, so that only the partition is kept.
func relabelRandom(rng *rand.Rand, labels []int) []int {
	m := map[int]int{}
	used := map[int]bool{}
	out := make([]int, len(labels))
	for i, v := range labels {
		w, ok := m[v]
		for !ok {
			w = int(rng.Uint64())
			if rng.IntN(3) == 0 {
				w = rng.IntN(41) - 20
			}
			if !used[w] {
				used[w], m[v], ok = true, w, true
			}
		}
		out[i] = w
	}
	return out
}

// randPair returns a random pair of partitions with varied cluster counts
// and correlation.
func randPair(rng *rand.Rand, n int) (truth, pred []int) {
	k1 := 1 + rng.IntN(min(n, 8))
	k2 := 1 + rng.IntN(min(n, 8))
	truth = randPartition(rng, n, k1)
	pred = make([]int, n)
	noise := rng.Float64()
	for i := range pred {
		if rng.Float64() < noise {
			pred[i] = rng.IntN(k2)
		} else {
			pred[i] = truth[i] % k2
		}
	}
	return truth, pred
}

func TestContingencyBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		for _, k := range []int{1, 2, 7, n} {
			for rep := range 3 {
				t.Run(fmt.Sprintf("n=%d/k=%d/%d", n, k, rep), func(t *testing.T) {
					truth := randPartition(rng, n, k)
					pred := randPartition(rng, n, max(1, k/2+rep))
					if rep == 2 {
						truth, pred = relabelRandom(rng, truth), relabelRandom(rng, pred)
					}
					// Brute force: count pairs of label values directly.
					count := map[[2]int]int{}
					for i := range truth {
						count[[2]int{truth[i], pred[i]}]++
					}
					tv := slices.Sorted(maps(truth))
					pv := slices.Sorted(maps(pred))
					var tables []*Contingency
					for _, dense := range []int{-1, 0, 1} {
						c, err := newContingency(truth, pred, dense)
						if err != nil {
							t.Fatal(err)
						}
						tables = append(tables, c)
					}
					// The transpose of the swapped table is the same table.
					sw, err := NewContingency(pred, truth)
					if err != nil {
						t.Fatal(err)
					}
					tables = append(tables, sw.Transpose())
					for ti, c := range tables {
						if c.N() != n || c.Rows() != len(tv) || c.Cols() != len(pv) || c.NNZ() != len(count) {
							t.Fatalf("table %d: n=%d %d×%d nnz=%d, want n=%d %d×%d nnz=%d", ti, c.N(), c.Rows(), c.Cols(), c.NNZ(), n, len(tv), len(pv), len(count))
						}
						for i, a := range tv {
							if c.TruthLabel(i) != a {
								t.Fatalf("table %d: row %d label %d, want %d", ti, i, c.TruthLabel(i), a)
							}
							sum := 0
							for j, b := range pv {
								if c.PredLabel(j) != b {
									t.Fatalf("table %d: column %d label %d, want %d", ti, j, c.PredLabel(j), b)
								}
								if got, want := c.At(i, j), count[[2]int{a, b}]; got != want {
									t.Fatalf("table %d: At(%d,%d) = %d, want %d", ti, i, j, got, want)
								}
								sum += count[[2]int{a, b}]
							}
							if c.RowSum(i) != sum {
								t.Fatalf("table %d: RowSum(%d) = %d, want %d", ti, i, c.RowSum(i), sum)
							}
						}
						seen := 0
						lastI, lastJ := -1, -1
						c.Do(func(i, j, v int) {
							if i < lastI || (i == lastI && j <= lastJ) {
								t.Fatalf("table %d: Do out of order at (%d,%d)", ti, i, j)
							}
							lastI, lastJ = i, j
							if v != count[[2]int{tv[i], pv[j]}] || v == 0 {
								t.Fatalf("table %d: Do(%d,%d) = %d", ti, i, j, v)
							}
							seen += v
						})
						if seen != n {
							t.Fatalf("table %d: Do visited %d items, want %d", ti, seen, n)
						}
					}
				})
			}
		}
	}
}

func maps(labels []int) func(func(int) bool) {
	return func(yield func(int) bool) {
		seen := map[int]bool{}
		for _, v := range labels {
			if !seen[v] {
				seen[v] = true
				if !yield(v) {
					return
				}
			}
		}
	}
}

func TestContingencyExtremeLabels(t *testing.T) {
	// Labels at the ends of the int range must not overflow the range test.
	truth := []int{math.MinInt, math.MaxInt, math.MinInt, 0}
	pred := []int{5, 5, -1, -1}
	c, err := NewContingency(truth, pred)
	if err != nil {
		t.Fatal(err)
	}
	if c.Rows() != 3 || c.Cols() != 2 || c.TruthLabel(0) != math.MinInt || c.TruthLabel(2) != math.MaxInt {
		t.Fatalf("got %d×%d table with rows %d…%d", c.Rows(), c.Cols(), c.TruthLabel(0), c.TruthLabel(c.Rows()-1))
	}
	if c.At(0, 0) != 1 || c.At(0, 1) != 1 || c.At(2, 1) != 1 || c.At(1, 0) != 1 {
		t.Fatalf("wrong cells")
	}
}

func TestBadInput(t *testing.T) {
	calls := map[string]func(a, b []int) error{
		"NewContingency": func(a, b []int) error { _, err := NewContingency(a, b); return err },
		"ARI":            func(a, b []int) error { _, err := ARI(a, b); return err },
		"RandIndex":      func(a, b []int) error { _, err := RandIndex(a, b); return err },
		"NMI":            func(a, b []int) error { _, err := NMI(a, b, Joint); return err },
		"VI":             func(a, b []int) error { _, err := VI(a, b); return err },
		"Purity":         func(a, b []int) error { _, err := Purity(a, b); return err },
		"Accuracy":       func(a, b []int) error { _, err := Accuracy(a, b); return err },
		"CoNLL":          func(a, b []int) error { _, err := CoNLL(a, b); return err },
		"MUC":            func(a, b []int) error { _, err := MUC(a, b); return err },
		"B3":             func(a, b []int) error { _, err := B3(a, b); return err },
		"CEAFe":          func(a, b []int) error { _, err := CEAFe(a, b); return err },
		"CEAFm":          func(a, b []int) error { _, err := CEAFm(a, b); return err },
		"Evaluate":       func(a, b []int) error { _, err := Evaluate(a, b, nil); return err },
	}
	cases := []struct {
		name string
		a, b []int
		want error
	}{
		{"lengths", []int{0, 1, 1}, []int{0, 1}, ErrLength},
		{"empty", nil, []int{}, ErrEmpty},
		{"one empty", []int{}, []int{3}, ErrLength},
	}
	for fname, f := range calls {
		for _, tc := range cases {
			t.Run(fname+"/"+tc.name, func(t *testing.T) {
				err := f(tc.a, tc.b)
				if !errors.Is(err, tc.want) {
					t.Fatalf("error %v, want %v", err, tc.want)
				}
			})
		}
	}
	if _, err := NMI([]int{0, 1}, []int{0, 1}, Normalization(99)); err == nil {
		t.Error("NMI accepted an unknown normalization")
	}
	if _, err := Entropy(nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("Entropy(nil): %v, want ErrEmpty", err)
	}
	err := func() error { _, err := ARI([]int{1, 2, 3}, []int{1, 2}); return err }()
	if err == nil || err.Error() != "metrics: truth and prediction have different lengths: 3 truth labels, 2 predicted labels" {
		t.Errorf("message %q does not name the lengths", err)
	}
}
