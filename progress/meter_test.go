package progress

import (
	"slices"
	"testing"
)

// A meter maps its steps' fractions onto thousandths of the stage by the
// planned costs, never goes back (a late report, a loop reporting less),
// passes over skipped steps, stays below the total until done, and is
// silent after; a nil meter and the functions of its steps do nothing.
func TestMeter(t *testing.T) {
	var l Log
	m := NewMeter(&l, "s", 10)
	a := m.Step("a", 2)
	a(0.5) // 1 of 10: 100
	a(0.25)
	a(1) // 200
	b := m.Step("b", 8)
	b(0.5) // 600
	m.Skip(0)
	b(2) // clamped to the step's end: 1000, kept below the total
	m.Done()
	b(1)
	type ev struct {
		done int
		msg  string
	}
	var got []ev
	for _, e := range l.Events("s") {
		if e.Total != MeterTotal {
			t.Errorf("Total %d", e.Total)
		}
		got = append(got, ev{e.Done, e.Message})
	}
	want := []ev{{0, "a"}, {100, "a"}, {200, "a"}, {200, "b"}, {600, "b"}, {999, "b"}, {1000, "b"}}
	if !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	var nilMeter *Meter
	if m := NewMeter(nil, "s", 1); m != nil {
		t.Errorf("NewMeter(nil) = %v, want nil", m)
	}
	if f := nilMeter.Step("x", 1); f != nil {
		t.Error("a nil meter's step returned a function")
	}
	nilMeter.Skip(1)
	nilMeter.Done()
}
