//go:build linux

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNoWroteForSpecialFile: an output to a file that is not a regular one
// (atomicfile writes it directly, no file is made) is not reported as a
// file written: nothing for /dev/null or a link to it (cluster -o
// /dev/null printed "wrote /dev/null"), "sent output to FIFO" for a FIFO,
// and "sent 5 values to FIFO" for a line that counts what it wrote; a
// regular file is still "wrote FILE".
func TestNoWroteForSpecialFile(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "null.csv")
	if err := os.Symlink(os.DevNull, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	regular := filepath.Join(dir, "labels.csv")
	// drain reads the FIFO while the command writes it.
	drain := func() chan error {
		done := make(chan error, 1)
		go func() {
			f, err := os.Open(fifo)
			if err == nil {
				_, err = io.Copy(io.Discard, f)
				f.Close()
			}
			done <- err
		}()
		return done
	}
	for _, c := range []struct {
		out     string
		want    string // in standard error; "" for no line about the output
		notWant string
	}{
		{os.DevNull, "", "wrote"},
		{link, "", "wrote"},
		{fifo, "sent output to " + fifo, "wrote"},
		{regular, "wrote " + regular, "sent"},
	} {
		var done chan error
		if c.out == fifo {
			done = drain()
		}
		_, stderr, err := run(t, "cluster", "-gen", "moons", "-n", "40", "-k", "2", "-o", c.out)
		if err != nil {
			t.Fatalf("-o %s: %v\n%s", c.out, err, stderr)
		}
		if done != nil {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		if strings.Contains(stderr, c.notWant+" ") || (c.want != "" && !strings.Contains(stderr, c.want)) {
			t.Errorf("-o %s: standard error\n%s\nwant %q and no %q", c.out, stderr, c.want, c.notWant)
		}
		if c.want == "" && strings.Contains(stderr, c.out) {
			t.Errorf("-o %s: standard error names it:\n%s", c.out, stderr)
		}
	}
	// A line that counts what it wrote keeps its count.
	done := drain()
	var errb bytes.Buffer
	m := &Main{Stdout: io.Discard, Stderr: &errb}
	if err := m.stageOutput(context.Background(), fifo, &errb, fmt.Sprintf("wrote 5 values to %s", fifo), func(w io.Writer) error {
		_, err := io.WriteString(w, "1\n2\n3\n4\n5\n")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, want := errb.String(), "sent 5 values to "+fifo+"\n"; got != want {
		t.Errorf("stageOutput to a FIFO: %q, want %q", got, want)
	}
}
