//go:build !unix

package interrupt

import "os"

// raise ends the process with status 130, the status of an interrupted
// command (a signal cannot be sent to the process itself here).
func raise(os.Signal) { os.Exit(130) }
