package graph

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// panicMessage runs f and returns the message it panics with, or "" when
// it returns normally.
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

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
			msg := panicMessage(func() { MeanVarianceSigma(c.data, c.n, c.d) })
			if !strings.Contains(msg, c.want) {
				t.Errorf("panic %q, want one containing %q", msg, c.want)
			}
		})
	}
}
