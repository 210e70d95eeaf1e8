package eigen_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// spectrumMatrix returns Q·diag(spec)·Qᵀ for a random orthogonal Q (from
// the QR factorization of a Gaussian matrix) and Q itself, so that the
// eigenpairs are known independently of any eigensolver.
func spectrumMatrix(spec []float64, seed uint64) (*mat.SymDense, *mat.Dense) {
	n := len(spec)
	rng := rand.New(rand.NewPCG(seed, 3))
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			var s float64
			for k, l := range spec {
				s += q.At(i, k) * l * q.At(j, k)
			}
			a.SetSym(i, j, s)
		}
	}
	return a, &q
}

// sinAngle returns the sine of the largest principal angle between the
// spans of the orthonormal columns of u and v: ‖(I − UUᵀ)V‖₂.
func sinAngle(u, v *mat.Dense) float64 {
	var p, r mat.Dense
	p.Mul(u.T(), v)
	r.Mul(u, &p)
	r.Sub(v, &r)
	return mat.Norm(&r, 2)
}

// TestBlockLanczosClusters: a tight cluster of eigenvalues (spacing 1e-6 of
// ‖A‖), wider than the block, and exact multiplicities up to the block
// size, at the wanted end of the spectrum of a 400×400 matrix with known
// eigenvectors. Every wanted value must match the known spectrum to
// 1e-8·‖A‖ and, where the gap after the K-th value allows, the subspace
// must match to a principal angle of sine 1e-6; the residuals are checked
// by the conformance suite's rule (recomputed here).
func TestBlockLanczosClusters(t *testing.T) {
	const n = 300
	type tc struct {
		name  string
		head  []float64 // the smallest eigenvalues; the rest spread in [2, 10]
		k, bs int
	}
	cluster := make([]float64, 10)
	for i := range cluster {
		cluster[i] = 1 + 1e-5*float64(i)
	}
	cases := []tc{
		{"cluster10/bs=4", cluster, 12, 4},
		{"cluster10/bs=1", cluster, 12, 1},
		{"multiplicity6/bs=8", []float64{0.5, 1, 1, 1, 1, 1, 1}, 8, 8},
		{"multiplicity6/bs=6", []float64{0.5, 1, 1, 1, 1, 1, 1}, 7, 6},
		{"two-multiplicities/bs=4", []float64{1, 1, 1, 1, 1.5, 1.5, 1.5}, 7, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := slices.Clone(c.head)
			for i := len(spec); i < n; i++ {
				spec = append(spec, 2+8*float64(i-len(c.head))/float64(n-len(c.head)))
			}
			a, q := spectrumMatrix(spec, 11)
			normA := 10.0
			for _, which := range []eigen.Which{eigen.Smallest, eigen.Largest} {
				op := eigen.NewMatrix(a)
				want := slices.Clone(spec)
				wantVecs := q.Slice(0, n, 0, c.k).(*mat.Dense)
				if which == eigen.Largest {
					slices.Reverse(want)
					wv := mat.NewDense(n, c.k, nil)
					for j := 0; j < c.k; j++ {
						wv.SetCol(j, mat.Col(nil, n-1-j, q))
					}
					wantVecs = wv
				}
				res, err := eigen.BlockLanczos{BlockSize: c.bs}.Solve(context.Background(), eigen.Problem{A: op, K: c.k, Which: which}, &eigen.Settings{Tol: 1e-12})
				if err != nil {
					t.Fatalf("%v: %v", which, err)
				}
				for j, v := range res.Values {
					if d := math.Abs(v - want[j]); !(d <= 1e-8*normA) {
						t.Errorf("%v: Values[%d] = %.15g, want %.15g", which, j, v, want[j])
					}
				}
				var av mat.Dense
				av.Mul(a, res.Vectors)
				for j := 0; j < c.k; j++ {
					var r2 float64
					for i := 0; i < n; i++ {
						r := av.At(i, j) - res.Values[j]*res.Vectors.At(i, j)
						r2 += r * r
					}
					if r := math.Sqrt(r2); !(r <= 1e-9*normA) {
						t.Errorf("%v: residual of pair %d is %.3g", which, j, r)
					}
				}
				if gap := math.Abs(want[c.k] - want[c.k-1]); gap > 1e-3 {
					if s := sinAngle(wantVecs, res.Vectors); !(s <= 1e-6) {
						t.Errorf("%v: largest principal angle has sine %.3g", which, s)
					}
				}
			}
		})
	}
}

// TestBlockLanczosMatchesDense compares BlockLanczos with the dense solver
// on random sparse graph Laplacians with several block sizes, including
// blocks that do not divide K: the values must agree to 1e-9·‖A‖.
func TestBlockLanczosMatchesDense(t *testing.T) {
	_, l, _ := randomLaplacian(t, 400, graph.Symmetric, 21)
	for _, which := range []eigen.Which{eigen.Smallest, eigen.Largest} {
		want, err := eigen.Dense{}.Solve(context.Background(), eigen.Problem{A: l, K: 16, Which: which}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, bs := range []int{1, 3, 5, 16} {
			for _, k := range []int{5, 16} {
				t.Run(fmt.Sprintf("%v/bs=%d/K=%d", which, bs, k), func(t *testing.T) {
					got, err := eigen.BlockLanczos{BlockSize: bs}.Solve(context.Background(), eigen.Problem{A: l, K: k, Which: which}, nil)
					if err != nil {
						t.Fatal(err)
					}
					for j := range k {
						if d := math.Abs(got.Values[j] - want.Values[j]); !(d <= 2e-9) {
							t.Errorf("Values[%d] = %.15g, dense %.15g", j, got.Values[j], want.Values[j])
						}
					}
				})
			}
		}
	}
}

// cancelOp cancels its context after a number of block products and
// counts the products made afterwards.
type cancelOp struct {
	eigen.Operator
	cancel      context.CancelFunc
	after, seen int
	late        int
}

func (c *cancelOp) MulTo(dst, x *mat.Dense) {
	c.seen++
	if c.seen > c.after {
		c.late++
	}
	if c.seen == c.after {
		c.cancel()
	}
	c.Operator.MulTo(dst, x)
}

// TestBlockLanczosCancelMidRun: cancelling during the run stops it before
// the next block product, with ctx.Err().
func TestBlockLanczosCancelMidRun(t *testing.T) {
	_, l, _ := randomLaplacian(t, 2000, graph.Symmetric, 31)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	op := &cancelOp{Operator: l, cancel: cancel, after: 5}
	_, err := eigen.BlockLanczos{}.Solve(ctx, eigen.Problem{A: op, K: 20}, &eigen.Settings{Tol: 1e-14})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if op.late != 0 {
		t.Errorf("%d block products after cancellation", op.late)
	}
}

// TestBlockLanczosBadShape: negative knobs are errors.
func TestBlockLanczosBadShape(t *testing.T) {
	_, l, _ := randomLaplacian(t, 300, graph.Symmetric, 32)
	for _, b := range []eigen.BlockLanczos{{BlockSize: -1}, {NCV: -2}, {Keep: -3}} {
		if _, err := b.Solve(context.Background(), eigen.Problem{A: l, K: 3}, nil); err == nil {
			t.Errorf("%+v: no error", b)
		}
	}
}
