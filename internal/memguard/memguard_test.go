package memguard

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/internal/memlimit"
)

// TestSettings: Settings sets MaxDenseBytes and MaxBlockBytes to the
// bound where s leaves them 0, keeps every other field and any bound s
// sets, never modifies s or its EigenSettings, reads nil as the defaults,
// and with no bound (≤ 0) returns s itself.
func TestSettings(t *testing.T) {
	const bound = 1 << 30
	for _, c := range []struct {
		name            string
		s               *cluster.Settings
		dense, block    int64
		tol             float64
		seed            uint64
		restarts, iters int
	}{
		{"nil", nil, bound, bound, 0, 0, 0, 0},
		{"defaults", &cluster.Settings{Seed: 3, Restarts: 4}, bound, bound, 0, 3, 4, 0},
		{"eigen settings kept", &cluster.Settings{Seed: 5, EigenSettings: &eigen.Settings{Tol: 1e-6, MaxIter: 7}}, bound, bound, 1e-6, 5, 0, 7},
		{"own bounds kept", &cluster.Settings{EigenSettings: &eigen.Settings{MaxDenseBytes: 100}, MaxBlockBytes: 200}, 100, 200, 0, 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before cluster.Settings
			var beforeEigen *eigen.Settings
			if c.s != nil {
				before = *c.s
				if c.s.EigenSettings != nil {
					e := *c.s.EigenSettings
					beforeEigen = &e
				}
			}
			got := Settings(c.s, bound)
			if got == nil || got == c.s || got.EigenSettings == nil {
				t.Fatalf("Settings returned %+v for %+v: want a new value with EigenSettings", got, c.s)
			}
			if got.EigenSettings.MaxDenseBytes != c.dense || got.MaxBlockBytes != c.block {
				t.Errorf("MaxDenseBytes %d, MaxBlockBytes %d; want %d, %d", got.EigenSettings.MaxDenseBytes, got.MaxBlockBytes, c.dense, c.block)
			}
			if got.EigenSettings.Tol != c.tol || got.EigenSettings.MaxIter != c.iters || got.Seed != c.seed || got.Restarts != c.restarts {
				t.Errorf("other fields changed: %+v, eigen %+v", got, got.EigenSettings)
			}
			if c.s != nil {
				if c.s.MaxBlockBytes != before.MaxBlockBytes || c.s.EigenSettings != before.EigenSettings {
					t.Errorf("s modified: %+v, was %+v", c.s, before)
				}
				if beforeEigen != nil && *c.s.EigenSettings != *beforeEigen {
					t.Errorf("s.EigenSettings modified: %+v, was %+v", c.s.EigenSettings, beforeEigen)
				}
				if c.s.EigenSettings != nil && got.EigenSettings == c.s.EigenSettings {
					t.Errorf("EigenSettings shared with s")
				}
			}
		})
	}
	s := &cluster.Settings{Seed: 1}
	for _, b := range []int64{0, -1} {
		if got := Settings(s, b); got != s {
			t.Errorf("bound %d: %+v, want s itself", b, got)
		}
	}
}

// TestBound: Bound is memlimit.Fraction of memlimit.Available, or the
// runtime's soft memory limit when that is lower (set here to 64 MiB and
// restored); no soft limit (math.MaxInt64) leaves the fraction. Not
// parallel: it sets the process's soft limit.
func TestBound(t *testing.T) {
	avail, err := memlimit.Available()
	if err != nil {
		t.Skipf("available memory unknown here: %v", err)
	}
	frac := int64(memlimit.Fraction * float64(avail))
	old := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(old)
	if got := Bound(); got != frac {
		t.Errorf("no soft limit: Bound() = %d, want %d (3/4 of %d)", got, frac, avail)
	}
	debug.SetMemoryLimit(64 << 20)
	if got := Bound(); got != 64<<20 {
		t.Errorf("soft limit 64 MiB: Bound() = %d, want %d", got, 64<<20)
	}
	debug.SetMemoryLimit(2 * frac)
	if got := Bound(); got != frac {
		t.Errorf("soft limit above the fraction: Bound() = %d, want %d", got, frac)
	}
}
