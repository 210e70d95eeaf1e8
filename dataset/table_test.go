package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// rows returns the rows of t.X.
func rows(t *Table) [][]float64 {
	n, p := t.X.Dims()
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, p)
		for j := range out[i] {
			out[i][j] = t.X.At(i, j)
		}
	}
	return out
}

func closeRows(a, b [][]float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if math.Abs(a[i][j]-b[i][j]) > tol {
				return false
			}
		}
	}
	return true
}

func TestReadTable(t *testing.T) {
	// Every expected matrix below is worked out by hand from the input.
	cases := []struct {
		name     string
		in       string
		opt      Options
		x        [][]float64
		labels   []int
		classes  []string
		features []string
		ids      []string
	}{
		{
			name:     "plain csv, label last, no final newline",
			in:       "1,2,a\n3,4,b\n5,6,a",
			opt:      Options{LabelColumn: "last"},
			x:        [][]float64{{1, 2}, {3, 4}, {5, 6}},
			labels:   []int{0, 1, 0},
			classes:  []string{"a", "b"},
			features: []string{"col1", "col2"},
		},
		{
			name:     "label first, leading-dot numbers, CRLF, blank trailing lines",
			in:       "1,.28,2\r\n2,-.5,3\r\n10,1e1,4\r\n\r\n\r\n",
			opt:      Options{LabelColumn: "first"},
			x:        [][]float64{{0.28, 2}, {-0.5, 3}, {10, 4}},
			labels:   []int{0, 1, 2}, // numeric sort: 1 < 2 < 10
			classes:  []string{"1", "2", "10"},
			features: []string{"col2", "col3"},
		},
		{
			name:     "quoted fields with header, label by name",
			in:       "\"Class\",\"A/DA\",\"Max IP\"\n\"car\",\"1.5\",\"2\"\n\"adi\",\"2.5\",\"3\"\n",
			opt:      Options{LabelColumn: "class"},
			x:        [][]float64{{1.5, 2}, {2.5, 3}},
			labels:   []int{1, 0},
			classes:  []string{"adi", "car"},
			features: []string{"A/DA", "Max IP"},
		},
		{
			name:     "tab separated with header and spaces in names",
			in:       "Hobby\tMarital status\ttarget\n2.0\t1.0\t1\n3.0\t2.0\t2\n",
			opt:      Options{LabelColumn: "target"},
			x:        [][]float64{{2, 1}, {3, 2}},
			labels:   []int{0, 1},
			classes:  []string{"1", "2"},
			features: []string{"Hobby", "Marital status"},
		},
		{
			name: "whitespace separated, id column, dropped column",
			in:   "  r1  1.0   7  0.5\n r2 2.0 8 1.5  \n",
			opt:  Options{IDColumn: "1", Drop: []string{"3"}},
			x:    [][]float64{{1, 0.5}, {2, 1.5}},
			ids:  []string{"r1", "r2"},
			// No label column: Labels stays nil.
			features: []string{"col2", "col4"},
		},
		{
			// Values with commas that are not all numbers stay categories;
			// listed in Categorical, comma numbers are categories too.
			name:     "comma values that are not numbers",
			in:       "c;v\n\"1,5\";1\nred,blue;2\n",
			opt:      Options{},
			x:        [][]float64{{1, 0, 1}, {0, 1, 2}},
			features: []string{"c=1,5", "c=red,blue", "v"},
		},
		{
			name:     "comma numbers listed as categorical",
			in:       "c;v\n1,5;1\n2,5;2\n",
			opt:      Options{Categorical: []string{"c"}},
			x:        [][]float64{{1, 0, 1}, {0, 1, 2}},
			features: []string{"c=1,5", "c=2,5", "v"},
		},
		{
			name:     "semicolon separated",
			in:       "1;2\n3;4\n",
			opt:      Options{},
			x:        [][]float64{{1, 2}, {3, 4}},
			features: []string{"col1", "col2"},
		},
		{
			name: "categorical column one-hot in sorted order",
			in:   "x,1\ny,2\nx,3\nz,4\n",
			opt:  Options{},
			x: [][]float64{
				{1, 0, 0, 1},
				{0, 1, 0, 2},
				{1, 0, 0, 3},
				{0, 0, 1, 4},
			},
			features: []string{"col1=x", "col1=y", "col1=z", "col2"},
		},
		{
			name:     "forced categorical numeric codes",
			in:       "2,1\n1,2\n2,3\n",
			opt:      Options{Categorical: []string{"first"}},
			x:        [][]float64{{0, 1, 1}, {1, 0, 2}, {0, 1, 3}},
			features: []string{"col1=1", "col1=2", "col2"},
		},
		{
			name: "minmax scaling",
			// col1 in [2,6]: (x−2)/4; col2 constant → 0.
			in:  "2,5\n4,5\n6,5\n",
			opt: Options{Scale: ScaleMinMax},
			x:   [][]float64{{0, 0}, {0.5, 0}, {1, 0}},
			// One-hot columns are never scaled; covered by the zoo test.
			features: []string{"col1", "col2"},
		},
		{
			name: "zscore scaling",
			// col1 = 1,2,3: mean 2, population sd √(2/3).
			in:       "1\n2\n3\n",
			opt:      Options{Scale: ScaleZScore, Header: HeaderNo},
			x:        [][]float64{{-1 / math.Sqrt(2.0/3)}, {0}, {1 / math.Sqrt(2.0/3)}},
			features: []string{"col1"},
		},
		{
			name: "impute mean and mode",
			// col1 mean of 1,3 = 2; col2 mode of a,a,b = a.
			in:       "1,a\n?,?\n3,a\n5,b\n",
			opt:      Options{Missing: MissingImpute},
			x:        [][]float64{{1, 1, 0}, {3, 1, 0}, {3, 1, 0}, {5, 0, 1}},
			features: []string{"col1", "col2=a", "col2=b"},
		},
		{
			name:     "drop rows with missing values",
			in:       "h1,h2,cls\n1,,x\n2,3,y\n?,4,x\n5,6,x\n",
			opt:      Options{Missing: MissingDrop, LabelColumn: "cls"},
			x:        [][]float64{{2, 3}, {5, 6}},
			labels:   []int{1, 0},
			classes:  []string{"x", "y"},
			features: []string{"h1", "h2"},
		},
		{
			name:     "custom missing marker NA",
			in:       "1,NA\n3,4\n",
			opt:      Options{Missing: MissingImpute, MissingMarkers: []string{"NA"}},
			x:        [][]float64{{1, 4}, {3, 4}},
			features: []string{"col1", "col2"},
		},
		{
			name:     "header yes on numeric names, MaxRows",
			in:       "1,2\n3,4\n5,6\nbad line\n",
			opt:      Options{Header: HeaderYes, MaxRows: 2},
			x:        [][]float64{{3, 4}, {5, 6}},
			features: []string{"1", "2"},
		},
		{
			name:     "all-categorical file with header detected by uniqueness",
			in:       "a,b,cls\nx,o,p\no,x,n\nx,x,p\n",
			opt:      Options{LabelColumn: "cls"},
			x:        [][]float64{{0, 1, 1, 0}, {1, 0, 0, 1}, {0, 1, 0, 1}},
			labels:   []int{1, 0, 1},
			classes:  []string{"n", "p"},
			features: []string{"a=o", "a=x", "b=o", "b=x"},
		},
		{
			name: "comment lines",
			in:   "# generated\n1,2\n  # mid\n3,4\n",
			opt:  Options{Comment: "#"},
			x:    [][]float64{{1, 2}, {3, 4}}, features: []string{"col1", "col2"},
		},
		{
			name: "quoted field with embedded delimiter and doubled quote",
			in:   "\"a,\"\"b\",1\nc,2\n",
			opt:  Options{IDColumn: "first"},
			x:    [][]float64{{1}, {2}}, ids: []string{`a,"b`, "c"}, features: []string{"col2"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb, err := Read(context.Background(), strings.NewReader(c.in), "t.csv", c.opt)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if got := rows(tb); !closeRows(got, c.x, 1e-12) {
				t.Errorf("X = %v, want %v", got, c.x)
			}
			if !reflect.DeepEqual(tb.Labels, c.labels) {
				t.Errorf("Labels = %v, want %v", tb.Labels, c.labels)
			}
			if !reflect.DeepEqual(tb.ClassNames, c.classes) {
				t.Errorf("ClassNames = %q, want %q", tb.ClassNames, c.classes)
			}
			if !reflect.DeepEqual(tb.Features, c.features) {
				t.Errorf("Features = %q, want %q", tb.Features, c.features)
			}
			if !reflect.DeepEqual(tb.IDs, c.ids) {
				t.Errorf("IDs = %q, want %q", tb.IDs, c.ids)
			}
		})
	}
}

func TestReadTableErrors(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		opt      Options
		sentinel error
		// parts must all occur in the message.
		parts []string
	}{
		{"missing value rejected", "1,2\n3,?\n", Options{}, ErrMissing, []string{"t.csv:2", "column 2", `"?"`}},
		{"missing label even when imputing", "1,a\n2,?\n3,b\n", Options{LabelColumn: "last", Missing: MissingImpute}, ErrMissing, []string{"t.csv:2", "column 2"}},
		{"wrong field count", "1,2\n3\n", Options{}, ErrSyntax, []string{"t.csv:2", "1 field, want 2 as on line 1"}},
		{"mixed column", "h\n1\n2\nx3\n", Options{}, ErrSyntax, []string{"t.csv:4", "column 1 (\"h\")", `"x3"`, "Categorical"}},
		{"unterminated quote", "1,\"2\n", Options{}, ErrSyntax, []string{"t.csv:1", "character 3", "unterminated"}},
		{"unknown label name", "a,b\n1,2\n", Options{LabelColumn: "c"}, ErrInvalid, []string{"label column", `"c"`, "no such column"}},
		{"label name without header", "1,2\n3,4\n", Options{LabelColumn: "c"}, ErrInvalid, []string{"no header"}},
		{"column number out of range", "1,2\n", Options{LabelColumn: "3"}, ErrInvalid, []string{"outside 1…2"}},
		{"label name of two columns", "x,x,c\n1,5,a\n2,6,b\n", Options{LabelColumn: "x"}, ErrInvalid, []string{"label column", `"x"`, "columns 1 and 2 are both named"}},
		{"id name of two columns", "x,x,c\n1,5,a\n2,6,b\n", Options{LabelColumn: "c", IDColumn: "x"}, ErrInvalid, []string{"ID column", "columns 1 and 2 are both named"}},
		{"no feature left", "1,2\n", Options{LabelColumn: "1", IDColumn: "2"}, ErrInvalid, []string{"no feature columns"}},
		{"label equals id", "1,2\n", Options{LabelColumn: "1", IDColumn: "first"}, ErrInvalid, []string{"also the label"}},
		{"empty", "\n\n", Options{}, ErrSyntax, []string{"no data"}},
		{"nan is not a number", "1\nNaN\n", Options{Header: HeaderNo}, ErrSyntax, []string{"t.csv:2", `"NaN"`}},
		// Values written as numbers that are not finite are bad values
		// wherever they are: never a header (the row was dropped), never
		// the levels of a categorical column, and the error names them.
		{"first row Inf is not a header", "Inf\n1\n2\n", Options{}, ErrSyntax, []string{"t.csv:1", `"Inf"`, "not a finite decimal number"}},
		{"NaN before numbers", "1,NaN\n2,3\n4,5\n", Options{}, ErrSyntax, []string{"t.csv:1", "column 2", `"NaN"`, "not a finite decimal number"}},
		{"overflow before numbers", "x,y\n1,1e400\n2,3\n", Options{}, ErrSyntax, []string{"t.csv:2", `column 2 ("y")`, `"1e400"`, "not a finite decimal number"}},
		{"column of NaN", "x,y\n1,NaN\n2,NaN\n3,nan\n", Options{}, ErrSyntax, []string{"t.csv:2", `column 2 ("y")`, `"NaN"`, "not a finite decimal number"}},
		{"cell limit", "a\nb\nc\nd\na\n", Options{Header: HeaderNo, MaxCells: 8}, ErrTooLarge, []string{"distinct values"}},
		// A text column with a different value on every row is names or
		// keys: one-hot encoded, it gave each row a feature of its own.
		{"identifier column", "name,x\nann,1\nbob,2\ncid,3\n", Options{}, ErrIdentifier, []string{`column 1 ("name")`, "a different text on every one of the 3 rows that have one", "-id name", "-categorical 1"}},
		{"identifier column, no header", "1,ann\n2,bob\n3,cid\n", Options{Header: HeaderNo}, ErrIdentifier, []string{"column 2", "-id 2", "-categorical 2"}},
		{"all missing column imputed", "1,?\n2,?\n", Options{Missing: MissingImpute}, ErrMissing, []string{"column 2", "every value"}},
		// A file saved with decimal commas (semicolon-separated) used to
		// be read as a categorical column, one-hot encoded without a word.
		{"decimal commas", "x;y\n1,5;2\n2,25;3\n-0,5;4\n", Options{}, ErrSyntax, []string{"t.csv:2", `column 1 ("x")`, `"1,5"`, "decimal comma", "-categorical 1"}},
		// The same with every value different: the header rule finds no
		// number under "x;y" and reads it as data, and the columns were
		// called names or keys (ErrIdentifier, on which tether took
		// column 1 for the rows' names and blamed "y").
		{"decimal commas, distinct values", "x;y\n1,5;2,25\n3,5;4,75\n5,25;6,5\n7,125;8,5\n10,5;10,25\n", Options{}, ErrSyntax, []string{"t.csv:2", `column 1 ("col1")`, `"1,5"`, "below line 1", `"x"`, "decimal comma", "-header yes", "-categorical 1"}},
		{"decimal commas, distinct values, ID given", "x;y\n1,5;2,25\n3,5;4,75\n5,25;6,5\n", Options{IDColumn: "1"}, ErrSyntax, []string{"t.csv:2", `column 2 ("col2")`, `"2,25"`, `"y"`, "decimal comma", "-header yes", "-categorical 2"}},
		{"decimal commas, distinct values, blank first", "x;y\n?;2,25\n3,5;4,75\n5,25;6,5\n7,125;8,5\n", Options{Missing: MissingImpute}, ErrSyntax, []string{"t.csv:3", `column 1 ("col1")`, `"3,5"`, "decimal comma"}},
		// Numbers with a unit were one-hot encoded as categories.
		{"percentages", "x,rate\n1,45%\n2,12 %\n3,?\n4,45%\n", Options{Missing: MissingImpute}, ErrSyntax, []string{"t.csv:2", `column 2 ("rate")`, `"45%"`, `written with "%"`, "-categorical 2"}},
		{"dollars", "x;price\n1;$5\n2;$ 7.5\n", Options{}, ErrSyntax, []string{`column 2 ("price")`, `written with "$"`}},
		{"thousands separators", "x\ty\n\"1,234.5\"\t2\n\"12,000\"\t3\n?\t4\n", Options{Missing: MissingImpute}, ErrSyntax, []string{"t.csv:2", `column 1 ("x")`, `"1,234.5"`, "thousands separator"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(context.Background(), strings.NewReader(c.in), "t.csv", cli(c.opt))
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, c.sentinel) {
				t.Errorf("error %q does not wrap %v", err, c.sentinel)
			}
			if c.sentinel != ErrIdentifier && errors.Is(err, ErrIdentifier) {
				t.Errorf("error %q wraps ErrIdentifier", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "dataset: ") {
				t.Errorf("message %q lacks the package prefix", msg)
			}
			for _, p := range c.parts {
				if !strings.Contains(msg, p) {
					t.Errorf("message %q lacks %q", msg, p)
				}
			}
		})
	}
}

// TestMissingValueMessages: a missing value the policy refuses names the
// policies that accept it (review 118: "value \"\": missing value" said
// nothing of -missing), a missing label the one that drops its row; R's
// NA, SQL's NULL and their like in a column of numbers, which the reader
// does not read as missing, say they look like missing values and how
// to write them, where they were told to fix the value or one-hot encode
// the column, or, among distinct numbers, to take the column for names;
// so does NaN, which numpy and R write for a missing number (stop 59).
// They are errors as before: what is read as missing is unchanged. Text
// that is not such a word, and Inf, keep their messages. A column with
// no value says how to leave it out.
func TestMissingValueMessages(t *testing.T) {
	const (
		fix     = "(tether: -missing impute or -missing drop; library: Options.Missing = MissingImpute or MissingDrop)"
		written = "looks like a missing value, which is written ? or left empty: write it so, or list it among the markers of missing values (tether: -missing-markers "
	)
	var distinct strings.Builder
	distinct.WriteString("x,y\n")
	for i := 0; i < 12; i++ {
		y := fmt.Sprintf("%d.25", 3*i)
		if i == 5 {
			y = "N/A"
		}
		fmt.Fprintf(&distinct, "%d,%s\n", i%3, y)
	}
	for _, c := range []struct {
		name, file, in string
		opt            Options
		want           string
	}{
		{"empty cell", "miss.csv", "sepal_length,petal_length,sepal_width\n5.1,1.4,3.5\n4.9,1.4,\n", Options{},
			`dataset: miss.csv:3: column 3 ("sepal_width"): value "": missing value: impute it (its column's mean or most frequent value) or drop its row ` + fix},
		{"missing label", "t.csv", "x,label\n1,a\n2,?\n3,b\n", Options{LabelColumn: "label", Missing: MissingImpute},
			`dataset: t.csv:3: column 2 ("label"): value "?": missing value: a missing label is never imputed: drop its row (tether: -missing drop; library: Options.Missing = MissingDrop), or fill in the label`},
		{"NA after numbers", "r.csv", "x,y\n1,3.5\n2,NA\n3,4.5\n", Options{},
			`dataset: r.csv:3: column 2 ("y"): value "NA": syntax error: not a number, but line 2 has "3.5": "NA" ` + written + `NA; library: Options.MissingMarkers), then impute it or drop its row ` + fix},
		{"NA first", "r.csv", "x,y\n1,NA\n2,3.5\n3,NA\n", Options{},
			`dataset: r.csv:2: column 2 ("y"): value "NA": syntax error: not a number, but line 3 has "3.5": "NA" ` + written + `NA; library: Options.MissingMarkers), then impute it or drop its row ` + fix},
		{"N/A among distinct numbers", "d.csv", distinct.String(), Options{},
			`dataset: d.csv:7: column 2 ("y"): value "N/A": syntax error: not a number, but line 2 has "0.25": "N/A" ` + written + `N/A; library: Options.MissingMarkers), then impute it or drop its row ` + fix},
		{"NULL, imputing", "s.csv", "x,y\n1,2\n2,NULL\n3,null\n", Options{Missing: MissingImpute},
			`dataset: s.csv:3: column 2 ("y"): value "NULL": syntax error: not a number, but line 2 has "2": "NULL" ` + written + `NULL; library: Options.MissingMarkers), and it is imputed as the other missing values are`},
		{"None, dropping", "p.csv", "x,y\n1,2\n2,None\n3,?\n", Options{Missing: MissingDrop},
			`dataset: p.csv:3: column 2 ("y"): value "None": syntax error: not a number, but line 2 has "2": "None" ` + written + `None; library: Options.MissingMarkers), and its row is dropped as the other rows with missing values are`},
		{"markers given", "m.csv", "x,y\n1,2\n2,NA\n3,-\n", Options{MissingMarkers: []string{"-"}, Missing: MissingImpute},
			`dataset: m.csv:3: column 2 ("y"): value "NA": syntax error: not a number, but line 2 has "2": "NA" looks like a missing value, which the markers of missing values do not list: list it (tether: -missing-markers -,NA; library: Options.MissingMarkers), and it is imputed as the other missing values are`},
		{"ARFF numeric attribute", "a.arff", "@relation r\n@attribute x numeric\n@attribute c {a,b}\n@data\n1,a\nNA,b\n", Options{},
			`dataset: a.arff:6: column 1 ("x"): value "NA": syntax error: not a number: "NA" ` + written + `NA; library: Options.MissingMarkers), then impute it or drop its row ` + fix},
		{"other text", "o.csv", "x,y\n1,2\n2,abc\n3,4\n", Options{},
			`dataset: o.csv:3: column 2 ("y"): value "abc": syntax error: not a number, but line 2 has "2": fix the value, or one-hot encode the column (tether: -categorical 2; library: Options.Categorical)`},
		{"NA beside other text", "o.csv", "x,y\n1,2\n2,NA\n3,abc\n", Options{},
			`dataset: o.csv:3: column 2 ("y"): value "NA": syntax error: not a number, but line 2 has "2": fix the value, or one-hot encode the column (tether: -categorical 2; library: Options.Categorical)`},
		{"NaN", "n.csv", "x,y\n1,2\n2,NaN\n", Options{},
			`dataset: n.csv:3: column 2 ("y"): value "NaN": syntax error: not a finite decimal number: "NaN" ` + written + `NaN; library: Options.MissingMarkers), then impute it or drop its row ` + fix},
		{"nan, imputing", "n.csv", "x,y\n1,2\n2, nan\n", Options{Missing: MissingImpute},
			`dataset: n.csv:3: column 2 ("y"): value "nan": syntax error: not a finite decimal number: "nan" ` + written + `nan; library: Options.MissingMarkers), and it is imputed as the other missing values are`},
		{"Inf", "n.csv", "x,y\n1,2\n2,Inf\n", Options{},
			`dataset: n.csv:3: column 2 ("y"): value "Inf": syntax error: not a finite decimal number (a missing value is written ? or left empty)`},
		{"column all missing", "e.csv", "x,y\n1,?\n2,?\n", Options{Missing: MissingImpute},
			`dataset: e.csv: column 2 ("y"): missing value: every value of the column is missing: cannot impute; leave it out (tether: -drop y; library: Options.Drop)`},
		{"categorical column all missing", "e.csv", "x,y\n1,?\n2,?\n", Options{Missing: MissingImpute, Categorical: []string{"2"}},
			`dataset: e.csv: column 2 ("y"): missing value: every value of the column is missing: cannot impute; leave it out (tether: -drop y; library: Options.Drop)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(context.Background(), strings.NewReader(c.in), c.file, cli(c.opt))
			if err == nil || err.Error() != c.want {
				t.Errorf("error\n%v\nwant\n%s", err, c.want)
			}
		})
	}
}

// TestMissingOnlyColumnWarns: a column holding nothing but a word other
// programs write for a missing value (NA, NULL) is one category, one
// constant feature: it changes no distance, and the user most likely
// meant an empty column. It warns, naming -drop, where it was only in
// the note on one-hot encoding (stop 58's notes). A constant column of
// another text, or two levels of which one is NA, keep the note.
func TestMissingOnlyColumnWarns(t *testing.T) {
	for _, c := range []struct {
		name, in string
		warn     bool
	}{
		{"NA only", "x,y,z\n1,NA,1\n2,NA,2\n3,NA,4\n", true},
		{"null only", "x,y,z\n1,null,1\n2,null,2\n3,null,4\n", true},
		{"one other text", "x,y,z\n1,red,1\n2,red,2\n3,red,4\n", false},
		{"NA and another text", "x,y,z\n1,NA,1\n2,red,2\n3,NA,4\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tab, err := Read(context.Background(), strings.NewReader(c.in), "na.csv", cli(Options{}))
			if err != nil {
				t.Fatal(err)
			}
			warned := slices.ContainsFunc(tab.Warnings, func(w string) bool {
				return strings.Contains(w, `na.csv: column "y" holds only`) && strings.Contains(w, "looks like a missing value") && strings.Contains(w, "(tether: -drop y; library: Options.Drop)")
			})
			if warned != c.warn {
				t.Errorf("warned %v, want %v: warnings %q notes %q", warned, c.warn, tab.Warnings, tab.Notes)
			}
			noted := slices.ContainsFunc(tab.Notes, func(n string) bool { return strings.Contains(n, `"y"`) })
			if noted == c.warn {
				t.Errorf("encoding note %v, want %v: %q", noted, !c.warn, tab.Notes)
			}
		})
	}
}

const zooLike = "% comment\r\n@RELATION zoo\r\n\r\n@ATTRIBUTE animal {aardvark,bass,frog}\r\n" +
	"@ATTRIBUTE 'has hair' {false, true}\r\n@attribute legs INTEGER [0,9]\r\n" +
	"@attribute \"weight kg\" real\r\n@ATTRIBUTE type { mammal, bird, fish }\r\n@DATA\r\n%\r\n" +
	"aardvark,true,4,30.5,mammal\r\n% between rows\r\nbass,false,0,?,fish\r\n" +
	"frog,'false',4,0.1,fish\r\n%\r\n"

func TestReadARFF(t *testing.T) {
	tb, err := Read(context.Background(), strings.NewReader(zooLike), "zoo.arff", Options{IDColumn: "animal", Missing: MissingImpute})
	if err != nil {
		t.Fatal(err)
	}
	// "weight kg" imputed with the mean of 30.5 and 0.1 = 15.3. Class
	// numbering follows the declaration with "bird" (absent) left out.
	want := [][]float64{
		{0, 1, 4, 30.5},
		{1, 0, 0, 15.3},
		{1, 0, 4, 0.1},
	}
	if got := rows(tb); !closeRows(got, want, 1e-12) {
		t.Errorf("X = %v, want %v", got, want)
	}
	if !reflect.DeepEqual(tb.Labels, []int{0, 1, 1}) || !reflect.DeepEqual(tb.ClassNames, []string{"mammal", "fish"}) {
		t.Errorf("labels %v %q", tb.Labels, tb.ClassNames)
	}
	wantF := []string{"has hair=false", "has hair=true", "legs", "weight kg"}
	if !reflect.DeepEqual(tb.Features, wantF) {
		t.Errorf("Features = %q, want %q", tb.Features, wantF)
	}
	if !reflect.DeepEqual(tb.IDs, []string{"aardvark", "bass", "frog"}) {
		t.Errorf("IDs = %q", tb.IDs)
	}

	// Errors name the line.
	bad := []struct {
		in    string
		parts []string
	}{
		{"@relation r\n@attribute a {x,y}\n@data\nz\n", []string{"r.arff:4", `"z"`, "declared nominal"}},
		{"@relation r\n@attribute a numeric\n@data\n1,2\n", []string{"r.arff:4", "2 values, want 1"}},
		{"@relation r\n@attribute a date\n@data\n", []string{"r.arff:2", "not supported"}},
		{"@relation r\n@attribute a numeric\n@data\n{0 1}\n", []string{"r.arff:4", "sparse"}},
		{"@relation r\n@attribute a numeric\n@data\nabc\n", []string{"r.arff:4", `"abc"`, "not a number"}},
		{"@relation r\n@attribute a numeric\n", []string{"no @data"}},
	}
	for _, b := range bad {
		_, err := ReadARFF(context.Background(), strings.NewReader(b.in), "r.arff", Options{LabelColumn: "none"})
		if err == nil {
			t.Errorf("%q: no error", b.in)
			continue
		}
		for _, p := range b.parts {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("%q: message %q lacks %q", b.in, err, p)
			}
		}
	}
}

// TestReadARFFDelimitedOptions: the options of delimited text (Delimiter,
// Header, Comment) with an ARFF file are an error naming the file and the
// option, whether the format is given, chosen by ReadFile's extension or
// detected from @relation (they were ignored: tether cluster -input x.arff
// -delim ';' read the commas). "%", ARFF's own comment, and HeaderAuto
// (the zero value) are accepted.
func TestReadARFFDelimitedOptions(t *testing.T) {
	const arff = "@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p\n2,q\n"
	cases := []struct {
		name   string
		format Format
		opt    Options
		want   string // "" for none
	}{
		{"delimiter", FormatARFF, Options{Delimiter: ";"}, `dataset: r.arff: invalid input: Options.Delimiter ";" does not apply to an ARFF file, whose @data fields are separated by commas (tether: -delim)`},
		{"comma delimiter", FormatARFF, Options{Delimiter: ","}, `Options.Delimiter "," does not apply to an ARFF file`},
		{"header", FormatARFF, Options{Header: HeaderNo}, "dataset: r.arff: invalid input: Options.Header no does not apply to an ARFF file, whose columns are named by its @attribute lines (tether: -header)"},
		{"comment", FormatARFF, Options{Comment: "#"}, `dataset: r.arff: invalid input: Options.Comment "#" does not apply to an ARFF file, whose comments begin with %`},
		{"detected, delimiter", FormatAuto, Options{Delimiter: "tab"}, `dataset: r.arff: invalid input: Options.Delimiter "tab" does not apply to an ARFF file (it begins with @relation), whose @data fields`},
		{"detected, header", FormatAuto, Options{Header: HeaderYes}, "Options.Header yes does not apply to an ARFF file (it begins with @relation)"},
		{"percent comment", FormatARFF, Options{Comment: "%"}, ""},
		{"header auto", FormatARFF, Options{Header: HeaderAuto}, ""},
		{"delimited", FormatDelimited, Options{Delimiter: ";", Header: HeaderYes, Comment: "#", LabelColumn: "last"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := arff
			if tc.format == FormatDelimited {
				in = "a;c\n1;p\n2;q\n"
			}
			opt := cli(tc.opt)
			opt.Format = tc.format
			tb, err := Read(context.Background(), strings.NewReader(in), "r.arff", opt)
			if tc.want == "" {
				if err != nil || len(tb.Labels) != 2 {
					t.Fatalf("got %v, %v; want two rows", tb, err)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a *ParseError wrapping ErrInvalid containing %q", err, tc.want)
			}
		})
	}
	// ReadFile chooses ARFF by the extension.
	path := filepath.Join(t.TempDir(), "x.arff")
	if err := os.WriteFile(path, []byte(arff), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(context.Background(), path, Options{Delimiter: ";"})
	if want := path + `: invalid input: Options.Delimiter ";" does not apply to an ARFF file,`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ReadFile: error %v, want %q", err, want)
	}
}

func TestWriteCSVRoundTrip(t *testing.T) {
	in := "f1,f2,label\n0.1,1e-300,b\n-2.5,3,a\n"
	tb, err := Read(context.Background(), strings.NewReader(in), "in.csv", Options{LabelColumn: "last"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, tb); err != nil {
		t.Fatal(err)
	}
	if buf.String() != in {
		t.Errorf("WriteCSV =\n%s\nwant\n%s", buf.String(), in)
	}
	back, err := Read(context.Background(), &buf, "out.csv", Options{LabelColumn: "last"})
	if err != nil {
		t.Fatal(err)
	}
	if !closeRows(rows(back), rows(tb), 0) || !reflect.DeepEqual(back.Labels, tb.Labels) {
		t.Error("round trip changed the table")
	}
}

func TestClassNamedColumn(t *testing.T) {
	for _, tc := range []struct {
		features []string
		want     string
	}{
		{[]string{"x1", "x2", "label"}, "label"},
		{[]string{"Class=a", "Class=b", "x"}, "Class"},
		{[]string{"x", "TARGET"}, "TARGET"},
		{[]string{"y", "class"}, "class"},      // by name: class before y
		{[]string{"y", "x", "label"}, "label"}, // label, the most specific, wherever it is
		{[]string{"y", "z"}, "y"},
		{[]string{"x", "y"}, ""},      // a point's coordinates
		{[]string{"Y", "X", "z"}, ""}, // any case
		{[]string{"x", "y", "class"}, "class"},
		{[]string{"labels", "classy", "=y"}, ""},
		{nil, ""},
	} {
		if got := ClassNamedColumn(tc.features); got != tc.want {
			t.Errorf("ClassNamedColumn(%q) = %q, want %q", tc.features, got, tc.want)
		}
	}
	got := ClassNamedColumns([]string{"y", "Class=a", "Class=b", "w", "LABEL", "target"})
	if want := []string{"LABEL", "Class", "target", "y"}; !slices.Equal(got, want) {
		t.Errorf("ClassNamedColumns = %q, want %q", got, want)
	}
	got = ClassNamedColumns([]string{"y", "Class=a", "Class=b", "x", "LABEL", "target"})
	if want := []string{"LABEL", "Class", "target"}; !slices.Equal(got, want) {
		t.Errorf("ClassNamedColumns = %q, want %q", got, want)
	}
}

// TestClassNamedFeatureWarning: a column named like the classes that is
// read as a feature because no Options.LabelColumn was given is kept a
// feature (the table is what it was), with a warning naming the library
// fields (review 49, finding 4); a label column given, "none", a dropped
// column, x beside y and an ARFF class attribute give none. The expected
// features are the columns of each file, label's two categories one-hot
// encoded.
func TestClassNamedFeatureWarning(t *testing.T) {
	const file = "x1,x2,label\n0,1,a\n1,0,a\n5,6,b\n6,5,b\n"
	warn := func(c string) string {
		return `t.csv: column "` + c + `" is named like the classes but is read as a feature (no Options.LabelColumn): set LabelColumn "` + c + `" to take it as the reference labels, or Drop it`
	}
	for _, tc := range []struct {
		name, file, content string
		opt                 Options
		features            []string
		warnings            []string
	}{
		{"zero options", "t.csv", file, Options{}, []string{"x1", "x2", "label=a", "label=b"}, []string{warn("label")}},
		{"numeric classes", "t.csv", "x1,Class\n0,1\n1,2\n", Options{}, []string{"x1", "Class"}, []string{warn("Class")}},
		{"two class-named columns", "t.csv", "y,u,label\n5,0,a\n6,1,b\n", Options{}, []string{"y", "u", "label=a", "label=b"}, []string{warn("label"), warn("y")}},
		{"label column given", "t.csv", file, Options{LabelColumn: "label"}, []string{"x1", "x2"}, nil},
		{"label none", "t.csv", file, Options{LabelColumn: "none"}, []string{"x1", "x2", "label=a", "label=b"}, nil},
		{"dropped", "t.csv", file, Options{Drop: []string{"label"}}, []string{"x1", "x2"}, nil},
		{"x and y", "t.csv", "x,y\n0,1\n1,0\n", Options{}, []string{"x", "y"}, nil},
		// A dropped column is a column of the file still: y beside a
		// dropped x is x's partner, and a dropped label leaves y named
		// like the classes.
		{"x dropped beside y", "t.csv", "x,y,u\n0,1,2\n1,0,3\n", Options{Drop: []string{"x"}}, []string{"y", "u"}, nil},
		{"label dropped beside y", "t.csv", "y,u,label\n5,0,a\n6,1,b\n", Options{Drop: []string{"label"}}, []string{"y", "u"}, []string{warn("y")}},
		{"arff class attribute", "t.arff", "@relation r\n@attribute label numeric\n@attribute class {p,q}\n@data\n1,p\n2,q\n", Options{}, []string{"label"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			tab, err := ReadFile(context.Background(), path, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tab.Features, tc.features) {
				t.Errorf("features %q, want %q", tab.Features, tc.features)
			}
			var got []string
			for _, w := range tab.Warnings {
				got = append(got, strings.Replace(w, path, tc.file, 1))
			}
			if !slices.Equal(got, tc.warnings) {
				t.Errorf("warnings %q, want %q", got, tc.warnings)
			}
		})
	}
}

// TestLabelColumnWarning: a label column that does not look like classes
// — a different value on every row, or numbers not all integers with more
// distinct values than n/2, at least 10 — draws a warning naming it (a
// continuous column given as -label was read as n classes, and the
// figures against it printed without a word); class columns, small
// tables and integer codes repeated on some rows draw none.
func TestLabelColumnWarning(t *testing.T) {
	table := func(n int, label func(i int) string) string {
		var b strings.Builder
		b.WriteString("x1,x2,y\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "%d,%g,%s\n", i%3, float64(i)*0.37, label(i))
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, content, label string
		want                 string // "" for no warning
	}{
		{"a continuous column", table(30, func(int) string { return "0" }), "x2",
			`t.csv: column "x2", the label column, holds 30 distinct values for 30 rows (a different value on every row): it looks like a continuous feature or an identifier, not classes, and the figures against it (ARI, NMI, accuracy) mean little; name the column of the classes (Options.LabelColumn; tether: -label), or none`},
		{"names", table(12, func(i int) string { return fmt.Sprintf("row%d", i) }), "y", "(a different value on every row)"},
		{"decimals, some repeated", table(30, func(i int) string { return fmt.Sprintf("%.1f", float64(i*2/3)+0.5) }), "y",
			`column "y", the label column, holds 20 distinct values for 30 rows (numbers not all integers)`},
		{"decimals, half as many as the rows", table(30, func(i int) string { return fmt.Sprintf("%.1f", float64(i/2)+0.5) }), "y", ""},
		{"classes", table(30, func(i int) string { return fmt.Sprint(i % 3) }), "y", ""},
		{"integer codes, some repeated", table(30, func(i int) string { return fmt.Sprint(i / 2) }), "y", ""},
		{"few rows", table(9, func(i int) string { return fmt.Sprint(i) }), "y", ""},
		{"the class column", table(30, func(int) string { return "0" }), "x1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Read(context.Background(), strings.NewReader(tc.content), "t.csv", cli(Options{LabelColumn: tc.label}))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(tab.Warnings, "\n")
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("warnings %q, want %q", got, tc.want)
			}
		})
	}
}

// TestScaleColumns: min–max scaling of a matrix by hand (a constant
// column onto 0), and z-scores with mean 0 and unit population variance.
func TestScaleColumns(t *testing.T) {
	x := mat.NewDense(3, 3, []float64{
		2, 5, -1,
		4, 5, 0,
		6, 5, 3,
	})
	ScaleColumns(x, ScaleMinMax)
	want := []float64{0, 0, 0, 0.5, 0, 0.25, 1, 0, 1}
	for i, v := range x.RawMatrix().Data {
		if math.Abs(v-want[i]) > 1e-15 {
			t.Fatalf("min–max: %v, want %v", x.RawMatrix().Data, want)
		}
	}
	z := mat.NewDense(4, 1, []float64{1, 2, 3, 4})
	ScaleColumns(z, ScaleZScore)
	var m, v float64
	for _, e := range z.RawMatrix().Data {
		m += e / 4
	}
	for _, e := range z.RawMatrix().Data {
		v += (e - m) * (e - m) / 4
	}
	if math.Abs(m) > 1e-15 || math.Abs(v-1) > 1e-12 {
		t.Fatalf("z-scores %v: mean %g, variance %g", z.RawMatrix().Data, m, v)
	}
}

// TestIdentifierColumnRule: the identifier error needs a text column with
// a different value on every row, 3 rows or more, not forced categorical;
// given as the ID column, the column names the rows.
func TestIdentifierColumnRule(t *testing.T) {
	for _, c := range []struct {
		name, in string
		opt      Options
		feats    int // features, or −1 for ErrIdentifier
	}{
		{"distinct names", "name,x\nann,1\nbob,2\ncid,3\n", Options{}, -1},
		{"a repeat: categorical", "c,x\nann,1\nbob,2\nann,3\n", Options{}, 3},
		{"two rows", "name,x\nann,1\nbob,2\n", Options{}, 3},
		{"forced categorical", "name,x\nann,1\nbob,2\ncid,3\n", Options{Categorical: []string{"name"}}, 4},
		{"as the ID column", "name,x\nann,1\nbob,2\ncid,3\n", Options{IDColumn: "name"}, 1},
		{"a missing value, the others distinct", "name,x\nann,1\n?,2\ncid,3\nbob,4\n", Options{Missing: MissingImpute}, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb, err := Read(context.Background(), strings.NewReader(c.in), "t.csv", c.opt)
			if c.feats < 0 {
				if !errors.Is(err, ErrIdentifier) {
					t.Fatalf("err %v, want ErrIdentifier", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(tb.Features) != c.feats {
				t.Errorf("features %q, want %d", tb.Features, c.feats)
			}
			if c.opt.IDColumn != "" && !slices.Equal(tb.IDs, []string{"ann", "bob", "cid"}) {
				t.Errorf("IDs %q", tb.IDs)
			}
		})
	}
}

// TestPandasIndexColumn: pandas's DataFrame.to_csv writes its index as an
// unnamed first column (",x,y"); it is the rows' IDs, not a feature, with
// a warning (the header was not recognised, and the index would have been
// a feature).
func TestPandasIndexColumn(t *testing.T) {
	for _, c := range []struct {
		name, in string
		opt      Options
		feats    []string
		ids      []string
		err      error
	}{
		{"integer index", ",x,y\n0,1,2\n1,3,4\n2,5,6\n", Options{}, []string{"x", "y"}, []string{"0", "1", "2"}, nil},
		{"text index", ",x\nann,1\nbob,2\n", Options{}, []string{"x"}, []string{"ann", "bob"}, nil},
		{"index and label", ",x,label\n0,1,a\n1,2,b\n2,3,a\n", Options{LabelColumn: "label"}, []string{"x"}, []string{"0", "1", "2"}, nil},
		{"given ID column wins", ",x,k\n0,1,a\n1,2,b\n2,3,c\n", Options{IDColumn: "k"}, []string{"", "x"}, []string{"a", "b", "c"}, nil},
		// A missing first field under a header-like line: data, whose
		// first row has a missing value.
		{"missing first field", ",x\n,1\n2,3\n", Options{}, nil, nil, ErrMissing},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb, err := Read(context.Background(), strings.NewReader(c.in), "p.csv", c.opt)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("err %v, want %v", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tb.Features, c.feats) || !slices.Equal(tb.IDs, c.ids) {
				t.Errorf("features %q ids %q, want %q %q", tb.Features, tb.IDs, c.feats, c.ids)
			}
			// The documented pandas rule: a note, never a warning.
			noted := slices.ContainsFunc(tb.Notes, func(w string) bool { return strings.Contains(w, "column 1 has no name in the header") })
			if noted != (c.opt.IDColumn == "") || len(tb.Warnings) > 0 {
				t.Errorf("notes %q, warnings %q", tb.Notes, tb.Warnings)
			}
		})
	}
}

// TestIDClashWarning: an ID column whose IDs cannot name the rows
// (dataset.KeyNames: one empty or repeated after trimming) draws a warning
// naming the first such ID, its line and the earlier line, since the
// labels files written for the rows then number them; distinct IDs, and
// repeats only among dropped rows, draw none.
func TestIDClashWarning(t *testing.T) {
	for _, c := range []struct {
		name, in string
		opt      Options
		want     string // "" for no warning
	}{
		{"repeat", "id,x\na,1\nb,2\na,3\n", Options{IDColumn: "id"}, `t.csv: column "id" cannot name the rows: the ID "a" on line 4 repeats line 2`},
		{"repeat after blank lines", "id,x\n\na,1\n\na,2\n", Options{IDColumn: "id"}, `the ID "a" on line 5 repeats line 3`},
		{"empty", "id,x\na,1\n,2\n", Options{IDColumn: "id"}, `t.csv: column "id" cannot name the rows: the ID on line 3 is empty`},
		{"no header", "a,1\nb,2\nb,3\n", Options{IDColumn: "first", Header: HeaderNo}, `t.csv: column 1 cannot name the rows: the ID "b" on line 3 repeats line 2`},
		{"pandas index", ",x\n0,1\n0,2\n", Options{}, `column 1 cannot name the rows: the ID "0" on line 3 repeats line 2`},
		{"distinct", "id,x\na,1\nb,2\n", Options{IDColumn: "id"}, ""},
		{"repeat on a dropped row", "id,x\na,1\nb,?\nb,3\n", Options{IDColumn: "id", Missing: MissingDrop}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb, err := Read(context.Background(), strings.NewReader(c.in), "t.csv", c.opt)
			if err != nil {
				t.Fatal(err)
			}
			got := slices.ContainsFunc(tb.Warnings, func(w string) bool { return strings.Contains(w, "cannot name the rows") })
			if c.want == "" {
				if got {
					t.Errorf("warnings %q, want none about the IDs", tb.Warnings)
				}
				return
			}
			if !slices.ContainsFunc(tb.Warnings, func(w string) bool { return strings.Contains(w, c.want) }) {
				t.Errorf("warnings %q lack %q", tb.Warnings, c.want)
			}
		})
	}
}

// TestDroppedIDWarning: a row dropped for missing values whose ID
// repeats a kept row's draws a warning naming both rows by their file
// lines (the kept row was not named at all), counting the further ones;
// IDs of dropped rows that no kept row has draw none. Lines by hand.
func TestDroppedIDWarning(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     string // "" for no warning
	}{
		{"after the kept row", "id,x\na,1\nb,2\n\na ,?\nc,3\n", `t.csv: the ID "a" of line 5, a row dropped for missing values, repeats that of line 2, a row kept: `},
		{"before the kept row, two more", "id,x\nb,?\nc,?\nb,1\nc,2\nb,?\n", `t.csv: the ID "b" of line 2, a row dropped for missing values, repeats that of line 4, a row kept (and 2 more dropped rows): `},
		{"dropped rows only", "id,x\na,1\nb,?\nb,?\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb, err := Read(context.Background(), strings.NewReader(c.in), "t.csv", Options{IDColumn: "id", Missing: MissingDrop})
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(tb.Warnings, func(w string) bool { return strings.Contains(w, "a row dropped for missing values") })
			switch {
			case c.want == "" && i >= 0:
				t.Errorf("warning %q, want none", tb.Warnings[i])
			case c.want != "" && (i < 0 || !strings.HasPrefix(tb.Warnings[i], c.want)):
				t.Errorf("warnings %q, want one beginning %q", tb.Warnings, c.want)
			}
		})
	}
}

// TestGMLLabelClashWarning: GML node labels (a node's id when it has no
// label) that cannot name the nodes (KeyNames: one empty or repeated after
// trimming) draw the warning of a table's ID column (keyClashWarning),
// naming the first such label, its line and the earlier one's, since the
// labels files written for the nodes then number them (they were numbered
// without a word); distinct labels draw none.
func TestGMLLabelClashWarning(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     string // "" for no warning
	}{
		{"repeat", "graph [\n node [ id 1 label \"a\" ]\n node [ id 2 label \"b\" ]\n node [ id 3\n label \"a\" ]\n]\n",
			`g.gml: the node labels (label, else id) cannot name the nodes: the label "a" on line 5 repeats line 2, so the labels files written for them (tether cluster -o, tether labels) number the nodes instead of naming them (make the labels distinct and non-empty to name them)`},
		{"repeat after trimming", "graph [\n node [ id 1 label \"a\" ]\n node [ id 2 label \" a\" ]\n]\n", `the label "a" on line 3 repeats line 2`},
		{"empty", "graph [\n node [ id 1 label \"a\" ]\n node [ id 2 label \"\" ]\n]\n", `cannot name the nodes: the label on line 3 is empty`},
		{"label is another node's id", "graph [\n node [ id 1 ]\n node [ id 2 label \"1\" ]\n]\n", `the label "1" on line 3 repeats line 2`},
		{"distinct", "graph [\n node [ id 1 label \"a\" ]\n node [ id 2 label \"b\" ]\n]\n", ""},
		{"ids only", "graph [\n node [ id 1 ]\n node [ id 2 ]\n]\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := ReadGraph(context.Background(), strings.NewReader(c.in), "g.gml", GML, GraphOptions{Spelling: cliSpelling})
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if len(d.Warnings) > 0 {
					t.Errorf("warnings %q, want none", d.Warnings)
				}
				return
			}
			if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], c.want) {
				t.Errorf("warnings %q, want one containing %q", d.Warnings, c.want)
			}
		})
	}
}

// TestGMLNameLines: GraphData.NameLines gives the line of each GML
// node's name, its label, else its id, the lines written by hand below;
// other formats leave it nil.
func TestGMLNameLines(t *testing.T) {
	in := "graph [\n node [ id 1 label \"a\" ]\n node [\n id 2\n ]\n node [ id 3\n label \"a\" ]\n edge [ source 1 target 2 ]\n]\n"
	d, err := ReadGraph(context.Background(), strings.NewReader(in), "g.gml", GML, GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 4, 7}; !slices.Equal(d.NameLines, want) {
		t.Errorf("GML: NameLines %v, want %v", d.NameLines, want)
	}
	d, err = ReadGraph(context.Background(), strings.NewReader("a b\nb c\n"), "g.txt", EdgeList, GraphOptions{})
	if err != nil || d.NameLines != nil {
		t.Errorf("edge list: NameLines %v, %v; want nil", d.NameLines, err)
	}
}

// TestTrailingDelimiter: lines that all end with the delimiter (or all but
// a header one field shorter) have an empty last field, which is dropped
// with a note; a named last column left empty stays an error.
func TestTrailingDelimiter(t *testing.T) {
	for _, c := range []struct {
		name, in string
		opt      Options
		feats    []string
		note     string
		err      error
	}{
		{"every line", "x,y,\n0,1,\n2,3,\n4,5,\n", Options{}, []string{"x", "y"}, "every line ends with the delimiter \",\"", nil},
		{"data lines only", "x,y\n0,1,\n2,3,\n4,5,\n", Options{}, []string{"x", "y"}, "every line but the header ends", nil},
		{"semicolons and CR", "x;y;\r\n0;1; \r\n2;3;\r\n", Options{}, []string{"x", "y"}, "every line ends with the delimiter \";\"", nil},
		{"tabs", "x\ty\t\n0\t1\t\n2\t3\t\n", Options{}, []string{"x", "y"}, "every line ends with the delimiter \"\\t\"", nil},
		{"no header", "0,1,\n2,3,\n4,5,\n", Options{Header: HeaderNo}, []string{"col1", "col2"}, "every line ends", nil},
		{"named empty column", "x,y,z\n0,1,\n2,3,\n", Options{}, nil, "", ErrMissing},
		// A line that fills the last field: nothing is dropped (and the
		// header with an empty field is not a header).
		{"one line fills it", "x,y,\n0,1,\n2,3,4\n", Options{Missing: MissingImpute}, nil, "", ErrSyntax},
		{"one line fills it, no header", "0,1,\n2,3,4\n5,6,\n", Options{Header: HeaderNo, Missing: MissingImpute}, []string{"col1", "col2", "col3"}, "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb, err := Read(context.Background(), strings.NewReader(c.in), "t.csv", c.opt)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("err %v, want %v", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tb.Features, c.feats) {
				t.Errorf("features %q, want %q", tb.Features, c.feats)
			}
			// The empty last field ignored is a note, never a warning.
			got := strings.Join(tb.Notes, "\n")
			if c.note == "" && strings.Contains(got, "delimiter") || c.note != "" && !strings.Contains(got, c.note) || len(tb.Warnings) > 0 {
				t.Errorf("notes %q, want %q; warnings %q", tb.Notes, c.note, tb.Warnings)
			}
		})
	}
}

// TestUnitNumbersOnlyWhenEveryValue: a column is numbers with a unit only
// when every present value is one, with one unit; otherwise it stays text.
func TestUnitNumbersOnlyWhenEveryValue(t *testing.T) {
	for _, c := range []struct {
		in    string
		feats int
	}{
		{"x,c\n1,45%\n2,big\n3,45%\n", 3},  // a word among them: categories
		{"x,c\n1,45%\n2,$3\n3,45%\n", 3},   // two units: categories
		{"x,c\n1,%\n2,%%\n3,%\n", 3},       // no number
		{"x,c\n1,-4%\n2,1e2%\n3,0%\n", -1}, // signs and exponents: numbers
	} {
		tb, err := Read(context.Background(), strings.NewReader(c.in), "u.csv", Options{})
		if c.feats < 0 {
			if !errors.Is(err, ErrSyntax) {
				t.Errorf("%q: err %v, want the unit error", c.in, err)
			}
			continue
		}
		if err != nil || len(tb.Features) != c.feats {
			t.Errorf("%q: err %v, features %v, want %d", c.in, err, tb, c.feats)
		}
	}
}

// TestReadDrop: Options.Drop leaves columns out of the features, by name,
// number, first or last, without reading their values (free text, missing
// values, a column of keys); the label and ID columns cannot be dropped,
// and every error names the file and the column. Expected matrices are
// the kept columns, copied by hand.
func TestReadDrop(t *testing.T) {
	for _, c := range []struct {
		name, file, in string
		opt            Options
		x              [][]float64
		features       []string
		labels         []int
		ids            []string
		noted          bool     // pandas's index note
		dropped        []string // Table.DroppedColumns: the opt.Drop columns by name, in file order
	}{
		{name: "free text, keys and a missing value", file: "t.csv",
			in:  "id,name,x,note,y\n1,ann,1,hello world,2\n2,bob,3,?,4\n3,cid,5,\"a, b\",6\n",
			opt: Options{Drop: []string{"note", "id", "name"}}, x: [][]float64{{1, 2}, {3, 4}, {5, 6}}, features: []string{"x", "y"}, dropped: []string{"id", "name", "note"}},
		{name: "first and a number", file: "t.csv", in: "a,b,c\n1,2,3\n4,5,6\n",
			opt: Options{Drop: []string{"first", "3"}}, x: [][]float64{{2}, {5}}, features: []string{"b"}, dropped: []string{"a", "c"}},
		{name: "last, no header", file: "t.csv", in: "1,2,x\n4,5,y\n",
			opt: Options{Header: HeaderNo, Drop: []string{"last"}}, x: [][]float64{{1, 2}, {4, 5}}, features: []string{"col1", "col2"}, dropped: []string{"col3"}},
		{name: "case-insensitive name", file: "t.csv", in: "Note,x\nfoo,1\nbar,2\n",
			opt: Options{Drop: []string{"note"}}, x: [][]float64{{1}, {2}}, features: []string{"x"}, dropped: []string{"Note"}},
		{name: "with a label column", file: "t.csv", in: "x,t,c\n1,free,a\n2,text,b\n",
			opt: Options{LabelColumn: "c", Drop: []string{"t"}}, x: [][]float64{{1}, {2}}, features: []string{"x"}, labels: []int{0, 1}, dropped: []string{"t"}},
		{name: "with an ID column", file: "t.csv", in: "k,x,t\nr1,1,u\nr2,2,v\n",
			opt: Options{IDColumn: "k", Drop: []string{"t"}}, x: [][]float64{{1}, {2}}, features: []string{"x"}, ids: []string{"r1", "r2"}, dropped: []string{"t"}},
		// pandas's unnamed index column, dropped, is not read as IDs.
		{name: "pandas index", file: "t.csv", in: ",x,y\n0,1,2\n1,3,4\n",
			opt: Options{Drop: []string{"1"}}, x: [][]float64{{1, 2}, {3, 4}}, features: []string{"x", "y"}, dropped: []string{""}},
		{name: "pandas index kept", file: "t.csv", in: ",x,y\n0,1,2\n1,3,4\n",
			opt: Options{Drop: []string{"y"}}, x: [][]float64{{1}, {3}}, features: []string{"x"}, ids: []string{"0", "1"}, noted: true, dropped: []string{"y"}},
		// An ARFF attribute with a missing value, dropped: not imputed,
		// not refused. zooLike: animal dropped too; legs kept.
		{name: "ARFF", file: "zoo.arff", in: zooLike,
			opt: Options{Drop: []string{"animal", "has hair", "weight kg"}}, x: [][]float64{{4}, {0}, {4}}, features: []string{"legs"}, labels: []int{0, 1, 1}, dropped: []string{"animal", "has hair", "weight kg"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb, err := Read(context.Background(), strings.NewReader(c.in), c.file, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := rows(tb); !closeRows(got, c.x, 0) {
				t.Errorf("X = %v, want %v", got, c.x)
			}
			if !reflect.DeepEqual(tb.Features, c.features) || !reflect.DeepEqual(tb.Labels, c.labels) || !reflect.DeepEqual(tb.IDs, c.ids) {
				t.Errorf("features %q labels %v ids %q, want %q %v %q", tb.Features, tb.Labels, tb.IDs, c.features, c.labels, c.ids)
			}
			if !reflect.DeepEqual(tb.DroppedColumns, c.dropped) {
				t.Errorf("DroppedColumns %q, want %q", tb.DroppedColumns, c.dropped)
			}
			noted := slices.ContainsFunc(tb.Notes, func(w string) bool { return strings.Contains(w, "column 1 has no name in the header") })
			if noted != c.noted {
				t.Errorf("notes %q (warnings %q)", tb.Notes, tb.Warnings)
			}
		})
	}
	for _, c := range []struct {
		name, file, in string
		opt            Options
		want           string
	}{
		{"unknown name", "t.csv", "a,b,c\n1,2,3\n", Options{Drop: []string{"b", "zz"}},
			`dataset: t.csv: dropped column: value "zz": invalid input: no such column (have a, b, c)`},
		{"number out of range", "t.csv", "a,b,c\n1,2,3\n", Options{Drop: []string{"4"}},
			`dataset: t.csv: dropped column: value "4": invalid input: column number outside 1…3`},
		{"name without header", "t.csv", "1,2,3\n4,5,6\n", Options{Header: HeaderNo, Drop: []string{"b"}},
			`dataset: t.csv: dropped column: value "b": invalid input: the file has no header`},
		{"the label column", "t.csv", "a,b,c\n1,2,x\n", Options{LabelColumn: "c", Drop: []string{"last"}},
			`dataset: t.csv: dropped column: value "last": invalid input: column 3 is the label column (Options.LabelColumn "c"; tether: -label c), which is never a feature`},
		{"ARFF's label column", "zoo.arff", zooLike, Options{Drop: []string{"type"}},
			`dataset: zoo.arff: dropped column: value "type": invalid input: column 5 is the label column (an ARFF file's last attribute unless Options.LabelColumn names another), which is never a feature: to leave it out altogether, set the label column to none and drop it (tether: -label none -drop type; library: Options.LabelColumn "none" and Options.Drop); -label none alone makes it a feature`},
		{"the ID column", "t.csv", "a,b,c\nr,2,3\n", Options{IDColumn: "a", Drop: []string{"1"}},
			`dataset: t.csv: dropped column: value "1": invalid input: column 1 is the ID column (Options.IDColumn "a"; tether: -id a), which is never a feature`},
		{"dropped and categorical", "t.csv", "a,b,c\n1,2,3\n", Options{Drop: []string{"b"}, Categorical: []string{"2"}},
			`dataset: t.csv: categorical column: value "2": invalid input: column 2 is a dropped column (tether: -drop; library: Options.Drop)`},
		{"nothing left", "t.csv", "a,b\n1,2\n", Options{Drop: []string{"a", "b"}},
			`dataset: t.csv: invalid input: no feature columns left after removing label, ID and dropped columns`},
	} {
		t.Run(c.name, func(t *testing.T) {
			// tether's wording, then the library's (the zero Spelling),
			// which names no flag.
			_, err := Read(context.Background(), strings.NewReader(c.in), c.file, cli(c.opt))
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %v, want ErrInvalid beginning %q", err, c.want)
			}
			// Only a table without features is an ErrNoFeatures.
			if errors.Is(err, ErrNoFeatures) != (c.name == "nothing left") {
				t.Errorf("errors.Is(%v, ErrNoFeatures) = %v", err, errors.Is(err, ErrNoFeatures))
			}
			_, err = Read(context.Background(), strings.NewReader(c.in), c.file, c.opt)
			if err == nil || strings.Contains(err.Error(), "tether") || strings.Contains(err.Error(), "-label") || strings.Contains(err.Error(), "(-") {
				t.Errorf("library: error %v names tether's flags", err)
			}
		})
	}
}

// TestErrOption: an option value that does not fit the file (a column
// reference the table lacks or that has another role, -delim with an ARFF
// file) is an ErrOption and still an ErrInvalid, with ErrInvalid's text;
// an error of the file's content is not an ErrOption.
func TestErrOption(t *testing.T) {
	csv := "x1,x2,label\n0,0,a\n1,1,b\n2,2,a\n"
	arff := "@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p\n2,q\n"
	for _, c := range []struct {
		name, text, file string
		opt              Options
		option           bool
	}{
		{"label column number", csv, "t.csv", Options{LabelColumn: "7"}, true},
		{"no such label column", csv, "t.csv", Options{LabelColumn: "clas"}, true},
		{"ID column is the label column", csv, "t.csv", Options{LabelColumn: "x1", IDColumn: "x1"}, true},
		{"dropped label column", csv, "t.csv", Options{LabelColumn: "label", Drop: []string{"label"}}, true},
		{"no such categorical column", csv, "t.csv", Options{Categorical: []string{"zz"}}, true},
		{"delimiter with ARFF", arff, "t.arff", Options{Format: FormatARFF, Delimiter: ";"}, true},
		{"a value that is not a number", "x1,x2\n0,0\n1,NaN\n", "t.csv", Options{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(context.Background(), strings.NewReader(c.text), c.file, c.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if got := errors.Is(err, ErrOption); got != c.option {
				t.Errorf("errors.Is(%v, ErrOption) = %v, want %v", err, got, c.option)
			}
			if c.option && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "invalid input: ")) {
				t.Errorf("%v: want an ErrInvalid that reads as one", err)
			}
		})
	}
}

// TestDelimiterLooksWrong: a Delimiter given that splits no line of a file
// whose lines hold one of the usual delimiters is an option error naming
// both (the one column was taken for the row IDs, and the error said "no
// feature columns left after removing label, ID and dropped columns"); a
// file of one column without them is read.
func TestDelimiterLooksWrong(t *testing.T) {
	csv := "x1,x2\n0,0.5\n1,1.5\n2,2.5\n"
	for _, c := range []struct {
		delim, want string
	}{
		{";", `dataset: t.csv:1: invalid input: every line is one field when split at semicolons (Options.Delimiter ";"; tether: -delim), while the lines hold commas: the delimiter looks wrong; leave it out to detect it, or give -delim ,`},
		{"tab", `dataset: t.csv:1: invalid input: every line is one field when split at tabs (Options.Delimiter "tab"; tether: -delim), while the lines hold commas: the delimiter looks wrong; leave it out to detect it, or give -delim ,`},
		{"whitespace", `while the lines hold commas`},
	} {
		_, err := Read(context.Background(), strings.NewReader(csv), "t.csv", cli(Options{Delimiter: c.delim}))
		if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-delim %s: error %v, want an ErrOption with %q", c.delim, err, c.want)
		}
	}
	tsv := strings.ReplaceAll(csv, ",", "\t")
	if _, err := Read(context.Background(), strings.NewReader(tsv), "t.tsv", cli(Options{Delimiter: ","})); !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), "while the lines hold tabs: the delimiter looks wrong; leave it out to detect it, or give -delim tab") {
		t.Errorf("-delim , on tabs: %v", err)
	}
	if tab, err := Read(context.Background(), strings.NewReader("x\n0.5\n1.5\n2.5\n"), "t.csv", Options{Delimiter: ","}); err != nil || len(tab.Features) != 1 {
		t.Errorf("one column: %v", err)
	}
}

// TestGMLLabelAttrErrOption: a GraphOptions.LabelAttr that no node has is
// an option that does not fit the file (ErrOption, exit 2 in tether); one
// that some nodes lack is the file's problem (ErrInvalid, not ErrOption).
func TestGMLLabelAttrErrOption(t *testing.T) {
	for _, c := range []struct {
		name, gml string
		option    bool
	}{
		{"no node has it", "graph [ node [ id 0 club \"a\" ] node [ id 1 club \"b\" ] edge [ source 0 target 1 ] ]", true},
		{"a node lacks it", "graph [ node [ id 0 nosuch \"a\" ] node [ id 1 ] edge [ source 0 target 1 ] ]", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadGraph(context.Background(), strings.NewReader(c.gml), "k.gml", GML, GraphOptions{LabelAttr: "nosuch"})
			if !errors.Is(err, ErrInvalid) || errors.Is(err, ErrOption) != c.option {
				t.Errorf("err = %v: ErrOption %v, want %v (and ErrInvalid)", err, errors.Is(err, ErrOption), c.option)
			}
		})
	}
}
