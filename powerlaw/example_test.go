package powerlaw_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/tether-sc/tether/powerlaw"
)

func ExampleMLE() {
	x, _ := powerlaw.Sample(100000, 2.5, 1, false, rand.NewPCG(1, 2))
	alpha, se, _ := powerlaw.MLE(x, 1)
	d, _ := powerlaw.KS(x, alpha, 1)
	fmt.Printf("α̂ = %.3f ± %.3f, KS = %.4f\n", alpha, se, d)
	// Output: α̂ = 2.497 ± 0.005, KS = 0.0020
}

func ExampleDiscreteMLE() {
	sizes := []float64{1, 1, 1, 1, 1, 1, 2, 2, 3, 1, 1, 5, 1, 2, 1, 12, 1, 1, 2, 1}
	exact, se, _ := powerlaw.DiscreteMLE(sizes, 1)
	approx, _, _ := powerlaw.DiscreteMLEApprox(sizes, 1)
	fmt.Printf("exact %.3f ± %.3f, approximation %.3f\n", exact, se, approx)
	// Output: exact 2.248 ± 0.305, approximation 1.916
}

func ExampleFit() {
	x, _ := powerlaw.Sample(5000, 3, 10, true, rand.NewPCG(1, 3))
	res, _ := powerlaw.Fit(x, &powerlaw.Options{Discrete: true})
	fmt.Printf("x_min = %g, α̂ = %.2f ± %.2f on %d of %d values\n", res.Xmin, res.Alpha, res.StdErr, res.NTail, res.N)
	// Output: x_min = 10, α̂ = 2.99 ± 0.03 on 5000 of 5000 values
}

func ExampleGoodnessOfFit() {
	x, _ := powerlaw.Sample(300, 2.2, 1, false, rand.NewPCG(1, 4))
	g, _ := powerlaw.GoodnessOfFit(context.Background(), x, &powerlaw.Options{Xmin: 1}, powerlaw.Bootstrap{Reps: 100, Seed: 1})
	fmt.Printf("α̂ = %.2f, p = %.2f\n", g.Fit.Alpha, g.P)
	// Output: α̂ = 2.25, p = 0.92
}

func ExampleLinearFit() {
	x, _ := powerlaw.Sample(100000, 2.5, 1, false, rand.NewPCG(1, 5))
	full, _ := powerlaw.LinearFit(x, 1, 1, 0)
	first5, _ := powerlaw.LinearFit(x, 1, 1, 5)
	logBins, _ := powerlaw.LogBinFit(x, 1, 2)
	fmt.Printf("full %.2f, first 5 points %.2f, log bins %.2f\n", full, first5, logBins)
	// Output: full 1.64, first 5 points 2.13, log bins 2.46
}

func ExampleSampler() {
	s, _ := powerlaw.NewSampler(2, 1, true)
	r := rand.New(rand.NewPCG(7, 7))
	draws := make([]float64, 8)
	for i := range draws {
		draws[i] = s.Draw(r)
	}
	fmt.Println(draws)
	// Output: [1 4 1 12 15 1 1 1]
}

func ExampleZeta() {
	fmt.Printf("ζ(2) = %.12f (π²/6 = %.12f)\n", powerlaw.Zeta(2, 1), math.Pi*math.Pi/6)
	// ζ(2.5, 3) = ζ(2.5) − 1 − 2^−2.5.
	fmt.Printf("ζ(2.5, 3) = %.12f\n", powerlaw.Zeta(2.5, 3))
	// Output:
	// ζ(2) = 1.644934066848 (π²/6 = 1.644934066848)
	// ζ(2.5, 3) = 0.164710561954
}
