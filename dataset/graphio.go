package dataset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/ctxsort"
	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/fieldsplit"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/memlimit"
	"github.com/tether-sc/tether/internal/textline"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// GraphFormat names a graph file format.
type GraphFormat int

const (
	// GraphAuto (the zero value) chooses by file extension: ".mtx" or
	// ".mm" Matrix Market, ".gml" GML, ".csv" a dense affinity matrix or an edge list by
	// content (see ReadGraph), anything else an edge list.
	GraphAuto GraphFormat = iota
	// EdgeList is lines "i j [w]" (see ReadGraph).
	EdgeList
	// MatrixMarket is a Matrix Market coordinate file.
	MatrixMarket
	// GML is the Graph Modelling Language.
	GML
	// DenseCSV is an n×n affinity matrix in delimited text.
	DenseCSV
)

var baseNames = []string{"auto", "0", "1"}

// String returns "auto", "0" or "1".
func (b IndexBase) String() string { return enum.String("IndexBase", baseNames, b) }

// MarshalText returns the name String returns, or an error for an unknown
// base.
func (b IndexBase) MarshalText() ([]byte, error) {
	return enum.Marshal("index base", baseNames, b)
}

// UnmarshalText sets b from "auto", "0" or "1"; the error for another
// text wraps ErrInvalid.
func (b *IndexBase) UnmarshalText(text []byte) error {
	return unmarshalEnum(b, "index base", baseNames, text)
}

var graphFormatNames = []string{"auto", "edgelist", "mtx", "gml", "dense"}

// String returns "auto", "edgelist", "mtx", "gml" or "dense".
func (f GraphFormat) String() string { return enum.String("GraphFormat", graphFormatNames, f) }

// MarshalText returns the name String returns, or an error for an unknown
// format.
func (f GraphFormat) MarshalText() ([]byte, error) {
	return enum.Marshal("graph format", graphFormatNames, f)
}

// UnmarshalText sets f from "auto", "edgelist", "mtx", "gml" or "dense"
// (any case); the error for another name wraps ErrInvalid.
func (f *GraphFormat) UnmarshalText(text []byte) error {
	return unmarshalEnum(f, "graph format", graphFormatNames, text)
}

// GraphFormatFor returns the format ReadGraphFile uses for path by its
// extension alone, in any case: ".mtx" or ".mm" MatrixMarket (the two
// extensions of Matrix Market files; tether cluster -graph-out writes
// either), ".gml" GML, ".csv" DenseCSV, anything else EdgeList. A ".csv"
// file is DenseCSV here, while ReadGraph in
// GraphAuto mode also looks at the content of a ".csv" file (see
// DetectCSVGraph), and at a Matrix Market banner in any file.
func GraphFormatFor(path string) GraphFormat {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mtx", ".mm":
		return MatrixMarket
	case ".gml":
		return GML
	case ".csv":
		return DenseCSV
	}
	return EdgeList
}

// IndexBase says how edge-list node numbers map to nodes.
type IndexBase int

const (
	// BaseAuto (the zero value) treats integer node numbers as 1-based when
	// the smallest one is 1 (so 0 never occurs) and GraphOptions.NumNodes
	// is 0 or leaves no room for node 0 (the largest number equals it),
	// and 0-based otherwise: with NumNodes above the largest number, both
	// readings fit, and 0-based is taken, as tether's constraint and label
	// files number the nodes. A 0-based file whose node 0 has no edge,
	// read without NumNodes, is therefore read as 1-based: ReadGraph then
	// warns (GraphData.Warnings), naming Base0, which such files need.
	BaseAuto IndexBase = iota
	// Base0 numbers nodes from 0.
	Base0
	// Base1 numbers nodes from 1.
	Base1
)

// DupPolicy says how repeated edges are combined. Edges {i,j} and {j,i}
// are the same undirected edge, so a directed file listing both orientations
// has a duplicate.
type DupPolicy int

const (
	// DupMax (the zero value) keeps the largest weight: an unweighted
	// directed graph becomes its undirected simple graph.
	DupMax DupPolicy = iota
	// DupSum adds the weights (as graph.FromEdges does).
	DupSum
	// DupError rejects the file, naming both lines.
	DupError
)

// GraphOptions controls the graph readers. The zero value is ready to use.
type GraphOptions struct {
	// Base applies to integer node numbers in edge lists.
	Base IndexBase
	// NamedNodes reads every node token of an edge list as a name, integers
	// included, numbering nodes in order of first appearance (Base is then
	// ignored). By default a file whose nodes are all integers has numbered
	// nodes, one whose nodes are all other text has named nodes, and a mix
	// is an error naming the first token of the other kind.
	NamedNodes bool
	// Duplicates combines repeated edges of edge lists and repeated entries
	// of Matrix Market files (an entry of a symmetric Matrix Market file
	// given in both triangles is not a repeat: see ReadGraph).
	Duplicates DupPolicy
	// DropSelfLoops discards edges {i,i}; by default they are kept as
	// diagonal entries.
	DropSelfLoops bool
	// Symmetrize accepts an asymmetric Matrix Market "general" matrix or
	// dense CSV matrix A and uses (A + Aᵀ)/2; by default asymmetry is an
	// error. Edge lists are always symmetrized (by Duplicates).
	Symmetrize bool
	// SymmetryTol is the relative tolerance of the symmetry check of dense
	// CSV and Matrix Market general matrices: |a_ij − a_ji| ≤
	// SymmetryTol·max(a_ij, a_ji). If 0, 1e-9 is used; a negative value asks
	// for exact symmetry.
	SymmetryTol float64
	// NumNodes, if positive, is the number of nodes of an edge list; node
	// numbers must then lie below it (after the base is applied). By default
	// it is the largest node number plus one (minus the base).
	NumNodes int
	// NumNodesFrom says where NumNodes comes from, for the error of an
	// edge-list node beyond it, as the words after "the 4 nodes": "the
	// labels give" makes "node number outside the 4 nodes the labels
	// give". "" names the option ("the 4 nodes GraphOptions.NumNodes
	// gives"). A count the file declares itself (its first line "# 4
	// nodes", when NumNodes is 0) is "the 4 nodes declared" whatever it
	// says.
	NumNodesFrom string
	// MaxNodes bounds the number of nodes, checked before allocating. If 0,
	// DefaultMaxNodes is used.
	MaxNodes int
	// MaxDenseEntries, if positive, bounds the stored entries of the
	// graph of a dense CSV matrix (two for each nonzero pair A[i,j],
	// A[j,i], one for a nonzero diagonal entry): the read stops with an
	// error wrapping ErrTooLarge, naming the line, as soon as they pass
	// it, its memory having been about 12 bytes an entry. 0 means no
	// bound (the other formats ignore it).
	MaxDenseEntries int
	// MaxEntries, if positive, bounds the edges of an edge list and the
	// entries of a Matrix Market file, as read (before repeated edges
	// are combined): the read stops with an error wrapping ErrTooLarge,
	// naming the line, as soon as the file has more, its memory having
	// been about 24 bytes an edge, with no line kept. 0 means no bound
	// (the other formats ignore it: see MaxDenseEntries).
	MaxEntries int
	// LabelAttr names the GML node attribute holding the ground truth (e.g.
	// "club" for karate_club.gml). "" reads no labels.
	LabelAttr string
	// WeightAttr names the GML edge attribute holding the weight. If "",
	// "weight" is used, or else "value"; edges without it weigh 1.
	WeightAttr string
	// MaxLineBytes bounds the length of a line (without its line ending);
	// a longer line is an error wrapping ErrTooLarge. If 0,
	// DefaultMaxLineBytes (1 MiB) is used.
	MaxLineBytes int
	// Format is the format of the file read by ReadGraphFileOptions. If
	// GraphAuto, it is chosen by extension, a ".csv" file by its content
	// (DetectCSVGraph), and any file whose first line is the Matrix Market
	// banner is Matrix Market (see ReadGraph).
	Format GraphFormat
	// Spelling says how the warnings and errors name the options they
	// suggest (tether's -graph-format, -symmetrize, -named-nodes,
	// -max-nodes, -gml-label) and the outputs that name the nodes, beside
	// the library's GraphOptions fields: the zero value names the
	// library's alone.
	Spelling Spelling
	// Recorder, if not nil, receives the progress of the parse of an edge
	// list from its first edge line on, as the stage "parsing NAME" (NAME
	// the name ReadGraph is given): thousandths of the stage
	// (progress.Meter) through the lines as they are read (by the share
	// of the input read when its size is known: a bytes.Reader,
	// strings.Reader or regular file), the numbering of the nodes
	// (integers or names), the sort of the edges, their combining and the
	// building of the graph, the step in Message. 3·10⁶ named edges take
	// seconds once read. Other formats report nothing.
	Recorder progress.Recorder
}

func (o *GraphOptions) maxNodes() int {
	if o.MaxNodes > 0 {
		return o.MaxNodes
	}
	return DefaultMaxNodes
}

func (o *GraphOptions) symTol() float64 {
	switch {
	case o.SymmetryTol == 0:
		return 1e-9
	case o.SymmetryTol < 0:
		return 0
	}
	return o.SymmetryTol
}

// GraphData is a graph read from a file with what the file says about its
// nodes.
type GraphData struct {
	G *graph.Graph
	// Names[i] is the name of node i: the token of a named edge list, the
	// GML label (or id), the header of a dense CSV. Nil when nodes are
	// plain numbers.
	Names []string
	// NameLines[i] is the 1-based line of the file that names node i when
	// a GML file names the nodes (its label, else its id), whose labels
	// may repeat: the readers of side files name the nodes that share a
	// name by these lines (NodeLabelOptions.NameLines,
	// constraint.ReadOptions.NameLines). Nil otherwise (the names of an
	// edge list are distinct, and a dense CSV's are on its header line).
	NameLines []int
	// Labels holds GML label-attribute values as classes 0…k−1 (sorted as
	// Table.ClassNames), or is nil.
	Labels []int
	// ClassNames[c] is the attribute text of class c.
	ClassNames []string
	// Base is the index base used for an integer edge list (0 or 1).
	Base int
	// HeaderLine is the 1-based line number of the header line an edge
	// list or dense CSV was found to have, or 0.
	HeaderLine int
	// Warnings describe what the reader changed or assumed (such as
	// directed or repeated GML edges merged into one undirected edge, or
	// an ambiguous .csv read as a matrix), or GML node labels that cannot
	// name the nodes (empty or repeated: the labels files written for them
	// number the nodes, as for a table's ID column); the CLI prints them to
	// standard error. Each makes the graph or the files written for it
	// differ from what the file may mean, so a graph read has warnings
	// only, no notes (see Table.Notes).
	Warnings []string
}

// ReadGraphFile reads a graph with default options, choosing the format by
// extension (see GraphAuto).
func ReadGraphFile(ctx context.Context, path string) (*graph.Graph, error) {
	d, err := ReadGraphFileOptions(ctx, path, GraphOptions{})
	if err != nil {
		return nil, err
	}
	return d.G, nil
}

// ReadGraphFileOptions reads a graph and its node information, choosing the
// format by extension.
func ReadGraphFileOptions(ctx context.Context, path string, opt GraphOptions) (*GraphData, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	return ReadGraph(ctx, f, path, opt.Format, opt)
}

// ReadGraph reads a graph in the given format from r; name is used in error
// messages. When format is GraphAuto, a file whose first line is the
// Matrix Market banner "%%MatrixMarket matrix" is Matrix Market whatever
// its name (/dev/stdin); otherwise the format is chosen by name's
// extension (".mtx" or ".mm" Matrix Market, ".gml" GML, anything but ".csv" an edge
// list), and a ".csv" file by its content: an edge list when DetectCSVGraph
// says so (tether's own edge-list header included), a dense matrix otherwise; a file that could be either is read as
// a dense matrix with a warning in GraphData.Warnings. An edge list given
// explicitly (EdgeList) that begins with the banner is an error: its size
// line would be an edge.
//
// Edge lists hold one edge "i j" or "i j w" per line, every line as the
// first data line (a line with a weight among lines without, or the
// reverse, is an error naming it: a weighted file whose last line lost its
// weight would give that edge weight 1), fields separated by blanks, or
// by commas when the first edge line has one, else by semicolons when it
// has one; blank lines and lines starting with '#' or '%' are skipped. When every node token is an
// integer, nodes are numbers (see IndexBase); when none is (or
// opt.NamedNodes is set), every token is a name and nodes are numbered in
// order of first appearance; a mix is an error, and so is a file whose
// tokens are all numbers but not all integers (a matrix of numbers, such
// as np.savetxt writes), unless opt.NamedNodes is set. Integers are node
// numbers even when they are IDs (SNAP's files: nodes such as 240891):
// when neither opt.NumNodes nor the file's first line gives the node
// count, and at least 1000 nodes are read of which fewer
// than one in 10 appear in an edge, GraphData.Warnings says so and names
// opt.NamedNodes. Only the first data line
// can be a header, when none of its fields is written as a number and
// either it has a third field, or the next line's node fields are integers,
// or its two fields are words naming edge-list columns (source, target,
// from, to, src, dst, u, v, …) that no other line uses as a node, a
// file's only data line included (GraphData.HeaderLine says which line
// was skipped); any other line with a
// weight that is not a finite non-negative number ("Inf", "1e400", "NaN")
// is an error naming it. Edges are undirected; duplicates are combined by
// opt.Duplicates. An edge list without an edge (blank lines, comments or
// a header alone) is an error wrapping ErrSyntax that names the file and
// how to give the node count, unless opt.NumNodes or the file's first
// line gives it: the graph of those nodes without edges, with a warning.
// The first line that is not blank gives the node count N when it is
// exactly the line WriteEdgeList writes, "# N nodes, undirected, 0-based:
// i j weight", which also makes the nodes 0-based unless opt.Base is set,
// or exactly "# N nodes" (trailing blanks aside; N in decimal without
// sign or leading zero), which says nothing of the base; opt.NumNodes,
// when set, overrides either.
//
// Matrix Market files must be "matrix coordinate" with field real, integer
// or pattern (weight 1) and symmetry general or symmetric, and square. A
// symmetric file may give an entry in both triangles, (i,j) and (j,i): it
// counts once when both values agree (within SymmetryTol), and different
// values are an error naming both lines and both values (whatever
// Symmetrize says).
//
// GML files hold graph [ node [ id … label … attr … ] edge [ source …
// target … weight … ] ]; node ids are any distinct integers, mapped to
// 0…n−1 in order of appearance. Strings (labels, attributes) have their
// HTML character references decoded ("&#252;", "&uuml;": ü). A directed graph ("directed 1") is read as
// undirected and repeated edges (a multigraph, or u→v with v→u) are merged
// by opt.Duplicates; either adds a warning to GraphData.Warnings, and
// DupError refuses repeated edges instead. A file holds one graph list: a
// second one is an error. GML lets a key repeat in a list (a graph's node
// and edge keys do), but the keys read here hold one value each (id,
// label, the LabelAttr attribute, source, target, the weight attribute,
// directed): a node, edge or graph that repeats one is an error naming
// both lines, never a silent choice of one value.
//
// Dense CSV is an n×n non-negative matrix, optionally with a header of node
// names, or of the column numbers 0…n−1 that pandas writes (skipped);
// lines starting with '#' or '%' are comments, as DetectCSVGraph takes
// them (a header of names that begin with one is read as a comment, and
// warned of: commentedHeader).
//
// Weights must be finite and non-negative; zero weights are dropped, and
// a weight written positive (or negative) that reads as 0, such as
// 1e-400, is an error. Every error names the file and line.
//
// Cost: O(m log m) for m edges. Edge lists and Matrix Market files are
// read a line at a time (no line is kept): 24 bytes an edge as read, and
// as much again while the edges are sorted, beside the graph (a node name
// is kept once); opt.MaxEntries bounds the edges read. The other formats
// read the whole input first. ctx is checked every few thousand lines; a
// cancelled read returns ctx's error, wrapped.
func ReadGraph(ctx context.Context, r io.Reader, name string, format GraphFormat, opt GraphOptions) (*GraphData, error) {
	if format < GraphAuto || format > DenseCSV {
		return nil, fmt.Errorf("%w: unknown graph format %d", ErrInvalid, format)
	}
	auto := format == GraphAuto
	if auto {
		format = GraphFormatFor(name)
		if format == EdgeList || format == MatrixMarket {
			// The banner says what the name may not (/dev/stdin, a file
			// named .txt): read as an edge list, the banner was a
			// comment and the size line an edge (review 114).
			first, src := peekFirst(newLineReader(ctx, r, name, opt.MaxLineBytes))
			if format == MatrixMarket || matrixMarketBanner([]string{first}) {
				return parseMatrixMarket(ctx, src, name, &opt)
			}
			return parseEdgeList(ctx, src, name, &opt)
		}
	}
	// Edge lists and Matrix Market files are read a line at a time; the
	// other formats, and .csv files whose format their lines tell, whole.
	switch format {
	case EdgeList:
		return parseEdgeList(ctx, newLineReader(ctx, r, name, opt.MaxLineBytes), name, &opt)
	case MatrixMarket:
		return parseMatrixMarket(ctx, newLineReader(ctx, r, name, opt.MaxLineBytes), name, &opt)
	}
	lines, err := readAll(ctx, r, name, opt.MaxLineBytes)
	if err != nil {
		return nil, err
	}
	var warning string
	if auto {
		if matrixMarketBanner(lines) {
			format = MatrixMarket
		} else if format == DenseCSV {
			format, warning = detectCSVGraph(lines, name, opt.Spelling)
		}
	}
	var d *GraphData
	switch format {
	case EdgeList:
		d, err = parseEdgeList(ctx, &sliceLines{lines: lines}, name, &opt)
	case MatrixMarket:
		d, err = parseMatrixMarket(ctx, &sliceLines{lines: lines}, name, &opt)
	case GML:
		d, err = parseGML(ctx, lines, name, &opt)
	default:
		d, err = parseDenseCSV(ctx, lines, name, &opt)
	}
	if err != nil {
		if warning != "" {
			return nil, fmt.Errorf("%w (%s)", err, warning)
		}
		return nil, err
	}
	if warning != "" {
		d.Warnings = append([]string{warning}, d.Warnings...)
	}
	return d, nil
}

// namedOverflow restates err when it is graph's refusal of finite weights
// whose degrees, or whose volume Σ_i d_i, exceed the float64 range
// (weights near 1e308; graph.DegreeOverflowError): as a ParseError
// wrapping ErrInvalid that names the node as the file does (node(i) for
// node i); other errors are returned as they are. Every method divides
// by the degrees, and failed far from the cause ("eigen: Deflate[0,0] =
// NaN") before the graph refused them.
func namedOverflow(err error, name string, node func(i int) string) error {
	var oe *graph.DegreeOverflowError
	if !errors.As(err, &oe) {
		return err
	}
	if oe.Volume {
		return &ParseError{File: name, Err: errorf(ErrInvalid, "all the weights (the volume, Σ of the degrees) sum beyond the float64 range: scale the weights down")}
	}
	return &ParseError{File: name, Err: errorf(ErrInvalid, "the weights of node %s sum beyond the float64 range (its degree is +Inf): scale the weights down", node(oe.Node))}
}

// edgeHeaderWords name the node columns of an edge list's header (any
// case).
var edgeHeaderWords = []string{"source", "target", "from", "to", "src", "dst", "dest", "destination", "node1", "node2", "u", "v", "head", "tail", "id1", "id2", "i", "j"}

// DetectCSVGraph says whether delimited text holds an edge list or a dense
// affinity matrix, the rule of ReadGraph for ".csv" files in GraphAuto mode.
// Lines that are blank or start with '#' or '%' are skipped, and a first
// line with no field written as a number is a header. The text is an edge
// list when every row has the same 2 or 3 fields, the first two
// non-negative integers or two node names (fields not written as numbers,
// which a matrix cannot hold), the third written as a number, and either
// some row has names or the number of rows differs from the number of
// columns; a dense matrix otherwise. When the rows are as many as the
// columns and could be numbered edges, the answer is DenseCSV and
// ambiguous is true. A first line 0, 1, …, c−1 above a c×c matrix of
// numbers, pandas' column numbers, makes a dense matrix when c ≥ 4, or
// when c = 3 and the rows are symmetric with a constant diagonal
// (ambiguous then; pandasMatrix); the dense reader skips that line. A
// first line that declares an edge list's node count as the edge-list
// reader reads it (edgeListCount: the line tether's edge-list writer
// writes, WriteEdgeList, or "# N nodes") makes an edge list.
//
// Cost: O(size of the text).
func DetectCSVGraph(r io.Reader) (format GraphFormat, ambiguous bool, err error) {
	lines, err := readAll(context.Background(), r, "", 0)
	if err != nil {
		return DenseCSV, false, err
	}
	f, w := detectCSVGraph(lines, "", Spelling{})
	return f, w != "", nil
}

// detectCSVGraph implements DetectCSVGraph; the warning is empty unless
// the guess is ambiguous.
func detectCSVGraph(lines []string, name string, spelling Spelling) (GraphFormat, string) {
	for _, l := range lines {
		if isBlank(l) {
			continue
		}
		if _, _, ok := edgeListCount(l); ok {
			// The header tether writes (WriteEdgeList; -graph-out
			// x.csv), which a 3-node triangle's three edges made
			// ambiguous, read as a matrix (review 114), or the short
			// "# N nodes" the edge-list reader takes as well: the
			// first line that declares an edge list's node count to
			// parseEdgeList declares an edge list here.
			return EdgeList, ""
		}
		break
	}
	if c, ambiguous := pandasMatrix(lines); c > 0 {
		// pandas' DataFrame(A).to_csv(index=False): a first line 0,1,…,
		// c−1 above c rows was read as an edge list, the header an edge
		// (review 114).
		if !ambiguous {
			return DenseCSV, ""
		}
		file := name
		if file == "" {
			file = "<input>"
		}
		return DenseCSV, fmt.Sprintf("%s: a first line 0,1,2 above 3 rows of 3 fields, symmetric, is read as the column numbers of a 3×3 affinity matrix, as pandas writes one (if it is an edge, set GraphOptions.Format%s)", file, formatFix(spelling, "edgelist"))
	}
	body := make([]string, 0, min(len(lines), 64))
	for _, l := range lines {
		if isBlank(l) {
			continue
		}
		if c := trimLeftBlank(l)[0]; c == '#' || c == '%' {
			continue
		}
		body = append(body, l)
		if len(body) == 20 {
			break
		}
	}
	if len(body) == 0 {
		return DenseCSV, ""
	}
	sp := splitter{delim: fieldsplit.Detect(body), quotes: `"`}
	var fields []string
	rows, cols, first := 0, -1, true
	edges, named := true, false
	for _, l := range lines {
		if isBlank(l) {
			continue
		}
		if c := trimLeftBlank(l)[0]; c == '#' || c == '%' {
			continue
		}
		var err error
		if fields, _, err = sp.split(l, fields); err != nil {
			return DenseCSV, ""
		}
		if first {
			first = false
			header := true
			for _, f := range fields {
				if numberLike(f) {
					header = false
				}
			}
			if header {
				continue
			}
		}
		rows++
		if cols < 0 {
			cols = len(fields)
		}
		if len(fields) != cols {
			return DenseCSV, ""
		}
		if !edges {
			continue
		}
		if cols < 2 || cols > 3 {
			edges = false
			continue
		}
		a, okA := parseInt(fields[0])
		b, okB := parseInt(fields[1])
		numbered := okA && okB && a >= 0 && b >= 0
		// Node names: a matrix holds numbers only.
		names := !numberLike(fields[0]) && !numberLike(fields[1])
		if !numbered && !names || cols == 3 && !numberLike(fields[2]) {
			edges = false
		}
		named = named || names
	}
	switch {
	case !edges || rows == 0:
		return DenseCSV, ""
	case rows != cols || named:
		return EdgeList, ""
	}
	file := name
	if file == "" {
		file = "<input>"
	}
	return DenseCSV, fmt.Sprintf("%s: %d rows of %d integer-led fields could be an edge list or a %d×%d affinity matrix; read as a matrix (to choose, set GraphOptions.Format%s)", file, rows, cols, rows, cols, formatFix(spelling, "edgelist or dense"))
}

// DetectEdgeList reports whether text is an edge list of numbered nodes
// without a header, as ReadGraph reads edge lists: lines that are blank or
// start with '#' or '%' are skipped, fields are split as ReadGraph splits
// them (commas when the first other line has one, else runs of blanks),
// and every other line, the first included, has 2 or 3 fields, the first
// two non-negative integers (node numbers) and the third, if any, written
// as a number (a weight; whether it is a valid one is ReadGraph's
// concern). Text without such a line is not an edge list; neither is one
// with a header line or node names, which a feature table has too. A
// headerless table of two or three columns of integers is one, and cannot
// be told from an edge list: a caller that chooses a reader by this
// should say so. tether serve reads a file whose extension names neither
// a table nor a graph format (a .txt edge list of tether gen) as a graph
// when DetectEdgeList says so.
//
// Cost: O(size of the text), read a line at a time (no line kept: it
// held the text and a string header a line). ctx is checked every few
// thousand lines. The errors are those of reading the text, naming it as
// name: a NUL byte and an over-long line (ParseError, as ReadGraph's),
// or ctx's error, wrapped; the text is read to its end for them even
// once a line says it is no edge list.
func DetectEdgeList(ctx context.Context, r io.Reader, name string) (bool, error) {
	lr := newLineReader(ctx, r, name, 0)
	var sp splitter
	var fields []string
	edges := 0
	ln := 0
	for {
		l, ok := lr.next()
		if !ok {
			break
		}
		ln++
		if err := poll(ctx, name, ln-1); err != nil {
			return false, err
		}
		if isBlank(l) {
			continue
		}
		if t := trimLeftBlank(l); t[0] == '#' || t[0] == '%' {
			continue
		}
		if edges == 0 {
			sp = edgeListSplitter(l)
		}
		var err error
		if fields, _, err = sp.split(l, fields); err != nil || len(fields) < 2 || len(fields) > 3 {
			return false, lr.drain()
		}
		a, okA := parseInt(fields[0])
		b, okB := parseInt(fields[1])
		if !okA || !okB || a < 0 || b < 0 || len(fields) == 3 && !numberLike(fields[2]) {
			return false, lr.drain()
		}
		edges++
	}
	if err := lr.drain(); err != nil {
		return false, err
	}
	return edges > 0, nil
}

// edgeListSplitter returns the splitter of an edge list whose first line
// that is neither blank nor a comment is first: commas when it has one,
// else semicolons when it has one, else runs of blanks; '"' quotes a
// field.
func edgeListSplitter(first string) splitter {
	sp := splitter{quotes: `"`}
	switch {
	case strings.IndexByte(first, ',') >= 0:
		sp.delim = ','
	case strings.IndexByte(first, ';') >= 0:
		// As the label and constraint files accept (a semicolon-separated
		// edge list was "1 fields").
		sp.delim = ';'
	}
	return sp
}

// entry is one edge occurrence with the line it came from: 24 bytes,
// since the readers keep one per edge of the file (review of tether
// serve: an edge list took 240 bytes an edge beyond its graph). Node
// numbers are below math.MaxInt32, which bounds a graph's nodes (a
// reader whose numbers pass it has assemble refuse n first). Inside
// assemble, line holds line<<1 | orientation.
type entry struct {
	i, j int32
	w    float64
	line int
}

// graphBytesPerNode is what building a graph of n nodes allocates per node
// whatever its edges (graph.FromEdgesContext: offsets, degrees and
// counts), measured: 24.0 bytes at 10⁷ and 4·10⁷ nodes.
const graphBytesPerNode = 24

// fitsMemory returns nil when the n nodes of the graph read from name fit
// in the memory available (memlimit.Available) at graphBytesPerNode, and
// an error wrapping ErrTooLarge otherwise: one edge "0 2147483646" under a
// node limit of 2³¹ − 1 asked for 48 GiB, and the process died of it with
// a stack trace (review 114). Cost: one read of /proc/meminfo from 2³⁰
// bytes on.
func fitsMemory(name string, n int) error {
	need := int64(n) * graphBytesPerNode
	if need < 1<<30 {
		return nil
	}
	if avail, err := memlimit.Available(); err == nil && need > avail {
		return &ParseError{File: name, Err: errorf(ErrTooLarge, "%d nodes need %s for the graph alone, more than the %s of memory this machine has", n, wording.Bytes(need), wording.Bytes(avail))}
	}
	return nil
}

// checkWeightText validates a weight read from a file: a finite number,
// not negative, and not a positive number so small that it reads as 0.
// Cost O(len(s)).
func checkWeightText(s string) (float64, error) {
	w, ok := parseNum(s)
	if !ok {
		return 0, errorf(ErrSyntax, "weight is not a finite number")
	}
	if w < 0 {
		return 0, errorf(ErrInvalid, "weight is negative")
	}
	if mantissa, _, _ := strings.Cut(strings.ToLower(s), "e"); w == 0 && strings.ContainsAny(mantissa, "123456789") {
		if strings.HasPrefix(strings.TrimSpace(s), "-") {
			// -1e-400 reads as −0 (review 115).
			return 0, errorf(ErrInvalid, "weight is negative")
		}
		// "1e-400": written positive, read as 0, and dropped as a
		// missing edge without a word (review 114).
		return 0, errorf(ErrInvalid, "weight is positive but below the smallest float64 (about 5e-324): it would read as 0, no edge; scale the weights")
	}
	return w, nil
}

// orientations says how assemble treats entries (i,j) and (j,i).
type orientations int8

const (
	// undirected: (i,j) and (j,i) are the same edge, combined by
	// GraphOptions.Duplicates (edge lists, GML).
	undirected orientations = iota
	// directed: the two are the entries of a matrix that must be symmetric
	// (within GraphOptions.SymmetryTol) or averaged (Symmetrize): Matrix
	// Market general, dense CSV.
	directed
	// mirrored: the two are one entry of a symmetric matrix given in both
	// triangles (Matrix Market symmetric): accepted once when their values
	// agree (within SymmetryTol), an error naming both lines and values
	// otherwise, whatever Symmetrize says.
	mirrored
)

// dupWarning records the repeated edges that DupMax merged although their
// weights differ (a weight was dropped): how many, and the first such
// repeat's line with its weight and the earlier line's.
//
// same counts the repeats with the earlier entry's weight, which DupMax
// merges too (sameLine and sameFirst the first such repeat's line and the
// earlier one's): an edge list's repeats of that kind are the two
// orientations of an undirected edge, but a Matrix Market file's are
// entries listed twice, which scipy.io.mmread adds (sameWarning).
type dupWarning struct {
	count       int
	line, first int
	w, wFirst   float64

	same                int
	sameLine, sameFirst int
}

// sameWarning says that the Matrix Market file name lists some entries
// twice with the same value and that each was read once, as n counted
// them; "" when none was.
func (n *dupWarning) sameWarning(name string) string {
	if n == nil || n.same == 0 {
		return ""
	}
	what := fmt.Sprintf("%d entries repeat", n.same)
	if n.same == 1 {
		what = "1 entry repeats"
	}
	return fmt.Sprintf("%s:%d: %s an earlier entry with the same row, column and value (the first: line %d); each is read once, while scipy.io.mmread adds repeated entries (library: GraphOptions.Duplicates, DupSum adds them, DupError refuses the file)", name, n.sameLine, what, n.sameFirst)
}

// warning says what the merges of n did, for the file name, naming the
// front end of sp, which cannot choose another rule ("tether always keeps
// the largest"), beside the library's option.
func (n *dupWarning) warning(name string, sp Spelling) string {
	what := fmt.Sprintf("%d repeated edges have", n.count)
	if n.count == 1 {
		what = "1 repeated edge has"
	}
	front := ""
	if f := sp.frontName(); f != "" {
		front = f + " always keeps the largest; "
	}
	return fmt.Sprintf("%s:%d: %s a weight other than the earlier edge between the same nodes (the first: %g here, %g on line %d); each is merged into one edge with the largest weight (%slibrary: GraphOptions.Duplicates, DupSum adds the weights, DupError refuses the file)", name, n.line, what, n.w, n.wFirst, n.first, front)
}

// assemble combines entries into a graph on n nodes, pairing (i,j) with
// (j,i) as how says. Repeats of (i,j) in one orientation are combined by
// opt.Duplicates first; with DupMax, the repeats are counted in the
// returned warning (nil when there are none), those whose weights differ
// apart from those with the earlier weight. ctx is
// checked every textline.PollLines entries of the first pass, every
// ctxsort.PollEvery of the sort, before the combining (0.05 s on 3·10⁶
// entries) and as the graph is built (graph.FromEdgesContext); the error
// is then stopped's. m (nil: none) takes the steps of the sort,
// the combining and the graph. Memory: the graph's; the entries are
// sorted in place (ctxsort.InPlace) when their lines never decrease along
// ents, as every reader gives them (GML edges may share a line), and
// with a copy of ents (ctxsort.ByKey) otherwise, or in the unlikely case
// where a line and the count of entries on one line take more than 62
// bits together.
func assemble(ctx context.Context, name string, n int, ents []entry, opt *GraphOptions, how orientations, m *progress.Meter) (*graph.Graph, *dupWarning, error) {
	isDirected := how != undirected
	// In place, each entry becomes its combining form: (lo, hi) in (i, j)
	// with lo ≤ hi, and line<<1 | dir, dir = 1 when the file gives it as
	// (hi, lo) and that orientation counts (directed off-diagonal). Before
	// an in-place sort of entries sharing lines, line becomes
	// line<<ordBits | k for the k-th entry (from 0) of its line.
	type comb = entry
	ordBits := 0
	dirOf := func(c comb) int { return c.line & 1 }
	lineOf := func(c comb) int { return c.line >> (1 + ordBits) }
	// at returns the 1-based (row, column) of c as the file gives it.
	at := func(c comb) (int, int) {
		if dirOf(c) == 1 {
			return int(c.j) + 1, int(c.i) + 1
		}
		return int(c.i) + 1, int(c.j) + 1
	}
	if n > math.MaxInt32 {
		// The graph refuses so many nodes (and sortKey would overflow).
		_, err := graph.FromEdges(n, nil)
		return nil, nil, fmt.Errorf("dataset: %s: %w", name, err)
	}
	cs := ents[:0]
	tick := m.Step("sorting the edges", costSort)
	// ordered: the entries' lines never decrease along ents, as the
	// readers give them: one entry a line (edge lists, Matrix Market) or
	// several (GML edges sharing a line); most: the most entries kept on
	// one line, less one.
	ordered, prev, run, most := true, 0, 0, 0
	for t, e := range ents {
		if t%textline.PollLines == 0 {
			if err := stopped(ctx, name); err != nil {
				return nil, nil, err
			}
		}
		ordered = ordered && e.line >= prev
		prev = e.line
		if opt.DropSelfLoops && e.i == e.j {
			continue
		}
		if len(cs) > 0 && cs[len(cs)-1].line>>1 == e.line {
			run++
			most = max(most, run)
		} else {
			run = 0
		}
		lo, hi, dir := e.i, e.j, 0
		if lo > hi {
			lo, hi, dir = hi, lo, 1
		}
		if !isDirected || lo == hi {
			dir = 0
		}
		cs = append(cs, comb{i: lo, j: hi, w: e.w, line: e.line<<1 | dir})
	}
	// By (lo, hi, dir), stably, so the first of repeated entries keeps
	// its line number (under DupMax, the line of the largest of them, as
	// combined below) and DupSum adds them in the file's order: lo, hi <
	// n ≤ 2³¹ − 1, so the key is below 2⁶³. When the lines never
	// decrease, (line, k) increases along the entries, and the order of
	// (key, line, k) is that one, which ctxsort.InPlace sorts without a
	// copy of the entries (24 bytes an entry more, 3·10⁶ entries: 72 MB);
	// ByKey's copy is kept for the others (none of the readers').
	// The last line, rank and dir must fit in a non-negative int.
	ordered = ordered && bits.Len(uint(prev))+bits.Len(uint(most))+1 < strconv.IntSize
	if ordered && most > 0 {
		ordBits = bits.Len(uint(most))
		k, last := 0, -1
		for a := range cs {
			c := &cs[a]
			if l := c.line >> 1; l == last {
				k++
			} else {
				k, last = 0, l
			}
			c.line = (last<<ordBits|k)<<1 | dirOf(*c)
		}
	}
	sortKey := func(c comb) uint64 { return (uint64(c.i)*uint64(n)+uint64(c.j))<<1 | uint64(dirOf(c)) }
	same := func(a, b comb) bool { return a.i == b.i && a.j == b.j && dirOf(a) == dirOf(b) }
	var err error
	if ordered {
		err = ctxsort.InPlace(ctx, cs, sortKey, func(c comb) uint64 { return uint64(c.line >> 1) }, tick)
	} else {
		err = ctxsort.ByKey(ctx, cs, sortKey, tick)
	}
	if err != nil {
		return nil, nil, stopped(ctx, name)
	}
	m.Step("combining repeated edges", costCombine)
	// Combine duplicates of the same (lo, hi, dir) in place.
	var dup *dupWarning
	out := 0
	for _, e := range cs {
		if out > 0 && same(cs[out-1], e) {
			c := &cs[out-1]
			switch opt.Duplicates {
			case DupSum:
				c.w += e.w
				if math.IsInf(c.w, 0) {
					return nil, nil, &ParseError{File: name, Line: lineOf(e), Err: errorf(ErrInvalid, "summed weight of edge (%d,%d) overflows", e.i, e.j)}
				}
			case DupError:
				return nil, nil, &ParseError{File: name, Line: lineOf(e), Err: errorf(ErrInvalid, "edge (%d,%d) repeats line %d", e.i, e.j, lineOf(*c))}
			default:
				if dup == nil {
					dup = &dupWarning{}
				}
				if e.w != c.w {
					if dup.count == 0 {
						dup.line, dup.first, dup.w, dup.wFirst = lineOf(e), lineOf(*c), e.w, c.w
					}
					dup.count++
				} else {
					if dup.same == 0 {
						dup.sameLine, dup.sameFirst = lineOf(e), lineOf(*c)
					}
					dup.same++
				}
				if e.w > c.w {
					// The line of the value kept, which the symmetry
					// errors below name (they named the first line with
					// the kept value; review 114).
					c.w, c.line = e.w, e.line
				}
			}
			continue
		}
		cs[out] = e
		out++
	}
	cs = cs[:out]
	// The edges take the entries' place: an edge is written at or before
	// the entry it comes from, once that entry is read (c below), and
	// neither type holds a pointer (review of tether serve: a copy took
	// 24 bytes an edge more). Where the two differ in size (32-bit
	// platforms), a copy.
	var edges []graph.Edge
	if unsafe.Sizeof(entry{}) == unsafe.Sizeof(graph.Edge{}) && unsafe.Alignof(entry{}) >= unsafe.Alignof(graph.Edge{}) {
		edges = unsafe.Slice((*graph.Edge)(unsafe.Pointer(unsafe.SliceData(cs))), len(cs))[:0]
	} else {
		edges = make([]graph.Edge, 0, len(cs))
	}
	tol := opt.symTol()
	for a := 0; a < len(cs); a++ {
		c := cs[a]
		lo, hi := int(c.i), int(c.j)
		if !isDirected || lo == hi {
			edges = append(edges, graph.Edge{I: lo, J: hi, W: c.w})
			continue
		}
		// Directed off-diagonal: pair (lo,hi,0) with (lo,hi,1).
		w0, w1 := 0.0, 0.0
		line := lineOf(c)
		if dirOf(c) == 0 {
			w0 = c.w
			if a+1 < len(cs) && cs[a+1].i == c.i && cs[a+1].j == c.j {
				w1 = cs[a+1].w
				if how == mirrored {
					// One entry given in both triangles.
					m := cs[a+1]
					if math.Abs(w0-w1) > tol*math.Max(w0, w1) {
						first, second := c, m
						if lineOf(m) < lineOf(c) {
							first, second = m, c
						}
						fi, fj := at(first)
						si, sj := at(second)
						return nil, nil, &ParseError{File: name, Line: lineOf(second), Err: errorf(ErrInvalid, "entry (%d,%d) = %g on line %d and its mirror (%d,%d) = %g on line %d differ: a symmetric matrix may give an entry in both triangles only with one value",
							fi, fj, first.w, lineOf(first), si, sj, second.w, lineOf(second))}
					}
					edges = append(edges, graph.Edge{I: lo, J: hi, W: w0})
					a++
					continue
				}
				a++
			}
		} else {
			w1 = c.w
		}
		if how == mirrored {
			// In one triangle only: the entry and its mirror.
			edges = append(edges, graph.Edge{I: lo, J: hi, W: c.w})
			continue
		}
		w := w0
		if math.Abs(w0-w1) > tol*math.Max(w0, w1) {
			if !opt.Symmetrize {
				return nil, nil, &ParseError{File: name, Line: line, Err: errorf(ErrInvalid, "matrix is not symmetric: A[%d,%d] = %g but A[%d,%d] = %g (to use (A+Aᵀ)/2, set GraphOptions.Symmetrize%s)", lo+1, hi+1, w0, hi+1, lo+1, w1, then(opt.Spelling.Remedy("symmetrize", "true")))}
			}
		}
		if opt.Symmetrize {
			w = w0/2 + w1/2
		}
		edges = append(edges, graph.Edge{I: lo, J: hi, W: w})
	}
	if err := stopped(ctx, name); err != nil {
		return nil, nil, err
	}
	if err := fitsMemory(name, n); err != nil {
		return nil, nil, err
	}
	m.Step("building the graph", costGraph)
	g, err := graph.FromEdgesContext(ctx, n, edges)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, stopped(ctx, name)
		}
		return nil, nil, fmt.Errorf("dataset: %s: %w", name, err)
	}
	return g, dup, nil
}

// stopped returns ctx's error, naming the file whose graph was being
// built, when ctx is cancelled; nil otherwise. The passes after the last
// line was read use it (the line loops use poll).
func stopped(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("dataset: %s: stopped while building the graph: %w", name, err)
	}
	return nil
}

// numberLike reports whether s is written as a number, finite or not
// ("1e400", "Inf", "NaN" included): such a field is a bad value, never a
// column name.
func numberLike(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// numericToken reports whether s is written as a number with a digit
// ("1.5", "0.0e+00", "-3"); "inf" and "nan" are not. Cost O(len(s)).
func numericToken(s string) bool {
	return numberLike(s) && strings.ContainsAny(s, "0123456789")
}

// allNumbers reports whether every node token of recs (nodes gives the
// two of a record) is a number (numericToken): an edge list whose nodes
// are all numbers but not all integers is a matrix of numbers, never a
// graph of named nodes unless GraphOptions.NamedNodes says so. Cost
// O(len(recs)).
func allNumbers[R any](recs []R, nodes func(R) [2]string) bool {
	for _, r := range recs {
		for _, s := range nodes(r) {
			if !numericToken(s) {
				return false
			}
		}
	}
	return len(recs) > 0
}

// matrixMarketBanner reports whether the first line of lines that is not
// blank begins with the Matrix Market banner "%%MatrixMarket matrix" (any
// case; a comment "%%MatrixMarket-style …" is not one). Cost O(length of
// that line).
func matrixMarketBanner(lines []string) bool {
	for _, l := range lines {
		if isBlank(l) {
			continue
		}
		f := strings.Fields(l)
		return len(f) >= 2 && strings.EqualFold(f[0], "%%MatrixMarket") && strings.EqualFold(f[1], "matrix")
	}
	return false
}

// commentedHeader returns the 1-based number and the text of the
// comment line just above the first data line of lines when it reads as
// a header of c node names behind its '#' or '%': split at commas,
// tabs or semicolons (not blanks: prose), it has c non-empty fields and none is
// written as a number (numberLike). numpy's savetxt(header=…) writes
// "# a,b,c" so, and the dense reader skips it as a comment; the caller
// warns. line is 0 otherwise. Cost O(size of the lines before the first
// data line).
func commentedHeader(lines []string, c int) (line int, text string) {
	prev := -1
	for i, l := range lines {
		if isBlank(l) {
			continue
		}
		if dataLine(l) {
			break
		}
		prev = i
	}
	if prev < 0 || c < 2 {
		return 0, ""
	}
	text = strings.TrimSpace(lines[prev])
	body := strings.TrimLeft(text, "#%")
	for _, sep := range []func(rune) bool{
		func(r rune) bool { return r == ',' },
		func(r rune) bool { return r == '\t' },
		func(r rune) bool { return r == ';' },
	} {
		f := strings.FieldsFunc(body, sep)
		if len(f) != c {
			continue
		}
		ok := true
		for _, x := range f {
			x = strings.TrimSpace(x)
			if x == "" || numberLike(x) {
				ok = false
				break
			}
		}
		if ok {
			return prev + 1, text
		}
	}
	return 0, ""
}

// dataLine reports whether l is a data line of a graph text: neither
// blank nor a comment ('#' or '%' first). Cost O(len(l)).
func dataLine(l string) bool {
	if isBlank(l) {
		return false
	}
	c := trimLeftBlank(l)[0]
	return c != '#' && c != '%'
}

// indexHeader returns c ≥ 2 and the c lines after it when the data lines
// of lines (dataLine) are a first line of the integers 0, 1, …, c−1 and
// exactly c more: the column numbers pandas writes above a c×c matrix
// (DataFrame(A).to_csv(index=False)); 0 and nil otherwise. It stops at
// the first line that rules it out, so an edge list of millions of lines
// costs a few of them. Cost O(size of the text) at most.
func indexHeader(lines []string) (int, []string) {
	c := -1
	var rows []string
	for _, l := range lines {
		if !dataLine(l) {
			continue
		}
		if c < 0 {
			head, _, err := splitter{delim: fieldsplit.Detect([]string{l}), quotes: `"`}.split(l, nil)
			if err != nil || len(head) < 2 {
				return 0, nil
			}
			for i, f := range head {
				if f != strconv.Itoa(i) {
					return 0, nil
				}
			}
			c = len(head)
			continue
		}
		if len(rows) == c {
			return 0, nil
		}
		rows = append(rows, l)
	}
	if c < 0 || len(rows) != c {
		return 0, nil
	}
	return c, rows
}

// pandasMatrix reports whether lines are a matrix under pandas' column
// numbers (indexHeader) for detectCSVGraph, where an edge list could look
// the same: four columns or more (no edge has four fields; the dense
// reader checks the rows), or three whose rows are numbers, symmetric
// (within 10⁻¹², relatively) with a constant diagonal, as affinity
// matrices are and the rows of an edge list "0,1,2" then three edges
// rarely are (0,2,1 / 2,3,4 / 1,4,5 is symmetric, but its diagonal 0, 3,
// 5 is not constant). ambiguous is true for three columns. Cost
// O(size of the text) at most (indexHeader).
func pandasMatrix(lines []string) (c int, ambiguous bool) {
	c, rows := indexHeader(lines)
	switch {
	case c >= 4:
		return c, false
	case c != 3:
		return 0, false
	}
	var a [3][3]float64
	sp := splitter{delim: fieldsplit.Detect(rows[:1]), quotes: `"`}
	for r, l := range rows {
		fields, _, err := sp.split(l, nil)
		if err != nil || len(fields) != 3 {
			return 0, false
		}
		for j, f := range fields {
			v, ok := parseNum(f)
			if !ok {
				return 0, false
			}
			a[r][j] = v
		}
	}
	for i := range 3 {
		if a[i][i] != a[0][0] {
			return 0, false
		}
		for j := range i {
			if x, y := a[i][j], a[j][i]; math.Abs(x-y) > 1e-12*math.Max(math.Abs(x), math.Abs(y)) {
				return 0, false
			}
		}
	}
	return 3, true
}

// edgeListDeclared returns the node count n that a first line written by
// WriteEdgeList declares (edgeListHeader, exactly), and ok = false for
// any other line. Such a file numbers its nodes from 0 and may end with
// nodes without an edge, or begin with one (node 0), which the largest
// node number and the automatic base would get wrong. Cost O(len(l)).
func edgeListDeclared(l string) (n int, ok bool) {
	if _, err := fmt.Sscanf(l, edgeListHeader, &n); err != nil || n < 0 {
		return 0, false
	}
	return n, strings.TrimRight(l, " \t\r") == fmt.Sprintf(edgeListHeader, n)
}

// edgeListShortHeader is the shorter declaration of an edge list's node
// count that ReadGraph reads on its first line, "# N nodes", which says
// nothing of the base.
const edgeListShortHeader = "# %d nodes"

// edgeListCount returns the node count n that an edge list's first line
// l declares, exactly WriteEdgeList's (edgeListDeclared; zeroBased true)
// or exactly "# N nodes" (edgeListShortHeader; zeroBased false), N
// written in decimal without sign or leading zero and the line ending
// in nothing but blanks; ok = false for any other line, a comment like
// any other. Cost O(len(l)).
func edgeListCount(l string) (n int, zeroBased, ok bool) {
	if n, ok := edgeListDeclared(l); ok {
		return n, true, true
	}
	if _, err := fmt.Sscanf(l, edgeListShortHeader, &n); err != nil || n < 0 {
		return 0, false, false
	}
	return n, false, strings.TrimRight(l, " \t\r") == fmt.Sprintf(edgeListShortHeader, n)
}

// noEdgesFix ends the error of an edge list without an edge, whose graph
// needs its node count: GraphOptions.NumNodes, which no front end sets,
// and the first line that declares it in the file (edgeListCount), as sp
// names them: after the front end's name ("; tether: a first line …")
// when sp has one, beside the library's option otherwise.
func noEdgesFix(sp Spelling) string {
	decl := fmt.Sprintf("a first line %q, or %q", strings.Replace(edgeListShortHeader, "%d", "N", 1), strings.Replace(edgeListHeader, "%d", "N", 1))
	if f := sp.frontName(); f != "" {
		return fmt.Sprintf("GraphOptions.NumNodes; %s: %s as tether writes it, N the number of nodes", f, decl)
	}
	return fmt.Sprintf("GraphOptions.NumNodes, or %s as WriteEdgeList writes it, N the number of nodes", decl)
}

// The planned costs of the steps of an edge list's parse that
// GraphOptions.Recorder follows (parseEdgeList, assemble), in tenths of a
// second for 3·10⁶ edges on the 2-core machine: the line loop, the three
// passes that number integer nodes or the one that names named nodes, the
// entries and their sort, the combining of repeated edges, the graph.
const (
	costLines   = 3
	costNumbers = 3
	costNames   = 21
	costSort    = 4
	costCombine = 1
	costGraph   = 3
)

// sparseMinNodes and sparseMaxShare are the rule of sparseNumbersWarning:
// an edge list numbering n ≥ sparseMinNodes nodes of which fewer than
// n/sparseMaxShare appear in an edge. A graph with isolated nodes, even
// half of them, is not warned of; SNAP's files, whose integers are IDs
// (a 34-node network with nodes such as 240891 read as 988599 nodes,
// 988565 isolated; review 118), are.
const (
	sparseMinNodes = 1000
	sparseMaxShare = 10
)

// sparseNumbersWarning returns the warning of an integer edge list read
// as n nodes numbered from base whose edges ents (0-based) name fewer than
// one node in sparseMaxShare, n being at least sparseMinNodes: the
// integers are likely IDs, not numbers 0…n−1, and the graph is mostly
// isolated nodes. It says how many nodes appear in an edge, how the
// integers were read, and names GraphOptions.NamedNodes as sp spells it,
// which reads them as names. "" when the rule does not hold. Cost
// O(n + len(ents)).
func sparseNumbersWarning(name string, n, base int, ents []entry, sp Spelling) string {
	if n < sparseMinNodes {
		return ""
	}
	seen := make([]bool, n)
	used := 0
	for _, e := range ents {
		for _, v := range [2]int32{e.i, e.j} {
			if !seen[v] {
				seen[v] = true
				used++
			}
		}
	}
	if used*sparseMaxShare >= n {
		return ""
	}
	fix := then(sp.Remedy("named-nodes"))
	if fix == "" {
		fix = fmt.Sprintf(", or write them in the file as names that are not integers, such as n%d", n-1+base)
	}
	return fmt.Sprintf("%s: only %d of the %d nodes appear in an edge: the integers of the file are read as the node numbers %d…%d, so %d nodes have no edge; if the integers are IDs rather than node numbers, read them as names, the %d nodes numbered in order of first appearance (set GraphOptions.NamedNodes%s)",
		name, used, n, base, n-1+base, n-used, used, fix)
}

// baseOneWarning is the warning of an edge list that GraphOptions.Base
// auto read as 1-based because no edge names node 0 (IndexBase): the
// rule, what it does to the files that number the nodes from 0, and how
// to read the file as 0-based, as sp spells it.
func baseOneWarning(name string, sp Spelling) string {
	return fmt.Sprintf("%s: node numbers read as 1-based, the smallest being 1 (GraphOptions.Base auto: 1-based when no edge names node 0): node 1 of the file is the first node, which the files that number the nodes from 0 (constraints, labels by node) call 0; if the file numbers them from 0 and node 0 has no edge, read it as 0-based (GraphOptions.Base = Base0%s)", name, then(sp.Remedy("graph-base", "0")))
}

// baseZeroWarning is the warning of an edge list read 0-based by
// BaseAuto though no edge names node 0: NumNodes (n) leaves room for it
// above the largest number max, but a 1-based file whose last node has no
// edge reads the same.
func baseZeroWarning(name string, max, n int, sp Spelling) string {
	return fmt.Sprintf("%s: node numbers read as 0-based, the smallest being 1 and the %d nodes leaving room for node 0 above the largest, %d (GraphOptions.Base auto): node 0 has no edge; if the file numbers the nodes from 1 and its last node has no edge, read it as 1-based (GraphOptions.Base = Base1%s)", name, n, max, then(sp.Remedy("graph-base", "1")))
}

// parseMatrixMarket implements the Matrix Market reader of ReadGraph.
func parseMatrixMarket(ctx context.Context, src lineSource, name string, opt *GraphOptions) (*GraphData, error) {
	limited := false
	d, err := readMatrixMarket(ctx, src, name, opt, &limited)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) && !limited {
			// An error of a line: a failed read after it overrides it, as
			// when the text was read whole first.
			if rerr := src.drain(); rerr != nil {
				return nil, rerr
			}
		}
		return nil, err
	}
	return d, nil
}

// readMatrixMarket reads the Matrix Market file of src for
// parseMatrixMarket: the lines one at a time, each entry kept as an entry
// (24 bytes), no line kept. Its errors of a line are returned before the
// rest of the input is read; *limited is set when the error is that of
// more entries than opt.MaxEntries, which stops the read at once.
func readMatrixMarket(ctx context.Context, src lineSource, name string, opt *GraphOptions, limited *bool) (*GraphData, error) {
	first, ok := src.next()
	if !ok {
		if err := src.drain(); err != nil {
			return nil, err
		}
		return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "empty file")}
	}
	hdr := strings.Fields(strings.ToLower(first))
	if len(hdr) != 5 || hdr[0] != "%%matrixmarket" {
		return nil, &ParseError{File: name, Line: 1, Value: strings.Clone(first), Err: errorf(ErrSyntax, "want a header \"%%%%MatrixMarket matrix coordinate <field> <symmetry>\"")}
	}
	if hdr[1] != "matrix" || hdr[2] != "coordinate" {
		return nil, &ParseError{File: name, Line: 1, Value: hdr[1] + " " + hdr[2], Err: errorf(ErrSyntax, "only \"matrix coordinate\" files are supported")}
	}
	field, sym := hdr[3], hdr[4]
	switch field {
	case "real", "integer", "pattern":
	default:
		return nil, &ParseError{File: name, Line: 1, Value: field, Err: errorf(ErrSyntax, "field must be real, integer or pattern")}
	}
	switch sym {
	case "general", "symmetric":
	default:
		return nil, &ParseError{File: name, Line: 1, Value: sym, Err: errorf(ErrSyntax, "symmetry must be general or symmetric")}
	}
	want := 3
	if field == "pattern" {
		want = 2
	}
	sizeSeen := false
	var rows, nnz int
	var ents []entry
	var fields []string
	sp := splitter{}
	ln := 0 // 0-based number of the line read
	for {
		l, ok := src.next()
		if !ok {
			break
		}
		ln++
		if err := poll(ctx, name, ln); err != nil {
			return nil, err
		}
		if isBlank(l) {
			continue
		}
		if t := trimLeftBlank(l); t[0] == '%' {
			continue
		}
		fields, _, _ = sp.split(l, fields)
		if !sizeSeen {
			if len(fields) != 3 {
				return nil, &ParseError{File: name, Line: ln + 1, Value: strings.Clone(l), Err: errorf(ErrSyntax, "want the size line \"rows cols entries\"")}
			}
			for _, f := range fields {
				if !intLike(f) || f[0] == '-' {
					return nil, &ParseError{File: name, Line: ln + 1, Value: strings.Clone(l), Err: errorf(ErrSyntax, "size line must hold three non-negative integers")}
				}
			}
			// Integers too long to read are out of range: more nodes
			// or entries than any file is read with.
			for k, what := range [2]string{"rows", "columns"} {
				if _, ok := parseInt(fields[k]); !ok {
					return nil, &ParseError{File: name, Line: ln + 1, Value: strings.Clone(l), Err: errorf(ErrTooLarge, "%s %s out of range: more than GraphOptions.MaxNodes = %d nodes%s", fields[k], what, opt.maxNodes(), paren(opt.Spelling.maxNodes()))}
				}
			}
			var cols int
			rows, _ = parseInt(fields[0])
			cols, _ = parseInt(fields[1])
			var ok bool
			if nnz, ok = parseInt(fields[2]); !ok {
				return nil, &ParseError{File: name, Line: ln + 1, Value: strings.Clone(l), Err: errorf(ErrInvalid, "%s entries out of range: cannot fit a %d×%d matrix", fields[2], rows, cols)}
			}
			if rows != cols {
				return nil, &ParseError{File: name, Line: ln + 1, Value: strings.Clone(l), Err: errorf(ErrInvalid, "matrix is %d×%d, an affinity matrix must be square", rows, cols)}
			}
			if rows > opt.maxNodes() {
				return nil, &ParseError{File: name, Line: ln + 1, Value: strings.Clone(l), Err: errorf(ErrTooLarge, "%d nodes exceed GraphOptions.MaxNodes = %d%s", rows, opt.maxNodes(), paren(opt.Spelling.maxNodes()))}
			}
			if rows > 0 && nnz/rows > rows {
				return nil, &ParseError{File: name, Line: ln + 1, Value: strings.Clone(l), Err: errorf(ErrInvalid, "%d entries cannot fit a %d×%d matrix", nnz, rows, rows)}
			}
			// Never trust nnz for allocation beyond what the file has
			// shown it holds: room is added as the entries come
			// (growth), never beyond nnz.
			ents = make([]entry, 0, min(nnz, 1024))
			sizeSeen = true
			continue
		}
		if len(fields) != want {
			return nil, &ParseError{File: name, Line: ln + 1, Err: errorf(ErrSyntax, "%s, want %d for a %s matrix", wording.Count(len(fields), "field", "fields"), want, field)}
		}
		if len(ents) == nnz {
			return nil, &ParseError{File: name, Line: ln + 1, Err: errorf(ErrSyntax, "more entries than the %d declared", nnz)}
		}
		// A decimal ("2.0") or other text is no index; an integer too
		// long to read (intLike) is one out of range.
		var ij [2]int
		for k, what := range [2]string{"row", "column"} {
			if !intLike(fields[k]) {
				return nil, &ParseError{File: name, Line: ln + 1, Column: k + 1, Value: strings.Clone(fields[k]), Err: errorf(ErrSyntax, "%s index is not an integer", what)}
			}
			v, ok := parseInt(fields[k])
			if !ok || v < 1 || v > rows {
				return nil, &ParseError{File: name, Line: ln + 1, Column: k + 1, Value: strings.Clone(fields[k]), Err: errorf(ErrInvalid, "%s index outside 1…%d", what, rows)}
			}
			ij[k] = v
		}
		i, j := ij[0], ij[1]
		w := 1.0
		if want == 3 {
			var err error
			if w, err = checkWeightText(fields[2]); err != nil {
				return nil, &ParseError{File: name, Line: ln + 1, Column: 3, Value: strings.Clone(fields[2]), Err: err}
			}
			if field == "integer" && w != math.Trunc(w) {
				return nil, &ParseError{File: name, Line: ln + 1, Column: 3, Value: strings.Clone(fields[2]), Err: errorf(ErrSyntax, "not an integer in an integer matrix")}
			}
		}
		if limit := opt.MaxEntries; limit > 0 && len(ents) >= limit {
			*limited = true
			return nil, &ParseError{File: name, Line: ln + 1, Err: &BudgetError{Limit: LimitMaxEntries, Bound: limit, Of: "file", Counted: "entries"}}
		}
		if len(ents) == cap(ents) {
			ents = slices.Grow(ents, min(growth(src, len(ents), opt.MaxEntries), nnz-len(ents)))
		}
		ents = append(ents, entry{i: int32(i - 1), j: int32(j - 1), w: w, line: ln + 1})
	}
	if err := src.drain(); err != nil {
		return nil, err
	}
	if !sizeSeen {
		return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "no size line")}
	}
	if len(ents) != nnz {
		return nil, &ParseError{File: name, Line: ln + 1, Err: errorf(ErrSyntax, "%d entries, the size line declares %d", len(ents), nnz)}
	}
	how := mirrored
	if sym == "general" {
		how = directed
	}
	g, dup, err := assemble(ctx, name, rows, ents, opt, how, nil)
	if err != nil {
		return nil, namedOverflow(err, name, func(i int) string { return strconv.Itoa(i + 1) })
	}
	d := &GraphData{G: g, Base: 1}
	if dup != nil && dup.count > 0 {
		d.Warnings = append(d.Warnings, dup.warning(name, opt.Spelling))
	}
	if w := dup.sameWarning(name); w != "" {
		d.Warnings = append(d.Warnings, w)
	}
	return d, nil
}

// denseUpper holds the upper triangle of a dense matrix read row by row
// (parseDenseCSV): the nonzero entries (i, j ≥ i) of each row as edges,
// in order of j, and, for each entry below the diagonal as it is read,
// the check against its mirror (i > j: the entry (j, i) of row j, read
// before), found by a cursor per row that moves forward only, since the
// rows come in order. The symmetric value is the upper one (the reader
// took the first of the two), their mean under GraphOptions.Symmetrize.
type denseUpper struct {
	name string
	opt  *GraphOptions
	tol  float64

	edges []graph.Edge
	// start and end delimit the edges of row j's upper triangle (the
	// entries (j, j′ > j) and its diagonal), cur the first of them not
	// yet paired with its mirror: all entries (j, j′) with j′ < the row
	// being read are.
	start, end, cur []int
	// lines are the file's line numbers of the rows.
	lines   []int
	entries int // the stored entries of the graph: two an edge, one a self loop

	bad  error // the first bad weight, row by row
	asym *asymmetry
}

// asymmetry is an entry (lo, hi) of the upper triangle whose mirror
// differs beyond the tolerance: w0 = A[lo,hi], w1 = A[hi,lo], line the
// line of the first of them the file gives nonzero (row lo's when A[lo,hi]
// is not 0).
type asymmetry struct {
	lo, hi int
	w0, w1 float64
	line   int
}

// newDenseUpper returns the denseUpper of an n×n matrix whose rows are
// the lines body (numbered nums). head, the first rows split, estimate
// the share of nonzero entries, so that the edges are allocated once when
// the rest of the matrix is like them (in Go an append-grown slice
// allocates about 5 times its final size in all). Cost O(n + cells of
// head).
func newDenseUpper(n int, name string, opt *GraphOptions, body []string, nums []int, head [][]string) *denseUpper {
	m := &denseUpper{name: name, opt: opt, tol: opt.symTol()}
	if n > opt.maxNodes() || len(body) != n {
		return m
	}
	m.start, m.end, m.cur, m.lines = make([]int, n), make([]int, n), make([]int, n), nums
	cells, nonzero := 0, 0
	for _, row := range head {
		for _, f := range row {
			cells++
			if w, err := checkWeightText(f); err == nil && w != 0 {
				nonzero++
			}
		}
	}
	if cells > 0 {
		upper := float64(n) * float64(n+1) / 2
		want := upper * float64(nonzero) / float64(cells) * 1.05
		if limit := opt.MaxDenseEntries; limit > 0 {
			want = math.Min(want, float64(limit)/2+1)
		}
		m.edges = make([]graph.Edge, 0, int(math.Min(want, upper))+16)
	}
	return m
}

// row reads the fields of row i (line line): each weight is checked
// (the first bad one is kept in m.bad, after which nothing is stored),
// those of the upper triangle stored, those below the diagonal compared
// with their mirror. It returns an error wrapping ErrTooLarge when the
// stored entries pass GraphOptions.MaxDenseEntries. Cost O(n).
func (m *denseUpper) row(i int, fields []string, line int) error {
	if m.bad != nil {
		return nil
	}
	m.start[i] = len(m.edges)
	// Below the diagonal: A[i,j] against A[j,i], stored in row j.
	for j := 0; j < i; j++ {
		s := fields[j]
		w1, err := checkWeightText(s)
		if err != nil {
			m.bad = &ParseError{File: m.name, Line: line, Column: j + 1, Value: s, Err: err}
			return nil
		}
		if w1 == 0 {
			w1 = 0 // -0, read as a weight of 0, is no entry
		}
		var w0 float64
		at := -1
		if c := m.cur[j]; c < m.end[j] && m.edges[c].J == i {
			w0, at = m.edges[c].W, c
			m.cur[j]++
		}
		if w0 == 0 && w1 == 0 {
			continue
		}
		if math.Abs(w0-w1) > m.tol*math.Max(w0, w1) && !m.opt.Symmetrize {
			if m.asym == nil || j < m.asym.lo || (j == m.asym.lo && i < m.asym.hi) {
				l := m.lines[j]
				if w0 == 0 {
					l = line
				}
				m.asym = &asymmetry{lo: j, hi: i, w0: w0, w1: w1, line: l}
			}
			continue
		}
		if !m.opt.Symmetrize {
			continue // the upper value, stored (or 0 within the tolerance: none)
		}
		w := w0/2 + w1/2
		if at >= 0 {
			m.edges[at].W = w
			continue
		}
		// Only below the diagonal: an edge of its own, after row i's
		// upper triangle (outside start:end).
		if err := m.add(graph.Edge{I: j, J: i, W: w}, line); err != nil {
			return err
		}
	}
	// The upper triangle and the diagonal.
	lower := len(m.edges) // the edges added above, below the diagonal
	for j := i; j < len(fields); j++ {
		s := fields[j]
		w, err := checkWeightText(s)
		if err != nil {
			m.bad = &ParseError{File: m.name, Line: line, Column: j + 1, Value: s, Err: err}
			return nil
		}
		if w == 0 || (j == i && m.opt.DropSelfLoops) {
			continue
		}
		if err := m.add(graph.Edge{I: i, J: j, W: w}, line); err != nil {
			return err
		}
	}
	if lower > m.start[i] {
		// Keep row i's upper triangle first: move the edges below the
		// diagonal (few: those whose mirror is 0, under Symmetrize)
		// after it.
		below := slices.Clone(m.edges[m.start[i]:lower])
		copy(m.edges[m.start[i]:], m.edges[lower:])
		copy(m.edges[len(m.edges)-len(below):], below)
		lower = len(m.edges) - len(below)
	} else {
		lower = len(m.edges)
	}
	m.end[i] = lower
	m.cur[i] = m.start[i]
	if m.cur[i] < m.end[i] && m.edges[m.cur[i]].J == i {
		m.cur[i]++ // the diagonal has no mirror
	}
	return nil
}

// add stores e, refusing it when the stored entries would pass
// GraphOptions.MaxDenseEntries.
func (m *denseUpper) add(e graph.Edge, line int) error {
	m.entries += 2
	if e.I == e.J {
		m.entries--
	}
	if limit := m.opt.MaxDenseEntries; limit > 0 && m.entries > limit {
		return &ParseError{File: m.name, Line: line, Err: &BudgetError{Limit: LimitMaxDenseEntries, Bound: limit, Of: "matrix", Counted: "nonzero entries"}}
	}
	m.edges = append(m.edges, e)
	return nil
}

// asymError is the error of m.asym, as assemble words it.
func (m *denseUpper) asymError(opt *GraphOptions) error {
	a := m.asym
	return &ParseError{File: m.name, Line: a.line, Err: errorf(ErrInvalid, "matrix is not symmetric: A[%d,%d] = %g but A[%d,%d] = %g (to use (A+Aᵀ)/2, set GraphOptions.Symmetrize%s)", a.lo+1, a.hi+1, a.w0, a.hi+1, a.lo+1, a.w1, then(opt.Spelling.Remedy("symmetrize", "true")))}
}

// parseDenseCSV implements the dense affinity reader of ReadGraph. It
// reads the lines as the table reader's parseDelimited does (the same
// delimiter detection, trailing-delimiter rule, field counts, header rule
// on the first 50 rows, and errors), but one line at a time, keeping the
// nonzero entries of the upper triangle only: it checks each entry below
// the diagonal against its mirror as it reads it (denseUpper), so its
// memory is O(n + nnz), 24 bytes an edge, besides the lines. Keeping every
// cell as a string, then every nonzero entry and its combination took 30
// to 60 times the file (a 64 MiB upload took 5.7 GB in tether serve).
// GraphOptions.MaxDenseEntries, if positive, stops the read as soon as
// the stored entries pass it. The errors come in the order the table
// reader and assemble gave them: a line's syntax or field count first,
// then too many nodes, a matrix that is not square, the first bad weight
// (row by row), the first asymmetric entry (by row, then column, of the
// upper triangle), and the graph's own. Cost O(size of the text + nnz).
func parseDenseCSV(ctx context.Context, lines []string, name string, opt *GraphOptions) (*GraphData, error) {
	orig := lines
	// Comment lines (# or %) are skipped, as detectCSVGraph skips them:
	// blanked, so that the lines keep their numbers (a "% my, matrix"
	// line named the nodes; review 114).
	var blanked []string
	for i, l := range lines {
		if !isBlank(l) && !dataLine(l) {
			if blanked == nil {
				blanked = slices.Clone(lines)
			}
			blanked[i] = ""
		}
	}
	if blanked != nil {
		lines = blanked
	}
	if c, _ := indexHeader(lines); c > 0 {
		// pandas' column numbers 0, 1, …, c−1 above the c rows: a header
		// of numbers, which the table reader takes for a row.
		if blanked == nil {
			lines = slices.Clone(lines)
		}
		for i, l := range lines {
			if !isBlank(l) {
				lines[i] = ""
				break
			}
		}
	}
	// The data lines with their numbers, the delimiter and the trailing
	// delimiter as parseDelimited takes them.
	var body []string
	var nums []int
	for i, l := range lines {
		if err := poll(ctx, name, i); err != nil {
			return nil, err
		}
		if !isBlank(l) {
			body = append(body, l)
			nums = append(nums, i+1)
		}
	}
	if len(body) == 0 {
		return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "no data")}
	}
	sp := splitter{delim: fieldsplit.Detect(body), quotes: `"`}
	if trimmed, w := trimTrailingDelimiter(body, sp, name); w != "" {
		body = trimmed
	}
	width, widthLine := -1, 0
	split := func(k int, dst []string) ([]string, error) {
		fields, pos, err := sp.split(body[k], dst)
		if err != nil {
			return nil, &ParseError{File: name, Line: nums[k], Err: fmt.Errorf("character %d: %w", pos, err)}
		}
		if width < 0 {
			width, widthLine = len(fields), nums[k]
		} else if len(fields) != width {
			return nil, &ParseError{File: name, Line: nums[k], Err: errorf(ErrSyntax, "%s, want %d as on line %d", wording.Count(len(fields), "field", "fields"), width, widthLine)}
		}
		return fields, nil
	}
	// The header rule (looksLikeHeader) reads the first 50 rows.
	const window = 50
	var head [][]string
	for k := 0; k < len(body) && k < window; k++ {
		if err := poll(ctx, name, k); err != nil {
			return nil, err
		}
		fields, err := split(k, nil)
		if err != nil {
			return nil, err
		}
		head = append(head, fields)
	}
	topt := Options{MissingMarkers: []string{}}
	var header []string
	first := 0 // the index in body of the first row of the matrix
	if len(head) >= 2 && looksLikeHeader(head, &topt) {
		header, head, first = head[0], head[1:], 1
	}
	n, rows := width, len(body)-first
	// The matrix is read only when it can be a graph: n nodes within the
	// limit, as many rows as columns. Otherwise the lines are still split,
	// for their syntax errors, which come first.
	m := newDenseUpper(n, name, opt, body[first:], nums[first:], head)
	keep := n <= opt.maxNodes() && rows == n
	var fields []string
	for r := 0; r < rows; r++ {
		k := first + r
		if err := poll(ctx, name, k); err != nil {
			return nil, err
		}
		if r < len(head) {
			fields = head[r]
		} else {
			var err error
			if fields, err = split(k, fields[:0]); err != nil {
				return nil, err
			}
		}
		if keep {
			if err := m.row(r, fields, nums[k]); err != nil {
				return nil, err
			}
		}
	}
	if n > opt.maxNodes() {
		return nil, &ParseError{File: name, Err: errorf(ErrTooLarge, "%d nodes exceed GraphOptions.MaxNodes = %d%s", n, opt.maxNodes(), paren(opt.Spelling.maxNodes()))}
	}
	if rows != n {
		return nil, &ParseError{File: name, Err: errorf(ErrInvalid, "%s and %s: an affinity matrix must be square (if the file is an edge list, set GraphOptions.Format%s)", wording.Count(rows, "row", "rows"), wording.Count(n, "column", "columns"), formatFix(opt.Spelling, "edgelist"))}
	}
	if m.bad != nil {
		return nil, m.bad
	}
	if m.asym != nil {
		return nil, m.asymError(opt)
	}
	if err := stopped(ctx, name); err != nil {
		return nil, err
	}
	if err := fitsMemory(name, n); err != nil {
		return nil, err
	}
	edges := m.edges
	m.edges = nil
	g, err := graph.FromEdgesContext(ctx, n, edges)
	if err != nil {
		if ctx.Err() != nil {
			return nil, stopped(ctx, name)
		}
		return nil, namedOverflow(fmt.Errorf("dataset: %s: %w", name, err), name, func(i int) string {
			if header != nil {
				return header[i]
			}
			return strconv.Itoa(i)
		})
	}
	named := header != nil
	d := &GraphData{G: g}
	if !named {
		if line, text := commentedHeader(orig, n); line > 0 {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s:%d: the comment %s has %d fields, none a number, as many as the matrix has columns: if they name the nodes, remove the %q (a comment is not read, so the nodes are numbered 0…%d)", name, line, quote(text), n, text[:1], n-1))
		}
	}
	if named {
		d.Names = header
		// The header's line: the first line that is not blank (comments
		// are blanked above).
		header := 1
		for i, l := range lines {
			if !isBlank(l) {
				header = i + 1
				break
			}
		}
		// Names that cannot key the nodes (empty, repeated) make the
		// labels files number them, which GML warns of and the dense
		// reader did not (review 123).
		if i, j := keyNamesClash(d.Names); i >= 0 {
			why := fmt.Sprintf("column %d's is empty", i+1)
			if j >= 0 {
				why = fmt.Sprintf("column %d's, %s, repeats column %d's", i+1, quote(strings.TrimSpace(d.Names[i])), j+1)
			}
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s:%d: the header's node names cannot name the nodes: %s, so %s (make the names distinct and non-empty to name them)", name, header, why, keyClashSo("nodes", opt.Spelling)))
		}
	}
	return d, nil
}
