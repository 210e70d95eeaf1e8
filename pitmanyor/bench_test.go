package pitmanyor

import (
	"math/rand/v2"
	"testing"
)

var sinkF float64

func BenchmarkSample1M(b *testing.B) {
	c := CRP{Alpha: 1, Theta: 0.5}
	for b.Loop() {
		z, _ := c.Sample(1_000_000, rand.NewPCG(1, 1))
		sinkF = float64(z[len(z)-1])
	}
}

func BenchmarkLogProb1M(b *testing.B) {
	c := CRP{Alpha: 1, Theta: 0.5}
	z, _ := c.Sample(1_000_000, rand.NewPCG(1, 1))
	b.ResetTimer()
	for b.Loop() {
		sinkF, _ = c.LogProb(z)
	}
}
