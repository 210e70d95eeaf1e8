package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/metrics"
)

const evalUsage = `eval -truth FILE -pred FILE [-graph FILE] [-constraints FILE [-unconstrained]] [-json]

Compares a predicted partition with a reference one and prints every figure
of package metrics (pair counting, Fowlkes-Mallows, NMI in five
normalizations, AMI, VI, purity, accuracy, MUC, B-cubed, CEAF, CoNLL,
per-size F1), plus the violated constraints and the cut figures when
-constraints and -graph are given, and with -unconstrained the figures
over what the constraints leave free.
Entropies and VI are in nats.

Nodes the reference leaves unlabelled are left out of the comparison;
the prediction must label every node.

` + labelFilesHelp

// runEval implements "tether eval".
func runEval(ctx context.Context, m *Main, args []string) error {
	fs := m.newFlagSet("eval", evalUsage)
	var truthPath, predPath, graphPath, consPath, sizes string
	var asJSON bool
	opt := metrics.Options{Unlabeled: true}
	fs.StringVar(&truthPath, "truth", "", "reference label `file` (required)")
	fs.StringVar(&predPath, "pred", "", "predicted label `file` (required)")
	fs.StringVar(&graphPath, "graph", "", "graph `file` for the cut, ratio cut and Ncut (edge list, .mtx, .gml, dense .csv)")
	fs.StringVar(&consPath, "constraints", "", "pairwise constraint `file` for the violation counts")
	fs.BoolVar(&asJSON, "json", false, "write the report as JSON")
	fs.BoolVar(&opt.Unconstrained, "unconstrained", false, "with -constraints, also score what the constraints leave free, as the FGPWC tables do: ari_unconstrained over the pairs not in the file, ari_free and nmi_free over the nodes no constraint touches")
	fs.StringVar(&sizes, "min-sizes", joinInts(metrics.DefaultMinSizes), "comma-separated minimum reference cluster `sizes` of the per-size F1 (seed 003 §5.2); empty for none")
	fs.IntVar(&opt.MaxClusters, "max-clusters", metrics.DefaultMaxClusters, "skip AMI, accuracy, CEAF and CoNLL (O(n·k) to O(k³)) above this many clusters; -1 for no limit")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("eval", "unexpected argument %q%s", fs.Arg(0), fileArgHint(fs.Args(), "-truth FILE and -pred FILE"))
	}
	if truthPath == "" || predPath == "" {
		return usagef("eval", "-truth and -pred are required (%s)", usageHint(fs))
	}
	if opt.Unconstrained && consPath == "" {
		return usagef("eval", "-unconstrained needs -constraints")
	}
	if opt.MaxClusters == 0 || opt.MaxClusters < -1 {
		return usagef("eval", "-max-clusters must be positive or -1, got %d", opt.MaxClusters)
	}
	minSizes, err := parseInts(sizes)
	if err != nil {
		return usagef("eval", "-min-sizes: %v", err)
	}
	opt.MinSizes = minSizes

	truth, pred, warnings, err := readEvalPair(ctx, truthPath, predPath)
	for _, w := range warnings {
		fmt.Fprintln(m.Stderr, "tether eval: warning:", w)
	}
	if err != nil {
		return err
	}
	if len(truth) != len(pred) {
		return fmt.Errorf("eval: %s has %d labels but %s has %d", truthPath, len(truth), predPath, len(pred))
	}
	for i, p := range pred {
		if p == constraint.Unlabeled {
			return fmt.Errorf("eval: %s: node %d has no label (-1); the prediction must label every node", predPath, i)
		}
	}
	n := len(truth)
	if graphPath != "" {
		if opt.Graph, err = readEvalGraph(ctx, graphPath, n); err != nil {
			return err
		}
		if w := trailingIsolated(opt.Graph, graphPath); w != "" {
			fmt.Fprintln(m.Stderr, "tether eval: warning:", w)
		}
	}
	if consPath != "" {
		if opt.Constraints, err = constraint.ReadFileContext(ctx, consPath, n); err != nil {
			return fmt.Errorf("eval: %w", err)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// The figures poll no context (seconds at 10⁷ labels): untilDone
	// returns as soon as ctx is cancelled.
	var rep metrics.Report
	if err := untilDone(ctx, func() (err error) {
		if rep, err = metrics.Evaluate(truth, pred, &opt); err != nil {
			return fmt.Errorf("eval: %w", err)
		}
		return nil
	}); err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	for _, note := range rep.Notes {
		fmt.Fprintln(m.Stderr, "eval:", note)
	}
	fmt.Fprintf(m.Stdout, "%d items, %d reference clusters, %d predicted clusters\n\n", rep.N, rep.TruthClusters, rep.PredClusters)
	tw := tabwriter.NewWriter(m.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FIGURE\tVALUE\tDESCRIPTION")
	for _, f := range rep.Figures {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Name, formatFigure(f.Name, f.Value), f.Description)
	}
	return tw.Flush()
}

// readEvalPair reads the reference and predicted labels files (see
// labelFilesHelp) and returns their labels with the readers' warnings. When both key their nodes by name the prediction is
// mapped onto the reference's nodes; when only one does, the nodes cannot be
// matched and the error says so.
func readEvalPair(ctx context.Context, truthPath, predPath string) (truth, pred []int, warnings []string, err error) {
	t, err := readNodeLabels(ctx, truthPath, 0, nil)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("eval: %w", err)
	}
	readPred := func(n int, names []string) (*dataset.NodeLabels, error) {
		return readNodeLabels(ctx, predPath, n, names)
	}
	if st, err := os.Stat(predPath); err == nil && !st.Mode().IsRegular() {
		// A pipe yields its bytes once: a second read (by name, below)
		// reads them again from the first's (inputfile.Replay).
		rp := inputfile.NewReplay(ctx, predPath)
		defer rp.Close()
		readPred = func(n int, names []string) (*dataset.NodeLabels, error) {
			r, err := rp.Reader()
			if err != nil {
				return nil, fmt.Errorf("dataset: %w", err)
			}
			return dataset.ReadNodeLabelsContext(ctx, r, predPath, dataset.NodeLabelOptions{N: n, Names: names})
		}
	}
	p, err := readPred(0, nil)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("eval: %w", err)
	}
	switch {
	case t.Names != nil && p.Names != nil:
		if p, err = readPred(len(t.Labels), t.Names); err != nil {
			return nil, nil, nil, fmt.Errorf("eval: %w (the nodes of %s)", err, truthPath)
		}
	case t.Names != nil:
		return nil, nil, nil, fmt.Errorf("eval: %s names its nodes but %s numbers them; give both by name or both by index", truthPath, predPath)
	case p.Names != nil:
		return nil, nil, nil, fmt.Errorf("eval: %s names its nodes but %s numbers them; give both by name or both by index", predPath, truthPath)
	}
	for path, d := range map[string]*dataset.NodeLabels{truthPath: t, predPath: p} {
		if len(d.Labels) == 0 {
			return nil, nil, nil, fmt.Errorf("eval: %s: no labels", path)
		}
	}
	return t.Labels, p.Labels, append(slices.Clone(t.Warnings), p.Warnings...), nil
}

// readEvalGraph reads a graph on n nodes: an edge list may leave the last
// nodes out when they are isolated.
func readEvalGraph(ctx context.Context, path string, n int) (*graph.Graph, error) {
	d, err := dataset.ReadGraphFileOptions(ctx, path, dataset.GraphOptions{NumNodes: n})
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	if d.G.N() != n {
		return nil, fmt.Errorf("eval: %s has %d nodes but the label files have %d labels", path, d.G.N(), n)
	}
	return d.G, nil
}

// trailingIsolated returns a warning when the last nodes of g, the graph
// read from path for n labels, have no edge: an edge list leaves isolated
// last nodes out, which is legitimate, but also what a graph file of
// another, smaller data set looks like, and the cuts are then silently
// those of that graph. Cost O(n).
func trailingIsolated(g *graph.Graph, path string) string {
	n := g.N()
	last := n - 1
	for last >= 0 && g.Degree(last) == 0 {
		last--
	}
	if last == n-1 {
		return ""
	}
	return fmt.Sprintf("%s: nodes %d…%d of the %d labelled have no edge (an edge list leaves isolated last nodes out); if the file is another data set's graph, the cut figures are wrong", path, last+1, n-1, n)
}

// formatFigure prints counts as integers and other values with six
// decimals (in exponent form when large).
func formatFigure(name string, v float64) string {
	switch {
	case strings.HasSuffix(name, "_violated"):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 1e6:
		return strconv.FormatFloat(v, 'g', 7, 64)
	}
	return strconv.FormatFloat(v, 'f', 6, 64)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// parseInts parses a comma-separated list of positive integers; "" gives an
// empty non-nil slice.
func parseInts(s string) ([]int, error) {
	out := []int{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", strings.TrimSpace(f))
		}
		out = append(out, v)
	}
	return out, nil
}
