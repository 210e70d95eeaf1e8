package dataset

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// Front ends' spellings as tether's commands, job and internal/server
// give them (their own tests check theirs through job.Run and an
// upload). The zero value is the library's.
var (
	cliSpelling    = Spelling{Front: "tether", CommandLine: true}
	jsonSpelling   = Spelling{Front: "job", Style: StyleJSON, Label: "label", KNN: "knn", Constraints: "constraints", PartialLabels: "labels", Missing: "missing", MissingMarkers: "missing_markers"}
	optionSpelling = Spelling{Front: "serve", Style: StyleOption, Label: "label", ID: "id", Missing: "missing", MissingMarkers: "missing_markers",
		Delim: "delim", Header: "header", Symmetrize: "symmetrize", GMLLabel: "gml_label",
		NodeLimit: "this server's limit", Outputs: "the labels export"}
)

// cli returns o with tether's spelling: the tests that pin the command
// line's wording read with it (the zero value is the library's).
func cli(o Options) Options {
	o.Spelling = cliSpelling
	return o
}

// TestSpellingOption checks how each style writes an option with its
// value, and that an option the front end lacks is reported so.
func TestSpellingOption(t *testing.T) {
	for _, c := range []struct {
		sp          Spelling
		flag, value string
		want        string
		ok          bool
	}{
		{cliSpelling, "missing", "drop", "-missing drop", true},
		{cliSpelling, "drop", "", "-drop", true},
		{Spelling{CommandLine: true, Style: StyleJSON}, "knn", "5", "-knn 5", true}, // the command line's style
		// The zero value, the library's, names no option.
		{Spelling{}, "missing", "drop", "", false},
		{Spelling{}, "knn", "5", "", false},
		{Spelling{}, "symmetrize", "true", "", false},
		{jsonSpelling, "knn", "5", `"knn": 5`, true},
		{jsonSpelling, "label", "none", `"label": "none"`, true},
		{jsonSpelling, "label", "", `"label"`, true},
		{jsonSpelling, "missing", "drop", `"missing": "drop"`, true},
		{jsonSpelling, "id", "name", "", false},
		// The missing values' markers: a list, comma-separated, which a
		// JSON style writes as a JSON list and the command line as one
		// word of the shell, quoted when the shell would read it
		// otherwise.
		{cliSpelling, "missing-markers", "NA", "-missing-markers NA", true},
		{cliSpelling, "missing-markers", "NULL,N/A", "-missing-markers NULL,N/A", true},
		{cliSpelling, "missing-markers", "#N/A", "-missing-markers '#N/A'", true},
		{cliSpelling, "missing-markers", "it's", `-missing-markers 'it'\''s'`, true},
		{cliSpelling, "missing-markers", "", "-missing-markers", true},
		{jsonSpelling, "missing-markers", "NULL,NA", `"missing_markers": ["NULL", "NA"]`, true},
		{jsonSpelling, "missing-markers", "#N/A", `"missing_markers": ["#N/A"]`, true},
		{optionSpelling, "missing-markers", "NULL,NA", "option missing_markers NULL,NA", true},
		{Spelling{}, "missing-markers", "NA", "", false},
		{jsonSpelling, "sigma", "local:5", "", false},
		{optionSpelling, "missing", "drop", "option missing drop", true},
		{optionSpelling, "id", "name", "option id name", true},
		{optionSpelling, "knn", "5", "", false},
		{optionSpelling, "no-such-flag", "1", "", false},
		// A boolean flag takes no value on the command line.
		{cliSpelling, "symmetrize", "true", "-symmetrize", true},
		{jsonSpelling, "symmetrize", "true", "", false},
		{optionSpelling, "symmetrize", "true", "option symmetrize true", true},
		{Spelling{Front: "job", Style: StyleJSON, Symmetrize: "symmetrize"}, "symmetrize", "true", `"symmetrize": true`, true},
		{optionSpelling, "delim", ";", "option delim ;", true},
		{jsonSpelling, "partial-labels", "", `"labels"`, true},
		// A knob setting is a list of one in JSON.
		{cliSpelling, "set", "Variant=both", "-set Variant=both", true},
		{Spelling{Front: "job", Style: StyleJSON, Knobs: "knobs"}, "set", "Variant=both", `"knobs": ["Variant=both"]`, true},
		{Spelling{Front: "job", Style: StyleJSON, NormalizeWeights: "normalize_weights"}, "normalize-weights", "true", `"normalize_weights": true`, true},
		{cliSpelling, "normalize-weights", "true", "-normalize-weights", true},
		{jsonSpelling, "set", "Variant=both", "", false},
		{optionSpelling, "normalize-weights", "true", "", false},
	} {
		got, ok := c.sp.Option(c.flag, c.value)
		if got != c.want || ok != c.ok {
			t.Errorf("%+v.Option(%q, %q) = %q, %v; want %q, %v", c.sp, c.flag, c.value, got, ok, c.want, c.ok)
		}
	}
}

// TestSpellingHint checks the parenthesis naming the front end's option
// and the library's, and the library's alone where the front end lacks
// it.
func TestSpellingHint(t *testing.T) {
	for _, c := range []struct {
		sp                         Spelling
		flag, value, what, library string
		want                       string
	}{
		{cliSpelling, "missing", "drop", "", "Options.Missing = MissingDrop", "(tether: -missing drop; library: Options.Missing = MissingDrop)"},
		{Spelling{CommandLine: true}, "missing", "drop", "", "Options.Missing = MissingDrop", "(tether: -missing drop; library: Options.Missing = MissingDrop)"},
		{Spelling{}, "missing", "drop", "", "Options.Missing = MissingDrop", "(library: Options.Missing = MissingDrop)"},
		{Spelling{}, "label", "y", " takes it instead", "", ""},
		{jsonSpelling, "missing", "drop", "", "Options.Missing = MissingDrop", `(job: "missing": "drop"; library: Options.Missing = MissingDrop)`},
		{Spelling{Front: "job", Style: StyleJSON}, "missing", "drop", "", "Options.Missing = MissingDrop", "(library: Options.Missing = MissingDrop)"},
		{cliSpelling, "missing-markers", "NA", "", "Options.MissingMarkers", "(tether: -missing-markers NA; library: Options.MissingMarkers)"},
		{jsonSpelling, "missing-markers", "NA", "", "Options.MissingMarkers", `(job: "missing_markers": ["NA"]; library: Options.MissingMarkers)`},
		{optionSpelling, "missing-markers", "NA", "", "Options.MissingMarkers", "(serve: option missing_markers NA; library: Options.MissingMarkers)"},
		{Spelling{}, "missing-markers", "NA", "", "Options.MissingMarkers", "(library: Options.MissingMarkers)"},
		{optionSpelling, "missing", "drop", "", "Options.Missing = MissingDrop", "(serve: option missing drop; library: Options.Missing = MissingDrop)"},
		{jsonSpelling, "label", "none", " makes it a feature", `Options.LabelColumn "none"`, `(job: "label": "none" makes it a feature; library: Options.LabelColumn "none")`},
		{cliSpelling, "label", "y", " takes it instead", "", "(tether: -label y takes it instead)"},
		{optionSpelling, "label", "y", " takes it instead", "", "(serve: option label y takes it instead)"},
		{optionSpelling, "drop", "3", " leaves it out", "", ""},
		{optionSpelling, "categorical", "3", " encodes it", "Options.Categorical", "(library: Options.Categorical encodes it)"},
	} {
		if got := c.sp.Hint(c.flag, c.value, c.what, c.library); got != c.want {
			t.Errorf("%+v.Hint(%q, %q, %q, %q) = %q, want %q", c.sp, c.flag, c.value, c.what, c.library, got, c.want)
		}
	}
}

// TestSpellingRemedy checks the front end's options that the errors and
// warnings of packages graph and cluster name after the library's
// (graph.Spelling, cluster.Spelling): after the front end's name, several
// values joined by " or ", and "" for an option the front end lacks.
func TestSpellingRemedy(t *testing.T) {
	job := Spelling{Front: "job", Style: StyleJSON, Scale: "scale", SelfLoops: "self_loops", K: "k", Method: "method", Knobs: "knobs", NormalizeWeights: "normalize_weights"}
	serve := Spelling{Front: "serve", Style: StyleOption, Scale: "scale"}
	for _, c := range []struct {
		sp     Spelling
		flag   string
		values []string
		want   string
	}{
		{cliSpelling, "self-loops", nil, "tether: -self-loops"},
		{cliSpelling, "conflicts", []string{"drop-cl"}, "tether: -conflicts drop-cl"},
		{cliSpelling, "scale", []string{"minmax", "zscore"}, "tether: -scale minmax or -scale zscore"},
		{Spelling{}, "self-loops", nil, ""},
		{Spelling{}, "scale", []string{"minmax"}, ""},
		{job, "self-loops", nil, `job: "self_loops"`},
		{job, "k", nil, `job: "k"`},
		{job, "scale", []string{"minmax", "zscore"}, `job: "scale": "minmax" or "scale": "zscore"`},
		{job, "conflicts", []string{"drop-cl"}, ""},
		{job, "max-full", nil, ""},
		{serve, "scale", []string{"minmax"}, "serve: option scale minmax"},
		{serve, "self-loops", nil, ""},
		{serve, "method", nil, ""},
		{jsonSpelling, "symmetrize", []string{"true"}, ""},
		{optionSpelling, "symmetrize", []string{"true"}, "serve: option symmetrize true"},
		{job, "set", []string{"Variant=both", "Variant=ln"}, `job: "knobs": ["Variant=both"] or "knobs": ["Variant=ln"]`},
		{job, "set", nil, `job: "knobs"`},
		{Spelling{Front: "x", Style: StyleOption, Knobs: "knobs"}, "set", []string{"Variant=both"}, "x: option knobs Variant=both"},
	} {
		if got := c.sp.Remedy(c.flag, c.values...); got != c.want {
			t.Errorf("%+v.Remedy(%q, %q) = %q, want %q", c.sp, c.flag, c.values, got, c.want)
		}
	}
	// tether cluster's flags that the messages of packages graph and
	// cluster suggest beyond the readers' options, as each front end
	// spelled here names them: a job has knobs and normalize_weights, and
	// neither a job nor serve's uploads have the others (tether serve's
	// cluster request names regularize, disconnected and knobs through
	// its own cluster.Spelling, internal/server's runSpelling).
	fronts := []struct {
		name string
		sp   Spelling
	}{{"library", Spelling{}}, {"cli", cliSpelling}, {"job", job}, {"serve", optionSpelling}}
	for _, c := range []struct {
		flag  string
		value string
		want  map[string]string // by front end; "" when absent
	}{
		{"regularize", "auto", map[string]string{"cli": "tether: -regularize auto"}},
		{"disconnected", "strict", map[string]string{"cli": "tether: -disconnected strict"}},
		{"conflicts", "drop-cl", map[string]string{"cli": "tether: -conflicts drop-cl"}},
		{"repair", "always", map[string]string{"cli": "tether: -repair always"}},
		{"max-full", "", map[string]string{"cli": "tether: -max-full"}},
		{"set", "Variant=both", map[string]string{"cli": "tether: -set Variant=both", "job": `job: "knobs": ["Variant=both"]`}},
		{"normalize-weights", "true", map[string]string{"cli": "tether: -normalize-weights", "job": `job: "normalize_weights": true`}},
	} {
		for _, f := range fronts {
			var values []string
			if c.value != "" {
				values = []string{c.value}
			}
			if got := f.sp.Remedy(c.flag, values...); got != c.want[f.name] {
				t.Errorf("%s: Remedy(%q, %q) = %q, want %q", f.name, c.flag, values, got, c.want[f.name])
			}
		}
	}
}

// TestSpelledTableMessages reads tables whose notes, warnings and errors
// suggest an option, with tether's spelling (unchanged), a job's and the
// web app's, and checks each message names only options the front end
// has.
func TestSpelledTableMessages(t *testing.T) {
	const (
		missing  = "x,y\n1,2\n?,3\n4,5\n6,7\n"
		rNA      = "x,y\n1,2\n3,NA\n4,5\n6,7\n"
		color    = "x,color\n1,red\n2,blue\n3,red\n4,blue\n"
		mixed    = "x,code\n1,a1\n2,2\n3,3\n4,4\n"
		idLike   = "x,tag\n1,a\n2,b\n3,c\n4,d\n5,e\n6,f\n7,g\n8,h\n9,i\n10,j\n11,a\n12,b\n"
		custIDs  = "customer_id,x\n27114,1\n5,2\n88012,3\n301,4\n77,5\n4500,6\n12,7\n999,8\n60001,9\n8,10\n"
		names    = "x,tag\n1,a\n2,b\n3,c\n4,d\n"
		iris     = "5.1,3.5,a\n4.9,3.0,b\n4.7,3.2,a\n4.6,3.1,b\n"
		cli, job = "cli", "job"
	)
	type want map[string]string // by front end: a substring of a message
	for _, c := range []struct {
		name    string
		content string
		opt     Options
		want    want
	}{
		{"dropped rows", missing, Options{Missing: MissingDrop}, want{
			cli:   "dropped 1 of 4 rows with missing values (tether: -missing drop; library: Options.Missing = MissingDrop): line 3",
			job:   `dropped 1 of 4 rows with missing values (job: "missing": "drop"; library: Options.Missing = MissingDrop): line 3`,
			"lib": "dropped 1 of 4 rows with missing values (library: Options.Missing = MissingDrop): line 3",
			"web": "dropped 1 of 4 rows with missing values (serve: option missing drop; library: Options.Missing = MissingDrop): line 3",
		}},
		{"missing value refused", missing, Options{}, want{
			cli:   "missing value: impute it (its column's mean or most frequent value) or drop its row (tether: -missing impute or -missing drop; library: Options.Missing = MissingImpute or MissingDrop)",
			job:   `missing value: impute it (its column's mean or most frequent value) or drop its row (job: "missing": "impute" or "missing": "drop"; library: Options.Missing = MissingImpute or MissingDrop)`,
			"lib": "missing value: impute it (its column's mean or most frequent value) or drop its row (library: Options.Missing = MissingImpute or MissingDrop)",
			"web": "missing value: impute it (its column's mean or most frequent value) or drop its row (serve: option missing impute or option missing drop; library: Options.Missing = MissingImpute or MissingDrop)",
		}},
		{"R's NA", rNA, Options{}, want{
			cli:   `"NA" looks like a missing value, which is written ? or left empty: write it so, or list it among the markers of missing values (tether: -missing-markers NA; library: Options.MissingMarkers), then impute it or drop its row (tether: -missing impute or -missing drop; library: Options.Missing = MissingImpute or MissingDrop)`,
			job:   `"NA" looks like a missing value, which is written ? or left empty: write it so, or list it among the markers of missing values (job: "missing_markers": ["NA"]; library: Options.MissingMarkers), then impute it or drop its row (job: "missing": "impute" or "missing": "drop"; library: Options.Missing = MissingImpute or MissingDrop)`,
			"lib": `"NA" looks like a missing value, which is written ? or left empty: write it so, or list it among the markers of missing values (library: Options.MissingMarkers), then impute it or drop its row (library: Options.Missing = MissingImpute or MissingDrop)`,
			"web": `"NA" looks like a missing value, which is written ? or left empty: write it so, or list it among the markers of missing values (serve: option missing_markers NA; library: Options.MissingMarkers), then impute it or drop its row (serve: option missing impute or option missing drop; library: Options.Missing = MissingImpute or MissingDrop)`,
		}},
		// Markers listed as the front ends list them (FrontMissingMarkers:
		// NULL beside ? and empty), NA not among them: the option lists
		// both.
		{"R's NA beside the markers listed", rNA, Options{MissingMarkers: []string{"?", "", "NULL"}, Missing: MissingImpute}, want{
			cli:   `"NA" looks like a missing value, which the markers of missing values do not list: list it (tether: -missing-markers NULL,NA; library: Options.MissingMarkers), and it is imputed as the other missing values are`,
			job:   `"NA" looks like a missing value, which the markers of missing values do not list: list it (job: "missing_markers": ["NULL", "NA"]; library: Options.MissingMarkers), and it is imputed as the other missing values are`,
			"lib": `"NA" looks like a missing value, which the markers of missing values do not list: list it (library: Options.MissingMarkers), and it is imputed as the other missing values are`,
			"web": `"NA" looks like a missing value, which the markers of missing values do not list: list it (serve: option missing_markers NULL,NA; library: Options.MissingMarkers), and it is imputed as the other missing values are`,
		}},
		{"imputed", missing, Options{Missing: MissingImpute}, want{
			cli:   "by its most frequent value (tether: -missing impute; library: Options.Missing = MissingImpute)",
			job:   `by its most frequent value (job: "missing": "impute"; library: Options.Missing = MissingImpute)`,
			"lib": "by its most frequent value (library: Options.Missing = MissingImpute)",
			"web": "by its most frequent value (serve: option missing impute; library: Options.Missing = MissingImpute)",
		}},
		{"one-hot note", color, Options{}, want{
			cli:   `column "color": 2 categories one-hot encoded into 2 features (-drop color leaves it out)`,
			job:   `column "color": 2 categories one-hot encoded into 2 features (deleting the column from the file leaves it out)`,
			"lib": `column "color": 2 categories one-hot encoded into 2 features (deleting the column from the file leaves it out)`,
			"web": `column "color": 2 categories one-hot encoded into 2 features (deleting the column from the file leaves it out)`,
		}},
		{"identifier error", names, Options{}, want{
			cli:   "give it as the ID column (tether: -id tag; library: Options.IDColumn), or one-hot encode it anyway (tether: -categorical 2; library: Options.Categorical)",
			job:   "give it as the ID column (library: Options.IDColumn), or one-hot encode it anyway (library: Options.Categorical)",
			"lib": "give it as the ID column (library: Options.IDColumn), or one-hot encode it anyway (library: Options.Categorical)",
			"web": "give it as the ID column (serve: option id tag; library: Options.IDColumn), or one-hot encode it anyway (library: Options.Categorical)",
		}},
		{"identifier-like", idLike, Options{}, want{
			cli:   "not a feature; -drop tag leaves it out, -id tag makes it the names of the rows",
			job:   "not a feature; deleting the column from the file leaves it out",
			"lib": "not a feature; deleting the column from the file leaves it out",
			"web": "not a feature; deleting the column from the file leaves it out, option id tag makes it the names of the rows",
		}},
		{"integer IDs named like an identifier", custIDs, Options{}, want{
			cli:   "name the rows by it (tether: -id customer_id; library: Options.IDColumn) or leave it out (tether: -drop customer_id; library: Options.Drop)",
			job:   "name the rows by it (library: Options.IDColumn) or leave it out (library: Options.Drop)",
			"lib": "name the rows by it (library: Options.IDColumn) or leave it out (library: Options.Drop)",
			"web": "name the rows by it (serve: option id customer_id; library: Options.IDColumn) or leave it out (library: Options.Drop)",
		}},
		{"headerless class column", iris, Options{}, want{
			cli:   `column 3 (the last) of a file without a header holds text in 2 categories over 4 rows, as a class column does: it is one-hot encoded into 2 features, which hand the classes to the clustering if it holds them (tether: -label last reads it as the reference labels; library: Options.LabelColumn "last"); -drop 3 leaves it out`,
			job:   `which hand the classes to the clustering if it holds them (job: "label": "last" reads it as the reference labels; library: Options.LabelColumn "last"); deleting the column from the file leaves it out`,
			"lib": `which hand the classes to the clustering if it holds them (library: Options.LabelColumn "last" reads it as the reference labels); deleting the column from the file leaves it out`,
			"web": `which hand the classes to the clustering if it holds them (serve: option label last reads it as the reference labels; library: Options.LabelColumn "last"); deleting the column from the file leaves it out`,
		}},
		{"mixed column", mixed, Options{}, want{
			cli:   "or one-hot encode the column (tether: -categorical 2; library: Options.Categorical)",
			job:   "or one-hot encode the column (library: Options.Categorical)",
			"lib": "or one-hot encode the column (library: Options.Categorical)",
			"web": "or one-hot encode the column (library: Options.Categorical)",
		}},
	} {
		for front, sp := range map[string]Spelling{cli: cliSpelling, job: jsonSpelling, "web": optionSpelling, "lib": {}} {
			t.Run(c.name+"/"+front, func(t *testing.T) {
				opt := c.opt
				opt.Spelling = sp
				tab, err := Read(context.Background(), strings.NewReader(c.content), "t.csv", opt)
				var msgs []string
				if err != nil {
					msgs = []string{err.Error()}
				} else {
					msgs = slices.Concat(tab.Notes, tab.Warnings)
				}
				if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, c.want[front]) }) {
					t.Errorf("messages %q, want one with %q", msgs, c.want[front])
				}
				if front != cli && slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, "tether: -") || strings.Contains(m, "(-") }) {
					t.Errorf("messages %q name tether's flags", msgs)
				}
			})
		}
	}
}

// cliWords are what only tether's command line has: its flags and
// commands, which the messages to a job or the web app must not name.
var cliWords = []string{"-graph-format", "-symmetrize", "-named-nodes", "-graph-base", "-max-nodes", "-gml-label", "-delim", "-header", "tether cluster", "tether labels", "tether: -", "(-"}

// checkSpelled checks that msgs, the messages a read gave with the
// spelling of front ("cli", "job" or "web"), have one containing want,
// and, but for tether's, none naming what only the command line has
// (cliWords).
func checkSpelled(t *testing.T, front string, msgs []string, want string) {
	t.Helper()
	if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, want) }) {
		t.Errorf("messages %q, want one with %q", msgs, want)
	}
	if front == "cli" {
		return
	}
	for _, m := range msgs {
		for _, w := range cliWords {
			if strings.Contains(m, w) {
				t.Errorf("%q names %q, tether's", m, w)
			}
		}
	}
}

// spellingsByFront are tether's, a job's and the web app's spellings, and
// the library's, the zero value.
var spellingsByFront = map[string]Spelling{"cli": cliSpelling, "job": jsonSpelling, "web": optionSpelling, "lib": {}}

// TestSpelledGraphMessages reads graph files whose warnings and errors
// suggest an option of the graph readers (GraphOptions.Format,
// Symmetrize, NamedNodes, MaxNodes, LabelAttr) or name the outputs that
// name the nodes, with tether's spelling (the wording the command
// line's tests pin: "(GraphOptions.MaxNodes; tether: -max-nodes)"), a
// job's (which has none of these options: the library's, or what to
// change in the file) and the web app's (its upload options symmetrize
// and gml_label, the server's limit, its labels export).
func TestSpelledGraphMessages(t *testing.T) {
	const asEdges = ", or give the file the extension .edges to read it as an edge list)"
	type want map[string]string
	for _, c := range []struct {
		name, file, content string
		opt                 GraphOptions
		want                want
	}{
		{"ambiguous csv", "a.csv", "0,1,1\n1,0,1\n1,1,0\n", GraphOptions{}, want{
			"cli": "read as a matrix (to choose, set GraphOptions.Format; tether: -graph-format edgelist or dense)",
			"job": "read as a matrix (to choose, set GraphOptions.Format" + asEdges,
			"lib": "read as a matrix (to choose, set GraphOptions.Format" + asEdges,
			"web": "read as a matrix (to choose, set GraphOptions.Format" + asEdges,
		}},
		{"not square", "s.csv", "0,1,2\n1,0,1\n", GraphOptions{Format: DenseCSV}, want{
			"cli": "an affinity matrix must be square (if the file is an edge list, set GraphOptions.Format; tether: -graph-format edgelist)",
			"job": "an affinity matrix must be square (if the file is an edge list, set GraphOptions.Format" + asEdges,
			"lib": "an affinity matrix must be square (if the file is an edge list, set GraphOptions.Format" + asEdges,
			"web": "an affinity matrix must be square (if the file is an edge list, set GraphOptions.Format" + asEdges,
		}},
		{"not symmetric", "n.csv", "0,1,1\n1,0,1\n2,1,0\n", GraphOptions{Format: DenseCSV}, want{
			"cli": "(to use (A+Aᵀ)/2, set GraphOptions.Symmetrize; tether: -symmetrize)",
			"job": "(to use (A+Aᵀ)/2, set GraphOptions.Symmetrize)",
			"lib": "(to use (A+Aᵀ)/2, set GraphOptions.Symmetrize)",
			"web": "(to use (A+Aᵀ)/2, set GraphOptions.Symmetrize; serve: option symmetrize true)",
		}},
		{"numbers and names", "m.edges", "a b\nb 2\n", GraphOptions{}, want{
			"cli": "mix of integer node numbers and names (to read every node as a name, set GraphOptions.NamedNodes; tether: -named-nodes)",
			"job": "mix of integer node numbers and names (to read every node as a name, set GraphOptions.NamedNodes, or write the nodes all as numbers or all as names in the file)",
			"lib": "mix of integer node numbers and names (to read every node as a name, set GraphOptions.NamedNodes, or write the nodes all as numbers or all as names in the file)",
			"web": "mix of integer node numbers and names (to read every node as a name, set GraphOptions.NamedNodes, or write the nodes all as numbers or all as names in the file)",
		}},
		{"node IDs read as numbers", "s.edges", "0 1\n1 5000\n", GraphOptions{}, want{
			"cli": "read them as names, the 3 nodes numbered in order of first appearance (set GraphOptions.NamedNodes; tether: -named-nodes)",
			"job": "read them as names, the 3 nodes numbered in order of first appearance (set GraphOptions.NamedNodes, or write them in the file as names that are not integers, such as n5000)",
			"lib": "read them as names, the 3 nodes numbered in order of first appearance (set GraphOptions.NamedNodes, or write them in the file as names that are not integers, such as n5000)",
			"web": "read them as names, the 3 nodes numbered in order of first appearance (set GraphOptions.NamedNodes, or write them in the file as names that are not integers, such as n5000)",
		}},
		{"edge list beyond MaxNodes", "b.edges", "0 1\n1 300\n", GraphOptions{MaxNodes: 100}, want{
			"cli": "node number ≥ 100 nodes (GraphOptions.MaxNodes; tether: -max-nodes)",
			"job": "node number ≥ 100 nodes (GraphOptions.MaxNodes)",
			"lib": "node number ≥ 100 nodes (GraphOptions.MaxNodes)",
			"web": "node number ≥ 100 nodes (GraphOptions.MaxNodes; serve: this server's limit)",
		}},
		{"Matrix Market beyond MaxNodes", "b.mtx", "%%MatrixMarket matrix coordinate real general\n300 300 1\n1 2 1\n", GraphOptions{MaxNodes: 100}, want{
			"cli": "300 nodes exceed GraphOptions.MaxNodes = 100 (tether: -max-nodes)",
			"job": "300 nodes exceed GraphOptions.MaxNodes = 100",
			"lib": "300 nodes exceed GraphOptions.MaxNodes = 100",
			"web": "300 nodes exceed GraphOptions.MaxNodes = 100 (serve: this server's limit)",
		}},
		{"dense beyond MaxNodes", "b.csv", "0,1,1\n1,0,1\n1,1,0\n", GraphOptions{MaxNodes: 2, Format: DenseCSV}, want{
			"cli": "3 nodes exceed GraphOptions.MaxNodes = 2 (tether: -max-nodes)",
			"job": "3 nodes exceed GraphOptions.MaxNodes = 2",
			"lib": "3 nodes exceed GraphOptions.MaxNodes = 2",
			"web": "3 nodes exceed GraphOptions.MaxNodes = 2 (serve: this server's limit)",
		}},
		{"GML beyond MaxNodes", "b.gml", "graph [ node [ id 0 ] node [ id 1 ] node [ id 2 ] edge [ source 0 target 1 ] ]", GraphOptions{MaxNodes: 2}, want{
			"cli": "more than 2 nodes (GraphOptions.MaxNodes; tether: -max-nodes)",
			"job": "more than 2 nodes (GraphOptions.MaxNodes)",
			"lib": "more than 2 nodes (GraphOptions.MaxNodes)",
			"web": "more than 2 nodes (GraphOptions.MaxNodes; serve: this server's limit)",
		}},
		{"GML label attribute", "g.gml", `graph [ node [ id 0 label "a" ] node [ id 1 label "b" ] edge [ source 0 target 1 ] ]`, GraphOptions{LabelAttr: "club"}, want{
			"cli": `node 0 has no attribute "club" (GraphOptions.LabelAttr; tether: -gml-label); the nodes' attributes besides id are "label"`,
			"job": `node 0 has no attribute "club" (GraphOptions.LabelAttr); the nodes' attributes besides id are "label"`,
			"lib": `node 0 has no attribute "club" (GraphOptions.LabelAttr); the nodes' attributes besides id are "label"`,
			"web": `node 0 has no attribute "club" (GraphOptions.LabelAttr; serve: option gml_label); the nodes' attributes besides id are "label"`,
		}},
		// The rule for repeated edges: the front end's, which none lets
		// its users change, and the library's option.
		{"repeated edges", "r.edges", "0 1 1\n1 2 1\n0 1 2\n", GraphOptions{}, want{
			"cli": "(tether always keeps the largest; library: GraphOptions.Duplicates, DupSum adds the weights, DupError refuses the file)",
			"job": "(job always keeps the largest; library: GraphOptions.Duplicates, DupSum adds the weights, DupError refuses the file)",
			"web": "(serve always keeps the largest; library: GraphOptions.Duplicates, DupSum adds the weights, DupError refuses the file)",
			"lib": "each is merged into one edge with the largest weight (library: GraphOptions.Duplicates, DupSum adds the weights, DupError refuses the file)",
		}},
		{"GML labels that cannot name the nodes", "g.gml", "graph [\nnode [ id 0 label \"a\" ]\nnode [ id 1 label \"a\" ]\nnode [ id 2 label \"b\" ]\nedge [ source 0 target 1 ]\n]", GraphOptions{}, want{
			"cli": `the label "a" on line 3 repeats line 2, so the labels files written for them (tether cluster -o, tether labels) number the nodes instead of naming them (make the labels distinct and non-empty to name them)`,
			"job": `the label "a" on line 3 repeats line 2, so the nodes are numbered instead of named (make the labels distinct and non-empty to name them)`,
			"lib": `the label "a" on line 3 repeats line 2, so the nodes are numbered instead of named (make the labels distinct and non-empty to name them)`,
			"web": `the label "a" on line 3 repeats line 2, so the labels export numbers the nodes instead of naming them (make the labels distinct and non-empty to name them)`,
		}},
	} {
		for front, sp := range spellingsByFront {
			t.Run(c.name+"/"+front, func(t *testing.T) {
				opt := c.opt
				opt.Spelling = sp
				d, err := ReadGraph(context.Background(), strings.NewReader(c.content), c.file, opt.Format, opt)
				msgs := []string{}
				if err != nil {
					msgs = append(msgs, err.Error())
				} else {
					msgs = append(msgs, d.Warnings...)
				}
				checkSpelled(t, front, msgs, c.want[front])
			})
		}
	}
}

// TestSpelledDelimiterMessages reads tables with a delimiter or header
// option that does not apply or looks wrong, and an ID column whose IDs
// cannot name the rows: tether's wording is the one the command line's
// tests pin ("(tether: -delim)", "or give -delim ,"); the web app names
// its options delim and header and its labels export; a job, which has
// none of them, the library's options.
func TestSpelledDelimiterMessages(t *testing.T) {
	const arff = "@relation r\n@attribute x numeric\n@data\n1\n"
	type want map[string]string
	for _, c := range []struct {
		name, file, content string
		opt                 Options
		want                want
	}{
		{"ARFF delimiter", "r.arff", arff, Options{Delimiter: ";"}, want{
			"cli": "whose @data fields are separated by commas (tether: -delim)",
			"job": "whose @data fields are separated by commas",
			"lib": "whose @data fields are separated by commas",
			"web": "whose @data fields are separated by commas (serve: option delim)",
		}},
		{"ARFF header", "r.arff", arff, Options{Header: HeaderNo}, want{
			"cli": "whose columns are named by its @attribute lines (tether: -header)",
			"job": "whose columns are named by its @attribute lines",
			"lib": "whose columns are named by its @attribute lines",
			"web": "whose columns are named by its @attribute lines (serve: option header)",
		}},
		{"unsupported delimiter", "t.csv", "a,b\n1,2\n", Options{Delimiter: "ab"}, want{
			"cli": `unsupported delimiter "ab" (Options.Delimiter; tether: -delim): want`,
			"job": `unsupported delimiter "ab" (Options.Delimiter): want`,
			"lib": `unsupported delimiter "ab" (Options.Delimiter): want`,
			"web": `unsupported delimiter "ab" (Options.Delimiter; serve: option delim): want`,
		}},
		{"wrong delimiter", "t.csv", "a,b\n1,2\n3,4\n", Options{Delimiter: ";"}, want{
			"cli": `every line is one field when split at semicolons (Options.Delimiter ";"; tether: -delim), while the lines hold commas: the delimiter looks wrong; leave it out to detect it, or give -delim ,`,
			"job": `every line is one field when split at semicolons (Options.Delimiter ";"), while the lines hold commas: the delimiter looks wrong; leave it out to detect it, or give Options.Delimiter ","`,
			"lib": `every line is one field when split at semicolons (Options.Delimiter ";"), while the lines hold commas: the delimiter looks wrong; leave it out to detect it, or give Options.Delimiter ","`,
			"web": `every line is one field when split at semicolons (Options.Delimiter ";"; serve: option delim), while the lines hold commas: the delimiter looks wrong; leave it out to detect it, or give option delim ,`,
		}},
		{"wrong delimiter on tabs", "t.tsv", "a\tb\n1\t2\n3\t4\n", Options{Delimiter: ","}, want{
			"cli": "or give -delim tab",
			"job": `or give Options.Delimiter "tab"`,
			"lib": `or give Options.Delimiter "tab"`,
			"web": "or give option delim tab",
		}},
		{"IDs that cannot name the rows", "t.csv", "id,x\na,1\na,2\nb,3\n", Options{IDColumn: "id"}, want{
			"cli": `the ID "a" on line 3 repeats line 2, so the labels files written for them (tether cluster -o, tether labels) number the rows instead of naming them`,
			"job": `the ID "a" on line 3 repeats line 2, so the rows are numbered instead of named`,
			"lib": `the ID "a" on line 3 repeats line 2, so the rows are numbered instead of named`,
			"web": `the ID "a" on line 3 repeats line 2, so the labels export numbers the rows instead of naming them`,
		}},
	} {
		for front, sp := range spellingsByFront {
			t.Run(c.name+"/"+front, func(t *testing.T) {
				opt := c.opt
				opt.Spelling = sp
				tab, err := Read(context.Background(), strings.NewReader(c.content), c.file, opt)
				msgs := []string{}
				if err != nil {
					msgs = append(msgs, err.Error())
				} else {
					msgs = slices.Concat(tab.Notes, tab.Warnings)
				}
				checkSpelled(t, front, msgs, c.want[front])
			})
		}
	}
}

// TestSpelledNodeLabelsHint reads a feature table as a labels file: the
// error names tether labels, which writes the class column as one, on
// the command line, and what the file should hold elsewhere.
func TestSpelledNodeLabelsHint(t *testing.T) {
	want := map[string]string{
		"cli": "(a feature table with a class column? tether labels -input f -o FILE writes that column as a labels file)",
		"job": "(a feature table with a class column? a labels file holds that column alone, one label per line)",
		"lib": "(a feature table with a class column? a labels file holds that column alone, one label per line)",
		"web": "(a feature table with a class column? a labels file holds that column alone, one label per line)",
	}
	for front, sp := range spellingsByFront {
		_, err := ReadNodeLabels(strings.NewReader("x1,x2,label\n0.5,1,0\n"), "f", NodeLabelOptions{Spelling: sp})
		if err == nil {
			t.Fatalf("%s: no error", front)
		}
		checkSpelled(t, front, []string{err.Error()}, want[front])
	}
	// A constraints file read as labels names the front end's option for
	// it (review 95), or the library's reader.
	want = map[string]string{
		"cli": "this is a pairwise constraints file, i,j,ml|cl lines (give the file as -constraints)",
		"job": `this is a pairwise constraints file, i,j,ml|cl lines (give the file as "constraints")`,
		"lib": "this is a pairwise constraints file, i,j,ml|cl lines (constraint.ReadFile reads them)",
		"web": "this is a pairwise constraints file, i,j,ml|cl lines (constraint.ReadFile reads them)",
	}
	for front, sp := range spellingsByFront {
		_, err := ReadNodeLabels(strings.NewReader("0,1,ml\n1,2,cl\n"), "f", NodeLabelOptions{Spelling: sp})
		if err == nil {
			t.Fatalf("%s: no error", front)
		}
		checkSpelled(t, front, []string{err.Error()}, want[front])
	}
}
