package metrics_test

import (
	"fmt"
	"log"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// The worked example of Manning, Raghavan & Schütze (2008) §16.3: 17 items
// of classes x, o, ◇ in three clusters.
var (
	iirTruth = []int{0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 2, 0, 0, 2, 2, 2}
	iirPred  = []int{1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3}
)

// Luo (2005) Figure 1: key entities {1…5}, {6,7}, {8…12} and response (a),
// which merges the last two.
var (
	luoKey  = []int{0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2}
	luoResp = []int{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1}
)

func ExampleARI() {
	ari, err := metrics.ARI([]int{0, 0, 1, 2}, []int{5, 5, 7, 7})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ARI = %.4f\n", ari)
	// Output: ARI = 0.5714
}

func ExampleNMI() {
	for _, z := range metrics.Normalizations() {
		v, err := metrics.NMI(iirTruth, iirPred, z)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-10s %.4f\n", z, v)
	}
	// Output:
	// arithmetic 0.3646
	// joint      0.2229
	// max        0.3579
	// geometric  0.3646
	// min        0.3715
}

func ExampleVI() {
	vi, _ := metrics.VI([]int{0, 0, 0, 0}, []int{0, 1, 2, 3})
	fmt.Printf("VI = %.4f nats (ln 4)\n", vi)
	// Output: VI = 1.3863 nats (ln 4)
}

func ExampleRandIndex() {
	ri, _ := metrics.RandIndex(iirTruth, iirPred)
	fmt.Printf("RI = %.4f\n", ri)
	// Output: RI = 0.6765
}

func ExampleEntropy() {
	h, _ := metrics.Entropy([]int{3, 3, 8, 8})
	fmt.Printf("H = %.4f nats\n", h)
	// Output: H = 0.6931 nats
}

func ExamplePurity() {
	p, _ := metrics.Purity(iirTruth, iirPred)
	fmt.Printf("purity = %.4f\n", p)
	// Output: purity = 0.7059
}

func ExampleAccuracy() {
	// Cluster names need not match class names: the best map is found.
	a, _ := metrics.Accuracy([]int{0, 0, 1, 1, 2, 2}, []int{7, 7, 5, 5, 5, 9})
	fmt.Printf("accuracy = %.4f\n", a)
	// Output: accuracy = 0.8333
}

func ExampleCoNLL() {
	s, _ := metrics.CoNLL(luoKey, luoResp)
	fmt.Printf("CoNLL = %.4f\n", s)
	// Output: CoNLL = 0.8485
}

func ExampleHungarian() {
	cost := [][]float64{{4, 1, 3}, {2, 0, 5}, {3, 2, 2}}
	assign, total := metrics.Hungarian(cost)
	fmt.Println(assign, total)
	// Output: [1 0 2] 5
}

func ExampleNewContingency() {
	c, err := metrics.NewContingency([]int{0, 0, 1, 1, 1}, []int{4, 2, 2, 2, 2})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d items, %d×%d, %d non-empty cells\n", c.N(), c.Rows(), c.Cols(), c.NNZ())
	for i := range c.Rows() {
		for j := range c.Cols() {
			fmt.Printf("truth %d, pred %d: %d\n", c.TruthLabel(i), c.PredLabel(j), c.At(i, j))
		}
	}
	fmt.Println("row sums", c.RowSum(0), c.RowSum(1), "column sums", c.ColSum(0), c.ColSum(1))
	// Output:
	// 5 items, 2×2, 3 non-empty cells
	// truth 0, pred 2: 1
	// truth 0, pred 4: 1
	// truth 1, pred 2: 3
	// truth 1, pred 4: 0
	// row sums 2 3 column sums 4 1
}

func ExampleContingency_Do() {
	c, _ := metrics.NewContingency([]int{0, 0, 1}, []int{1, 0, 0})
	c.Do(func(i, j, count int) { fmt.Println(i, j, count) })
	// Output:
	// 0 0 1
	// 0 1 1
	// 1 0 1
}

func ExampleContingency_Transpose() {
	c, _ := metrics.NewContingency([]int{0, 0, 1}, []int{1, 0, 0})
	t := c.Transpose()
	fmt.Println(t.Rows(), t.Cols(), t.At(0, 1), t.At(1, 0))
	// Output: 2 2 1 1
}

func ExampleContingency_PairCounts() {
	c, _ := metrics.NewContingency(iirTruth, iirPred)
	tp, fp, fn, tn := c.PairCounts()
	fmt.Println(tp, fp, fn, tn)
	// Output: 20 20 24 72
}

func ExampleContingency_RandIndex() {
	c, _ := metrics.NewContingency(iirTruth, iirPred)
	fmt.Printf("%.4f\n", c.RandIndex())
	// Output: 0.6765
}

func ExampleContingency_ARI() {
	c, _ := metrics.NewContingency(iirTruth, iirPred)
	fmt.Printf("%.4f\n", c.ARI())
	// Output: 0.2429
}

func ExampleContingency_Pairwise() {
	c, _ := metrics.NewContingency(iirTruth, iirPred)
	p := c.Pairwise()
	fmt.Printf("P %.4f R %.4f F1 %.4f\n", p.Precision, p.Recall, p.F1)
	// Output: P 0.5000 R 0.4545 F1 0.4762
}

func ExampleContingency_NMI() {
	c, _ := metrics.NewContingency(iirTruth, iirPred)
	fmt.Printf("thesis %.4f, seeds 001/004 %.4f\n", c.NMI(metrics.Joint), c.NMI(metrics.Arithmetic))
	// Output: thesis 0.2229, seeds 001/004 0.3646
}

func ExampleContingency_MutualInfo() {
	c, _ := metrics.NewContingency([]int{0, 0, 1, 1}, []int{0, 0, 0, 1})
	fmt.Printf("H1 %.4f H2 %.4f H12 %.4f I %.4f\n", c.EntropyTruth(), c.EntropyPred(), c.JointEntropy(), c.MutualInfo())
	// Output: H1 0.6931 H2 0.5623 H12 1.0397 I 0.2158
}

func ExampleContingency_VI() {
	c, _ := metrics.NewContingency([]int{0, 0, 0, 0, 1, 1}, []int{0, 0, 2, 2, 1, 1})
	fmt.Printf("%.4f\n", c.VI())
	// Output: 0.4621
}

func ExampleContingency_Homogeneity() {
	c, _ := metrics.NewContingency([]int{0, 0, 1, 1}, []int{0, 0, 1, 2})
	fmt.Printf("h %.4f c %.4f v %.4f\n", c.Homogeneity(), c.Completeness(), c.VMeasure())
	// Output: h 1.0000 c 0.6667 v 0.8000
}

func ExampleContingency_Completeness() {
	c, _ := metrics.NewContingency([]int{0, 0, 1, 1}, []int{0, 0, 0, 0})
	fmt.Printf("%.4f\n", c.Completeness())
	// Output: 1.0000
}

func ExampleContingency_VMeasure() {
	c, _ := metrics.NewContingency(iirTruth, iirPred)
	fmt.Printf("%.4f\n", c.VMeasure())
	// Output: 0.3646
}

func ExampleContingency_Purity() {
	c, _ := metrics.NewContingency(iirTruth, iirPred)
	fmt.Printf("purity %.4f inverse %.4f\n", c.Purity(), c.InversePurity())
	// Output: purity 0.7059 inverse 0.7059
}

func ExampleContingency_Accuracy() {
	c, _ := metrics.NewContingency([]int{0, 0, 0, 1, 1, 1}, []int{0, 0, 1, 2, 3, 3})
	fmt.Printf("%.4f\n", c.Accuracy())
	for j, i := range c.Matching() {
		if i >= 0 {
			fmt.Printf("cluster %d → class %d\n", c.PredLabel(j), c.TruthLabel(i))
		}
	}
	// Output:
	// 0.6667
	// cluster 0 → class 0
	// cluster 3 → class 1
}

func ExampleContingency_MUC() {
	c, _ := metrics.NewContingency(luoKey, luoResp)
	m := c.MUC()
	fmt.Printf("P %.4f R %.4f F1 %.4f\n", m.Precision, m.Recall, m.F1)
	// Output: P 0.9000 R 1.0000 F1 0.9474
}

func ExampleContingency_B3() {
	c, _ := metrics.NewContingency(luoKey, luoResp)
	b := c.B3()
	fmt.Printf("P %.4f R %.4f F1 %.4f\n", b.Precision, b.Recall, b.F1)
	// Output: P 0.7619 R 1.0000 F1 0.8649
}

func ExampleContingency_CEAFe() {
	c, _ := metrics.NewContingency(luoKey, luoResp)
	e, m := c.CEAFe(), c.CEAFm()
	fmt.Printf("CEAF_e P %.4f R %.4f F1 %.4f; CEAF_m F1 %.4f\n", e.Precision, e.Recall, e.F1, m.F1)
	// Output: CEAF_e P 0.9167 R 0.6111 F1 0.7333; CEAF_m F1 0.8333
}

func ExampleContingency_CoNLL() {
	c, _ := metrics.NewContingency(luoKey, luoResp)
	fmt.Printf("%.4f\n", c.CoNLL())
	// Output: 0.8485
}

func ExampleContingency_ClassF1() {
	c, _ := metrics.NewContingency([]int{0, 0, 0, 1}, []int{0, 0, 1, 1})
	for _, s := range c.Classes() {
		fmt.Printf("class %d (%d items): P %.4f R %.4f\n", s.Label, s.Size, s.Precision, s.Recall)
	}
	f, count := c.ClassF1(2)
	fmt.Printf("F1 over %d class(es) of size ≥ 2: %.4f\n", count, f.F1)
	// Output:
	// class 0 (3 items): P 0.8333 R 0.5556
	// class 1 (1 items): P 0.5000 R 1.0000
	// F1 over 1 class(es) of size ≥ 2: 0.6667
}

func ExampleNormalization_String() {
	fmt.Println(metrics.Joint, metrics.Arithmetic)
	// Output: joint arithmetic
}

func ExampleCutFigures() {
	// A path 0–1–2–3 with weights 1, 2, 1 cut after node 0.
	g, _ := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 2}, {I: 2, J: 3, W: 1}})
	c, _ := metrics.CutFigures(g, []int{0, 1, 1, 1})
	fmt.Printf("cut %.4f ratio cut %.4f Ncut %.4f\n", c.Cut, c.RatioCut, c.Ncut)
	// Output: cut 1.0000 ratio cut 1.3333 Ncut 1.1429
}

func ExampleCut() {
	g, _ := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 2}, {I: 1, J: 2, W: 3}})
	c, _ := metrics.Cut(g, []int{0, 0, 1})
	fmt.Println(c)
	// Output: 3
}

func ExampleRatioCut() {
	g, _ := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 2}, {I: 1, J: 2, W: 3}})
	r, _ := metrics.RatioCut(g, []int{0, 0, 1})
	fmt.Printf("%.4f\n", r) // 3/2 + 3/1
	// Output: 4.5000
}

func ExampleNcut() {
	g, _ := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 2}, {I: 1, J: 2, W: 3}})
	r, _ := metrics.Ncut(g, []int{0, 0, 1})
	fmt.Printf("%.4f\n", r) // 3/(2+5) + 3/3
	// Output: 1.4286
}

func ExampleViolations() {
	set := &constraint.Set{N: 3, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},
		{I: 1, J: 2, Kind: constraint.CannotLink},
	}}
	ml, cl, err := metrics.Violations(set, []int{0, 1, 1})
	fmt.Println(ml, cl, err)
	// Output: 1 1 <nil>
}

func ExampleEvaluate() {
	r, err := metrics.Evaluate(luoKey, luoResp, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range r.Figures[:4] {
		fmt.Printf("%-14s %.4f\n", f.Name, f.Value)
	}
	conll, _ := r.Get("conll")
	fmt.Printf("conll          %.4f\n", conll)
	// Output:
	// rand           0.8485
	// ari            0.6901
	// pair_precision 0.6774
	// pair_recall    1.0000
	// conll          0.8485
}

func ExampleReport_Get() {
	r, _ := metrics.Evaluate([]int{0, 0, 1, 1}, []int{1, 1, 0, 0}, nil)
	v, ok := r.Get("nmi_joint")
	fmt.Println(v, ok)
	// Output: 1 true
}

func ExampleMUC() {
	// Vilain et al. (1995): key {A,B,C,D}, response {A,B}{C,D}.
	m, _ := metrics.MUC([]int{0, 0, 0, 0}, []int{0, 0, 1, 1})
	fmt.Printf("P %.4f R %.4f\n", m.Precision, m.Recall)
	// Output: P 1.0000 R 0.6667
}

func ExampleB3() {
	b, _ := metrics.B3(luoKey, luoResp)
	fmt.Printf("%.4f\n", b.F1)
	// Output: 0.8649
}

func ExampleCEAFe() {
	e, _ := metrics.CEAFe(luoKey, luoResp)
	fmt.Printf("%.4f\n", e.F1)
	// Output: 0.7333
}

func ExampleCEAFm() {
	m, _ := metrics.CEAFm(luoKey, luoResp)
	fmt.Printf("%.4f\n", m.F1)
	// Output: 0.8333
}

// DefaultMinSizes returns a new slice each call: a caller may change it
// (here to ask Options.MinSizes for class_f1_min3 instead of _min2)
// without changing Evaluate's default.
func ExampleDefaultMinSizes() {
	sizes := metrics.DefaultMinSizes()
	sizes[0] = 3
	fmt.Println(sizes, metrics.DefaultMinSizes())
	// Output: [3 5 10] [2 5 10]
}
