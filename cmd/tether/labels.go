package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/internal/fieldsplit"
)

// labelFilesHelp describes the labels files every command reads (cluster
// -truth and -partial-labels, eval -truth and -pred, constraints gen
// -truth) and the ones cluster -o and labels write.
const labelFilesHelp = `Labels files (cluster -truth, -partial-labels and -o; eval -truth and
-pred; constraints gen -truth; labels -o) are read one way everywhere:
  - one label per line, line i for node i (0-based); or
  - two columns node,label (comma, tab, semicolon or blanks): the node is
    its 0-based index (1-based after a "# base=1" line), or its name when
    the header says "name" or "id" or a node is not a number; names are
    those of the input (-id column, graph node names); a name that several
    nodes of the input share is an error (key such a file by index). An
    "id" column of integers for data without names holds indices (pandas'
    "id,label"), but for eval, which has no data (see its help).
A label is an integer or a class name; -1, ? or an empty field mean the
node's class is unknown: such nodes are left out of every figure. In a
two-column file the empty label follows its delimiter: "1,", "1;",
"1<TAB>", or "1 " when blanks separate the fields; a line "1" alone is an
error. Trailing blanks are invisible, so they count only once the first
data line has shown two columns: write an unknown label on that line as
-1 or ?. A file by index without a "# base=" line that never names node 0
though it lists half of the nodes or more is read 0-based with a warning:
it looks like a 1-based file (say so with "# base=1"; "# base=0" silences
the warning). Partial labels whose integers are not 0…k−1 (such as 1, 2,
3) are read as classes in increasing order, with a note, and so are the
integer labels of any labels file of which one is n or more and 65536 or
more (community IDs such as 1000000 on a graph of 100 nodes). A first line such
as "label", "node,label" or "name,cluster" is a header; a first line -1, ?
or blank is node 0's unknown label, never a header. cluster -o writes
"node,cluster" lines (by index), or "name,cluster" when the input
names its nodes.`

// readNodeLabels reads a labels file for n nodes (n ≤ 0: inferred) with the
// given node names (nil when the nodes have none); see labelFilesHelp. The
// errors name the file, and the line and value when there is one; a
// cancelled ctx stops the open and the read.
func readNodeLabels(ctx context.Context, path string, n int, names []string) (*dataset.NodeLabels, error) {
	return dataset.ReadNodeLabelsFileContext(ctx, path, dataset.NodeLabelOptions{N: n, Names: names, Spelling: cliSpelling})
}

const labelsUsage = `labels (-input FILE [-label COL] | -graph-file FILE -gml-label ATTR) [-o FILE]

Writes the reference labels held in a data file: the class column of a
CSV/TSV/ARFF feature file (-label; without it, found as tether cluster
finds it: a column named label, else class, target or y; ARFF: the last
attribute) or a node attribute of a GML graph (-gml-label). The output
is "node,label" lines (0-based index), or "name,label" lines when the input
names its nodes (-id column, GML labels), with the class text as in the
file, unless a labels file would read it as other classes (-1 marks a
node without a class there, and 1 and 01 are one integer): the classes'
numbers are then written instead, with a warning giving them. IDs or GML labels that repeat or are empty cannot name the nodes:
the output is then by index, with a warning naming the first such one and
its line. The graph reader's other warnings (repeated edges merged, a
directed graph read as undirected) are printed too, as cluster prints them. A row whose class is missing (? or empty, or one of -missing-markers) is an error, or is left out
with -missing drop, as cluster leaves it out; the rows kept are then
written by their 0-based row numbers in the file ("name,label" lines), as
cluster -o writes them, unless an -id column names them; a GML
node without the attribute is an error. Every command that reads labels
reads the output (cluster -truth, eval -truth, constraints gen -truth).
Reading a large file reports its progress on standard error when it
takes more than a second, as cluster does (not with -quiet).

` + labelFilesHelp

// runLabels implements "tether labels".
func runLabels(ctx context.Context, m *Main, args []string) (err error) {
	fs := m.newFlagSet("labels", labelsUsage)
	var in inputOptions
	in.table.Spelling, in.gopt.Spelling = cliSpelling, cliSpelling
	fs.StringVar(&in.input, "input", "", "feature `file` (CSV, TSV, whitespace-separated or ARFF)")
	fs.StringVar(&in.graphFile, "graph-file", "", "graph `file` (GML with -gml-label)")
	fs.StringVar(&in.labelCol, "label", "", "label column of the feature file: first, last, a 1-based number or a header name (default: as tether cluster, a column named label, else class, target or y (not beside an x column), any case; ARFF: last)")
	fs.StringVar(&in.table.IDColumn, "id", "", "id `column` naming the nodes")
	fs.Var(delimFlag{&in.table.Delimiter}, "delim", "field delimiter: , (comma), tab, ; (semicolon), whitespace, or another single character (default: detected)")
	fs.Var(textVar(&in.table.Header), "header", "header line: auto (the default), yes or no")
	fs.Var(textVar(&in.table.Missing), "missing", "missing feature values (? or empty, or a value of -missing-markers): reject (the default), impute or drop (as for cluster)")
	bindCategorical(fs, &in.table)
	bindMissingMarkers(fs, &in.table)
	fs.StringVar(&in.gopt.LabelAttr, "gml-label", "", "GML node `attribute` holding the labels (e.g. club)")
	out := fs.String("o", "-", "output `file` (- for standard output)")
	quiet := fs.Bool("quiet", false, "no progress messages and no notes on standard error (warnings are printed), as tether cluster -quiet")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("labels", "unexpected argument %q%s", fs.Arg(0), fileArgHint(fs.Args(), "-input "+fs.Arg(0)+" for a feature table or -graph-file "+fs.Arg(0)+" for a graph"))
	}
	ins := []pathFlag{{"-input", in.input}, {"-graph-file", in.graphFile}}
	defer func() { err = nameFileFlag(err, ins) }()
	if err := checkOutputs("labels", ins, []pathFlag{{"-o", *out}}); err != nil {
		return err
	}
	var labels []int
	var names, classes []string
	switch {
	case (in.input == "") == (in.graphFile == ""):
		return usagef("labels", "give one of -input and -graph-file (%s)", usageHint(fs))
	}
	// The feature table's flags with -graph-file, -gml-label with -input:
	// refused, as tether cluster does.
	in.flags = fs
	if err := in.checkApplies(); err != nil {
		return err
	}
	// The reading reports its progress as tether cluster's does
	// (readTableReported, readGraphReported): a large table took seconds
	// without a word.
	rec := m.recorder(ctx, *quiet)
	switch {
	case in.input != "":
		// The rules of tether cluster: a class-named column holds the
		// labels, a column of names the rows' names.
		opt := in.table
		opt.LabelColumn = in.labelCol
		d, err := readTableReported(ctx, in.input, opt, rec)
		if errors.Is(err, dataset.ErrNoFeatures) && len(opt.Drop) > 0 {
			// -drop took the last feature: the table is no labels file
			// (review 115: the advice below said it was).
			return usagef("labels", "%v: -drop %s left no column besides the label and the ids, and tether labels reads a table with at least one: drop fewer columns (the features are not written, so dropping them changes nothing)", err, strings.Join(opt.Drop, ","))
		}
		if errors.Is(err, dataset.ErrNoFeatures) {
			// The table is its label column (and ids) alone: a labels
			// file as it is (review 108: "no feature columns left").
			return fmt.Errorf("%w: a table of its labels alone (with ids or not) is a labels file already: give it as it is to eval -truth, cluster -truth or constraints gen -truth", err)
		}
		if err != nil {
			return optionUsage("labels", err)
		}
		if d.N() == 1 && d.Rows == nil && opt.Header == dataset.HeaderAuto && !namedColumns(d.Features) && !firstLineHasNumber(in.input, opt.Comment) {
			// A file of one line of words: a header alone is such a
			// file, whose "labels" were the header's words (-label 3
			// wrote "0,label"), or no label column at all, as cluster
			// explains. A line with a number (1.0,2.0,3) is no header,
			// and one row left by -missing drop is not the file's only
			// line.
			return fmt.Errorf("%s: one line of words, read as one data row (-header auto): if that line is a header, the file holds no data; give -header no to read it as a row", in.input)
		}
		if d.Truth == nil && d.DroppedClass != "" {
			return usagef("labels", "%s: column %q holds the labels, and -drop leaves it out: do not drop it", in.input, d.DroppedClass)
		}
		if d.Truth == nil {
			return usagef("labels", "%s: no label column; say which with -label (first, last, a number or a header name)", in.input)
		}
		printMessages(m.Stderr, "labels", d.Warnings, d.Notes, *quiet)
		labels, names, classes = d.Truth, d.Names, d.Classes
	default:
		if in.gopt.LabelAttr == "" {
			return usagef("labels", "-graph-file needs -gml-label, the node attribute holding the labels")
		}
		d, err := readGraphReported(ctx, in.graphFile, in.gopt, rec)
		if err != nil {
			return optionUsage("labels", err)
		}
		if d.Truth == nil {
			return usagef("labels", "%s: no node attribute %q (only GML files hold node attributes)", in.graphFile, in.gopt.LabelAttr)
		}
		// The reader's warnings (edges merged, labels that cannot name
		// the nodes, ...), as tether cluster prints them.
		printMessages(m.Stderr, "labels", d.Warnings, nil, *quiet)
		labels, names, classes = d.Truth, d.Names, d.Classes
	}
	if why := dataset.ClassNamesReadBack(classes); why != "" {
		// Written as they are, the classes would read back as others
		// (±1 labels: -1 marks a node without a class in a labels
		// file), and every command reading the file would be wrong
		// without a word: their numbers are written instead.
		fmt.Fprintf(m.Stderr, "tether labels: warning: the classes are written as their numbers (%s), not their names: %s in a labels file\n", classNumbers(classes), why)
		classes = nil
	}
	return m.writeReported(ctx, *out, !*quiet, func(w io.Writer) error {
		return dataset.WriteNodeLabels(w, labels, dataset.KeyNames(names), classes, "label")
	})
}

// classNumbers returns the numbers tether labels writes for classes
// instead of their names, "-1 → 0, 1 → 1", the first six and "…" when
// there are more. Cost O(len(classes)).
func classNumbers(classes []string) string {
	var b strings.Builder
	for i, c := range classes {
		if i == 6 {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q → %d", c, i)
	}
	return b.String()
}

// firstLineHasNumber reports whether the first data line of the table
// file at path (not blank, nor a comment line beginning with comment) has
// a field that is a number, which makes it no header. It reads that line
// again from a regular file only; for anything else (standard input, a
// FIFO, a file that cannot be read) it reports true, so that labels does
// not refuse what it cannot check. Cost: the file's lines up to the first
// data line.
func firstLineHasNumber(path, comment string) bool {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if line == "" || comment != "" && strings.HasPrefix(line, comment) {
			continue
		}
		fields, err := fieldsplit.SplitLine(line, fieldsplit.Detect([]string{line}))
		if err != nil {
			return true
		}
		for _, fl := range fields {
			if _, err := strconv.ParseFloat(fl, 64); err == nil {
				return true
			}
		}
		return false
	}
	return true
}
