package fieldsplit

import (
	"encoding/csv"
	"reflect"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  byte
	}{
		{"comma", []string{"0,1,ml"}, ','},
		{"tab", []string{"0\t1\tml"}, '\t'},
		{"semicolon", []string{"0;1;ml"}, ';'},
		{"blanks", []string{"0 1  ml"}, 0},
		{"comma inside quotes", []string{`"a,b" c`}, 0},
		{"consistent tab beats a stray comma", []string{"a,b\tc", "d\te"}, '\t'},
		{"none", nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Detect(tc.lines); got != tc.want {
				t.Errorf("Detect(%q) = %q, want %q", tc.lines, got, tc.want)
			}
		})
	}
}

func TestSplitLine(t *testing.T) {
	for _, tc := range []struct {
		name  string
		line  string
		delim byte
		want  []string
		err   string
	}{
		{"comma", " 0 , 1 ,ml", ',', []string{"0", "1", "ml"}, ""},
		{"trailing comma", "0,1,ml,", ',', []string{"0", "1", "ml", ""}, ""},
		{"tab", "0\t1\tml", '\t', []string{"0", "1", "ml"}, ""},
		{"run of tabs", "0\t\t1\tml", '\t', []string{"0", "1", "ml"}, ""},
		{"quoted comma", `"Smith, J",b,ml`, ',', []string{"Smith, J", "b", "ml"}, ""},
		{"blanks", "  0 \t 1 ml ", 0, []string{"0", "1", "ml"}, ""},
		{"blanks, quoted", `"a b" c`, 0, []string{"a b", "c"}, ""},
		{"empty line", "", ',', []string{""}, ""},
		{"empty line, blanks", "", 0, []string{""}, ""},
		{"bare quote", `a"b,c`, ',', nil, "character 2: bare \" in non-quoted-field"},
		// The csv reader's "parse error on line 1" (a line of its own
		// one-line input, beside the caller's file:line) is dropped.
		{"unterminated, comma", `0,"x`, ',', nil, "character 5: extraneous or missing \" in quoted-field"},
		{"quote inside quoted field", `"a"b";c`, ';', nil, "character 3: extraneous or missing \" in quoted-field"},
		{"unterminated, blanks", `"ab c`, 0, nil, "character 1: unterminated quote"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SplitLine(tc.line, tc.delim)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "line") {
					t.Fatalf("error %v, want one containing %q and no line number", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("SplitLine(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
			}
		})
	}
}

// TestTrailingEmpty: the delimiters a trimmed line loses, by hand: only
// blanks for blank-separated lines and a tab for tab-separated ones.
func TestTrailingEmpty(t *testing.T) {
	for _, tc := range []struct {
		name  string
		line  string
		delim byte
		want  bool
	}{
		{"tab", "1\t", '\t', true},
		{"tab after blanks", "1 \t ", '\t', true},
		{"blank in a tab file", "1 ", '\t', false},
		{"no trailing tab", "1", '\t', false},
		{"blank", "1 ", 0, true},
		{"tab in a blank file", "1\t", 0, true},
		{"blank, delimiter ' '", "1 ", ' ', true},
		{"no trailing blank", "1", 0, false},
		{"quoted, blank", `"a b" `, 0, true},
		{"comma, kept by trimming", "1,", ',', false},
		{"blank after a comma", "1, ", ',', false},
		{"semicolon", "1;", ';', false},
		{"blanks only", " \t ", 0, false},
		{"tabs only", "\t\t", '\t', false},
		{"empty", "", 0, false},
		{"carriage return", "1\r", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TrailingEmpty(tc.line, tc.delim); got != tc.want {
				t.Errorf("TrailingEmpty(%q, %q) = %v, want %v", tc.line, tc.delim, got, tc.want)
			}
		})
	}
}

// FuzzSplitLine: a line without quotes splits as encoding/csv splits it
// (SplitLine's fast path), and no line panics.
func FuzzSplitLine(f *testing.F) {
	for _, s := range []string{"0,1,ml", " a ; b ;", "x\ty\t", `"q,r",s`, "0 1 ml", `0,"x`, `a"b,c`} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, line string, d uint8) {
		delim := []byte{',', '\t', ';', 0}[d%4]
		if strings.ContainsAny(line, "\r\n") {
			return // lines come cut at their endings
		}
		got, err := SplitLine(line, delim)
		if delim == 0 || line == "" || strings.Contains(line, `"`) {
			return
		}
		cr := csv.NewReader(strings.NewReader(line))
		cr.Comma = rune(delim)
		cr.TrimLeadingSpace = true
		want, werr := cr.Read()
		if werr != nil {
			return // csv refuses, e.g., a line of blanks (no record)
		}
		for a := range want {
			want[a] = strings.TrimSpace(want[a])
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("SplitLine(%q, %q) = %q, %v; encoding/csv gives %q", line, delim, got, err, want)
		}
	})
}

// TestQuoteRoundTrip: a line of quoted fields splits back into the
// fields, whatever they hold (the blanks around them trimmed, as from
// every field), and a first field that begins with # or %
// does not begin the line with it (tether's readers skip such lines as
// comments); plain fields are left as they are.
func TestQuoteRoundTrip(t *testing.T) {
	fields := []string{"a", "#B", "%c", " #lead", " lead", "trail ", "\ttab", `q"x`, "a,b", "#", "x\ny", "", "ünï", "1"}
	for _, first := range fields {
		for _, second := range fields {
			line := Quote(first) + "," + Quote(second)
			if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "%") {
				t.Errorf("%q begins a comment", line)
			}
			if strings.ContainsAny(line, "\n") {
				continue // a line end cannot be in one line of the readers
			}
			got, err := SplitLine(line, Detect([]string{line}))
			a, b := strings.TrimSpace(first), strings.TrimSpace(second)
			if err != nil || len(got) != 2 || got[0] != a || got[1] != b {
				t.Errorf("%q split into %q (%v), want %q, %q", line, got, err, a, b)
			}
		}
	}
	for _, plain := range []string{"a", "ünï", "1", "x y"} {
		if Quote(plain) != plain {
			t.Errorf("Quote(%q) = %q, want it as it is", plain, Quote(plain))
		}
	}
}
