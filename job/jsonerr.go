package job

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/internal/jsonpos"
	"github.com/tether-sc/tether/internal/suggest"
)

// SyntaxError is a manifest line that is not a Spec in JSON: malformed
// JSON, a value of the wrong type for its field, an unknown field. Column
// is the 1-based column (in characters) of the line where the decoder
// stopped (0 when it cannot say), Msg says what was wrong in plain words,
// naming a field by its JSON name ("field \"k\": want an integer, got a
// string"). It wraps ErrSpec.
type SyntaxError struct {
	Column int
	Msg    string
}

// Error returns "job: bad spec: column C: Msg" (without the column when it
// is 0).
func (e *SyntaxError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("%v: column %d: %s", ErrSpec, e.Column, e.Msg)
	}
	return fmt.Sprintf("%v: %s", ErrSpec, e.Msg)
}

// Unwrap returns ErrSpec.
func (e *SyntaxError) Unwrap() error { return ErrSpec }

// LineError returns err, an error of ParseSpec on line line of the
// manifest file name, prefixed by where it is: "name:line:column: job: bad
// spec: Msg" for a SyntaxError with a column, "name:line: err" otherwise.
// The result wraps err. Cost O(1).
func LineError(name string, line int, err error) error {
	var se *SyntaxError
	if errors.As(err, &se) && se.Column > 0 {
		return &lineError{at: fmt.Sprintf("%s:%d:%d", name, line, se.Column), text: fmt.Sprintf("%v: %s", ErrSpec, se.Msg), err: err}
	}
	return &lineError{at: fmt.Sprintf("%s:%d", name, line), text: err.Error(), err: err}
}

// lineError is LineError's error.
type lineError struct {
	at, text string
	err      error
}

func (e *lineError) Error() string { return e.at + ": " + e.text }
func (e *lineError) Unwrap() error { return e.err }

// syntaxError returns the SyntaxError of err, the error of decoding line
// into a Spec with encoding/json (DisallowUnknownFields), or err as it is
// when it is none of the decoder's (a field's own parser, such as scale's,
// already names the field and the values it wants). Cost O(len(line)).
func syntaxError(line []byte, err error) error {
	var (
		se *json.SyntaxError
		te *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &se):
		return &SyntaxError{Column: column(line, int(se.Offset)-1), Msg: syntaxWords(se.Error())}
	case errors.As(err, &te):
		start := valueStart(line, int(te.Offset), te.Value)
		return &SyntaxError{Column: column(line, start), Msg: fmt.Sprintf("field %q: want %s, got %s", te.Field, typeWords(te.Type), valueWords(te.Value))}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &SyntaxError{Column: column(line, len(line)), Msg: "the line ends inside a JSON value: a '}', ']' or '\"' is missing"}
	case err != nil && strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		at := keyAt(line, name)
		hint := "docs/jobs.md lists the fields of a job"
		if bare, uerr := strconv.Unquote(name); uerr == nil && at >= 0 {
			if c := suggest.Closest(bare, fieldsAt(reflect.TypeFor[Spec](), objectPath(line, at))); c != "" {
				hint = fmt.Sprintf("did you mean %q?", c)
			}
		}
		return &SyntaxError{Column: column(line, at), Msg: "unknown field " + name + " (" + hint + ")"}
	}
	if err != nil && strings.HasPrefix(err.Error(), "json: ") {
		return &SyntaxError{Msg: strings.TrimPrefix(err.Error(), "json: ")}
	}
	return fmt.Errorf("%w: %w", ErrSpec, err)
}

// column returns the 1-based column, in characters, of byte offset off of
// line, or 0 when off is outside it (the end of the line is column
// len+1): jsonpos.Position's column. Cost O(off).
func column(line []byte, off int) int {
	_, col, _ := jsonpos.Position(line, off)
	return col
}

// valueStart returns the byte offset of the start of the value that ends
// at byte end of line, whose kind the decoder names value ("string",
// "number 1.5", "bool"); for an array or an object the decoder gives its
// opening bracket's end instead. -1 when it cannot say.
func valueStart(line []byte, end int, value string) int {
	if end <= 0 || end > len(line) {
		return -1
	}
	switch {
	case value == "array" || value == "object":
		return end - 1
	case value == "string":
		for i := end - 2; i >= 0; i-- {
			if line[i] == '"' && (i == 0 || line[i-1] != '\\') {
				return i
			}
		}
		return -1
	}
	i := end
	for i > 0 && strings.IndexByte("0123456789+-.eEtruefalsn", line[i-1]) >= 0 {
		i--
	}
	return i
}

// keyAt returns the byte offset of the object key quoted (with its
// quotes) in line, -1 when it is not found.
func keyAt(line []byte, quoted string) int {
	for from := 0; ; {
		i := bytes.Index(line[from:], []byte(quoted))
		if i < 0 {
			return -1
		}
		i += from
		if rest := bytes.TrimLeft(line[i+len(quoted):], " \t"); len(rest) > 0 && rest[0] == ':' {
			return i
		}
		from = i + 1
	}
}

// objectPath returns the keys leading to the JSON object that holds byte
// off of line: nil for the top-level object, ["sample"] inside "sample".
// It reads line up to off as JSON text, tracking strings (with their
// escapes) and brackets; an array's elements are under the array's key.
// Cost O(off).
func objectPath(line []byte, off int) []string {
	var (
		stack []string
		last  string // the last string literal closed: a key before '{'
	)
	for i := 0; i < off && i < len(line); i++ {
		switch line[i] {
		case '"':
			start := i + 1
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
			if i < len(line) {
				if v, err := strconv.Unquote(string(line[start-1 : i+1])); err == nil {
					last = v
				}
			}
		case '{', '[':
			stack = append(stack, last)
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return nil
	}
	return stack[1:] // the first is the top-level object's
}

// fieldsAt returns the JSON names of the fields of the struct that t (a
// struct, or a pointer, slice or array of structs) holds at the path of
// keys path, matched as encoding/json matches them (exactly, else ignoring
// case), or nil when the path leads to no struct (a map such as
// gen_params, or a key t does not have). Cost O(fields·len(path)).
func fieldsAt(t reflect.Type, path []string) []string {
	elem := func(t reflect.Type) reflect.Type {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		return t
	}
	t = elem(t)
	for _, key := range path {
		if t.Kind() != reflect.Struct {
			return nil
		}
		var next reflect.Type
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" {
				name = f.Name
			}
			if name == key || (next == nil && strings.EqualFold(name, key)) {
				next = f.Type
			}
		}
		if next == nil {
			return nil
		}
		t = elem(next)
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// syntaxPhrases turn the decoder's description of what it expected into
// plain words.
var syntaxPhrases = []struct{ suffix, want string }{
	{"looking for beginning of object key string", "want a field name in double quotes (a ',' before '}' is not allowed)"},
	{"looking for beginning of value", "want a value"},
	{"after object key:value pair", "want ',' or '}' after a field's value"},
	{"after object key", "want ':' after a field name"},
	{"after array element", "want ',' or ']' after a list element"},
	{"in string literal", "not allowed in a string (escape it)"},
	{"in string escape code", "not a valid escape in a string"},
	{"in numeric literal", "not allowed in a number"},
	{"after top-level value", "after the job's closing '}'"},
}

var invalidChar = regexp.MustCompile(`^invalid character (.+?) (looking for|after|in) (.*)$`)

// syntaxWords returns the message of a json.SyntaxError in plain words.
func syntaxWords(msg string) string {
	msg = strings.TrimPrefix(msg, "json: ")
	m := invalidChar.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	rest := m[2] + " " + m[3]
	for _, p := range syntaxPhrases {
		if strings.HasPrefix(rest, p.suffix) {
			return fmt.Sprintf("unexpected %s: %s", m[1], p.want)
		}
	}
	if strings.HasPrefix(rest, "in literal") {
		return fmt.Sprintf("unexpected %s: want true, false, null, a number, a string, a list or an object", m[1])
	}
	return "unexpected " + m[1] + " " + rest
}

// typeWords names the Go type t as the JSON value a field of it wants.
func typeWords(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Implements(reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()) || reflect.PointerTo(t).Implements(reflect.TypeFor[interface{ UnmarshalText([]byte) error }]()) {
		return "a string"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer ≥ 0"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list of " + strings.TrimPrefix(strings.TrimPrefix(typeWords(t.Elem()), "a "), "an ") + "s"
	case reflect.Map:
		return "an object of " + strings.TrimPrefix(typeWords(t.Elem()), "a ") + "s"
	case reflect.Struct:
		return "an object"
	}
	return t.String()
}

// valueWords names the JSON value the decoder describes as v ("string",
// "number", "number 1.5", "bool", "array", "object").
func valueWords(v string) string {
	switch {
	case v == "string":
		return "a string"
	case v == "number":
		return "a number"
	case strings.HasPrefix(v, "number "):
		return "the number " + strings.TrimPrefix(v, "number ")
	case v == "bool":
		return "true or false"
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	}
	return v
}
