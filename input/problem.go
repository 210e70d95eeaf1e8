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

// NewProblem returns the problem of clustering d into k clusters (0: the
// method estimates k) with m: d's graph unless m reads feature rows only,
// its feature rows when m projects them (cluster.FeatureInput) and its
// bipartite matrix when m co-clusters one (cluster.BipartiteInput).
// Supervision is added by Supervision.AddTo.
//
// The errors are those of d.Check (a nil d, or d without a graph yet:
// call BuildGraph first), "input: no method" for a nil m, or say which
// input m lacks: "method NAME
// projects feature rows, and DATA is a graph without features" wrapping
// ErrNoFeatures, "method NAME co-clusters a matrix" wrapping
// ErrNoBipartite; a front end adds how to give it. Cost O(1).
func NewProblem(d *Data, m cluster.Method, k int) (*cluster.Problem, error) {
	if err := d.Check(); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("input: no method")
	}
	p := &cluster.Problem{Graph: d.Graph, K: k}
	in := m.Uses().Input
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
	}
	return p, nil
}
