package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/input"
)

// session is one person's work: the data, the constraints, the last
// partition and the FGPWC state that makes re-clustering fast. Sessions
// share nothing. The requests that change a session or compute run one at
// a time under its lock mu (withSession); the read-only ones read a
// snapshot of its state (readSession), without waiting for them. Its size
// is bounded by Config.MaxNodes and Config.MaxConstraints, and what it
// holds (stateCost) by Config.MaxTotalNodes.
type session struct {
	id string

	mu ctxLock
	// waiting counts the requests waiting for mu (withSession), at most
	// maxWaiting.
	waiting atomic.Int32
	// lastUsed is when the session's last request started or ended,
	// whichever is later (store.get, store.acquire, store.release),
	// guarded by the store's lock.
	lastUsed time.Time
	nodes    int // nodes of its data, guarded by the store's lock
	// inFlight counts its requests in flight, from before they wait for
	// mu until they end (store.acquire, store.release), guarded by the
	// store's lock. A session with one is never idle (evictLocked), and
	// the cap on sessions and the node budget evict one only when every
	// candidate has one (store.create, store.charge).
	inFlight int

	// done ends when the session is dropped (deleted, evicted for the
	// cap on sessions or the node budget, or idle), its cause an
	// errSessionGone saying why (store.dropLocked): withSession runs its
	// requests under a context that ends with it, so that a request
	// waiting for the session stops waiting and one computing is stopped,
	// its worker freed, both answered 404 (sessionGoneReply). end ends
	// it.
	done context.Context
	end  context.CancelCauseFunc

	// stateMu guards sessionState between the holder of mu, the only one
	// that changes it, and the read-only requests, which never take mu:
	// the holder writes it under stateMu's write lock (Server.commit),
	// held only for that assignment, never while computing, and reads it
	// without stateMu (no one else writes); the others copy it under the
	// read lock (snapshot).
	stateMu sync.RWMutex
	// sessionState is changed only by the holder of mu, under stateMu. A
	// request that changes it works on a copy and puts the copy back
	// (Server.commit) only when everything it had to do succeeded: a
	// request that fails (bad input, past the compute time limit, its
	// client gone, the server stopping) leaves the session as it was.
	sessionState
}

// sessionView is a snapshot of a session's state, for the read-only
// requests (readSession): the values of a sessionState are replaced,
// never changed in place, so a shallow copy stays as it was while the
// session goes on.
type sessionView struct {
	id string
	sessionState
}

// snapshot returns the session's state as the last commit left it,
// waiting only for a commit in progress (an assignment), never for a
// request computing. Cost O(1).
func (ss *session) snapshot() *sessionView {
	ss.stateMu.RLock()
	defer ss.stateMu.RUnlock()
	return &sessionView{id: ss.id, sessionState: ss.sessionState}
}

// sessionState is what a session holds between requests. Its values are
// replaced, never changed in place (the pairs slice is copied on write,
// a *cluster.FGPWCState changes only by a successful FGPWCState.Cluster),
// so a shallow copy is a snapshot.
type sessionState struct {
	data   *input.Data
	source Source
	cost   int       // what it counts against the node budget (stateCost)
	view   []float64 // x₀, y₀, x₁, y₁, … (2n values)
	what   string    // what the view shows
	pairs  []constraint.Pair

	state    *cluster.FGPWCState // nil until FGPWC runs
	stateKey string              // the knobs state was made with
	basisKey string              // the embedding knobs of state's basis
	last     *ClusterReply
	lastEmb  *mat.Dense // embedding of the last partition, for suggestions
	// lastSigmaML is the σ_m of the FGPWC run that made lastEmb (the
	// similarity strategy's width, fgpwcSigmaML: the knob's, or the one
	// AutoTune chose), 0 when another method made it.
	lastSigmaML float64
	lastReq     ClusterRequest
}

// store holds the sessions, evicting those idle for longer than idle (no
// request in flight, and none ended for that long) and, when their data
// exceed maxNodes nodes in all, the least recently used ones, those
// without a request in flight first; when max sessions exist, a new one
// evicts one without data (refused while those are loading) before one
// holding data (evictForCap). It
// remembers why the last maxDropped sessions it dropped went, for the
// reply to a request that names one (dropped).
type store struct {
	mu       sync.Mutex
	m        map[string]*session
	max      int
	maxNodes int
	idle     time.Duration
	now      func() time.Time

	whyDropped  map[string]string // why a recently dropped session went, by id
	droppedList []string          // their ids, oldest first
}

// maxDropped is the number of dropped sessions a store remembers.
const maxDropped = 1024

func newStore(max, maxNodes int, idle time.Duration) *store {
	return &store{m: map[string]*session{}, max: max, maxNodes: maxNodes, idle: idle, now: time.Now, whyDropped: map[string]string{}}
}

// errSessionGone marks a request whose session was dropped while it waited
// for its turn or computed (HTTP 404, like a request naming a session
// that no longer exists).
var errSessionGone = errors.New("session gone")

// dropLocked removes the session id, remembering why ("it was deleted"),
// and ends its done context with an errSessionGone saying why, which stops
// the requests waiting for it or computing on it (withSession). st.mu is
// held.
func (st *store) dropLocked(id, why string) {
	if s, ok := st.m[id]; ok {
		s.end(fmt.Errorf("%w: no session %q: it was dropped %s while this request waited for its turn or computed, which stopped; create a new one", errSessionGone, id, why))
	}
	delete(st.m, id)
	if _, known := st.whyDropped[id]; !known {
		if len(st.droppedList) == maxDropped {
			delete(st.whyDropped, st.droppedList[0])
			st.droppedList = st.droppedList[1:]
		}
		st.droppedList = append(st.droppedList, id)
	}
	st.whyDropped[id] = why
}

// dropped returns why the session id was dropped, if it is one of the
// last maxDropped sessions the store dropped.
func (st *store) dropped(id string) (string, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	why, ok := st.whyDropped[id]
	return why, ok
}

// nodeBytes is roughly the memory of one node of a session (its view,
// labels and bookkeeping): the unit in which cost counts what else a
// session holds against the node budget.
const nodeBytes = 1 << 10

// entryBytes is the memory of one stored entry of a graph (a column index
// and a weight; every edge between distinct nodes is stored twice).
const entryBytes = 12

// edgeReadBytes is what one edge of an edge list or Matrix Market file
// costs while it is read: the reader's 24-byte entry, and the two stored
// entries it becomes (dataset.GraphOptions.MaxEntries).
const edgeReadBytes = 24 + 2*entryBytes

// cost is what a session holding n nodes, the given number of float64
// values (its features, FGPWC's basis, the last embedding), entries
// stored entries of its graph and the text of an upload counts against
// the node budget (Config.MaxTotalNodes): its nodes, plus the values (8
// bytes each), the entries (entryBytes each) and the text, in units of
// nodeBytes.
func cost(n, values, entries, text int) int {
	extra := (int64(values)*8 + int64(entries)*entryBytes + int64(text) + nodeBytes - 1) / nodeBytes
	return n + int(min(extra, 1<<40))
}

// stateCost returns what st counts against the node budget (cost): the
// nodes, features, graph entries and upload text of its data, FGPWC's
// basis when the session holds one and the last partition's embedding.
// The server's initial data and their basis are shared by the sessions:
// only their nodes count, and a basis of the session's own. Cost O(1).
func (s *Server) stateCost(st *sessionState) int {
	d := st.data
	if d == nil {
		return 0
	}
	n := d.Graph.N()
	values, entries, text := 0, 0, 0
	if d != s.cfg.Initial {
		_, dim := dims(d)
		values, entries, text = n*dim, d.Graph.NNZ(), len(st.source.Upload)
	}
	if st.state != nil {
		if b := st.state.Basis(); b != s.initBasis {
			r, c := b.Vectors().Dims()
			values += r * c
		}
	}
	if st.lastEmb != nil {
		r, c := st.lastEmb.Dims()
		values += r * c
	}
	return cost(n, values, entries, text)
}

// charge records that s now holds n nodes (see cost) and evicts the least
// recently used other sessions until all hold at most maxNodes nodes:
// those without a request in flight (inFlight) first, so that a session
// computing is not dropped for one merely left open; one with a request in
// flight only when every other holding data has one. Cost O(sessions) per
// eviction.
// cost counts the memory a session holds (its nodes, features, graph,
// text, basis and embedding; review 92 found the graph's edges, any
// number per node in an uploaded graph, not counted), so this bounds the
// memory the sessions hold; a request's own work is bounded apart
// (Config.MaxRequestMemory).
func (st *store) charge(s *session, n int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s.nodes = n
	for {
		total := 0
		var oldest *session
		for _, x := range st.m {
			total += x.nodes
			if x != s && x.nodes > 0 && (oldest == nil || lessRecent(x, oldest)) {
				oldest = x
			}
		}
		if total <= st.maxNodes || oldest == nil {
			return
		}
		st.dropLocked(oldest.id, fmt.Sprintf("to keep the data of all sessions within this server's budget of %d nodes in all, as the least recently used one holding data", st.maxNodes))
	}
}

// lessRecent reports whether x goes before y when the least recently used
// session is evicted: one without a request in flight (inFlight) before
// one with, then the one used less recently (lastUsed). st.mu is held.
func lessRecent(x, y *session) bool {
	if (x.inFlight == 0) != (y.inFlight == 0) {
		return x.inFlight == 0
	}
	return x.lastUsed.Before(y.lastUsed)
}

// create adds a new empty session, first evicting the idle ones
// (evictLocked) and, when max sessions remain, making room (evictForCap):
// the least recently used session without data and without a request in
// flight; when there is none but some session without data has a request
// in flight (one being created and loading its initial data, or loading
// an upload), it creates nothing and fails with errBusy (503, "retry");
// only when every session holds data, the least recently used without a
// request in flight, else the least recently used. So creating sessions
// never drops an idle session holding data while one without data
// exists, nor a session loading its data. Cost O(sessions).
func (st *store) create() (*session, error) { return st.createWith(0) }

// createAcquired is create with the creating request in flight on the
// new session (acquire) until release: handleCreate, which loads the
// initial data (-input) into it, so that the session is not evicted by a
// session created while it loads (evictForCap refuses that creation
// instead), nor idle-evicted. Cost O(sessions).
func (st *store) createAcquired() (*session, error) { return st.createWith(1) }

// createWith is create with inFlight requests in flight on the new
// session. Cost O(sessions).
func (st *store) createWith(inFlight int) (*session, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("session id: %w", err)
	}
	s := &session{id: hex.EncodeToString(b[:]), mu: newCtxLock()}
	s.done, s.end = context.WithCancelCause(context.Background())
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.now()
	st.evictLocked(now)
	if len(st.m) >= st.max {
		if err := st.evictForCap(); err != nil {
			return nil, err
		}
	}
	s.lastUsed = now
	s.inFlight = inFlight
	st.m[s.id] = s
	return s, nil
}

// evictForCap makes room for a new session at the cap on sessions, or
// fails with errBusy: it drops the least recently used session without
// data and without a request in flight, if any; else, when a session
// without data has a request in flight (its data loading: a creation's
// initial data, an upload), it drops none and fails; else (every session
// holds data) it drops the least recently used one, one without a
// request in flight first (lessRecent). Before, a session
// without a request in flight went before one with whether or not it held
// data, so a burst of creations waiting for busy workers, each session
// in flight and empty, dropped every idle session holding a user's data
// one by one, against the rule that creating sessions cannot drop
// another's work (review 92); and a loading session, once without a
// request in flight counted, went first as the least recently used one
// without data, its creation's 201 naming nothing. st.mu is held. Cost
// O(sessions).
func (st *store) evictForCap() error {
	var empty, oldest *session
	loading := 0
	for _, x := range st.m {
		switch {
		case x.nodes == 0 && x.inFlight > 0:
			loading++
		case x.nodes == 0:
			if empty == nil || x.lastUsed.Before(empty.lastUsed) {
				empty = x
			}
		}
		if oldest == nil || lessRecent(x, oldest) {
			oldest = x
		}
	}
	why := fmt.Sprintf("when a new session passed this server's cap of %d sessions, as the least recently used one", st.max)
	switch {
	case empty != nil:
		st.dropLocked(empty.id, why+" without data")
	case loading > 0:
		return fmt.Errorf("%w: this server holds its cap of %d sessions, %d of them loading their data; the others hold data, which a new session does not evict while one is loading; retry when they have loaded", errBusy, st.max, loading)
	case oldest.inFlight > 0:
		st.dropLocked(oldest.id, why+" (every session held data and had a request in flight)")
	default:
		st.dropLocked(oldest.id, why+" (every session held data)")
	}
	return nil
}

// get returns the session and marks it used.
func (st *store) get(id string) (*session, bool) { return st.use(id, false) }

// acquire returns the session, marks it used and counts a request in
// flight on it (inFlight) until release: the requests that wait for its
// lock and run under it (withSession). Cost O(sessions) (evictLocked).
func (st *store) acquire(id string) (*session, bool) { return st.use(id, true) }

// use is get, and acquire when inFlight: it evicts the idle sessions,
// then looks id up, marks it used and, when inFlight, counts a request in
// flight on it. Cost O(sessions) (evictLocked).
func (st *store) use(id string, inFlight bool) (*session, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.now()
	st.evictLocked(now)
	s, ok := st.m[id]
	if ok {
		s.lastUsed = now
		if inFlight {
			s.inFlight++
		}
	}
	return s, ok
}

// release ends a request in flight on s (acquire) and marks s used now,
// so that its idle time counts from the end of its last request. Cost O(1).
func (st *store) release(s *session) {
	st.mu.Lock()
	defer st.mu.Unlock()
	s.inFlight--
	if now := st.now(); now.After(s.lastUsed) {
		s.lastUsed = now
	}
}

func (st *store) delete(id string) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	_, ok := st.m[id]
	if ok {
		st.dropLocked(id, "by a request to delete it")
	}
	return ok
}

// discard removes the session id, whose creation failed, without
// remembering it as dropped (and forgets a reason recorded while it was
// being created, an eviction): its id was never given to anyone, since
// the failed creation's reply is an error without it, so no request can
// name it, and remembering it as "deleted" would be false and would push
// the reasons of real sessions out of the last maxDropped.
func (st *store) discard(id string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s, ok := st.m[id]; ok {
		s.end(fmt.Errorf("%w: the session's creation failed", errSessionGone))
	}
	delete(st.m, id)
	if _, known := st.whyDropped[id]; known {
		delete(st.whyDropped, id)
		st.droppedList = slices.DeleteFunc(st.droppedList, func(d string) bool { return d == id })
	}
}

func (st *store) len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.m)
}

// evictLocked drops the sessions idle since before now − idle: without a
// request in flight (inFlight), their last request started or ended
// (lastUsed) before then. A session whose request waits or computes for
// longer than idle (a compute limit above it) is never idle. Cost
// O(sessions).
func (st *store) evictLocked(now time.Time) {
	for id, s := range st.m {
		if s.inFlight == 0 && now.Sub(s.lastUsed) > st.idle {
			st.dropLocked(id, fmt.Sprintf("after %v without use (sessions idle for %v are dropped)", now.Sub(s.lastUsed).Round(time.Second), st.idle))
		}
	}
}
