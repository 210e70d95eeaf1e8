package experiment

import (
	"context"
	"slices"
	"testing"

	"github.com/tether-sc/tether/cluster"
)

// The criterion on auto-score-dev's scores: most datasets within 0.01
// first, then most above, then the earlier score (the default before).
func TestAutoDevPick(t *testing.T) {
	cases := []struct {
		within, above []int
		want          int
	}{
		{[]int{30, 31}, []int{10, 5}, 1},
		{[]int{31, 31}, []int{10, 11}, 1},
		{[]int{31, 31}, []int{11, 11}, 0},
		{[]int{32, 31}, []int{0, 20}, 0},
	}
	for _, c := range cases {
		if got := autoDevPick(c.within, c.above); got != c.want {
			t.Errorf("within %v above %v: pick %d, want %d", c.within, c.above, got, c.want)
		}
	}
}

// The rows with unequal classes keep the stated shares: the largest
// class holds 47–72% of the nodes (the page says so), every class keeps at
// least one node, and the graph has one node per label.
func TestAutoScoreDevUnequalRows(t *testing.T) {
	ctx := context.Background()
	for _, r := range autoScoreDevRows {
		if r.keep == nil {
			continue
		}
		inst, err := autoScoreDevLoad(ctx, r, 1)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if inst.g.N() != len(inst.truth) {
			t.Fatalf("%s: %d nodes, %d labels", r.name, inst.g.N(), len(inst.truth))
		}
		size := make([]int, inst.k)
		for _, c := range inst.truth {
			size[c]++
		}
		big := 0
		for c, s := range size {
			if s == 0 {
				t.Errorf("%s: class %d is empty", r.name, c)
			}
			big = max(big, s)
		}
		if share := float64(big) / float64(len(inst.truth)); share < 0.47 || share > 0.72 {
			t.Errorf("%s: largest class %.3f of the nodes, outside the stated 47–72%%", r.name, share)
		}
	}
}

// auto-folds-dev's variants: 3, the default before, first (the
// criterion's ties go to it), the default today among them, each with the
// folds it names and nothing else changed, and keys distinct from
// auto-score-dev's cells.
func TestAutoFoldsDevVariants(t *testing.T) {
	vs := autoFoldsDevVariants()
	if len(vs) != len(autoFoldsDevFolds) || vs[0].auto.Folds != 3 || !slices.Contains(autoFoldsDevFolds, cluster.AutoDefaultFolds) {
		t.Fatalf("variants %+v: want 3 first and the default %d among them", vs, cluster.AutoDefaultFolds)
	}
	keys := map[string]bool{}
	for _, v := range append(vs, autoScoreDevVariants()...) {
		k := autoVariantKey("d", v, 0)
		if keys[k] {
			t.Errorf("key %s used twice", k)
		}
		keys[k] = true
	}
	for i, v := range vs {
		want := cluster.Auto{Folds: autoFoldsDevFolds[i]}
		if v.auto != want {
			t.Errorf("variant %s: %+v, want %+v", v.name, v.auto, want)
		}
	}
}

// TestAutoHeldOutDevPick checks the pre-registered criterion of
// auto-heldout-dev on hand-made counts: target (a) summed over the two
// protocols first, then target (b), then the rule before.
func TestAutoHeldOutDevPick(t *testing.T) {
	// Variants are density-major: all@1/n, unimplied@1/n, all@5n, unimplied@5n.
	for _, tc := range []struct {
		name          string
		within, above []int
		want          int
	}{
		{"a decides", []int{30, 31, 30, 30}, []int{20, 10, 20, 10}, 1},
		{"a summed", []int{30, 31, 32, 30}, []int{0, 0, 0, 0}, 0},
		{"b breaks the tie", []int{30, 31, 31, 30}, []int{20, 21, 20, 20}, 1},
		{"full tie keeps all", []int{30, 30, 30, 30}, []int{20, 20, 20, 20}, 0},
	} {
		got, a, b := autoHeldOutDevPick(tc.within, tc.above)
		if got != tc.want {
			t.Errorf("%s: pick %d (a %v, b %v), want %d", tc.name, got, a, b, tc.want)
		}
	}
	if v := autoHeldOutDevVariants(); len(v) != 4 || v[1].auto.HeldOut != cluster.AutoHeldOutUnimplied || v[2].dens != "5n" {
		t.Fatalf("variants %+v are not density-major all/unimplied", v)
	}
}
