package job

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/internal/inputkind"
)

// ErrSpec marks a malformed Spec or manifest line.
var ErrSpec = errors.New("job: bad spec")

// MaxLine is the longest manifest line ReadManifest accepts, in bytes.
const MaxLine = 1 << 20

// Spec describes one clustering job. Exactly one of Input, Graph, Dataset
// and Gen gives the data. Relative paths are resolved against the root
// passed to Run (the manifest's folder for a batch) with Join; a path may
// have a scheme ("gs://b/x.csv", read through RunFiles' Files).
type Spec struct {
	// ID names the job in results and output files; unique in a manifest.
	// Letters, digits, '.', '-' and '_' only.
	ID string `json:"id"`

	// Input is a feature table (CSV, TSV, ARFF) or a folder of images
	// (input.ReadTableFile); Label names the table's class column: ""
	// means a column named label, class, target or y if there is one
	// (ARFF: the last attribute), "none" means none (see input.ReadTable
	// and dataset.Options). Label with any other input (a folder of
	// images, a graph, a catalog dataset, a generator) is an error.
	Input string `json:"input,omitempty"`
	Label string `json:"label,omitempty"`
	// Scale scales the numeric columns of the feature table of Input, as
	// tether cluster's -scale does (dataset.Options.Scale): "none" (or
	// absent) keeps them as read, "minmax" maps each onto [0, 1],
	// "zscore" to zero mean and unit variance. With any other input it
	// is an error, as Label is.
	Scale dataset.Scale `json:"scale,omitempty"`
	// Missing is the policy for the missing values of the feature table
	// of Input, as tether cluster's -missing (dataset.Options.Missing):
	// "reject" (or absent) refuses them, "impute" fills them (a column's
	// mean or most frequent category, with a note), "drop" drops their
	// rows (with a warning; when rows were dropped the labels file has
	// name,cluster lines, as tether cluster -o writes, each row kept named
	// by the table's ID column or its 0-based row number in the file:
	// Result.WriteLabels). A missing value is ? or an empty
	// field, or one of MissingMarkers: field values that mean missing
	// besides those two, as tether cluster's -missing-markers lists them
	// (dataset.FrontMissingMarkers: ["NA", "NULL"] for the NA of R's
	// write.csv and SQL's NULL); a number among them is an error. With
	// any other input either is an error, as Label is.
	Missing        dataset.MissingPolicy `json:"missing,omitempty"`
	MissingMarkers []string              `json:"missing_markers,omitempty"`
	// Graph is a graph file (edge list, .mtx or .mm, .gml, dense .csv).
	Graph string `json:"graph,omitempty"`
	// Dataset is a benchmark dataset of dataset/catalog, read from
	// DataRoot (default catalog.DefaultRoot()).
	Dataset  string `json:"dataset,omitempty"`
	DataRoot string `json:"data_root,omitempty"`
	// Gen is a generator of dataset/synth, with parameters by name (as
	// tether gen spells them, e.g. {"n": "300", "noise": "0.1"}) drawn with
	// GenSeed (tether gen -seed). DataRoot without Dataset, and GenParams
	// or GenSeed without Gen, are errors.
	//
	// Two defaults differ from tether cluster -gen's. The generator's
	// number of classes is GenParams["k"], else the generator's default
	// (blobs and interlaced 3, sbm and dcsbm 2; moons, circles and xor
	// always make 2), never K: tether cluster's -gen-k follows -k when
	// only -k is given. A job whose K (> 0) differs from the classes made
	// has a note saying so in its result. GenSeed is 0 when absent, not
	// Seed: tether cluster's -gen-seed follows -seed. To generate the data
	// of tether cluster -gen G -k K -seed S, give "gen_params": {"k": "K"}
	// (for a generator that reads k) and "gen_seed": S.
	Gen       string            `json:"gen,omitempty"`
	GenParams map[string]string `json:"gen_params,omitempty"`
	GenSeed   uint64            `json:"gen_seed,omitempty"`

	// KNN is the number of neighbours of the k-NN graph built from
	// features (0: graph.DefaultSpec()). KNN with data that is a graph
	// (Graph, a graph generator, a catalog graph) is an error. A method
	// of the feature rows alone (cpca, cvqe, plmeans with
	// Kernel=features) builds no graph: KNN, NormalizeWeights and
	// SelfLoops then draw a warning that they apply to none (see Run).
	KNN int `json:"knn,omitempty"`
	// NormalizeWeights divides the graph's weights by the largest edge
	// weight, with a note (graph.Graph.Normalized; tether cluster
	// -normalize-weights): the scale of similarities in [0, 1] that the
	// methods declaring cluster.Uses.WeightScale read. SelfLoops adds
	// that weight to every node's self loop after it (tether cluster
	// -self-loops; finite, in [0, 10¹²]).
	NormalizeWeights bool    `json:"normalize_weights,omitempty"`
	SelfLoops        float64 `json:"self_loops,omitempty"`

	// Constraints is a must-link/cannot-link file, kept as read (the Soft
	// policy); Labels a partial labels file, by index or by node name
	// (input.Supervision, as tether cluster -constraints and
	// -partial-labels read them).
	Constraints string `json:"constraints,omitempty"`
	Labels      string `json:"labels,omitempty"`
	// Truth is a labels file of the data's reference labels, read as
	// tether cluster -truth reads it (input.Data.ReadTruth: one label a
	// line, or node,label lines by index or by node name): Result's ari
	// and nmi compare the partition with it, and Sample draws from it. It
	// replaces the reference labels the data have of their own (a
	// table's class column, a generator's classes), with a note saying
	// so. It applies to every kind of input, as -truth does
	// (internal/inputkind), and gives the reference labels a graph file
	// has none of.
	Truth string `json:"truth,omitempty"`
	// Sample draws side information from the reference labels instead of
	// files (for grids over protocols): those of the data or of Truth.
	Sample *Sample `json:"sample,omitempty"`

	// Method is a registered method name (default: cluster.DefaultMethod,
	// "auto" when the job has constraints, partial labels or a Sample that
	// draws either,
	// else "njw"); Knobs are its knob settings, "Name=value"
	// (cluster.SetKnobs).
	Method string   `json:"method,omitempty"`
	Knobs  []string `json:"knobs,omitempty"`
	// K is the number of clusters: 0 for methods that estimate it, and
	// for a method of partial labels that does not (auto, labelprop, …),
	// the number of classes of Labels, or of the reference when
	// Sample.LabelFraction draws the labels (with a note), as tether
	// cluster takes it without -k. A method that chooses k itself
	// (opplc, plmeans: cluster.Uses.FindsK) refuses a k > 0, as tether
	// cluster's -k.
	K int `json:"k"`
	// Seed seeds the clustering (cluster.Settings.Seed). It is 0 when
	// absent, where tether cluster's -seed defaults to 1: give "seed": 1
	// for the clustering of a tether cluster run without -seed.
	Seed uint64 `json:"seed"`
	// MaxMemoryMiB bounds the memory, in MiB (2²⁰ bytes), of the run's
	// dense blocks (a dense eigensolve, the Lanczos basis, labelprop's
	// class scores, cvqe's distances), as tether cluster's
	// -max-memory-mib: a job that needs more fails, naming the bytes,
	// before allocating them. 0 (absent): 3/4 of the memory available to
	// the process (the machine's or its container's; internal/memguard).
	// A negative value, or one above 2³⁰, is refused by Validate.
	MaxMemoryMiB int `json:"max_memory_mib,omitempty"`
}

// maxMemoryMiB is the largest Spec.MaxMemoryMiB, as tether cluster's
// -max-memory-mib: 2³⁰ MiB, 1 PiB.
const maxMemoryMiB = 1 << 30

// Sample draws side information from the reference labels of the data.
type Sample struct {
	// Pairs draws this many distinct pairs uniformly, each must-link when
	// the reference puts both nodes in one class, else cannot-link
	// (constraint.UniformPairs).
	Pairs int `json:"pairs,omitempty"`
	// LabelFraction reveals the labels of this fraction of the nodes,
	// drawn uniformly among all of them, not per class
	// (constraint.FractionLabels).
	LabelFraction float64 `json:"label_fraction,omitempty"`
	// Seed seeds the draw.
	Seed uint64 `json:"seed"`
}

// checkID returns an error wrapping ErrSpec unless id is a job id: not
// empty, not "." or "..", only letters, digits, '.', '-' and '_' (so that
// LabelsPath stays inside its folder).
func checkID(id string) error {
	if id == "" {
		return fmt.Errorf("%w: missing id", ErrSpec)
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') || id == "." || id == ".." {
			return fmt.Errorf("%w: id %q: use letters, digits, '.', '-' and '_'", ErrSpec, id)
		}
	}
	return nil
}

// Validate checks the Spec's own fields (not the files they name): among
// them, that each field applies to the input (label to a feature table,
// knn to data whose graph is built from features, as tether cluster's
// -label and -knn). Run checks again once it knows what the input is (a
// folder of images, a catalog dataset that is a graph).
func (s *Spec) Validate() error {
	if err := checkID(s.ID); err != nil {
		return err
	}
	count := 0
	for _, v := range []string{s.Input, s.Graph, s.Dataset, s.Gen} {
		if v != "" {
			count++
		}
	}
	if count != 1 {
		return fmt.Errorf("%w: job %s: give exactly one of input, graph, dataset and gen", ErrSpec, s.ID)
	}
	if s.K < 0 || s.KNN < 0 {
		return fmt.Errorf("%w: job %s: negative k or knn", ErrSpec, s.ID)
	}
	if s.MaxMemoryMiB < 0 || s.MaxMemoryMiB > maxMemoryMiB {
		return fmt.Errorf("%w: job %s: max_memory_mib = %d, want MiB in [0, %d] (0: 3/4 of the available memory)", ErrSpec, s.ID, s.MaxMemoryMiB, maxMemoryMiB)
	}
	if !(s.SelfLoops >= 0 && s.SelfLoops <= 1e12) {
		return fmt.Errorf("%w: job %s: self_loops = %v, want a weight in [0, 1e12]", ErrSpec, s.ID, s.SelfLoops)
	}
	if err := s.checkApplies(s.inputKinds()); err != nil {
		return err
	}
	if _, err := dataset.FrontMissingMarkers(s.MissingMarkers); err != nil {
		return fmt.Errorf("%w: job %s: missing_markers: %v", ErrSpec, s.ID, err)
	}
	if sm := s.Sample; sm != nil {
		if sm.Pairs < 0 || !(sm.LabelFraction >= 0 && sm.LabelFraction <= 1) {
			return fmt.Errorf("%w: job %s: sample wants pairs ≥ 0 and label_fraction in [0, 1]", ErrSpec, s.ID)
		}
		if s.Constraints != "" && sm.Pairs > 0 || s.Labels != "" && sm.LabelFraction > 0 {
			return fmt.Errorf("%w: job %s: side information both from a file and sampled", ErrSpec, s.ID)
		}
	}
	return nil
}

// inputFields are the fields of Spec that apply to some kinds of input
// only, as tether cluster's flags of the same meaning (flag) do: inputkind
// says which kinds.
var inputFields = []struct {
	name, flag string
	what       string // "builds the graph from features", as tether cluster says
	set        func(*Spec) bool
}{
	{"label", "label", "is an option of the feature table of input", func(s *Spec) bool { return s.Label != "" }},
	{"scale", "scale", "is an option of the feature table of input", func(s *Spec) bool { return s.Scale != dataset.ScaleNone }},
	{"missing", "missing", "is an option of the feature table of input", func(s *Spec) bool { return s.Missing != dataset.MissingReject }},
	{"missing_markers", "missing-markers", "is an option of the feature table of input", func(s *Spec) bool { return len(s.MissingMarkers) > 0 }},
	{"knn", "knn", "builds the graph from features", func(s *Spec) bool { return s.KNN != 0 }},
	{"truth", "truth", "gives the reference labels of the data", func(s *Spec) bool { return s.Truth != "" }},
}

// inputKinds returns the kinds of input s may name, before its data are
// read, and how the errors of checkApplies name it: a feature table or a
// folder of images for Input (a stat tells them apart, at the reading), a
// graph file, the points or graph of a generator, and for a catalog
// dataset feature rows or a graph with labels of their own (as a
// generator's are: inputkind has no kind of its own for them).
func (s *Spec) inputKinds() (inputkind.Kind, string) {
	switch {
	case s.Input != "":
		return inputkind.Table | inputkind.Images, "input"
	case s.Graph != "":
		return inputkind.GraphFile, "graph (the file is the graph)"
	case s.Dataset != "":
		return inputkind.Points | inputkind.GenGraph, "dataset " + s.Dataset + " (a catalog dataset, with its own labels)"
	}
	g, err := synth.Lookup(s.Gen)
	switch {
	case err != nil: // an unknown generator: run says so
		return inputkind.Points | inputkind.GenGraph, "gen " + s.Gen
	case g.Graph:
		return inputkind.GenGraph, "gen " + g.Name + " (it generates a graph)"
	}
	return inputkind.Points, "gen " + g.Name + " (it generates points)"
}

// checkApplies refuses, with an error wrapping ErrSpec that names the job
// and the field, a field of s that applies to none of the kinds of input
// kinds, which source names (inputKinds): label but for a feature table,
// knn with a graph. It refuses the parameters of a generator without gen
// (gen_params, gen_seed) and the data_root of a catalog dataset without
// dataset too.
func (s *Spec) checkApplies(kinds inputkind.Kind, source string) error {
	for _, f := range inputFields {
		if k, _ := inputkind.Of(f.flag); f.set(s) && k&kinds == 0 {
			return fmt.Errorf("%w: job %s: %s %s and does not apply to %s", ErrSpec, s.ID, f.name, f.what, source)
		}
	}
	switch {
	case s.Gen == "" && len(s.GenParams) > 0:
		return fmt.Errorf("%w: job %s: gen_params are the parameters of gen and do not apply without it", ErrSpec, s.ID)
	case s.Gen == "" && s.GenSeed != 0:
		return fmt.Errorf("%w: job %s: gen_seed seeds gen and does not apply without it", ErrSpec, s.ID)
	case s.Dataset == "" && s.DataRoot != "":
		return fmt.Errorf("%w: job %s: data_root is the folder of the catalog of dataset and does not apply without it", ErrSpec, s.ID)
	}
	return nil
}

// ParseSpec decodes one manifest line (strict: unknown fields are errors)
// and validates it. A line that is not a Spec in JSON gives a *SyntaxError
// (the column and what was wrong, a field named by its JSON name: `field
// "k": want an integer, got a string`); LineError puts the file and line
// before it. Cost O(len(line)).
func ParseSpec(line []byte) (*Spec, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var s Spec
	if err := dec.Decode(&s); err != nil {
		return nil, syntaxError(line, err)
	}
	if dec.More() {
		off := int(dec.InputOffset())
		off += len(line[off:]) - len(bytes.TrimLeft(line[off:], " \t\r\n"))
		return nil, &SyntaxError{Column: column(line, off), Msg: "more than one JSON value on the line (one job a line)"}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// ReadManifest reads a JSON Lines manifest: one Spec per line; blank lines
// and lines starting with '#' are skipped. Errors name the file (name) and
// line, and the column of a line that is not JSON (LineError), and a
// repeated id is an error. Cost O(size).
func ReadManifest(r io.Reader, name string) ([]Spec, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), MaxLine)
	var out []Spec
	seen := map[string]int{}
	for ln := 1; sc.Scan(); ln++ {
		// Leading blanks are kept, so that a column counts from the
		// line's first character (the BOM of line 1 aside).
		line := bytes.TrimRight(sc.Bytes(), " \t\r\n")
		if ln == 1 {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		if t := bytes.TrimSpace(line); len(t) == 0 || t[0] == '#' {
			continue
		}
		s, err := ParseSpec(line)
		if err != nil {
			return nil, LineError(name, ln, err)
		}
		if prev, ok := seen[s.ID]; ok {
			return nil, fmt.Errorf("%s:%d: %w: id %q already used on line %d", name, ln, ErrSpec, s.ID, prev)
		}
		seen[s.ID] = ln
		out = append(out, *s)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s: %w: a line is longer than %d bytes", name, ErrSpec, MaxLine)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// methodName returns s.Method or the default (cluster.DefaultMethod).
func (s *Spec) methodName() string {
	if m := strings.TrimSpace(s.Method); m != "" {
		return m
	}
	sampled := s.Sample != nil && (s.Sample.Pairs > 0 || s.Sample.LabelFraction > 0)
	return cluster.DefaultMethod(s.Constraints != "" || s.Labels != "" || sampled)
}
