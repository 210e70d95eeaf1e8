package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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
		{[]string{"-addr", "127.0.0.1:0", "-max-request-mib", "-1"}, "-max-request-mib"},
		{[]string{"-addr", "127.0.0.1:0", "-scale", "minmaxx"}, "-scale"},
		{[]string{"-addr", "127.0.0.1:0", "-compute-timeout", "0s"}, "-compute-timeout"},
		{[]string{"-addr", "127.0.0.1:0", "-compute-timeout", "-1m"}, "-compute-timeout"},
		{[]string{"-addr", "127.0.0.1:0", "-compute-timeout", "soon"}, "-compute-timeout"},
		{[]string{"-addr", "127.0.0.1:0", "-allow-origin", "tether.example.org"}, "-allow-origin"},
		{[]string{"-addr", "127.0.0.1:0", "-allow-origin", "https://x/path"}, "-allow-origin"},
		{[]string{"-addr", "127.0.0.1:0", "-regularize", "sometimes"}, "-regularize"},
		{[]string{"-addr", "127.0.0.1:0", "-disconnected", "loose"}, "-disconnected"},
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

// TestServePortInUse: a port another program listens on is an error
// that says so and names -addr (review 95: it said only "bind: address
// already in use"), wrapping the system's error.
func TestServePortInUse(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	addr := lis.Addr().String()
	_, _, err = run(t, "serve", "-addr", addr, "-quiet")
	if !errors.Is(err, syscall.EADDRINUSE) || !strings.Contains(err.Error(), "stop the program that uses "+addr+", or give another port with -addr (-addr 127.0.0.1:0 takes any free one)") {
		t.Errorf("err = %v, want the port in use and -addr", err)
	}
}

// TestServeInitialDataAndInterrupt runs tether serve -gen in a child
// process: a new session holds the generated data, and SIGINT stops the
// server gracefully within a second, with exit status 0: its normal end
// (it was 130, an interruption, which supervisors read as a failure;
// review 137).
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
	if err != nil {
		t.Fatalf("exit: %v, want status 0", err)
	}
	if took := time.Since(sent); took > 2*time.Second {
		t.Errorf("stopped %v after the signal, want < 1 s", took)
	}
}

// startServe runs tether serve with args on a free loopback port, its
// standard error to stderr, until the test ends (then it checks that
// serve stopped without an error), and returns the URL it printed.
func startServe(t *testing.T, stderr io.Writer, args ...string) string {
	t.Helper()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		m := &Main{Stdin: strings.NewReader(""), Stdout: pw, Stderr: stderr}
		done <- m.Run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0"}, args...))
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		go io.Copy(io.Discard, pr)
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("serve: %v", err)
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("serve printed no URL: %v", err)
	}
	return strings.TrimSpace(line)
}

// TestServeGraphOptions: serve -regularize and -disconnected are accepted
// (they were usage errors) and reach the server's Config: with -disconnected
// strict, FGPWC refuses the isolated node of the initial graph (a request's
// own disconnected overrides it), and the summary of a partition records
// -regularize none.
func TestServeGraphOptions(t *testing.T) {
	// A triangle, a path of three nodes and node 7 isolated.
	g := filepath.Join(t.TempDir(), "g.mtx")
	mtx := "%%MatrixMarket matrix coordinate real symmetric\n7 7 5\n2 1 1\n3 1 1\n3 2 1\n5 4 1\n6 5 1\n"
	if err := os.WriteFile(g, []byte(mtx), 0o644); err != nil {
		t.Fatal(err)
	}
	url := startServe(t, io.Discard, "-graph-file", g, "-regularize", "none", "-disconnected", "strict", "-quiet")
	post := func(path, body string) (int, string) {
		t.Helper()
		resp, err := http.Post(url+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := post("api/sessions", "")
	var info struct {
		ID string `json:"id"`
		N  int    `json:"n"`
	}
	if err := json.Unmarshal([]byte(body), &info); err != nil || code != http.StatusCreated || info.N != 7 {
		t.Fatalf("new session: status %d, %s; want 201 with the 7 nodes", code, body)
	}
	base := "api/sessions/" + info.ID
	if code, body := post(base+"/cluster", `{"k":2,"seed":1}`); code != http.StatusBadRequest || !strings.Contains(body, "node 6 has degree 0") {
		t.Errorf("fgpwc with -disconnected strict: status %d, %s; want 400 naming node 6", code, body)
	}
	if code, body := post(base+"/cluster", `{"k":2,"seed":1,"disconnected":"attach"}`); code != http.StatusOK {
		t.Fatalf("fgpwc with disconnected attach: status %d, %s; want 200", code, body)
	}
	resp, err := http.Get(url + base + "/export/summary")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sum struct {
		Request map[string]any `json:"request"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&sum); err != nil {
		t.Fatal(err)
	}
	if sum.Request["regularize"] != "none" || sum.Request["disconnected"] != "attach" {
		t.Errorf("summary request %v, want regularize none (the flag's) and disconnected attach (the request's)", sum.Request)
	}
}

// lockedBuffer is an io.Writer whose text can be read while another
// goroutine writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeInitialMessages: the warnings and notes tether serve -input
// prints on standard error while loading its data (a 6-row table: the
// neighbour count lowered, the names column) are, each of them and no
// other, in the reply of session creation, which the page shows at start.
func TestServeInitialMessages(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pts.csv")
	if err := os.WriteFile(file, []byte("name,x,y\nann,0,0\nbob,0,1\ncid,1,0\ndan,5,5\neve,5,6\nfay,6,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	url := startServe(t, &stderr, "-input", file)
	resp, err := http.Post(url+"api/sessions", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var info struct {
		N        int      `json:"n"`
		Warnings []string `json:"warnings"`
		Notes    []string `json:"notes"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil || resp.StatusCode != http.StatusCreated || info.N != 6 {
		t.Fatalf("new session: status %d, %+v (%v); want 201 with the 6 rows", resp.StatusCode, info, err)
	}
	// The messages were printed before the URL.
	var warnings, notes []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if w, ok := strings.CutPrefix(l, "tether serve: warning: "); ok {
			warnings = append(warnings, w)
		} else if n, ok := strings.CutPrefix(l, "tether serve: note: "); ok {
			notes = append(notes, n)
		}
	}
	if len(warnings) == 0 || len(notes) == 0 || !slices.Equal(info.Warnings, warnings) || !slices.Equal(info.Notes, notes) {
		t.Errorf("session warnings %q, notes %q; printed warnings %q, notes %q: want the same, at least one of each", info.Warnings, info.Notes, warnings, notes)
	}
}

// TestServeHelpBipartite: serve binds -bipartite with the other input
// flags and refuses it; its help said "(-method cocluster, …)", a flag
// serve lacks (review 137).
func TestServeHelpBipartite(t *testing.T) {
	stdout, stderr, _ := run(t, "serve", "-h")
	stderr += stdout
	i := strings.Index(stderr, "-bipartite")
	if i < 0 {
		t.Fatalf("serve -h lacks -bipartite:\n%s", stderr)
	}
	entry, _, _ := strings.Cut(stderr[i:], "\n  -")
	if strings.Contains(entry, "-method") || !strings.Contains(entry, "not read by tether serve") {
		t.Errorf("serve -h on -bipartite: %q", entry)
	}
}

// TestServeGraphFlagsForSessions: serve's graph flags, given without
// -input, build the graph of the feature rows a session generates (a
// request has none of its own: -knn 3 gives fewer edges than the default
// 10-NN graph), and serve -h says so, in its text and in each graph
// flag's help, as docs/api.md does. Before, neither said it, and
// docs/api.md said sessions get the 10-NN graph.
func TestServeGraphFlagsForSessions(t *testing.T) {
	edges := func(args ...string) int {
		t.Helper()
		url := startServe(t, io.Discard, args...)
		post := func(path, body string) string {
			t.Helper()
			resp, err := http.Post(url+path, "application/json", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode/100 != 2 {
				t.Fatalf("%s: status %d, %s", path, resp.StatusCode, b)
			}
			return string(b)
		}
		var info struct {
			ID    string `json:"id"`
			Edges int    `json:"edges"`
		}
		if err := json.Unmarshal([]byte(post("api/sessions", "")), &info); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(post("api/sessions/"+info.ID+"/data", `{"generate":{"name":"moons","seed":1,"params":{"n":200}}}`)), &info); err != nil {
			t.Fatal(err)
		}
		return info.Edges
	}
	def, knn3 := edges("-quiet"), edges("-knn", "3", "-quiet")
	t.Logf("edges: %d with the default graph, %d with -knn 3", def, knn3)
	// A symmetric k-NN graph has between n·k/2 and n·k edges.
	for _, tc := range []struct {
		name   string
		edges  int
		lo, hi int
	}{{"default 10-NN", def, 200 * 10 / 2, 200 * 10}, {"-knn 3", knn3, 200 * 3 / 2, 200 * 3}} {
		if tc.edges < tc.lo || tc.edges > tc.hi {
			t.Errorf("%s: %d edges, want %d to %d", tc.name, tc.edges, tc.lo, tc.hi)
		}
	}
	stdout, stderr, _ := run(t, "serve", "-h")
	help := stdout + stderr
	if !strings.Contains(help, "-knn, -eps, -affinity, -sigma, -max-full, -knn-search), with or without\n-input, build the graph of every session's feature rows") {
		t.Errorf("serve -h does not say what the graph flags do for sessions:\n%s", help)
	}
	for _, name := range serveGraphFlags {
		i := strings.Index(help, "\n  -"+name+" ")
		if i < 0 {
			t.Errorf("serve -h lacks -%s", name)
			continue
		}
		entry, _, _ := strings.Cut(help[i+1:], "\n  -")
		if !strings.Contains(entry, "serve: for the feature rows of every session, with or without -input") {
			t.Errorf("serve -h on -%s: %q", name, entry)
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "Feature rows get the graph that the graph flags of `tether serve` (`-graph`, `-knn`") {
		t.Error("docs/api.md does not say that serve's graph flags build the sessions' graphs")
	}
}
