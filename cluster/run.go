package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/kmeans"
)

// Run partitions p with method m: the one lifecycle every method goes
// through, after gonum's optimize.Minimize. It checks p against m.Uses()
// (the input the method needs, the k it accepts, the consistency of the
// constraints and labels with the graph), replaces a nil s by the
// documented defaults, calls m.Partition, and fills Result.Runtime. It
// adds a warning, first in Result.Warnings, for each kind of side
// information in p that the method does not use (constraints given to an
// unsupervised method, for example) and for a graph given to a method
// that reads feature rows alone (cpca, cvqe), so that nothing is silently
// ignored, and one when a method of pairs was given none it can use
// (noPairs states the one rule: the methods that declare
// Uses.NeedsPairs are refused instead, the others run unconstrained);
// one after the method's when the pairwise constraints it reads
// contradict each other (a pair both must-link and cannot-link, or a
// cannot-link between nodes a chain of must-links joins; constraint.Check)
// and it does not resolve them (Uses.Resolves), and last ones when some
// of the k clusters are empty, when the partition has collapsed (one
// cluster holding at least 90% of n ≥ 20 nodes while k ≥ 2) and when the
// graph has no edge between distinct nodes (any partition cuts nothing:
// edgeless). What the
// method reports as information rather than a condition (the choice auto
// made, say) is in Result.Notes instead (Result states the rule).
// For a method that declares Uses.Core, a graph with isolated nodes or
// components too small to be clusters is handled by one rule (core.go):
// the method clusters the core of the graph and the other nodes are
// attached by their labels, must-links and edges, with a warning, unless
// p.Disconnected is DisconnectedStrict. With p.K = 1 (after the checks)
// no method is called: the result is the one partition into one cluster,
// with no diagnostics but the warnings about side information the method
// ignores and about the cannot-links one cluster violates.
//
// Errors wrap ErrInvalid for a nil ctx, a nil m (or nil pointer), an ill-posed
// problem (a non-finite feature entry, named by row and column, whenever
// p.Features is set, whether or not the method reads them; a method of
// pairs that declares Uses.NeedsPairs without pairs, which wraps
// ErrNoSupervision too), Settings out of range (a Restarts outside [0,
// kmeans.MaxRestarts], EigenSettings that eigen.Settings.Validate
// refuses), a node of degree 0 the method cannot take included (those wrap
// graph.ErrIsolated as well, and say what to do: add self loops, drop
// the node, or regularize), and ErrNumerical for a
// numerical failure; a cancelled ctx gives ctx.Err() before the method
// runs and, after, an error wrapping it that names the method and the
// step where it stopped (test with errors.Is, not ==; "cluster: njw:
// eigenvectors of L_sym: eigensolver: context canceled"; on the core of
// a graph, "cluster: csp: on the 20-node core of the graph (…): …").
// Cost: O(n + number of pairs) for the checks (O(n·d) with feature rows,
// O(rows·cols) with a dense bipartite matrix, O(nnz) with one that has
// Row(i) ([]int32, []float64), such as dataset.Sparse), then the
// method's.
func Run(ctx context.Context, m Method, p *Problem, s *Settings) (*Result, error) {
	return run(ctx, m, p, s, nil, nil)
}

// run is Run, with the method's partition of the graph, or of its core,
// made by hook when hook is not nil (FGPWCState.Cluster: its basis, warm
// starts and, for a state bound to the core, that core; see coreHook),
// and with the contradictions of p's pairs taken from known when it is
// not nil, instead of counted (auto counts those of a fold's training
// pairs once for all the candidates it fits on them, autoContradictions;
// known must be the counts of p.Constraints).
func run(ctx context.Context, m Method, p *Problem, s *Settings, hook *coreHook, known *pairContradictions) (*Result, error) {
	start := time.Now()
	if err := nilContext(ctx); err != nil {
		return nil, err
	}
	if err := nilMethod(m); err != nil {
		return nil, err
	}
	u := m.Uses()
	if err := validate(m.Name(), u, p); err != nil {
		return nil, err
	}
	if err := checkKnobs(m); err != nil {
		return nil, err
	}
	if err := s.validate(m.Name()); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.K != 1 {
		if _, err := noPairs(m.Name(), u, p); err != nil {
			return nil, err
		}
	}
	if p.K == 1 {
		// One cluster has one partition: no method is asked for it, so
		// that k = 1 is answered alike by every method that admits it,
		// on any graph (an edgeless one included).
		res := &Result{Labels: make([]int, p.nodes()), K: 1}
		res.Warnings = ignored(m.Name(), u, p)
		if u.Supervision&Pairs != 0 && p.Constraints != nil {
			if _, cl := p.Constraints.Count(); cl > 0 {
				res.Warnings = append(res.Warnings, fmt.Sprintf("%s: k = 1 puts every node in one cluster: %s violated", m.Name(), wording.Form(cl, "the cannot-link is", fmt.Sprintf("all %d cannot-links are", cl))))
			}
		}
		res.Runtime = time.Since(start)
		return res, nil
	}
	// The pairs' contradictions, counted once for the steps below that
	// need them: the scale of the weights (rescaled, weightScale) and the
	// warning about them (contradictions); or given.
	var c pairContradictions
	if known != nil && needsContradictions(u, p) {
		c = *known
	} else {
		var err error
		if c, err = countContradictions(ctx, m.Name(), u, p); err != nil {
			return nil, err
		}
	}
	q, scaled := p, ""
	if hook == nil {
		q, scaled = rescaled(m.Name(), u, p, c)
	}
	res, err := partitionCore(ctx, m, u, q, s.orDefault(), hook)
	if err != nil {
		return nil, tidy(isolatedInvalid(m.Name(), u, p, err, s))
	}
	if err := finish(m.Name(), u, p, c, res, start, s.orDefault()); err != nil {
		return nil, err
	}
	if scaled != "" {
		res.Notes = append(res.Notes, scaled)
	}
	return res, nil
}

// weightRangeMin and weightRangeMax bound the largest edge weight that
// Run passes as it is to a method whose partition does not depend on the
// weights' scale (Uses.WeightScale empty). Far outside, products and
// squares of weights and degrees underflow or overflow (labelprop's
// D^{-1/2}WD^{-1/2} at weights near 10⁻²⁰⁰, cosc's volumes below 10⁻¹⁷⁰,
// sscka's kernel scale above 10¹⁵⁵).
const (
	weightRangeMin = 0x1p-60
	weightRangeMax = 0x1p60
)

// rescaled returns p, or, when the method name declaring u gives the same
// partition at every scale of the weights (u.WeightScale empty), neither
// delegates to other methods nor holds state bound to the graph
// (u.Delegates, u.BoundGraph), and the
// largest edge weight of p.Graph is outside [2⁻⁶⁰, 2⁶⁰], a copy of p whose
// graph is scaled by the power of two that brings it into [½, 1)
// (graph.Graph.ScaledPow2: exact, the same partition in exact
// arithmetic), with a note saying
// so. Weights that span more than float64's normal range, so that the
// smallest would become subnormal, are left as they are. c are p's
// contradictions (countContradictions). Cost O(nnz).
func rescaled(name string, u Uses, p *Problem, c pairContradictions) (*Problem, string) {
	if scaleDependent(u, c) || u.Delegates || u.BoundGraph || p.Graph == nil || (u.Input != 0 && u.Input&GraphInput == 0) {
		return p, ""
	}
	wmin, wmax := math.Inf(1), 0.0 // positive weights, self loops included
	for i := 0; i < p.Graph.N(); i++ {
		_, w := p.Graph.Row(i)
		for _, v := range w {
			if v > 0 {
				wmin, wmax = math.Min(wmin, v), math.Max(wmax, v)
			}
		}
	}
	if !(wmax > 0) || (wmax >= weightRangeMin && wmax <= weightRangeMax) || math.IsInf(wmax, 0) {
		return p, ""
	}
	_, e := math.Frexp(wmax) // wmax = f·2^e, f ∈ [½, 1)
	if math.Ldexp(wmin, -e) < 0x1p-1022 {
		// The weights span more than float64's normal range: scaled,
		// the smallest would lose digits or vanish (an edge dropped).
		// The method runs on them as they are.
		return p, ""
	}
	q := *p
	q.Graph = p.Graph.ScaledPow2(-e)
	// A τ given as a number is on the weights' scale (the mean degree,
	// Tau = 0, scales with them).
	q.Regularize.Tau = math.Ldexp(p.Regularize.Tau, -e)
	q.weightExp = p.weightExp + e
	return &q, fmt.Sprintf("%s: the edge weights (largest %.4g) were multiplied by 2^%d before clustering, so that the largest is in [½, 1): %s's partition does not depend on their scale, and products of weights and degrees stay in floating-point range at this one; Result.Objective is that of the scaled graph", name, wmax, -e, name)
}

// nilContext returns an error wrapping ErrInvalid when ctx is nil, which
// the context package forbids and on which ctx.Err() panics. Run, the
// Partition method of every registered method (through partitionArgs)
// and every other exported entry point of the package that takes a
// context call it first (TestNilContext checks the registry's methods).
// Cost O(1).
func nilContext(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("%w: nil context (pass context.Background() or context.TODO())", ErrInvalid)
	}
	return nil
}

// partitionArgs checks the arguments of the Partition method of m, which
// a caller may reach without Run: it returns an error wrapping ErrInvalid
// for a nil ctx (nilContext), a nil p, or a nil p.Graph when m clusters a
// graph (m.Uses().Input has GraphInput, or is 0), each named, and for
// everything else Run refuses before calling a method (validate:
// indices, k, sizes and values of the Problem; checkKnobs; Settings out
// of range), instead of the panic or silent answer the method would
// give; otherwise it returns s, or the zero Settings (every default)
// when s is nil, as Run passes them. The Partition method of every
// registered method calls it first (TestPartitionNilArguments, and
// TestRegistryMethodsRefuseMalformedProblems through entryPoints, check
// the registry). On Run's path it refuses nothing: Run has checked the
// same Problem, or the core's sub-problem that it builds from one. Cost
// that of validate, O(n + number of pairs) for a graph problem
// (O(n·d) with feature rows, O(rows·cols) with a dense bipartite
// matrix), small beside any method's.
func partitionArgs(ctx context.Context, m Method, p *Problem, s *Settings) (*Settings, error) {
	if err := nilContext(ctx); err != nil {
		return nil, err
	}
	if p == nil {
		return nil, fmt.Errorf("%w: %s: no problem (nil *Problem)", ErrInvalid, m.Name())
	}
	u := m.Uses()
	if in := u.Input; (in == 0 || in&GraphInput != 0) && p.Graph == nil {
		return nil, fmt.Errorf("%w: %s: no graph (nil Problem.Graph)", ErrInvalid, m.Name())
	}
	if err := validate(m.Name(), u, p); err != nil {
		return nil, err
	}
	if err := checkKnobs(m); err != nil {
		return nil, err
	}
	if err := s.validate(m.Name()); err != nil {
		return nil, err
	}
	return s.orDefault(), nil
}

// finish completes res, the partition of p by the method name declaring u,
// as Run does after the method: it refuses a Result that is not a finite
// partition (checkResult), numbers the clusters by the classes of the
// partial labels when p has them (alignToLabels), puts the warnings about side information the
// method ignores first, then the method's, then one about contradictory
// pairs (contradictions) and one about fewer clusters than labelled
// classes (fewerClustersThanClasses), and those about empty clusters and
// a collapse last, moves the messages the method marked as notes to Result.Notes
// (moveNotes), and sets Runtime to the time since start. c are p's
// contradictions, which Run counts once before the method
// (countContradictions). The warnings name their remedies as s spells
// them (Settings.NormalizeRemedy, Settings.Spelling); s is not nil. Cost
// O(n·m) for an n×m embedding.
func finish(name string, u Uses, p *Problem, c pairContradictions, res *Result, start time.Time, s *Settings) error {
	if err := checkResult(name, p, res); err != nil {
		return err
	}
	alignToLabels(res.Labels, res.K, p.Labels)
	w := ignored(name, u, p)
	if msg, _ := noPairs(name, u, p); msg != "" {
		w = append(w, msg)
	}
	if len(w) > 0 {
		res.Warnings = append(w, res.Warnings...)
	}
	if w := contradictions(name, u, p, c, s); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	if w := weightScale(name, u, p, c, s.normalizeRemedy()); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	if !u.Delegates {
		// A delegating method's chosen candidate gave these.
		if w := fewerClustersThanClasses(name, p.Labels, res.K, s); w != "" {
			res.Warnings = append(res.Warnings, w)
		}
		if w := emptyClusters(name, res); w != "" {
			res.Warnings = append(res.Warnings, w)
		}
		if w := collapsed(name, p, res, s); w != "" {
			res.Warnings = append(res.Warnings, w)
		}
		if w := edgeless(name, u, p); w != "" && !slices.ContainsFunc(res.Warnings, func(m string) bool { return strings.Contains(m, edgelessWords) }) {
			// Unless the method said it in its own words (bethe,
			// hbisect).
			res.Warnings = append(res.Warnings, w)
		}
	}
	moveNotes(res)
	res.Runtime = time.Since(start)
	return nil
}

// noteMark begins a message that a method puts in its one list of
// messages (Result.Warnings, and the warnings of its embeddings, folds
// and solves on the way) but that is a note (see Result.Notes): finish
// moves such messages to Result.Notes, unmarked, so that the code that
// gathers messages through many helpers needs no second list, and no
// helper on the way can drop a note while keeping the warnings. The mark
// never leaves Run (nor FGPWCState.Cluster); a Partition called directly,
// which Method documents against, shows it as the words "note: " before
// the message, which reads as what it is. No warning begins so
// (TestNoWarningLooksLikeANote).
const noteMark = "note: "

// note returns msg marked as a note for finish (noteMark). Cost O(len(msg)).
func note(msg string) string { return noteMark + msg }

// moveNotes moves the messages of res.Warnings marked by note to the end
// of res.Notes, unmarked, keeping the order of each list. res.Warnings is
// replaced, not edited in place: it may share its array with a method's
// cached state. Cost O(number of messages).
func moveNotes(res *Result) {
	var kept []string
	marked := false
	for _, w := range res.Warnings {
		if msg, ok := strings.CutPrefix(w, noteMark); ok {
			res.Notes = append(res.Notes, msg)
			marked = true
		} else {
			kept = append(kept, w)
		}
	}
	if marked {
		res.Warnings = kept
	}
}

// isolatedInvalid returns err, wrapped in ErrInvalid too when it wraps
// graph.ErrIsolated and not ErrInvalid: a method refused a node of degree
// 0 (or, for csc, of signed degree 0), where D^{-1/2} or D^{-1} is
// undefined. The node comes from the caller's graph, so the problem is
// invalid for the method, not a numerical failure of it; the CLI and the
// server then answer it as the caller's error. The message keeps err's,
// which names the node, and says why the core rule (core.go) did not set
// the node aside and what to do, once: when err's message advises self
// loops already (the graph package's Laplacians do, "add self loops or
// drop the node"), only how to add them and the methods that regularize
// the node are added. Methods whose own error wraps ErrInvalid (cosc,
// fgpwc, l1csc) say what to do themselves. This is the one place where that
// classification is made, for every method: those that declare Uses.Core
// reach it on a graph where fewer than max(k, 2) nodes have an edge (the
// core is then every node) or with DisconnectedStrict, the label methods
// on a labelled isolated node. The remedies are named as s spells them
// (Settings.Spelling; s may be nil). Cost O(n) on the error path only.
func isolatedInvalid(name string, u Uses, p *Problem, err error, s *Settings) error {
	if !errors.Is(err, graph.ErrIsolated) || errors.Is(err, ErrInvalid) {
		return err
	}
	why := ""
	if g := p.Graph; g != nil {
		linked := 0
		for i := 0; i < g.N(); i++ {
			if g.Degree(i) != 0 {
				linked++
			}
		}
		switch {
		case linked == g.N():
		case u.Core && p.Disconnected == DisconnectedStrict:
			why = "; strict handling of disconnected graphs " + s.remedy("Problem.Disconnected = DisconnectedStrict", "disconnected", "strict") + " gives the method the nodes of degree 0"
		case u.Core && linked < max(p.K, 2):
			why = fmt.Sprintf("; the core rule keeps every node, since only %d of the %d nodes %s an edge, fewer than max(k, 2) = %d", linked, g.N(), wording.Form(linked, "has", "have"), max(p.K, 2))
		}
	}
	regularize := "use a method that regularizes it (njw, ncut, cscap, ccsr)"
	if regularizedEmbedding(name) {
		// The method regularizes unless told not to.
		regularize = "leave the regularization on " + s.remedy("Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn", "regularize", "auto")
	}
	advice := "add self loops " + s.selfLoops() + ", drop the node, or " + regularize
	if strings.Contains(err.Error(), "self loops") {
		advice = "add them " + s.selfLoops() + ", or " + regularize
	}
	return &pkgError{prefix: "invalid problem: ", err: err, tail: why + ": " + advice, also: ErrInvalid}
}

// emptyClusters returns a warning when some of the clusters 0…res.K−1 of
// res hold no node: a partition into fewer clusters than asked, which the
// labels alone do not show. It happens when k exceeds the structure the
// input allows (identical feature rows, must-links joining the nodes, a
// graph with fewer than k parts for the method to find). One check for
// every method, so that none needs its own. Cost O(n + k).
func emptyClusters(name string, res *Result) string {
	if used := nonEmptyClusters(res.Labels, res.K); used < res.K {
		return fmt.Sprintf("%s: only %d of the k = %d clusters %s non-empty (identical rows, must-links or the graph leave the others without a node): ask for fewer clusters", name, used, res.K, wording.Form(used, "is", "are"))
	}
	return ""
}

// collapsedShare is the share of the nodes in one cluster from which Run
// warns that a partition into k ≥ 2 clusters may have collapsed.
const collapsedShare = 0.9

// edgelessWords are the words of every warning of a graph without an edge
// between distinct nodes, edgeless's and the methods' own (bethe,
// hbisect): finish gives edgeless's only when the method gave none.
const edgelessWords = "no edge between distinct nodes"

// edgeless returns a warning when the method name, which clusters the
// graph (u.Input), was given a graph of n ≥ 2 nodes without an edge
// between distinct nodes: every partition then cuts nothing, so the
// graph says nothing about the clusters, and the partition follows the
// method's start (an arbitrary split, ncut's 5 + 1 of six isolated nodes)
// and the side information, if the method reads any. Such a result was
// returned with a note on the regularization only. "" otherwise. Cost
// O(nnz).
func edgeless(name string, u Uses, p *Problem) string {
	g := p.Graph
	if g == nil || g.N() < 2 || (u.Input != 0 && u.Input&GraphInput == 0) {
		return ""
	}
	for i := 0; i < g.N(); i++ {
		idx, _ := g.Row(i)
		for _, j := range idx {
			if int(j) != i {
				return ""
			}
		}
	}
	follows := "an arbitrary split (the method's start)"
	if u.Supervision&Pairs != 0 && p.Constraints != nil && len(p.Constraints.Pairs) > 0 || u.Supervision&LabelSet != 0 && p.Labels != nil {
		follows = "the side information alone, and the method's start where that leaves a choice"
	}
	return fmt.Sprintf("%s: the graph has %s (%d nodes), so every partition cuts nothing and the graph says nothing about the clusters: the partition is %s", name, edgelessWords, g.N(), follows)
}

// collapsed returns a warning when the largest cluster of res holds at
// least collapsedShare of its n ≥ 20 nodes while res.K ≥ 2: the classic
// failure of spectral methods on sparse or disconnected graphs (one giant
// cluster and a few tiny ones; issue 19), which a user without ground truth
// cannot see in the labels. Classes that unequal are possible, so it is a
// warning, not an error. The remedy it suggests is one that reaches the
// method name (review 95): regularization for the methods whose partition
// is built on a regularized embedding (regularizedEmbedding; leaving it on
// when p turned it off), else a method that regularizes L_sym, the Bethe
// Hessian (made for sparse graphs), or a denser graph: Problem.Regularize
// changes nothing for the others. Cost O(n + k).
func collapsed(name string, p *Problem, res *Result, s *Settings) string {
	n := len(res.Labels)
	if res.K < 2 || n < 20 {
		return ""
	}
	sizes := make([]int, res.K)
	for _, c := range res.Labels {
		sizes[c]++
	}
	big := 0
	for c, sz := range sizes {
		if sz > sizes[big] {
			big = c
		}
	}
	share := float64(sizes[big]) / float64(n)
	if share < collapsedShare {
		return ""
	}
	others := "the other cluster holds"
	if res.K > 2 {
		others = fmt.Sprintf("the other %d clusters hold", res.K-1)
	}
	var remedy string
	switch {
	case regularizedEmbedding(name) && p.Regularize.Mode == graph.RegNone:
		remedy = "try another method or graph, or leave the regularization on " + s.remedy("Problem.Regularize with Mode graph.RegAuto, the default, or graph.RegOn", "regularize", "auto")
	case regularizedEmbedding(name):
		front := s.front("regularize", "mean")
		if front != "" {
			front = "; " + front + " or a larger number τ"
		}
		remedy = "try another method or graph; on sparse graphs regularization helps (Problem.Regularize with Mode graph.RegOn and Tau 0, the mean degree, or larger" + front + ")"
	case name == "bethe":
		remedy = "try another method or a denser graph; on graphs that are not sparse, NJW " + s.remedy("cluster.NJW", "method", "njw")
	default:
		// Problem.Regularize does not reach this method's partition.
		remedy = "try another method or a denser graph; on sparse graphs, NJW, which regularizes L_sym by default, or the Bethe Hessian " + s.remedy("cluster.NJW or cluster.BetheHessian", "method", "njw", "bethe")
	}
	return fmt.Sprintf("%s: cluster %d holds %.1f%% of the %d nodes and %s %d: unless the classes are that unequal, the partition has collapsed: %s", name, big, 100*share, n, others, n-sizes[big], remedy)
}

// regularizedEmbedding reports whether the partition of the method name
// is built on a k-way spectral embedding of the normalized Laplacian that
// Problem.Regularize regularizes: njw, ncut, cscap and ccsr. (auto and
// ml- and mcl-noa-ssc read Problem.Regularize too, Uses.Regularizes, but
// pass it on to their candidates or to a step beside their own
// partition.) Cost O(1).
func regularizedEmbedding(name string) bool {
	switch name {
	case "njw", "ncut", "cscap", "ccsr":
		return true
	}
	return false
}

// ErrNumerical is wrapped by errors reporting a numerical failure: a
// result whose objective, eigenvalues or embedding are not finite, which
// no method returns on valid input and which Run never passes on as a
// partition.
var ErrNumerical = errors.New("cluster: numerical failure")

// checkResult rejects a Result that is not a partition of p's nodes into
// 0…K−1, or whose Objective, Eigenvalues or Embedding holds a NaN or an
// infinity. Cost O(n·m) for an n×m embedding.
func checkResult(name string, p *Problem, res *Result) error {
	if res == nil {
		return fmt.Errorf("%w: %s returned no result", ErrNumerical, name)
	}
	if math.IsNaN(res.Objective) || math.IsInf(res.Objective, 0) {
		return fmt.Errorf("%w: %s: objective = %v; a knob or the data may be out of floating-point range", ErrNumerical, name, res.Objective)
	}
	for j, v := range res.Eigenvalues {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: %s: eigenvalue %d = %v; a knob or the data may be out of floating-point range", ErrNumerical, name, j, v)
		}
	}
	if res.Embedding != nil {
		if err := finiteRows(res.Embedding); err != nil {
			return fmt.Errorf("%w: %s: embedding %v; a knob or the data may be out of floating-point range", ErrNumerical, name, strings.Replace(err.Error(), "feature", "entry", 1))
		}
	}
	n := p.nodes()
	if len(res.Labels) != n {
		return fmt.Errorf("%w: %s returned %d labels for %d nodes", ErrNumerical, name, len(res.Labels), n)
	}
	for i, c := range res.Labels {
		if c < 0 || c >= res.K {
			return fmt.Errorf("%w: %s: node %d has cluster %d, want 0…%d", ErrNumerical, name, i, c, res.K-1)
		}
	}
	return nil
}

// validate returns an error wrapping ErrInvalid, naming the method and the
// field, when s (nil: the defaults) has a Restarts outside [0,
// kmeans.MaxRestarts], EigenSettings out of range (eigen.Settings.Validate),
// a negative MaxBlockBytes or an unknown Repair: the caller's mistake, refused before the method
// runs rather than ignored by the methods that read neither, or reported
// as an internal failure of k-means or of the eigensolver by the others.
// Cost O(1).
func (s *Settings) validate(name string) error {
	if s == nil {
		return nil
	}
	if s.Restarts < 0 {
		return fmt.Errorf("%w: %s: Settings.Restarts = %d, want ≥ 0 (0: the method's default)", ErrInvalid, name, s.Restarts)
	}
	if s.Restarts > kmeans.MaxRestarts {
		return fmt.Errorf("%w: %s: Settings.Restarts = %d, want ≤ kmeans.MaxRestarts = %d", ErrInvalid, name, s.Restarts, kmeans.MaxRestarts)
	}
	if err := s.EigenSettings.Validate(); err != nil {
		return fmt.Errorf("%w: %s: Settings.EigenSettings: %w", ErrInvalid, name, err)
	}
	if s.MaxBlockBytes < 0 {
		return fmt.Errorf("%w: %s: Settings.MaxBlockBytes = %d, want ≥ 0 (0: no bound)", ErrInvalid, name, s.MaxBlockBytes)
	}
	if s.Repair < RepairAuto || s.Repair > RepairNever {
		return fmt.Errorf("%w: %s: Settings.Repair = %d, want RepairAuto, RepairAlways or RepairNever", ErrInvalid, name, int(s.Repair))
	}
	return nil
}

// KEstimators returns the names of the registered methods that estimate
// k when Problem.K is 0 (Uses.EstimatesK), in the registry's order. Cost:
// one New per method.
func KEstimators() []string {
	var names []string
	for _, m := range Methods() {
		if m.New().Uses().EstimatesK {
			names = append(names, m.Name)
		}
	}
	return names
}

// orDefault returns s, or the zero Settings (every default) when s is nil.
func (s *Settings) orDefault() *Settings {
	if s == nil {
		return &Settings{}
	}
	return s
}

// nodes returns the number of nodes of p: those of the graph, else
// rows + cols of the bipartite matrix, else the feature rows.
func (p *Problem) nodes() int {
	switch {
	case p.Graph != nil:
		return p.Graph.N()
	case p.Bipartite != nil:
		r, c := p.Bipartite.Dims()
		return r + c
	case p.Features != nil:
		r, _ := p.Features.Dims()
		return r
	}
	return 0
}

// validate checks p against what the method named name declares in u.
func validate(name string, u Uses, p *Problem) error {
	if p == nil {
		return fmt.Errorf("%w: %s: no problem", ErrInvalid, name)
	}
	in := u.Input
	if in == 0 {
		in = GraphInput
	}
	if in&GraphInput != 0 && p.Graph == nil {
		return fmt.Errorf("%w: %s: no graph", ErrInvalid, name)
	}
	if p.Disconnected > DisconnectedStrict {
		return fmt.Errorf("%w: %s: unknown disconnected-graph rule %v", ErrInvalid, name, p.Disconnected)
	}
	// The τ the caller gave: Run's rescaling (weightExp) may have taken
	// it past graph.MaxTau on the scaled weights. Exact: a power of two.
	given := p.Regularize
	given.Tau = math.Ldexp(given.Tau, p.weightExp)
	if err := given.Validate(); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrInvalid, name, err)
	}
	n := p.nodes()
	if n == 0 {
		return fmt.Errorf("%w: %s: the problem has no nodes", ErrInvalid, name)
	}
	if p.Graph != nil && p.Graph.N() != n {
		return fmt.Errorf("%w: %s: graph has %d nodes, the problem %d", ErrInvalid, name, p.Graph.N(), n)
	}
	if p.Features != nil {
		if r, _ := p.Features.Dims(); r != n {
			return fmt.Errorf("%w: %s: %d feature rows for %d nodes", ErrInvalid, name, r, n)
		}
		// Checked whether or not the method reads them (Problem.Features
		// says every entry must be finite): a NaN in rows a graph method
		// ignores is a mistake of the caller's all the same. O(n·d).
		if err := finiteRows(p.Features); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrInvalid, name, err)
		}
	} else if in&FeatureInput != 0 {
		return fmt.Errorf("%w: %s projects feature rows: Problem.Features is nil", ErrInvalid, name)
	}
	if p.Bipartite != nil {
		if v, ok := p.Bipartite.(interface{ Validate() error }); ok {
			// A hand-built dataset.Sparse with a bad Ptr panicked below.
			if err := v.Validate(); err != nil {
				return fmt.Errorf("%w: %s: Problem.Bipartite: %w", ErrInvalid, name, err)
			}
		}
		r, c := p.Bipartite.Dims()
		if r+c != n {
			return fmt.Errorf("%w: %s: bipartite matrix is %d×%d (%d nodes), the problem has %d nodes", ErrInvalid, name, r, c, r+c, n)
		}
		if sp, ok := p.Bipartite.(sparseRows); ok && in&BipartiteInput != 0 {
			// A sparse matrix: only its stored entries can be non-zero.
			for i := 0; i < r; i++ {
				idx, val := sp.Row(i)
				for q, v := range val {
					if !(v >= 0) || math.IsInf(v, 1) {
						return fmt.Errorf("%w: %s: bipartite entry (%d, %d) = %v, want finite and ≥ 0", ErrInvalid, name, i, idx[q], v)
					}
				}
			}
		} else if in&BipartiteInput != 0 {
			for i := 0; i < r; i++ {
				for j := 0; j < c; j++ {
					if v := p.Bipartite.At(i, j); !(v >= 0) || math.IsInf(v, 1) {
						return fmt.Errorf("%w: %s: bipartite entry (%d, %d) = %v, want finite and ≥ 0", ErrInvalid, name, i, j, v)
					}
				}
			}
		}
	} else if in&BipartiteInput != 0 {
		return fmt.Errorf("%w: %s co-clusters a bipartite matrix: Problem.Bipartite is nil", ErrInvalid, name)
	}
	switch {
	case p.K < 0 || p.K > n:
		return fmt.Errorf("%w: %s: k = %d, want 1 ≤ k ≤ n = %d", ErrInvalid, name, p.K, n)
	case p.K == 0 && !u.EstimatesK:
		return fmt.Errorf("%w: %s: k = 0, want 1 ≤ k ≤ n = %d (%s does not estimate k; %s do)", ErrInvalid, name, n, name, strings.Join(KEstimators(), ", "))
	case p.K > 0 && u.MinK > 0 && p.K < u.MinK, p.K > 0 && u.MaxK > 0 && p.K > u.MaxK:
		return fmt.Errorf("%w: %s: k = %d, the method takes %s", ErrInvalid, name, p.K, kRange(u))
	}
	if p.Constraints != nil {
		if p.Constraints.N != n {
			return fmt.Errorf("%w: %s: constraints are on %d nodes, the problem has %d", ErrInvalid, name, p.Constraints.N, n)
		}
		if err := p.Constraints.Validate(); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrInvalid, name, err)
		}
	}
	if p.Labels != nil {
		if len(p.Labels) != n {
			return fmt.Errorf("%w: %s: %d labels for %d nodes", ErrInvalid, name, len(p.Labels), n)
		}
		if err := p.Labels.Validate(p.K); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrInvalid, name, err)
		}
	}
	return nil
}

// kRange describes the k a method accepts.
func kRange(u Uses) string {
	switch {
	case u.MinK > 0 && u.MinK == u.MaxK:
		return fmt.Sprintf("k = %d only", u.MinK)
	case u.MinK > 0 && u.MaxK > 0:
		return fmt.Sprintf("%d ≤ k ≤ %d", u.MinK, u.MaxK)
	case u.MaxK > 0:
		return fmt.Sprintf("k ≤ %d", u.MaxK)
	}
	return fmt.Sprintf("k ≥ %d", u.MinK)
}

// finiteRows reports the first non-finite entry of x.
func finiteRows(x interface {
	Dims() (int, int)
	At(int, int) float64
}) error {
	r, c := x.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("feature (%d, %d) = %v, want a finite value", i, j, v)
			}
		}
	}
	return nil
}

// fewerClustersThanClasses returns a warning when the partial labels
// name more classes than the k clusters of the partition (k estimated,
// or fewer clusters found than asked), so that labelled nodes of
// different classes share a cluster, and "" otherwise. Cost O(n).
func fewerClustersThanClasses(name string, labels constraint.Labels, k int, s *Settings) string {
	seen := map[int]bool{}
	for _, c := range labels {
		if c != constraint.Unlabeled {
			seen[c] = true
		}
	}
	if len(seen) <= k {
		return ""
	}
	return fmt.Sprintf("%s: %s for the %d classes of the partial labels: labelled nodes of different classes share a cluster: ask for one cluster a class %s", name, wording.Count(k, "cluster", "clusters"), len(seen), s.remedy("Problem.K", "k"))
}

// pairContradictions are the numbers of contradictions among a
// problem's pairs (constraint.ContradictionsContext): pairs both
// must-link and cannot-link (same), and cannot-links between nodes that a
// chain of must-links joins (closure).
type pairContradictions struct {
	same, closure int
}

// any reports whether there is a contradiction.
func (c pairContradictions) any() bool { return c.same+c.closure > 0 }

// needsContradictions reports whether Run needs the contradictions of p's
// pairs for a method declaring u: to warn about them (a method that reads
// pairs and does not resolve them: contradictions) or to tell whether its
// partition depends on the weights' scale (Uses.ScaleOnContradiction:
// scaleDependent). Cost O(1).
func needsContradictions(u Uses, p *Problem) bool {
	if p.Constraints == nil || len(p.Constraints.Pairs) == 0 {
		return false
	}
	return u.Supervision&Pairs != 0 && !u.Resolves || u.WeightScale != "" && u.ScaleOnContradiction
}

// countContradictions counts the contradictions of p's pairs when Run
// needs them for the method name declaring u (needsContradictions), and
// returns none otherwise. Run counts them once, before the method, for
// rescaled, weightScale and contradictions: each counted them again
// (three passes over the pairs and a sort for ml- and mcl-noa-ssc), the
// first two without checking ctx. ctx is checked as the pairs are (10⁷
// pairs take seconds); the error is then ctx's, naming the method and the
// step. Cost O(n + m) for m pairs (constraint.ContradictionsContext,
// which traces no chains), or O(1).
func countContradictions(ctx context.Context, name string, u Uses, p *Problem) (pairContradictions, error) {
	if !needsContradictions(u, p) {
		return pairContradictions{}, nil
	}
	c, err := pairContradictionsOf(ctx, p.Constraints)
	if err != nil {
		return pairContradictions{}, cancelledIn(name, "check of the pairs for contradictions", err)
	}
	return c, nil
}

// pairContradictionsOf counts the contradictions of set
// (constraint.ContradictionsContext, ctx checked as the pairs are; the
// error is ctx's), telling the hook ctx carries under
// contradictionsHookKey, if any. Cost O(n + m) for m pairs.
func pairContradictionsOf(ctx context.Context, set *constraint.Set) (pairContradictions, error) {
	if h, ok := ctx.Value(contradictionsHookKey{}).(func(*constraint.Set)); ok {
		h(set)
	}
	same, closure, err := constraint.ContradictionsContext(ctx, set)
	if err != nil {
		return pairContradictions{}, err
	}
	return pairContradictions{same: same, closure: closure}, nil
}

// contradictionsHookKey is the context key of a func(*constraint.Set)
// called with every set of pairs whose contradictions are counted
// (pairContradictionsOf), from any goroutine: tests count the counts with
// it (TestAutoCountsContradictionsOncePerFold). No exported code sets it.
type contradictionsHookKey struct{}

// contradictions returns a warning when the pairwise constraints of p,
// which the method name declaring u reads and does not resolve itself
// (Uses.Resolves), contradict each other, so that no partition satisfies
// them all: a pair both must-link and cannot-link, or a cannot-link
// between nodes that a chain of must-links joins (constraint.Check); c
// are their numbers (countContradictions). The methods that use pairs as
// penalties or weights run on such sets; the warning says that the
// answer cannot honour them and what resolves them, its remedy spelled
// by s. It returns "" otherwise. Cost O(1).
func contradictions(name string, u Uses, p *Problem, c pairContradictions, s *Settings) string {
	if u.Supervision&Pairs == 0 || u.Resolves || p.Constraints == nil || len(p.Constraints.Pairs) == 0 || !c.any() {
		return ""
	}
	same, closure := c.same, c.closure
	var what []string
	if same > 0 {
		what = append(what, wording.Form(same, "1 pair is both a must-link and a cannot-link", fmt.Sprintf("%d pairs are both must-links and cannot-links", same)))
	}
	if closure > 0 {
		what = append(what, wording.Form(closure, "1 cannot-link joins nodes that a chain of must-links puts together", fmt.Sprintf("%d cannot-links join nodes that chains of must-links put together", closure)))
	}
	dropCL := "constraint.DropConflictingCannotLinks keeps the must-links"
	if f := s.front("conflicts", "drop-cl"); f != "" {
		dropCL += "; " + f
	}
	return fmt.Sprintf("%s: the pairwise constraints contradict each other, so no partition satisfies them all: %s (constraint.Check lists them); %s does not resolve them. constraint.Resolve drops them by a policy (%s); ml-noa-ssc and mcl-noa-ssc resolve them unless NoResolve is set", name, strings.Join(what, ", and "), name, dropCL)
}

// scaleDependent reports whether the partition by a method declaring u
// of a problem whose pairs have the contradictions c
// (countContradictions) depends on the scale of the weights:
// u.WeightScale is set and, for a method that depends on it only when it
// resolves contradictory pairs (u.ScaleOnContradiction: ml- and
// mcl-noa-ssc), the pairs contradict each other. Cost O(1).
func scaleDependent(u Uses, c pairContradictions) bool {
	if u.WeightScale == "" {
		return false
	}
	return !u.ScaleOnContradiction || c.any()
}

// WeightScaleRemedy ends Run's warnings about the scale of the weights
// (weights above 1 or far below it for a method declaring
// Uses.WeightScale): the remedy, as the library spells it. Settings.Spelling
// adds the front end's option (tether's command line: "(graph.Graph.Normalized;
// tether: -normalize-weights)", a job's `(graph.Graph.Normalized; job:
// "normalize_weights": true)`); a front end that words it otherwise
// (tether serve, a job) gives the whole parenthesis with
// Settings.NormalizeRemedy.
const WeightScaleRemedy = "(graph.Graph.Normalized)"

// normalizeRemedy returns the parenthesis that ends the warnings about
// the weights' scale: s.NormalizeRemedy, or WeightScaleRemedy with the
// front end's option (Settings.Spelling, the boolean set to true) when it
// is empty.
func (s *Settings) normalizeRemedy() string {
	if s.NormalizeRemedy != "" {
		return s.NormalizeRemedy
	}
	return s.remedy(strings.Trim(WeightScaleRemedy, "()"), "normalize-weights", "true")
}

// weightScaleLow is the largest edge weight below which weightScale
// warns: 2⁻²⁰ ≈ 9.5·10⁻⁷. FAST-GE's partition of the SBM graph of
// TestWeightScale falls from ARI 0.95 at weights 10⁻⁸ to 0.69 at 10⁻¹⁴
// and 0.16 at 10⁻¹⁶ with exit 0, and CSCAP's constraints weaken from
// below 1; the threshold flags weights six orders of magnitude below the
// similarity scale, which no RBF or unweighted graph reaches (their
// largest weight is about 1).
const weightScaleLow = 0x1p-20

// weightScale returns a warning when the method name declaring u reads
// edge weights on the similarity scale [0, 1] (Uses.WeightScale) and the
// largest weight of p.Graph between distinct nodes is above 1, or
// positive and below weightScaleLow: its partition is then not the one
// its source describes for these data; remedy ends it
// (Settings.NormalizeRemedy). c are p's contradictions
// (countContradictions). It returns "" otherwise. Cost O(nnz).
func weightScale(name string, u Uses, p *Problem, c pairContradictions, remedy string) string {
	if !scaleDependent(u, c) || p.Graph == nil {
		return ""
	}
	g := p.Graph
	wmax, a, b := 0.0, -1, -1
	for i := 0; i < g.N(); i++ {
		idx, w := g.Row(i)
		for q, j := range idx {
			if int(j) > i && w[q] > wmax {
				wmax, a, b = w[q], i, int(j)
			}
		}
	}
	if wmax > 0 && wmax < weightScaleLow {
		return fmt.Sprintf("%s: the largest edge weight is %.4g (nodes %d and %d), far below 1: %s reads the weights as similarities in [0, 1] (an unweighted edge weighs 1), and on this scale the edges are negligible beside its other terms (%s), so its partition may lose the graph; divide the weights by the largest to run it as its source describes %s", name, wmax, a, b, name, u.WeightScale, remedy)
	}
	if !(wmax > 1) {
		return ""
	}
	return fmt.Sprintf("%s: the largest edge weight is %.4g (nodes %d and %d), above 1: %s reads the weights as similarities in [0, 1] (an unweighted edge weighs 1), and its partition changes when they are scaled: %s; divide the weights by the largest to run it as its source describes %s", name, wmax, a, b, name, u.WeightScale, remedy)
}

// emptySet is what noPairs says of a constraint set given without pairs
// (Problem.Constraints non-nil, Pairs empty): pairs may have been given
// and left out before Run, which cannot tell; "none given" would deny
// them.
const emptySet = "the constraint set given has no pair (an empty one, or one whose pairs were all left out before clustering: on rows dropped, by the conflict policy or by the vote filter)"

// noPairs is the one rule for a method of pairs (u.Supervision has
// Pairs) given no pair it can use: p has no pairwise constraint, and
// fewer than two labelled nodes, so that its partial labels give no pair
// either (supervisionPairsContext). A method that declares u.NeedsPairs has no
// partition without them: the error returned wraps ErrInvalid and
// ErrNoSupervision ("cluster: invalid problem: sl needs pairwise
// constraints or labels, none given" when p.Constraints is nil; a non-nil
// set without pairs is named as such, since its pairs may have been given
// and left out before Run: emptySet), which tether cluster answers as a
// usage error naming -constraints and -partial-labels. Any other runs
// unconstrained (cosc, csc, cscap, fast-ge, fgpwc, l1csc, sscka, cpca,
// clpp, cvqe, cocluster, opplc: each reduces to its form without the
// constraint term), and the warning returned, "name: no constraints: …",
// says so; Run puts it after those of ignored. A method that delegates
// (auto) says what it does itself and is left alone, as is any problem
// with usable pairs (those a method leaves unused, a fast-ge2 without a
// cannot-link say, are its own error or warning). Run applies it to
// every k but 1 (one cluster needs no supervision). Cost O(n).
func noPairs(name string, u Uses, p *Problem) (string, error) {
	if u.Supervision&Pairs == 0 || u.Delegates || p.Constraints != nil && len(p.Constraints.Pairs) > 0 {
		return "", nil
	}
	labelled := 0
	if p.Labels != nil {
		labelled = len(p.Labels.Labeled())
	}
	if labelled >= 2 {
		return "", nil
	}
	// What was given: no set at all, or a set left without pairs (an
	// empty file, or pairs all left out before clustering by the front
	// end: on rows dropped for missing values, by the conflict policy or
	// the vote filter), and at most one labelled node.
	var given string
	switch {
	case p.Constraints != nil && labelled == 1:
		given = emptySet + ", and the one labelled node gives no pair"
	case p.Constraints != nil:
		given = emptySet
	case labelled == 1:
		given = "the one labelled node gives no pair"
	}
	if u.NeedsPairs {
		if given == "" {
			return "", noSupervision("%s needs pairwise constraints or labels, none given", name)
		}
		return "", noSupervision("%s needs pairwise constraints or labels: %s", name, given)
	}
	if given == "" {
		given = "none was given"
	}
	return fmt.Sprintf("%s: no constraints: %s reads pairwise constraints (partial labels count as the pairs they give) and %s, so its partition is the unconstrained one; give must-links or cannot-links, or partial labels of two nodes or more, to constrain it", name, name, given), nil
}

// noPairText says why a method's own check (sl, ml- and mcl-noa-ssc,
// called by Partition without Run, which answers first with noPairs)
// found no pair in p: "none given" when p has no constraint set, else
// emptySet. Cost O(1).
func noPairText(p *Problem) string {
	if p.Constraints == nil {
		return "none given"
	}
	return emptySet
}

// ignored returns one warning per kind of side information or input in p
// that a method using u does not read (pairs, labels, a bipartite matrix,
// feature rows, a graph beside the feature rows or the bipartite matrix
// of a method that reads them alone, a Problem.Regularize other than the
// zero value for a method that does not declare Uses.Regularizes); an
// unsupervised method's names what would use it.
func ignored(name string, u Uses, p *Problem) []string {
	var w []string
	// An unsupervised method was most likely the default, not a choice:
	// say which methods use the side information.
	what := "unsupervised: auto, or a method that reads them, uses them"
	if u.Supervision != None {
		what = "it uses " + map[Supervision]string{Pairs: "pairwise constraints", LabelSet: "partial labels"}[u.Supervision]
	}
	hasPairs := p.Constraints != nil && len(p.Constraints.Pairs) > 0
	hasLabels := p.Labels != nil && len(p.Labels.Labeled()) > 0
	if hasPairs && u.Supervision&Pairs == 0 {
		w = append(w, fmt.Sprintf("%s ignores the %s (%s)", name, wording.Count(len(p.Constraints.Pairs), "pairwise constraint", "pairwise constraints"), what))
	}
	if hasLabels && u.Supervision == None {
		w = append(w, fmt.Sprintf("%s ignores the %s (%s)", name, wording.Count(len(p.Labels.Labeled()), "partial label", "partial labels"), what))
	}
	in := u.Input
	if in == 0 {
		in = GraphInput
	}
	if p.Bipartite != nil && in&BipartiteInput == 0 {
		w = append(w, fmt.Sprintf("%s ignores the bipartite matrix (it clusters the graph)", name))
	}
	if p.Features != nil && in&FeatureInput == 0 {
		w = append(w, fmt.Sprintf("%s ignores the feature rows (it clusters the graph; graph.Build makes a graph of them)", name))
	}
	if p.Graph != nil && in&FeatureInput != 0 && in&GraphInput == 0 {
		w = append(w, fmt.Sprintf("%s: graph ignored: %s uses features (it clusters the feature rows and reads no graph; clpp reads both)", name, name))
	}
	if p.Graph != nil && in&BipartiteInput != 0 && in&GraphInput == 0 {
		w = append(w, fmt.Sprintf("%s: graph ignored: %s co-clusters the bipartite matrix (Problem.Bipartite) and reads no graph (l1csc, or another method of the graph, clusters a graph such as the matrix's bipartite graph)", name, name))
	}
	if p.Regularize != (graph.Regularization{}) && !u.Regularizes {
		w = append(w, fmt.Sprintf("%s ignores Problem.Regularize (mode %v%s): it builds no regularized normalized-Laplacian embedding (its Laplacian is unnormalized or exact; njw, ncut, cscap and ccsr regularize theirs, see Uses.Regularizes)", name, p.Regularize.Mode, regularizeDetail(p.Regularize, p.weightExp)))
	}
	return w
}

// regularizeDetail returns ", τ = …" and ", complete" for the parts of r
// set beyond its mode, τ as the caller gave it (times 2^weightExp, Run's
// rescaling undone), for ignored's warning.
func regularizeDetail(r graph.Regularization, weightExp int) string {
	var out string
	if r.Tau != 0 {
		out += fmt.Sprintf(", τ = %g", math.Ldexp(r.Tau, weightExp))
	}
	if r.Complete {
		out += ", complete"
	}
	return out
}

// checkBlocks returns nil when need bytes of dense blocks fit within
// s.MaxBlockBytes (or it is 0), else an error wrapping ErrInvalid and
// ErrMemoryBound naming the method name, what the blocks are, the bytes
// needed and bound, and remedy (an imperative phrase), for a method to
// return before it allocates them. need is a float64 so that n·K products cannot
// overflow. Cost O(1).
func (s *Settings) checkBlocks(name string, need float64, what, remedy string) error {
	if s == nil || s.MaxBlockBytes <= 0 || need <= float64(s.MaxBlockBytes) {
		return nil
	}
	needs := "more than 8 EiB"
	if need < math.MaxInt64 {
		needs = wording.Bytes(int64(need))
	}
	return memoryBoundError{fmt.Errorf("%w: %s: %s need about %s (%.0f bytes), more than the bound of %s (Settings.MaxBlockBytes = %d) on this run's memory: %s", ErrInvalid, name, what, needs, need, wording.Bytes(s.MaxBlockBytes), s.MaxBlockBytes, remedy)}
}
