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
