package eigen_test

import (
	"testing"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/eigen/eigentest"
)

func TestDenseConformance(t *testing.T) { eigentest.Run(t, eigen.Dense{}) }
func TestLanczosConformance(t *testing.T) {
	eigentest.Run(t, eigen.Lanczos{}, eigentest.StandardOnly())
}
func TestLOBPCGConformance(t *testing.T) { eigentest.Run(t, eigen.LOBPCG{}) }
func TestBlockLanczosConformance(t *testing.T) {
	eigentest.Run(t, eigen.BlockLanczos{}, eigentest.StandardOnly())
}
