// Package interrupt holds the signal handling of tether's commands: the
// first Ctrl-C (SIGINT) or SIGTERM cancels the work, which stops within a
// second and removes any partial output; a second one ends the process at
// once, after removing the temporary files of the writes still running
// when the command asked for it (NotifyQuit).
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
	NotifyQuit(w, msg, cancel, nil)
}

// NotifyQuit is Notify whose second signal (SIGINT or SIGTERM, whichever
// came first) calls quit and then ends the process as that signal's
// default action does (on Unix the signal is raised again, so that the
// parent sees the process killed by it; elsewhere it exits with status
// 130): quit removes what the cancelled work had no time to remove, the
// temporary files of its writes (atomicfile.Registry.Discard), and must
// return promptly. A nil quit is Notify. Cost: one goroutine, blocked
// until the signals.
func NotifyQuit(w io.Writer, msg string, cancel, quit func()) {
	c := make(chan os.Signal, 2)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-c
		if quit == nil {
			signal.Stop(c)
		}
		fmt.Fprintln(w, msg)
		cancel()
		if quit == nil {
			return
		}
		sig := <-c
		quit()
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		raise(sig)
	}()
}
