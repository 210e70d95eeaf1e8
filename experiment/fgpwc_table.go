package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/catalog"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// fgpwcRow is one dataset of seed 003 Table 1 with the published figures
// (NaN where the paper has "-" or no column).
type fgpwcRow struct {
	name   string // our name (catalog or synth)
	paper  string // the paper's name
	n, k   int    // the paper's size and class count
	sim    string // "RBF", "Cosine" or "Network" (Table 1 "Similarity")
	m      int    // Table 1 "m"
	note   string // how our data differs from the paper's, if it does
	skip   string // why the row is not run (empty: it is)
	noCV   bool   // leave out the cross-validated FGPWC (budget)
	tune   [2]float64
	noTune [2]float64
	sl     [2]float64
	// thesis Table 4.4 (seed 000 §4.5.1); its FGPWC column equals the
	// paper's "tuning".
	sscka, fastge, cscap [2]float64
	// seed 003 Table 1's CSP, COSC and CCSR columns. Thesis Table 4.4 has
	// the same CCSR figures, and the same COSC figures except on
	// ionosphere, iris and promoters (thesisCOSC; the sources disagree).
	csp, cosc, ccsr [2]float64
	thesisCOSC      [2]float64
}

var nan = math.NaN()

// fgpwcRows are the datasets of seed 003 Table 1 we can build: every UCI,
// WebKB and network set in ../shared/datasets and the three generated
// sets. imdb is not available. Figures: [ARI, violations].
var fgpwcRows = []fgpwcRow{
	{name: "breast-tissue", paper: "breasttissue", n: 106, k: 6, sim: "RBF", m: 20, tune: [2]float64{0.3088, 3}, noTune: [2]float64{0.3271, 2}, sl: [2]float64{-0.0050, 35}, sscka: [2]float64{0.2358, 12}, fastge: [2]float64{0.0462, 18}, cscap: [2]float64{0.3720, 4}, csp: [2]float64{0.1339, 52}, cosc: [2]float64{0.0695, 9}, ccsr: [2]float64{0.2104, 5}, thesisCOSC: [2]float64{0.0695, 9}},
	{name: "glass", paper: "glass", n: 214, k: 6, sim: "RBF", m: 20, tune: [2]float64{0.2552, 16}, noTune: [2]float64{0.1461, 23}, sl: [2]float64{0.0115, 73}, sscka: [2]float64{0.1257, 45}, fastge: [2]float64{0.0039, 56}, cscap: [2]float64{0.1733, 46}, csp: [2]float64{0.0182, 124}, cosc: [2]float64{0.0347, 20}, ccsr: [2]float64{0.1872, 26}, thesisCOSC: [2]float64{0.0347, 20}},
	{name: "hayes-roth", paper: "hayes-roth", n: 132, k: 3, sim: "Cosine", m: 20, tune: [2]float64{0.2783, 3}, noTune: [2]float64{0.1736, 13}, sl: [2]float64{-0.0146, 35}, sscka: [2]float64{-0.0136, 24}, fastge: [2]float64{0.0012, 30}, cscap: [2]float64{0.4121, 22}, csp: [2]float64{0.0170, 78}, cosc: [2]float64{0.0079, 12}, ccsr: [2]float64{0.0842, 21}, thesisCOSC: [2]float64{0.0079, 12}},
	{name: "hepatitis", paper: "hepatitis", n: 80, k: 2, sim: "RBF", m: 10, tune: [2]float64{0.1910, 10}, noTune: [2]float64{0.1220, 11}, sl: [2]float64{0.0822, 17}, sscka: [2]float64{0.0224, 19}, fastge: [2]float64{0.1299, 6}, cscap: [2]float64{0.1002, 21}, csp: [2]float64{0.0106, 42}, cosc: [2]float64{0.0184, 0}, ccsr: [2]float64{-0.0127, 17}, thesisCOSC: [2]float64{0.0184, 0}},
	{name: "circles", paper: "interlaced circles", n: 900, k: 3, sim: "RBF", m: 60, note: "our generator (synth.InterlacedCircles, noise 0.1); the paper does not define its data", tune: [2]float64{0.6458, 53}, noTune: [2]float64{0.3023, 131}, sl: [2]float64{0.1260, 208}, sscka: [2]float64{0.1164, 180}, fastge: [2]float64{-0.0009, 265}, cscap: [2]float64{nan, nan}, csp: [2]float64{0.0002, 574}, cosc: [2]float64{0.0110, 172}, ccsr: [2]float64{nan, nan}, thesisCOSC: [2]float64{0.0110, 172}},
	{name: "ionosphere", paper: "ionosphere", n: 351, k: 2, sim: "RBF", m: 50, tune: [2]float64{0.5041, 37}, noTune: [2]float64{0.4037, 11}, sl: [2]float64{0.0045, 68}, sscka: [2]float64{0.0045, 86}, fastge: [2]float64{0.1598, 69}, cscap: [2]float64{0.0982, 70}, csp: [2]float64{0.0045, 172}, cosc: [2]float64{0.0889, 19}, ccsr: [2]float64{nan, nan}, thesisCOSC: [2]float64{0.4685, 0}},
	{name: "iris", paper: "iris", n: 150, k: 3, sim: "RBF", m: 10, tune: [2]float64{0.9410, 1}, noTune: [2]float64{0.8841, 2}, sl: [2]float64{0.5657, 16}, sscka: [2]float64{0.6465, 9}, fastge: [2]float64{0.2544, 25}, cscap: [2]float64{0.3940, 20}, csp: [2]float64{0.0142, 68}, cosc: [2]float64{0.0797, 0}, ccsr: [2]float64{0.8485, 4}, thesisCOSC: [2]float64{0.5685, 10}},
	{name: "moons", paper: "moons", n: 900, k: 2, sim: "RBF", m: 10, note: "our generator (synth.Moons, noise 0.1)", tune: [2]float64{0.9215, 19}, noTune: [2]float64{0.9045, 22}, sl: [2]float64{0.0643, 231}, sscka: [2]float64{0.0647, 227}, fastge: [2]float64{-0.0003, 176}, cscap: [2]float64{0.9956, 0}, csp: [2]float64{0.0000, 468}, cosc: [2]float64{nan, nan}, ccsr: [2]float64{0.6684, 72}, thesisCOSC: [2]float64{nan, nan}},
	{name: "phoneme", paper: "phoneme", n: 4509, k: 5, sim: "RBF", m: 200, note: "a different data set: ELENA phoneme, 5404 points, 2 classes (the paper's has 4509 points, 5 classes)", skip: "not the paper's data set (ELENA phoneme: 5404 points, 2 classes; the paper's has 4509 points, 5 classes), and with m = 200 on a dense graph of 2.9·10⁷ weights it alone would take more than the 15-minute budget (about 20 minutes for all columns)", tune: [2]float64{0.7073, 126}, noTune: [2]float64{0.0461, 746}, sl: [2]float64{-0.0002, 1842}, sscka: [2]float64{0.0005, 987}, fastge: [2]float64{0.0011, 1197}, cscap: [2]float64{nan, nan}, csp: [2]float64{nan, nan}, cosc: [2]float64{nan, nan}, ccsr: [2]float64{nan, nan}, thesisCOSC: [2]float64{nan, nan}},
	{name: "promoters", paper: "promoters", n: 106, k: 2, sim: "Cosine", m: 10, tune: [2]float64{0.7182, 3}, noTune: [2]float64{0.4307, 3}, sl: [2]float64{0.0007, 21}, sscka: [2]float64{0.4274, 7}, fastge: [2]float64{-0.0006, 29}, cscap: [2]float64{0.4563, 0}, csp: [2]float64{0.0043, 70}, cosc: [2]float64{0.0341, 0}, ccsr: [2]float64{0.5946, 8}, thesisCOSC: [2]float64{0.3358, 0}},
	{name: "spambase", paper: "spam", n: 4601, k: 2, sim: "RBF", m: 20, tune: [2]float64{0.9783, 21}, noTune: [2]float64{0.0002, 1127}, sl: [2]float64{0.0002, 1067}, sscka: [2]float64{0.0000, 1128}, fastge: [2]float64{-0.0001, 1931}, cscap: [2]float64{0.9991, 0}, csp: [2]float64{nan, nan}, cosc: [2]float64{nan, nan}, ccsr: [2]float64{0.9783, 26}, thesisCOSC: [2]float64{nan, nan}},
	{name: "tic-tac-toe", paper: "tic-tac-toe", n: 958, k: 2, sim: "RBF", m: 200, tune: [2]float64{1.0000, 0}, noTune: [2]float64{0.9541, 5}, sl: [2]float64{0.0037, 242}, sscka: [2]float64{-0.0010, 216}, fastge: [2]float64{0.0044, 188}, cscap: [2]float64{0.9916, 0}, csp: [2]float64{0.0056, 404}, cosc: [2]float64{nan, nan}, ccsr: [2]float64{nan, nan}, thesisCOSC: [2]float64{nan, nan}},
	{name: "vehicle", paper: "vehicles", n: 846, k: 4, sim: "RBF", m: 100, tune: [2]float64{0.3175, 55}, noTune: [2]float64{0.3456, 92}, sl: [2]float64{0.0001, 316}, sscka: [2]float64{0.0820, 209}, fastge: [2]float64{0.0165, 265}, cscap: [2]float64{nan, nan}, csp: [2]float64{0.0000, 728}, cosc: [2]float64{0.0038, 116}, ccsr: [2]float64{nan, nan}, thesisCOSC: [2]float64{0.0038, 116}},
	{name: "wdbc", paper: "wdbc", n: 569, k: 2, sim: "RBF", m: 10, tune: [2]float64{0.8568, 14}, noTune: [2]float64{0.8699, 19}, sl: [2]float64{0.0024, 126}, sscka: [2]float64{0.0024, 131}, fastge: [2]float64{0.0051, 222}, cscap: [2]float64{0.2594, 92}, csp: [2]float64{0.0024, 264}, cosc: [2]float64{nan, nan}, ccsr: [2]float64{0.7255, 35}, thesisCOSC: [2]float64{nan, nan}},
	{name: "webkb-cornell", paper: "webkb-cornell", n: 195, k: 5, sim: "Cosine", m: 10, tune: [2]float64{0.4868, 13}, noTune: [2]float64{0.1166, 2}, sl: [2]float64{-0.0021, 77}, sscka: [2]float64{0.3152, 28}, fastge: [2]float64{0.2009, 14}, cscap: [2]float64{0.0290, 52}, csp: [2]float64{-0.0079, 134}, cosc: [2]float64{0.0577, 13}, ccsr: [2]float64{0.3317, 13}, thesisCOSC: [2]float64{0.0577, 13}},
	{name: "webkb-texas", paper: "webkb-texas", n: 187, k: 5, sim: "Cosine", m: 10, tune: [2]float64{0.4705, 11}, noTune: [2]float64{0.2525, 4}, sl: [2]float64{-0.0087, 68}, sscka: [2]float64{0.3102, 29}, fastge: [2]float64{0.0226, 62}, cscap: [2]float64{nan, nan}, csp: [2]float64{0.0045, 122}, cosc: [2]float64{0.0707, 9}, ccsr: [2]float64{0.2848, 25}, thesisCOSC: [2]float64{0.0707, 9}},
	{name: "webkb-wisconsin", paper: "webkb-wisconsin", n: 265, k: 5, sim: "Cosine", m: 10, tune: [2]float64{0.6719, 21}, noTune: [2]float64{0.1018, 10}, sl: [2]float64{0.0131, 77}, sscka: [2]float64{0.4836, 30}, fastge: [2]float64{0.3345, 27}, cscap: [2]float64{nan, nan}, csp: [2]float64{0.0072, 164}, cosc: [2]float64{0.0226, 23}, ccsr: [2]float64{0.3346, 32}, thesisCOSC: [2]float64{0.0226, 23}},
	{name: "wiki", paper: "wikipedia", n: 835, k: 3, sim: "Network", m: 10, note: "a different network: the TADW Wikipedia graph, 2405 nodes, 17 classes (the paper's has 835 nodes, 3 classes)", noCV: true, tune: [2]float64{0.6298, 49}, noTune: [2]float64{0.0105, 23}, sl: [2]float64{0.4621, 111}, sscka: [2]float64{0.0009, 238}, fastge: [2]float64{0.6508, 43}, cscap: [2]float64{nan, nan}, csp: [2]float64{0.0001, 474}, cosc: [2]float64{0.6960, 33}, ccsr: [2]float64{0.5409, 76}, thesisCOSC: [2]float64{0.6960, 33}},
	{name: "wine", paper: "wine", n: 178, k: 3, sim: "RBF", m: 10, tune: [2]float64{0.9649, 0}, noTune: [2]float64{0.9040, 1}, sl: [2]float64{0.0004, 70}, sscka: [2]float64{0.9134, 2}, fastge: [2]float64{0.4297, 16}, cscap: [2]float64{0.5883, 16}, csp: [2]float64{0.0031, 84}, cosc: [2]float64{0.0091, 41}, ccsr: [2]float64{0.8566, 10}, thesisCOSC: [2]float64{0.0091, 41}},
	{name: "xor", paper: "xor", n: 900, k: 2, sim: "RBF", m: 10, note: "our generator (synth.XOR, noise 0.3)", tune: [2]float64{1.0000, 0}, noTune: [2]float64{1.0000, 0}, sl: [2]float64{-0.0011, 223}, sscka: [2]float64{-0.0011, 248}, fastge: [2]float64{0.1368, 258}, cscap: [2]float64{1.0000, 0}, csp: [2]float64{0.0000, 470}, cosc: [2]float64{nan, nan}, ccsr: [2]float64{1.0000, 0}, thesisCOSC: [2]float64{nan, nan}},
	{name: "zoo", paper: "zoo", n: 101, k: 7, sim: "Cosine", m: 10, tune: [2]float64{0.9218, 0}, noTune: [2]float64{0.6536, 0}, sl: [2]float64{0.1326, 25}, sscka: [2]float64{0.7035, 3}, fastge: [2]float64{0.0833, 16}, cscap: [2]float64{0.7416, 2}, csp: [2]float64{0.0092, 50}, cosc: [2]float64{0.1447, 1}, ccsr: [2]float64{0.7025, 2}, thesisCOSC: [2]float64{0.1447, 1}},
}

// fgpwcColumn is one method column of the table.
type fgpwcColumn struct {
	key, title string
	// maxN skips datasets with more nodes (0: no limit) and maxM those
	// whose Table 1 m is larger.
	maxN, maxM int
	// bigN and bigSets: on datasets with more than bigN nodes only the
	// first bigSets constraint sets are run (0: all).
	bigN, bigSets int
	// skipWhy says why maxN is needed, for the page.
	skipWhy string
}

// fgpwcFGPWCColumns are always present; fgpwcPeerColumns only when the
// method is registered in the cluster package.
var (
	fgpwcFGPWCColumns = []fgpwcColumn{
		{key: "fgpwc", title: "FGPWC no tuning (m = #{λ < .9})"},
		{key: "fgpwc-m", title: "FGPWC, paper's m"},
		{key: "fgpwc-cv", title: "FGPWC, σ's by constraint cross-validation (ours), paper's m", maxM: 100, bigN: 500, bigSets: 3},
		{key: "fgpwc-auto", title: "FGPWC auto: constraint-imprinted graph, Laplacian (L_sym or D − W) and iteration cap by constraint cross-validation (ours)", maxN: 2000, bigN: 500, bigSets: 2},
		{key: "njw", title: "NJW, no constraints"},
	}
	fgpwcPeerColumns = []fgpwcColumn{
		{key: "sl", title: "SL"},
		{key: "sscka", title: "SSC:KA"},
		{key: "fast-ge", title: "FAST-GE"},
		{key: "cscap", title: "CSCAP", maxN: 1000, skipWhy: "dense O(n³) computation"},
		{key: "csp", title: "CSP"},
		{key: "cosc", title: "COSC", maxN: 1000, bigN: 500, bigSets: 2, skipWhy: "one to two minutes per run on a fully connected graph of 900 nodes"},
		{key: "ccsr", title: "CCSR"},
	}
)

// Protocol constants of seed 003 §5.1.
const (
	fgpwcSets     = 10 // constraint sets per dataset
	fgpwcRestarts = 30 // k-means runs, fewest violations kept
	fgpwcCosineK  = 10 // neighbours of the cosine k-NN graphs (not stated)
	fgpwcFolds    = 3  // cross-validation folds of the CV column (budget)
)

// fgpwcTable1 is seed 003 Table 1 (= thesis Table 4.4).
func fgpwcTable1() Experiment {
	return Experiment{
		Name:   "fgpwc-table1",
		Title:  "FGPWC against unconstrained NJW and constrained peers on UCI, WebKB, network and generated data",
		Source: "seed 003 Table 1; seed 000 Table 4.4",
		Cells:  fgpwcCells,
		Report: fgpwcReport,
	}
}

// fgpwcRowsFor returns the datasets and the number of constraint sets of
// a run: everything in full mode; iris, wine and moons with 2 sets in
// quick mode.
func fgpwcRowsFor(env *Env) ([]fgpwcRow, int) {
	if !env.Quick {
		return fgpwcRows, fgpwcSets
	}
	var rows []fgpwcRow
	for _, r := range fgpwcRows {
		switch r.name {
		case "iris", "wine", "moons":
			rows = append(rows, r)
		}
	}
	return rows, 2
}

// fgpwcColumns returns the columns of a run: the FGPWC ones, the
// registered peers and, with SSC:KA, its kernel variants
// (fgpwc_commute.go; in quick mode the cross-validated and the automatic
// FGPWC are left out).
func fgpwcColumns(env *Env) (cols []fgpwcColumn, missing []string) {
	for _, c := range fgpwcFGPWCColumns {
		if env.Quick && (c.key == "fgpwc-cv" || c.key == "fgpwc-auto") {
			continue
		}
		cols = append(cols, c)
	}
	for _, c := range fgpwcPeerColumns {
		if _, err := cluster.New(c.key); err != nil {
			missing = append(missing, c.title)
			continue
		}
		cols = append(cols, c)
	}
	if hasColumn(cols, "sscka") {
		cols = append(cols, fgpwcCommuteColumns...)
	}
	return cols, missing
}

// fgpwcInstance is a loaded dataset: its graph and ground truth.
type fgpwcInstance struct {
	g     *graph.Graph
	x     *mat.Dense // the scaled feature rows (nil for a network)
	truth []int
	k     int
	spec  string
	note  string
	// libDefaults gives the instance's problems the library's default
	// Laplacian regularization and disconnected-graph rule (the zero
	// values of cluster.Problem's, as `tether cluster` uses) instead of
	// the published ones (noisy-dev's round 5; noisyRunOn).
	libDefaults bool
	mu          sync.Mutex
	bases       map[int]*cluster.FGPWCBasis // by M (0 = automatic)
}

// fgpwcLoader loads datasets once and keeps the last fgpwcKeep, so that
// the cells of one dataset (run one after the other, two at a time) share
// the graph and the FGPWC embeddings, while the dense graphs of large data
// sets (spambase: 250 MB) do not pile up.
type fgpwcLoader struct {
	root string
	seed uint64
	// spec, if not nil, gives the graph of feature data instead of the
	// row's (the graph-sensitivity study; its argument says whether the
	// row's own graph is a cosine one); networks are used as given.
	spec func(cosine bool) graph.Spec
	data memo[string, *fgpwcInstance]
}

const fgpwcKeep = 3

func newFGPWCLoader(root string, seed uint64) *fgpwcLoader {
	return &fgpwcLoader{root: root, seed: seed, data: memo[string, *fgpwcInstance]{keep: fgpwcKeep}}
}

func (l *fgpwcLoader) get(ctx context.Context, r fgpwcRow) (*fgpwcInstance, error) {
	return l.data.get(ctx, r.name, func(ctx context.Context) (*fgpwcInstance, error) { return fgpwcLoad(ctx, r, l.root, l.seed, l.spec) })
}

// data returns the catalogued datasets row r reads (Cell.Data): none for a
// generated row, else its own.
func (r fgpwcRow) data() []string {
	if _, ok := fgpwcSynth[r.name]; ok {
		return nil
	}
	return []string{r.name}
}

// fgpwcSynth are the generated rows: the generator (synth.Lookup) and its
// noise; n and k are the row's. The paper's "interlaced circles" are our
// interlaced generator.
var fgpwcSynth = map[string]struct {
	gen   string
	noise float64
}{
	"moons":   {"moons", 0.1},
	"circles": {"interlaced", 0.1},
	"xor":     {"xor", 0.3},
}

// fgpwcLoad builds the graph of a row as seed 003 §5.1 describes: features
// min–max scaled to [0, 1], nominal ones one-hot (catalog's default
// preprocessing); "RBF" rows get the full RBF graph, whose σ the paper does
// not state: we use local scaling, W_ij = exp(−‖x_i − x_j‖²/(σ_iσ_j)) with
// σ_i the distance to the 7th neighbour (graph.DefaultSpec's rule);
// "Cosine" rows get the symmetric 10-NN cosine graph weighted by the
// similarity; "Network" rows use the network. Isolated nodes get a self
// loop of weight 1 so L_sym is defined; the same graph serves every method.
// A non-nil override gives the graph of feature data instead.
func fgpwcLoad(ctx context.Context, r fgpwcRow, root string, seed uint64, override func(cosine bool) graph.Spec) (*fgpwcInstance, error) {
	var x *mat.Dense
	var truth []int
	var g *graph.Graph
	var err error
	if s, ok := fgpwcSynth[r.name]; ok {
		var d *synth.Data
		d, err = synthGenerate(ctx, s.gen, synth.Params{N: r.n, K: r.k, Noise: s.noise}, seed, r.name, "data", "")
		if err == nil {
			x, truth = d.X, d.Labels
		}
	} else {
		var d *catalog.Data
		d, err = loadCatalog(ctx, r.name, root, nil)
		if err == nil {
			truth = d.Labels
			if r.sim == "Network" {
				g = d.Graph.G
			} else {
				x = d.Table.X
			}
		}
	}
	if err != nil {
		return nil, err
	}
	sim := r.sim
	if override != nil && sim != "Network" {
		sim = "override"
	}
	return fgpwcInstanceOf(ctx, x, truth, g, sim, func() graph.Spec { return override(r.sim == "Cosine") })
}

// fgpwcInstanceOf is the instance of feature rows x (or network g) with
// classes truth, on the graph sim names ("RBF", "Cosine", "Network", or
// "override": the spec override returns), as fgpwcLoad describes.
func fgpwcInstanceOf(ctx context.Context, x *mat.Dense, truth []int, g *graph.Graph, sim string, override func() graph.Spec) (*fgpwcInstance, error) {
	inst := &fgpwcInstance{x: x, truth: truth, bases: map[int]*cluster.FGPWCBasis{}}
	for _, c := range truth {
		inst.k = max(inst.k, c+1)
	}
	var err error
	switch sim {
	case "override":
		spec := override()
		inst.spec = spec.String()
		g, err = graph.Build(ctx, x, spec)
	case "RBF":
		spec := graph.Spec{Kind: graph.Full, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaLocal}}
		inst.spec = "full RBF, local σ (7th neighbour)"
		g, err = graph.Build(ctx, x, spec)
	case "Cosine":
		spec := graph.Spec{Kind: graph.SymmetricKNN, K: fgpwcCosineK, Affinity: graph.Cosine}
		inst.spec = fmt.Sprintf("cosine %d-NN", fgpwcCosineK)
		g, err = graph.Build(ctx, x, spec)
	default:
		inst.spec = "network"
	}
	if err != nil {
		return nil, err
	}
	if iso := g.Isolated(); len(iso) > 0 {
		if g, err = g.WithSelfLoops(1); err != nil {
			return nil, err
		}
		inst.note = fmt.Sprintf("%d isolated nodes; self loops of weight 1 added", len(iso))
	}
	inst.g = g
	return inst, nil
}

// basis returns the FGPWC embedding of the instance for f (memoized by M).
func (inst *fgpwcInstance) basis(ctx context.Context, f cluster.FGPWC, s *cluster.Settings) (*cluster.FGPWCBasis, error) {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	if b, ok := inst.bases[f.M]; ok {
		return b, nil
	}
	b, err := f.Embed(ctx, inst.g, s)
	if err != nil {
		return nil, err
	}
	inst.bases[f.M] = b
	return b, nil
}

// fgpwcConstraints is constraint set rep of a dataset: every pair with
// probability 1/n (seed 003 §5.1), seeded by the dataset and rep only, so
// every method sees the same sets. The draw stops with ctx's error once ctx
// is cancelled.
func fgpwcConstraints(ctx context.Context, truth []int, name string, rep int, seed uint64) (*constraint.Set, error) {
	return constraint.BernoulliPairsContext(ctx, truth, 1/float64(len(truth)), rand.NewPCG(seed, seedStream(name, "constraints", strconv.Itoa(rep), "")))
}

func fgpwcCells(env *Env) ([]Cell, error) {
	rows, sets := fgpwcRowsFor(env)
	cols, _ := fgpwcColumns(env)
	root := env.dataRoot()
	loader := newFGPWCLoader(root, env.Seed)
	var cells []Cell
	for _, r := range rows {
		if !fgpwcAvailable(r, root) || r.skip != "" {
			continue
		}
		// Constraint set by constraint set, every column of a set before
		// the next set: the cells of one column share its FGPWC basis
		// (inst.basis, computed once under a lock), and with the sets of
		// a column declared one after the other the second worker waited
		// for the first's basis (spambase: 80 s idle).
		for rep := 0; rep < sets; rep++ {
			for _, c := range cols {
				if rep >= fgpwcReps(r, c, sets) {
					continue
				}
				r, c, rep := r, c, rep
				cells = append(cells, Cell{
					Key:  fgpwcKey(r, c.key, rep),
					Data: r.data(),
					Run: func(ctx context.Context) (Values, error) {
						return fgpwcRun(ctx, loader, r, c.key, rep, env.Seed)
					},
				})
			}
		}
	}
	return cells, nil
}

// fgpwcKey is the key of the cell of column col on constraint set rep of
// row r; CSP's column carries its revision when the row has more than two
// classes (cspColumn).
func fgpwcKey(r fgpwcRow, col string, rep int) string {
	return fmt.Sprintf("%s/%s/%d", r.name, cspColumn(col, fgpwcClasses(r)), rep)
}

// fgpwcBigN and fgpwcBigSets: on datasets with more nodes, every column
// runs only the first fgpwcBigSets constraint sets (budget).
const (
	fgpwcBigN    = 4000
	fgpwcBigSets = 2
)

// fgpwcReps is the number of constraint sets column c runs on row r (0:
// skipped).
func fgpwcReps(r fgpwcRow, c fgpwcColumn, sets int) int {
	n := fgpwcSize(r)
	if r.skip != "" || (c.maxN > 0 && n > c.maxN) || (c.maxM > 0 && r.m > c.maxM) || (r.noCV && c.key == "fgpwc-cv") {
		return 0
	}
	reps := sets
	if c.bigN > 0 && n > c.bigN {
		reps = min(reps, c.bigSets)
	}
	if n > fgpwcBigN {
		reps = min(reps, fgpwcBigSets)
	}
	return reps
}

// fgpwcSize is the number of nodes of our version of a row's data.
func fgpwcSize(r fgpwcRow) int {
	if e, ok := catalog.Lookup(r.name); ok {
		return e.N
	}
	return r.n
}

// fgpwcClasses is the number of classes of our version of a row's data.
func fgpwcClasses(r fgpwcRow) int {
	if e, ok := catalog.Lookup(r.name); ok {
		return e.K
	}
	return r.k
}

// fgpwcAvailable reports whether the files of a catalog row exist.
func fgpwcAvailable(r fgpwcRow, root string) bool {
	switch r.name {
	case "moons", "circles", "xor":
		return true
	}
	e, ok := catalog.Lookup(r.name)
	if !ok {
		return false
	}
	for _, f := range e.Files {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			return false
		}
	}
	return true
}

// fgpwcPresent splits rows into those whose files are under root
// (fgpwcAvailable), in order, and the names of the others. Cost: a stat
// of each catalogued row's files.
func fgpwcPresent(rows []fgpwcRow, root string) (present []fgpwcRow, absent []string) {
	for _, r := range rows {
		if fgpwcAvailable(r, root) {
			present = append(present, r)
		} else {
			absent = append(absent, r.name)
		}
	}
	return present, absent
}

// fgpwcRun runs one method on one constraint set.
func fgpwcRun(ctx context.Context, loader *fgpwcLoader, r fgpwcRow, method string, rep int, seed uint64) (Values, error) {
	inst, err := loader.get(ctx, r)
	if err != nil {
		return nil, err
	}
	set, err := fgpwcConstraints(ctx, inst.truth, r.name, rep, seed)
	if err != nil {
		return nil, err
	}
	s := &cluster.Settings{Seed: seed + uint64(rep), Restarts: fgpwcRestarts}
	p := &cluster.Problem{Graph: inst.g, K: inst.k, Constraints: set, Regularize: publishedLaplacian, Disconnected: publishedDisconnected}
	var m cluster.Method
	var emb time.Duration
	switch method {
	case "fgpwc-auto":
		// The embedding depends on the constraint set: no shared basis,
		// its time is part of the run's. The Laplacian (L_sym or D − W)
		// and the iteration cap are chosen by cross-validation on the
		// constraints (cluster.FGPWCAutoLaplacian, FGPWC.IterCV).
		f := *cluster.NewFGPWC()
		f.Imprint, f.IterCV, f.Laplacian = true, true, cluster.FGPWCAutoLaplacian
		m = f
	case "fgpwc", "fgpwc-m", "fgpwc-cv":
		f := *cluster.NewFGPWC()
		if method != "fgpwc" {
			f.M = min(r.m, inst.g.N()-1)
		}
		t0 := time.Now()
		if f.Basis, err = inst.basis(ctx, f, s); err != nil {
			return nil, err
		}
		emb = time.Since(t0)
		if method == "fgpwc-cv" {
			f.AutoTune, f.TuneFolds = true, fgpwcFolds
		}
		m = f
	case "njw":
		p.Constraints = nil
		m = cluster.NJW{}
	case "ccsr":
		// Seed 003 Table 1 gives one m per data set, "the number of
		// dimensions in the spectral embedding used for the
		// experiments" (caption), and its CCSR cells are empty exactly
		// where m ≥ 50 ("CCSR becomes intractable as the size of the
		// embedding m increases", §5.1): CCSR ran with that m.
		m = cluster.CCSR{M: min(r.m, inst.g.N()-1)}
	case "sl":
		// The protocol keeps, for every method, the k-means run with the
		// fewest violated constraints (seed 003 §5.1); Kamvar et al.'s SL
		// keeps the lowest distortion unless told otherwise.
		m = cluster.SpectralLearning{FewestViolations: true}
	case "cosc":
		// Budget: on the fully connected graphs above coscBigN nodes
		// (up to 10⁶ weights) one run with the default random starts
		// takes one to two minutes; there COSC keeps the consistent and
		// spectral starts only (Starts = −1), which reached the same
		// partition on the interlaced circles (cluster.COSC's doc).
		c := cluster.COSC{}
		if fgpwcSize(r) > fgpwcColumnByKey("cosc").bigN {
			c.Starts = -1
		}
		m = c
	case "sscka":
		// The thesis's kernel (Table 4.4 ran SSC:KA with it), not the
		// library's default since sscka-dev (the sscka-commute column).
		m = cluster.SSCKA{Objective: cluster.RatioAssociation}
	default:
		var ok bool
		if m, ok = fgpwcCommuteMethod(method); ok {
			break
		}
		if m, err = cluster.New(method); err != nil {
			return nil, err
		}
	}
	t0 := time.Now()
	res, err := cluster.Run(ctx, m, p, s)
	if err != nil {
		return nil, err
	}
	secs := time.Since(t0).Seconds()
	ml, cl := constraint.Violations(set, res.Labels)
	all, err := metrics.ARI(inst.truth, res.Labels)
	if err != nil {
		return nil, err
	}
	v := Values{
		"ari":         fgpwcUnconstrainedARI(inst.truth, res.Labels, set),
		"ari_all":     all,
		"violations":  float64(ml + cl),
		"constraints": float64(len(set.Pairs)),
		"seconds":     secs,
		"embed":       emb.Seconds(),
	}
	if _, ok := m.(cluster.FGPWC); ok {
		_, mm := res.Embedding.Dims()
		v["m"] = float64(mm)
		v["iterations"] = float64(res.Iterations)
	}
	if isCommuteColumn(method) {
		v["iterations"] = float64(res.Iterations)
	}
	if method == "sscka-commute" {
		// The rank used: cluster.SSCKA's default, capped at n − c.
		_, nc := inst.g.Components()
		v["m"] = float64(min(max(2*inst.k, 10), inst.g.N()-nc))
	}
	return v, nil
}

// fgpwcUnconstrainedARI is metrics.UnconstrainedARI, the adjusted Rand
// index over the pairs of nodes not in the constraint set (seed 003 §5.1:
// "results evaluated on unconstrained pairs"), NaN on error.
func fgpwcUnconstrainedARI(truth, pred []int, set *constraint.Set) float64 {
	a, err := metrics.UnconstrainedARI(truth, pred, set)
	if err != nil {
		return math.NaN()
	}
	return a
}

// fgpwcPublished returns the published [ARI, violations] of the peer
// methods on row r, by column key.
func fgpwcPublished(r fgpwcRow) map[string][2]float64 {
	return map[string][2]float64{"sl": r.sl, "sscka": r.sscka, "fast-ge": r.fastge, "cscap": r.cscap, "csp": r.csp, "cosc": r.cosc, "ccsr": r.ccsr}
}

// fgpwcColumnByKey returns the column with the given key.
func fgpwcColumnByKey(key string) fgpwcColumn {
	for _, c := range append(append(append([]fgpwcColumn(nil), fgpwcFGPWCColumns...), fgpwcPeerColumns...), fgpwcCommuteColumns...) {
		if c.key == key {
			return c
		}
	}
	return fgpwcColumn{key: key}
}

// fgpwcPairedARI returns the mean ARI of columns a and b over the
// constraint sets both ran, and their count: a column run on fewer sets
// (budget) is compared with the other on the same sets.
func fgpwcPairedARI(results map[string]Values, r fgpwcRow, a, b fgpwcColumn, sets int) (ma, mb float64, count int) {
	for rep := 0; rep < min(fgpwcReps(r, a, sets), fgpwcReps(r, b, sets)); rep++ {
		va, oka := results[fgpwcKey(r, a.key, rep)]
		vb, okb := results[fgpwcKey(r, b.key, rep)]
		if !oka || !okb {
			continue
		}
		xa, oka := va["ari"]
		xb, okb := vb["ari"]
		if !oka || !okb {
			continue
		}
		ma += xa
		mb += xb
		count++
	}
	if count == 0 {
		return math.NaN(), math.NaN(), 0
	}
	return ma / float64(count), mb / float64(count), count
}

// fgpwcStat is the mean and standard deviation of one figure over the
// constraint sets of a dataset and method.
type fgpwcStat struct {
	mean, std float64
	count     int
}

func fgpwcCollect(results map[string]Values, r fgpwcRow, c fgpwcColumn, figure string, sets int) fgpwcStat {
	var xs []float64
	for rep := 0; rep < fgpwcReps(r, c, sets); rep++ {
		if v, ok := results[fgpwcKey(r, c.key, rep)]; ok {
			if x, ok := v[figure]; ok {
				xs = append(xs, x)
			}
		}
	}
	st := fgpwcStat{count: len(xs)}
	switch len(xs) {
	case 0:
		st.mean, st.std = math.NaN(), math.NaN()
	case 1:
		st.mean = xs[0]
	default:
		// nil weights (gonum's unrolled sum), as the published table was
		// computed; meanStdDev sums in order and may differ in the last bit.
		st.mean, st.std = stat.MeanStdDev(xs, nil)
	}
	return st
}

func fmtARI(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.3f", x)
}

func fmtCount(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.0f", x)
}

// fmtViol formats a mean number of violated constraints over constraint
// sets: one decimal below 10 (a mean of 0.5 is not 0), none above.
func fmtViol(x float64) string {
	if x < 9.95 {
		return fmt.Sprintf("%.1f", x)
	}
	return fmtCount(x)
}

func fgpwcReport(env *Env, results map[string]Values) (*Output, error) {
	rows, sets := fgpwcRowsFor(env)
	cols, missing := fgpwcColumns(env)
	root := env.dataRoot()
	var md strings.Builder
	writePageHead(&md, env, "FGPWC: seed 003 Table 1 (= thesis Table 4.4)", "tether repro fgpwc-table1", fmt.Sprintf("iris, wine and moons only, %d constraint sets, no cross-validated or automatic FGPWC column.", sets))
	fmt.Fprintf(&md, "Protocol (seed 003 §5.1): for each dataset, %d constraint sets in which every pair of nodes is drawn with probability 1/n "+
		"(must-link when the classes agree, cannot-link otherwise; the same sets for every method); every method that ends with k-means runs it %d times "+
		"and keeps the partition that violates the fewest constraints (SL through SpectralLearning.FewestViolations; SSC:KA's kernel k-means "+
		"keeps its lowest penalized objective, which counts the violations; COSC has no k-means); **ARI is computed over the unconstrained pairs only** "+
		"(pair-counting ARI on the n(n−1)/2 pairs minus the constrained ones); the table shows its mean ± standard deviation over the sets, "+
		"the mean number of violated constraints and the mean time in seconds of one run (FGPWC: descent and k-means with the "+
		"embedding precomputed; the embedding's one-off time is in the CSV column embed; the automatic FGPWC embeds every constraint set "+
		"and its folds, which is part of its run time). Base seed %d.\n\n", sets, fgpwcRestarts, env.Seed)
	fmt.Fprintf(&md, "Graphs: features min–max scaled to [0, 1], nominal ones one-hot. \"RBF\" datasets use the full RBF graph with local scaling "+
		"(σ_i = distance to the 7th neighbour; the paper does not state its σ); \"Cosine\" datasets the symmetric %d-NN graph "+
		"weighted by cosine similarity (the paper does not state k); the network is used as given. Every method sees the same graph.\n\n", fgpwcCosineK)
	fmt.Fprintf(&md, "FGPWC: σ_m = 0.15, σ_c = 1.5, row-normalized embedding, L-BFGS descent stopped after %d iterations (early stopping, see "+
		"cluster.FGPWC.MaxIter), γ = 10⁻³·K/‖X₀‖²; \"no tuning\" takes m = #{λ(L_sym) < 0.9} (at most %d), \"paper's m\" the m of Table 1; "+
		"\"CV\" picks (σ_m, σ_c) on the paper's 10×10 grid by 3-fold cross-validation on the constraints alone (the paper's \"tuning\" "+
		"picked them with the ground truth, an upper bound we do not reproduce); \"auto\" (ours, beyond the paper: cluster.FGPWC.Imprint, "+
		"IterCV and Laplacian = FGPWCAutoLaplacian) embeds the graph with the constraints imprinted as Spectral Learning does (must-link → the largest weight, "+
		"cannot-link → 0; Kamvar et al. 2003) twice, with L_sym (the automatic m of that graph) and with Spectral Learning's L = D − W (m = k), "+
		"picks the descent's iteration cap among {0, c/5, c/2, c, 2c} (c = %d) for each by %d-fold cross-validation on the constraints (every fold "+
		"re-embedded with its training constraints only), and keeps the Laplacian with the smaller mean held-out violated weight over the caps "+
		"(ties: L_sym); on each constraint set the choice uses the constraints only, never the ground truth, but how it chooses was partly set on this table "+
		"with the ground truth (next paragraph). NJW uses the first k eigenvectors of the same graph and no constraints.\n\n", 9, 200, 9, 3)
	md.WriteString(fgpwcTunedDisclosure + "\n\n")
	fmt.Fprintf(&md, "%s\n\n", fgpwcCommuteProtocol)
	fmt.Fprintf(&md, "Budget (chosen for a fresh run of about 15 minutes on 2 cores, when the page had fewer columns; `tether repro -estimate fgpwc-table1`, from the cells' recorded times, gives the current figure: 18 minutes on 2026-11-29): datasets above %d nodes (spambase) get %d constraint sets in every column; the cross-validated FGPWC uses 3 folds (5 k-means runs per fit) and runs on the first 3 constraint sets only "+
		"for datasets above 500 nodes, and is skipped where Table 1 has m > 100 (tic-tac-toe: m = 200) and on wiki (17 classes: about 4 minutes per constraint set); the automatic FGPWC (eight embeddings per constraint set: the set's and its three folds', with each Laplacian) runs on the first 2 constraint sets only for datasets above 500 nodes and is skipped above %d nodes (wiki, spambase); CSCAP is skipped above 1000 nodes; COSC is skipped above 1000 nodes and, above %d nodes, runs on the first %d constraint sets with its consistent and spectral starts only (no random starts: one to two minutes per run on these fully connected graphs otherwise). The column \"sets\" of the CSV gives the count behind every mean.\n\n", fgpwcBigN, fgpwcBigSets, fgpwcColumnByKey("fgpwc-auto").maxN, fgpwcColumnByKey("cosc").bigN, fgpwcColumnByKey("cosc").bigSets)
	if len(missing) > 0 {
		fmt.Fprintf(&md, "Not registered when this table was made, so left out: %s.\n\n", strings.Join(missing, ", "))
	}

	// Table A: FGPWC.
	fmt.Fprintf(&md, "## FGPWC\n\n")
	fmt.Fprintf(&md, "| dataset | n | k | graph | m paper / auto | no tuning: ours | paper | viol. ours / paper | paper's m: ours | viol. | CV: ours | viol. | auto: ours | viol. | paper tuning | viol. | NJW | s (no tuning / CV / auto) |\n")
	fmt.Fprintf(&md, "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var csvRows [][]string
	csvRows = append(csvRows, []string{"dataset", "method", "sets", "ari_mean", "ari_std", "ari_all_pairs", "violations", "constraints", "seconds", "embed_seconds", "m", "paper_ari", "paper_violations"})
	notes := map[string]string{}
	var skipped []string
	for _, r := range rows {
		if !fgpwcAvailable(r, root) {
			skipped = append(skipped, fmt.Sprintf("%s: data files not found under the datasets root", r.name))
			continue
		}
		if r.skip != "" {
			skipped = append(skipped, fmt.Sprintf("%s: %s", r.name, r.skip))
			continue
		}
		get := func(method, fig string) fgpwcStat {
			return fgpwcCollect(results, r, fgpwcColumnByKey(method), fig, sets)
		}
		st := func(method string) string {
			a := get(method, "ari")
			if math.IsNaN(a.mean) {
				return "–"
			}
			return fmt.Sprintf("%.3f ± %.3f", a.mean, a.std)
		}
		n := fgpwcSize(r)
		mAuto := get("fgpwc", "m").mean
		fmt.Fprintf(&md, "| %s | %d | %d | %s | %d / %s | %s | %s | %s / %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s / %s |\n",
			r.name, n, fgpwcClasses(r), r.sim, r.m, fmtCount(mAuto),
			st("fgpwc"), fmtARI(r.noTune[0]), fmtViol(get("fgpwc", "violations").mean), fmtCount(r.noTune[1]),
			st("fgpwc-m"), fmtViol(get("fgpwc-m", "violations").mean),
			st("fgpwc-cv"), fmtViol(get("fgpwc-cv", "violations").mean),
			st("fgpwc-auto"), fmtViol(get("fgpwc-auto", "violations").mean),
			fmtARI(r.tune[0]), fmtCount(r.tune[1]),
			st("njw"),
			fmtSecs(get("fgpwc", "seconds").mean), fmtSecs(get("fgpwc-cv", "seconds").mean), fmtSecs(get("fgpwc-auto", "seconds").mean))
		if r.note != "" {
			notes[r.name] = r.note
		}
		for _, c := range cols {
			a := get(c.key, "ari")
			if a.count == 0 {
				continue
			}
			pa, pv := nan, nan
			switch c.key {
			case "fgpwc":
				pa, pv = r.noTune[0], r.noTune[1]
			case "fgpwc-m", "fgpwc-cv":
				pa, pv = r.tune[0], r.tune[1]
			default:
				if pub, ok := fgpwcPublished(r)[c.key]; ok {
					pa, pv = pub[0], pub[1]
				}
			}
			csvRows = append(csvRows, []string{r.name, c.key, strconv.Itoa(a.count), f4(a.mean), f4(a.std), f4(get(c.key, "ari_all").mean),
				f4(get(c.key, "violations").mean), f4(get(c.key, "constraints").mean), f4(get(c.key, "seconds").mean),
				f4(get(c.key, "embed").mean), f4(get(c.key, "m").mean), f4(pa), f4(pv)})
		}
	}
	fmt.Fprintf(&md, "\n")

	// Table B: peers.
	var peers []fgpwcColumn
	for _, c := range cols {
		if _, ok := fgpwcPublished(fgpwcRow{})[c.key]; ok {
			peers = append(peers, c)
		}
	}
	if len(peers) > 0 {
		fmt.Fprintf(&md, "## Constrained peers on the same graphs and constraint sets\n\n")
		var differ []string
		for _, r := range fgpwcRows {
			if r.thesisCOSC != r.cosc && !(math.IsNaN(r.cosc[0]) && math.IsNaN(r.thesisCOSC[0])) {
				differ = append(differ, fmt.Sprintf("%s %s with %s violations", r.name, fmtARI(r.thesisCOSC[0]), fmtCount(r.thesisCOSC[1])))
			}
		}
		fmt.Fprintf(&md, "Ours: mean ARI (unconstrained pairs), mean violations, mean seconds; published: ARI and violations (SL, CSP, COSC and CCSR from seed 003 Table 1; SSC:KA, FAST-GE and CSCAP from seed 000 Table 4.4, whose CCSR column is the same as seed 003's and whose COSC column differs on %d rows: %s).\n\n", len(differ), strings.Join(differ, "; "))
		fmt.Fprintf(&md, "| dataset |")
		for _, c := range peers {
			fmt.Fprintf(&md, " %s ours | viol. | s | published | viol. |", c.title)
		}
		fmt.Fprintf(&md, "\n|---|")
		for range peers {
			fmt.Fprintf(&md, "---:|---:|---:|---:|---:|")
		}
		fmt.Fprintf(&md, "\n")
		for _, r := range rows {
			if !fgpwcAvailable(r, root) || r.skip != "" {
				continue
			}
			fmt.Fprintf(&md, "| %s |", r.name)
			for _, c := range peers {
				get := func(fig string) fgpwcStat { return fgpwcCollect(results, r, c, fig, sets) }
				pub := fgpwcPublished(r)[c.key]
				ours, viol, secs := "–", "–", "–"
				if fgpwcReps(r, c, sets) == 0 {
					ours, viol, secs = "skipped", "", ""
				} else if a := get("ari"); a.count > 0 {
					ours, viol, secs = fmtARI(a.mean), fmtViol(get("violations").mean), fmtSecs(get("seconds").mean)
					if a.count < fgpwcReps(r, c, sets) {
						ours += fmt.Sprintf(" (%d/%d sets)", a.count, fgpwcReps(r, c, sets))
					}
				} else {
					ours, viol, secs = "failed", "", ""
				}
				fmt.Fprintf(&md, " %s | %s | %s | %s | %s |", ours, viol, secs, fmtARI(pub[0]), fmtCount(pub[1]))
			}
			fmt.Fprintf(&md, "\n")
		}
		for _, c := range peers {
			if c.maxN > 0 {
				fmt.Fprintf(&md, "\n%s is skipped on datasets with more than %d nodes (%s; the budget above).", c.title, c.maxN, c.skipWhy)
			}
		}
		fmt.Fprintf(&md, "\n\n\"failed\" marks a method that returned an error on a set (the run's log has the message); where a "+
			"method ran on some sets only, the count is shown. CSCAP's Gaussian-process propagation (thesis eq. 4.2.9–4.2.12) needs a "+
			"positive semidefinite W, which neither the k-NN cosine graphs nor the RBF graphs with their strongest-edge diagonal are: "+
			"it runs on W + δI with the smallest δ that makes W semidefinite (cluster.CSCAP.Shift; the eigenvectors are unchanged).")
		fmt.Fprintf(&md, "\n\n")
	}

	// Summary figures.
	fmt.Fprintf(&md, "## Summary\n\n")
	fgpwcPeerSummary(&md, results, rows, peers, sets, root)
	fgpwcBestSummary(&md, results, rows, cols, sets, root)
	type tally struct {
		compared int
		win, n   map[string]int // per other column: wins, datasets compared
		lost     map[string][]string
	}
	others := []string{"njw"}
	for _, c := range peers {
		others = append(others, c.key)
	}
	tallies := map[string]*tally{}
	variants := []string{"fgpwc", "fgpwc-m", "fgpwc-cv", "fgpwc-auto"}
	for _, v := range variants {
		t := &tally{win: map[string]int{}, n: map[string]int{}, lost: map[string][]string{}}
		tallies[v] = t
		for _, r := range rows {
			base := fgpwcCollect(results, r, fgpwcColumnByKey(v), "ari", sets)
			if base.count == 0 {
				continue
			}
			t.compared++
			for _, other := range others {
				mb, mo, count := fgpwcPairedARI(results, r, fgpwcColumnByKey(v), fgpwcColumnByKey(other), sets)
				if count == 0 {
					continue
				}
				t.n[other]++
				if mb > mo {
					t.win[other]++
				} else {
					t.lost[other] = append(t.lost[other], fmt.Sprintf("%s %.3f vs %.3f", r.name, mb, mo))
				}
			}
		}
	}
	var total float64
	for _, r := range rows {
		for _, c := range cols {
			for rep := 0; rep < fgpwcReps(r, c, sets); rep++ {
				if v, ok := results[fgpwcKey(r, c.key, rep)]; ok {
					total += v["seconds"] + v["embed"]
				}
			}
		}
	}
	fmt.Fprintf(&md, "Sum of the measured times of the cells (runs and FGPWC embeddings; graph construction not included): %.0f s, "+
		"about %.0f minutes of wall time on 2 cores.\n\n", total, total/2/60)
	cv, imp := fgpwcColumnByKey("fgpwc-cv"), fgpwcColumnByKey("fgpwc-auto")
	fmt.Fprintf(&md, "Every comparison below is made on the constraint sets both methods ran (the first %d for the cross-validated FGPWC above %d nodes, "+
		"the first %d for the automatic one above %d nodes), so it may differ from the means of the tables.\n\n", cv.bigSets, cv.bigN, imp.bigSets, imp.bigN)
	for _, v := range variants {
		t := tallies[v]
		if t.compared == 0 {
			continue
		}
		var parts []string
		for _, other := range others {
			if t.n[other] > 0 {
				parts = append(parts, fmt.Sprintf("%s on %d of %d", fgpwcShortTitle(other), t.win[other], t.n[other]))
			}
		}
		fmt.Fprintf(&md, "- %s: higher mean ARI than %s datasets", fgpwcColumnByKey(v).title, strings.Join(parts, ", "))
		if l := t.lost["sl"]; len(l) > 0 {
			fmt.Fprintf(&md, " (not than SL on %s)", strings.Join(l, "; "))
		}
		fmt.Fprintf(&md, ".\n")
	}
	fmt.Fprintf(&md, "\n")
	fgpwcCommuteSection(&md, results, rows, cols, sets, root)
	if len(skipped) > 0 {
		fmt.Fprintf(&md, "## Datasets of Table 1 not run\n\n")
		for _, x := range skipped {
			fmt.Fprintf(&md, "- %s.\n", x)
		}
		fmt.Fprintf(&md, "- imdb: not available in the datasets folder.\n\n")
	}
	if len(notes) > 0 {
		fmt.Fprintf(&md, "## Datasets that differ from the paper's\n\n")
		keys := make([]string, 0, len(notes))
		for k := range notes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&md, "- %s: %s.\n", k, notes[k])
		}
		fmt.Fprintf(&md, "\n")
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(csvRows); err != nil {
		return nil, err
	}
	claims := append(fgpwcClaims(results, rows, peers, sets, root), fgpwcCommuteClaims(results, rows, cols, sets, root)...)
	out := &Output{Markdown: md.String(), Claims: claims, Files: map[string][]byte{
		"fgpwc-table1.csv": buf.Bytes(),
		"README.md":        []byte(md.String()),
	}}
	return out, nil
}

func f4(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

func fmtSecs(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	if x < 10 {
		return fmt.Sprintf("%.2f", x)
	}
	return fmt.Sprintf("%.0f", x)
}

// fgpwcPeerSummary writes, for each peer column, how our mean ARI compares
// with the published one (within ±0.05, above, below) on the rows where
// both exist, and why the three columns added last (CSP, COSC, CCSR) land
// where they do.
func fgpwcPeerSummary(md *strings.Builder, results map[string]Values, rows []fgpwcRow, peers []fgpwcColumn, sets int, root string) {
	if len(peers) == 0 {
		return
	}
	fmt.Fprintf(md, "Each peer against its published column (rows where both exist; \"close\" is within ±0.05 ARI):\n\n")
	fmt.Fprintf(md, "| peer | rows | close | ours higher | ours lower | mean (ours − published) |\n|---|---:|---:|---:|---:|---:|\n")
	for _, c := range peers {
		var n, close, higher, lower int
		var diff float64
		for _, r := range rows {
			if !fgpwcAvailable(r, root) || r.skip != "" {
				continue
			}
			pub := fgpwcPublished(r)[c.key][0]
			a := fgpwcCollect(results, r, c, "ari", sets)
			if a.count == 0 || math.IsNaN(pub) {
				continue
			}
			n++
			d := a.mean - pub
			diff += d
			switch {
			case math.Abs(d) <= 0.05:
				close++
			case d > 0:
				higher++
			default:
				lower++
			}
		}
		if n == 0 {
			continue
		}
		fmt.Fprintf(md, "| %s | %d | %d | %d | %d | %+.3f |\n", c.title, n, close, higher, lower, diff/float64(n))
	}
	fmt.Fprintf(md, "\n%s\n\n", fgpwcPeerWhy)
}

// fgpwcPeerWhy explains where CSP, COSC and CCSR land. It states
// mechanisms, not numbers: the numbers are in the tables above.
const fgpwcPeerWhy = "Why the three methods added last land where they do. " +
	"**CSP** (Wang & Davidson's flexible constrained spectral clustering, seed 002's α = 0.5·λ_max(Q̄)·vol): seed 003's CSP column " +
	"is close to 0 on every row, ours is not on the rows where the graph's degrees are even (the generated sets, wdbc). λ_max(Q̄) is set " +
	"by constrained nodes of small degree (Q̄_ij = q_ij/√(d_i d_j)), so on graphs of uneven degree (the cosine k-NN graphs, the network) " +
	"the default α admits only vectors concentrated on a few such nodes, which split them off: there, at k = 2, ours is close to 0 too. " +
	"For k > 2 ours scales the rows of its k − 1 vectors to unit length before k-means, as seed 002 §6.1 says of FCSC (\"the " +
	"projected data are normalized to have unit-length\"; cluster.CSP.NoRowNormalize turns it off), and ours is above 0 on most " +
	"k > 2 rows, the uneven-degree ones included (until an audit in stop 52 the rows were not scaled, and those rows were close " +
	"to 0 as well). The " +
	"sources give neither their σ nor how the trivial vector was excluded (we impose v ⊥ D^{1/2}1), the two things that decide it; " +
	"for k > 2 fewer than k − 1 vectors may be feasible at that α (a set counted as failed; seed 002 §6.1 reports the same). " +
	"**COSC** (constrained 1-spectral clustering): ours is far above the published column. At k = 2 Theorem 3's γ makes every " +
	"consistent constraint hold (0 violations in our column), and our solver reaches the brute-force optimum of the constrained " +
	"Ncut on graphs of up to 14 nodes (cluster tests); the published figures, with violations on most rows, cannot come from the " +
	"same procedure at k = 2, and seed 003 does not describe its COSC run. For k > 2 the authors' recursive bisection with " +
	"Theorem 3's γ at every split cuts classes apart at the first split, so we use a γ that makes violating every cannot-link cost " +
	"about one unconstrained Ncut (cluster.COSC documents it); constraints may then be violated. " +
	"**CCSR** fits a PSD matrix on the paper's m eigenvectors to the constraints alone; with fewer constraints than the m(m+1)/2 " +
	"entries of M the optimum is not unique, so our exact solver's minimizer (reached from M = 0) may differ from the authors' " +
	"interior-point one, and large m overfits (thesis §4.5.1): it is the peer closest to its published column " +
	"(the most rows within ±0.05 in the table above, though not most of its rows). Where Table 1 has no CCSR figure (m ≥ 50, \"intractable\" for the authors' SDP), ours runs in seconds."

// fgpwcBestSummary writes which column has the best mean ARI on each
// dataset, over the columns that ran on every set of that row, and how
// often each column is best: the comparison the FGPWC claim is about.
func fgpwcBestSummary(md *strings.Builder, results map[string]Values, rows []fgpwcRow, cols []fgpwcColumn, sets int, root string) {
	best := map[string]int{}
	var lines, autoWins []string
	compared := 0
	for _, r := range rows {
		if !fgpwcAvailable(r, root) || r.skip != "" {
			continue
		}
		bestKey, bestARI := "", math.Inf(-1)
		for _, c := range cols {
			if c.key == "fgpwc-m" || c.key == "fgpwc-cv" {
				continue // the paper's m and the σ grid: variants of the no-tuning column
			}
			if isCommuteColumn(c.key) {
				continue // SSC:KA's kernel variants: compared with SSC:KA on their own (fgpwc_commute.go)
			}
			reps := fgpwcReps(r, c, sets)
			a := fgpwcCollect(results, r, c, "ari", sets)
			if reps == 0 || a.count < reps {
				continue
			}
			if a.mean > bestARI {
				bestKey, bestARI = c.key, a.mean
			}
		}
		if bestKey == "" {
			continue
		}
		compared++
		best[bestKey]++
		lines = append(lines, fmt.Sprintf("%s: %s %.3f", r.name, fgpwcShortTitle(bestKey), bestARI))
		if bestKey == "fgpwc-auto" {
			autoWins = append(autoWins, fmt.Sprintf("%s %.3f", r.name, bestARI))
		}
	}
	if compared == 0 {
		return
	}
	var tally []string
	for _, c := range cols {
		if best[c.key] > 0 {
			tally = append(tally, fmt.Sprintf("%s %d", fgpwcShortTitle(c.key), best[c.key]))
		}
	}
	fmt.Fprintf(md, "Best mean ARI per dataset among FGPWC (no tuning), FGPWC auto, NJW and every peer that ran on all of the row's sets "+
		"(means over sets that may differ between columns on the big rows): %s (of %d datasets). Per dataset: %s.\n\n",
		strings.Join(tally, ", "), compared, strings.Join(lines, "; "))
	autoNote := ""
	if len(autoWins) > 0 {
		autoNote = fmt.Sprintf(" (%d of them the automatic column's: %s; its settings were partly chosen on this table with the ground truth, "+
			"as were the 9-step cap and restart margin of both columns: see above)", len(autoWins), strings.Join(autoWins, ", "))
	}
	fmt.Fprintf(md, "**Seed 003's central claim, that FGPWC beats its constrained peers across the table, is not reproduced on our graphs**: "+
		"an FGPWC column (the paper's defaults or our automatic one) has the best mean ARI on %d of %d datasets%s. Against the published "+
		"peer columns alone FGPWC looks much better, because most of them sit far below what the same methods reach here (table above); "+
		"the [graph-sensitivity page](../graph-sensitivity/README.md) re-runs FGPWC, SL, SSC:KA, FAST-GE and CSCAP on six other graphs to test whether the graph explains the gap.\n\n",
		best["fgpwc"]+best["fgpwc-auto"], compared, autoNote)
}

// fgpwcShortTitle is a column's name in the summaries.
func fgpwcShortTitle(key string) string {
	switch key {
	case "fgpwc":
		return "FGPWC (no tuning)"
	case "fgpwc-auto":
		return "FGPWC auto"
	case "njw":
		return "NJW"
	}
	return fgpwcColumnByKey(key).title
}
