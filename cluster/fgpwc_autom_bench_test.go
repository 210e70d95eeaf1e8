package cluster

import "testing"

// BenchmarkFGPWCAutoM20k is FGPWC with NewFGPWC's defaults (the automatic
// m of seed 003 §5.1: #{λ(L_sym) < 0.9}, at most 200) on 2·10⁴ points of 5
// overlapping Gaussian blobs in 3-D, their symmetric 10-NN graph, and
// 10⁴ pairs (about n/2, as pairs-1/n) drawn from the blobs. Far more than
// 200 eigenvalues lie below 0.9, so the automatic m is the cap, reached by
// requests of 16, 32, 64, 128 and 200 pairs (fgpwcAutoEmbedKind).
func BenchmarkFGPWCAutoM20k(b *testing.B) {
	p, truth := autoBlobsProblem(b, 20000, 5, 10000)
	benchmarkFGPWC(b, p, *NewFGPWC(), truth)
}
