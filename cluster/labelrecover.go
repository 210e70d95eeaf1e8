package cluster

import (
	"context"
	"fmt"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/metrics"
)

// This file holds how the label methods (labelprop, noa-ssc and the
// methods built on it, mavro-k) degrade gracefully instead of refusing
// when the partial labels leave gaps (issue 19): a class 0…K−1 with no
// labelled node, or a part of the graph that labels cannot reach. Their
// Strict knob restores the refusal.
//
// The recovery (recoverLabels), beyond the sources:
//  1. The method runs on the supervised part only: the subgraph of the
//     nodes labels can reach (for labelprop, the connected components
//     holding a labelled node; for the rank-one methods, every node of
//     non-zero degree), with the classes that have a labelled node,
//     renumbered. With one such class every supervised node gets it.
//  2. NJW (defaults, its own seed stream) partitions the non-isolated
//     nodes of the whole graph into K clusters.
//  3. The clusters are matched one-to-one to the K classes by the Hungarian
//     method, maximizing the agreement of the clusters with the classes:
//     a labelled node counts n (its own label), another supervised node 1
//     (step 1's answer), so the labels decide and step 1 breaks ties.
//     Classes with no labelled node have no such node, so they take the
//     clusters the labelled classes explain least.
//  4. A node keeps its label if labelled. Otherwise, a node of a cluster
//     matched to a class with no labelled node gets that class; another
//     supervised node keeps step 1's class; an unsupervised node gets the
//     class matched to its cluster. An isolated node (no edge: nothing
//     says where it belongs) gets the class of most supervised nodes.
//
// Every gap and what was done with it is a warning in Result.Warnings.

// labelGaps is what recoverLabels needs to know about the labels of a
// problem: the classes without a labelled node and the nodes the method
// can reach.
type labelGaps struct {
	missing    []int  // classes with no labelled node, ascending
	supervised []bool // node reachable by the labels
	nUnsup     int    // number of nodes not supervised
	nComp      int    // connected components without a labelled node (byComponent)
}

// findLabelGaps returns the gaps of labels (k classes) on g. With
// byComponent a node is supervised when its connected component holds a
// labelled node (labelprop); otherwise when it is labelled or has an edge
// (the rank-one methods, which fail only on isolated nodes). Cost O(n + nnz).
func findLabelGaps(g *graph.Graph, labels constraint.Labels, k int, byComponent bool) labelGaps {
	n := g.N()
	var gaps labelGaps
	has := make([]bool, k)
	for _, c := range labels {
		if c != constraint.Unlabeled {
			has[c] = true
		}
	}
	for c, ok := range has {
		if !ok {
			gaps.missing = append(gaps.missing, c)
		}
	}
	gaps.supervised = make([]bool, n)
	if byComponent {
		comp, nc := g.Components()
		reached := make([]bool, nc)
		for i, c := range labels {
			if c != constraint.Unlabeled {
				reached[comp[i]] = true
			}
		}
		for i := range gaps.supervised {
			gaps.supervised[i] = reached[comp[i]]
		}
		for _, ok := range reached {
			if !ok {
				gaps.nComp++
			}
		}
	} else {
		for i := range gaps.supervised {
			idx, _ := g.Row(i)
			gaps.supervised[i] = labels[i] != constraint.Unlabeled || len(idx) > 0
		}
	}
	for _, ok := range gaps.supervised {
		if !ok {
			gaps.nUnsup++
		}
	}
	return gaps
}

// none reports that the labels leave no gap.
func (g labelGaps) none() bool { return len(g.missing) == 0 && g.nUnsup == 0 }

// recoverLabels is the graceful mode of the label method name (see the
// comment at the top of this file). run is the strict method: it is called
// on the supervised part, a problem with every class labelled and every
// node reachable, or on p itself when there is no gap; minK is the
// smallest k run accepts (a supervised part with fewer classes is given
// the one class, or, with 1 < classes < minK, solved by NJW alone).
// Cost: that of run on the supervised part, plus one NJW on the graph and
// an O(K³) matching.
func recoverLabels(ctx context.Context, name string, p *Problem, s *Settings, byComponent bool, minK int, run func(context.Context, *Problem, *Settings) (*Result, error)) (*Result, error) {
	if p.Labels == nil || len(p.Labels.Labeled()) == 0 {
		// Nothing to recover from: the strict method reports it.
		return run(ctx, p, s)
	}
	g, k := p.Graph, p.K
	gaps := findLabelGaps(g, p.Labels, k, byComponent)
	if gaps.none() {
		return run(ctx, p, s)
	}
	n := g.N()
	// Step 1: the method on the supervised part.
	var sub []int
	for i, ok := range gaps.supervised {
		if ok {
			sub = append(sub, i)
		}
	}
	isMissing := make([]bool, k)
	for _, c := range gaps.missing {
		isMissing[c] = true
	}
	present := make([]int, 0, k) // renumbered class → class
	index := make([]int, k)      // class → renumbered class
	for c := 0; c < k; c++ {
		if !isMissing[c] {
			index[c] = len(present)
			present = append(present, c)
		}
	}
	pred := make([]int, n) // step 1's class of the supervised nodes
	for i := range pred {
		pred[i] = -1
	}
	var res *Result
	var warnings []string
	switch kp := len(present); {
	case kp == 1:
		for _, i := range sub {
			pred[i] = present[0]
		}
	case kp < minK:
		// Too few classes for the method: the matching below labels the
		// clusters from the labelled nodes alone.
		for i, c := range p.Labels {
			if c != constraint.Unlabeled {
				pred[i] = c
			}
		}
		warnings = append(warnings, fmt.Sprintf("%s: only %s labelled nodes (it needs %d): the partition is NJW's, its clusters named by the labels", name, wording.Count(kp, "class has", "classes have"), minK))
	default:
		sp := &Problem{Graph: g, K: kp, Labels: make(constraint.Labels, len(sub))}
		if len(sub) < n {
			sg, err := g.Subgraph(sub)
			if err != nil {
				return nil, fmt.Errorf("cluster: %s: supervised part: %w", name, err)
			}
			sp.Graph = sg
		}
		for a, i := range sub {
			sp.Labels[a] = constraint.Unlabeled
			if c := p.Labels[i]; c != constraint.Unlabeled {
				sp.Labels[a] = index[c]
			}
		}
		r, err := run(ctx, sp, s)
		if err != nil {
			return nil, cancelledIn(name, "supervised part", err)
		}
		res = r
		for a, i := range sub {
			pred[i] = present[r.Labels[a]]
		}
	}
	// Step 2: NJW on the non-isolated nodes.
	var linked []int
	for i := 0; i < n; i++ {
		if idx, _ := g.Row(i); len(idx) > 0 {
			linked = append(linked, i)
		}
	}
	cl := make([]int, n) // NJW cluster, −1 for isolated nodes
	for i := range cl {
		cl[i] = -1
	}
	if kk := min(k, len(linked)); kk > 0 {
		lg := g
		if len(linked) < n {
			var err error
			if lg, err = g.Subgraph(linked); err != nil {
				return nil, wrapMethod(name, err)
			}
		}
		nr, err := Run(ctx, NJW{}, &Problem{Graph: lg, K: kk}, s.derive(streamLabelRecover))
		if err != nil {
			return nil, fmt.Errorf("cluster: %s: spectral partition for the unlabelled gaps: %w", name, err)
		}
		for a, i := range linked {
			cl[i] = nr.Labels[a]
		}
	}
	// Step 3: match clusters to classes.
	cost := make([][]float64, k)
	for c := range cost {
		cost[c] = make([]float64, k)
	}
	count := make([]int, k) // supervised nodes per class, for isolated nodes
	for i := 0; i < n; i++ {
		if pred[i] >= 0 {
			count[pred[i]]++
			if cl[i] >= 0 {
				cost[cl[i]][pred[i]]--
			}
		}
		if c := p.Labels[i]; c != constraint.Unlabeled && cl[i] >= 0 {
			cost[cl[i]][c] -= float64(n)
		}
	}
	match, _ := metrics.Hungarian(cost) // cluster → class
	largest := 0
	for c := range count {
		if count[c] > count[largest] {
			largest = c
		}
	}
	// Step 4.
	labels := make([]int, n)
	recovered := make([]int, k)
	isolated := 0
	for i := 0; i < n; i++ {
		var c int
		switch {
		case p.Labels[i] != constraint.Unlabeled:
			c = p.Labels[i]
		case cl[i] < 0:
			c = largest
			isolated++
		case isMissing[match[cl[i]]]:
			c = match[cl[i]]
			recovered[c]++
		case pred[i] >= 0:
			c = pred[i]
		default:
			c = match[cl[i]]
		}
		labels[i] = c
	}
	out := &Result{Labels: labels, K: k}
	if res != nil {
		out.Iterations = res.Iterations
		warnings = append(warnings, res.Warnings...)
	}
	for _, c := range gaps.missing {
		warnings = append(warnings, fmt.Sprintf("%s: class %d of k = %d has no labelled node: it is the NJW cluster the labelled classes explain least (%s; Strict refuses instead)", name, c, k, wording.Count(recovered[c], "node", "nodes")))
	}
	if gaps.nUnsup > 0 && byComponent {
		warnings = append(warnings, fmt.Sprintf("%s: %s (%s) %s no labelled node, so the labels cannot reach them: each node takes the class matched to its NJW cluster (Strict refuses instead)", name, wording.Count(gaps.nComp, "connected component", "connected components"), wording.Count(gaps.nUnsup, "node", "nodes"), wording.Form(gaps.nComp, "holds", "hold")))
	}
	if isolated > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: %s no edge to place %s class %d, the largest", name, wording.Count(isolated, "unlabelled isolated node has", "unlabelled isolated nodes have"), wording.Form(isolated, "it: it joins", "them: they join"), largest))
	}
	out.Warnings = warnings
	return out, nil
}
