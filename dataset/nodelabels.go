package dataset

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/internal/fieldsplit"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/labelheader"
	"github.com/tether-sc/tether/internal/wording"
)

// NodeLabelOptions controls ReadNodeLabels. The zero value infers the
// number of nodes and accepts both layouts.
type NodeLabelOptions struct {
	// N, if positive, is the number of nodes: a one-column file must have N
	// label lines and a two-column file must not name a node outside
	// 0…N−1. If 0, N is inferred (see ReadNodeLabels).
	N int
	// MaxNodes bounds the node indices of a two-column file read without
	// N (n inferred as 1 + the largest index; N, when positive, bounds
	// them instead): an index of MaxNodes or more is an error, as
	// LabelOptions.MaxNodes is for ReadLabels. If 0, DefaultMaxNodes is
	// used: a 10-byte file "16777215,0" asks for 2²⁴ nodes, 268 MB of
	// labels and lines.
	MaxNodes int
	// Names, when not nil, are the names of the nodes of the data the file
	// labels (Names[i] names node i: the ID column of a table, the node
	// names of a graph file). A two-column file that keys nodes by name is
	// matched against them; when Names is nil such a file defines the nodes
	// itself, in its line order (NodeLabels.Names), unless N is positive,
	// which is then an error.
	Names []string
	// NameLines, when it has one entry for each of Names, gives the
	// 1-based line of the data file NamesFile that each name comes from
	// (Table.RowLines): the error of a name that nodes share then gives
	// those lines too, as the table's warnings name rows. NamesFile "" is
	// "the data file".
	NameLines []int
	NamesFile string
	// Spelling says how the errors name the command that writes a
	// table's class column as a labels file, and the option that reads a
	// constraints file: tether's command line (CommandLine) names tether
	// labels and -constraints; another front end's messages, and the zero
	// value's, say what the file should hold, or name the library's
	// reader, instead.
	Spelling Spelling
}

// NodeLabels is the content of a labels file read by ReadNodeLabels.
type NodeLabels struct {
	// Labels[i] is the class of node i, or Unlabeled.
	Labels []int
	// ClassNames is nil when the file's known labels are all integers
	// below max(n, LabelFloor) for n nodes (which are kept as they are).
	// Otherwise every label text is a class, numbered in sorted order as
	// Table.ClassNames (numerically when they are numbers), and
	// ClassNames[c] is the text of class c; integer labels of which one
	// is max(n, LabelFloor) or more are so read (Renumbered), ClassNames
	// holding their decimal texts in increasing numeric order.
	ClassNames []string
	// Renumbered reports that the file's labels are integers, one of them
	// max(n, LabelFloor) or more (community IDs such as SNAP's), read as
	// class names: the distinct values in increasing order are classes 0,
	// 1, …, as input.ReadPartialLabels renumbers integer labels outside
	// 0…k−1. Note then says so, naming the file, the mapping and the
	// first such label's line, for front ends to print as a note (a
	// documented choice, not a warning); "" when Renumbered is false.
	Renumbered bool
	Note       string
	// Names is set when the file keys its nodes by name and no
	// NodeLabelOptions.Names were given: Names[i] is the name of node i, in
	// the order of the file.
	Names []string
	// ByName reports that the file keys its nodes by name.
	ByName bool
	// Base is the index base of a file that keys its nodes by index: 1
	// after a "# base=1" directive, else 0; 0 for a file that keys its
	// nodes by name or has one label per line. Node uses it.
	Base int
	// Lines[i] is the 1-based line of the file that gives node i's label
	// (in a one-column file, the line of node i, a blank one included),
	// 0 when no line names node i; len(Lines) = len(Labels). Messages
	// about a node of a one-label-per-line file name it by its line, the
	// only way the file names it.
	Lines []int
	// Warnings say what in the file looks wrong without being an error,
	// naming the file: a node-indexed file without a base directive that
	// never names node 0 though it lists at least half of the nodes (a
	// 1-based file read 0-based?). nil when there is none.
	Warnings []string

	// names are NodeLabelOptions.Names when the file was matched
	// against them; oneColumn reports a one-label-per-line file. Node
	// reads them.
	names     []string
	oneColumn bool
}

// Node returns node i as the file writes it: its name when the file
// keys its nodes by name (the name of NodeLabels.Names, or of
// NodeLabelOptions.Names that it was matched against), else its index in
// the file's Base; for a one-label-per-line file, which does not write
// its nodes, "line L", L its line (Lines), or its 0-based index when no
// line gives it. Cost O(1).
func (l *NodeLabels) Node(i int) string {
	switch {
	case l.ByName && i < len(l.Names):
		return strings.TrimSpace(l.Names[i])
	case l.ByName && i < len(l.names):
		return strings.TrimSpace(l.names[i])
	case l.oneColumn && i < len(l.Lines) && l.Lines[i] > 0:
		return "line " + strconv.Itoa(l.Lines[i])
	}
	return strconv.Itoa(i + l.Base)
}

// pairsLine reports whether fields, the first data line of a labels file,
// is one of a pairwise constraints file (constraint.ReadFile): 3 or 4
// fields whose third is the kind ml or cl, or a header that file reads
// whose first two words name a pair as people write them
// (labelheader.IsPairColumns: i,j; a,b; u,v; node1,node2; name_i,name_j;
// …), its third the kind (labelheader.IsKind: kind, type, constraint,
// …) and its fourth, if any, the weight (weight, w). A feature table's
// header (sepal,petal,type) is not one. Cost O(len(fields)).
func pairsLine(fields []string) bool {
	if len(fields) != 3 && len(fields) != 4 {
		return false
	}
	kind := strings.ToLower(strings.TrimSpace(fields[2]))
	if kind == "ml" || kind == "cl" {
		return true
	}
	return labelheader.IsPairColumns(fields[0], fields[1]) && labelheader.IsKind(fields[2]) && (len(fields) == 3 || labelheader.IsWeight(fields[3]))
}

func isWord(s string, words []string) bool {
	for _, w := range words {
		if strings.EqualFold(strings.TrimSpace(s), w) {
			return true
		}
	}
	return false
}

// isMissingMark reports whether s is a word other tools write for a
// missing value (pandas, R, SQL: NaN, NA, N/A, null, None, any case),
// which a labels file reads as a class name: a warning says so
// (classNameWarnings).
func isMissingMark(s string) bool {
	switch strings.ToLower(s) {
	case "nan", "na", "n/a", "null", "none":
		return true
	}
	return false
}

// classNameWarnings returns the warnings about the class names of a
// labels file that are not all integers (file name): a name that other
// tools write for a missing value (NaN, NA, null, …), read here as a class
// of its own; integers beside text, each a class name too. Cost
// O(classes).
func classNameWarnings(name string, classes []string) []string {
	var out, ints, text []string
	for _, c := range classes {
		if isMissingMark(c) {
			out = append(out, fmt.Sprintf("%s: label %q is read as a class of its own; a node without a class is written -1, ? or an empty field", name, c))
		}
		if isIntText(c) {
			ints = append(ints, c)
		} else {
			text = append(text, c)
		}
	}
	if len(ints) > 0 && len(text) > 0 {
		out = append(out, fmt.Sprintf("%s: the labels mix integers (%s) and text (%s): each distinct value is a class name, %d classes in all", name, firstFew(ints), firstFew(text), len(classes)))
	}
	return out
}

// sharedLines returns " (the rows on lines 7 and 22 of d.csv)", the
// lines (of a data file holding n names, on lines nameLines) of the rows
// that the nodes rows are, for the error of a name they share; "" when
// nameLines is not one line a name. Cost O(len(rows)).
func sharedLines(rows, nameLines []int, n int, file string) string {
	if len(nameLines) != n || n == 0 {
		return ""
	}
	lines := make([]int, len(rows))
	for k, r := range rows {
		lines[k] = nameLines[r]
	}
	if file == "" {
		file = "the data file"
	}
	return fmt.Sprintf(" (the rows on lines %s of %s)", wording.Numbers(lines), file)
}

// firstFew joins up to three of s, with "…" when there are more.
func firstFew(s []string) string {
	if len(s) > 3 {
		return strings.Join(s[:3], ", ") + ", …"
	}
	return strings.Join(s, ", ")
}

// isUnknownLabel reports whether a label field marks a node without a
// class: −1, "?" or an empty field.
func isUnknownLabel(s string) bool {
	return s == "" || s == "?" || s == "-1"
}

// ReadNodeLabelsFileContext reads the labels file at path; see
// ReadNodeLabelsContext. A FIFO without a writer is waited for until ctx is
// cancelled.
func ReadNodeLabelsFileContext(ctx context.Context, path string, opt NodeLabelOptions) (*NodeLabels, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	return ReadNodeLabelsContext(ctx, f, path, opt)
}

// ReadNodeLabels is ReadNodeLabelsContext with a context that is never
// cancelled.
func ReadNodeLabels(r io.Reader, name string, opt NodeLabelOptions) (*NodeLabels, error) {
	return ReadNodeLabelsContext(context.Background(), r, name, opt)
}

// ReadNodeLabelsContext reads the labels of nodes from r; name is the file named in
// error messages. It is the one reader of reference labels, predicted labels
// and partial labels of the tether command, and accepts what
// WriteNodeLabels, WriteLabels, WriteLabelsCSV and constraint.WriteLabels
// write. Two layouts are accepted, told apart by the number of fields on
// the first data line (fields are separated by a comma, a tab, a semicolon
// or blanks, detected on that line; CSV quotes are honoured; lines end as
// for the other readers, at "\n", "\r\n" or a bare "\r", and a NUL byte or
// a line longer than DefaultMaxLineBytes is an error):
//
//   - one field: the i-th data line is the label of node i. Lines starting
//     with '#' or '%' are comments; blank lines inside the file, and
//     before its first label, are nodes without a label (before a header,
//     they are ignored); blank lines at its end are ignored.
//   - two fields, node and label: nodes not listed have no label, a node
//     listed twice is an error. A line whose label field is empty after
//     its delimiter ("1,", "1;", "1\t", or "1 " when blanks separate the
//     fields) is a node without a label; a line of one field and no
//     delimiter ("1") is an error. Trailing blanks are invisible, so they
//     count as a delimiter only once the first data line has shown two
//     columns: a first data line "0\t" or "0 " is one field, and makes
//     the file one-column. Nodes are 0-based integer indices (1-based
//     after a "# base=1" directive, as constraint files have), or names:
//     when a header names the node column "name" or "id", or when a node
//     field is not an integer. Names are matched exactly (after trimming
//     blanks) against opt.Names; a line naming a node by a name that
//     several nodes of opt.Names share is an error naming the file, the
//     line, the name and those nodes (it cannot say which one it labels). A "name" or "id" column of integers (as
//     pandas writes its index: "id,label") for data without names
//     (opt.N > 0, opt.Names nil) holds node indices, in the base of the
//     directive; with neither opt.N nor opt.Names its integers are names
//     that define the nodes in their line order (NodeLabels.Names).
//
// A label is an integer or any other text (a class name); −1, "?" and an
// empty field mean the node's class is unknown. When every known label is
// an integer ≥ 0 the integers are the classes; otherwise the texts are
// numbered as NodeLabels.ClassNames says. An integer below −1 is an error,
// and so is one too long to read (more than 18 characters, sign
// included): out of range, never a class name. When the labels are all
// integers and one is max(n, LabelFloor) or more for n nodes (community
// IDs such as 1000000 on a graph of 100 nodes), they are read as class
// names instead, with a note (NodeLabels.Renumbered and Note): labels
// number the classes, and the code that uses them keeps a slot for each
// value. The memory this takes is O(c) for c distinct labels, whatever
// their values.
//
// A first line is a header when it names its columns: a node column named
// node, index, vertex, item, name or id, a label column named label, class,
// cluster, truth, target, y, pred, prediction, community or club (any case),
// or a node or label field that is not an integer followed by a line where
// it is. A line is never a header when its node field is an integer or a
// name of opt.Names, or when its label recurs further down (it is then a
// class, such as a class named "y"). The first line of a one-column file
// is never a header when it is −1, "?" or empty: it is node 0's unknown
// label (dropping it would move every label up one node).
//
// A file that keys its nodes by 0-based index without a "# base="
// directive, lists at least two and at least half of the nodes and never
// node 0 is read, with a warning in NodeLabels.Warnings saying how to
// declare 1-based numbering: a 1-based file that never names the last node
// looks so, and would be read one node off.
//
// Every error is a *ParseError naming the file, and the line and value
// when there is one. Cost O(file size + n). ctx is checked while r is read
// and every few thousand lines; a cancelled read returns ctx's error,
// wrapped.
func ReadNodeLabelsContext(ctx context.Context, r io.Reader, name string, opt NodeLabelOptions) (*NodeLabels, error) {
	type rec struct {
		line        int
		node, label string
	}
	perr := func(line, col int, value string, format string, args ...any) error {
		return &ParseError{File: name, Line: line, Column: col, Value: value, Err: errorf(ErrInvalid, format, args...)}
	}
	lines, err := readAll(ctx, r, name, 0)
	if err != nil {
		return nil, err
	}
	var (
		recs      []rec
		width     int
		delim     byte // 0: blanks
		base      int
		baseSet   bool // by a directive
		lineNo    int
		blanks    []int // lines of pending blank lines (one-column layout)
		lead      []int // lines of the blank lines before the first data line
		seenData  bool
		first     string // the first data line, as read
		firstLine int
	)
	for _, text := range lines {
		if err := poll(ctx, name, lineNo); err != nil {
			return nil, err
		}
		lineNo++
		t := strings.TrimSpace(text)
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "%") {
			key, val, ok := strings.Cut(t[1:], "=")
			if ok && strings.TrimSpace(key) == "base" {
				val = strings.TrimSpace(val)
				if val != "0" && val != "1" {
					return nil, perr(lineNo, 0, val, "directive base=%s, want base=0 or base=1", val)
				}
				if seenData {
					return nil, perr(lineNo, 0, "", "the base directive must come before the first data line")
				}
				base, baseSet = int(val[0]-'0'), true
			}
			continue
		}
		if t == "" {
			switch width {
			case 0:
				// Nodes without a label if the file has one column
				// and its first data line is no header.
				lead = append(lead, lineNo)
			case 1:
				blanks = append(blanks, lineNo)
			}
			continue
		}
		if width == 0 {
			delim = fieldsplit.Detect([]string{t})
		}
		fields, err := fieldsplit.SplitLine(t, delim)
		if err != nil {
			return nil, perr(lineNo, 0, "", "%v", err)
		}
		if width == 0 {
			width = len(fields)
			if width > 2 {
				if pairsLine(fields) {
					// i,j,ml or i,j,kind: pairwise constraints (review 95).
					hint := "constraint.ReadFile reads them"
					if o, ok := opt.Spelling.Option("constraints", ""); ok {
						hint = "give the file as " + o
					}
					return nil, perr(lineNo, 0, "", "%d fields %q: want one label per line or node,label pairs; this is a pairwise constraints file, i,j,ml|cl lines (%s)", width, t, hint)
				}
				hint := "a labels file holds that column alone, one label per line"
				if opt.Spelling.CommandLine {
					hint = fmt.Sprintf("tether labels -input %s -o FILE writes that column as a labels file", name)
				}
				return nil, perr(lineNo, 0, "", "%d fields: want one label per line or node,label pairs (a feature table with a class column? %s)", width, hint)
			}
			first, firstLine = text, lineNo
		}
		if width == 2 && len(fields) == 1 && fieldsplit.TrailingEmpty(text, delim) {
			// "1\t", "1 ": the delimiter is there, the label empty
			// (unknown), as "1," has it. Trimming hid the delimiter.
			fields = append(fields, "")
		}
		if len(fields) != width {
			msg := fmt.Sprintf("%s, want %d as on the first data line", wording.Count(len(fields), "field", "fields"), width)
			switch {
			case width == 2 && len(fields) == 1:
				msg += fmt.Sprintf(" (line %d); for a node whose class is unknown, write -1 or ? as its label", firstLine)
			case fieldsplit.TrailingEmpty(first, 0):
				// The first data line was "0\t": one field, since a
				// trailing blank on it cannot tell two columns from one.
				msg += fmt.Sprintf(" (line %d, %q: a blank or tab at the end of the first data line does not make a second field): write that node's unknown label as -1 or ?, or begin the file with a header line such as node,label", firstLine, first)
			}
			return nil, perr(lineNo, 0, "", "%s", msg)
		}
		seenData = true
		for _, b := range blanks {
			recs = append(recs, rec{line: b})
		}
		blanks = blanks[:0]
		if width == 1 {
			recs = append(recs, rec{line: lineNo, label: fields[0]})
		} else {
			recs = append(recs, rec{line: lineNo, node: fields[0], label: fields[1]})
		}
	}
	// Header. A header word that recurs as a label, or a node field that is
	// a node name of the data, is data.
	byName := false
	keyWord := "" // the header's name or id that keyed the nodes by name
	if len(recs) > 0 {
		h := recs[0]
		recurs := func(label string) bool {
			for _, r := range recs[1:] {
				if r.label == label {
					return true
				}
			}
			return false
		}
		isName := func(s string) bool {
			for _, nm := range opt.Names {
				if strings.TrimSpace(nm) == s {
					return true
				}
			}
			return false
		}
		isHeader := false
		if width == 2 {
			if !isIntText(h.node) && !isName(h.node) {
				switch {
				case labelheader.IsNode(h.node):
					isHeader = true
					if byName = labelheader.IsName(h.node); byName {
						keyWord = h.node
					}
				case labelheader.IsLabel(h.label) && !recurs(h.label):
					isHeader = true
				case len(recs) > 1 && isIntText(recs[1].node):
					isHeader = true
				}
			}
		} else if !isUnknownLabel(h.label) {
			// -1, ? and an empty field are node 0's unknown label,
			// never a header: dropping one would move every label
			// up one node.
			isHeader = labelheader.IsLabel(h.label) && !recurs(h.label)
			if !isHeader && len(recs) > 1 && !isIntText(h.label) && isIntText(recs[1].label) && !isUnknownLabel(recs[1].label) && !recurs(h.label) {
				isHeader = true
			}
		}
		if isHeader {
			recs = recs[1:]
		} else if width == 1 && len(lead) > 0 {
			// Blank lines before the first label are the first nodes,
			// without a label, as blank lines further down are.
			head := make([]rec, len(lead), len(lead)+len(recs))
			for i, b := range lead {
				head[i] = rec{line: b}
			}
			recs = append(head, recs...)
		}
	}
	// Labels.
	allInt := true
	for _, r := range recs {
		if isUnknownLabel(r.label) {
			continue
		}
		v, ok := parseInt(r.label)
		big := !ok && isIntText(r.label) // an integer too long to read
		if ok && v < Unlabeled || big && strings.HasPrefix(r.label, "-") {
			return nil, perr(r.line, width, r.label, "label below -1 (-1, ? or an empty field mark a node without a class)")
		}
		if big {
			// An integer, not a class name: out of range.
			return nil, perr(r.line, width, r.label, "label out of range: integer labels of at most %d characters are read", maxIntChars)
		}
		if !ok {
			allInt = false
		}
	}
	out := &NodeLabels{}
	code := map[string]int{}
	if !allInt {
		seen := map[string]bool{}
		for _, r := range recs {
			if !isUnknownLabel(r.label) && !seen[r.label] {
				seen[r.label] = true
				out.ClassNames = append(out.ClassNames, r.label)
			}
		}
		sortLevels(out.ClassNames)
		for k, c := range out.ClassNames {
			code[c] = k
		}
		out.Warnings = append(out.Warnings, classNameWarnings(name, out.ClassNames)...)
	}
	// large, when the integer labels are read as class names
	// (largeLabelClasses), gives the class of each value.
	var large map[int]int
	labelOf := func(s string) int {
		if isUnknownLabel(s) {
			return Unlabeled
		}
		if allInt {
			v, _ := parseInt(s)
			if large != nil {
				return large[v]
			}
			return v
		}
		return code[s]
	}
	// renumberLarge reads the integer labels as class names when one of
	// them is max(n, LabelFloor) or more, with the note that says so.
	renumberLarge := func(n int) {
		if !allInt {
			return
		}
		var first int
		large, out.ClassNames, first = largeLabelClasses(n, len(recs), func(k int) string { return recs[k].label })
		if large != nil {
			out.Renumbered = true
			out.Note = largeLabelNote(name, n, out.ClassNames, recs[first].label, recs[first].line)
		}
	}
	if width <= 1 {
		if opt.N > 0 && len(recs) != opt.N {
			if t := len(blanks); t > 0 && len(recs) < opt.N {
				// Blank lines at the end are ignored, by design: a file
				// that marks its last nodes' missing labels with them
				// comes out short.
				return nil, &ParseError{File: name, Err: errorf(ErrInvalid, "%s for %s (%s at the end %s ignored: write -1 or ? for a node without a class)", wording.Count(len(recs), "label", "labels"), wording.Count(opt.N, "node", "nodes"), wording.Count(t, "blank line", "blank lines"), wording.Form(t, "is", "are"))}
			}
			return nil, &ParseError{File: name, Err: errorf(ErrInvalid, "%s for %s", wording.Count(len(recs), "label", "labels"), wording.Count(opt.N, "node", "nodes"))}
		}
		renumberLarge(len(recs))
		out.Labels = make([]int, len(recs))
		out.Lines = make([]int, len(recs))
		out.oneColumn = true
		for i, r := range recs {
			out.Labels[i] = labelOf(r.label)
			out.Lines[i] = r.line
		}
		return out, nil
	}
	intNodes := true
	for _, r := range recs {
		if !isIntText(r.node) {
			intNodes = false
			break
		}
	}
	// An "id" or "name" header over integers, for data without names (an
	// N but no opt.Names), as pandas writes its index: the integers can
	// only be node indices.
	idIndex := byName && intNodes && opt.Names == nil && opt.N > 0
	byName = byName && !idIndex || !intNodes
	out.ByName = byName
	index := map[string]int{}
	// shared[nm]: the nodes (0-based rows of the data) that share the name
	// nm of opt.Names, for the names more than one node has.
	var shared map[string][]int
	n := max(opt.N, 0)
	switch {
	case len(recs) == 0:
		// A header alone labels no node.
		if n == 0 {
			n = len(opt.Names)
		}
	case byName && opt.Names != nil:
		for i, nm := range opt.Names {
			nm = strings.TrimSpace(nm)
			j, dup := index[nm]
			if !dup {
				index[nm] = i
				continue
			}
			if shared == nil {
				shared = map[string][]int{}
			}
			if shared[nm] == nil {
				shared[nm] = []int{j}
			}
			shared[nm] = append(shared[nm], i)
		}
		if n <= 0 {
			n = len(opt.Names)
		}
	case byName && opt.N > 0:
		return nil, perr(recs[0].line, 1, recs[0].node, "the file names its nodes but the data has none (give the data an id column, or number the nodes 0…%d)", opt.N-1)
	case byName:
		for _, r := range recs {
			if _, dup := index[r.node]; !dup {
				index[r.node] = len(out.Names)
				out.Names = append(out.Names, r.node)
			}
		}
		n = len(out.Names)
	default:
		maxNodes := DefaultMaxNodes
		if opt.MaxNodes > 0 {
			maxNodes = opt.MaxNodes
		}
		if opt.N > 0 {
			maxNodes = opt.N
		}
		for _, r := range recs {
			v, ok := parseInt(strings.TrimSpace(r.node))
			i := v - base
			if !ok {
				// Written as an integer (isIntText) but too long to
				// read: out of range, below or above.
				i = maxNodes
				if strings.HasPrefix(strings.TrimSpace(r.node), "-") {
					i = -1
				}
			}
			if i < 0 || i >= maxNodes {
				if opt.N > 0 {
					var hints []string
					if idIndex {
						hints = append(hints, fmt.Sprintf("the data has no node names, so the %q column holds node indices", keyWord))
					}
					if i == opt.N && !baseSet {
						// One past the last 0-based node: most likely
						// a file that numbers its nodes from 1 without
						// saying so (constraint.Read's hint).
						hints = append(hints, `if the file numbers the nodes from 1, begin it with a line "# base=1"`)
					}
					if idIndex {
						hints = append(hints, "to match the nodes by name, give the data an id column")
					}
					msg := fmt.Sprintf("node outside %d…%d (base %d)", base, opt.N-1+base, base)
					if hints != nil {
						msg += ": " + strings.Join(hints, "; ")
					}
					return nil, perr(r.line, 1, r.node, "%s", msg)
				}
				return nil, perr(r.line, 1, r.node, "node index outside %d…%d (base %d)", base, maxNodes-1+base, base)
			}
			if opt.N <= 0 {
				n = max(n, i+1)
			}
		}
	}
	renumberLarge(n)
	out.Labels = make([]int, n)
	set := make([]int, n) // line that labelled the node, 0 if none
	for i := range out.Labels {
		out.Labels[i] = Unlabeled
	}
	for _, r := range recs {
		var i int
		if byName {
			var ok bool
			if i, ok = index[r.node]; !ok {
				if keyWord != "" && isIntText(r.node) {
					return nil, perr(r.line, 1, r.node, "unknown node name (the header %q keys the nodes by name; to give node indices, name the column \"node\")", keyWord)
				}
				return nil, perr(r.line, 1, r.node, "unknown node name")
			}
			if rows := shared[r.node]; rows != nil {
				// Matching the first would label it silently and leave
				// the others out (constraint.Read refuses such names
				// too).
				return nil, perr(r.line, 1, r.node, "node name shared by nodes %s of the data (0-based rows), so it cannot say which one it labels%s: make the data's IDs distinct, or key the file by node index", wording.Numbers(rows), sharedLines(rows, opt.NameLines, len(opt.Names), opt.NamesFile))
			}
		} else {
			v, _ := parseInt(strings.TrimSpace(r.node))
			i = v - base
		}
		if set[i] != 0 {
			return nil, perr(r.line, 1, r.node, "node already labelled on line %d", set[i])
		}
		set[i] = r.line
		out.Labels[i] = labelOf(r.label)
	}
	out.Lines = set
	if byName {
		if opt.Names != nil {
			out.names = opt.Names
		}
	} else {
		out.Base = base
	}
	if w := zeroBaseWarning(name, byName, baseSet, set); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	return out, nil
}

// largeLabelClasses returns, when one of the integer labels text(k), k <
// count (−1, ? and an empty field marking no class), is max(n,
// LabelFloor) or more for n nodes, the class of each distinct label value
// (the values in increasing numeric order are classes 0, 1, …), the
// values' decimal texts in that order, and the first such label's k; nil,
// nil, 0 when none is. The labels must be integers that parseInt reads.
// Cost O(count + c log c) time and O(c) memory for c distinct values,
// whatever the values (never a slot per value).
func largeLabelClasses(n, count int, text func(k int) string) (code map[int]int, names []string, first int) {
	bound := max(n, LabelFloor)
	first = -1
	for k := range count {
		if s := text(k); !isUnknownLabel(s) {
			if v, _ := parseInt(s); v >= bound {
				first = k
				break
			}
		}
	}
	if first < 0 {
		return nil, nil, 0
	}
	code = make(map[int]int)
	var values []int
	for k := range count {
		s := text(k)
		if isUnknownLabel(s) {
			continue
		}
		v, _ := parseInt(s)
		if _, ok := code[v]; !ok {
			code[v] = 0
			values = append(values, v)
		}
	}
	slices.Sort(values)
	names = make([]string, len(values))
	for c, v := range values {
		code[v] = c
		names[c] = strconv.Itoa(v)
	}
	return code, names, first
}

// largeLabelNote returns the note of a labels file (name) on n nodes
// whose integer labels were read as the classes classNames
// (largeLabelClasses), label on line being the first of max(n,
// LabelFloor) or more: "truth.csv: labels 7, 1000000, 5000000 read as
// classes 0, 1, 2 in increasing order (label 1000000 on line 3 is
// max(n, LabelFloor) = 65536 or more for 100 nodes: integer labels
// number the classes from 0)". Cost O(1): the lists are elided.
func largeLabelNote(name string, n int, classNames []string, label string, line int) string {
	c := len(classNames)
	var labels, classes string
	if c > 6 {
		labels = strings.Join(classNames[:4], ", ") + ", …, " + classNames[c-1]
		classes = fmt.Sprintf("0, 1, 2, 3, …, %d", c-1)
	} else {
		labels = strings.Join(classNames, ", ")
		nums := make([]string, c)
		for k := range nums {
			nums[k] = strconv.Itoa(k)
		}
		classes = strings.Join(nums, ", ")
	}
	return fmt.Sprintf("%s: labels %s read as classes %s in increasing order (label %s on line %d is max(n, LabelFloor) = %d or more for %s: integer labels number the classes from 0)", name, labels, classes, label, line, max(n, LabelFloor), wording.Count(n, "node", "nodes"))
}

// zeroBaseWarning returns the warning of a node-indexed file (byName
// false) whose base no directive set and that never names node 0 though it
// lists at least two nodes and at least half of the n = len(set) nodes
// (set[i] ≠ 0: node i is listed): the look of a 1-based file that never
// names the last node, which the "node outside" hint cannot catch. It is
// a warning, not an error, since a 0-based file of partial labels may
// leave node 0 out: "# base=0" says so and silences it. A 1-based file
// that does name the last node is refused by the range check, and one of
// few nodes (sparse partial labels) cannot be told from a 0-based one by
// the nodes it lists, so neither gets it. Constraint files
// (constraint.Read) have no such rule: a sparse pair file (n/2 pairs
// drawn at random miss about a third of the nodes) leaves node 0 out as
// often as a 1-based file leaves out its last node, so the nodes listed
// cannot tell them apart. "" when the rule does not fire. Cost O(n).
func zeroBaseWarning(name string, byName, baseSet bool, set []int) string {
	n := len(set)
	if byName || baseSet || n < 2 || set[0] != 0 {
		return ""
	}
	listed := 0
	for _, line := range set {
		if line != 0 {
			listed++
		}
	}
	if listed < 2 || 2*listed < n {
		return ""
	}
	return fmt.Sprintf(`%s: no line names node 0, though %d of the %d nodes are listed: node indices are 0-based, so if the file numbers the nodes from 1, its labels are read one node off; begin it with a line "# base=1" (or "# base=0" to say it is 0-based and silence this warning)`, name, listed, n)
}

// isIntText reports whether s, blanks trimmed, is written as a decimal
// integer (intLike), however long: a node or label too long for parseInt
// is an integer out of range, never a name.
func isIntText(s string) bool {
	return intLike(strings.TrimSpace(s))
}

// KeyNames returns names when they can key the nodes of a labels file
// (WriteNodeLabels): not nil, and no name empty or repeated after trimming
// blanks, as ReadNodeLabels matches trimmed names. Otherwise it returns
// nil, and the nodes are keyed by index. tether cluster -o, tether labels
// and the labels export of tether serve write with it. Cost O(len(names)).
func KeyNames(names []string) []string {
	if i, _ := keyNamesClash(names); i >= 0 {
		return nil
	}
	return names
}

// keyNamesClash returns why KeyNames refuses names: the index i of the
// first name that is empty or repeats an earlier one after trimming
// blanks, and the index j of that earlier one (-1 for an empty name);
// i = -1 when every name can key the nodes. Cost O(len(names)).
func keyNamesClash(names []string) (i, j int) {
	seen := make(map[string]int, len(names))
	for i, nm := range names {
		nm = strings.TrimSpace(nm)
		if nm == "" {
			return i, -1
		}
		if j, dup := seen[nm]; dup {
			return i, j
		}
		seen[nm] = i
	}
	return -1, -1
}

// ClassNamesReadBack returns "" when the classes of a labels file written
// with classNames (WriteNodeLabels) read back as the same classes
// (ReadNodeLabels), or else why not: a name that holds a line break or a
// NUL byte, a name that marks a node without a
// class there (-1, ? or an empty field, blanks around it trimmed), two
// names the same but for the blanks around them, or, when every name is
// an integer (which the reader then takes as the class itself, or, when
// one is max(n, LabelFloor) or more, numbers in increasing order: the
// same names, other class numbers), two of the same value (1 and 01) or
// one the reader refuses (below -1, or too long). Class names that are not all integers read back as text, each a
// class of its own. A caller whose names do not read back can write the
// classes' numbers instead (classNames nil), as tether labels does.
// Cost O(len(classNames)).
func ClassNamesReadBack(classNames []string) string {
	byText := make(map[string]string, len(classNames))
	allInt := true
	for _, c := range classNames {
		if strings.ContainsAny(c, "\r\n\x00") {
			// Before trimming: "A\n" is written as a field over two
			// lines, which no reader reads back (review 113).
			return fmt.Sprintf("class %q holds a line break or a NUL byte, which no field holds", c)
		}
		t := strings.TrimSpace(c)
		if isUnknownLabel(t) {
			return fmt.Sprintf("class %q reads as no class (-1, ? and an empty field mark a node without a class)", c)
		}
		if d, dup := byText[t]; dup {
			return fmt.Sprintf("classes %q and %q read as one (the blanks around a label are trimmed)", d, c)
		}
		byText[t] = c
		if _, ok := parseInt(t); !ok {
			if isIntText(t) {
				return fmt.Sprintf("class %q reads as an integer label too long to read", c)
			}
			allInt = false
		}
	}
	if !allInt {
		return ""
	}
	byValue := make(map[int]string, len(classNames))
	for _, c := range classNames {
		v, _ := parseInt(strings.TrimSpace(c))
		if v < Unlabeled {
			return fmt.Sprintf("class %q reads as a label below -1, which labels files do not hold", c)
		}
		if d, dup := byValue[v]; dup {
			return fmt.Sprintf("classes %q and %q read as one integer label, %d", d, c, v)
		}
		byValue[v] = c
	}
	return ""
}

// WriteNodeLabels writes labels in the two-column layout of ReadNodeLabels:
// a header "node,<column>" and one node,label line per node, the node
// being its 0-based index, or, when names is not nil, a header
// "name,<column>" and the node's name. A field is quoted as CSV needs,
// and also when it begins with # or %, which would otherwise make its
// line a comment. The label is the integer, or classNames[label] when
// classNames is not nil (ClassNamesReadBack says whether they read back
// as the same classes); unlabeled nodes get an empty label field. column
// "" means "label". The error is the writer's, or a length mismatch.
// Cost O(n) and the length of the names.
func WriteNodeLabels(w io.Writer, labels []int, names, classNames []string, column string) error {
	if column == "" {
		column = "label"
	}
	if names != nil && len(names) != len(labels) {
		return fmt.Errorf("dataset: %d names for %d labels", len(names), len(labels))
	}
	bw := bufio.NewWriter(w)
	key := "node"
	if names != nil {
		key = "name"
	}
	line := func(a, b string) error {
		bw.WriteString(fieldsplit.Quote(a))
		bw.WriteByte(',')
		bw.WriteString(fieldsplit.Quote(b))
		return bw.WriteByte('\n')
	}
	line(key, column)
	for i, l := range labels {
		k := strconv.Itoa(i)
		if names != nil {
			k = names[i]
		}
		v := ""
		switch {
		case l == Unlabeled:
		case classNames != nil && l >= 0 && l < len(classNames):
			v = classNames[l]
		default:
			v = strconv.Itoa(l)
		}
		if err := line(k, v); err != nil {
			return fmt.Errorf("dataset: writing labels: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("dataset: writing labels: %w", err)
	}
	return nil
}
