package server

import (
	"encoding/json"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc
// before and after it; the tests of this file run one at a time, so the
// other goroutines add little).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestGeneratedGraphBudget: a generated graph whose expected entries
// (generatedEntries: n·(c_in + (k−1)·c_out)/k, 12 bytes each) count
// beyond the node budget is refused (400, as data read beyond it) before
// it is drawn, by /data and by /load's source.generate: a request of 100
// bytes made a graph of 2.4 GB in 44 s before the budget refused it. Here
// the budget is 20 000 nodes (20 MB); sbm and dcsbm with n = 20 000 and
// c_in = c_out = 400 expect 8·10⁶ entries, 96 MB, which with the 20 000
// nodes count as 113 750: refused, allocating less than 16 MB (before the fix they
// drew the graph: 193 MB for sbm, 324 MB for dcsbm, in 3 s each). The default sbm of 900 nodes,
// 5400 expected entries, is still made.
func TestGeneratedGraphBudget(t *testing.T) {
	s := newTest(t, Config{MaxNodes: 20000, MaxTotalNodes: 20000})
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
	gen := func(name string) map[string]any {
		return map[string]any{"name": name, "seed": 1, "params": map[string]float64{"n": 20000, "cin": 400, "cout": 400}}
	}
	for _, c := range []struct {
		what, path string
		body       any
	}{
		{"sbm", "/data", map[string]any{"generate": gen("sbm")}},
		{"dcsbm", "/data", map[string]any{"generate": gen("dcsbm")}},
		{"sbm in a load", "/load", map[string]any{"tether_session": 1, "source": map[string]any{"generate": gen("sbm")}, "constraints": []any{}}},
	} {
		body, _ := json.Marshal(c.body)
		var code int
		var reply []byte
		bytes := allocated(func() {
			code, reply = call(t, s, "POST", "/api/sessions/"+info.ID+c.path, "application/json", body)
		})
		want := "make about 8e+06 stored entries (n·(c_in + (k−1)·c_out)/k, 12 bytes each), which count as 113750 nodes, beyond this server's budget of 20000"
		if code != http.StatusBadRequest || !strings.Contains(string(reply), want) {
			t.Errorf("%s: status %d, %.400s; want 400 saying %q", c.what, code, reply, want)
		}
		if bytes > 16<<20 {
			t.Errorf("%s: refused after allocating %d bytes, want less than 16 MiB (nothing drawn)", c.what, bytes)
		}
	}
	callJSON(t, s, "POST", "/api/sessions/"+info.ID+"/data", map[string]any{"generate": map[string]any{"name": "sbm", "seed": 1}}, &info, http.StatusOK)
	if info.N != 900 {
		t.Errorf("default sbm: %d nodes, want 900", info.N)
	}
}
