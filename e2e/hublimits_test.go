//go:build e2e

package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/internal/waitfor"
)

// `ssh -N` (a connection that never opens a session) with a key of the users file is closed
// by the hub at the end of its no-session timeout, and the hub's log says so.
func TestServeClosesSSHWithoutASession(t *testing.T) {
	sb := StartSandbox(t, "small")
	keys := t.TempDir()
	key, pub := sshKey(t, keys, "clara")
	users := fmt.Sprintf("- name: Clara\n  key: %s\n  operator: %s\n  role: agent\n", pub, sb.RestrictedOperatorID)
	const window = 2 * time.Second
	hub := StartHub(t, sb, users, fmt.Sprintf("serve:\n  no_session_timeout: %s\n", window))

	ssh := exec.Command("ssh", "-N", "-p", hub.Port, "-i", key, "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
		"-o", "LogLevel=ERROR", "-o", "BatchMode=yes", "127.0.0.1")
	var out lockedBuffer
	ssh.Stdout, ssh.Stderr = &out, &out
	started := time.Now()
	if err := ssh.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- ssh.Wait() }()
	t.Cleanup(func() { _ = ssh.Process.Kill() })
	select {
	case err := <-done:
		if took := time.Since(started); took < window {
			t.Errorf("ssh -N ended after %s, before the %s window: %v %s", took, window, err, out.String())
		}
	case <-time.After(window + 30*time.Second):
		t.Fatalf("ssh -N is still connected %s after the %s window; the hub's log:\n%s", 30*time.Second, window, hub.stderr.String())
	}
	want := `msg="connection closed" from=127.0.0.1 user=Clara reason="no session within 2s"`
	waitfor.Value(t, "the hub's log to say "+want, hub.stderr.String, func(log string) bool { return strings.Contains(log, want) })
}

// TestServeHandshakeFlood is a measurement, not a pass/fail test of its figures: one agent
// works in a session (a key, then the first byte of the answer) while 300 handshakes come
// from 10 addresses (127.0.0.2 to 127.0.0.11) within 20 s, a third of them with a key of
// the users file and no session (ssh -N), a third with an unknown key and a third that
// never start their handshake. It prints the session's key latency without and with the
// flood, the hub's resident memory before, at its most and after, what the hub did with the
// 300 connections and how many lines its log took.
//
//	go test -tags e2e -run TestServeHandshakeFlood -v ./e2e/
func TestServeHandshakeFlood(t *testing.T) {
	const (
		addresses  = 10
		handshakes = 300
		during     = 20 * time.Second
	)
	sb := StartSandbox(t, "small")
	keys := t.TempDir()
	claraKey, claraPub := sshKey(t, keys, "clara")
	users := fmt.Sprintf("- name: Clara\n  key: %s\n  operator: %s\n  role: agent\n", claraPub, sb.RestrictedOperatorID)
	hub := StartHub(t, sb, users, "")
	strangerKey, _ := sshKey(t, keys, "stranger")
	clara, stranger := signerOf(t, claraKey), signerOf(t, strangerKey)
	pid := hub.cmd.Process.Pid

	term := openCounted(t, hub.Addr, clara)
	// The session settles: its first requests answered, the screen drawn.
	term.quiet(500*time.Millisecond, 30*time.Second)
	rssBefore := rss(t, pid)
	logBefore := strings.Count(hub.stderr.String(), "\n")
	quiet := term.latencies(t, 100, 0)

	var accepted, refused, authed atomic.Int64
	var peak atomic.Int64
	peak.Store(rssBefore)
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
				if r := rssOrZero(pid); r > peak.Load() {
					peak.Store(r)
				}
			}
		}
	}()
	var flood sync.WaitGroup
	var held sync.Mutex
	var open []net.Conn
	began := time.Now()
	for i := range handshakes {
		at := began.Add(time.Duration(i) * during / handshakes)
		from := "127.0.0." + strconv.Itoa(2+i%addresses)
		flood.Add(1)
		go func() {
			defer flood.Done()
			pace(at) // the flood's schedule, not a test's outcome
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
			c, err := d.Dial("tcp", hub.Addr)
			if err != nil {
				refused.Add(1)
				return
			}
			held.Lock()
			open = append(open, c)
			held.Unlock()
			switch i % 3 {
			case 0: // never starts its handshake
				_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
				if _, err := bufio.NewReader(c).ReadString('\n'); err != nil {
					refused.Add(1)
					return
				}
				accepted.Add(1)
			case 1, 2: // a listed key without a session, or an unknown key
				signer := clara
				if i%3 == 2 {
					signer = stranger
				}
				_ = c.SetDeadline(time.Now().Add(30 * time.Second))
				_, chans, reqs, err := gossh.NewClientConn(c, hub.Addr, &gossh.ClientConfig{User: "x",
					Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
				if err != nil {
					if strings.Contains(err.Error(), "unable to authenticate") {
						accepted.Add(1)
					} else {
						refused.Add(1)
					}
					return
				}
				_ = c.SetDeadline(time.Time{})
				accepted.Add(1)
				authed.Add(1)
				go gossh.DiscardRequests(reqs)
				go func() {
					for ch := range chans {
						_ = ch.Reject(gossh.Prohibited, "no")
					}
				}()
			}
		}()
	}
	loaded := term.latencies(t, 1<<30, during)
	flood.Wait()
	close(stop)
	sampler.Wait()
	rssFlood := peak.Load()
	// The connections without a session end at the no-session timeout (30 s), and the log
	// sums up the minute of the flood's first refusal when it ends.
	deadline := time.Now().Add(90 * time.Second)
	for hubConnections(t, hub) > 0 && time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond) // polling a count, not deciding an outcome
	}
	left, leftAt := hubConnections(t, hub), time.Since(began)
	pace(began.Add(65 * time.Second)) // the log's minute ends: a measurement's span
	floodLog := strings.Count(hub.stderr.String(), "\n") - logBefore
	rssAfter := rss(t, pid)
	after := term.latencies(t, 100, 0)
	held.Lock()
	for _, c := range open {
		_ = c.Close()
	}
	held.Unlock()
	if !term.alive() {
		t.Fatal("the agent's session ended during the flood")
	}
	if term.unanswered > 0 {
		t.Errorf("%d keys had no answer within 30 s", term.unanswered)
	}

	t.Logf("%d handshakes from %d addresses in %s: %d taken by the hub (%d with the listed key, without a session), %d refused at once",
		handshakes, addresses, during, accepted.Load(), authed.Load(), refused.Load())
	t.Logf("key to first byte of the answer, median (90th percentile, most) over n keys:")
	t.Logf("  without the flood: %s (n=%d)", describe(quiet), len(quiet))
	t.Logf("  during the flood:  %s (n=%d)", describe(loaded), len(loaded))
	t.Logf("  after it:          %s (n=%d)", describe(after), len(after))
	t.Logf("connections of the flood still open %s after it began: %d", leftAt.Round(time.Second), left)
	t.Logf("hub resident memory: %.1f MB before, %.1f MB at its most during the flood, %.1f MB after its connections ended",
		mb(rssBefore), mb(rssFlood), mb(rssAfter))
	t.Logf("hub log: %d lines for the flood's connections within 65 s of its start", floodLog)
	if testing.Verbose() {
		t.Logf("the hub's log:\n%s", hub.stderr.String())
	}
}

// TestServeFiftySessions is a measurement, not a pass/fail test of its figures: the built
// hub's resident memory and one session's key latency (a key to the first byte of its
// answer, j and k in turn) with 1 session connected and with 50, each a real SSH
// connection at 120×40 on the conversations screen, idle but for the one measured. It
// prints the machine (CPU model, cores) and its load average, which the figures depend
// on.
//
//	go test -tags e2e -run TestServeFiftySessions -v ./e2e/
func TestServeFiftySessions(t *testing.T) {
	const sessions, keys = 50, 100
	sb := StartSandbox(t, "small")
	keyPath, pub := sshKey(t, t.TempDir(), "clara")
	users := fmt.Sprintf("- name: Clara\n  key: %s\n  operator: %s\n  role: agent\n", pub, sb.RestrictedOperatorID)
	// 50 connections from one address within a minute: more than the default 30 a minute.
	hub := StartHub(t, sb, users, "serve:\n  conn_rate: 120\n  max_sessions: 60\n")
	key := signerOf(t, keyPath)
	pid := hub.cmd.Process.Pid

	term := openCounted(t, hub.Addr, key)
	term.quiet(time.Second, 30*time.Second)
	rssOne := rss(t, pid)
	one := term.latencies(t, keys, 0)

	began := time.Now()
	for range sessions - 1 {
		openCounted(t, hub.Addr, key)
	}
	opened := time.Since(began)
	term.quiet(time.Second, 60*time.Second)
	rssFifty := rss(t, pid)
	fifty := term.latencies(t, keys, 0)
	if !term.alive() {
		t.Fatal("the measured session ended")
	}
	if term.unanswered > 0 {
		t.Errorf("%d keys had no answer within 30 s", term.unanswered)
	}

	t.Logf("machine: %s, %d cores; load average %s", cpuModel(), runtime.NumCPU(), loadAverage())
	t.Logf("%d more sessions opened in %s", sessions-1, opened.Round(time.Millisecond))
	t.Logf("hub resident memory: %.1f MB with 1 session, %.1f MB with %d (%.2f MB per session more)",
		mb(rssOne), mb(rssFifty), sessions, mb(rssFifty-rssOne)/float64(sessions-1))
	t.Logf("key to first byte of the answer, median (90th percentile, most) over %d keys:", keys)
	t.Logf("  1 session:   %s", describe(one))
	t.Logf("  %d sessions: %s", sessions, describe(fifty))
}

// cpuModel is the first "model name" of /proc/cpuinfo.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// loadAverage is the 1, 5 and 15 minute load averages of /proc/loadavg.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// countedTerminal is a session whose output is counted (and its time kept), not drawn.
type countedTerminal struct {
	s    *gossh.Session
	in   io.Writer
	done chan struct{}

	mu   sync.Mutex
	n    int
	last time.Time
	seen strings.Builder // the first bytes, to know the list is drawn

	unanswered int // keys without an answer within 30 s (latencies)
}

func (c *countedTerminal) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += len(p)
	c.last = time.Now()
	if c.seen.Len() < 1<<20 {
		c.seen.Write(p)
	}
	return len(p), nil
}

func (c *countedTerminal) state() (int, time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n, c.last
}

func (c *countedTerminal) alive() bool {
	select {
	case <-c.done:
		return false
	default:
		return true
	}
}

// openCounted opens a session of 120×40 on the hub at addr with key and waits for its list.
func openCounted(t *testing.T, addr string, key gossh.Signer) *countedTerminal {
	t.Helper()
	client, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "clara", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	s, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	term := &countedTerminal{s: s, done: make(chan struct{})}
	s.Stdout, s.Stderr = term, term
	in, err := s.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	term.in = in
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = s.Wait()
		close(term.done)
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		term.mu.Lock()
		drawn := listCount.MatchString(ansi.Strip(term.seen.String()))
		term.mu.Unlock()
		if drawn {
			return term
		}
		if time.Now().After(deadline) || !term.alive() {
			t.Fatal("the session never showed its list")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// listCount is the list's header once its first page is in ("50 conversations").
var listCount = regexp.MustCompile(`[0-9] (conversations? )?· `) // a narrow header drops the noun

// quiet waits until the session has written nothing for gap (at most limit).
func (c *countedTerminal) quiet(gap, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if _, last := c.state(); time.Since(last) >= gap {
			return
		}
		time.Sleep(gap / 4)
	}
}

// latencies presses j and k in turn, n times or for d (when d > 0), each after the answer
// to the previous one has ended, and returns the time from each key to the first byte of
// its answer. A key without an answer within 30 s is counted in c.unanswered.
func (c *countedTerminal) latencies(t *testing.T, n int, d time.Duration) []time.Duration {
	t.Helper()
	var out []time.Duration
	end := time.Now().Add(d)
	keys := []string{"j", "k"}
	for i := 0; i < n && (d == 0 || time.Now().Before(end)); i++ {
		c.quiet(30*time.Millisecond, 5*time.Second)
		before, _ := c.state()
		start := time.Now()
		if _, err := c.in.Write([]byte(keys[i%2])); err != nil {
			t.Fatalf("type a key: %v", err)
		}
		for {
			if now, _ := c.state(); now > before {
				out = append(out, time.Since(start))
				break
			}
			if time.Since(start) > 30*time.Second {
				c.unanswered++
				break
			}
			time.Sleep(100 * time.Microsecond)
		}
	}
	return out
}

// describe is "1.2ms (90th 3.4ms, most 9.9ms)".
func describe(ds []time.Duration) string {
	if len(ds) == 0 {
		return "no keys"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	r := func(d time.Duration) string { return d.Round(10 * time.Microsecond).String() }
	return fmt.Sprintf("%s (90th %s, most %s)", r(at(0.5)), r(at(0.9)), r(s[len(s)-1]))
}

// signerOf reads an OpenSSH private key file.
func signerOf(t *testing.T, path string) gossh.Signer {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.ParsePrivateKey(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rss is a process's resident memory in bytes (VmRSS of /proc/PID/status).
func rss(t *testing.T, pid int) int64 {
	t.Helper()
	r := rssOrZero(pid)
	if r == 0 {
		t.Fatalf("no VmRSS for process %d", pid)
	}
	return r
}

func rssOrZero(pid int) int64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err == nil {
				return kb * 1024
			}
		}
	}
	return 0
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

// hubConnections counts the hub's established TCP connections other than the session's
// (from /proc/net/tcp: the hub's side of each, 127.0.0.1 and its port, in state
// ESTABLISHED).
func hubConnections(t *testing.T, h *Hub) int {
	t.Helper()
	port, err := strconv.Atoi(h.Port)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		return 0
	}
	n := 0
	local := fmt.Sprintf("0100007F:%04X", port) // 127.0.0.1, where the hub listens
	for _, line := range strings.Split(string(data), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) > 3 && f[1] == local && f[3] == "01" {
			n++
		}
	}
	return n - 1 // the agent's session
}
