package synth

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/testctx"
)

// countingCtx is a context that is never cancelled and counts the calls
// of its Err: how often a generator polls it.
type countingCtx struct {
	context.Context
	calls atomic.Int64
}

func (c *countingCtx) Err() error {
	c.calls.Add(1)
	return nil
}

func newCountingCtx() *countingCtx { return &countingCtx{Context: context.Background()} }

// pointCase is one point generator, called three ways: its function
// without context (old and new) and the registry's Generate, which tether
// gen calls.
type pointCase struct {
	name string
	p    Params
	old  func(p Params, src rand.Source) (*mat.Dense, []int, error)
	ctx  func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error)
	dim  int
}

func pointCases() []pointCase {
	return []pointCase{
		{"moons", Params{Noise: 0.1}, func(p Params, src rand.Source) (*mat.Dense, []int, error) { return oldMoons(p.N, p.Noise, src) },
			func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error) {
				return MoonsContext(ctx, p.N, p.Noise, src)
			}, 2},
		{"circles", Params{Noise: 0.05, Factor: 0.5}, func(p Params, src rand.Source) (*mat.Dense, []int, error) {
			return oldCircles(p.N, p.Noise, p.Factor, src)
		}, func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error) {
			return CirclesContext(ctx, p.N, p.Noise, p.Factor, src)
		}, 2},
		{"interlaced", Params{K: 3, Noise: 0.05}, func(p Params, src rand.Source) (*mat.Dense, []int, error) {
			return oldInterlacedCircles(p.N, p.K, p.Noise, src)
		}, func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error) {
			return InterlacedCirclesContext(ctx, p.N, p.K, p.Noise, src)
		}, 2},
		{"xor", Params{Noise: 0.2}, func(p Params, src rand.Source) (*mat.Dense, []int, error) { return oldXOR(p.N, p.Noise, src) },
			func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error) {
				return XORContext(ctx, p.N, p.Noise, src)
			}, 2},
		{"blobs", Params{K: 3, Dim: 2, Noise: 1}, func(p Params, src rand.Source) (*mat.Dense, []int, error) {
			return oldBlobs(p.N, p.K, p.Dim, p.Noise, src)
		}, func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error) {
			return BlobsContext(ctx, p.N, p.K, p.Dim, p.Noise, src)
		}, 2},
		{"blobs", Params{K: 4, Dim: 100, Noise: 0.5}, func(p Params, src rand.Source) (*mat.Dense, []int, error) {
			return oldBlobs(p.N, p.K, p.Dim, p.Noise, src)
		}, func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error) {
			return BlobsContext(ctx, p.N, p.K, p.Dim, p.Noise, src)
		}, 100},
	}
}

// TestContextGeneratorsSameAsOld checks that the point generators, with
// or without a context and through the registry, and DCSBMContext, whose
// sort became interruptible, draw exactly the data of the code before
// they polled a context (oldsynth_test.go), for the same seed: sizes
// across the polling period included.
func TestContextGeneratorsSameAsOld(t *testing.T) {
	ctx := context.Background()
	for _, tc := range pointCases() {
		g, err := Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 7, 900, 3*pollPoints(tc.dim) + 5} {
			for _, seed := range []uint64{1, 2, 42} {
				p := tc.p
				p.N = n
				if n < max(p.K, 1) {
					continue
				}
				name := fmt.Sprintf("%s dim %d n=%d seed %d", tc.name, tc.dim, n, seed)
				wx, wl, err := tc.old(p, rand.NewPCG(seed, seed))
				if err != nil {
					t.Fatalf("%s: old: %v", name, err)
				}
				gx, gl, err := tc.ctx(ctx, p, rand.NewPCG(seed, seed))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				d, err := g.Generate(ctx, p, rand.NewPCG(seed, seed))
				if err != nil {
					t.Fatalf("%s: Generate: %v", name, err)
				}
				if !mat.Equal(gx, wx) || !slices.Equal(gl, wl) {
					t.Errorf("%s: the Context function's data differ from the old code's", name)
				}
				if !mat.Equal(d.X, wx) || !slices.Equal(d.Labels, wl) {
					t.Errorf("%s: Generate's data differ from the old code's", name)
				}
			}
		}
	}
	for _, tc := range []struct {
		n, k      int
		cin, cout float64
		gamma     float64
	}{{1000, 2, 10, 2, 2.5}, {20000, 3, 12, 3, 2.5}, {20000, 2, 8, 2, 0}, {5, 1, 5, 0, 3}} {
		for _, seed := range []uint64{1, 7} {
			name := fmt.Sprintf("dcsbm %+v seed %d", tc, seed)
			wg, wl, wt, err := oldDCSBMContext(ctx, tc.n, tc.k, tc.cin, tc.cout, tc.gamma, rand.NewPCG(seed, seed))
			if err != nil {
				t.Fatalf("%s: old: %v", name, err)
			}
			g, l, th, err := DCSBMContext(ctx, tc.n, tc.k, tc.cin, tc.cout, tc.gamma, rand.NewPCG(seed, seed))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !slices.Equal(g.Edges(), wg.Edges()) || !slices.Equal(l, wl) || !slices.Equal(th, wt) {
				t.Errorf("%s: graph, labels or θ differ from the old code's (%d and %d edges)", name, len(g.Edges()), len(wg.Edges()))
			}
		}
	}
}

// TestPointGeneratorsCancel checks that every point generator, called
// through Generate as tether gen calls it, polls its context while it
// draws and checks the points (before every pollPoints(dim) points of
// each pass), and stops at the first poll that finds it cancelled with
// the context's error. Counted, not timed: the old generators polled
// only once, in Generate, before drawing anything, and ran to the end
// after that (30·10⁶ moons took 1.3–1.7 s to stop after Ctrl-C).
func TestPointGeneratorsCancel(t *testing.T) {
	for _, tc := range pointCases() {
		g, err := Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		every := pollPoints(tc.dim)
		p := tc.p
		p.N = 5*every + 3
		name := fmt.Sprintf("%s dim %d n=%d", tc.name, tc.dim, p.N)
		c := newCountingCtx()
		if _, err := g.Generate(c, p, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Generate's own check, then 6 polls while drawing and 6 while
		// checking the values.
		polls := int(c.calls.Load())
		if want := 1 + 2*6; polls < want {
			t.Fatalf("%s: %d polls of the context, want at least %d (one every %d points of each pass)", name, polls, want, every)
		}
		for k := 0; k < polls; k++ {
			d, err := g.Generate(testctx.CancelAfter(k), p, nil)
			if !errors.Is(err, context.Canceled) || d != nil {
				t.Errorf("%s: cancelled at poll %d of %d: data %v, err = %v; want none and context.Canceled", name, k+1, polls, d != nil, err)
			}
		}
		if _, err := g.Generate(testctx.CancelAfter(polls), p, nil); err != nil {
			t.Errorf("%s: cancelled after the last poll: %v", name, err)
		}
	}
}

// TestGraphGeneratorsCancelWhileBuilding checks that sbm and dcsbm poll
// their context while they build the graph from the sampled edges
// (graph.FromEdgesContext: three passes over the m edges, every 4096),
// and dcsbm while it sorts them too, not only while sampling (about m/4096
// polls): the old code built the graph without polling (seconds on the
// 5·10⁶ nodes of tether gen sbm). Cancelled at the last poll, they
// return context.Canceled and no graph.
func TestGraphGeneratorsCancelWhileBuilding(t *testing.T) {
	const n = 100_000
	for _, name := range []string{"sbm", "dcsbm"} {
		g, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		p := g.Defaults
		p.N = n
		c := newCountingCtx()
		d, err := g.Generate(c, p, rand.NewPCG(3, 3))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m := len(d.Graph.Edges())
		polls := int(c.calls.Load())
		// Sampling polls about m/4096 times; building the graph 3·m/4096
		// times more, and n/4096 in its compaction.
		if want := 3 * m / 4096; polls < want {
			t.Errorf("%s: %d polls for %d edges, want at least %d: the graph is not built with the context", name, polls, m, want)
		}
		for _, k := range []int{polls - 1, polls - 2, polls - 50, polls / 2} {
			d, err := g.Generate(testctx.CancelAfter(k), p, rand.NewPCG(3, 3))
			if !errors.Is(err, context.Canceled) || d != nil {
				t.Errorf("%s: cancelled at poll %d of %d: data %v, err = %v; want none and context.Canceled", name, k+1, polls, d != nil, err)
			}
		}
		if d, err := g.Generate(testctx.CancelAfter(polls), p, rand.NewPCG(3, 3)); err != nil || !slices.Equal(d.Graph.Edges(), graphEdges(t, g, p)) {
			t.Errorf("%s: cancelled after the last poll: err = %v, or another graph", name, err)
		}
	}
}

// graphEdges returns the edges of the graph g draws with p and seed 3.
func graphEdges(t *testing.T, g Generator, p Params) []graph.Edge {
	t.Helper()
	d, err := g.Generate(context.Background(), p, rand.NewPCG(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	return d.Graph.Edges()
}
