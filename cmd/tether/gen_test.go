package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/synth"
)

func runGenCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	err = m.Run(context.Background(), append([]string{"gen"}, args...))
	return out.String(), errb.String(), err
}

func TestGenPoints(t *testing.T) {
	cases := []struct {
		args    []string
		n, p, k int
	}{
		{[]string{"moons", "-n", "50", "-seed", "3"}, 50, 2, 2},
		{[]string{"-n", "40", "circles", "-factor", "0.3"}, 40, 2, 2},
		{[]string{"interlaced", "-n", "30", "-k", "3"}, 30, 2, 3},
		{[]string{"xor", "-n", "20", "-noise", "0"}, 20, 2, 2},
		{[]string{"blobs", "-n", "60", "-k", "4", "-dim", "5"}, 60, 5, 4},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, _, err := runGenCLI(t, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			tb, err := dataset.Read(context.Background(), strings.NewReader(out), "gen.csv", dataset.Options{LabelColumn: "label"})
			if err != nil {
				t.Fatalf("reading the output back: %v\n%s", err, out)
			}
			n, p := tb.Dims()
			if n != c.n || p != c.p || len(tb.ClassNames) != c.k {
				t.Errorf("%d×%d with %d classes, want %d×%d with %d", n, p, len(tb.ClassNames), c.n, c.p, c.k)
			}
			again, _, _ := runGenCLI(t, c.args...)
			if again != out {
				t.Error("same flags, different output")
			}
		})
	}
}

func TestGenSBM(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.txt")
	_, stderr, err := runGenCLI(t, "sbm", "-n", "200", "-k", "2", "-cin", "12", "-cout", "1", "-o", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "detectable") {
		t.Errorf("stderr %q lacks the threshold report", stderr)
	}
	d, err := dataset.ReadGraphFileOptions(context.Background(), out, dataset.GraphOptions{Base: dataset.Base0, NumNodes: 200})
	if err != nil {
		t.Fatal(err)
	}
	labels, err := dataset.ReadLabelsFile(filepath.Join(dir, "g.labels"))
	if err != nil {
		t.Fatal(err)
	}
	if d.G.N() != 200 || len(labels) != 200 || labels[0] != 0 || labels[199] != 1 {
		t.Errorf("graph with %d nodes, %d labels", d.G.N(), len(labels))
	}
	// Matrix Market by extension.
	mtx := filepath.Join(dir, "g.mtx")
	if _, _, err := runGenCLI(t, "sbm", "-n", "50", "-o", mtx, "-labels", filepath.Join(dir, "l.txt")); err != nil {
		t.Fatal(err)
	}
	if g, err := dataset.ReadGraphFile(context.Background(), mtx); err != nil || g.N() != 50 {
		t.Errorf("reading %s: %v", mtx, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "l.txt")); err != nil {
		t.Error(err)
	}
}

func TestGenErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"nope"},
		{"moons", "-n", "0"},
		{"circles", "-factor", "2"},
		{"sbm", "-n", "10", "-cin", "50"},
		{"moons", "extra"},
		{"moons", "-bogus"},
	} {
		_, _, err := runGenCLI(t, args...)
		if !errors.Is(err, errUsage) {
			t.Errorf("gen %q: err = %v, want a usage error", args, err)
		}
	}
}

// TestGenSameAsClusterGen checks that tether gen and tether cluster -gen
// make the same data from the same name, flags and seed: cluster -gen-out
// writes the table it clusters, which must equal the gen output byte for
// byte (for sbm, the edge list and the labels).
func TestGenSameAsClusterGen(t *testing.T) {
	cases := []struct {
		name    string
		gen     []string // flags of gen
		cluster []string // the same parameters for cluster -gen
	}{
		{"circles", []string{"-n", "120", "-seed", "7"}, []string{"-n", "120", "-seed", "7", "-k", "2"}},
		{"circles", []string{"-n", "120", "-factor", "0.3", "-noise", "0.01", "-seed", "8"}, []string{"-n", "120", "-factor", "0.3", "-noise", "0.01", "-gen-seed", "8", "-k", "2"}},
		{"moons", []string{"-seed", "3"}, []string{"-seed", "3", "-k", "2"}},
		{"interlaced", []string{"-n", "90", "-k", "3", "-seed", "2"}, []string{"-n", "90", "-k", "3", "-seed", "2"}},
		{"interlaced", []string{"-n", "90", "-k", "4"}, []string{"-n", "90", "-gen-k", "4", "-k", "2"}},
		{"xor", []string{"-n", "100", "-noise", "0.1", "-seed", "5"}, []string{"-n", "100", "-noise", "0.1", "-seed", "5", "-k", "2"}},
		{"blobs", []string{"-n", "150", "-k", "4", "-dim", "3", "-seed", "9"}, []string{"-n", "150", "-k", "4", "-dim", "3", "-seed", "9"}},
		{"sbm", []string{"-n", "300", "-k", "3", "-cin", "12", "-cout", "1", "-seed", "4"}, []string{"-n", "300", "-k", "3", "-cin", "12", "-cout", "1", "-seed", "4", "-method", "usc"}},
	}
	for _, c := range cases {
		t.Run(c.name+" "+strings.Join(c.gen, " "), func(t *testing.T) {
			dir := t.TempDir()
			ext := ".csv"
			if c.name == "sbm" {
				ext = ".txt"
			}
			fromGen := filepath.Join(dir, "gen"+ext)
			fromCluster := filepath.Join(dir, "cluster"+ext)
			if _, _, err := runGenCLI(t, append([]string{c.name, "-o", fromGen}, c.gen...)...); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"cluster", "-gen", c.name, "-gen-out", fromCluster, "-quiet", "-o", filepath.Join(dir, "labels")}, c.cluster...)
			if _, _, err := run(t, args...); err != nil {
				t.Fatal(err)
			}
			files := [][2]string{{fromGen, fromCluster}}
			if c.name == "sbm" {
				files = append(files, [2]string{filepath.Join(dir, "gen.labels"), filepath.Join(dir, "cluster.labels")})
			}
			for _, f := range files {
				a, err := os.ReadFile(f[0])
				if err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(f[1])
				if err != nil {
					t.Fatal(err)
				}
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Errorf("%s (%d bytes) and %s (%d bytes) differ", filepath.Base(f[0]), len(a), filepath.Base(f[1]), len(b))
				}
			}
		})
	}
}

// TestGenHugeRefused checks that absurd sizes are usage errors, returned at
// once instead of panicking in makeslice or exhausting memory.
func TestGenHugeRefused(t *testing.T) {
	for _, name := range synth.Names() {
		t0 := time.Now()
		_, _, err := runGenCLI(t, name, "-n", "100000000000")
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "MaxValues") {
			t.Errorf("gen %s -n 1e11: err = %v, want a usage error", name, err)
		}
		if d := time.Since(t0); d > time.Second {
			t.Errorf("gen %s -n 1e11: %v before refusing", name, d)
		}
	}
	if _, _, err := run(t, "cluster", "-gen", "moons", "-n", "100000000000", "-quiet"); !errors.Is(err, errUsage) {
		t.Errorf("cluster -gen moons -n 1e11: err = %v, want a usage error", err)
	}
	if _, _, err := run(t, "cluster", "-gen", "spirals", "-quiet"); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "interlaced") {
		t.Errorf("cluster -gen spirals: err = %v, want a usage error listing the generators", err)
	}
}

// -k 0 and -noise -1 are the generator's defaults, on any generator: the
// data are those written without the flag.
func TestGenDefaultValues(t *testing.T) {
	for _, tc := range []struct {
		gen  string
		flag []string
	}{
		{"moons", []string{"-k", "0"}},
		{"blobs", []string{"-k", "0"}},
		{"sbm", []string{"-noise", "-1"}},
		{"moons", []string{"-noise", "-1"}},
	} {
		t.Run(tc.gen+strings.Join(tc.flag, " "), func(t *testing.T) {
			want, _, err := run(t, "gen", tc.gen, "-n", "60")
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := run(t, append([]string{"gen", tc.gen, "-n", "60"}, tc.flag...)...)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%v changes the data", tc.flag)
			}
		})
	}
}

// A flag the user set that would have no effect is a usage error naming
// it and why (they were ignored silently); the same flags where they apply
// still work.
func TestFlagsThatDoNotApply(t *testing.T) {
	dir := t.TempDir()
	graphFile := filepath.Join(dir, "sbm.txt")
	if _, _, err := run(t, "gen", "sbm", "-n", "60", "-o", graphFile); err != nil {
		t.Fatal(err)
	}
	points := filepath.Join(dir, "moons.csv")
	if _, _, err := run(t, "gen", "moons", "-n", "60", "-o", points); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		args []string
		want string // "" for success
	}{
		{[]string{"gen", "moons", "-k", "3", "-o", out}, "gen: -k 3 does not apply to moons: it always makes 2 classes (give -k 2 or 0, or leave -k out"},
		{[]string{"gen", "xor", "-k", "3", "-o", out}, "gen: -k 3 does not apply to xor: it always makes 2 classes"},
		{[]string{"gen", "circles", "-k", "4", "-o", out}, "gen: -k 4 does not apply to circles: it always makes 2 classes"},
		// The number of classes a fixed generator makes is accepted, as
		// is 0 (-k 2 on moons was refused).
		{[]string{"gen", "moons", "-k", "2", "-o", out}, ""},
		{[]string{"gen", "xor", "-k", "2", "-o", out}, ""},
		{[]string{"gen", "circles", "-k", "2", "-o", out}, ""},
		{[]string{"cluster", "-gen", "moons", "-n", "60", "-gen-k", "2", "-k", "2", "-quiet", "-o", out}, ""},
		{[]string{"gen", "moons", "-cin", "3", "-o", out}, "gen: -cin does not apply to moons: it has no such parameter"},
		{[]string{"gen", "moons", "-labels", out + ".labels", "-o", out}, "gen: -labels does not apply to moons"},
		{[]string{"gen", "blobs", "-k", "4", "-o", out}, ""},
		// -k 0 and -noise -1 mean "the generator's default" for every
		// generator, so they never lack an effect (-k 0 was refused on
		// moons, xor and circles, -noise -1 on sbm and dcsbm).
		{[]string{"gen", "moons", "-k", "0", "-o", out}, ""},
		{[]string{"gen", "xor", "-k", "0", "-o", out}, ""},
		{[]string{"gen", "circles", "-k", "0", "-o", out}, ""},
		{[]string{"gen", "sbm", "-n", "60", "-noise", "-1", "-o", out}, ""},
		{[]string{"gen", "dcsbm", "-n", "60", "-noise", "-1", "-o", out}, ""},
		{[]string{"gen", "sbm", "-n", "60", "-noise", "0.5", "-o", out}, "gen: -noise does not apply to sbm: it has no such parameter"},
		{[]string{"cluster", "-gen", "moons", "-n", "60", "-gen-k", "0", "-k", "2", "-quiet", "-o", out}, ""},
		{[]string{"gen", "sbm", "-n", "60", "-labels", out + ".labels", "-o", out}, ""},
		{[]string{"gen", "sbm", "-n", "60", "-labels", out, "-o", out}, "gen: -o and -labels both write"},
		{[]string{"cluster", "-graph-file", graphFile, "-knn", "5", "-quiet", "-o", out}, "cluster: -knn builds the graph from features and does not apply to -graph-file"},
		{[]string{"cluster", "-graph-file", graphFile, "-sigma", "median", "-quiet", "-o", out}, "cluster: -sigma builds the graph"},
		{[]string{"cluster", "-graph-file", graphFile, "-graph", "full", "-quiet", "-o", out}, "cluster: -graph builds the graph"},
		{[]string{"cluster", "-gen", "sbm", "-n", "60", "-affinity", "cosine", "-quiet", "-o", out}, "cluster: -affinity builds the graph from features and does not apply to -gen sbm"},
		{[]string{"cluster", "-gen", "moons", "-n", "60", "-gen-k", "3", "-quiet", "-o", out}, "cluster: -gen-k 3 does not apply to moons: it always makes 2 classes"},
		{[]string{"cluster", "-input", points, "-n", "60", "-quiet", "-o", out}, "cluster: -n is a parameter of -gen and does not apply without it"},
		{[]string{"cluster", "-graph-file", graphFile, "-gen-seed", "3", "-quiet", "-o", out}, "cluster: -gen-seed is a parameter of -gen"},
		{[]string{"cluster", "-gen", "moons", "-n", "60", "-k", "2", "-knn", "5", "-quiet", "-o", out}, ""},
		// The feature table's flags with a graph or generated points, a
		// graph file's with a table, serve's without data: refused (they
		// were ignored silently).
		{[]string{"cluster", "-graph-file", graphFile, "-scale", "zscore", "-quiet", "-o", out}, "cluster: -scale is an option of the feature table of -input and does not apply to -graph-file (the file is the graph)"},
		{[]string{"labels", "-graph-file", graphFile, "-label", "club", "-o", out}, "labels: -label is an option of the feature table of -input and does not apply to -graph-file (the file is the graph): -gml-label names the GML node attribute holding the labels"},
		{[]string{"cluster", "-gen", "moons", "-label", "last", "-quiet", "-o", out}, "cluster: -label is an option of the feature table of -input and does not apply to -gen moons (it generates points)"},
		{[]string{"cluster", "-input", points, "-gml-label", "club", "-quiet", "-o", out}, "cluster: -gml-label is an option of the graph file of -graph-file and does not apply to -input (a feature table)"},
		{[]string{"cluster", "-input", dir, "-id", "1", "-quiet", "-o", out}, "cluster: -id is an option of the feature table of -input and does not apply to -input " + dir + " (a folder of images)"},
		{[]string{"cluster", "-input", points, "-tfidf=false", "-quiet", "-o", out}, "cluster: -tfidf is an option of the document-by-term matrix of -bipartite and does not apply to -input (a feature table)"},
		{[]string{"labels", "-graph-file", graphFile, "-gml-label", "club", "-delim", ",", "-o", out}, "labels: -delim is an option of the feature table of -input and does not apply to -graph-file (the file is the graph)"},
		{[]string{"labels", "-input", points, "-gml-label", "club", "-o", out}, "labels: -gml-label is an option of the graph file of -graph-file and does not apply to -input (a feature table)"},
		{[]string{"serve", "-addr", "127.0.0.1:0", "-missing", "impute"}, "serve: -missing is an option of the feature table of -input and does not apply to tether serve without -input, -graph-file or -gen"},
		{[]string{"serve", "-addr", "127.0.0.1:0", "-graph-file", graphFile, "-seed", "2"}, "serve: -seed seeds -gen and the k-NN search of -input and does not apply to -graph-file (the file is the graph)"},
		{[]string{"cluster", "-input", points, "-scale", "zscore", "-delim", ",", "-label", "last", "-k", "2", "-quiet", "-o", out}, ""},
		{[]string{"labels", "-input", points, "-delim", ",", "-label", "last", "-o", out}, ""},
		{[]string{"cluster", "-graph-file", graphFile, "-k", "2", "-quiet", "-o", out}, ""},
	} {
		t.Run(strings.Join(tc.args[:3], " "), func(t *testing.T) {
			_, _, err := run(t, tc.args...)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("%v: %v", tc.args, err)
				}
				return
			}
			// gen and cluster name themselves in their usage errors, as
			// every subcommand does.
			if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "usage: "+tc.want) {
				t.Fatalf("%v: error %v, want a usage error starting %q", tc.args, err, tc.want)
			}
		})
	}
}

// TestGenNoiseOverflow: a finite -noise so large that generated values
// overflow (1e308) is a usage error (exit 2, as -noise -3 or NaN) naming
// the generator and the noise, for every point generator and for
// cluster -gen, and no file is written. Before, gen wrote ±Inf features
// with exit 0, which tether's own readers then refused.
func TestGenNoiseOverflow(t *testing.T) {
	dir := t.TempDir()
	for _, g := range synth.Generators() {
		if g.Graph {
			continue
		}
		out := filepath.Join(dir, g.Name+".csv")
		_, _, err := runGenCLI(t, g.Name, "-noise", "1e308", "-o", out)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "noise = 1e+308") || !strings.Contains(err.Error(), "gen: "+g.Name) {
			t.Errorf("gen %s -noise 1e308: error %v, want a usage error naming %s and the noise", g.Name, err, g.Name)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("gen %s -noise 1e308 wrote %s (%v)", g.Name, out, err)
		}
	}
	if _, _, err := run(t, "cluster", "-gen", "moons", "-noise", "1e308", "-quiet", "-o", filepath.Join(dir, "c.txt")); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "noise = 1e+308") {
		t.Errorf("cluster -gen moons -noise 1e308: error %v, want a usage error naming the noise", err)
	}
}

// TestClusterGenKNote: cluster -gen notes a -k that differs from the
// number of classes the generator made (whose reference labels the ARI
// compares with), in the job runner's words (input.GenKNote): moons
// always makes 2; blobs makes -gen-k's when given, else -k's. Before,
// -gen moons -k 3 said nothing.
func TestClusterGenKNote(t *testing.T) {
	for _, tc := range []struct {
		args []string
		note string // "" for none
	}{
		{[]string{"-gen", "moons", "-k", "3"}, "note: k = 3, but gen moons always makes 2 classes"},
		{[]string{"-gen", "circles", "-k", "4"}, "note: k = 4, but gen circles always makes 2 classes"},
		{[]string{"-gen", "moons", "-k", "2"}, ""},
		{[]string{"-gen", "blobs", "-k", "4"}, ""},
		{[]string{"-gen", "blobs", "-k", "3", "-gen-k", "4"}, "note: k = 3, but gen blobs made 4 classes (-gen-k)"},
		{[]string{"-gen", "blobs", "-k", "4", "-gen-k", "4"}, ""},
	} {
		args := append([]string{"cluster", "-n", "120", "-o", filepath.Join(t.TempDir(), "l.txt")}, tc.args...)
		out, stderr, err := run(t, args...)
		if err != nil {
			t.Fatalf("%q: %v\n%s", args, err, stderr)
		}
		notes := regexp.MustCompile(`(?m)^tether cluster: note: k = .*$`).FindAllString(stderr, -1)
		switch {
		case tc.note == "" && len(notes) > 0:
			t.Errorf("%q: unexpected %q", tc.args, notes)
		case tc.note != "" && (len(notes) != 1 || !strings.HasSuffix(notes[0], tc.note)):
			t.Errorf("%q: notes %q, want one ending %q", tc.args, notes, tc.note)
		}
		if tc.note != "" && !strings.Contains(out, "ARI") {
			t.Errorf("%q: summary without ARI:\n%s", tc.args, out)
		}
	}
}
