package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/graph"
)

// cliWords are what only tether's command line has, its flags and
// commands: an upload's messages must name its own options, the
// library's, the server's limit, or what to change in the file instead.
var cliWords = []string{"-graph-format", "-symmetrize", "-named-nodes", "-graph-base", "-max-nodes", "-gml-label", "-delim", "-header", "-missing", "-truth", "-constraints", "-partial-labels", "tether cluster", "tether labels", "tether: -", "(-"}

// TestUploadSpelledReaderMessages uploads files whose reading draws a
// message that tether cluster words with a flag or command
// (-graph-format, -symmetrize, -named-nodes, -max-nodes, -gml-label,
// -delim, -header, tether cluster -o and tether labels), or whose graph
// building does (-scale), and checks that the error, or the data's
// warnings and notes, name the upload's options (symmetrize, gml_label,
// delim, header, scale), the server's limit,
// the labels export, the library's options or what to change in the
// file, and none of tether's flags and commands.
func TestUploadSpelledReaderMessages(t *testing.T) {
	s := newTest(t, Config{})
	const (
		gml = "graph [\n" +
			"node [ id 0 label \"a\" ]\nnode [ id 1 label \"a\" ]\nnode [ id 2 label \"b\" ]\n" +
			"node [ id 3 label \"c\" ]\nnode [ id 4 label \"d\" ]\nnode [ id 5 label \"e\" ]\n" +
			"edge [ source 0 target 1 ]\nedge [ source 1 target 2 ]\nedge [ source 0 target 2 ]\n" +
			"edge [ source 3 target 4 ]\nedge [ source 4 target 5 ]\nedge [ source 3 target 5 ]\nedge [ source 2 target 3 ]\n]\n"
		arff = "@relation r\n@attribute x numeric\n@attribute y numeric\n@data\n0,0\n0,1\n1,0\n5,5\n5,6\n6,5\n"
		pts  = "x,y\n0,0\n0,1\n1,0\n5,5\n5,6\n6,5\n"
	)
	for _, c := range []struct {
		query, content string
		want           string // in the error, a warning or a note
	}{
		{"name=amb.csv&kind=graph", "0,1,1\n1,0,1\n1,1,0\n", "read as a matrix (to choose, set GraphOptions.Format, or give the file the extension .edges to read it as an edge list)"},
		{"name=asym.csv&kind=graph", "0,1,1\n1,0,1\n2,1,0\n", "(to use (A+Aᵀ)/2, set GraphOptions.Symmetrize; serve: option symmetrize true)"},
		{"name=mix.edges", "a b\nb 2\n", "(to read every node as a name, set GraphOptions.NamedNodes, or write the nodes all as numbers or all as names in the file)"},
		{"name=big.edges", "0 1\n1 300000\n", "node number ≥ 200000 nodes (GraphOptions.MaxNodes; serve: this server's limit)"},
		{"name=g.gml&gml_label=club", gml, `node 0 has no attribute "club" (GraphOptions.LabelAttr; serve: option gml_label)`},
		{"name=g.gml", gml, `the label "a" on line 3 repeats line 2, so the labels export numbers the nodes instead of naming them`},
		{"name=r.arff&delim=" + url.QueryEscape(";"), arff, "whose @data fields are separated by commas (serve: option delim)"},
		{"name=r.arff&header=no", arff, "whose columns are named by its @attribute lines (serve: option header)"},
		{"name=t.csv&delim=ab", pts, `unsupported delimiter "ab" (Options.Delimiter; serve: option delim)`},
		{"name=t.csv&delim=" + url.QueryEscape(";"), pts, `(Options.Delimiter ";"; serve: option delim), while the lines hold commas: the delimiter looks wrong; leave it out to detect it, or give option delim ,`},
		{"name=ids.csv&id=id", "id,x,y\na,0,0\na,0,1\nb,1,0\nc,5,5\nd,5,6\ne,6,5\n", `the ID "a" on line 3 repeats line 2, so the labels export numbers the rows instead of naming them`},
		{"name=iris.csv", "0,0,a\n0,1,a\n1,0,a\n5,5,b\n5,6,b\n6,5,b\n", `iris.csv: column 3 (the last) of a file without a header holds text in 2 categories over 6 rows, as a class column does: it is one-hot encoded into 2 features, which hand the classes to the clustering if it holds them (serve: option label last reads it as the reference labels; library: Options.LabelColumn "last"); deleting the column from the file leaves it out`},
		// graph.BuildNeighborsSpelled, through input.Data.BuildGraphSpelled.
		{"name=huge.csv", "x,y\n1e200,0\n0,1\n1,0\n5,5\n5,6\n6,5\n", "scale the features (dataset.Options.Scale = ScaleMinMax or ScaleZScore; serve: option scale minmax or option scale zscore)"},
		{"name=gaps.csv&missing=drop", "x,y\n0,0\n0,1\n1,0\n?,3\n5,5\n5,6\n6,5\n", "gaps.csv: the 6 rows kept are named by their 0-based row numbers among the file's 7 data rows (0…6, with gaps): the labels export writes those numbers"},
		// R's NA among numbers names the option that lists it; listed,
		// it is imputed as ? is, the note naming option missing.
		{"name=na.csv&missing=impute", "x,y\n0,0\n0,1\n1,0\nNA,3\n5,5\n5,6\n6,5\n", `"NA" looks like a missing value, which is written ? or left empty: write it so, or list it among the markers of missing values (serve: option missing_markers NA; library: Options.MissingMarkers), and it is imputed as the other missing values are`},
		{"name=na.csv&missing=impute&missing_markers=NA", "x,y\n0,0\n0,1\n1,0\nNA,3\n5,5\n5,6\n6,5\n", "na.csv: imputed 1 missing value in 1 row and 1 column: a numeric column's by the mean of its other values, a categorical column's by its most frequent value (serve: option missing impute; library: Options.Missing = MissingImpute)"},
	} {
		t.Run(c.query, func(t *testing.T) {
			var info sessionInfo
			callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
			base := "/api/sessions/" + info.ID
			code, b := call(t, s, "POST", base+"/data?"+c.query, "text/plain", []byte(c.content))
			var msgs []string
			switch code {
			case http.StatusOK:
				callJSON(t, s, "GET", base, nil, &info, http.StatusOK)
				msgs = slices.Concat(info.Warnings, info.Notes)
			case http.StatusBadRequest:
				var e errorReply
				if err := json.Unmarshal(b, &e); err != nil {
					t.Fatal(err)
				}
				msgs = []string{e.Error}
			default:
				t.Fatalf("upload: %d %s", code, b)
			}
			if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, c.want) }) {
				t.Errorf("messages %q, want one with %q", msgs, c.want)
			}
			for _, m := range msgs {
				for _, w := range cliWords {
					if strings.Contains(m, w) {
						t.Errorf("%q names %q, tether's", m, w)
					}
				}
			}
		})
	}
}

// TestClusterSpelledRemedies clusters uploads whose clustering draws an
// error or warning that suggests a remedy (cluster.Settings.Spelling,
// runSpelling), one for each of tether cluster's flags -disconnected,
// -regularize, -conflicts, -set and -normalize-weights: strict handling
// of disconnected graphs, and self loops, for csp on an isolated node,
// strict handling for sl attaching one, regularization for njw told not
// to regularize an isolated node and for its collapsed partition,
// constraint.Resolve for csp's contradictory pairs (serve has no
// policy), fast-ge2-bh's default Variant, and normalize_weights for sl
// on weights above 1, a method by name for auto with too little
// supervision. Each must name the library's remedy and the page's
// control, the upload's option or the cluster request's field where
// serve has one, and none of tether's flags and commands nor a job's
// fields.
func TestClusterSpelledRemedies(t *testing.T) {
	s := newTest(t, Config{})
	const (
		isolated = "0,1,1,0,0,0\n1,0,1,0,0,0\n1,1,0,1,0,0\n0,0,1,0,1,0\n0,0,0,1,0,0\n0,0,0,0,0,0\n"
		pts      = "x,y\n0,0\n0,1\n1,0\n5,5\n5,6\n6,5\n"
	)
	var clique strings.Builder // 19 nodes and one more hanging on node 18
	for i := 0; i < 19; i++ {
		for j := i + 1; j < 19; j++ {
			fmt.Fprintf(&clique, "%d %d\n", i, j)
		}
	}
	clique.WriteString("18 19\n")
	const heavy = "0 1 250\n1 2 250\n0 2 250\n3 4 250\n4 5 250\n3 5 250\n2 3 20\n"
	strict := cluster.DisconnectedStrict
	none := graph.Regularization{Mode: graph.RegNone}
	pairs := []pairJSON{{I: 0, J: 4, Kind: "cl"}, {I: 0, J: 1, Kind: "ml"}}
	chain := []pairJSON{{I: 0, J: 1, Kind: "ml"}, {I: 1, J: 2, Kind: "ml"}, {I: 0, J: 2, Kind: "cl"}}
	noisy := []pairJSON{{I: 0, J: 3, Kind: "ml"}, {I: 1, J: 4, Kind: "ml"}, {I: 0, J: 1, Kind: "cl"}, {I: 3, J: 4, Kind: "cl"}, {I: 2, J: 5, Kind: "cl"}, {I: 0, J: 2, Kind: "cl"}}
	for _, c := range []struct {
		name, query, content string
		pairs                []pairJSON
		req                  ClusterRequest
		want                 string // in the error or a warning
	}{
		{"csp strict", "name=i.csv&kind=graph", isolated, []pairJSON{{I: 0, J: 3, Kind: "cl"}, {I: 0, J: 1, Kind: "ml"}}, ClusterRequest{Method: "csp", K: 2, Disconnected: &strict},
			`strict handling of disconnected graphs (Problem.Disconnected = DisconnectedStrict; serve: the cluster request's "disconnected": "strict") gives the method the nodes of degree 0: ` +
				`add self loops (graph.WithSelfLoops; serve: load the data again with the option self_loops, the page's "self loops" box), drop the node`},
		{"auto with one pair", "name=p.csv", pts, []pairJSON{{I: 0, J: 1, Kind: "ml"}}, ClusterRequest{Method: "auto", K: 2},
			"run a method by name to use them without a choice (cluster.New(name), or its type such as cluster.SpectralLearning{}; serve: the page's method menu)"},
		{"sl attaching an isolated node", "name=i.csv&kind=graph", isolated, pairs, ClusterRequest{Method: "sl", K: 2},
			`(Problem.Disconnected = strict refuses instead; serve: the cluster request's "disconnected": "strict")`},
		{"njw told not to regularize an isolated node", "name=i.csv&kind=graph", isolated, nil, ClusterRequest{Method: "njw", K: 2, Regularize: &none},
			`or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn; serve: the cluster request's "regularize": "auto")`},
		{"njw's collapsed partition", "name=c.edges", clique.String(), nil, ClusterRequest{Method: "njw", K: 2},
			`the partition has collapsed: try another method or graph; on sparse graphs regularization helps (Problem.Regularize with Mode graph.RegOn and Tau 0, the mean degree, or larger; serve: the cluster request's "regularize": "mean" or a larger number τ)`},
		{"csp on contradictory pairs", "name=p.csv", pts, chain, ClusterRequest{Method: "csp", K: 2},
			"constraint.Resolve drops them by a policy (constraint.DropConflictingCannotLinks keeps the must-links); ml-noa-ssc"},
		{"fast-ge2-bh's Variant lh against its pairs", "name=p.csv", pts, noisy, ClusterRequest{Method: "fast-ge2-bh", K: 2, Knobs: map[string]string{"Variant": "lh"}},
			`try the default, Variant both (FastGE2BH.Variant = BetheBoth; serve: the cluster request's "knobs": {"Variant": "both"}), or fast-ge2`},
		{"sl on weights above 1", "name=h.edges", heavy, pairs, ClusterRequest{Method: "sl", K: 2},
			`(load the data again with the option normalize_weights, the page's "normalize weights" box; library: graph.Graph.Normalized)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var info sessionInfo
			callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
			base := "/api/sessions/" + info.ID
			if code, b := call(t, s, "POST", base+"/data?"+c.query, "text/plain", []byte(c.content)); code != http.StatusOK {
				t.Fatalf("upload: %d %s", code, b)
			}
			if c.pairs != nil {
				callJSON(t, s, "POST", base+"/constraints", constraintsBody{Pairs: c.pairs}, nil, http.StatusOK)
			}
			b, err := json.Marshal(c.req)
			if err != nil {
				t.Fatal(err)
			}
			code, out := call(t, s, "POST", base+"/cluster", "application/json", b)
			var msgs []string
			switch code {
			case http.StatusOK:
				var r ClusterReply
				if err := json.Unmarshal(out, &r); err != nil {
					t.Fatal(err)
				}
				msgs = r.Warnings
			case http.StatusBadRequest:
				var e errorReply
				if err := json.Unmarshal(out, &e); err != nil {
					t.Fatal(err)
				}
				msgs = []string{e.Error}
			default:
				t.Fatalf("cluster: %d %s", code, out)
			}
			if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, c.want) }) {
				t.Errorf("messages %q, want one with %q", msgs, c.want)
			}
			for _, m := range msgs {
				for _, w := range append(cliWords, "-self-loops", "-disconnected", "-method", "-regularize", "-conflicts", "-repair", "-max-full", "-set ", "-normalize-weights", "job:", `"knobs": [`, `"normalize_weights"`) {
					if strings.Contains(m, w) {
						t.Errorf("%q names %q, another front end's", m, w)
					}
				}
			}
		})
	}
}

// TestRunSpelling checks how tether serve names each remedy of
// cluster.Run's messages (runSpelling.Remedy): the page's controls, the
// data's options or, for the server's initial data, tether serve's
// flags, the cluster request's fields (several values joined by " or ",
// as dataset.Spelling joins them), and nothing for what serve lacks
// (tether cluster's -conflicts, -repair; -max-full is the operator's).
func TestRunSpelling(t *testing.T) {
	for _, c := range []struct {
		initial bool
		flag    string
		values  []string
		want    string
	}{
		{false, "k", nil, `serve: the page's "k" box`},
		{false, "method", nil, "serve: the page's method menu"},
		{false, "self-loops", nil, `serve: load the data again with the option self_loops, the page's "self loops" box`},
		{true, "self-loops", nil, "serve: restart tether serve with -self-loops"},
		{false, "regularize", []string{"auto"}, `serve: the cluster request's "regularize": "auto"`},
		{true, "regularize", []string{"mean"}, `serve: the cluster request's "regularize": "mean"`},
		{false, "regularize", nil, `serve: the cluster request's "regularize"`},
		{false, "regularize", []string{"auto", "mean"}, `serve: the cluster request's "regularize": "auto" or "mean"`},
		{false, "disconnected", []string{"strict"}, `serve: the cluster request's "disconnected": "strict"`},
		{true, "disconnected", []string{"strict"}, `serve: the cluster request's "disconnected": "strict"`},
		{false, "set", []string{"Variant=both"}, `serve: the cluster request's "knobs": {"Variant": "both"}`},
		{true, "set", []string{"Variant=both", "Variant=ln"}, `serve: the cluster request's "knobs": {"Variant": "both"} or "knobs": {"Variant": "ln"}`},
		{false, "set", nil, `serve: the cluster request's "knobs"`},
		{false, "normalize-weights", []string{"true"}, `serve: load the data again with the option normalize_weights, the page's "normalize weights" box`},
		{true, "normalize-weights", []string{"true"}, "serve: restart tether serve with -normalize-weights"},
		{false, "conflicts", []string{"drop-cl"}, ""},
		{true, "conflicts", []string{"drop-cl"}, ""},
		{false, "repair", []string{"always"}, ""},
		{true, "repair", []string{"always"}, ""},
		{false, "max-full", nil, ""},
	} {
		if got := (runSpelling{initial: c.initial}).Remedy(c.flag, c.values...); got != c.want {
			t.Errorf("initial %v: Remedy(%q, %q) = %q, want %q", c.initial, c.flag, c.values, got, c.want)
		}
	}
}

// TestUploadGraphLimitSpelled uploads feature rows whose graph, full or
// eps as the operator's Config.Spec asks, is above Spec.MaxFull: the
// error names the library's option alone, which the uploader cannot
// change (tether serve's -max-full sets it), and none of tether
// cluster's flags nor a job's fields.
func TestUploadGraphLimitSpelled(t *testing.T) {
	const pts = "x,y\n0,0\n0,1\n1,0\n5,5\n5,6\n6,5\n"
	for _, c := range []struct {
		name string
		spec graph.Spec
		want string
	}{
		{"full", graph.Spec{Kind: graph.Full, MaxFull: 3}, "above the limit n ≤ 3 (Spec.MaxFull); use a k-NN graph"},
		{"eps", graph.Spec{Kind: graph.Epsilon, Eps: 100, MaxFull: 2, Sigma: graph.Sigma{Rule: graph.SigmaFixed, Value: 1}}, "above the limit 2² (Spec.MaxFull); use a smaller radius"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newTest(t, Config{Spec: c.spec})
			var info sessionInfo
			callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
			code, b := call(t, s, "POST", "/api/sessions/"+info.ID+"/data?name=p.csv", "text/plain", []byte(pts))
			var e errorReply
			if err := json.Unmarshal(b, &e); err != nil || code != http.StatusBadRequest {
				t.Fatalf("upload: %d %s", code, b)
			}
			if !strings.Contains(e.Error, c.want) {
				t.Errorf("error %q, want it to hold %q", e.Error, c.want)
			}
			for _, w := range append(cliWords, "-max-full", "serve:", "job:") {
				if strings.Contains(e.Error, w) {
					t.Errorf("%q names %q, another front end's", e.Error, w)
				}
			}
		})
	}
}
