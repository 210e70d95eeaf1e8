package enum

import (
	"strings"
	"testing"
)

type color int8

var colorNames = []string{"red", "green", "blue"}

func (c color) String() string { return String("color", colorNames, c) }

func TestRoundTrip(t *testing.T) {
	for v := range color(len(colorNames)) {
		got, err := Parse[color]("color", colorNames, v.String())
		if err != nil || got != v {
			t.Errorf("Parse(%q) = %v, %v; want %v", v.String(), got, err, v)
		}
		b, err := Marshal("color", colorNames, v)
		if err != nil || string(b) != colorNames[v] {
			t.Errorf("Marshal(%d) = %q, %v", v, b, err)
		}
		// Case does not matter.
		if got, err := Parse[color]("color", colorNames, strings.ToUpper(v.String())); err != nil || got != v {
			t.Errorf("Parse(%q) = %v, %v", strings.ToUpper(v.String()), got, err)
		}
	}
}

func TestErrors(t *testing.T) {
	_, err := Parse[color]("color", colorNames, "mauve")
	if want := `unknown color "mauve" (want red, green or blue)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	_, err = Parse[color]("color", colorNames, "gren")
	if want := `unknown color "gren": did you mean green? (want red, green or blue)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if _, err := Parse[color]("color", colorNames, ""); err == nil {
		t.Error("the empty name parsed")
	}
	if s := color(7).String(); s != "color(7)" {
		t.Errorf("String of an unnamed value: %q", s)
	}
	if s := color(-1).String(); s != "color(-1)" {
		t.Errorf("String of a negative value: %q", s)
	}
	if _, err := Marshal("color", colorNames, color(3)); err == nil {
		t.Error("Marshal of an unnamed value succeeded")
	}
}

func TestList(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{{nil, "nothing"}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"}} {
		if got := List(c.names); got != c.want {
			t.Errorf("List(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}
