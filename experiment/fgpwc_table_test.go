package experiment

import (
	"context"
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
