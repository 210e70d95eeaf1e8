package tetherbeam

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/tether-sc/tether/internal/atomicfile"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/job"
)

func init() {
	register.DoFn4x1[context.Context, string, string, func(string), error](&runJobFn{})
	register.Emitter1[string]()
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&writeResultsFn{})
	register.Iter1[string]()
}

// ResultsFile is the name of the results file in the output folder.
const ResultsFile = "results.jsonl"

// Batch adds to s the transforms that run every job of the manifest file
// (a path or glob Beam's file systems can read) and returns the
// PCollection of result lines (JSON, one per job, in no particular order).
// Relative paths inside the jobs are resolved against root (job.Join);
// with root "", against the folder of the manifest file each line comes
// from (job.Dir of it, as Beam's file system lists it), so that a glob
// whose folder part matches several folders ("d?/m.jsonl") runs each
// manifest on the files beside it.
// When out is not empty, each job's labels go to job.LabelsPath(out, id)
// and the result lines to out/results.jsonl, put in place together at
// the end of the run (writeResultsFn): each job stages its labels as
// ".ID.labels.tmp" (stagedLabels), and once every job has run and the
// results file is written, the staged labels are renamed into place, the
// labels an earlier run left for the jobs that now fail are removed, and
// the results file is renamed last; a step of those that fails undoes the
// ones before it (writeResultsFn.commit). A run that fails or is
// cancelled before the end of that commit changes none of the labels
// files and results.jsonl of an earlier run; its staged files are
// temporaries that RemovePartial removes. A commit that a killed process
// cut short (SIGKILL, a power loss, a worker lost) leaves its renames half
// done, the earlier labels it had set aside (".ID.labels.tmp.old") the
// only copy of those the earlier results.jsonl describes: RemovePartial
// undoes it (recoverCommit) before it removes anything, and so does the
// next run's writeResultsFn before it writes its own temporary results
// file over the cut one's. Call RemovePartial(ctx, out) before running a
// pipeline of Batch with out, as tether-beam does: the run's jobs stage
// their labels over the cut commit's staged files, which would hide which
// labels it had put in place for jobs of no earlier labels. A run with out that reads no
// job line of the manifest (an empty one; a pipe, which Beam's text
// reader sizes by its stat and reads nothing of) fails, with an error
// whose text holds ErrNoJobs's, and changes nothing in out. Any of these
// paths may have a scheme of Beam's file systems ("gs://b/out"): the jobs
// then read and write them through Files.
func Batch(s beam.Scope, manifest, root, out string) beam.PCollection {
	s = s.Scope("tether.Batch")
	lines := textio.ReadWithFilename(s, manifest)
	results := beam.ParDo(s, &runJobFn{Root: root, Out: out}, lines)
	if out != "" {
		// textio.Write truncates the file and writes in place; an
		// interrupted write would leave a truncated results file. The
		// group is also the barrier after which every job's labels are
		// staged. The marker, an empty line (no result line is empty),
		// makes the group exist when no job line was read, so that
		// writeResultsFn fails the run then (ErrNoJobs) instead of its
		// never running.
		marker := beam.Create(s, "")
		all := beam.GroupByKey(s, beam.AddFixedKey(s, beam.Flatten(s, results, marker)))
		beam.ParDo0(s, &writeResultsFn{Filename: job.Join(out, ResultsFile), Out: out, Manifest: manifest}, all)
	}
	return results
}

// stagedLabels returns where a job of Batch stages its labels before the
// commit puts them at labels, job.LabelsPath(out, id): ".ID.labels.tmp"
// beside it (tempName), a name of LabelsTempPattern, so that
// RemovePartial removes the staged labels of a run that did not commit.
// While a commit's temporary results file is there, the staged files
// also tell recoverCommit which jobs that commit had not reached.
func stagedLabels(labels string) string { return tempName(labels) }

// stageLabels writes the labels of res, a job that succeeded, to their
// staged file in out (stagedLabels), atomically: through atomicfile for a
// local folder, through files for one with a scheme. A failed job stages
// nothing: the commit removes its earlier labels. Cost: one write (on an
// object store, plus a copy).
func stageLabels(ctx context.Context, files *Files, out string, res *job.Result) error {
	if res.Error != "" {
		return nil
	}
	path := stagedLabels(job.LabelsPath(out, res.ID))
	var err error
	if job.Scheme(out) == "" {
		err = atomicfile.Write(ctx, path, res.WriteLabels)
	} else {
		err = files.WriteFile(ctx, path, res.WriteLabels)
	}
	if err != nil {
		return fmt.Errorf("job %s: staging its labels: %w", res.ID, err)
	}
	return nil
}

// writeResultsFn writes every result line to Filename at once, through a
// temporary file of the same folder (tempName) renamed into place only when
// all was written and ctx was not cancelled: a reader sees the old results
// file or the new one, never a truncated one, and a write that does not
// complete removes its temporary file. With Out, it commits the jobs'
// labels first (commit).
type writeResultsFn struct {
	Filename string `json:"filename"`
	// Out, when not empty, is the output folder where the jobs staged
	// their labels (stageLabels), which the commit puts in place.
	Out string `json:"out"`
	// Manifest names the manifest in the error of a run that read no
	// job line of it (ErrNoJobs).
	Manifest string `json:"manifest"`
}

// ErrNoJobs marks the failure of a run of Batch with an output folder that
// read no job line of its manifest, which CheckManifest refuses: the
// manifest was emptied or replaced after the check, or is a pipe that an
// earlier reader emptied. Beam's runners pass on only the text of a
// DoFn's error, within their own: look for ErrNoJobs.Error() in it.
var ErrNoJobs = errors.New("the pipeline read no job line")

// ProcessElement writes the lines of the single group to a temporary file
// of w.Filename (stageAtomic), then commits it, with the labels of w.Out's
// jobs (commit). With w.Out, it first undoes a commit of an earlier
// attempt or run that a killed process cut short (recoverCommit), whose
// temporary results file, the evidence, it is about to write over; a
// recovery that fails fails it, before it writes anything. Empty lines
// (Batch's marker) are skipped; a group of no other line — the pipeline
// read no job line of the manifest — fails with
// an error wrapping ErrNoJobs that names w.Manifest, and changes nothing.
// It creates nothing when ctx is already cancelled, checks ctx before
// every line and before the commit, and removes the temporary
// file whenever it does not complete: an error, a cancellation (ctx's
// error is returned), or a panic of lines, which is how Beam's iterators
// report a broken stream when the runner aborts the bundle (the panic goes
// on, to the harness). Cost: one pass over the lines, O(total length),
// plus recoverCommit's (a listing, when no commit was cut short) and the
// commit's (one or two renames per job, on an object store a copy each).
func (w *writeResultsFn) ProcessElement(ctx context.Context, _ int, lines func(*string) bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	fs, err := filesystem.New(ctx, w.Filename)
	if err != nil {
		return fmt.Errorf("writing %s: %w", w.Filename, err)
	}
	defer fs.Close()
	if w.Out != "" {
		// Before the temporary results file of a commit that a killed
		// process cut short, the evidence, is written over.
		if err := recoverCommit(context.WithoutCancel(ctx), fs, w.Out); err != nil {
			return err
		}
	}
	var jobs []outcome
	read := 0
	tmp, err := stageAtomic(ctx, fs, w.Filename, func(fd io.Writer) error {
		bw := bufio.NewWriterSize(fd, 1<<20)
		var line string
		for lines(&line) {
			if err := ctx.Err(); err != nil {
				return err
			}
			if line == "" {
				continue // Batch's marker
			}
			read++
			if w.Out != "" {
				jobs = append(jobs, outcomeOf(line))
			}
			bw.WriteString(line)
			if err := bw.WriteByte('\n'); err != nil { // bufio's errors are sticky: WriteString's shows here
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if read == 0 {
			return ErrNoJobs
		}
		return bw.Flush()
	})
	if errors.Is(err, ErrNoJobs) {
		return fmt.Errorf("manifest %s: %w: nothing was written (was the manifest emptied or replaced during the run?)", w.Manifest, ErrNoJobs)
	}
	if err != nil {
		return err
	}
	return w.commit(ctx, fs, tmp, jobs)
}

// outcome is what the commit needs of a job's result line: its id, and
// whether it failed.
type outcome struct {
	id     string
	failed bool
}

// outcomeOf reads the outcome of a result line (job.Result's JSON); a
// line it cannot read is a failed job of no id, whose labels the commit
// leaves alone.
func outcomeOf(line string) outcome {
	var r struct {
		ID    string `json:"id"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		return outcome{failed: true}
	}
	return outcome{id: r.ID, failed: r.Error != ""}
}

// commit puts the run's output in place, unless ctx is cancelled (its
// error is then returned, the temporary results file tmp removed and
// nothing else changed): the staged labels of the jobs that succeeded
// are renamed to their labels files, the labels an earlier run left for
// the jobs that failed are removed, and tmp is renamed to w.Filename
// last. tmp is complete (written and closed by stageAtomic) before the
// first of these renames. Once begun, it is not stopped by ctx: the
// renames are quick, and a commit stopped half-way would leave the new
// labels of some jobs beside the old results.
//
// It is all or nothing: an earlier run's labels file that the commit
// replaces or removes is first renamed aside (backupLabels), and a step
// that fails — a labels file that cannot be put in place, the rename of
// the results file — undoes the steps before it, in reverse (the new
// labels back to their staged files, the earlier ones back in place),
// so that the folder is as the earlier run left it, plus the staged
// labels (which RemovePartial removes, or a retry of the commit puts in
// place); its error is returned, with the undoing's if that failed too.
// Once the results file is in place, the set-aside labels are removed;
// one that cannot be is left, and recoverCommit removes it later (no
// temporary results file is left to say a commit was cut short).
//
// A process killed during the commit undoes nothing: it leaves tmp, some
// labels set aside and some new ones in place, beside the old
// results.jsonl. recoverCommit tells that state from tmp and the files
// of the folder and undoes it; ProcessElement runs it before a retried
// or later commit writes its tmp, and RemovePartial before it removes
// any temporary. A retried commit that finds a job's labels in place and
// its staged file gone (an attempt whose tmp was lost) takes them as
// moved by the earlier attempt and goes on; it removes at its end the
// labels that attempt had set aside for the manifest's jobs too. Cost:
// one listing of the folder, one or two renames per job (a copy each on
// an object store), the results file's, and one removal per earlier
// labels file replaced.
func (w *writeResultsFn) commit(ctx context.Context, fs filesystem.Interface, tmp string, jobs []outcome) error {
	if err := ctx.Err(); err != nil {
		removeFile(context.WithoutCancel(ctx), fs, tmp)
		return err
	}
	ctx = context.WithoutCancel(ctx)
	var done []renamed // the steps taken, to undo on a failure
	var stale []string // labels set aside by an earlier attempt, removed at the end
	fail := func(err error) error {
		removeFile(ctx, fs, tmp)
		if uerr := undo(ctx, fs, done); uerr != nil {
			return errors.Join(err, uerr)
		}
		return err
	}
	if len(jobs) > 0 {
		// The folder, listed once: the staged files, which a retried
		// commit finds gone for the jobs its first attempt moved (and
		// memfs's rename of a missing file would make an empty one),
		// and the earlier labels to set aside. A folder that cannot be
		// listed has its files renamed unchecked, and each labels file
		// looked for alone.
		list, lerr := outFiles(ctx, fs, w.Out)
		if lerr != nil {
			list = map[string]bool{}
		}
		has := func(name string) bool {
			if lerr != nil {
				return present(ctx, fs, name)
			}
			return list[baseName(name)]
		}
		seen := map[string]bool{}
		for _, j := range jobs {
			if !validID(j.id) {
				// A malformed line's id (if any) names no labels
				// file of w.Out, and must not name one outside it.
				continue
			}
			if seen[j.id] {
				// CheckManifest refuses it; Batch's runner gives each
				// manifest line one result line, retries included.
				return fail(fmt.Errorf("job %s: %w: two result lines of id %q: the manifest uses the id twice, and its jobs staged one labels file", j.id, job.ErrSpec, j.id))
			}
			seen[j.id] = true
			labels := job.LabelsPath(w.Out, j.id)
			if list[baseName(backupLabels(labels))] {
				stale = append(stale, backupLabels(labels))
			}
			staged := lerr != nil || list[baseName(stagedLabels(labels))]
			if !j.failed && !staged && has(labels) {
				continue // moved by an earlier attempt of the commit
			}
			if has(labels) {
				if err := filesystem.Rename(ctx, fs, labels, backupLabels(labels)); err != nil {
					return fail(fmt.Errorf("setting aside the labels %s of an earlier run: %w", labels, err))
				}
				done = append(done, renamed{labels, backupLabels(labels)})
				list[baseName(labels)] = false
			}
			if j.failed {
				continue
			}
			if err := commitLabels(ctx, fs, labels, staged); err != nil {
				return fail(err)
			}
			done = append(done, renamed{stagedLabels(labels), labels})
			list[baseName(stagedLabels(labels))] = false
			list[baseName(labels)] = true
		}
	}
	if err := filesystem.Rename(ctx, fs, tmp, w.Filename); err != nil {
		return fail(fmt.Errorf("writing %s: %w", w.Filename, err))
	}
	for _, r := range done {
		if r.to == backupLabels(r.from) {
			stale = append(stale, r.to)
		}
	}
	for _, name := range slices.Compact(slices.Sorted(slices.Values(stale))) {
		removeFile(ctx, fs, name)
	}
	return nil
}

// renamed is a step of the commit: the file from renamed to.
type renamed struct{ from, to string }

// undo renames back, in reverse order, the files of the steps done and
// returns the errors of those that failed (each naming both files), the
// others undone all the same.
func undo(ctx context.Context, fs filesystem.Interface, done []renamed) error {
	var errs []error
	for i := len(done) - 1; i >= 0; i-- {
		r := done[i]
		if err := filesystem.Rename(ctx, fs, r.to, r.from); err != nil {
			errs = append(errs, fmt.Errorf("undoing the commit: renaming %s back to %s: %w", r.to, r.from, err))
		}
	}
	return errors.Join(errs...)
}

// backupLabels returns where the commit sets aside the labels file labels
// of an earlier run while it puts the new ones in place:
// ".ID.labels.tmp.old" beside it, a name of LabelsTempPattern that no
// staged or temporary labels file has (theirs end in ".labels.tmp",
// ".tmp" or digits). Until the commit's results file is in place, it is
// the only copy of the labels the earlier results.jsonl describes:
// RemovePartial never removes it, recoverCommit puts it back or removes
// it once that commit is known to have finished.
func backupLabels(labels string) string { return stagedLabels(labels) + ".old" }

// validID reports whether id names a labels file of an output folder, as
// job.SaveLabelsFiles tells (its rule, job's checkID): not empty, not "." or "..", only letters,
// digits, '.', '-' and '_' (the ids job.ParseSpec accepts).
func validID(id string) bool {
	if id == "" || id == "." || id == ".." {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// outFiles returns the base names of the files in the folder out (fs is
// its file system) that the commit looks for: for a local folder, all of
// them (os.ReadDir: any folder name will do; a missing folder has none);
// for a folder with a scheme, those of "*.labels*" (the labels files and
// their temporaries), listed with fs.List, which every scheme reads alike
// only when out has no glob character of its own (an error then). A
// listed name under out but in a subfolder of it (GCS's glob crosses
// '/') is left out.
func outFiles(ctx context.Context, fs filesystem.Interface, out string) (map[string]bool, error) {
	names := map[string]bool{}
	if job.Scheme(out) == "" {
		ents, err := os.ReadDir(out)
		if errors.Is(err, iofs.ErrNotExist) {
			return names, nil
		}
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", out, err)
		}
		for _, e := range ents {
			if !e.IsDir() {
				names[e.Name()] = true
			}
		}
		return names, nil
	}
	if strings.ContainsAny(out, `*?[\`) {
		return nil, fmt.Errorf("listing %s: the folder's name has a glob character", out)
	}
	glob := job.Join(out, "*.labels*")
	prefix := strings.TrimSuffix(glob, "*.labels*")
	found, err := fs.List(ctx, glob)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", out, err)
	}
	for _, name := range found {
		if rest, ok := strings.CutPrefix(name, prefix); ok && strings.Contains(rest, "/") {
			continue
		}
		names[baseName(name)] = true
	}
	return names, nil
}

// commitLabels renames the staged labels of the labels file labels
// (stagedLabels) to it, on fs, when there is one (staged); without one,
// labels there was moved by an earlier attempt of the commit (no error),
// and labels missing too is an error.
func commitLabels(ctx context.Context, fs filesystem.Interface, labels string, staged bool) error {
	if !staged {
		if present(ctx, fs, labels) {
			return nil
		}
		return fmt.Errorf("putting the labels %s in place: its staged file %s is missing", labels, stagedLabels(labels))
	}
	if err := filesystem.Rename(ctx, fs, stagedLabels(labels), labels); err != nil {
		return fmt.Errorf("putting the labels %s in place: %w", labels, err)
	}
	return nil
}

// baseName returns the part of name after its last '/' (a local path's
// separator on Linux, an object name's on every scheme).
func baseName(name string) string { return name[strings.LastIndex(name, "/")+1:] }

// present reports whether the file name exists on fs: by os.Stat for a
// local path, else by a listing of name (false when name has a glob
// character, which a listing would read as one).
func present(ctx context.Context, fs filesystem.Interface, name string) bool {
	if job.Scheme(name) == "" {
		_, err := os.Stat(name)
		return err == nil
	}
	if strings.ContainsAny(name, `*?[\`) {
		return false
	}
	found, err := fs.List(ctx, name)
	return err == nil && slices.Contains(found, name)
}

// LabelsTempPattern matches, in an output folder, the base names of the
// temporary labels files of Batch: the staged labels ".ID.labels.tmp"
// (stagedLabels), which the commit renames to ID.labels at the end of a
// run, and the temporary files of their own atomic writes,
// "..ID.labels.tmp.tmp" on a file system with a scheme (Files.WriteFile)
// and "..ID.labels.tmp.tmpPID-DIGITS" in a local folder
// (internal/atomicfile), as well as ".ID.labels.tmp" and
// ".ID.labels.tmpDIGITS", which the writes of earlier versions made; and
// ".ID.labels.tmp.old", where the commit sets aside the labels of an
// earlier run that it replaces or removes (backupLabels), until its end.
// RemovePartial removes the files it matches but the last kind, which
// recoverCommit puts back or removes. It is a glob of path.Match.
const LabelsTempPattern = ".*.labels.tmp*"

// RemovePartial removes the temporary files that Batch's writes into the
// output folder out leave when they do not complete and their own cleanup
// does not run: the staged labels of a run that did not commit, and the
// temporaries of writes cut short (os.Exit after an interrupt runs no
// deferred call of the goroutines still writing; a worker killed). These
// are results.jsonl's temporary file and the labels temporaries in out
// itself (LabelsTempPattern; not in its subfolders), whichever run or
// manifest left them: runs must not share an output folder while one of
// them runs. Call it when a run with an output folder fails or is
// interrupted, after the pipeline has returned, and before a run starts
// (see Batch).
//
// It first recovers from a commit that a killed process cut short, in
// this run or an earlier one (recoverCommit): the earlier labels that
// commit set aside (".ID.labels.tmp.old", backupLabels) are the only copy
// of those results.jsonl describes, and are put back, not removed; so are
// the new labels it had put in place, back to their staged files, which
// are then removed with the other temporaries. RemovePartial itself never
// removes a set-aside labels file: recoverCommit removes those a finished
// commit left, and leaves, with an error, one it can neither put back nor
// tell to be a leftover. When the recovery fails (a rename, a read of the
// temporary results file, a listing), RemovePartial removes no temporary
// file and returns its error, which wraps ErrUnrecovered and names the
// files and what to do: the temporary results file and the staged labels
// are what a later call tells the state of the folder by.
// results.jsonl and the labels files are otherwise left alone. A missing
// temporary file or folder is no error; a file that cannot be removed
// is, and the others are removed all the same. A folder with a scheme
// whose name has a glob character (*?[\) cannot be listed: its
// temporaries are then left, with an error that says so. ctx's
// cancellation does not stop it. Cost: recoverCommit's (one listing of
// out, more only when a commit was cut short), one more listing of out (on an
// object store, of the names that start with "out/."), one removal per
// temporary file found, and one for results.jsonl's (with a listing on
// GCS when it is missing).
func RemovePartial(ctx context.Context, out string) error {
	ctx = context.WithoutCancel(ctx)
	name := tempName(job.Join(out, ResultsFile))
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	if err := recoverCommit(ctx, fs, out); err != nil {
		return fmt.Errorf("%w; no temporary file of %s was removed", err, out)
	}
	// recoverCommit removed the temporary results file, if it could list
	// out.
	errs := []error{removeFile(ctx, fs, name)}
	temps, err := labelsTemps(ctx, fs, out)
	if err != nil {
		errs = append(errs, err)
	}
	for _, tmp := range temps {
		if strings.HasSuffix(tmp, ".labels.tmp.old") {
			continue // set aside by a commit: recoverCommit's
		}
		errs = append(errs, removeFile(ctx, fs, tmp))
	}
	return errors.Join(errs...)
}

// recoverCommit undoes, in the output folder out (fs is its file system),
// a commit of writeResultsFn that was cut short by a killed process, or
// finishes one that had only its clean-up left. What a cut commit leaves
// is told apart by the temporary results file tmp (tempName of
// out/results.jsonl), which ProcessElement writes and closes (stageAtomic)
// before the commit's first rename, and which the commit's last rename
// turns into results.jsonl; and by the labels the commit set aside,
// ".ID.labels.tmp.old" (backupLabels), which it makes only after tmp is
// complete:
//
//   - No tmp: no commit was under way, or the last one renamed tmp into
//     place and was cut during its final removals. A set-aside labels file
//     is then a leftover: removed when ID.labels is there (the commit put
//     the new labels in place) or when results.jsonl lists job ID as failed
//     (the commit removed its labels); renamed back to ID.labels when
//     results.jsonl lists it as succeeded but ID.labels is missing (the
//     state a cut commit leaves once its tmp was lost, which only a
//     version without this recovery did: the set-aside file is then the
//     only copy of the labels results.jsonl describes); otherwise (no such
//     line, results.jsonl unreadable) left, with an error naming it. In
//     that lost-tmp state, a set-aside file beside ID.labels is removed
//     all the same: without tmp, new labels a cut commit put in place
//     cannot be told from a finished commit's.
//   - tmp there, equal to results.jsonl, and every job it lists in its
//     final state (no staged file and ID.labels for a job that succeeded,
//     no ID.labels for one that failed): the last rename copied tmp into
//     place but its removal did not happen (on GCS a rename is a copy and
//     a removal), or the two runs' results are byte for byte the same. The
//     commit is finished: the set-aside labels are removed, then tmp.
//   - tmp there otherwise: the commit had not begun, or was cut before its
//     last rename; results.jsonl is the earlier run's, and it is undone.
//     For each job ID with a set-aside file: ID.labels, when there without
//     a staged file and the job did not fail by tmp, holds the new labels
//     the commit put in place and goes back to its staged file; then the
//     set-aside file is renamed to ID.labels (over the new labels, or over
//     a copy of the earlier ones, that a rename cut between its copy and
//     its removal left there, whose contents are safe in the staged file
//     or the set-aside one). For each job that tmp lists as succeeded and
//     that has no set-aside file (it had no earlier labels), ID.labels
//     without a staged file was put in place by the commit and goes back
//     to its staged file; ID.labels beside its staged file, of the same
//     bytes, for a job results.jsonl does not list as succeeded, is the
//     copy of a rename cut before its removal, and is removed. A job the
//     commit had not reached has its staged file and keeps its labels.
//     tmp is removed last. The folder is then
//     as the earlier run left it, plus staged labels (RemovePartial's to
//     remove, a new run's to replace).
//
// tmp itself is not written atomically (it is the temporary): a local
// write killed half-way leaves it truncated, and only its lines that end
// in a newline are read. No commit began after such a write, so the
// labels set aside beside it, if any, are from an earlier cut commit
// whose tmp it replaced (a version without this recovery): they are put
// back all the same, but the labels of the jobs of no earlier labels that
// commit put in place cannot be known, and stay. A tmp or a results.jsonl
// that is there but cannot be read stops the recovery before it changes
// anything, with an error naming the file. A rename that fails is
// returned, naming both files; the set-aside labels whose restoring failed
// are left, as is tmp, and a later call takes up where this one stopped
// (each step is one rename, and the state after any of them reads as
// before it). A folder that cannot be listed is an error, and nothing is
// changed; but one with a scheme whose name has a glob character, which
// no listing reads alike on every scheme, is left alone without one: the
// commit cannot look for labels to set aside there either, and sets
// none aside. Every error wraps ErrUnrecovered.
//
// Nothing is written to disk with fsync: after a power loss (not a killed
// process) the file system may hold renames whose files' contents were
// not yet written, which this cannot tell. Cost: one listing of out; when
// tmp or a set-aside file is there, a read of tmp and of results.jsonl,
// up to two renames per job (a copy each on an object store), and two
// reads per job in the rare state a cut copy may have left.
func recoverCommit(ctx context.Context, fs filesystem.Interface, out string) error {
	if job.Scheme(out) != "" && strings.ContainsAny(out, `*?[\`) {
		return nil // unlistable: the commit sets nothing aside there
	}
	if err := undoCutCommit(ctx, fs, out); err != nil {
		return fmt.Errorf("%w: %w", ErrUnrecovered, err)
	}
	return nil
}

// ErrUnrecovered marks an error of RemovePartial (and of a run of Batch)
// that says the output folder may hold a commit that a killed process
// cut short and that was not undone (recoverCommit): a listing, a read or
// a rename failed, or a set-aside labels file could not be told to be a
// leftover. The error names the files and what to do; the files that
// tell the state of the folder are left for a later call.
var ErrUnrecovered = errors.New("the recovery of a commit cut short did not complete")

// undoCutCommit is recoverCommit on a folder it can list.
func undoCutCommit(ctx context.Context, fs filesystem.Interface, out string) error {
	results := job.Join(out, ResultsFile)
	tmp := tempName(results)
	list, err := outFiles(ctx, fs, out)
	if err != nil {
		return fmt.Errorf("checking %s for one: %w", out, err)
	}
	has := func(name string) bool { return list[baseName(name)] }
	var olds []string // the ids of the set-aside labels, sorted
	for name := range list {
		if id, ok := backupID(name); ok {
			olds = append(olds, id)
		}
	}
	slices.Sort(olds)
	if !present(ctx, fs, tmp) {
		if len(olds) == 0 {
			return nil
		}
		return removeLeftovers(ctx, fs, out, olds, has)
	}
	tb, err := filesystem.Read(ctx, fs, tmp)
	if err != nil {
		return fmt.Errorf("reading %s, the temporary results file of a commit that may have been cut short: %w; nothing in %s was changed", tmp, err, out)
	}
	rb, err := filesystem.Read(ctx, fs, results)
	if err != nil && present(ctx, fs, results) {
		return fmt.Errorf("reading %s, to compare it with %s, the temporary results file of a commit that may have been cut short: %w; nothing in %s was changed", results, tmp, err, out)
	}
	outcomes := outcomesOf(tb)
	var errs []error
	if err == nil && bytes.Equal(tb, rb) && committed(out, outcomes, has) {
		for _, id := range olds {
			errs = append(errs, removeFile(ctx, fs, backupLabels(job.LabelsPath(out, id))))
		}
	} else {
		errs = undoCommit(ctx, fs, out, olds, outcomes, outcomesOf(rb), has)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("in %s (its temporary results file %s is kept): %w", out, tmp, err)
	}
	return removeFile(ctx, fs, tmp)
}

// undoCommit puts back the renames of a commit cut short in out, as
// recoverCommit says: the labels files of the jobs it had moved back to
// their staged files, and the set-aside labels of the jobs olds back to
// their labels files. outcomes are the jobs of the cut commit's
// temporary results file, by id: true for a job that failed. has tells
// whether a file of out was there before. It returns the errors of the
// renames that failed, each naming both files; a set-aside file whose
// labels file could not be moved is not renamed.
func undoCommit(ctx context.Context, fs filesystem.Interface, out string, olds []string, outcomes, earlier map[string]bool, has func(string) bool) []error {
	var errs []error
	isOld := map[string]bool{}
	for _, id := range olds {
		isOld[id] = true
		labels := job.LabelsPath(out, id)
		staged, old := stagedLabels(labels), backupLabels(labels)
		if failed, known := outcomes[id]; has(labels) && !has(staged) && !(known && failed) {
			if err := filesystem.Rename(ctx, fs, labels, staged); err != nil {
				errs = append(errs, fmt.Errorf("moving the new labels %s back to %s: %w; the earlier labels stay in %s: once %s is out of the way, rename it to %s", labels, staged, err, old, labels, labels))
				continue
			}
		}
		if err := filesystem.Rename(ctx, fs, old, labels); err != nil {
			errs = append(errs, fmt.Errorf("putting the earlier labels %s back to %s: %w; they stay in %s: rename it to %s by hand", old, labels, err, old, labels))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(outcomes)) {
		if outcomes[id] || isOld[id] {
			continue
		}
		labels := job.LabelsPath(out, id)
		staged := stagedLabels(labels)
		switch {
		case !has(labels):
		case !has(staged):
			if err := filesystem.Rename(ctx, fs, labels, staged); err != nil {
				errs = append(errs, fmt.Errorf("moving the new labels %s back to %s: %w", labels, staged, err))
			}
		case listedOK(earlier, id):
			// Labels results.jsonl describes, the commit had not
			// reached the job.
		case sameContent(ctx, fs, labels, staged):
			// A copy of the staged labels that a rename cut
			// between its copy and its removal left (GCS).
			errs = append(errs, removeFile(ctx, fs, labels))
		}
	}
	return errs
}

// listedOK reports whether outcomes (outcomesOf) list job id as
// succeeded.
func listedOK(outcomes map[string]bool, id string) bool {
	failed, ok := outcomes[id]
	return ok && !failed
}

// sameContent reports whether the files a and b on fs can be read and
// hold the same bytes. Cost: a read of each.
func sameContent(ctx context.Context, fs filesystem.Interface, a, b string) bool {
	ab, err := filesystem.Read(ctx, fs, a)
	if err != nil {
		return false
	}
	bb, err := filesystem.Read(ctx, fs, b)
	return err == nil && bytes.Equal(ab, bb)
}

// committed reports whether every job of outcomes (by id, true for a
// failed one) is as a commit that went through its labels leaves it in
// out: a job that succeeded with its labels file and no staged one, a
// failed one with no labels file. has tells whether a file of out is
// there.
func committed(out string, outcomes map[string]bool, has func(string) bool) bool {
	for id, failed := range outcomes {
		labels := job.LabelsPath(out, id)
		if failed && has(labels) || !failed && (!has(labels) || has(stagedLabels(labels))) {
			return false
		}
	}
	return true
}

// removeLeftovers removes or puts back the set-aside labels of the jobs
// olds that a commit left in out when no temporary results file is
// there, as recoverCommit says, reading out/results.jsonl when a
// set-aside file has no labels file beside it. has tells whether a file
// of out is there. Its error names each set-aside file left, and why.
func removeLeftovers(ctx context.Context, fs filesystem.Interface, out string, olds []string, has func(string) bool) error {
	results := job.Join(out, ResultsFile)
	var (
		listed map[string]bool // results.jsonl's outcomes, read once
		rerr   error
		errs   []error
	)
	for _, id := range olds {
		labels := job.LabelsPath(out, id)
		old := backupLabels(labels)
		if has(labels) {
			errs = append(errs, removeFile(ctx, fs, old))
			continue
		}
		if listed == nil && rerr == nil {
			var b []byte
			if b, rerr = filesystem.Read(ctx, fs, results); rerr == nil {
				listed = outcomesOf(b)
			}
		}
		failed, ok := listed[id]
		switch {
		case rerr != nil:
			errs = append(errs, fmt.Errorf("%s holds earlier labels of job %s, whose labels file %s is missing, and %s cannot be read (%w): it is left; rename it to %s if they are the labels results.jsonl describes, or remove it", old, id, labels, results, rerr, labels))
		case ok && failed:
			errs = append(errs, removeFile(ctx, fs, old))
		case ok:
			if err := filesystem.Rename(ctx, fs, old, labels); err != nil {
				errs = append(errs, fmt.Errorf("putting the earlier labels %s back to %s, which %s lists as succeeded: %w; they stay in %s: rename it by hand", old, labels, results, err, old))
			}
		default:
			errs = append(errs, fmt.Errorf("%s holds earlier labels of job %s, whose labels file %s is missing, and %s has no line of that job: it is left; rename it to %s if they are labels you want, or remove it", old, id, labels, results, labels))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("removing the labels a finished commit set aside in %s: %w", out, err)
	}
	return nil
}

// outcomesOf returns the jobs of the results file content b, by id: true
// for a job that failed (outcomeOf). Only the lines that end in a newline
// are read (the rest of a write cut short is not a line), and only those
// of a valid id; for an id given twice, the first line's outcome, which a
// commit acted on before it refused the second.
func outcomesOf(b []byte) map[string]bool {
	m := map[string]bool{}
	for {
		line, rest, ok := bytes.Cut(b, []byte("\n"))
		if !ok {
			return m
		}
		b = rest
		if o := outcomeOf(string(line)); validID(o.id) {
			if _, seen := m[o.id]; !seen {
				m[o.id] = o.failed
			}
		}
	}
}

// backupID returns the job id of a set-aside labels file of base name
// base (backupLabels: ".ID.labels.tmp.old"), and whether base is one, of
// a valid id.
func backupID(base string) (string, bool) {
	id, ok := strings.CutPrefix(base, ".")
	if !ok {
		return "", false
	}
	id, ok = strings.CutSuffix(id, ".labels.tmp.old")
	return id, ok && validID(id)
}

// labelsTemps returns the labels temporaries in the folder out (fs is
// its file system): for a local folder, read with os.ReadDir (so that any
// folder name will do; a missing folder has none); for a folder with a
// scheme, listed with fs.List and the glob out/LabelsTempPattern, which
// every scheme reads alike only when out has no glob character of its own.
func labelsTemps(ctx context.Context, fs filesystem.Interface, out string) ([]string, error) {
	if job.Scheme(out) == "" {
		ents, err := os.ReadDir(out)
		if errors.Is(err, iofs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("listing the temporary labels files of %s: %w", out, err)
		}
		var names []string
		for _, e := range ents {
			if ok, _ := path.Match(LabelsTempPattern, e.Name()); ok && !e.IsDir() {
				names = append(names, filepath.Join(out, e.Name()))
			}
		}
		return names, nil
	}
	if strings.ContainsAny(out, `*?[\`) {
		return nil, fmt.Errorf("listing the temporary labels files of %s: the folder's name has a glob character; remove its %s files by hand", out, LabelsTempPattern)
	}
	names, err := fs.List(ctx, job.Join(out, LabelsTempPattern))
	if err != nil {
		return nil, fmt.Errorf("listing the temporary labels files of %s: %w", out, err)
	}
	return names, nil
}

// CheckManifest checks, before a pipeline starts, what no single job can:
// that the manifest (a path or glob Beam's file systems can read) names at
// least one file, that the files hold at least one job, and that no id is
// used twice (two jobs of one id would write the same labels file). Errors
// name the manifest, and for a repeated id the file and both lines. A
// malformed line still fails alone, as its job, but its result line cannot
// say where it is (Beam's text reader gives no line numbers): each one is
// returned as a warning naming its file and line. A compressed manifest
// (a file whose name ends in ".gz", among those a glob names) is refused
// before any is read (ErrCompressed).
//
// A local manifest must be a regular file (ErrNotRegular): the manifest is
// read twice, by this check and then by the pipeline, and a pipe, a FIFO
// (/dev/stdin, a shell's <(cmd), a named pipe) or a device gives its lines
// to the first reader only; /dev/stdin, /dev/fd/N and /proc/self/fd/N are
// refused even when they lead to a regular file (tether-beam -manifest
// /dev/stdin < m.jsonl), whose jobs' relative paths would start from /dev/
// (descriptor); the pipeline read none and wrote nothing (an
// old results.jsonl then passed for the run's), or hung opening a FIFO
// whose one writer was gone. A folder is refused too (Beam's text reader
// cannot read it). Such a file is refused from its stat, before it is
// opened or read, with an error that names it.
//
// The check stops when ctx is cancelled: ctx is checked every ctxPollLines
// lines and at the end, and a cancelled check returns an error wrapping
// ctx's, never a pass. Cost: one read of the manifest.
func CheckManifest(ctx context.Context, manifest string) (warnings []string, err error) {
	return CheckBatch(ctx, manifest, "", "")
}

// ErrOverwrite marks a run of Batch that would write over one of its
// jobs' input files (CheckBatch).
var ErrOverwrite = errors.New("the run would write over an input file")

// CheckBatch is CheckManifest for a run of Batch(s, manifest, root, out):
// with an output folder out, it also refuses (ErrOverwrite) a run that
// would write over a file a job reads — a job's input, graph, constraints,
// labels or truth file (resolved as the job resolves it: against root, or
// without one against the folder of its manifest file) that is the labels
// file the run writes for a job, out/ID.labels (job.LabelsPath; which a
// job that fails removes), or out/results.jsonl, or a temporary of
// theirs in out that RemovePartial removes or puts back (LabelsTempPattern,
// .results.jsonl.tmp). Such a run replaced or removed the file it was
// reading, as tether cluster -o refuses to. Paths are compared cleaned
// and absolute (filepath.Abs; symbolic links are not followed), those
// with a scheme as cleaned URLs. The error names the manifest line of the
// job that reads the file, the field and both paths, and the job that
// writes it. Cost: CheckManifest's, plus a map of the distinct input
// paths.
func CheckBatch(ctx context.Context, manifest, root, out string) (warnings []string, err error) {
	fs, err := filesystem.New(ctx, manifest)
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", manifest, err)
	}
	defer fs.Close()
	files, err := fs.List(ctx, manifest)
	if err != nil {
		return nil, fmt.Errorf("manifest %s: %w", manifest, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("manifest %s: no such file", manifest)
	}
	for _, name := range files {
		if compressed(name) {
			return nil, fmt.Errorf("manifest %s: %w: Beam's text reader decompresses a .gz file by its name but reads only as many bytes of its lines as the compressed file holds (most jobs would be dropped without a word); decompress it (gunzip -k %s) and give the .jsonl", name, ErrCompressed, name)
		}
	}
	type place struct {
		file string
		line int
	}
	seen := map[string]place{}
	var reads []readPath // the distinct input paths, in manifest order
	readKeys := map[string]bool{}
	cwd := ""
	if out != "" {
		if cwd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("checking the paths of the manifest %s against the output folder %s: %w", manifest, out, err)
		}
	}
	jobs := 0
	for _, name := range files {
		if err := checkRegular(name); err != nil {
			return nil, err
		}
		r, err := openManifest(ctx, fs, name)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("manifest %s: %w", name, ctx.Err())
			}
			return nil, fmt.Errorf("manifest %s: %w", name, err)
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), job.MaxLine)
		for ln := 1; sc.Scan(); ln++ {
			if ln%ctxPollLines == 0 {
				if err := ctx.Err(); err != nil {
					r.Close()
					return nil, fmt.Errorf("manifest %s: %w", name, err)
				}
			}
			// Leading blanks are parsed with the line, so that the
			// column of an error counts from its first character.
			raw := bytes.TrimPrefix(bytes.TrimRight(sc.Bytes(), " \t\r\n"), []byte("\ufeff"))
			b := bytes.TrimSpace(raw)
			if len(b) == 0 || b[0] == '#' {
				continue
			}
			jobs++
			spec, err := job.ParseSpec(raw)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("%v (the job fails; the other jobs run)", job.LineError(name, ln, err)))
			} else if out != "" {
				for _, f := range []struct{ field, path string }{
					{"input", spec.Input}, {"graph", spec.Graph}, {"constraints", spec.Constraints}, {"labels", spec.Labels}, {"truth", spec.Truth},
				} {
					if f.path == "" {
						continue
					}
					p := job.Join(lineRoot(root, name), f.path)
					if k := pathKey(p, cwd); !readKeys[k] {
						readKeys[k] = true
						reads = append(reads, readPath{key: k, field: f.field, given: f.path, id: spec.ID, file: name, line: ln})
					}
				}
			}
			id := idOf(b)
			if id == "" {
				continue
			}
			if prev, ok := seen[id]; ok {
				r.Close()
				at := fmt.Sprintf("line %d", prev.line)
				if prev.file != name {
					at = fmt.Sprintf("%s:%d", prev.file, prev.line)
				}
				return nil, fmt.Errorf("%s:%d: %w: id %q already used on %s", name, ln, job.ErrSpec, id, at)
			}
			seen[id] = place{name, ln}
		}
		err = sc.Err()
		r.Close()
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s: %w: a line is longer than %d bytes", name, job.ErrSpec, job.MaxLine)
		}
		if err != nil && ctx.Err() != nil {
			// A pipe's read cut short by the cancellation.
			return nil, fmt.Errorf("manifest %s: %w", name, ctx.Err())
		}
		if err != nil {
			return nil, fmt.Errorf("manifest %s: %w", name, err)
		}
	}
	if err := ctx.Err(); err != nil {
		// Cancelled after the last poll: the check is not complete.
		return nil, fmt.Errorf("manifest %s: %w", manifest, err)
	}
	if jobs == 0 {
		return nil, fmt.Errorf("manifest %s: no jobs (only blank lines and '#' comments)", manifest)
	}
	if out != "" && len(reads) > 0 {
		// The files the run writes in out, by key: each job's labels
		// (a job of no valid id writes none), and results.jsonl.
		writes := map[string]string{} // what the file is, by key
		writer := map[string]string{} // the job that writes a labels file, by key
		for id, pl := range seen {
			if validID(id) {
				k := pathKey(job.LabelsPath(out, id), cwd)
				writes[k] = fmt.Sprintf("the labels file %s that the run writes for job %s (%s:%d), or removes if the job fails", k, id, pl.file, pl.line)
				writer[k] = id
			}
		}
		results := pathKey(job.Join(out, ResultsFile), cwd)
		writes[results] = fmt.Sprintf("the results file %s that the run writes", results)
		outKey := pathKey(job.Join(out, "x"), cwd)
		outKey = outKey[:len(outKey)-1] // out's key, ending in its separator
		for _, r := range reads {
			what, ok := writes[r.key]
			if writer[r.key] == r.id {
				what = fmt.Sprintf("the labels file %s that the run writes for this job, or removes if it fails", r.key)
			}
			if !ok {
				base, inOut := strings.CutPrefix(r.key, outKey)
				if m, _ := path.Match(LabelsTempPattern, base); !inOut || strings.ContainsAny(base, `/\`) || !m && base != tempName(ResultsFile) {
					continue
				}
				what = fmt.Sprintf("a temporary file of the run's output in %s, which the run writes or removes", out)
			}
			at := r.given
			if r.key != r.given {
				at = fmt.Sprintf("%s (%s)", r.given, r.key)
			}
			return nil, fmt.Errorf("%s:%d: job %s: %w: its %s %s is %s; give the run another output folder, or move the file", r.file, r.line, r.id, ErrOverwrite, r.field, at, what)
		}
	}
	return warnings, nil
}

// readPath is a file a job of the manifest reads: its key (pathKey), the
// field and the path as the line gives them, the job, and the line's
// place.
type readPath struct {
	key, field, given, id, file string
	line                        int
}

// pathKey returns the form in which CheckBatch compares two paths: a
// local path made absolute against the working folder cwd and cleaned (as
// filepath.Abs does, without its os.Getwd for each path), a path with a
// scheme cleaned after "scheme://" (path.Clean, so that
// "gs://b/x//y/../z" is "gs://b/x/z").
func pathKey(p, cwd string) string {
	if s := job.Scheme(p); s != "" {
		rest := path.Clean("/" + p[len(s)+3:])
		return s + ":/" + rest
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

// ctxPollLines is how many manifest lines CheckManifest reads between two
// checks of its context: well under a second of reading and parsing.
const ctxPollLines = 1024

// ErrCompressed marks a manifest file compressed by its name (".gz"),
// which CheckManifest refuses: Beam's text reader (textio.Read) picks
// gzip by the extension and then reads the lines that start before the
// compressed file's size, a fraction of them (a 40-line manifest of 3 kB,
// 211 bytes compressed, ran 3 jobs), and the check itself would read the
// raw bytes.
var ErrCompressed = errors.New("compressed manifests are not supported")

// compressed reports whether Beam's text reader decompresses the file
// name: by its extension, ".gz" (fileio's compressionFromExt).
func compressed(name string) bool { return filepath.Ext(name) == ".gz" }

// ErrNotRegular marks a local manifest that is not a regular file: a pipe,
// a FIFO, a device, a socket or a folder (see CheckManifest).
var ErrNotRegular = errors.New("not a regular file")

// checkRegular returns an error wrapping ErrNotRegular, naming the file and
// what it is, when name is a local path (no scheme) whose file, symbolic
// links followed, is not a regular file, or is one reached through a path
// of a file descriptor (descriptor: /dev/stdin, /dev/fd/N,
// /proc/self/fd/N); nil for another regular file and for a path with a
// scheme (an object store holds only files). A file that
// cannot be stat'ed gives the stat's error, with its name. Cost: one stat.
func checkRegular(name string) error {
	if job.Scheme(name) != "" {
		return nil
	}
	st, err := os.Stat(name)
	if err != nil {
		return fmt.Errorf("manifest %s: %w", name, err)
	}
	if st.Mode().IsRegular() {
		if descriptor(name) {
			// A regular file on standard input (tether-beam -manifest
			// /dev/stdin < m.jsonl) passes the stat, but its
			// jobs' relative paths would resolve against /dev/ (or
			// /proc/self/fd/), and a worker of another process reads its
			// own standard input: refused, whatever the file is.
			return fmt.Errorf("manifest %s: %w (standard input or an open file descriptor): its jobs' relative paths would start from %s, and the pipeline's workers may not share the descriptor; give the manifest's own path (save a piped manifest to a file first)", name, ErrNotRegular, job.Dir(name))
		}
		return nil
	}
	what := "a special file"
	switch m := st.Mode(); {
	case m&iofs.ModeNamedPipe != 0:
		what = "a pipe or FIFO"
	case m.IsDir():
		what = "a folder"
	case m&iofs.ModeDevice != 0 || m&iofs.ModeCharDevice != 0:
		what = "a device"
	case m&iofs.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Errorf("manifest %s: %w (%s): the manifest is read twice, by the check before the run and by the pipeline, and only a regular file gives its lines to both; give a regular file (save a piped manifest to a file first)", name, ErrNotRegular, what)
}

// fdPath matches the paths that name an open file descriptor of a
// process rather than a file: /dev/stdin, /dev/fd/N, /proc/self/fd/N,
// /proc/PID/fd/N (and /dev/stdout, /dev/stderr).
var fdPath = regexp.MustCompile(`^/dev/(stdin|stdout|stderr)$|^/dev/fd/|^/proc/(self|thread-self|[0-9]+)/fd/`)

// descriptor reports whether the local path name names an open file
// descriptor (fdPath), as given or through the symbolic links of its last
// element (a link to /dev/stdin). Cost: one Lstat and one Readlink per
// link followed, at most 40.
func descriptor(name string) bool {
	p, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	for range 40 {
		if fdPath.MatchString(p) {
			return true
		}
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&iofs.ModeSymlink == 0 {
			return false
		}
		t, err := os.Readlink(p)
		if err != nil {
			return false
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = filepath.Clean(t)
	}
	return false
}

// openManifest opens the manifest file name, listed by fs, for reading: a
// local file with inputfile.Open (which a regular file, as checkRegular
// wants, opens as os.Open does; a file that became a FIFO since is still
// waited for only until ctx is cancelled), one with a scheme with
// fs.OpenRead.
func openManifest(ctx context.Context, fs filesystem.Interface, name string) (io.ReadCloser, error) {
	if job.Scheme(name) != "" {
		return fs.OpenRead(ctx, name)
	}
	f, err := inputfile.Open(ctx, name)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// runJobFn clusters one manifest line.
type runJobFn struct {
	// Root is the folder the jobs' relative paths start from; "" for
	// the folder of each line's manifest file.
	Root string `json:"root"`
	Out  string `json:"out"`

	files *Files // the jobs' paths with a scheme, until Teardown
}

// Teardown closes the file systems the jobs opened.
func (f *runJobFn) Teardown() error {
	if f.files == nil {
		return nil
	}
	return f.files.Close()
}

// ProcessElement parses one manifest line, of the manifest file file,
// runs the job (its relative paths from f.Root, or without one from the
// folder of file), stages its labels when f.Out is set (stageLabels) and
// emits its result line. Blank
// and '#' lines emit nothing; a malformed line emits a result whose error
// names it, its file and line (file:line:column), and whose Manifest and
// Line fields give the file and line (lineNumber). Only an unwritable labels file or result fails the bundle
// (the runner then retries it; job.Run is deterministic, and the staged
// file is written again under the same name).
func (f *runJobFn) ProcessElement(ctx context.Context, file, line string, emit func(string)) error {
	// Leading blanks are parsed with the line, so that the column of an
	// error counts from its first character, as CheckBatch's.
	raw := bytes.TrimPrefix(bytes.TrimRight([]byte(line), " \t\r\n"), []byte("\ufeff"))
	if b := bytes.TrimSpace(raw); len(b) == 0 || b[0] == '#' {
		return nil
	}
	if f.files == nil {
		f.files = &Files{}
	}
	var res *job.Result
	spec, err := job.ParseSpec(raw)
	if err != nil {
		// Beam's text reader gives no line numbers: the line is looked
		// for in its file, once for a malformed line (rare).
		ln := lineNumber(ctx, f.files, file, line)
		res = &job.Result{ID: idOf(raw), Manifest: file, Line: ln}
		if ln > 0 {
			// As CheckBatch's warning: file:line:column.
			err = job.LineError(file, ln, err)
		} else {
			err = fmt.Errorf("%s: %w", file, err)
		}
		res.Error = fmt.Sprintf("manifest line %.80q: %v", line, err)
	} else {
		res = job.RunFiles(ctx, *spec, lineRoot(f.Root, file), f.files)
	}
	if f.Out != "" {
		// Put in place with the results file at the end of the run
		// (writeResultsFn.commit).
		if err := stageLabels(ctx, f.files, f.Out, res); err != nil {
			return err
		}
	}
	js, err := res.JSON()
	if err != nil {
		return fmt.Errorf("job %s: %w", res.ID, err)
	}
	emit(js)
	return nil
}

// lineNumber returns the 1-based number of the first line of the manifest
// file file (read through files) that is line, as Beam's text reader gives
// it (without its end of line; a '\r' before it is ignored), or 0 when the
// file cannot be read or holds no such line (it changed during the run).
// Identical lines are the same job and give the same result: the first
// one's number names them. Cost: one read of the file.
func lineNumber(ctx context.Context, files *Files, file, line string) int {
	b, err := files.ReadFile(ctx, file)
	if err != nil {
		return 0
	}
	want := []byte(strings.TrimRight(line, "\r"))
	for ln := 1; len(b) > 0; ln++ {
		l := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			l, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if bytes.Equal(bytes.TrimRight(l, "\r"), want) {
			return ln
		}
	}
	return 0
}

// lineRoot returns the folder that the relative paths of a line of the
// manifest file file start from: root, or without one file's folder
// (job.Dir).
func lineRoot(root, file string) string {
	if root != "" {
		return root
	}
	return job.Dir(file)
}

// idOf returns the "id" field of a malformed line when it can be read.
func idOf(line []byte) string {
	var v struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(line, &v) != nil {
		return ""
	}
	return v.ID
}
