package server

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"
)

// This file holds the middleware every request goes through: panic
// recovery, the Host and Origin checks against DNS rebinding, and the
// request-size limit.

// contentSecurityPolicy lets the page load its own script, style and API
// only, and never be framed: the page has no inline script or style
// (TestPageNeedsNoInline).
const contentSecurityPolicy = "default-src 'self'; frame-ancestors 'none'"

// setSecurityHeaders sets the headers of every reply (guard): no MIME
// sniffing (an export or an error read as HTML), the
// Content-Security-Policy, and no Referer sent from the page.
func setSecurityHeaders(h http.Header) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("Referrer-Policy", "no-referrer")
}

// guard wraps h with panic recovery, the security headers, the Host and
// Origin checks, the body limit, the body's minimum rate (rateBody) and
// the reply's own write deadline (replyWriter).
func (s *Server) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		setSecurityHeaders(rw.Header())
		w := &replyWriter{ResponseWriter: rw, timeout: s.writeTimeout}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.logf("tether serve: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
				writeError(w, http.StatusInternalServerError, fmt.Errorf("internal error: %v", v))
			}
		}()
		if !s.hostAllowed(r.Host) {
			writeError(w, http.StatusForbidden, fmt.Errorf("host %q is not the address this server is bound to", r.Host))
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !s.originAllowed(o, r.Host) {
			writeError(w, http.StatusForbidden, fmt.Errorf("origin %q is not this server's page at %q", o, r.Host))
			return
		}
		limit := s.bodyLimit(r)
		if r.ContentLength > limit {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("request body of %d bytes exceeds the limit of %d bytes", r.ContentLength, limit))
			return
		}
		r.Body = http.MaxBytesReader(rw, r.Body, limit)
		if r.ContentLength != 0 {
			r.Body = &rateBody{ReadCloser: r.Body, rc: http.NewResponseController(rw), step: s.bodyStep, limit: time.Now().Add(readTimeout)}
		}
		h.ServeHTTP(w, r)
	})
}

// replyWriter sets the connection's write deadline to timeout from the
// reply's first byte (its status line), so that the time a request spent
// before replying (reading its body, waiting for its session and a worker,
// computing up to the compute limit) does not use up the time to write the
// reply: http.Server's WriteTimeout counts from the request's arrival, and
// a 503 at a compute limit near it was cut off unsent.
type replyWriter struct {
	http.ResponseWriter
	timeout time.Duration
	started bool
}

func (w *replyWriter) start() {
	if !w.started {
		w.started = true
		// Not supported by httptest's recorder: nothing to extend.
		_ = http.NewResponseController(w.ResponseWriter).SetWriteDeadline(time.Now().Add(w.timeout))
	}
}

func (w *replyWriter) WriteHeader(status int) {
	w.start()
	w.ResponseWriter.WriteHeader(status)
}

func (w *replyWriter) Write(p []byte) (int, error) {
	w.start()
	return w.ResponseWriter.Write(p)
}

// Unwrap returns the underlying writer, for http.ResponseController.
func (w *replyWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// bodyLimit returns the largest body r may have: Config.MaxUpload for an
// upload, loadLimit for a loaded session (the largest save), Config.MaxBody
// otherwise.
func (s *Server) bodyLimit(r *http.Request) int64 {
	switch {
	case isUpload(r) && strings.HasSuffix(r.URL.Path, "/load"):
		return s.loadLimit()
	case isUpload(r):
		return s.cfg.MaxUpload
	}
	return s.cfg.MaxBody
}

// isUpload reports whether r may carry a data file (the larger limit).
func isUpload(r *http.Request) bool {
	return r.Method == http.MethodPost && (strings.HasSuffix(r.URL.Path, "/data") || strings.HasSuffix(r.URL.Path, "/load"))
}

// hostAllowed reports whether the Host header names the bound address:
// the same host and port, "localhost" for a loopback address, or, when
// bound to all interfaces (an explicit choice), any IP literal with the
// bound port. A DNS name other than localhost is refused whatever it
// resolves to: that is the DNS-rebinding attack.
func (s *Server) hostAllowed(host string) bool {
	h, port, err := net.SplitHostPort(host)
	if err != nil {
		h, port = host, "80"
	}
	bh, bport, err := net.SplitHostPort(s.addr)
	if err != nil || port != bport {
		return false
	}
	h = strings.Trim(h, "[]")
	if strings.EqualFold(h, bh) {
		return true
	}
	bip := net.ParseIP(bh)
	ip := net.ParseIP(h)
	switch {
	case bip == nil:
		return false
	case strings.EqualFold(h, "localhost"):
		return bip.IsLoopback()
	case ip == nil:
		return false
	case bip.IsUnspecified():
		return true
	}
	return ip.Equal(bip)
}

// ParseOrigin checks that o is a bare origin for Config.AllowOrigins:
// http:// or https:// then a host with an optional port, and nothing else
// (no path, query, fragment or user), returning it without a trailing
// slash.
func ParseOrigin(o string) (string, error) {
	o = strings.TrimSuffix(o, "/")
	rest, ok := strings.CutPrefix(o, "http://")
	if !ok {
		rest, ok = strings.CutPrefix(o, "https://")
	}
	if !ok {
		return "", fmt.Errorf("origin %q: want http:// or https:// and a host, e.g. https://tether.example.org", o)
	}
	if rest == "" || strings.ContainsAny(rest, "/?#@ ") {
		return "", fmt.Errorf("origin %q: want only a host and an optional port after the scheme", o)
	}
	if h, _ := splitHostPort(rest); h == "" {
		return "", fmt.Errorf("origin %q: no host", o)
	}
	return o, nil
}

// originAllowed reports whether an Origin header is one of
// Config.AllowOrigins or this server's page
// as the request reaches it: an http origin with no path or user
// whose host and port are those of the Host header (port 80 implied on
// either side; host names compared without case), and allowed as a Host
// itself. A page's own requests always match: a browser sends its page's
// origin, and Host from the same URL. Another name or address of this
// server (localhost for 127.0.0.1, another interface's IP under -public)
// is another origin, so it is refused.
func (s *Server) originAllowed(origin, host string) bool {
	for _, a := range s.cfg.AllowOrigins {
		if strings.EqualFold(origin, a) {
			return true
		}
	}
	rest, ok := strings.CutPrefix(origin, "http://")
	if !ok || rest == "" || strings.ContainsAny(rest, "/?#@") {
		return false
	}
	oh, oport := splitHostPort(rest)
	hh, hport := splitHostPort(host)
	if oh == "" || !strings.EqualFold(oh, hh) || oport != hport {
		return false
	}
	return s.hostAllowed(net.JoinHostPort(oh, oport))
}

// splitHostPort splits a Host header or an origin's host[:port] into the
// host, without the brackets of an IPv6 literal, and the port, "80" when
// none is given.
func splitHostPort(hostport string) (host, port string) {
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		return h, p
	}
	return strings.TrimSuffix(strings.TrimPrefix(hostport, "["), "]"), "80"
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Log != nil {
		s.cfg.Log.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// bodyChunk and bodyStep are the minimum rate at which a request body must
// arrive (rateBody): bodyChunk bytes per bodyStep (Server.bodyStep, which
// tests shorten), 64 KiB per 10 s, about 6.5 KB/s. A 64 MiB upload over
// the loopback takes well under a second; a link slower than that is far
// below what the page's uploads need anyway.
const (
	bodyChunk = 64 << 10
	bodyStep  = 10 * time.Second
)

// readTimeout is http.Server's ReadTimeout (Serve): the whole request,
// headers and body, within 2 minutes.
const readTimeout = 2 * time.Minute

// rateBody is a request body that must arrive at a minimum rate: reading
// it sets the connection's read deadline to step from its first Read and
// moves it step further each time another bodyChunk bytes have arrived,
// never past limit (readTimeout after the headers, as http.Server's
// ReadTimeout), so a body sent a byte at a time is cut after step, not
// after readTimeout. Without it 260 connections each sending a body of
// 100 000 bytes a byte every 2 s held every connection slot (limitListener
// reclaims only idle connections, and one reading a body is busy) for the
// 2 minutes, and no one else was served. The deadline is never moved once
// the body has ended: net/http then clears it for its background read,
// which watches for the client leaving while the request computes and
// would cancel the request's context when a deadline passed. A body read
// too slowly fails with an error saying so (a 400). Cost: one deadline
// set per bodyChunk bytes.
type rateBody struct {
	io.ReadCloser
	rc    *http.ResponseController
	step  time.Duration
	limit time.Time
	got   int  // bytes since the deadline last moved
	begun bool // the first Read set the deadline
}

// deadline sets the connection's read deadline to step from now, at most
// limit. Errors (a connection without deadlines, a test's recorder) are
// ignored: the body is then bounded by ReadTimeout alone.
func (b *rateBody) deadline() {
	d := time.Now().Add(b.step)
	if d.After(b.limit) {
		d = b.limit
	}
	_ = b.rc.SetReadDeadline(d)
}

// Read reads from the body, moving the read deadline as described on
// rateBody.
func (b *rateBody) Read(p []byte) (int, error) {
	if !b.begun {
		b.begun = true
		b.deadline()
	}
	n, err := b.ReadCloser.Read(p)
	b.got += n
	// Not once the body has ended (err is io.EOF, which net/http returns
	// with the last bytes): it then starts its background read, clearing
	// the deadline, and a deadline set after would end the request's
	// context when it passed.
	if b.got >= bodyChunk && err == nil {
		b.got = 0
		b.deadline()
	}
	var ne net.Error
	if err != nil && errors.As(err, &ne) && ne.Timeout() {
		err = fmt.Errorf("the request body arrived slower than this server's minimum of %d bytes per %v: %w", bodyChunk, b.step, err)
	}
	return n, err
}
