package kmeans_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/kmeans"
)

// TestClusterScale: k-means is scale-equivariant, and Cluster gives the
// same partition of three groups of three points at 0, s and 2s for every
// scale s from 1e-300 to 1e300, uniform or weighted, Chatel or Lloyd, from
// k-means++, Init or Centers, with the centres scaled by s (within 1e-14
// relative). Before, every squared distance underflowed to 0 below about
// 1e-162: at 1e-170 k-means++ saw D² = 0, four empty clusters were
// refilled and the labels came out [1 2 0 0 0 0 0 0 0].
func TestClusterScale(t *testing.T) {
	const tol = 1e-14 // relative, on the centres
	points := func(s float64) *mat.Dense {
		x := mat.NewDense(9, 1, nil)
		for i := range 9 {
			x.Set(i, 0, float64(i/3)*s)
		}
		return x
	}
	cases := []struct {
		name string
		set  func(s float64) kmeans.Settings
	}{
		{"uniform", func(float64) kmeans.Settings { return kmeans.Settings{K: 3} }},
		{"weighted", func(float64) kmeans.Settings {
			return kmeans.Settings{K: 3, Weights: []float64{1, 2, 3, 1, 2, 3, 1, 2, 3}}
		}},
		{"lloyd", func(float64) kmeans.Settings { return kmeans.Settings{K: 3, Update: kmeans.Lloyd} }},
		{"init", func(float64) kmeans.Settings { return kmeans.Settings{K: 3, Init: []int{0, 0, 1, 1, 1, 2, 2, 2, 2}} }},
		{"centers", func(s float64) kmeans.Settings {
			return kmeans.Settings{K: 3, Centers: mat.NewDense(3, 1, []float64{0.2 * s, 0.9 * s, 1.7 * s})}
		}},
	}
	wantLabels := []int{0, 0, 0, 1, 1, 1, 2, 2, 2}
	for _, c := range cases {
		name, set := c.name, c.set
		for _, s := range []float64{1, 1e-150, 1e-170, 1e-200, 1e-300, 1e150, 1e300} {
			res, err := kmeans.Cluster(context.Background(), points(s), set(s))
			if err != nil {
				t.Errorf("%s, scale %g: %v", name, s, err)
				continue
			}
			if !samePartition(res.Labels, wantLabels) || res.Reseeds != 0 {
				t.Errorf("%s, scale %g: labels %v with %d reseeds, want the partition %v", name, s, res.Labels, res.Reseeds, wantLabels)
				continue
			}
			for i, l := range res.Labels {
				want := float64(i/3) * s
				if got := res.Centers.At(l, 0); math.Abs(got-want) > tol*2*s {
					t.Errorf("%s, scale %g: centre of point %d is %v, want %v", name, s, i, got, want)
				}
			}
		}
	}
}

// TestClusterPow2Property: on random data, uniform and weighted, Chatel
// and Lloyd, Cluster and Seed give bit-identical labels (indices),
// iterations and winning restarts for x and 2ᵉ·x, e from −1000 to 500,
// with the centres scaled by 2ᵉ and the distortion by 2²ᵉ bit for bit.
func TestClusterPow2Property(t *testing.T) {
	ctx := context.Background()
	for trial := range 6 {
		rnd := rand.New(rand.NewPCG(uint64(trial), 52))
		n, d, k := 60+rnd.IntN(100), 1+rnd.IntN(4), 2+rnd.IntN(5)
		x := mat.NewDense(n, d, nil)
		for i := range n {
			for c := range d {
				// |x| in [0.5, 4): every 2ᵉ·x below is a normal number.
				x.Set(i, c, (0.5+3.5*rnd.Float64())*float64(1-2*rnd.IntN(2)))
			}
		}
		s := kmeans.Settings{K: k, Restarts: 3}
		if trial%2 == 1 {
			s.Weights = make([]float64, n)
			for i := range s.Weights {
				s.Weights[i] = 0.1 + rnd.Float64()
			}
		}
		if trial%3 == 2 {
			s.Update = kmeans.Lloyd
		}
		s.Src = rand.NewPCG(7, 8)
		want, err := kmeans.Cluster(ctx, x, s)
		if err != nil {
			t.Fatal(err)
		}
		wantSeed, err := kmeans.Seed(x, k, rand.NewPCG(9, 10))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []int{-1000, -600, -330, -1, 1, 300, 500} {
			y := mat.NewDense(n, d, nil)
			y.Apply(func(_, _ int, v float64) float64 { return math.Ldexp(v, e) }, x)
			s.Src = rand.NewPCG(7, 8)
			got, err := kmeans.Cluster(ctx, y, s)
			if err != nil {
				t.Errorf("trial %d, 2^%d: %v", trial, e, err)
				continue
			}
			if !slices.Equal(got.Labels, want.Labels) || got.Iterations != want.Iterations || got.Restart != want.Restart {
				t.Errorf("trial %d, 2^%d: labels, iterations or restart differ from scale 1's", trial, e)
			}
			if g, w := got.Distortion, math.Ldexp(want.Distortion, 2*e); g != w {
				t.Errorf("trial %d, 2^%d: distortion %v, want %v bit for bit", trial, e, g, w)
			}
			for c := range k {
				for j := range d {
					if g, w := got.Centers.At(c, j), math.Ldexp(want.Centers.At(c, j), e); g != w {
						t.Errorf("trial %d, 2^%d: centre (%d,%d) = %v, want %v bit for bit", trial, e, c, j, g, w)
					}
				}
			}
			seed, err := kmeans.Seed(y, k, rand.NewPCG(9, 10))
			if err != nil || !slices.Equal(seed, wantSeed) {
				t.Errorf("trial %d, 2^%d: Seed gives %v (%v), want %v", trial, e, seed, err, wantSeed)
			}
		}
	}
}

// TestClusterScaleRange pins the range the Scale paragraph of Cluster
// states: the points {0, s, 10s, 11s} get the labels of s = 1 for s from
// 1e-300 to 1e150, whose distortion 2s² is finite, and an error wrapping
// ErrNonFinite for s = 1e155 and 1e200, whose distortion overflows
// (the paragraph claimed the same labels up to 1e300).
func TestClusterScaleRange(t *testing.T) {
	run := func(s float64) (*kmeans.Result, error) {
		x := mat.NewDense(4, 1, []float64{0, s, 10 * s, 11 * s})
		return kmeans.Cluster(context.Background(), x, kmeans.Settings{K: 2, Src: rand.NewPCG(1, 2)})
	}
	ref, err := run(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []float64{1e-300, 1e-154, 1e100, 1e150} {
		res, err := run(s)
		if err != nil {
			t.Fatalf("s = %g: %v", s, err)
		}
		if !slices.Equal(res.Labels, ref.Labels) {
			t.Errorf("s = %g: labels %v, want %v", s, res.Labels, ref.Labels)
		}
	}
	for _, s := range []float64{1e155, 1e200, 1e300} {
		if _, err := run(s); !errors.Is(err, kmeans.ErrNonFinite) {
			t.Errorf("s = %g: error %v, want ErrNonFinite (distortion 2s² overflows)", s, err)
		}
	}
}
