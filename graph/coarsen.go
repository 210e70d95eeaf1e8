package graph

import (
	"context"
	"fmt"
)

// Coarsen returns the graph of the aggregates of a heavy-edge matching of g
// and the map from nodes to aggregates: node i of g belongs to node agg[i]
// of c. Nodes are visited in order; each node not yet matched is paired
// with its unmatched neighbour j ≠ i of the largest normalized weight
// W_ij/√(d_i d_j) (the first on ties), or stays alone when it has none.
// Aggregates are numbered in the order of their first node, so a graph in
// a bandwidth-reducing order (RCM) gives a coarse graph in one too.
//
// The coarse weights are the sums C = PᵀWP over the aggregates, P the n×m
// 0/1 aggregation matrix: edges inside an aggregate become a self loop, so
// the coarse degrees are the sums of the fine ones (PᵀDP) and the coarse
// pencil (D_c − C, D_c) is the Galerkin projection of (D − W, D) onto the
// vectors constant on aggregates. Its eigenvalues are therefore at least
// the corresponding ones of g's (Courant–Fischer), and the null vectors of
// g's Laplacians are constant on aggregates: every aggregate lies in one
// connected component. This is the coarsening of the multilevel methods of
// Barnard & Simon (Concurrency: Pract. Exper. 6(2), 1994) and Hendrickson
// & Leland (the Chaco partitioner, 1995), which roughly halves the nodes
// per level on sparse graphs.
//
// Cost O(nnz) time and memory; ctx is checked every 4096 rows.
func (g *Graph) Coarsen(ctx context.Context) (c *Graph, agg []int32, err error) {
	n := g.n
	agg = make([]int32, n)
	for i := range agg {
		agg[i] = -1
	}
	m := int32(0)
	for i := 0; i < n; i++ {
		if i%cancelEvery == 0 && ctx.Err() != nil {
			return nil, nil, fmt.Errorf("graph: cancelled: %w", ctx.Err())
		}
		if agg[i] >= 0 {
			continue
		}
		agg[i] = m
		best, bw := int32(-1), 0.0
		idx, w := g.Row(i)
		for k, j := range idx {
			if int(j) == i || agg[j] >= 0 {
				continue
			}
			if s := w[k] / SqrtProduct(g.deg[i], g.deg[j]); s > bw {
				best, bw = j, s
			}
		}
		if best >= 0 {
			agg[best] = m
		}
		m++
	}
	// Members of each aggregate, in CSR form.
	mp := make([]int, m+1)
	for _, a := range agg {
		mp[a+1]++
	}
	for a := int32(0); a < m; a++ {
		mp[a+1] += mp[a]
	}
	mem := make([]int32, n)
	fill := append([]int(nil), mp[:m]...)
	for i, a := range agg {
		mem[fill[a]] = int32(i)
		fill[a]++
	}
	// Rows of C: merge the members' rows, mapped to aggregates, with a
	// position table (pos[b] = index in the current row + 1).
	pos := make([]int, m)
	ptr := make([]int, m+1)
	cidx := make([]int32, 0, len(g.idx)/2)
	cw := make([]float64, 0, len(g.idx)/2)
	for a := int32(0); a < m; a++ {
		if int(a)%cancelEvery == 0 && ctx.Err() != nil {
			return nil, nil, fmt.Errorf("graph: cancelled: %w", ctx.Err())
		}
		start := len(cidx)
		for _, i := range mem[mp[a]:mp[a+1]] {
			idx, w := g.Row(int(i))
			for k, j := range idx {
				b := agg[j]
				if p := pos[b]; p > 0 {
					cw[start+p-1] += w[k]
					continue
				}
				cidx = append(cidx, b)
				cw = append(cw, w[k])
				pos[b] = len(cidx) - start
			}
		}
		for _, b := range cidx[start:] {
			pos[b] = 0
		}
		ptr[a+1] = len(cidx)
	}
	// The coarse weights and degrees sum the fine ones in another order:
	// at a volume just below float64's largest value they may overflow.
	c, err = finiteSums(compact(int(m), ptr, cidx, cw))
	if err == nil {
		c, err = finiteDegrees(c)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("graph: coarsening: %w", err)
	}
	return c, agg, nil
}
