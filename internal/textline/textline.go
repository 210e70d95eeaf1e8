// Package textline holds the one rule by which tether's text readers
// (package dataset's tables, graphs and label files, package constraint's
// constraint and label files) cut their input into lines, and the guard
// that refuses binary data and over-long lines while the input is read.
//
// The rule: a line ends at "\n", "\r\n" or a bare "\r" (classic Mac OS
// files); the empty piece after a final line ending is no line; a UTF-8
// byte order mark at the start of the input is not part of the first line.
// A line may not be longer than a limit (DefaultMaxBytes unless the reader
// says otherwise), and a NUL byte — which no text format read by tether
// holds, and binary data and UTF-16 text do — stops the read.
package textline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// DefaultMaxBytes is the longest line, in bytes without its line ending,
// that the readers accept unless they are given another limit: 1 MiB.
const DefaultMaxBytes = 1 << 20

// PollLines is how many lines the readers read between checks of their
// context: a check costs nanoseconds, 4096 lines of a feature file tens of
// microseconds to a millisecond.
const PollLines = 4096

// Poll returns ctx's error, wrapped with the file name and the 1-based
// line ("name: reading stopped at line 8193: context canceled"), when line
// (0-based) is a multiple of PollLines and ctx is cancelled; nil
// otherwise. Every reader of lines checks its context so.
func Poll(ctx context.Context, name string, line int) error {
	if line%PollLines != 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: reading stopped at line %d: %w", name, line+1, err)
	}
	return nil
}

// BOM is the UTF-8 byte order mark, dropped from the start of the input.
const BOM = "\ufeff"

// Errors of Reader.Read.
var (
	// ErrNUL reports a NUL byte.
	ErrNUL = errors.New("textline: NUL byte")
	// ErrLong reports a line longer than the limit.
	ErrLong = errors.New("textline: line too long")
)

// cut finds the end of the first line of s: end is its length without the
// line ending and next the start of the following line. found is false
// when s holds no line ending (end = next = len(s)). A "\r" that ends s is
// a whole line ending only when atEOF: otherwise a "\n" may follow.
func cut[T ~string | ~[]byte](s T, atEOF bool) (end, next int, found, more bool) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			return i, i + 1, true, false
		case '\r':
			switch {
			case i+1 < len(s) && s[i+1] == '\n':
				return i, i + 2, true, false
			case i+1 < len(s) || atEOF:
				return i, i + 1, true, false
			}
			return i, i + 1, false, true // "\r" last, more to come
		}
	}
	return len(s), len(s), false, false
}

// Split is a bufio.SplitFunc cutting lines by the package's rule (it does
// not drop a byte order mark: the caller trims it from the first line).
func Split(data []byte, atEOF bool) (advance int, token []byte, err error) {
	end, next, found, more := cut(data, atEOF)
	switch {
	case found:
		return next, data[:end], nil
	case more:
		return 0, nil, nil // a "\r" that a "\n" may follow
	case atEOF && len(data) > 0:
		return len(data), data, nil
	}
	return 0, nil, nil // more data, or none at all
}

// Lines cuts s into lines by the package's rule, dropping a leading byte
// order mark; the lines are substrings of s. A line longer than max bytes
// (DefaultMaxBytes if max ≤ 0) stops the cut: long is then its 1-based
// number, length its length, and lines nil. ctx is checked every
// PollLines lines (3·10⁶ lines take half a second); err is then ctx.Err()
// and lines nil. Cost O(len(s)), one slice of the lines.
func Lines(ctx context.Context, s string, max int) (lines []string, long, length int, err error) {
	if max <= 0 {
		max = DefaultMaxBytes
	}
	if len(s) >= len(BOM) && s[:len(BOM)] == BOM {
		s = s[len(BOM):]
	}
	if len(s) > 0 {
		// At most one line per line ending, and one after the last.
		lines = make([]string, 0, strings.Count(s, "\n")+strings.Count(s, "\r")+1)
	}
	for len(s) > 0 {
		if len(lines)%PollLines == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, 0, err
			}
		}
		end, next, _, _ := cut(s, true)
		if end > max {
			return nil, len(lines) + 1, end, nil
		}
		lines = append(lines, s[:end])
		s = s[next:]
	}
	return lines, 0, 0, nil
}

// Number returns the 1-based number of the line that starts right after b,
// b being the start of an input cut by the package's rule.
func Number(b []byte) int {
	return 1 + bytes.Count(b, []byte("\n")) + bytes.Count(b, []byte("\r")) - bytes.Count(b, []byte("\r\n"))
}

// Reader passes R's bytes on until a NUL byte (ErrNUL, the bytes before it
// passed), a run of more than Max bytes without a line ending (ErrLong,
// with Run the length of the run read; Max ≤ 0 means DefaultMaxBytes) or
// the cancellation of Ctx (its error; nil Ctx: never), which it checks
// before every read of R. Both errors are found while reading, which stops
// there: an input without end (/dev/zero, /dev/urandom, a pipe that never
// closes) is refused after about one line's limit, or as soon as Ctx is
// cancelled, instead of filling the memory.
type Reader struct {
	R   io.Reader
	Ctx context.Context
	Max int
	Run int // bytes read since the last line ending
}

func (t *Reader) Read(p []byte) (int, error) {
	if t.Ctx != nil {
		if err := t.Ctx.Err(); err != nil {
			return 0, err
		}
	}
	n, err := t.R.Read(p)
	if i := bytes.IndexByte(p[:n], 0); i >= 0 {
		return i, ErrNUL
	}
	if j := bytes.LastIndexAny(p[:n], "\r\n"); j >= 0 {
		t.Run = n - 1 - j
	} else {
		t.Run += n
	}
	max := t.Max
	if max <= 0 {
		max = DefaultMaxBytes
	}
	if t.Run > max {
		return n, ErrLong
	}
	if err != nil && t.Ctx != nil && t.Ctx.Err() != nil {
		// A read interrupted by the cancellation (a deadline set on the
		// file) reports the cancellation.
		return n, t.Ctx.Err()
	}
	return n, err
}
