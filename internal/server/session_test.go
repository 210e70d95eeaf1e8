package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
)

// TestFailedCreateNotRemembered: a session whose creation failed (here:
// the server's -input data have 2 nodes, which newData refuses) is not
// remembered as dropped. It was remembered as dropped "by a request to
// delete it", which no one made; and since its id is in no reply, no
// request can name it, while each failed creation pushed a real
// session's reason out of the last maxDropped. The reason of a session
// deleted before stays.
func TestFailedCreateNotRemembered(t *testing.T) {
	g, err := graph.FromEdges(2, []graph.Edge{{I: 0, J: 1, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	s := newTest(t, Config{Initial: &input.Data{Name: "pair", Graph: g}, InitialSource: Source{Initial: true}})
	kept, err := s.sessions.create()
	if err != nil {
		t.Fatal(err)
	}
	if !s.sessions.delete(kept.id) {
		t.Fatal("the session to delete was not found")
	}
	for range 3 {
		code, b := call(t, s, "POST", "/api/sessions", "", nil)
		if code != http.StatusBadRequest || !strings.Contains(string(b), "clustering needs at least 3") {
			t.Fatalf("creating a session of 2 nodes: status %d, %s; want 400", code, b)
		}
		if strings.Contains(string(b), `"id"`) {
			t.Errorf("the failed creation's reply gives an id: %s", b)
		}
	}
	if n := s.sessions.len(); n != 0 {
		t.Errorf("%d sessions after failed creations, want 0", n)
	}
	s.sessions.mu.Lock()
	defer s.sessions.mu.Unlock()
	for id, why := range s.sessions.whyDropped {
		if id != kept.id {
			t.Errorf("a failed creation is remembered as dropped %s", why)
		}
	}
	if len(s.sessions.droppedList) != 1 || s.sessions.whyDropped[kept.id] != "by a request to delete it" {
		t.Errorf("dropped sessions %q, want only the deleted one's reason", s.sessions.droppedList)
	}
}
