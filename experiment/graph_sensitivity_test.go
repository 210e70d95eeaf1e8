package experiment

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// The 10-NN reading of the study is the graph of Tables 3.1 and 4.2: its
// cells must reproduce those experiments' own cells exactly (same graph,
// labels, constraints and seeds), while a full RBF reading gives another
// graph. Only the generated moons run (no dataset folder needed).
func TestGraphSensitivityMatchesTablesOnTheirGraph(t *testing.T) {
	env := &Env{DataRoot: t.TempDir(), Quick: true, Seed: 1}
	ctx := context.Background()
	gsCells, err := GraphSensitivity().Cells(env)
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]Cell{}
	for _, c := range gsCells {
		byKey[c.Key] = c
	}
	check := func(tableCells []Cell, table, version string) {
		for _, c := range tableCells {
			if !strings.HasPrefix(c.Key, version+"/moons/") {
				continue
			}
			rest := strings.TrimPrefix(c.Key, version+"/")
			want, err := c.Run(ctx)
			if err != nil {
				t.Fatal(err)
			}
			g, ok := byKey["knn10/"+table+"/"+rest]
			if !ok {
				t.Fatalf("no cell knn10/%s/%s", table, rest)
			}
			got, err := g.Run(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got["ari"] != want["ari"] {
				t.Errorf("%s %s: ARI %v on the 10-NN reading, %v in the table", table, rest, got["ari"], want["ari"])
			}
		}
	}
	t31, _ := Table31().Cells(env)
	check(t31, "table3.1", t31Version)
	t42, _ := Table42().Cells(env)
	check(t42, "table4.2", t42Version)

	// The full mean-variance graph is another graph: label propagation's
	// ARI on it differs from the 10-NN one in some repetition.
	differ := false
	for rep := 0; rep < ssReps(env); rep++ {
		a, err := byKey["knn10/table3.1/moons/labelprop/rep"+strconv.Itoa(rep)].Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b, err := byKey["full-meanvar/table3.1/moons/labelprop/rep"+strconv.Itoa(rep)].Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		differ = differ || a["ari"] != b["ari"]
	}
	if !differ {
		t.Error("the full RBF reading gave the 10-NN graph's results")
	}
	// Datasets above gsMaxFull nodes get no full-graph cell.
	for k := range byKey {
		if strings.HasPrefix(k, "full-") && strings.Contains(k, "/spam/") {
			t.Errorf("cell %s: spam is above %d nodes", k, gsMaxFull)
		}
	}
}
