package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/progress"
)

// ErrInvalid is wrapped by errors reporting an ill-posed problem: k out of
// range, missing graph, supervision the method cannot use.
var ErrInvalid = errors.New("cluster: invalid problem")

// ErrNoSupervision is wrapped, besides ErrInvalid, by the error of a
// method that needs side information and was given none it can use: the
// methods of pairs that declare Uses.NeedsPairs (sl, ml-noa-ssc,
// mcl-noa-ssc, ccsr, csp, fast-ge2, fast-ge2-bh) without pairs or partial
// labels that give one (Run states the rule, noPairs), fast-ge2 and
// fast-ge2-bh without a cannot-link; labelprop, mavro, mavro-k and noa-ssc
// without partial labels, or with labels that are all
// constraint.Unlabeled. A command line can tell such a mistake from bad
// data by it. The other methods of pairs run without pairs, unconstrained,
// with a warning.
var ErrNoSupervision = errors.New("cluster: no side information")

// noSupervision returns the error "ErrInvalid's text: the formatted
// message", wrapping ErrInvalid and ErrNoSupervision.
func noSupervision(format string, args ...any) error {
	return noSupervisionError{fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)}
}

// noSupervisionError is an error of noSupervision: its text and chain are
// those of the wrapped error, and it is ErrNoSupervision too.
type noSupervisionError struct{ error }

func (e noSupervisionError) Unwrap() error        { return e.error }
func (e noSupervisionError) Is(target error) bool { return target == ErrNoSupervision }

// ErrMemoryBound is wrapped, besides ErrInvalid, by the error of a method
// refused because its dense blocks need more than
// Settings.MaxBlockBytes (labelprop's class scores, cvqe's distances,
// fgpwc's objective blocks of one m-vector per constraint): a
// caller that set the bound (a command bounding a run by the machine's
// memory) can tell this refusal from the others without reading the
// message. An eigensolve refused by EigenSettings.MaxDenseBytes wraps
// eigen.ErrMemoryBound instead.
var ErrMemoryBound = errors.New("cluster: beyond the memory bound")

// memoryBoundError is an error whose text and chain are those of the
// wrapped error, and which is ErrMemoryBound too.
type memoryBoundError struct{ error }

func (e memoryBoundError) Unwrap() error        { return e.error }
func (e memoryBoundError) Is(target error) bool { return target == ErrMemoryBound }

// numericalError is an error whose text and chain are those of the
// wrapped error, and which is ErrNumerical too: a numerical failure of a
// shared step (a pencil, an eigensolve) whose message says what failed
// already.
type numericalError struct{ error }

func (e numericalError) Unwrap() error        { return e.error }
func (e numericalError) Is(target error) bool { return target == ErrNumerical }

// pkgError is an error of this package whose text names the package
// once: "cluster: ", prefix, err's text without the "cluster" elements
// an error chain through this package repeats (unprefixed; the sentinels
// ErrInvalid and ErrNumerical carry one) and without a leading drop, then
// tail. A user reads "cluster: fast-ge2: invalid problem: …", not
// "cluster: fast-ge2: cluster: invalid problem: cluster: …". errors.Is
// and errors.As see err and, when set, also.
type pkgError struct {
	prefix string // "name: " of a method, "invalid problem: ", or ""
	err    error
	drop   string // "name: " said by prefix already (onCore), or ""
	tail   string
	also   error // a sentinel wrapped besides err (ErrInvalid), or nil
}

func (e *pkgError) Error() string {
	msg := unprefixed(e.err.Error())
	if e.drop != "" {
		msg = strings.TrimPrefix(msg, e.drop)
	}
	return "cluster: " + e.prefix + msg + e.tail
}

func (e *pkgError) Unwrap() []error {
	if e.also == nil {
		return []error{e.err}
	}
	return []error{e.also, e.err}
}

// unprefixed returns msg without its "cluster" elements (the text between
// two ": "), which an error chain through this package repeats.
func unprefixed(msg string) string {
	parts := strings.Split(msg, ": ")
	kept := parts[:0]
	for _, p := range parts {
		if p != "cluster" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ": ")
}

// wrapMethod returns err as an error of method name ("cluster: name: …",
// pkgError), nil when err is nil.
func wrapMethod(name string, err error) error {
	if err == nil {
		return nil
	}
	return &pkgError{prefix: name + ": ", err: err}
}

// cancelledIn returns err as an error of method name stopped at stage
// ("cluster: name: stage: …", wrapMethod) when err is a cancellation (it
// wraps context.Canceled or context.DeadlineExceeded) whose text does not
// name the method yet, and err unchanged otherwise: the other errors of
// the stage keep their text. It is for the steps a method shares with
// others (k-means, the spectral embedding, dense factorizations), whose
// cancellation names neither the method nor the step. Cost O(len of
// err's text).
func cancelledIn(name, stage string, err error) error {
	if !isCancellation(err) || strings.HasPrefix(err.Error(), "cluster: "+name+": ") {
		return err
	}
	return wrapMethod(name, fmt.Errorf("%s: %w", stage, err))
}

// isCancellation reports whether err wraps context.Canceled or
// context.DeadlineExceeded (false for nil). Cost O(length of err's
// chain).
func isCancellation(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// methodError returns err as an error of method name: named by the stage
// too (cancelledIn) when it is a cancellation, "cluster: name: …"
// (wrapMethod) otherwise; nil when err is nil. It is for a shared step
// whose other errors say what failed themselves. Cost O(len of err's
// text).
func methodError(name, stage string, err error) error {
	if isCancellation(err) {
		return cancelledIn(name, stage, err)
	}
	return wrapMethod(name, err)
}

// tidy returns err as a pkgError when its text starts with "cluster: "
// and names the package again further on (a method's error wrapping the
// eigensolver's or another method's: "cluster: fgpwc: embedding: cluster:
// eigensolver: …"), and err itself otherwise.
func tidy(err error) error {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "cluster: "); !ok || unprefixed(msg) == rest {
		return err
	}
	return &pkgError{err: err}
}

// Problem is what is clustered: a graph (or, for the methods that declare
// it in Uses, feature rows or a bipartite matrix), the number of clusters
// and the side information. Run checks it against the method's Uses before
// the method runs, and warns about side information the method ignores.
type Problem struct {
	// Graph is the affinity graph on the n nodes. Required by every method
	// whose Uses.Input includes GraphInput (every method but cocluster,
	// which reads Bipartite, and cpca and cvqe, which read Features).
	Graph *graph.Graph
	// K is the number of clusters, 1 ≤ K ≤ n. K = 0 asks the method to
	// estimate k; only methods with Uses.EstimatesK accept it.
	K int
	// Constraints are pairwise must-link / cannot-link constraints on the n
	// nodes. Nil means none.
	Constraints *constraint.Set
	// Labels are partial labels of the n nodes (constraint.Unlabeled for
	// unknown). Nil means none.
	Labels constraint.Labels
	// Features, if not nil, are feature rows: row i (of length d) describes
	// node i. Methods that project features (Uses.Input has FeatureInput)
	// require them; the others ignore them. Every entry must be finite.
	Features *mat.Dense
	// Bipartite, if not nil, is a nonnegative rows×cols matrix whose rows
	// and columns are clustered together (co-clustering; Uses.Input has
	// BipartiteInput). Node i < rows is row i and node rows + j is column
	// j, so n = rows + cols; a Graph given beside it must have that many
	// nodes. Every entry must be finite and ≥ 0. A matrix with the method
	// Row(i) ([]int32, []float64), such as *dataset.Sparse, is read only
	// through its stored entries (O(nnz)); a dense one entry by entry.
	Bipartite mat.Matrix
	// Regularize is the regularization of the normalized Laplacians L_sym
	// and L_rw that the k-way spectral embeddings build from Graph (NJW,
	// Ncut, cSC-AP, CCSR; see graph.Regularization): degrees d + τ, and
	// optionally τ/n added to every weight. The zero value, RegAuto,
	// regularizes, with τ = the mean degree, the graphs with isolated
	// nodes, more than k connected components, one below n/(4k) nodes or
	// heterogeneous degrees (graph.NeedsRegularization) and leaves the
	// others exact. The
	// bisection methods and FGPWC always use the exact Laplacian (their
	// objectives are stated on it); so do the unnormalized Laplacians.
	Regularize graph.Regularization
	// Disconnected is what Run does, for the methods that declare
	// Uses.Core, with a graph that has isolated nodes or connected
	// components too small to be clusters (graph.SmallComponent). The zero
	// value, DisconnectedAttach, clusters the core of the graph and
	// attaches the other nodes by their labels, must-links and edges, with
	// a warning (core.go states the rule); DisconnectedStrict gives the
	// method the whole graph, which those built on D^{-1/2} refuse.
	Disconnected Disconnected

	// weightExp is e when Run multiplied the weights of the caller's
	// graph, and Regularize.Tau with them, by 2^−e (rescaled): 0 for
	// the caller's own problem. validate checks the τ the caller
	// gave, Tau·2^weightExp, against graph.MaxTau.
	weightExp int
}

// Settings controls the computation shared by all methods: randomness,
// k-means restarts, the eigensolver and progress reporting, and how Run's
// warnings name a remedy. A nil *Settings means the defaults documented
// on each field. Settings are never modified.
type Settings struct {
	// Seed seeds every random choice (k-means seeding, starting vectors).
	// The same Seed gives the same result.
	Seed uint64
	// Restarts is the number of k-means restarts; the best run is kept. If
	// Restarts is 0, the method's default is used (10 unless documented).
	// A negative Restarts, or one above kmeans.MaxRestarts, is an error.
	Restarts int
	// Eigen is the eigensolver used for spectral embeddings. If nil, the dense
	// solver is used for n ≤ DenseLimit and the iterative one otherwise.
	// The methods that solve a generalized problem A x = λ B x (fast-ge,
	// fast-ge2 and fast-ge2-bh on a definite pencil, csp) need a solver
	// that takes B: with eigen.Lanczos or eigen.BlockLanczos they fail
	// with an error wrapping ErrInvalid.
	Eigen eigen.Solver
	// EigenSettings is passed to the eigensolver. Nil means its defaults
	// with a relative residual tolerance of 1e-8 (FGPWC: 1e-5). A non-nil
	// value is passed as it is, except that a zero Tol keeps that
	// tolerance (not eigen's own default, 1e-10), so
	// &eigen.Settings{MaxIter: 50} changes only the iteration cap.
	EigenSettings *eigen.Settings
	// MaxBlockBytes, if positive, bounds the memory of the dense blocks
	// a method sizes by its number of classes, clusters or constraints
	// rather than by eigenvectors (labelprop's n×K class scores and
	// conjugate-gradient blocks, cvqe's n×K distances, fgpwc's objective
	// blocks of one m-vector per constraint): a method whose blocks would
	// need more refuses, before allocating them, with an error wrapping
	// ErrInvalid and ErrMemoryBound that names the bytes needed and the
	// remedy (fewer classes, a smaller k, a smaller M or fewer
	// constraints). EigenSettings.MaxDenseBytes bounds the eigensolvers'
	// memory in the same way: dense solves, Lanczos's basis and its
	// growth, and BlockLanczos's and LOBPCG's blocks and projected
	// matrices. If MaxBlockBytes is 0 there is no
	// bound; a negative value is an error.
	MaxBlockBytes int64
	// Recorder, if not nil, receives progress events, on the stages that
	// package progress lists (the eigensolver's "eigen", k-means'
	// "kmeans", and the method's own).
	Recorder progress.Recorder
	// Repair says when a Laplacian embedding whose iterative eigensolve
	// returned eigenvalues below its resolution (tol·‖L‖, where it cannot
	// tell them apart and may miss some) is solved again by
	// shift-and-invert with a sparse direct factor: RepairAuto (the
	// default) when that costs at most the work the solve already spent
	// (at least 10⁹ multiply-adds), RepairAlways whenever the factor fits
	// its memory cap (2.5·10⁷ entries) and 2·10¹⁰ multiply-adds,
	// RepairNever not at all. Without a repair the result carries a
	// warning. Only the Laplacian embeddings solved iteratively
	// (Settings.Eigen nil, more than DenseLimit nodes) without
	// regularization (τ = 0) are repaired (embed.go).
	Repair Repair
	// NormalizeRemedy, if not empty, ends Run's warnings about the scale
	// of the weights (weights above 1, or far below it, for a method
	// declaring Uses.WeightScale) instead of WeightScaleRemedy and
	// Spelling's option: the parenthesis naming how the caller's users
	// divide the weights by the largest, as its front end spells it (a
	// job's `(the job's "normalize_weights": true; library:
	// graph.Graph.Normalized)`). It changes no computation.
	NormalizeRemedy string
	// Spelling, if not nil, names the remedies that the errors and
	// warnings of Run and the methods suggest as a front end's users set
	// them, after the library's: "add self loops (graph.WithSelfLoops;
	// tether: -self-loops)" with tether's command line
	// (dataset.Spelling{Front: "tether", CommandLine: true}),
	// `(Problem.K; job: "k")` with a job's
	// (job.Spelling). If Spelling is nil, the messages name the
	// library's remedies alone: "add self loops (graph.WithSelfLoops)".
	// It changes no computation.
	Spelling Spelling
}

// Repair selects when embeddings are repaired by shift-and-invert (see
// Settings.Repair).
type Repair int

const (
	// RepairAuto repairs when the repair costs at most the work the
	// iterative solve spent, or 10⁹ multiply-adds.
	RepairAuto Repair = iota
	// RepairAlways repairs whenever the factor fits its caps.
	RepairAlways
	// RepairNever keeps the iterative result and its warning.
	RepairNever
)

var repairNames = []string{"auto", "always", "never"}

// String returns "auto", "always" or "never".
func (r Repair) String() string { return enum.String("Repair", repairNames, r) }

// MarshalText returns the name of r.
func (r Repair) MarshalText() ([]byte, error) { return enum.Marshal("Repair", repairNames, r) }

// UnmarshalText sets r from its name (auto, always or never, any case),
// for JSON.
func (r *Repair) UnmarshalText(b []byte) error { return parseEnum(r, "Repair", repairNames, b) }

// DenseLimit is the largest n for which the automatic solver choice uses the
// dense decomposition.
const DenseLimit = 400

// Result is a partition with diagnostics.
type Result struct {
	// Labels[i] is the cluster of node i, in 0…K−1. With partial labels
	// (Problem.Labels), Run numbers the clusters by their classes: cluster
	// c holds as many of the nodes labelled c as any numbering allows (a
	// maximum matching of clusters to classes; the other clusters take
	// the numbers left), whatever the method, so a
	// node's cluster names its predicted class wherever the clusters
	// follow the labels. Otherwise the numbers are arbitrary; compare
	// partitions with package metrics, which match clusters to classes.
	Labels []int
	// K is the number of clusters (estimated when Problem.K was 0).
	K int
	// Eigenvalues are those of the operator whose eigenvectors formed the
	// embedding, ascending unless the method documents otherwise.
	Eigenvalues []float64
	// Embedding holds the rows clustered by k-means (n×m), or nil.
	Embedding *mat.Dense
	// Objective is the method's final objective value, documented in each
	// method's Result paragraph: most often the k-means distortion of the
	// embedding's rows, Σ_i ‖x_i − μ_{c(i)}‖², and otherwise, for example,
	// FGPWC's cost F(X), the k-way normalized cut of HBisection and COSC,
	// or 0 where the partition minimizes none (MAVRO's sign of a vector).
	Objective float64
	// Iterations counts the method's outer iterations, when it has any.
	Iterations int
	// Runtime is the wall-clock time of Run, validation included.
	Runtime time.Duration
	// Warnings and Notes are the non-fatal messages of the run, each list
	// in the order the messages arose. A warning is a condition that may
	// make the result differ from what the caller asked for or would
	// expect: side information ignored, dropped or repaired (constraints
	// a method does not read, labels sampled into pairs, contradictions
	// resolved by a policy), a fallback or an eigensolver that did not
	// converge, nodes attached rather than clustered, a graph whose
	// components or size the method cannot honour, fewer clusters than
	// asked, a collapsed partition. A note is information about a
	// documented choice the method made that the caller may want to know
	// and need not act on: which candidate auto chose and why, the
	// knobs chosen by cross-validation, the k estimated when K was 0, the
	// regularization the caller requested. When in doubt a message is a
	// warning: a caller that reads only Warnings misses no condition
	// that needs attention.
	Warnings []string
	Notes    []string
	// Report, if not nil, is a method's account of the choices it made,
	// encodable as JSON (auto: *AutoReport; fgpwc with AutoTune:
	// *FGPWCReport). Nil for most methods.
	Report any
}

// Method is a clustering algorithm. Implementations are small structs whose
// exported fields are the method's own knobs, with documented zero values.
// Call them through Run, which owns the lifecycle (after gonum's
// optimize.Minimize): it checks the Problem against Uses, applies the
// Settings' defaults, times the run and collects warnings; a method's
// Partition implements only its own mathematics.
type Method interface {
	// Name returns the registry name, for example "njw".
	Name() string
	// Uses declares what the method reads from a Problem.
	Uses() Uses
	// Partition computes the partition of a Problem; a nil Settings means
	// the defaults, as in Run. It checks its arguments as Run does and
	// returns an error wrapping ErrInvalid for each that Run refuses (a
	// nil ctx or Problem, a Problem that does not fit Uses, an index or
	// value out of range, a knob or Settings out of range) and for a
	// problem the method cannot solve, one wrapping ctx.Err() when
	// cancelled, and one wrapping ErrNumerical for a numerical failure.
	// Use Run instead of calling it: Partition does not apply Run's rule
	// for isolated nodes and small components (a node of degree 0 the
	// method cannot take gives an error wrapping graph.ErrIsolated), its
	// answer for k = 1, its numbering of the clusters by the classes of
	// partial labels (Result.Labels), or its warnings about ignored side
	// information, contradictory pairs, empty clusters and collapse.
	Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error)
}

// Uses is what a method declares it reads from a Problem. Run rejects a
// Problem that lacks what the method needs, and warns about side
// information the method does not use.
type Uses struct {
	// Input is what the method clusters; the zero value means GraphInput.
	Input Input
	// Supervision is the side information the method uses (a set of
	// flags): None, Pairs (must-link / cannot-link constraints; partial
	// labels are converted to pairs, see MaxLabelPairs), LabelSet (partial
	// labels), or Pairs|LabelSet.
	Supervision Supervision
	// EstimatesK reports that K = 0 asks the method to estimate k.
	EstimatesK bool
	// FindsK reports that the method finds k itself whatever K is: K is
	// not the number of clusters it returns (opplc ignores it, with a
	// warning; plmeans takes a K > 0 as a cap on the clusters it opens).
	// A front end whose k is the number of clusters asked for (tether
	// cluster's -k) refuses one for such a method. FindsK implies
	// EstimatesK.
	FindsK bool
	// MinK and MaxK bound the k the method accepts besides 1 ≤ k ≤ n; 0
	// means no bound.
	MinK int
	MaxK int
	// Core reports that the method cannot cluster a graph with isolated
	// nodes or small components as it is (its operator divides by degrees,
	// or each component takes a cluster): Run then gives it the core of
	// the graph and attaches the other nodes (core.go; Problem.Disconnected).
	Core bool
	// Resolves reports that pairwise constraints that contradict each
	// other do not reach the method as such: it resolves them itself and
	// says how in a warning (ml-noa-ssc, mcl-noa-ssc unless NoResolve;
	// auto through its candidates), or reads one kind of pair only
	// (opplc: cannot-links). For the other methods that read pairs, Run
	// warns about such constraints (a pair both must-link and
	// cannot-link, or a cannot-link between nodes a chain of must-links
	// joins; constraint.Check); sl and cosc refuse some of them instead
	// (ErrInvalid).
	Resolves bool
	// WeightScale, when not empty, reports that the method reads edge
	// weights on the scale of similarities in [0, 1] (an unweighted edge
	// weighs 1), so that its partition changes when the weights are
	// scaled (W → cW), and says why (what it weighs against them). Run
	// warns when the largest edge weight is above 1 (weightScale). The
	// other graph methods give the same partition at every scale
	// (TestWeightScale), and Run scales the weights of their problems by
	// a power of two when the largest is outside [2⁻⁶⁰, 2⁶⁰], with a
	// note, so that floating point does not fail them (rescaled).
	WeightScale string
	// NeedsPairs reports that a method of pairs (Supervision has Pairs)
	// has no partition without them: its objective is empty or
	// infeasible without constraints (ccsr, csp, fast-ge2, fast-ge2-bh),
	// or the pairs are its whole input (sl, ml-noa-ssc, mcl-noa-ssc). Run
	// refuses a problem without usable pairs for it with an error wrapping
	// ErrNoSupervision; the other methods of pairs run unconstrained, with
	// a warning (Run, noPairs).
	NeedsPairs bool
	// ScaleOnContradiction narrows WeightScale to problems whose pairs
	// contradict each other (constraint.Contradictions): ml- and
	// mcl-noa-ssc use consistent pairs as given, scale-free, and weigh
	// contradictory ones against the graph when they resolve them.
	ScaleOnContradiction bool
	// Delegates reports that the method partitions through Run on other
	// methods (auto, on its candidates): Run leaves its problem's weights
	// as they are (each candidate's Run scales them or not by its own
	// Uses) and does not repeat for it the warnings the chosen
	// candidate's Run gave (empty clusters, collapse, fewer clusters
	// than classes).
	Delegates bool
	// BoundGraph reports that the method holds state computed on
	// Problem.Graph itself (fgpwc with a Basis, which it checks is for
	// that graph): Run passes the graph as it is, never a scaled copy.
	BoundGraph bool
	// Regularizes reports that the method reads Problem.Regularize: its
	// partition is built on a k-way spectral embedding of the normalized
	// Laplacian, which Problem.Regularize regularizes (njw, ncut, cscap,
	// ccsr), or it passes Problem.Regularize on to such an embedding or
	// method (auto to its candidates; ml- and mcl-noa-ssc, when they
	// resolve contradictory pairs, to the resolve's reference partition
	// and the refinement's embedding). The other methods ignore it: their
	// Laplacians are unnormalized, or their objectives are stated on the
	// exact one (the bisections, fgpwc), or they build no such embedding.
	// A front end refuses a regularization set for a method that does not
	// declare it (tether cluster's -regularize), rather than ignore it
	// without a word (TestUsesRegularizes checks the declaration).
	Regularizes bool
	// NoKEigensolve reports that the method computes its partition
	// without an eigensolve of about k vectors of an n-node operator (or
	// of as many as the knob that sizes its embedding, fgpwc's M or
	// sscka's Rank): labelprop propagates classes by conjugate gradients
	// or sweeps, cvqe and plmeans update assignments k-means-like on the
	// feature rows or a kernel, cpca and clpp solve a d×d eigenproblem of
	// the features whatever k. A front end that bounds the time of such
	// an eigensolve by k before it runs (tether serve refuses one whose
	// dense solve or Lanczos restarts would outlast its compute limit)
	// does not apply that bound to these methods; their memory is still
	// counted. Every registered method decides (TestUsesNoKEigensolve).
	NoKEigensolve bool
	// Generalized reports that the method's eigensolve of about k vectors
	// is a generalized problem A x = λ B x (eigen.Problem.B not nil: the
	// pencils of fast-ge, fast-ge2 and fast-ge2-bh, csp's pencil of L̄ and
	// Q̄ − α/vol·I), which with Settings.Eigen nil is solved densely up to
	// DenseLimit nodes and by eigen.LOBPCG above (Lanczos takes no B):
	// LOBPCG holds 16 blocks of n×BlockSize values (BlockSize about 1.5
	// times the pairs not deflated; eigen.LOBPCG.Workspace) and
	// diagonalizes a projected matrix of 3·BlockSize rows each iteration,
	// against Lanczos's basis of about 3k vectors and its 2k rows. A front
	// end that bounds a request's memory and time before it runs (tether
	// serve) counts those for these methods. Every registered method
	// decides (TestUsesGeneralized, which records whether any eigensolve
	// of the method is given a B).
	Generalized bool
}

// ReadsDisconnected reports whether a method declaring u reads
// Problem.Disconnected: Run gives it a core (Core), or it passes the rule
// on to the candidates it runs (Delegates). A front end refuses or notes
// the rule set for another method, as for Regularizes. Cost O(1).
func (u Uses) ReadsDisconnected() bool { return u.Core || u.Delegates }

// Input tells what a method clusters (a set of flags).
type Input uint8

const (
	// GraphInput: Problem.Graph.
	GraphInput Input = 1 << iota
	// FeatureInput: Problem.Features, n×d feature rows.
	FeatureInput
	// BipartiteInput: Problem.Bipartite, a rows×cols matrix.
	BipartiteInput
)

// Supervision tells which side information a method uses (a set of flags).
type Supervision uint8

const (
	// None: unsupervised.
	None Supervision = 0
	// Pairs: pairwise must-link / cannot-link constraints (labels convert
	// to pairs).
	Pairs Supervision = 1
	// LabelSet: partial labels.
	LabelSet Supervision = 2
)

// String returns "none", "pairs", "labels" or, for Pairs|LabelSet,
// "labels|pairs": a method that reads either kind, or both.
func (s Supervision) String() string {
	switch s {
	case None:
		return "none"
	case Pairs:
		return "pairs"
	case LabelSet:
		return "labels"
	case Pairs | LabelSet:
		return "labels|pairs"
	}
	return fmt.Sprintf("Supervision(%d)", uint8(s))
}

// parseEnum sets *v to the value named b among names (internal/enum's
// convention), or returns an error wrapping ErrInvalid naming kind.
func parseEnum[T enum.Integer](v *T, kind string, names []string, b []byte) error {
	p, err := enum.Parse[T](kind, names, string(b))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	*v = p
	return nil
}
