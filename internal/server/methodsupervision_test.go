package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestMethodsSupervision checks the supervision GET /api/methods gives
// each method, by which the page greys out those it cannot run: a method
// is "labels" alone exactly when a cluster request for it, on generated
// moons with a must-link and a cannot-link (all the API can give), fails
// with "needs partial labels" (QA of the page: labelprop, mavro, mavro-k
// and noa-ssc always failed so).
func TestMethodsSupervision(t *testing.T) {
	s := newTest(t, Config{})
	var methods []struct {
		Name        string `json:"name"`
		Supervision string `json:"supervision"`
	}
	callJSON(t, s, "GET", "/api/methods", nil, &methods, http.StatusOK)
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
	base := "/api/sessions/" + info.ID
	gen := map[string]any{"generate": map[string]any{"name": "moons", "seed": 1, "params": map[string]float64{"n": 60}}}
	callJSON(t, s, "POST", base+"/data", gen, nil, http.StatusOK)
	pairs := map[string]any{"pairs": []map[string]any{{"i": 0, "j": 1, "kind": "ml"}, {"i": 0, "j": 59, "kind": "cl"}}}
	callJSON(t, s, "PUT", base+"/constraints", pairs, nil, http.StatusOK)
	labelsOnly := 0
	for _, m := range methods {
		switch m.Supervision {
		case "none", "pairs", "labels", "labels|pairs":
		default:
			t.Errorf("%s: supervision %q", m.Name, m.Supervision)
		}
		body := []byte(`{"method":"` + m.Name + `","k":2,"seed":1}`)
		code, reply := call(t, s, "POST", base+"/cluster", "application/json", body)
		needs := code == http.StatusBadRequest && strings.Contains(string(reply), "needs partial labels")
		if needs != (m.Supervision == "labels") {
			t.Errorf("%s: supervision %q, but the cluster request answered %d %.200s", m.Name, m.Supervision, code, reply)
		}
		if needs {
			labelsOnly++
		}
	}
	if labelsOnly != 4 {
		t.Errorf("%d methods need partial labels, want 4 (labelprop, mavro, mavro-k, noa-ssc)", labelsOnly)
	}
}
