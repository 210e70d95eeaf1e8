package cluster

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// This file holds two options of FGPWC beyond the paper (seed 003): the
// embedding of the constraint-imprinted graph (FGPWC.Imprint) and the
// iteration cap chosen by cross-validation on the constraints
// (FGPWC.IterCV).
//
// Imprint. Seed 003 Alg. 1 embeds the graph alone: V holds the m smallest
// non-trivial eigenvectors of L_sym(W), and the descent can only find
// partitions of the form k-means(V X). When the constrained partition is
// far from span(V) (the interlaced circles of the reproduction table: the
// plain graph's 180 eigenvectors below 0.9 give 0.26 ARI), no X reaches
// it. Spectral Learning (Kamvar, Klein and Manning 2003; seed 000 §4.1.1;
// SPEC §7) puts the constraints into the affinity instead: W_ij ← the
// largest similarity for a must-link, 0 for a cannot-link. Imprint takes V,
// its eigenvalues, the automatic m and X₀ = (VᵀL_symV)^{-1/2} from that
// graph and leaves F (seed 003 eq. (1)), the descent and the k-means step
// unchanged; the must-link weight is the largest weight of the graph (1 on
// the RBF and cosine graphs, where Kamvar et al. use 1), so it does not
// depend on the unit of the weights. The descent then refines an embedding
// that already carries the constraints, and X₀ is (up to the Laplacian,
// L_sym here and D − W there) Spectral Learning's solution.
//
// Because V depends on the constraints, a fit on a subset of them (a
// cross-validation fold of CrossValidate, AutoTune or IterCV) re-embeds the
// graph with that subset imprinted, with the dimension m of the full
// problem: a basis built with the held-out constraints imprinted would
// satisfy them by construction and bias the validation.
//
// IterCV. The descent's iteration cap is FGPWC's regularizer (see
// FGPWCMaxIter): run longer, the O(m²) free parameters fit the few
// constraints and the unconstrained pairs get worse. The default cap was
// set on the reproduction table with the ground truth; how far the
// constraints support the descent depends on the data and on the
// embedding (an imprinted embedding already satisfies most must-links, and
// the paper's cap then overfits). IterCV picks the cap among
// {0, c/5, c/2, c, 2c} (c = the configured cap) as CrossValidate picks the
// σ's: stratified folds, fits on the other folds, score = held-out violated
// weight; ties go to c, then to the smaller cap. A cap of 0 keeps X₀.

// FGPWCIterCVFolds is the number of cross-validation folds of
// FGPWC.IterCV when TuneFolds is 0: fewer than AutoTune's 5, because with
// Imprint every fold costs an embedding.
const FGPWCIterCVFolds = 3

// fgpwcImprint returns g with pairs imprinted as in Spectral Learning
// (Kamvar et al. 2003): W_ij = the largest weight of g for a must-link
// (constrainedAffinity adds the edge if there is none), W_ij = 0 for a
// cannot-link. A node that loses all its edges to cannot-links would make
// L_sym undefined; it gets a self loop of the must-link weight, with a
// warning. A pair that is both a must-link and a cannot-link is an error
// wrapping ErrInvalid. Cost O(nnz + pairs).
func fgpwcImprint(g *graph.Graph, pairs []constraint.Pair) (*graph.Graph, []string, error) {
	if len(pairs) == 0 {
		return g, nil, nil
	}
	wmax := 0.0
	for i := 0; i < g.N(); i++ {
		_, w := g.Row(i)
		for _, x := range w {
			wmax = math.Max(wmax, x)
		}
	}
	if !(wmax > 0) {
		return nil, nil, fmt.Errorf("%w: fgpwc: imprint: the graph has no positive weight", ErrInvalid)
	}
	g2, err := constrainedAffinity(g, &constraint.Set{N: g.N(), Pairs: pairs}, wmax, "fgpwc: imprint")
	if err != nil {
		return nil, nil, err
	}
	var cut []int
	for _, i := range g2.Isolated() {
		if g.Degree(i) > 0 {
			cut = append(cut, i)
		}
	}
	if len(cut) == 0 {
		return g2, nil, nil
	}
	edges := g2.Edges()
	for _, i := range cut {
		edges = append(edges, graph.Edge{I: i, J: i, W: wmax})
	}
	if g2, err = graph.FromEdges(g.N(), edges); err != nil {
		return nil, nil, fmt.Errorf("cluster: fgpwc: imprint: %w", err)
	}
	warn := fmt.Sprintf("fgpwc: imprint: cannot-links removed every edge of %d node(s) (first: %d); they get a self loop of weight %.3g", len(cut), cut[0], wmax)
	return g2, []string{warn}, nil
}

// fgpwcImprinter computes and caches the embeddings of one graph with
// constraint sets imprinted (FGPWC.Imprint).
type fgpwcImprinter struct {
	f   FGPWC
	g   *graph.Graph
	s   *Settings // for the eigensolver; no recorder
	cfg fgpwcConfig
	m   int // dimension of the full problem's basis, used for the folds

	mu    sync.Mutex
	cache map[uint64][]*fgpwcImprintEntry
}

type fgpwcImprintEntry struct {
	pairs []constraint.Pair
	once  sync.Once
	b     *FGPWCBasis
	err   error
}

func newFGPWCImprinter(f FGPWC, g *graph.Graph, s *Settings, cfg fgpwcConfig) *fgpwcImprinter {
	quiet := *s
	quiet.Recorder = nil
	return &fgpwcImprinter{f: f, g: g, s: &quiet, cfg: cfg, cache: map[uint64][]*fgpwcImprintEntry{}}
}

// embed returns the basis of the graph with pairs imprinted, of dimension
// m (0: automatic, as FGPWC.M).
func (im *fgpwcImprinter) embed(ctx context.Context, pairs []constraint.Pair, m int) (*FGPWCBasis, error) {
	g2, warns, err := fgpwcImprint(im.g, pairs)
	if err != nil {
		return nil, err
	}
	cfg := im.cfg
	cfg.m = m
	b, err := im.f.basis(ctx, g2, im.s, cfg)
	if err != nil {
		return nil, err
	}
	b.warnings = append(warns, b.warnings...)
	return b, nil
}

// cached returns embed(pairs, im.m), computed once per distinct constraint
// list (concurrent callers wait for the first).
func (im *fgpwcImprinter) cached(ctx context.Context, pairs []constraint.Pair) (*FGPWCBasis, error) {
	h := fnv.New64a()
	var buf [8]byte
	put := func(x uint64) {
		for i := range buf {
			buf[i] = byte(x >> (8 * i))
		}
		h.Write(buf[:])
	}
	for _, q := range pairs {
		put(uint64(q.I))
		put(uint64(q.J))
		put(uint64(q.Kind))
		put(math.Float64bits(q.Weight))
	}
	key := h.Sum64()
	im.mu.Lock()
	var e *fgpwcImprintEntry
	for _, c := range im.cache[key] {
		if slices.Equal(c.pairs, pairs) {
			e = c
			break
		}
	}
	if e == nil {
		e = &fgpwcImprintEntry{pairs: pairs}
		im.cache[key] = append(im.cache[key], e)
	}
	im.mu.Unlock()
	e.once.Do(func() { e.b, e.err = im.embed(ctx, pairs, im.m) })
	return e.b, e.err
}

// basisFor returns the basis for a fit on pairs: the problem's own basis
// unless Imprint is on and pairs is not the problem's constraint list
// (a cross-validation fold), which is then imprinted in its own basis.
func (prep *fgpwcPrep) basisFor(ctx context.Context, pairs []constraint.Pair) (*FGPWCBasis, error) {
	if prep.imprint == nil || (len(pairs) == len(prep.pairs) && (len(pairs) == 0 || &pairs[0] == &prep.pairs[0])) {
		return prep.FGPWCBasis, nil
	}
	return prep.imprint.cached(ctx, pairs)
}

// fgpwcIterCandidates returns the caps IterCV tries for a configured cap
// c: {0, c/5, c/2, c, 2c} (integer division), ascending, without repeats.
func fgpwcIterCandidates(c int) []int {
	out := []int{0, c / 5, c / 2, c, 2 * c}
	slices.Sort(out)
	return slices.Compact(out)
}

// fgpwcIterChoice is the outcome of IterCV.
type fgpwcIterChoice struct {
	maxIter int
	score   float64 // the winner's held-out violated weight; NaN if not validated
	mean    float64 // the mean over the candidates; NaN if not validated
	warning string
}

// iterCV picks the descent's iteration cap by cross-validation on the
// constraints (FGPWC.IterCV): the constraints are split into stratified
// folds (fgpwcFolds, seeded by Settings.Seed), FGPWC is fitted on the other
// folds for every candidate cap (k-means with min(Restarts, 5) runs keeping
// the fewest training violations), and the cap with the smallest total
// held-out violated weight wins; ties go to the configured cap, then to
// the smaller one. With fewer than 2 constraints the configured cap is
// kept. Cost: folds × candidates descents and k-means calls (GOMAXPROCS at
// a time), plus one embedding per fold with Imprint.
func (prep *fgpwcPrep) iterCV(ctx context.Context, k int, s *Settings, cfg fgpwcConfig) (fgpwcIterChoice, error) {
	cands := fgpwcIterCandidates(cfg.maxIter)
	cfgs := make([]fgpwcConfig, len(cands))
	for i, c := range cands {
		cfgs[i] = cfg
		cfgs[i].maxIter = c
	}
	score, err := prep.heldOut(ctx, k, s, cfgs, cfg.iterFolds)
	if err != nil {
		return fgpwcIterChoice{}, err
	}
	if score == nil {
		return fgpwcIterChoice{maxIter: cfg.maxIter, score: math.NaN(), mean: math.NaN(), warning: fmt.Sprintf("fgpwc: %d constraints: too few to cross-validate the iteration cap; MaxIter = %d kept", len(prep.pairs), cfg.maxIter)}, nil
	}
	folds := min(cfg.iterFolds, len(prep.pairs))
	best := -1
	var parts []string
	mean := 0.0
	for ci, c := range cands {
		mean += score[ci] / float64(len(cands))
		parts = append(parts, fmt.Sprintf("%d: %.4g", c, score[ci]))
		switch {
		case best < 0 || score[ci] < score[best]:
			best = ci
		case score[ci] == score[best] && c == cfg.maxIter:
			best = ci
		}
	}
	return fgpwcIterChoice{
		maxIter: cands[best],
		score:   score[best],
		mean:    mean,
		warning: fmt.Sprintf("fgpwc: cross-validation (%d folds) chose MaxIter = %d (held-out violated weight per cap: %s)", folds, cands[best], strings.Join(parts, ", ")),
	}, nil
}

// heldOut returns, for every configuration of cfgs, the total weight of
// held-out constraints violated over the folds of fgpwcSplit(pairs,
// min(folds, len(pairs)), Settings.Seed) when FGPWC is fitted on the other
// folds (k-means with min(Restarts, 5) runs keeping the fewest training
// violations; with Imprint every fold is re-embedded with its training
// constraints). It returns nil when there are fewer than 2 constraints.
// The fits run GOMAXPROCS at a time.
func (prep *fgpwcPrep) heldOut(ctx context.Context, k int, s *Settings, cfgs []fgpwcConfig, folds int) ([]float64, error) {
	pairs := prep.pairs
	folds = min(folds, len(pairs))
	if folds < 2 {
		return nil, nil
	}
	train, test := fgpwcSplit(pairs, folds, s.Seed)
	quiet := *s
	quiet.Recorder = nil
	cvRestarts := min(restarts(s, fgpwcRestarts(prep.n)), 5)
	viol := make([]float64, len(cfgs)*folds)
	err := parallelTasks(ctx, len(cfgs)*folds, func(t int) error {
		ci, fi := t/folds, t%folds
		res, _, err := prep.fit(ctx, train[fi], k, &quiet, cfgs[ci], cvRestarts, s.Seed)
		if err != nil {
			return err
		}
		viol[t] = violationWeight(test[fi], res.Labels)
		return nil
	})
	if err != nil {
		return nil, err
	}
	score := make([]float64, len(cfgs))
	for t, v := range viol {
		score[t/folds] += v
	}
	return score, nil
}
