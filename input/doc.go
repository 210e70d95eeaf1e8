// Package input reads what a clustering job is given — a feature table, a
// graph file, a generator of dataset/synth or a benchmark of
// dataset/catalog, with reference labels, pairwise constraints and partial
// labels — and sets up the cluster.Problem.
//
// It is the one loader of tether's three front ends: tether cluster
// (cmd/tether), tether serve (the HTTP API of internal/server) and the
// batch package job (used by the Beam pipeline). The same file therefore gives
// the same data, the same warnings and notes and the same errors — naming the file,
// line, node and value — whichever front end reads it.
//
// Loading is a few steps, each a function, so that a front end can put its
// own checks and limits between them:
//
//  1. read or generate the data: ReadTable, ReadTableFile, ReadGraph,
//     ReadGraphFile, GenParams with Generate, or ReadCatalog, each giving
//     a *Data (features or a graph, reference labels, node names,
//     warnings and notes); a table's class column is found by its
//     header name (label, class, target, y), so a table without a
//     header needs dataset.Options.LabelColumn, or its classes are read
//     as features (with a warning when the column looks like classes);
//  2. optionally replace the reference labels with a labels file
//     (Data.ReadTruth);
//  3. build the graph of the feature rows (Data.BuildGraph) and check the
//     whole (Data.Check);
//  4. set up the problem for a method (NewProblem) and add its
//     supervision (Supervision.AddTo: a constraints file with a conflict
//     policy and an optional vote filter, a partial labels file).
//
// The package reads files and never prints: warnings are returned in
// Data.Warnings, notes (documented choices, such as the column recognised
// as the reference labels) in Data.Notes and Added.Notes, for the front
// end to show.
package input
