package experiment

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
)

// TestSeed001Pairs checks the constraint generator of seed001-fig2-3: every
// pair of the known nodes, must-link exactly when the classes agree; pair
// noise flips exactly that share of the pairs (same known nodes and pairs
// as the clean set drawn from the same stream); label noise (seed 001
// §5.1.2) flips the class of exactly that share of the known nodes, so
// that the pairs disagree with the classes exactly on the pairs joining a
// flipped node to an unflipped one, and never with each other.
func TestSeed001Pairs(t *testing.T) {
	truth := make([]int, 50)
	for i := range truth {
		truth[i] = i % 2
	}
	clean := seed001Pairs(truth, 0.4, seed001Noise{}, rand.NewPCG(1, 2))
	if len(clean.Pairs) != 20*19/2 {
		t.Fatalf("%d pairs for 20 known nodes, want 190", len(clean.Pairs))
	}
	for _, p := range clean.Pairs {
		if (p.Kind == constraint.MustLink) != (truth[p.I] == truth[p.J]) {
			t.Fatalf("pair %+v disagrees with the classes", p)
		}
	}
	noisy := seed001Pairs(truth, 0.4, seed001Noise{share: 0.1}, rand.NewPCG(1, 2))
	flipped := 0
	for k, p := range noisy.Pairs {
		if p.I != clean.Pairs[k].I || p.J != clean.Pairs[k].J {
			t.Fatalf("pair %d is %d–%d in the noisy set, %d–%d in the clean one", k, p.I, p.J, clean.Pairs[k].I, clean.Pairs[k].J)
		}
		if p.Kind != clean.Pairs[k].Kind {
			flipped++
		}
	}
	if flipped != 19 {
		t.Fatalf("%d pairs flipped at 10%% of 190, want 19", flipped)
	}
	labelled := seed001Pairs(truth, 0.4, seed001Noise{share: 0.1, labels: true}, rand.NewPCG(1, 2))
	if len(labelled.Pairs) != 190 {
		t.Fatalf("label noise: %d pairs, want 190", len(labelled.Pairs))
	}
	wrong := map[int]int{} // pairs of each node that disagree with the classes
	for _, p := range labelled.Pairs {
		if (p.Kind == constraint.MustLink) != (truth[p.I] == truth[p.J]) {
			wrong[p.I]++
			wrong[p.J]++
		}
	}
	// 2 flipped nodes of 20: each disagrees on its 18 pairs to the
	// unflipped ones, each unflipped node on its 2 pairs to them.
	flippedNodes := 0
	for _, c := range wrong {
		switch c {
		case 18:
			flippedNodes++
		case 2:
		default:
			t.Fatalf("label noise: a node with %d disagreeing pairs, want 18 (flipped) or 2", c)
		}
	}
	if flippedNodes != 2 || len(wrong) != 20 {
		t.Errorf("label noise: %d flipped nodes (%d nodes touched), want 2 of 20", flippedNodes, len(wrong))
	}
	if same, closure := constraint.Contradictions(labelled); same+closure != 0 {
		t.Errorf("label noise: %d contradictions, want none", same+closure)
	}
}

// TestSeed001Quick runs the quick protocol on wine (skipped without the
// shared datasets): the two-class subset has 119 points, and the page marks
// every claim held or not held.
func TestSeed001Quick(t *testing.T) {
	root := ssDataRoot(t)
	graphs := &memo[string, *seed001Data]{}
	env := &Env{DataRoot: root, Quick: true, Seed: 1}
	d, err := seed001Load(context.Background(), env, graphs, "wine")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.truth) != 119 {
		t.Fatalf("wine subset has %d points, want 119 (classes 2 and 3)", len(d.truth))
	}
	out, st, err := Run(context.Background(), seed001Fig23(), env, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed > 0 {
		t.Fatalf("%d cells failed: %v", st.Failed, st.Errors)
	}
	checkClaims(t, out, 1)
	if !strings.Contains(out.Markdown, "## Claims") || !strings.Contains(out.Markdown, "held**") {
		t.Fatalf("page without claims:\n%s", out.Markdown)
	}
}
