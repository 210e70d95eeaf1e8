package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tether-sc/tether/progress"
)

// A counted file reports the MiB read, from 0 to the file's size rounded
// up, once per MiB, in order, the end of the file included.
func TestCountedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.txt")
	const size = 3<<20 + 5
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), size), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var es []progress.Event
	rec := progress.Func(func(e progress.Event) {
		mu.Lock()
		defer mu.Unlock()
		if e.Total > 0 { // the heartbeat after the end has none
			es = append(es, e)
		}
	})
	f, err := openCounted(context.Background(), path, rec, "parsing")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{f}, make([]byte, 64<<10)); err != nil || n != size {
		t.Fatalf("read %d bytes, %v", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var got []int
	for _, e := range es {
		if e.Stage != "reading "+path || e.Total != 4 {
			t.Errorf("event %+v, want stage %q and Total 4", e, "reading "+path)
		}
		got = append(got, e.Done)
	}
	if fmt.Sprint(got) != "[0 1 2 3 4]" {
		t.Errorf("Done %v, want [0 1 2 3 4]", got)
	}
}

// eval -constraints, cluster -graph-file and cluster -constraints report
// the reading of their file (10⁷ pairs took 5–9 s, an edge list of 2·10⁶
// nodes 6–8 s, without a word) up to its end; -quiet prints none of it.
func TestReadProgress(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var labels, edges strings.Builder
	for i := range 40 {
		fmt.Fprintf(&labels, "%d\n", i/20)
		fmt.Fprintf(&edges, "%d %d 1\n%d %d 1\n", i, (i+1)%20+20*(i/20), i, (i+2)%20+20*(i/20))
	}
	truth := write("truth.txt", labels.String())
	cons := write("c.csv", "0,1,ml\n0,39,cl\n")
	graph := write("g.txt", edges.String())
	for _, tc := range []struct {
		name, file string
		args       []string
	}{
		{"eval", cons, []string{"eval", "-truth", truth, "-pred", truth, "-constraints", cons}},
		{"cluster", graph, []string{"cluster", "-graph-file", graph, "-k", "2", "-method", "njw", "-o", filepath.Join(dir, "out.txt")}},
		{"cluster -constraints", cons, []string{"cluster", "-graph-file", graph, "-k", "2", "-method", "fgpwc", "-constraints", cons, "-o", filepath.Join(dir, "out.txt")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, err := runClocked(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			lines := progressLines(errOut, "reading "+tc.file)
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "1/1 (100%) MiB") }) {
				t.Errorf("stderr %q: want the file read to 100%%", errOut)
			}
			_, errOut, err = runClocked(t, append(tc.args, "-quiet")...)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(errOut, "reading ") {
				t.Errorf("-quiet: stderr %q", errOut)
			}
		})
	}
}

// cluster -graph-file reports the parse of an edge list after its
// reading, as the stage "parsing PATH" through its steps to the total (3·10⁶
// edges took seconds after the file was read with only a heartbeat);
// -quiet prints none of it.
func TestGraphParseProgress(t *testing.T) {
	dir := t.TempDir()
	var edges strings.Builder
	for i := range 40 {
		fmt.Fprintf(&edges, "%d %d 1\n%d %d 1\n", i, (i+1)%20+20*(i/20), i, (i+2)%20+20*(i/20))
	}
	graph := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(graph, []byte(edges.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"cluster", "-graph-file", graph, "-k", "2", "-method", "njw", "-o", filepath.Join(dir, "out.txt")}
	_, errOut, err := runClocked(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	lines := progressLines(errOut, "parsing "+graph)
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "1000/1000 (100%) building the graph") }) {
		t.Errorf("stderr %q: want the parse to 100%%", errOut)
	}
	if _, errOut, err = runClocked(t, append(args, "-quiet")...); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errOut, "parsing ") {
		t.Errorf("-quiet: stderr %q", errOut)
	}
}

// cluster -input reports the reading of its table, each parse (a table
// with a class column is parsed again once the column is found) to the
// end of the file, then the parse of its lines through its steps to the
// total: a table of 10⁶ rows took 7 s without a word, then a second or
// more after its last MiB with only a heartbeat; -quiet prints none of
// it.
func TestTableReadProgress(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(path, []byte(progressTable()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"cluster", "-input", path, "-k", "2", "-method", "njw", "-o", filepath.Join(dir, "out.txt")}
	_, errOut, err := runClocked(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	for _, stage := range []string{"reading " + path, "reading " + path + ", parse 2"} {
		if !slices.ContainsFunc(progressLines(errOut, stage), func(l string) bool { return strings.Contains(l, "1/1 (100%) MiB") }) {
			t.Errorf("stderr %q: want %q to 100%%", errOut, stage)
		}
	}
	for _, stage := range []string{"parsing " + path, "parsing " + path + ", parse 2"} {
		if !slices.ContainsFunc(progressLines(errOut, stage), func(l string) bool {
			return strings.Contains(l, "1000/1000 (100%) reading the columns")
		}) {
			t.Errorf("stderr %q: want %q to 100%%", errOut, stage)
		}
	}
	if _, errOut, err = runClocked(t, append(args, "-quiet")...); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errOut, "reading ") || strings.Contains(errOut, "parsing ") {
		t.Errorf("-quiet: stderr %q", errOut)
	}
}

// progressTable is the 40-row, two-class feature table of the reading
// progress tests: columns x, y and label.
func progressTable() string {
	var table strings.Builder
	table.WriteString("x,y,label\n")
	for i := range 40 {
		fmt.Fprintf(&table, "%d,%d,%d\n", i%20, 10*(i/20), i/20)
	}
	return table.String()
}

// tether labels reports the reading of its input as cluster does (the
// table's reading and parse, a graph file's reading), which it read
// without a word; -quiet prints none of it.
func TestLabelsReadProgress(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.csv")
	gml := filepath.Join(dir, "g.gml")
	for name, content := range map[string]string{
		path: progressTable(),
		gml:  "graph [\n node [ id 0 club \"a\" ]\n node [ id 1 club \"b\" ]\n edge [ source 0 target 1 ]\n]\n",
	} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, file string
		args       []string
		stages     []string
	}{
		{"-input", path, []string{"labels", "-input", path, "-o", filepath.Join(dir, "t.truth")}, []string{"reading " + path, "parsing " + path}},
		{"-graph-file", gml, []string{"labels", "-graph-file", gml, "-gml-label", "club", "-o", filepath.Join(dir, "g.truth")}, []string{"reading " + gml}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, err := runClocked(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			for _, stage := range tc.stages {
				if len(progressLines(errOut, stage)) == 0 {
					t.Errorf("stderr %q: want the stage %q", errOut, stage)
				}
			}
			if !slices.ContainsFunc(progressLines(errOut, "reading "+tc.file), func(l string) bool { return strings.Contains(l, "1/1 (100%) MiB") }) {
				t.Errorf("stderr %q: want the file read to 100%%", errOut)
			}
			_, errOut, err = runClocked(t, append(tc.args, "-quiet")...)
			if err != nil {
				t.Fatal(err)
			}
			if errOut != "" {
				t.Errorf("-quiet: stderr %q, want nothing", errOut)
			}
		})
	}
}
