package graph

import (
	"context"
	"fmt"
	"slices"
)

// Permute returns g with its nodes relabelled: node k of the result is node
// perm[k] of g. perm must be a permutation of 0…n−1. Weights, degrees and
// the spectrum are unchanged (the adjacency matrix becomes PᵀWP); sparse
// products with the result touch memory in the order of perm, which is
// what RCMOrder improves. Cost O(nnz log(max row length)); ctx is checked
// every few thousand rows and its error returned, wrapped.
func (g *Graph) Permute(ctx context.Context, perm []int) (*Graph, error) {
	if len(perm) != g.n {
		return nil, fmt.Errorf("%w: permutation of length %d for %d nodes", ErrInvalid, len(perm), g.n)
	}
	inv := make([]int32, g.n)
	for i := range inv {
		inv[i] = -1
	}
	for k, v := range perm {
		if v < 0 || v >= g.n {
			return nil, fmt.Errorf("%w: permutation entry %d = %d outside [0,%d)", ErrInvalid, k, v, g.n)
		}
		if inv[v] >= 0 {
			return nil, fmt.Errorf("%w: permutation repeats node %d (entries %d and %d)", ErrInvalid, v, inv[v], k)
		}
		inv[v] = int32(k)
	}
	ptr := make([]int, g.n+1)
	idx := make([]int32, len(g.idx))
	w := make([]float64, len(g.w))
	for k, v := range perm {
		if k%cancelEvery == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("graph: relabelling cancelled: %w", ctx.Err())
		}
		a, b := g.ptr[v], g.ptr[v+1]
		ptr[k+1] = ptr[k] + b - a
		for t := a; t < b; t++ {
			idx[ptr[k]+t-a] = inv[g.idx[t]]
			w[ptr[k]+t-a] = g.w[t]
		}
	}
	// compact sorts every row; no duplicates or zeros can arise.
	return compactContext(ctx, g.n, ptr, idx, w)
}

// RCMOrder returns the reverse Cuthill–McKee ordering of g (George & Liu,
// Computer Solution of Large Sparse Positive Definite Systems, 1981, §4.3):
// each connected component is traversed breadth-first from a
// pseudo-peripheral node (the end of repeated breadth-first sweeps, as in
// George & Liu's algorithm), neighbours visited by increasing number of
// neighbours and then by label, and the whole order is reversed. Nodes
// that are close in the graph get close labels, so g.Permute(ctx, order)
// has a small bandwidth and its sparse products read x almost
// sequentially: for a 10-NN graph of 10⁵ random points a product with
// L_sym takes about 1.6 ms instead of 2.2 ms. The order is deterministic.
// Cost O(nnz) per sweep, a few sweeps per component; ctx is checked every
// few thousand nodes visited and its error returned, wrapped.
func (g *Graph) RCMOrder(ctx context.Context) ([]int, error) {
	n := g.n
	order := make([]int, 0, n)
	seen := make([]bool, n)
	level := make([]int, n)
	mark := make([]int, n) // sweep stamp, for the peripheral-node search
	stamp := 0
	var queue []int
	visits := 0 // nodes dequeued since the last check of ctx
	// sweep runs a breadth-first search from root and returns a node of
	// fewest neighbours in the deepest level, and that level's depth.
	sweep := func(root int) (last int, depth int) {
		stamp++
		queue = append(queue[:0], root)
		mark[root] = stamp
		level[root] = 0
		for h := 0; h < len(queue); h++ {
			visits++
			v := queue[h]
			idx, _ := g.Row(v)
			for _, j := range idx {
				if u := int(j); mark[u] != stamp {
					mark[u] = stamp
					level[u] = level[v] + 1
					queue = append(queue, u)
				}
			}
		}
		// The last node of minimal degree in the deepest level.
		depth = level[queue[len(queue)-1]]
		last = queue[len(queue)-1]
		for _, v := range queue {
			if level[v] == depth && g.neighbours(v) < g.neighbours(last) {
				last = v
			}
		}
		return last, depth
	}
	var nb []int
	cancelled := func() error {
		if visits < cancelEvery {
			return nil
		}
		visits = 0
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("graph: ordering cancelled: %w", err)
		}
		return nil
	}
	for s := 0; s < n; s++ {
		if seen[s] {
			continue
		}
		// Pseudo-peripheral node: sweep until the depth stops growing.
		root := s
		far, depth := sweep(root)
		for it := 0; it < 8; it++ {
			if err := cancelled(); err != nil {
				return nil, err
			}
			f2, d2 := sweep(far)
			if d2 <= depth {
				break
			}
			root, far, depth = far, f2, d2
		}
		head := len(order)
		order = append(order, root)
		seen[root] = true
		for h := head; h < len(order); h++ {
			if visits++; h%cancelEvery == 0 {
				if err := cancelled(); err != nil {
					return nil, err
				}
			}
			v := order[h]
			idx, _ := g.Row(v)
			nb = nb[:0]
			for _, j := range idx {
				if u := int(j); !seen[u] {
					seen[u] = true
					nb = append(nb, u)
				}
			}
			slices.SortFunc(nb, func(a, b int) int {
				if da, db := g.neighbours(a), g.neighbours(b); da != db {
					return da - db
				}
				return a - b
			})
			order = append(order, nb...)
		}
	}
	slices.Reverse(order)
	return order, nil
}

// neighbours returns the number of stored entries of row i.
func (g *Graph) neighbours(i int) int { return g.ptr[i+1] - g.ptr[i] }
