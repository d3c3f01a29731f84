package cli

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/serve"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/waitfor"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sandbox/sandboxtest"
)

// testKey is a key pair: the signer and its authorized_keys line.
func testKey(t *testing.T) (gossh.Signer, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s, strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey())))
}

// serveProcess is `parley serve` running as its own process.
type serveProcess struct {
	cmd     *exec.Cmd
	stderr  *syncBuffer
	addr    string
	metrics string // PARLEY_METRICS_ADDR, with --metrics-addr
	done    chan error
}

// startServe runs the binary's serve command with args against a sandbox of its own
// (PARLEY_BASE_URL and PARLEY_TOKEN); dirs are the XDG directories of the run.
func startServe(t *testing.T, env []string, args ...string) *serveProcess {
	t.Helper()
	bin := parleyBinary(t)
	p := &serveProcess{stderr: &syncBuffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, append([]string{"serve"}, args...)...)
	p.cmd.Env = env
	p.cmd.Stderr = p.stderr
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
	})
	want := []string{"PARLEY_SSH_ADDR="}
	if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--metrics-addr") }) {
		want = append(want, "PARLEY_METRICS_ADDR=")
	}
	lines := make(chan string, len(want))
	go func() {
		sc := bufio.NewScanner(out)
		for range want {
			if !sc.Scan() {
				break
			}
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, out)
	}()
	for _, prefix := range want {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("parley serve printed no %s line; stderr:\n%s", prefix, p.stderr.String())
			}
			if !shellSafe.MatchString(l) || !strings.HasPrefix(l, prefix) {
				t.Fatalf("stdout line %q is not %shost:port for eval", l, prefix)
			}
			if prefix == "PARLEY_SSH_ADDR=" {
				p.addr = strings.TrimPrefix(l, prefix)
			} else {
				p.metrics = strings.TrimPrefix(l, prefix)
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("parley serve did not start; stderr:\n%s", p.stderr.String())
		}
	}
	return p
}

// signal sends sig and, for an ending one, waits for the process to end.
func (p *serveProcess) stop(t *testing.T, sig syscall.Signal) error {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		p.done <- err
		return err
	case <-time.After(15 * time.Second):
		t.Fatalf("parley serve did not stop on %v; stderr:\n%s", sig, p.stderr.String())
	}
	return nil
}

// sshTerminal opens an interactive session with a PTY.
func sshTerminal(t *testing.T, addr string, key gossh.Signer) (*gossh.Session, *syncBuffer, io.WriteCloser, chan error) {
	t.Helper()
	return sshTerminalChecked(t, addr, key, gossh.InsecureIgnoreHostKey())
}

// sshTerminalChecked is sshTerminal checking the hub's host key with hostKey.
func sshTerminalChecked(t *testing.T, addr string, key gossh.Signer, hostKey gossh.HostKeyCallback) (*gossh.Session, *syncBuffer,
	io.WriteCloser, chan error) {
	t.Helper()
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "me", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: hostKey, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	s.Stdout, s.Stderr = out, out
	in, err := s.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	return s, out, in, done
}

// hubSandbox serves a small sandbox for a test of the hub.
func hubSandbox(t *testing.T) (*sandbox.Running, sandbox.Info) {
	t.Helper()
	run := sandboxtest.Start(t, sandbox.Options{Size: sandbox.SizeSmall, BurstRate: -1})
	return run, run.Server.Info()
}

// hubVars is the environment of a hub run against run with its home and XDG directories
// in dir.
func hubVars(dir string, run *sandbox.Running, info sandbox.Info) map[string]string {
	return map[string]string{"PATH": os.Getenv("PATH"), "HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "config"),
		"XDG_DATA_HOME": filepath.Join(dir, "data"), "XDG_STATE_HOME": filepath.Join(dir, "state"),
		"XDG_CACHE_HOME": filepath.Join(dir, "cache"), "PARLEY_BASE_URL": run.URL, "PARLEY_TOKEN": info.CustomerToken}
}

// environ is vars as NAME=value lines.
func environ(vars map[string]string) []string {
	var env []string
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// usersFile writes a users file of content in dir and returns its path.
func usersFile(t *testing.T, dir, content string) string {
	t.Helper()
	path := filepath.Join(dir, "users.yaml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// endsWithStatus1 waits for a session (sshTerminal's done) to end with status 1, as the
// hub ends one it tells why; after is what ended it.
func endsWithStatus1(t *testing.T, done <-chan error, who, after string) {
	t.Helper()
	select {
	case err := <-done:
		if ee, ok := err.(*gossh.ExitError); !ok || ee.ExitStatus() != 1 {
			t.Errorf("%s's session ended with %v, want status 1", who, err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("%s's session did not end after %s", who, after)
	}
}

// `parley serve` on a configured API: it checks the users file, prints the address for
// eval, makes the host key and the audit log private, lets a key of the users file in,
// reloads the file on SIGHUP (a removed key's session ends with a message) and ends on
// SIGTERM with the session's terminal restored.
func TestServeCommand(t *testing.T) {
	run, info := hubSandbox(t)
	dir := t.TempDir()
	anna, annaKey := testKey(t)
	ben, benKey := testKey(t)
	var users string
	write := func(content string) { users = usersFile(t, dir, content) }
	annaEntry := fmt.Sprintf("- name: Anna\n  key: %s\n  operator: %d\n  role: agent\n", annaKey, info.RestrictedOperatorID)
	benEntry := fmt.Sprintf("- name: Ben\n  key: %s\n  role: viewer\n", benKey)
	write(annaEntry + benEntry)
	env := environ(hubVars(dir, run, info))
	p := startServe(t, env, "--addr", "127.0.0.1:0", "--users", users, "--log-format", "json", "--metrics-addr", "127.0.0.1:0")
	if code, body := httpGet(t, "http://"+p.metrics+"/healthz"); code != 200 || !strings.HasPrefix(body, "ok: ") {
		t.Errorf("/healthz: %d %q", code, body)
	}
	if code, body := httpGet(t, "http://"+p.metrics+"/metrics"); code != 200 || !strings.Contains(body, "parley_hub_sessions{role=\"agent\"} 0") {
		t.Errorf("/metrics: %d %.300q", code, body)
	}

	hostKey := filepath.Join(dir, "data", "parley", "hub_host_ed25519_key")
	audit := filepath.Join(dir, "state", "parley", "audit.jsonl")
	for _, f := range []string{hostKey, audit} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatalf("%v; stderr:\n%s", err, p.stderr.String())
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("%s: mode %04o, want 0600", f, perm)
		}
	}
	for _, w := range [][]string{
		{"host key", "path", hostKey, "made", "true"},
		{"listening", "reach", "this machine only"},
		{"ready", "users", "2"},
	} {
		waitfor.True(t, fmt.Sprintf("the record %q", w), func() bool { return logged(t, p.stderr.String(), w[0], w[1:]...) })
	}

	_, out, _, done := sshTerminal(t, p.addr, anna)
	waitfor.True(t, "Anna's conversations", func() bool { return strings.Contains(ansi.Strip(out.String()), "conversations") })

	// SIGHUP with Anna's key removed: her session ends with a message.
	write(benEntry)
	if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	endsWithStatus1(t, done, "Anna", "SIGHUP")
	if !strings.Contains(ansi.Strip(out.String()), "your key was removed from the hub's users file") {
		t.Errorf("Anna was told %q", ansi.Strip(out.String()))
	}
	waitfor.True(t, "the reload in the log", func() bool { return logged(t, p.stderr.String(), "users reloaded", "path", users, "users", "1") })

	// SIGTERM: Ben's session ends, his terminal restored and told why.
	_, benOut, _, benDone := sshTerminal(t, p.addr, ben)
	waitfor.True(t, "Ben's conversations", func() bool { return strings.Contains(ansi.Strip(benOut.String()), "conversations") })
	if err := p.stop(t, syscall.SIGTERM); err != nil {
		t.Errorf("SIGTERM: %v; stderr:\n%s", err, p.stderr.String())
	}
	endsWithStatus1(t, benDone, "Ben", "SIGTERM")
	if text := ansi.Strip(benOut.String()); !strings.Contains(text, "parley hub: the hub is shutting down (SIGTERM); when it is back, connect again the same way") {
		t.Errorf("Ben was told %q", text)
	}
	if !strings.Contains(benOut.String(), "\x1b[?1049l") {
		t.Error("Ben's terminal was not taken off the alternate screen")
	}
	if strings.Contains(p.stderr.String(), info.CustomerToken) {
		t.Error("the hub's log has the token")
	}
	if !logged(t, p.stderr.String(), "stopped") {
		t.Errorf("stderr:\n%s", p.stderr.String())
	}

	// The second start reuses the host key.
	before, err := os.ReadFile(hostKey)
	if err != nil {
		t.Fatal(err)
	}
	p2 := startServe(t, env, "--addr", "127.0.0.1:0", "--users", users)
	after, _ := os.ReadFile(hostKey)
	if string(before) != string(after) || !strings.Contains(p2.stderr.String(), `msg="host key"`) ||
		strings.Contains(p2.stderr.String(), "made=true") {
		t.Error("the second start made another host key")
	}
	if err := p2.stop(t, syscall.SIGINT); err != nil {
		t.Errorf("SIGINT: %v", err)
	}
}

// A users file with a wrong entry stops the start: the error names the entry's line and
// nothing listens.
func TestServeRefusesABadUsersFile(t *testing.T) {
	run, info := hubSandbox(t)
	dir := t.TempDir()
	_, key := testKey(t)
	for _, c := range []struct{ file, want string }{
		{fmt.Sprintf("- name: Anna\n  key: %s\n  operator: 999999\n  role: agent\n", key),
			`users.yaml:1: user "Anna": operator: 999999 is not an operator of`},
		{fmt.Sprintf("- name: Anna\n  key: %s\n  operator: %d\n  role: boss\n", key, info.RestrictedOperatorID),
			`users.yaml:4: user 1 ("Anna"): role: "boss" is not a role`},
	} {
		users := filepath.Join(dir, "users.yaml")
		if err := os.WriteFile(users, []byte(c.file), 0o600); err != nil {
			t.Fatal(err)
		}
		var out, errOut syncBuffer
		env := mapEnv(map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "c"), "XDG_DATA_HOME": filepath.Join(dir, "d"),
			"XDG_STATE_HOME": filepath.Join(dir, "s"), "PARLEY_BASE_URL": run.URL, "PARLEY_TOKEN": info.CustomerToken})
		changed := func(string) bool { return false }
		f := defaultServeFlags()
		f.addr, f.users = "127.0.0.1:0", users
		err := runServe(context.Background(), &globalFlags{}, f, changed, env, &out, &errOut)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one that says %q", err, c.want)
		}
		if out.String() != "" {
			t.Errorf("it printed %q: something listened", out.String())
		}
	}
	// No users file: the error says how to write one.
	env := mapEnv(map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "none")})
	f := defaultServeFlags()
	f.addr = "127.0.0.1:0"
	err := runServe(context.Background(), &globalFlags{demo: true}, f, func(string) bool { return false }, env, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no users file at "+filepath.Join(dir, "none", "parley", "users.yaml")) ||
		!strings.Contains(err.Error(), "role: agent") {
		t.Errorf("without a users file: %v", err)
	}
}

// Flags win over the config file's serve: section, which wins over the defaults; its
// relative paths are read from the config file's directory.
func TestServeSettingsPrecedence(t *testing.T) {
	env := writeTestConfig(t, "serve:\n  addr: 0.0.0.0:2300\n  users: team.yaml\n  max_sessions: 7\n  idle_timeout: 2h\n  audit_log: /var/log/a.jsonl\n"+
		"  no_session_timeout: 10s\n  max_handshakes: 9\n  log_format: json\n  metrics_addr: 127.0.0.1:9470\n  shift_end: \"17:30\"\n")
	s, err := resolveSettings(context.Background(), &globalFlags{}, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	defaults := defaultServeFlags()
	none := func(string) bool { return false }
	got, err := resolveServe(defaults, none, s, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	cfgDir := filepath.Join(env["XDG_CONFIG_HOME"], "parley")
	want := serveSettings{addr: "0.0.0.0:2300", users: filepath.Join(cfgDir, "team.yaml"), auditLog: "/var/log/a.jsonl",
		hostKey:     filepath.Join(env["HOME"], ".local", "share", "parley", "hub_host_ed25519_key"),
		maxSessions: 7, idleTimeout: 2 * time.Hour, connRate: serve.DefaultConnPerMinute,
		noSessionTimeout: 10 * time.Second, maxHandshakes: 9, handshakeRate: serve.DefaultHandshakeRate, logFormat: "json",
		metricsAddr: "127.0.0.1:9470", cacheSize: serve.DefaultCacheSize, shiftEnd: 17*time.Hour + 30*time.Minute}
	if got != want {
		t.Errorf("from the config file:\n got %+v\nwant %+v", got, want)
	}
	flags := defaults
	flags.addr, flags.maxSessions, flags.users, flags.noSessionTimeout = "127.0.0.1:0", 3, "mine.yaml", 5*time.Second
	flags.cacheSize, flags.shiftEnd = "256MiB", "18:00"
	changed := func(name string) bool {
		return name == "addr" || name == "max-sessions" || name == "users" || name == "no-session-timeout" || name == "log-format" ||
			name == "cache-size" || name == "shift-end"
	}
	got, err = resolveServe(flags, changed, s, mapEnv(env))
	if err != nil {
		t.Fatal(err)
	}
	if got.addr != "127.0.0.1:0" || got.maxSessions != 3 || got.users != "mine.yaml" || got.idleTimeout != 2*time.Hour ||
		got.noSessionTimeout != 5*time.Second || got.maxHandshakes != 9 || got.logFormat != "text" || got.cacheSize != 256<<20 ||
		got.shiftEnd != 18*time.Hour {
		t.Errorf("flags over the file: %+v", got)
	}
	bad := defaults
	bad.idleTimeout = time.Second
	if _, err := resolveServe(bad, func(n string) bool { return n == "idle-timeout" }, s, mapEnv(env)); err == nil ||
		!strings.Contains(err.Error(), "--idle-timeout: 1s is out of range") {
		t.Errorf("a bad flag: %v", err)
	}
	bad = defaults
	bad.addr = "nohost"
	if _, err := resolveServe(bad, func(string) bool { return true }, Settings{}, mapEnv(env)); err == nil || !strings.Contains(err.Error(), "--addr") {
		t.Errorf("a bad address: %v", err)
	}
	for flag, set := range map[string]func(*serveFlags){
		"--no-session-timeout: 2h0m0s is out of range (1s to 1h0m0s)": func(f *serveFlags) { f.noSessionTimeout = 2 * time.Hour },
		"--max-handshakes: 0 is out of range (1 to 10000)":            func(f *serveFlags) { f.maxHandshakes = 0 },
		"--handshake-rate: -9223372036854775808 is out of range":      func(f *serveFlags) { f.handshakeRate = math.MinInt64 },
		`--log-format: "logfmt" is not a log format (text or json)`:   func(f *serveFlags) { f.logFormat = "logfmt" },
		`--metrics-addr: ":9470" names no host`:                       func(f *serveFlags) { f.metricsAddr = ":9470" },
		`--cache-size: "9223372036854775807GiB" is out of range (1MiB to 4GiB)`: func(f *serveFlags) {
			f.cacheSize = "9223372036854775807GiB"
		},
		`--cache-size: "64MB" is not a size like 64MiB`:         func(f *serveFlags) { f.cacheSize = "64MB" },
		`--shift-end: "5pm" is not a time of day like 17:00`:    func(f *serveFlags) { f.shiftEnd = "5pm" },
		`--shift-end: "00:00" is out of range (00:01 to 24:00)`: func(f *serveFlags) { f.shiftEnd = "00:00" },
	} {
		bad = defaults
		set(&bad)
		if _, err := resolveServe(bad, func(string) bool { return true }, Settings{}, mapEnv(env)); err == nil || !strings.Contains(err.Error(), flag) {
			t.Errorf("want %q: %v", flag, err)
		}
	}
}

// A session's look follows the environment its SSH client sent.
func TestSessionLookFollowsTheClientsEnvironment(t *testing.T) {
	look := sessionLook(theme.ModeAuto, config.HyperlinksAuto)
	for _, c := range []struct {
		env   []string
		want  colorprofile.Profile
		ask   bool
		links bool
	}{
		{[]string{"TERM=xterm-256color"}, colorprofile.ANSI256, true, false},
		{[]string{"TERM=xterm-256color", "COLORTERM=truecolor"}, colorprofile.TrueColor, true, false},
		{[]string{"TERM=xterm-256color", "NO_COLOR=1"}, colorprofile.ASCII, false, false},
		{[]string{"TERM=xterm-256color", "COLORFGBG=0;15"}, colorprofile.ANSI256, false, false},
		{[]string{"TERM=xterm-kitty"}, colorprofile.TrueColor, true, true},
	} {
		l := look(c.env)
		if l.Profile != c.want || l.AskBackground != c.ask || l.Styles == nil || l.Hyperlinks != c.links {
			t.Errorf("%v: profile %v, ask %v, links %v; want %v, %v, %v", c.env, l.Profile, l.AskBackground, l.Hyperlinks, c.want, c.ask, c.links)
		}
	}
	// The hub's setting decides for every session when it says on or off.
	if !sessionLook(theme.ModeAuto, config.HyperlinksOn)([]string{"TERM=xterm-256color"}).Hyperlinks ||
		sessionLook(theme.ModeAuto, config.HyperlinksOff)([]string{"TERM=xterm-kitty"}).Hyperlinks {
		t.Error("the hub's hyperlinks setting does not decide")
	}
}

// logged reports whether the hub's JSON log (stderr) has a record msg with the attributes
// kv (key, value, …; each value as text). Lines that are not JSON records are skipped.
func logged(t *testing.T, stderr, msg string, kv ...string) bool {
	t.Helper()
	for _, line := range strings.Split(stderr, "\n") {
		var r map[string]any
		if json.Unmarshal([]byte(line), &r) != nil || r["msg"] != msg {
			continue
		}
		all := true
		for i := 0; i+1 < len(kv); i += 2 {
			if v, ok := r[kv[i]]; !ok || fmt.Sprint(v) != kv[i+1] {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}

// httpGet is the status and body of a GET of url.
func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}
