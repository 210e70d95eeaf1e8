package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestServeFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-addr", "0.0.0.0:0"}, "-public"},
		{[]string{"-addr", "192.0.2.1:80"}, "not a loopback address"},
		{[]string{"-addr", "nonsense"}, "-addr"},
		{[]string{"-bipartite", "x.txt"}, "bipartite"},
		{[]string{"extra"}, "unexpected argument"},
		// Checked before the server starts (they were not: it served).
		{[]string{"-addr", "127.0.0.1:0", "-data", "/nonexistent/tether-data"}, "-data"},
		{[]string{"-addr", "127.0.0.1:0", "-max-nodes-session", "-1"}, "-max-nodes-session"},
		{[]string{"-addr", "127.0.0.1:0", "-scale", "minmaxx"}, "-scale"},
		{[]string{"-addr", "127.0.0.1:0", "-compute-timeout", "0s"}, "-compute-timeout"},
		{[]string{"-addr", "127.0.0.1:0", "-compute-timeout", "-1m"}, "-compute-timeout"},
		{[]string{"-addr", "127.0.0.1:0", "-compute-timeout", "soon"}, "-compute-timeout"},
		{[]string{"-addr", "127.0.0.1:0", "-allow-origin", "tether.example.org"}, "-allow-origin"},
		{[]string{"-addr", "127.0.0.1:0", "-allow-origin", "https://x/path"}, "-allow-origin"},
	} {
		var stderr strings.Builder
		m := &Main{Stdout: &strings.Builder{}, Stderr: &stderr}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := m.Run(ctx, append([]string{"serve"}, c.args...))
		cancel()
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("serve %v: err = %v, want a usage error naming %q", c.args, err, c.msg)
		}
	}
}

// TestServeInitialDataAndInterrupt runs tether serve -gen in a child
// process: a new session holds the generated data, and SIGINT stops the
// server gracefully (exit status 130) within a second.
func TestServeInitialDataAndInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command in a child process")
	}
	cmd := exec.Command(os.Args[0], "serve", "-addr", "127.0.0.1:0", "-gen", "moons", "-n", "300", "-quiet")
	cmd.Env = append(os.Environ(), "TETHER_TEST_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(line)
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("printed %q, want the URL", line)
	}
	resp, err := http.Post(url+"api/sessions", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	var info struct {
		N    int    `json:"n"`
		Name string `json:"name"`
	}
	json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || info.N != 300 {
		t.Errorf("new session: status %d, %+v, want 201 with the 300 generated points", resp.StatusCode, info)
	}
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want status 130", err)
	}
	if took := time.Since(sent); took > 2*time.Second {
		t.Errorf("stopped %v after the signal, want < 1 s", took)
	}
}
