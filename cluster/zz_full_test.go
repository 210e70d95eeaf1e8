package cluster

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/tether-sc/tether/dataset/catalog"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/eigen/eigentest"
	"github.com/tether-sc/tether/graph"
)

func TestZZFull(t *testing.T) {
	ctx := context.Background()
	d, err := catalog.Load("spambase", "../../shared/datasets", nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(ctx, d.Table.X, graph.Spec{Kind: graph.Full, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaLocal}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(s *Settings) (*embedding, time.Duration) {
		t0 := time.Now()
		e, err := laplacianEmbedding(ctx, g, graph.Unnormalized, 11, exactLaplacian, s)
		if err != nil {
			t.Fatal(err)
		}
		return e, time.Since(t0)
	}
	auto, ta := run(&Settings{})
	never, tn := run(&Settings{Repair: RepairNever})
	dense, td := run(&Settings{Eigen: eigen.Dense{}})
	fmt.Printf("auto %v: %.4g\n%q\nnever %v: %.4g\ndense %v: %.4g\n", ta, auto.values, auto.warnings, tn, never.values, td, dense.values)
	md := 0.0
	for i := range auto.values {
		md = math.Max(md, math.Abs(auto.values[i]-dense.values[i]))
	}
	fmt.Printf("max |auto - dense| = %.3g; sin angle %.3g\n", md, eigentest.SinMaxAngle(auto.vectors, dense.vectors, nil))
}
