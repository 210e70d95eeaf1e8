package experiment

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

func TestShareAndFracVerdicts(t *testing.T) {
	// Expected verdicts from the rules' statements: share — all held, none
	// not held; frac — ≥ 2/3 held, < 1/2 not held.
	cases := []struct {
		ok, total   int
		share, frac Verdict
	}{
		{0, 0, NotTestable, NotTestable},
		{3, 3, Held, Held},
		{0, 3, NotHeld, NotHeld},
		{1, 3, PartlyHeld, NotHeld},
		{2, 3, PartlyHeld, Held},
		{1, 2, PartlyHeld, PartlyHeld},
		{4, 9, PartlyHeld, NotHeld},
		{5, 9, PartlyHeld, PartlyHeld},
		{6, 9, PartlyHeld, Held},
	}
	for _, c := range cases {
		if got := shareVerdict(c.ok, c.total); got != c.share {
			t.Errorf("shareVerdict(%d, %d) = %v, want %v", c.ok, c.total, got, c.share)
		}
		if got := fgpwcFracVerdict(c.ok, c.total); got != c.frac {
			t.Errorf("fgpwcFracVerdict(%d, %d) = %v, want %v", c.ok, c.total, got, c.frac)
		}
	}
}

func TestKendallTauAndOrder(t *testing.T) {
	// τ-a by hand: 3 entries, 3 pairs.
	cases := []struct {
		a, b []float64
		tau  float64
		same bool
	}{
		{[]float64{3, 2, 1}, []float64{30, 20, 10}, 1, true},
		{[]float64{3, 2, 1}, []float64{10, 20, 30}, -1, false},
		{[]float64{3, 2, 1}, []float64{30, 10, 20}, 1.0 / 3, false}, // pairs (0,1) +, (0,2) +, (1,2) −
		{[]float64{1, 1, 2}, []float64{5, 6, 7}, 2.0 / 3, false},    // the tied pair counts as neither
		{[]float64{1}, []float64{2}, 0, true},
	}
	for _, c := range cases {
		if got := kendallTau(c.a, c.b); math.Abs(got-c.tau) > 1e-12 {
			t.Errorf("kendallTau(%v, %v) = %v, want %v", c.a, c.b, got, c.tau)
		}
		if got := sameOrder(c.a, c.b); got != c.same {
			t.Errorf("sameOrder(%v, %v) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

// edgeFractionPairs draws round(f·|E|) distinct edges of the graph, each
// labelled by the oracle, and the same seed gives the same set.
func TestEdgeFractionPairs(t *testing.T) {
	// A ring of 200 nodes: 200 edges, so 1% is 2 and 10% is 20.
	var edges []graph.Edge
	n := 200
	for i := 0; i < n; i++ {
		edges = append(edges, graph.Edge{I: i, J: (i + 1) % n, W: 1})
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i / 50
	}
	for _, c := range []struct {
		f    float64
		want int
	}{{0, 0}, {0.01, 2}, {0.1, 20}, {1, 200}} {
		set, err := edgeFractionPairs(g, truth, c.f, rand.NewPCG(1, 2))
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Pairs) != c.want {
			t.Fatalf("f = %v: %d pairs, want %d", c.f, len(set.Pairs), c.want)
		}
		seen := map[[2]int]bool{}
		for _, p := range set.Pairs {
			if g.Weight(p.I, p.J) == 0 {
				t.Errorf("pair %d–%d is not an edge", p.I, p.J)
			}
			if seen[[2]int{p.I, p.J}] {
				t.Errorf("pair %d–%d drawn twice", p.I, p.J)
			}
			seen[[2]int{p.I, p.J}] = true
			if want := truth[p.I] == truth[p.J]; (p.Kind == constraint.MustLink) != want {
				t.Errorf("pair %d–%d: kind %v, classes %d and %d", p.I, p.J, p.Kind, truth[p.I], truth[p.J])
			}
		}
		again, _ := edgeFractionPairs(g, truth, c.f, rand.NewPCG(1, 2))
		for i := range again.Pairs {
			if again.Pairs[i] != set.Pairs[i] {
				t.Fatalf("f = %v: the same seed gave a different set", c.f)
			}
		}
	}
	if _, err := edgeFractionPairs(g, truth[:10], 0.1, rand.NewPCG(1, 2)); err == nil || !strings.Contains(err.Error(), "10 labels for 200 nodes") {
		t.Errorf("short truth: error %v", err)
	}
	if _, err := edgeFractionPairs(g, truth, 1.5, rand.NewPCG(1, 2)); err == nil {
		t.Error("fraction 1.5 accepted")
	}
}

// closureClaims on hand-made rows: the orders and losses below decide each
// verdict.
func TestClosureClaims(t *testing.T) {
	parts := []string{"A", "B", "C", "D"}
	row := func(fig, p string, ml int, alpha, ari, nmi float64) closureRow {
		return closureRow{figure: fig, partition: p, ml: ml, alpha: alpha, reps: 1, ari: meanSD{ari, 0}, nmiJoint: meanSD{nmi, 0}}
	}
	var rows []closureRow
	// Fig. 4.3 at 500 and 1000 must-links: NMI order A > B > C > D at both;
	// in ARI, D ahead of A at 500.
	for i, p := range parts {
		d := float64(i) * 0.01
		rows = append(rows, row("4.3", p, 500, 1, 0.6+d, 0.6-d), row("4.3", p, 1000, 1, 0.99-d, 0.95-d))
	}
	// Fig. 4.4 at α = 0, 0.5, 1: A loses 0.5 at α = 0 and D 0.2 (the
	// balanced partition loses most); at α = 0.5 D loses more.
	for _, p := range parts {
		lo, mid := 0.45, 0.93
		if p == "D" {
			lo, mid = 0.75, 0.80
		}
		rows = append(rows, row("4.4", p, 1000, 0, lo, lo), row("4.4", p, 1000, 0.5, mid, mid), row("4.4", p, 1000, 1, 0.95, 0.95))
	}
	want := map[string]Verdict{
		"the scores reported in ARI": Held,       // every partition ≥ 0.95 by 1000
		"overall, dataset A":         Held,       // NMI order at both counts
		"imbalanced partitions":      PartlyHeld, // ARI order fails at 500
		"Non-uniformity degrades":    Held,       // α = 0 below α = 1 everywhere
		"the uniformity of the must": PartlyHeld, // D loses more at 0.5 only
	}
	claims := closureClaims(parts, rows)
	if len(claims) != len(want) {
		t.Fatalf("%d claims, want %d", len(claims), len(want))
	}
	for _, c := range claims {
		found := false
		for prefix, v := range want {
			if strings.HasPrefix(c.Quote, prefix) {
				found = true
				if c.Verdict != v {
					t.Errorf("%q: %v (%s), want %v", prefix, c.Verdict, c.Ours, v)
				}
			}
		}
		if !found {
			t.Errorf("unexpected claim %q", c.Quote)
		}
	}
}
