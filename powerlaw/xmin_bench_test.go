package powerlaw

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// smallTail returns n values: a lognormal body (μ = 0.5, σ = 0.6) below 10
// and a power-law tail of n/div values above 10 with α = 2.2 — with div =
// 100, the data set of the QA pass (gen4.py, smalltail2.txt) whose tail
// an x_min scan over 100 rank-spaced candidates missed. Order: body, then
// tail.
func smallTail(n, div int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0x7461696c))
	nt := n / div
	x := make([]float64, 0, n)
	for len(x) < n-nt {
		if v := math.Exp(0.5 + 0.6*r.NormFloat64()); v < 10 {
			x = append(x, v)
		}
	}
	for range nt {
		x = append(x, 10*math.Pow(1-r.Float64(), -1/1.2))
	}
	return x
}

// BenchmarkFitAuto: the choice of x_min (Options.Xmin = 0, defaults) on a
// pure power law (α = 2.5, x_min = 1) and on smallTail, 10⁵ and 10⁶ values.
func BenchmarkFitAuto(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		pure, _ := Sample(n, 2.5, 1, false, rand.NewPCG(1, 1))
		for _, d := range []struct {
			name string
			x    []float64
		}{{"pure", pure}, {"smalltail", smallTail(n, 100, 1)}} {
			b.Run(fmt.Sprintf("%s/n=%d", d.name, n), func(b *testing.B) {
				loop(b, func() {
					r, err := Fit(d.x, nil)
					if err != nil {
						b.Fatal(err)
					}
					sinkF = r.Alpha
				})
			})
		}
	}
}
