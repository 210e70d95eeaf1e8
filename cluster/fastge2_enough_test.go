package cluster

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// This file checks how much supervision FAST-GE-2.0 needs (FastGE2's doc):
// with t nodes with a cannot-link, rank L_H = t − 1 and the pencil
// (L_N, L_H) has t − 1 finite eigenvalues (seed 004 Theorem 4.2.3(a)), so
// k clusters need t ≥ k + 1, and one label per class is one too few.

// fge2PairsDenseLH builds L_H of seed 004 eq. 4.5–4.7 from cannot-link
// pairs entry by entry (each pair (i, j) puts w d_i d_j in A_C and A_Cᵀ),
// independently of buildFastGE2 and cannotLinkNodes.
func fge2PairsDenseLH(g *graph.Graph, pairs [][2]int) *mat.Dense {
	n := g.N()
	d := g.Degrees()
	dmin, dmax := math.Inf(1), 0.0
	for _, v := range d {
		dmin, dmax = math.Min(dmin, v), math.Max(dmax, v)
	}
	acc := mat.NewDense(n, n, nil)
	for _, q := range pairs {
		v := d[q[0]] * d[q[1]] / (dmin * dmax)
		acc.Set(q[0], q[1], acc.At(q[0], q[1])+v)
		acc.Set(q[1], q[0], acc.At(q[1], q[0])+v)
	}
	return pwLaplacianDense(fge2DemandDense(acc))
}

// TestFastGE2FiniteEigenvalueCount checks the count FastGE2's limit rests
// on: the finite eigenvalues of (L_N, L_H), computed densely by
// finitePencilDense (Cholesky reduction on 1⊥, no library pencil code)
// from matrices built entry by entry (fastGE2Dense, fge2PairsDenseLH), are
// t − 1 for the t nodes cannotLinkNodes counts.
func TestFastGE2FiniteEigenvalueCount(t *testing.T) {
	g := pwRandomGraph(t, 9, 12, 3)
	cases := []struct {
		name   string
		labels []int    // nil: pairs only
		pairs  [][2]int // cannot-links
		want   int      // finite eigenvalues: t − 1, t counted by hand
	}{
		{"one label per class, 2 classes", []int{0, -1, -1, 1, -1, -1, -1, -1, -1}, nil, 1},
		{"one label per class, 3 classes", []int{0, -1, -1, 1, -1, -1, 2, -1, -1}, nil, 2},
		{"3 labels, 2 classes", []int{0, 0, -1, 1, -1, -1, -1, -1, -1}, nil, 2},
		{"4 labels, 3 classes", []int{0, -1, -1, 1, -1, -1, 2, 2, -1}, nil, 3},
		{"6 labels, 2 classes", []int{0, 0, 0, 1, 1, 1, -1, -1, -1}, nil, 5},
		{"1 cannot-link", nil, [][2]int{{0, 3}}, 1},
		{"2 disjoint cannot-links", nil, [][2]int{{0, 3}, {1, 4}}, 3},
		{"2 cannot-links sharing a node", nil, [][2]int{{0, 3}, {0, 4}}, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var lh *mat.Dense
			ln := pwLaplacianDense(mat.DenseCopyOf(g.Dense()))
			var pairs []constraint.Pair
			if tc.labels != nil {
				an, ah := fastGE2Dense(g, tc.labels)
				ln, lh = pwLaplacianDense(an), pwLaplacianDense(ah)
			} else {
				lh = fge2PairsDenseLH(g, tc.pairs)
				for _, q := range tc.pairs {
					pairs = append(pairs, constraint.Pair{I: q[0], J: q[1], Kind: constraint.CannotLink})
				}
			}
			if got := len(finitePencilDense(t, ln, lh)); got != tc.want {
				t.Errorf("finite eigenvalues: %d, want %d", got, tc.want)
			}
			if tt, _, _, _ := cannotLinkNodes(g.N(), tc.labels, pairs); tt-1 != tc.want {
				t.Errorf("cannotLinkNodes: t = %d, want %d", tt, tc.want+1)
			}
		})
	}
}

// TestFastGE2TooLittleSupervision: too few nodes with a cannot-link for k
// is an error wrapping ErrInvalid that says what is missing and names
// methods that work, before any eigensolve; k + 1 such nodes succeed and
// recover the blobs. The Bethe variants that replace L_H have no limit.
func TestFastGE2TooLittleSupervision(t *testing.T) {
	// Tight, well separated blobs (std 0.05): every method that runs
	// recovers them. Labels and pairs are placed by the blob of each node.
	g2, truth2 := pwBlobGraph(t, 6, 2, 0.05, 1)
	g3, truth3 := pwBlobGraph(t, 9, 3, 0.05, 1)
	labelFirst := func(truth []int, per map[int]int) []int {
		l := make([]int, len(truth))
		for i := range l {
			l[i] = -1
		}
		for i, c := range truth {
			if per[c] > 0 {
				l[i] = c
				per[c]--
			}
		}
		return l
	}
	firstOf := func(truth []int, c, skip int) int {
		for i, v := range truth {
			if v == c {
				if skip == 0 {
					return i
				}
				skip--
			}
		}
		return -1
	}
	cl := func(truth []int, pairs ...[4]int) *constraint.Set {
		s := &constraint.Set{N: len(truth)}
		for _, q := range pairs {
			s.Pairs = append(s.Pairs, constraint.Pair{I: firstOf(truth, q[0], q[1]), J: firstOf(truth, q[2], q[3]), Kind: constraint.CannotLink})
		}
		return s
	}
	cases := []struct {
		name string
		m    Method
		p    *Problem
		want []string // nil: success
	}{
		{"fast-ge2 one label per class k=2", FastGE2{}, &Problem{Graph: g2, K: 2, Labels: labelFirst(truth2, map[int]int{0: 1, 1: 1})},
			[]string{"fast-ge2: too little supervision for k = 2", "labels on at least k + 1 = 3 nodes", "got 2 (2 classes)", "label 1 more node", "labelprop, noa-ssc"}},
		{"fast-ge2 3 labels k=2", FastGE2{}, &Problem{Graph: g2, K: 2, Labels: labelFirst(truth2, map[int]int{0: 2, 1: 1})}, nil},
		{"fast-ge2 one label per class k=3", FastGE2{}, &Problem{Graph: g3, K: 3, Labels: labelFirst(truth3, map[int]int{0: 1, 1: 1, 2: 1})},
			[]string{"k = 3", "at least k + 1 = 4 nodes", "got 3 (3 classes)", "2 here"}},
		{"fast-ge2 4 labels k=3", FastGE2{}, &Problem{Graph: g3, K: 3, Labels: labelFirst(truth3, map[int]int{0: 1, 1: 1, 2: 2})}, nil},
		{"fast-ge2 1 cannot-link k=2", FastGE2{}, &Problem{Graph: g2, K: 2, Constraints: cl(truth2, [4]int{0, 0, 1, 0})},
			[]string{"cannot-links on at least k + 1 = 3 distinct nodes", "got 2 (1 cannot-link pair)", "fast-ge"}},
		{"fast-ge2 2 cannot-links k=2", FastGE2{}, &Problem{Graph: g2, K: 2, Constraints: cl(truth2, [4]int{0, 0, 1, 0}, [4]int{0, 1, 1, 1})}, nil},
		{"fast-ge2-bh LN one label per class", FastGE2BH{Variant: BetheLN}, &Problem{Graph: g2, K: 2, Labels: labelFirst(truth2, map[int]int{0: 1, 1: 1})},
			[]string{"fast-ge2-bh: too little supervision", "Variant LH or both"}},
		{"fast-ge2-bh LN 3 labels", FastGE2BH{Variant: BetheLN}, &Problem{Graph: g2, K: 2, Labels: labelFirst(truth2, map[int]int{0: 2, 1: 1})}, nil},
		{"fast-ge2-bh LH one label per class", FastGE2BH{Variant: BetheLH}, &Problem{Graph: g2, K: 2, Labels: labelFirst(truth2, map[int]int{0: 1, 1: 1})}, nil},
		{"fast-ge2-bh both one label per class", FastGE2BH{Variant: BetheBoth}, &Problem{Graph: g2, K: 2, Labels: labelFirst(truth2, map[int]int{0: 1, 1: 1})}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), tc.m, tc.p, &Settings{Seed: 1})
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				truth := truth2
				if tc.p.K == 3 {
					truth = truth3
				}
				if !samePartition(res.Labels, truth) {
					t.Errorf("labels %v, want the blobs %v", res.Labels, truth)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v, want one wrapping ErrInvalid", err)
			}
			if errors.Is(err, errPencil) {
				t.Errorf("error %v comes from the eigensolve, want the check before it", err)
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

// samePartition reports whether a and b are the same partition up to a
// renaming of the clusters.
func samePartition(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	ab, ba := map[int]int{}, map[int]int{}
	for i := range a {
		if x, ok := ab[a[i]]; ok && x != b[i] {
			return false
		}
		if y, ok := ba[b[i]]; ok && y != a[i] {
			return false
		}
		ab[a[i]], ba[b[i]] = b[i], a[i]
	}
	return true
}

// TestAutoSkipsFastGE2WithTooFewLabels: with one label per class, auto's
// folds train on fewer than k + 1 labelled nodes, so fast-ge2 is reported
// as skipped (saying why), not as failed, and auto succeeds; fast-ge2-bh,
// whose default variant (both) has no such limit, runs.
func TestAutoSkipsFastGE2WithTooFewLabels(t *testing.T) {
	const k = 10
	g, truth := pwBlobGraph(t, 30, k, 0.05, 2)
	labels := make([]int, len(truth))
	seen := map[int]bool{}
	for i, c := range truth {
		labels[i] = -1
		if !seen[c] {
			labels[i], seen[c] = c, true
		}
	}
	res, err := Run(context.Background(), Auto{}, &Problem{Graph: g, K: k, Labels: labels}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report.(*AutoReport)
	found := 0
	for _, c := range rep.Candidates {
		if c.Name != "fast-ge2" && c.Name != "fast-ge2-bh" {
			continue
		}
		found++
		if c.Name == "fast-ge2-bh" {
			if c.Error != "" || c.Skipped != "" {
				t.Errorf("%s: skipped %q, error %q; want it run", c.Name, c.Skipped, c.Error)
			}
			continue
		}
		if c.Error != "" || !strings.Contains(c.Skipped, "fewer than the k + 1 = 11 it needs") {
			t.Errorf("%s: skipped %q, error %q; want skipped for too little supervision", c.Name, c.Skipped, c.Error)
		}
	}
	if found != 2 {
		t.Errorf("%d fast-ge2 candidates in the report, want 2", found)
	}
}
