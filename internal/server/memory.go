package server

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"sort"
	"strconv"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/internal/wording"
)

// This file holds the server's bound on the memory of one request's
// computation (Config.MaxRequestMemory): the estimate of what a method
// asks for, checked before it runs, and the clamp of the methods' own
// memory limits.

// minRequestMemory is the least default of Config.MaxRequestMemory: a
// server with few nodes per session still takes the dense eigensolves
// of small problems (n ≤ about 2000).
const minRequestMemory = 256 << 20

// DefaultMaxRequestMemory returns Config.MaxRequestMemory's default for
// sessions of at most maxNodes nodes: the estimate (workBytes) of the
// largest computation the other per-request limits let a request ask for,
// FGPWC's basis of maxFGPWCM = 200 vectors (the limit on its M) on
// maxNodes nodes, and at least 256 MiB: 1.8 GB (1.67 GiB) for the default
// 200 000 nodes (1.3 GB until workBytes counted Lanczos's working vectors
// in full, lanczosHeldVectors).
func DefaultMaxRequestMemory(maxNodes int) int64 {
	return max(workBytes(maxNodes, maxFGPWCM), minRequestMemory)
}

// workBytes estimates the memory of a spectral computation of e vectors on
// n nodes, the eigensolver's and the method's: dense, eigen.DenseBytes(n,
// true) (eight n×n matrices), when the eigensolvers solve it densely (n
// at most cluster.DenseLimit, or e so large a share of n, above about
// n/6, that Lanczos, BlockLanczos or LOBPCG fall back to the dense
// solver); otherwise 8·n·lanczosHeldVectors(n, e) bytes, or when more,
// lanczosStartBytes(n, e + 2), which adds its projected matrices (two
// NCV×NCV) and matters only near n/6 vectors. The methods' k-means and
// constraint work on n×e blocks is of the same order. So it is never
// below what eigen.Settings.MaxDenseBytes, set to
// Config.MaxRequestMemory (Server.settings), refuses a Lanczos solve of
// up to e + 2 eigenpairs at, and a request accepted here is not refused
// there. To it are added three more NCV×NCV matrices (NCV =
// lanczosNCV(e + 2)) that Settings does not count: the Rayleigh–Ritz
// step's copy inside gonum's EigenSym, its eigenvectors and the
// restart's Ritz coefficients (61.8 MB for e = 800, NCV = 1605, 24% of
// the basis of 10⁴ nodes). It saturates at math.MaxInt64. Cost O(1).
func workBytes(n, e int) int64 {
	if densely(n, e) {
		return eigen.DenseBytes(n, true)
	}
	ncv := float64(lanczosNCV(e + 2))
	b := max(8*float64(n)*lanczosHeldVectors(n, e), lanczosStartBytes(n, e+2)) + 3*8*ncv*ncv
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}

// lanczosHeldVectors returns the vectors of n values a Laplacian embedding
// of e vectors on n nodes holds at its peak when Lanczos solves it (e
// counting the deflated null vectors; e + 2 pairs asked, as vectors()
// bounds them):
//
//   - the basis, (e + 2) + lanczosCapNCV(n, e + 2) + 1 vectors: eigen/lanczos.go
//     newLanczosRun allocates r.v with capacity (maxLocked + max(maxNCV,
//     ncv) + 1)·n at once, and cluster/embed.go autoSolver sets MaxNCV =
//     LanczosMaxNCV = 64 from LanczosGrowMinN = 2·10⁴ nodes, so from there
//     the basis is at least 66 vectors even for e = 2, whether or not it
//     grows;
//   - the Ritz vectors of the last restart, nv = K + 1 (eigen/lanczos.go
//     lanczosRun.solve, out := make([]float64, nv*n)), and the result's
//     copy of the K vectors (finish) the method's embedding is built from:
//     2e + 2;
//   - lanczosOtherVectors for the rest of the O(n) arrays (the operator's
//     work vector, degrees, the normalized embedding, k-means' labels and
//     centres' assignments, garbage the collector has not reclaimed)
//     and the sparse Laplacian Lanczos multiplies by, whose size follows
//     the graph's stored entries, not n: the count holds for graphs of
//     about 10 stored entries a node (measured 1.7–2.8 values of n per
//     stored entry; a denser graph adds more than this counts).
//
// Measured (TestLanczosPeakMemory, testmem.PeakHeap, GC at 5 %, njw on
// random graphs of 10 stored entries a node): k = 2, 5 and 20 peaked at
// 72–195 values a node below 2·10⁴ nodes and 107–168 above, of which the
// Laplacian took 1.7–2.8 values per stored entry; the
// count before (4e + 24 values a node: a basis of max(2e+1, e+20) + e + 3
// and one copy) said 32 for k = 2 and missed the basis of 66 from 2·10⁴
// nodes: 0.24–0.44 of the peak for k = 2. Cost O(1).
func lanczosHeldVectors(n, e int) float64 {
	k := e + 2
	return float64(k+lanczosCapNCV(n, k)+1) + float64(2*e+2) + lanczosOtherVectors
}

// lanczosOtherVectors is the number of vectors of n values lanczosHeldVectors
// counts for the embedding's O(n) arrays besides the Lanczos basis and its
// Ritz vectors: fitted to the largest measured remainder (njw, k = 20 on
// 1.5·10⁴ nodes of a random graph of 10 stored entries a node, 195 values
// a node: 68 of the basis, 42 of the Ritz vectors and copy, 27 of the
// Laplacian, 58 else; at 1.8·10⁴ nodes 85 beside the Laplacian's 27 made
// the estimate only 1.06 times the peak) with a margin.
const lanczosOtherVectors = 108

// lanczosCapNCV returns the largest basis size eigen.Lanczos may reach for
// K wanted pairs on n nodes as cluster's autoSolver runs it:
// lanczosNCV(K), and from cluster.LanczosGrowMinN nodes at least
// cluster.LanczosMaxNCV (eigen.Lanczos.MaxNCV), whose capacity
// newLanczosRun allocates up front. Cost O(1).
func lanczosCapNCV(n, k int) int {
	ncv := lanczosNCV(k)
	if n >= cluster.LanczosGrowMinN {
		ncv = max(ncv, cluster.LanczosMaxNCV)
	}
	return ncv
}

// lanczosStartBytes returns the bytes eigen.Settings.MaxDenseBytes
// counts for eigen.Lanczos's starting basis with its default NCV, for K
// eigenpairs on n nodes and none deflated (a deflated column counts as a
// wanted one in the basis and shortens NCV, so this is an upper bound):
// K + NCV + 1 vectors of n values and two NCV×NCV matrices, NCV = max(2K
// + 1, K + 20), 8 bytes a value. A basis that grows (Lanczos.MaxNCV)
// stops growing at the bound. Cost O(1).
func lanczosStartBytes(n, k int) float64 {
	ncv := float64(max(2*k+1, k+20))
	return 8 * ((float64(k)+ncv+1)*float64(n) + 2*ncv*ncv)
}

// densely reports whether the eigensolvers solve a problem of e vectors
// on n nodes densely: n at most cluster.DenseLimit, or e above about n/6
// (n ≤ 6e + 8), where the iterative solvers fall back to eigen.Dense
// (eigen.LOBPCG when n − d < 4·blocksize, its blocksize about 1.5e;
// eigen.Lanczos when n − d ≤ NCV + e + 1, its NCV = max(2e + 1, e + 20);
// eigen.BlockLanczos when n − d < 2·(NCV + 2·blocksize), about 4e + 16).
// Cost O(1).
func densely(n, e int) bool {
	return n <= cluster.DenseLimit || n <= 6*e+8
}

// intKnob returns the value of m's integer knob name (an exported int or
// int64 field of its struct) and whether m has one.
func intKnob(m cluster.Method, name string) (int64, bool) {
	v := reflect.ValueOf(m)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return 0, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return 0, false
	}
	f := v.FieldByName(name)
	if !f.IsValid() || !f.CanInt() {
		return 0, false
	}
	return f.Int(), true
}

// boolKnob reports whether m has the bool knob name (an exported bool
// field of its struct) and it is set.
func boolKnob(m cluster.Method, name string) bool {
	v := reflect.ValueOf(m)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return false
	}
	f := v.FieldByName(name)
	return f.IsValid() && f.Kind() == reflect.Bool && f.Bool()
}

// vectors returns the number of vectors m computes for k clusters on n
// nodes, as far as its knobs say it (the largest of k, FGPWC's and CCSR's
// M, FGPWC's automatic m up to MaxM, SSC-KA's Rank, L1CSC's Starts + 1,
// for auto the largest of its candidates' (autoCandidates: its FGPWC and
// SSC-KA candidates embed max(2k, 10) vectors), and with k = 0 the cap
// MaxK of an estimated k plus one: bethe's doubling asks for MaxK + 1
// eigenpairs), and what sets it, for messages ("k = 50", "knob M =
// 300"): the e of workBytes, and of projectedTooLong, whose Lanczos basis
// is sized by the pairs the solver is asked for beyond the deflated null
// vectors. e bounds them: njw, ncut, usc and the other Laplacian
// embeddings ask for k with the null vector deflated (k − 1 on a
// connected graph), fgpwc for M + 1 with it deflated (M), bethe with k
// given for k (TestVectorsBoundLanczosPairs), l1csc for Starts + 1 a
// bisection.
func vectors(m cluster.Method, k, n int) (int, string) {
	e, why := k, fmt.Sprintf("k = %d", k)
	if v, what, ok := heldVectors(m, k); ok {
		// Its eigensolves are of a number of vectors k does not set.
		e, why = min(v, n), what
	}
	raise := func(v int64, what string) {
		if v > int64(e) {
			e, why = int(min(v, int64(n))), what
		}
	}
	if v, ok := intKnob(m, "M"); ok {
		raise(v, fmt.Sprintf("%s's M = %d", m.Name(), v))
		if _, isFGPWC := fgpwcOf(m); isFGPWC && v == 0 {
			mm, _ := intKnob(m, "MaxM")
			if mm == 0 {
				mm = cluster.FGPWCDefaultMaxM
			}
			raise(mm, fmt.Sprintf("fgpwc's automatic m, up to MaxM = %d", mm))
		}
	}
	if v, ok := intKnob(m, "Rank"); ok {
		what := fmt.Sprintf("%s's Rank = %d", m.Name(), v)
		if v == 0 {
			v = int64(max(2*k, 10))
			what = fmt.Sprintf("k = %d (%s's Rank is max(2k, 10) = %d)", k, m.Name(), min(v, int64(n)))
		}
		raise(v, what)
	}
	if m.Name() == "auto" && k > 0 {
		// Its candidates' embeddings: FGPWC's and SSC-KA's of max(2k,
		// 10) vectors.
		for _, c := range autoCandidates(n, k) {
			if v, cwhy := vectors(c, k, n); v > e {
				raise(int64(v), fmt.Sprintf("k = %d (auto's candidate %s asks for %d vectors: %s)", k, c.Name(), v, cwhy))
			}
		}
	}
	if m.Name() == "csp" && k > 0 {
		// csp's doubling asks for up to max(64, k − 1) pairs besides one
		// per connected component (cluster/csp.go: cluster.CSPMaxVectors).
		raise(cluster.CSPMaxVectors, fmt.Sprintf("k = %d (csp's doubling asks for up to max(%d, k − 1) eigenpairs besides one per connected component)", k, cluster.CSPMaxVectors))
	}
	if v, ok := intKnob(m, "MaxK"); ok && k == 0 {
		if v == 0 {
			v = 100
		}
		// bethe's doubling asks for up to MaxK + 1 eigenpairs, one more
		// than the cap, to tell whether the cap is reached.
		raise(v+1, fmt.Sprintf("%s's cap MaxK = %d on the estimated k (%d eigenpairs, one more to tell whether it is reached)", m.Name(), v, v+1))
	}
	return e, why
}

// heldVectors returns, for the methods whose Uses declare NoKEigensolve
// and whose eigensolves are of a number of vectors k does not set, that
// number and what sets it (for messages), and whether m is one of them:
// hbisect and cosc, 2 (each bisection solves for the Fiedler vector of a
// part, 2 pairs of its L_sym: cluster/hbisect.go bestSweep, cluster/cosc.go
// laplacianEmbedding(…, 2, …), whatever k; the labels and the parts'
// node lists beside them are n ints, less than one of the Lanczos basis'
// vectors workBytes counts), l1csc, Starts + 1 (its spectral starts,
// cluster/l1csc.go laplacianEmbedding(…, count+1, …); Starts = 0 means
// 3), opplc, 0 (one pass over the nodes, no eigensolve: eigenWorkOf
// counts its O(n) arrays). mavro (k = 2 only) and the other
// NoKEigensolve methods (labelprop, cvqe, plmeans, cpca, clpp) keep k,
// an upper bound. Cost O(1).
func heldVectors(m cluster.Method, k int) (int, string, bool) {
	if !m.Uses().NoKEigensolve {
		return 0, "", false
	}
	switch m.Name() {
	case "hbisect", "cosc":
		return 2, fmt.Sprintf("k = %d (%s solves for the Fiedler vector of each bisection, 2 eigenpairs, whatever k)", k, m.Name()), true
	case "l1csc":
		v, _ := intKnob(m, "Starts")
		if v == 0 {
			v = 3
		}
		return int(min(v+1, math.MaxInt32)), fmt.Sprintf("l1csc's Starts = %d (Starts + 1 eigenvectors a bisection)", v), true
	case "opplc":
		return 0, fmt.Sprintf("k = %d (opplc solves no eigenproblem)", k), true
	}
	return 0, "", false
}

// generalizedOf reports whether m's eigensolve on n nodes is a
// generalized one, A x = λ B x, which cluster solves by eigen.LOBPCG above
// cluster.DenseLimit (cluster.Uses.Generalized: fast-ge, fast-ge2,
// fast-ge2-bh, csp), or auto's whose candidates on n nodes include such a
// method (autoCandidates: fast-ge, fast-ge2 and fast-ge2-bh up to
// cluster.AutoCostlyMaxN nodes; which methods they are does not depend
// on k, only FGPWC's and SSC-KA's knobs do). Cost O(1).
func generalizedOf(m cluster.Method, n int) bool {
	if m.Uses().Generalized {
		return true
	}
	if m.Name() == "auto" {
		for _, c := range autoCandidates(n, 2) {
			if c.Uses().Generalized {
				return true
			}
		}
	}
	return false
}

// autoCandidates returns the methods auto fits on n nodes for k clusters,
// with their knobs: cluster.AutoMethods for pairs, the only supervision
// a session holds (its costly candidates, fast-ge, fast-ge2, fast-ge2-bh
// and cscap, only up to cluster.AutoCostlyMaxN nodes). Cost O(1).
func autoCandidates(n, k int) []cluster.Method {
	return cluster.AutoMethods(false, n, k)
}

// generalizedBytes returns the memory of a generalized eigensolve of e
// pairs besides d deflated ones on n nodes by eigen.LOBPCG with its
// default BlockSize bs = e + max(2, ⌈e/2⌉), and the order 3·bs of the
// projected matrix each of its iterations diagonalizes: the bytes
// eigen.LOBPCG.Workspace counts, as eigen.Settings.MaxDenseBytes (set to
// Config.MaxRequestMemory) refuses the solve beyond (16 blocks of n×bs
// values, n×d for B times the deflated vectors, three (3bs)² matrices), so
// that a request accepted here is not refused there, and 8·n·(4·bs + 8·e)
// bytes more: the pencil operators' scratch blocks of n×bs (cluster's
// comboOp allocates one a product), and n×e blocks, the solver's result
// and the copy its residual check makes, the method's embedding and
// k-means' copies (calibrated on the measurements: three n×bs and six n×e
// left 4 % between the estimate and the peak at 1000 nodes). Measured
// (testmem.PeakHeap, GC at 5 %, over njw's peak on the same graph, which
// workBytes stands for): fast-ge and fast-ge2 with k = 20 on 1000 nodes
// 3.6–4.7 MB for 5.2 MB estimated beyond njw's (6.1 MB before
// workBytes counted Lanczos's basis and working vectors in full,
// lanczosHeldVectors, which raised njw's estimate)
// (TestGeneralizedMemoryEstimate), on 3000 nodes 13.0 MB for 15.1 MB
// (17.9 MB before); on
// 6000 nodes with 600 pairs and k = 60, fast-ge2 106 MB and fast-ge 101
// MB in all (njw 19 MB) for 123 MB here (workBytes' Lanczos count said
// 13 MB), csp with k = 10 102 MB for 131 MB (e = 64, one component; 3.1
// MB before). The estimates are those of eigen.LOBPCG.Workspace since it
// grew by 1.11 (they were 5.4, 15.5, 111 and 119 MB; the measurements
// are older; TestGeneralizedBytesFigures recomputes them). Cost O(1).
func generalizedBytes(n, e, d int) (bytes float64, projected int) {
	ws, proj := eigen.LOBPCG{}.Workspace(n, e+d, d, true)
	bs := float64(proj / 3)
	return float64(ws) + 8*float64(n)*(4*bs+8*float64(e)), proj
}

// The multigrid path of the eigensolvers: from mgMinN nodes, cluster's
// Laplacian embeddings hand an L_sym solve of at most mgMaxPairs pairs
// not deflated that Lanczos has not converged within its first restarts
// to eigen.LOBPCG preconditioned with graph.Multigrid (on graphs whose
// pseudo-diameter is at least 128, which checkWork does not measure: it
// counts every such solve), and fast-ge preconditions its LOBPCG with a
// multigrid of its pencil's graph from cluster.FastGEMultigridMinN nodes
// (eigenWorkOf).
const (
	mgMinN     = cluster.MultigridMinN
	mgMaxPairs = cluster.MultigridMaxK
)

// multigridBytes returns the memory of graph.Multigrid's hierarchy on a
// graph of n nodes and nnz stored entries applied to blocks of p
// columns: on the finest level its L_sym values (8 bytes an entry; the
// graph is the caller's) and 20 bytes a node (the smoother's diagonal,
// the aggregation map and its scaling); on each coarser one the coarse
// graph and its L_sym (20 bytes an entry, 36 a node); on every level
// three n_l×p blocks (right-hand side, iterate, residual: 24·p bytes a
// node); the dense Cholesky factor of the coarsest level of at most 800
// nodes and its copy, 16·800² bytes. The coarser levels together are
// counted as 1.5 times the finest one's nodes and entries: they held
// 0.99–1.11 times the nodes and 0.79–1.11 times the entries on a 2-D
// 8-neighbour grid and on the default k-NN graph of 10⁵ uniform 2-D
// points, whose hierarchies (8 and 9 levels) peaked (testmem.PeakHeap,
// collector at its default, beyond the block and its result) at 74–79
// and 79–86 MB with p = 8 and 151 and 160 MB with p = 24, for 97, 109,
// 193 and 205 MB here (TestMultigridBytes); a factor 1.25 left 10 % on
// the k-NN graph. Cost O(1).
func multigridBytes(n, nnz, p int) float64 {
	fn, fz, fp := float64(n), float64(nnz), float64(p)
	const coarser = 1.5
	return 8*fz + 20*fn + 24*fp*fn + coarser*(20*fz+(36+24*fp)*fn) + 16*800*800
}

// workload is what a request's memory estimate reads of its session
// besides n: the data's graph (its stored entries and rows), the number
// of features per row (0 for a graph without features) and the
// constraints, and the request's k.
type workload struct {
	g     *graph.Graph
	d     int
	pairs []constraint.Pair
	k     int // the request's k (checkWork sets it): labelprop's classes
	// comps is the number of connected components of g when known
	// (compsKnown; checkWork computes it once a request for csp, whose
	// eigensolve deflates them, rather than once per probe of its
	// searches: O(n + stored entries) each).
	comps      int
	compsKnown bool
	// countComponents, when not nil, counts g's connected components
	// in place of graph.Graph.Components (a seam: tests count the calls,
	// TestCSPComponentsOnce).
	countComponents func(g *graph.Graph) int
}

// components returns the number of connected components of w's graph:
// w.comps when known, else counted (cost O(n + stored entries)).
func (w workload) components() int {
	if w.compsKnown {
		return w.comps
	}
	if w.countComponents != nil {
		return w.countComponents(w.g)
	}
	_, c := w.g.Components()
	return c
}

// workloadOf returns the workload of data d with the constraints pairs.
func workloadOf(d *input.Data, pairs []constraint.Pair) workload {
	_, dim := dims(d)
	return workload{g: d.Graph, d: dim, pairs: pairs}
}

// methodBytes returns the memory of the work of method m on w that
// workBytes does not count, which grows beyond n·(vectors) with n², the
// constraints or the features: what it is (for messages) and what a
// request can do about it (an imperative phrase); 0 when m has none. The paths and their sizes
// (peaks measured with runtime.ReadMemStats, GC at 5 %, on 2 cores, and
// rounded up):
//
//   - fast-ge on a graph dense enough for its Cholesky path (400 < n ≤
//     6000 and n³/3 < 2000·(stored entries + 2·pairs):
//     cluster.FastGEDenseCholesky): two n×n matrices, 16n² bytes (its
//     n×n factor; measured 1.2–1.5 × 8n² at n = 500 and 1000).
//   - fast-ge2-bh for 400 < n ≤ 3000 (cluster.PencilDenseLimit): the dense Schur complement of its
//     Bethe Hessian pencil, taken when that pencil is indefinite (the
//     usual case for Variant LN; rare for the default, both, and LH,
//     whose H_H is usually definite, but it cannot be known before, so
//     every variant is counted): eight n×n matrices, 64n²
//     bytes (measured 5.3–5.9 × 8n² at n = 500 and 1000). For n ≤ 400
//     workBytes counts eight n×n matrices already.
//   - ccsr: the fit of its m×m matrix M holds ten K×m matrices of its K
//     constraints (the rows of F at the pairs' ends, their whitened
//     copies, the map's scratch) and m×m iterates: 80·K·m + 128·m²
//     bytes (measured 6.8–8.7 × 8Km with K = 5000 and 20 000, m = 15 to
//     100).
//   - cpca and clpp: their d×d matrices (the covariance, the constrained
//     scatter, their eigenvectors) and n×d copies of the rows: 8·(5d² +
//     3nd) bytes (measured 6.1–15 × 8d² at n = 2000, d = 500 and 1000).
//   - ml-noa-ssc and mcl-noa-ssc, when the vote of their screen or
//     resolve runs (Screen, or contradictory constraints unless
//     NoResolve, from cluster.VoteMinPairs pairs): on a complete graph
//     its similarity is an n×n table, 8n² bytes; on a sparse graph
//     (cluster.VoteHopsAct) with VoteHops = 2, the two-step similarity
//     (Ŵ + I)², 12 bytes per entry, at most Σ_c deg(c)² + n entries and
//     n².
//   - fgpwc: its objective's three K×m blocks (Y, C·Y and E) and five
//     vectors of its K constraints, m the columns of its basis (vectors):
//     8·(3·K·m + 5·K) bytes, cluster.FGPWCObjectiveBytes, as the library
//     refuses them beyond cluster.Settings.MaxBlockBytes (set to
//     -max-request-mib): counted here, a request with many constraints is
//     refused before its embedding is computed, not after. With AutoTune,
//     IterCV or Laplacian auto, the fits of its cross-validation that run
//     at once, min(GOMAXPROCS, folds × candidates), each with an n×m
//     embedding, k-means scratch and its objective (fgpwcCVBytes:
//     measured 4 to 11 MB at n = 4000, m = 20, 8 fits, for 19 to 38 MB;
//     counting one objective, 1.0 MB, missed them).
//   - cosc: its merged copy of the graph and constraints, and per worker
//     the scratch state of RatioDCA (three values per edge, a dozen per
//     node) and two random starts in flight (the starts are drawn in
//     batches, so Starts counts only through the workers): 40·nnz +
//     200·n + 100·pairs + workers·(12·nnz + 150·n) bytes, nnz the stored
//     entries, workers the starts a bisection runs at once
//     (cluster.COSC.StartWorkers: min(GOMAXPROCS, Starts + 2), 8 by
//     default; counting GOMAXPROCS refused a default request on 10⁵
//     nodes on 64 cores, 2.0 GiB) (measured over njw's peak on the same graph,
//     which workBytes stands for: 1.2 MB at n = 2000 and 3.6–3.7 MB at
//     n = 8000 with nnz = 10n, 2 workers, Starts 6 or 50:
//     TestCOSCMemoryEstimate; the estimate is 2.3 and 9.1 MB).
//   - labelprop: its n×K blocks of class scores for K = k classes, six
//     for the closed form (H and five conjugate-gradient blocks), two
//     with Iterative, 8·n·K bytes each, as cluster.LabelProp refuses
//     them beyond cluster.Settings.MaxBlockBytes; workBytes counts 32·n·K
//     bytes of them already (its 8·n·(4k + 24)), so 16·n·K more for the
//     closed form (the up-front estimate is then 48·n·K + 192·n, never
//     below what the library refuses at: a request accepted here is not
//     refused by the bound after).
//   - cvqe: two states of n×k distances, k×k centroid distances and k×d
//     centroids, as cluster.CVQE refuses them beyond
//     cluster.Settings.MaxBlockBytes: 16·(n·k + k² + k·d) bytes, of which
//     workBytes counts the n×k ones, so 16·(k² + k·d) more.
//   - auto: the largest of the above among the candidates it fits
//     (autoCandidates: ml-noa-ssc's and mcl-noa-ssc's vote, fgpwc's
//     objective for its two FGPWC candidates, and up to
//     cluster.AutoCostlyMaxN nodes fast-ge's and fast-ge2-bh's dense
//     paths).
//
// Cost O(n + stored entries + pairs).
func methodBytes(m cluster.Method, w workload) (bytes int64, what, remedy string) {
	n := w.g.N()
	nn := float64(n) * float64(n)
	switch m.Name() {
	case "fast-ge":
		if cluster.FastGEDenseCholesky(n, w.g.NNZ(), len(w.pairs)) {
			return sat(16 * nn), "two n×n matrices: the dense Cholesky factor of its pencil, which it takes on a graph this dense", "choose another method (fast-ge2), or a sparser graph (fewer neighbours)"
		}
	case "fast-ge2-bh":
		if n > cluster.DenseLimit && n <= cluster.PencilDenseLimit {
			return sat(64 * nn), "eight n×n matrices: the dense Schur complement of its Bethe Hessian pencil, which it takes up to 3000 nodes when the pencil is indefinite (it cannot tell before)", "choose fast-ge2 (Laplacians, no dense pencil)"
		}
	case "ccsr":
		mm, _ := intKnob(m, "M")
		if mm == 0 {
			mm = int64(min(15, n-1))
		}
		mm = min(mm, int64(n))
		kk := float64(len(w.pairs))
		if b := 80*kk*float64(mm) + 128*float64(mm)*float64(mm); b > 0 {
			return sat(b), fmt.Sprintf("ten K×m matrices for the fit of M: K = %d constraints, m = %d", len(w.pairs), mm), "give fewer constraints, or a smaller M"
		}
	case "cpca", "clpp":
		if d := float64(w.d); d > 0 {
			return sat(8 * (5*d*d + 3*float64(n)*d)), fmt.Sprintf("d×d and n×d matrices of its d = %d features", w.d), "load data with fewer features"
		}
	case "fgpwc":
		// Its objective's K×m blocks (cluster.FGPWCObjectiveBytes, which
		// cluster.Settings.MaxBlockBytes bounds) for K constraints on
		// its basis of m = vectors columns, beyond workBytes' basis, and
		// the fits its cross-validation runs at once (fgpwcCVBytes).
		if kk := len(w.pairs); kk > 0 {
			e, _ := vectors(m, w.k, n)
			b := float64(cluster.FGPWCObjectiveBytes(kk, e))
			what := fmt.Sprintf("three K×m blocks of its objective: K = %d constraints, m = %d", kk, e)
			remedy := "give fewer constraints, or a smaller M (or MaxM)"
			if f, ok := fgpwcOf(m); ok {
				if cv, fits, folds := fgpwcCVBytes(f, n, e, kk); cv > 0 {
					b += cv
					what += fmt.Sprintf(", and %s for its cross-validation on %d folds (AutoTune, IterCV or Laplacian auto), %d fits at once, each with an n×m embedding, k-means scratch and its objective", wording.Bytes(sat(cv)), folds, fits)
					remedy = "turn off AutoTune and IterCV (and Laplacian auto), give fewer constraints, or a smaller M (or MaxM)"
				}
			}
			return sat(b), what, remedy
		}
	case "hbisect":
		// Beside its Fiedler vector (vectors: 2 pairs a bisection), each
		// bisection copies the part's subgraph and its normalized
		// operator (two copies of up to the whole graph, 12 bytes a
		// stored entry and a few n-vectors each) and sweeps it (f, the
		// order, membership), and the parts' node lists and the labels
		// are n ints each: 64·nnz + 256·n bytes, measured 5.0 MB of peak
		// heap at n = 5000, nnz = 5·10⁴, k = 50 for 1.3 MB of its
		// eigensolve and 4.5 MB of this (TestNoKEigensolveMemory).
		b := 64*float64(w.g.NNZ()) + 256*float64(n)
		return sat(b), "the copies of each part's subgraph and its operator, the sweep's arrays and the parts' node lists", "load a smaller or sparser graph (fewer neighbours)"
	case "cosc":
		starts, _ := intKnob(m, "Starts")
		workers := cluster.COSC{Starts: int(starts)}.StartWorkers()
		nnz := float64(w.g.NNZ())
		b := 40*nnz + 200*float64(n) + 100*float64(len(w.pairs)) + float64(workers)*(12*nnz+150*float64(n))
		return sat(b), fmt.Sprintf("its copy of the graph and, for each of the %d starts it runs at once, the scratch of RatioDCA", workers), "load a smaller or sparser graph (fewer neighbours), or give fewer constraints"
	case "labelprop":
		// Its n×K blocks (cluster.LabelProp's checkBlocks, the bound
		// cluster.Settings.MaxBlockBytes puts on them): six for the
		// closed form, 48·n·K bytes, two for Iterative, 16·n·K;
		// workBytes counts 32·n·K of them already.
		blocks, what := 6.0, "six n×K blocks of class scores and conjugate-gradient iterates"
		if boolKnob(m, "Iterative") {
			blocks, what = 2, "two n×K blocks of class scores (Alg. 5)"
		}
		if b := (blocks - 4) * 8 * float64(n) * float64(w.k); b > 0 {
			return sat(b), fmt.Sprintf("%s for K = %d classes", what, w.k), "give partial labels with fewer classes, or set the knob Iterative (two blocks)"
		}
	case "cvqe":
		// Two states of n×k distances, k×k centroid distances and k×d
		// centroids (cluster.CVQE, bounded by
		// cluster.Settings.MaxBlockBytes): the n×k ones are within
		// workBytes' 32·n·k, the others not.
		kk, d := float64(w.k), float64(w.d)
		if b := 16 * (kk*kk + kk*d); b > 0 {
			return sat(b), fmt.Sprintf("its k×k and k×d centroid blocks, twice, for k = %d and d = %d features", w.k, w.d), "ask for a smaller k, or load data with fewer features"
		}
	case "auto":
		// auto fits its candidates (cluster.AutoMethods): the largest
		// of their paths counted here, the costly ones only up to the
		// 1000 nodes auto tries them on.
		for _, c := range autoCandidates(n, w.k) {
			if b, cw, cr := methodBytes(c, w); b > bytes {
				bytes, what, remedy = b, c.Name()+", one of its candidates ("+cw+")", "choose a method by name, or "+cr
			}
		}
		return bytes, what, remedy
	case "ml-noa-ssc", "mcl-noa-ssc":
		if !noaVotes(m, w) {
			return 0, "", ""
		}
		if w.g.Complete() {
			return sat(8 * nn), "an n×n table: the similarity its vote on the constraints reads on a complete graph", "set the knob NoResolve (without Screen), or load a sparser graph"
		}
		if hops, _ := intKnob(m, "VoteHops"); hops == 2 || (hops == 0 && cluster.VoteHopsDefault == 2) {
			if cluster.VoteHopsAct(w.g) {
				var sq float64
				for i := range n {
					idx, _ := w.g.Row(i)
					sq += float64(len(idx)) * float64(len(idx))
				}
				entries := min(sq+float64(n), nn)
				return sat(12 * entries), fmt.Sprintf("the two-step similarity (Ŵ + I)² its vote reads, up to %.0f entries of 12 bytes", entries), "set the knob VoteHops to 1"
			}
		}
	}
	return 0, "", ""
}

// fgpwcCVBytes returns the memory FGPWC f's cross-validation on K =
// pairs constraints holds at once beyond a single fit (fgpwc_cv.go), for
// n nodes and a basis of m columns, with the number of fits it runs at
// once and of folds; 0 when it does not cross-validate (no AutoTune,
// IterCV or Laplacian auto, or fewer than 2 folds: fewer than 2
// constraints). Its fits run GOMAXPROCS at a time (parallel.For), each
// holding the objective of its training folds (and, for AutoTune, of its
// held-out fold: K constraints in all, cluster.FGPWCObjectiveBytes), the
// n×m embedding V·X its k-means reads and the scratch of k-means's
// restarts, up to 5 at once of about 5 values a node each (200·n bytes);
// so fits = min(GOMAXPROCS, tasks), the tasks being folds × 75 grid
// points (AutoTune: the pairs σ_m ≤ σ_c of its 10×10 grid), × up to 5
// caps (IterCV) or × 1 (Laplacian auto alone, the held-out score), and
// twice as many with Laplacian auto, which embeds (one more eigensolve,
// workBytes) and cross-validates both Laplacians at once. With Imprint every fold has a basis of its own,
// embedded with its training constraints and kept to the end (AutoTune's
// folds and IterCV's are different: both are held, n×(m + 1) values
// each, for each Laplacian), with up to min(fits, folds) eigensolves at
// once (workBytes each). Measured (testmem.PeakHeap, GC at 5 %) on 4000
// nodes, 2000 pairs, m = 20: with GOMAXPROCS 16, IterCV 9.8 MB and
// AutoTune with IterCV 13.6 MB above the same fit without them, for
// estimates of 37 and 40 MB; with GOMAXPROCS 8, 4.2 to 11.4 MB for 19 to
// 38 MB (TestFGPWCCVMemoryEstimate; on the 2-core machine short fits
// overlap less than 8 cores would make them); with GOMAXPROCS 2, nothing
// measurable. Cost O(1).
func fgpwcCVBytes(f cluster.FGPWC, n, m, pairs int) (bytes float64, fits, folds int) {
	auto := f.Laplacian == cluster.FGPWCAutoLaplacian
	tuneFolds, iterFolds := f.TuneFolds, f.TuneFolds
	if f.TuneFolds == 0 {
		tuneFolds, iterFolds = 5, 3
	}
	tasks, bases := 0, 0
	if f.AutoTune {
		folds = min(tuneFolds, pairs)
		tasks, bases = folds*75, folds
	}
	if f.IterCV || auto {
		itf, caps := min(iterFolds, pairs), 1
		if f.IterCV {
			caps = 5
		}
		folds = max(folds, itf)
		tasks, bases = max(tasks, itf*caps), bases+itf
	}
	if folds < 2 {
		return 0, 0, 0
	}
	fits = min(runtime.GOMAXPROCS(0), tasks)
	if auto {
		fits, bases = 2*fits, 2*bases
	}
	nf, mf := float64(n), float64(m)
	bytes = float64(fits) * (8*nf*mf + 200*nf + float64(cluster.FGPWCObjectiveBytes(pairs, m)))
	if auto {
		bytes += float64(workBytes(n, m))
	}
	if f.Imprint {
		bytes += float64(bases)*8*nf*(mf+1) + float64(min(fits, bases))*float64(workBytes(n, m))
	}
	return bytes, fits, folds
}

// noaVotes reports whether ml-noa-ssc or mcl-noa-ssc m votes on w's
// constraints: from cluster.VoteMinPairs pairs, with its Screen, or by
// default when they contradict each other (a cannot-link inside a
// must-link component) and NoResolve is not set. Cost O(n + pairs).
func noaVotes(m cluster.Method, w workload) bool {
	if len(w.pairs) < cluster.VoteMinPairs {
		return false
	}
	if boolKnob(m, "Screen") {
		return true
	}
	if boolKnob(m, "NoResolve") {
		return false
	}
	comp, _ := constraint.Closure(&constraint.Set{N: w.g.N(), Pairs: w.pairs})
	for _, p := range w.pairs {
		if p.Kind == constraint.CannotLink && comp[p.I] == comp[p.J] {
			return true
		}
	}
	return false
}

// sat returns b as an int64, saturating at math.MaxInt64.
func sat(b float64) int64 {
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}

// denseAt is the time bound's reference point (denseSeconds): on up to
// denseAtNodes nodes the eigensolvers' dense solve takes at most about
// denseAtSeconds, well within DefaultComputeTimeout (2 minutes), which
// leaves the rest of the request (k-means, the method's own work) room.
// Measured with eigen.Dense on a random symmetric matrix, on the 2-core
// test machine under a load of 2 to 3 (review 116): for K just above n/6
// (the iterative solvers' dense fallback starts there), K = n/2 and K =
// n − 1 (LAPACK dsyev): n = 1000: 0.5, 0.8, 2.0–2.7 s; n = 1500: 3.4,
// 3.5, 12–22 s; n = 2000: 4.9, 6.9, 25–27 s; n = 2500: 10 s for K = 417,
// 76 s for K = 2499 (a whole njw request for k = 2499 took 113 s, a
// first FGPWC basis of M = 2500 at load 228 s); n = 3000: 19 s for K =
// 501. The time grows as n³, and with K (denseSeconds).
const (
	denseAtNodes   = 2000
	denseAtSeconds = 27
)

// denseSeconds estimates the time of a dense eigensolve of e vectors on
// n nodes from the measurements of denseAt: denseAtSeconds·(n/2000)³
// times 0.15 + 0.85·(e/n)³, which gives 0.15 of the worst case (K = n − 1)
// just above n/6, 0.26 at n/2 and 1 at n (measured at 2000 nodes: 0.19,
// 0.27 and 1; at 2500 nodes, K = 417: 8.1 s for 10 s measured, K = 2499:
// 53 s for 76 s). A bound on n alone, calibrated on K = n − 1, refused
// fgpwc with k = 83 on 1000 nodes under a 10 s limit, a 0.43 s request
// (review 124). Cost O(1).
func denseSeconds(n, e int) float64 {
	f := min(float64(e)/float64(n), 1)
	r := float64(n) / denseAtNodes
	return denseAtSeconds * r * r * r * (0.15 + 0.85*f*f*f)
}

// denseTooLong reports whether a dense eigensolve of e vectors on n nodes
// is estimated (denseSeconds) to take more than a quarter of the compute
// limit, Config.ComputeTimeout, which it cannot cut short: gonum's
// eigendecompositions take no context. Problems up to cluster.DenseLimit
// nodes, which the eigensolvers always solve densely, are never refused
// so. Cost O(1).
func (s *Server) denseTooLong(n, e int) bool {
	return n > cluster.DenseLimit && denseSeconds(n, e) > s.cfg.ComputeTimeout.Seconds()/4
}

// projectedAt is the reference point of projectedSeconds: a dense
// symmetric eigensolve of an m×m matrix with all its vectors (gonum
// mat.EigenSym, LAPACK dsyev, the Rayleigh–Ritz step of eigen.Lanczos on
// its NCV×NCV projected matrix, once per restart) took
// projectedAtSeconds at m = projectedAtSize. Measured on the 2-core test
// machine under a load of 4 to 6, best of two, a random symmetric matrix
// and a tridiagonal one with an arrow (Lanczos's shape after a thick
// restart) alike: m = 400: 0.16 s; m = 800: 1.36 s; m = 1200: 6.5 s; m =
// 1600: 35 s (arrow 38 s, a second run 38 s). Past about m = 1000 the
// matrix (8m² bytes, 20 MB at 1600) leaves the caches and the time grows
// faster than m³: denseSeconds(m, m),
// fitted to the eigensolvers' full dense solves of up to 3000 nodes at a
// lighter load, gives 0.22, 1.7 and 14 s, 2.5 times too little at 1600. So
// the estimate is cubic through the largest measurement, an overestimate
// by 3 to 4 times at m ≤ 800, where it refuses nothing a limit of a few
// seconds allows (m = 800: 4.8 s).
const (
	projectedAtSize    = 1600
	projectedAtSeconds = 38
)

// projectedSeconds estimates the time of a dense symmetric eigensolve of
// an m×m matrix with all its vectors, projectedAtSeconds·(m/1600)³, the
// slowest of the measurements at 1600 (projectedAt). Cost O(1).
func projectedSeconds(m int) float64 {
	r := float64(m) / projectedAtSize
	return projectedAtSeconds * r * r * r
}

// lanczosNCV is eigen.Lanczos's default basis size for K wanted pairs,
// max(2K + 1, K + 20) (at least K + 2): the order of its projected
// matrix, whose eigensolve (projectedSeconds) each restart runs and
// cannot stop. Deflated pairs shorten it, so this is an upper bound.
func lanczosNCV(k int) int {
	return max(2*k+1, k+20, k+2)
}

// projectedTooLong reports whether the Rayleigh–Ritz step of an iterative
// eigensolve, a dense eigensolve of rows rows (eigen.Lanczos's: lanczosNCV(e)
// for e vectors, as cluster's autoSolver runs it with its default NCV above
// cluster.DenseLimit nodes, and its MaxNCV = 64 from 2·10⁴ nodes lets no
// basis of 32 or more pairs grow; eigen.LOBPCG's, for a generalized
// eigensolve: 3·BlockSize, generalizedBytes), is estimated
// (projectedSeconds) to take more than a quarter of Config.ComputeTimeout
// and more than projectedMinSeconds: gonum's eigendecompositions take no
// context, so a restart's or an iteration's step runs to its end whatever
// the limit (njw with k = 800 on 10⁴ nodes under 20 s: 503 after 54 s). A
// step shorter than projectedMinSeconds delays the 503 of a request past
// its limit by at most that, so a limit of milliseconds still answers 503
// for what it cannot finish, not 400 for the basis of 20 vectors every
// solve has. Cost O(1).
func (s *Server) projectedTooLong(rows int) bool {
	t := projectedSeconds(rows)
	return t > projectedMinSeconds && t > s.cfg.ComputeTimeout.Seconds()/4
}

// eigensolvesVectors reports whether m computes its partition from an
// eigensolve of about as many vectors as vectors() counts (k, or the knob
// that sizes its embedding), which the time bounds of checkWork
// (denseTooLong, projectedTooLong) are about: every method but those
// whose Uses declare NoKEigensolve (labelprop, cvqe, plmeans, cpca and
// clpp; the bisections hbisect, cosc and l1csc, whose eigensolves are of
// 2 vectors, or l1csc's Starts + 1, a part; mavro's one vector; opplc),
// whose k asks for no unstoppable dense solve (labelprop with K = 800
// classes on 10⁴ nodes was refused as an eigensolve of 800 vectors under
// the default 2-minute limit). Their memory is still counted
// (workBytes, methodBytes). Cost O(1).
func eigensolvesVectors(m cluster.Method) bool {
	return !m.Uses().NoKEigensolve
}

// projectedMinSeconds is the estimate (projectedSeconds) below which
// projectedTooLong refuses no projected eigensolve, whatever the compute
// limit: NCV = 476 rows, 238 vectors.
const projectedMinSeconds = 1

// eigenWork is what checkWork counts of a method's eigensolve of e
// vectors on n nodes: its memory (bytes), the order of the dense matrix
// each Lanczos restart or LOBPCG iteration diagonalizes (rows), and what
// holds the memory and solves (for messages).
type eigenWork struct {
	bytes    int64
	rows     int
	basis    string // "Lanczos restart" or "LOBPCG iteration"
	holds    string // what the bytes are, for a message
	cspDense bool   // csp's dense solves (cluster.CSPDenseMax)
}

// eigenWorkOf returns the eigenWork of method m's eigensolve of e vectors
// on w's n nodes: eigen.Lanczos's (workBytes, lanczosNCV(e) rows), or for
// a generalized eigensolve (generalizedOf) the larger of that and
// eigen.LOBPCG's (generalizedBytes, 3·BlockSize rows), csp's with d =
// its graph's connected components deflated (an upper bound: Run gives it
// the core, which has no more), and for csp on DenseLimit < n ≤
// cluster.CSPDenseMax nodes its dense solves' nine n×n matrices as well
// (eigen.DenseBytes' eight of a generalized dense solve, and one more:
// csp's peak, about 19 n×n arrays allocated in all, measured 7.6 n×n
// over njw's at n = 1000 and 7.0 at n = 2000, k = 20). For auto, whose
// e counts its FGPWC and SSC-KA candidates' Lanczos embeddings
// (vectors), LOBPCG's are of min(e, k) vectors, its generalized
// candidates' (fast-ge, fast-ge2, fast-ge2-bh), and the larger projected
// matrix counts. From mgMinN nodes it counts the multigrid path: for a
// standard eigensolve of at most mgMaxPairs + 1 vectors the larger of
// Lanczos's and eigen.LOBPCG's blocks with the multigrid hierarchy of the
// graph (multigridBytes), which no count held before; for fast-ge the
// hierarchy of its pencil's graph beside LOBPCG's. Cost O(1); for csp O(n
// + stored entries) unless w knows its components (checkWork counts them
// once a request).
func eigenWorkOf(m cluster.Method, e int, w workload) eigenWork {
	n := w.g.N()
	if m.Name() == "opplc" {
		// No eigensolve: its labels, cluster sizes and the CSR of the
		// cannot-links (n + 1 offsets), four n-vectors at most.
		return eigenWork{bytes: sat(32 * float64(n)), holds: "its labels and the lists of cannot-linked nodes"}
	}
	ew := eigenWork{bytes: workBytes(n, e), rows: lanczosNCV(e), basis: "Lanczos restart", holds: fmt.Sprintf("%d vectors of n values and their working copies", e)}
	if !eigensolvesVectors(m) {
		return ew
	}
	if !generalizedOf(m, n) {
		if n >= mgMinN && e <= mgMaxPairs+1 {
			// The multigrid LOBPCG after Lanczos's first restarts:
			// LOBPCG's blocks (eigen.LOBPCG.Workspace) and the hierarchy
			// of the graph, for a block of its BlockSize columns.
			ws, proj := eigen.LOBPCG{}.Workspace(n, e, 0, false)
			if b := sat(float64(ws) + multigridBytes(n, w.g.NNZ(), proj/3)); b > ew.bytes {
				ew.bytes = b
				ew.holds = fmt.Sprintf("LOBPCG's blocks of n values for %d vectors (block size %d) and the multigrid hierarchy of the graph that preconditions it from %d nodes", e, proj/3, mgMinN)
			}
			ew.rows = max(ew.rows, proj)
		}
		return ew
	}
	d := 0
	if m.Name() == "csp" {
		d = w.components()
		if n > cluster.DenseLimit && n <= cluster.CSPDenseMax {
			ew.cspDense = true
			ew.bytes = max(ew.bytes, sat(float64(eigen.DenseBytes(n, true))+8*float64(n)*float64(n)))
			ew.holds = fmt.Sprintf("nine n×n matrices: csp solves its pencil densely up to %d nodes", cluster.CSPDenseMax)
		}
	}
	if densely(n, e) {
		return ew
	}
	ge := e
	if m.Name() == "auto" && w.k > 0 {
		// Its generalized candidates (fast-ge, fast-ge2, fast-ge2-bh)
		// solve for about k vectors; e counts its FGPWC and SSC-KA
		// candidates' max(2k, 10) (vectors), which Lanczos solves.
		ge = min(e, w.k)
	}
	b, rows := generalizedBytes(n, ge, d)
	mg := ""
	if n >= cluster.FastGEMultigridMinN && m.Name() == "fast-ge" {
		// fast-ge's multigrid of its pencil's graph (W, the must-links
		// and μ times the cannot-links), for a block of BlockSize
		// columns (auto fits fast-ge only up to AutoCostlyMaxN nodes,
		// fewer than mgMinN).
		b += multigridBytes(n, w.g.NNZ()+2*len(w.pairs), rows/3)
		mg = " and the multigrid hierarchy of its pencil's graph"
	}
	if gb := sat(b); gb > ew.bytes {
		ew.bytes = gb
		ew.holds = fmt.Sprintf("LOBPCG's blocks of n values for %d vectors (%d deflated besides; block size %d), their working copies%s", ge, d, rows/3, mg)
	}
	if m.Name() != "auto" || rows >= ew.rows {
		// auto's FGPWC and SSC-KA candidates' Lanczos may diagonalize
		// the larger projected matrix.
		ew.rows, ew.basis = rows, "LOBPCG iteration"
	}
	return ew
}

// checkWork refuses, as bad input, a request whose method m, k and knobs
// make the eigensolvers solve densely for longer than the compute limit
// allows (denseTooLong, a time bound; it names the largest number of
// vectors that keeps the solve iterative), or iteratively with a
// projected eigenproblem each Lanczos restart or LOBPCG iteration too long
// for it (projectedTooLong on eigenWorkOf's rows; it names the largest
// number of vectors within it), or ask for more memory on w than
// Config.MaxRequestMemory allows, before anything is computed: the
// eigenvectors (eigenWorkOf: workBytes of vectors, or for a generalized
// eigensolve LOBPCG's blocks, generalizedBytes) and the method's own paths
// that grow faster (methodBytes) together. When the vectors alone pass the
// limit it names what asks for them and the largest number of vectors
// that fits beside the method's paths (a dense eigensolve for k near n
// allocated 8n² bytes a matrix, and exhausted the memory, which no
// recover can catch: review 92, k = 29999 on 30 000 nodes asked for 7.2
// GB and killed the server); otherwise it names the method's path and what
// to change. Cost O(log n) eigenWorkOf plus methodBytes'.
func (s *Server) checkWork(m cluster.Method, k int, w workload) error {
	n := w.g.N()
	w.k = k
	if m.Name() == "csp" && !w.compsKnown {
		w.comps, w.compsKnown = w.components(), true
	}
	e, why := vectors(m, k, n)
	ew := eigenWorkOf(m, e, w)
	if eigensolvesVectors(m) && ew.cspDense && !densely(n, e) && s.denseTooLong(n, n) {
		// csp's dense solves of its pencil (cluster.CSPDenseMax) cost about a
		// full dense eigensolve each, denseSeconds(n, n): measured 3.0 s
		// for a whole csp request at n = 1000 and 50 s at n = 2000 (two
		// dense solves of 41 and 65 pairs, k = 20, under a load of 6
		// on 2 cores), for 3.4 and 27 s estimated.
		return fmt.Errorf("%w: %s on n = %d nodes: csp solves its pencil densely up to %d nodes, which takes O(n³) time, about %.0f s here, and cannot be stopped once started, more than a quarter of this server's compute time limit of %v: restart tether serve with a larger -compute-timeout", errBadInput, why, n, cluster.CSPDenseMax, denseSeconds(n, n), s.cfg.ComputeTimeout)
	}
	if eigensolvesVectors(m) && densely(n, e) && s.denseTooLong(n, e) {
		// The largest e with n > 6e + 8 (workBytes' dense rule).
		iterative := (n - 9) / 6
		return fmt.Errorf("%w: %s on n = %d nodes: %s's eigensolve would be dense (from about n/6 vectors, %d on these nodes, the eigensolvers solve densely), which takes O(n³) time, about %.0f s here, and cannot be stopped once started, more than a quarter of this server's compute time limit of %v: keep the vectors this asks for at most %d, or restart tether serve with a larger -compute-timeout", errBadInput, why, n, m.Name(), iterative+1, denseSeconds(n, e), s.cfg.ComputeTimeout, iterative)
	}
	if eigensolvesVectors(m) && !densely(n, e) && s.projectedTooLong(ew.rows) {
		fits := sort.Search(e, func(e int) bool { return s.projectedTooLong(eigenWorkOf(m, e, w).rows) }) - 1
		return fmt.Errorf("%w: %s on n = %d nodes: %s's eigensolve of %d vectors diagonalizes a dense %d×%d projected matrix at every %s, which takes O(rows³) time, about %.0f s here, and cannot be stopped once started, more than a quarter of this server's compute time limit of %v: keep the vectors this asks for at most %d, or restart tether serve with a larger -compute-timeout", errBadInput, why, n, m.Name(), e, ew.rows, ew.rows, ew.basis, projectedSeconds(ew.rows), s.cfg.ComputeTimeout, max(fits, 0))
	}
	vec, limit := ew.bytes, s.cfg.MaxRequestMemory
	extra, what, remedy := methodBytes(m, w)
	need := sat(float64(vec) + float64(extra))
	if need <= limit {
		return nil
	}
	if vec <= limit && extra > 0 {
		return fmt.Errorf("%w: %s on n = %d nodes needs about %s (%s; %s for %d vectors besides), more than this server's memory limit of %s per request: %s, or restart tether serve with a larger -max-request-mib", errBadInput, m.Name(), n, wording.Bytes(need), what, wording.Bytes(vec), e, wording.Bytes(limit), remedy)
	}
	fits := sort.Search(n+1, func(e int) bool {
		// The multigrid path (mgMinN) counts more for e ≤ mgMaxPairs + 1
		// vectors than Lanczos for a few more: the larger of the two
		// keeps the search monotone, and the advice within the limit.
		b := max(eigenWorkOf(m, e, w).bytes, eigenWorkOf(m, min(e, mgMaxPairs+1), w).bytes)
		return sat(float64(b)+float64(extra)) > limit
	}) - 1
	if m.Name() == "csp" && fits < cluster.CSPMaxVectors {
		// csp asks for its 64 pairs whatever k below them: a smaller k
		// does not help.
		fits = 0
	}
	how := ew.holds
	switch {
	case n <= cluster.DenseLimit:
		how = "n×n matrices: the eigensolvers work densely on small graphs"
	case n <= 6*e+8:
		how = fmt.Sprintf("n×n matrices: beyond about n/6 vectors (%d here) the eigensolvers work densely", e)
	}
	if extra > 0 {
		how += fmt.Sprintf(", and %s for %s", wording.Bytes(extra), what)
	}
	advice := fmt.Sprintf("ask for at most %d", fits)
	if fits < 1 {
		advice = "load smaller data"
		if extra > 0 {
			advice = remedy
		}
	}
	return fmt.Errorf("%w: %s on n = %d nodes: %s needs about %s (%s), more than this server's memory limit of %s per request: %s, or restart tether serve with a larger -max-request-mib", errBadInput, why, n, m.Name(), wording.Bytes(need), how, wording.Bytes(limit), advice)
}

// clampMemoryKnobs returns m with its memory-limit knob MaxBytes (cscap:
// the bound on its dense n×n work, 2 GiB when 0) set to the server's
// Config.MaxRequestMemory when the request leaves it 0 and the method's
// default is larger, and refuses, as bad input, a MaxBytes above it: a
// request could otherwise lift the method's own guard (review 92). The
// other knobs that size the work (FGPWC's M and MaxM, CCSR's M, SSC-KA's
// Rank, MaxK) and the constraints, features and graph are counted by
// checkWork (workBytes, methodBytes).
func (s *Server) clampMemoryKnobs(m cluster.Method) (cluster.Method, error) {
	v, ok := intKnob(m, "MaxBytes")
	limit := s.cfg.MaxRequestMemory
	switch {
	case !ok:
		return m, nil
	case v > limit:
		return nil, fmt.Errorf("%w: %s's MaxBytes = %d is above this server's memory limit of %d bytes (%s) per request", errBadInput, m.Name(), v, limit, wording.Bytes(limit))
	case v == 0 && limit < cscapDefaultMaxBytes:
		out, err := cluster.SetKnobs(m, []string{"MaxBytes=" + strconv.FormatInt(limit, 10)})
		if err != nil {
			return nil, fmt.Errorf("setting %s's MaxBytes to the server's limit: %w", m.Name(), err)
		}
		return out, nil
	}
	return m, nil
}

// cscapDefaultMaxBytes is the default of cluster.CSCAP.MaxBytes (its
// knob's doc: "0: 2 GiB").
const cscapDefaultMaxBytes = 2 << 30

// settings returns the cluster.Settings of a request's computation with
// the given seed: the eigensolvers refuse a dense solve (or a Lanczos
// basis whose starting size passes it; a growing one stops growing at
// it) beyond Config.MaxRequestMemory (eigen.Settings.MaxDenseBytes), and
// the methods their n×K blocks beyond it (cluster.Settings.
// MaxBlockBytes: labelprop's class scores, 48·n·K bytes, which checkWork
// counts as well), the library's own guards behind checkWork, which
// refuse nothing checkWork accepts; nothing else differs from the
// defaults.
func (s *Server) settings(seed uint64) *cluster.Settings {
	return &cluster.Settings{Seed: seed, EigenSettings: &eigen.Settings{MaxDenseBytes: s.cfg.MaxRequestMemory}, MaxBlockBytes: s.cfg.MaxRequestMemory}
}
