package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/eigen/eigentest"
	"github.com/tether-sc/tether/graph"
)

// nearlyDisconnected is four rings of 150 nodes (each node linked to its
// two neighbours on either side, unit weights) chained by single edges of
// weight 1e-9, 3e-9 and 1e-8, plus six pendant nodes hanging from ring 0
// by edges of weights 1e-10 to 3e-9: 606 nodes, above DenseLimit, so the
// default solve is iterative. Its L = D − W has ten eigenvalues below
// 10⁻⁸ (the six pendants' and the chain's three), below Lanczos'
// resolution 10⁻⁸·‖L‖ ≈ 10⁻⁷; L_sym has the chain's three, near 10⁻¹¹.
func nearlyDisconnected(tb testing.TB) *graph.Graph {
	tb.Helper()
	const ring, rings = 150, 4
	var es []graph.Edge
	for r := 0; r < rings; r++ {
		for i := 0; i < ring; i++ {
			for step := 1; step <= 2; step++ {
				es = append(es, graph.Edge{I: r*ring + i, J: r*ring + (i+step)%ring, W: 1})
			}
		}
	}
	for r, w := range []float64{1e-9, 3e-9, 1e-8} {
		es = append(es, graph.Edge{I: r*ring + 7, J: (r+1)*ring + 70, W: w})
	}
	for p, w := range []float64{1e-10, 2e-10, 5e-10, 1e-9, 2e-9, 3e-9} {
		es = append(es, graph.Edge{I: rings*ring + p, J: 20 * p, W: w})
	}
	g, err := graph.FromEdges(rings*ring+6, es)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// TestShiftInvertResolvesTinyEigenvalues checks the default embedding of a
// graph whose smallest eigenvalues lie below the iterative solver's
// resolution against the dense solver: laplacianEmbedding solves it again
// by shift-and-invert, whose eigenvalues must agree with the dense ones to
// 10⁻⁶ relative (10⁻¹³·‖L‖ absolute for the smallest) and whose subspace
// must equal the dense one (the eigenvalues are distinct: sine of the
// largest principal angle ≤ 10⁻⁶), with a warning that says so.
func TestShiftInvertResolvesTinyEigenvalues(t *testing.T) {
	ctx := context.Background()
	g := nearlyDisconnected(t)
	for _, tc := range []struct {
		kind     graph.LaplacianKind
		count    int
		subspace bool // compare the subspaces (the count-th eigenvalue is not repeated)
	}{
		{graph.Unnormalized, 10, true}, // 0 and the nine below 10⁻⁸; the next is a repeated one
		{graph.Symmetric, 4, true},
		// Far beyond the tiny ones, to λ ≈ 0.1: these are resolved by the
		// iterative solve of step 2, not by the shift-and-invert one.
		{graph.Unnormalized, 60, false},
		{graph.Symmetric, 60, false},
	} {
		t.Run(fmt.Sprintf("%v/%d", tc.kind, tc.count), func(t *testing.T) {
			got, err := laplacianEmbedding(ctx, g, tc.kind, tc.count, exactLaplacian, &Settings{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := laplacianEmbedding(ctx, g, tc.kind, tc.count, exactLaplacian, &Settings{Eigen: eigen.Dense{}})
			if err != nil {
				t.Fatal(err)
			}
			norm := laplacianNormBound(tc.kind, g.Degrees())
			for j, w := range want.values {
				if d := math.Abs(got.values[j] - w); d > 1e-6*w+1e-13*norm {
					t.Errorf("eigenvalue %d: %.6g, dense %.6g", j, got.values[j], w)
				}
			}
			if tc.subspace {
				if sin := eigentest.SinMaxAngle(got.vectors, want.vectors, nil); sin > 1e-6 {
					t.Errorf("subspaces differ: sine of the largest principal angle %.3g", sin)
				}
			}
			if !slices.ContainsFunc(got.warnings, func(w string) bool { return strings.Contains(w, "resolved by a shift-and-invert solve") }) {
				t.Errorf("warnings %q do not name the shift-and-invert solve", got.warnings)
			}
			// The problem is real: Lanczos alone, with the same tolerance,
			// warns (and, on this graph, misses eigenvalues; logged).
			lz, err := laplacianEmbedding(ctx, g, tc.kind, tc.count, exactLaplacian, &Settings{Eigen: eigen.Lanczos{}})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(lz.warnings, func(w string) bool { return strings.Contains(w, "below the eigensolver's resolution") }) {
				t.Errorf("Lanczos alone: no resolution warning (%q): the graph does not test the shift-and-invert path", lz.warnings)
			}
			t.Logf("dense %.4g\nshift-invert %.4g\nLanczos %.4g", want.values, got.values, lz.values)
		})
	}
}

// TestShiftInvertOverBudget checks that a factor above the budget keeps
// the iterative result and says why in the warning.
func TestShiftInvertOverBudget(t *testing.T) {
	g := nearlyDisconnected(t)
	z := nullBasis(g, make([]int, g.N()), 1, 1, false)
	// A budget of zero multiply-adds: any factor is over it.
	op, err := graph.NewLaplacian(g, graph.Unnormalized)
	if err != nil {
		t.Fatal(err)
	}
	vals, vecs, why, err := shiftInvertEmbedding(context.Background(), g, op, graph.Unnormalized, 3, z, []float64{0, 1e-10, 1}, 1e-7, 2*g.MaxDegree(), 0, false, shiftInvertRounds, false, &Settings{})
	if err != nil || vals != nil || vecs != nil || !strings.Contains(why, "above its budget") {
		t.Errorf("over budget: %v, %v, %q, %v", vals, vecs, why, err)
	}
}

// TestAcceptedPrefix checks the acceptance of step 1's pairs on a diagonal
// matrix diag(1e-12, 1e-3, 0.5, 2) with its exact eigenvectors: exact
// values are accepted, a value off by more than floor ends the prefix,
// and a value below floor is accepted whatever its residual.
func TestAcceptedPrefix(t *testing.T) {
	a := eigen.NewMatrix(mat.NewSymDense(4, []float64{1e-12, 0, 0, 0, 0, 1e-3, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 2}))
	v := mat.NewDense(4, 4, []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1})
	const floor = 1e-6
	for _, tc := range []struct {
		values []float64
		want   int
	}{
		{[]float64{1e-12, 1e-3, 0.5, 2}, 4},
		{[]float64{1e-12, 1e-3, 0.5 + 2e-6, 2}, 2},
		{[]float64{5e-7, 1e-3 + 5e-7, 0.5, 2}, 4}, // below floor, and within floor
		{[]float64{1e-12, 1e-3 + 2e-6, 0.5, 2}, 1},
	} {
		if got := acceptedPrefix(a, tc.values, v, floor); got != tc.want {
			t.Errorf("values %v: accepted %d, want %d", tc.values, got, tc.want)
		}
	}
	// More pairs than acceptedBlock: diag(1, 2, …, 70) with the identity's
	// columns; one value off by 10⁻⁵ in the second block, the third (short)
	// block, or none.
	const m = 2*acceptedBlock + 6
	d := mat.NewSymDense(m, nil)
	for i := range m {
		d.SetSym(i, i, float64(i+1))
	}
	id := mat.NewDense(m, m, nil)
	for i := range m {
		id.Set(i, i, 1)
	}
	for _, wrong := range []int{acceptedBlock + 3, 2*acceptedBlock + 1, m} {
		values := make([]float64, m)
		for i := range values {
			values[i] = float64(i + 1)
		}
		if wrong < m {
			values[wrong] += 1e-5
		}
		if got := acceptedPrefix(eigen.NewMatrix(d), values, id, floor); got != wrong {
			t.Errorf("%d pairs, pair %d off: accepted %d, want %d", m, wrong, got, wrong)
		}
	}
}

// TestShiftInvertBudget checks the factor's budget: the work already spent
// (2·(nnz + n) per product), at least 10⁹ and at most 2·10¹⁰.
func TestShiftInvertBudget(t *testing.T) {
	for _, tc := range []struct {
		matVecs, nnz, n int
		want            float64
	}{
		{0, 72240, 4601, 1e9},
		{100, 72240, 4601, 1e9},                     // 1.5·10⁷ spent
		{1000, 19926712, 4601, 2 * 1000 * 19931313}, // 4·10¹⁰ → capped below
		{100, 19926712, 4601, 100 * 2 * 19931313},
	} {
		want := min(tc.want, 2e10)
		if got := shiftInvertBudget(RepairAuto, tc.matVecs, tc.nnz, tc.n); got != want {
			t.Errorf("budget(%d, %d, %d) = %.4g, want %.4g", tc.matVecs, tc.nnz, tc.n, got, want)
		}
		if got := shiftInvertBudget(RepairAlways, tc.matVecs, tc.nnz, tc.n); got != 2e10 {
			t.Errorf("RepairAlways: budget(%d, %d, %d) = %.4g, want 2e10", tc.matVecs, tc.nnz, tc.n, got)
		}
	}
}

// TestShiftInvertWithoutNullVectors runs the repair with no deflated null
// vectors (z nil, so step 1 computes the zero eigenvalue too) and
// compares its eigenvalues with the dense solver's.
func TestShiftInvertWithoutNullVectors(t *testing.T) {
	ctx := context.Background()
	g := nearlyDisconnected(t)
	op, err := graph.NewLaplacian(g, graph.Unnormalized)
	if err != nil {
		t.Fatal(err)
	}
	norm := laplacianNormBound(graph.Unnormalized, g.Degrees())
	floor := defaultEigenTol * norm
	vals, vecs, why, err := shiftInvertEmbedding(ctx, g, op, graph.Unnormalized, 14, nil, []float64{1e-10, 1e-9}, floor, norm, shiftInvertMaxFlops, false, shiftInvertRounds, false, &Settings{})
	if err != nil || vecs == nil {
		t.Fatalf("repair not made: %q, %v", why, err)
	}
	want, err := laplacianEmbedding(ctx, g, graph.Unnormalized, 14, exactLaplacian, &Settings{Eigen: eigen.Dense{}})
	if err != nil {
		t.Fatal(err)
	}
	for j, w := range want.values {
		if d := math.Abs(vals[j] - w); d > 1e-6*w+1e-13*norm {
			t.Errorf("eigenvalue %d: %.6g, dense %.6g", j, vals[j], w)
		}
	}
}

// TestRepairModes checks Settings.Repair on the graph of
// TestShiftInvertResolvesTinyEigenvalues: RepairAlways repairs as the
// default does there (its repair is within the automatic budget), and
// RepairNever keeps Lanczos' result and the resolution warning.
func TestRepairModes(t *testing.T) {
	ctx := context.Background()
	g := nearlyDisconnected(t)
	repaired := func(e *embedding) bool {
		return slices.ContainsFunc(e.warnings, func(w string) bool { return strings.Contains(w, "resolved by a shift-and-invert solve") })
	}
	def, err := laplacianEmbedding(ctx, g, graph.Unnormalized, 10, exactLaplacian, &Settings{})
	if err != nil {
		t.Fatal(err)
	}
	always, err := laplacianEmbedding(ctx, g, graph.Unnormalized, 10, exactLaplacian, &Settings{Repair: RepairAlways})
	if err != nil {
		t.Fatal(err)
	}
	never, err := laplacianEmbedding(ctx, g, graph.Unnormalized, 10, exactLaplacian, &Settings{Repair: RepairNever})
	if err != nil {
		t.Fatal(err)
	}
	if !repaired(def) || !repaired(always) || !slices.Equal(def.values, always.values) {
		t.Errorf("auto and always: repaired %v, %v; values %.4g, %.4g", repaired(def), repaired(always), def.values, always.values)
	}
	if repaired(never) || !slices.ContainsFunc(never.warnings, func(w string) bool { return strings.Contains(w, "below the eigensolver's resolution") }) {
		t.Errorf("never: warnings %q", never.warnings)
	}
	if _, err := Run(ctx, Unnormalized{}, &Problem{Graph: g, K: 3}, &Settings{Repair: Repair(7)}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Settings.Repair") {
		t.Errorf("Repair(7): error %v, want ErrInvalid naming Settings.Repair", err)
	}
	for r, want := range map[Repair]string{RepairAuto: "auto", RepairAlways: "always", RepairNever: "never", Repair(7): "Repair(7)"} {
		if r.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(r), r.String(), want)
		}
	}
	var r Repair
	if err := r.UnmarshalText([]byte("ALWAYS")); err != nil || r != RepairAlways {
		t.Errorf("UnmarshalText(ALWAYS) = %v, %v", r, err)
	}
	if err := r.UnmarshalText([]byte("sometimes")); !errors.Is(err, ErrInvalid) {
		t.Errorf("UnmarshalText(sometimes): error %v, want ErrInvalid", err)
	}
	if b, err := RepairNever.MarshalText(); err != nil || string(b) != "never" {
		t.Errorf("MarshalText(RepairNever) = %q, %v", b, err)
	}
}

// TestShiftInvertRepairsNoConvergence checks the repair of an iterative
// solve that does not converge, on a 5000-node path (unit weights), whose
// small eigenvalues are clustered (Lanczos on L reaches its 1000 restarts
// for 14 pairs; here its budget is cut to 30 restarts to keep the test
// short) and known in closed form: 2 − 2cos(πj/n) for L, 1 − cos(πj/(n −
// 1)) for L_sym, j = 0, 1, …. The repaired values must match to 10⁻⁹
// relative and the vectors of L the closed form cos(πj(i + ½)/n) (sine
// of the largest principal angle ≤ 10⁻⁶); the warning says what was done.
// With RepairNever the non-convergence is reported as before.
func TestShiftInvertRepairsNoConvergence(t *testing.T) {
	ctx := context.Background()
	const n, count = 5000, 14
	g := pathGraph(t, n)
	short := &eigen.Settings{Tol: defaultEigenTol, MaxIter: 30}
	for _, kind := range []graph.LaplacianKind{graph.Unnormalized, graph.Symmetric} {
		t.Run(kind.String(), func(t *testing.T) {
			never, err := laplacianEmbedding(ctx, g, kind, count, exactLaplacian, &Settings{EigenSettings: short, Repair: RepairNever})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(never.warnings, func(w string) bool { return strings.Contains(w, "no convergence") }) {
				t.Fatalf("the iterative solve converged within 30 restarts (warnings %q): the test needs a harder case", never.warnings)
			}
			got, err := laplacianEmbedding(ctx, g, kind, count, exactLaplacian, &Settings{EigenSettings: short})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(got.warnings, func(w string) bool {
				return strings.Contains(w, "did not converge to") && strings.Contains(w, "resolved by a shift-and-invert solve")
			}) {
				t.Errorf("warnings %q: want the repair of a solve that did not converge", got.warnings)
			}
			for j, v := range got.values {
				want := 2 - 2*math.Cos(math.Pi*float64(j)/n)
				if kind == graph.Symmetric {
					want = 1 - math.Cos(math.Pi*float64(j)/(n-1))
				}
				if d := math.Abs(v - want); d > 1e-9*want+1e-15 {
					t.Errorf("eigenvalue %d: %.12g, closed form %.12g", j, v, want)
				}
			}
			if kind == graph.Unnormalized {
				exact := mat.NewDense(n, count, nil)
				for j := 0; j < count; j++ {
					var nrm float64
					for i := 0; i < n; i++ {
						x := math.Cos(math.Pi * float64(j) * (float64(i) + 0.5) / n)
						exact.Set(i, j, x)
						nrm += x * x
					}
					for i := 0; i < n; i++ {
						exact.Set(i, j, exact.At(i, j)/math.Sqrt(nrm))
					}
				}
				if sin := eigentest.SinMaxAngle(got.vectors, exact, nil); sin > 1e-6 {
					t.Errorf("sine of the largest angle to the closed-form subspace %.3g > 1e-6", sin)
				}
			}
		})
	}
}

// TestShiftInvertEarly checks the early switch of laplacianEmbedding: with
// the default eigensolver settings (1000 restarts) a Lanczos solve that
// has not converged in shiftInvertAfter restarts is handed to
// shift-and-invert at once, on the 5000-node path of
// TestShiftInvertRepairsNoConvergence (L, 14 pairs, closed-form
// eigenvalues 2 − 2cos(πj/n) to 10⁻⁹ relative), and says so; a graph
// whose solve converges within them (four chained rings, L_sym) gives the
// full solve's result exactly.
func TestShiftInvertEarly(t *testing.T) {
	ctx := context.Background()
	const n, count = 5000, 14
	g := pathGraph(t, n)
	got, err := laplacianEmbedding(ctx, g, graph.Unnormalized, count, exactLaplacian, &Settings{})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("had not converged to in %d restarts were resolved by a shift-and-invert solve", shiftInvertAfter)
	if !slices.ContainsFunc(got.warnings, func(w string) bool { return strings.Contains(w, want) }) {
		t.Errorf("warnings %q: want %q", got.warnings, want)
	}
	for j, v := range got.values {
		if w := 2 - 2*math.Cos(math.Pi*float64(j)/n); math.Abs(v-w) > 1e-9*w+1e-15 {
			t.Errorf("eigenvalue %d: %.12g, closed form %.12g", j, v, w)
		}
	}
	// Converged within the cap: the same pairs as with the full budget
	// (RepairNever takes the uncapped path). Four 150-node rings chained
	// by unit edges: no eigenvalue below the resolution.
	var re []graph.Edge
	for r := 0; r < 4; r++ {
		for i := 0; i < 150; i++ {
			re = append(re, graph.Edge{I: r*150 + i, J: r*150 + (i+1)%150, W: 1}, graph.Edge{I: r*150 + i, J: r*150 + (i+2)%150, W: 1})
		}
		if r > 0 {
			re = append(re, graph.Edge{I: r*150 - 1, J: r * 150, W: 1})
		}
	}
	rings, err := graph.FromEdges(600, re)
	if err != nil {
		t.Fatal(err)
	}
	capped, err := laplacianEmbedding(ctx, rings, graph.Symmetric, 3, exactLaplacian, &Settings{})
	if err != nil {
		t.Fatal(err)
	}
	full, err := laplacianEmbedding(ctx, rings, graph.Symmetric, 3, exactLaplacian, &Settings{Repair: RepairNever})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(capped.values, full.values) || !mat.Equal(capped.vectors, full.vectors) {
		t.Errorf("capped solve %v differs from the full one %v", capped.values, full.values)
	}
}

// pathGraph is the path 0 − 1 − … − (n−1) with unit weights.
func pathGraph(tb testing.TB, n int) *graph.Graph {
	tb.Helper()
	es := make([]graph.Edge, n-1)
	for i := range es {
		es[i] = graph.Edge{I: i, J: i + 1, W: 1}
	}
	g, err := graph.FromEdges(n, es)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}
