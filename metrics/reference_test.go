package metrics

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// splitMix64 is the generator of testdata/sklearn_reference.py, so that the
// partitions need not be stored.
type splitMix64 struct{ state uint64 }

func (r *splitMix64) next() uint64 {
	r.state += 0x9E3779B97F4A7C15
	z := r.state
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func (r *splitMix64) uniform(k int) int { return int(r.next() % uint64(k)) }

func (r *splitMix64) unit() float64 { return float64(r.next()>>11) * 0x1p-53 }

// refPartitions mirrors generate() of testdata/sklearn_reference.py.
func refPartitions(seed uint64, n, k1, k2 int, tmode, pmode string, spread bool) (truth, pred []int, err error) {
	r := &splitMix64{state: seed}
	truth = make([]int, n)
	pred = make([]int, n)
	for i := range truth {
		switch tmode {
		case "uniform":
			truth[i] = r.uniform(k1)
		case "skewed":
			u := r.unit()
			truth[i] = int(float64(k1) * u * u * u)
		case "one":
			truth[i] = 0
		case "singletons":
			truth[i] = i
		default:
			return nil, nil, fmt.Errorf("unknown truth mode %q", tmode)
		}
	}
	switch {
	case pmode == "indep":
		for i := range pred {
			pred[i] = r.uniform(k2)
		}
	case strings.HasPrefix(pmode, "noisy"):
		pct, err := strconv.Atoi(pmode[5:])
		if err != nil {
			return nil, nil, err
		}
		for i, t := range truth {
			if r.uniform(100) < pct {
				pred[i] = r.uniform(k2)
			} else {
				pred[i] = t % k2
			}
		}
	case pmode == "perm":
		perm := make([]int, k1)
		for i := range perm {
			perm[i] = i
		}
		for j := k1 - 1; j > 0; j-- {
			s := r.uniform(j + 1)
			perm[j], perm[s] = perm[s], perm[j]
		}
		for i, t := range truth {
			pred[i] = perm[t]
		}
	case pmode == "split":
		for i, t := range truth {
			pred[i] = 2*t + r.uniform(2)
		}
	case pmode == "same":
		copy(pred, truth)
	case pmode == "singletons":
		for i := range pred {
			pred[i] = i
		}
	case pmode == "one":
	default:
		return nil, nil, fmt.Errorf("unknown pred mode %q", pmode)
	}
	if spread {
		for i := range truth {
			truth[i] = truth[i]*1000003 - 77
			pred[i] = pred[i]*1000003 - 77
		}
	}
	return truth, pred, nil
}

func fnv64(labels []int) uint64 {
	h := uint64(0xCBF29CE484222325)
	for _, v := range labels {
		x := uint64(v)
		for range 8 {
			h ^= x & 0xFF
			h *= 0x100000001B3
			x >>= 8
		}
	}
	return h
}

// TestReferenceSklearn compares every information-theoretic, pair-counting
// and matching figure with testdata/sklearn_reference.tsv: values computed
// by scikit-learn 1.2.1 (adjusted_rand_score, rand_score, mutual_info_score,
// entropy, normalized_mutual_info_score with each average_method,
// homogeneity_completeness_v_measure) and scipy 1.10.1
// (linear_sum_assignment for the accuracy) on Debian's python3-sklearn, by
// the script testdata/sklearn_reference.py, on several hundred seeded
// random partition pairs with n from 1 to 10⁴ and up to 1000 clusters.
func TestReferenceSklearn(t *testing.T) {
	const tol = 1e-12
	f, err := os.Open("testdata/sklearn_reference.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var header []string
	cases, nontrivial := 0, 0
	maxDiff := 0.0
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") || text == "" {
			continue
		}
		fields := strings.Split(text, "\t")
		if header == nil {
			header = fields
			continue
		}
		if len(fields) != len(header) {
			t.Fatalf("line %d: %d fields, header has %d", line, len(fields), len(header))
		}
		row := map[string]string{}
		for i, h := range header {
			row[h] = fields[i]
		}
		atoi := func(s string) int {
			v, err := strconv.Atoi(row[s])
			if err != nil {
				t.Fatalf("line %d: %s: %v", line, s, err)
			}
			return v
		}
		seed := uint64(atoi("seed"))
		n, k1, k2 := atoi("n"), atoi("k1"), atoi("k2")
		truth, pred, err := refPartitions(seed, n, k1, k2, row["truth"], row["pred"], row["spread"] == "1")
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		if got := fmt.Sprintf("%016x", fnv64(truth)^(fnv64(pred)*31)); got != row["checksum"] {
			t.Fatalf("line %d: regenerated partitions have checksum %s, table says %s", line, got, row["checksum"])
		}
		c, err := NewContingency(truth, pred)
		if err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		got := map[string]float64{
			"ari":            c.ARI(),
			"rand":           c.RandIndex(),
			"mi":             c.MutualInfo(),
			"h_true":         c.EntropyTruth(),
			"h_pred":         c.EntropyPred(),
			"nmi_arithmetic": c.NMI(Arithmetic),
			"nmi_geometric":  c.NMI(Geometric),
			"nmi_min":        c.NMI(Min),
			"nmi_max":        c.NMI(Max),
			"nmi_joint":      c.NMI(Joint),
			"vi":             c.VI(),
			"homogeneity":    c.Homogeneity(),
			"completeness":   c.Completeness(),
			"v_measure":      c.VMeasure(),
			"accuracy":       math.NaN(), // below
			"purity":         c.Purity(),
		}
		// The O(k³) alignment dominates the test time for k near 1000.
		if !testing.Short() || max(c.Rows(), c.Cols()) <= 300 {
			got["accuracy"] = c.Accuracy()
		}
		for _, name := range header[8:] {
			want, err := strconv.ParseFloat(row[name], 64)
			if err != nil {
				t.Fatalf("line %d: %s: %v", line, name, err)
			}
			g, ok := got[name]
			if !ok {
				t.Fatalf("column %q has no Go counterpart", name)
			}
			if math.IsNaN(g) {
				continue // skipped under -short
			}
			maxDiff = max(maxDiff, math.Abs(g-want))
			if math.Abs(g-want) > tol {
				t.Errorf("line %d (seed %d, n=%d, %s/%s): %s = %.17g, scikit-learn %.17g (diff %.3g)",
					line, seed, n, row["truth"], row["pred"], name, g, want, g-want)
			}
		}
		cases++
		if c.Rows() > 1 && c.Cols() > 1 && n > 3 {
			nontrivial++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if nontrivial < 200 {
		t.Errorf("only %d non-trivial reference cases (of %d), want at least 200", nontrivial, cases)
	}
	t.Logf("%d reference cases, %d with n > 3 and several clusters on both sides; largest difference %.3g", cases, nontrivial, maxDiff)
}
