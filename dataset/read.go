package dataset

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/tether-sc/tether/internal/fieldsplit"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/textline"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// ReadFile reads a feature table from the named file. The format is ARFF
// for a ".arff" extension or content starting with @relation, delimited text
// otherwise (see Options.Format). Errors name the file, line, column and
// value at fault.
//
// Cost: O(file size) time; the file is held in memory while it is parsed.
// ctx is checked every few thousand lines; a cancelled read returns ctx's
// error, wrapped.
func ReadFile(ctx context.Context, path string, opt Options) (*Table, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	if opt.Format == FormatAuto && strings.EqualFold(filepath.Ext(path), ".arff") {
		opt.Format = FormatARFF
	}
	return Read(ctx, f, path, opt)
}

// Read reads a feature table from r; name is used in error messages. See
// ReadFile.
//
// Without Options.LabelColumn, a delimited table has no reference labels
// and every column is a feature, one named label, class, target or y
// (ClassNamedColumns) too: the classes would then be clustered on as
// features. Such a column is kept a feature, with a warning (Table.Warnings)
// naming Options.LabelColumn and Options.Drop; input.ReadTableFile (what
// tether cluster reads) takes that column as the reference labels instead.
// The columns Options.Drop names count as columns of the file there: a y
// column beside a dropped x is x's partner still, not a class column.
//
// A delimited file without a header has no names for that rule, and needs
// Options.LabelColumn ("last" for UCI's iris.csv): without it the class
// column is read as features, which hands the classes to the clustering.
// When the last column of such a file, else its first, else its second
// after a first column of integer keys, the ID column or a dropped one,
// is text with few categories (at least 2 and at most √n over n rows, as
// classes have; not a Categorical column), and at least one other column
// is a feature, Read warns instead of noting its encoding, naming
// LabelColumn and Drop. A text column elsewhere, or with more
// categories, is taken for a feature with the note every categorical
// column gets; a numeric column with few values gets no warning here
// (tether cluster warns on one with as many values as -k).
func Read(ctx context.Context, r io.Reader, name string, opt Options) (*Table, error) {
	maxLine := opt.MaxLineBytes
	if maxLine <= 0 {
		maxLine = DefaultMaxTableLineBytes
	}
	lines, err := readAll(ctx, r, name, maxLine)
	if err != nil {
		return nil, err
	}
	if opt.MaxLineBytes <= 0 {
		if err := oneLongLine(lines, name); err != nil {
			return nil, err
		}
	}
	format, arff := opt.Format, "an ARFF file"
	if format == FormatAuto {
		format = FormatDelimited
		for _, l := range lines {
			t := strings.TrimSpace(l)
			if t == "" || strings.HasPrefix(t, "%") {
				continue
			}
			if len(t) >= 9 && strings.EqualFold(t[:9], "@relation") {
				format, arff = FormatARFF, "an ARFF file (it begins with @relation)"
			}
			break
		}
	}
	m := progress.NewMeter(opt.Recorder, "parsing "+name, costTableLines+costTableColumns)
	tick := m.Step("splitting the lines into fields", costTableLines)
	var raw *rawTable
	if format == FormatARFF {
		// The options of delimited text only: refused, not ignored.
		switch {
		case opt.Delimiter != "":
			return nil, &ParseError{File: name, Err: errorf(ErrOption, "Options.Delimiter %q does not apply to %s, whose @data fields are separated by commas%s", opt.Delimiter, arff, paren(opt.Spelling.Remedy("delim")))}
		case opt.Header != HeaderAuto:
			return nil, &ParseError{File: name, Err: errorf(ErrOption, "Options.Header %v does not apply to %s, whose columns are named by its @attribute lines%s", opt.Header, arff, paren(opt.Spelling.Remedy("header")))}
		case opt.Comment != "" && opt.Comment != "%":
			return nil, &ParseError{File: name, Err: errorf(ErrInvalid, "Options.Comment %q does not apply to %s, whose comments begin with %%", opt.Comment, arff)}
		}
		raw, err = parseARFF(ctx, lines, name, &opt, tick)
	} else {
		raw, err = parseDelimited(ctx, lines, name, &opt, tick)
	}
	if err != nil {
		return nil, err
	}
	given := opt.LabelColumn
	t, err := raw.build(ctx, &opt, m.Step("reading the columns", costTableColumns))
	if err != nil {
		return nil, err
	}
	m.Done()
	if given == "" && t.Labels == nil {
		t.Warnings = append(t.Warnings, classFeatureWarnings(name, t.Features, t.DroppedColumns)...)
	}
	return t, nil
}

// oneLongLine returns the error of a table whose only line that is not
// blank is longer than DefaultMaxLineBytes, nil otherwise: a file without
// line endings (or with endings the readers do not know), whose one line
// DefaultMaxTableLineBytes would admit and the field split would cost
// many times its size, while a table of one line has no rows to cluster.
// Rows longer than DefaultMaxLineBytes come with a header or other rows.
// Cost O(number of lines), with at most one line checked for blanks
// beyond the first two.
func oneLongLine(lines []string, name string) error {
	long, nonBlank := 0, 0
	for i, l := range lines {
		if len(l) > DefaultMaxLineBytes && long == 0 {
			long = i + 1
		}
		if nonBlank < 2 && !isBlank(l) {
			nonBlank++
		}
		if long > 0 && nonBlank >= 2 {
			return nil
		}
	}
	if long == 0 {
		return nil
	}
	return &ParseError{File: name, Line: long, Err: errorf(ErrTooLarge, "line is %d bytes long, more than the limit of %d for the only line of a file (is this a text file with one record per line?)", len(lines[long-1]), DefaultMaxLineBytes)}
}

// ReadCSV reads a delimited feature table (CSV, TSV, semicolon- or
// whitespace-separated) from r, whatever opt.Format says.
func ReadCSV(ctx context.Context, r io.Reader, name string, opt Options) (*Table, error) {
	opt.Format = FormatDelimited
	return Read(ctx, r, name, opt)
}

// ReadARFF reads a Weka ARFF feature table from r, whatever opt.Format
// says. Supported: @relation, @attribute with numeric, real, integer,
// string and {nominal} types (quoted or bare names; anything after a
// numeric type, such as a range, is ignored), @data rows separated by commas
// with ' or " quoting, '%' comment lines anywhere (including between data
// rows), '?' for missing values. Date, relational and sparse ({index value})
// rows are reported as unsupported. String attributes are one-hot encoded
// like nominal ones unless dropped or used as the ID column.
func ReadARFF(ctx context.Context, r io.Reader, name string, opt Options) (*Table, error) {
	opt.Format = FormatARFF
	return Read(ctx, r, name, opt)
}

// delimiterFor parses Options.Delimiter; ok is false for automatic
// detection. Its error names the option as sp spells it.
func delimiterFor(s string, sp Spelling) (d byte, ok bool, err error) {
	switch strings.ToLower(s) {
	case "":
		return 0, false, nil
	case ",", "comma":
		return ',', true, nil
	case "\t", "tab", `\t`:
		return '\t', true, nil
	case ";", "semicolon":
		return ';', true, nil
	case " ", "whitespace", "space":
		return 0, true, nil
	}
	if len(s) == 1 && s[0] != '"' && s[0] != '\n' && s[0] != '\r' {
		return s[0], true, nil
	}
	return 0, false, errorf(ErrOption, "unsupported delimiter %q (Options.Delimiter%s): want , (comma), tab, ; (semicolon), whitespace, or another single character but \" and line ends", s, then(sp.Remedy("delim")))
}

// CheckDelimiter returns the error Read gives for Options.Delimiter s, nil
// for a delimiter it accepts (see Options.Delimiter), so that a front end
// can refuse one before it reads anything. The error wraps ErrOption and
// names the front end's option beside the library's as sp spells it
// ("(Options.Delimiter; tether: -delim)"), as Read's does with
// Options.Spelling sp; the zero Spelling names the library's alone.
func CheckDelimiter(s string, sp Spelling) error {
	_, _, err := delimiterFor(s, sp)
	return err
}

// delimFlag returns how the front end's option gives delimiter d, as sp
// spells it: tether's "-delim ,", "-delim tab", "-delim ';'" (quoted for
// the shell), the web app's "option delim ;", or, for a front end
// without the option, "Options.Delimiter ";"", the library's.
func delimFlag(d byte, sp Spelling) string {
	v := string(d)
	if d == '\t' {
		v = "tab"
	}
	if sp.CommandLine && d == ';' {
		v = "';'"
	}
	if o, ok := sp.Option("delim", v); ok {
		return o
	}
	return fmt.Sprintf("Options.Delimiter %q", v)
}

// The planned costs of the steps of a table's parse that
// Options.Recorder follows (Read), in tenths of a second for 10⁶ rows of
// five columns on the 2-core machine: the splitting of the lines into
// fields, the reading of the columns.
const (
	costTableLines   = 8
	costTableColumns = 4
)

// parseDelimited splits delimited text into a raw table, telling tick
// (nil: none) the fraction of the lines split every textline.PollLines
// lines.
func parseDelimited(ctx context.Context, lines []string, name string, opt *Options, tick func(float64)) (*rawTable, error) {
	// Keep the data lines (not blank, not comments) with their numbers.
	var body []string
	var nums []int
	for i, l := range lines {
		if err := poll(ctx, name, i); err != nil {
			return nil, err
		}
		if isBlank(l) {
			continue
		}
		if opt.Comment != "" && strings.HasPrefix(strings.TrimLeft(l, " \t"), opt.Comment) {
			continue
		}
		body = append(body, l)
		nums = append(nums, i+1)
	}
	if len(body) == 0 {
		return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "no data")}
	}
	delim, fixed, err := delimiterFor(opt.Delimiter, opt.Spelling)
	if err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	if !fixed {
		delim = fieldsplit.Detect(body)
	}
	sp := splitter{delim: delim, quotes: `"`}
	raw := &rawTable{file: name}
	if trimmed, w := trimTrailingDelimiter(body, sp, name); w != "" {
		body = trimmed
		raw.notes = append(raw.notes, w)
	}
	var header []string
	width := -1
	widthLine := 0
	limit := opt.MaxRows
	headerDone := opt.Header == HeaderNo
	window := 50
	if limit > 0 && limit+1 < window {
		window = limit + 1
	}
	for k, l := range body {
		if headerDone && limit > 0 && len(raw.rows) >= limit {
			break
		}
		if err := poll(ctx, name, k); err != nil {
			return nil, err
		}
		if tick != nil && k%textline.PollLines == 0 {
			tick(float64(k) / float64(len(body)))
		}
		fields, pos, err := sp.split(l, nil)
		if err != nil {
			return nil, &ParseError{File: name, Line: nums[k], Err: fmt.Errorf("character %d: %w", pos, err)}
		}
		if width < 0 {
			width, widthLine = len(fields), nums[k]
		} else if len(fields) != width {
			return nil, &ParseError{File: name, Line: nums[k], Err: errorf(ErrSyntax, "%s, want %d as on line %d", wording.Count(len(fields), "field", "fields"), width, widthLine)}
		}
		if !headerDone && opt.Header == HeaderYes {
			header = fields
			headerDone = true
			continue
		}
		raw.rows = append(raw.rows, fields)
		raw.lines = append(raw.lines, nums[k])
		if !headerDone && len(raw.rows) >= 2 {
			// HeaderAuto: decide once the first rows are known. A few more
			// rows help the uniqueness rule; read up to 50.
			if len(raw.rows) < window && k+1 < len(body) {
				continue
			}
			headerDone = true
			if looksLikeHeader(raw.rows, opt) {
				header = raw.rows[0]
				raw.rows = raw.rows[1:]
				raw.lines = raw.lines[1:]
			}
		}
	}
	if !headerDone && opt.Header == HeaderAuto && len(raw.rows) >= 2 && looksLikeHeader(raw.rows, opt) {
		header = raw.rows[0]
		raw.rows = raw.rows[1:]
		raw.lines = raw.lines[1:]
	}
	if limit > 0 && len(raw.rows) > limit {
		raw.rows = raw.rows[:limit]
		raw.lines = raw.lines[:limit]
	}
	if fixed && width == 1 {
		// A delimiter given that splits no line, in lines that hold one
		// of the usual delimiters: the one column of text was taken for
		// the row IDs and the error said "no feature columns left".
		if d := fieldsplit.Detect(body); d != 0 && d != delim {
			return nil, &ParseError{File: name, Line: nums[0], Err: errorf(ErrOption, "every line is one field when split at %s (Options.Delimiter %q%s), while the lines hold %s: the delimiter looks wrong; leave it out to detect it, or give %s", fieldsplit.Name(delim), opt.Delimiter, then(opt.Spelling.Remedy("delim")), fieldsplit.Name(d), delimFlag(d, opt.Spelling))}
		}
	}
	raw.cols = make([]column, width)
	for j := range raw.cols {
		if header != nil {
			raw.cols[j].name = header[j]
		} else {
			raw.cols[j].name = fmt.Sprintf("col%d", j+1)
		}
	}
	raw.named = header != nil
	return raw, nil
}

// trimTrailingDelimiter drops the empty last field of lines that all end
// with sp's delimiter (some spreadsheets write them so), or all but a
// first line one field shorter (a header): an empty last column no line
// fills, which the reader would refuse as missing values. It returns the
// trimmed lines and a note naming the file, or body and "" when the
// lines are not so (or blank-separated). A line that is the delimiter
// alone does not count as ending with it. Cost O(size of body).
func trimTrailingDelimiter(body []string, sp splitter, name string) ([]string, string) {
	delim := sp.delim
	if delim == ' ' || len(body) < 2 {
		return body, ""
	}
	trim := func(l string) string {
		if delim == '\t' {
			return strings.TrimRight(l, " \r")
		}
		return strings.TrimRight(l, " \t\r")
	}
	ends := func(l string) bool { t := trim(l); return len(t) > 1 && strings.HasSuffix(t, string(delim)) }
	from, what := 0, "every line ends"
	if !ends(body[0]) {
		h, _, err1 := sp.split(body[0], nil)
		d, _, err2 := sp.split(body[1], nil)
		if err1 != nil || err2 != nil || len(h) != len(d)-1 {
			return body, "" // a header as wide as the data: its last column is empty
		}
		from, what = 1, "every line but the header ends"
	}
	for _, l := range body[from:] {
		if !ends(l) {
			return body, ""
		}
	}
	out := make([]string, len(body))
	copy(out, body[:from])
	for k := from; k < len(body); k++ {
		l := trim(body[k])
		out[k] = l[:len(l)-1]
	}
	return out, fmt.Sprintf("%s: %s with the delimiter %q: the empty last field was ignored", name, what, string(delim))
}

// looksLikeHeader applies the HeaderAuto rule to the first rows.
func looksLikeHeader(rows [][]string, opt *Options) bool {
	first := rows[0]
	for j, v := range first {
		if j == 0 && v == "" && len(first) > 1 {
			// pandas's to_csv leaves its index column unnamed: ",x,y".
			continue
		}
		if numberLike(v) || opt.isMissing(v) {
			return false // a number, finite or not ("Inf", "1e400"), is data
		}
	}
	if len(first) > 1 && first[0] == "" && (len(rows[1]) == 0 || opt.isMissing(rows[1][0])) {
		return false // data with missing values in its first column
	}
	for j, v := range rows[1] {
		if _, ok := parseNum(v); ok && j < len(first) {
			return true
		}
	}
	if len(rows) < 3 {
		return false
	}
	repeats := false
	for j, v := range first {
		seen := make(map[string]bool, len(rows))
		for _, row := range rows[1:] {
			if row[j] == v {
				return false
			}
			if seen[row[j]] {
				repeats = true
			}
			seen[row[j]] = true
		}
	}
	return repeats
}
