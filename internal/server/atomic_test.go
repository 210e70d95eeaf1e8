package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tether-sc/tether/graph"
)

// sessionSnapshot is everything a client can see of a session, and the
// session's state itself.
type sessionSnapshot struct {
	info, constraints, points, save, labels string
	state                                   sessionState
	nodes                                   int
	warm                                    bool // the FGPWC state remembers its last call
}

func snapshot(t *testing.T, s *Server, id string) sessionSnapshot {
	t.Helper()
	get := func(path string) string {
		code, b := call(t, s, "GET", "/api/sessions/"+id+path, "", nil)
		return http.StatusText(code) + " " + string(b)
	}
	snap := sessionSnapshot{info: get(""), constraints: get("/constraints"), points: get("/points"), save: get("/save"), labels: get("/export/labels")}
	ss, ok := s.sessions.get(id)
	if !ok {
		t.Fatalf("session %s is gone", id)
	}
	ss.mu.Lock()
	snap.state = ss.sessionState
	snap.warm = ss.state != nil && ss.state.Warm()
	ss.mu.Unlock()
	s.sessions.mu.Lock()
	snap.nodes = ss.nodes
	s.sessions.mu.Unlock()
	return snap
}

// sameSnapshot reports the first difference between a and b.
func sameSnapshot(t *testing.T, a, b sessionSnapshot) {
	t.Helper()
	for _, c := range []struct{ name, a, b string }{
		{"GET info", a.info, b.info}, {"GET constraints", a.constraints, b.constraints}, {"GET points", a.points, b.points},
		{"GET save", a.save, b.save}, {"GET export/labels", a.labels, b.labels},
	} {
		if c.a != c.b {
			t.Errorf("%s changed:\n%.300s\nwas\n%.300s", c.name, c.b, c.a)
		}
	}
	x, y := a.state, b.state
	switch {
	case x.data != y.data || x.cost != y.cost || a.nodes != b.nodes:
		t.Errorf("data changed: %p (cost %d, charged %d) became %p (cost %d, charged %d)", x.data, x.cost, a.nodes, y.data, y.cost, b.nodes)
	case x.state != y.state || x.stateKey != y.stateKey || x.basisKey != y.basisKey || a.warm != b.warm:
		t.Errorf("FGPWC state changed: %p %q (warm %v) became %p %q (warm %v)", x.state, x.stateKey, a.warm, y.state, y.stateKey, b.warm)
	case x.last != y.last || x.lastEmb != y.lastEmb || x.lastReq.Seed != y.lastReq.Seed || x.lastReq.K != y.lastReq.K:
		t.Errorf("last partition changed")
	}
}

// callCtx is call with the request's context.
func callCtx(ctx context.Context, s *Server, method, path string, body []byte) (int, []byte) {
	r := httptest.NewRequestWithContext(ctx, method, path, bytes.NewReader(body))
	r.Host = testAddr
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w.Code, w.Body.Bytes()
}

// TestFailedRequestsLeaveSession checks that every request that changes a
// session is all or nothing: one that fails anywhere (bad input found late,
// the compute time limit, its client gone) leaves the session exactly as
// it was (data, constraints, partition, and the FGPWC state whose last
// call warm-starts the next one), and the next request works. A saved
// session whose final re-clustering was stopped used to leave the session
// holding the loaded data and constraints under an error reply; a stopped
// re-clustering with other descent knobs or a cold one replaced or reset
// the FGPWC state, so the next request could no longer warm-start.
func TestFailedRequestsLeaveSession(t *testing.T) {
	// The server's own data (tether serve -input): its basis is computed
	// once, so loading it again costs microseconds and a load with a
	// request that needs a fresh basis (M = 40: ≈ 130 ms on 2000 nodes)
	// is stopped in its final re-clustering.
	initial, err := generateData(context.Background(), &GenerateRequest{Name: "moons", Seed: 7, Params: map[string]float64{"n": 2000}}, graph.DefaultSpec(), 200000, 1000000)
	if err != nil {
		t.Fatal(err)
	}
	s := newTest(t, Config{Workers: 1, Initial: initial, InitialSource: Source{Initial: true}, MaxConstraints: 5})
	// setup returns a session holding generated data, two constraints and
	// a warm FGPWC state: different from what the loads below would put
	// there.
	warm := ClusterRequest{K: 2, Seed: 1}
	setup := func(t *testing.T) string {
		var info sessionInfo
		callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
		base := "/api/sessions/" + info.ID
		callJSON(t, s, "POST", base+"/data", map[string]any{"generate": map[string]any{"name": "moons", "seed": 1, "params": map[string]float64{"n": 300}}}, nil, http.StatusOK)
		callJSON(t, s, "PUT", base+"/constraints", map[string]any{"pairs": []map[string]any{{"i": 0, "j": 1, "kind": "ml"}, {"i": 2, "j": 3, "kind": "cl"}}}, nil, http.StatusOK)
		var r ClusterReply
		callJSON(t, s, "POST", base+"/cluster", warm, &r, http.StatusOK)
		callJSON(t, s, "POST", base+"/cluster", warm, &r, http.StatusOK)
		if r.Mode != "warm" {
			t.Fatalf("second request's mode %q, want warm", r.Mode)
		}
		return info.ID
	}

	fresh := ClusterRequest{K: 2, Seed: 1, Cold: true, Knobs: map[string]string{"M": "40"}}
	load := func(req ClusterRequest) map[string]any {
		return map[string]any{"tether_session": 1, "source": map[string]any{"initial": true},
			"constraints": []map[string]any{{"i": 5, "j": 6, "kind": "cl"}}, "request": req}
	}
	gen := map[string]any{"name": "moons", "seed": 2, "params": map[string]float64{"n": 5000}}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	type attempt struct {
		name, path string
		body       any
		ctx        context.Context // cancelled: the client left
		timeout    time.Duration   // the compute time limit
		want       int
	}
	for _, c := range []attempt{
		// The load is refused in its final re-clustering.
		{"load, unknown method", "/load", load(ClusterRequest{Method: "nosuch", K: 2}), nil, 0, http.StatusBadRequest},
		// The load is stopped in its final re-clustering.
		{"load, k > n", "/load", load(ClusterRequest{K: 5000}), nil, 0, http.StatusBadRequest},
		{"load, k < 0", "/load", load(ClusterRequest{K: -1}), nil, 0, http.StatusBadRequest},
		{"load, compute limit", "/load", load(fresh), nil, time.Millisecond, http.StatusServiceUnavailable},
		{"load, client gone", "/load", load(fresh), cancelled, 0, http.StatusServiceUnavailable},
		{"load, too many constraints", "/load", map[string]any{"tether_session": 1, "source": map[string]any{"initial": true},
			"constraints": []map[string]any{{"i": 0, "j": 1, "kind": "ml"}, {"i": 0, "j": 2, "kind": "ml"}, {"i": 0, "j": 3, "kind": "ml"}, {"i": 0, "j": 4, "kind": "ml"}, {"i": 0, "j": 5, "kind": "ml"}, {"i": 0, "j": 6, "kind": "ml"}}}, nil, 0, http.StatusBadRequest},
		// Re-clusterings stopped after the FGPWC state was chosen: other
		// descent knobs (the seed) on the same basis, a cold run.
		{"cluster, other seed, client gone", "/cluster", ClusterRequest{K: 2, Seed: 2}, cancelled, 0, http.StatusServiceUnavailable},
		{"cluster, cold, client gone", "/cluster", ClusterRequest{K: 2, Seed: 1, Cold: true}, cancelled, 0, http.StatusServiceUnavailable},
		{"cluster, fresh basis, compute limit", "/cluster", fresh, nil, time.Millisecond, http.StatusServiceUnavailable},
		{"cluster, k > n", "/cluster", ClusterRequest{K: 301}, nil, 0, http.StatusBadRequest},
		{"data, compute limit", "/data", map[string]any{"generate": gen}, nil, time.Millisecond, http.StatusServiceUnavailable},
		{"data, client gone", "/data", map[string]any{"generate": gen}, cancelled, 0, http.StatusServiceUnavailable},
		// Adding four to the two constraints exceeds MaxConstraints = 5.
		{"constraints, too many", "/constraints", map[string]any{"pairs": []map[string]any{{"i": 0, "j": 2, "kind": "ml"}, {"i": 0, "j": 3, "kind": "ml"}, {"i": 0, "j": 4, "kind": "ml"}, {"i": 0, "j": 5, "kind": "ml"}}}, nil, 0, http.StatusBadRequest},
		{"PUT constraints, too many", "/constraints", map[string]any{"pairs": []map[string]any{{"i": 0, "j": 1, "kind": "ml"}, {"i": 0, "j": 2, "kind": "ml"}, {"i": 0, "j": 3, "kind": "ml"}, {"i": 0, "j": 4, "kind": "ml"}, {"i": 0, "j": 5, "kind": "ml"}, {"i": 0, "j": 6, "kind": "ml"}}}, nil, 0, http.StatusBadRequest},
		{"constraints, bad pair", "/constraints", map[string]any{"pairs": []map[string]any{{"i": 7, "j": 8, "kind": "ml"}, {"i": 0, "j": 300, "kind": "ml"}}}, nil, 0, http.StatusBadRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			id := setup(t)
			base := "/api/sessions/" + id
			before := snapshot(t, s, id)
			body, _ := json.Marshal(c.body)
			ctx := c.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			// A cancelled request may give up before its job starts (the
			// wait for a worker ends with it, at random when a worker is
			// free): repeat it so that the job runs at least once but
			// with probability 2⁻²⁰.
			tries := 1
			if c.ctx != nil {
				tries = 20
			}
			for range tries {
				method := "POST"
				if strings.HasPrefix(c.name, "PUT") {
					method = "PUT"
				}
				if c.timeout > 0 {
					s.cfg.ComputeTimeout = c.timeout // no request is running
				}
				code, b := callCtx(ctx, s, method, base+c.path, body)
				s.cfg.ComputeTimeout = DefaultComputeTimeout
				if code != c.want {
					t.Fatalf("status %d, want %d: %s", code, c.want, b)
				}
				sameSnapshot(t, before, snapshot(t, s, id))
				if t.Failed() {
					break
				}
			}
			if strings.HasPrefix(c.name, "load") {
				// Nothing of the document is left: no such constraint.
				code, _ := call(t, s, "DELETE", base+"/constraints/5/6", "", nil)
				if code != http.StatusNotFound {
					t.Errorf("DELETE constraint 5–6 of the document: status %d, want 404", code)
				}
			}
			// The session works on as before: the next request
			// warm-starts from the last successful one.
			var r ClusterReply
			callJSON(t, s, "POST", base+"/cluster", warm, &r, http.StatusOK)
			if r.Mode != "warm" || len(r.Labels) != 300 {
				t.Errorf("after the failed request: mode %q, %d labels, want warm with 300 labels", r.Mode, len(r.Labels))
			}
		})
	}
	// A load that succeeds replaces everything.
	id := setup(t)
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions/"+id+"/load", load(ClusterRequest{K: 2, Seed: 1}), &info, http.StatusOK)
	if info.N != 2000 || info.Constraints != 1 || info.Last == nil || len(info.Last.Labels) != 2000 {
		t.Errorf("after a successful load: %d nodes, %d constraints, last %v; want 2000, 1 and a partition", info.N, info.Constraints, info.Last != nil)
	}
}
