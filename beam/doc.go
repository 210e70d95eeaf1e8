// Package tetherbeam runs batches of tether clustering jobs on Apache Beam:
// a pipeline reads a JSON Lines manifest of job.Spec lines, clusters each
// job with the tether library in a DoFn (job.Run), writes each job's
// labels to <out>/<id>.labels and one JSON line of figures and timings per
// job to <out>/results.jsonl.
//
// Failures are per job: a job whose files are missing, whose method
// refuses the problem or whose manifest line is malformed yields a result
// line with "error" set, and the other jobs go on. CheckManifest catches,
// before a run, what no single job can see: a missing or empty manifest,
// an id used twice, and a local manifest that is not a regular file (a
// pipe or FIFO, which the check would empty before the pipeline reads it:
// save it to a file) or a compressed one (".gz", ErrCompressed: Beam's
// text reader would read only its first bytes' lines); it also names each
// malformed line by file and line, which its result line cannot.
// CheckBatch adds what a run with an output folder would do to its own
// input: it refuses a job that reads a file the run writes over (a job's
// labels file, results.jsonl). A run that reads no job line of its
// manifest fails (ErrNoJobs) and writes nothing. The results file and the
// labels files are replaced whole, never left truncated, and together:
// each job stages its labels as a temporary file (".ID.labels.tmp"), and
// only once every job has run and the results file is written are the
// staged labels renamed into place, the labels of an earlier run removed
// for the jobs that now fail, and results.jsonl renamed last (Batch); a
// rename of those that fails undoes the ones before it, the earlier labels
// having been set aside until the end. A run that fails or is cancelled
// before the end of those renames leaves the output of the run before it
// as it was. A write that does not complete (an error, a cancelled
// context, a stream the runner aborted) removes its temporary file, and
// RemovePartial removes the staged labels of a run that did not commit and
// the temporaries that a process ended mid-write left in the output folder
// (results.jsonl's and the labels temporaries, LabelsTempPattern). A
// process killed during the renames (SIGKILL, a power loss) leaves them
// half done: RemovePartial first undoes them, from the temporary results
// file and the labels set aside (".ID.labels.tmp.old", which it never
// removes: they are the only copy of the labels the earlier results.jsonl
// describes), and so does the next run before it writes its own
// temporary results file; tether-beam calls RemovePartial before a run
// and after one that fails.
//
// Every path of a run — the manifest, the root, the jobs' input, graph,
// constraints and partial labels files, and the output folder — may have
// a scheme ("gs://bucket/dir", "memfs://dir"): it then goes through Beam's
// file systems (filesystem.New; Files is job.Files on them), and relative
// paths are joined with '/' (job.Join: root "gs://b/in" and "x.csv" give
// "gs://b/in/x.csv"; a job whose relative path climbs above the root's
// bucket fails, with job.ErrAboveBucket). Labels and results.jsonl are written to a temporary
// object renamed into place (on GCS, a copy and a removal), so the
// guarantees above hold there too. Paths without a scheme are local files,
// read and written as before. A folder of images (a job's input) and a
// catalog dataset (data_root) must be local. This is tested end to end on
// Prism against a run on local paths, with Beam's in-memory file system
// (memfs://) and with gs:// paths: Beam's GCS file system, which
// tether-beam registers, talking to fake-gcs-server started in process
// (STORAGE_EMULATOR_HOST, no credentials). It was not run against Google
// Cloud Storage itself, nor on Dataflow.
//
// It runs locally on Beam's Prism runner by default (loopback, no
// services needed); Beam's flags choose Flink, Spark or Dataflow (see the
// README), untested here. On a cluster, whose workers share no disk, the
// data and the output folder go on an object store (gs://, for Dataflow)
// or on storage every worker mounts at the same path. It lives in a
// module of its own so that the core tether module keeps only
// gonum-class dependencies.
package tetherbeam
