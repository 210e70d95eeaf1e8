package cluster

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestNewNames: any case and blanks find a method; an unknown name lists
// the known ones and suggests a close one, and only a close one.
func TestNewNames(t *testing.T) {
	for _, c := range []struct {
		name, method string // method: the Name of the method found, or "" for an error
		hint         string // the suggestion in the error, "" for none
	}{
		{"njw", "njw", ""},
		{"NJW", "njw", ""},
		{" Fast-GE2 ", "fast-ge2", ""},
		{"fastge2", "", "fast-ge2"},
		{"mclnoassc", "", "mcl-noa-ssc"},
		{"fgpcw", "", "fgpwc"},
		{"labelprob", "", "labelprop"},
		{"kmeans", "", ""},
		{"nwj", "", "njw"},
		{"s", "", ""},
		{"", "", ""},
	} {
		m, err := New(c.name)
		if c.method != "" {
			if err != nil || m.Name() != c.method {
				t.Errorf("New(%q): %v, %v; want %s", c.name, m, err, c.method)
			}
			continue
		}
		if err == nil {
			t.Errorf("New(%q) found %s", c.name, m.Name())
			continue
		}
		if !strings.Contains(err.Error(), "(known: auto, bethe,") {
			t.Errorf("New(%q): %v lacks the known names", c.name, err)
		}
		for _, info := range Methods() {
			if !strings.Contains(err.Error(), info.Name) {
				t.Errorf("New(%q): %v does not list %s", c.name, err, info.Name)
			}
		}
		// A caller tells an unknown name from other failures by the
		// sentinels (the error wrapped none).
		if !errors.Is(err, ErrUnknownMethod) || !errors.Is(err, ErrInvalid) {
			t.Errorf("New(%q): %v wraps neither ErrUnknownMethod nor ErrInvalid", c.name, err)
		}
		if want := "cluster: unknown method " + strconv.Quote(c.name); !strings.HasPrefix(err.Error(), want) {
			t.Errorf("New(%q): %v, want it to begin %q", c.name, err, want)
		}
		if got := strings.Contains(err.Error(), "did you mean"); got != (c.hint != "") || (c.hint != "" && !strings.Contains(err.Error(), "did you mean "+c.hint+"?")) {
			t.Errorf("New(%q): %v, want hint %q", c.name, err, c.hint)
		}
	}
}

// TestDefaultMethod: njw without side information, auto with it; both are
// registered, and auto reads pairs and labels while njw reads neither.
func TestDefaultMethod(t *testing.T) {
	for _, c := range []struct {
		supervised bool
		want       string
		reads      Supervision
	}{{false, "njw", 0}, {true, "auto", Pairs | LabelSet}} {
		name := DefaultMethod(c.supervised)
		if name != c.want {
			t.Errorf("DefaultMethod(%v) = %q, want %q", c.supervised, name, c.want)
		}
		m, err := New(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Uses().Supervision; got != c.reads {
			t.Errorf("%s reads %v, want %v", name, got, c.reads)
		}
	}
}
