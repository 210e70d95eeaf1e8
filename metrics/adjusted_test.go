package metrics

import (
	"math"
	"testing"

	"github.com/tether-sc/tether/constraint"
)

// amiCases builds the partitions of testdata/sklearn_ami_fmi.py.
func amiCases() map[string][2][]int {
	gen := func(n int, t, p func(i int) int) [2][]int {
		a, b := make([]int, n), make([]int, n)
		for i := range a {
			a[i], b[i] = t(i), p(i)
		}
		return [2][]int{a, b}
	}
	return map[string][2][]int{
		"luo":               {{0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2}, {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1}},
		"swapped":           {{0, 0, 1, 1}, {1, 1, 0, 0}},
		"one vs singletons": {{0, 0, 0, 0}, {0, 1, 2, 3}},
		"both one":          {{0, 0, 0}, {5, 5, 5}},
		"crossed":           {{0, 0, 1, 1}, {0, 1, 0, 1}},
		"singletons":        {{0, 1, 2, 3, 4}, {4, 3, 2, 1, 0}},
		"small":             {{0, 0, 0, 1}, {0, 0, 1, 1}},
		"mod 200":           gen(200, func(i int) int { return i * 7 % 4 }, func(i int) int { return (i*i + 3*i) % 5 }),
		"skewed 300": gen(300, func(i int) int {
			if i < 150 {
				return 0
			}
			return i%3 + 1
		}, func(i int) int {
			if i*13%7 < 3 {
				return 1
			}
			return 0
		}),
		"mod 1000": gen(1000, func(i int) int { return i % 10 }, func(i int) int { return (i*31 + i/7) % 12 }),
		"noisy 500": gen(500, func(i int) int { return i / 100 }, func(i int) int {
			if i*17%10 != 0 {
				return i / 100
			}
			return i * 3 % 5
		}),
	}
}

// TestAMIFowlkesMallowsSklearn compares AMI and the Fowlkes–Mallows index
// with scikit-learn.
func TestAMIFowlkesMallowsSklearn(t *testing.T) {
	// Computed with scikit-learn 1.2.1 adjusted_mutual_info_score (default
	// average_method="arithmetic") and fowlkes_mallows_score, by
	// testdata/sklearn_ami_fmi.py on Debian's python3-sklearn.
	cases := []struct {
		name     string
		ami, fmi float64
	}{
		{"luo", 0.7651105721766381, 0.8230548917531015},
		{"swapped", 1.0, 1.0},
		{"one vs singletons", 0.0, 0.0},
		{"both one", 1.0, 1.0},
		{"crossed", -0.49999999999999944, 0.0},
		{"singletons", 1.0, 0.0},
		{"small", -1.347424729757481e-16, 0.408248290463863},
		{"mod 200", -0.012691395895600468, 0.28821840270422155},
		{"skewed 300", -0.005186126789576305, 0.4079447553313673},
		{"mod 1000", -0.009864871981253706, 0.08664295554965229},
		{"noisy 500", 0.8300294681902733, 0.8377880345414523},
	}
	parts := amiCases()
	const tol = 1e-12
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := parts[tc.name]
			if !ok {
				t.Fatal("no partition")
			}
			ami, err := AMI(p[0], p[1])
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(ami-tc.ami) > tol {
				t.Errorf("AMI = %.17g, scikit-learn %.17g", ami, tc.ami)
			}
			fmi, err := FowlkesMallows(p[0], p[1])
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(fmi-tc.fmi) > tol {
				t.Errorf("FMI = %.17g, scikit-learn %.17g", fmi, tc.fmi)
			}
			// Both are symmetric.
			if ami2, _ := AMI(p[1], p[0]); math.Abs(ami2-ami) > tol {
				t.Errorf("AMI not symmetric: %v, %v", ami, ami2)
			}
			if fmi2, _ := FowlkesMallows(p[1], p[0]); math.Abs(fmi2-fmi) > tol {
				t.Errorf("FMI not symmetric: %v, %v", fmi, fmi2)
			}
		})
	}
}

// bruteUnconstrainedARI enumerates the pairs: the definition of
// UnconstrainedARI in O(n²).
func bruteUnconstrainedARI(truth, pred []int, set *constraint.Set) float64 {
	in := map[[2]int]bool{}
	for _, q := range set.Pairs {
		in[[2]int{min(q.I, q.J), max(q.I, q.J)}] = true
	}
	var tp, fp, fn, tn float64
	for i := range truth {
		for j := i + 1; j < len(truth); j++ {
			if in[[2]int{i, j}] {
				continue
			}
			st, sp := truth[i] == truth[j], pred[i] == pred[j]
			switch {
			case st && sp:
				tp++
			case sp:
				fp++
			case st:
				fn++
			default:
				tn++
			}
		}
	}
	den := (tp+fn)*(fn+tn) + (tp+fp)*(fp+tn)
	if den == 0 {
		return 1
	}
	return 2 * (tp*tn - fn*fp) / den
}

func TestUnconstrainedARI(t *testing.T) {
	p := amiCases()["noisy 500"]
	truth, pred := p[0], p[1]
	for _, m := range []int{0, 1, 7, 100, 3000} {
		set := &constraint.Set{N: len(truth)}
		for a := 0; a < m; a++ {
			i, j := a*7919%len(truth), (a*104729+13)%len(truth)
			kind := constraint.MustLink
			if truth[i] != truth[j] {
				kind = constraint.CannotLink
			}
			set.Pairs = append(set.Pairs, constraint.Pair{I: i, J: j, Kind: kind})
		}
		got, err := UnconstrainedARI(truth, pred, set)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteUnconstrainedARI(truth, pred, set)
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%d pairs: %v, by enumeration %v", m, got, want)
		}
		if m == 0 {
			ari, _ := ARI(truth, pred)
			if math.Abs(got-ari) > 1e-12 {
				t.Errorf("no constraint: %v, ARI %v", got, ari)
			}
		}
	}
	if _, err := UnconstrainedARI([]int{0, 1}, []int{0, 1}, &constraint.Set{N: 3}); err == nil {
		t.Error("size mismatch accepted")
	}
}

func TestEvaluateUnconstrained(t *testing.T) {
	truth := []int{0, 0, 0, 1, 1, 1, -1}
	pred := []int{0, 0, 1, 1, 1, 1, 0}
	set := &constraint.Set{N: 7, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 2, J: 6, Kind: constraint.CannotLink}}}
	r, err := Evaluate(truth, pred, &Options{Unlabeled: true, Constraints: set, Unconstrained: true})
	if err != nil {
		t.Fatal(err)
	}
	// Pairs among the six labelled items less {0,1} (the pair with item 6
	// has no reference); free items 3, 4, 5.
	want := bruteUnconstrainedARI(truth[:6], pred[:6], &constraint.Set{N: 6, Pairs: set.Pairs[:1]})
	if v, _ := r.Get("ari_unconstrained"); math.Abs(v-want) > 1e-15 {
		t.Errorf("ari_unconstrained %v, want %v", v, want)
	}
	if v, ok := r.Get("ari_free"); !ok || v != 1 {
		t.Errorf("ari_free %v %v, want 1 (items 3, 4, 5 in one cluster of both)", v, ok)
	}
}

// TestAMIAllSingletons: two partitions of n ≥ 2 singletons are identical
// up to relabelling, and AMI is 1 for them, as its doc says. The formula
// is 0/0 there (every table of the permutation model has I = ln n = E[I]
// = H, checked below), and gave 0 for n = 2 and 4 and 1 otherwise, by
// the rounding of I − E[I] (review 109). A partition of singletons
// against one that is not keeps the formula: I = E[I] = H(other), so 0.
func TestAMIAllSingletons(t *testing.T) {
	for n := 2; n <= 12; n++ {
		a, b, other := make([]int, n), make([]int, n), make([]int, n)
		for i := range a {
			a[i], b[i], other[i] = i, n-1-i, i%2
		}
		c, err := NewContingency(a, b)
		if err != nil {
			t.Fatal(err)
		}
		emi := c.ExpectedMutualInfo()
		if ln := math.Log(float64(n)); math.Abs(emi-ln) > 1e-12*ln || math.Abs(c.MutualInfo()-ln) > 1e-12*ln {
			t.Errorf("n = %d: E[I] = %v, I = %v, want ln n = %v", n, emi, c.MutualInfo(), ln)
		}
		if got := c.AMI(); got != 1 {
			t.Errorf("n = %d: AMI of identical singletons = %v, want 1", n, got)
		}
		if got, _ := AMI(a, other); n > 2 && math.Abs(got) > 1e-9 {
			t.Errorf("n = %d: AMI of singletons against two clusters = %v, want 0", n, got)
		}
	}
}
