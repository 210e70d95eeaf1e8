package kmeans

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/testctx"
)

// k-means++ and the iterations of a restart check the context before each
// block of blockSize points of every pass (forBlocks), not only between
// iterations and restarts: at n = 2·10⁶, d = k = 30, the seeding took
// 1.5 s and a pass 0.5–1 s without a check, and Ctrl-C waited 1.1–2.1 s.
// Cancelled at any of their checks they return context.Canceled; a run
// that finishes checked at least once per block of each pass (k − 1 for
// the seeding, one more than the iterations for a run), and gives the
// result of a run never cancelled. The kernel k-means' seeding and
// iterations do the same.
func TestPassesCheckTheContext(t *testing.T) {
	const n, d, k = 3*blockSize + 5, 3, 4
	rnd := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, n*d)
	for i := range x {
		x[i] = rnd.NormFloat64() + float64(i/d%k)
	}
	nb := numBlocks(n)
	p := &vproblem{x: x, stride: d, n: n, d: d, k: k, wbar: 1, maxIter: 5, tol: 0}
	// untilDone calls run with contexts cancelled after 0, 1, 2… checks
	// until it succeeds, and returns the number of checks it took.
	untilDone := func(what string, run func(ctx context.Context) error) int {
		for c := 0; ; c++ {
			err := run(testctx.CancelAfter(c))
			if err == nil {
				return c
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("%s cancelled at check %d: err = %v, want context.Canceled", what, c, err)
			}
		}
	}
	want := seeded(p, rand.New(rand.NewPCG(2, 2)), 1)
	checks := untilDone("seed", func(ctx context.Context) error {
		got, err := p.seed(ctx, rand.New(rand.NewPCG(2, 2)), 1)
		if err == nil && !slices.Equal(got, want) {
			t.Fatalf("seeds %v, want %v", got, want)
		}
		return err
	})
	if checks < (k-1)*nb {
		t.Errorf("seed: %d checks, want at least %d", checks, (k-1)*nb)
	}
	start := func() []float64 {
		c := make([]float64, k*d)
		for j, i := range want {
			copy(c[j*d:(j+1)*d], p.row(i))
		}
		return c
	}
	for _, r := range []struct {
		name string
		run  func(context.Context, []float64, []int, int) (*outcome, error)
	}{{"bounded", p.runBounded}, {"plain", p.runPlain}} {
		ref, err := r.run(context.Background(), start(), nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		checks := untilDone(r.name, func(ctx context.Context) error {
			o, err := r.run(ctx, start(), nil, 1)
			if err == nil && (!slices.Equal(o.labels, ref.labels) || o.value != ref.value) {
				t.Fatalf("%s: not the result of a run never cancelled", r.name)
			}
			return err
		})
		if checks < (ref.iters+1)*nb {
			t.Errorf("%s: %d checks in %d iterations, want at least %d", r.name, checks, ref.iters, (ref.iters+1)*nb)
		}
	}
	kp, err := newKProblem(identityKernel(n), nil)
	if err != nil {
		t.Fatal(err)
	}
	kp.k, kp.maxIter = k, 2
	if _, _, err := kp.seed(testctx.CancelAfter(1), rand.New(rand.NewPCG(3, 3)), 1); !errors.Is(err, context.Canceled) {
		t.Errorf("kernel seed: err = %v, want context.Canceled", err)
	}
}

// identityKernel is K = I on n points.
type identityKernel int

func (k identityKernel) Dim() int         { return int(k) }
func (k identityKernel) Diag(int) float64 { return 1 }
func (k identityKernel) ClusterSumsTo(dst *mat.Dense, labels []int, w []float64) {
	dst.Zero()
	for a, l := range labels {
		if l >= 0 {
			v := 1.0
			if w != nil {
				v = w[a]
			}
			dst.Set(a, l, v)
		}
	}
}
