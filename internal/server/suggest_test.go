package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
)

// TestSuggestSimilarity: the similarity strategy, which docs/api.md lists,
// answers after an fgpwc partition with distinct pairs, using the σ_m of
// that run (the SigmaML knob, or FGPWC's default for 0); after a
// partition without σ_m (njw, or fgpwc with AutoTune, which chooses it
// by cross-validation) it is a 409 saying what it needs, while the other
// strategies still answer. It used to be a 400 "needs State.SigmaML > 0"
// whatever the partition.
func TestSuggestSimilarity(t *testing.T) {
	s := newTest(t, Config{})
	id := newSession(t, s, 300)
	base := "/api/sessions/" + id
	callJSON(t, s, "POST", base+"/constraints", constraintsBody{Pairs: []pairJSON{{I: 0, J: 1, Kind: "ml"}, {I: 2, J: 3, Kind: "cl"}}}, nil, http.StatusOK)
	defSigma := cluster.NewFGPWC().SigmaML
	const need = "the similarity strategy needs the σ_m of an fgpwc partition"
	for _, c := range []struct {
		name      string
		req       ClusterRequest
		strategy  string
		sigma     float64 // the session's σ_m after the request
		wantCode  int
		wantError string // in the 409's error
	}{
		{"fgpwc", ClusterRequest{K: 2, Seed: 1}, "similarity", defSigma, http.StatusOK, ""},
		{"fgpwc SigmaML 0.3", ClusterRequest{K: 2, Seed: 1, Knobs: map[string]string{"SigmaML": "0.3"}}, "similarity", 0.3, http.StatusOK, ""},
		{"fgpwc SigmaML 0: the default", ClusterRequest{K: 2, Seed: 1, Knobs: map[string]string{"SigmaML": "0"}}, "similarity", defSigma, http.StatusOK, ""},
		{"njw", ClusterRequest{Method: "njw", K: 2, Seed: 1}, "similarity", 0, http.StatusConflict, need + " (SigmaML) and the last partition is njw's, which has none: cluster with fgpwc"},
		{"njw, boundary", ClusterRequest{Method: "njw", K: 2, Seed: 1}, "boundary", 0, http.StatusOK, ""},
		{"fgpwc AutoTune", ClusterRequest{K: 2, Seed: 1, Knobs: map[string]string{"AutoTune": "true"}}, "similarity", 0, http.StatusConflict, need + " (SigmaML) and the last fgpwc partition chose σ_m by cross-validation (AutoTune)"},
		{"fgpwc again", ClusterRequest{K: 2, Seed: 1}, "similarity", defSigma, http.StatusOK, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			callJSON(t, s, "POST", base+"/cluster", c.req, nil, http.StatusOK)
			ss, _ := s.sessions.get(id)
			if ss.lastSigmaML != c.sigma {
				t.Errorf("session σ_m = %v, want %v", ss.lastSigmaML, c.sigma)
			}
			body, _ := json.Marshal(map[string]any{"count": 3, "seed": 1, "strategy": c.strategy})
			code, b := call(t, s, "POST", base+"/suggest", "application/json", body)
			if code != c.wantCode {
				t.Fatalf("suggest %s: status %d, want %d: %s", c.strategy, code, c.wantCode, b)
			}
			if code != http.StatusOK {
				var e errorReply
				if err := json.Unmarshal(b, &e); err != nil || !strings.Contains(e.Error, c.wantError) {
					t.Errorf("error %s, want one containing %q", b, c.wantError)
				}
				return
			}
			var sug struct {
				Questions []questionJSON `json:"questions"`
			}
			if err := json.Unmarshal(b, &sug); err != nil {
				t.Fatal(err)
			}
			if len(sug.Questions) != 3 {
				t.Fatalf("%d questions %+v, want 3", len(sug.Questions), sug.Questions)
			}
			seen := map[[2]int]bool{{0, 1}: true, {2, 3}: true} // the answered pairs
			for _, q := range sug.Questions {
				p := [2]int{min(q.I, q.J), max(q.I, q.J)}
				if q.I == q.J || q.I < 0 || p[1] >= 300 || seen[p] {
					t.Errorf("question %+v: a self pair, out of range, answered or repeated (questions %+v)", q, sug.Questions)
				}
				seen[p] = true
			}
		})
	}
}
