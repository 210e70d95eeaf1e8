package constraint

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/fieldsplit"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/labelheader"
	"github.com/tether-sc/tether/internal/textline"
	"github.com/tether-sc/tether/internal/wording"
)

// IndexBase says how node indices are numbered in a file.
type IndexBase int8

const (
	// BaseAuto (the zero value) takes the base from the file's "# base=0" or
	// "# base=1" directive, and 0 when there is none.
	BaseAuto IndexBase = iota
	// Base0 numbers nodes 0…n−1.
	Base0
	// Base1 numbers nodes 1…n.
	Base1
)

var baseNames = []string{"auto", "0", "1"}

// String returns "auto", "0" or "1".
func (b IndexBase) String() string { return enum.String("IndexBase", baseNames, b) }

// MarshalText returns the name String returns, or an error for an unknown
// base.
func (b IndexBase) MarshalText() ([]byte, error) {
	return enum.Marshal("index base", baseNames, b)
}

// UnmarshalText sets b from "auto", "0" or "1"; the empty text is BaseAuto
// too. The error for any other text wraps ErrInvalid.
func (b *IndexBase) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*b = BaseAuto
		return nil
	}
	v, err := enum.Parse[IndexBase]("index base", baseNames, string(text))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	*b = v
	return nil
}

// ReadOptions controls Read and ReadLabels. The zero value reads 0-based
// integer indices (or the file's directive), infers n, and rejects conflicts.
type ReadOptions struct {
	// N is the number of nodes. If N is 0 it is len(Names) when Names is set,
	// else 1 + the largest index in the file, at most MaxInferredNodes (for
	// a one-label-per-line labels file, the number of lines).
	N int
	// Base is the numbering of integer indices. An explicit Base0 or Base1
	// and a "# base=" directive in the file must agree: a file that says
	// base=1 read with Base0 is an error, not a silent shift.
	Base IndexBase
	// Names, when not nil, lists the node names (the id column of the data
	// file, node i named Names[i]); nodes in the file are then names, matched
	// exactly after trimming spaces, and Base is ignored. A name that
	// several nodes share (an ID column that repeats one) is an error on
	// the line that names it, naming the line, the name and the rows that
	// share it; the other lines are read.
	Names []string
	// NameLines, when it has one entry for each of Names, gives the
	// 1-based line of the data file NamesFile that each name comes from
	// (the table's Table.RowLines): the error of a shared name then names
	// the rows by those lines ("the rows on lines 6 and 12 of d.csv"), as
	// the table's own warnings do; otherwise it names them by their
	// 0-based index in Names. NamesFile "" is "the data file".
	NameLines []int
	NamesFile string
	// AutoNames, with Names, lets the file choose: it keys its nodes by
	// name when a node of its first constraint is not an integer, and by
	// index (Base, the directive) otherwise, as the partial labels reader
	// does (dataset.ReadNodeLabels). Nodes named by integers ("1001") are
	// therefore read as indices, unless the file begins with the header
	// "name_i,name_j,kind" that WriteNamed writes, which keys them by
	// name; ReadContext only.
	AutoNames bool
	// Policy is applied to duplicates and contradictions (see Resolve).
	Policy Policy
	// File names the input in error messages; "" means "input".
	File string
}

// File is a constraint file as read by Read.
type File struct {
	// Set holds the constraints kept by the policy, in file order.
	Set *Set
	// Lines[k] is the 1-based line of Set.Pairs[k].
	Lines []int
	// Base is the base the integer indices were read in (0 or 1).
	Base int
	// Report is the consistency report of all the pairs read; its conflicts
	// carry file lines.
	Report *Report
	// NamesAsIndices is the line of the header "name_i,name_j,kind"
	// (WriteNamed) when the file was read without ReadOptions.Names, so
	// that its names, integers, were read as node indices; 0 otherwise.
	// They are the right nodes when they are the data's row numbers
	// (pandas' index, the rows tether writes after dropping rows), not
	// when they are the names of a data file's id column: a front end
	// says so (input.Supervision's note).
	NamesAsIndices int
	// names are ReadOptions.Names, nil when the file numbers its nodes.
	names []string
}

// Node returns node i as the file writes it: its name when the file was
// read with ReadOptions.Names, else its index in the file's base. Pass it
// to Conflict.DescribeNodes.
func (f *File) Node(i int) string {
	if f.names != nil {
		return strings.TrimSpace(f.names[i])
	}
	return strconv.Itoa(i + f.Base)
}

// ByName reports whether the file keyed its nodes by name (read with
// ReadOptions.Names, and not numbering them under AutoNames), so that
// WriteNamed with those names writes it back in kind. Cost O(1).
func (f *File) ByName() bool { return f.names != nil }

// MaxInferredNodes bounds the number of nodes the readers infer from the
// largest index when ReadOptions.N is 0, so that a stray large index cannot
// make them allocate gigabytes; give N explicitly for larger graphs.
const MaxInferredNodes = 1 << 24

// LabelFloor is the least bound on the labels ReadLabels accepts: a
// label of a file on n nodes must be below max(n, LabelFloor), since the
// code that uses labels allocates a slot per label value (per-class
// counts, one-hot rows, contingency tables), which a stray label such as
// 1e9 would make gigabytes. dataset.LabelFloor is the same bound for
// dataset.ReadLabels; dataset.ReadNodeLabels, the command's reader, reads
// integer labels as class names instead when one reaches it.
const LabelFloor = 1 << 16

// maxLine is the longest line the readers accept.
const maxLine = textline.DefaultMaxBytes

// ReadFile reads the pairwise constraint file at path on n nodes (n ≤ 0
// infers n from the largest index, at most MaxInferredNodes) with integer
// indices in the base of the file's directive (0 if none). Malformed lines
// are errors naming path:line (see Read), but duplicates and contradictions
// are kept (the Soft policy): noisy constraint sets, such as those of seed
// 001's noisy-label experiment, are legitimate input for methods that
// treat constraints as soft. Use Read with the Reject policy, or Check, to
// refuse or list them. It is ReadFileContext with a context that is never
// cancelled.
func ReadFile(path string, n int) (*Set, error) {
	return ReadFileContext(context.Background(), path, n)
}

// ReadFileContext is ReadFile checking ctx while the file is opened (a FIFO
// without a writer is waited for until ctx is cancelled) and read (see
// ReadContext).
func ReadFileContext(ctx context.Context, path string, n int) (*Set, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("constraint: %w", err)
	}
	defer f.Close()
	res, err := ReadContext(ctx, f, &ReadOptions{N: max(n, 0), File: path, Policy: Soft})
	if err != nil {
		return nil, err
	}
	return res.Set, nil
}

// Read is ReadContext with a context that is never cancelled.
func Read(r io.Reader, opt *ReadOptions) (*File, error) {
	return ReadContext(context.Background(), r, opt)
}

// ReadContext parses a pairwise constraint file. The format is text, one
// constraint per line:
//
//	# comment; a line "# base=0" or "# base=1" before the first constraint
//	# declares the index base
//	i,j,kind[,weight]
//
// i and j are node indices (or names, see ReadOptions.Names), kind is ml
// or cl (any case), and weight, when present, is a positive finite number
// (the confidence of a soft constraint; absent means a hard constraint of
// weight 1, stored as Weight 0). Fields are separated by commas, tabs,
// semicolons or blanks, whichever the first data line uses, as in labels
// files (dataset.ReadNodeLabels): "0\t1\tml" and "0 1 ml" are read as
// "0,1,ml"; CSV double quotes are honoured ("Smith, J" is one name), and
// an empty last field (a trailing comma) is absent. Spaces around fields
// are ignored, blank lines skipped, and one header line is allowed before
// the first constraint: 3 or 4 fields whose third names the kind column
// (kind, type, constraint, relation, relationship or link, any case) and
// whose fourth, if any, the weight column (weight or w), such as
// "i,j,kind", "a,b,type,weight" or "node1,node2,constraint"; no
// constraint line is one (its kind is ml or cl, its weight a number), nor
// is a line whose first two fields are nodes as the file may write them
// (integers, or names of ReadOptions.Names) unless they are the words of
// a header's first two columns (i,j; a,b; u,v; source,target; …):
// "3,4,link" or "alice,bob,link" is a constraint of an unknown kind, an
// error naming line and kind, not a header.
// Its first two words do not change how the nodes are read (indices,
// or names as ReadOptions says), except name_i,name_j (or id_i,id_j, any
// case): the header "name_i,name_j,kind[,weight]", which WriteNamed
// writes, says that the nodes are names. With ReadOptions.Names they are
// then matched by name whatever AutoNames says, names that are integers
// included; without Names, integer names are node indices in the file's
// base (as a labels file's "id" column of integers is for data without
// names, dataset.ReadNodeLabels) and any other name is an error. A nil
// opt means the zero ReadOptions.
//
// Every error names the file and line: a malformed line, an unknown kind or
// name, an index outside the nodes, a self pair, a bad weight, a base that
// contradicts the directive, or (under the Reject policy) a duplicate or
// contradiction, which wrap ErrConflict. A first data line that is neither
// a constraint nor a header (its third field neither ml, cl nor a kind
// word), whose node is an unknown name or not an integer, says what a
// header must be: name_i,name_j,kind when the nodes are read by name,
// i,j,kind otherwise. Malformed input wraps ErrInvalid.
// Cost O(file size + n). ctx is checked every few thousand lines, and as
// the pairs are checked once read (Check: 10⁷ pairs take seconds); a
// cancelled read returns ctx's error, wrapped with the file and the line
// or the step.
func ReadContext(ctx context.Context, r io.Reader, opt *ReadOptions) (*File, error) {
	lr, err := newLineReader(ctx, r, opt)
	if err != nil {
		return nil, err
	}
	o, file := lr.opt, lr.file
	s := &Set{}
	var lines []int
	maxIndex := -1
	header := true
	for lr.next() {
		fields := lr.fields
		if k := len(fields) - 1; k > 0 && fields[k] == "" {
			// A trailing delimiter ("0,1,ml,"), as spreadsheets write:
			// the empty last field is absent.
			fields = fields[:k]
		}
		first := header
		if header {
			header = false
			if isPairsHeader(fields) && !lr.nodePair(fields[0], fields[1]) {
				// i,j,kind; a,b,type; u,v,constraint (review 118):
				// no constraint line has such a third field.
				if labelheader.IsNamedPair(fields[0], fields[1]) {
					// name_i,name_j,kind: nodes by name (WriteNamed).
					lr.nameLine = lr.line
				}
				continue
			}
		}
		if first && (len(fields) == 2 || len(fields) == 1 && !strings.ContainsAny(fields[0], " \t;,")) {
			// A labels file given for pairs (review 95): the reader
			// looks ahead, and the error names the first line.
			line, text, n := lr.line, lr.text, len(fields)
			if lr.labelsAhead(fields) {
				layout := "node,label lines: each node's class"
				if n == 1 {
					layout = "one label per line"
				}
				return nil, &labelsFileError{msg: fmt.Sprintf("%v: %s:%d: want i,j,kind[,weight], got %s %q: this is a labels file (%s), not pairwise constraints", ErrInvalid, lr.file, line, wording.Count(n, "field", "fields"), text, layout)}
			}
			if lr.line != line {
				// The lines read ahead are not labels: the error is
				// the first line's.
				lr.line, lr.text = line, text
			}
		}
		if len(fields) == 1 && strings.ContainsAny(fields[0], " \t;,") {
			// A line separated otherwise than the first data line.
			parts := strings.FieldsFunc(fields[0], func(r rune) bool { return r == ' ' || r == '\t' || r == ';' || r == ',' })
			sep := "with " + fieldsplit.Name(lr.delim) + ", as line " + strconv.Itoa(lr.delimLine) + " does,"
			if lr.delimLine == 0 || lr.line == lr.delimLine {
				sep = "with commas, tabs, semicolons or blanks"
			}
			if len(parts) == 2 {
				return nil, lr.errf("want i,j,kind[,weight], got 1 field %q: separate the fields %s and give the kind: %s (must-link) or %s (cannot-link)", fields[0], sep, lr.join(parts[0], parts[1], "ml"), lr.join(parts[0], parts[1], "cl"))
			}
			return nil, lr.errf("want i,j,kind[,weight], got 1 field %q: separate the fields %s", fields[0], strings.TrimSuffix(sep, ","))
		}
		if len(fields) == 2 {
			return nil, lr.errf("want i,j,kind[,weight], got 2 fields %q: give the kind: %s (must-link) or %s (cannot-link)", lr.text, lr.join(fields[0], fields[1], "ml"), lr.join(fields[0], fields[1], "cl"))
		}
		if len(fields) != 3 && len(fields) != 4 {
			return nil, lr.errf("want i,j,kind[,weight], got %s", wording.Count(len(fields), "field", "fields"))
		}
		if o.AutoNames && lr.names != nil && len(s.Pairs) == 0 && lr.nameLine == 0 {
			if isInt(fields[0]) && isInt(fields[1]) {
				lr.names = nil // the file numbers its nodes
				lr.indexLine = lr.line
				if lr.opt.N == 0 {
					// Of the nodes the names name (ReadOptions.N): an
					// index beyond them is an error, not a larger n.
					lr.opt.N = len(o.Names)
				}
			}
		}
		lr.headerHint = ""
		if first && !isKind(fields[2]) {
			// Neither a constraint nor a header (review 118): a node
			// that is not one says what a header is, as the nodes are
			// read (by name or by index).
			h := "i,j,kind"
			if lr.names != nil {
				h = "name_i,name_j,kind"
			}
			lr.headerHint = fmt.Sprintf("; if line %d is a header, write it %s (%s,weight with weights)", lr.line, h, h)
		}
		var p Pair
		if p.I, err = lr.node(fields[0]); err != nil {
			return nil, err
		}
		if p.J, err = lr.node(fields[1]); err != nil {
			return nil, err
		}
		switch strings.ToLower(fields[2]) {
		case "ml":
			p.Kind = MustLink
		case "cl":
			p.Kind = CannotLink
		default:
			if first && labelheader.IsKind(fields[2]) {
				// "3,4,link": a header's third word, but its first two
				// are nodes (nodePair), so the line is a constraint.
				return nil, lr.errf("kind %q, want ml or cl (line %d is no header: its first two fields, %s and %s, are nodes; a header names the columns, such as i,j,kind, or name_i,name_j,kind for nodes by name)", fields[2], lr.line, fields[0], fields[1])
			}
			return nil, lr.errf("kind %q, want ml or cl", fields[2])
		}
		if len(fields) == 4 {
			w, err := strconv.ParseFloat(fields[3], 64)
			if err != nil || !(w > 0) || math.IsInf(w, 0) {
				return nil, lr.errf("weight %q, want a positive finite number", fields[3])
			}
			p.Weight = w
		}
		if p.I == p.J {
			return nil, lr.errf("self pair: node %s with itself", fields[0])
		}
		maxIndex = max(maxIndex, p.I, p.J)
		s.Pairs = append(s.Pairs, p)
		lines = append(lines, lr.line)
	}
	if err := lr.err(); err != nil {
		return nil, err
	}
	s.N = lr.n(maxIndex + 1)
	res := &File{Base: lr.base}
	if lr.names != nil {
		res.names = o.Names
	} else if lr.nameLine > 0 {
		res.NamesAsIndices = lr.nameLine
	}
	out, kept, rep, err := resolve(lr.ctx, s, o.Policy, file, lines, res.Node)
	if err != nil {
		if lr.ctx.Err() != nil {
			return nil, fmt.Errorf("%s: stopped while checking the pairs: %w", file, err)
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if kept != nil {
		kl := make([]int, len(kept))
		for a, k := range kept {
			kl[a] = lines[k]
		}
		lines = kl
	}
	res.Set, res.Lines, res.Report = out, lines, rep
	return res, nil
}

// ErrLabelsFile is wrapped, beside ErrInvalid, by the error of
// ReadContext for a labels file read as pairs: one label per line, or
// node,label lines (a header such as node,label, or a first column that
// names each node once and a second that repeats a few classes or marks
// unknown ones), so that a front end can name its option for labels.
var ErrLabelsFile = errors.New("constraint: a labels file, not pairs")

// labelsFileError is the error of ReadContext for a labels file: its
// message, wrapping ErrInvalid and ErrLabelsFile.
type labelsFileError struct{ msg string }

func (e *labelsFileError) Error() string   { return e.msg }
func (e *labelsFileError) Unwrap() []error { return []error{ErrInvalid, ErrLabelsFile} }

// labelsLookahead bounds the lines labelsAhead reads.
const labelsLookahead = 1000

// labelsAhead reports whether fields, the first data line of a constraint
// file, and up to labelsLookahead lines after it, which it reads, are a
// labels file rather than pairs without their kind: a header of a node
// word and a label word (node,label; id,class; package labelheader), or
// lines of one field each, or at least 2 lines of two fields whose first
// field never repeats (one line a node) and whose second holds at most
// half as many distinct values as lines (a few classes) or marks an
// unknown class (-1, ? or empty). Pairs i,j without their kind rarely
// list each first node once while repeating the second. Cost O(lines read).
func (lr *lineReader) labelsAhead(fields []string) bool {
	if len(fields) == 2 && labelheader.IsNode(fields[0]) && labelheader.IsLabel(fields[1]) {
		return true
	}
	if len(fields) == 1 {
		// No pairs file has a line of one field; one label per line
		// has nothing else (blank lines are unlabelled nodes).
		for lines := 1; lines < labelsLookahead && lr.next(); lines++ {
			if len(lr.fields) != 1 {
				return false
			}
		}
		return true
	}
	unknown := func(f string) bool { return f == "" || f == "?" || f == "-1" }
	nodes := map[string]bool{fields[0]: true}
	classes := map[string]bool{fields[1]: true}
	lines, marked := 1, unknown(fields[1])
	for lines < labelsLookahead && lr.next() {
		f := lr.fields
		if len(f) == 1 && fieldsplit.TrailingEmpty(lr.raw, lr.delim) {
			f = append(f, "") // "3\t": an unknown label
		}
		if len(f) != 2 || nodes[f[0]] {
			return false
		}
		nodes[f[0]], classes[f[1]] = true, true
		marked = marked || unknown(f[1])
		lines++
	}
	return lines >= 2 && (marked || 2*len(classes) <= lines)
}

// join writes fields as a line of the file does: separated by its
// delimiter (a blank for blanks), quoted when it is a tab.
func (lr *lineReader) join(fields ...string) string {
	switch lr.delim {
	case 0:
		return strings.Join(fields, " ")
	case '\t':
		return strconv.Quote(strings.Join(fields, "\t"))
	}
	return strings.Join(fields, string(lr.delim))
}

// isInt reports whether f is written as a decimal integer, one beyond
// the range of int included (node reports it as out of range).
func isInt(f string) bool {
	_, err := strconv.Atoi(f)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// isKind reports whether f is a kind a constraint line holds: ml or cl,
// in any case. Cost O(len(f)).
func isKind(f string) bool {
	return strings.EqualFold(f, "ml") || strings.EqualFold(f, "cl")
}

// isPairsHeader reports whether fields, the first data line of a
// constraint file, are a header: 3 or 4 fields whose third names the kind
// column (labelheader.IsKind: kind, type, constraint, …) and whose fourth,
// if any, the weight column (weight or w), whatever the first two say
// (i,j; a,b; node1,node2; name_i,name_j). No constraint line is one: its
// kind is ml or cl and its weight a number. Cost O(len(fields)).
func isPairsHeader(fields []string) bool {
	if len(fields) != 3 && len(fields) != 4 {
		return false
	}
	return labelheader.IsKind(fields[2]) && (len(fields) == 3 || labelheader.IsWeight(fields[3]))
}

// nodePair reports whether a and b, the first two fields of a constraint
// file's first data line, are both nodes as the file may write them:
// integers (indices) when no names are given or AutoNames lets the file
// number its nodes, names of ReadOptions.Names when they are given. Such
// a line is a constraint, never a header, whatever its third field says
// ("3,4,link"), except the words of a header's first two columns
// (labelheader.IsPairColumns: i,j; a,b; u,v; source,target; name_i,name_j,
// which WriteNamed writes; …): with data whose nodes are named a, b, …,
// the line "a,b,type" heads the columns, as it does without names.
// Cost O(len(a) + len(b)).
func (lr *lineReader) nodePair(a, b string) bool {
	if labelheader.IsPairColumns(a, b) {
		return false
	}
	if lr.names == nil || lr.opt.AutoNames {
		if isInt(a) && isInt(b) {
			return true
		}
	}
	if lr.names != nil {
		_, okA := lr.names[a]
		_, okB := lr.names[b]
		return okA && okB
	}
	return false
}

// lineReader splits a constraint or labels file into data lines, handling
// comments, the base directive, node indices and names.
type lineReader struct {
	ctx   context.Context
	sc    *bufio.Scanner
	file  string
	opt   *ReadOptions
	names map[string]int
	// shared[nm] lists the nodes (indices of ReadOptions.Names) that
	// share the name nm, for the names more than one node has: a line
	// that names one is an error (node).
	shared    map[string][]int
	indexLine int // the line that chose indices over Names, under AutoNames
	nameLine  int // the line of a header that keys the nodes by name (name_i,name_j,kind; name,label), 0 if none
	base      int
	baseSet   bool // by option or directive
	optBase   bool // by option
	seenData  bool
	keepBlank bool
	delim     byte // the field delimiter (0: blanks), fieldsplit.Detect's
	delimLine int  // the first line of several fields, which set delim; 0 before

	line   int
	text   string // the line, blanks trimmed
	raw    string // the line as read (without its line ending)
	fields []string
	fail   error

	// headerHint ends the error of a node that is not one (an unknown
	// name, or not an integer) on a first data line that is neither a
	// constraint nor a header: what a header is; "" otherwise.
	headerHint string
}

// newLineReader returns a reader of the data lines of r with the options
// opt (nil: the zero ReadOptions), which it copies; lr.file names the
// input in errors: opt.File, or "input".
func newLineReader(ctx context.Context, r io.Reader, opt *ReadOptions) (*lineReader, error) {
	o := &ReadOptions{}
	if opt != nil {
		*o = *opt
	}
	file := o.File
	if file == "" {
		file = "input"
	}
	lr := &lineReader{ctx: ctx, sc: bufio.NewScanner(r), file: file, opt: o}
	lr.sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	lr.sc.Split(textline.Split)
	if o.N < 0 || o.N > maxPairNodes {
		return nil, fmt.Errorf("%w: %s: number of nodes %d outside [0, 2^31]", ErrInvalid, file, o.N)
	}
	switch o.Base {
	case BaseAuto:
	case Base0, Base1:
		lr.base, lr.baseSet, lr.optBase = int(o.Base)-1, true, true
	default:
		return nil, fmt.Errorf("%w: %s: unknown index base %d", ErrInvalid, file, o.Base)
	}
	if o.Names != nil {
		lr.names = make(map[string]int, len(o.Names))
		for i, nm := range o.Names {
			nm = strings.TrimSpace(nm)
			j, dup := lr.names[nm]
			if !dup {
				lr.names[nm] = i
				continue
			}
			// Only a line that names such a node fails: it cannot say
			// which one it means.
			if lr.shared == nil {
				lr.shared = map[string][]int{}
			}
			if lr.shared[nm] == nil {
				lr.shared[nm] = []int{j}
			}
			lr.shared[nm] = append(lr.shared[nm], i)
		}
		if o.N != 0 && o.N != len(o.Names) {
			return nil, fmt.Errorf("%w: %s: %d names for %d nodes", ErrInvalid, file, len(o.Names), o.N)
		}
	}
	return lr, nil
}

// next advances to the next data line; blank lines are skipped unless
// keepBlank is set. Fields are separated by the delimiter fieldsplit.Detect
// finds on the first data line of more than one field (comma, tab,
// semicolon or blanks), CSV quotes honoured and blanks around fields
// trimmed; a blank line is one empty field.
func (lr *lineReader) next() bool {
	if lr.fail != nil {
		return false
	}
	for lr.sc.Scan() {
		if err := textline.Poll(lr.ctx, lr.file, lr.line); err != nil {
			lr.fail = fmt.Errorf("constraint: %w", err)
			return false
		}
		lr.line++
		lr.raw = lr.sc.Text()
		lr.text = strings.TrimSpace(lr.raw)
		if lr.line == 1 {
			lr.text = strings.TrimPrefix(lr.text, textline.BOM)
		}
		if strings.HasPrefix(lr.text, "#") {
			if err := lr.directive(lr.text[1:]); err != nil {
				lr.fail = err
				return false
			}
			continue
		}
		if lr.text == "" && !lr.keepBlank {
			continue
		}
		lr.seenData = true
		delim := lr.delim
		if lr.delimLine == 0 {
			// The labels readers' rule (dataset.ReadNodeLabels): the
			// first data line decides; one of a single field (a label)
			// does not.
			delim = fieldsplit.Detect([]string{lr.text})
		}
		f, err := fieldsplit.SplitLine(lr.text, delim)
		if err != nil {
			lr.fail = lr.errf("%v", err)
			return false
		}
		if lr.delimLine == 0 && len(f) > 1 {
			lr.delim, lr.delimLine = delim, lr.line
		}
		lr.fields = f
		return true
	}
	return false
}

// directive handles "# base=B"; other comments are ignored.
func (lr *lineReader) directive(c string) error {
	key, val, ok := strings.Cut(c, "=")
	if !ok || strings.TrimSpace(key) != "base" {
		return nil
	}
	val = strings.TrimSpace(val)
	if val != "0" && val != "1" {
		return lr.errf("directive base=%s, want base=0 or base=1", val)
	}
	if lr.seenData {
		return lr.errf("the base directive must come before the first data line")
	}
	b := int(val[0] - '0')
	if lr.baseSet && b != lr.base {
		if lr.optBase {
			return lr.errf("the file declares base=%d but base %d was requested", b, lr.base)
		}
		return lr.errf("second base directive base=%d contradicts base=%d", b, lr.base)
	}
	lr.base, lr.baseSet = b, true
	return nil
}

// node parses a node field: a name when Names is set, else an integer index
// in the file's base, checked against N when N is known.
func (lr *lineReader) node(f string) (int, error) {
	if lr.names != nil {
		i, ok := lr.names[f]
		if !ok {
			if lr.nameLine > 0 && isInt(f) {
				// Row numbers keyed as names (a reference over pandas'
				// index) given with data that names its rows otherwise.
				return 0, lr.errf("unknown node name %q: the header on line %d keys the nodes by name, and the data's names do not hold it; if the file's names are row numbers, its header must be i,j,kind (nodes by index)", f, lr.nameLine)
			}
			return 0, lr.errf("unknown node name %q%s", f, lr.headerHint)
		}
		if rows := lr.shared[f]; rows != nil {
			if o := lr.opt; len(o.NameLines) == len(o.Names) {
				lines := make([]int, len(rows))
				for k, r := range rows {
					lines[k] = o.NameLines[r]
				}
				file := o.NamesFile
				if file == "" {
					file = "the data file"
				}
				return 0, lr.errf("node name %q is that of the rows on lines %s of %s, so this line cannot say which one it means: make the names distinct, or number the nodes", f, wording.Numbers(lines), file)
			}
			return 0, lr.errf("node name %q is shared by rows %s of the names (0-based rows of the data, not file lines), so line %d cannot say which one it means: make the names distinct, or number the nodes", f, wording.Numbers(rows), lr.line)
		}
		return i, nil
	}
	v, err := strconv.Atoi(f)
	if errors.Is(err, strconv.ErrRange) {
		// An integer, but beyond int (int64, or int32 where int has 32
		// bits): out of range, not a name.
		if f[0] == '-' {
			return 0, lr.errf("node %s out of range: below the index base %d", f, lr.base)
		}
		if lr.opt.N > 0 {
			return 0, lr.errf("node %s out of range: outside %d…%d (base %d)", f, lr.base, lr.opt.N-1+lr.base, lr.base)
		}
		return 0, lr.errf("node %s out of range: more than %d nodes; give the number of nodes explicitly", f, MaxInferredNodes)
	}
	if err != nil {
		if lr.indexLine > 0 {
			return 0, lr.errf("node %q is not an integer (line %d numbers its nodes, so the file reads indices: name the nodes there too, or number them here)", f, lr.indexLine)
		}
		if lr.nameLine > 0 {
			return 0, lr.errf("unknown node name %q: the header on line %d keys the nodes by name, but no node names were given to match them (ReadOptions.Names; tether: data that names its nodes, such as a table with an id column, or constraints check -names with the data's labels file or node list); without them only names that are integers are read, as 0-based node indices", f, lr.nameLine)
		}
		return 0, lr.errf("node %q is not an integer%s", f, lr.headerHint)
	}
	i := v - lr.base
	switch {
	case i < 0 && lr.opt.N == 0:
		return 0, lr.errf("node %d below the index base %d", v, lr.base)
	case i < 0 || (lr.opt.N > 0 && i >= lr.opt.N):
		if lr.nameLine > 0 {
			// Before the base=1 hint: names have no base (review 113).
			return 0, lr.errf("node %d outside %d…%d: the header on line %d keys the nodes by name, and without node names to match them (ReadOptions.Names; tether: data that names its nodes, such as a table with an id column, or constraints check -names with the data's labels file or node list) names that are integers are read as node indices", v, lr.base, lr.opt.N-1+lr.base, lr.nameLine)
		}
		if i == lr.opt.N && !lr.baseSet {
			// One past the last 0-based node: most likely a file that
			// numbers its nodes from 1 without saying so.
			return 0, lr.errf("node %d outside %d…%d (base %d): if the file numbers the nodes from 1, begin it with a line \"# base=1\"", v, lr.base, lr.opt.N-1+lr.base, lr.base)
		}
		return 0, lr.errf("node %d outside %d…%d (base %d)", v, lr.base, lr.opt.N-1+lr.base, lr.base)
	case lr.opt.N == 0 && i >= MaxInferredNodes:
		return 0, lr.errf("node %d: more than %d nodes; give the number of nodes explicitly", v, MaxInferredNodes)
	}
	return i, nil
}

// n returns the number of nodes: the option, the names, or inferred.
func (lr *lineReader) n(inferred int) int {
	switch {
	case lr.opt.N > 0:
		return lr.opt.N
	case lr.names != nil:
		// The names, not the map of them: names that repeat are nodes
		// too.
		return len(lr.opt.Names)
	}
	return max(inferred, 0)
}

func (lr *lineReader) errf(format string, args ...any) error {
	return fmt.Errorf("%w: %s:%d: %s", ErrInvalid, lr.file, lr.line, fmt.Sprintf(format, args...))
}

// err returns the first error met while scanning.
func (lr *lineReader) err() error {
	if lr.fail != nil {
		return lr.fail
	}
	if err := lr.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%w: %s:%d: line longer than %d bytes", ErrInvalid, lr.file, lr.line+1, maxLine)
		}
		return fmt.Errorf("constraint: %s: %w", lr.file, err)
	}
	return nil
}

// Write writes s in the format of Read with indices in the given base (0 or
// 1), starting with the directive "# base=B". Weights are written only when
// not 0, in the shortest form that reads back exactly. The error wraps
// ErrInvalid when base is not 0 or 1 or s fails Validate, and otherwise is
// the writer's.
func Write(w io.Writer, s *Set, base int) error {
	if base != 0 && base != 1 {
		return fmt.Errorf("%w: index base %d, want 0 or 1", ErrInvalid, base)
	}
	if s == nil {
		s = &Set{}
	}
	if err := s.Validate(); err != nil {
		return err
	}
	return writePairs(w, s, fmt.Sprintf("# base=%d\n", base), func(buf []byte, i int) []byte {
		return strconv.AppendInt(buf, int64(i+base), 10)
	})
}

// writePairs writes head, then one line i,j,ml|cl[,weight] per pair of s,
// node i written by node (appended to buf), weights only when not 0, in
// the shortest form that reads back exactly: the lines of Write and
// WriteNamed. The error is the writer's. Cost O(len(s.Pairs)) and the
// nodes' writing.
func writePairs(w io.Writer, s *Set, head string, node func(buf []byte, i int) []byte) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(head)
	buf := make([]byte, 0, 64)
	for _, p := range s.Pairs {
		buf = node(buf[:0], p.I)
		buf = append(buf, ',')
		buf = node(buf, p.J)
		buf = append(buf, ',')
		buf = append(buf, p.Kind.String()...)
		if p.Weight != 0 {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, p.Weight, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("constraint: writing constraints: %w", err)
	}
	return nil
}

// WriteNamed writes s in the format of Read keyed by node name, names[i]
// naming node i: the header "name_i,name_j,kind" (",weight" too when a
// pair has a weight), then one line name_i,name_j,ml|cl[,weight] per
// pair, in order, weights as Write writes them. No base directive is
// written: names have none. Read with ReadOptions.Names (AutoNames or
// not) matches the names back, integers included, since the header keys
// the nodes by name; without Names, names that are integers are read as
// 0-based node indices, which is what they are when they number rows
// (pandas' index, the row numbers tether writes after dropping rows with
// missing values).
//
// Names are written with the blanks around them trimmed, as the readers
// match them, and between CSV double quotes (a quote doubled) when they
// hold a comma or a double quote, or begin with '#' or '%' (a comment
// line otherwise). The error wraps ErrInvalid when len(names) is not s.N,
// a name is empty or repeats another once trimmed (it could not say
// which node it is), or holds a line break or a NUL byte (no line of the
// readers holds one), or s fails Validate; otherwise it is the writer's.
// Cost O(total length of the names + len(s.Pairs)).
func WriteNamed(w io.Writer, s *Set, names []string) error {
	if s == nil {
		s = &Set{}
	}
	if err := s.Validate(); err != nil {
		return err
	}
	fields, err := nameFields(names, s.N)
	if err != nil {
		return err
	}
	head := "name_i,name_j,kind\n"
	for _, p := range s.Pairs {
		if p.Weight != 0 {
			head = "name_i,name_j,kind,weight\n"
			break
		}
	}
	return writePairs(w, s, head, func(buf []byte, i int) []byte { return append(buf, fields[i]...) })
}

// nameFields returns names as the fields WriteNamed and WriteLabelsNamed
// write (trimmed, quoted when needed), checking that there are n of them,
// none empty, repeated, or holding a line break or NUL byte. Cost
// O(total length of the names).
func nameFields(names []string, n int) ([]string, error) {
	if len(names) != n {
		return nil, fmt.Errorf("%w: %d names for %d nodes", ErrInvalid, len(names), n)
	}
	out := make([]string, n)
	seen := make(map[string]int, n)
	for i, nm := range names {
		nm = strings.TrimSpace(nm)
		switch {
		case nm == "":
			return nil, fmt.Errorf("%w: node %d has an empty name", ErrInvalid, i)
		case strings.ContainsAny(nm, "\n\r\x00"):
			return nil, fmt.Errorf("%w: the name of node %d, %q, holds a line break or a NUL byte", ErrInvalid, i, nm)
		}
		if j, dup := seen[nm]; dup {
			return nil, fmt.Errorf("%w: node name %q used by nodes %d and %d", ErrInvalid, nm, j, i)
		}
		seen[nm] = i
		out[i] = fieldsplit.Quote(nm)
	}
	return out, nil
}

// ReadLabelsFile reads the partial labels file at path on n nodes (n ≤ 0
// infers n) with the default options. See ReadLabels. It is
// ReadLabelsFileContext with a context that is never cancelled.
func ReadLabelsFile(path string, n int) (Labels, error) {
	return ReadLabelsFileContext(context.Background(), path, n)
}

// ReadLabelsFileContext is ReadLabelsFile checking ctx while the file is
// opened (a FIFO without a writer is waited for until ctx is cancelled)
// and read (see ReadLabelsContext).
func ReadLabelsFileContext(ctx context.Context, path string, n int) (Labels, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("constraint: %w", err)
	}
	defer f.Close()
	return ReadLabelsContext(ctx, f, &ReadOptions{N: max(n, 0), File: path})
}

// ReadLabels is ReadLabelsContext with a context that is never cancelled.
func ReadLabels(r io.Reader, opt *ReadOptions) (Labels, error) {
	return ReadLabelsContext(context.Background(), r, opt)
}

// ReadLabelsContext parses a partial labels file in one of two layouts,
// chosen by the first data line:
//
//	node,label     one labelled node per line; nodes not listed are unlabelled
//	label          one line per node, in node order
//
// A label is a non-negative integer, or -1, "?" or an empty field for an
// unlabelled node; in the node,label layout, an empty label may follow
// its delimiter ("3,", "3;", "3\t", or "3 " when blanks separate the
// fields), but a line of one field without one is an error. In the
// one-per-line layout blank lines are unlabelled nodes, before the first
// label too, but those at the end of the file are ignored (as
// dataset.ReadNodeLabels reads them), and trailing blanks on a line mean
// nothing (the first data line decides the layout, so "3\t" there is one
// label). Comments,
// the field delimiter and the "# base=" directive are as in Read (the base
// applies to the node field); a header line "node,label" or "label" is
// allowed first (any case, and any of the words dataset.ReadNodeLabels
// takes for a header: index, vertex or item for node; class, cluster,
// truth, target, y, pred, community or club for label, …), and blank
// lines before it or before the first node,label line are ignored. The
// header "name,label" (or id, node_name or node_id with any label word),
// which WriteLabelsNamed writes, says that the nodes are names: matched
// against ReadOptions.Names, or without Names read as node indices when
// they are integers (as dataset.ReadNodeLabels reads an "id" column of
// integers for data without names), an error otherwise. A first line -1, ? or empty is node 0's label, never
// a header. A nil opt
// means the zero ReadOptions; Policy is not used.
//
// Errors name the file and line and wrap ErrInvalid: a malformed or
// negative label, a label of max(n, LabelFloor) or more for n nodes (the
// first in file order), a node listed twice, an index outside the nodes, a line
// count different from a given N, or mixed layouts. Cost O(file size + n).
// ctx is checked every few thousand lines; a cancelled read returns ctx's
// error, wrapped with the file and line.
func ReadLabelsContext(ctx context.Context, r io.Reader, opt *ReadOptions) (Labels, error) {
	lr, err := newLineReader(ctx, r, opt)
	if err != nil {
		return nil, err
	}
	o, file := lr.opt, lr.file
	lr.keepBlank = true
	const undecided, pairs, single = 0, 1, 2
	layout := undecided
	var out Labels
	lineOf := map[int]int{}
	maxIndex := -1
	// pending counts the blank lines not yet known to be nodes: those
	// before the first data line (nodes if it is a label) and those not
	// yet followed by a label (nodes unless they end the file).
	pending := 0
	// Labels of LabelFloor or more, checked against n once it is known:
	// fixed, the option's or the names', or (0) inferred at the end, when
	// big holds them in file order.
	fixed := o.N
	if fixed == 0 && o.Names != nil {
		fixed = len(o.Names)
	}
	type bigLabel struct{ line, c int }
	var big []bigLabel
	for lr.next() {
		fields := lr.fields
		if lr.text == "" && layout != pairs {
			pending++
			continue
		}
		if layout == undecided {
			switch {
			case len(fields) == 2 && labelheader.IsNode(fields[0]) && labelheader.IsLabel(fields[1]):
				// node,label, id,class, …: the words of
				// dataset.ReadNodeLabels' headers. name,label (or
				// id, node_name, node_id): nodes by name
				// (WriteLabelsNamed).
				layout, pending = pairs, 0
				if labelheader.IsName(fields[0]) {
					lr.nameLine = lr.line
				}
				continue
			case len(fields) == 1 && labelheader.IsLabel(fields[0]):
				layout, pending = single, 0
				continue
			case len(fields) == 2:
				layout, pending = pairs, 0
			case len(fields) == 1:
				layout = single
			}
		}
		if layout == pairs && len(fields) == 1 && lr.text != "" && fieldsplit.TrailingEmpty(lr.raw, lr.delim) {
			// "1\t" or "1 ": an empty label after the delimiter that
			// trimming the line hid, as "1," has one
			// (dataset.ReadNodeLabels' rule).
			fields = append(fields, "")
		}
		switch {
		case layout == pairs && lr.text == "":
			continue
		case layout == pairs && len(fields) != 2:
			return nil, lr.errf("want node,label, got %d fields", len(fields))
		case layout == single && len(fields) != 1:
			return nil, lr.errf("want one label per line (the first data line has one), got %d fields", len(fields))
		case layout == undecided:
			return nil, lr.errf("want node,label or one label per line, got %d fields", len(fields))
		}
		var i int
		lab := fields[len(fields)-1]
		if layout == pairs {
			if i, err = lr.node(fields[0]); err != nil {
				return nil, err
			}
			if prev, dup := lineOf[i]; dup {
				return nil, lr.errf("node %s already labelled on line %d", fields[0], prev)
			}
			lineOf[i] = lr.line
		} else {
			for ; pending > 0; pending-- {
				out = append(out, Unlabeled)
			}
			i = len(out)
			if o.N > 0 && i >= o.N {
				return nil, lr.errf("more than %d label lines", o.N)
			}
		}
		c, err := lr.label(lab)
		if err != nil {
			return nil, err
		}
		if c >= LabelFloor {
			if fixed > 0 && c >= fixed {
				return nil, labelTooLarge(file, lr.line, c, fixed)
			}
			if fixed == 0 {
				big = append(big, bigLabel{lr.line, c})
			}
		}
		for len(out) <= i {
			out = append(out, Unlabeled)
		}
		out[i] = c
		maxIndex = max(maxIndex, i)
	}
	if err := lr.err(); err != nil {
		return nil, err
	}
	n := lr.n(maxIndex + 1)
	if layout == single && o.N > 0 && len(out) != o.N {
		if pending > 0 && len(out) < o.N {
			return nil, fmt.Errorf("%w: %s: %s for %s (%s at the end %s ignored: write -1 or ? for an unlabelled node)", ErrInvalid, file, wording.Count(len(out), "label line", "label lines"), wording.Count(o.N, "node", "nodes"), wording.Count(pending, "blank line", "blank lines"), wording.Form(pending, "is", "are"))
		}
		return nil, fmt.Errorf("%w: %s: %s for %s", ErrInvalid, file, wording.Count(len(out), "label line", "label lines"), wording.Count(o.N, "node", "nodes"))
	}
	for len(out) < n {
		out = append(out, Unlabeled)
	}
	for _, b := range big {
		if b.c >= len(out) {
			return nil, labelTooLarge(file, b.line, b.c, len(out))
		}
	}
	return out, nil
}

// labelTooLarge is the error of a label c, on line line of file, of
// max(n, LabelFloor) or more for n nodes. Cost O(1).
func labelTooLarge(file string, line, c, n int) error {
	return fmt.Errorf("%w: %s:%d: label %d too large: at most %d (max(n, LabelFloor) − 1 for %s): labels number the classes from 0, and a slot is kept for each value", ErrInvalid, file, line, c, max(n, LabelFloor)-1, wording.Count(n, "node", "nodes"))
}

// label parses a label field.
func (lr *lineReader) label(f string) (int, error) {
	if f == "" || f == "?" {
		return Unlabeled, nil
	}
	c, err := strconv.Atoi(f)
	if errors.Is(err, strconv.ErrRange) {
		return 0, lr.errf("label %s out of range: labels are integers from %d to %d", f, Unlabeled, math.MaxInt)
	}
	if err != nil || c < Unlabeled {
		return 0, lr.errf("label %q, want an integer ≥ 0, or -1, ? or empty for unlabelled", f)
	}
	return c, nil
}

// WriteLabels writes l in the node,label layout of ReadLabels with node
// indices in the given base (0 or 1), listing the labelled nodes only,
// after the directive "# base=B". The error wraps ErrInvalid when base is
// not 0 or 1 or a label is below Unlabeled.
func WriteLabels(w io.Writer, l Labels, base int) error {
	if base != 0 && base != 1 {
		return fmt.Errorf("%w: index base %d, want 0 or 1", ErrInvalid, base)
	}
	if err := l.Validate(0); err != nil {
		return err
	}
	return writeLabelLines(w, l, fmt.Sprintf("# base=%d\n", base), func(buf []byte, i int) []byte {
		return strconv.AppendInt(buf, int64(i+base), 10)
	})
}

// writeLabelLines writes head, then one line node,label per labelled node
// of l, in node order, node i written by node (appended to buf): the
// lines of WriteLabels and WriteLabelsNamed. The error is the writer's.
// Cost O(len(l)) and the nodes' writing.
func writeLabelLines(w io.Writer, l Labels, head string, node func(buf []byte, i int) []byte) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(head)
	buf := make([]byte, 0, 64)
	for i, c := range l {
		if c != Unlabeled {
			buf = node(buf[:0], i)
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, int64(c), 10)
			buf = append(buf, '\n')
			bw.Write(buf)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("constraint: writing labels: %w", err)
	}
	return nil
}

// WriteLabelsNamed writes l in the node,label layout of ReadLabels keyed
// by node name, names[i] naming node i: the header "name,label", then one
// name,label line per labelled node, in node order. No base directive is
// written: names have none. ReadLabels with ReadOptions.Names matches the
// names back, and so does dataset.ReadNodeLabels, whose "name" header
// keys the nodes by name even when the names are integers. Without
// names, ReadLabels reads names that are integers as 0-based node
// indices, and so does dataset.ReadNodeLabels given the number of nodes
// (NodeLabelOptions.N; without it, the names are the nodes, in the order
// of the lines): that is what they are when they number rows (pandas'
// index, the row numbers tether writes after dropping rows with missing
// values). Names are written as WriteNamed writes them (trimmed, quoted
// by fieldsplit.Quote). The error wraps
// ErrInvalid when len(names) is not len(l), a name is empty, repeated or
// holds a line break or a NUL byte (see WriteNamed), or a label is below
// Unlabeled; otherwise it is the writer's. Cost O(total length of the
// names + len(l)).
func WriteLabelsNamed(w io.Writer, l Labels, names []string) error {
	if err := l.Validate(0); err != nil {
		return err
	}
	fields, err := nameFields(names, len(l))
	if err != nil {
		return err
	}
	return writeLabelLines(w, l, "name,label\n", func(buf []byte, i int) []byte { return append(buf, fields[i]...) })
}
