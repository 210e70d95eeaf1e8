package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
)

// cliquesMTX is a Matrix Market graph of two 10-cliques (nodes 0–9 and
// 10–19) joined by the edge 9–10, a pair 20–21 and, when isolated, node
// 22 of degree 0. With k = 2 the pair is a component below n/(4k) nodes
// (graph.SmallComponent).
func cliquesMTX(isolated bool) string {
	var b strings.Builder
	n, nnz := 22, 2*45+2
	if isolated {
		n++
	}
	fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate real symmetric\n%d %d %d\n", n, n, nnz)
	for c := 0; c < 2; c++ {
		for i := 0; i < 10; i++ {
			for j := i + 1; j < 10; j++ {
				fmt.Fprintf(&b, "%d %d 1\n", 10*c+j+1, 10*c+i+1)
			}
		}
	}
	b.WriteString("11 10 1\n22 21 1\n")
	return b.String()
}

// loadGraph creates a session on s holding the upload body named name.
func loadGraph(t *testing.T, s *Server, name, body string) (string, *input.Data) {
	t.Helper()
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
	code, b := call(t, s, "POST", "/api/sessions/"+info.ID+"/data?name="+name, "application/octet-stream", []byte(body))
	if code != http.StatusOK {
		t.Fatalf("loading %s: status %d: %s", name, code, b)
	}
	ss, _ := s.sessions.get(info.ID)
	return info.ID, ss.data
}

// runDirect is the partition of cluster.Run on d with m, k = 2, no
// constraints and seed 1, with the given graph options: what the API must
// answer.
func runDirect(t *testing.T, d *input.Data, m cluster.Method, r graph.Regularization, dis cluster.Disconnected) *cluster.Result {
	t.Helper()
	p, err := input.NewProblem(d, m, 2)
	if err != nil {
		t.Fatal(err)
	}
	p.Constraints = &constraint.Set{N: d.Graph.N()}
	p.Regularize, p.Disconnected = r, dis
	res, err := cluster.Run(context.Background(), m, p, &cluster.Settings{Seed: 1, Spelling: runSpelling{}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestGraphOptions: Config.Regularize and Config.Disconnected, and a
// request's regularize and disconnected, reach the problems the server
// solves. FGPWC with Disconnected = attach clusters the core of a graph
// with a small component and an isolated node (it used to reuse the basis
// of the whole graph, where the pair took a cluster of its own, and a
// graph with an isolated node did not load), through a session state that
// embeds the core once and warm-starts the next request (it used to run
// cluster.Run, which embeds the core again, on every request); strict
// refuses the isolated node. NJW on the graph with a small component splits off the pair
// without regularization and the two cliques with auto. Every expected
// partition is cluster.Run's on the same Problem.
func TestGraphOptions(t *testing.T) {
	f := cluster.NewFGPWC()
	f.M = 4 // the server's m = 2k
	strict, attach := cluster.DisconnectedStrict, cluster.DisconnectedAttach
	none := graph.Regularization{Mode: graph.RegNone}
	cluster2 := func(t *testing.T, s *Server, id string, req ClusterRequest, want int) (ClusterReply, string) {
		t.Helper()
		body, _ := json.Marshal(req)
		code, b := call(t, s, "POST", "/api/sessions/"+id+"/cluster", "application/json", body)
		if code != want {
			t.Fatalf("cluster %s: status %d, want %d: %s", body, code, want, b)
		}
		var reply ClusterReply
		var e errorReply
		if code == http.StatusOK {
			if err := json.Unmarshal(b, &reply); err != nil {
				t.Fatal(err)
			}
		} else if err := json.Unmarshal(b, &e); err != nil {
			t.Fatal(err)
		}
		return reply, e.Error
	}

	// A request's regularize or disconnected for a method that does not
	// read it gets a note saying it was not used (tether cluster refuses
	// the flags); for one that reads it, left to the server's settings or
	// equal to them (as a loaded session's saved request), none.
	t.Run("ignored options noted", func(t *testing.T) {
		s := newTest(t, Config{})
		id, _ := loadGraph(t, s, "g.mtx", cliquesMTX(false))
		for _, c := range []struct {
			req  ClusterRequest
			want []string
		}{
			{ClusterRequest{Method: "usc", K: 2, Seed: 1, Regularize: &none}, []string{"usc does not read the option regularize"}},
			{ClusterRequest{Method: "njw", K: 2, Seed: 1, Regularize: &none, Disconnected: &strict}, []string{"njw does not read the option disconnected"}},
			{ClusterRequest{Method: "njw", K: 2, Seed: 1, Regularize: &none}, nil},
			{ClusterRequest{Method: "usc", K: 2, Seed: 1}, nil},
			{ClusterRequest{Method: "usc", K: 2, Seed: 1, Regularize: &graph.Regularization{}, Disconnected: &attach}, nil},
		} {
			got, _ := cluster2(t, s, id, c.req, http.StatusOK)
			var ours []string
			for _, n := range got.Notes {
				if strings.Contains(n, "does not read the option") {
					ours = append(ours, n)
				}
			}
			if len(ours) != len(c.want) {
				t.Errorf("%s: notes %q, want %d about options not read", c.req.Method, got.Notes, len(c.want))
				continue
			}
			for i, w := range c.want {
				if !strings.HasPrefix(ours[i], w) {
					t.Errorf("%s: note %q, want one beginning %q", c.req.Method, ours[i], w)
				}
			}
		}
	})

	t.Run("fgpwc attach and strict", func(t *testing.T) {
		for _, cfg := range []Config{{}, {Disconnected: strict}} {
			s := newTest(t, cfg)
			id, d := loadGraph(t, s, "g.mtx", cliquesMTX(true))
			want := runDirect(t, d, f, graph.Regularization{}, attach)
			// The server's default (attach), or the request's.
			req := ClusterRequest{K: 2, Seed: 1}
			if cfg.Disconnected == strict {
				req.Disconnected = &attach
			}
			got, _ := cluster2(t, s, id, req, http.StatusOK)
			if !slices.Equal(got.Labels, want.Labels) || got.Mode != "embed" {
				t.Errorf("config %v: labels %v (mode %s), cluster.Run's %v (mode embed)", cfg.Disconnected, got.Labels, got.Mode, want.Labels)
			}
			// The same request again: the core's basis is kept, and
			// k-means starts from the partition, which it keeps.
			if again, _ := cluster2(t, s, id, req, http.StatusOK); !slices.Equal(again.Labels, want.Labels) || again.Mode != "warm" {
				t.Errorf("config %v: again: labels %v (mode %s), want %v (mode warm)", cfg.Disconnected, again.Labels, again.Mode, want.Labels)
			}
			// The cliques; node 20, without a link to the core, joins
			// the first of the two largest clusters, 21 follows it by its
			// edge, then 22 joins the largest (core.go's rule).
			if !slices.Equal(got.Sizes, []int{13, 10}) && !slices.Equal(got.Sizes, []int{10, 13}) {
				t.Errorf("config %v: sizes %v, want the two cliques, one with the pair and the isolated node attached", cfg.Disconnected, got.Sizes)
			}
			if !strings.Contains(strings.Join(got.Warnings, "\n"), "attached the 3 other nodes") {
				t.Errorf("config %v: warnings %q, want the attachment's", cfg.Disconnected, got.Warnings)
			}
			// Strict, the server's or the request's, refuses node 22.
			req.Disconnected = nil
			if cfg.Disconnected != strict {
				req.Disconnected = &strict
			}
			_, msg := cluster2(t, s, id, req, http.StatusBadRequest)
			if !strings.Contains(msg, "node 22 has degree 0") {
				t.Errorf("config %v: strict: error %q, want node 22 named", cfg.Disconnected, msg)
			}
		}
	})

	t.Run("fgpwc small component", func(t *testing.T) {
		// Without the isolated node the session keeps an FGPWC state;
		// attach must not reuse its basis of the whole graph.
		s := newTest(t, Config{})
		id, d := loadGraph(t, s, "g.mtx", cliquesMTX(false))
		for _, dis := range []cluster.Disconnected{attach, strict} {
			want := runDirect(t, d, f, graph.Regularization{}, dis)
			got, _ := cluster2(t, s, id, ClusterRequest{K: 2, Seed: 1, Disconnected: &dis}, http.StatusOK)
			if !slices.Equal(got.Labels, want.Labels) {
				t.Errorf("%v: labels %v, cluster.Run's %v", dis, got.Labels, want.Labels)
			}
		}
		// Computed above: strict gives the pair a cluster of its own
		// (sizes 20, 2), attach splits the cliques (12, 10).
		attached := runDirect(t, d, f, graph.Regularization{}, attach)
		whole := runDirect(t, d, f, graph.Regularization{}, strict)
		if slices.Equal(attached.Labels, whole.Labels) {
			t.Fatalf("attach and strict give the same partition: the test shows nothing")
		}
	})

	t.Run("njw regularize", func(t *testing.T) {
		for _, cfg := range []Config{{}, {Regularize: none}} {
			s := newTest(t, cfg)
			id, d := loadGraph(t, s, "g.mtx", cliquesMTX(false))
			auto := graph.Regularization{}
			byReq := map[string]ClusterReply{}
			for _, r := range []graph.Regularization{auto, none} {
				want := runDirect(t, d, cluster.NJW{}, r, attach)
				req := ClusterRequest{Method: "njw", K: 2, Seed: 1}
				if r != cfg.Regularize {
					req.Regularize = &r
				}
				got, _ := cluster2(t, s, id, req, http.StatusOK)
				if !slices.Equal(got.Labels, want.Labels) || !slices.Equal(got.Warnings, want.Warnings) {
					t.Errorf("config %v, %v: labels %v, warnings %q; cluster.Run's %v, %q", cfg.Regularize, r, got.Labels, got.Warnings, want.Labels, want.Warnings)
				}
				byReq[r.String()] = got
			}
			if slices.Equal(byReq["auto"].Labels, byReq["none"].Labels) {
				t.Errorf("config %v: auto and none give the same partition %v", cfg.Regularize, byReq["auto"].Labels)
			}
			if !strings.Contains(strings.Join(byReq["auto"].Notes, "\n"), "L_sym regularized") || strings.Contains(strings.Join(byReq["auto"].Warnings, "\n"), "L_sym regularized") {
				t.Errorf("config %v: auto: notes %q, warnings %q, want the regularization's note", cfg.Regularize, byReq["auto"].Notes, byReq["auto"].Warnings)
			}
			// The summary records the options used.
			var sum struct {
				Request map[string]any `json:"request"`
			}
			callJSON(t, s, "GET", "/api/sessions/"+id+"/export/summary", nil, &sum, http.StatusOK)
			if sum.Request["regularize"] != "none" || sum.Request["disconnected"] != "attach" {
				t.Errorf("config %v: summary request %v, want regularize none, disconnected attach", cfg.Regularize, sum.Request)
			}
		}
	})

	t.Run("bad values", func(t *testing.T) {
		s := newTest(t, Config{})
		id := newSession(t, s, 100)
		for body, want := range map[string]string{
			`{"k":2,"regularize":"sometimes"}`:  `sometimes`,
			`{"k":2,"regularize":"-1"}`:         `-1`,
			`{"k":2,"disconnected":"loose"}`:    `loose`,
			`{"k":2,"disconnected":1}`:          `disconnected`,
			`{"k":2,"regularize":"mean+extra"}`: `mean+extra`,
			// τ above graph.MaxTau: 1e300 answered 200 with labels of
			// no meaning, 1e308+complete an eigensolver's Deflate error.
			`{"k":2,"regularize":"1e300"}`:          `τ = 1e+300 is above the largest τ, 1e+12`,
			`{"k":2,"regularize":"1e308+complete"}`: `τ = 1e+308 is above the largest τ, 1e+12`,
		} {
			code, b := call(t, s, "POST", "/api/sessions/"+id+"/cluster", "application/json", []byte(body))
			var e errorReply
			if err := json.Unmarshal(b, &e); code != http.StatusBadRequest || err != nil || !strings.Contains(e.Error, want) {
				t.Errorf("%s: status %d, %s; want 400 naming %q", body, code, b, want)
			}
		}
	})
}
