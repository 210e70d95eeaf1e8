package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// CholeskySymbolic is the symbolic analysis of the sparse Cholesky
// factorization of a matrix with a graph's pattern (its Laplacian plus a
// diagonal): a fill-reducing order (MinDegreeOrder, then postordered),
// the elimination tree of the reordered matrix, the number of entries of
// each column of its factor, and the factor's supernodes (runs of
// consecutive columns stored as one dense block over the union of their
// patterns; relaxed, so a block may hold explicit zeros). It tells what
// the factorization will cost before it is made (Entries, Stored, Flops)
// and is reused by Factor. Made by AnalyzeCholesky.
type CholeskySymbolic struct {
	n      int
	order  []int   // order[k]: the node eliminated k-th
	pos    []int32 // pos[node] = k
	parent []int32 // elimination tree of the reordered matrix, −1 at roots
	counts []int   // entries of each column of the factor, diagonal included
	// Supernode t holds columns first[t] ≤ j < first[t+1] and the rows
	// rows[rowPtr[t]:rowPtr[t+1]] (its own columns, then its last
	// column's pattern below them, ascending), stored row-major from
	// blockPtr[t].
	first, rowPtr, blockPtr []int
	rows                    []int32
	super                   []int32 // supernode of each column
	entries                 int64
	zeros                   int64 // explicit zeros below or on the diagonal that amalgamation stores
	fundamental             int   // supernodes before amalgamation
	flops                   float64
}

// ErrTooLarge is wrapped by AnalyzeCholesky's error when the factor would
// exceed the caller's limit.
var ErrTooLarge = errors.New("graph: factor too large")

// maxSupernode bounds a supernode's width, so that the dense
// factorization of its diagonal block (width³/3 multiply-adds) stays
// short between two checks of ctx.
const maxSupernode = 128

// amalgamate tells whether AnalyzeCholesky merges supernodes by the rule
// of relaxedMerge (false: fundamental supernodes only).
const amalgamate = true

// AnalyzeCholesky orders g's nodes by MinDegreeOrder and computes the
// elimination tree, the column counts and the supernodes of the Cholesky
// factor of any positive definite matrix with g's pattern, in that order
// (Liu, "The role of elimination trees in sparse factorization", SIAM J.
// Matrix Anal. Appl. 11, 1990: the pattern of row k of the factor is the
// union of the tree paths from the nonzeros of row k of the matrix up to
// k). The order is then postordered (an equivalent order,
// with the same factor's entries up to the permutation, that numbers each
// subtree of the tree consecutively). Column j + 1 joins column j's
// supernode when it is j's parent and has one entry fewer (the same
// pattern below), up to 128 columns: the fundamental supernodes
// (Liu, Ng & Peyton, "On finding supernodes for sparse matrix
// computations", SIAM J. Matrix Anal. Appl. 14, 1993, who also require j
// to be j + 1's only child; the factorization does not). Then a supernode
// is merged into its parent's when they are consecutive and the merged
// block would hold few explicit zeros (relaxed supernodes, Ashcraft &
// Grimes 1989), within 128 columns and maxEntries stored values.
//
// With maxEntries > 0 it stops, with an error wrapping ErrTooLarge, as
// soon as the factor is known to store more than that many values
// (Stored) without amalgamation: when its entries exceed it (before the
// supernodes are formed), or its fundamental supernodes' blocks (before
// their rows are stored); amalgamation never makes it fail, as a merge
// that would store more than maxEntries values is refused. A nil g is an
// error wrapping ErrInvalid. Cost: the ordering's, plus O(entries of the
// factor); ctx is checked as the order is made and every 256 rows, and its
// error returned, wrapped.
func AnalyzeCholesky(ctx context.Context, g *Graph, maxEntries int64) (*CholeskySymbolic, error) {
	if err := nilGraph("AnalyzeCholesky", g); err != nil {
		return nil, err
	}
	return analyzeCholesky(ctx, g, maxEntries, amalgamate)
}

// analyzeCholesky is AnalyzeCholesky, with relaxed supernode amalgamation
// when relax is set (fundamental supernodes otherwise).
func analyzeCholesky(ctx context.Context, g *Graph, maxEntries int64, relax bool) (*CholeskySymbolic, error) {
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
	// to k. It reads s's order, pos and parent as they are at the call.
	visited := make([]int32, n)
	rowPattern := func(k int, f func(i int32)) {
		visited[k] = int32(k)
		for _, j := range g.idx[g.ptr[s.order[k]]:g.ptr[s.order[k]+1]] {
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
	tooLarge := func(what string) error {
		return fmt.Errorf("%w: the Cholesky factor of %d nodes %s more than %d values", ErrTooLarge, n, what, maxEntries)
	}
	for k := 0; k < n; k++ {
		if err := cancelled(k); err != nil {
			return nil, err
		}
		s.counts[k]++ // the diagonal
		row := int64(1)
		rowPattern(k, func(i int32) { s.counts[i]++; row++ })
		if s.entries += row; maxEntries > 0 && s.entries > maxEntries {
			return nil, tooLarge("has")
		}
	}
	s.postorder()
	for j := 0; j < n; j++ {
		c := float64(s.counts[j] - 1)
		s.flops += c * (c + 1) / 2
		if j == 0 || s.parent[j-1] != int32(j) || s.counts[j-1] != s.counts[j]+1 || j-s.first[len(s.first)-1] >= maxSupernode {
			s.first = append(s.first, j)
		}
	}
	s.fundamental = len(s.first)
	s.first = append(s.first, n)
	stored := int64(0)
	for t := 0; t+1 < len(s.first); t++ {
		w, l := int64(s.first[t+1]-s.first[t]), s.first[t+1]
		stored += w * (w + int64(s.counts[l-1]-1))
	}
	if maxEntries > 0 && stored > maxEntries {
		return nil, tooLarge("stores")
	}
	if relax {
		budget := int64(math.MaxInt64)
		if maxEntries > 0 {
			budget = maxEntries
		}
		s.amalgamate(budget - stored)
	}
	nsup := len(s.first) - 1
	s.super = make([]int32, n)
	s.rowPtr, s.blockPtr = make([]int, nsup+1), make([]int, nsup+1)
	for t := 0; t < nsup; t++ {
		f, l := s.first[t], s.first[t+1]
		for j := f; j < l; j++ {
			s.super[j] = int32(t)
		}
		m := l - f + s.counts[l-1] - 1
		s.rowPtr[t+1] = s.rowPtr[t] + m
		s.blockPtr[t+1] = s.blockPtr[t] + m*(l-f)
	}
	// The rows of each supernode: its own columns, then its last
	// column's pattern below, filled in ascending order, row k after the
	// diagonal. visited needs no reset: row i sets visited[i] = i before
	// any row k > i walks through i.
	s.rows = make([]int32, s.rowPtr[nsup])
	next := make([]int, nsup)
	copy(next, s.rowPtr[:nsup])
	for k := 0; k < n; k++ {
		if err := cancelled(k); err != nil {
			return nil, err
		}
		t := s.super[k]
		s.rows[next[t]] = int32(k)
		next[t]++
		rowPattern(k, func(i int32) {
			if t := s.super[i]; s.first[t+1] == int(i)+1 {
				s.rows[next[t]] = int32(k)
				next[t]++
			}
		})
	}
	return s, nil
}

// postorder renumbers s's columns (order, pos, parent and counts) in a
// postorder of the elimination tree (etreePostorder). The factor of the
// renumbered matrix has the same entries, permuted: a postorder is a
// topological order of the tree, and every topological order of it is an
// equivalent reordering, with the same tree and fill (Liu 1990). Cost
// O(n).
func (s *CholeskySymbolic) postorder() {
	post := etreePostorder(s.parent, s.counts)
	inv := make([]int32, s.n) // old column → new
	same := true
	for k, j := range post {
		inv[j] = int32(k)
		same = same && int(j) == k
	}
	if same {
		return
	}
	order, parent, counts := make([]int, s.n), make([]int32, s.n), make([]int, s.n)
	for k, j := range post {
		order[k] = s.order[j]
		counts[k] = s.counts[j]
		parent[k] = -1
		if p := s.parent[j]; p >= 0 {
			parent[k] = inv[p]
		}
	}
	s.order, s.parent, s.counts = order, parent, counts
	for k, v := range order {
		s.pos[v] = int32(k)
	}
}

// etreePostorder returns a postorder of the forest parent (parent[j] > j,
// or −1 at a root): post[k] is the column visited k-th, every column right
// after its subtree, roots in increasing order. A column's children are
// visited in increasing order except the one of most entries (the last
// of them), visited last, so that it comes right before its parent: that
// child is the one that may share its parent's pattern (a fundamental
// supernode), and the one whose merge adds the fewest zeros. Cost O(n).
func etreePostorder(parent []int32, counts []int) []int32 {
	n := len(parent)
	heavy := make([]int32, n) // the child of most entries, −1 for none
	head, next := make([]int32, n), make([]int32, n)
	for j := range heavy {
		heavy[j], head[j] = -1, -1
	}
	for j := 0; j < n; j++ {
		if p := parent[j]; p >= 0 && (heavy[p] < 0 || counts[j] >= counts[heavy[p]]) {
			heavy[p] = int32(j)
		}
	}
	// Children lists, pushed at the front: the heavy child first, then
	// the others in decreasing order, so that they come out in
	// increasing order and the heavy one last.
	for pass := 0; pass < 2; pass++ {
		for j := n - 1; j >= 0; j-- {
			if p := parent[j]; p >= 0 && (heavy[p] == int32(j)) == (pass == 0) {
				next[j], head[p] = head[p], int32(j)
			}
		}
	}
	post := make([]int32, 0, n)
	var stack []int32
	for r := 0; r < n; r++ {
		if parent[r] >= 0 {
			continue
		}
		stack = append(stack[:0], int32(r))
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			if c := head[p]; c >= 0 {
				head[p] = next[c]
				stack = append(stack, c)
			} else {
				stack = stack[:len(stack)-1]
				post = append(post, p)
			}
		}
	}
	return post
}

// amalgamate merges s's fundamental supernodes (s.first) into relaxed
// ones: from the last supernode down, supernode t joins the merged
// supernode that starts right after it when that one holds the parent of
// t's last column (t's parent in the supernodal elimination tree, or the
// subtree of a later sibling of t already merged into it: in a postorder
// only such a neighbour is contiguous with t) and relaxedMerge accepts the
// merge, the merged width is at most maxSupernode and the stored values
// grow by at most budget in all. A merged supernode's rows are its columns
// and its last column's pattern below them, which holds the pattern of
// every column of it below its last (each of them is a descendant of its
// last column in the elimination tree, and a column's pattern above an
// ancestor lies in the ancestor's: Liu 1990), so that its explicit zeros
// are its lower trapezoid less the sum of its columns' counts. Cost
// O(number of supernodes).
func (s *CholeskySymbolic) amalgamate(budget int64) {
	nsup := len(s.first) - 1
	// The merged supernode starting at fundamental supernode t (t ≤ the
	// one being considered) ends before column last[t]+1 and the sum of
	// its columns' counts is sum[t].
	last, sum := make([]int, nsup), make([]int64, nsup)
	for t := 0; t < nsup; t++ {
		last[t] = s.first[t+1] - 1
		for j := s.first[t]; j <= last[t]; j++ {
			sum[t] += int64(s.counts[j])
		}
	}
	// storedOf is the values a block of columns f..l with l's count
	// stores, its diagonal block whole; lowerOf its lower trapezoid.
	storedOf := func(f, l int) int64 {
		w := int64(l - f + 1)
		return w * (w + int64(s.counts[l]-1))
	}
	lowerOf := func(f, l int) int64 {
		w := int64(l - f + 1)
		return w*(w+1)/2 + w*int64(s.counts[l]-1)
	}
	keep := make([]bool, nsup+1) // keep[t]: t starts a merged supernode
	keep[nsup] = true
	for t := nsup - 1; t >= 0; t-- {
		keep[t] = true
		f, l := s.first[t], last[t]
		p := s.parent[l]
		if t == nsup-1 || p < 0 || int(p) > last[t+1] {
			continue
		}
		pl := last[t+1]
		width := pl - f + 1
		grow := storedOf(f, pl) - storedOf(f, l) - storedOf(l+1, pl)
		if width > maxSupernode || grow > budget {
			continue
		}
		total := sum[t] + sum[t+1]
		if !relaxedMerge(width, lowerOf(f, pl)-total, lowerOf(f, pl)) {
			continue
		}
		budget -= grow
		last[t], sum[t], keep[t+1] = pl, total, false
	}
	first := s.first[:0]
	for t := 0; t <= nsup; t++ {
		if keep[t] {
			first = append(first, s.first[t])
		}
	}
	s.first = first
	for t := 0; t+1 < len(s.first); t++ {
		s.zeros += lowerOf(s.first[t], s.first[t+1]-1)
	}
	s.zeros -= s.entries
}

// relaxedMerge tells whether two supernodes are merged into one of width
// columns whose lower trapezoid holds size values, zeros of them explicit
// zeros (entries the factor does not have). It is CHOLMOD's default rule
// (Chen, Davis, Hager & Rajamanickam, "Algorithm 887: CHOLMOD", ACM TOMS
// 35, 2008: nrelax = 4, 16, 48, zrelax = 0.8, 0.1, 0.05), after Ashcraft &
// Grimes ("The influence of relaxed supernode partitions on the
// multifrontal method", ACM TOMS 15, 1989): always up to 4 columns or
// without added zeros, up to 16 columns with less than 80% zeros, up to
// 48 with less than 10%, and wider with less than 5%. A narrow block's
// zeros cost less than the small dense products and the scatter of the
// updates that its merge saves.
func relaxedMerge(width int, zeros, size int64) bool {
	if width <= 4 || zeros == 0 {
		return true
	}
	z := float64(zeros) / float64(size)
	return width <= 16 && z < 0.8 || width <= 48 && z < 0.1 || z < 0.05
}

// Entries returns the number of entries of the factor, its diagonal
// included: the nonzeros of L (those that structurally fill), whatever
// the supernodes store.
func (s *CholeskySymbolic) Entries() int64 { return s.entries }

// Stored returns the number of values Factor stores (8 bytes each): each
// supernode's rows times its width, its diagonal block whole (the upper
// triangle of zeros too) and the explicit zeros of relaxed supernodes.
// It is at least Entries.
func (s *CholeskySymbolic) Stored() int64 { return int64(s.blockPtr[len(s.blockPtr)-1]) }

// Flops returns the multiply-adds of the numerical factorization,
// Σ_j c_j(c_j + 1)/2 over the columns' c_j entries below the diagonal
// (of the factor's entries: the work on explicit zeros is not counted).
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
// ε·‖L‖). Memory: 8 bytes per stored value (CholeskySymbolic.Stored). Its
// MulTo may be called from several goroutines at once.
type CholeskyInverse struct {
	sym   *CholeskySymbolic
	kind  LaplacianKind
	sigma float64
	sqrtD []float64 // √d of the node eliminated k-th for Symmetric, nil for Unnormalized
	vals  []float64 // the supernodes' blocks
	// work holds *[]float64 of n values, mulColumns' right-hand side,
	// reused across calls: a Lanczos run calls MulTo on one column
	// about a thousand times (0.73 GB of garbage at 10⁵ nodes without it).
	work sync.Pool
}

// Factor computes the factor of L + σI (kind Unnormalized) or D − W + σD
// (kind Symmetric) for g, the graph s was made from (CholeskyInverse), by
// left-looking supernodal Cholesky: each supernode's block gathers the
// matrix's columns and the updates of the supernodes below it in the
// elimination tree (dense products, blas64.Gemm), then its diagonal block
// is factored (lapack64.Potrf) and the rows below solved against it
// (blas64.Trsm). It returns an error wrapping ErrInvalid for σ not
// positive and finite, another kind, a nil graph or one of another size; one
// wrapping ErrIsolated for a node of degree zero with Symmetric; an error
// when a pivot is not positive (the matrix is not numerically positive
// definite: σ below the rounding error of L); and ctx's error, wrapped,
// when cancelled (checked before each supernode and every 64 updates).
// Cost about s.Flops() multiply-adds, plus those on the explicit zeros of
// relaxed supernodes; memory s.Stored() values.
func (s *CholeskySymbolic) Factor(ctx context.Context, g *Graph, kind LaplacianKind, sigma float64) (*CholeskyInverse, error) {
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		return nil, fmt.Errorf("%w: Cholesky shift σ = %v must be positive and finite", ErrInvalid, sigma)
	}
	if kind != Unnormalized && kind != Symmetric {
		return nil, fmt.Errorf("%w: Cholesky factor of %v: only L and L_sym", ErrInvalid, kind)
	}
	if err := nilGraph("CholeskySymbolic.Factor", g); err != nil {
		return nil, err
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

// Entries returns the number of entries of the factor (its nonzeros,
// CholeskySymbolic.Entries; the values stored are Stored's).
func (c *CholeskyInverse) Entries() int { return int(c.sym.entries) }

// MulTo sets dst = (L + σI)⁻¹x (L_sym for Symmetric) for n×p blocks x and
// dst, by a forward and a backward triangular solve with the factor,
// supernode by supernode. A block of at least 8 columns is solved all at
// once (dense triangular solves and products on the block's rows of each
// supernode); fewer columns one by one (dot products along the
// supernodes' rows), which is faster
// for them (the kernel of single-vector Lanczos, p = 1). Cost about
// 2·Entries multiply-adds per column, plus 2 per explicit zero of the
// relaxed supernodes. It allocates its workspace at each call (n values
// column by column; about (n + r + 128)·p for a block, r the most rows
// below a supernode's columns) and only reads c, so concurrent calls are
// safe. dst may alias x, wholly or in part: x is read whole before dst is
// written. It panics when x does not have n rows or dst is not the size
// of x.
func (c *CholeskyInverse) MulTo(dst, x *mat.Dense) {
	s := c.sym
	n, p := x.Dims()
	if n != s.n {
		panic(fmt.Sprintf("graph: block has %d rows, Cholesky factor has %d nodes", n, s.n))
	}
	if r, q := dst.Dims(); r != n || q != p {
		panic(fmt.Sprintf("graph: Cholesky solve of a %d×%d block into a %d×%d one", n, p, r, q))
	}
	if n == 0 || p == 0 {
		return
	}
	if p < blockMinCols {
		c.mulColumns(dst, x)
		return
	}
	c.mulBlock(dst, x)
}

// blockMinCols is the fewest columns MulTo solves as a block. Measured
// on the 10-NN graphs of BenchmarkCholeskyMulTo (2026-11-29), the time
// per column of the block solve against the single-column solve's: 1.2
// times at p = 4, 1.1 at 6, 0.9–1.0 at 8, 0.8 at 12, 0.5–0.8 at 30.
const blockMinCols = 8

// mulColumns is MulTo column by column: for each, the triangular solves
// by dot products (floats.Dot, floats.AddScaled) within each supernode's
// block. Cost about 2·Entries multiply-adds per column, plus 2 per
// explicit zero; n values allocated.
func (c *CholeskyInverse) mulColumns(dst, x *mat.Dense) {
	s := c.sym
	_, p := x.Dims()
	nsup := len(s.first) - 1
	yp, _ := c.work.Get().(*[]float64)
	if yp == nil {
		y := make([]float64, s.n)
		yp = &y
	}
	defer c.work.Put(yp)
	y := *yp // every entry is set before it is read (s.order is a permutation)
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

// mulBlock is MulTo for a block of p columns, all solved together in an
// n×p row-major copy Y of x, permuted (row k the node eliminated k-th)
// and scaled by √d for Symmetric. Forward, L Y = B, supernodes in order:
// the w rows Y_t of supernode t's columns are solved against its w×w
// diagonal block, Y_t = L_tt⁻¹Y_t (blas64.Trsm), then the product of the
// m − w rows below its diagonal block with them, L_bt·Y_t (blas64.Gemm,
// (m−w)×w by w×p), is subtracted from the rows of Y it falls on.
// Backward, LᵀZ = Y, supernodes in reverse: Y_t −= L_btᵀ·Y_b (one Gemm,
// Y_b the rows below gathered), then Y_t = L_tt⁻ᵀY_t (Trsm).
//
// gonum's kernels are loops of dot products and axpys along the rows of
// their operands, whose cost per call dominates when the rows are short:
// a supernode at most blockRowsWidth·p wide works on Y_t in place (rows p
// long); a wider one on Y_tᵀ, copied to a p×w block, with the same solves
// and products in right-hand-side form (rows w long). Cost about
// 2·Entries·p multiply-adds, plus 2p per explicit zero, and O(n·p +
// Σ w·p) copies; (n + r + w_max)·p values allocated, r the most rows
// below a supernode's columns and w_max the widest supernode.
func (c *CholeskyInverse) mulBlock(dst, x *mat.Dense) {
	s := c.sym
	n, p := x.Dims()
	nsup := len(s.first) - 1
	below, widest := 0, 0
	for t := 0; t < nsup; t++ {
		w := s.first[t+1] - s.first[t]
		below = max(below, s.rowPtr[t+1]-s.rowPtr[t]-w)
		widest = max(widest, w)
	}
	work := make([]float64, (n+below+widest)*p)
	y, tmp, yTrans := work[:n*p], work[n*p:(n+below)*p], work[(n+below)*p:]
	xm := x.RawMatrix()
	for k, v := range s.order {
		copy(y[k*p:(k+1)*p], xm.Data[v*xm.Stride:v*xm.Stride+p])
	}
	if c.sqrtD != nil {
		for k, d := range c.sqrtD {
			floats.Scale(d, y[k*p:(k+1)*p])
		}
	}
	// parts returns supernode t's diagonal block, the rows below it and
	// their indices, the rows Y_t of its columns and a p×w block for
	// Y_tᵀ, and whether to work on Y_t (true) or Y_tᵀ.
	parts := func(t int) (diag blas64.Triangular, lower, yt, ytt blas64.General, rows []int32, inPlace bool) {
		f, w := s.first[t], s.first[t+1]-s.first[t]
		blk := c.vals[s.blockPtr[t]:s.blockPtr[t+1]]
		rows = s.rows[s.rowPtr[t]+w : s.rowPtr[t+1]]
		diag = blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: w, Stride: w, Data: blk[:w*w]}
		lower = blas64.General{Rows: len(rows), Cols: w, Stride: w, Data: blk[w*w:]}
		yt = blas64.General{Rows: w, Cols: p, Stride: p, Data: y[f*p : (f+w)*p]}
		ytt = blas64.General{Rows: p, Cols: w, Stride: w, Data: yTrans[:p*w]}
		return diag, lower, yt, ytt, rows, w <= blockRowsWidth*p
	}
	for t := 0; t < nsup; t++ {
		diag, lower, yt, ytt, rows, inPlace := parts(t)
		u := blas64.General{Rows: len(rows), Cols: p, Stride: p, Data: tmp[:len(rows)*p]}
		if inPlace {
			blas64.Trsm(blas.Left, blas.NoTrans, 1, diag, yt)
			gemmSerial(blas.NoTrans, 1, lower, yt, 0, u)
		} else {
			transposeTo(ytt, yt)
			blas64.Trsm(blas.Right, blas.Trans, 1, diag, ytt)
			gemmSerial(blas.Trans, 1, lower, ytt, 0, u)
			transposeTo(yt, ytt)
		}
		for a, r := range rows {
			floats.Sub(y[int(r)*p:int(r+1)*p], u.Data[a*p:(a+1)*p])
		}
	}
	for t := nsup - 1; t >= 0; t-- {
		diag, lower, yt, ytt, rows, inPlace := parts(t)
		mb := len(rows)
		if inPlace {
			if mb > 0 {
				u := blas64.General{Rows: mb, Cols: p, Stride: p, Data: tmp[:mb*p]}
				for a, r := range rows {
					copy(u.Data[a*p:(a+1)*p], y[int(r)*p:int(r+1)*p])
				}
				// Y_t is w ≤ 2p rows: serial in gonum's Dgemm for p ≤ 64.
				blas64.Gemm(blas.Trans, blas.NoTrans, -1, lower, u, 1, yt)
			}
			blas64.Trsm(blas.Left, blas.Trans, 1, diag, yt)
		} else {
			transposeTo(ytt, yt)
			if mb > 0 {
				ut := blas64.General{Rows: p, Cols: mb, Stride: mb, Data: tmp[:mb*p]} // Y_bᵀ
				for a, r := range rows {
					for j, v := range y[int(r)*p : int(r+1)*p] {
						ut.Data[j*mb+a] = v
					}
				}
				// Y_tᵀ is p rows: serial in gonum's Dgemm for p ≤ 64 and w ≤ 128.
				blas64.Gemm(blas.NoTrans, blas.NoTrans, -1, ut, lower, 1, ytt)
			}
			blas64.Trsm(blas.Right, blas.NoTrans, 1, diag, ytt)
			transposeTo(yt, ytt)
		}
	}
	if c.sqrtD != nil {
		for k, d := range c.sqrtD {
			floats.Scale(d, y[k*p:(k+1)*p])
		}
	}
	dm := dst.RawMatrix()
	for k, v := range s.order {
		copy(dm.Data[v*dm.Stride:v*dm.Stride+p], y[k*p:(k+1)*p])
	}
}

// blockRowsWidth sets mulBlock's choice of form: a supernode up to
// blockRowsWidth·p columns wide is solved on its rows of the block, a
// wider one on their transpose. Measured on the 10-NN graphs of
// BenchmarkCholeskyMulTo (2026-11-29): 2 is faster than 1 at p = 10 on
// both graphs (−10 to −20%), 3 and 4 within the noise of 2.
const blockRowsWidth = 2

// serialRows is the most rows of C per call of gonum's Dgemm in
// gemmSerial: it multiplies in parallel, with a goroutine per 64×64
// block of C, from 4 such blocks; 192 rows of at most 64 columns are 3.
const serialRows = 192

// gemmSerial is blas64.Gemm(blas.NoTrans, tB, alpha, a, b, beta, c), c =
// alpha·a·op(b) + beta·c, in slices of at most serialRows rows of a and c,
// so that gonum's Dgemm runs serially for c of at most 64 columns:
// mulBlock's products are too small for its goroutines to pay (measured
// on BenchmarkCholeskyMulTo's 20-D graph, 2026-11-29: 8–17% faster at
// p = 10 and 30 than in parallel, and no allocations). Cost that of the
// product.
func gemmSerial(tB blas.Transpose, alpha float64, a, b blas64.General, beta float64, c blas64.General) {
	for i := 0; i < a.Rows; i += serialRows {
		e := min(i+serialRows, a.Rows)
		ai := blas64.General{Rows: e - i, Cols: a.Cols, Stride: a.Stride, Data: a.Data[i*a.Stride:]}
		ci := blas64.General{Rows: e - i, Cols: c.Cols, Stride: c.Stride, Data: c.Data[i*c.Stride:]}
		blas64.Gemm(blas.NoTrans, tB, alpha, ai, b, beta, ci)
	}
}

// transposeTo sets dst = srcᵀ (dst src.Cols × src.Rows). Cost O(size).
func transposeTo(dst, src blas64.General) {
	for i := 0; i < src.Rows; i++ {
		for j, v := range src.Data[i*src.Stride : i*src.Stride+src.Cols] {
			dst.Data[j*dst.Stride+i] = v
		}
	}
}
