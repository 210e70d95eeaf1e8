package graph

import "context"

// AnalyzeCholeskyRelax is AnalyzeCholesky with relaxed supernode
// amalgamation on or off, for the tests.
func AnalyzeCholeskyRelax(ctx context.Context, g *Graph, maxEntries int64, relax bool) (*CholeskySymbolic, error) {
	return analyzeCholesky(ctx, g, maxEntries, relax)
}

// Supernodes returns the number of supernodes of s and the number of
// fundamental supernodes it was merged from.
func (s *CholeskySymbolic) Supernodes() (relaxed, fundamental int) {
	return len(s.first) - 1, s.fundamental
}

// MaxSupernodeWidth returns the widest supernode's columns.
func (s *CholeskySymbolic) MaxSupernodeWidth() int {
	w := 0
	for t := 0; t+1 < len(s.first); t++ {
		w = max(w, s.first[t+1]-s.first[t])
	}
	return w
}

// LowerStored returns the stored values on and below the diagonal (the
// supernodes' lower trapezoids, Stored less the upper triangles of their
// diagonal blocks) and the explicit zeros among them, as counted by the
// analysis.
func (s *CholeskySymbolic) LowerStored() (lower, zeros int64) {
	for t := 0; t+1 < len(s.first); t++ {
		w, m := int64(s.first[t+1]-s.first[t]), int64(s.rowPtr[t+1]-s.rowPtr[t])
		lower += w*m - w*(w-1)/2
	}
	return lower, s.zeros
}

// MaxCholeskySupernode is maxSupernode.
const MaxCholeskySupernode = maxSupernode

// EtreePostorder is etreePostorder.
func EtreePostorder(parent []int32, counts []int) []int32 { return etreePostorder(parent, counts) }
