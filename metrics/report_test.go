package metrics

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// TestEvaluateEdgeCases checks every figure on the degenerate partitions of
// SPEC §4. Expected values are worked by hand from the definitions; the
// conventions for 0/0 are those documented on each function.
func TestEvaluateEdgeCases(t *testing.T) {
	ln4 := math.Log(4)
	ones := func(names ...string) map[string]float64 {
		m := map[string]float64{}
		for _, n := range names {
			m[n] = 1
		}
		return m
	}
	all := []string{"rand", "ari", "pair_precision", "pair_recall", "pair_f1", "nmi_arithmetic", "nmi_joint",
		"nmi_max", "nmi_geometric", "nmi_min", "homogeneity", "completeness", "v_measure", "purity",
		"inverse_purity", "accuracy", "muc_precision", "muc_recall", "muc_f1", "b3_precision", "b3_recall",
		"b3_f1", "ceafm_f1", "ceafe_precision", "ceafe_recall", "ceafe_f1", "conll"}
	with := func(m map[string]float64, kv ...any) map[string]float64 {
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1].(float64)
		}
		return m
	}
	cases := []struct {
		name        string
		truth, pred []int
		want        map[string]float64
	}{
		{"identical up to relabelling", []int{0, 0, 1, 1, 2}, []int{9, 9, -3, -3, 4},
			with(ones(all...), "vi", 0.0)},
		// MUC has no link to count: 0, so CoNLL = (0 + 1 + 1)/3.
		{"both singletons", []int{0, 1, 2, 3}, []int{3, 1, 2, 0},
			with(ones(all...), "vi", 0.0, "muc_precision", 0.0, "muc_recall", 0.0, "muc_f1", 0.0,
				"conll", 2.0/3, "entropy_truth", ln4, "mutual_info", ln4)},
		// ARI is 0/0 here; scikit-learn (and we) return 1. NMI likewise.
		{"both one cluster", []int{5, 5, 5, 5}, []int{1, 1, 1, 1},
			with(ones(all...), "vi", 0.0, "entropy_truth", 0.0, "entropy_pred", 0.0, "mutual_info", 0.0)},
		{"n=1", []int{3}, []int{-8},
			with(ones(all...), "vi", 0.0, "muc_precision", 0.0, "muc_recall", 0.0, "muc_f1", 0.0, "conll", 2.0/3)},
		// One cluster against singletons (n = 4): no pair agrees (RI 0);
		// VI = ln 4 (Meilă 2007's maximum); purity 1, inverse purity and
		// accuracy 1/4; B³ P 1 R 1/4 F 2/5; CEAF_e φ = 2/5, P = 1/10, R = 2/5,
		// F = 4/25; MUC P = 0/0 → 0, R = 0.
		{"one vs singletons", []int{0, 0, 0, 0}, []int{0, 1, 2, 3},
			map[string]float64{"rand": 0, "ari": 0, "pair_precision": 1, "pair_recall": 0, "pair_f1": 0,
				"nmi_arithmetic": 0, "nmi_joint": 0, "nmi_min": 0, "nmi_max": 0, "nmi_geometric": 0,
				"vi": ln4, "homogeneity": 1, "completeness": 0, "v_measure": 0,
				"purity": 1, "inverse_purity": 0.25, "accuracy": 0.25,
				"muc_precision": 0, "muc_recall": 0, "muc_f1": 0,
				"b3_precision": 1, "b3_recall": 0.25, "b3_f1": 0.4,
				"ceafe_precision": 0.1, "ceafe_recall": 0.4, "ceafe_f1": 0.16,
				"conll": (0 + 0.4 + 0.16) / 3}},
		// Different numbers of clusters (2 vs 3): ARI 8/33 (see TestARIWorked);
		// accuracy {0,1}→0, {4,5}→1: 4/6; purity (2+1+2)/6; MUC links
		// 6 − 4 cells = 2: P = 2/(6−3), R = 2/(6−2).
		{"2 vs 3 clusters", []int{0, 0, 0, 1, 1, 1}, []int{0, 0, 1, 1, 2, 2},
			map[string]float64{"ari": 8.0 / 33, "accuracy": 4.0 / 6, "purity": 5.0 / 6,
				"muc_precision": 2.0 / 3, "muc_recall": 0.5}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Evaluate(tc.truth, tc.pred, &Options{MinSizes: []int{}})
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range tc.want {
				got, ok := r.Get(name)
				if !ok {
					t.Errorf("%s missing", name)
					continue
				}
				if math.Abs(got-want) > 1e-15 {
					t.Errorf("%s = %.17g, want %.17g", name, got, want)
				}
			}
		})
	}
}

func TestEvaluateInvariance(t *testing.T) {
	// Relabelling both partitions and permuting the items changes no
	// figure (SPEC §4: label permutation invariance).
	rng := rand.New(rand.NewPCG(23, 24))
	for _, n := range sizes {
		for rep := range 5 {
			t.Run(fmt.Sprintf("n=%d/%d", n, rep), func(t *testing.T) {
				truth, pred := randPair(rng, n)
				r1, err := Evaluate(truth, pred, nil)
				if err != nil {
					t.Fatal(err)
				}
				perm := rng.Perm(n)
				t2, p2 := relabelRandom(rng, truth), relabelRandom(rng, pred)
				t3, p3 := make([]int, n), make([]int, n)
				for i, j := range perm {
					t3[i], p3[i] = t2[j], p2[j]
				}
				r2, err := Evaluate(t3, p3, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(r1.Figures) != len(r2.Figures) {
					t.Fatalf("%d figures, then %d", len(r1.Figures), len(r2.Figures))
				}
				for i, f := range r1.Figures {
					g := r2.Figures[i]
					if f.Name != g.Name || math.Abs(f.Value-g.Value) > 1e-12 {
						t.Errorf("%s = %v, after relabelling %s = %v", f.Name, f.Value, g.Name, g.Value)
					}
					if math.IsNaN(f.Value) || math.IsInf(f.Value, 0) {
						t.Errorf("%s = %v is not finite", f.Name, f.Value)
					}
				}
				if _, err := json.Marshal(r1); err != nil {
					t.Errorf("JSON: %v", err)
				}
			})
		}
	}
}

func TestEvaluateOptions(t *testing.T) {
	g, _ := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 2}, {I: 2, J: 3, W: 1}})
	set := &constraint.Set{N: 4, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 2, J: 3, Kind: constraint.CannotLink}}}
	truth := []int{0, 0, 1, 1}
	pred := []int{0, 1, 1, 1}
	r, err := Evaluate(truth, pred, &Options{Graph: g, Constraints: set, MinSizes: []int{2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	// pred splits the must-link {0,1} and keeps the cannot-link {2,3}
	// together; its cut is W_01 = 1, the truth's W_12 = 2; degrees 1, 3, 3,
	// 1, so Ncut = 1/1 + 1/7 and RatioCut = 1/1 + 1/3.
	for name, want := range map[string]float64{"ml_violated": 1, "cl_violated": 1, "cut": 1, "cut_truth": 2,
		"ratio_cut": 1 + 1.0/3, "ncut": 1.0/1 + 1.0/(3+3+1), "class_f1_min2": 0} {
		got, ok := r.Get(name)
		if !ok {
			t.Errorf("%s missing", name)
			continue
		}
		if name == "class_f1_min2" {
			continue // presence only
		}
		if math.Abs(got-want) > 1e-15 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if _, ok := r.Get("class_f1_min3"); ok || len(r.Notes) != 1 {
		t.Errorf("class_f1_min3 reported or notes %q", r.Notes)
	}
	// Size mismatches are errors.
	if _, err := Evaluate(truth, pred, &Options{Graph: g, Constraints: &constraint.Set{N: 3}}); err == nil {
		t.Error("constraints on 3 nodes accepted for 4 labels")
	}
	g3, _ := graph.FromEdges(3, nil)
	if _, err := Evaluate(truth, pred, &Options{Graph: g3}); err == nil {
		t.Error("graph on 3 nodes accepted for 4 labels")
	}
	// The alignment limit skips accuracy and CEAF.
	r, _ = Evaluate(truth, pred, &Options{MaxClusters: 1})
	if _, ok := r.Get("accuracy"); ok {
		t.Error("accuracy computed above MaxClusters")
	}
	if _, ok := r.Get("conll"); ok || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "alignment limit") {
		t.Errorf("conll present or no note: %q", r.Notes)
	}
	// Unlabelled reference items are left out of the comparison.
	r, err = Evaluate([]int{-1, 0, 0, 1}, []int{2, 0, 0, 1}, &Options{Unlabeled: true, Graph: g})
	if err != nil {
		t.Fatal(err)
	}
	if a, _ := r.Get("ari"); r.N != 3 || r.Unlabeled != 1 || a != 1 {
		t.Errorf("n %d unlabeled %d ari %v, want 3 1 1", r.N, r.Unlabeled, a)
	}
	if _, ok := r.Get("cut_truth"); ok {
		t.Error("cut of an incomplete reference reported")
	}
	if _, err := Evaluate([]int{-1, -1}, []int{0, 1}, &Options{Unlabeled: true}); err == nil {
		t.Error("no labelled item accepted")
	}
	// Without the option, −1 is a label like any other.
	r, _ = Evaluate([]int{-1, 0, 0, 1}, []int{2, 0, 0, 1}, nil)
	if a, _ := r.Get("ari"); r.N != 4 || a != 1 {
		t.Errorf("n %d ari %v, want 4 1", r.N, a)
	}
}

// TestDefaultsAreFresh: DefaultMinSizes and Normalizations return new
// slices each call, and changing one changes neither a later call nor
// Evaluate's figures (they were package variables that Evaluate read, so
// that one caller could change Evaluate for the whole program; review
// 86). The report after the changes must equal the one before, figure by
// figure, with class_f1_min2/5/10 and every nmi_<normalization>.
func TestDefaultsAreFresh(t *testing.T) {
	truth := []int{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2}
	pred := []int{0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 0}
	before, err := Evaluate(truth, pred, nil)
	if err != nil {
		t.Fatal(err)
	}
	sizes, norms := DefaultMinSizes(), Normalizations()
	if !slices.Equal(sizes, []int{2, 5, 10}) || !slices.Equal(norms, []Normalization{Arithmetic, Joint, Max, Geometric, Min}) {
		t.Fatalf("DefaultMinSizes() = %v, Normalizations() = %v", sizes, norms)
	}
	for i := range sizes {
		sizes[i] = 1
	}
	for i := range norms {
		norms[i] = Min
	}
	if s, z := DefaultMinSizes(), Normalizations(); !slices.Equal(s, []int{2, 5, 10}) || !slices.Equal(z, []Normalization{Arithmetic, Joint, Max, Geometric, Min}) {
		t.Errorf("after changing the slices returned: DefaultMinSizes() = %v, Normalizations() = %v", s, z)
	}
	after, err := Evaluate(truth, pred, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("Evaluate changed with the slices returned:\nbefore %+v\nafter  %+v", before, after)
	}
	for _, name := range []string{"class_f1_min2", "class_f1_min5", "nmi_arithmetic", "nmi_joint", "nmi_max", "nmi_geometric", "nmi_min"} {
		if _, ok := after.Get(name); !ok {
			t.Errorf("no figure %s", name)
		}
	}
	if !slices.Contains(after.Notes, "class_f1_min10 skipped: no reference cluster has 10 items") {
		t.Errorf("notes %q lack class_f1_min10's", after.Notes)
	}
}
