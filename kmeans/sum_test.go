package kmeans_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/kmeans"

	"github.com/tether-sc/tether/internal/testpanic"
)

// scaledIdentity returns the dense kernel v·I on n points.
func scaledIdentity(t *testing.T, n int, v float64) *kmeans.DenseKernel {
	t.Helper()
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		a.SetSym(i, i, v)
	}
	k, err := kmeans.NewDenseKernel(a)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestSumContract: an empty Sum has Dim 0 and is refused with ErrInvalid
// by the functions that return errors; a nil term or terms of different
// dimensions make Dim, Diag and ClusterSumsTo panic with a message naming
// the method and the term, and the error-returning functions report them.
func TestSumContract(t *testing.T) {
	i3, i3b, i4 := scaledIdentity(t, 3, 1), scaledIdentity(t, 3, 2), scaledIdentity(t, 4, 1)

	if d := (kmeans.Sum{}).Dim(); d != 0 {
		t.Errorf("empty Sum: Dim = %d, want 0", d)
	}
	if d := (kmeans.Sum(nil)).Dim(); d != 0 {
		t.Errorf("nil Sum: Dim = %d, want 0", d)
	}
	if d := (kmeans.Sum{i3}).Dim(); d != 3 {
		t.Errorf("one term: Dim = %d, want 3", d)
	}
	if d, v := (kmeans.Sum{i3, i3b}).Dim(), (kmeans.Sum{i3, i3b}).Diag(2); d != 3 || v != 3 {
		t.Errorf("two terms: Dim = %d, Diag(2) = %v, want 3 and 3", d, v)
	}
	// The empty Sum's cluster sums of no points leave a 0×0 dst alone.
	if msg := testpanic.Message(func() { kmeans.Sum{}.ClusterSumsTo(&mat.Dense{}, nil, nil) }); msg != "" {
		t.Errorf("empty Sum: ClusterSumsTo of no points panicked: %s", msg)
	}

	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"Dim mismatch", func() { kmeans.Sum{i3, i4}.Dim() }, "kmeans: Sum.Dim: term 1 has dimension 4, term 0 has 3"},
		{"Dim mismatch later", func() { kmeans.Sum{i4, i4, i3}.Dim() }, "kmeans: Sum.Dim: term 2 has dimension 3, term 0 has 4"},
		{"Dim nil term", func() { kmeans.Sum{i3, nil}.Dim() }, "kmeans: Sum.Dim: term 1 is nil"},
		{"Dim nil first term", func() { kmeans.Sum{nil}.Dim() }, "kmeans: Sum.Dim: term 0 is nil"},
		{"Diag empty", func() { kmeans.Sum{}.Diag(0) }, "kmeans: Sum.Diag(0) of an empty Sum"},
		{"Diag nil term", func() { kmeans.Sum{i3, nil}.Diag(1) }, "kmeans: Sum.Diag: term 1 is nil"},
		{"ClusterSumsTo mismatch", func() { kmeans.Sum{i3, i4}.ClusterSumsTo(mat.NewDense(3, 1, nil), make([]int, 3), nil) },
			"kmeans: Sum.ClusterSumsTo: term 1 has dimension 4, term 0 has 3"},
		{"ClusterSumsTo nil term", func() { kmeans.Sum{nil, i3}.ClusterSumsTo(mat.NewDense(3, 1, nil), make([]int, 3), nil) },
			"kmeans: Sum.ClusterSumsTo: term 0 is nil"},
		{"ClusterSumsTo empty with labels", func() { kmeans.Sum{}.ClusterSumsTo(&mat.Dense{}, []int{0}, nil) },
			"kmeans: ClusterSumsTo size mismatch: kernel 0, dst rows 0, labels 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if msg := testpanic.Message(c.f); !strings.Contains(msg, c.want) {
				t.Errorf("panic %q, want one containing %q", msg, c.want)
			}
		})
	}

	for _, c := range []struct {
		name string
		kern kmeans.Sum
		want string
	}{
		{"empty", kmeans.Sum{}, "no points"},
		{"mismatch", kmeans.Sum{i3, i4}, "Sum: term 1 has dimension 4, term 0 has 3"},
		{"nil term", kmeans.Sum{i3, nil}, "Sum: term 1 is nil"},
	} {
		t.Run("errors/"+c.name, func(t *testing.T) {
			_, err := kmeans.KernelCluster(context.Background(), c.kern, nil, kmeans.Settings{K: 1})
			if !errors.Is(err, kmeans.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("KernelCluster: err = %v, want ErrInvalid containing %q", err, c.want)
			}
			_, err = kmeans.KernelSeed(c.kern, 1, nil, nil)
			if !errors.Is(err, kmeans.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("KernelSeed: err = %v, want ErrInvalid containing %q", err, c.want)
			}
			_, err = kmeans.Objective(c.kern, nil, nil, 1)
			if !errors.Is(err, kmeans.ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Objective: err = %v, want ErrInvalid containing %q", err, c.want)
			}
		})
	}
}
