package main

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/inputkind"
	"github.com/tether-sc/tether/internal/wording"
)

// cliSpelling is how the messages of the readers and of the library
// (packages dataset, input, graph and cluster) name the options they
// suggest on tether's command line: as tether cluster's flags, after
// "tether: " ("(tether: -missing drop; library: Options.Missing =
// MissingDrop)"), and tether's commands ("tether labels -input FILE -o
// FILE writes that column"). Every command sets it where it reads data
// or clusters: dataset.Spelling's zero value is the library's, which names
// the Go options alone.
var cliSpelling = dataset.Spelling{Front: "tether", CommandLine: true}

// inputSpelling is how the clustering's messages name tether cluster's
// flags for an input of the given kind, its graph built by kind of graph
// graphKind when it is built from features: as cliSpelling does, but for
// the flags that do not apply to that input (inputkind.Of) or that graph
// (-knn reads the k-NN graphs only), which checkApplies and
// checkGraphSpecFlags refuse. A graph file's disconnected components, or
// an ε-graph's, name no -knn; a k-NN graph built from a feature table's
// rows does (review 134).
type inputSpelling struct {
	kind      inputkind.Kind
	graphKind graph.Kind
}

// Remedy returns cliSpelling's remedy, "" for a flag the input or its
// graph does not read.
func (s inputSpelling) Remedy(flag string, values ...string) string {
	if kinds, ok := inputkind.Of(flag); ok && kinds&s.kind == 0 {
		return ""
	}
	if (flag == "knn" || flag == "knn-search") && !kNNKind(s.graphKind) {
		return ""
	}
	return cliSpelling.Remedy(flag, values...)
}

// kNNKind reports whether graphs of kind k are k-NN graphs, whose
// neighbours -knn sets: knn, mknn and sknn.
func kNNKind(k graph.Kind) bool {
	return k == graph.SymmetricKNN || k == graph.MutualKNN || k == graph.SklearnKNN
}

// optionUsage returns err, an error of reading a feature table or a graph
// file, as a usage error of cmd when an option value does not fit the
// file (dataset.ErrOption): a column that a flag names (-label, -id,
// -drop, -categorical) that the table lacks or that has another role
// ("-label 7" on a table of 3 columns), -delim or -header with an ARFF
// file, or a -gml-label attribute no node has. The
// value was the user's and invalid for this input, as -k above the number
// of nodes is (exit status 2). Other errors, those of the file's content,
// are returned as they are.
func optionUsage(cmd string, err error) error {
	if errors.Is(err, dataset.ErrOption) {
		return usagef(cmd, "%v", err)
	}
	return err
}

// checkSize says, in terms of the input file, when it is too small for
// clustering or for the graph flags: the graph package can only name n and
// K ("knn graph needs 1 ≤ K < n = 1"), which means little to someone whose
// CSV had a header and one row. what is "data row" for feature tables and
// "node" for graph files; spec is nil for graph files. A file of fewer
// than 2 rows is an error of the data (of the user's -n, a usage error,
// when generated: the data of a generator, -gen, named so in name); a
// -knn or -sigma local:K the file is too small for is a usage error of
// the command cmd, as -k above the number of nodes is (checkK): the
// value was the user's (input.FitSpec shrinks the defaults to fit).
func checkSize(cmd, name string, generated bool, what string, n int, spec *graph.Spec) error {
	if n < 2 {
		if generated {
			// The generator's -n: the user's value, as -k is.
			return usagef(cmd, "%s has %s; clustering needs at least 2: give -n 2 or more", name, wording.Count(n, what, what+"s"))
		}
		return fmt.Errorf("%s has %s; clustering needs at least 2", name, wording.Count(n, what, what+"s"))
	}
	if spec == nil {
		return nil
	}
	k := spec.K
	if k == 0 {
		k = graph.DefaultK
	}
	switch spec.Kind {
	case graph.SymmetricKNN, graph.MutualKNN:
		if k >= n {
			return usagef(cmd, "%s has %s; the %v graph joins each to its K nearest others, so -knn must be at most %d, got %d", name, wording.Count(n, what, what+"s"), spec.Kind, n-1, k)
		}
	case graph.SklearnKNN:
		if k > n {
			return usagef(cmd, "%s has %s; the %v graph counts each point as its own neighbour, so -knn must be at most %d, got %d", name, wording.Count(n, what, what+"s"), spec.Kind, n, k)
		}
	}
	if spec.Affinity == graph.RBF && spec.Sigma.Rule == graph.SigmaLocal {
		lk := spec.Sigma.K
		if lk == 0 {
			lk = graph.DefaultLocalK
		}
		if lk >= n {
			return usagef(cmd, "%s has %s; local scaling takes σ_i from the K-th nearest other point, so K must be at most %d, got %d (-sigma local:%d, or a number, median or meanvar)", name, wording.Count(n, what, what+"s"), n-1, lk, n-1)
		}
	}
	return nil
}

// fileFlagError is an error opening or reading the file of an input flag
// as a file (a *fs.PathError on its path: a file that does not exist, that
// cannot be read, a folder), printed after the flag that named it:
// "-input nosuch.csv: open nosuch.csv: no such file or directory". The
// readers said "dataset: open nosuch.csv: …", which left the user to find
// which of a command's file flags held the name. It unwraps to the
// reader's error, so errors.Is and the exit status see what it wraps.
type fileFlagError struct {
	flag, path string
	pathErr    *fs.PathError
	err        error
}

func (e *fileFlagError) Error() string {
	return e.flag + " " + e.path + ": " + e.pathErr.Error()
}

func (e *fileFlagError) Unwrap() error { return e.err }

// nameFileFlag returns err as a fileFlagError when it is an error of
// opening or reading the file of one of ins as a file (a *fs.PathError
// whose path is the flag's value; the first such flag when two name the
// same file), else err as it is: the errors of a file's content name the
// file and line. ins are the command's input file flags, those
// checkOutputs gets (positional arguments, which the user sees named in
// the error, left out). Cost O(len(ins) + the depth of err).
func nameFileFlag(err error, ins []pathFlag) error {
	var pe *fs.PathError
	if err == nil || !errors.As(err, &pe) {
		return err
	}
	var ff *fileFlagError
	if errors.As(err, &ff) {
		return err
	}
	for _, in := range ins {
		if in.path != "" && strings.HasPrefix(in.flag, "-") && in.path == pe.Path {
			return &fileFlagError{flag: in.flag, path: in.path, pathErr: pe, err: err}
		}
	}
	return err
}
