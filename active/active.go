package active

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/enum"
)

// Strategy is the criterion used to rank candidate pairs.
type Strategy int8

const (
	// Auto picks a strategy from the state, as Basu et al.'s Explore and
	// Consolidate (SDM 2004) with an uncertainty-driven consolidation:
	//  1. pending components first (see the package doc), one question
	//     each, nearest neighbourhood first;
	//  2. while there are λ < k neighbourhoods (k = State.K, or the number
	//     of clusters in State.Labels; with neither, always), exploration:
	//     the untouched cluster cores of Labels (the member of each cluster
	//     nearest its centroid; with nothing known, the core of the largest
	//     cluster is the first anchor), then Explore's farthest-first
	//     nodes, each against the nearest neighbourhood; at most k − λ such
	//     questions per call when Labels has two clusters or more, since
	//     their answers decide the next ones;
	//  3. the rest of the Count: Boundary's smallest-margin nodes, each
	//     asked against the nearest neighbourhood (or, before any, against
	//     its nearest node across the boundary); farthest-first nodes when
	//     Labels has fewer than two clusters.
	// Cores come before farthest-first points because farthest-first
	// alone asks about outliers first. The Score and Why of each question
	// are those of the phase that chose it.
	Auto Strategy = iota
	// Explore is farthest-first exploration (Basu et al. 2004, Explore
	// phase): pending components first (as Auto), then the untouched node
	// farthest from the neighbourhoods — the largest distance, in the
	// embedding, to the nearest neighbourhood centroid and to the nodes
	// already chosen in this call — asked against the nearest
	// neighbourhood. With no constraint at all a seeded random node is the
	// first anchor. Score is that distance (larger first). Cost
	// O(n·d·(λ + Count)) for λ neighbourhoods.
	Explore
	// Boundary asks about the nodes the current partition is least sure
	// of: for every untouched node i, its k-means margin
	// m_i = ‖e_i − μ_b‖ − ‖e_i − μ_a‖, where μ_a and μ_b are the nearest
	// and second nearest centroids of State.Labels' clusters in the
	// embedding (μ_c the mean of the rows labelled c). The Count nodes
	// with the smallest margin are asked against the nearest neighbourhood
	// (Basu et al.'s Consolidate order), or, with no neighbourhood yet,
	// against their nearest node of cluster b: the closest pair across
	// the boundary. Score is m_i (smaller first). Needs Labels with at
	// least two clusters. Cost O(n·k·d + n log n), plus O(n·d) per
	// question without neighbourhoods.
	Boundary
	// Similarity asks the pairs whose learned must-link probability is
	// nearest 0.5. FGPWC (seed 003 §3, eq. (1)) fits the rows e of its
	// embedding V X so that p_ij = exp(−‖e_i − e_j‖²/σ_m) is 1 for a
	// must-link and 0 for a cannot-link; p_ij = 0.5 is where the model
	// is least sure. The candidates are the max(32, 4·Count) untouched
	// nodes of smallest margin (as Boundary), each paired with the
	// neighbourhood representatives and the cluster cores (the member of
	// each cluster nearest its centroid); every candidate keeps its best partner and
	// the pairs are ranked by |p_ij − 0.5| (smaller first, the Score).
	// Needs State.SigmaML > 0 (FGPWC.SigmaML, 0.15 by default, with
	// State.Embedding = the FGPWC Result.Embedding) and Labels with at
	// least two clusters. Cost as Boundary plus O(P·(λ + k)·d) for the
	// pool.
	Similarity
	// Random draws pairs uniformly among the pairs that are neither
	// answered nor implied: the baseline of the active-selection
	// experiment. Score is 0.
	Random
)

var strategyNames = []string{"auto", "explore", "boundary", "similarity", "random"}

// String returns the strategy's name (auto, explore, boundary, similarity
// or random).
func (s Strategy) String() string { return enum.String("Strategy", strategyNames, s) }

// MarshalText returns the name of s.
func (s Strategy) MarshalText() ([]byte, error) { return enum.Marshal("strategy", strategyNames, s) }

// UnmarshalText sets s from its name, any case, so that it works as a
// command-line value and in JSON. The error wraps ErrInvalid.
func (s *Strategy) UnmarshalText(b []byte) error {
	v, err := enum.Parse[Strategy]("strategy", strategyNames, string(b))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	*s = v
	return nil
}

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
	// K is the number of clusters sought. If K is 0, it is the number of
	// clusters of Labels (1 + the largest label), or unknown without
	// Labels. Auto explores until there are K neighbourhoods.
	K int
	// SigmaML is the width σ_m of the learned similarity
	// exp(−‖e_i − e_j‖²/σ_m) of the Embedding's rows, for the Similarity
	// strategy: FGPWC.SigmaML (0.15 by default) when Embedding is FGPWC's
	// Result.Embedding. 0 means unknown (Similarity then fails).
	SigmaML float64
}

// Question is one proposed pair with the score that ranked it and a short
// reason a person can read.
type Question struct {
	I, J  int
	Score float64
	Why   string
}

// ErrInvalid is wrapped by the errors Suggest returns for a State or
// Options it cannot use.
var ErrInvalid = errors.New("active: invalid input")

// maxCount bounds Options.Count.
const maxCount = 1 << 20

// Suggest returns up to opts.Count pairs to ask about next, best first,
// never a pair already in st.Constraints nor one whose answer their
// transitive closure implies (see the package doc). It returns fewer
// questions, possibly none, when the strategy has no more candidates (for
// example when every node is already in a constrained component). The
// ranking is the strategy's (see Strategy); I < J is not guaranteed, the
// first node is the one the question is about.
//
// Errors wrap ErrInvalid and name the problem: a missing or non-finite
// Embedding, Labels or Constraints of another length, a negative label,
// an invalid constraint, a negative Count or K, an unknown Strategy, or a
// strategy without what it needs (Boundary and Similarity need Labels
// with two clusters, Similarity a SigmaML). It returns ctx.Err() when ctx
// is cancelled, checked after about every 10⁶ multiply-adds of work
// whatever a row costs.
//
// Cost: O(n·d·(k + c) + n log n) (see the package doc); memory O(n + t·d)
// for t touched components.
func Suggest(ctx context.Context, st State, opts Options) ([]Question, error) {
	count, err := validate(st, opts)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, err := newSuggester(ctx, st, opts.Seed)
	if err != nil {
		return nil, err
	}
	switch opts.Strategy {
	case Auto:
		return s.auto(count)
	case Explore:
		return s.explore(count)
	case Boundary:
		return s.boundary(count)
	case Similarity:
		return s.similarity(count)
	case Random:
		return s.random(count)
	}
	return nil, fmt.Errorf("%w: unknown strategy %d", ErrInvalid, opts.Strategy)
}

// validate checks st and opts and returns the number of questions wanted.
func validate(st State, opts Options) (int, error) {
	if opts.Count < 0 || opts.Count > maxCount {
		return 0, fmt.Errorf("%w: Count %d outside [0, %d]", ErrInvalid, opts.Count, maxCount)
	}
	if opts.Strategy < Auto || int(opts.Strategy) >= len(strategyNames) {
		return 0, fmt.Errorf("%w: unknown strategy %d (want %s)", ErrInvalid, opts.Strategy, enum.List(strategyNames))
	}
	if st.Embedding == nil || st.Embedding.IsEmpty() {
		return 0, fmt.Errorf("%w: State.Embedding is required", ErrInvalid)
	}
	n, _ := st.Embedding.Dims()
	for i := 0; i < n; i++ {
		for c, x := range st.Embedding.RawRowView(i) {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return 0, fmt.Errorf("%w: Embedding[%d][%d] = %v is not finite", ErrInvalid, i, c, x)
			}
		}
	}
	if st.Labels != nil && len(st.Labels) != n {
		return 0, fmt.Errorf("%w: %d labels for %d embedding rows", ErrInvalid, len(st.Labels), n)
	}
	for i, c := range st.Labels {
		if c < 0 {
			return 0, fmt.Errorf("%w: node %d has label %d; labels are 0, 1, …", ErrInvalid, i, c)
		}
		if c >= n {
			return 0, fmt.Errorf("%w: node %d has label %d, more than the %d nodes", ErrInvalid, i, c, n)
		}
	}
	if st.K < 0 || st.K > n {
		return 0, fmt.Errorf("%w: K = %d outside [0, %d]", ErrInvalid, st.K, n)
	}
	if math.IsNaN(st.SigmaML) || math.IsInf(st.SigmaML, 0) || st.SigmaML < 0 {
		return 0, fmt.Errorf("%w: SigmaML = %v must be finite and ≥ 0", ErrInvalid, st.SigmaML)
	}
	if c := st.Constraints; c != nil {
		if c.N != n {
			return 0, fmt.Errorf("%w: constraints on %d nodes for %d embedding rows", ErrInvalid, c.N, n)
		}
		if err := c.Validate(); err != nil {
			return 0, fmt.Errorf("%w: Constraints: %w", ErrInvalid, err)
		}
	}
	if opts.Count == 0 {
		return 1, nil
	}
	return opts.Count, nil
}
