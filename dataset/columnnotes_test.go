package dataset

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// rowsOf returns a header and n rows made by row(i).
func rowsOf(header string, n int, row func(i int) string) string {
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := 0; i < n; i++ {
		b.WriteString(row(i) + "\n")
	}
	return b.String()
}

// TestColumnMessages: every one-hot encoded column is named in a note with
// its number of categories, or in a warning instead when it looks like an
// identifier (one message a column: the warning says what the encoding
// made of it too); a numeric column of row numbers draws a warning, and so
// does one named like an identifier holding distinct integers; -missing
// impute says what it filled. The expected messages are written out from
// the rules of identifierLike, rowNumbers, integerKeys with
// labelheader.IsIdentifier, and imputedNote.
func TestColumnMessages(t *testing.T) {
	colors := []string{"red", "green", "blue"}
	custIDs := []int{27114, 5, 88012, 301, 77, 4500, 12, 999, 60001, 8, 123, 42}
	cases := []struct {
		name, file, in string
		opt            Options
		notes, warns   []string
	}{
		{"numeric only", "a.csv", "x,y\n1,2\n3,4\n5,6\n", Options{}, nil, nil},
		{"one text column", "c.csv", rowsOf("x,color", 6, func(i int) string { return fmt.Sprintf("%d.5,%s", i, colors[i%3]) }), Options{},
			[]string{`c.csv: column "color": 3 categories one-hot encoded into 3 features (-drop color leaves it out)`}, nil},
		{"two text columns", "c.csv", rowsOf("x,color,size", 6, func(i int) string { return fmt.Sprintf("%d.5,%s,%s", i, colors[i%3], []string{"s", "l"}[i%2]) }), Options{},
			[]string{`c.csv: 2 categorical columns one-hot encoded into 5 features: "color" (3 categories), "size" (2) (-drop COLUMN leaves one out)`}, nil},
		{"forced numeric codes", "c.csv", "x,code\n0.5,1\n1.5,2\n2.5,1\n", Options{Categorical: []string{"code"}},
			[]string{`c.csv: column "code": 2 categories one-hot encoded into 2 features (-drop code leaves it out)`}, nil},
		{"headerless: column number", "h.csv", "0.5,a\n1.5,b\n2.5,a\n", Options{},
			[]string{`h.csv: column 2: 2 categories one-hot encoded into 2 features (-drop 2 leaves it out)`}, nil},
		{"a name -drop cannot take", "c.csv", "x,\"a,b\"\n0.5,u\n1.5,v\n2.5,u\n", Options{},
			[]string{`c.csv: column "a,b": 2 categories one-hot encoded into 2 features (-drop 2 leaves it out)`}, nil},
		// 101 distinct names over 200 rows (finding 1 of review 49): 101 ≥ 10 and 2·101 > 200.
		{"identifier-like", "txt.csv", rowsOf("x,name,color", 200, func(i int) string { return fmt.Sprintf("%d.5,p%d,%s", i, (i+1)/2, colors[i%3]) }), Options{},
			[]string{`txt.csv: column "color": 3 categories one-hot encoded into 3 features (-drop color leaves it out)`},
			[]string{`txt.csv: column "name": 101 categories for 200 rows one-hot encoded into 101 features: it looks like an identifier (names, keys), not a feature; -drop name leaves it out, -id name makes it the names of the rows`}},
		// 101 categories over 202 rows: 2·101 ≤ 202, a note.
		{"many categories, not an identifier", "m.csv", rowsOf("x,name", 202, func(i int) string { return fmt.Sprintf("%d.5,p%d", i, i/2) }), Options{},
			[]string{`m.csv: column "name": 101 categories one-hot encoded into 101 features (-drop name leaves it out)`}, nil},
		// 9 categories over 10 rows: fewer than 10, a note.
		{"few rows", "f.csv", rowsOf("x,name", 10, func(i int) string { return fmt.Sprintf("%d.5,p%d", i, min(i, 8)) }), Options{},
			[]string{`f.csv: column "name": 9 categories one-hot encoded into 9 features (-drop name leaves it out)`}, nil},
		{"identifier-like beside an ID column", "i.csv", rowsOf("id,x,name", 20, func(i int) string { return fmt.Sprintf("r%d,%d.5,p%d", i, i, min(i, 14)) }), Options{IDColumn: "id"},
			nil,
			[]string{`i.csv: column "name": 15 categories for 20 rows one-hot encoded into 15 features: it looks like an identifier (names, keys), not a feature; -drop name leaves it out`}},
		{"many columns elided", "w.csv", rowsOf("x,c1,c2,c3,c4,c5,c6,c7,c8,c9", 4, func(i int) string { return fmt.Sprintf("%d.5%s", i, strings.Repeat(","+[]string{"a", "b"}[i%2], 9)) }), Options{},
			[]string{`w.csv: 9 categorical columns one-hot encoded into 18 features: "c1" (2 categories), "c2" (2), "c3" (2), "c4" (2), "c5" (2), "c6" (2), …, "c9" (2) (-drop COLUMN leaves one out)`}, nil},
		// glass.data's first column (finding 12 of review 49).
		{"row numbers 1…n", "g.csv", rowsOf("Id,x", 12, func(i int) string { return fmt.Sprintf("%d,%d.5", i+1, i%5) }), Options{}, nil,
			[]string{`g.csv: column "Id" is the row number 1…12: an identifier, not a feature? -drop Id leaves it out, -id Id makes it the names of the rows`}},
		{"row numbers 0…n−1, headerless, with a label", "g.csv", rowsOf("0,0.5,a", 11, func(i int) string { return fmt.Sprintf("%d,%d.5,%c", i+1, i%5, 'a'+i%2) }), Options{LabelColumn: "last"}, nil,
			[]string{`g.csv: column 1 is the row number 0…11: an identifier, not a feature? -drop 1 leaves it out, -id 1 makes it the names of the rows`}},
		{"row numbers below 10 rows", "g.csv", rowsOf("Id,x", 9, func(i int) string { return fmt.Sprintf("%d,%d.5", i+1, i%5) }), Options{}, nil, nil},
		{"not in row order", "g.csv", rowsOf("rank,x", 12, func(i int) string { return fmt.Sprintf("%d,%d.5", 12-i, i%5) }), Options{}, nil, nil},
		// Customer numbers in no order, in a column named like an
		// identifier (review 118): read as a feature, warned; not when the
		// name is a feature's, a value repeats, or one is not an integer.
		{"integer IDs named customer_id", "c.csv", rowsOf("customer_id,x", 12, func(i int) string { return fmt.Sprintf("%d,%d.5", custIDs[i], i%5) }), Options{}, nil,
			[]string{`c.csv: column "customer_id" is named like an identifier and holds a different integer on each of its 12 rows (5…88012): it is read as a feature, though an identifier's values say nothing of the rows; name the rows by it (tether: -id customer_id; library: Options.IDColumn) or leave it out (tether: -drop customer_id; library: Options.Drop)`}},
		{"integer IDs named ID, beside an ID column", "c.csv", rowsOf("name,ID,x", 12, func(i int) string { return fmt.Sprintf("r%d,%d,%d.5", i, custIDs[i], i%5) }), Options{IDColumn: "name"}, nil,
			[]string{`c.csv: column "ID" is named like an identifier and holds a different integer on each of its 12 rows (5…88012): it is read as a feature, though an identifier's values say nothing of the rows; leave it out (tether: -drop ID; library: Options.Drop)`}},
		{"distinct integers named like a feature", "c.csv", rowsOf("income,x", 12, func(i int) string { return fmt.Sprintf("%d,%d.5", custIDs[i], i%5) }), Options{}, nil, nil},
		{"an id column with a repeat", "c.csv", rowsOf("node_id,x", 12, func(i int) string { return fmt.Sprintf("%d,%d.5", custIDs[min(i, 10)], i%5) }), Options{}, nil, nil},
		{"an id column not all integers", "c.csv", rowsOf("id,x", 12, func(i int) string { return fmt.Sprintf("%d.5,%d.5", custIDs[i], i%5) }), Options{}, nil, nil},
		{"an id column below 10 rows", "c.csv", rowsOf("id,x", 9, func(i int) string { return fmt.Sprintf("%d,%d.5", custIDs[i], i%5) }), Options{}, nil, nil},
		// Rows 1 and 3 (0-based) dropped: the column numbers the rows read.
		{"row numbers of the rows read", "d.csv", rowsOf("Id,x", 12, func(i int) string {
			if i == 1 || i == 3 {
				return fmt.Sprintf("%d,?", i)
			}
			return fmt.Sprintf("%d,%d.5", i, i%5)
		}), Options{Missing: MissingDrop}, nil,
			[]string{`d.csv: dropped 2 of 12 rows with missing values (tether: -missing drop; library: Options.Missing = MissingDrop): lines 3, 5`,
				`d.csv: column "Id" is the row number 0…11: an identifier, not a feature? -drop Id leaves it out, -id Id makes it the names of the rows`}},
		// Cells (1,x), (2,x), (2,c) and (4,c): 4 cells in 3 rows and 2 columns.
		{"impute", "m.csv", "x,c,y\n1,a,1\n?,b,2\n?,?,3\n4,a,4\n5,,5\n", Options{Missing: MissingImpute},
			[]string{`m.csv: imputed 4 missing values in 3 rows and 2 columns: a numeric column's by the mean of its other values, a categorical column's by its most frequent value (tether: -missing impute; library: Options.Missing = MissingImpute)`,
				`m.csv: column "c": 2 categories one-hot encoded into 2 features (-drop c leaves it out)`}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb, err := Read(context.Background(), strings.NewReader(c.in), c.file, cli(c.opt))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tb.Notes, c.notes) {
				t.Errorf("notes\n%q\nwant\n%q", tb.Notes, c.notes)
			}
			if !reflect.DeepEqual(tb.Warnings, c.warns) {
				t.Errorf("warnings\n%q\nwant\n%q", tb.Warnings, c.warns)
			}
			// One message per column: an identifier-like column's
			// warning says what the encoding made of it, and no note
			// names it again.
			seen := map[string]bool{}
			for _, f := range tb.Features {
				col := strconv.Quote(FeatureColumn(f))
				if seen[col] {
					continue
				}
				seen[col] = true
				var about []string
				for _, m := range slices.Concat(tb.Notes, tb.Warnings) {
					if strings.Contains(m, col) {
						about = append(about, m)
					}
				}
				if len(about) > 1 {
					t.Errorf("column %s named in %d messages: %q", col, len(about), about)
				}
			}
		})
	}
}

// TestHeaderlessClassColumnWarning: a text column with few categories
// at an edge of a file without a header, read with no label column, is
// the classes read as features as often as not (UCI's iris.csv: its
// species became 3 features, and NJW's ARI 1.000 instead of 0.745, with a
// note; review 86): it draws a warning naming -label instead of the note
// on its encoding. A text column in the middle, one with more than √n
// categories, a numeric column, a header's columns and a file read with
// a label column do not. The expected messages follow the rule of
// headerlessClassColumn: 2 ≤ categories ≤ √n.
func TestHeaderlessClassColumnWarning(t *testing.T) {
	species := []string{"setosa", "versicolor", "virginica"}
	const tail = " of a file without a header holds text in 3 categories over 12 rows, as a class column does: it is one-hot encoded into 3 features, which hand the classes to the clustering if it holds them "
	cases := []struct {
		name, in string
		opt      Options
		warns    []string // nil: no warning
		note     string   // a note of the encoding, "" for none
	}{
		{"last column", rowsOf("5.1,3.5,setosa", 11, func(i int) string { return fmt.Sprintf("%d.1,%d.5,%s", i%4, i%3, species[i%3]) }), Options{},
			[]string{`h.csv: column 3 (the last)` + tail + `(tether: -label last reads it as the reference labels; library: Options.LabelColumn "last"); -drop 3 leaves it out`}, ""},
		{"first column", rowsOf("setosa,5.1,3.5", 11, func(i int) string { return fmt.Sprintf("%s,%d.1,%d.5", species[i%3], i%4, i%3) }), Options{},
			[]string{`h.csv: column 1 (the first)` + tail + `(tether: -label first reads it as the reference labels; library: Options.LabelColumn "first"); -drop 1 leaves it out`}, ""},
		// wdbc.data: patient IDs, then M or B, then the features.
		{"after a column of keys", rowsOf("842302,setosa,1.5,2.5", 11, func(i int) string { return fmt.Sprintf("%d,%s,%d.5,%d.5", 900+7*i, species[i%3], i%4, i%5) }), Options{},
			[]string{`h.csv: column 2 (after the keys of column 1)` + tail + `(tether: -label 2 reads it as the reference labels; library: Options.LabelColumn "2"); -drop 2 leaves it out`}, ""},
		{"after the ID column", rowsOf("r0,setosa,1.5,2.5", 11, func(i int) string { return fmt.Sprintf("r%d,%s,%d.5,%d.5", i+1, species[i%3], i%4, i%5) }), Options{IDColumn: "1"},
			[]string{`h.csv: column 2 (after the ID column 1)` + tail + `(tether: -label 2 reads it as the reference labels; library: Options.LabelColumn "2"); -drop 2 leaves it out`}, ""},
		{"after a dropped column", rowsOf("0.5,setosa,1.5,2.5", 11, func(i int) string { return fmt.Sprintf("%d.5,%s,%d.5,%d.5", i%2, species[i%3], i%4, i%5) }), Options{Drop: []string{"1"}},
			[]string{`h.csv: column 2 (after the dropped column 1)` + tail + `(tether: -label 2 reads it as the reference labels; library: Options.LabelColumn "2"); -drop 2 leaves it out`}, ""},
		// Both edges are text: the last, where UCI's files put the
		// classes, is warned about; the first keeps its note.
		{"first and last", rowsOf("a,5.1,setosa", 11, func(i int) string { return fmt.Sprintf("%c,%d.1,%s", 'a'+i%2, i%4, species[i%3]) }), Options{},
			[]string{`h.csv: column 3 (the last)` + tail + `(tether: -label last reads it as the reference labels; library: Options.LabelColumn "last"); -drop 3 leaves it out`},
			`h.csv: column 1: 2 categories one-hot encoded into 2 features (-drop 1 leaves it out)`},
		{"a categorical feature in the middle", rowsOf("5.1,setosa,3.5", 11, func(i int) string { return fmt.Sprintf("%d.1,%s,%d.5", i%4, species[i%3], i%3) }), Options{},
			nil, `h.csv: column 2: 3 categories one-hot encoded into 3 features (-drop 2 leaves it out)`},
		{"in the middle after a column of non-integers", rowsOf("0.25,setosa,3.5", 11, func(i int) string { return fmt.Sprintf("%d.25,%s,%d.5", i, species[i%3], i%3) }), Options{},
			nil, `h.csv: column 2: 3 categories one-hot encoded into 3 features (-drop 2 leaves it out)`},
		{"numeric last column", rowsOf("5.1,3.5,0", 11, func(i int) string { return fmt.Sprintf("%d.1,%d.5,%d", i%4, i%3, i%3) }), Options{}, nil, ""},
		{"numeric codes made categorical", rowsOf("5.1,3.5,0", 11, func(i int) string { return fmt.Sprintf("%d.1,%d.5,%d", i%4, i%3, i%3) }), Options{Categorical: []string{"3"}},
			nil, `h.csv: column 3: 3 categories one-hot encoded into 3 features (-drop 3 leaves it out)`},
		// 4 categories over 12 rows: 4 > √12.
		{"more categories than √n", rowsOf("5.1,3.5,a", 11, func(i int) string { return fmt.Sprintf("%d.1,%d.5,%c", i%4, i%3, 'a'+i%4) }), Options{},
			nil, `h.csv: column 3: 4 categories one-hot encoded into 4 features (-drop 3 leaves it out)`},
		{"header", rowsOf("x,y,species", 12, func(i int) string { return fmt.Sprintf("%d.1,%d.5,%s", i%4, i%3, species[i%3]) }), Options{},
			nil, `h.csv: column "species": 3 categories one-hot encoded into 3 features (-drop species leaves it out)`},
		{"label column none", rowsOf("5.1,3.5,setosa", 11, func(i int) string { return fmt.Sprintf("%d.1,%d.5,%s", i%4, i%3, species[i%3]) }), Options{LabelColumn: "none"},
			nil, `h.csv: column 3: 3 categories one-hot encoded into 3 features (-drop 3 leaves it out)`},
		{"label column last", rowsOf("5.1,3.5,setosa", 11, func(i int) string { return fmt.Sprintf("%d.1,%d.5,%s", i%4, i%3, species[i%3]) }), Options{LabelColumn: "last"}, nil, ""},
		// The column would be the only feature: nothing left to cluster
		// if it were the labels.
		{"the only feature", rowsOf("setosa", 11, func(i int) string { return species[i%3] }), Options{},
			nil, `h.csv: column 1: 3 categories one-hot encoded into 3 features (-drop 1 leaves it out)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb, err := Read(context.Background(), strings.NewReader(c.in), "h.csv", cli(c.opt))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(tb.Warnings, c.warns) {
				t.Errorf("warnings\n%q\nwant\n%q", tb.Warnings, c.warns)
			}
			var encoding []string
			for _, n := range tb.Notes {
				if strings.Contains(n, " one-hot encoded into ") {
					encoding = append(encoding, n)
				}
			}
			want := []string{c.note}
			if c.note == "" {
				want = nil
			}
			if !reflect.DeepEqual(encoding, want) {
				t.Errorf("notes of the encoding\n%q\nwant\n%q", encoding, want)
			}
		})
	}
}

// TestARFFNominalMessages: ARFF nominal attributes are one-hot encoded as
// text columns are, and get the same messages (zoo.arff's animal names
// used to become 100 features without a word).
func TestARFFNominalMessages(t *testing.T) {
	in := "@relation z\n@attribute animal {a0,a1,a2,a3,a4,a5,a6,a7,a8,a9,a10}\n@attribute hair {0,1}\n@attribute legs numeric\n@attribute type {m,b}\n@data\n"
	for i := 0; i < 12; i++ {
		in += fmt.Sprintf("a%d,%d,%d,%c\n", min(i, 10), i%2, i%3*2, "mb"[i%2])
	}
	tb, err := Read(context.Background(), strings.NewReader(in), "z.arff", cli(Options{Format: FormatARFF}))
	if err != nil {
		t.Fatal(err)
	}
	wantNotes := []string{`z.arff: column "hair": 2 categories one-hot encoded into 2 features (-drop hair leaves it out)`}
	wantWarns := []string{`z.arff: column "animal": 11 categories for 12 rows one-hot encoded into 11 features: it looks like an identifier (names, keys), not a feature; -drop animal leaves it out, -id animal makes it the names of the rows`}
	if !reflect.DeepEqual(tb.Notes, wantNotes) || !reflect.DeepEqual(tb.Warnings, wantWarns) {
		t.Errorf("notes %q\nwarnings %q\nwant %q\n%q", tb.Notes, tb.Warnings, wantNotes, wantWarns)
	}
}

// TestDistinctNumericColumnError: a column of names some of which are
// numbers (promoters.data's "S10", …, "867") is refused with the advice
// of an identifier (-id, -drop), not -categorical; a mixed column with
// repeats, or of fewer than 10 values, keeps the -categorical advice.
func TestDistinctNumericColumnError(t *testing.T) {
	names := rowsOf("x,name", 12, func(i int) string {
		if i == 5 {
			return "5.5,867"
		}
		return fmt.Sprintf("%d.5,S%d", i, i)
	})
	repeats := rowsOf("x,name", 12, func(i int) string {
		if i == 5 {
			return "5.5,867"
		}
		return fmt.Sprintf("%d.5,S%d", i, i%4)
	})
	cases := []struct {
		name, in string
		opt      Options
		want     string
	}{
		{"names", names, Options{}, `a number, but line 2 has "S0", and every value of the column differs, as names or keys do: give it as the ID column (tether: -id name; library: Options.IDColumn), or leave it out (tether: -drop name; library: Options.Drop)`},
		{"repeats", repeats, Options{}, `a number, but line 2 has "S0": fix the value, or one-hot encode the column (tether: -categorical 2; library: Options.Categorical)`},
		{"few values", "x,name\n0.5,a\n1.5,2\n2.5,b\n", Options{}, `a number, but line 2 has "a": fix the value, or one-hot encode the column (tether: -categorical 2; library: Options.Categorical)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(context.Background(), strings.NewReader(c.in), "p.csv", cli(c.opt))
			if !errors.Is(err, ErrSyntax) || !strings.HasSuffix(err.Error(), c.want) {
				t.Errorf("error %v\nwant ErrSyntax ending %q", err, c.want)
			}
		})
	}
	// With an ID column already, only -drop is suggested.
	in := rowsOf("id,x,name", 12, func(i int) string {
		if i == 5 {
			return "r5,5.5,867"
		}
		return fmt.Sprintf("r%d,%d.5,S%d", i, i, i)
	})
	_, err := Read(context.Background(), strings.NewReader(in), "p.csv", cli(Options{IDColumn: "id"}))
	if want := `as names or keys do: leave it out (tether: -drop name; library: Options.Drop)`; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("with an ID column: error %v, want one ending %q", err, want)
	}
}

// TestLineRanges: runs of consecutive lines are written as ranges, two
// consecutive lines as two numbers.
func TestLineRanges(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{
		{[]int{7}, "7"},
		{[]int{2, 3}, "2, 3"},
		{[]int{2, 3, 4, 5, 6, 70, 88, 89, 90}, "2–6, 70, 88–90"},
		{[]int{1, 3, 5}, "1, 3, 5"},
	} {
		if got := lineRanges(c.in); got != c.want {
			t.Errorf("lineRanges(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}
