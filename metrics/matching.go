package metrics

// Purity returns (1/n) Σ_j max_i C_ij: each predicted cluster is credited
// with its dominant truth class (seed 001 eq. 5.11; Manning et al. 2008
// §16.3). Seed 001 prints the sum of the per-cluster fractions
// max_i C_ij/b_j without the 1/n weighting, which exceeds 1 for more than
// one cluster although the text says purity lies in [0, 1]; we use the
// standard size-weighted form it describes. Purity is 1 for all singletons
// predicted, so it rewards over-splitting. Cost O(nnz + k₂).
func (c *Contingency) Purity() float64 {
	best := make([]int, len(c.colSum))
	for p, j := range c.cellCol {
		best[j] = max(best[j], c.cellCount[p])
	}
	s := 0
	for _, b := range best {
		s += b
	}
	return float64(s) / float64(c.n)
}

// InversePurity returns (1/n) Σ_i max_j C_ij, the purity with the roles of
// truth and prediction swapped; it rewards under-splitting. Cost O(nnz).
func (c *Contingency) InversePurity() float64 {
	s := 0
	for i := range c.rowSum {
		best := 0
		for p := c.rowPtr[i]; p < c.rowPtr[i+1]; p++ {
			best = max(best, c.cellCount[p])
		}
		s += best
	}
	return float64(s) / float64(c.n)
}

// Accuracy returns the fraction of items whose predicted cluster maps to
// their truth class under the best one-to-one map of clusters to classes
// (seed 002 eq. 45–46): max over injective maps of Σ_j C_map(j),j / n,
// found by Hungarian on the contingency table. With different numbers of
// clusters and classes the surplus clusters (or classes) are left unmatched
// and their items count as errors. Accuracy is symmetric and equals the
// CEAF_m F1. Cost O(k³) time and O(k₁k₂) memory, k = max(k₁, k₂).
func (c *Contingency) Accuracy() float64 {
	total, _ := c.maxMatching(func(_, _, count int) float64 { return float64(count) })
	return total / float64(c.n)
}

// Matching returns the best one-to-one map used by Accuracy: m[j] is the
// truth row matched with predicted column j, or −1 when column j is
// unmatched (or matched to a truth class it shares no item with). Use
// PredLabel and TruthLabel to read label values. Cost as Accuracy.
func (c *Contingency) Matching() []int {
	_, rowTo := c.maxMatching(func(_, _, count int) float64 { return float64(count) })
	m := make([]int, len(c.colSum))
	for j := range m {
		m[j] = -1
	}
	for i, j := range rowTo {
		if j >= 0 {
			m[j] = i
		}
	}
	return m
}

// Purity returns the purity of pred against truth (see Contingency.Purity).
// Errors are those of NewContingency.
func Purity(truth, pred []int) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.Purity(), nil
}

// Accuracy returns the best-mapping accuracy of pred against truth (see
// Contingency.Accuracy). Errors are those of NewContingency.
func Accuracy(truth, pred []int) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.Accuracy(), nil
}
