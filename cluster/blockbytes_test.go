package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
)

// TestMaxBlockBytes: Settings.MaxBlockBytes refuses, before allocating
// them, the n×K blocks of labelprop (closed form: 48·n·K bytes; Alg. 5:
// 16·n·K) and cvqe (2·8·(n·k + k² + k·d)) one byte below their size,
// with an error wrapping ErrInvalid naming the bytes needed, the bound
// and the remedy; at their size, and with no bound (0), the method runs
// and gives the same labels and objective as without the field. A
// labelprop with one class per labelled node (K = n/2, the CLI's
// 200 000 distinct classes in small) is refused under a bound of 1 MiB.
// A negative bound is refused as invalid Settings.
func TestMaxBlockBytes(t *testing.T) {
	g, truth := roBlobs(t, 300, 3, 0.3, 5)
	labels := roLabels(t, truth, 0.1, 1)
	x, _ := cvqeTiny(60, 2, 1, 9)
	n, d := x.Dims()
	// One class per labelled node: every other node labelled.
	many := make(constraint.Labels, g.N())
	for i := range many {
		many[i] = constraint.Unlabeled
		if i%2 == 0 {
			many[i] = i / 2
		}
	}
	for _, c := range []struct {
		name   string
		m      Method
		p      *Problem
		need   float64
		remedy string
	}{
		{"labelprop", LabelProp{}, &Problem{Graph: g, K: 3, Labels: labels}, 48 * 300 * 3, "fewer classes"},
		{"labelprop-iterative", LabelProp{Iterative: true, Tol: 1e-8}, &Problem{Graph: g, K: 3, Labels: labels}, 16 * 300 * 3, "fewer classes"},
		{"labelprop-strict", LabelProp{Strict: true}, &Problem{Graph: g, K: 3, Labels: labels}, 48 * 300 * 3, "fewer classes"},
		{"cvqe", CVQE{}, &Problem{Features: x, K: 3}, float64(2 * 8 * (n*3 + 9 + 3*d)), "smaller k"},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, err := Run(context.Background(), c.m, c.p, &Settings{Seed: 2})
			if err != nil {
				t.Fatal(err)
			}
			need := int64(c.need)
			_, err = Run(context.Background(), c.m, c.p, &Settings{Seed: 2, MaxBlockBytes: need - 1})
			if !errors.Is(err, ErrInvalid) || !errors.Is(err, ErrMemoryBound) || !strings.Contains(err.Error(), fmt.Sprintf("(%d bytes), more than the bound", need)) || !strings.Contains(err.Error(), c.remedy) || !strings.Contains(err.Error(), ": "+c.m.Name()+": ") {
				t.Errorf("bound %d, one byte below the blocks: %v; want ErrInvalid and ErrMemoryBound naming %d bytes and %q", need-1, err, need, c.remedy)
			}
			for _, bound := range []int64{need, 0} {
				got, err := Run(context.Background(), c.m, c.p, &Settings{Seed: 2, MaxBlockBytes: bound})
				if err != nil {
					t.Fatalf("bound %d: %v", bound, err)
				}
				if !slices.Equal(got.Labels, want.Labels) || got.Objective != want.Objective {
					t.Errorf("bound %d: objective %v, want %v as unbounded (labels equal: %v)", bound, got.Objective, want.Objective, slices.Equal(got.Labels, want.Labels))
				}
			}
		})
	}
	_, err := Run(context.Background(), LabelProp{}, &Problem{Graph: g, K: 150, Labels: many}, &Settings{MaxBlockBytes: 1 << 20})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "K = 150 classes") || !strings.Contains(err.Error(), "2.1 MiB") {
		t.Errorf("150 classes on 300 nodes under 1 MiB: %v; want ErrInvalid naming K and 2.1 MiB", err)
	}
	if _, err := Run(context.Background(), LabelProp{}, &Problem{Graph: g, K: 3, Labels: labels}, &Settings{MaxBlockBytes: -1}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Settings.MaxBlockBytes = -1") || errors.Is(err, ErrMemoryBound) {
		t.Errorf("negative bound: %v, want ErrInvalid (not ErrMemoryBound) naming the field", err)
	}
}
