package memguard

import (
	"context"
	"math"
	"runtime/debug"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/internal/memlimit"
	"github.com/tether-sc/tether/internal/testgraph"
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

// TestBound: Bound is memlimit.Fraction of memlimit.Available whatever
// the runtime's soft memory limit (GOMEMLIMIT, a garbage collector's
// target, set here to 64 MiB, to twice the fraction and to none, and
// restored); it lowered the bound before. Not parallel: it sets the
// process's soft limit.
func TestBound(t *testing.T) {
	avail, err := memlimit.Available()
	if err != nil {
		t.Skipf("available memory unknown here: %v", err)
	}
	frac := int64(memlimit.Fraction * float64(avail))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, soft := range []int64{math.MaxInt64, 64 << 20, 2 * frac} {
		debug.SetMemoryLimit(soft)
		if got := Bound(); got != frac {
			t.Errorf("soft limit %d: Bound() = %d, want %d (3/4 of %d)", soft, got, frac, avail)
		}
	}
}

// TestMiB: a positive limit in MiB is that many times 2²⁰ bytes, 0 (and a
// negative value, which the commands refuse before) Bound().
func TestMiB(t *testing.T) {
	for _, c := range []struct {
		mib  int
		want int64
	}{{1, 1 << 20}, {12, 12 << 20}, {1 << 30, 1 << 50}, {0, Bound()}, {-1, Bound()}} {
		if got := MiB(c.mib); got != c.want {
			t.Errorf("MiB(%d) = %d, want %d", c.mib, got, c.want)
		}
	}
}

// TestRefused: the refusals of the bounds Settings sets, by an eigensolve
// (eigen.Settings.MaxDenseBytes) and by a method's blocks
// (cluster.Settings.MaxBlockBytes), wrapped as cluster.Run wraps them,
// are told from the library's other invalid-argument errors by their
// sentinels, not their text.
func TestRefused(t *testing.T) {
	const n = 200
	g, labels := testgraph.LabelledCirculant(t, n, 3, 2)
	s := Settings(nil, 64<<10)
	ctx := context.Background()
	_, dense := cluster.Run(ctx, cluster.NJW{}, &cluster.Problem{Graph: g, K: 100}, s)
	_, blocks := cluster.Run(ctx, cluster.LabelProp{}, &cluster.Problem{Graph: g, K: n / 2, Labels: labels}, s)
	_, other := cluster.Run(ctx, cluster.NJW{}, &cluster.Problem{Graph: g, K: n + 1}, s)
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{{"dense eigensolve", dense, true}, {"labelprop blocks", blocks, true}, {"k above n", other, false}} {
		if c.err == nil || Refused(c.err) != c.want {
			t.Errorf("%s: %v: Refused = %v, want %v", c.name, c.err, Refused(c.err), c.want)
		}
	}
}
