package eigen

import (
	"context"
	"errors"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/progress"
)

// Operator is a real symmetric n×n linear operator known only through its
// action on blocks of vectors. Graph Laplacians, the Bethe Hessian and dense
// matrices (see Dense) all satisfy it.
type Operator interface {
	// Dim returns n.
	Dim() int
	// MulTo sets dst = A·x for n×p blocks x and dst. dst does not alias x.
	MulTo(dst, x *mat.Dense)
}

// Which selects the end of the spectrum a solver returns.
type Which int

const (
	// Smallest asks for the algebraically smallest eigenvalues.
	Smallest Which = iota
	// Largest asks for the algebraically largest eigenvalues.
	Largest
)

// Problem is a symmetric eigenproblem A x = λ B x.
type Problem struct {
	// A is the symmetric operator. Required.
	A Operator
	// B is the symmetric positive definite right-hand side. If B is nil the
	// problem is the standard one, A x = λ x.
	B Operator
	// K is the number of eigenpairs wanted, 1 ≤ K ≤ n.
	K int
	// Which selects the smallest or largest eigenvalues.
	Which Which
	// Deflate holds known exact eigenvectors as columns (B-orthonormal when B
	// is set), for example the component indicators of a disconnected graph's
	// Laplacian. The solver works in their B-orthogonal complement and returns
	// them first, with the eigenvalues in DeflateValues, counted in K. Nil
	// means none.
	Deflate       *mat.Dense
	DeflateValues []float64
}

// Settings controls when a solver stops and how it reports. A nil *Settings
// means the defaults documented on each field.
type Settings struct {
	// Tol is the relative residual tolerance ‖Ax − λBx‖ ≤ Tol·‖A‖ for each
	// returned pair (‖A‖ estimated by the solver). If Tol is 0, 1e-10 is used.
	Tol float64
	// MaxIter caps the solver's outer iterations (restarts for Lanczos,
	// iterations for LOBPCG). If MaxIter is 0, a solver-specific default is used.
	MaxIter int
	// Src is the source of randomness for starting vectors. If Src is nil a
	// fixed seed is used, so results are reproducible by default.
	Src rand.Source
	// Recorder, if not nil, receives progress events.
	Recorder progress.Recorder
}

// Result holds the eigenpairs found, ordered by Which (ascending for
// Smallest, descending for Largest).
type Result struct {
	Values  []float64
	Vectors *mat.Dense // n×K, columns B-orthonormal
	// Residuals[j] = ‖A v_j − λ_j B v_j‖ / ‖v_j‖.
	Residuals  []float64
	Iterations int
	MatVecs    int // number of single-vector operator applications of A
}

// Solver computes a few eigenpairs of a symmetric problem.
type Solver interface {
	Solve(ctx context.Context, p Problem, s *Settings) (*Result, error)
}

var (
	// ErrNoConvergence is returned (wrapped) when MaxIter is reached before
	// all K pairs meet the tolerance; the partial Result is returned with it.
	ErrNoConvergence = errors.New("eigen: no convergence")
	// ErrNotPositiveDefinite is returned when B is not positive definite.
	ErrNotPositiveDefinite = errors.New("eigen: B is not positive definite")
)
