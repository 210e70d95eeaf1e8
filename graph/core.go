package graph

// SmallComponent reports whether a connected component of size nodes, in a
// graph of n nodes where k clusters are sought, is too small to be a
// cluster: an isolated node (size 1, whose degree 0 the normalized
// Laplacians divide by), or 4·k·size < n, fewer nodes than a quarter of
// the mean cluster size n/k. With k ≤ 0 (k unknown) only isolated nodes
// are small. It is the one rule behind NeedsRegularization's "component
// below n/(4k)" and Core.
func SmallComponent(size, n, k int) bool {
	if size <= 1 || k <= 0 {
		return size <= 1
	}
	return 4*k*size < n
}

// Core returns the core of g for k clusters, in increasing node order: the
// nodes of the connected components that are not small (SmallComponent).
// When those hold fewer than max(k, 2) nodes (every component is small, as
// in a graph of many equal pieces), the core is every node of a component
// of two nodes or more instead, and when even those are fewer than max(k,
// 2), every node. A node whose only edge is a self loop is a component of
// one, as SmallComponent counts it: it has degree > 0, but no link to
// another node, and would take an eigenvector, a cluster, of its own; the
// methods that cluster the core attach it as they attach isolated nodes.
// The nodes outside the core have no edge into it. Cost O(n + nnz).
func Core(g *Graph, k int) []int {
	n := g.n
	comp, nc := g.Components()
	size := make([]int, nc)
	for _, c := range comp {
		size[c]++
	}
	need := max(k, 2)
	var core []int
	for i, c := range comp {
		if !SmallComponent(size[c], n, k) {
			core = append(core, i)
		}
	}
	if len(core) >= need {
		return core
	}
	core = core[:0]
	for i, c := range comp {
		if size[c] > 1 {
			core = append(core, i)
		}
	}
	if len(core) >= need {
		return core
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}
