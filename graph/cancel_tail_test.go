package graph

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/progress"
)

// armedContext reports context.Canceled from its Err once armed, and
// counts the calls of Err made after that.
type armedContext struct {
	context.Context
	armed atomic.Bool
	after atomic.Int64
	once  sync.Once
	done  chan struct{}
}

func newArmedContext() *armedContext {
	return &armedContext{Context: context.Background(), done: make(chan struct{})}
}

func (c *armedContext) arm() {
	c.once.Do(func() { close(c.done) })
	c.armed.Store(true)
}

func (c *armedContext) Err() error {
	if c.armed.Load() {
		c.after.Add(1)
		return context.Canceled
	}
	return nil
}

func (c *armedContext) Done() <-chan struct{} { return c.done }

// TestBuildCancelledAfterLastPass cancels Build of ε and Full graphs when
// its last parallel pass reports completion (the recorder of
// BuildRecorded sees Done = Total of pass p): the sequential passes that
// follow (the median rule's candidates and selection, the ε-graph's
// weights, the compaction) must notice and return context.Canceled. They
// did not poll their context: on 8000 uniform 2-D points with Eps = 2
// they ran 3 s unpolled, and a cancellation at 5.8 s of 8.3 s returned a
// complete graph with a nil error; so did a Full graph of 10⁴ points
// with the median σ cancelled at 1.76 s of 2.2 s (review 130).
func TestBuildCancelledAfterLastPass(t *testing.T) {
	const n = 1500
	x := uniformSquare(n, 1)
	for _, tc := range []struct {
		name string
		spec Spec
		pass int // the pass whose completion cancels
	}{
		// ε: the radius search is the only parallel pass.
		{"eps median", Spec{Kind: Epsilon, Eps: 2, Affinity: RBF, Sigma: Sigma{Rule: SigmaMedian}}, 1},
		{"eps fixed σ", Spec{Kind: Epsilon, Eps: 2, Affinity: RBF, Sigma: Sigma{Rule: SigmaFixed, Value: 0.3}}, 1},
		// Full: the distances, then the weights.
		{"full median, after the distances", Spec{Kind: Full, Affinity: RBF, Sigma: Sigma{Rule: SigmaMedian}}, 1},
		{"full median, after the weights", Spec{Kind: Full, Affinity: RBF, Sigma: Sigma{Rule: SigmaMedian}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := newArmedContext()
			pass := 0
			rec := progress.Func(func(e progress.Event) {
				if e.Done == e.Total {
					pass++
					if pass == tc.pass {
						ctx.arm()
					}
				}
			})
			g, err := BuildRecorded(ctx, x, tc.spec, rec)
			if pass < tc.pass {
				t.Fatalf("%d passes reported, want at least %d", pass, tc.pass)
			}
			if !errors.Is(err, context.Canceled) || g != nil {
				t.Fatalf("cancelled at the end of pass %d: graph %v, err = %v; want no graph and context.Canceled", tc.pass, g != nil, err)
			}
		})
	}
}

// TestMedianLengthPolls checks that the median rule's selection polls its
// context: a context cancelled at its first check stops it, and one that
// never cancels gives the median of the lengths: for the squared lengths
// 0, 1, …, m−1, m odd, the root of the middle one, √((m−1)/2).
func TestMedianLengthPolls(t *testing.T) {
	const m = 3*cancelValues + 1
	r := rand.New(rand.NewPCG(2, 3))
	v := make([]float64, m)
	for i := range v {
		v[i] = float64(i)
	}
	r.Shuffle(m, func(i, j int) { v[i], v[j] = v[j], v[i] })
	if _, err := medianLength(testctx.CancelAfter(0), append([]float64(nil), v...)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled at the first check: err = %v, want context.Canceled", err)
	}
	// Cancelled at the second check: inside the selection, after the
	// first partition (the scan of the fallback is not reached).
	if _, err := medianLength(testctx.CancelAfter(1), append([]float64(nil), v...)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled at the second check: err = %v, want context.Canceled", err)
	}
	got, err := medianLength(context.Background(), v)
	if want := math.Sqrt((m - 1) / 2); err != nil || got != want {
		t.Errorf("median length %v (%v), want %v", got, err, want)
	}
}

// TestBuildEpsCancelLatency cancels the build of a dense ε-graph (3000
// points, every pair within the radius: 9·10⁶ weights) 20 ms after
// its radius search and checks that Build returns context.Canceled within
// 0.5 s of the cancellation (a generous bound for a loaded 2-core
// machine; the passes poll about every millisecond).
func TestBuildEpsCancelLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	const n = 3000
	x := uniformSquare(n, 5)
	spec := Spec{Kind: Epsilon, Eps: 2, Affinity: RBF, Sigma: Sigma{Rule: SigmaMedian}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var at time.Time
	rec := progress.Func(func(e progress.Event) {
		if e.Done == e.Total && at.IsZero() {
			at = time.Now()
			time.AfterFunc(20*time.Millisecond, cancel)
		}
	})
	_, err := BuildRecorded(ctx, x, spec, rec)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(at) - 20*time.Millisecond; d > 500*time.Millisecond {
		t.Errorf("Build returned %v after the cancellation", d)
	}
}

// uniformSquare returns n points drawn uniformly from the unit square,
// seeded by PCG(seed, seed).
func uniformSquare(n int, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, seed))
	x := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		x.Set(i, 0, r.Float64())
		x.Set(i, 1, r.Float64())
	}
	return x
}

// countingErrContext counts the calls of its Err.
type countingErrContext struct {
	context.Context
	calls atomic.Int64
}

func (c *countingErrContext) Err() error {
	c.calls.Add(1)
	return c.Context.Err()
}

// TestRadiusPollsEveryLeaf: the radius search of the ε-graph checks its
// context before each leaf of the kd-tree, since on a dense ε-graph each
// query visits every point (it checked once per 8 leaves, about 0.5 s
// apart at the sizes dense ε-graphs reach; review 130's note).
func TestRadiusPollsEveryLeaf(t *testing.T) {
	const n = 3000
	x := uniformSquare(n, 3)
	tree, err := newKDTree(context.Background(), x.RawMatrix().Data, n, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx := &countingErrContext{Context: context.Background()}
	idx, _, err := tree.allRadius(ctx, 4) // every pair within the radius
	if err != nil {
		t.Fatal(err)
	}
	if len(idx[0]) != n-1 {
		t.Fatalf("node 0 has %d neighbours within the radius, want %d", len(idx[0]), n-1)
	}
	if got, want := ctx.calls.Load(), int64(tree.leaves()); got < want {
		t.Errorf("ctx checked %d times for %d leaves, want at least one check per leaf", got, want)
	}
}
