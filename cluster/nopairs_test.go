package cluster

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// needsPairs are the methods of pairs that have no partition without
// them (Uses.NeedsPairs), written out here so that a declaration that
// changes fails the test: ccsr's objective is empty and csp's constraint
// infeasible without pairs, fast-ge2's pencil needs a cannot-link, and
// sl, ml-noa-ssc and mcl-noa-ssc read nothing else.
var needsPairs = []string{"ccsr", "csp", "fast-ge2", "fast-ge2-bh", "mcl-noa-ssc", "ml-noa-ssc", "sl"}

// TestNoPairsRule runs every registered method that reads pairs
// (Uses.Supervision has Pairs) on a problem with no pair it can use: no
// constraint set, an empty one, and partial labels on one node (which give
// no pair), alone and beside an empty set. An empty set is named as given
// (its pairs may have been left out before Run): the error and the
// warning said "none given" of it before. Before Run's one rule (noPairs) ccsr, csp, fast-ge2 and
// fast-ge2-bh failed with ErrInvalid alone, sl and the noa-sscs with
// ErrNoSupervision, fgpwc and l1csc warned, and sscka, cscap, csc, cosc,
// fast-ge, cpca, clpp, cvqe, cocluster and opplc ran silently. Now the
// methods of needsPairs fail with an error wrapping ErrNoSupervision and
// ErrInvalid (which tether cluster answers as a usage error), and every
// other returns a partition with one warning "name: no constraints: …".
// auto, which delegates, says itself that it returns the unconstrained
// partition, and gets no second warning.
func TestNoPairsRule(t *testing.T) {
	const n = 12
	g := pathGraph(t, n)
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		x.Set(i, 0, float64(i))
		x.Set(i, 1, float64(i%3))
	}
	// 6 documents × 6 terms in two blocks: 12 nodes.
	bip := mat.NewDense(6, 6, nil)
	for i := range 6 {
		for j := range 6 {
			if i/3 == j/3 {
				bip.Set(i, j, 1)
			}
		}
	}
	one := make(constraint.Labels, n)
	for i := range one {
		one[i] = constraint.Unlabeled
	}
	one[3] = 0
	seen := 0
	for _, info := range Methods() {
		m := info.New()
		u := m.Uses()
		if u.Supervision&Pairs == 0 {
			continue
		}
		seen++
		for _, c := range []struct {
			name   string
			cons   *constraint.Set
			labels constraint.Labels
			given  string // the words of the warning on what was given
			errSay string // the words of a NeedsPairs method's error on it
		}{
			{"no set", nil, nil, "none was given", "none given"},
			// A set without pairs may be one whose pairs were all left
			// out before Run (tether cluster -missing drop with every
			// pair on a dropped row): "none given" denied them.
			{"empty set", &constraint.Set{N: n}, nil, "the constraint set given has no pair (an empty one, or one whose pairs were all left out before clustering", "the constraint set given has no pair (an empty one, or one whose pairs were all left out before clustering"},
			{"one labelled node", nil, one, "the one labelled node gives no pair", "the one labelled node gives no pair"},
			{"empty set, one labelled node", &constraint.Set{N: n}, one, "the constraint set given has no pair", "the constraint set given has no pair"},
		} {
			t.Run(info.Name+"/"+c.name, func(t *testing.T) {
				p := &Problem{Graph: g, K: 2, Constraints: c.cons, Labels: c.labels}
				if u.Input&FeatureInput != 0 {
					p.Features = x
					if u.Input&GraphInput == 0 {
						p.Graph = nil
					}
				}
				if u.Input&BipartiteInput != 0 {
					p.Graph, p.Bipartite = nil, bip
				}
				if u.FindsK {
					p.K = 0
				}
				res, err := Run(context.Background(), m, p, &Settings{Seed: 1})
				if slices.Contains(needsPairs, info.Name) {
					if !errors.Is(err, ErrNoSupervision) || !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), "cluster: invalid problem: "+info.Name+" needs pairwise constraints or labels") {
						t.Fatalf("error %v, want one wrapping ErrNoSupervision and ErrInvalid that begins %q", err, "cluster: invalid problem: "+info.Name+" needs pairwise constraints or labels")
					}
					if !strings.Contains(err.Error(), c.errSay) || c.cons != nil && strings.Contains(err.Error(), "none given") {
						t.Fatalf("error %v, want it to say %q", err, c.errSay)
					}
					if c.labels != nil && c.cons != nil && !strings.Contains(err.Error(), "the one labelled node gives no pair") {
						t.Fatalf("error %v, want it to name the one labelled node too", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("error %v, want a partition with a warning", err)
				}
				var got []string
				for _, w := range res.Warnings {
					if strings.Contains(w, "no constraints") {
						got = append(got, w)
					}
				}
				if u.Delegates {
					if len(got) != 0 || !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "the unconstrained partition is returned") }) {
						t.Fatalf("warnings %q, want auto's own about the unconstrained partition and no other", res.Warnings)
					}
					return
				}
				if len(got) != 1 || !strings.HasPrefix(got[0], info.Name+": no constraints: ") || !strings.Contains(got[0], c.given) {
					t.Fatalf("warnings %q, want one beginning %q that says %q", res.Warnings, info.Name+": no constraints: ", c.given)
				}
				if c.cons != nil && strings.Contains(got[0], "none was given") {
					t.Fatalf("warning %q says none was given of a set that was given", got[0])
				}
			})
		}
	}
	// The methods of pairs of the registry when the rule was made: auto,
	// ccsr, clpp, cocluster, cosc, cpca, csc, cscap, csp, cvqe, fast-ge,
	// fast-ge2, fast-ge2-bh, fgpwc, l1csc, mcl-noa-ssc, ml-noa-ssc,
	// opplc, sl, sscka.
	if seen < 20 {
		t.Errorf("%d methods of pairs in the registry, want at least 20", seen)
	}
}

// TestNoPairsNeedsPairsDirect: the methods of needsPairs that Run refuses
// without pairs refuse them, with ErrNoSupervision too, when their
// Partition is called directly (ccsr, csp and fast-ge2 wrapped ErrInvalid
// alone), and fast-ge2 given must-links only (no cannot-link: one
// constraint set) is such a failure as well.
func TestNoPairsNeedsPairsDirect(t *testing.T) {
	g := pathGraph(t, 12)
	onlyML := &constraint.Set{N: 12, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 5, J: 6, Kind: constraint.MustLink}}}
	for _, tc := range []struct {
		name string
		m    Method
		p    *Problem
		want string
	}{
		{"ccsr", CCSR{}, &Problem{Graph: g, K: 2}, "ccsr: no constraints"},
		{"csp", CSP{}, &Problem{Graph: g, K: 2}, "csp: no constraints"},
		{"fast-ge2", FastGE2{}, &Problem{Graph: g, K: 2}, "fast-ge2: no cannot-link"},
		{"fast-ge2 must-links only", FastGE2{}, &Problem{Graph: g, K: 2, Constraints: onlyML}, "fast-ge2: no cannot-link"},
		{"fast-ge2-bh must-links only", FastGE2BH{}, &Problem{Graph: g, K: 2, Constraints: onlyML}, "fast-ge2-bh: no cannot-link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.p.Constraints == nil {
				_, err = tc.m.Partition(context.Background(), tc.p, nil)
			} else {
				_, err = Run(context.Background(), tc.m, tc.p, nil)
			}
			if !errors.Is(err, ErrNoSupervision) || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one wrapping ErrNoSupervision and ErrInvalid that says %q", err, tc.want)
			}
		})
	}
}

// TestNoPairsOnTheCore: a method of pairs given pairs that all touch
// nodes outside the core of the graph (Uses.Core; core.go) clusters the
// core unconstrained, and says so: the 30-node path is the core, the
// component {30, 31} (4·k·2 < 32 nodes: small) is attached, and the one
// must-link joins 30 and 31. fgpwc and l1csc said "no constraints" in
// their own words before Run's rule, csc nothing.
func TestNoPairsOnTheCore(t *testing.T) {
	es := make([]graph.Edge, 0, 30)
	for i := range 29 {
		es = append(es, graph.Edge{I: i, J: i + 1, W: 1})
	}
	es = append(es, graph.Edge{I: 30, J: 31, W: 1})
	g, err := graph.FromEdges(32, es)
	if err != nil {
		t.Fatal(err)
	}
	pairs := &constraint.Set{N: 32, Pairs: []constraint.Pair{{I: 30, J: 31, Kind: constraint.MustLink}}}
	for _, m := range []Method{CSC{}, NewFGPWC(), L1CSC{}} {
		t.Run(m.Name(), func(t *testing.T) {
			res, err := Run(context.Background(), m, &Problem{Graph: g, K: 2, Constraints: pairs}, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			want := m.Name() + ": no constraints on the 30-node core of the graph"
			n := 0
			for _, w := range res.Warnings {
				if strings.Contains(w, "no constraints") {
					n++
					if !strings.HasPrefix(w, want) {
						t.Errorf("warning %q, want it to begin %q", w, want)
					}
				}
			}
			if n != 1 {
				t.Errorf("warnings %q, want one about the core without constraints", res.Warnings)
			}
		})
	}
}

// TestNoPairsDeclarations checks Run's rule on a method that declares
// what it reads (fixedMethod): a method that needs pairs is refused for
// every k but 1, k = 0 (estimated) included, and runs with k = 1, which
// needs no supervision; one that does not need them gets the warning,
// after the method's own none; two labelled nodes are a pair, and an
// unsupervised method gets no word.
func TestNoPairsDeclarations(t *testing.T) {
	g := pathGraph(t, 10)
	two := make(constraint.Labels, 10)
	for i := range two {
		two[i] = constraint.Unlabeled
	}
	two[0], two[9] = 0, 1
	needs := Uses{Supervision: Pairs, NeedsPairs: true, EstimatesK: true}
	reads := Uses{Supervision: Pairs, EstimatesK: true}
	for _, tc := range []struct {
		name   string
		uses   Uses
		k      int
		labels constraint.Labels
		err    bool
		warn   bool
	}{
		{"needs, k = 2", needs, 2, nil, true, false},
		{"needs, k estimated", needs, 0, nil, true, false},
		{"needs, k = 1", needs, 1, nil, false, false},
		{"needs, two labels", needs, 2, two, false, false},
		{"reads, k = 2", reads, 2, nil, false, true},
		{"reads, k estimated", reads, 0, nil, false, true},
		{"reads, two labels", reads, 2, two, false, false},
		{"unsupervised", Uses{EstimatesK: true}, 2, nil, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), fixedMethod{uses: tc.uses}, &Problem{Graph: g, K: tc.k, Labels: tc.labels}, nil)
			if tc.err {
				if !errors.Is(err, ErrNoSupervision) || !errors.Is(err, ErrInvalid) {
					t.Fatalf("error %v, want one wrapping ErrNoSupervision and ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			warned := slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.HasPrefix(w, "fixed: no constraints: ") })
			if warned != tc.warn {
				t.Errorf("warnings %q: the no-constraints warning is %v, want %v", res.Warnings, warned, tc.warn)
			}
		})
	}
}
