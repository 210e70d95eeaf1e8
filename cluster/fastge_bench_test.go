package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/constraint"
)

var pwSink *Result

// BenchmarkPairwise500Dense runs each method of this family on a full RBF
// graph of 500 nodes (3 blobs) with 250 uniformly drawn constraints, the
// size of the FGPWC comparison table (thesis Table 4.4).
func BenchmarkPairwise500Dense(b *testing.B) {
	g, truth := pwBlobGraph(b, 500, 3, 1.5, 4)
	set, err := constraint.UniformPairs(truth, 250, rand.NewPCG(1, 2))
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []Method{SSCKA{}, CSCAP{}, FastGE{}, FastGE2{}, FastGE2BH{}, CSC{}} {
		b.Run(m.Name(), func(b *testing.B) {
			p := &Problem{Graph: g, K: 3, Constraints: set}
			for b.Loop() {
				res, err := m.Cluster(context.Background(), p, &Settings{Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				pwSink = res
			}
		})
	}
}
