package job

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

func TestParseSpec(t *testing.T) {
	cases := []struct {
		name, line, wantErr string
	}{
		{"generator", `{"id":"a","gen":"moons","k":2,"seed":1}`, ""},
		{"file and knobs", `{"id":"b-1.x","input":"d.csv","label":"last","method":"fgpwc","knobs":["M=5"],"k":3,"seed":0}`, ""},
		{"missing id", `{"gen":"moons","k":2}`, "missing id"},
		{"path in id", `{"id":"../x","gen":"moons","k":2}`, `id "../x"`},
		{"two inputs", `{"id":"a","gen":"moons","graph":"g.txt","k":2}`, "exactly one of"},
		{"no input", `{"id":"a","k":2}`, "exactly one of"},
		{"unknown field", `{"id":"a","gen":"moons","kk":2}`, `unknown field "kk"`},
		{"negative k", `{"id":"a","gen":"moons","k":-1}`, "negative k"},
		{"file and sample", `{"id":"a","gen":"moons","k":2,"constraints":"c.txt","sample":{"pairs":5}}`, "both from a file and sampled"},
		{"bad fraction", `{"id":"a","gen":"moons","k":2,"sample":{"label_fraction":1.5}}`, "label_fraction"},
		{"two values", `{"id":"a","gen":"moons","k":2} {}`, "more than one JSON value"},
		{"not JSON", `id=a`, "column 1: unexpected 'i': want a value"},
		// A field that does not apply to the input is refused, as tether
		// cluster refuses its flag (label was ignored but for a feature
		// table, knn with a graph, the generator's fields without gen).
		{"label, graph", `{"id":"j","graph":"g.txt","label":"club","k":2}`, "job j: label is an option of the feature table of input and does not apply to graph (the file is the graph)"},
		{"label, dataset", `{"id":"j","dataset":"iris","label":"last","k":3}`, "job j: label is an option of the feature table of input and does not apply to dataset iris (a catalog dataset, with its own labels)"},
		{"label, gen", `{"id":"j","gen":"moons","label":"y","k":2}`, "job j: label is an option of the feature table of input and does not apply to gen moons (it generates points)"},
		{"label, unknown gen", `{"id":"j","gen":"spirals","label":"y","k":2}`, "job j: label is an option of the feature table of input and does not apply to gen spirals"},
		{"knn, graph", `{"id":"j","graph":"g.txt","knn":5,"k":2}`, "job j: knn builds the graph from features and does not apply to graph (the file is the graph)"},
		{"knn, graph generator", `{"id":"j","gen":"sbm","knn":5,"k":2}`, "job j: knn builds the graph from features and does not apply to gen sbm (it generates a graph)"},
		{"gen_params without gen", `{"id":"j","input":"d.csv","gen_params":{"n":"5"},"k":2}`, "job j: gen_params are the parameters of gen and do not apply without it"},
		{"gen_seed without gen", `{"id":"j","graph":"g.txt","gen_seed":3,"k":2}`, "job j: gen_seed seeds gen and does not apply without it"},
		{"data_root without dataset", `{"id":"j","input":"d.csv","data_root":"/data","k":2}`, "job j: data_root is the folder of the catalog of dataset and does not apply without it"},
		{"scale, graph", `{"id":"j","graph":"g.txt","scale":"minmax","k":2}`, "job j: scale is an option of the feature table of input and does not apply to graph (the file is the graph)"},
		{"scale, gen", `{"id":"j","gen":"moons","scale":"zscore","k":2}`, "job j: scale is an option of the feature table of input and does not apply to gen moons (it generates points)"},
		{"unknown scale", `{"id":"j","input":"d.csv","scale":"max","k":2}`, `unknown scaling "max" (want none, minmax or zscore)`},
		{"missing, graph", `{"id":"j","graph":"g.txt","missing":"impute","k":2}`, "job j: missing is an option of the feature table of input and does not apply to graph (the file is the graph)"},
		{"missing_markers, gen", `{"id":"j","gen":"moons","missing_markers":["NA"],"k":2}`, "job j: missing_markers is an option of the feature table of input and does not apply to gen moons (it generates points)"},
		{"missing_markers, dataset", `{"id":"j","dataset":"iris","missing_markers":["NA"],"k":3}`, "job j: missing_markers is an option of the feature table of input and does not apply to dataset iris"},
		{"unknown missing", `{"id":"j","input":"d.csv","missing":"fill","k":2}`, `missing-value policy "fill"`},
		{"a number among missing_markers", `{"id":"j","input":"d.csv","missing_markers":["NA","-1"],"k":2}`, `job j: missing_markers: marker "-1" is a number: every field -1, in every column, would be read as missing`},
		// The fields that apply.
		{"knn, table", `{"id":"j","input":"d.csv","label":"last","knn":5,"k":2}`, ""},
		{"scale, table", `{"id":"j","input":"d.csv","scale":"MinMax","k":2}`, ""},
		{"scale none, graph", `{"id":"j","graph":"g.txt","scale":"none","k":2}`, ""},
		{"missing and missing_markers, table", `{"id":"j","input":"d.csv","missing":"impute","missing_markers":["NA","NULL"],"k":2}`, ""},
		{"missing reject, graph", `{"id":"j","graph":"g.txt","missing":"reject","k":2}`, ""},
		{"knn, points", `{"id":"j","gen":"moons","gen_params":{"n":"50"},"gen_seed":2,"knn":5,"k":2}`, ""},
		{"knn, dataset", `{"id":"j","dataset":"iris","data_root":"/data","knn":5,"k":3}`, ""},
		{"knn, unknown gen", `{"id":"j","gen":"spirals","knn":5,"k":2}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSpec([]byte(tc.line))
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want ErrSpec containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestReadManifest(t *testing.T) {
	good := "\ufeff# a grid\n\n{\"id\":\"a\",\"gen\":\"moons\",\"k\":2}\r\n{\"id\":\"b\",\"gen\":\"circles\",\"k\":2}\n"
	specs, err := ReadManifest(strings.NewReader(good), "m.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 2 || specs[0].ID != "a" || specs[1].Gen != "circles" {
		t.Fatalf("specs = %+v", specs)
	}
	for _, tc := range []struct{ in, want string }{
		{"{\"id\":\"a\",\"gen\":\"moons\",\"k\":2}\n{\"id\":\"a\",\"gen\":\"moons\",\"k\":3}\n", `m.jsonl:2: job: bad spec: id "a" already used on line 1`},
		{"\n\n{\"id\":\"a\"}\n", "m.jsonl:3: job: bad spec: job a: give exactly one of"},
		{"{\"id\":\"a\",\"gen\":\"moons\",\"k\":2," + strings.Repeat(" ", MaxLine) + "}\n", "longer than"},
	} {
		_, err := ReadManifest(strings.NewReader(tc.in), "m.jsonl")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
}

// TestRunMatchesLibrary checks a generated job against the same steps
// taken by hand through the library: the data of synth with tether gen's
// seed, the default k-NN graph, cluster.Run and metrics.ARI.
func TestRunMatchesLibrary(t *testing.T) {
	ctx := context.Background()
	res := Run(ctx, Spec{ID: "m", Gen: "moons", GenParams: map[string]string{"n": "200", "noise": "0.08"}, GenSeed: 4, K: 2, Seed: 9}, "")
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	gen, _ := synth.Lookup("moons")
	p := gen.Defaults
	p.N, p.Noise = 200, 0.08
	d, err := gen.Generate(ctx, p, rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(ctx, d.X, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	want, err := cluster.Run(ctx, cluster.NJW{}, &cluster.Problem{Graph: g, K: 2}, &cluster.Settings{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Labels, want.Labels) {
		t.Fatal("labels differ from the library's")
	}
	ari, _ := metrics.ARI(d.Labels, want.Labels)
	if res.ARI == nil || *res.ARI != ari || res.N != 200 || res.K != 2 || res.NNZ != g.NNZ() {
		t.Fatalf("result %+v, want ARI %v", res, ari)
	}
	if s := res.Sizes; len(s) != 2 || s[0]+s[1] != 200 {
		t.Fatalf("sizes %v", s)
	}
}

func TestRunSampledPairsDeterministic(t *testing.T) {
	s := Spec{ID: "c", Gen: "circles", GenParams: map[string]string{"n": "150"}, Method: "fgpwc", K: 2, Seed: 3,
		Sample: &Sample{Pairs: 60, Seed: 5}}
	a, b := Run(context.Background(), s, ""), Run(context.Background(), s, "")
	if a.Error != "" {
		t.Fatal(a.Error)
	}
	if a.ViolatedML == nil || a.ViolatedCL == nil {
		t.Fatal("violations not reported")
	}
	a.Seconds, b.Seconds, a.GraphSeconds, b.GraphSeconds = 0, 0, 0, 0
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("same spec, different results:\n%+v\n%+v", a, b)
	}
}

func TestRunFiles(t *testing.T) {
	dir := t.TempDir()
	csv := "x,y,label\n0,0,a\n0.1,0,a\n0,0.1,a\n0.1,0.1,a\n5,5,b\n5.1,5,b\n5,5.1,b\n5.1,5.1,b\n"
	if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "c.txt"), []byte("0,4,ml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := Run(context.Background(), Spec{ID: "f", Input: "d.csv", Label: "last", KNN: 3, K: 2, Constraints: "c.txt", Method: "njw"}, dir)
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	if res.ARI == nil || *res.ARI != 1 {
		t.Errorf("ARI %v, want 1", res.ARI)
	}
	if len(res.Warnings) == 0 || !strings.Contains(strings.Join(res.Warnings, ";"), "constraint") {
		t.Errorf("njw given constraints: warnings %q should name the unused input", res.Warnings)
	}
	if *res.ViolatedML != 1 {
		t.Errorf("ml violations %d, want 1 (nodes 0 and 4 are in different blobs)", *res.ViolatedML)
	}
	// Without knn, the default K = 10 shrinks to the 8 rows' 7, and a
	// warning says so.
	res = Run(context.Background(), Spec{ID: "g", Input: "d.csv", Label: "last", K: 2, Method: "njw"}, dir)
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	if res.ARI == nil || *res.ARI != 1 || !strings.Contains(strings.Join(res.Warnings, ";"), "d.csv has only 8 rows: the graph was built with K = 7 neighbours") {
		t.Errorf("ARI %v, warnings %q", res.ARI, res.Warnings)
	}
}

func TestRunErrors(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	moons := map[string]string{"n": "100"}
	cases := []struct {
		name string
		ctx  context.Context
		spec Spec
		want string
	}{
		{"missing file", context.Background(), Spec{ID: "a", Input: "nope.csv", K: 2}, "nope.csv"},
		{"unknown method", context.Background(), Spec{ID: "a", Gen: "moons", GenParams: moons, K: 2, Method: "kmeanz"}, "kmeanz"},
		{"bad knob", context.Background(), Spec{ID: "a", Gen: "moons", GenParams: moons, K: 2, Method: "fgpwc", Knobs: []string{"Zeta=1"}}, `no knob "Zeta"`},
		{"knob out of range", context.Background(), Spec{ID: "a", Gen: "moons", GenParams: moons, K: 2, Method: "hbisect", Knobs: []string{"Alpha=9"}}, "outside its range"},
		{"bad generator parameter", context.Background(), Spec{ID: "a", Gen: "moons", GenParams: map[string]string{"n": "x"}, K: 2}, "gen moons"},
		{"unknown generator", context.Background(), Spec{ID: "a", Gen: "spirals", K: 2}, "spirals"},
		{"k too large", context.Background(), Spec{ID: "a", Gen: "moons", GenParams: moons, K: 500}, "k = 500, want 1 ≤ k ≤ n = 100"},
		{"sample without reference", context.Background(), Spec{ID: "a", Graph: "g.txt", K: 2, Sample: &Sample{Pairs: 3}}, "g.txt"},
		{"cancelled", cancelled, Spec{ID: "a", Gen: "moons", GenParams: moons, K: 2}, "canceled"},
		// A field the input does not read, known once it is read (a
		// folder of images, a catalog dataset that is a graph), and a
		// generator parameter the generator does not read.
		{"label, images", context.Background(), Spec{ID: "a", Input: "images", Label: "last", K: 2}, "job a: label is an option of the feature table of input and does not apply to input images (a folder of images, one subfolder per class)"},
		{"knn, catalog graph", context.Background(), Spec{ID: "a", Dataset: "karate", DataRoot: "catalog", KNN: 5, K: 2}, "job a: knn builds the graph from features and does not apply to dataset karate (a graph)"},
		{"parameter the generator does not read", context.Background(), Spec{ID: "a", Gen: "moons", GenParams: map[string]string{"n": "100", "factor": "0.3"}, K: 2}, `gen_params.factor = "0.3": gen moons: synth: invalid parameter: moons has no parameter factor (it reads n, noise)`},
		{"k of a two-class generator", context.Background(), Spec{ID: "a", Gen: "circles", GenParams: map[string]string{"k": "3"}, K: 2}, "gen circles: synth: invalid parameter: k = 3 does not apply to circles: it always makes 2 classes (give k 2 or 0, or leave k out)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			// A folder of images (empty: the label is refused before
			// it is read) and a karate club of three nodes.
			if err := os.MkdirAll(filepath.Join(root, "images"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(root, "catalog", "karate"), 0o755); err != nil {
				t.Fatal(err)
			}
			gml := "graph [\n node [ id 0 club \"A\" ]\n node [ id 1 club \"A\" ]\n node [ id 2 club \"B\" ]\n edge [ source 0 target 1 ]\n edge [ source 1 target 2 ]\n]\n"
			if err := os.WriteFile(filepath.Join(root, "catalog", "karate", "karate_club.gml"), []byte(gml), 0o644); err != nil {
				t.Fatal(err)
			}
			res := Run(tc.ctx, tc.spec, root)
			if res.Error == "" || !strings.Contains(res.Error, tc.want) {
				t.Fatalf("error %q, want it to mention %q", res.Error, tc.want)
			}
			if res.ID != "a" || res.Labels != nil || res.ARI != nil {
				t.Fatalf("failed job keeps figures: %+v", res)
			}
		})
	}
}

// TestSaveLabelsRerun: a rerun into a folder that holds an earlier run's
// labels replaces them when the job succeeds and removes them when it
// fails, so that no labels file contradicts its result line.
func TestSaveLabelsRerun(t *testing.T) {
	cases := []struct {
		name string
		res  Result
		want string // content of the labels file afterwards; "" means no file
	}{
		{"success replaces", Result{ID: "a", Labels: []int{1, 0}}, "1\n0\n"},
		{"failure removes", Result{ID: "a", Error: "cluster: unknown method"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(LabelsPath(dir, "a"), []byte("0\n0\n0\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := SaveLabels(context.Background(), dir, &tc.res); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(LabelsPath(dir, "a"))
			switch {
			case tc.want == "" && !errors.Is(err, os.ErrNotExist):
				t.Fatalf("labels file of the failed job still there (%q, %v)", b, err)
			case tc.want != "" && string(b) != tc.want:
				t.Fatalf("labels %q (%v), want %q", b, err, tc.want)
			}
		})
	}
	// A failed job with no earlier labels is not an error.
	if err := SaveLabels(context.Background(), t.TempDir(), &Result{ID: "b", Error: "x"}); err != nil {
		t.Fatal(err)
	}
	// A malformed line's id can be anything: a failed job whose id is not
	// a valid one removes nothing, inside the folder or outside it.
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(parent, "keep.labels")
	if err := os.WriteFile(outside, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"../keep", "", "a/b"} {
		if err := SaveLabels(context.Background(), out, &Result{ID: id, Error: "manifest line: bad"}); err != nil {
			t.Fatalf("id %q: %v", id, err)
		}
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("a failed job with id \"../keep\" removed a file outside its folder: %v", err)
	}
}

// TestDefaultMethod: a job that names no method runs njw, or auto when it
// has side information (files or a sample that draws any), as tether
// cluster does; the result names the method run.
func TestDefaultMethod(t *testing.T) {
	gen := Spec{Gen: "moons", GenParams: map[string]string{"n": "80"}, K: 2, Seed: 1}
	for _, c := range []struct {
		name   string
		sample *Sample
		want   string
	}{
		{"none", nil, "njw"},
		{"empty sample", &Sample{Seed: 1}, "njw"},
		{"pairs", &Sample{Pairs: 40, Seed: 1}, "auto"},
		{"labels", &Sample{LabelFraction: 0.2, Seed: 1}, "auto"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := gen
			s.ID, s.Sample = "d", c.sample
			res := Run(context.Background(), s, "")
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			if res.Method != c.want {
				t.Errorf("method %q, want %q", res.Method, c.want)
			}
		})
	}
}

// TestRunRenumberedLabels: a job's partial labels with integer classes
// outside 0…k−1 (1 and 2 for k = 2) are read as classes, in increasing
// order, and the result's notes say so, as tether cluster's stderr does;
// labels in 0…k−1 are the classes, without a note. Every method numbers
// its clusters by the classes (njw, which ignores the labels, too), and
// the result names the class of each cluster and counts the labels kept,
// as tether cluster's summary does.
func TestRunRenumberedLabels(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"d.csv":    "x,y\n0,0\n0.1,0\n0,0.1\n0.1,0.1\n5,5\n5.1,5\n5,5.1\n5.1,5.1\n",
		"l12.txt":  "0,1\n4,2\n",
		"l01.txt":  "0,0\n4,1\n",
		"l10.txt":  "0,1\n4,0\n",
		"lab.txt":  "0,low\n4,high\n",
		"lone.txt": "5,1\n",
	})
	for _, tc := range []struct {
		labels, method, want string
		labelsOut            []int
		classes              []string
		kept                 [2]int
	}{
		{"l12.txt", "labelprop", filepath.Join(dir, "l12.txt") + ": labels 1, 2 read as classes 0, 1 (k = 2 numbers the classes 0…1)", []int{0, 0, 0, 0, 1, 1, 1, 1}, []string{"1", "2"}, [2]int{2, 2}},
		{"l01.txt", "labelprop", "", []int{0, 0, 0, 0, 1, 1, 1, 1}, []string{"0", "1"}, [2]int{2, 2}},
		{"l01.txt", "njw", "", []int{0, 0, 0, 0, 1, 1, 1, 1}, []string{"0", "1"}, [2]int{2, 2}},
		{"l10.txt", "njw", "", []int{1, 1, 1, 1, 0, 0, 0, 0}, []string{"0", "1"}, [2]int{2, 2}},
		{"lab.txt", "njw", "", []int{1, 1, 1, 1, 0, 0, 0, 0}, []string{"high", "low"}, [2]int{2, 2}},
		// One labelled class: the other cluster has no class; njw's
		// numbering puts node 5 in cluster 1 either way.
		{"lone.txt", "njw", "", []int{0, 0, 0, 0, 1, 1, 1, 1}, []string{"", "1"}, [2]int{1, 1}},
	} {
		t.Run(tc.labels+"/"+tc.method, func(t *testing.T) {
			res := Run(context.Background(), Spec{ID: "a", Input: "d.csv", KNN: 3, K: 2, Labels: tc.labels, Method: tc.method}, dir)
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			var got []string
			for _, w := range res.Notes {
				if strings.Contains(w, "read as classes") {
					got = append(got, w)
				}
			}
			if tc.want == "" && got != nil || tc.want != "" && !reflect.DeepEqual(got, []string{tc.want}) {
				t.Errorf("notes %q, want %q", res.Notes, tc.want)
			}
			if strings.Contains(strings.Join(res.Warnings, ";"), "read as classes") {
				t.Errorf("renumbered labels among the warnings: %q", res.Warnings)
			}
			if !reflect.DeepEqual(res.Labels, tc.labelsOut) {
				t.Errorf("labels %v, want %v", res.Labels, tc.labelsOut)
			}
			if !reflect.DeepEqual(res.Classes, tc.classes) {
				t.Errorf("classes %q, want %q", res.Classes, tc.classes)
			}
			if res.LabelsKept == nil || *res.LabelsKept != tc.kept {
				t.Errorf("labels kept %v, want %v", res.LabelsKept, tc.kept)
			}
		})
	}
}

// TestRunOneBasedLabelsWarning: a job's partial labels by index without a
// base directive that never name node 0 though they list half of the
// nodes (nodes 1, 2, 5, 6 of 8: 4 of 8) come with the labels reader's
// warning among the result's warnings, as tether cluster prints it.
func TestRunOneBasedLabelsWarning(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"d.csv": "x,y\n0,0\n0.1,0\n0,0.1\n0.1,0.1\n5,5\n5.1,5\n5,5.1\n5.1,5.1\n",
		"l.txt": "1,0\n2,0\n5,1\n6,1\n",
	})
	res := Run(context.Background(), Spec{ID: "a", Input: "d.csv", KNN: 3, K: 2, Labels: "l.txt", Method: "labelprop"}, dir)
	if res.Error != "" {
		t.Fatal(res.Error)
	}
	want := filepath.Join(dir, "l.txt") + ": no line names node 0, though 4 of the 8 nodes are listed"
	found := false
	for _, w := range res.Warnings {
		found = found || strings.HasPrefix(w, want)
	}
	if !found {
		t.Errorf("warnings %q lack %q", res.Warnings, want)
	}
}

// TestRunScale: a job's scale scales the columns of its feature table as
// tether cluster's -scale does. Two groups 1 apart in x, each spread over
// 0…1000 in y: as read, y alone makes the 3-NN graph and njw splits the
// rows by y (ARI below 1 against the groups); with scale minmax (or
// zscore), x and y weigh alike and njw finds the groups (ARI 1).
func TestRunScale(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"d.csv": "x,y,label\n0,0,a\n0.01,330,a\n0.02,660,a\n0.03,1000,a\n1,0,b\n1.01,330,b\n1.02,660,b\n1.03,1000,b\n",
	})
	for _, c := range []struct {
		scale   dataset.Scale
		perfect bool
	}{{dataset.ScaleNone, false}, {dataset.ScaleMinMax, true}, {dataset.ScaleZScore, true}} {
		t.Run(c.scale.String(), func(t *testing.T) {
			res := Run(context.Background(), Spec{ID: "a", Input: "d.csv", KNN: 3, K: 2, Method: "njw", Scale: c.scale, Seed: 1}, dir)
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			if perfect := *res.ARI == 1; perfect != c.perfect {
				t.Errorf("ARI %v (labels %v): perfect %v, want %v", *res.ARI, res.Labels, perfect, c.perfect)
			}
		})
	}
}

// TestRunScaleWarning: a job on a feature table with a column of values
// like 1e-200 beside columns of order 1, which the distances ignore, warns
// naming the column and the job's remedy, scale minmax; with scale minmax
// it does not (input.Data.ScaleWarning gives the rule).
func TestRunScaleWarning(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"d.csv": "x,y,tiny\n0,0,0\n0.1,0,1e-200\n0,0.1,2e-200\n0.1,0.1,0\n5,5,1e-200\n5.1,5,0\n5,5.1,3e-200\n5.1,5.1,0\n",
	})
	const want = `column "tiny" varies by 3e-200, less than 2⁻²⁶ times the 5.1 of column "x" (max − min)`
	for _, c := range []struct {
		scale  dataset.Scale
		warned bool
	}{{dataset.ScaleNone, true}, {dataset.ScaleMinMax, false}} {
		t.Run(c.scale.String(), func(t *testing.T) {
			res := Run(context.Background(), Spec{ID: "a", Input: "d.csv", KNN: 3, K: 2, Method: "njw", Scale: c.scale, Seed: 1}, dir)
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			warned := slices.ContainsFunc(res.Warnings, func(w string) bool {
				return strings.Contains(w, want) && strings.HasSuffix(w, `; the job's "scale": "minmax" scales every column onto [0, 1]`)
			})
			if warned != c.warned {
				t.Errorf("warnings %q: the warning %q is there %v, want %v", res.Warnings, want, warned, c.warned)
			}
		})
	}
}

// TestRunTooManyClasses: a job whose partial labels name more classes
// than its k fails with an error naming k as the job gives it, the field
// k ("for k = 2"), not tether cluster's flag ("for -k 2", which it said).
func TestRunTooManyClasses(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"d.csv":     "x,y\n0,0\n0.1,0\n0,0.1\n0.1,0.1\n5,5\n5.1,5\n5,5.1\n5.1,5.1\n",
		"ints.txt":  "0,0\n4,1\n7,2\n",
		"names.txt": "0,low\n4,mid\n7,high\n",
	})
	for file, want := range map[string]string{
		"ints.txt": filepath.Join(dir, "ints.txt") + ": 3 classes (0, 1, 2) for k = 2: node 7 has label 2; want at most 2 distinct labels (-1, ? or empty when unknown)",
		// Class names are numbered in sorted order: mid is class 2.
		"names.txt": filepath.Join(dir, "names.txt") + `: 3 classes (high, low, mid) for k = 2: node 4 has class "mid"`,
	} {
		t.Run(file, func(t *testing.T) {
			res := Run(context.Background(), Spec{ID: "a", Input: "d.csv", KNN: 3, K: 2, Labels: file, Method: "labelprop"}, dir)
			if res.Error != want {
				t.Errorf("error %q, want %q", res.Error, want)
			}
		})
	}
}

// TestRunFindsK: a job that gives k to a method that chooses k itself is
// refused, naming it, as tether cluster's -k is (plmeans took k for a
// cap, opplc ignored it with a warning); without k it runs.
func TestRunFindsK(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"d.csv": "x,y\n0,0\n0.1,0\n0,0.1\n0.1,0.1\n5,5\n5.1,5\n5,5.1\n5.1,5.1\n",
	})
	res := Run(context.Background(), Spec{ID: "a", Input: "d.csv", KNN: 3, K: 3, Method: "plmeans"}, dir)
	if want := "job a: k = 3: plmeans chooses k itself, whatever k says: leave k out"; !strings.Contains(res.Error, want) {
		t.Errorf("error %q, want one containing %q", res.Error, want)
	}
	if res := Run(context.Background(), Spec{ID: "b", Input: "d.csv", KNN: 3, Method: "plmeans"}, dir); res.Error != "" {
		t.Errorf("without k: %s", res.Error)
	}
}

// TestRunKFromLabels: a job of a method of partial labels that does not
// estimate k (auto, the default with labels; labelprop) and gives no k
// takes the number of classes of its labels file, or of the reference
// when sample.label_fraction draws the labels, with a note, as tether
// cluster does; a file of one class is refused, naming it.
func TestRunKFromLabels(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"d.csv":   "x,y,label\n0,0,a\n0.1,0,a\n0,0.1,a\n0.1,0.1,a\n5,5,b\n5.1,5,b\n5,5.1,b\n5.1,5.1,b\n9,0,c\n9.1,0,c\n9,0.1,c\n9.1,0.1,c\n",
		"l.txt":   "0,a\n4,b\n8,c\n",
		"one.txt": "0,a\n1,a\n",
	})
	for _, tc := range []struct {
		name string
		spec Spec
		k    int
		note string
		err  string
	}{
		{"auto, labels file", Spec{ID: "a", Input: "d.csv", Label: "label", KNN: 3, Labels: "l.txt", Seed: 1}, 3, "k = 3, the number of classes in l.txt (k sets k)", ""},
		{"labelprop, labels file", Spec{ID: "a", Input: "d.csv", Label: "label", KNN: 3, Labels: "l.txt", Method: "labelprop", Seed: 1}, 3, "k = 3, the number of classes in l.txt (k sets k)", ""},
		{"k given", Spec{ID: "a", Input: "d.csv", Label: "label", KNN: 3, K: 3, Labels: "l.txt", Method: "labelprop", Seed: 1}, 3, "", ""},
		{"sampled labels", Spec{ID: "a", Input: "d.csv", Label: "label", KNN: 3, Sample: &Sample{LabelFraction: 0.5, Seed: 1}, Seed: 1}, 3, "k = 3, the number of reference classes, from which sample.label_fraction draws the labels (k sets k)", ""},
		{"one class", Spec{ID: "a", Input: "d.csv", Label: "label", KNN: 3, Labels: "one.txt", Method: "labelprop", Seed: 1}, 0, "", "job a: k is not given: labelprop does not estimate it, and labels one.txt has 1 class, too few to give it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Run(context.Background(), tc.spec, dir)
			if tc.err != "" {
				if !strings.Contains(res.Error, tc.err) {
					t.Fatalf("error %q, want it to contain %q", res.Error, tc.err)
				}
				return
			}
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			if res.K != tc.k {
				t.Errorf("k = %d, want %d", res.K, tc.k)
			}
			found := tc.note == ""
			for _, n := range res.Notes {
				found = found || n == tc.note
				if tc.note == "" && strings.Contains(n, "(k sets k)") {
					t.Errorf("note %q with k given", n)
				}
			}
			if !found {
				t.Errorf("notes %q lack %q", res.Notes, tc.note)
			}
		})
	}
}

// normalize_weights and self_loops act on a job's graph as tether
// cluster's -normalize-weights and -self-loops do: sl on weights up to
// 250 warns about their scale without the first and notes the division
// with it (the warning naming the job's field as the remedy); self_loops
// adds one stored entry per node; a negative
// self_loops is refused when the line is read.
func TestRunNormalizeWeightsAndSelfLoops(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"g.txt": "0 1 250\n1 2 250\n0 2 250\n3 4 250\n4 5 250\n3 5 250\n2 3 20\n",
		"c.txt": "0,5,cl\n1,2,ml\n",
	})
	const warned = "sl: the largest edge weight is 250"
	const noted = "normalize_weights: every weight divided by the largest edge weight, 250"
	has := func(list []string, s string) bool {
		for _, x := range list {
			if strings.Contains(x, s) {
				return true
			}
		}
		return false
	}
	base := Spec{ID: "a", Graph: "g.txt", Constraints: "c.txt", K: 2, Method: "sl", Seed: 1}
	plain := Run(context.Background(), base, dir)
	norm := base
	norm.NormalizeWeights = true
	normRes := Run(context.Background(), norm, dir)
	loops := norm
	loops.SelfLoops = 1
	loopsRes := Run(context.Background(), loops, dir)
	for _, r := range []*Result{plain, normRes, loopsRes} {
		if r.Error != "" {
			t.Fatal(r.Error)
		}
	}
	if !has(plain.Warnings, warned) || has(plain.Notes, noted) {
		t.Errorf("without normalize_weights: warnings %q, notes %q", plain.Warnings, plain.Notes)
	}
	// The warning's remedy is the job's field, not tether cluster's flag.
	if !has(plain.Warnings, `(the job's "normalize_weights": true; library: graph.Graph.Normalized)`) || has(plain.Warnings, "tether cluster -normalize-weights") {
		t.Errorf("without normalize_weights: warnings %q do not name the job's remedy", plain.Warnings)
	}
	if has(normRes.Warnings, warned) || !has(normRes.Notes, noted) {
		t.Errorf("with normalize_weights: warnings %q, notes %q", normRes.Warnings, normRes.Notes)
	}
	if loopsRes.NNZ != normRes.NNZ+6 {
		t.Errorf("self_loops 1: %d stored entries, want %d + 6", loopsRes.NNZ, normRes.NNZ)
	}
	if _, err := ParseSpec([]byte(`{"id":"b","graph":"g.txt","k":2,"seed":1,"self_loops":-1}`)); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), "self_loops = -1") {
		t.Errorf("self_loops -1: error %v, want ErrSpec naming it", err)
	}
}

// writeFiles writes each name's content into a fresh temporary directory
// and returns the directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, c := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestRunSpelledMessages: the notes and warnings of reading a job's
// table name the options as the job spells them (Spelling: the fields
// label and knn), and never tether cluster's flags, which a job has not:
// the class column, a column of names, a categorical column, and a
// table too small for the default graph.
func TestRunSpelledMessages(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"classes.csv": "x,z,label,class\n0,0,a,1\n0,1,a,2\n1,0,a,3\n5,5,b,4\n5,6,b,5\n6,5,b,6\n",
		"names.csv":   "name,x,y\nann,0,0\nbob,0,1\ncid,1,0\ndan,5,5\neve,5,6\nfay,6,5\n",
		"color.csv":   "x,y,color\n0,0,red\n0,1,red\n1,0,blue\n5,5,blue\n5,6,red\n6,5,blue\n",
	})
	const small = `has only 6 rows: the graph was built with K = 5 neighbours ("knn": 5; the default is 10) and σ_i the distance to the 5th nearest other row (the default is local:7)`
	for _, c := range []struct {
		input, note string
	}{
		{"classes.csv", `column "label" is the reference labels, not a feature (job: "label": "none" makes it a feature; library: Options.LabelColumn "none"); "class" stays a feature (job: "label": "class" takes it instead)`},
		{"names.csv", `column "name" has a different text on every row: read as the names of the rows, not a feature (library: Options.Categorical one-hot encodes it)`},
		{"color.csv", `column "color": 2 categories one-hot encoded into 2 features (deleting the column from the file leaves it out)`},
	} {
		t.Run(c.input, func(t *testing.T) {
			res := Run(context.Background(), Spec{ID: "a", Input: c.input, K: 2, Method: "njw", Seed: 1}, dir)
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			has := func(list []string, sub string) bool {
				return slices.ContainsFunc(list, func(m string) bool { return strings.Contains(m, sub) })
			}
			if !has(res.Notes, c.note) {
				t.Errorf("notes %q, want one with %q", res.Notes, c.note)
			}
			if !has(res.Warnings, small) {
				t.Errorf("warnings %q, want one with %q", res.Warnings, small)
			}
			for _, m := range slices.Concat(res.Notes, res.Warnings) {
				if strings.Contains(m, "tether: -") || strings.Contains(m, "(-") || strings.Contains(m, "; -") {
					t.Errorf("%q names tether's flags", m)
				}
			}
		})
	}
}

// TestRunGenKNote: a job whose k differs from the number of classes its
// generator made says so in its notes — the generator's default (a job's
// k, unlike tether cluster's -k, does not set -gen-k), gen_params "k", or
// a generator of fixed classes — and a job whose k matches has no such
// note.
func TestRunGenKNote(t *testing.T) {
	for _, tc := range []struct {
		name   string
		gen    string
		params map[string]string
		k      int
		want   string // the note; "" for none
	}{
		{"default classes", "blobs", map[string]string{"n": "60"}, 4, `k = 4, but gen blobs made 3 classes, its default: a job's k does not set the generator's classes, gen_params "k" does (tether cluster's -gen-k follows -k)`},
		{"gen_params k", "blobs", map[string]string{"n": "60", "k": "3"}, 2, `k = 2, but gen blobs made 3 classes (gen_params "k")`},
		{"fixed classes", "moons", map[string]string{"n": "60"}, 3, "k = 3, but gen moons always makes 2 classes"},
		{"default matches", "blobs", map[string]string{"n": "60"}, 3, ""},
		{"gen_params k matches", "sbm", map[string]string{"n": "60", "k": "3"}, 3, ""},
		{"fixed matches", "moons", map[string]string{"n": "60"}, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Run(context.Background(), Spec{ID: "g", Gen: tc.gen, GenParams: tc.params, K: tc.k, Method: "njw", Seed: 1}, "")
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			var got []string
			for _, n := range res.Notes {
				if strings.Contains(n, "classes") && strings.HasPrefix(n, "k = ") {
					got = append(got, n)
				}
			}
			if tc.want == "" && got != nil || tc.want != "" && !reflect.DeepEqual(got, []string{tc.want}) {
				t.Errorf("notes %q, want %q", res.Notes, tc.want)
			}
		})
	}
}

// TestGraphJobWarningsNameNoKNN: the warning of a disconnected graph
// names the job field "knn" when the graph was built from feature rows,
// and no field for a graph file, where a job refuses knn (review 134:
// three disjoint cliques read from a file were told to set "knn").
func TestGraphJobWarningsNameNoKNN(t *testing.T) {
	dir := t.TempDir()
	var edges strings.Builder
	for c := 0; c < 3; c++ {
		for i := 0; i < 6; i++ {
			for j := i + 1; j < 6; j++ {
				fmt.Fprintf(&edges, "%d %d\n", 6*c+i, 6*c+j)
			}
		}
	}
	csv := "x,y\n0,0\n0.1,0\n0,0.1\n0.1,0.1\n50,50\n50.1,50\n50,50.1\n50.1,50.1\n"
	for name, content := range map[string]string{"three.edges": edges.String(), "far.csv": csv} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const warning = "otherwise a graph with more neighbours joins them"
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{Spec{ID: "g", Graph: "three.edges", K: 2, Method: "fgpwc", Seed: 1}, warning + ")"},
		{Spec{ID: "f", Input: "far.csv", KNN: 3, K: 3, Method: "fgpwc", Seed: 1}, warning + ` (job: "knn"))`},
	} {
		res := Run(context.Background(), c.spec, dir)
		if res.Error != "" {
			t.Fatalf("%s: %s", c.spec.ID, res.Error)
		}
		if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, c.want) {
			t.Errorf("%s: warnings\n%s\nwant %q", c.spec.ID, w, c.want)
		}
	}
}

// TestParseSpecErrorWords checks the errors of lines that are not a Spec
// in JSON: the column (1-based, in characters, counted by hand on the
// line) and the message in plain words, naming a field by its JSON name,
// with no Go type or struct name; and ReadManifest's file:line:column.
func TestParseSpecErrorWords(t *testing.T) {
	cases := []struct {
		line   string
		column int
		want   string
	}{
		{`{"id":"a","gen":"moons","k":2`, 30, `the line ends inside a JSON value`},
		{`{"id":"a","gen":"moons",}`, 25, `unexpected '}': want a field name in double quotes`},
		{`{"id":"a",,"gen":"moons"}`, 11, `unexpected ',': want a field name in double quotes`},
		{`{"id":"a","gen":"moons","k":"2"}`, 29, `field "k": want an integer, got a string`},
		{`{"id":"a","gen":"moons","k":2.5}`, 29, `field "k": want an integer, got the number 2.5`},
		{`{"id":"a","gen":"moons","gen_seed":-1}`, 36, `field "gen_seed": want an integer ≥ 0, got the number -1`},
		{`{"id":"a","gen":"moons","knobs":"M=3"}`, 33, `field "knobs": want a list of strings, got a string`},
		{`{"id":"a","gen":"moons","sample":{"pairs":"5"}}`, 43, `field "sample.pairs": want an integer, got a string`},
		{`{"id":"a","gen":"moons","normalize_weights":1}`, 45, `field "normalize_weights": want true or false, got a number`},
		{`{"id":"a","gen":"moons","gen_params":{"n":300}}`, 43, `field "gen_params": want a string, got a number`},
		{`{"id":"é","gen":"moons","k":"2"}`, 29, `field "k": want an integer`},
		{`{"id":"a","gen":"moons","truht":"t"}`, 25, `unknown field "truht"`},
		{`{"id":"a","gen":"moons"} {}`, 26, `more than one JSON value`},
		{`{"id" "a"}`, 7, `unexpected '"': want ':' after a field name`},
		{`{"id":"a" "gen":"moons"}`, 11, `unexpected '"': want ',' or '}' after a field's value`},
	}
	for _, tc := range cases {
		_, err := ParseSpec([]byte(tc.line))
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, ErrSpec) {
			t.Errorf("%s: err = %v (%T), want a *SyntaxError wrapping ErrSpec", tc.line, err, err)
			continue
		}
		if se.Column != tc.column || !strings.Contains(se.Msg, tc.want) {
			t.Errorf("%s: column %d, %q; want column %d, %q", tc.line, se.Column, se.Msg, tc.column, tc.want)
		}
		for _, leak := range []string{"Go struct", "Spec.", "int64", "uint64", "json:", "unmarshal", "looking for"} {
			if strings.Contains(err.Error(), leak) {
				t.Errorf("%s: %v names %q", tc.line, err, leak)
			}
		}
	}
	// ReadManifest: file:line:column, the column counting leading blanks.
	_, err := ReadManifest(strings.NewReader("{\"id\":\"a\",\"gen\":\"moons\"}\n  {\"id\":\"b\",\"gen\":\"moons\",\"k\":\"2\"}\n"), "bad.jsonl")
	if want := `bad.jsonl:2:31: job: bad spec: field "k": want an integer, got a string`; err == nil || err.Error() != want {
		t.Errorf("ReadManifest: %v, want %s", err, want)
	}
	_, err = ReadManifest(strings.NewReader("{\"id\":\"a\",\"gen\":\"moons\"}\n{\"id\":\"b\",\n"), "bad.jsonl")
	if want := `bad.jsonl:2:11: job: bad spec: the line ends`; err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, ErrSpec) {
		t.Errorf("ReadManifest: %v, want %s…", err, want)
	}
}
