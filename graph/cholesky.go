package graph

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// CholeskySymbolic is the symbolic analysis of the sparse Cholesky
// factorization of a matrix with a graph's pattern (its Laplacian plus a
// diagonal): a fill-reducing order (MinDegreeOrder), the elimination tree
// of the reordered matrix, the number of entries of each column of its
// factor, and the factor's supernodes (runs of consecutive columns whose
// patterns nest, stored as dense blocks). It tells what the factorization
// will cost before it is made (Entries, Flops) and is reused by Factor.
// Made by AnalyzeCholesky.
type CholeskySymbolic struct {
	n      int
	order  []int   // order[k]: the node eliminated k-th
	pos    []int32 // pos[node] = k
	parent []int32 // elimination tree of the reordered matrix, −1 at roots
	counts []int   // entries of each column of the factor, diagonal included
	// Supernode t holds columns first[t] ≤ j < first[t+1] and the rows
	// rows[rowPtr[t]:rowPtr[t+1]] (its first column's pattern, ascending:
	// its own columns, then the rows below), stored row-major from
	// blockPtr[t].
	first, rowPtr, blockPtr []int
	rows                    []int32
	super                   []int32 // supernode of each column
	entries                 int64
	flops                   float64
}

// ErrTooLarge is wrapped by AnalyzeCholesky's error when the factor would
// exceed the caller's limit.
var ErrTooLarge = errors.New("graph: factor too large")

// maxSupernode bounds a supernode's width, so that the dense
// factorization of its diagonal block (width³/3 multiply-adds) stays
// short between two checks of ctx.
const maxSupernode = 128

// AnalyzeCholesky orders g's nodes by MinDegreeOrder and computes the
// elimination tree, the column counts and the supernodes of the Cholesky
// factor of any positive definite matrix with g's pattern, in that order
// (Liu, "The role of elimination trees in sparse factorization", SIAM J.
// Matrix Anal. Appl. 11, 1990: the pattern of row k of the factor is the
// union of the tree paths from the nonzeros of row k of the matrix up to
// k). Column j + 1 joins column j's supernode when it is j's parent and
// has one entry fewer (the same pattern below), up to maxSupernode
// columns. With maxEntries > 0 it stops, with an error wrapping
// ErrTooLarge, as soon as the factor is known to hold more entries than
// that (before its supernodes' rows are stored). Cost: the ordering's,
// plus O(entries of the factor); ctx is checked as the order is made and
// every 256 rows, and its error returned, wrapped.
func AnalyzeCholesky(ctx context.Context, g *Graph, maxEntries int64) (*CholeskySymbolic, error) {
	order, err := g.MinDegreeOrder(ctx)
	if err != nil {
		return nil, err
	}
	n := g.n
	s := &CholeskySymbolic{n: n, order: order, pos: make([]int32, n), parent: make([]int32, n), counts: make([]int, n)}
	for k, v := range order {
		s.pos[v] = int32(k)
	}
	// Elimination tree, with path compression through ancestor.
	ancestor := make([]int32, n)
	for k := 0; k < n; k++ {
		s.parent[k], ancestor[k] = -1, -1
		for _, j := range g.idx[g.ptr[order[k]]:g.ptr[order[k]+1]] {
			for i := s.pos[j]; i != -1 && int(i) < k; {
				next := ancestor[i]
				ancestor[i] = int32(k)
				if next == -1 {
					s.parent[i] = int32(k)
				}
				i = next
			}
		}
	}
	// rowPattern calls f for the columns i < k of row k of the factor:
	// every column on the tree paths from the nonzeros of row k of A up
	// to k.
	visited := make([]int32, n)
	rowPattern := func(k int, f func(i int32)) {
		visited[k] = int32(k)
		for _, j := range g.idx[g.ptr[order[k]]:g.ptr[order[k]+1]] {
			for i := s.pos[j]; int(i) < k && visited[i] != int32(k); i = s.parent[i] {
				visited[i] = int32(k)
				f(i)
			}
		}
	}
	cancelled := func(k int) error {
		if k&255 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("graph: Cholesky analysis cancelled: %w", err)
			}
		}
		return nil
	}
	for k := 0; k < n; k++ {
		if err := cancelled(k); err != nil {
			return nil, err
		}
		s.counts[k]++ // the diagonal
		row := int64(1)
		rowPattern(k, func(i int32) { s.counts[i]++; row++ })
		if s.entries += row; maxEntries > 0 && s.entries > maxEntries {
			return nil, fmt.Errorf("%w: the Cholesky factor of %d nodes holds more than %d entries", ErrTooLarge, n, maxEntries)
		}
	}
	s.super = make([]int32, n)
	for j := 0; j < n; j++ {
		c := float64(s.counts[j] - 1)
		s.flops += c * (c + 1) / 2
		t := len(s.first) - 1
		if j == 0 || s.parent[j-1] != int32(j) || s.counts[j-1] != s.counts[j]+1 || j-s.first[t] >= maxSupernode {
			s.first = append(s.first, j)
			t++
		}
		s.super[j] = int32(t)
	}
	nsup := len(s.first)
	s.first = append(s.first, n)
	s.rowPtr, s.blockPtr = make([]int, nsup+1), make([]int, nsup+1)
	for t := 0; t < nsup; t++ {
		m := s.counts[s.first[t]]
		s.rowPtr[t+1] = s.rowPtr[t] + m
		s.blockPtr[t+1] = s.blockPtr[t] + m*(s.first[t+1]-s.first[t])
	}
	// The rows of each supernode: its first column's pattern, filled in
	// ascending order, row k after the diagonal. visited needs no reset:
	// row i sets visited[i] = i before any row k > i walks through i.
	s.rows = make([]int32, s.rowPtr[nsup])
	next := make([]int, nsup)
	copy(next, s.rowPtr[:nsup])
	for k := 0; k < n; k++ {
		if err := cancelled(k); err != nil {
			return nil, err
		}
		if t := s.super[k]; s.first[t] == k {
			s.rows[next[t]] = int32(k)
			next[t]++
		}
		rowPattern(k, func(i int32) {
			if t := s.super[i]; s.first[t] == int(i) {
				s.rows[next[t]] = int32(k)
				next[t]++
			}
		})
	}
	return s, nil
}

// Entries returns the number of entries of the factor, its diagonal
// included.
func (s *CholeskySymbolic) Entries() int64 { return s.entries }

// Stored returns the number of values Factor stores: each supernode's
// rows times its width, its diagonal block whole (8 bytes each).
func (s *CholeskySymbolic) Stored() int64 { return int64(s.blockPtr[len(s.blockPtr)-1]) }

// Flops returns the multiply-adds of the numerical factorization,
// Σ_j c_j(c_j + 1)/2 over the columns' c_j entries below the diagonal.
func (s *CholeskySymbolic) Flops() float64 { return s.flops }

// CholeskyInverse applies (L + σI)⁻¹, for L = D − W the unnormalized
// Laplacian of a graph or L_sym = I − D^{-1/2}WD^{-1/2} and σ > 0, through
// the sparse Cholesky factor of A = L + σI (Unnormalized) or A = D − W + σD
// (Symmetric: (L_sym + σI)⁻¹ = D^{1/2}A⁻¹D^{1/2}) in a minimum degree order
// (AnalyzeCholesky). It satisfies eigen.Operator.
//
// It is the direct solver of shift-and-invert Lanczos for the smallest
// eigenpairs of a Laplacian when they lie below an iterative solver's
// resolution (eigenvalues below tol·‖L‖, from nodes of near-zero degree or
// weights spanning many orders of magnitude): the operator's eigenvalues
// 1/(λ + σ) separate them by their ratios, not by their gaps relative to
// ‖L‖. Cholesky factorization is backward stable, so the eigenvalues it
// yields are as accurate as a dense solver's (absolute error about
// ε·‖L‖). Memory: 8 bytes per stored value (CholeskySymbolic.Stored).
type CholeskyInverse struct {
	sym   *CholeskySymbolic
	kind  LaplacianKind
	sigma float64
	sqrtD []float64 // √d of the node eliminated k-th for Symmetric, nil for Unnormalized
	vals  []float64 // the supernodes' blocks
}

// Factor computes the factor of L + σI (kind Unnormalized) or D − W + σD
// (kind Symmetric) for g, the graph s was made from (CholeskyInverse), by
// left-looking supernodal Cholesky: each supernode's block gathers the
// matrix's columns and the updates of the supernodes below it in the
// elimination tree (dense products, blas64.Gemm), then its diagonal block
// is factored (lapack64.Potrf) and the rows below solved against it
// (blas64.Trsm). It returns an error wrapping ErrInvalid for σ not
// positive and finite, another kind, or a graph of another size; one
// wrapping ErrIsolated for a node of degree zero with Symmetric; an error
// when a pivot is not positive (the matrix is not numerically positive
// definite: σ below the rounding error of L); and ctx's error, wrapped,
// when cancelled (checked before each supernode and every 64 updates).
// Cost about s.Flops() multiply-adds; memory s.Stored() values.
func (s *CholeskySymbolic) Factor(ctx context.Context, g *Graph, kind LaplacianKind, sigma float64) (*CholeskyInverse, error) {
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		return nil, fmt.Errorf("%w: Cholesky shift σ = %v must be positive and finite", ErrInvalid, sigma)
	}
	if kind != Unnormalized && kind != Symmetric {
		return nil, fmt.Errorf("%w: Cholesky factor of %v: only L and L_sym", ErrInvalid, kind)
	}
	if g.n != s.n {
		return nil, fmt.Errorf("%w: Cholesky analysis of %d nodes applied to a graph of %d", ErrInvalid, s.n, g.n)
	}
	n := s.n
	c := &CholeskyInverse{sym: s, kind: kind, sigma: sigma, vals: make([]float64, s.Stored())}
	if kind == Symmetric {
		c.sqrtD = make([]float64, n)
		for k, v := range s.order {
			d := g.deg[v]
			if !(d > 0) {
				return nil, fmt.Errorf("%w: node %d has degree %v", ErrIsolated, v, d)
			}
			c.sqrtD[k] = math.Sqrt(d)
		}
	}
	cancelled := func() error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("graph: Cholesky factorization cancelled: %w", err)
		}
		return nil
	}
	nsup := len(s.first) - 1
	relpos := make([]int32, n) // row → its position in the current supernode
	// Supernodes waiting to update supernode t: a list through link from
	// head[t]; nextRow[u] is the position in u's rows of its first row
	// not yet used in an update.
	head, link, nextRow := make([]int32, nsup), make([]int32, nsup), make([]int, nsup)
	for t := range head {
		head[t] = -1
	}
	var tmp []float64
	updates := 0
	for t := 0; t < nsup; t++ {
		if err := cancelled(); err != nil {
			return nil, err
		}
		f, l := s.first[t], s.first[t+1]
		w := l - f
		rows := s.rows[s.rowPtr[t]:s.rowPtr[t+1]]
		m := len(rows)
		blk := c.vals[s.blockPtr[t]:s.blockPtr[t+1]]
		for a, r := range rows {
			relpos[r] = int32(a)
		}
		// The matrix's columns f..l−1, lower part.
		for j := f; j < l; j++ {
			v := s.order[j]
			diag := g.deg[v] + sigma
			if kind == Symmetric {
				diag = g.deg[v] * (1 + sigma)
			}
			for e := g.ptr[v]; e < g.ptr[v+1]; e++ {
				q := int(s.pos[g.idx[e]])
				switch {
				case q == j:
					diag -= g.w[e] // a self-loop adds w to d_v and −w to W_vv
				case q > j:
					blk[int(relpos[q])*w+j-f] -= g.w[e]
				}
			}
			blk[(j-f)*w+j-f] += diag
		}
		// Updates from the supernodes below: rows p..q−1 of supernode u
		// lie in columns f..l−1.
		u := head[t]
		head[t] = -1
		for u >= 0 {
			if updates++; updates&63 == 0 {
				if err := cancelled(); err != nil {
					return nil, err
				}
			}
			nextU := link[u]
			urows := s.rows[s.rowPtr[u]:s.rowPtr[u+1]]
			uw := s.first[u+1] - s.first[u]
			ublk := c.vals[s.blockPtr[u]:s.blockPtr[u+1]]
			p := nextRow[u]
			q := p
			for q < len(urows) && int(urows[q]) < l {
				q++
			}
			mu, wu := len(urows)-p, q-p
			// C = L_u[p:, :] · L_u[p:q, :]ᵀ, (mu × wu), subtracted from
			// the block at rows relpos[urows[p+a]], columns urows[p+b] − f.
			if cap(tmp) < mu*wu {
				tmp = make([]float64, mu*wu)
			}
			cm := tmp[:mu*wu]
			a := blas64.General{Rows: mu, Cols: uw, Stride: uw, Data: ublk[p*uw:]}
			b := blas64.General{Rows: wu, Cols: uw, Stride: uw, Data: ublk[p*uw:]}
			blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, b, 0, blas64.General{Rows: mu, Cols: wu, Stride: wu, Data: cm})
			for i := 0; i < mu; i++ {
				row := blk[int(relpos[urows[p+i]])*w:]
				for j, x := range cm[i*wu : (i+1)*wu] {
					row[int(urows[p+j])-f] -= x
				}
			}
			nextRow[u] = q
			if q < len(urows) {
				v := s.super[urows[q]]
				link[u], head[v] = head[v], int32(u)
			}
			u = nextU
		}
		// Factor the diagonal block, then solve the rows below against it.
		diag := blas64.Symmetric{Uplo: blas.Lower, N: w, Stride: w, Data: blk[:w*w]}
		lt, ok := lapack64.Potrf(diag)
		if !ok {
			return nil, fmt.Errorf("graph: Cholesky factor of %v + σI (σ = %.3g) is not numerically positive definite at the pivots of nodes %d…%d", kind, sigma, f, l-1)
		}
		for a := 0; a < w; a++ {
			clear(blk[a*w+a+1 : (a+1)*w])
		}
		if m > w {
			blas64.Trsm(blas.Right, blas.Trans, 1, lt, blas64.General{Rows: m - w, Cols: w, Stride: w, Data: blk[w*w:]})
			nextRow[t] = w
			v := s.super[rows[w]]
			link[t], head[v] = head[v], int32(t)
		}
	}
	return c, nil
}

// NewCholeskyInverse analyzes and factors in one call: AnalyzeCholesky
// without a limit, then Factor.
func NewCholeskyInverse(ctx context.Context, g *Graph, kind LaplacianKind, sigma float64) (*CholeskyInverse, error) {
	s, err := AnalyzeCholesky(ctx, g, 0)
	if err != nil {
		return nil, err
	}
	return s.Factor(ctx, g, kind, sigma)
}

// Dim returns the number of nodes.
func (c *CholeskyInverse) Dim() int { return c.sym.n }

// Shift returns σ.
func (c *CholeskyInverse) Shift() float64 { return c.sigma }

// Kind returns the Laplacian whose shifted inverse is applied.
func (c *CholeskyInverse) Kind() LaplacianKind { return c.kind }

// Entries returns the number of entries of the factor.
func (c *CholeskyInverse) Entries() int { return int(c.sym.entries) }

// MulTo sets dst = (L + σI)⁻¹x (L_sym for Symmetric) for an n×p block, by
// a forward and a backward triangular solve per column, supernode by
// supernode. Cost about 2·Entries multiply-adds per column. dst may alias
// x.
func (c *CholeskyInverse) MulTo(dst, x *mat.Dense) {
	s := c.sym
	n, p := x.Dims()
	if n != s.n {
		panic(fmt.Sprintf("graph: block has %d rows, Cholesky factor has %d nodes", n, s.n))
	}
	nsup := len(s.first) - 1
	y := make([]float64, n)
	for col := 0; col < p; col++ {
		for k, v := range s.order {
			y[k] = x.At(v, col)
		}
		if c.sqrtD != nil {
			floats.Mul(y, c.sqrtD)
		}
		// Forward, L y = b: each supernode's diagonal block, then the
		// rows below it.
		for t := 0; t < nsup; t++ {
			f, w := s.first[t], s.first[t+1]-s.first[t]
			rows := s.rows[s.rowPtr[t]:s.rowPtr[t+1]]
			blk := c.vals[s.blockPtr[t]:s.blockPtr[t+1]]
			yt := y[f : f+w]
			for a := 0; a < w; a++ {
				yt[a] = (yt[a] - floats.Dot(blk[a*w:a*w+a], yt[:a])) / blk[a*w+a]
			}
			for a := w; a < len(rows); a++ {
				y[rows[a]] -= floats.Dot(blk[a*w:(a+1)*w], yt)
			}
		}
		// Backward, Lᵀ z = y, supernodes in reverse.
		for t := nsup - 1; t >= 0; t-- {
			f, w := s.first[t], s.first[t+1]-s.first[t]
			rows := s.rows[s.rowPtr[t]:s.rowPtr[t+1]]
			blk := c.vals[s.blockPtr[t]:s.blockPtr[t+1]]
			yt := y[f : f+w]
			for a := w; a < len(rows); a++ {
				floats.AddScaled(yt, -y[rows[a]], blk[a*w:(a+1)*w])
			}
			for a := w - 1; a >= 0; a-- {
				yt[a] /= blk[a*w+a]
				for b := 0; b < a; b++ {
					yt[b] -= blk[a*w+b] * yt[a]
				}
			}
		}
		if c.sqrtD != nil {
			floats.Mul(y, c.sqrtD)
		}
		for k, v := range s.order {
			dst.Set(v, col, y[k])
		}
	}
}
