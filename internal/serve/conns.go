package serve

import (
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"
)

// How the hub counts connections.
//
// Every connection is one of the hub's from the moment it is accepted until it closes. Until
// its key is accepted it is a handshake in progress: MaxHandshakes of them at once from all
// addresses, an eighth of that from one address, and ConnPerMinute a minute from one address
// and HandshakeRate a minute from all. Once its key is accepted it takes a place: a
// connection holds one place while it has no session, and one per session when it has some;
// MaxSessions places in all. A connection whose key is accepted when every place is taken
// keeps its handshake's slot, not a place, and its first session is told that the hub is
// full. A connection without a session is closed NoSessionTimeout after it was accepted or
// after its last session ended. So at most MaxSessions + MaxHandshakes connections are open
// at once, and none without a session for longer than NoSessionTimeout.

// conn is one connection of the hub: the net.Conn the SSH server reads and writes, which
// tells the hub when it closes.
type conn struct {
	net.Conn
	hub   *Hub
	host  string // the remote address without its port
	since time.Time
	once  sync.Once

	// Guarded by the hub's mutex.
	user     string // the name of the user whose key was accepted, "" before
	pending  bool   // holds a handshake slot
	placed   bool   // holds a place
	sessions int    // sessions registered on it
	timer    Timer  // the no-session timeout, nil while it has a session
	gen      int    // changes when the timer is set or stopped
	closed   bool
}

type connKey struct{}

// connOf is the hub's connection of an SSH context (nil for none).
func connOf(ctx ssh.Context) *conn {
	c, _ := ctx.Value(connKey{}).(*conn)
	return c
}

// Close closes the connection and lets the hub forget it.
func (c *conn) Close() error {
	c.once.Do(c.hub.forget(c))
	return c.Conn.Close()
}

// handshakesPerAddr is how many handshakes one address may have in progress at once.
func (h *Hub) handshakesPerAddr() int { return max(1, h.opts.MaxHandshakes/8) }

// admit takes a new connection unless a limit on handshakes says no (the refusal goes to
// the log's tally).
func (h *Hub) admit(ctx ssh.Context, nc net.Conn) net.Conn {
	host := hostOf(nc.RemoteAddr())
	now := h.opts.Now()
	h.mu.Lock()
	why := ""
	switch {
	case h.closing:
		h.mu.Unlock()
		return nil
	case h.pendingFrom[host] >= h.handshakesPerAddr():
		why = fmt.Sprintf("it has as many handshakes in progress as one address may (%d)", h.handshakesPerAddr())
	case h.pending >= h.opts.MaxHandshakes:
		why = fmt.Sprintf("as many handshakes are in progress as the hub takes at once (%d)", h.opts.MaxHandshakes)
	case !h.limit.allow(host):
		why = fmt.Sprintf("more than %d a minute", h.opts.ConnPerMinute)
	case !h.rate.AllowN(now, 1):
		why = fmt.Sprintf("more than %d a minute from all addresses", h.opts.HandshakeRate)
	}
	if why != "" {
		h.mu.Unlock()
		h.tally.note(host, event{kind: "refused (" + why + ")", msg: "connection refused",
			attrs: []slog.Attr{slog.String("from", host), slog.String("reason", why)}})
		return nil
	}
	c := &conn{Conn: nc, hub: h, host: host, since: now, pending: true}
	h.pending++
	h.pendingFrom[host]++
	h.conns[c] = struct{}{}
	h.armLocked(c)
	h.mu.Unlock()
	ctx.SetValue(connKey{}, c)
	return c
}

// authLog is the SSH server's record of each authentication attempt: the one that
// succeeds ends the connection's handshake, and it takes a place when one is free.
func (h *Hub) authLog(ctx ssh.Context) func(gossh.ConnMetadata, string, error) {
	return func(_ gossh.ConnMetadata, _ string, err error) {
		c := connOf(ctx)
		if err != nil || c == nil {
			return
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if !c.closed {
			h.placeLocked(c)
		}
	}
}

// placesLocked is how many places the connections hold (h.mu held).
func (h *Hub) placesLocked() int {
	n := 0
	for c := range h.conns {
		if c.placed {
			n += max(1, c.sessions)
		}
	}
	return n
}

// placeLocked gives c a place when one is free, ending its handshake's slot; it reports
// whether c has a place (h.mu held).
func (h *Hub) placeLocked(c *conn) bool {
	if c.placed {
		return true
	}
	if h.placesLocked() >= h.opts.MaxSessions {
		return false
	}
	c.placed = true
	h.releaseLocked(c)
	return true
}

// releaseLocked gives back c's handshake slot (h.mu held).
func (h *Hub) releaseLocked(c *conn) {
	if !c.pending {
		return
	}
	c.pending = false
	h.pending--
	if h.pendingFrom[c.host]--; h.pendingFrom[c.host] <= 0 {
		delete(h.pendingFrom, c.host)
	}
}

// addSessionLocked counts a new session on c, or says why it cannot have one: every place
// is taken (h.mu held).
func (h *Hub) addSessionLocked(c *conn) error {
	if c == nil {
		return fmt.Errorf("the hub does not know this connection")
	}
	full := fmt.Errorf("every place of the hub is taken (%d: a session or a connection without one takes one); try again later",
		h.opts.MaxSessions)
	switch {
	case c.closed:
		return fmt.Errorf("the connection is closing")
	case !h.placeLocked(c):
		return full
	case c.sessions > 0 && h.placesLocked() >= h.opts.MaxSessions:
		return full
	}
	c.sessions++
	h.disarmLocked(c)
	return nil
}

// dropSessionLocked counts a session of c gone; the last one sets the no-session timeout
// again (h.mu held).
func (h *Hub) dropSessionLocked(c *conn) {
	if c == nil {
		return
	}
	if c.sessions--; c.sessions == 0 && !c.closed {
		h.armLocked(c)
	}
}

// armLocked sets c's no-session timeout (h.mu held).
func (h *Hub) armLocked(c *conn) {
	h.disarmLocked(c)
	gen := c.gen
	c.timer = h.after(h.opts.NoSessionTimeout, func() { h.expire(c, gen) })
}

// disarmLocked stops c's no-session timeout (h.mu held).
func (h *Hub) disarmLocked(c *conn) {
	c.gen++
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
}

// expire closes c when it still has no session at the end of its no-session timeout gen.
func (h *Hub) expire(c *conn, gen int) {
	h.mu.Lock()
	if c.gen != gen || c.closed || c.sessions > 0 {
		h.mu.Unlock()
		return
	}
	user := c.user
	h.mu.Unlock()
	why := fmt.Sprintf("no session within %s", h.opts.NoSessionTimeout)
	if user == "" {
		h.tally.note(c.host, event{kind: "closed (" + why + ", no key accepted)", msg: "connection closed",
			attrs: []slog.Attr{slog.String("from", c.host), slog.String("reason", why+", no key accepted")}})
	} else {
		h.tally.note(c.host, event{kind: "closed (" + why + ")", msg: "connection closed",
			attrs: []slog.Attr{slog.String("from", c.host), slog.String("user", user), slog.String("reason", why)}})
	}
	_ = c.Close()
}

// forget is what c's Close does first: the hub lets go of it.
func (h *Hub) forget(c *conn) func() {
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		c.closed = true
		h.disarmLocked(c)
		h.releaseLocked(c)
		delete(h.conns, c)
	}
}

// accepted notes the user whose key c's handshake accepted, for the log.
func (h *Hub) accepted(ctx ssh.Context, name string) {
	c := connOf(ctx)
	if c == nil {
		return
	}
	h.mu.Lock()
	c.user = name
	h.mu.Unlock()
}

// after runs f after d on the hub's clock, recovering a panic in f.
func (h *Hub) after(d time.Duration, f func()) Timer {
	return h.opts.AfterFunc(d, func() {
		defer h.recoverIn("a timer")
		f()
	})
}

// Connections is the number of connections open: handshakes in progress, connections
// without a session and connections with sessions.
func (h *Hub) Connections() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

// closeConnections closes every connection the hub has; without sessions only when
// idleOnly.
func (h *Hub) closeConnections(idleOnly bool) {
	h.mu.Lock()
	var all []*conn
	for c := range h.conns {
		if !idleOnly || c.sessions == 0 {
			all = append(all, c)
		}
	}
	h.mu.Unlock()
	for _, c := range all {
		_ = c.Close()
	}
}

// newRate is a limiter of perMinute events a minute, at once up to as many.
func newRate(perMinute int) *rate.Limiter {
	return rate.NewLimiter(rate.Limit(float64(perMinute)/60), perMinute)
}
