package experiment

import (
	"context"
	"errors"
	"hash/fnv"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestMemoBuildsOnce(t *testing.T) {
	var c memo[string, int]
	var builds atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := c.get(context.Background(), "a", func(context.Context) (int, error) {
				builds.Add(1)
				return 7, nil
			})
			if v != 7 || err != nil {
				t.Errorf("get = %d, %v", v, err)
			}
		}()
	}
	wg.Wait()
	if n := builds.Load(); n != 1 {
		t.Errorf("%d builds, want 1", n)
	}
	// Errors are kept too, and a panic becomes an error.
	bad := errors.New("bad")
	for i := 0; i < 2; i++ {
		if _, err := c.get(context.Background(), "b", func(context.Context) (int, error) { return 0, bad }); err != bad {
			t.Errorf("err = %v, want %v", err, bad)
		}
		if _, err := c.get(context.Background(), "p", func(context.Context) (int, error) { panic("boom") }); err == nil {
			t.Error("panicking build: no error")
		}
	}
}

func TestMemoKeep(t *testing.T) {
	c := memo[int, int]{keep: 2}
	builds := map[int]int{}
	get := func(k int) {
		c.get(context.Background(), k, func(context.Context) (int, error) { builds[k]++; return k, nil })
	}
	for _, k := range []int{1, 2, 1, 3, 2, 1} {
		get(k)
	}
	// 1 and 2 are built; 3 evicts 1 (the oldest added), 2 is still kept, and
	// 1 is built again, evicting 2.
	want := map[int]int{1: 2, 2: 1, 3: 1}
	for k, n := range want {
		if builds[k] != n {
			t.Errorf("key %d built %d times, want %d (builds %v)", k, builds[k], n, builds)
		}
	}
	if len(c.m) != 2 {
		t.Errorf("%d entries kept, want 2", len(c.m))
	}
}

// TestSeedStream checks that seedStream returns the seeds of the two hashes
// it replaced (copied here as they were), so the tables keep their data.
func TestSeedStream(t *testing.T) {
	ssHash := func(s string) uint64 {
		h := fnv.New64a()
		h.Write([]byte(s))
		return h.Sum64()
	}
	fgpwcHash := func(parts ...string) uint64 {
		h := fnv.New64a()
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
		return h.Sum64()
	}
	for _, name := range []string{"moons", "xor", "interlaced-circles", "iris", ""} {
		if got, want := seedStream(name), ssHash(name); got != want {
			t.Errorf("seedStream(%q) = %#x, want %#x", name, got, want)
		}
		if got, want := seedStream(name, "data", ""), fgpwcHash(name, "data"); got != want {
			t.Errorf("seedStream(%q, data, \"\") = %#x, want %#x", name, got, want)
		}
		for rep := 0; rep < 3; rep++ {
			r := strconv.Itoa(rep)
			if got, want := seedStream(name, "constraints", r, ""), fgpwcHash(name, "constraints", r); got != want {
				t.Errorf("seedStream(%q, constraints, %s, \"\") = %#x, want %#x", name, r, got, want)
			}
		}
	}
	// FNV-1a of "a" (the FNV specification's test vector).
	if got := seedStream("a"); got != 0xaf63dc4c8601ec8c {
		t.Errorf("seedStream(a) = %#x", got)
	}
}

func TestMeanStdDev(t *testing.T) {
	cases := []struct {
		xs       []float64
		mean, sd float64
	}{
		{nil, math.NaN(), math.NaN()},
		{[]float64{0.3}, 0.3, 0},
		// Sample standard deviation of 1, 2, 3, 4: √(5/3).
		{[]float64{1, 2, 3, 4}, 2.5, math.Sqrt(5.0 / 3)},
		{[]float64{2, 2, 2}, 2, 0},
	}
	for _, c := range cases {
		m, sd := meanStdDev(c.xs)
		if !scalar.EqualWithinAbsOrRel(m, c.mean, 1e-15, 1e-15) && !(math.IsNaN(m) && math.IsNaN(c.mean)) {
			t.Errorf("mean(%v) = %v, want %v", c.xs, m, c.mean)
		}
		if !scalar.EqualWithinAbsOrRel(sd, c.sd, 1e-15, 1e-15) && !(math.IsNaN(sd) && math.IsNaN(c.sd)) {
			t.Errorf("sd(%v) = %v, want %v", c.xs, sd, c.sd)
		}
	}
}
