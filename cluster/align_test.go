package cluster

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tether-sc/tether/constraint"
)

// agreement counts the labelled nodes of partial whose cluster in labels
// is their class.
func agreement(labels []int, partial constraint.Labels) int {
	a := 0
	for i, c := range partial {
		if c != constraint.Unlabeled && labels[i] == c {
			a++
		}
	}
	return a
}

// permutations calls f with every permutation of 0…k−1.
func permutations(k int, f func(p []int)) {
	p := make([]int, k)
	for i := range p {
		p[i] = i
	}
	var rec func(i int)
	rec = func(i int) {
		if i == k {
			f(p)
			return
		}
		for j := i; j < k; j++ {
			p[i], p[j] = p[j], p[i]
			rec(i + 1)
			p[i], p[j] = p[j], p[i]
		}
	}
	rec(0)
}

// alignToLabels against brute force over every renumbering of the k
// clusters, on random partitions and partial labels (k ≤ 5): the result
// is a renumbering of the same partition, its agreement with the labels
// is the largest of any renumbering, and a partition whose own numbering
// reaches it is left as it is.
func TestAlignToLabelsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 2000; trial++ {
		k := 2 + rng.IntN(4)
		n := 1 + rng.IntN(30)
		labels := make([]int, n)
		partial := make(constraint.Labels, n)
		for i := range labels {
			labels[i] = rng.IntN(k)
			partial[i] = constraint.Unlabeled
			if rng.IntN(3) == 0 {
				partial[i] = rng.IntN(k)
				if rng.IntN(4) > 0 {
					// Mostly right, as the labels of a good partition are:
					// class = cluster under a hidden renumbering.
					partial[i] = (labels[i] + trial) % k
				}
			}
		}
		best := 0
		permutations(k, func(p []int) {
			r := make([]int, n)
			for i, a := range labels {
				r[i] = p[a]
			}
			best = max(best, agreement(r, partial))
		})
		got := slices.Clone(labels)
		alignToLabels(got, k, partial)
		// The same partition: one number per old cluster, distinct.
		to := map[int]int{}
		from := map[int]int{}
		for i, a := range labels {
			if b, ok := to[a]; ok && b != got[i] {
				t.Fatalf("trial %d: cluster %d split into %d and %d", trial, a, b, got[i])
			}
			if b, ok := from[got[i]]; ok && b != a {
				t.Fatalf("trial %d: clusters %d and %d merged into %d", trial, a, b, got[i])
			}
			if got[i] < 0 || got[i] >= k {
				t.Fatalf("trial %d: cluster number %d outside 0…%d", trial, got[i], k-1)
			}
			to[a], from[got[i]] = got[i], a
		}
		if a := agreement(got, partial); a != best {
			t.Fatalf("trial %d (k = %d): agreement %d, the best renumbering reaches %d\nlabels %v\npartial %v\ngot %v", trial, k, a, best, labels, partial, got)
		}
		if agreement(labels, partial) == best && !slices.Equal(got, labels) {
			t.Fatalf("trial %d: the numbering reaches the best agreement %d, yet was changed\nlabels %v\npartial %v\ngot %v", trial, best, labels, partial, got)
		}
	}
}

func TestAlignToLabelsCases(t *testing.T) {
	u := constraint.Unlabeled
	for _, tc := range []struct {
		name    string
		labels  []int
		k       int
		partial constraint.Labels
		want    []int
	}{
		{"swap", []int{0, 0, 1, 1}, 2, constraint.Labels{1, u, 0, u}, []int{1, 1, 0, 0}},
		{"no labelled node", []int{0, 0, 1, 1}, 2, constraint.Labels{u, u, u, u}, []int{0, 0, 1, 1}},
		{"nil labels", []int{0, 1}, 2, nil, []int{0, 1}},
		{"k = 1", []int{0, 0}, 1, constraint.Labels{0, u}, []int{0, 0}},
		// Clusters 0 and 2 hold class 2 and class 0: swapped; cluster 1
		// holds no labelled node and keeps its number.
		{"unlabelled cluster keeps its number", []int{0, 1, 2, 0, 1, 2}, 3, constraint.Labels{2, u, 0, u, u, u}, []int{2, 1, 0, 2, 1, 0}},
		// Cluster 0 holds class 1, so cluster 1 (no labelled node) takes
		// the number left, 0.
		{"unlabelled cluster takes the number left", []int{0, 1, 2, 0}, 3, constraint.Labels{1, u, 2, u}, []int{1, 0, 2, 1}},
		// The majority decides: cluster 0 holds two nodes of class 1 and
		// one of class 0.
		{"majority", []int{0, 0, 0, 1, 1}, 2, constraint.Labels{1, 1, 0, u, 0}, []int{1, 1, 1, 0, 0}},
		// A class outside 0…k−1 (k estimated below the classes) is ignored.
		{"class ≥ k ignored", []int{0, 1}, 2, constraint.Labels{5, 0}, []int{1, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := slices.Clone(tc.labels)
			alignToLabels(got, tc.k, tc.partial)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// Run numbers every method's clusters by the classes of the partial
// labels: on two cliques with one labelled node each (class 1 in the
// first clique), every method that finds the cliques puts the first in
// cluster 1, whatever its own numbering.
func TestRunNumbersClustersByLabels(t *testing.T) {
	base := badInputBase(t)
	for _, info := range Methods() {
		m := info.New()
		u := m.Uses()
		p := badInputFor(base, u)
		p.Constraints = nil
		p.Labels = badLabels(1, 1, 6, 0)
		if u.Supervision&Pairs != 0 {
			p.Constraints = badPairs(mlPair(0, 2), mlPair(5, 7), clPair(3, 4))
		}
		if u.Input&BipartiteInput != 0 {
			continue // its nodes are rows and columns, not the two cliques
		}
		res, err := Run(context.Background(), m, p, &Settings{Seed: 1})
		if err != nil {
			t.Errorf("%s: %v", info.Name, err)
			continue
		}
		cliques := slices.Equal(res.Labels[:4], []int{res.Labels[0], res.Labels[0], res.Labels[0], res.Labels[0]}) &&
			slices.Equal(res.Labels[4:], []int{res.Labels[4], res.Labels[4], res.Labels[4], res.Labels[4]}) && res.Labels[0] != res.Labels[4]
		if !cliques {
			t.Logf("%s: the cliques are not its clusters (%v); skipped", info.Name, res.Labels)
			continue
		}
		if res.Labels[0] != 1 || res.Labels[4] != 0 {
			t.Errorf("%s: labels %v, want the first clique (node 1 labelled 1) in cluster 1", info.Name, res.Labels)
		}
	}
}
