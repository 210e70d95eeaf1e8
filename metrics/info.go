package metrics

import (
	"fmt"
	"math"
)

// Normalization selects the denominator of the normalized mutual
// information I(P, P̂)/D. The sources use two of them (SPEC §4); the others
// are the remaining choices of scikit-learn's average_method. The zero value
// is Arithmetic.
type Normalization int

const (
	// Arithmetic is D = (H(P) + H(P̂))/2, i.e. NMI = 2I/(H(P) + H(P̂)): seed
	// 001 eq. 5.12, seed 004 eq. 6.3, scikit-learn's default; equal to the
	// V-measure.
	Arithmetic Normalization = iota
	// Joint is D = H(P, P̂), the joint entropy: thesis eq. 2.5.10–2.5.11.
	Joint
	// Max is D = max(H(P), H(P̂)).
	Max
	// Geometric is D = √(H(P)·H(P̂)) (Strehl & Ghosh 2002).
	Geometric
	// Min is D = min(H(P), H(P̂)).
	Min
)

// normalizations holds every Normalization in a stable order: an array,
// which no caller can change, for Evaluate and Normalizations.
var normalizations = [...]Normalization{Arithmetic, Joint, Max, Geometric, Min}

// Normalizations returns every Normalization in a stable order
// (Arithmetic, Joint, Max, Geometric, Min), in a new slice the caller may
// change: Evaluate reports nmi_<name> for each whatever a caller does
// with it (it was a package variable that one caller could change for
// the whole program). Cost O(1).
func Normalizations() []Normalization {
	out := normalizations // a copy of the array
	return out[:]
}

// String returns "arithmetic", "joint", "max", "geometric" or "min".
func (z Normalization) String() string {
	switch z {
	case Arithmetic:
		return "arithmetic"
	case Joint:
		return "joint"
	case Max:
		return "max"
	case Geometric:
		return "geometric"
	case Min:
		return "min"
	}
	return fmt.Sprintf("Normalization(%d)", int(z))
}

// infoTerms holds the entropies of a table, in nats.
type infoTerms struct {
	h1, h2, joint, mi, vi float64
}

// computeInfo evaluates every entropy term in one O(k₁ + k₂ + nnz) pass.
// Each sum has non-negative terms, so no cancellation occurs except in the
// mutual information, which is clipped to its bounds [0, min(H₁, H₂)].
func (c *Contingency) computeInfo() infoTerms {
	n := float64(c.n)
	logn := math.Log(n)
	var t infoTerms
	for _, a := range c.rowSum {
		t.h1 += float64(a) / n * (logn - math.Log(float64(a)))
	}
	logb := make([]float64, len(c.colSum))
	for j, b := range c.colSum {
		logb[j] = math.Log(float64(b))
		t.h2 += float64(b) / n * (logn - logb[j])
	}
	k1, k2 := len(c.rowSum), len(c.colSum)
	if nnz := len(c.cellCount); nnz == k1 && nnz == k2 {
		// Equal up to relabelling: I = H₁ = H₂ = H₁₂ and VI = 0 exactly.
		t.h2 = t.h1
		t.joint, t.mi = t.h1, t.h1
		return t
	}
	for i, a := range c.rowSum {
		loga := math.Log(float64(a))
		for p := c.rowPtr[i]; p < c.rowPtr[i+1]; p++ {
			v := float64(c.cellCount[p])
			logv := math.Log(v)
			lb := logb[c.cellCol[p]]
			w := v / n
			t.joint += w * (logn - logv)
			t.vi += w * ((loga - logv) + (lb - logv))
			t.mi += w * ((logv + logn) - (loga + lb))
		}
	}
	if k1 == 1 || k2 == 1 {
		t.mi = 0 // one side has zero entropy
	}
	t.mi = max(0, min(t.mi, t.h1, t.h2))
	return t
}

// EntropyTruth returns H(P) = −Σ_i (a_i/n) ln(a_i/n), the entropy of the
// truth partition in nats (0 for a single cluster, ln n for singletons).
func (c *Contingency) EntropyTruth() float64 { return c.info.h1 }

// EntropyPred returns H(P̂), the entropy of the predicted partition in nats.
func (c *Contingency) EntropyPred() float64 { return c.info.h2 }

// JointEntropy returns H(P, P̂) = −Σ_ij (C_ij/n) ln(C_ij/n) in nats (thesis
// eq. 2.5.11).
func (c *Contingency) JointEntropy() float64 { return c.info.joint }

// MutualInfo returns I(P, P̂) = Σ_ij (C_ij/n) ln(n·C_ij/(a_i·b_j)) in nats
// (thesis eq. 2.5.10: H(P) + H(P̂) − H(P, P̂)). It is 0 when either side is a
// single cluster and is clipped to [0, min(H(P), H(P̂))] against rounding.
// It agrees with scikit-learn's mutual_info_score.
func (c *Contingency) MutualInfo() float64 { return c.info.mi }

// VI returns the variation of information H(P|P̂) + H(P̂|P) in nats (thesis
// eq. 2.5.12; Meilă 2007), a metric on partitions: 0 iff they are equal up
// to relabelling, at most ln n. It is summed cell by cell as
// Σ_ij (C_ij/n)(ln(a_i/C_ij) + ln(b_j/C_ij)), whose terms are non-negative.
func (c *Contingency) VI() float64 { return c.info.vi }

// NMI returns the normalized mutual information I/D with the denominator D
// chosen by z (see Normalization). Conventions, as in scikit-learn 1.2.1's
// normalized_mutual_info_score: 1 when both partitions are a single cluster
// (I = D = 0: identical partitions), and 0 whenever I = 0 otherwise (in
// particular when exactly one side is a single cluster). The result is in
// [0, 1] and symmetric, up to rounding (the two orders of the table sum
// their terms in different orders: a few units in the last place). It
// panics if z is not a known Normalization.
func (c *Contingency) NMI(z Normalization) float64 {
	t := c.info
	if len(c.rowSum) == 1 && len(c.colSum) == 1 {
		return 1
	}
	if t.mi == 0 {
		return 0
	}
	var d float64
	switch z {
	case Arithmetic:
		d = (t.h1 + t.h2) / 2
	case Joint:
		d = t.joint
	case Max:
		d = max(t.h1, t.h2)
	case Geometric:
		d = math.Sqrt(t.h1 * t.h2)
	case Min:
		d = min(t.h1, t.h2)
	default:
		panic(fmt.Sprintf("metrics: unknown normalization %d", int(z)))
	}
	return min(1, t.mi/d)
}

// Homogeneity returns I/H(P) = 1 − H(P|P̂)/H(P): 1 when every predicted
// cluster holds items of one truth class only (Rosenberg & Hirschberg
// 2007). As in scikit-learn, it is 1 when H(P) = 0 (a single truth class).
func (c *Contingency) Homogeneity() float64 {
	if c.info.h1 == 0 {
		return 1
	}
	return min(1, c.info.mi/c.info.h1)
}

// Completeness returns I/H(P̂): 1 when every truth class lies inside one
// predicted cluster. It is 1 when H(P̂) = 0 (a single predicted cluster).
func (c *Contingency) Completeness() float64 {
	if c.info.h2 == 0 {
		return 1
	}
	return min(1, c.info.mi/c.info.h2)
}

// VMeasure returns the harmonic mean of Homogeneity and Completeness (0 when
// both are 0). It equals NMI(Arithmetic) except in the degenerate cases.
func (c *Contingency) VMeasure() float64 {
	h, k := c.Homogeneity(), c.Completeness()
	if h+k == 0 {
		return 0
	}
	return 2 * h * k / (h + k)
}

// NMI returns the normalized mutual information of two partitions with
// normalization z (see Contingency.NMI). Errors are those of NewContingency,
// or an unknown normalization.
func NMI(truth, pred []int, z Normalization) (float64, error) {
	if z < Arithmetic || z > Min {
		return 0, fmt.Errorf("metrics: unknown NMI normalization %d", int(z))
	}
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.NMI(z), nil
}

// VI returns the variation of information of two partitions in nats (see
// Contingency.VI). Errors are those of NewContingency.
func VI(truth, pred []int) (float64, error) {
	c, err := NewContingency(truth, pred)
	if err != nil {
		return 0, err
	}
	return c.VI(), nil
}

// Entropy returns the entropy of a partition in nats, −Σ_k (n_k/n) ln(n_k/n).
// It returns an error wrapping ErrEmpty for an empty slice.
func Entropy(labels []int) (float64, error) {
	c, err := NewContingency(labels, labels)
	if err != nil {
		return 0, err
	}
	return c.EntropyTruth(), nil
}
