package memlimit

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

func TestParseMemInfo(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       int64
		err        string
	}{
		{"linux", "MemTotal:       24684084 kB\nMemFree:         1000 kB\n", 24684084 * 1024, ""},
		{"not first", "MemFree: 5 kB\nMemTotal: 2048 kB\n", 2048 * 1024, ""},
		{"missing", "MemFree: 5 kB\n", 0, "no MemTotal line"},
		{"no unit", "MemTotal: 2048\n", 0, "want a number of kB"},
		{"negative", "MemTotal: -5 kB\n", 0, "want a positive number of kB"},
		{"overflow", "MemTotal: 99999999999999999 kB\n", 0, "want a positive number of kB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseMemInfo(strings.NewReader(tc.text))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func TestParseCgroupLimit(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int64
		ok   bool
	}{
		{"max\n", 0, false},
		{"9223372036854771712\n", 0, false}, // cgroup v1: no limit
		{"4294967296\n", 4294967296, true},
		{"0\n", 0, false},
		{"garbage", 0, false},
	} {
		got, ok := parseCgroupLimit([]byte(tc.text))
		if got != tc.want || ok != tc.ok {
			t.Errorf("%q: got %d, %v; want %d, %v", tc.text, got, ok, tc.want, tc.ok)
		}
	}
}

// TestSet: without GOMEMLIMIT, Set gives the collector Fraction of the
// available memory; with it, Set leaves the runtime's limit alone.
func TestSet(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	avail, err := Available()
	if err != nil {
		t.Skipf("no available memory to read here: %v", err)
	}
	// Available is at most the machine's memory, read here by hand.
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 3 && f[0] == "MemTotal:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				if avail <= 0 || avail > kb*1024 {
					t.Fatalf("Available = %d, want in (0, MemTotal = %d B]", avail, kb*1024)
				}
			}
		}
	}
	limit := Set()
	if want := int64(Fraction * float64(avail)); limit != want {
		t.Fatalf("Set = %d, want %d (Fraction of %d)", limit, want, avail)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Fatalf("runtime limit %d, want %d", got, limit)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(old)
	if limit := Set(); limit != 0 {
		t.Fatalf("with GOMEMLIMIT set, Set = %d, want 0", limit)
	}
	if got := debug.SetMemoryLimit(-1); got != old {
		t.Fatalf("with GOMEMLIMIT set, runtime limit changed to %d", got)
	}
}
