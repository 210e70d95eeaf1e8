package eigen

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// SymValues returns the eigenvalues of the symmetric matrix a in
// increasing order, by LAPACK's dsyev without vectors (mat.EigenSym), or
// an error wrapping ErrNoConvergence when it fails and ErrNonFinite,
// naming the entry, when a holds a NaN or an infinity.
//
// Why not mat.EigenSym directly: gonum v0.17.0's values-only path goes
// through Dsterf, which panics ("insufficient length of a") when it
// rescales a block of the tridiagonal form whose norm lies outside
// [√safmin/ε², √safmax/3], about [1e-122, 4e153]: it passes the diagonal
// to Dlascl as a column with stride n. dsyev first scales a matrix whose
// largest entry is outside about [1e-146, 7e145] into that range, which
// keeps large matrices clear of the bug but not small ones, nor a normal
// matrix with a block of tiny entries (1 and 1e-130 in two components of
// a graph). SymValues recovers that panic and computes the values with
// vectors instead (dsyev's implicit QL/QR with vectors, Dsteqr, which has
// no such call), so such matrices get their eigenvalues rather than a
// crash. On every other matrix the result is exactly mat.EigenSym's. Cost O(n³): (4/3)n³ flops for the reduction plus O(n²)
// for the values, or the full decomposition in the fallback.
func SymValues(a mat.Symmetric) ([]float64, error) {
	if err := finiteSym(a, "matrix"); err != nil {
		return nil, err
	}
	vals, ok, panicked := symValues(a, false)
	if panicked {
		vals, ok, panicked = symValues(a, true)
	}
	if panicked || !ok {
		return nil, fmt.Errorf("%w: eigenvalues of a %d×%d symmetric matrix", ErrNoConvergence, a.SymmetricDim(), a.SymmetricDim())
	}
	return vals, nil
}

// symValues factorizes a with or without vectors and returns its values,
// whether the factorization succeeded, and whether LAPACK panicked.
func symValues(a mat.Symmetric, vectors bool) (vals []float64, ok, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			vals, ok, panicked = nil, false, true
		}
	}()
	var es mat.EigenSym
	if !es.Factorize(a, vectors) {
		return nil, false, false
	}
	return es.Values(nil), true, false
}
