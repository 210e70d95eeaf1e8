//go:build unix

package interrupt

import (
	"os"
	"syscall"
	"time"
)

// raise ends the process by sig, whose handler was reset to the default
// (which ends the process): sent to itself, as the parent expects of a
// process stopped by Ctrl-C (a shell's loop stops). Should the signal not
// end it (it was ignored when the process started), it exits with status
// 130 after a second.
func raise(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(os.Getpid(), s)
		time.Sleep(time.Second)
	}
	os.Exit(130)
}
