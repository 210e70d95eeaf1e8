//go:build !unix

package server

import "os"

// openFlags opens data files (see open_unix.go).
const openFlags = os.O_RDONLY
