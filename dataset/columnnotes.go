package dataset

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/internal/wording"
)

// This file holds the messages a table's reader gives about its feature
// columns: what one-hot encoding made of the categorical ones, columns that
// look like identifiers, and the rows MissingDrop dropped. They change no
// value of the table.

// colWhat names column j in messages: `column "color"` when the file
// names its columns, else `column 3`.
func (r *rawTable) colWhat(j int) string {
	if r.named && r.cols[j].name != "" {
		return "column " + strconv.Quote(r.cols[j].name)
	}
	return fmt.Sprintf("column %d", j+1)
}

// colRef returns how Options.Drop, Options.IDColumn and the flags -drop
// and -id can name column j: its header name when that names it alone and
// reads as a name (not first, last, none, a number, or text with a comma,
// which -drop splits at, or blanks at its ends), else its 1-based number.
// Cost O(columns).
func (r *rawTable) colRef(j int) string {
	num := strconv.Itoa(j + 1)
	name := r.cols[j].name
	if !r.named || name == "" || strings.TrimSpace(name) != name || strings.Contains(name, ",") {
		return num
	}
	switch strings.ToLower(name) {
	case "first", "last", "none":
		return num
	}
	if _, ok := parseInt(name); ok {
		return num
	}
	if k, err := r.resolve(name, ""); err != nil || k != j {
		return num
	}
	return name
}

// encodedColumn is a categorical feature column as one-hot encoding made
// it: what names it in messages (colWhat), ref as -drop names it (colRef),
// and its number of categories, which is its number of features.
type encodedColumn struct {
	what, ref string
	levels    int
}

// identifierLike reports whether a categorical column with levels
// categories over n rows looks like an identifier (names, keys) rather
// than a feature: at least 10 categories, and more than n/2 of them, so
// that a category holds fewer than two rows on average. One-hot features
// of such a column add nearly the same distance to every pair of rows.
// A column of 3 colours over 6 rows is not one; the 100 animal names of
// zoo's 101 rows are. Cost O(1).
func identifierLike(levels, n int) bool {
	return levels >= 10 && 2*levels > n
}

// maxListed is the number of columns a note lists by name before eliding.
const maxListed = 8

// encodingMessages returns the notes and warnings on the categorical
// columns cols of a table of n rows read from file: one note listing every
// column encoded, with its number of categories, and one warning for each
// column that looks like an identifier (identifierLike) instead of a note
// line. canID says whether the warning may suggest -id (the table has no
// ID column yet); sp spells the options suggested. Cost O(len(cols)).
func encodingMessages(file string, cols []encodedColumn, n int, canID bool, sp Spelling) (notes, warnings []string) {
	var plain []encodedColumn
	for _, c := range cols {
		if !identifierLike(c.levels, n) {
			plain = append(plain, c)
			continue
		}
		warnings = append(warnings, fmt.Sprintf("%s: %s: %d categories for %d rows one-hot encoded into %d features: it looks like an identifier (names, keys), not a feature; %s", file, c.what, c.levels, n, c.levels, identifierHint(c.ref, canID, sp)))
	}
	switch len(plain) {
	case 0:
	case 1:
		c := plain[0]
		notes = append(notes, fmt.Sprintf("%s: %s: %s one-hot encoded into %s (%s)", file, c.what, wording.Count(c.levels, "category", "categories"), wording.Count(c.levels, "feature", "features"), dropHint(c.ref, "", sp)))
	default:
		width := 0
		for _, c := range plain {
			width += c.levels
		}
		var list []string
		for k, c := range plain {
			if len(plain) > maxListed && k == maxListed-2 {
				list = append(list, "…")
				c = plain[len(plain)-1]
				list = append(list, fmt.Sprintf("%s (%d)", strings.TrimPrefix(c.what, "column "), c.levels))
				break
			}
			what := strings.TrimPrefix(c.what, "column ")
			if k == 0 {
				list = append(list, fmt.Sprintf("%s (%s)", what, wording.Count(c.levels, "category", "categories")))
			} else {
				list = append(list, fmt.Sprintf("%s (%d)", what, c.levels))
			}
		}
		notes = append(notes, fmt.Sprintf("%s: %d categorical columns one-hot encoded into %d features: %s (%s)", file, len(plain), width, strings.Join(list, ", "), dropHint("COLUMN", " one", sp)))
	}
	return notes, warnings
}

// classLevels reports whether a text column with levels categories over
// n rows has as few as classes have: 2 ≤ levels ≤ √n (iris's 3 species
// over 150 rows, ionosphere's g and b over 351). Cost O(1).
func classLevels(levels, n int) bool {
	return levels >= 2 && levels <= n/levels
}

// headerlessClassColumn returns the column of a file without a header,
// of m columns and n rows read with no label column, that is text with as
// few categories as classes (classLevels) where the class column of such
// a file usually is: the last column (iris, ionosphere), else the first
// (promoters), else the second when the first holds keys or is the ID or
// a dropped column (wdbc's patient IDs, then M or B); -1 when none is.
// A text column in the middle is taken for a feature. role is build's
// (0 for a feature); col(j) gives feature column j's number of categories
// (0 for a numeric or Categorical column) and whether it is numeric with
// integer keys (integerKeys). No column is returned when fewer than two
// are features: taking it as the labels would leave nothing to cluster.
// Cost O(1) calls of col.
func headerlessClassColumn(m, n int, role []byte, col func(j int) (levels int, keys bool)) int {
	features := 0
	for _, r := range role {
		if r == 0 {
			features++
		}
	}
	if features < 2 {
		return -1
	}
	candidates := []int{m - 1, 0}
	if m > 2 {
		if role[0] != 0 {
			candidates = append(candidates, 1)
		} else if _, keys := col(0); keys {
			candidates = append(candidates, 1)
		}
	}
	for _, j := range candidates {
		if role[j] != 0 {
			continue
		}
		if levels, _ := col(j); classLevels(levels, n) {
			return j
		}
	}
	return -1
}

// integerKeys reports whether vals, a numeric column of at least
// minRowNumberRows rows, holds a different integer on every row, as
// record numbers and patient IDs do. Cost O(len(vals)).
func integerKeys(vals []float64) bool {
	if len(vals) < minRowNumberRows {
		return false
	}
	seen := make(map[float64]bool, len(vals))
	for _, v := range vals {
		if v != math.Trunc(v) || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// headerlessClassWarning is the warning on column j (0-based) of m of a
// file without a header that headerlessClassColumn found, with levels
// categories over n rows; role is build's. It replaces the note on the
// column's encoding, and names the options that read it as the
// reference labels (Options.LabelColumn "first", "last" or the number,
// as sp spells -label) and leave it out.
func headerlessClassWarning(file string, j, m, levels, n int, role []byte, sp Spelling) string {
	where, ref := "the first", "first"
	switch {
	case j == m-1:
		where, ref = "the last", "last"
	case j > 0 && role[0] == 'i':
		where, ref = "after the ID column 1", strconv.Itoa(j+1)
	case j > 0 && role[0] == 'd':
		where, ref = "after the dropped column 1", strconv.Itoa(j+1)
	case j > 0:
		where, ref = "after the keys of column 1", strconv.Itoa(j+1)
	}
	return fmt.Sprintf("%s: column %d (%s) of a file without a header holds text in %d categories over %d rows, as a class column does: it is one-hot encoded into %d features, which hand the classes to the clustering if it holds them %s; %s",
		file, j+1, where, levels, n, levels, sp.Hint("label", ref, " reads it as the reference labels", fmt.Sprintf("Options.LabelColumn %q", ref)), dropHint(strconv.Itoa(j+1), "", sp))
}

// minRowNumberRows is the fewest rows for which a numeric column equal to
// the row numbers draws a warning: in a smaller table 1, 2, 3 may well be
// a feature.
const minRowNumberRows = 10

// rowNumbers reports whether vals, the values of a numeric column on the
// kept rows (keep[k] is row k's 0-based index among the rows read), are
// the row numbers in row order: k+1 or k for every k, or keep[k]+1 or
// keep[k] (numbering the rows read, before MissingDrop dropped some). It
// returns the first and last value. Cost O(len(vals)).
func rowNumbers(vals []float64, keep []int) (first, last int, ok bool) {
	if len(vals) == 0 {
		return 0, 0, false
	}
	for _, byKept := range []bool{true, false} {
		for off := 0; off <= 1; off++ {
			match := true
			for k, v := range vals {
				i := keep[k]
				if byKept {
					i = k
				}
				if v != float64(i+off) {
					match = false
					break
				}
			}
			if match {
				return int(vals[0]), int(vals[len(vals)-1]), true
			}
		}
	}
	return 0, 0, false
}

// rowNumberWarning is the warning on a numeric column what (colWhat; ref
// as -drop names it) that holds the row numbers first…last.
func rowNumberWarning(file, what, ref string, first, last int, canID bool, sp Spelling) string {
	return fmt.Sprintf("%s: %s is the row number %d…%d: an identifier, not a feature? %s", file, what, first, last, identifierHint(ref, canID, sp))
}

// integerIDWarning is the warning on a numeric column what (colWhat; ref
// as -drop and -id name it) named like an identifier that holds a
// different integer on every row, vals (integerKeys): customer numbers
// (27114, 5, 88012, …) read as a feature add distances that say nothing
// of the rows (review 118: ARI 0.004 on shuffled rows, 0.74 with -id).
// It names the options that make it the rows' names, when canID (the
// table has no ID column yet), and that leave it out, as sp spells them
// beside the library's. Cost O(len(vals)).
func integerIDWarning(file, what, ref string, vals []float64, canID bool, sp Spelling) string {
	lo, hi := slices.Min(vals), slices.Max(vals)
	idHint := ""
	if canID {
		idHint = "name the rows by it " + sp.Hint("id", ref, "", "Options.IDColumn") + " or "
	}
	return fmt.Sprintf("%s: %s is named like an identifier and holds a different integer on each of its %d rows (%s…%s): it is read as a feature, though an identifier's values say nothing of the rows; %sleave it out %s",
		file, what, len(vals), strconv.FormatFloat(lo, 'f', -1, 64), strconv.FormatFloat(hi, 'f', -1, 64), idHint, sp.Hint("drop", ref, "", "Options.Drop"))
}

// dropHint says how to leave out the column -drop names ref ("-drop 3
// leaves it out"; one, " one", for a column of several): the front end's
// option (sp), or, when it has none, deleting the column from the file.
func dropHint(ref, one string, sp Spelling) string {
	if o, ok := sp.Option("drop", ref); ok {
		return o + " leaves" + cmp.Or(one, " it") + " out"
	}
	if one != "" {
		return "deleting a column from the file leaves it out"
	}
	return "deleting the column from the file leaves it out"
}

// identifierHint says what to do with a column that looks like an
// identifier, ref as -drop names it: leave it out (dropHint) or, when
// canID (the table has no ID column yet) and the front end has the
// option (sp), make it the names of the rows.
func identifierHint(ref string, canID bool, sp Spelling) string {
	hint := dropHint(ref, "", sp)
	if o, ok := sp.Option("id", ref); ok && canID {
		hint += ", " + o + " makes it the names of the rows"
	}
	return hint
}

// missingFix is the parenthesis naming the policies that accept missing
// values, as sp spells -missing, beside the library's Options.Missing:
// "(tether: -missing impute or -missing drop; library: Options.Missing =
// MissingImpute or MissingDrop)", the library's alone when the front end
// lacks the option.
func missingFix(sp Spelling) string {
	const lib = "library: Options.Missing = MissingImpute or MissingDrop"
	if o := sp.Remedy("missing", "impute", "drop"); o != "" {
		return "(" + o + "; " + lib + ")"
	}
	return "(" + lib + ")"
}

// missingError is the error, wrapping ErrMissing, of a missing value that
// the policy refuses: a feature's under MissingReject, which names the
// policies that impute it or drop its row (missingFix), or a label's,
// which no policy imputes, naming MissingDrop, as sp spells them.
func missingError(label bool, sp Spelling) error {
	if label {
		return errorf(ErrMissing, "a missing label is never imputed: drop its row %s, or fill in the label", sp.Hint("missing", "drop", "", "Options.Missing = MissingDrop"))
	}
	return errorf(ErrMissing, "impute it (its column's mean or most frequent value) or drop its row %s", missingFix(sp))
}

// missingWord reports whether v, blanks trimmed, in any case, is what
// other programs write for a missing value, which the reader does not
// read as one unless Options.MissingMarkers lists it: NA (R), N/A and
// #N/A (spreadsheets), NULL (SQL), None (Python) or "." (SAS, Stata).
// NaN, a number to the parser, has its own error. Cost O(len(v)).
func missingWord(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "na", "n/a", "#n/a", "null", "none", ".":
		return true
	}
	return false
}

// missingWordRow returns the index, among rows, of the first of the kept
// rows whose value in column j is a missingWord, when every present value
// of the column over keep is a number or a missingWord: a column of
// numbers whose missing values are written as R or SQL write them. It
// returns -1 when no value is a missingWord or another text is present.
// Cost O(len(keep)).
func missingWordRow(rows [][]string, keep []int, j int, opt *Options) int {
	first := -1
	for _, i := range keep {
		v := rows[i][j]
		if opt.isMissing(v) {
			continue
		}
		if _, ok := parseNum(v); ok {
			continue
		}
		if !missingWord(v) {
			return -1
		}
		if first < 0 {
			first = i
		}
	}
	return first
}

// missingWordHint says that v, a missingWord among numbers, looks like a
// missing value, how the reader's missing values are written
// (Options.MissingMarkers) and the option that lists v among them (the
// front end's list, which adds to ? and empty: markersWith), and, under
// MissingReject, the policies that accept them (missingFix), as
// opt.Spelling spells them.
func missingWordHint(v string, opt *Options) string {
	list := opt.Spelling.Hint("missing-markers", markersWith(opt.MissingMarkers, v), "", "Options.MissingMarkers")
	hint := fmt.Sprintf("%s looks like a missing value, which is written ? or left empty: write it so, or list it among the markers of missing values %s", quote(v), list)
	if opt.MissingMarkers != nil {
		hint = fmt.Sprintf("%s looks like a missing value, which the markers of missing values do not list: list it %s", quote(v), list)
	}
	switch opt.Missing {
	case MissingImpute:
		return hint + ", and it is imputed as the other missing values are"
	case MissingDrop:
		return hint + ", and its row is dropped as the other rows with missing values are"
	}
	return hint + ", then impute it or drop its row " + missingFix(opt.Spelling)
}

// droppedWarning says how many of total rows were dropped for missing
// values and lists the lines of all of them, runs of consecutive lines
// as ranges ("lines 2–6, 70, 88–90"), naming the option that dropped
// them as sp spells it.
func droppedWarning(file string, lines []int, total int, sp Spelling) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: dropped %d of %d rows with missing values %s: line", file, len(lines), total, sp.Hint("missing", "drop", "", "Options.Missing = MissingDrop"))
	if len(lines) > 1 {
		b.WriteString("s")
	}
	b.WriteString(" ")
	b.WriteString(lineRanges(lines))
	return b.String()
}

// lineRanges writes increasing line numbers compactly: "2–6, 70, 88–90".
// Cost O(len(lines)).
func lineRanges(lines []int) string {
	var parts []string
	for k := 0; k < len(lines); {
		e := k
		for e+1 < len(lines) && lines[e+1] == lines[e]+1 {
			e++
		}
		switch {
		case e == k:
			parts = append(parts, strconv.Itoa(lines[k]))
		case e == k+1:
			parts = append(parts, strconv.Itoa(lines[k]), strconv.Itoa(lines[e]))
		default:
			parts = append(parts, fmt.Sprintf("%d–%d", lines[k], lines[e]))
		}
		k = e + 1
	}
	return strings.Join(parts, ", ")
}

// imputedNote says that MissingImpute filled cells missing values, in
// rows rows and in the columns cols marks, and how, naming the option as
// sp spells it.
func imputedNote(file string, cells, rows int, cols []bool, sp Spelling) string {
	ncols := 0
	for _, c := range cols {
		if c {
			ncols++
		}
	}
	return fmt.Sprintf("%s: imputed %s in %s and %s: a numeric column's by the mean of its other values, a categorical column's by its most frequent value %s",
		file, wording.Count(cells, "missing value", "missing values"), wording.Count(rows, "row", "rows"), wording.Count(ncols, "column", "columns"), sp.Hint("missing", "impute", "", "Options.Missing = MissingImpute"))
}
