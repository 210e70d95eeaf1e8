// Package active proposes the next pairwise questions to ask a person
// ("do these two belong together?") in interactive constrained clustering.
//
// The API below is fixed so that tether serve can call it; the strategies
// and their measured value are documented on each Strategy constant.
package active

import (
	"context"
	"errors"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// Strategy is the criterion used to rank candidate pairs.
type Strategy int8

const (
	// Auto picks a strategy from the state (documented on Suggest).
	Auto Strategy = iota
)

// Options controls Suggest. The zero value asks for one question with the
// Auto strategy and seed 0.
type Options struct {
	// Count is the number of questions wanted; 0 means 1.
	Count int
	// Strategy is the ranking criterion.
	Strategy Strategy
	// Seed seeds every random choice (tie breaks, sampling).
	Seed uint64
}

// State is what the questions are chosen from.
type State struct {
	// Embedding has one row per node: the spectral embedding the partition
	// was computed from, or the features. Required.
	Embedding *mat.Dense
	// Labels is the current partition (one cluster index per node).
	Labels []int
	// Constraints are the questions answered so far (nil for none).
	Constraints *constraint.Set
}

// Question is one proposed pair with the score that ranked it and a short
// reason a person can read.
type Question struct {
	I, J  int
	Score float64
	Why   string
}

// ErrNotImplemented is returned until the strategies land.
var ErrNotImplemented = errors.New("active: not implemented")

// Suggest returns up to opts.Count pairs to ask about next, best first,
// never a pair already in st.Constraints.
func Suggest(ctx context.Context, st State, opts Options) ([]Question, error) {
	return nil, ErrNotImplemented
}
