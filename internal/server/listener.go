package server

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// limitListener is a net.Listener that serves at most cap(sem) connections
// at once. When that many are open, Accept takes the new connection and
// closes the one that has been idle longest, a keep-alive connection
// between requests or one that has sent nothing for newIdleAfter (as
// http.Server.Shutdown counts them), to give the new one its place;
// while none is idle (every connection has a request in progress) it
// waits for one to close or go idle, the new connection unserved and the
// further ones in the kernel's queue. The places were taken first come,
// first kept: 256 keep-alive connections of one client, idle after a
// request each, blocked every other client for the server's 2-minute
// IdleTimeout (review 116). golang.org/x/net/netutil.LimitListener
// bounds connections likewise, without the reclaiming; the module does
// not depend on x/net. The http.Server must report its connections'
// states to ConnState.
type limitListener struct {
	net.Listener
	sem       chan struct{}
	done      chan struct{}
	closeOnce sync.Once

	mu    sync.Mutex
	conns map[net.Conn]connState // the open connections not active, by state
	// wake is signalled when a connection goes idle, for an Accept
	// waiting for a place.
	wake chan struct{}
}

// connState is a connection's http.ConnState (StateNew or StateIdle) and
// when it entered it.
type connState struct {
	state http.ConnState
	since time.Time
}

// newIdleAfter is how long a new connection may send nothing (not even
// a whole request header) before limitListener counts it idle, as
// http.Server.Shutdown does.
const newIdleAfter = 5 * time.Second

// newLimitListener returns l serving at most n connections at once.
func newLimitListener(l net.Listener, n int) *limitListener {
	return &limitListener{Listener: l, sem: make(chan struct{}, n), done: make(chan struct{}),
		conns: map[net.Conn]connState{}, wake: make(chan struct{}, 1)}
}

// Accept waits for a connection, then for a free place, closing the
// connection idle longest when there is none (reclaim).
func (l *limitListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	select {
	case l.sem <- struct{}{}:
	default:
		l.reclaim()
	wait:
		for {
			select {
			case l.sem <- struct{}{}:
				break wait
			case <-l.wake:
				l.reclaim()
			case <-time.After(newIdleAfter):
				l.reclaim() // new connections that have since become idle
			case <-l.done:
				c.Close()
				return nil, net.ErrClosed
			}
		}
	}
	lc := &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.sem })}
	if _, ok := c.(closeWriter); ok {
		return limitCloseWriteConn{lc}, nil
	}
	return lc, nil
}

// ConnState records the state of a connection Accept returned, for
// http.Server.ConnState: which are idle, and since when. Cost O(1).
func (l *limitListener) ConnState(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch st {
	case http.StateNew, http.StateIdle:
		l.conns[c] = connState{state: st, since: time.Now()}
		if st == http.StateIdle {
			select {
			case l.wake <- struct{}{}:
			default:
			}
		}
	default: // active, hijacked, closed
		delete(l.conns, c)
	}
}

// reclaim closes the connection idle longest, if any: a keep-alive one
// between requests, or a new one that has sent nothing for newIdleAfter,
// freeing its place. Cost O(open connections).
func (l *limitListener) reclaim() {
	l.mu.Lock()
	var oldest net.Conn
	var since time.Time
	for c, cs := range l.conns {
		idle := cs.state == http.StateIdle || time.Since(cs.since) >= newIdleAfter
		if idle && (oldest == nil || cs.since.Before(since)) {
			oldest, since = c, cs.since
		}
	}
	if oldest != nil {
		delete(l.conns, oldest)
	}
	l.mu.Unlock()
	if oldest != nil {
		oldest.Close()
	}
}

// closeWriter is a connection that can shut down its writing side alone
// (*net.TCPConn, *net.UnixConn).
type closeWriter interface {
	CloseWrite() error
}

// Close closes the listener, ending an Accept waiting for a place.
func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitConn is a connection of a limitListener, which frees its place
// when closed (once, however often Close is called).
type limitConn struct {
	net.Conn
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}

// limitCloseWriteConn is a limitConn whose connection has CloseWrite,
// which it forwards: net/http half-closes a connection it closes after
// an error reply with its request's body unread (the 503 of a full body
// budget, Connection: close), so that the client reads the reply before
// the close; behind a bare limitConn, which hid the method, it reset the
// connection instead, and a client still sending its body could lose the
// reply. Accept returns one for a connection that has the method (TCP)
// and a limitConn otherwise, so that a type assertion on CloseWrite says
// the truth.
type limitCloseWriteConn struct{ *limitConn }

// CloseWrite shuts down the writing side of the connection.
func (c limitCloseWriteConn) CloseWrite() error { return c.Conn.(closeWriter).CloseWrite() }
