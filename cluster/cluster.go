package cluster

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/progress"
)

// ErrInvalid is wrapped by errors reporting an ill-posed problem: k out of
// range, missing graph, supervision the method cannot use.
var ErrInvalid = errors.New("cluster: invalid problem")

// Problem is what is clustered: a graph, the number of clusters and the side
// information. Methods ignore the kinds of supervision they do not use, and
// report an error when one they require is missing.
type Problem struct {
	// Graph is the affinity graph. Required.
	Graph *graph.Graph
	// K is the number of clusters, 1 ≤ K ≤ n. Methods that can estimate k
	// (Bethe Hessian, FGPWC) do so when K is 0; others return an error.
	K int
	// Constraints are pairwise must-link / cannot-link constraints. Nil means none.
	Constraints *constraint.Set
	// Labels are partial labels (constraint.Unlabeled for unknown). Nil means none.
	Labels constraint.Labels
}

// Settings controls the computation shared by all methods: randomness,
// k-means restarts, the eigensolver and progress reporting. A nil *Settings
// means the defaults documented on each field. Settings are never modified.
type Settings struct {
	// Seed seeds every random choice (k-means seeding, starting vectors).
	// The same Seed gives the same result.
	Seed uint64
	// Restarts is the number of k-means restarts; the best run is kept. If
	// Restarts is 0, the method's default is used (10 unless documented).
	Restarts int
	// Eigen is the eigensolver used for spectral embeddings. If nil, the dense
	// solver is used for n ≤ DenseLimit and the iterative one otherwise.
	Eigen eigen.Solver
	// EigenSettings is passed to the eigensolver. Nil means its defaults.
	EigenSettings *eigen.Settings
	// Recorder, if not nil, receives progress events.
	Recorder progress.Recorder
}

// DenseLimit is the largest n for which the automatic solver choice uses the
// dense decomposition.
const DenseLimit = 400

// Result is a partition with diagnostics.
type Result struct {
	// Labels[i] is the cluster of node i, in 0…K−1.
	Labels []int
	// K is the number of clusters (estimated when Problem.K was 0).
	K int
	// Eigenvalues are those of the operator whose eigenvectors formed the
	// embedding, ascending unless the method documents otherwise.
	Eigenvalues []float64
	// Embedding holds the rows clustered by k-means (n×m), or nil.
	Embedding *mat.Dense
	// Objective is the method's final objective value (documented per method),
	// for example the k-means distortion or the FGPWC cost F(X).
	Objective float64
	// Iterations counts the method's outer iterations, when it has any.
	Iterations int
	// Runtime is the wall-clock time of Cluster.
	Runtime time.Duration
	// Warnings lists non-fatal conditions (disconnected graph, more
	// components than clusters, an eigensolver that stopped early).
	Warnings []string
}

// Method is a clustering algorithm. Implementations are small structs whose
// exported fields are the method's own knobs, with documented zero values.
type Method interface {
	// Name returns the registry name, for example "njw".
	Name() string
	// Cluster partitions p.Graph. It returns an error wrapping ErrInvalid
	// for an ill-posed problem, and ctx.Err() when cancelled.
	Cluster(ctx context.Context, p *Problem, s *Settings) (*Result, error)
}

// Supervision tells which side information a method uses.
type Supervision int

const (
	// None: unsupervised.
	None Supervision = iota
	// Pairs: pairwise must-link / cannot-link constraints (labels convert to pairs).
	Pairs
	// LabelSet: partial labels.
	LabelSet
)

func (s Supervision) String() string {
	switch s {
	case None:
		return "none"
	case Pairs:
		return "pairs"
	case LabelSet:
		return "labels"
	}
	return fmt.Sprintf("Supervision(%d)", int(s))
}

// Info describes a registered method.
type Info struct {
	Name        string
	Summary     string
	Source      string // where the method is defined in the sources
	Supervision Supervision
	New         func() Method // returns the method with default knobs
}

// Methods returns the registry of all methods, sorted by name. The slice is
// built on each call.
func Methods() []Info {
	list := registry()
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list
}

// New returns the method registered under name, with default knobs.
func New(name string) (Method, error) {
	for _, m := range registry() {
		if m.Name == name {
			return m.New(), nil
		}
	}
	names := make([]string, 0)
	for _, m := range Methods() {
		names = append(names, m.Name)
	}
	return nil, fmt.Errorf("cluster: unknown method %q (known: %v)", name, names)
}

// checkProblem validates the parts of p common to all methods. needK says
// whether K = 0 is an error.
func checkProblem(p *Problem, needK bool) error {
	if p == nil || p.Graph == nil {
		return fmt.Errorf("%w: no graph", ErrInvalid)
	}
	n := p.Graph.N()
	if n == 0 {
		return fmt.Errorf("%w: graph has no nodes", ErrInvalid)
	}
	if p.K < 0 || p.K > n || (needK && p.K == 0) {
		return fmt.Errorf("%w: k = %d, want 1 ≤ k ≤ n = %d", ErrInvalid, p.K, n)
	}
	if p.Constraints != nil {
		if p.Constraints.N != n {
			return fmt.Errorf("%w: constraints are on %d nodes, graph has %d", ErrInvalid, p.Constraints.N, n)
		}
		if err := p.Constraints.Validate(); err != nil {
			return fmt.Errorf("cluster: %w", err)
		}
	}
	if p.Labels != nil {
		if len(p.Labels) != n {
			return fmt.Errorf("%w: %d labels for %d nodes", ErrInvalid, len(p.Labels), n)
		}
		if err := p.Labels.Validate(p.K); err != nil {
			return fmt.Errorf("cluster: %w", err)
		}
	}
	return nil
}
