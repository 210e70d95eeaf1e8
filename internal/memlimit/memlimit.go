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
	"math"
	"os"
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
// costs time only there. Cost: reading two or three small files.
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
// (MemTotal of /proc/meminfo), or its container's limit when lower
// (cgroup v2 memory.max, cgroup v1 memory.limit_in_bytes). Cost: reading
// those files.
func Available() (int64, error) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, fmt.Errorf("memlimit: %w", err)
	}
	defer f.Close()
	total, err := parseMemInfo(f)
	if err != nil {
		return 0, err
	}
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if v, ok := parseCgroupLimit(b); ok && v < total {
			total = v
		}
	}
	return total, nil
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
// when the file sets no limit or cannot be read as one.
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
