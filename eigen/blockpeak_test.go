package eigen_test

import (
	"context"
	"errors"
	"runtime/debug"
	"testing"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/internal/testmem"
)

// smallestBound returns the smallest Settings.MaxDenseBytes at which
// solver does not refuse p, by bisection on runs of one iteration.
func smallestBound(t *testing.T, solver eigen.Solver, p eigen.Problem) int64 {
	t.Helper()
	lo, hi := int64(1), int64(1)<<40
	for lo < hi {
		mid := lo + (hi-lo)/2
		_, err := solver.Solve(context.Background(), p, &eigen.Settings{Tol: 1e-6, MaxIter: 1, MaxDenseBytes: mid})
		if errors.Is(err, eigen.ErrMemoryBound) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// TestBlockSolversPeakHeap checks that Settings.MaxDenseBytes bounds what
// BlockLanczos and LOBPCG (without and with B) hold: solved with the
// smallest bound they accept, the peak growth of the heap
// (testmem.PeakHeap, with the collector at GOGC = 1 so that garbage adds
// little) is at most the bound plus the result's n×K vectors plus a
// slack of 2% of the bound and 1 MiB (the collector's pacing, the
// runtime's own, and slices of O(BlockSize) values). NJW's problem on a
// 2-D 10-NN graph of 5000 nodes, K = d + 20 pairs; B = 2I with the deflated
// vectors B-orthonormal.
func TestBlockSolversPeakHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("solves on 5000 nodes")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	const n = 5000
	p := knn2DProblem(t, n)
	_, d := p.Deflate.Dims()
	p.K = d + 20
	gen := withB2(p)
	for _, c := range []struct {
		name   string
		solver eigen.Solver
		p      eigen.Problem
	}{
		{"BlockLanczos", eigen.BlockLanczos{}, p},
		{"LOBPCG", eigen.LOBPCG{}, p},
		{"LOBPCG-B", eigen.LOBPCG{}, gen},
	} {
		t.Run(c.name, func(t *testing.T) {
			bound := smallestBound(t, c.solver, c.p)
			var err error
			var res *eigen.Result
			peak := testmem.PeakHeap(func() {
				res, err = c.solver.Solve(context.Background(), c.p, &eigen.Settings{Tol: 1e-6, MaxDenseBytes: bound})
			})
			if err != nil {
				t.Fatalf("bound %d: %v", bound, err)
			}
			result := uint64(8 * n * c.p.K)
			slack := uint64(bound)/50 + 1<<20
			t.Logf("n = %d, K = %d: bound %d, peak heap %d, result %d, peak − result − bound %d", n, c.p.K, bound, peak, result, int64(peak)-int64(result)-bound)
			if peak > uint64(bound)+result+slack {
				t.Errorf("peak heap %d > bound %d + result %d + slack %d (%d products)", peak, bound, result, slack, res.MatVecs)
			}
		})
	}
}
