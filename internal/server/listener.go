package server

import (
	"net"
	"sync"
)

// limitListener is a net.Listener that serves at most cap(sem) connections
// at once: Accept waits, once that many are open, for one of them to
// close (or the listener to close), and the further connections wait in
// the kernel's queue. golang.org/x/net/netutil.LimitListener does the
// same; the module does not depend on x/net, and this is all of it that
// is needed.
type limitListener struct {
	net.Listener
	sem       chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// newLimitListener returns l serving at most n connections at once.
func newLimitListener(l net.Listener, n int) *limitListener {
	return &limitListener{Listener: l, sem: make(chan struct{}, n), done: make(chan struct{})}
}

// Accept waits for a free place, then for a connection.
func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	lc := &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.sem })}
	if _, ok := c.(closeWriter); ok {
		return limitCloseWriteConn{lc}, nil
	}
	return lc, nil
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
