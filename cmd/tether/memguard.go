package main

import (
	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/internal/memguard"
)

// guardMemory returns s with the run's memory bounds (internal/memguard):
// a dense eigensolve (eigen.Settings.MaxDenseBytes) or a method's n×K
// blocks (cluster.Settings.MaxBlockBytes) needing more than 3/4 of the
// machine's memory, or than GOMEMLIMIT when lower, is refused with an
// error naming the bytes and the remedy, before anything is allocated:
// -k 35000 on 200 000 nodes asked for 168 GB a dense block, and
// -partial-labels with 200 000 classes for 320 GB, and the runtime died
// with "fatal error: out of memory" and a goroutine dump (exit 2). tether
// serve sets the same bounds from -max-request-mib. Cost: reading two or
// three small files.
func guardMemory(s *cluster.Settings) *cluster.Settings {
	return memguard.Settings(s, memguard.Bound())
}
