package metrics

import (
	"fmt"
	"math"
)

// Hungarian solves the linear assignment problem: it returns the
// assignment that pairs each row i of the r×c matrix cost with a distinct
// column assign[i] so that the total cost Σ_i cost[i][assign[i]] is
// minimal, and that total. When r > c only c rows can be served: the others
// get assign[i] = −1. For maximization pass the negated matrix.
//
// The method is Kuhn–Munkres in the shortest-augmenting-path form with dual
// potentials (Kuhn 1955; Munkres 1957; Jonker & Volgenant 1987): each of
// the min(r, c) rows is added by one Dijkstra-like search over the columns,
// so the cost is O(min(r,c)²·max(r,c)) time — O(k³) for a k×k matrix — and
// O(r·c) memory for a copy of the matrix. The result is exactly optimal
// for integer-valued costs of magnitude below 2⁵³ and optimal up to
// rounding otherwise; ties are broken deterministically.
//
// Any finite costs are valid, up to ±math.MaxFloat64: entries above 2⁹⁶⁰
// in magnitude are scaled by 2⁻⁶⁴ internally (exactly, short of
// subnormals), so that the dual potentials cannot overflow; the total is
// the sum of the original entries and may overflow to ±Inf.
//
// An empty matrix (r = 0 or c = 0) gives all −1 and 0. Hungarian panics if
// the rows have different lengths or an entry is NaN or infinite, naming
// the row or entry.
func Hungarian(cost [][]float64) (assign []int, total float64) {
	r := len(cost)
	c := 0
	if r > 0 {
		c = len(cost[0])
	}
	maxAbs := 0.0
	for i, row := range cost {
		if len(row) != c {
			panic(fmt.Sprintf("metrics: Hungarian: row %d has %d entries, row 0 has %d", i, len(row), c))
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				panic(fmt.Sprintf("metrics: Hungarian: cost[%d][%d] = %v is not finite", i, j, v))
			}
			maxAbs = max(maxAbs, math.Abs(v))
		}
	}
	// The dual potentials and reduced costs are sums and differences of
	// entries along augmenting paths, which overflow near the float64 range
	// (and the search then never ends). Scaling by 2⁻⁶⁴ is exact
	// (short of subnormals) and leaves the optimal assignment unchanged;
	// matrices whose entries stay below 2⁹⁶⁰ in magnitude are not touched.
	scale := 1.0
	if maxAbs > 0x1p960 {
		scale = 0x1p-64
	}
	assign = make([]int, r)
	for i := range assign {
		assign[i] = -1
	}
	if r == 0 || c == 0 {
		return assign, 0
	}
	flat := make([]float64, r*c)
	if r <= c {
		for i, row := range cost {
			for j, v := range row {
				flat[i*c+j] = v * scale
			}
		}
		copy(assign, assignMin(flat, r, c))
	} else {
		// Transpose so that rows ≤ columns, then invert the answer.
		for i, row := range cost {
			for j, v := range row {
				flat[j*r+i] = v * scale
			}
		}
		for j, i := range assignMin(flat, c, r) {
			assign[i] = j
		}
	}
	for i, j := range assign {
		if j >= 0 {
			total += cost[i][j]
		}
	}
	return assign, total
}

// assignMin solves the assignment problem for the row-major r×c matrix a
// with r ≤ c and returns the column of each row. It is the O(r²c)
// shortest augmenting path algorithm: u and v are the dual potentials
// (a_ij − u_i − v_j ≥ 0 throughout, with equality on matched pairs), and
// row i is inserted by growing an alternating tree until it reaches a free
// column, always extending it along the smallest reduced cost.
func assignMin(a []float64, r, c int) []int {
	// Index 0 is a virtual column / row used as the root of each search;
	// rows and columns are numbered from 1 inside.
	u := make([]float64, r+1)
	v := make([]float64, c+1)
	match := make([]int, c+1) // match[j] = row matched to column j, 0 if free
	way := make([]int, c+1)   // predecessor column on the alternating path
	minv := make([]float64, c+1)
	used := make([]bool, c+1)
	for i := 1; i <= r; i++ {
		match[0] = i
		j0 := 0
		for j := range minv {
			minv[j] = math.Inf(1)
			used[j] = false
		}
		for {
			used[j0] = true
			i0 := match[j0]
			row := a[(i0-1)*c : i0*c]
			ui := u[i0]
			delta := math.Inf(1)
			j1 := 0
			for j := 1; j <= c; j++ {
				if used[j] {
					continue
				}
				if cur := row[j-1] - ui - v[j]; cur < minv[j] {
					minv[j] = cur
					way[j] = j0
				}
				if minv[j] < delta {
					delta = minv[j]
					j1 = j
				}
			}
			for j := 0; j <= c; j++ {
				if used[j] {
					u[match[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			if j1 == 0 {
				// No free column has a finite reduced cost: the
				// arithmetic overflowed. Hungarian scales its input so
				// that this cannot happen; stop rather than loop.
				panic(fmt.Sprintf("metrics: assignment: the reduced costs of row %d overflow", i-1))
			}
			j0 = j1
			if match[j0] == 0 {
				break
			}
		}
		// Flip the alternating path ending at the free column j0.
		for j0 != 0 {
			j1 := way[j0]
			match[j0] = match[j1]
			j0 = j1
		}
	}
	out := make([]int, r)
	for j := 1; j <= c; j++ {
		if match[j] != 0 {
			out[match[j]-1] = j - 1
		}
	}
	return out
}

// maxMatching returns the largest total weight of a one-to-one matching of
// truth rows with predicted columns, where w(i, j, count) weighs a
// non-empty cell and empty cells weigh 0 (weights must be ≥ 0), and the
// column matched to each row (−1 if none or matched through an empty
// cell). Cost O(k³) time and O(k₁k₂) memory with k = max(k₁, k₂).
func (c *Contingency) maxMatching(w func(i, j, count int) float64) (total float64, rowTo []int) {
	k1, k2 := len(c.rowSum), len(c.colSum)
	rowTo = make([]int, k1)
	for i := range rowTo {
		rowTo[i] = -1
	}
	transposed := k1 > k2
	r, cc := k1, k2
	if transposed {
		r, cc = k2, k1
	}
	a := make([]float64, r*cc)
	c.Do(func(i, j, count int) {
		x := w(i, j, count)
		if transposed {
			a[j*cc+i] = -x
		} else {
			a[i*cc+j] = -x
		}
	})
	for s, t := range assignMin(a, r, cc) {
		i, j := s, t
		if transposed {
			i, j = t, s
		}
		if count := c.At(i, j); count > 0 {
			total += w(i, j, count)
			rowTo[i] = j
		}
	}
	return total, rowTo
}
