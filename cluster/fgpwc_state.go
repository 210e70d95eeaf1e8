package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/kmeans"
	"github.com/tether-sc/tether/progress"
)

// This file holds FGPWCState: FGPWC on one graph re-run after each change
// of the constraints, as an interactive session does (tether serve). The
// embedding V and X₀ of seed 003 Alg. 1 (lines 2–4) depend on the graph
// only, so they are computed once; a warm re-run also starts the descent
// from the previous X* and k-means from the previous partition.

// FGPWCState is FGPWC bound to one graph, for clustering it again and
// again with changing constraints. It holds the basis (FGPWC.Embed) and,
// after each Cluster call, the descent's X* and the partition, from which
// the next warm call starts. It is not safe for concurrent use; callers
// serialize (tether serve holds one per session under the session's lock).
type FGPWCState struct {
	f     FGPWC // the knobs, Basis set
	g     *graph.Graph
	core  []int        // the nodes of g the state clusters (NewStateFor), nil: all
	sub   *graph.Graph // the subgraph of g induced by core, which the basis embeds
	vtv   *mat.Dense   // VᵀV, for recoverX
	prevX *mat.Dense   // X* of the last call, nil before the first
	prevL []int        // labels of the last call (of the core nodes, with a core)
	prevK int
}

// FGPWCWarm says what a warm FGPWCState.Cluster call reuses. The zero value
// reuses nothing: the call then gives exactly the Result of Run with the
// state's basis (FGPWC.Basis). That is the Result of Run without a basis
// only when the basis was computed with the Settings.Seed of the call
// (NewState's and Cluster's s): the eigensolver's start vector follows the
// seed, so a basis of another seed differs in rounding, and so can the
// Result (objectives in about the 9th digit at n = 1500, and labels where
// k-means is near a tie).
type FGPWCWarm struct {
	// Descent starts the descent from the X* of the previous call instead of
	// X₀ (a single descent: FGPWC.ScaledRestart and ScaleStart are not
	// applied, the iteration cap and stops are FGPWC's). The descent
	// continues from where the last one stopped, so a run of warm calls
	// descends further than one cold call: with FGPWC's early stop
	// (MaxIter) it gives a different, usually less regularized, X*.
	Descent bool
	// KMeans makes k-means start one run from the previous partition's
	// means in the new embedding (kmeans.Settings.Init) and add Restarts
	// seeded runs; the run with the fewest violated constraints wins, ties
	// by distortion. If Restarts is 0, 2 seeded runs are added; if it is
	// negative, none (unless the previous partition has an empty cluster).
	KMeans   bool
	Restarts int
}

// NewState computes the basis of f on g (FGPWC.Embed, with s) and returns
// a state that clusters g with any constraints. If f.Basis is not nil it
// is used instead (it must have been made by Embed on g with f's M,
// MThreshold, RowNormalize and Laplacian, else the error wraps
// ErrInvalid), so a state with other descent knobs costs nothing to make.
// f.Imprint and f.Laplacian = FGPWCAutoLaplacian, whose
// embedding depends on the constraints, and a nil ctx are errors wrapping
// ErrInvalid. Cost: that of Embed (the m+1 smallest eigenpairs of the Laplacian).
func (f FGPWC) NewState(ctx context.Context, g *graph.Graph, s *Settings) (*FGPWCState, error) {
	if err := nilContext(ctx); err != nil {
		return nil, err
	}
	if err := s.validate(f.Name()); err != nil {
		return nil, err
	}
	if f.Imprint {
		return nil, fmt.Errorf("%w: fgpwc: a state reuses the embedding of the plain graph, but Imprint embeds the graph with the constraints imprinted", ErrInvalid)
	}
	if b := f.Basis; b != nil {
		cfg, err := f.withDefaults()
		if err != nil {
			return nil, err
		}
		if b.g != g || b.key != cfg.basisKey() {
			return nil, fmt.Errorf("%w: fgpwc: NewState: Basis was computed for another graph or other embedding knobs", ErrInvalid)
		}
		return &FGPWCState{f: f, g: g}, nil
	}
	b, err := f.Embed(ctx, g, s)
	if err != nil {
		return nil, err
	}
	f.Basis = b
	return &FGPWCState{f: f, g: g}, nil
}

// NewStateFor is NewState for the graph Run gives f when it clusters p: p's
// graph when p.WholeGraph() (no isolated node nor component too small to
// be a cluster for p.K, or p.Disconnected = DisconnectedStrict), else the
// core of p's graph (graph.Core(p.Graph, p.K); see core.go), whose basis
// it computes. Each Cluster call then clusters the core with the state's
// basis and warm starts, and attaches the other nodes as Run does; the
// calls' problems must have p's graph, DisconnectedAttach, and a K with
// the same core (the same K always has), else the call's error wraps
// ErrInvalid. f.Basis, when set, must be the Basis of a state NewStateFor
// made for the same graph and core (or NewState's, for a whole graph).
// Errors are NewState's, and ErrInvalid for a nil p or graph. Cost: that
// of Embed on the core, O(n + nnz) more.
func (f FGPWC) NewStateFor(ctx context.Context, p *Problem, s *Settings) (*FGPWCState, error) {
	if err := nilContext(ctx); err != nil {
		return nil, err
	}
	if p == nil || p.Graph == nil {
		return nil, fmt.Errorf("%w: fgpwc: NewStateFor: no problem or no graph", ErrInvalid)
	}
	if p.WholeGraph() {
		return f.NewState(ctx, p.Graph, s)
	}
	if err := s.validate(f.Name()); err != nil {
		return nil, err
	}
	core := graph.Core(p.Graph, p.K)
	if b := f.Basis; b != nil {
		if b.parent != p.Graph || !slices.Equal(b.core, core) {
			return nil, fmt.Errorf("%w: fgpwc: NewStateFor: Basis was computed for another graph or another core", ErrInvalid)
		}
		st, err := f.NewState(ctx, b.g, s)
		if err != nil {
			return nil, err
		}
		st.g, st.core, st.sub = p.Graph, core, b.g
		return st, nil
	}
	sub, err := p.Graph.Subgraph(core)
	if err != nil {
		return nil, fmt.Errorf("cluster: fgpwc: NewStateFor: core of the graph: %w", err)
	}
	st, err := f.NewState(ctx, sub, s)
	if err != nil {
		return nil, onCore("fgpwc", len(core), p.Graph.N()-len(core), "", err)
	}
	st.f.Basis.parent, st.f.Basis.core = p.Graph, core
	st.g, st.core, st.sub = p.Graph, core, sub
	return st, nil
}

// Basis returns the state's basis.
func (st *FGPWCState) Basis() *FGPWCBasis { return st.f.Basis }

// Method returns the FGPWC method the state runs, with its Basis set.
func (st *FGPWCState) Method() FGPWC { return st.f }

// Warm reports whether the next call can warm-start: a previous call
// left its X* and partition (and FGPWC.AutoTune and IterCV are off).
func (st *FGPWCState) Warm() bool { return st.prevX != nil && !st.f.AutoTune && !st.f.IterCV }

// Reset forgets the previous call: the next warm call starts cold.
func (st *FGPWCState) Reset() { st.prevX, st.prevL, st.prevK = nil, nil, 0 }

// Clone returns a copy of st that shares its basis, graph and last X* and
// labels, none of which a call changes in place (Cluster replaces them):
// a call on the copy leaves st as it was, so that a caller can keep st
// when something after the call fails. Cost O(1).
func (st *FGPWCState) Clone() *FGPWCState {
	c := *st
	return &c
}

// Cluster clusters p (whose Graph must be the state's graph) through Run
// with the state's FGPWC, reusing the basis, and with w, the previous X* and
// partition (see FGPWCWarm). The first call, and any call with the zero
// FGPWCWarm, equals Run(ctx, st.Method(), p, s) (for a state NewStateFor
// bound to a core, Run with FGPWC without the Basis, which clusters that
// core). Warm calls fall back to the cold path when FGPWC.AutoTune or
// IterCV is set (they re-fit on folds) or when there is no previous call;
// they go through Run's checks and finish the Result (warnings, Runtime)
// as Run does. The new X* and labels are kept for the next call whatever
// w says. With p.K = 1, Run's one-cluster answer, the state is unchanged.
//
// Cost of a warm call, with K constraints, an n×m basis and k clusters:
// O(K·m²) per evaluation of F for at most MaxIter descent steps, n·m² for
// the embedding V·X*, then 1 + Restarts k-means runs of O(n·m·k) per Lloyd
// iteration (the run started from the previous partition typically takes
// few iterations). No eigenvector is computed.
func (st *FGPWCState) Cluster(ctx context.Context, p *Problem, s *Settings, w FGPWCWarm) (*Result, error) {
	if err := nilContext(ctx); err != nil {
		return nil, err
	}
	if p == nil || p.Graph != st.g {
		return nil, fmt.Errorf("%w: fgpwc: the state was made for another graph", ErrInvalid)
	}
	warm := (w.Descent || w.KMeans) && st.Warm()
	var x *mat.Dense
	var labels []int
	k := 0
	hook := &coreHook{core: st.core, sub: st.sub}
	// q is p, or p restricted to the state's core (the labels are the
	// core's, before the other nodes are attached).
	hook.partition = func(ctx context.Context, q *Problem, s *Settings) (*Result, error) {
		var res *Result
		var err error
		if warm {
			res, x, err = st.warm(ctx, q, s, w)
		} else {
			if res, err = st.f.Partition(ctx, q, s); err == nil {
				x, err = st.recoverX(res)
			}
		}
		if err != nil {
			return nil, err
		}
		labels, k = append([]int(nil), res.Labels...), res.K
		return res, nil
	}
	res, err := run(ctx, st.f, p, s, hook, nil)
	if err != nil {
		return nil, err
	}
	if x != nil {
		st.prevX, st.prevL, st.prevK = x, labels, k
	}
	return res, nil
}

// recoverX returns X* of a cold result, solving V X = Embedding through
// the m×m normal equations (V has orthonormal columns unless row
// normalized; the normal equations hold either way). Cost O(n·m²).
func (st *FGPWCState) recoverX(res *Result) (*mat.Dense, error) {
	v := st.f.Basis.v
	if st.vtv == nil {
		st.vtv = new(mat.Dense)
		st.vtv.Mul(v.T(), v)
	}
	var vte mat.Dense
	vte.Mul(v.T(), res.Embedding)
	var x mat.Dense
	if err := x.Solve(st.vtv, &vte); err != nil {
		return nil, fmt.Errorf("%w: fgpwc: recovering X* from the embedding: %v", ErrNumerical, err)
	}
	return &x, nil
}

// warm is Cluster's warm path: FGPWC.Partition with the descent started at
// st.prevX and k-means at st.prevL, as w asks.
func (st *FGPWCState) warm(ctx context.Context, p *Problem, s *Settings, w FGPWCWarm) (*Result, *mat.Dense, error) {
	cfg, err := st.f.withDefaults()
	if err != nil {
		return nil, nil, err
	}
	if err := validate(cfg.Name(), cfg.Uses(), p); err != nil {
		return nil, nil, err
	}
	if err := checkKnobs(cfg); err != nil {
		return nil, nil, err
	}
	prep, cfg, _, err := cfg.prepareKnobs(ctx, p, s, false)
	if err != nil {
		return nil, nil, err
	}
	b := prep.FGPWCBasis
	pairs := prep.pairs
	var d *descentResult
	if w.Descent && len(pairs) > 0 && cfg.MaxIter > 0 {
		d, err = b.descendFrom(ctx, pairs, st.prevX, cfg, s.MaxBlockBytes)
	} else {
		d, err = b.descend(ctx, pairs, s.Recorder, cfg, nil, s.MaxBlockBytes)
	}
	if err != nil {
		return nil, nil, cancelledIn("fgpwc", "descent on X (seed 003 Alg. 1)", err)
	}
	res := &Result{
		Eigenvalues: append([]float64(nil), b.values...),
		Objective:   d.f,
		Iterations:  d.iterations,
		Warnings:    append([]string(nil), prep.warnings...),
	}
	k := p.K
	if k == 0 {
		k = fgpwcAutoK(d.x, cfg.KTol, b.n)
		if w := fgpwcAutoKWarning(k, b.m); w != "" {
			res.Warnings = append(res.Warnings, w)
		}
	}
	res.K = k
	emb := mat.NewDense(b.n, b.m, nil)
	emb.Mul(b.v, d.x)
	res.Embedding = emb
	if w.KMeans && st.prevK == k {
		res.Labels, err = warmKMeans(ctx, emb, k, pairs, st.prevL, w.Restarts, s)
	} else {
		res.Labels, err = fgpwcKMeans(ctx, emb, k, pairs, restarts(s, fgpwcKMeansRuns), s.Seed, s)
	}
	if err != nil {
		return nil, nil, err
	}
	return res, d.x, nil
}

// descendFrom minimizes F on b from x (the previous X*) with cfg's
// objective, γ and stops: the warm descent of FGPWCWarm.Descent. maxBlock
// bounds the objective's blocks as in descend (the run's
// Settings.MaxBlockBytes, 0: no bound).
func (b *FGPWCBasis) descendFrom(ctx context.Context, pairs []constraint.Pair, x *mat.Dense, cfg FGPWC, maxBlock int64) (*descentResult, error) {
	o, err := newFGPWCObjectiveContext(ctx, b.v, pairs, cfg.SigmaML, cfg.SigmaCL, 0, maxBlock, nil)
	if err != nil {
		return nil, err
	}
	o.gamma = fgpwcGamma(cfg, pairs, b.x0Norm2)
	g0 := mat.NewDense(b.m, b.m, nil)
	if _, err := o.evalContext(ctx, x); err != nil {
		return nil, err
	}
	if err := o.gradToContext(ctx, g0, x); err != nil {
		return nil, err
	}
	gn := mat.Norm(g0, 2)
	st := descentStop{maxIter: cfg.MaxIter, gradTol: cfg.GradTol * math.Max(1, gn*gn), fTol: cfg.FTol, window: fgpwcWindow}
	return descend(ctx, o, mat.DenseCopyOf(x), cfg.Optimizer, st, nil)
}

// warmKMeans runs k-means on emb once from the means of prev (a partition
// into k clusters; clusters it leaves empty are dropped from the start
// and k-means refills them) and restarts more times from k-means++ seeds,
// and returns the labels of the run violating the least constraint
// weight, ties by distortion, then the warm run. The seeded restarts
// draw from s's k-means stream (s.Seed). Every run reports to s.Recorder,
// one "kmeans" event each, counted together: the warm run is event 1 of
// extra+1 (its message prefixed "warm run: "), the restarts the events
// after it (1…extra of extra without a warm run). Cost: extra+1 k-means
// runs, each O(iterations·n·m·k) for emb n×m.
func warmKMeans(ctx context.Context, emb *mat.Dense, k int, pairs []constraint.Pair, prev []int, extra int, s *Settings) ([]int, error) {
	if extra == 0 {
		extra = 2
	}
	sel := violationSelect(pairs)
	score := func(r *kmeans.Result) float64 {
		if sel == nil {
			return 0
		}
		return sel(r.Labels)
	}
	warm := nonEmptyClusters(prev, k) == k
	total := max(extra, 0)
	if warm {
		total++
	}
	// report renumbers the "kmeans" events of one kmeans.Cluster call as
	// events off+1, off+2, … of total, prefixing their messages.
	report := func(off int, prefix string) progress.Recorder {
		if s.Recorder == nil {
			return nil
		}
		return progress.Func(func(e progress.Event) {
			if e.Stage == "kmeans" {
				e.Done += off
				e.Total = total
				e.Message = prefix + e.Message
			}
			s.Recorder.Record(e)
		})
	}
	var best *kmeans.Result
	if warm {
		r, err := kmeans.Cluster(ctx, emb, kmeans.Settings{K: k, Init: prev, Recorder: report(0, "warm run: ")})
		if err != nil {
			if ctx.Err() != nil {
				return nil, cancelledIn("fgpwc", "warm k-means", ctx.Err())
			}
			if errors.Is(err, kmeans.ErrNonFinite) {
				return nil, fmt.Errorf("%w: fgpwc: warm k-means: %w", ErrNumerical, err)
			}
			return nil, fmt.Errorf("cluster: fgpwc: warm k-means: %w", err)
		}
		best = r
	}
	if extra > 0 {
		// The run's settings with the restart count replaced: the same
		// seeded stream (s.src reads only Seed), and the Recorder sees
		// these restarts.
		ks := *s
		ks.Restarts = extra
		if warm {
			ks.Recorder = report(1, "")
		}
		r, err := runKMeans(ctx, emb, k, &ks, extra, sel)
		if err != nil {
			if ctx.Err() != nil {
				return nil, cancelledIn("fgpwc", "k-means restarts after the warm run", ctx.Err())
			}
			return nil, fmt.Errorf("cluster: fgpwc: %w", err)
		}
		if best == nil || score(r) < score(best) || (score(r) == score(best) && r.Distortion < best.Distortion) {
			best = r
		}
	}
	if best == nil {
		return fgpwcKMeans(ctx, emb, k, pairs, 1, s.Seed, s)
	}
	return best.Labels, nil
}
