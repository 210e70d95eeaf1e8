package experiment

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tether-sc/tether/cluster"
)

// The criterion fixed before the suite was run (noisyDevPick), on
// hand-made scores in the order cscap, fast-ge, none.
func TestNoisyDevPick(t *testing.T) {
	ok := func(worst, mean float64) noisyDevScore {
		return noisyDevScore{worst: worst, mean: mean, ran: true}
	}
	costly := ok(0.01, 0.01)
	costly.clean = -0.03
	failing := ok(0.01, 0.01)
	failing.failed = 1
	missing := ok(0.01, 0.01)
	missing.ran = false
	for _, tc := range []struct {
		name string
		sc   []noisyDevScore
		want int
	}{
		{"smallest worst loss", []noisyDevScore{ok(0.06, 0.02), ok(0.05, 0.03), ok(0.07, 0.01)}, 1},
		{"tie as printed: smaller mean loss", []noisyDevScore{ok(0.0501, 0.03), ok(0.0504, 0.02), ok(0.07, 0.01)}, 1},
		{"tie on both: cscap", []noisyDevScore{ok(0.05, 0.02), ok(0.0502, 0.0198), ok(0.05, 0.02)}, 0},
		{"clean cost below −0.02 excluded", []noisyDevScore{ok(0.06, 0.02), costly, ok(0.07, 0.01)}, 0},
		{"more failed cells than cscap excluded", []noisyDevScore{ok(0.06, 0.02), failing, ok(0.05, 0.03)}, 2},
		{"a dataset without a loss excluded", []noisyDevScore{ok(0.06, 0.02), missing, ok(0.07, 0.01)}, 0},
		{"none eligible", []noisyDevScore{missing, missing, missing}, -1},
	} {
		if got := noisyDevPick(tc.sc); got != tc.want {
			t.Errorf("%s: picked %d, want %d", tc.name, got, tc.want)
		}
	}
}

// The dev suite holds generated data only, 150–600 points, k from 2 to 5,
// and none of it is a dataset of noisy-constraints.
func TestNoisyDevRows(t *testing.T) {
	for _, r := range noisyDevRows {
		for _, q := range noisyRows {
			if r.name == q.name {
				t.Errorf("%s is a noisy-constraints dataset", r.name)
			}
		}
		if _, ok := fgpwcSynth[r.name]; ok {
			t.Errorf("%s is an fgpwc-table1 dataset", r.name)
		}
		if k := max(r.p.K, 2); k > 5 {
			t.Errorf("%s: k = %d", r.name, k)
		}
		if r.p.N < 150 || r.p.N > 600 {
			t.Errorf("%s: n = %d", r.name, r.p.N)
		}
	}
}

// The refine columns run the method with that λ, the default reference
// and the round's space; the reference columns keep the refinement off,
// as when their cells were computed; −1 names the cscap reference's
// column.
func TestNoisyDevRefineColumns(t *testing.T) {
	for _, tc := range []struct {
		col  string
		want cluster.Method
	}{
		{"mcl-noa-ssc/refine=8", cluster.MCLNOASSC{Refine: 8, RefineNJW: true, RefineFixed: true}},
		{"ml-noa-ssc/refine=16", cluster.MLNOASSC{Refine: 16, RefineNJW: true, RefineFixed: true}},
		{"mcl-noa-ssc/refine-ref=2", cluster.MCLNOASSC{Refine: 2, RefineFixed: true}},
		{"ml-noa-ssc/refine-ref=4", cluster.MLNOASSC{Refine: 4, RefineFixed: true}},
		{"mcl-noa-ssc/ref=cscap", cluster.MCLNOASSC{Refine: -1, RefineFixed: true}},
		{"ml-noa-ssc/ref=fast-ge", cluster.MLNOASSC{Reference: cluster.ReferenceFastGE, Refine: -1, RefineFixed: true}},
		{"mcl-noa-ssc-noresolve", cluster.MCLNOASSC{NoResolve: true}},
		{noisyDevCVColumn, cluster.MCLNOASSC{ReferenceFixed: true}},
		{noisyDevRefCVColumn, cluster.MCLNOASSC{}},
	} {
		got, err := noisyDevMethod(tc.col)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: %#v, want %#v", tc.col, got, tc.want)
		}
	}
	r1, r2 := noisyDevRefineRounds[0], noisyDevRefineRounds[1]
	if got := r1.column("mcl-noa-ssc", -1); got != "mcl-noa-ssc/ref=cscap" {
		t.Errorf("λ = −1: column %q", got)
	}
	if got := r2.column("ml-noa-ssc", 4); got != "ml-noa-ssc/refine-ref=4" {
		t.Errorf("round 2, λ = 4: column %q", got)
	}
	for i, r := range noisyDevRefineRounds {
		if r.lambdas[0] != -1 {
			t.Errorf("round %d: the first candidate (the tie-break's) is %g, want −1 (off)", i+1, r.lambdas[0])
		}
	}
}

// Round 5 changes nothing but its own rows: every RBF graph of this
// suite, and of noisy-constraints when its datasets are present, is
// dense, so VoteHops does not act on them (cluster.VoteHopsAct); it acts
// on the round's 10-NN graphs, whose problems take the library's
// defaults.
func TestNoisyDevHopsOnlyActsOnKNNRows(t *testing.T) {
	ctx := context.Background()
	for _, r := range noisyDevRows {
		inst, err := noisyDevLoad(ctx, r, 1)
		if err != nil {
			t.Fatal(err)
		}
		if cluster.VoteHopsAct(inst.g) || inst.libDefaults {
			t.Errorf("%s: VoteHops acts on the RBF graph %v, library defaults %v", r.name, cluster.VoteHopsAct(inst.g), inst.libDefaults)
		}
		r.knn = true
		inst, err = noisyDevLoad(ctx, r, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !cluster.VoteHopsAct(inst.g) || !inst.libDefaults {
			t.Errorf("%s: VoteHops acts on the 10-NN graph %v, library defaults %v", r.key(), cluster.VoteHopsAct(inst.g), inst.libDefaults)
		}
	}
	root := filepath.Join("..", "..", "shared", "datasets")
	if _, err := os.Stat(filepath.Join(root, "iris", "iris.csv")); err != nil {
		t.Log("noisy-constraints' datasets not found; only the generated rows checked")
		return
	}
	for _, r := range noisyRows {
		inst, err := fgpwcLoad(ctx, r, root, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if cluster.VoteHopsAct(inst.g) {
			t.Errorf("noisy-constraints %s: VoteHops acts on the RBF graph", r.name)
		}
	}
}

// Round 5's columns run MCL-NOA-SSC with VoteHops 1 and 2, every other
// knob at its default.
func TestNoisyDevHopsColumns(t *testing.T) {
	for i, col := range noisyDevHopsColumns {
		m, err := noisyDevMethod(col)
		if err != nil {
			t.Fatal(err)
		}
		if want := (cluster.MCLNOASSC{VoteHops: i + 1}); m != want {
			t.Errorf("%s: %+v, want %+v", col, m, want)
		}
	}
}
