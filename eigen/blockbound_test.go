package eigen_test

import (
	"context"
	"errors"
	"fmt"
	"math"
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
// counted here from the solvers' documented workspace, independently of
// their code: BlockLanczos's basis of d + NCV + 2p vectors of n values,
// its three work blocks of p and three (NCV+p)² projected matrices;
// LOBPCG's 12 blocks of n×BlockSize (16 and B times the d deflated
// vectors with B) and three (3·BlockSize)² matrices, 8 bytes a value.
// With no bound (0) and with a bound of exactly that many bytes the solve
// is the same bit for bit (values, vectors, products); one byte less and
// it is refused, before any product, with an error wrapping ErrInvalid
// and ErrMemoryBound that names both sizes.
func TestBlockSolversMaxDenseBytes(t *testing.T) {
	const n = 1000
	p := knn2DProblem(t, n)
	_, d := p.Deflate.Dims()
	gen := p
	gen.B = make(diagOp, n)
	for i := range gen.B.(diagOp) {
		gen.B.(diagOp)[i] = 2
	}
	var z mat.Dense
	z.Scale(1/math.Sqrt2, p.Deflate)
	gen.Deflate = &z
	const bs, ncv, keep = 4, 40, 8
	blockNeed := int64(8 * ((d+ncv+5*bs)*n + 3*(ncv+bs)*(ncv+bs)))
	wide := p
	wide.K = d + 6 // 6 pairs not deflated: BlockSize 4 is kept
	const lbs = 6
	lobNeed := int64(8 * (12*n*lbs + 3*(3*lbs)*(3*lbs)))
	genNeed := int64(8 * (16*n*lbs + n*d + 3*(3*lbs)*(3*lbs)))
	for _, c := range []struct {
		name   string
		solver eigen.Solver
		p      eigen.Problem
		need   int64
		want   string
	}{
		{"BlockLanczos", eigen.BlockLanczos{BlockSize: bs, NCV: ncv, Keep: keep}, wide, blockNeed,
			fmt.Sprintf("for its basis of %d vectors of n values (%d deflated, NCV = %d and two blocks of %d), its three work blocks of %d vectors and its three %d×%d projected matrices", d+ncv+2*bs, d, ncv, bs, bs, ncv+bs, ncv+bs)},
		{"LOBPCG", eigen.LOBPCG{BlockSize: lbs}, p, lobNeed,
			fmt.Sprintf("for its 12 blocks of n×%d values and its three %d×%d projected matrices", lbs, 3*lbs, 3*lbs)},
		{"LOBPCG-B", eigen.LOBPCG{BlockSize: lbs}, gen, genNeed,
			fmt.Sprintf("for its 16 blocks of n×%d values, B times its %d deflated vectors and its three %d×%d projected matrices", lbs, d, 3*lbs, 3*lbs)},
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
// ErrMemoryBound, the bytes are 8·(12·n·bs + 27·bs²) (16·n·bs + n·d with
// B) and the projected order is 3·bs.
func TestLOBPCGWorkspace(t *testing.T) {
	const n = 1000
	p := knn2DProblem(t, n)
	_, d := p.Deflate.Dims()
	gen := p
	gen.B = make(diagOp, n)
	for i := range gen.B.(diagOp) {
		gen.B.(diagOp)[i] = 2
	}
	var z mat.Dense
	z.Scale(1/math.Sqrt2, p.Deflate)
	gen.Deflate = &z
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
			blocks, extra := 12, 0
			if c.p.B != nil {
				blocks, extra = 16, n*d
			}
			want := int64(8 * (blocks*n*c.bs + extra + 27*c.bs*c.bs))
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
	gen := p
	gen.B = make(diagOp, n)
	for i := range gen.B.(diagOp) {
		gen.B.(diagOp)[i] = 2
	}
	var z mat.Dense
	z.Scale(1/math.Sqrt2, p.Deflate)
	gen.Deflate = &z
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
