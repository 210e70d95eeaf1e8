package dataset

import (
	"context"
	"math"
	"strings"
	"testing"
)

func TestReadDocTerm(t *testing.T) {
	in := "3 4 5\n1 2 1\n\n3 4 2.5\n1 1 3\n3 4 0.5\n2 3 0\n"
	s, err := ReadDocTerm(strings.NewReader(in), "dt.txt", 0)
	if err != nil {
		t.Fatal(err)
	}
	// Row 1: (1,1) = 3, (1,2) = 1; row 2: nothing stored; row 3: (3,4) = 3.
	want := [][]float64{{3, 1, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 3}}
	if r, c := s.Dims(); r != 3 || c != 4 || s.NNZ() != 3 {
		t.Fatalf("%d×%d with %d entries", r, c, s.NNZ())
	}
	for i := range want {
		for j, v := range want[i] {
			if s.At(i, j) != v {
				t.Errorf("At(%d, %d) = %v, want %v", i, j, s.At(i, j), v)
			}
		}
	}
	if s.T().At(3, 2) != 3 {
		t.Error("T")
	}
	for _, tc := range []struct{ in, want string }{
		{"", "dt.txt: empty file"},
		{"3 4\n", "dt.txt:1: header has 2 fields"},
		{"3 x 1\n", `dt.txt:1: header field "x"`},
		{"0 4 0\n", "dt.txt:1: 0×4 matrix"},
		{"9999999 9999999 1\n", "exceed the limit"},
		{"2 2 1\n1 1\n", "dt.txt:2: 2 fields"},
		{"2 2 1\n3 1 1\n", `dt.txt:2: row "3" outside 1…2`},
		{"2 2 1\n1 0 1\n", `dt.txt:2: column "0" outside 1…2`},
		{"2 2 2\n1 1 1\n\n1 2 -1\n", `dt.txt:4: value "-1" is not a finite number ≥ 0`},
		{"2 2 1\n1 1 NaN\n", "not a finite number"},
		{"2 2 1\n1 1 1\n2 2 1\n", "dt.txt:3: more than the 1 entries"},
		{"2 2 2\n1 1 1\n", "dt.txt:2: 1 entries, the header says 2"},
		{"1 1 2\n1 1 1e308\n1 1 1e308\n", "overflows"},
	} {
		_, err := ReadDocTerm(strings.NewReader(tc.in), "dt.txt", 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestReadDocTermRepeats: entries repeated for a (row, column) are summed
// with a warning giving their number and the earliest repeat with both
// lines, as repeated graph edges draw one (they were summed silently).
func TestReadDocTermRepeats(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"3 4 3\n1 2 1\n3 4 2\n1 1 3\n", ""},
		// (3,4) on lines 3 and 5, (1,2) on lines 2 and 6: the earliest
		// repeat is line 5's.
		{"3 4 5\n1 2 1\n3 4 2.5\n1 1 3\n3 4 0.5\n1 2 1\n", "dt.txt:5: 2 entries repeat the row and column of an earlier one (the first: row 3, column 4, also on line 3); the values of each (row, column) are summed"},
		{"1 1 2\n1 1 1\n1 1 2\n", "dt.txt:3: 1 entry repeats the row and column of an earlier one (the first: row 1, column 1, also on line 2)"},
	} {
		d, err := ReadDocTermData(context.Background(), strings.NewReader(tc.in), "dt.txt", 0)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		got := strings.Join(d.Warnings, "\n")
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%q: warnings %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTFIDFAndSelectRows(t *testing.T) {
	s, err := ReadDocTerm(strings.NewReader("3 4 6\n1 1 2\n2 1 1\n3 1 1\n1 2 1\n2 3 4\n3 3 1\n"), "x", 0)
	if err != nil {
		t.Fatal(err)
	}
	w := TFIDF(s)
	// Term 1 is in every document: weight 0, not stored; term 2 in one of
	// three: 1·ln 3; term 3 in two: 4·ln 1.5.
	if w.NNZ() != 3 || w.At(0, 0) != 0 || math.Abs(w.At(0, 1)-math.Log(3)) > 1e-15 || math.Abs(w.At(1, 2)-4*math.Log(1.5)) > 1e-15 {
		t.Errorf("tf-idf %+v", w)
	}
	sub, cols := s.SelectRows([]int{2, 0})
	if r, c := sub.Dims(); r != 2 || c != 3 || len(cols) != 3 || cols[2] != 2 {
		t.Fatalf("%d×%d, cols %v", r, c, cols)
	}
	if sub.At(0, 2) != 1 || sub.At(1, 0) != 2 || sub.At(1, 1) != 1 || sub.At(0, 1) != 0 {
		t.Errorf("sub %+v", sub)
	}
}

// FuzzReadDocTerm: no input makes ReadDocTerm panic or return an
// inconsistent matrix.
func FuzzReadDocTerm(f *testing.F) {
	for _, s := range []string{"3 4 5\n1 2 1\n\n3 4 2.5\n1 1 3\n3 4 0.5\n2 3 0\n", "1 1 1\n1 1 1\n", "2 2 1\n1 1 NaN\n", "7095 5896 2\n1 2 1\n1 5 1\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ReadDocTerm(strings.NewReader(in), "fuzz", fuzzMaxNodes)
		if err != nil {
			return
		}
		if s.Rows < 1 || s.Cols < 1 || s.Rows+s.Cols > fuzzMaxNodes || len(s.Ptr) != s.Rows+1 || s.Ptr[s.Rows] != len(s.Idx) || len(s.Idx) != len(s.Val) {
			t.Fatalf("inconsistent %d×%d, ptr %d, nnz %d", s.Rows, s.Cols, len(s.Ptr), len(s.Idx))
		}
		for i := 0; i < s.Rows; i++ {
			idx, val := s.Row(i)
			for q, j := range idx {
				if j < 0 || int(j) >= s.Cols || (q > 0 && idx[q-1] >= j) || !(val[q] > 0) || math.IsInf(val[q], 0) {
					t.Fatalf("row %d: bad entry %d = %v", i, j, val[q])
				}
			}
		}
	})
}
