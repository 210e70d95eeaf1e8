package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tether-sc/tether/internal/atomicfile"
)

// writeOutput runs write on the destination of an output flag (-o, -plot,
// -labels …): standard output when path is "", "-" or a name of standard
// output (isStdout: /dev/stdout …), else the file path.
//
// A file is staged (atomicfile.Stage): written to a temporary file beside
// path, which the command's outputs commit renames over path only when
// the command has succeeded and was not interrupted (Main.Run), so an
// interrupted or failed command leaves no output behind, neither a
// truncated file nor the complete ones written before the failure (a
// -graph-out written before a -plot that failed, the graph of gen written
// before its labels). Missing parent directories are created, for every
// output flag alike, and removed again when the command fails. Outside a
// command (m.outputs nil) the file is written at once.
//
// A second signal ends the process before the command has removed its
// files: main's atomicfile.Registry, which the context carries, removes
// them then, those being written and those staged. Only a process killed
// outright (kill -9) leaves a temporary file ".NAME.tmpPID-DIGITS"; it
// does not disturb a later run, and a reported output names the ones of
// processes that no longer run beside it in a note (atomicfile.Stale).
func (m *Main) writeOutput(ctx context.Context, path string, write func(io.Writer) error) error {
	return m.stageOutput(ctx, path, nil, "", write)
}

// writeReported is writeOutput followed, when path is a file and report
// is true (the command's -quiet is not set), by the line "wrote PATH" on
// standard error once the file is in place: every file a command writes
// is named once, as powerlaw sample does ("wrote N values to PATH"); a
// device or FIFO gets no such line (stageOutput, specialLine).
// Standard output is not reported.
func (m *Main) writeReported(ctx context.Context, path string, report bool, write func(io.Writer) error) error {
	var w io.Writer
	if report {
		w = m.Stderr
	}
	return m.stageOutput(ctx, path, w, "wrote "+path, write)
}

// stageOutput is writeOutput that prints msg as a line on w (when w is not
// nil and path is a file) once the file is in place. A path that is not a
// regular file (isSpecialFile: a device, a FIFO, a socket), which
// atomicfile writes directly and where no file is made, gets no line
// claiming one was written (specialLine): none for /dev/null, "sent …"
// for the others.
func (m *Main) stageOutput(ctx context.Context, path string, w io.Writer, msg string, write func(io.Writer) error) error {
	if w != nil && path != "" && !isStdout(path) && isSpecialFile(path) {
		if msg = specialLine(path, msg); msg == "" {
			w = nil
		}
	}
	return m.stageOutputLine(ctx, path, w, msg, write)
}

// stageOutputLine is stageOutput printing msg as it is, whatever path is:
// for a line that names several files, each as what it is (closure's).
func (m *Main) stageOutputLine(ctx context.Context, path string, w io.Writer, msg string, write func(io.Writer) error) error {
	if path == "" || isStdout(path) {
		return write(m.Stdout)
	}
	if m.outputs == nil {
		if err := atomicfile.Write(ctx, path, write); err != nil {
			return err
		}
		if w != nil {
			fmt.Fprintln(w, msg)
		}
		return nil
	}
	p, err := atomicfile.Stage(ctx, path, write)
	if err != nil {
		return err
	}
	if stale := atomicfile.Stale(path); len(stale) > 0 && w != nil {
		fmt.Fprintf(w, "tether: note: %s: %s left by a tether killed while writing it (kill -9, a crash): safe to remove, unless a process of another machine is writing %s\n",
			path, strings.Join(stale, ", "), path)
	}
	m.outputs.staged = append(m.outputs.staged, stagedOutput{p, w, msg})
	return nil
}

// outputs are the files a command has staged (writeOutput), in order.
type outputs struct {
	staged []stagedOutput
}

// stagedOutput is a staged file and the line printed on w (if not nil)
// once it is in place.
type stagedOutput struct {
	file *atomicfile.Pending
	w    io.Writer
	msg  string
}

// finish ends a command whose run returned err: when err is nil and ctx
// was not cancelled, the staged files are renamed into place in the order
// they were written, each named by its line; otherwise they are all
// removed (with the directories created for them), and finish returns err,
// or ctx's error when the command returned none but staged files.
//
// The renames are all or nothing with respect to an interrupt: once they
// start they run to the end whatever ctx becomes (they are fast), where a
// signal arriving between two of them left the first outputs in place and
// removed the others. A rename that fails (not an interrupt) removes the
// files not yet in place, and its error names the outputs that were
// written and those that were not.
func (o *outputs) finish(ctx context.Context, err error) error {
	staged := o.staged
	o.staged = nil
	if err == nil && len(staged) > 0 {
		err = ctx.Err()
	}
	if err != nil {
		discard(staged)
		return err
	}
	ctx = context.WithoutCancel(ctx)
	for a, s := range staged {
		if err := s.file.Commit(ctx); err != nil {
			discard(staged[a+1:])
			if len(staged) == 1 {
				return err
			}
			return fmt.Errorf("%w (written: %s; not written: %s)", err, pendingPaths(staged[:a]), pendingPaths(staged[a:]))
		}
		if s.w != nil {
			fmt.Fprintln(s.w, s.msg)
		}
	}
	return nil
}

// discard removes staged files, last staged first: a folder created for
// several files is empty when the first of them, which created it,
// removes it.
func discard(staged []stagedOutput) {
	for b := len(staged) - 1; b >= 0; b-- {
		staged[b].file.Discard()
	}
}

// pendingPaths lists the paths of staged files, separated by commas, or
// "none".
func pendingPaths(staged []stagedOutput) string {
	if len(staged) == 0 {
		return "none"
	}
	paths := make([]string, len(staged))
	for i, s := range staged {
		paths[i] = s.file.Path()
	}
	return strings.Join(paths, ", ")
}

// pathFlag is a file flag of a command and its value.
type pathFlag struct{ flag, path string }

// checkOutputs refuses, as a usage error naming both flags, an output that
// would replace a file the command reads (ins) or the file of another of
// its outputs: the output is written whole and renamed over its path at
// the end, so the input was read, but then lost (cluster -o data.csv), or
// one output replaced the other (gen sbm -o g.labels writes the graph,
// then its labels over it). isStdout paths are "-". Paths name the same file when they resolve to
// the same absolute path (symbolic links followed, those of the folders
// of a file that does not exist yet included: d/x.txt and link/x.txt with
// link -> d), or to one existing regular file (a hard link);
// devices such as /dev/null may be shared. An empty path is an unset flag;
// "-" is standard output, which two outputs cannot share. It also refuses
// an output the command could not write (atomicfile.Check: an existing
// directory, a path ending in '/', a folder that is a file or where no file
// can be created), which was found only when the command wrote it, after
// its work (minutes of clustering). Call it before reading or writing
// anything. cmd prefixes the error (see usagef).
func checkOutputs(cmd string, ins, outs []pathFlag) error {
	for a, o := range outs {
		if o.path == "" {
			continue
		}
		for _, q := range outs[:a] {
			if q.path != "" && samePath(o.path, q.path) {
				if isStdout(o.path) {
					return usagef(cmd, "%s and %s both write to standard output; give one of them a file", q.flag, o.flag)
				}
				return usagef(cmd, "%s and %s both write %s; the second would replace the first", q.flag, o.flag, o.path)
			}
		}
		if isStdout(o.path) {
			continue
		}
		for _, in := range ins {
			if in.path != "" && in.path != "-" && samePath(o.path, in.path) {
				return usagef(cmd, "%s %s is the file of %s: writing it would replace the input", o.flag, o.path, in.flag)
			}
		}
		if err := atomicfile.Check(o.path); err != nil {
			return usagef(cmd, "%s %v", o.flag, err)
		}
	}
	return nil
}

// samePath reports whether paths a and b name the same file (see
// checkOutputs); standard output (isStdout) is the same only as itself.
func samePath(a, b string) bool {
	if isStdout(a) || isStdout(b) {
		return isStdout(a) && isStdout(b)
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb) && fa.Mode().IsRegular()
	}
	absA, errA := filepath.Abs(atomicfile.Target(a))
	absB, errB := filepath.Abs(atomicfile.Target(b))
	return errA == nil && errB == nil && absA == absB
}

// isStdout reports whether an output path is standard output: "-", or
// one of the names Linux and the BSDs give it, /dev/stdout, /dev/fd/1 and
// /proc/self/fd/1. Writing such a name as a file, the command's other
// standard output (cluster -json's document, gen's graph) was mixed with
// it, and were standard output redirected to a file, the staged file
// replaced that file, losing what was written to standard output itself.
// Both are avoided by writing it as "-" (writeOutput) and treating it as
// "-" when outputs are checked (checkOutputs).
func isStdout(path string) bool {
	switch filepath.Clean(path) {
	case "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return true
	}
	return false
}

// specialLine returns the line of stageOutput for path, a file that is
// not a regular one, in place of msg, a line saying a file was written
// ("wrote PATH", "wrote 100 values to PATH"): "" for the null device
// (os.DevNull, or a link to it: the output went nowhere, as asked), else
// msg with "wrote PATH" made "sent output to PATH" and another "wrote"
// made "sent" ("sent 100 values to PATH"): the output went to the device
// or FIFO, and no file was made. Cost: two stats.
func specialLine(path, msg string) string {
	fi, err := os.Stat(path)
	if null, nerr := os.Stat(os.DevNull); err == nil && nerr == nil && os.SameFile(fi, null) {
		return ""
	}
	if strings.Contains(msg, "wrote "+path) {
		return strings.Replace(msg, "wrote "+path, "sent output to "+path, 1)
	}
	return strings.Replace(msg, "wrote ", "sent ", 1)
}
