package dataset

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/labelheader"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// Table is a feature table read from a file: one row per data point.
type Table struct {
	// X holds the n×p features after one-hot encoding, imputation and
	// scaling. Row i is data point i in file order.
	X *mat.Dense
	// Labels holds the class of each row, 0…len(ClassNames)−1, or is nil
	// when the table has no label column.
	Labels []int
	// ClassNames[c] is the original text of class c. Classes are numbered in
	// the declared order of an ARFF nominal class attribute (classes that
	// never occur are left out), otherwise in sorted order: numerically when
	// every class is a number ("1" < "2" < "10"), else lexicographically.
	ClassNames []string
	// Features names the columns of X: the column name for a numeric
	// column, "name=value" for each one-hot column of a categorical one.
	// Columns of a file without a header are named "col1", "col2", … by
	// their position in the file.
	Features []string
	// IDs holds the ID column, or is nil when none was chosen.
	IDs []string
	// DroppedColumns names the columns Options.Drop left out, in file
	// order, as Features would have named them (col3 in a file without a
	// header), or is nil.
	DroppedColumns []string
	// DroppedLines holds the 1-based file line numbers of the rows that the
	// MissingDrop policy dropped, in file order, or is nil.
	DroppedLines []int
	// RowLines[r] is the 1-based file line of data row r, among every
	// data row read (the dropped ones included, as Rows numbers them),
	// for the messages of readers of side files keyed by the IDs; nil
	// for a table not read from text.
	RowLines []int
	// Rows is nil when every data row read is a row of X. When MissingDrop
	// dropped rows, Rows[i] is the 0-based index, among the data rows read
	// (the dropped ones included), of the row that row i of X comes from,
	// and DroppedIDs holds the ID column's values of the dropped rows,
	// parallel to DroppedLines (nil without an ID column).
	Rows       []int
	DroppedIDs []string
	// Warnings describe what the reader changed that may make the table
	// differ from what the file was meant to say (rows dropped for missing
	// values); Notes describe the documented choices it made (an unnamed
	// first column read as the row IDs, an empty last field every line
	// has ignored). The CLI prints both to standard error, labelled
	// "warning" and "note".
	//
	// Every categorical feature column gets a note saying into how many
	// one-hot features it was encoded, or a warning instead when it looks
	// like an identifier (at least 10 categories, and more than half as
	// many categories as rows). A numeric feature column
	// holding the row numbers 1…n or 0…n−1 in row order (n ≥ 10) gets a
	// warning too, and so does one named like an identifier (id,
	// customer_id, nodeID: labelheader.IsIdentifier) that holds a
	// different integer on every row (n ≥ 10) in any order. An ID column with an empty or repeated ID (after
	// trimming blanks) gets a warning naming the first one and its line:
	// KeyNames refuses such IDs, so the labels files written for the rows
	// number them. Those messages change no value of X.
	Warnings []string
	Notes    []string
}

// Dims returns the number of rows and features.
func (t *Table) Dims() (n, p int) { return t.X.Dims() }

// HeaderMode says whether the first line of a delimited file names the
// columns.
type HeaderMode int

const (
	// HeaderAuto (the zero value) detects a header: the first row is one
	// when none of its fields is a number and either some column that holds
	// a number in the second row holds a non-number in the first, or (for
	// files without numbers in the first two rows) every first-row value
	// occurs nowhere else in its column while some column repeats values.
	HeaderAuto HeaderMode = iota
	// HeaderYes treats the first non-blank line as the header.
	HeaderYes
	// HeaderNo treats every line as data.
	HeaderNo
)

var headerNames = []string{"auto", "yes", "no"}

// String returns "auto", "yes" or "no".
func (h HeaderMode) String() string { return enum.String("HeaderMode", headerNames, h) }

// MarshalText returns the name String returns, or an error for an unknown
// mode.
func (h HeaderMode) MarshalText() ([]byte, error) { return enum.Marshal("header mode", headerNames, h) }

// UnmarshalText sets h from "auto", "yes" or "no" (any case); the error for
// another name wraps ErrInvalid.
func (h *HeaderMode) UnmarshalText(text []byte) error {
	return unmarshalEnum(h, "header mode", headerNames, text)
}

// Scale selects the scaling applied to numeric feature columns (one-hot
// columns are never scaled).
type Scale int

const (
	// ScaleNone (the zero value) keeps the values as read.
	ScaleNone Scale = iota
	// ScaleMinMax maps each numeric column to [0,1] by (x − min)/(max − min),
	// the preprocessing of the FGPWC experiments (seed 003 §5.1, SPEC §1).
	// A constant column becomes 0.
	ScaleMinMax
	// ScaleZScore maps each numeric column to (x − mean)/sd with the
	// population standard deviation. A constant column becomes 0.
	ScaleZScore
)

var scaleNames = []string{"none", "minmax", "zscore"}

// String returns "none", "minmax" or "zscore".
func (s Scale) String() string { return enum.String("Scale", scaleNames, s) }

// MarshalText returns the name String returns, or an error for an unknown
// scaling.
func (s Scale) MarshalText() ([]byte, error) { return enum.Marshal("scaling", scaleNames, s) }

// UnmarshalText sets s from "none", "minmax" or "zscore" (any case); the
// error for another name wraps ErrInvalid.
func (s *Scale) UnmarshalText(text []byte) error {
	return unmarshalEnum(s, "scaling", scaleNames, text)
}

// MissingPolicy says what to do with missing values.
type MissingPolicy int

const (
	// MissingReject (the zero value) returns an error wrapping ErrMissing
	// that names the file, line and column of the first missing value,
	// and the policies below that accept it.
	MissingReject MissingPolicy = iota
	// MissingImpute replaces a missing numeric value by the mean of its
	// column and a missing categorical value by its column's most frequent
	// value (ties go to the first value in level order). Statistics are
	// computed over the rows kept. A missing label is still an error.
	MissingImpute
	// MissingDrop drops every row with a missing feature or label (the ID
	// column does not count). The FGPWC hepatitis experiment (80 of 155 rows,
	// seed 003 Table 1) is this policy.
	MissingDrop
)

var missingNames = []string{"reject", "impute", "drop"}

// String returns "reject", "impute" or "drop".
func (m MissingPolicy) String() string { return enum.String("MissingPolicy", missingNames, m) }

// MarshalText returns the name String returns, or an error for an unknown
// policy.
func (m MissingPolicy) MarshalText() ([]byte, error) {
	return enum.Marshal("missing-value policy", missingNames, m)
}

// UnmarshalText sets m from "reject", "impute" or "drop" (any case); the
// error for another name wraps ErrInvalid.
func (m *MissingPolicy) UnmarshalText(text []byte) error {
	return unmarshalEnum(m, "missing-value policy", missingNames, text)
}

// unmarshalEnum sets *p to the value named by text (see internal/enum),
// wrapping the error for an unknown name in ErrInvalid.
func unmarshalEnum[T enum.Integer](p *T, kind string, names []string, text []byte) error {
	v, err := enum.Parse[T](kind, names, string(text))
	if err != nil {
		return errorf(ErrInvalid, "%v", err)
	}
	*p = v
	return nil
}

// Format names a tabular file format.
type Format int

const (
	// FormatAuto (the zero value) chooses ARFF for a ".arff" extension or
	// when the first line that is neither blank nor a '%' comment starts
	// with "@relation" (any case), delimited text otherwise.
	FormatAuto Format = iota
	// FormatDelimited is CSV, TSV, semicolon- or whitespace-separated text.
	FormatDelimited
	// FormatARFF is Weka's Attribute-Relation File Format.
	FormatARFF
)

// DefaultMaxCells is the largest number of cells (rows × features after
// one-hot encoding) a Table may have when Options.MaxCells is 0: 2²⁷ cells,
// 1 GiB of float64.
const DefaultMaxCells = 1 << 27

// Options controls how a feature table is read. The zero value reads a
// delimited file with automatic delimiter and header detection, no label
// column (ARFF: the last attribute), no scaling, and rejects missing values.
//
// Column references (LabelColumn, IDColumn, Drop, Categorical) are "first",
// "last", a 1-based column number, or a header name (exact match first, then
// case-insensitive).
type Options struct {
	// Format selects the reader; the zero value detects it.
	Format Format
	// Delimiter separates fields: ",", "\t" (or "tab"), ";", or " " (or
	// "whitespace": runs of spaces and tabs). "" detects it from the first
	// lines: the first of comma, tab and semicolon that occurs the same,
	// non-zero number of times (outside quotes) on each of the first 20
	// lines; failing that the first of them present on the first line;
	// failing that whitespace. An ARFF file, whose fields are separated
	// by commas, with a Delimiter is an error.
	Delimiter string
	// Header says whether the first line names the columns. An ARFF file,
	// whose names come from @attribute lines, with a Header other than
	// HeaderAuto is an error.
	Header HeaderMode
	// LabelColumn is the class column. "" means none for delimited files
	// and the last attribute for ARFF; "none" means none for both. A
	// delimited file without a header needs it to keep its classes out
	// of the features: with "", a text class column is one-hot encoded
	// like any other column (iris.csv's species, its last column, becomes
	// 3 features), with a warning when it is the first or last column
	// and has few categories (see Read).
	LabelColumn string
	// IDColumn is a column removed from the features and kept in Table.IDs.
	// "" means none.
	IDColumn string
	// Drop lists columns to leave out of the features, and of everything
	// else: their values are not read (an id column that is not wanted as
	// names, a column of free text). A dropped column cannot be the label
	// or ID column, nor Categorical; pandas's unnamed index column, when
	// dropped, is not read as the rows' IDs.
	Drop []string
	// Categorical lists columns to one-hot encode even though their values
	// are numbers (codes). Columns with non-numeric values, and ARFF nominal
	// and string attributes, are always categorical, except that a column
	// whose every value is a number written with a comma ("1,5", "1,234")
	// is an error unless listed here.
	Categorical []string
	// Scale is applied to numeric columns after imputation.
	Scale Scale
	// MissingMarkers are the field values meaning "missing", compared after
	// unquoting and trimming, case included. Nil means {"?", ""}; a list
	// replaces them (tether's -missing-markers, serve's and a job's
	// missing_markers add to them instead: FrontMissingMarkers). A value
	// that other programs write for a missing one (NA, N/A, NULL, None,
	// .: see missingWord) and that is not listed here is not missing: in
	// a column of numbers, it is an error that says it looks like a
	// missing value and how to write it or list it here.
	MissingMarkers []string
	// Missing is the missing-value policy.
	Missing MissingPolicy
	// Comment, if not empty, marks lines starting with it (after leading
	// blanks) as comments in delimited files. ARFF comments always start
	// with '%': an ARFF file with another Comment is an error.
	Comment string
	// MaxRows, if positive, stops reading after that many data rows (lines
	// after them are not parsed).
	MaxRows int
	// MaxCells bounds rows × features after encoding. If 0,
	// DefaultMaxCells is used.
	MaxCells int
	// MaxLineBytes bounds the length of a line (without its line ending);
	// a longer line is an error wrapping ErrTooLarge. If 0,
	// DefaultMaxTableLineBytes (64 MiB) is used, and a file whose only
	// line is longer than DefaultMaxLineBytes (1 MiB) is refused too.
	MaxLineBytes int
	// Spelling says how the notes, warnings and errors name the options
	// they suggest (tether's -drop, -id, -categorical, -missing, -label),
	// beside the library's Options fields: the zero value names the
	// library's alone.
	Spelling Spelling
	// Recorder, if not nil, receives the progress of the parse of a
	// table once its lines are read, as the stage "parsing NAME" (NAME
	// the name Read is given): thousandths of the stage (progress.Meter)
	// through the splitting of the lines into fields and the reading of
	// the columns (missing values, numbers, categories, the matrix), the
	// step in Message. 10⁶ rows of five columns take a second or more
	// once read. A folder of images reports nothing.
	Recorder progress.Recorder
}

func (o *Options) isMissing(s string) bool {
	if o.MissingMarkers == nil {
		return s == "?" || s == ""
	}
	for _, m := range o.MissingMarkers {
		if s == m {
			return true
		}
	}
	return false
}

// colKind is the declared type of a column.
type colKind int

const (
	kindAuto colKind = iota
	kindNumeric
	kindNominal
	kindString
)

type column struct {
	name   string
	kind   colKind
	levels []string // declared nominal values (ARFF)
}

// rawTable is what the format readers produce: column declarations and the
// data rows as strings.
type rawTable struct {
	file   string
	cols   []column
	named  bool // columns have real names
	rows   [][]string
	lines  []int
	isARFF bool
	notes  []string // what the parse chose, for Table.Notes
}

// resolve finds the column referred to by ref.
func (r *rawTable) resolve(ref, what string) (int, error) {
	m := len(r.cols)
	switch strings.ToLower(ref) {
	case "first":
		return 0, nil
	case "last":
		return m - 1, nil
	}
	if v, ok := parseInt(ref); ok {
		if v < 1 || v > m {
			return 0, &ParseError{File: r.file, Name: what, Value: ref, Err: errorf(ErrOption, "column number outside 1…%d", m)}
		}
		return v - 1, nil
	}
	if r.named {
		for j, c := range r.cols {
			if c.name == ref {
				for k := j + 1; k < m; k++ {
					if r.cols[k].name == ref {
						return 0, &ParseError{File: r.file, Name: what, Value: ref, Err: errorf(ErrOption, "columns %d and %d are both named %q: give the column's number", j+1, k+1, ref)}
					}
				}
				return j, nil
			}
		}
		found := -1
		for j, c := range r.cols {
			if strings.EqualFold(c.name, ref) {
				if found >= 0 {
					return 0, &ParseError{File: r.file, Name: what, Value: ref, Err: errorf(ErrOption, "several columns match case-insensitively")}
				}
				found = j
			}
		}
		if found >= 0 {
			return found, nil
		}
		names := make([]string, 0, min(m, 20))
		for j := 0; j < m && j < 20; j++ {
			names = append(names, r.cols[j].name)
		}
		more := ""
		if m > 20 {
			more = ", …"
		}
		return 0, &ParseError{File: r.file, Name: what, Value: ref, Err: errorf(ErrOption, "no such column (have %s%s)", strings.Join(names, ", "), more)}
	}
	return 0, &ParseError{File: r.file, Name: what, Value: ref, Err: errorf(ErrOption, "the file has no header: use first, last or a column number")}
}

// build turns a raw table into a Table following opt. It checks ctx every
// textline.PollLines rows of each pass over the rows, and tells tick
// (nil: none) the fraction of its passes done: the pass over the rows
// for missing values, one a feature column, the matrix.
func (r *rawTable) build(ctx context.Context, opt *Options, tick func(float64)) (*Table, error) {
	m := len(r.cols)
	if m == 0 {
		return nil, &ParseError{File: r.file, Err: errorf(ErrSyntax, "no columns")}
	}
	role := make([]byte, m) // 0 feature, 'l' label, 'i' id, 'd' dropped
	label := -1
	labelRef := opt.LabelColumn
	if labelRef == "" && r.isARFF {
		labelRef = "last"
	}
	if labelRef != "" && !strings.EqualFold(labelRef, "none") {
		j, err := r.resolve(labelRef, "label column")
		if err != nil {
			return nil, err
		}
		label = j
		role[j] = 'l'
	}
	id := -1
	var idNote string
	if opt.IDColumn != "" {
		j, err := r.resolve(opt.IDColumn, "ID column")
		if err != nil {
			return nil, err
		}
		if role[j] != 0 {
			return nil, &ParseError{File: r.file, Name: "ID column", Value: opt.IDColumn, Err: errorf(ErrOption, "column %d is also the label column", j+1)}
		}
		id = j
		role[j] = 'i'
	}
	// Dropped columns: any but the label and ID columns.
	for _, ref := range opt.Drop {
		j, err := r.resolve(ref, "dropped column")
		if err != nil {
			return nil, err
		}
		switch {
		case role[j] == 'l' && opt.LabelColumn == "":
			return nil, &ParseError{File: r.file, Name: "dropped column", Value: ref, Err: errorf(ErrOption, "column %d is the label column (an ARFF file's last attribute unless Options.LabelColumn names another), which is never a feature: to leave it out altogether, set the label column to none and drop it %s; %s alone makes it a feature", j+1, opt.Spelling.labelNoneDrop(ref), opt.Spelling.labelNone())}
		case role[j] == 'l':
			return nil, &ParseError{File: r.file, Name: "dropped column", Value: ref, Err: errorf(ErrOption, "column %d is the label column (Options.LabelColumn %q%s), which is never a feature: drop another column, or give another label column or none", j+1, opt.LabelColumn, then(opt.Spelling.Remedy("label", opt.LabelColumn)))}
		case role[j] == 'i':
			return nil, &ParseError{File: r.file, Name: "dropped column", Value: ref, Err: errorf(ErrOption, "column %d is the ID column (Options.IDColumn %q%s), which is never a feature: drop another column, or give another ID column", j+1, opt.IDColumn, then(opt.Spelling.Remedy("id", opt.IDColumn)))}
		}
		role[j] = 'd'
	}
	if id < 0 && r.named && m > 1 && r.cols[0].name == "" && role[0] == 0 {
		// The unnamed first column of a header is pandas's index
		// (DataFrame.to_csv): row names, not a feature.
		id = 0
		role[0] = 'i'
		idNote = fmt.Sprintf("%s: column 1 has no name in the header: read as the IDs of the rows, not a feature (pandas writes its index so; name the column to make it a feature)", r.file)
	}
	forced := make([]bool, m)
	for _, ref := range opt.Categorical {
		j, err := r.resolve(ref, "categorical column")
		if err != nil {
			return nil, err
		}
		if role[j] == 'd' {
			return nil, &ParseError{File: r.file, Name: "categorical column", Value: ref, Err: errorf(ErrOption, "column %d is a dropped column %s: a dropped column is not a feature to encode", j+1, opt.Spelling.Hint("drop", "", "", "Options.Drop"))}
		}
		forced[j] = true
	}
	var feats []int
	for j := range role {
		if role[j] == 0 {
			feats = append(feats, j)
		}
	}
	if len(feats) == 0 {
		return nil, &ParseError{File: r.file, Err: errorf(ErrNoFeatures, "no feature columns left after removing label, ID and dropped columns")}
	}

	// Missing values: reject, or choose the rows to keep.
	keep := make([]int, 0, len(r.rows))
	var dropped []int
	var droppedIDs []string
	// Cells to impute, and the rows and columns that hold them.
	imputed, imputedRows, imputedCols := 0, 0, make([]bool, m)
	for i, row := range r.rows {
		if err := poll(ctx, r.file, i); err != nil {
			return nil, err
		}
		drop := false
		cells := imputed
		for j, v := range row {
			if role[j] == 'd' || role[j] == 'i' || !opt.isMissing(v) {
				continue
			}
			if opt.Missing == MissingDrop {
				drop = true
				break
			}
			if opt.Missing == MissingReject || role[j] == 'l' {
				return nil, &ParseError{File: r.file, Line: r.lines[i], Column: j + 1, Name: r.cols[j].name, Value: v, Err: missingError(role[j] == 'l', opt.Spelling)}
			}
			imputed++
			imputedCols[j] = true
		}
		if imputed > cells {
			imputedRows++
		}
		if !drop {
			keep = append(keep, i)
		} else {
			dropped = append(dropped, r.lines[i])
			if id >= 0 {
				droppedIDs = append(droppedIDs, row[id])
			}
		}
	}
	// at tells tick the passes done of the feature columns' and two more.
	at := func(passes int) {
		if tick != nil {
			tick(float64(passes) / float64(len(feats)+2))
		}
	}
	at(1)
	n := len(keep)
	if n == 0 {
		if len(r.rows) == 0 {
			return nil, &ParseError{File: r.file, Err: errorf(ErrSyntax, "no data rows")}
		}
		return nil, &ParseError{File: r.file, Err: errorf(ErrMissing, "every row has a missing value")}
	}

	// Encode the feature columns.
	type enc struct {
		numeric bool
		vals    []float64      // numeric values (NaN = missing) per kept row
		levels  []string       // categorical levels in output order
		code    map[string]int // level → index
	}
	encs := make([]enc, len(feats))
	width := 0
	for f, j := range feats {
		at(1 + f)
		c := r.cols[j]
		e := &encs[f]
		switch {
		case c.kind == kindNumeric && !forced[j]:
			e.numeric = true
		case c.kind == kindNominal || c.kind == kindString || forced[j]:
		default: // auto: numeric unless a value is not a number
			e.numeric = true
			vals := make([]float64, n)
			firstNum, firstNon := -1, -1
			for k, i := range keep {
				if err := poll(ctx, r.file, k); err != nil {
					return nil, err
				}
				v := r.rows[i][j]
				if opt.isMissing(v) {
					vals[k] = math.NaN()
					continue
				}
				if x, ok := parseNum(v); ok {
					vals[k] = x
					if firstNum < 0 {
						firstNum = i
					}
				} else if numberLike(v) {
					// NaN, Inf, 1e400: a bad number, not a category.
					// NaN is what numpy and R write for a missing
					// number: say how it is read as one.
					why := "not a finite decimal number (a missing value is written ? or left empty)"
					if strings.EqualFold(strings.TrimSpace(v), "nan") {
						why = "not a finite decimal number: " + missingWordHint(v, opt)
					}
					return nil, &ParseError{File: r.file, Line: r.lines[i], Column: j + 1, Name: c.name, Value: v,
						Err: errorf(ErrSyntax, "%s", why)}
				} else if firstNon < 0 {
					firstNon = i
				}
				if firstNum >= 0 && firstNon >= 0 {
					break
				}
			}
			if firstNon >= 0 && firstNum >= 0 {
				if i := missingWordRow(r.rows, keep, j, opt); i >= 0 {
					// R's NA, SQL's NULL among numbers: missing values
					// written as the reader does not read them, neither
					// a value to fix nor a category.
					return nil, &ParseError{File: r.file, Line: r.lines[i], Column: j + 1, Name: c.name, Value: r.rows[i][j],
						Err: errorf(ErrSyntax, "not a number, but line %d has %s: %s", r.lines[firstNum], quote(r.rows[firstNum][j]), missingWordHint(r.rows[i][j], opt))}
				}
				bad, good := firstNon, firstNum
				kind := "not a number, but"
				if firstNon < firstNum {
					bad, good = firstNum, firstNon
					kind = "a number, but"
				}
				if distinctValues(r.rows, keep, j, opt) {
					// Names or keys, some of them numbers (promoters'
					// "S10", "867"): not a feature to fix or encode.
					idHint := ""
					if id < 0 {
						idHint = "give it as the ID column " + opt.Spelling.Hint("id", r.colRef(j), "", "Options.IDColumn") + ", or "
					}
					return nil, &ParseError{File: r.file, Line: r.lines[bad], Column: j + 1, Name: c.name, Value: r.rows[bad][j],
						Err: errorf(ErrSyntax, "%s line %d has %s, and every value of the column differs, as names or keys do: %sleave it out %s", kind, r.lines[good], quote(r.rows[good][j]), idHint, opt.Spelling.Hint("drop", r.colRef(j), "", "Options.Drop"))}
				}
				return nil, &ParseError{File: r.file, Line: r.lines[bad], Column: j + 1, Name: c.name, Value: r.rows[bad][j],
					Err: errorf(ErrSyntax, "%s line %d has %s: fix the value, or one-hot encode the column %s", kind, r.lines[good], quote(r.rows[good][j]), opt.Spelling.Hint("categorical", strconv.Itoa(j+1), "", "Options.Categorical"))}
			}
			if firstNon >= 0 {
				if u := unitNumbers(r.rows, keep, j, opt); u != "" {
					// Every value is a number but for its unit: numbers
					// the reader cannot take as written, not categories.
					return nil, &ParseError{File: r.file, Line: r.lines[firstNon], Column: j + 1, Name: c.name, Value: r.rows[firstNon][j],
						Err: errorf(ErrSyntax, "every value of the column is a number written with %q, which is not read as a number: write plain numbers (without %q), or one-hot encode the column %s", u, u, opt.Spelling.Hint("categorical", strconv.Itoa(j+1), "", "Options.Categorical"))}
				}
			}
			if firstNon >= 0 && commaNumbers(r.rows, keep, j, opt) {
				// Every value is a number but for its commas: a file
				// written with decimal commas, not a categorical column.
				return nil, &ParseError{File: r.file, Line: r.lines[firstNon], Column: j + 1, Name: c.name, Value: r.rows[firstNon][j],
					Err: errorf(ErrSyntax, "every value of the column is a number written with a comma (a decimal comma or a thousands separator), which is not read as a number: write the numbers with a decimal point and no separator, or one-hot encode the column %s", opt.Spelling.Hint("categorical", strconv.Itoa(j+1), "", "Options.Categorical"))}
			}
			if firstNon >= 0 {
				e.numeric = false
			} else {
				e.vals = vals // parsed once, reused below
			}
		}
		if e.numeric {
			cnt := 0
			if e.vals == nil {
				e.vals = make([]float64, n)
				for k, i := range keep {
					if err := poll(ctx, r.file, k); err != nil {
						return nil, err
					}
					v := r.rows[i][j]
					if opt.isMissing(v) {
						e.vals[k] = math.NaN()
						continue
					}
					x, ok := parseNum(v)
					if !ok && missingWord(v) {
						return nil, &ParseError{File: r.file, Line: r.lines[i], Column: j + 1, Name: c.name, Value: v, Err: errorf(ErrSyntax, "not a number: %s", missingWordHint(v, opt))}
					}
					if !ok {
						return nil, &ParseError{File: r.file, Line: r.lines[i], Column: j + 1, Name: c.name, Value: v, Err: errorf(ErrSyntax, "not a number")}
					}
					e.vals[k] = x
				}
			}
			for _, x := range e.vals {
				if !math.IsNaN(x) {
					cnt++
				}
			}
			if cnt < n {
				if cnt == 0 {
					return nil, &ParseError{File: r.file, Column: j + 1, Name: c.name, Err: errorf(ErrMissing, "every value of the column is missing: cannot impute; leave it out %s", opt.Spelling.Hint("drop", r.colRef(j), "", "Options.Drop"))}
				}
				// Σ x/cnt cannot overflow, unlike (Σ x)/cnt.
				var mean float64
				for _, x := range e.vals {
					if !math.IsNaN(x) {
						mean += x / float64(cnt)
					}
				}
				for k := range e.vals {
					if math.IsNaN(e.vals[k]) {
						e.vals[k] = mean
					}
				}
			}
			width++
			continue
		}
		// Categorical.
		count := make(map[string]int)
		present := 0
		for _, i := range keep {
			v := r.rows[i][j]
			if !opt.isMissing(v) {
				count[v]++
				present++
			}
		}
		if len(count) == 0 {
			return nil, &ParseError{File: r.file, Column: j + 1, Name: c.name, Err: errorf(ErrMissing, "every value of the column is missing: cannot impute; leave it out %s", opt.Spelling.Hint("drop", r.colRef(j), "", "Options.Drop"))}
		}
		if c.kind == kindAuto && !forced[j] && len(count) >= 3 && len(count) == present {
			if err := r.commaHeaderError(opt, keep, j); err != nil {
				// Decimal commas under a header read as data: the
				// header's rule found no number below it.
				return nil, err
			}
			// Names or keys, one per row: as one-hot features they
			// would add the same distance to every pair of rows.
			ref := strconv.Itoa(j + 1)
			if r.named && c.name != "" {
				ref = c.name
			}
			return nil, &ParseError{File: r.file, Column: j + 1, Name: c.name, Value: r.rows[keep[0]][j],
				Err: errorf(ErrIdentifier, "a different text on every one of the %d rows that have one, as names or keys have: give it as the ID column %s, or one-hot encode it anyway %s", present, opt.Spelling.Hint("id", ref, "", "Options.IDColumn"), opt.Spelling.Hint("categorical", strconv.Itoa(j+1), "", "Options.Categorical"))}
		}
		if c.kind == kindNominal {
			declared := make(map[string]bool, len(c.levels))
			for _, l := range c.levels {
				declared[l] = true
				if count[l] > 0 {
					e.levels = append(e.levels, l)
				}
			}
			for _, i := range keep {
				if v := r.rows[i][j]; !opt.isMissing(v) && !declared[v] {
					return nil, &ParseError{File: r.file, Line: r.lines[i], Column: j + 1, Name: c.name, Value: v, Err: errorf(ErrSyntax, "not one of the %d declared nominal values", len(c.levels))}
				}
			}
		} else {
			for l := range count {
				e.levels = append(e.levels, l)
			}
			sortLevels(e.levels)
		}
		e.code = make(map[string]int, len(e.levels))
		for k, l := range e.levels {
			e.code[l] = k
		}
		width += len(e.levels)
		if width > maxCells(opt)/n {
			return nil, &ParseError{File: r.file, Column: j + 1, Name: c.name, Err: errorf(ErrTooLarge, "%d rows × ≥%d encoded features exceed %d cells (column has %d distinct values: drop it or make it the ID column)", n, width, maxCells(opt), len(e.levels))}
		}
	}
	if width > maxCells(opt)/n {
		return nil, &ParseError{File: r.file, Err: errorf(ErrTooLarge, "%d rows × %d features exceed %d cells", n, width, maxCells(opt))}
	}

	t := &Table{X: mat.NewDense(n, width, nil), DroppedLines: dropped, RowLines: r.lines}
	for j := range role {
		if role[j] == 'd' {
			t.DroppedColumns = append(t.DroppedColumns, r.cols[j].name)
		}
	}
	t.Notes = append(t.Notes, r.notes...)
	if idNote != "" {
		t.Notes = append(t.Notes, idNote)
	}
	if len(dropped) > 0 {
		t.Warnings = append(t.Warnings, droppedWarning(r.file, dropped, len(r.rows), opt.Spelling))
		t.Rows = keep
		t.DroppedIDs = droppedIDs
		if w := droppedIDWarning(r.file, r.rows, r.lines, keep, id, dropped, droppedIDs); w != "" {
			t.Warnings = append(t.Warnings, w)
		}
	}
	if imputed > 0 {
		t.Notes = append(t.Notes, imputedNote(r.file, imputed, imputedRows, imputedCols, opt.Spelling))
	}
	// A file without a header names no class column for the rule of
	// ClassNamedColumns: a text column at an edge of the record, where
	// the classes usually are, gets a warning instead of the note on its
	// encoding (headerlessClassColumn).
	classLike := -1
	if labelRef == "" && !r.named {
		classLike = headerlessClassColumn(m, n, role, func(j int) (levels int, keys bool) {
			f, _ := slices.BinarySearch(feats, j)
			e := &encs[f]
			if e.numeric {
				return 0, integerKeys(e.vals)
			}
			if forced[j] {
				return 0, false
			}
			return len(e.levels), false
		})
	}
	var encoded []encodedColumn
	for f, j := range feats {
		e := &encs[f]
		switch {
		case j == classLike:
			t.Warnings = append(t.Warnings, headerlessClassWarning(r.file, j, m, len(e.levels), n, role, opt.Spelling))
		case !e.numeric && len(e.levels) == 1 && missingWord(e.levels[0]):
			// A column of NA alone: missing values written as another
			// program writes them, encoded into one constant feature.
			t.Warnings = append(t.Warnings, fmt.Sprintf("%s: %s holds only %s, which looks like a missing value: its one feature is the same on every row and changes nothing; leave it out %s", r.file, r.colWhat(j), quote(e.levels[0]), opt.Spelling.Hint("drop", r.colRef(j), "", "Options.Drop")))
		case !e.numeric:
			encoded = append(encoded, encodedColumn{what: r.colWhat(j), ref: r.colRef(j), levels: len(e.levels)})
		case n >= minRowNumberRows:
			if first, last, ok := rowNumbers(e.vals, keep); ok {
				t.Warnings = append(t.Warnings, rowNumberWarning(r.file, r.colWhat(j), r.colRef(j), first, last, id < 0, opt.Spelling))
			} else if r.named && labelheader.IsIdentifier(r.cols[j].name) && integerKeys(e.vals) {
				t.Warnings = append(t.Warnings, integerIDWarning(r.file, r.colWhat(j), r.colRef(j), e.vals, id < 0, opt.Spelling))
			}
		}
	}
	notes, warnings := encodingMessages(r.file, encoded, n, id < 0, opt.Spelling)
	t.Notes = append(t.Notes, notes...)
	t.Warnings = append(t.Warnings, warnings...)
	at(1 + len(feats))
	col := 0
	for f, j := range feats {
		e := &encs[f]
		name := r.cols[j].name
		if e.numeric {
			scaleColumn(e.vals, opt.Scale)
			for k, v := range e.vals {
				t.X.Set(k, col, v)
			}
			t.Features = append(t.Features, name)
			col++
			continue
		}
		mode := 0
		if opt.Missing == MissingImpute {
			cnt := make([]int, len(e.levels))
			for _, i := range keep {
				if k, ok := e.code[r.rows[i][j]]; ok {
					cnt[k]++
				}
			}
			for k := range cnt {
				if cnt[k] > cnt[mode] {
					mode = k
				}
			}
		}
		for k, i := range keep {
			lv, ok := e.code[r.rows[i][j]]
			if !ok {
				lv = mode
			}
			t.X.Set(k, col+lv, 1)
		}
		for _, l := range e.levels {
			t.Features = append(t.Features, name+"="+l)
		}
		col += len(e.levels)
	}

	if label >= 0 {
		var levels []string
		seen := make(map[string]bool)
		for _, i := range keep {
			seen[r.rows[i][label]] = true
		}
		if c := r.cols[label]; c.kind == kindNominal {
			declared := make(map[string]bool, len(c.levels))
			for _, l := range c.levels {
				declared[l] = true
				if seen[l] {
					levels = append(levels, l)
				}
			}
			for _, i := range keep {
				if v := r.rows[i][label]; !declared[v] {
					return nil, &ParseError{File: r.file, Line: r.lines[i], Column: label + 1, Name: c.name, Value: v, Err: errorf(ErrSyntax, "not one of the %d declared class values", len(c.levels))}
				}
			}
		} else {
			for l := range seen {
				levels = append(levels, l)
			}
			sortLevels(levels)
		}
		code := make(map[string]int, len(levels))
		for k, l := range levels {
			code[l] = k
		}
		t.Labels = make([]int, n)
		for k, i := range keep {
			t.Labels[k] = code[r.rows[i][label]]
		}
		t.ClassNames = levels
		if w := labelColumnWarning(r, label, levels, n, opt.Spelling); w != "" {
			t.Warnings = append(t.Warnings, w)
		}
	}
	if id >= 0 {
		t.IDs = make([]string, n)
		for k, i := range keep {
			t.IDs[k] = r.rows[i][id]
		}
		if w := idClashWarning(r, id, keep, t.IDs, opt.Spelling); w != "" {
			t.Warnings = append(t.Warnings, w)
		}
	}
	return t, nil
}

// labelColumnWarning returns the warning of a label column (column label
// of r, with the distinct values levels over n rows) that does not look
// like classes: at least 10 values, and a different one on every row, or
// numbers not all integers with more values than n/2 (the rule of
// identifierLike for the latter). Such a column — a continuous feature,
// an identifier — was taken for n classes of one row each, and the
// figures against it (ARI, NMI) mean little. "" when it looks like classes.
// Cost O(len(levels)).
func labelColumnWarning(r *rawTable, label int, levels []string, n int, sp Spelling) string {
	if len(levels) < 10 {
		return ""
	}
	fractional := false
	for _, l := range levels {
		v, ok := parseNum(l)
		if !ok {
			fractional = false
			break
		}
		fractional = fractional || v != math.Trunc(v)
	}
	if len(levels) != n && !(fractional && identifierLike(len(levels), n)) {
		return ""
	}
	what := "numbers not all integers"
	if len(levels) == n {
		what = "a different value on every row"
	}
	front := ""
	if o, ok := sp.Option("label", ""); ok {
		front = fmt.Sprintf("; %s: %s", sp.frontName(), o)
	}
	return fmt.Sprintf("%s: %s, the label column, holds %d distinct values for %d rows (%s): it looks like a continuous feature or an identifier, not classes, and the figures against it (ARI, NMI, accuracy) mean little; name the column of the classes (Options.LabelColumn%s), or none", r.file, r.colWhat(label), len(levels), n, what, front)
}

// droppedIDWarning returns the warning of a table whose rows dropped for
// missing values (their lines dropped, their IDs ids, column id of rows)
// include one whose ID, blanks trimmed, repeats that of a row kept (the
// rows keep, on lines lines): it names the first such ID by the lines of
// both rows, and says how many more there are. Files that number the
// rows number the file's rows, dropped ones included, and a line of a
// file keyed by ID that names such an ID cannot say which row it means,
// an error. "" when no dropped row's ID repeats a kept one's, or without
// an ID column (id < 0). Cost O(rows).
func droppedIDWarning(file string, rows [][]string, lines, keep []int, id int, dropped []int, ids []string) string {
	if id < 0 || len(ids) != len(dropped) {
		return ""
	}
	kept := make(map[string]int, len(keep)) // ID → line of its first kept row
	for _, i := range keep {
		v := strings.TrimSpace(rows[i][id])
		if _, dup := kept[v]; !dup {
			kept[v] = lines[i]
		}
	}
	first, count := -1, 0
	for k, v := range ids {
		v = strings.TrimSpace(v)
		if _, ok := kept[v]; ok && v != "" {
			if first < 0 {
				first = k
			}
			count++
		}
	}
	if first < 0 {
		return ""
	}
	v := strings.TrimSpace(ids[first])
	more := ""
	if count > 1 {
		more = fmt.Sprintf(" (and %d more dropped %s)", count-1, wording.Form(count-1, "row", "rows"))
	}
	return fmt.Sprintf("%s: the ID %s of line %d, a row dropped for missing values, repeats that of line %d, a row kept%s: files that number the rows number the file's rows, dropped ones included, and a line of a file keyed by ID that names %s is an error, since it cannot say which row it means", file, quote(v), dropped[first], kept[v], more, quote(v))
}

// idClashWarning returns the warning of an ID column (column id of r)
// whose values ids, over the rows kept, cannot name the nodes
// (KeyNames: an empty or repeated ID), naming the first such ID with its
// line and, for a repeat, the line of the earlier one: the files written
// for the nodes (tether cluster -o, tether labels, WriteNodeLabels with
// KeyNames) then number them rather than name them, which the ID column
// asked for. "" when the IDs can name the nodes. Cost O(len(ids)).
func idClashWarning(r *rawTable, id int, keep []int, ids []string, sp Spelling) string {
	return keyClashWarning(r.file, r.colWhat(id), "rows", "ID", ids, func(i int) int { return r.lines[keep[i]] }, sp)
}

// keyClashWarning is the warning of the names of a file's nodes (the IDs
// of a table's ID column, the labels of a GML file's nodes) that cannot
// name them (keyNamesClash): "FILE: WHAT cannot name the NOUN: the WORD
// "x" on line 7 repeats line 3 (or: the WORD on line 7 is empty), so the
// labels files written for them … number the NOUN instead of naming
// them", line(i) being the line of name i, the outputs named as sp names
// them (Spelling.Outputs). "" when the names can name the nodes. Cost
// O(len(names)).
func keyClashWarning(file, what, noun, word string, names []string, line func(i int) int, sp Spelling) string {
	i, j := keyNamesClash(names)
	if i < 0 {
		return ""
	}
	why := fmt.Sprintf("the %s on line %d is empty", word, line(i))
	if j >= 0 {
		why = fmt.Sprintf("the %s %s on line %d repeats line %d", word, quote(strings.TrimSpace(names[i])), line(i), line(j))
	}
	return fmt.Sprintf("%s: %s cannot name the %s: %s, so %s (make the %ss distinct and non-empty to name them)", file, what, noun, why, keyClashSo(noun, sp), word)
}

// keyClashSo says what names that cannot key the noun (nodes, rows) do
// to the outputs that name them, as sp names those outputs: "the labels
// files written for them (tether cluster -o, tether labels) number the
// nodes instead of naming them".
func keyClashSo(noun string, sp Spelling) string {
	switch {
	case sp.CommandLine:
		return fmt.Sprintf("the labels files written for them (tether cluster -o, tether labels) number the %s instead of naming them", noun)
	case sp.Outputs != "":
		return fmt.Sprintf("%s numbers the %s instead of naming them", sp.Outputs, noun)
	}
	return fmt.Sprintf("the %s are numbered instead of named", noun)
}

// distinctValues reports whether the present values of column j over the
// kept rows are at least 10 and all different, as names or keys are (the
// rule of identifierLike: fewer, such as 1, 2, x, may well be a feature
// with a typo). Cost O(len(keep)).
func distinctValues(rows [][]string, keep []int, j int, opt *Options) bool {
	seen := make(map[string]bool, len(keep))
	for _, i := range keep {
		v := rows[i][j]
		if opt.isMissing(v) {
			continue
		}
		if seen[v] {
			return false
		}
		seen[v] = true
	}
	return len(seen) >= 10
}

// commaNumbers reports whether every value of column j in the kept rows
// that is not missing holds a comma and reads as a number once its commas
// are taken as a decimal point ("1,5") or dropped as thousands separators
// ("1,234.5"). Cost O(len(keep)).
func commaNumbers(rows [][]string, keep []int, j int, opt *Options) bool {
	seen := false
	for _, i := range keep {
		v := rows[i][j]
		if opt.isMissing(v) {
			continue
		}
		if !strings.Contains(v, ",") {
			return false
		}
		if _, ok := parseNum(strings.Replace(v, ",", ".", 1)); !ok {
			if _, ok := parseNum(strings.ReplaceAll(v, ",", "")); !ok {
				return false
			}
		}
		seen = true
	}
	return seen
}

// commaHeaderError returns the error of column j of a table read without
// a header (Options.Header HeaderAuto found none) whose values below its
// first row are all numbers written with a comma (commaNumbers) while the
// first row's is not: a header over decimal commas, which the header's
// rule, looking for a number under it, could not see, and which the
// caller would otherwise report as a column of names or keys, all its
// values being different (ErrIdentifier, on which input.ReadTableFile
// takes the column for the rows' names and reads on). It returns nil
// otherwise. Cost O(len(keep)).
func (r *rawTable) commaHeaderError(opt *Options, keep []int, j int) error {
	if r.named || opt.Header != HeaderAuto || len(keep) < 3 || keep[0] != 0 {
		return nil
	}
	if first := r.rows[0][j]; opt.isMissing(first) || commaNumbers(r.rows, keep[:1], j, opt) || !commaNumbers(r.rows, keep[1:], j, opt) {
		return nil
	}
	i := keep[1]
	for _, k := range keep[1:] {
		if !opt.isMissing(r.rows[k][j]) {
			i = k
			break
		}
	}
	return &ParseError{File: r.file, Line: r.lines[i], Column: j + 1, Name: r.cols[j].name, Value: r.rows[i][j],
		Err: errorf(ErrSyntax, "every value of the column below line %d (%s, its header, read as data: no value under it reads as a number) is a number written with a comma (a decimal comma or a thousands separator), which is not read as a number: write the numbers with a decimal point and no separator, or give the header %s and one-hot encode the column %s",
			r.lines[0], quote(r.rows[0][j]), opt.Spelling.Hint("header", "yes", "", "Options.Header = HeaderYes"), opt.Spelling.Hint("categorical", strconv.Itoa(j+1), "", "Options.Categorical"))}
}

// unitNumbers returns the unit, such as "%" or "$", when every present
// value of column j (over the rows keep) is a number with that same unit
// written before or after it ("45%", "$5", "3 €"), and "" otherwise.
// Such a column is numbers the reader cannot take as written, not
// categories. Cost O(len(keep)).
func unitNumbers(rows [][]string, keep []int, j int, opt *Options) string {
	unit := ""
	for _, i := range keep {
		v := strings.TrimSpace(rows[i][j])
		if opt.isMissing(v) {
			continue
		}
		u := ""
		for _, c := range []string{"%", "$", "€", "£", "¥"} {
			if t, ok := strings.CutSuffix(v, c); ok {
				v, u = strings.TrimSpace(t), c
				break
			}
			if t, ok := strings.CutPrefix(v, c); ok {
				v, u = strings.TrimSpace(t), c
				break
			}
		}
		if u == "" || unit != "" && u != unit {
			return ""
		}
		if _, ok := parseNum(v); !ok {
			return ""
		}
		unit = u
	}
	return unit
}

func maxCells(opt *Options) int {
	if opt.MaxCells > 0 {
		return opt.MaxCells
	}
	return DefaultMaxCells
}

// sortLevels sorts numerically when every level is a number, otherwise
// lexicographically.
func sortLevels(levels []string) {
	nums := make([]float64, len(levels))
	allNum := true
	for k, l := range levels {
		v, ok := parseNum(l)
		if !ok {
			allNum = false
			break
		}
		nums[k] = v
	}
	if !allNum {
		sort.Strings(levels)
		return
	}
	idx := make([]int, len(levels))
	for k := range idx {
		idx[k] = k
	}
	sort.SliceStable(idx, func(a, b int) bool {
		if nums[idx[a]] != nums[idx[b]] {
			return nums[idx[a]] < nums[idx[b]]
		}
		return levels[idx[a]] < levels[idx[b]]
	})
	out := make([]string, len(levels))
	for k, i := range idx {
		out[k] = levels[i]
	}
	copy(levels, out)
}

// ScaleColumns scales every column of x in place as Options.Scale scales
// a table's numeric columns (ScaleMinMax: onto [0, 1], a constant column
// onto 0). Cost O(n·d).
func ScaleColumns(x *mat.Dense, s Scale) {
	n, d := x.Dims()
	col := make([]float64, n)
	for j := 0; j < d; j++ {
		mat.Col(col, j, x)
		scaleColumn(col, s)
		x.SetCol(j, col)
	}
}

// scaleColumn scales v in place.
func scaleColumn(v []float64, s Scale) {
	switch s {
	case ScaleMinMax:
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, x := range v {
			lo = math.Min(lo, x)
			hi = math.Max(hi, x)
		}
		d := hi - lo
		for k, x := range v {
			if d > 0 && !math.IsInf(d, 0) {
				v[k] = (x - lo) / d
			} else if d > 0 {
				// Range overflows float64: scale in two steps.
				v[k] = (x/2 - lo/2) / (hi/2 - lo/2)
			} else {
				v[k] = 0
			}
		}
	case ScaleZScore:
		// z-scores are invariant under v → v/c; dividing by max |v| first
		// keeps every intermediate finite.
		var amax float64
		for _, x := range v {
			amax = math.Max(amax, math.Abs(x))
		}
		if amax == 0 {
			return
		}
		for k := range v {
			v[k] /= amax
		}
		var mean float64
		for _, x := range v {
			mean += x / float64(len(v))
		}
		var ss float64
		for _, x := range v {
			ss += (x - mean) * (x - mean) / float64(len(v))
		}
		sd := math.Sqrt(ss)
		for k, x := range v {
			if sd > 0 && !math.IsInf(sd, 0) {
				v[k] = (x - mean) / sd
			} else {
				v[k] = 0
			}
		}
	}
}

// classColumnNames are the header names ClassNamedColumn recognizes as
// the reference labels (any case): tether gen writes "label".
var classColumnNames = [...]string{"label", "class", "target", "y"}

// FeatureColumn returns the column a feature of Table.Features comes from:
// the name itself, or the part before "=" of a one-hot column "name=value".
func FeatureColumn(f string) string {
	if i := strings.IndexByte(f, '='); i > 0 {
		return f[:i]
	}
	return f
}

// ClassNamedColumn returns the column of features (Table.Features) that
// tether cluster and tether serve take as the reference labels when none is
// given: one named label, else class, else target, else y when no column
// is named x (any case; the first in file order within a name), or "" when
// there is none. A table
// with a "y" and a "label" column takes "label", the more specific name.
// Cost O(len(features)).
func ClassNamedColumn(features []string) string {
	if c := ClassNamedColumns(features); len(c) > 0 {
		return c[0]
	}
	return ""
}

// classFeatureWarnings returns a warning for each column of features
// (ClassNamedColumns) that is named like the classes but was read as a
// feature because no Options.LabelColumn was given (see Read); file
// names the table, dropped its columns that Options.Drop left out, which
// ClassNamedColumns sees too (a dropped x still makes y a coordinate).
// Cost O(len(features) + len(dropped)).
func classFeatureWarnings(file string, features, dropped []string) []string {
	var out []string
	for _, c := range ClassNamedColumns(slices.Concat(features, dropped)) {
		if slices.Contains(dropped, c) {
			continue
		}
		out = append(out, fmt.Sprintf("%s: column %q is named like the classes but is read as a feature (no Options.LabelColumn): set LabelColumn %q to take it as the reference labels, or Drop it", file, c, c))
	}
	return out
}

// ClassNamedColumns returns every distinct column of features named
// label, class, target or y (any case), in that order of names, the
// first being ClassNamedColumn's. A y column does not count when there is
// an x column: x and y are then a point's coordinates. Cost
// O(len(features)).
func ClassNamedColumns(features []string) []string {
	var out []string
	// A column named x makes y its partner coordinate: a file of points
	// "x,y" has no class column.
	points := slices.ContainsFunc(features, func(f string) bool { return strings.EqualFold(FeatureColumn(f), "x") })
	for _, w := range classColumnNames {
		if w == "y" && points {
			continue
		}
		for _, f := range features {
			c := FeatureColumn(f)
			if strings.EqualFold(c, w) && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}
