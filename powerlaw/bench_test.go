package powerlaw

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// The speed target of issue 18: the estimators on 10⁷ samples in under 2 s.

var (
	benchOnce       sync.Once
	benchX, benchXD []float64
	sinkF           float64
)

// benchData returns 10⁷ continuous and 10⁷ discrete draws, α = 2.5, x_min = 1.
func benchData(b *testing.B) ([]float64, []float64) {
	b.Helper()
	benchOnce.Do(func() {
		benchX, _ = Sample(10_000_000, 2.5, 1, false, rand.NewPCG(1, 1))
		benchXD, _ = Sample(10_000_000, 2.5, 1, true, rand.NewPCG(1, 2))
	})
	return benchX, benchXD
}

func BenchmarkMLE10M(b *testing.B) {
	x, _ := benchData(b)
	b.ResetTimer()
	for b.Loop() {
		sinkF, _, _ = MLE(x, 1)
	}
}

func BenchmarkDiscreteMLE10M(b *testing.B) {
	_, x := benchData(b)
	b.ResetTimer()
	for b.Loop() {
		sinkF, _, _ = DiscreteMLE(x, 1)
	}
}

func BenchmarkKS10M(b *testing.B) {
	x, _ := benchData(b)
	b.ResetTimer()
	for b.Loop() {
		sinkF, _ = KS(x, 2.5, 1)
	}
}

func BenchmarkKSDiscrete10M(b *testing.B) {
	_, x := benchData(b)
	b.ResetTimer()
	for b.Loop() {
		sinkF, _ = KSDiscrete(x, 2.5, 1)
	}
}

func BenchmarkLinearFit10M(b *testing.B) {
	x, _ := benchData(b)
	b.ResetTimer()
	for b.Loop() {
		sinkF, _ = LinearFit(x, 1, 1, 0)
	}
}

func BenchmarkLinearFit5Points10M(b *testing.B) {
	x, _ := benchData(b)
	b.ResetTimer()
	for b.Loop() {
		sinkF, _ = LinearFit(x, 1, 1, 5)
	}
}

func BenchmarkLogBinFit10M(b *testing.B) {
	x, _ := benchData(b)
	b.ResetTimer()
	for b.Loop() {
		sinkF, _ = LogBinFit(x, 1, 2)
	}
}

// BenchmarkTable51Estimators10M is one row group of Table 5.1 on 10⁷
// samples: the MLE, its KS distance and the three linear fits.
func BenchmarkTable51Estimators10M(b *testing.B) {
	x, _ := benchData(b)
	b.ResetTimer()
	for b.Loop() {
		a, _, _ := MLE(x, 1)
		d, _ := KS(x, a, 1)
		l1, _ := LinearFit(x, 1, 1, 0)
		l2, _ := LinearFit(x, 1, 1, 5)
		l3, _ := LogBinFit(x, 1, 2)
		sinkF = a + d + l1 + l2 + l3
	}
}

func BenchmarkFitAutoXmin1M(b *testing.B) {
	x, _ := benchData(b)
	x = x[:1_000_000]
	b.ResetTimer()
	for b.Loop() {
		r, _ := Fit(x, nil)
		sinkF = r.Alpha
	}
}

func BenchmarkSample10M(b *testing.B) {
	dst := make([]float64, 10_000_000)
	s, _ := NewSampler(2.5, 1, false)
	for b.Loop() {
		s.Fill(dst, rand.NewPCG(1, 1))
	}
}

func BenchmarkSampleDiscrete10M(b *testing.B) {
	dst := make([]float64, 10_000_000)
	s, _ := NewSampler(2.5, 1, true)
	for b.Loop() {
		s.Fill(dst, rand.NewPCG(1, 1))
	}
}
