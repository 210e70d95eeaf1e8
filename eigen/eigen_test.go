package eigen_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/eigen/eigentest"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/progress"
)

// countingOp counts the vectors it is applied to.
type countingOp struct {
	eigen.Operator
	mu sync.Mutex
	n  int
}

func (c *countingOp) MulTo(dst, x *mat.Dense) {
	_, p := x.Dims()
	c.mu.Lock()
	c.n += p
	c.mu.Unlock()
	c.Operator.MulTo(dst, x)
}

func randomLaplacian(t testing.TB, n int, kind graph.LaplacianKind, seed uint64) (*graph.Graph, *graph.Laplacian, []graph.Edge) {
	edges := eigentest.RandomGraph(n, rand.New(rand.NewPCG(seed, uint64(n))))
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	l, err := graph.NewLaplacian(g, kind)
	if err != nil {
		t.Fatal(err)
	}
	return g, l, edges
}

// TestAcceptanceRandomSparse is the acceptance criterion of the eigensolver
// issue: on a random sparse graph of a few thousand nodes, the iterative
// solvers' K smallest eigenvalues of L_sym agree with the dense ones to 1e-8
// (relative, or absolute below 1). The reference is gonum's values-only
// EigenSym of the matrix built by eigentest.DenseLaplacian from the edges.
func TestAcceptanceRandomSparse(t *testing.T) {
	if testing.Short() {
		t.Skip("dense reference at n = 2000 takes seconds")
	}
	const n, k = 2000, 8
	_, l, edges := randomLaplacian(t, n, graph.Symmetric, 11)
	var es mat.EigenSym
	if !es.Factorize(eigentest.DenseLaplacian(n, edges, graph.Symmetric), false) {
		t.Fatal("reference EigenSym failed")
	}
	ref := es.Values(nil)[:k]
	for _, c := range []struct {
		name string
		s    eigen.Solver
	}{{"Lanczos", eigen.Lanczos{}}, {"LOBPCG", eigen.LOBPCG{}}} {
		t.Run(c.name, func(t *testing.T) {
			res, err := c.s.Solve(context.Background(), eigen.Problem{A: l, K: k}, &eigen.Settings{Tol: 1e-10})
			if err != nil {
				t.Fatal(err)
			}
			for j, v := range res.Values {
				if d := math.Abs(v - ref[j]); !(d <= 1e-8*math.Max(1, math.Abs(ref[j]))) {
					t.Errorf("λ_%d = %.15g, dense %.15g", j, v, ref[j])
				}
			}
			t.Logf("%s: %d matvecs, %d iterations", c.name, res.MatVecs, res.Iterations)
		})
	}
}

// TestAcceptanceCliques: the unnormalized Laplacian of a disjoint union of
// c = 10 cliques of sizes 50, 60, …, 140 has the eigenvalue 0 exactly c
// times, then 50 (49 times); each solver must find all c zeros, with and
// without deflating the component indicators.
func TestAcceptanceCliques(t *testing.T) {
	var edges []graph.Edge
	var sizes []int
	n := 0
	for c := 0; c < 10; c++ {
		sz := 50 + 10*c
		for i := 0; i < sz; i++ {
			for j := i + 1; j < sz; j++ {
				edges = append(edges, graph.Edge{I: n + i, J: n + j, W: 1})
			}
		}
		sizes = append(sizes, sz)
		n += sz
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := graph.NewLaplacian(g, graph.Unnormalized)
	comp, c := g.Components()
	q := mat.NewDense(n, c, nil)
	for i, ci := range comp {
		q.Set(i, ci, 1/math.Sqrt(float64(sizes[ci])))
	}
	k := c + 3
	for _, s := range []eigen.Solver{eigen.Lanczos{}, eigen.LOBPCG{}, eigen.BlockLanczos{}} {
		for _, deflate := range []bool{false, true} {
			t.Run(fmt.Sprintf("%T/deflate=%v", s, deflate), func(t *testing.T) {
				p := eigen.Problem{A: l, K: k}
				if deflate {
					p.Deflate, p.DeflateValues = q, make([]float64, c)
				}
				res, err := s.Solve(context.Background(), p, nil)
				if err != nil {
					t.Fatal(err)
				}
				for j, v := range res.Values {
					want := 0.0
					if j >= c {
						want = 50
					}
					if math.Abs(v-want) > 1e-8*math.Max(1, want) {
						t.Errorf("λ_%d = %g, want %g", j, v, want)
					}
				}
			})
		}
	}
}

// TestNoConvergence: hitting MaxIter returns ErrNoConvergence with the
// partial result.
func TestNoConvergence(t *testing.T) {
	_, l, _ := randomLaplacian(t, 300, graph.Symmetric, 12)
	for _, s := range []eigen.Solver{eigen.Lanczos{}, eigen.LOBPCG{}, eigen.BlockLanczos{}} {
		t.Run(fmt.Sprintf("%T", s), func(t *testing.T) {
			res, err := s.Solve(context.Background(), eigen.Problem{A: l, K: 5}, &eigen.Settings{Tol: 1e-13, MaxIter: 1})
			if !errors.Is(err, eigen.ErrNoConvergence) {
				t.Fatalf("error %v, want ErrNoConvergence", err)
			}
			if res == nil || len(res.Values) != 5 || len(res.Residuals) != 5 {
				t.Fatalf("partial result %+v", res)
			}
			for j, v := range res.Values {
				if math.IsNaN(v) || math.IsNaN(res.Residuals[j]) {
					t.Errorf("pair %d: value %v residual %v", j, v, res.Residuals[j])
				}
			}
		})
	}
}

// TestMatVecs: Result.MatVecs equals the number of vectors the operator was
// applied to.
func TestMatVecs(t *testing.T) {
	_, l, _ := randomLaplacian(t, 300, graph.Symmetric, 13)
	for _, s := range []eigen.Solver{eigen.Dense{}, eigen.Lanczos{}, eigen.LOBPCG{}, eigen.BlockLanczos{}} {
		t.Run(fmt.Sprintf("%T", s), func(t *testing.T) {
			op := &countingOp{Operator: l}
			res, err := s.Solve(context.Background(), eigen.Problem{A: op, K: 4}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.MatVecs != op.n {
				t.Errorf("MatVecs = %d, operator saw %d vectors", res.MatVecs, op.n)
			}
		})
	}
}

// TestProgress: every solver reports on Stage "eigen" in one unit, the
// eigenpairs it computes: Total = K − d for d deflated vectors, and the
// iterative solvers' "x/y converged" in Message is Done/Total (Lanczos
// and BlockLanczos counted the deflated vectors in Done and Total and not
// in the message, "Done 1/17" beside "0/16 converged"; review 86). The
// last event reports them all.
func TestProgress(t *testing.T) {
	g, l, _ := randomLaplacian(t, 300, graph.Symmetric, 14)
	// The null vectors of L_sym, D^{1/2}1 on each component, deflated.
	comp, nc := g.Components()
	z := mat.NewDense(g.N(), nc, nil)
	vol := make([]float64, nc)
	for i, d := range g.Degrees() {
		vol[comp[i]] += d
	}
	for i, d := range g.Degrees() {
		z.Set(i, comp[i], math.Sqrt(d/vol[comp[i]]))
	}
	converged := regexp.MustCompile(`: (\d+)/(\d+) converged`)
	for _, defl := range []bool{false, true} {
		p, want := eigen.Problem{A: l, K: 3}, 3
		if defl {
			p = eigen.Problem{A: l, K: nc + 3, Deflate: z, DeflateValues: make([]float64, nc)}
		}
		for _, s := range []eigen.Solver{eigen.Dense{}, eigen.Lanczos{}, eigen.LOBPCG{}, eigen.BlockLanczos{}} {
			t.Run(fmt.Sprintf("%T deflated %v", s, defl), func(t *testing.T) {
				var log progress.Log
				if _, err := s.Solve(context.Background(), p, &eigen.Settings{Recorder: &log}); err != nil {
					t.Fatal(err)
				}
				if st := log.Stages(); len(st) > 1 || len(st) == 1 && st[0] != "eigen" {
					t.Errorf("stages %q, want eigen only", st)
				}
				events := log.Events("eigen")
				if len(events) == 0 {
					t.Fatal("no progress events")
				}
				for _, e := range events {
					if e.Stage != "eigen" || e.Total != want || e.Done < 0 || e.Done > want {
						t.Errorf("bad event %+v, want Total %d", e, want)
					}
					if m := converged.FindStringSubmatch(e.Message); m != nil && (m[1] != fmt.Sprint(e.Done) || m[2] != fmt.Sprint(e.Total)) {
						t.Errorf("event %+v: its message counts %s/%s, Done/Total %d/%d", e, m[1], m[2], e.Done, e.Total)
					}
				}
				if last := events[len(events)-1]; last.Done != want {
					t.Errorf("last event %+v, want Done %d", last, want)
				}
			})
		}
	}
}

// nanOp returns NaN for every product.
type nanOp struct{ n int }

func (o nanOp) Dim() int { return o.n }
func (o nanOp) MulTo(dst, x *mat.Dense) {
	r, c := dst.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			dst.Set(i, j, math.NaN())
		}
	}
}

// TestNonFinite: an operator producing NaN gives an error, not NaN output.
func TestNonFinite(t *testing.T) {
	for _, s := range []eigen.Solver{eigen.Dense{}, eigen.Lanczos{}, eigen.LOBPCG{}, eigen.BlockLanczos{}} {
		t.Run(fmt.Sprintf("%T", s), func(t *testing.T) {
			res, err := s.Solve(context.Background(), eigen.Problem{A: nanOp{200}, K: 3}, nil)
			if err == nil {
				t.Fatalf("no error, values %v", res.Values)
			}
		})
	}
}

// TestNonFiniteMatrix: a *Matrix (NewMatrix) or a B holding a NaN or an
// infinity gives an error wrapping ErrNonFinite that names the entry, on
// every solver and on small and larger problems. The Dense solver (which
// the iterative ones use on small problems) read a *Matrix without
// materializing it and returned NaN eigenvalues as a success.
func TestNonFiniteMatrix(t *testing.T) {
	tri := func(n int, bad float64, at int) *mat.SymDense {
		a := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			a.SetSym(i, i, 2)
			if i+1 < n {
				a.SetSym(i, i+1, -1)
			}
		}
		a.SetSym(at, at+1, bad)
		return a
	}
	for _, n := range []int{3, 60} {
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			for _, s := range []eigen.Solver{eigen.Dense{}, eigen.Lanczos{}, eigen.LOBPCG{}, eigen.BlockLanczos{}} {
				t.Run(fmt.Sprintf("n=%d/%v/%T/A", n, bad, s), func(t *testing.T) {
					res, err := s.Solve(context.Background(), eigen.Problem{A: eigen.NewMatrix(tri(n, bad, 1)), K: 2}, nil)
					if !errors.Is(err, eigen.ErrNonFinite) {
						t.Fatalf("error %v, want one wrapping ErrNonFinite (values %v)", err, resValues(res))
					}
				})
			}
			for _, s := range []eigen.Solver{eigen.Dense{}, eigen.LOBPCG{}} {
				t.Run(fmt.Sprintf("n=%d/%v/%T/B", n, bad, s), func(t *testing.T) {
					b := tri(n, bad, 0)
					b.SetSym(0, 0, 4)
					res, err := s.Solve(context.Background(), eigen.Problem{A: eigen.NewMatrix(tri(n, -1, 1)), B: eigen.NewMatrix(b), K: 2}, nil)
					if !errors.Is(err, eigen.ErrNonFinite) {
						t.Fatalf("error %v, want one wrapping ErrNonFinite (values %v)", err, resValues(res))
					}
				})
			}
		}
	}
	_, err := eigen.Dense{}.Solve(context.Background(), eigen.Problem{A: eigen.NewMatrix(tri(3, math.NaN(), 1)), K: 1}, nil)
	if err == nil || !strings.Contains(err.Error(), "operator A has entry NaN at (1,2)") {
		t.Errorf("error %v does not name the entry", err)
	}
}

// resValues returns res.Values, or nil for a nil res.
func resValues(res *eigen.Result) []float64 {
	if res == nil {
		return nil
	}
	return res.Values
}

// diagOp is a diagonal operator.
type diagOp []float64

func (d diagOp) Dim() int { return len(d) }
func (d diagOp) MulTo(dst, x *mat.Dense) {
	_, p := x.Dims()
	for i, v := range d {
		for j := 0; j < p; j++ {
			dst.Set(i, j, v*x.At(i, j))
		}
	}
}

// sumOp is A + D for an operator A and a diagonal D.
type sumOp struct {
	a eigen.Operator
	d diagOp
}

func (s sumOp) Dim() int { return s.a.Dim() }
func (s sumOp) MulTo(dst, x *mat.Dense) {
	s.a.MulTo(dst, x)
	_, p := x.Dims()
	for i, v := range s.d {
		for j := 0; j < p; j++ {
			dst.Set(i, j, dst.At(i, j)+v*x.At(i, j))
		}
	}
}

// TestLOBPCGPreconditioner: on the badly scaled pencil (L + S) x = λ D x
// with S = diag(10^{3u}), u uniform, the Jacobi preconditioner
// T = diag(1/(d_i + s_i)) must give the same eigenvalues as the dense solver
// in fewer iterations than no preconditioner.
func TestLOBPCGPreconditioner(t *testing.T) {
	const n, k = 500, 4
	g, l, _ := randomLaplacian(t, n, graph.Unnormalized, 15)
	rng := rand.New(rand.NewPCG(16, 0))
	shift := make(diagOp, n)
	inv := make(diagOp, n)
	for i := range shift {
		shift[i] = math.Pow(10, 3*rng.Float64())
		inv[i] = 1 / (g.Degree(i) + shift[i])
	}
	p := eigen.Problem{A: sumOp{l, shift}, B: graph.NewDegreeMatrix(g), K: k}
	ref, err := eigen.Dense{}.Solve(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	pre, err := eigen.LOBPCG{T: inv}.Solve(context.Background(), p, &eigen.Settings{Tol: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range pre.Values {
		if d := math.Abs(v - ref.Values[j]); d > 1e-8*math.Max(1, math.Abs(ref.Values[j])) {
			t.Errorf("λ_%d = %.12g, dense %.12g", j, v, ref.Values[j])
		}
	}
	// Without the preconditioner, twice the iterations must not suffice.
	plain, err := eigen.LOBPCG{}.Solve(context.Background(), p, &eigen.Settings{Tol: 1e-9, MaxIter: 2 * pre.Iterations})
	t.Logf("Jacobi-preconditioned: %d iterations; plain: %d iterations, error %v", pre.Iterations, plain.Iterations, err)
	if err == nil {
		t.Errorf("unpreconditioned LOBPCG converged in %d ≤ 2×%d iterations", plain.Iterations, pre.Iterations)
	} else if !errors.Is(err, eigen.ErrNoConvergence) {
		t.Error(err)
	}
}

// TestNewMatrixCopies: NewMatrix copies its argument.
func TestNewMatrixCopies(t *testing.T) {
	a := mat.NewSymDense(2, []float64{2, 1, 1, 2})
	m := eigen.NewMatrix(a)
	a.SetSym(0, 1, 5)
	res, err := eigen.Dense{}.Solve(context.Background(), eigen.Problem{A: m, K: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Eigenvalues of [[2,1],[1,2]] are 1 and 3.
	if math.Abs(res.Values[0]-1) > 1e-14 || math.Abs(res.Values[1]-3) > 1e-14 {
		t.Errorf("values %v, want [1 3]", res.Values)
	}
}

// TestLanczosSameOnOneCore: on a problem long enough for the step's
// concurrent and chunked vector passes (n = 100 000, a diagonal operator
// with a random spectrum below three separated values), the eigenpairs
// are the same bit for bit with one and with two threads.
func TestLanczosSameOnOneCore(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	a := make(diagOp, 100000)
	for i := range a {
		a[i] = rng.Float64() / 2
	}
	a[7], a[500], a[90000] = 1, 0.9, 0.8 // the 3 largest, well apart
	solve := func(procs int) *eigen.Result {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		res, err := eigen.Lanczos{}.Solve(context.Background(), eigen.Problem{A: a, K: 3, Which: eigen.Largest}, &eigen.Settings{Tol: 1e-8})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	one, two := solve(1), solve(2)
	if !slices.Equal(one.Values, two.Values) || !slices.Equal(one.Vectors.RawMatrix().Data, two.Vectors.RawMatrix().Data) || one.MatVecs != two.MatVecs {
		t.Fatalf("GOMAXPROCS 1 and 2 differ: values %v and %v, %d and %d products", one.Values, two.Values, one.MatVecs, two.MatVecs)
	}
}

// TestInvalidSolverParameters: a negative solver field, a preconditioner of
// the wrong dimension and a generalized problem given to a standard-only
// solver are errors wrapping ErrInvalid, which name the solver.
func TestInvalidSolverParameters(t *testing.T) {
	const n = 6
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		a.SetSym(i, i, float64(i+1))
	}
	std := eigen.Problem{A: eigen.NewMatrix(a), K: 2}
	gen := eigen.Problem{A: eigen.NewMatrix(a), B: diagOp{1, 1, 1, 1, 1, 1}, K: 2}
	cases := []struct {
		name string
		s    eigen.Solver
		p    eigen.Problem
		want string
	}{
		{"Lanczos NCV", eigen.Lanczos{NCV: -1}, std, "Lanczos"},
		{"Lanczos MaxNCV", eigen.Lanczos{MaxNCV: -1}, std, "Lanczos"},
		{"BlockLanczos Keep", eigen.BlockLanczos{Keep: -1}, std, "BlockLanczos"},
		{"LOBPCG BlockSize", eigen.LOBPCG{BlockSize: -2}, std, "LOBPCG"},
		{"LOBPCG preconditioner", eigen.LOBPCG{T: diagOp{1}}, std, "preconditioner"},
		{"Lanczos generalized", eigen.Lanczos{}, gen, "Lanczos solves standard problems only"},
		{"BlockLanczos generalized", eigen.BlockLanczos{}, gen, "BlockLanczos solves standard problems only"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.s.Solve(context.Background(), c.p, nil)
			if !errors.Is(err, eigen.ErrInvalid) {
				t.Fatalf("error %v, want one wrapping ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q lacks %q", err, c.want)
			}
		})
	}
}

// TestMaxDenseBytes: a dense solve beyond Settings.MaxDenseBytes, by Dense
// or by an iterative solver's fallback for many pairs (K = 60 of n = 100),
// is refused with ErrInvalid before the operator is applied at all, and a
// bound it fits in changes nothing (the same values, bit for bit, as
// without one). Lanczos' iterative solve (K = 4) is bounded by its basis
// and projected matrices, refused one byte below them. The bound came from review 92, where K = n − 1 on
// 3·10⁴ nodes made Lanczos' fallback allocate 7.2 GB and the server die.
func TestMaxDenseBytes(t *testing.T) {
	const n = 100
	_, l, _ := randomLaplacian(t, n, graph.Symmetric, 21)
	need := eigen.DenseBytes(n, false)
	if want := int64(5 * 8 * n * n); need != want {
		t.Fatalf("DenseBytes(%d, false) = %d, want %d", n, need, want)
	}
	for _, s := range []eigen.Solver{eigen.Dense{}, eigen.Lanczos{}, eigen.LOBPCG{}, eigen.BlockLanczos{}} {
		t.Run(fmt.Sprintf("%T", s), func(t *testing.T) {
			op := &countingOp{Operator: l}
			_, err := s.Solve(context.Background(), eigen.Problem{A: op, K: 60}, &eigen.Settings{MaxDenseBytes: need - 1})
			if !errors.Is(err, eigen.ErrInvalid) || !errors.Is(err, eigen.ErrMemoryBound) || !strings.Contains(err.Error(), "MaxDenseBytes") || !strings.Contains(err.Error(), "K = 60 eigenpairs needs about 390.6 KiB of n×n matrices") {
				t.Fatalf("K = 60 over the bound: error %v, want ErrInvalid and ErrMemoryBound naming MaxDenseBytes and 390.6 KiB", err)
			}
			if op.n != 0 {
				t.Errorf("the operator was applied to %d vectors before the refusal", op.n)
			}
			free, err := s.Solve(context.Background(), eigen.Problem{A: l, K: 60}, nil)
			if err != nil {
				t.Fatal(err)
			}
			fits, err := s.Solve(context.Background(), eigen.Problem{A: l, K: 60}, &eigen.Settings{MaxDenseBytes: need})
			if err != nil {
				t.Fatalf("within the bound: %v", err)
			}
			if !slices.Equal(free.Values, fits.Values) {
				t.Errorf("within the bound the values differ from those without one")
			}
		})
	}
	// Lanczos' iterative solve (K = 4) builds no n×n matrix, but its
	// basis and projected matrices are counted: NCV = max(2K + 1, K + 20)
	// = 24, K + NCV + 1 = 29 vectors of n and two 24×24 matrices, 32 416
	// bytes (K = 35 000 on 2·10⁵ nodes asked for 168 GB of them).
	const basis = 8 * (29*n + 2*24*24)
	free, err := (eigen.Lanczos{}).Solve(context.Background(), eigen.Problem{A: l, K: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fits, err := (eigen.Lanczos{}).Solve(context.Background(), eigen.Problem{A: l, K: 4}, &eigen.Settings{MaxDenseBytes: basis}); err != nil || !slices.Equal(fits.Values, free.Values) {
		t.Errorf("Lanczos, K = 4 (iterative) with a bound of its basis, %d bytes: %v; want the values without a bound", basis, err)
	}
	op := &countingOp{Operator: l}
	if _, err := (eigen.Lanczos{}).Solve(context.Background(), eigen.Problem{A: op, K: 4}, &eigen.Settings{MaxDenseBytes: basis - 1}); !errors.Is(err, eigen.ErrInvalid) || !errors.Is(err, eigen.ErrMemoryBound) || !strings.Contains(err.Error(), "31.7 KiB for its basis of 29 vectors") || op.n != 0 {
		t.Errorf("Lanczos, K = 4 with a bound one byte below its basis: %v (operator applied to %d vectors); want ErrInvalid naming 31.7 KiB, before any product", err, op.n)
	}
	if err := (&eigen.Settings{MaxDenseBytes: -1}).Validate(); !errors.Is(err, eigen.ErrInvalid) || errors.Is(err, eigen.ErrMemoryBound) {
		t.Errorf("negative MaxDenseBytes: Validate gives %v, want ErrInvalid", err)
	}
}
