package job

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tether-sc/tether/metrics"
)

// twoCliques returns the edge list of two 5-cliques joined by one edge
// (nodes 0–4 and 5–9) and a labels file of its two classes, one a line.
func twoCliques() (edges, truth string) {
	var b strings.Builder
	for c := 0; c < 2; c++ {
		for i := 0; i < 5; i++ {
			for j := i + 1; j < 5; j++ {
				fmt.Fprintf(&b, "%d %d\n", 5*c+i, 5*c+j)
			}
		}
	}
	b.WriteString("4 5\n")
	return b.String(), "0\n0\n0\n0\n0\n1\n1\n1\n1\n1\n"
}

// TestRunTruth: a graph job given "truth" reports ari and nmi against
// it, computed here from the file's labels and the job's by metrics (an
// independent route: the library's scores, not the job's), and can
// sample pairs from it; the same files through Files give the same
// result; a truth file of the wrong length fails naming the job, the
// field and the file; a table's class column is replaced with a note.
func TestRunTruth(t *testing.T) {
	edges, truth := twoCliques()
	dir := writeFiles(t, map[string]string{
		"sbm.edges": edges, "sbm.labels": truth, "short.labels": "0\n1\n",
		"d.csv":      "x,y,label\n0,0,a\n0.1,0,a\n0,0.1,a\n5,5,b\n5.1,5,b\n5,5.1,b\n",
		"odd.labels": "0\n1\n0\n1\n0\n1\n",
	})
	ctx := context.Background()
	want := []int{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}

	s, err := ParseSpec([]byte(`{"id":"t1","graph":"sbm.edges","truth":"sbm.labels","k":2,"method":"njw","seed":1}`))
	if err != nil {
		t.Fatal(err)
	}
	res := Run(ctx, *s, dir)
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	ari, _ := metrics.ARI(want, res.Labels)
	nmi, _ := metrics.NMI(want, res.Labels, metrics.Arithmetic)
	if res.ARI == nil || res.NMI == nil || math.Abs(*res.ARI-ari) > 1e-12 || math.Abs(*res.NMI-nmi) > 1e-12 {
		t.Errorf("ari %v nmi %v, want %v %v", res.ARI, res.NMI, ari, nmi)
	}

	// Sampled pairs from the truth: a graph job's protocol grid.
	sampled := Run(ctx, Spec{ID: "t2", Graph: "sbm.edges", Truth: "sbm.labels", K: 2, Sample: &Sample{Pairs: 8, Seed: 3}, Seed: 1}, dir)
	if sampled.Error != "" || sampled.ViolatedML == nil || sampled.ARI == nil {
		t.Errorf("sampled pairs: %+v", sampled)
	}
	noTruth := Run(ctx, Spec{ID: "t3", Graph: "sbm.edges", K: 2, Sample: &Sample{Pairs: 8, Seed: 3}}, dir)
	if !strings.Contains(noTruth.Error, `give them with "truth"`) {
		t.Errorf("sample without truth: error %q", noTruth.Error)
	}

	// Through Files: the same result.
	mem := &memFiles{m: map[string][]byte{"mem://b/sbm.edges": []byte(edges), "mem://b/sbm.labels": []byte(truth)}}
	got := RunFiles(ctx, *s, "mem://b", mem)
	if g, w := stable(t, got, "mem://b"), stable(t, res, dir); !reflect.DeepEqual(g, w) {
		t.Errorf("through Files %v\nlocal %v", g, w)
	}

	// The wrong number of labels.
	short := Run(ctx, Spec{ID: "t4", Graph: "sbm.edges", Truth: "short.labels", K: 2}, dir)
	if e := short.Error; !strings.Contains(e, "job t4: truth: ") || !strings.Contains(e, filepath.Join(dir, "short.labels")) {
		t.Errorf("short truth: error %q", e)
	}

	// A table's class column is replaced, with a note.
	tab := Run(ctx, Spec{ID: "t5", Input: "d.csv", Truth: "odd.labels", KNN: 2, K: 2, Seed: 1}, dir)
	if tab.Error != "" {
		t.Fatal(tab.Error)
	}
	ari, _ = metrics.ARI([]int{0, 1, 0, 1, 0, 1}, tab.Labels)
	if tab.ARI == nil || math.Abs(*tab.ARI-ari) > 1e-12 || !strings.Contains(strings.Join(tab.Notes, "\n"), "odd.labels replaces the reference labels of") {
		t.Errorf("table with truth: ari %v (want %v), notes %q", tab.ARI, ari, tab.Notes)
	}
}

// TestRunTruthUnknown: nodes whose reference label is unknown (? in the
// truth file) are left out of ari and nmi, as tether cluster's figures
// leave them out (its summary said ARI 1 where the job said 0.58, counting
// the unknown nodes as a class), with a note; the expected scores are
// computed here on the known nodes alone.
func TestRunTruthUnknown(t *testing.T) {
	edges, _ := twoCliques()
	dir := writeFiles(t, map[string]string{"g.edges": edges, "t.labels": "0\n0\n?\n0\n0\n1\n1\n?\n1\n1\n"})
	res := Run(context.Background(), Spec{ID: "u", Graph: "g.edges", Truth: "t.labels", K: 2, Method: "njw", Seed: 1}, dir)
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	var truth, pred []int
	for i, c := range []int{0, 0, -1, 0, 0, 1, 1, -1, 1, 1} {
		if c >= 0 {
			truth, pred = append(truth, c), append(pred, res.Labels[i])
		}
	}
	ari, _ := metrics.ARI(truth, pred)
	nmi, _ := metrics.NMI(truth, pred, metrics.Arithmetic)
	if res.ARI == nil || math.Abs(*res.ARI-ari) > 1e-12 || math.Abs(*res.NMI-nmi) > 1e-12 {
		t.Errorf("ari %v nmi %v, want %v %v (the known nodes alone)", res.ARI, res.NMI, ari, nmi)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "ari and nmi leave out 2 nodes without a reference label") {
		t.Errorf("notes %q", res.Notes)
	}
}
