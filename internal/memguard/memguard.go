// Package memguard bounds the memory of one clustering run of a command
// (tether cluster, a job) by the memory the machine has, so that a
// request too large for it (a dense eigensolve of k near n, label
// propagation over as many classes as nodes) is refused with an error
// naming the bytes it needs instead of killing the process ("fatal error:
// out of memory", which no recover catches). It sets the library's own
// bounds, eigen.Settings.MaxDenseBytes and cluster.Settings.MaxBlockBytes,
// which tether serve sets from its -max-request-mib; a library user who
// sets neither keeps no bound.
package memguard

import (
	"math"
	"runtime/debug"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/internal/memlimit"
)

// Bound returns the bytes one run's dense blocks may take: memlimit.Fraction
// (3/4) of the memory the process may use (memlimit.Available: the
// machine's or its container's), or the Go runtime's soft memory limit
// when that is lower (GOMEMLIMIT, or memlimit.Set's); 0 (no bound) when
// neither is known. Cost: reading two or three small files.
func Bound() int64 {
	b := int64(0)
	if avail, err := memlimit.Available(); err == nil && avail > 0 {
		b = int64(memlimit.Fraction * float64(avail))
	}
	if soft := debug.SetMemoryLimit(-1); soft > 0 && soft < math.MaxInt64 && (b == 0 || soft < b) {
		b = soft
	}
	return b
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
