package serve

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/waitfor"
)

// threeUsers is a users file of three: an agent, a supervisor and a viewer of the sandbox's
// default organization.
func threeUsers(t *testing.T, api *testAPI) []*member {
	t.Helper()
	ops := api.operators(t)
	return []*member{
		{name: "Clara", role: "agent", operator: ops["agent"][0]},
		{name: "Sam", role: "supervisor", operator: ops["admin"][0]},
		{name: "Vic", role: "viewer"},
	}
}

// firstPage is what the conversations screen shows first (by last message, newest first):
// the count and the first row's id.
func firstPage(t *testing.T, api *testAPI) (count int, newest int64) {
	t.Helper()
	p, err := api.client(t, 0).ListConversations(context.Background(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1, Ordering: client.Conversations.Shown}})
	if err != nil {
		t.Fatal(err)
	}
	return p.Count, p.Results[0].ID
}

// Two sessions with different keys see the same list, each on a terminal of its own size.
func TestTwoKeysSeeTheSameList(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	th := startHub(t, api, threeUsers(t, api))
	count, newest := firstPage(t, api)
	clara := open(t, th.dial(t, "Clara"), "Clara", 100, 30)
	sam := open(t, th.dial(t, "Sam"), "Sam", 120, 40)
	for _, term := range []*terminal{clara, sam} {
		term.waitText(fmt.Sprintf("│ %d ", count)) // the header's count ("98 conversations", "98" in a narrow list)
		term.waitText(fmt.Sprintf("#%d", newest))
	}
	waitfor.True(t, "two sessions", func() bool { return th.SessionCount() == 2 })
	if n := th.Sessions(th.members["Clara"].org); n != 2 {
		t.Errorf("Sessions(org) = %d, want 2", n)
	}
	for _, w := range [][]string{
		{"user", "Clara", "role", "agent", "term", "xterm-256color", "width", "100", "height", "30"},
		{"user", "Sam", "role", "supervisor", "term", "xterm-256color", "width", "120", "height", "40"},
	} {
		if th.logged(t, "session started", w...) != 1 {
			t.Errorf("the log has no record of a session started with %q:\n%s", w, th.log.String())
		}
	}
	clara.press("q")
	if code := clara.ended(); code != 0 {
		t.Errorf("Clara quit with status %d, want 0", code)
	}
	if !strings.HasSuffix(clara.out.String(), "\x1b[?1049l") && !strings.Contains(clara.out.String(), "\x1b[?1049l") {
		t.Error("Clara's terminal was not taken off the alternate screen")
	}
	waitfor.True(t, "one session left", func() bool { return th.SessionCount() == 1 })
	sam.waitText(fmt.Sprintf("#%d", newest)) // still there
}

// Only the keys of the users file get in, and only by public key; the refusals are logged,
// the first of the minute in full and the others summed up when the minute ends.
func TestOnlyKnownKeysGetIn(t *testing.T) {
	t.Parallel()
	clock := newManualClock()
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}}, withClock(clock))
	stranger, _ := newKey(t, "")
	if c, err := dialWith(th.addr, gossh.PublicKeys(stranger)); err == nil {
		_ = c.Close()
		t.Fatal("an unknown key got in")
	}
	if c, err := dialWith(th.addr, gossh.Password("hunter2")); err == nil {
		_ = c.Close()
		t.Fatal("a password got in")
	}
	ki := gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })
	if c, err := dialWith(th.addr, ki); err == nil {
		_ = c.Close()
		t.Fatal("keyboard-interactive got in")
	}
	c := th.dial(t, "Vic")
	_ = c.Close()
	waitfor.True(t, "the first refusal in the log", func() bool {
		return th.logged(t, "connection refused", "reason", "no key of the users file (public keys only)") > 0
	})
	waitfor.True(t, "every connection closed", func() bool { return th.Connections() == 0 })
	clock.advance(time.Minute)
	if n := th.logged(t, "connection refused"); n != 1 {
		t.Errorf("%d records of refusals, want the first one only:\n%s", n, th.log.String())
	}
	if th.logged(t, "connections summed up", "from", "127.0.0.1", "count", "2", "summary", "2 refused (no key of the users file)") != 1 {
		t.Errorf("the log does not sum up the other refusals:\n%s", th.log.String())
	}
}

// Only an interactive session with a PTY: a command, a subsystem (sftp), port forwarding
// both ways, agent and X11 forwarding, and a shell without a terminal are refused.
func TestOnlyInteractiveTerminals(t *testing.T) {
	t.Parallel()
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}})
	c := th.dial(t, "Vic")

	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.CombinedOutput("cat /etc/passwd")
	if err == nil {
		t.Errorf("exec ran: %q", out)
	}
	if strings.Contains(string(out), "root:") {
		t.Errorf("exec ran a command: %q", out)
	}

	s, err = c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RequestSubsystem("sftp"); err == nil {
		t.Error("the sftp subsystem was accepted")
	}
	_ = s.Close()

	if conn, err := c.Dial("tcp", freeAddr(t)); err == nil {
		_ = conn.Close()
		t.Error("local port forwarding (direct-tcpip) was accepted")
	}
	if l, err := c.Listen("tcp", "127.0.0.1:0"); err == nil {
		_ = l.Close()
		t.Error("remote port forwarding (tcpip-forward) was accepted")
	}

	s, err = c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []string{"auth-agent-req@openssh.com", "x11-req"} {
		ok, err := s.SendRequest(req, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			t.Errorf("%s was accepted", req)
		}
	}
	_ = s.Close()

	s, err = c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	term := &terminal{t: t, name: "Vic", s: s, out: &syncBuffer{}, done: make(chan error, 1), emu: vt.NewEmulator(80, 24)}
	s.Stdout, s.Stderr = term, term
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() { term.done <- s.Wait() }()
	if code := term.ended(); code != 1 {
		t.Errorf("a shell without a terminal ended with %d, want 1", code)
	}
	if !strings.Contains(term.text(), "a terminal is needed: connect with ssh -t") {
		t.Errorf("a shell without a terminal was told %q", term.text())
	}
	if th.SessionCount() != 0 {
		t.Errorf("%d sessions", th.SessionCount())
	}
}

// The hub takes at most --max-sessions sessions; the next one is told why it cannot come
// in, and a place is free again when a session ends.
func TestMaxSessions(t *testing.T) {
	t.Parallel()
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}}, func(o *Options) { o.MaxSessions = 2 })
	c := th.dial(t, "Vic")
	a := open(t, c, "Vic 1", 80, 24)
	b := open(t, c, "Vic 2", 80, 24)
	a.waitList()
	b.waitList()
	third := open(t, c, "Vic 3", 80, 24)
	if code := third.ended(); code != 1 {
		t.Errorf("the third session ended with %d, want 1", code)
	}
	if !strings.Contains(third.text(), "every place of the hub is taken (2: a session or a connection without one takes one); try again later") {
		t.Errorf("the third session was told %q", third.text())
	}
	a.press("q")
	a.ended()
	waitfor.True(t, "a free place", func() bool { return th.SessionCount() == 1 })
	fourth := open(t, c, "Vic 4", 80, 24)
	fourth.waitList()
}

// One address may open --conn-rate connections a minute; its refusals write one line and,
// when the minute ends, one line that counts the others.
func TestConnectionRateLimit(t *testing.T) {
	t.Parallel()
	clock := newManualClock()
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}}, withClock(clock), func(o *Options) { o.ConnPerMinute = 2 })
	th.dial(t, "Vic")
	th.dial(t, "Vic")
	for range 10 {
		if c, err := dialWith(th.addr, gossh.PublicKeys(th.members["Vic"].signer)); err == nil {
			_ = c.Close()
			t.Fatal("a third connection within the minute got in")
		}
	}
	refused := []string{"from", "127.0.0.1", "reason", "more than 2 a minute"}
	waitfor.True(t, "the refusal in the log", func() bool { return th.logged(t, "connection refused", refused...) > 0 })
	clock.advance(time.Minute)
	if n := th.logged(t, "connection refused", refused...); n != 1 {
		t.Errorf("%d records of refusals, want 1:\n%s", n, th.log.String())
	}
	if th.logged(t, "connections summed up", "from", "127.0.0.1", "count", "11",
		"summary", "9 refused (more than 2 a minute), 2 closed (no session within 30s)") != 1 {
		t.Errorf("the log does not count the other refusals:\n%s", th.log.String())
	}
	th.dial(t, "Vic") // a new minute: two more may come
}

// SIGHUP's reload: a session of a key removed from the users file ends with a message on
// its terminal; the others go on; a users file that does not check out changes nothing.
func TestReloadEndsTheSessionsOfRemovedKeys(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	ms := threeUsers(t, api)
	th := startHub(t, api, ms)
	clara := open(t, th.dial(t, "Clara"), "Clara", 80, 24)
	sam := open(t, th.dial(t, "Sam"), "Sam", 80, 24)
	clara.waitList()
	sam.waitList()

	bad := usersYAML(ms[1]) + "- name: Eve\n  key: nope\n  role: agent\n  operator: 1\n"
	if err := os.WriteFile(th.users, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := th.Reload(context.Background(), "a test"); err == nil || !strings.Contains(err.Error(), `user 2 ("Eve"): key`) {
		t.Fatalf("reload of a bad file: %v", err)
	}
	if th.SessionCount() != 2 {
		t.Fatalf("a failed reload ended sessions: %d left", th.SessionCount())
	}

	if err := os.WriteFile(th.users, []byte(usersYAML(ms[1], ms[2])), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := th.Reload(context.Background(), "a test"); err != nil {
		t.Fatal(err)
	}
	if code := clara.ended(); code != 1 {
		t.Errorf("Clara's session ended with %d, want 1", code)
	}
	if !strings.Contains(clara.text(), "your key was removed from the hub's users file") {
		t.Errorf("Clara was told %q", tail(clara.text(), 300))
	}
	if !strings.Contains(clara.out.String(), "\x1b[?1049l") {
		t.Error("Clara's terminal was not taken off the alternate screen")
	}
	waitfor.True(t, "Sam alone", func() bool { return th.SessionCount() == 1 })
	if _, err := dialWith(th.addr, gossh.PublicKeys(th.members["Clara"].signer)); err == nil {
		t.Error("Clara's removed key still gets in")
	}
}

// Shutdown ends every session cleanly: each terminal is restored and told why.
func TestShutdownRestoresEveryTerminal(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	th := startHub(t, api, threeUsers(t, api))
	terms := []*terminal{open(t, th.dial(t, "Clara"), "Clara", 80, 24), open(t, th.dial(t, "Vic"), "Vic", 80, 24)}
	for _, term := range terms {
		term.waitList()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := th.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	for _, term := range terms {
		if code := term.ended(); code != 1 {
			t.Errorf("%s's session ended with %d", term.name, code)
		}
		out := term.out.String()
		if !strings.Contains(out, "\x1b[?1049l") || !strings.Contains(out, "\x1b[?25h") {
			t.Errorf("%s's terminal was not restored (alternate screen, cursor)", term.name)
		}
		if !strings.Contains(term.text(), "the hub is shutting down") {
			t.Errorf("%s was told %q", term.name, tail(term.text(), 300))
		}
	}
}

// A hub shut down before its Serve has started (a signal right after start-up) is shut:
// Serve, when it runs, returns nil at once instead of taking connections for ever.
func TestShutdownBeforeServeEndsServe(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	th := listenHub(t, api, threeUsers(t, api))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := th.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- th.Serve() }()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve after Shutdown: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("Serve after Shutdown still takes connections after 10s")
	}
	if c, err := dialWith(th.addr); err == nil {
		_ = c.Close()
		t.Fatal("the hub took a connection after Shutdown")
	}
}

// A panic in one session ends that session only, logged with its user's name; the hub
// and the other sessions go on.
func TestAPanicEndsOneSessionOnly(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	m := NewMetrics()
	th := startHub(t, api, threeUsers(t, api), func(o *Options) {
		o.Metrics = m
		look := o.Look
		o.Look = func(env []string) Look {
			for _, kv := range env {
				if kv == "PARLEY_TEST_PANIC=1" {
					panic("a test panic")
				}
			}
			return look(env)
		}
	})
	sam := open(t, th.dial(t, "Sam"), "Sam", 80, 24)
	sam.waitList()
	clara := open(t, th.dial(t, "Clara"), "Clara", 80, 24, "PARLEY_TEST_PANIC=1")
	if code := clara.ended(); code != 1 {
		t.Errorf("Clara's session ended with %d, want 1", code)
	}
	if !strings.Contains(clara.text(), "an internal error ended the session") {
		t.Errorf("Clara was told %q", clara.text())
	}
	if th.logged(t, "internal error", "user", "Clara", "error", "a test panic") != 1 {
		t.Errorf("the log does not name Clara:\n%s", th.log.String())
	}
	if n := gather(t, m).sum(metricPanics, "where", panicSession); n != 1 {
		t.Errorf("%v panics ending a session counted, want 1", n)
	}
	waitfor.True(t, "Sam alone", func() bool { return th.SessionCount() == 1 })
	sam.press("2")
	sam.waitText("time: created") // the contacts list's header
	again := open(t, th.dial(t, "Clara"), "Clara again", 80, 24)
	again.waitList()
}

// A session without a key for the idle timeout ends, and says so.
func TestIdleSessionEnds(t *testing.T) {
	t.Parallel()
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}}, func(o *Options) { o.IdleTimeout = 700 * time.Millisecond })
	term := open(t, th.dial(t, "Vic"), "Vic", 80, 24)
	if code := term.ended(); code != 1 {
		t.Errorf("the idle session ended with %d", code)
	}
	if !strings.Contains(term.text(), "no key for 700ms: the session ended") {
		t.Errorf("the idle session was told %q", tail(term.text(), 300))
	}
}

// y copies to the clipboard of the terminal of the session that asked (OSC 52 on its own
// output), and to no other.
func TestCopyGoesToTheSessionsOwnTerminal(t *testing.T) {
	t.Setenv("TMUX", "") // the clipboard's tmux path is the hub machine's, not the session's
	api := startAPI(t)
	th := startHub(t, api, threeUsers(t, api))
	_, newest := firstPage(t, api)
	clara := open(t, th.dial(t, "Clara"), "Clara", 120, 40)
	sam := open(t, th.dial(t, "Sam"), "Sam", 120, 40)
	clara.waitText(fmt.Sprintf("#%d", newest))
	sam.waitText(fmt.Sprintf("#%d", newest))
	clara.press("y")
	clara.waitText("Copied")
	osc := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(strconv.FormatInt(newest, 10)))
	if !strings.Contains(clara.out.String(), osc) {
		t.Errorf("Clara's terminal got no OSC 52 with %d", newest)
	}
	if strings.Contains(sam.out.String(), "\x1b]52;") {
		t.Error("Sam's terminal got Clara's copy")
	}
}

// Each session draws with its own terminal's colour profile, told by the environment its
// client sent: one without colour (NO_COLOR) gets no colour codes, one with 24-bit colour
// (COLORTERM=truecolor) gets them.
func TestEachSessionHasItsOwnColourProfile(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	th := startHub(t, api, threeUsers(t, api), func(o *Options) {
		o.Look = func(env []string) Look {
			return Look{Profile: colorprofile.Env(env), Styles: theme.New(theme.Default(), true, false)}
		}
	})
	plain := open(t, th.dial(t, "Clara"), "Clara", 100, 30, "NO_COLOR=1")
	rich := open(t, th.dial(t, "Sam"), "Sam", 100, 30, "COLORTERM=truecolor")
	plain.waitList()
	rich.waitList()
	if out := plain.out.String(); strings.Contains(out, "\x1b[38;") || strings.Contains(out, "\x1b[48;") {
		t.Error("the NO_COLOR session got colour codes")
	}
	if !strings.Contains(rich.out.String(), "38;2;") {
		t.Error("the truecolor session got no 24-bit colour")
	}
}

// A session follows its terminal's size: a window change redraws it at the new size.
func TestASessionFollowsItsWindow(t *testing.T) {
	t.Parallel()
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}})
	term := open(t, th.dial(t, "Vic"), "Vic", 80, 24)
	term.waitList()
	if strings.Contains(term.screen(), "Messages") {
		t.Fatalf("80 columns show the messages pane:\n%s", term.screen())
	}
	term.mu.Lock()
	term.emu.Resize(120, 40)
	term.mu.Unlock()
	if err := term.s.WindowChange(40, 120); err != nil {
		t.Fatal(err)
	}
	term.waitText("Messages") // side by side from 100 columns
}

// A session the hub ends before its TUI has started is told why too.
func TestASessionEndedBeforeItsTUIStartsIsToldWhy(t *testing.T) {
	t.Parallel()
	drawing, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	th := startHub(t, nil, []*member{{name: "Vic", role: "viewer"}}, func(o *Options) {
		look := o.Look
		o.Look = func(env []string) Look {
			once.Do(func() { close(drawing) })
			<-release // the TUI is being made
			return look(env)
		}
	})
	term := open(t, th.dial(t, "Vic"), "Vic", 80, 24)
	<-drawing
	shut := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		shut <- th.ShutdownFor(ctx, "the hub is shutting down (a test)")
	}()
	waitfor.True(t, "the session told to end", func() bool {
		th.mu.Lock()
		defer th.mu.Unlock()
		for s := range th.sessions {
			if s.why != "" {
				return true
			}
		}
		return false
	})
	close(release)
	if code := term.ended(); code != 1 {
		t.Errorf("the session ended with %d, want 1", code)
	}
	if !strings.Contains(term.text(), "parley hub: the hub is shutting down (a test)") {
		t.Errorf("the session was told %q", term.text())
	}
	if err := <-shut; err != nil {
		t.Error(err)
	}
}
