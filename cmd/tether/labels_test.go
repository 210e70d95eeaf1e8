package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// jsonFigure returns the named figure of an eval -json report.
func jsonFigure(t *testing.T, out, name string) float64 {
	t.Helper()
	var rep struct {
		Figures []struct {
			Name  string  `json:"name"`
			Value float64 `json:"value"`
		} `json:"figures"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("eval -json: %v\n%s", err, out)
	}
	for _, f := range rep.Figures {
		if f.Name == name {
			return f.Value
		}
	}
	t.Fatalf("eval -json has no %s:\n%s", name, out)
	return 0
}

// clusterSummaryJSON reads the JSON summary cluster -json wrote to out.
func clusterSummaryJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	var s map[string]any
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("cluster -json: %v\n%s", err, out)
	}
	return s
}

// TestLabelConventionSameEverywhere reads the same reference files (class
// names, -1, ? and empty fields for unknown classes, one- and two-column
// layouts) with constraints gen, eval and cluster -truth, and checks that
// cluster and eval print the same ARI: unknown nodes are skipped by both.
func TestLabelConventionSameEverywhere(t *testing.T) {
	dir := t.TempDir()
	const n = 60
	// Blobs of 20 points: the generator's classes are 0, 1, 2 in blocks.
	var names, withUnknown, pairs strings.Builder
	pairs.WriteString("node,label\n")
	for i := 0; i < n; i++ {
		class := []string{"apple", "banana", "cherry"}[i*3/n]
		fmt.Fprintln(&names, class)
		switch {
		case i%7 == 0:
			fmt.Fprintln(&withUnknown, "-1")
		case i%7 == 1:
			fmt.Fprintln(&withUnknown, "?")
		case i%11 == 2:
			fmt.Fprintln(&withUnknown, "")
		default:
			fmt.Fprintln(&withUnknown, class)
		}
		if i%5 != 0 { // nodes left out: unknown
			fmt.Fprintf(&pairs, "%d,%s\n", i, class)
		}
	}
	full := evalWriteTemp(t, dir, "names.txt", names.String())
	files := map[string]string{
		"class names":    full,
		"unknown marks":  evalWriteTemp(t, dir, "unknown.txt", withUnknown.String()),
		"node,label":     evalWriteTemp(t, dir, "pairs.csv", pairs.String()),
		"integer labels": evalWriteTemp(t, dir, "ints.txt", strings.NewReplacer("apple", "0", "banana", "1", "cherry", "2").Replace(withUnknown.String())),
	}
	// constraints gen accepts class names.
	if _, _, err := run(t, "constraints", "gen", "-truth", full, "-protocol", "labels-frac", "-rate", "0.2", "-o", filepath.Join(dir, "partial.csv")); err != nil {
		t.Fatalf("constraints gen: %v", err)
	}
	for name, truth := range files {
		t.Run(name, func(t *testing.T) {
			pred := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".pred")
			out, _, err := run(t, "cluster", "-gen", "blobs", "-n", fmt.Sprint(n), "-noise", "3", "-k", "3", "-quiet",
				"-truth", truth, "-partial-labels", filepath.Join(dir, "partial.csv"), "-method", "fgpwc", "-o", pred, "-json")
			if err != nil {
				t.Fatalf("cluster: %v", err)
			}
			sum := clusterSummaryJSON(t, out)
			figs, _ := sum["figures"].(map[string]any)
			ari, ok := figs["ARI"].(float64)
			if !ok {
				t.Fatalf("cluster -json has no ARI: %s", out)
			}
			evalOut, _, err := run(t, "eval", "-truth", truth, "-pred", pred, "-json")
			if err != nil {
				t.Fatalf("eval: %v", err)
			}
			if got := jsonFigure(t, evalOut, "ari"); got != ari {
				t.Errorf("eval ARI %v, cluster ARI %v", got, ari)
			}
		})
	}
}

// TestLabelFileErrorsNameFileAndLine checks that a bad partial-labels or
// reference file is refused by every command with its name and line.
func TestLabelFileErrorsNameFileAndLine(t *testing.T) {
	dir := t.TempDir()
	bad := evalWriteTemp(t, dir, "bad.txt", "0\n1\n-3\n")
	badPairs := evalWriteTemp(t, dir, "badpairs.csv", "node,label\n0,1\n9,0\n")
	dup := evalWriteTemp(t, dir, "dup.csv", "node,label\n0,1\n0,0\n")
	names := evalWriteTemp(t, dir, "names.csv", "name,label\nalice,1\nbob,0\n")
	good := evalWriteTemp(t, dir, "good.txt", "0\n1\n1\n")
	gen := []string{"cluster", "-gen", "sbm", "-n", "8", "-cin", "4", "-cout", "1", "-k", "2", "-quiet", "-o", filepath.Join(dir, "out.csv")}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"partial below -1", append(gen[:len(gen):len(gen)], "-partial-labels", bad), "bad.txt:3"},
		{"partial node outside", append(gen[:len(gen):len(gen)], "-partial-labels", badPairs), "badpairs.csv:3"},
		{"partial duplicate", append(gen[:len(gen):len(gen)], "-partial-labels", dup), "dup.csv:3"},
		{"truth names without data names", append(gen[:len(gen):len(gen)], "-truth", names), "names.csv:2"},
		{"truth below -1", append(gen[:len(gen):len(gen)], "-truth", bad), "bad.txt:3"},
		{"eval truth", []string{"eval", "-truth", bad, "-pred", good}, "bad.txt:3"},
		{"eval names vs index", []string{"eval", "-truth", names, "-pred", good}, "names.csv names its nodes"},
		{"constraints gen", []string{"constraints", "gen", "-truth", bad, "-protocol", "pairs-frac"}, "bad.txt:3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := run(t, tc.args...)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

// TestEvalMatchesNodesByName checks that eval maps a prediction keyed by
// node names onto the reference's nodes, whatever their order.
func TestEvalMatchesNodesByName(t *testing.T) {
	dir := t.TempDir()
	truth := evalWriteTemp(t, dir, "t.csv", "name,club\nann,A\nbob,A\ncid,B\ndan,B\n")
	pred := evalWriteTemp(t, dir, "p.csv", "name,cluster\ndan,0\nann,1\ncid,0\nbob,1\n")
	out, _, err := run(t, "eval", "-truth", truth, "-pred", pred, "-json")
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonFigure(t, out, "ari"); got != 1 {
		t.Errorf("ARI %v, want 1", got)
	}
	missing := evalWriteTemp(t, dir, "m.csv", "name,cluster\ndan,0\nann,1\neve,0\nbob,1\n")
	if _, _, err := run(t, "eval", "-truth", truth, "-pred", missing); err == nil || !strings.Contains(err.Error(), "m.csv:4") {
		t.Errorf("unknown name: error %v, want m.csv:4", err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestClusterLabelsFileKeysNodes checks that cluster -o writes node,cluster
// lines, by name when the input has names, and that eval and cluster
// -partial-labels read them back.
func TestClusterLabelsFileKeysNodes(t *testing.T) {
	dir := t.TempDir()
	var csv strings.Builder
	csv.WriteString("id,x,y\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&csv, "p%02d,%d,%d\n", i, (i/10)*10+i%3, i%2)
	}
	data := evalWriteTemp(t, dir, "data.csv", csv.String())
	pred := filepath.Join(dir, "pred.csv")
	if _, _, err := run(t, "cluster", "-input", data, "-id", "id", "-k", "3", "-knn", "5", "-quiet", "-o", pred); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, pred)
	if !strings.HasPrefix(got, "name,cluster\np00,") || strings.Count(got, "\n") != 31 {
		t.Fatalf("labels file:\n%s", got)
	}
	// Read back by name, as partial labels and as a reference.
	out, _, err := run(t, "cluster", "-input", data, "-id", "id", "-k", "3", "-knn", "5", "-quiet", "-o", filepath.Join(dir, "p2.csv"),
		"-partial-labels", pred, "-truth", pred, "-method", "fgpwc", "-json")
	if err != nil {
		t.Fatal(err)
	}
	if ari := clusterSummaryJSON(t, out)["figures"].(map[string]any)["ARI"]; ari == nil {
		t.Errorf("no ARI against the names file: %s", out)
	}
	if _, _, err := run(t, "eval", "-truth", pred, "-pred", filepath.Join(dir, "p2.csv")); err != nil {
		t.Errorf("eval of two names files: %v", err)
	}
}

// TestClusterJSONOneDocument checks that cluster -json with -o - (or no
// -o) writes one JSON document, labels included, to stdout, and nothing
// but messages to stderr.
func TestClusterJSONOneDocument(t *testing.T) {
	for _, args := range [][]string{{}, {"-o", "-"}} {
		out, errOut, err := run(t, append([]string{"cluster", "-gen", "blobs", "-n", "90", "-k", "3", "-json"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(strings.NewReader(out))
		var s struct {
			N      int            `json:"n"`
			Labels []int          `json:"labels"`
			Fig    map[string]any `json:"figures"`
		}
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("stdout is not JSON: %v\n%s", err, out)
		}
		if dec.More() {
			t.Errorf("more than one JSON document on stdout")
		}
		if s.N != 90 || len(s.Labels) != 90 || s.Fig["ARI"] == nil {
			t.Errorf("document: n %d, %d labels, figures %v", s.N, len(s.Labels), s.Fig)
		}
		if strings.Contains(errOut, "{") {
			t.Errorf("JSON on stderr: %q", errOut)
		}
	}
	// With -o FILE the labels stay out of the document.
	dir := t.TempDir()
	out, _, err := run(t, "cluster", "-gen", "blobs", "-n", "90", "-k", "3", "-json", "-quiet", "-o", filepath.Join(dir, "l.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, `"labels"`) {
		t.Errorf("labels in the document although -o is a file")
	}
}

// TestLabelsCommand checks that tether labels writes the class column of a
// CSV or ARFF file and a GML node attribute in the form every reader
// takes, and refuses inputs without labels with a clear error.
func TestLabelsCommand(t *testing.T) {
	dir := t.TempDir()
	csvFile := evalWriteTemp(t, dir, "d.csv", "x,y,species\n1,2,b\n1,3,a\n5,5,b\n")
	// Column "code" mixes numbers and text: the reader's error asks for
	// -categorical 2, which labels takes as cluster does.
	codes := evalWriteTemp(t, dir, "codes.csv", "x,code,species\n1,2,b\n1,q,a\n5,5,b\n")
	named := evalWriteTemp(t, dir, "n.csv", "who,x,label\nann,2,b\nbob,3,a\ncid,5,b\n")
	headerOnly := evalWriteTemp(t, dir, "h.csv", "x,y,label\n")
	labelsOnly := evalWriteTemp(t, dir, "lo.csv", "label\na\nb\na\n")
	oneRow := evalWriteTemp(t, dir, "one.csv", "1.0,2.0,3\n")
	oneLeft := evalWriteTemp(t, dir, "left.csv", "1,2,a\n?,3,b\n")
	wordsAndLabel := evalWriteTemp(t, dir, "words.csv", "red,big,1\n")
	idLine := evalWriteTemp(t, dir, "idline.csv", "n1,red,2\n")
	arff := evalWriteTemp(t, dir, "d.arff", "@relation r\n@attribute x numeric\n@attribute c {no,yes}\n@data\n1,yes\n2,no\n")
	gml := evalWriteTemp(t, dir, "g.gml", `graph [
  node [ id 1 label "ann" club "A" ]
  node [ id 2 label "bob" club "B" ]
  node [ id 3 label "cid" club "A" ]
  edge [ source 1 target 2 ]
  edge [ source 2 target 3 ]
]
`)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"csv", []string{"-input", csvFile, "-label", "species"}, "node,label\n0,b\n1,a\n2,b\n"},
		{"csv last", []string{"-input", csvFile, "-label", "last"}, "node,label\n0,b\n1,a\n2,b\n"},
		{"arff", []string{"-input", arff}, "node,label\n0,yes\n1,no\n"},
		{"categorical", []string{"-input", codes, "-label", "species", "-categorical", "code"}, "node,label\n0,b\n1,a\n2,b\n"},
		{"categorical by number", []string{"-input", codes, "-label", "species", "-categorical", "2"}, "node,label\n0,b\n1,a\n2,b\n"},
		{"gml", []string{"-graph-file", gml, "-gml-label", "club"}, "name,label\nann,A\nbob,B\ncid,A\n"},
		// The rules of cluster: a class-named column without -label, a
		// column of names as the rows' names (labels refused both).
		{"class-named column", []string{"-input", named}, "name,label\nann,b\nbob,a\ncid,b\n"},
		// One line that holds a number is no header, and one row left
		// by -missing drop is not a file of one line (review 112: both
		// were refused as a header alone).
		{"one line of numbers", []string{"-input", oneRow, "-label", "3"}, "node,label\n0,3\n"},
		// Numbers as categories, in the label or beside an id column
		// (review 113: refused as "one line of words").
		{"one line of numbers, categorical", []string{"-input", oneRow, "-label", "3", "-categorical", "1,2"}, "node,label\n0,3\n"},
		{"one line, a numeric label", []string{"-input", wordsAndLabel, "-label", "3"}, "node,label\n0,1\n"},
		{"one line, an id", []string{"-input", idLine, "-label", "3", "-id", "1"}, "name,label\nn1,2\n"},
		{"one row left", []string{"-input", oneLeft, "-label", "3", "-missing", "drop"}, "name,label\n0,a\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := run(t, append([]string{"labels"}, tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			if out != tc.want {
				t.Errorf("wrote %q, want %q", out, tc.want)
			}
		})
	}
	// The written file is a reference for cluster and eval.
	truth := filepath.Join(dir, "truth.csv")
	if _, _, err := run(t, "labels", "-graph-file", gml, "-gml-label", "club", "-o", truth); err != nil {
		t.Fatal(err)
	}
	pred := filepath.Join(dir, "pred.csv")
	if _, _, err := run(t, "cluster", "-graph-file", gml, "-k", "2", "-quiet", "-truth", truth, "-o", pred); err != nil {
		t.Fatalf("cluster -truth: %v", err)
	}
	if _, _, err := run(t, "eval", "-truth", truth, "-pred", pred); err != nil {
		t.Fatalf("eval: %v", err)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"-input", csvFile}, "no label column"},
		{[]string{"-input", codes, "-label", "species"}, "-categorical 2"},
		{[]string{"-input", csvFile, "-label", "colour"}, "colour"},
		{[]string{"-graph-file", gml}, "-gml-label"},
		{[]string{"-graph-file", gml, "-gml-label", "team"}, "team"},
		{[]string{}, "one of -input and -graph-file"},
		// A header alone: "no label column; say which with -label", and
		// with -label 3 the header's word written as node 0's label.
		{[]string{"-input", headerOnly}, "one line of words, read as one data row (-header auto): if that line is a header, the file holds no data"},
		{[]string{"-input", headerOnly, "-label", "3"}, "one line of words, read as one data row"},
		{[]string{"-input", labelsOnly}, "no feature columns left after removing label, ID and dropped columns: a table of its labels alone (with ids or not) is a labels file already"},
		// -drop of the last feature: no labels file (the advice above
		// was given).
		{[]string{"-input", csvFile, "-label", "species", "-drop", "x,y"}, "-drop x,y left no column besides the label and the ids"},
	} {
		if _, _, err := run(t, append([]string{"labels"}, bad.args...)...); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("labels %q: error %v, want one mentioning %q", bad.args, err, bad.want)
		}
	}
}

// TestLabelsClassesReadBack: classes whose text a labels file reads as
// something else (±1: -1 marks a node without a class; 1 and 01 are one
// integer) are written as their numbers, with a warning giving them, so
// that eval and constraints gen see the classes of the data. Written as
// text, eval compared 2 of 4 items ("2 items without a reference label
// left out", ARI 1) and constraints gen refused ("node 0 has no class").
// Classes that read back are written as they are.
func TestLabelsClassesReadBack(t *testing.T) {
	dir := t.TempDir()
	pred := evalWriteTemp(t, dir, "p.txt", "0\n1\n0\n1\n")
	for _, tc := range []struct {
		name, data, want, warning string
	}{
		{"±1", "x,label\n1,-1\n2,1\n3,-1\n4,1\n", "node,label\n0,0\n1,1\n2,0\n3,1\n", `the classes are written as their numbers ("-1" → 0, "1" → 1)`},
		{"1 and 01", "x,label\n1,1\n2,01\n3,1\n4,01\n", "node,label\n0,1\n1,0\n2,1\n3,0\n", `("01" → 0, "1" → 1), not their names: classes "01" and "1" read as one integer label, 1`},
		{"text", "x,label\n1,b\n2,a\n3,b\n4,a\n", "node,label\n0,b\n1,a\n2,b\n3,a\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := evalWriteTemp(t, dir, "d.csv", tc.data)
			out, stderr, err := run(t, "labels", "-input", data, "-quiet")
			if err != nil {
				t.Fatal(err)
			}
			if out != tc.want || !strings.Contains(stderr, tc.warning) || tc.warning == "" && stderr != "" {
				t.Fatalf("wrote %q, stderr %q; want %q and %q", out, stderr, tc.want, tc.warning)
			}
			truth := evalWriteTemp(t, dir, "t.csv", out)
			evalOut, _, err := run(t, "eval", "-truth", truth, "-pred", pred)
			if err != nil || !strings.Contains(evalOut, "4 items, 2 reference clusters") {
				t.Errorf("eval: %v\n%s", err, evalOut)
			}
			if _, _, err := run(t, "constraints", "gen", "-truth", truth, "-protocol", "pairs-frac", "-rate", "1", "-o", filepath.Join(dir, "c.csv")); err != nil {
				t.Errorf("constraints gen: %v", err)
			}
		})
	}
}

// TestRepeatedNamesKeyByIndex checks that an id column with a repeated
// name gives a labels file keyed by index, which reads back.
func TestRepeatedNamesKeyByIndex(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,x\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "n%d,%d\n", i%6, i)
	}
	data := evalWriteTemp(t, dir, "d.csv", b.String())
	pred := filepath.Join(dir, "p.csv")
	if _, _, err := run(t, "cluster", "-input", data, "-id", "id", "-k", "2", "-knn", "3", "-quiet", "-o", pred); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, pred); !strings.HasPrefix(got, "node,cluster\n0,") {
		t.Errorf("labels file:\n%s", got)
	}
	if _, _, err := run(t, "cluster", "-input", data, "-id", "id", "-k", "2", "-knn", "3", "-quiet", "-o", filepath.Join(dir, "p2.csv"), "-truth", pred); err != nil {
		t.Errorf("read back: %v", err)
	}
}

// TestLabelsIDCannotNameRows: tether labels -id COL whose IDs repeat or
// are empty writes the rows by index, as before, but now with a warning
// naming the first such ID and its line (it said nothing, though the help
// promises name,label lines for an -id column); distinct IDs name the rows
// without one.
func TestLabelsIDCannotNameRows(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, in string
		head     string // first line of the output
		warning  string // "" for none
	}{
		{"repeated", "id,a,label\nn1,1,x\nn1,2,y\nn3,3,x\n", "node,label", `column "id" cannot name the rows: the ID "n1" on line 3 repeats line 2, so the labels files written for them (tether cluster -o, tether labels) number the rows`},
		{"repeated after trimming", "id,a,label\nn1,1,x\nn2,2,y\n n1 ,3,x\n", "node,label", `the ID "n1" on line 4 repeats line 2`},
		{"empty", "id,a,label\nn1,1,x\n,2,y\nn3,3,x\n", "node,label", `column "id" cannot name the rows: the ID on line 3 is empty`},
		{"distinct", "id,a,label\nn1,1,x\nn2,2,y\nn3,3,x\n", "name,label", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := evalWriteTemp(t, dir, c.name+".csv", c.in)
			out, errOut, err := run(t, "labels", "-input", data, "-id", "id")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(out, c.head+"\n") {
				t.Errorf("output:\n%s\nwant it to begin with %s", out, c.head)
			}
			warned := strings.Contains(errOut, "tether labels: warning: ")
			if c.warning == "" && warned || c.warning != "" && !strings.Contains(errOut, "tether labels: warning: "+data+": ") {
				t.Errorf("stderr:\n%s\nwant a warning: %v", errOut, c.warning != "")
			}
			if c.warning != "" && !strings.Contains(errOut, c.warning) {
				t.Errorf("stderr:\n%s\nlacks %q", errOut, c.warning)
			}
		})
	}
}

// TestLabelsGraphFileWarnings: tether labels -graph-file prints the graph
// reader's warnings as "tether labels: warning: …", as tether cluster does
// (it printed none): repeated edges merged, and GML node labels that cannot
// name the nodes, which are then written by index; a clean file draws none.
func TestLabelsGraphFileWarnings(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, in string
		out      string
		warnings []string // each on a "tether labels: warning: " line
	}{
		{"repeated edge", "graph [\n node [ id 1 label \"ann\" club \"A\" ]\n node [ id 2 label \"bob\" club \"B\" ]\n edge [ source 1 target 2 ]\n edge [ source 2 target 1 ]\n]\n",
			"name,label\nann,A\nbob,B\n", []string{"1 edge repeats an earlier edge between the same nodes"}},
		{"repeated labels", "graph [\n node [ id 1 label \"ann\" club \"A\" ]\n node [ id 2 label \"ann\" club \"B\" ]\n edge [ source 1 target 2 ]\n]\n",
			"node,label\n0,A\n1,B\n", []string{`cannot name the nodes: the label "ann" on line 3 repeats line 2, so the labels files written for them (tether cluster -o, tether labels) number the nodes`}},
		{"clean", "graph [\n node [ id 1 label \"ann\" club \"A\" ]\n node [ id 2 label \"bob\" club \"B\" ]\n edge [ source 1 target 2 ]\n]\n",
			"name,label\nann,A\nbob,B\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			gml := evalWriteTemp(t, dir, strings.ReplaceAll(c.name, " ", "-")+".gml", c.in)
			out, errOut, err := run(t, "labels", "-graph-file", gml, "-gml-label", "club")
			if err != nil {
				t.Fatal(err)
			}
			if out != c.out {
				t.Errorf("wrote %q, want %q", out, c.out)
			}
			if got := strings.Count(errOut, "tether labels: warning: "); got != len(c.warnings) {
				t.Errorf("stderr:\n%s\nwant %d warnings", errOut, len(c.warnings))
			}
			for _, w := range c.warnings {
				if !strings.Contains(errOut, "tether labels: warning: "+gml+":") || !strings.Contains(errOut, w) {
					t.Errorf("stderr:\n%s\nlacks the warning %q", errOut, w)
				}
			}
		})
	}
}

// TestPartialLabelsMoreClassesThanK checks that partial labels with more
// classes than -k are refused naming the file and the node.
func TestPartialLabelsMoreClassesThanK(t *testing.T) {
	dir := t.TempDir()
	names := evalWriteTemp(t, dir, "three.csv", "node,label\n0,a\n1,b\n2,c\n")
	// Integer labels beyond 0…k−1 are read as classes, of which there
	// may be k (1, 2 for -k 2: no error; TestClusterWineClassCodes).
	ints := evalWriteTemp(t, dir, "onebased.csv", "node,label\n0,1\n1,2\n2,3\n")
	args := []string{"cluster", "-gen", "sbm", "-n", "8", "-cin", "4", "-cout", "1", "-k", "2", "-quiet", "-method", "fgpwc", "-o", filepath.Join(dir, "o.csv"), "-partial-labels"}
	for file, want := range map[string]string{names: `three.csv: 3 classes (a, b, c) for -k 2: node 2 has class "c"`, ints: "onebased.csv: 3 classes (1, 2, 3) for -k 2: node 2 has label 3; want at most 2 distinct labels"} {
		if _, _, err := run(t, append(args, file)...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}

// TestEvalNamedAgainstNumbered: eval of one file that names its nodes
// against one that numbers them. Without a way to know the data's order it
// is an error saying what to do; through the names of a -graph that names
// its nodes, or with -match order, it is joined. The expected ARIs are by
// hand: the reference 0,0,1,1 against the prediction mapped by name
// (a,b → 1, c,d → 0) is one partition, ARI 1; read in line order (c, a,
// d, b: 0,1,0,1) every cell of the 2×2 table holds one node, so
// Σ C(n_ij,2) = 0, expected index 2·2/C(4,2) = 2/3, maximum 2, and ARI =
// (0 − 2/3)/(2 − 2/3) = −0.5.
func TestEvalNamedAgainstNumbered(t *testing.T) {
	dir := t.TempDir()
	gml := evalWriteTemp(t, dir, "g.gml", `graph [
  node [ id 0 label "a" ] node [ id 1 label "b" ] node [ id 2 label "c" ] node [ id 3 label "d" ]
  edge [ source 0 target 1 ] edge [ source 2 target 3 ] edge [ source 1 target 2 weight 0.1 ]
]`)
	truth := evalWriteTemp(t, dir, "t.txt", "0\n0\n1\n1\n")
	pred := evalWriteTemp(t, dir, "p.csv", "name,cluster\nc,0\na,1\nd,0\nb,1\n")
	edges := evalWriteTemp(t, dir, "g.txt", "0 1 1\n2 3 1\n1 2 0.1\n")
	for _, tc := range []struct {
		name string
		args []string
		ari  float64
		err  string
	}{
		{"no way to match", []string{"-truth", truth, "-pred", pred}, 0,
			"eval: " + pred + " names its nodes but " + truth + " numbers them, and only the data knows which name has which number: add -match order if " + pred + " lists every node in the data's order (tether cluster -o and tether labels write them so), or -graph with the data's graph if it names its nodes (GML, an edge list of names); or write both files by name or both by index"},
		{"graph without names", []string{"-truth", truth, "-pred", pred, "-graph", edges}, 0,
			"or a graph that names its nodes as -graph (" + edges + " does not)"},
		{"through the graph's names", []string{"-truth", truth, "-pred", pred, "-graph", gml}, 1, ""},
		{"the other way round", []string{"-truth", pred, "-pred", truth, "-graph", gml}, 1, ""},
		{"line order", []string{"-truth", truth, "-pred", pred, "-match", "order"}, -0.5, ""},
		// Two named files in line order: names ignored.
		{"line order, two named files", []string{"-truth", evalWriteTemp(t, dir, "t.csv", "name,club\na,x\nb,x\nc,y\nd,y\n"), "-pred", pred, "-match", "order"}, -0.5, ""},
		{"bad -match", []string{"-truth", truth, "-pred", pred, "-match", "rows"}, 0, `invalid value "rows" for flag -match: "rows", want name or order`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runEvalCLI(t, append(tc.args, "-json")...)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonFigure(t, out, "ari"); math.Abs(got-tc.ari) > 1e-12 {
				t.Errorf("ARI %v, want %v", got, tc.ari)
			}
		})
	}
}

// TestEvalClusterOutputOfNamedData: tether cluster -o writes name,cluster
// lines for a table with an id column; eval reads them against a
// reference by index with -match order, and against the reference that
// tether labels writes by name without it. The table's three blobs are
// separated, so both give ARI 1; the error without -match names the way.
func TestEvalClusterOutputOfNamedData(t *testing.T) {
	dir := t.TempDir()
	var table, idx strings.Builder
	table.WriteString("id,x,y,class\n")
	for i := 0; i < 30; i++ {
		c := i % 3
		fmt.Fprintf(&table, "r%02d,%.2f,%.2f,%d\n", i, float64(10*c)+0.1*float64(i%7), float64(-10*c)+0.13*float64(i%5), c)
		fmt.Fprintf(&idx, "%d\n", c)
	}
	data := evalWriteTemp(t, dir, "named.csv", table.String())
	truthIdx := evalWriteTemp(t, dir, "idx.truth", idx.String())
	pred, truthNamed := filepath.Join(dir, "named.pred"), filepath.Join(dir, "named.truth")
	if _, stderr, err := run(t, "cluster", "-input", data, "-id", "id", "-label", "class", "-k", "3", "-quiet", "-o", pred); err != nil {
		t.Fatalf("cluster: %v\n%s", err, stderr)
	}
	if got := readFile(t, pred); !strings.HasPrefix(got, "name,cluster\nr00,") {
		t.Fatalf("cluster -o of named data:\n%s", got)
	}
	if _, stderr, err := run(t, "labels", "-input", data, "-id", "id", "-label", "class", "-o", truthNamed); err != nil {
		t.Fatalf("labels: %v\n%s", err, stderr)
	}
	if _, _, err := runEvalCLI(t, "-truth", truthIdx, "-pred", pred); err == nil || !strings.Contains(err.Error(), "add -match order if "+pred+" lists every node") {
		t.Errorf("error %v, want the -match order hint", err)
	}
	for _, args := range [][]string{{"-truth", truthIdx, "-pred", pred, "-match", "order"}, {"-truth", truthNamed, "-pred", pred}} {
		out, stderr, err := runEvalCLI(t, append(args, "-json")...)
		if err != nil {
			t.Fatalf("eval %q: %v\n%s", args, err, stderr)
		}
		if got := jsonFigure(t, out, "ari"); got != 1 {
			t.Errorf("eval %q: ARI %v, want 1", args, got)
		}
	}
}

// With -partial-labels, the clusters are numbered by the labels' classes
// (cluster.Run) and the summary says which class numbers which cluster,
// as the file writes the classes: names, or integer labels renumbered.
// The labelled nodes of 120 well-separated blobs points are in the
// cluster of their class's number in the -o file.
func TestClusterClassesOfPartialLabels(t *testing.T) {
	dir := t.TempDir()
	truthFile := filepath.Join(dir, "truth.csv")
	if _, _, err := run(t, "cluster", "-gen", "blobs", "-n", "120", "-noise", "0.3", "-k", "3", "-o", truthFile, "-quiet", "-method", "njw"); err != nil {
		t.Fatal(err)
	}
	truth, err := os.ReadFile(truthFile)
	if err != nil {
		t.Fatal(err)
	}
	// Every 10th node labelled, its class named (or numbered 5, 7, 9)
	// from its cluster in a first run, so that the names follow no
	// cluster number of the method.
	names := []string{"virginica", "setosa", "versicolor"}
	ints := []string{"9", "5", "7"}
	var byName, byInt strings.Builder
	byName.WriteString("node,label\n")
	byInt.WriteString("node,label\n")
	want := map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(truth)), "\n")[1:] {
		var i, c int
		if _, err := fmt.Sscanf(line, "%d,%d", &i, &c); err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 {
			fmt.Fprintf(&byName, "%d,%s\n", i, names[c])
			fmt.Fprintf(&byInt, "%d,%s\n", i, ints[c])
			want[i] = names[c]
		}
	}
	for _, tc := range []struct{ name, file string }{
		{"names", byName.String()},
		{"integers", byInt.String()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			partial := evalWriteTemp(t, dir, tc.name+".csv", tc.file)
			pred := filepath.Join(dir, tc.name+".pred")
			out, _, err := run(t, "cluster", "-gen", "blobs", "-n", "120", "-noise", "0.3", "-k", "3", "-quiet",
				"-partial-labels", partial, "-method", "sl", "-o", pred, "-json")
			if err != nil {
				t.Fatal(err)
			}
			sum := clusterSummaryJSON(t, out)
			raw, _ := sum["classes"].([]any)
			if len(raw) != 3 {
				t.Fatalf("classes %v, want 3", sum["classes"])
			}
			classOf := map[string]int{} // class as written → cluster number
			for c, v := range raw {
				classOf[v.(string)] = c
			}
			b, err := os.ReadFile(pred)
			if err != nil {
				t.Fatal(err)
			}
			kept := 0
			for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
				var i, c int
				if _, err := fmt.Sscanf(line, "%d,%d", &i, &c); err != nil {
					t.Fatal(err)
				}
				name, ok := want[i]
				if !ok {
					continue
				}
				written := name
				if tc.name == "integers" {
					written = ints[slices.Index(names, name)]
				}
				if got, ok := classOf[written]; !ok || got != c {
					t.Errorf("node %d of class %s is in cluster %d; the summary's classes %v", i, written, c, raw)
				} else {
					kept++
				}
			}
			if got := fmt.Sprint(sum["labels_kept"]); got != fmt.Sprintf("[%d %d]", kept, len(want)) {
				t.Errorf("labels_kept %s, want [%d %d]", got, kept, len(want))
			}
			text, _, err := run(t, "cluster", "-gen", "blobs", "-n", "120", "-noise", "0.3", "-k", "3", "-quiet",
				"-partial-labels", partial, "-method", "sl", "-o", pred)
			if err != nil {
				t.Fatal(err)
			}
			line := fmt.Sprintf("classes     0 = %s, 1 = %s, 2 = %s (the clusters are numbered by the classes of -partial-labels)", raw[0], raw[1], raw[2])
			keptLine := fmt.Sprintf("labelled    %d of %d in the cluster of their class", kept, len(want))
			// The summary's columns are aligned by blanks: compare words.
			flat := strings.Join(strings.Fields(text), " ")
			for _, line := range []string{line, keptLine} {
				if line = strings.Join(strings.Fields(line), " "); !strings.Contains(flat, line) {
					t.Errorf("summary lacks %q:\n%s", line, text)
				}
			}
		})
	}
}
