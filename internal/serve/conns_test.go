package serve

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/internal/waitfor"
)

// manualClock is the hub's clock (Options.Now) and timers (Options.AfterFunc) in a test:
// time moves, and the timers fire, when the test advances it.
type manualClock struct {
	mu     sync.Mutex
	t      time.Time
	timers []*manualTimerFunc
}

type manualTimerFunc struct {
	c    *manualClock
	at   time.Time
	f    func()
	done bool // fired or stopped
}

func newManualClock() *manualClock {
	return &manualClock{t: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
}

func (c *manualClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *manualClock) afterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &manualTimerFunc{c: c, at: c.t.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *manualTimerFunc) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

// advance moves the clock by d and runs the timers due, the earliest first.
func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	var due, left []*manualTimerFunc
	for _, t := range c.timers {
		switch {
		case t.done:
		case !t.at.After(c.t):
			t.done = true
			due = append(due, t)
		default:
			left = append(left, t)
		}
	}
	c.timers = left
	c.mu.Unlock()
	slices.SortStableFunc(due, func(a, b *manualTimerFunc) int { return a.at.Compare(b.at) })
	for _, t := range due {
		t.f()
	}
}

// withClock runs the hub on c.
func withClock(c *manualClock) hubOption {
	return func(o *Options) { o.Now, o.AfterFunc = c.now, c.afterFunc }
}

// waiting is the number of the hub's connections without a session whose timeout runs.
func (th *testHub) waiting() int {
	th.mu.Lock()
	defer th.mu.Unlock()
	n := 0
	for c := range th.conns {
		if c.sessions == 0 && c.timer != nil {
			n++
		}
	}
	return n
}

// dialFrom connects from the local address from with the member's key.
func (th *testHub) dialFrom(t *testing.T, from, name string) *gossh.Client {
	t.Helper()
	nc := rawDial(t, from, th.addr)
	conn, chans, reqs, err := gossh.NewClientConn(nc, th.addr, &gossh.ClientConfig{User: "agent",
		Auth: []gossh.AuthMethod{gossh.PublicKeys(th.members[name].signer)}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatalf("%s from %s: connect: %v", name, from, err)
	}
	c := gossh.NewClient(conn, chans, reqs)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// rawDial opens a TCP connection from the local address from to addr; nothing is sent.
func rawDial(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("connect from %s: %v", from, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// greeted reports whether the hub took c (it sends its version first) or closed it.
func greeted(t *testing.T, c net.Conn) bool {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	_ = c.SetReadDeadline(time.Time{})
	var ne net.Error
	switch {
	case err == nil:
		if !strings.HasPrefix(line, "SSH-2.0-parley-hub") {
			t.Fatalf("the hub said %q", line)
		}
		return true
	case errors.As(err, &ne) && ne.Timeout():
		t.Fatal("the hub neither greeted nor closed a connection within 20 s")
	}
	return false
}

// closedByHub waits until the hub has closed c (a read ends).
func closedByHub(t *testing.T, c net.Conn, what string) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("%s: still open after 20 s", what)
	}
}

// alive reports whether an SSH connection still answers a request.
func alive(c *gossh.Client) bool {
	_, _, err := c.SendRequest("keepalive@openssh.com", true, nil)
	return err == nil
}

// waitClosed waits until the hub has closed an SSH connection.
func waitClosed(t *testing.T, c *gossh.Client, what string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		_ = c.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: still open after 20 s", what)
	}
}

// A connection that opens no session (ssh -N), with a listed key or without finishing its
// handshake, is closed at the end of the no-session timeout and not before; each is
// logged, the second of an address in the minute in the minute's summary.
func TestAConnectionWithoutASessionIsClosed(t *testing.T) {
	t.Parallel()
	clock := newManualClock()
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}}, withClock(clock))
	idle := th.dial(t, "Vic")
	raw := rawDial(t, "127.0.0.1", th.addr)
	if !greeted(t, raw) {
		t.Fatal("the hub refused a connection")
	}
	waitfor.True(t, "two connections waiting", func() bool { return th.waiting() == 2 })

	clock.advance(DefaultNoSessionTimeout - time.Second)
	if !alive(idle) {
		t.Fatal("a connection without a session was closed before its time")
	}
	clock.advance(time.Second)
	waitClosed(t, idle, "a connection without a session")
	closedByHub(t, raw, "a connection that never finished its handshake")
	waitfor.True(t, "no connection", func() bool { return th.Connections() == 0 })

	clock.advance(time.Minute) // the log's minute ends
	first := th.logged(t, "connection closed", "from", "127.0.0.1", "user", "Vic", "reason", "no session within 30s")
	second := th.logged(t, "connection closed", "from", "127.0.0.1", "reason", "no session within 30s, no key accepted")
	if first+second != 1 {
		t.Errorf("the log does not name one closing in full:\n%s", th.log.String())
	}
	summed := 0
	for _, r := range th.records(t) {
		if r["msg"] == "connections summed up" && r.has("from", "127.0.0.1", "count", "1") &&
			strings.HasPrefix(fmt.Sprint(r["summary"]), "1 closed (no session within 30s") {
			summed++
		}
	}
	if summed != 1 {
		t.Errorf("the log does not sum up the other closing:\n%s", th.log.String())
	}
}

// A connection keeps its place while it has a session, however long; when its last session
// ends, the no-session timeout starts again.
func TestAConnectionWithASessionStays(t *testing.T) {
	t.Parallel()
	clock := newManualClock()
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}}, withClock(clock))
	c := th.dial(t, "Vic")
	term := open(t, c, "Vic", 80, 24)
	term.waitList()
	clock.advance(3 * DefaultNoSessionTimeout)
	if !alive(c) {
		t.Fatal("a connection with a session was closed")
	}
	term.press("2")
	term.waitText("time: created") // the contacts list's header
	term.press("\x03")             // ctrl+c quits from anywhere
	term.ended()
	waitfor.True(t, "the connection without its session", func() bool { return th.waiting() == 1 })
	if !alive(c) {
		t.Fatal("the connection was closed as its session ended")
	}
	clock.advance(DefaultNoSessionTimeout)
	waitClosed(t, c, "a connection whose session ended")
}

// A connection without a session takes a place of --max-sessions: with every place taken a
// session is told so; when the idle connection is closed, the place is free again.
func TestAConnectionWithoutASessionTakesAPlace(t *testing.T) {
	t.Parallel()
	clock := newManualClock()
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}}, withClock(clock), func(o *Options) { o.MaxSessions = 1 })
	idle := th.dial(t, "Vic")
	waitfor.True(t, "the first connection", func() bool { return th.Connections() == 1 })
	clock.advance(10 * time.Second)
	c := th.dial(t, "Vic")
	refused := open(t, c, "Vic refused", 80, 24)
	if code := refused.ended(); code != 1 {
		t.Errorf("a session with every place taken ended with %d, want 1", code)
	}
	if !strings.Contains(refused.text(), "every place of the hub is taken (1: a session or a connection without one takes one)") {
		t.Errorf("the session was told %q", refused.text())
	}
	clock.advance(DefaultNoSessionTimeout - 10*time.Second)
	waitClosed(t, idle, "the connection without a session")
	again := open(t, c, "Vic again", 80, 24)
	again.waitList()
	if th.SessionCount() != 1 {
		t.Errorf("%d sessions, want 1", th.SessionCount())
	}
}

// Handshakes in progress are limited per address (an eighth of --max-handshakes) and for
// all addresses together; a slot is free again when its connection ends.
func TestHandshakesInProgressAreLimited(t *testing.T) {
	t.Parallel()
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}}, func(o *Options) { o.MaxHandshakes = 8 })
	first := rawDial(t, "127.0.0.2", th.addr)
	if !greeted(t, first) {
		t.Fatal("the first handshake was refused")
	}
	if greeted(t, rawDial(t, "127.0.0.2", th.addr)) {
		t.Error("a second handshake from one address went ahead (one address may have one)")
	}
	for _, from := range []string{"127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6", "127.0.0.7", "127.0.0.8", "127.0.0.9"} {
		if !greeted(t, rawDial(t, from, th.addr)) {
			t.Fatalf("the handshake from %s was refused", from)
		}
	}
	if greeted(t, rawDial(t, "127.0.0.10", th.addr)) {
		t.Error("a ninth handshake at once went ahead")
	}
	// A slot is free again when its connection closes, and when its key is accepted.
	_ = first.Close()
	waitfor.True(t, "a free slot", func() bool { return th.Connections() == 7 })
	th.dialFrom(t, "127.0.0.2", "Vic")
	if !greeted(t, rawDial(t, "127.0.0.10", th.addr)) {
		t.Error("a handshake was refused with a slot free")
	}
	if greeted(t, rawDial(t, "127.0.0.11", th.addr)) {
		t.Error("a ninth handshake at once went ahead")
	}
	for _, w := range [][]string{
		{"from", "127.0.0.2", "reason", "it has as many handshakes in progress as one address may (1)"},
		{"from", "127.0.0.10", "reason", "as many handshakes are in progress as the hub takes at once (8)"},
	} {
		if th.logged(t, "connection refused", w...) != 1 {
			t.Errorf("the log does not say %q:\n%s", w, th.log.String())
		}
	}
}

// All addresses together may open --handshake-rate connections a minute.
func TestHandshakeRateOfAllAddresses(t *testing.T) {
	t.Parallel()
	clock := newManualClock()
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}}, withClock(clock), func(o *Options) { o.HandshakeRate = 3 })
	for _, from := range []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"} {
		if !greeted(t, rawDial(t, from, th.addr)) {
			t.Fatalf("the connection from %s was refused", from)
		}
	}
	if greeted(t, rawDial(t, "127.0.0.5", th.addr)) {
		t.Fatal("a fourth connection within the minute went ahead")
	}
	clock.advance(20 * time.Second) // one more a minute's third later
	if !greeted(t, rawDial(t, "127.0.0.5", th.addr)) {
		t.Fatal("a connection was refused after the rate allowed one more")
	}
	if th.logged(t, "connection refused", "from", "127.0.0.5", "reason", "more than 3 a minute from all addresses") != 1 {
		t.Errorf("the log does not refuse 127.0.0.5 for the rate of all addresses:\n%s", th.log.String())
	}
}
