// Package testgraph holds graph fixtures shared by the tests of several
// packages, so that each is written once.
package testgraph

import (
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// LabelledCirculant returns the circulant graph on n nodes with unit edges
// (i, i+1) and (i, i+stride) mod n, and partial labels giving every
// every-th node a class of its own (node i: class i/every), the rest
// unlabelled: ⌈n/every⌉ classes, for the tests of label propagation's
// memory (its n×K blocks grow with the classes). It fails t when the
// graph cannot be built (n < 1, say). Cost O(n).
func LabelledCirculant(t testing.TB, n, stride, every int) (*graph.Graph, constraint.Labels) {
	t.Helper()
	var edges []graph.Edge
	for i := range n {
		edges = append(edges, graph.Edge{I: i, J: (i + 1) % n, W: 1}, graph.Edge{I: i, J: (i + stride) % n, W: 1})
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	labels := make(constraint.Labels, n)
	for i := range labels {
		labels[i] = constraint.Unlabeled
		if i%every == 0 {
			labels[i] = i / every
		}
	}
	return g, labels
}
