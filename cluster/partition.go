package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/kmeans"
)

// partition is the last step shared by the embedding methods: k-means
// (thesis Alg. 4) on the rows of x into k clusters, with s.Restarts runs
// (defRestarts when s.Restarts is 0) seeded from s's k-means stream. When
// sel is not nil the run of lowest sel(labels) is kept (ties by
// distortion), otherwise the run of lowest distortion. The Result holds
// Labels, K = k, Embedding = x, Objective = the kept run's distortion and
// Iterations = its Lloyd iterations; the caller adds Eigenvalues and
// Warnings. Cost: O(n·d·k) per Lloyd iteration and run, for x of n×d.
func partition(ctx context.Context, x *mat.Dense, k int, s *Settings, defRestarts int, sel func([]int) float64) (*Result, error) {
	km, err := runKMeans(ctx, x, k, s, defRestarts, sel)
	if err != nil {
		return nil, err
	}
	return &Result{Labels: km.Labels, K: k, Embedding: x, Objective: km.Distortion, Iterations: km.Iterations}, nil
}

// runKMeans clusters the rows of x into k groups with the settings' seed and
// restarts (defRestarts when s.Restarts is 0); sel as for partition. When
// k-means fails on an x holding a NaN or an infinity, the error wraps
// ErrNumerical: the embedding overflowed (checked on the error path only).
func runKMeans(ctx context.Context, x *mat.Dense, k int, s *Settings, defRestarts int, sel func([]int) float64) (*kmeans.Result, error) {
	r := s.Restarts
	if r == 0 {
		r = defRestarts
	}
	res, err := kmeans.Cluster(ctx, x, kmeans.Settings{
		K:        k,
		Restarts: r,
		Src:      s.src(streamKMeans),
		Select:   sel,
		Recorder: s.Recorder,
	})
	if err != nil {
		if ferr := finiteRows(x); ferr != nil {
			// The embedding, computed from finite inputs, overflowed.
			return nil, fmt.Errorf("%w: the embedding clustered by k-means has a %s: %w", ErrNumerical, strings.Replace(ferr.Error(), "feature", "non-finite entry", 1), err)
		}
		if errors.Is(err, kmeans.ErrNonFinite) {
			// Finite rows whose distortion overflowed.
			return nil, fmt.Errorf("%w: the rows clustered by k-means: %w", ErrNumerical, err)
		}
		return nil, fmt.Errorf("cluster: %w", err)
	}
	return res, nil
}

// violationSelect scores a partition by the weight of the pairs it
// violates; nil when there are no pairs (k-means then keeps the lowest
// distortion). It is the selection of thesis §4.5.1 and seed 003 §5.1:
// of the k-means runs, keep the one that violates the fewest constraints.
func violationSelect(pairs []constraint.Pair) func([]int) float64 {
	if len(pairs) == 0 {
		return nil
	}
	return func(labels []int) float64 { return violationWeight(pairs, labels) }
}

// violationWeight is Σ w_k over the pairs that labels violates. Cost
// O(len(pairs)).
func violationWeight(pairs []constraint.Pair, labels []int) float64 {
	v := 0.0
	for _, q := range pairs {
		same := labels[q.I] == labels[q.J]
		if same != (q.Kind == constraint.MustLink) {
			v += q.W()
		}
	}
	return v
}

func restarts(s *Settings, def int) int {
	if s.Restarts > 0 {
		return s.Restarts
	}
	return def
}

// nonEmptyClusters returns the number of non-empty clusters of labels among
// 0…k−1, or −1 when a label lies outside that range. O(n + k).
func nonEmptyClusters(labels []int, k int) int {
	seen := make([]bool, k)
	used := 0
	for _, l := range labels {
		if l < 0 || l >= k {
			return -1
		}
		if !seen[l] {
			seen[l] = true
			used++
		}
	}
	return used
}
