package cluster

import (
	"fmt"
	"math"
)

// betheImplausibleK returns a warning when the k that BetheHessian
// estimated (Problem.K = 0) from the count of negative eigenvalues of
// H(r) is implausible, "" when it is not. It changes neither the estimate
// nor the partition: it says that the caller should give k.
//
// The rule: the estimate is implausible when
//
//   - it is more than √n clusters (k² > n), fewer than √n nodes a cluster
//     on average; or
//   - it is the cap MaxK (capped: H(r) had more negative eigenvalues than
//     MaxK, or all those computed were negative), a bound rather than a
//     count.
//
// The count of negative eigenvalues of H(r) estimates the number of
// communities of a sparse graph (Saade, Krzakala & Zdeborová 2014, for
// the stochastic block model; seed 004 §3.2). On the k-NN or RBF graph of
// feature points, dense and locally uniform, H(r) has a negative
// eigenvalue for nearly every small neighbourhood: the 10-NN graph of
// tether gen moons (1000 points, 2 classes) gave k = 83, 12 nodes a
// cluster, with ARI 0.02 and no word. √n keeps the estimates the method
// is for: docs/results/kestimate measures it on block models of up to 8
// blocks on 3000 nodes (√n ≈ 55), and flags only the wiki network's 59
// (n = 2405, 17 classes) of its real networks; the rule of thumb
// k ≈ √(n/2) (Mardia, Kent & Bibby 1979) is below it. The remedy, giving
// k, is spelled by s (Settings.Spelling). Cost O(1).
func betheImplausibleK(k, n int, capped bool, s *Settings) string {
	give := "give k " + s.remedy("Problem.K", "k")
	if capped {
		return fmt.Sprintf("bethe: k = %d is the cap MaxK, not a count: H(r) has at least that many negative eigenvalues; the count estimates the communities of sparse graphs (Saade et al. 2014), and a dense graph, such as the k-NN or RBF graph of feature points, gives about one per small neighbourhood of nodes: the estimate is unreliable on this graph; %s", k, give)
	}
	if k*k <= n {
		return ""
	}
	return fmt.Sprintf("bethe: k = %d estimated for %d nodes is implausible (more than √n ≈ %.1f clusters, %.1f nodes a cluster on average): the count of negative eigenvalues of H(r) estimates the communities of sparse graphs (Saade et al. 2014), and a dense graph, such as the k-NN or RBF graph of feature points, gives about one per small neighbourhood of nodes: the estimate is unreliable on this graph; %s", k, n, math.Sqrt(float64(n)), float64(n)/float64(k), give)
}
