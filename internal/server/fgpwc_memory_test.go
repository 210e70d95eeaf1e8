package server

import (
	"context"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/testmem"
)

// fgpwcCVProblem returns the problem of the fgpwc memory tests: 4000
// nodes in 10 blocks (blockRing), k = 10, and about 2000 pairs spread by
// two strides, must-link inside a block, cannot-link across.
func fgpwcCVProblem(t *testing.T) (*cluster.Problem, workload) {
	t.Helper()
	const n, npairs = 4000, 2000
	g := blockRing(t, 10, n/10, 5)
	var pairs []constraint.Pair
	for i := range npairs {
		a, b := (i*7919)%n, (i*104729+13)%n
		if a == b {
			continue
		}
		kind := constraint.CannotLink
		if a/(n/10) == b/(n/10) {
			kind = constraint.MustLink
		}
		pairs = append(pairs, constraint.Pair{I: a, J: b, Kind: kind})
	}
	return &cluster.Problem{Graph: g, K: 10, Constraints: &constraint.Set{N: n, Pairs: pairs}}, workload{g: g, pairs: pairs, k: 10}
}

// TestFGPWCCVMemoryEstimate: fgpwc's estimate (methodBytes) covers what
// its cross-validation (AutoTune, IterCV, Laplacian auto, with Imprint)
// allocates beyond the same fit without it, measured (testmem.PeakHeap,
// GC at 5 %) on 4000 nodes, about 2000 pairs and m = 20 with GOMAXPROCS
// set to 8: the folds' fits run GOMAXPROCS at a time, each with its n×m
// embedding, k-means scratch and objective, which the estimate counted
// as one fit's objective before (1.0 MB, for 2.6 to 11 MB measured).
// The plain fit's peak is the median of three measurements (see
// TestCOSCMemoryEstimate on PeakHeap's sampling); a missed peak of the
// cross-validated fit only lowers the difference. On 2 cores the fits of
// a few milliseconds overlap less than 8 cores would make them, so the
// estimate (of 8 fits at once) is 3 to 8 times the measurement. Not
// parallel: it sets GOMAXPROCS and reads the heap.
func TestFGPWCCVMemoryEstimate(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	p, w := fgpwcCVProblem(t)
	peak := func(m cluster.Method) uint64 {
		var err error
		b := testmem.PeakHeap(func() { _, err = cluster.Run(context.Background(), m, p, &cluster.Settings{Seed: 1}) })
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	plain := cluster.FGPWC{M: 20}
	base := []uint64{peak(plain), peak(plain), peak(plain)}
	slices.Sort(base)
	single, _, _ := methodBytes(plain, w)
	for _, m := range []cluster.FGPWC{
		{M: 20, IterCV: true},
		{M: 20, IterCV: true, Laplacian: cluster.FGPWCAutoLaplacian},
		{M: 20, IterCV: true, Imprint: true},
		{M: 20, AutoTune: true, TuneFolds: 2, MaxIter: 10},
	} {
		est, what, _ := methodBytes(m, w)
		got := peak(m)
		extra := int64(got) - int64(base[1])
		t.Logf("%+v: peak %d, plain %d, difference %d; estimate %d beyond the plain one's %d (%s)", m, got, base[1], extra, est-single, single, what)
		if extra > est-single {
			t.Errorf("fgpwc %+v: cross-validation allocated %d bytes more than the plain fit, estimate %d beyond the plain one's: want at least that", m, extra, est-single)
		}
		if !strings.Contains(what, "cross-validation") {
			t.Errorf("fgpwc %+v: %q does not name the cross-validation", m, what)
		}
	}
}

// TestFGPWCCVMemoryClosedForm: fgpwcCVBytes against its closed form,
// fits·(8·n·m + 200·n + objective(K, m)), fits = min(GOMAXPROCS, tasks),
// on 64 cores (restored after): 64 fits for AutoTune (5 folds × 75 grid
// points), 15 for IterCV (3 folds × 5 caps), 6 for Laplacian auto alone
// (3 folds, both Laplacians), 30 for IterCV with Laplacian auto, which
// also adds the second Laplacian's eigensolve (workBytes); none
// without cross-validation or with one constraint; Imprint adds each
// fold's basis, n×(m + 1), and up to min(fits, bases) eigensolves. A
// request whose estimate passes the limit only by the cross-validation
// is refused naming it. Not parallel: it sets GOMAXPROCS.
func TestFGPWCCVMemoryClosedForm(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(64))
	const n, m, k = 100000, 50, 5000
	obj := float64(cluster.FGPWCObjectiveBytes(k, m))
	fit := 8.0*n*m + 200*n + obj
	basis := 8.0 * n * (m + 1)
	wb := float64(workBytes(n, m))
	for _, c := range []struct {
		f    cluster.FGPWC
		k    int
		want float64
	}{
		{cluster.FGPWC{M: m}, k, 0},
		{cluster.FGPWC{M: m, AutoTune: true}, 1, 0},
		{cluster.FGPWC{M: m, AutoTune: true}, k, 64 * fit},
		{cluster.FGPWC{M: m, IterCV: true}, k, 15 * fit},
		{cluster.FGPWC{M: m, IterCV: true, TuneFolds: 10}, k, 50 * fit},
		{cluster.FGPWC{M: m, Laplacian: cluster.FGPWCAutoLaplacian}, k, 6*fit + wb},
		{cluster.FGPWC{M: m, IterCV: true, Laplacian: cluster.FGPWCAutoLaplacian}, k, 30*fit + wb},
		{cluster.FGPWC{M: m, IterCV: true, Imprint: true}, k, 15*fit + 3*basis + 3*wb},
		{cluster.FGPWC{M: m, AutoTune: true, IterCV: true, Imprint: true}, k, 64*fit + 8*basis + 8*wb},
	} {
		got, _, _ := fgpwcCVBytes(c.f, n, m, c.k)
		if d := got - c.want; d > 1e-9*c.want+1 || -d > 1e-9*c.want+1 {
			t.Errorf("%+v, K = %d: fgpwcCVBytes %.0f, want %.0f", c.f, c.k, got, c.want)
		}
	}
	// Refused by the cross-validation's share alone.
	_, w := fgpwcCVProblem(t)
	e := 20
	plain, _, _ := methodBytes(cluster.FGPWC{M: e}, w)
	limit := workBytes(w.g.N(), e) + plain + 1<<20
	s := newTest(t, Config{MaxRequestMemory: limit})
	if err := s.checkWork(cluster.FGPWC{M: e}, 10, w); err != nil {
		t.Errorf("plain fgpwc under %d bytes: %v", limit, err)
	}
	err := s.checkWork(cluster.FGPWC{M: e, IterCV: true}, 10, w)
	if err == nil || !strings.Contains(err.Error(), "cross-validation on 3 folds") || !strings.Contains(err.Error(), "turn off AutoTune and IterCV") {
		t.Errorf("fgpwc with IterCV under %d bytes on 64 cores: %v, want a refusal naming the cross-validation", limit, err)
	}
}
