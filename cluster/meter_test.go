package cluster

import (
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/progress"
)

// eventLog is a progress.Log with the checks of these tests.
type eventLog struct{ progress.Log }

// checkFractions checks the events of stage: at least one, one Total > 0,
// Done never decreasing and ending at Total, and at least one event
// strictly inside (0, Total): a fraction, not only a start and an end.
// It returns the messages of the events.
func (l *eventLog) checkFractions(t *testing.T, stage string) []string {
	t.Helper()
	es := l.Events(stage)
	if len(es) == 0 {
		t.Errorf("no %q event", stage)
		return nil
	}
	inside := false
	var msgs []string
	for i, e := range es {
		if e.Total <= 0 || e.Total != es[0].Total {
			t.Errorf("%s event %d: Total %d (first %d)", stage, i, e.Total, es[0].Total)
		}
		if i > 0 && e.Done < es[i-1].Done {
			t.Errorf("%s event %d: Done %d after %d", stage, i, e.Done, es[i-1].Done)
		}
		if e.Done > 0 && e.Done < e.Total {
			inside = true
		}
		if len(msgs) == 0 || msgs[len(msgs)-1] != e.Message {
			msgs = append(msgs, e.Message)
		}
	}
	if last := es[len(es)-1]; last.Done != last.Total {
		t.Errorf("%s: last event %d/%d, want the total", stage, last.Done, last.Total)
	}
	if !inside {
		t.Errorf("%s: no event between 0 and the total in %v", stage, es)
	}
	return msgs
}

// hasStep reports whether a message of msgs starts with prefix.
func hasStep(msgs []string, prefix string) bool {
	return slices.ContainsFunc(msgs, func(m string) bool { return strings.HasPrefix(m, prefix) })
}

// TestMeter: a meter is a progress.Meter (TestMeter of package
// progress checks the fractions) with ticks; a nil meter and its ticks
// do nothing.
func TestMeter(t *testing.T) {
	var l eventLog
	m := newMeter(&l, "s", 10)
	m.step("a", 2).at(0.5) // 1 of 10: 100
	m.skip(8)
	m.done()
	type ev struct {
		done int
		msg  string
	}
	var got []ev
	for _, e := range l.Events("s") {
		if e.Total != meterTotal {
			t.Errorf("Total %d", e.Total)
		}
		got = append(got, ev{e.Done, e.Message})
	}
	want := []ev{{0, "a"}, {100, "a"}, {999, "a"}, {1000, "a"}}
	if !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	var nilMeter *meter
	if m := newMeter(nil, "s", 1); m != nil {
		t.Errorf("newMeter(nil) = %v, want nil", m)
	}
	nilMeter.step("x", 1).at(0.5)
	nilMeter.skip(1)
	nilMeter.done()
}
