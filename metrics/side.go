package metrics

import (
	"errors"
	"fmt"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// Violations returns the numbers of must-link pairs split by labels and of
// cannot-link pairs kept together (constraint.Violations). A nil set has no
// violations. It returns an error wrapping ErrSize when set.N differs from
// len(labels), and the set's validation error (constraint.ErrInvalid) when a
// pair is malformed. Cost O(number of pairs).
func Violations(set *constraint.Set, labels []int) (ml, cl int, err error) {
	if set == nil {
		return 0, 0, nil
	}
	if set.N != len(labels) {
		return 0, 0, fmt.Errorf("%w: constraints are on %d nodes, partition has %d labels", ErrSize, set.N, len(labels))
	}
	if err := set.Validate(); err != nil {
		return 0, 0, fmt.Errorf("metrics: %w", err)
	}
	ml, cl = constraint.Violations(set, labels)
	return ml, cl, nil
}

// Cuts holds the cut figures of a partition {A_1, …, A_k} on a weighted
// graph with cut(A, Ā) = Σ_{i∈A, j∉A} W_ij and vol(A) = Σ_{i∈A} d_i.
type Cuts struct {
	// Cut is the total weight of the edges between different clusters,
	// ½ Σ_k cut(A_k, Ā_k); each undirected edge counts once.
	Cut float64
	// RatioCut is Σ_k cut(A_k, Ā_k)/|A_k| (thesis eq. 2.3.2).
	RatioCut float64
	// Ncut is Σ_k cut(A_k, Ā_k)/vol(A_k) (thesis eq. 2.3.3; Shi & Malik
	// 2000). A cluster of isolated nodes (vol 0, hence cut 0) adds 0.
	Ncut float64
}

// CutFigures returns the cut, ratio cut and normalized cut of the partition
// labels on g (thesis §2.3, eq. 2.3.2–2.3.3; the k = 2 Ncut is eq. 2.3.7).
// Self loops never cross clusters. Labels are arbitrary ints. It returns an
// error wrapping ErrSize when len(labels) ≠ g.N() and ErrEmpty for an empty
// partition. Cost O(n + nnz(W)).
func CutFigures(g *graph.Graph, labels []int) (Cuts, error) {
	if g == nil {
		return Cuts{}, errors.New("metrics: nil graph")
	}
	if len(labels) != g.N() {
		return Cuts{}, fmt.Errorf("%w: graph has %d nodes, partition has %d labels", ErrSize, g.N(), len(labels))
	}
	if len(labels) == 0 {
		return Cuts{}, fmt.Errorf("%w: no labels", ErrEmpty)
	}
	id, vals := relabel(labels)
	k := len(vals)
	boundary := make([]float64, k)
	vol := make([]float64, k)
	size := make([]int, k)
	for i := range labels {
		ci := id[i]
		size[ci]++
		vol[ci] += g.Degree(i)
		idx, w := g.Row(i)
		for p, j := range idx {
			if id[j] != ci {
				boundary[ci] += w[p]
			}
		}
	}
	var out Cuts
	for c := range k {
		out.Cut += boundary[c]
		out.RatioCut += boundary[c] / float64(size[c])
		if vol[c] > 0 {
			out.Ncut += boundary[c] / vol[c]
		}
	}
	out.Cut /= 2
	return out, nil
}

// Cut returns CutFigures(g, labels).Cut.
func Cut(g *graph.Graph, labels []int) (float64, error) {
	c, err := CutFigures(g, labels)
	return c.Cut, err
}

// RatioCut returns CutFigures(g, labels).RatioCut.
func RatioCut(g *graph.Graph, labels []int) (float64, error) {
	c, err := CutFigures(g, labels)
	return c.RatioCut, err
}

// Ncut returns CutFigures(g, labels).Ncut.
func Ncut(g *graph.Graph, labels []int) (float64, error) {
	c, err := CutFigures(g, labels)
	return c.Ncut, err
}
