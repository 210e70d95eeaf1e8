// Package memguard bounds the memory of one clustering run of a command
// (tether cluster, a job) by the memory the machine has, so that a
// request too large for it (a dense eigensolve of k near n, a Lanczos,
// BlockLanczos or LOBPCG basis of too many vectors, label propagation over
// as many classes as nodes) is refused with an error naming the bytes it
// needs instead of killing the process ("fatal error: out of memory",
// which no recover catches). It sets the library's own bounds,
// eigen.Settings.MaxDenseBytes (dense solves, Lanczos's basis and its
// growth, BlockLanczos's and LOBPCG's blocks and projected matrices) and
// cluster.Settings.MaxBlockBytes,
// which tether serve sets from its -max-request-mib; a library user who
// sets neither keeps no bound. The bound is Bound() unless the command
// is given one (tether cluster -max-memory-mib, a job's max_memory_mib:
// MiB).
package memguard

import (
	"errors"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/internal/memlimit"
)

// Bound returns the bytes one run's dense blocks may take by default:
// memlimit.Fraction (3/4) of the memory the process may use
// (memlimit.Available: the machine's or its container's); 0 (no bound)
// when that is not known. The Go runtime's soft memory limit (GOMEMLIMIT)
// does not lower it: that is a target of the garbage collector, which
// the process may exceed, often set for tuning alone, and taken as a hard
// limit it refused runs that fit; a command's own limit in MiB (see MiB)
// is the explicit knob. Cost: reading two or three small files.
func Bound() int64 {
	if avail, err := memlimit.Available(); err == nil && avail > 0 {
		return int64(memlimit.Fraction * float64(avail))
	}
	return 0
}

// MiB returns the bound of a command given mib, its limit in MiB (tether
// cluster's -max-memory-mib, a job's max_memory_mib): mib MiB when
// positive, Bound() when 0. A negative mib is the caller's to refuse;
// MiB reads it as 0. Cost O(1), or Bound's.
func MiB(mib int) int64 {
	if mib > 0 {
		return int64(mib) << 20
	}
	return Bound()
}

// Refused reports whether err is a refusal by one of the bounds Settings
// sets: it wraps eigen.ErrMemoryBound (Settings.MaxDenseBytes) or
// cluster.ErrMemoryBound (Settings.MaxBlockBytes). Cost O(depth of err's
// chain).
func Refused(err error) bool {
	return errors.Is(err, eigen.ErrMemoryBound) || errors.Is(err, cluster.ErrMemoryBound)
}

// Settings returns s with the bounds of a run set to bound where s leaves
// them 0: EigenSettings.MaxDenseBytes (EigenSettings copied, or a new
// one whose other fields are zero, which the library reads as its
// defaults) and MaxBlockBytes. s itself is not modified; a nil s is read
// as the defaults. A bound ≤ 0 returns s unchanged. Cost O(1).
func Settings(s *cluster.Settings, bound int64) *cluster.Settings {
	if bound <= 0 {
		return s
	}
	out := &cluster.Settings{}
	if s != nil {
		c := *s
		out = &c
	}
	es := &eigen.Settings{}
	if out.EigenSettings != nil {
		c := *out.EigenSettings
		es = &c
	}
	if es.MaxDenseBytes == 0 {
		es.MaxDenseBytes = bound
	}
	out.EigenSettings = es
	if out.MaxBlockBytes == 0 {
		out.MaxBlockBytes = bound
	}
	return out
}
