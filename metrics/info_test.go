package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestInfoClosedForm(t *testing.T) {
	// truth {0,1}{2,3}, pred {0,1,2}{3}. By hand (natural logs):
	// H1 = ln 2, H2 = ¾ ln(4/3) + ¼ ln 4, cells 2,1,1 give
	// H12 = ½ ln 2 + 2·¼ ln 4 = (3/2) ln 2 (thesis eq. 2.5.11),
	// I = H1 + H2 − H12 (thesis eq. 2.5.10), VI = 2H12 − H1 − H2.
	ln2 := math.Ln2
	h1 := ln2
	h2 := 0.75*math.Log(4.0/3) + 0.25*math.Log(4)
	h12 := 1.5 * ln2
	mi := h1 + h2 - h12
	c, err := NewContingency([]int{0, 0, 1, 1}, []int{0, 0, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-15
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"H(truth)", c.EntropyTruth(), h1},
		{"H(pred)", c.EntropyPred(), h2},
		{"H(joint)", c.JointEntropy(), h12},
		{"I", c.MutualInfo(), mi},
		{"VI", c.VI(), 2*h12 - h1 - h2},
		{"NMI arithmetic", c.NMI(Arithmetic), 2 * mi / (h1 + h2)},
		{"NMI joint", c.NMI(Joint), mi / h12},
		{"NMI max", c.NMI(Max), mi / h1},
		{"NMI min", c.NMI(Min), mi / h2},
		{"NMI geometric", c.NMI(Geometric), mi / math.Sqrt(h1*h2)},
		{"homogeneity", c.Homogeneity(), mi / h1},
		{"completeness", c.Completeness(), mi / h2},
		{"V-measure", c.VMeasure(), 2 * mi / (h1 + h2)},
	} {
		if math.Abs(tc.got-tc.want) > tol {
			t.Errorf("%s = %.17g, want %.17g", tc.name, tc.got, tc.want)
		}
	}
}

func TestNMIIIR(t *testing.T) {
	// Manning et al. 2008 §16.3 (Table 16.2) give NMI ≈ 0.36 for the
	// example of Figure 16.4, normalized by the arithmetic mean.
	truth, pred := iirClusters()
	got, err := NMI(truth, pred, Arithmetic)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-0.36) > 0.005 {
		t.Errorf("NMI = %v, IIR §16.3 gives 0.36", got)
	}
}

func TestHomogeneityWorked(t *testing.T) {
	// Splitting a class keeps every cluster pure (homogeneity 1) but not
	// complete: I = ln 2, H(pred) = ½ ln 2 + ½ ln 4 = (3/2) ln 2, so
	// completeness = 2/3 (Rosenberg & Hirschberg 2007 definitions).
	c, _ := NewContingency([]int{0, 0, 1, 1}, []int{0, 0, 1, 2})
	if h := c.Homogeneity(); math.Abs(h-1) > 1e-15 {
		t.Errorf("homogeneity %v, want 1", h)
	}
	if k := c.Completeness(); math.Abs(k-2.0/3) > 1e-15 {
		t.Errorf("completeness %v, want 2/3", k)
	}
}

func TestVIMeila(t *testing.T) {
	// Meilă 2007 §4: VI ≤ ln n, attained by one cluster against singletons.
	for _, n := range []int{2, 3, 10, 100} {
		one := make([]int, n)
		single := make([]int, n)
		for i := range single {
			single[i] = i
		}
		got, _ := VI(one, single)
		if math.Abs(got-math.Log(float64(n))) > 1e-13 {
			t.Errorf("n=%d: VI(one, singletons) = %v, want ln n = %v", n, got, math.Log(float64(n)))
		}
	}
	// Meilă 2007 Property 6 (convex additivity): splitting cluster k of
	// size n_k into parts adds VI = (n_k/n) H(parts). Here a cluster of 4
	// items of 6 is halved: VI = (4/6) ln 2.
	got, _ := VI([]int{0, 0, 0, 0, 1, 1}, []int{0, 0, 2, 2, 1, 1})
	if want := 4.0 / 6 * math.Ln2; math.Abs(got-want) > 1e-15 {
		t.Errorf("VI after a split = %v, want (4/6) ln 2 = %v", got, want)
	}
}

func TestVIIsMetric(t *testing.T) {
	// Meilă 2007 Property 1: VI is a metric on partitions. Checked on random
	// triples: identity, symmetry, triangle inequality, and the bound
	// VI ≤ 2 ln K* for at most K* ≤ √n clusters (Meilă 2007 Property 5).
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range sizes {
		for rep := range 30 {
			k := 1 + rng.IntN(min(n, 6))
			a := randPartition(rng, n, k)
			b := randPartition(rng, n, 1+rng.IntN(min(n, 6)))
			c := randPartition(rng, n, 1+rng.IntN(min(n, 6)))
			if rep%3 == 0 {
				c = relabelRandom(rng, a) // a partition at distance 0
			}
			vab, _ := VI(a, b)
			vba, _ := VI(b, a)
			vbc, _ := VI(b, c)
			vac, _ := VI(a, c)
			vaa, _ := VI(a, relabelRandom(rng, a))
			if vaa != 0 {
				t.Errorf("n=%d: VI(a, relabelled a) = %v", n, vaa)
			}
			if math.Abs(vab-vba) > 1e-14 {
				t.Errorf("n=%d: VI not symmetric: %v %v", n, vab, vba)
			}
			if vac > vab+vbc+1e-12 {
				t.Errorf("n=%d: triangle inequality fails: %v > %v + %v", n, vac, vab, vbc)
			}
			equal, _ := ARI(a, b)
			if (vab == 0) != (equal == 1) {
				t.Errorf("n=%d: VI = %v but ARI = %v", n, vab, equal)
			}
			ca, _ := NewContingency(a, b)
			kmax := max(ca.Rows(), ca.Cols())
			if float64(kmax) <= math.Sqrt(float64(n)) && vab > 2*math.Log(float64(kmax))+1e-12 {
				t.Errorf("n=%d: VI = %v > 2 ln %d", n, vab, kmax)
			}
			if vab > math.Log(float64(n))+1e-12 {
				t.Errorf("n=%d: VI = %v > ln n", n, vab)
			}
		}
	}
}

func TestInfoProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range sizes {
		for rep := range 20 {
			t.Run(fmt.Sprintf("n=%d/%d", n, rep), func(t *testing.T) {
				truth, pred := randPair(rng, n)
				c, _ := NewContingency(truth, pred)
				s, _ := NewContingency(pred, truth)
				h1, h2, h12, mi := c.EntropyTruth(), c.EntropyPred(), c.JointEntropy(), c.MutualInfo()
				// Identities: I = H1 + H2 − H12, VI = H1 + H2 − 2I.
				if math.Abs(mi-(h1+h2-h12)) > 1e-13 {
					t.Errorf("I = %v, H1 + H2 − H12 = %v", mi, h1+h2-h12)
				}
				if math.Abs(c.VI()-(h1+h2-2*mi)) > 1e-13 {
					t.Errorf("VI = %v, H1 + H2 − 2I = %v", c.VI(), h1+h2-2*mi)
				}
				// Symmetry of every normalization and the order
				// min ≥ geometric ≥ arithmetic ≥ max ≥ joint (means of H1, H2
				// in increasing order, H12 ≥ max).
				prev := 2.0
				for _, z := range []Normalization{Min, Geometric, Arithmetic, Max, Joint} {
					v := c.NMI(z)
					if math.Abs(v-s.NMI(z)) > 1e-14 {
						t.Errorf("NMI %v not symmetric: %v %v", z, v, s.NMI(z))
					}
					if v < 0 || v > 1 || v > prev+1e-15 {
						t.Errorf("NMI %v = %v out of order (previous %v)", z, v, prev)
					}
					prev = v
				}
				if math.Abs(c.Homogeneity()-s.Completeness()) > 1e-14 {
					t.Errorf("homogeneity %v ≠ completeness of the swap %v", c.Homogeneity(), s.Completeness())
				}
				if c.Rows() > 1 || c.Cols() > 1 {
					if math.Abs(c.VMeasure()-c.NMI(Arithmetic)) > 1e-15 {
						t.Errorf("V-measure %v ≠ arithmetic NMI %v", c.VMeasure(), c.NMI(Arithmetic))
					}
				}
				// Base independence: recompute the entropies in bits.
				h1b, h2b, mib := 0.0, 0.0, 0.0
				for i := range c.Rows() {
					p := float64(c.RowSum(i)) / float64(n)
					h1b -= p * math.Log2(p)
				}
				for j := range c.Cols() {
					p := float64(c.ColSum(j)) / float64(n)
					h2b -= p * math.Log2(p)
				}
				c.Do(func(i, j, v int) {
					p := float64(v) / float64(n)
					mib += p * math.Log2(p*float64(n)*float64(n)/float64(c.RowSum(i)*c.ColSum(j)))
				})
				if mib > 1e-12 && math.Abs(2*mib/(h1b+h2b)-c.NMI(Arithmetic)) > 1e-12 {
					t.Errorf("NMI in bits %v, in nats %v", 2*mib/(h1b+h2b), c.NMI(Arithmetic))
				}
			})
		}
	}
}

func TestNMIDegenerate(t *testing.T) {
	// scikit-learn 1.2.1 conventions (normalized_mutual_info_score source):
	// both one cluster → 1; exactly one side one cluster → I = 0 → 0.
	cases := []struct {
		name        string
		truth, pred []int
		want        float64
	}{
		{"both one cluster", []int{1, 1, 1}, []int{2, 2, 2}, 1},
		{"n=1", []int{0}, []int{0}, 1},
		{"one vs two", []int{1, 1, 1, 1}, []int{0, 0, 1, 1}, 0},
		{"two vs one", []int{0, 1, 0, 1}, []int{7, 7, 7, 7}, 0},
		{"both singletons", []int{0, 1, 2, 3}, []int{3, 2, 1, 0}, 1},
		{"independent", []int{0, 0, 1, 1}, []int{0, 1, 0, 1}, 0},
	}
	for _, tc := range cases {
		for _, z := range Normalizations() {
			t.Run(tc.name+"/"+z.String(), func(t *testing.T) {
				got, err := NMI(tc.truth, tc.pred, z)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(got-tc.want) > 1e-15 {
					t.Errorf("NMI = %v, want %v", got, tc.want)
				}
			})
		}
	}
}
