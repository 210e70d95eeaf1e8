package server

import (
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"
)

// has reports whether the store holds the session id, without marking it
// used or evicting anything.
func (st *store) has(id string) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	_, ok := st.m[id]
	return ok
}

// TestBusySessionNotIdle: a session with a request in flight (acquire, not
// yet released) is never idle-evicted, however long the request lasts; once
// it ends (release) the idle time counts from its end, not its start.
func TestBusySessionNotIdle(t *testing.T) {
	const idle = time.Hour
	cases := []struct {
		name    string
		release time.Duration // when the request ends, after it started; <0: still in flight
		check   time.Duration // when eviction runs, after the request started
		kept    bool
	}{
		{"in flight past the idle time", -1, 2 * time.Hour, true},
		{"in flight far past it", -1, 30 * time.Hour, true},
		{"ended, idle time from its end not passed", 90 * time.Minute, 90*time.Minute + 59*time.Minute, true},
		{"ended, idle time from its end passed", 90 * time.Minute, 90*time.Minute + idle + time.Second, false},
		{"ended at once, idle time passed", 0, idle + time.Second, false},
		{"ended at once, idle time not passed", 0, idle - time.Second, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := newStore(8, 1000, idle)
			t0 := time.Unix(1000, 0)
			now := t0
			st.now = func() time.Time { return now }
			s, _ := st.create()
			if _, ok := st.acquire(s.id); !ok {
				t.Fatal("acquire: session missing")
			}
			if c.release >= 0 {
				// Eviction runs at the request's end too, before it
				// is released: the session is kept then.
				now = t0.Add(c.release)
				st.evictNow()
				st.release(s)
			}
			now = t0.Add(c.check)
			st.evictNow()
			if got := st.has(s.id); got != c.kept {
				t.Errorf("kept = %v at %v after the request started (ended at %v), want %v", got, c.check, c.release, c.kept)
			}
		})
	}
}

// evictNow runs the idle eviction as a request would (store.get of
// another id).
func (st *store) evictNow() { st.get("none") }

// TestBusySessionLRU: the node budget (charge) and the cap on sessions
// (create) evict a session with no request in flight before one with,
// even one used more recently; only when every candidate has one do they
// fall back to the least recently used, and the budget and cap still hold.
// At the cap a session without data goes first, an idle one; when the
// only ones without data are busy (loading), the creation is refused
// (errBusy) and nothing is evicted: a session holding data went before an
// empty busy one, so creations waiting for workers dropped users' work.
func TestBusySessionLRU(t *testing.T) {
	cases := []struct {
		name      string
		cap       bool // the cap on sessions (create), else the node budget (charge)
		busyA     bool // a, the least recently used, has a request in flight
		busyB     bool
		dataA     int // nodes of a and b (cap: 0 or some)
		dataB     int
		wantGoneA bool
		wantGoneB bool
	}{
		{"budget: busy a kept, idle b goes", false, true, false, 400, 400, false, true},
		{"budget: neither busy, LRU a goes", false, false, false, 400, 400, true, false},
		{"budget: both busy, LRU a goes", false, true, true, 400, 400, true, false},
		{"budget: b busy, a goes", false, false, true, 400, 400, true, false},
		{"cap: busy a kept, idle b goes", true, true, false, 0, 0, false, true},
		{"cap: neither busy, LRU a goes", true, false, false, 0, 0, true, false},
		{"cap: both busy without data, creation refused", true, true, true, 0, 0, false, false},
		{"cap: busy a without data kept, idle b with data kept, creation refused", true, true, false, 0, 400, false, false},
		{"cap: neither busy, a without data goes first", true, false, false, 0, 400, true, false},
		{"cap: idle a with data kept, idle b without data goes", true, false, false, 400, 0, false, true},
		{"cap: both hold data, busy a kept, idle b goes", true, true, false, 400, 400, false, true},
		{"cap: both hold data and are busy, LRU a goes", true, true, true, 400, 400, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			max := 8
			if c.cap {
				max = 2
			}
			st := newStore(max, 1000, time.Hour)
			now := time.Unix(1000, 0)
			st.now = func() time.Time { return now }
			step := func() { now = now.Add(time.Second) }
			a, _ := st.create()
			st.charge(a, c.dataA)
			step()
			if c.busyA {
				st.acquire(a.id) // its request starts, and runs on
			} else {
				st.get(a.id)
			}
			step()
			b, _ := st.create()
			st.charge(b, c.dataB)
			step()
			if c.busyB {
				st.acquire(b.id)
			} else {
				st.get(b.id)
			}
			step()
			x, err := st.create()
			// Refused (errBusy) exactly when the cap is reached, no
			// session without data is idle and one is busy.
			refused := c.cap && !(c.dataA == 0 && !c.busyA) && !(c.dataB == 0 && !c.busyB) && (c.dataA == 0 || c.dataB == 0)
			if refused != (err != nil) || err != nil && !errors.Is(err, errBusy) {
				t.Fatalf("create: error %v, want refused (errBusy) %v", err, refused)
			}
			if !c.cap {
				st.charge(x, 400)
			}
			if got := !st.has(a.id); got != c.wantGoneA {
				t.Errorf("a gone = %v, want %v", got, c.wantGoneA)
			}
			if got := !st.has(b.id); got != c.wantGoneB {
				t.Errorf("b gone = %v, want %v", got, c.wantGoneB)
			}
			if !refused && !st.has(x.id) {
				t.Errorf("the new session is missing")
			}
			if n := st.len(); n > max {
				t.Errorf("%d sessions, cap %d", n, max)
			}
			st.mu.Lock()
			total := 0
			for _, s := range st.m {
				total += s.nodes
			}
			st.mu.Unlock()
			if total > st.maxNodes {
				t.Errorf("%d nodes held, budget %d", total, st.maxNodes)
			}
		})
	}
}

// TestBusySessionServed: through withSession, a session whose request
// runs, and another waits for it, for past the idle time is kept; once
// both ended it goes an idle time after their end.
func TestBusySessionServed(t *testing.T) {
	s := newTest(t, Config{Workers: 1})
	release := make(chan struct{})
	entered := make(chan struct{}, 2)
	s.mux.HandleFunc("POST /api/sessions/{id}/test-hold", s.withSession(func(w http.ResponseWriter, r *http.Request, ss *session) {
		entered <- struct{}{}
		<-release
		w.WriteHeader(http.StatusNoContent)
	}))
	var mu sync.Mutex
	offset := time.Duration(0)
	s.sessions.mu.Lock()
	s.sessions.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return time.Now().Add(offset) }
	s.sessions.mu.Unlock()
	at := func(d time.Duration) { mu.Lock(); offset = d; mu.Unlock(); s.sessions.get("another") }
	id := newSession(t, s, 50)
	ss, _ := s.sessions.get(id)
	base := "/api/sessions/" + id
	running := callAsync(t, s, "POST", base+"/test-hold", "application/json", []byte(`{}`))
	<-entered
	queued := callAsync(t, s, "POST", base+"/test-hold", "application/json", []byte(`{}`))
	waitFor(t, "a request waiting for the session", func() bool { return ss.waiting.Load() == 1 })
	at(2 * time.Hour)
	if !s.sessions.has(id) {
		t.Fatalf("session with a request running and one waiting dropped as idle after 2 h")
	}
	close(release)
	for _, r := range []<-chan callReply{running, queued} {
		if got := <-r; got.code != http.StatusNoContent {
			t.Errorf("request: status %d, %s; want 204", got.code, got.body)
		}
	}
	at(2*time.Hour + 59*time.Minute)
	if !s.sessions.has(id) {
		t.Errorf("session dropped 59 min after its last request ended (idle time 1 h)")
	}
	at(3*time.Hour + time.Minute)
	if s.sessions.has(id) {
		t.Errorf("session kept 61 min after its last request ended (idle time 1 h)")
	}
}
