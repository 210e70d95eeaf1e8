package dataset

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestReadValues(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		opt      ValueOptions
		want     []float64
		lines    []int
		err      error
		msg      string
	}{
		{"plain", "1\n2.5\n3e2\n", ValueOptions{}, []float64{1, 2.5, 300}, []int{1, 2, 3}, nil, ""},
		{"header comments blanks crlf", "size\r\n# c\r\n\r\n 4 \r\n%x\r\n5\r\n", ValueOptions{}, []float64{4, 5}, []int{4, 6}, nil, ""},
		{"bare cr", "1\r2\r", ValueOptions{}, []float64{1, 2}, []int{1, 2}, nil, ""},
		{"negative kept", "-1\n", ValueOptions{}, []float64{-1}, []int{1}, nil, ""},
		{"nan", "1\nNaN\n", ValueOptions{}, nil, nil, ErrSyntax, `dataset: f.txt:2: value "NaN": syntax error: not a finite decimal number`},
		{"inf", "2\n3\ninf\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:3: value "inf"`},
		{"two fields", "1\n2 3\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:2: value "2 3": syntax error: want one number per line`},
		{"word after numbers", "1\nabc\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:2: value "abc"`},
		{"only header", "abc\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:1: value "abc"`},
		{"two headers", "a\nb\n1\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:2: value "b"`},
		{"empty", "", ValueOptions{}, nil, nil, ErrSyntax, "no values"},
		// A first line written as numbers is a bad value, never a header
		// that would drop it silently.
		{"first nan", "NaN\n1\n2\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:1: value "NaN": syntax error: not a finite decimal number`},
		{"first inf", "-Inf\n1\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:1: value "-Inf"`},
		{"first overflow", "1e400\n1\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:1: value "1e400"`},
		{"first two numbers", "1,2\n3\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:1: value "1,2": syntax error: want one number per line`},
		{"first two numbers blank", "1 2\n3\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:1: value "1 2"`},
		{"header with words", "cluster size\n3\n", ValueOptions{}, []float64{3}, []int{2}, nil, ""},
		{"quoted header", "\"size\"\n3\n", ValueOptions{}, []float64{3}, []int{2}, nil, ""},
		// A malformed first value is an error, not a header skipped
		// without a word (review 108): only a line that begins with a
		// letter can be a header.
		{"first malformed", "3x\n2\n3\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:1: value "3x": syntax error: not a finite decimal number`},
		{"first hexadecimal", "0x10\n2\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:1: value "0x10"`},
		{"first two points", "1.5.\n2\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:1: value "1.5."`},
		{"first bare exponent", "1.5e\n2\n", ValueOptions{}, nil, nil, ErrSyntax, `f.txt:1: value "1.5e"`},
		{"first unicode minus", "\u22123\n2\n", ValueOptions{}, nil, nil, ErrSyntax, "f.txt:1: value \"\u22123\""},
		{"first infinity sign", "\u221e\n2\n", ValueOptions{}, nil, nil, ErrSyntax, "f.txt:1: value \"\u221e\""},
		{"first arabic digit", "\u0663\n2\n", ValueOptions{}, nil, nil, ErrSyntax, "f.txt:1: value \"\u0663\""},
		{"too many", "1\n2\n3\n", ValueOptions{MaxValues: 2}, nil, nil, ErrTooLarge, "f.txt:3: input too large: more than 2 values"},
		{"long line", "1\n" + strings.Repeat("1", 20) + "\n", ValueOptions{MaxLineBytes: 10}, nil, nil, ErrTooLarge, "f.txt:2: input too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadValues(strings.NewReader(tc.in), "f.txt", tc.opt)
			if tc.err != nil {
				if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("err = %v, want %v containing %q", err, tc.err, tc.msg)
				}
				return
			}
			if err != nil || !slices.Equal(d.Values, tc.want) || !slices.Equal(d.Lines, tc.lines) {
				t.Fatalf("got %+v, %v; want %v at lines %v", d, err, tc.want, tc.lines)
			}
			// The header skipped, if any, is the line before the first
			// value that is not blank or a comment: line 1 here.
			if skipped := tc.lines[0] > 1 && !strings.HasPrefix(tc.in, "1"); skipped != (d.HeaderLine == 1) || skipped && d.Header != strings.TrimSpace(strings.SplitN(strings.ReplaceAll(tc.in, "\r", "\n"), "\n", 2)[0]) {
				t.Errorf("header %q at line %d", d.Header, d.HeaderLine)
			}
		})
	}
}

func FuzzReadValues(f *testing.F) {
	for _, s := range []string{"1\n2\n", "size\n3\n# c\n4.5e1\n", "NaN\n", "1 2\n", "\r\r7\r", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		d, err := ReadValues(strings.NewReader(in), "fuzz.txt", ValueOptions{MaxValues: 1000})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || !(errors.Is(err, ErrSyntax) || errors.Is(err, ErrTooLarge)) {
				t.Fatalf("error %v is not a ParseError wrapping ErrSyntax or ErrTooLarge", err)
			}
			return
		}
		if len(d.Values) == 0 || len(d.Values) != len(d.Lines) || len(d.Values) > 1000 {
			t.Fatalf("%d values, %d lines", len(d.Values), len(d.Lines))
		}
		for i, v := range d.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("value %v", v)
			}
			if i > 0 && d.Lines[i] <= d.Lines[i-1] {
				t.Fatalf("lines not increasing: %v", d.Lines)
			}
		}
	})
}
