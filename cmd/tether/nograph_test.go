package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClusterFeatureMethodsBuildNoGraph: for a method that reads the
// feature rows alone (cpca, cvqe, plmeans -set Kernel=features;
// input.ReadsGraph), tether cluster builds no k-NN graph from -input: a
// note says so, the summary's graph line says "none built" and its JSON
// has no edges or ncut, and the labels are those of the same run that
// builds the graph for -graph-out (before, every run built it, and at
// 10⁵ rows it took most of the run). A method that reads a graph (njw,
// plmeans with its default kernel), and -vote-filter, which votes along
// the graph's edges, still build it; so does -plot of a one-column table,
// which draws the graph's layout.
func TestClusterFeatureMethodsBuildNoGraph(t *testing.T) {
	dir := t.TempDir()
	data, truth, cons := filepath.Join(dir, "b.csv"), filepath.Join(dir, "b.truth"), filepath.Join(dir, "b.cons")
	for _, args := range [][]string{
		{"gen", "blobs", "-n", "300", "-k", "3", "-seed", "3", "-o", data},
		{"labels", "-input", data, "-label", "label", "-o", truth},
		{"constraints", "gen", "-truth", truth, "-protocol", "pairs-1/n", "-seed", "1", "-o", cons},
	} {
		if _, stderr, err := run(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
	}
	const note = "no graph built: "
	// cluster runs tether cluster on data with args, returning the labels
	// written, the JSON summary and standard error.
	cluster := func(args ...string) (labels string, sum map[string]any, stderr string) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "labels")
		stdout, stderr, err := run(t, append([]string{"cluster", "-input", data, "-seed", "2", "-json", "-o", out}, args...)...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr)
		}
		if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stdout)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b), sum, stderr
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"cpca", []string{"-method", "cpca", "-k", "3", "-constraints", cons}},
		{"cvqe", []string{"-method", "cvqe", "-k", "3", "-constraints", cons}},
		{"plmeans features", []string{"-method", "plmeans", "-set", "Kernel=features"}},
	} {
		labels, sum, stderr := cluster(c.args...)
		if !strings.Contains(stderr, note) {
			t.Errorf("%s: standard error does not say %q:\n%s", c.name, note, stderr)
		}
		for _, key := range []string{"edges", "components", "ncut"} {
			if _, ok := sum[key]; ok {
				t.Errorf("%s: the summary has %s without a graph: %v", c.name, key, sum[key])
			}
		}
		if sum["n"] != 300.0 {
			t.Errorf("%s: summary n = %v, want 300", c.name, sum["n"])
		}
		// The graph built for -graph-out: the same labels.
		built, bsum, bstderr := cluster(append(c.args, "-graph-out", filepath.Join(t.TempDir(), "g.txt"))...)
		if strings.Contains(bstderr, note) || bsum["edges"] == nil || bsum["ncut"] == nil {
			t.Errorf("%s -graph-out: the graph was not built (edges %v, ncut %v):\n%s", c.name, bsum["edges"], bsum["ncut"], bstderr)
		}
		if labels != built || len(labels) < 300*4 {
			t.Errorf("%s: labels without the graph differ from those with it (%d and %d bytes)", c.name, len(labels), len(built))
		}
		// The text summary says none was built.
		text, _, err := run(t, append([]string{"cluster", "-input", data, "-o", filepath.Join(t.TempDir(), "l"), "-quiet"}, c.args...)...)
		if want := "none built (" + strings.Fields(c.name)[0] + " reads the feature rows only), 300 nodes"; err != nil || !strings.Contains(text, want) || strings.Contains(text, "Ncut") {
			t.Errorf("%s: text summary (%v) lacks %q or has an Ncut:\n%s", c.name, err, want, text)
		}
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"njw", []string{"-method", "njw", "-k", "3"}},
		{"plmeans ncut", []string{"-method", "plmeans"}},
		{"cpca -vote-filter", []string{"-method", "cpca", "-k", "3", "-constraints", cons, "-vote-filter"}},
	} {
		_, sum, stderr := cluster(c.args...)
		if strings.Contains(stderr, note) || sum["edges"] == nil {
			t.Errorf("%s: no graph built (edges %v):\n%s", c.name, sum["edges"], stderr)
		}
	}
	// -plot of one feature draws the graph's spectral layout: built.
	one := writeTemp(t, "one.csv", "x\n0\n0.1\n0.2\n5\n5.1\n5.2\n9\n9.1\n9.2\n")
	_, stderr, err := run(t, "cluster", "-input", one, "-method", "cvqe", "-k", "3", "-knn", "2", "-o", filepath.Join(t.TempDir(), "l"), "-plot", filepath.Join(t.TempDir(), "p.png"))
	if err != nil || strings.Contains(stderr, note) {
		t.Errorf("cvqe -plot of one feature: %v, want the graph built:\n%s", err, stderr)
	}
}

// TestClusterCoclusterNoGraphWarning: tether cluster -bipartite builds
// the matrix's bipartite graph for the methods of a graph and for its
// summary; cocluster, which reads the matrix alone and now warns of a
// graph given beside it (cluster.CoCluster), is not handed that graph
// (input.NewProblem), so no run of the CLI warns that a graph it never
// asked for is ignored. The summary still reports that graph.
func TestClusterCoclusterNoGraphWarning(t *testing.T) {
	mat, docs, terms := bipartiteFiles(t)
	for _, method := range []string{"cocluster", "l1csc"} {
		out, stderr, err := run(t, "cluster", "-bipartite", mat, "-row-names", docs, "-col-names", terms, "-method", method, "-k", "2", "-o", filepath.Join(t.TempDir(), "l"))
		if err != nil {
			t.Fatalf("%s: %v\n%s", method, err, stderr)
		}
		if strings.Contains(stderr, "ignore") || strings.Contains(out, "ignore") {
			t.Errorf("%s: a warning of something ignored:\n%s%s", method, stderr, out)
		}
		if !strings.Contains(out+stderr, "12 nodes, 19 edges") {
			t.Errorf("%s: the summary lacks the bipartite graph:\n%s%s", method, out, stderr)
		}
	}
}

// TestClusterUnusedGraphFlags: the flags that shape the graph built from
// feature rows (-knn, -self-loops, …) draw a warning naming them when the
// method builds none (cpca), and none when the graph is built for
// -graph-out or no such flag was given; before, they did nothing without
// a word.
func TestClusterUnusedGraphFlags(t *testing.T) {
	data := writeTemp(t, "b.csv", "x,y\n0,0\n0.1,0\n0,0.2\n5,5\n5.1,5\n5,5.2\n9,0\n9.1,0\n9,0.1\n")
	const warn = "apply to no graph here: cpca reads the feature rows only"
	for _, c := range []struct {
		name string
		args []string
		want string // "" for no warning
	}{
		{"two flags", []string{"-knn", "3", "-self-loops", "1"}, "-knn, -self-loops " + warn},
		{"one flag", []string{"-affinity", "binary"}, "-affinity applies to no graph here: cpca reads the feature rows only (-graph-out writes the graph it would build)"},
		{"verbose", []string{"-v"}, "-v applies to no graph here"},
		// More neighbours than the 9 rows allow: no graph, so no
		// refusal (review 159).
		{"knn above n", []string{"-knn", "20"}, "-knn applies to no graph here"},
		{"none", nil, ""},
		{"graph out", []string{"-knn", "3", "-graph-out", filepath.Join(t.TempDir(), "g.txt")}, ""},
		{"graph out, default knn", []string{"-graph-out", filepath.Join(t.TempDir(), "g.txt")}, ""},
	} {
		args := append([]string{"cluster", "-input", data, "-method", "cpca", "-k", "3", "-o", filepath.Join(t.TempDir(), "l")}, c.args...)
		_, stderr, err := run(t, args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, stderr)
		}
		switch {
		case c.want != "" && !strings.Contains(stderr, "warning: "+c.want):
			t.Errorf("%s: standard error lacks %q:\n%s", c.name, c.want, stderr)
		case c.want == "" && strings.Contains(stderr, "no graph here"):
			t.Errorf("%s: a warning of unused graph flags:\n%s", c.name, stderr)
		}
		// The 9 rows are few for the default 10-NN graph: the warning
		// that the graph was built with fewer neighbours is given when
		// one is built, and not of a graph not built (review 159).
		none, fewer := strings.Contains(stderr, "no graph built"), strings.Contains(stderr, "the graph was built with")
		if none && fewer || c.name == "graph out, default knn" && !fewer {
			t.Errorf("%s: note of no graph %v, warning of a graph built with fewer neighbours %v:\n%s", c.name, none, fewer, stderr)
		}
	}
}

// TestClusterVoteFilterNeedsConstraints: -vote-filter without
// -constraints is a usage error naming the flag it filters; it was a
// silent no-op, with or without -partial-labels.
func TestClusterVoteFilterNeedsConstraints(t *testing.T) {
	data := writeTemp(t, "b.csv", "x,y\n0,0\n0.1,0\n0,0.2\n5,5\n5.1,5\n5,5.2\n9,0\n9.1,0\n9,0.1\n")
	partial := writeTemp(t, "p.csv", "node,label\n0,0\n3,1\n")
	for _, extra := range [][]string{nil, {"-partial-labels", partial}} {
		args := append([]string{"cluster", "-input", data, "-k", "3", "-knn", "3", "-vote-filter", "-o", filepath.Join(t.TempDir(), "l")}, extra...)
		_, _, err := run(t, args...)
		if want := "-vote-filter filters the pairs of -constraints FILE, and none was given"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v, want it to say %q", extra, err, want)
		}
	}
}
