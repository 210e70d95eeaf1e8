package main

import (
	"flag"
	"os"
	"slices"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/inputkind"
)

// inputKind is a kind of input of cluster, serve and labels, as a bit of a
// set: each flag of the inputs applies to some of them (inputFlags). The
// kinds, and which of them each option of the inputs applies to, are
// package inputkind's, shared with tether serve's API and batch jobs.
type inputKind = inputkind.Kind

const (
	inTable     = inputkind.Table     // -input FILE: a feature table
	inImages    = inputkind.Images    // -input FOLDER: images, one subfolder per class
	inGraphFile = inputkind.GraphFile // -graph-file
	inBipartite = inputkind.Bipartite // -bipartite: a document-by-term matrix
	inPoints    = inputkind.Points    // -gen of a point generator
	inGenGraph  = inputkind.GenGraph  // -gen of a graph generator
	inNone      = inputkind.None      // no data: tether serve without -input, -graph-file or -gen

	// inFeatures are the inputs whose graph is built from feature rows;
	// a server without data builds the graphs of the data its sessions
	// load with the graph flags.
	inFeatures = inputkind.Features
)

// flagScope says which inputs a flag applies to, and what it does, for the
// error that refuses it elsewhere.
type flagScope struct {
	kinds inputKind // the inputs it applies to
	what  string    // "is an option of the feature table of -input"
}

var (
	tableFlag     = flagScope{kinds: inTable, what: "is an option of the feature table of -input"}
	graphFileFlag = flagScope{kinds: inGraphFile, what: "is an option of the graph file of -graph-file"}
	bipartiteFlag = flagScope{kinds: inBipartite, what: "is an option of the document-by-term matrix of -bipartite"}
	buildFlag     = flagScope{kinds: inFeatures, what: "builds the graph from features"}
)

// inputFlags returns the flags of the inputs of the command cmd (cluster,
// serve, labels) that apply to some kinds of input only, with those kinds.
// A flag not listed applies to every input of the command; the parameters
// of -gen are checked against the generator (unusedGenFlag). The test
// TestInputFlagsClassified requires a classification of every flag of
// the three commands, so a new flag is placed here or known to apply to
// every input.
//
// The feature table's flags do not apply to a folder of images
// (dataset.ReadImageFolder reads no options), nor to generated points.
func inputFlags(cmd string) map[string]flagScope {
	// The kinds are inputkind's; the words, by kind, the command line's.
	m := map[string]flagScope{}
	for _, name := range inputkind.Options() {
		kinds, _ := inputkind.Of(name)
		switch {
		case name == "truth":
			m[name] = flagScope{kinds: kinds, what: "gives the reference labels of the data"}
		case name == "self-loops":
			m[name] = flagScope{kinds: kinds, what: "adds self loops to the graph of the data"}
		case name == "normalize-weights":
			m[name] = flagScope{kinds: kinds, what: "divides the weights of the graph of the data by the largest"}
		case kinds == inTable:
			m[name] = tableFlag
		case kinds == inGraphFile:
			m[name] = graphFileFlag
		case kinds == inBipartite:
			m[name] = bipartiteFlag
		case kinds == inFeatures:
			m[name] = buildFlag
		default:
			panic("tether: input option -" + name + " has no words for its kinds of input")
		}
	}
	if cmd == "serve" {
		// -seed seeds the data serve starts with, generated or read as
		// features. -regularize and -disconnected apply to every input,
		// as with cluster: they are the server's (server.Config), for
		// the data of every session.
		m["seed"] = flagScope{kinds: inTable | inImages | inPoints | inGenGraph, what: "seeds -gen and the k-NN search of -input"}
	}
	return m
}

// kind returns the kind of input o names and how the errors of
// checkApplies name it ("-graph-file (the file is the graph)"). gen is
// the generator of -gen, if any. Of several inputs, the first listed
// below is taken: load refuses more than one.
func (o *inputOptions) kind() (k inputKind, source string, gen *synth.Generator, err error) {
	switch {
	case o.input != "":
		if st, err := os.Stat(o.input); err == nil && st.IsDir() {
			return inImages, "-input " + o.input + " (a folder of images)", nil, nil
		}
		return inTable, "-input (a feature table)", nil, nil
	case o.graphFile != "":
		return inGraphFile, "-graph-file (the file is the graph)", nil, nil
	case o.bip.file != "":
		return inBipartite, "-bipartite (the graph is the document-by-term matrix)", nil, nil
	case o.gen != "":
		g, err := synth.Lookup(o.gen)
		if err != nil {
			return 0, "", nil, usagef(cmdName(o.flags), "-gen: %v", err)
		}
		if g.Graph {
			return inGenGraph, "-gen " + g.Name + " (it generates a graph)", &g, nil
		}
		return inPoints, "-gen " + g.Name + " (it generates points)", &g, nil
	}
	return inNone, "tether " + cmdName(o.flags) + " without -input, -graph-file or -gen", nil, nil
}

// checkApplies refuses, as a usage error, a flag the user set that has no
// effect with the input given: generator flags without -gen or that the
// generator does not read, and the flags inputFlags lists for other kinds
// of input (graph construction flags with a graph, the feature table's
// flags with a graph or generated points, a graph file's flags with a
// feature table, …). It reads no file (but for a stat of -input) and is
// called before the data are read. Cost O(flags).
func (o *inputOptions) checkApplies() error {
	cmd := cmdName(o.flags)
	kind, source, g, err := o.kind()
	if err != nil {
		return err
	}
	if g == nil {
		for _, name := range append(genParamNames(), "gen-seed", "gen-out") {
			if name == "k" {
				name = "gen-k"
			}
			if isSet(o.flags, name) {
				return usagef(cmd, "-%s is a parameter of -gen and does not apply without it", name)
			}
		}
	} else if err := unusedGenFlag(cmd, *g, o.flags, map[string]string{"k": "gen-k"}); err != nil {
		return err
	}
	scopes := inputFlags(cmd)
	o.flags.Visit(func(f *flag.Flag) {
		s, ok := scopes[f.Name]
		switch {
		case err != nil || !ok || s.kinds&kind != 0:
		case f.Name == "label" && kind == inGraphFile:
			// The labels of a graph are a GML node attribute's.
			err = usagef(cmd, "-%s %s and does not apply to %s: -gml-label names the GML node attribute holding the labels", f.Name, s.what, source)
		default:
			err = usagef(cmd, "-%s %s and does not apply to %s", f.Name, s.what, source)
		}
	})
	if err == nil {
		err = o.checkGraphSpecFlags(cmd)
	}
	if err == nil && kind == inGraphFile {
		err = o.checkGraphFormatFlags(cmd)
	}
	return err
}

// checkGraphSpecFlags returns the usage error of a graph-construction
// flag that the graph chosen does not read: -eps but for -graph eps (and
// -graph eps without it), -knn and -knn-search but for the k-NN graphs
// (knn, mknn, sknn; local scaling of a full or eps graph takes its
// neighbour from -sigma local:K, and searches exactly), -max-full but for
// -graph full and eps, -sigma but for -affinity rbf. Such flags were
// ignored without a word, so a user who asked for -graph full -knn 5 or
// -affinity binary -sigma 2 got another graph than the one meant (review
// 114). It is called only when the construction flags apply to the input
// (checkApplies refuses them for graph files). Cost O(1).
func (o *inputOptions) checkGraphSpecFlags(cmd string) error {
	s := o.spec
	kNN := kNNKind(s.Kind)
	switch {
	case s.Kind == graph.Epsilon && !isSet(o.flags, "eps"):
		// The builder refused the radius 0 after the data were read, an
		// error of the data (exit status 1).
		return usagef(cmd, "-graph eps needs -eps, its radius: the points at distance at most -eps are joined")
	case s.Kind != graph.Epsilon && isSet(o.flags, "eps"):
		return usagef(cmd, "-eps is the radius of -graph eps and does not apply to -graph %s", s.Kind)
	case !kNN && isSet(o.flags, "knn"):
		hint := ""
		if s.Affinity == graph.RBF {
			hint = " (the neighbour of local scaling is set by -sigma local:K)"
		}
		return usagef(cmd, "-knn is the number of neighbours of the k-NN graphs (knn, mknn, sknn) and does not apply to -graph %s%s", s.Kind, hint)
	case !kNN && isSet(o.flags, "knn-search"):
		return usagef(cmd, "-knn-search chooses the neighbour search of the k-NN graphs (knn, mknn, sknn) and does not apply to -graph %s", s.Kind)
	case s.Kind != graph.Full && s.Kind != graph.Epsilon && isSet(o.flags, "max-full"):
		return usagef(cmd, "-max-full bounds the size of -graph full and eps and does not apply to -graph %s", s.Kind)
	case s.Affinity != graph.RBF && isSet(o.flags, "sigma"):
		return usagef(cmd, "-sigma is the scale of the RBF weights and does not apply to -affinity %s", s.Affinity)
	}
	return nil
}

// checkGraphFormatFlags returns the usage error of a graph-file flag
// given for a format that does not read it, when the format is known
// before reading: -graph-format, or the extension of .mtx, .mm and .gml
// files (a .csv file is an edge list or a matrix by its content, and any
// other name an edge list unless a Matrix Market banner says otherwise,
// so those are left to the reader). -gml-label reads GML only;
// -graph-base and -named-nodes edge lists only; -symmetrize matrices
// only (Matrix Market, dense CSV). They were ignored without a word
// (review 114). Cost O(1).
func (o *inputOptions) checkGraphFormatFlags(cmd string) error {
	return checkGraphFileFlags(cmd, o.flags, "graph-file", o.graphFile, o.gopt.Format)
}

// checkGraphFileFlags is checkGraphFormatFlags for the command cmd whose
// flags fs read the graph file path given as -fileFlag (tether cluster's
// -graph-file, eval's -graph) in format (GraphAuto: by the file's name).
func checkGraphFileFlags(cmd string, fs *flag.FlagSet, fileFlag, path string, format dataset.GraphFormat) error {
	f := format
	if f == dataset.GraphAuto {
		switch g := dataset.GraphFormatFor(path); g {
		case dataset.MatrixMarket, dataset.GML:
			f = g
		default:
			return nil
		}
	}
	names := map[dataset.GraphFormat]string{dataset.EdgeList: "an edge list", dataset.MatrixMarket: "a Matrix Market file", dataset.GML: "a GML file", dataset.DenseCSV: "a dense affinity matrix"}
	for _, c := range []struct {
		flag, what string
		reads      []dataset.GraphFormat
	}{
		{"gml-label", "names the GML node attribute holding the labels", []dataset.GraphFormat{dataset.GML}},
		{"graph-base", "numbers the nodes of an edge list", []dataset.GraphFormat{dataset.EdgeList}},
		{"named-nodes", "reads the nodes of an edge list as names", []dataset.GraphFormat{dataset.EdgeList}},
		{"symmetrize", "averages a matrix with its transpose", []dataset.GraphFormat{dataset.MatrixMarket, dataset.DenseCSV}},
	} {
		if isSet(fs, c.flag) && !slices.Contains(c.reads, f) {
			return usagef(cmd, "-%s %s and does not apply to -%s %s, %s", c.flag, c.what, fileFlag, path, names[f])
		}
	}
	return nil
}
