package parallel

import (
	"sync/atomic"
	"testing"
)

func TestRangeCoversEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 100, 12345} {
		for _, cost := range []int{0, MinWork, 10 * MinWork} {
			seen := make([]atomic.Int32, n)
			Range(n, cost, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					seen[i].Add(1)
				}
			})
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("n=%d cost=%d: index %d visited %d times", n, cost, i, c)
				}
			}
		}
	}
}
