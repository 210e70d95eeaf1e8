package server

import (
	"testing"

	"github.com/tether-sc/tether/cluster"
)

// TestUsesNoKEigensolve checks cluster.Uses.NoKEigensolve, which decides
// whether checkWork's time bounds on an eigensolve of about k vectors
// apply (eigensolvesVectors), for every registered method against a table
// of every method's answer: the methods without such an eigensolve are
// those of the list eigensolvesVectors named before the field existed
// (labelprop, cvqe, plmeans, cpca, clpp). A method missing from the table
// fails the test, so a new method must decide.
func TestUsesNoKEigensolve(t *testing.T) {
	noEigensolve := map[string]bool{
		"auto": false, "njw": false, "ncut": false, "usc": false,
		"bethe": false, "fgpwc": false, "mavro-k": false,
		"noa-ssc": false, "sl": false, "ml-noa-ssc": false, "mcl-noa-ssc": false,
		"sscka": false, "cscap": false, "fast-ge": false, "fast-ge2": false,
		"fast-ge2-bh": false, "csc": false,
		"csp": false, "ccsr": false, "cocluster": false,
		"labelprop": true, "cvqe": true, "plmeans": true, "cpca": true, "clpp": true,
		// Bisections, each solving for a Fiedler vector (hbisect, cosc) or
		// Starts + 1 spectral starts (l1csc), whatever k; one vector
		// (mavro, k = 2); no eigensolve (opplc).
		"hbisect": true, "cosc": true, "l1csc": true, "mavro": true, "opplc": true,
	}
	methods := cluster.Methods()
	if len(methods) != len(noEigensolve) {
		t.Errorf("%d registered methods, %d in the table", len(methods), len(noEigensolve))
	}
	for _, info := range methods {
		want, ok := noEigensolve[info.Name]
		if !ok {
			t.Errorf("%s: not in the table: decide whether it computes its partition without an eigensolve of about k vectors (cluster.Uses.NoKEigensolve)", info.Name)
			continue
		}
		m := info.New()
		if got := m.Uses().NoKEigensolve; got != want {
			t.Errorf("%s: Uses().NoKEigensolve = %v, want %v", info.Name, got, want)
		}
		if got := eigensolvesVectors(m); got == want {
			t.Errorf("%s: eigensolvesVectors = %v, want %v", info.Name, got, !want)
		}
	}
	// plmeans declares it whatever its kernel.
	for _, kern := range []cluster.PLKernel{cluster.PLFeatures, cluster.PLNormalizedCut} {
		if m := (cluster.PLMeans{Kernel: kern}); !m.Uses().NoKEigensolve {
			t.Errorf("plmeans with kernel %v: NoKEigensolve not set", kern)
		}
	}
}

// TestVectorsL1CSCStarts: l1csc, which declares NoKEigensolve, still has
// its eigensolves' memory counted: each bisection solves for Starts + 1
// generalized eigenvectors (its spectral starts; Starts 0 means 3, the
// knob's doc), so vectors is Starts + 1, whatever k (heldVectors: k = 50
// was counted as 50 vectors).
func TestVectorsL1CSCStarts(t *testing.T) {
	for _, c := range []struct {
		starts, k, want int
	}{{0, 2, 4}, {10, 2, 11}, {100, 5, 101}, {0, 50, 4}, {10, 50, 11}} {
		if got, _ := vectors(cluster.L1CSC{Starts: c.starts}, c.k, 1000); got != c.want {
			t.Errorf("l1csc Starts = %d, k = %d: vectors %d, want %d", c.starts, c.k, got, c.want)
		}
	}
}
