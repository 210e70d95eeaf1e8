package job

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// cliWords are what only tether's command line has, its flags and
// commands: a job's messages must name its own fields, the library's
// options, or what to change in the file instead.
var cliWords = []string{"-graph-format", "-symmetrize", "-named-nodes", "-graph-base", "-max-nodes", "-gml-label", "-delim", "-header", "-missing", "-truth", "-constraints", "-partial-labels", "-normalize-weights", "tether cluster", "tether labels", "tether: -", "(-"}

// TestRunSpelledReaderMessages runs jobs whose graph file, catalog data
// set or labels file draws a message that tether cluster words with a
// flag or command (-graph-format, -symmetrize, -named-nodes, -max-nodes,
// tether cluster -o and tether labels, -missing drop, -constraints), or
// whose graph building does (-scale), and checks that the job's result
// names the library's option, what to change in the file, or the job's
// own fields ("constraints", "labels", "scale"), and none of tether's
// flags and commands.
func TestRunSpelledReaderMessages(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"amb.csv":   "0,1,1\n1,0,1\n1,1,0\n",
		"asym.csv":  "0,1,1\n1,0,1\n2,1,0\n",
		"mix.edges": "a b\nb 2\n",
		"big.edges": "0 1\n1 20000000\n",
		"g.gml": "graph [\n" +
			"node [ id 0 label \"a\" ]\nnode [ id 1 label \"a\" ]\nnode [ id 2 label \"b\" ]\n" +
			"node [ id 3 label \"c\" ]\nnode [ id 4 label \"d\" ]\nnode [ id 5 label \"e\" ]\n" +
			"edge [ source 0 target 1 ]\nedge [ source 1 target 2 ]\nedge [ source 0 target 2 ]\n" +
			"edge [ source 3 target 4 ]\nedge [ source 4 target 5 ]\nedge [ source 3 target 5 ]\nedge [ source 2 target 3 ]\n]\n",
		"pts.csv":  "x,y\n0,0\n0,1\n1,0\n5,5\n5,6\n6,5\n",
		"feat.csv": "x,y,label\n0,0,a\n0,1,a\n1,0,a\n5,5,b\n5,6,b\n6,5,b\n",
		"c.txt":    "0,1,ml\n2,5,cl\n",
		"iris.csv": "0,0,a\n0,1,a\n1,0,a\n5,5,b\n5,6,b\n6,5,b\n",
		"huge.csv": "x,y\n1e200,0\n0,1\n1,0\n5,5\n5,6\n6,5\n",
	})
	data := filepath.Join(dir, "catalog")
	if err := os.MkdirAll(filepath.Join(data, "hepatitis"), 0o755); err != nil {
		t.Fatal(err)
	}
	hepatitis := "DIE_LIVE,AGE,ALBUMIN\n2,30,4.0\n2,50,?\n1,78,3.5\n2,31,4.1\n1,34,?\n1,60,2.9\n2,32,4.2\n1,70,3.0\n"
	if err := os.WriteFile(filepath.Join(data, "hepatitis", "hepatitis.data"), []byte(hepatitis), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		spec Spec
		want string // in the error, a warning or a note
	}{
		{"ambiguous csv", Spec{Graph: "amb.csv"}, "read as a matrix (to choose, set GraphOptions.Format, or give the file the extension .edges to read it as an edge list)"},
		{"not symmetric", Spec{Graph: "asym.csv"}, "(to use (A+Aᵀ)/2, set GraphOptions.Symmetrize)"},
		{"numbers and names", Spec{Graph: "mix.edges"}, "(to read every node as a name, set GraphOptions.NamedNodes, or write the nodes all as numbers or all as names in the file)"},
		{"beyond MaxNodes", Spec{Graph: "big.edges"}, "node number ≥ 16777216 nodes (GraphOptions.MaxNodes)"},
		{"GML labels that cannot name the nodes", Spec{Graph: "g.gml"}, `the label "a" on line 3 repeats line 2, so the nodes are numbered instead of named`},
		{"catalog dropped rows", Spec{Dataset: "hepatitis", DataRoot: data}, "dropped 2 of 8 rows with missing values (library: Options.Missing = MissingDrop)"},
		{"catalog row numbers", Spec{Dataset: "hepatitis", DataRoot: data}, `hepatitis: the 6 rows kept are named by their 0-based row numbers among the file's 8 data rows (0…7, with gaps): the job's labels file (ID.labels, name,cluster lines) writes those numbers, and node numbers in "truth", "constraints" and "labels" files mean the same rows`},
		{"catalog pair on a dropped row", Spec{Dataset: "hepatitis", DataRoot: data, Constraints: "c.txt"}, "1 pair on rows dropped for missing values (library: Options.Missing = MissingDrop): not used"},
		{"headerless class column", Spec{Input: "iris.csv"}, `iris.csv: column 3 (the last) of a file without a header holds text in 2 categories over 6 rows, as a class column does: it is one-hot encoded into 2 features, which hand the classes to the clustering if it holds them (job: "label": "last" reads it as the reference labels; library: Options.LabelColumn "last"); deleting the column from the file leaves it out`},
		{"labels file that is a table", Spec{Input: "pts.csv", Labels: "feat.csv", Method: "labelprop"}, "(a feature table with a class column? a labels file holds that column alone, one label per line)"},
		// graph.BuildNeighborsSpelled, through input.Data.BuildGraphSpelled.
		{"features to scale", Spec{Input: "huge.csv"}, `scale the features (dataset.Options.Scale = ScaleMinMax or ScaleZScore; job: "scale": "minmax" or "scale": "zscore")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.spec
			s.ID, s.K, s.Seed = "a", 2, 1
			if s.Method == "" {
				s.Method = "njw"
			}
			res := Run(context.Background(), s, dir)
			msgs := slices.Concat([]string{res.Error}, res.Warnings, res.Notes)
			if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, c.want) }) {
				t.Errorf("error %q, warnings %q, notes %q: want one with %q", res.Error, res.Warnings, res.Notes, c.want)
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

// TestRunSpelledClusterMessages runs jobs whose clustering draws an error
// or warning that suggests a remedy (cluster.Settings.Spelling, set to
// Spelling): self loops for cosc on a graph without edges, a method by
// name for auto with too little supervision, constraint.Resolve for a
// pair both must-link and cannot-link, which a job keeps as read, and for
// Run's warning on contradictory pairs (tether cluster's -conflicts),
// strict handling of disconnected graphs for sl attaching an isolated
// node and failing on the core without supervision (-disconnected), regularization for njw's collapsed partition
// (-regularize), fast-ge2-bh's default Variant (-set Variant=both) and
// the weights' scale (-normalize-weights). Each must name the library's
// remedy and the job's field where a Spec has one ("self_loops",
// "method", "knobs", "normalize_weights"; none for -conflicts,
// -disconnected and -regularize), and none of tether's flags and
// commands nor serve's words.
func TestRunSpelledClusterMessages(t *testing.T) {
	var clique strings.Builder // 19 nodes and one more hanging on node 18
	for i := 0; i < 19; i++ {
		for j := i + 1; j < 19; j++ {
			fmt.Fprintf(&clique, "%d %d\n", i, j)
		}
	}
	clique.WriteString("18 19\n")
	dir := writeFiles(t, map[string]string{
		"e.csv":        "0,0,0,0\n0,0,0,0\n0,0,0,0\n0,0,0,0\n",
		"pts.csv":      "x,y\n0,0\n0,1\n1,0\n5,5\n5,6\n6,5\n",
		"one.txt":      "0,1,ml\n",
		"both.txt":     "0,1,ml\n0,1,cl\n",
		"chain.txt":    "0,1,ml\n1,2,ml\n0,2,cl\n",
		"pairs.txt":    "0,4,cl\n0,1,ml\n",
		"outside.txt":  "0,5,ml\n", // node 5 is outside the core of isolated.csv
		"isolated.csv": "0,1,1,0,0,0\n1,0,1,0,0,0\n1,1,0,1,0,0\n0,0,1,0,1,0\n0,0,0,1,0,0\n0,0,0,0,0,0\n",
		"clique.edges": clique.String(),
		"crossed.txt":  "0\n1\n-1\n0\n1\n-1\n",
		"heavy.txt":    "0 1 250\n1 2 250\n0 2 250\n3 4 250\n4 5 250\n3 5 250\n2 3 20\n",
	})
	for _, c := range []struct {
		name string
		spec Spec
		want string // in the error or a warning
	}{
		{"cosc without edges", Spec{Graph: "e.csv", Method: "cosc"}, `add self loops (graph.WithSelfLoops; job: "self_loops") or drop the nodes of degree 0`},
		{"auto with one pair", Spec{Input: "pts.csv", Constraints: "one.txt", Method: "auto"}, `run a method by name to use them without a choice (cluster.New(name), or its type such as cluster.SpectralLearning{}; job: "method")`},
		{"sl on a contradictory pair", Spec{Input: "pts.csv", Constraints: "both.txt", Method: "sl"}, "resolve the contradiction first (constraint.Resolve), or use a method that resolves it"},
		{"csp on contradictory pairs", Spec{Input: "pts.csv", Constraints: "chain.txt", Method: "csp"}, "constraint.Resolve drops them by a policy (constraint.DropConflictingCannotLinks keeps the must-links); ml-noa-ssc"},
		{"sl attaching an isolated node", Spec{Graph: "isolated.csv", Constraints: "pairs.txt", Method: "sl"}, "sl clustered the core and attached the 1 other node: 1 with no link to a placed node joined the largest cluster allowed by their cannot-links (the largest holds 3 core nodes) (Problem.Disconnected = strict refuses instead)"},
		// A pair that leaves the core without supervision (without any
		// pair, cluster.Run refuses sl before it looks for a core).
		{"sl failing on the core", Spec{Graph: "isolated.csv", Constraints: "outside.txt", Method: "sl"}, "cluster: sl: on the 5-node core of the graph (1 nodes outside it, to be attached; Problem.Disconnected = strict gives it the whole graph)"},
		{"njw's collapsed partition", Spec{Graph: "clique.edges", Method: "njw"}, "the partition has collapsed: try another method or graph; on sparse graphs regularization helps (Problem.Regularize with Mode graph.RegOn and Tau 0, the mean degree, or larger)"},
		{"fast-ge2-bh's Variant ln against its labels", Spec{Input: "pts.csv", Labels: "crossed.txt", Method: "fast-ge2-bh", Knobs: []string{"Variant=ln"}}, `try the default, Variant both (FastGE2BH.Variant = BetheBoth; job: "knobs": ["Variant=both"]), or fast-ge2`},
		{"sl on weights above 1", Spec{Graph: "heavy.txt", Constraints: "pairs.txt", Method: "sl"}, `(the job's "normalize_weights": true; library: graph.Graph.Normalized)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.spec
			s.ID, s.K, s.Seed = "a", 2, 1
			res := Run(context.Background(), s, dir)
			msgs := slices.Concat([]string{res.Error}, res.Warnings)
			if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, c.want) }) {
				t.Errorf("error %q, warnings %q: want one with %q", res.Error, res.Warnings, c.want)
			}
			for _, m := range msgs {
				for _, w := range append(cliWords, "-self-loops", "-method", "-conflicts", "-regularize", "-disconnected", "-repair", "-max-full", "-set ", "serve:", "cluster request") {
					if strings.Contains(m, w) {
						t.Errorf("%q names %q, another front end's", m, w)
					}
				}
			}
		})
	}
}

// TestSpellingRemedies checks how Spelling names each of tether cluster's
// flags that the errors and warnings of packages graph and cluster
// suggest (cluster.Spelling, graph.Spelling), with the values they pass:
// a Spec's field where it has one, "" (the library's option alone) where
// it has none.
func TestSpellingRemedies(t *testing.T) {
	for _, c := range []struct {
		flag   string
		values []string
		want   string
	}{
		{"self-loops", nil, `job: "self_loops"`},
		{"k", nil, `job: "k"`},
		{"method", []string{"njw", "bethe"}, `job: "method": "njw" or "method": "bethe"`},
		{"scale", []string{"minmax", "zscore"}, `job: "scale": "minmax" or "scale": "zscore"`},
		{"set", []string{"Variant=both"}, `job: "knobs": ["Variant=both"]`},
		{"normalize-weights", []string{"true"}, `job: "normalize_weights": true`},
		{"missing", []string{"impute", "drop"}, `job: "missing": "impute" or "missing": "drop"`},
		{"missing-markers", []string{"NULL,NA"}, `job: "missing_markers": ["NULL", "NA"]`},
		{"regularize", []string{"auto"}, ""},
		{"regularize", []string{"mean"}, ""},
		{"disconnected", []string{"strict"}, ""},
		{"conflicts", []string{"drop-cl"}, ""},
		{"repair", []string{"always"}, ""},
		{"max-full", nil, ""},
		{"sigma", []string{"median"}, ""},
	} {
		if got := Spelling().Remedy(c.flag, c.values...); got != c.want {
			t.Errorf("Remedy(%q, %q) = %q, want %q", c.flag, c.values, got, c.want)
		}
	}
}
