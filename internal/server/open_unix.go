//go:build unix

package server

import (
	"os"
	"syscall"
)

// openFlags opens data files without blocking: opening a FIFO for reading
// otherwise waits for a writer (readRooted then refuses it as not a
// regular file).
const openFlags = os.O_RDONLY | syscall.O_NONBLOCK
