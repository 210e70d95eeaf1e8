package pitmanyor_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/tether-sc/tether/pitmanyor"
)

func ExampleCRP_Sample() {
	crp := pitmanyor.CRP{Alpha: 1, Theta: 0.5}
	z, _ := crp.Sample(12, rand.NewPCG(1, 1))
	fmt.Println(z, pitmanyor.Sizes(z))
	// Output: [0 1 1 2 3 4 0 1 5 6 7 1] [2 4 1 1 1 1 1 1]
}

func ExampleCRP_LogProb() {
	crp := pitmanyor.CRP{Alpha: 1, Theta: 0.5}
	// Two customers together, one alone: (1−θ)/(α+1) · (α+θ)/(α+2) = 1/8.
	lp, _ := crp.LogProb([]int{0, 0, 1})
	fmt.Printf("%.4f\n", lp)
	// Output: -2.0794
}

func ExampleCRP_ExpectedClusters() {
	crp := pitmanyor.CRP{Alpha: 1, Theta: 0.5}
	for _, n := range []int{100, 10000, 1000000} {
		e, _ := crp.ExpectedClusters(n)
		fmt.Printf("n = %d: E[K] = %.1f\n", n, e)
	}
	// Output:
	// n = 100: E[K] = 20.7
	// n = 10000: E[K] = 223.7
	// n = 1000000: E[K] = 2254.8
}
