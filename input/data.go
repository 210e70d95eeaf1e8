package input

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/catalog"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// Data is what a job clusters: feature rows (X, from which Graph is built)
// or a graph alone, with optional reference labels and node names.
type Data struct {
	// Name names the data in messages: the file name, "generated moons",
	// or the catalog name.
	Name string
	// X holds the n×d feature rows, nil for a graph file.
	X *mat.Dense
	// Features names the columns of X when a table gave them
	// (dataset.Table.Features: one-hot columns are "name=value"), or nil.
	Features []string
	// Graph is the affinity graph on the n nodes; nil until BuildGraph
	// builds it from X.
	Graph *graph.Graph
	// Truth holds the reference labels (dataset.Unlabeled: unknown), or nil.
	Truth []int
	// Classes names the classes of Truth when the file wrote them as text
	// (Classes[c] is class c's), or is nil.
	Classes []string
	// Names holds the node names (a table's id column, a graph file's node
	// names), or nil.
	Names []string
	// DroppedClass is the column of a table that the class-column rule
	// (ReadTable) would have taken as the reference labels, had
	// Options.Drop not left it out; Truth is then nil. "" otherwise.
	DroppedClass string
	// Rows is nil unless rows of a table were dropped for their missing
	// values (dataset.MissingDrop): Rows[i] is then the 0-based index,
	// among the FileRows data rows of the file, of the row node i was read
	// from. Node i is then not the file's row i, so the nodes are named by
	// their rows: Names holds the table's ID column when it can key the
	// nodes (dataset.KeyNames), else Rows[i] as text, which the labels
	// writers (tether cluster -o, tether labels) write. Files that label or
	// pair the nodes by index (ReadTruth, Supervision.AddTo) number the
	// file's rows alike, dropped ones included, and are mapped onto the
	// rows kept.
	Rows     []int
	FileRows int
	// fileNames names the FileRows rows of the file, dropped ones
	// included, as Names names the nodes, when Rows is set and the nodes
	// are named by the ID column; nil otherwise. A dropped row's ID may
	// repeat a kept one's (the table warns of it): a side file's line
	// that names it is then an error of its reader.
	fileNames []string
	// byRowNumber reports that Names are the row numbers of Rows.
	byRowNumber bool
	// nameLines are the file lines of a table's data rows, every one
	// read (dataset.Table.RowLines), when the nodes are named by its ID
	// column: the lines of fileNames, or of Names when no row was
	// dropped; for a graph file, the lines that name its nodes
	// (dataset.GraphData.NameLines: GML labels); nil otherwise
	// (sideLines).
	nameLines []int
	// Bipartite is the rows×cols document-by-term matrix of a co-clustering
	// input (nodes 0…rows−1 its rows, rows… its columns), nil otherwise.
	Bipartite *dataset.Sparse
	// Warnings say what the readers changed or assumed that may make the
	// data differ from what the files mean (rows dropped, an ambiguous
	// graph file, repeated edges merged, a small table's graph built with
	// fewer neighbours than the defaults), in order. Notes say which
	// documented choice the readers made (the class column recognised as
	// the reference labels, a column of names as the row names, an empty
	// last field ignored), in order. Front ends print warnings as
	// warnings and notes as notes (tether cluster: "note: …").
	Warnings []string
	Notes    []string
}

// N returns the number of nodes of d: those of its graph, else its feature
// rows, else the rows and columns of its bipartite matrix, else its
// reference labels; 0 for a nil d.
func (d *Data) N() int {
	switch {
	case d == nil:
		return 0
	case d.Graph != nil:
		return d.Graph.N()
	case d.X != nil:
		n, _ := d.X.Dims()
		return n
	case d.Bipartite != nil:
		r, c := d.Bipartite.Dims()
		return r + c
	}
	return len(d.Truth)
}

// ReadTable reads a feature table from content; name names it in errors
// and a ".arff" extension chooses the ARFF reader (as dataset.ReadFile
// does). The class column is opt.LabelColumn; when that is "" and the file
// has no class column of its own (ARFF: the last attribute), a column
// named label, else class, target or y without x (dataset.ClassNamedColumn) holds the
// reference labels rather than a feature, and a note says so: that is
// what tether gen writes. LabelColumn "none" makes such a column a
// feature. The rule looks at every column of the file: when opt.Drop
// names the column it takes, that column is left out unread, and the
// reference labels with it (Data.DroppedClass; a note says so), and the
// other columns are read as they would be without the drop. When
// opt.IDColumn is "", a text column with a different value on every row
// (dataset.ErrIdentifier: names, keys) is taken as the rows' names, with
// a note, rather than refused.
//
// The rule needs a header: a file without one (UCI's iris.csv, whose
// species is its last column) needs opt.LabelColumn ("last", a column
// number), or its class column is read as features, which hand the
// classes to the clustering. dataset.Read warns (Data.Warnings) when such
// a file's first or last column is text with few categories.
//
// Errors are those of dataset.Read: they name the file, line, column and
// value at fault. Cost: O(len(content)) per parse: one more parse when
// the class column is found by name, and one more when a column of names
// is.
func ReadTable(ctx context.Context, content []byte, name string, opt dataset.Options) (*Data, error) {
	if opt.Format == dataset.FormatAuto && strings.EqualFold(filepath.Ext(name), ".arff") {
		opt.Format = dataset.FormatARFF
	}
	return readTable(name, opt, func(o dataset.Options) (*dataset.Table, error) {
		return dataset.Read(ctx, bytes.NewReader(content), name, o)
	})
}

// ReadTableFile reads the feature table at path as ReadTable does, or,
// when path is a folder, its .pgm/.png images with one subfolder per class
// (dataset.ReadImageFolder; opt is then unused). A path that is not a
// regular file (a FIFO, /dev/stdin, a shell's <(cmd)) is read once: its
// bytes are kept for the later parses. Cost: O(file size) per parse.
func ReadTableFile(ctx context.Context, path string, opt dataset.Options) (*Data, error) {
	return ReadTableFileOpen(ctx, path, opt, nil)
}

// ReadTableFileOpen is ReadTableFile opening a regular file, for each of
// its parses, with open (nil: inputfile.Open, as dataset.ReadFile does):
// tether cluster's returns a file whose reads report their progress. The
// errors of open are wrapped as dataset.ReadFile wraps inputfile's
// ("dataset: …").
func ReadTableFileOpen(ctx context.Context, path string, opt dataset.Options, open func(ctx context.Context, name string) (io.ReadCloser, error)) (*Data, error) {
	st, err := os.Stat(path)
	if err == nil && st.IsDir() {
		t, err := dataset.ReadImageFolder(ctx, path, dataset.ImageOptions{})
		if err != nil {
			return nil, err
		}
		return tableData(path, t, opt.Spelling), nil
	}
	if err == nil && !st.Mode().IsRegular() {
		// A pipe yields its bytes once: the second parse reads them again
		// from the first's (inputfile.Replay).
		rp := inputfile.NewReplay(ctx, path)
		defer rp.Close()
		if opt.Format == dataset.FormatAuto && strings.EqualFold(filepath.Ext(path), ".arff") {
			opt.Format = dataset.FormatARFF
		}
		return readTable(path, opt, func(o dataset.Options) (*dataset.Table, error) {
			r, err := rp.Reader()
			if err != nil {
				return nil, fmt.Errorf("dataset: %w", err)
			}
			return dataset.Read(ctx, r, path, o)
		})
	}
	if open == nil {
		return readTable(path, opt, func(o dataset.Options) (*dataset.Table, error) {
			return dataset.ReadFile(ctx, path, o)
		})
	}
	if opt.Format == dataset.FormatAuto && strings.EqualFold(filepath.Ext(path), ".arff") {
		opt.Format = dataset.FormatARFF // as dataset.ReadFile chooses
	}
	return readTable(path, opt, func(o dataset.Options) (*dataset.Table, error) {
		f, err := open(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		defer f.Close()
		return dataset.Read(ctx, f, path, o)
	})
}

// readTable reads a table with read and applies the class-column rule of
// ReadTable.
func readTable(name string, opt dataset.Options, read func(dataset.Options) (*dataset.Table, error)) (*Data, error) {
	// A column of names or keys (dataset.ErrIdentifier) names the rows
	// when no ID column was given, and every read below retries so.
	var idNote string
	if opt.IDColumn == "" {
		read0 := read
		read = func(o dataset.Options) (*dataset.Table, error) {
			t, err := read0(o)
			var pe *dataset.ParseError
			if err == nil || o.IDColumn != "" || !errors.Is(err, dataset.ErrIdentifier) || !errors.As(err, &pe) || len(dataset.ClassNamedColumns([]string{pe.Name})) > 0 {
				return t, err
			}
			o.IDColumn = strconv.Itoa(pe.Column)
			if t, err = read0(o); err == nil {
				// A file without a header names its columns col1, col2, …
				col, ref := fmt.Sprintf("%d", pe.Column), o.IDColumn
				if pe.Name != "" && pe.Name != "col"+ref {
					col, ref = strconv.Quote(pe.Name), pe.Name
				}
				idNote = fmt.Sprintf("%s: column %s has a different text on every row: read as the names of the rows, not a feature (%s)", name, col, identifierOptions(opt.Spelling, ref, pe.Column))
			}
			return t, err
		}
	}
	t, err := read(opt)
	// The class-named columns of the file (cs[0] the class column), the
	// dropped ones included: -drop changes which columns are read, not
	// which one the rule takes.
	var cs []string
	switch {
	case err != nil && opt.LabelColumn == "" && opt.Format != dataset.FormatARFF:
		// The class column read as a feature can fail where the class
		// column cannot (class names mixed with integers, too many
		// classes to one-hot encode): when the error names a class-named
		// column, read that as the class column, as the rule below would.
		var pe *dataset.ParseError
		if !errors.As(err, &pe) || len(dataset.ClassNamedColumns([]string{pe.Name})) == 0 {
			return nil, err
		}
		retry := opt
		retry.LabelColumn = pe.Name
		// ARFF files, whose class column is their last attribute, are
		// left out: a delimited read of one fails, and the first error
		// stands.
		retry.Format = dataset.FormatDelimited
		t2, err2 := read(retry)
		var pe2 *dataset.ParseError
		if errors.Is(err2, dataset.ErrMissing) && errors.Is(err, dataset.ErrMissing) && errors.As(err2, &pe2) && pe2.Name == pe.Name {
			// A missing value in the class column is a missing label:
			// the feature's advice (impute it) fails for a label
			// (review 123). Not in a column the rule does not take
			// (y beside x), a feature whose missing value was called a
			// label's: the rows without one tell (a read dropping them).
			probe := retry
			probe.Missing = dataset.MissingDrop
			if t3, err3 := read(probe); err3 == nil {
				if cs := dataset.ClassNamedColumns(slices.Concat(t3.Features, []string{pe.Name}, t3.DroppedColumns)); len(cs) == 0 || cs[0] != pe.Name {
					return nil, err
				}
			}
			return nil, err2
		}
		if err2 != nil || t2.Labels == nil {
			return nil, err
		}
		if cs = dataset.ClassNamedColumns(slices.Concat(t2.Features, []string{pe.Name}, t2.DroppedColumns)); len(cs) == 0 || cs[0] != pe.Name {
			// The rule would take another column, or none (y beside x),
			// and keep this one a feature, which fails.
			return nil, err
		}
		t = t2
	case err != nil:
		return nil, err
	case opt.LabelColumn == "" && t.Labels == nil:
		cs = dataset.ClassNamedColumns(slices.Concat(t.Features, t.DroppedColumns))
		switch {
		case len(cs) > 0 && !slices.Contains(t.DroppedColumns, cs[0]):
			opt.LabelColumn = cs[0]
		case len(cs) > 1 && slices.ContainsFunc(cs[1:], func(c string) bool { return !slices.Contains(t.DroppedColumns, c) }):
			// The class column is dropped, another class-named column
			// stays a feature (the note below says so): read again
			// without the table's warning that it is one.
			opt.LabelColumn = "none"
		}
		if opt.LabelColumn != "" {
			if t, err = read(opt); err != nil {
				return nil, err
			}
		}
	}
	// The other class-named columns that are features.
	var others []string
	for _, c := range cs[min(1, len(cs)):] {
		if !slices.Contains(t.DroppedColumns, c) {
			others = append(others, c)
		}
	}
	var note, dropped string
	switch {
	case len(cs) > 0 && slices.Contains(t.DroppedColumns, cs[0]):
		// Named in Options.Drop, the class column is left out unread, and
		// the reference labels with it, as asked; it would not have been
		// a feature either.
		dropped = cs[0]
		note = fmt.Sprintf("%s: column %q would be the reference labels, but is dropped %s: left out unread, and the reference labels with it, so the clustering is compared with none; to keep them, do not drop the column: the class column is never a feature", name, cs[0], opt.Spelling.Hint("drop", "", "", "Options.Drop"))
	case len(cs) > 0:
		note = fmt.Sprintf("%s: column %q is the reference labels, not a feature %s", name, cs[0], opt.Spelling.Hint("label", "none", " makes it a feature", `Options.LabelColumn "none"`))
	}
	if len(others) > 0 {
		note += fmt.Sprintf("; %q stays a feature", strings.Join(others, `", "`))
		if h := opt.Spelling.Hint("label", others[0], " takes it instead", ""); h != "" {
			note += " " + h
		}
	}
	d := tableData(name, t, opt.Spelling)
	d.DroppedClass = dropped
	for _, msg := range []string{idNote, note} {
		if msg != "" {
			d.Notes = append(d.Notes, msg)
		}
	}
	return d, nil
}

// identifierOptions returns what the note on a column of names (column
// col, 1-based, ref as -id names it) says of the options, as sp spells
// them: "-id name says so; -categorical 2 one-hot encodes it", an option
// the front end lacks left out, or named as the library's
// (Options.Categorical) when it is the only way to a feature.
func identifierOptions(sp dataset.Spelling, ref string, col int) string {
	var parts []string
	if o, ok := sp.Option("id", ref); ok {
		parts = append(parts, o+" says so")
	}
	if o, ok := sp.Option("categorical", strconv.Itoa(col)); ok {
		parts = append(parts, o+" one-hot encodes it")
	} else {
		parts = append(parts, "library: Options.Categorical one-hot encodes it")
	}
	return strings.Join(parts, "; ")
}

// ReadGraph reads a graph from content (edge list, Matrix Market, GML or a
// dense affinity CSV, chosen by name's extension and, for .csv, by
// content: dataset.ReadGraph with dataset.GraphAuto), with the reference
// labels of opt.LabelAttr and the node names the file gives. Errors name
// the file, line and value. Cost O(len(content) + n + edges).
func ReadGraph(ctx context.Context, content []byte, name string, opt dataset.GraphOptions) (*Data, error) {
	gd, err := dataset.ReadGraph(ctx, bytes.NewReader(content), name, dataset.GraphAuto, opt)
	if err != nil {
		return nil, err
	}
	return graphData(name, gd), nil
}

// ReadGraphReader reads a graph from r as ReadGraphFile reads the file
// name (dataset.ReadGraph with opt.Format, GraphAuto choosing by name's
// extension and content): for a caller that opens the file itself, to
// count the bytes read, say. Cost O(size + n + edges).
func ReadGraphReader(ctx context.Context, r io.Reader, name string, opt dataset.GraphOptions) (*Data, error) {
	gd, err := dataset.ReadGraph(ctx, r, name, opt.Format, opt)
	if err != nil {
		return nil, err
	}
	return graphData(name, gd), nil
}

// ReadGraphFile reads the graph file at path as ReadGraph does
// (dataset.ReadGraphFileOptions; opt.Format, if set, overrides the
// extension). Cost O(file size + n + edges).
func ReadGraphFile(ctx context.Context, path string, opt dataset.GraphOptions) (*Data, error) {
	gd, err := dataset.ReadGraphFileOptions(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	return graphData(path, gd), nil
}

// tableData returns the Data of table t read from the file name. When
// rows were dropped (t.Rows), the nodes are named by t.IDs if they can
// key them, else by their 0-based row numbers in the file, and a note
// says how the output and the side files number them (Data.Rows), as the
// front end sp names them. Cost O(n) (O(1) when no row was dropped).
func tableData(name string, t *dataset.Table, sp dataset.Spelling) *Data {
	d := &Data{Name: name, X: t.X, Features: t.Features, Truth: t.Labels, Classes: t.ClassNames, Names: t.IDs, Warnings: t.Warnings, Notes: t.Notes}
	if t.IDs != nil {
		d.nameLines = t.RowLines
	}
	if t.Rows == nil {
		return d
	}
	d.Rows = t.Rows
	d.FileRows = len(t.Rows) + len(t.DroppedLines)
	if t.IDs != nil && dataset.KeyNames(t.IDs) != nil && len(t.DroppedIDs) == len(t.DroppedLines) {
		// The IDs of every row, the dropped ones too, so that a side
		// file naming a dropped row reads as one.
		d.fileNames = make([]string, d.FileRows)
		kept := make([]bool, d.FileRows)
		for k, r := range t.Rows {
			d.fileNames[r], kept[r] = t.IDs[k], true
		}
		next := 0
		for r := range d.fileNames {
			if !kept[r] {
				d.fileNames[r] = t.DroppedIDs[next]
				next++
			}
		}
		// A dropped row's ID may repeat a kept one's (the table warns):
		// side files still number the file's rows, and a line that
		// names such an ID is an error of their readers, which cannot
		// say which row it means (they were matched on the rows kept,
		// so that files by index were read a row off).
		return d
	}
	d.Names, d.byRowNumber, d.nameLines = make([]string, len(t.Rows)), true, nil
	for k, r := range t.Rows {
		d.Names[k] = strconv.Itoa(r)
	}
	d.Notes = append(d.Notes, fmt.Sprintf("%s: the %d rows kept are named by their 0-based row numbers among the file's %d data rows (%d…%d, with gaps): %s", name, len(t.Rows), d.FileRows, t.Rows[0], t.Rows[len(t.Rows)-1], rowNumbersUse(sp)))
	return d
}

// rowNumbersUse says, for the note of tableData on rows named by their
// row numbers, what the front end sp writes and reads with them: tether's
// "tether cluster -o and tether labels write those numbers, and node
// numbers in -truth, -constraints and -partial-labels files mean the same
// rows"; another front end's output that names the nodes
// (dataset.Spelling.Outputs), or, without one, that the labels written
// list the rows kept in order, and its options for side files.
func rowNumbersUse(sp dataset.Spelling) string {
	out := "the labels written for the nodes list the rows kept, in this order"
	switch {
	case sp.CommandLine:
		out = "tether cluster -o and tether labels write those numbers"
	case sp.Outputs != "":
		out = sp.Outputs + " writes those numbers"
	}
	var files []string
	for _, flag := range []string{"truth", "constraints", "partial-labels"} {
		if o, ok := sp.Option(flag, ""); ok {
			files = append(files, o)
		}
	}
	switch len(files) {
	case 0:
		return out
	case 1:
		return out + ", and node numbers in " + files[0] + " files mean the same rows"
	}
	return out + ", and node numbers in " + strings.Join(files[:len(files)-1], ", ") + " and " + files[len(files)-1] + " files mean the same rows"
}

// sideNodes returns how files that label or pair d's nodes are read: on n
// nodes named names (nil: none). For a table with dropped rows
// (Data.Rows) they are the file's rows, and byRow is true: what is read
// is mapped onto the rows kept (keptLabels, keptPairs), their names the
// IDs of the file's rows, which repeat when the ID of a dropped row
// repeats a kept one's (a line naming such an ID is then an error of the
// readers). Otherwise they are d's nodes. Cost O(1).
func (d *Data) sideNodes() (n int, names []string, byRow bool) {
	if d.Rows == nil || d.fileNames == nil && !d.byRowNumber {
		return d.N(), d.Names, false
	}
	return d.FileRows, d.fileNames, true
}

// sideLines returns the file lines of the names that sideNodes returned,
// for the errors of side files that name a row whose ID another row
// shares, and nil when d does not know them (d.nameLines is not as long
// as names). Cost O(1).
func (d *Data) sideLines(names []string) []int {
	if names == nil || len(d.nameLines) != len(names) {
		return nil
	}
	return d.nameLines
}

// keptLabels maps labels of the file's rows (d.Rows set) onto the nodes
// kept, and returns how many known labels fell on dropped rows. Cost
// O(FileRows).
func (d *Data) keptLabels(labels []int) (kept []int, lost int) {
	kept = make([]int, len(d.Rows))
	for k, r := range d.Rows {
		kept[k] = labels[r]
	}
	for _, c := range labels {
		if c != dataset.Unlabeled {
			lost++
		}
	}
	for _, c := range kept {
		if c != dataset.Unlabeled {
			lost--
		}
	}
	return kept, lost
}

func graphData(name string, gd *dataset.GraphData) *Data {
	d := &Data{Name: name, Graph: gd.G, Truth: gd.Labels, Classes: gd.ClassNames, Names: gd.Names, Warnings: gd.Warnings, nameLines: gd.NameLines}
	if gd.HeaderLine > 0 {
		// Said, since the line may be an edge of two named nodes ("u v"
		// before "x y" lines): it was dropped without a word (review
		// 114).
		d.Notes = append(d.Notes, fmt.Sprintf("%s:%d read as a header line and skipped, not as an edge", name, gd.HeaderLine))
	}
	return d
}

// GenParams returns the generator of dataset/synth called name and its
// parameters: the generator's defaults, overridden by params (by name, as
// tether gen spells them, e.g. {"n": "300", "noise": "0.1"}). The
// parameters are set in sorted order, so that a request with several bad
// ones always names the same one. A parameter the generator does not read
// (factor for moons; k for moons, circles and xor, which always make 2
// classes, unless it says 2 or 0) is an error, as the flags of tether gen
// are. Errors name the generator and the parameter, and wrap
// synth.ErrInvalid for a bad value or a parameter that does not apply.
func GenParams(name string, params map[string]string) (synth.Generator, synth.Params, error) {
	g, err := synth.Lookup(name)
	if err != nil {
		return g, synth.Params{}, err
	}
	p := g.Defaults
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := p.Set(k, params[k]); err != nil {
			return g, p, fmt.Errorf("gen %s: %w", name, err)
		}
		if slices.Contains(g.Params, k) {
			continue
		}
		if k == "k" && g.Classes > 0 {
			if p.K == 0 || p.K == g.Classes {
				continue
			}
			return g, p, fmt.Errorf("gen %s: %w: k = %s does not apply to %s: it always makes %d classes (give k %d or 0, or leave k out)", name, synth.ErrInvalid, params[k], g.Name, g.Classes, g.Classes)
		}
		return g, p, fmt.Errorf("gen %s: %w: %s does not apply to %s: it has no such parameter (it reads %s)", name, synth.ErrInvalid, k, g.Name, strings.Join(g.Params, ", "))
	}
	return g, p, nil
}

// Generate draws the data of generator g with parameters p and the seed of
// tether gen -seed: the source rand.NewPCG(seed, seed), which synth uses
// for its DefaultSeed. tether gen, tether cluster -gen, tether serve and
// job all call it, so the same name, parameters and seed give the same
// data. Point generators give X and no graph; graph generators a graph.
// Errors name the generator and wrap synth.ErrInvalid for parameters the
// generator refuses. Cost: the generator's.
func Generate(ctx context.Context, g synth.Generator, p synth.Params, seed uint64) (*Data, error) {
	sd, err := g.Generate(ctx, p, rand.NewPCG(seed, seed))
	if err != nil {
		return nil, fmt.Errorf("gen %s: %w", g.Name, err)
	}
	return &Data{Name: "generated " + g.Name, X: sd.X, Graph: sd.Graph, Truth: sd.Labels}, nil
}

// ReadCatalog reads the benchmark data set called name of dataset/catalog
// from the folder root ("" means catalog.DefaultRoot()) with its
// documented preprocessing: its feature rows when it has them (the graph
// is then built from them), else its graph, with the ground truth. Errors
// wrap catalog.ErrUnknown for an unknown name. It is ReadCatalogContext
// with a context that is never cancelled.
func ReadCatalog(name, root string) (*Data, error) {
	return ReadCatalogContext(context.Background(), name, root)
}

// ReadCatalogContext is ReadCatalog checking ctx while the files are read
// and the data set's graph built (catalog.LoadContext).
func ReadCatalogContext(ctx context.Context, name, root string) (*Data, error) {
	return ReadCatalogSpelled(ctx, name, root, dataset.Spelling{})
}

// ReadCatalogSpelled is ReadCatalogContext with the readers' notes and
// warnings naming the options they suggest as the front end sp spells
// them (catalog.Options.Spelling): a job reads a catalog data set with
// its own spelling, tether's command line with its CommandLine one; the
// zero value names the Go options alone.
func ReadCatalogSpelled(ctx context.Context, name, root string, sp dataset.Spelling) (*Data, error) {
	if root == "" {
		root = catalog.DefaultRoot()
	}
	cd, err := catalog.LoadContext(ctx, name, root, &catalog.Options{Spelling: sp})
	if err != nil {
		return nil, err
	}
	var d *Data
	if cd.Table != nil {
		d = tableData(name, cd.Table, sp)
	} else {
		d = graphData(name, cd.Graph)
	}
	d.Truth = cd.Labels
	return d, nil
}

// ReadTruth replaces d's reference labels with those of the labels file
// at path (dataset.ReadNodeLabelsFileContext: one label a line, or
// node,label lines keyed by index or by d.Names), one for each of d's N()
// nodes, or, when rows of d's table were dropped (Data.Rows), one for
// each of the file's rows, the labels of the dropped rows being ignored. The reader's warnings (dataset.NodeLabels.Warnings: a file
// that looks 1-based) are appended to d.Warnings, and its note
// (dataset.NodeLabels.Note: integer labels too large to number the
// classes, such as community IDs, read as class names) to d.Notes. When d had reference
// labels of its own (a table's class column, a GML attribute, a
// generator's classes), a note in d.Notes says that the file's replace
// them, since the note that named them as the reference is no longer
// true of the figures computed against it (review 95). Errors name the file,
// and the line and value when there is one. Cost O(file size + n). ctx is
// checked while the file is opened (a FIFO without a writer is waited for
// until ctx is cancelled) and read. The errors name the options they
// suggest as Go options alone: ReadTruthSpelled with the zero
// dataset.Spelling.
func (d *Data) ReadTruth(ctx context.Context, path string) error {
	return d.ReadTruthSpelled(ctx, path, dataset.Spelling{})
}

// ReadTruthSpelled is ReadTruth with the errors naming the options they
// suggest as the front end sp spells them (dataset.NodeLabelOptions.
// Spelling): "give the file as -constraints" on tether's command line
// for a pairwise constraints file.
func (d *Data) ReadTruthSpelled(ctx context.Context, path string, sp dataset.Spelling) error {
	return d.readTruth(path, sp, func(opt dataset.NodeLabelOptions) (*dataset.NodeLabels, error) {
		return dataset.ReadNodeLabelsFileContext(ctx, path, opt)
	})
}

// ReadTruthFrom is ReadTruthSpelled reading the labels file from r
// (dataset.ReadNodeLabelsContext), name naming it in the notes and
// errors: for a file read by other means than a local path (a job's
// file on an object store). Cost: ReadTruth's.
func (d *Data) ReadTruthFrom(ctx context.Context, r io.Reader, name string, sp dataset.Spelling) error {
	return d.readTruth(name, sp, func(opt dataset.NodeLabelOptions) (*dataset.NodeLabels, error) {
		return dataset.ReadNodeLabelsContext(ctx, r, name, opt)
	})
}

// readTruth is ReadTruthSpelled and ReadTruthFrom, the file named path
// being read by read with the options d gives.
func (d *Data) readTruth(path string, sp dataset.Spelling, read func(dataset.NodeLabelOptions) (*dataset.NodeLabels, error)) error {
	n, names, byRow := d.sideNodes()
	t, err := read(dataset.NodeLabelOptions{N: n, Names: names, NameLines: d.sideLines(names), NamesFile: d.Name, Spelling: sp})
	if err != nil {
		return err
	}
	if slices.ContainsFunc(d.Truth, func(c int) bool { return c != dataset.Unlabeled }) {
		d.Notes = append(d.Notes, fmt.Sprintf("%s replaces the reference labels of %s: the partition is compared with %s", path, d.Name, path))
	}
	d.Truth, d.Classes = t.Labels, t.ClassNames
	if byRow {
		d.Truth, _ = d.keptLabels(t.Labels)
	}
	d.Warnings = append(d.Warnings, t.Warnings...)
	if t.Note != "" {
		d.Notes = append(d.Notes, t.Note)
	}
	return nil
}

// BuildGraph builds d.Graph from the feature rows d.X with spec
// (graph.BuildNeighbors), reporting progress to rec (nil: none), unless d
// already has a graph. It returns the neighbour lists of a k-NN search,
// with which the caller can measure the recall of an approximate one
// (graph.SampleRecall), and nil when the graph was given or is not a
// k-NN graph. Errors name the data (a nil d is "input: no data"). Cost:
// graph.BuildNeighbors, O(n log n · d) for an exact k-NN graph of
// low-dimensional points, O(n²·d) for a full one. The errors name the
// remedies they suggest as Go options alone: BuildGraphSpelled with the
// zero dataset.Spelling (a front end passes its own, which names its
// flags: -max-full, -sigma, -scale on tether's command line).
func (d *Data) BuildGraph(ctx context.Context, spec graph.Spec, rec progress.Recorder) (*graph.Neighbors, error) {
	return d.BuildGraphSpelled(ctx, spec, rec, dataset.Spelling{})
}

// BuildGraphSpelled is BuildGraph whose errors name the remedies they
// suggest as sp spells them for a front end's users
// (graph.BuildNeighborsSpelled): a job's "scale", tether serve's option
// scale, and the library's option alone where the front end has none
// (neither sets Spec.MaxFull or Spec.Sigma).
func (d *Data) BuildGraphSpelled(ctx context.Context, spec graph.Spec, rec progress.Recorder, sp dataset.Spelling) (*graph.Neighbors, error) {
	if d == nil {
		return nil, errors.New("input: no data")
	}
	if d.Graph != nil {
		return nil, nil
	}
	if d.X == nil {
		return nil, fmt.Errorf("%s: no graph and no feature rows to build one from", d.label())
	}
	g, nb, err := graph.BuildNeighborsSpelled(ctx, d.X, spec, rec, sp)
	if err != nil {
		return nil, fmt.Errorf("%s: building the graph: %w", d.label(), err)
	}
	d.Graph = g
	return nb, nil
}

// FitSpec shrinks the default neighbour counts of spec to what n feature
// rows allow, so a small table (a tour's six points) gets a graph without
// hand-set K: a k-NN graph's K becomes n − 1 (n for graph.SklearnKNN) and
// local scaling's K becomes n − 1, each only when it does not fit and the
// caller did not choose it (keepK, keepSigma: a value the user gave is
// refused later, by BuildGraph or the CLI, rather than changed). It
// returns the spec and a warning naming what changed for d's Warnings
// (the input is too small for the defaults), or "" when nothing did; the
// warning names the options that set the counts as sp spells them (the
// zero value: tether cluster's -knn and -sigma), and none that the front
// end lacks. Cost O(1).
func FitSpec(spec graph.Spec, name string, n int, keepK, keepSigma bool, sp dataset.Spelling) (graph.Spec, string) {
	if n < 2 {
		return spec, ""
	}
	var changes []string
	switch spec.Kind {
	case graph.SymmetricKNN, graph.MutualKNN, graph.SklearnKNN:
		k, most := spec.K, n-1
		if k == 0 {
			k = graph.DefaultK
		}
		if spec.Kind == graph.SklearnKNN {
			most = n
		}
		if k > most && !keepK {
			spec.K = most
			nb := "neighbours"
			if most == 1 {
				nb = "neighbour"
			}
			changes = append(changes, fmt.Sprintf("K = %d %s (%sthe default is %d)", most, nb, optionThen(sp, "knn", strconv.Itoa(most)), k))
		}
	}
	if spec.Affinity == graph.RBF && spec.Sigma.Rule == graph.SigmaLocal && !keepSigma {
		lk := spec.Sigma.K
		if lk == 0 {
			lk = graph.DefaultLocalK
		}
		if lk > n-1 {
			spec.Sigma.K = n - 1
			changes = append(changes, fmt.Sprintf("σ_i the distance to the %s nearest other row (%sthe default is local:%d)", ordinal(n-1), optionThen(sp, "sigma", fmt.Sprintf("local:%d", n-1)), lk))
		}
	}
	if len(changes) == 0 {
		return spec, ""
	}
	return spec, fmt.Sprintf("%s has only %s: the graph was built with %s", name, wording.Count(n, "row", "rows"), strings.Join(changes, " and "))
}

// optionThen returns the front end's option -flag set to value as sp
// spells it, followed by "; " ("-knn 5; "), or "" when the front end has
// no such option.
func optionThen(sp dataset.Spelling, flag, value string) string {
	if o, ok := sp.Option(flag, value); ok {
		return o + "; "
	}
	return ""
}

// ScaleWarning returns a warning naming the feature columns of d.X whose
// spread, max − min over the rows, is positive but below 2⁻²⁶ times the
// largest column spread S, and "" when there is none (or d has no feature
// rows). The distances square the differences: such a column (values of
// 10⁻¹⁰ or 1e-200 beside columns of order 1) adds less than 2⁻⁵² S², below
// float64's precision, to the squared distance of rows that the column of
// spread S tells apart by about S, and little beside most other pairs:
// the graph built from the rows all but ignores it, silently (x2 =
// class·10⁻¹⁰ beside x1 uniform in [0, 1]: NJW's ARI −0.003, 1 after
// minmax scaling; the threshold was 2⁻⁵² at first, which left that case
// silent).
// Scaling the columns (dataset.Options.Scale) puts it on the others'
// footing: scaleOption names that remedy as the front end spells it
// (tether cluster: "-scale minmax"), and the warning says it. After
// minmax or z-score scaling every non-constant column has a spread of
// order 1, so scaled data give no warning. Columns are named by
// d.Features when it names them, else by their 1-based number among the
// features. Cost O(n·d).
func (d *Data) ScaleWarning(scaleOption string) string {
	if d == nil || d.X == nil {
		return ""
	}
	n, cols := d.X.Dims()
	if n < 2 || cols < 2 {
		return ""
	}
	spread := make([]float64, cols)
	widest := 0
	for j := range cols {
		lo, hi := d.X.At(0, j), d.X.At(0, j)
		for i := 1; i < n; i++ {
			v := d.X.At(i, j)
			lo, hi = min(lo, v), max(hi, v)
		}
		spread[j] = hi - lo
		if spread[j] > spread[widest] {
			widest = j
		}
	}
	top := spread[widest]
	if math.IsInf(top, 0) || math.IsNaN(top) {
		// Values beyond float64's range: building the graph refuses them.
		return ""
	}
	name := func(j int) string {
		if j < len(d.Features) && d.Features[j] != "" {
			return strconv.Quote(d.Features[j])
		}
		return strconv.Itoa(j + 1)
	}
	var tiny []int
	for j, w := range spread {
		if w > 0 && w < 0x1p-26*top {
			tiny = append(tiny, j)
		}
	}
	var what string
	switch len(tiny) {
	case 0:
		return ""
	case 1:
		j := tiny[0]
		what = fmt.Sprintf("column %s varies by %.3g, less than 2⁻²⁶ times the %.3g of column %s (max − min): its squared differences are below float64's precision beside that column's in the Euclidean distances between rows, so the graph all but ignores it", name(j), spread[j], top, name(widest))
	default:
		var list []string
		for k, j := range tiny {
			if len(tiny) > maxNamed && k == maxNamed-1 {
				j = tiny[len(tiny)-1]
				list = append(list, "…")
			}
			list = append(list, fmt.Sprintf("%s (%.3g)", name(j), spread[j]))
			if len(list) > maxNamed {
				break
			}
		}
		what = fmt.Sprintf("columns %s vary by less than 2⁻²⁶ times the %.3g of column %s (max − min): their squared differences are below float64's precision beside that column's in the Euclidean distances between rows, so the graph all but ignores them", strings.Join(list, ", "), top, name(widest))
	}
	return fmt.Sprintf("%s: %s; %s scales every column onto [0, 1]", d.label(), what, scaleOption)
}

// maxNamed is the number of columns ScaleWarning lists before eliding.
const maxNamed = 6

// ordinal returns 1st, 2nd, 3rd, 4th, … for i ≥ 1.
func ordinal(i int) string {
	suffix := "th"
	if i%100 < 11 || i%100 > 13 {
		switch i % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", i, suffix)
}

// AdjustWeights changes the weights of d's graph as tether cluster's
// -normalize-weights and -self-loops and a job's normalize_weights and
// self_loops ask: with normalize, every weight is divided by the largest
// edge weight (graph.Graph.Normalized), with a note naming the option by
// normalizeName unless the graph is unweighted or has no edge; then a
// positive selfLoops is added to every node's self loop
// (graph.Graph.WithSelfLoops). Errors name the option. Cost O(nnz + n).
func (d *Data) AdjustWeights(normalize bool, normalizeName string, selfLoops float64) error {
	if normalize {
		g, wmax, err := d.Graph.Normalized()
		if err != nil {
			return fmt.Errorf("%s: %w", normalizeName, err)
		}
		if g != d.Graph {
			d.Graph = g
			d.Notes = append(d.Notes, fmt.Sprintf("%s: every weight divided by the largest edge weight, %.6g", normalizeName, wmax))
		}
	}
	if selfLoops > 0 {
		g, err := d.Graph.WithSelfLoops(selfLoops)
		if err != nil {
			return err
		}
		d.Graph = g
	}
	return nil
}

// Check reports whether d is ready to cluster: it is not nil, has a graph,
// and as many reference labels and names as nodes (when it has them).
// Cost O(1).
func (d *Data) Check() error { return d.check(false) }

// check is Check, with featuresOnly accepting a d without a graph whose
// feature rows are the nodes (NewProblem, for a method of feature rows
// alone).
func (d *Data) check(featuresOnly bool) error {
	if d == nil {
		return errors.New("input: no data")
	}
	if d.Graph == nil && !(featuresOnly && d.X != nil) {
		return fmt.Errorf("%s: no graph (build it with BuildGraph)", d.label())
	}
	n := d.N()
	if d.Truth != nil && len(d.Truth) != n {
		return fmt.Errorf("%s: reference has %s for %s", d.label(), wording.Count(len(d.Truth), "label", "labels"), wording.Count(n, "node", "nodes"))
	}
	if d.Names != nil && len(d.Names) != n {
		return fmt.Errorf("%s: %s for %s", d.label(), wording.Count(len(d.Names), "node name", "node names"), wording.Count(n, "node", "nodes"))
	}
	return nil
}

// label names d in messages: d.Name, or "input" when it is empty (a Data
// built by hand), so that no message starts with ": ".
func (d *Data) label() string {
	if d.Name == "" {
		return "input"
	}
	return d.Name
}
