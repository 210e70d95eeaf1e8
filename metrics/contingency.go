package metrics

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/tether-sc/tether/internal/parallel"
)

// Errors returned for unusable input. They are wrapped with the details
// (lengths, index) and can be tested with errors.Is.
var (
	// ErrLength reports label slices of different lengths.
	ErrLength = errors.New("metrics: truth and prediction have different lengths")
	// ErrEmpty reports a partition of zero items.
	ErrEmpty = errors.New("metrics: empty partition")
	// ErrTooLarge reports more items than a table can index (2³¹ − 1).
	ErrTooLarge = errors.New("metrics: too many items")
	// ErrSize reports side information (graph, constraints) whose number of
	// nodes differs from the number of labels.
	ErrSize = errors.New("metrics: size mismatch")
)

// parallelMin is the number of items from which the two partitions are
// relabelled concurrently.
const parallelMin = 1 << 16

// maxItems is the largest n a Contingency indexes with int32 cluster ids.
const maxItems = math.MaxInt32

// Contingency is the confusion matrix of two partitions of the same n items:
// cell (i, j) counts the items in truth cluster i and predicted cluster j
// (thesis §2.5: C_ij = p_iᵀ p̂_j). Rows are the distinct truth labels and
// columns the distinct predicted labels, both in increasing label order.
//
// Only the non-empty cells are stored, row by row (a CSR layout), so the
// table costs O(n + k₁ + k₂) memory whatever k₁·k₂ is. A Contingency is
// immutable and safe for concurrent use. Its zero value is not usable;
// build one with NewContingency.
type Contingency struct {
	n                   int
	truthVals, predVals []int // label value of row i / column j
	rowSum, colSum      []int // a_i and b_j
	rowPtr              []int // cells of row i are [rowPtr[i], rowPtr[i+1])
	cellCol             []int32
	cellCount           []int
	pairs               pairCounts // computed once by the constructor
	info                infoTerms  // idem
}

// NewContingency builds the contingency table of truth (rows) and pred
// (columns). It returns an error wrapping ErrLength when the slices have
// different lengths, ErrEmpty when they are empty and ErrTooLarge when
// n ≥ 2³¹ − 1. Labels may be any int values.
//
// Cost: O(n + k₁ + k₂) time when the label values span a range of O(n)
// (labels 0…k−1, for instance); otherwise the distinct values are found
// with a hash map and sorted, O(n + k log k). No k₁×k₂ array is allocated
// unless k₁·k₂ ≤ max(n, 2¹⁶).
func NewContingency(truth, pred []int) (*Contingency, error) {
	return newContingency(truth, pred, -1)
}

// newContingency is NewContingency with a test hook: dense < 0 chooses the
// counting method automatically, 0 forces the sparse (radix) path and 1 the
// dense one.
func newContingency(truth, pred []int, dense int) (*Contingency, error) {
	n := len(truth)
	switch {
	case len(truth) != len(pred):
		return nil, fmt.Errorf("%w: %d truth labels, %d predicted labels", ErrLength, len(truth), len(pred))
	case n == 0:
		return nil, fmt.Errorf("%w: no labels", ErrEmpty)
	case n >= maxItems:
		return nil, fmt.Errorf("%w: %d labels (limit %d)", ErrTooLarge, n, maxItems-1)
	}
	var rid, cid []int32
	var rvals, cvals []int
	workers := 1
	if n >= parallelMin {
		workers = 2 // the two relabellings are independent: use two cores
	}
	parallel.For(context.Background(), 2, workers, func(i int) error {
		if i == 0 {
			rid, rvals = relabel(truth)
		} else {
			cid, cvals = relabel(pred)
		}
		return nil
	})
	k1, k2 := len(rvals), len(cvals)
	c := &Contingency{
		n:         n,
		truthVals: rvals,
		predVals:  cvals,
		rowSum:    make([]int, k1),
		colSum:    make([]int, k2),
		rowPtr:    make([]int, k1+1),
	}
	for i := range n {
		c.rowSum[rid[i]]++
		c.colSum[cid[i]]++
	}
	useDense := dense == 1 || (dense < 0 && int64(k1)*int64(k2) <= int64(max(n, 1<<16)))
	if useDense {
		c.countDense(rid, cid)
	} else {
		c.countSparse(rid, cid)
	}
	c.pairs = c.computePairs()
	c.info = c.computeInfo()
	return c, nil
}

// countDense counts into a k₁×k₂ array, then keeps the non-zero cells.
func (c *Contingency) countDense(rid, cid []int32) {
	k1, k2 := len(c.rowSum), len(c.colSum)
	cnt := make([]int, k1*k2)
	for i, r := range rid {
		cnt[int(r)*k2+int(cid[i])]++
	}
	nnz := 0
	for _, v := range cnt {
		if v != 0 {
			nnz++
		}
	}
	c.cellCol = make([]int32, 0, nnz)
	c.cellCount = make([]int, 0, nnz)
	for i := range k1 {
		for j, v := range cnt[i*k2 : (i+1)*k2] {
			if v != 0 {
				c.cellCol = append(c.cellCol, int32(j))
				c.cellCount = append(c.cellCount, v)
			}
		}
		c.rowPtr[i+1] = len(c.cellCol)
	}
}

// countSparse sorts the items by (row, column) with two stable counting
// sorts, least significant key first, moving only the keys: the rows of the
// items in column order, then the columns of the items in row order, where
// the cells are runs. O(n + k₁ + k₂) time and O(n) memory.
func (c *Contingency) countSparse(rid, cid []int32) {
	n := c.n
	k1, k2 := len(c.rowSum), len(c.colSum)
	start := make([]int, max(k1, k2)+1)
	for j := range k2 {
		start[j+1] = start[j] + c.colSum[j]
	}
	rowsByCol := make([]int32, n)
	for i, j := range cid {
		rowsByCol[start[j]] = rid[i]
		start[j]++
	}
	// start[j] is now the end of column j's segment.
	rowStart := make([]int, k1+1)
	for i := range k1 {
		rowStart[i+1] = rowStart[i] + c.rowSum[i]
	}
	next := slices.Clone(rowStart[:k1])
	colsByRow := make([]int32, n)
	lo := 0
	for j := range k2 {
		for _, r := range rowsByCol[lo:start[j]] {
			colsByRow[next[r]] = int32(j)
			next[r]++
		}
		lo = start[j]
	}
	rowsByCol = nil
	for i := range k1 {
		seg := colsByRow[rowStart[i]:rowStart[i+1]]
		for p := 0; p < len(seg); {
			q := p + 1
			for q < len(seg) && seg[q] == seg[p] {
				q++
			}
			c.cellCol = append(c.cellCol, seg[p])
			c.cellCount = append(c.cellCount, q-p)
			p = q
		}
		c.rowPtr[i+1] = len(c.cellCol)
	}
}

// relabel maps the label values to dense ids 0…k−1 in increasing value
// order and returns the ids and the sorted distinct values.
func relabel(labels []int) (ids []int32, vals []int) {
	lo, hi := labels[0], labels[0]
	for _, v := range labels {
		lo = min(lo, v)
		hi = max(hi, v)
	}
	ids = make([]int32, len(labels))
	// The span hi−lo computed in uint64 is exact even when hi−lo overflows int.
	if span := uint64(hi) - uint64(lo); span < uint64(2*len(labels)+1024) {
		index := make([]int32, span+1)
		for _, v := range labels {
			index[v-lo] = 1
		}
		var k int32
		for off, used := range index {
			if used != 0 {
				index[off] = k
				vals = append(vals, lo+off)
				k++
			} else {
				index[off] = -1
			}
		}
		for i, v := range labels {
			ids[i] = index[v-lo]
		}
		return ids, vals
	}
	index := make(map[int]int32)
	for _, v := range labels {
		if _, ok := index[v]; !ok {
			index[v] = 0
			vals = append(vals, v)
		}
	}
	slices.Sort(vals)
	for k, v := range vals {
		index[v] = int32(k)
	}
	for i, v := range labels {
		ids[i] = index[v]
	}
	return ids, vals
}

// N returns the number of items.
func (c *Contingency) N() int { return c.n }

// Rows returns k₁, the number of truth clusters.
func (c *Contingency) Rows() int { return len(c.rowSum) }

// Cols returns k₂, the number of predicted clusters.
func (c *Contingency) Cols() int { return len(c.colSum) }

// NNZ returns the number of non-empty cells.
func (c *Contingency) NNZ() int { return len(c.cellCount) }

// TruthLabel returns the truth label value of row i.
func (c *Contingency) TruthLabel(i int) int { return c.truthVals[i] }

// PredLabel returns the predicted label value of column j.
func (c *Contingency) PredLabel(j int) int { return c.predVals[j] }

// RowSum returns a_i, the size of truth cluster i.
func (c *Contingency) RowSum(i int) int { return c.rowSum[i] }

// ColSum returns b_j, the size of predicted cluster j.
func (c *Contingency) ColSum(j int) int { return c.colSum[j] }

// At returns the number of items in truth cluster i and predicted cluster
// j. It panics if i or j is out of range. Cost O(log nnz(row i)).
func (c *Contingency) At(i, j int) int {
	if i < 0 || i >= len(c.rowSum) || j < 0 || j >= len(c.colSum) {
		panic(fmt.Sprintf("metrics: cell (%d,%d) outside a %d×%d table", i, j, len(c.rowSum), len(c.colSum)))
	}
	cols := c.cellCol[c.rowPtr[i]:c.rowPtr[i+1]]
	if p, ok := slices.BinarySearch(cols, int32(j)); ok {
		return c.cellCount[c.rowPtr[i]+p]
	}
	return 0
}

// Do calls fn for every non-empty cell, row by row and by increasing column
// within a row.
func (c *Contingency) Do(fn func(i, j, count int)) {
	for i := range c.rowSum {
		for p := c.rowPtr[i]; p < c.rowPtr[i+1]; p++ {
			fn(i, int(c.cellCol[p]), c.cellCount[p])
		}
	}
}

// Transpose returns the table with truth and prediction swapped. Cost
// O(n + k₁ + k₂).
func (c *Contingency) Transpose() *Contingency {
	k1, k2 := len(c.rowSum), len(c.colSum)
	t := &Contingency{
		n:         c.n,
		truthVals: c.predVals,
		predVals:  c.truthVals,
		rowSum:    c.colSum,
		colSum:    c.rowSum,
		rowPtr:    make([]int, k2+1),
		cellCol:   make([]int32, len(c.cellCol)),
		cellCount: make([]int, len(c.cellCount)),
	}
	for _, j := range c.cellCol {
		t.rowPtr[j+1]++
	}
	for j := range k2 {
		t.rowPtr[j+1] += t.rowPtr[j]
	}
	next := slices.Clone(t.rowPtr[:k2])
	for i := range k1 {
		for p := c.rowPtr[i]; p < c.rowPtr[i+1]; p++ {
			j := c.cellCol[p]
			q := next[j]
			t.cellCol[q] = int32(i)
			t.cellCount[q] = c.cellCount[p]
			next[j]++
		}
	}
	t.pairs = t.computePairs()
	t.info = t.computeInfo()
	return t
}
