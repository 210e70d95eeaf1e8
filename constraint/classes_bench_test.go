package constraint

import (
	"math/rand/v2"
	"testing"
)

// classTruth returns n labels drawn uniformly among k classes (seeded),
// the setting of the class-indexing benchmarks.
func classTruth(n, k int) []int {
	rng := rand.New(rand.NewPCG(7, 7))
	truth := make([]int, n)
	for i := range truth {
		truth[i] = rng.IntN(k)
	}
	return truth
}

var sinkSets [][]int

// BenchmarkLabelSets1e5x1000 draws stratified label sets (f = 0.1) on 10⁵
// nodes in 1000 classes: classMembers and the per-class draws.
func BenchmarkLabelSets1e5x1000(b *testing.B) {
	truth := classTruth(100_000, 1000)
	b.ReportAllocs()
	for r := 0; b.Loop(); r++ {
		sets, err := LabelSets(truth, 0.1, pcg(uint64(r)))
		if err != nil {
			b.Fatal(err)
		}
		sinkSets = sets
	}
}

// BenchmarkUniformMustLinks1e5x1000 draws 1000 must-links on 10⁵ nodes in
// 1000 classes: mostly newClassPairs.
func BenchmarkUniformMustLinks1e5x1000(b *testing.B) {
	truth := classTruth(100_000, 1000)
	b.ReportAllocs()
	for r := 0; b.Loop(); r++ {
		s, err := UniformMustLinks(truth, 1000, pcg(uint64(r)))
		if err != nil {
			b.Fatal(err)
		}
		sinkSet = s
	}
}

// BenchmarkLabelsToSets1e5x1000 groups 10⁵ labels of 1000 classes.
func BenchmarkLabelsToSets1e5x1000(b *testing.B) {
	l := Labels(classTruth(100_000, 1000))
	b.ReportAllocs()
	for b.Loop() {
		sinkSets = LabelsToSets(l)
	}
}

// sparseTruth is classTruth with the labels spread out: class c is label
// 5000·c, so the largest label is about 5·10⁶ for 1000 classes.
func sparseTruth(n, k int) []int {
	truth := classTruth(n, k)
	for i := range truth {
		truth[i] *= 5000
	}
	return truth
}

// BenchmarkUniformMustLinksSparse1e5x1000 is
// BenchmarkUniformMustLinks1e5x1000 with labels 0, 5000, 10000, ….
func BenchmarkUniformMustLinksSparse1e5x1000(b *testing.B) {
	truth := sparseTruth(100_000, 1000)
	b.ReportAllocs()
	for r := 0; b.Loop(); r++ {
		s, err := UniformMustLinks(truth, 1000, pcg(uint64(r)))
		if err != nil {
			b.Fatal(err)
		}
		sinkSet = s
	}
}

// BenchmarkLabelsToSetsSparse1e5x1000 is BenchmarkLabelsToSets1e5x1000
// with labels 0, 5000, 10000, ….
func BenchmarkLabelsToSetsSparse1e5x1000(b *testing.B) {
	l := Labels(sparseTruth(100_000, 1000))
	b.ReportAllocs()
	for b.Loop() {
		sinkSets = LabelsToSets(l)
	}
}
