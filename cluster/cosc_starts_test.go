package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/progress"
)

// This file keeps bisect as it was before its random starts were drawn
// in batches (bisectOld: every start drawn before any ran, Starts·n·8
// bytes, with no check of ctx) as the oracle of TestCOSCStartsSameAsOld.

// bisectOld is bisect before the batches: it returns the best two-way split (inC over super-nodes) of cg, or
// ok = false when no split has positive volume on both sides.
func (bs *coscBisector) bisectOld(ctx context.Context, cg *coscGraph) (inC []bool, ok bool, err error) {
	id := bs.count
	bs.count++
	positive := 0
	for _, b := range cg.b {
		if b > 0 {
			positive++
		}
	}
	if cg.n < 2 || positive < 2 {
		return nil, false, nil
	}
	col := colourCannotLinks(cg)
	consistent := col.odd < 0
	if !consistent && bs.exact {
		return nil, false, bs.oddCycleError(cg, col)
	}
	rng := rand.New(streamSrc(bs.s.Seed, streamCOSC+stream(0x100*id)))
	f0, err := bs.spectral(ctx, cg)
	if err != nil {
		return nil, false, fmt.Errorf("cluster: cosc: bisection %d: spectral start: %w", id, err)
	}
	randomVec := func() []float64 {
		f := make([]float64, cg.n)
		for i := range f {
			f[i] = rng.NormFloat64()
		}
		return f
	}
	var starts [][]float64
	if f0 != nil {
		starts = append(starts, f0)
	} else {
		f0 = randomVec()
	}
	side0, _, found := consistentSplit(cg, col, f0)
	if !found {
		return nil, false, nil
	}
	lambda0 := improveConsistent(cg, col, side0)
	switch {
	case len(cg.cl) == 0:
	case consistent && bs.exact:
		cg.gamma = theorem3Gamma(cg, lambda0)
	default:
		// No consistent split (k > 2): violating every cannot-link costs
		// about the least unconstrained Ncut λ_s of f₀'s thresholds.
		cg.gamma = cg.vol / 4 * unconstrainedSweep(cg, f0) / (cg.volQ / 2)
	}
	bestF, _, _ := cg.setValue(side0)
	best := append([]bool(nil), side0...)
	ind := make([]float64, cg.n)
	indicator(ind, side0)
	starts = append([][]float64{ind}, starts...)
	for k := 0; k < bs.cfg.starts; k++ {
		starts = append(starts, randomVec())
	}
	// The starts are independent (ratioDCA resets the dual variables), so
	// they run concurrently, each worker on its own scratch state; the
	// results are then taken in start order, as a sequential loop would.
	runs := make([]*coscRun, len(starts))
	traces := make([][]float64, len(starts))
	var mu sync.Mutex
	var states []*coscState
	var done atomic.Int64
	err = parallel.ForState(ctx, len(starts), 0, func() *coscState {
		st := newCOSCState(cg, bs.cfg.innerGap, coscMaxInner)
		mu.Lock()
		states = append(states, st)
		mu.Unlock()
		return st
	}, func(st *coscState, k int) error {
		run, err := st.ratioDCA(ctx, starts[k], bs.cfg.maxIter, coscOuterTol)
		if err != nil {
			return fmt.Errorf("start %d: %w", k+1, err)
		}
		runs[k] = run
		if bs.traces != nil {
			traces[k] = append([]float64(nil), st.trace...)
		}
		progress.Send(bs.s.Recorder, progress.Event{Stage: "cosc", Done: int(done.Add(1)), Total: len(starts), Message: fmt.Sprintf("bisection %d: F̂_γ = %.6g", id, run.fhat)})
		return nil
	})
	if err != nil {
		// Only a cancellation stops the starts.
		return nil, false, fmt.Errorf("cluster: cosc: bisection %d: %w", id, err)
	}
	for _, st := range states {
		bs.rejected += st.rejected
	}
	for k, run := range runs {
		bs.iters += run.iters
		if bs.traces != nil {
			*bs.traces = append(*bs.traces, traces[k])
		}
		if math.IsInf(run.fhat, 1) {
			continue
		}
		fh, _, viol := cg.setValue(run.inC)
		if consistent && bs.exact && viol > 0 {
			continue
		}
		if fh < bestF {
			bestF = fh
			copy(best, run.inC)
		}
	}
	bs.last.gamma, bs.last.lambda0, bs.last.fhat, bs.last.starts = cg.gamma, lambda0, bestF, len(starts)
	return best, true, nil
}

// splitOld is split calling bisectOld.
func (bs *coscBisector) splitOld(ctx context.Context, nodes []int) (bisection, error) {
	sp := bisection{nodes: nodes}
	if len(nodes) < 2 {
		return sp, nil
	}
	cg, super, err := bs.reduce(nodes)
	if err != nil {
		return sp, err
	}
	inC, ok, err := bs.bisectOld(ctx, cg)
	if err != nil || !ok {
		return sp, err
	}
	sp.sideA = make([]bool, len(nodes))
	for k := range nodes {
		sp.sideA[k] = inC[super[k]]
	}
	sp.ok = true
	sp.delta = splitDelta(bs.g, nodes, sp.sideA, true)
	return sp, nil
}

// coscStartsRun is what a COSC partition computes and reports, for the
// comparison of bisect with bisectOld.
type coscStartsRun struct {
	labels          []int
	objective       float64
	iters, rejected int
	traces          [][]float64
	fhat            float64
	starts          int
}

// coscPartitionSplit runs COSC c on p as Partition does from its bisector
// on (the pairs of p.Constraints), with split (bisect's) or, old, splitOld
// (bisectOld's), and returns what it computed. Cost: one COSC run.
func coscPartitionSplit(t *testing.T, c COSC, p *Problem, seed uint64, old bool) coscStartsRun {
	t.Helper()
	ctx := context.Background()
	s, err := partitionArgs(ctx, c, p, &Settings{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := c.config()
	if err != nil {
		t.Fatal(err)
	}
	pairs := p.Constraints.Pairs
	comp, _ := constraint.Closure(&constraint.Set{N: p.Graph.N(), Pairs: pairs})
	var traces [][]float64
	b := &coscBisector{g: p.Graph, comp: comp, pairs: pairs, cfg: cfg, s: s, exact: p.K == 2, traces: &traces}
	split := b.split
	if old {
		split = b.splitOld
	}
	labels, _, err := recursiveBisection(ctx, "cosc", p.Graph.N(), p.K, split)
	if err != nil || labels == nil {
		t.Fatalf("old %v: labels %v, %v", old, labels != nil, err)
	}
	return coscStartsRun{labels: labels, objective: kwayNcut(p.Graph, labels, p.K), iters: b.iters, rejected: b.rejected, traces: traces, fhat: b.last.fhat, starts: b.last.starts}
}

// TestCOSCStartsSameAsOld: bisect, whose random starts are drawn and run
// in batches of twice the workers, gives exactly what bisectOld gave
// (every start drawn first, then all run): the same labels, objective,
// RatioDCA steps, rejected steps, λ trace of every start in start order,
// and last bisection's F̂_γ and number of starts, on k-NN graphs of blobs
// with k = 2 to 4 (k > 2: recursive bisection, a random stream per
// bisection) and on a random graph with a node of degree 0 (no spectral
// start: the first random vector is drawn for f₀), with Starts −1 (none),
// 1, the default 6 and 13 (several batches on any machine up to 3 cores;
// GOMAXPROCS here is logged).
func TestCOSCStartsSameAsOld(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	t.Logf("GOMAXPROCS %d: batches of %d starts", runtime.GOMAXPROCS(0), 2*parallel.Workers(0, 1<<20))
	type tc struct {
		name string
		p    *Problem
	}
	var cases []tc
	for _, k := range []int{2, 3, 4} {
		p, _ := coscBlobsProblem(t, 150+50*k, k, uint64(10+k), 30*k)
		cases = append(cases, tc{fmt.Sprintf("blobs-k%d", k), p})
	}
	rng := rand.New(rand.NewPCG(7, 8))
	g := coscRandomGraph(t, rng, 40, 0.15, 5)
	truth := make([]int, 40)
	for i := range truth {
		truth[i] = i % 2
	}
	cases = append(cases, tc{"isolated-node-k2", &Problem{Graph: g, K: 2, Constraints: coscRandomPairs(rand.New(rand.NewPCG(9, 1)), truth, 8)}})
	for _, c := range cases {
		for _, starts := range []int{-1, 1, 0, 13} {
			for _, seed := range []uint64{1, 29} {
				t.Run(fmt.Sprintf("%s/starts%d/seed%d", c.name, starts, seed), func(t *testing.T) {
					m := COSC{Starts: starts, MaxIter: 15}
					want := coscPartitionSplit(t, m, c.p, seed, true)
					got := coscPartitionSplit(t, m, c.p, seed, false)
					if !slices.Equal(got.labels, want.labels) {
						t.Fatalf("labels differ from the old bisect's: %v, want %v", got.labels, want.labels)
					}
					if got.objective != want.objective || got.iters != want.iters || got.rejected != want.rejected || got.fhat != want.fhat || got.starts != want.starts {
						t.Errorf("objective %v, %d steps, %d rejected, F̂ %v, %d starts; old %v, %d, %d, %v, %d", got.objective, got.iters, got.rejected, got.fhat, got.starts, want.objective, want.iters, want.rejected, want.fhat, want.starts)
					}
					if len(got.traces) != len(want.traces) {
						t.Fatalf("%d traces, old %d", len(got.traces), len(want.traces))
					}
					for i := range got.traces {
						if !slices.Equal(got.traces[i], want.traces[i]) {
							t.Errorf("trace of start %d: %v, old %v", i, got.traces[i], want.traces[i])
						}
					}
				})
			}
		}
	}
}

// TestCOSCStartsMemory: a bisection with Starts = 20 000 random starts on
// 300 nodes, cancelled when its first start ends (a progress event), has
// allocated no more than one with Starts = 2 plus 2 MB, and returns
// context.Canceled naming cosc; the old bisect drew every start first:
// 20 000·300·8 = 48 MB before the first ran. TotalAlloc counts every
// allocation of the process, so the test runs alone (not parallel).
func TestCOSCStartsMemory(t *testing.T) {
	p, _ := coscBlobsProblem(t, 300, 2, 3, 40)
	alloc := func(starts int) uint64 {
		bs, cg := coscReduced(t, p.Graph, p.Constraints.Pairs, coscConfig{starts: starts, maxIter: 40, innerGap: 0.1})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		bs.s.Recorder = progress.Func(func(progress.Event) { cancel() })
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, _, err := bs.bisect(ctx, cg)
		runtime.ReadMemStats(&after)
		if !errors.Is(err, context.Canceled) || err == nil || !strings.HasPrefix(err.Error(), "cluster: cosc: bisection 0: ") {
			t.Fatalf("Starts = %d, cancelled at the first start's end: %v, want context.Canceled naming cosc's bisection", starts, err)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(2), alloc(20000)
	t.Logf("allocated %d bytes with Starts = 2, %d with Starts = 20 000", small, large)
	if large > small+2<<20 {
		t.Errorf("Starts = 20 000 allocated %d bytes, Starts = 2 %d: want at most 2 MB more (the starts drawn in batches)", large, small)
	}
}

// TestCOSCStartsCancelAtEveryPoll: a bisection with many random starts
// cancelled at any of its polls of ctx (pollCtx) returns an error
// wrapping context.Canceled that names cosc's bisection, and a bisection
// with Starts = 10⁵ random starts polls ctx before drawing each of them:
// cancelled at poll 50, it has drawn far fewer than 10⁵ (a run that is
// never cancelled is not tried: it would take minutes).
func TestCOSCStartsCancelAtEveryPoll(t *testing.T) {
	p, _ := coscBlobsProblem(t, 120, 2, 4, 20)
	bs, cg := coscReduced(t, p.Graph, p.Constraints.Pairs, coscConfig{starts: 12, maxIter: 10, innerGap: 0.1})
	ctx := newPollCtx(0)
	if _, _, err := bs.bisect(ctx, cg); err != nil {
		t.Fatal(err)
	}
	polls := ctx.calls.Load()
	for _, k := range pollPoints(polls) {
		bs, cg := coscReduced(t, p.Graph, p.Constraints.Pairs, coscConfig{starts: 12, maxIter: 10, innerGap: 0.1})
		_, _, err := bs.bisect(newPollCtx(k), cg)
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "cluster: cosc: bisection 0: ") {
			t.Fatalf("cancelled at poll %d of %d: %v, want context.Canceled naming cosc's bisection", k, polls, err)
		}
	}
	bs, cg = coscReduced(t, p.Graph, p.Constraints.Pairs, coscConfig{starts: 100000, maxIter: 10, innerGap: 0.1})
	var events atomic.Int64
	bs.s.Recorder = progress.Func(func(progress.Event) { events.Add(1) })
	if _, _, err := bs.bisect(newPollCtx(50), cg); !errors.Is(err, context.Canceled) {
		t.Fatalf("Starts = 10⁵ cancelled at poll 50: %v, want context.Canceled", err)
	}
	if e := events.Load(); e > 50 {
		t.Errorf("%d starts ended after a cancel at poll 50", e)
	}
}
