// Package memlimit gives a command a soft memory limit for Go's garbage
// collector from the memory the machine (or its container) has, so that a
// large job collects harder as it nears that limit instead of being
// killed for lack of memory. It changes when memory is reclaimed, never
// what is computed.
package memlimit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"runtime/debug"
	"strconv"
	"strings"
)

// Fraction is the share of the available memory that Set gives the
// garbage collector as its soft limit: the rest is headroom for the
// memory the runtime does not count (stacks of threads, the files the
// kernel caches) and for other processes.
const Fraction = 0.75

// Set gives the garbage collector a soft memory limit of Fraction of the
// available memory (Available), unless the GOMEMLIMIT environment
// variable sets one already (the runtime has then applied it) or the
// available memory cannot be read (other systems than Linux). It returns
// the limit set in bytes, 0 when none was. Without a limit, Go lets the
// heap grow to twice what is live before it collects (GOGC = 100): on 10⁵
// points FGPWC with its defaults holds 0.78 GB live at most and peaks at
// 2.2 GB of resident memory, so a job whose live data fit in memory could
// still be killed. Near the limit the collector runs more often, which
// costs time only there. Cost: Available's, reading a few small files.
func Set() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	avail, err := Available()
	if err != nil || avail <= 0 {
		return 0
	}
	limit := int64(Fraction * float64(avail))
	debug.SetMemoryLimit(limit)
	return limit
}

// Available returns the memory a process may use, in bytes: the machine's
// (MemTotal of /proc/meminfo), or its cgroup's memory limit when lower.
// The limit is the least one set on the process's own cgroup or any
// ancestor up to the root of the mounted hierarchy: cgroup v2 memory.max
// under /sys/fs/cgroup, cgroup v1 memory.limit_in_bytes under
// /sys/fs/cgroup/memory, at the paths /proc/self/cgroup names. So a limit
// is found under systemd's MemoryMax=, in a container sharing the host's
// cgroup namespace, and on a nested cgroup, not only in a container with
// its own namespace. When /proc/self/cgroup cannot be read, or names a
// cgroup not mounted there (a container's view of the hierarchy), only the
// root files are read, which then are the container's. Only the hard limit
// counts: memory.high (v2) and memory.soft_limit_in_bytes (v1) throttle
// or reclaim but never kill, and are not read. A limit file that is
// absent, says "max" or v1's "no limit" (a value of 2⁶² or more), or
// cannot be read as a positive number of bytes sets no limit at its level:
// the others still bound (an error would drop them too, and MemTotal). The
// error is /proc/meminfo's: missing, or without a readable MemTotal. Cost:
// reading /proc/meminfo, /proc/self/cgroup and one small file per level
// of the cgroup path.
func Available() (int64, error) {
	return available(os.DirFS("/"))
}

// available is Available on the file system fsys, whose root stands for
// "/" (paths without the leading slash: "proc/meminfo").
func available(fsys fs.FS) (int64, error) {
	b, err := fs.ReadFile(fsys, "proc/meminfo")
	if err != nil {
		return 0, fmt.Errorf("memlimit: %w", err)
	}
	total, err := parseMemInfo(bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	if v, ok := cgroupLimit(fsys); ok && v < total {
		total = v
	}
	return total, nil
}

// cgroupLimit returns the least memory limit set on the process's cgroups
// in fsys (see Available), and false when none is. Cost: one file per
// level of the cgroup paths.
func cgroupLimit(fsys fs.FS) (int64, bool) {
	var v2, v1 string // the paths of the process's cgroups, "" if unknown
	if b, err := fs.ReadFile(fsys, "proc/self/cgroup"); err == nil {
		v2, v1 = parseProcCgroup(b)
	}
	var least int64
	found := false
	for _, h := range []struct{ mount, file, path string }{
		{"sys/fs/cgroup", "memory.max", v2},
		{"sys/fs/cgroup/memory", "memory.limit_in_bytes", v1},
	} {
		for _, dir := range cgroupDirs(fsys, h.mount, h.path) {
			b, err := fs.ReadFile(fsys, dir+"/"+h.file)
			if err != nil {
				continue
			}
			if v, ok := parseCgroupLimit(b); ok && (!found || v < least) {
				least, found = v, true
			}
		}
	}
	return least, found
}

// parseProcCgroup returns the cgroup v2 path (the line "0::/path") and the
// cgroup v1 memory controller's path (the line "id:…,memory,…:/path") of a
// /proc/self/cgroup text, each "" when it has no such line.
func parseProcCgroup(b []byte) (v2, v1 string) {
	for _, line := range strings.Split(string(b), "\n") {
		id, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		controllers, p, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		if id == "0" && controllers == "" {
			v2 = p
			continue
		}
		for _, c := range strings.Split(controllers, ",") {
			if c == "memory" {
				v1 = p
			}
		}
	}
	return v2, v1
}

// cgroupDirs returns the directories whose limits bound the cgroup at path
// p of the hierarchy mounted at mount, the leaf first and mount last: all
// from the leaf up when the leaf is a directory there, else mount alone
// (p unknown, malformed, or outside the mounted view: a container sees its
// own cgroup at the mount point).
func cgroupDirs(fsys fs.FS, mount, p string) []string {
	dirs := []string{mount}
	rel := strings.Trim(p, "/")
	if !strings.HasPrefix(p, "/") || rel == "" || !fs.ValidPath(rel) {
		return dirs
	}
	leaf := mount + "/" + rel
	if fi, err := fs.Stat(fsys, leaf); err != nil || !fi.IsDir() {
		return dirs
	}
	dirs = dirs[:0]
	for d := leaf; d != mount; d = path.Dir(d) {
		dirs = append(dirs, d)
	}
	return append(dirs, mount)
}

// parseMemInfo returns MemTotal of a /proc/meminfo text, in bytes.
func parseMemInfo(r io.Reader) (int64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != "MemTotal" {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("memlimit: MemTotal line %q: want a number of kB", sc.Text())
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb <= 0 || kb > math.MaxInt64/1024 {
			return 0, fmt.Errorf("memlimit: MemTotal line %q: want a positive number of kB", sc.Text())
		}
		return kb * 1024, nil
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("memlimit: %w", err)
	}
	return 0, errors.New("memlimit: no MemTotal line")
}

// parseCgroupLimit reads a cgroup memory limit file: a number of bytes,
// or "max" (v2) or a huge number near 2⁶³ (v1) for none. It reports false
// when the file sets no limit or cannot be read as one (garbage, 0 or a
// negative number: ignored, see Available).
func parseCgroupLimit(b []byte) (int64, bool) {
	s := string(bytes.TrimSpace(b))
	if s == "max" {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 || v >= 1<<62 {
		return 0, false
	}
	return v, true
}
