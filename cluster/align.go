package cluster

import (
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/metrics"
)

// alignToLabels renumbers the k clusters of labels (in 0…k−1), in place,
// so that cluster c holds as many of the nodes that partial labels put in
// class c as any numbering can: a maximum matching of the clusters to
// the classes, weighted by the number of labelled nodes they share
// (Hungarian on the clusters and classes that hold labelled nodes). Among
// the matchings that reach the maximum it prefers those that keep the
// matched clusters at their own number, so a partition whose numbering
// already reaches it (labelprop's, say) is unchanged; a cluster matched
// to no class keeps its number when no matched cluster took it, and takes
// the smallest number left otherwise. Clusters without labelled nodes
// take no part in the matching, so another numbering as good on the
// labels may keep more numbers (k = 3, labels [1 1 0 1], classes
// [0 − − 2] gives [0 0 1 0]: cluster 1 takes class 0, and cluster 0,
// unlabelled, takes the smallest number left, 1, where [2 2 0 2],
// cluster 1 taking class 2, as good, keeps cluster 0's number). It changes nothing when partial holds
// no labelled node or has another length, and ignores a class outside
// 0…k−1. Cost O(n + r·c·min(r, c)) for the r clusters and c classes that
// hold labelled nodes.
func alignToLabels(labels []int, k int, partial constraint.Labels) {
	if len(partial) != len(labels) || k < 2 {
		return
	}
	// Count the labelled nodes of each (cluster, class) cell.
	count := map[[2]int]int{}
	var rows, cols []int // clusters and classes holding labelled nodes, ascending
	rowAt, colAt := make([]int, k), make([]int, k)
	for i := range rowAt {
		rowAt[i], colAt[i] = -1, -1
	}
	total := 0
	for i, c := range partial {
		a := labels[i]
		if c < 0 || c >= k || a < 0 || a >= k {
			continue
		}
		count[[2]int{a, c}]++
		rowAt[a], colAt[c] = 0, 0
		total++
	}
	if total == 0 {
		return
	}
	for a := 0; a < k; a++ {
		if rowAt[a] == 0 {
			rowAt[a] = len(rows)
			rows = append(rows, a)
		}
		if colAt[a] == 0 {
			colAt[a] = len(cols)
			cols = append(cols, a)
		}
	}
	// Minimize −(shared labelled nodes)·(total+1) − [cluster = class]: the
	// shared count decides, keeping a number breaks ties (one kept number
	// is worth less than one labelled node).
	cost := make([][]float64, len(rows))
	for r, a := range rows {
		cost[r] = make([]float64, len(cols))
		for q, c := range cols {
			cost[r][q] = -float64(count[[2]int{a, c}]) * float64(total+1)
			if a == c {
				cost[r][q]--
			}
		}
	}
	assign, _ := metrics.Hungarian(cost)
	to := make([]int, k)
	used := make([]bool, k)
	for a := range to {
		to[a] = -1
	}
	for r, q := range assign {
		// A pair that shares no labelled node is no reason to move a
		// cluster: leave it to keep its number.
		if q >= 0 && count[[2]int{rows[r], cols[q]}] > 0 {
			to[rows[r]] = cols[q]
			used[cols[q]] = true
		}
	}
	for a := range to {
		if to[a] < 0 && !used[a] {
			to[a] = a
			used[a] = true
		}
	}
	free := 0
	for a := range to {
		if to[a] >= 0 {
			continue
		}
		for used[free] {
			free++
		}
		to[a] = free
		used[free] = true
	}
	for i, a := range labels {
		labels[i] = to[a]
	}
}
