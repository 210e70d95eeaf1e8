package experiment

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/metrics"
)

// bruteUnconstrainedARI computes the ARI over the unconstrained pairs
// directly from its definition (Hubert & Arabie 1985): the expected index
// of the pair-counting Rand index, built by enumerating every pair.
func bruteUnconstrainedARI(truth, pred []int, set *constraint.Set) float64 {
	skip := map[[2]int]bool{}
	for _, q := range set.Pairs {
		i, j := min(q.I, q.J), max(q.I, q.J)
		skip[[2]int{i, j}] = true
	}
	var a, b, c, d float64
	for i := range truth {
		for j := i + 1; j < len(truth); j++ {
			if skip[[2]int{i, j}] {
				continue
			}
			st, sp := truth[i] == truth[j], pred[i] == pred[j]
			switch {
			case st && sp:
				a++
			case !st && sp:
				b++
			case st && !sp:
				c++
			default:
				d++
			}
		}
	}
	// ARI = (RI − E[RI]) / (1 − E[RI]) with E from the pair margins:
	// N = a+b+c+d, E[a] = (a+b)(a+c)/N; ARI = (a − E[a]) / (½((a+b)+(a+c)) − E[a]).
	n := a + b + c + d
	ea := (a + b) * (a + c) / n
	den := 0.5*((a+b)+(a+c)) - ea
	if den == 0 {
		return 1
	}
	return (a - ea) / den
}

func TestFGPWCUnconstrainedARI(t *testing.T) {
	// Against the brute-force enumeration, and against metrics.ARI when
	// the constraint set is empty. Tolerance 1e-12.
	rnd := rand.New(rand.NewPCG(3, 3))
	for _, tc := range []struct{ n, k, kp int }{{10, 2, 2}, {30, 3, 4}, {70, 5, 3}} {
		truth := make([]int, tc.n)
		pred := make([]int, tc.n)
		for i := range truth {
			truth[i] = rnd.IntN(tc.k)
			pred[i] = rnd.IntN(tc.kp)
			if rnd.Float64() < 0.6 {
				pred[i] = truth[i] % tc.kp
			}
		}
		set, err := constraint.BernoulliPairs(truth, 0.1, rand.NewPCG(uint64(tc.n), 1))
		if err != nil {
			t.Fatal(err)
		}
		got := fgpwcUnconstrainedARI(truth, pred, set)
		want := bruteUnconstrainedARI(truth, pred, set)
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("n=%d: ARI over unconstrained pairs = %.15g, brute force %.15g", tc.n, got, want)
		}
		all, _ := metrics.ARI(truth, pred)
		if got := fgpwcUnconstrainedARI(truth, pred, &constraint.Set{N: tc.n}); math.Abs(got-all) > 1e-12 {
			t.Errorf("n=%d: no constraints gives %.15g, metrics.ARI %.15g", tc.n, got, all)
		}
	}
}

func TestFGPWCTable1Quick(t *testing.T) {
	// The quick experiment runs end to end on the data sets present and
	// its report has the paper's figures beside ours.
	if testing.Short() {
		t.Skip("runs FGPWC and the peers on three data sets (about 15 s)")
	}
	root := filepath.Join("..", "..", "shared", "datasets")
	if _, err := os.Stat(filepath.Join(root, "iris")); err != nil {
		t.Skip("datasets not available")
	}
	e, err := Lookup("fgpwc-table1")
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{DataRoot: root, OutDir: t.TempDir(), Quick: true, Seed: 1}
	out, st, err := Run(context.Background(), e, env, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed > 0 {
		t.Fatalf("%d cells failed: %v", st.Failed, st.Errors)
	}
	for _, want := range []string{"tether repro fgpwc-table1", "| iris |", "0.884", "unconstrained pairs"} {
		if !strings.Contains(out.Markdown, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(env.OutDir, "fgpwc-table1.csv")); err != nil {
		t.Error(err)
	}
}

func TestFGPWCPairedARI(t *testing.T) {
	// A column run on fewer constraint sets (the automatic FGPWC runs the
	// first 2 above 500 nodes) is compared with SL on those sets only, and
	// a set missing from either column is left out. Exact means.
	r := fgpwcRow{name: "circles", n: 900, k: 3}
	imp, sl := fgpwcColumnByKey("fgpwc-auto"), fgpwcColumnByKey("sl")
	if got := fgpwcReps(r, imp, fgpwcSets); got != 2 {
		t.Fatalf("automatic FGPWC runs %d sets on circles, want 2", got)
	}
	results := map[string]Values{}
	for rep := 0; rep < fgpwcSets; rep++ {
		results[fmt.Sprintf("circles/sl/%d", rep)] = Values{"ari": float64(rep)}
	}
	for rep := 0; rep < 3; rep++ { // a third set, outside the column's count, is ignored
		results[fmt.Sprintf("circles/fgpwc-auto/%d", rep)] = Values{"ari": 10 + float64(rep)}
	}
	for _, tc := range []struct {
		name   string
		drop   string
		ma, mb float64
		count  int
	}{
		{"first two sets", "", 10.5, 0.5, 2},
		{"set 1 missing for SL", "circles/sl/1", 10, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := map[string]Values{}
			for k, v := range results {
				if k != tc.drop {
					res[k] = v
				}
			}
			ma, mb, count := fgpwcPairedARI(res, r, imp, sl, fgpwcSets)
			if ma != tc.ma || mb != tc.mb || count != tc.count {
				t.Errorf("got means %v, %v over %d sets; want %v, %v over %d", ma, mb, count, tc.ma, tc.mb, tc.count)
			}
		})
	}
	if _, _, count := fgpwcPairedARI(map[string]Values{}, r, imp, sl, fgpwcSets); count != 0 {
		t.Errorf("no results: count %d", count)
	}
}

func TestFGPWCImprintCell(t *testing.T) {
	// The automatic FGPWC cell (left out of the quick run) runs on one
	// iris constraint set and reports m and sane figures.
	if testing.Short() {
		t.Skip("builds the iris graph and runs FGPWC with cross-validation (about 1 s)")
	}
	root := filepath.Join("..", "..", "shared", "datasets")
	if _, err := os.Stat(filepath.Join(root, "iris")); err != nil {
		t.Skip("datasets not available")
	}
	var iris fgpwcRow
	for _, r := range fgpwcRows {
		if r.name == "iris" {
			iris = r
		}
	}
	loader := newFGPWCLoader(root, 1)
	v, err := fgpwcRun(context.Background(), loader, iris, "fgpwc-auto", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Tolerances: iris is easy (NJW alone reaches 0.82); m is the count of
	// eigenvalues below 0.9 of the imprinted graph, near the 25 of the
	// plain graph, or k = 3 if the cross-validation chose D − W.
	if v["ari"] < 0.7 || v["ari"] > 1 || v["m"] < 3 || v["m"] > 60 || v["constraints"] == 0 {
		t.Errorf("automatic FGPWC on iris: %v", v)
	}
}
