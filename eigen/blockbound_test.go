package eigen_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/internal/testmem"
	"github.com/tether-sc/tether/internal/wording"
)

// TestBlockSolversMaxDenseBytes checks Settings.MaxDenseBytes on
// BlockLanczos and LOBPCG (NJW's problem on a 2-D 10-NN graph of 1000
// nodes, the graph's components deflated, K = 5 and for BlockLanczos
// K = d + 6, so that its BlockSize of 4 is kept; LOBPCG also on the
// pencil (L, 2I) with the deflated vectors B-orthonormal). The bytes are
// counted here from the solvers' documented workspace
// (blockLanczosBytes, lobpcgBytes: the closed forms of their docs, which
// TestBlockSolversPeakHeap checks against the heap they use).
// With no bound (0) and with a bound of exactly that many bytes the solve
// is the same bit for bit (values, vectors, products); one byte less and
// it is refused, before any product, with an error wrapping ErrInvalid
// and ErrMemoryBound that names both sizes.
func TestBlockSolversMaxDenseBytes(t *testing.T) {
	const n = 1000
	p := knn2DProblem(t, n)
	_, d := p.Deflate.Dims()
	gen := withB2(p)
	const bs, ncv, keep = 4, 40, 8
	wide := p
	wide.K = d + 6 // 6 pairs not deflated: BlockSize 4 is kept
	blockNeed := blockLanczosBytes(n, d, bs, ncv, keep, wide.K)
	const lbs = 6
	lobNeed := lobpcgBytes(n, d, lbs, p.K, false)
	genNeed := lobpcgBytes(n, d, lbs, p.K, true)
	for _, c := range []struct {
		name   string
		solver eigen.Solver
		p      eigen.Problem
		need   int64
		want   string
	}{
		{"BlockLanczos", eigen.BlockLanczos{BlockSize: bs, NCV: ncv, Keep: keep}, wide, blockNeed,
			fmt.Sprintf("for its basis of %d vectors of n values (%d deflated, NCV = %d and two blocks of %d), its three work blocks of %d vectors, its %d×%d projected matrices with their work, and the check of the vectors it returns", d+ncv+2*bs, d, ncv, bs, bs, ncv+bs, ncv+bs)},
		{"LOBPCG", eigen.LOBPCG{BlockSize: lbs}, p, lobNeed,
			fmt.Sprintf("for its 12 blocks of n×%d values, the copy of its %d deflated vectors, its %d×%d projected matrices with their work, and the check of the vectors it returns", lbs, d, 3*lbs, 3*lbs)},
		{"LOBPCG-B", eigen.LOBPCG{BlockSize: lbs}, gen, genNeed,
			fmt.Sprintf("for its 16 blocks of n×%d values, the copy of its %d deflated vectors, B times them, its %d×%d projected matrices with their work, and the check of the vectors it returns", lbs, d, 3*lbs, 3*lbs)},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			free, err := c.solver.Solve(ctx, c.p, &eigen.Settings{Tol: 1e-8})
			if err != nil {
				t.Fatal(err)
			}
			fits, err := c.solver.Solve(ctx, c.p, &eigen.Settings{Tol: 1e-8, MaxDenseBytes: c.need})
			if err != nil {
				t.Fatalf("bound %d, the bytes needed: %v", c.need, err)
			}
			if !slices.Equal(fits.Values, free.Values) || !mat.Equal(fits.Vectors, free.Vectors) || fits.MatVecs != free.MatVecs || fits.Iterations != free.Iterations {
				t.Errorf("bound %d: values %v (%d products), want %v (%d products) bit for bit", c.need, fits.Values, fits.MatVecs, free.Values, free.MatVecs)
			}
			op := &countingOp{Operator: c.p.A}
			q := c.p
			q.A = op
			_, err = c.solver.Solve(ctx, q, &eigen.Settings{Tol: 1e-8, MaxDenseBytes: c.need - 1})
			want := fmt.Sprintf("needs about %s %s, more than Settings.MaxDenseBytes = %s", wording.Bytes(c.need), c.want, wording.Bytes(c.need-1))
			if !errors.Is(err, eigen.ErrInvalid) || !errors.Is(err, eigen.ErrMemoryBound) || !strings.Contains(err.Error(), want) || op.n != 0 {
				t.Errorf("bound %d − 1: %v (operator applied to %d vectors); want ErrInvalid and ErrMemoryBound containing %q, before any product", c.need, err, op.n, want)
			}
		})
	}
}

// TestLOBPCGWorkspace checks LOBPCG.Workspace, which tether serve counts
// before a request runs, against the bound Solve enforces and the closed
// form: for the default BlockSize (K − d + max(2, ⌈(K − d)/2⌉)) and an
// explicit one, with and without B (the problems of
// TestBlockSolversMaxDenseBytes), a solve with Settings.MaxDenseBytes set
// to Workspace's bytes runs and one byte less is refused with
// ErrMemoryBound, the bytes are lobpcgBytes' closed form and the
// projected order is 3·bs.
func TestLOBPCGWorkspace(t *testing.T) {
	const n = 1000
	p := knn2DProblem(t, n)
	_, d := p.Deflate.Dims()
	gen := withB2(p)
	for _, c := range []struct {
		name   string
		solver eigen.LOBPCG
		p      eigen.Problem
		bs     int
	}{
		{"default", eigen.LOBPCG{}, p, (p.K - d) + max(2, (p.K-d+1)/2)},
		{"default-B", eigen.LOBPCG{}, gen, (p.K - d) + max(2, (p.K-d+1)/2)},
		{"BlockSize-7", eigen.LOBPCG{BlockSize: 7}, p, 7},
		{"BlockSize-below-K", eigen.LOBPCG{BlockSize: 1}, gen, p.K - d},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := lobpcgBytes(n, d, c.bs, c.p.K, c.p.B != nil)
			got, proj := c.solver.Workspace(n, c.p.K, d, c.p.B != nil)
			if got != want || proj != 3*c.bs {
				t.Fatalf("Workspace(%d, %d, %d, %v) = %d bytes, order %d; want %d, %d (block size %d)", n, c.p.K, d, c.p.B != nil, got, proj, want, 3*c.bs, c.bs)
			}
			ctx := context.Background()
			if _, err := c.solver.Solve(ctx, c.p, &eigen.Settings{Tol: 1e-8, MaxDenseBytes: got}); err != nil {
				t.Errorf("bound %d, Workspace's bytes: %v", got, err)
			}
			if _, err := c.solver.Solve(ctx, c.p, &eigen.Settings{Tol: 1e-8, MaxDenseBytes: got - 1}); !errors.Is(err, eigen.ErrMemoryBound) {
				t.Errorf("bound %d − 1: %v, want ErrMemoryBound", got, err)
			}
		})
	}
}

// TestLOBPCGDeflatedOnlyAllocates checks that LOBPCG with K = d (every
// pair wanted is deflated) allocates none of its blocks: with BlockSize 20
// on n = 1000 rows the 12 blocks of n×20 values (16 with B) are 1.9 MB
// (2.6 MB), while what K = d needs is the result's n×d vectors, finish's
// two n×d products (three with B) and with B the copy of the deflated
// vectors and B times them, 8·(6·n·d + n) bytes with a column of n, which
// Allocated (TotalAlloc, an upper bound) must not exceed by more than
// 16 KiB of small slices. The solve is not refused by a bound of one byte
// either (it holds nothing the bound counts), and returns the deflated
// pairs with their residuals.
func TestLOBPCGDeflatedOnlyAllocates(t *testing.T) {
	const n, bs = 1000, 20
	p := knn2DProblem(t, n)
	_, d := p.Deflate.Dims()
	p.K = d
	gen := withB2(p)
	limit := uint64(8*(6*n*d+n) + 16<<10)
	for _, c := range []struct {
		name string
		p    eigen.Problem
	}{{"standard", p}, {"B", gen}} {
		t.Run(c.name, func(t *testing.T) {
			for _, bound := range []int64{0, 1} {
				var res *eigen.Result
				var err error
				got := testmem.Allocated(func() {
					res, err = eigen.LOBPCG{BlockSize: bs}.Solve(context.Background(), c.p, &eigen.Settings{MaxDenseBytes: bound})
				})
				if err != nil {
					t.Fatalf("MaxDenseBytes %d: %v", bound, err)
				}
				if len(res.Values) != d || !slices.Equal(res.Values, c.p.DeflateValues) {
					t.Errorf("MaxDenseBytes %d: values %v, want the deflated %v", bound, res.Values, c.p.DeflateValues)
				}
				if got > limit {
					t.Errorf("MaxDenseBytes %d: K = d = %d on n = %d allocated %d bytes, want at most %d (no n×%d block)", bound, d, n, got, limit, bs)
				}
			}
		})
	}
}

// finishBytes is finish's memory besides the n×k result as the solvers
// document it: the kk vectors it copies, a column, and 2 (3 with B)
// products of n×min(k, 64) values, 8 bytes a value.
func finishBytes(n, k, kk int, gen bool) int64 {
	blocks := 2
	if gen {
		blocks = 3
	}
	return int64(8 * n * (kk + 1 + blocks*min(k, 64)))
}

// blockLanczosBytes is the memory Settings.MaxDenseBytes counts of a
// BlockLanczos solve as its doc states it (blockBytes): the basis of d +
// ncv + 2p vectors and three blocks of p, H and Y ((ncv+p)² each), the
// largest of a restart step's additions (EigenSym's copy and 36 values a
// row, orthoBlock's 8·ld·p + 4p², the thick restart's mh·keep + 4 tiles
// of min(512, n)·keep), and finish's.
func blockLanczosBytes(n, d, p, ncv, keep, k int) int64 {
	mh, ld := ncv+p, d+ncv+2*p
	step := max(mh*mh+36*mh, 8*ld*p+4*p*p, mh*keep+4*min(512, n)*keep)
	return int64(8*((d+ncv+5*p)*n+2*mh*mh+step)) + finishBytes(n, k, k-d, false)
}

// lobpcgBytes is the memory Settings.MaxDenseBytes counts of a LOBPCG
// solve as its doc states it: 12 blocks of n×bs (16 with B), the copy of
// the d deflated vectors (and B times them with B), the projected matrix
// and its eigenvectors (3bs)² each, the larger of EigenSym's copy with 36
// values a row and the d×bs projection coefficients, and finish's.
func lobpcgBytes(n, d, bs, k int, gen bool) int64 {
	blocks, defl := 12, n*d
	if gen {
		blocks, defl = 16, 2*n*d
	}
	s3 := 3 * bs
	return int64(8*(blocks*n*bs+defl+2*s3*s3+max(s3*s3+36*s3, d*bs))) + finishBytes(n, k, k-d, gen)
}
