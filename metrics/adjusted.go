package metrics

import (
	"context"
	"fmt"
	"math"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/ctxsort"
)

// FowlkesMallows returns the Fowlkes–Mallows index
// FMI = TP/√((TP+FP)(TP+FN)), the geometric mean of the pair-counting
// precision and recall (Fowlkes & Mallows 1983), computed as scikit-learn's
// fowlkes_mallows_score does: √(tk/pk)·√(tk/qk) with tk = 2TP,
// pk = 2(TP+FP), qk = 2(TP+FN), and 0 when no pair is together in both
// partitions (tk = 0). Cost O(1).
func (c *Contingency) FowlkesMallows() float64 {
	p := c.pairs
	tk := float64(2 * p.tp)
	if tk == 0 {
		return 0
	}
	pk := float64(2 * (p.tp + p.fp))
	qk := float64(2 * (p.tp + p.fn))
	return math.Sqrt(tk/pk) * math.Sqrt(tk/qk)
}

// ExpectedMutualInfo returns E[I], the expected mutual information in nats
// of two partitions drawn at random with the row and column sums of c (the
// hypergeometric model of Vinh, Epps & Bailey 2010, eq. 24a), summed in the
// order and form of scikit-learn 1.2's expected_mutual_information. It is 0
// when either partition has a single cluster. Cost O(n·min(k₁, k₂)).
func (c *Contingency) ExpectedMutualInfo() float64 {
	emi, _ := c.expectedMutualInfo(context.Background(), nil)
	return emi
}

// emiPoll is the number of terms expectedMutualInfo sums between two
// checks of its context: a few milliseconds.
const emiPoll = 1 << 15

// emiTerms returns the number of terms of ExpectedMutualInfo's sum: the
// cost of expectedMutualInfo. Cost O(k₁·k₂).
func (c *Contingency) emiTerms() float64 {
	if len(c.rowSum) == 1 || len(c.colSum) == 1 {
		return 0
	}
	terms := 0.0
	for _, ai := range c.rowSum {
		for _, bj := range c.colSum {
			terms += float64(max(0, min(ai, bj)+1-max(1, ai-c.n+bj)))
		}
	}
	return terms
}

// expectedMutualInfo is ExpectedMutualInfo checking ctx every emiPoll
// terms (n = 2·10⁶ with ten classes took 1.4 s) and telling t (nil:
// none) the fraction of the terms summed; the error is ctx.Err().
func (c *Contingency) expectedMutualInfo(ctx context.Context, t func(float64)) (float64, error) {
	a, b := c.rowSum, c.colSum
	if len(a) == 1 || len(b) == 1 {
		return 0, ctx.Err()
	}
	total := 0.0
	if t != nil {
		total = c.emiTerms()
	}
	done, next := 0.0, 0.0
	n := float64(c.n)
	maxab := 0
	for _, v := range a {
		maxab = max(maxab, v)
	}
	for _, v := range b {
		maxab = max(maxab, v)
	}
	lgamma := func(x float64) float64 {
		v, _ := math.Lgamma(x)
		return v
	}
	// Tables indexed by n_ij = 1…max(a, b) (index 0 unused).
	term1 := make([]float64, maxab+1)
	logNnij := make([]float64, maxab+1)
	glnNij := make([]float64, maxab+1)
	logn := math.Log(n)
	for v := 1; v <= maxab; v++ {
		x := float64(v)
		term1[v] = x / n
		logNnij[v] = logn + math.Log(x)
		glnNij[v] = lgamma(x + 1)
	}
	logA, glnA, glnNA := make([]float64, len(a)), make([]float64, len(a)), make([]float64, len(a))
	for i, v := range a {
		x := float64(v)
		logA[i], glnA[i], glnNA[i] = math.Log(x), lgamma(x+1), lgamma(n-x+1)
	}
	logB, glnB, glnNB := make([]float64, len(b)), make([]float64, len(b)), make([]float64, len(b))
	for j, v := range b {
		x := float64(v)
		logB[j], glnB[j], glnNB[j] = math.Log(x), lgamma(x+1), lgamma(n-x+1)
	}
	glnN := lgamma(n + 1)
	emi := 0.0
	for i, ai := range a {
		for j, bj := range b {
			start := max(1, ai-c.n+bj)
			end := min(ai, bj) + 1
			for nij := start; nij < end; nij++ {
				if done >= next {
					if err := ctx.Err(); err != nil {
						return 0, err
					}
					if t != nil {
						t(done / total)
					}
					next = done + emiPoll
				}
				done++
				term2 := logNnij[nij] - logA[i] - logB[j]
				gln := glnA[i] + glnB[j] + glnNA[i] + glnNB[j] -
					glnN - glnNij[nij] - lgamma(float64(ai-nij)+1) -
					lgamma(float64(bj-nij)+1) -
					lgamma(n-float64(ai)-float64(bj)+float64(nij)+1)
				emi += term1[nij] * term2 * math.Exp(gln)
			}
		}
	}
	return emi, nil
}

// AMI returns the adjusted mutual information with the arithmetic-mean
// normalization, (I − E[I]) / ((H(P)+H(P̂))/2 − E[I]) (Vinh, Epps & Bailey
// 2010, eq. 27 with the arithmetic mean; scikit-learn's
// adjusted_mutual_info_score default), with E[I] from ExpectedMutualInfo.
// As in scikit-learn it is 1 when both partitions have a single cluster,
// and a denominator smaller in magnitude than the float64 epsilon is
// replaced by ±epsilon (keeping its sign). It is 1 for identical
// partitions up to relabelling and 0 in expectation for independent ones;
// it may be negative. When both partitions are all singletons (n ≥ 2),
// every table of the permutation model has I = ln n, so E[I] = I = H and
// the formula is 0/0: it is 1 there, as for identical partitions, where
// scikit-learn returns what the rounding of I − E[I] over ±epsilon gives
// (0 or 1 here, by n). Cost O(n·min(k₁, k₂)).
func (c *Contingency) AMI() float64 {
	ami, _ := c.ami(context.Background(), nil)
	return ami
}

// ami is AMI with expectedMutualInfo's ctx, t and error.
func (c *Contingency) ami(ctx context.Context, t func(float64)) (float64, error) {
	if len(c.rowSum) == 1 && len(c.colSum) == 1 || len(c.rowSum) == c.n && len(c.colSum) == c.n {
		return 1, ctx.Err()
	}
	emi, err := c.expectedMutualInfo(ctx, t)
	if err != nil {
		return 0, err
	}
	den := (c.info.h1+c.info.h2)/2 - emi
	const eps = 0x1p-52
	if den < 0 {
		den = min(den, -eps)
	} else {
		den = max(den, eps)
	}
	return (c.info.mi - emi) / den, nil
}

// AMI returns the adjusted mutual information of pred against truth
// (arithmetic normalization); see Contingency.AMI. The error is
// NewContingency's.
func AMI(truth, pred []int) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.AMI(), nil
}

// FowlkesMallows returns the Fowlkes–Mallows index of pred against truth;
// see Contingency.FowlkesMallows. The error is NewContingency's.
func FowlkesMallows(truth, pred []int) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.FowlkesMallows(), nil
}

// UnconstrainedARI returns the adjusted Rand index over the pairs of items
// that are not in the constraint set: "results evaluated on unconstrained
// pairs" (seed 003 §5.1), the figure of the FGPWC tables. It classifies the
// n(n−1)/2 pairs by the contingency table (TP: same class, same cluster;
// FP: different classes, same cluster; FN; TN), removes the constrained
// pairs (each distinct pair once; self pairs ignored) and applies the
// pair-counting form of the ARI (Hubert & Arabie 1985):
//
//	ARI = 2(TP·TN − FN·FP) / ((TP+FN)(FN+TN) + (TP+FP)(FP+TN)),
//
// which equals ARI when the set is empty or nil, up to rounding (ARI
// counts the pairs exactly in integers, this form in float64 products: a
// unit in the last place from about 6·10⁴ items). It returns 1 when the
// denominator is 0 (both partitions trivial on the remaining pairs), as ARI
// does. Errors: those of NewContingency, and ErrSize when set.N differs
// from len(truth) or a pair names an item outside it. Cost O(n + |set|):
// the repeated pairs are found by a radix sort.
func UnconstrainedARI(truth, pred []int, set *constraint.Set) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return unconstrainedARI(context.Background(), c, truth, pred, set, nil)
}

// unconstrainedARI is UnconstrainedARI on the contingency table c of
// truth and pred, checking ctx every pairPoll pairs of its passes and in
// the sort of the pairs (10⁷ pairs took 6 s in a map without a check),
// and telling t (nil: none) the fraction done; the error is then
// ctx.Err().
func unconstrainedARI(ctx context.Context, c *Contingency, truth, pred []int, set *constraint.Set, t func(float64)) (float64, error) {
	tp, fp, fn, tn := c.PairCounts()
	if set != nil {
		if set.N != len(truth) {
			return 0, fmt.Errorf("%w: constraints are on %d nodes, partition has %d labels", ErrSize, set.N, len(truth))
		}
		// Each distinct pair once: the keys i·n + j, i < j, sorted.
		n := uint64(len(truth))
		keys := make([]uint64, 0, len(set.Pairs))
		for k, q := range set.Pairs {
			if err := poll(ctx, k, t, 0.2*float64(k)/float64(len(set.Pairs))); err != nil {
				return 0, err
			}
			i, j := min(q.I, q.J), max(q.I, q.J)
			if i < 0 || j >= len(truth) {
				return 0, fmt.Errorf("%w: constraint pair (%d, %d) outside the %d labels", ErrSize, q.I, q.J, len(truth))
			}
			if i != j {
				keys = append(keys, uint64(i)*n+uint64(j))
			}
		}
		tick := func(f float64) {
			if t != nil {
				t(0.2 + 0.6*f)
			}
		}
		if err := ctxsort.ByKey(ctx, keys, func(k uint64) uint64 { return k }, tick); err != nil {
			return 0, err
		}
		for k, key := range keys {
			if err := poll(ctx, k, t, 0.8+0.2*float64(k)/float64(len(keys))); err != nil {
				return 0, err
			}
			if k > 0 && key == keys[k-1] {
				continue
			}
			i, j := int(key/n), int(key%n)
			sameT, sameP := truth[i] == truth[j], pred[i] == pred[j]
			switch {
			case sameT && sameP:
				tp--
			case !sameT && sameP:
				fp--
			case sameT && !sameP:
				fn--
			default:
				tn--
			}
		}
	}
	a, b, cc, d := float64(tp), float64(fp), float64(fn), float64(tn)
	den := (a+cc)*(cc+d) + (a+b)*(b+d)
	if den == 0 {
		return 1, nil
	}
	return 2 * (a*d - cc*b) / den, nil
}
