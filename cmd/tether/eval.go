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
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/metrics"
)

const evalUsage = `eval -truth FILE -pred FILE [-graph FILE [-graph-format F] [-named-nodes]] [-match name|order] [-constraints FILE [-unconstrained]] [-json] [-quiet]

Compares a predicted partition with a reference one and prints every figure
of package metrics (pair counting, Fowlkes-Mallows, NMI in five
normalizations, AMI, VI, purity, accuracy, MUC, B-cubed, CEAF, CoNLL,
per-size F1), plus the violated constraints and the cut figures when
-constraints and -graph are given, and with -unconstrained the figures
over what the constraints leave free.
Entropies and VI are in nats.

Nodes the reference leaves unlabelled are left out of the comparison;
the prediction must label every node. Two files that number their nodes
are matched by number, two that name them by name; with -graph, two
named files meet its nodes through its names if it names them, and
otherwise must list their names in the same order, the graph's (tether
cluster -o and -graph-out write one order). A -constraints file may key
its nodes by those names. When one names its
nodes and the other numbers them, -graph, if it names its nodes (GML, an
edge list of names), matches them through its names; -match order reads
the named file's i-th line as node i (tether cluster -o and tether labels
write every node in the data's order); a named file whose names are the
integers 0, 1, …, n−1 in that order, n the other file's number of nodes,
is read with a note (by name, index or line, the same nodes); otherwise
eval says so. Unlike the labels readers of cluster, eval does not read an
"id" column of integers in another order as indices: without the data it
cannot tell pandas' row numbers from the values of an id column, which
cluster -id -o writes in the data's row order (-match order); name such a
column "node" to have it read as indices.

Warnings (a labels file that looks 1-based, a graph whose last nodes have
no edge) and notes (nodes without a reference label left out, figures
skipped) go to standard error, "tether eval: warning: …" and
"tether eval: note: …"; -json also puts them in its document, as
"warnings" and "notes". Reading a large -constraints file and computing
the figures report their progress there when they take more than a second
(not with -quiet).

` + labelFilesHelp

// runEval implements "tether eval".
func runEval(ctx context.Context, m *Main, args []string) (err error) {
	fs := m.newFlagSet("eval", evalUsage)
	var truthPath, predPath, graphPath, consPath, sizes string
	var asJSON, quiet bool
	opt := metrics.Options{Unlabeled: true}
	fs.StringVar(&truthPath, "truth", "", "reference label `file` (required)")
	fs.StringVar(&predPath, "pred", "", "predicted label `file` (required)")
	fs.StringVar(&graphPath, "graph", "", "graph `file` for the cut, ratio cut and Ncut (edge list, .mtx or .mm, .gml, dense .csv)")
	gopt := dataset.GraphOptions{Spelling: evalSpelling()}
	fs.Var(textVar(&gopt.Base), "graph-base", "numbering of -graph's integer nodes in an edge list: auto (0-based when the labels leave room for node 0, 1-based when the largest number is their count; warned when no edge names node 0), 0 or 1"+unnamedDefault(gopt.Base))
	fs.Var(textVar(&gopt.Format), "graph-format", "format of -graph: auto (by extension; a .csv by content; a Matrix Market banner in any file), edgelist, mtx, gml or dense"+unnamedDefault(gopt.Format))
	fs.BoolVar(&gopt.NamedNodes, "named-nodes", false, "read every node of -graph's edge list as a name, integers included, as tether cluster -named-nodes does (default: all integers are node numbers, all other text names, a mix an error)")
	fs.StringVar(&consPath, "constraints", "", "pairwise constraint `file` for the violation counts")
	fs.BoolVar(&asJSON, "json", false, "write the report as JSON")
	fs.BoolVar(&quiet, "quiet", false, "no progress messages (reading a large -constraints file, the figures)")
	match := "name"
	fs.Func("match", "how a file that names its nodes meets one that numbers them: name (the default: through the node names of -graph, else an error) or order (a named file's i-th line is node i, as tether cluster -o and tether labels write every node in the data's order; names are then ignored)", func(v string) error {
		if !slices.Contains(evalMatches, v) {
			return fmt.Errorf("%q, want name or order", v)
		}
		match = v
		return nil
	})
	fs.BoolVar(&opt.Unconstrained, "unconstrained", false, "with -constraints, also score what the constraints leave free, as the FGPWC tables do: ari_unconstrained over the pairs not in the file, ari_free and nmi_free over the nodes no constraint touches")
	fs.StringVar(&sizes, "min-sizes", joinInts(metrics.DefaultMinSizes()), "comma-separated minimum reference cluster `sizes` of the per-size F1 (seed 003 §5.2); empty for none")
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
	defer func() {
		err = nameFileFlag(err, []pathFlag{{"-truth", truthPath}, {"-pred", predPath}, {"-graph", graphPath}, {"-constraints", consPath}})
	}()
	if opt.Unconstrained && consPath == "" {
		return usagef("eval", "-unconstrained needs -constraints")
	}
	for _, f := range []string{"graph-base", "graph-format", "named-nodes"} {
		if graphPath == "" && isSet(fs, f) {
			return usagef("eval", "-%s reads the graph file -graph, which is not given", f)
		}
	}
	if err := checkGraphFileFlags("eval", fs, "graph", graphPath, gopt.Format); err != nil {
		return err
	}
	if opt.MaxClusters == 0 || opt.MaxClusters < -1 {
		return usagef("eval", "-max-clusters must be positive or -1, got %d", opt.MaxClusters)
	}
	minSizes, err := parseInts(sizes)
	if err != nil {
		return usagef("eval", "-min-sizes: %v", err)
	}
	opt.MinSizes = minSizes

	// The readers' warnings (a labels file that looks 1-based, a graph
	// whose last nodes have no edge) are printed with the figures' notes
	// (the nodes without a reference label left out, figures skipped)
	// once the figures are computed, and kept in the JSON document; a
	// failure prints the warnings found before it, which may explain it.
	truth, pred, names, nameLines, warnings, pairNotes, err := readEvalPair(ctx, truthPath, predPath, graphPath, gopt, match == "order")
	fail := func(err error) error {
		printMessages(m.Stderr, "eval", warnings, nil, false)
		return err
	}
	if err != nil {
		return fail(err)
	}
	if len(truth) != len(pred) {
		return fail(fmt.Errorf("eval: %s has %s but %s has %d", truthPath, wording.Count(len(truth), "label", "labels"), predPath, len(pred)))
	}
	for i, p := range pred {
		if p == constraint.Unlabeled {
			return fail(fmt.Errorf("eval: %s: node %d has no label (-1); the prediction must label every node", predPath, i))
		}
	}
	n := len(truth)
	if graphPath != "" {
		var gw []string
		if opt.Graph, gw, err = readEvalGraph(ctx, graphPath, gopt, n); err != nil {
			return fail(err)
		}
		warnings = append(warnings, gw...)
		if w := trailingIsolated(opt.Graph, graphPath); w != "" {
			warnings = append(warnings, w)
		}
	}
	rec := m.recorder(ctx, quiet)
	if consPath != "" {
		if opt.Constraints, err = readConstraintsReported(ctx, consPath, n, names, nameLines, graphPath, rec); err != nil {
			return fail(fmt.Errorf("eval: %w", err))
		}
	}
	if err := ctx.Err(); err != nil {
		return fail(err)
	}
	// The figures check ctx and report their progress as the stage
	// "figures" (seconds at 10⁷ labels or pairs).
	done := rec.step("figures")
	opt.Recorder = rec
	rep, err := metrics.EvaluateContext(ctx, truth, pred, &opt)
	if err != nil {
		err = fmt.Errorf("eval: %w", err)
	}
	done()
	if err != nil {
		return fail(err)
	}
	if note := oneClassNote(rep); note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	rep.Notes = append(pairNotes, rep.Notes...)
	if w := sparseTruthWarning(rep); w != "" {
		warnings = append(warnings, w)
	}
	printMessages(m.Stderr, "eval", warnings, rep.Notes, false)
	if asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(evalReport{Report: rep, Warnings: warnings})
	}
	fmt.Fprintf(m.Stdout, "%s, %s, %s\n\n", wording.Count(rep.N, "item", "items"), wording.Count(rep.TruthClusters, "reference cluster", "reference clusters"), wording.Count(rep.PredClusters, "predicted cluster", "predicted clusters"))
	tw := tabwriter.NewWriter(m.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FIGURE\tVALUE\tDESCRIPTION")
	for _, f := range rep.Figures {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", f.Name, formatFigure(f.Name, f.Value), f.Description)
	}
	return tw.Flush()
}

// readConstraintsReported reads the constraint file path on n nodes as
// constraint.ReadFileContext does (soft policy: repeats kept, contradictions
// reported), its reading reported to rec (openCounted, then "checking the
// pairs" until the set is made) and the whole as the step "reading PATH":
// 10⁷ pairs take seconds. names (nil: none) name the n nodes, as the
// labels files and -graph name them: a file may then key its nodes by
// name, as tether cluster reads it (constraint.ReadOptions.AutoNames; a
// file of names was refused, review 118). lines, when not nil, are the
// lines of the file namesFile that the names come from (a GML graph's,
// whose labels may repeat): a line naming a node whose name others share
// is an error naming their lines (constraint.ReadOptions.NameLines), as
// tether cluster names a data table's.
func readConstraintsReported(ctx context.Context, path string, n int, names []string, lines []int, namesFile string, rec *stderrRecorder) (*constraint.Set, error) {
	defer rec.step("reading " + path)()
	f, err := openCounted(ctx, path, rec, "checking the pairs")
	if err != nil {
		return nil, fmt.Errorf("constraint: %w", err) // as constraint.ReadFileContext says it
	}
	defer f.Close()
	ro := &constraint.ReadOptions{N: max(n, 0), File: path, Policy: constraint.Soft}
	if names != nil {
		ro.Names, ro.AutoNames = names, true
		if len(lines) == len(names) {
			ro.NameLines, ro.NamesFile = lines, namesFile
		}
	}
	res, err := constraint.ReadContext(ctx, f, ro)
	if err != nil {
		return nil, err
	}
	return res.Set, nil
}

// oneClassNote returns, when the reference of rep has a single class, a
// note that ARI and NMI are then 0 for any partition of two clusters or
// more (metrics' conventions, those of scikit-learn: 1 when the partition
// is a single cluster too), so that a 0 is not read as a failure of the
// method (a file cut from sorted data, say, holds one class); "" otherwise.
// sparseTruthWarning is the warning on a comparison whose reference
// leaves out more nodes than it labels (rep.Unlabeled > rep.N): a labels
// file cut short, or one of another data set's nodes, gives figures on the
// few it covers (review 137: a node,label file of 499 of 1000 nodes gave
// ARI 0 and accuracy 0.83 with two notes). "" otherwise.
func sparseTruthWarning(rep metrics.Report) string {
	if rep.Unlabeled <= rep.N {
		return ""
	}
	return fmt.Sprintf("the reference labels %d of the %d nodes: the figures compare those %d only (a labels file cut short, or of other data?)", rep.N, rep.N+rep.Unlabeled, rep.N)
}

func oneClassNote(rep metrics.Report) string {
	if rep.TruthClusters != 1 {
		return ""
	}
	return "the reference has one class: ARI and NMI are 0 whatever the partition (1 only when it is one cluster too)"
}

// evalReport is the JSON document of eval -json: the report of
// metrics.Evaluate, whose notes ("notes": nodes without a reference label
// left out, figures skipped) are the documented choices of the
// comparison, with the warnings of the files read ("warnings": a labels
// file that looks 1-based, a graph whose last nodes have no edge), the
// fields of tether cluster -json.
type evalReport struct {
	metrics.Report
	Warnings []string `json:"warnings,omitempty"`
}

// labelsSource reads a labels file as often as eval needs: a regular file
// is opened at each read, a pipe read once and its bytes kept
// (inputfile.Replay). Close releases it.
type labelsSource struct {
	ctx  context.Context
	path string
	rp   *inputfile.Replay // nil for a regular file
}

func newLabelsSource(ctx context.Context, path string) *labelsSource {
	s := &labelsSource{ctx: ctx, path: path}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		s.rp = inputfile.NewReplay(ctx, path)
	}
	return s
}

// read reads the file for n nodes (0: inferred) with the given names (nil:
// none); see readNodeLabels. lines, when not nil, are the lines of the
// file namesFile that the names come from, which the error of a line
// naming a node whose name others share gives
// (dataset.NodeLabelOptions.NameLines).
func (s *labelsSource) read(n int, names []string, lines []int, namesFile string) (*dataset.NodeLabels, error) {
	opt := dataset.NodeLabelOptions{N: n, Names: names, Spelling: cliSpelling}
	if names != nil && len(lines) == len(names) {
		opt.NameLines, opt.NamesFile = lines, namesFile
	}
	if s.rp == nil {
		return dataset.ReadNodeLabelsFileContext(s.ctx, s.path, opt) // as readNodeLabels
	}
	r, err := s.rp.Reader()
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	return dataset.ReadNodeLabelsContext(s.ctx, r, s.path, opt)
}

func (s *labelsSource) Close() {
	if s.rp != nil {
		s.rp.Close()
	}
}

// evalSpelling returns how the graph reader's notes, warnings and errors
// name the options they suggest for eval's -graph: eval's own flags
// -graph-base, -graph-format and -named-nodes ("tether eval: -graph-base
// 0"). cliSpelling would name tether cluster's -symmetrize, -max-nodes
// and -gml-label, which eval does not have: the messages then name the
// library's option, or what to change in the file. No output of eval
// names the nodes (Outputs is "").
func evalSpelling() dataset.Spelling {
	return dataset.Spelling{Front: "tether eval", Style: dataset.StyleFlag, GraphBase: "graph-base", GraphFormat: "graph-format", NamedNodes: "named-nodes"}
}

// evalMatches are the values of eval -match.
var evalMatches = []string{"name", "order"}

// readEvalPair reads the reference and predicted labels files (see
// labelFilesHelp) and returns their labels, node i of one being node i of
// the other, the names of those nodes (nil when the files number them),
// the lines of graphPath that name them when it gives the names and knows
// their lines (GraphData.NameLines; nil otherwise), and the readers'
// warnings. When both files number their nodes, node i
// is node i. When both name them, the nodes are those of graphPath when
// it names its nodes (GML, a named edge list, a dense CSV with a header),
// so that node i is the graph's node i; otherwise the reference's, in
// its order, the prediction mapped onto them. Then a graph that numbers
// its nodes is read on that order only when both files list their names
// in the same order: a reference in another order than the prediction
// (shuffled, say) is refused, since only the data knows which name is the
// graph's node i (the cut figures were computed against the reference's
// order, wrong without a word; review 118). When one names its nodes and the other
// numbers them, the numbers are those of the data, whose order only the
// data knows:
//
//   - graphPath, when it names its nodes (GML, a named edge list, a dense
//     CSV with a header), gives that order: the named file is matched
//     against its names, the numbered one read on its nodes;
//   - byOrder (-match order) says the named file lists the data's nodes in
//     order, as tether cluster -o and tether labels write them: its i-th
//     data line is node i (for two named files too: names are then
//     ignored);
//   - a named file whose names are the integers 0, 1, …, n−1 in that
//     order, n the numbered file's number of nodes, is read by index (by
//     name, index or line, the same nodes); a note says so. Those
//     integers in another order are refused as any names are, with a
//     hint: they may be row numbers or an id column's values
//     (indexNames);
//   - otherwise the error says these ways, and how to write both files
//     alike.
//
// Errors name the files, and the line and value when there is one.
func readEvalPair(ctx context.Context, truthPath, predPath, graphPath string, gopt dataset.GraphOptions, byOrder bool) (truth, pred []int, nodeNames []string, nodeLines []int, warnings, notes []string, err error) {
	ts, ps := newLabelsSource(ctx, truthPath), newLabelsSource(ctx, predPath)
	defer ts.Close()
	defer ps.Close()
	t, err := ts.read(0, nil, nil, "")
	if err != nil {
		return nil, nil, nil, nil, nil, nil, fmt.Errorf("eval: %w", err)
	}
	p, err := ps.read(0, nil, nil, "")
	if err != nil {
		return nil, nil, nil, nil, nil, nil, fmt.Errorf("eval: %w", err)
	}
	named, numbered := truthPath, predPath
	if p.Names != nil {
		named, numbered = predPath, truthPath
	}
	// graphNames returns the node names of graphPath, nil when it numbers
	// its nodes or there is none, and the lines that name them
	// (GraphData.NameLines: a GML file's, whose labels may repeat; nil
	// otherwise).
	graphNames := func() ([]string, []int, error) {
		if graphPath == "" {
			return nil, nil, nil
		}
		g, err := dataset.ReadGraphFileOptions(ctx, graphPath, gopt)
		if err != nil {
			return nil, nil, fmt.Errorf("eval: %w", err)
		}
		return g.Names, g.NameLines, nil
	}
	switch {
	case byOrder || t.Names == nil && p.Names == nil:
		// Line order, or indices on both sides. With -match order the
		// names of a named file, the reference's first, name the nodes
		// in that order (for a constraints file keyed by name).
		nodeNames = t.Names
		if nodeNames == nil {
			nodeNames = p.Names
		}
	case t.Names != nil && p.Names != nil:
		gn, gl, err := graphNames()
		if err != nil {
			return nil, nil, nil, nil, nil, nil, err
		}
		if gn != nil {
			// The graph's nodes, in its order.
			if t, err = ts.read(len(gn), gn, gl, graphPath); err != nil {
				return nil, nil, nil, nil, nil, nil, fmt.Errorf("eval: %w (the nodes of %s)", err, graphPath)
			}
			if p, err = ps.read(len(gn), gn, gl, graphPath); err != nil {
				return nil, nil, nil, nil, nil, nil, fmt.Errorf("eval: %w (the nodes of %s)", err, graphPath)
			}
			nodeNames, nodeLines = gn, gl
			break
		}
		if graphPath != "" && !sameNames(t.Names, p.Names) && sameNameSet(t.Names, p.Names) {
			// The same nodes in two orders. Other names (a node missing
			// or extra) get the readers' own errors below (review 123:
			// they were said to be in different orders).
			named := ""
			if f := gopt.Format; !gopt.NamedNodes && allIntegers(t.Names) && (f == dataset.EdgeList || f == dataset.GraphAuto && dataset.GraphFormatFor(graphPath) != dataset.MatrixMarket && dataset.GraphFormatFor(graphPath) != dataset.GML) {
				// Not for a Matrix Market or GML file, which
				// -named-nodes does not read (review 134).
				// tether cluster -named-nodes wrote them (SNAP's IDs).
				named = "; an edge list whose integers are these names is read as names with -named-nodes, as tether cluster -named-nodes reads it"
			}
			return nil, nil, nil, nil, nil, nil, fmt.Errorf("eval: %s and %s name their nodes in different orders, and -graph %s numbers its nodes: only the data knows which name is its node i; "+
				"list both files in the graph's order (tether cluster -o writes the nodes in the order of the graph it writes with -graph-out), or give -graph a graph that names its nodes (GML, an edge list of names)%s", truthPath, predPath, graphPath, named)
		}
		if p, err = ps.read(len(t.Labels), t.Names, nil, ""); err != nil {
			return nil, nil, nil, nil, nil, nil, fmt.Errorf("eval: %w (the nodes of %s)", err, truthPath)
		}
		nodeNames = t.Names
	default:
		names, lines, err := graphNames()
		if err != nil {
			return nil, nil, nil, nil, nil, nil, err
		}
		if names == nil {
			// Names that are the integers 0, 1, …, n−1 of the numbered
			// file's n nodes, in that order: by name, by index or by line
			// they are the same nodes. Names that are those integers in
			// another order are refused, as any other names: they are
			// pandas' row numbers of the data (indices), or the names of a
			// data file's id column, which tether cluster -o writes in the
			// data's row order (by line: -match order), and only the user
			// knows which.
			nd, src, n := t, ts, len(p.Labels)
			if p.Names != nil {
				nd, src, n = p, ps, len(t.Labels)
			}
			if indexNames(nd.Names, n) {
				d, err := src.read(n, nil, nil, "")
				if err != nil {
					return nil, nil, nil, nil, nil, nil, fmt.Errorf("eval: %w", err)
				}
				if p.Names != nil {
					p = d
				} else {
					t = d
				}
				notes = append(notes, fmt.Sprintf("%s names its nodes 0, 1, …, %d in that order, the nodes of %s: read as node indices", named, n-1, numbered))
				break
			}
			permuted := ""
			if permutedIndexNames(nd.Names, n) {
				permuted = fmt.Sprintf(" (its names are the integers 0…%d out of order: if they are the data's row numbers, such as pandas' index, name that column \"node\" to read them as indices)", n-1)
			}
			how := "-graph with the data's graph if it names its nodes (GML, an edge list of names)"
			if graphPath != "" {
				how = "a graph that names its nodes as -graph (" + graphPath + " does not)"
			}
			return nil, nil, nil, nil, nil, nil, fmt.Errorf("eval: %s names its nodes but %s numbers them, and only the data knows which name has which number: "+
				"add -match order if %s lists every node in the data's order (tether cluster -o and tether labels write them so), or %s; or write both files by name or both by index%s",
				named, numbered, named, how, permuted)
		}
		// The data's numbering, through the graph's names.
		if t, err = ts.read(len(names), names, lines, graphPath); err != nil {
			return nil, nil, nil, nil, nil, nil, fmt.Errorf("eval: %w (the nodes of %s)", err, graphPath)
		}
		if p, err = ps.read(len(names), names, lines, graphPath); err != nil {
			return nil, nil, nil, nil, nil, nil, fmt.Errorf("eval: %w (the nodes of %s)", err, graphPath)
		}
		nodeNames, nodeLines = names, lines
	}
	for path, d := range map[string]*dataset.NodeLabels{truthPath: t, predPath: p} {
		if len(d.Labels) == 0 {
			return nil, nil, nil, nil, nil, nil, fmt.Errorf("eval: %s: no labels", path)
		}
	}
	if len(nodeNames) != len(t.Labels) {
		// -match order with files of other lengths: eval refuses them.
		nodeNames, nodeLines = nil, nil
	}
	warnings = append(slices.Clone(t.Warnings), p.Warnings...)
	for _, d := range []*dataset.NodeLabels{t, p} {
		if d.Note != "" {
			// Integer labels too large to number the classes
			// (community IDs), read as class names.
			notes = append(notes, d.Note)
		}
	}
	return t.Labels, p.Labels, nodeNames, nodeLines, warnings, notes, nil
}

// sameNameSet reports whether a and b list the same names, each once, in
// any order, blanks around them trimmed. Cost O(len(a)).
func sameNameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	set := make(map[string]bool, len(a))
	for _, nm := range a {
		set[strings.TrimSpace(nm)] = true
	}
	for _, nm := range b {
		if !set[strings.TrimSpace(nm)] {
			return false
		}
		delete(set, strings.TrimSpace(nm))
	}
	return len(set) == 0
}

// sameNames reports whether a and b list the same names in the same
// order, blanks around them trimmed (as the labels readers match names).
// Cost O(len(a)).
func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.TrimSpace(a[i]) != strings.TrimSpace(b[i]) {
			return false
		}
	}
	return true
}

// indexNames reports whether names are the integers 0, 1, …, n−1 in that
// order, written without sign or leading zero (blanks around them
// trimmed), so that by name, by index and by line they are the same
// nodes. Cost O(n).
func indexNames(names []string, n int) bool {
	if len(names) != n || n == 0 {
		return false
	}
	for i, nm := range names {
		if strings.TrimSpace(nm) != strconv.Itoa(i) {
			return false
		}
	}
	return true
}

// permutedIndexNames reports whether names are exactly the integers
// 0…n−1, each once, in any order and written without sign or leading
// zero (blanks around them trimmed). Cost O(n).
func permutedIndexNames(names []string, n int) bool {
	if len(names) != n || n == 0 {
		return false
	}
	seen := make([]bool, n)
	for _, nm := range names {
		nm = strings.TrimSpace(nm)
		v, err := strconv.Atoi(nm)
		if err != nil || v < 0 || v >= n || seen[v] || strconv.Itoa(v) != nm {
			return false
		}
		seen[v] = true
	}
	return true
}

// readEvalGraph reads a graph on n nodes, with the reader's warnings
// (duplicate edges combined, GML labels that cannot name the nodes): an
// edge list may leave the last nodes out when they are isolated.
func readEvalGraph(ctx context.Context, path string, gopt dataset.GraphOptions, n int) (*graph.Graph, []string, error) {
	gopt.NumNodes = n
	gopt.NumNodesFrom = "the labels give" // not "declared": the file declares nothing
	d, err := dataset.ReadGraphFileOptions(ctx, path, gopt)
	if err != nil {
		return nil, nil, fmt.Errorf("eval: %w", err)
	}
	if d.G.N() != n {
		return nil, nil, fmt.Errorf("eval: %s has %s but the label files have %s", path, wording.Count(d.G.N(), "node", "nodes"), wording.Count(n, "label", "labels"))
	}
	return d.G, d.Warnings, nil
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
	nodes := fmt.Sprintf("nodes %d…%d of the %d labelled have", last+1, n-1, n)
	if last+1 == n-1 {
		nodes = fmt.Sprintf("node %d of the %d labelled has", n-1, n)
	}
	return fmt.Sprintf("%s: %s no edge (an edge list leaves isolated last nodes out); if the file is another data set's graph, the cut figures are wrong", path, nodes)
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

// allIntegers reports whether every one of names is written as a
// decimal integer ("240891", "-3"), as the node names tether cluster
// -named-nodes reads from an edge list of integers are. Cost O(Σ len).
func allIntegers(names []string) bool {
	for _, nm := range names {
		if _, err := strconv.ParseInt(nm, 10, 64); err != nil {
			return false
		}
	}
	return len(names) > 0
}
