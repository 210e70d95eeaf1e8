package metrics

import "math/big"

// PRF is a precision, a recall and their harmonic mean F1 = 2PR/(P+R)
// (0 when P + R = 0).
type PRF struct {
	Precision, Recall, F1 float64
}

func newPRF(p, r float64) PRF {
	f := 0.0
	if p == r {
		f = p // exact; 2p²/2p may round
	} else if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return PRF{Precision: p, Recall: r, F1: f}
}

// pairCounts classifies the n(n−1)/2 unordered item pairs (thesis eq. 2.5.5).
type pairCounts struct {
	tp, fp, fn, tn int64 // together in both / only in pred / only in truth / in neither
	sumA, sumB     int64 // Σ C(a_i,2), Σ C(b_j,2)
	total          int64 // C(n,2)
}

func choose2(x int) int64 { return int64(x) * int64(x-1) / 2 }

func (c *Contingency) computePairs() pairCounts {
	var p pairCounts
	for _, v := range c.cellCount {
		p.tp += choose2(v)
	}
	for _, a := range c.rowSum {
		p.sumA += choose2(a)
	}
	for _, b := range c.colSum {
		p.sumB += choose2(b)
	}
	p.total = choose2(c.n)
	p.fn = p.sumA - p.tp
	p.fp = p.sumB - p.tp
	p.tn = p.total - p.sumA - p.sumB + p.tp
	return p
}

// PairCounts classifies the n(n−1)/2 unordered pairs of items (thesis eq.
// 2.5.5): tp pairs are together in both partitions, fp together only in the
// prediction, fn together only in the truth and tn apart in both. Cost O(1)
// (computed with the table from Σ C(C_ij,2), Σ C(a_i,2), Σ C(b_j,2)).
func (c *Contingency) PairCounts() (tp, fp, fn, tn int64) {
	p := c.pairs
	return p.tp, p.fp, p.fn, p.tn
}

// RandIndex returns the fraction of item pairs on which the partitions agree,
// (tp + tn)/C(n,2) (thesis eq. 2.5.6–2.5.7; seed 002 eq. 47; Rand 1971).
// For n = 1 there is no pair and the result is 1, as in scikit-learn's
// rand_score.
func (c *Contingency) RandIndex() float64 {
	p := c.pairs
	if p.total == 0 {
		return 1
	}
	return float64(p.tp+p.tn) / float64(p.total)
}

// ARI returns the adjusted Rand index (thesis eq. 2.5.9; Hubert & Arabie
// 1985), the Rand index corrected for chance: 1 for partitions equal up to
// relabelling, about 0 for independent random partitions, ≥ −1/2.
//
// It is evaluated in exact integer arithmetic from the pair counts as
// 2(tp·tn − fn·fp) / ((tp+fn)(fn+tn) + (tp+fp)(fp+tn)), which equals eq.
// 2.5.9, and rounded once. The denominator vanishes only when the
// partitions are identical (for instance both a single cluster, both all
// singletons, or n = 1), where eq. 2.5.9 is 0/0: the result is then 1, as in
// scikit-learn's adjusted_rand_score. ARI is symmetric.
func (c *Contingency) ARI() float64 {
	p := c.pairs
	if p.fn == 0 && p.fp == 0 {
		return 1
	}
	tp, fp, fn, tn := big.NewInt(p.tp), big.NewInt(p.fp), big.NewInt(p.fn), big.NewInt(p.tn)
	var num, x, y, den big.Int
	num.Sub(x.Mul(tp, tn), y.Mul(fn, fp))
	num.Lsh(&num, 1)
	var s1, s2 big.Int
	den.Mul(s1.Add(tp, fn), s2.Add(fn, tn))
	var s3, s4, t big.Int
	den.Add(&den, t.Mul(s3.Add(tp, fp), s4.Add(fp, tn)))
	f, _ := new(big.Rat).SetFrac(&num, &den).Float64()
	return f
}

// Pairwise returns the pair-counting precision tp/(tp+fp) (the share of
// predicted co-clustered pairs that are co-clustered in the truth), recall
// tp/(tp+fn) and their F1. When the prediction (truth) puts no two items
// together the precision (recall) is vacuously 1. Precision and recall swap
// when truth and prediction do.
func (c *Contingency) Pairwise() PRF {
	p := c.pairs
	prec, rec := 1.0, 1.0
	if p.tp+p.fp > 0 {
		prec = float64(p.tp) / float64(p.tp+p.fp)
	}
	if p.tp+p.fn > 0 {
		rec = float64(p.tp) / float64(p.tp+p.fn)
	}
	return newPRF(prec, rec)
}

// ARI returns the adjusted Rand index of two partitions (see
// Contingency.ARI). Errors are those of NewContingency. Cost O(n + k₁ + k₂).
func ARI(truth, pred []int) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.ARI(), nil
}

// RandIndex returns the Rand index of two partitions (see
// Contingency.RandIndex). Errors are those of NewContingency.
func RandIndex(truth, pred []int) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.RandIndex(), nil
}
