package dataset

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tether-sc/tether/internal/inputfile"
)

// DefaultMaxValues bounds the number of values ReadValues accepts when the
// options leave the limit at 0: 2²⁸ (2 GiB of float64).
const DefaultMaxValues = 1 << 28

// ValueOptions controls ReadValues. The zero value uses the default limits.
type ValueOptions struct {
	// MaxValues bounds the number of values; a file with more is an error
	// wrapping ErrTooLarge. If MaxValues is 0, DefaultMaxValues is used.
	MaxValues int
	// MaxLineBytes bounds the length of a line. If MaxLineBytes is 0,
	// DefaultMaxLineBytes is used.
	MaxLineBytes int
}

// ValueData is the content of a file of values.
type ValueData struct {
	// Values are the numbers in file order.
	Values []float64
	// Lines[i] is the 1-based line of Values[i], for error messages.
	Lines []int
	// Header is the line read as a header and skipped, blanks trimmed,
	// and HeaderLine its 1-based number; "" and 0 when there was none.
	Header     string
	HeaderLine int
}

// ReadValuesFile reads the named file with ReadValues. It is
// ReadValuesFileContext with a context that is never cancelled.
func ReadValuesFile(path string, opt ValueOptions) (*ValueData, error) {
	return ReadValuesFileContext(context.Background(), path, opt)
}

// ReadValuesFileContext reads the named file with ReadValuesContext. A
// FIFO without a writer is waited for until ctx is cancelled.
func ReadValuesFileContext(ctx context.Context, path string, opt ValueOptions) (*ValueData, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	return ReadValuesContext(ctx, f, path, opt)
}

// ReadValues is ReadValuesContext with a context that is never cancelled.
func ReadValues(r io.Reader, name string, opt ValueOptions) (*ValueData, error) {
	return ReadValuesContext(context.Background(), r, name, opt)
}

// ReadValuesContext reads one number per line from r (a sample of sizes, counts
// or measurements, as `tether powerlaw fit` takes); name is used in error
// messages. Blank lines and lines starting with '#' or '%' are skipped, and
// so is a first line that begins with a letter, none of whose fields is
// written as a number (a header, ValueData.Header), when the next data
// line is one; a first line that begins otherwise ("3x", "1.5.", "−3"
// with a Unicode minus, "∞") is a malformed value, an error. Surrounding blanks are ignored. Anything else that is not a
// finite decimal number — a second field, "NaN", "Inf", hexadecimal — is an
// error wrapping ErrSyntax that names the file, the line and the value (a
// *ParseError); so is an empty file. More than MaxValues values give an
// error wrapping ErrTooLarge. Lines end at "\n", "\r\n" or "\r".
//
// Cost: O(file size); the file is held in memory while it is read. ctx is
// checked while r is read and every few thousand lines; a cancelled read
// returns ctx's error, wrapped.
func ReadValuesContext(ctx context.Context, r io.Reader, name string, opt ValueOptions) (*ValueData, error) {
	maxVals := opt.MaxValues
	if maxVals <= 0 {
		maxVals = DefaultMaxValues
	}
	lines, err := readAll(ctx, r, name, opt.MaxLineBytes)
	if err != nil {
		return nil, err
	}
	d := &ValueData{}
	header := -1 // line index of a skipped header
	for i, l := range lines {
		if err := poll(ctx, name, i); err != nil {
			return nil, err
		}
		if isBlank(l) {
			continue
		}
		t := strings.Trim(l, " \t\r\f\v")
		if t[0] == '#' || t[0] == '%' {
			continue
		}
		v, ok := parseNum(t)
		if !ok {
			if len(d.Values) == 0 && header < 0 && headerLike(t) {
				header = i
				continue
			}
			if strings.ContainsAny(t, " \t,;") {
				return nil, &ParseError{File: name, Line: i + 1, Value: t, Err: errorf(ErrSyntax, "want one number per line")}
			}
			return nil, &ParseError{File: name, Line: i + 1, Value: t, Err: errorf(ErrSyntax, "not a finite decimal number")}
		}
		if len(d.Values) >= maxVals {
			return nil, &ParseError{File: name, Line: i + 1, Err: errorf(ErrTooLarge, "more than %d values", maxVals)}
		}
		d.Values = append(d.Values, v)
		d.Lines = append(d.Lines, i+1)
	}
	if header >= 0 && len(d.Values) > 0 {
		d.Header, d.HeaderLine = strings.Trim(lines[header], " \t\r\f\v"), header+1
	}
	if len(d.Values) == 0 {
		if header >= 0 {
			t := strings.Trim(lines[header], " \t\r\f\v")
			return nil, &ParseError{File: name, Line: header + 1, Value: t, Err: errorf(ErrSyntax, "not a finite decimal number")}
		}
		return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "no values")}
	}
	return d, nil
}

// headerLike reports whether line, not a number, can be a header of a
// file of values: it begins with a letter (or a quote or an underscore
// before one's name), and no field of it is written as a number
// (hasNumberField). A line that begins with a digit, a sign or another
// symbol is a malformed value. Cost O(len(line)).
func headerLike(line string) bool {
	r, _ := utf8.DecodeRuneInString(line)
	return (unicode.IsLetter(r) || r == '"' || r == '\'' || r == '_') && !hasNumberField(line)
}

// hasNumberField reports whether a field of line (split at blanks, commas
// and semicolons) is written as a number, finite or not (numberLike): such a
// line is data with a bad value, never a header to skip.
func hasNumberField(line string) bool {
	for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == ';' }) {
		if numberLike(f) {
			return true
		}
	}
	return false
}
