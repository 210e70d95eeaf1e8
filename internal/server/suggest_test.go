package server

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
)

// TestSuggestSimilarity: the similarity strategy, which docs/api.md lists,
// answers after an fgpwc partition with distinct pairs, using the σ_m of
// that run (the SigmaML knob, or FGPWC's default for 0; AutoTune's:
// TestSuggestSimilarityAutoTune); after a partition without σ_m (njw) it
// is a 409 saying what it needs, while the other strategies still
// answer. It used to be a 400 "needs State.SigmaML > 0" whatever the
// partition.
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

// TestSuggestSimilarityAutoTune: after an fgpwc partition whose σ_m
// AutoTune chose by cross-validation, the similarity strategy answers
// (it was a 409: the σ_m was only in the note's text) with the σ_m
// chosen: the session's σ_m is the note's to its three digits, is not
// the default (0.15 is no point of AutoTune's grid, 0.01 + 0.11·i), and
// every question's score is |exp(−‖e_i − e_j‖²/σ_m) − 0.5| on the
// partition's embedding with that σ_m (to 1e-12, the rounding of the
// two computations), which the default σ_m does not give.
func TestSuggestSimilarityAutoTune(t *testing.T) {
	s := newTest(t, Config{})
	id := newSession(t, s, 300)
	base := "/api/sessions/" + id
	var pts pointsReply
	callJSON(t, s, "GET", base+"/points", nil, &pts, http.StatusOK)
	// 40 pairs from the reference, enough for AutoTune's 5 folds (with
	// fewer than 2 it keeps the defaults).
	var pairs []pairJSON
	for k := 0; len(pairs) < 40; k++ {
		i, j := (7*k)%300, (13*k+5)%300
		if i == j {
			continue
		}
		kind := "cl"
		if pts.Truth[i] == pts.Truth[j] {
			kind = "ml"
		}
		pairs = append(pairs, pairJSON{I: i, J: j, Kind: kind})
	}
	callJSON(t, s, "POST", base+"/constraints", constraintsBody{Pairs: pairs}, nil, http.StatusOK)
	var reply ClusterReply
	callJSON(t, s, "POST", base+"/cluster", ClusterRequest{K: 2, Seed: 1, Knobs: map[string]string{"AutoTune": "true"}}, &reply, http.StatusOK)
	ss, _ := s.sessions.get(id)
	sigma := ss.lastSigmaML
	var noted float64
	for _, n := range reply.Notes {
		if rest, ok := strings.CutPrefix(n, "fgpwc: cross-validation chose σ_m = "); ok {
			if _, err := fmt.Sscanf(rest, "%g", &noted); err != nil {
				t.Fatalf("note %q: %v", n, err)
			}
		}
	}
	if noted == 0 {
		t.Fatalf("notes %q: none gives the σ_m chosen", reply.Notes)
	}
	if def := cluster.NewFGPWC().SigmaML; sigma == def || math.Abs(sigma-noted) > 5e-4*noted {
		t.Fatalf("session σ_m = %v, want the note's %v (to 3 digits), not the default %v", sigma, noted, def)
	}
	body, _ := json.Marshal(map[string]any{"count": 5, "seed": 1, "strategy": "similarity"})
	code, b := call(t, s, "POST", base+"/suggest", "application/json", body)
	if code != http.StatusOK {
		t.Fatalf("suggest similarity: status %d, want 200: %s", code, b)
	}
	var sug struct {
		Questions []questionJSON `json:"questions"`
	}
	if err := json.Unmarshal(b, &sug); err != nil {
		t.Fatal(err)
	}
	if len(sug.Questions) == 0 {
		t.Fatal("no question")
	}
	emb := ss.lastEmb
	score := func(q questionJSON, sigma float64) float64 {
		d2 := 0.0
		for c := range emb.RawRowView(0) {
			x := emb.At(q.I, c) - emb.At(q.J, c)
			d2 += x * x
		}
		return math.Abs(math.Exp(-d2/sigma) - 0.5)
	}
	byDefault := true
	for _, q := range sug.Questions {
		if got := score(q, sigma); math.Abs(got-q.Score) > 1e-12 {
			t.Errorf("question %+v: score %v, want %v with σ_m = %v", q, q.Score, got, sigma)
		}
		if math.Abs(score(q, cluster.NewFGPWC().SigmaML)-q.Score) > 1e-12 {
			byDefault = false
		}
	}
	if byDefault {
		t.Errorf("the scores %+v are also those of the default σ_m: the test cannot tell the σ_m used", sug.Questions)
	}
}
