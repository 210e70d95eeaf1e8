package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
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

// TestReadsDoNotWaitForCompute: the read-only GETs of a session (info,
// points, constraints, exports, save) are answered while a request that
// changes it runs: a clustering holding the session's lock and waiting
// for the one worker (taken here by the test), and a job computing under
// the lock (the test-block route). They read the state the last commit
// left (the partition of k = 2), and the clustering's commit then shows
// (k = 3); GETs made while it commits see one state or the other (run
// with -race). They waited, under the session's one lock, until the
// computation ended: up to the compute limit, 2 minutes by default.
func TestReadsDoNotWaitForCompute(t *testing.T) {
	s := newTest(t, Config{Workers: 1})
	stopped := make(chan error, 1)
	addBlockingRoute(s, stopped)
	id := newSession(t, s, 100)
	base := "/api/sessions/" + id
	ss, _ := s.sessions.get(id)
	callJSON(t, s, "POST", base+"/constraints", map[string]any{"pairs": []map[string]any{{"i": 0, "j": 1, "kind": "ml"}}}, nil, http.StatusOK)
	callJSON(t, s, "POST", base+"/cluster", ClusterRequest{K: 2, Seed: 1}, nil, http.StatusOK)
	reads := []string{base, base + "/points", base + "/constraints", base + "/export/labels", base + "/export/constraints", base + "/export/summary", base + "/save"}
	readAll := func(behind string) {
		t.Helper()
		for _, path := range reads {
			getWithin(t, s, path, behind)()
		}
		var info sessionInfo
		callJSON(t, s, "GET", base, nil, &info, http.StatusOK)
		if info.Last == nil || info.Last.K != 2 || info.Constraints != 1 {
			t.Errorf("behind %s: info %+v, want the committed partition of k = 2 and 1 constraint", behind, info)
		}
	}

	// A clustering holding the session, waiting for a worker.
	s.work <- struct{}{}
	clustered := callAsync(t, s, "POST", base+"/cluster", "application/json", []byte(`{"k":3,"seed":1}`))
	waitFor(t, "the clustering holding the session", func() bool { return len(ss.mu.ch) == 1 && len(clustered) == 0 })
	readAll("a clustering waiting for a worker")
	// The clustering runs and commits while GETs go on.
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			code, b := call(t, s, "GET", base, "", nil)
			var info sessionInfo
			if err := json.Unmarshal(b, &info); code != http.StatusOK || err != nil || info.Last == nil || (info.Last.K != 2 && info.Last.K != 3) || len(info.Last.Sizes) != info.Last.K {
				t.Errorf("GET during the commit: status %d, %v, %s", code, err, b)
				return
			}
		}
	}()
	<-s.work
	got := <-clustered
	close(done)
	wg.Wait()
	if got.code != http.StatusOK {
		t.Fatalf("the clustering: status %d, %s", got.code, got.body)
	}
	var info sessionInfo
	callJSON(t, s, "GET", base, nil, &info, http.StatusOK)
	if info.Last == nil || info.Last.K != 3 {
		t.Errorf("after the clustering: info %+v, want its partition of k = 3", info)
	}

	// A job computing under the session's lock. Put the partition of
	// k = 2 back first, as readAll expects it.
	callJSON(t, s, "POST", base+"/cluster", ClusterRequest{K: 2, Seed: 1}, nil, http.StatusOK)
	ctx, cancel := context.WithCancel(context.Background())
	blocked := make(chan struct{})
	go func() {
		defer close(blocked)
		r := httptest.NewRequestWithContext(ctx, "POST", base+"/test-block", strings.NewReader(`{}`))
		r.Host = testAddr
		r.Header.Set("Content-Type", "application/json")
		s.ServeHTTP(httptest.NewRecorder(), r)
	}()
	waitWorkers(t, s, 1)
	readAll("a job computing")
	cancel()
	<-stopped
	<-blocked
}

// TestContradictoryPairsInOneBody: a body that constrains the same two
// nodes twice differently (a must-link and a cannot-link, in either
// order, or two weights) is refused with 400 naming both entries, and the
// session keeps its constraints; PUT and POST collapsed them to the last
// one without a word (review 116). The same pair given twice alike is one
// pair, and a pair constrained by an earlier request takes the new kind
// (docs/api.md).
func TestContradictoryPairsInOneBody(t *testing.T) {
	s := newTest(t, Config{})
	id := newSession(t, s, 300)
	path := "/api/sessions/" + id + "/constraints"
	var got constraintsBody
	callJSON(t, s, "PUT", path, constraintsBody{Pairs: []pairJSON{{I: 5, J: 6, Kind: "ml"}}}, &got, http.StatusOK)
	for _, method := range []string{"PUT", "POST"} {
		for _, pairs := range [][]pairJSON{
			{{I: 0, J: 1, Kind: "ml"}, {I: 1, J: 0, Kind: "cl"}},
			{{I: 0, J: 1, Kind: "ml"}, {I: 2, J: 3, Kind: "ml"}, {I: 0, J: 1, Kind: "ml", Weight: 2}},
		} {
			body, _ := json.Marshal(constraintsBody{Pairs: pairs})
			code, b := call(t, s, method, path, "application/json", body)
			last := len(pairs) - 1
			if code != http.StatusBadRequest || !strings.Contains(string(b), fmt.Sprintf("pairs 0 (0,1 ml, weight 1) and %d", last)) {
				t.Errorf("%s %v: status %d, %s; want 400 naming pairs 0 and %d", method, pairs, code, b, last)
			}
		}
	}
	callJSON(t, s, "GET", path, nil, &got, http.StatusOK)
	if len(got.Pairs) != 1 || got.Pairs[0].I != 5 {
		t.Errorf("after the refused bodies the session holds %v, want its one pair (5,6)", got.Pairs)
	}
	callJSON(t, s, "POST", path, constraintsBody{Pairs: []pairJSON{{I: 0, J: 1, Kind: "ml"}, {I: 1, J: 0, Kind: "ml", Weight: 1}}}, &got, http.StatusOK)
	callJSON(t, s, "POST", path, constraintsBody{Pairs: []pairJSON{{I: 6, J: 5, Kind: "cl"}}}, &got, http.StatusOK)
	if len(got.Pairs) != 2 || got.Pairs[0].Kind != "cl" || got.Pairs[1].Kind != "ml" {
		t.Errorf("after adding (0,1) twice alike and (6,5) cl: %v; want (5,6) turned cl and one (0,1) ml", got.Pairs)
	}
}
