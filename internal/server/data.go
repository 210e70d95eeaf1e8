package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/internal/inputkind"
)

// Source says where a session's data came from, so that a saved session
// can be loaded again: exactly one of Initial, Generate, File and Upload
// is set (a saved session may give the upload as UploadBase64 instead).
type Source struct {
	// Initial is the data the server was started with (tether serve
	// -input, -graph-file or -gen).
	Initial  bool             `json:"initial,omitempty"`
	Generate *GenerateRequest `json:"generate,omitempty"`
	// File is a path relative to the -data root.
	File string `json:"file,omitempty"`
	// Upload is the content of an uploaded file: the request body's
	// buffer itself, handed to the readers without a copy (uploadText).
	Upload uploadText `json:"upload,omitempty"`
	// UploadBase64 is Upload in a saved session, in base64 (JSON's
	// encoding of []byte), when the content is not UTF-8 (JSON would
	// replace the bytes that are not) or JSON's escapes would make it
	// longer than base64 does (control characters: 6 bytes each):
	// savedSource. The server holds the content in Upload only.
	UploadBase64 []byte      `json:"upload_base64,omitempty"`
	Options      ReadOptions `json:"options"`
}

// uploadText is an upload's content: bytes, so that the buffer the
// request body was read into is the one the readers parse and the session
// keeps (a string held a copy of it, and the readers, which take bytes, a
// third: 3 × the upload before parsing), written in JSON as a string, as
// when it was one (no HTML escapes; encoding/json replaces bytes that are
// not UTF-8, which savedSource writes in base64 instead). The readers
// only read it (bytes.NewReader), so it is never changed once read.
type uploadText []byte

// MarshalJSON writes u as a JSON string without HTML escapes. Cost
// O(len(u)), plus a copy of u (saves only).
func (u uploadText) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(u) + 2)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(string(u)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads u from a JSON string (null leaves u as it is, as
// for a string). Cost O(len(data)).
func (u *uploadText) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	*u = uploadText(s)
	return nil
}

// savedSource returns src as a saved session writes it: its upload as
// UploadBase64 when that is shorter than its JSON string (jsonStringLen)
// or the upload is not UTF-8, so that a saved session is at most 4/3 of
// its upload's size plus its constraints and request (loadLimit), and
// loads back the same bytes. Cost O(len(src.Upload)).
func savedSource(src Source) Source {
	if len(src.Upload) == 0 {
		return src
	}
	if b64 := int64(base64.StdEncoding.EncodedLen(len(src.Upload))); !utf8.Valid(src.Upload) || jsonStringLen(src.Upload) > b64 {
		src.UploadBase64, src.Upload = src.Upload, nil
	}
	return src
}

// jsonStringLen returns the length of s's JSON string, quotes excluded,
// as encoding/json writes it without HTML escapes: 2 bytes for a quote,
// a backslash, \n, \r and \t, 6 for the other control characters and
// for U+2028 and U+2029 (3 bytes in UTF-8), 1 for every other byte of
// valid UTF-8. Cost O(len(s)).
func jsonStringLen[T ~string | ~[]byte](s T) int64 {
	var n int64
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
			n += 2
		case c < 0x20:
			n += 6
		case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
			n += 6
			i += 2
		default:
			n++
		}
	}
	return n
}

// GenerateRequest names a generator of dataset/synth (tether gen) with its
// parameters; a missing parameter takes the generator's default.
type GenerateRequest struct {
	Name   string             `json:"name"`
	Params map[string]float64 `json:"params,omitempty"`
	Seed   uint64             `json:"seed"`
}

// ReadOptions are the reader options of tether cluster that an upload or a
// file can set (the flags of the same names).
type ReadOptions struct {
	// Name is the file name: its extension chooses the reader.
	Name string `json:"name,omitempty"`
	// Kind is "features" (a feature table: CSV, TSV, ARFF), "graph"
	// (edge list, .mtx or .mm, .gml, dense .csv) or "" (auto): by the extension
	// (.mtx, .mm, .gml, .edges, .el a graph; .csv, .tsv, .arff a table),
	// else (.txt, .dat, none) by the content, a graph when it is an edge
	// list of numbered nodes without a header (lines "i j" or "i j w"),
	// with a note saying so, a table otherwise: see kindOf.
	Kind      string `json:"kind,omitempty"`
	Label     string `json:"label,omitempty"`
	ID        string `json:"id,omitempty"`
	Delim     string `json:"delim,omitempty"`
	Header    string `json:"header,omitempty"`
	Scale     string `json:"scale,omitempty"`
	Missing   string `json:"missing,omitempty"`
	GMLLabel  string `json:"gml_label,omitempty"`
	Symmetric bool   `json:"symmetrize,omitempty"`
	// MissingMarkers are the field values of a feature table that mean
	// a missing value besides ? and the empty field, which always do, as
	// tether cluster's -missing-markers lists them
	// (dataset.FrontMissingMarkers): ["NA", "NULL"] in JSON, NA,NULL
	// (comma-separated) in an upload's query. A number is refused (400).
	MissingMarkers []string `json:"missing_markers,omitempty"`
	// NormalizeWeights and SelfLoops change the weights of the graph of
	// any data (a file of either kind, generated data) as tether
	// cluster's -normalize-weights and -self-loops do
	// (input.Data.AdjustWeights, shared with them and with a job's
	// normalize_weights and self_loops): every weight is divided by the
	// largest edge weight, with a note naming normalize_weights, then
	// SelfLoops, a weight in [0, 10¹²], is added to every node's self
	// loop. The server's initial data take tether serve's flags instead
	// (weightOptions).
	NormalizeWeights bool    `json:"normalize_weights,omitempty"`
	SelfLoops        float64 `json:"self_loops,omitempty"`
}

// errBadInput marks errors that come from the data or the request (HTTP
// 400).
var errBadInput = errors.New("bad input")

// readOption is an option of ReadOptions that applies to some kinds of
// file only.
type readOption struct {
	name string // its JSON and query name
	flag string // tether cluster's flag of the same meaning (inputkind.Of)
	set  func(ReadOptions) bool
}

// readOptions are the options of ReadOptions that apply to one kind of
// file only, as tether cluster's flags of the same names apply to -input
// or to -graph-file: inputkind says which (TestReadOptionsApply checks
// that it is one of the two kinds a file is read as). Name and Kind apply
// to every file.
var readOptions = []readOption{
	{"label", "label", func(o ReadOptions) bool { return o.Label != "" }},
	{"id", "id", func(o ReadOptions) bool { return o.ID != "" }},
	{"delim", "delim", func(o ReadOptions) bool { return o.Delim != "" }},
	{"header", "header", func(o ReadOptions) bool { return o.Header != "" }},
	{"scale", "scale", func(o ReadOptions) bool { return o.Scale != "" }},
	{"missing", "missing", func(o ReadOptions) bool { return o.Missing != "" }},
	{"missing_markers", "missing-markers", func(o ReadOptions) bool { return len(o.MissingMarkers) > 0 }},
	{"gml_label", "gml-label", func(o ReadOptions) bool { return o.GMLLabel != "" }},
	{"symmetrize", "symmetrize", func(o ReadOptions) bool { return o.Symmetric }},
}

// weightOptions are the options of ReadOptions that change the weights of
// the graph of any data but the server's initial data, as tether
// cluster's flags of the same meaning do (inputkind: every kind of data).
var weightOptions = []readOption{
	{"normalize_weights", "normalize-weights", func(o ReadOptions) bool { return o.NormalizeWeights }},
	{"self_loops", "self-loops", func(o ReadOptions) bool { return o.SelfLoops != 0 }},
}

// maxSelfLoops bounds ReadOptions.SelfLoops, as tether cluster bounds
// -self-loops and a job self_loops.
const maxSelfLoops = 1e12

// checkInitialWeights refuses, as bad input, the weight options of o with
// the server's initial data, whose graph tether serve's -normalize-weights
// and -self-loops made and every session shares.
func (o ReadOptions) checkInitialWeights() error {
	for _, r := range weightOptions {
		if r.set(o) {
			return fmt.Errorf("%w: option %s does not apply to the server's initial data: their weights are those of tether serve's flags (-%s)", errBadInput, r.name, r.flag)
		}
	}
	return nil
}

// adjustWeights applies o's NormalizeWeights and SelfLoops to the graph
// of d, data read or generated for this request (never the server's
// initial data, which sessions share), with input.Data.AdjustWeights:
// the note of the division names normalize_weights. A SelfLoops outside
// [0, 10¹²] or not a number, and weights that the division underflows,
// are bad input. Cost O(nnz + n).
func (o ReadOptions) adjustWeights(d *input.Data) error {
	if !(o.SelfLoops >= 0 && o.SelfLoops <= maxSelfLoops) {
		return fmt.Errorf("%w: self_loops = %v, want a weight in [0, %g]", errBadInput, o.SelfLoops, float64(maxSelfLoops))
	}
	if err := d.AdjustWeights(o.NormalizeWeights, "normalize_weights", o.SelfLoops); err != nil {
		return fmt.Errorf("%w: %s: %w", errBadInput, d.Name, err)
	}
	return nil
}

// fileKind returns the inputkind of a file read as kind ("features" or
// "graph", kindOf).
func fileKind(kind string) inputkind.Kind {
	if kind == "graph" {
		return inputkind.GraphFile
	}
	return inputkind.Table
}

// checkApplies refuses, as bad input, an option of o that does not apply
// to the kind of file it is read as (kindOf, for the reason how), as
// tether cluster refuses -delim with -graph-file: the feature table's
// options for a graph file, gml_label and symmetrize for a feature table.
// name is the file's name.
func (o ReadOptions) checkApplies(kind, how, name string) error {
	for _, r := range readOptions {
		if k, _ := inputkind.Of(r.flag); !r.set(o) || k&fileKind(kind) != 0 {
			continue
		}
		if kind == "graph" {
			hint := ""
			switch {
			case how == byContent:
				hint = ": give kind features to read it as a feature table"
			case r.name == "label":
				hint = ": gml_label names the GML node attribute holding the labels"
			}
			return fmt.Errorf("%w: option %s is an option of a feature table and does not apply to %s, a graph file (%s)%s", errBadInput, r.name, name, how, hint)
		}
		hint := ""
		if o.Kind == "" {
			hint = ": give kind graph to read it as a graph"
		}
		return fmt.Errorf("%w: option %s is an option of a graph file and does not apply to %s, a feature table (%s)%s", errBadInput, r.name, name, how, hint)
	}
	return nil
}

// checkNoOptions refuses, as bad input, options given with data that is
// not read from a file: src says what it is ("generated data").
func (o ReadOptions) checkNoOptions(src string) error {
	var set []string
	if o.Name != "" {
		set = append(set, "name")
	}
	if o.Kind != "" {
		set = append(set, "kind")
	}
	for _, r := range readOptions {
		if r.set(o) {
			set = append(set, r.name)
		}
	}
	switch {
	case len(set) == 1:
		return fmt.Errorf("%w: option %s is an option of a file and does not apply to %s", errBadInput, set[0], src)
	case set != nil:
		return fmt.Errorf("%w: options %s are options of a file and do not apply to %s", errBadInput, strings.Join(set, ", "), src)
	}
	return nil
}

// kindOf returns how the file o names, holding content, is read, "graph"
// or "features", and why, for messages ("kind graph", "by its extension",
// "by its content, an edge list"). Kind decides when given. Otherwise
// (the page's "auto") the extension decides when it names a format: .mtx,
// .mm, .gml, .edges, .el a graph; .csv, .tsv, .arff a feature table, as
// tether cluster -input reads them (a dense affinity matrix or an edge
// list in a .csv is read as a graph with kind graph, as with tether
// cluster -graph-file). Any other name (.txt, .dat, none) is read by its
// content: a graph when it is an edge list of numbered nodes without a
// header (dataset.DetectEdgeList: lines "i j" or "i j w", comment lines
// '#' and '%' allowed, as tether gen dcsbm -o dc.txt writes), a feature
// table otherwise (a header, text or decimals in the first two columns,
// other numbers of columns). Cost: O(len(content)) when the content
// decides.
func (o ReadOptions) kindOf(ctx context.Context, content []byte, name string) (kind, how string, err error) {
	switch o.Kind {
	case "features", "graph":
		return o.Kind, "kind " + o.Kind, nil
	case "":
	default:
		return "", "", fmt.Errorf("%w: kind %q, want features or graph", errBadInput, o.Kind)
	}
	switch strings.ToLower(filepath.Ext(o.Name)) {
	case ".mtx", ".mm", ".gml", ".edges", ".el":
		return "graph", "by its extension", nil
	case ".csv", ".tsv", ".arff":
		return "features", "by its extension", nil
	}
	edges, err := dataset.DetectEdgeList(ctx, bytes.NewReader(content), name)
	if err != nil {
		return "", "", fmt.Errorf("%w: %w", errBadInput, err)
	}
	if edges {
		return "graph", byContent, nil
	}
	return "features", "by its content", nil
}

// byContent is kindOf's reason for a file read as a graph by its content.
const byContent = "by its content, an edge list"

// spelling returns how the notes, warnings and errors of packages dataset
// and input, and those of graph building, name the options they suggest
// to the uploader of a file: as ReadOptions ("option label none", "option
// missing drop", "option missing_markers NA", "option delim ;", "option
// symmetrize true", "option scale minmax"). ReadOptions has nothing for tether cluster's -drop,
// -categorical, -graph-format, -named-nodes and -graph-base, and the
// graph's -knn, -sigma and -max-full and the bound on the nodes are the
// operator's (tether serve's flags, Config.MaxNodes: "this server's
// limit"), not the uploader's: the messages then name the library's
// option, or what to change in the file, or nothing. The output that
// names the nodes is the labels export (…/export/labels).
func spelling() dataset.Spelling {
	return dataset.Spelling{Front: "serve", Style: dataset.StyleOption, Label: "label", ID: "id", Missing: "missing", MissingMarkers: "missing_markers",
		Delim: "delim", Header: "header", Symmetrize: "symmetrize", GMLLabel: "gml_label", Scale: "scale",
		NodeLimit: "this server's limit", Outputs: "the labels export"}
}

// readData parses a file's content with the readers of tether cluster
// (package input) and builds the graph of feature rows with spec.
// maxNodes bounds the number of rows or nodes, and budget (in nodes, see
// cost; Config.MaxTotalNodes) what a feature table's rows, features and,
// for an upload (upload: the session holds its text), text count as,
// before the graph is built: a table's features, after one-hot encoding,
// are bounded by the reader (dataset.Options.MaxCells: the 8-byte values
// the budget holds beside the text), whose error names a categorical
// column that passes it and its number of values, and the rows with
// their features and text by cost. The k-NN graph of a table of 16 000
// rows and 8000 one-hot features (a 125 KB upload) took 2 minutes and
// 1 GB before the budget refused it (review 116). A dense matrix's
// entries are bounded so too (dataset.GraphOptions.MaxDenseEntries: the
// 12-byte entries the budget holds beside the text), checked as they are
// read, and so are the edges of an edge list or Matrix Market file
// (GraphOptions.MaxEntries: edgeReadBytes each): a 64 MiB edge list took
// about 15 times its size before the budget refused it, and each edge
// past the budget is no longer read.
func readData(ctx context.Context, content []byte, o ReadOptions, spec graph.Spec, maxNodes, budget int, upload bool) (*input.Data, error) {
	name := o.Name
	if name == "" {
		name = "upload"
	}
	kind, how, err := o.kindOf(ctx, content, name)
	if err != nil {
		return nil, err
	}
	if err := o.checkApplies(kind, how, name); err != nil {
		return nil, err
	}
	text := 0
	if upload {
		text = len(content)
	}
	if kind == "graph" {
		// A dense matrix's entries are bounded as a table's cells are: by
		// the budget beside the text (its reader keeps 12 bytes or so an
		// entry; it kept 60 times the file before, review of tether serve).
		// An edge list's or Matrix Market file's edges so too, at
		// edgeReadBytes an edge.
		room := int64(budget)*nodeBytes - int64(text)
		maxEntries := max(room/entryBytes, 1)
		maxEdges := max(room/edgeReadBytes, 1)
		gopt := dataset.GraphOptions{LabelAttr: o.GMLLabel, Symmetrize: o.Symmetric, MaxNodes: maxNodes, MaxDenseEntries: int(min(maxEntries, math.MaxInt)), MaxEntries: int(min(maxEdges, math.MaxInt)), Spelling: spelling()}
		d, err := input.ReadGraph(ctx, content, name, gopt)
		if err != nil {
			if be := (*dataset.BudgetError)(nil); errors.As(err, &be) {
				switch be.Limit {
				case dataset.LimitMaxDenseEntries:
					return nil, fmt.Errorf("%w: %w; the limit on the entries is this server's budget of %d nodes (1 KiB each) in %d-byte entries", errBadInput, err, budget, entryBytes)
				case dataset.LimitMaxEntries:
					return nil, fmt.Errorf("%w: %w; the limit on the edges is this server's budget of %d nodes (1 KiB each) in %d-byte edges", errBadInput, err, budget, edgeReadBytes)
				}
			}
			if how == byContent {
				return nil, fmt.Errorf("%w: %w; %s was read as a graph (%s): kind features reads it as a feature table", errBadInput, err, name, how)
			}
			return nil, fmt.Errorf("%w: %w", errBadInput, err)
		}
		if how == byContent {
			d.Notes = append(d.Notes, fmt.Sprintf("%s: read as a graph by its content, an edge list of numbered nodes (lines \"i j\" or \"i j w\"): kind features reads it as a feature table", name))
		}
		return d, nil
	}
	maxCells := max((int64(budget)*nodeBytes-int64(text))/8, 1)
	opt := dataset.Options{LabelColumn: o.Label, IDColumn: o.ID, Delimiter: o.Delim, MaxRows: maxNodes + 1, MaxCells: int(min(maxCells, math.MaxInt)), Spelling: spelling()}
	for _, f := range []struct {
		flag, v string
		u       interface{ UnmarshalText([]byte) error }
	}{{"header", o.Header, &opt.Header}, {"scale", o.Scale, &opt.Scale}, {"missing", o.Missing, &opt.Missing}} {
		if f.v == "" {
			continue
		}
		if err := f.u.UnmarshalText([]byte(f.v)); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", errBadInput, f.flag, err)
		}
	}
	if opt.MissingMarkers, err = dataset.FrontMissingMarkers(o.MissingMarkers); err != nil {
		return nil, fmt.Errorf("%w: missing_markers: %v", errBadInput, err)
	}
	d, err := input.ReadTable(ctx, content, name, opt)
	if err != nil {
		// A table reader's error on an edge list (dataset: dc.txt:2:
		// syntax error: 1 fields, want 3 as on line 1) says nothing of
		// the kind: say it. The check costs a pass over the content,
		// on failure only.
		if edges, _ := dataset.DetectEdgeList(ctx, bytes.NewReader(content), name); edges {
			return nil, fmt.Errorf("%w: %w; %s was read as a feature table (%s), but its lines look like an edge list: give kind graph to read it as a graph", errBadInput, err, name, how)
		}
		if errors.Is(err, dataset.ErrTooLarge) {
			return nil, fmt.Errorf("%w: %w; the limit on the cells is this server's budget of %d nodes (1 KiB each) in 8-byte values", errBadInput, err, budget)
		}
		return nil, fmt.Errorf("%w: %w", errBadInput, err)
	}
	if n := d.N(); n > maxNodes {
		return nil, fmt.Errorf("%w: %s has more than %d rows, this server's limit", errBadInput, name, maxNodes)
	}
	if n, dim := dims(d); cost(n, n*dim, 0, text) > budget {
		return nil, fmt.Errorf("%w: %s: its %d rows of %d features (after one-hot encoding) count as %d nodes, beyond this server's budget of %d: drop columns (a categorical one adds a feature for each of its values) or rows", errBadInput, name, n, dim, cost(n, n*dim, 0, text), budget)
	}
	if w := d.ScaleWarning("the option scale minmax (docs/api.md)"); w != "" {
		d.Warnings = append(d.Warnings, w)
	}
	// The server's graph settings are its operator's, not the uploader's:
	// a small upload gets neighbour counts that fit it.
	spec, smallWarning := input.FitSpec(spec, name, d.N(), false, false, spelling())
	if smallWarning != "" {
		d.Warnings = append(d.Warnings, smallWarning)
	}
	if _, err := d.BuildGraphSpelled(ctx, spec, nil, spelling()); err != nil {
		return nil, graphError(err, "make the rows differ: drop the repeated ones, or add a column that tells them apart (the option scale minmax helps rows that differ by tiny amounts only)")
	}
	return d, nil
}

// graphError returns err, the failure to build the graph of feature rows,
// as bad input. When the rows coincide so often that the RBF width σ
// cannot be chosen from their distances (graph.ErrDegenerateScale), the
// library's advice, "give σ explicitly", names what only the server's
// operator can do (tether serve -sigma); the message says so and ends
// with remedy, what the request can do instead (review 92). Cost
// O(len(err's text)).
func graphError(err error, remedy string) error {
	if !errors.Is(err, graph.ErrDegenerateScale) {
		return fmt.Errorf("%w: %w", errBadInput, err)
	}
	msg := err.Error()
	for _, advice := range []string{"; give σ explicitly", " or give σ explicitly"} {
		msg = strings.TrimSuffix(msg, advice)
	}
	return fmt.Errorf("%w: %s; a request cannot set σ (this server's operator can: tether serve -sigma): %s", errBadInput, msg, remedy)
}

// generateData runs a generator of dataset/synth as tether gen does (same
// parameters and seed, same data: input.Generate) and builds the graph of
// its points.
// budget (in nodes, see cost) bounds its features, or the expected
// entries of its graph (generatedEntries), before they are drawn: a
// request beyond it is bad input (400), as data beyond it read from a
// file are.
func generateData(ctx context.Context, req *GenerateRequest, spec graph.Spec, maxNodes, budget int) (*input.Data, error) {
	params := make(map[string]string, len(req.Params))
	for name, v := range req.Params {
		params[name] = strconv.FormatFloat(v, 'f', -1, 64) // 1000000, not 1e+06
	}
	g, p, err := input.GenParams(req.Name, params)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errBadInput, err)
	}
	if p.N > maxNodes {
		return nil, fmt.Errorf("%w: generator %s: n = %d exceeds this server's limit of %d nodes", errBadInput, req.Name, p.N, maxNodes)
	}
	if dim := min(max(p.Dim, 2), synth.MaxValues+1); !g.Graph && cost(p.N, p.N*dim, 0, 0) > budget {
		return nil, fmt.Errorf("%w: generator %s: n = %d points of dimension %d count as %d nodes, beyond this server's budget of %d", errBadInput, req.Name, p.N, p.Dim, cost(p.N, p.N*dim, 0, 0), budget)
	}
	if e := generatedEntries(g, p); e > 0 {
		if c := cost(p.N, 0, int(min(e, 1<<50)), 0); c > budget {
			return nil, fmt.Errorf("%w: generator %s: n = %d nodes in k = %d blocks with c_in = %g and c_out = %g make about %.3g stored entries (n·(c_in + (k−1)·c_out)/k, %d bytes each), which count as %d nodes, beyond this server's budget of %d: lower n, c_in or c_out", errBadInput, req.Name, p.N, p.K, p.Cin, p.Cout, e, entryBytes, c, budget)
		}
	}
	d, err := input.Generate(ctx, g, p, req.Seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errBadInput, err)
	}
	if d.X != nil {
		// As for an upload (readData): a small set gets neighbour
		// counts that fit it; n ≤ 10 failed ("knn graph needs
		// 1 ≤ K < n"; review 92).
		var smallWarning string
		spec, smallWarning = input.FitSpec(spec, d.Name, d.N(), false, false, spelling())
		if smallWarning != "" {
			d.Warnings = append(d.Warnings, smallWarning)
		}
	}
	if _, err := d.BuildGraphSpelled(ctx, spec, nil, spelling()); err != nil {
		return nil, graphError(err, fmt.Sprintf("give generator %s a noise above 0, or other parameters, so that its points differ", req.Name))
	}
	return d, nil
}

// generatedEntries returns the expected number of stored entries (both
// halves of every edge) of the graph a graph generator g (sbm, dcsbm)
// draws with p: n·(c_in + (k−1)·c_out)/k, each node's expected degree
// (c_in + (k−1)·c_out)/k (dataset/synth's SBMContext and DCSBMContext,
// whose own bound, synth.MaxValues, is the same count). dcsbm holds
// every pair it draws before merging the repeats, as many as that count
// in expectation. 0 for a point generator, and for parameters Generate
// refuses (k < 1, n < 1, a c out of [0, n]). generateData checks it
// against the budget before drawing: a request of 100 bytes made a
// graph of 2.4 GB in 44 s before the budget refused it. Cost O(1).
func generatedEntries(g synth.Generator, p synth.Params) float64 {
	if !g.Graph || p.N < 1 || p.K < 1 || p.K > p.N {
		return 0
	}
	n := float64(p.N)
	if !(p.Cin >= 0 && p.Cin <= n && p.Cout >= 0 && p.Cout <= n) {
		return 0
	}
	return n * (p.Cin + float64(p.K-1)*p.Cout) / float64(p.K)
}

// notRegular says what a file of mode m that is not a regular file is,
// for readRooted's error: "is a directory, not a regular file", a named
// pipe, a device or a socket likewise, else "is not a regular file"
// followed by the mode's type letters. Cost O(1).
func notRegular(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeDir != 0:
		return "is a directory, not a regular file"
	case t&fs.ModeNamedPipe != 0:
		return "is a named pipe (FIFO), not a regular file"
	case t&fs.ModeDevice != 0:
		return "is a device, not a regular file"
	case t&fs.ModeSocket != 0:
		return "is a socket, not a regular file"
	default:
		return fmt.Sprintf("is not a regular file (%v)", t)
	}
}

// readRooted reads the file at rel under root, refusing absolute paths,
// ".." elements, symbolic links that leave the root (os.Root) and what is
// not a regular file (a FIFO would block, a device never end). limit
// bounds its size. ctx is checked before every read of the file (a large
// file on a slow disk or network file system stops when the request is
// cancelled), and its error returned, naming the file.
func readRooted(ctx context.Context, root, rel string, limit int64) ([]byte, error) {
	if root == "" {
		return nil, fmt.Errorf("%w: this server has no -data root: upload the file instead", errBadInput)
	}
	if rel == "" || filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("%w: file %q: want a relative path inside the -data root", errBadInput, rel)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, &rootError{err: err}
	}
	defer r.Close()
	f, err := r.OpenFile(rel, openFlags, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: file %q: %w", errBadInput, rel, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%w: file %q: %w", errBadInput, rel, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w: file %q %s", errBadInput, rel, notRegular(fi.Mode()))
	}
	b, err := io.ReadAll(io.LimitReader(ctxReader{ctx, f}, limit+1))
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, fmt.Errorf("file %q: reading stopped after %d bytes: %w", rel, len(b), err)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: file %q: %w", errBadInput, rel, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: file %q is larger than %d bytes", errBadInput, rel, limit)
	}
	return b, nil
}

// rootError is the failure to open the -data root (removed, unreadable):
// a server error whose text, sent to the client, says so without the
// root's path, which the client has no business knowing (a 500 named it:
// review 116); Server.fail logs the cause, path included, on the
// server's log.
type rootError struct{ err error }

func (e *rootError) Error() string {
	return "the server's -data folder is unavailable: upload the file instead, or ask the server's operator (its log says why)"
}

// ctxReader passes r's bytes on, returning ctx's error instead of reading
// once ctx is cancelled.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
