package memlimit

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
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

// TestAvailableCgroup: on a fake file system, Available's bound is the
// least of MemTotal and the limits on the process's cgroup and its
// ancestors, at the paths /proc/self/cgroup names, or the root files' when
// that path is "/", unknown or not mounted. The want values are worked out
// by hand from each case's files. Before, only the root files were read:
// the nested cases ("systemd parent", "leaf lower", "host root without
// memory.max", "v1 nested", "v1 combined controllers", "hybrid: v2 and v1
// both bound", "garbage leaf") got MemTotal or the root's limit.
func TestAvailableCgroup(t *testing.T) {
	const (
		gib      = int64(1) << 30
		meminfo  = "MemTotal: 16777216 kB\nMemFree: 1 kB\n" // 16 GiB
		total    = 16 * gib
		v1None   = "9223372036854771712\n" // v1's "no limit" on 4 KiB pages
		v1None64 = "9223372036854710272\n" // on 64 KiB pages
	)
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	bytesOf := func(v int64) *fstest.MapFile { return file(strconv.FormatInt(v, 10) + "\n") }
	for _, tc := range []struct {
		name  string
		files fstest.MapFS
		want  int64
		err   string
	}{
		{"no cgroup files", fstest.MapFS{"proc/meminfo": file(meminfo)}, total, ""},
		{"systemd parent", fstest.MapFS{
			"proc/meminfo":                          file(meminfo),
			"proc/self/cgroup":                      file("0::/system.slice/tether.service\n"),
			"sys/fs/cgroup/system.slice/memory.max": bytesOf(2 * gib),
			"sys/fs/cgroup/system.slice/tether.service/memory.max":  file("max\n"),
			"sys/fs/cgroup/system.slice/tether.service/memory.high": bytesOf(gib / 2), // not a hard limit
		}, 2 * gib, ""},
		{"leaf lower", fstest.MapFS{
			"proc/meminfo":                   file(meminfo),
			"proc/self/cgroup":               file("0::/a/b/c\n"),
			"sys/fs/cgroup/memory.max":       bytesOf(8 * gib),
			"sys/fs/cgroup/a/memory.max":     bytesOf(4 * gib),
			"sys/fs/cgroup/a/b/memory.max":   file("max\n"),
			"sys/fs/cgroup/a/b/c/memory.max": bytesOf(3 * gib),
		}, 3 * gib, ""},
		{"host root without memory.max", fstest.MapFS{
			"proc/meminfo":                                                        file(meminfo),
			"proc/self/cgroup":                                                    file("0::/user.slice/user-1000.slice/session-2.scope\n"),
			"sys/fs/cgroup/cgroup.controllers":                                    file("cpu memory\n"),
			"sys/fs/cgroup/user.slice/memory.max":                                 file("max\n"),
			"sys/fs/cgroup/user.slice/user-1000.slice/memory.max":                 bytesOf(5 * gib),
			"sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope/memory.max": file("max\n"),
		}, 5 * gib, ""},
		{"above MemTotal", fstest.MapFS{
			"proc/meminfo":                 file(meminfo),
			"proc/self/cgroup":             file("0::/big\n"),
			"sys/fs/cgroup/big/memory.max": bytesOf(64 * gib),
		}, total, ""},
		{"namespace root", fstest.MapFS{
			"proc/meminfo":             file(meminfo),
			"proc/self/cgroup":         file("0::/\n"),
			"sys/fs/cgroup/memory.max": bytesOf(gib),
		}, gib, ""},
		{"path not mounted", fstest.MapFS{ // a container's own cgroup at the mount point
			"proc/meminfo":             file(meminfo),
			"proc/self/cgroup":         file("0::/kubepods/burstable/pod1/ctr\n"),
			"sys/fs/cgroup/memory.max": bytesOf(gib),
		}, gib, ""},
		{"path outside the namespace", fstest.MapFS{
			"proc/meminfo":                     file(meminfo),
			"proc/self/cgroup":                 file("0::/../sibling\n"),
			"sys/fs/cgroup/memory.max":         bytesOf(6 * gib),
			"sys/fs/cgroup/sibling/memory.max": bytesOf(gib), // not this process's
		}, 6 * gib, ""},
		{"no /proc/self/cgroup, root files", fstest.MapFS{
			"proc/meminfo":                               file(meminfo),
			"sys/fs/cgroup/memory.max":                   bytesOf(7 * gib),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": bytesOf(6 * gib),
		}, 6 * gib, ""},
		{"v1 nested", fstest.MapFS{
			"proc/meminfo":     file(meminfo),
			"proc/self/cgroup": file("9:pids:/docker/abc\n4:memory:/docker/abc\n1:cpu:/docker/abc\n0::/\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes":            file(v1None),
			"sys/fs/cgroup/memory/docker/memory.limit_in_bytes":     bytesOf(3 * gib),
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": file(v1None),
			"sys/fs/cgroup/pids/docker/abc/pids.max":                file("max\n"),
		}, 3 * gib, ""},
		{"v1 combined controllers", fstest.MapFS{
			"proc/meminfo":     file(meminfo),
			"proc/self/cgroup": file("3:cpuacct,memory:/batch/job7\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes":            file(v1None64),
			"sys/fs/cgroup/memory/batch/memory.limit_in_bytes":      file(v1None64),
			"sys/fs/cgroup/memory/batch/job7/memory.limit_in_bytes": bytesOf(gib + 4096),
		}, gib + 4096, ""},
		{"v1 not mounted", fstest.MapFS{
			"proc/meminfo":     file(meminfo),
			"proc/self/cgroup": file("4:memory:/docker/abc\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": bytesOf(2 * gib),
		}, 2 * gib, ""},
		{"v1 memory at root, no limits", fstest.MapFS{
			"proc/meminfo":     file(meminfo),
			"proc/self/cgroup": file("4:memory:/\n0::/\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": file(v1None),
		}, total, ""},
		{"hybrid: v2 and v1 both bound", fstest.MapFS{
			"proc/meminfo":                                 file(meminfo),
			"proc/self/cgroup":                             file("4:memory:/m\n0::/u\n"),
			"sys/fs/cgroup/u/memory.max":                   bytesOf(5 * gib),
			"sys/fs/cgroup/memory/m/memory.limit_in_bytes": bytesOf(4 * gib),
		}, 4 * gib, ""},
		{"garbage leaf", fstest.MapFS{ // ignored: the parent still bounds
			"proc/meminfo":                    file(meminfo),
			"proc/self/cgroup":                file("0::/p/leaf\n"),
			"sys/fs/cgroup/p/memory.max":      bytesOf(2 * gib),
			"sys/fs/cgroup/p/leaf/memory.max": file("lots\n"),
		}, 2 * gib, ""},
		{"garbage everywhere", fstest.MapFS{
			"proc/meminfo":             file(meminfo),
			"proc/self/cgroup":         file("not a cgroup file\n::\n0:\n"),
			"sys/fs/cgroup/memory.max": file("-5\n"),
		}, total, ""},
		{"no meminfo", fstest.MapFS{
			"proc/self/cgroup":         file("0::/\n"),
			"sys/fs/cgroup/memory.max": bytesOf(gib),
		}, 0, "proc/meminfo"},
		{"bad meminfo", fstest.MapFS{"proc/meminfo": file("MemTotal: x kB\n")}, 0, "want a positive number of kB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := available(tc.files)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %d, %v; want an error containing %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func TestParseProcCgroup(t *testing.T) {
	for _, tc := range []struct{ text, v2, v1 string }{
		{"0::/user.slice/a.scope\n", "/user.slice/a.scope", ""},
		{"4:memory:/docker/x\n0::/\n", "/", "/docker/x"},
		{"3:cpuacct,memory:/a\n2:cpu:/b\n", "", "/a"},
		{"5:memory_other:/a\n1:name=systemd:/s\n", "", ""},
		{"", "", ""},
		{"0::/a:b\n", "/a:b", ""}, // a colon inside the path
	} {
		v2, v1 := parseProcCgroup([]byte(tc.text))
		if v2 != tc.v2 || v1 != tc.v1 {
			t.Errorf("%q: got %q, %q; want %q, %q", tc.text, v2, v1, tc.v2, tc.v1)
		}
	}
}
