package cluster

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tether-sc/tether/eigen"
)

// TestStandardOnlySolverOnGeneralizedProblem: with Settings.Eigen a solver
// of standard problems only (eigen.Lanczos, eigen.BlockLanczos), every
// registered method either works (it solves standard problems only, or
// falls back) or refuses with an error wrapping ErrInvalid that names the
// method and the solver. The methods that solve a generalized problem
// A x = λ B x on badInputBase (fast-ge, fast-ge2 on their pencils, csp on
// L̄ and Q̄) used to fail with an error neither eigen's sentinels nor
// cluster's classified.
func TestStandardOnlySolverOnGeneralizedProblem(t *testing.T) {
	generalized := map[string]bool{"fast-ge": true, "fast-ge2": true, "csp": true}
	for _, info := range Methods() {
		for _, sv := range []eigen.Solver{eigen.Lanczos{}, eigen.BlockLanczos{}} {
			solver := strings.TrimPrefix(fmt.Sprintf("%T", sv), "eigen.")
			t.Run(info.Name+"/"+solver, func(t *testing.T) {
				m := info.New()
				p := badInputFor(badInputBase(t), m.Uses())
				_, err := runBad(m, p, &Settings{Eigen: sv})
				switch {
				case err == nil && generalized[info.Name]:
					t.Fatalf("no error, want one wrapping ErrInvalid")
				case err == nil:
				case !errors.Is(err, ErrInvalid):
					t.Fatalf("error %v does not wrap ErrInvalid", err)
				case !errors.Is(err, eigen.ErrInvalid):
					t.Errorf("error %v does not wrap eigen.ErrInvalid", err)
				case !strings.Contains(err.Error(), info.Name+":") || !strings.Contains(err.Error(), solver):
					t.Errorf("error %q does not name the method %s and the solver %s", err, info.Name, solver)
				}
			})
		}
	}
}
