package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/common"
)

// Defaults of the hub's limits.
const (
	DefaultAddr          = "127.0.0.1:2222"
	DefaultMaxSessions   = 50
	DefaultIdleTimeout   = 8 * time.Hour
	DefaultConnPerMinute = 30
	// DefaultNoSessionTimeout is how long a connection may stay without a session.
	DefaultNoSessionTimeout = 30 * time.Second
	// DefaultMaxHandshakes is how many handshakes may be in progress at once.
	DefaultMaxHandshakes = 64
	// DefaultHandshakeRate is how many connections all addresses together may open a minute.
	DefaultHandshakeRate = 300
	// DefaultCacheSize bounds the hub's memory of decoded answers, which every session
	// shares (a TUI's own is client.DefaultCacheMaxBytes): the organization's open
	// conversations with their threads, its searches and lists, for a team.
	DefaultCacheSize = 64 << 20
)

// Look is how a session's TUI draws on its terminal: the colour profile its renderer
// writes with, the styles, whether it asks the terminal for its background and whether
// links are terminal hyperlinks (ui.Options.Hyperlinks).
type Look struct {
	Profile       colorprofile.Profile
	Styles        *theme.Styles
	AskBackground bool
	Hyperlinks    bool
}

// Options configure a hub.
type Options struct {
	// Client is the hub's API client (response memory on, the shared ledger): every
	// session's client is derived from it.
	Client *client.Client
	// Users and Directory are the checked users file and the operators of its
	// organizations (LoadUsers, CheckOperators). Reload reads UsersPath again.
	Users     *Users
	Directory Directory
	// Operators lists an organization's operators for Reload (CheckOperators).
	Operators OperatorsOf
	// UsersCheck is how often the hub looks at the users file for a change, which it then
	// reloads (DefaultUsersCheck; negative: never, SIGHUP only).
	UsersCheck time.Duration

	HostKey gossh.Signer
	// Addr is where the hub listens (DefaultAddr; port 0 picks a free port).
	Addr string
	// MaxSessions is the number of places (DefaultMaxSessions): a session takes one, and so
	// does a connection without a session.
	MaxSessions int
	// IdleTimeout ends a session that had no key for that long (DefaultIdleTimeout).
	IdleTimeout time.Duration
	// NoSessionTimeout closes a connection that has no session for that long, from its start
	// (the handshake included) or from the end of its last session
	// (DefaultNoSessionTimeout; never longer than IdleTimeout).
	NoSessionTimeout time.Duration
	// ConnPerMinute is how many connections one address may open a minute, at once up to
	// as many (DefaultConnPerMinute).
	ConnPerMinute int
	// HandshakeRate is how many connections all addresses together may open a minute, at
	// once up to as many (DefaultHandshakeRate).
	HandshakeRate int
	// MaxHandshakes is how many connections may be in their handshake at once
	// (DefaultMaxHandshakes); one address may have an eighth of them (at least 1).
	MaxHandshakes int
	// Events is the hub client's event hook; the hub fans its events out to the sessions.
	Events *Events
	// Audit records every write (nil: none).
	Audit *Audit
	// Metrics counts what the hub does (nil: nothing); MetricsAddr, when set, is where
	// Listen opens /metrics and /healthz (port 0 picks a free port).
	Metrics     *Metrics
	MetricsAddr string
	// Logger is the hub's log (the hub's stderr): connections refused or closed, sessions
	// started and ended, reloads of the users file, internal errors; one record each. nil
	// logs nothing.
	Logger *slog.Logger

	// What each session's TUI needs.
	// Keys makes a session's key map (the defaults with the config file's overrides).
	Keys func() *keymap.KeyMap
	// Look is the look for a session's environment (TERM, COLORTERM, NO_COLOR, …).
	Look            func(env []string) Look
	Label           string
	Demo            bool
	RefreshInterval time.Duration
	PageSize        int
	// Alerts are the alerts of arrivals every session starts with (each session mutes its
	// own); MarkReadOnOpen marks a conversation read when an agent opens it unread.
	Alerts         ui.Alerts
	MarkReadOnOpen bool
	// Views are the saved views every session offers (the built-in ones included);
	// Orderings the list screens' default orders, by screen.
	Views     []common.SavedView
	Orderings map[string]string
	// ShiftEnd is when the team's working day ends, a time of day on the hub's clock (17h:
	// 17:00; 0: none): while the day's forecast says an organization's budget runs out
	// before it, its polls are stretched and its sessions told (common.Budget.ShiftEnd).
	ShiftEnd time.Duration
	// ReportCrash writes down a panic caught in a session's TUI (its user named).
	ReportCrash func(user string, c *ui.Crash) (summary, path string, err error)

	// Now is the clock (time.Now); After is the shared pollers' timer (time.After) and
	// AfterFunc the connections' timeouts' and the log tally's (time.AfterFunc): tests give
	// their own to decide when a poll runs or a timeout ends.
	Now       func() time.Time
	After     func(time.Duration) <-chan time.Time
	AfterFunc func(time.Duration, func()) Timer
}

// Hub is a running team hub.
type Hub struct {
	opts  Options
	srv   *ssh.Server
	ln    net.Listener
	limit *addrLimiter
	rate  *rate.Limiter // the handshakes of all addresses (h.mu)
	tally *tally
	log   *slog.Logger

	metricsLn  net.Listener
	metricsSrv *http.Server

	reloading sync.Mutex // one reload at a time
	watch     usersWatch

	mu          sync.Mutex
	users       *Users
	dir         Directory
	sessions    map[*session]struct{}
	conns       map[*conn]struct{}
	pending     int            // handshakes in progress
	pendingFrom map[string]int // handshakes in progress by address
	pollers     map[int64]*poller
	polled      map[int64]pollOutcome // the last poll of each organization
	serving     bool                  // Serve has started
	closing     bool
	nextID      int64
	sessionWG   sync.WaitGroup
}

// New makes a hub; Serve runs it.
func New(o Options) (*Hub, error) {
	switch {
	case o.Client == nil:
		return nil, errors.New("serve: no API client")
	case o.Users == nil || len(o.Users.List) == 0:
		return nil, errors.New("serve: no users")
	case o.HostKey == nil:
		return nil, errors.New("serve: no host key")
	case o.Keys == nil || o.Look == nil:
		return nil, errors.New("serve: no key map or look for the sessions")
	}
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.ConnPerMinute <= 0 {
		o.ConnPerMinute = DefaultConnPerMinute
	}
	if o.NoSessionTimeout <= 0 {
		o.NoSessionTimeout = DefaultNoSessionTimeout
	}
	o.NoSessionTimeout = min(o.NoSessionTimeout, o.IdleTimeout)
	if o.HandshakeRate <= 0 {
		o.HandshakeRate = DefaultHandshakeRate
	}
	if o.MaxHandshakes <= 0 {
		o.MaxHandshakes = DefaultMaxHandshakes
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.After == nil {
		o.After = time.After
	}
	if o.AfterFunc == nil {
		o.AfterFunc = afterFunc
	}
	if o.Directory == nil {
		o.Directory = Directory{}
	}
	if o.UsersCheck == 0 {
		o.UsersCheck = DefaultUsersCheck
	}
	h := &Hub{opts: o, users: o.Users, dir: o.Directory, sessions: map[*session]struct{}{}, pollers: map[int64]*poller{},
		polled: map[int64]pollOutcome{}, conns: map[*conn]struct{}{}, pendingFrom: map[string]int{},
		limit: newAddrLimiter(o.ConnPerMinute, o.Now), rate: newRate(o.HandshakeRate), log: o.Logger}
	h.tally = newTally(h.after, h.record)
	srv, err := wish.NewServer(
		ssh.PublicKeyAuth(h.authorize),
		func(s *ssh.Server) error {
			s.AddHostKey(o.HostKey)
			s.Version = "parley-hub"
			// The no-session timeout closes a connection whose handshake has not ended; the
			// server's deadline is a backstop a little later.
			s.HandshakeTimeout = o.NoSessionTimeout + 5*time.Second
			s.ConnCallback = h.admit
			s.ServerConfigCallback = func(ctx ssh.Context) *gossh.ServerConfig {
				return &gossh.ServerConfig{AuthLogCallback: h.authLog(ctx)}
			}
			s.ConnectionFailedCallback = h.failed
			s.SessionRequestCallback = h.sessionRequest
			// Only sessions: port forwarding (direct-tcpip) is an unknown channel type,
			// and no global request (tcpip-forward) has a handler. Agent forwarding and
			// X11 requests of a session are refused (refuseForwarding).
			s.ChannelHandlers = map[string]ssh.ChannelHandler{"session": sessionChannel}
			s.RequestHandlers = map[string]ssh.RequestHandler{}
			s.SubsystemHandlers = map[string]ssh.SubsystemHandler{}
			return nil
		},
		wish.WithMiddleware(h.sessionMiddleware),
	)
	if err != nil {
		return nil, fmt.Errorf("make the SSH server: %w", err)
	}
	h.srv = srv
	if o.Events != nil {
		o.Events.hub.Store(h)
	}
	if o.Metrics != nil {
		o.Metrics.hub.Store(h)
	}
	return h, nil
}

// Listen opens the hub's address, and the metrics address when there is one; Serve then
// takes connections on them.
func (h *Hub) Listen(ctx context.Context) (net.Addr, error) {
	if h.opts.MetricsAddr != "" && h.opts.Metrics == nil {
		return nil, errNoMetrics
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", h.opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", h.opts.Addr, err)
	}
	if h.opts.MetricsAddr != "" {
		mln, err := lc.Listen(ctx, "tcp", h.opts.MetricsAddr)
		if err != nil {
			_ = ln.Close()
			return nil, fmt.Errorf("listen on %s for the metrics: %w", h.opts.MetricsAddr, err)
		}
		h.metricsLn = mln
		h.metricsSrv = &http.Server{Handler: h.opts.Metrics.Handler(), ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute,
			ErrorLog: slog.NewLogLogger(h.log.Handler(), slog.LevelWarn)}
	}
	h.ln = ln
	return ln.Addr(), nil
}

// MetricsAddr is where /metrics and /healthz are served (nil without a metrics address,
// or before Listen).
func (h *Hub) MetricsAddr() net.Addr {
	if h.metricsLn == nil {
		return nil
	}
	return h.metricsLn.Addr()
}

// Serve takes connections until Shutdown; it returns nil after Shutdown.
func (h *Hub) Serve() error {
	if h.ln == nil {
		return errors.New("serve: Listen first")
	}
	h.mu.Lock()
	h.serving = true
	h.mu.Unlock()
	h.watchUsers()
	if h.metricsSrv != nil {
		go func() {
			defer h.recoverIn("the metrics server")
			if err := h.metricsSrv.Serve(h.metricsLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
				h.record(slog.LevelError, "the metrics server stopped", slog.String("error", err.Error()))
			}
		}()
	}
	err := h.srv.Serve(h.ln)
	h.mu.Lock()
	closing := h.closing
	h.mu.Unlock()
	if closing || errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown ends every session, each told "the hub is shutting down" (ShutdownFor).
func (h *Hub) Shutdown(ctx context.Context) error {
	return h.ShutdownFor(ctx, "the hub is shutting down")
}

// ShutdownFor ends every session (each TUI quits and restores its terminal, then the
// session is told why: why), closes the connections without a session, waits for the
// sessions up to ctx, and closes the server.
func (h *Hub) ShutdownFor(ctx context.Context, why string) error {
	h.mu.Lock()
	h.closing = true
	all := make([]*session, 0, len(h.sessions))
	for s := range h.sessions {
		all = append(all, s)
	}
	h.mu.Unlock()
	// The server's Shutdown closes the listener (Serve returns) and then waits for the
	// connections to close: its context is done already, so it does not wait.
	now, cancel := context.WithCancel(ctx)
	cancel()
	_ = h.srv.Shutdown(now)
	// The server closes only the listeners its Serve has taken up: one that Serve has not
	// reached yet (a signal right after start) is closed here, so that Serve, when it
	// runs, returns at once instead of taking connections after Shutdown.
	if h.ln != nil {
		_ = h.ln.Close()
	}
	h.closeConnections(true) // nobody to tell
	for _, s := range all {
		s.end(why)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.sessionWG.Wait()
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("sessions still ending: %w", ctx.Err())
	}
	h.closeConnections(false)
	h.stopWatchingUsers()
	h.tally.stop()
	if h.metricsSrv != nil {
		err = errors.Join(err, h.metricsSrv.Close())
	} else if h.metricsLn != nil {
		err = errors.Join(err, h.metricsLn.Close())
	}
	return errors.Join(err, h.srv.Close())
}

// record writes one record to the hub's log.
func (h *Hub) record(level slog.Level, msg string, attrs ...slog.Attr) {
	h.log.LogAttrs(context.Background(), level, msg, attrs...)
}

// currentUsers is the users file in force.
func (h *Hub) currentUsers() *Users {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.users
}

// knows reports whether operator is one of organization org's, as the API listed them at
// the last load of the users file.
func (h *Hub) knows(org, operator int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dir.Has(org, operator)
}

// authorize accepts a public key of the users file.
func (h *Hub) authorize(ctx ssh.Context, key ssh.PublicKey) bool {
	u, ok := h.currentUsers().ByKey(key)
	if ok {
		h.accepted(ctx, u.Name)
	}
	return ok
}

// failed logs a connection that ended before a session: most often a key that is not in
// the users file.
func (h *Hub) failed(c net.Conn, err error) {
	if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
		return // a port scan, a client that gave up, or closed by the hub (logged then)
	}
	host := hostOf(c.RemoteAddr())
	var auth *gossh.ServerAuthError
	if errors.As(err, &auth) {
		h.tally.note(host, event{kind: "refused (no key of the users file)", msg: "connection refused",
			attrs: []slog.Attr{slog.String("from", c.RemoteAddr().String()), slog.String("reason", "no key of the users file (public keys only)")}})
		return
	}
	h.tally.note(host, event{kind: "failed (in the handshake)", msg: "handshake failed",
		attrs: []slog.Attr{slog.String("from", c.RemoteAddr().String()), slog.String("error", err.Error())}})
}

// sessionRequest accepts a shell and nothing else: a command (exec) and subsystems
// (sftp) are refused.
func (h *Hub) sessionRequest(s ssh.Session, kind string) bool {
	switch kind {
	case "shell":
		return true
	case "exec":
		h.tally.note(hostOf(s.RemoteAddr()), event{kind: "refused (a command)", msg: "request refused",
			attrs: []slog.Attr{slog.String("from", s.RemoteAddr().String()), slog.String("user", h.nameOf(s)), slog.String("request", "exec"),
				slog.String("reason", "the hub runs only parley")}})
		_, _ = io.WriteString(s.Stderr(), "parley hub: commands are not run here; connect without one: ssh -t -p PORT HOST\r\n")
	default:
		h.tally.note(hostOf(s.RemoteAddr()), event{kind: "refused (a " + printable(kind) + " request)", msg: "request refused",
			attrs: []slog.Attr{slog.String("from", s.RemoteAddr().String()), slog.String("user", h.nameOf(s)), slog.String("request", printable(kind)),
				slog.String("reason", "the hub opens sessions with a terminal only")}})
	}
	return false
}

// sessionChannel is the session channel's handler with agent and X11 forwarding refused.
func sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	ssh.DefaultSessionHandler(srv, conn, refuseForwarding{nc}, ctx)
}

// refuseForwarding answers no to a session's agent and X11 forwarding requests before the
// session sees them.
type refuseForwarding struct{ gossh.NewChannel }

func (r refuseForwarding) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := r.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go func() {
		defer close(out)
		defer func() { _ = recover() }() // a reply to a gone client; the channel closes anyway
		for req := range reqs {
			switch req.Type {
			case "auth-agent-req@openssh.com", "x11-req":
				_ = req.Reply(false, nil)
			default:
				out <- req
			}
		}
	}()
	return ch, out, nil
}

// hostOf is the address without its port.
func hostOf(a net.Addr) string {
	if tcp, ok := a.(*net.TCPAddr); ok {
		return tcp.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// addrLimiter limits connections per address (x/time/rate), forgetting addresses that
// have been quiet for a while so that the table stays small.
type addrLimiter struct {
	perMinute int
	now       func() time.Time
	mu        sync.Mutex
	addrs     map[string]*rate.Limiter
}

func newAddrLimiter(perMinute int, now func() time.Time) *addrLimiter {
	return &addrLimiter{perMinute: perMinute, now: now, addrs: map[string]*rate.Limiter{}}
}

func (l *addrLimiter) allow(host string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if len(l.addrs) > 10000 {
		for k, v := range l.addrs {
			if v.TokensAt(now) >= float64(l.perMinute) {
				delete(l.addrs, k) // full again: as good as new
			}
		}
	}
	lim, ok := l.addrs[host]
	if !ok {
		lim = rate.NewLimiter(rate.Limit(float64(l.perMinute)/60), l.perMinute)
		l.addrs[host] = lim
	}
	return lim.AllowN(now, 1)
}

// Sessions is the number of sessions connected for organization org.
func (h *Hub) Sessions(org int64) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for s := range h.sessions {
		if s.user.Org == org {
			n++
		}
	}
	return n
}

// SessionsByRole is the number of sessions connected with each role.
func (h *Hub) SessionsByRole() map[Role]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[Role]int{}
	for s := range h.sessions {
		out[s.user.Role]++
	}
	return out
}

// SessionCount is the number of sessions connected.
func (h *Hub) SessionCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// Reload reads the users file again and checks it against the API. When it is good it
// replaces the old one: sessions of keys no longer in it, or whose entry changed (role,
// operator, organization or name), end with a message; the others go on. When it is not,
// nothing changes, and the error (also in the log) says why. on names what asked for it,
// for the log ("SIGHUP"; the hub's own watch of the file says "a change of the file").
func (h *Hub) Reload(ctx context.Context, on string) error {
	h.reloading.Lock()
	defer h.reloading.Unlock()
	path := h.currentUsers().Path
	h.record(slog.LevelInfo, "reading the users file again", slog.String("path", path), slog.String("on", on))
	if err := h.reload(ctx, path); err != nil {
		h.record(slog.LevelError, "the users file was not reloaded; the one in force stays", slog.String("path", path),
			slog.String("error", err.Error()))
		return err
	}
	return nil
}

// reload is Reload's work.
func (h *Hub) reload(ctx context.Context, path string) error {
	if h.opts.Operators == nil {
		return errors.New("serve: no way to list the operators (Options.Operators)")
	}
	users, err := LoadUsers(path)
	if err != nil {
		return err
	}
	users.SetDefaultOrg(h.opts.Client.OrganizationID())
	dir, err := CheckOperators(ctx, users, h.opts.Operators)
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.users, h.dir = users, dir
	var gone []*session
	for s := range h.sessions {
		now, ok := users.ByKey(s.user.Key)
		switch {
		case !ok:
			s.reason = "your key was removed from the hub's users file"
			gone = append(gone, s)
		case now.Name != s.user.Name || now.Role != s.user.Role || now.Operator != s.user.Operator || now.Org != s.user.Org:
			s.reason = "your entry in the hub's users file changed; connect again"
			gone = append(gone, s)
		}
	}
	h.mu.Unlock()
	for _, s := range gone {
		h.record(slog.LevelInfo, "session ending", slog.String("user", s.user.Name), slog.String("reason", s.reason))
		s.end(s.reason)
	}
	h.record(slog.LevelInfo, "users reloaded", slog.String("path", path), slog.Int("users", len(users.List)))
	return nil
}

// session is one SSH session running the TUI.
type session struct {
	id      int64
	user    User
	ssh     ssh.Session
	conn    *conn // its connection
	hub     *Hub
	program *tea.Program
	app     *ui.App
	events  chan client.Event
	polls   chan Poll // the latest undelivered poll (one at most)
	done    chan struct{}
	idle    *time.Timer
	started time.Time

	endOnce sync.Once
	reason  string // why the hub ended it (guarded by the hub's mutex until end)
	why     string // the reason end was called with

	// outlooks is the latest undelivered outlook of the day's budget (one at most).
	outlooks chan common.Outlook
}

// sessionMiddleware runs a session: it checks the terminal and the limits, runs the TUI,
// then tells the user why the session ended when the hub ended it. It is the last
// handler: next (none) is not called.
func (h *Hub) sessionMiddleware(ssh.Handler) ssh.Handler {
	return func(s ssh.Session) {
		u, ok := h.userOf(s)
		if !ok {
			fatal(s, "your key is not in the hub's users file")
			return
		}
		pty, _, ok := s.Pty()
		if !ok {
			h.tally.note(hostOf(s.RemoteAddr()), event{kind: "refused (a session without a terminal)", msg: "session refused",
				attrs: []slog.Attr{slog.String("user", u.Name), slog.String("from", s.RemoteAddr().String()), slog.String("reason", "no terminal")}})
			fatal(s, "a terminal is needed: connect with ssh -t")
			return
		}
		if pty.Term == "" || pty.Term == "dumb" {
			fatal(s, fmt.Sprintf("a terminal that can draw is needed (TERM is %q)", pty.Term))
			return
		}
		sess, err := h.register(u, s)
		if err != nil {
			h.tally.note(hostOf(s.RemoteAddr()), event{kind: "refused (sessions with every place taken, or the hub stopping)", msg: "session refused",
				attrs: []slog.Attr{slog.String("user", u.Name), slog.String("from", s.RemoteAddr().String()), slog.String("reason", err.Error())}})
			fatal(s, err.Error())
			return
		}
		defer h.unregister(sess)
		h.record(slog.LevelInfo, "session started", append(userAttrs(u), slog.Int64("session", sess.id),
			slog.String("from", s.RemoteAddr().String()), slog.String("term", printable(pty.Term)),
			slog.Int("width", pty.Window.Width), slog.Int("height", pty.Window.Height))...)
		func() {
			defer func() {
				if r := recover(); r != nil {
					h.record(slog.LevelError, "internal error", slog.String("user", u.Name), slog.Int64("session", sess.id),
						slog.String("in", "the session"), slog.String("error", fmt.Sprint(r)))
					h.opts.Metrics.panicked(panicSession)
					_, _ = io.WriteString(s, resetSequence)
					sess.why = "an internal error ended the session"
				}
			}()
			h.runProgram(sess)
		}()
		sess.close()
		msg := sess.endMessage()
		attrs := append(userAttrs(u), slog.Int64("session", sess.id),
			slog.Float64("duration_s", h.opts.Now().Sub(sess.started).Round(time.Second).Seconds()))
		if msg != "" {
			attrs = append(attrs, slog.String("ended_by", "hub"), slog.String("reason", msg))
		} else {
			attrs = append(attrs, slog.String("ended_by", "user"))
		}
		h.record(slog.LevelInfo, "session ended", attrs...)
		if msg != "" {
			fatal(s, msg)
		}
	}
}

// resetSequence undoes what the TUI turned on (as Bubble Tea does when it ends): mouse and
// focus reports, bracketed paste, the hidden cursor and the alternate screen.
const resetSequence = "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l\x1b[?25h\x1b[?1049l"

// printable is text a client sent (its TERM) as the log may show it: every character
// that is not graphic becomes "?".
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsGraphic(r) {
			return r
		}
		return '?'
	}, s)
}

// userAttrs are a user's name, role and identity for a record of the log.
func userAttrs(u User) []slog.Attr {
	attrs := []slog.Attr{slog.String("user", u.Name), slog.String("role", string(u.Role))}
	if u.Operator != 0 {
		attrs = append(attrs, slog.Int64("operator", u.Operator))
	}
	if u.Org != 0 {
		attrs = append(attrs, slog.Int64("org", u.Org))
	}
	return attrs
}

// nameOf is the name of the user of an SSH session's key ("" when none is known).
func (h *Hub) nameOf(s ssh.Session) string {
	u, _ := h.userOf(s)
	return u.Name
}

// fatal writes a line to the session's terminal and ends it with status 1.
func fatal(s ssh.Session, msg string) {
	_, _ = io.WriteString(s.Stderr(), "parley hub: "+msg+"\r\n")
	_ = s.Exit(1)
}

// register adds a session when the hub takes one more, and starts its organization's
// poller.
func (h *Hub) register(u User, s ssh.Session) (*session, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return nil, errors.New("the hub is shutting down")
	}
	c := connOf(s.Context())
	if err := h.addSessionLocked(c); err != nil {
		return nil, err
	}
	h.nextID++
	sess := &session{id: h.nextID, user: u, ssh: s, conn: c, hub: h, events: make(chan client.Event, 64), polls: make(chan Poll, 1),
		done: make(chan struct{}), started: h.opts.Now(), outlooks: make(chan common.Outlook, 1)}
	h.sessions[sess] = struct{}{}
	h.sessionWG.Add(1)
	p := h.pollerLocked(u.Org)
	p.start()
	p.key(h.opts.Now()) // a session connecting is someone at work
	return sess, nil
}

// unregister removes a session; the last of its organization stops the poller.
func (h *Hub) unregister(sess *session) {
	h.mu.Lock()
	delete(h.sessions, sess)
	h.dropSessionLocked(sess.conn)
	left := 0
	for s := range h.sessions {
		if s.user.Org == sess.user.Org {
			left++
		}
	}
	p := h.pollers[sess.user.Org]
	h.mu.Unlock()
	if left == 0 && p != nil {
		p.stop()
	}
	h.sessionWG.Done()
}

// pollerLocked is the poller of organization org, made on first use (h.mu held).
func (h *Hub) pollerLocked(org int64) *poller {
	if p, ok := h.pollers[org]; ok {
		return p
	}
	p := newPoller(org, h.readClient(org), h.budget(), h.opts.After, h.opts.Now, func(r Poll) { h.deliver(r) },
		func(o common.Outlook) { h.tell(org, o) }, h.recoverIn)
	h.pollers[org] = p
	return p
}

// deliver hands a poll to every session of its organization.
func (h *Hub) deliver(r Poll) {
	if !errors.Is(r.Err, context.Canceled) {
		h.opts.Metrics.polled(r.Org, r.Err)
	}
	h.mu.Lock()
	if !errors.Is(r.Err, context.Canceled) {
		h.polled[r.Org] = pollOutcome{at: r.At, err: r.Err}
	}
	var to []*session
	for s := range h.sessions {
		if s.user.Org == r.Org {
			to = append(to, s)
		}
	}
	h.mu.Unlock()
	for _, s := range to {
		s.offer(r)
	}
}

// broadcast hands a client event (a retry, a limit, an outage) to every session.
func (h *Hub) broadcast(e client.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.sessions {
		select {
		case <-s.done:
			continue // its channel is closed (under h.mu)
		default:
		}
		select {
		case s.events <- e:
		default: // never block a request on a busy session
		}
	}
}

// Events fans the hub client's events (client.Config.OnEvent: retries, limits, an
// outage) out to every session of the hub it is given to (Options.Events). The client is
// made before the hub, so the hub plugs in later.
type Events struct{ hub atomic.Pointer[Hub] }

// Send hands e to every session; it never blocks.
func (e *Events) Send(ev client.Event) {
	if h := e.hub.Load(); h != nil {
		h.broadcast(ev)
	}
}

// recoverIn is deferred in the hub's own goroutines: a panic there is logged and the hub
// goes on.
func (h *Hub) recoverIn(where string) {
	if r := recover(); r != nil {
		h.record(slog.LevelError, "internal error", slog.String("in", where), slog.String("error", fmt.Sprint(r)))
		h.opts.Metrics.panicked(panicHub)
	}
}

// offer keeps p as the session's next poll, replacing one not delivered yet.
func (s *session) offer(p Poll) {
	for {
		select {
		case <-s.done:
			return
		case s.polls <- p:
			return
		default:
			select {
			case <-s.polls:
			default:
			}
		}
	}
}

// end asks the session's TUI to quit, for why, and kills it if it has not within a
// second.
func (s *session) end(why string) {
	s.endOnce.Do(func() {
		s.hub.mu.Lock()
		s.why = why
		p := s.program
		s.hub.mu.Unlock()
		if p == nil {
			// Its TUI has not started: it will not (program sees why), and the session
			// is told why as any other.
			return
		}
		go func() {
			defer s.hub.recoverIn("ending a session")
			go p.Quit()
			select {
			case <-s.done:
			case <-time.After(time.Second):
				p.Kill()
			}
		}()
	})
}

// endMessage is what the session's terminal is told after the TUI ended ("" when the user
// quit).
func (s *session) endMessage() string {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	return s.why
}

// close stops what runs for the session.
func (s *session) close() {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	select {
	case <-s.done:
	default:
		close(s.done)
		close(s.events)
	}
	if s.idle != nil {
		s.idle.Stop()
	}
}
