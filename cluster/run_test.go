package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// fixedMethod is a Method with declared Uses that returns one cluster; it
// records the Settings it received.
type fixedMethod struct {
	uses Uses
	got  **Settings
}

func (fixedMethod) Name() string { return "fixed" }
func (m fixedMethod) Uses() Uses { return m.uses }
func (m fixedMethod) Partition(_ context.Context, p *Problem, s *Settings) (*Result, error) {
	if m.got != nil {
		*m.got = s
	}
	return &Result{Labels: make([]int, p.nodes()), K: 1, Warnings: []string{"method warning"}}, nil
}

func TestRunValidatesAgainstUses(t *testing.T) {
	g, _ := roMoons(t, 20, 1)
	feat := mat.NewDense(20, 2, nil)
	badFeat := mat.NewDense(20, 2, nil)
	badFeat.Set(3, 1, math.NaN())
	bip := mat.NewDense(4, 16, nil)
	negBip := mat.NewDense(4, 16, nil)
	negBip.Set(2, 5, -1)
	for _, tc := range []struct {
		name string
		uses Uses
		p    *Problem
		err  string // "" for success
	}{
		{"nil problem", Uses{}, nil, "no problem"},
		{"no graph", Uses{}, &Problem{K: 2}, "no graph"},
		{"k = 0 without estimation", Uses{}, &Problem{Graph: g}, "does not estimate k; bethe, fgpwc, hbisect, opplc, plmeans do"},
		{"k = 0 estimated", Uses{EstimatesK: true}, &Problem{Graph: g}, ""},
		{"k > n", Uses{}, &Problem{Graph: g, K: 21}, "want 1 ≤ k ≤ n = 20"},
		{"k above MaxK", Uses{MinK: 2, MaxK: 2}, &Problem{Graph: g, K: 3}, "k = 2 only"},
		{"k below MinK", Uses{MinK: 3}, &Problem{Graph: g, K: 2}, "k ≥ 3"},
		{"constraints on another n", Uses{Supervision: Pairs}, &Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: 19}}, "constraints are on 19 nodes"},
		{"labels of another n", Uses{Supervision: LabelSet}, &Problem{Graph: g, K: 2, Labels: make(constraint.Labels, 3)}, "3 labels for 20 nodes"},
		{"features required", Uses{Input: GraphInput | FeatureInput}, &Problem{Graph: g, K: 2}, "Problem.Features is nil"},
		{"features of another n", Uses{}, &Problem{Graph: g, K: 2, Features: mat.NewDense(19, 2, nil)}, "19 feature rows for 20 nodes"},
		{"non-finite feature", Uses{Input: GraphInput | FeatureInput}, &Problem{Graph: g, K: 2, Features: badFeat}, "feature (3, 1) = NaN"},
		// Problem.Features says every entry must be finite: a graph
		// method that ignores the rows refuses a NaN in them too (it ran,
		// with a warning that it ignored them).
		{"non-finite feature, graph method", Uses{}, &Problem{Graph: g, K: 2, Features: badFeat}, "feature (3, 1) = NaN"},
		{"non-finite feature, bipartite method", Uses{Input: BipartiteInput}, &Problem{K: 2, Bipartite: bip, Features: badFeat}, "feature (3, 1) = NaN"},
		{"features given", Uses{Input: GraphInput | FeatureInput}, &Problem{Graph: g, K: 2, Features: feat}, ""},
		{"bipartite required", Uses{Input: BipartiteInput}, &Problem{K: 2}, "the problem has no nodes"},
		{"bipartite without graph", Uses{Input: BipartiteInput}, &Problem{K: 2, Bipartite: bip}, ""},
		{"bipartite beside a graph of another n", Uses{Input: BipartiteInput}, &Problem{Graph: g, K: 2, Bipartite: mat.NewDense(4, 4, nil)}, "4×4 (8 nodes)"},
		{"negative bipartite entry", Uses{Input: BipartiteInput}, &Problem{K: 2, Bipartite: negBip}, "entry (2, 5) = -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), fixedMethod{uses: tc.uses}, tc.p, nil)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.err != "" && (err == nil || !errors.Is(err, ErrInvalid) && !strings.Contains(err.Error(), "invalid")):
				t.Fatalf("error %v, want one wrapping ErrInvalid mentioning %q", err, tc.err)
			case tc.err != "" && !strings.Contains(err.Error(), tc.err):
				t.Fatalf("error %q does not mention %q", err, tc.err)
			}
		})
	}
}

func TestRunWarnsAboutIgnoredSupervision(t *testing.T) {
	g, _ := roMoons(t, 20, 1)
	cons := &constraint.Set{N: 20, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 0, J: 19, Kind: constraint.CannotLink}}}
	labels := make(constraint.Labels, 20)
	for i := range labels {
		labels[i] = constraint.Unlabeled
	}
	labels[0], labels[19] = 0, 1
	x := mat.NewDense(20, 2, nil)
	for i := 0; i < 20; i++ {
		x.Set(i, 0, float64(i))
		x.Set(i, 1, float64(i%3))
	}
	for _, tc := range []struct {
		name string
		sup  Supervision
		p    *Problem
		want []string // substrings of the driver's warnings, in order
	}{
		{"unsupervised, constraints", None, &Problem{Graph: g, K: 2, Constraints: cons}, []string{"fixed ignores the 2 pairwise constraints (unsupervised: auto, or a method that reads them, uses them)"}},
		{"unsupervised, both", None, &Problem{Graph: g, K: 2, Constraints: cons, Labels: labels}, []string{"ignores the 2 pairwise constraints", "ignores the 2 partial labels (unsupervised: auto, or a method that reads them, uses them)"}},
		{"labels method, constraints", LabelSet, &Problem{Graph: g, K: 2, Constraints: cons, Labels: labels}, []string{"ignores the 2 pairwise constraints (it uses partial labels)"}},
		{"pairs method, labels converted", Pairs, &Problem{Graph: g, K: 2, Labels: labels}, nil},
		{"both kinds", Pairs | LabelSet, &Problem{Graph: g, K: 2, Constraints: cons, Labels: labels}, nil},
		{"empty constraint set", None, &Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: 20}}, nil},
		// Feature rows given to a method of the graph alone were ignored
		// without a word.
		{"feature rows, graph method", None, &Problem{Graph: g, K: 2, Features: x}, []string{"fixed ignores the feature rows (it clusters the graph; graph.Build makes a graph of them)"}},
		{"feature rows, projection method", None, &Problem{Graph: g, K: 2, Features: x}, nil},
		// A graph given to a method of feature rows alone (cpca, cvqe)
		// was ignored without a word.
		{"graph beside the feature rows, feature method", None, &Problem{Graph: g, K: 2, Features: x}, []string{"fixed: graph ignored: fixed uses features"}},
		{"feature rows alone, feature method", None, &Problem{K: 2, Features: x}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := Uses{Supervision: tc.sup}
			if strings.HasSuffix(tc.name, "projection method") {
				u.Input = GraphInput | FeatureInput
			}
			if strings.HasSuffix(tc.name, "feature method") {
				u.Input = FeatureInput
			}
			res, err := Run(context.Background(), fixedMethod{uses: u}, tc.p, nil)
			if err != nil {
				t.Fatal(err)
			}
			// The fixed method's one cluster for the labels' two classes
			// draws the last warning (fewerClustersThanClasses), which this
			// test does not look at.
			if n := len(res.Warnings); tc.p.Labels != nil && n > 0 && strings.Contains(res.Warnings[n-1], "1 cluster for the 2 classes of the partial labels") {
				res.Warnings = res.Warnings[:n-1]
			}
			if len(res.Warnings) != len(tc.want)+1 || res.Warnings[len(tc.want)] != "method warning" {
				t.Fatalf("warnings %q, want %d driver warnings then the method's", res.Warnings, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(res.Warnings[i], w) {
					t.Errorf("warning %d = %q, want it to contain %q", i, res.Warnings[i], w)
				}
			}
		})
	}
}

// Every registered unsupervised method warns, through Run, about
// constraints it is given (issue: `tether cluster -method njw -constraints`
// used to ignore them silently).
func TestRegisteredMethodsWarnAboutIgnoredInput(t *testing.T) {
	g, _ := roMoons(t, 40, 2)
	cons := &constraint.Set{N: 40, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}}
	for _, info := range Methods() {
		if info.New().Uses().Supervision != None {
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			res, err := Run(context.Background(), info.New(), &Problem{Graph: g, K: 2, Constraints: cons}, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "ignores the 1 pairwise constraint (") {
				t.Errorf("warnings %q", res.Warnings)
			}
			if res.Runtime <= 0 {
				t.Errorf("Runtime %v not filled", res.Runtime)
			}
		})
	}
}

func TestRunPassesDefaultSettings(t *testing.T) {
	g, _ := roMoons(t, 20, 1)
	var got *Settings
	if _, err := Run(context.Background(), fixedMethod{got: &got}, &Problem{Graph: g, K: 2}, nil); err != nil {
		t.Fatal(err)
	}
	if got == nil || *got != (Settings{}) {
		t.Errorf("method received %+v, want the zero Settings", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, fixedMethod{}, &Problem{Graph: g, K: 1}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

// TestRunWarnsAboutCollapsedPartition: Run warns when one cluster of a
// partition into k ≥ 2 holds at least 90% of n ≥ 20 nodes (the silent
// "one giant cluster" of issue 19), and not otherwise.
func TestRunWarnsAboutCollapsedPartition(t *testing.T) {
	g, _ := roMoons(t, 40, 1)
	// labels with big nodes in cluster 0 and the rest spread over 1…k−1.
	labels := func(n, big, k int) []int {
		l := make([]int, n)
		for i := big; i < n; i++ {
			l[i] = 1 + (i-big)%(k-1)
		}
		return l
	}
	for _, tc := range []struct {
		name   string
		labels []int
		k      int
		want   string // "" for no warning
	}{
		{"36 of 40 in one of 2", labels(40, 36, 2), 2, "holds 90.0% of the 40 nodes and the other cluster holds 4"},
		{"35 of 40", labels(40, 35, 2), 2, ""},
		{"39 of 40 in one of 5", labels(40, 39, 5), 5, "holds 97.5% of the 40 nodes and the other 4 clusters hold 1"},
		{"one cluster asked", make([]int, 40), 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := labelsMethod{labels: tc.labels, k: tc.k}
			res, err := Run(context.Background(), m, &Problem{Graph: g, K: tc.k}, nil)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, w := range res.Warnings {
				if strings.Contains(w, "has collapsed") {
					got = w
				}
			}
			switch {
			case tc.want == "" && got != "":
				t.Errorf("unexpected warning %q", got)
			case tc.want != "" && !strings.Contains(got, tc.want):
				t.Errorf("warning %q, want it to contain %q", got, tc.want)
			}
		})
	}
	// Fewer than 20 nodes (12, all in one of 2 clusters): no warning.
	g10, _ := roMoons(t, 12, 1)
	res, err := Run(context.Background(), labelsMethod{labels: labels(12, 12, 2), k: 2}, &Problem{Graph: g10, K: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "has collapsed") {
			t.Errorf("12 nodes: warning %q", w)
		}
	}
}

// labelsMethod is a Method returning the given labels as a partition into k.
type labelsMethod struct {
	labels []int
	k      int
}

func (labelsMethod) Name() string { return "labels" }
func (labelsMethod) Uses() Uses   { return Uses{} }
func (m labelsMethod) Partition(_ context.Context, p *Problem, _ *Settings) (*Result, error) {
	return &Result{Labels: append([]int(nil), m.labels...), K: m.k}, nil
}

// TestRunInvalidSupervisionWrapsErrInvalid: a bad pair or label is an
// ill-posed problem, so Run's error wraps cluster.ErrInvalid (as its doc
// says) as well as constraint.ErrInvalid; it wrapped only the latter.
func TestRunInvalidSupervisionWrapsErrInvalid(t *testing.T) {
	g, _ := roMoons(t, 20, 1)
	labels := func(i, c int) constraint.Labels {
		l := make(constraint.Labels, 20)
		for j := range l {
			l[j] = constraint.Unlabeled
		}
		l[i] = c
		return l
	}
	pairs := func(p constraint.Pair) *constraint.Set { return &constraint.Set{N: 20, Pairs: []constraint.Pair{p}} }
	for _, tc := range []struct {
		name string
		p    *Problem
		want string
	}{
		{"pair (i, i)", &Problem{Graph: g, K: 2, Constraints: pairs(constraint.Pair{I: 3, J: 3, Kind: constraint.MustLink})}, "pair 0 (3,3)"},
		{"node out of range", &Problem{Graph: g, K: 2, Constraints: pairs(constraint.Pair{I: 3, J: 20, Kind: constraint.CannotLink})}, "pair 0 (3,20)"},
		{"negative weight", &Problem{Graph: g, K: 2, Constraints: pairs(constraint.Pair{I: 3, J: 4, Kind: constraint.MustLink, Weight: -1})}, "weight -1"},
		{"unknown kind", &Problem{Graph: g, K: 2, Constraints: pairs(constraint.Pair{I: 3, J: 4})}, "unknown kind 0"},
		{"label ≥ k", &Problem{Graph: g, K: 2, Labels: labels(5, 2)}, "node 5 has label 2"},
		{"negative label", &Problem{Graph: g, K: 2, Labels: labels(5, -3)}, "node 5 has label -3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), fixedMethod{uses: Uses{Supervision: Pairs | LabelSet}}, tc.p, nil)
			if !errors.Is(err, ErrInvalid) || !errors.Is(err, constraint.ErrInvalid) {
				t.Fatalf("error %v, want one wrapping cluster.ErrInvalid and constraint.ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "fixed") {
				t.Errorf("error %q does not name the method and %q", err, tc.want)
			}
		})
	}
}

// TestRunSingleNode: a graph of one node and no edge, k = 1, has one
// partition; the normalized-Laplacian methods refused it (isolated node)
// because RegAuto skipped graphs below 2 nodes.
func TestRunSingleNode(t *testing.T) {
	g, err := graph.FromEdges(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Method{NJW{}, ShiMalik{}, Unnormalized{}} {
		t.Run(m.Name(), func(t *testing.T) {
			res, err := Run(context.Background(), m, &Problem{Graph: g, K: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Labels) != 1 || res.Labels[0] != 0 || res.K != 1 {
				t.Errorf("labels %v, k = %d", res.Labels, res.K)
			}
		})
	}
}

// Run warns when a method returns fewer non-empty clusters than k, for
// every method (emptyClusters): labelsMethod returns the labels given,
// with K = 3.
func TestRunWarnsAboutEmptyClusters(t *testing.T) {
	g, err := graph.FromEdges(6, pathEdges(6))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		labels []int
		warn   bool
	}{
		{"all used", []int{0, 0, 1, 1, 2, 2}, false},
		{"cluster 1 empty", []int{0, 0, 0, 2, 2, 2}, true},
		{"only cluster 2", []int{2, 2, 2, 2, 2, 2}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), labelsMethod{tc.labels, 3}, &Problem{Graph: g, K: 3}, nil)
			if err != nil {
				t.Fatal(err)
			}
			warned := false
			for _, w := range res.Warnings {
				warned = warned || strings.Contains(w, " non-empty (identical rows, must-links or the graph leave the others without a node)")
			}
			if warned != tc.warn {
				t.Errorf("warnings %q: warned %v, want %v", res.Warnings, warned, tc.warn)
			}
		})
	}
}

// TestRunValidatesSettings: a negative Settings.Restarts or an
// EigenSettings out of range is the caller's error, refused by Run before
// any method runs, with an error wrapping ErrInvalid that names the field
// and its value. Before, methods without k-means or an eigensolver (fixed
// here, csc's pairs) ignored them silently and the others failed with an
// error wrapping neither ErrInvalid nor ErrNumerical ("kmeans: invalid
// input", "eigen: tolerance NaN outside [0, 1)").
func TestRunValidatesSettings(t *testing.T) {
	g, _ := roMoons(t, 20, 1)
	for _, tc := range []struct {
		name string
		s    *Settings
		want string // "" for success
	}{
		{"nil", nil, ""},
		{"defaults", &Settings{}, ""},
		{"restarts 3", &Settings{Restarts: 3}, ""},
		{"eigen defaults", &Settings{EigenSettings: &eigen.Settings{}}, ""},
		{"eigen tol 1e-6, 50 iterations", &Settings{EigenSettings: &eigen.Settings{Tol: 1e-6, MaxIter: 50}}, ""},
		{"negative restarts", &Settings{Restarts: -3}, "Settings.Restarts = -3"},
		// Before, a count above kmeans.MaxRestarts reached k-means, whose
		// per-restart slices exhausted memory (a fatal error) at 1 << 40.
		{"restarts above kmeans.MaxRestarts", &Settings{Restarts: min(1<<40, math.MaxInt)}, fmt.Sprintf("Settings.Restarts = %d, want ≤ kmeans.MaxRestarts = 1048576", min(1<<40, math.MaxInt))},
		{"NaN tolerance", &Settings{EigenSettings: &eigen.Settings{Tol: math.NaN()}}, "Settings.EigenSettings: eigen: invalid argument: tolerance NaN outside [0, 1)"},
		{"negative tolerance", &Settings{EigenSettings: &eigen.Settings{Tol: -1e-3}}, "tolerance -0.001 outside [0, 1)"},
		{"tolerance 1", &Settings{EigenSettings: &eigen.Settings{Tol: 1}}, "tolerance 1 outside [0, 1)"},
		{"negative MaxIter", &Settings{EigenSettings: &eigen.Settings{MaxIter: -1}}, "Settings.EigenSettings: eigen: invalid argument: negative MaxIter -1"},
	} {
		for _, m := range []Method{fixedMethod{}, NJW{}} {
			t.Run(tc.name+"/"+m.Name(), func(t *testing.T) {
				_, err := Run(context.Background(), m, &Problem{Graph: g, K: 2}, tc.s)
				switch {
				case tc.want == "" && err != nil:
					t.Fatalf("unexpected error %v", err)
				case tc.want != "" && !errors.Is(err, ErrInvalid):
					t.Fatalf("error %v, want one wrapping ErrInvalid", err)
				case tc.want != "" && (!strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), m.Name()+":")):
					t.Errorf("error %q does not name the method and say %q", err, tc.want)
				}
			})
		}
	}
}

// TestRunNilMethod: a nil Method, or a nil pointer to a method struct (a
// *FGPWC declared and never assigned), is an error wrapping ErrInvalid
// from Run and SetKnobs, and has no knobs; before, Run and SetKnobs
// panicked calling its Uses or Name, and checkKnobs's own nil check called
// m.Name() on the nil pointer.
func TestRunNilMethod(t *testing.T) {
	g, _ := roMoons(t, 20, 1)
	var nilFGPWC *FGPWC
	var nilNJW *NJW
	for _, tc := range []struct {
		name string
		m    Method
		want string
	}{
		{"nil interface", nil, "no method"},
		{"nil *FGPWC", nilFGPWC, "nil method *cluster.FGPWC"},
		{"nil *NJW", nilNJW, "nil method *cluster.NJW"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("Run panicked: %v", r)
					}
				}()
				_, err := Run(context.Background(), tc.m, &Problem{Graph: g, K: 2}, nil)
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("Run: error %v, want ErrInvalid saying %q", err, tc.want)
				}
			}()
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("SetKnobs panicked: %v", r)
					}
				}()
				_, err := SetKnobs(tc.m, []string{"M=3"})
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("SetKnobs: error %v, want ErrInvalid saying %q", err, tc.want)
				}
			}()
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("Knobs panicked: %v", r)
					}
				}()
				if k := Knobs(tc.m); tc.m == nil && k != nil {
					t.Errorf("Knobs(nil) = %v, want none", k)
				}
			}()
		})
	}
}

// Pairwise constraints that contradict each other get one warning from
// every method that reads pairs and runs on them: Run's (contradictions),
// or the method's own account of how it resolved them (Uses.Resolves);
// opplc, which reads cannot-links only, and consistent constraints get
// none. The counts in Run's warning are those
// of constraint.Check.
func TestRunWarnsAboutContradictions(t *testing.T) {
	ctx := context.Background()
	const want = "fixed: the pairwise constraints contradict each other, so no partition satisfies them all: " +
		"2 pairs are both must-links and cannot-links, and 1 cannot-link joins nodes that a chain of must-links puts together (constraint.Check lists them); " +
		"fixed does not resolve them. constraint.Resolve drops them by a policy (constraint.DropConflictingCannotLinks keeps the must-links); ml-noa-ssc and mcl-noa-ssc resolve them unless NoResolve is set"
	base := badInputBase(t)
	p := &Problem{Graph: base.Graph, K: 2, Constraints: &constraint.Set{N: 8, Pairs: []constraint.Pair{
		mlPair(0, 1), clPair(1, 0), mlPair(2, 3), clPair(2, 3), mlPair(4, 5), mlPair(5, 6), clPair(4, 6), clPair(0, 7)}}}
	res, err := Run(ctx, fixedMethod{uses: Uses{Supervision: Pairs}}, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Warnings, "\n"); got != "method warning\n"+want {
		t.Errorf("warnings\n%s\nwant\nmethod warning\n%s", got, want)
	}
	if res, err := Run(ctx, fixedMethod{uses: Uses{Supervision: Pairs, Resolves: true}}, p, nil); err != nil || len(res.Warnings) != 1 {
		t.Errorf("a method that resolves: warnings %q, error %v; want only its own", res.Warnings, err)
	}

	methods := []Method{MLNOASSC{NoResolve: true}, MCLNOASSC{NoResolve: true}}
	for _, info := range Methods() {
		methods = append(methods, info.New())
	}
	for _, tc := range []struct {
		name  string
		pairs *constraint.Set
		want  int
	}{
		{"consistent", base.Constraints, 0},
		{"one pair both kinds", badPairs(mlPair(0, 1), clPair(1, 0), mlPair(4, 5), clPair(2, 6), clPair(3, 7)), 1},
		{"cannot-link in a must-link chain", badPairs(mlPair(0, 1), mlPair(1, 2), clPair(0, 2), mlPair(4, 5), clPair(3, 7), clPair(1, 6)), 1},
	} {
		for _, m := range methods {
			u := m.Uses()
			if u.Supervision&Pairs == 0 {
				continue
			}
			q := badInputFor(base, u)
			q.Labels = nil
			q.Constraints = tc.pairs
			res, err := runBad(m, q, &Settings{Seed: 1})
			if err != nil {
				// sl and cosc refuse some contradictions (ErrInvalid).
				if !errors.Is(err, ErrInvalid) {
					t.Errorf("%s %s: %v", tc.name, m.Name(), err)
				}
				continue
			}
			n := 0
			for _, w := range res.Warnings {
				if strings.Contains(w, "contradict each other") {
					n++
				}
			}
			want := tc.want
			if m.Name() == "opplc" {
				want = 0 // it reads cannot-links only: nothing contradicts them
			}
			if n != want {
				t.Errorf("%s %s (Resolves %v): %d warnings on contradictions, want %d: %q", tc.name, m.Name(), u.Resolves, n, want, res.Warnings)
			}
		}
	}
}

// Auto gives one warning about contradictory pairs whichever candidate it
// returns: Run's for a chosen constrained candidate that does not
// resolve them (named by it), its own for an unconstrained partition.
// The two seeds of XOR data make auto return one of each (checked, so
// that both paths stay covered): fast-ge and bethe, on 20-NN graphs that
// are connected. (The 10-NN graphs of XOR(200, 0.2) used before have a
// component per cloud, four for k = 2, so that njw's embedding is zero on
// two of them; since normalizeRows leaves such rows at zero, auto chose a
// constrained candidate on all of seeds 1–16.)
func TestAutoWarnsOnceAboutContradictions(t *testing.T) {
	// Heavy, deterministic (no clock, memory count or package state):
	// beside the others like it, after the sequential tests.
	t.Parallel()
	kinds := map[bool]bool{} // chose a constrained candidate → seen
	for _, seed := range []uint64{3, 4} {
		x, truth, err := synth.XOR(200, 0.3, rand.NewPCG(seed, 1))
		if err != nil {
			t.Fatal(err)
		}
		g := roKNNGraph(t, x, 20)
		var pairs []constraint.Pair
		for i := 0; i+3 < len(truth); i += 2 {
			kind := constraint.CannotLink
			if truth[i] == truth[i+3] {
				kind = constraint.MustLink
			}
			pairs = append(pairs, constraint.Pair{I: i, J: i + 3, Kind: kind})
		}
		// One contradiction: the first pair again, of the other kind.
		q := pairs[0]
		q.Kind = constraint.MustLink + constraint.CannotLink - q.Kind
		pairs = append(pairs, q)
		res, err := Run(context.Background(), Auto{}, &Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: len(truth), Pairs: pairs}}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		rep := res.Report.(*AutoReport)
		chosen := rep.Candidates[slices.IndexFunc(rep.Candidates, func(c AutoCandidate) bool { return c.Name == rep.Chosen })]
		kinds[chosen.Supervised] = true
		var got []string
		for _, w := range res.Warnings {
			if strings.Contains(w, "contradict each other") {
				got = append(got, w)
			}
		}
		if len(got) != 1 {
			t.Errorf("seed %d, auto chose %s: %d warnings about contradictions, want 1: %q", seed, chosen.Name, len(got), got)
			continue
		}
		who := "auto"
		if chosen.Supervised {
			who = chosen.Method
		}
		if !strings.HasPrefix(got[0], who+": ") {
			t.Errorf("seed %d, auto chose %s: the warning %q is not %s's", seed, chosen.Name, got[0], who)
		}
	}
	if !kinds[true] || !kinds[false] {
		t.Errorf("auto chose a constrained candidate: %v, an unconstrained one: %v; want both (pick other seeds)", kinds[true], kinds[false])
	}
}

// A partition with fewer clusters than the partial labels have classes
// gets a warning; one with as many, or more, does not.
func TestRunWarnsAboutFewerClustersThanClasses(t *testing.T) {
	labels := constraint.Labels{0, -1, 1, -1, 2, 2}
	for _, tc := range []struct {
		k    int
		want string
	}{
		{1, "m: 1 cluster for the 3 classes of the partial labels: labelled nodes of different classes share a cluster: ask for one cluster a class (Problem.K)"},
		{2, "m: 2 clusters for the 3 classes of the partial labels"},
		{3, ""},
		{4, ""},
	} {
		got := fewerClustersThanClasses("m", labels, tc.k, nil)
		if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
			t.Errorf("k = %d: %q, want %q", tc.k, got, tc.want)
		}
	}
	if got := fewerClustersThanClasses("m", nil, 1, nil); got != "" {
		t.Errorf("no labels: %q", got)
	}
}
