package cluster

import (
	"context"
	"testing"
)

// BenchmarkCSCAPDirect950 is CSCAP with its defaults on autoBlobsProblem
// with 950 nodes, 2 blobs and 4750 pairs (5n, k = 2: every pair in one
// propagation), where the propagation takes its direct form
// (cscapDirect, an n×n system): realdata's tic-tac-toe at 5n, without its
// dataset. Peak memory is what to read beside the time.
func BenchmarkCSCAPDirect950(b *testing.B) {
	p, _ := autoBlobsProblem(b, 950, 2, 5*950)
	if !cscapDirectCheaper(950, 5*950) {
		b.Fatal("the direct form is not the one taken")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run(context.Background(), CSCAP{}, p, &Settings{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
