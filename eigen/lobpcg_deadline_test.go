package eigen_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
)

// TestLOBPCGDeadline: LOBPCG stops soon after its context's deadline,
// with an error wrapping context.DeadlineExceeded, on a generalized
// problem whose iterations are long (NJW's problem on 6000 nodes of a 2-D
// 10-NN graph with B = 2I and 60 pairs: BlockSize 90, an iteration of
// about 0.6 s on the 2-core test machine, 1.7 s under a load of 6, the
// size of fast-ge2's k = 60 on 6000 nodes, 3 min 14 s in all). The
// iteration's time T is measured here (a solve of 3 iterations less one
// of 1, halved); at three deadlines inside the iterations the solve must
// return within T/2 of the deadline. With one poll an iteration it ran to
// the end of the iteration, whose block products and projected eigensolve
// take no context: 0.72 and 0.87 s late for T ≈ 1.7 s (load 6); polling
// between them, 0.08 and 0.19 s.
func TestLOBPCGDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("a solve of 6000 rows")
	}
	const n = 6000
	p := knn2DProblem(t, n)
	p.B = make(diagOp, n)
	for i := range p.B.(diagOp) {
		p.B.(diagOp)[i] = 2
	}
	var z mat.Dense
	z.Scale(1/math.Sqrt2, p.Deflate)
	p.Deflate = &z
	_, d := z.Dims()
	p.K = 60 + d
	timed := func(ctx context.Context, iters int) (time.Duration, error) {
		start := time.Now()
		_, err := eigen.LOBPCG{}.Solve(ctx, p, &eigen.Settings{Tol: 1e-14, MaxIter: iters})
		return time.Since(start), err
	}
	one, _ := timed(context.Background(), 1)
	three, _ := timed(context.Background(), 3)
	iter := (three - one) / 2
	for _, after := range []time.Duration{one + iter/3, one + 4*iter/3, one + 7*iter/3} {
		ctx, cancel := context.WithTimeout(context.Background(), after)
		took, err := timed(ctx, 0)
		cancel()
		late := took - after
		t.Logf("iteration %v, deadline %v: returned %v after it: %v", iter, after, late, err)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("deadline %v: %v, want context.DeadlineExceeded", after, err)
		}
		if late > iter/2 {
			t.Errorf("deadline %v: returned %v after it, want within half an iteration, %v", after, late, iter/2)
		}
	}
}
