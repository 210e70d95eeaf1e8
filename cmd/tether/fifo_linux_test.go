//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tether-sc/tether/internal/testctx"
)

// hasReader reports whether a process has the FIFO open for reading (or
// is blocked opening it): a writer's open without blocking then succeeds,
// and fails with ENXIO otherwise.
func hasReader(p string) bool {
	w, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	w.Close()
	return true
}

// Every input file of every command may be a FIFO nobody writes to: the
// command returns within a second of the cancellation (Ctrl-C) with the
// context's error, and nothing of it is left reading or opening the FIFO.
// os.Open blocked in the open system call, which Ctrl-C does not
// interrupt.
func TestFIFOWithoutWriterCancels(t *testing.T) {
	if testing.Short() {
		t.Skip("waits on FIFOs")
	}
	labels := writeTemp(t, "labels.txt", "0\n0\n1\n1\n")
	for _, tc := range []struct {
		name string
		args func(fifo string) []string
	}{
		{"cluster -input", func(f string) []string { return []string{"cluster", "-input", f, "-quiet"} }},
		{"cluster -graph-file", func(f string) []string { return []string{"cluster", "-graph-file", f, "-quiet"} }},
		{"cluster -bipartite", func(f string) []string { return []string{"cluster", "-bipartite", f, "-method", "cocluster", "-quiet"} }},
		{"cluster -truth", func(f string) []string {
			return []string{"cluster", "-gen", "moons", "-n", "60", "-truth", f, "-quiet"}
		}},
		{"cluster -constraints", func(f string) []string {
			return []string{"cluster", "-gen", "moons", "-n", "60", "-k", "2", "-constraints", f, "-quiet"}
		}},
		{"cluster -partial-labels", func(f string) []string {
			return []string{"cluster", "-gen", "moons", "-n", "60", "-k", "2", "-partial-labels", f, "-quiet"}
		}},
		{"eval -truth", func(f string) []string { return []string{"eval", "-truth", f, "-pred", labels} }},
		{"eval -pred", func(f string) []string { return []string{"eval", "-truth", labels, "-pred", f} }},
		{"labels -input", func(f string) []string { return []string{"labels", "-input", f, "-label", "last"} }},
		{"constraints check", func(f string) []string { return []string{"constraints", "check", f, "-n", "4"} }},
		{"constraints gen -truth", func(f string) []string {
			return []string{"constraints", "gen", "-truth", f, "-protocol", "pairs-frac", "-rate", "0.5"}
		}},
		{"powerlaw fit -input", func(f string) []string { return []string{"powerlaw", "fit", "-input", f} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fifo := testctx.Mkfifo(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out bytes.Buffer
			m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}
			// No writer may open the FIFO to check that the command waits
			// on it: the command would see the writer come and go (an
			// empty file). The FIFO's writer is polled for ten times a
			// second.
			err := runThenCancel(t, ctx, cancel, m, tc.args(fifo))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want context.Canceled", err)
			}
			// Nothing is left blocked in open or reading the FIFO (untilDone
			// used to return while a goroutine stayed blocked in open).
			for deadline := time.Now().Add(2 * time.Second); hasReader(fifo); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("a reader of the FIFO is left after the command returned")
				}
			}
		})
	}
}

// Pipes keep working: a FIFO whose writer comes after the command started,
// and an anonymous pipe reached by a path (as -input <(cmd) and
// /dev/stdin give).
func TestFIFOWithWriter(t *testing.T) {
	data := filepath.Join(t.TempDir(), "moons.csv")
	if _, _, err := run(t, "gen", "moons", "-n", "60", "-o", data); err != nil {
		t.Fatal(err)
	}
	content, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := run(t, "cluster", "-input", data, "-quiet", "-k", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T) string
	}{
		{"FIFO, late writer", func(t *testing.T) string {
			fifo := testctx.Mkfifo(t)
			go func() {
				time.Sleep(300 * time.Millisecond)
				os.WriteFile(fifo, content, 0)
			}()
			return fifo
		}},
		{"anonymous pipe", func(t *testing.T) string { return pipeWith(t, content) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, stderr, err := run(t, "cluster", "-input", tc.setup(t), "-quiet", "-k", "2")
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if got != want {
				t.Errorf("labels differ from those of the file:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// eval reads -pred twice when both files name their nodes (once to learn
// that, once mapped onto the reference's names): a pipe yields its bytes
// once, so they are kept. The second open of a FIFO waited for a writer
// that never came, and an anonymous pipe read the second time was empty.
func TestEvalPredPipeReadOnce(t *testing.T) {
	truth := writeTemp(t, "truth.csv", "name,label\na,0\nb,0\nc,1\nd,1\n")
	// The prediction lists the nodes in another order, with the
	// clusters' numbers swapped: the same partition (ARI 1) only when it
	// is mapped by name.
	pred := "name,cluster\nd,0\nc,0\nb,1\na,1\n"
	want, _, err := run(t, "eval", "-truth", truth, "-pred", writeTemp(t, "pred.csv", pred), "-json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Figures []struct {
			Name  string
			Value float64
		}
	}
	if err := json.Unmarshal([]byte(want), &rep); err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Figures {
		if f.Name == "ari" && f.Value != 1 {
			t.Fatalf("the regular file gives ARI %v, want 1 (mapped by name)", f.Value)
		}
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T) string
	}{
		{"FIFO", func(t *testing.T) string {
			fifo := testctx.Mkfifo(t)
			go os.WriteFile(fifo, []byte(pred), 0) // one writer, once
			return fifo
		}},
		{"anonymous pipe", func(t *testing.T) string { return pipeWith(t, []byte(pred)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var out, errb bytes.Buffer
			m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
			if err := m.Run(ctx, []string{"eval", "-truth", truth, "-pred", tc.setup(t), "-json"}); err != nil {
				t.Fatalf("%v\n%s", err, errb.String())
			}
			if out.String() != want {
				t.Errorf("report differs from the regular file's:\n%s\nwant\n%s", out.String(), want)
			}
		})
	}
}

// pipeWith returns the /proc/self/fd path of the read end of an anonymous
// pipe (as the shell's <(cmd) gives) to which a goroutine writes content
// once, then closes; the read end is closed when the test ends.
func pipeWith(t *testing.T, content []byte) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	go func() {
		w.Write(content)
		w.Close()
	}()
	return fmt.Sprintf("/proc/self/fd/%d", r.Fd())
}

// powerlaw fit -input - on a standard input that is a pipe whose writer is
// connected but silent: the command returns within a second of the
// cancellation, with the context's error naming <stdin>, and leaves
// nothing reading standard input (untilDone returned while a goroutine
// stayed blocked in the read, and took the data written afterwards).
// Standard input is a blocking descriptor, as os.Stdin is, which the
// runtime does not poll and no read deadline interrupts.
func TestPowerlawFitStdinPipeCancels(t *testing.T) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	stdin, w := os.NewFile(uintptr(p[0]), "stdin"), os.NewFile(uintptr(p[1]), "writer")
	defer stdin.Close()
	defer w.Close()
	if _, err := w.WriteString("1\n2\n"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := &Main{Stdin: stdin, Stdout: io.Discard, Stderr: io.Discard}
	err := runThenCancel(t, ctx, cancel, m, []string{"powerlaw", "fit", "-input", "-"})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "<stdin>") {
		t.Fatalf("err = %v, want context.Canceled naming <stdin>", err)
	}
	// What is written now is for the next reader of standard input.
	w.WriteString("5\n")
	w.Close()
	got := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(stdin)
		got <- string(b)
	}()
	select {
	case s := <-got:
		if s != "5\n" {
			t.Errorf("standard input read %q after the command returned, want %q (a reader of the command took it)", s, "5\n")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("standard input was not readable within 10 s")
	}
}

// runThenCancel runs m with args under ctx, cancels it (cancel) 300 ms
// later and returns the command's error. It fails the test when the
// command has not returned 10 s after the cancellation, and reports an
// error when it took more than 2 s: the requirement is one second, the
// margin absorbs a loaded machine.
func runThenCancel(t *testing.T, ctx context.Context, cancel context.CancelFunc, m *Main, args []string) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, args) }()
	time.Sleep(300 * time.Millisecond)
	cancel()
	sent := time.Now()
	select {
	case err := <-done:
		if took := time.Since(sent); took > 2*time.Second {
			t.Errorf("returned %v after the cancellation, want < 1 s", took)
		}
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not return within 10 s of the cancellation")
		return nil
	}
}
