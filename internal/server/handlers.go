package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tether-sc/tether/active"
	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/internal/wording"
)

// This file holds the API handlers; docs/api.md documents each with an
// example.

// writeJSON writes v as JSON, and a newline, with the given status,
// without HTML escapes (sendJSON). v is encoded before anything is
// written: a value JSON cannot encode (a NaN or an infinity) gives a 500
// saying so, and is logged, where a 200 went out with an empty body and
// the encoder's error was dropped (review 92).
func (s *Server) writeJSON(w http.ResponseWriter, status int, v any) {
	if err := sendJSON(w, status, v, ""); err != nil {
		s.logf("tether serve: encoding a %d reply: %v", status, err)
		sendJSON(w, http.StatusInternalServerError, errorReply{Error: fmt.Sprintf("internal error: the reply could not be encoded as JSON: %v", err)}, "")
	}
}

// sendJSON encodes v as JSON, indented by indent ("" for none), and a
// newline, and writes it with the given status, returning the encoder's
// error, when v cannot be encoded, before anything is written. The
// document is written without HTML escapes: json.Marshal writes each <,
// > and & as 6 bytes (\u003c), which tripled a reply of names full of
// them (review 116); the replies are application/json or attachments,
// with nosniff (setSecurityHeaders), never rendered as HTML. It is
// encoded into encoding/json's own buffer and written from there in one
// Write, without a copy (json.Marshal copies it out, and the newline
// appended copied it again: review 116), so that countedWriter sees the
// whole reply at once. A failed write (the client left) is not reported.
func sendJSON(w http.ResponseWriter, status int, v any, indent string) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	fw := &firstWrite{w: w, status: status}
	enc := json.NewEncoder(fw)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil && !fw.sent {
		return err
	}
	return nil
}

// firstWrite is an io.Writer that sends its status to w with its first
// bytes, so that sendJSON's status goes out only once its document is
// encoded.
type firstWrite struct {
	w      http.ResponseWriter
	status int
	sent   bool
}

func (f *firstWrite) Write(p []byte) (int, error) {
	if !f.sent {
		f.sent = true
		f.w.WriteHeader(f.status)
	}
	return f.w.Write(p)
}

// errorReply is the body of every error: {"error": "..."}.
type errorReply struct {
	Error string `json:"error"`
}

// writeError writes err as an errorReply with the given status, its text
// without the server's own markers (errorText).
func writeError(w http.ResponseWriter, status int, err error) {
	sendJSON(w, status, errorReply{Error: errorText(err)}, "") // a string always encodes
}

// errorText returns err's text without the texts of the server's
// sentinels (errBadInput, errConflict, errComputeTimeout, errBusy,
// errClientBusy), which say the status and not the problem, wherever they
// stand in the chain: a cancellation's reply embeds the error where the
// request stopped, which may be bad input ("…; where it stopped: bad input: …"; review
// 92), and only a leading one was removed. Cost O(len of the text).
func errorText(err error) string {
	parts := strings.Split(err.Error(), ": ")
	kept := parts[:0]
	for _, p := range parts {
		switch p {
		case errBadInput.Error(), errConflict.Error(), errComputeTimeout.Error(), errBusy.Error(), errClientBusy.Error(), errSessionGone.Error():
			continue
		}
		kept = append(kept, p)
	}
	return strings.Join(kept, ": ")
}

// fail maps err to its status: 400 bad input, 404 a session dropped
// while the request waited for it or computed (errSessionGone), 409
// conflict, 413 too large, 429 a client over its share of the bodies being read
// (errClientBusy), 503 past the compute time limit, too many waiting (errBusy) or
// cancelled (the client left or the server is stopping), 500 otherwise,
// logged (a rootError with its cause, which its reply does not give).
func (s *Server) fail(w http.ResponseWriter, err error) {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("request body exceeds the limit of %d bytes", tooBig.Limit))
	case errors.Is(err, errClientBusy):
		writeError(w, http.StatusTooManyRequests, err)
	case errors.Is(err, errSessionGone):
		writeError(w, http.StatusNotFound, err)
	case errors.Is(err, errComputeTimeout), errors.Is(err, errBusy):
		writeError(w, http.StatusServiceUnavailable, err)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		// Before bad input: a reader or generator stopped by the
		// cancellation wraps its error as bad input too.
		why := "the request was cancelled (its client left)"
		if errors.Is(err, context.DeadlineExceeded) {
			why = "the request ran out of time"
		}
		if s.stopping.Load() {
			why = "the server is stopping: the request was cancelled"
		}
		writeError(w, http.StatusServiceUnavailable, fmt.Errorf("%s; where it stopped: %w", why, err))
	case errors.Is(err, errBadInput):
		writeError(w, http.StatusBadRequest, err)
	case errors.Is(err, errConflict):
		writeError(w, http.StatusConflict, err)
	case errors.Is(err, active.ErrInvalid):
		writeError(w, http.StatusBadRequest, err)
	default:
		var root *rootError
		if errors.As(err, &root) {
			// The reply says no more; the log has the path.
			s.logf("tether serve: opening the -data root: %v", root.err)
		} else {
			s.logf("tether serve: %v", err)
		}
		writeError(w, http.StatusInternalServerError, err)
	}
}

// decode reads a JSON body into v, refusing unknown fields and trailing
// data.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return err
		}
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%w: empty body, want a JSON document", errBadInput)
		}
		return fmt.Errorf("%w: JSON body: %w", errBadInput, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: JSON body: data after the document", errBadInput)
	}
	return nil
}

// withSession looks up the session named in the path, reads the request's
// whole body (within guard's limit) and runs h under the session's lock
// with that body: the requests that change the session or compute (the
// read-only GETs go through readSession instead). The body is read before the lock is taken, and h's reply
// is held in memory (heldReply) and sent after the lock is released: a
// client sending its body or reading its reply slowly blocks only its own
// request, not the session's others for up to the server's read or write
// timeout. The reply counts against the bytes in transit while it is
// written, as the read-only GETs' do, but is never refused: the request's
// changes are committed (countedWriter, Server.countReply).
//
// A body that would take the bodies its client (clientKey) is sending past
// s.clientShare is refused at once (429), and one that would take the
// bodies held by such requests past s.bodyBudget too (503); the body
// counts against its client's share until it has been read, and against
// the budget until h returns.
// Once its body is read and counted the request is admitted: its compute
// deadline, Config.ComputeTimeout later, starts (compute runs under the
// same one), and it waits for the session's lock while that deadline and
// its context last. A request that finds maxWaiting others already
// waiting for the session is refused at once (503), and one still waiting
// at its deadline or whose context ends (its client left, the server is
// stopping) gets 503 without the lock.
//
// The request's context ends too when its session is dropped (deleted,
// or evicted for the cap on sessions or the node budget, which pick a
// session with a request in flight only when all have one; never idle
// while one is in flight: store.acquire, session.done): a request still waiting for the
// session, or whose turn comes after it was dropped, never runs h; one
// running h is stopped (its computation's context ends, its worker is
// freed) and its reply dropped. Either is answered 404 saying why the
// session went, as a request naming it afterwards is.
func (s *Server) withSession(h func(http.ResponseWriter, *http.Request, *session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// The request is in flight on the session, never idle-evicted and
		// evicted for the cap or the node budget only after the sessions
		// without one, until it ends (store.acquire, store.release).
		ss, ok := s.sessions.acquire(r.PathValue("id"))
		if !ok {
			writeError(w, http.StatusNotFound, s.noSession(r.PathValue("id")))
			return
		}
		defer s.sessions.release(ss)
		// The body is counted before it is read: its Content-Length, or
		// for a body of unknown length (chunked) the most it may have.
		// Bodies being read were not counted, and twelve connections
		// each sending 63 MiB held 1.2 GB (review 92).
		reserve := r.ContentLength
		if reserve < 0 {
			reserve = s.bodyLimit(r)
		}
		// Against the client's share first (429), then the server's
		// budget (503); a body of 0 bytes counts against neither.
		var reading *clientHold
		var err error
		what := transit{bound: r.ContentLength < 0, size: reserve}
		if reserve > 0 {
			reading, err = s.holdClientBody(clientKey(r.RemoteAddr), reserve, what)
		}
		var hold *bodyHold
		if err == nil {
			hold, err = s.holdBody(reserve, what)
			if err != nil {
				reading.release()
			}
		}
		if err != nil {
			// The connection closes after the 429 or 503: net/http
			// would otherwise read the unread body (up to 256 KiB)
			// before replying, waiting for a client that sends it
			// slowly.
			w.Header().Set("Connection", "close")
			s.fail(w, err)
			return
		}
		defer hold.release()
		defer reading.release()
		body, err := readBodyOf(r.Body, r.ContentLength)
		reading.release() // read (or failed): no longer being sent
		if err != nil {
			var tooBig *http.MaxBytesError
			if !errors.As(err, &tooBig) {
				err = fmt.Errorf("%w: reading the request body: %w", errBadInput, err)
			}
			s.fail(w, err)
			return
		}
		hold.shrink(int64(len(body)))
		adm := admission{at: time.Now()}
		// The request's context ends with its client, the server, its
		// compute deadline or its session (dropped: ss.done).
		sctx, gone := context.WithCancelCause(r.Context())
		defer gone(nil)
		defer context.AfterFunc(ss.done, func() { gone(context.Cause(ss.done)) })()
		ctx, cancel := context.WithDeadlineCause(sctx, adm.at.Add(s.cfg.ComputeTimeout), errComputeTimeout)
		defer cancel()
		if err := s.waitTurn(ctx, ss); err != nil {
			if ss.done.Err() != nil {
				err = context.Cause(ss.done)
			}
			s.fail(w, err)
			return
		}
		if ss.done.Err() != nil {
			// Its turn came after the session was dropped: nothing is
			// computed for a session no one can name.
			ss.mu.Unlock()
			s.fail(w, context.Cause(ss.done))
			return
		}
		adm.sessionWait = time.Since(adm.at)
		hr := r.WithContext(context.WithValue(ctx, admissionKey{}, adm))
		hr.Body = &bufferedBody{Reader: bytes.NewReader(body), data: body}
		reply := heldReply{header: w.Header()}
		func() {
			defer ss.mu.Unlock()
			h(&reply, hr, ss)
		}()
		if ss.done.Err() != nil {
			// Dropped while h ran: h was stopped (its context ended) or
			// finished on a session no one can name; either way its
			// reply is dropped for the 404 a request naming the session
			// now gets.
			hold.release()
			s.fail(w, context.Cause(ss.done))
			return
		}
		hold.release() // the body is no longer used, but as a session's upload (counted in its cost: stateCost)
		cw := &countedWriter{ResponseWriter: w, s: s, client: clientKey(r.RemoteAddr), force: true}
		reply.send(cw)
	}
}

// readSession looks up the session named in the path and runs h with a
// snapshot of its state (session.snapshot), for the read-only GETs (the
// info, points, constraints, exports and save): they never wait for the
// session's lock, so a long computation on the session (a clustering, a
// load) delays none of them; they read the state its last commit left.
// Their bodies are not read (a GET's body, which net/http discards, is
// still bounded by guard), and their replies are written directly, the
// session's lock never held while the client reads; a reply, built whole
// (the largest, a save, up to loadLimit), counts against the bytes in
// transit while it is written, and one that does not fit is refused
// with 429 or 503 (countedWriter). bound (nil: none) returns an upper
// bound on h's reply (replysize.go), counted before h builds it
// (countedWriter.reserve), so that a reply refused is never built: a
// refused save of a large upload built 180 MB first.
func (s *Server) readSession(h func(http.ResponseWriter, *http.Request, *sessionView), bound func(*sessionView) int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ss, ok := s.sessions.get(r.PathValue("id"))
		if !ok {
			writeError(w, http.StatusNotFound, s.noSession(r.PathValue("id")))
			return
		}
		cw := &countedWriter{ResponseWriter: w, s: s, client: clientKey(r.RemoteAddr)}
		view := ss.snapshot()
		if bound != nil {
			if err := cw.reserve(bound(view)); err != nil {
				s.fail(w, err)
				return
			}
			defer cw.unreserve()
		}
		h(cw, r, view)
		cw.finish()
	}
}

// waitTurn takes ss's lock, waiting for it while ctx lasts (the request's
// compute deadline, its client, the server) unless maxWaiting requests
// already wait for it.
func (s *Server) waitTurn(ctx context.Context, ss *session) error {
	if ss.mu.TryLock() {
		return nil
	}
	if ss.waiting.Add(1) > maxWaiting {
		ss.waiting.Add(-1)
		return fmt.Errorf("%w: %d requests are already waiting for this session; try again when they finish", errBusy, maxWaiting)
	}
	defer ss.waiting.Add(-1)
	if err := ss.mu.LockContext(ctx); err != nil {
		if errors.Is(context.Cause(ctx), errComputeTimeout) {
			return fmt.Errorf("%w: this request reached the server's limit of %v while waiting for the session's earlier requests (a session runs its requests that change it or compute one at a time), so it did not start: try again when they finish, or restart tether serve with a larger -compute-timeout", errComputeTimeout, s.cfg.ComputeTimeout)
		}
		return fmt.Errorf("waiting for the session's earlier requests: %w", err)
	}
	return nil
}

// readBodyOf reads body in full: into a buffer of exactly length bytes
// when the length is known (Content-Length; no slack beyond it, where
// io.ReadAll's doubling leaves up to a quarter more), with io.ReadAll
// when it is not (length < 0). guard's http.MaxBytesReader bounds it
// either way.
func readBodyOf(body io.Reader, length int64) ([]byte, error) {
	if length < 0 {
		return io.ReadAll(body)
	}
	b := make([]byte, length)
	if _, err := io.ReadFull(body, b); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("the body ended before its Content-Length of %d bytes: %w", length, err)
		}
		return nil, err
	}
	return b, nil
}

// noSession returns the error of a request naming the session id, which
// does not exist: why it was dropped when it is one the store remembers
// (idle, the cap on sessions, the node budget, deleted), else the rules by
// which sessions go.
func (s *Server) noSession(id string) error {
	if why, ok := s.sessions.dropped(id); ok {
		return fmt.Errorf("no session %q: it was dropped %s; create a new one", id, why)
	}
	return fmt.Errorf("no session %q: it never existed or was dropped long ago (sessions idle for %v are dropped, and beyond %d sessions or %d nodes in all the least recently used go)", id, s.cfg.IdleTimeout, s.cfg.MaxSessions, s.cfg.MaxTotalNodes)
}

// countedWriter is the http.ResponseWriter through which readSession
// and withSession send their replies: it holds back the status until the
// first Write, which carries the whole reply (writeJSON, attachment and
// heldReply.send write a reply in one Write; a later Write is not
// counted), counts the reply against the bytes in transit
// (Server.countReply) while that Write runs, a client that does not read
// keeping it counted up to the write timeout, and sends, instead of a
// reply countReply refuses, the 429 or 503 it gives, its body never
// built again. A reply whose bound was counted before it was built
// (reserve) is not counted again when it fits that bound.
type countedWriter struct {
	http.ResponseWriter
	s        *Server
	client   string // clientKey
	force    bool   // never refused (countReply)
	status   int
	sent     bool
	reserved int64  // the bound counted by reserve
	release  func() // uncounts it; nil when nothing is reserved
}

// reserve counts n bytes, a bound on the reply about to be built,
// against the bytes in transit (Server.countReply), returning
// countReply's error (429, 503) when they do not fit. unreserve uncounts
// them once the reply is written. Cost O(1).
func (c *countedWriter) reserve(n int64) error {
	release, err := c.s.countReply(c.client, n, true, c.force)
	if err != nil {
		return err
	}
	c.reserved, c.release = n, release
	return nil
}

// unreserve uncounts what reserve counted (once).
func (c *countedWriter) unreserve() {
	if c.release != nil {
		c.release()
		c.release, c.reserved = nil, 0
	}
}

func (c *countedWriter) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
}

func (c *countedWriter) Write(p []byte) (int, error) {
	if !c.sent {
		c.sent = true
		c.WriteHeader(http.StatusOK)
		if c.release != nil && int64(len(p)) <= c.reserved {
			// Counted by reserve, until the handler returns.
			c.ResponseWriter.WriteHeader(c.status)
			return c.ResponseWriter.Write(p)
		}
		// Larger than its bound (none reserved, or a bound that missed):
		// counted as it is.
		c.unreserve()
		release, err := c.s.countReply(c.client, int64(len(p)), false, c.force)
		if err != nil {
			c.Header().Del("Content-Disposition")
			c.s.fail(c.ResponseWriter, err)
			return 0, err
		}
		defer release()
		c.ResponseWriter.WriteHeader(c.status)
	}
	return c.ResponseWriter.Write(p)
}

// finish sends a status the handler set without writing a body.
func (c *countedWriter) finish() {
	if !c.sent && c.status != 0 {
		c.sent = true
		c.ResponseWriter.WriteHeader(c.status)
	}
}

// Unwrap returns the underlying writer, for http.ResponseController.
func (c *countedWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// heldReply is an http.ResponseWriter that keeps the status and body in
// memory, for withSession to send once the session's lock is released. Its
// header is the real reply's (sent only with the status). A reply is at
// most what the session holds (the labels of MaxNodes nodes, its
// constraints): megabytes.
type heldReply struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (h *heldReply) Header() http.Header { return h.header }

func (h *heldReply) WriteHeader(status int) {
	if h.status == 0 {
		h.status = status
	}
}

func (h *heldReply) Write(p []byte) (int, error) {
	h.WriteHeader(http.StatusOK)
	return h.body.Write(p)
}

// send writes the held reply to w.
func (h *heldReply) send(w http.ResponseWriter) {
	h.WriteHeader(http.StatusOK)
	w.WriteHeader(h.status)
	w.Write(h.body.Bytes())
}

// bufferedBody is a request body withSession has read in full.
type bufferedBody struct {
	*bytes.Reader
	data []byte
}

func (*bufferedBody) Close() error { return nil }

// readBody returns r's whole body, without a copy when withSession has
// read it already.
func readBody(r *http.Request) ([]byte, error) {
	if b, ok := r.Body.(*bufferedBody); ok && b.Len() == len(b.data) {
		return b.data, nil
	}
	return io.ReadAll(r.Body)
}

// methodInfo describes a method for the page's picker.
type methodInfo struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
	Source  string `json:"source"`
	Fast    bool   `json:"fast"` // re-clusters with the reused basis
	// Supervision is the side information the method reads
	// (cluster.Supervision): "none", "pairs", "labels" or "labels|pairs".
	// The API gives pairs only, so a method of "labels" alone fails here
	// ("needs partial labels"): the page greys it out.
	Supervision string         `json:"supervision"`
	Knobs       []cluster.Knob `json:"knobs"`
}

func (s *Server) handleMethods(w http.ResponseWriter, r *http.Request) {
	var out []methodInfo
	for _, info := range cluster.Methods() {
		m := info.New()
		if m.Uses().Input&cluster.BipartiteInput != 0 {
			continue
		}
		_, fast := fgpwcOf(m)
		out = append(out, methodInfo{Name: info.Name, Summary: info.Summary, Source: info.Source, Fast: fast, Supervision: m.Uses().Supervision.String(), Knobs: cluster.Knobs(m)})
	}
	s.writeJSON(w, http.StatusOK, out)
}

type generatorInfo struct {
	Name     string             `json:"name"`
	Summary  string             `json:"summary"`
	Graph    bool               `json:"graph"`
	Defaults map[string]float64 `json:"defaults"`
}

func (s *Server) handleGenerators(w http.ResponseWriter, r *http.Request) {
	var out []generatorInfo
	for _, g := range synth.Generators() {
		gi := generatorInfo{Name: g.Name, Summary: g.Summary, Graph: g.Graph, Defaults: map[string]float64{}}
		for _, p := range g.Params {
			gi.Defaults[p], _ = g.Defaults.Get(p)
		}
		out = append(out, gi)
	}
	s.writeJSON(w, http.StatusOK, out)
}

// sessionInfo is the reply of session creation and GET /api/sessions/{id}.
type sessionInfo struct {
	ID          string `json:"id"`
	Name        string `json:"name,omitempty"`
	N           int    `json:"n"`
	Edges       int    `json:"edges"`
	HasTruth    bool   `json:"has_truth"`
	Constraints int    `json:"constraints"`
	// Warnings and Notes are the data's (input.Data): conditions that
	// may make the data differ from the file, and the documented choices
	// the readers made.
	Warnings []string      `json:"warnings,omitempty"`
	Notes    []string      `json:"notes,omitempty"`
	Last     *ClusterReply `json:"last,omitempty"`
}

// info returns the session's info; the caller holds its lock mu (or no
// request runs on it).
func (ss *session) info() sessionInfo {
	return (&sessionView{id: ss.id, sessionState: ss.sessionState}).info()
}

func (ss *sessionView) info() sessionInfo {
	in := sessionInfo{ID: ss.id, Constraints: len(ss.pairs), Last: ss.last}
	if d := ss.data; d != nil {
		in.Name, in.N, in.Edges, in.HasTruth, in.Warnings, in.Notes = d.Name, d.Graph.N(), d.Graph.Stats().Edges, d.Truth != nil, d.Warnings, d.Notes
	}
	return in
}

// handleCreate creates a session and loads the initial data (-input)
// into it, if any. It does not go through withSession (there is no
// session to name yet, and no body), but gives the load what withSession
// gives a request: the session counts the request in flight from its
// creation until the reply (store.createAcquired, store.release), so a
// session created meanwhile past the cap is refused (503) rather than
// evict it or an idle session holding data (store.evictForCap), one
// charged does not evict it while it loads, and the load stops
// when the session is dropped all the same (evicted once every session
// has a request in flight), answered 503 naming why instead of 201 with
// an id that names nothing, checked after the commit (a drop after the
// check is one after the reply). The compute deadline and the workers are s.compute's; a panic
// is guard's (500), after which the session, whose id no reply gave, is
// discarded.
func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	ss, err := s.sessions.createAcquired()
	if err != nil {
		s.fail(w, err)
		return
	}
	defer s.sessions.release(ss)
	created := false
	defer func() {
		if !created {
			// A panic (guard answers 500) or a failure: no reply
			// gives the id.
			s.sessions.discard(ss.id)
		}
	}()
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if s.cfg.Initial != nil {
		ctx, gone := context.WithCancelCause(r.Context())
		defer gone(nil)
		defer context.AfterFunc(ss.done, func() { gone(context.Cause(ss.done)) })()
		var next sessionState
		err = s.compute(ctx, func(ctx context.Context) (err error) {
			next, err = s.newData(ctx, s.cfg.Initial, s.cfg.InitialSource)
			return err
		})
		if err == nil {
			s.commit(ss, next)
		}
	}
	if s.createdHook != nil {
		s.createdHook(ss)
	}
	// Checked after the commit, the last step before the reply: checked
	// before it, a drop in between (an eviction once every session has
	// a request in flight) still got 201 with an id that named nothing.
	// A drop after this check is one after the reply.
	if ss.done.Err() != nil {
		err = fmt.Errorf("%w: the new session was dropped before its creation ended (while its initial data loaded, if any), which stopped (%v); try again", errBusy, context.Cause(ss.done))
	}
	if err != nil {
		// Not remembered as dropped: the reply does not give the id
		// (store.discard, deferred above).
		s.fail(w, err)
		return
	}
	created = true
	// The upload limit besides the info: the page checks a file's size
	// before it sends it (an oversized file was sent in full, 38 s for
	// 69 MB, to be refused).
	s.writeJSON(w, http.StatusCreated, struct {
		sessionInfo
		MaxUpload int64 `json:"max_upload"`
	}{ss.info(), s.cfg.MaxUpload})
}

func (s *Server) handleInfo(w http.ResponseWriter, r *http.Request, ss *sessionView) {
	s.writeJSON(w, http.StatusOK, ss.info())
}

func (s *Server) handleDelete(w http.ResponseWriter, r *http.Request) {
	if !s.sessions.delete(r.PathValue("id")) {
		writeError(w, http.StatusNotFound, s.noSession(r.PathValue("id")))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// dataRequest is the JSON body of POST …/data: a generated data set or a
// file under the -data root.
type dataRequest struct {
	Generate *GenerateRequest `json:"generate,omitempty"`
	File     string           `json:"file,omitempty"`
	Options  ReadOptions      `json:"options"`
}

// handleData loads data: a JSON body asks for a generated set or a file
// under the -data root; any other body is the content of an uploaded file,
// with the reader options in the query (name, kind, label, id, delim,
// header, scale, missing, missing_markers (comma-separated), gml_label,
// symmetrize) and the weight options (normalize_weights, self_loops).
func (s *Server) handleData(w http.ResponseWriter, r *http.Request, ss *session) {
	var src Source
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/json" {
		// checkQuery refused a query with a JSON body (its options
		// would be ignored) before this request waited for its turn.
		var req dataRequest
		if err := decode(r, &req); err != nil {
			s.fail(w, err)
			return
		}
		if (req.Generate != nil) == (req.File != "") {
			s.fail(w, fmt.Errorf("%w: give exactly one of generate and file (or upload the file as the body)", errBadInput))
			return
		}
		src = Source{Generate: req.Generate, File: req.File, Options: req.Options}
		if src.File != "" && src.Options.Name == "" {
			src.Options.Name = src.File
		}
	} else {
		q := r.URL.Query()
		if err := checkUploadQuery(q); err != nil {
			s.fail(w, err)
			return
		}
		o := ReadOptions{Name: q.Get("name"), Kind: q.Get("kind"), Label: q.Get("label"), ID: q.Get("id"), Delim: q.Get("delim"),
			Header: q.Get("header"), Scale: q.Get("scale"), Missing: q.Get("missing"), GMLLabel: q.Get("gml_label")}
		if q.Has("missing_markers") {
			o.MissingMarkers = strings.Split(q.Get("missing_markers"), ",")
		}
		for _, b := range []struct {
			name string
			v    *bool
		}{{"symmetrize", &o.Symmetric}, {"normalize_weights", &o.NormalizeWeights}} {
			v := q.Get(b.name)
			if v == "" {
				continue
			}
			var err error
			if *b.v, err = strconv.ParseBool(v); err != nil {
				s.fail(w, fmt.Errorf("%w: %s=%q is not a boolean", errBadInput, b.name, v))
				return
			}
		}
		if v := q.Get("self_loops"); v != "" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				s.fail(w, fmt.Errorf("%w: self_loops=%q is not a number", errBadInput, v))
				return
			}
			o.SelfLoops = f
		}
		body, err := readBody(r)
		if err != nil {
			s.fail(w, err)
			return
		}
		if len(body) == 0 {
			s.fail(w, fmt.Errorf("%w: empty upload", errBadInput))
			return
		}
		// The body's buffer itself: the readers only read it, and the
		// session keeps it as its source (uploadText). A body of unknown
		// length, read by io.ReadAll, may hold a quarter more room than
		// bytes (readBodyOf): the session, which counts the bytes, keeps
		// a copy of them alone.
		if cap(body)-len(body) > len(body)/16 {
			body = bytes.Clone(body)
		}
		src = Source{Upload: body, Options: o}
	}
	var next sessionState
	err := s.compute(r.Context(), func(ctx context.Context) error {
		d, err := s.loadSource(ctx, &src)
		if err != nil {
			return err
		}
		next, err = s.newData(ctx, d, src)
		return err
	})
	if err != nil {
		s.fail(w, err)
		return
	}
	s.commit(ss, next)
	s.writeJSON(w, http.StatusOK, ss.info())
}

// uploadQuery lists the query parameters of an upload to POST …/data:
// name, kind, and the reader and weight options.
func uploadQuery() []string {
	known := []string{"name", "kind"}
	for _, r := range slices.Concat(readOptions, weightOptions) {
		known = append(known, r.name)
	}
	return known
}

// checkUploadQuery refuses, as bad input, a query parameter of an upload
// that is no reader or weight option (a misspelt option would be
// ignored; checkQuery refuses it first) or one given twice (one of its
// values would be).
func checkUploadQuery(q url.Values) error {
	known := uploadQuery()
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if !slices.Contains(known, k) {
			return fmt.Errorf("%w: unknown query parameter %q (the options are %s)", errBadInput, k, strings.Join(known, ", "))
		}
		if n := len(q[k]); n > 1 {
			return fmt.Errorf("%w: query parameter %s given %d times", errBadInput, k, n)
		}
	}
	return nil
}

// loadSource reads or generates the data src describes, with the weights
// its options ask for (ReadOptions.NormalizeWeights, SelfLoops).
func (s *Server) loadSource(ctx context.Context, src *Source) (*input.Data, error) {
	d, err := s.readSource(ctx, src)
	switch {
	case err != nil:
		return nil, err
	case src.Initial:
		err = src.Options.checkInitialWeights()
	default:
		err = src.Options.adjustWeights(d)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// readSource reads or generates the data src describes, as read.
func (s *Server) readSource(ctx context.Context, src *Source) (*input.Data, error) {
	set := 0
	for _, b := range []bool{src.Initial, src.Generate != nil, src.File != "", len(src.Upload) > 0} {
		if b {
			set++
		}
	}
	if set != 1 {
		return nil, fmt.Errorf("%w: a data source has exactly one of initial, generate, file and upload", errBadInput)
	}
	switch {
	case src.Initial:
		if s.cfg.Initial == nil {
			return nil, fmt.Errorf("%w: this server was started without data (-input, -graph-file or -gen)", errBadInput)
		}
		if err := src.Options.checkNoOptions("the server's initial data"); err != nil {
			return nil, err
		}
		return s.cfg.Initial, nil
	case src.Generate != nil:
		if err := src.Options.checkNoOptions("generated data"); err != nil {
			return nil, err
		}
		return generateData(ctx, src.Generate, s.cfg.Spec, s.cfg.MaxNodes, s.cfg.MaxTotalNodes)
	case src.File != "":
		b, err := readRooted(ctx, s.cfg.DataRoot, src.File, s.cfg.MaxUpload)
		if err != nil {
			return nil, err
		}
		return readData(ctx, b, src.Options, s.cfg.Spec, s.cfg.MaxNodes, s.cfg.MaxTotalNodes, false)
	}
	return readData(ctx, src.Upload, src.Options, s.cfg.Spec, s.cfg.MaxNodes, s.cfg.MaxTotalNodes, true)
}

// newData returns the state of a session holding d, read from src, without
// constraints or partition, for commit: FGPWC's basis with the default
// knobs is computed (it gives the 2-D view when the features are not 2-D)
// and kept for re-clustering.
func (s *Server) newData(ctx context.Context, d *input.Data, src Source) (sessionState, error) {
	n := d.Graph.N()
	if n > s.cfg.MaxNodes {
		return sessionState{}, fmt.Errorf("%w: %s has %d nodes, this server's limit is %d", errBadInput, d.Name, n, s.cfg.MaxNodes)
	}
	if n < 3 {
		return sessionState{}, fmt.Errorf("%w: %s has %s; clustering needs at least 3", errBadInput, d.Name, wording.Count(n, "node", "nodes"))
	}
	if err := d.Check(); err != nil {
		return sessionState{}, fmt.Errorf("%w: %w", errBadInput, err)
	}
	// The edges, features and an upload's text count too (the -input
	// data are shared by the sessions: only their nodes count), and the
	// basis once computed (below).
	if c := s.stateCost(&sessionState{data: d, source: src}); c > s.cfg.MaxTotalNodes {
		return sessionState{}, fmt.Errorf("%w: %s: its %d nodes, edges, features and text count as %d nodes, beyond this server's budget of %d", errBadInput, d.Name, n, c, s.cfg.MaxTotalNodes)
	}
	// The basis the first request will most likely use: k = the number
	// of reference classes when there are any (FGPWC's m = 2k, see
	// fgpwcServerM), else the automatic k. More classes than FGPWC takes
	// on this server (maxFGPWCM: a label column with a different value
	// on nearly every row, an identifier rather than classes) give the
	// automatic k's basis: their k made the basis as wide as the data,
	// a dense eigensolve of 228 s on 2500 rows (review 116).
	classes := map[int]bool{}
	for _, c := range d.Truth {
		classes[c] = true
	}
	k := len(classes)
	if k > maxFGPWCM {
		k = 0
	}
	m, key, err := s.method(&ClusterRequest{K: k}, n)
	if err == nil && s.checkWork(m, k, workloadOf(d, nil)) != nil {
		// So many classes that their basis would pass the memory
		// limit: the automatic k's (a request for that k is refused
		// with the reason).
		m, key, err = s.method(&ClusterRequest{}, n)
	}
	if err != nil {
		return sessionState{}, err
	}
	f, _ := fgpwcOf(m)
	// L_sym is undefined on a graph with isolated nodes: such data load
	// without an FGPWC state (the methods cluster them by
	// Problem.Disconnected = attach, or regularized), and the view, when
	// the features are not 2-D, is the embedding of the other nodes, the
	// isolated ones at the origin.
	iso := d.Graph.Isolated()
	var st *cluster.FGPWCState
	var basis *cluster.FGPWCBasis
	if len(iso) == 0 {
		if d == s.cfg.Initial {
			if f.Basis, err = s.initialBasis(ctx, f); err != nil {
				return sessionState{}, err
			}
		}
		if st, err = f.NewState(ctx, d.Graph, s.settings(0)); err != nil {
			return sessionState{}, fmt.Errorf("%w: %s: the spectral embedding: %w", errBadInput, d.Name, err)
		}
		basis = st.Basis()
	}
	view := make([]float64, 2*n)
	what := "features"
	if _, dim := dims(d); dim == 2 {
		for i := 0; i < n; i++ {
			view[2*i], view[2*i+1] = d.X.At(i, 0), d.X.At(i, 1)
		}
	} else {
		nodes := make([]int, n)
		for i := range nodes {
			nodes[i] = i
		}
		if basis == nil {
			if nodes, basis, err = embedConnected(ctx, d.Graph, f, s.settings(0)); err != nil {
				return sessionState{}, fmt.Errorf("%w: %s: the spectral embedding of its %d nodes of degree > 0 (%d isolated): %w", errBadInput, d.Name, n-len(iso), len(iso), err)
			}
		}
		v := basis.Vectors()
		_, mm := v.Dims()
		for a, i := range nodes {
			view[2*i] = v.At(a, 0)
			if mm > 1 {
				view[2*i+1] = v.At(a, 1)
			}
		}
		what = "spectral embedding (u₂, u₃ of L_sym, rows normalized)"
		if d.X == nil {
			what = "spectral layout of the graph (u₂, u₃ of L_sym, rows normalized)"
		}
		if len(iso) > 0 {
			what = what[:len(what)-1] + "; " + wording.Count(len(iso), "isolated node", "isolated nodes") + " at the origin)"
		}
	}
	ns := sessionState{data: d, source: src, view: view, what: what}
	if st != nil {
		ns.state, ns.stateKey, ns.basisKey = st, key+" initial", basisKeyOf(f)+wholeGraphKey
	}
	if err := s.chargeState(&ns); err != nil {
		return sessionState{}, err
	}
	return ns, nil
}

// embedConnected returns the nodes of g of degree > 0, ascending, and
// f's basis of the subgraph they induce, for the view of a graph with
// isolated nodes. M is capped at the subgraph's size less 1. Cost: that
// of FGPWC.Embed on the subgraph.
func embedConnected(ctx context.Context, g *graph.Graph, f cluster.FGPWC, set *cluster.Settings) ([]int, *cluster.FGPWCBasis, error) {
	isolated := map[int]bool{}
	for _, i := range g.Isolated() {
		isolated[i] = true
	}
	var nodes []int
	for i := range g.N() {
		if !isolated[i] {
			nodes = append(nodes, i)
		}
	}
	sub, err := g.Subgraph(nodes)
	if err != nil {
		return nil, nil, err
	}
	f.Basis = nil
	if f.M > 0 {
		f.M = max(1, min(f.M, len(nodes)-1))
	}
	b, err := f.Embed(ctx, sub, set)
	return nodes, b, err
}

// commit makes next the state of ss, charging its data against the node
// budget when they changed (which may evict other sessions). The session's
// lock mu is held. Every request that changes a session computes the new
// state aside and commits it only when all of its work succeeded; the
// state is replaced under stateMu's write lock, held for the assignment
// alone, so that a read-only request (readSession) sees the state before
// or after, never a part of each, and never waits for the computation.
func (s *Server) commit(ss *session, next sessionState) {
	if next.data != ss.data || next.cost != ss.cost {
		s.sessions.charge(ss, next.cost)
	}
	ss.stateMu.Lock()
	ss.sessionState = next
	ss.stateMu.Unlock()
}

// commitPairs makes pairs the constraints of ss (commit).
func (s *Server) commitPairs(ss *session, pairs []constraint.Pair) {
	next := ss.sessionState
	next.pairs = pairs
	s.commit(ss, next)
}

// initialBasis computes the basis of the -input data once and shares it
// between sessions (a basis is immutable). A request that finds another
// computing it waits while its own ctx lasts (its compute deadline).
func (s *Server) initialBasis(ctx context.Context, f cluster.FGPWC) (*cluster.FGPWCBasis, error) {
	if err := s.initMu.LockContext(ctx); err != nil {
		return nil, fmt.Errorf("waiting for the basis of %s, which another request is computing: %w", s.cfg.Initial.Name, err)
	}
	defer s.initMu.Unlock()
	if s.initBasis == nil {
		b, err := f.Embed(ctx, s.cfg.Initial.Graph, s.settings(0))
		if err != nil {
			return nil, fmt.Errorf("%w: %s: the spectral embedding: %w", errBadInput, s.cfg.Initial.Name, err)
		}
		s.initBasis = b
	}
	return s.initBasis, nil
}

func dims(d *input.Data) (int, int) {
	if d.X == nil {
		return d.Graph.N(), 0
	}
	return d.X.Dims()
}

// pointsReply is the body of GET …/points.
type pointsReply struct {
	Name  string    `json:"name"`
	N     int       `json:"n"`
	View  string    `json:"view"`
	XY    []float64 `json:"xy"` // x₀, y₀, x₁, y₁, …
	Names []string  `json:"names,omitempty"`
	Truth []int     `json:"truth,omitempty"`
}

func (s *Server) handlePoints(w http.ResponseWriter, r *http.Request, ss *sessionView) {
	if ss.data == nil {
		s.fail(w, fmt.Errorf("%w: no data loaded in this session", errConflict))
		return
	}
	s.writeJSON(w, http.StatusOK, pointsReply{Name: ss.data.Name, N: ss.data.Graph.N(), View: ss.what, XY: ss.view, Names: ss.data.Names, Truth: ss.data.Truth})
}

// pairJSON is a constraint as the API spells it.
type pairJSON struct {
	I      int     `json:"i"`
	J      int     `json:"j"`
	Kind   string  `json:"kind"` // "ml" or "cl"
	Weight float64 `json:"weight,omitempty"`
}

type constraintsBody struct {
	Pairs []pairJSON `json:"pairs"`
}

func toJSON(pairs []constraint.Pair) constraintsBody {
	out := constraintsBody{Pairs: make([]pairJSON, len(pairs))}
	for k, p := range pairs {
		out.Pairs[k] = pairJSON{I: p.I, J: p.J, Kind: p.Kind.String(), Weight: p.Weight}
	}
	return out
}

// maxPairWeight bounds a constraint's weight, as maxSelfLoops bounds
// self_loops: the methods multiply weights by degrees and by each other,
// and weights near 1e308 overflowed them (review 92: 500s from ccsr,
// fast-ge, fast-ge2, fast-ge2-bh).
const maxPairWeight = 1e12

// parsePairs checks pairs against n nodes: each a kind, two nodes and a
// weight of 0 (meaning 1) or in (0, 10¹²]; a pair given twice (in either
// order) must be given alike, the same kind and weight: a must-link and a
// cannot-link of the same two nodes in one body were collapsed to the
// last one without a word (review 116), and are refused naming both
// entries. Cost O(len(in)).
func parsePairs(in []pairJSON, n int) ([]constraint.Pair, error) {
	out := make([]constraint.Pair, len(in))
	for k, p := range in {
		if !(p.Weight >= 0 && p.Weight <= maxPairWeight) {
			return nil, fmt.Errorf("%w: pair %d (%d,%d): weight %v, want a weight in (0, %g] (0 or none means 1)", errBadInput, k, p.I, p.J, p.Weight, float64(maxPairWeight))
		}
		var kind constraint.Kind
		switch strings.ToLower(p.Kind) {
		case "ml", "must-link", "mustlink":
			kind = constraint.MustLink
		case "cl", "cannot-link", "cannotlink":
			kind = constraint.CannotLink
		default:
			return nil, fmt.Errorf("%w: pair %d (%d,%d): kind %q, want ml or cl", errBadInput, k, p.I, p.J, p.Kind)
		}
		out[k] = constraint.Pair{I: p.I, J: p.J, Kind: kind, Weight: p.Weight}
	}
	set := &constraint.Set{N: n, Pairs: out}
	if err := set.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", errBadInput, err)
	}
	first := make(map[[2]int]int, len(out))
	for k, p := range out {
		key := [2]int{min(p.I, p.J), max(p.I, p.J)}
		f, seen := first[key]
		if !seen {
			first[key] = k
			continue
		}
		if q := out[f]; q.Kind != p.Kind || q.W() != p.W() {
			return nil, fmt.Errorf("%w: pairs %d (%d,%d %s, weight %g) and %d (%d,%d %s, weight %g) constrain the same two nodes differently: keep one of them", errBadInput, f, q.I, q.J, q.Kind, q.W(), k, p.I, p.J, p.Kind, p.W())
		}
	}
	return out, nil
}

// mergePairs returns old with pairs added, in a new slice; a pair already
// constrained (in either order) takes its new kind and weight.
func (s *Server) mergePairs(old, pairs []constraint.Pair) ([]constraint.Pair, error) {
	index := make(map[[2]int]int, len(old))
	key := func(p constraint.Pair) [2]int { return [2]int{min(p.I, p.J), max(p.I, p.J)} }
	for k, p := range old {
		index[key(p)] = k
	}
	out := append([]constraint.Pair(nil), old...)
	for _, p := range pairs {
		if k, ok := index[key(p)]; ok {
			out[k] = p
			continue
		}
		index[key(p)] = len(out)
		out = append(out, p)
	}
	if len(out) > s.cfg.MaxConstraints {
		return nil, fmt.Errorf("%w: %d constraints exceed this server's limit of %d per session", errBadInput, len(out), s.cfg.MaxConstraints)
	}
	return out, nil
}

func (s *Server) constraintsInput(w http.ResponseWriter, r *http.Request, ss *session) ([]constraint.Pair, bool) {
	if ss.data == nil {
		s.fail(w, fmt.Errorf("%w: no data loaded in this session", errConflict))
		return nil, false
	}
	var body constraintsBody
	if err := decode(r, &body); err != nil {
		s.fail(w, err)
		return nil, false
	}
	pairs, err := parsePairs(body.Pairs, ss.data.Graph.N())
	if err != nil {
		s.fail(w, err)
		return nil, false
	}
	return pairs, true
}

func (s *Server) handleGetConstraints(w http.ResponseWriter, r *http.Request, ss *sessionView) {
	s.writeJSON(w, http.StatusOK, toJSON(ss.pairs))
}

func (s *Server) handlePutConstraints(w http.ResponseWriter, r *http.Request, ss *session) {
	pairs, ok := s.constraintsInput(w, r, ss)
	if !ok {
		return
	}
	out, err := s.mergePairs(nil, pairs)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.commitPairs(ss, out)
	s.writeJSON(w, http.StatusOK, toJSON(ss.pairs))
}

func (s *Server) handleAddConstraints(w http.ResponseWriter, r *http.Request, ss *session) {
	pairs, ok := s.constraintsInput(w, r, ss)
	if !ok {
		return
	}
	out, err := s.mergePairs(ss.pairs, pairs)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.commitPairs(ss, out)
	s.writeJSON(w, http.StatusOK, toJSON(ss.pairs))
}

func (s *Server) handleClearConstraints(w http.ResponseWriter, r *http.Request, ss *session) {
	s.commitPairs(ss, nil)
	s.writeJSON(w, http.StatusOK, toJSON(ss.pairs))
}

func (s *Server) handleDeleteConstraint(w http.ResponseWriter, r *http.Request, ss *session) {
	i, err1 := strconv.Atoi(r.PathValue("i"))
	j, err2 := strconv.Atoi(r.PathValue("j"))
	if err1 != nil || err2 != nil {
		s.fail(w, fmt.Errorf("%w: want node numbers in /constraints/{i}/{j}, got %q and %q", errBadInput, r.PathValue("i"), r.PathValue("j")))
		return
	}
	for k, p := range ss.pairs {
		if (p.I == i && p.J == j) || (p.I == j && p.J == i) {
			s.commitPairs(ss, append(ss.pairs[:k:k], ss.pairs[k+1:]...))
			s.writeJSON(w, http.StatusOK, toJSON(ss.pairs))
			return
		}
	}
	writeError(w, http.StatusNotFound, fmt.Errorf("no constraint between nodes %d and %d", i, j))
}

func (s *Server) handleCluster(w http.ResponseWriter, r *http.Request, ss *session) {
	var req ClusterRequest
	if err := decode(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	if req.K < 0 {
		s.fail(w, fmt.Errorf("%w: k = %d, want ≥ 0", errBadInput, req.K))
		return
	}
	var reply *ClusterReply
	next := ss.sessionState
	err := s.compute(r.Context(), func(ctx context.Context) error {
		var err error
		reply, err = s.recluster(ctx, &next, req)
		return err
	})
	if err != nil {
		s.fail(w, err)
		return
	}
	s.commit(ss, next)
	s.writeJSON(w, http.StatusOK, reply)
}

// suggestRequest is the body of POST …/suggest.
type suggestRequest struct {
	Count int    `json:"count"`
	Seed  uint64 `json:"seed"`
	// Strategy is one of package active's strategies by name (auto,
	// explore, boundary, similarity, random); "" means auto.
	Strategy active.Strategy `json:"strategy"`
}

type questionJSON struct {
	I     int     `json:"i"`
	J     int     `json:"j"`
	Score float64 `json:"score"`
	Why   string  `json:"why"`
}

func (s *Server) handleSuggest(w http.ResponseWriter, r *http.Request, ss *session) {
	var req suggestRequest
	if err := decode(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	if req.Count < 0 || req.Count > 100 {
		s.fail(w, fmt.Errorf("%w: count = %d, want 0…100", errBadInput, req.Count))
		return
	}
	switch {
	case ss.last == nil:
		s.fail(w, fmt.Errorf("%w: cluster first: suggestions are chosen from the current partition and its embedding", errConflict))
		return
	case ss.lastEmb == nil:
		s.fail(w, fmt.Errorf("%w: method %s gives no embedding to choose suggestions from: cluster with fgpwc first", errConflict, ss.last.Method))
		return
	case req.Strategy == active.Similarity && ss.lastSigmaML == 0:
		s.fail(w, fmt.Errorf("%w: the similarity strategy needs the σ_m of an fgpwc partition (SigmaML) and the last partition is %s's, which has none: cluster with fgpwc first, or choose another strategy", errConflict, ss.last.Method))
		return
	}
	n := ss.data.Graph.N()
	var qs []active.Question
	err := s.compute(r.Context(), func(ctx context.Context) error {
		var err error
		qs, err = active.Suggest(ctx, active.State{Embedding: ss.lastEmb, Labels: ss.last.Labels, K: ss.lastReq.K, Constraints: &constraint.Set{N: n, Pairs: ss.pairs}, SigmaML: ss.lastSigmaML},
			active.Options{Count: req.Count, Seed: req.Seed, Strategy: req.Strategy})
		return err
	})
	if err != nil {
		s.fail(w, err)
		return
	}
	out := make([]questionJSON, len(qs))
	for k, q := range qs {
		out[k] = questionJSON{I: q.I, J: q.J, Score: q.Score, Why: q.Why}
	}
	s.writeJSON(w, http.StatusOK, map[string]any{"questions": out})
}

func (s *Server) needPartition(w http.ResponseWriter, ss *sessionView) bool {
	if ss.last == nil {
		s.fail(w, fmt.Errorf("%w: no partition yet: cluster first", errConflict))
		return false
	}
	return true
}

// attachment writes body with a download name, not to be cached (a
// session's data and constraints stayed in the browser's cache), in one
// Write (countedWriter).
func attachment(w http.ResponseWriter, ctype, name string, body []byte) {
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.Header().Set("Cache-Control", "no-store")
	w.Write(body)
}

// attachJSON writes v as the JSON document of a download (a save, the
// summary) named name, indented by indent ("" for none), as attachment
// does, encoded by sendJSON: ending with a newline, without HTML escapes
// (json.Marshal writes each <, > and & as 6 bytes, \u003c, which a file
// read by a person or another program should not have, and which made a
// save of an upload near the limit larger than load takes: review 92),
// and without a copy of the document. When v cannot be encoded it
// returns the error, nothing written and the download's name removed
// from the headers.
func attachJSON(w http.ResponseWriter, name string, v any, indent string) error {
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	if err := sendJSON(w, http.StatusOK, v, indent); err != nil {
		w.Header().Del("Content-Disposition")
		return err
	}
	return nil
}

func (s *Server) handleExportLabels(w http.ResponseWriter, r *http.Request, ss *sessionView) {
	if !s.needPartition(w, ss) {
		return
	}
	var b bytes.Buffer
	if err := dataset.WriteNodeLabels(&b, ss.last.Labels, dataset.KeyNames(ss.data.Names), nil, "cluster"); err != nil {
		s.fail(w, err)
		return
	}
	attachment(w, "text/csv; charset=utf-8", "labels.csv", b.Bytes())
}

func (s *Server) handleExportConstraints(w http.ResponseWriter, r *http.Request, ss *sessionView) {
	if ss.data == nil {
		s.fail(w, fmt.Errorf("%w: no data loaded in this session", errConflict))
		return
	}
	var b bytes.Buffer
	if err := constraint.Write(&b, &constraint.Set{N: ss.data.Graph.N(), Pairs: ss.pairs}, 0); err != nil {
		s.fail(w, err)
		return
	}
	attachment(w, "text/csv; charset=utf-8", "constraints.csv", b.Bytes())
}

// summaryReply is the JSON summary export.
type summaryReply struct {
	Input string `json:"input"`
	N     int    `json:"n"`
	*ClusterReply
	Request ClusterRequest `json:"request"`
	Names   []string       `json:"names,omitempty"`
}

func (s *Server) handleExportSummary(w http.ResponseWriter, r *http.Request, ss *sessionView) {
	if !s.needPartition(w, ss) {
		return
	}
	// Without HTML escapes, as a save (attachJSON): the names of an
	// upload came back with each <, > and & as \u003c, \u003e, \u0026.
	if err := attachJSON(w, "summary.json", summaryReply{Input: ss.data.Name, N: ss.data.Graph.N(), ClusterReply: ss.last, Request: ss.lastReq, Names: ss.data.Names}, summaryIndent); err != nil {
		s.fail(w, fmt.Errorf("writing the summary: %w", err))
	}
}

// savedSession is the document of …/save and …/load.
type savedSession struct {
	Version     int             `json:"tether_session"`
	Source      Source          `json:"source"`
	Constraints []pairJSON      `json:"constraints"`
	Request     *ClusterRequest `json:"request,omitempty"`
}

func (s *Server) handleSave(w http.ResponseWriter, r *http.Request, ss *sessionView) {
	if ss.data == nil {
		s.fail(w, fmt.Errorf("%w: no data loaded in this session", errConflict))
		return
	}
	doc := savedSession{Version: 1, Source: savedSource(ss.source), Constraints: toJSON(ss.pairs).Pairs}
	if ss.last != nil {
		req := ss.lastReq
		doc.Request = &req
	}
	// Without HTML escapes: json.Marshal wrote each <, > and & of an
	// upload as 6 bytes, and a save could exceed what load takes
	// (review 92).
	if err := attachJSON(w, "session.json", doc, ""); err != nil {
		s.fail(w, fmt.Errorf("writing the saved session: %w", err))
	}
}

// loadLimit is the body limit of POST …/load: the largest document save
// writes, an upload of Config.MaxUpload bytes in base64 (savedSource:
// never longer), Config.MaxConstraints pairs of at most maxPairJSON bytes
// and a cluster request of at most Config.MaxBody bytes, with 64 KiB for
// the rest (generator parameters, options): 85 MiB, 9.2 MiB, 1 MiB and
// 64 KiB by default, 95.5 MiB.
func (s *Server) loadLimit() int64 {
	return int64(base64.StdEncoding.EncodedLen(int(s.cfg.MaxUpload))) + maxPairJSON*int64(s.cfg.MaxConstraints) + s.cfg.MaxBody + 64<<10
}

// maxPairJSON bounds the length of one saved constraint with its comma:
// {"i":…,"j":…,"kind":"ml","weight":…}, nodes of at most 10 digits and a
// weight of at most 24 characters, 63 bytes, rounded up.
const maxPairJSON = 96

func (s *Server) handleLoad(w http.ResponseWriter, r *http.Request, ss *session) {
	var doc savedSession
	if err := decode(r, &doc); err != nil {
		s.fail(w, err)
		return
	}
	if doc.Version != 1 {
		s.fail(w, fmt.Errorf("%w: tether_session = %d, want 1", errBadInput, doc.Version))
		return
	}
	if doc.Source.UploadBase64 != nil {
		if len(doc.Source.Upload) > 0 {
			s.fail(w, fmt.Errorf("%w: the saved source gives both upload and upload_base64, want one", errBadInput))
			return
		}
		doc.Source.Upload, doc.Source.UploadBase64 = doc.Source.UploadBase64, nil
	}
	if n := int64(len(doc.Source.Upload)); n > s.cfg.MaxUpload {
		s.fail(w, fmt.Errorf("%w: the saved upload has %d bytes, more than this server's upload limit of %d", errBadInput, n, s.cfg.MaxUpload))
		return
	}
	// The new state is built aside: a load stopped anywhere (bad input,
	// the compute time limit in the final re-clustering, the client gone)
	// leaves the session as it was.
	var next sessionState
	err := s.compute(r.Context(), func(ctx context.Context) error {
		d, err := s.loadSource(ctx, &doc.Source)
		if err != nil {
			return err
		}
		pairs, err := parsePairs(doc.Constraints, d.Graph.N())
		if err != nil {
			return err
		}
		if next, err = s.newData(ctx, d, doc.Source); err != nil {
			return err
		}
		if next.pairs, err = s.mergePairs(nil, pairs); err != nil {
			return err
		}
		if doc.Request != nil {
			_, err = s.recluster(ctx, &next, *doc.Request)
		}
		return err
	})
	if err != nil {
		s.fail(w, err)
		return
	}
	s.commit(ss, next)
	s.writeJSON(w, http.StatusOK, ss.info())
}
