//go:build linux

package inputfile

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"unsafe"
)

// pipefsMagic is the file system type of anonymous pipes (statfs(2)):
// /dev/stdin, /dev/fd/N of a shell's <(cmd).
const pipefsMagic = 0x50495045

// open opens path; a named FIFO is opened without blocking and its writer
// waited for (waitWriter). An anonymous pipe reached by a path is opened
// as it is: its open does not wait, and its writer may have finished
// already, which poll(2) would never report.
func open(ctx context.Context, path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		return os.Open(path)
	}
	var sfs syscall.Statfs_t
	if err := syscall.Statfs(path, &sfs); err == nil && sfs.Type == pipefsMagic {
		return os.Open(path)
	}
	// O_NONBLOCK: open returns at once, writer or not; the runtime then
	// reads the FIFO through its poller (read deadlines work).
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := waitWriter(ctx, f); err != nil {
		f.Close()
		return nil, fmt.Errorf("open %s: waiting for a process to write to the FIFO: %w", path, err)
	}
	return f, nil
}

// pollFd is struct pollfd of poll(2).
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

const (
	pollIn  = 0x1
	pollErr = 0x8
	pollHup = 0x10
)

// waitWriter waits until the FIFO f, opened without blocking, has data or
// a writer that came and went, checking ctx every pollInterval. A read of
// a FIFO without a writer returns end of file at once, whether it blocks
// or not; poll(2) reports nothing until a writer has opened it (Linux
// compares the writer count at open, fs/pipe.c pipe_poll), then POLLIN for
// data and POLLHUP when the writers are gone.
func waitWriter(ctx context.Context, f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var ready bool
		var perr error
		if err := rc.Control(func(fd uintptr) {
			p := pollFd{fd: int32(fd), events: pollIn}
			// Anew each time: the ppoll system call writes the time left.
			ts := syscall.NsecToTimespec(int64(pollInterval))
			_, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&p)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
			if e != 0 && e != syscall.EINTR {
				perr = e
			}
			ready = p.revents&(pollIn|pollErr|pollHup) != 0
		}); err != nil {
			return err
		}
		if perr != nil {
			return fmt.Errorf("poll: %w", perr)
		}
		if ready {
			return nil
		}
	}
}

// reopen opens f's file anew through /proc/self/fd when it is a pipe, a
// FIFO or a device (see Reopen): read-only, without blocking (the open of
// a FIFO does not wait for a writer, whom f's opener waited for, and the
// runtime polls the descriptor) and without making a terminal the
// process's controlling one. It returns nil for other files and when the
// open fails (a socket, no /proc).
func reopen(f *os.File) *os.File {
	st, err := f.Stat()
	if err != nil || st.Mode()&(fs.ModeNamedPipe|fs.ModeDevice) == 0 {
		return nil
	}
	rc, err := f.SyscallConn() // f.Fd would make a polled f blocking
	if err != nil {
		return nil
	}
	var path string
	if err := rc.Control(func(fd uintptr) { path = fmt.Sprintf("/proc/self/fd/%d", fd) }); err != nil {
		return nil
	}
	g, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil
	}
	return g
}
