package input

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

// errText returns err's message, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// tempFiles writes files (name → content) into a fresh temporary folder
// and returns the folder.
func tempFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestReadTable checks the class-column rule and that reader errors pass
// through unchanged. Expected values are read off the inputs: the labels
// are the class texts numbered in sorted order (dataset.Table), the
// messages are those of the rule and of dataset.ParseError.
func TestReadTable(t *testing.T) {
	const blobs = "u,v,label\n0,0,b\n0,1,a\n5,5,b\n"
	cases := []struct {
		name, file, content string
		label               string
		drop                []string
		wantCols            int
		wantTruth           []int
		wantNotes           []string
		wantErr             string
	}{
		{name: "class-named column", file: "d.csv", content: blobs, wantCols: 2, wantTruth: []int{1, 0, 1},
			wantNotes: []string{`d.csv: column "label" is the reference labels, not a feature (tether: -label none makes it a feature; library: Options.LabelColumn "none")`}},
		{name: "any case", file: "d.csv", content: "a,Class\n1,0\n2,1\n", wantCols: 1, wantTruth: []int{0, 1},
			wantNotes: []string{`d.csv: column "Class" is the reference labels, not a feature (tether: -label none makes it a feature; library: Options.LabelColumn "none")`}},
		{name: "named column", file: "d.csv", content: blobs, label: "label", wantCols: 2, wantTruth: []int{1, 0, 1}},
		{name: "label none", file: "d.csv", content: blobs, label: "none", wantCols: 4, // u, v, label=a, label=b
			wantNotes: []string{`d.csv: column "label": 2 categories one-hot encoded into 2 features (-drop label leaves it out)`}},
		// "y" is a class name, but beside x it is a coordinate: a file of
		// points "x,y" has no class column, even when y is a whole number
		// or mixed (which used to panic on the retry).
		{name: "x and y", file: "d.csv", content: "x,y\n0,0\n1,1\n", wantCols: 2},
		{name: "y without x", file: "d.csv", content: "u,y\n0,0\n1,1\n", wantCols: 1, wantTruth: []int{0, 1},
			wantNotes: []string{`d.csv: column "y" is the reference labels, not a feature (tether: -label none makes it a feature; library: Options.LabelColumn "none")`}},
		{name: "mixed y beside x", file: "d.csv", content: "x,y\n1,2\n3,abc\n",
			wantErr: `dataset: d.csv:3: column 2 ("y"): value "abc": syntax error: not a number, but line 2 has "2": fix the value, or one-hot encode the column (tether: -categorical 2; library: Options.Categorical)`},
		// Two class-named columns: label wins whatever its place, y stays a
		// feature and the warning says so.
		{name: "y and label", file: "d.csv", content: "y,u,label\n5,0,a\n6,1,b\n", wantCols: 2, wantTruth: []int{0, 1},
			wantNotes: []string{`d.csv: column "label" is the reference labels, not a feature (tether: -label none makes it a feature; library: Options.LabelColumn "none"); "y" stays a feature (tether: -label y takes it instead)`}},
		{name: "no class column", file: "d.csv", content: "u,v\n0,0\n1,1\n", wantCols: 2},
		// -drop of the class column the rule takes leaves it out, and the
		// reference labels with it, with a note; the other columns are
		// read as without -drop: a class-named one stays a feature, and y
		// stays x's partner.
		{name: "class column dropped", file: "d.csv", content: blobs, drop: []string{"label"}, wantCols: 2,
			wantNotes: []string{`d.csv: column "label" would be the reference labels, but is dropped (tether: -drop; library: Options.Drop): left out unread, and the reference labels with it, so the clustering is compared with none; to keep them, do not drop the column: the class column is never a feature`}},
		{name: "class column dropped by number", file: "d.csv", content: "y,u,label\n5,0,a\n6,1,b\n", drop: []string{"3"}, wantCols: 2,
			wantNotes: []string{`d.csv: column "label" would be the reference labels, but is dropped (tether: -drop; library: Options.Drop): left out unread, and the reference labels with it, so the clustering is compared with none; to keep them, do not drop the column: the class column is never a feature; "y" stays a feature (tether: -label y takes it instead)`}},
		{name: "other class-named column dropped", file: "d.csv", content: "y,u,label\n5,0,a\n6,1,b\n", drop: []string{"y"}, wantCols: 1, wantTruth: []int{0, 1},
			wantNotes: []string{`d.csv: column "label" is the reference labels, not a feature (tether: -label none makes it a feature; library: Options.LabelColumn "none")`}},
		{name: "x dropped beside y", file: "d.csv", content: "x,y,u\n0,0,1\n1,1,2\n", drop: []string{"x"}, wantCols: 2},
		{name: "label none, dropped", file: "d.csv", content: blobs, label: "none", drop: []string{"label"}, wantCols: 2},
		{name: "named label column dropped", file: "d.csv", content: blobs, label: "label", drop: []string{"label"},
			wantErr: `dataset: d.csv: dropped column: value "label": invalid input: column 3 is the label column (Options.LabelColumn "label"; tether: -label label), which is never a feature: drop another column, or give another label column or none`},
		{name: "arff by extension", file: "d.arff", content: "% comment\n@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p\n2,q\n", wantCols: 1, wantTruth: []int{0, 1}},
		// A class column that fails as a feature (class names mixed with
		// integers) is read as the class column, as -label label reads it.
		{name: "mixed class column", file: "d.csv", content: "u,label\n0,1\n1,x\n2,1\n", wantCols: 1, wantTruth: []int{0, 1, 0},
			wantNotes: []string{`d.csv: column "label" is the reference labels, not a feature (tether: -label none makes it a feature; library: Options.LabelColumn "none")`}},
		{name: "mixed class column beside y", file: "d.csv", content: "y,u,label\n5,0,1\n6,1,x\n7,2,1\n", wantCols: 2, wantTruth: []int{0, 1, 0},
			wantNotes: []string{`d.csv: column "label" is the reference labels, not a feature (tether: -label none makes it a feature; library: Options.LabelColumn "none"); "y" stays a feature (tether: -label y takes it instead)`}},
		// The rule takes label and keeps y, mixed, as a feature: y's error.
		{name: "mixed y beside label", file: "d.csv", content: "y,label\n1,a\nx,b\n2,a\n",
			wantErr: `dataset: d.csv:3: column 1 ("y"): value "x": syntax error: not a number, but line 2 has "1": fix the value, or one-hot encode the column (tether: -categorical 1; library: Options.Categorical)`},
		{name: "mixed feature column", file: "d.csv", content: "u,label\n0,a\nx,b\n",
			wantErr: `dataset: d.csv:3: column 1 ("u"): value "x": syntax error: not a number, but line 2 has "0": fix the value, or one-hot encode the column (tether: -categorical 1; library: Options.Categorical)`},
		{name: "missing value", file: "m.csv", content: "u,v\n0,0\n1,?\n", wantErr: `dataset: m.csv:3: column 2 ("v"): value "?": missing value: impute it (its column's mean or most frequent value) or drop its row (tether: -missing impute or -missing drop; library: Options.Missing = MissingImpute or MissingDrop)`},
		{name: "bad label column", file: "d.csv", content: blobs, label: "zz", wantErr: `dataset: d.csv: label column: value "zz": invalid input: no such column (have u, v, label)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadTable(context.Background(), []byte(tc.content), tc.file, dataset.Options{LabelColumn: tc.label, Drop: tc.drop, Spelling: cliSpelling})
			if errText(err) != tc.wantErr {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if _, c := d.X.Dims(); c != tc.wantCols || len(d.Features) != c {
				t.Errorf("%d columns (%q), want %d", c, d.Features, tc.wantCols)
			}
			if !reflect.DeepEqual(d.Truth, tc.wantTruth) {
				t.Errorf("truth %v, want %v", d.Truth, tc.wantTruth)
			}
			// The class column recognised is a documented choice: a
			// note, not a warning.
			if !reflect.DeepEqual(d.Notes, tc.wantNotes) || len(d.Warnings) > 0 {
				t.Errorf("notes %q, want %q; warnings %q, want none", d.Notes, tc.wantNotes, d.Warnings)
			}
			if d.Name != tc.file || d.Graph != nil {
				t.Errorf("name %q, graph %v", d.Name, d.Graph)
			}
			if want := map[bool]string{true: "label"}[strings.HasPrefix(tc.name, "class column dropped")]; d.DroppedClass != want {
				t.Errorf("DroppedClass %q, want %q", d.DroppedClass, want)
			}
		})
	}
}

// TestReadTableFileSameAsContent: a file and its content read the same.
func TestReadTableFileSameAsContent(t *testing.T) {
	const content = "id,x,label\np,0,a\nq,1,b\nr,2,a\n"
	p := filepath.Join(tempFiles(t, map[string]string{"t.csv": content}), "t.csv")
	opt := dataset.Options{IDColumn: "id"}
	a, err := ReadTableFile(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadTable(context.Background(), []byte(content), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("file %+v, content %+v", a, b)
	}
	if want := []string{"p", "q", "r"}; !reflect.DeepEqual(a.Names, want) {
		t.Errorf("names %q, want %q", a.Names, want)
	}
	if _, err := ReadTableFile(context.Background(), filepath.Join(t.TempDir(), "none.csv"), opt); err == nil || !strings.Contains(err.Error(), "none.csv") {
		t.Errorf("missing file: err = %v, want it to name none.csv", err)
	}
}

// TestReadTableFileClassColumnNoWarning: dataset.ReadFile, with no
// Options.LabelColumn, warns that a column named label is read as a
// feature; ReadTableFile, which reads it again as the reference labels,
// returns those labels and only its note, not that warning (review 49,
// finding 4).
func TestReadTableFileClassColumnNoWarning(t *testing.T) {
	const content = "x1,x2,label\n0,1,a\n1,0,a\n5,6,b\n6,5,b\n"
	p := filepath.Join(tempFiles(t, map[string]string{"t.csv": content}), "t.csv")
	tab, err := dataset.ReadFile(context.Background(), p, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Warnings) != 1 || !strings.Contains(tab.Warnings[0], "Options.LabelColumn") {
		t.Fatalf("dataset.ReadFile warnings %q, want one naming Options.LabelColumn", tab.Warnings)
	}
	d, err := ReadTableFile(context.Background(), p, dataset.Options{Spelling: cliSpelling})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 0, 1, 1}; !reflect.DeepEqual(d.Truth, want) {
		t.Errorf("truth %v, want %v", d.Truth, want)
	}
	if want := []string{"x1", "x2"}; !reflect.DeepEqual(d.Features, want) {
		t.Errorf("features %q, want %q", d.Features, want)
	}
	if len(d.Warnings) > 0 {
		t.Errorf("warnings %q, want none", d.Warnings)
	}
	if want := []string{p + `: column "label" is the reference labels, not a feature (tether: -label none makes it a feature; library: Options.LabelColumn "none")`}; !reflect.DeepEqual(d.Notes, want) {
		t.Errorf("notes %q, want %q", d.Notes, want)
	}
}

func TestReadGraph(t *testing.T) {
	const gml = "graph [ node [ id 1 label \"a\" club \"x\" ] node [ id 2 label \"b\" club \"y\" ] node [ id 3 label \"c\" club \"x\" ] edge [ source 1 target 2 ] edge [ source 2 target 3 ] ]"
	cases := []struct {
		name, file, content string
		opt                 dataset.GraphOptions
		wantN, wantEdges    int
		wantTruth           []int
		wantNames           []string
		wantErr             string
	}{
		{name: "edge list", file: "g.edges", content: "0 1 1\n1 2 0.5\n", wantN: 3, wantEdges: 2},
		{name: "gml with labels", file: "g.gml", content: gml, opt: dataset.GraphOptions{LabelAttr: "club"}, wantN: 3, wantEdges: 2,
			wantTruth: []int{0, 1, 0}, wantNames: []string{"a", "b", "c"}},
		{name: "bad weight", file: "g.edges", content: "0 1 1\n1 2 NaN\n", wantErr: `dataset: g.edges:2: column 3: value "NaN": syntax error: weight is not a finite number`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadGraph(context.Background(), []byte(tc.content), tc.file, tc.opt)
			if errText(err) != tc.wantErr {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if d.N() != tc.wantN || d.Graph.Stats().Edges != tc.wantEdges || d.X != nil {
				t.Errorf("n %d, %d edges, want %d, %d", d.N(), d.Graph.Stats().Edges, tc.wantN, tc.wantEdges)
			}
			if !reflect.DeepEqual(d.Truth, tc.wantTruth) || !reflect.DeepEqual(d.Names, tc.wantNames) {
				t.Errorf("truth %v names %q, want %v %q", d.Truth, d.Names, tc.wantTruth, tc.wantNames)
			}
			if nb, err := d.BuildGraph(context.Background(), graph.DefaultSpec(), nil); nb != nil || err != nil {
				t.Errorf("BuildGraph on a graph: %v, %v; want nothing done", nb, err)
			}
		})
	}
	p := filepath.Join(tempFiles(t, map[string]string{"g.edges": "0 1 1\n1 2 0.5\n"}), "g.edges")
	d, err := ReadGraphFile(context.Background(), p, dataset.GraphOptions{})
	if err != nil || d.N() != 3 || d.Name != p {
		t.Fatalf("ReadGraphFile: %+v, %v", d, err)
	}
	// A header line skipped is a note: "u v" may be an edge of two named
	// nodes, and it was dropped without a word (review 114).
	d, err = ReadGraph(context.Background(), []byte("u v\nx y\ny z\nz x\n"), "h.edges", dataset.GraphOptions{})
	if err != nil || d.N() != 3 || !reflect.DeepEqual(d.Notes, []string{"h.edges:1 read as a header line and skipped, not as an edge"}) {
		t.Errorf("header: n %d, notes %q, %v", d.N(), d.Notes, err)
	}
	if d, _ := ReadGraph(context.Background(), []byte("0 1 1\n1 2 0.5\n"), "g.edges", dataset.GraphOptions{}); len(d.Notes) != 0 {
		t.Errorf("no header: notes %q", d.Notes)
	}
	// An edge list read as 1-based says so in Data.Warnings, as a job
	// spells the options (review 86).
	d, err = ReadGraph(context.Background(), []byte("1 2\n2 3\n3 1\n4 5\n"), "b.edges", dataset.GraphOptions{Spelling: spellings["job"]})
	if err != nil || d.N() != 5 || len(d.Warnings) != 1 || !strings.HasPrefix(d.Warnings[0], "b.edges: node numbers read as 1-based") || !strings.HasSuffix(d.Warnings[0], "(GraphOptions.Base = Base0)") {
		t.Errorf("1-based edge list: n %d, warnings %q, %v", d.N(), d.Warnings, err)
	}
}

// TestGenParams: defaults overridden by name, the first bad parameter in
// sorted order named whatever the map order, and Generate's data those of
// the generator drawn with rand.NewPCG(seed, seed) (tether gen -seed).
func TestGenParams(t *testing.T) {
	cases := []struct {
		name, gen string
		params    map[string]string
		wantErr   string
	}{
		{"unknown generator", "spirals", nil, "synth: invalid parameter: unknown generator \"spirals\" (known: " + strings.Join(synth.Names(), ", ") + ")"},
		{"bad value", "moons", map[string]string{"n": "x"}, `gen moons: synth: invalid parameter: parameter n: strconv.Atoi: parsing "x": invalid syntax`},
		{"first bad in sorted order", "moons", map[string]string{"noise": "y", "n": "x", "zz": "1"}, `gen moons: synth: invalid parameter: parameter n: strconv.Atoi: parsing "x": invalid syntax`},
		{"unknown parameter", "moons", map[string]string{"zz": "1"}, `gen moons: synth: invalid parameter: unknown parameter "zz" (want one of n, k, dim, noise, factor, cin, cout, gamma)`},
		// A parameter the generator does not read (synth's Generator.Params:
		// moons reads n and noise) is refused, as tether gen refuses its
		// flag (it was ignored); k is read by blobs, and a two-class
		// generator takes k = 2 or 0 only.
		{"parameter not read", "moons", map[string]string{"n": "50", "factor": "0.3"}, "gen moons: synth: invalid parameter: factor does not apply to moons: it has no such parameter (it reads n, noise)"},
		{"graph parameter for points", "blobs", map[string]string{"cin": "8"}, "gen blobs: synth: invalid parameter: cin does not apply to blobs: it has no such parameter (it reads n, k, dim, noise)"},
		{"k of two classes", "circles", map[string]string{"k": "3"}, "gen circles: synth: invalid parameter: k = 3 does not apply to circles: it always makes 2 classes (give k 2 or 0, or leave k out)"},
		{"k = 2 of two classes", "xor", map[string]string{"k": "2"}, ""},
		{"k = 0 of two classes", "moons", map[string]string{"k": "0"}, ""},
		{"k read", "blobs", map[string]string{"k": "4", "dim": "3"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Map order is random: 20 calls see several orders.
			for range 20 {
				_, _, err := GenParams(tc.gen, tc.params)
				if errText(err) != tc.wantErr {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
			}
		})
	}
	ctx := context.Background()
	g, p, err := GenParams("moons", map[string]string{"n": "40", "noise": "0.05"})
	if err != nil {
		t.Fatal(err)
	}
	if p.N != 40 || p.Noise != 0.05 || p.K != g.Defaults.K {
		t.Fatalf("params %+v", p)
	}
	d, err := Generate(ctx, g, p, 7)
	if err != nil {
		t.Fatal(err)
	}
	want, err := g.Generate(ctx, p, rand.NewPCG(7, 7))
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(d.X, want.X) || !reflect.DeepEqual(d.Truth, want.Labels) || d.Name != "generated moons" || d.Graph != nil {
		t.Fatal("Generate differs from the generator with seed (7, 7)")
	}
	p.Noise = -3
	if _, err := Generate(ctx, g, p, 7); !errors.Is(err, synth.ErrInvalid) || !strings.HasPrefix(err.Error(), "gen moons: ") {
		t.Errorf("negative noise: err = %v, want synth.ErrInvalid named gen moons", err)
	}
}

// TestBuildGraph compares the graph built from three points with the full
// RBF graph worked by hand: w_ij = exp(−‖x_i − x_j‖² / (2σ²)), σ = 1.
func TestBuildGraph(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 2})
	d := &Data{Name: "p.csv", X: x}
	spec := graph.Spec{Kind: graph.Full, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaFixed, Value: 1}}
	if _, err := d.BuildGraph(context.Background(), spec, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		i, j int
		want float64
	}{{0, 1, math.Exp(-0.5)}, {0, 2, math.Exp(-2)}, {1, 2, math.Exp(-2.5)}} {
		if got := d.Graph.Weight(c.i, c.j); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("w(%d,%d) = %v, want %v", c.i, c.j, got, c.want)
		}
	}
	nb, err := (&Data{Name: "q", X: mat.NewDense(4, 1, []float64{0, 1, 2, 3})}).BuildGraph(context.Background(), graph.Spec{Kind: graph.SymmetricKNN, K: 2, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaFixed, Value: 1}}, nil)
	if err != nil || nb == nil || nb.K != 2 || nb.N() != 4 {
		t.Errorf("k-NN graph: neighbours %+v, err %v; want the 2-NN lists of 4 points", nb, err)
	}
	for _, tc := range []struct {
		name string
		d    *Data
		want string
	}{
		{"no input", &Data{Name: "e"}, "e: no graph and no feature rows to build one from"},
		{"too few rows", &Data{Name: "two.csv", X: mat.NewDense(2, 1, []float64{0, 1})}, "two.csv: building the graph: graph: knn graph needs 1 ≤ K < n = 2, got K = 10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.d.BuildGraph(context.Background(), graph.DefaultSpec(), nil); errText(err) != tc.want {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := mat.NewDense(2000, 2, nil)
	for i := range 2000 {
		big.Set(i, 0, float64(i))
	}
	if _, err := (&Data{Name: "b", X: big}).BuildGraph(ctx, graph.DefaultSpec(), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
}

// path3 is the graph 0 – 1 – 2.
func path3(t *testing.T) *graph.Graph {
	t.Helper()
	g, err := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestCheck(t *testing.T) {
	g := path3(t)
	for _, tc := range []struct {
		name string
		d    *Data
		want string
	}{
		{"ok", &Data{Name: "g", Graph: g, Truth: []int{0, 0, 1}, Names: []string{"a", "b", "c"}}, ""},
		{"no graph", &Data{Name: "g"}, "g: no graph (build it with BuildGraph)"},
		{"short reference", &Data{Name: "g", Graph: g, Truth: []int{0, 1}}, "g: reference has 2 labels for 3 nodes"},
		{"names", &Data{Name: "g", Graph: g, Names: []string{"a"}}, "g: 1 node name for 3 nodes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.d.Check(); errText(err) != tc.want {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestReadTruth reads labels files as the reference labels, and checks the
// note that says when they replace the data's own (review 95: tether
// cluster -input moons.csv -truth rand.truth said only that the column
// "label" was the reference labels, and the ARI was rand.truth's).
func TestReadTruth(t *testing.T) {
	g := path3(t)
	for _, tc := range []struct {
		name, content string
		names         []string
		want          []int
		wantErr       string
		prior         []int  // d.Truth before
		note          string // "" for none
	}{
		{"one a line", "1\n0\n-1\n", nil, []int{1, 0, -1}, "", nil, ""},
		{"replacing the data's", "1\n0\n-1\n", nil, []int{1, 0, -1}, "", []int{0, 0, 1}, "t.labels replaces the reference labels of g: the partition is compared with t.labels"},
		{"replacing unknown labels", "1\n0\n-1\n", nil, []int{1, 0, -1}, "", []int{-1, -1, -1}, ""},
		{"by name", "name,label\nc,x\na,y\n", []string{"a", "b", "c"}, []int{1, -1, 0}, "", nil, ""},
		{"too few lines", "1\n0\n", nil, nil, "dataset: t.labels: invalid input: 2 labels for 3 nodes", []int{0, 0, 1}, ""},
		{"unknown name", "name,label\nz,x\n", []string{"a", "b", "c"}, nil, `dataset: t.labels:2: column 1: value "z": invalid input: unknown node name`, nil, ""},
		// pandas' "id,label" for data without names: node indices (it was
		// "the file names its nodes but the data has none").
		{"id header, integer ids", "id,label\n2,x\n0,y\n", nil, []int{1, -1, 0}, "", nil, ""},
		// A 1-based file: the error says how to declare it.
		{"1-based", "node,label\n1,x\n3,y\n", nil, nil, `dataset: t.labels:3: column 1: value "3": invalid input: node outside 0…2 (base 0): if the file numbers the nodes from 1, begin it with a line "# base=1"`, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(tempFiles(t, map[string]string{"t.labels": tc.content}), "t.labels")
			d := &Data{Name: "g", Graph: g, Names: tc.names, Truth: tc.prior}
			err := d.ReadTruth(context.Background(), p)
			if got := strings.ReplaceAll(errText(err), p, "t.labels"); got != tc.wantErr {
				t.Fatalf("err = %q, want %q", got, tc.wantErr)
			}
			if err == nil && !reflect.DeepEqual(d.Truth, tc.want) {
				t.Errorf("truth %v, want %v", d.Truth, tc.want)
			}
			if notes := strings.ReplaceAll(strings.Join(d.Notes, "\n"), p, "t.labels"); notes != tc.note {
				t.Errorf("notes %q, want %q", notes, tc.note)
			}
		})
	}
}

func TestNewProblem(t *testing.T) {
	g := path3(t)
	x := mat.NewDense(3, 1, []float64{0, 1, 2})
	bip := &dataset.Sparse{Rows: 1, Cols: 2, Ptr: []int{0, 2}, Idx: []int32{0, 1}, Val: []float64{1, 1}}
	for _, tc := range []struct {
		name     string
		d        *Data
		method   string
		features bool
		want     string
		sentinel error
	}{
		{"graph method on features", &Data{Name: "p", X: x, Graph: g}, "njw", false, "", nil},
		{"projection on features", &Data{Name: "p", X: x, Graph: g}, "cpca", true, "", nil},
		{"k-means of features", &Data{Name: "p", X: x, Graph: g}, "cvqe", true, "", nil},
		{"projection of features on a graph", &Data{Name: "p", X: x, Graph: g}, "clpp", true, "", nil},
		{"projection on a graph", &Data{Name: "g.txt", Graph: g}, "cpca", false, "method cpca projects feature rows, and g.txt is a graph without features", ErrNoFeatures},
		{"co-clustering without a matrix", &Data{Name: "p", X: x, Graph: g}, "cocluster", false, "method cocluster co-clusters a matrix", ErrNoBipartite},
		{"co-clustering", &Data{Name: "b", Graph: g, Bipartite: bip}, "cocluster", false, "", nil},
		// A graph method on a matrix clusters its bipartite graph and is
		// given no matrix (Run warned that it ignored it).
		{"graph method on a matrix", &Data{Name: "b", Graph: g, Bipartite: bip}, "l1csc", false, "", nil},
		// Before, NewProblem returned a problem without a graph, and
		// Supervision.AddTo then panicked on it.
		{"graph not built yet", &Data{Name: "t.csv", X: x}, "njw", false, "t.csv: no graph (build it with BuildGraph)", nil},
		{"nil data", nil, "njw", false, "input: no data", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := cluster.New(tc.method)
			if err != nil {
				t.Fatal(err)
			}
			p, err := NewProblem(tc.d, m, 2)
			if errText(err) != tc.want || (tc.sentinel != nil && !errors.Is(err, tc.sentinel)) {
				t.Fatalf("err = %v, want %q wrapping %v", err, tc.want, tc.sentinel)
			}
			if err != nil {
				return
			}
			// A method of feature rows alone (cpca, cvqe), or of the
			// matrix alone (cocluster), is given no graph: Run (or
			// cocluster) would warn that it ignores it.
			wantG := g
			if in := m.Uses().Input; in&(cluster.FeatureInput|cluster.BipartiteInput) != 0 && in&cluster.GraphInput == 0 {
				wantG = nil
			}
			if p.Graph != wantG || p.K != 2 || (p.Features != nil) != tc.features || (p.Bipartite != nil) != (tc.method == "cocluster") {
				t.Errorf("problem %+v", p)
			}
		})
	}
}

// twoTriangles is two triangles {0,1,2} and {3,4,5} joined by the weak
// edge 2 – 3.
func twoTriangles(t *testing.T) *graph.Graph {
	t.Helper()
	var e []graph.Edge
	for _, c := range [][3]int{{0, 1, 2}, {3, 4, 5}} {
		e = append(e, graph.Edge{I: c[0], J: c[1], W: 1}, graph.Edge{I: c[0], J: c[2], W: 1}, graph.Edge{I: c[1], J: c[2], W: 1})
	}
	e = append(e, graph.Edge{I: 2, J: 3, W: 0.01})
	g, err := graph.FromEdges(6, e)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestSupervision(t *testing.T) {
	g := twoTriangles(t)
	names := []string{"a", "b", "c", "d", "e", "f"}
	// 0,1 ml and 0,1 cl contradict each other (constraint.Check).
	conflict := "0,1,ml\n0,1,cl\n3,4,ml\n"
	cases := []struct {
		name        string
		cons, labs  string
		policy      constraint.Policy
		k           int
		wantPairs   int
		wantLabels  constraint.Labels
		wantErr     string
		wantSentinl error
		wantRepeats int
		wantNote    string
		noNames     bool // the data has no node names
		wantLabNote string
		kFlag       string // Supervision.KFlag
	}{
		{name: "none", k: 2},
		{name: "soft keeps all", cons: conflict, policy: constraint.Soft, k: 2, wantPairs: 3},
		{name: "drop-cl", cons: conflict, policy: constraint.DropConflictingCannotLinks, k: 2, wantPairs: 2},
		{name: "reject", cons: conflict, policy: constraint.Reject, k: 2,
			wantErr: "c.txt: constraint: conflicting constraints: must-link and cannot-link on one pair: ml(0,1) [c.txt:1], cl(0,1) [c.txt:2]", wantSentinl: constraint.ErrConflict},
		{name: "bad index", cons: "0,9,ml\n", k: 2, wantErr: "constraint: invalid input: c.txt:1: node 9 outside 0…5 (base 0)"},
		// Constraint files take the delimiters of labels files, and a
		// trailing comma (they were "separate the fields with commas" and
		// weight "").
		{name: "tab-separated constraints", cons: "i\tj\tkind\n0\t1\tml\n3\t4\tcl\n", k: 2, wantPairs: 2},
		{name: "blank-separated constraints by name", cons: "a b ml\nd  e  cl\n", k: 2, wantPairs: 2},
		{name: "constraints with trailing commas", cons: "0,1,ml,\n3,4,cl,\n", k: 2, wantPairs: 2},
		{name: "labels by index", labs: "0,1\n4,0\n", k: 2, wantLabels: constraint.Labels{1, -1, -1, -1, 0, -1}},
		{name: "labels by name", labs: "name,label\nf,x\na,y\n", k: 2, wantLabels: constraint.Labels{1, -1, -1, -1, -1, 0}},
		// "id,label" with integer ids, as pandas writes, for data without
		// names: node indices (it was "the file names its nodes but the
		// data has none").
		{name: "labels id header, data without names", labs: "id,label\n5,x\n0,y\n", k: 2, noNames: true, wantLabels: constraint.Labels{1, -1, -1, -1, -1, 0}},
		{name: "labels id header, base 1", labs: "# base=1\nid,label\n6,x\n1,y\n", k: 2, noNames: true, wantLabels: constraint.Labels{1, -1, -1, -1, -1, 0}},
		{name: "labels 1-based", labs: "node,label\n1,0\n6,1\n", k: 2, noNames: true,
			wantErr: `dataset: l.txt:3: column 1: value "6": invalid input: node outside 0…5 (base 0): if the file numbers the nodes from 1, begin it with a line "# base=1"`},
		// More classes than k: the file and k do not go together
		// (ErrTooManyClasses); a bad line or node is an error of the file
		// alone, which does not wrap it.
		{name: "integer labels of more classes than k", labs: "0,0\n1,1\n4,2\n", k: 2,
			wantErr: "l.txt: 3 classes (0, 1, 2) for k = 2: node 4 has label 2; want at most 2 distinct labels (-1, ? or empty when unknown)", wantSentinl: ErrTooManyClasses},
		// The flag that set k, when the caller names one (tether
		// cluster: -k).
		{name: "integer labels of more classes than -k", labs: "0,0\n1,1\n4,2\n", k: 2, kFlag: "-k",
			wantErr: "l.txt: 3 classes (0, 1, 2) for -k 2: node 4 has label 2; want at most 2 distinct labels (-1, ? or empty when unknown)", wantSentinl: ErrTooManyClasses},
		// Integer labels not in 0…k−1 but of at most k classes are read as
		// class names are, in increasing order, with a note (wine's 1, 2, 3
		// were "node 152 has label 3, want 0…2 for -k 3"); labels in
		// 0…k−1 are the classes as before.
		{name: "labels 1 and 2 for k 2", labs: "0,1\n4,2\n", k: 2, wantLabels: constraint.Labels{0, -1, -1, -1, 1, -1},
			wantLabNote: "l.txt: labels 1, 2 read as classes 0, 1 (k = 2 numbers the classes 0…1)"},
		{name: "labels 1, 2, 3 for k 3", labs: "node,label\n0,1\n1,2\n4,3\n", k: 3, wantLabels: constraint.Labels{0, 1, -1, -1, 2, -1},
			wantLabNote: "l.txt: labels 1, 2, 3 read as classes 0, 1, 2 (k = 3 numbers the classes 0…2)"},
		{name: "sparse labels", labs: "30\n10\n-1\n20\n?\n10\n", k: 4, wantLabels: constraint.Labels{2, 0, -1, 1, -1, 0},
			wantLabNote: "l.txt: labels 10, 20, 30 read as classes 0, 1, 2 (k = 4 numbers the classes 0…3)"},
		{name: "labels 1, 2 for k 3", labs: "0,1\n4,2\n", k: 3, wantLabels: constraint.Labels{1, -1, -1, -1, 2, -1}},
		// Pairs against renumbered labels, or class names: the error names
		// the classes as the labels file does.
		{name: "must-link across renumbered classes", cons: "0,4,ml\n", labs: "0,1\n4,3\n", k: 2,
			wantErr: "c.txt: constraint: conflicting constraints: ml(0,4) [c.txt:1] joins nodes labelled 1 and 3 in l.txt", wantSentinl: constraint.ErrConflict},
		{name: "cannot-link within a named class", cons: "0,5,cl\n", labs: "name,label\na,x\nf,x\nb,y\n", k: 2,
			wantErr: `c.txt: constraint: conflicting constraints: cl(0,5) [c.txt:1] separates nodes both labelled "x" in l.txt`, wantSentinl: constraint.ErrConflict},
		{name: "too many classes", labs: "name,label\na,p\nb,q\nc,r\n", k: 2, wantErr: `l.txt: 3 classes (p, q, r) for k = 2: node "c" has class "r"`, wantSentinl: ErrTooManyClasses},
		{name: "too many classes for -k", labs: "name,label\na,p\nb,q\nc,r\n", k: 2, kFlag: "-k", wantErr: `l.txt: 3 classes (p, q, r) for -k 2: node "c" has class "r"`, wantSentinl: ErrTooManyClasses},
		{name: "label node out of range", labs: "0,1\n9,0\n", k: 2, wantErr: `dataset: l.txt:2: column 1: value "9": invalid input: node outside 0…5 (base 0)`},
		{name: "malformed label line", labs: "0,1\n4,0,7\n", k: 2, wantErr: "dataset: l.txt:2: invalid input: 3 fields, want 2 as on the first data line"},
		{name: "unknown label node name", labs: "name,label\na,0\nz,1\n", k: 2, wantErr: `dataset: l.txt:3: column 1: value "z": invalid input: unknown node name`},
		{name: "k unknown", labs: "0,7\n", k: 0, wantLabels: constraint.Labels{7, -1, -1, -1, -1, -1}},
		// Pairs that contradict the partial labels are conflicts too (they
		// went to the method, which failed far from the cause or used
		// both).
		{name: "must-link across classes", cons: "3,5,ml\n0,4,ml\n", labs: "0,1\n4,0\n", k: 2,
			wantErr: "c.txt: constraint: conflicting constraints: ml(0,4) [c.txt:2] joins nodes labelled 1 and 0 in l.txt", wantSentinl: constraint.ErrConflict},
		{name: "cannot-link within a class", cons: "0,4,cl\n", labs: "0,1\n4,1\n", k: 2,
			wantErr: "c.txt: constraint: conflicting constraints: cl(0,4) [c.txt:1] separates nodes both labelled 1 in l.txt", wantSentinl: constraint.ErrConflict},
		{name: "must-link chain across classes", cons: "0,1,ml\n1,4,ml\n", labs: "0,1\n4,0\n", k: 2,
			wantErr: "c.txt: constraint: conflicting constraints: the must-links join node 0, labelled 1, and node 4, labelled 0 in l.txt", wantSentinl: constraint.ErrConflict},
		{name: "cannot-link between components of a class", cons: "0,1,ml\n4,5,ml\n1,5,cl\n", labs: "0,1\n4,1\n", k: 2,
			wantErr: "c.txt: constraint: conflicting constraints: cl(1,5) [c.txt:3] separates the must-link components of nodes 0 and 4, both labelled 1 in l.txt", wantSentinl: constraint.ErrConflict},
		// In a base-1 file, the pairs as the file writes them.
		{name: "base 1", cons: "# base=1\n1,2,ml\n1,2,cl\n", k: 2,
			wantErr: "c.txt: constraint: conflicting constraints: must-link and cannot-link on one pair: ml(1,2) [c.txt:2], cl(1,2) [c.txt:3]", wantSentinl: constraint.ErrConflict},
		{name: "base 1 against labels", cons: "# base=1\n1,5,ml\n", labs: "0,1\n4,0\n", k: 2,
			wantErr: "c.txt: constraint: conflicting constraints: ml(1,5) [c.txt:2] joins nodes labelled 1 and 0 in l.txt", wantSentinl: constraint.ErrConflict},
		{name: "soft keeps pairs contradicting labels", cons: "0,4,ml\n", labs: "0,1\n4,0\n", policy: constraint.Soft, k: 2,
			wantPairs: 1, wantLabels: constraint.Labels{1, -1, -1, -1, 0, -1}},
		{name: "pairs agreeing with labels", cons: "0,1,ml\n0,4,cl\n", labs: "0,1\n4,0\n", k: 2,
			wantPairs: 2, wantLabels: constraint.Labels{1, -1, -1, -1, 0, -1}},
		// A pair given again with the same kind and weight is used once
		// under Reject, with a note; any other conflict is still refused.
		{name: "identical repeats", cons: "0,1,ml\n3,4,cl\n1,0,ml\n3,4,cl\n", k: 2, wantPairs: 2, wantRepeats: 2,
			wantNote: "c.txt: ml(0,1) on line 3 repeats line 1, and 1 more: each repeat of a pair with the same kind and weight is used once"},
		{name: "identical repeats by name", cons: "a,b,ml\nb,a,ml\n", k: 2, wantPairs: 1, wantRepeats: 1,
			wantNote: "c.txt: ml(a,b) on line 2 repeats line 1: each repeat of a pair with the same kind and weight is used once"},
		{name: "repeat with another weight", cons: "0,1,ml,0.5\n0,1,ml,0.9\n", k: 2,
			wantErr: "c.txt: constraint: conflicting constraints: duplicate: ml(0,1) w=0.5 [c.txt:1], ml(0,1) w=0.9 [c.txt:2]", wantSentinl: constraint.ErrConflict},
		{name: "repeat and contradiction", cons: "0,1,ml\n0,1,ml\n0,1,cl\n", k: 2,
			wantErr: "c.txt: constraint: conflicting constraints: must-link and cannot-link on one pair: ml(0,1) [c.txt:1], cl(0,1) [c.txt:3]", wantSentinl: constraint.ErrConflict},
		{name: "repeat against labels", cons: "3,5,ml\n0,4,ml\n0,4,ml\n", labs: "0,1\n4,0\n", k: 2,
			wantErr: "c.txt: constraint: conflicting constraints: ml(0,4) [c.txt:2] joins nodes labelled 1 and 0 in l.txt", wantSentinl: constraint.ErrConflict},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempFiles(t, map[string]string{"c.txt": tc.cons, "l.txt": tc.labs})
			s := Supervision{Conflicts: tc.policy, KFlag: tc.kFlag}
			if tc.cons != "" {
				s.Constraints = filepath.Join(dir, "c.txt")
			}
			if tc.labs != "" {
				s.Labels = filepath.Join(dir, "l.txt")
			}
			p := &cluster.Problem{Graph: g, K: tc.k}
			d := &Data{Name: "g", Graph: g, Names: names}
			if tc.noNames {
				d.Names = nil
			}
			a, err := s.AddTo(context.Background(), p, d)
			if got := strings.ReplaceAll(errText(err), dir+string(filepath.Separator), ""); got != tc.wantErr {
				t.Fatalf("err = %q, want %q", got, tc.wantErr)
			}
			if tc.wantSentinl != nil && !errors.Is(err, tc.wantSentinl) {
				t.Errorf("err = %v does not wrap %v", err, tc.wantSentinl)
			}
			if tc.wantSentinl != ErrTooManyClasses && errors.Is(err, ErrTooManyClasses) {
				t.Errorf("err = %v wraps %v", err, ErrTooManyClasses)
			}
			if err != nil {
				return
			}
			got := 0
			if p.Constraints != nil {
				got = len(p.Constraints.Pairs)
			}
			if got != tc.wantPairs || (tc.cons != "" && a.Constraints != strings.Count(tc.cons, "\n")-strings.Count(tc.cons, "kind")) {
				t.Errorf("%d pairs kept, %d read; want %d kept", got, a.Constraints, tc.wantPairs)
			}
			if !reflect.DeepEqual(p.Labels, tc.wantLabels) {
				t.Errorf("labels %v, want %v", p.Labels, tc.wantLabels)
			}
			if note := strings.ReplaceAll(a.RepeatNote, dir+string(filepath.Separator), ""); a.Repeats != tc.wantRepeats || note != tc.wantNote {
				t.Errorf("repeats %d, note %q; want %d, %q", a.Repeats, note, tc.wantRepeats, tc.wantNote)
			}
			if note := strings.ReplaceAll(a.LabelNote, dir+string(filepath.Separator), ""); note != tc.wantLabNote {
				t.Errorf("label note %q, want %q", note, tc.wantLabNote)
			}
			var notes []string
			for _, n := range []string{a.RepeatNote, a.LabelNote} {
				if n != "" {
					notes = append(notes, n)
				}
			}
			if !slices.Equal(a.Notes, notes) {
				t.Errorf("notes %q, want the repeat and label notes %q", a.Notes, notes)
			}
		})
	}
}

// TestSupervisionPresetLabels: labels set on the problem by the caller,
// without a labels file, are checked against the pairs by their numbers.
func TestSupervisionPresetLabels(t *testing.T) {
	g := twoTriangles(t)
	dir := tempFiles(t, map[string]string{"c.txt": "0,4,ml\n"})
	p := &cluster.Problem{Graph: g, K: 2, Labels: constraint.Labels{1, -1, -1, -1, 0, -1}}
	_, err := Supervision{Constraints: filepath.Join(dir, "c.txt")}.AddTo(context.Background(), p, &Data{Name: "g", Graph: g})
	if err == nil || !strings.Contains(err.Error(), "joins nodes labelled 1 and 0") {
		t.Errorf("err %v, want the conflict of ml(0,4) with labels 1 and 0", err)
	}
}

// TestSupervisionWithoutGraph: AddTo with data without a graph or
// feature rows (or no problem, or no data) is an error, not a
// nil-dereference panic; feature rows alone give the nodes.
func TestSupervisionWithoutGraph(t *testing.T) {
	g := twoTriangles(t)
	dir := tempFiles(t, map[string]string{"c.txt": "0,1,ml\n", "l.txt": "0,1\n"})
	s := Supervision{Constraints: filepath.Join(dir, "c.txt"), Labels: filepath.Join(dir, "l.txt")}
	d := &Data{Name: "t.csv", X: mat.NewDense(6, 1, nil)}
	for _, tc := range []struct {
		name string
		p    *cluster.Problem
		d    *Data
		want string
	}{
		// Feature rows without a graph are nodes enough (a method of
		// feature rows alone needs no graph: NewProblem), but for the
		// vote filter, which reads the graph (TestFeatureMethodsNeedNoGraph).
		{"no graph, no rows", &cluster.Problem{K: 2}, &Data{Name: "t.csv"}, "t.csv: no graph (build it with BuildGraph)"},
		{"no graph", &cluster.Problem{K: 2}, d, ""},
		{"no problem", nil, d, "input: no problem"},
		{"no data", &cluster.Problem{Graph: g, K: 2}, nil, "input: no data"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			if _, err := s.AddTo(context.Background(), tc.p, tc.d); errText(err) != tc.want {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestVoteFilter: on two triangles, the cannot-link 0,2 inside a triangle
// is contradicted by the must-links 0,1 and 1,2 around it, and is the one
// pair dropped; a graph without edges has nothing to vote with.
func TestVoteFilter(t *testing.T) {
	g := twoTriangles(t)
	file := filepath.Join(tempFiles(t, map[string]string{"c.txt": "0,1,ml\n1,2,ml\n0,2,cl\n3,4,ml\n4,5,ml\n0,4,cl\n1,5,cl\n"}), "c.txt")
	p := &cluster.Problem{Graph: g, K: 2}
	a, err := Supervision{Constraints: file, Vote: true}.AddTo(context.Background(), p, &Data{Name: "g", Graph: g})
	if err != nil {
		t.Fatal(err)
	}
	if a.Constraints != 7 || a.VoteDropped != 1 || len(p.Constraints.Pairs) != 6 {
		t.Fatalf("read %d, dropped %d, kept %d; want 7, 1, 6", a.Constraints, a.VoteDropped, len(p.Constraints.Pairs))
	}
	for _, q := range p.Constraints.Pairs {
		if q.I == 0 && q.J == 2 {
			t.Fatalf("the contradicted pair 0,2 is kept: %v", p.Constraints.Pairs)
		}
	}
	empty, err := graph.FromEdges(6, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Supervision{Constraints: file, Vote: true}.AddTo(context.Background(), &cluster.Problem{Graph: empty, K: 2}, &Data{Name: "e", Graph: empty})
	if want := file + ": vote filter: the graph has no edge to compare constraints by"; errText(err) != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// TestFitSpec: the default neighbour counts shrink to what n rows allow,
// kept values and values that fit stay, and the graph built with the
// fitted spec exists (graph.BuildNeighbors refuses K ≥ n).
func TestFitSpec(t *testing.T) {
	def := graph.DefaultSpec()
	sk := def
	sk.Kind = graph.SklearnKNN
	fixed := def
	fixed.Sigma = graph.Sigma{Rule: graph.SigmaMedian}
	for _, c := range []struct {
		name            string
		spec            graph.Spec
		n               int
		keepK, keepSig  bool
		wantK, wantSigK int
		note            []string
	}{
		{"fits", def, 11, false, false, def.K, def.Sigma.K, nil},
		{"six rows", def, 6, false, false, 5, 5, []string{"t has only 6 rows", "K = 5 neighbours (-knn 5; the default is 10)", "5th nearest other row (-sigma local:5; the default is local:7)"}},
		{"K only", def, 9, false, false, 8, def.Sigma.K, []string{"K = 8 neighbours"}},
		{"sknn counts itself", sk, 6, false, false, 6, 5, []string{"K = 6 neighbours"}},
		{"kept K", def, 6, true, false, def.K, 5, []string{"5th nearest"}},
		{"kept both", def, 6, true, true, def.K, def.Sigma.K, nil},
		{"median σ", fixed, 3, false, false, 2, 0, []string{"K = 2 neighbours"}},
		{"one row", def, 1, false, false, def.K, def.Sigma.K, nil},
		{"two rows", def, 2, false, false, 1, 1, []string{"K = 1 neighbour (-knn 1;", "1st nearest"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, note := FitSpec(c.spec, "t", c.n, c.keepK, c.keepSig, cliSpelling)
			if got.K != c.wantK || got.Sigma.K != c.wantSigK {
				t.Errorf("K %d, σ K %d; want %d, %d", got.K, got.Sigma.K, c.wantK, c.wantSigK)
			}
			if (note == "") != (len(c.note) == 0) {
				t.Errorf("note %q", note)
			}
			for _, part := range c.note {
				if !strings.Contains(note, part) {
					t.Errorf("note %q lacks %q", note, part)
				}
			}
			if c.keepK || c.keepSig || c.n < 2 {
				return
			}
			x := mat.NewDense(c.n, 2, nil)
			for i := range c.n {
				x.Set(i, 0, float64(i*i))
				x.Set(i, 1, float64(i%2))
			}
			if _, _, err := graph.BuildNeighbors(context.Background(), x, got, nil); err != nil {
				t.Errorf("fitted spec: %v", err)
			}
		})
	}
	for i, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd", 111: "111th"} {
		if got := ordinal(i); got != want {
			t.Errorf("ordinal(%d) = %q", i, got)
		}
	}
}

// TestReadTableIdentifierColumn: a column of names or keys (a different
// text on every row) names the rows, with a note, instead of becoming
// one one-hot feature per row; a class-named column does not, and a
// given ID column or -categorical wins.
func TestReadTableIdentifierColumn(t *testing.T) {
	const pts = "name,x,y\nann,0,0\nbob,0,1\ncid,1,0\ndan,5,5\n"
	for _, c := range []struct {
		name, content string
		opt           dataset.Options
		cols          int
		names         []string
		note          string
	}{
		{"by header name", pts, dataset.Options{}, 2, []string{"ann", "bob", "cid", "dan"}, `d.csv: column "name" has a different text on every row: read as the names of the rows, not a feature (-id name says so; -categorical 1 one-hot encodes it)`},
		{"no header", "0,ann,0\n0,bob,1\n1,cid,0\n", dataset.Options{Header: dataset.HeaderNo}, 2, []string{"ann", "bob", "cid"}, `d.csv: column 2 has a different text on every row: read as the names of the rows, not a feature (-id 2 says so; -categorical 2 one-hot encodes it)`},
		{"with a class column", "name,x,label\nann,0,a\nbob,1,a\ncid,2,b\n", dataset.Options{}, 1, []string{"ann", "bob", "cid"}, `column "name" has a different text`},
		{"forced categorical", pts, dataset.Options{Categorical: []string{"name"}}, 6, nil, ""},
		{"given ID column", "k,name,x\n1,ann,0\n2,bob,1\n3,cid,2\n", dataset.Options{IDColumn: "k"}, 0, nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			opt := c.opt
			opt.Spelling = cliSpelling
			d, err := ReadTable(context.Background(), []byte(c.content), "d.csv", opt)
			if c.cols == 0 {
				// The given ID column stands; the other text column is
				// an error naming it.
				if !errors.Is(err, dataset.ErrIdentifier) || !strings.Contains(err.Error(), `column 2 ("name")`) {
					t.Fatalf("err %v, want ErrIdentifier naming column 2", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, p := d.X.Dims(); p != c.cols || !reflect.DeepEqual(d.Names, c.names) {
				t.Errorf("%d features %q, names %q; want %d, %q", p, d.Features, d.Names, c.cols, c.names)
			}
			// The column of names recognised is a note.
			got := strings.Join(d.Notes, "\n")
			if strings.Contains(got, "different text") != (c.note != "") || !strings.Contains(got, c.note) || len(d.Warnings) > 0 {
				t.Errorf("notes %q, want %q; warnings %q", d.Notes, c.note, d.Warnings)
			}
		})
	}
}

// TestReadPartialLabelsNegativeN: a negative node count is an error (it
// returned one label with a nil error).
// TestReadPartialLabelsClasses: integer labels in 0…k−1 are the classes
// as before; other integer labels of at most k classes are read as class
// names are, in increasing order, with Renumbered and a note naming the
// mapping; class names keep their names, without a note.
func TestReadPartialLabelsClasses(t *testing.T) {
	const u = constraint.Unlabeled
	for _, tc := range []struct {
		name, in   string
		n, k       int
		labels     constraint.Labels
		classes    []string
		renumbered bool
		note       string
	}{
		{"0…k−1", "2\n0\n-1\n", 3, 3, constraint.Labels{2, 0, u}, nil, false, ""},
		{"k unknown", "3\n1\n", 2, 0, constraint.Labels{3, 1}, nil, false, ""},
		{"wine's 1, 2, 3", "node,label\n0,3\n2,1\n3,2\n", 4, 3, constraint.Labels{2, u, 0, 1}, []string{"1", "2", "3"}, true,
			"p.csv: labels 1, 2, 3 read as classes 0, 1, 2 (k = 3 numbers the classes 0…2)"},
		{"fewer classes than k", "5\n?\n7\n", 3, 3, constraint.Labels{0, u, 1}, []string{"5", "7"}, true,
			"p.csv: labels 5, 7 read as classes 0, 1 (k = 3 numbers the classes 0…2)"},
		{"many classes", "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n20\n", 11, 11, constraint.Labels{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
			[]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "20"}, true,
			"p.csv: labels 0, 1, 2, 3, 4, 5, 6, 7, …, 20 read as classes 0, 1, 2, 3, 4, 5, 6, 7, …, 10 (k = 11 numbers the classes 0…10)"},
		{"class names", "b\na\n", 2, 3, constraint.Labels{1, 0}, []string{"a", "b"}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := ReadPartialLabelsClasses(context.Background(), strings.NewReader(tc.in), "p.csv", tc.n, tc.k, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(l.Labels, tc.labels) || !reflect.DeepEqual(l.Classes, tc.classes) || l.Renumbered != tc.renumbered || l.Note != tc.note {
				t.Errorf("got %v %q %v %q\nwant %v %q %v %q", l.Labels, l.Classes, l.Renumbered, l.Note, tc.labels, tc.classes, tc.renumbered, tc.note)
			}
		})
	}
}

func TestReadPartialLabelsNegativeN(t *testing.T) {
	_, err := ReadPartialLabels(context.Background(), strings.NewReader("0\n"), "l.txt", -1, 2, nil)
	if err == nil || !strings.Contains(err.Error(), "l.txt: -1 nodes") {
		t.Errorf("err %v", err)
	}
}

// TestSupervisionKFromLabels: with KFromLabels and K = 0, the problem's k
// is the number of distinct known classes of the partial labels (counted
// by hand below), which are then numbered for it; a K already set, a file
// of fewer than two classes, or KFromLabels false leave K alone. The
// labels are read before the constraints, so the vote filter sees that k:
// the cannot-links 0–3, 3–1, 1–0 form an odd cycle that no 2-way split
// satisfies, and only with k = 2 does the filter drop one of them.
func TestSupervisionKFromLabels(t *testing.T) {
	g := twoTriangles(t)
	const u = constraint.Unlabeled
	for _, tc := range []struct {
		name          string
		labs, cons    string
		k             int
		off           bool // KFromLabels false
		wantK, wantKL int  // p.K after, Added.KFromLabels
		wantCount     int  // Added.LabelClassCount
		wantLabels    constraint.Labels
		wantNote      string
		wantDropped   int
	}{
		{name: "two classes", labs: "0,0\n4,1\n", wantK: 2, wantKL: 2, wantCount: 2, wantLabels: constraint.Labels{0, u, u, u, 1, u}},
		{name: "three class names", labs: "0,x\n2,y\n4,z\n5,x\n", wantK: 3, wantKL: 3, wantCount: 3, wantLabels: constraint.Labels{0, u, 1, u, 2, 0}},
		// Wine's codes 1, 2, 3: k = 3, then renumbered for it.
		{name: "codes 1, 2, 3", labs: "0,1\n2,2\n4,3\n", wantK: 3, wantKL: 3, wantCount: 3, wantLabels: constraint.Labels{0, u, 1, u, 2, u},
			wantNote: "l.txt: labels 1, 2, 3 read as classes 0, 1, 2 (k = 3 numbers the classes 0…2)"},
		{name: "unknown labels do not count", labs: "0,0\n1,-1\n2,?\n3,\n4,1\n", wantK: 2, wantKL: 2, wantCount: 2, wantLabels: constraint.Labels{0, u, u, u, 1, u}},
		{name: "one class", labs: "0,0\n4,0\n", wantK: 0, wantCount: 1, wantLabels: constraint.Labels{0, u, u, u, 0, u}},
		{name: "k given", labs: "0,0\n4,1\n", k: 3, wantK: 3, wantCount: 2, wantLabels: constraint.Labels{0, u, u, u, 1, u}},
		{name: "off", labs: "0,0\n4,1\n", off: true, wantK: 0, wantCount: 2, wantLabels: constraint.Labels{0, u, u, u, 1, u}},
		{name: "vote with k from labels", labs: "2,0\n5,1\n", cons: "0,3,cl\n3,1,cl\n1,0,cl\n", wantK: 2, wantKL: 2, wantCount: 2, wantLabels: constraint.Labels{u, u, 0, u, u, 1}, wantDropped: 1},
		{name: "vote without k", labs: "2,0\n5,1\n", cons: "0,3,cl\n3,1,cl\n1,0,cl\n", off: true, wantK: 0, wantCount: 2, wantLabels: constraint.Labels{u, u, 0, u, u, 1}, wantDropped: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempFiles(t, map[string]string{"l.txt": tc.labs, "c.txt": tc.cons})
			s := Supervision{Labels: filepath.Join(dir, "l.txt"), KFromLabels: !tc.off}
			if tc.cons != "" {
				s.Constraints, s.Vote = filepath.Join(dir, "c.txt"), true
			}
			p := &cluster.Problem{Graph: g, K: tc.k}
			a, err := s.AddTo(context.Background(), p, &Data{Name: "g", Graph: g})
			if err != nil {
				t.Fatal(err)
			}
			if p.K != tc.wantK || a.KFromLabels != tc.wantKL || a.LabelClassCount != tc.wantCount {
				t.Errorf("K %d, KFromLabels %d, classes %d; want %d, %d, %d", p.K, a.KFromLabels, a.LabelClassCount, tc.wantK, tc.wantKL, tc.wantCount)
			}
			if !reflect.DeepEqual(p.Labels, tc.wantLabels) {
				t.Errorf("labels %v, want %v", p.Labels, tc.wantLabels)
			}
			if note := strings.ReplaceAll(a.LabelNote, dir+string(filepath.Separator), ""); note != tc.wantNote {
				t.Errorf("note %q, want %q", note, tc.wantNote)
			}
			if a.VoteDropped != tc.wantDropped {
				t.Errorf("vote dropped %d, want %d", a.VoteDropped, tc.wantDropped)
			}
		})
	}
}

// TestScaleWarning: a feature column whose spread (max − min) is positive
// but below 2⁻²⁶ times the largest column spread, so that it is lost in
// the distances (values like 1e-200 beside columns of order 1), is named
// by a warning with the remedy the front end passes; columns of ordinary
// different scales (1 and 1000), constant columns, and the same data
// scaled by minmax or z-score give none. The threshold is strict: with
// x spread over 1, a column of spread 2⁻²⁷ is named and one of 2⁻²⁶ is
// not (both are powers of two, exact in float64).
func TestScaleWarning(t *testing.T) {
	const tiny = "x,tiny,label\n0,1e-200,a\n1,3e-200,a\n2,2e-200,b\n3,0,b\n"
	const want = `t.csv: column "tiny" varies by 3e-200, less than 2⁻²⁶ times the 3 of column "x" (max − min): its squared differences are below float64's precision beside that column's in the Euclidean distances between rows, so the graph all but ignores it; -scale minmax scales every column onto [0, 1]`
	for _, c := range []struct {
		name  string
		table string
		scale dataset.Scale
		want  string // the warning, "" for none; a prefix when it ends in "…"
	}{
		{"tiny column", tiny, dataset.ScaleNone, want},
		{"tiny column, minmax", tiny, dataset.ScaleMinMax, ""},
		{"tiny column, zscore", tiny, dataset.ScaleZScore, ""},
		{"scales 1 and 1000", "a,b\n0,0\n1,1000\n0.5,250\n", dataset.ScaleNone, ""},
		{"constant column", "a,b\n0,5\n1,5\n2,5\n", dataset.ScaleNone, ""},
		{"two tiny columns, no header", "0,1e-300,5e-210\n2,0,0\n1,1e-250,0\n", dataset.ScaleNone,
			`t.csv: columns "col2" (1e-250), "col3" (5e-210) vary by less than 2⁻²⁶ times the 2 of column "col1" (max − min): their squared differences are below float64's precision beside that column's in the Euclidean distances between rows, so the graph all but ignores them; -scale minmax scales every column onto [0, 1]`},
		{"2⁻²⁷ of the spread", "x,t\n0,0\n1,7.450580596923828e-09\n", dataset.ScaleNone, `t.csv: column "t" varies by 7.45e-09, less than 2⁻²⁶ times the 1 of column "x"…`},
		{"2⁻²⁶ of the spread", "x,t\n0,0\n1,1.4901161193847656e-08\n", dataset.ScaleNone, ""},
		// The case that 2⁻⁵², the first threshold, left silent.
		{"10⁻¹⁰ beside 1", "x,t\n0,0\n1,1e-10\n0.5,0\n", dataset.ScaleNone, `t.csv: column "t" varies by 1e-10, less than 2⁻²⁶ times the 1 of column "x"…`},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := ReadTable(context.Background(), []byte(c.table), "t.csv", dataset.Options{Scale: c.scale})
			if err != nil {
				t.Fatal(err)
			}
			got := d.ScaleWarning("-scale minmax")
			if prefix, ok := strings.CutSuffix(c.want, "…"); ok {
				if !strings.HasPrefix(got, prefix) {
					t.Errorf("warning %q, want one starting %q", got, prefix)
				}
				return
			}
			if got != c.want {
				t.Errorf("warning %q, want %q", got, c.want)
			}
		})
	}
	// Many tiny columns are listed with an ellipsis; graph data have no
	// columns.
	x := mat.NewDense(2, 9, []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1e-200, 2e-200, 3e-200, 4e-200, 5e-200, 6e-200, 7e-200, 8e-200})
	d := &Data{Name: "m", X: x}
	if got, want := d.ScaleWarning(`"scale": "minmax"`), `m: columns 2 (1e-200), 3 (2e-200), 4 (3e-200), 5 (4e-200), 6 (5e-200), …, 9 (8e-200) vary by less than 2⁻²⁶ times the 1 of column 1 (max − min)`; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, `; "scale": "minmax" scales every column onto [0, 1]`) {
		t.Errorf("warning %q, want one starting %q and ending with the remedy", got, want)
	}
	if got := (&Data{Name: "g", Graph: twoTriangles(t)}).ScaleWarning("-scale minmax"); got != "" {
		t.Errorf("graph data: warning %q", got)
	}
}

// TestFeatureMethodsGetNoGraph: the problem NewProblem makes for a method
// of feature rows alone (cpca, cvqe) has no graph, so that Run does not
// warn that it ignores one on every run of the front ends, and AddTo still
// reads the constraints on the data's nodes; clpp, which reads both, gets
// the graph.
func TestFeatureMethodsGetNoGraph(t *testing.T) {
	g := twoTriangles(t)
	x := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2})
	dir := tempFiles(t, map[string]string{"c.txt": "0,1,ml\n0,3,cl\n"})
	for _, name := range []string{"cpca", "cvqe", "clpp"} {
		t.Run(name, func(t *testing.T) {
			m, err := cluster.New(name)
			if err != nil {
				t.Fatal(err)
			}
			d := &Data{Name: "t.csv", X: x, Graph: g}
			p, err := NewProblem(d, m, 2)
			if err != nil {
				t.Fatal(err)
			}
			s := Supervision{Constraints: filepath.Join(dir, "c.txt")}
			if _, err := s.AddTo(context.Background(), p, d); err != nil {
				t.Fatal(err)
			}
			if got := len(p.Constraints.Pairs); got != 2 {
				t.Fatalf("%d pairs read, want 2", got)
			}
			res, err := cluster.Run(context.Background(), m, p, &cluster.Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range res.Warnings {
				if strings.Contains(w, "graph ignored") {
					t.Errorf("warning %q", w)
				}
			}
			if res.Labels[0] != res.Labels[1] || res.Labels[0] == res.Labels[3] {
				t.Errorf("labels %v: want 0 with 1 and apart from 3", res.Labels)
			}
		})
	}
}

// TestFeatureMethodsNeedNoGraph: for a method of feature rows alone
// (cpca, cvqe, plmeans -set Kernel=features; ReadsGraph false) the data need no graph, so a
// front end may skip BuildGraph: NewProblem and AddTo take the rows' n,
// and the partition is the one the data with a graph give. A method that
// reads a graph (clpp, njw) still needs one (Data.Check's error), and so
// does the vote filter. Before, NewProblem refused data without a graph
// for every method.
func TestFeatureMethodsNeedNoGraph(t *testing.T) {
	g := twoTriangles(t)
	x := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2})
	dir := tempFiles(t, map[string]string{"c.txt": "0,1,ml\n0,3,cl\n"})
	for _, c := range []struct {
		name  string
		reads bool // ReadsGraph
		knobs []string
	}{{"cpca", false, nil}, {"cvqe", false, nil}, {"plmeans", false, []string{"Kernel=features"}}, {"plmeans", true, nil},
		{"clpp", true, nil}, {"njw", true, nil}, {"cocluster", false, nil}, {"auto", true, nil}} {
		t.Run(c.name, func(t *testing.T) {
			m, err := cluster.New(c.name)
			if err != nil {
				t.Fatal(err)
			}
			if m, err = cluster.SetKnobs(m, c.knobs); err != nil {
				t.Fatal(err)
			}
			if got := ReadsGraph(m); got != c.reads {
				t.Fatalf("ReadsGraph = %v, want %v", got, c.reads)
			}
			if c.name == "cocluster" {
				return // reads a matrix, not feature rows
			}
			k := 2
			if m.Uses().FindsK {
				k = 0
			}
			bare := &Data{Name: "t.csv", X: x}
			p, err := NewProblem(bare, m, k)
			if c.reads {
				if err == nil || !strings.Contains(err.Error(), "t.csv: no graph (build it with BuildGraph)") {
					t.Errorf("NewProblem without a graph: %v, want Check's error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := Supervision{Constraints: filepath.Join(dir, "c.txt")}
			if m.Uses().Supervision&cluster.Pairs == 0 {
				s.Constraints = ""
			}
			if _, err := s.AddTo(context.Background(), p, bare); err != nil {
				t.Fatal(err)
			}
			if _, err := (Supervision{Constraints: filepath.Join(dir, "c.txt"), Vote: true}).AddTo(context.Background(), p, bare); err == nil || !strings.Contains(err.Error(), "no graph") {
				t.Errorf("the vote filter without a graph: %v, want an error", err)
			}
			res, err := cluster.Run(context.Background(), m, p, &cluster.Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			// The same method on the data with a graph.
			full := &Data{Name: "t.csv", X: x, Graph: g}
			q, err := NewProblem(full, m, k)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.AddTo(context.Background(), q, full); err != nil {
				t.Fatal(err)
			}
			want, err := cluster.Run(context.Background(), m, q, &cluster.Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Labels, want.Labels) {
				t.Errorf("labels without a graph %v, with one %v", res.Labels, want.Labels)
			}
		})
	}
}
