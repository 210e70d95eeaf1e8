package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// blobsTable writes a feature table of three well-separated blobs of ten
// points, without node names, whose first column is the class, coded 1, 2
// and 3 as UCI's wine codes its classes; it returns its path.
func blobsTable(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < 30; i++ {
		c := i % 3
		fmt.Fprintf(&b, "%d,%.2f,%.2f\n", c+1, float64(10*c)+0.1*float64(i%7), float64(-10*c)+0.13*float64(i%5))
	}
	return evalWriteTemp(t, dir, "blobs.csv", b.String())
}

// TestClusterConstraintDelimiters: a constraints file separated by tabs,
// semicolons or blanks, or with trailing commas, is read as labels files
// are (it was "got 1 field "0\t1\tml": separate the fields with commas",
// and weight "" for the trailing comma).
func TestClusterConstraintDelimiters(t *testing.T) {
	dir := t.TempDir()
	data := blobsTable(t, dir)
	for name, cons := range map[string]string{
		"tabs":            "i\tj\tkind\n0\t3\tml\n1\t2\tcl\n",
		"blanks":          "# base=1\n1  4 ml\n2 3 cl\n",
		"semicolons":      "0;3;ml\n1;2;cl\n",
		"trailing commas": "0,3,ml,\n1,2,cl,\n",
	} {
		t.Run(name, func(t *testing.T) {
			file := evalWriteTemp(t, dir, strings.ReplaceAll(name, " ", "_")+".txt", cons)
			_, stderr, err := run(t, "cluster", "-input", data, "-label", "first", "-k", "3", "-constraints", file, "-method", "fgpwc", "-quiet", "-o", filepath.Join(dir, "out.csv"))
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
		})
	}
}

// TestClusterSwappedSupervisionFiles: a labels file given as -constraints
// and a constraints file given as -partial-labels or -truth name the flag
// the file is for (review 95: tether cluster -constraints moons.truth said
// "give the kind: node,label,ml", and -partial-labels moons-cons.csv
// asked whether it was a feature table with a class column).
func TestClusterSwappedSupervisionFiles(t *testing.T) {
	dir := t.TempDir()
	data := blobsTable(t, dir)
	labels := evalWriteTemp(t, dir, "l.truth", "node,label\n0,0\n1,0\n2,1\n3,1\n")
	pairs := evalWriteTemp(t, dir, "c.csv", "# base=0\n0,3,ml\n1,2,cl\n")
	for _, tc := range []struct {
		flag, file, want string
	}{
		{"-constraints", labels, `l.truth:1: want i,j,kind[,weight], got 2 fields "node,label": this is a labels file (node,label lines: each node's class), not pairwise constraints; give it as -partial-labels (the known classes of some nodes) or -truth (the reference labels)`},
		{"-partial-labels", pairs, `c.csv:2: invalid input: 3 fields "0,3,ml": want one label per line or node,label pairs; this is a pairwise constraints file, i,j,ml|cl lines (give the file as -constraints)`},
		{"-truth", pairs, `c.csv:2: invalid input: 3 fields "0,3,ml": want one label per line or node,label pairs; this is a pairwise constraints file, i,j,ml|cl lines (give the file as -constraints)`},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			_, _, err := run(t, "cluster", "-input", data, "-label", "first", "-k", "3", tc.flag, tc.file, "-quiet", "-o", filepath.Join(dir, "out.csv"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want it to hold %q", err, tc.want)
			}
		})
	}
}

// TestClusterIDHeaderLabels: a labels file "id,label" with integer ids, as
// pandas writes its index, is read by index for data without names, as
// -truth and as -partial-labels (it was "the file names its nodes but the
// data has none (give the data an id column, or number the nodes 0…29)").
func TestClusterIDHeaderLabels(t *testing.T) {
	dir := t.TempDir()
	data := blobsTable(t, dir)
	var truth, partial strings.Builder
	truth.WriteString("id,label\n")
	partial.WriteString("id,label\n")
	for i := 29; i >= 0; i-- { // any order
		fmt.Fprintf(&truth, "%d,%c\n", i, 'a'+i%3)
		if i < 6 {
			fmt.Fprintf(&partial, "%d,%c\n", i, 'a'+i%3)
		}
	}
	truthFile := evalWriteTemp(t, dir, "t_id.csv", truth.String())
	partialFile := evalWriteTemp(t, dir, "p_id.csv", partial.String())
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"truth", []string{"-truth", truthFile}},
		{"partial labels", []string{"-partial-labels", partialFile, "-method", "labelprop"}},
		{"both", []string{"-truth", truthFile, "-partial-labels", partialFile, "-method", "labelprop"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"cluster", "-input", data, "-label", "none", "-k", "3", "-quiet", "-json", "-o", filepath.Join(dir, "out.csv")}, tc.args...)
			stdout, stderr, err := run(t, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if tc.name != "partial labels" && !strings.Contains(stdout, `"ARI": 1,`) {
				t.Errorf("the blobs against -truth are not ARI 1:\n%s", stdout)
			}
		})
	}
}

// TestClusterOneBasedLabels: a 1-based labels file without "# base=1"
// gets the hint constraint files get (it said only "node outside 0…29
// (base 0)"), and is read with the directive.
func TestClusterOneBasedLabels(t *testing.T) {
	dir := t.TempDir()
	data := blobsTable(t, dir)
	var b strings.Builder
	b.WriteString("node,label\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "%d,%d\n", i, (i-1)%3)
	}
	file := evalWriteTemp(t, dir, "onebased.csv", b.String())
	args := []string{"cluster", "-input", data, "-label", "none", "-k", "3", "-quiet", "-o", filepath.Join(dir, "out.csv"), "-truth"}
	want := `onebased.csv:31: column 1: value "30": invalid input: node outside 0…29 (base 0): if the file numbers the nodes from 1, begin it with a line "# base=1"`
	if _, _, err := run(t, append(args, file)...); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
	fixed := evalWriteTemp(t, dir, "fixed.csv", "# base=1\n"+b.String())
	if _, stderr, err := run(t, append(args, fixed)...); err != nil {
		t.Fatalf("with # base=1: %v\n%s", err, stderr)
	}
}

// TestClusterWineClassCodes: tether's own pipeline on a table whose class
// column codes its classes 1, 2, 3 as UCI's wine does — labels, then
// constraints gen labels-frac, then cluster -partial-labels — runs, and
// says how it read the labels (it was "usage: cluster: p.csv: node 2 has
// label 3, want 0…2 for -k 3"). More classes than -k stays a usage error.
func TestClusterWineClassCodes(t *testing.T) {
	dir := t.TempDir()
	data := blobsTable(t, dir)
	truth, partial, out := filepath.Join(dir, "wine.truth"), filepath.Join(dir, "p.csv"), filepath.Join(dir, "out.csv")
	if _, stderr, err := run(t, "labels", "-input", data, "-label", "first", "-o", truth); err != nil {
		t.Fatalf("labels: %v\n%s", err, stderr)
	}
	if _, stderr, err := run(t, "constraints", "gen", "-truth", truth, "-protocol", "labels-frac", "-rate", "0.3", "-o", partial); err != nil {
		t.Fatalf("constraints gen: %v\n%s", err, stderr)
	}
	if got := readFile(t, partial); !strings.Contains(got, ",3\n") || !strings.Contains(got, ",1\n") {
		t.Fatalf("the partial labels lack the codes 1 and 3, so the test tests nothing:\n%s", got)
	}
	stdout, stderr, err := run(t, "cluster", "-input", data, "-label", "first", "-k", "3", "-partial-labels", partial, "-method", "labelprop", "-o", out)
	if err != nil {
		t.Fatalf("cluster: %v\n%s", err, stderr)
	}
	if want := "tether cluster: note: " + partial + ": labels 1, 2, 3 read as classes 0, 1, 2 (k = 3 numbers the classes 0…2)\n"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	if !strings.Contains(stdout, "ARI         1") {
		t.Errorf("the blobs are not found:\n%s", stdout)
	}
	// -json carries the note in its notes, also with -quiet.
	stdout, stderr, err = run(t, "cluster", "-input", data, "-label", "first", "-k", "3", "-partial-labels", partial, "-method", "labelprop", "-quiet", "-json", "-o", out)
	if err != nil {
		t.Fatalf("cluster -json: %v\n%s", err, stderr)
	}
	var doc struct{ Warnings, Notes []string }
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("cluster -json: %v\n%s", err, stdout)
	}
	if want := partial + ": labels 1, 2, 3 read as classes 0, 1, 2 (k = 3 numbers the classes 0…2)"; !slices.Contains(doc.Notes, want) || slices.Contains(doc.Warnings, want) {
		t.Errorf("-json notes %q lack %q, or warnings %q have it", doc.Notes, want, doc.Warnings)
	}
	_, _, err = run(t, "cluster", "-input", data, "-label", "first", "-k", "2", "-partial-labels", partial, "-method", "labelprop", "-quiet", "-o", out)
	want := "usage: cluster: " + partial + ": 3 classes (1, 2, 3) for -k 2: node "
	if err == nil || !errors.Is(err, errUsage) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("-k 2: error %v, want a usage error beginning %q", err, want)
	}
}

// TestLabelsEmptyLastField: a two-column labels file whose line has the
// delimiter and an empty label ("1\t", "1 ", "1;", "1,") marks a node of
// unknown class for every command that reads labels files: cluster
// -partial-labels and -truth, eval -truth and -pred, constraints gen
// -truth (it was "1 fields, want 2 as on the first data line" for tabs
// and blanks). Nodes 1 and 29 of blobsTable (classes i mod 3) are left
// unknown: one line inside the file, one at its end.
func TestLabelsEmptyLastField(t *testing.T) {
	dir := t.TempDir()
	data := blobsTable(t, dir)
	pred := filepath.Join(dir, "pred.csv")
	if _, stderr, err := run(t, "cluster", "-input", data, "-label", "none", "-k", "3", "-quiet", "-o", pred); err != nil {
		t.Fatalf("cluster: %v\n%s", err, stderr)
	}
	for _, tc := range []struct{ name, sep string }{
		{"tab", "\t"}, {"blank", " "}, {"semicolon", ";"}, {"comma", ","},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var truth, partial strings.Builder
			for i := 0; i < 30; i++ {
				label := string(rune('a' + i%3))
				if i == 1 || i == 29 {
					label = ""
				}
				line := fmt.Sprintf("%d%s%s\n", i, tc.sep, label)
				truth.WriteString(line)
				if i < 6 || i == 29 {
					partial.WriteString(line)
				}
			}
			truthFile := evalWriteTemp(t, dir, tc.name+".truth", truth.String())
			partialFile := evalWriteTemp(t, dir, tc.name+".partial", partial.String())
			out := filepath.Join(dir, "out.csv")
			// Three separated blobs, four labelled nodes: found exactly;
			// the two unknown nodes are left out of the figures.
			checkUnknownLabels(t, data, truthFile, partialFile, out, pred, 2)
			// The prediction and constraints gen's reference must label
			// every node: the file is read, and refused for that.
			_, _, err := runEvalCLI(t, "-truth", pred, "-pred", truthFile)
			if want := "node 1 has no label (-1); the prediction must label every node"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("eval -pred: error %v, want %q", err, want)
			}
			_, _, err = run(t, "constraints", "gen", "-truth", truthFile, "-protocol", "pairs-1/n", "-o", filepath.Join(dir, "cons.csv"))
			if want := "node 1 has no class; the reference must label every node"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("constraints gen -truth: error %v, want %q", err, want)
			}
		})
	}
}

// TestLabelsOneBasedWarning: a labels file by index without "# base="
// that never names node 0 though it lists half of the nodes or more gets
// a warning saying how to declare 1-based numbering, from every command
// that reads labels files; with a directive, or listing few nodes, none.
// blobsTable has 30 nodes; the files number them from 1 and leave the last
// (30) out, which the "node outside" hint cannot catch.
func TestLabelsOneBasedWarning(t *testing.T) {
	dir := t.TempDir()
	data := blobsTable(t, dir)
	oneBased := func(name string, last int, directive string) string {
		var b strings.Builder
		b.WriteString(directive)
		for i := 1; i <= last; i++ {
			fmt.Fprintf(&b, "%d,%d\n", i, (i-1)%3)
		}
		return evalWriteTemp(t, dir, name, b.String())
	}
	many := oneBased("many.csv", 20, "")                   // nodes 1…20 listed: 20 of 30
	declared := oneBased("declared.csv", 20, "# base=1\n") // the same, declared
	silenced := oneBased("silenced.csv", 20, "# base=0\n") // the same, said 0-based
	few := oneBased("few.csv", 14, "")                     // 14 of 30: under half
	truth := oneBased("truth.csv", 29, "")                 // 29 of 30
	warning := func(file string, listed, n int) string {
		return fmt.Sprintf(`%s: no line names node 0, though %d of the %d nodes are listed: node indices are 0-based, so if the file numbers the nodes from 1, its labels are read one node off; begin it with a line "# base=1" (or "# base=0" to say it is 0-based and silence this warning)`, file, listed, n)
	}
	out := filepath.Join(dir, "out.csv")
	clusterArgs := []string{"cluster", "-input", data, "-label", "none", "-k", "3", "-quiet", "-o", out, "-method", "labelprop"}
	for _, tc := range []struct {
		name string
		args []string
		want string // "" for no warning
	}{
		{"partial labels", append(clusterArgs[:len(clusterArgs):len(clusterArgs)], "-partial-labels", many), warning(many, 20, 30)},
		{"partial labels, base=1", append(clusterArgs[:len(clusterArgs):len(clusterArgs)], "-partial-labels", declared), ""},
		{"partial labels, base=0", append(clusterArgs[:len(clusterArgs):len(clusterArgs)], "-partial-labels", silenced), ""},
		{"partial labels, few", append(clusterArgs[:len(clusterArgs):len(clusterArgs)], "-partial-labels", few), ""},
		{"truth", append(clusterArgs[:len(clusterArgs):len(clusterArgs)], "-partial-labels", declared, "-truth", truth), warning(truth, 29, 30)},
		// eval infers n: 1 + the largest index, 30 nodes of which 29 listed.
		{"eval", []string{"eval", "-truth", truth, "-pred", truth}, warning(truth, 29, 30)},
		{"constraints gen", []string{"constraints", "gen", "-truth", truth, "-protocol", "pairs-1/n", "-o", filepath.Join(dir, "c.csv")}, warning(truth, 29, 30)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, _ := run(t, tc.args...) // constraints gen then refuses node 0, unlabelled
			has := strings.Contains(stderr, "no line names node 0")
			switch {
			case tc.want == "" && has:
				t.Errorf("unexpected warning:\n%s", stderr)
			case tc.want != "" && !strings.Contains(stderr, ": warning: "+tc.want+"\n"):
				t.Errorf("stderr lacks the warning %q:\n%s", tc.want, stderr)
			}
		})
	}
	// -json keeps it among the warnings.
	stdout, stderr, err := run(t, append(clusterArgs[:len(clusterArgs):len(clusterArgs)], "-partial-labels", many, "-json")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var doc struct{ Warnings []string }
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(doc.Warnings, warning(many, 20, 30)) {
		t.Errorf("-json warnings %q lack the 1-based warning", doc.Warnings)
	}
}

// TestClusterKFromPartialLabels: without -k, a method of partial labels
// takes k from the number of their classes, with a note (it was "give -k,
// the number of clusters"); -k still sets k, and the methods of pairs
// still need it. blobsTable has three separated classes, so k = 3 finds
// them (ARI 1); the partial labels name classes a, b, c on nodes 0…5.
func TestClusterKFromPartialLabels(t *testing.T) {
	dir := t.TempDir()
	data := blobsTable(t, dir)
	var b strings.Builder
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&b, "%d,%c\n", i, 'a'+i%3)
	}
	partial := evalWriteTemp(t, dir, "p.csv", b.String())
	one := evalWriteTemp(t, dir, "one.csv", "0,a\n3,a\n")
	out := filepath.Join(dir, "out.csv")
	base := []string{"cluster", "-input", data, "-label", "first", "-o", out}
	note := "k = 3, the number of classes in " + partial + " (-k sets k)"
	for _, tc := range []struct {
		name   string
		args   []string
		noted  bool
		usage  string // the usage error, "" for none
		wantK  int
		wantAR float64
	}{
		{"labelprop", []string{"-partial-labels", partial, "-method", "labelprop"}, true, "", 3, 1},
		{"auto, the default", []string{"-partial-labels", partial}, true, "", 3, 1},
		{"-k 0 too", []string{"-partial-labels", partial, "-method", "labelprop", "-k", "0"}, true, "", 3, 1},
		{"-k given", []string{"-partial-labels", partial, "-method", "labelprop", "-k", "3"}, false, "", 3, 1},
		{"-k below the classes", []string{"-partial-labels", partial, "-method", "labelprop", "-k", "2"}, false,
			"usage: cluster: " + partial + ": 3 classes (a, b, c) for -k 2", 0, 0},
		{"mavro takes 2", []string{"-partial-labels", partial, "-method", "mavro"}, false,
			"usage: cluster: k = 3 (the number of classes in " + partial + "; -k sets k): mavro takes k = 2 only", 0, 0},
		{"one class", []string{"-partial-labels", one, "-method", "labelprop"}, false,
			"usage: cluster: give -k, the number of clusters: labelprop does not estimate it, and " + one + " has 1 class, too few to give it", 0, 0},
		{"a method of pairs", []string{"-partial-labels", partial, "-method", "sl"}, false,
			"usage: cluster: give -k, the number of clusters: sl does not estimate it (bethe, fgpwc, hbisect, opplc, plmeans do, with -k 0 or no -k)", 0, 0},
		{"no labels", []string{"-method", "labelprop"}, false,
			"usage: cluster: give -k, the number of clusters: labelprop does not estimate it (bethe, fgpwc, hbisect, opplc, plmeans do, with -k 0 or no -k; with -partial-labels, k is the number of their classes)", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := run(t, append(append(base[:len(base):len(base)], tc.args...), "-json")...)
			if tc.usage != "" {
				if err == nil || !errors.Is(err, errUsage) || !strings.HasPrefix(err.Error(), tc.usage) {
					t.Fatalf("error %v, want a usage error beginning %q", err, tc.usage)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			var doc struct {
				K       int
				Figures map[string]float64
				Notes   []string
			}
			if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.K != tc.wantK || doc.Figures["ARI"] != tc.wantAR {
				t.Errorf("k %d, ARI %v; want %d, %v", doc.K, doc.Figures["ARI"], tc.wantK, tc.wantAR)
			}
			if got := strings.Contains(stderr, "tether cluster: note: "+note+"\n"); got != tc.noted {
				t.Errorf("note on stderr %v, want %v:\n%s", got, tc.noted, stderr)
			}
			if got := slices.Contains(doc.Notes, note); got != tc.noted {
				t.Errorf("note in -json notes %v, want %v: %q", got, tc.noted, doc.Notes)
			}
		})
	}
}

// TestLabelsFirstLineUnknown: in a one-label-per-line file, a first line
// ?, -1, empty or blank is node 0's unknown label for every command that
// reads labels files, never a header (? and "" were dropped as headers and
// a leading blank line skipped, so every label moved up one node: a file
// of 30 lines was "29 labels for 30 nodes", and one of 31 lines was read
// for the 30 nodes, each given its successor's label). blobsTable has 30
// nodes of classes i mod 3, written as integers (a first word followed by
// an integer is a header).
func TestLabelsFirstLineUnknown(t *testing.T) {
	dir := t.TempDir()
	data := blobsTable(t, dir)
	pred := filepath.Join(dir, "pred.csv")
	if _, stderr, err := run(t, "cluster", "-input", data, "-label", "none", "-k", "3", "-quiet", "-o", pred); err != nil {
		t.Fatalf("cluster: %v\n%s", err, stderr)
	}
	for _, tc := range []struct{ name, first string }{
		{"question mark", "?"}, {"minus one", "-1"}, {"blank", ""}, {"quoted empty", `""`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Node 0 unknown, nodes 1…29 labelled (truth) or 1…5
			// (partial labels, the others ?).
			truth, partial := []string{tc.first}, []string{tc.first}
			for i := 1; i < 30; i++ {
				label := strconv.Itoa(i % 3)
				truth = append(truth, label)
				if i >= 6 {
					label = "?"
				}
				partial = append(partial, label)
			}
			name := strings.ReplaceAll(tc.name, " ", "_")
			truthFile := evalWriteTemp(t, dir, name+".truth", strings.Join(truth, "\n")+"\n")
			partialFile := evalWriteTemp(t, dir, name+".partial", strings.Join(partial, "\n")+"\n")
			out := filepath.Join(dir, "out.csv")
			// Three separated blobs, five labelled nodes: found exactly
			// (shifted partial labels would put nodes of two blobs in
			// one class); node 0 is left out of the figures.
			checkUnknownLabels(t, data, truthFile, partialFile, out, pred, 1)
			// constraints gen reads node 0 as unknown, and refuses it.
			_, _, err := run(t, "constraints", "gen", "-truth", truthFile, "-protocol", "pairs-1/n", "-o", filepath.Join(dir, "cons.csv"))
			if want := "node 0 has no class; the reference must label every node"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("constraints gen -truth: error %v, want %q", err, want)
			}
			// A line too many: refused, where the label of every node
			// was its successor's.
			long := evalWriteTemp(t, dir, name+".long", tc.first+"\n"+strings.Repeat("0\n1\n2\n", 10))
			_, _, err = run(t, "cluster", "-input", data, "-label", "none", "-k", "3", "-quiet", "-o", out, "-partial-labels", long, "-method", "labelprop")
			if want := long + ": invalid input: 31 labels for 30 nodes"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("cluster -partial-labels: error %v, want %q", err, want)
			}
			_, _, err = runEvalCLI(t, "-truth", long, "-pred", pred)
			if want := "31 labels"; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("eval -truth: error %v, want %q", err, want)
			}
		})
	}
}

// checkUnknownLabels runs labelprop on data (blobsTable: 30 nodes in three
// separated blobs) with the reference truthFile and the partial labels
// partialFile, writing to out, and checks that it finds the blobs exactly
// (ARI 1) with the note that the reference's `unknown` unlabelled nodes
// are left out of the figures; then that eval reads truthFile against
// pred, the unsupervised prediction, on the 30 − unknown labelled nodes.
func checkUnknownLabels(t *testing.T, data, truthFile, partialFile, out, pred string, unknown int) {
	t.Helper()
	stdout, stderr, err := run(t, "cluster", "-input", data, "-label", "none", "-k", "3", "-quiet", "-json", "-o", out,
		"-truth", truthFile, "-partial-labels", partialFile, "-method", "labelprop")
	if err != nil {
		t.Fatalf("cluster: %v\n%s", err, stderr)
	}
	var doc struct {
		Figures map[string]float64
		Notes   []string
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("cluster -json: %v\n%s", err, stdout)
	}
	note := fmt.Sprintf("%d nodes without a reference label left out of the figures", unknown)
	if unknown == 1 {
		note = "1 node without a reference label left out of the figures"
	}
	if doc.Figures["ARI"] != 1 || !slices.Contains(doc.Notes, note) {
		t.Errorf("ARI %v, notes %q; want 1 and %q", doc.Figures["ARI"], doc.Notes, note)
	}
	stdout, stderr, err = runEvalCLI(t, "-truth", truthFile, "-pred", pred)
	if err != nil {
		t.Fatalf("eval -truth: %v\n%s", err, stderr)
	}
	if want := fmt.Sprintf("%d items, 3 reference clusters", 30-unknown); !strings.HasPrefix(stdout, want) {
		t.Errorf("eval: want %q:\n%s", want, stdout)
	}
}

// TestLabelsSharedName: a labels file keyed by name that names a node by
// a name several nodes of the data share (repeated IDs, repeated GML
// labels) is refused, naming the file, the line, the name and the nodes
// that share it, for -truth, -partial-labels and eval's files read through
// a graph's names; it labelled the first of those nodes, silently.
func TestLabelsSharedName(t *testing.T) {
	dir := t.TempDir()
	var data, truth strings.Builder
	data.WriteString("id,x,y\n")
	truth.WriteString("name,label\n")
	for i := 0; i < 30; i++ {
		c := i % 3
		id := fmt.Sprintf("p%d", i)
		if i == 20 {
			id = "p5" // node 20 repeats node 5's ID
		} else {
			fmt.Fprintf(&truth, "%s,%c\n", id, 'a'+c)
		}
		fmt.Fprintf(&data, "%s,%.2f,%.2f\n", id, float64(10*c)+0.1*float64(i%7), float64(-10*c)+0.13*float64(i%5))
	}
	dataFile := evalWriteTemp(t, dir, "shared.csv", data.String())
	truthFile := evalWriteTemp(t, dir, "truth.csv", truth.String())
	partialFile := evalWriteTemp(t, dir, "partial.csv", "name,label\np0,a\np1,b\np5,a\n")
	gml := evalWriteTemp(t, dir, "g.gml", "graph [\n node [ id 1 label \"a\" ]\n node [ id 2 label \"b\" ]\n node [ id 3 label \"a\" ]\n node [ id 4 label \"d\" ]\n edge [ source 1 target 2 ]\n edge [ source 3 target 4 ]\n]\n")
	byName := evalWriteTemp(t, dir, "byname.csv", "name,label\nb,0\na,0\nd,1\n")
	byIndex := evalWriteTemp(t, dir, "byindex.csv", "node,label\n0,0\n1,0\n2,1\n3,1\n")
	cluster := []string{"cluster", "-input", dataFile, "-id", "id", "-label", "none", "-k", "3", "-quiet", "-o", filepath.Join(dir, "out.csv")}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"truth", append(slices.Clone(cluster), "-truth", truthFile), truthFile + `:7: column 1: value "p5": invalid input: node name shared by nodes 5 and 20 of the data (0-based rows), so it cannot say which one it labels`},
		{"partial labels", append(slices.Clone(cluster), "-partial-labels", partialFile, "-method", "labelprop"), partialFile + `:4: column 1: value "p5": invalid input: node name shared by nodes 5 and 20 of the data`},
		{"eval through the graph's names", []string{"eval", "-truth", byName, "-pred", byIndex, "-graph", gml}, byName + `:3: column 1: value "a": invalid input: node name shared by nodes 0 and 2 of the data`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, err := run(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q\n%s", err, tc.want, stderr)
			}
		})
	}
}

// TestClusterTruthReplacesColumn: -truth with a table whose class column
// is the reference labels says, in a note, that the file replaces them
// (review 95: the only note said that column "label" was the reference
// labels, while the ARI was computed against -truth); without -truth, or
// with a table without a class column, there is no such note.
func TestClusterTruthReplacesColumn(t *testing.T) {
	dir := t.TempDir()
	data := blobsTable(t, dir) // class in the first column
	// Classes i mod 2, unrelated to the blobs (i mod 3): ARI near 0,
	// where the class column gives 1.
	var b strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "%d\n", i%2)
	}
	truth := evalWriteTemp(t, dir, "one.truth", b.String())
	const replaced = "one.truth replaces the reference labels of"
	for _, tc := range []struct {
		name string
		args []string
		note bool
	}{
		{"class column and -truth", []string{"-label", "first", "-truth", truth}, true},
		{"class column alone", []string{"-label", "first"}, false},
		{"no class column, -truth", []string{"-label", "none", "-truth", truth}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"cluster", "-input", data, "-k", "3", "-json", "-o", filepath.Join(dir, "out.csv")}, tc.args...)
			out, _, err := run(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			var sum struct {
				Notes   []string           `json:"notes"`
				Figures map[string]float64 `json:"figures"`
			}
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			got := slices.ContainsFunc(sum.Notes, func(n string) bool { return strings.Contains(n, replaced) })
			if got != tc.note {
				t.Errorf("note %q: %v, want %v; notes %q", replaced, got, tc.note, sum.Notes)
			}
			if ari, ok := sum.Figures["ARI"]; tc.note && (!ok || ari > 0.1) {
				t.Errorf("ARI %v (%v), want near 0: against one.truth, not the class column", ari, ok)
			}
		})
	}
}

// TestClusterTruthOneNote: with a column named label, taken as the
// reference labels, and -truth, one note says that the file replaces the
// column as the reference (and that the column is still not a feature,
// with the remedy): the reader's note that the column is the reference
// labels, which -truth makes untrue, was printed before it. On standard
// error and in -json alike.
func TestClusterTruthOneNote(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x1,x2,label\n")
	var tb strings.Builder
	for i := 0; i < 30; i++ {
		c := i % 3
		fmt.Fprintf(&b, "%.2f,%.2f,%d\n", float64(10*c)+0.1*float64(i%7), float64(-10*c)+0.13*float64(i%5), c)
		fmt.Fprintf(&tb, "%d\n", i%2)
	}
	data := evalWriteTemp(t, dir, "data.csv", b.String())
	truth := evalWriteTemp(t, dir, "data.truth", tb.String())
	want := truth + ` replaces column "label" of ` + data + ` as the reference labels: the partition is compared with ` + truth + `; the column is not a feature (tether: -label none makes it a feature`
	args := []string{"cluster", "-input", data, "-truth", truth, "-k", "3", "-o", filepath.Join(dir, "out.csv")}
	_, stderr, err := run(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stderr, "reference labels"); n != 1 || !strings.Contains(stderr, "tether cluster: note: "+want) {
		t.Errorf("standard error names the reference labels %d times, want once, in the note %q:\n%s", n, want, stderr)
	}
	out, _, err := run(t, append(args, "-json")...)
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Notes []string `json:"notes"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var about []string
	for _, n := range sum.Notes {
		if strings.Contains(n, "reference labels") {
			about = append(about, n)
		}
	}
	if len(about) != 1 || !strings.HasPrefix(about[0], want) {
		t.Errorf("-json notes on the reference labels %q, want one, %q…", about, want)
	}
	// Without -truth, the reader's note stands.
	_, stderr, err = run(t, "cluster", "-input", data, "-k", "3", "-o", filepath.Join(dir, "out.csv"))
	if err != nil || !strings.Contains(stderr, `column "label" is the reference labels, not a feature`) {
		t.Errorf("without -truth: %v\n%s", err, stderr)
	}
}
