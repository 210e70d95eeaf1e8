package dataset

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestFrontMissingMarkers: a front end's list of missing values' markers
// adds to ? and the empty field (trimmed, repeats once), nil when it adds
// nothing; a number, which would read that number as missing in every
// column, and a line break, which no field holds, are errors naming the
// marker. A delimiter is accepted: a quoted field holds it.
func TestFrontMissingMarkers(t *testing.T) {
	for _, c := range []struct {
		name string
		list []string
		want []string
		err  string
	}{
		{"none", nil, nil, ""},
		{"defaults only", []string{"?", "", " "}, nil, ""},
		{"NA", []string{"NA"}, []string{"?", "", "NA"}, ""},
		{"trimmed, repeated, defaults listed", []string{" NA ", "NULL", "NA", "?", ""}, []string{"?", "", "NA", "NULL"}, ""},
		{"NaN is no number", []string{"NaN", "nan"}, []string{"?", "", "NaN", "nan"}, ""},
		{"a delimiter", []string{"N;A", "N,A"}, []string{"?", "", "N;A", "N,A"}, ""},
		{"zero", []string{"NA", "0"}, nil, `marker "0" is a number: every field 0, in every column, would be read as missing, not as the number`},
		{"minus one", []string{"-1"}, nil, `marker "-1" is a number`},
		{"a sentinel", []string{" -999.0 "}, nil, `marker "-999.0" is a number`},
		{"an exponent", []string{"1e3"}, nil, `marker "1e3" is a number`},
		{"a line break", []string{"N\nA"}, nil, `marker "N\nA" holds a line break`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := FrontMissingMarkers(c.list)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("FrontMissingMarkers(%q) = %q, %v; want an error with %q", c.list, got, err, c.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, c.want) || (got == nil) != (c.want == nil) {
				t.Errorf("FrontMissingMarkers(%q) = %#v, %v; want %#v", c.list, got, err, c.want)
			}
		})
	}
}

// TestFrontMissingMarkersRead: R's NA and SQL's NULL, listed as a front
// end lists them, are missing values as ? is (the same imputed matrix and
// note), while ? and empty fields stay missing; the file refused without
// them.
func TestFrontMissingMarkersRead(t *testing.T) {
	const want = "x,y\n1,2\n2,?\n3,\n4,5\n5,?\n"
	for _, c := range []struct {
		name, in string
		list     []string
	}{
		{"NA", "x,y\n1,2\n2,NA\n3,\n4,5\n5,?\n", []string{"NA"}},
		{"NA and NULL", "x,y\n1,2\n2,NA\n3,\n4,5\n5,NULL\n", []string{"NA", "NULL"}},
		{"quoted NA", "x,y\n1,2\n2,\"NA\"\n3,\n4,5\n5,?\n", []string{"NA"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ref, err := Read(context.Background(), strings.NewReader(want), "t.csv", Options{Missing: MissingImpute})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Read(context.Background(), strings.NewReader(c.in), "t.csv", Options{Missing: MissingImpute}); err == nil || !strings.Contains(err.Error(), "looks like a missing value") {
				t.Errorf("without the markers: error %v, want one saying it looks like a missing value", err)
			}
			markers, err := FrontMissingMarkers(c.list)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Read(context.Background(), strings.NewReader(c.in), "t.csv", Options{Missing: MissingImpute, MissingMarkers: markers})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.X.RawMatrix().Data, ref.X.RawMatrix().Data) || !slices.Equal(got.Notes, ref.Notes) {
				t.Errorf("with %q: X %v, notes %q; want those of ? and empty fields, %v, %q", c.list, got.X.RawMatrix().Data, got.Notes, ref.X.RawMatrix().Data, ref.Notes)
			}
			if !slices.ContainsFunc(got.Notes, func(n string) bool { return strings.Contains(n, "imputed 3 missing values in 3 rows") }) {
				t.Errorf("notes %q: want the 3 imputed cells counted", got.Notes)
			}
		})
	}
}
