package dataset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tether-sc/tether/internal/fieldsplit"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/textline"
)

// Sentinel errors wrapped by the errors of this package, for errors.Is.
var (
	// ErrSyntax reports malformed text: unterminated quotes, wrong field
	// counts, bad headers, values that are not numbers where numbers are due.
	ErrSyntax = errors.New("dataset: syntax error")
	// ErrMissing reports a missing value under the MissingReject policy.
	ErrMissing = errors.New("dataset: missing value")
	// ErrTooLarge reports a size beyond the configured limits (node counts,
	// Matrix Market dimensions, table cells).
	ErrTooLarge = errors.New("dataset: input too large")
	// ErrInvalid reports content that parses but is not acceptable: negative
	// or non-finite weights, asymmetric matrices, unknown columns.
	ErrInvalid = errors.New("dataset: invalid input")
	// ErrIdentifier reports a column of text with a different value on
	// every row (names, keys): one-hot encoded it would give every row a
	// feature of its own, which carries no similarity. The error's
	// ParseError names the column; give it as Options.IDColumn, or list
	// it in Options.Categorical to encode it anyway.
	ErrIdentifier = errors.New("dataset: identifier column")
	// ErrOption reports an option value that does not fit the file: a
	// column reference (Options.LabelColumn, IDColumn, Drop, Categorical)
	// to a column the table lacks or that has another role, or
	// Options.Delimiter or Header given with an ARFF file. It is an
	// ErrInvalid too (errors.Is) and reads as one; front ends answer it
	// as the caller's mistake (tether: exit status 2).
	ErrOption error = optionError{}
	// ErrNoFeatures reports a table whose columns are all taken by the
	// label, the ID and the dropped columns. It is an ErrInvalid too
	// (errors.Is) and reads as one; tether labels, which needs no
	// feature, answers it with its own advice.
	ErrNoFeatures error = noFeaturesError{}
)

// noFeaturesError is ErrNoFeatures's type: it reads as ErrInvalid and is
// one for errors.Is.
type noFeaturesError struct{}

func (noFeaturesError) Error() string        { return ErrInvalid.Error() }
func (noFeaturesError) Is(target error) bool { return target == ErrInvalid }

// optionError is ErrOption's type: it reads as ErrInvalid and is one for
// errors.Is.
type optionError struct{}

func (optionError) Error() string        { return ErrInvalid.Error() }
func (optionError) Is(target error) bool { return target == ErrInvalid }

// ParseError locates a problem in a text file. Line and Column are 1-based;
// 0 means unknown. Column counts fields (not characters) in tabular files.
type ParseError struct {
	File   string
	Line   int
	Column int
	Name   string // column name, if known
	Value  string // offending text, if any
	Err    error
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString("dataset: ")
	if e.File != "" {
		b.WriteString(e.File)
	} else {
		b.WriteString("<input>")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Column > 0 {
		fmt.Fprintf(&b, "column %d", e.Column)
		if e.Name != "" {
			fmt.Fprintf(&b, " (%s)", quote(e.Name))
		}
		b.WriteString(": ")
	} else if e.Name != "" {
		fmt.Fprintf(&b, "%s: ", e.Name)
	}
	if e.Value != "" || (errors.Is(e.Err, ErrMissing) && e.Line > 0) {
		fmt.Fprintf(&b, "value %s: ", quote(e.Value))
	}
	msg := e.Err.Error()
	msg = strings.TrimPrefix(msg, "dataset: ")
	b.WriteString(msg)
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// quote quotes s for an error message, shortening long values.
func quote(s string) string {
	const max = 40
	if len(s) > max {
		r := []rune(s)
		if len(r) > max {
			s = string(r[:max]) + "…"
		}
	}
	return strconv.Quote(s)
}

// errorf builds an error wrapping sentinel with a formatted message.
func errorf(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)
}

// DefaultMaxLineBytes is the longest line, in bytes without its line
// ending, that the readers accept when the options leave the limit at 0:
// 1 MiB. A longer line is an error wrapping ErrTooLarge that names the line
// and its length, instead of a field split that costs many times the line's
// size (a 50 MB file with one line, or with line endings the reader did not
// know, used to take gigabytes).
const DefaultMaxLineBytes = textline.DefaultMaxBytes

// DefaultMaxTableLineBytes is the longest line, in bytes without its line
// ending, that Read and ReadFile accept in a feature table (delimited text
// or ARFF) when Options.MaxLineBytes is 0: 64 MiB, so that wide tables
// (gene expression: tens of thousands of columns, a row of 60 000 values
// takes about 1.2 MB) are read. The file is read whole in any case, so the
// limit costs no memory up front; it stops an input without line endings
// (a pipe, a binary file without NUL bytes) after 64 MiB, and a table whose
// only line is longer than DefaultMaxLineBytes is refused before its line
// is split into fields. The other readers (edge lists, Matrix Market,
// labels, constraints, values, names) keep DefaultMaxLineBytes: their
// lines are a few fields each.
const DefaultMaxTableLineBytes = 64 << 20

// readAll reads r fully and splits it into lines by the rule of package
// textline: a line ends at "\n", "\r\n" or a bare "\r" (classic Mac OS
// files); a UTF-8 byte order mark and the empty piece after a final line
// ending are dropped. A line longer than maxLine bytes
// (DefaultMaxLineBytes if maxLine ≤ 0) is an error wrapping ErrTooLarge
// naming its 1-based number and length; name is the file name for that
// error. A NUL byte is an error wrapping ErrSyntax naming its line: no
// format read here holds one, and binary data does.
//
// Both are detected while reading, which stops there: an input without end
// (-input /dev/zero, /dev/urandom) is refused after about one line's limit
// instead of filling the memory (it used to be read whole first). ctx is
// checked before every read of r (an endless pipe stops when ctx is
// cancelled, with ctx's error wrapped, naming the file and the line
// reached) and as the input is cut into lines (textline.Lines).
//
// Cost: O(size) time; the lines are substrings of the input as read, so
// memory is the input plus one string header per line (and, when r does
// not tell its size, the input's growing copies as it is read).
func readAll(ctx context.Context, r io.Reader, name string, maxLine int) ([]string, error) {
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	tr := &textline.Reader{R: r, Ctx: ctx, Max: maxLine}
	data, err := readWhole(tr, sizeOf(r))
	if err != nil {
		line := textline.Number(data)
		if errors.Is(err, textline.ErrLong) {
			line = textline.Number(data[:len(data)-tr.Run])
		}
		return nil, readFailure(ctx, err, name, maxLine, len(data), line)
	}
	// The lines are substrings of data itself, which nothing writes
	// after this (string(data) copied the whole input once more).
	lines, long, length, err := textline.Lines(ctx, unsafe.String(unsafe.SliceData(data), len(data)), maxLine)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: stopped while cutting the lines: %w", name, err)
	}
	if long > 0 {
		return nil, &ParseError{File: name, Line: long, Err: errorf(ErrTooLarge, "line is %d bytes long, more than the limit of %d (is this a text file with one record per line?)", length, maxLine)}
	}
	return lines, nil
}

// sizeOf returns the size of what r reads when r tells it, −1 otherwise:
// the length of a bytes.Reader or strings.Reader, the size of a regular
// file (os.File, inputfile.File; read from its start, as the readers'
// files are opened). Cost O(1), a stat.
func sizeOf(r io.Reader) int {
	switch r := r.(type) {
	case interface{ Len() int }:
		return r.Len()
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() {
			return int(min(fi.Size(), math.MaxInt))
		}
	}
	return -1
}

// readWhole is io.ReadAll with room for size bytes (and one more, to see
// the end) from the start when size ≥ 0: reading a file of known size
// allocates it once, instead of about three times in growing copies.
func readWhole(r io.Reader, size int) ([]byte, error) {
	if size < 0 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, size+512)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// readFailure is the error of a read of the file name that failed with
// err (textline.Reader's errors, ctx's, r's) after size bytes, line being
// the 1-based number of the line it stopped in (of the line the long run
// began, for textline.ErrLong). readAll and lineReader share it.
func readFailure(ctx context.Context, err error, name string, maxLine, size, line int) error {
	switch {
	case errors.Is(err, textline.ErrNUL):
		return &ParseError{File: name, Line: line, Err: errorf(ErrSyntax, "NUL byte at byte %d: binary data, not a text file (UTF-16 text must be saved as UTF-8)", size+1)}
	case errors.Is(err, textline.ErrLong):
		return &ParseError{File: name, Line: line, Err: errorf(ErrTooLarge, "line is longer than the limit of %d bytes (is this a text file with one record per line?)", maxLine)}
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return fmt.Errorf("dataset: %s: reading stopped at line %d: %w", name, line, err)
	}
	return fmt.Errorf("dataset: %s: reading: %w", name, err)
}

// lineReader cuts the text of r into lines as readAll does (textline's
// line endings, a leading byte order mark dropped, the same errors for NUL
// bytes, long lines, cancellation and failed reads) one line at a time,
// keeping only the line being read: memory O(longest line + 64 KiB)
// instead of the whole text. The line next returns aliases the reader's
// buffer and is valid until the next call: a caller that keeps it (or a
// field of it) keeps strings.Clone of it.
type lineReader struct {
	ctx     context.Context
	tr      textline.Reader
	name    string
	maxLine int
	buf     []byte // buf[start:] is read and not yet cut
	start   int
	eof     bool
	err     error // the read's error (readFailure), final
	long    error // the first line longer than maxLine
	lines   int   // lines returned so far
	read    int   // bytes read so far
	size    int   // the input's size when r tells it (Len, Stat), else -1
}

// newLineReader returns the lineReader of r, named name in its errors,
// with lines of at most maxLine bytes (DefaultMaxLineBytes if ≤ 0). ctx is
// checked before every read of r.
func newLineReader(ctx context.Context, r io.Reader, name string, maxLine int) *lineReader {
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	return &lineReader{ctx: ctx, tr: textline.Reader{R: r, Ctx: ctx, Max: maxLine}, name: name, maxLine: maxLine, buf: make([]byte, 0, 64<<10), size: sizeOf(r)}
}

// next returns the next line, without its ending, and true; false at the
// end of the input or after a failed read (then Err says why).
func (lr *lineReader) next() (string, bool) {
	if lr.err != nil {
		// Lines read before a failed read are not given: the read's
		// error is the answer, as it was readAll's.
		return "", false
	}
	for {
		advance, tok, _ := textline.Split(lr.buf[lr.start:], lr.eof)
		if advance > 0 {
			lr.start += advance
			if lr.lines == 0 && len(tok) >= len(textline.BOM) && string(tok[:len(textline.BOM)]) == textline.BOM {
				tok = tok[len(textline.BOM):]
				if advance == len(textline.BOM) {
					// The byte order mark alone: no line.
					continue
				}
			}
			lr.lines++
			if len(tok) > lr.maxLine && lr.long == nil {
				// A long line whose end came in the same read: refused
				// as readAll does once the whole input is read, a failed
				// read after it overriding it.
				lr.long = &ParseError{File: lr.name, Line: lr.lines, Err: errorf(ErrTooLarge, "line is %d bytes long, more than the limit of %d (is this a text file with one record per line?)", len(tok), lr.maxLine)}
				for {
					if _, ok := lr.next(); !ok {
						break
					}
				}
				if lr.err == nil {
					lr.err = lr.long
				}
				return "", false
			}
			return unsafe.String(unsafe.SliceData(tok), len(tok)), true
		}
		if lr.eof || lr.err != nil {
			return "", false
		}
		// Keep the unread bytes, at the buffer's start, and read more.
		n := copy(lr.buf, lr.buf[lr.start:])
		lr.buf, lr.start = lr.buf[:n], 0
		if len(lr.buf) == cap(lr.buf) {
			lr.buf = slices.Grow(lr.buf, len(lr.buf))
		}
		k, err := lr.tr.Read(lr.buf[len(lr.buf):cap(lr.buf)])
		lr.buf = lr.buf[:len(lr.buf)+k]
		lr.read += k
		switch {
		case err == io.EOF:
			lr.eof = true
		case err != nil:
			// The line it stopped in, counted as readAll counts it: the
			// lines returned, and the line endings of the bytes read
			// after them.
			rest := lr.buf[lr.start:]
			if errors.Is(err, textline.ErrLong) {
				rest = rest[:len(rest)-lr.tr.Run]
			}
			lr.err = readFailure(lr.ctx, err, lr.name, lr.maxLine, lr.read, lr.lines+textline.Number(rest))
			return "", false
		}
	}
}

// Err returns the error that ended the read, nil at the end of the input.
func (lr *lineReader) Err() error { return lr.err }

// drain reads the rest of the input without cutting it, as readAll would
// have read it before any line was parsed, and returns the read's error
// (nil when it reached the end): the readers call it before they report an
// error of a line, which a failed read after it overrides, as it did when
// the whole input was read first.
func (lr *lineReader) drain() error {
	for {
		if _, ok := lr.next(); !ok {
			return lr.err
		}
	}
}

// fraction returns the share of the input cut into lines, for the
// progress and the readers' allocation, or −1 when the size is unknown.
func (lr *lineReader) fraction() float64 {
	if lr.size <= 0 {
		return -1
	}
	return float64(lr.read-(len(lr.buf)-lr.start)) / float64(lr.size)
}

// poll is textline.Poll with the package's prefix: ctx's error, wrapped
// with "dataset: ", the file name and the 1-based line, every
// textline.PollLines lines (line is 0-based) once ctx is cancelled.
func poll(ctx context.Context, name string, line int) error {
	if err := textline.Poll(ctx, name, line); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	return nil
}

// isBlank reports whether a line holds only spaces and tabs.
func isBlank(s string) bool {
	return strings.TrimLeft(s, " \t\r\f\v") == ""
}

// splitter splits a line into fields: fieldsplit.Splitter, its errors
// wrapping ErrSyntax.
type splitter struct {
	// delim is the field separator; 0 means runs of spaces and tabs.
	delim byte
	// quotes lists the characters that may open a quoted field.
	quotes string
	// backslash makes '\' escape the next character inside quotes (ARFF).
	backslash bool
}

// split appends the fields of line to dst[:0]. The error reports the
// 1-based character position of an unterminated quote or of stray text
// after a closing quote.
func (sp splitter) split(line string, dst []string) ([]string, int, error) {
	f, pos, err := fieldsplit.Splitter{Delim: sp.delim, Quotes: sp.quotes, Backslash: sp.backslash}.Split(line, dst)
	if err != nil {
		err = fmt.Errorf("%w: %w", ErrSyntax, err)
	}
	return f, pos, err
}

// parseNum parses a finite decimal number. "NaN", "Inf" and hexadecimal
// forms are not numbers here.
func parseNum(s string) (float64, bool) {
	if s == "" || len(s) > 64 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// maxIntChars is the longest integer text parseInt reads, sign included:
// its values have |v| < 10¹⁸, so sums and differences of a few never
// overflow an int.
const maxIntChars = 18

// parseInt parses a decimal integer, an optional sign then digits, of at
// most maxIntChars characters. A longer integer is not read (false):
// intLike tells it from text that is no integer, so that readers report it
// as out of range rather than as a name or a malformed number.
func parseInt(s string) (int, bool) {
	if s == "" || len(s) > maxIntChars {
		return 0, false
	}
	neg := false
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		s = s[1:]
		if s == "" {
			return 0, false
		}
	}
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// intLike reports whether s is written as a decimal integer, an optional
// sign then at least one digit, whatever its length. parseInt reads those
// of at most maxIntChars characters; an intLike s it does not read is an
// integer out of range.
func intLike(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ReadNames reads a file of node names, one per line, with the line
// endings of the other readers ("\n", "\r\n" or a bare "\r") and surrounding
// space trimmed. A line longer than DefaultMaxLineBytes is an error wrapping
// ErrTooLarge naming the file and line. Cost O(size). It is
// ReadNamesContext with a context that is never cancelled.
func ReadNames(path string) ([]string, error) {
	return ReadNamesContext(context.Background(), path)
}

// ReadNamesContext is ReadNames checking ctx while the file is opened and
// read; a cancelled read returns ctx's error, wrapped.
func ReadNamesContext(ctx context.Context, path string) ([]string, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	lines, err := readAll(ctx, f, path, 0)
	if err != nil {
		return nil, err
	}
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return lines, nil
}
