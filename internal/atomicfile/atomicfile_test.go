package atomicfile

import (
	"context"
	"errors"
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
