package constraint

import (
	"errors"
	"math"
	"slices"
	"testing"
)

func TestFractionLabels(t *testing.T) {
	truth := interleaved(12, 8, 5)
	n := len(truth)
	const f, reps = 0.2, 4000
	m := 5 // round(0.2·25)
	hist := make([]int, n)
	for r := range reps {
		l, err := FractionLabels(truth, f, pcg(uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for i, c := range l {
			switch c {
			case Unlabeled:
			case truth[i]:
				got++
				hist[i]++
			default:
				t.Fatalf("node %d labelled %d, truth %d", i, c, truth[i])
			}
		}
		if got != m {
			t.Fatalf("%d labelled nodes, want %d", got, m)
		}
	}
	// Each node is labelled with probability m/n.
	p := float64(m) / float64(n)
	var chi float64
	for _, c := range hist {
		d := float64(c) - reps*p
		chi += d * d / (reps * p * (1 - p))
	}
	if lim := chiSquareLimit(n); chi > lim {
		t.Errorf("labelled-node frequencies χ² = %.1f > %.1f", chi, lim)
	}
	for _, f := range []float64{-1, 2, math.NaN()} {
		if _, err := FractionLabels(truth, f, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("f=%v: err %v, want ErrInvalid", f, err)
		}
	}
}

func TestLabelSets(t *testing.T) {
	truth := interleaved(40, 20, 3, 0, 1)[:64] // classes 0,1,2,4; class 3 empty
	tests := []struct {
		f    float64
		want []int // per class, round(f·n_c), at least 1 if f > 0 and n_c > 0
	}{
		{0.25, []int{10, 5, 1, 0, 1}},
		{0.5, []int{20, 10, 2, 0, 1}}, // round(1.5) = 2, round(0.5) = 1
		{0.75, []int{30, 15, 2, 0, 1}},
		{0, []int{0, 0, 0, 0, 0}},
		{1, []int{40, 20, 3, 0, 1}},
	}
	for _, tc := range tests {
		sets, err := LabelSets(truth, tc.f, pcg(3))
		if err != nil {
			t.Fatal(err)
		}
		if len(sets) != len(tc.want) {
			t.Fatalf("f=%v: %d sets, want %d", tc.f, len(sets), len(tc.want))
		}
		for c, set := range sets {
			if len(set) != tc.want[c] {
				t.Errorf("f=%v: |V_%d| = %d, want %d", tc.f, c, len(set), tc.want[c])
			}
			if !slices.IsSorted(set) {
				t.Errorf("V_%d not sorted", c)
			}
			for _, v := range set {
				if truth[v] != c {
					t.Errorf("node %d of class %d in V_%d", v, truth[v], c)
				}
			}
		}
		l, err := SetsToLabels(len(truth), sets)
		if err != nil {
			t.Fatal(err)
		}
		// LabelsToSets gives the non-empty sets, in label order.
		var nonEmpty [][]int
		for _, set := range sets {
			if len(set) > 0 {
				nonEmpty = append(nonEmpty, set)
			}
		}
		back := LabelsToSets(l)
		if len(back) != len(nonEmpty) {
			t.Errorf("f=%v: LabelsToSets(SetsToLabels) has %d sets, want %d", tc.f, len(back), len(nonEmpty))
		}
		for c := range min(len(back), len(nonEmpty)) {
			if !slices.Equal(back[c], nonEmpty[c]) {
				t.Errorf("f=%v: LabelsToSets(SetsToLabels) differs in set %d", tc.f, c)
			}
		}
	}
	if _, err := SetsToLabels(4, [][]int{{0, 1}, {1}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("node in two sets: err %v", err)
	}
	if _, err := SetsToLabels(-1, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("n = -1: %v (it panicked in make)", err)
	}
	if _, err := SetsToLabels(4, [][]int{{4}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("node out of range: err %v", err)
	}
}

func TestFromLabels(t *testing.T) {
	// Hand-built: nodes 0,2,3,5 labelled 1,1,0,1 → pairs in PairIndex order
	// (0,2) (0,3) (2,3) (0,5) (2,5) (3,5).
	l := Labels{1, Unlabeled, 1, 0, Unlabeled, 1}
	want := []Pair{
		{I: 0, J: 2, Kind: MustLink}, {I: 0, J: 3, Kind: CannotLink}, {I: 2, J: 3, Kind: CannotLink},
		{I: 0, J: 5, Kind: MustLink}, {I: 2, J: 5, Kind: MustLink}, {I: 3, J: 5, Kind: CannotLink},
	}
	s := FromLabels(l)
	if s.N != 6 || !slices.Equal(s.Pairs, want) {
		t.Errorf("FromLabels = %+v, want %+v", s.Pairs, want)
	}
	all, err := SampleFromLabels(l, 1, nil)
	if err != nil || !slices.Equal(all.Pairs, want) {
		t.Errorf("SampleFromLabels p=1 = %+v, %v", all, err)
	}
	// p = 0.4 over the 6 pairs, 5000 seeds: count ~ Binomial(30000, 0.4).
	sum := 0
	for r := range 5000 {
		s, err := SampleFromLabels(l, 0.4, pcg(uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range s.Pairs {
			if !slices.Contains(want, p) {
				t.Fatalf("pair %+v not among the label pairs", p)
			}
		}
		sum += len(s.Pairs)
	}
	mean, sd := 30000*0.4, math.Sqrt(30000*0.4*0.6)
	if math.Abs(float64(sum)-mean) > 5*sd {
		t.Errorf("sampled %d pairs, want %.0f ± %.0f", sum, mean, 5*sd)
	}
}

func TestFlipLabels(t *testing.T) {
	const k, reps = 4, 3000
	l := Labels{0, 1, 2, 3, Unlabeled, 0, 1, 2, 3, 0, Unlabeled}
	// round(0.2·9) = 2 flips. For the new label of node 0 (label 0): uniform
	// over {1, 2, 3}.
	newLabel := make([]int, k)
	flips0 := 0
	for r := range reps {
		out, flipped, err := FlipLabels(l, 0.2, k, pcg(uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		if len(flipped) != 2 {
			t.Fatalf("%d flips, want 2", len(flipped))
		}
		for i := range l {
			changed := out[i] != l[i]
			if changed != slices.Contains(flipped, i) {
				t.Fatalf("node %d: changed %v, listed %v", i, changed, slices.Contains(flipped, i))
			}
			if changed && (l[i] == Unlabeled || out[i] < 0 || out[i] >= k) {
				t.Fatalf("node %d: %d → %d", i, l[i], out[i])
			}
		}
		if out[0] != 0 {
			newLabel[out[0]]++
			flips0++
		}
	}
	// Node 0 is flipped with probability 2/9.
	if p, sd := 2.0/9, math.Sqrt(reps*2.0/9*7/9); math.Abs(float64(flips0)-reps*p) > 5*sd {
		t.Errorf("node 0 flipped %d times, want %.0f ± %.0f", flips0, reps*p, 5*sd)
	}
	exp := float64(flips0) / 3
	if chi := chiSquare(newLabel[1:], []float64{exp, exp, exp}); chi > chiSquareLimit(2) {
		t.Errorf("new labels %v not uniform: χ² = %.1f", newLabel, chi)
	}
	if _, _, err := FlipLabels(l, 0.1, 1, nil); err == nil {
		t.Error("k=1: no error")
	}
	if _, _, err := FlipLabels(Labels{5}, 0.1, 3, nil); err == nil {
		t.Error("label 5 with k=3: no error")
	}
}

func TestFlipPairs(t *testing.T) {
	s := FromLabels(Labels{0, 0, 1, 1, 2})
	out, flipped, err := FlipPairs(s, 0.3, pcg(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(flipped) != 3 { // round(0.3·10)
		t.Fatalf("%d flips, want 3", len(flipped))
	}
	for k := range s.Pairs {
		changed := out.Pairs[k].Kind != s.Pairs[k].Kind
		if changed != slices.Contains(flipped, k) {
			t.Errorf("pair %d changed %v", k, changed)
		}
		if out.Pairs[k].I != s.Pairs[k].I || out.Pairs[k].J != s.Pairs[k].J {
			t.Errorf("pair %d moved", k)
		}
	}
	if ml, _ := s.Count(); ml != 2 {
		t.Errorf("input modified: %d must-links", ml)
	}
}

// TestLabelsValidate: Validate names the first bad node, its label and the
// labels allowed. Before, with k ≤ 0 (no upper bound: a method that
// estimates k, WriteLabels) the message read "want -1 (unlabelled) or
// 0…-1".
func TestLabelsValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    Labels
		k    int
		want string // "" for valid
	}{
		{"valid, k = 3", Labels{0, Unlabeled, 2}, 3, ""},
		{"valid, no bound", Labels{0, Unlabeled, 7}, 0, ""},
		{"class ≥ k", Labels{0, 3, 1}, 3, "node 1 has label 3, want -1 (unlabelled) or 0…2"},
		{"below Unlabeled, k = 2", Labels{0, -2}, 2, "node 1 has label -2, want -1 (unlabelled) or 0…1"},
		{"below Unlabeled, no bound", Labels{-3, 0}, 0, "node 0 has label -3, want -1 (unlabelled) or a class ≥ 0"},
		{"below Unlabeled, k < 0", Labels{5, -7}, -1, "node 1 has label -7, want -1 (unlabelled) or a class ≥ 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.l.Validate(tc.k)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.want != "" && (!errors.Is(err, ErrInvalid) || err.Error() != "constraint: invalid input: "+tc.want):
				t.Errorf("error %v, want ErrInvalid: %q", err, tc.want)
			}
		})
	}
}
