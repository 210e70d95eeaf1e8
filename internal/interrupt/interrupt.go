// Package interrupt holds the signal handling of tether's commands: the
// first Ctrl-C (SIGINT) or SIGTERM cancels the work, which stops within a
// second and removes any partial output; a second one kills the process.
package interrupt

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Notify arranges that the first SIGINT or SIGTERM the process receives
// prints msg to w and calls cancel, and that a later one has the default
// action (the process ends at once). Cost: one goroutine, blocked until
// the signal.
func Notify(w io.Writer, msg string, cancel func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-c
		signal.Stop(c)
		fmt.Fprintln(w, msg)
		cancel()
	}()
}
