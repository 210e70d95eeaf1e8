// Package dataset reads and writes the data tether clusters: feature tables
// (CSV, TSV, whitespace-separated text, Weka ARFF), graphs (weighted edge
// lists, Matrix Market coordinate files, GML, dense affinity CSV) and label
// files (one label per line, or node,label pairs).
//
// # Feature tables
//
// ReadFile and Read return a *Table: a dense n×p feature matrix X, the class
// of each row (Labels, numbered 0…k−1, with ClassNames giving the original
// strings), the feature names and optional row IDs. Options choose the label
// and ID columns ("first", "last", a 1-based index or a header name), columns
// to drop, categorical columns (one-hot encoded), feature scaling (min–max to
// [0,1] or z-score) and what to do with missing values ("?" and "" by
// default: reject with the file, line and column, impute, or drop the row).
// Only an ARFF file has a class column by default (its last attribute): a
// delimited file needs Options.LabelColumn, and one without a header
// always does, or its class column is read as a feature (Read warns when
// a first or last text column looks like one).
// The preprocessing of the FGPWC experiments (seed 003 §5.1, SPEC §1) is
// Options{Scale: ScaleMinMax} with nominal columns one-hot encoded.
//
// # Graphs
//
// ReadGraphFile picks the reader by extension: .mtx or .mm Matrix Market, .gml GML,
// .csv dense affinity matrix or edge list by its content, anything else a
// weighted edge list; a Matrix Market banner makes any file Matrix Market. ReadGraph
// and ReadGraphFileOptions return a *GraphData that also carries node names
// and, for GML, labels taken from a node attribute. Directed input is
// symmetrized; duplicate edges (in either orientation) are combined by the
// GraphOptions.Duplicates policy (maximum by default).
//
// # Labels
//
// ReadNodeLabels is the one reader of the tether command's label files
// (reference, predicted and partial labels): one label per line, or
// node,label pairs keyed by 0-based index or by node name; a label is an
// integer or a class name, and −1, "?" or an empty field marks a node whose
// class is unknown. ReadLabels, the catalog's reader, reads the same layouts
// keyed by index only, with the same marks of an unknown class;
// WriteLabels writes one integer per line. Label −1 (constraint.Unlabeled)
// marks an unlabeled node.
//
// # Cancellation
//
// The readers that take a context (ReadFile, Read, ReadGraph, and the
// XContext variants of ReadNodeLabels, ReadValues, ReadDocTerm and
// ReadNames, whose plain forms use a context that is never cancelled)
// check it while the input is read and every few thousand lines while it
// is parsed, and return its error, wrapped with the file and line reached.
// Their file forms open a FIFO without a writer by waiting for one until
// the context is cancelled, and end a blocked read of a pipe on
// cancellation (internal/inputfile).
//
// # Errors
//
// Nothing read from a file panics: every problem is returned as an error
// naming the file, line, column and offending value (a *ParseError for text
// formats). Sizes declared in headers (Matrix Market dimensions, node
// indices) are checked against limits before anything is allocated.
//
// The benchmark datasets of the project, with their quirks and the
// preprocessing used in the experiments, are in the sub-package catalog;
// synthetic generators with known answers are in synth.
package dataset
