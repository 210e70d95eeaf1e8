// Package enum converts the values of small integer enumerations to and
// from their names, so that every enumeration of tether reads and prints
// the same way.
//
// The convention: an enumeration T with values 0, 1, … keeps its names in a
// slice (names[v] is the name of T(v)) and has three methods built on this
// package,
//
//	func (v T) String() string                  // enum.String
//	func (v T) MarshalText() ([]byte, error)    // enum.Marshal
//	func (v *T) UnmarshalText(b []byte) error   // enum.Parse
//
// so that it works with fmt, as a command-line flag (flag.TextVar, or
// flag.Var through a small adapter) and with encoding/json, which then
// writes the name instead of the number. Names match without regard to
// ASCII case; an unknown name gives an error listing the valid ones:
//
//	unknown scaling "foo" (want none, minmax or zscore)
package enum

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/internal/suggest"
)

// Integer is the underlying type of an enumeration.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// String returns names[v], or "typ(v)" (e.g. "Scale(7)") when v has no name.
func String[T Integer](typ string, names []string, v T) string {
	if i := int64(v); i >= 0 && i < int64(len(names)) {
		return names[i]
	}
	return typ + "(" + strconv.FormatInt(int64(v), 10) + ")"
}

// Marshal returns names[v] as text, or an error naming kind when v has no
// name.
func Marshal[T Integer](kind string, names []string, v T) ([]byte, error) {
	if i := int64(v); i >= 0 && i < int64(len(names)) {
		return []byte(names[i]), nil
	}
	return nil, fmt.Errorf("invalid %s %d", kind, int64(v))
}

// Parse returns the value whose name is s, ignoring ASCII case: T(i) for
// names[i] equal to s. Otherwise the error says which kind of name was
// wanted and lists names, e.g. `unknown scaling "foo" (want none, minmax or
// zscore)`.
func Parse[T Integer](kind string, names []string, s string) (T, error) {
	for i, name := range names {
		if strings.EqualFold(s, name) {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q%s (want %s)", kind, s, suggest.Hint(s, names), List(names))
}

// List joins names as "a, b or c".
func List(names []string) string {
	switch len(names) {
	case 0:
		return "nothing"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
