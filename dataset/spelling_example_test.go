package dataset_test

import (
	"fmt"

	"github.com/tether-sc/tether/dataset"
)

// Remedy words an option as each front end's users set it: tether's
// command line (the zero value), a job's JSON fields, tether serve's
// upload options; "" where the front end has no such option, so that
// the message names the library's alone.
func ExampleSpelling_Remedy() {
	job := dataset.Spelling{Front: "job", Style: dataset.StyleJSON, Scale: "scale", SelfLoops: "self_loops"}
	serve := dataset.Spelling{Front: "serve", Style: dataset.StyleOption, Scale: "scale"}
	for _, sp := range []dataset.Spelling{{}, job, serve} {
		fmt.Printf("%q %q\n", sp.Remedy("scale", "minmax", "zscore"), sp.Remedy("self-loops"))
	}
	// Output:
	// "tether: -scale minmax or -scale zscore" "tether: -self-loops"
	// "job: \"scale\": \"minmax\" or \"scale\": \"zscore\"" "job: \"self_loops\""
	// "serve: option scale minmax or option scale zscore" ""
}
