package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/metrics"
)

// ClusterRequest is the body of POST /api/sessions/{id}/cluster.
type ClusterRequest struct {
	// Method is a registered method name (tether methods); "" means fgpwc.
	Method string `json:"method"`
	// K is the number of clusters; 0 lets methods that can estimate it.
	K int `json:"k"`
	// Knobs set the method's knobs by name (cluster.SetKnobs, as tether
	// cluster -set does).
	Knobs map[string]string `json:"knobs,omitempty"`
	// Seed seeds every random choice.
	Seed uint64 `json:"seed"`
	// Cold, if true, re-clusters FGPWC from scratch (X₀ and fresh
	// k-means) instead of warm-starting k-means from the last partition.
	// The basis is reused either way.
	Cold bool `json:"cold,omitempty"`
	// WarmDescent, with a warm re-clustering, also starts FGPWC's descent
	// from the previous X* instead of X₀ (cluster.FGPWCWarm.Descent). Off
	// by default: the descent from X₀ is cheap (O(constraints·m²) per
	// step) and a chain of warm descents runs past FGPWC's early stop
	// (measured in TestFGPWCStateWarm: ARI 0.96 instead of 1 after five
	// additions on three separated blobs).
	WarmDescent bool `json:"warm_descent,omitempty"`
	// Regularize is the regularization of the normalized Laplacians of
	// njw, ncut, cscap and ccsr (cluster.Problem.Regularize, tether
	// cluster -regularize): "auto", "none", "mean" or a number τ, each
	// optionally followed by "+complete"; absent means the server's
	// (Config.Regularize, tether serve -regularize; auto by default).
	Regularize *graph.Regularization `json:"regularize,omitempty"`
	// Disconnected is what the methods that cannot cluster isolated nodes
	// or small components (fgpwc, sl, …) do with them
	// (cluster.Problem.Disconnected, tether cluster -disconnected):
	// "attach" or "strict"; absent means the server's
	// (Config.Disconnected, tether serve -disconnected; attach by
	// default). With attach and such a graph, FGPWC runs through
	// cluster.Run on the core (Mode "run") instead of reusing the basis.
	Disconnected *cluster.Disconnected `json:"disconnected,omitempty"`
}

// ClusterReply is the partition with what the page shows.
type ClusterReply struct {
	Method      string             `json:"method"`
	K           int                `json:"k"`
	Labels      []int              `json:"labels"`
	Sizes       []int              `json:"sizes"`
	Figures     map[string]float64 `json:"figures,omitempty"` // ARI, NMI against the reference
	ViolatedML  int                `json:"violated_ml"`
	ViolatedCL  int                `json:"violated_cl"`
	Constraints [2]int             `json:"constraints"` // must-links, cannot-links
	Millis      float64            `json:"ms"`
	// Mode is "warm" (FGPWC basis reused, k-means warm-started), "basis"
	// (basis reused, cold descent and k-means), "embed" (FGPWC basis
	// computed now) or "run" (through cluster.Run: another method, or
	// FGPWC with Imprint, Laplacian auto, or on the core of a graph with
	// isolated nodes or small components, Disconnected = attach).
	Mode string `json:"mode"`
	// Knobs are the knobs the method ran with: the request's, and for
	// fgpwc the embedding dimension M the server chose when the request
	// gave none (fgpwcServerM), so that tether cluster -set M=… gives the
	// same partition. Left out when empty.
	Knobs map[string]string `json:"knobs,omitempty"`
	// Warnings and Notes are the method's (cluster.Result states the
	// rule).
	Warnings []string `json:"warnings,omitempty"`
	Notes    []string `json:"notes,omitempty"`
}

// fgpwcOf returns the FGPWC value of m, if m is FGPWC.
func fgpwcOf(m cluster.Method) (cluster.FGPWC, bool) {
	switch f := m.(type) {
	case cluster.FGPWC:
		return f, true
	case *cluster.FGPWC:
		return *f, true
	}
	return cluster.FGPWC{}, false
}

// fgpwcServerM is the server's FGPWC dimension when the M knob is not
// given: cfgM if positive, else 2k, or 32 for the automatic k (k = 0),
// at most n − 1 (see Config.FGPWCM). 2k is capped at maxFGPWCM, the
// limit on a requested M: a large k must not build a basis wider than a
// request may ask for (k = 150 made it 300 wide, and k = 2500 made it
// 2500 wide, a dense eigensolve of 228 s: review 116). A k above the cap
// is refused (Server.method), so m ≥ k still holds.
func fgpwcServerM(cfgM, k, n int) int {
	m := cfgM
	switch {
	case m > 0:
	case k > 0:
		m = min(2*k, maxFGPWCM)
	default:
		m = 32
	}
	return max(1, min(m, n-1))
}

// maxFGPWCM bounds the FGPWC knobs M and MaxM a request may set: the
// cap of the automatic m (M = 2999 on n = 3000 ran for minutes, past the
// client's departure).
const maxFGPWCM = cluster.FGPWCDefaultMaxM

// method resolves req to a method with its knobs, and its canonical key.
func (s *Server) method(req *ClusterRequest, n int) (cluster.Method, string, error) {
	name := req.Method
	if name == "" {
		name = "fgpwc"
	}
	m, err := cluster.New(name)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", errBadInput, err)
	}
	names := make([]string, 0, len(req.Knobs))
	for k := range req.Knobs {
		names = append(names, k)
	}
	sort.Strings(names)
	set := make([]string, len(names))
	for i, k := range names {
		set[i] = k + "=" + req.Knobs[k]
	}
	if m, err = cluster.SetKnobs(m, set); err != nil {
		return nil, "", fmt.Errorf("%w: %w", errBadInput, err)
	}
	if f, ok := fgpwcOf(m); ok {
		if f.M > maxFGPWCM || f.MaxM > maxFGPWCM {
			return nil, "", fmt.Errorf("%w: fgpwc M = %d, MaxM = %d: this server's limit is %d (the cap of the automatic m): the basis holds n·M values", errBadInput, f.M, f.MaxM, maxFGPWCM)
		}
		if req.K > maxFGPWCM {
			// Its m, 2k capped at maxFGPWCM, would be below k: the
			// k-means of k clusters in fewer than k dimensions.
			return nil, "", fmt.Errorf("%w: k = %d: fgpwc clusters the rows of its embedding, at most %d wide on this server (the limit on its knob M, the cap of the automatic m), and this server gives it no fewer dimensions than clusters: ask for at most %d clusters with fgpwc, or choose another method (njw, ncut)", errBadInput, req.K, maxFGPWCM, maxFGPWCM)
		}
		if _, given := req.Knobs["M"]; !given && f.M == 0 {
			// Interactive default (ours): m = 2k instead of the paper's
			// #{λ < 0.9}, which reaches the cap of 200 on k-NN graphs of
			// 10⁴ points and makes each re-clustering cost n·m². The
			// former m = 32 failed with few constraints: on generated
			// moons, circles and 3 blobs (n = 300 and 1000, 10, 50 and
			// 200 uniform pairs, 4 draws each, the default graph) mean
			// ARI 0.88 for m = 2k against 0.79 for m = 32 (worst cell
			// 0.62 against 0.06) and 0.84 for m = k
			// (TestFGPWCTwiceKOnGeneratedData in package cluster checks part of it).
			f.M = fgpwcServerM(s.cfg.FGPWCM, req.K, n)
		}
		m = f
	}
	if m, err = s.clampMemoryKnobs(m); err != nil {
		return nil, "", err
	}
	return m, fmt.Sprintf("%s %v", name, set), nil
}

// wholeGraphKey ends the state and basis keys of a state that embeds the
// whole graph (fgpwcState).
const wholeGraphKey = " graph=whole"

// basisKeyOf is what FGPWC's basis depends on besides the graph.
func basisKeyOf(f cluster.FGPWC) string {
	return fmt.Sprintf("M=%d MaxM=%d MThreshold=%g RowNormalize=%v Laplacian=%v", f.M, f.MaxM, f.MThreshold, f.RowNormalize, f.Laplacian)
}

// fgpwcState returns next's FGPWC state for f and p, making one when the
// knobs or the graph's core changed (reusing the basis when only descent
// knobs did) and setting it in next, and whether the basis was computed
// now. The state embeds what cluster.Run clusters for p: the whole graph,
// or its core when it has isolated nodes or small components under
// attach (cluster.FGPWC.NewStateFor), whose nodes depend on k.
func (s *Server) fgpwcState(ctx context.Context, ss *sessionState, f cluster.FGPWC, p *cluster.Problem, key string, seed uint64) (*cluster.FGPWCState, bool, error) {
	graphKey := wholeGraphKey
	if !p.WholeGraph() {
		graphKey = fmt.Sprintf(" graph=core(k=%d)", p.K)
	}
	key += graphKey
	if ss.state != nil && ss.stateKey == key {
		return ss.state, false, nil
	}
	bk := basisKeyOf(f) + graphKey
	embedded := false
	if ss.state != nil && ss.basisKey == bk {
		f.Basis = ss.state.Basis()
	} else {
		embedded = true
	}
	st0 := s.settings(seed)
	st0.Spelling = runSpelling{initial: ss.source.Initial}
	st, err := f.NewStateFor(ctx, p, st0)
	if err != nil {
		return nil, false, err
	}
	ss.state, ss.stateKey, ss.basisKey = st, key, bk
	return st, embedded, nil
}

// recluster partitions the data of ss with req and its constraints, and
// records the partition and the FGPWC state in ss, a copy of the session's
// state for Server.commit. FGPWC (without Imprint or Laplacian = auto,
// whose embeddings depend on the constraints) reuses the basis and
// warm-starts k-means from the last partition; other methods go through
// cluster.Run. The FGPWC state the session holds never changes here: the
// call runs on a copy (FGPWCState.Clone) that ss keeps, for Server.commit
// to install when this succeeds.
func (s *Server) recluster(ctx context.Context, ss *sessionState, req ClusterRequest) (*ClusterReply, error) {
	if ss.data == nil {
		return nil, fmt.Errorf("%w: no data loaded in this session", errConflict)
	}
	t0 := time.Now()
	n := ss.data.Graph.N()
	if req.K < 0 || req.K > n {
		// Before the FGPWC basis, whose m = 2k (fgpwcServerM) would
		// otherwise be n − 1 and run to the compute limit before
		// cluster.Run refused k.
		return nil, fmt.Errorf("%w: k = %d, want 0 ≤ k ≤ n = %d", errBadInput, req.K, n)
	}
	m, key, err := s.method(&req, n)
	if err != nil {
		return nil, err
	}
	// The M the server chose is recorded as a knob (after the key, which
	// names the knobs asked for): the reply, the summary and a saved
	// session say it.
	if f, ok := fgpwcOf(m); ok {
		if _, given := req.Knobs["M"]; !given {
			knobs := maps.Clone(req.Knobs)
			if knobs == nil {
				knobs = map[string]string{}
			}
			knobs["M"] = strconv.Itoa(f.M)
			req.Knobs = knobs
		}
	}
	k := req.K
	var kNote string
	if k > 0 && m.Uses().FindsK {
		// The page always sends its k: a method that chooses k itself
		// (opplc ignored it with a warning, plmeans took it for a cap)
		// runs without it, and the reply says so.
		kNote = fmt.Sprintf("%s chooses k itself: the request's k = %d is not used", m.Name(), k)
		k = 0
	}
	if err := s.checkWork(m, k, workloadOf(ss.data, ss.pairs)); err != nil {
		return nil, err
	}
	p, err := input.NewProblem(ss.data, m, k)
	if errors.Is(err, input.ErrNoBipartite) {
		return nil, fmt.Errorf("%w: %w, which tether serve does not load", errBadInput, err)
	} else if err != nil {
		return nil, fmt.Errorf("%w: %w", errBadInput, err)
	}
	p.Constraints = &constraint.Set{N: n, Pairs: append([]constraint.Pair(nil), ss.pairs...)}
	// The request's graph options, else the server's; recorded as used
	// (lastReq: the summary and a saved session say them).
	ignored := ignoredOptions(m, req, s.cfg)
	if req.Regularize == nil {
		req.Regularize = &s.cfg.Regularize
	}
	if req.Disconnected == nil {
		req.Disconnected = &s.cfg.Disconnected
	}
	r, d := *req.Regularize, *req.Disconnected
	req.Regularize, req.Disconnected = &r, &d
	p.Regularize, p.Disconnected = r, d
	set := s.settings(req.Seed)
	set.NormalizeRemedy = normalizeRemedy(ss.source.Initial)
	set.Spelling = runSpelling{initial: ss.source.Initial}
	var res *cluster.Result
	mode := "run"
	// The session's FGPWC state holds the basis of the whole graph, or of
	// its core with isolated nodes or small components under attach.
	if f, ok := fgpwcOf(m); ok && !f.Imprint && f.Laplacian != cluster.FGPWCAutoLaplacian {
		key += fmt.Sprintf(" seed=%d", req.Seed)
		st, embedded, err := s.fgpwcState(ctx, ss, f, p, key, req.Seed)
		if err != nil {
			return nil, classify(err)
		}
		// ss shares the state with the session: the call runs on a copy,
		// which ss keeps, so that a failure after it (the figures, the
		// node budget) leaves the session's warm start as it was.
		st = st.Clone()
		ss.state = st
		w := cluster.FGPWCWarm{KMeans: !req.Cold, Descent: !req.Cold && req.WarmDescent}
		mode = "basis"
		switch {
		case embedded:
			mode = "embed"
		case w.KMeans && st.Warm() && ss.last != nil && ss.lastReq.K == req.K:
			mode = "warm"
		}
		if mode != "warm" {
			// The zero FGPWCWarm runs cold without forgetting the
			// state's last call (st.Reset would, even if this call then
			// fails).
			w = cluster.FGPWCWarm{}
		}
		res, err = st.Cluster(ctx, p, set, w)
		if err != nil {
			return nil, classify(err)
		}
	} else if res, err = cluster.Run(ctx, m, p, set); err != nil {
		return nil, classify(err)
	}
	notes := res.Notes
	if kNote != "" {
		notes = append([]string{kNote}, notes...)
	}
	notes = append(ignored, notes...)
	reply := &ClusterReply{Method: m.Name(), K: res.K, Labels: res.Labels, Mode: mode, Knobs: req.Knobs, Warnings: res.Warnings, Notes: notes}
	reply.Sizes = make([]int, res.K)
	for _, c := range res.Labels {
		reply.Sizes[c]++
	}
	reply.ViolatedML, reply.ViolatedCL = constraint.Violations(p.Constraints, res.Labels)
	reply.Constraints[0], reply.Constraints[1] = p.Constraints.Count()
	if reply.Figures, err = replyFigures(ctx, ss.data.Truth, res.Labels); err != nil {
		return nil, err
	}
	reply.Millis = float64(time.Since(t0).Microseconds()) / 1000
	ss.last, ss.lastEmb, ss.lastReq = reply, res.Embedding, req
	ss.lastSigmaML = 0
	if f, ok := fgpwcOf(m); ok {
		ss.lastSigmaML = fgpwcSigmaML(f, res)
	}
	if err := s.chargeState(ss); err != nil {
		return nil, err
	}
	return reply, nil
}

// replyFigures returns the figures of a reply, the ARI and NMI
// (arithmetic normalization) of labels against the reference truth (nil:
// none, and no figures) over the items whose reference label is known, as
// metrics.Evaluate gives them with Options.Unlabeled. Only these two are
// computed, from one contingency table: metrics.EvaluateContext computed
// every figure of the package to keep these two, among them AMI's
// expected mutual information and the O(k³) alignments of accuracy and
// CEAF (0.5 s for 1000 reference classes and 1000 clusters, against 0.3
// ms for the table). ctx is checked every figuresPoll items of the pass
// over them and once the table is made. A reference the figures cannot
// use (none of its labels known, or a length other than labels') gives
// none, without an error; the error is that of a cancellation, wrapping
// ctx.Err(), for the request to fail as stopped. Cost O(n + k₁ + k₂) for
// labels in 0…n, O(n + k log k) otherwise (metrics.NewContingency).
func replyFigures(ctx context.Context, truth, labels []int) (map[string]float64, error) {
	if truth == nil || len(truth) != len(labels) {
		return nil, nil
	}
	stopped := func(err error) error {
		return fmt.Errorf("figures: stopped while computing the contingency table: %w", err)
	}
	kt, kp := make([]int, 0, len(truth)), make([]int, 0, len(labels))
	for i, t := range truth {
		if i%figuresPoll == 0 {
			if err := ctx.Err(); err != nil {
				return nil, stopped(err)
			}
		}
		if t != constraint.Unlabeled {
			kt, kp = append(kt, t), append(kp, labels[i])
		}
	}
	if len(kt) == 0 {
		return nil, nil
	}
	c, err := metrics.NewContingency(kt, kp)
	if err != nil {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, stopped(err)
	}
	return map[string]float64{"ARI": c.ARI(), "NMI": c.NMI(metrics.Arithmetic)}, nil
}

// figuresPoll is the number of items replyFigures handles between two
// checks of its context, as metrics.EvaluateContext's passes: a
// millisecond or less.
const figuresPoll = 1 << 16

// chargeState sets st.cost to what st holds (stateCost), refusing, as bad
// input, a state that passes the node budget (Config.MaxTotalNodes) on
// its own: the data were within it, so the basis and embedding of the
// request's k or M are what is too large.
func (s *Server) chargeState(st *sessionState) error {
	st.cost = s.stateCost(st)
	if st.cost > s.cfg.MaxTotalNodes {
		return fmt.Errorf("%w: %s with its basis and embedding counts as %d nodes, beyond this server's budget of %d: ask for a smaller k or M", errBadInput, st.data.Name, st.cost, s.cfg.MaxTotalNodes)
	}
	return nil
}

// fgpwcSigmaML returns the σ_m FGPWC f descended with to give res, the
// width of the learned similarity exp(−‖e_i − e_j‖²/σ_m) of its
// embedding's rows that package active's similarity strategy needs: with
// AutoTune the σ_m its cross-validation chose (res.Report, a
// *cluster.FGPWCReport; 0, unknown, without one), else the SigmaML knob,
// or when it is 0 the default FGPWC applies then, which is the value
// NewFGPWC sets (both are package cluster's one constant). Cost O(1).
func fgpwcSigmaML(f cluster.FGPWC, res *cluster.Result) float64 {
	switch {
	case f.AutoTune:
		if rep, ok := res.Report.(*cluster.FGPWCReport); ok {
			return rep.SigmaML
		}
		return 0
	case f.SigmaML > 0:
		return f.SigmaML
	}
	return cluster.NewFGPWC().SigmaML
}

// normalizeRemedy returns the remedy that ends the method's warnings
// about the scale of the weights (cluster.Settings.NormalizeRemedy) as
// tether serve's users reach it: the data's option normalize_weights (the
// page's "normalize weights" box), or, for the server's initial data
// (initial), tether serve's -normalize-weights.
func normalizeRemedy(initial bool) string {
	if initial {
		return "(restart tether serve with -normalize-weights; library: graph.Graph.Normalized)"
	}
	return "(load the data again with the option normalize_weights, the page's \"normalize weights\" box; library: graph.Graph.Normalized)"
}

// runSpelling names the remedies that the errors and warnings of
// cluster.Run and the methods suggest as tether serve's users reach them
// (cluster.Settings.Spelling): the page's k box and method menu, the data's
// options self_loops and normalize_weights (the page's "self loops" and
// "normalize weights" boxes; for the server's initial data, initial,
// tether serve's -self-loops and -normalize-weights), and the fields
// regularize, disconnected and knobs of the cluster request, which the
// page sends with the server's defaults (tether serve -regularize,
// -disconnected) or its knob boxes. tether serve has nothing for tether
// cluster's -conflicts (its pairs are edited on the page, one kind a
// pair, and clustered as given) and -repair: the messages then name the
// library's remedy alone. Graph building's -max-full is the
// operator's (Config.Spec), named by the readers' spelling (spelling),
// which has none.
type runSpelling struct{ initial bool }

// Remedy returns the option that tether cluster spells -flag set to each
// of values as tether serve's users set it, the values joined by " or ",
// after "serve: ", or "" when they cannot (cluster.Spelling). Cost
// O(length of the result).
func (r runSpelling) Remedy(flag string, values ...string) string {
	var what string
	switch flag {
	case "k":
		what = `the page's "k" box`
	case "method":
		what = "the page's method menu"
	case "self-loops":
		what = `load the data again with the option self_loops, the page's "self loops" box`
		if r.initial {
			what = "restart tether serve with -self-loops"
		}
	case "normalize-weights":
		what = `load the data again with the option normalize_weights, the page's "normalize weights" box`
		if r.initial {
			what = "restart tether serve with -normalize-weights"
		}
	case "regularize", "disconnected":
		what = fmt.Sprintf("the cluster request's %q", flag)
		if len(values) > 0 {
			quoted := make([]string, len(values))
			for i, v := range values {
				quoted[i] = fmt.Sprintf("%q", v)
			}
			what += ": " + strings.Join(quoted, " or ")
		}
	case "set":
		// Each value a knob setting Name=value, each its own request.
		knobs := make([]string, len(values))
		for i, v := range values {
			name, value, _ := strings.Cut(v, "=")
			knobs[i] = fmt.Sprintf(`"knobs": {%q: %q}`, name, value)
		}
		if len(knobs) == 0 {
			knobs = []string{`"knobs"`}
		}
		what = "the cluster request's " + strings.Join(knobs, " or ")
	default:
		return ""
	}
	return "serve: " + what
}

// errConflict marks a request the session's state does not allow yet
// (HTTP 409).
var errConflict = errors.New("conflict")

// classify marks the library's invalid-problem errors as bad input, and
// its numerical failures too: no method returns one on valid input, so
// the request's knobs, weights or data are out of floating-point range.
func classify(err error) error {
	if errors.Is(err, cluster.ErrInvalid) || errors.Is(err, cluster.ErrNumerical) {
		return fmt.Errorf("%w: %w", errBadInput, err)
	}
	return err
}

// ignoredOptions returns a note for each graph option the request gives
// that method m does not read: "regularize" unless m declares
// cluster.Uses.Regularizes, "disconnected" unless
// Uses.ReadsDisconnected holds, as tether cluster refuses -regularize and
// -disconnected for such methods (review 95). A value equal to the
// server's own (cfg), which applies to every request, gets no note: a
// saved session records the values it used, and loading it must not
// warn about them. Cost O(1), and O(methods) for a note.
func ignoredOptions(m cluster.Method, req ClusterRequest, cfg Config) []string {
	u := m.Uses()
	var notes []string
	for _, o := range []struct {
		name  string
		given bool
		reads func(cluster.Uses) bool
	}{
		{"regularize", req.Regularize != nil && *req.Regularize != cfg.Regularize, func(u cluster.Uses) bool { return u.Regularizes }},
		{"disconnected", req.Disconnected != nil && *req.Disconnected != cfg.Disconnected, cluster.Uses.ReadsDisconnected},
	} {
		if !o.given || o.reads(u) {
			continue
		}
		var readers []string
		for _, i := range cluster.Methods() {
			if o.reads(i.New().Uses()) {
				readers = append(readers, i.Name)
			}
		}
		notes = append(notes, fmt.Sprintf("%s does not read the option %s (the methods that do: %s): it was not used", m.Name(), o.name, strings.Join(readers, ", ")))
	}
	return notes
}
