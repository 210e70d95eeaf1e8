package synth_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/tether-sc/tether/dataset/synth"
)

func ExampleMoons() {
	// Without noise the points lie on the two half circles.
	x, labels, _ := synth.Moons(6, 0, nil)
	for i := 0; i < 6; i++ {
		fmt.Printf("label %d: (%.2f, %.2f)\n", labels[i], x.At(i, 0), x.At(i, 1))
	}
	// Output:
	// label 0: (1.00, 0.00)
	// label 0: (0.00, 1.00)
	// label 0: (-1.00, 0.00)
	// label 1: (0.00, 0.50)
	// label 1: (1.00, -0.50)
	// label 1: (2.00, 0.50)
}

func ExampleBlobs() {
	x, labels, _ := synth.Blobs(300, 3, 5, 1, rand.NewPCG(1, 2))
	n, d := x.Dims()
	fmt.Println(n, d, labels[0], labels[100], labels[299])
	// Output:
	// 300 5 0 1 2
}

func ExampleSBM() {
	// Seed 004 §3.1: n = 1000, two blocks, c_in = 10, c_out = 2.
	g, labels, _ := synth.SBM(1000, 2, 10, 2, rand.NewPCG(1, 1))
	fmt.Println(g.N(), labels[0], labels[999])
	// Expected mean degree: p_in·499 + p_out·500 = 4.99 + 1 = 5.99.
	fmt.Printf("mean degree %.0f\n", g.Volume()/1000)
	// Output:
	// 1000 0 1
	// mean degree 6
}

func ExampleThreshold() {
	// k = 2, c_in = 5, c_out = 1: c = 3 and 2√3 ≈ 3.46 < 4.
	fmt.Printf("%.4f %v\n", synth.Threshold(2, 5, 1), synth.Detectable(2, 5, 1))
	// Output:
	// 3.4641 true
}

func ExampleLookup() {
	g, err := synth.Lookup("circles")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %s (%s)\n", g.Name, g.Summary, g.DefaultString())
	p := g.Defaults
	p.N = 200
	d, err := g.Generate(context.Background(), p, rand.NewPCG(1, 1))
	if err != nil {
		fmt.Println(err)
		return
	}
	n, dim := d.X.Dims()
	fmt.Println(n, dim, d.Labels[0], d.Labels[199])

	_, err = synth.Lookup("spirals")
	fmt.Println(err)
	_, err = synth.Lookup("circels")
	fmt.Println(err)
	// Output:
	// circles: two concentric circles (scikit-learn make_circles), 2 classes (n=900 noise=0.05 factor=0.5)
	// 200 2 0 1
	// synth: invalid parameter: unknown generator "spirals" (known: moons, circles, interlaced, xor, blobs, sbm, dcsbm)
	// synth: invalid parameter: unknown generator "circels": did you mean circles? (known: moons, circles, interlaced, xor, blobs, sbm, dcsbm)
}
