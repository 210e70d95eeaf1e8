package job

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/catalog"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/inputkind"
	"github.com/tether-sc/tether/internal/memguard"
	"github.com/tether-sc/tether/internal/suggest"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/metrics"
)

// Result is the outcome of one job: one JSON line of a batch's results.
// Labels are kept out of the JSON line (a batch writes them to a labels
// file of their own). Its JSON names are its own, documented for users
// in docs/jobs.md, and stay as they are (users parse them): they are not
// those of tether cluster -json (edges, figures.ARI).
type Result struct {
	ID     string `json:"id"`
	Method string `json:"method"`
	// N is the number of nodes (the rows of a feature table); NNZ the
	// stored entries of the graph clustered (2 per edge, 1 per self
	// loop), 0 and absent from the JSON when Run built none (a method of
	// the feature rows alone, with a note saying so: see Run).
	N     int   `json:"n,omitempty"`
	NNZ   int   `json:"nnz,omitempty"`
	K     int   `json:"k,omitempty"`
	Sizes []int `json:"sizes,omitempty"`
	// Classes[c] is the class of the partial labels, as their file
	// writes it, that numbers cluster c (cluster.Run numbers the
	// clusters by the classes), "" for a cluster whose number no
	// labelled class has; nil without partial labels
	// (input.Added.ClusterClasses). LabelsKept is the number of
	// labelled nodes in the cluster numbered by their class, and the
	// number of labelled nodes (constraint.Labels.Kept). Labels drawn by
	// Sample.LabelFraction are numbered by the reference classes.
	Classes    []string `json:"classes,omitempty"`
	LabelsKept *[2]int  `json:"labels_kept,omitempty"`
	// ARI and NMI (arithmetic normalization) against the reference labels,
	// when the data have them.
	ARI *float64 `json:"ari,omitempty"`
	NMI *float64 `json:"nmi,omitempty"`
	// ViolatedML and ViolatedCL count the constraints the partition breaks,
	// when there are constraints.
	ViolatedML *int    `json:"violated_ml,omitempty"`
	ViolatedCL *int    `json:"violated_cl,omitempty"`
	Objective  float64 `json:"objective,omitempty"`
	// Seconds is the clustering time (cluster.Run), GraphSeconds the time
	// spent reading the data and building the graph (if one was built).
	Seconds      float64 `json:"seconds"`
	GraphSeconds float64 `json:"graph_seconds"`
	// Warnings are the conditions the readers and the method report that
	// may make the result differ from what was asked; Notes the
	// documented choices they made (input.Data and cluster.Result state
	// the rule), the data's first.
	Warnings []string `json:"warnings,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	// Error is set when the job failed; the other figures are then unset.
	Error string `json:"error,omitempty"`
	// Manifest and Line say where the job's manifest line is, for a line
	// that is not a valid Spec (ParseSpec failed, so ID may be ""): the
	// manifest file and the 1-based line number. Unset otherwise, and
	// Line is 0 when the line could not be found again in the file.
	Manifest string `json:"manifest,omitempty"`
	Line     int    `json:"line,omitempty"`
	Labels   []int  `json:"-"`
	// Names name the nodes when rows of the table were dropped for
	// their missing values (input.Data.Rows: "missing": "drop", or a
	// catalog dataset read with its own drop policy), nil otherwise: the
	// ID column's values, or the rows' 0-based numbers in the file.
	// WriteLabels then writes name,cluster lines. Kept out of the JSON
	// line, as Labels.
	Names []string `json:"-"`
}

// Run executes the job s, resolving relative paths against root. It never
// panics on bad input and always returns a Result: a failure (unreadable
// file, unknown method, invalid problem, cancelled ctx) is reported in
// Result.Error, which names the cause (the file, line, field or value);
// Result.ID names the job, so the message does not repeat it. The same Spec gives the same
// labels and figures (timings aside).
//
// A method that reads the feature rows alone (cpca, cvqe, plmeans with
// Kernel=features: input.ReadsGraph false), given feature rows, is run
// without a graph, as tether cluster runs it: no k-NN graph is built, a
// note says so ("no graph built: cpca reads the feature rows only"),
// Result.NNZ is 0 (absent from the JSON), and the fields that shape the
// graph (knn, normalize_weights, self_loops) draw a warning naming them
// (`"knn" applies to no graph here: …`) instead of being applied; knn
// above the number of rows is then no error, and a single row still is.
// The labels and figures are those of the same job with the graph built.
// No output of a job needs the graph otherwise (a job writes no graph and
// has no vote filter).
//
// The method's dense blocks (an eigensolve's, labelprop's n×K class
// scores) are bounded by the job's max_memory_mib, or by default 3/4 of
// the available memory (internal/memguard): a job that would need more
// fails with an invalid-problem error naming the bytes, the bound and the
// remedies in the job's fields, before allocating them.
//
// Cost: reading plus graph construction (none for a method of feature
// rows alone: the k-NN graph dominated such a job at 10⁵ rows) plus the
// method's own cost (cluster.Run).
func Run(ctx context.Context, s Spec, root string) *Result {
	return RunFiles(ctx, s, root, nil)
}

// RunFiles is Run, reading the files whose paths (after Join(root, path))
// have a scheme through files: the input table, the graph, the
// constraints, the partial labels and the reference labels (truth). Local paths are read as Run reads
// them. A nil files refuses paths with a scheme. A folder of images
// (Input) and a catalog dataset (Dataset, DataRoot) are read from local
// folders only. Errors about a path with a scheme (refused, missing,
// unreadable, or relative and climbing above the bucket of root: see
// Join) name the job, the field and the path, and wrap the cause
// (ErrScheme or ErrAboveBucket for a refusal). Cost: Run's, plus holding each file read
// through files in memory while it is parsed.
func RunFiles(ctx context.Context, s Spec, root string, files Files) *Result {
	res := &Result{ID: s.ID, Method: s.methodName()}
	if err := run(ctx, &s, root, files, res); err != nil {
		*res = Result{ID: s.ID, Method: s.methodName(), Error: err.Error()}
	}
	return res
}

func run(ctx context.Context, s *Spec, root string, files Files, res *Result) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if err := checkPaths(s, root); err != nil {
		return err
	}
	m, err := cluster.New(s.methodName())
	if err != nil {
		return err
	}
	if m, err = cluster.SetKnobs(m, s.Knobs); err != nil {
		return err
	}
	if s.K > 0 && m.Uses().FindsK {
		// As tether cluster's -k: opplc ignored k with a warning and
		// plmeans took it for a cap (k 3 could return one cluster).
		return fmt.Errorf("%w: job %s: k = %d: %s chooses k itself, whatever k says: leave k out", ErrSpec, s.ID, s.K, m.Name())
	}
	t0 := time.Now()
	d, err := load(ctx, s, root, files)
	if err != nil {
		return err
	}
	if s.Dataset != "" && d.Graph != nil {
		// A catalog dataset that is a graph: knn builds no graph.
		if err := s.checkApplies(inputkind.GenGraph, "dataset "+s.Dataset+" (a graph)"); err != nil {
			return err
		}
	}
	if s.Truth != "" {
		if err := readTruth(ctx, s, root, files, d); err != nil {
			return err
		}
	}
	spec := graph.DefaultSpec()
	if s.KNN > 0 {
		spec.K = s.KNN
	}
	if s.Input != "" {
		// A feature table's columns of very different scales, which
		// the job's scale puts on one footing.
		if w := d.ScaleWarning(`the job's "scale": "minmax"`); w != "" {
			d.Warnings = append(d.Warnings, w)
		}
	}
	if buildsNoGraph(m, d) {
		// As tether cluster: no graph for a method of the feature rows
		// alone (a job has no output that needs one), so no weights to
		// adjust; input.NewProblem checks the rest of the data. One
		// row is refused as tether cluster refuses it (the graph refused
		// it before).
		if n := d.N(); n < 2 {
			what := "data row"
			if s.Gen != "" {
				what = "point"
			}
			return fmt.Errorf("%s has %s; clustering needs at least 2", d.Name, wording.Count(n, what, what+"s"))
		}
		d.Notes = append(d.Notes, fmt.Sprintf("no graph built: %s reads the feature rows only", m.Name()))
		if w := unusedGraphFields(s, m); w != "" {
			d.Warnings = append(d.Warnings, w)
		}
	} else {
		if d.Graph == nil {
			var smallWarning string
			spec, smallWarning = input.FitSpec(spec, d.Name, d.N(), s.KNN > 0, false, Spelling())
			if smallWarning != "" {
				d.Warnings = append(d.Warnings, smallWarning)
			}
		}
		if _, err := d.BuildGraphSpelled(ctx, spec, nil, Spelling()); err != nil {
			return err
		}
		if err := d.AdjustWeights(s.NormalizeWeights, "normalize_weights", s.SelfLoops); err != nil {
			return err
		}
		if err := d.Check(); err != nil {
			return err
		}
	}
	p, err := input.NewProblem(d, m, s.K)
	if err != nil {
		return err
	}
	// Constraint files are kept as read (the Soft policy): noisy sets are
	// legitimate input for the methods that treat constraints as soft.
	// A method of partial labels that does not estimate k takes it from
	// the labels' classes when the job gives none, as tether cluster
	// does (with the same note).
	u := m.Uses()
	labelMethod := u.Supervision&cluster.LabelSet != 0 && !u.EstimatesK
	sup := input.Supervision{Constraints: Join(root, s.Constraints), Conflicts: constraint.Soft, Labels: Join(root, s.Labels),
		KFromLabels: s.K == 0 && labelMethod && s.Labels != "", Spelling: s.spelling()}
	if Scheme(sup.Constraints) != "" || Scheme(sup.Labels) != "" {
		// A local file beside one with a scheme is read whole too, by
		// the local reader Supervision uses (a FIFO waits for ctx).
		fields := map[string]string{sup.Constraints: "constraints", sup.Labels: "labels"}
		sup.ReadFile = func(ctx context.Context, name string) ([]byte, error) {
			if Scheme(name) == "" {
				b, err := readLocal(ctx, name)
				if err != nil {
					return nil, fmt.Errorf("job %s: %s: %w", s.ID, fields[name], err)
				}
				return b, nil
			}
			return readFile(ctx, files, s.ID, fields[name], name)
		}
	}
	added, err := sup.AddTo(ctx, p, d)
	if err != nil {
		return err
	}
	// The Soft policy reports no repeats; a note says how integer labels
	// were renumbered, and Classes which class numbers each cluster.
	if sup.KFromLabels {
		if added.KFromLabels == 0 {
			return fmt.Errorf("%w: job %s: k is not given: %s does not estimate it, and labels %s has %s, too few to give it", ErrSpec, s.ID, m.Name(), s.Labels, wording.Count(added.LabelClassCount, "class", "classes"))
		}
		d.Notes = append(d.Notes, fmt.Sprintf("k = %d, the number of classes in %s (k sets k)", p.K, s.Labels))
	}
	d.Notes = append(d.Notes, added.Notes...)
	d.Warnings = append(d.Warnings, added.Warnings...)
	if err := sample(ctx, s, d.Truth, p); err != nil {
		return err
	}
	if p.K == 0 && labelMethod && s.Sample != nil && s.Sample.LabelFraction > 0 {
		// Labels drawn from the reference: k is its number of classes.
		p.K = slices.Max(d.Truth) + 1
		d.Notes = append(d.Notes, fmt.Sprintf("k = %d, the number of reference classes, from which sample.label_fraction draws the labels (k sets k)", p.K))
	}
	res.GraphSeconds = time.Since(t0).Seconds()

	// The remedies as a job spells them; "knn" only when the graph was
	// built from feature rows, since a job refuses it with a graph
	// (review 134: a graph file's disconnected components named it).
	sp := Spelling()
	if d.X == nil {
		sp.KNN = ""
	}
	// The run's dense blocks are bounded by max_memory_mib or the
	// available memory (internal/memguard), as tether cluster's are: a
	// job asking for more fails with an error naming the bytes instead
	// of killing the process and every other job of its pipeline.
	bound := memguard.MiB(s.MaxMemoryMiB)
	out, err := cluster.Run(ctx, m, p, memguard.Settings(&cluster.Settings{Seed: s.Seed, NormalizeRemedy: normalizeRemedy, Spelling: sp}, bound))
	if err != nil {
		return explainBound(err, bound, s.MaxMemoryMiB)
	}
	res.N, res.K = d.N(), out.K
	if d.Graph != nil {
		res.NNZ = d.Graph.NNZ()
	}
	res.Labels, res.Objective = out.Labels, out.Objective
	if d.Rows != nil {
		// Node i is not the file's row i: the labels file names them
		// (WriteLabels), as tether cluster -o does.
		res.Names = d.Names
	}
	res.Warnings = append(append([]string(nil), d.Warnings...), out.Warnings...)
	res.Notes = append(append([]string(nil), d.Notes...), out.Notes...)
	res.Seconds = out.Runtime.Seconds()
	res.Sizes = make([]int, out.K)
	for _, c := range out.Labels {
		res.Sizes[c]++
	}
	if truth, pred, unknown := knownTruth(d.Truth, out.Labels); len(truth) > 0 {
		ari, err := metrics.ARI(truth, pred)
		if err != nil {
			return err
		}
		nmi, err := metrics.NMI(truth, pred, metrics.Arithmetic)
		if err != nil {
			return err
		}
		res.ARI, res.NMI = &ari, &nmi
		if unknown > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("ari and nmi leave out %s without a reference label, as tether cluster's figures do", wording.Count(unknown, "node", "nodes")))
		}
	}
	if p.Constraints != nil {
		ml, cl := constraint.Violations(p.Constraints, out.Labels)
		res.ViolatedML, res.ViolatedCL = &ml, &cl
	}
	if kept, labelled := p.Labels.Kept(out.Labels); labelled > 0 {
		res.LabelsKept = &[2]int{kept, labelled}
		res.Classes = added.ClusterClasses(p.Labels, out.K)
	}
	return nil
}

// knownTruth returns the reference labels truth and the labels pred of
// the nodes whose reference label is known (not dataset.Unlabeled: a ?
// or -1 of a truth file, a missing class value), and how many were left
// out, as tether cluster's figures leave them out
// (metrics.Options.Unlabeled); truth and pred themselves when every
// label is known. Cost O(n).
func knownTruth(truth, pred []int) (t, p []int, unknown int) {
	for _, c := range truth {
		if c == dataset.Unlabeled {
			unknown++
		}
	}
	if unknown == 0 {
		return truth, pred, 0
	}
	t, p = make([]int, 0, len(truth)-unknown), make([]int, 0, len(truth)-unknown)
	for i, c := range truth {
		if c != dataset.Unlabeled {
			t, p = append(t, c), append(p, pred[i])
		}
	}
	return t, p, unknown
}

// buildsNoGraph reports whether Run builds no graph for the data d
// clustered with m: m reads d's feature rows alone (input.ReadsGraph
// false: cpca, cvqe, plmeans with Kernel=features) and d has them but no
// graph of its own. A job has no output that needs the graph otherwise
// (tether cluster builds it for -graph-out, -vote-filter and the plot of
// one feature; a job has none of them). At 10⁵ rows the k-NN graph took
// most of such a job. Cost O(1).
func buildsNoGraph(m cluster.Method, d *input.Data) bool {
	return d.Graph == nil && d.X != nil && !input.ReadsGraph(m) && m.Uses().Input&cluster.FeatureInput != 0
}

// unusedGraphFields returns the warning of a job that builds no graph
// (buildsNoGraph) naming the fields of s that shape the graph built from
// feature rows (knn, normalize_weights, self_loops) as Spelling spells
// them, as tether cluster warns of its flags, or "" when s sets none.
// Cost O(1).
func unusedGraphFields(s *Spec, m cluster.Method) string {
	sp := Spelling()
	var set []string
	for _, f := range []struct {
		flag string
		set  bool
	}{{"knn", s.KNN != 0}, {"normalize-weights", s.NormalizeWeights}, {"self-loops", s.SelfLoops != 0}} {
		if o, ok := sp.Option(f.flag, ""); ok && f.set {
			set = append(set, o)
		}
	}
	if len(set) == 0 {
		return ""
	}
	verb := "apply"
	if len(set) == 1 {
		verb = "applies"
	}
	return fmt.Sprintf("%s %s to no graph here: %s reads the feature rows only", strings.Join(set, ", "), verb, m.Name())
}

// normalizeRemedy ends the warnings of cluster.Run about the scale of
// the weights in a job's results (cluster.Settings.NormalizeRemedy): the
// job's field normalize_weights, where tether cluster names its flag.
const normalizeRemedy = `(the job's "normalize_weights": true; library: graph.Graph.Normalized)`

// Spelling returns how the notes, warnings and errors of packages dataset
// and input, and those of graph building and clustering
// (cluster.Settings.Spelling), name the options they suggest to a job: as
// the Spec's JSON fields ("label": "none", "knn": 5, "scale": "minmax",
// "missing": "impute", "missing_markers": ["NA"], "self_loops", "k",
// "method", "knobs": ["Variant=both"] for tether cluster's -set,
// "normalize_weights": true, and the side files "constraints",
// "labels" and "truth"). A Spec has no field for tether cluster's
// -id, -drop, -categorical, -sigma, -max-full, -delim,
// -header, -graph-format, -symmetrize, -named-nodes, -graph-base,
// -max-nodes, -gml-label, -regularize, -disconnected, -conflicts
// and -repair: the messages then name the library's option, or what to
// change in the file. A job's labels file lists the nodes by line
// (Outputs is ""), but for data whose rows were dropped, where it names
// them (Spec.spelling sets Outputs then). Run's warnings on the
// weights' scale end with normalizeRemedy instead, which names the field
// first.
func Spelling() dataset.Spelling {
	return dataset.Spelling{Front: "job", Style: dataset.StyleJSON, Label: "label", KNN: "knn", Constraints: "constraints", PartialLabels: "labels", Truth: "truth",
		Missing: "missing", MissingMarkers: "missing_markers", Scale: "scale", SelfLoops: "self_loops", K: "k", Method: "method", Knobs: "knobs", NormalizeWeights: "normalize_weights"}
}

// spelling returns Spelling for the messages on the data of s and their
// side files, without missing and missing_markers for a catalog dataset:
// it is read with its own missing-value policy (hepatitis drops its
// rows), which no field of the job sets (a job refuses both with a
// dataset). For data whose rows may be dropped (a table with "missing":
// "drop", a catalog dataset) it names the job's labels file as the output
// that names the nodes (Outputs).
func (s *Spec) spelling() dataset.Spelling {
	sp := Spelling()
	if s.Dataset != "" {
		sp.Missing, sp.MissingMarkers = "", ""
	}
	if s.Dataset != "" || s.Missing == dataset.MissingDrop {
		// Rows may be dropped: the labels file then names the nodes
		// (Result.Names), by the ID column or the row numbers.
		sp.Outputs = labelsOutput
	}
	return sp
}

// labelsOutput names a job's labels file in the messages of the readers
// on the names of the nodes (dataset.Spelling.Outputs), for the data
// whose rows may be dropped, where it names them (Result.WriteLabels).
const labelsOutput = "the job's labels file (ID.labels, name,cluster lines)"

// load reads or generates the data of s with package input, the loader of
// tether cluster and tether serve: the same file gives the same data,
// warnings and errors. Paths with a scheme are read through files, whose
// content goes to the same parsers.
func load(ctx context.Context, s *Spec, root string, files Files) (*input.Data, error) {
	switch {
	case s.Input != "":
		path, opt := Join(root, s.Input), dataset.Options{LabelColumn: s.Label, Scale: s.Scale, Missing: s.Missing, Spelling: s.spelling()}
		markers, err := dataset.FrontMissingMarkers(s.MissingMarkers)
		if err != nil {
			return nil, fmt.Errorf("%w: job %s: missing_markers: %v", ErrSpec, s.ID, err)
		}
		opt.MissingMarkers = markers
		if Scheme(path) == "" {
			if st, err := os.Stat(path); err == nil && st.IsDir() {
				// input.ReadTableFile reads a folder of images
				// without the options of a table.
				if err := s.checkApplies(inputkind.Images, "input "+s.Input+" (a folder of images, one subfolder per class)"); err != nil {
					return nil, err
				}
			}
			return input.ReadTableFile(ctx, path, opt)
		}
		b, err := readFile(ctx, files, s.ID, "input", path)
		if err != nil {
			return nil, err
		}
		return input.ReadTable(ctx, b, path, opt)
	case s.Graph != "":
		path := Join(root, s.Graph)
		opt := dataset.GraphOptions{Spelling: Spelling()}
		if Scheme(path) == "" {
			return input.ReadGraphFile(ctx, path, opt)
		}
		b, err := readFile(ctx, files, s.ID, "graph", path)
		if err != nil {
			return nil, err
		}
		return input.ReadGraph(ctx, b, path, opt)
	case s.Dataset != "":
		field, dr := "data_root", s.DataRoot
		if dr == "" {
			field, dr = "data_root (default "+catalog.DefaultRoot()+")", catalog.DefaultRoot()
		}
		dr = Join(root, dr)
		if Scheme(dr) != "" {
			return nil, fmt.Errorf("%w: job %s: %s %s: a catalog dataset is read from a local folder (give an absolute local data_root)", ErrScheme, s.ID, field, dr)
		}
		return input.ReadCatalogSpelled(ctx, s.Dataset, dr, s.spelling())
	default:
		g, p, err := genParams(s)
		if err != nil {
			return nil, err
		}
		d, err := input.Generate(ctx, g, p, s.GenSeed)
		if err != nil {
			return nil, genValueError(s, err)
		}
		if note := genKNote(s, g, p); note != "" {
			d.Notes = append(d.Notes, note)
		}
		return d, nil
	}
}

// genParams returns the generator of s.Gen and its parameters set from
// s.GenParams (input.GenParams), with errors that name the entry of
// gen_params at fault and its value first, then what is wrong with it: a
// key the generator does not read lists the generator's own parameters
// (not every generator's) with the closest one (`gen_params.nosie =
// "0.1": gen moons: synth: invalid parameter: moons has no parameter
// nosie (it reads n, noise): did you mean noise?`), a value that does not
// parse says what it should be (`gen_params.n = "1e12": gen moons: synth:
// invalid parameter: want an integer`). An unknown generator, and k given
// to a generator of fixed classes, are input.GenParams' errors. Errors
// wrap synth.ErrInvalid. Cost O(len(GenParams)·log).
func genParams(s *Spec) (synth.Generator, synth.Params, error) {
	g, err := synth.Lookup(s.Gen)
	if err != nil {
		return input.GenParams(s.Gen, s.GenParams)
	}
	keys := slices.Sorted(maps.Keys(s.GenParams))
	for _, k := range keys {
		v := s.GenParams[k]
		if !slices.Contains(g.Params, k) && (k != "k" || g.Classes == 0) {
			return g, synth.Params{}, fmt.Errorf("gen_params.%s = %q: gen %s: %w: %s has no parameter %s (it reads %s)%s", k, v, g.Name, synth.ErrInvalid, g.Name, k, strings.Join(g.Params, ", "), suggest.Hint(k, g.Params))
		}
		var p synth.Params
		if err := p.Set(k, v); err != nil {
			want := "a number" // synth.Params.Set: n, k and dim are integers
			if k == "n" || k == "k" || k == "dim" {
				want = "an integer"
			}
			return g, synth.Params{}, fmt.Errorf("gen_params.%s = %q: gen %s: %w: want %s", k, v, g.Name, synth.ErrInvalid, want)
		}
	}
	return input.GenParams(s.Gen, s.GenParams)
}

// genValueError returns err, the error of generating the data of s,
// prefixed by the entries of gen_params at fault, those of the
// parameters a *synth.ParamError in err names that s gives (in the order
// of s.GenParams' keys): `gen_params.n = "0": gen moons: synth: invalid
// parameter: Moons: n = 0, want ≥ 1`. A parameter left at its default is
// not named. The result wraps err. Cost O(len(GenParams)·log).
func genValueError(s *Spec, err error) error {
	var pe *synth.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	var named []string
	for _, k := range slices.Sorted(maps.Keys(s.GenParams)) {
		if slices.Contains(pe.Params, k) {
			named = append(named, fmt.Sprintf("gen_params.%s = %q", k, s.GenParams[k]))
		}
	}
	if len(named) == 0 {
		return err
	}
	return fmt.Errorf("%s: %w", strings.Join(named, ", "), err)
}

// genKNote returns the note of a job whose k (> 0) differs from the
// number of classes its generator g made with parameters p (g.Classes, or
// p.K), "" otherwise (input.GenKNote, which tether cluster -gen says too).
// tether cluster's -gen-k follows -k when only -k is given; a job's
// generator does not follow k: gen_params "k" sets its classes, and
// without it the generator's default does (blobs 3, sbm 2).
func genKNote(s *Spec, g synth.Generator, p synth.Params) string {
	set := ""
	if _, ok := s.GenParams["k"]; ok {
		set = `gen_params "k"`
	}
	return input.GenKNote(s.K, g, p, set, `a job's k does not set the generator's classes, gen_params "k" does (tether cluster's -gen-k follows -k)`)
}

// readTruth replaces the reference labels of d with those of the job's
// truth file (Spec.Truth, joined to root), read as tether cluster -truth
// reads it (input.Data.ReadTruthSpelled; through files for a path with a
// scheme, input.Data.ReadTruthFrom). Errors name the job and the field.
// Cost: one read of the file, O(size + n).
func readTruth(ctx context.Context, s *Spec, root string, files Files, d *input.Data) error {
	path := Join(root, s.Truth)
	var err error
	if Scheme(path) == "" {
		err = d.ReadTruthSpelled(ctx, path, s.spelling())
	} else {
		var b []byte
		if b, err = readFile(ctx, files, s.ID, "truth", path); err != nil {
			return err
		}
		err = d.ReadTruthFrom(ctx, bytes.NewReader(b), path, s.spelling())
	}
	if err != nil {
		return fmt.Errorf("job %s: truth: %w", s.ID, err)
	}
	return nil
}

// readLocal returns the content of the local file name, opened with
// inputfile.Open as input's readers open theirs. Cost: one read, held in
// memory.
func readLocal(ctx context.Context, name string) ([]byte, error) {
	f, err := inputfile.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// readFile reads the file path, the job's field (as the manifest spells
// it), through files; errors name the job, the field and the path.
func readFile(ctx context.Context, files Files, id, field, path string) ([]byte, error) {
	if files == nil {
		return nil, fmt.Errorf("%w: job %s: %s %s: no Files to read it with (RunFiles takes one)", ErrScheme, id, field, path)
	}
	b, err := files.ReadFile(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("job %s: %s %s: %w", id, field, path, err)
	}
	return b, nil
}

// sample draws the side information of s.Sample from the reference labels
// truth into p; the draws stop with ctx's error once ctx is cancelled.
func sample(ctx context.Context, s *Spec, truth []int, p *cluster.Problem) error {
	sm := s.Sample
	if sm == nil || (sm.Pairs == 0 && sm.LabelFraction == 0) {
		return nil
	}
	if truth == nil {
		return fmt.Errorf(`%w: job %s: sample needs reference labels and the data have none: give them with "truth" (a labels file)`, ErrSpec, s.ID)
	}
	var err error
	src := rand.NewPCG(sm.Seed, 0x6a6f62) // "job"
	if sm.Pairs > 0 {
		if p.Constraints, err = constraint.UniformPairsContext(ctx, truth, sm.Pairs, src); err != nil {
			return err
		}
	}
	if sm.LabelFraction > 0 {
		if p.Labels, err = constraint.FractionLabelsContext(ctx, truth, sm.LabelFraction, src); err != nil {
			return err
		}
	}
	return nil
}

// RunAll runs the jobs one after the other (each job's methods use the
// cores themselves) and returns their results in order. It stops early
// only when ctx is cancelled: the remaining jobs then report ctx's error.
func RunAll(ctx context.Context, specs []Spec, root string) []*Result {
	out := make([]*Result, len(specs))
	for i, s := range specs {
		out[i] = Run(ctx, s, root)
	}
	return out
}

// explainBound returns err, when it is a refusal by the run's memory
// bound (memguard.Refused: the library's sentinels), followed by where
// the bound of bytes comes from (the job's max_memory_mib mib, or 3/4 of
// the available memory when mib is 0) and the remedies in the job's
// fields; any other err as it is. The result wraps err. Cost O(depth of
// err's chain).
func explainBound(err error, bytes int64, mib int) error {
	if err == nil || !memguard.Refused(err) {
		return err
	}
	origin := fmt.Sprintf("3/4 of the available memory (%s)", wording.Bytes(bytes))
	if mib > 0 {
		origin = fmt.Sprintf(`"max_memory_mib": %d (%s)`, mib, wording.Bytes(bytes))
	}
	return fmt.Errorf(`%w; the job's dense blocks are bounded by %s: ask for a smaller "k", fewer classes in "labels", fewer constraints or smaller "knobs" that size the eigenvectors (M, Rank), or raise the bound with "max_memory_mib"`, err, origin)
}
