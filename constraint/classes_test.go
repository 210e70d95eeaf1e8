package constraint

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/tether-sc/tether/internal/testmem"
)

// labelsToSetsRef is LabelsToSets as it was before it compressed the
// labels (one slot per label value 0…max), with the empty slots removed:
// the reference for its output and order.
func labelsToSetsRef(l Labels) [][]int {
	k := 0
	for _, c := range l {
		k = max(k, c+1)
	}
	sets := make([][]int, k)
	for i, c := range l {
		if c >= 0 {
			sets[c] = append(sets[c], i)
		}
	}
	out := [][]int{}
	for _, s := range sets {
		if len(s) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// labelSetsRef is LabelSets as it was before classMembers compressed the
// labels: per label 0…max, the members in increasing order, and
// round(f·n_c) of them (at least one) by sampleIndices, class after class.
func labelSetsRef(truth []int, f float64, src rand.Source) [][]int {
	k := 0
	for _, c := range truth {
		k = max(k, c+1)
	}
	members := make([][]int, k)
	for i, c := range truth {
		members[c] = append(members[c], i)
	}
	rng := newRand(src)
	sets := make([][]int, k)
	for c, mem := range members {
		m := int64(roundHalfAway(f * float64(len(mem))))
		if f > 0 && len(mem) > 0 && m == 0 {
			m = 1
		}
		idx, _ := sampleIndices(t0(), "", int64(len(mem)), m, rng)
		sets[c] = []int{}
		for _, t := range idx {
			sets[c] = append(sets[c], mem[t])
		}
	}
	return sets
}

// roundHalfAway is math.Round written out: x ≥ 0 rounded half away from 0.
func roundHalfAway(x float64) float64 {
	r := float64(int64(x))
	if x-r >= 0.5 {
		r++
	}
	return r
}

// randomLabels returns n labels drawn among the given label values, with
// some nodes Unlabeled when unlabelled is set.
func randomLabels(rng *rand.Rand, n int, values []int, unlabelled bool) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = values[rng.IntN(len(values))]
		if unlabelled && rng.IntN(4) == 0 {
			out[i] = Unlabeled
		}
	}
	return out
}

// TestLabelsToSets compares LabelsToSets with a hand example and with the
// old one-slot-per-label grouping (empty slots removed) on random small
// labellings, dense and sparse.
func TestLabelsToSets(t *testing.T) {
	// Hand example: labels 7, 0, 7, −1, 3, 0 group as {1, 5} (0), {4} (3),
	// {0, 2} (7); node 3 is unlabelled.
	got := LabelsToSets(Labels{7, 0, 7, -1, 3, 0})
	if want := [][]int{{1, 5}, {4}, {0, 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("LabelsToSets(7 0 7 −1 3 0) = %v, want %v", got, want)
	}
	if got := LabelsToSets(Labels{-1, -1}); len(got) != 0 {
		t.Errorf("LabelsToSets(−1 −1) = %v, want no set", got)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{0, 1, 2, 3, 5, 10, 70} {
		for _, values := range [][]int{{0}, {0, 1, 2}, {2, 5}, {0, 3, 1000}, {4, 90, 7, 100000}} {
			l := Labels(randomLabels(rng, n, values, true))
			if got, want := LabelsToSets(l), labelsToSetsRef(l); !reflect.DeepEqual(got, want) {
				t.Errorf("LabelsToSets(%v) = %v, want %v", l, got, want)
			}
		}
	}
}

// TestStratifiedLabels: LabelSets and StratifiedLabels draw what the old
// LabelSets (labelSetsRef) drew for the same seed, labels sparse or dense.
func TestStratifiedLabels(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{1, 2, 3, 5, 10, 70, 300} {
		for _, values := range [][]int{{0}, {0, 1, 2}, {2, 5}, {0, 3, 1000}, {4, 90, 7, 5000}} {
			truth := randomLabels(rng, n, values, false)
			for _, f := range []float64{0, 0.1, 0.5, 1} {
				want := labelSetsRef(truth, f, pcg(uint64(n)))
				sets, err := LabelSets(truth, f, pcg(uint64(n)))
				if err != nil || !reflect.DeepEqual(sets, want) {
					t.Errorf("n=%d labels %v f=%v: LabelSets = %v, %v; want %v", n, values, f, sets, err, want)
				}
				wantL, err := SetsToLabels(n, want)
				if err != nil {
					t.Fatal(err)
				}
				got, err := StratifiedLabels(t0(), truth, f, pcg(uint64(n)))
				if err != nil || !slices.Equal(got, wantL) {
					t.Errorf("n=%d labels %v f=%v: StratifiedLabels = %v, %v; want %v", n, values, f, got, err, wantL)
				}
			}
		}
	}
	if _, err := StratifiedLabels(t0(), []int{0, 1}, 1.5, nil); err == nil {
		t.Error("f = 1.5: no error")
	}
	if _, err := StratifiedLabels(t0(), []int{0, -1}, 0.5, nil); err == nil {
		t.Error("negative label: no error")
	}
}

// TestClassPairsRelabel: the must-link generators draw the same pairs for
// labels renamed by an increasing map (c → 1000·c + 7, sparse), as the
// classes are taken in label order either way.
func TestClassPairsRelabel(t *testing.T) {
	truth := interleaved(30, 1, 0, 20, 7)
	sparse := make([]int, len(truth))
	for i, c := range truth {
		sparse[i] = 1000*c + 7
	}
	for _, alpha := range []float64{0, 0.5, 1} {
		a, err1 := MustLinksUniformity(truth, 200, alpha, pcg(5))
		b, err2 := MustLinksUniformity(sparse, 200, alpha, pcg(5))
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("α=%v: MustLinksUniformity differs after relabelling (%v, %v)", alpha, err1, err2)
		}
	}
	a, err1 := UniformMustLinks(truth, 300, pcg(6))
	b, err2 := UniformMustLinks(sparse, 300, pcg(6))
	if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("UniformMustLinks differs after relabelling (%v, %v)", err1, err2)
	}
	for _, p := range b.Pairs {
		if sparse[p.I] != sparse[p.J] || p.Kind != MustLink {
			t.Errorf("pair %v joins classes %d and %d", p, sparse[p.I], sparse[p.J])
		}
	}
}

// TestClassesSparseLabelsMemory: labels {0, 5·10⁶} cost memory for two
// classes, not 5·10⁶ + 1 (one slot per label value took 160 MB: a
// [][]int and a count of 5·10⁶ + 1 entries).
func TestClassesSparseLabelsMemory(t *testing.T) {
	const big = 5_000_000
	truth := []int{big, 0, big, 0, big, 0}
	const limit = 1 << 20 // bytes; the work needs a few hundred
	for _, tc := range []struct {
		name string
		run  func() error
	}{
		{"LabelsToSets", func() error {
			if got, want := LabelsToSets(truth), [][]int{{1, 3, 5}, {0, 2, 4}}; !reflect.DeepEqual(got, want) {
				t.Errorf("LabelsToSets = %v, want %v", got, want)
			}
			return nil
		}},
		{"StratifiedLabels", func() error {
			l, err := StratifiedLabels(t0(), truth, 1, nil)
			if !slices.Equal(l, Labels(truth)) {
				t.Errorf("StratifiedLabels f=1 = %v, want %v", l, truth)
			}
			return err
		}},
		{"UniformMustLinks", func() error {
			s, err := UniformMustLinks(truth, 6, nil) // all 3 + 3 must-links
			if err == nil && len(s.Pairs) != 6 {
				t.Errorf("%d must-links, want 6", len(s.Pairs))
			}
			return err
		}},
		{"MustLinksUniformity", func() error {
			_, err := MustLinksUniformity(truth, 4, 0.5, nil)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			d := testmem.Allocated(func() { err = tc.run() })
			if err != nil {
				t.Fatal(err)
			}
			if d > limit {
				t.Errorf("allocated %d bytes, want at most %d", d, limit)
			}
		})
	}
}
