package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// serveOn serves a Server of cfg (its log discarded) on a loopback port
// until the test ends and returns it with its address.
func serveOn(t *testing.T, cfg Config) (*Server, string) {
	t.Helper()
	return serveSetUp(t, cfg, nil)
}

// serveSetUp is serveOn with setup (if not nil) called on the Server
// before it serves.
func serveSetUp(t *testing.T, cfg Config, setup func(*Server)) (*Server, string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Log = log.New(io.Discard, "", 0)
	s := New(cfg, l.Addr().String())
	if setup != nil {
		setup(s)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, l) }()
	t.Cleanup(func() {
		stop()
		<-served
	})
	return s, l.Addr().String()
}

// rawRequest opens a connection to addr and sends head (the request line
// and headers, without the final blank line) and then body.
func rawRequest(t *testing.T, addr, head, body string) net.Conn {
	t.Helper()
	return rawRequestFrom(t, "", addr, head, body)
}

// rawRequestFrom is rawRequest from the local IP address from ("": the
// system's choice; any of 127.0.0.0/8 on Linux, where each is another
// client for Server.clientShare).
func rawRequestFrom(t *testing.T, from, addr, head, body string) net.Conn {
	t.Helper()
	var d net.Dialer
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, head+"\r\nHost: "+addr+"\r\n\r\n"+body); err != nil {
		t.Fatal(err)
	}
	return c
}

// readStatus reads the status of the reply on c within d.
func readStatus(t *testing.T, c net.Conn, d time.Duration) (int, error) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(d))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}

// TestBodyBudgetCountsBodiesBeingRead: a body is counted against the
// body budget before it is read, by its Content-Length or, sent chunked,
// by its limit: five uploads of MaxUpload bytes whose bodies are still
// arriving fill the budget (5 × MaxUpload), and a sixth is refused with
// 503 at once, its body never sent. Review 92 held 12 connections × 63
// MiB of bodies being read (1.2 GB) that counted against nothing. The
// uploads come from three clients (127.0.0.1 to .3: two from each at
// most, within a client's share, half the budget; TestClientShare) and
// the sixth from a fourth.
func TestBodyBudgetCountsBodiesBeingRead(t *testing.T) {
	// MaxBody and MaxConstraints small, so that the largest body, a
	// saved session's (loadLimit), is below 5 × MaxUpload.
	const maxUpload = 100 << 10
	s, addr := serveOn(t, Config{MaxUpload: maxUpload, MaxBody: 1 << 10, MaxConstraints: 100})
	ss, err := s.sessions.create()
	if err != nil {
		t.Fatal(err)
	}
	info := ss.info()
	upload := fmt.Sprintf("POST /api/sessions/%s/data?name=a.csv HTTP/1.1\r\nContent-Type: text/csv\r\nContent-Length: %d", info.ID, maxUpload)
	var slow []net.Conn
	for k := range 4 {
		slow = append(slow, rawRequestFrom(t, fmt.Sprintf("127.0.0.%d", 1+k/2), addr, upload, "1,2\n")) // 4 of its bytes
	}
	// A chunked upload counts as MaxUpload bytes.
	slow = append(slow, rawRequestFrom(t, "127.0.0.3", addr, fmt.Sprintf("POST /api/sessions/%s/data?name=a.csv HTTP/1.1\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked", info.ID), "4\r\n1,2\n\r\n"))
	waitFor(t, "five bodies being read counted", func() bool { return s.bodyHeld.Load() == 5*maxUpload })
	sixth := rawRequestFrom(t, "127.0.0.4", addr, upload, "")
	code, err := readStatus(t, sixth, 10*time.Second)
	if err != nil || code != http.StatusServiceUnavailable {
		t.Fatalf("a sixth upload with five being read: status %d (%v), want 503 before its body", code, err)
	}
	for _, c := range slow {
		c.Close()
	}
	waitFor(t, "the bodies uncounted once their connections closed", func() bool { return s.bodyHeld.Load() == 0 })
}

// TestMaxConnections: with MaxConnections open, each with a request in
// progress, a further connection is not served until one of them is
// done (limitListener; the connections were not bounded).
func TestMaxConnections(t *testing.T) {
	release := make(chan struct{})
	_, addr := serveSetUp(t, Config{MaxConnections: 2}, func(s *Server) {
		s.mux.HandleFunc("GET /test-hold", func(w http.ResponseWriter, r *http.Request) { <-release })
	})
	busy := []net.Conn{rawRequest(t, addr, "GET /test-hold HTTP/1.1", ""), rawRequest(t, addr, "GET /test-hold HTTP/1.1", "")}
	third := rawRequest(t, addr, "GET /api/methods HTTP/1.1", "")
	if _, err := readStatus(t, third, 200*time.Millisecond); err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Fatalf("a third connection beside two with requests in progress was served (%v), want it to wait", err)
	}
	close(release)
	for _, c := range busy {
		if code, err := readStatus(t, c, 10*time.Second); err != nil || code != http.StatusOK {
			t.Fatalf("one of the first two connections: status %d (%v)", code, err)
		}
	}
	if code, err := readStatus(t, third, 10*time.Second); err != nil || code != http.StatusOK {
		t.Fatalf("the third connection once the others' requests were done: status %d (%v), want 200", code, err)
	}
}

// TestIdleConnectionsReclaimed: with MaxConnections open and idle (keep-
// alive connections between requests), a further connection is served
// at once, the one idle longest closed for it. The places were kept by
// whoever took them: 256 keep-alive connections of one client, idle
// after one request each, locked every other client out for the
// 2-minute IdleTimeout (review 116).
func TestIdleConnectionsReclaimed(t *testing.T) {
	_, addr := serveOn(t, Config{MaxConnections: 2})
	var idle []net.Conn
	for range 2 {
		c := rawRequest(t, addr, "GET /api/methods HTTP/1.1", "")
		if code, err := readStatus(t, c, 10*time.Second); err != nil || code != http.StatusOK {
			t.Fatalf("one of the first two connections: status %d (%v)", code, err)
		}
		idle = append(idle, c)
		time.Sleep(20 * time.Millisecond) // the first is idle longest
	}
	third := rawRequest(t, addr, "GET /api/methods HTTP/1.1", "")
	if code, err := readStatus(t, third, 5*time.Second); err != nil || code != http.StatusOK {
		t.Fatalf("a third connection beside two idle ones: status %d (%v), want 200 at once", code, err)
	}
	idle[0].SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := idle[0].Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the connection idle longest read %d bytes (%v), want EOF: closed for the third", n, err)
	}
}

// TestServeShutdownHalfOpen: Serve returns, without an error, within a
// second of its ctx's end, with a connection that has sent nothing, one
// that has sent half its headers and one sending its body (here: 4 of
// its 1000 bytes). It took 5 s (net/http's Shutdown counts a new
// connection idle only after 5 s, and waits for active ones; review
// 92). The bound asserted is 2 s, wide for a 0.5 s grace.
func TestServeShutdownHalfOpen(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	s := New(Config{Log: log.New(io.Discard, "", 0)}, addr)
	ss, err := s.sessions.create()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, l) }()
	for _, send := range []string{"", "GET /api/methods HTTP/1.1\r\nHost: " + addr + "\r\n"} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, send)
	}
	rawRequest(t, addr, fmt.Sprintf("POST /api/sessions/%s/data?name=a.csv HTTP/1.1\r\nContent-Type: text/csv\r\nContent-Length: 1000", ss.id), "1,2\n")
	waitFor(t, "the body being read", func() bool { return s.bodyHeld.Load() == 1000 })
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v, want nil", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Serve returned %v after its ctx ended, want within a second", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return 10 s after its ctx ended")
	}
}

// pipeListener accepts the server ends of net.Pipe connections, which
// have no CloseWrite.
type pipeListener struct{ conns chan net.Conn }

func (l pipeListener) Accept() (net.Conn, error) {
	c, ok := <-l.conns
	if !ok {
		return nil, net.ErrClosed
	}
	return c, nil
}
func (l pipeListener) Close() error   { return nil }
func (l pipeListener) Addr() net.Addr { return &net.TCPAddr{} }

// TestLimitConnCloseWrite: a connection of a limitListener has CloseWrite
// when the connection it wraps has (TCP), which shuts down the writing
// side alone: the client reads the reply and then EOF while the server
// still reads what the client sends. net/http half-closes so a
// connection it closes after an error reply with the body unread (the
// 503 of a full body budget); limitConn hid the method, and it closed
// the connection outright. A connection without CloseWrite (net.Pipe)
// gets none.
func TestLimitConnCloseWrite(t *testing.T) {
	tl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newLimitListener(tl, 1)
	defer l.Close()
	client, err := net.Dial("tcp", tl.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	c, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	cw, ok := c.(interface{ CloseWrite() error })
	if !ok {
		t.Fatalf("a TCP connection of the limit listener (%T) has no CloseWrite", c)
	}
	if _, err := io.WriteString(c, "reply"); err != nil {
		t.Fatal(err)
	}
	if err := cw.CloseWrite(); err != nil {
		t.Fatalf("CloseWrite: %v", err)
	}
	client.SetDeadline(time.Now().Add(10 * time.Second))
	if got, err := io.ReadAll(client); err != nil || string(got) != "reply" {
		t.Fatalf("the client read %q (%v), want the reply then EOF", got, err)
	}
	if _, err := io.WriteString(client, "body"); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 4)
	if _, err := io.ReadFull(c, buf); err != nil || string(buf) != "body" {
		t.Fatalf("after CloseWrite the server read %q (%v), want the client's bytes", buf, err)
	}
	// Close still frees the connection's place.
	c.Close()
	select {
	case l.sem <- struct{}{}:
		<-l.sem
	default:
		t.Error("the connection's place was not freed by Close")
	}

	conns := make(chan net.Conn, 1)
	server, other := net.Pipe()
	defer other.Close()
	conns <- server
	pl := newLimitListener(pipeListener{conns}, 1)
	pc, err := pl.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	if _, ok := pc.(interface{ CloseWrite() error }); ok {
		t.Errorf("a connection without CloseWrite (%T) gained one", pc)
	}
}

// TestClientShare: one client (an IP address) sending bodies slowly holds
// at most its share of the body budget, half of it: with two uploads of
// MaxUpload bytes still arriving from 127.0.0.1, a third from it is
// refused at once with 429 saying why, its body never sent (and one of
// unknown length, chunked, saying what it was counted as), while a
// small body from the same client (as a page's JSON) and an upload from
// another client (127.0.0.2) are served; once the slow bodies end, the
// client sends uploads again. Five slow uploads from one client held the
// whole budget, and every other client's upload got 503, for up to the
// 2-minute read timeout.
func TestClientShare(t *testing.T) {
	const maxUpload = 100 << 10
	s, addr := serveOn(t, Config{MaxUpload: maxUpload, MaxBody: 1 << 10, MaxConstraints: 100})
	if s.clientShare != s.bodyBudget/2 || s.bodyBudget != 5*maxUpload {
		t.Fatalf("client share %d, body budget %d; want half of 5 × MaxUpload", s.clientShare, s.bodyBudget)
	}
	var ids []string
	for range 4 {
		ss, err := s.sessions.create()
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ss.id)
	}
	upload := func(id string, length int) string {
		return fmt.Sprintf("POST /api/sessions/%s/data?name=a.csv HTTP/1.1\r\nContent-Type: text/csv\r\nContent-Length: %d", id, length)
	}
	var slow []net.Conn
	for k := range 2 {
		slow = append(slow, rawRequestFrom(t, "127.0.0.1", addr, upload(ids[k], maxUpload), "1,2\n"))
	}
	waitFor(t, "two bodies being read from 127.0.0.1", func() bool { return s.bodyHeld.Load() == 2*maxUpload })
	third := rawRequestFrom(t, "127.0.0.1", addr, upload(ids[2], maxUpload), "")
	third.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(third), nil)
	if err != nil {
		t.Fatalf("a third upload from the same client: %v, want 429 before its body", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := fmt.Sprintf("this client (127.0.0.1) is already sending or being sent %d bytes of request bodies and replies, and this one's %d would pass the limit of %d bytes per client", 2*maxUpload, maxUpload, s.clientShare)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(b), want) {
		t.Errorf("a third upload from the same client: status %d, %s; want 429 saying %q", resp.StatusCode, b, want)
	}
	// A body of unknown length (chunked) is counted as the most it may
	// have, MaxUpload, and its refusal says so rather than quote that as
	// its length.
	chunked := rawRequestFrom(t, "127.0.0.1", addr, fmt.Sprintf("POST /api/sessions/%s/data?name=a.csv HTTP/1.1\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked", ids[2]), "")
	chunked.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err = http.ReadResponse(bufio.NewReader(chunked), nil)
	if err != nil {
		t.Fatalf("a chunked upload from the same client: %v, want 429 before its body", err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	want = fmt.Sprintf("and this one, of unknown length (counted as the most a body may have, %d bytes), would pass the limit of %d bytes per client", maxUpload, s.clientShare)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(b), want) {
		t.Errorf("a chunked upload from the same client: status %d, %s; want 429 saying %q", resp.StatusCode, b, want)
	}
	csv := "x,y\n0,0\n0,1\n1,0\n5,5\n5,6\n6,5\n"
	for _, from := range []string{"127.0.0.1", "127.0.0.2"} {
		c := rawRequestFrom(t, from, addr, upload(ids[3], len(csv)), csv)
		if code, err := readStatus(t, c, 20*time.Second); err != nil || code != http.StatusOK {
			t.Errorf("a small upload from %s beside the slow ones: status %d (%v), want 200", from, code, err)
		}
	}
	for _, c := range slow {
		c.Close()
	}
	waitFor(t, "the slow bodies uncounted", func() bool {
		s.clientMu.Lock()
		defer s.clientMu.Unlock()
		return len(s.clientReading) == 0 && s.bodyHeld.Load() == 0
	})
	c := rawRequestFrom(t, "127.0.0.1", addr, upload(ids[2], len(csv)), csv)
	if code, err := readStatus(t, c, 20*time.Second); err != nil || code != http.StatusOK {
		t.Errorf("an upload from 127.0.0.1 once its slow ones ended: status %d (%v), want 200", code, err)
	}
}

// TestClientKey: a client is an IP address, IPv4-mapped IPv6 as IPv4,
// IPv6 by its /64 (zone dropped), and a remote address that is no IP
// address as it is.
func TestClientKey(t *testing.T) {
	for _, c := range []struct{ remote, want string }{
		{"127.0.0.1:5000", "127.0.0.1"},
		{"192.0.2.7:1", "192.0.2.7"},
		{"[::ffff:192.0.2.7]:1", "192.0.2.7"},
		{"[2001:db8:1:2:3:4:5:6]:443", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff::1]:443", "2001:db8:1:2::/64"},
		{"[fe80::1%eth0]:80", "fe80::/64"},
		{"[::1]:8080", "::/64"},
		{"@", "@"},
		{"pipe", "pipe"},
	} {
		if got := clientKey(c.remote); got != c.want {
			t.Errorf("clientKey(%q) = %q, want %q", c.remote, got, c.want)
		}
	}
}
