package graph

import (
	"fmt"
	"math"
)

// Stats summarizes a graph for reports: size, connectivity and degrees.
type Stats struct {
	// N is the number of nodes.
	N int
	// Edges counts the undirected edges {i,j} with i ≠ j.
	Edges int
	// SelfLoops counts the nodes with a self loop.
	SelfLoops int
	// Components is the number of connected components (isolated nodes
	// included) and LargestComponent the size of the largest one.
	Components, LargestComponent int
	// Isolated lists the nodes of degree 0 in increasing order; a node with
	// only a self loop is not isolated.
	Isolated []int
	// MinDegree, MaxDegree and MeanDegree summarize the weighted degrees
	// d_i = Σ_j W_ij (0 for an empty graph).
	MinDegree, MaxDegree, MeanDegree float64
	// MeanNeighbors is the mean number of neighbours j ≠ i of a node.
	MeanNeighbors float64
}

// Stats returns the summary of g. Cost O(n + nnz).
func (g *Graph) Stats() Stats {
	s := Stats{N: g.n, Isolated: g.Isolated()}
	for i := 0; i < g.n; i++ {
		idx, _ := g.Row(i)
		for _, j := range idx {
			if int(j) == i {
				s.SelfLoops++
			}
		}
	}
	s.Edges = (g.NNZ() - s.SelfLoops) / 2
	comp, count := g.Components()
	s.Components = count
	size := make([]int, count)
	for _, c := range comp {
		size[c]++
		s.LargestComponent = max(s.LargestComponent, size[c])
	}
	if g.n > 0 {
		s.MinDegree = math.Inf(1)
		var sum float64
		for _, d := range g.deg {
			s.MinDegree = min(s.MinDegree, d)
			s.MaxDegree = max(s.MaxDegree, d)
			sum += d
		}
		s.MeanDegree = sum / float64(g.n)
		s.MeanNeighbors = float64(2*s.Edges) / float64(g.n)
	}
	return s
}

// String formats the summary on one line, e.g. "n=150 edges=1024
// self-loops=0 components=1 (largest 150) isolated=0 degree min/mean/max
// 3.1/6.8/9.9".
func (s Stats) String() string {
	return fmt.Sprintf("n=%d edges=%d self-loops=%d components=%d (largest %d) isolated=%d degree min/mean/max %.4g/%.4g/%.4g",
		s.N, s.Edges, s.SelfLoops, s.Components, s.LargestComponent, len(s.Isolated), s.MinDegree, s.MeanDegree, s.MaxDegree)
}
