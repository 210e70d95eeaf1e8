package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset"
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
			tb, err := dataset.Read(strings.NewReader(out), "gen.csv", dataset.Options{LabelColumn: "label"})
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
	d, err := dataset.ReadGraphFileOptions(out, dataset.GraphOptions{Base: dataset.Base0, NumNodes: 200})
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
	if g, err := dataset.ReadGraphFile(mtx); err != nil || g.N() != 50 {
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
