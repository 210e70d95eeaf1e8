package constraint_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
)

// TestWriteLabelsNamedDatasetReader: the labels reader of every tether
// command (dataset.ReadNodeLabels) reads what WriteLabelsNamed writes:
// by name against the data's names (integer names included, which its
// "name" header keys by name), as indices for data without names when
// the names are integers, and, with neither, as the nodes the file
// defines in its line order.
func TestWriteLabelsNamedDatasetReader(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels constraint.Labels
		names  []string
		opt    dataset.NodeLabelOptions
		want   []int
	}{
		{
			name: "awkward names against the data's", labels: constraint.Labels{1, -1, 0, 2},
			names: []string{"b,1", `"q"`, "#c", "%d"},
			opt:   dataset.NodeLabelOptions{Names: []string{"%d", "#c", `"q"`, "b,1"}},
			want:  []int{2, 0, -1, 1},
		},
		{
			name: "integer names against the data's", labels: constraint.Labels{0, 1, 0},
			names: []string{"2", "0", "1"},
			opt:   dataset.NodeLabelOptions{Names: []string{"1", "2", "0"}},
			want:  []int{0, 0, 1},
		},
		{
			name: "integer names, data without names", labels: constraint.Labels{1, 0, 1},
			names: []string{"0", "4", "5"},
			opt:   dataset.NodeLabelOptions{N: 6},
			want:  []int{1, -1, -1, -1, 0, 1},
		},
		{
			name: "no data", labels: constraint.Labels{1, -1, 0},
			names: []string{"x", "y", "z"},
			want:  []int{1, 0},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := constraint.WriteLabelsNamed(&buf, tc.labels, tc.names); err != nil {
				t.Fatal(err)
			}
			nl, err := dataset.ReadNodeLabels(&buf, "named.csv", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(nl.Labels, tc.want) {
				t.Errorf("read %v, want %v", nl.Labels, tc.want)
			}
		})
	}
}

// TestLabelFloorAgrees: the raw labels readers of both packages
// (constraint.ReadLabels, dataset.ReadLabels) refuse the same labels, so
// that a file one accepts the other does too, and dataset.ReadNodeLabels,
// the command's reader, reads exactly those as class names (Renumbered)
// instead.
func TestLabelFloorAgrees(t *testing.T) {
	if constraint.LabelFloor != dataset.LabelFloor {
		t.Errorf("constraint.LabelFloor %d, dataset.LabelFloor %d", constraint.LabelFloor, dataset.LabelFloor)
	}
	for _, tc := range []struct {
		in string
		ok bool
	}{{"0,65535\n", true}, {"0,65536\n", false}, {"1\n1000000000\n", false}} {
		_, errC := constraint.ReadLabels(strings.NewReader(tc.in), nil)
		d, errD := dataset.ReadNodeLabels(strings.NewReader(tc.in), "f", dataset.NodeLabelOptions{})
		_, errL := dataset.ReadLabels(strings.NewReader(tc.in), "f", dataset.LabelOptions{})
		if (errC == nil) != tc.ok || (errL == nil) != tc.ok {
			t.Errorf("%q: constraint.ReadLabels %v, dataset.ReadLabels %v; want accepted %v", tc.in, errC, errL, tc.ok)
		}
		if errD != nil || d.Renumbered == tc.ok {
			t.Errorf("%q: dataset.ReadNodeLabels %v, renumbered %v; want renumbered %v", tc.in, errD, errD == nil && d.Renumbered, !tc.ok)
		}
	}
}
