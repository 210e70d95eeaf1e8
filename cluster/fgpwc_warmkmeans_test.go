package cluster

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/kmeans"
	"github.com/tether-sc/tether/progress"
)

// oldWarmKMeansRestarts is the seeded-restart step of warmKMeans before
// it passed the run's settings on: runKMeans with Settings rebuilt from
// the Seed and the restart count alone. It is the oracle for the labels.
func oldWarmKMeansRestarts(ctx context.Context, emb *mat.Dense, k int, pairs []constraint.Pair, extra int, seed uint64) (*kmeans.Result, error) {
	return runKMeans(ctx, emb, k, &Settings{Seed: seed, Restarts: extra}, extra, violationSelect(pairs))
}

// oldWarmKMeans is warmKMeans as it was, restarts by the oracle above.
func oldWarmKMeans(ctx context.Context, emb *mat.Dense, k int, pairs []constraint.Pair, prev []int, extra int, s *Settings) ([]int, error) {
	if extra == 0 {
		extra = 2
	}
	sel := violationSelect(pairs)
	score := func(r *kmeans.Result) float64 {
		if sel == nil {
			return 0
		}
		return sel(r.Labels)
	}
	var best *kmeans.Result
	if nonEmptyClusters(prev, k) == k {
		r, err := kmeans.Cluster(ctx, emb, kmeans.Settings{K: k, Init: prev})
		if err != nil {
			return nil, err
		}
		best = r
	}
	if extra > 0 {
		r, err := oldWarmKMeansRestarts(ctx, emb, k, pairs, extra, s.Seed)
		if err != nil {
			return nil, err
		}
		if best == nil || score(r) < score(best) || (score(r) == score(best) && r.Distortion < best.Distortion) {
			best = r
		}
	}
	if best == nil {
		return fgpwcKMeans(ctx, emb, k, pairs, 1, s.Seed, s)
	}
	return best.Labels, nil
}

// TestWarmKMeansSettings checks that warmKMeans passes the run's settings
// to its seeded restarts: the labels are those of the old code, which
// rebuilt Settings from Seed and Restarts alone (same seeded stream), for
// every seed, restart count and start, whatever the other fields hold;
// and the Recorder receives one "kmeans" event per k-means run, numbered
// together: the warm run first (the old code reported only the seeded
// restarts, numbered on their own, and dropped the warm run's event).
func TestWarmKMeansSettings(t *testing.T) {
	ctx := context.Background()
	// Four overlapping blobs in 3-D, so that restarts from different
	// seeds end in different partitions and the selection matters.
	rnd := rand.New(rand.NewPCG(21, 4))
	const n, m, k = 300, 3, 4
	emb := mat.NewDense(n, m, nil)
	truth := make([]int, n)
	for i := range n {
		truth[i] = i % k
		for j := range m {
			c := 0.0
			if j == truth[i]%m {
				c = 2.5
			}
			emb.Set(i, j, c+rnd.NormFloat64())
		}
	}
	pairs := fgpwcOracle(rnd, truth, 40).Pairs
	bad := make([]int, n) // a poor start: contiguous blocks
	for i := range bad {
		bad[i] = i * k / n
	}
	oneEmpty := make([]int, n) // cluster k−1 empty: no warm run
	for i := range oneEmpty {
		oneEmpty[i] = i % (k - 1)
	}
	distinct := map[string]bool{}
	for _, seed := range []uint64{1, 2, 3, 17} {
		for _, extra := range []int{-1, 0, 1, 3, 7} {
			for name, prev := range map[string][]int{"truth": truth, "blocks": bad, "empty": oneEmpty} {
				for _, ps := range [][]constraint.Pair{nil, pairs} {
					if extra < 0 && nonEmptyClusters(prev, k) != k {
						continue
					}
					label := fmt.Sprintf("seed %d, extra %d, start %s, %d pairs", seed, extra, name, len(ps))
					want, err := oldWarmKMeans(ctx, emb, k, ps, prev, extra, &Settings{Seed: seed})
					if err != nil {
						t.Fatalf("%s: old: %v", label, err)
					}
					var log progress.Log
					s := &Settings{Seed: seed, Restarts: 9, MaxBlockBytes: 1 << 30, Recorder: &log}
					got, err := warmKMeans(ctx, emb, k, ps, prev, extra, s)
					if err != nil {
						t.Fatalf("%s: %v", label, err)
					}
					if !slices.Equal(got, want) {
						t.Errorf("%s: labels differ from the old code's in %d nodes", label, hamming(got, want))
					}
					// Every k-means run reports: the warm run when
					// prev has k non-empty clusters, then the seeded
					// restarts, extra of them (2 when extra is 0), none
					// when extra < 0; the fallback (extra < 0 with no
					// warm run) is skipped above.
					warm := nonEmptyClusters(prev, k) == k
					wantEvents := extra
					if extra == 0 {
						wantEvents = 2
					}
					if extra < 0 {
						wantEvents = 0
					}
					if warm {
						wantEvents++
					}
					ev := log.Events("kmeans")
					if len(ev) != wantEvents {
						t.Errorf("%s: the Recorder saw %d k-means events, want %d", label, len(ev), wantEvents)
					}
					for i, e := range ev {
						if e.Done != i+1 || e.Total != wantEvents {
							t.Errorf("%s: event %d is %d/%d, want %d/%d", label, i, e.Done, e.Total, i+1, wantEvents)
						}
						if isWarm := strings.HasPrefix(e.Message, "warm run: "); isWarm != (warm && i == 0) {
							t.Errorf("%s: event %d message %q: warm-run prefix %v, want %v", label, i, e.Message, isWarm, warm && i == 0)
						}
					}
					if extra > 0 {
						r, err := oldWarmKMeansRestarts(ctx, emb, k, ps, extra, seed)
						if err != nil {
							t.Fatal(err)
						}
						distinct[fmt.Sprint(r.Labels)] = true
					}
				}
			}
		}
	}
	// The fixture must let the seed change the outcome, or equal labels
	// would not show that the stream is the same.
	if len(distinct) < 3 {
		t.Errorf("the seeded restarts gave %d distinct partitions: the fixture does not tell streams apart", len(distinct))
	}
	// A cancelled context still stops the restarts.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := warmKMeans(cctx, emb, k, pairs, oneEmpty, 3, &Settings{Seed: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
}
