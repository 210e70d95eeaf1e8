// Package tetherbeam runs batches of tether clustering jobs on Apache Beam:
// a pipeline reads a JSON Lines manifest of job.Spec lines, clusters each
// job with the tether library in a DoFn (job.Run), writes each job's
// labels to <out>/<id>.labels and one JSON line of figures and timings per
// job to <out>/results.jsonl.
//
// Failures are per job: a job whose files are missing, whose method
// refuses the problem or whose manifest line is malformed yields a result
// line with "error" set, and the other jobs go on. CheckManifest catches,
// before a run, what no single job can see: a missing or empty manifest
// and an id used twice; it also names each malformed line by file and
// line, which its result line cannot. The results file is replaced whole, never left
// truncated: a write that does not complete (an error, a cancelled
// context, a stream the runner aborted) removes its temporary file, and
// RemovePartial removes one that a process ended mid-write left.
//
// It runs locally on Beam's Prism runner by default (loopback, no
// services needed); Beam's flags choose Flink, Spark or Dataflow (see the
// README), untested here. The jobs read and write local paths, so on a
// cluster the data and the output folder must be on storage every worker
// mounts at the same path (gs:// is not supported). It lives in a module of its own so
// that the core tether module keeps only gonum-class dependencies.
package tetherbeam
