package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run the real main (signals, exit status) in a child
// process: the test binary re-executes itself with TETHER_TEST_MAIN=1.
func TestMain(m *testing.M) {
	if os.Getenv("TETHER_TEST_MAIN") == "1" {
		os.Args = append([]string{"tether"}, os.Args[1:]...)
		main()
		return
	}
	os.Exit(m.Run())
}

func TestExitCode(t *testing.T) {
	interrupted, cancel := context.WithCancelCause(context.Background())
	cancel(errInterrupted)
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		want int
	}{
		{"success", context.Background(), nil, 0},
		{"help", context.Background(), flag.ErrHelp, 0},
		{"usage", context.Background(), fmt.Errorf("%w: bad flag", errUsage), 2},
		{"failure", context.Background(), errors.New("boom"), 1},
		{"interrupted, cancelled", interrupted, context.Canceled, 130},
		{"interrupted after finishing", interrupted, nil, 130},
	} {
		var b bytes.Buffer
		if got := exitCode(tc.ctx, tc.err, &b); got != tc.want {
			t.Errorf("%s: exit %d, want %d", tc.name, got, tc.want)
		}
	}
}

// Ctrl-C stops a long clustering within a second, with exit status 130 and
// no output file (nor temporary file) left behind.
func TestInterruptStopsWithinASecond(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command in a child process")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "labels.txt")
	cmd := exec.Command(os.Args[0], "cluster", "-gen", "blobs", "-n", "300000", "-k", "5", "-method", "fgpwc", "-quiet", "-o", out)
	cmd.Env = append(os.Environ(), "TETHER_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	took := time.Since(sent)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want status 130; stderr:\n%s", err, stderr.String())
	}
	// The requirement is one second (measured here: about 0.1 s); the
	// margin absorbs a loaded CI machine.
	if took > 2*time.Second {
		t.Errorf("stopped %v after the signal, want < 1 s", took)
	}
	t.Logf("stopped %v after the signal", took)
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left after the interrupt: %v", entries)
	}
}

// A flag mistake prints one line naming the mistake and -h, not the 70
// lines of flags; -h prints them.
func TestFlagErrorsAreShort(t *testing.T) {
	_, stderr, err := run(t, "cluster", "-bogus")
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), `-bogus (run "tether cluster -h" for the flags)`) {
		t.Errorf("error %v", err)
	}
	if stderr != "" {
		t.Errorf("stderr %q, want nothing besides the error", stderr)
	}
	_, stderr, err = run(t, "cluster", "-h")
	if !errors.Is(err, flag.ErrHelp) || !strings.Contains(stderr, "-method string") {
		t.Errorf("-h: %v, usage %q", err, stderr)
	}
}

// Out-of-range numeric flags are refused at parse time, naming the range
// (-knn 0 used to be replaced by the default, -self-loops -1 ignored).
func TestNumericFlagRanges(t *testing.T) {
	for _, args := range [][]string{
		{"-knn", "0"}, {"-knn", "-3"}, {"-self-loops", "-1"}, {"-self-loops", "NaN"}, {"-k", "-2"}, {"-restarts", "-1"},
	} {
		_, _, err := run(t, append([]string{"cluster", "-gen", "moons", "-quiet"}, args...)...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "is outside") && !strings.Contains(err.Error(), "not a number") {
			t.Errorf("%v: error %v", args, err)
		}
	}
}

// -noise -3 is refused (it used to be replaced by the default); -1 still
// means the generator's default.
func TestGenNegativeNoise(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.csv")
	if _, _, err := run(t, "gen", "moons", "-noise", "-3", "-o", out); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "noise = -3") {
		t.Errorf("-noise -3: %v", err)
	}
	if _, _, err := run(t, "gen", "moons", "-noise", "-1", "-o", out); err != nil {
		t.Errorf("-noise -1: %v", err)
	}
}
