package cluster

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// fgpwcStateProblem is 400 points of three 2-D Gaussian blobs of unit
// variance centred at (0, 0), (12, 0) and (0, 12), with their 10-NN graph,
// and 30 oracle pairs drawn from the blobs.
func fgpwcStateProblem(t *testing.T) (*Problem, []int) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(7, 1))
	x := mat.NewDense(400, 2, nil)
	truth := make([]int, 400)
	for i := range truth {
		truth[i] = i % 3
		x.Set(i, 0, rnd.NormFloat64())
		x.Set(i, 1, rnd.NormFloat64())
		switch truth[i] {
		case 1:
			x.Set(i, 0, x.At(i, 0)+12)
		case 2:
			x.Set(i, 1, x.At(i, 1)+12)
		}
	}
	g := fgpwcKNNGraph(t, x, 10)
	return &Problem{Graph: g, K: 3, Constraints: fgpwcOracle(rnd, truth, 30)}, truth
}

// stateFGPWC is NewFGPWC with m = 12, for the tests that compare the state
// with Run whatever the quality (the automatic m makes each run several
// times slower; TestFGPWCStateWarm, which needs the quality, keeps it).
func stateFGPWC() *FGPWC {
	f := NewFGPWC()
	f.M = 12
	return f
}

func TestFGPWCStateColdEqualsRun(t *testing.T) {
	// The zero FGPWCWarm must give exactly what a fresh Run (which embeds
	// the graph itself) gives, call after call, as the constraints grow.
	p, truth := fgpwcStateProblem(t)
	ctx := context.Background()
	s := &Settings{Seed: 3}
	st, err := stateFGPWC().NewState(ctx, p.Graph, s)
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(9, 9))
	for step, count := range []int{0, 1, 5, 30, 60} {
		q := *p
		q.Constraints = &constraint.Set{N: p.Graph.N(), Pairs: fgpwcOracle(rnd, truth, count+1).Pairs[:count]}
		want, err := Run(ctx, stateFGPWC(), &q, s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := st.Cluster(ctx, &q, s, FGPWCWarm{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Labels, want.Labels) || got.Objective != want.Objective || got.Iterations != want.Iterations {
			t.Errorf("step %d (%d pairs): state gives F = %v after %d iterations, Run F = %v after %d; labels equal: %v",
				step, count, got.Objective, got.Iterations, want.Objective, want.Iterations, slices.Equal(got.Labels, want.Labels))
		}
		// X* recovered from the embedding reproduces it: V X* = embedding.
		var vx mat.Dense
		vx.Mul(st.Basis().v, st.prevX)
		if !mat.EqualApprox(&vx, got.Embedding, 1e-8) {
			t.Errorf("step %d: V·X* differs from the embedding", step)
		}
	}
}

func TestFGPWCStateWarm(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	p, truth := fgpwcStateProblem(t)
	ctx := context.Background()
	s := &Settings{Seed: 5}
	st, err := NewFGPWC().NewState(ctx, p.Graph, s)
	if err != nil {
		t.Fatal(err)
	}
	first, err := st.Cluster(ctx, p, s, FGPWCWarm{})
	if err != nil {
		t.Fatal(err)
	}
	// Same constraints, k-means warm from the previous partition and no
	// seeded run: the descent from X₀ is the cold one, so the embedding is
	// the same, and the means of a converged k-means partition are a fixed
	// point of the updates: the partition must come back unchanged.
	again, err := st.Cluster(ctx, p, s, FGPWCWarm{KMeans: true, Restarts: -1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Labels, first.Labels) {
		t.Errorf("warm k-means from a converged partition moved %d nodes", hamming(again.Labels, first.Labels))
	}
	// Growing constraint sets. Warm k-means (the descent from X₀ as in a
	// cold call): on three blobs 12 apart the partition must agree with
	// the cold one and the truth. Tolerance 0.99 allows one boundary node
	// of the k-NN graph. The warm descent continues from the previous X*,
	// so after several calls it has descended further than the cold early
	// stop (FGPWCWarm.Descent): measured ARI 0.963 against the truth at
	// the last step (seed 5), hence the looser 0.9.
	for _, c := range []struct {
		name string
		w    FGPWCWarm
		tol  float64
	}{
		{"kmeans", FGPWCWarm{KMeans: true}, 0.99},
		{"descent+kmeans", FGPWCWarm{Descent: true, KMeans: true}, 0.9},
	} {
		t.Run(c.name, func(t *testing.T) {
			st.Reset()
			if _, err := st.Cluster(ctx, p, s, FGPWCWarm{}); err != nil {
				t.Fatal(err)
			}
			rnd := rand.New(rand.NewPCG(11, 11))
			q := *p
			for step := range 5 {
				q.Constraints = &constraint.Set{N: p.Graph.N(), Pairs: append(slices.Clone(q.Constraints.Pairs), fgpwcOracle(rnd, truth, 5).Pairs...)}
				warm, err := st.Cluster(ctx, &q, s, c.w)
				if err != nil {
					t.Fatal(err)
				}
				cold, err := Run(ctx, NewFGPWC(), &q, s)
				if err != nil {
					t.Fatal(err)
				}
				if a := fgpwcARI(t, cold.Labels, truth); a < 0.99 {
					t.Fatalf("step %d: cold ARI = %.4f: the problem is not the easy one the test needs", step, a)
				}
				if a := fgpwcARI(t, warm.Labels, truth); a < c.tol {
					t.Errorf("step %d: ARI(warm, truth) = %.4f, want ≥ %g", step, a, c.tol)
				}
			}
		})
	}
}

func hamming(a, b []int) int {
	d := 0
	for i := range a {
		if a[i] != b[i] {
			d++
		}
	}
	return d
}

func TestFGPWCStateErrors(t *testing.T) {
	p, _ := fgpwcStateProblem(t)
	ctx := context.Background()
	f := stateFGPWC()
	f.Imprint = true
	if _, err := f.NewState(ctx, p.Graph, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("Imprint: err = %v, want ErrInvalid", err)
	}
	f = stateFGPWC()
	f.Laplacian = FGPWCAutoLaplacian
	if _, err := f.NewState(ctx, p.Graph, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("auto Laplacian: err = %v, want ErrInvalid", err)
	}
	st, err := stateFGPWC().NewState(ctx, p.Graph, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A state from an existing basis shares it; a basis of other knobs or
	// another graph is refused.
	f = stateFGPWC()
	f.Basis = st.Basis()
	if st2, err := f.NewState(ctx, p.Graph, nil); err != nil || st2.Basis() != st.Basis() {
		t.Errorf("NewState with the basis: err = %v, shared = %v", err, err == nil && st2.Basis() == st.Basis())
	}
	f.M = st.Basis().M() + 1
	if _, err := f.NewState(ctx, p.Graph, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("basis of another M: err = %v, want ErrInvalid", err)
	}
	other, _ := fgpwcStateProblem(t)
	f = stateFGPWC()
	f.Basis = st.Basis()
	if _, err := f.NewState(ctx, other.Graph, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("basis of another graph: err = %v, want ErrInvalid", err)
	}
	if _, err := st.Cluster(ctx, other, nil, FGPWCWarm{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("another graph: err = %v, want ErrInvalid", err)
	}
	if _, err := st.Cluster(ctx, nil, nil, FGPWCWarm{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("nil problem: err = %v, want ErrInvalid", err)
	}
	if _, err := st.Cluster(ctx, p, nil, FGPWCWarm{}); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := st.Cluster(cctx, p, nil, FGPWCWarm{Descent: true, KMeans: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
}

// fgpwcStateBenchSink keeps benchmark results alive.
var fgpwcStateBenchSink *Result

// benchmarkFGPWCStateRecluster measures what tether serve does after a
// person adds a constraint: the state of f on two moons of n points
// (noise 0.1, the default k-NN graph of tether cluster) holds 20 oracle
// pairs; each iteration adds one pair and re-clusters with w. Setup (graph,
// embedding, first partition) is outside the timer.
func benchmarkFGPWCStateRecluster(b *testing.B, n int, f FGPWC, w FGPWCWarm) {
	ctx := context.Background()
	rnd := rand.New(rand.NewPCG(uint64(n), 3))
	x, moon, _ := fgpwcMoons(rnd, n, 0.1)
	g, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		b.Fatal(err)
	}
	s := &Settings{Seed: 1}
	st, err := f.NewState(ctx, g, s)
	if err != nil {
		b.Fatal(err)
	}
	p := &Problem{Graph: g, K: 2, Constraints: fgpwcOracle(rnd, moon, 20)}
	if _, err := st.Cluster(ctx, p, s, FGPWCWarm{}); err != nil {
		b.Fatal(err)
	}
	extra := fgpwcOracle(rnd, moon, 1000).Pairs
	b.Logf("n = %d, m = %d", n, st.Basis().M())
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		p.Constraints.Pairs = append(p.Constraints.Pairs, extra[i%len(extra)])
		i++
		res, err := st.Cluster(ctx, p, s, w)
		if err != nil {
			b.Fatal(err)
		}
		fgpwcStateBenchSink = res
	}
}

// fgpwcStateBenchCases are the re-clustering modes the benchmarks compare.
var fgpwcStateBenchCases = []struct {
	name string
	w    FGPWCWarm
}{
	{"cold", FGPWCWarm{}},
	{"warmKMeans", FGPWCWarm{KMeans: true}},
	{"warmBoth", FGPWCWarm{Descent: true, KMeans: true}},
}

// BenchmarkFGPWCStateRecluster10k runs with the automatic m (200 here,
// the cap) and with m = 32, tether serve's default.
func BenchmarkFGPWCStateRecluster10k(b *testing.B) {
	for _, m := range []int{0, 32} {
		for _, c := range fgpwcStateBenchCases {
			b.Run(fmt.Sprintf("M=%d/%s", m, c.name), func(b *testing.B) {
				f := NewFGPWC()
				f.M = m
				benchmarkFGPWCStateRecluster(b, 10000, *f, c.w)
			})
		}
	}
}

// BenchmarkFGPWCStateRecluster100k is 10⁵ points with m = 32.
func BenchmarkFGPWCStateRecluster100k(b *testing.B) {
	for _, c := range fgpwcStateBenchCases[1:] {
		b.Run(c.name, func(b *testing.B) {
			f := NewFGPWC()
			f.M = 32
			benchmarkFGPWCStateRecluster(b, 100000, *f, c.w)
		})
	}
}

// TestFGPWCEntryPointsValidateSettings: FGPWC's entry points other than
// Run (Embed, NewState, Tune, CrossValidate, and FGPWCState.Cluster on its
// warm path) refuse Settings out of range as Run does, with an error
// wrapping ErrInvalid that names the field. Before, a negative Restarts
// silently meant the default and an unknown Repair was ignored, though
// Settings.Restarts documents the negative value as an error.
func TestFGPWCEntryPointsValidateSettings(t *testing.T) {
	p, _ := fgpwcStateProblem(t)
	ctx := context.Background()
	f := stateFGPWC()
	st, err := f.NewState(ctx, p.Graph, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Cluster(ctx, p, nil, FGPWCWarm{}); err != nil {
		t.Fatal(err)
	}
	one := []float64{0.5}
	entries := []struct {
		name string
		call func(s *Settings) error
	}{
		{"Embed", func(s *Settings) error { _, err := f.Embed(ctx, p.Graph, s); return err }},
		{"NewState", func(s *Settings) error { _, err := f.NewState(ctx, p.Graph, s); return err }},
		{"Tune", func(s *Settings) error {
			_, err := f.Tune(ctx, p, s, one, one, func(*Result) float64 { return 0 })
			return err
		}},
		{"CrossValidate", func(s *Settings) error { _, err := f.CrossValidate(ctx, p, s, one, one); return err }},
		{"FGPWCState.Cluster warm", func(s *Settings) error {
			_, err := st.Cluster(ctx, p, s, FGPWCWarm{Descent: true, KMeans: true})
			return err
		}},
	}
	for _, bad := range []struct {
		name string
		s    *Settings
		want string
	}{
		{"negative restarts", &Settings{Restarts: -1}, "Settings.Restarts = -1"},
		{"restarts above kmeans.MaxRestarts", &Settings{Restarts: 1 << 21}, "Settings.Restarts = 2097152"},
		{"unknown repair", &Settings{Repair: 9}, "Settings.Repair = 9"},
	} {
		for _, e := range entries {
			t.Run(bad.name+"/"+e.name, func(t *testing.T) {
				err := e.call(bad.s)
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "fgpwc: "+bad.want) {
					t.Errorf("error %v, want ErrInvalid saying %q", err, "fgpwc: "+bad.want)
				}
			})
		}
	}
}

// TestFGPWCStateWarmFinishesLikeRun: a warm call's Result is finished as
// Run finishes one: its Runtime is the call's wall-clock time and it
// carries Run's warnings about side information FGPWC ignores (first) and
// about a collapsed partition (last). Before, a warm call returned Runtime
// 0 and none of these warnings.
func TestFGPWCStateWarmFinishesLikeRun(t *testing.T) {
	p, _ := fgpwcStateProblem(t)
	ctx := context.Background()
	st, err := stateFGPWC().NewState(ctx, p.Graph, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := *p
	q.Features = mat.NewDense(p.Graph.N(), 1, nil) // FGPWC clusters the graph
	cold, err := st.Cluster(ctx, &q, nil, FGPWCWarm{})
	if err != nil {
		t.Fatal(err)
	}
	warm, err := st.Cluster(ctx, &q, nil, FGPWCWarm{Descent: true, KMeans: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		name string
		res  *Result
	}{{"cold", cold}, {"warm", warm}} {
		if r.res.Runtime <= 0 {
			t.Errorf("%s: Runtime = %v, want > 0", r.name, r.res.Runtime)
		}
		if len(r.res.Warnings) == 0 || !strings.Contains(r.res.Warnings[0], "fgpwc ignores the feature rows") {
			t.Errorf("%s: warnings %q, want first the one about the ignored feature rows", r.name, r.res.Warnings)
		}
	}
}

// TestFGPWCStateClone: a call on a clone leaves the original as it was.
// Twin states get the same first call; one then clusters a clone with
// the constraints dropped; the next warm call (descent and k-means from
// the last call) must give the same result on both, which it would not
// if the clone's call had replaced the original's X* and labels.
func TestFGPWCStateClone(t *testing.T) {
	p, _ := fgpwcStateProblem(t)
	ctx := context.Background()
	s := &Settings{Seed: 5}
	var sts [2]*FGPWCState
	for i := range sts {
		st, err := NewFGPWC().NewState(ctx, p.Graph, s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Cluster(ctx, p, s, FGPWCWarm{}); err != nil {
			t.Fatal(err)
		}
		sts[i] = st
	}
	q := *p
	q.Constraints = &constraint.Set{N: p.Graph.N(), Pairs: p.Constraints.Pairs[:1]}
	if _, err := sts[1].Clone().Cluster(ctx, &q, s, FGPWCWarm{Descent: true, KMeans: true}); err != nil {
		t.Fatal(err)
	}
	var got [2]*Result
	for i, st := range sts {
		r, err := st.Cluster(ctx, p, s, FGPWCWarm{Descent: true, KMeans: true})
		if err != nil {
			t.Fatal(err)
		}
		got[i] = r
	}
	if !slices.Equal(got[0].Labels, got[1].Labels) || !mat.Equal(got[0].Embedding, got[1].Embedding) {
		t.Errorf("the clone's call changed the original: %d labels differ", hamming(got[0].Labels, got[1].Labels))
	}
}
