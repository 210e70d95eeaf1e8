package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// ErrInvalid is wrapped by every error that reports an invalid graph:
// negative, NaN or infinite weights, weights whose degrees or volume
// overflow (DegreeOverflowError), out-of-range indices, asymmetry; and
// by those that report invalid data points (a nil or empty matrix, a NaN or
// infinite entry, features out of range) or nil neighbour lists.
var ErrInvalid = errors.New("graph: invalid graph")

// nilGraph returns an error wrapping ErrInvalid naming fn when g is nil, the
// check of the constructors that take a *Graph and return an error.
func nilGraph(fn string, g *Graph) error {
	if g == nil {
		return fmt.Errorf("%w: %s: the graph is nil", ErrInvalid, fn)
	}
	return nil
}

// ErrSpec is wrapped by the errors of Build and BuildNeighbors for a Spec
// out of range: K, Eps, σ or MaxFull, an unknown kind, affinity, search
// or σ rule. Their text does not repeat its own. It is an ErrInvalid too
// (errors.Is), so that a caller testing the package's ErrInvalid sees
// every invalid input, the Spec's included.
var ErrSpec error = specSentinel{}

// specSentinel is ErrSpec's type: it reads "graph: invalid spec" and is an
// ErrInvalid for errors.Is.
type specSentinel struct{}

func (specSentinel) Error() string        { return "graph: invalid spec" }
func (specSentinel) Is(target error) bool { return target == ErrInvalid }

// specError is an error wrapping ErrSpec (and so ErrInvalid) with a text
// of its own.
type specError struct{ msg string }

func (e *specError) Error() string { return e.msg }

func (e *specError) Unwrap() error { return ErrSpec }

// specErrorf returns a specError with the text fmt.Sprintf(format, args).
func specErrorf(format string, args ...any) error {
	return &specError{fmt.Sprintf(format, args...)}
}

// Graph is an undirected weighted graph on the nodes 0…n−1, stored as a
// symmetric matrix in compressed sparse row (CSR) form. Row i lists the
// neighbours of node i in increasing order with their weights; an edge {i,j}
// appears in both rows i and j with the same weight. A self loop {i,i} is
// stored once, on the diagonal, and counts once in the degree d_i = Σ_j W_ij.
//
// A Graph is immutable once built and safe for concurrent use.
type Graph struct {
	n   int
	ptr []int     // len n+1; row i is idx[ptr[i]:ptr[i+1]]
	idx []int32   // column indices, sorted within each row
	w   []float64 // weights, parallel to idx
	deg []float64 // cached degrees
	// comps caches Components, computed on first use (a graph is
	// immutable, and is read by several goroutines at once).
	comps struct {
		once  sync.Once
		comp  []int
		count int
	}
}

// Edge is one weighted undirected edge.
type Edge struct {
	I, J int
	W    float64
}

// N returns the number of nodes.
func (g *Graph) N() int { return g.n }

// NNZ returns the number of stored entries of the symmetric adjacency matrix:
// twice the number of non-loop edges plus the number of self loops.
func (g *Graph) NNZ() int { return len(g.idx) }

// Row returns the neighbours of node i and the weights of the edges to them.
// The slices alias the graph's storage and must not be modified. A node
// outside [0, n) is a programming error: it panics naming the method, i
// and n ("graph: Row(7) of a graph with 5 nodes, want 0 ≤ i < 5"). It
// costs O(1).
func (g *Graph) Row(i int) (idx []int32, w []float64) {
	if uint(i) >= uint(g.n) {
		panic(nodeOutside{"Row", i, g.n, false})
	}
	a, b := g.ptr[i], g.ptr[i+1]
	return g.idx[a:b], g.w[a:b]
}

// Degree returns d_i = Σ_j W_ij. A node outside [0, n) is a programming
// error: it panics naming the method, i and n ("graph: Degree(7) of a
// graph with 5 nodes, want 0 ≤ i < 5"). It costs O(1).
func (g *Graph) Degree(i int) float64 {
	if uint(i) >= uint(g.n) {
		panic(nodeOutside{"Degree", i, g.n, false})
	}
	return g.deg[i]
}

// nodeOutside is the value Row and Degree (and Neighbors.Row) panic with
// for a node outside [0, n): its Error method gives the message, which
// the runtime prints and fmt.Sprint of the recovered value gives. A value
// rather than a formatted string keeps the check cheap enough for the
// accessors, called in inner loops, to be inlined.
type nodeOutside struct {
	method string
	i, n   int
	points bool // the n are the points of a Neighbors, not a Graph's nodes
}

func (e nodeOutside) Error() string {
	of := fmt.Sprintf("a graph with %d nodes", e.n)
	if e.points {
		of = fmt.Sprintf("the neighbour lists of %d points", e.n)
	}
	return fmt.Sprintf("graph: %s(%d) of %s, want 0 ≤ i < %d", e.method, e.i, of, e.n)
}

// Degrees returns a new slice holding the degrees d = W·1.
func (g *Graph) Degrees() []float64 {
	d := make([]float64, g.n)
	copy(d, g.deg)
	return d
}

// Volume returns vol(V) = Σ_i d_i.
func (g *Graph) Volume() float64 {
	var s float64
	for _, v := range g.deg {
		s += v
	}
	return s
}

// Weight returns W_ij, or 0 when there is no edge. A node outside [0, n)
// is a programming error: it panics naming the method, i, j and n, for j
// as for i (j used to give 0, i Go's bare "index out of range"): "graph:
// Weight(0, 7) of a graph with 5 nodes, want 0 ≤ i, j < 5". It costs
// O(log deg(i)).
func (g *Graph) Weight(i, j int) float64 {
	if uint(i) >= uint(g.n) || uint(j) >= uint(g.n) {
		panic(fmt.Sprintf("graph: Weight(%d, %d) of a graph with %d nodes, want 0 ≤ i, j < %d", i, j, g.n, g.n))
	}
	idx, w := g.Row(i)
	k := sort.Search(len(idx), func(k int) bool { return int(idx[k]) >= j })
	if k < len(idx) && int(idx[k]) == j {
		return w[k]
	}
	return 0
}

// MaxDegree returns max_i d_i (0 for an empty graph).
func (g *Graph) MaxDegree() float64 {
	var m float64
	for _, v := range g.deg {
		m = math.Max(m, v)
	}
	return m
}

// Edges returns every undirected edge once, with I ≤ J, in row order.
func (g *Graph) Edges() []Edge {
	var out []Edge
	for i := 0; i < g.n; i++ {
		idx, w := g.Row(i)
		for k, j := range idx {
			if int(j) >= i {
				out = append(out, Edge{I: i, J: int(j), W: w[k]})
			}
		}
	}
	return out
}

// FromEdges builds a graph on n nodes from undirected edges. Each edge is
// entered symmetrically; repeated edges (in either orientation) have their
// weights summed. Zero-weight edges are dropped. It returns an error wrapping
// ErrInvalid that names the offending edge when an index is out of range or a
// weight is negative, NaN or infinite, or when the summed weight of a
// repeated edge overflows to +Inf; one naming the node when a degree, or
// the volume Σd_i, overflows to +Inf (the weights are too large: divide
// them by a common factor first); and one for n < 0 or n > math.MaxInt32.
// It is FromEdgesContext without cancellation.
//
// Cost: O(m log m) time and O(m) memory for m edges.
func FromEdges(n int, edges []Edge) (*Graph, error) {
	return FromEdgesContext(context.Background(), n, edges)
}

// FromEdgesContext is FromEdges checking ctx every cancelEvery edges of
// its three passes over them and every cancelEvery rows of the
// compaction (0.2–0.3 s in all for 3·10⁶ edges on the 2-core machine);
// the graph is the same. It returns ctx's error, wrapped, when cancelled.
func FromEdgesContext(ctx context.Context, n int, edges []Edge) (*Graph, error) {
	if n < 0 {
		return nil, fmt.Errorf("%w: negative node count %d", ErrInvalid, n)
	}
	if n > math.MaxInt32 {
		// Column indices are int32 (and n+1 row offsets would not fit in
		// memory long before): refused, not a panic in make.
		return nil, fmt.Errorf("%w: node count %d exceeds the %d a Graph can index", ErrInvalid, n, math.MaxInt32)
	}
	cancelled := func(e int) error {
		if e%cancelEvery == 0 && ctx.Err() != nil {
			return fmt.Errorf("graph: cancelled: %w", ctx.Err())
		}
		return nil
	}
	for e, ed := range edges {
		if err := cancelled(e); err != nil {
			return nil, err
		}
		if ed.I < 0 || ed.I >= n || ed.J < 0 || ed.J >= n {
			return nil, fmt.Errorf("%w: edge %d (%d,%d) has a node outside [0,%d)", ErrInvalid, e, ed.I, ed.J, n)
		}
		if err := checkWeight(ed.W); err != nil {
			return nil, fmt.Errorf("%w: edge %d (%d,%d): %v", ErrInvalid, e, ed.I, ed.J, err)
		}
	}
	// Count entries per row.
	cnt := make([]int, n+1)
	for e, ed := range edges {
		if err := cancelled(e); err != nil {
			return nil, err
		}
		if ed.W == 0 {
			continue
		}
		cnt[ed.I+1]++
		if ed.I != ed.J {
			cnt[ed.J+1]++
		}
	}
	for i := 0; i < n; i++ {
		cnt[i+1] += cnt[i]
	}
	nnz := cnt[n]
	idx := make([]int32, nnz)
	w := make([]float64, nnz)
	fill := make([]int, n)
	copy(fill, cnt[:n])
	for e, ed := range edges {
		if err := cancelled(e); err != nil {
			return nil, err
		}
		if ed.W == 0 {
			continue
		}
		idx[fill[ed.I]], w[fill[ed.I]] = int32(ed.J), ed.W
		fill[ed.I]++
		if ed.I != ed.J {
			idx[fill[ed.J]], w[fill[ed.J]] = int32(ed.I), ed.W
			fill[ed.J]++
		}
	}
	g, err := compactContext(ctx, n, cnt, idx, w)
	if err != nil {
		return nil, err
	}
	if g, err = finiteSums(g); err != nil {
		return nil, err
	}
	return finiteDegrees(g)
}

// finiteDegrees returns g, or a *DegreeOverflowError (wrapping
// ErrInvalid) when a degree of g, or the volume Σ_i d_i, overflows to +Inf.
// Cost O(n).
func finiteDegrees(g *Graph) (*Graph, error) {
	var vol float64
	top := 0
	for i, d := range g.deg {
		if math.IsInf(d, 0) {
			return nil, &DegreeOverflowError{Node: i}
		}
		if d > g.deg[top] {
			top = i
		}
		vol += d
	}
	if math.IsInf(vol, 0) {
		return nil, &DegreeOverflowError{Node: top, Volume: true, Degree: g.deg[top]}
	}
	return g, nil
}

// DegreeOverflowError is the error of the constructors (FromEdges,
// FromCSR, FromDense, Graph.Coarsen) for finite weights whose sum at a
// node, its degree, or whose total, the volume Σ_i d_i, overflows float64
// to +Inf: the weights are too large, and every Laplacian, solver and
// statistic of the graph would read +Inf or NaN (L_sym the identity, a
// row of L_rw a unit vector, a Cholesky factor all NaN, without an error:
// review 130). It wraps ErrInvalid. A reader that numbers or names the
// nodes otherwise can restate it (package dataset does).
type DegreeOverflowError struct {
	// Node is the first node whose degree overflows; when only the volume
	// does (Volume), the node of the largest degree, Degree.
	Node   int
	Volume bool
	Degree float64
}

func (e *DegreeOverflowError) Error() string {
	const fix = "the weights are too large: normalize them (divide them all by the largest weight, or by another common factor) before building the graph"
	if e.Volume {
		return fmt.Sprintf("%v: the degrees sum beyond float64's range (the volume Σd_i overflows to +Inf; the largest degree is node %d's, %g); %s", ErrInvalid, e.Node, e.Degree, fix)
	}
	return fmt.Sprintf("%v: the weights of node %d sum beyond float64's range (its degree overflows to +Inf); %s", ErrInvalid, e.Node, fix)
}

// Unwrap returns ErrInvalid.
func (e *DegreeOverflowError) Unwrap() error { return ErrInvalid }

// finiteSums returns g, or an error wrapping ErrInvalid naming the first
// entry whose finite weights, summed over its repeated entries, overflowed
// to +Inf: every weight of a Graph is finite. Cost O(nnz).
func finiteSums(g *Graph) (*Graph, error) {
	for i := 0; i < g.n; i++ {
		idx, w := g.Row(i)
		for k, v := range w {
			if math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: entry (%d,%d): the summed weight of its repeated entries overflows to %v", ErrInvalid, i, idx[k], v)
			}
		}
	}
	return g, nil
}

// FromCSR builds a graph from a CSR matrix (ptr of length n+1, column indices
// idx and weights w). Rows need not be sorted; duplicate entries in a row are
// summed. The matrix must be symmetric: an error wrapping ErrInvalid names the
// first entry (i,j) whose mirror (j,i) is missing (at any tol), or differs by
// more than tol·max(|W_ij|,|W_ji|) (tol = 0 asks for exact symmetry; tol
// must be finite and ≥ 0). Mirrors that differ within tol are both stored
// as W_ij/2 + W_ji/2, so that the Graph is exactly symmetric; equal ones
// as they are. Errors are as for FromEdges otherwise. The slices are
// copied.
func FromCSR(n int, ptr []int, idx []int32, w []float64, tol float64) (*Graph, error) {
	if n < 0 {
		return nil, fmt.Errorf("%w: negative node count %d", ErrInvalid, n)
	}
	if !(tol >= 0) || math.IsInf(tol, 1) {
		return nil, fmt.Errorf("%w: symmetry tolerance %v, want a finite value ≥ 0", ErrInvalid, tol)
	}
	if len(ptr) != n+1 || ptr[0] != 0 || ptr[n] != len(idx) || len(idx) != len(w) {
		return nil, fmt.Errorf("%w: malformed CSR arrays (n=%d, len(ptr)=%d, len(idx)=%d, len(w)=%d)", ErrInvalid, n, len(ptr), len(idx), len(w))
	}
	for i := 0; i < n; i++ {
		if ptr[i+1] < ptr[i] {
			return nil, fmt.Errorf("%w: row pointer decreases at row %d", ErrInvalid, i)
		}
		if ptr[i+1] > len(idx) {
			return nil, fmt.Errorf("%w: row pointer %d of row %d exceeds len(idx) = %d", ErrInvalid, ptr[i+1], i, len(idx))
		}
		for k := ptr[i]; k < ptr[i+1]; k++ {
			if idx[k] < 0 || int(idx[k]) >= n {
				return nil, fmt.Errorf("%w: entry (%d,%d) outside [0,%d)", ErrInvalid, i, idx[k], n)
			}
			if err := checkWeight(w[k]); err != nil {
				return nil, fmt.Errorf("%w: entry (%d,%d): %v", ErrInvalid, i, idx[k], err)
			}
		}
	}
	p := append([]int(nil), ptr...)
	g, err := finiteSums(compact(n, p, append([]int32(nil), idx...), append([]float64(nil), w...)))
	if err != nil {
		return nil, err
	}
	if err := g.symmetrizeWithin(tol); err != nil {
		return nil, err
	}
	return finiteDegrees(g)
}

// FromDense builds a graph from a dense symmetric affinity matrix; zero
// entries are not stored. The diagonal becomes self loops. Errors are as for
// FromEdges, and a nil a is an error wrapping ErrInvalid. It is
// FromDenseContext without cancellation.
func FromDense(a mat.Symmetric) (*Graph, error) {
	return FromDenseContext(context.Background(), a)
}

// FromDenseContext is FromDense checking ctx every 256 rows of the scan
// of a and in the compaction after it (at n = 6000, a scan of
// about 1 s in all); the graph is the same. It returns ctx's error,
// wrapped, when cancelled. Cost O(n²) time, 12 bytes per nonzero entry.
func FromDenseContext(ctx context.Context, a mat.Symmetric) (*Graph, error) {
	if a == nil {
		return nil, fmt.Errorf("%w: FromDense: the matrix is nil", ErrInvalid)
	}
	n := a.SymmetricDim()
	ptr := make([]int, n+1)
	var idx []int32
	var w []float64
	for i := 0; i < n; i++ {
		if i%fromDenseRows == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("graph: cancelled: %w", ctx.Err())
		}
		for j := 0; j < n; j++ {
			v := a.At(i, j)
			if err := checkWeight(v); err != nil {
				return nil, fmt.Errorf("%w: entry (%d,%d): %v", ErrInvalid, i, j, err)
			}
			if v != 0 {
				idx = append(idx, int32(j))
				w = append(w, v)
			}
		}
		ptr[i+1] = len(idx)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("graph: cancelled: %w", err)
	}
	g, err := compactContext(ctx, n, ptr, idx, w)
	if err != nil {
		return nil, err
	}
	return finiteDegrees(g)
}

// fromDenseRows is the number of rows FromDenseContext scans between two
// checks of its context.
const fromDenseRows = 256

func checkWeight(v float64) error {
	switch {
	case math.IsNaN(v):
		return errors.New("weight is NaN")
	case math.IsInf(v, 0):
		return fmt.Errorf("weight is %v", v)
	case v < 0:
		return fmt.Errorf("weight %g is negative", v)
	}
	return nil
}

// compact sorts each row, sums duplicates, drops zeros and computes degrees.
// ptr is modified in place.
func compact(n int, ptr []int, idx []int32, w []float64) *Graph {
	g, _ := compactContext(context.Background(), n, ptr, idx, w)
	return g
}

// compactContext is compact checking ctx every cancelEvery rows (sorting
// the rows of a relabelled graph takes seconds at 10⁶ nodes), and after
// a row that brings the entries since the last check to cancelValues (the
// dense rows of ε and Full graphs); it returns ctx's error, wrapped, when
// cancelled.
func compactContext(ctx context.Context, n int, ptr []int, idx []int32, w []float64) (*Graph, error) {
	out := 0
	start := 0
	type ent struct {
		j int32
		w float64
	}
	var buf []ent
	since := 0 // entries since the last check
	for i := 0; i < n; i++ {
		if i%cancelEvery == 0 || since >= cancelValues {
			since = 0
			if ctx.Err() != nil {
				return nil, fmt.Errorf("graph: cancelled: %w", ctx.Err())
			}
		}
		a, b := start, ptr[i+1]
		start = b
		since += b - a
		sorted := true
		for k := a + 1; k < b; k++ {
			if idx[k] <= idx[k-1] {
				sorted = false
				break
			}
		}
		if !sorted {
			buf = buf[:0]
			for k := a; k < b; k++ {
				buf = append(buf, ent{idx[k], w[k]})
			}
			slices.SortFunc(buf, func(x, y ent) int { return int(x.j) - int(y.j) })
			for k := range buf {
				idx[a+k], w[a+k] = buf[k].j, buf[k].w
			}
		}
		rowStart := out
		for k := a; k < b; k++ {
			if out > rowStart && idx[out-1] == idx[k] {
				w[out-1] += w[k]
				continue
			}
			idx[out], w[out] = idx[k], w[k]
			out++
		}
		// Drop zeros (may arise from explicit zeros).
		o2 := rowStart
		for k := rowStart; k < out; k++ {
			if w[k] != 0 {
				idx[o2], w[o2] = idx[k], w[k]
				o2++
			}
		}
		out = o2
		ptr[i] = rowStart
	}
	ptr[n] = out
	// ptr[i] now holds row starts; shift is already right because we wrote
	// ptr[i] = rowStart during the loop and ptr[n] = out.
	g := &Graph{n: n, ptr: ptr, idx: idx[:out:out], w: w[:out:out]}
	g.deg = make([]float64, n)
	for i := 0; i < n; i++ {
		var s float64
		for k := ptr[i]; k < ptr[i+1]; k++ {
			s += w[k]
		}
		g.deg[i] = s
	}
	return g, nil
}

// symmetrizeWithin makes g, just built by FromCSR and not yet shared,
// exactly symmetric: it returns an error wrapping ErrInvalid naming the
// first entry (i,j), in row order, whose mirror (j,i) is missing, or
// differs from it by more than tol·max(W_ij, W_ji); otherwise it stores
// W_ij/2 + W_ji/2 in both entries of every pair that differs (within tol)
// and sums the degrees of the rows it changed again, in storage order as
// compact sums them. A missing mirror was accepted at tol ≥ 1 (|0 − w| ≤
// tol·w) and a pair within tol kept its two values: FromCSR(2, W01 = 1,
// W10 = 1.5, tol 0.5) gave L_sym off-diagonals −0.816 and −1.225 (review
// 130). Cost O(nnz log d_max).
func (g *Graph) symmetrizeWithin(tol float64) error {
	changed := make(map[int]bool)
	for i := 0; i < g.n; i++ {
		for k := g.ptr[i]; k < g.ptr[i+1]; k++ {
			j := int(g.idx[k])
			if j == i {
				continue
			}
			t := g.find(j, i)
			if t < 0 {
				return fmt.Errorf("%w: not symmetric: W[%d,%d] = %g but W[%d,%d] is missing", ErrInvalid, i, j, g.w[k], j, i)
			}
			a, b := g.w[k], g.w[t]
			if math.Abs(a-b) > tol*math.Max(a, b) {
				return fmt.Errorf("%w: not symmetric: W[%d,%d] = %g but W[%d,%d] = %g", ErrInvalid, i, j, a, j, i, b)
			}
			if j > i && a != b {
				m := a/2 + b/2
				g.w[k], g.w[t] = m, m
				changed[i], changed[j] = true, true
			}
		}
	}
	for i := range changed {
		var s float64
		for k := g.ptr[i]; k < g.ptr[i+1]; k++ {
			s += g.w[k]
		}
		g.deg[i] = s
	}
	return nil
}

// find returns the storage position of entry (i,j), or −1 when it is not
// stored. Cost O(log deg(i)).
func (g *Graph) find(i, j int) int {
	idx := g.idx[g.ptr[i]:g.ptr[i+1]]
	k, ok := slices.BinarySearch(idx, int32(j))
	if !ok {
		return -1
	}
	return g.ptr[i] + k
}

// Dense returns the n×n affinity matrix. It allocates n² floats: use it only
// for small graphs and tests.
func (g *Graph) Dense() *mat.SymDense {
	if g.n == 0 {
		return &mat.SymDense{} // gonum has no 0×0 constructor; the zero value is empty
	}
	a := mat.NewSymDense(g.n, nil)
	for i := 0; i < g.n; i++ {
		idx, w := g.Row(i)
		for k, j := range idx {
			if int(j) >= i {
				a.SetSym(i, int(j), w[k])
			}
		}
	}
	return a
}

// Components labels the connected components: comp[i] is the component of
// node i, numbered 0…count−1 in order of their smallest node. comp is the
// caller's to modify. Cost O(n + nnz) on the first call, which caches the
// result, and O(n) for the copy on later calls (at 10⁶ nodes 0.3 s
// against 3 ms; a clustering asks for the components up to three times).
func (g *Graph) Components() (comp []int, count int) {
	g.comps.once.Do(func() { g.comps.comp, g.comps.count = g.components() })
	return slices.Clone(g.comps.comp), g.comps.count
}

// components computes Components. Cost O(n + nnz).
func (g *Graph) components() (comp []int, count int) {
	comp = make([]int, g.n)
	for i := range comp {
		comp[i] = -1
	}
	stack := make([]int, 0, 64)
	for s := 0; s < g.n; s++ {
		if comp[s] >= 0 {
			continue
		}
		comp[s] = count
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			idx, _ := g.Row(v)
			for _, u := range idx {
				if comp[u] < 0 {
					comp[u] = count
					stack = append(stack, int(u))
				}
			}
		}
		count++
	}
	return comp, count
}

// Complete reports whether every row of g holds every other node (a
// complete graph, such as a full RBF graph), with more than one node;
// self loops are allowed. Cost O(n log n).
func (g *Graph) Complete() bool {
	n := g.N()
	if n < 2 {
		return false
	}
	for i := range n {
		idx, _ := g.Row(i)
		others := len(idx)
		if _, found := slices.BinarySearch(idx, int32(i)); found {
			others--
		}
		if others != n-1 {
			return false
		}
	}
	return true
}

// Isolated returns the nodes of degree zero, in increasing order. A node with
// only a self loop is not isolated.
func (g *Graph) Isolated() []int {
	var out []int
	for i, d := range g.deg {
		if d == 0 {
			out = append(out, i)
		}
	}
	return out
}

// Normalized returns g with every weight divided by the largest weight
// between distinct nodes, which becomes 1 (self loops are divided too),
// and that largest weight; g itself, and 0, when g has no such edge. An
// unweighted graph is returned as it is (its largest weight is 1). It
// is what the methods that read weights as similarities in [0, 1]
// (cluster.Uses.WeightScale) expect of a graph whose weights are counts
// or distances' inverses. A weight that underflows to 0 after the
// division, or a self loop or the sum of the weights that overflows (weights spanning
// more than float64's range), is an error wrapping ErrInvalid naming the
// node. Cost O(nnz + n).
func (g *Graph) Normalized() (*Graph, float64, error) {
	wmax := 0.0
	for i := 0; i < g.n; i++ {
		for k := g.ptr[i]; k < g.ptr[i+1]; k++ {
			if int(g.idx[k]) != i {
				wmax = math.Max(wmax, g.w[k])
			}
		}
	}
	if wmax == 0 || wmax == 1 {
		return g, wmax, nil
	}
	w := make([]float64, len(g.w))
	for k, v := range g.w {
		w[k] = v / wmax
		if w[k] == 0 && v > 0 {
			return nil, 0, fmt.Errorf("%w: weight %g divided by the largest, %g, underflows to 0 (node %d): the weights span more than float64's range", ErrInvalid, v, wmax, g.rowOf(k))
		}
		if math.IsInf(w[k], 0) {
			// A self loop far above the largest edge: +Inf reached the
			// eigensolver as NaN far from its cause (review 114).
			return nil, 0, fmt.Errorf("%w: self loop %g of node %d divided by the largest weight between distinct nodes, %g, overflows: the weights span more than float64's range", ErrInvalid, v, g.rowOf(k), wmax)
		}
	}
	ng := g.withWeights(w)
	// Each degree is one finite self loop plus weights of at most 1, but
	// their sum, the volume, can overflow with two large loops (review
	// 115: "regularization τ = +Inf" far from its cause).
	var vol float64
	for _, d := range ng.deg {
		vol += d
	}
	if math.IsInf(vol, 0) {
		return nil, 0, fmt.Errorf("%w: the weights divided by the largest between distinct nodes, %g, sum beyond float64's range (self loops far above the edges): the weights span more than float64's range", ErrInvalid, wmax)
	}
	return ng, wmax, nil
}

// withWeights returns the graph of g's structure with weights w (parallel
// to g's), its degrees summed row by row in storage order, as building a
// graph sums them. Cost O(nnz + n).
func (g *Graph) withWeights(w []float64) *Graph {
	deg := make([]float64, g.n)
	for i := range deg {
		var s float64
		for k := g.ptr[i]; k < g.ptr[i+1]; k++ {
			s += w[k]
		}
		deg[i] = s
	}
	return &Graph{n: g.n, ptr: g.ptr, idx: g.idx, w: w, deg: deg}
}

// rowOf returns the node whose row holds stored entry k. Cost O(log n).
func (g *Graph) rowOf(k int) int {
	return sort.Search(g.n, func(i int) bool { return g.ptr[i+1] > k })
}

// ScaledPow2 returns g with every weight multiplied by 2^e (math.Ldexp),
// sharing g's structure; the degrees are summed again from the scaled
// weights. The scaling is exact, and every degree is g's times 2^e, unless
// a weight or a degree leaves the normal range of float64 (overflows, or
// becomes subnormal): the caller chooses e so that it does not (the
// constructors refuse degrees that overflow, DegreeOverflowError, and
// ScaledPow2 does not check). Cost O(nnz + n).
func (g *Graph) ScaledPow2(e int) *Graph {
	w := make([]float64, len(g.w))
	for k, v := range g.w {
		w[k] = math.Ldexp(v, e)
	}
	return g.withWeights(w)
}

// WithSelfLoops returns a new graph with w added to every diagonal entry
// (A ← A + wI, seed 004 §5.2). It is the documented regularization for graphs
// with isolated nodes.
func (g *Graph) WithSelfLoops(w float64) (*Graph, error) {
	if err := checkWeight(w); err != nil {
		return nil, fmt.Errorf("%w: self-loop %v", ErrInvalid, err)
	}
	edges := g.Edges()
	for i := 0; i < g.n; i++ {
		edges = append(edges, Edge{I: i, J: i, W: w})
	}
	return FromEdges(g.n, edges)
}

// Subgraph returns the graph induced by nodes (in the given order): node k of
// the result is nodes[k] of g. The nodes must be distinct and in [0, n):
// an error wrapping ErrInvalid names a node outside or repeated.
//
// Cost O(Σ degrees of nodes) plus, when nodes holds at least n/16 of the
// graph's nodes, O(n) for a position table (a map below that, so that many
// small subgraphs of one large graph do not cost O(n) each).
func (g *Graph) Subgraph(nodes []int) (*Graph, error) {
	var table []int // position in nodes + 1; 0: not in the subgraph
	var small map[int32]int
	if 16*len(nodes) >= g.n {
		table = make([]int, g.n)
	} else {
		small = make(map[int32]int, len(nodes))
	}
	for k, v := range nodes {
		if v < 0 || v >= g.n {
			return nil, fmt.Errorf("%w: subgraph node %d outside [0,%d)", ErrInvalid, v, g.n)
		}
		if table != nil {
			if table[v] != 0 {
				return nil, fmt.Errorf("%w: subgraph node %d repeated (positions %d and %d)", ErrInvalid, v, table[v]-1, k)
			}
			table[v] = k + 1
		} else {
			if q, ok := small[int32(v)]; ok {
				return nil, fmt.Errorf("%w: subgraph node %d repeated (positions %d and %d)", ErrInvalid, v, q-1, k)
			}
			small[int32(v)] = k + 1
		}
	}
	pos := func(j int32) int {
		if table != nil {
			return table[j] - 1
		}
		return small[j] - 1
	}
	var edges []Edge
	for k, v := range nodes {
		idx, w := g.Row(v)
		for t, j := range idx {
			if q := pos(j); q >= k {
				edges = append(edges, Edge{I: k, J: q, W: w[t]})
			}
		}
	}
	return FromEdges(len(nodes), edges)
}

// MulTo sets dst = W·x for n×p blocks x and dst, using up to GOMAXPROCS
// goroutines for large graphs. dst must not alias x. Cost O(nnz·p).
func (g *Graph) MulTo(dst, x *mat.Dense) {
	g.apply(dst, x, g.w, nil, 0, 1)
}
