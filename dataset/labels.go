package dataset

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/tether-sc/tether/internal/fieldsplit"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/wording"
)

// Unlabeled is the label of a node without a class in label files and in
// the result of ReadLabels. It equals constraint.Unlabeled.
const Unlabeled = -1

// LabelFloor is the least bound on the integer labels the labels readers
// (ReadNodeLabels, ReadLabels) keep as they are: the labels of a file on
// n nodes are kept when they are below max(n, LabelFloor), since the
// code that uses labels allocates a slot per label value (per-class
// counts, contingency tables), which a stray label such as 1e9 would make
// gigabytes. ReadLabels refuses a larger one; ReadNodeLabels reads the
// file's integer labels as class names then, in increasing numeric order
// (NodeLabels.Renumbered). It equals constraint.LabelFloor.
const LabelFloor = 1 << 16

// checkLabelBound returns the error of the first record, in file order,
// whose integer label (label(k) for k < count, Unlabeled when unknown) is
// max(n, LabelFloor) or more for n nodes, naming the file, its line
// (line(k)), the column col and the label's text (text(k)); nil when none
// is. Cost O(count).
func checkLabelBound(file string, n, count, col int, label func(k int) int, line func(k int) int, text func(k int) string) error {
	bound := max(n, LabelFloor)
	for k := range count {
		if label(k) >= bound {
			return &ParseError{File: file, Line: line(k), Column: col, Value: text(k), Err: errorf(ErrInvalid, "label too large: at most %d (max(n, LabelFloor) − 1 for %s): integer labels number the classes from 0, and a slot is kept for each value", bound-1, wording.Count(n, "node", "nodes"))}
		}
	}
	return nil
}

// DefaultMaxNodes bounds node indices in graph and label files when the
// options leave the limit at 0: 2²⁴ nodes.
const DefaultMaxNodes = 1 << 24

// LabelOptions controls ReadLabels. The zero value accepts integer and
// string labels.
type LabelOptions struct {
	// Strict rejects labels that are not integers ≥ −1 (nor "?" or an
	// empty field, which mark a node without a class) instead of mapping
	// them to classes.
	Strict bool
	// N, if positive, is the number of nodes: one-column files must have N
	// lines and pair files must not name a node ≥ N. Nodes that pair files
	// leave out are Unlabeled.
	N int
	// MaxNodes bounds node indices in pair files. If 0, DefaultMaxNodes is
	// used.
	MaxNodes int
}

// LabelData is the content of a label file.
type LabelData struct {
	// Labels[i] is the class of node i, or Unlabeled.
	Labels []int
	// ClassNames is nil when the file holds integers. When it holds other
	// strings, they are numbered in sorted order (numerically when they are
	// numbers) and ClassNames[c] is the text of class c.
	ClassNames []string
}

// ReadLabelsFile reads integer labels from the named file with the default
// options (see ReadLabels); string labels are mapped to classes 0…k−1 in
// sorted order. It is ReadLabelsFileContext with a context that is never
// cancelled.
func ReadLabelsFile(path string) ([]int, error) {
	return ReadLabelsFileContext(context.Background(), path)
}

// ReadLabelsFileContext is ReadLabelsFile checking ctx while the file is
// opened and read (see ReadLabelsFileOptionsContext).
func ReadLabelsFileContext(ctx context.Context, path string) ([]int, error) {
	d, err := ReadLabelsFileOptionsContext(ctx, path, LabelOptions{})
	if err != nil {
		return nil, err
	}
	return d.Labels, nil
}

// ReadLabelsFileOptions reads a label file with the given options. It is
// ReadLabelsFileOptionsContext with a context that is never cancelled.
func ReadLabelsFileOptions(path string, opt LabelOptions) (*LabelData, error) {
	return ReadLabelsFileOptionsContext(context.Background(), path, opt)
}

// ReadLabelsFileOptionsContext reads a label file with the given options;
// see ReadLabelsContext. A FIFO without a writer is waited for until ctx is
// cancelled.
func ReadLabelsFileOptionsContext(ctx context.Context, path string, opt LabelOptions) (*LabelData, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	return ReadLabelsContext(ctx, f, path, opt)
}

// ReadLabels is ReadLabelsContext with a context that is never cancelled.
func ReadLabels(r io.Reader, name string, opt LabelOptions) (*LabelData, error) {
	return ReadLabelsContext(context.Background(), r, name, opt)
}

// ReadLabelsContext reads labels from r; name is used in error messages. Two
// layouts are accepted, told apart by the number of fields on the first data
// line (fields are separated by a comma, a tab, a semicolon or blanks):
//
//   - one field: line i (0-based, blank lines and lines starting with '#'
//     or '%' skipped) is the label of node i;
//   - two fields: "node label" pairs with 0-based node indices in any order;
//     nodes not listed are Unlabeled, a node listed twice is an error.
//
// Labels are integers ≥ −1, below max(n, LabelFloor) for n nodes, or,
// unless opt.Strict, any other strings, mapped to 0…k−1 in sorted order
// (see LabelData); −1, "?" and an empty
// field (a pair "3,") mark a node without a class (Unlabeled), as
// ReadNodeLabels and constraint.ReadLabels read them. A first line whose
// node field (pairs) or label (one column) is not an integer, nor a mark
// of a node without a class, while the following lines hold integers is a
// header and is skipped.
//
// ReadLabels is the low-level reader of the catalog's label files;
// ReadNodeLabels, the reader of the tether command's label files, reads
// these layouts too and more: nodes keyed by name, "# base=" directives,
// a warning for a file that looks 1-based, blank lines inside a
// one-column file as nodes without a class, where ReadLabels skips them,
// and integer labels of max(n, LabelFloor) or more read as class names,
// which ReadLabels refuses.
//
// Cost: O(file size + n). ctx is checked while r is read and every few
// thousand lines; a cancelled read returns ctx's error, wrapped.
func ReadLabelsContext(ctx context.Context, r io.Reader, name string, opt LabelOptions) (*LabelData, error) {
	lines, err := readAll(ctx, r, name, 0)
	if err != nil {
		return nil, err
	}
	type rec struct {
		line  int
		node  string
		label string
	}
	var recs []rec
	width := 0
	var sp splitter
	for i, l := range lines {
		if err := poll(ctx, name, i); err != nil {
			return nil, err
		}
		if isBlank(l) {
			continue
		}
		if t := trimLeftBlank(l); t[0] == '#' || t[0] == '%' {
			continue
		}
		if width == 0 {
			sp = splitter{delim: fieldsplit.Detect([]string{l}), quotes: `"`}
		}
		f, pos, err := sp.split(l, nil)
		if err != nil {
			return nil, &ParseError{File: name, Line: i + 1, Err: fmt.Errorf("character %d: %w", pos, err)}
		}
		if width == 0 {
			width = len(f)
			if width > 2 {
				return nil, &ParseError{File: name, Line: i + 1, Err: errorf(ErrSyntax, "%s: want one label or a node,label pair", wording.Count(width, "field", "fields"))}
			}
		}
		if len(f) != width {
			return nil, &ParseError{File: name, Line: i + 1, Err: errorf(ErrSyntax, "%s, want %d as on the first line", wording.Count(len(f), "field", "fields"), width)}
		}
		if width == 1 {
			recs = append(recs, rec{line: i + 1, label: f[0]})
		} else {
			recs = append(recs, rec{line: i + 1, node: f[0], label: f[1]})
		}
	}
	// Header?
	if len(recs) >= 2 {
		key := func(r rec) string {
			if width == 2 {
				return r.node
			}
			return r.label
		}
		if !intLike(key(recs[0])) && !isUnknownLabel(key(recs[0])) {
			if intLike(key(recs[1])) {
				recs = recs[1:]
			}
		}
	}
	maxNodes := opt.MaxNodes
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	if opt.N > 0 {
		maxNodes = opt.N
	}
	// Class strings → labels.
	allInt := true
	for _, r := range recs {
		if isUnknownLabel(r.label) {
			continue
		}
		if v, ok := parseInt(r.label); !ok || v < Unlabeled {
			allInt = false
			if opt.Strict {
				return nil, &ParseError{File: name, Line: r.line, Column: width, Value: r.label, Err: errorf(ErrSyntax, "label is not an integer ≥ -1")}
			}
		}
	}
	var classes []string
	code := map[string]int{}
	if !allInt {
		seen := map[string]bool{}
		for _, r := range recs {
			if !isUnknownLabel(r.label) && !seen[r.label] {
				seen[r.label] = true
				classes = append(classes, r.label)
			}
		}
		sortLevels(classes)
		for k, c := range classes {
			code[c] = k
		}
	}
	labelOf := func(s string) int {
		if isUnknownLabel(s) {
			return Unlabeled
		}
		if allInt {
			v, _ := parseInt(s)
			return v
		}
		return code[s]
	}
	out := &LabelData{ClassNames: classes}
	if width <= 1 {
		if opt.N > 0 && len(recs) != opt.N {
			return nil, &ParseError{File: name, Err: errorf(ErrInvalid, "%s, want %d", wording.Count(len(recs), "label", "labels"), opt.N)}
		}
		out.Labels = make([]int, len(recs))
		for i, r := range recs {
			out.Labels[i] = labelOf(r.label)
		}
		if allInt {
			if err := checkLabelBound(name, len(recs), len(recs), 1, func(k int) int { return out.Labels[k] }, func(k int) int { return recs[k].line }, func(k int) string { return recs[k].label }); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	n := 0
	for _, r := range recs {
		v, ok := parseInt(r.node)
		if !ok && intLike(r.node) && r.node[0] != '-' {
			// An integer too long to read is out of range, not malformed.
			v, ok = maxNodes, true
		}
		if !ok || v < 0 {
			return nil, &ParseError{File: name, Line: r.line, Column: 1, Value: r.node, Err: errorf(ErrSyntax, "node is not a non-negative integer")}
		}
		if v >= maxNodes {
			return nil, &ParseError{File: name, Line: r.line, Column: 1, Value: r.node, Err: errorf(ErrTooLarge, "node index ≥ %d", maxNodes)}
		}
		n = max(n, v+1)
	}
	if opt.N > 0 {
		n = opt.N
	}
	if allInt {
		if err := checkLabelBound(name, n, len(recs), 2, func(k int) int { return labelOf(recs[k].label) }, func(k int) int { return recs[k].line }, func(k int) string { return recs[k].label }); err != nil {
			return nil, err
		}
	}
	out.Labels = make([]int, n)
	set := make([]int, n) // line that set the node, 0 if none
	for i := range out.Labels {
		out.Labels[i] = Unlabeled
	}
	for _, r := range recs {
		v, _ := parseInt(r.node)
		if set[v] != 0 {
			return nil, &ParseError{File: name, Line: r.line, Column: 1, Value: r.node, Err: errorf(ErrInvalid, "node already labeled on line %d", set[v])}
		}
		set[v] = r.line
		out.Labels[v] = labelOf(r.label)
	}
	return out, nil
}

func trimLeftBlank(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	return s
}

// WriteLabels writes one label per line.
func WriteLabels(w io.Writer, labels []int) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	for _, l := range labels {
		buf = strconv.AppendInt(buf[:0], int64(l), 10)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("dataset: writing labels: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("dataset: writing labels: %w", err)
	}
	return nil
}

// WriteLabelsCSV writes a "node,label" header and one 0-based node,label
// pair per line.
func WriteLabelsCSV(w io.Writer, labels []int) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("node,label\n")
	var buf []byte
	for i, l := range labels {
		buf = strconv.AppendInt(buf[:0], int64(i), 10)
		buf = append(buf, ',')
		buf = strconv.AppendInt(buf, int64(l), 10)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("dataset: writing labels: %w", err)
	}
	return nil
}
