package cluster

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sync"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// This file holds FGPWC.Imprint, an option beyond the paper (seed 003).
// Seed 003 Alg. 1 embeds the graph alone: V holds the m smallest
// non-trivial eigenvectors of L_sym(W), and the descent can only find
// partitions of the form k-means(V X). When the constrained partition is
// far from span(V), no X reaches it. Spectral Learning (Kamvar, Klein and
// Manning 2003; seed 000 §4.1.1; SPEC §7) puts the constraints into the
// affinity instead: W_ij ← the largest similarity for a must-link, 0 for a
// cannot-link. Imprint takes V, its eigenvalues, the automatic m and
// X₀ = (VᵀL_symV)^{-1/2} from that graph and leaves F (seed 003 eq. (1)),
// the descent and the k-means step unchanged; the must-link weight is the
// largest weight of the graph (1 on the RBF and cosine graphs, where Kamvar
// et al. use 1), so it does not depend on the unit of the weights. X₀ is
// then (up to the Laplacian, L_sym here and D − W there) Spectral
// Learning's solution.
//
// Because V depends on the constraints, a fit on a subset of them (a
// cross-validation fold, fgpwc_cv.go) re-embeds the graph with that subset
// imprinted, with the dimension m of the full problem: a basis built with
// the held-out constraints imprinted would satisfy them by construction and
// bias the validation.

// fgpwcImprint returns g with pairs imprinted as in Spectral Learning
// (Kamvar et al. 2003): W_ij = the largest weight w_max of g for a
// must-link (constrainedAffinity adds the edge if there is none), W_ij = 0
// for a cannot-link. Pair weights are confidences, read as SpectralLearning
// reads them: a pair of confidence c = min(1, Σ Pair.W()) (its copies'
// weights summed) moves W_ij that far, W_ij ← (1 − c)·W_ij + c·w_max for a
// must-link and (1 − c)·W_ij for a cannot-link. Unit weights (c ≥ 1) give
// the overwrite above exactly; a weight above 1 imprints no more than 1
// (it still counts in F, seed 003 eq. (1), at its full weight). A node that loses all its edges to cannot-links would make
// L_sym undefined; it gets a self loop of the must-link weight, with a
// warning. A pair that is both a must-link and a cannot-link is an error
// wrapping ErrInvalid, its remedy spelled by s (Settings.Spelling; s may
// be nil). Cost O(nnz + pairs).
func fgpwcImprint(ctx context.Context, g *graph.Graph, pairs []constraint.Pair, s *Settings) (*graph.Graph, []string, error) {
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
	g2, err := constrainedAffinity(ctx, g, &constraint.Set{N: g.N(), Pairs: pairs}, wmax, true, "fgpwc: imprint", s)
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
	g   *graph.Graph
	s   *Settings // for the eigensolver; no recorder
	cfg FGPWC     // FGPWC with defaults applied
	m   int       // dimension of the full problem's basis, used for the folds

	mu    sync.Mutex
	cache map[uint64][]*fgpwcImprintEntry
}

type fgpwcImprintEntry struct {
	pairs []constraint.Pair
	once  sync.Once
	b     *FGPWCBasis
	err   error
}

func newFGPWCImprinter(cfg FGPWC, g *graph.Graph, s *Settings) *fgpwcImprinter {
	quiet := *s
	quiet.Recorder = nil
	return &fgpwcImprinter{g: g, s: &quiet, cfg: cfg, cache: map[uint64][]*fgpwcImprintEntry{}}
}

// embed returns the basis of the graph with pairs imprinted, of dimension
// m (0: automatic, as FGPWC.M).
func (im *fgpwcImprinter) embed(ctx context.Context, pairs []constraint.Pair, m int) (*FGPWCBasis, error) {
	g2, warns, err := fgpwcImprint(ctx, im.g, pairs, im.s)
	if err != nil {
		return nil, err
	}
	cfg := im.cfg
	cfg.M = m
	b, err := cfg.basis(ctx, g2, im.s)
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
