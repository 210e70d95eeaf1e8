// Command tether-beam runs a manifest of tether clustering jobs on Apache
// Beam (Prism, locally, by default):
//
//	tether-beam -manifest jobs.jsonl -out results/
//
// Each line of the manifest is a job.Spec (see package job; docs/jobs.md
// in the repository lists the fields for users, and tether-beam -h prints
// that first, then its own flags, then Beam's). The labels of
// job ID go to results/ID.labels, one JSON line per job to
// results/results.jsonl. Beam's own flags choose the runner, e.g.
// --runner=flink --endpoint=localhost:8099 --environment_type=LOOPBACK.
//
// -manifest, -root (by default the folder of each manifest file: with a
// glob that spans folders, -manifest 'd?/m.jsonl', each file's jobs read
// the files beside it), the jobs' files
// and -out may be gs:// paths, or paths of any scheme registered with
// Beam's file systems: they are read and written through them
// (tetherbeam.Files), and no folder is created for such an -out. Beam's
// GCS file system is registered here; tether's tests run it against
// fake-gcs-server in process (STORAGE_EMULATOR_HOST), not against Google
// Cloud Storage itself.
//
// A missing manifest, one with no jobs or an id used twice stops the run
// before it starts (tetherbeam.CheckBatch), as does a job that reads a
// file the run would write over in -out: a labels file ID.labels of one
// of the jobs (replaced, or removed when the job fails), results.jsonl,
// or a temporary of theirs; and a local manifest
// that is not a regular file (a pipe, a shell's <(cmd), a FIFO): the
// manifest is read twice, by the check and by the pipeline, and a pipe
// gives its lines once. Save a piped manifest to a file first. A path of
// a file descriptor (/dev/stdin, /dev/fd/N, /proc/self/fd/N) is refused
// too, even when it leads to a regular file (-manifest /dev/stdin <
// jobs.jsonl): its jobs' relative paths would start from /dev/. A
// run whose pipeline reads no job line (a manifest emptied during the
// run) fails and changes nothing in -out. Ctrl-C (or SIGTERM) stops
// it with "interrupted" and exit code 130, as tether's commands: the first
// signal cancels the run, a second one quits at once. The labels files
// and results.jsonl are put in place together at the end of a run
// (tetherbeam.Batch: staged labels, then renames), so an interrupted or
// failed run changes neither the labels files nor results.jsonl an
// earlier run left, and no partial file is left: neither a labels file
// nor a staged or temporary one of results.jsonl or of a labels file, nor
// a file in the temporary folder (TMPDIR; Beam's loopback worker files).
// A rename of those that fails (a labels file that cannot be put in
// place, results.jsonl that cannot be replaced) undoes the ones before
// it, the earlier labels having been set aside until the end. Only an
// interrupt during those final renames (a fraction of a second locally;
// on an object store, a copy per file), or a second Ctrl-C or a kill
// then, can cut them short: the process exits with some of the new
// labels beside the old results and the earlier labels they replace set
// aside (".ID.labels.tmp.old"). The next run into the same -out undoes
// them before its pipeline starts, whether it then succeeds or not
// (tetherbeam.RemovePartial), putting the earlier labels back: rerun to
// recover. A recovery that fails (a rename) stops that run before its
// pipeline, with an error naming the files, and leaves them for a later
// run or for you to rename.
// Rerunning into an existing folder replaces results.jsonl and the labels
// of the manifest's jobs, removes the labels of a job that now fails and
// leaves other files alone.
//
// A reader of standard output or error that goes away (tether-beam … 2>&1
// | head) does not stop the run: SIGPIPE is ignored, so Beam's log lines
// and tether-beam's messages are lost from then on, and the run finishes
// and writes its outputs whole, with its usual exit code. By default the
// signal ended the process at Beam's next log line, in the middle of the
// run, leaving its private temporary folder (TMPDIR/tether-beam-*) and
// whatever the workers were writing. (tether itself stops its command
// instead, with status 141, since its main output goes to the pipe; the
// outputs of tether-beam are files.)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs" // gs:// paths
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	tetherbeam "github.com/tether-sc/tether/beam"
	"github.com/tether-sc/tether/beam/internal/privatetmp"
	"github.com/tether-sc/tether/internal/interrupt"
	"github.com/tether-sc/tether/job"
)

func main() {
	// A reader of standard output or error that goes away must not kill
	// the process mid-run (see the package comment): writes to it fail
	// with EPIPE instead, and are lost.
	signal.Ignore(syscall.SIGPIPE)
	manifest, out, root := defineFlags(flag.CommandLine)
	flag.Usage = func() { usage(flag.CommandLine.Output(), flag.CommandLine) }
	flag.Parse()
	beam.Init()
	if *manifest == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "tether-beam: -manifest and -out are required (tether-beam -h: usage; docs/jobs.md: the job format)")
		os.Exit(2)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// As tether's main: the first signal cancels the run, which stops and
	// removes any partial output (run); a second one kills the process.
	interrupt.Notify(os.Stderr, "tether-beam: interrupted, stopping (interrupt again to quit at once)", cancel)
	code := run(ctx, *manifest, *out, *root, os.Stderr)
	cancel()
	os.Exit(code) // runs no deferred call: run cleans up itself
}

// ownFlags are tether-beam's own flags, which usage lists first; Beam's
// packages register theirs (--runner and many more) on the same flag set.
var ownFlags = []string{"manifest", "out", "root"}

// defineFlags defines tether-beam's own flags (ownFlags) on fs.
func defineFlags(fs *flag.FlagSet) (manifest, out, root *string) {
	manifest = fs.String("manifest", "", "JSON Lines manifest of jobs, one a line (docs/jobs.md), a local or gs:// path or glob (required)")
	out = fs.String("out", "", "output folder for the labels files (ID.labels) and results.jsonl, local or gs:// (required)")
	root = fs.String("root", "", "folder the jobs' relative paths start from, local or gs:// (default: the folder of each manifest file)")
	return manifest, out, root
}

// usageHeader is what tether-beam -h prints before the flags.
const usageHeader = `Usage: tether-beam -manifest JOBS.jsonl -out DIR [-root DIR] [Beam flags]

Runs a manifest of tether clustering jobs on Apache Beam (the local Prism
runner unless --runner says otherwise). Each line of the manifest is one
job, a JSON object: {"id":"a","graph":"g.mtx","truth":"g.labels","k":2}.
docs/jobs.md in tether's repository lists every field, its default and
the fields of the results. Writes DIR/ID.labels for each job and
DIR/results.jsonl, one JSON line per job, put in place together at the end.

tether-beam's flags:
`

// usage prints the usage of tether-beam to w: usageHeader, its own flags
// (ownFlags), then the other flags of fs, those Beam's packages define.
// Cost O(flags).
func usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, usageHeader)
	own, beamFlags := flag.NewFlagSet("tether-beam", flag.ContinueOnError), flag.NewFlagSet("beam", flag.ContinueOnError)
	own.SetOutput(w)
	beamFlags.SetOutput(w)
	fs.VisitAll(func(f *flag.Flag) {
		to := beamFlags
		for _, name := range ownFlags {
			if f.Name == name {
				to = own
			}
		}
		to.Var(f.Value, f.Name, f.Usage)
	})
	own.PrintDefaults()
	fmt.Fprint(w, "\nApache Beam's flags (the runner and its options; give them as --name=value):\n")
	beamFlags.PrintDefaults()
}

// checked is called by run once the manifest has passed its check,
// before anything is written: the tests interrupt a run there, after the
// check (which stops at an interrupt) and before the pipeline.
var checked = func() {}

// run checks the manifest and runs the batch; it returns the exit code:
// 0, 1 for an error (printed to stderr), 130 when ctx was cancelled (an
// interrupt), as tether's commands do. The runner's own message for a
// cancelled run ("failed to get metrics: … context canceled") is replaced
// by "interrupted". Once the manifest has passed its check and the
// output folder is made, it calls tetherbeam.RemovePartial on out, which
// undoes a commit that a killed process cut short (before the pipeline
// stages labels over its staged files and writes its temporary results
// file over the cut one's) and removes the temporaries earlier runs
// left; a recovery that did not complete (tetherbeam.ErrUnrecovered)
// stops the run (exit 1, or 130 when interrupted, the error printed all
// the same), any other error of it is printed as a warning. Unless it
// returns 0 or fails before the pipeline starts, it calls RemovePartial
// again at its end, to remove the temporary files of results.jsonl and
// of the labels that writes cut short may have left in out: the workers
// writing them check ctx and remove them themselves, but the process may
// exit before a worker's cleanup runs. Before that first RemovePartial
// nothing is written but the output folder (the check only reads the
// manifest), so a failure or an interrupt there leaves nothing to
// remove; an interrupt stops the check of a large manifest too, and a
// manifest that could block (a FIFO) is refused from its stat
// (CheckBatch). A pipeline that read no job line fails with a message of its own
// (tetherbeam.ErrNoJobs) instead of the runner's. The pipeline
// runs with TMPDIR pointing to a folder of its own, removed with its
// files when it returns (privatetmp: Beam's loopback worker files), so
// run sets TMPDIR for the process meanwhile: call it once at a time.
func run(ctx context.Context, manifest, out, root string, stderr io.Writer) (code int) {
	fail := func(err error) int {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "tether-beam: interrupted")
			return 130
		}
		fmt.Fprintln(stderr, "tether-beam:", err)
		return 1
	}
	warnings, err := tetherbeam.CheckBatch(ctx, manifest, root, out)
	if err != nil {
		return fail(err)
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, "tether-beam: warning:", w)
	}
	checked()
	if job.Scheme(out) == "" {
		// An object store has no folders to create: its objects are
		// written under out as they are.
		if err := os.MkdirAll(out, 0o755); err != nil {
			return fail(err)
		}
	}
	// Before the pipeline stages labels over those of a commit that a
	// killed process cut short, and writes its temporary results file
	// over that commit's: RemovePartial undoes the commit first.
	if err := tetherbeam.RemovePartial(ctx, out); errors.Is(err, tetherbeam.ErrUnrecovered) {
		if ctx.Err() != nil {
			// fail says only "interrupted"; RemovePartial was not.
			fmt.Fprintln(stderr, "tether-beam:", err)
		}
		return fail(err)
	} else if err != nil {
		// A temporary that could not be removed: the run replaces
		// or leaves it, as it would have.
		fmt.Fprintln(stderr, "tether-beam: warning:", err)
	}
	defer func() {
		if code == 0 {
			return
		}
		if err := tetherbeam.RemovePartial(ctx, out); err != nil {
			fmt.Fprintln(stderr, "tether-beam:", err)
		}
	}()
	// Beam's loopback mode leaves an empty beamloopbackworker-N file in
	// os.TempDir() at each pipeline run (privatetmp): the run's temporary
	// files go to a folder of its own, removed when the pipeline has
	// returned.
	leave, err := privatetmp.Enter()
	if err != nil {
		return fail(err)
	}
	defer func() {
		if err := leave(); err != nil {
			fmt.Fprintln(stderr, "tether-beam: warning:", err)
		}
	}()
	p, s := beam.NewPipelineWithRoot()
	tetherbeam.Batch(s, manifest, root, out)
	if err := beamx.Run(ctx, p); err != nil {
		return fail(pipelineError(err, manifest))
	}
	if ctx.Err() != nil {
		return fail(ctx.Err())
	}
	return 0
}

// pipelineError returns err, the error of the pipeline's run, or for a run
// that read no job line of manifest (tetherbeam.ErrNoJobs, of which the
// runner passes on only the text, within a page of its own) an error that
// says so in one line.
func pipelineError(err error, manifest string) error {
	if strings.Contains(err.Error(), tetherbeam.ErrNoJobs.Error()) {
		return fmt.Errorf("manifest %s: %w: nothing was written (was the manifest emptied or replaced during the run?)", manifest, tetherbeam.ErrNoJobs)
	}
	return err
}
