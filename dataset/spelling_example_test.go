package dataset_test

import (
	"fmt"

	"github.com/tether-sc/tether/dataset"
)

// Remedy words an option as each front end's users set it: tether's
// command line (CommandLine), a job's JSON fields, tether serve's upload
// options; "" where the front end has no such option, and for the zero
// value, the library's, so that the message names the library's option
// alone.
func ExampleSpelling_Remedy() {
	cli := dataset.Spelling{Front: "tether", CommandLine: true}
	job := dataset.Spelling{Front: "job", Style: dataset.StyleJSON, Scale: "scale", SelfLoops: "self_loops"}
	serve := dataset.Spelling{Front: "serve", Style: dataset.StyleOption, Scale: "scale"}
	for _, sp := range []dataset.Spelling{cli, job, serve, {}} {
		fmt.Printf("%q %q\n", sp.Remedy("scale", "minmax", "zscore"), sp.Remedy("self-loops"))
	}
	// Output:
	// "tether: -scale minmax or -scale zscore" "tether: -self-loops"
	// "job: \"scale\": \"minmax\" or \"scale\": \"zscore\"" "job: \"self_loops\""
	// "serve: option scale minmax or option scale zscore" ""
	// "" ""
}
