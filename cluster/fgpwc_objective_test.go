package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// newFGPWCObjective is newFGPWCObjectiveContext without cancellation or
// progress, for the tests: nil for an objective over Go's memory limit.
func newFGPWCObjective(v *mat.Dense, pairs []constraint.Pair, sigmaML, sigmaCL, gamma float64) *fgpwcObjective {
	o, _ := newFGPWCObjectiveContext(context.Background(), v, pairs, sigmaML, sigmaCL, gamma, 0, nil)
	return o
}

// eval is evalContext without cancellation, for the tests.
func (o *fgpwcObjective) eval(x *mat.Dense) float64 {
	f, _ := o.evalContext(context.Background(), x)
	return f
}

// gradTo is gradToContext without cancellation, for the tests.
func (o *fgpwcObjective) gradTo(dst, x *mat.Dense) {
	_ = o.gradToContext(context.Background(), dst, x)
}

// randomFGPWCProblem returns a random embedding v (n×m, entries N(0, scale²)),
// k random pairs with random kinds and, if weighted, random weights in
// [0.5, 2), and a random X near the identity.
func randomFGPWCProblem(rnd *rand.Rand, n, m, k int, scale float64, weighted bool) (v *mat.Dense, pairs []constraint.Pair, x *mat.Dense) {
	v = mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			v.Set(i, j, scale*rnd.NormFloat64())
		}
	}
	for len(pairs) < k {
		i, j := rnd.IntN(n), rnd.IntN(n)
		if i == j {
			continue
		}
		p := constraint.Pair{I: i, J: j, Kind: constraint.MustLink}
		if rnd.IntN(2) == 0 {
			p.Kind = constraint.CannotLink
		}
		if weighted {
			p.Weight = 0.5 + 1.5*rnd.Float64()
		}
		pairs = append(pairs, p)
	}
	x = mat.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			a := 0.3 * rnd.NormFloat64()
			if i == j {
				a++
			}
			x.Set(i, j, a)
		}
	}
	return v, pairs, x
}

// naiveF evaluates seed 003 eq. (1) (with weights) pair by pair from the
// rows of v, independently of the E = A − B formulation of the objective.
func naiveF(v, x *mat.Dense, pairs []constraint.Pair, sigmaML, sigmaCL, gamma float64) float64 {
	_, m := v.Dims()
	f := 0.0
	for _, p := range pairs {
		d := 0.0
		for c := 0; c < m; c++ {
			t := 0.0
			for r := 0; r < m; r++ {
				t += (v.At(p.I, r) - v.At(p.J, r)) * x.At(r, c)
			}
			d += t * t
		}
		sigma, q := sigmaML, 1.0
		if p.Kind == constraint.CannotLink {
			sigma, q = sigmaCL, 0
		}
		r := math.Exp(-d/sigma) - q
		f += p.W() * r * r
	}
	for r := 0; r < m; r++ {
		for c := 0; c < m; c++ {
			f += gamma * x.At(r, c) * x.At(r, c)
		}
	}
	return f
}

func TestFGPWCObjectiveValueAndGradient(t *testing.T) {
	// Expected values: the value from naiveF (pair-by-pair formula of seed
	// 003 eq. (1)); the gradient from central differences of naiveF with
	// step h = 1e-5, whose truncation error O(h²·F''') is far below the
	// tolerance at these scales.
	cases := []struct {
		n, m, k          int
		scale            float64
		sigmaML, sigmaCL float64
		gamma            float64
		weighted         bool
	}{
		{n: 5, m: 1, k: 2, scale: 0.3, sigmaML: 0.5, sigmaCL: 1.5},
		{n: 10, m: 2, k: 3, scale: 0.5, sigmaML: 0.15, sigmaCL: 1.5, gamma: 0.1},
		{n: 20, m: 3, k: 10, scale: 0.3, sigmaML: 0.5, sigmaCL: 0.5, gamma: 1e-3, weighted: true},
		{n: 30, m: 5, k: 40, scale: 0.2, sigmaML: 0.15, sigmaCL: 1.5, weighted: true},
		{n: 70, m: 10, k: 100, scale: 0.1, sigmaML: 1, sigmaCL: 2, gamma: 0.01},
	}
	for ci, tc := range cases {
		t.Run(fmt.Sprintf("n=%d,m=%d,k=%d", tc.n, tc.m, tc.k), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(ci), 7))
			v, pairs, x := randomFGPWCProblem(rnd, tc.n, tc.m, tc.k, tc.scale, tc.weighted)
			o := newFGPWCObjective(v, pairs, tc.sigmaML, tc.sigmaCL, tc.gamma)
			f := o.eval(x)
			want := naiveF(v, x, pairs, tc.sigmaML, tc.sigmaCL, tc.gamma)
			if math.Abs(f-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("F = %.15g, naive formula gives %.15g", f, want)
			}
			// Guard against a vacuous test: some similarities must be
			// strictly between 0 and 1, so the gradient is not ~0.
			mid := 0
			for _, g := range o.g {
				if g > 1e-3 && g < 1-1e-3 {
					mid++
				}
			}
			if mid == 0 {
				t.Fatalf("all similarities saturated; the test would be vacuous")
			}
			grad := mat.NewDense(tc.m, tc.m, nil)
			o.gradTo(grad, x)
			const h = 1e-5
			fd := mat.NewDense(tc.m, tc.m, nil)
			xp := mat.DenseCopyOf(x)
			for r := 0; r < tc.m; r++ {
				for c := 0; c < tc.m; c++ {
					x0 := x.At(r, c)
					xp.Set(r, c, x0+h)
					fp := naiveF(v, xp, pairs, tc.sigmaML, tc.sigmaCL, tc.gamma)
					xp.Set(r, c, x0-h)
					fm := naiveF(v, xp, pairs, tc.sigmaML, tc.sigmaCL, tc.gamma)
					xp.Set(r, c, x0)
					fd.Set(r, c, (fp-fm)/(2*h))
				}
			}
			scale := math.Max(1, mat.Norm(fd, math.Inf(1)))
			var diff mat.Dense
			diff.Sub(grad, fd)
			if e := mat.Norm(&diff, math.Inf(1)) / scale; e > 1e-6 {
				t.Errorf("relative gradient error %.3g > 1e-6\nanalytic %v\nfinite differences %v", e, mat.Formatted(grad), mat.Formatted(fd))
			}
		})
	}
}

func TestFGPWCInitial(t *testing.T) {
	// X₀ = S^{-1/2}: checked by the defining identities X₀ S X₀ = I and
	// X₀ = X₀ᵀ, and by the closed form diag(1/√λ) for diagonal S (the case
	// of exact eigenvectors, VᵀL_symV = diag(λ_2…λ_{m+1})).
	t.Run("diagonal", func(t *testing.T) {
		lam := []float64{0.01, 0.2, 0.5, 0.9}
		s := mat.NewSymDense(4, nil)
		for i, l := range lam {
			s.SetSym(i, i, l)
		}
		x0, clamped, err := fgpwcInitial(s)
		if err != nil || clamped != 0 {
			t.Fatalf("err %v, clamped %d", err, clamped)
		}
		for i := range lam {
			for j := range lam {
				want := 0.0
				if i == j {
					want = 1 / math.Sqrt(lam[i])
				}
				if math.Abs(x0.At(i, j)-want) > 1e-12*math.Max(1, want) {
					t.Errorf("X₀[%d,%d] = %g, want %g", i, j, x0.At(i, j), want)
				}
			}
		}
	})
	for _, m := range []int{1, 2, 3, 5, 10, 30} {
		t.Run(fmt.Sprintf("random SPD m=%d", m), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(m), 3))
			a := mat.NewDense(m, m, nil)
			for i := 0; i < m; i++ {
				for j := 0; j < m; j++ {
					a.Set(i, j, rnd.NormFloat64())
				}
			}
			s := mat.NewSymDense(m, nil)
			s.SymOuterK(1, a)
			for i := 0; i < m; i++ {
				s.SetSym(i, i, s.At(i, i)+0.1)
			}
			x0, clamped, err := fgpwcInitial(s)
			if err != nil || clamped != 0 {
				t.Fatalf("err %v, clamped %d", err, clamped)
			}
			var p mat.Dense
			p.Product(x0, s, x0)
			for i := 0; i < m; i++ {
				for j := 0; j < m; j++ {
					want := 0.0
					if i == j {
						want = 1
					}
					if math.Abs(p.At(i, j)-want) > 1e-9 {
						t.Fatalf("(X₀ S X₀)[%d,%d] = %g, want %g", i, j, p.At(i, j), want)
					}
					if x0.At(i, j) != x0.At(j, i) {
						t.Fatalf("X₀ not symmetric at %d,%d", i, j)
					}
				}
			}
		})
	}
	t.Run("singular is clamped", func(t *testing.T) {
		// S = diag(0, 0.04, 1): the zero eigenvalue is raised to the
		// smallest positive one, 0.04, so X₀ = diag(5, 5, 1).
		s := mat.NewSymDense(3, []float64{0, 0, 0, 0, 0.04, 0, 0, 0, 1})
		x0, clamped, err := fgpwcInitial(s)
		if err != nil {
			t.Fatal(err)
		}
		if clamped != 1 {
			t.Errorf("clamped = %d, want 1", clamped)
		}
		want := []float64{5, 5, 1}
		for i, w := range want {
			if math.Abs(x0.At(i, i)-w) > 1e-12 {
				t.Errorf("X₀[%d,%d] = %g, want %g", i, i, x0.At(i, i), w)
			}
		}
	})
	t.Run("zero gives the identity", func(t *testing.T) {
		x0, clamped, err := fgpwcInitial(mat.NewSymDense(2, nil))
		if err != nil || clamped != 2 || !mat.Equal(x0, mat.NewDense(2, 2, []float64{1, 0, 0, 1})) {
			t.Errorf("X₀ = %v, clamped %d, err %v; want I, 2, nil", mat.Formatted(x0), clamped, err)
		}
	})
	t.Run("NaN is an error", func(t *testing.T) {
		if _, _, err := fgpwcInitial(mat.NewSymDense(2, []float64{math.NaN(), 0, 0, 1})); err == nil {
			t.Error("no error for a NaN entry")
		}
	})
}

func TestFGPWCDescentMonotone(t *testing.T) {
	// Every optimizer only accepts decreasing steps: the recorded trace of
	// F must be strictly decreasing, start at F(X₀) and end at the
	// returned F, which naiveF confirms independently.
	for _, opt := range []FGPWCOptimizer{StepHalving, LBFGS} {
		for seed := uint64(0); seed < 4; seed++ {
			t.Run(fmt.Sprintf("%v/seed=%d", opt, seed), func(t *testing.T) {
				rnd := rand.New(rand.NewPCG(seed, 11))
				v, pairs, x0 := randomFGPWCProblem(rnd, 40, 6, 60, 0.2, seed%2 == 1)
				o := newFGPWCObjective(v, pairs, 0.15, 1.5, 1e-3)
				r, err := descend(context.Background(), o, x0, opt, descentStop{maxIter: 200, gradTol: 1e-12}, nil)
				if err != nil {
					t.Fatal(err)
				}
				f0 := naiveF(v, x0, pairs, 0.15, 1.5, 1e-3)
				if math.Abs(r.trace[0]-f0) > 1e-12*f0 {
					t.Errorf("trace starts at %g, F(X₀) = %g", r.trace[0], f0)
				}
				for i := 1; i < len(r.trace); i++ {
					if !(r.trace[i] < r.trace[i-1]) {
						t.Fatalf("F increased at accepted step %d: %g → %g", i, r.trace[i-1], r.trace[i])
					}
				}
				if len(r.trace) < 3 {
					t.Errorf("only %d accepted steps", len(r.trace)-1)
				}
				if got := naiveF(v, r.x, pairs, 0.15, 1.5, 1e-3); math.Abs(got-r.f) > 1e-10*math.Max(1, got) || r.f != r.trace[len(r.trace)-1] {
					t.Errorf("returned F = %g, trace ends at %g, naive F(X*) = %g", r.f, r.trace[len(r.trace)-1], got)
				}
				if r.f >= f0 {
					t.Errorf("F(X*) = %g not below F(X₀) = %g", r.f, f0)
				}
			})
		}
	}
}

func TestFGPWCLBFGSNotWorse(t *testing.T) {
	// The brief for the L-BFGS option: from the same X₀ and with the same
	// iteration cap it must reach the same or a lower F than the paper's
	// step halving. F is not convex and on random, mutually inconsistent
	// constraints the two can end in different local minima; on constraints
	// consistent with a planted partition (the setting of seed 003 §5.1)
	// they agree or L-BFGS goes lower. Tolerance 1e-6 relative.
	for seed := uint64(0); seed < 10; seed++ {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(seed, 5))
			v, pairs, x0 := plantedFGPWCProblem(rnd, 100, 8, 3, 80)
			o := newFGPWCObjective(v, pairs, 0.15, 1.5, 1e-3)
			half, err := descend(context.Background(), o, x0, StepHalving, descentStop{maxIter: 300, gradTol: 1e-14}, nil)
			if err != nil {
				t.Fatal(err)
			}
			lb, err := descend(context.Background(), o, x0, LBFGS, descentStop{maxIter: 300, gradTol: 1e-14}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if lb.f > half.f+1e-6*math.Max(1, half.f) {
				t.Errorf("L-BFGS F = %.10g > step halving F = %.10g", lb.f, half.f)
			}
			t.Logf("F(X₀) = %.6g, halving %.6g (%d it), L-BFGS %.6g (%d it)", half.trace[0], half.f, half.iterations, lb.f, lb.iterations)
		})
	}
}

func TestFGPWCNoConstraintsKeepsX0(t *testing.T) {
	// Without constraints and with γ = 0, F ≡ 0 and ∇F ≡ 0: every
	// optimizer must return X₀ unchanged after 0 iterations.
	rnd := rand.New(rand.NewPCG(1, 1))
	v, _, x0 := randomFGPWCProblem(rnd, 20, 4, 0, 1, false)
	o := newFGPWCObjective(v, nil, 0.15, 1.5, 0)
	for _, opt := range []FGPWCOptimizer{StepHalving, LBFGS} {
		r, err := descend(context.Background(), o, x0, opt, descentStop{maxIter: 100, gradTol: 1e-12}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(r.x, x0) || r.f != 0 || r.iterations != 0 || !r.converged {
			t.Errorf("%v: X changed or F = %g, iterations %d, converged %v", opt, r.f, r.iterations, r.converged)
		}
	}
}

func TestFGPWCDescentCancel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 2))
	v, pairs, x0 := randomFGPWCProblem(rnd, 20, 4, 30, 0.2, false)
	o := newFGPWCObjective(v, pairs, 0.15, 1.5, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, opt := range []FGPWCOptimizer{StepHalving, LBFGS} {
		if _, err := descend(ctx, o, x0, opt, descentStop{maxIter: 100, gradTol: 0}, nil); err != context.Canceled {
			t.Errorf("%v: err = %v, want context.Canceled", opt, err)
		}
	}
}

// plantedFGPWCProblem returns an embedding of n points in k clusters in
// R^m (centres N(0, 0.3²), points centre + N(0, 0.1²)), kk constraints
// consistent with the clusters, and X₀ = I.
func plantedFGPWCProblem(rnd *rand.Rand, n, m, k, kk int) (v *mat.Dense, pairs []constraint.Pair, x0 *mat.Dense) {
	centres := mat.NewDense(k, m, nil)
	for c := 0; c < k; c++ {
		for j := 0; j < m; j++ {
			centres.Set(c, j, 0.3*rnd.NormFloat64())
		}
	}
	truth := make([]int, n)
	v = mat.NewDense(n, m, nil)
	for i := range truth {
		truth[i] = i % k
		for j := 0; j < m; j++ {
			v.Set(i, j, centres.At(truth[i], j)+0.1*rnd.NormFloat64())
		}
	}
	for len(pairs) < kk {
		i, j := rnd.IntN(n), rnd.IntN(n)
		if i == j {
			continue
		}
		p := constraint.Pair{I: i, J: j, Kind: constraint.MustLink}
		if truth[i] != truth[j] {
			p.Kind = constraint.CannotLink
		}
		pairs = append(pairs, p)
	}
	x0 = mat.NewDense(m, m, nil)
	for j := 0; j < m; j++ {
		x0.Set(j, j, 1)
	}
	return v, pairs, x0
}

// MaxIter counts accepted L-BFGS steps: MaxIter = 1 takes one step (it
// used to take none, gonum counting the start as a major iteration), and
// the reported iterations equal the cap when the descent does not stop
// earlier (they used to be MaxIter − 2).
func TestFGPWCLBFGSIterationCount(t *testing.T) {
	p, _, _ := fgpwcMoonsProblem(t, 300, 200, 3)
	prev := math.Inf(1)
	for _, cap := range []int{1, 2, 3, 7} {
		f := NewFGPWC()
		f.MaxIter, f.FTol, f.ScaledRestart = cap, -1, false
		res, err := Run(context.Background(), f, p, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.Iterations != cap {
			t.Errorf("MaxIter %d: %d iterations reported", cap, res.Iterations)
		}
		if !(res.Objective < prev) {
			t.Errorf("MaxIter %d: F = %v, not below %v (fewer steps)", cap, res.Objective, prev)
		}
		prev = res.Objective
	}
	// MaxIter = 1 moved from X₀: its F is below F(X₀), which IterCV's cap 0
	// gives.
	x0 := fgpwcDescentAtCap(t, p, 0)
	one := fgpwcDescentAtCap(t, p, 1)
	if !(one.f < x0.f) {
		t.Errorf("one step: F = %v, F(X₀) = %v", one.f, x0.f)
	}
}

// fgpwcDescentAtCap runs the descent of NewFGPWC on p with the given cap.
func fgpwcDescentAtCap(t *testing.T, p *Problem, cap int) *descentResult {
	t.Helper()
	cfg, err := NewFGPWC().withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxIter, cfg.ScaledRestart = cap, false
	prep, err := cfg.prepare(context.Background(), p, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	d, err := prep.FGPWCBasis.descend(context.Background(), prep.pairs, nil, cfg, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestFGPWCObjectiveNodeForm checks the node form of the objective (used
// when the pairs touch fewer nodes than there are pairs) against the pair
// form E = A − B built row by row, on the same point: F and ∇F agree to
// rounding (1e-10 relative), with and without weights, for pair counts on
// both sides of the switch.
func TestFGPWCObjectiveNodeForm(t *testing.T) {
	for _, c := range []struct {
		n, m, k  int
		weighted bool
	}{
		{10, 3, 40, false}, {10, 3, 40, true}, {30, 5, 200, true}, {50, 4, 20, false},
	} {
		rnd := rand.New(rand.NewPCG(uint64(c.n), uint64(c.k)))
		v, pairs, x := randomFGPWCProblem(rnd, c.n, c.m, c.k, 0.5, c.weighted)
		o := newFGPWCObjective(v, pairs, 0.15, 1.5, 1e-3)
		u, _ := fgpwcCountNodes(context.Background(), pairs)
		if want := u < c.k; (o.e == nil) != want {
			t.Errorf("%+v: node form %v, want %v", c, o.e == nil, want)
		}
		// The pair form, forced.
		ref := newFGPWCObjective(v, pairs, 0.15, 1.5, 1e-3)
		ref.vu, ref.ia, ref.ib, ref.z, ref.gz = nil, nil, nil, nil, nil
		ref.e = mat.NewDense(c.k, c.m, nil)
		for k, p := range pairs {
			for j := 0; j < c.m; j++ {
				ref.e.Set(k, j, v.At(p.I, j)-v.At(p.J, j))
			}
		}
		f, fr := o.eval(x), ref.eval(x)
		if math.Abs(f-fr) > 1e-10*math.Abs(fr) {
			t.Errorf("%+v: F = %v, pair form %v", c, f, fr)
		}
		g, gr := mat.NewDense(c.m, c.m, nil), mat.NewDense(c.m, c.m, nil)
		o.gradTo(g, x)
		ref.gradTo(gr, x)
		var d mat.Dense
		d.Sub(g, gr)
		if mat.Norm(&d, 2) > 1e-10*mat.Norm(gr, 2) {
			t.Errorf("%+v: ‖∇F − ∇F_pair‖ = %v, ‖∇F_pair‖ = %v", c, mat.Norm(&d, 2), mat.Norm(gr, 2))
		}
	}
}

// TestFGPWCMemoryLimit: an objective whose blocks need more than the
// run's Settings.MaxBlockBytes is refused before it is allocated, with an
// error wrapping ErrInvalid and ErrMemoryBound naming the constraints, m,
// the bytes needed and the bound (10⁷ pairs at m ≈ 200 were killed for
// lack of memory), in Run, in the warm path (State), in IterCV's
// held-out descents and in CrossValidate; at the bound, and with none
// (0), the same problem runs and gives the same labels and objective.
// Go's soft memory limit (debug.SetMemoryLimit, GOMEMLIMIT) below the
// need refuses nothing: it is a GC target, not a bound (it was read as
// one before). The soft limit is the process's, so the test sets it for
// that run only.
func TestFGPWCMemoryLimit(t *testing.T) {
	p, truth := fgpwcBenchProblem(t, 400, 2, 2, 10, 2)
	set, err := constraint.UniformPairs(truth, 4000, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	p.Constraints = set
	f := FGPWC{M: 20, MaxIter: 5}
	need := fgpwcObjectiveBytes(4000, 20) // 2.0 MiB
	if need != 8*(3*4000*20+5*4000) {
		t.Fatalf("fgpwcObjectiveBytes(4000, 20) = %d, want %d", need, 8*(3*4000*20+5*4000))
	}
	want, err := Run(context.Background(), f, p, &Settings{Seed: 1})
	if err != nil {
		t.Fatalf("no bound: %v", err)
	}
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrInvalid) || !errors.Is(err, ErrMemoryBound) || !strings.Contains(err.Error(), "for 4000 constraints on an embedding of m = 20 columns need about 2.0 MiB (2080000 bytes)") || !strings.Contains(err.Error(), "more than the bound of 1015.6 KiB (Settings.MaxBlockBytes = 1040000)") || !strings.Contains(err.Error(), "lower M (or MaxM)") {
			t.Errorf("%s under MaxBlockBytes = need/2: %v; want ErrInvalid and ErrMemoryBound naming the need, the bound and the remedy", what, err)
		}
	}
	_, err = Run(context.Background(), f, p, &Settings{Seed: 1, MaxBlockBytes: need / 2})
	refused("Run", err)
	// The warm descent (descendFrom) of a state after a cold call.
	st, err := f.NewState(context.Background(), p.Graph, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Cluster(context.Background(), p, &Settings{Seed: 1}, FGPWCWarm{Descent: true}); err != nil {
		t.Fatalf("cold state call: %v", err)
	}
	_, err = st.Cluster(context.Background(), p, &Settings{Seed: 1, MaxBlockBytes: need / 2}, FGPWCWarm{Descent: true})
	refused("warm State.Cluster", err)
	// IterCV and CrossValidate descend on training folds (4/5 of the
	// pairs: 0.8·need > need/2) before any fit on all of them.
	_, err = Run(context.Background(), FGPWC{M: 20, MaxIter: 5, IterCV: true}, p, &Settings{Seed: 1, MaxBlockBytes: need / 2})
	if !errors.Is(err, ErrMemoryBound) || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Settings.MaxBlockBytes = 1040000") {
		t.Errorf("IterCV under MaxBlockBytes = need/2: %v; want ErrInvalid and ErrMemoryBound naming the bound", err)
	}
	_, err = f.CrossValidate(context.Background(), p, &Settings{Seed: 1, MaxBlockBytes: need / 2}, []float64{0.5}, []float64{1})
	if !errors.Is(err, ErrMemoryBound) || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "Settings.MaxBlockBytes = 1040000") {
		t.Errorf("CrossValidate under MaxBlockBytes = need/2: %v; want ErrInvalid and ErrMemoryBound naming the bound", err)
	}
	for _, bound := range []int64{need, 0} {
		got, err := Run(context.Background(), f, p, &Settings{Seed: 1, MaxBlockBytes: bound})
		if err != nil {
			t.Fatalf("MaxBlockBytes = %d: %v", bound, err)
		}
		if !slices.Equal(got.Labels, want.Labels) || got.Objective != want.Objective {
			t.Errorf("MaxBlockBytes = %d: objective %v, want %v as unbounded (labels equal: %v)", bound, got.Objective, want.Objective, slices.Equal(got.Labels, want.Labels))
		}
	}
	old := debug.SetMemoryLimit(need / 2)
	got, err := Run(context.Background(), f, p, &Settings{Seed: 1})
	debug.SetMemoryLimit(old)
	if err != nil {
		t.Fatalf("soft limit (GOMEMLIMIT) %d below the need %d, no MaxBlockBytes: %v; want no refusal", need/2, need, err)
	}
	if !slices.Equal(got.Labels, want.Labels) || got.Objective != want.Objective {
		t.Errorf("soft limit below the need: objective %v, want %v", got.Objective, want.Objective)
	}
}
