package server

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"maps"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
)

//go:embed static
var static embed.FS

// Config configures a Server. The zero value of each field means the
// default documented on it.
type Config struct {
	// DataRoot is the only folder whose files the API may read (the -data
	// flag); "" means none.
	DataRoot string
	// Initial, if not nil, is loaded into every new session (tether serve
	// -input), with InitialSource describing it for saved sessions.
	Initial       *input.Data
	InitialSource Source
	// Spec builds the graph of feature rows; the zero value means
	// graph.DefaultSpec(), as tether cluster.
	Spec graph.Spec
	// MaxUpload bounds an uploaded file (bytes); 0 means 64 MiB. A loaded
	// session may be as large as a save of such an upload (loadLimit).
	// MaxBody bounds other request bodies; 0 means 1 MiB. The request
	// bodies the server holds at once, being read or read and not yet
	// done with, add up to at most 5 × MaxUpload, or the largest single
	// body when that is more (see Server.bodyBudget); those being read
	// from one client (one IP address; an IPv6 address's /64) add up to
	// at most half of that, or the largest single body when that is more
	// (see Server.clientShare). The replies of 64 KiB or more being
	// written count against both as well (Server.countReply).
	MaxUpload, MaxBody int64
	// MaxNodes bounds the nodes of a session's data; 0 means 200 000.
	// MaxTotalNodes bounds the nodes of all sessions together, counting
	// what else they hold in units of 1 KiB (stateCost: edges, features,
	// text, basis, embedding; the least recently used sessions are
	// dropped beyond it); 0 means 10⁶, at least MaxNodes.
	MaxNodes, MaxTotalNodes int
	// MaxConstraints bounds a session's constraints; 0 means 100 000.
	MaxConstraints int
	// MaxRequestMemory bounds the memory (bytes) one request's
	// clustering may ask for, as the server estimates it before it starts
	// (checkWork): the eigenvectors, from n and the number e of vectors
	// its k and knobs ask for (workBytes: 8·n·(3e + NCV + 113) bytes, NCV the Lanczos
	// basis size (lanczosHeldVectors), or eight
	// n×n matrices when the eigensolvers solve densely, n ≤ 400 or e
	// above about n/6), plus the paths of the methods that grow faster
	// (methodBytes): fast-ge's dense Cholesky pencil on dense graphs of
	// up to 6000 nodes, fast-ge2-bh's dense Schur complement on up to
	// 3000 nodes, ccsr's fit on its K constraints (80·K·m bytes), cpca's
	// and clpp's d×d and n×d matrices for d features, and ml-/mcl-noa-ssc's
	// vote similarity (an n×n table on a complete graph, the two-step
	// one with VoteHops = 2). A request beyond it is refused (400) naming
	// what needs the memory and the largest number of vectors that fits
	// or what to change. Two guards apply while it runs: the eigensolvers
	// refuse a dense solve beyond it (eigen.Settings.MaxDenseBytes, which
	// covers eigen.Dense and the iterative solvers' dense fallback,
	// csp's dense solves of up to 2000 nodes among them, which the
	// estimate does not predict), and a method's memory-limit knob
	// (cscap's MaxBytes) may not exceed it and defaults to it when lower
	// than the method's default.
	//
	// Not counted: gonum's dense eigendecompositions of small matrices,
	// which no guard sees (ccsr's m×m M, m ≤ n; csp's blocks, at most 200
	// components and Σs³ ≤ 2·10⁸; FGPWC's m×m, m ≤ 200); l1csc's dense
	// Cholesky factor on quarter-full graphs of at most 2000 nodes (32
	// MB); the CSCAP reference of ml-/mcl-noa-ssc's resolve (n ≤ 1000,
	// cscap's default MaxBytes); the methods' O(n·e) working blocks
	// beyond the estimate's; and the fits that run in parallel inside one
	// request, auto's candidates and ml-/mcl-noa-ssc's cross-validation
	// folds, on up to GOMAXPROCS goroutines with their own working memory
	// each (the estimate counts one fit: for auto, the largest of the
	// paths above among the candidates it fits, methodBytes).
	//
	// It bounds one request: Workers requests compute at once, so the
	// computations together may use up to Workers × MaxRequestMemory
	// (beyond it by the parallel fits above). The server's memory is then
	// at most about Workers × MaxRequestMemory + the body budget
	// (Server.bodyBudget, 5 × MaxUpload, which the replies of 64 KiB or
	// more being sent share) + what the sessions hold (MaxTotalNodes
	// units of about 1 KiB, stateCost) + the smaller replies being sent,
	// in live memory (Go's heap may grow to about twice its live
	// memory between collections, GOGC = 100). 0 means DefaultMaxRequestMemory(MaxNodes), 1.8 GB for the
	// default MaxNodes: what FGPWC's largest basis (M = 200) on MaxNodes
	// nodes needs.
	MaxRequestMemory int64
	// MaxSessions bounds the live sessions (the least recently used one is
	// dropped beyond it); 0 means 64. IdleTimeout drops sessions unused
	// for that long; 0 means 1 hour.
	MaxSessions int
	IdleTimeout time.Duration
	// Workers bounds the requests computing at once (loading, clustering,
	// suggesting); 0 means GOMAXPROCS.
	Workers int
	// MaxConnections bounds the connections Serve serves at once; a
	// further one closes the connection idle longest (a keep-alive one
	// between requests, or one that has sent nothing for 5 s) to take its
	// place, and waits only while every connection has a request in
	// progress (limitListener), so that one client's idle connections
	// cannot lock the others out. A connection sending a request body
	// counts as busy, so a body must arrive at 64 KiB per 10 s at least
	// (rateBody; it is cut with a 400 otherwise): 260 connections each
	// sending a byte every 2 s held every place for the 2-minute
	// ReadTimeout. 0 means 256. (The memory of the bodies being read is
	// bounded apart: Server.bodyBudget.)
	MaxConnections int
	// AllowOrigins lists further origins, "http://host[:port]" or
	// "https://host[:port]", whose pages may call the API, as a reverse
	// proxy in front of the server needs (the browser then names the
	// proxy's origin while Host is the server's). Each must be a bare
	// origin (no path, query or user), compared without case; see
	// ParseOrigin. The Host check still applies to every request.
	AllowOrigins []string
	// ComputeTimeout bounds the time one request spends, once its body is
	// read, waiting for its session's earlier requests (a session runs its
	// requests that change it or compute one at a time; the read-only GETs
	// never wait for them: readSession), waiting for one of the Workers and computing
	// (loading, clustering, suggesting), in all: one deadline, set when the
	// request's body has been read (for a new session, when it asks to
	// compute), covers the three, so no request takes longer than
	// ComputeTimeout plus the reading of its body. A request still waiting
	// at the deadline never starts; one computing is cancelled and its
	// worker freed (a job that finishes after the deadline, not polling
	// its context, has its result dropped); either is answered 503 naming
	// the phase and the limit. The limit also bounds the work a request
	// may ask for that cannot be stopped: an eigensolve that would be
	// dense (its vectors more than about n/6 of n) and is estimated to
	// take more than a quarter of the limit (denseTooLong) is refused up
	// front (400, checkWork).
	// 0 means DefaultComputeTimeout.
	ComputeTimeout time.Duration
	// FGPWCM is FGPWC's embedding dimension when the M knob is not given.
	// If FGPWCM is 0 it is 2k for the request's k (at most 200, and at
	// most n − 1), or 32 when k is automatic (K = 0); see Server.method,
	// which refuses FGPWC a k above 200, and fgpwcServerM.
	FGPWCM int
	// Regularize is the regularization of the normalized Laplacians of
	// the k-way spectral methods (njw, ncut, cscap, ccsr) in every
	// problem the server solves (cluster.Problem.Regularize, tether serve
	// -regularize) unless a request gives its own
	// (ClusterRequest.Regularize). The zero value is graph.RegAuto, tether
	// cluster's default.
	Regularize graph.Regularization
	// Disconnected says what the methods that cannot cluster isolated
	// nodes or small components (fgpwc, sl, …: cluster.Uses.Core) do with
	// such a graph (cluster.Problem.Disconnected, tether serve
	// -disconnected) unless a request gives its own
	// (ClusterRequest.Disconnected). The zero value is
	// cluster.DisconnectedAttach, tether cluster's default: the core is
	// clustered and the other nodes attached, with a warning; FGPWC then
	// runs through cluster.Run, recomputing its basis on the core, instead
	// of reusing the session's basis of the whole graph.
	Disconnected cluster.Disconnected
	// Log receives panics and errors; nil means the log package's default.
	Log *log.Logger
}

// DefaultComputeTimeout is Config.ComputeTimeout's default: one request's
// waits for its session and a worker and its work together stop after 2
// minutes, well past an interactive re-clustering (milliseconds on 10⁴
// nodes, docs/serve-load.md) and the first embedding of the largest
// session (200 000 nodes).
const DefaultComputeTimeout = 2 * time.Minute

// writeTimeout is the time a reply has to be written, counted from its
// first byte (replyWriter), not from the request's arrival: a reply given
// after a long wait and computation (a larger -compute-timeout) still has
// that long to be written.
const writeTimeout = 10 * time.Minute

// maxWaiting bounds the requests waiting for one session's turn (its
// earlier requests running one at a time); one more is answered 503 at
// once, its body dropped. A session serves one person's page, which sends
// a request per click and re-clusters one at a time: more than a few
// waiting means a client sending faster than the session can serve, and
// each waiting request holds its body (up to Config.MaxUpload) and would
// only wait, up to Config.ComputeTimeout, to find the session changed by
// those before it.
const maxWaiting = 4

// bodyBudgetUploads is the number of uploads of Config.MaxUpload bytes
// the bodies held at once may add up to (Server.bodyBudget): one session's
// holder and its maxWaiting waiting requests.
const bodyBudgetUploads = maxWaiting + 1

// Server is tether serve's HTTP handler with its sessions.
type Server struct {
	cfg      Config
	addr     string // the bound host:port the Host header must name
	sessions *store
	work     chan struct{} // Workers tokens
	mux      *http.ServeMux
	// writeTimeout is the constant writeTimeout (tests shorten it).
	writeTimeout time.Duration
	// bodyStep is the constant bodyStep, the time a request body has for
	// each bodyChunk bytes (rateBody; tests shorten it).
	bodyStep time.Duration
	// createdHook, nil but in tests, is called by handleCreate once the
	// new session's initial data are committed, before it checks that
	// the session was not dropped meanwhile and replies.
	createdHook func(*session)

	// bodyBudget bounds the bytes of the request bodies held at once by
	// requests reading theirs (withSession) or that have read them and
	// not yet left their session: waiting for it, for a worker, or being
	// worked on; bodyHeld counts them. A body is counted before it is
	// read, by its Content-Length, or by its limit (Config.MaxUpload or
	// MaxBody) when it has none (chunked), lowered to its length once
	// read. A request whose body does not fit is answered 503 at once,
	// its body unread. bodyBudget is bodyBudgetUploads ×
	// Config.MaxUpload, 320 MiB by default, or the largest single body
	// when that is more (MaxBody, or a saved session's loadLimit, which a
	// small MaxUpload with the default MaxBody and MaxConstraints makes
	// larger): a single body always fits, and at most five uploads of the
	// largest size are read at once.
	//
	// The other limits do not bound these bodies: a session has at most
	// one request running and maxWaiting waiting (a session's requests
	// end when it is dropped: withSession), but the bodies still being
	// read do not count as waiting, and even 64 sessions × 5 requests ×
	// 64 MiB is 20 GiB. Not counted: a chunked body's ReadAll buffer's slack beyond
	// the body (at most about a quarter more; a body of known length is
	// read into a buffer of its size).
	//
	// The replies of countedReply bytes (64 KiB) or more count against it
	// too while they are written (countReply), a reply larger than it as
	// all of it: a read-only GET's reply (a save, the points, an export)
	// that does not fit is refused with 503; a reply of a request that
	// changed its session is counted but never refused.
	bodyBudget int64
	bodyHeld   atomic.Int64

	// clientShare bounds the bytes of the bodies one client is sending
	// at once, counted as bodyBudget counts them (from before they are
	// read) until they have been read: half of bodyBudget, or the largest
	// single body (loadLimit, MaxBody) when that is more, so that a
	// client sending bodies slowly (up to the 2-minute ReadTimeout) holds
	// at most half of the budget, and the other clients' bodies still fit
	// (five such uploads from one client held all of it). A client is the
	// IP address of the connection's remote end, an IPv6 address by its
	// /64 prefix (clientKey); X-Forwarded-For is not trusted, so behind a
	// reverse proxy every client is the proxy. A request over its
	// client's share is answered 429 at once, its body unread. The rule
	// never refuses a browser's page: it sends one file at a time and its
	// JSON bodies are small (1 MiB at most, read in microseconds on a
	// local link); by default the share, 160 MiB, is two uploads of the
	// largest size (64 MiB) or an upload and the largest loaded session
	// (95.5 MiB) at once, and every page on the machine shares it
	// (127.0.0.1). The replies being written to a client count against
	// its share too, as against bodyBudget (countReply): a read-only
	// GET's reply that does not fit is refused with 429 (20 connections
	// of one client not reading a save of 60 MB each held 1.2 GB; review
	// 116). clientReading counts the bytes by client, under clientMu; a
	// client with none has no entry.
	clientShare   int64
	clientMu      sync.Mutex
	clientReading map[string]int64
	// stopping is set when Serve's ctx ends, before it cancels the
	// requests, so that their replies say why (fail).
	stopping atomic.Bool

	initMu    ctxLock             // held while initBasis is computed
	initBasis *cluster.FGPWCBasis // basis of Config.Initial, shared
}

// New returns a server that will accept requests addressed to addr
// (host:port, as bound: Serve passes the listener's address).
func New(cfg Config, addr string) *Server {
	def := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&cfg.MaxUpload, 64<<20)
	def(&cfg.MaxBody, 1<<20)
	defi := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defi(&cfg.MaxNodes, 200000)
	defi(&cfg.MaxTotalNodes, 1000000)
	cfg.MaxTotalNodes = max(cfg.MaxTotalNodes, cfg.MaxNodes)
	defi(&cfg.MaxConstraints, 100000)
	def(&cfg.MaxRequestMemory, DefaultMaxRequestMemory(cfg.MaxNodes))
	defi(&cfg.MaxSessions, 64)
	defi(&cfg.Workers, runtime.GOMAXPROCS(0))
	defi(&cfg.MaxConnections, 256)
	cfg.FGPWCM = max(cfg.FGPWCM, 0)
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = time.Hour
	}
	if cfg.ComputeTimeout <= 0 {
		cfg.ComputeTimeout = DefaultComputeTimeout
	}
	if cfg.Spec == (graph.Spec{}) {
		cfg.Spec = graph.DefaultSpec()
	}
	s := &Server{cfg: cfg, addr: addr, sessions: newStore(cfg.MaxSessions, cfg.MaxTotalNodes, cfg.IdleTimeout), work: make(chan struct{}, cfg.Workers), writeTimeout: writeTimeout,
		bodyStep: bodyStep, initMu: newCtxLock()}
	s.bodyBudget = max(bodyBudgetUploads*cfg.MaxUpload, cfg.MaxBody, s.loadLimit())
	s.clientShare, s.clientReading = max(s.bodyBudget/2, cfg.MaxBody, s.loadLimit()), map[string]int64{}
	s.routes()
	return s
}

// ServeHTTP serves the page and the API, through the Host/Origin checks,
// the size limits and panic recovery.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.guard(s.mux).ServeHTTP(w, r) }

func (s *Server) routes() {
	mux := http.NewServeMux()
	sub, _ := fs.Sub(static, "static")
	files := http.FileServerFS(sub)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("method %s not allowed on %s", r.Method, r.URL.Path))
			return
		}
		files.ServeHTTP(w, r)
	})
	api := http.NewServeMux() // the API alone, to find a path's methods
	for _, r := range s.apiRoutes() {
		h := s.checkQuery(r, r.handler)
		mux.HandleFunc(r.pattern, h)
		api.HandleFunc(r.pattern, h)
	}
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if allow := allowedMethods(api, r); allow != nil {
			// An endpoint with another method: 405 naming those it
			// takes (this catch-all made it a 404).
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, http.StatusMethodNotAllowed, fmt.Errorf("method %s not allowed on %s: it takes %s (see docs/api.md)", r.Method, r.URL.Path, strings.Join(allow, ", ")))
			return
		}
		writeError(w, http.StatusNotFound, fmt.Errorf("no API endpoint %s %s (see docs/api.md)", r.Method, r.URL.Path))
	})
	s.mux = mux
}

// allowedMethods returns the methods with which api serves r's path, nil
// when none: those for which api.Handler finds a pattern (GET brings
// HEAD). Cost: one match per method.
func allowedMethods(api *http.ServeMux, r *http.Request) []string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := &http.Request{Method: m, URL: r.URL, Host: r.Host}
		if _, pattern := api.Handler(probe); pattern != "" {
			allow = append(allow, m)
		}
	}
	return allow
}

// route is one endpoint of the API: its ServeMux pattern ("METHOD path"),
// handler, and the query parameters it takes (nil: none), any other of
// which is refused (checkQuery). uploadQuery marks an endpoint whose query
// holds the options of an upload, a body that is not JSON: a JSON body
// gives them in the body and takes no query (checkQuery).
type route struct {
	pattern     string
	handler     http.HandlerFunc
	query       []string
	uploadQuery bool
}

// checkQuery returns h refusing (400) a request to the endpoint rt
// whose query does not parse or has a parameter not in rt.query, naming
// it and those the endpoint takes: one misspelt or meant for another
// endpoint (POST …/data?x=1) was ignored without a word. On an endpoint
// whose query holds an upload's options (rt.uploadQuery) it refuses any
// query with a JSON body, which gives them in its "options" (they would
// be ignored). It runs before the handler, so before withSession waits
// for the session's turn: the refusal does not wait behind a long
// request on the session (handleData refused a JSON body with a query
// only once its turn came). The body, if any, is left unread, so the
// connection closes after the refusal (as withSession's refusals do).
// Cost O(query length).
func (s *Server) checkQuery(rt route, h http.HandlerFunc) http.HandlerFunc {
	pattern, known := rt.pattern, rt.query
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery == "" {
			h(w, r)
			return
		}
		takes := "it takes none"
		if len(known) > 0 {
			takes = "the options are " + strings.Join(known, ", ")
		}
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			err = fmt.Errorf("%w: the query of %s does not parse (%s): %w", errBadInput, pattern, takes, err)
		}
		for _, k := range slices.Sorted(maps.Keys(q)) {
			if err == nil && !slices.Contains(known, k) {
				err = fmt.Errorf("%w: unknown query parameter %q (%s) of %s; see docs/api.md", errBadInput, k, takes, pattern)
			}
		}
		if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && rt.uploadQuery && ct == "application/json" {
			err = fmt.Errorf("%w: query parameters (%s) are options of an upload (a body that is not JSON); a JSON body gives them in its \"options\"", errBadInput, strings.Join(slices.Sorted(maps.Keys(q)), ", "))
		}
		if err != nil {
			if r.ContentLength != 0 {
				w.Header().Set("Connection", "close")
			}
			s.fail(w, err)
			return
		}
		h(w, r)
	}
}

// apiRoutes lists the API's endpoints, each documented in docs/api.md
// (TestAPIDocCoversRoutes).
func (s *Server) apiRoutes() []route {
	return []route{
		{pattern: "GET /api/methods", handler: s.handleMethods},
		{pattern: "GET /api/generators", handler: s.handleGenerators},
		{pattern: "POST /api/sessions", handler: s.handleCreate},
		{pattern: "GET /api/sessions/{id}", handler: s.readSession(s.handleInfo, nil)},
		{pattern: "DELETE /api/sessions/{id}", handler: s.handleDelete},
		{pattern: "POST /api/sessions/{id}/data", handler: s.withSession(s.handleData), query: uploadQuery(), uploadQuery: true},
		{pattern: "GET /api/sessions/{id}/points", handler: s.readSession(s.handlePoints, pointsBound)},
		{pattern: "GET /api/sessions/{id}/constraints", handler: s.readSession(s.handleGetConstraints, constraintsBound)},
		{pattern: "PUT /api/sessions/{id}/constraints", handler: s.withSession(s.handlePutConstraints)},
		{pattern: "POST /api/sessions/{id}/constraints", handler: s.withSession(s.handleAddConstraints)},
		{pattern: "DELETE /api/sessions/{id}/constraints", handler: s.withSession(s.handleClearConstraints)},
		{pattern: "DELETE /api/sessions/{id}/constraints/{i}/{j}", handler: s.withSession(s.handleDeleteConstraint)},
		{pattern: "POST /api/sessions/{id}/cluster", handler: s.withSession(s.handleCluster)},
		{pattern: "POST /api/sessions/{id}/suggest", handler: s.withSession(s.handleSuggest)},
		{pattern: "GET /api/sessions/{id}/export/labels", handler: s.readSession(s.handleExportLabels, labelsBound)},
		{pattern: "GET /api/sessions/{id}/export/constraints", handler: s.readSession(s.handleExportConstraints, constraintsCSVBound)},
		{pattern: "GET /api/sessions/{id}/export/summary", handler: s.readSession(s.handleExportSummary, summaryBound)},
		{pattern: "GET /api/sessions/{id}/save", handler: s.readSession(s.handleSave, saveBound)},
		{pattern: "POST /api/sessions/{id}/load", handler: s.withSession(s.handleLoad)},
	}
}

// acquire takes one of the Workers tokens, or fails when ctx ends first.
func (s *Server) acquire(ctx context.Context) (func(), error) {
	select {
	case s.work <- struct{}{}:
		return func() { <-s.work }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// admission is when a request was admitted: its body read, before it
// waits for its session. withSession puts it in the request's context;
// compute counts the request's deadline from it.
type admission struct {
	at          time.Time
	sessionWait time.Duration // how long it waited for its session
}

// admissionKey is the context key of a request's admission.
type admissionKey struct{}

// ctxLock is a mutex whose wait can also end with a context
// (LockContext): a request waiting for its session, or for the -input
// data's basis another request is computing, stops waiting when its
// client leaves, the server stops or its compute deadline passes. Make one
// with newCtxLock.
type ctxLock struct{ ch chan struct{} }

func newCtxLock() ctxLock { return ctxLock{ch: make(chan struct{}, 1)} }

// Lock waits for the lock.
func (l ctxLock) Lock() { l.ch <- struct{}{} }

// LockContext waits for the lock until ctx ends; it fails with ctx's error,
// without the lock, if ctx has ended.
func (l ctxLock) LockContext(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case l.ch <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TryLock takes the lock if it is free, without waiting, and reports
// whether it did.
func (l ctxLock) TryLock() bool {
	select {
	case l.ch <- struct{}{}:
		return true
	default:
		return false
	}
}

// Unlock releases the lock, which must be held.
func (l ctxLock) Unlock() {
	select {
	case <-l.ch:
	default:
		panic("server: unlock of an unlocked ctxLock")
	}
}

// errComputeTimeout marks a request that reached Config.ComputeTimeout
// waiting for its session or a worker, or computing (HTTP 503).
var errComputeTimeout = errors.New("compute time limit")

// errBusy marks a request refused at once because too many wait already
// (HTTP 503).
var errBusy = errors.New("server busy")

// compute runs job holding one of the Workers tokens, under a context that
// ends with ctx (the client left, the server is stopping) or at the
// request's compute deadline, whichever comes first; the library's long
// work returns soon after its context ends, and the token is freed when
// job returns.
//
// The deadline is Config.ComputeTimeout after the request's admission
// (withSession: its body read, before it waited for its session; for a
// request not through withSession, when compute is called), and the wait
// for the session, the wait for a token and the job all run under it: a
// request that waited W in all has the limit − W left to compute, so no
// request spends longer than the limit in the three together. A request
// that reaches the deadline fails with errComputeTimeout, its message
// saying in which phase (waiting for a worker, so the job never started,
// or computing, so the job was stopped; withSession reports the wait for
// the session), how long it waited, the limit and what to do. A job that
// returns after the deadline fails so too, even without an error: its
// result is dropped, and the request's changes are not committed.
func (s *Server) compute(ctx context.Context, job func(context.Context) error) error {
	adm, viaSession := ctx.Value(admissionKey{}).(admission)
	if !viaSession {
		adm = admission{at: time.Now()}
	}
	asked := time.Now()
	dctx, cancel := context.WithDeadlineCause(ctx, adm.at.Add(s.cfg.ComputeTimeout), errComputeTimeout)
	defer cancel()
	// waited says how long the request waited before computing.
	waited := func() string {
		w := fmt.Sprintf("%v for a free worker", time.Since(asked).Round(time.Millisecond))
		if viaSession {
			return fmt.Sprintf("%v for the session's earlier requests and %s", adm.sessionWait.Round(time.Millisecond), w)
		}
		return w
	}
	// The deadline's cause is errComputeTimeout whether it is ctx's (set
	// by withSession) or dctx's own; the client leaving or the server
	// stopping first gives another cause.
	timedOut := func() bool { return errors.Is(context.Cause(dctx), errComputeTimeout) }
	release, err := s.acquire(dctx)
	if err == nil && dctx.Err() != nil {
		// The token and the deadline came together (select chose the
		// token): no time is left to compute.
		release()
		err = dctx.Err()
	}
	if err != nil {
		if timedOut() {
			return fmt.Errorf("%w: this request reached the server's limit of %v while waiting for a free worker (after waiting %s; all %d stayed busy), so it did not start: try again later, or restart tether serve with a larger -compute-timeout", errComputeTimeout, s.cfg.ComputeTimeout, waited(), cap(s.work))
		}
		return err
	}
	defer release()
	before := waited()
	err = job(dctx)
	if timedOut() {
		// Whether the job failed at the deadline or finished after it
		// (work that does not poll its context, such as gonum's dense
		// eigendecompositions, runs on past it): its result is dropped
		// and the request answered as stopped, so that the limit holds
		// for every reply (a 200 came after 228 s under a 10 s limit;
		// review 116).
		return fmt.Errorf("%w: this request reached the server's limit of %v while computing (after waiting %s) and was stopped: ask for less (a smaller data set, k or M, or a faster method), or restart tether serve with a larger -compute-timeout", errComputeTimeout, s.cfg.ComputeTimeout, before)
	}
	return err
}

// transit says what a count of the bytes in transit (holdBody,
// holdClientBody) stands for, for the message of its refusal: a request
// body or a reply, of a known size or of at most size bytes.
type transit struct {
	reply bool  // a reply being sent (countReply), not a request body
	bound bool  // size is an upper bound, not the size itself
	size  int64 // the bytes it has, or at most has
}

// phrase names h in a refusal, the subject of "would pass the limit":
// "this one's 1234", "this reply's 1234", or for a bound "this reply, of
// up to 1234 bytes (a bound counted before the reply is built),". Cost
// one small allocation; called only on refusal.
func (h transit) phrase() string {
	switch {
	case h.reply && h.bound:
		return fmt.Sprintf("this reply, of up to %d bytes (a bound counted before the reply is built),", h.size)
	case h.reply:
		return fmt.Sprintf("this reply's %d", h.size)
	case h.bound:
		return fmt.Sprintf("this one, of unknown length (counted as the most a body may have, %d bytes),", h.size)
	}
	return fmt.Sprintf("this one's %d", h.size)
}

// holdBody counts n bytes, for the body or reply what (countReply),
// against bodyBudget, failing with errBusy, without counting them, if
// they do not fit. The returned bodyHold uncounts them.
func (s *Server) holdBody(n int64, what transit) (*bodyHold, error) {
	for {
		// Compare and swap, so that two bodies that do not fit together
		// are not both refused when one of them fits.
		held := s.bodyHeld.Load()
		if held+n > s.bodyBudget {
			return nil, fmt.Errorf("%w: the server already holds %d bytes of request bodies being read, waiting for their sessions or being worked on, or replies being sent, and %s would pass its limit of %d bytes; try again when they finish",
				errBusy, held, what.phrase(), s.bodyBudget)
		}
		if s.bodyHeld.CompareAndSwap(held, held+n) {
			return &bodyHold{held: &s.bodyHeld, n: n}, nil
		}
	}
}

// bodyHold is the part of Server.bodyHeld one request's body counts for.
// It is used by one goroutine.
type bodyHold struct {
	held *atomic.Int64
	n    int64
}

// shrink lowers the count to n bytes, the body's length once read, when
// that is less than was reserved (the most a body of unknown length may
// have).
func (h *bodyHold) shrink(n int64) {
	if n < h.n {
		h.held.Add(n - h.n)
		h.n = n
	}
}

// release uncounts the body (once, however often it is called).
func (h *bodyHold) release() {
	h.held.Add(-h.n)
	h.n = 0
}

// countedReply is the size from which a reply counts against bodyBudget
// and its client's share (clientShare) while it is written
// (Server.countReply, countedWriter): 64 KiB. The smaller ones, one at a
// time per connection, hold at most 16 MiB at the default 256
// connections.
const countedReply = 64 << 10

// countReply counts a reply of n bytes to the client (clientKey) key,
// when it has countedReply bytes or more, against bodyBudget and the
// client's share, as a request body is counted, and returns the function
// that uncounts it once written: 20 clients not reading a save of 60 MB
// each held 1.2 GB of replies that counted against nothing (review 116).
// A reply larger than the share or the budget counts as all of it, so
// that it is sent once nothing else is in transit with its client (or the
// server). A reply that does not fit is refused, without being counted,
// with errClientBusy (429) for the client's share or errBusy (503) for
// the budget; with force it is counted all the same and never refused
// (the reply of a request that changed its session, which must not be
// lost: withSession). With bound, n is an upper bound on a reply not
// yet built (countedWriter.reserve), and a refusal says so. Cost O(1).
func (s *Server) countReply(key string, n int64, bound, force bool) (release func(), err error) {
	if n < countedReply {
		return func() {}, nil
	}
	if force {
		s.bodyHeld.Add(n)
		s.clientMu.Lock()
		s.clientReading[key] += n
		s.clientMu.Unlock()
		hold, mine := &bodyHold{held: &s.bodyHeld, n: n}, &clientHold{s: s, key: key, n: n}
		return func() { mine.release(); hold.release() }, nil
	}
	what := transit{reply: true, bound: bound, size: n}
	mine, err := s.holdClientBody(key, min(n, s.clientShare), what)
	if err != nil {
		return nil, err
	}
	hold, err := s.holdBody(min(n, s.bodyBudget), what)
	if err != nil {
		mine.release()
		return nil, err
	}
	return func() { mine.release(); hold.release() }, nil
}

// errClientBusy marks a request refused at once because its client is
// already sending its share of the body budget (HTTP 429).
var errClientBusy = errors.New("too many bodies from this client")

// holdClientBody counts n bytes, for the body or reply what
// (countReply), against the share of the client (clientKey) key, failing
// with errClientBusy, without counting them, if they do not fit. The
// returned clientHold uncounts them, once the body has been read or the
// reply written. Cost O(1).
func (s *Server) holdClientBody(key string, n int64, what transit) (*clientHold, error) {
	s.clientMu.Lock()
	defer s.clientMu.Unlock()
	held := s.clientReading[key]
	if held+n > s.clientShare {
		remedy := "send it when those have been read"
		if what.reply {
			remedy = "read those first, then ask again"
		}
		return nil, fmt.Errorf("%w: this client (%s) is already sending or being sent %d bytes of request bodies and replies, and %s would pass the limit of %d bytes per client (half of what the server holds at once, so that one client cannot take it all); %s", errClientBusy, key, held, what.phrase(), s.clientShare, remedy)
	}
	s.clientReading[key] = held + n
	return &clientHold{s: s, key: key, n: n}, nil
}

// clientHold is the part of a client's count (Server.clientReading) one
// body counts for. It is used by one goroutine.
type clientHold struct {
	s   *Server
	key string
	n   int64
}

// release uncounts the body (once, however often it is called; a nil
// clientHold holds nothing).
func (h *clientHold) release() {
	if h == nil || h.n == 0 {
		return
	}
	h.s.clientMu.Lock()
	defer h.s.clientMu.Unlock()
	if left := h.s.clientReading[h.key] - h.n; left > 0 {
		h.s.clientReading[h.key] = left
	} else {
		delete(h.s.clientReading, h.key)
	}
	h.n = 0
}

// clientKey returns the client a request from the remote address remote
// (http.Request.RemoteAddr, host:port) counts as for Server.clientShare:
// its IP address, an IPv4-mapped IPv6 address as IPv4, an IPv6 address by
// its /64 prefix (the block one host or link is given, which an address
// per request would otherwise evade), and remote itself when it is no IP
// address (a test's, a Unix socket's). Cost O(len(remote)).
func clientKey(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return remote
	}
	ip = ip.WithZone("").Unmap()
	if ip.Is6() {
		if p, err := ip.Prefix(64); err == nil {
			return p.String()
		}
	}
	return ip.String()
}

// Serve accepts connections on l until ctx is cancelled, then shuts down:
// it stops accepting, cancels the requests' contexts, waits up to
// shutdownGrace (0.5 s) for their replies and closes the connections left
// open, returning nil. The server must have been made with l's address
// (New(cfg, l.Addr().String())).
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	base, cancel := context.WithCancel(context.Background())
	defer cancel()
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       readTimeout,    // and a body must come at bodyChunk bytes per bodyStep (rateBody)
		WriteTimeout:      s.writeTimeout, // then counted again from the reply's first byte (replyWriter)
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          s.cfg.Log,
	}
	ll := newLimitListener(l, s.cfg.MaxConnections)
	hs.ConnState = ll.ConnState // which connections are idle, for a new one
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ll) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.stopping.Store(true)
	cancel() // running computations stop within a second
	sctx, scancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer scancel()
	if hs.Shutdown(sctx) != nil {
		// The grace ended with connections open: a client that
		// connected and sent nothing yet (net/http counts such a
		// connection idle only after 5 s), one sending its request or
		// body slowly, or a reply still being computed or written.
		// They are closed: stopping is not an error.
		hs.Close()
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// shutdownGrace is the time Serve gives the open connections, once its
// ctx ends and the requests' contexts are cancelled, to finish their
// replies before it closes them: Ctrl-C stops the server within a second
// (it took 5 s with a connection that had sent nothing or half a
// request; review 92).
const shutdownGrace = 500 * time.Millisecond
