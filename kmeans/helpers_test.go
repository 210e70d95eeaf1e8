package kmeans_test

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// samePartition reports whether a and b are the same partition up to a
// relabelling of the clusters.
func samePartition(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	ab, ba := map[int]int{}, map[int]int{}
	for i := range a {
		if v, ok := ab[a[i]]; ok && v != b[i] {
			return false
		}
		if v, ok := ba[b[i]]; ok && v != a[i] {
			return false
		}
		ab[a[i]], ba[b[i]] = b[i], a[i]
	}
	return true
}

// uniformData returns n points uniform in [0,1)^d.
func uniformData(n, d int, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 99))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, r.Float64())
		}
	}
	return x
}

// blobs returns n points in k Gaussian blobs of standard deviation sd whose
// centres are sep·e_j (blob 0 at the origin) and the true labels (i mod k).
func blobs(n, d, k int, sep, sd float64, seed uint64) (*mat.Dense, []int) {
	r := rand.New(rand.NewPCG(seed, 7))
	x := mat.NewDense(n, d, nil)
	truth := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % k
		truth[i] = c
		for j := 0; j < d; j++ {
			v := sd * r.NormFloat64()
			if c > 0 && j == (c-1)%d {
				v += sep * float64(1+(c-1)/d)
			}
			x.Set(i, j, v)
		}
	}
	return x, truth
}

// sse returns Σ_i w_i ‖x_i − m_{c(i)}‖² with m_c the weighted mean of
// cluster c, computed directly (two passes), and the number of non-empty
// clusters. w nil means uniform.
func sse(x *mat.Dense, w []float64, labels []int, k int) (float64, int) {
	n, d := x.Dims()
	wt := func(i int) float64 {
		if w == nil {
			return 1
		}
		return w[i]
	}
	m := make([][]float64, k)
	s := make([]float64, k)
	for c := range m {
		m[c] = make([]float64, d)
	}
	for i := 0; i < n; i++ {
		s[labels[i]] += wt(i)
		for j := 0; j < d; j++ {
			m[labels[i]][j] += wt(i) * x.At(i, j)
		}
	}
	nonEmpty := 0
	for c := range m {
		if s[c] > 0 {
			nonEmpty++
			for j := range m[c] {
				m[c][j] /= s[c]
			}
		}
	}
	var t float64
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			e := x.At(i, j) - m[labels[i]][j]
			t += wt(i) * e * e
		}
	}
	return t, nonEmpty
}

// counts returns the cluster sizes.
func counts(labels []int, k int) []int {
	c := make([]int, k)
	for _, l := range labels {
		c[l]++
	}
	return c
}

// nonIncreasing reports the first t with trace[t] > trace[t−1] beyond a
// relative rounding allowance tol, or −1.
func nonIncreasing(trace []float64, tol float64) int {
	for t := 1; t < len(trace); t++ {
		if trace[t] > trace[t-1]+tol*math.Max(1, math.Abs(trace[t-1])) {
			return t
		}
	}
	return -1
}
