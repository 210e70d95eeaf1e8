package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
)

// pollCtx is a context that counts the calls of its Err method and is
// cancelled from the limit-th call on (never when limit is 0): the
// limit-th poll, whichever goroutine makes it, returns context.Canceled, and
// so does every later one; Done is closed at that moment. It makes a
// cancellation at a given point of a computation deterministic: no timer,
// no scheduler involved.
type pollCtx struct {
	context.Context
	limit int64
	calls atomic.Int64
	once  sync.Once
	done  chan struct{}
}

func newPollCtx(limit int64) *pollCtx {
	return &pollCtx{Context: context.Background(), limit: limit, done: make(chan struct{})}
}

func (c *pollCtx) Done() <-chan struct{} { return c.done }

func (c *pollCtx) Err() error {
	if k := c.calls.Add(1); c.limit > 0 && k >= c.limit {
		c.once.Do(func() { close(c.done) })
		return context.Canceled
	}
	return nil
}

// randomSPD returns BᵀB + I for an n×n B of uniform entries (fixed seed).
func randomSPD(n int, seed uint64) *mat.SymDense {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			b.Set(i, j, rng.Float64()-0.5)
		}
	}
	a := mat.NewSymDense(n, nil)
	a.SymOuterK(1, b.T())
	for i := 0; i < n; i++ {
		a.SetSym(i, i, a.At(i, i)+1)
	}
	return a
}

// potrfContext gives the factor of lapack64.Potrf bit for bit, on sizes
// below, at and above gonum's block size 64 (one block, unblocked path;
// several blocks, the last one partial), reports an indefinite matrix, and
// stops at a cancelled poll.
func TestPotrfContextMatchesPotrf(t *testing.T) {
	for _, n := range []int{1, 2, 5, 64, 65, 200, 301} {
		a := randomSPD(n, uint64(n))
		want := mat.NewSymDense(n, nil)
		want.CopySym(a)
		if _, ok := lapack64.Potrf(want.RawSymmetric()); !ok {
			t.Fatalf("n = %d: Potrf failed", n)
		}
		got := mat.NewSymDense(n, nil)
		got.CopySym(a)
		ok, err := potrfContext(context.Background(), got.RawSymmetric(), nil)
		if !ok || err != nil {
			t.Fatalf("n = %d: ok = %v, error %v", n, ok, err)
		}
		if !slices.Equal(got.RawSymmetric().Data, want.RawSymmetric().Data) {
			t.Errorf("n = %d: factor differs from lapack64.Potrf", n)
		}
	}
	// Indefinite: a negative diagonal entry in the last block.
	a := randomSPD(200, 7)
	a.SetSym(150, 150, -1e6)
	if ok, err := potrfContext(context.Background(), a.RawSymmetric(), nil); ok || err != nil {
		t.Errorf("indefinite: ok = %v, error %v; want false, nil", ok, err)
	}
	// One block of 64 columns per poll: 301 columns take 5 polls before
	// the blocks and one after; cancelled at the third, the factorization
	// stops.
	ctx := newPollCtx(3)
	ok, err := potrfContext(ctx, randomSPD(301, 3).RawSymmetric(), nil)
	if ok || !errors.Is(err, context.Canceled) || ctx.calls.Load() != 3 {
		t.Errorf("cancelled: ok = %v, error %v after %d polls; want context.Canceled at poll 3", ok, err, ctx.calls.Load())
	}
	ctx = newPollCtx(0)
	if _, err := potrfContext(ctx, randomSPD(301, 3).RawSymmetric(), nil); err != nil || ctx.calls.Load() != 7 {
		t.Errorf("%d polls (error %v), want 7", ctx.calls.Load(), err)
	}
}

// luFactorContext and solveContext give mat.LU's condition number and
// solution bit for bit, below and above gonum's block size 64, with fewer,
// as many and more right-hand sides than luSolveBlock and a symmetric
// right-hand side as cscapDirect's W, and stop at a cancelled poll.
func TestLUContextMatchesLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	for _, n := range []int{1, 3, 64, 150} {
		a := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				a.Set(i, j, rng.NormFloat64())
			}
		}
		var lu mat.LU
		lu.Factorize(a)
		f, err := luFactorContext(context.Background(), a, nil)
		if err != nil {
			t.Fatal(err)
		}
		if f.cond != lu.Cond() {
			t.Errorf("n = %d: condition %v, mat.LU %v", n, f.cond, lu.Cond())
		}
		for _, cols := range []int{1, 100, luSolveBlock, 2*luSolveBlock + 3} {
			b := mat.NewDense(n, cols, nil)
			for i := 0; i < n; i++ {
				for j := 0; j < cols; j++ {
					b.Set(i, j, rng.NormFloat64())
				}
			}
			var want mat.Dense
			werr := lu.SolveTo(&want, false, b)
			got := mat.NewDense(n, cols, nil)
			if err := f.solveContext(context.Background(), got, b, nil); (err == nil) != (werr == nil) {
				t.Fatalf("n = %d: error %v, mat.LU %v", n, err, werr)
			}
			if !slices.Equal(got.RawMatrix().Data, want.RawMatrix().Data) {
				t.Errorf("n = %d, %d right-hand sides: solution differs from mat.LU", n, cols)
			}
		}
		s := randomSPD(n, 9)
		var want mat.Dense
		werr := lu.SolveTo(&want, false, s)
		got := mat.NewDense(n, n, nil)
		if err := f.solveContext(context.Background(), got, s, nil); (err == nil) != (werr == nil) || !slices.Equal(got.RawMatrix().Data, want.RawMatrix().Data) {
			t.Errorf("n = %d, symmetric right-hand side: error %v (mat.LU %v) or solution differs", n, err, werr)
		}
	}
	a := randomSPD(300, 2)
	if _, err := luFactorContext(newPollCtx(3), mat.DenseCopyOf(a), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled factorization: error %v, want context.Canceled", err)
	}
	f, err := luFactorContext(context.Background(), mat.DenseCopyOf(a), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.solveContext(newPollCtx(2), mat.NewDense(300, 300, nil), a, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled solve: error %v, want context.Canceled", err)
	}
}

// symValuesContext gives eigen.SymValues' eigenvalues bit for bit, on
// sizes below and above gonum's crossover to the blocked
// tridiagonalization (32 columns per block, unblocked below 128), on a
// positive definite and an indefinite matrix and one on which gonum's
// Dsterf panics, leaves a unchanged, and stops at a cancelled poll.
func TestSymValuesContextMatchesSymValues(t *testing.T) {
	for _, n := range []int{1, 2, 7, 64, 129, 200, 333} {
		for _, shift := range []float64{0, -float64(n) / 8} {
			a := randomSPD(n, uint64(n)+3)
			for i := 0; i < n; i++ {
				a.SetSym(i, i, a.At(i, i)+shift)
			}
			orig := mat.NewSymDense(n, nil)
			orig.CopySym(a)
			want, err := eigen.SymValues(a)
			if err != nil {
				t.Fatal(err)
			}
			got, err := symValuesContext(context.Background(), a, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("n = %d, shift %v: eigenvalues differ from eigen.SymValues", n, shift)
			}
			if !mat.Equal(a, orig) {
				t.Errorf("n = %d: a changed", n)
			}
		}
	}
	// The matrix on which gonum's values-only Dsterf panics (a block of
	// weights 1e-130; TestCSCAPMinimalShift): the fallback gives the same
	// values as eigen.SymValues.
	const tiny = 1e-130
	blocks := mat.NewSymDense(4, []float64{0, 1, 0, 0, 1, 0, 0, 0, 0, 0, tiny, 0.5 * tiny, 0, 0, 0.5 * tiny, tiny})
	want, err := eigen.SymValues(blocks)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := symValuesContext(context.Background(), blocks, nil); err != nil || !slices.Equal(got, want) {
		t.Errorf("tiny block: %v (error %v), eigen.SymValues %v", got, err, want)
	}
	if _, err := symValuesContext(newPollCtx(3), randomSPD(333, 1), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}

// symValuesPanelWidth keeps dsyev's panels of 32 columns up to
// symValuesBitN, so that symValuesContext's values stay those of
// eigen.SymValues there, and narrows them above it, never below 2 and
// never widening as n grows. The expected widths are ⌊4·4000²/n²⌋.
func TestSymValuesPanelWidth(t *testing.T) {
	for _, tc := range []struct{ n, want int }{{1, 32}, {100, 32}, {3000, 32}, {3001, 7}, {4000, 4}, {5000, 2}, {6000, 2}, {20000, 2}} {
		if got := symValuesPanelWidth(tc.n); got != tc.want {
			t.Errorf("n = %d: width %d, want %d", tc.n, got, tc.want)
		}
	}
	for n := 2; n < 8000; n += 7 {
		if symValuesPanelWidth(n+7) > symValuesPanelWidth(n) {
			t.Fatalf("width %d at n = %d, %d at n = %d", symValuesPanelWidth(n), n, symValuesPanelWidth(n+7), n+7)
		}
	}
}

// symValuesPanel with panels narrower than dsyev's (the widths
// symValuesContext uses above symValuesBitN) computes the same reduction
// with another rounding: its eigenvalues agree with eigen.SymValues' to
// 1e-12 relative to the largest (the reduction is backward stable, error
// about n·ε·‖A‖), with one poll per panel; with dsyev's 32 they are the
// same bit for bit. Sizes around the crossover to the unblocked code (32).
func TestSymValuesPanelNarrow(t *testing.T) {
	for _, n := range []int{3, 33, 150, 333} {
		a := randomSPD(n, uint64(n)+5)
		for i := 0; i < n; i++ {
			a.SetSym(i, i, a.At(i, i)-float64(n)/8)
		}
		want, err := eigen.SymValues(a)
		if err != nil {
			t.Fatal(err)
		}
		scale := math.Max(math.Abs(want[0]), math.Abs(want[n-1]))
		for _, nb := range []int{2, 3, 7, 32} {
			ctx := newPollCtx(0)
			got, err := symValuesPanel(ctx, a, nb, nil)
			if err != nil {
				t.Fatal(err)
			}
			if nb == 32 {
				if !slices.Equal(got, want) {
					t.Errorf("n = %d, nb = 32: eigenvalues differ from eigen.SymValues", n)
				}
				continue
			}
			for i := range want {
				if math.Abs(got[i]-want[i]) > 1e-12*scale {
					t.Errorf("n = %d, nb = %d: λ_%d = %v, eigen.SymValues %v", n, nb, i, got[i], want[i])
					break
				}
			}
			// Panels cover the columns above the crossover nx = 32: one
			// poll each, plus the first and the last.
			if panels := int64(max(0, n-32)+nb-1) / int64(nb); n > 32 && ctx.calls.Load() < panels+2 {
				t.Errorf("n = %d, nb = %d: %d polls, want at least %d", n, nb, ctx.calls.Load(), panels+2)
			}
		}
	}
}

// BenchmarkSymValuesPanel times symValuesContext's eigenvalues (the
// tridiagonalization, then Dsterf) of a random symmetric matrix with
// dsyev's panels of 32 columns and with the narrower ones it uses at
// that size (symValuesPanelWidth), at n = 4000 and 6000, where one run
// takes 1 and 3.5–4.5 minutes on the 2-core machine: run it alone
// (-run '^$' -bench SymValuesPanel -benchtime 1x).
func BenchmarkSymValuesPanel(b *testing.B) {
	for _, n := range []int{4000, 6000} {
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		a := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				a.SetSym(i, j, rng.Float64()-0.5)
			}
		}
		for _, nb := range []int{32, symValuesPanelWidth(n)} {
			b.Run(fmt.Sprintf("n=%d/nb=%d", n, nb), func(b *testing.B) {
				for b.Loop() {
					v, err := symValuesPanel(context.Background(), a, nb, nil)
					if err != nil {
						b.Fatal(err)
					}
					symValuesSink = v
				}
			})
		}
	}
}

// symValuesSink keeps BenchmarkSymValuesPanel's results.
var symValuesSink []float64

// mulContext gives mat.Dense.Mul's product bit for bit, for a·b and aᵀ·b,
// on shapes below and above gonum's parallel Dgemm blocks (64) and
// mulBlock, on views whose stride exceeds their width, and stops at a
// cancelled poll.
func TestMulContextMatchesMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	fill := func(r, c int) *mat.Dense { return normalDense(rng, r, c) }
	// view returns an r×c view into a larger matrix, offset by one row
	// and two columns.
	view := func(r, c int) *mat.Dense {
		return fill(r+3, c+5).Slice(1, r+1, 2, c+2).(*mat.Dense)
	}
	for _, sh := range [][3]int{{1, 1, 1}, {3, 5, 2}, {70, 65, 130}, {300, 200, 100}, {600, 130, 517}} {
		r, k, c := sh[0], sh[1], sh[2]
		for _, tc := range []struct {
			name string
			a    mat.Matrix
			b    *mat.Dense
		}{
			{"a·b", fill(r, k), fill(k, c)},
			{"aᵀ·b", fill(k, r).T(), fill(k, c)},
			{"views a·b", view(r, k), view(k, c)},
			{"views aᵀ·b", view(k, r).T(), view(k, c)},
		} {
			var want mat.Dense
			want.Mul(tc.a, tc.b)
			got := mat.NewDense(r, c, nil)
			if err := mulContext(context.Background(), got, tc.a, tc.b, nil); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.RawMatrix().Data, want.RawMatrix().Data) {
				t.Errorf("%v %s: product differs from Mul", sh, tc.name)
			}
		}
	}
	a, b := fill(600, 10), fill(10, 10)
	if err := mulContext(newPollCtx(2), mat.NewDense(600, 10, nil), a, b, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
	if err := mulContext(newPollCtx(2), mat.NewDense(600, 10, nil), fill(10, 600).T(), b, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}

// normalDense returns an r×c matrix of standard normal entries drawn
// from rng.
func normalDense(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range m.RawMatrix().Data {
		m.RawMatrix().Data[i] = rng.NormFloat64()
	}
	return m
}

// geconContext gives lapack64.Gecon's estimate, bit for bit, in both
// norms, on well-conditioned, ill-conditioned and singular factors and on
// the quick returns, and checks its context before each triangular solve
// (gonum's Gecon, one call, took 1.1–1.7 s at n = 6000 without a check):
// cancelled at any of its checks it returns context.Canceled, and it
// checks at least twice (two solves) per step of the estimator.
func TestGeconContextMatchesGecon(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{1, 2, 40, 200} {
		for _, kind := range []string{"random", "graded", "singular"} {
			a := mat.NewDense(n, n, nil)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					a.Set(i, j, rng.NormFloat64())
				}
				switch kind {
				case "graded":
					for j := 0; j < n; j++ {
						a.Set(i, j, a.At(i, j)*math.Pow(1e-3, float64(i)))
					}
				case "singular":
					if i == n-1 {
						for j := 0; j < n; j++ {
							a.Set(i, j, 0)
						}
					}
				}
			}
			for _, norm := range []lapack.MatrixNorm{lapack.MaxRowSum, lapack.MaxColumnSum} {
				lu := blas64.General{Rows: n, Cols: n, Stride: n, Data: slices.Clone(a.RawMatrix().Data)}
				work := make([]float64, 4*n)
				anorm := lapack64.Lange(norm, lu, work)
				lapack64.Getrf(lu, make([]int, n))
				want := lapack64.Gecon(norm, lu, anorm, make([]float64, 4*n), make([]int, n))
				for _, an := range []float64{anorm, 0, math.Inf(1)} {
					w := want
					if an != anorm {
						w = lapack64.Gecon(norm, lu, an, make([]float64, 4*n), make([]int, n))
					}
					got, err := geconContext(context.Background(), norm, lu, an, make([]float64, 4*n), make([]int, n))
					if err != nil || math.Float64bits(got) != math.Float64bits(w) {
						t.Fatalf("n = %d, %s, norm %v, ‖A‖ = %v: %v, %v; Gecon %v", n, kind, norm, an, got, err, w)
					}
				}
				calls := cancelAtEveryCheck(t, fmt.Sprintf("n = %d, %s", n, kind), want, func(ctx context.Context) (float64, error) {
					return geconContext(ctx, norm, lu, anorm, make([]float64, 4*n), make([]int, n))
				})
				if n == 200 && kind == "random" && calls < 5 {
					t.Errorf("n = %d: %d checks, want one before each solve", n, calls)
				}
			}
		}
	}
}

// poconContext gives lapack64.Pocon's estimate, bit for bit, on
// well-conditioned, graded (ill-conditioned) and nearly singular Cholesky
// factors and on the quick returns, and checks its context before each
// triangular solve and every geconColumns columns of the column norms
// (gonum's Pocon, one call, took 0.09 s at q = 3000 in CSCAP's Woodbury
// form without a check, growing as q²): cancelled at any of its checks it
// returns context.Canceled, and it checks at least twice (two solves) per
// step of the estimator.
func TestPoconContextMatchesPocon(t *testing.T) {
	for _, n := range []int{1, 2, 40, 300} {
		for _, kind := range []string{"random", "graded", "nearly singular"} {
			a := randomSPD(n, uint64(n))
			switch kind {
			case "graded":
				// D·A·D with D = diag(10^(−3i/n)): condition about 10⁶.
				for i := 0; i < n; i++ {
					for j := i; j < n; j++ {
						a.SetSym(i, j, a.At(i, j)*math.Pow(10, -3*float64(i+j)/float64(n)))
					}
				}
			case "nearly singular":
				for i := 0; i < n; i++ {
					a.SetSym(i, i, a.At(i, i)+1e14)
				}
				a.SetSym(0, 0, 1e-3)
				for j := 1; j < n; j++ {
					a.SetSym(0, j, 0)
				}
			}
			sym := blas64.Symmetric{N: n, Stride: n, Uplo: a.RawSymmetric().Uplo, Data: slices.Clone(a.RawSymmetric().Data)}
			anorm := lapack64.Lansy(lapack.MaxRowSum, sym, make([]float64, n))
			if _, ok := lapack64.Potrf(sym); !ok {
				t.Fatalf("n = %d, %s: not positive definite", n, kind)
			}
			for _, an := range []float64{anorm, 0, math.Inf(1)} {
				want := lapack64.Pocon(sym, an, make([]float64, 3*n), make([]int, n))
				got, err := poconContext(context.Background(), sym, an, make([]float64, 3*n), make([]int, n))
				if err != nil || math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("n = %d, %s, ‖A‖ = %v: %v, %v; Pocon %v", n, kind, an, got, err, want)
				}
			}
			want := lapack64.Pocon(sym, anorm, make([]float64, 3*n), make([]int, n))
			calls := cancelAtEveryCheck(t, fmt.Sprintf("n = %d, %s", n, kind), want, func(ctx context.Context) (float64, error) {
				return poconContext(ctx, sym, anorm, make([]float64, 3*n), make([]int, n))
			})
			if n == 300 && kind == "random" && calls < 1+int64(n/geconColumns)+2*2 {
				t.Errorf("n = %d: %d checks, want one before each solve and every %d columns", n, calls, geconColumns)
			}
		}
	}
}

// cancelAtEveryCheck runs f with a context cancelled at its c-th check,
// for c = 1, 2, … until f finishes: each cancelled run must return
// context.Canceled, and the finishing one want, bit for bit. It returns
// the number of checks of that run.
func cancelAtEveryCheck(t *testing.T, name string, want float64, f func(context.Context) (float64, error)) int64 {
	t.Helper()
	for c := int64(1); ; c++ {
		ctx := newPollCtx(c)
		got, err := f(ctx)
		if err == nil {
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s: %v after %d checks, want %v", name, got, c, want)
			}
			return ctx.calls.Load()
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: cancelled at check %d: err = %v", name, c, err)
		}
	}
}
