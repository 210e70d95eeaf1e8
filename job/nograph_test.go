package job

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/metrics"
)

// withGraph runs the job s (generated or read from a feature table under
// root) as Run did before it skipped the graph: the default k-NN graph is
// built from the rows, the problem made with input.NewProblem and
// clustered by cluster.Run. It returns the result with the graph's NNZ,
// and fails the test unless a graph was built.
func withGraph(t *testing.T, s Spec, root string) *Result {
	t.Helper()
	ctx := context.Background()
	m, err := cluster.New(s.methodName())
	if err != nil {
		t.Fatal(err)
	}
	if m, err = cluster.SetKnobs(m, s.Knobs); err != nil {
		t.Fatal(err)
	}
	var d *input.Data
	if s.Gen != "" {
		g, p, err := input.GenParams(s.Gen, s.GenParams)
		if err != nil {
			t.Fatal(err)
		}
		if d, err = input.Generate(ctx, g, p, s.GenSeed); err != nil {
			t.Fatal(err)
		}
	} else if d, err = input.ReadTableFile(ctx, filepath.Join(root, s.Input), dataset.Options{Spelling: Spelling()}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.BuildGraph(ctx, graph.DefaultSpec(), nil); err != nil {
		t.Fatal(err)
	}
	if d.Graph == nil || d.Graph.NNZ() == 0 {
		t.Fatal("oracle: no graph built")
	}
	p, err := input.NewProblem(d, m, s.K)
	if err != nil {
		t.Fatal(err)
	}
	if sm := s.Sample; sm != nil && sm.Pairs > 0 {
		if err := sample(ctx, &s, d.Truth, p); err != nil {
			t.Fatal(err)
		}
	}
	out, err := cluster.Run(ctx, m, p, &cluster.Settings{Seed: s.Seed, NormalizeRemedy: normalizeRemedy, Spelling: Spelling()})
	if err != nil {
		t.Fatal(err)
	}
	res := &Result{N: d.Graph.N(), NNZ: d.Graph.NNZ(), K: out.K, Labels: out.Labels, Objective: out.Objective}
	if d.Truth != nil {
		ari, err := metrics.ARI(d.Truth, out.Labels)
		if err != nil {
			t.Fatal(err)
		}
		res.ARI = &ari
	}
	if p.Constraints != nil {
		ml, cl := constraint.Violations(p.Constraints, out.Labels)
		res.ViolatedML, res.ViolatedCL = &ml, &cl
	}
	return res
}

// TestRunFeatureMethodsBuildNoGraph: a job of a method that reads the
// feature rows alone (cpca, cvqe, plmeans with Kernel=features) builds
// no graph, as tether cluster: its result has the note saying so and no
// nnz (absent from the JSON line), n the number of rows, and the labels,
// objective, ARI and violations of the same job with the graph built
// (withGraph: Run before it skipped the graph). plmeans has σ = 10: its
// default σ = 1 leaves every blob point a singleton. A knn above the number of
// rows, which the graph refuses, is then no error: nothing builds it.
func TestRunFeatureMethodsBuildNoGraph(t *testing.T) {
	dir := t.TempDir()
	// A feature table of 120 rows in 3 groups, with a class column.
	var csv strings.Builder
	csv.WriteString("x,y,label\n")
	for i := 0; i < 120; i++ {
		c := i % 3
		x, y := 6*float64(c)+math.Sin(float64(i)), 4*float64(c%2)+math.Cos(1.7*float64(i))
		csv.WriteString(strings.Join([]string{ftoa(x), ftoa(y), "c" + ftoa(float64(c))}, ",") + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "rows.csv"), []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	blobs := map[string]string{"n": "300", "k": "3"}
	pairs := &Sample{Pairs: 90, Seed: 5}
	const tol = 1e-12 // relative, on the objective
	for _, c := range []struct {
		name string
		spec Spec
		n    int
	}{
		{"cpca", Spec{ID: "a", Gen: "blobs", GenParams: blobs, GenSeed: 3, Method: "cpca", K: 3, Seed: 2, Sample: pairs}, 300},
		{"cvqe", Spec{ID: "b", Gen: "blobs", GenParams: blobs, GenSeed: 3, Method: "cvqe", K: 3, Seed: 2, Sample: pairs}, 300},
		{"plmeans features", Spec{ID: "c", Gen: "blobs", GenParams: blobs, GenSeed: 3, Method: "plmeans", Knobs: []string{"Kernel=features", "Sigma=10"}, Seed: 2}, 300},
		{"cpca table", Spec{ID: "d", Input: "rows.csv", Method: "cpca", K: 3, Seed: 1, Sample: pairs}, 120},
		{"cvqe table", Spec{ID: "e", Input: "rows.csv", Method: "cvqe", K: 3, Seed: 1, Sample: pairs}, 120},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := Run(context.Background(), c.spec, dir)
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			want := withGraph(t, c.spec, dir)
			if !reflect.DeepEqual(res.Labels, want.Labels) {
				t.Errorf("labels differ from those with the graph built")
			}
			if res.K < 2 || res.K > c.n/10 {
				t.Errorf("k = %d: a degenerate partition compares little", res.K)
			}
			if d := math.Abs(res.Objective - want.Objective); d > tol*math.Max(1, math.Abs(want.Objective)) {
				t.Errorf("objective %v, want %v (with the graph)", res.Objective, want.Objective)
			}
			if res.K != want.K || (want.ARI != nil) != (res.ARI != nil) || want.ARI != nil && *res.ARI != *want.ARI {
				t.Errorf("k %d ARI %v, want k %d ARI %v", res.K, res.ARI, want.K, want.ARI)
			}
			if want.ViolatedML != nil && (res.ViolatedML == nil || *res.ViolatedML != *want.ViolatedML || *res.ViolatedCL != *want.ViolatedCL) {
				t.Errorf("violations %v %v, want %d %d", res.ViolatedML, res.ViolatedCL, *want.ViolatedML, *want.ViolatedCL)
			}
			note := "no graph built: " + strings.Fields(c.name)[0] + " reads the feature rows only"
			if !slices.Contains(res.Notes, note) {
				t.Errorf("notes %q lack %q", res.Notes, note)
			}
			if res.NNZ != 0 || res.N != c.n {
				t.Errorf("n %d nnz %d, want n %d and no nnz (the graph would have %d)", res.N, res.NNZ, c.n, want.NNZ)
			}
			var line map[string]any
			js, err := res.JSON()
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(js), &line); err != nil {
				t.Fatal(err)
			}
			if _, ok := line["nnz"]; ok || line["n"] != float64(c.n) {
				t.Errorf("JSON line has nnz %v, n %v: %s", line["nnz"], line["n"], js)
			}
			for _, w := range res.Warnings {
				if strings.Contains(w, "no graph here") || strings.Contains(w, "the graph was built with") {
					t.Errorf("warning of a graph not built: %q", w)
				}
			}
			// More neighbours than rows: the graph would refuse it
			// (its error before), and none is built.
			big := c.spec
			big.KNN = c.n + 5
			if r := Run(context.Background(), big, dir); r.Error != "" || !reflect.DeepEqual(r.Labels, want.Labels) {
				t.Errorf("knn %d: error %q (labels equal: %v), want the labels without a graph", big.KNN, r.Error, reflect.DeepEqual(r.Labels, want.Labels))
			}
		})
	}
}

// ftoa formats v for the test's feature table.
func ftoa(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestRunUnusedGraphFields: the fields that shape the graph built from
// feature rows (knn, normalize_weights, self_loops) draw a warning
// naming them as the job spells them when the method builds none (cpca),
// in tether cluster's words, and none when no such field is set or the
// method reads the graph (njw), whose graph they shape.
func TestRunUnusedGraphFields(t *testing.T) {
	dir := writeFiles(t, map[string]string{"b.csv": "x,y\n0,0\n0.1,0\n0,0.2\n5,5\n5.1,5\n5,5.2\n9,0\n9.1,0\n9,0.1\n"})
	const tail = " to no graph here: cpca reads the feature rows only"
	for _, c := range []struct {
		name string
		spec Spec
		want string // the warning; "" for none
	}{
		{"knn", Spec{KNN: 3}, `"knn" applies` + tail},
		{"two fields", Spec{KNN: 3, SelfLoops: 1}, `"knn", "self_loops" apply` + tail},
		{"normalize_weights", Spec{NormalizeWeights: true}, `"normalize_weights" applies` + tail},
		{"all three", Spec{KNN: 4, NormalizeWeights: true, SelfLoops: 0.5}, `"knn", "normalize_weights", "self_loops" apply` + tail},
		{"knn above n", Spec{KNN: 20}, `"knn" applies` + tail},
		{"none", Spec{}, ""},
		{"njw", Spec{Method: "njw", KNN: 3, SelfLoops: 1}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.spec
			s.ID, s.Input, s.K, s.Seed = "u", "b.csv", 3, 1
			if s.Method == "" {
				s.Method = "cpca"
			}
			res := Run(context.Background(), s, dir)
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			var got []string
			for _, w := range res.Warnings {
				if strings.Contains(w, "no graph here") {
					got = append(got, w)
				}
			}
			if c.want == "" && got != nil || c.want != "" && !reflect.DeepEqual(got, []string{c.want}) {
				t.Errorf("warnings %q, want %q", res.Warnings, c.want)
			}
		})
	}
}

// TestRunGraphMethodsReportNNZ: a method that reads the graph (njw,
// plmeans with its default kernel, auto) still has it built: the result
// reports the stored entries of the default k-NN graph of the rows, and
// no note of a graph not built.
func TestRunGraphMethodsReportNNZ(t *testing.T) {
	ctx := context.Background()
	blobs := map[string]string{"n": "200", "k": "3"}
	g, p, err := input.GenParams("blobs", blobs)
	if err != nil {
		t.Fatal(err)
	}
	d, err := input.Generate(ctx, g, p, 4)
	if err != nil {
		t.Fatal(err)
	}
	gr, err := graph.Build(ctx, d.X, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Spec{
		{ID: "n", Method: "njw", K: 3},
		{ID: "p", Method: "plmeans"},
		{ID: "a", Method: "auto", K: 3, Sample: &Sample{Pairs: 40, Seed: 1}},
	} {
		s.Gen, s.GenParams, s.GenSeed, s.Seed = "blobs", blobs, 4, 1
		res := Run(ctx, s, "")
		if res.Error != "" {
			t.Fatalf("%s: %s", s.Method, res.Error)
		}
		if res.NNZ != gr.NNZ() || res.N != 200 {
			t.Errorf("%s: n %d nnz %d, want 200 and %d", s.Method, res.N, res.NNZ, gr.NNZ())
		}
		for _, n := range res.Notes {
			if strings.Contains(n, "no graph built") {
				t.Errorf("%s: note %q", s.Method, n)
			}
		}
	}
}

// TestRunNoGraphOneRow: a job that builds no graph refuses a table of one
// row, naming it, as tether cluster does (the graph refused it before,
// when it was built); two rows are clustered.
func TestRunNoGraphOneRow(t *testing.T) {
	dir := writeFiles(t, map[string]string{"one.csv": "x,y\n1,2\n", "two.csv": "x,y\n1,2\n3,4\n"})
	for _, c := range []struct {
		spec Spec
		want string // the error; "" for none
	}{
		{Spec{ID: "a", Input: "one.csv", Method: "cpca", K: 1}, "one.csv has 1 data row; clustering needs at least 2"},
		{Spec{ID: "b", Input: "one.csv", Method: "plmeans", Knobs: []string{"Kernel=features"}}, "one.csv has 1 data row; clustering needs at least 2"},
		{Spec{ID: "c", Input: "two.csv", Method: "cvqe", K: 2}, ""},
	} {
		res := Run(context.Background(), c.spec, dir)
		if c.want == "" && res.Error != "" || !strings.Contains(res.Error, c.want) {
			t.Errorf("%s: error %q, want %q", c.spec.ID, res.Error, c.want)
		}
	}
}
