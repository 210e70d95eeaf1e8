package cluster

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/wording"
)

// This file holds the one rule by which Run handles disconnected graphs for
// the methods that cannot cluster them as they are (issue 19): the methods
// whose operators divide by degrees without regularization (FGPWC, FAST-GE,
// FAST-GE-2.0, CSP, cSC, L1-CSC, ML-/MCL-NOA-SSC, power-law means with the
// normalized-cut kernel), which refuse a node of degree 0, and Spectral
// Learning, whose unnormalized Laplacian spends one eigenvector, hence one
// of its K clusters, on every small component. Such a method declares
// Uses.Core. Beyond the sources:
//
//  1. The core is graph.Core(G, K): the nodes of the connected components
//     that are not too small to be clusters (graph.SmallComponent: fewer
//     than n/(4K) nodes, the same threshold as graph.NeedsRegularization;
//     with K = 0, only isolated nodes). When the graph has no isolated node
//     and no small component, the method runs on the graph as given.
//  2. The method runs on the subgraph induced by the core, with the
//     constraints whose two nodes are in the core, the labels and feature
//     rows of the core nodes, all re-indexed.
//  3. The other nodes are attached by their links (attachRest), in rounds:
//     round 0 holds the core, with the clusters the method gave, and every
//     labelled node, which takes the cluster holding most core nodes of
//     its class. In round r, every node not yet placed that has a
//     must-link or an edge to a node placed in an earlier round is placed:
//     by the total weight of its must-links per cluster when it has one to
//     a placed node, else by the total weight of its edges per cluster; the
//     heaviest cluster wins (ties: the lowest index), among the clusters
//     that hold none of its cannot-link partners placed earlier when one of
//     them has any weight. When no node can be placed, the lowest-numbered
//     node left (one with no path of links to any placed node, an isolated
//     node for example) joins the largest cluster of the core that holds
//     none of its cannot-link partners (the largest cluster when they all
//     do), and the rounds go on from it, so that its small component
//     follows it by its edges.
//
// A warning says how many nodes were attached and how. Problem.Disconnected
// = DisconnectedStrict skips all this: the method receives the whole graph
// and refuses isolated nodes as before.

// Disconnected says what Run does with a graph that has isolated nodes or
// components too small to be clusters, for a method that declares
// Uses.Core (see the comment at the top of core.go).
type Disconnected uint8

const (
	// DisconnectedAttach (the zero value, the default) clusters the core of
	// the graph and attaches the other nodes by their labels, must-links
	// and edges, with a warning.
	DisconnectedAttach Disconnected = iota
	// DisconnectedStrict gives the method the whole graph: the methods
	// built on D^{-1/2} or D^{-1} refuse a node of degree 0 with an error
	// wrapping graph.ErrIsolated, and small components take clusters of
	// their own, as before issue 19.
	DisconnectedStrict
)

// disconnectedNames are the names of the Disconnected values, in order.
var disconnectedNames = []string{"attach", "strict"}

// String returns "attach" or "strict".
func (v Disconnected) String() string {
	return enum.String("Disconnected", disconnectedNames, v)
}

// MarshalText returns the name of v.
func (v Disconnected) MarshalText() ([]byte, error) {
	return enum.Marshal("disconnected-graph rule", disconnectedNames, v)
}

// UnmarshalText sets v from its name ("attach" or "strict"), so that
// Disconnected works as a command-line value and in JSON.
func (v *Disconnected) UnmarshalText(b []byte) error {
	return parseEnum(v, "disconnected-graph rule", disconnectedNames, b)
}

// WholeGraph reports whether Run gives p's graph as it is to a method
// that declares Uses.Core: when p.Disconnected is DisconnectedStrict, or
// when the graph has no isolated node and no component too small to be a
// cluster (graph.Core). Otherwise such a method clusters the core and the
// other nodes are attached (see Run), so a basis or state computed
// on the whole graph does not serve it. Cost O(n + nnz).
func (p *Problem) WholeGraph() bool {
	return p.Disconnected == DisconnectedStrict || len(graph.Core(p.Graph, p.K)) == p.Graph.N()
}

// coreHook replaces m.Partition in partitionCore for FGPWCState.Cluster,
// whose state holds a basis: of the whole graph (core nil), or of the
// subgraph sub induced by the nodes core of the graph it was made for
// (FGPWC.NewStateFor), which must be the core partitionCore finds for the
// problem.
type coreHook struct {
	core      []int
	sub       *graph.Graph
	partition func(ctx context.Context, p *Problem, s *Settings) (*Result, error)
}

// partitionCore calls m.Partition on p, or, when u.Core is set, p's graph
// has isolated nodes or small components and p.Disconnected is
// DisconnectedAttach, on the core of p's graph, and attaches the other
// nodes (an FGPWC with a precomputed Basis, the embedding of the whole
// graph, always gets the whole graph) (see the comment at the top of this
// file). The attached nodes' rows of Result.Embedding are the mean core
// row of their cluster; the other diagnostics (eigenvalues, objective,
// iterations) are the core's. With a hook, hook.partition replaces
// m.Partition, and a hook with a core clusters that core (an error
// wrapping ErrInvalid if it is not the problem's). Cost: O(n + nnz +
// pairs) besides the method on the core.
func partitionCore(ctx context.Context, m Method, u Uses, p *Problem, s *Settings, hook *coreHook) (*Result, error) {
	partition := m.Partition
	if hook != nil {
		partition = hook.partition
	}
	if hook != nil && hook.core != nil {
		return partitionHookCore(ctx, m.Name(), u, p, s, hook)
	}
	if w, ok := m.(interface{ wholeGraph() bool }); !u.Core || p.Disconnected == DisconnectedStrict || p.Graph == nil || ok && w.wholeGraph() {
		return partition(ctx, p, s)
	}
	core := graph.Core(p.Graph, p.K)
	if len(core) == p.Graph.N() {
		return partition(ctx, p, s)
	}
	sub, err := restrictProblem(p, core, nil)
	if err != nil {
		return nil, fmt.Errorf("cluster: %s: core of the graph: %w", m.Name(), err)
	}
	return attachToCore(ctx, m.Name(), u, p, core, sub, s, partition)
}

// partitionHookCore is partitionCore for a hook bound to a core: it
// checks that the problem asks for that core (attach, and the same core of
// the same graph for its k) and clusters it on the hook's subgraph.
func partitionHookCore(ctx context.Context, name string, u Uses, p *Problem, s *Settings, hook *coreHook) (*Result, error) {
	if p.Disconnected == DisconnectedStrict {
		return nil, fmt.Errorf("%w: %s: the state clusters the core of its graph, but Problem.Disconnected = strict asks for the whole graph", ErrInvalid, name)
	}
	if core := graph.Core(p.Graph, p.K); !slices.Equal(core, hook.core) {
		return nil, fmt.Errorf("%w: %s: the state clusters a %d-node core of its graph, but the problem's core for k = %d has %d nodes: make a state for this problem", ErrInvalid, name, len(hook.core), p.K, len(core))
	}
	sub, err := restrictProblem(p, hook.core, hook.sub)
	if err != nil {
		return nil, fmt.Errorf("cluster: %s: core of the graph: %w", name, err)
	}
	return attachToCore(ctx, name, u, p, hook.core, sub, s, hook.partition)
}

// attachToCore clusters sub, p restricted to core (restrictProblem), with
// partition, then attaches the nodes of p outside the core (attachRest),
// with the warning that says how. The warning, and the error of a
// partition that fails, name the remedy, Problem.Disconnected = strict,
// with the front end's option (s's Spelling). Cost O(n + nnz + pairs)
// besides partition.
func attachToCore(ctx context.Context, name string, u Uses, p *Problem, core []int, sub *Problem, s *Settings, partition func(context.Context, *Problem, *Settings) (*Result, error)) (*Result, error) {
	g := p.Graph
	n := g.N()
	res, err := partition(ctx, sub, s)
	if err != nil {
		return nil, onCore(name, len(core), n-len(core), "; Problem.Disconnected = strict"+inParens(s.front("disconnected", "strict"))+" gives it the whole graph", err)
	}
	if err := checkResult(name, sub, res); err != nil {
		return nil, err
	}
	if w, _ := noPairs(name, u, sub); w != "" {
		if given, _ := noPairs(name, u, p); given == "" {
			// p's pairs all touch nodes outside the core: the core's
			// partition is unconstrained (Run's warning, noPairs, is
			// for a problem without pairs).
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: no constraints on the %d-node core of the graph: every pair given (or pair of labelled nodes) has a node outside it, so the core's partition is unconstrained", name, len(core)))
		}
	}
	assign := make([]int, n)
	for i := range assign {
		assign[i] = -1
	}
	for a, i := range core {
		assign[i] = res.Labels[a]
	}
	var labels constraint.Labels
	if u.Supervision != None {
		labels = p.Labels
	}
	var cons *constraint.Set
	if u.Supervision&Pairs != 0 {
		cons = p.Constraints
	}
	counts := attachRest(g, cons, labels, assign, res.K)
	res.Labels = assign
	res.Embedding = expandEmbedding(res.Embedding, core, assign, res.K)
	res.Warnings = append(res.Warnings, counts.warning(name, g, core, p.K, s))
	return res, nil
}

// onCore returns err, the error of the method name on the core of a
// graph (core nodes, outside others to be attached; more follows them in
// the parenthesis), as an error of the method that says where it ran:
// "cluster: name: on the 20-node core of the graph (4 nodes outside it,
// to be attached…): …", err's text without the "cluster: name: " it may
// begin with, so that the error starts with the method's name as every
// error of a method does (a cancellation then reads "cluster: name: on
// the … core …: stage: context canceled"). errors.Is and errors.As see
// err. Cost O(len of err's text).
func onCore(name string, core, outside int, more string, err error) error {
	return &pkgError{prefix: fmt.Sprintf("%s: on the %d-node core of the graph (%d nodes outside it, to be attached%s): ", name, core, outside, more), err: err, drop: name + ": "}
}

// restrictProblem returns p restricted to the nodes core (ascending):
// the induced subgraph (sg when not nil, which must be it), the
// constraints with both nodes in core, the labels and feature rows of
// core, re-indexed. A bipartite matrix is dropped (the methods with
// Uses.Core cluster the graph). Cost O(n + nnz + pairs + |core|·d), O(n +
// pairs + |core|·d) with sg.
func restrictProblem(p *Problem, core []int, sg *graph.Graph) (*Problem, error) {
	n := p.Graph.N()
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	for a, i := range core {
		pos[i] = a
	}
	if sg == nil {
		var err error
		if sg, err = p.Graph.Subgraph(core); err != nil {
			return nil, err
		}
	}
	sp := *p
	sp.Graph = sg
	sp.Bipartite = nil
	if p.Constraints != nil {
		set := &constraint.Set{N: len(core)}
		for _, q := range p.Constraints.Pairs {
			if a, b := pos[q.I], pos[q.J]; a >= 0 && b >= 0 {
				q.I, q.J = a, b
				set.Pairs = append(set.Pairs, q)
			}
		}
		sp.Constraints = set
	}
	if p.Labels != nil {
		sp.Labels = make(constraint.Labels, len(core))
		for a, i := range core {
			sp.Labels[a] = p.Labels[i]
		}
	}
	if p.Features != nil {
		_, d := p.Features.Dims()
		f := mat.NewDense(len(core), d, nil)
		for a, i := range core {
			f.SetRow(a, p.Features.RawRowView(i))
		}
		sp.Features = f
	}
	return &sp, nil
}

// attachCounts counts how attachRest placed the nodes outside the core.
type attachCounts struct {
	label, mustLink, edges, none int
	largest                      int // the largest cluster of the core
	largestSize                  int // its number of core nodes
	conflicts                    int // nodes placed with a cannot-link partner (all their evidence was in such clusters)
}

// attachRest places every node i with assign[i] < 0 in one of the k
// clusters, in place, by the rule of step 3 at the top of this file: the
// labelled nodes by their class, then, in rounds, the nodes linked to
// placed ones by must-links (first) or edges, the heaviest cluster
// winning, and the nodes with no link to a placed node in the largest
// cluster. labels and cons may be nil. Every node of assign that is ≥ 0
// must be in 0…k−1. Cost O(n + nnz + pairs + k·(number of placed nodes)).
func attachRest(g *graph.Graph, cons *constraint.Set, labels constraint.Labels, assign []int, k int) attachCounts {
	n := g.N()
	var c attachCounts
	size := make([]int, k)
	for _, a := range assign {
		if a >= 0 {
			size[a]++
		}
	}
	for a := range size {
		if size[a] > size[c.largest] {
			c.largest = a
		}
	}
	c.largestSize = size[c.largest]
	// Must-links and cannot-links with at least one node to place, both
	// directions.
	type link struct {
		j int
		w float64
	}
	var ml, cl map[int][]link
	if cons != nil {
		ml, cl = map[int][]link{}, map[int][]link{}
		for _, q := range cons.Pairs {
			if assign[q.I] >= 0 && assign[q.J] >= 0 {
				continue
			}
			m := ml
			if q.Kind == constraint.CannotLink {
				m = cl
			}
			m[q.I] = append(m[q.I], link{q.J, q.W()})
			m[q.J] = append(m[q.J], link{q.I, q.W()})
		}
	}
	// Round 0: labelled nodes take the core cluster of their class.
	if labels != nil {
		tally := map[[2]int]int{} // (class, cluster) → core nodes
		for i, a := range assign {
			if a >= 0 && labels[i] != constraint.Unlabeled {
				tally[[2]int{labels[i], a}]++
			}
		}
		classCluster := map[int]int{}
		for key, v := range tally {
			best, ok := classCluster[key[0]]
			if !ok || v > tally[[2]int{key[0], best}] || (v == tally[[2]int{key[0], best}] && key[1] < best) {
				classCluster[key[0]] = key[1]
			}
		}
		for i, a := range assign {
			if a < 0 && labels[i] != constraint.Unlabeled {
				if b, ok := classCluster[labels[i]]; ok {
					assign[i] = b
					c.label++
				}
			}
		}
	}
	score := make([]float64, k)
	forbid := make([]bool, k)
	// decide returns the cluster of node i from the nodes placed before
	// this round (placed[j]), and whether must-links decided.
	placed := make([]bool, n)
	decide := func(i int) (int, bool, bool) {
		for a := range score {
			score[a], forbid[a] = 0, false
		}
		for _, l := range cl[i] {
			if placed[l.j] {
				forbid[assign[l.j]] = true
			}
		}
		byML := false
		for _, l := range ml[i] {
			if placed[l.j] {
				score[assign[l.j]] += l.w
				byML = true
			}
		}
		if !byML {
			idx, w := g.Row(i)
			for t, j := range idx {
				if placed[j] {
					score[assign[j]] += w[t]
				}
			}
		}
		best, bestAny := -1, -1
		for a := 0; a < k; a++ {
			if score[a] <= 0 {
				continue
			}
			if bestAny < 0 || score[a] > score[bestAny] {
				bestAny = a
			}
			if !forbid[a] && (best < 0 || score[a] > score[best]) {
				best = a
			}
		}
		if best < 0 {
			return bestAny, byML, bestAny >= 0
		}
		return best, byML, false
	}
	// neighbours calls f for every node linked to i by an edge or a
	// must-link.
	neighbours := func(i int, f func(int)) {
		idx, _ := g.Row(i)
		for _, j := range idx {
			f(int(j))
		}
		for _, l := range ml[i] {
			f(l.j)
		}
	}
	var frontier, next []int
	queued := make([]bool, n)
	enqueue := func(j int) {
		if assign[j] < 0 && !queued[j] {
			queued[j] = true
			next = append(next, j)
		}
	}
	for i, a := range assign {
		if a >= 0 {
			placed[i] = true
		}
	}
	for i, a := range assign {
		if a < 0 {
			neighbours(i, func(j int) {
				if placed[j] && !queued[i] {
					queued[i] = true
					next = append(next, i)
				}
			})
		}
	}
	scan := 0 // nodes below scan are placed
	type decision struct{ i, a int }
	var round []decision
	for {
		frontier, next = next, frontier[:0]
		if len(frontier) == 0 {
			for scan < n && assign[scan] >= 0 {
				scan++
			}
			if scan == n {
				break
			}
			// Nothing links the nodes left to a placed one: the lowest
			// numbered joins the largest allowed cluster.
			i := scan
			for a := range forbid {
				forbid[a] = false
			}
			for _, l := range cl[i] {
				if placed[l.j] {
					forbid[assign[l.j]] = true
				}
			}
			best := -1
			for a := 0; a < k; a++ {
				if !forbid[a] && (best < 0 || size[a] > size[best]) {
					best = a
				}
			}
			if best < 0 {
				best = c.largest
				c.conflicts++
			}
			assign[i], placed[i] = best, true
			c.none++
			neighbours(i, enqueue)
			continue
		}
		round = round[:0]
		for _, i := range frontier {
			a, byML, conflict := decide(i)
			if a < 0 { // links of weight 0 only: no evidence
				a = c.largest
			}
			round = append(round, decision{i, a})
			if byML {
				c.mustLink++
			} else {
				c.edges++
			}
			if conflict {
				c.conflicts++
			}
		}
		for _, d := range round {
			assign[d.i] = d.a
		}
		for _, d := range round {
			placed[d.i] = true
			queued[d.i] = false
		}
		for _, d := range round {
			neighbours(d.i, enqueue)
		}
	}
	return c
}

// warning describes the attachment for the method name: what was outside
// the core of g for k clusters and how it was placed, and what refuses
// instead, Problem.Disconnected = strict with the front end's option (s's
// Spelling: "(Problem.Disconnected = strict refuses instead; tether:
// -disconnected strict)").
func (c attachCounts) warning(name string, g *graph.Graph, core []int, k int, s *Settings) string {
	n := g.N()
	in := make([]bool, n)
	for _, i := range core {
		in[i] = true
	}
	comp, nc := g.Components()
	size := make([]int, nc)
	for i, cc := range comp {
		if !in[i] {
			size[cc]++
		}
	}
	isolated, small, smallNodes := 0, 0, 0
	for _, s := range size {
		switch {
		case s == 1:
			isolated++
		case s > 1:
			small++
			smallNodes += s
		}
	}
	var what []string
	if isolated > 0 {
		what = append(what, wording.Count(isolated, "isolated node", "isolated nodes"))
	}
	switch {
	case small == 1:
		what = append(what, fmt.Sprintf("1 component of %d nodes", smallNodes))
	case small > 1:
		what = append(what, fmt.Sprintf("%d components of 2–%d nodes (%d nodes)", small, maxOf(size), smallNodes))
	}
	var how []string
	if c.label > 0 {
		how = append(how, fmt.Sprintf("%d by their label", c.label))
	}
	if c.mustLink > 0 {
		how = append(how, fmt.Sprintf("%d by must-links", c.mustLink))
	}
	if c.edges > 0 {
		how = append(how, fmt.Sprintf("%d by the weight of their edges to placed nodes", c.edges))
	}
	if c.none > 0 {
		how = append(how, fmt.Sprintf("%d with no link to a placed node joined the largest cluster allowed by their cannot-links (the largest holds %s)", c.none, wording.Count(c.largestSize, "core node", "core nodes")))
	}
	msg := fmt.Sprintf("%s: the graph has %s outside its %d-node core (components below n/(4k)%s): %s clustered the core and attached the %s: %s",
		name, strings.Join(what, " and "), len(core), kNote(n, k), name, wording.Count(n-len(core), "other node", "other nodes"), strings.Join(how, ", "))
	if c.conflicts > 0 {
		msg += fmt.Sprintf("; %d of them against a cannot-link (every cluster they link to holds a cannot-link partner)", c.conflicts)
	}
	return msg + " " + s.remedy("Problem.Disconnected = strict refuses instead", "disconnected", "strict")
}

// kNote gives the threshold n/(4k), or says that only isolated nodes count
// when k is estimated.
func kNote(n, k int) string {
	if k <= 0 {
		return "; k estimated: isolated nodes only"
	}
	return fmt.Sprintf(" = %.4g", float64(n)/float64(4*k))
}

// maxOf returns the largest entry of s (0 for none).
func maxOf(s []int) int {
	m := 0
	for _, v := range s {
		m = max(m, v)
	}
	return m
}

// expandEmbedding returns the n×m embedding whose core rows are those of
// e (one per core node, in order) and whose other rows are the mean core
// row of their cluster in assign (zero for a cluster without core nodes).
// It returns nil when e is nil or does not have one row per core node.
// Cost O(n·m).
func expandEmbedding(e *mat.Dense, core, assign []int, k int) *mat.Dense {
	if e == nil {
		return nil
	}
	r, m := e.Dims()
	if r != len(core) {
		return nil
	}
	n := len(assign)
	mean := mat.NewDense(max(k, 1), m, nil)
	count := make([]float64, max(k, 1))
	for a, i := range core {
		c := assign[i]
		count[c]++
		row := mean.RawRowView(c)
		for j, v := range e.RawRowView(a) {
			row[j] += v
		}
	}
	for c := range count {
		if count[c] > 0 {
			row := mean.RawRowView(c)
			for j := range row {
				row[j] /= count[c]
			}
		}
	}
	out := mat.NewDense(n, m, nil)
	in := make([]int, n)
	for i := range in {
		in[i] = -1
	}
	for a, i := range core {
		in[i] = a
	}
	for i := 0; i < n; i++ {
		if a := in[i]; a >= 0 {
			out.SetRow(i, e.RawRowView(a))
		} else {
			out.SetRow(i, mean.RawRowView(assign[i]))
		}
	}
	return out
}
