package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/experiment"
	"github.com/tether-sc/tether/progress"
)

// run executes tether in-process and returns stdout, stderr and the error.
func run(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	err := m.Run(context.Background(), args)
	return out.String(), errb.String(), err
}

// writeTemp writes content to name in a fresh temporary directory.
func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestClusterGenerated(t *testing.T) {
	dir := t.TempDir()
	labels := filepath.Join(dir, "labels.txt")
	plot := filepath.Join(dir, "plot.png")
	out, _, err := run(t, "cluster", "-gen", "moons", "-n", "400", "-noise", "0.05", "-k", "2", "-o", labels, "-plot", plot, "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ARI", "1.0000", "Ncut", "sizes"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(labels)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n != 401 || !strings.HasPrefix(string(b), "node,cluster\n0,") {
		t.Errorf("labels file has %d lines, want the header node,cluster and 400 lines", n)
	}
	if st, err := os.Stat(plot); err != nil || st.Size() == 0 {
		t.Errorf("plot not written: %v", err)
	}
	// Labels on stdout when -o is -, the summary then on stderr (with
	// -json, one document on stdout: TestClusterJSONOneDocument).
	out, errOut, err := run(t, "cluster", "-gen", "blobs", "-n", "300", "-k", "3", "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, "\n") != 301 || !strings.Contains(errOut, "ARI") {
		t.Errorf("stdout %d lines, stderr %q", strings.Count(out, "\n"), errOut)
	}
}

func TestClusterFeatureFileAndConstraints(t *testing.T) {
	// Two tight groups on a line; a must-link file joining them and a
	// cannot-link splitting them again is contradictory.
	csv := "a,b,class\n0,0,x\n0.1,0,x\n0,0.1,x\n5,5,y\n5.1,5,y\n5,5.1,y\n"
	data := writeTemp(t, "d.csv", csv)
	out, _, err := run(t, "cluster", "-input", data, "-label", "last", "-knn", "2", "-sigma", "median", "-k", "2", "-o", filepath.Join(t.TempDir(), "l"), "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "ARI") || !strings.Contains(out, "1.0000") {
		t.Errorf("summary:\n%s", out)
	}
	bad := writeTemp(t, "c.csv", "# base=0\n0,3,ml\n0,3,cl\n")
	_, _, err = run(t, "cluster", "-input", data, "-label", "last", "-knn", "2", "-sigma", "median", "-k", "2", "-constraints", bad, "-o", filepath.Join(t.TempDir(), "l"), "-quiet")
	if err == nil || !strings.Contains(err.Error(), "-conflicts") {
		t.Errorf("contradictory constraints: error %v", err)
	}
	_, _, err = run(t, "cluster", "-input", data, "-label", "last", "-knn", "2", "-sigma", "median", "-k", "2", "-constraints", bad, "-conflicts", "drop-cl", "-o", filepath.Join(t.TempDir(), "l"), "-quiet")
	if err != nil {
		t.Errorf("-conflicts drop-cl: %v", err)
	}
}

// TestClusterBadInput checks that every kind of bad input of the brief's
// list gives an error naming the problem, never a panic or NaN.
func TestClusterBadInput(t *testing.T) {
	good := "1,2\n1.1,2.1\n5,5\n5.2,5.1\n9,9\n9.1,9.2\n"
	cases := []struct {
		name  string
		file  string // content of the data file, "" for none
		ext   string
		args  []string
		usage bool     // a usage error (exit 2)
		want  []string // substrings of the message
	}{
		{"missing value", "1,2\n?,3\n4,5\n", ".csv", nil, false, []string{"data.csv:2:", "missing value: impute it (its column's mean or most frequent value) or drop its row (tether: -missing impute or -missing drop; library: Options.Missing = MissingImpute or MissingDrop)"}},
		// R's missing value was to be fixed or one-hot encoded (review 118).
		{"R's NA", "1,2\nNA,3\n4,5\n", ".csv", nil, false, []string{"data.csv:2:", `"NA" looks like a missing value, which is written ? or left empty`, "-missing impute or -missing drop"}},
		{"NaN", "1,2\nNaN,3\n4,5\n", ".csv", nil, false, []string{"data.csv:2:", "NaN"}},
		{"Inf", "1,2\n3,+Inf\n4,5\n", ".csv", nil, false, []string{"Inf"}},
		{"ragged row", "1,2\n3\n4,5\n", ".csv", nil, false, []string{"data.csv:2:", "1 field,"}},
		// A header alone is read as one data row (-header auto cannot tell
		// with one line); the message said only "1 data row".
		{"header only", "x1,x2\n", ".csv", nil, false, []string{"data.csv has 1 data row", "a file of one line is read as one data row", "the file holds no data"}},
		{"empty", "", ".csv", nil, false, []string{"data.csv", "no data"}},
		// The library's "k = 0, want 1 ≤ k ≤ n" (exit 1) did not say which
		// flag to give.
		{"k zero", good, ".csv", []string{"-k", "0"}, true, []string{"give -k, the number of clusters: njw does not estimate it (bethe, fgpwc, hbisect, opplc, plmeans do"}},
		// A -k the input cannot have is a usage error, as -k 0 is (it was
		// the library's "k = 7, want 1 ≤ k ≤ n = 6", exit 1).
		{"k above n", good, ".csv", []string{"-k", "7"}, true, []string{"-k 7 exceeds the 6 nodes of the graph"}},
		{"k negative", good, ".csv", []string{"-k", "-1"}, true, []string{"-k: -1 is outside [0, "}},
		{"unknown method", good, ".csv", []string{"-method", "nope"}, true, []string{"unknown method"}},
		{"two inputs", good, ".csv", []string{"-gen", "moons"}, true, []string{"exactly one"}},
		{"negative weight", "0 1 1\n1 2 -2\n", ".txt", []string{"-graph-file"}, false, []string{"negative"}},
		{"asymmetric dense affinity", "0,1\n2,0\n", ".csv", []string{"-graph-file"}, false, []string{"symmetric"}},
		// Without regularization; the default regularizes (TestClusterRegularize).
		{"isolated node", "0 1 1\n1 2 1\n3 3 0\n", ".txt", []string{"-graph-file", "-k", "2", "-regularize", "none"}, false, []string{"isolated", "node 3"}},
		{"out-of-range constraint", good, ".csv", []string{"-constraints", "cons:# base=0\n0,9,ml\n"}, false, []string{"cons.csv:2:", "node 9"}},
		{"self-pair constraint", good, ".csv", []string{"-constraints", "cons:# base=0\n2,2,cl\n"}, false, []string{"cons.csv:2:", "self pair"}},
		{"malformed constraint", good, ".csv", []string{"-constraints", "cons:# base=0\n0,1,maybe\n"}, false, []string{"cons.csv:2:", "maybe"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"cluster", "-quiet", "-o", filepath.Join(t.TempDir(), "l")}
			hasK := false
			extra := []string{}
			for i := 0; i < len(tc.args); i++ {
				a := tc.args[i]
				switch {
				case a == "-graph-file":
					continue
				case strings.HasPrefix(a, "cons:"):
					extra = append(extra, writeTemp(t, "cons.csv", strings.TrimPrefix(a, "cons:")))
				default:
					if a == "-k" {
						hasK = true
					}
					extra = append(extra, a)
				}
			}
			path := writeTemp(t, "data"+tc.ext, tc.file)
			if len(tc.args) > 0 && tc.args[0] == "-graph-file" {
				args = append(args, "-graph-file", path)
			} else {
				// Graph flags apply to features only (a usage error with a
				// graph file).
				args = append(args, "-input", path, "-knn", "2", "-sigma", "median")
			}
			if !hasK {
				args = append(args, "-k", "2")
			}
			args = append(args, extra...)
			_, _, err := run(t, args...)
			if err == nil {
				t.Fatalf("no error for %v", args)
			}
			if errors.Is(err, errUsage) != tc.usage {
				t.Errorf("usage error = %v, want %v (%v)", errors.Is(err, errUsage), tc.usage, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestClusterDisconnectedGraphWarns(t *testing.T) {
	g := writeTemp(t, "g.txt", "0 1 1\n1 2 1\n0 2 1\n3 4 1\n4 5 1\n3 5 1\n")
	out, _, err := run(t, "cluster", "-graph-file", g, "-k", "2", "-o", filepath.Join(t.TempDir(), "l"), "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "2 components") || !strings.Contains(out, "warning") {
		t.Errorf("summary does not report the components:\n%s", out)
	}
}

// TestDemoRuns: the demo prints its table and writes its figure; its data
// are drawn so that the only warning is that of the run shown failing on
// purpose (usc on the sparse SBM: the partition collapsed), explained
// once under the table (it printed 7 warnings, 4 of them that the moons'
// and blobs' graphs had one component per class). The bounds on the ARI
// keep the table's story: the figures are those of -seed 1 (moons 1.000,
// blobs 0.937, usc 0.000 and bethe 0.830 on the SBM, njw 0.534 and fgpwc
// 0.996 on the full RBF graph), with margins.
func TestDemoRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("demo skipped in short mode")
	}
	dir := t.TempDir()
	out, stderr, err := run(t, "demo", "-quiet", "-o", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "bethe") || !strings.Contains(out, "demo.png") {
		t.Errorf("demo output:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "demo.png")); err != nil {
		t.Error(err)
	}
	// -quiet: standard error holds the warnings alone.
	warnings := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "tether demo: warning: usc on sparse SBM") || !strings.Contains(warnings[0], "the partition has collapsed") {
		t.Errorf("demo warnings: want the one of usc on the SBM, got\n%s", stderr)
	}
	if !strings.Contains(out, "\nusc fails on the sparse SBM on purpose: ") {
		t.Errorf("demo output lacks the explanation of usc's row:\n%s", out)
	}
	cols := regexp.MustCompile(`\s{2,}`)
	type row struct {
		data, method string
		lo, hi       float64 // bounds on the ARI
	}
	want := []row{
		{"two moons, 20-NN graph", "njw", 0.99, 1}, {"two moons, 20-NN graph", "ncut", 0.99, 1}, {"two moons, 20-NN graph", "hbisect", 0.99, 1},
		{"5 Gaussian blobs", "njw", 0.85, 1}, {"5 Gaussian blobs", "usc", 0.85, 1},
		{"sparse SBM", "usc", -0.1, 0.1}, {"sparse SBM", "bethe", 0.7, 1},
		{"two moons, full RBF graph", "njw", 0, 0.8}, {"two moons, full RBF graph", "fgpwc", 0.95, 1},
	}
	var got []row
	for _, l := range strings.Split(out, "\n") {
		f := cols.Split(l, -1)
		if len(f) != 7 || f[0] == "DATA" {
			continue
		}
		var ari float64
		if _, err := fmt.Sscan(f[3], &ari); err != nil {
			t.Fatalf("ARI %q: %v", f[3], err)
		}
		got = append(got, row{data: f[0], method: f[1], lo: ari, hi: ari})
	}
	if len(got) != len(want) {
		t.Fatalf("demo table has %d rows, want %d:\n%s", len(got), len(want), out)
	}
	for i, w := range want {
		g := got[i]
		if !strings.HasPrefix(g.data, w.data) || g.method != w.method || g.lo < w.lo || g.lo > w.hi {
			t.Errorf("row %d: %s %s ARI %.3f, want %s… %s ARI in [%g, %g]", i, g.data, g.method, g.lo, w.data, w.method, w.lo, w.hi)
		}
	}
}

func TestReproQuickAndList(t *testing.T) {
	out, _, err := run(t, "repro", "list")
	if err != nil || !strings.Contains(out, "closure") {
		t.Fatalf("repro list: %v\n%s", err, out)
	}
	dir := t.TempDir()
	_, _, err = run(t, "repro", "-quick", "-quiet", "-o", dir, "-cache", filepath.Join(dir, "cache"), "closure")
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "closure", "README.md"))
	if err != nil || !strings.Contains(string(md), "tether repro -quick closure") {
		t.Fatalf("closure README: %v\n%s", err, md)
	}
	for _, f := range []string{"closure.csv", "closure-fig4.3.png", "closure-fig4.4.png"} {
		if _, err := os.Stat(filepath.Join(dir, "closure", f)); err != nil {
			t.Error(err)
		}
	}
	if _, _, err := run(t, "repro", "nope"); !errors.Is(err, errUsage) {
		t.Errorf("unknown experiment: %v", err)
	}
}

// repro -estimate reads the cache a run wrote and prints each cell's
// experiment with its measured cells; it runs nothing and writes no page.
func TestReproEstimate(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	if _, _, err := run(t, "repro", "-quick", "-quiet", "-o", dir, "-cache", cache, "closure"); err != nil {
		t.Fatal(err)
	}
	out, _, err := run(t, "repro", "-quick", "-estimate", "-o", filepath.Join(dir, "none"), "-cache", cache, "closure", "table5.1")
	if err != nil {
		t.Fatal(err)
	}
	// closure: every quick cell measured, none untimed; table5.1 never ran:
	// all untimed.
	var closure, table []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) == 8 && f[0] == "closure" {
			closure = f
		}
		if len(f) == 8 && f[0] == "table5.1" {
			table = f
		}
	}
	if closure == nil || closure[1] != closure[3] || closure[5] != "0" || table == nil || table[2] != "0" || table[1] != table[5] {
		t.Errorf("estimate table:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "none")); !os.IsNotExist(err) {
		t.Errorf("-estimate wrote output: %v", err)
	}
	if _, _, err := run(t, "repro", "-estimate", "-cache", "", "closure"); !errors.Is(err, errUsage) {
		t.Errorf("-estimate without a cache: %v", err)
	}
}

// Every repro run rebuilds CLAIMS.md from all experiments' claims files: a
// later run of another experiment keeps the first one's claims, and each
// page opens with its own.
func TestReproLedgerKeepsEarlierClaims(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"closure", "table5.1"} {
		if _, _, err := run(t, "repro", "-quick", "-quiet", "-o", dir, "-cache", "", name); err != nil {
			t.Fatal(err)
		}
	}
	ledger, err := os.ReadFile(filepath.Join(dir, "CLAIMS.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Claims ledger", "## [closure](closure/README.md)", "Non-uniformity degrades", "## [table5.1](table5.1/README.md)",
		"the MLE reports values very close to α", "| [fgpwc-table1](fgpwc-table1/README.md) |"} {
		if !strings.Contains(string(ledger), want) {
			t.Errorf("CLAIMS.md lacks %q", want)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "closure", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if i, j := strings.Index(string(page), "## Published claims checked"), strings.Index(string(page), "## Fig. 4.3"); i < 0 || j < 0 || i > j {
		t.Errorf("the closure page does not open with its claims (at %d, first section at %d)", i, j)
	}
}

// A run by name keeps an existing index in step with the pages: its
// experiments' sections are the new pages, the others' are read from
// their pages, and an experiment without a page has no section. A run
// by name into a folder without an index makes none.
func TestReproIndexFollowsPages(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "README.md")
	if _, _, err := run(t, "repro", "-quick", "-quiet", "-o", dir, "-cache", "", "closure"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(index); err == nil {
		t.Fatal("a run by name made an index where there was none")
	}
	// A README.md that is not an index is the user's (review 106: -o .).
	mine := "# My project\n"
	if err := os.WriteFile(index, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := run(t, "repro", "-quick", "-quiet", "-o", dir, "-cache", "", "closure")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(index); string(b) != mine || !strings.Contains(stderr, "not a results index: left as it is") {
		t.Fatalf("a README.md of the user's: now %q, stderr %q; want it as it was, and a note", b, stderr)
	}
	if err := os.WriteFile(index, []byte("# Reproductions\n\nOLD INDEX TEXT\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "table5.1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "table5.1", "README.md"), []byte("Generated earlier.\n\n# T\n\n![fig](t.png) kept as it was\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "repro", "-quick", "-quiet", "-o", dir, "-cache", "", "closure"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	closure := strings.Index(got, "## [closure](closure/README.md)")
	table := strings.Index(got, "## [table5.1](table5.1/README.md)")
	if closure < 0 || table < 0 || closure > table {
		t.Errorf("index: closure's section at %d, table5.1's at %d; want both, in experiment.All's order", closure, table)
	}
	for _, want := range []string{"Assembled by `tether repro -quick closure` at commit", "Non-uniformity degrades", "![fig](table5.1/t.png) kept as it was"} {
		if !strings.Contains(got, want) {
			t.Errorf("index lacks %q", want)
		}
	}
	for _, bad := range []string{"OLD INDEX TEXT", "## [realdata]", "## [fgpwc-cap-dev]"} {
		if strings.Contains(got, bad) {
			t.Errorf("index holds %q", bad)
		}
	}
	// Outside quick mode a long experiment without a page keeps the
	// placeholder that all gives it.
	page, err := indexFromPages(t.TempDir(), map[string]string{}, "a test", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## [fgpwc-cap-dev](fgpwc-cap-dev/README.md)", "run `tether repro fgpwc-cap-dev`", "`tether repro all` makes the index"} {
		if !strings.Contains(page, want) {
			t.Errorf("index of an empty folder lacks %q", want)
		}
	}
	if strings.Contains(page, "## [closure]") {
		t.Error("index of an empty folder has a section for closure, which has no page")
	}
}

func TestRelink(t *testing.T) {
	cases := []struct{ in, want string }{
		{"![a](fig.png) and [b](./x.csv)", "![a](e/fig.png) and [b](e/x.csv)"},
		{"[u](https://x.org/a) [h](#top) [r](/abs) [p](../up.md)", "[u](https://x.org/a) [h](#top) [r](/abs) [p](../up.md)"},
		{"no links", "no links"},
	}
	for _, c := range cases {
		if got := relink(c.in, "e"); got != c.want {
			t.Errorf("relink(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSetKnobs(t *testing.T) {
	m, err := cluster.SetKnobs(cluster.HBisection{}, []string{"alpha=0.25"})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.(cluster.HBisection).Alpha; got != 0.25 {
		t.Errorf("Alpha = %v", got)
	}
	bh, err := cluster.SetKnobs(cluster.FastGE2BH{}, []string{"Variant=LH", "R=2"})
	if err != nil {
		t.Fatal(err)
	}
	if v := bh.(cluster.FastGE2BH); v.Variant != cluster.BetheLH || v.R != 2 {
		t.Errorf("got %+v", v)
	}
	for _, bad := range []string{"nope=1", "alpha", "alpha=x"} {
		if _, err := cluster.SetKnobs(cluster.HBisection{}, []string{bad}); err == nil {
			t.Errorf("-set %s: no error", bad)
		}
	}
	// FGPWC's Laplacian by name (cluster.FGPWCLaplacian.UnmarshalText).
	for _, tc := range []struct {
		in   string
		want cluster.FGPWCLaplacian
	}{{"sym", cluster.FGPWCSymmetric}, {"unnormalized", cluster.FGPWCUnnormalized}, {"auto", cluster.FGPWCAutoLaplacian}} {
		fm, err := cluster.SetKnobs(*cluster.NewFGPWC(), []string{"Laplacian=" + tc.in, "Imprint=true", "IterCV=true"})
		if err != nil {
			t.Fatal(err)
		}
		if f := fm.(cluster.FGPWC); f.Laplacian != tc.want || !f.Imprint || !f.IterCV {
			t.Errorf("-set Laplacian=%s: got %+v", tc.in, f)
		}
	}
	if _, err := cluster.SetKnobs(*cluster.NewFGPWC(), []string{"Laplacian=rw"}); err == nil {
		t.Error("-set Laplacian=rw: no error")
	}
	// Through the CLI.
	if _, _, err := run(t, "cluster", "-gen", "moons", "-n", "200", "-k", "2", "-method", "hbisect", "-set", "Alpha=0.3", "-quiet", "-o", filepath.Join(t.TempDir(), "l")); err != nil {
		t.Error(err)
	}
}

func TestProgressBar(t *testing.T) {
	cases := []struct {
		done, total int
		want        string
	}{
		{0, 10, "[..........]"}, {5, 10, "[#####.....]"}, {10, 10, "[##########]"}, {12, 10, "[##########]"}, {3, 0, "[..........]"},
	}
	for _, c := range cases {
		if got := bar(c.done, c.total, 10); got != c.want {
			t.Errorf("bar(%d, %d) = %q, want %q", c.done, c.total, got, c.want)
		}
	}
}

func TestRecorderThrottles(t *testing.T) {
	var buf bytes.Buffer
	r := newRecorder(&buf, false)
	now := time.Unix(0, 0)
	r.now = func() time.Time { return now }
	ev := progress.Event{Stage: "eigen", Done: 1, Total: 4}
	r.Record(ev) // starts the stage, silent
	now = now.Add(500 * time.Millisecond)
	r.Record(ev) // under a second: silent
	if buf.Len() != 0 {
		t.Fatalf("printed before a second: %q", buf.String())
	}
	now = now.Add(time.Second)
	ev.Done = 2
	r.Record(ev)
	if !strings.Contains(buf.String(), "eigen: [##########..........] 2/4 (50%)") {
		t.Errorf("line %q", buf.String())
	}
	n := buf.Len()
	now = now.Add(100 * time.Millisecond)
	r.Record(ev) // within a second of the last line: silent
	if buf.Len() != n {
		t.Errorf("printed twice within a second")
	}
	q := newRecorder(&buf, true)
	q.Record(ev)
	if buf.Len() != n {
		t.Error("quiet recorder printed")
	}
}

// An unsupervised method given constraints says so instead of ignoring
// them silently.
func TestClusterWarnsAboutIgnoredConstraints(t *testing.T) {
	cons := writeTemp(t, "c.csv", "0,1,ml\n0,299,cl\n")
	out, errOut, err := run(t, "cluster", "-gen", "blobs", "-n", "300", "-k", "3", "-method", "njw", "-constraints", cons, "-quiet", "-o", filepath.Join(t.TempDir(), "l.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out+errOut, "njw ignores the 2 pairwise constraints") {
		t.Errorf("no warning about the ignored constraints:\nstdout %s\nstderr %s", out, errOut)
	}
}

// TestClusterRepeatedConstraints: a constraint file with a pair repeated
// identically (two files concatenated) is clustered with a note naming
// the lines (-quiet leaves it out); a repeat with another kind is still
// refused.
func TestClusterRepeatedConstraints(t *testing.T) {
	args := []string{"cluster", "-gen", "blobs", "-n", "300", "-k", "3", "-method", "fgpwc", "-o", filepath.Join(t.TempDir(), "l.txt")}
	cons := writeTemp(t, "c.csv", "0,1,ml\n0,299,cl\n0,1,ml\n")
	_, errOut, err := run(t, append(args, "-constraints", cons)...)
	if err != nil {
		t.Fatal(err)
	}
	want := "c.csv: ml(0,1) on line 3 repeats line 1: each repeat of a pair with the same kind and weight is used once"
	if !strings.Contains(errOut, "tether cluster: note: "+cons[:len(cons)-len("c.csv")]+want) {
		t.Errorf("stderr lacks the note %q:\n%s", want, errOut)
	}
	_, errOut, err = run(t, append(args, "-constraints", cons, "-quiet")...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errOut, want) {
		t.Errorf("-quiet: stderr has the note %q:\n%s", want, errOut)
	}
	args = append(args, "-quiet")
	bad := writeTemp(t, "b.csv", "0,1,ml\n0,1,cl\n0,1,ml\n")
	if _, _, err := run(t, append(args, "-constraints", bad)...); err == nil || !strings.Contains(err.Error(), "must-link and cannot-link on one pair") {
		t.Errorf("contradiction: error %v", err)
	}
}

// TestClusterDefaultMethod: without -method, a run given constraints or
// partial labels uses auto (and says so unless -quiet or -json), one
// without them njw.
func TestClusterDefaultMethod(t *testing.T) {
	cons := writeTemp(t, "c.csv", "0,1,ml\n0,299,cl\n2,3,ml\n2,150,cl\n")
	var lb strings.Builder
	for i := 0; i < 300; i++ {
		if i%30 == 0 {
			fmt.Fprintf(&lb, "%d,%d\n", i, i/100)
		}
	}
	labels := writeTemp(t, "l.csv", lb.String())
	base := []string{"cluster", "-gen", "blobs", "-n", "300", "-k", "3", "-o", filepath.Join(t.TempDir(), "l.txt")}
	for _, c := range []struct {
		name  string
		args  []string
		want  string
		notes bool
	}{
		{"no side information", nil, "njw", false},
		{"constraints", []string{"-constraints", cons}, "auto", true},
		{"partial labels", []string{"-partial-labels", labels}, "auto", true},
		{"explicit njw", []string{"-constraints", cons, "-method", "njw"}, "njw", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{}, base...), c.args...)
			out, errOut, err := run(t, append(args, "-json")...)
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Method string `json:"method"`
			}
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, out)
			}
			if s.Method != c.want {
				t.Errorf("method %q, want %q", s.Method, c.want)
			}
			if strings.Contains(errOut, "the default with constraints") {
				t.Errorf("-json: the note is printed:\n%s", errOut)
			}
			_, errOut, err = run(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(errOut, "method auto, the default with constraints or partial labels"); got != c.notes {
				t.Errorf("note printed %v, want %v:\n%s", got, c.notes, errOut)
			}
		})
	}
}

// repro -quick never writes into docs/results unless asked, and an explicit
// -data that is not a directory is an error (it used to exit 0, skipping
// every dataset).
func TestReproQuickOutputAndMissingData(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if _, _, err := run(t, "repro", "-quick", "-quiet", "-cache", "", "closure"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, quickOut, "closure", "README.md")); err != nil {
		t.Errorf("quick output not in %s: %v", quickOut, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "docs")); err == nil {
		t.Error("repro -quick wrote docs/")
	}
	_, _, err := run(t, "repro", "-quick", "-quiet", "-cache", "", "-data", filepath.Join(dir, "nonexistent"), "closure")
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "nonexistent is not a directory") {
		t.Errorf("-data /nonexistent: %v", err)
	}
}

// The projection methods (cpca, clpp) read the feature rows of -input and
// -gen (Problem.Features), and a graph file, which has none, is refused
// with the reason.
func TestClusterProjectionMethodsUseFeatures(t *testing.T) {
	// Two groups apart along b; a spreads each group widely, so that PCA's
	// leading direction is a and must-links along a make b the cPCA one.
	csv := "a,b,class\n0,0,x\n10,0,x\n20,0.1,x\n0,1,y\n10,1,y\n20,1.1,y\n"
	data := writeTemp(t, "d.csv", csv)
	cons := writeTemp(t, "c.csv", "# base=0\n0,2,ml\n3,5,ml\n0,3,cl\n")
	for _, method := range []string{"cpca", "clpp"} {
		out, _, err := run(t, "cluster", "-input", data, "-label", "last", "-knn", "2", "-sigma", "median", "-k", "2", "-method", method, "-set", "Dim=1", "-constraints", cons, "-o", filepath.Join(t.TempDir(), "l"), "-quiet")
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if !strings.Contains(out, "ARI") || !strings.Contains(out, "1.0000") {
			t.Errorf("%s: summary:\n%s", method, out)
		}
		if _, _, err := run(t, "cluster", "-gen", "blobs", "-n", "200", "-k", "3", "-method", method, "-quiet", "-o", filepath.Join(t.TempDir(), "l")); err != nil {
			t.Errorf("%s -gen blobs: %v", method, err)
		}
		g := writeTemp(t, "g.txt", "0 1 1\n1 2 1\n2 3 1\n3 0 1\n")
		_, _, err = run(t, "cluster", "-graph-file", g, "-k", "2", "-method", method, "-quiet", "-o", filepath.Join(t.TempDir(), "l"))
		if err == nil || !strings.Contains(err.Error(), "projects feature rows") || !strings.Contains(err.Error(), "-input") {
			t.Errorf("%s on a graph file: error %v", method, err)
		}
	}
}

// TestClusterVoteFilter: a constraint file with a tenth of its pairs
// flipped; -vote-filter reports how many it dropped, drops at least half
// of the flipped pairs here, and the clustering still runs.
func TestClusterVoteFilter(t *testing.T) {
	dir := t.TempDir()
	data, truth, cons := filepath.Join(dir, "b.csv"), filepath.Join(dir, "b.truth"), filepath.Join(dir, "b.cons")
	for _, args := range [][]string{
		{"gen", "blobs", "-n", "200", "-k", "2", "-seed", "3", "-o", data},
		{"labels", "-input", data, "-label", "label", "-o", truth},
		{"constraints", "gen", "-truth", truth, "-protocol", "pairs-1/n", "-seed", "1", "-o", cons},
	} {
		if _, stderr, err := run(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
	}
	b, err := os.ReadFile(cons)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	flipped := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "#") || i%10 != 3 {
			continue
		}
		if strings.HasSuffix(l, ",ml") {
			lines[i] = strings.TrimSuffix(l, ",ml") + ",cl"
		} else {
			lines[i] = strings.TrimSuffix(l, ",cl") + ",ml"
		}
		flipped++
	}
	noisy := writeTemp(t, "noisy.cons", strings.Join(lines, "\n")+"\n")
	_, stderr, err := run(t, "cluster", "-input", data, "-k", "2", "-method", "sl", "-constraints", noisy, "-conflicts", "soft", "-vote-filter", "-quiet", "-o", filepath.Join(dir, "pred"))
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var dropped, total int
	i := strings.Index(stderr, "-vote-filter dropped ")
	if i < 0 {
		t.Fatalf("no -vote-filter line on stderr:\n%s", stderr)
	}
	if _, err := fmt.Sscanf(stderr[i:], "-vote-filter dropped %d of %d", &dropped, &total); err != nil {
		t.Fatal(err)
	}
	if total != len(lines)-1 || dropped < flipped/2 {
		t.Errorf("dropped %d of %d pairs with %d flipped; want ≥ %d of %d", dropped, total, flipped, flipped/2, len(lines)-1)
	}
}

// -method auto puts its report (every candidate's cross-validated score,
// the choice and why) in the -json document, and lists the candidates in
// the text summary.
func TestClusterAutoReport(t *testing.T) {
	var b strings.Builder
	// The pairs only need to be valid, not true.
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%d,%d,%s\n", i, i+60, []string{"ml", "cl"}[i%2])
	}
	cons := writeTemp(t, "c.csv", b.String())
	out, _, err := run(t, "cluster", "-gen", "blobs", "-n", "150", "-k", "3", "-method", "auto", "-constraints", cons, "-json", "-quiet", "-o", filepath.Join(t.TempDir(), "l.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Report struct {
			Folds      int    `json:"folds"`
			HeldOut    int    `json:"held_out"`
			Chosen     string `json:"chosen"`
			Why        string `json:"why"`
			Baseline   string `json:"baseline"`
			Candidates []struct {
				Name       string  `json:"name"`
				Score      float64 `json:"score"`
				Supervised bool    `json:"supervised"`
				B          *int    `json:"b"`
				C          *int    `json:"c"`
			} `json:"candidates"`
		} `json:"report"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, out)
	}
	r := s.Report
	if r.Folds != cluster.AutoDefaultFolds || r.HeldOut != 60 || r.Chosen == "" || r.Why == "" || len(r.Candidates) != 15 || r.Candidates[0].Name != "njw" {
		t.Errorf("report %+v", r)
	}
	// McNemar's counts against the baseline are in the JSON.
	if r.Baseline == "" || len(r.Candidates) == 15 && (r.Candidates[5].B == nil || r.Candidates[5].C == nil || !r.Candidates[5].Supervised) {
		t.Errorf("report lacks the baseline or a constrained candidate's b and c: %+v", r)
	}
	text, _, err := run(t, "cluster", "-gen", "blobs", "-n", "150", "-k", "3", "-method", "auto", "-constraints", cons, "-quiet", "-o", filepath.Join(t.TempDir(), "l.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "auto njw") || !strings.Contains(text, "of the held-out constraints") || !strings.Contains(text, "alone, McNemar z") || !strings.Contains(text, "auto fgpwc-dw (fgpwc, Laplacian=unnormalized") {
		t.Errorf("text summary lacks the candidates:\n%s", text)
	}
	// The method line names the choice, as the JSON report does.
	if !regexp.MustCompile(`(?m)^method +auto → ` + regexp.QuoteMeta(r.Chosen) + `, k = 3, `).MatchString(text) {
		t.Errorf("the method line does not name auto's choice %s:\n%s", r.Chosen, text)
	}
}

// TestSummaryMethodLine: the summary's method line names the method and,
// for auto, the candidate its report says it chose.
func TestSummaryMethodLine(t *testing.T) {
	cases := []struct {
		name   string
		method string
		report any
		want   string
	}{
		{"plain method", "njw", nil, "method  njw, k = 3, 0.500s"},
		{"auto", "auto", &cluster.AutoReport{Chosen: "ml-noa-ssc"}, "method  auto → ml-noa-ssc, k = 3, 0.500s"},
		{"auto, candidate with knobs", "auto", &cluster.AutoReport{Chosen: "fgpwc-dw"}, "method  auto → fgpwc-dw, k = 3, 0.500s"},
		{"auto without a choice", "auto", &cluster.AutoReport{}, "method  auto, k = 3, 0.500s"},
		{"another report", "cscap", struct{ Shift float64 }{1}, "method  cscap, k = 3, 0.500s"},
	}
	for _, c := range cases {
		var b strings.Builder
		s := &summary{Input: "x.csv", Method: c.method, N: 10, K: 3, Sizes: []int{3, 3, 4}, Seconds: 0.5, Report: c.report}
		if err := printSummary(&b, s); err != nil {
			t.Fatal(err)
		}
		var got string
		for _, l := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(l, "method") {
				got = l
			}
		}
		if got != c.want {
			t.Errorf("%s: method line %q, want %q", c.name, got, c.want)
		}
	}
}

// -method auto without enough supervision to cross-validate says its
// candidates were not scored, instead of printing the report's −1 as a
// fraction of held-out constraints satisfied, in one line (review 118:
// 15–18 lines of "not scored").
func TestClusterAutoNotScored(t *testing.T) {
	text, _, err := run(t, "cluster", "-gen", "blobs", "-n", "150", "-k", "3", "-method", "auto", "-quiet", "-o", filepath.Join(t.TempDir(), "l.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "auto ") {
			lines++
			if !strings.Contains(l, "no candidate scored: no held-out constraints") || strings.Contains(l, "-1.0000") {
				t.Errorf("candidate line of an unscored auto run: %q", l)
			}
		}
	}
	if lines != 1 {
		t.Errorf("%d auto lines in the summary, want 1:\n%s", lines, text)
	}
}

// ML- and MCL-NOA-SSC put the cross-validation that chose their
// refinement and reference in the -json document when the constraints contradict each
// other (a must-link path with a cannot-link across it).
func TestClusterRefineReport(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%d,%d,%s\n", i, i+60, []string{"ml", "cl"}[i%2])
	}
	b.WriteString("0,1,ml\n1,2,ml\n0,2,cl\n")
	cons := writeTemp(t, "c.csv", b.String())
	for _, method := range []string{"mcl-noa-ssc", "ml-noa-ssc"} {
		out, stderr, err := run(t, "cluster", "-gen", "blobs", "-n", "150", "-k", "3", "-method", method, "-constraints", cons, "-conflicts", "soft", "-json", "-quiet", "-o", filepath.Join(t.TempDir(), "l.csv"))
		if err != nil {
			t.Fatalf("%s: %v\n%s", method, err, stderr)
		}
		var s struct {
			Report struct {
				Incumbent  string `json:"incumbent"`
				Chosen     string `json:"chosen"`
				Reference  string `json:"reference"`
				HeldOut    int    `json:"held_out"`
				Candidates []struct {
					Setting   string `json:"setting"`
					Satisfied int    `json:"satisfied"`
				} `json:"candidates"`
			} `json:"report"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%s: stdout is not JSON: %v\n%s", method, err, out)
		}
		r := s.Report
		// 14 candidates: 7 refinements with CSCAP's reference and 7 with
		// FAST-GE's (the reference is chosen too by default).
		if r.Incumbent != "λ=2" || r.Chosen == "" || r.HeldOut != 63 || len(r.Candidates) != 14 || r.Candidates[0].Setting != "λ=2" ||
			r.Candidates[7].Setting != "fast-ge: off" || (r.Reference != "cscap" && r.Reference != "fast-ge") {
			t.Errorf("%s: report %+v", method, r)
		}
	}
}

// TestClusterVerboseRecall: -v names the k-NN search and, for the
// approximate one, prints its recall against exact search, which -json
// also reports; a bad -knn-search is a usage error naming the choices.
func TestClusterVerboseRecall(t *testing.T) {
	args := []string{"cluster", "-gen", "blobs", "-n", "2000", "-dim", "10", "-k", "5", "-graph", "sknn", "-affinity", "binary", "-quiet", "-v", "-o", os.DevNull}
	_, errOut, err := run(t, append(args, "-knn-search", "approx")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "k-NN search: approximate (NN-descent), recall@9 = ") || !strings.Contains(errOut, "on every point") {
		t.Errorf("stderr lacks the recall line:\n%s", errOut)
	}
	out, _, err := run(t, append(args, "-knn-search", "approx", "-json")...)
	if err != nil {
		t.Fatal(err)
	}
	var sum summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	// The floor is far below the recall measured (0.99): it catches a
	// broken search, not noise.
	if sum.KNNSearch != "approximate" || sum.KNNRecall == nil || *sum.KNNRecall < 0.9 || sum.RecallRows != 2000 {
		t.Errorf("JSON search %q recall %v on %d points", sum.KNNSearch, sum.KNNRecall, sum.RecallRows)
	}
	_, errOut, err = run(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "k-NN search: exact, 9 neighbours of 2000 points") {
		t.Errorf("stderr lacks the exact-search line:\n%s", errOut)
	}
	if _, errOut, err = run(t, append(args, "-knn-search", "fast")...); err == nil || !strings.Contains(errOut+err.Error(), "approx") {
		t.Errorf("-knn-search fast: err %v, stderr %q", err, errOut)
	}
}

// TestClusterDisconnected checks -disconnected on a graph with an isolated
// node (6): fgpwc clusters the core and says how node 6 was attached by
// default; strict gives the isolated-node error; a bad value is a usage
// error.
func TestClusterDisconnected(t *testing.T) {
	g := writeTemp(t, "g.txt", "0 1 1\n1 2 1\n0 2 1\n3 4 1\n4 5 1\n3 5 1\n2 3 0.1\n6 6 0\n")
	cons := writeTemp(t, "c.txt", "0,1,ml\n3,4,ml\n0,3,cl\n")
	labels := filepath.Join(t.TempDir(), "l")
	base := []string{"cluster", "-method", "fgpwc", "-graph-file", g, "-constraints", cons, "-k", "2", "-o", labels}
	out, _, err := run(t, base...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "attached the 1 other node") {
		t.Errorf("no attachment warning:\n%s", out)
	}
	if _, _, err := run(t, append(base, "-disconnected", "strict")...); err == nil || !strings.Contains(err.Error(), "degree 0") {
		t.Errorf("-disconnected strict: err = %v, want the isolated-node error", err)
	}
	if _, _, err := run(t, append(base, "-disconnected", "drop")...); !errors.Is(err, errUsage) {
		t.Errorf("-disconnected drop: err = %v, want a usage error", err)
	}
}

// TestClusterRegularize checks -regularize on a graph the plain L_sym
// refuses (node 6 is isolated): none gives the ErrIsolated error, the
// default (auto) regularizes and says so in a note, a bad value is a usage
// error.
func TestClusterRegularize(t *testing.T) {
	g := writeTemp(t, "g.txt", "0 1 1\n1 2 1\n0 2 1\n3 4 1\n4 5 1\n3 5 1\n2 3 0.1\n6 6 0\n")
	labels := filepath.Join(t.TempDir(), "l")
	// njw regularizes unless told not to: the advice says to let it.
	if _, _, err := run(t, "cluster", "-graph-file", g, "-k", "2", "-regularize", "none", "-o", labels, "-quiet"); err == nil || !strings.Contains(err.Error(), "isolated") || !strings.Contains(err.Error(), "-regularize auto") || strings.Contains(err.Error(), "use a method that") {
		t.Errorf("-regularize none: err = %v, want the isolated-node error advising -regularize auto", err)
	}
	for _, reg := range []string{"", "auto", "mean", "2.5", "mean+complete"} {
		args := []string{"cluster", "-graph-file", g, "-k", "2", "-o", labels, "-quiet"}
		if reg != "" {
			args = append(args, "-regularize", reg)
		}
		out, _, err := run(t, args...)
		if err != nil {
			t.Fatalf("-regularize %q: %v", reg, err)
		}
		// The regularization is a note, whether the auto rule (the
		// default) chose it or it was asked for: it is what the flag
		// documents. It was a warning under the default.
		if !regexp.MustCompile(`(?m)^note +L_sym regularized`).MatchString(out) || regexp.MustCompile(`(?m)^warning +L_sym regularized`).MatchString(out) {
			t.Errorf("-regularize %q: want the regularization as a note, not a warning:\n%s", reg, out)
		}
	}
	if _, _, err := run(t, "cluster", "-graph-file", g, "-k", "2", "-regularize", "lots", "-o", labels, "-quiet"); !errors.Is(err, errUsage) {
		t.Errorf("-regularize lots: err = %v, want a usage error", err)
	}
}

// TestClusterMethodFlags checks that -regularize and -disconnected are
// usage errors with a method that does not read them (review 95: -method
// sl -regularize mean ran as if the flag were not there), naming the
// methods that do, and accepted by those that do, knobs included (sscka
// reads -disconnected with its default kernel, not with ratio-cut).
func TestClusterMethodFlags(t *testing.T) {
	// Two triangles joined by an edge, and node 6 isolated.
	g := writeTemp(t, "g.txt", "0 1 1\n1 2 1\n0 2 1\n3 4 1\n4 5 1\n3 5 1\n2 3 0.1\n6 6 0\n")
	cons := writeTemp(t, "c.txt", "0,1,ml\n3,4,ml\n0,3,cl\n")
	labels := filepath.Join(t.TempDir(), "l")
	for _, tc := range []struct {
		name  string
		args  []string
		usage string // "" when accepted
	}{
		{"sl -regularize", []string{"-method", "sl", "-constraints", cons, "-regularize", "mean"}, "-regularize does not apply to -method sl, which does not read it; the methods that do: auto, ccsr, cscap, mcl-noa-ssc, ml-noa-ssc, ncut, njw"},
		{"usc -regularize none", []string{"-method", "usc", "-regularize", "none"}, "-regularize does not apply to -method usc"},
		{"fgpwc -regularize auto", []string{"-method", "fgpwc", "-constraints", cons, "-regularize", "auto"}, "-regularize does not apply to -method fgpwc"},
		{"njw -disconnected", []string{"-method", "njw", "-disconnected", "strict"}, "-disconnected does not apply to -method njw, which does not read it; the methods that do: auto, csc, csp,"},
		{"sscka ratio-cut -disconnected", []string{"-method", "sscka", "-set", "Objective=ratio-cut", "-constraints", cons, "-disconnected", "attach"}, "-disconnected does not apply to -method sscka with the knobs -set gives it"},
		{"njw -regularize", []string{"-method", "njw", "-regularize", "mean"}, ""},
		{"ml-noa-ssc -regularize", []string{"-method", "ml-noa-ssc", "-constraints", cons, "-regularize", "mean"}, ""},
		{"auto -regularize -disconnected", []string{"-constraints", cons, "-regularize", "mean", "-disconnected", "attach"}, ""},
		{"sscka -disconnected", []string{"-method", "sscka", "-constraints", cons, "-disconnected", "attach"}, ""},
		{"fgpwc -disconnected", []string{"-method", "fgpwc", "-constraints", cons, "-disconnected", "attach"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"cluster", "-graph-file", g, "-k", "2", "-o", labels, "-quiet"}, tc.args...)
			_, _, err := run(t, args...)
			switch {
			case tc.usage == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tc.usage != "" && (!errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.usage)):
				t.Errorf("err = %v, want a usage error holding %q", err, tc.usage)
			}
		})
	}
}

// TestClusterRepair checks -repair on a graph whose smallest eigenvalues
// lie below Lanczos' resolution (four 150-node rings chained by edges of
// 10⁻⁹ to 10⁻⁸, plus six pendants of 10⁻¹⁰ to 3·10⁻⁹: the graph of
// cluster's TestShiftInvertResolvesTinyEigenvalues), clustered by usc:
// auto and always repair the embedding by shift-and-invert and say so,
// never keeps the iterative result with its warning, a bad value is a
// usage error.
func TestClusterRepair(t *testing.T) {
	var b strings.Builder
	const ring, rings = 150, 4
	for r := 0; r < rings; r++ {
		for i := 0; i < ring; i++ {
			for step := 1; step <= 2; step++ {
				fmt.Fprintf(&b, "%d %d 1\n", r*ring+i, r*ring+(i+step)%ring)
			}
		}
	}
	for r, w := range []string{"1e-9", "3e-9", "1e-8"} {
		fmt.Fprintf(&b, "%d %d %s\n", r*ring+7, (r+1)*ring+70, w)
	}
	for p, w := range []string{"1e-10", "2e-10", "5e-10", "1e-9", "2e-9", "3e-9"} {
		fmt.Fprintf(&b, "%d %d %s\n", rings*ring+p, 20*p, w)
	}
	g := writeTemp(t, "rings.txt", b.String())
	labels := filepath.Join(t.TempDir(), "l")
	for _, tc := range []struct {
		repair   string
		repaired bool
	}{
		{"", true}, {"auto", true}, {"always", true}, {"NEVER", false},
	} {
		// usc's L is unnormalized: it reads no -regularize (a usage error).
		args := []string{"cluster", "-graph-file", g, "-method", "usc", "-k", "10", "-o", labels, "-quiet"}
		if tc.repair != "" {
			args = append(args, "-repair", tc.repair)
		}
		out, _, err := run(t, args...)
		if err != nil {
			t.Fatalf("-repair %q: %v", tc.repair, err)
		}
		if got := strings.Contains(out, "resolved by a shift-and-invert solve"); got != tc.repaired {
			t.Errorf("-repair %q: repaired %v, want %v:\n%s", tc.repair, got, tc.repaired, out)
		}
		if !tc.repaired && !strings.Contains(out, "below the eigensolver's resolution") {
			t.Errorf("-repair %q: no warning:\n%s", tc.repair, out)
		}
	}
	if _, _, err := run(t, "cluster", "-graph-file", g, "-k", "2", "-repair", "sometimes", "-o", labels, "-quiet"); !errors.Is(err, errUsage) {
		t.Errorf("-repair sometimes: err = %v, want a usage error", err)
	}
}

// TestClusterStdinInput checks that "-" as an input file is a usage error
// that says standard input is not read, not a failure to open a file
// named "-".
func TestClusterStdinInput(t *testing.T) {
	for _, flag := range []string{"-input", "-graph-file", "-constraints", "-truth"} {
		args := []string{"cluster", "-k", "2", flag, "-"}
		if flag != "-input" && flag != "-graph-file" {
			args = append(args, "-gen", "moons")
		}
		_, _, err := run(t, args...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "standard input") {
			t.Errorf("%s -: err = %v, want a usage error about standard input", flag, err)
		}
	}
}

// TestClusterNamedConstraints: with a graph whose nodes have names, the
// constraints file may name them (it had to number them, in the order of
// first appearance, which the user cannot see), and conflicts are named
// as the file writes them; a file that numbers them still works.
func TestClusterNamedConstraints(t *testing.T) {
	g := writeTemp(t, "g.edges", "alice bob\nbob carol\ncarol alice\ndave erin\nerin frank\nfrank dave\ncarol dave\n")
	for _, c := range []struct {
		name, cons string
		wantErr    string
	}{
		{"by name", "alice,bob,ml\nalice,frank,cl\n", ""},
		{"by index", "0,1,ml\n0,5,cl\n", ""},
		{"conflict by name", "alice,bob,ml\nbob,alice,cl\n", "must-link and cannot-link on one pair: ml(alice,bob) ["},
		{"unknown name", "alice,zoe,ml\n", `c.txt:1: unknown node name "zoe"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "c.txt")
			if err := os.WriteFile(p, []byte(c.cons), 0o644); err != nil {
				t.Fatal(err)
			}
			out, _, err := run(t, "cluster", "-graph-file", g, "-k", "2", "-method", "sl", "-constraints", p, "-quiet")
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// The must-link joins alice and bob, the cannot-link parts
			// alice and frank: the two triangles.
			cl := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
				name, k, _ := strings.Cut(line, ",")
				cl[name] = k
			}
			if cl["alice"] != cl["bob"] || cl["alice"] == cl["frank"] || cl["carol"] != cl["alice"] || cl["dave"] != cl["frank"] {
				t.Errorf("clusters %v", cl)
			}
		})
	}
}

// TestFileArgHint: a file given without its flag is a usage error that
// names the flags taking it, and says when flags after it went unread; an
// argument that is no file gets no hint.
func TestFileArgHint(t *testing.T) {
	p := writeTemp(t, "d.csv", "a,b\n0,0\n1,1\n5,5\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cluster", p, "-k", "2"}, `cluster: unexpected argument "` + p + `": files are named by flags, -input ` + p + ` for a feature table or -graph-file ` + p + ` for a graph (the flags after it were not read)`},
		{[]string{"cluster", p}, `-graph-file ` + p + ` for a graph`},
		{[]string{"labels", p}, `labels: unexpected argument "` + p + `": files are named by flags, -input`},
		{[]string{"eval", p, p}, `eval: unexpected argument "` + p + `": files are named by flags, -truth FILE and -pred FILE`},
		{[]string{"powerlaw", "fit", p}, `powerlaw fit: unexpected argument "` + p + `": files are named by flags, -input ` + p},
		{[]string{"cluster", "no-such-file.csv"}, `cluster: unexpected argument "no-such-file.csv"`},
	} {
		_, _, err := run(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.args, err, c.want)
		}
		if len(c.args) == 2 && strings.Contains(err.Error(), "not read") {
			t.Errorf("%q: %v speaks of unread flags", c.args, err)
		}
	}
	if _, _, err := run(t, "cluster", "no-such-file.csv"); err == nil || strings.Contains(err.Error(), "files are named") {
		t.Errorf("no file: %v", err)
	}
}

// TestUnknownFlagHint: a misspelt flag suggests the close one, in any
// command; a flag close to none gets no hint.
func TestUnknownFlagHint(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cluster", "-gen", "moons", "-constraint", "c.txt"}, "flag provided but not defined: -constraint: did you mean -constraints? ("},
		{[]string{"eval", "--truht", "t.txt"}, "flag provided but not defined: -truht: did you mean -truth? ("},
		{[]string{"cluster", "-gen", "moons", "-kn", "3"}, "flag provided but not defined: -kn ("},
	} {
		_, _, err := run(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.args, err, c.want)
		}
	}
}

// TestClusterOneRowHint: the hint that a file of one line is read as one
// data row comes only when no header was read; a header above one data row
// (a file of two lines) got it too, which named a case that was not the
// file's.
func TestClusterOneRowHint(t *testing.T) {
	const hint = "a file of one line is read as one data row"
	for _, tc := range []struct {
		name, file string
		hint       bool
	}{
		{"header only", "x1,x2\n", true},
		{"one number row", "1,2\n", true},
		{"header and one row", "x1,x2\n1,2\n", false},
		{"header, names and one row", "name,x1\na,1\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, "data.csv", tc.file)
			_, _, err := run(t, "cluster", "-quiet", "-k", "2", "-input", path, "-o", filepath.Join(t.TempDir(), "l"))
			if err == nil || !strings.Contains(err.Error(), "data.csv has 1 data row") {
				t.Fatalf("err = %v, want one saying data.csv has 1 data row", err)
			}
			if got := strings.Contains(err.Error(), hint); got != tc.hint {
				t.Errorf("err = %v: hint %v, want %v", err, got, tc.hint)
			}
		})
	}
}

// An unknown subcommand is a usage error that suggests the command meant,
// when one is close, and says where the commands are listed. It prints
// nothing but the error (exitCode prints it, on standard error, exit
// status 2): not the list of commands before it.
func TestUnknownSubcommand(t *testing.T) {
	const hint = ` (run "tether help" for the commands)`
	for _, tc := range []struct{ arg, want string }{
		{"clustr", `unknown subcommand "clustr": did you mean cluster?` + hint},
		{"contraints", `unknown subcommand "contraints": did you mean constraints?` + hint},
		{"xyzzy", `unknown subcommand "xyzzy"` + hint},
	} {
		out, stderr, err := run(t, tc.arg)
		if !errors.Is(err, errUsage) || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want a usage error ending %q", tc.arg, err, tc.want)
		}
		if out != "" || stderr != "" {
			t.Errorf("%s: printed stdout %q, stderr %q before the error, want nothing", tc.arg, out, stderr)
		}
		var b strings.Builder
		if code := exitCode(context.Background(), err, &b); code != 2 || strings.Count(b.String(), "\n") != 1 {
			t.Errorf("%s: exit status %d, stderr %q, want 2 and one line", tc.arg, code, b.String())
		}
	}
}

// repro all leaves the long experiments out unless -quick, and lists them
// in the index from their pages as they were.
func TestReproAllKeepsLongPages(t *testing.T) {
	list := []experiment.Experiment{{Name: "a"}, {Name: "b", Long: true}, {Name: "c"}}
	names := func(es []experiment.Experiment) (s []string) {
		for _, e := range es {
			s = append(s, e.Name)
		}
		return s
	}
	run, kept := splitLong(list, false)
	if !reflect.DeepEqual(names(run), []string{"a", "c"}) || !reflect.DeepEqual(names(kept), []string{"b"}) {
		t.Errorf("all: runs %v, keeps %v", names(run), names(kept))
	}
	run, kept = splitLong(list, true)
	if !reflect.DeepEqual(names(run), []string{"a", "b", "c"}) || kept != nil {
		t.Errorf("all -quick: runs %v, keeps %v", names(run), names(kept))
	}
	if !slices.ContainsFunc(experiment.All(), func(e experiment.Experiment) bool { return e.Name == "fgpwc-cap-dev" && e.Long }) {
		t.Error("fgpwc-cap-dev is not marked Long")
	}

	dir := t.TempDir()
	e := experiment.Experiment{Name: "b", Title: "B's title", Long: true}
	sec, err := keptSection(dir, e)
	if err != nil || !strings.Contains(sec, "## [b](b/README.md): B's title") || !strings.Contains(sec, "run `tether repro b`") {
		t.Errorf("no page: %q, %v", sec, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b", "README.md"), []byte("# B\n\n![fig](b.png)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sec, err = keptSection(dir, e)
	if want := "## [b](b/README.md): B's title\n\n### B\n\n![fig](b/b.png)\n\n"; err != nil || sec != want {
		t.Errorf("kept page: %q, %v; want %q", sec, err, want)
	}
}

// TestClusterPlotFormats: -plot writes PNG or SVG by the extension of its
// file, in any case; another extension, or none, is a usage error before
// anything is computed (a p.svg used to hold PNG data).
func TestClusterPlotFormats(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		file, magic string // magic: how the file begins; "" for an error
	}{
		{"p.png", "\x89PNG"},
		{"P.PNG", "\x89PNG"},
		{"p.svg", "<?xml"},
		{"p.SVG", "<?xml"},
		{"p.jpg", ""},
		{"p", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			_, _, err := run(t, "cluster", "-gen", "moons", "-n", "60", "-k", "2", "-quiet", "-o", filepath.Join(dir, "l.csv"), "-plot", path)
			if tc.magic == "" {
				if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "-plot: ") {
					t.Errorf("error %v, want a usage error on -plot", err)
				}
				if _, err := os.Stat(path); err == nil {
					t.Errorf("%s written", tc.file)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b, []byte(tc.magic)) || tc.magic == "<?xml" && !bytes.Contains(b, []byte("<svg")) {
				t.Errorf("%s begins %q, want %q", tc.file, b[:min(len(b), 16)], tc.magic)
			}
		})
	}
}

// TestMissingKNamesTheReferenceClasses: without -k, for a method that
// does not estimate k, the usage error says how many classes the reference
// labels have, when there are some; k is not taken from them.
func TestMissingKNamesTheReferenceClasses(t *testing.T) {
	dir := t.TempDir()
	table := evalWriteTemp(t, dir, "t.csv", "x,y,type\n0,0,a\n0,1,a\n1,0,b\n5,5,b\n5,6,c\n6,5,c\n")
	truth := evalWriteTemp(t, dir, "t.truth", "0\n0\n1\n1\n1\n1\n")
	for _, tc := range []struct {
		name string
		args []string
		want string // the end of the message; "" for none
	}{
		{"-label by name", []string{"-input", table, "-label", "type"}, "; the reference column of " + table + " (-label type) has 3 classes: -k 3 asks for one cluster per class"},
		{"-truth", []string{"-input", table, "-label", "none", "-categorical", "type", "-truth", truth}, "; the reference labels of -truth " + truth + " have 2 classes: -k 2 asks for one cluster per class"},
		{"generated", []string{"-gen", "blobs", "-n", "30", "-gen-k", "4"}, "; the reference labels of generated blobs have 4 classes: -k 4 asks for one cluster per class"},
		{"no reference", []string{"-input", table, "-label", "none", "-categorical", "type"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := run(t, append([]string{"cluster", "-quiet", "-o", filepath.Join(dir, "l.csv")}, tc.args...)...)
			if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "give -k, the number of clusters") {
				t.Fatalf("error %v, want the usage error on -k", err)
			}
			if msg := err.Error(); tc.want != "" && !strings.HasSuffix(msg, tc.want) || tc.want == "" && strings.Contains(msg, "classes") {
				t.Errorf("error %q, want it to end in %q", msg, tc.want)
			}
		})
	}
}

// -normalize-weights divides the weights by the largest edge weight, with
// a note: sl on a graph of weights up to 250 warns that it reads weights
// as similarities without it, naming the flag, and not with it; a unit-weight graph is
// left as it is, without a note; the labels are sl's on the divided
// graph either way.
func TestClusterNormalizeWeights(t *testing.T) {
	heavy := writeTemp(t, "w.txt", "0 1 250\n1 2 250\n0 2 250\n3 4 250\n4 5 250\n3 5 250\n2 3 20\n")
	divided := writeTemp(t, "d.txt", "0 1 1\n1 2 1\n0 2 1\n3 4 1\n4 5 1\n3 5 1\n2 3 0.08\n")
	cons := writeTemp(t, "c.txt", "0,5,cl\n1,2,ml\n")
	type sum struct {
		Warnings, Notes []string
		Labels          []int
	}
	get := func(args ...string) sum {
		t.Helper()
		out, _, err := run(t, append([]string{"cluster", "-constraints", cons, "-k", "2", "-method", "sl", "-json"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var s sum
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	const warned = "sl: the largest edge weight is 250 (nodes 0 and 1), above 1"
	const noted = "-normalize-weights: every weight divided by the largest edge weight, 250"
	plain, norm, ref, unit := get("-graph-file", heavy), get("-graph-file", heavy, "-normalize-weights"), get("-graph-file", divided), get("-graph-file", divided, "-normalize-weights")
	has := func(list []string, s string) bool {
		for _, x := range list {
			if strings.Contains(x, s) {
				return true
			}
		}
		return false
	}
	if !has(plain.Warnings, warned) || has(plain.Notes, noted) {
		t.Errorf("without the flag: warnings %q, notes %q", plain.Warnings, plain.Notes)
	}
	// The remedy as tether's flag (cluster.Settings.Spelling).
	if !has(plain.Warnings, "(graph.Graph.Normalized; tether: -normalize-weights)") {
		t.Errorf("without the flag: warnings %q do not name -normalize-weights", plain.Warnings)
	}
	if has(norm.Warnings, warned) || !has(norm.Notes, noted) {
		t.Errorf("with the flag: warnings %q, notes %q", norm.Warnings, norm.Notes)
	}
	if has(unit.Notes, "-normalize-weights") {
		t.Errorf("unit weights: notes %q", unit.Notes)
	}
	if !slices.Equal(norm.Labels, ref.Labels) || !slices.Equal(unit.Labels, ref.Labels) {
		t.Errorf("labels %v (normalized) and %v (unit, normalized), want those of the divided graph, %v", norm.Labels, unit.Labels, ref.Labels)
	}
}

// TestClusterRemediesNameFlags: the errors and warnings of clustering
// name their remedies as tether's flags after the library's
// (cluster.Settings.Spelling set to the zero dataset.Spelling): auto
// with one pair names -method, sl on a pair both must-link and
// cannot-link (read with -conflicts soft) names -conflicts drop-cl;
// neither names a job's field or tether serve's controls.
func TestClusterRemediesNameFlags(t *testing.T) {
	g := writeTemp(t, "g.txt", "0 1\n1 2\n0 2\n3 4\n4 5\n3 5\n2 3\n")
	one := writeTemp(t, "one.txt", "0,1,ml\n")
	both := writeTemp(t, "both.txt", "0,1,ml\n0,1,cl\n")
	for _, c := range []struct {
		name string
		args []string
		want string // in the error or the warnings
	}{
		{"auto with one pair", []string{"-method", "auto", "-constraints", one}, "(cluster.New(name), or its type such as cluster.SpectralLearning{}; tether: -method)"},
		{"sl on a contradictory pair", []string{"-method", "sl", "-constraints", both, "-conflicts", "soft"}, "resolve the contradiction first (constraint.Resolve; tether: -conflicts drop-cl)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, err := run(t, append([]string{"cluster", "-graph-file", g, "-k", "2", "-json", "-quiet"}, c.args...)...)
			msgs := out + stderr
			if err != nil {
				msgs += err.Error()
			}
			if !strings.Contains(msgs, c.want) {
				t.Errorf("output %s, stderr %s, error %v: want %q", out, stderr, err, c.want)
			}
			for _, w := range []string{"job:", "serve:", `"self_loops"`, "the page's"} {
				if strings.Contains(msgs, w) {
					t.Errorf("%s names %q, another front end's", msgs, w)
				}
			}
		})
	}
}

// bethe's k estimated on the README tour's moons (the 10-NN graph of
// tether gen moons -n 1000 -noise 0.12 -seed 1) is 83 clusters: a warning
// says the estimate is unreliable on such a graph and to give -k
// (cluster.BetheHessian: more than √n clusters). It printed only the note
// of the estimate.
func TestClusterBetheImplausibleK(t *testing.T) {
	data := filepath.Join(t.TempDir(), "moons.csv")
	if _, _, err := run(t, "gen", "moons", "-n", "1000", "-noise", "0.12", "-seed", "1", "-o", data); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := run(t, "cluster", "-input", data, "-method", "bethe", "-k", "0", "-o", filepath.Join(t.TempDir(), "pred"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "tether cluster: note: k = 83 estimated from the negative eigenvalues") ||
		!strings.Contains(stderr, "tether cluster: warning: bethe: k = 83 estimated for 1000 nodes is implausible") ||
		!strings.Contains(stderr, "the estimate is unreliable on this graph; give k (Problem.K; tether: -k)\n") {
		t.Errorf("stderr:\n%s\nwant the note of k = 83 and a warning that it is implausible, ending give k (Problem.K; tether: -k)", stderr)
	}
}

// TestDisconnectedWarningNamesKNN: the warning of a disconnected graph
// names -knn when the graph was built from a feature table's rows as a
// k-NN graph, and no flag for a graph file or an ε-graph, where -knn is a
// usage error (inputSpelling; stop 58's notes: "a graph with more
// neighbours" named no flag; review 134: the ε-graph's named it).
func TestDisconnectedWarningNamesKNN(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "%d.%02d,%d\n", (i%3)*50, i, i%2)
	}
	table := writeTemp(t, "blobs.csv", b.String())
	edges := writeTemp(t, "tri.edges", "0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n6 7\n7 8\n8 6\n")
	const warning = "otherwise a graph with more neighbours joins them"
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"feature table", []string{"-input", table, "-knn", "3"}, warning + " (tether: -knn))"},
		{"graph file", []string{"-graph-file", edges}, warning + ")"},
		// -knn does not apply to an ε-graph (review 134).
		{"eps graph", []string{"-input", table, "-graph", "eps", "-eps", "5"}, warning + ")"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, err := run(t, append([]string{"cluster", "-k", "2", "-regularize", "none", "-quiet", "-o", filepath.Join(t.TempDir(), "l.csv")}, c.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %s\nwant %q", stderr, c.want)
			}
		})
	}
}
