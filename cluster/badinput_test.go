package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// badInputBase returns the well-posed problem that the bad-input tables
// spoil one field at a time: two 4-cliques (nodes 0–3 and 4–7) joined by
// a weak edge, k = 2, two must-links and two cannot-links that agree with
// the cliques, nodes 0 and 4 labelled 0 and 1, feature rows that place
// the cliques apart and a 4×4 block-diagonal bipartite matrix (8 nodes).
func badInputBase(t *testing.T) *Problem {
	t.Helper()
	g := bridgedCliques(t, 4, 0.1)
	x := mat.NewDense(8, 2, nil)
	for i := 0; i < 8; i++ {
		x.Set(i, 0, float64(i/4)*5+0.1*float64(i%3))
		x.Set(i, 1, 0.1*float64(i%2))
	}
	b := mat.NewDense(4, 4, nil)
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if (i < 2) == (j < 2) {
				b.Set(i, j, 1)
			}
		}
	}
	return &Problem{Graph: g, K: 2, Features: x, Bipartite: b,
		Constraints: badPairs(mlPair(0, 1), mlPair(4, 5), clPair(0, 4), clPair(1, 5)),
		Labels:      badLabels(0, 0, 4, 1)}
}

func mlPair(i, j int) constraint.Pair {
	return constraint.Pair{I: i, J: j, Kind: constraint.MustLink}
}
func clPair(i, j int) constraint.Pair {
	return constraint.Pair{I: i, J: j, Kind: constraint.CannotLink}
}

// badPairs returns the constraint set of ps on the 8 nodes of badInputBase.
func badPairs(ps ...constraint.Pair) *constraint.Set { return &constraint.Set{N: 8, Pairs: ps} }

// badLabels returns labels of the 8 nodes, node nl[2t] labelled nl[2t+1].
func badLabels(nl ...int) constraint.Labels {
	l := make(constraint.Labels, 8)
	for i := range l {
		l[i] = constraint.Unlabeled
	}
	for t := 0; t+1 < len(nl); t += 2 {
		l[nl[t]] = nl[t+1]
	}
	return l
}

// badInputFor returns a copy of p holding only the input and supervision
// that a method using u reads, so that no case is answered by a warning
// about ignored input rather than by the check under test.
func badInputFor(p *Problem, u Uses) *Problem {
	if p == nil {
		return nil
	}
	q := *p
	if u.Input&BipartiteInput == 0 {
		q.Bipartite = nil
	}
	if u.Input&FeatureInput == 0 {
		q.Features = nil
	}
	if u.Supervision&Pairs == 0 {
		q.Constraints = nil
	}
	if u.Supervision&LabelSet == 0 && u.Supervision&Pairs == 0 {
		q.Labels = nil
	}
	return &q
}

// runBad is Run with a panic turned into an error naming it.
func runBad(m Method, p *Problem, s *Settings) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return Run(context.Background(), m, p, s)
}

// partitionBad is m.Partition, called without Run as a library user may,
// with a panic turned into an error naming it.
func partitionBad(m Method, p *Problem, s *Settings) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return m.Partition(context.Background(), p, s)
}

// entryPoints are the two ways a problem reaches a method: Run, and the
// method's Partition called directly, which checks the problem as Run
// does (partitionArgs) so that it refuses what Run refuses.
var entryPoints = []struct {
	name string
	call func(m Method, p *Problem, s *Settings) (*Result, error)
}{{"Run", runBad}, {"Partition", partitionBad}}

// Every registered method refuses a malformed problem or Settings with an
// error wrapping ErrInvalid, and never panics. Each case spoils one field
// of badInputBase (the side information a method does not read is
// dropped first, so a case on labels reaches the label and pair methods,
// one on features the projection methods, one on the bipartite matrix
// cocluster).
func TestRegistryMethodsRefuseMalformedProblems(t *testing.T) {
	base := badInputBase(t)
	with := func(f func(p *Problem)) *Problem {
		p := *base
		f(&p)
		return &p
	}
	nanX := mat.DenseCopyOf(base.Features)
	nanX.Set(5, 1, math.NaN())
	infX := mat.DenseCopyOf(base.Features)
	infX.Set(2, 0, math.Inf(-1))
	negB := mat.DenseCopyOf(base.Bipartite)
	negB.Set(1, 3, -2)
	nanB := mat.DenseCopyOf(base.Bipartite)
	nanB.Set(0, 0, math.NaN())
	for _, tc := range []struct {
		name string
		p    *Problem
		s    *Settings
		// reads says which methods the case applies to (nil: all).
		reads func(u Uses) bool
	}{
		{"nil problem", nil, nil, nil},
		{"no graph", with(func(p *Problem) { p.Graph = nil }), nil, func(u Uses) bool { return u.Input == 0 || u.Input&GraphInput != 0 }},
		{"k = -1", with(func(p *Problem) { p.K = -1 }), nil, nil},
		{"k = n + 1", with(func(p *Problem) { p.K = 9 }), nil, nil},
		{"k = 0 not estimated", with(func(p *Problem) { p.K = 0 }), nil, func(u Uses) bool { return !u.EstimatesK }},
		{"constraints on 9 nodes", with(func(p *Problem) { p.Constraints = &constraint.Set{N: 9, Pairs: []constraint.Pair{mlPair(0, 1)}} }), nil, readsPairs},
		{"pair node 8 of 8", with(func(p *Problem) { p.Constraints = badPairs(mlPair(0, 1), clPair(3, 8)) }), nil, readsPairs},
		{"pair node -1", with(func(p *Problem) { p.Constraints = badPairs(mlPair(-1, 2)) }), nil, readsPairs},
		{"pair (i, i)", with(func(p *Problem) { p.Constraints = badPairs(clPair(0, 4), mlPair(6, 6)) }), nil, readsPairs},
		{"pair of kind 0", with(func(p *Problem) { p.Constraints = badPairs(constraint.Pair{I: 0, J: 1}) }), nil, readsPairs},
		{"pair weight NaN", with(func(p *Problem) {
			p.Constraints = badPairs(constraint.Pair{I: 0, J: 1, Kind: constraint.MustLink, Weight: math.NaN()})
		}), nil, readsPairs},
		{"pair weight -1", with(func(p *Problem) {
			p.Constraints = badPairs(constraint.Pair{I: 0, J: 4, Kind: constraint.CannotLink, Weight: -1})
		}), nil, readsPairs},
		{"pair weight +Inf", with(func(p *Problem) {
			p.Constraints = badPairs(constraint.Pair{I: 0, J: 4, Kind: constraint.CannotLink, Weight: math.Inf(1)})
		}), nil, readsPairs},
		{"7 labels for 8 nodes", with(func(p *Problem) { p.Labels = badLabels(0, 0)[:7] }), nil, readsLabels},
		{"label = k", with(func(p *Problem) { p.Labels = badLabels(0, 0, 4, 2) }), nil, readsLabels},
		{"label -2", with(func(p *Problem) { p.Labels = badLabels(0, -2, 4, 1) }), nil, readsLabels},
		{"7 feature rows", with(func(p *Problem) { p.Features = mat.NewDense(7, 2, nil) }), nil, readsFeatures},
		{"NaN feature", with(func(p *Problem) { p.Features = nanX }), nil, readsFeatures},
		{"-Inf feature", with(func(p *Problem) { p.Features = infX }), nil, readsFeatures},
		{"bipartite 3×4", with(func(p *Problem) { p.Bipartite = mat.NewDense(3, 4, nil) }), nil, readsBipartite},
		{"negative bipartite entry", with(func(p *Problem) { p.Bipartite = negB }), nil, readsBipartite},
		{"NaN bipartite entry", with(func(p *Problem) { p.Bipartite = nanB }), nil, readsBipartite},
		// A hand-built sparse matrix whose Ptr points past its entries
		// (it panicked in the checks).
		{"malformed sparse bipartite", with(func(p *Problem) {
			p.Bipartite = &dataset.Sparse{Rows: 4, Cols: 4, Ptr: []int{0, 9, 9, 9, 9}, Idx: []int32{0}, Val: []float64{1}}
		}), nil, readsBipartite},
		{"unknown disconnected rule", with(func(p *Problem) { p.Disconnected = 7 }), nil, nil},
		{"regularization τ = -1", with(func(p *Problem) { p.Regularize = graph.Regularization{Mode: graph.RegOn, Tau: -1} }), nil, nil},
		{"Settings.Restarts = -1", base, &Settings{Restarts: -1}, nil},
		{"Settings.Repair unknown", base, &Settings{Repair: Repair(3)}, nil},
		{"eigen tolerance NaN", base, &Settings{EigenSettings: &eigen.Settings{Tol: math.NaN()}}, nil},
		{"eigen MaxIter = -2", base, &Settings{EigenSettings: &eigen.Settings{MaxIter: -2}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, ep := range entryPoints {
				for _, info := range Methods() {
					m := info.New()
					u := m.Uses()
					if tc.reads != nil && !tc.reads(u) {
						continue
					}
					res, err := ep.call(m, badInputFor(tc.p, u), tc.s)
					if !errors.Is(err, ErrInvalid) {
						if err == nil {
							err = fmt.Errorf("no error, labels %v", res.Labels)
						}
						t.Errorf("%s %s: %v; want an error wrapping ErrInvalid", ep.name, info.Name, err)
					}
				}
			}
		})
	}
}

func readsPairs(u Uses) bool     { return u.Supervision&Pairs != 0 }
func readsLabels(u Uses) bool    { return u.Supervision != None }
func readsFeatures(u Uses) bool  { return u.Input&FeatureInput != 0 }
func readsBipartite(u Uses) bool { return u.Input&BipartiteInput != 0 }

// On well-formed but degenerate problems (k = n, a graph of self loops
// only, contradictory, repeated or infeasible constraints, labels of one
// class, constant features, an all-zero bipartite matrix) every registered
// method returns a partition of the n nodes into 0…K−1 with a finite
// objective, eigenvalues and embedding, or an error wrapping ErrInvalid or
// ErrNumerical: never a panic, an unclassified error or a NaN.
func TestRegistryMethodsOnDegenerateProblems(t *testing.T) {
	base := badInputBase(t)
	with := func(f func(p *Problem)) *Problem {
		p := *base
		f(&p)
		return &p
	}
	var loops []graph.Edge
	for i := 0; i < 8; i++ {
		loops = append(loops, graph.Edge{I: i, J: i, W: 1})
	}
	selfOnly, err := graph.FromEdges(8, loops)
	if err != nil {
		t.Fatal(err)
	}
	matching, err := graph.FromEdges(8, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 2, J: 3, W: 1}, {I: 4, J: 5, W: 1}, {I: 6, J: 7, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	constX := mat.NewDense(8, 2, nil)
	for i := 0; i < 8; i++ {
		constX.Set(i, 0, 3)
		constX.Set(i, 1, -1)
	}
	for _, tc := range []struct {
		name string
		p    *Problem
	}{
		{"k = 1", with(func(p *Problem) { p.K = 1 })},
		{"k = n", with(func(p *Problem) { p.K = 8 })},
		{"k = n - 1", with(func(p *Problem) { p.K = 7 })},
		{"self loops only", with(func(p *Problem) { p.Graph = selfOnly })},
		{"must-link and cannot-link on one pair", with(func(p *Problem) { p.Constraints = badPairs(mlPair(0, 1), clPair(1, 0), mlPair(4, 5)) })},
		{"repeated pairs", with(func(p *Problem) {
			p.Constraints = badPairs(mlPair(0, 1), mlPair(1, 0), mlPair(0, 1), clPair(0, 4), clPair(4, 0))
		})},
		{"cannot-links on every edge", with(func(p *Problem) {
			p.Graph = matching
			p.Constraints = badPairs(clPair(0, 1), clPair(2, 3), clPair(4, 5), clPair(6, 7))
		})},
		{"cannot-link triangle, k = 2", with(func(p *Problem) { p.Constraints = badPairs(clPair(0, 1), clPair(1, 2), clPair(0, 2)) })},
		{"must-links join every node", with(func(p *Problem) {
			p.Constraints = badPairs(mlPair(0, 1), mlPair(1, 2), mlPair(2, 3), mlPair(3, 4), mlPair(4, 5), mlPair(5, 6), mlPair(6, 7))
		})},
		{"labels of one class", with(func(p *Problem) { p.Labels = badLabels(0, 0, 4, 0) })},
		{"every node labelled", with(func(p *Problem) { p.Labels = badLabels(0, 0, 1, 0, 2, 0, 3, 0, 4, 1, 5, 1, 6, 1, 7, 1) })},
		{"constant features", with(func(p *Problem) { p.Features = constX })},
		{"zero features", with(func(p *Problem) { p.Features = mat.NewDense(8, 2, nil) })},
		{"zero bipartite matrix", with(func(p *Problem) { p.Bipartite = mat.NewDense(4, 4, nil) })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, ep := range entryPoints {
				for _, info := range Methods() {
					m := info.New()
					res, err := ep.call(m, badInputFor(tc.p, m.Uses()), &Settings{Seed: 1})
					switch {
					// Partition does not apply Run's core rule or its
					// classification of graph.ErrIsolated (isolatedInvalid).
					case err != nil && !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrNumerical) &&
						(ep.name == "Run" || !errors.Is(err, graph.ErrIsolated)):
						t.Errorf("%s %s: unclassified error %v", ep.name, info.Name, err)
					case err == nil:
						if msg := badResult(res, 8); msg != "" {
							t.Errorf("%s %s: %s", ep.name, info.Name, msg)
						}
					}
				}
			}
		})
	}
}

// badResult describes what is wrong with res as a partition of n nodes
// (labels, K, a non-finite objective, eigenvalue or embedding entry), or
// returns "".
func badResult(res *Result, n int) string {
	if len(res.Labels) != n {
		return fmt.Sprintf("%d labels for %d nodes", len(res.Labels), n)
	}
	for i, c := range res.Labels {
		if c < 0 || c >= res.K {
			return fmt.Sprintf("node %d in cluster %d of %d", i, c, res.K)
		}
	}
	if math.IsNaN(res.Objective) || math.IsInf(res.Objective, 0) {
		return fmt.Sprintf("objective %v", res.Objective)
	}
	for i, v := range res.Eigenvalues {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Sprintf("eigenvalue %d = %v", i, v)
		}
	}
	if res.Embedding != nil {
		if err := finiteRows(res.Embedding); err != nil {
			return "embedding " + err.Error()
		}
	}
	return ""
}
