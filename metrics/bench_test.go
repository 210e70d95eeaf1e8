package metrics

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

var (
	sinkFloat float64
	sinkInts  []int
)

// benchPair returns two correlated partitions of n items into k clusters.
func benchPair(n, k int) (truth, pred []int) {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	truth = randPartition(rng, n, k)
	pred = make([]int, n)
	for i, t := range truth {
		if rng.IntN(4) == 0 {
			pred[i] = rng.IntN(k)
		} else {
			pred[i] = t
		}
	}
	return truth, pred
}

func BenchmarkARI(b *testing.B) {
	for _, k := range []int{10, 10000} {
		b.Run(fmt.Sprintf("n=1e6/k=%d", k), func(b *testing.B) {
			truth, pred := benchPair(1_000_000, k)
			b.ResetTimer()
			for range b.N {
				v, err := ARI(truth, pred)
				if err != nil {
					b.Fatal(err)
				}
				sinkFloat = v
			}
		})
	}
}

func BenchmarkNMI(b *testing.B) {
	for _, k := range []int{10, 10000} {
		b.Run(fmt.Sprintf("n=1e6/k=%d", k), func(b *testing.B) {
			truth, pred := benchPair(1_000_000, k)
			b.ResetTimer()
			for range b.N {
				v, err := NMI(truth, pred, Joint)
				if err != nil {
					b.Fatal(err)
				}
				sinkFloat = v
			}
		})
	}
}

func BenchmarkHungarian200(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 3))
	cost := make([][]float64, 200)
	for i := range cost {
		cost[i] = make([]float64, 200)
		for j := range cost[i] {
			cost[i][j] = rng.Float64()
		}
	}
	b.ResetTimer()
	for range b.N {
		sinkInts, sinkFloat = Hungarian(cost)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	truth, pred := benchPair(100_000, 50)
	b.ResetTimer()
	for range b.N {
		r, err := Evaluate(truth, pred, nil)
		if err != nil {
			b.Fatal(err)
		}
		sinkFloat = r.Figures[0].Value
	}
}
