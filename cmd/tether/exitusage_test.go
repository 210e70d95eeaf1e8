package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"gonum.org/v1/gonum/mat"
)

// TestExitUsageCommands: the exit status of whole command lines. A value
// the command line gave that the input rules out is a usage error (2)
// whether the command finds it (-k 301) or the library does once the
// input is known (a -set knob: cluster.ErrKnob; a graph flag:
// graph.ErrSpec; a generator's -n too small to cluster); an error of the
// data (a file of one row, constraints without a must-link for ccsr, a
// missing file) stays 1. Before, the -set, -max-full and -gen -n 1 lines
// exited 1.
func TestExitUsageCommands(t *testing.T) {
	cons := writeTemp(t, "c.txt", "0,1,ml\n0,299,cl\n")
	clOnly := writeTemp(t, "cl.txt", "0,299,cl\n")
	oneRow := writeTemp(t, "one.csv", "x,y\n1,2\n")
	moons := []string{"cluster", "-gen", "moons", "-n", "300", "-quiet"}
	for _, tc := range []struct {
		name string
		args []string
		want int
		msg  string // in standard error
	}{
		{"fgpwc M = n", append(moons, "-k", "2", "-method", "fgpwc", "-constraints", cons, "-set", "M=300"), 2, "M = 300, want M ≤ n − 1 = 299"},
		{"ccsr M = n", append(moons, "-k", "2", "-method", "ccsr", "-constraints", cons, "-set", "M=300"), 2, "M = 300, want 1 ≤ M < n = 300"},
		{"opplc Theta 0 with Alpha 0", append(moons, "-method", "opplc", "-constraints", cons, "-set", "Theta=0"), 2, "want α > −θ"},
		{"full graph above -max-full", append(moons, "-graph", "full", "-max-full", "10"), 2, "above the limit n ≤ 10"},
		{"gen -n 1", []string{"cluster", "-gen", "moons", "-n", "1", "-k", "1", "-quiet"}, 2, "-gen moons has 1 point; clustering needs at least 2: give -n 2 or more"},
		{"k above n", append(moons, "-k", "301"), 2, "-k 301 exceeds"},
		{"knn above n", append(moons, "-knn", "300"), 2, "-knn must be at most 299"},
		{"gen -n 0", []string{"cluster", "-gen", "moons", "-n", "0", "-quiet"}, 2, "n = 0"},
		{"knob in range", append(moons, "-k", "2", "-method", "ccsr", "-constraints", cons, "-set", "M=10"), 0, ""},
		// Errors of the data stay 1.
		{"ccsr without a must-link", append(moons, "-k", "2", "-method", "ccsr", "-constraints", clOnly), 1, "no must-link"},
		{"file of one row", []string{"cluster", "-input", oneRow, "-quiet"}, 1, "clustering needs at least 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
			err := m.Run(context.Background(), tc.args)
			if got := exitCode(context.Background(), err, &errb); got != tc.want {
				t.Errorf("exit %d, want %d: %v", got, tc.want, err)
			}
			if !strings.Contains(errb.String(), tc.msg) {
				t.Errorf("stderr lacks %q:\n%s", tc.msg, errb.String())
			}
		})
	}
}

// TestExitCodeLibraryUsage: exitCode reads cluster.ErrKnob and
// graph.ErrSpec, wrapped anywhere in the chain, as usage errors (2), and
// the other library errors (cluster.ErrInvalid alone, a numerical
// failure, a graph invalid for its data) as failures (1).
func TestExitCodeLibraryUsage(t *testing.T) {
	g, err := graph.FromEdges(2, []graph.Edge{{I: 0, J: 1, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	_, specErr := graph.Build(context.Background(), mat.NewDense(3, 1, []float64{0, 1, 2}), graph.Spec{Kind: graph.Full, MaxFull: -1})
	_, knobErr := cluster.Run(context.Background(), cluster.CCSR{M: 2}, &cluster.Problem{Graph: g, K: 2,
		Constraints: &constraint.Set{N: 2, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}}}, nil)
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"knob", knobErr, 2},
		{"knob, wrapped", fmt.Errorf("running: %w", knobErr), 2},
		{"graph spec", specErr, 2},
		{"invalid problem", fmt.Errorf("%w: ccsr: no must-link", cluster.ErrInvalid), 1},
		{"numerical", fmt.Errorf("%w: eigensolver", cluster.ErrNumerical), 1},
		{"invalid graph", fmt.Errorf("%w: weight NaN", graph.ErrInvalid), 1},
	} {
		if !errors.Is(knobErr, cluster.ErrKnob) || !errors.Is(specErr, graph.ErrSpec) {
			t.Fatalf("setup: %v, %v", knobErr, specErr)
		}
		if got := exitCode(context.Background(), tc.err, io.Discard); got != tc.want {
			t.Errorf("%s (%v): exit %d, want %d", tc.name, tc.err, got, tc.want)
		}
	}
}
