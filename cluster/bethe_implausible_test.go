package cluster

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

// cliSpelling spells remedies as a command line whose -k sets Problem.K.
type cliSpelling struct{}

func (cliSpelling) Remedy(flag string, values ...string) string { return "cli: -" + flag }

// The k estimated on the default 10-NN graph of two moons (the README
// tour's data, tether gen moons -n 1000 -noise 0.12) is dozens of
// clusters, which bethe returned with a note alone (k = 83 through the
// CLI): a warning now says that the estimate is unreliable on such a
// graph and to give k, spelled by Settings.Spelling. The estimate and the
// partition are those of before (the warning is added, nothing else).
func TestBetheImplausibleKWarned(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	x, _, err := synth.Moons(1000, 0.12, rand.NewPCG(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(context.Background(), x, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), BetheHessian{}, &Problem{Graph: g}, &Settings{Seed: 1, Spelling: cliSpelling{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.K*res.K <= g.N() {
		t.Fatalf("k = %d estimated on the moons' 10-NN graph: the test needs more than √n", res.K)
	}
	var warned []string
	for _, w := range res.Warnings {
		if strings.Contains(w, "implausible") {
			warned = append(warned, w)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "unreliable on this graph") || !strings.Contains(warned[0], "give k (Problem.K; cli: -k)") ||
		!strings.Contains(warned[0], "k-NN or RBF graph of feature points") {
		t.Errorf("warnings %q: want one saying the estimate k = %d is implausible and to give k (Problem.K; cli: -k)", res.Warnings, res.K)
	}
	// The note of the estimate stays.
	if !strings.Contains(strings.Join(res.Notes, "\n"), "estimated from the negative eigenvalues") {
		t.Errorf("notes %q: want the estimate's", res.Notes)
	}
	// The same estimate and partition with K given as the estimate,
	// without the warning.
	fixed, err := Run(context.Background(), BetheHessian{}, &Problem{Graph: g, K: res.K}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range fixed.Warnings {
		if strings.Contains(w, "implausible") {
			t.Errorf("K given: warning %q", w)
		}
	}
}

// On block models the estimate is for (TestBetheEstimatesK's), it gets no
// such warning.
func TestBethePlausibleKNotWarned(t *testing.T) {
	for _, k := range []int{2, 3, 4} {
		g, _, err := synth.SBM(1200, k, 30, 2, rand.NewPCG(uint64(k), 5))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), BetheHessian{}, &Problem{Graph: g}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range res.Warnings {
			if strings.Contains(w, "implausible") || strings.Contains(w, "cap MaxK") {
				t.Errorf("k = %d (estimated %d): warning %q", k, res.K, w)
			}
		}
	}
}

// An estimate cut at MaxK is a bound, not a count: it is warned whatever
// √n says (4 blocks, MaxK 2 and 3; MaxK 4, the count itself, is not).
func TestBetheCappedKWarned(t *testing.T) {
	g, _, err := synth.SBM(1200, 4, 30, 2, rand.NewPCG(4, 5))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		maxK   int
		warned bool
	}{{2, true}, {3, true}, {4, false}, {10, false}} {
		res, err := Run(context.Background(), BetheHessian{MaxK: tc.maxK}, &Problem{Graph: g}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(strings.Join(res.Warnings, "\n"), "is the cap MaxK")
		if got != tc.warned || res.K != min(4, tc.maxK) {
			t.Errorf("MaxK %d: k = %d, warned %v (%q); want k = %d, warned %v", tc.maxK, res.K, got, res.Warnings, min(4, tc.maxK), tc.warned)
		}
	}
}

// The rule itself: more than √n clusters (k² > n), or the cap.
func TestBetheImplausibleKRule(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		capped bool
		warned bool
	}{
		{2, 1000, false, false}, {31, 1000, false, false}, {32, 1000, false, true}, {83, 1000, false, true},
		{10, 100, false, false}, {11, 100, false, true}, {3, 1000, true, true},
	} {
		w := betheImplausibleK(tc.k, tc.n, tc.capped, nil)
		if (w != "") != tc.warned {
			t.Errorf("k = %d, n = %d, capped %v: warning %q, want one: %v", tc.k, tc.n, tc.capped, w, tc.warned)
		}
		if w != "" && !strings.HasSuffix(w, "give k (Problem.K)") {
			t.Errorf("library warning %q: want it to end with give k (Problem.K)", w)
		}
	}
}
