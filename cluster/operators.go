package cluster

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// scaledGraph is c·W for a graph W.
type scaledGraph struct {
	g *graph.Graph
	c float64
}

// symOp is the symmetric matrix A = Σ_t c_t W_t + diag(dg) + U diag(coef) Uᵀ:
// sparse graphs plus a diagonal plus a low-rank term. It never forms A.
// MulTo costs O(Σ nnz(W_t)·p + n·q·p) for q low-rank columns.
type symOp struct {
	n     int
	parts []scaledGraph
	dg    []float64  // nil means 0
	u     *mat.Dense // n×q, nil means no low-rank term
	coef  []float64  // len q
}

// Dim returns n.
func (a *symOp) Dim() int { return a.n }

// addLowRank appends the columns of u (n×q) with coefficients coef.
func (a *symOp) addLowRank(cols [][]float64, coef []float64) {
	if len(cols) == 0 {
		return
	}
	q0 := 0
	if a.u != nil {
		_, q0 = a.u.Dims()
	}
	u := mat.NewDense(a.n, q0+len(cols), nil)
	if a.u != nil {
		u.Slice(0, a.n, 0, q0).(*mat.Dense).Copy(a.u)
	}
	for j, c := range cols {
		u.SetCol(q0+j, c)
	}
	a.u = u
	a.coef = append(a.coef, coef...)
}

// MulTo sets dst = A·x.
func (a *symOp) MulTo(dst, x *mat.Dense) {
	_, p := x.Dims()
	dst.Zero()
	if len(a.parts) > 0 {
		tmp := mat.NewDense(a.n, p, nil)
		for _, t := range a.parts {
			t.g.MulTo(tmp, x)
			dst.Add(dst, scaleBy(tmp, t.c))
		}
	}
	if a.dg != nil {
		dm, xr := dst.RawMatrix(), x.RawMatrix()
		for i, v := range a.dg {
			if v == 0 {
				continue
			}
			out := dm.Data[i*dm.Stride : i*dm.Stride+p]
			for c, xv := range xr.Data[i*xr.Stride : i*xr.Stride+p] {
				out[c] += v * xv
			}
		}
	}
	if a.u != nil {
		_, q := a.u.Dims()
		t := mat.NewDense(q, p, nil)
		t.Mul(a.u.T(), x)
		for j, c := range a.coef {
			row := t.RawRowView(j)
			for i := range row {
				row[i] *= c
			}
		}
		tmp := mat.NewDense(a.n, p, nil)
		tmp.Mul(a.u, t)
		dst.Add(dst, tmp)
	}
}

// scaleBy returns c·m, in place when c ≠ 1.
func scaleBy(m *mat.Dense, c float64) *mat.Dense {
	if c != 1 {
		m.Scale(c, m)
	}
	return m
}

// rowSums returns A·1.
func (a *symOp) rowSums() []float64 {
	one := mat.NewDense(a.n, 1, nil)
	for i := 0; i < a.n; i++ {
		one.Set(i, 0, 1)
	}
	out := mat.NewDense(a.n, 1, nil)
	a.MulTo(out, one)
	return out.RawMatrix().Data[:a.n:a.n]
}

// diagonal returns A_ii.
func (a *symOp) diagonal() []float64 {
	d := make([]float64, a.n)
	for _, t := range a.parts {
		for i := range d {
			d[i] += t.c * t.g.Weight(i, i)
		}
	}
	for i, v := range a.dg {
		d[i] += v
	}
	if a.u != nil {
		for i := range d {
			row := a.u.RawRowView(i)
			for j, c := range a.coef {
				d[i] += c * row[j] * row[j]
			}
		}
	}
	return d
}

// formOp is P = diag(pd) − β·A, with pd = α + A·1: the unnormalized
// Laplacian L = D − A (α = 0, β = 1) or the Bethe Hessian
// H(r) = (r² − 1)I − rA + D of seed 004 eq. 3.5 (α = r² − 1, β = r).
type formOp struct {
	a    *symOp
	pd   []float64
	beta float64
}

// laplacianOf returns L = D − A.
func laplacianOf(a *symOp) *formOp {
	return &formOp{a: a, pd: a.rowSums(), beta: 1}
}

// betheOf returns H(r) = (r² − 1)I − rA + D (seed 004 eq. 3.5). Eq. 3.5 is
// stated for unweighted graphs; we apply it to the weighted adjacency
// matrices of G_N and G_H as they are, because the weighted form (eq. 3.6)
// needs r > max A_ij, which the constraint weights d_i d_j/(d_min d_max)
// violate. At r = 1 it is the Laplacian.
func betheOf(a *symOp, r float64) *formOp {
	d := a.rowSums()
	for i := range d {
		d[i] += r*r - 1
	}
	return &formOp{a: a, pd: d, beta: r}
}

// Dim returns n.
func (f *formOp) Dim() int { return f.a.n }

// MulTo sets dst = P·x.
func (f *formOp) MulTo(dst, x *mat.Dense) {
	f.a.MulTo(dst, x)
	_, p := x.Dims()
	dm, xr := dst.RawMatrix(), x.RawMatrix()
	for i, v := range f.pd {
		out := dm.Data[i*dm.Stride : i*dm.Stride+p]
		xi := xr.Data[i*xr.Stride : i*xr.Stride+p]
		for c := range out {
			out[c] = v*xi[c] - f.beta*out[c]
		}
	}
}

// trace returns Σ_i P_ii.
func (f *formOp) trace() float64 {
	ad := f.a.diagonal()
	var t float64
	for i, v := range f.pd {
		t += v - f.beta*ad[i]
	}
	return t
}

// compOp is s·Z Zᵀ where the columns of Z are the normalized indicators
// 1_C/√|C| of the components C of a partition: (ZZᵀx)_i is the mean of x
// over i's component. Cost O(n·p).
type compOp struct {
	comp []int
	size []float64
	s    float64
}

// Dim returns n.
func (c *compOp) Dim() int { return len(c.comp) }

// MulTo sets dst = s·Z Zᵀ x.
func (c *compOp) MulTo(dst, x *mat.Dense) {
	_, p := x.Dims()
	sum := make([]float64, len(c.size)*p)
	xr, dm := x.RawMatrix(), dst.RawMatrix()
	for i, k := range c.comp {
		for j, v := range xr.Data[i*xr.Stride : i*xr.Stride+p] {
			sum[k*p+j] += v
		}
	}
	for i, k := range c.comp {
		f := c.s / c.size[k]
		out := dm.Data[i*dm.Stride : i*dm.Stride+p]
		for j := range out {
			out[j] = f * sum[k*p+j]
		}
	}
}

// newCompOp returns s·ZZᵀ for the partition comp with count parts.
func newCompOp(comp []int, count int, s float64) *compOp {
	size := make([]float64, count)
	for _, k := range comp {
		size[k]++
	}
	return &compOp{comp: comp, size: size, s: s}
}

// comboOp is Σ_t c_t Op_t.
type comboOp struct {
	ops  []eigen.Operator
	coef []float64
}

// Dim returns n.
func (c *comboOp) Dim() int { return c.ops[0].Dim() }

// MulTo sets dst = Σ_t c_t Op_t x.
func (c *comboOp) MulTo(dst, x *mat.Dense) {
	r, p := x.Dims()
	c.ops[0].MulTo(dst, x)
	scaleBy(dst, c.coef[0])
	if len(c.ops) == 1 {
		return
	}
	tmp := mat.NewDense(r, p, nil)
	for t, op := range c.ops[1:] {
		op.MulTo(tmp, x)
		dst.Add(dst, scaleBy(tmp, c.coef[t+1]))
	}
}

// denseAdder is an operator that can add c times its matrix to a dense
// row-major n×n array (both triangles).
type denseAdder interface {
	addDenseTo(m []float64, c float64)
}

// addDenseTo adds c·A to the row-major n×n array m. Cost O(Σ nnz + n²q).
func (a *symOp) addDenseTo(m []float64, c float64) {
	n := a.n
	for _, t := range a.parts {
		for i := 0; i < n; i++ {
			idx, w := t.g.Row(i)
			row := m[i*n : (i+1)*n]
			for e, j := range idx {
				row[j] += c * t.c * w[e]
			}
		}
	}
	for i, v := range a.dg {
		m[i*n+i] += c * v
	}
	if a.u != nil {
		for q, cq := range a.coef {
			col := mat.Col(nil, q, a.u)
			for i, ui := range col {
				f := c * cq * ui
				if f == 0 {
					continue
				}
				row := m[i*n : (i+1)*n]
				for j, uj := range col {
					row[j] += f * uj
				}
			}
		}
	}
}

// addDenseTo adds c·P = c·(diag(pd) − βA) to m.
func (f *formOp) addDenseTo(m []float64, c float64) {
	f.a.addDenseTo(m, -c*f.beta)
	n := f.a.n
	for i, v := range f.pd {
		m[i*n+i] += c * v
	}
}

// addDenseTo adds a·s·ZZᵀ to m: a·s/|C| on the pairs of a component C.
func (c *compOp) addDenseTo(m []float64, a float64) {
	n := len(c.comp)
	for i, ki := range c.comp {
		f := a * c.s / c.size[ki]
		row := m[i*n : (i+1)*n]
		for j, kj := range c.comp {
			if kj == ki {
				row[j] += f
			}
		}
	}
}

// addDenseTo adds c·Σ_t c_t Op_t to m; every Op_t must be a denseAdder.
func (c *comboOp) addDenseTo(m []float64, f float64) {
	for t, op := range c.ops {
		op.(denseAdder).addDenseTo(m, f*c.coef[t])
	}
}

// degreeRange returns d_min and d_max of d, or an error wrapping
// graph.ErrIsolated naming the first node of degree 0 (the constraint
// weights d_i d_j/(d_min d_max) divide by d_min); Run adds what to do
// (isolatedInvalid).
func degreeRange(d []float64, method string) (dmin, dmax float64, err error) {
	dmin = math.Inf(1)
	for i, v := range d {
		if v <= 0 {
			return 0, 0, fmt.Errorf("cluster: %s: %w: node %d has degree 0, and the constraint weights d_i d_j/(d_min d_max) of seed 004 §5.2 divide by d_min", method, graph.ErrIsolated, i)
		}
		dmin = math.Min(dmin, v)
		dmax = math.Max(dmax, v)
	}
	return dmin, dmax, nil
}

// dot returns aᵀb, summed in index order (OPPLC's online scores and the
// conjugate gradients of L1CSC). Vectors of different lengths are a
// programming error: it panics naming both lengths.
func dot(a, b []float64) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("cluster: feature length %d, weights %d", len(b), len(a)))
	}
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
