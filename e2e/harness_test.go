//go:build e2e

// Package e2e drives the built parley binary in a real tmux against `parley sandbox`.
// Run with: go test -tags e2e ./e2e/...
package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/waitfor"
)

// binary is the parley binary built once for the whole run.
var binary string

func TestMain(m *testing.M) {
	if _, err := exec.LookPath("tmux"); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: tmux is required (apt-get install tmux)")
		os.Exit(1)
	}
	// PARLEY_E2E_BINARY runs the tests against a binary built elsewhere (another commit's
	// parley, to compare figures such as the bytes per key in one session).
	if b := os.Getenv("PARLEY_E2E_BINARY"); b != "" {
		binary = b
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "parley-e2e-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "parley")
	build := exec.Command("go", "build", "-o", binary, "..")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: build parley:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// Sandbox is a running `parley sandbox` process.
type Sandbox struct {
	BaseURL, Token, OrgToken string
	RestrictedOperatorID     string
	RequestLog               string
	Env                      []string // PARLEY_* variables for parley runs against it
	cmd                      *exec.Cmd
}

// StartSandbox runs `parley sandbox` on a free port with a request log and a fresh
// database of the given size ("small" keeps tests fast and still has the long and the
// hostile conversations), and with args added to its command line (--variant NAME).
func StartSandbox(t *testing.T, size string, args ...string) *Sandbox {
	t.Helper()
	dir := t.TempDir()
	port := freePort(t)
	sb := &Sandbox{RequestLog: filepath.Join(dir, "requests.jsonl")}
	cmd := exec.Command(binary, "sandbox", "--addr", fmt.Sprintf("127.0.0.1:%d", port),
		"--db", filepath.Join(dir, "sandbox.db"), "--size", size, "--seed", "1",
		"--request-log", sb.RequestLog)
	cmd.Args = append(cmd.Args, args...)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start parley sandbox: %v", err)
	}
	sb.cmd = cmd
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	sc := bufio.NewScanner(stdout)
	vars := map[string]string{}
	deadline := time.Now().Add(2 * time.Minute)
	for len(vars) < 4 && time.Now().Before(deadline) && sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if ok {
			vars[k] = v
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	sb.BaseURL, sb.Token = vars["PARLEY_BASE_URL"], vars["PARLEY_TOKEN"]
	sb.OrgToken, sb.RestrictedOperatorID = vars["PARLEY_ORG_TOKEN"], vars["PARLEY_RESTRICTED_OPERATOR_ID"]
	if sb.BaseURL == "" || sb.Token == "" {
		t.Fatalf("parley sandbox printed %v", vars)
	}
	sb.Env = []string{"PARLEY_BASE_URL=" + sb.BaseURL, "PARLEY_TOKEN=" + sb.Token}
	return sb
}

// Client is an API client on the sandbox, for setting up and checking through the API.
func (sb *Sandbox) Client(t *testing.T) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: sb.BaseURL, Token: sb.Token})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Request is one line of the sandbox's request log.
type Request struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Query  string `json:"query"`
	Status int    `json:"status"`
}

// Requests reads the request log.
func (sb *Sandbox) Requests(t *testing.T) []Request {
	t.Helper()
	f, err := os.Open(sb.RequestLog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Request
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r Request
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("request log line %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

// CountRequests counts logged requests whose path satisfies match.
func (sb *Sandbox) CountRequests(t *testing.T, match func(Request) bool) int {
	n := 0
	for _, r := range sb.Requests(t) {
		if match(r) {
			n++
		}
	}
	return n
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

var sessionSeq struct {
	sync.Mutex
	n int
}

// TUI is parley running in a tmux session.
type TUI struct {
	t       *testing.T
	session string
	socket  string
	dir     string
	W, H    int
	escAt   time.Time // when Keys last sent Escape
}

// escGap keeps a key from following Escape within Bubble Tea v2's escape timeout (50 ms):
// a terminal sends ESC and alt+key alike, so the input reader takes ESC and a key within
// the timeout as alt+key. Keys and Type send the key after Escape that much later, as a
// person does; keys meant together (a burst) never follow an Escape.
const escGap = 80 * time.Millisecond

// StartTUI runs parley with args in a new tmux session of w×h (tmux's status line off, so
// parley gets the whole window) against the sandbox's environment plus extra env.
func StartTUI(t *testing.T, w, h int, env []string, args ...string) *TUI {
	t.Helper()
	return startTUI(t, w, h, env, false, args...)
}

// StartTUIInShell is StartTUI with parley run by a shell that stays in the pane after
// parley exits: it saves the terminal settings (stty -a) before and after the run, then
// prints "parley exited with status N". TerminalSettings reads the saved settings.
func StartTUIInShell(t *testing.T, w, h int, env []string, args ...string) *TUI {
	t.Helper()
	return startTUI(t, w, h, env, true, args...)
}

// TerminalSettings are the flags of `stty -a` saved before parley started and after it
// exited (StartTUIInShell only; empty until then).
func (tui *TUI) TerminalSettings() (before, after []string) {
	return sttyFlags(filepath.Join(tui.dir, "stty-before")), sttyFlags(filepath.Join(tui.dir, "stty-after"))
}

// sttyFlags reads the mode flags ("icanon", "-echo", …) of saved `stty -a` output: the words
// of the lines without settings of the form "name = value" or "rows N;".
func sttyFlags(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.ContainsAny(l, "=;") {
			continue
		}
		out = append(out, strings.Fields(l)...)
	}
	return out
}

// Pid is the process id of parley (StartTUIInShell only; 0 when unknown).
func (tui *TUI) Pid() int {
	b, err := os.ReadFile(filepath.Join(tui.dir, "pid"))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// PaneFlag reads a tmux format of the pane, such as "#{alternate_on}".
func (tui *TUI) PaneFlag(format string) string {
	return strings.TrimSpace(tui.tmux("display-message", "-p", "-t", tui.session, format))
}

func startTUI(t *testing.T, w, h int, env []string, shell bool, args ...string) *TUI {
	t.Helper()
	sessionSeq.Lock()
	sessionSeq.n++
	n := sessionSeq.n
	sessionSeq.Unlock()
	dir := t.TempDir()
	tui := &TUI{t: t, session: fmt.Sprintf("parley-e2e-%d-%d", os.Getpid(), n), socket: filepath.Join(dir, "tmux.sock"), dir: dir, W: w, H: h}
	var script strings.Builder
	script.WriteString("export TERM=xterm-256color XDG_CONFIG_HOME=" + shq(filepath.Join(dir, "config")) +
		" XDG_CACHE_HOME=" + shq(filepath.Join(dir, "cache")) + " XDG_DATA_HOME=" + shq(filepath.Join(dir, "data")) +
		" XDG_STATE_HOME=" + shq(filepath.Join(dir, "state")) + "; ")
	script.WriteString("unset DBUS_SESSION_BUS_ADDRESS NO_COLOR CLICOLOR CLICOLOR_FORCE CI PARLEY_BASE_URL PARLEY_TOKEN PARLEY_ORG_ID PARLEY_OPERATOR_ID PARLEY_CONFIG; ")
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		script.WriteString("export " + k + "=" + shq(v) + "; ")
	}
	run := "exec " + shq(binary)
	for _, a := range args {
		run += " " + shq(a)
	}
	run += " 2>" + shq(filepath.Join(dir, "stderr"))
	if shell {
		// parley runs in a shell of its own that first notes its process id (Pid).
		inner := filepath.Join(dir, "run.sh")
		if err := os.WriteFile(inner, []byte("echo $$ >"+shq(filepath.Join(dir, "pid"))+"\n"+run+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		script.WriteString("stty -a >" + shq(filepath.Join(dir, "stty-before")) + "; sh " + shq(inner) +
			"; status=$?; stty -a >" + shq(filepath.Join(dir, "stty-after")) +
			"; echo \"parley exited with status $status\"; exec sleep 86400")
	} else {
		script.WriteString(run)
	}
	// The options go in a config file so they hold before parley starts: a parley that
	// exits at once (a refused config) must leave its pane to be inspected, and OSC 52
	// writes must land in tmux's buffers where tests can see them.
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g status off\nset -g remain-on-exit on\nset -g set-clipboard on\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tui.tmux("-f", conf, "new-session", "-d", "-s", tui.session, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "sh", "-c", script.String())
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("screen at failure:\n%s", tui.Screen())
			if b, err := os.ReadFile(filepath.Join(dir, "stderr")); err == nil && len(b) > 0 {
				t.Logf("stderr:\n%s", b)
			}
		}
		// parley is waited for before the test's directory goes: it writes its state file
		// as it ends, and a file appearing while the directory is removed fails the test.
		var pids []int
		if out, err := exec.Command("tmux", "-S", tui.socket, "display-message", "-p", "-t", tui.session, "#{pane_pid}").Output(); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil {
				pids = append(pids, pid)
			}
		}
		if pid := tui.Pid(); pid > 0 {
			pids = append(pids, pid)
		}
		_ = exec.Command("tmux", "-S", tui.socket, "kill-server").Run()
		for _, pid := range pids {
			waitExited(pid, 10*time.Second)
		}
	})
	return tui
}

// waitExited waits until the process pid has ended (gone, or a zombie no one reaped yet),
// at most limit.
func waitExited(pid int, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return
		}
		// The state follows the command's closing parenthesis: "pid (comm) S ...".
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && strings.HasPrefix(string(b[i:]), ") Z") {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (tui *TUI) tmux(args ...string) string {
	tui.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tui.socket}, args...)...).CombinedOutput()
	if err != nil {
		tui.t.Fatalf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Stderr is what parley wrote to stderr so far.
func (tui *TUI) Stderr() string {
	b, _ := os.ReadFile(filepath.Join(tui.dir, "stderr"))
	return string(b)
}

// Keys sends keys (tmux key names such as "j", "Enter", "Escape", "C-c", "Space"), in one
// write up to each Escape; a key after an Escape goes escGap later.
func (tui *TUI) Keys(keys ...string) {
	tui.t.Helper()
	for len(keys) > 0 {
		tui.afterEsc()
		n := 1
		for n < len(keys) && keys[n-1] != "Escape" {
			n++
		}
		tui.tmux(append([]string{"send-keys", "-t", tui.session}, keys[:n]...)...)
		if keys[n-1] == "Escape" {
			tui.escAt = time.Now()
		}
		keys = keys[n:]
	}
}

// afterEsc waits until escGap has passed since the last Escape.
func (tui *TUI) afterEsc() { pace(tui.escAt.Add(escGap)) }

// pace waits until the moment at: a user's rhythm that a test plays in real time (a key
// after an Escape, the steps of a session replayed at its pace). It paces keys; it decides
// no outcome, which the test then waits for by its condition.
func pace(at time.Time) {
	if d := time.Until(at); d > 0 {
		time.Sleep(d)
	}
}

// Type sends literal text (escGap after an Escape).
func (tui *TUI) Type(text string) {
	tui.t.Helper()
	tui.afterEsc()
	tui.tmux("send-keys", "-t", tui.session, "-l", text)
}

// Screen is the visible text of the pane.
func (tui *TUI) Screen() string {
	out, err := exec.Command("tmux", "-S", tui.socket, "capture-pane", "-p", "-t", tui.session).CombinedOutput()
	if err != nil {
		return "capture-pane failed: " + err.Error()
	}
	return string(out)
}

// ScreenRaw is the visible text of the pane with its colours and attributes (SGR escape
// sequences as tmux re-encodes them).
func (tui *TUI) ScreenRaw() string {
	out, err := exec.Command("tmux", "-S", tui.socket, "capture-pane", "-p", "-e", "-t", tui.session).CombinedOutput()
	if err != nil {
		return "capture-pane failed: " + err.Error()
	}
	return string(out)
}

// Title is the pane's window title as tmux sees it.
func (tui *TUI) Title() string {
	return strings.TrimSpace(tui.tmux("display-message", "-p", "-t", tui.session, "#{pane_title}"))
}

// WaitFor waits until the screen contains text and returns the screen.
func (tui *TUI) WaitFor(text string, timeout time.Duration) string {
	tui.t.Helper()
	return tui.WaitUntil(func(s string) bool { return strings.Contains(s, text) }, timeout, "text "+fmt.Sprintf("%q", text))
}

// WaitUntil waits until ok(screen) holds.
func (tui *TUI) WaitUntil(ok func(string) bool, timeout time.Duration, what string) string {
	tui.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		s := tui.Screen()
		if ok(s) {
			return s
		}
		select {
		case <-ctx.Done():
			tui.t.Fatalf("waited %s for %s; screen:\n%s", timeout, what, s)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Clipboard is what reached tmux's clipboard buffers (OSC 52), newest first.
func (tui *TUI) Clipboard() string {
	out, _ := exec.Command("tmux", "-S", tui.socket, "list-buffers", "-F", "#{buffer_sample}").CombinedOutput()
	return strings.TrimSpace(string(out))
}

// Dead reports whether the program in the pane exited.
func (tui *TUI) Dead() bool {
	out, err := exec.Command("tmux", "-S", tui.socket, "display-message", "-p", "-t", tui.session, "#{pane_dead}").CombinedOutput()
	return err == nil && strings.TrimSpace(string(out)) == "1"
}

// Record copies everything parley writes to the pane from now on into a file (tmux
// pipe-pane); the returned stop ends the copy and returns the bytes written meanwhile.
func (tui *TUI) Record() (stop func() []byte) {
	tui.t.Helper()
	out := filepath.Join(tui.dir, fmt.Sprintf("record-%d", time.Now().UnixNano()))
	done := out + ".done"
	tui.tmux("pipe-pane", "-o", "-t", tui.session, "cat >"+shq(out)+"; touch "+shq(done))
	return func() []byte {
		tui.t.Helper()
		tui.tmux("pipe-pane", "-t", tui.session) // closes the pipe: cat ends, then done appears
		waitfor.True(tui.t, "the pane's recording to end", func() bool { _, err := os.Stat(done); return err == nil })
		b, err := os.ReadFile(out)
		if err != nil {
			tui.t.Fatal(err)
		}
		return b
	}
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'" }
