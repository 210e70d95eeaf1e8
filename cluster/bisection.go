package cluster

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/tether-sc/tether/graph"
)

// bisection is the split of one cluster by a 2-way method inside greedy
// recursive bisection (COSC, L1CSC).
type bisection struct {
	nodes []int  // the cluster's nodes in the whole graph
	sideA []bool // per entry of nodes
	ok    bool   // false when the cluster cannot be split
	// delta is the change of the method's k-way objective when the
	// cluster is replaced by its two sides (lower is better).
	delta float64
}

// recursiveBisection splits the n nodes into k clusters, greedily: the
// whole node set is bisected by split, then, until there are k clusters,
// the splittable cluster of least delta is replaced by its two sides, and
// each side is bisected in turn (only when another split will follow).
// Clusters are labelled in increasing order of their smallest node. It
// returns the labels, or nil labels and the number of clusters reached
// when fewer than k could be formed (the caller names the cause). Cost:
// 2k − 3 calls of split for k > 2 (both sides of each split are bisected,
// to choose the next), one for k = 2, plus O(n log n). A cancelled ctx
// between splits returns an error wrapping ctx.Err() that names the
// method (name); split names its own stage.
func recursiveBisection(ctx context.Context, name string, n, k int, split func(context.Context, []int) (bisection, error)) ([]int, int, error) {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	first, err := split(ctx, all)
	if err != nil {
		return nil, 0, err
	}
	if !first.ok {
		return nil, 1, nil
	}
	parts := []bisection{first}
	for len(parts) < k {
		if err := ctx.Err(); err != nil {
			return nil, 0, fmt.Errorf("cluster: %s: recursive bisection, %d of %d clusters: %w", name, len(parts), k, err)
		}
		best := -1
		for i, pt := range parts {
			if pt.ok && (best < 0 || pt.delta < parts[best].delta) {
				best = i
			}
		}
		if best < 0 {
			return nil, len(parts), nil
		}
		pt := parts[best]
		parts = append(parts[:best], parts[best+1:]...)
		a, b := sides(pt.nodes, pt.sideA)
		more := len(parts)+2 < k // another split will follow
		for _, side := range [][]int{a, b} {
			sp := bisection{nodes: side}
			if more {
				if sp, err = split(ctx, side); err != nil {
					return nil, 0, err
				}
			}
			parts = append(parts, sp)
		}
	}
	sort.Slice(parts, func(i, j int) bool { return minInt(parts[i].nodes) < minInt(parts[j].nodes) })
	labels := make([]int, n)
	for c, pt := range parts {
		for _, v := range pt.nodes {
			labels[v] = c
		}
	}
	return labels, k, nil
}

// sides returns the nodes whose entry of sideA is true (side A) and the
// others (side B), in the order of nodes. Cost O(len(nodes)).
func sides(nodes []int, sideA []bool) (a, b []int) {
	for i, v := range nodes {
		if sideA[i] {
			a = append(a, v)
		} else {
			b = append(b, v)
		}
	}
	return a, b
}

// cutTerm returns cut(X, V∖X)/size(X) on g for X the nodes with
// sideA[k] == a (all of nodes when sideA is nil); size is vol(X) when
// byVolume (a term of the k-way normalized cut) and |X| otherwise (of the
// k-way ratio cut). 0 for X of size 0. Cost O(Σ_{v∈nodes} deg(v)).
func cutTerm(g *graph.Graph, nodes []int, sideA []bool, a, byVolume bool) float64 {
	in := make(map[int]bool, len(nodes))
	for k, v := range nodes {
		if sideA == nil || sideA[k] == a {
			in[v] = true
		}
	}
	var cut, size float64
	for k, v := range nodes { // in node order: the sums are reproducible
		if sideA != nil && sideA[k] != a {
			continue
		}
		idx, w := g.Row(v)
		if byVolume {
			size += g.Degree(v)
		} else {
			size++
		}
		for t, j := range idx {
			if !in[int(j)] {
				cut += w[t]
			}
		}
	}
	if !(size > 0) {
		return 0
	}
	return cut / size
}

// splitDelta is the change of the k-way cut (normalized when byVolume,
// ratio otherwise) of g when the cluster nodes is replaced by its sides.
func splitDelta(g *graph.Graph, nodes []int, sideA []bool, byVolume bool) float64 {
	return cutTerm(g, nodes, sideA, true, byVolume) + cutTerm(g, nodes, sideA, false, byVolume) - cutTerm(g, nodes, nil, true, byVolume)
}

// minInt returns the smallest of x, math.MaxInt for none. Cost O(len(x)).
func minInt(x []int) int {
	m := math.MaxInt
	for _, v := range x {
		m = min(m, v)
	}
	return m
}
