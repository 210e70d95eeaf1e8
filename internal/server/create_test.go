package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
)

// TestCreateInFlight: a session being created counts its request in
// flight while its initial data load (-input) waits for a worker or
// computes, as withSession's requests do: a session created meanwhile
// past the cap evicts the idle one that holds data, not the one loading
// (the least recently used without data, which handleCreate's session
// was, loading, before: its 201 then gave an id that named nothing); and
// when every session is in flight and the loading one is evicted after
// all, its creation answers 503 naming why, not 201.
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
	s := newTest(t, Config{Workers: 1, MaxSessions: 2, Initial: initial, InitialSource: Source{Initial: true}})
	created := func(r callReply) string {
		t.Helper()
		var info sessionInfo
		if r.code != http.StatusCreated || json.Unmarshal(r.body, &info) != nil || info.N != 40 {
			t.Fatalf("create: status %d, %s; want 201 with the 40 nodes", r.code, r.body)
		}
		return info.ID
	}
	a := created(<-callAsync(t, s, "POST", "/api/sessions", "", nil))
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
	waitFor(t, "the second session created", func() bool { return others(a) != "" })
	loading := others(a)
	cReply := callAsync(t, s, "POST", "/api/sessions", "", nil)
	waitFor(t, "the third session created", func() bool { return others(a, loading) != "" })
	release()
	b := created(<-bReply)
	c := created(<-cReply)
	if b != loading {
		t.Fatalf("the second creation replied %s, the store held %s", b, loading)
	}
	for _, id := range []string{b, c} {
		if code, body := call(t, s, "GET", "/api/sessions/"+id, "", nil); code != http.StatusOK {
			t.Errorf("GET the session %s created (201): status %d, %s", id, code, body)
		}
	}
	if code, body := call(t, s, "GET", "/api/sessions/"+a, "", nil); code != http.StatusNotFound || !strings.Contains(string(body), "cap of 2 sessions") {
		t.Errorf("GET the idle session a: status %d, %s; want 404, evicted for the cap", code, body)
	}

	// Dropped while it loads (deleted here, as an eviction when every
	// session has a request in flight would): the creation says so.
	release, err = s.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{b, c} {
		ss, ok := s.sessions.acquire(id)
		if !ok {
			t.Fatalf("session %s gone", id)
		}
		defer s.sessions.release(ss)
	}
	dReply := callAsync(t, s, "POST", "/api/sessions", "", nil)
	waitFor(t, "the fourth session created", func() bool { return !s.sessions.has(b) || !s.sessions.has(c) })
	var d string
	for id := range s.sessions.ids() {
		if id != b && id != c {
			d = id
		}
	}
	if !s.sessions.delete(d) {
		t.Fatalf("the loading session %q is not in the store", d)
	}
	release()
	r := <-dReply
	if r.code != http.StatusServiceUnavailable || !strings.Contains(string(r.body), "dropped while its initial data loaded") || strings.Contains(string(r.body), `"id"`) {
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
