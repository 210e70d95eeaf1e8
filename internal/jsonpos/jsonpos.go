// Package jsonpos turns a byte offset in a JSON text (the Offset of an
// encoding/json SyntaxError or UnmarshalTypeError) into the line and column
// a person looks for in an editor. The job manifest reader and the
// experiment ledger both report JSON errors this way.
package jsonpos

import (
	"bytes"
	"unicode/utf8"
)

// Position returns the 1-based line and column of byte offset off of b,
// and ok = false (with 0, 0) when off is outside [0, len(b)]. Lines are
// counted by '\n' (a '\r' before it belongs to the line it ends); the
// column counts characters (UTF-8 sequences, an invalid byte counting as
// one) from the start of the line, so a multi-byte character before off
// moves the column by one. off = len(b), the end of the text, is the
// column after its last character; an offset at a '\n' is the column after
// the last character of that line. Cost O(off).
func Position(b []byte, off int) (line, col int, ok bool) {
	if off < 0 || off > len(b) {
		return 0, 0, false
	}
	head := b[:off]
	start := bytes.LastIndexByte(head, '\n') + 1
	return 1 + bytes.Count(head, []byte{'\n'}), 1 + utf8.RuneCount(head[start:]), true
}
