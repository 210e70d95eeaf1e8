package input

import (
	"errors"
	"fmt"

	"github.com/tether-sc/tether/cluster"
)

// The errors of NewProblem wrap these, so that a front end can say how to
// give the input the method lacks.
var (
	// ErrNoFeatures: the method projects feature rows and the data are a
	// graph.
	ErrNoFeatures = errors.New("input: the method needs feature rows")
	// ErrNoBipartite: the method co-clusters a matrix and the data are not
	// one.
	ErrNoBipartite = errors.New("input: the method needs a bipartite matrix")
)

// ErrTooManyClasses is wrapped by the error of ReadPartialLabels (and so
// of Supervision.AddTo) for labels that name more classes than the k
// clusters asked for: the file and k, each valid alone, do not go
// together, and a front end can say so as it says that k exceeds the
// nodes. Its text does not show in the error's. Other errors of the file
// (a malformed line, a node out of range) do not wrap it.
var ErrTooManyClasses = errors.New("input: the labels name more classes than k")

// lackError is an error whose message is msg, wrapping a sentinel that
// does not show in the message.
type lackError struct {
	msg string
	err error
}

func (e *lackError) Error() string { return e.msg }
func (e *lackError) Unwrap() error { return e.err }

// ReadsGraph reports whether m reads a graph (its Uses.Input has
// cluster.GraphInput, or is zero, which means it): every method but those
// of feature rows alone (cpca, cvqe, plmeans with Kernel features) and of
// a bipartite matrix (cocluster). A front end skips building a k-NN graph
// from feature rows (BuildGraph, which dominates a run of 10⁵ rows) for a
// method that does not, unless it needs the graph for something else (an
// output, a vote filter). A nil m reads one (NewProblem refuses it). Cost
// O(1).
func ReadsGraph(m cluster.Method) bool {
	if m == nil {
		return true
	}
	in := m.Uses().Input
	return in == 0 || in&cluster.GraphInput != 0
}

// NewProblem returns the problem of clustering d into k clusters (0: the
// method estimates k) with m: d's graph unless m reads feature rows or a
// bipartite matrix only, its feature rows when m projects them
// (cluster.FeatureInput) and its bipartite matrix when m co-clusters one
// (cluster.BipartiteInput).
// Supervision is added by Supervision.AddTo. For a method of feature rows
// alone (ReadsGraph false), d needs no graph: BuildGraph may be skipped.
//
// The errors are those of d.Check (a nil d, or d without a graph yet,
// for a method that reads one: call BuildGraph first), "input: no
// method" for a nil m, or say which input m lacks: "method NAME
// projects feature rows, and DATA is a graph without features" wrapping
// ErrNoFeatures, "method NAME co-clusters a matrix" wrapping
// ErrNoBipartite; a front end adds how to give it. Cost O(1).
func NewProblem(d *Data, m cluster.Method, k int) (*cluster.Problem, error) {
	if m == nil {
		if err := d.Check(); err != nil {
			return nil, err
		}
		return nil, errors.New("input: no method")
	}
	in := m.Uses().Input
	// A method of feature rows alone reads no graph: d's rows will do.
	if err := d.check(in == cluster.FeatureInput && d != nil && d.X != nil); err != nil {
		return nil, err
	}
	p := &cluster.Problem{Graph: d.Graph, K: k}
	if in&cluster.FeatureInput != 0 {
		// A projection method (cpca, clpp) reads the feature rows; a graph
		// alone cannot give them.
		if d.X == nil {
			return nil, &lackError{fmt.Sprintf("method %s projects feature rows, and %s is a graph without features", m.Name(), d.label()), ErrNoFeatures}
		}
		p.Features = d.X
		if in&cluster.GraphInput == 0 {
			// It reads no graph (cpca, cvqe, plmeans): a graph beside
			// the rows would only earn a warning that it is ignored.
			p.Graph = nil
		}
	}
	if in&cluster.BipartiteInput != 0 {
		// A co-clustering method (cocluster) reads the matrix; any other
		// clusters d's graph, which for a matrix is its bipartite graph
		// (seed 001 §5.2 runs its L1 method so), and is given no matrix
		// to ignore.
		if d.Bipartite == nil {
			return nil, &lackError{fmt.Sprintf("method %s co-clusters a matrix", m.Name()), ErrNoBipartite}
		}
		p.Bipartite = d.Bipartite
		if in&cluster.GraphInput == 0 {
			// It reads no graph (cocluster): d's, the matrix's bipartite
			// graph, would only earn a warning that it is ignored.
			p.Graph = nil
		}
	}
	return p, nil
}
