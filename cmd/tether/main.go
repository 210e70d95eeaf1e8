// Command tether clusters graphs and feature data with optional side
// information (must-link / cannot-link pairs, partial labels), evaluates
// partitions and reproduces the experiments of the sources.
//
// Run "tether help" for the list of subcommands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/atomicfile"
	"github.com/tether-sc/tether/internal/interrupt"
	"github.com/tether-sc/tether/internal/memlimit"
	"github.com/tether-sc/tether/internal/suggest"
)

func main() {
	// The files the command is writing or has staged are registered from
	// their creation until they are in place or removed, so that a
	// second signal can remove them.
	files := atomicfile.NewRegistry()
	ctx, cancel := context.WithCancelCause(atomicfile.WithRegistry(context.Background(), files))
	// The first signal (SIGINT or SIGTERM) cancels the work, which stops
	// within a second and removes any partial output; a second one
	// removes the temporary files of the outputs not yet in place, which
	// the cancelled work may not have reached, and ends the process.
	interrupt.NotifyQuit(os.Stderr, "tether: interrupted, stopping (interrupt again to quit at once)", func() { cancel(errInterrupted) }, files.Discard)
	// A soft memory limit of 3/4 of the machine's memory (unless
	// GOMEMLIMIT sets one): large jobs collect garbage harder near it
	// instead of being killed (internal/memlimit).
	memlimit.Set()
	// A reader that goes away (tether … | head) cancels the command like
	// a first Ctrl-C, instead of SIGPIPE ending the process in the middle
	// of its writes (pipeWriter); the exit status is then 141, as for a
	// process ended by SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	m := NewMain()
	broken := func() { cancel(errBrokenPipe) }
	m.Stdout, m.Stderr = &pipeWriter{os.Stdout, broken}, &pipeWriter{os.Stderr, broken}
	err := m.Run(ctx, os.Args[1:])
	os.Exit(m.exitStatus(ctx, err))
}

// exitStatus is exitCode for the command m ran, except that a command
// whose normal end is a signal (tether serve, which runs until Ctrl-C or
// SIGTERM: endsBySignal) exits 0 when, after a first one, it stopped
// cleanly (err nil): a supervisor (systemd, a shell script) reads 130 as
// a failure (review 137).
func (m *Main) exitStatus(ctx context.Context, err error) int {
	if m.endsBySignal && err == nil && context.Cause(ctx) == errInterrupted {
		return 0
	}
	return exitCode(ctx, err, m.Stderr)
}

// errInterrupted is the cause of the context's cancellation on SIGINT or
// SIGTERM.
var errInterrupted = errors.New("interrupted")

// exitCode prints err and returns the process's exit status: 0 on success
// (or -h), 2 for a usage error (isUsage: a flag or argument the command
// cannot parse or use, a value the user gave that is invalid for this
// input, such as -k above the number of nodes or below the classes of
// -partial-labels, a knob of -set or a graph flag the input rules out),
// 130 when interrupted (whatever the command returned:
// a command that finished its write after the signal has still been
// interrupted; but see Main.exitStatus for tether serve), 141 and no message when standard output or error lost its
// reader (errBrokenPipe, likewise), 1 otherwise (unreadable or invalid
// data, a numerical failure). tether help says the same.
func exitCode(ctx context.Context, err error, stderr io.Writer) int {
	if context.Cause(ctx) == errBrokenPipe {
		return 141
	}
	if context.Cause(ctx) == errInterrupted {
		if err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "tether:", err)
		}
		return 130
	}
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case isUsage(err):
		fmt.Fprintln(stderr, "tether:", err)
		return 2
	}
	fmt.Fprintln(stderr, "tether:", err)
	return 1
}

// isUsage reports whether err is a usage error (exit status 2): one
// marked errUsage by the command, or a library error that refuses a value
// the command line gave, found only once the input is known: a method's
// knob that the input or the other knobs rule out (cluster.ErrKnob:
// -set M=300 on 300 rows, opplc's -set Theta=0 with α = 0) and graph
// flags that the input rules out (graph.ErrSpec: -graph full above
// -max-full, an -eps graph above its limit). The other errors of an
// invalid problem (cluster.ErrInvalid: the data, the side information),
// numerical failures and I/O errors are not. Cost O(depth of err's chain).
func isUsage(err error) bool {
	return errors.Is(err, errUsage) || errors.Is(err, cluster.ErrKnob) || errors.Is(err, graph.ErrSpec)
}

// untilDone runs f in a goroutine and waits for it to return or for ctx to
// be cancelled, whichever comes first, returning f's error or ctx's. It is
// for library calls that do not poll a context: an interrupted command
// then returns at once, and the process exits with f still running; f must
// not write anything the caller reads after a cancellation.
func untilDone(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errUsage marks command-line mistakes (exit status 2): flags that do not
// parse or do not go together, and values the user gave that are invalid
// for the input (-k 0 for a method that does not estimate k, -k above the
// number of nodes or below the classes of -partial-labels, a generator's
// parameters out of range).
var errUsage = errors.New("usage")

// usagef returns a usage error with the message of format and args, after
// "cmd: " when cmd is not "". Every subcommand names itself in its usage
// errors ("usage: cluster: …", "usage: powerlaw fit: …"), flag errors
// included (parseFlags); helpers shared between commands take the
// caller's cmd (cmdName of its flag set).
//
// An error among args is printed without the prefixes of the library
// packages it comes through (userError): "-method: unknown method …", not
// "-method: cluster: unknown method …".
func usagef(cmd, format string, args ...any) error {
	if cmd != "" {
		format = cmd + ": " + format
	}
	for i, a := range args {
		if err, ok := a.(error); ok {
			args[i] = userError{err}
		}
	}
	return fmt.Errorf("%w: "+format, append([]any{errUsage}, args...)...)
}

// fileArgHint returns, for an unexpected argument that names an existing
// file or folder, a hint naming the flags that take files ("" when it
// names none): "tether cluster data.csv -k 3" is the natural first try.
// args are the arguments from the unexpected one on.
func fileArgHint(args []string, flags string) string {
	if _, err := os.Stat(args[0]); err != nil {
		return ""
	}
	h := fmt.Sprintf(": files are named by flags, %s", flags)
	if slices.ContainsFunc(args[1:], func(a string) bool { return strings.HasPrefix(a, "-") }) {
		h += " (the flags after it were not read)"
	}
	return h
}

// userError is an error whose message drops the prefixes that the library
// packages put first ("cluster: ", "synth: invalid parameter: ", …; see
// plainMessage), for a message about the command line. It unwraps to the
// error, so errors.Is still sees the library's sentinels.
type userError struct{ err error }

func (e userError) Error() string { return plainMessage(e.err.Error()) }
func (e userError) Unwrap() error { return e.err }

// libraryPrefixes are the "package" and sentinel texts that the library's
// errors put before their message, each followed by ": ", which
// plainMessage removes.
var libraryPrefixes = []string{
	"cluster", "synth", "experiment", "dataset", "catalog", "constraint", "graph", "input", "powerlaw", "job",
	"invalid parameter", "invalid input", "invalid problem",
}

// plainMessage returns msg without the library prefixes, wherever a
// wrapped error begins ("gen blobs: synth: invalid parameter: Blobs: n =
// 0" becomes "gen blobs: Blobs: n = 0"): the ": "-separated segments equal
// to one of libraryPrefixes are dropped, except the last.
func plainMessage(msg string) string {
	segs := strings.Split(msg, ": ")
	keep := segs[:0]
	for i, s := range segs {
		if i < len(segs)-1 && slices.Contains(libraryPrefixes, s) {
			continue
		}
		keep = append(keep, s)
	}
	return strings.Join(keep, ": ")
}

// Main is the tether program with its standard streams, so tests can run it
// in-process: NewMain().Run(ctx, args).
type Main struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// outputs are the files the running command has staged, put in
	// place when it succeeds (writeOutput).
	outputs *outputs
	// clock, if not nil, is the clock of the progress recorders
	// (Main.recorder) instead of time.Now: tests make every event print
	// by advancing it.
	clock func() time.Time
	// endsBySignal is set by a command whose normal end is a signal,
	// once it runs until one (tether serve, serving): exitStatus.
	endsBySignal bool
}

// NewMain returns a Main wired to the process's standard streams.
func NewMain() *Main {
	return &Main{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
}

type command struct {
	name, summary string
	run           func(ctx context.Context, m *Main, args []string) error
}

func commands() []command {
	return []command{
		{"cluster", "cluster a feature file, a graph file or generated data", runCluster},
		{"eval", "evaluate a partition against a reference", runEval},
		{"labels", "write the reference labels held in a data or GML file", runLabels},
		{"constraints", "generate or check constraint files", runConstraints},
		{"gen", "write a synthetic dataset", runGen},
		{"demo", "the main job on generated data, in a few seconds", runDemo},
		{"methods", "list the clustering methods and their sources", runMethods},
		{"serve", "the interactive web page and JSON API (local)", runServe},
		{"repro", "reproduce the published tables and figures", runRepro},
		{"powerlaw", "fit or sample power laws (thesis §5.1)", runPowerlaw},
		{"version", "print the version of tether and of Go it was built with", runVersion},
	}
}

// Run executes the subcommand named by args[0]; -version (or --version)
// is "version".
func (m *Main) Run(ctx context.Context, args []string) error {
	if len(args) > 1 && args[0] == "help" {
		// "tether help cluster" is "tether cluster -h" (it printed the
		// list of commands).
		return m.Run(ctx, append(slices.Clone(args[1:]), "-h"))
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		// Help asked for goes to standard output (tether help | less);
		// the usage that comes with a mistake, to standard error.
		if len(args) == 0 {
			m.usage(m.Stderr)
			return fmt.Errorf("%w: no subcommand", errUsage)
		}
		m.usage(m.Stdout)
		return nil
	}
	if args[0] == "-version" || args[0] == "--version" {
		return runVersion(ctx, m, args[1:])
	}
	var names []string
	for _, c := range commands() {
		if c.name == args[0] {
			// The command's output files are put in place only when it
			// succeeds (writeOutput).
			m.outputs = &outputs{}
			err := c.run(ctx, m, args[1:])
			err = m.outputs.finish(ctx, err)
			m.outputs = nil
			return err
		}
		names = append(names, c.name)
	}
	// A mistyped command gets the error alone, as a mistyped flag does
	// (parseFlags): the list of commands is one "tether help" away.
	return fmt.Errorf("%w: unknown subcommand %q%s (run \"tether help\" for the commands)", errUsage, args[0], suggest.Hint(args[0], names))
}

// usage writes the list of commands to w: standard output when help was
// asked for, standard error with a usage error.
func (m *Main) usage(w io.Writer) {
	var b strings.Builder
	fmt.Fprintln(&b, "tether: semi-supervised (constrained) spectral clustering")
	fmt.Fprintln(&b, "\nUsage: tether <command> [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(&b, "\nRun \"tether <command> -h\" or \"tether help <command>\" for the flags of a command.")
	fmt.Fprintln(&b, "\nOutput files (-o, -plot, -graph-out, …) are written whole or not at all, and all of them\nonly when the command succeeds: an interrupted or failed command leaves none behind,\nnor their hidden temporary files, even when a second Ctrl-C ends it at once. Missing\nfolders on their paths are created (and removed again on failure). An output that\ncannot be written (a folder, a path under a file or in a folder that cannot be created\nor written) is a usage error, found before the command reads its input.")
	fmt.Fprintln(&b, "\nExit status: 0 on success, 2 for a usage error (a flag the command cannot read or use,\nor a value invalid for the input, such as -k above the number of nodes or below the\nclasses of -partial-labels, a -set knob or a graph flag the input rules out: -set M=300\non 300 rows, -graph full above -max-full, -gen with -n 1), 130 when interrupted, 141\nwhen the reader of its output goes away (tether … | head, on Unix: the command stops as\na first Ctrl-C stops it, keeping only the outputs it was already putting in place), 1 for\nany other failure (unreadable or invalid data, a numerical failure).")
	io.WriteString(w, citeSources(b.String()))
}

// newFlagSet returns a flag set that reports errors instead of exiting.
// -h prints the full usage on standard output (help asked for, as tether
// help prints the list of commands), followed by the list of sources when
// it cites one (citeSources); a mistake prints only the error, on
// standard error, and where to look (parseFlags), not the whole list of
// flags.
func (m *Main) newFlagSet(name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("tether "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		var b strings.Builder
		fmt.Fprintf(&b, "Usage: tether %s\n", usage)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags { // a command without flags (version) gets no empty heading
			b.WriteString("\nFlags:\n")
			fs.SetOutput(&b)
			fs.PrintDefaults()
			fs.SetOutput(io.Discard)
		}
		io.WriteString(m.Stdout, citeSources(b.String()))
	}
	return fs
}

// cmdName is the subcommand whose flags fs holds, as its usage errors name
// it: "cluster", "powerlaw fit".
func cmdName(fs *flag.FlagSet) string {
	return strings.TrimPrefix(fs.Name(), "tether ")
}

// usageHint is the line a usage error ends with instead of the list of
// flags.
func usageHint(fs *flag.FlagSet) string {
	return fmt.Sprintf("run \"%s -h\" for the flags", fs.Name())
}

// parseFlags parses args and turns flag errors (an unknown flag, a value
// its flag cannot parse) into usage errors that name the command, as
// usagef does ("usage: gen: invalid value …"), and its -h. The flag
// package prints nothing (newFlagSet discards its output and the usage is
// silenced here): the error is printed once, by the caller.
func parseFlags(fs *flag.FlagSet, args []string) error {
	full := fs.Usage
	fs.Usage = func() {} // the flag package calls it on every error
	err := fs.Parse(args)
	fs.Usage = full
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			full()
			return err
		}
		hint := ""
		if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
			name = strings.TrimLeft(name, "-")
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
			if h := otherSpelling(cmdName(fs), name); h != "" {
				hint = ": " + h
			} else if c := suggest.Closest(name, names); c != "" {
				hint = ": did you mean -" + c + "?"
			}
		}
		return usagef(cmdName(fs), "%v%s (%s)", err, hint, usageHint(fs))
	}
	return nil
}

// otherSpelling returns, for a flag the command cmd does not have, how
// cmd spells what the flag does in other commands, or "" (review 118:
// eval's graph file is -graph, cluster's -graph-file; constraints check
// takes its file as an argument, cluster as -constraints).
func otherSpelling(cmd, flag string) string {
	switch {
	case cmd == "eval" && flag == "graph-file":
		return "eval reads the graph file of the cut figures with -graph FILE (tether cluster's -graph-file)"
	case cmd == "constraints check" && flag == "constraints":
		return "the constraints file is the argument: tether constraints check [flags] FILE"
	case cmd == "labels" && flag == "graph":
		return "labels reads a graph file with -graph-file FILE (eval's -graph)"
	case (cmd == "cluster" || cmd == "labels") && (flag == "data" || flag == "features"):
		return cmd + " reads a feature table with -input FILE (-data is the folder of serve and repro)"
	}
	return ""
}

// parseArgs parses flags that may come after positional arguments
// ("check file.csv --n 5"), returning the positional ones.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
