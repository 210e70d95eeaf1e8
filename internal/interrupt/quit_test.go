//go:build unix

package interrupt

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestNotifyQuit: in a child process (this test binary, running
// TestNotifyQuitChild), the first SIGINT calls cancel, the second calls
// quit and then ends the process by SIGINT, as the default action would;
// and a SIGTERM after the SIGINT ends it by SIGTERM.
func TestNotifyQuit(t *testing.T) {
	if os.Getenv("INTERRUPT_TEST_CHILD") != "" {
		t.Skip("in the child")
	}
	for _, second := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(second.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^TestNotifyQuitChild$")
			cmd.Env = append(os.Environ(), "INTERRUPT_TEST_CHILD="+dir)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			if line != "ready\n" {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("child printed %q (%v), want ready", line, err)
			}
			go io.Copy(io.Discard, out)
			cmd.Process.Signal(syscall.SIGINT)
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
				if _, err := os.Stat(filepath.Join(dir, "cancelled")); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatal("cancel not called within 10 s of the first SIGINT")
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "quit")); err == nil {
				t.Error("quit called at the first signal")
			}
			cmd.Process.Signal(second)
			err = cmd.Wait()
			var ee *exec.ExitError
			ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !errors.As(err, &ee) || !ws.Signaled() || ws.Signal() != second {
				t.Errorf("child ended with %v, want killed by %v", err, second)
			}
			if _, err := os.Stat(filepath.Join(dir, "quit")); err != nil {
				t.Errorf("quit not called before the process ended: %v", err)
			}
		})
	}
}

// TestNotifyQuitChild is the child of TestNotifyQuit: it marks cancel and
// quit by files in $INTERRUPT_TEST_CHILD and waits for the signals.
func TestNotifyQuitChild(t *testing.T) {
	dir := os.Getenv("INTERRUPT_TEST_CHILD")
	if dir == "" {
		t.Skip("run by TestNotifyQuit")
	}
	mark := func(name string) func() {
		return func() { os.WriteFile(filepath.Join(dir, name), nil, 0o644) }
	}
	NotifyQuit(io.Discard, "interrupted", mark("cancelled"), mark("quit"))
	os.Stdout.WriteString("ready\n")
	time.Sleep(30 * time.Second)
	t.Error("no signal ended the process within 30 s")
}
