package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/internal/figure"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/kmeans"
	"github.com/tether-sc/tether/metrics"
)

// inputOptions are the flags that say where the data comes from and how
// it is read; shared by cluster and serve (labels fills some of them from
// its own flags). inputFlags says which inputs each applies to.
type inputOptions struct {
	input     string // feature table
	graphFile string // graph file
	gen       string // generator name
	truthFile string // reference labels
	table     dataset.Options
	gopt      dataset.GraphOptions
	labelCol  string
	// genK is -gen-k; the other generator parameters are read from flags
	// (genParams).
	genK      *int
	selfLoops float64
	// normalize is -normalize-weights: divide the weights by the
	// largest edge weight (graph.Graph.Normalized).
	normalize bool
	// regularize is the -regularize option of the normalized Laplacians.
	regularize graph.Regularization
	// disconnected is the -disconnected rule of the methods that refuse
	// isolated nodes (cluster.Problem.Disconnected).
	disconnected cluster.Disconnected
	spec         graph.Spec
	genSeed      uint64
	genOut       string
	bip          bipartiteOptions
	// flags are the parsed flags: the generator reads only those set, and
	// -gen-seed defaults to seed, the value of -seed.
	flags *flag.FlagSet
	seed  uint64
	m     *Main // where -gen-out - writes
	// quiet is -quiet: no progress, and no "wrote FILE" lines.
	quiet bool
	// verbose measures the recall of an approximate k-NN search against
	// exact search (all points up to recallExhaustiveMax, else a sample).
	verbose bool
	// featuresOnly, when not "", names the method of tether cluster,
	// which reads feature rows alone (input.ReadsGraph), when no output
	// needs a graph (-graph-out, -vote-filter): load builds none from
	// feature rows, unless plot1D and the rows have one column (-plot
	// draws a graph's layout then: dataView). A k-NN graph of 10⁵ rows
	// took most of such a run, for nothing.
	featuresOnly string
	plot         bool
}

// recallExhaustiveMax is the largest n whose recall -v measures on every
// point; above it, recallSample points are drawn.
const (
	recallExhaustiveMax = 100_000
	recallSample        = 2000
)

// loaded is the data read from the inputs, with what cluster reports of
// the graph's construction.
type loaded struct {
	*input.Data
	// graphTime is the time spent building the graph from features.
	graphTime time.Duration
	// search is "exact" or "approximate" when a k-NN graph was built from
	// features; recall is its measured recall@k (-v), recallRows the
	// points it was measured on.
	search     string
	recall     *float64
	recallRows int
}

func (o *inputOptions) bind(fs *flag.FlagSet) {
	o.spec = graph.DefaultSpec()
	o.table.Spelling, o.gopt.Spelling = cliSpelling, cliSpelling
	bindGraphSpec(fs, &o.spec)
	fs.StringVar(&o.input, "input", "", "feature `file` (CSV, TSV, whitespace-separated or ARFF), or a folder of .pgm/.png images with one subfolder per class")
	fs.StringVar(&o.bip.file, "bipartite", "", "document-by-term `file` for co-clustering (-method cocluster, or any method on its bipartite graph): a \"rows cols nnz\" header, then 1-based \"row col count\" triplets (Classic3; a repeated row and column is summed, with a warning); nodes are the rows, then the columns")
	fs.StringVar(&o.bip.rowNames, "row-names", "", "-bipartite: row (document) names `file`, one \"name\" or \"name class\" a line (the class is the reference label)")
	fs.StringVar(&o.bip.colNames, "col-names", "", "-bipartite: column (term) names `file`, one a line")
	fs.BoolVar(&o.bip.tfidf, "tfidf", true, "-bipartite: weight the counts by tf–idf, count·ln(rows/df) (seed 001 §5.2); false uses them as given")
	fs.BoolVar(&o.bip.drop, "drop-empty", false, "-bipartite: drop the rows and columns without a non-zero (co-clustering needs none), renumbering the nodes kept")
	fs.StringVar(&o.graphFile, "graph-file", "", "graph `file` (edge list, .mtx or .mm Matrix Market, .gml, dense affinity .csv)")
	fs.StringVar(&o.gen, "gen", "", "generate the input: "+strings.Join(synth.Names(), ", ")+" (see tether gen -h)")
	fs.StringVar(&o.truthFile, "truth", "", "reference labels `file` for the summary (one label per line, or node,label lines; see -h)")
	fs.StringVar(&o.labelCol, "label", "", "label column of the feature file: first, last, a 1-based number, a header name, or none (default: a column named label, else class, target or y (not beside an x column), any case, else none; ARFF: last)")
	fs.StringVar(&o.table.IDColumn, "id", "", "ID `column`: the names of the rows, not a feature (default: a column of text with a different value on every row, else none)")
	fs.Var(delimFlag{&o.table.Delimiter}, "delim", "field delimiter: , (comma), tab, ; (semicolon), whitespace, or another single character (default: detected)")
	fs.Var(textVar(&o.table.Header), "header", "header line: auto (the default), yes or no")
	fs.Var(textVar(&o.table.Scale), "scale", "numeric column scaling: none (the default), minmax or zscore")
	fs.Var(textVar(&o.table.Missing), "missing", "missing values (? or empty, or a value of -missing-markers): reject (the default), impute (a numeric column's mean, a categorical column's most frequent value; with a note) or drop (the rows, with a warning; the rows kept keep their 0-based row numbers in the file as names: -o writes them, and node numbers of -truth, -constraints and -partial-labels mean the same rows)")
	fs.StringVar(&o.gopt.LabelAttr, "gml-label", "", "GML node `attribute` holding reference labels (e.g. club)")
	fs.Var(textVar(&o.gopt.Format), "graph-format", "format of -graph-file: auto (by extension; a .csv by content; a Matrix Market banner in any file), edgelist, mtx, gml or dense"+unnamedDefault(o.gopt.Format))
	bindCategorical(fs, &o.table)
	bindMissingMarkers(fs, &o.table)
	fs.BoolVar(&o.gopt.Symmetrize, "symmetrize", false, "accept an asymmetric dense or Matrix Market affinity matrix A and use (A+Aᵀ)/2")
	fs.Var(intIn(&o.gopt.MaxNodes, 0, 1<<31-1), "max-nodes", "largest `number` of nodes of a graph file (0: the default limit, 2²⁴)")
	fs.BoolVar(&o.gopt.NamedNodes, "named-nodes", false, "read every node of an edge list as a name, integers included (default: all integers are node numbers, all other text names, a mix an error)")
	fs.Var(textVar(&o.gopt.Base), "graph-base", "numbering of an edge list's integer nodes: auto (1-based when no edge names node 0, with a warning; else 0-based), 0 or 1"+unnamedDefault(o.gopt.Base))
	o.flags = fs
	// tether serve has no -k: -gen-k alone sets the classes there.
	kDefault := "-k, or the generator's own"
	if cmdName(fs) == "serve" {
		kDefault = "the generator's own"
	}
	o.genK = bindGenParams(fs, "generator: ", "gen-k", "number of classes (default: "+kDefault+"; 0: that default; moons, xor and circles always make 2, and accept only 0 or 2)")
	fs.Uint64Var(&o.genSeed, "gen-seed", 0, "generator seed (default: the -seed value; tether gen -seed S makes the same data)")
	fs.StringVar(&o.genOut, "gen-out", "", "write the generated data to this `file`, as tether gen -o does")
	fs.Var(floatIn(&o.selfLoops, 0, 1e12), "self-loops", "add this `weight` to every node's self loop (regularizes isolated nodes, seed 004 §5.2)")
	fs.BoolVar(&o.normalize, "normalize-weights", false, "divide every weight by the largest edge weight, which becomes 1 (before -self-loops): the scale of similarities in [0, 1] that bethe, csc, cscap, fast-ge, fast-ge2, fast-ge2-bh, l1csc, opplc and sl read, and ml-noa-ssc and mcl-noa-ssc when they resolve contradictory pairs (the other methods give the same partition at every scale)")
	// tether cluster refuses them for a method that does not read them
	// (checkMethodFlags); tether serve's apply to every session, whose
	// methods vary.
	others := "a usage error with the others"
	if cmdName(fs) != "cluster" {
		others = "the others ignore it"
	}
	fs.Var(textVar(&o.regularize), "regularize", "regularized L_sym/L_rw of the k-way spectral methods (njw, ncut, cscap, ccsr; ml-/mcl-noa-ssc when they resolve contradictory pairs, auto for its candidates; "+others+"): auto (τ = mean degree when the graph has components too small to be clusters or heterogeneous degrees), none, mean, or a number τ in [0, 1e12]; +complete also adds τ/n to every weight (graph.Regularization)"+unnamedDefault(o.regularize))
	fs.Var(textVar(&o.disconnected), "disconnected", "graphs with isolated nodes or components below n/(4k) nodes, for the methods that cannot cluster them as they are (fgpwc, sl, ml-/mcl-noa-ssc, fast-ge, fast-ge2, csp, csc, l1csc, plmeans with the ncut kernel, its default, sscka with the commute kernel, its default, or ncut; auto for its candidates; "+others+"): attach (cluster the core, attach the other nodes by labels, must-links and edges, with a warning) or strict (refuse, as before)"+unnamedDefault(o.disconnected))
}

// bindCategorical binds -categorical, the columns of the feature file to
// one-hot encode, to opt.Categorical, and -drop, the columns to leave out,
// to opt.Drop (cluster, serve and labels read tables alike, and the
// reader's errors name the file and the column).
func bindCategorical(fs *flag.FlagSet, opt *dataset.Options) {
	bindColumns(fs, "categorical", "comma-separated `columns` of the feature file to one-hot encode although their values are numbers (first, last, 1-based numbers or header names)", &opt.Categorical)
	bindColumns(fs, "drop", "comma-separated `columns` of the feature file to leave out of the features, unread (an id or free-text column; first, last, 1-based numbers or header names; not the -label or -id column; the class column found by its name, never a feature, is left out with the reference labels, with a note)", &opt.Drop)
}

// bindMissingMarkers binds -missing-markers, the field values of the
// feature file that mean missing besides ? and the empty field, to
// opt.MissingMarkers (dataset.FrontMissingMarkers: the list adds to
// those two; repeatable, the lists add up). A marker that is a number is
// refused, as the flag's invalid value.
func bindMissingMarkers(fs *flag.FlagSet, opt *dataset.Options) {
	var list []string
	fs.Func("missing-markers", "comma-separated `values` that mean a missing value in the feature file, besides ? and the empty field, which always do (a list adds to them; repeatable, the lists add up): fields equal to one, after unquoting and trimming, case included, are missing values as ? is (see -missing), e.g. -missing-markers NA,NULL for the NA of R's write.csv and the NULL of SQL exports; a number (0, -1, -999) is refused: it would make that number missing in every column", func(v string) error {
		markers, err := dataset.FrontMissingMarkers(append(list, strings.Split(v, ",")...))
		if err != nil {
			return err
		}
		list = append(list, strings.Split(v, ",")...)
		opt.MissingMarkers = markers
		return nil
	})
}

// bindColumns binds the flag name, a comma-separated list of column
// references (repeatable: the lists add up), to *dst.
func bindColumns(fs *flag.FlagSet, name, usage string, dst *[]string) {
	fs.Func(name, usage, func(v string) error {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c == "" {
				return fmt.Errorf("empty column in %q", v)
			}
			*dst = append(*dst, c)
		}
		return nil
	})
}

// files are the input file flags of o, with their values ("" when not
// given): those of the data, -truth included.
func (o *inputOptions) files() []pathFlag {
	return []pathFlag{{"-input", o.input}, {"-graph-file", o.graphFile}, {"-bipartite", o.bip.file}, {"-row-names", o.bip.rowNames},
		{"-col-names", o.bip.colNames}, {"-truth", o.truthFile}}
}

// load reads or generates the data and builds the graph (package input,
// the loader tether serve's API and package job share). An error opening
// a file names its flag (nameFileFlag), for cluster and serve alike.
func (o *inputOptions) load(ctx context.Context, rec *stderrRecorder, k int) (_ *loaded, err error) {
	defer func() { err = nameFileFlag(err, o.files()) }()
	count := 0
	for _, s := range []string{o.input, o.graphFile, o.gen, o.bip.file} {
		if s != "" {
			count++
		}
	}
	if count != 1 {
		return nil, usagef(cmdName(o.flags), "give exactly one of -input, -graph-file, -gen and -bipartite")
	}
	if err := o.checkApplies(); err != nil {
		return nil, err
	}
	spec := o.spec
	l := &loaded{}
	switch {
	case o.bip.file != "":
		if l.Data, err = o.bip.loadBipartite(ctx); err != nil {
			return nil, err
		}
	case o.input != "":
		opt := o.table
		opt.LabelColumn = o.labelCol
		if l.Data, err = readTableReported(ctx, o.input, opt, rec); err != nil {
			return nil, optionUsage(cmdName(o.flags), err)
		}
		if o.labelCol == "" && l.Truth == nil {
			warnings, encoded := classLikeColumns(o.input, l.X, l.Features, k, opt.Scale == dataset.ScaleNone, l.Warnings)
			l.Warnings = append(l.Warnings, warnings...)
			l.Notes = withoutEncodingNotes(l.Notes, o.input, encoded)
		}
		if w := l.ScaleWarning("-scale minmax"); w != "" {
			l.Warnings = append(l.Warnings, w)
		}
		if err := o.fitSpec(l, &spec, o.input, false, "data row"); err != nil {
			if l.N() == 1 && opt.Header == dataset.HeaderAuto && !namedColumns(l.Features) {
				// A header alone is such a file: say so (not when a
				// header was read, above the one data row).
				return nil, fmt.Errorf("%w (with -header auto, a file of one line is read as one data row: if that line is a header, the file holds no data)", err)
			}
			return nil, err
		}
	case o.graphFile != "":
		if l.Data, err = readGraphReported(ctx, o.graphFile, o.gopt, rec); err != nil {
			return nil, optionUsage(cmdName(o.flags), err)
		}
		if err := checkSize(cmdName(o.flags), o.graphFile, false, "node", l.N(), nil); err != nil {
			return nil, err
		}
	default:
		g, err := synth.Lookup(o.gen)
		if err != nil {
			return nil, usagef(cmdName(o.flags), "-gen: %v", err)
		}
		// The generator's defaults, overridden by the flags given; -k stands
		// for -gen-k when only it is given. The data are those of
		// tether gen with the same flags and seed.
		rename := map[string]string{"k": "gen-k"}
		if *o.genK == 0 && k > 0 {
			rename["k"] = "k"
		}
		p, err := genParams(g, o.flags, rename)
		if err != nil {
			return nil, usagef(cmdName(o.flags), "%v", err)
		}
		seed := o.seed
		o.flags.Visit(func(f *flag.Flag) {
			if f.Name == "gen-seed" {
				seed = o.genSeed
			}
		})
		if l.Data, err = input.Generate(ctx, g, p, seed); errors.Is(err, synth.ErrInvalid) {
			return nil, usagef(cmdName(o.flags), "-%v", err)
		} else if err != nil {
			return nil, err
		}
		if note := genKNote(k, g, p, o.flags); note != "" {
			l.Notes = append(l.Notes, note)
		}
		if o.genOut != "" {
			if err := writeGenerated(ctx, o.m, l.Data, "cluster", "-gen-out", o.genOut, "", "", !o.quiet); err != nil {
				return nil, err
			}
		}
		if l.Graph == nil {
			// Points: the graph's defaults shrink to what n allows, as
			// for -input (a -n 8 moons used to fail on the 10-NN graph).
			if err := o.fitSpec(l, &spec, "-gen "+o.gen, true, "point"); err != nil {
				return nil, err
			}
		}
	}
	if o.truthFile != "" {
		from := len(l.Notes)
		if err := l.ReadTruthSpelled(ctx, o.truthFile, cliSpelling); err != nil {
			return nil, err
		}
		if o.input != "" {
			l.Notes = truthNotes(l.Notes, from, o.input, o.truthFile)
		}
	}
	if o.buildsNoGraph(l) {
		// No weights to adjust either; input.NewProblem checks the rest
		// of the data (Data.Check) as it takes the rows.
		l.Notes = append(l.Notes, fmt.Sprintf("no graph built: %s reads the feature rows only", o.featuresOnly))
		if set := unusedGraphFlags(o.flags); len(set) > 0 {
			verb, pron := "apply", "they"
			if len(set) == 1 {
				verb, pron = "applies", "it"
			}
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s %s to no graph here: %s reads the feature rows only (-graph-out writes the graph %s would build)", strings.Join(set, ", "), verb, o.featuresOnly, pron))
		}
		return l, nil
	}
	if l.Graph == nil {
		done := rec.step("graph construction")
		t0 := time.Now()
		spec.Seed = o.seed
		nb, err := l.BuildGraphSpelled(ctx, spec, rec, cliSpelling)
		l.graphTime = time.Since(t0)
		done()
		if err != nil {
			return nil, err
		}
		if nb != nil {
			if err := o.measureRecall(ctx, l, nb); err != nil {
				return nil, err
			}
		}
	}
	if err := l.AdjustWeights(o.normalize, "-normalize-weights", o.selfLoops); err != nil {
		return nil, err
	}
	if err := l.Check(); err != nil {
		return nil, err
	}
	return l, nil
}

// measureRecall notes which k-NN search built the graph and, with -v,
// measures and prints the recall of an approximate one against exact
// search.
func (o *inputOptions) measureRecall(ctx context.Context, l *loaded, nb *graph.Neighbors) error {
	l.search = "exact"
	if !nb.Approximate {
		if o.verbose {
			fmt.Fprintf(o.m.Stderr, "k-NN search: exact, %d neighbours of %d points (%.2fs)\n", nb.K, nb.N(), l.graphTime.Seconds())
		}
		return nil
	}
	l.search = "approximate"
	if !o.verbose {
		return nil
	}
	sample := 0
	if nb.N() > recallExhaustiveMax {
		sample = recallSample
	}
	t0 := time.Now()
	r, rows, err := graph.SampleRecall(ctx, l.X, nb, sample, o.seed)
	if err != nil {
		return fmt.Errorf("measuring the k-NN recall: %w", err)
	}
	l.recall, l.recallRows = &r, rows
	what := "every point"
	if rows < nb.N() {
		what = fmt.Sprintf("%d sampled points", rows)
	}
	fmt.Fprintf(o.m.Stderr, "k-NN search: approximate (NN-descent), recall@%d = %.4f against exact search on %s (search %.2fs, check %.2fs)\n",
		nb.K, r, what, l.graphTime.Seconds(), time.Since(t0).Seconds())
	return nil
}

// buildsNoGraph reports whether load builds no graph from l's feature
// rows: the method reads them alone (featuresOnly) and no output needs a
// graph, -plot of a one-column table excepted (it draws the graph's
// layout: dataView). Cost O(1).
func (o *inputOptions) buildsNoGraph(l *loaded) bool {
	if l.Graph != nil || o.featuresOnly == "" || l.X == nil {
		return false
	}
	_, d := l.X.Dims()
	return !o.plot || d >= 2
}

// fitSpec fits *spec, the graph to build from l's feature rows, to their
// number (input.FitSpec, with its warning when the defaults shrink) and
// checks that the flags' graph can be built on them (checkSize), naming
// the rows as what in name; generated says they are a generator's (-gen). For a run that builds no graph (buildsNoGraph)
// it checks the count of rows only: the graph flags then draw the warning
// of unusedGraphFlags, and no warning speaks of a graph not built.
func (o *inputOptions) fitSpec(l *loaded, spec *graph.Spec, name string, generated bool, what string) error {
	cmd := cmdName(o.flags)
	if o.buildsNoGraph(l) {
		return checkSize(cmd, name, generated, what, l.N(), nil)
	}
	var small string
	*spec, small = input.FitSpec(*spec, name, l.N(), isSet(o.flags, "knn"), isSet(o.flags, "sigma"), cliSpelling)
	if small != "" {
		l.Warnings = append(l.Warnings, small)
	}
	return checkSize(cmd, name, generated, what, l.N(), spec)
}

// unusedGraphFlags returns the flags that shape the graph built from
// feature rows, or report on it (-v), that fs had set, as "-knn", for a
// run that builds no graph (inputOptions.featuresOnly): they shaped the
// summary's graph and Ncut before such runs stopped building one, and now
// do nothing, which a warning says. Cost O(flags).
func unusedGraphFlags(fs *flag.FlagSet) []string {
	var set []string
	for _, name := range []string{"graph", "knn", "eps", "affinity", "sigma", "max-full", "knn-search", "normalize-weights", "self-loops", "v"} {
		if isSet(fs, name) {
			set = append(set, "-"+name)
		}
	}
	return set
}

// GraphFigures are the figures of the graph clustered in a summary.
type GraphFigures struct {
	Edges      int `json:"edges"`
	Components int `json:"components"`
	Isolated   int `json:"isolated"`
}

// summary is what cluster prints after a run. GraphFigures and Ncut are
// nil when no graph was built (a method of feature rows alone:
// inputOptions.featuresOnly), and left out of the JSON document then.
type summary struct {
	Input  string `json:"input"`
	Method string `json:"method"`
	N      int    `json:"n"`
	*GraphFigures
	K     int   `json:"k"`
	Sizes []int `json:"sizes"`
	// Classes[c] is the class of -partial-labels, as its file writes it,
	// that numbers cluster c (cluster.Result.Labels: Run numbers the
	// clusters by the classes of partial labels), "" for a cluster whose
	// number no labelled class has; nil without partial labels.
	Classes     []string           `json:"classes,omitempty"`
	Ncut        *float64           `json:"ncut,omitempty"`
	Seconds     float64            `json:"seconds"`
	GraphSecs   float64            `json:"graph_seconds"`
	KNNSearch   string             `json:"knn_search,omitempty"`
	KNNRecall   *float64           `json:"knn_recall,omitempty"`
	RecallRows  int                `json:"knn_recall_points,omitempty"`
	Figures     map[string]float64 `json:"figures,omitempty"`
	ViolatedML  *int               `json:"violated_ml,omitempty"`
	ViolatedCL  *int               `json:"violated_cl,omitempty"`
	Constraints *[2]int            `json:"constraints,omitempty"`
	// LabelsKept is the number of nodes of -partial-labels in the cluster
	// numbered by their class, and the number of labelled nodes; nil
	// without partial labels.
	LabelsKept *[2]int `json:"labels_kept,omitempty"`
	// Warnings are the conditions that may make the result differ from
	// what was asked; Notes the documented choices the readers and the
	// method made (the input's first, then the method's; cluster.Result
	// states the rule).
	Warnings []string `json:"warnings,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	// Report is the method's account of its choices (cluster.Result.Report;
	// -method auto: every candidate's cross-validated score), if any.
	Report any `json:"report,omitempty"`
	// Labels and Names are set in the JSON document of -json when the
	// labels are not written to a file.
	Labels []int    `json:"labels,omitempty"`
	Names  []string `json:"names,omitempty"`
}

func runCluster(ctx context.Context, m *Main, args []string) (err error) {
	fs := m.newFlagSet("cluster", clusterUsage)
	var in inputOptions
	in.bind(fs)
	method := fs.String("method", "", "clustering method (see tether methods; default njw, or auto when -constraints or -partial-labels is given)")
	var knobs multiFlag
	fs.Var(&knobs, "set", "set a knob of the method, `Name=value` (repeatable), e.g. -set Gamma=0.5")
	k := new(int)
	fs.Var(intIn(k, 0, 1<<30), "k", "`number` of clusters (0: estimated by the methods that can, e.g. bethe; a method of partial labels, labels or labels|pairs in tether methods, takes the number of classes of -partial-labels, with a note; refused by "+strings.Join(kFinders(), " and ")+", which choose k themselves)")
	seed := fs.Uint64("seed", 1, "seed of every random choice")
	restarts := new(int)
	fs.Var(intIn(restarts, 0, kmeans.MaxRestarts), "restarts", "k-means `restarts` (0: the method's default)")
	consFile := fs.String("constraints", "", "pairwise constraints `file` (i,j,ml|cl[,weight], separated by commas, tabs, semicolons or blanks; i and j are indices, 0-based unless the file says # base=1, or node names when the data has them; a first line whose third field names the kind column (kind, type, constraint, relation, relationship or link; a fourth, weight or w), such as i,j,kind or a,b,type, is a header; after the header name_i,name_j,kind, as constraints gen writes for a reference that names its nodes, they are names, or row numbers for data without names)")
	var conflicts constraint.Policy
	fs.Var(textVar(&conflicts), "conflicts", "contradictory constraints: reject (the default; a pair repeated with the same kind and weight is used once, with a note), drop-cl (keep must-links) or soft (keep all, repeats included)")
	vote := fs.Bool("vote-filter", false, "drop the constraints that the constraints near them on the graph contradict (constraint.VoteFilter; for files with wrong pairs: the vote compares each pair with the pairs at its endpoints' graph neighbours), then break the remaining conflicts, taking the pairs in decreasing agreement and dropping each one that conflicts with those taken: about half a second for 2·10⁴ pairs, 10% of them wrong, on 2000 nodes")
	partial := fs.String("partial-labels", "", "partial labels `file` (one label per line, or node,label lines; -1 or empty: unknown; integers other than 0…k−1 are renumbered in increasing order, with a note)")
	out := fs.String("o", "-", "write the labels to this `file` as node,cluster lines (- for standard output)")
	asJSON := fs.Bool("json", false, "print the summary as one JSON document on standard output, with the labels when -o is -")
	graphOut := fs.String("graph-out", "", "write the graph clustered to this `file`: Matrix Market if it ends in .mtx or .mm, else an edge list, of the node names when the input has them (not to a .gml file)")
	plotFile := fs.String("plot", "", "write a scatter plot of the partition to this `file`, PNG or SVG by its extension, .png or .svg (2-D features, their principal components, or the spectral layout of a graph)")
	var repair cluster.Repair
	fs.Var(textVar(&repair), "repair", "embeddings whose iterative eigensolve returns eigenvalues below its resolution (nearly disconnected weighted graphs): auto (solve again by shift-and-invert when that costs at most the work already spent), always (whenever the sparse factor fits in 2.5·10⁷ entries) or never (keep the iterative result and its warning); cluster.Settings.Repair"+unnamedDefault(repair))
	maxMemMiB := new(int)
	fs.Var(intIn(maxMemMiB, 0, 1<<30), "max-memory-mib", "largest memory in `MiB` the run's dense blocks may take (a dense eigensolve, the Lanczos basis, labelprop's class scores, cvqe's distances, fgpwc's objective over the constraints): a run that needs more is refused before allocating them, exit status 1, naming the bytes (0: 3/4 of the available memory, the machine's or its container's; GOMEMLIMIT, a target of the garbage collector, does not set it)")
	quiet := fs.Bool("quiet", false, "no progress messages and no notes on standard error (warnings are printed; the summary keeps its notes)")
	fs.BoolVar(&in.verbose, "v", false, fmt.Sprintf("verbose: say which k-NN search built the graph and measure the recall@k of an approximate one against exact search (on every point up to %d, else on %d sampled points)", recallExhaustiveMax, recallSample))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("cluster", "unexpected argument %q%s", fs.Arg(0), fileArgHint(fs.Args(), "-input "+fs.Arg(0)+" for a feature table or -graph-file "+fs.Arg(0)+" for a graph"))
	}
	ins := append(in.files(), pathFlag{"-constraints", *consFile}, pathFlag{"-partial-labels", *partial})
	defer func() { err = nameFileFlag(err, ins) }()
	outs := []pathFlag{{"-o", *out}, {"-graph-out", *graphOut}, {"-plot", *plotFile}}
	if *out == "" {
		outs[0].path = "-"
	}
	if g, err := synth.Lookup(in.gen); err == nil && in.genOut != "" {
		outs = append(outs, generatedOutputs(g, "-gen-out", in.genOut, "", "")...)
	}
	// Standard output carries one thing: -json's document holds the
	// labels of -o -, but no graph or generated data; without -json, the
	// summary moves to standard error when an output takes standard
	// output (sumOut, below).
	if *asJSON {
		for _, o := range outs[1:] {
			if isStdout(o.path) {
				return usagef("cluster", "-json writes its document to standard output, and %s - would write there too: give %s a file", o.flag, o.flag)
			}
		}
	}
	if err := checkOutputs("cluster", ins, outs); err != nil {
		return err
	}
	if strings.EqualFold(filepath.Ext(*graphOut), ".gml") {
		// An edge list in a .gml file, which the readers then refused as
		// GML (review 114).
		return usagef("cluster", "-graph-out %s: tether writes an edge list, or Matrix Market for .mtx and .mm, not GML: give the file another extension (.edges, .txt, .mtx)", *graphOut)
	}
	if *plotFile != "" {
		if _, err := imageWriter(*plotFile); err != nil {
			return usagef("cluster", "-plot: %v", err)
		}
	}
	for _, in := range ins {
		if in.path == "-" {
			return usagef("cluster", "%s -: cluster reads its inputs from files, not standard input; give a file (on Linux, /dev/stdin is standard input as a file)", in.flag)
		}
	}
	name := *method
	if name == "" {
		name = cluster.DefaultMethod(*consFile != "" || *partial != "")
		if name == "auto" && !*quiet && !*asJSON {
			fmt.Fprintln(m.Stderr, "tether cluster: note: method auto, the default with constraints or partial labels: it chooses by cross-validation on them, njw among its candidates (-method njw ignores them)")
		}
	}
	meth, err := cluster.New(name)
	if err != nil {
		return usagef("cluster", "-method: %v", err)
	}
	if meth, err = cluster.SetKnobs(meth, knobs); err != nil {
		return usagef("cluster", "-set: %v", err)
	}
	if *k > 0 && meth.Uses().FindsK {
		// opplc ignored -k with a warning, and plmeans took it for a cap
		// (-k 3 returned one cluster): neither sets k as -k says.
		gen := ""
		if in.gen != "" {
			gen = " (-gen-k sets the classes of -gen)"
		}
		return usagef("cluster", "-k %d: %s chooses k itself, whatever -k says (the knobs of its prior steer how many clusters it finds: tether methods %s): leave -k out%s", *k, meth.Name(), meth.Name(), gen)
	}
	if err := checkMethodFlags(fs, meth); err != nil {
		return err
	}
	if *vote && *consFile == "" {
		// It filtered nothing without a word (review 159).
		return usagef("cluster", "-vote-filter filters the pairs of -constraints FILE, and none was given (partial labels are not filtered)")
	}
	rec := m.recorder(ctx, *quiet)
	in.seed, in.m, in.quiet = *seed, m, *quiet
	if meth.Uses().Input&cluster.BipartiteInput != 0 {
		in.bip.matrixMethod = meth.Name()
	}
	if !input.ReadsGraph(meth) && meth.Uses().Input&cluster.FeatureInput != 0 && *graphOut == "" && !(*vote && *consFile != "") {
		// The method reads the rows alone, and no output the graph.
		in.featuresOnly, in.plot = meth.Name(), *plotFile != ""
	}
	l, err := in.load(ctx, rec, *k)
	if err != nil {
		return err
	}
	printMessages(m.Stderr, "cluster", l.Warnings, l.Notes, *quiet)
	p, err := input.NewProblem(l.Data, meth, *k)
	switch {
	case errors.Is(err, input.ErrNoFeatures):
		return usagef("cluster", "-%v: give a feature file with -input (or a point generator with -gen)", err)
	case errors.Is(err, input.ErrNoBipartite):
		return usagef("cluster", "-%v: give a document-by-term file with -bipartite", err)
	case err != nil:
		return err
	}
	// A method of partial labels that does not estimate k takes it from
	// the labels' classes when -k is not given (or is 0).
	labelMethod := meth.Uses().Supervision&cluster.LabelSet != 0 && !meth.Uses().EstimatesK
	kFromLabels := *k == 0 && labelMethod && *partial != ""
	if *k == 0 && !meth.Uses().EstimatesK && !kFromLabels {
		// After the input's own checks, which name more specific mistakes.
		also := ""
		if labelMethod {
			also = "; with -partial-labels, k is the number of their classes"
		}
		return usagef("cluster", "give -k, the number of clusters: %s does not estimate it (%s do, with -k 0 or no -k%s)%s", meth.Name(), strings.Join(cluster.KEstimators(), ", "), also, in.truthHint(l.Data))
	}
	if err := checkK(meth, *k, l.Data); err != nil {
		return err
	}
	p.Regularize, p.Disconnected = in.regularize, in.disconnected
	sup := input.Supervision{Constraints: *consFile, Conflicts: conflicts, Vote: *vote, Labels: *partial, KFromLabels: kFromLabels, KFlag: "-k", Open: countedOpener(rec), Spelling: cliSpelling}
	// The constraint and labels readers, the vote filter and the
	// resolution of conflicts poll ctx, but not every pass of AddTo does
	// (the check of the pairs against the labels): untilDone returns as
	// soon as ctx is cancelled.
	var added input.Added
	err = untilDone(ctx, func() (err error) {
		added, err = sup.AddTo(ctx, p, l.Data)
		return err
	})
	switch {
	case errors.Is(err, constraint.ErrConflict):
		return fmt.Errorf("%w (use -conflicts drop-cl or soft to proceed)", err)
	case errors.Is(err, input.ErrTooManyClasses):
		// -partial-labels naming more classes than -k: the flag and the
		// file do not go together, as -k above the nodes (checkK). Other
		// errors of the file (a bad line or node) are the data's.
		return usagef("cluster", "%v", err)
	case err != nil:
		return err
	}
	if kFromLabels {
		if added.KFromLabels == 0 {
			classes := fmt.Sprintf("%d classes", added.LabelClassCount)
			if added.LabelClassCount == 1 {
				classes = "1 class"
			}
			return usagef("cluster", "give -k, the number of clusters: %s does not estimate it, and %s has %s, too few to give it", meth.Name(), *partial, classes)
		}
		*k = added.KFromLabels
		if err := checkKFrom(meth, *k, l.Data, fmt.Sprintf("k = %d (the number of classes in %s; -k sets k)", *k, *partial)); err != nil {
			return err
		}
	}
	// The messages on the supervision files are printed now and, for
	// -json, kept with the input's (l.Warnings and l.Notes, printed
	// above): k taken from the labels, repeats used once and labels
	// renumbered are notes; a labels file that looks 1-based and
	// constraints the vote filter dropped are warnings.
	supWarnings := append([]string(nil), added.Warnings...)
	var supNotes []string
	if kFromLabels {
		supNotes = append(supNotes, fmt.Sprintf("k = %d, the number of classes in %s (-k sets k)", *k, *partial))
	}
	supNotes = append(supNotes, added.Notes...)
	if *vote && *consFile != "" {
		msg := fmt.Sprintf("-vote-filter dropped %d of %d constraints of %s", added.VoteDropped, added.Constraints, *consFile)
		if added.VoteDropped > 0 {
			supWarnings = append(supWarnings, msg)
		} else {
			supNotes = append(supNotes, msg)
		}
	}
	printMessages(m.Stderr, "cluster", supWarnings, supNotes, *quiet)
	l.Warnings, l.Notes = append(l.Warnings, supWarnings...), append(l.Notes, supNotes...)
	// The errors and warnings name their remedies as tether's flags
	// (cliSpelling: "tether: -self-loops"), those that apply to this
	// input only (inputSpelling).
	kind, _, _, err := in.kind()
	if err != nil {
		return err
	}
	s, bound := guardMemory(&cluster.Settings{Seed: *seed, Restarts: *restarts, Recorder: rec, Repair: repair, Spelling: inputSpelling{kind, in.spec.Kind}}, *maxMemMiB)
	done := rec.step("clustering")
	t0 := time.Now()
	// cluster.Run polls ctx throughout but for a few single LAPACK calls
	// (dense eigendecompositions of up to some 10³ nodes, seconds each):
	// untilDone lets Ctrl-C end the command within a second even there.
	var res *cluster.Result
	err = untilDone(ctx, func() (err error) {
		res, err = cluster.Run(ctx, meth, p, s)
		return err
	})
	done()
	if err != nil {
		return bound.explain(noSupervisionUsage(err, meth, *consFile, *partial))
	}
	sum, err := summarize(ctx, l, meth.Name(), p, res, time.Since(t0))
	if err != nil {
		return err
	}
	sum.Classes = added.ClusterClasses(p.Labels, res.K)
	// The method's messages (cluster.Result: constraints ignored,
	// regularized, nodes attached, a collapsed partition) and the
	// summary's own go to standard error like the input's, printed above,
	// which are not repeated here; the summary lists them too.
	// An edge list of -graph-out names the nodes as -o does, so that
	// cluster -graph-file reads it with a -truth file of names; when it
	// cannot (Matrix Market, names no edge list holds), a note says the
	// nodes are numbered (review 114: the names were dropped without a
	// word).
	graphNames, graphNote := graphOutNames(*graphOut, l.Names)
	if *graphOut != "" && graphNote != "" {
		sum.Notes = append(sum.Notes, graphNote)
	}
	printMessages(m.Stderr, "cluster", sum.Warnings, sum.Notes, *quiet)
	if *graphOut != "" {
		if err := m.writeGraph(ctx, *graphOut, l.Graph, graphNames, !*quiet); err != nil {
			return err
		}
	}
	if *plotFile != "" {
		if err := m.plotPartition(ctx, *plotFile, l, res, meth.Name(), !*quiet); err != nil {
			return err
		}
	}
	toStdout := *out == "" || isStdout(*out)
	if *asJSON {
		sum.Warnings = append(l.Warnings, sum.Warnings...)
		sum.Notes = append(l.Notes, sum.Notes...)
		// One JSON document on stdout; the labels are in it unless they
		// go to a file.
		if toStdout {
			sum.Labels, sum.Names = res.Labels, l.Names
		} else if err := m.writeReported(ctx, *out, !*quiet, writeClusterLabels(res.Labels, l.Names)); err != nil {
			return err
		}
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(sum)
	}
	// Labels go to -o; the summary goes to stdout unless the labels, the
	// graph or the generated data do.
	sumOut := m.Stdout
	if toStdout || isStdout(*graphOut) || isStdout(in.genOut) {
		sumOut = m.Stderr
	}
	if err := m.writeReported(ctx, *out, !*quiet, writeClusterLabels(res.Labels, l.Names)); err != nil {
		return err
	}
	if sumOut == m.Stderr {
		// The summary goes to standard error, where the messages were
		// just printed: it leaves out those printed (the notes stay with
		// -quiet, which did not print them).
		sum.Warnings = nil
		if !*quiet {
			sum.Notes = nil
		}
	}
	return printSummary(sumOut, sum)
}

// truthHint returns, for the error of a missing -k, what the reference
// labels of d say of k ("; the reference labels of zoo.arff have 7
// classes: -k 7 asks for one cluster per class"), or "" when d has none
// or a single class. It only informs: k is never taken from them. Cost
// O(n).
func (o *inputOptions) truthHint(d *input.Data) string {
	classes := map[int]bool{}
	for _, c := range d.Truth {
		if c != dataset.Unlabeled {
			classes[c] = true
		}
	}
	k := len(classes)
	if k < 2 {
		return ""
	}
	of, have := "the reference labels of "+d.Name, "have"
	switch {
	case o.truthFile != "":
		of = "the reference labels of -truth " + o.truthFile
	case o.labelCol != "" && o.input != "":
		of, have = fmt.Sprintf("the reference column of %s (-label %s)", d.Name, o.labelCol), "has"
	case o.gopt.LabelAttr != "":
		of = fmt.Sprintf("the reference labels of %s (-gml-label %s)", d.Name, o.gopt.LabelAttr)
	}
	return fmt.Sprintf("; %s %s %s: -k %d asks for one cluster per class", of, have, wording.Count(k, "class", "classes"), k)
}

// checkK refuses, as a usage error, a -k that no partition of the input d
// by meth can have: more clusters than the n nodes ("-k 12 exceeds the 10
// nodes of the graph"; the library's "k = 12, want 1 ≤ k ≤ n = 10" was
// exit status 1, while -k 0 for a method that does not estimate k and a
// generator's k above its n were usage errors), or a k outside the range
// meth declares (cluster.Uses MinK and MaxK; "-k 3: mavro takes k = 2
// only"). A -k the user gave that is invalid for this input is a mistake
// on the command line, as -method cpca on a graph is. k = 0 is the
// caller's check; fewer classes in -truth or -partial-labels than k is no
// error, more in -truth neither, and more in -partial-labels is a usage
// error found when the file is read (input.ErrTooManyClasses). Cost O(1).
func checkK(meth cluster.Method, k int, d *input.Data) error {
	return checkKFrom(meth, k, d, fmt.Sprintf("-k %d", k))
}

// checkKFrom is checkK for a k that what names in the messages: "-k 3",
// or a k taken from elsewhere ("k = 3 (the number of classes in p.csv)").
func checkKFrom(meth cluster.Method, k int, d *input.Data, what string) error {
	if k <= 0 {
		return nil
	}
	if n := d.N(); k > n {
		of := "the graph"
		if d.Bipartite != nil {
			r, c := d.Bipartite.Dims()
			of = fmt.Sprintf("the graph (%s and %s)", wording.Count(r, "document", "documents"), wording.Count(c, "term", "terms"))
		}
		return usagef("cluster", "%s exceeds the %s of %s", what, wording.Count(n, "node", "nodes"), of)
	}
	// The forms of the library's own message (cluster's kRange).
	u := meth.Uses()
	var takes string
	switch {
	case u.MinK > 0 && u.MinK == u.MaxK && k != u.MinK:
		takes = fmt.Sprintf("k = %d only", u.MinK)
	case u.MinK > 0 && u.MaxK > 0 && (k < u.MinK || k > u.MaxK):
		takes = fmt.Sprintf("%d ≤ k ≤ %d", u.MinK, u.MaxK)
	case u.MinK > 0 && k < u.MinK:
		takes = fmt.Sprintf("k ≥ %d", u.MinK)
	case u.MaxK > 0 && k > u.MaxK:
		takes = fmt.Sprintf("k ≤ %d", u.MaxK)
	default:
		return nil
	}
	return usagef("cluster", "%s: %s takes %s", what, meth.Name(), takes)
}

// checkMethodFlags refuses, as a usage error, -regularize or -disconnected
// set for a method that does not read it (review 95: -method sl
// -regularize mean ran as if it were not there), as the flags of one kind
// of input given with another are refused (checkApplies): -regularize
// applies to the methods that declare cluster.Uses.Regularizes, and
// -disconnected to those for which Uses.ReadsDisconnected holds. meth has its knobs set: Uses may
// depend on them (sscka's and plmeans's kernel). Cost O(methods).
func checkMethodFlags(fs *flag.FlagSet, meth cluster.Method) error {
	for _, f := range []struct {
		name string
		keep func(cluster.Uses) bool
	}{
		{"regularize", func(u cluster.Uses) bool { return u.Regularizes }},
		{"disconnected", cluster.Uses.ReadsDisconnected},
	} {
		if !isSet(fs, f.name) || f.keep(meth.Uses()) {
			continue
		}
		which := "-method " + meth.Name()
		if def, err := cluster.New(meth.Name()); err == nil && f.keep(def.Uses()) {
			which += " with the knobs -set gives it"
		}
		return usagef("cluster", "-%s does not apply to %s, which does not read it; the methods that do: %s (see -h)", f.name, which, strings.Join(methodsWhere(f.keep), ", "))
	}
	return nil
}

// methodsWhere lists the registered methods whose Uses, with their
// default knobs, satisfy keep, in the registry's order.
func methodsWhere(keep func(cluster.Uses) bool) []string {
	var names []string
	for _, i := range cluster.Methods() {
		if keep(i.New().Uses()) {
			names = append(names, i.Name)
		}
	}
	return names
}

// kFinders lists the methods that choose k themselves whatever -k says
// (cluster.Uses.FindsK), which refuse -k.
func kFinders() []string {
	return methodsWhere(func(u cluster.Uses) bool { return u.FindsK })
}

// noSupervisionUsage returns err, the error of cluster.Run with meth, as a
// usage error when it says that the method was given no side information
// it can use (cluster.ErrNoSupervision) and the command line named no file
// of a kind the method reads (-constraints for a method of pairs,
// -partial-labels for any): "-method mavro needs partial labels: give -partial-labels
// FILE". When such a file was given and held nothing usable, err is the
// data's and returned as it is. Cost O(1).
func noSupervisionUsage(err error, meth cluster.Method, consFile, partial string) error {
	if !errors.Is(err, cluster.ErrNoSupervision) {
		return err
	}
	sup := meth.Uses().Supervision
	// A method of pairs reads partial labels too, as pairs (cluster.Uses).
	readsPairs, readsLabels := sup&cluster.Pairs != 0, sup != 0
	if readsPairs && consFile != "" || readsLabels && partial != "" {
		return err
	}
	switch {
	case readsPairs && readsLabels:
		return usagef("cluster", "-method %s needs pairwise constraints or partial labels: give -constraints FILE (i,j,ml|cl lines) or -partial-labels FILE (node,label lines)", meth.Name())
	case consFile != "":
		return usagef("cluster", "-method %s needs partial labels: give -partial-labels FILE (node,label lines for the nodes whose class is known); it does not read the pairs of -constraints", meth.Name())
	default:
		return usagef("cluster", "-method %s needs partial labels: give -partial-labels FILE (node,label lines for the nodes whose class is known)", meth.Name())
	}
}

const clusterUsage = `cluster (-input FILE | -graph-file FILE | -gen NAME | -bipartite FILE) [flags]

Builds a graph (feature input), clusters it with -method (default njw, or
auto when -constraints or -partial-labels is given, so that they are used)
and writes the labels to -o as "node,cluster" lines, the node being its
0-based index, or "name,cluster" lines with the node's name when the input
names its nodes (-id column, graph node names; by index if a name
repeats); the summary goes to standard output (to standard error when the
labels do, or -graph-out - or -gen-out -: standard output carries one
thing). Missing folders on the paths of -o, -plot and -graph-out are
created. With -json, standard output holds one JSON document: the
summary, plus the labels (and node names) when -o is -; -graph-out - and
-gen-out - are then refused.
A method of the feature rows alone (cpca, cvqe, plmeans -set
Kernel=features) is given no graph: none is built, with a note, unless
-graph-out, -vote-filter or -plot of a single feature needs one, and the
summary then has no edges and no Ncut.
With -bipartite (a document-by-term matrix: -method cocluster co-clusters
it; any other method clusters its bipartite graph, as seed 001 §5.2 runs
l1csc) the nodes are the documents, then the terms, and the graph is the
bipartite one: -constraints and -partial-labels number the documents from 0 and the
terms after them.
Without -k, a method that estimates k does (tether methods: bethe, …), and
a method of partial labels (labels or labels|pairs in tether methods, auto
among them) given -partial-labels takes k from the number of their
classes, with a note; -k sets k for every method but opplc and plmeans,
which choose k themselves whatever it says (the knobs of their prior
steer how many clusters they find) and refuse -k.
The flags of one kind of input given with another are usage errors, not
ignored: the feature table's (-label, -id, -scale, …) with a graph, a
folder of images or -gen; a graph file's (-gml-label, -graph-format, …)
and -bipartite's (-tfidf, …) with other inputs; the graph construction
flags (-knn, -sigma, …) with a graph; -regularize and -disconnected with
a method that does not read them (sl ignores -regularize, njw
-disconnected).
Progress, warnings and notes go to standard error: a warning is a
condition that may make the result differ from what was asked (side
information ignored or dropped, a fallback solver, nodes attached, an
input too small for the defaults); a note is a documented choice tether
made (the class column recognised, labels renumbered, what -method auto
chose and why), each printed once as "tether cluster: warning: …" or
"tether cluster: note: …", those of the clustering after those of the
input. -quiet leaves out the notes, not the warnings. The summary also
lists the clustering's ("note" and "warning" lines, left out when the
summary itself goes to standard error), and -json's document all of them
("notes" and "warnings").

` + labelFilesHelp

// writeClusterLabels writes labels as node,cluster lines, by name when
// the names can key the nodes (dataset.KeyNames).
func writeClusterLabels(labels []int, names []string) func(io.Writer) error {
	return func(w io.Writer) error {
		return dataset.WriteNodeLabels(w, labels, dataset.KeyNames(names), nil, "cluster")
	}
}

// writeGraph writes g to path: Matrix Market when the name ends in .mtx or
// .mm (in any case, as dataset.GraphFormatFor reads them back), else an
// edge list of the node names when names is not nil (dataset.WriteNamedEdgeList;
// graphOutNames chooses), else a 0-based edge list "i j weight"; report
// as for writeReported.
func (m *Main) writeGraph(ctx context.Context, path string, g *graph.Graph, names []string, report bool) error {
	write := func(w io.Writer) error { return dataset.WriteEdgeList(w, g) }
	switch {
	case dataset.GraphFormatFor(path) == dataset.MatrixMarket:
		write = func(w io.Writer) error { return dataset.WriteMatrixMarket(w, g) }
	case names != nil:
		write = func(w io.Writer) error { return dataset.WriteNamedEdgeList(w, g, names) }
	}
	return m.writeReported(ctx, path, report, write)
}

// summarize returns the summary of the partition res of l; its
// comparison with the reference labels checks ctx (metrics.EvaluateContext:
// AMI took 1.4 s at 2·10⁶ nodes), and returns its error.
func summarize(ctx context.Context, l *loaded, method string, p *cluster.Problem, res *cluster.Result, d time.Duration) (*summary, error) {
	g := l.Graph
	s := &summary{
		Input: l.Name, Method: method, N: l.N(), K: res.K, Seconds: d.Seconds(), GraphSecs: l.graphTime.Seconds(), KNNSearch: l.search, KNNRecall: l.recall, RecallRows: l.recallRows, Warnings: append([]string(nil), res.Warnings...), Notes: append([]string(nil), res.Notes...),
		Report: res.Report,
	}
	s.Sizes = make([]int, res.K)
	for _, c := range res.Labels {
		if c >= 0 && c < len(s.Sizes) {
			s.Sizes[c]++
		}
	}
	if g != nil {
		st := g.Stats()
		s.GraphFigures = &GraphFigures{Edges: st.Edges, Components: st.Components, Isolated: len(st.Isolated)}
		nc, err := metrics.Ncut(g, res.Labels)
		if err != nil {
			return nil, err
		}
		s.Ncut = &nc
	}
	if l.Truth != nil {
		// The figures of eval, on the same footing: nodes whose reference
		// label is unknown are left out.
		rep, err := metrics.EvaluateContext(ctx, l.Truth, res.Labels, &metrics.Options{Unlabeled: true, MinSizes: []int{}})
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			return nil, fmt.Errorf("comparing with the reference: %w", err)
		}
		s.Figures = map[string]float64{}
		for name, fig := range map[string]string{"ARI": "ari", "NMI": "nmi_arithmetic", "accuracy": "accuracy"} {
			if v, ok := rep.Get(fig); ok {
				s.Figures[name] = v
			}
		}
		if note := oneClassNote(rep); note != "" {
			s.Notes = append(s.Notes, note)
		}
		if rep.Unlabeled > 0 {
			// Unknown reference labels are left out as documented
			// (as eval's notes say).
			s.Notes = append(s.Notes, wording.Count(rep.Unlabeled, "node", "nodes")+" without a reference label left out of the figures")
		}
		if w := sparseTruthWarning(rep); w != "" && l.Bipartite == nil {
			// (-row-names classes the documents of -bipartite, never
			// its terms, by design.)
			s.Warnings = append(s.Warnings, w)
		}
	}
	if p.Constraints != nil {
		ml, cl := constraint.Violations(p.Constraints, res.Labels)
		nml, ncl := p.Constraints.Count()
		s.ViolatedML, s.ViolatedCL, s.Constraints = &ml, &cl, &[2]int{nml, ncl}
	}
	if kept, labelled := p.Labels.Kept(res.Labels); labelled > 0 {
		s.LabelsKept = &[2]int{kept, labelled}
	}
	return s, nil
}

// methodLabel names the method of a summary line: its name, followed for
// auto by the candidate it chose ("auto → sl"), from its report.
func methodLabel(method string, report any) string {
	if r, ok := report.(*cluster.AutoReport); ok && r.Chosen != "" {
		return method + " → " + r.Chosen
	}
	return method
}

func printSummary(w io.Writer, s *summary) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "input\t%s\n", s.Input)
	if g := s.GraphFigures; g != nil {
		fmt.Fprintf(tw, "graph\t%s, %s, %s, %d isolated\n", wording.Count(s.N, "node", "nodes"), wording.Count(g.Edges, "edge", "edges"), wording.Count(g.Components, "component", "components"), g.Isolated)
	} else {
		fmt.Fprintf(tw, "graph\tnone built (%s reads the feature rows only), %s\n", s.Method, wording.Count(s.N, "node", "nodes"))
	}
	if s.GraphSecs > 0 {
		fmt.Fprintf(tw, "graph time\t%.3fs\n", s.GraphSecs)
	}
	fmt.Fprintf(tw, "method\t%s, k = %d, %.3fs\n", methodLabel(s.Method, s.Report), s.K, s.Seconds)
	sizes := make([]string, len(s.Sizes))
	for i, v := range s.Sizes {
		sizes[i] = fmt.Sprint(v)
	}
	fmt.Fprintf(tw, "sizes\t%s\n", strings.Join(sizes, " "))
	if len(s.Classes) > 0 {
		// Runs of clusters without a labelled class read as one range.
		var cl []string
		for c := 0; c < len(s.Classes); c++ {
			if s.Classes[c] != "" {
				cl = append(cl, fmt.Sprintf("%d = %s", c, s.Classes[c]))
				continue
			}
			end := c
			for end+1 < len(s.Classes) && s.Classes[end+1] == "" {
				end++
			}
			if end == c {
				cl = append(cl, fmt.Sprintf("%d = (no labelled node)", c))
			} else {
				cl = append(cl, fmt.Sprintf("%d–%d = (no labelled node)", c, end))
			}
			c = end
		}
		fmt.Fprintf(tw, "classes\t%s (the clusters are numbered by the classes of -partial-labels)\n", strings.Join(cl, ", "))
	}
	if s.Ncut != nil {
		fmt.Fprintf(tw, "Ncut\t%.4f\n", *s.Ncut)
	}
	names := make([]string, 0, len(s.Figures))
	for k := range s.Figures {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(tw, "%s\t%.4f\n", k, s.Figures[k])
	}
	if s.Constraints != nil {
		fmt.Fprintf(tw, "violated\t%d of %s, %d of %s\n", *s.ViolatedML, wording.Count(s.Constraints[0], "must-link", "must-links"), *s.ViolatedCL, wording.Count(s.Constraints[1], "cannot-link", "cannot-links"))
	}
	if s.LabelsKept != nil {
		fmt.Fprintf(tw, "labelled\t%d of %d in the cluster of their class\n", s.LabelsKept[0], s.LabelsKept[1])
	}
	if r, ok := s.Report.(*cluster.AutoReport); ok {
		if r.HeldOut == 0 {
			// Too little supervision to cross-validate: no candidate
			// was scored (one line, not one per candidate; review 118).
			fmt.Fprintf(tw, "auto\tno candidate scored: no held-out constraints (%d candidates)\n", len(r.Candidates))
		}
		for _, c := range r.Candidates {
			if r.HeldOut == 0 && c.Skipped == "" && c.Error == "" {
				continue
			}
			var score string
			switch {
			case c.Skipped != "":
				score = "skipped: " + c.Skipped
			case c.Error != "":
				score = "failed: " + c.Error
			default:
				// The fraction said as one (review 118: "0.9024
				// held-out constraints satisfied" read as a count),
				// and b and c as what they count.
				score = fmt.Sprintf("satisfies %.4f of the held-out constraints (%.2f s)", c.Satisfied, c.Seconds)
				if r.Score == cluster.AutoScorePairARI {
					score = fmt.Sprintf("held-out pair ARI %.4f, satisfies %.4f of the held-out constraints (%.2f s)", c.Score, c.Satisfied, c.Seconds)
				}
				if c.Supervised && r.Baseline != "" {
					score += fmt.Sprintf("; against %s: %d satisfied by it alone, %d by %s alone, McNemar z = %.2f", r.Baseline, c.B, c.C, r.Baseline, c.McNemar)
				}
			}
			name := c.Name
			if c.Name != c.Method || c.Knobs != "" {
				// fgpwc-dw is no method of -method: say which it is.
				name = fmt.Sprintf("%s (%s", c.Name, c.Method)
				if c.Knobs != "" {
					name += ", " + c.Knobs
				}
				name += ")"
			}
			fmt.Fprintf(tw, "auto %s\t%s\n", name, score)
		}
	}
	for _, n := range s.Notes {
		fmt.Fprintf(tw, "note\t%s\n", n)
	}
	for _, wmsg := range s.Warnings {
		fmt.Fprintf(tw, "warning\t%s\n", wmsg)
	}
	return tw.Flush()
}

// plotPartition draws the partition over a 2-D view of the data
// (dataView); report as for writeReported.
func (m *Main) plotPartition(ctx context.Context, path string, l *loaded, res *cluster.Result, method string, report bool) error {
	rec := m.recorder(ctx, !report)
	defer rec.step("plot")()
	v, err := dataView(ctx, l.X, l.Graph, rec)
	if err != nil {
		return err
	}
	p, err := figure.ScatterAxes(fmt.Sprintf("%s, k = %d (%s)", method, res.K, v.what), v.xname, v.yname, v.x, res.Labels)
	if err != nil {
		return err
	}
	write, err := imageWriter(path)
	if err != nil {
		return err
	}
	return m.writeReported(ctx, path, report, func(w io.Writer) error { return write(w, 5*vg.Inch, 5*vg.Inch, p) })
}

// imageWriter returns the writer of the image format that path's
// extension names, in any case: figure.WritePNG for .png, figure.WriteSVG
// for .svg; another extension is an error (a -plot p.jpg once got PNG data
// under that name). Cost O(len(path)).
func imageWriter(path string) (func(io.Writer, vg.Length, vg.Length, ...*plot.Plot) error, error) {
	switch ext := filepath.Ext(path); strings.ToLower(ext) {
	case ".png":
		return figure.WritePNG, nil
	case ".svg":
		return figure.WriteSVG, nil
	case "":
		return nil, fmt.Errorf("%s has no extension: name a .png or .svg file, whose extension says the format", path)
	default:
		return nil, fmt.Errorf("%s: tether writes PNG (.png) or SVG (.svg) images, not %s", path, ext)
	}
}

// namedColumns reports whether a header line named the columns of a table:
// without one they are col1, col2, … (dataset.Table.Features; "col1=a"
// for a one-hot column), so a feature not of that form was named by one.
func namedColumns(features []string) bool {
	for _, f := range features {
		name, _, _ := strings.Cut(f, "=")
		digits, ok := strings.CutPrefix(name, "col")
		if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" {
			return true
		}
	}
	return false
}
