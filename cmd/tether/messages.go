package main

import (
	"fmt"
	"io"
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
