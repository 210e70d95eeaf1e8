package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
)

// TestCreateInFlight: a session being created counts its request in
// flight while its initial data load (-input) waits for a worker or
// computes, as withSession's requests do, and a burst of creations past
// the cap while it loads is refused 503 ("retry"), evicting neither it
// nor the idle sessions holding data. Before, this test asserted that a
// creation past the cap evicted the idle session holding data rather than
// the loading one: that kept the loading session, but let a client firing
// MaxSessions creations while the workers were busy drop every idle
// session holding a user's work, against the rule that creating sessions
// cannot drop another's work (docs/api.md). When every session holds data
// and has a request in flight, a creation still evicts one, and a
// creation whose session is evicted while it loads answers 503 naming
// why, not 201.
func TestCreateInFlight(t *testing.T) {
	var edges []graph.Edge
	for i := range 40 {
		edges = append(edges, graph.Edge{I: i, J: (i + 1) % 40, W: 1}, graph.Edge{I: i, J: (i + 3) % 40, W: 1})
	}
	g, err := graph.FromEdges(40, edges)
	if err != nil {
		t.Fatal(err)
	}
	initial := &input.Data{Name: "ring", Graph: g}
	s := newTest(t, Config{Workers: 1, MaxSessions: 3, Initial: initial, InitialSource: Source{Initial: true}})
	created := func(r callReply) string {
		t.Helper()
		var info sessionInfo
		if r.code != http.StatusCreated || json.Unmarshal(r.body, &info) != nil || info.N != 40 {
			t.Fatalf("create: status %d, %s; want 201 with the 40 nodes", r.code, r.body)
		}
		return info.ID
	}
	a1 := created(<-callAsync(t, s, "POST", "/api/sessions", "", nil))
	a2 := created(<-callAsync(t, s, "POST", "/api/sessions", "", nil))
	// The one worker busy: the next creation waits for it to load.
	release, err := s.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	bReply := callAsync(t, s, "POST", "/api/sessions", "", nil)
	// others returns a session other than those named, "" if none.
	others := func(known ...string) string {
		for id := range s.sessions.ids() {
			if !strings.Contains(strings.Join(known, " "), id) {
				return id
			}
		}
		return ""
	}
	waitFor(t, "the third session created", func() bool { return others(a1, a2) != "" })
	loading := others(a1, a2)
	// A burst of creations, as many as the cap, while b loads: each
	// refused at once.
	var burst []<-chan callReply
	for range 3 {
		burst = append(burst, callAsync(t, s, "POST", "/api/sessions", "", nil))
	}
	var late []<-chan callReply
	for _, r := range burst {
		select {
		case got := <-r:
			if got.code != http.StatusServiceUnavailable || !strings.Contains(string(got.body), "loading their data") || strings.Contains(string(got.body), `"id"`) {
				t.Errorf("create past the cap while a session loads: status %d, %s; want 503 saying a session is loading", got.code, got.body)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("create past the cap while a session loads: no reply after 10 s (it waits for a worker); want 503 at once")
			late = append(late, r)
		}
	}
	for _, id := range []string{a1, a2, loading} {
		if !s.sessions.has(id) {
			t.Errorf("session %s (idle with data, or loading) evicted by the burst of creations", id)
		}
	}
	release()
	for _, r := range late {
		<-r
	}
	b := created(<-bReply)
	if b != loading {
		t.Fatalf("the third creation replied %s, the store held %s", b, loading)
	}
	for _, id := range []string{a1, a2, b} {
		if code, body := call(t, s, "GET", "/api/sessions/"+id, "", nil); code != http.StatusOK {
			t.Errorf("GET the session %s (idle with data, or created 201): status %d, %s", id, code, body)
		}
	}
	if n := s.sessions.len(); n != 3 {
		t.Errorf("%d sessions after the burst, want 3", n)
	}

	// Every session holds data and has a request in flight: a creation
	// evicts one. Its own session dropped while it loads (deleted here,
	// as such an eviction would): the creation says so.
	release, err = s.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{a1, a2, b} {
		ss, ok := s.sessions.acquire(id)
		if !ok {
			t.Fatalf("session %s gone", id)
		}
		defer s.sessions.release(ss)
	}
	dReply := callAsync(t, s, "POST", "/api/sessions", "", nil)
	waitFor(t, "the fourth session created", func() bool { return others(a1, a2, b) != "" })
	d := others(a1, a2, b)
	if s.sessions.has(a1) {
		t.Errorf("the least recently used session a1 kept past the cap, every session busy")
	}
	if !s.sessions.delete(d) {
		t.Fatalf("the loading session %q is not in the store", d)
	}
	release()
	r := <-dReply
	if r.code != http.StatusServiceUnavailable || !strings.Contains(string(r.body), "dropped before its creation ended") || strings.Contains(string(r.body), `"id"`) {
		t.Errorf("create, its session deleted while loading: status %d, %s; want 503 naming why", r.code, r.body)
	}
}

// ids returns the ids of the store's sessions.
func (st *store) ids() map[string]bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := map[string]bool{}
	for id := range st.m {
		out[id] = true
	}
	return out
}

// TestCreateDroppedAtCommit: a session dropped after its initial data
// loaded and were committed, before the reply (an eviction once every
// session has a request in flight), makes the creation answer 503 without
// an id, and is forgotten: the "dropped while loading" check ran before
// the commit, so such a drop still got 201 with an id that named nothing.
// With and without initial data (-input).
func TestCreateDroppedAtCommit(t *testing.T) {
	g, err := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, initial := range []*input.Data{{Name: "path", Graph: g}, nil} {
		cfg := Config{Initial: initial}
		if initial != nil {
			cfg.InitialSource = Source{Initial: true}
		}
		s := newTest(t, cfg)
		var dropped string
		s.createdHook = func(ss *session) {
			dropped = ss.id
			if initial != nil && ss.data != initial {
				t.Errorf("hook before the commit")
			}
			s.sessions.delete(ss.id)
		}
		code, body := call(t, s, "POST", "/api/sessions", "", nil)
		if code != http.StatusServiceUnavailable || !strings.Contains(string(body), "dropped before its creation ended") || strings.Contains(string(body), `"id"`) {
			t.Errorf("initial %v: create, its session dropped at the commit: status %d, %s; want 503 without an id", initial != nil, code, body)
		}
		if _, known := s.sessions.dropped(dropped); known || s.sessions.len() != 0 {
			t.Errorf("initial %v: the failed creation's session is remembered (%v) or kept (%d sessions)", initial != nil, known, s.sessions.len())
		}
	}
}

// TestIdleEmptySessionNotLoading: at the cap on sessions, a session
// without data that is merely idle (created, nothing uploaded, its last
// request ended, even one that failed on it for want of data) is not
// "loading": a creation evicts it (as the least recently used one without
// data) rather than answer 503, and never evicts the session holding
// data. Only a session without data with a request in flight counts as
// loading (store.evictForCap). Repeated, so that the newest empty session
// goes in turn and creations are never blocked.
func TestIdleEmptySessionNotLoading(t *testing.T) {
	s := newTest(t, Config{MaxSessions: 2})
	withData := newSession(t, s, 60)
	var empty sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &empty, http.StatusCreated)
	for range 3 {
		// A request on the empty session, ended (409: no data loaded).
		if code, b := call(t, s, "POST", "/api/sessions/"+empty.ID+"/cluster", "application/json", []byte(`{"k": 2}`)); code != http.StatusConflict {
			t.Fatalf("cluster on the empty session: status %d, %s; want 409", code, b)
		}
		var next sessionInfo
		callJSON(t, s, "POST", "/api/sessions", nil, &next, http.StatusCreated)
		if code, _ := call(t, s, "GET", "/api/sessions/"+empty.ID, "", nil); code != http.StatusNotFound {
			t.Errorf("the idle empty session %s: status %d, want 404 (evicted for the new one)", empty.ID, code)
		}
		if code, b := call(t, s, "GET", "/api/sessions/"+withData, "", nil); code != http.StatusOK {
			t.Fatalf("the session holding data: status %d, %s; want 200 (kept)", code, b)
		}
		empty = next
	}
}
