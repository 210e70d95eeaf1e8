package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingFileNamesItsFlag: a file flag naming no file fails with an
// error that begins with the flag and its value, "-input nosuch.csv: open
// nosuch.csv: no such file or directory", for every input file flag of
// every command, serve's data included (the readers said "dataset: open
// nosuch.csv: …", without the flag). The error is still the data's (exit
// status 1) and still fs.ErrNotExist. A file named by an argument
// (constraints check FILE) is named by the error as it is.
func TestMissingFileNamesItsFlag(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nosuch.txt")
	table := writeTemp(t, "data.csv", "x1,x2,label\n0,0,0\n0,1,0\n5,5,1\n5,6,1\n")
	labels := writeTemp(t, "labels.txt", "0\n0\n1\n1\n")
	mat, _, _ := bipartiteFiles(t)
	for _, tc := range []struct {
		flag string
		args []string
	}{
		{"-input", []string{"cluster", "-input", missing, "-k", "2"}},
		{"-graph-file", []string{"cluster", "-graph-file", missing, "-k", "2"}},
		{"-bipartite", []string{"cluster", "-bipartite", missing, "-k", "2"}},
		{"-row-names", []string{"cluster", "-bipartite", mat, "-row-names", missing, "-k", "2"}},
		{"-col-names", []string{"cluster", "-bipartite", mat, "-col-names", missing, "-k", "2"}},
		{"-truth", []string{"cluster", "-input", table, "-truth", missing, "-k", "2"}},
		{"-constraints", []string{"cluster", "-input", table, "-knn", "2", "-constraints", missing, "-k", "2"}},
		{"-partial-labels", []string{"cluster", "-input", table, "-knn", "2", "-partial-labels", missing, "-k", "2"}},
		// serve reads its data as cluster does (inputOptions.load), before it listens.
		{"-input", []string{"serve", "-addr", "127.0.0.1:0", "-input", missing}},
		{"-truth", []string{"serve", "-addr", "127.0.0.1:0", "-input", table, "-truth", missing}},
		{"-input", []string{"labels", "-input", missing}},
		{"-graph-file", []string{"labels", "-graph-file", missing, "-gml-label", "club"}},
		{"-truth", []string{"constraints", "gen", "-truth", missing, "-protocol", "pairs-frac"}},
		{"-names", []string{"constraints", "check", "-names", missing, labels}},
		{"-truth", []string{"eval", "-truth", missing, "-pred", labels}},
		{"-pred", []string{"eval", "-truth", labels, "-pred", missing}},
		{"-graph", []string{"eval", "-truth", labels, "-pred", labels, "-graph", missing}},
		{"-constraints", []string{"eval", "-truth", labels, "-pred", labels, "-constraints", missing}},
		{"-input", []string{"powerlaw", "fit", "-input", missing}},
	} {
		t.Run(strings.Join(tc.args[:2], " ")+" "+tc.flag, func(t *testing.T) {
			args := tc.args
			if tc.args[0] == "cluster" || tc.args[0] == "labels" || tc.args[1] == "gen" {
				args = append(args, "-o", filepath.Join(t.TempDir(), "out"))
			}
			m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
			err := m.Run(context.Background(), args)
			want := tc.flag + " " + missing + ": open " + missing + ": no such file or directory"
			if err == nil || err.Error() != want {
				t.Fatalf("error %v, want %q", err, want)
			}
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("error %v is not fs.ErrNotExist", err)
			}
			if code := exitCode(context.Background(), err, io.Discard); code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
		})
	}
	// The argument of constraints check is named as it is.
	_, _, err := run(t, "constraints", "check", missing)
	if want := "open " + missing + ": no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("constraints check %s: error %v, want %q", missing, err, want)
	}
}
