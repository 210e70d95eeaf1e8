package testpanic

import (
	"errors"
	"testing"
)

func TestMessage(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"returns", func() {}, ""},
		{"string", func() { panic("pkg: F: x = 3") }, "pkg: F: x = 3"},
		{"error", func() { panic(errors.New("boom")) }, "boom"},
		{"index", func() { _ = []int{}[len("a")] }, "runtime error: index out of range [1] with length 0"},
	} {
		if got := Message(c.f); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
