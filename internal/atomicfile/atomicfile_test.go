package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite checks the three outcomes: a complete write replaces the file;
// a failed or cancelled write leaves the old file (or none) and no
// temporary file behind.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "out.txt")
	fail := errors.New("disk full")
	ctx, cancel := context.WithCancel(context.Background())
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		write func(io.Writer) error
		err   error
		want  string // content afterwards; "" = no file
	}{
		{"first write", context.Background(), writeString("one"), nil, "one"},
		{"failing write", context.Background(), func(w io.Writer) error {
			io.WriteString(w, "partial")
			return fail
		}, fail, "one"},
		{"cancelled during write", ctx, func(w io.Writer) error {
			io.WriteString(w, "par")
			cancel()
			_, err := io.WriteString(w, "tial")
			return err
		}, context.Canceled, "one"},
		{"second write", context.Background(), writeString("two"), nil, "two"},
	} {
		err := Write(tc.ctx, path, tc.write)
		if !errors.Is(err, tc.err) {
			t.Fatalf("%s: err = %v, want %v", tc.name, err, tc.err)
		}
		b, rerr := os.ReadFile(path)
		if rerr != nil || string(b) != tc.want {
			t.Fatalf("%s: file holds %q (%v), want %q", tc.name, b, rerr, tc.want)
		}
		entries, _ := os.ReadDir(filepath.Dir(path))
		if len(entries) != 1 {
			t.Fatalf("%s: %d files in the directory, want 1 (a temporary file was left)", tc.name, len(entries))
		}
	}
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// TestWriteErrorsNameThePath: a failure names the path asked for, never
// the temporary file (it said "open /proc/.version.tmp123: no such file
// or directory").
func TestWriteErrorsNameThePath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{filepath.Join(file, "out.csv"), "writing " + filepath.Join(file, "out.csv") + ": not a directory"},
	}
	if _, err := os.Stat("/proc/version"); err == nil {
		// procfs: an existing regular file in a directory where no file
		// can be created.
		cases = append(cases, struct{ path, want string }{"/proc/version", "writing /proc/version: cannot create a file in /proc: no such file or directory"})
	}
	for _, c := range cases {
		err := Write(context.Background(), c.path, writeString("y"))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: err %v, want %q", c.path, err, c.want)
		}
	}
}

// TestStage: a staged file is not at its path until Commit; Discard, a
// cancelled Commit and a failed Stage remove it and the folders created
// for it, last staged first, and leave an existing file as it was.
func TestStage(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "new", "sub", "a.txt")
	b := filepath.Join(dir, "new", "sub", "b.txt")
	old := filepath.Join(dir, "old.txt")
	if err := os.WriteFile(old, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	stage := func(path, s string) *Pending {
		t.Helper()
		p, err := Stage(ctx, path, writeString(s))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	names := func() []string {
		var got []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if p != dir {
				rel, _ := filepath.Rel(dir, p)
				got = append(got, rel)
			}
			return nil
		})
		return got
	}

	pa, pb, po := stage(a, "a"), stage(b, "b"), stage(old, "new")
	if _, err := os.Stat(a); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a staged file is at its path before Commit: %v", err)
	}
	po.Discard()
	pb.Discard()
	pa.Discard()
	if got := names(); len(got) != 1 || got[0] != "old.txt" {
		t.Errorf("after Discard: %v, want only old.txt", got)
	}
	if b, _ := os.ReadFile(old); string(b) != "old" {
		t.Errorf("old.txt holds %q after Discard", b)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := stage(a, "a").Commit(cancelled); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Commit: %v", err)
	}
	if _, err := Stage(ctx, filepath.Join(dir, "new", "c.txt"), func(io.Writer) error { return errors.New("boom") }); err == nil {
		t.Error("a failing write staged")
	}
	if got := names(); len(got) != 1 {
		t.Errorf("after a cancelled Commit and a failed Stage: %v, want only old.txt", got)
	}

	pa, po = stage(a, "a"), stage(old, "new")
	if err := pa.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := po.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	pa.Discard() // nothing to do after Commit
	for p, want := range map[string]string{a: "a", old: "new"} {
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s holds %q (%v), want %q", p, b, err, want)
		}
	}
}

// TestCheck: the paths Write cannot write are refused before anything is
// written, and Check leaves nothing behind.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{filepath.Join(dir, "out.txt"), ""},
		{file, ""},
		{filepath.Join(dir, "new", "sub", "out.txt"), ""},
		{dir, dir + " is a directory: name a file"},
		{filepath.Join(dir, "new") + "/", filepath.Join(dir, "new") + "/ ends in /, a folder's name: name a file"},
		{filepath.Join(file, "out.txt"), filepath.Join(file, "out.txt") + ": " + file + " is a file, not a folder"},
		{filepath.Join(file, "a", "out.txt"), filepath.Join(file, "a", "out.txt") + ": " + file + " is a file, not a folder"},
	}
	if _, err := os.Stat(os.DevNull); err == nil {
		cases = append(cases, struct{ path, want string }{os.DevNull, ""})
	}
	if _, err := os.Stat("/proc/version"); err == nil {
		// procfs: no file or folder can be created in it.
		cases = append(cases,
			struct{ path, want string }{"/proc/nope/x", "/proc/nope/x: cannot create the folder /proc/nope: no such file or directory"},
			struct{ path, want string }{"/proc/version", "/proc/version: cannot create a file in /proc: no such file or directory"})
	}
	for _, c := range cases {
		err := Check(c.path)
		if got := fmt.Sprint(err); (err == nil) != (c.want == "") || err != nil && got != c.want {
			t.Errorf("Check(%s) = %v, want %q", c.path, err, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("Check left files: %v", entries)
	}
}

// TestTarget: paths reaching one folder through a symbolic link have the
// same Target before the file, or the folders under the link, exist.
func TestTarget(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := filepath.Join(dir, "d")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d", filepath.Join(dir, "link")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.Symlink("link/new/y.txt", filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "link", "x.txt"), filepath.Join(d, "x.txt")},
		{filepath.Join(dir, "link", "new", "sub", "x.txt"), filepath.Join(d, "new", "sub", "x.txt")},
		{filepath.Join(dir, "link"), d},
		{filepath.Join(dir, "d", "x.txt"), filepath.Join(d, "x.txt")},
		{filepath.Join(dir, "dangling"), filepath.Join(d, "new", "y.txt")},
	} {
		if got := Target(c.path); got != c.want {
			t.Errorf("Target(%s) = %s, want %s", c.path, got, c.want)
		}
	}
}

// TestWriteDanglingLink: a symbolic link whose target does not exist is
// followed, as one whose target exists is: its target is created and the
// link stays (it was replaced by a regular file, its target's folder left
// empty), relative targets relative to the link's folder, through links
// to links and linked folders; a loop of links is an error.
func TestWriteDanglingLink(t *testing.T) {
	dir := t.TempDir()
	tgt := filepath.Join(dir, "tgt")
	if err := os.Mkdir(tgt, 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"lnk.txt":   "tgt/new.txt",
		"lnk2.txt":  "lnk3.txt", // a link to a dangling link
		"lnk3.txt":  filepath.Join(tgt, "new3.txt"),
		"ab":        "a/b",
		"a/b/up":    "../../tgt/up.txt", // relative to a/b, not to dir
		"lnk4.txt":  "tgt/newdir/new4.txt",
		"loop1.txt": "loop2.txt",
		"loop2.txt": "loop1.txt",
	}
	for name, dest := range links {
		if err := os.Symlink(dest, filepath.Join(dir, name)); err != nil {
			t.Skip("no symbolic links:", err)
		}
	}
	for _, c := range []struct{ link, target string }{
		{"lnk.txt", "tgt/new.txt"},
		{"lnk2.txt", "tgt/new3.txt"},
		{"ab/up", "tgt/up.txt"},
		{"lnk4.txt", "tgt/newdir/new4.txt"},
	} {
		link := filepath.Join(dir, c.link)
		if err := Write(context.Background(), link, writeString(c.link)); err != nil {
			t.Errorf("%s: %v", c.link, err)
			continue
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link (%v)", c.link, err)
		}
		if b, err := os.ReadFile(filepath.Join(dir, c.target)); err != nil || string(b) != c.link {
			t.Errorf("%s: target %s holds %q (%v)", c.link, c.target, b, err)
		}
	}
	if err := Write(context.Background(), filepath.Join(dir, "loop1.txt"), writeString("x")); err == nil {
		t.Error("a loop of links was written")
	}
	if err := Check(filepath.Join(dir, "lnk.txt")); err != nil {
		t.Errorf("Check of a link: %v", err)
	}
}
