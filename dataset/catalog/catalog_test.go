package catalog

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tether-sc/tether/dataset"
)

// root is the shared datasets folder: ../shared/datasets from the
// repository root, which is two levels above this package.
var root = filepath.Join("..", "..", "..", "shared", "datasets")

func needData(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(root, "MANIFEST.md")); err != nil {
		t.Skipf("datasets not found at %s", root)
	}
}

// The expected shapes and class counts come from MANIFEST.md ("rows",
// "features", "classes (counts)"), except where a comment says otherwise.
var want = map[string]struct {
	n, p   int // p = 0: not a feature table
	counts map[string]int
	edges  int // undirected edges of Data.Graph (0: not checked)
}{
	"iris":       {150, 4, map[string]int{"Iris-setosa": 50, "Iris-versicolor": 50, "Iris-virginica": 50}, 0},
	"wine":       {178, 13, map[string]int{"1": 59, "2": 71, "3": 48}, 0},
	"glass":      {214, 9, map[string]int{"1": 70, "2": 76, "3": 17, "5": 13, "6": 9, "7": 29}, 0},
	"ionosphere": {351, 34, map[string]int{"g": 225, "b": 126}, 0},
	// Complete rows only: `tail -n +2 hepatitis.data | grep -v '?' | cut
	// -d, -f1 | sort | uniq -c` gives 13 × 1 and 67 × 2 (80 rows, the size in
	// seed 003 Table 1).
	"hepatitis": {80, 19, map[string]int{"1": 13, "2": 67}, 0},
	"wdbc":      {569, 30, map[string]int{"B": 357, "M": 212}, 0},
	// 15 booleans one-hot (30 columns) + legs.
	"zoo":           {101, 31, map[string]int{"mammal": 41, "bird": 20, "reptile": 5, "fish": 13, "amphibian": 4, "insect": 8, "invertebrate": 10}, 0},
	"breast-tissue": {106, 9, map[string]int{"car": 21, "fad": 15, "mas": 18, "gla": 16, "con": 14, "adi": 22}, 0},
	// One-hot: hobby 3 + age 4 + education 4 + marital status 4 values
	// (hayes-roth.names).
	"hayes-roth":     {132, 15, map[string]int{"1": 51, "2": 51, "3": 30}, 0},
	"hayes-roth-160": {160, 15, map[string]int{"1": 65, "2": 64, "3": 31}, 0},
	// 228 distinct (position, nucleotide) pairs, counted with awk.
	"promoters":     {106, 228, map[string]int{"+": 53, "-": 53}, 0},
	"spambase":      {4601, 57, map[string]int{"1": 1813, "0": 2788}, 0},
	"tic-tac-toe":   {958, 27, map[string]int{"positive": 626, "negative": 332}, 0},
	"vehicle":       {846, 18, map[string]int{"bus": 218, "opel": 212, "saab": 217, "van": 199}, 0},
	"heart-statlog": {270, 13, map[string]int{"absent": 150, "present": 120}, 0},
	"phoneme":       {5404, 5, map[string]int{"0": 3818, "1": 1586}, 0},
	"karate":        {34, 0, map[string]int{"Mr. Hi": 17, "Officer": 17}, 78},
	"wiki": {2405, 0, map[string]int{"0": 92, "1": 406, "2": 203, "3": 103, "4": 10, "5": 361, "6": 157, "7": 53, "8": 109,
		"9": 11, "10": 269, "11": 179, "12": 9, "13": 30, "14": 77, "15": 228, "16": 108}, 11596},
	// Citation edges: distinct unordered non-self pairs of the .cites
	// file, counted with awk.
	"webkb-cornell":    {195, 1703, map[string]int{"student": 83, "course": 42, "faculty": 32, "project": 19, "staff": 19}, 283},
	"webkb-texas":      {187, 1703, map[string]int{"student": 103, "course": 34, "faculty": 31, "project": 18, "staff": 1}, 280},
	"webkb-washington": {230, 1703, map[string]int{"student": 107, "course": 66, "faculty": 27, "project": 21, "staff": 9}, 366},
	"webkb-wisconsin":  {265, 1703, map[string]int{"student": 122, "course": 76, "faculty": 35, "project": 22, "staff": 10}, 459},
	"classic3":         {3891, 0, map[string]int{"cisi": 1460, "cran": 1398, "med": 1033}, 0},
}

func TestCatalogComplete(t *testing.T) {
	names := Names()
	if len(names) != len(want) {
		t.Errorf("%d entries, the test knows %d", len(names), len(want))
	}
	for _, name := range names {
		e, _ := Lookup(name)
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: not checked by this test", name)
			continue
		}
		if e.N != w.n || e.K != len(w.counts) {
			t.Errorf("%s: Entry says N=%d K=%d, want %d, %d", name, e.N, e.K, w.n, len(w.counts))
		}
		if e.Notes == "" || len(e.Files) == 0 {
			t.Errorf("%s: undocumented", name)
		}
	}
	if _, err := Load("nope", root, nil); !errors.Is(err, ErrUnknown) {
		t.Errorf("Load(nope) = %v", err)
	}
}

func TestLoad(t *testing.T) {
	needData(t)
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			if name == "classic3" && testing.Short() {
				t.Skip("slow")
			}
			w := want[name]
			d, err := Load(name, root, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d.N() != w.n {
				t.Errorf("N = %d, want %d", d.N(), w.n)
			}
			counts := map[string]int{}
			for _, l := range d.Labels {
				counts[d.ClassNames[l]]++
			}
			if !reflect.DeepEqual(counts, w.counts) {
				t.Errorf("class counts %v, want %v", counts, w.counts)
			}
			if w.p > 0 {
				n, p := d.Table.Dims()
				if n != w.n || p != w.p {
					t.Errorf("table %d×%d, want %d×%d", n, p, w.n, w.p)
				}
				// Min–max scaling: every feature in [0,1] with 0 attained.
				for j := 0; j < p; j++ {
					lo, hi := math.Inf(1), math.Inf(-1)
					for i := 0; i < n; i++ {
						v := d.Table.X.At(i, j)
						lo, hi = math.Min(lo, v), math.Max(hi, v)
					}
					if lo != 0 || hi > 1 {
						t.Errorf("feature %d (%s) in [%v,%v] after min–max", j, d.Table.Features[j], lo, hi)
						break
					}
				}
			}
			if w.edges > 0 {
				if got := len(d.Graph.G.Edges()); got != w.edges {
					t.Errorf("%d edges, want %d", got, w.edges)
				}
				if d.Graph.G.N() != w.n {
					t.Errorf("graph has %d nodes, want %d", d.Graph.G.N(), w.n)
				}
			}
		})
	}
}

func TestClassic3(t *testing.T) {
	needData(t)
	if testing.Short() {
		t.Skip("slow")
	}
	d, err := Load("classic3", root, &Options{KNN: 5})
	if err != nil {
		t.Fatal(err)
	}
	r, c := d.Terms.Dims()
	// 184772 triplets of docbyterm.txt belong to documents 3205–7095
	// (awk 'NR>1 && $1>=3205' | wc -l); the terms are those of Classic4.
	if r != 3891 || c != 5896 || d.Terms.NNZ() != 184772 {
		t.Errorf("terms %d×%d with %d entries, want 3891×5896 with 184772", r, c, d.Terms.NNZ())
	}
	g := d.Graph.G
	// Each node chooses its 5 most similar documents, so its degree in
	// edges is at least 5; weights are cosines in (0,1].
	for i := 0; i < g.N(); i++ {
		idx, w := g.Row(i)
		if len(idx) < 5 {
			t.Fatalf("node %d has %d neighbours", i, len(idx))
		}
		for k, j := range idx {
			if int(j) == i || w[k] <= 0 || w[k] > 1 {
				t.Fatalf("edge (%d,%d) weight %v", i, j, w[k])
			}
		}
	}
	// Brute force check of one row: the 5 neighbours chosen by node 0 are
	// the 5 largest cosines computed directly from the tf–idf rows.
	x := dataset.TFIDF(d.Terms)
	dot := func(a, b int) float64 {
		ia, va := x.Row(a)
		ib, vb := x.Row(b)
		var s float64
		for p, q := 0, 0; p < len(ia) && q < len(ib); {
			switch {
			case ia[p] == ib[q]:
				s += va[p] * vb[q]
				p++
				q++
			case ia[p] < ib[q]:
				p++
			default:
				q++
			}
		}
		return s
	}
	cos := make([]float64, r)
	for j := 1; j < r; j++ {
		cos[j] = dot(0, j) / math.Sqrt(dot(0, 0)*dot(j, j))
	}
	// The fifth largest cosine bounds every edge weight chosen by node 0.
	sorted := append([]float64(nil), cos[1:]...)
	for a := 0; a < 5; a++ {
		for b := a + 1; b < len(sorted); b++ {
			if sorted[b] > sorted[a] {
				sorted[a], sorted[b] = sorted[b], sorted[a]
			}
		}
	}
	idx, w := g.Row(0)
	atLeast := 0
	for k, j := range idx {
		if math.Abs(w[k]-cos[j]) > 1e-12 {
			t.Errorf("W[0,%d] = %v, brute force cosine %v", j, w[k], cos[j])
		}
		if w[k] >= sorted[4]-1e-12 {
			atLeast++
		}
	}
	if atLeast < 5 {
		t.Errorf("only %d neighbours of node 0 reach the 5th largest cosine %v", atLeast, sorted[4])
	}
}
