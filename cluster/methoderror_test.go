package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// TestMethodError: a method's error names the package once, keeps the
// rest of the chain, and unwraps to the sentinels.
func TestMethodError(t *testing.T) {
	inner := fmt.Errorf("%w: %w: only 1 finite generalized eigenvalue", ErrInvalid, errPencil)
	err := wrapMethod("fast-ge2", inner)
	if want := "cluster: fast-ge2: invalid problem: generalized eigenproblem: only 1 finite generalized eigenvalue"; err.Error() != want {
		t.Errorf("%q, want %q", err, want)
	}
	if !errors.Is(err, ErrInvalid) || !errors.Is(err, errPencil) {
		t.Error("the sentinels are lost")
	}
	if err := wrapMethod("x", errors.New("the cluster: a word")); err.Error() != "cluster: x: the cluster: a word" {
		t.Errorf("%q", err)
	}
	if wrapMethod("x", nil) != nil {
		t.Error("nil wraps to non-nil")
	}
}

// TestMethodErrorsNamePackageOnce: the errors of the pencil methods (a
// solver that cannot take B, too few finite eigenvalues) and of the
// must-link methods' group-graph cut name the package once. Before,
// fast-ge said "cluster: fast-ge: cluster: invalid problem: cluster:
// generalized eigenproblem: …", csp "cluster: csp: the pencil …: cluster:
// invalid problem: …" and ml-noa-ssc "cluster: ml-noa-ssc: normalized cut
// of the group graph: cluster: invalid problem: cluster: graph: …".
func TestMethodErrorsNamePackageOnce(t *testing.T) {
	g, truth := roMoons(t, 40, 1)
	pairs := &constraint.Set{N: 40}
	for i := 0; i < 40; i += 4 {
		kind := constraint.CannotLink
		if truth[i] == truth[(i+7)%40] {
			kind = constraint.MustLink
		}
		pairs.Pairs = append(pairs.Pairs, constraint.Pair{I: i, J: (i + 7) % 40, Kind: kind})
	}
	lanczos := &Settings{Seed: 1, Eigen: &eigen.Lanczos{}}
	// An edgeless graph: the core rule keeps every node (none has an
	// edge) and the group graph of the must-links has no edge, which the
	// normalized cut refuses.
	edgeless, err := graph.FromEdges(6, nil)
	if err != nil {
		t.Fatal(err)
	}
	smallPairs := &constraint.Set{N: 6, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 0, J: 2, Kind: constraint.CannotLink}}}
	for _, tc := range []struct {
		name   string
		m      Method
		p      *Problem
		s      *Settings
		prefix string
	}{
		{"fast-ge, Lanczos", FastGE{}, &Problem{Graph: g, K: 2, Constraints: pairs}, lanczos, "cluster: fast-ge: invalid problem: eigensolver *eigen.Lanczos"},
		{"fast-ge, k = n", FastGE{}, &Problem{Graph: g, K: 40, Constraints: pairs}, nil, "cluster: fast-ge: invalid problem: generalized eigenproblem: only "},
		{"csp, Lanczos", CSP{}, &Problem{Graph: g, K: 2, Constraints: pairs}, lanczos, "cluster: csp: the pencil of L̄ and Q̄ − α/vol·I"},
		{"ml-noa-ssc, edgeless graph", MLNOASSC{}, &Problem{Graph: edgeless, K: 2, Constraints: smallPairs}, nil, "cluster: ml-noa-ssc: normalized cut of the group graph: invalid problem: graph: isolated node"},
		// An isolated node a method cannot take (isolatedInvalid): it
		// read "cluster: invalid problem: cluster: csc: graph: …".
		{"csc, edgeless graph", CSC{}, &Problem{Graph: edgeless, K: 2, Constraints: smallPairs}, nil, "cluster: invalid problem: csc: graph: isolated node"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), tc.m, tc.p, tc.s)
			if err == nil {
				t.Fatal("no error")
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.prefix) || strings.Count(msg, "cluster: ") != 1 {
				t.Errorf("error %q, want one starting %q that names the package once", msg, tc.prefix)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
		})
	}
}

// TestTidy: an error naming the package again further on names it once,
// and unwraps to what it wrapped; other errors are left as they are.
func TestTidy(t *testing.T) {
	inner := fmt.Errorf("cluster: eigensolver: %w", context.DeadlineExceeded)
	err := tidy(fmt.Errorf("cluster: fgpwc: embedding: %w", inner))
	if want := "cluster: fgpwc: embedding: eigensolver: context deadline exceeded"; err.Error() != want {
		t.Errorf("%q, want %q", err, want)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Error("the cause is lost")
	}
	for _, e := range []error{
		context.Canceled,
		errors.New("cluster: once"),
		errors.New("cluster: the cluster: word"),
	} {
		if got := tidy(e); got != e {
			t.Errorf("tidy(%q) = %q, want it unchanged", e, got)
		}
	}
}

// TestCancelledIn: a cancellation from a shared step is named by the
// method and the step, once; one that names the method already, an
// error of another kind and nil are returned as they are.
func TestCancelledIn(t *testing.T) {
	numerical := fmt.Errorf("%w: the rows clustered by k-means: overflow", ErrNumerical)
	named := fmt.Errorf("cluster: ccsr: spectral embedding F: %w", context.Canceled)
	for _, tc := range []struct {
		name string
		err  error
		want string // "" for err unchanged
	}{
		{"bare", context.Canceled, "cluster: ccsr: fit of M: context canceled"},
		{"deadline", context.DeadlineExceeded, "cluster: ccsr: fit of M: context deadline exceeded"},
		{"shared step", fmt.Errorf("cluster: %w", fmt.Errorf("kmeans: %w", context.Canceled)), "cluster: ccsr: fit of M: kmeans: context canceled"},
		{"named", named, ""},
		{"other method", fmt.Errorf("cluster: cscap: %w", context.Canceled), "cluster: ccsr: fit of M: cscap: context canceled"},
		{"not a cancellation", numerical, ""},
		{"nil", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := cancelledIn("ccsr", "fit of M", tc.err)
			if tc.want == "" {
				if got != tc.err {
					t.Errorf("%v, want %v unchanged", got, tc.err)
				}
				return
			}
			if got.Error() != tc.want || !errors.Is(got, tc.err) {
				t.Errorf("%q, want %q wrapping %v", got, tc.want, tc.err)
			}
		})
	}
}

// TestGroupGraphIsolatedAdvice: ml-noa-ssc's group graph with an isolated
// group gives advice the user can follow, not the inner ncut's ("leave
// the regularization on"), and still wraps ErrInvalid and
// graph.ErrIsolated.
func TestGroupGraphIsolatedAdvice(t *testing.T) {
	edgeless, err := graph.FromEdges(6, nil)
	if err != nil {
		t.Fatal(err)
	}
	pairs := &constraint.Set{N: 6, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 0, J: 2, Kind: constraint.CannotLink}}}
	for _, m := range []Method{MLNOASSC{}, MCLNOASSC{}} {
		_, err := Run(context.Background(), m, &Problem{Graph: edgeless, K: 2, Constraints: pairs}, nil)
		if err == nil || strings.Contains(err.Error(), "regularization on") || !strings.Contains(err.Error(), "use a denser graph") || !strings.Contains(err.Error(), "node 0 (with its must-link group)") ||
			!errors.Is(err, ErrInvalid) || !errors.Is(err, graph.ErrIsolated) {
			t.Errorf("%s: %v", m.Name(), err)
		}
	}
}

// TestNoSupervisionError: a method that needs side information and is
// given none it can use fails with an error wrapping both ErrInvalid and
// ErrNoSupervision, whose text is unchanged ("cluster: invalid problem:
// NAME needs …"); labelprop given pairs only is such a failure too, and a
// graph error of another kind (k out of range) is not.
func TestNoSupervisionError(t *testing.T) {
	g := pathGraph(t, 12)
	pairs := &constraint.Set{N: 12, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}}
	unlabelled := make(constraint.Labels, 12)
	for i := range unlabelled {
		unlabelled[i] = constraint.Unlabeled
	}
	for _, tc := range []struct {
		m    Method
		p    *Problem
		want string
	}{
		{SpectralLearning{}, &Problem{Graph: g, K: 2}, "cluster: invalid problem: sl needs pairwise constraints or labels, none given"},
		{MLNOASSC{}, &Problem{Graph: g, K: 2}, "cluster: invalid problem: ml-noa-ssc needs pairwise constraints or labels, none given"},
		{MCLNOASSC{}, &Problem{Graph: g, K: 2}, "cluster: invalid problem: mcl-noa-ssc needs pairwise constraints or labels, none given"},
		{LabelProp{}, &Problem{Graph: g, K: 2}, "cluster: invalid problem: labelprop needs partial labels, none given"},
		{MAVRO{}, &Problem{Graph: g, K: 2}, "cluster: invalid problem: mavro needs partial labels, none given"},
		{MavroK{}, &Problem{Graph: g, K: 2}, "cluster: invalid problem: mavro-k needs partial labels, none given"},
		{NOASSC{}, &Problem{Graph: g, K: 2}, "cluster: invalid problem: noa-ssc needs partial labels, none given"},
		{LabelProp{}, &Problem{Graph: g, K: 2, Constraints: pairs}, "cluster: invalid problem: labelprop needs partial labels; pairwise constraints define labels only through the must-link closure"},
		// Labels that are all Unlabeled are none (they wrapped ErrInvalid
		// alone, which the command line answered as bad data).
		{LabelProp{}, &Problem{Graph: g, K: 2, Labels: unlabelled}, "cluster: invalid problem: labelprop needs partial labels, but every node is unlabelled"},
		{MAVRO{}, &Problem{Graph: g, K: 2, Labels: unlabelled}, "cluster: invalid problem: mavro needs partial labels, but every node is unlabelled"},
		{MavroK{}, &Problem{Graph: g, K: 2, Labels: unlabelled}, "cluster: invalid problem: mavro-k needs partial labels, but every node is unlabelled"},
		{NOASSC{}, &Problem{Graph: g, K: 2, Labels: unlabelled}, "cluster: invalid problem: noa-ssc needs partial labels, but every node is unlabelled"},
	} {
		t.Run(fmt.Sprintf("%s/pairs=%v/labels=%v", tc.m.Name(), tc.p.Constraints != nil, tc.p.Labels != nil), func(t *testing.T) {
			_, err := Run(context.Background(), tc.m, tc.p, nil)
			if !errors.Is(err, ErrNoSupervision) || !errors.Is(err, ErrInvalid) || err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want one beginning %q wrapping ErrNoSupervision and ErrInvalid", err, tc.want)
			}
		})
	}
	if _, err := Run(context.Background(), SpectralLearning{}, &Problem{Graph: g, K: 13, Constraints: pairs}, nil); err == nil || errors.Is(err, ErrNoSupervision) {
		t.Errorf("k = 13 on 12 nodes: error %v, want one that is not ErrNoSupervision", err)
	}
}

// TestNoPairTextDirect: sl, ml-noa-ssc and mcl-noa-ssc called without Run
// (Partition) on an empty constraint set do not say "none given", as
// noPairs does not through Run (review 153's note).
func TestNoPairTextDirect(t *testing.T) {
	g := pathGraph(t, 12)
	for _, m := range []Method{SpectralLearning{}, MLNOASSC{}, MCLNOASSC{}} {
		p := &Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: g.N()}}
		_, err := m.Partition(context.Background(), p, nil)
		if !errors.Is(err, ErrNoSupervision) || !strings.Contains(err.Error(), emptySet) || strings.Contains(err.Error(), "none given") {
			t.Errorf("%s: %v; want ErrNoSupervision saying %q", m.Name(), err, emptySet)
		}
	}
}
