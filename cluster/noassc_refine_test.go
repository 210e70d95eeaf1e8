package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// pottsEnergyRef is the refinement's energy written out independently:
// Σ_i ‖x_i − c_{l_i}‖²/scale + λ Σ w·[violated], with c the centroids of
// cent's labels (the labels' own centroids unless cent is given).
func pottsEnergyRef(x *mat.Dense, lab, cent []int, k int, pairs []constraint.Pair, lambda, scale float64) float64 {
	n, m := x.Dims()
	if cent == nil {
		cent = lab
	}
	sum := make([][]float64, k)
	cnt := make([]float64, k)
	for f := range sum {
		sum[f] = make([]float64, m)
	}
	for i := 0; i < n; i++ {
		cnt[cent[i]]++
		for j := 0; j < m; j++ {
			sum[cent[i]][j] += x.At(i, j)
		}
	}
	var e float64
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			c := 0.0
			if cnt[lab[i]] > 0 {
				c = sum[lab[i]][j] / cnt[lab[i]]
			}
			d := x.At(i, j) - c
			e += d * d / scale
		}
	}
	for _, p := range pairs {
		together := lab[p.I] == lab[p.J]
		if together != (p.Kind == constraint.MustLink) {
			e += lambda * p.W()
		}
	}
	return e
}

// refineScaleRef is the mean squared distance of a row to its centroid
// under lab, written out independently.
func refineScaleRef(x *mat.Dense, lab []int, k int) float64 {
	n, _ := x.Dims()
	return pottsEnergyRef(x, lab, nil, k, nil, 0, float64(n))
}

// randomRefineProblem returns n random rows in m dimensions, random
// labels in 0…k−1 using every label, and np random pairs of both kinds
// with weights in [0.5, 1.5).
func randomRefineProblem(rng *rand.Rand, n, m, k, np int) (*mat.Dense, []int, []constraint.Pair) {
	x := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	lab := make([]int, n)
	for i := range lab {
		lab[i] = i % k
	}
	rng.Shuffle(n, func(a, b int) { lab[a], lab[b] = lab[b], lab[a] })
	return x, lab, randomWeightedPairs(rng, n, np)
}

// randomWeightedPairs returns count random pairs of distinct nodes in
// 0…n−1, of either kind with equal odds, with weights in [0.5, 1.5).
func randomWeightedPairs(rng *rand.Rand, n, count int) []constraint.Pair {
	var pairs []constraint.Pair
	for len(pairs) < count {
		i, j := rng.IntN(n), rng.IntN(n)
		if i == j {
			continue
		}
		kind := constraint.MustLink
		if rng.IntN(2) == 0 {
			kind = constraint.CannotLink
		}
		pairs = append(pairs, constraint.Pair{I: i, J: j, Kind: kind, Weight: 0.5 + rng.Float64()})
	}
	return pairs
}

// The refinement never raises the energy, and where it stops no single
// move (with the centroids of its result fixed, and no cluster emptied)
// lowers it: both checked with the energy written out independently, on
// random problems and several λ.
func TestRefinePairsEnergyAndLocalMinimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const tol = 1e-9
	for trial := 0; trial < 24; trial++ {
		n, m, k := 20+rng.IntN(40), 1+rng.IntN(4), 2+rng.IntN(3)
		x, start, pairs := randomRefineProblem(rng, n, m, k, rng.IntN(3*n))
		lambda := []float64{0.1, 1, 8, 100}[trial%4]
		out, sweeps, moves, err := refinePairs(context.Background(), x, start, k, pairs, lambda)
		if err != nil {
			t.Fatal(err)
		}
		scale := refineScaleRef(x, start, k)
		e0 := pottsEnergyRef(x, start, nil, k, pairs, lambda, scale)
		e1 := pottsEnergyRef(x, out, nil, k, pairs, lambda, scale)
		if e1 > e0+tol {
			t.Errorf("trial %d: energy rose %g → %g", trial, e0, e1)
		}
		if moves > 0 && !(e1 < e0) {
			t.Errorf("trial %d: %d moves but the energy did not fall (%g → %g)", trial, moves, e0, e1)
		}
		if moves == 0 && !slices.Equal(out, start) {
			t.Errorf("trial %d: no move reported but the labels changed", trial)
		}
		if sweeps >= refineMaxSweeps {
			continue // stopped by the cap: no local-minimum claim
		}
		size := make([]int, k)
		for _, l := range out {
			size[l]++
		}
		base := pottsEnergyRef(x, out, out, k, pairs, lambda, scale)
		for i := 0; i < n; i++ {
			if size[out[i]] == 1 {
				continue
			}
			old := out[i]
			for f := 0; f < k; f++ {
				if f == old {
					continue
				}
				moved := slices.Clone(out)
				moved[i] = f
				// Centroids fixed at those of out.
				if e := pottsEnergyRef(x, moved, out, k, pairs, lambda, scale); e < base-tol {
					t.Errorf("trial %d: moving node %d from %d to %d lowers the energy %g → %g", trial, i, old, f, base, e)
				}
			}
		}
	}
}

// A node that a wrong must-link carried into the other of two separated
// groups, and that cannot-links tie to that group's nodes, is moved back;
// with the rows alone (no pairs) it is moved back too, and with λ so
// large that one must-link outweighs the rows and no cannot-link opposes
// it, it stays.
func TestRefinePairsMovesBackAWrongMustLink(t *testing.T) {
	// Group 0: rows near (0, 0), nodes 0–5; group 1: rows near (5, 0),
	// nodes 6–11. Node 6 starts in group 0.
	x := mat.NewDense(12, 2, nil)
	for i := 0; i < 12; i++ {
		c := 0.0
		if i >= 6 {
			c = 5
		}
		x.Set(i, 0, c+0.1*float64(i%3))
		x.Set(i, 1, 0.1*float64(i%2))
	}
	start := []int{0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1}
	wrongML := constraint.Pair{I: 6, J: 0, Kind: constraint.MustLink}
	cls := []constraint.Pair{{I: 6, J: 1, Kind: constraint.CannotLink}, {I: 6, J: 2, Kind: constraint.CannotLink}}
	for _, tc := range []struct {
		name   string
		pairs  []constraint.Pair
		lambda float64
		want   int // node 6's final label
	}{
		{"wrong must-link, two cannot-links against it", append([]constraint.Pair{wrongML}, cls...), 8, 1},
		{"rows alone", nil, 8, 1},
		{"one must-link, no cannot-link, huge λ", []constraint.Pair{wrongML}, 1e6, 0},
	} {
		out, _, _, err := refinePairs(context.Background(), x, start, 2, tc.pairs, tc.lambda)
		if err != nil {
			t.Fatal(err)
		}
		if out[6] != tc.want {
			t.Errorf("%s: node 6 ends in %d, want %d (labels %v)", tc.name, out[6], tc.want, out)
		}
		for i := 0; i < 12; i++ {
			if i != 6 && out[i] != start[i] {
				t.Errorf("%s: node %d moved %d → %d", tc.name, i, start[i], out[i])
			}
		}
	}
}

// A move that would empty a cluster is not made: clusters of one node
// and three, every row at the same distance from both centroids, and a
// must-link pulling the single node, visited first, to the others.
func TestRefinePairsKeepsEveryCluster(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{10.1, 10, 10.2, 10.1})
	ml := []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}
	out, _, _, err := refinePairs(context.Background(), x, []int{1, 0, 0, 0}, 2, ml, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(out, 0) || !slices.Contains(out, 1) {
		t.Errorf("a cluster was emptied: %v", out)
	}
}

// The refinement acts only when the constraints contradict each other:
// with consistent constraints ML- and MCL-NOA-SSC return the same labels
// whatever Refine says, and with contradictory ones it runs and says so.
func TestNOASSCRefineOnlyWhenContradicted(t *testing.T) {
	p, truth := refineTestProblem(t)
	consistent := &constraint.Set{N: len(truth)}
	for i := 0; i+7 < len(truth); i += 7 {
		kind := constraint.CannotLink
		if truth[i] == truth[i+7] {
			kind = constraint.MustLink
		}
		consistent.Pairs = append(consistent.Pairs, constraint.Pair{I: i, J: i + 7, Kind: kind})
	}
	contradictory := &constraint.Set{N: len(truth), Pairs: slices.Clone(consistent.Pairs)}
	// A must-link and a cannot-link on the same two nodes of one class.
	a, b := 0, 1
	for truth[b] != truth[a] {
		b++
	}
	contradictory.Pairs = append(contradictory.Pairs,
		constraint.Pair{I: a, J: b, Kind: constraint.MustLink}, constraint.Pair{I: a, J: b, Kind: constraint.CannotLink})
	for _, useCL := range []bool{false, true} {
		method := func(refine float64) Method {
			if useCL {
				return MCLNOASSC{Refine: refine, RefineFixed: true}
			}
			return MLNOASSC{Refine: refine, RefineFixed: true}
		}
		run := func(set *constraint.Set, refine float64) *Result {
			q := *p
			q.Constraints = set
			res, err := Run(context.Background(), method(refine), &q, &Settings{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		off, on := run(consistent, -1), run(consistent, 8)
		if !slices.Equal(off.Labels, on.Labels) {
			t.Errorf("useCL %v: consistent constraints, labels differ with Refine 8 and −1", useCL)
		}
		// What the refinement did is a note (a warning only when it
		// stops at its sweep cap).
		if refineWarned(on.Notes) || refineWarned(on.Warnings) {
			t.Errorf("useCL %v: consistent constraints, yet a refinement message: %q, %q", useCL, on.Notes, on.Warnings)
		}
		if got := run(contradictory, 8); !refineWarned(got.Notes) {
			t.Errorf("useCL %v: contradictory constraints, no refinement note: %q", useCL, got.Notes)
		}
		if got := run(contradictory, -1); refineWarned(got.Notes) || refineWarned(got.Warnings) {
			t.Errorf("useCL %v: Refine −1, yet a refinement message", useCL)
		}
		// The space: the reference's embedding by default, NJW's with
		// RefineNJW or without a reference.
		for _, sp := range []struct {
			m    Method
			want string
		}{
			{MCLNOASSC{RefineFixed: true, Refine: 8}, "the reference partition's (cscap) embedding"},
			{MCLNOASSC{RefineFixed: true, Refine: 8, RefineNJW: true}, "NJW's embedding"},
			{MCLNOASSC{RefineFixed: true, Refine: 8, Reference: ReferenceNone}, "NJW's embedding"},
			{MLNOASSC{RefineFixed: true, Refine: 8, Reference: ReferenceFastGE}, "the reference partition's (fast-ge) embedding"},
		} {
			q := *p
			q.Constraints = contradictory
			res, err := Run(context.Background(), sp.m, &q, &Settings{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(res.Notes, func(w string) bool { return strings.Contains(w, "refinement in "+sp.want) }) {
				t.Errorf("%#v: no refinement note naming %q: %q", sp.m, sp.want, res.Notes)
			}
		}
	}
}

func refineWarned(ws []string) bool {
	for _, w := range ws {
		if strings.Contains(w, "refinement") {
			return true
		}
	}
	return false
}

// Refine outside −1 and [0, 1e6] is refused.
func TestNOASSCRefineInvalid(t *testing.T) {
	p, truth := refineTestProblem(t)
	q := *p
	q.Constraints = &constraint.Set{N: len(truth), Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}}
	for _, v := range []float64{-2, -0.5} {
		for _, m := range []Method{MLNOASSC{Refine: v}, MCLNOASSC{Refine: v}} {
			if _, err := Run(context.Background(), m, &q, &Settings{Seed: 1}); !errors.Is(err, ErrInvalid) {
				t.Errorf("%s Refine %g: err %v, want ErrInvalid", m.Name(), v, err)
			}
		}
	}
}

// refineTestProblem is three blobs of 90 points on a 10-NN graph
// (cscapVoteCase) and their classes; the constraints are the test's own.
func refineTestProblem(t *testing.T) (*Problem, []int) {
	t.Helper()
	p, truth, _ := cscapVoteCase(t, 5, 10, 0)
	return p, truth
}
