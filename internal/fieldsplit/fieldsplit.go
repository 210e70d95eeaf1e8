// Package fieldsplit holds the rules by which tether's text readers cut a
// line into fields: the detection of the delimiter (comma, tab, semicolon
// or runs of blanks) and the splitting itself, honouring quotes. Package
// dataset's tables, graphs and labels files and package constraint's
// constraint and labels files share them, so that a file laid out one way
// is read the same by every reader.
package fieldsplit

import (
	"encoding/csv"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// Candidates are the delimiters Detect looks for, in order of preference.
const Candidates = ",\t;"

// Detect returns the delimiter of lines: the first of comma, tab and
// semicolon that occurs the same, non-zero number of times (outside double
// quotes) on each of the first 20 lines; failing that the first of them
// present on the first line; failing that 0, which means runs of blanks.
// Readers that decide on one line (labels and constraint files) pass that
// line alone. Cost O(size of the first 20 lines).
func Detect(lines []string) byte {
	countOutside := func(l string, c byte) int {
		n := 0
		inq := false
		for i := 0; i < len(l); i++ {
			switch {
			case l[i] == '"':
				inq = !inq
			case !inq && l[i] == c:
				n++
			}
		}
		return n
	}
	if len(lines) == 0 {
		return 0
	}
	sample := lines
	if len(sample) > 20 {
		sample = sample[:20]
	}
	for i := 0; i < len(Candidates); i++ {
		c := Candidates[i]
		want := countOutside(sample[0], c)
		if want == 0 {
			continue
		}
		ok := true
		for _, l := range sample[1:] {
			if countOutside(l, c) != want {
				ok = false
				break
			}
		}
		if ok {
			return c
		}
	}
	for i := 0; i < len(Candidates); i++ {
		if countOutside(sample[0], Candidates[i]) > 0 {
			return Candidates[i]
		}
	}
	return 0
}

// Name returns how messages name delimiter d: "commas", "tabs",
// "semicolons", "blanks" (d = 0) or the character quoted.
func Name(d byte) string {
	switch d {
	case ',':
		return "commas"
	case '\t':
		return "tabs"
	case ';':
		return "semicolons"
	case 0, ' ':
		return "blanks"
	}
	return fmt.Sprintf("%q", d)
}

// Splitter splits a line into fields.
type Splitter struct {
	// Delim is the field separator; 0 means runs of spaces and tabs.
	Delim byte
	// Quotes lists the characters that may open a quoted field.
	Quotes string
	// Backslash makes '\' escape the next character inside quotes (ARFF).
	Backslash bool
}

// Split appends the fields of line to dst[:0]. The error reports the
// 1-based character position of an unterminated quote or of stray text
// after a closing quote; the readers wrap it in their own.
func (sp Splitter) Split(line string, dst []string) ([]string, int, error) {
	dst = dst[:0]
	isSpace := func(c byte) bool {
		return (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') && c != sp.Delim
	}
	i, n := 0, len(line)
	if sp.Delim == 0 {
		for {
			for i < n && isSpace(line[i]) {
				i++
			}
			if i == n {
				return dst, 0, nil
			}
			f, j, pos, err := sp.field(line, i, isSpace)
			if err != nil {
				return dst, pos, err
			}
			dst = append(dst, f)
			i = j
		}
	}
	if isBlank(line) {
		return dst, 0, nil
	}
	for {
		for i < n && isSpace(line[i]) {
			i++
		}
		f, j, pos, err := sp.field(line, i, isSpace)
		if err != nil {
			return dst, pos, err
		}
		dst = append(dst, f)
		i = j
		if i >= n {
			return dst, 0, nil
		}
		// line[i] is the delimiter.
		i++
		if i == n {
			dst = append(dst, "")
			return dst, 0, nil
		}
	}
}

// field reads one field starting at i (leading spaces already skipped) and
// returns it with the index of the delimiter (or n) that ends it.
func (sp Splitter) field(line string, i int, isSpace func(byte) bool) (string, int, int, error) {
	n := len(line)
	if i < n && strings.IndexByte(sp.Quotes, line[i]) >= 0 {
		q := line[i]
		start := i
		i++
		var b strings.Builder
		closed := false
		for i < n {
			c := line[i]
			if sp.Backslash && c == '\\' && i+1 < n {
				b.WriteByte(line[i+1])
				i += 2
				continue
			}
			if c == q {
				if i+1 < n && line[i+1] == q {
					b.WriteByte(q)
					i += 2
					continue
				}
				closed = true
				i++
				break
			}
			b.WriteByte(c)
			i++
		}
		if !closed {
			return "", 0, start + 1, errors.New("unterminated quote")
		}
		j := i
		for j < n && isSpace(line[j]) {
			j++
		}
		if j < n && (sp.Delim == 0 && j == i || sp.Delim != 0 && line[j] != sp.Delim) {
			return "", 0, j + 1, fmt.Errorf("unexpected %q after closing quote", line[j])
		}
		return b.String(), j, 0, nil
	}
	start := i
	if sp.Delim == 0 {
		for i < n && !isSpace(line[i]) {
			i++
		}
		return line[start:i], i, 0, nil
	}
	j := strings.IndexByte(line[i:], sp.Delim)
	if j < 0 {
		j = n
	} else {
		j += i
	}
	f := line[start:j]
	f = strings.TrimRight(f, " \t\r\f\v")
	return f, j, 0, nil
}

// isBlank reports whether a line holds only spaces and tabs.
func isBlank(s string) bool {
	return strings.TrimLeft(s, " \t\r\f\v") == ""
}

// TrailingEmpty reports whether line, a data line of a file whose fields
// delim separates (0 or ' ': runs of blanks), ends in a delimiter that
// trimming the line's blanks hides, so that an empty last field follows
// its last visible one: any blank after the last field when blanks
// separate the fields ("1 "), a tab among the trailing blanks when tabs do
// ("1\t"). Commas and semicolons are not blanks: SplitLine already gives
// "1," and "1;" their empty last field, and TrailingEmpty reports false
// for them, as for a line of blanks alone. The readers of two-column
// labels files, which trim each line before SplitLine, call it to read
// such a line as a node with an empty (unknown) label; whether the file
// has two columns is theirs to know (its first data line), since a
// trailing blank on a one-column line is invisible and means nothing.
// Cost O(len(line)).
func TrailingEmpty(line string, delim byte) bool {
	body := strings.TrimRight(line, " \t\r\f\v")
	if body == "" || strings.TrimLeft(body, " \t\r\f\v") == "" {
		return false
	}
	trail := line[len(body):]
	switch delim {
	case 0, ' ':
		return trail != ""
	case '\t':
		return strings.IndexByte(trail, '\t') >= 0
	}
	return false
}

// SplitLine splits one line of a labels or constraint file on delim (0 or
// ' ': runs of blanks), as Detect found it on the file's first data line:
// CSV double quotes are honoured ("Smith, J" is one field) and blanks
// around fields trimmed, as encoding/csv with TrimLeadingSpace does (so a
// run of tabs separates two fields of a tab-separated line). An empty line is one empty field. The error names
// the character at fault (for a CSV error, its byte position in the line
// and encoding/csv's cause, without the csv reader's line number). Cost
// O(len(line)).
func SplitLine(line string, delim byte) ([]string, error) {
	if line == "" {
		return []string{""}, nil
	}
	if delim == 0 || delim == ' ' {
		f, pos, err := Splitter{Quotes: `"`}.Split(line, nil)
		if err != nil {
			return nil, fmt.Errorf("character %d: %w", pos, err)
		}
		return f, nil
	}
	if strings.IndexByte(line, '"') < 0 {
		// What encoding/csv returns for a line without quotes, without
		// its allocations (constraint files run to millions of lines):
		// as its TrimLeadingSpace, the blanks that begin a field are
		// skipped, tabs included, so that with tabs as the delimiter a
		// run of them separates two fields.
		var f []string
		rest := line
		for {
			rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
			j := strings.IndexByte(rest, delim)
			if j < 0 {
				return append(f, strings.TrimSpace(rest)), nil
			}
			f = append(f, strings.TrimSpace(rest[:j]))
			rest = rest[j+1:]
		}
	}
	cr := csv.NewReader(strings.NewReader(line))
	cr.Comma = rune(delim)
	cr.TrimLeadingSpace = true
	f, err := cr.Read()
	if err != nil {
		// The csv reader's own line number is that of a one-line reader,
		// always 1, beside the file:line the callers give: keep only the
		// position in the line and the cause.
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("character %d: %w", pe.Column, pe.Err)
		}
		return nil, err
	}
	for a := range f {
		f[a] = strings.TrimSpace(f[a])
	}
	return f, nil
}

// Quote returns s as a field of a comma-separated line that SplitLine
// reads back as s, the blanks around it trimmed as SplitLine trims every
// field: between double quotes, its own doubled, when it holds a comma, a
// double quote or a line end, or begins with # or % (which make a line
// that begins with the field a comment to tether's readers); else as it
// is. Cost O(len(s)).
func Quote(s string) string {
	if s == "" {
		return s
	}
	if t := strings.TrimLeftFunc(s, unicode.IsSpace); t != "" && (t[0] == '#' || t[0] == '%') || strings.ContainsAny(s, ",\"\r\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}
