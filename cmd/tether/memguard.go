package main

import (
	"fmt"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/internal/memguard"
	"github.com/tether-sc/tether/internal/wording"
)

// memoryBound is the bound on a run's dense blocks that guardMemory sets:
// its bytes, and the -max-memory-mib that gave it (0: the default, 3/4 of
// the available memory).
type memoryBound struct {
	bytes int64
	mib   int
}

// guardMemory returns s with the run's memory bounds (internal/memguard),
// mib MiB (-max-memory-mib) or, when mib is 0, 3/4 of the available
// memory (the machine's or its container's): an eigensolve's memory
// (eigen.Settings.MaxDenseBytes: a dense solve, Lanczos's basis and its
// growth, BlockLanczos's and LOBPCG's blocks) or a method's n×K blocks
// (cluster.Settings.MaxBlockBytes) needing more is refused with an error
// naming the bytes and the remedy, before anything is allocated: -k 35000
// on 200 000 nodes asked for 168 GB a dense block, and -partial-labels
// with 200 000 classes for 320 GB, and the runtime died with "fatal
// error: out of memory" and a goroutine dump (exit 2). tether serve sets
// the same bounds from -max-request-mib. It returns the bound too, for
// explain. Cost: reading two or three small files.
func guardMemory(s *cluster.Settings, mib int) (*cluster.Settings, memoryBound) {
	b := memoryBound{bytes: memguard.MiB(mib), mib: mib}
	return memguard.Settings(s, b.bytes), b
}

// explain returns err, when it is a refusal by the bound (memguard.Refused:
// the library's sentinels, not its text), followed by where the bound
// comes from and the remedies in tether cluster's flags; any other err
// as it is. The result wraps err. Cost O(depth of err's chain).
func (b memoryBound) explain(err error) error {
	if err == nil || !memguard.Refused(err) {
		return err
	}
	origin := fmt.Sprintf("3/4 of the available memory (%s)", wording.Bytes(b.bytes))
	if b.mib > 0 {
		origin = fmt.Sprintf("-max-memory-mib %d (%s)", b.mib, wording.Bytes(b.bytes))
	}
	return fmt.Errorf("%w; tether cluster bounds the run's dense blocks by %s: ask for a smaller -k, fewer classes in -partial-labels, fewer constraints or a smaller -set knob that sizes the eigenvectors (M, Rank), or raise the bound with -max-memory-mib", err, origin)
}
