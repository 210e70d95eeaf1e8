package server

import (
	"context"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPythonClient runs examples/python/tether_client.py against a live
// server on a free loopback port, when python3 is installed (CI installs
// it). Besides the moons session, the script sends cluster's regularize
// and disconnected and checks that the server honoured them: on a graph
// with an isolated node disconnected=strict is refused and attach attaches
// it, the summary records the regularize sent, and an unknown value of
// either is the server's 400; the output must report each.
func TestPythonClient(t *testing.T) {
	if testing.Short() {
		t.Skip("live server test")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := newTest(t, Config{})
	s.addr = l.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, l) }()
	defer func() {
		cancel()
		<-done
	}()
	cctx, ccancel := context.WithTimeout(ctx, 2*time.Minute)
	defer ccancel()
	out, err := exec.CommandContext(cctx, py, filepath.Join("..", "..", "examples", "python", "tether_client.py"), "http://"+l.Addr().String()+"/").CombinedOutput()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "ok") {
		t.Fatalf("python client: %v\n%s", err, out)
	}
	for _, want := range []string{
		"disconnected=strict refused: ", "node 22 has degree 0",
		"disconnected=attach: sizes [",
		`{'regularize': 'sometimes'} refused: `, `regularization "sometimes"`,
		`{'disconnected': 'loose'} refused: `, `disconnected-graph rule "loose"`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("python client output lacks %q:\n%s", want, out)
		}
	}
	t.Logf("%s", out)
}
