package cluster

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
)

// TestSpelledRemedies builds every error and warning of Run and the
// methods that suggests a remedy through each front end's spelling
// (Settings.Spelling): the library's (nil), tether's command line
// (dataset.Spelling with CommandLine) and a job's (its JSON fields self_loops, k,
// method and scale, as job.Spelling gives them; tether serve's is
// internal/server's runSpelling, tested there). Each message must name
// the library's remedy, the front end's option where it has one, and no
// other front end's spelling. The messages reached through Run (cosc's,
// sl's, csp's, auto's, Run's own on contradictory pairs) check that the
// Settings reach the method; the others are built by the functions that
// word them.
func TestSpelledRemedies(t *testing.T) {
	ctx := context.Background()
	fronts := []struct {
		name string
		sp   Spelling
		// others are words of the other front ends, which its messages
		// must not hold.
		others []string
	}{
		{"library", nil, []string{"tether", "job:", "serve:", "(-", "; -"}},
		{"cli", dataset.Spelling{Front: "tether", CommandLine: true}, []string{"job:", "serve:", `"k"`, `"method"`, `"self_loops"`}},
		{"job", dataset.Spelling{Front: "job", Style: dataset.StyleJSON, Label: "label", KNN: "knn", Constraints: "constraints", PartialLabels: "labels",
			Scale: "scale", SelfLoops: "self_loops", K: "k", Method: "method"}, []string{"tether", "serve:", "(-", "; -"}},
	}
	path := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}} // node 5 isolated
	errText := func(t *testing.T, res *Result, err error) string {
		t.Helper()
		if err == nil {
			t.Fatalf("no error; warnings %q", res.Warnings)
		}
		return err.Error()
	}
	warningWith := func(t *testing.T, res *Result, err error, part string) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range res.Warnings {
			if strings.Contains(w, part) {
				return w
			}
		}
		t.Fatalf("no warning with %q in %q", part, res.Warnings)
		return ""
	}
	for _, c := range []struct {
		name string
		msg  func(t *testing.T, s *Settings) string
		want map[string]string // by front end
	}{
		{"cosc on an edgeless graph", func(t *testing.T, s *Settings) string {
			res, err := Run(ctx, COSC{}, isolatedProblem(t, 5, nil, 2, COSC{}.Uses()), s)
			return errText(t, res, err)
		}, map[string]string{
			"library": "add self loops (graph.WithSelfLoops) or drop the nodes of degree 0",
			"cli":     "add self loops (graph.WithSelfLoops; tether: -self-loops) or drop the nodes of degree 0",
			"job":     `add self loops (graph.WithSelfLoops; job: "self_loops") or drop the nodes of degree 0`,
		}},
		{"csp strict on an isolated node", func(t *testing.T, s *Settings) string {
			p := isolatedProblem(t, 6, path, 2, CSP{}.Uses())
			p.Disconnected = DisconnectedStrict
			res, err := Run(ctx, CSP{}, p, s)
			return errText(t, res, err)
		}, map[string]string{
			"library": "; strict handling of disconnected graphs (Problem.Disconnected = DisconnectedStrict) gives the method the nodes of degree 0: add self loops (graph.WithSelfLoops), drop the node, or use a method that regularizes it",
			"cli":     "; strict handling of disconnected graphs (Problem.Disconnected = DisconnectedStrict; tether: -disconnected strict) gives the method the nodes of degree 0: add self loops (graph.WithSelfLoops; tether: -self-loops), drop the node, or use a method that regularizes it",
			"job":     `; strict handling of disconnected graphs (Problem.Disconnected = DisconnectedStrict) gives the method the nodes of degree 0: add self loops (graph.WithSelfLoops; job: "self_loops"), drop the node, or use a method that regularizes it`,
		}},
		{"njw told not to regularize", func(t *testing.T, s *Settings) string {
			err := isolatedInvalid("njw", Uses{}, &Problem{K: 2}, fmt.Errorf("njw: node 5 has degree 0; add self loops or drop the node: %w", graph.ErrIsolated), s)
			return err.Error()
		}, map[string]string{
			"library": "add them (graph.WithSelfLoops), or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn)",
			"cli":     "add them (graph.WithSelfLoops; tether: -self-loops), or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn; tether: -regularize auto)",
			"job":     `add them (graph.WithSelfLoops; job: "self_loops"), or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn)`,
		}},
		{"sl on a pair both must-link and cannot-link", func(t *testing.T, s *Settings) string {
			p := badInputBase(t)
			p.Features, p.Constraints = nil, &constraint.Set{N: 8, Pairs: []constraint.Pair{mlPair(0, 1), clPair(1, 0)}}
			res, err := Run(ctx, SpectralLearning{}, p, s)
			return errText(t, res, err)
		}, map[string]string{
			"library": "resolve the contradiction first (constraint.Resolve), or use a method that resolves it",
			"cli":     "resolve the contradiction first (constraint.Resolve; tether: -conflicts drop-cl), or use a method that resolves it",
			"job":     "resolve the contradiction first (constraint.Resolve), or use a method that resolves it",
		}},
		{"Run's warning on contradictory pairs", func(t *testing.T, s *Settings) string {
			p := badInputBase(t)
			p.Constraints = &constraint.Set{N: 8, Pairs: []constraint.Pair{mlPair(0, 1), clPair(1, 0)}}
			res, err := Run(ctx, fixedMethod{uses: Uses{Supervision: Pairs}}, p, s)
			return warningWith(t, res, err, "contradict each other")
		}, map[string]string{
			"library": "constraint.Resolve drops them by a policy (constraint.DropConflictingCannotLinks keeps the must-links); ml-noa-ssc",
			"cli":     "constraint.Resolve drops them by a policy (constraint.DropConflictingCannotLinks keeps the must-links; tether: -conflicts drop-cl); ml-noa-ssc",
			"job":     "constraint.Resolve drops them by a policy (constraint.DropConflictingCannotLinks keeps the must-links); ml-noa-ssc",
		}},
		{"auto with too little supervision", func(t *testing.T, s *Settings) string {
			p := badInputBase(t)
			p.Features, p.Constraints = nil, &constraint.Set{N: 8, Pairs: []constraint.Pair{mlPair(0, 1)}}
			res, err := Run(ctx, Auto{}, p, s)
			if err != nil {
				t.Fatal(err)
			}
			return res.Report.(*AutoReport).Why
		}, map[string]string{
			"library": "run a method by name to use them without a choice (cluster.New(name), or its type such as cluster.SpectralLearning{})",
			"cli":     "run a method by name to use them without a choice (cluster.New(name), or its type such as cluster.SpectralLearning{}; tether: -method)",
			"job":     `run a method by name to use them without a choice (cluster.New(name), or its type such as cluster.SpectralLearning{}; job: "method")`,
		}},
		{"fewer clusters than classes", func(t *testing.T, s *Settings) string {
			return fewerClustersThanClasses("m", constraint.Labels{0, 1, 2}, 1, s)
		}, map[string]string{
			"library": "share a cluster: ask for one cluster a class (Problem.K)",
			"cli":     "share a cluster: ask for one cluster a class (Problem.K; tether: -k)",
			"job":     `share a cluster: ask for one cluster a class (Problem.K; job: "k")`,
		}},
		{"bethe's k = 1", func(t *testing.T, s *Settings) string {
			g, err := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}})
			if err != nil {
				t.Fatal(err)
			}
			return betheOneCluster(g, 1.5, s)
		}, map[string]string{
			"library": "give k (Problem.K) to partition it anyway",
			"cli":     "give k (Problem.K; tether: -k) to partition it anyway",
			"job":     `give k (Problem.K; job: "k") to partition it anyway`,
		}},
		// The remedy of a collapse reaches the method (review 95):
		// Problem.Regularize for those whose embedding it regularizes,
		// another method for the others.
		{"collapsed partition of a method that does not regularize", func(t *testing.T, s *Settings) string {
			return collapsed("m", &Problem{K: 2}, collapsedResult(), s)
		}, map[string]string{
			"library": "try another method or a denser graph; on sparse graphs, NJW, which regularizes L_sym by default, or the Bethe Hessian (cluster.NJW or cluster.BetheHessian)",
			"cli":     "try another method or a denser graph; on sparse graphs, NJW, which regularizes L_sym by default, or the Bethe Hessian (cluster.NJW or cluster.BetheHessian; tether: -method njw or -method bethe)",
			"job":     `try another method or a denser graph; on sparse graphs, NJW, which regularizes L_sym by default, or the Bethe Hessian (cluster.NJW or cluster.BetheHessian; job: "method": "njw" or "method": "bethe")`,
		}},
		{"collapsed partition of njw", func(t *testing.T, s *Settings) string {
			return collapsed("njw", &Problem{K: 2}, collapsedResult(), s)
		}, map[string]string{
			"library": "try another method or graph; on sparse graphs regularization helps (Problem.Regularize with Mode graph.RegOn and Tau 0, the mean degree, or larger)",
			"cli":     "try another method or graph; on sparse graphs regularization helps (Problem.Regularize with Mode graph.RegOn and Tau 0, the mean degree, or larger; tether: -regularize mean or a larger number τ)",
			"job":     "try another method or graph; on sparse graphs regularization helps (Problem.Regularize with Mode graph.RegOn and Tau 0, the mean degree, or larger)",
		}},
		{"collapsed partition of njw told not to regularize", func(t *testing.T, s *Settings) string {
			return collapsed("njw", &Problem{K: 2, Regularize: graph.Regularization{Mode: graph.RegNone}}, collapsedResult(), s)
		}, map[string]string{
			"library": "try another method or graph, or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn)",
			"cli":     "try another method or graph, or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn; tether: -regularize auto)",
			"job":     "try another method or graph, or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn)",
		}},
		{"collapsed partition of bethe", func(t *testing.T, s *Settings) string {
			return collapsed("bethe", &Problem{K: 2}, collapsedResult(), s)
		}, map[string]string{
			"library": "try another method or a denser graph; on graphs that are not sparse, NJW (cluster.NJW)",
			"cli":     "try another method or a denser graph; on graphs that are not sparse, NJW (cluster.NJW; tether: -method njw)",
			"job":     `try another method or a denser graph; on graphs that are not sparse, NJW (cluster.NJW; job: "method": "njw")`,
		}},
		{"fast-ge2-bh against its supervision", func(t *testing.T, s *Settings) string {
			p := &Problem{K: 2, Labels: constraint.Labels{0, 0, 1, 1}}
			return FastGE2BH{Variant: BetheLN}.disagreement(p, []int{0, 1, 0, 1}, 2, s)
		}, map[string]string{
			"library": "try the default, Variant both (FastGE2BH.Variant = BetheBoth), or fast-ge2",
			"cli":     "try the default, Variant both (FastGE2BH.Variant = BetheBoth; tether: -set Variant=both), or fast-ge2",
			"job":     "try the default, Variant both (FastGE2BH.Variant = BetheBoth), or fast-ge2",
		}},
		{"weights' scale", func(t *testing.T, s *Settings) string {
			return s.normalizeRemedy()
		}, map[string]string{
			"library": "(graph.Graph.Normalized)",
			"cli":     "(graph.Graph.Normalized; tether: -normalize-weights)",
			"job":     "(graph.Graph.Normalized)",
		}},
		{"shift-and-invert over its budget", func(t *testing.T, s *Settings) string {
			g := nearlyDisconnected(t)
			op, err := graph.NewLaplacian(g, graph.Unnormalized)
			if err != nil {
				t.Fatal(err)
			}
			z := nullBasis(g, make([]int, g.N()), 1, 1, false)
			_, _, why, err := shiftInvertEmbedding(ctx, g, op, graph.Unnormalized, 3, z, []float64{0, 1e-10, 1}, 1e-7, 2*g.MaxDegree(), 0, false, shiftInvertRounds, false, s)
			if err != nil {
				t.Fatal(err)
			}
			return why
		}, map[string]string{
			"library": "; cluster.Settings.Repair = RepairAlways raises it to",
			"cli":     "; cluster.Settings.Repair = RepairAlways (tether: -repair always) raises it to",
			"job":     "; cluster.Settings.Repair = RepairAlways raises it to",
		}},
	} {
		for _, f := range fronts {
			t.Run(c.name+"/"+f.name, func(t *testing.T) {
				msg := c.msg(t, &Settings{Seed: 1, Spelling: f.sp})
				if !strings.Contains(msg, c.want[f.name]) {
					t.Errorf("message\n%s\nwant it to hold\n%s", msg, c.want[f.name])
				}
				for _, w := range f.others {
					if strings.Contains(msg, w) {
						t.Errorf("message %q names %q, another front end's", msg, w)
					}
				}
			})
		}
	}
}

// collapsedResult is a partition of 20 nodes into 2 clusters, 19 of them
// in cluster 0: a collapse (collapsed).
func collapsedResult() *Result {
	res := &Result{Labels: make([]int, 20), K: 2}
	res.Labels[19] = 1
	return res
}
