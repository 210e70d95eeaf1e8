package dataset

import (
	"fmt"
	"slices"
	"strings"
)

// FrontMissingMarkers returns the Options.MissingMarkers of a front end's
// list of the field values that mean missing (tether's -missing-markers,
// tether serve's and a job's missing_markers): the list, each marker's
// blanks trimmed (the reader compares fields trimmed), after the two
// defaults ? and the empty field, which the front ends always read as
// missing, whatever the list (their rule: the list adds markers, never
// removes the defaults; the library's nil MissingMarkers is the
// defaults alone, and a list given to it replaces them). It returns nil,
// the defaults, when the list adds nothing to them (no marker, or ?
// and empty ones only), and drops repeated markers.
//
// A marker that the reader reads as a number ("0", "-1", "-999", "1e3")
// is an error naming it: it would read that number, in every column, as
// missing (-1 is what tether's labels files write for an unknown class,
// never a feature's missing value). So is a marker holding a line
// break, which no field holds. A marker holding the delimiter is
// accepted: it matches a quoted field ("N,A"). The errors name the
// marker, not the front end's option, which the front end adds. Cost
// O(total length of the list).
func FrontMissingMarkers(list []string) ([]string, error) {
	var out []string
	for _, m := range list {
		m = strings.TrimSpace(m)
		switch {
		case strings.ContainsAny(m, "\n\r"):
			return nil, fmt.Errorf("marker %s holds a line break, which no field does (a line ends there)", quote(m))
		case m == "?" || m == "":
			continue
		}
		if _, ok := parseNum(m); ok {
			return nil, fmt.Errorf("marker %s is a number: every field %s, in every column, would be read as missing, not as the number; write the file's missing values as ? or an empty field, or as a word such as NA, and list that", quote(m), m)
		}
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	if out == nil {
		return nil, nil
	}
	return append([]string{"?", ""}, out...), nil
}

// markersWith returns the front end's list of missing values' markers
// that reads v as missing too, comma-separated, as its option takes it
// (Spelling.MissingMarkers): the markers of markers beyond the defaults ?
// and "" (which FrontMissingMarkers puts before the front end's own), in
// their order, then v. With nil markers it is v alone. Cost O(total
// length).
func markersWith(markers []string, v string) string {
	var list []string
	for _, m := range markers {
		if m != "?" && m != "" && m != v && !slices.Contains(list, m) {
			list = append(list, m)
		}
	}
	return strings.Join(append(list, v), ",")
}
