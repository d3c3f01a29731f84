package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/netaddr"
	"github.com/parley-tui/parley/internal/serve"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/ui"
)

// serveFlags are the flags of `parley serve`; each may also be set in the config file's
// serve: section (the flag wins).
type serveFlags struct {
	addr        string
	users       string
	hostKey     string
	auditLog    string
	maxSessions int
	idleTimeout time.Duration
	connRate    int
	// The limits of connections without a session.
	noSessionTimeout time.Duration
	maxHandshakes    int
	handshakeRate    int
	logFormat        string
	metricsAddr      string
	// The shared memory's bound ("64MiB") and the team's shift end ("17:00").
	cacheSize, shiftEnd string
}

const serveLong = `Run the team hub: an SSH server that opens parley for every agent who connects with a key
of the users file. The hub holds the API token (agents never see it), polls once for the
whole team, keeps one response memory and one request ledger for everybody, and sends every
change as the agent's own operator. Reads are shared; writes pass the user's role first
and each one is a line of the audit log.

Three steps:

  1. The host key is made on the first start (mode 0600) and reused after.
  2. Write the users file (default <config dir>/parley/users.yaml), one entry per person:

       - name: Clara
         key: ssh-ed25519 AAAA… clara@laptop   # her public key (~/.ssh/id_ed25519.pub)
         operator: 7                            # the operator her changes go out as
         role: agent                            # viewer, agent or supervisor
         org: 2                                 # optional: another organization

  3. parley serve     (then agents connect: ssh -p 2222 HOST)

Roles: a viewer only reads (the hub refuses every write before it is sent); an agent
writes as their own operator only and sets only their own away status; a supervisor may act
as any operator of their organization.

On start the users file is checked (each entry's key, role and operator, the operators
against the API's list of each organization) and nothing starts while an entry is wrong.
The hub reads it again when it changes (it looks every 2 s; parley serve users add and
remove change it) or on SIGHUP, without dropping sessions: a session whose key was removed
(or whose entry changed) ends with a message. SIGINT and SIGTERM end every session, each
terminal restored.

It prints one line for eval, PARLEY_SSH_ADDR=host:port, when it listens, and keeps its
stdout open while it runs: read that first line (as the example with "read" does) rather
than wait for the output to end, as "$(parley serve &)" would. Its log goes to
stderr, one record per event (--log-format text or json): each session started and ended
(user, role, duration), connections refused or closed (the first of an address in a
minute, then one record that sums up the rest of the minute), reloads and errors; never
the token.

With --metrics-addr (off by default) it also serves Prometheus metrics at /metrics and its
health at /healthz (200 while it serves and the API answered the last poll, else 503 with
the reason) and prints PARLEY_METRICS_ADDR=host:port after the SSH line. Neither asks for
credentials: keep it on 127.0.0.1 unless a scraper elsewhere needs it, and then write the
address to listen on (0.0.0.0:9470); an address without a host is refused.

It uses the same API settings as parley (flags, environment, keyring, config file), and
the embedded sandbox when nothing is configured.`

// defaultServeFlags are the flags' defaults.
func defaultServeFlags() serveFlags {
	return serveFlags{addr: serve.DefaultAddr, maxSessions: serve.DefaultMaxSessions, idleTimeout: serve.DefaultIdleTimeout,
		connRate: serve.DefaultConnPerMinute, noSessionTimeout: serve.DefaultNoSessionTimeout, maxHandshakes: serve.DefaultMaxHandshakes,
		handshakeRate: serve.DefaultHandshakeRate, logFormat: config.LogFormats[0],
		cacheSize: fmt.Sprintf("%dMiB", serve.DefaultCacheSize>>20)}
}

func newServeCmd(g *globalFlags) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the team hub: parley over SSH for every agent, one poller and one budget",
		Long:  serveLong,
		Example: `  parley serve --users team.yaml                     # agents: ssh -p 2222 this-host
  parley serve --addr 0.0.0.0:2222 --audit-log /var/log/parley-audit.jsonl
  exec 3< <(parley serve --addr 127.0.0.1:0); read -r l <&3; eval "$l"; ssh -p "${PARLEY_SSH_ADDR##*:}" 127.0.0.1
  parley serve --metrics-addr 127.0.0.1:9470 --log-format json  # curl -s 127.0.0.1:9470/healthz`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), g, f, cmd.Flags().Changed, os.Getenv, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	addServeFlags(cmd.Flags(), &f)
	cmd.AddCommand(newServeUsersCmd(g))
	noFiles(cmd, "addr", "max-sessions", "idle-timeout", "conn-rate", "no-session-timeout", "max-handshakes", "handshake-rate",
		"cache-size", "shift-end")
	completeValues(cmd, "log-format", config.LogFormats...)
	noFiles(cmd, "metrics-addr")
	return cmd
}

// addServeFlags defines the flags of `parley serve` on fl, stored in f.
func addServeFlags(fl *pflag.FlagSet, f *serveFlags) {
	d := defaultServeFlags()
	fl.StringVar(&f.addr, "addr", d.addr, "address to listen on (port 0 picks a free port)")
	fl.StringVar(&f.users, "users", "", "the users file (default <config dir>/parley/users.yaml)")
	fl.StringVar(&f.hostKey, "host-key", "", "the host key, made on first start (default <data dir>/parley/hub_host_ed25519_key)")
	fl.StringVar(&f.auditLog, "audit-log", "", "append one JSON line per write to this file (default <state dir>/parley/audit.jsonl)")
	fl.IntVar(&f.maxSessions, "max-sessions", d.maxSessions, "places: a session takes one, and so does a connection without a session")
	fl.DurationVar(&f.idleTimeout, "idle-timeout", d.idleTimeout, "end a session after this long without a key")
	fl.IntVar(&f.connRate, "conn-rate", d.connRate, "connections one address may open per minute")
	fl.DurationVar(&f.noSessionTimeout, "no-session-timeout", d.noSessionTimeout,
		"close a connection that has no session for this long (from its start or its last session's end)")
	fl.IntVar(&f.maxHandshakes, "max-handshakes", d.maxHandshakes,
		"connections in their handshake at once (one address may have an eighth of them)")
	fl.IntVar(&f.handshakeRate, "handshake-rate", d.handshakeRate, "connections all addresses together may open per minute")
	fl.StringVar(&f.logFormat, "log-format", d.logFormat, "the log on stderr: text (key=value) or json (one object a line)")
	fl.StringVar(&f.metricsAddr, "metrics-addr", "", "serve /metrics and /healthz at this host:port (off when not given; 127.0.0.1:9470 for this machine only)")
	fl.StringVar(&f.cacheSize, "cache-size", d.cacheSize, "the memory of decoded answers every session shares, in KiB, MiB or GiB")
	fl.StringVar(&f.shiftEnd, "shift-end", "",
		"when the team's day ends (HH:MM; \"\" none): while the day's forecast says the budget runs out before it, the shared polls slow down")
}

// serveSettings are the hub's settings: flags, else the config file's serve: section,
// else the defaults.
type serveSettings struct {
	addr, users, hostKey, auditLog string
	maxSessions, connRate          int
	idleTimeout                    time.Duration
	noSessionTimeout               time.Duration
	maxHandshakes, handshakeRate   int
	logFormat, metricsAddr         string
	cacheSize                      int64         // bytes
	shiftEnd                       time.Duration // since midnight; 0: none
}

// resolveServe merges the flags that were given (changed) over the config file's section
// and the defaults; env looks up the directories of the default paths.
func resolveServe(f serveFlags, changed func(string) bool, s Settings, env func(string) string) (serveSettings, error) {
	c := s.Serve
	home := env("HOME")
	out := serveSettings{addr: f.addr, maxSessions: f.maxSessions, idleTimeout: f.idleTimeout, connRate: f.connRate,
		noSessionTimeout: f.noSessionTimeout, maxHandshakes: f.maxHandshakes, handshakeRate: f.handshakeRate, logFormat: f.logFormat,
		metricsAddr: f.metricsAddr}
	fromFile(&out.addr, c.Addr, "addr", changed)
	fromFile(&out.maxSessions, c.MaxSessions, "max-sessions", changed)
	fromFile(&out.idleTimeout, c.IdleTimeout, "idle-timeout", changed)
	fromFile(&out.connRate, c.ConnRate, "conn-rate", changed)
	fromFile(&out.noSessionTimeout, c.NoSessionTimeout, "no-session-timeout", changed)
	fromFile(&out.maxHandshakes, c.MaxHandshakes, "max-handshakes", changed)
	fromFile(&out.handshakeRate, c.HandshakeRate, "handshake-rate", changed)
	fromFile(&out.logFormat, c.LogFormat, "log-format", changed)
	fromFile(&out.metricsAddr, c.MetricsAddr, "metrics-addr", changed)
	pickPath := func(flag, name string, file string, def func() (string, error)) (string, error) {
		return settingPath(flag, name, file, s.ConfigPath, home, def)
	}
	var err error
	if out.users, err = usersPath(f.users, s, env); err != nil {
		return out, err
	}
	if out.hostKey, err = pickPath(f.hostKey, "host-key", c.HostKey, func() (string, error) {
		d, err := dataDir(env)
		return filepath.Join(d, "hub_host_ed25519_key"), err
	}); err != nil {
		return out, err
	}
	if out.auditLog, err = pickPath(f.auditLog, "audit-log", c.AuditLog, func() (string, error) {
		d, err := stateDir(env)
		return filepath.Join(d, "audit.jsonl"), err
	}); err != nil {
		return out, err
	}
	// Flags are checked here (the config file's values were checked when it was read).
	if err := config.CheckListenAddr(out.addr); err != nil {
		return out, fmt.Errorf("--addr: %w", err)
	}
	if out.logFormat, err = config.ParseLogFormat(out.logFormat); err != nil {
		return out, fmt.Errorf("--log-format: %w", err)
	}
	if out.metricsAddr != "" {
		if err := config.CheckMetricsAddr(out.metricsAddr); err != nil {
			return out, fmt.Errorf("--metrics-addr: %w", err)
		}
	}
	out.cacheSize, out.shiftEnd = c.CacheSize, c.ShiftEnd
	if out.cacheSize == 0 {
		out.cacheSize = serve.DefaultCacheSize
	}
	if changed("cache-size") {
		if out.cacheSize, err = config.ParseCacheSize(f.cacheSize); err != nil {
			return out, fmt.Errorf("--cache-size: %w", err)
		}
	}
	if changed("shift-end") {
		out.shiftEnd = 0 // --shift-end "": none, whatever the file says
		if f.shiftEnd != "" {
			if out.shiftEnd, err = config.ParseShiftEnd(f.shiftEnd); err != nil {
				return out, fmt.Errorf("--shift-end: %w", err)
			}
		}
	}
	for _, err := range []error{
		flagInRange("max-sessions", out.maxSessions, 1, config.MaxServeSessions),
		flagInRange("conn-rate", out.connRate, 1, config.MaxServeConnRate),
		flagInRange("idle-timeout", out.idleTimeout, config.MinIdleTimeout, config.MaxIdleTimeout),
		flagInRange("no-session-timeout", out.noSessionTimeout, config.MinNoSessionTimeout, config.MaxNoSessionTimeout),
		flagInRange("max-handshakes", out.maxHandshakes, 1, config.MaxServeHandshakes),
		flagInRange("handshake-rate", out.handshakeRate, 1, config.MaxServeConnRate),
	} {
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// settingPath is a file the flag --name names, else the config file's setting file (a
// path relative to the config file at configPath, or to home with "~/"), else def's.
func settingPath(flag, name, file, configPath, home string, def func() (string, error)) (string, error) {
	switch {
	case flag != "":
		return flag, nil
	case file != "":
		return config.Resolve(file, configPath, home), nil
	}
	p, err := def()
	if err != nil {
		return "", fmt.Errorf("--%s not given and %w", name, err)
	}
	return p, nil
}

// usersPath is the hub's users file: --users (flag), else the config file's serve: users,
// else <config dir>/parley/users.yaml.
func usersPath(flag string, s Settings, env func(string) string) (string, error) {
	return settingPath(flag, "users", s.Serve.Users, s.ConfigPath, env("HOME"), func() (string, error) {
		d, err := config.Dir(env)
		return filepath.Join(d, "users.yaml"), err
	})
}

// fromFile puts the config file's value in *v when the flag was not given and the file
// sets one (a zero value is not set).
func fromFile[T comparable](v *T, file T, flag string, changed func(string) bool) {
	var zero T
	if !changed(flag) && file != zero {
		*v = file
	}
}

// flagInRange checks a flag's value: lo to hi.
func flagInRange[T int | time.Duration](flag string, v, lo, hi T) error {
	if v < lo || v > hi {
		return fmt.Errorf("--%s: %v is out of range (%v to %v)", flag, v, lo, hi)
	}
	return nil
}

// dataDir is parley's data directory: $XDG_DATA_HOME/parley, else ~/.local/share/parley
// (~/Library/Application Support/parley on macOS, %LocalAppData%\parley on Windows).
func dataDir(env func(string) string) (string, error) {
	if x := env("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "parley"), nil
	}
	return platformDir(env, filepath.Join(".local", "share"))
}

// stateDir is parley's state directory: $XDG_STATE_HOME/parley, else
// ~/.local/state/parley (as the request ledger's).
func stateDir(env func(string) string) (string, error) {
	if x := env("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "parley"), nil
	}
	return platformDir(env, filepath.Join(".local", "state"))
}

func platformDir(env func(string) string, unixRel string) (string, error) {
	switch runtime.GOOS {
	case "windows":
		if a := env("LocalAppData"); a != "" {
			return filepath.Join(a, "parley"), nil
		}
		return "", errors.New("%LocalAppData% is not set")
	case "darwin":
		if h := env("HOME"); h != "" {
			return filepath.Join(h, "Library", "Application Support", "parley"), nil
		}
	default:
		if h := env("HOME"); h != "" {
			return filepath.Join(h, unixRel, "parley"), nil
		}
	}
	return "", errors.New("HOME is not set")
}

// usersHelp is added to the error of a users file that does not exist.
const usersHelp = `write it first: one entry per person who may connect, e.g.

  - name: Clara
    key: ssh-ed25519 AAAA… clara@laptop   # the line of her ~/.ssh/id_ed25519.pub
    operator: 7                            # the operator id her changes go out as
    role: agent                            # viewer, agent or supervisor

(parley serve --help says more)`

func runServe(ctx context.Context, g *globalFlags, f serveFlags, changed func(string) bool, env func(string) string,
	stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	s, err := resolveSettings(ctx, g, env)
	if err != nil {
		return err
	}
	ss, err := resolveServe(f, changed, s, env)
	if err != nil {
		return err
	}
	log, mask := newServeLogger(stderr, ss.logFormat)
	ctx, hups, stopped, stopWatch := watchServeSignals(ctx)
	defer stopWatch()
	err = startHub(ctx, g, s, ss, hups, stopped, stdout, stderr, hubLog{log, mask})
	if ctx.Err() != nil {
		why := stopped()
		if err != nil && why != "" {
			log.Info("stopped before it started", "signal", why)
			return nil
		}
	}
	return err
}

// hubLog is the hub's log and the secrets it masks.
type hubLog struct {
	*slog.Logger
	mask *logMask
}

// watchServeSignals makes the hub's signals its own: SIGINT and SIGTERM cancel the
// returned context (stopped names the signal), SIGHUP asks for a reload of the users file
// (one waiting at most). stop ends the watch.
func watchServeSignals(parent context.Context) (ctx context.Context, hups <-chan struct{}, stopped func() string, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	hup := make(chan struct{}, 1)
	var mu sync.Mutex
	name := ""
	proc := processFrom(parent)
	go func() {
		if proc != nil {
			defer proc.Recover("the signal handler")
		}
		for sig := range sigs {
			if sig == syscall.SIGHUP {
				select {
				case hup <- struct{}{}:
				default:
				}
				continue
			}
			mu.Lock()
			if name == "" {
				name = signalName(sig)
			}
			mu.Unlock()
			cancel()
		}
	}()
	stopped = func() string {
		mu.Lock()
		defer mu.Unlock()
		if name == "" && parent.Err() != nil {
			return "SIGTERM" // main's own context ends on SIGTERM
		}
		return name
	}
	return ctx, hup, stopped, func() {
		signal.Stop(sigs)
		close(sigs)
		cancel()
	}
}

// startHub starts the hub of settings s and ss and serves until ctx ends (SIGINT, SIGTERM:
// stopped names the signal) or the server fails; a value on hups reloads the users file.
// What happens is told on log; an error that keeps the hub from starting is returned.
func startHub(ctx context.Context, g *globalFlags, s Settings, ss serveSettings, hups <-chan struct{}, stopped func() string,
	stdout, stderr io.Writer, log hubLog) error {
	if err := keymap.Default().Apply(s.Keys); err != nil {
		return keyError(err, s)
	}
	mode, err := theme.ParseMode(string(s.Theme))
	if err != nil {
		return err
	}
	users, err := serve.LoadUsers(ss.users)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("no users file at %s; %s", ss.users, usersHelp)
	}
	if err != nil {
		return err
	}
	signer, created, err := serve.HostKey(ss.hostKey)
	if err != nil {
		return err
	}
	log.Info("host key", "path", ss.hostKey, "fingerprint", serve.Fingerprint(signer), "made", created)

	dl, err := openDebugLog(g.debug)
	if err != nil {
		return err
	}
	defer func() { _ = dl.close() }()
	events := &serve.Events{}
	var metrics *serve.Metrics
	if ss.metricsAddr != "" {
		metrics = serve.NewMetrics()
	}
	s.CacheSize = ss.cacheSize // the hub's memory is the team's: larger than a TUI's
	sess, err := sessionFor(ctx, s, stderr, dl, events.Send, metrics.Request, responseCacheTTL)
	if err != nil {
		return err
	}
	defer sess.Close()
	proc := processFrom(ctx)
	if proc != nil {
		proc.log.addSecret(sess.token)
	}
	log.mask.add(sess.token)
	hubClient := sess.Client
	log.Info("checking the users file against the API", "path", ss.users, "users", len(users.List))
	dir, err := hubDirectory(ctx, users, hubClient)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(ss.auditLog), 0o700); err != nil {
		return fmt.Errorf("create the audit log's directory: %w", err)
	}
	audit, err := serve.OpenAudit(ss.auditLog, sess.token, func(err error) {
		log.Error("the audit log could not be written", "path", ss.auditLog, "error", err)
	})
	if err != nil {
		return err
	}
	defer func() { _ = audit.Close() }()

	hub, err := serve.New(serve.Options{
		Client: hubClient, Users: users, Directory: dir, Operators: operatorLister(hubClient),
		HostKey: signer, Addr: ss.addr, MaxSessions: ss.maxSessions, IdleTimeout: ss.idleTimeout, ConnPerMinute: ss.connRate,
		NoSessionTimeout: ss.noSessionTimeout, MaxHandshakes: ss.maxHandshakes, HandshakeRate: ss.handshakeRate,
		Events: events, Audit: audit, Logger: log.Logger, Metrics: metrics, MetricsAddr: ss.metricsAddr,
		Keys: func() *keymap.KeyMap {
			k := keymap.Default()
			_ = k.Apply(s.Keys) // checked above
			return k
		},
		Look:  sessionLook(mode, s.Hyperlinks),
		Label: hostOf(sess.Label), Demo: sess.Demo, RefreshInterval: s.RefreshInterval, PageSize: s.PageSize, ShiftEnd: ss.shiftEnd,
		// Every session gets the config file's alerts, marking read on open and saved views
		// (the built-in ones included); a session saves no view into the hub's file.
		Alerts: uiAlerts(s.Alerts), MarkReadOnOpen: s.MarkReadOnOpen, Views: savedViews(config.ShownViews(s.Views)),
		Orderings: config.DefaultOrderings(s.Views),
		ReportCrash: func(user string, c *ui.Crash) (string, string, error) {
			where := user + "'s session: " + c.Where
			dl.log.Error("crash", "user", user, "in", c.Where)
			if proc == nil {
				return fmt.Sprint(c.Value), "", errors.New("no crash log")
			}
			summary, path, err := proc.log.write(where, c.Value, c.Stack)
			log.Error("internal error", "user", user, "in", c.Where, "error", summary, "crash_log", path)
			return summary, path, err
		},
	})
	if err != nil {
		return err
	}
	addr, err := hub.Listen(ctx)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "PARLEY_SSH_ADDR=%s\n", netaddr.Local(addr)); err != nil {
		return fmt.Errorf("write the address: %w", err)
	}
	if ma := hub.MetricsAddr(); ma != nil {
		if _, err := fmt.Fprintf(stdout, "PARLEY_METRICS_ADDR=%s\n", netaddr.Local(ma)); err != nil {
			return fmt.Errorf("write the metrics address: %w", err)
		}
		if where, others := reach(ma); others {
			log.Warn("metrics", "addr", ma.String(), "reach", where,
				"note", "other machines may scrape /metrics and /healthz, which ask for no credentials")
		} else {
			log.Info("metrics", "addr", ma.String(), "reach", "this machine only")
		}
	}
	port := addr.(*net.TCPAddr).Port
	if where, others := reach(addr); !others {
		log.Info("listening", "addr", addr.String(), "reach", "this machine only",
			"hint", fmt.Sprintf("--addr 0.0.0.0:%d lets the team's machines in", port))
	} else {
		log.Info("listening", "addr", addr.String(), "reach", where)
	}
	log.Info("ready", "users", len(users.List), "connect", fmt.Sprintf("ssh -p %d HOST", port), "audit_log", ss.auditLog,
		"stop", "Ctrl-C or SIGTERM")

	// A panic that ends the process ends every session: each is told why first. The
	// function is taken back when the hub ends normally, not when a panic leaves
	// serveHub: Recover, deferred in main, runs it then.
	forget := func() {}
	if proc != nil {
		forget = proc.atCrash(func(string) {
			ctx, cancel := context.WithTimeout(context.Background(), crashHookWait-time.Second)
			defer cancel()
			_ = hub.ShutdownFor(ctx, crashReason)
		})
	}
	err = serveHub(ctx, hub, ss, hups, stopped, proc, log)
	forget()
	return err
}

// serveHub serves until ctx ends (then every session is told the signal stopped names) or
// the server fails; a value on hups reloads the users file.
func serveHub(ctx context.Context, hub *serve.Hub, ss serveSettings, hups <-chan struct{}, stopped func() string, proc *Process,
	log hubLog) error {
	served := make(chan error, 1)
	go func() {
		if proc != nil {
			defer proc.Recover("the SSH server")
		}
		served <- hub.Serve()
	}()
	for {
		select {
		case err := <-served:
			if err != nil {
				log.Error("the SSH server failed", "error", err)
				return fmt.Errorf("serve SSH: %w", err)
			}
			return nil
		case <-ctx.Done():
			return shutdownHub(hub, log, stopReason(stopped()))
		case <-hups:
			_ = hub.Reload(ctx, "SIGHUP") // the hub logs what came of it
		}
	}
}

// What the sessions are told when the hub ends them all: it is stopping (stopReason), or a
// panic ends the process (crashReason). A supervisor (docs/hub.md) starts it again.
const (
	backAgain   = "when it is back, connect again the same way"
	crashReason = "the hub stopped after an internal error (its log has the details); " + backAgain
)

// stopReason is what the sessions are told when the hub stops on signal sig ("" when
// none is known).
func stopReason(sig string) string {
	if sig == "" {
		return "the hub is shutting down; " + backAgain
	}
	return "the hub is shutting down (" + sig + "); " + backAgain
}

// shutdownHub ends every session, each told why, and the server.
func shutdownHub(hub *serve.Hub, log hubLog, why string) error {
	log.Info("stopping", "sessions", hub.SessionCount(), "reason", why)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hub.ShutdownFor(ctx, why); err != nil {
		log.Error("the hub did not stop cleanly", "error", err)
		return fmt.Errorf("shut the hub down: %w", err)
	}
	log.Info("stopped")
	return nil
}

// sessionLook is how a session of the hub draws, told by the environment its SSH client
// sent (TERM from its PTY request, COLORTERM, NO_COLOR, COLORFGBG, TERM_PROGRAM when it
// sends them): its output is an SSH channel, not a terminal parley could ask. Links are
// hyperlinks by the hub's hyperlinks setting, auto deciding by the session's terminal.
func sessionLook(mode theme.Mode, links config.Hyperlinks) func(env []string) serve.Look {
	return func(env []string) serve.Look {
		// Only NAME=VALUE entries: a bare "NO_COLOR" read as a variable set empty would undo
		// an earlier NO_COLOR=1 for the colour profile but not for the theme.
		env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
			name, _, ok := strings.Cut(kv, "=")
			return !ok || name == ""
		})
		l := lookWith(mode, colorprofile.Env(env), env)
		return serve.Look{Profile: l.profile, Styles: l.styles, AskBackground: l.ask, Hyperlinks: hyperlinksOn(links, env)}
	}
}

// operatorLister lists an organization's operators through the hub's client (org 0: the
// hub's own).
func operatorLister(c *client.Client) serve.OperatorsOf {
	return func(ctx context.Context, org int64) ([]serve.OperatorRef, error) {
		oc := c
		if org != 0 && org != c.OrganizationID() {
			oc = c.WithContext(org, 0)
		} else if c.OperatorID() != 0 {
			oc = c.WithContext(c.OrganizationID(), 0)
		}
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		ops, err := oc.AllOperators(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]serve.OperatorRef, 0, len(ops))
		for _, op := range ops {
			name := op.DisplayName
			if name == "" {
				name = op.Name
			}
			out = append(out, serve.OperatorRef{ID: op.ID, Org: op.OrganizationID, Name: name, Role: op.Role})
		}
		return out, nil
	}
}
