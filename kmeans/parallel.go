package kmeans

import (
	"sync"
	"sync/atomic"
)

// blockSize is the number of points per block of work. Sums over points are
// formed per block and the block sums added in block order, so results do
// not depend on how many goroutines process the blocks.
const blockSize = 2048

// numBlocks returns the number of blocks covering n points.
func numBlocks(n int) int { return (n + blockSize - 1) / blockSize }

// forBlocks calls fn(b, lo, hi) for every block b = [lo, hi) of [0, n),
// using up to workers goroutines.
func forBlocks(n, workers int, fn func(b, lo, hi int)) {
	nb := numBlocks(n)
	workers = min(workers, nb)
	if workers <= 1 {
		for b := 0; b < nb; b++ {
			fn(b, b*blockSize, min((b+1)*blockSize, n))
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				b := int(next.Add(1) - 1)
				if b >= nb {
					return
				}
				fn(b, b*blockSize, min((b+1)*blockSize, n))
			}
		})
	}
	wg.Wait()
}

// sumOrdered adds the block sums in block order.
func sumOrdered(s []float64) float64 {
	var t float64
	for _, v := range s {
		t += v
	}
	return t
}
