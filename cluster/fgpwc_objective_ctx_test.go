package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/testctx"
)

// sameBits reports whether a and b hold the same numbers, bit for bit.
func sameBits(a, b *mat.Dense) bool {
	ra, ca := a.Dims()
	rb, cb := b.Dims()
	if ra != rb || ca != cb {
		return false
	}
	for i := 0; i < ra; i++ {
		for j := 0; j < ca; j++ {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// randomDense returns an r×c matrix of N(0, 1) entries.
func randomDense(rnd *rand.Rand, r, c int) *mat.Dense {
	a := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			a.Set(i, j, rnd.NormFloat64())
		}
	}
	return a
}

// The blocked products of the objective (mulRowBlocks, mulInnerBlocks)
// give dst.Mul's numbers bit for bit, whatever the block (a multiple of
// gonum's 64 or not, one row, the whole) and the width (gonum's serial
// Dgemm below 2×2 blocks of 64, its parallel one above).
func TestFGPWCBlockedProducts(t *testing.T) {
	rnd := rand.New(rand.NewPCG(6, 6))
	for _, c := range []struct{ rows, m, block int }{
		{1000, 3, 64}, {1000, 3, 100}, {1000, 3, 1}, {1000, 3, 1000}, {1000, 3, 5000},
		{700, 70, 64}, {700, 70, 129}, {300, 130, 77},
	} {
		a, x := randomDense(rnd, c.rows, c.m), randomDense(rnd, c.m, c.m)
		b := randomDense(rnd, c.rows, c.m)
		want := mat.NewDense(c.rows, c.m, nil)
		want.Mul(a, x)
		got := mat.NewDense(c.rows, c.m, nil)
		if err := mulRowBlocks(context.Background(), got, a, x, c.block); err != nil || !sameBits(got, want) {
			t.Errorf("%+v: a·x by blocks of rows differs from Mul (%v)", c, err)
		}
		wantT := mat.NewDense(c.m, c.m, nil)
		wantT.Mul(a.T(), b)
		gotT := mat.NewDense(c.m, c.m, nil)
		gotT.Set(0, 0, 7) // overwritten, not added to
		if err := mulInnerBlocks(context.Background(), gotT, a, b, c.block); err != nil || !sameBits(gotT, wantT) {
			t.Errorf("%+v: aᵀ·b by blocks of rows differs from Mul (%v)", c, err)
		}
	}
}

// blockedObjective returns an objective of 2·fgpwcPairPoll + 77 random
// pairs, three blocks of the products, on an embedding of m = 3
// columns: in the pair form (every pair on nodes of its own) or the node
// form (the pairs on 10⁵ nodes), with weights, and a point x.
func blockedObjective(nodeForm bool) (*fgpwcObjective, *mat.Dense) {
	const k, m = 2*fgpwcPairPoll + 77, 3
	rnd := rand.New(rand.NewPCG(7, 7))
	n := 2 * k
	if nodeForm {
		n = 100000
	}
	v := randomDense(rnd, n, m)
	pairs := make([]constraint.Pair, k)
	for t := range pairs {
		i, j := 2*t, 2*t+1
		if nodeForm {
			i, j = rnd.IntN(n), rnd.IntN(n-1)
			if j >= i {
				j++
			}
		}
		pairs[t] = constraint.Pair{I: i, J: j, Kind: constraint.MustLink + constraint.Kind(rnd.IntN(2)), Weight: 0.5 + rnd.Float64()}
	}
	o := newFGPWCObjective(v, pairs, 0.7, 1.5, 1e-3)
	return o, randomDense(rnd, m, m)
}

// The objective's value and gradient, computed by blocks of fgpwcPairPoll
// pairs with a check of the context between them (evalContext,
// gradToContext), are the one-product computation's bit for bit, in the
// pair form and the node form: the products and sums written out as they
// were before the blocks.
func TestFGPWCObjectiveBlocksMatch(t *testing.T) {
	for _, nodeForm := range []bool{false, true} {
		o, x := blockedObjective(nodeForm)
		if (o.e == nil) != nodeForm {
			t.Fatalf("node form %v, want %v", o.e == nil, nodeForm)
		}
		f, err := o.evalContext(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		g := mat.NewDense(o.m, o.m, nil)
		if err := o.gradToContext(context.Background(), g, x); err != nil {
			t.Fatal(err)
		}
		// The computation in one product, as eval and gradTo did.
		y := mat.NewDense(o.k, o.m, nil)
		if o.e != nil {
			y.Mul(o.e, x)
		} else {
			z := mat.NewDense(len(o.vu.RawMatrix().Data)/o.m, o.m, nil)
			z.Mul(o.vu, x)
			for k := 0; k < o.k; k++ {
				for j := 0; j < o.m; j++ {
					y.Set(k, j, z.At(int(o.ia[k]), j)-z.At(int(o.ib[k]), j))
				}
			}
		}
		want := 0.0
		cy := mat.NewDense(o.k, o.m, nil)
		for k := 0; k < o.k; k++ {
			row := y.RawRowView(k)
			d := 0.0
			for _, v := range row {
				d += v * v
			}
			gk := math.Exp(-o.s[k] * d)
			r := gk - o.q[k]
			want += o.w[k] * r * r
			c := -4 * o.w[k] * o.s[k] * gk * (gk - o.q[k])
			for j := range row {
				cy.Set(k, j, c*row[j])
			}
		}
		nx := mat.Norm(x, 2)
		want += o.gamma * nx * nx
		wantG := mat.NewDense(o.m, o.m, nil)
		if o.e != nil {
			wantG.Mul(o.e.T(), cy)
		} else {
			u, _ := o.vu.Dims()
			gz := mat.NewDense(u, o.m, nil)
			for k := 0; k < o.k; k++ {
				for j := 0; j < o.m; j++ {
					gz.Set(int(o.ia[k]), j, gz.At(int(o.ia[k]), j)+cy.At(k, j))
					gz.Set(int(o.ib[k]), j, gz.At(int(o.ib[k]), j)-cy.At(k, j))
				}
			}
			wantG.Mul(o.vu.T(), gz)
		}
		for i := 0; i < o.m; i++ {
			for j := 0; j < o.m; j++ {
				wantG.Set(i, j, wantG.At(i, j)+2*o.gamma*x.At(i, j))
			}
		}
		if !sameBits(o.y, y) {
			t.Errorf("node form %v: E·x differs from the one product's", nodeForm)
		}
		if math.Float64bits(f) != math.Float64bits(want) {
			t.Errorf("node form %v: F = %v, the one product's %v", nodeForm, f, want)
		}
		if !sameBits(g, wantG) {
			t.Errorf("node form %v: ∇F = %v, the one product's %v", nodeForm, mat.Formatted(g), mat.Formatted(wantG))
		}
	}
}

// A descent cancelled inside its first evaluation of F stops there: the
// product E·x is left after its first block of fgpwcPairPoll rows (the
// rows after it are still zero), and the gradient is not computed, with
// either optimizer. An evaluation took 1–2 s at 10⁷ pairs, which the
// descent ran to the end, and the gradient's after it, before its first
// check of the context.
func TestFGPWCDescentCancelInsideTheEvaluation(t *testing.T) {
	for _, opt := range []FGPWCOptimizer{StepHalving, LBFGS} {
		o, x := blockedObjective(false)
		// The first check, before the first block, passes; the second,
		// before the second block, cancels.
		d, err := descend(testctx.CancelAfter(1), o, x, opt, descentStop{maxIter: 100}, nil)
		if !errors.Is(err, context.Canceled) || d != nil {
			t.Errorf("%v: %v, %v; want no result and context.Canceled", opt, d != nil, err)
		}
		if rest := o.y.Slice(fgpwcPairPoll, o.k, 0, o.m); mat.Norm(rest, 1) != 0 {
			t.Errorf("%v: the rows of E·x after the first block were computed", opt)
		}
		if opt == StepHalving && (o.evals != 1 || o.gradEval != 0) {
			t.Errorf("%v: %d evaluations of F and %d of ∇F begun, want 1 and 0", opt, o.evals, o.gradEval)
		}
	}
}
