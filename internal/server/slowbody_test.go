package server

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestSlowBodyCut: a request body must arrive at bodyChunk bytes per
// bodyStep (rateBody; 1 s here): one sent a byte every 50 ms is cut after
// about a step with a 400 saying so, not after the 2-minute ReadTimeout
// (260 such connections held every connection slot that long); a 32 MiB
// body sent at once over the loopback passes whole; and once a body has
// been read its request computes on past the step (net/http's background
// read, which cancels the request's context when a read deadline passes,
// must find none: a deadline moved by the read that ended the body ended
// the context).
func TestSlowBodyCut(t *testing.T) {
	const step = time.Second
	type result struct {
		n          int64
		err        error
		ctxErrLate error // the context's error 3 steps after the body was read
	}
	results := make(chan result, 1)
	_, addr := serveSetUp(t, Config{MaxUpload: 64 << 20}, func(s *Server) {
		s.bodyStep = step
		s.mux.HandleFunc("POST /test-read/data", func(w http.ResponseWriter, r *http.Request) {
			n, err := io.Copy(io.Discard, r.Body)
			var late error
			if err == nil {
				time.Sleep(3 * step) // a computation after the body
				late = r.Context().Err()
			}
			results <- result{n, err, late}
			if err != nil {
				s.fail(w, fmt.Errorf("%w: %w", errBadInput, err))
				return
			}
			w.WriteHeader(http.StatusOK)
		})
	})
	for _, c := range []struct {
		name   string
		length int
		send   func(w io.Writer) error
		want   int // status
	}{
		{"trickle", 100000, func(w io.Writer) error {
			for range 100000 {
				if _, err := w.Write([]byte{'x'}); err != nil {
					return err
				}
				time.Sleep(50 * time.Millisecond)
			}
			return nil
		}, http.StatusBadRequest},
		{"fast large", 32 << 20, func(w io.Writer) error {
			_, err := w.Write(make([]byte, 32<<20))
			return err
		}, http.StatusOK},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn := rawRequest(t, addr, fmt.Sprintf("POST /test-read/data HTTP/1.1\r\nContent-Type: text/csv\r\nContent-Length: %d", c.length), "")
			go c.send(conn) // ends with an error once the connection closes
			var got result
			select {
			case got = <-results:
			case <-time.After(60 * time.Second): // the ReadTimeout, 2 minutes, cut it before
				t.Fatalf("body still being read after 60 s (step %v)", step)
			}
			conn.SetReadDeadline(time.Now().Add(30 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("reading the reply: %v", err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, c.want, b)
			}
			switch c.want {
			case http.StatusOK:
				if got.err != nil || got.n != int64(c.length) {
					t.Errorf("read %d bytes (%v), want all %d", got.n, got.err, c.length)
				}
				if got.ctxErrLate != nil {
					t.Errorf("request's context ended (%v) %v after its body was read, want it to last", got.ctxErrLate, 3*step)
				}
			default:
				if got.err == nil || got.n >= int64(c.length) || !strings.Contains(string(b), "slower than this server's minimum") {
					t.Errorf("read %d bytes (%v), reply %s; want the body cut, saying it came too slowly", got.n, got.err, b)
				}
			}
		})
	}
}
