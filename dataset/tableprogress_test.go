package dataset

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/internal/textline"
	"github.com/tether-sc/tether/progress"
)

// tableSteps are the steps of a table's parse, in order.
var tableSteps = []string{"splitting the lines into fields", "reading the columns"}

// progressTables returns a delimited table and an ARFF one of
// 3·textline.PollLines + 5 rows, numeric and categorical columns and a
// class column, whose parse reports fractions inside its steps.
func progressTables() map[string]string {
	const rows = 3*textline.PollLines + 5
	var csv, arff strings.Builder
	csv.WriteString("x,y,colour,class\n")
	arff.WriteString("@relation t\n@attribute x numeric\n@attribute y numeric\n@attribute colour {red,green,blue}\n@attribute class {a,b}\n@data\n")
	for i := range rows {
		line := fmt.Sprintf("%d.5,%d,%s,%s\n", i%17, i%5, []string{"red", "green", "blue"}[i%3], []string{"a", "b"}[i%2])
		csv.WriteString(line)
		arff.WriteString(line)
	}
	return map[string]string{"t.csv": csv.String(), "t.arff": arff.String()}
}

// Options.Recorder follows a table's parse as the stage "parsing NAME" in
// thousandths, through each step in order, never going back, with
// fractions inside the steps, to the total; the table is the one read
// without it. A table of 10⁶ rows took seconds after its last byte was
// read with nothing to show but a heartbeat.
func TestReadTableProgress(t *testing.T) {
	for name, text := range progressTables() {
		var l progress.Log
		tab, err := Read(context.Background(), strings.NewReader(text), name, Options{LabelColumn: "class", Recorder: &l})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := Read(context.Background(), strings.NewReader(text), name, Options{LabelColumn: "class"})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(tab, plain) {
			t.Errorf("%s: the table differs from the one read without a recorder", name)
		}
		es := l.Events("parsing " + name)
		msgs, inside := parseStepsOf(t, name, es)
		if !slices.Equal(msgs, tableSteps) {
			t.Errorf("%s: steps %q, want %q", name, msgs, tableSteps)
		}
		for _, s := range tableSteps {
			if !inside[s] {
				t.Errorf("%s: no fraction inside the step %q", name, s)
			}
		}
		if len(es) == 0 || es[len(es)-1].Done != progress.MeterTotal {
			t.Errorf("%s: events %+v, want the last at the total", name, es)
		}
	}
}

// Cancelled once the splitting of the lines has reported progress past
// its start, a table's parse stops with context.Canceled, naming the
// file, before it reads the columns.
func TestReadTableCancelInsideTheSplit(t *testing.T) {
	for name, text := range progressTables() {
		ctx, cancel := context.WithCancel(context.Background())
		rec := &testctx.StepCanceller{Step: tableSteps[0], Cancel: cancel}
		_, err := Read(ctx, strings.NewReader(text), name, Options{LabelColumn: "class", Recorder: rec})
		cancel()
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), name+": ") {
			t.Errorf("%s: err = %v, want context.Canceled naming the file", name, err)
		}
		if seen := rec.Seen(); slices.Contains(seen, tableSteps[1]) {
			t.Errorf("%s: went on to the steps %q", name, seen)
		}
	}
}
