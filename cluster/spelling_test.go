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

// serveSpelling spells the remedies as tether serve's runSpelling does
// for uploaded data (internal/server, which this package cannot import;
// its TestRunSpelling pins the same words): the page's controls, the
// upload options self_loops and normalize_weights, the cluster request's
// regularize, disconnected and knobs, and nothing for -conflicts,
// -repair and -max-full.
type serveSpelling struct{}

func (serveSpelling) Remedy(flag string, values ...string) string {
	var what string
	switch flag {
	case "k":
		what = `the page's "k" box`
	case "method":
		what = "the page's method menu"
	case "self-loops":
		what = `load the data again with the option self_loops, the page's "self loops" box`
	case "normalize-weights":
		what = `load the data again with the option normalize_weights, the page's "normalize weights" box`
	case "regularize", "disconnected":
		what = fmt.Sprintf("the cluster request's %q: %q", flag, strings.Join(values, `" or "`))
	case "set":
		name, value, _ := strings.Cut(strings.Join(values, ""), "=")
		what = fmt.Sprintf(`the cluster request's "knobs": {%q: %q}`, name, value)
	default:
		return ""
	}
	return "serve: " + what
}

// TestSpelledRemedies builds every error and warning of Run and the
// methods that suggests a remedy through each front end's spelling
// (Settings.Spelling): the library's (nil), tether's command line
// (dataset.Spelling with CommandLine), a job's (its JSON fields
// self_loops, k, method, scale, knobs and normalize_weights, as
// job.Spelling gives them) and tether serve's (serveSpelling, as
// internal/server's runSpelling, tested there too). Each message must
// name the library's remedy, the front end's option where it has one
// (tether cluster's -regularize, -disconnected, -conflicts, -repair, -set
// and -normalize-weights among them: a job has knobs and
// normalize_weights, serve regularize, disconnected, knobs and
// normalize_weights), and no other front end's spelling. The messages
// reached through Run (cosc's, sl's, csp's, auto's, Run's own on
// contradictory pairs) check that the Settings reach the method; the
// others are built by the functions that word them.
func TestSpelledRemedies(t *testing.T) {
	ctx := context.Background()
	fronts := []struct {
		name string
		sp   Spelling
		// others are words of the other front ends, which its messages
		// must not hold.
		others []string
	}{
		{"library", nil, []string{"tether", "job:", "serve:", "(-", "; -", "cluster request", `"knobs"`}},
		{"cli", dataset.Spelling{Front: "tether", CommandLine: true}, []string{"job:", "serve:", "cluster request", `"k"`, `"method"`, `"self_loops"`, `"knobs"`, `"normalize_weights"`, `"regularize"`, `"disconnected"`}},
		{"job", dataset.Spelling{Front: "job", Style: dataset.StyleJSON, Label: "label", KNN: "knn", Constraints: "constraints", PartialLabels: "labels",
			Scale: "scale", SelfLoops: "self_loops", K: "k", Method: "method", Knobs: "knobs", NormalizeWeights: "normalize_weights"}, []string{"tether", "serve:", "(-", "; -", "cluster request", `"regularize"`, `"disconnected"`}},
		{"serve", serveSpelling{}, []string{"tether", "job:", "(-", "; -", `"knobs": [`, `"self_loops"`, `"normalize_weights"`}},
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
			"serve":   `add self loops (graph.WithSelfLoops; serve: load the data again with the option self_loops, the page's "self loops" box) or drop the nodes of degree 0`,
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
			"serve":   `; strict handling of disconnected graphs (Problem.Disconnected = DisconnectedStrict; serve: the cluster request's "disconnected": "strict") gives the method the nodes of degree 0: add self loops (graph.WithSelfLoops; serve: load the data again with the option self_loops, the page's "self loops" box), drop the node, or use a method that regularizes it`,
		}},
		{"njw told not to regularize", func(t *testing.T, s *Settings) string {
			err := isolatedInvalid("njw", Uses{}, &Problem{K: 2}, fmt.Errorf("njw: node 5 has degree 0; add self loops or drop the node: %w", graph.ErrIsolated), s)
			return err.Error()
		}, map[string]string{
			"library": "add them (graph.WithSelfLoops), or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn)",
			"cli":     "add them (graph.WithSelfLoops; tether: -self-loops), or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn; tether: -regularize auto)",
			"job":     `add them (graph.WithSelfLoops; job: "self_loops"), or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn)`,
			"serve":   `add them (graph.WithSelfLoops; serve: load the data again with the option self_loops, the page's "self loops" box), or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn; serve: the cluster request's "regularize": "auto")`,
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
			"serve":   "resolve the contradiction first (constraint.Resolve), or use a method that resolves it",
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
			"serve":   "constraint.Resolve drops them by a policy (constraint.DropConflictingCannotLinks keeps the must-links); ml-noa-ssc",
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
			"serve":   "run a method by name to use them without a choice (cluster.New(name), or its type such as cluster.SpectralLearning{}; serve: the page's method menu)",
		}},
		{"fewer clusters than classes", func(t *testing.T, s *Settings) string {
			return fewerClustersThanClasses("m", constraint.Labels{0, 1, 2}, 1, s)
		}, map[string]string{
			"library": "share a cluster: ask for one cluster a class (Problem.K)",
			"cli":     "share a cluster: ask for one cluster a class (Problem.K; tether: -k)",
			"job":     `share a cluster: ask for one cluster a class (Problem.K; job: "k")`,
			"serve":   `share a cluster: ask for one cluster a class (Problem.K; serve: the page's "k" box)`,
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
			"serve":   `give k (Problem.K; serve: the page's "k" box) to partition it anyway`,
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
			"serve":   "try another method or a denser graph; on sparse graphs, NJW, which regularizes L_sym by default, or the Bethe Hessian (cluster.NJW or cluster.BetheHessian; serve: the page's method menu)",
		}},
		{"collapsed partition of njw", func(t *testing.T, s *Settings) string {
			return collapsed("njw", &Problem{K: 2}, collapsedResult(), s)
		}, map[string]string{
			"library": "try another method or graph; on sparse graphs regularization helps (Problem.Regularize with Mode graph.RegOn and Tau 0, the mean degree, or larger)",
			"cli":     "try another method or graph; on sparse graphs regularization helps (Problem.Regularize with Mode graph.RegOn and Tau 0, the mean degree, or larger; tether: -regularize mean or a larger number τ)",
			"job":     "try another method or graph; on sparse graphs regularization helps (Problem.Regularize with Mode graph.RegOn and Tau 0, the mean degree, or larger)",
			"serve":   `try another method or graph; on sparse graphs regularization helps (Problem.Regularize with Mode graph.RegOn and Tau 0, the mean degree, or larger; serve: the cluster request's "regularize": "mean" or a larger number τ)`,
		}},
		{"collapsed partition of njw told not to regularize", func(t *testing.T, s *Settings) string {
			return collapsed("njw", &Problem{K: 2, Regularize: graph.Regularization{Mode: graph.RegNone}}, collapsedResult(), s)
		}, map[string]string{
			"library": "try another method or graph, or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn)",
			"cli":     "try another method or graph, or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn; tether: -regularize auto)",
			"job":     "try another method or graph, or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn)",
			"serve":   `try another method or graph, or leave the regularization on (Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn; serve: the cluster request's "regularize": "auto")`,
		}},
		{"collapsed partition of bethe", func(t *testing.T, s *Settings) string {
			return collapsed("bethe", &Problem{K: 2}, collapsedResult(), s)
		}, map[string]string{
			"library": "try another method or a denser graph; on graphs that are not sparse, NJW (cluster.NJW)",
			"cli":     "try another method or a denser graph; on graphs that are not sparse, NJW (cluster.NJW; tether: -method njw)",
			"job":     `try another method or a denser graph; on graphs that are not sparse, NJW (cluster.NJW; job: "method": "njw")`,
			"serve":   "try another method or a denser graph; on graphs that are not sparse, NJW (cluster.NJW; serve: the page's method menu)",
		}},
		{"fast-ge2-bh against its supervision", func(t *testing.T, s *Settings) string {
			p := &Problem{K: 2, Labels: constraint.Labels{0, 0, 1, 1}}
			return FastGE2BH{Variant: BetheLN}.disagreement(p, []int{0, 1, 0, 1}, 2, s)
		}, map[string]string{
			"library": "try the default, Variant both (FastGE2BH.Variant = BetheBoth), or fast-ge2",
			"cli":     "try the default, Variant both (FastGE2BH.Variant = BetheBoth; tether: -set Variant=both), or fast-ge2",
			"job":     `try the default, Variant both (FastGE2BH.Variant = BetheBoth; job: "knobs": ["Variant=both"]), or fast-ge2`,
			"serve":   `try the default, Variant both (FastGE2BH.Variant = BetheBoth; serve: the cluster request's "knobs": {"Variant": "both"}), or fast-ge2`,
		}},
		{"weights' scale", func(t *testing.T, s *Settings) string {
			return s.normalizeRemedy()
		}, map[string]string{
			"library": "(graph.Graph.Normalized)",
			"cli":     "(graph.Graph.Normalized; tether: -normalize-weights)",
			"job":     `(graph.Graph.Normalized; job: "normalize_weights": true)`,
			"serve":   `(graph.Graph.Normalized; serve: load the data again with the option normalize_weights, the page's "normalize weights" box)`,
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
			"serve":   "; cluster.Settings.Repair = RepairAlways raises it to",
		}},
	} {
		for _, f := range fronts {
			t.Run(c.name+"/"+f.name, func(t *testing.T) {
				want, ok := c.want[f.name]
				if !ok {
					t.Fatalf("no wording given for %s", f.name)
				}
				msg := c.msg(t, &Settings{Seed: 1, Spelling: f.sp})
				if !strings.Contains(msg, want) {
					t.Errorf("message\n%s\nwant it to hold\n%s", msg, want)
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
