package metrics

// Coreference scores (thesis §2.5, eq. 2.5.1–2.5.4; seed 003 §5.2). The
// items are the mentions, the truth clusters are the key entities and the
// predicted clusters the response entities; both partitions cover the same
// mentions, so the twinless-mention rules of Pradhan et al. 2014 are not
// needed. Every score is symmetric in the sense that swapping truth and
// prediction swaps precision and recall.

// MUC returns the link-based MUC score (Vilain et al. 1995; thesis eq.
// 2.5.1). Recall is Σ_i (a_i − |p(K_i)|)/Σ_i (a_i − 1), where |p(K_i)| is the
// number of predicted clusters meeting truth cluster i, i.e. (n − nnz)/(n −
// k₁); precision is (n − nnz)/(n − k₂). Singletons carry no link and are
// ignored: when the truth (prediction) is all singletons the recall
// (precision) is 0/0 and reported as 0, as the reference scorer of Pradhan
// et al. 2014 does, so two identical all-singleton partitions score 0.
// Cost O(1).
func (c *Contingency) MUC() PRF {
	links := float64(c.n - len(c.cellCount))
	var p, r float64
	if d := c.n - len(c.colSum); d > 0 {
		p = links / float64(d)
	}
	if d := c.n - len(c.rowSum); d > 0 {
		r = links / float64(d)
	}
	return newPRF(p, r)
}

// B3 returns the mention-based B³ score (Bagga & Baldwin 1998; thesis eq.
// 2.5.2): the precision averages over the items x the share of x's
// predicted cluster that is in x's truth cluster, (1/n) Σ_ij C_ij²/b_j, and
// the recall (1/n) Σ_ij C_ij²/a_i. Singletons count. Cost O(nnz).
func (c *Contingency) B3() PRF {
	var p, r float64
	for i, a := range c.rowSum {
		for q := c.rowPtr[i]; q < c.rowPtr[i+1]; q++ {
			v := float64(c.cellCount[q])
			p += v * v / float64(c.colSum[c.cellCol[q]])
			r += v * v / float64(a)
		}
	}
	n := float64(c.n)
	return newPRF(p/n, r/n)
}

// CEAFm returns the mention-based CEAF score (Luo 2005, similarity φ₃(K,R)
// = |K ∩ R|): the best one-to-one alignment Φ of truth and predicted
// clusters maximizing the number of shared items, with precision = recall =
// Φ/n. It equals Accuracy. Cost O(k³), k = max(k₁, k₂).
func (c *Contingency) CEAFm() PRF {
	a := c.Accuracy()
	return newPRF(a, a)
}

// CEAFe returns the entity-based CEAF score (Luo 2005, similarity φ₄(K,R) =
// 2|K ∩ R|/(|K| + |R|); thesis eq. 2.5.3–2.5.4): Φ is the largest total
// similarity of a one-to-one alignment of truth and predicted clusters,
// found by Hungarian; recall = Φ/k₁ and precision = Φ/k₂ (φ₄(K,K) = 1).
// Cost O(k³) time and O(k₁k₂) memory, k = max(k₁, k₂).
func (c *Contingency) CEAFe() PRF {
	phi, _ := c.maxMatching(func(i, j, count int) float64 {
		return 2 * float64(count) / float64(c.rowSum[i]+c.colSum[j])
	})
	return newPRF(phi/float64(len(c.colSum)), phi/float64(len(c.rowSum)))
}

// CoNLL returns the CoNLL-2012 score, the unweighted mean of the MUC, B³
// and CEAF_e F1 (thesis §2.5; seed 003 §5.2; Pradhan et al. 2012). Cost as
// CEAFe.
func (c *Contingency) CoNLL() float64 {
	return (c.MUC().F1 + c.B3().F1 + c.CEAFe().F1) / 3
}

// ClassScore is the B³ precision and recall restricted to the items of one
// truth class.
type ClassScore struct {
	Label, Size       int // truth label value and class size a_i
	Precision, Recall float64
}

// Classes returns the per-class scores of seed 003 §5.2, one per truth
// class in increasing label order. The paper leaves p_i and r_i undefined;
// we take the B³ terms of the class's items: with x ranging over truth
// class i and S(x) the predicted cluster of x,
// p_i = (1/a_i) Σ_x |C_i ∩ S(x)|/|S(x)| = Σ_j C_ij²/(a_i b_j) and
// r_i = (1/a_i) Σ_x |C_i ∩ S(x)|/a_i = Σ_j C_ij²/a_i². Their size-weighted
// means over all classes are the B³ precision and recall. Cost O(k₁ + nnz).
func (c *Contingency) Classes() []ClassScore {
	out := make([]ClassScore, len(c.rowSum))
	for i, a := range c.rowSum {
		fa := float64(a)
		var p, r float64
		for q := c.rowPtr[i]; q < c.rowPtr[i+1]; q++ {
			v := float64(c.cellCount[q])
			p += v * v / float64(c.colSum[c.cellCol[q]])
			r += v * v
		}
		out[i] = ClassScore{Label: c.truthVals[i], Size: a, Precision: p / fa, Recall: r / (fa * fa)}
	}
	return out
}

// ClassF1 returns the micro-averaged precision p̄ = Σ_i a_i p_i/Σ_i a_i,
// recall r̄ and F1 = 2p̄r̄/(p̄+r̄) over the truth classes of at least minSize
// items (seed 003 §5.2, the curve of its Fig. 3 is ClassF1 against
// minSize), with p_i and r_i as in Classes, and the number of classes that
// qualify. With minSize ≤ 1 the result is the B³ score. When no class is
// large enough it returns the zero PRF and 0. Cost O(k₁ + nnz).
func (c *Contingency) ClassF1(minSize int) (PRF, int) {
	var p, r, w float64
	count := 0
	for _, s := range c.Classes() {
		if s.Size < minSize {
			continue
		}
		count++
		fs := float64(s.Size)
		p += fs * s.Precision
		r += fs * s.Recall
		w += fs
	}
	if count == 0 {
		return PRF{}, 0
	}
	return newPRF(p/w, r/w), count
}

// CoNLL returns the CoNLL score of pred against truth (see
// Contingency.CoNLL). Errors are those of NewContingency.
func CoNLL(truth, pred []int) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.CoNLL(), nil
}

// MUC returns the MUC score of pred against truth (see Contingency.MUC).
// Errors are those of NewContingency.
func MUC(truth, pred []int) (PRF, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return PRF{}, err
	}
	return c.MUC(), nil
}

// B3 returns the B³ score of pred against truth (see Contingency.B3).
// Errors are those of NewContingency.
func B3(truth, pred []int) (PRF, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return PRF{}, err
	}
	return c.B3(), nil
}

// CEAFe returns the entity-based CEAF score of pred against truth (see
// Contingency.CEAFe). Errors are those of NewContingency.
func CEAFe(truth, pred []int) (PRF, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return PRF{}, err
	}
	return c.CEAFe(), nil
}

// CEAFm returns the mention-based CEAF score of pred against truth (see
// Contingency.CEAFm). Errors are those of NewContingency.
func CEAFm(truth, pred []int) (PRF, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return PRF{}, err
	}
	return c.CEAFm(), nil
}
