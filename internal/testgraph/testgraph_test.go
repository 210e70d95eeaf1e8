package testgraph

import (
	"testing"

	"github.com/tether-sc/tether/constraint"
)

// TestLabelledCirculant: on 20 nodes with stride 3 and every 4th node
// labelled, each node has the 4 neighbours i ± 1, i ± 3 (mod 20), and
// nodes 0, 4, …, 16 carry the classes 0 to 4, the others none.
func TestLabelledCirculant(t *testing.T) {
	const n = 20
	g, labels := LabelledCirculant(t, n, 3, 4)
	if g.N() != n || len(labels) != n {
		t.Fatalf("%d nodes, %d labels, want %d", g.N(), len(labels), n)
	}
	for i := range n {
		idx, _ := g.Row(i)
		want := map[int]bool{(i + 1) % n: true, (i + n - 1) % n: true, (i + 3) % n: true, (i + n - 3) % n: true}
		if len(idx) != len(want) {
			t.Errorf("node %d: neighbours %v, want %v", i, idx, want)
		}
		for _, j := range idx {
			if !want[int(j)] {
				t.Errorf("node %d: neighbour %d, want %v", i, j, want)
			}
		}
		wantLabel := constraint.Unlabeled
		if i%4 == 0 {
			wantLabel = i / 4
		}
		if labels[i] != wantLabel {
			t.Errorf("node %d: label %d, want %d", i, labels[i], wantLabel)
		}
	}
}
