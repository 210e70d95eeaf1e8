// Package job runs one clustering job described by data: a Spec (one line
// of a JSON Lines manifest) names the input (a feature table, a graph file,
// a catalogued benchmark dataset or a generator), the side information, the
// method with its knobs, k and the seed; Run reads the files and builds
// the graph with package input (the loader of tether cluster and tether
// serve: the same file gives the same data, warnings, notes and errors),
// clusters through cluster.Run and returns the labels with the quality
// figures and timings as a Result. The notes, warnings and errors name the
// options they suggest as a job spells them, its fields ("label": "none"
// and "constraints" for the readers through Spelling, "knobs":
// ["Variant=both"] for a method's knob, "normalize_weights": true for
// cluster.Run's warning on the weights' scale), or, where a Spec
// has no field (the graph format, named nodes, a delimiter), the library's
// option or what to change in the file, never tether cluster's flags.
//
// As tether cluster, a job builds no graph for a method that reads the
// feature rows alone (cpca, cvqe, plmeans with Kernel=features;
// input.ReadsGraph): its Result has a note "no graph built: …" and no
// nnz, the same labels and figures as with the graph, and a warning
// naming knn, normalize_weights or self_loops when the job sets them
// (they apply to no graph then). At 10⁵ rows the graph took most of such
// a job.
//
// It is what a batch of many small problems needs (one mention graph per
// document, one graph per user, a parameter grid over datasets): the same
// Spec gives the same Result whether it runs in a loop (RunAll) or on a
// distributed engine (the nested module github.com/tether-sc/tether/beam
// runs it in an Apache Beam DoFn). A job that fails returns a Result whose
// Error says why; it never stops the others. A field that does not apply
// to the input (label, scale, missing or missing_markers but with a
// feature table, knn with a graph, gen_params without gen, a generator
// parameter the generator does not read) is such an error, naming the
// job and the field, as tether cluster refuses its flag.
//
// A job's run is bounded in memory as tether cluster's: its dense blocks
// (a dense eigensolve, the Lanczos basis, labelprop's class scores,
// cvqe's distances, fgpwc's objective over the constraints) may
// take at most max_memory_mib MiB, by default (0) 3/4 of the memory
// available to the process, GOMEMLIMIT aside; a job that needs more fails
// naming the bytes, the bound and the fields to change, instead of
// killing its process and every other job of its pipeline.
//
// Paths are local files, or, with a scheme ("gs://bucket/x.csv"), files
// of a store that a Files reads and writes (RunFiles, SaveLabelsFiles; the
// beam module gives one on Beam's file systems). Join resolves a job's
// paths against its root either way.
package job
