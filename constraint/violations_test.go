package constraint

import (
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testpanic"
)

func TestViolations(t *testing.T) {
	set := &Set{N: 4, Pairs: []Pair{
		{I: 0, J: 1, Kind: MustLink},
		{I: 2, J: 3, Kind: MustLink},
		{I: 0, J: 2, Kind: CannotLink},
		{I: 1, J: 3, Kind: CannotLink},
	}}
	for _, c := range []struct {
		name   string
		set    *Set
		labels []int
		ml, cl int
	}{
		{"nil set", nil, []int{0}, 0, 0},
		{"nil set, no labels", nil, nil, 0, 0},
		{"no pairs", &Set{N: 2}, []int{0, 0}, 0, 0},
		{"empty", &Set{}, nil, 0, 0},
		{"satisfied", set, []int{0, 0, 1, 1}, 0, 0},
		{"all broken", set, []int{0, 1, 0, 1}, 2, 2},
		{"one cluster", set, []int{7, 7, 7, 7}, 0, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			if ml, cl := Violations(c.set, c.labels); ml != c.ml || cl != c.cl {
				t.Errorf("Violations = %d, %d, want %d, %d", ml, cl, c.ml, c.cl)
			}
		})
	}
}

func TestViolationsPanics(t *testing.T) {
	for _, c := range []struct {
		name   string
		set    *Set
		labels []int
		want   string
	}{
		{"short labels", &Set{N: 4, Pairs: []Pair{{I: 0, J: 3, Kind: MustLink}}}, []int{0, 1},
			"constraint: Violations: labels has 2 entries, the set has N = 4 nodes"},
		{"long labels", &Set{N: 2}, []int{0, 1, 2},
			"constraint: Violations: labels has 3 entries, the set has N = 2 nodes"},
		{"nil labels", &Set{N: 1}, nil,
			"constraint: Violations: labels has 0 entries, the set has N = 1 nodes"},
		{"pair past N", &Set{N: 2, Pairs: []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 1, J: 2, Kind: CannotLink}}}, []int{0, 0},
			"constraint: Violations: pair 1 (1,2) outside [0,2)"},
		{"negative node", &Set{N: 2, Pairs: []Pair{{I: -1, J: 1, Kind: MustLink}}}, []int{0, 0},
			"constraint: Violations: pair 0 (-1,1) outside [0,2)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := testpanic.Message(func() { Violations(c.set, c.labels) })
			if !strings.Contains(msg, c.want) {
				t.Errorf("panic %q, want one containing %q", msg, c.want)
			}
		})
	}
}

// Labels.Kept counts the labelled nodes whose cluster number equals their
// class, against a count by hand.
func TestLabelsKept(t *testing.T) {
	for _, tc := range []struct {
		name               string
		l                  Labels
		labels             []int
		kept, labelledWant int
	}{
		{"none labelled", Labels{Unlabeled, Unlabeled}, []int{0, 1}, 0, 0},
		{"all kept", Labels{0, Unlabeled, 1}, []int{0, 1, 1}, 2, 2},
		{"one moved", Labels{0, 0, 1}, []int{0, 1, 1}, 2, 3},
		{"swapped", Labels{1, 0}, []int{0, 1}, 0, 2},
	} {
		kept, labelled := tc.l.Kept(tc.labels)
		if kept != tc.kept || labelled != tc.labelledWant {
			t.Errorf("%s: Kept = %d, %d, want %d, %d", tc.name, kept, labelled, tc.kept, tc.labelledWant)
		}
	}
}
