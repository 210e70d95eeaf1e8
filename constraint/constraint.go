package constraint

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalid is wrapped by errors reporting malformed input of this
// package: constraints with indices out of range, self pairs, bad weights
// or unknown kinds, partial labels outside 0…k−1, unknown policy or index
// base names, and constraint files that say any of these.
var ErrInvalid = errors.New("constraint: invalid input")

// Kind tells whether a pair must be in the same cluster or in different ones.
type Kind int8

const (
	// MustLink requires both nodes in the same cluster.
	MustLink Kind = 1
	// CannotLink requires the nodes in different clusters.
	CannotLink Kind = 2
)

// String returns "ml" or "cl", the names used in constraint files.
func (k Kind) String() string {
	switch k {
	case MustLink:
		return "ml"
	case CannotLink:
		return "cl"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Pair is one pairwise constraint between nodes I and J (I ≠ J).
type Pair struct {
	I, J int
	Kind Kind
	// Weight is the confidence of a soft constraint, > 0. A Weight of 0 means
	// 1, a hard constraint of unit weight.
	Weight float64
}

// W returns the effective weight: Weight, or 1 when Weight is 0.
func (p Pair) W() float64 {
	if p.Weight == 0 {
		return 1
	}
	return p.Weight
}

// Set is a set of pairwise constraints on the nodes 0…N−1.
type Set struct {
	N     int
	Pairs []Pair
}

// Validate checks that every pair has both nodes in [0,N), I ≠ J, a known
// Kind and a finite non-negative Weight. The error wraps ErrInvalid and names
// the index and content of the first bad pair. It does not look for
// contradictions (see the consistency checks in this package).
func (s *Set) Validate() error {
	if s == nil {
		return nil
	}
	for k, p := range s.Pairs {
		switch {
		case p.I < 0 || p.I >= s.N || p.J < 0 || p.J >= s.N:
			return fmt.Errorf("%w: pair %d (%d,%d): node outside [0,%d)", ErrInvalid, k, p.I, p.J, s.N)
		case p.I == p.J:
			return fmt.Errorf("%w: pair %d (%d,%d): a node cannot be constrained with itself", ErrInvalid, k, p.I, p.J)
		case p.Kind != MustLink && p.Kind != CannotLink:
			return fmt.Errorf("%w: pair %d (%d,%d): unknown kind %d", ErrInvalid, k, p.I, p.J, p.Kind)
		case math.IsNaN(p.Weight) || math.IsInf(p.Weight, 0) || p.Weight < 0:
			return fmt.Errorf("%w: pair %d (%d,%d): weight %v must be finite and non-negative", ErrInvalid, k, p.I, p.J, p.Weight)
		}
	}
	return nil
}

// Count returns the numbers of must-link and cannot-link pairs.
func (s *Set) Count() (ml, cl int) {
	if s == nil {
		return 0, 0
	}
	for _, p := range s.Pairs {
		if p.Kind == MustLink {
			ml++
		} else if p.Kind == CannotLink {
			cl++
		}
	}
	return ml, cl
}

// Unlabeled marks a node without a known label in Labels.
const Unlabeled = -1

// Labels holds partial supervision: Labels[i] is the known class of node i
// (0…k−1), or Unlabeled.
type Labels []int

// Labeled returns the indices of the labelled nodes in increasing order.
func (l Labels) Labeled() []int {
	var out []int
	for i, c := range l {
		if c != Unlabeled {
			out = append(out, i)
		}
	}
	return out
}

// Kept returns how many labelled nodes of l the partition labels puts in
// the cluster numbered by their class (labels[i] == l[i]), and how many
// nodes l labels. cluster.Run numbers clusters by the classes of partial
// labels, so kept is the agreement a user reads. It panics if
// len(labels) < len(l). Cost O(n).
func (l Labels) Kept(labels []int) (kept, labelled int) {
	for i, c := range l {
		if c == Unlabeled {
			continue
		}
		labelled++
		if labels[i] == c {
			kept++
		}
	}
	return kept, labelled
}

// Validate checks that every entry is Unlabeled or in [0,k) (k ≤ 0 skips the
// upper bound), naming the first bad node.
func (l Labels) Validate(k int) error {
	for i, c := range l {
		if c == Unlabeled {
			continue
		}
		if c < 0 || (k > 0 && c >= k) {
			classes := "a class ≥ 0"
			if k > 0 {
				classes = fmt.Sprintf("0…%d", k-1)
			}
			return fmt.Errorf("%w: node %d has label %d, want %d (unlabelled) or %s", ErrInvalid, i, c, Unlabeled, classes)
		}
	}
	return nil
}

// Violations counts the pairs of s that the partition labels breaks: a
// must-link across two clusters or a cannot-link inside one. A nil s has
// none. It panics if len(labels) ≠ s.N or a pair is outside [0, s.N);
// metrics.Violations reports both as errors instead.
func Violations(s *Set, labels []int) (ml, cl int) {
	if s == nil {
		return 0, 0
	}
	if len(labels) != s.N {
		panic(fmt.Sprintf("constraint: Violations: labels has %d entries, the set has N = %d nodes", len(labels), s.N))
	}
	for k, p := range s.Pairs {
		checkPair("Violations", s, k, p)
		same := labels[p.I] == labels[p.J]
		if p.Kind == MustLink && !same {
			ml++
		} else if p.Kind == CannotLink && same {
			cl++
		}
	}
	return ml, cl
}
