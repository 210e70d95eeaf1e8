package graph

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testpanic"
)

func TestMeanVarianceSigmaSizes(t *testing.T) {
	for _, c := range []struct {
		name string
		data []float64
		n, d int
		want float64
	}{
		{"empty", nil, 0, 0, 0},
		{"no rows", nil, 0, 3, 0},
		{"no columns", nil, 5, 0, 0},
		{"one row", []float64{1, 2}, 1, 2, 0},
		// Column variances 0.5 and 2: σ = √1.25.
		{"two rows", []float64{1, 0, 2, 2}, 2, 2, math.Sqrt(1.25)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := MeanVarianceSigma(c.data, c.n, c.d); math.Abs(got-c.want) > 1e-15 {
				t.Errorf("MeanVarianceSigma = %v, want %v", got, c.want)
			}
		})
	}
}

func TestMeanVarianceSigmaPanics(t *testing.T) {
	for _, c := range []struct {
		name string
		data []float64
		n, d int
		want string
	}{
		{"short", []float64{1, 2}, 3, 2, "graph: MeanVarianceSigma: len(data) = 2, want n·d with n = 3, d = 2"},
		{"long", []float64{1, 2, 3}, 1, 2, "graph: MeanVarianceSigma: len(data) = 3, want n·d with n = 1, d = 2"},
		{"data without columns", []float64{1}, 1, 0, "len(data) = 1, want n·d with n = 1, d = 0"},
		{"negative n", nil, -1, 2, "graph: MeanVarianceSigma: negative dimension n = -1, d = 2"},
		{"negative d", nil, 2, -1, "graph: MeanVarianceSigma: negative dimension n = 2, d = -1"},
		{"overflow", nil, math.MaxInt/2 + 1, 2, fmt.Sprintf("len(data) = 0, want n·d with n = %d, d = 2", math.MaxInt/2+1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := testpanic.Message(func() { MeanVarianceSigma(c.data, c.n, c.d) })
			if !strings.Contains(msg, c.want) {
				t.Errorf("panic %q, want one containing %q", msg, c.want)
			}
		})
	}
}

func TestRecallPanics(t *testing.T) {
	// Three points with K = 2, and the same lists with K = 1 and K = 3.
	nb2 := &Neighbors{K: 2, Index: []int32{1, 2, 0, 2, 0, 1}, Dist2: []float64{1, 4, 1, 2, 2, 4}}
	nb1 := &Neighbors{K: 1, Index: []int32{1, 0, 0}, Dist2: []float64{1, 1, 2}}
	nb3 := &Neighbors{K: 3, Index: []int32{1, 2, 3, 0, 2, 3}, Dist2: []float64{1, 4, 5, 1, 2, 3}}
	one2 := &Neighbors{K: 2, Index: []int32{1, 2}, Dist2: []float64{1, 4}}
	for _, c := range []struct {
		name          string
		approx, exact *Neighbors
		rows          []int
		want          string
	}{
		{"K 2 against 3", nb2, nb3, nil, "graph: Recall: approx has K = 2, exact has K = 3; both must have the same K"},
		{"K 2 against 1", nb2, nb1, nil, "graph: Recall: approx has K = 2, exact has K = 1"},
		{"nil approx", nil, nb2, nil, "graph: Recall: approx is nil"},
		{"nil exact", nb2, nil, nil, "graph: Recall: exact is nil"},
		{"negative K", &Neighbors{K: -1}, nb2, nil, "graph: Recall: approx has K = -1"},
		{"short Dist2", nb2, &Neighbors{K: 2, Index: []int32{1, 2}, Dist2: []float64{1}}, nil,
			"graph: Recall: exact has 2 indices and 1 distances"},
		{"partial row", &Neighbors{K: 2, Index: []int32{1, 2, 0}, Dist2: []float64{1, 2, 3}}, nb2, nil,
			"graph: Recall: approx has 3 entries, not a multiple of K = 2"},
		{"entries with K 0", &Neighbors{Index: []int32{1}, Dist2: []float64{1}}, &Neighbors{}, nil,
			"graph: Recall: approx has 1 entries, not a multiple of K = 0"},
		{"row counts differ", nb2, one2, nil, "graph: Recall: approx has 3 rows, exact has 1 and rows is nil"},
		{"rows too short", nb2, nb2, []int{0}, "graph: Recall: rows has 1 entries, exact has 3 rows"},
		{"rows too long", nb2, one2, []int{0, 1}, "graph: Recall: rows has 2 entries, exact has 1 rows"},
		{"row past approx", nb2, one2, []int{3}, "graph: Recall: rows[0] = 3 outside [0,3)"},
		{"negative row", nb2, one2, []int{-1}, "graph: Recall: rows[0] = -1 outside [0,3)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			msg := testpanic.Message(func() { Recall(c.approx, c.exact, c.rows) })
			if !strings.Contains(msg, c.want) {
				t.Errorf("panic %q, want one containing %q", msg, c.want)
			}
		})
	}
	// The boundaries of the contract do not panic: no rows gives NaN,
	// identical lists recall 1, and a sample of the last row is valid.
	if got := Recall(&Neighbors{K: 2}, &Neighbors{K: 2}, nil); !math.IsNaN(got) {
		t.Errorf("empty Recall = %v, want NaN", got)
	}
	if got := Recall(&Neighbors{}, &Neighbors{}, nil); !math.IsNaN(got) {
		t.Errorf("K = 0 Recall = %v, want NaN", got)
	}
	if got := Recall(nb2, nb2, nil); got != 1 {
		t.Errorf("Recall of identical lists = %v, want 1", got)
	}
	if got := Recall(nb2, &Neighbors{K: 2, Index: []int32{0, 1}, Dist2: []float64{2, 4}}, []int{2}); got != 1 {
		t.Errorf("sampled Recall of the last row = %v, want 1", got)
	}
}
