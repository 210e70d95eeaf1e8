package inputfile

import (
	"context"
	"fmt"
	"io"
	"os"
	"testing"
)

// Replay gives the bytes of a pipe, which can be read once, to every
// reader: the first reads the pipe, the later ones what it kept; a reader
// that stopped early leaves only what it read.
func TestReplay(t *testing.T) {
	for _, tc := range []struct {
		name  string
		first int64 // bytes the first consumer reads (−1: all)
		want  string
	}{
		{"read whole", -1, "a\nb\nc\n"},
		{"first stops early", 2, "a\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			go func() {
				w.WriteString("a\nb\nc\n")
				w.Close()
			}()
			rp := NewReplay(context.Background(), fmt.Sprintf("/proc/self/fd/%d", r.Fd()))
			defer rp.Close()
			first, err := rp.Reader()
			if err != nil {
				t.Skipf("no /proc/self/fd: %v", err)
			}
			if tc.first >= 0 {
				first = io.LimitReader(first, tc.first)
			}
			b1, err := io.ReadAll(first)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 {
				again, err := rp.Reader()
				if err != nil {
					t.Fatal(err)
				}
				b2, err := io.ReadAll(again)
				if err != nil {
					t.Fatal(err)
				}
				if string(b2) != string(b1) || string(b2) != tc.want {
					t.Errorf("first read %q, later %q; want %q both", b1, b2, tc.want)
				}
			}
		})
	}
}
