package job

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset"
)

// TestWriteLabelsDroppedRows: a job whose table had rows dropped
// ("missing": "drop") writes name,cluster lines, each row kept named by
// its 0-based row number in the file (or its ID column), as tether
// cluster -o does, so that the labels match back to the rows; the
// expected file is built here from the rows known to be kept. A job
// whose rows were all kept writes one bare label a line, as before.
func TestWriteLabelsDroppedRows(t *testing.T) {
	rows := []string{"0,0", "0.1,?", "0,0.1", "0.1,0.1", "?,5", "5,5", "5.1,5", "5,5.1", "5.1,5.1", "5.2,5.2"}
	dropped := map[int]bool{1: true, 4: true}
	var table, named strings.Builder
	table.WriteString("x,y\n")
	named.WriteString("id,x,y\n")
	for i, r := range rows {
		table.WriteString(r + "\n")
		fmt.Fprintf(&named, "p%d,%s\n", i, r)
	}
	full := strings.ReplaceAll(table.String(), "?", "1")
	dir := writeFiles(t, map[string]string{"m.csv": table.String(), "named.csv": named.String(), "full.csv": full})
	for _, c := range []struct {
		input, key string
		name       func(i int) string
	}{
		{"m.csv", "name", func(i int) string { return fmt.Sprint(i) }},
		{"named.csv", "name", func(i int) string { return fmt.Sprintf("p%d", i) }},
	} {
		res := Run(context.Background(), Spec{ID: "d", Input: c.input, Missing: dataset.MissingDrop, KNN: 3, K: 2, Seed: 1}, dir)
		if res.Error != "" {
			t.Fatal(res.Error)
		}
		if len(res.Labels) != len(rows)-len(dropped) {
			t.Fatalf("%s: %d labels, want %d", c.input, len(res.Labels), len(rows)-len(dropped))
		}
		want := c.key + ",cluster\n"
		k := 0
		for i := range rows {
			if !dropped[i] {
				want += fmt.Sprintf("%s,%d\n", c.name(i), res.Labels[k])
				k++
			}
		}
		var b bytes.Buffer
		if err := res.WriteLabels(&b); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("%s: labels file\n%s\nwant\n%s", c.input, b.String(), want)
		}
		if c.input == "m.csv" && !strings.Contains(strings.Join(res.Notes, "\n"), labelsOutput+" writes those numbers") {
			t.Errorf("%s: notes %q, want one saying the labels file writes the row numbers", c.input, res.Notes)
		}
	}
	// No row dropped: one label a line, node i on line i+1.
	res := Run(context.Background(), Spec{ID: "f", Input: "full.csv", Missing: dataset.MissingDrop, KNN: 3, K: 2, Seed: 1}, dir)
	var b bytes.Buffer
	if err := res.WriteLabels(&b); err != nil || res.Error != "" {
		t.Fatal(err, res.Error)
	}
	want := ""
	for _, c := range res.Labels {
		want += fmt.Sprintf("%d\n", c)
	}
	if len(res.Labels) != len(rows) || b.String() != want {
		t.Errorf("no row dropped: labels file\n%s\nwant\n%s", b.String(), want)
	}
}
