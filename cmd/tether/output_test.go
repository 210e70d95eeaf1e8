package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tether-sc/tether/internal/atomicfile"
)

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteOutputStdout(t *testing.T) {
	// Names of standard output are written as "-", to m.Stdout.
	for _, path := range []string{"", "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"} {
		var stdout bytes.Buffer
		m := &Main{Stdout: &stdout, Stderr: io.Discard}
		err := m.writeOutput(context.Background(), path, func(w io.Writer) error {
			_, err := io.WriteString(w, "hello\n")
			return err
		})
		if err != nil || stdout.String() != "hello\n" {
			t.Errorf("path %q: stdout %q, err %v", path, stdout.String(), err)
		}
	}
}

func TestWriteOutputFile(t *testing.T) {
	dir := t.TempDir()
	m := &Main{Stdout: io.Discard, Stderr: io.Discard}
	path := filepath.Join(dir, "a", "b", "out.txt") // parents are created
	for _, content := range []string{"first\n", "second\n"} {
		err := m.writeOutput(context.Background(), path, func(w io.Writer) error {
			// Nothing is visible at path before write returns.
			if _, err := os.Stat(path); content == "first\n" && err == nil {
				t.Error("the file exists before the write finished")
			}
			_, err := io.WriteString(w, content)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
		if names := dirNames(t, filepath.Dir(path)); len(names) != 1 {
			t.Errorf("directory holds %v, want only out.txt", names)
		}
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644", fi.Mode(), err)
	}
	// The permissions of a replaced file are kept.
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := m.writeOutput(context.Background(), path, func(w io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after replacing %v, %v; want 0600", fi.Mode(), err)
	}
}

func TestWriteOutputFailure(t *testing.T) {
	errWrite := errors.New("disk on fire")
	for _, c := range []struct {
		name    string
		old     string // existing content, "" for none
		write   func(ctx context.Context, cancel func(), w io.Writer) error
		wantErr error
	}{
		{"error mid-write", "", func(_ context.Context, _ func(), w io.Writer) error {
			io.WriteString(w, "partial")
			return errWrite
		}, errWrite},
		{"error replacing", "old\n", func(_ context.Context, _ func(), w io.Writer) error {
			io.WriteString(w, "partial")
			return errWrite
		}, errWrite},
		{"cancelled mid-write", "old\n", func(_ context.Context, cancel func(), w io.Writer) error {
			io.WriteString(w, "partial")
			cancel()
			_, err := io.WriteString(w, "more")
			return err
		}, context.Canceled},
		{"cancelled after write", "", func(_ context.Context, cancel func(), w io.Writer) error {
			io.WriteString(w, "all")
			cancel()
			return nil
		}, context.Canceled},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.csv")
			if c.old != "" {
				if err := os.WriteFile(path, []byte(c.old), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			m := &Main{Stdout: io.Discard, Stderr: io.Discard}
			err := m.writeOutput(ctx, path, func(w io.Writer) error { return c.write(ctx, cancel, w) })
			if !errors.Is(err, c.wantErr) {
				t.Errorf("err = %v, want %v", err, c.wantErr)
			}
			names := dirNames(t, dir)
			if c.old == "" {
				if len(names) != 0 {
					t.Errorf("directory holds %v, want nothing", names)
				}
				return
			}
			if len(names) != 1 {
				t.Errorf("directory holds %v, want only out.csv", names)
			}
			if got, _ := os.ReadFile(path); string(got) != c.old {
				t.Errorf("out.csv holds %q, want the old %q", got, c.old)
			}
		})
	}
}

func TestWriteOutputSpecialFiles(t *testing.T) {
	m := &Main{Stdout: io.Discard, Stderr: io.Discard}
	dir := t.TempDir()
	if err := m.writeOutput(context.Background(), dir, func(w io.Writer) error { return nil }); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("writing to a directory: err = %v", err)
	}
	// A device is written in place, not replaced.
	if _, err := os.Stat(os.DevNull); err == nil {
		if err := m.writeOutput(context.Background(), os.DevNull, func(w io.Writer) error {
			_, err := io.WriteString(w, "gone")
			return err
		}); err != nil {
			t.Errorf("writing to %s: %v", os.DevNull, err)
		}
	}
	// A symbolic link is followed: its target gets the content.
	target := filepath.Join(dir, "target.txt")
	link := filepath.Join(dir, "link.txt")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := m.writeOutput(context.Background(), link, func(w io.Writer) error {
		_, err := io.WriteString(w, "new")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.txt is no longer a link: %v, %v", fi.Mode(), err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("target holds %q, want new", got)
	}
}

func TestOutputFlagsCreateParents(t *testing.T) {
	// -o of gen and -o/-plot of cluster all create missing directories.
	dir := t.TempDir()
	data := filepath.Join(dir, "x", "y", "moons.csv")
	var out, errb bytes.Buffer
	m := &Main{Stdout: &out, Stderr: &errb}
	if err := m.Run(context.Background(), []string{"gen", "moons", "-n", "60", "-o", data}); err != nil {
		t.Fatalf("gen: %v\n%s", err, errb.String())
	}
	labels := filepath.Join(dir, "p", "q", "labels.txt")
	plot := filepath.Join(dir, "r", "plot.png")
	if err := m.Run(context.Background(), []string{"cluster", "-input", data, "-label", "last", "-k", "2", "-knn", "5",
		"-o", labels, "-plot", plot, "-quiet"}); err != nil {
		t.Fatalf("cluster: %v\n%s", err, errb.String())
	}
	for _, p := range []string{data, labels, plot} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestOutputCollisions: an output flag naming a file the command reads, or
// the file of another of its outputs, is a usage error before anything is
// written, instead of one file silently replacing the other (gen sbm -o
// g.labels wrote the graph, then its labels over it).
func TestOutputCollisions(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.csv")
	truth := filepath.Join(dir, "t.txt")
	csv := "x,y\n0,0\n0.1,0\n0,0.1\n5,5\n5.1,5\n5,5.1\n"
	// A folder and a link to it: d/x.txt and link/x.txt are one file,
	// before either exists (gen wrote both, the labels over the graph,
	// and reported both written).
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	// A dangling link is followed: it writes its target.
	if err := os.Symlink("d/z.txt", filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		args  []string
		flags []string // named in the message
	}{
		{"gen -o and -labels through a linked folder", []string{"gen", "sbm", "-n", "20", "-o", filepath.Join(dir, "d", "x.txt"), "-labels", filepath.Join(dir, "link", "x.txt")}, []string{"-o", "-labels"}},
		{"gen -o a dangling link, -labels its target", []string{"gen", "sbm", "-n", "20", "-o", filepath.Join(dir, "dangling"), "-labels", filepath.Join(dir, "link", "z.txt")}, []string{"-o", "-labels"}},
		{"gen -o and -labels in a new folder through a link", []string{"gen", "sbm", "-n", "20", "-o", filepath.Join(dir, "link", "new", "y.txt"), "-labels", filepath.Join(dir, "d", "new", "y.txt")}, []string{"-o", "-labels"}},
		{"gen -o is the default labels file", []string{"gen", "sbm", "-n", "20", "-o", filepath.Join(dir, "g.labels")}, []string{"-o", "-labels"}},
		{"gen -o and -labels", []string{"gen", "sbm", "-n", "20", "-o", filepath.Join(dir, "g.txt"), "-labels", filepath.Join(dir, "g.txt")}, []string{"-o", "-labels"}},
		{"gen both to stdout", []string{"gen", "sbm", "-n", "20", "-labels", "-"}, []string{"-o", "-labels"}},
		// Names of standard output are standard output (the graph and the
		// labels, or the graph and the JSON document, were mixed there).
		{"gen -o /dev/stdout -labels -", []string{"gen", "sbm", "-n", "20", "-o", "/dev/stdout", "-labels", "-"}, []string{"-o", "-labels", "standard output"}},
		{"gen -o /dev/fd/1 -labels /proc/self/fd/1", []string{"gen", "sbm", "-n", "20", "-o", "/dev/fd/1", "-labels", "/proc/self/fd/1"}, []string{"-o", "-labels", "standard output"}},
		{"cluster -json -graph-out /dev/stdout", []string{"cluster", "-input", data, "-k", "2", "-knn", "2", "-sigma", "median", "-json", "-graph-out", "/dev/stdout"}, []string{"-json", "-graph-out"}},
		{"cluster -o /dev/stdout -graph-out -", []string{"cluster", "-input", data, "-k", "2", "-knn", "2", "-sigma", "median", "-o", "/dev/stdout", "-graph-out", "-"}, []string{"-o", "-graph-out", "standard output"}},
		{"cluster -o is -input", []string{"cluster", "-input", data, "-k", "2", "-knn", "2", "-sigma", "median", "-o", data}, []string{"-o", "-input"}},
		{"cluster -o is -truth", []string{"cluster", "-input", data, "-k", "2", "-knn", "2", "-sigma", "median", "-truth", truth, "-o", truth}, []string{"-o", "-truth"}},
		{"cluster -o is -graph-out", []string{"cluster", "-input", data, "-k", "2", "-knn", "2", "-sigma", "median", "-o", filepath.Join(dir, "out"), "-graph-out", filepath.Join(dir, "out")}, []string{"-o", "-graph-out"}},
		{"cluster -plot is -o, spelt otherwise", []string{"cluster", "-input", data, "-k", "2", "-knn", "2", "-sigma", "median", "-o", filepath.Join(dir, "p.png"), "-plot", filepath.Join(dir, ".", "p.png")}, []string{"-o", "-plot"}},
		{"cluster -gen-out labels is -o", []string{"cluster", "-gen", "sbm", "-n", "20", "-k", "2", "-gen-out", filepath.Join(dir, "s.txt"), "-o", filepath.Join(dir, "s.labels")}, []string{"-o", "-gen-out"}},
		{"labels -o is -input", []string{"labels", "-input", data, "-label", "last", "-o", data}, []string{"-o", "-input"}},
		{"constraints gen -o is -truth", []string{"constraints", "gen", "-truth", truth, "-protocol", "pairs-frac", "-o", truth}, []string{"-o", "-truth"}},
		{"constraints check -o is the file checked", []string{"constraints", "check", "-o", truth, truth}, []string{"-o", "the constraints checked"}},
		{"constraints check -o is -names", []string{"constraints", "check", "-names", data, "-o", data, truth}, []string{"-o", "-names"}},
		{"constraints check -json -o -", []string{"constraints", "check", "-json", "-o", "-", truth}, []string{"-json", "-o", "standard output"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(data, []byte(csv), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(truth, []byte("0\n0\n0\n1\n1\n1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := dirNames(t, dir)
			_, _, err := run(t, append(c.args, "-quiet")[:len(c.args)+quietArg(c.args)]...)
			if !errors.Is(err, errUsage) {
				t.Fatalf("%v: err = %v, want a usage error", c.args, err)
			}
			for _, f := range c.flags {
				if !strings.Contains(err.Error(), f) {
					t.Errorf("error %q does not name %s", err, f)
				}
			}
			if after := dirNames(t, dir); strings.Join(after, ",") != strings.Join(before, ",") {
				t.Errorf("files %v after the error, want %v", after, before)
			}
			for p, want := range map[string]string{data: csv, truth: "0\n0\n0\n1\n1\n1\n"} {
				if b, _ := os.ReadFile(p); string(b) != want {
					t.Errorf("%s was changed", p)
				}
			}
		})
	}
	// Devices may be shared: both outputs to /dev/null.
	if _, err := os.Stat(os.DevNull); err == nil {
		_, _, err := run(t, "cluster", "-input", data, "-k", "2", "-knn", "2", "-sigma", "median", "-quiet", "-o", os.DevNull, "-graph-out", os.DevNull)
		if err != nil {
			t.Errorf("-o and -graph-out %s: %v", os.DevNull, err)
		}
	}
}

// quietArg is 1 when the command takes -quiet (cluster), else 0.
func quietArg(args []string) int {
	if args[0] == "cluster" {
		return 1
	}
	return 0
}

// TestWroteLines: every file a command writes is named once on standard
// error by a line starting "wrote " (not with -quiet, not for standard
// output), the files gen sbm writes beside -o and cluster's -plot
// included, which were written silently.
func TestWroteLines(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	// Inputs of the later cases.
	if _, _, err := run(t, "gen", "moons", "-n", "100", "-seed", "1", "-o", p("in.csv")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "labels", "-input", p("in.csv"), "-label", "label", "-o", p("in.truth")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "constraints", "gen", "-truth", p("in.truth"), "-protocol", "pairs-frac", "-rate", "0.01", "-o", p("in-cons.csv")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		args  []string
		files []string // named by the wrote lines, in order
	}{
		{"gen points", []string{"gen", "moons", "-n", "50", "-o", p("a.csv")}, []string{p("a.csv")}},
		{"gen graph and its labels", []string{"gen", "sbm", "-n", "60", "-o", p("g.mtx")}, []string{p("g.mtx"), p("g.labels")}},
		{"gen to standard output", []string{"gen", "moons", "-n", "50"}, nil},
		{"cluster outputs", []string{"cluster", "-input", p("in.csv"), "-k", "2", "-o", p("c.pred"), "-graph-out", p("c.mtx"), "-plot", p("c.png")},
			[]string{p("c.mtx"), p("c.png"), p("c.pred")}},
		{"cluster -quiet", []string{"cluster", "-input", p("in.csv"), "-k", "2", "-o", p("q.pred"), "-plot", p("q.png"), "-quiet"}, nil},
		{"cluster -gen-out", []string{"cluster", "-gen", "sbm", "-n", "60", "-k", "2", "-gen-out", p("s.txt"), "-o", p("s.pred")},
			[]string{p("s.txt"), p("s.labels"), p("s.pred")}},
		{"cluster -json -o file", []string{"cluster", "-input", p("in.csv"), "-k", "2", "-json", "-o", p("j.pred")}, []string{p("j.pred")}},
		{"cluster labels to standard output", []string{"cluster", "-input", p("in.csv"), "-k", "2", "-o", "-"}, nil},
		{"labels", []string{"labels", "-input", p("in.csv"), "-label", "label", "-o", p("l.truth")}, []string{p("l.truth")}},
		{"constraints gen", []string{"constraints", "gen", "-truth", p("in.truth"), "-protocol", "pairs-1/n", "-o", p("cg.csv")}, []string{p("cg.csv")}},
		{"constraints gen, labels", []string{"constraints", "gen", "-truth", p("in.truth"), "-protocol", "labels-frac", "-o", p("cg.txt")}, []string{p("cg.txt")}},
		{"constraints check -o", []string{"constraints", "check", "-conflicts", "soft", "-o", p("ck.csv"), p("in-cons.csv")}, []string{p("ck.csv")}},
		{"powerlaw sample", []string{"powerlaw", "sample", "-alpha", "2.5", "-n", "10", "-o", p("v.txt")}, []string{p("v.txt")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, err := run(t, c.args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, errOut)
			}
			var got []string
			for _, l := range strings.Split(errOut, "\n") {
				if rest, ok := strings.CutPrefix(l, "wrote "); ok {
					if i := strings.LastIndex(rest, " to "); i >= 0 && !strings.HasPrefix(rest, dir) {
						rest = rest[i+len(" to "):] // "wrote 3 pairs (…) to FILE"
					}
					got = append(got, rest)
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.files, "\n") {
				t.Errorf("wrote lines name %q, want %q; stderr:\n%s", got, c.files, errOut)
			}
			for _, f := range c.files {
				if _, err := os.Stat(f); err != nil {
					t.Errorf("%s reported but: %v", f, err)
				}
			}
		})
	}
}

// TestFailedCommandLeavesNoOutput: a command that fails after writing some
// of its outputs leaves none of them, nor the folders created for them:
// every output is put in place only when the command succeeds. cluster
// wrote -graph-out and -plot before an -o that failed, gen the graph
// before the labels it could not write. The failing output is /dev/full,
// a device whose writes fail (a full disk): the outputs that cannot be
// written at all are refused before the work (TestOutputTargetsChecked).
func TestFailedCommandLeavesNoOutput(t *testing.T) {
	const full = "/dev/full"
	if _, err := os.Stat(full); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "f.csv")
	if _, _, err := run(t, "gen", "blobs", "-n", "30", "-k", "3", "-o", data); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"cluster -graph-out and -plot before a failed -o", []string{"cluster", "-input", data, "-k", "3", "-quiet",
			"-graph-out", filepath.Join(dir, "new", "g.out"), "-plot", filepath.Join(dir, "new", "sub", "p.png"), "-o", full}},
		{"cluster -gen-out before a failed -o", []string{"cluster", "-gen", "sbm", "-n", "60", "-k", "2", "-quiet",
			"-gen-out", filepath.Join(dir, "new", "sub", "g.txt"), "-o", full}},
		{"gen graph before failed labels", []string{"gen", "sbm", "-n", "50", "-o", filepath.Join(dir, "new", "gg.txt"), "-labels", full}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := run(t, c.args...)
			if err == nil || !strings.Contains(err.Error(), "no space left") {
				t.Fatalf("err = %v, want the failed write's", err)
			}
			if got := dirNames(t, dir); strings.Join(got, ",") != "f.csv" {
				t.Errorf("files %v after the failure, want only f.csv", got)
			}
		})
	}
}

// TestInterruptLeavesNoGenOut: Ctrl-C during the clustering leaves none of
// the files written before it (cluster -gen-out wrote the generated graph
// and its labels as soon as they were generated, and they stayed), nor the
// folder created for them.
func TestInterruptLeavesNoGenOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command in a child process")
	}
	dir := t.TempDir()
	sub := filepath.Join(dir, "o7")
	cmd := exec.Command(os.Args[0], "cluster", "-gen", "sbm", "-n", "200000", "-k", "4", "-quiet",
		"-gen-out", filepath.Join(sub, "g.txt"), "-o", filepath.Join(sub, "lab.txt"))
	cmd.Env = append(os.Environ(), "TETHER_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The labels are written after the graph: once their file (or its
	// temporary file) is there, the clustering starts (18 s on this
	// graph).
	staged := func() bool {
		entries, _ := os.ReadDir(sub)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".g.labels.tmp") || e.Name() == "g.labels" {
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(20 * time.Second); !staged(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the generated data were not written; stderr:\n%s", stderr.String())
		}
	}
	time.Sleep(500 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want status 130; stderr:\n%s", err, stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left after the interrupt: %v", dirNames(t, dir))
	}
}

// TestOutputTargetsChecked: an output that cannot be written — an existing
// folder, a path ending in '/', a path under a file, a folder that cannot
// be created — is a usage error naming the flag and why, for every command
// that writes files, before the command reads or computes anything (a
// cluster -o naming a folder failed after the clustering), and nothing is
// left (-o newdir/ created newdir and left it).
func TestOutputTargetsChecked(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "f.csv")
	truth := filepath.Join(dir, "t.txt")
	adir := filepath.Join(dir, "adir")
	for p, content := range map[string]string{data: "x,y\n0,0\n0.1,0\n0,0.1\n5,5\n5.1,5\n5,5.1\n", truth: "0\n0\n0\n1\n1\n1\n"} {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(adir, 0o755); err != nil {
		t.Fatal(err)
	}
	newdir := filepath.Join(dir, "newdir") + "/"
	under := filepath.Join(data, "x.txt")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"cluster -o folder", []string{"cluster", "-input", data, "-k", "2", "-o", adir}, "-o " + adir + " is a directory"},
		{"cluster -o newdir/", []string{"cluster", "-input", data, "-k", "2", "-o", newdir}, "-o " + newdir + " ends in /"},
		{"cluster -graph-out under a file", []string{"cluster", "-input", data, "-k", "2", "-graph-out", under}, "-graph-out " + under + ": " + data + " is a file, not a folder"},
		{"cluster -plot under a file", []string{"cluster", "-input", data, "-k", "2", "-plot", filepath.Join(data, "p.png")}, "-plot " + filepath.Join(data, "p.png") + ": " + data + " is a file"},
		{"cluster -gen-out folder", []string{"cluster", "-gen", "moons", "-k", "2", "-gen-out", adir}, "-gen-out " + adir + " is a directory"},
		{"labels -o folder", []string{"labels", "-input", data, "-label", "last", "-o", adir}, "-o " + adir + " is a directory"},
		{"gen -o newdir/", []string{"gen", "moons", "-o", newdir}, "-o " + newdir + " ends in /"},
		{"gen -labels under a file", []string{"gen", "sbm", "-o", filepath.Join(dir, "g.txt"), "-labels", under}, "-labels " + under + ": " + data + " is a file"},
		{"constraints gen -o folder", []string{"constraints", "gen", "-truth", truth, "-protocol", "pairs-1/n", "-o", adir}, "-o " + adir + " is a directory"},
		{"constraints check -o folder", []string{"constraints", "check", "-o", adir, truth}, "-o " + adir + " is a directory"},
		{"constraints closure -o under a file", []string{"constraints", "closure", "-o", data}, "-o's page " + filepath.Join(data, "closure.md") + ": " + data + " is a file"},
		{"powerlaw sample -o folder", []string{"powerlaw", "sample", "-alpha", "2", "-n", "3", "-o", adir}, "-o " + adir + " is a directory"},
		{"demo -o under a file", []string{"demo", "-o", filepath.Join(data, "d")}, "-o's figure " + filepath.Join(data, "d", "demo.png") + ": " + data + " is a file"},
		{"repro -o under a file", []string{"repro", "-quick", "-o", filepath.Join(data, "r"), "table4.2"}, "-o's ledger " + filepath.Join(data, "r", "CLAIMS.md") + ": " + data + " is a file"},
	}
	if _, err := os.Stat("/proc/version"); err == nil {
		cases = append(cases, struct {
			name string
			args []string
			want string
		}{"cluster -o in a folder that cannot be created", []string{"cluster", "-input", data, "-k", "2", "-o", "/proc/nope/x"}, "-o /proc/nope/x: cannot create the folder /proc/nope"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := dirNames(t, dir)
			_, _, err := run(t, c.args...)
			if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want a usage error with %q", err, c.want)
			}
			if after := dirNames(t, dir); strings.Join(after, ",") != strings.Join(before, ",") {
				t.Errorf("files %v after the error, want %v", after, before)
			}
		})
	}
}

// cancelWriter cancels a context at its first write: the line reporting
// the first output put in place.
type cancelWriter struct{ cancel context.CancelFunc }

func (c cancelWriter) Write(p []byte) (int, error) {
	c.cancel()
	return len(p), nil
}

// TestFinishAllOrNothing: the outputs of a command that succeeded are all
// put in place, an interrupt arriving between two renames included (the
// first stayed, the others were removed), and a rename that fails removes
// the outputs not yet in place and names those written and those not.
func TestFinishAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	m := &Main{Stdout: io.Discard, Stderr: io.Discard}
	stage := func(ctx context.Context, paths ...string) {
		t.Helper()
		for _, p := range paths {
			if err := m.writeOutput(ctx, p, func(w io.Writer) error {
				_, err := io.WriteString(w, filepath.Base(p))
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
	}

	// An interrupt after the first rename.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m.outputs = &outputs{}
	a, b, c := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt"), filepath.Join(dir, "c.txt")
	stage(ctx, a, b, c)
	m.outputs.staged[0].w = cancelWriter{cancel}
	if err := m.outputs.finish(ctx, nil); err != nil {
		t.Errorf("finish: %v", err)
	}
	for _, p := range []string{a, b, c} {
		if got, err := os.ReadFile(p); err != nil || string(got) != filepath.Base(p) {
			t.Errorf("%s holds %q (%v) after an interrupt during the renames", p, got, err)
		}
	}

	// A rename that fails: e's path became a folder that is not empty.
	dir2 := filepath.Join(dir, "2")
	d, e, f := filepath.Join(dir2, "d.txt"), filepath.Join(dir2, "e.txt"), filepath.Join(dir2, "f.txt")
	m.outputs = &outputs{}
	stage(context.Background(), d, e, f)
	if err := os.MkdirAll(filepath.Join(e, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := m.outputs.finish(context.Background(), nil)
	if want := "(written: " + d + "; not written: " + e + ", " + f + ")"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want one ending %q", err, want)
	}
	if got := dirNames(t, dir2); strings.Join(got, ",") != "d.txt,e.txt" {
		t.Errorf("files %v after the failed rename, want d.txt and the folder e.txt", got)
	}
}

// TestStaleTemporaryFileNote: a temporary file of -o left by a tether that
// was killed outright (".NAME.tmpPID-DIGITS", PID no longer running) does
// not disturb the write, is named in a note (not with -quiet), and is left
// in place; a temporary file of a process that runs is not named.
func TestStaleTemporaryFileNote(t *testing.T) {
	child := exec.Command(os.Args[0], "-test.run=^$")
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(atomicfile.Target(filepath.Join(t.TempDir(), "a.pred")))
	out := filepath.Join(dir, "a.pred")
	stale := filepath.Join(dir, fmt.Sprintf(".a.pred.tmp%d-123", child.Process.Pid))
	alive := filepath.Join(dir, ".a.pred.tmp1-456")
	for _, f := range []string{stale, alive} {
		if err := os.WriteFile(f, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, quiet := range []bool{false, true} {
		args := []string{"cluster", "-gen", "moons", "-n", "100", "-k", "2", "-o", out}
		if quiet {
			args = append(args, "-quiet")
		}
		_, errOut, err := run(t, args...)
		if err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		note := "tether: note: " + out + ": " + stale + " left by a tether killed while writing it"
		if got := strings.Contains(errOut, note); got == quiet {
			t.Errorf("-quiet %v: stderr %q, want the note %q: %v", quiet, errOut, note, !quiet)
		}
		if strings.Contains(errOut, alive) {
			t.Errorf("the temporary file of a running process is named: %q", errOut)
		}
		if names := dirNames(t, dir); len(names) != 3 {
			t.Errorf("files %v, want a.pred and the two temporary files", names)
		}
	}
}
