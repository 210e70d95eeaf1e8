package main

import (
	"fmt"
	"io"
	"regexp"
)

// printMessages writes a command's notes, then its warnings, to w
// (standard error), one a line: "tether CMD: note: …" and
// "tether CMD: warning: …". A warning is a condition that may make the
// result differ from what was asked; a note is a documented choice the
// readers or the method made (cluster.Result and input.Data state the
// rule). quiet (the command's -quiet) leaves the notes out, with the
// progress messages; warnings are always printed. Cost O(total length).
func printMessages(w io.Writer, cmd string, warnings, notes []string, quiet bool) {
	if !quiet {
		for _, n := range notes {
			fmt.Fprintf(w, "tether %s: note: %s\n", cmd, n)
		}
	}
	for _, wmsg := range warnings {
		fmt.Fprintf(w, "tether %s: warning: %s\n", cmd, wmsg)
	}
}

// regularizationMessage matches cluster's message on the regularization of
// a normalized Laplacian ("L_sym regularized (d + τ), τ = 6.087: 68
// isolated nodes (the plain L_sym is undefined)"), after "njw: " when a
// candidate of auto gave it.
var regularizationMessage = regexp.MustCompile(`^([a-z0-9-]+: )?L_(sym|rw) regularized \(d \+ τ`)

// regularizationNotes returns warnings without the regularization
// messages (regularizationMessage), and notes with them appended, each
// list in its order. cluster makes the regularization a warning when its
// auto rule chose it (-regularize auto, the default) and a note when it
// was asked for, but on the command line both are the documented
// behaviour of the flag, a note by printMessages' rule: the conditions
// that call for attention are warnings of their own (the nodes whose
// embedding row is zero, put in one cluster). The slices given are not
// changed. Cost O(total length).
func regularizationNotes(warnings, notes []string) ([]string, []string) {
	var kept, moved []string
	for _, w := range warnings {
		if regularizationMessage.MatchString(w) {
			moved = append(moved, w)
		} else {
			kept = append(kept, w)
		}
	}
	if moved == nil {
		return warnings, notes
	}
	return kept, append(append([]string(nil), notes...), moved...)
}
