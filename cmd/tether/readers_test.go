package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
)

// runReaders runs tether with args and returns stdout, stderr and the error.
func runReaders(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	m := NewMain()
	m.Stdout, m.Stderr = &out, &errb
	err := m.Run(context.Background(), args)
	return out.String(), errb.String(), err
}

// TestClusterNamedNodes: an edge list mixing integers and names is refused
// with a message naming the flag, and -named-nodes reads it.
func TestClusterNamedNodes(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5; i++ {
		for j := i + 1; j < 5; j++ {
			b.WriteString(strings.Join([]string{string(rune('0' + i)), string(rune('0' + j))}, " ") + "\n")
			b.WriteString(strings.Join([]string{"x" + string(rune('0'+i)), "x" + string(rune('0'+j))}, " ") + "\n")
		}
	}
	b.WriteString("4 x0\n")
	p := writeTemp(t, "g.txt", b.String())
	_, _, err := runReaders(t, "cluster", "-graph-file", p, "-k", "2", "-quiet", "-o", os.DevNull)
	if err == nil || !strings.Contains(err.Error(), "-named-nodes") || !strings.Contains(err.Error(), "g.txt:2") {
		t.Fatalf("err = %v, want a mix error naming g.txt:2 and -named-nodes", err)
	}
	if _, _, err := runReaders(t, "cluster", "-graph-file", p, "-k", "2", "-named-nodes", "-quiet", "-o", os.DevNull); err != nil {
		t.Fatal(err)
	}
}

// TestClusterSparseNodeIDs: an edge list of two 5-cliques whose integers
// are IDs up to 4009 (as SNAP's are) is read as 4010 numbered nodes, 4000
// of them isolated, with a warning naming -named-nodes (review 118: the
// warnings spoke of zero embedding rows and regularization, never of the
// flag); -named-nodes reads the 10 nodes without it.
func TestClusterSparseNodeIDs(t *testing.T) {
	var b strings.Builder
	for c := 0; c < 2; c++ {
		for i := 0; i < 5; i++ {
			for j := i + 1; j < 5; j++ {
				fmt.Fprintf(&b, "%d %d\n", 9+1000*i+c, 9+1000*j+c)
			}
		}
	}
	b.WriteString("4009 4010\n")
	p := writeTemp(t, "net.txt", b.String())
	const warning = ": only 10 of the 4011 nodes appear in an edge: the integers of the file are read as the node numbers 0…4010, so 4001 nodes have no edge; if the integers are IDs rather than node numbers, read them as names, the 10 nodes numbered in order of first appearance (set GraphOptions.NamedNodes; tether: -named-nodes)\n"
	stdout, stderr, err := runReaders(t, "cluster", "-graph-file", p, "-k", "2", "-quiet", "-o", os.DevNull)
	if err != nil || !strings.Contains(stderr, "tether cluster: warning: "+p+warning) {
		t.Errorf("err %v, stderr lacks %q:\n%s", err, warning, stderr)
	}
	if !strings.Contains(stdout, "4011 nodes") {
		t.Errorf("stdout does not read 4011 nodes:\n%s", stdout)
	}
	stdout, stderr, err = runReaders(t, "cluster", "-graph-file", p, "-k", "2", "-named-nodes", "-quiet", "-o", os.DevNull)
	if err != nil || strings.Contains(stderr, "appear in an edge") || !strings.Contains(stdout, "10 nodes") {
		t.Errorf("-named-nodes: err %v, stdout %s, stderr %s", err, stdout, stderr)
	}
}

// TestClusterGMLWarning: reader warnings reach standard error.
func TestClusterGMLWarning(t *testing.T) {
	var b strings.Builder
	b.WriteString("graph [\n directed 1\n")
	for i := 0; i < 6; i++ {
		b.WriteString(" node [ id " + string(rune('0'+i)) + " ]\n")
	}
	for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {2, 3}, {1, 0}} {
		b.WriteString(" edge [ source " + string(rune('0'+e[0])) + " target " + string(rune('0'+e[1])) + " ]\n")
	}
	b.WriteString("]\n")
	p := writeTemp(t, "d.gml", b.String())
	_, stderr, err := runReaders(t, "cluster", "-graph-file", p, "-k", "2", "-quiet", "-o", os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"warning: " + p + ":2: the graph is directed", "1 edge repeats"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
}

// TestClusterMissingDropWarns: -missing drop names the dropped lines on
// stderr.
func TestClusterMissingDropWarns(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := 0; i < 20; i++ {
		b.WriteString(strings.Repeat("1", 1+i%3) + "," + strings.Repeat("2", 1+i%5) + "\n")
	}
	b.WriteString("?,3\n") // line 22
	p := writeTemp(t, "m.csv", b.String())
	_, stderr, err := runReaders(t, "cluster", "-input", p, "-missing", "drop", "-k", "2", "-knn", "3", "-quiet", "-o", os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	if want := "dropped 1 of 21 rows with missing values (tether: -missing drop; library: Options.Missing = MissingDrop): line 22"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
}

// TestClusterMissingDropOutputRows: after -missing drop, -o names the rows
// kept by their 0-based row numbers in the file, so that the predictions
// match the file (review 49, finding 3), and -truth numbers the file's rows.
func TestClusterMissingDropOutputRows(t *testing.T) {
	var b, truth strings.Builder
	b.WriteString("x,y\n")
	for i := 0; i < 12; i++ {
		if i == 1 || i == 4 {
			b.WriteString("?,1\n") // rows 1 and 4
		} else {
			b.WriteString(strings.Repeat("1", 1+i%3) + "," + strings.Repeat("2", 1+i%5) + "\n")
		}
		truth.WriteString(strings.Repeat("1", i/6) + "0\n")
	}
	p, tr := writeTemp(t, "m.csv", b.String()), writeTemp(t, "m.truth", truth.String())
	out := filepath.Join(filepath.Dir(p), "m.pred")
	if _, stderr, err := runReaders(t, "cluster", "-input", p, "-missing", "drop", "-truth", tr, "-k", "2", "-knn", "3", "-o", out); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(strings.TrimSpace(string(got)), "\n")[1:] {
		rows = append(rows, strings.Split(l, ",")[0])
	}
	if want := "0 2 3 5 6 7 8 9 10 11"; !strings.HasPrefix(string(got), "name,cluster\n") || strings.Join(rows, " ") != want {
		t.Errorf("-o wrote\n%s\nwant name,cluster lines for the rows %s", got, want)
	}
}

// TestClusterGraphFormat: a .csv edge list is recognised, -graph-format
// forces a reading, and a bad format names the choices.
func TestClusterGraphFormat(t *testing.T) {
	var b strings.Builder
	for _, e := range [][2]int{{1, 2}, {2, 3}, {3, 1}, {4, 5}, {5, 6}, {6, 4}, {3, 4}} {
		b.WriteString(string(rune('0'+e[0])) + "," + string(rune('0'+e[1])) + "\n")
	}
	p := writeTemp(t, "e.csv", b.String())
	if stdout, _, err := runReaders(t, "cluster", "-graph-file", p, "-k", "2", "-quiet", "-o", os.DevNull); err != nil || !strings.Contains(stdout, "6 nodes, 7 edges") {
		t.Fatalf("auto: %v\n%s", err, stdout)
	}
	if _, _, err := runReaders(t, "cluster", "-graph-file", p, "-graph-format", "dense", "-k", "2", "-quiet", "-o", os.DevNull); err == nil || !strings.Contains(err.Error(), "square") {
		t.Fatalf("dense: err = %v, want a square-matrix error", err)
	}
	if _, _, err := runReaders(t, "cluster", "-graph-file", p, "-graph-format", "edgelist", "-k", "2", "-quiet", "-o", os.DevNull); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runReaders(t, "cluster", "-graph-file", p, "-graph-format", "tsv", "-k", "2", "-quiet", "-o", os.DevNull); err == nil || !strings.Contains(err.Error(), "edgelist") {
		t.Fatalf("bad format: err = %v", err)
	}
}

// TestClusterGraphBase: an edge list whose smallest node is 1 is read as
// 1-based with a warning naming -graph-base 0 (it was silent, and a
// 0-based file whose node 0 has no edge lost that node and shifted the
// others against the constraint files; review 86); -graph-base 0 reads
// it with node 0, -graph-base 1 as 1-based without a word.
func TestClusterGraphBase(t *testing.T) {
	p := writeTemp(t, "b.edges", "1 2\n2 3\n3 1\n4 5\n")
	warning := "tether cluster: warning: " + p + ": node numbers read as 1-based, the smallest being 1 (GraphOptions.Base auto: 1-based when no edge names node 0): node 1 of the file is the first node, which the files that number the nodes from 0 (constraints, labels by node) call 0; if the file numbers them from 0 and node 0 has no edge, read it as 0-based (GraphOptions.Base = Base0; tether: -graph-base 0)\n"
	for _, c := range []struct {
		base   []string
		nodes  string
		warned bool
	}{
		{nil, "5 nodes", true},
		{[]string{"-graph-base", "auto"}, "5 nodes", true},
		{[]string{"-graph-base", "0"}, "6 nodes", false},
		{[]string{"-graph-base", "1"}, "5 nodes", false},
	} {
		args := append([]string{"cluster", "-graph-file", p, "-k", "2", "-method", "njw", "-self-loops", "0.1", "-o", os.DevNull}, c.base...)
		stdout, stderr, err := runReaders(t, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", c.base, err, stderr)
		}
		if !strings.Contains(stdout, c.nodes+", 4 edges") {
			t.Errorf("%v: stdout lacks %q:\n%s", c.base, c.nodes+", 4 edges", stdout)
		}
		if got := strings.Contains(stderr, warning); got != c.warned {
			t.Errorf("%v: the warning is there %v, want %v:\n%s", c.base, got, c.warned, stderr)
		}
	}
}

// TestClusterTooFewRows: a header and one row used to fail with "knn graph
// needs 1 ≤ K < n = 1, got K = 10"; the message now speaks of the file. A
// file too small to cluster is an error of the data (exit status 1); a
// -knn or -sigma local:K the file is too small for is a usage error (exit
// status 2), as -k above the number of nodes is (it was exit status 1).
func TestClusterTooFewRows(t *testing.T) {
	for _, c := range []struct {
		name, in string
		args     []string
		usage    bool
		parts    []string
	}{
		{"header only", "a,b\n", nil, false, []string{"h.csv has 1 data row; clustering needs at least 2"}},
		{"one row", "a,b\n1,2\n", nil, false, []string{"h.csv has 1 data row; clustering needs at least 2"}},
		// A K the user gave is refused; the defaults shrink
		// (TestClusterSmallInputFitsDefaults).
		{"fewer rows than K", "a,b\n1,2\n2,3\n3,5\n4,4\n5,1\n", []string{"-knn", "10"}, true, []string{"usage: cluster: /", "h.csv has 5 data rows", "-knn must be at most 4, got 10"}},
		{"fewer rows than local K", "a,b\n1,2\n2,3\n3,5\n4,4\n5,1\n", []string{"-knn", "3", "-sigma", "local:7"}, true, []string{"usage: cluster: /", "h.csv has 5 data rows", "-sigma local:4", "got 7"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := writeTemp(t, "h.csv", c.in)
			_, _, err := runReaders(t, append([]string{"cluster", "-input", p, "-k", "2", "-quiet", "-o", os.DevNull}, c.args...)...)
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, errUsage) != c.usage {
				t.Errorf("error %q: usage error %v, want %v", err, errors.Is(err, errUsage), c.usage)
			}
			for _, part := range c.parts {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q lacks %q", err, part)
				}
			}
		})
	}
	p := writeTemp(t, "one.txt", "0 0\n")
	if _, _, err := runReaders(t, "cluster", "-graph-file", p, "-k", "2", "-quiet", "-o", os.DevNull); err == nil || !strings.Contains(err.Error(), "one.txt has 1 node; clustering needs at least 2") {
		t.Fatalf("err = %v", err)
	}
}

// TestClusterSmallGenFitsDefaults: generated points fit the graph's
// defaults as a small file does: 8 moons points cluster with K = 7
// neighbours and local:7 scaling (which already fits), saying so (the
// 10-NN graph used to refuse them: "knn graph needs 1 ≤ K < n = 8"), while
// a -knn the user gave that does not fit is a usage error naming it.
func TestClusterSmallGenFitsDefaults(t *testing.T) {
	out, stderr, err := runReaders(t, "cluster", "-gen", "moons", "-n", "8", "-k", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "-gen moons has only 8 rows: the graph was built with K = 7 neighbours (-knn 7; the default is 10)") {
		t.Errorf("stderr %q lacks the note on K", stderr)
	}
	if lines := strings.Fields(out); len(lines) != 9 {
		t.Errorf("output %q: want a header and 8 nodes", out)
	}
	_, _, err = runReaders(t, "cluster", "-gen", "moons", "-n", "8", "-k", "2", "-knn", "9", "-o", os.DevNull)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "-gen moons has 8 points; the knn graph joins each to its K nearest others, so -knn must be at most 7, got 9") {
		t.Errorf("-knn 9: err = %v", err)
	}
}

// TestClusterSmallInputFitsDefaults: a six-row file of points "x,y" (two
// groups of three) clusters with the defaults, which shrink to what six
// rows allow and say so; y stays a coordinate beside x, and the groups are
// found (a 10-NN graph and local:7 scaling used to refuse the file, and y
// was taken for the reference labels).
func TestClusterSmallInputFitsDefaults(t *testing.T) {
	p := writeTemp(t, "pts.csv", "x,y\n0,0\n0,1\n1,0\n5,5\n5,6\n6,5\n")
	out, stderr, err := runReaders(t, "cluster", "-input", p, "-k", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"pts.csv has only 6 rows", "K = 5 neighbours (-knn 5; the default is 10)", "5th nearest other row (-sigma local:5; the default is local:7)"} {
		if !strings.Contains(stderr, part) {
			t.Errorf("stderr %q lacks %q", stderr, part)
		}
	}
	if strings.Contains(stderr, "reference labels") {
		t.Errorf("y taken for the labels: %q", stderr)
	}
	want := []string{"node,cluster", "0,A", "1,A", "2,A", "3,B", "4,B", "5,B"}
	lines := strings.Fields(out)
	if len(lines) != len(want) {
		t.Fatalf("output %q", out)
	}
	a, b := lines[1][2:], lines[4][2:]
	if a == b {
		t.Fatalf("one cluster: %q", out)
	}
	for i, w := range want[1:] {
		c := a
		if w[2] == 'B' {
			c = b
		}
		if lines[i+1] != w[:2]+c {
			t.Errorf("line %d = %q, want cluster %s", i+1, lines[i+1], c)
		}
	}
	// A -sigma the user gave stays, and a -knn that fits stays.
	_, stderr, err = runReaders(t, "cluster", "-input", p, "-k", "2", "-knn", "3", "-sigma", "local:2", "-o", os.DevNull)
	if err != nil || strings.Contains(stderr, "only 6 rows") {
		t.Errorf("err %v, stderr %q", err, stderr)
	}
}

// TestClusterOptionFlags: messages that asked for the Go options
// Categorical and Symmetrize name the flags too, and the flags work.
func TestClusterOptionFlags(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y,code\n")
	for i := 0; i < 12; i++ {
		code := []string{"1", "2", "A"}[i%3]
		b.WriteString(strings.Repeat("1", 1+i%4) + "," + strings.Repeat("3", 1+i%3) + "," + code + "\n")
	}
	p := writeTemp(t, "c.csv", b.String())
	_, _, err := runReaders(t, "cluster", "-input", p, "-k", "2", "-knn", "3", "-sigma", "1", "-quiet", "-o", os.DevNull)
	if err == nil || !strings.Contains(err.Error(), "Options.Categorical") || !strings.Contains(err.Error(), "-categorical 3") {
		t.Fatalf("err = %v, want a message naming Options.Categorical and -categorical 3", err)
	}
	// Listed as categorical, the column reads (and the codes are one-hot).
	if _, _, err := runReaders(t, "cluster", "-input", p, "-categorical", "3", "-scale", "minmax", "-k", "2", "-knn", "3", "-sigma", "1", "-quiet", "-o", os.DevNull); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runReaders(t, "cluster", "-input", p, "-categorical", "3,,", "-k", "2", "-quiet", "-o", os.DevNull); err == nil {
		t.Fatal("empty column accepted")
	}

	m := writeTemp(t, "a.csv", "0,1,1,0\n2,0,0,1\n1,0,0,1\n0,1,1,0\n")
	_, _, err = runReaders(t, "cluster", "-graph-file", m, "-k", "2", "-quiet", "-o", os.DevNull)
	if err == nil || !strings.Contains(err.Error(), "GraphOptions.Symmetrize") || !strings.Contains(err.Error(), "-symmetrize") {
		t.Fatalf("err = %v, want a message naming GraphOptions.Symmetrize and -symmetrize", err)
	}
	if _, _, err := runReaders(t, "cluster", "-graph-file", m, "-symmetrize", "-k", "2", "-quiet", "-o", os.DevNull); err != nil {
		t.Fatal(err)
	}
}

// TestClusterOverflowUnderflow: huge features and a tiny σ are named at
// graph construction, with the flag to change.
func TestClusterOverflowUnderflow(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 20; i++ {
		b.WriteString(strings.Repeat("1", 1+i%4) + "," + strings.Repeat("2", 1+i%3) + "\n")
	}
	ok := b.String()
	p := writeTemp(t, "big.csv", ok+"1e200,3\n")
	_, _, err := runReaders(t, "cluster", "-input", p, "-k", "2", "-quiet", "-o", os.DevNull)
	if err == nil || !strings.Contains(err.Error(), "row 20") || !strings.Contains(err.Error(), "-scale") {
		t.Fatalf("err = %v, want an overflow error naming row 20 and -scale", err)
	}
	if _, _, err := runReaders(t, "cluster", "-input", p, "-scale", "minmax", "-k", "2", "-quiet", "-o", os.DevNull); err != nil {
		t.Fatal(err)
	}
	p = writeTemp(t, "ok.csv", ok)
	_, _, err = runReaders(t, "cluster", "-input", p, "-sigma", "1e-300", "-k", "2", "-quiet", "-o", os.DevNull)
	if err == nil || !strings.Contains(err.Error(), "underflows to 0 with σ = 1e-300") || !strings.Contains(err.Error(), "-sigma") {
		t.Fatalf("err = %v, want an underflow error naming σ and -sigma", err)
	}
}

// FuzzMinSizes checks the -min-sizes parser: no panic, and an accepted
// list has one positive integer per comma-separated field.
func FuzzMinSizes(f *testing.F) {
	for _, s := range []string{"", "1,2,5", " 3 , 4 ", "0", "-1", "2,x", ",", "99999999999999999999", "1,,2", "+3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := parseInts(s)
		if err != nil {
			return
		}
		if strings.TrimSpace(s) == "" {
			if len(out) != 0 {
				t.Fatalf("%q → %v", s, out)
			}
			return
		}
		if len(out) != strings.Count(s, ",")+1 {
			t.Fatalf("%q → %d values", s, len(out))
		}
		for _, v := range out {
			if v < 1 {
				t.Fatalf("%q → %v", s, out)
			}
		}
	})
}

// FuzzConsReadNames checks the reader of node-name files (tether
// constraints -names): no panic, and one name per line, lines ending at
// "\n", "\r\n" or a bare "\r", each non-empty and distinct, but for a
// first line that is a header: a node word alone, not a name, or two
// columns, a labels file whose names are its first column.
func FuzzConsReadNames(f *testing.F) {
	for _, s := range []string{"a\nb\n", "a\r\nb", "", "\n\n", " x \n", "a\rb\r", "name\na\n", "name,label\na,0\nb,1\n", "node 1\nnode 2\n"} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, s string) {
		p := filepath.Join(dir, "names.txt")
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		names, err := consReadNames(context.Background(), p)
		if err != nil {
			return
		}
		lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(strings.TrimPrefix(s, "\ufeff"), "\r\n", "\n"), "\r", "\n"), "\n")
		for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
			lines = lines[:len(lines)-1] // blank lines at the end are ignored
		}
		want, first := len(lines), lines[0]
		if namesListHeader(first) {
			want--
		}
		if _, ok := namesLabelsHeader(strings.TrimSpace(first)); ok {
			want = len(names) // a labels file: as many names as nodes
		}
		if len(names) != want {
			t.Fatalf("%d names from %d lines", len(names), want)
		}
		seen := map[string]bool{}
		for _, nm := range names {
			if nm == "" || seen[nm] {
				t.Fatalf("name %q empty or repeated in %q", nm, names)
			}
			seen[nm] = true
		}
	})
}

// FuzzSetKnobs: any -set value given to any registered method is either
// refused with an error or yields a method of the same name; it never
// panics. A value that parses but lies outside the knob's range is then
// refused by cluster.Run (TestKnobRangesRefusedAndListed).
func FuzzSetKnobs(f *testing.F) {
	for _, s := range []string{"SigmaML=0.2", "Gamma=1e308", "MaxIter=-1", "Laplacian=auto", "Optimizer=halving", "Variant=both", "Basis=x", "nope=1", "=", "M=99999999999999999999", "Objective=ncut", "R=NaN"} {
		f.Add(s)
	}
	methods := cluster.Methods()
	f.Fuzz(func(t *testing.T, set string) {
		for _, info := range methods {
			m, err := cluster.SetKnobs(info.New(), []string{set})
			if err == nil && m.Name() != info.Name {
				t.Fatalf("%s -set %q gave method %s", info.Name, set, m.Name())
			}
		}
	})
}

// TestDropFlag: -drop leaves columns of the feature file out, for cluster,
// labels and serve alike; its errors name the file and the column. The
// table's id column (100, 200, …) would dominate the distances as a
// feature and its free-text note column would become the rows' names;
// dropped, the two blobs (rows alternate between them, 20 apart) are
// found exactly: ARI 1.
func TestDropFlag(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,x,note,y,class\n")
	for i := 0; i < 12; i++ {
		c := i % 2
		fmt.Fprintf(&b, "%d,%d.%d,\"text, %d\",%d,%c\n", 100*(i+1), 20*c, i, i, 20*c+i%3, 'a'+c)
	}
	p := writeTemp(t, "d.csv", b.String())
	args := []string{"cluster", "-input", p, "-k", "2", "-knn", "3", "-quiet", "-json", "-o", os.DevNull}
	ari := func(stdout string) float64 {
		t.Helper()
		var doc struct{ Figures map[string]float64 }
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		return doc.Figures["ARI"]
	}
	stdout, stderr, err := runReaders(t, append(args, "-drop", "id,note")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if got := ari(stdout); got != 1 {
		t.Errorf("-drop id,note: ARI %v, want 1", got)
	}
	// Repeated, by number and last-but-one: the same.
	if stdout, _, err = runReaders(t, append(args, "-drop", "1", "-drop", "3")...); err != nil || ari(stdout) != 1 {
		t.Errorf("-drop 1 -drop 3: ARI %v, err %v", ari(stdout), err)
	}
	// Kept, the id column spoils it: the test tests the flag.
	if stdout, _, err = runReaders(t, append(args, "-drop", "note")...); err != nil || ari(stdout) == 1 {
		t.Errorf("id kept: ARI %v, err %v; want below 1", ari(stdout), err)
	}
	// labels: the note column, unique text, names the rows unless dropped.
	out, _, err := runReaders(t, "labels", "-input", p, "-o", "-")
	if err != nil || !strings.HasPrefix(out, "name,label\n\"text, 0\",a\n") {
		t.Errorf("labels: %v\n%s", err, out)
	}
	out, _, err = runReaders(t, "labels", "-input", p, "-drop", "note", "-o", "-")
	if err != nil || !strings.HasPrefix(out, "node,label\n0,a\n1,b\n") {
		t.Errorf("labels -drop note: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown name", []string{"cluster", "-input", p, "-k", "2", "-drop", "id,nope"}, "usage: cluster: " + p + `: dropped column: value "nope": no such column (have id, x, note, y, class)`},
		{"number out of range", []string{"cluster", "-input", p, "-k", "2", "-drop", "6"}, "usage: cluster: " + p + `: dropped column: value "6": column number outside 1…5`},
		{"the label column", []string{"cluster", "-input", p, "-k", "2", "-label", "class", "-drop", "class"}, "usage: cluster: " + p + `: dropped column: value "class": column 5 is the label column (Options.LabelColumn "class"; tether: -label class), which is never a feature`},
		{"the id column", []string{"labels", "-input", p, "-id", "note", "-drop", "note"}, "usage: labels: " + p + `: dropped column: value "note": column 3 is the ID column`},
		{"empty column", []string{"cluster", "-input", p, "-k", "2", "-drop", "id,,note"}, `invalid value "id,,note" for flag -drop: empty column in "id,,note"`},
		{"serve", []string{"serve", "-addr", "127.0.0.1:0", "-quiet", "-input", p, "-drop", "nope"}, "usage: serve: " + p + `: dropped column: value "nope"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A column the table does not have, or one -drop cannot take,
			// is a usage error (exit status 2), as the flag error is.
			_, _, err := runReaders(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, errUsage) {
				t.Errorf("error %v, want the usage error %q", err, tc.want)
			}
		})
	}
}

// TestARFFDelimitedFlags: -delim and -header with an ARFF file, whose
// fields are separated by commas and whose columns are named by its
// @attribute lines, are an error naming the file and the flag, for every
// command that reads a feature table (they were ignored); without them
// the file reads.
func TestARFFDelimitedFlags(t *testing.T) {
	p := writeTemp(t, "x.arff", "@relation r\n@attribute a numeric\n@attribute b numeric\n@attribute c {p,q}\n@data\n"+
		"1,0,p\n2,0,p\n1,1,p\n9,9,q\n9,8,q\n8,9,q\n")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"cluster -delim", []string{"cluster", "-input", p, "-delim", ";", "-k", "2", "-quiet", "-o", os.DevNull}, `Options.Delimiter ";" does not apply to an ARFF file, whose @data fields are separated by commas (tether: -delim)`},
		{"cluster -header", []string{"cluster", "-input", p, "-header", "yes", "-k", "2", "-quiet", "-o", os.DevNull}, "Options.Header yes does not apply to an ARFF file, whose columns are named by its @attribute lines (tether: -header)"},
		{"labels -delim", []string{"labels", "-input", p, "-delim", "tab", "-o", os.DevNull}, `Options.Delimiter "tab" does not apply to an ARFF file`},
		{"cluster", []string{"cluster", "-input", p, "-k", "2", "-quiet", "-o", os.DevNull}, ""},
		{"labels", []string{"labels", "-input", p, "-o", os.DevNull}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, err := runReaders(t, c.args...)
			if c.want == "" {
				if err != nil {
					t.Fatalf("%v\n%s", err, stderr)
				}
				return
			}
			// A usage error (exit status 2): the flag does not fit the
			// file (dataset.ErrOption).
			if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, errUsage) {
				t.Fatalf("error %v, want a usage error saying %q", err, c.want)
			}
		})
	}
}

// TestConsReadNamesListNotHeader: names with a blank whose first word is
// a node word ("Item A") and a first node named item are names, not a
// labels file's header nor a list's (review 123: "Item A" was read as a
// labels header, and the file refused).
func TestConsReadNamesListNotHeader(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Item A\nItem B\nItem C\n", []string{"Item A", "Item B", "Item C"}},
		{"item\nbox\n", []string{"item", "box"}},
		{"name\nann\nbob\n", []string{"ann", "bob"}},
		{"name,cluster\nann,0\nbob,1\n", []string{"ann", "bob"}},
	} {
		p := filepath.Join(dir, "names.txt")
		if err := os.WriteFile(p, []byte(tc.in), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := consReadNames(context.Background(), p)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
