package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestDroppedSessionStopsRequests: a session dropped (deleted, idle,
// evicted at the cap on sessions) while a request computes on it and
// another waits for its turn stops both: the running one's computation
// ends (its context cancelled, its worker freed) and the waiting one never
// runs; both are answered 404 saying why the session went. Before, DELETE
// answered 204 while the running request kept its worker to the compute
// limit (503) and the waiting one then ran and answered 200 for a session
// that no longer existed.
func TestDroppedSessionStopsRequests(t *testing.T) {
	for _, c := range []struct {
		name string
		drop func(t *testing.T, s *Server, id string)
		why  string // in the replies' error
	}{
		{"delete", func(t *testing.T, s *Server, id string) {
			if code, b := call(t, s, "DELETE", "/api/sessions/"+id, "", nil); code != http.StatusNoContent {
				t.Fatalf("DELETE: status %d, want 204: %s", code, b)
			}
		}, "by a request to delete it"},
		// No "idle" case: a session with requests in flight is never
		// idle (TestBusySessionNotIdle).
		{"cap", func(t *testing.T, s *Server, id string) {
			callJSON(t, s, "POST", "/api/sessions", nil, nil, http.StatusCreated) // MaxSessions 1: ours goes
		}, "cap of 1 sessions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newTest(t, Config{Workers: 1, MaxSessions: 1})
			// test-enter: under the session's lock, through compute, a
			// job that reports it started and runs until its context
			// ends, then reports why.
			entered := make(chan struct{}, 2)
			stopped := make(chan error, 2)
			s.mux.HandleFunc("POST /api/sessions/{id}/test-enter", s.withSession(func(w http.ResponseWriter, r *http.Request, ss *session) {
				err := s.compute(r.Context(), func(ctx context.Context) error {
					entered <- struct{}{}
					<-ctx.Done()
					stopped <- ctx.Err()
					return ctx.Err()
				})
				s.fail(w, err)
			}))
			id := newSession(t, s, 100)
			base := "/api/sessions/" + id
			ss, _ := s.sessions.get(id)
			running := callAsync(t, s, "POST", base+"/test-enter", "application/json", []byte(`{}`))
			<-entered
			waitWorkers(t, s, 1)
			queued := callAsync(t, s, "POST", base+"/test-enter", "application/json", []byte(`{}`))
			waitFor(t, "a request waiting for the session", func() bool { return ss.waiting.Load() == 1 })
			c.drop(t, s, id)
			for _, q := range []struct {
				name    string
				replied <-chan callReply
			}{{"running", running}, {"queued", queued}} {
				var got callReply
				select {
				case got = <-q.replied:
				case <-time.After(10 * time.Second):
					t.Fatalf("%s request still going 10 s after its session was dropped", q.name)
				}
				var e errorReply
				json.Unmarshal(got.body, &e)
				if got.code != http.StatusNotFound || !strings.Contains(e.Error, c.why) || !strings.Contains(e.Error, id) {
					t.Errorf("%s request: status %d, error %q; want 404 naming the session and %q", q.name, got.code, e.Error, c.why)
				}
			}
			if err := <-stopped; err != context.Canceled {
				t.Errorf("running job's context ended with %v, want context.Canceled", err)
			}
			select {
			case <-entered:
				t.Errorf("the queued request computed on a dropped session")
			default:
			}
			waitWorkers(t, s, 0)
			if n := ss.waiting.Load(); n != 0 {
				t.Errorf("%d requests still counted as waiting, want 0", n)
			}
			if !ss.mu.TryLock() {
				t.Errorf("the dropped session's lock is still held")
			}
		})
	}
}

// TestDroppedSessionClusterQueued is the reported case through the real
// endpoint: a clustering queued behind a request computing on a session
// that is then deleted answers 404, not 200 with a partition.
func TestDroppedSessionClusterQueued(t *testing.T) {
	s := newTest(t, Config{Workers: 1})
	stopped := make(chan error, 1)
	addBlockingRoute(s, stopped)
	id := newSession(t, s, 100)
	base := "/api/sessions/" + id
	ss, _ := s.sessions.get(id)
	running := callAsync(t, s, "POST", base+"/test-block", "application/json", []byte(`{}`))
	waitWorkers(t, s, 1)
	queued := callAsync(t, s, "POST", base+"/cluster", "application/json", []byte(`{"k":2,"seed":1}`))
	waitFor(t, "a request waiting for the session", func() bool { return ss.waiting.Load() == 1 })
	if code, b := call(t, s, "DELETE", base, "", nil); code != http.StatusNoContent {
		t.Fatalf("DELETE: status %d, want 204: %s", code, b)
	}
	for _, q := range []struct {
		name    string
		replied <-chan callReply
	}{{"test-block", running}, {"cluster", queued}} {
		select {
		case got := <-q.replied:
			if got.code != http.StatusNotFound {
				t.Errorf("%s: status %d, want 404: %s", q.name, got.code, got.body)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s still going 10 s after DELETE", q.name)
		}
	}
	<-stopped
	waitWorkers(t, s, 0)
}

// TestDeleteEndsSessionWait: requests waiting for a session's turn (its
// lock held here by the test, as by an earlier request) stop waiting when
// the session is deleted, and answer 404 without running: the lock is
// still the test's. Before, they waited on for the lock.
func TestDeleteEndsSessionWait(t *testing.T) {
	for _, c := range waitingCalls("") {
		t.Run(c.name, func(t *testing.T) {
			s := newTest(t, Config{})
			id := newSession(t, s, 100)
			base := "/api/sessions/" + id
			ss, _ := s.sessions.get(id)
			ss.mu.Lock() // an earlier request's turn
			defer ss.mu.Unlock()
			replied := callAsync(t, s, c.method, base+c.path, "application/json", []byte(c.body))
			waitFor(t, "a request waiting for the session", func() bool { return ss.waiting.Load() == 1 })
			if code, b := call(t, s, "DELETE", base, "", nil); code != http.StatusNoContent {
				t.Fatalf("DELETE: status %d, want 204: %s", code, b)
			}
			select {
			case got := <-replied:
				if got.code != http.StatusNotFound || !strings.Contains(string(got.body), "by a request to delete it") {
					t.Errorf("status %d: %s; want 404 saying the session was deleted", got.code, got.body)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s waited on 10 s after its session was deleted", c.name)
			}
			if ss.mu.TryLock() { // then released by the deferred Unlock
				t.Errorf("the session's lock was released: the waiting request took it")
			}
		})
	}
}
