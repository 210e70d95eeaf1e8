package cluster

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/eigen"
)

// cancelNameCase is a run that TestCancelNamesMethodAndStage cancels at
// the first and the last poll of ctx from each of its poll sites
// (pollSites).
type cancelNameCase struct {
	name string
	m    Method
	p    *Problem
	s    *Settings
}

// cancelNameCases returns the runs of TestCancelNamesMethodAndStage: every
// registered method with its default knobs on cancelProblem(n) (n = 60,
// smaller where a run polls ctx hundreds of times; auto with 2 folds and
// l1csc with 2 starts of 3 steps, whose defaults repeat the same steps
// more often), again with the iterative eigensolver LOBPCG in place of the
// dense one (other steps of the embeddings poll then; not for auto, whose
// candidates are these methods), and on the 24-node graph with isolated
// nodes and a small component of disconnectedProblem for the methods
// that cluster its core (Uses.Core); then the knobs that take other paths
// to a cancellation point (the strict label methods, with every class
// labelled; the pair forms of NOA-SSC's resolve, reference partition and
// cross-validated refinement, on pairs of which a tenth are flipped;
// fgpwc's cross-validations; the other kernels, embeddings, two-way paths
// and k estimates). opplc polls every 4096 nodes: it runs on a 4097-node
// path. Settings.Restarts = 2 keeps k-means short; the restarts repeat
// one step.
func cancelNameCases(t *testing.T) []cancelNameCase {
	t.Helper()
	size := map[string]int{"auto": 16, "l1csc": 24, "cosc": 40, "cvqe": 40, "fgpwc": 40}
	sizeOf := func(name string) int {
		if n, ok := size[name]; ok {
			return n
		}
		return 60
	}
	lighter := map[string]Method{"auto": Auto{Folds: 2}, "l1csc": L1CSC{Starts: 2, MaxIter: 3}}
	var cases []cancelNameCase
	add := func(name string, m Method, p *Problem, s *Settings) {
		if s == nil {
			s = &Settings{Seed: 1, Restarts: 2}
		}
		cases = append(cases, cancelNameCase{name: name, m: m, p: p, s: s})
	}
	lobpcg := &Settings{Seed: 1, Restarts: 2, Eigen: eigen.LOBPCG{}}
	base, labels, cons := disconnectedProblem(t)
	for _, info := range Methods() {
		m := info.New()
		if l, ok := lighter[info.Name]; ok {
			m = l
		}
		if info.Name == "opplc" {
			add("opplc/4097-node path", m, &Problem{Graph: pathGraph(t, 4097)}, nil)
			continue
		}
		n := sizeOf(info.Name)
		add(info.Name, m, cancelProblem(t, n, m.Uses()), nil)
		if info.Name != "auto" {
			add(info.Name+"/lobpcg", m, cancelProblem(t, n, m.Uses()), lobpcg)
		}
		if m.Uses().Core {
			add(info.Name+"/core", m, supervised(base, m.Uses(), labels, cons), nil)
		}
	}
	for _, m := range []Method{SSCKA{Objective: NormalizedCut}, PLMeans{Kernel: PLNormalizedCut}} {
		add(m.Name()+"/ncut-kernel/core", m, supervised(base, m.Uses(), labels, cons), nil)
	}
	// Every class labelled: the strict label methods refuse a class
	// without one.
	for _, m := range []Method{MAVRO{Strict: true}, MavroK{Strict: true}, NOASSC{Strict: true}, LabelProp{Strict: true}} {
		p := cancelProblem(t, 60, m.Uses())
		p.Labels = everyClassLabelled(t, 60, p.K)
		add(m.Name()+"/strict", m, p, nil)
	}
	// A tenth of the pairs flipped: they contradict each other, and the
	// pair forms of NOA-SSC resolve them against a reference partition
	// (CSCAP's, whose prior the share builds) and refine the result;
	// mcl-noa-ssc with the refinement and reference fixed, ml-noa-ssc
	// with both cross-validated (5 folds of fits: about 900 polls, nearly
	// all in the folds).
	for _, m := range []Method{MLNOASSC{}, MCLNOASSC{RefineFixed: true, ReferenceFixed: true}} {
		p := cancelProblem(t, 20, m.Uses())
		p.Constraints = flippedPairs(t, p.Constraints, 0.1)
		add(m.Name()+"/contradictions", m, p, nil)
	}
	fgpwc := func(set func(*FGPWC)) *FGPWC {
		f := NewFGPWC()
		set(f)
		return f
	}
	for _, tc := range []struct {
		name string
		m    Method
		k    int // -1: cancelProblem's
	}{
		{"usc/commute", Unnormalized{CommuteTime: true}, -1},
		{"bethe/zeta", BetheHessian{Rule: BetheRuleZeta}, -1},
		{"bethe/k=0", BetheHessian{}, 0},
		{"csc/k=2", CSC{}, 2},
		{"csc/k=2/k-means", CSC{KMeansTwoWay: true}, 2},
		{"csp/k=2", CSP{}, 2},
		{"mavro/eigensolver", MAVRO{Eigensolver: true}, -1},
		{"noa-ssc/eigensolver", NOASSC{Eigensolver: true}, -1},
		{"sscka/ncut", SSCKA{Objective: NormalizedCut}, -1},
		{"plmeans/features", PLMeans{Kernel: PLFeatures}, -1},
		{"cscap/joint", CSCAP{Joint: true}, -1},
		{"fgpwc/itercv", fgpwc(func(f *FGPWC) { f.IterCV = true }), -1},
		{"fgpwc/auto-laplacian", fgpwc(func(f *FGPWC) { f.Laplacian = FGPWCAutoLaplacian }), -1},
		{"fgpwc/imprint", fgpwc(func(f *FGPWC) { f.Imprint = true }), -1},
	} {
		p := cancelProblem(t, min(sizeOf(tc.m.Name()), 40), tc.m.Uses())
		if tc.k >= 0 {
			p.K = tc.k
		}
		add(tc.name, tc.m, p, nil)
	}
	// AutoTune's grid has 100 points, each fitted on every fold: a run
	// polls about 6000 times even with 2 folds of one-step descents, every
	// fit the same code (prep.fit), so from about 110 poll sites.
	tune := fgpwc(func(f *FGPWC) { f.AutoTune, f.TuneFolds, f.MaxIter = true, 2, 1 })
	add("fgpwc/autotune", tune, cancelProblem(t, 40, tune.Uses()), nil)
	return cases
}

// everyClassLabelled returns labels of the n points of cancelProblem(n)
// (their blobs, k ≤ 4 classes) with a tenth of each class labelled, at
// least one node of each (constraint.LabelSets).
func everyClassLabelled(t *testing.T, n, k int) constraint.Labels {
	t.Helper()
	_, truth, err := synth.Blobs(n, 4, 5, 2, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	for i := range truth {
		truth[i] %= k
	}
	sets, err := constraint.LabelSets(truth, 0.1, rand.NewPCG(9, 10))
	if err != nil {
		t.Fatal(err)
	}
	l, err := constraint.SetsToLabels(n, sets)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// flippedPairs returns cons with the fraction f of its pairs flipped
// (constraint.FlipPairs).
func flippedPairs(t *testing.T, cons *constraint.Set, f float64) *constraint.Set {
	t.Helper()
	out, _, err := constraint.FlipPairs(cons, f, rand.NewPCG(11, 12))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// siteCtx is a context that is never cancelled and records, for each call
// of its Err method (each poll, as pollCtx counts them), the poll's site:
// the program counters of the polling goroutine's stack, and, for a poll
// on another goroutine than main (the one that calls Run: a worker of a
// parallel step, whose stack ends at the worker), the part of main's
// stack at its last poll from the outermost parallel.ForState frame out,
// which names the parallel step that started the workers (main polls in
// ForState before starting them, and in its loop as one of them). Like
// pollCtx its Done channel is not nil. Cost per poll: a stack walk, and
// on main the frames' function names.
type siteCtx struct {
	context.Context
	main int64
	done chan struct{}

	mu     sync.Mutex
	ids    map[string]int // site → index
	sites  []int          // the site index of each poll, in order
	anchor string         // main's stack from its outermost ForState frame out
}

func newSiteCtx() *siteCtx {
	return &siteCtx{Context: context.Background(), main: goroutineID(), done: make(chan struct{}), ids: map[string]int{}}
}

func (c *siteCtx) Done() <-chan struct{} { return c.done }

func (c *siteCtx) Err() error {
	var pcs [256]uintptr
	n := runtime.Callers(2, pcs[:])
	site := pcKey(pcs[:n])
	onMain := goroutineID() == c.main
	anchor := ""
	if onMain {
		// The frames from the outermost parallel.ForState out, or none.
		frames := runtime.CallersFrames(pcs[:n])
		outer := -1
		for i := 0; ; i++ {
			f, more := frames.Next()
			if strings.Contains(f.Function, "internal/parallel.ForState") {
				outer = i
			}
			if !more {
				break
			}
		}
		if outer >= 0 {
			anchor = pcKey(pcs[outer:n])
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if onMain {
		c.anchor = anchor
	} else {
		site = c.anchor + "|" + site
	}
	id, ok := c.ids[site]
	if !ok {
		id = len(c.ids)
		c.ids[site] = id
	}
	c.sites = append(c.sites, id)
	return nil
}

// pcKey returns the program counters pcs as a string key.
func pcKey(pcs []uintptr) string {
	var b strings.Builder
	for _, pc := range pcs {
		fmt.Fprintf(&b, "%x,", pc)
	}
	return b.String()
}

// goroutineID returns the id of the calling goroutine, read from the
// first line of its stack trace ("goroutine 17 [running]:"). Cost: one
// runtime.Stack of the current goroutine, cut at 64 bytes.
func goroutineID() int64 {
	var buf [64]byte
	line := string(buf[:runtime.Stack(buf[:], false)])
	line = strings.TrimPrefix(line, "goroutine ")
	id, err := strconv.ParseInt(line[:strings.IndexByte(line, ' ')], 10, 64)
	if err != nil {
		panic("cluster test: no goroutine id in " + line)
	}
	return id
}

// pollSites runs m on p with s, never cancelled, and returns its number
// of polls of ctx, its number of poll sites (siteCtx) and the polls at
// which TestCancelNamesMethodAndStage cancels it: the first and the last
// poll from each site, from poll 2 on (poll 1 is Run's own), ascending.
// It fails t if the run fails. Cost: one run.
func pollSites(t *testing.T, m Method, p *Problem, s *Settings) (polls int64, sites int, at []int64) {
	t.Helper()
	ctx := newSiteCtx()
	if _, err := Run(ctx, m, p, s); err != nil {
		t.Fatalf("uncancelled run: %v", err)
	}
	first := map[int]int64{}
	last := map[int]int64{}
	for i, id := range ctx.sites {
		k := int64(i + 1)
		if k < 2 {
			continue
		}
		if _, ok := first[id]; !ok {
			first[id] = k
		}
		last[id] = k
	}
	for id, k := range first {
		at = append(at, k)
		if last[id] != k {
			at = append(at, last[id])
		}
	}
	slices.Sort(at)
	return int64(len(ctx.sites)), len(ctx.ids), at
}

// TestCancelNamesMethodAndStage: every registered method, cancelled at
// any poll of ctx after Run's own (poll 1, which gives the bare
// context.Canceled before the method runs), returns no result and an
// error that wraps context.Canceled and names the method and the stage
// where it stopped: "cluster: <method>: <stage>: … context canceled",
// with a stage between the two (cancelledIn). Before, the steps the
// methods share returned their own text ("cluster: kmeans: context
// canceled", "cluster: eigensolver: context canceled"), some returned
// the bare ctx.Err(), and a method on the core of a graph read "cluster:
// <method> on the N-node core …". Run passes the method's error on (tidy
// only folds a repeated "cluster: "), so this is the error of Partition
// too. Deterministic: the context flips at its k-th Err call (pollCtx).
//
// Which polls. The error of a cancellation depends on where the poll
// that saw it was made, its stack, which the error unwinds: an
// uncancelled run records the site of each poll (siteCtx: the stack, and
// for a poll on a worker goroutine the site of the poll that started the
// workers), and the run is cancelled at the first and the last poll from
// each site (pollSites), so that every step that polls is reached, at its
// first and its last round. Cancelling at every poll instead, as this
// test did, costs the sum of the runs up to each poll, quadratic in the
// polls (fgpwc/autotune polls 6110 times, and was therefore tried at only
// every 15th poll, ml-noa-ssc/contradictions at every 10th; the test took
// 32 s of CPU here), where two runs per site are linear in them for a
// given code (111 sites for fgpwc/autotune; 12.5 s of CPU for the test).
// TestCancelAtEveryPoll checks, on larger problems and at fewer points,
// that each run stops.
// The runs with parallel steps (auto's folds, fgpwc's descents) can poll
// a few times more or less than the recording run, and a run that ends
// before its k-th poll, whose context never flipped, must give a result
// (cancelAt). The cases run in parallel (t.Parallel: no clock is read,
// and the cases share only the graph, labels and pairs of
// disconnectedProblem and the Settings, which Run does not change).
func TestCancelNamesMethodAndStage(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	for _, tc := range cancelNameCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			polls, sites, at := pollSites(t, tc.m, tc.p, tc.s)
			if polls < 2 {
				t.Fatalf("%d polls of ctx in an uncancelled run: the method never polls", polls)
			}
			prefix := "cluster: " + tc.m.Name() + ": "
			canceled := context.Canceled.Error()
			var bad []string
			runs := 0
			for _, k := range at {
				res, fewer, err := cancelAt(t, tc.m, tc.p, tc.s, k)
				if fewer > 0 {
					continue // this run polled fewer times: a result, checked by cancelAt
				}
				runs++
				if res != nil || !errors.Is(err, context.Canceled) {
					t.Fatalf("cancelled at poll %d of %d: result %v, error %v; want no result and an error wrapping context.Canceled", k, polls, res != nil, err)
				}
				stage, ok := strings.CutPrefix(err.Error(), prefix)
				if !ok || strings.HasPrefix(stage, canceled) || !strings.Contains(stage, canceled) {
					bad = append(bad, err.Error())
				}
			}
			t.Logf("%d polls from %d sites, %d cancelled runs", polls, sites, runs)
			if runs == 0 {
				t.Errorf("no cancelled run of the %d tried", len(at))
			}
			if len(bad) > 0 {
				t.Errorf("%d of the %d cancelled runs: an error that does not read %q, a stage, then %q; first: %q, last: %q", len(bad), runs, prefix, canceled, bad[0], bad[len(bad)-1])
			}
		})
	}
}
